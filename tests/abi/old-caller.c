/* A program compiled against a frozen copy of the 1.0 header (tests/abi/flame-1.0.h) and run
 * against the library as it is now: the promise that options structs only grow at the end,
 * each version read as the layout its caller was compiled with. Every options struct is
 * allocated on the heap at exactly the 1.0 size, so a library that read past it fails under
 * AddressSanitizer; options of every kind are set and each shows in what the library does.
 * When a field is appended to a struct after 1.0 this program keeps passing unchanged: it
 * is the old caller. Usage: old-caller FIXTURES_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "flame-1.0.h"

static int failures, checks;
#define CHECK(c)                                                                          \
	do {                                                                                  \
		checks++;                                                                         \
		if (!(c)) {                                                                       \
			failures++;                                                                   \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c);         \
		}                                                                                 \
	} while (0)

static const char *fixtures;

/* Each options struct at exactly the size this program knows, initialized by its macro. */
static void *dup_opts(const void *init, size_t size)
{
	void *p = malloc(size);
	if (!p)
		abort();
	return memcpy(p, init, size);
}
#define NEW_OPTS(type, init) ((type *)dup_opts(&(type)init, sizeof(type)))

static flame_tree *parse_file(const char *rel, const flame_parse_opts *o)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", fixtures, rel);
	flame_tree *t = NULL;
	flame_input *in = NULL;
	flame_err err = {0};
	if (flame_tree_new(&t, &err) || flame_input_open(&in, path, &err) ||
	    flame_parse(t, in, o, &err)) {
		char msg[1024];
		flame_err_format(&err, msg, sizeof msg);
		fprintf(stderr, "parse %s: %s\n", rel, msg);
		flame_input_free(in);
		flame_tree_free(t);
		return NULL;
	}
	flame_input_free(in);
	return t;
}

/* The root frame of the first stack, copied into buf. */
static int first_root(void *ud, const flame_str *frames, size_t n, uint64_t w0, uint64_t w1)
{
	char *buf = ud;
	size_t k = frames[0].len < 255 ? frames[0].len : 255;
	memcpy(buf, frames[0].ptr, k);
	buf[k] = '\0';
	return 1;
}

static void root_of(flame_tree *t, char *buf)
{
	buf[0] = '\0';
	flame_tree_each_stack(t, first_root, buf, NULL);
}

static int warned;
static void on_warn(void *ud, const char *kind, const char *source, uint64_t line, const char *msg)
{
	warned++;
}

static void test_parse_options(void)
{
	flame_parse_opts *o = NEW_OPTS(flame_parse_opts, FLAME_PARSE_OPTS_INIT);
	o->threads = 1;
	flame_tree *plain = parse_file("example/workload.perf.txt", o);
	o->perf_flags = FLAME_PERF_PID;
	o->perf_event_filter = "cpu-clock";
	o->warn = on_warn;
	flame_tree *pid = parse_file("example/workload.perf.txt", o);
	CHECK(plain && pid);
	if (plain && pid) {
		char a[256], b[256];
		root_of(plain, a);
		root_of(pid, b);
		CHECK(strchr(b, '-') != NULL && strcmp(a, b) != 0); /* comm-PID */
		CHECK(flame_tree_total(plain, 0) == flame_tree_total(pid, 0));
	}
	flame_tree_free(pid);
	o->has_time_range = 1; /* a range before the recording: nothing */
	o->time_start = 0;
	o->time_end = 0.001;
	flame_tree *none = parse_file("example/workload.perf.txt", o);
	CHECK(none && flame_tree_total(none, 0) == 0);
	flame_tree_free(none);
	flame_tree_free(plain);

	flame_parse_opts *j = NEW_OPTS(flame_parse_opts, FLAME_PARSE_OPTS_INIT);
	j->format = FLAME_FORMAT_JFR;
	j->jfr_event = "jdk.ExecutionSample";
	j->jfr_flags = FLAME_JFR_THREADS;
	flame_tree *jt = parse_file("jfr/execution-depth5.txt", j);
	char r[256] = "";
	if (jt)
		root_of(jt, r);
	CHECK(jt && flame_tree_total(jt, 0) > 0 && strchr(r, '.') == NULL); /* a thread, no class */
	flame_tree_free(jt);

	flame_parse_opts *c = NEW_OPTS(flame_parse_opts, FLAME_PARSE_OPTS_INIT);
	c->offcpu_flags = FLAME_OFFCPU_TID;
	flame_tree *ct = parse_file("offcpu/bcc-offsets-s.txt", c);
	if (ct)
		root_of(ct, r);
	CHECK(ct && strchr(r, '-') != NULL);
	flame_tree_free(ct);

	flame_parse_opts *p = NEW_OPTS(flame_parse_opts, FLAME_PARSE_OPTS_INIT);
	p->pprof_sample_type = "samples";
	flame_tree *samples = parse_file("units/go-cpu.pb.gz", p);
	p->pprof_sample_type = "cpu";
	p->pprof_flags = FLAME_PPROF_LINES;
	flame_tree *cpu = parse_file("units/go-cpu.pb.gz", p);
	CHECK(samples && cpu && flame_tree_total(samples, 0) < flame_tree_total(cpu, 0));
	CHECK(cpu && flame_tree_count_name(cpu) && strcmp(flame_tree_count_name(cpu), "nanoseconds") == 0);
	flame_err err = {0};
	static const char *const bad_tag[] = {"key=("};
	p->tags = bad_tag;
	p->n_tags = 1;
	CHECK(flame_parse_opts_check(p, &err) == FLAME_EUSAGE);
	flame_tree_free(samples);
	flame_tree_free(cpu);
	free(o);
	free(j);
	free(c);
	free(p);
}

static int collect(void *ud, const char *text, size_t len)
{
	size_t *n = ud;
	*n += len;
	return 0;
}

static void test_diff_and_report_options(void)
{
	flame_diff_opts *d = NEW_OPTS(flame_diff_opts, FLAME_DIFF_OPTS_INIT);
	d->norm = FLAME_DIFF_NORM_REQUESTS;
	d->requests_before = 10;
	d->requests_after = 20;
	flame_diff_request *req = NULL;
	flame_err err = {0};
	char before[4096], after[4096];
	snprintf(before, sizeof before, "%s/diff/before.folded", fixtures);
	snprintf(after, sizeof after, "%s/diff/after.folded", fixtures);
	flame_tree *t = NULL;
	CHECK(flame_diff_request_new(&req, d, &err) == 0);
	CHECK(req && flame_diff_request_input(req, 0, before, NULL, NULL, &err) == 0);
	CHECK(req && flame_diff_request_input(req, 1, after, NULL, NULL, &err) == 0);
	CHECK(req && flame_diff_request_tree(req, &t, &err) == 0);
	if (t) /* BEFORE doubled: 20 requests' worth */
		CHECK(flame_tree_total(t, 0) > flame_diff_request_total(req, 0));
	flame_diff_request_free(req);

	flame_diff_report *rep = NULL;
	flame_top_opts *top = NEW_OPTS(flame_top_opts, FLAME_TOP_OPTS_INIT);
	top->rows = 1;
	size_t one = 0, all = 0;
	CHECK(t && flame_diff_report_new(&rep, t, &err) == 0);
	CHECK(rep && flame_write_top(rep, top, collect, &one, &err) == 0);
	top->rows = 0;
	CHECK(rep && flame_write_top(rep, top, collect, &all, &err) == 0);
	CHECK(one > 0 && one < all);
	flame_diff_report_free(rep);

	flame_cost_opts *co = NEW_OPTS(flame_cost_opts, FLAME_COST_OPTS_INIT);
	co->by = FLAME_COST_BY_ROOT;
	co->rows = 1;
	flame_cost_report *cr = NULL;
	CHECK(t && flame_cost_report_new(&cr, t, co, &err) == 0);
	CHECK(cr && flame_cost_report_count(cr) >= 1 && flame_cost_report_row(cr, 0) != NULL);
	flame_cost_report_free(cr);
	flame_tree_free(t);
	free(d);
	free(top);
	free(co);
}

static void test_render_options(void)
{
	flame_parse_opts *o = NEW_OPTS(flame_parse_opts, FLAME_PARSE_OPTS_INIT);
	flame_tree *t = parse_file("diff/before.folded", o);
	flame_render_opts *r = NEW_OPTS(flame_render_opts, FLAME_RENDER_OPTS_INIT);
	r->title = "old caller's title";
	r->width = 640;
	r->colors = "blue";
	r->flags = FLAME_RENDER_INVERTED;
	flame_err err = {0};
	CHECK(flame_render_opts_check(r, &err) == 0);
	char path[] = "/tmp/flame-old-caller-XXXXXX";
	int fd = mkstemp(path);
	flame_output *out = NULL;
	CHECK(fd >= 0 && t && flame_output_open(&out, path, &err) == 0);
	CHECK(out && flame_write(t, FLAME_OUTPUT_SVG, r, out, &err) == 0);
	CHECK(out && flame_output_commit(out, &err) == 0);
	FILE *f = fopen(path, "r");
	static char svg[1 << 20];
	size_t n = f ? fread(svg, 1, sizeof svg - 1, f) : 0;
	svg[n] = '\0';
	if (f)
		fclose(f);
	unlink(path);
	CHECK(strstr(svg, "old caller&apos;s title") || strstr(svg, "old caller&#39;s title") ||
	      strstr(svg, "old caller's title"));
	CHECK(strstr(svg, "width=\"640\"") != NULL);
	flame_tree_free(t);
	free(o);
	free(r);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: old-caller FIXTURES_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	test_parse_options();
	test_diff_and_report_options();
	test_render_options();
	fprintf(stderr, "%d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
