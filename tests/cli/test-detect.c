/* Format auto-detection over every file of fixtures/corpus (and the offcpu, jfr and svg
 * fixtures): each profile is told by its content (after gzip) as its own format,
 * references and -f output as folded, and no other file (stderr captures, summaries,
 * JSON, binary JFR) is claimed by a reader it does not belong to.
 * Usage: test-detect CORPUS_DIR [FIXTURES_DIR] (fails without the corpus). */
#include <dirent.h>
#include <fnmatch.h>
#include "core/input.h"
#include "harness.h"
#include "util.h"

enum { ANY_OTHER = -1,  /* neither offcpu, jfr nor folded */
       NOT_OURS = -2 }; /* not offcpu or jfr (the loose folded probe may take it) */

/* First matching rule wins: dir-relative glob -> expected format. */
static const struct rule {
	const char *glob;
	int fmt;
} rules[] = {
	{"perf/expected/*.folded", FLAME_FORMAT_FOLDED},
	{"perf/*.perf.txt", FLAME_FORMAT_PERF},
	{"pprof/ref/*.folded*.txt", FLAME_FORMAT_FOLDED},
	{"pprof/ref/*", ANY_OTHER},
	{"pprof/*.pb*", FLAME_FORMAT_PPROF},
	{"offcputime/*.stderr.txt", ANY_OTHER},
	{"offcputime/*folded*.txt", FLAME_FORMAT_FOLDED},
	{"offcputime/*.txt", FLAME_FORMAT_OFFCPU},
	{"jfr/print-*.txt", FLAME_FORMAT_JFR},
	{"jfr/ref-fold/*.folded", FLAME_FORMAT_FOLDED},
	{"jfr/ref-async-profiler/*.collapsed", FLAME_FORMAT_FOLDED},
	{"jfr/summary.txt", NOT_OURS}, /* " Version: 2.1" reads as a folded line */
	{"jfr-binary/ref-fold/*.folded", FLAME_FORMAT_FOLDED},
	{"jfr-binary/*.jfr.gz", FLAME_FORMAT_JFR_BINARY},
	{"*", ANY_OTHER},
};

static const struct rule fixture_rules[] = {
	{"*/results/*.folded", FLAME_FORMAT_FOLDED},
	{"*/results/*.svg", FLAME_FORMAT_SVG},
	{"*/results/*", NOT_OURS},
	{"svg/*.svg", FLAME_FORMAT_SVG},
	{"offcpu/*.txt", FLAME_FORMAT_OFFCPU},
	{"jfr/*.txt", FLAME_FORMAT_JFR},
	{"jfr-binary/*.jfr", FLAME_FORMAT_JFR_BINARY},
	{"jfr-binary/*-print.txt", FLAME_FORMAT_JFR}, /* jfr print's text of one */
	{"*", ANY_OTHER},
};
static const struct rule *cur_rules = rules;
static size_t cur_nrules = sizeof rules / sizeof rules[0];

static int expected(const char *rel)
{
	for (size_t i = 0; i < cur_nrules; i++)
		if (fnmatch(cur_rules[i].glob, rel, FNM_PATHNAME) == 0)
			return cur_rules[i].fmt;
	return ANY_OTHER;
}

static int checked, per_format[FLAME_FORMAT_JFR_BINARY + 1];

static void check_file(const char *path, const char *rel)
{
	flame_input *in = NULL;
	flame_err err = {0};
	const char *p;
	if (flame_input_open(&in, path, &err)) {
		CHECK(0);
		return;
	}
	long n = flame__input_peek(in, &p, 64 * 1024, &err);
	int want = expected(rel);
	if (n < 0) {
		/* only the deliberately truncated gzip may fail to inflate its start */
		if (!strstr(rel, "truncated"))
			fprintf(stderr, "%s: %s\n", rel, err.msg);
		CHECK(strstr(rel, "truncated") != NULL);
		flame_input_free(in);
		return;
	}
	flame_format got = n > 0 ? flame_detect(p, (size_t)n) : FLAME_FORMAT_AUTO;
	int ours = got == FLAME_FORMAT_OFFCPU || got == FLAME_FORMAT_JFR || got == FLAME_FORMAT_SVG;
	int ok = want == NOT_OURS    ? !ours
	         : want == ANY_OTHER ? !ours && got != FLAME_FORMAT_FOLDED
	                             : (int)got == want || (n == 0 && got == FLAME_FORMAT_AUTO);
	if (!ok)
		fprintf(stderr, "%s: detected as %s, expected %s\n", rel, flame_input_format_name(got),
		        want < 0 ? "none of offcpu/jfr/svg(/folded)" : flame_input_format_name(want));
	CHECK(ok);
	checked++;
	if (want >= 0)
		per_format[want]++;
	flame_input_free(in);
}

static void walk(const char *root, const char *rel)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "gen") == 0)
			continue;
		char r[4096], path[8192];
		snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		snprintf(path, sizeof path, "%s/%s", root, r);
		DIR *sub = opendir(path);
		if (sub) {
			closedir(sub);
			walk(root, r);
		} else if (strcmp(r, "README.md") != 0) {
			check_file(path, r);
		}
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	DIR *d = argc < 2 ? NULL : opendir(argv[1]);
	if (!d) {
		fprintf(stderr, "no corpus at %s\n", argc < 2 ? "(no argument)" : argv[1]);
		return 1;
	}
	closedir(d);
	walk(argv[1], "");
	if (argc > 2) {
		cur_rules = fixture_rules;
		cur_nrules = sizeof fixture_rules / sizeof fixture_rules[0];
		walk(argv[2], "svg");
		walk(argv[2], "offcpu");
		walk(argv[2], "jfr");
		walk(argv[2], "jfr-binary");
		walk(argv[2], "render/results");
		CHECK(per_format[FLAME_FORMAT_SVG] >= 10);
	}
	fprintf(stderr, "%d files: perf %d, pprof %d, offcpu %d, jfr %d, jfr-binary %d, svg %d, "
	        "folded %d\n", checked, per_format[FLAME_FORMAT_PERF], per_format[FLAME_FORMAT_PPROF],
	        per_format[FLAME_FORMAT_OFFCPU], per_format[FLAME_FORMAT_JFR],
	        per_format[FLAME_FORMAT_JFR_BINARY], per_format[FLAME_FORMAT_SVG],
	        per_format[FLAME_FORMAT_FOLDED]);
	/* the corpus has files of every format: an empty walk must not pass */
	CHECK(per_format[FLAME_FORMAT_OFFCPU] >= 14 && per_format[FLAME_FORMAT_JFR] >= 8 &&
	      per_format[FLAME_FORMAT_JFR_BINARY] >= 1);
	return harness_done();
}
