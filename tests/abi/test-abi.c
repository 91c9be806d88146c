/* The ABI as an outside program sees it: this test includes only flame.h and links the
 * shared library. The version macros and flame_version() agree with meson's project
 * version (argv[1]); options structs of a version the library does not know are refused. */
#include <stdio.h>
#include "libflame/flame.h"
#include "harness.h"
#include "util.h"

static const char *project_version;

static void test_version(void)
{
	CHECK_STR(flame_version(), FLAME_VERSION);
	CHECK_STR(flame_version(), project_version);
	char buf[64];
	snprintf(buf, sizeof buf, "%d.%d.%d", FLAME_VERSION_MAJOR, FLAME_VERSION_MINOR,
	         FLAME_VERSION_PATCH);
	CHECK_STR(buf, project_version);
	CHECK_EQ_U64(FLAME_VERSION_NUMBER,
	             FLAME_VERSION_MAJOR * 10000 + FLAME_VERSION_MINOR * 100 + FLAME_VERSION_PATCH);
}

/* Parse "a;b 1" with `o`: the status, and the message in `msg`. */
static int parse_with(const flame_parse_opts *o, char *msg, size_t n)
{
	static const char text[] = "a;b 1\n";
	flame_err err = {0};
	flame_input *in = NULL;
	flame_tree *t = test_tree_new();
	int rc = flame_input_open_mem(&in, text, sizeof text - 1, "mem", &err);
	if (!rc)
		rc = flame_parse(t, in, o, &err);
	flame_err_format(&err, msg, n);
	flame_input_free(in);
	flame_tree_free(t);
	return rc;
}

static void test_parse_opts_version(void)
{
	char msg[1024];
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	CHECK_EQ_U64(o.version, FLAME_PARSE_OPTS_VERSION);
	CHECK_EQ_U64(parse_with(&o, msg, sizeof msg), 0);
	CHECK_EQ_U64(parse_with(NULL, msg, sizeof msg), 0);
	/* {0} is not an initialized struct; a newer layout is not one this library knows */
	flame_parse_opts zero = {0};
	CHECK_EQ_U64(parse_with(&zero, msg, sizeof msg), FLAME_EUSAGE);
	CHECK(strstr(msg, "flame_parse_opts version 0") != NULL);
	o.version = FLAME_PARSE_OPTS_VERSION + 1;
	CHECK_EQ_U64(parse_with(&o, msg, sizeof msg), FLAME_EUSAGE);
	CHECK(strstr(msg, "flame_parse_opts_init") != NULL);
	flame_err err = {0};
	CHECK_EQ_U64(flame_parse_opts_check(&o, &err), FLAME_EUSAGE);
	/* the init function: the macro's defaults, or a refusal that leaves `o` alone */
	flame_parse_opts f;
	memset(&f, 0x5a, sizeof f);
	CHECK_EQ_U64(flame_parse_opts_init(&f, FLAME_PARSE_OPTS_VERSION), 0);
	CHECK_EQ_U64(f.version, FLAME_PARSE_OPTS_VERSION);
	CHECK(f.format == FLAME_FORMAT_AUTO && f.warn == NULL && f.perf_flags == 0 &&
	      f.tags == NULL && f.jfr_event == NULL && f.offcpu_flags == 0);
	CHECK_EQ_U64(parse_with(&f, msg, sizeof msg), 0);
	memset(&f, 0x5a, sizeof f);
	CHECK_EQ_U64(flame_parse_opts_init(&f, 0), FLAME_EUSAGE);
	CHECK_EQ_U64(flame_parse_opts_init(&f, FLAME_PARSE_OPTS_VERSION + 1), FLAME_EUSAGE);
	CHECK_EQ_U64(f.version, 0x5a5a5a5a);
}

/* the cost report's options: the macro, the init function, a version it does not know */
static void test_cost_opts_version(void)
{
	flame_cost_opts o = FLAME_COST_OPTS_INIT, f;
	CHECK_EQ_U64(o.version, FLAME_COST_OPTS_VERSION);
	memset(&f, 0x5a, sizeof f);
	CHECK_EQ_U64(flame_cost_opts_init(&f, FLAME_COST_OPTS_VERSION), 0);
	CHECK(f.version == FLAME_COST_OPTS_VERSION && f.by == FLAME_COST_BY_FUNCTION && f.rows == 0 &&
	      f.owners == NULL && f.window == 0);
	CHECK_EQ_U64(flame_cost_opts_init(&f, FLAME_COST_OPTS_VERSION + 1), FLAME_EUSAGE);
	flame_tree *t = test_tree_new();
	flame_cost_report *c = NULL;
	flame_err err = {0};
	o.version = FLAME_COST_OPTS_VERSION + 1;
	CHECK_EQ_U64(flame_cost_report_new(&c, t, &o, &err), FLAME_EUSAGE);
	CHECK(c == NULL && strstr(err.msg, "flame_cost_opts") != NULL);
	o.version = FLAME_COST_OPTS_VERSION;
	o.by = FLAME_COST_BY_OWNER; /* without owners */
	CHECK_EQ_U64(flame_cost_report_new(&c, t, &o, &err), FLAME_EUSAGE);
	o.by = FLAME_COST_BY_FUNCTION;
	o.window = -1;
	CHECK_EQ_U64(flame_cost_report_new(&c, t, &o, &err), FLAME_EUSAGE);
	CHECK(strstr(err.msg, "--window") != NULL);
	flame_tree_free(t);
}

static int render_with(const flame_render_opts *o, char *msg, size_t n)
{
	flame_err err = {0};
	flame_output *out = NULL;
	flame_tree *t = test_tree_new();
	flame_str f[] = {{"a", 1}, {"b", 1}};
	int rc = flame_tree_add(t, f, 2, 0, 1, 0, &err);
	if (!rc)
		rc = flame_output_open(&out, "/dev/null", &err);
	if (!rc) {
		rc = flame_write_svg(t, o, out, &err);
		if (rc)
			flame_output_abort(out);
		else
			rc = flame_output_commit(out, &err);
	}
	flame_err_format(&err, msg, n);
	flame_tree_free(t);
	return rc;
}

static void test_render_opts_version(void)
{
	char msg[1024];
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	CHECK_EQ_U64(o.version, FLAME_RENDER_OPTS_VERSION);
	CHECK_EQ_U64(render_with(&o, msg, sizeof msg), 0);
	flame_render_opts zero = {0};
	CHECK_EQ_U64(render_with(&zero, msg, sizeof msg), FLAME_EUSAGE);
	CHECK(strstr(msg, "flame_render_opts version 0") != NULL);
	flame_err err = {0};
	o.version = FLAME_RENDER_OPTS_VERSION + 1;
	CHECK_EQ_U64(flame_render_opts_check(&o, &err), FLAME_EUSAGE);
	flame_render_opts f;
	memset(&f, 0, sizeof f);
	CHECK_EQ_U64(flame_render_opts_init(&f, FLAME_RENDER_OPTS_VERSION), 0);
	flame_render_opts want = FLAME_RENDER_OPTS_INIT;
	CHECK(f.width == want.width && f.frame_height == want.frame_height &&
	      f.min_width == want.min_width && !strcmp(f.font_type, want.font_type) &&
	      !strcmp(f.colors, want.colors) && f.factor == want.factor);
	CHECK_EQ_U64(render_with(&f, msg, sizeof msg), 0);
	CHECK_EQ_U64(flame_render_opts_init(&f, 0), FLAME_EUSAGE);
}

/* flame_diff_opts is versioned as the other options structs are */
static void test_diff_opts_version(void)
{
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	flame_err err = {0};
	CHECK_EQ_U64(o.version, FLAME_DIFF_OPTS_VERSION);
	CHECK_EQ_U64(flame_diff_opts_check(&o, &err), 0);
	flame_diff_request *r = NULL;
	CHECK_EQ_U64(flame_diff_request_new(&r, &o, &err), 0);
	flame_diff_request_free(r);
	flame_diff_opts zero = {0};
	r = NULL;
	CHECK_EQ_U64(flame_diff_request_new(&r, &zero, &err), FLAME_EUSAGE);
	CHECK(r == NULL);
	CHECK(strstr(err.msg, "flame_diff_opts version 0") != NULL);
	o.version = FLAME_DIFF_OPTS_VERSION + 1;
	CHECK_EQ_U64(flame_diff_opts_check(&o, &err), FLAME_EUSAGE);
	flame_tree *a = test_tree_new(), *b = test_tree_new();
	CHECK_EQ_U64(flame_diff(a, b, &zero, &err), FLAME_EUSAGE);
	CHECK_EQ_U64(flame_diff_normalize(a, &zero, &err), FLAME_EUSAGE);
	flame_tree_free(a);
	flame_tree_free(b);
	flame_diff_opts f;
	memset(&f, 0xff, sizeof f);
	CHECK_EQ_U64(flame_diff_opts_init(&f, FLAME_DIFF_OPTS_VERSION), 0);
	CHECK(f.version == FLAME_DIFF_OPTS_VERSION && f.norm == FLAME_DIFF_NORM_NONE &&
	      f.frame_regex == NULL && f.strip_hex == 0 && f.requests_before == 0);
	CHECK_EQ_U64(flame_diff_opts_check(&f, &err), 0);
	CHECK_EQ_U64(flame_diff_opts_init(&f, 0), FLAME_EUSAGE);
	CHECK_EQ_U64(flame_diff_opts_init(&f, FLAME_DIFF_OPTS_VERSION + 1), FLAME_EUSAGE);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test-abi PROJECT_VERSION\n");
		return 2;
	}
	project_version = argv[1];
	RUN(test_version);
	RUN(test_parse_opts_version);
	RUN(test_render_opts_version);
	RUN(test_diff_opts_version);
	RUN(test_cost_opts_version);
	return harness_done();
}
