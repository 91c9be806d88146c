/* Unit tests for xform/diff.c: combining two trees into one differential tree, the
 * normalizations (exact, rounding down), hex stripping as Perl's s///g scans, the
 * per-function report (recursion counted once) and the caller attribution. */
#include "harness.h"
#include "util.h"
#include "../../libflame/flame.h"

static flame_tree *tree_of(const char *text)
{
	flame_tree *t = test_tree_new();
	flame_input *in = NULL;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	CHECK(flame_input_open_mem(&in, text, strlen(text), "mem", NULL) == 0);
	CHECK(flame_parse(t, in, &po, NULL) == 0);
	flame_input_free(in);
	return t;
}

static char outbuf[8192];

static const char *folded(flame_tree *t)
{
	/* through a temp file: the writer streams to a flame_output */
	char path[] = "/tmp/test-diff-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	flame_output *o = NULL;
	CHECK(flame_output_open(&o, path, NULL) == 0);
	CHECK(flame_write_folded(t, o, NULL) == 0);
	CHECK(flame_output_commit(o, NULL) == 0);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(outbuf, 1, sizeof outbuf - 1, f) : 0;
	outbuf[n] = '\0';
	if (f)
		fclose(f);
	remove(path);
	return outbuf;
}

static const char *diff_of(const char *b, const char *a, const flame_diff_opts *o, int *rc)
{
	flame_tree *tb = tree_of(b), *ta = tree_of(a);
	flame_err err = {0};
	*rc = flame_diff(tb, ta, o, &err);
	if (*rc)
		snprintf(outbuf, sizeof outbuf, "%s", err.msg);
	else
		folded(tb);
	flame_tree_free(tb);
	flame_tree_free(ta);
	return outbuf;
}

static void test_plain_and_normalized(void)
{
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	int rc;
	CHECK_STR(diff_of("a;b 3\na;c 1\n", "a;b 4\na;d 6\n", &o, &rc), "a;b 3 4\na;c 1 0\na;d 0 6\n");
	o.norm = FLAME_DIFF_NORM_TOTAL; /* T1 = 4, T2 = 10: int(3*10/4) = 7, int(1*10/4) = 2 */
	CHECK_STR(diff_of("a;b 3\na;c 1\n", "a;b 4\na;d 6\n", &o, &rc), "a;b 7 4\na;c 2 0\na;d 0 6\n");
	/* fractions: int() drops them under -n (T1 = 2.5, T2 = 5) */
	CHECK_STR(diff_of("a 1.25\nb 1.25\n", "a 5\n", &o, &rc), "a 2 5\nb 2 0\n");
	o.norm = FLAME_DIFF_NORM_REQUESTS;
	o.requests_before = 3;
	o.requests_after = 7; /* 5 * 7 / 3 = 11.67 -> 11 */
	CHECK_STR(diff_of("x 5\n", "x 12\n", &o, &rc), "x 11 12\n");
	o.requests_before = 0;
	diff_of("x 5\n", "x 12\n", &o, &rc);
	CHECK(rc == FLAME_EUSAGE);
	o = (flame_diff_opts)FLAME_DIFF_OPTS_INIT;
	o.norm = FLAME_DIFF_NORM_FRAME;
	o.frame_regex = "^req$"; /* req weighs 4 before, 8 after: before doubled */
	CHECK_STR(diff_of("m;req;w 4\nm;bg 10\n", "m;req;w 6\nm;req;z 2\nm;bg 10\n", &o, &rc),
	          "m;bg 20 10\nm;req;w 8 6\nm;req;z 0 2\n");
	o.frame_regex = "^nomatch$";
	diff_of("m;req;w 4\n", "m;req;w 6\n", &o, &rc);
	CHECK(rc == FLAME_EDATA);
	o.frame_regex = "(";
	CHECK(flame_diff_opts_check(&o, NULL) == FLAME_EUSAGE);
	/* a differential side is refused */
	o = (flame_diff_opts)FLAME_DIFF_OPTS_INIT;
	diff_of("a 1 2\n", "a 1\n", &o, &rc);
	CHECK(rc == FLAME_EDATA);
}

static void test_strip_hex(void)
{
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	int rc;
	o.strip_hex = 1;
	/* as Perl's s/0x[0-9a-fA-F]+/0x.../g: "0x0x12" -> "0x...x12"; "0x" alone stays */
	CHECK_STR(diff_of("f;0x0x12 1\nf;0xAb;g 2\nf;0x 1\n", "f;0x1 3\nf;0xff;g 1\n", &o, &rc),
	          "f;0x 1 0\nf;0x... 0 3\nf;0x...;g 2 1\nf;0x...x12 1 0\n");
	/* stacks that become equal are merged */
	CHECK_STR(diff_of("f;0x1 1\nf;0x2 2\n", "f;0x3 5\n", &o, &rc), "f;0x... 3 5\n");
}

static const flame_diff_row *row(const flame_diff_report *r, const char *name)
{
	const flame_diff_row *x;
	for (size_t i = 0; (x = flame_diff_report_row(r, i)); i++)
		if (x->name.len == strlen(name) && !memcmp(x->name.ptr, name, x->name.len))
			return x;
	return NULL;
}

static void test_report(void)
{
	flame_tree *b = tree_of("m;f;f;f 2\nm;f;g 3\nm;h 5\n");
	flame_tree *a = tree_of("m;f;f;f 2\nm;f;g 13\nm;h 5\nm;k;g 1\n");
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	CHECK(flame_diff(b, a, &o, NULL) == 0);
	flame_diff_report *r = NULL;
	CHECK(flame_diff_report_new(&r, b, NULL) == 0);
	CHECK(flame_diff_report_row(r, flame_diff_report_count(r)) == NULL);
	const flame_diff_row *f = row(r, "f"), *g = row(r, "g"), *m = row(r, "m");
	CHECK(f && g && m);
	if (f && g && m) {
		CHECK_EQ_U64(f->total[0], 5); /* recursion counted once per stack */
		CHECK_EQ_U64(f->total[1], 15);
		CHECK_EQ_U64(f->self[0], 2);
		CHECK_EQ_U64(g->self[1], 14);
		CHECK_EQ_U64(g->total[0], 3);
		CHECK_EQ_U64(m->total[1], 21);
	}
	/* m grew by 11, f by 10, g by 11 (10 under f, 1 under k). m's change is all inside g
	 * (g is only ever called under m); f's is not: g is also called outside f. */
	CHECK(flame_diff_report_attribute(r, 2.0, FLAME_DIFF_ATTRIBUTE_ALL, NULL) == 0);
	f = row(r, "f");
	m = row(r, "m");
	g = row(r, "g");
	CHECK(f && f->inside == SIZE_MAX);
	CHECK(g && g->inside == SIZE_MAX);
	CHECK(m && m->inside != SIZE_MAX && !memcmp(flame_diff_report_row(r, m->inside)->name.ptr, "g", 1));
	flame_diff_report_free(r);
	flame_tree_free(b);
	flame_tree_free(a);
}

/* FLAME_DIFF_ATTRIBUTE_REMOVED: only functions with nothing after are candidates, and among
 * more than the 512 a call considers, the largest changes are the ones kept. */
static void test_attribute_removed(void)
{
	/* old -> legacy removed (legacy deeper: it carries old's change); hot -> leaf grew */
	char *bt = malloc(64 * 1024), *at = malloc(64 * 1024);
	size_t bn = 0, an = 0;
	bn += (size_t)sprintf(bt + bn, "main;old;legacy 5000\nmain;hot;leaf 10\n");
	an += (size_t)sprintf(at + an, "main;hot;leaf 9000\n");
	for (int i = 1; i <= 600; i++) /* 600 small changes, all below the big ones */
		an += (size_t)sprintf(at + an, "main;f%03d %d\n", i, i);
	flame_tree *b = tree_of(bt), *a = tree_of(at);
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	CHECK(flame_diff(b, a, &o, NULL) == 0);
	flame_diff_report *r = NULL;
	CHECK(flame_diff_report_new(&r, b, NULL) == 0);
	CHECK(flame_diff_report_attribute(r, 0.0, FLAME_DIFF_ATTRIBUTE_REMOVED, NULL) == 0);
	const flame_diff_row *old = row(r, "old"), *legacy = row(r, "legacy"), *hot = row(r, "hot");
	CHECK(old && old->inside != SIZE_MAX &&
	      !memcmp(flame_diff_report_row(r, old->inside)->name.ptr, "legacy", 6));
	CHECK(legacy && legacy->inside == SIZE_MAX);
	CHECK(hot && hot->inside == SIZE_MAX); /* grew: not a candidate here */
	/* all functions: 604 changed, the 512 largest kept, hot's change is inside leaf */
	CHECK(flame_diff_report_attribute(r, 0.0, FLAME_DIFF_ATTRIBUTE_ALL, NULL) == 0);
	hot = row(r, "hot");
	CHECK(hot && hot->inside != SIZE_MAX &&
	      !memcmp(flame_diff_report_row(r, hot->inside)->name.ptr, "leaf", 4));
	old = row(r, "old");
	CHECK(old && old->inside != SIZE_MAX);
	const flame_diff_row *f1 = row(r, "f001"), *f600 = row(r, "f600");
	CHECK(f1 && f1->inside == SIZE_MAX && f600 && f600->inside == SIZE_MAX);
	flame_diff_report_free(r);
	flame_tree_free(a);
	flame_tree_free(b);
	free(bt);
	free(at);
}

static void test_weight(void)
{
	flame_tree *t = tree_of("a;b 3\na;c 1.25\n"); /* scale 2 */
	CHECK(flame_tree_weight(t, 50, 2, NULL) == 0); /* x0.50 = x0.5: scale 3 */
	CHECK_EQ_U64(flame_tree_decimals(t), 3);
	CHECK_STR(folded(t), "a;b 1.5\na;c 0.625\n");
	CHECK(flame_tree_weight(t, 3, 0, NULL) == 0);
	CHECK_STR(folded(t), "a;b 4.5\na;c 1.875\n");
	flame_err err = {0};
	CHECK(flame_tree_weight(t, 1, 7, &err) == FLAME_ERANGE); /* 3 + 7 > 9 decimals */
	CHECK(flame_tree_weight(t, UINT64_MAX, 0, &err) == FLAME_ERANGE);
	CHECK_STR(folded(t), "a;b 4.5\na;c 1.875\n"); /* unchanged after a refusal */
	flame_tree_free(t);
}

static void parse_into(flame_tree *t, const char *text)
{
	flame_input *in = NULL;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	CHECK(flame_input_open_mem(&in, text, strlen(text), "mem", NULL) == 0);
	CHECK(flame_parse(t, in, &po, NULL) == 0);
	flame_input_free(in);
}

static void test_one_tree(void)
{
	/* AFTER first, swapped into column 1, then BEFORE: the same as flame_diff */
	flame_tree *t = tree_of("a;b 4\na;0x9;d 6\n");
	CHECK(flame_diff_swap(t, NULL) == 0);
	CHECK(flame_tree_is_differential(t));
	parse_into(t, "a;b 3\na;c 1\na;0x1;d 2\n");
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	o.norm = FLAME_DIFF_NORM_TOTAL;
	o.strip_hex = 1;
	CHECK(flame_diff_normalize(t, &o, NULL) == 0); /* T1 = 6, T2 = 10 */
	CHECK_STR(folded(t), "a;0x...;d 3 6\na;b 5 4\na;c 1 0\n");
	CHECK(flame_diff_swap(t, NULL) == FLAME_EDATA); /* already differential */
	flame_tree_free(t);
}

int main(void)
{
	RUN(test_one_tree);
	RUN(test_weight);
	RUN(test_plain_and_normalized);
	RUN(test_strip_hex);
	RUN(test_report);
	RUN(test_attribute_removed);
	return harness_done();
}
