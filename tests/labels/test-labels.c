/* Unit tests of the labels a tree keeps (core/labels.c, core/tree-labels.c, the stack table
 * keyed on (frames, set)): a set is found by value whatever the order of its labels; bytes
 * any string may hold come back; the same frames under two sets are two stacks and one
 * node; a tree keeping labels from the middle gives the earlier stacks the empty set; merges
 * match sets by value; transforms and time cuts keep sets and sum equal stacks; a diff keeps
 * AFTER's sets; a pprof profile's labels are read, perf's comm and thread, binary JFR's
 * thread. */
#include <stdint.h>
#include "core/labels.h"
#include "harness.h"
#include "util.h"

#define S(lit) ((flame_str){lit, sizeof lit - 1})

static const char *fixtures_dir_arg;

static flame_label str_label(flame_str k, flame_str v)
{
	return (flame_label){k, v, 0, S(""), 0};
}

static void test_table(void)
{
	flame__labels *l = flame__labels_new();
	CHECK(l && flame__labels_count(l) == 1);
	flame_label a[3] = {str_label(S("endpoint"), S("/cart")), str_label(S("k\0;\n"), S("v\0\xff")),
	                    {S("bytes"), S(""), -7, S("bytes"), 1}};
	flame_label b[3] = {a[2], a[0], a[1]};
	uint32_t x = flame__labels_put(l, a, 3), y = flame__labels_put(l, b, 3);
	CHECK(x == y && x == 1);
	CHECK_EQ_U64(flame__labels_put(l, NULL, 0), 0);
	CHECK_EQ_U64(flame__labels_put(l, a, 2), 2);
	/* a number and a string of the same text are two sets */
	flame_label n1 = {S("n"), S(""), 5, S(""), 1}, s1 = str_label(S("n"), S("5"));
	CHECK(flame__labels_put(l, &n1, 1) != flame__labels_put(l, &s1, 1));
	flame_label out[4];
	size_t k = flame__labels_get(l, x, out, 4);
	CHECK_EQ_U64(k, 3);
	/* sorted by key: "bytes", "endpoint", "k\0;\n" */
	CHECK(out[0].is_num && out[0].num == -7 && out[0].unit.len == 5 && !memcmp(out[0].key.ptr, "bytes", 5));
	CHECK(!out[1].is_num && out[1].str.len == 5 && !memcmp(out[1].str.ptr, "/cart", 5));
	CHECK(out[2].key.len == 4 && !memcmp(out[2].key.ptr, "k\0;\n", 4) && out[2].str.len == 3 &&
	      !memcmp(out[2].str.ptr, "v\0\xff", 3));
	CHECK_EQ_U64(flame__labels_get(l, x, out, 1), 3); /* how many, one written */
	CHECK_EQ_U64(flame__labels_get(l, 0, out, 4), 0);
	/* by value into another table */
	flame__labels *m = flame__labels_new();
	CHECK(flame__labels_put(m, &s1, 1) == 1);
	CHECK_EQ_U64(flame__labels_import(m, l, x), 2);
	CHECK_EQ_U64(flame__labels_import(m, l, flame__labels_put(l, &s1, 1)), 1);
	flame__labels_free(l);
	flame__labels_free(m);
}

static void add(flame_tree *t, const char *a, const char *b, const flame_label *lb, size_t n,
                uint64_t w)
{
	flame_err err;
	flame_str fr[2] = {{a, strlen(a)}, {b, strlen(b)}};
	CHECK(flame_tree_add_labelled(t, fr, 2, 0, lb, n, w, 0, &err) == 0);
}

static uint64_t node_total(flame_tree *t, const char *leaf)
{
	flame_err err;
	CHECK(flame_tree_build(t, FLAME_ORDER_NAME, &err) == 0);
	for (flame_node n = 0; n < flame_tree_node_count(t); n++) {
		flame_str s = flame_node_name(t, n);
		if (s.len == strlen(leaf) && !memcmp(s.ptr, leaf, s.len))
			return flame_node_total(t, n, 0);
	}
	return 0;
}

/* Weight of stack frames a;b under the set holding key=value. */
struct find {
	const char *key, *value;
	uint64_t w;
	const flame_tree *t;
};
static int on_stack(void *ud, const flame_str *frames, size_t n, size_t set, uint64_t w0, uint64_t w1)
{
	struct find *f = ud;
	(void)frames, (void)n, (void)w1;
	flame_label v[8];
	size_t k = flame_tree_label_set(f->t, set, v, 8);
	for (size_t i = 0; i < k && i < 8; i++)
		if (v[i].key.len == strlen(f->key) && !memcmp(v[i].key.ptr, f->key, v[i].key.len) &&
		    v[i].str.len == strlen(f->value) && !memcmp(v[i].str.ptr, f->value, v[i].str.len))
			f->w += w0;
	if (!f->key[0] && !k)
		f->w += w0;
	return 0;
}
static uint64_t slice(flame_tree *t, const char *key, const char *value)
{
	flame_err err;
	struct find f = {key, value, 0, t};
	CHECK(flame_tree_each_labelled(t, on_stack, &f, &err) == 0);
	return f.w;
}

static void test_tree(void)
{
	flame_err err;
	flame_tree *t = NULL;
	CHECK(flame_tree_new(&t, &err) == 0);
	add(t, "main", "early", NULL, 0, 4); /* before labels: the empty set */
	CHECK_EQ_U64(flame_tree_label_sets(t), 0);
	CHECK(flame_tree_keep_labels(t, &err) == 0 && flame_tree_keep_labels(t, &err) == 0);
	flame_label cart = str_label(S("ep"), S("/cart")), pay = str_label(S("ep"), S("/pay"));
	add(t, "main", "work", &cart, 1, 3);
	add(t, "main", "work", &pay, 1, 5);
	add(t, "main", "work", &cart, 1, 1);
	add(t, "main", "early", NULL, 0, 1);
	size_t n = 0;
	CHECK(flame_tree_stack_count(t, &n, &err) == 0);
	CHECK_EQ_U64(n, 3); /* early, work under /cart, work under /pay */
	CHECK_EQ_U64(flame_tree_label_sets(t), 3);
	CHECK_EQ_U64(node_total(t, "work"), 9); /* one node */
	CHECK_EQ_U64(slice(t, "ep", "/cart"), 4);
	CHECK_EQ_U64(slice(t, "ep", "/pay"), 5);
	CHECK_EQ_U64(slice(t, "", ""), 5);
	/* a transform keeps the sets, and stacks made equal sum under their own set */
	CHECK(flame_strip_hex(t, &err) == 0);
	CHECK(flame_filter_stacks(t, "work", NULL, &err) == 0);
	CHECK(flame_tree_stack_count(t, &n, &err) == 0 && n == 2);
	CHECK_EQ_U64(slice(t, "ep", "/cart"), 4);
	CHECK_EQ_U64(slice(t, "ep", "/pay"), 5);
	/* a merge into a tree without labels: it keeps them from then on, matched by value */
	flame_tree *u = NULL;
	CHECK(flame_tree_new(&u, &err) == 0);
	add(u, "main", "work", NULL, 0, 100);
	CHECK(flame_tree_merge(u, t, &err) == 0 && flame_tree_merge(u, t, &err) == 0);
	CHECK_EQ_U64(flame_tree_label_sets(u), 3);
	CHECK_EQ_U64(slice(u, "ep", "/cart"), 8);
	CHECK_EQ_U64(slice(u, "ep", "/pay"), 10);
	CHECK_EQ_U64(slice(u, "", ""), 100);
	CHECK_EQ_U64(node_total(u, "work"), 118);
	/* a diff: AFTER's sets into BEFORE's table, column 1 */
	CHECK(flame_diff(u, t, NULL, &err) == 0);
	CHECK(flame_tree_stack_count(u, &n, &err) == 0 && n == 3);
	flame_tree_free(t);
	flame_tree_free(u);
}

/* time splits with the sets: a cut keeps each set's weight in the range */
static void test_time(void)
{
	flame_err err;
	flame_tree *t = NULL;
	CHECK(flame_tree_new(&t, &err) == 0);
	CHECK(flame_tree_keep_time(t, 1000000, &err) == 0 && flame_tree_keep_labels(t, &err) == 0);
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.keep_labels = 1;
	po.keep_time_ns = 1000000;
	flame_input *in = NULL;
	const char *path = "corpus/pprof/go-cpu-labels.pb.gz";
	char full[4096];
	snprintf(full, sizeof full, "%s/%s", fixtures_dir_arg, path);
	CHECK(flame_input_open(&in, full, &err) == 0);
	CHECK(flame_parse(t, in, &po, &err) == 0);
	flame_input_free(in);
	CHECK_EQ_U64(slice(t, "endpoint", "/api/orders"), 1200000000);
	CHECK_EQ_U64(slice(t, "endpoint", "/api/users"), 690000000);
	CHECK_EQ_U64(slice(t, "worker", "2"), 660000000);
	int64_t first, last;
	CHECK(flame_tree_time_span(t, &first, &last) == FLAME_CLOCK_WALL);
	/* the profile is spread a slice a second over its 2.13 s: keep the first second */
	uint64_t all = slice(t, "endpoint", "/api/orders");
	CHECK(flame_tree_time_cut(t, 0, 1000000000, &err) == 0);
	uint64_t cut = slice(t, "endpoint", "/api/orders");
	CHECK(cut > 0 && cut < all);
	CHECK(flame_tree_label_sets(t) > 3);
	flame_tree_free(t);
}

/* perf script text: comm and thread (the TID, with or without the PID before it) per
 * sample, on one thread and through the block parsers on two (the same sets and weights
 * either way) */
static void test_perf(void)
{
	const char *text = "web 7/8 [000] 100.000000: 10000000 cpu-clock:\n\t1 A (/x)\n\t2 main (/x)\n\n"
	                   "web 7/9 [000] 100.010000: 10000000 cpu-clock:\n\t1 A (/x)\n\t2 main (/x)\n\n"
	                   "db x 12 [000] 101.000000: 10000000 cpu-clock:\n\t1 B (/x)\n\t2 main (/x)\n\n"
	                   "\t3 orphan (/x)\n\n"
	                   "web 7/8 [000] 101.500000: 10000000 cpu-clock:\n\t1 A (/x)\n\t2 main (/x)\n\n";
	for (unsigned threads = 1; threads <= 2; threads++) {
		flame_err err;
		flame_tree *t = NULL;
		flame_input *in = NULL;
		flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
		po.keep_labels = 1;
		po.threads = threads;
		CHECK(flame_tree_new(&t, &err) == 0);
		CHECK(flame_input_open_mem(&in, text, strlen(text), "perf", &err) == 0);
		CHECK(flame_parse(t, in, &po, &err) == 0);
		flame_input_free(in);
		CHECK_EQ_U64(flame_tree_label_sets(t), 4); /* empty, 8, 9, 12 */
		CHECK_EQ_U64(slice(t, "comm", "web"), 30000000);
		CHECK_EQ_U64(slice(t, "comm", "db x"), 10000000);
		CHECK_EQ_U64(slice(t, "thread", "8"), 20000000);
		CHECK_EQ_U64(slice(t, "thread", "12"), 10000000);
		CHECK_EQ_U64(node_total(t, "A"), 30000000);
		flame_tree_free(t);
	}
}

/* binary JFR: the thread of each event as its label, with or without --threads (which
 * also makes it the root frame) */
static void test_jfr(void)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/jfr-binary/synthetic-good.jfr", fixtures_dir_arg);
	for (int threads = 0; threads < 2; threads++) {
		flame_err err;
		flame_tree *t = NULL;
		flame_input *in = NULL;
		flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
		po.keep_labels = 1;
		po.jfr_flags = threads ? FLAME_JFR_THREADS : 0;
		CHECK(flame_tree_new(&t, &err) == 0);
		CHECK(flame_input_open(&in, path, &err) == 0);
		CHECK(flame_parse(t, in, &po, &err) == 0);
		flame_input_free(in);
		CHECK_EQ_U64(slice(t, "thread", "main"), 2);
		CHECK_EQ_U64(slice(t, "thread", "gc-thread"), 1);
		CHECK_EQ_U64(slice(t, "thread", "w\xc3\xa9rker \xf0\x9f\x98\x80"), 1);
		CHECK_EQ_U64(node_total(t, "main"), threads ? 2 : 0); /* a root frame only then */
		CHECK_EQ_U64(flame_tree_total(t, 0), 5);
		flame_tree_free(t);
	}
}

int main(int argc, char **argv)
{
	fixtures_dir_arg = argc > 1 ? argv[1] : "fixtures";
	RUN(test_table);
	RUN(test_tree);
	RUN(test_time);
	RUN(test_perf);
	RUN(test_jfr);
	return harness_done();
}
