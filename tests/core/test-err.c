/* Every failing public call leaves a printable message in its flame_err.
 *
 * Out of memory: this test links the library's objects with malloc, calloc and realloc
 * wrapped (-Wl,--wrap, see tests/meson.build). Each case runs its public call again and
 * again with the 1st, 2nd, 3rd... allocation failing, until the call gets through; every
 * run that fails must return a code and leave err.msg non-empty (and never crash).
 * Bad data and bad arguments: a sample of inputs and calls that fail must name their
 * source (and position) in the message.
 *
 * Usage: test-err FIXTURES_DIR */
#include <stdint.h>
#include "harness.h"
#include "util.h"

/* ---- allocation failure injection */

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);

static long fail_at; /* 0: never; else the allocation (1-based) that fails */
static long n_allocs;

static int fail_now(void)
{
	return fail_at && ++n_allocs == fail_at;
}

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t k, size_t n)
{
	return fail_now() ? NULL : __real_calloc(k, n);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}

/* ---- the cases: set up (no failures), the call under test, tear down */

static const char *fixtures;

typedef struct ctx {
	flame_tree *t, *u;
	flame_input *in;
	flame_output *out;
	char path[64];
	const char *file; /* the case's input, under fixtures/ */
	flame_format fmt;
} ctx;

static const char FOLDED[] =
	"main;a;b 10\nmain;a;c 5\nmain;0x7f00aa;d 3\nmain;e 1\nother;a;b 2\nmain;a;b;work 4\n";
static const char FOLDED2[] = "main;a;b 4\nmain;x 9\nother;a 1\n";

static flame_tree *tree_of(const char *text)
{
	flame_err err;
	flame_tree *t = parse_str(text, FLAME_FORMAT_FOLDED, &err);
	if (!t)
		abort();
	return t;
}

static void setup_trees(ctx *c)
{
	c->t = tree_of(FOLDED);
	c->u = tree_of(FOLDED2);
}

static void setup_output(ctx *c)
{
	setup_trees(c);
	strcpy(c->path, "/tmp/flame-test-err-XXXXXX");
	int fd = mkstemp(c->path);
	if (fd < 0)
		abort();
	close(fd);
	flame_err err;
	if (flame_output_open(&c->out, c->path, &err))
		abort();
}

static void setup_input(ctx *c)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", fixtures, c->file);
	flame_err err;
	if (flame_input_open(&c->in, path, &err))
		abort();
	c->t = test_tree_new();
}

static void teardown(ctx *c)
{
	if (c->out)
		flame_output_abort(c->out);
	if (c->path[0])
		unlink(c->path);
	flame_input_free(c->in);
	flame_tree_free(c->t);
	flame_tree_free(c->u);
}

static int do_parse(ctx *c, flame_err *err)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = c->fmt;
	o.threads = 1;
	return flame_parse(c->t, c->in, &o, err);
}

static int do_write_folded(ctx *c, flame_err *err) { return flame_write_folded(c->t, c->out, err); }
static int do_write_pprof(ctx *c, flame_err *err) { return flame_write_pprof(c->t, c->out, err); }

static int do_write_svg(ctx *c, flame_err *err)
{
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	return flame_write_svg(c->t, &o, c->out, err);
}

static int do_build(ctx *c, flame_err *err) { return flame_tree_build(c->t, FLAME_ORDER_NAME, err); }
static int do_merge(ctx *c, flame_err *err) { return flame_tree_merge(c->t, c->u, err); }
static int do_filter(ctx *c, flame_err *err) { return flame_filter_stacks(c->t, "a", "c$", err); }
static int do_strip_hex(ctx *c, flame_err *err) { return flame_strip_hex(c->t, err); }

static int do_skip_after(ctx *c, flame_err *err)
{
	const char *const sym[] = {"a"};
	return flame_skip_after(c->t, sym, 1, err);
}

static int do_diff(ctx *c, flame_err *err)
{
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	return flame_diff(c->t, c->u, &o, err);
}

static int do_diff_report(ctx *c, flame_err *err)
{
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	flame_err e0;
	if (flame_diff(c->t, c->u, &o, &e0))
		return 0; /* only the report is under test */
	flame_diff_report *r = NULL;
	int rc = flame_diff_report_new(&r, c->t, err);
	flame_diff_report_free(r);
	return rc;
}

typedef struct scase {
	const char *name;
	void (*setup)(ctx *c);
	int (*call)(ctx *c, flame_err *err);
	const char *file;
	flame_format fmt;
} scase;

static const scase cases[] = {
	{"parse perf", setup_input, do_parse, "perf/edge-cases.perf.txt", FLAME_FORMAT_PERF},
	{"parse perf auto", setup_input, do_parse, "perf/java-netty-pidtid.perf.txt", FLAME_FORMAT_AUTO},
	{"parse perf, more", setup_input, do_parse, "perf/progs-threads.perf.txt", FLAME_FORMAT_PERF},
	{"parse offcpu", setup_input, do_parse, "offcpu/edge-comm-crlf.txt", FLAME_FORMAT_OFFCPU},
	{"parse offcpu, more", setup_input, do_parse, "offcpu/bcc-offsets-s.txt", FLAME_FORMAT_OFFCPU},
	{"parse jfr", setup_input, do_parse, "jfr/edge-threads-strings.txt", FLAME_FORMAT_JFR},
	{"parse svg", setup_input, do_parse, "svg/flamegraph-pl-style.svg", FLAME_FORMAT_SVG},
	{"parse pprof", setup_input, do_parse, "err/go-goroutine.pb.gz", FLAME_FORMAT_PPROF},
	{"parse pprof, more", setup_input, do_parse, "err/go-cpu-labels.pb.gz", FLAME_FORMAT_PPROF},
	{"write folded", setup_output, do_write_folded, NULL, 0},
	{"write pprof", setup_output, do_write_pprof, NULL, 0},
	{"write svg", setup_output, do_write_svg, NULL, 0},
	{"tree build", setup_trees, do_build, NULL, 0},
	{"tree merge", setup_trees, do_merge, NULL, 0},
	{"filter", setup_trees, do_filter, NULL, 0},
	{"strip hex", setup_trees, do_strip_hex, NULL, 0},
	{"skip after", setup_trees, do_skip_after, NULL, 0},
	{"diff", setup_trees, do_diff, NULL, 0},
	{"diff report", setup_trees, do_diff_report, NULL, 0},
};

static void out_of_memory_everywhere(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const scase *sc = &cases[i];
		long k, failed = 0;
		for (k = 1; k < 100000; k++) {
			ctx c = {.file = sc->file, .fmt = sc->fmt};
			sc->setup(&c);
			flame_err err = {0};
			n_allocs = 0;
			fail_at = k;
			int rc = sc->call(&c, &err);
			int reached = n_allocs >= k;
			fail_at = 0;
			if (rc) {
				failed++;
				if (!err.msg[0])
					fprintf(stderr, "%s: allocation %ld fails: code %d, empty message\n",
					        sc->name, k, rc);
				CHECK(err.msg[0]);
			}
			teardown(&c);
			if (!reached)
				break; /* the call got through with no allocation failing */
		}
		fprintf(stderr, "%s: %ld allocations, %ld failing runs\n", sc->name, k - 1, failed);
		CHECK(k > 1 && failed > 0); /* the case ran and failures were seen */
	}
}

/* ---- bad data and bad arguments */

static void bad_input(const char *file, flame_format fmt)
{
	ctx c = {.file = file, .fmt = fmt};
	setup_input(&c);
	flame_err err = {0};
	int rc = do_parse(&c, &err);
	CHECK(rc != 0);
	CHECK(err.msg[0]);
	CHECK(strstr(err.source, strrchr(file, '/') + 1) != NULL);
	char line[512];
	flame_err_format(&err, line, sizeof line);
	fprintf(stderr, "  %s\n", line);
	teardown(&c);
}

static void bad_data(void)
{
	bad_input("bad/jfr-bad-frame.txt", FLAME_FORMAT_JFR);
	bad_input("bad/offcpu-value-overflow.txt", FLAME_FORMAT_OFFCPU);
	bad_input("bad/pprof-truncated.pb.gz", FLAME_FORMAT_PPROF);
	bad_input("bad/pprof-location-cycle.pb", FLAME_FORMAT_PPROF);
	bad_input("bad/svg-truncated.svg", FLAME_FORMAT_SVG);
}

static void bad_calls(void)
{
	flame_tree *t = tree_of(FOLDED);
	flame_err err = {0};
	/* a count that overflows 64 bits */
	flame_str fr[] = {{"main", 4}, {"a", 1}, {"b", 1}};
	CHECK(flame_tree_add(t, fr, 3, 0, UINT64_MAX - 5, 0, &err) != 0);
	CHECK(err.msg[0]);
	memset(&err, 0, sizeof err);
	CHECK(flame_filter_stacks(t, "(", NULL, &err) != 0);
	CHECK(err.msg[0]);
	memset(&err, 0, sizeof err);
	CHECK(flame_filter_check(NULL, "[z-a]", &err) != 0);
	CHECK(err.msg[0]);
	memset(&err, 0, sizeof err);
	CHECK(flame_tree_scale_column(t, 7, 1, 1, &err) != 0);
	CHECK(err.msg[0]);
	flame_tree_free(t);
}

/* A failed write leaves the output failed: the writes and the commit after it fail too,
 * and each says so (they returned FLAME_EIO with an empty message). */
static void failed_output(void)
{
	flame_output *o = NULL;
	flame_err err = {0};
	if (flame_output_open(&o, "/dev/full", &err)) {
		fprintf(stderr, "no /dev/full: skipped\n");
		return;
	}
	static char big[300 * 1024];
	CHECK(flame_output_write(o, big, sizeof big, &err) == FLAME_EIO);
	CHECK(strstr(err.msg, "write error") != NULL);
	memset(&err, 0, sizeof err);
	CHECK(flame_output_write(o, "x", 1, &err) == FLAME_EIO);
	CHECK(err.msg[0] && strcmp(err.source, "/dev/full") == 0);
	memset(&err, 0, sizeof err);
	CHECK(flame_output_commit(o, &err) == FLAME_EIO);
	CHECK(err.msg[0] && strcmp(err.source, "/dev/full") == 0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test-err FIXTURES_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	RUN(bad_data);
	RUN(bad_calls);
	RUN(failed_output);
	RUN(out_of_memory_everywhere);
	return harness_done();
}
