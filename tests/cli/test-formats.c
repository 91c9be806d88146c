/* The format tables of flame.h: every entry has a name, extensions and a description; the
 * input table is in flame_format order; lookups by name and by path find every entry, and
 * unknown names and extensions fail with a message naming the known ones; flame_write
 * writes every output format as its own writer does. Through flame.h only. */
#include "harness.h"
#include "util.h"

static void test_every_entry_is_whole(void)
{
	size_t ni = flame_input_format_count(), no = flame_output_format_count();
	CHECK(ni >= 6);
	CHECK(no >= 5);
	CHECK(flame_input_format_info(ni) == NULL);
	CHECK(flame_output_format_info(no) == NULL);
	for (int out = 0; out < 2; out++) {
		size_t n = out ? no : ni;
		for (size_t i = 0; i < n; i++) {
			const flame_format_info *f = out ? flame_output_format_info(i) : flame_input_format_info(i);
			CHECK(f && f->name && f->name[0] && f->description && f->description[0]);
			CHECK(f->extensions && f->extensions[0]);
			for (const char *const *e = f->extensions; e && *e; e++)
				CHECK((*e)[0] == '.' && strlen(*e) > 1);
			/* names are unique within a table */
			for (size_t j = 0; j < i; j++) {
				const flame_format_info *g = out ? flame_output_format_info(j) : flame_input_format_info(j);
				CHECK(strcmp(f->name, g->name) != 0);
				CHECK(f->id != g->id);
			}
			if (out) {
				CHECK(f->id != FLAME_OUTPUT_NONE);
				CHECK(f->flags & (FLAME_OUTPUT_STACKS | FLAME_OUTPUT_PICTURE));
			} else {
				CHECK(f->id > 0 && (i == 0 || f->id > flame_input_format_info(i - 1)->id));
				CHECK(f->flags == 0);
				CHECK_STR(flame_input_format_name((flame_format)f->id), f->name);
			}
		}
	}
}

/* Every format of the enum keeps its name, read by this build or not (perfdata without
 * -Dperfdata); AUTO is "auto"; a number past the enum has none. */
static void test_names_by_id(void)
{
	static const char *const names[] = {"auto", "folded", "perf", "pprof", "offcpu", "jfr", "svg",
	                                    "perfdata", "html", "bpftrace", "dtrace", "jfr-binary",
	                                    "cpuprofile", "speedscope", "chrometrace", "firefox"};
	for (int f = 0; f < (int)(sizeof names / sizeof names[0]); f++)
		CHECK_STR(flame_input_format_name((flame_format)f), names[f]);
	CHECK(flame_input_format_name((flame_format)(sizeof names / sizeof names[0])) == NULL);
	CHECK(flame_input_format_name((flame_format)-1) == NULL);
	flame_format f = FLAME_FORMAT_AUTO;
	flame_err err;
#ifdef FLAME_HAVE_PERFDATA
	CHECK(flame_input_format_find("perfdata", &f, &err) == 0 && f == FLAME_FORMAT_PERFDATA);
#else
	CHECK(flame_input_format_find("perfdata", &f, &err) == FLAME_EUSAGE && f == FLAME_FORMAT_AUTO);
	for (size_t i = 0; i < flame_input_format_count(); i++)
		CHECK(strcmp(flame_input_format_info(i)->name, "perfdata") != 0);
#endif
}

static void test_find_by_name(void)
{
	flame_err err;
	flame_format in = FLAME_FORMAT_SVG;
	CHECK(flame_input_format_find("auto", &in, &err) == 0 && in == FLAME_FORMAT_AUTO);
	for (size_t i = 0; i < flame_input_format_count(); i++) {
		const flame_format_info *f = flame_input_format_info(i);
		CHECK(flame_input_format_find(f->name, &in, &err) == 0 && (int)in == f->id);
	}
	in = FLAME_FORMAT_PERF;
	CHECK(flame_input_format_find("png", &in, &err) == FLAME_EUSAGE);
	CHECK(in == FLAME_FORMAT_PERF); /* untouched on failure */
	/* every input format is named (perfdata too when built with -Dperfdata) */
	char want[256] = "unknown input format 'png' (auto";
	for (size_t i = 0; i < flame_input_format_count(); i++)
		snprintf(want + strlen(want), sizeof want - strlen(want), ", %s",
		         flame_input_format_info(i)->name);
	snprintf(want + strlen(want), sizeof want - strlen(want), ")");
	CHECK(strncmp(want, "unknown input format 'png' (auto, folded, perf, pprof, offcpu, jfr, svg",
	              70) == 0);
	CHECK_STR(err.msg, want);
	CHECK(flame_input_format_find(NULL, &in, &err) == FLAME_EUSAGE);

	flame_output_format o = FLAME_OUTPUT_NONE;
	for (size_t i = 0; i < flame_output_format_count(); i++) {
		const flame_format_info *f = flame_output_format_info(i);
		CHECK(flame_output_format_find(f->name, 0, &o, &err) == 0 && (int)o == f->id);
		CHECK(flame_output_format_find(f->name, f->flags, &o, &err) == 0 && (int)o == f->id);
	}
	CHECK(flame_output_format_find("svg", FLAME_OUTPUT_PICTURE, &o, &err) == 0 && o == FLAME_OUTPUT_SVG);
	o = FLAME_OUTPUT_NONE;
	CHECK(flame_output_format_find("svg", FLAME_OUTPUT_STACKS, &o, &err) == FLAME_EUSAGE);
	CHECK(o == FLAME_OUTPUT_NONE);
	CHECK_STR(err.msg, "unknown output format 'svg' (folded, pprof, speedscope, cpuprofile)");
	CHECK(flame_output_format_find("perf", 0, &o, &err) == FLAME_EUSAGE);
	CHECK_STR(err.msg, "unknown output format 'perf' (folded, pprof, svg, png, pdf, html, "
	                   "speedscope, cpuprofile)");
	CHECK(flame_output_format_find("pprof", FLAME_OUTPUT_DIFF, &o, &err) == FLAME_EUSAGE);
	CHECK_STR(err.msg, "unknown output format 'pprof' (folded, svg, png, pdf, html, speedscope)");
	CHECK(flame_output_format_find("SVG", 0, &o, &err) == FLAME_EUSAGE); /* names are exact */
}

static void test_find_by_path(void)
{
	flame_err err;
	struct { const char *path; unsigned accept; flame_output_format want; } ok[] = {
	    {NULL, 0, FLAME_OUTPUT_NONE},          {"-", 0, FLAME_OUTPUT_NONE},
	    {"out", 0, FLAME_OUTPUT_NONE},         {".svg", 0, FLAME_OUTPUT_NONE},
	    {"dir.svg/out", 0, FLAME_OUTPUT_NONE}, {"a/b.SVG", 0, FLAME_OUTPUT_SVG},
	    {"x.png", 0, FLAME_OUTPUT_PNG},        {"x.pdf", FLAME_OUTPUT_PICTURE, FLAME_OUTPUT_PDF},
	    {"x.pb.gz", 0, FLAME_OUTPUT_PPROF},    {"x.pb", 0, FLAME_OUTPUT_PPROF},
	    {"x.pprof", 0, FLAME_OUTPUT_PPROF},    {"x.folded", 0, FLAME_OUTPUT_FOLDED},
	    {"x.collapsed", 0, FLAME_OUTPUT_FOLDED}, {"x.perf.txt", 0, FLAME_OUTPUT_FOLDED},
	    {"x.html", FLAME_OUTPUT_PICTURE, FLAME_OUTPUT_HTML}, {"x.HTM", 0, FLAME_OUTPUT_HTML},
	    {"x.speedscope.json", 0, FLAME_OUTPUT_SPEEDSCOPE}, {"x.cpuprofile", 0, FLAME_OUTPUT_CPUPROFILE},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		flame_output_format o = (flame_output_format)-1;
		int rc = flame_output_format_from_path(ok[i].path, ok[i].accept, &o, &err);
		if (rc || o != ok[i].want)
			fprintf(stderr, "%s: rc %d, format %d, want %d\n", ok[i].path ? ok[i].path : "NULL",
			        rc, (int)o, (int)ok[i].want);
		CHECK(rc == 0 && o == ok[i].want);
	}
	/* every extension of every entry names it */
	for (size_t i = 0; i < flame_output_format_count(); i++) {
		const flame_format_info *f = flame_output_format_info(i);
		for (const char *const *e = f->extensions; *e; e++) {
			char path[64];
			flame_output_format o;
			snprintf(path, sizeof path, "dir/name%s", *e);
			CHECK(flame_output_format_from_path(path, 0, &o, &err) == 0 && (int)o == f->id);
		}
	}
	for (size_t i = 0; i < flame_input_format_count(); i++) {
		const flame_format_info *f = flame_input_format_info(i);
		for (const char *const *e = f->extensions; *e; e++) {
			char path[64];
			snprintf(path, sizeof path, "dir/name%s", *e);
			CHECK((int)flame_input_format_from_path(path) == f->id);
		}
	}
	flame_output_format o = FLAME_OUTPUT_SVG;
	CHECK(flame_output_format_from_path("x.jpg", 0, &o, &err) == FLAME_EUSAGE);
	CHECK(o == FLAME_OUTPUT_SVG);
	CHECK_STR(err.source, "x.jpg");
	CHECK_STR(err.msg, "unknown extension '.jpg'; known: .folded .collapsed .txt .pb.gz .pb "
	                   ".pprof .pgo .svg .png .pdf .html .htm .speedscope.json .cpuprofile");
	CHECK(flame_output_format_from_path("x.svg", FLAME_OUTPUT_STACKS, &o, &err) == FLAME_EUSAGE);
	CHECK_STR(err.msg, "unknown extension '.svg'; known: .folded .collapsed .txt .pb.gz .pb .pprof .pgo "
	                   ".speedscope.json .cpuprofile");
	/* the longest extension wins: .pb.gz is pprof even where .gz alone is nothing */
	CHECK(flame_input_format_from_path("a.pb.gz") == FLAME_FORMAT_PPROF);
	CHECK(flame_input_format_from_path("a.perf.txt") == FLAME_FORMAT_PERF);
	CHECK(flame_input_format_from_path("a.txt") == FLAME_FORMAT_AUTO);
	CHECK(flame_input_format_from_path(NULL) == FLAME_FORMAT_AUTO);
	CHECK(flame_input_format_from_path("-") == FLAME_FORMAT_AUTO);
}

/* flame_write gives, for every entry, what the entry's own writer gives */
static void test_write_dispatch(void)
{
	flame_err err;
	flame_tree *t = parse_str("main;idle 3\nmain;work 7\n", FLAME_FORMAT_FOLDED, &err);
	flame_render_opts ro = FLAME_RENDER_OPTS_INIT;
	ro.title = "formats";
	size_t n;
	char *a = written_as(t, FLAME_OUTPUT_FOLDED, &ro, &n), *b = folded_str(t);
	CHECK(a && b && strcmp(a, b) == 0 && n == strlen(b));
	free(a);
	free(b);
	a = written_as(t, FLAME_OUTPUT_SVG, &ro, &n), b = svg_str(t, &ro);
	CHECK(a && b && strcmp(a, b) == 0 && n == strlen(b));
	free(a);
	free(b);
	/* the binary ones by their magic bytes (a PDF also carries its creation time) */
	struct { flame_output_format f; const char *magic; size_t len; } bin[] = {
	    {FLAME_OUTPUT_PPROF, "\x1f\x8b", 2}, {FLAME_OUTPUT_PNG, "\x89PNG", 4},
	    {FLAME_OUTPUT_PDF, "%PDF-", 5},
	};
	for (size_t i = 0; i < sizeof bin / sizeof bin[0]; i++) {
		a = written_as(t, bin[i].f, NULL, &n);
		CHECK(a && n > bin[i].len && memcmp(a, bin[i].magic, bin[i].len) == 0);
		free(a);
	}
	/* pprof through the table reads back as the same stacks */
	a = written_as(t, FLAME_OUTPUT_PPROF, NULL, &n);
	flame_input *in = NULL;
	flame_tree *back = test_tree_new();
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	CHECK(a && flame_input_open_mem(&in, a, n, "pprof", &err) == 0 &&
	      flame_parse(back, in, &po, &err) == 0);
	flame_input_free(in);
	free(a);
	a = folded_str(back);
	CHECK_STR(a ? a : "", "main;idle 3\nmain;work 7\n");
	free(a);
	flame_tree_free(back);
	/* speedscope through the table is the writer's, and reads back as the same stacks */
	a = written_as(t, FLAME_OUTPUT_SPEEDSCOPE, NULL, &n);
	back = test_tree_new();
	CHECK(a && flame_input_open_mem(&in, a, n, "x.speedscope.json", &err) == 0 &&
	      flame_parse(back, in, &po, &err) == 0);
	flame_input_free(in);
	CHECK(a && strncmp(a, "{\"$schema\":\"https://www.speedscope.app/", 38) == 0);
	free(a);
	a = folded_str(back);
	CHECK_STR(a ? a : "", "main;idle 3\nmain;work 7\n");
	free(a);
	flame_tree_free(back);
	/* every entry of the table has a writer (in time, which a .cpuprofile needs) */
	CHECK(flame_tree_set_count_name(t, "microseconds") == 0);
	a = written_as(t, FLAME_OUTPUT_CPUPROFILE, NULL, &n);
	CHECK(a && strstr(a, "\"samples\":[3,4],\"timeDeltas\":[0,3]}") != NULL);
	free(a);
	for (size_t i = 0; i < flame_output_format_count(); i++) {
		a = written_as(t, (flame_output_format)flame_output_format_info(i)->id, NULL, &n);
		CHECK(a && n > 0);
		free(a);
	}
	flame_output *o = NULL;
	CHECK(flame_output_open(&o, NULL, &err) == 0);
	CHECK(flame_write(t, FLAME_OUTPUT_NONE, NULL, o, &err) == FLAME_EUSAGE);
	CHECK(strstr(err.msg, "no writer") != NULL);
	flame_output_abort(o);
	flame_tree_free(t);
}

int main(void)
{
	RUN(test_every_entry_is_whole);
	RUN(test_names_by_id);
	RUN(test_find_by_name);
	RUN(test_find_by_path);
	RUN(test_write_dispatch);
	return harness_done();
}
