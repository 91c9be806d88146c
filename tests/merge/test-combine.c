/* Unit tests for read/combine.c, through the diff and merge requests: reading a diff's two
 * sides or a merge's inputs at once, handed over in blocks while they are parsed, gives the
 * same tree as parsing each input whole and combining the trees: sorted and unsorted inputs,
 * lines repeated across blocks, counts that turn fractional late, warnings and errors with
 * the input's own line numbers. The inputs span several blocks (512 KiB of stack table). */
#include "harness.h"
#include "util.h"

enum { LINES = 30000 };

static unsigned long long lcg = 1;
static unsigned rnd(unsigned n)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(lcg >> 33) % n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b); /* bytewise, as unsigned chars */
}

/* LINES distinct deep stacks as folded lines (no count), sorted bytewise. */
static char **make_stacks(unsigned seed)
{
	static const char *names[] = {"main", "run", "work", "parse", "x-y", "x;", "a b",
	                              "0x1f00", "0xdead", "z", "y", "hash_put", "memcmp"};
	lcg = seed;
	char **v = malloc(LINES * sizeof *v);
	for (size_t i = 0; i < LINES; i++) {
		char buf[1024];
		size_t n = (size_t)snprintf(buf, sizeof buf, "proc-%u", rnd(40));
		unsigned depth = 8 + rnd(24);
		for (unsigned d = 0; d < depth; d++) {
			const char *nm = names[rnd(sizeof names / sizeof names[0])];
			if (!strcmp(nm, "x;"))
				nm = "x"; /* no ';' inside names in folded text */
			n += (size_t)snprintf(buf + n, sizeof buf - n, ";%s%u", nm, rnd(3));
		}
		snprintf(buf + n, sizeof buf - n, ";leaf%zu", i); /* distinct */
		v[i] = strdup(buf);
	}
	qsort(v, LINES, sizeof *v, cmp_str);
	return v;
}

static void free_stacks(char **v)
{
	for (size_t i = 0; i < LINES; i++)
		free(v[i]);
	free(v);
}

typedef struct text {
	char *p;
	size_t n, cap;
} text;

static void put(text *t, const char *s)
{
	size_t m = strlen(s);
	if (t->n + m + 1 > t->cap) {
		t->cap = (t->n + m + 1) * 2;
		t->p = realloc(t->p, t->cap);
	}
	memcpy(t->p + t->n, s, m + 1);
	t->n += m;
}

/* One input: every `keep`-th stack out of `every` (so sides differ), counts from `seed`;
 * `twice`: each line repeated; `shuffle`: lines out of order; `extra`: a line put at
 * line number `at` (1-based) when not NULL. */
static char *make_input(char **stacks, unsigned seed, unsigned every, unsigned keep, int twice,
                        int shuffle, const char *extra, size_t at)
{
	text t = {0};
	char **lines = malloc(2 * LINES * sizeof *lines);
	size_t n = 0;
	lcg = seed;
	for (size_t i = 0; i < LINES; i++) {
		if (i % every == keep)
			continue;
		char buf[1100];
		snprintf(buf, sizeof buf, "%s %u\n", stacks[i], rnd(1000));
		lines[n++] = strdup(buf);
		if (twice)
			lines[n++] = strdup(buf);
	}
	for (size_t i = 0; shuffle && i + 1 < n; i++) {
		size_t j = i + rnd((unsigned)(n - i));
		char *x = lines[i];
		lines[i] = lines[j];
		lines[j] = x;
	}
	for (size_t i = 0; i < n; i++) {
		if (extra && i + 1 == at)
			put(&t, extra);
		put(&t, lines[i]);
		free(lines[i]);
	}
	free(lines);
	return t.p;
}

static char *folded_of(flame_tree *t)
{
	char *s = folded_str(t);
	CHECK(s != NULL);
	return s;
}

typedef struct warned {
	int count;
	uint64_t first_line;
} warned;

static void on_warn(void *ud, const char *kind, const char *source, uint64_t line, const char *msg)
{
	warned *w = ud;
	(void)kind, (void)source, (void)msg;
	if (!w->count++)
		w->first_line = line;
}

/* A diff request over sides[0..1], read from memory (warnings to w[i] when w is not NULL)
 * on `threads`: its tree in *t (NULL on failure), the request in *keep (to ask what
 * failed), the run's status returned. */
static int diff_request(const char *const *sides, const flame_diff_opts *o, warned *w,
                        unsigned threads, flame_tree **t, flame_diff_request **keep)
{
	flame_input *in[2];
	flame_diff_request *r;
	CHECK(flame_diff_request_new(&r, o, NULL) == 0);
	flame_diff_request_threads(r, threads);
	for (int i = 0; i < 2; i++) {
		flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
		if (w) {
			po.warn = on_warn;
			po.warn_ud = &w[i];
		}
		CHECK(flame_input_open_mem(&in[i], sides[i], strlen(sides[i]), "mem", NULL) == 0);
		CHECK(flame_diff_request_input(r, i, NULL, in[i], &po, NULL) == 0);
	}
	flame_err err = {0};
	int rc = flame_diff_request_tree(r, t, &err);
	for (int i = 0; i < 2; i++)
		flame_input_free(in[i]);
	*keep = r;
	return rc;
}

/* A diff request of (b, a), both ways of reading, against flame_parse of each +
 * flame_diff. */
static void check_diff(const char *b, const char *a, const flame_diff_opts *o)
{
	flame_tree *tb = parse_str(b, FLAME_FORMAT_AUTO, NULL), *ta = parse_str(a, FLAME_FORMAT_AUTO, NULL);
	CHECK(tb && ta);
	CHECK(flame_diff(tb, ta, o, NULL) == 0);
	char *want = folded_of(tb);
	const char *sides[2] = {b, a};
	for (unsigned threads = 2; threads >= 1; threads--) {
		flame_tree *t = NULL;
		flame_diff_request *r;
		CHECK(diff_request(sides, o, NULL, threads, &t, &r) == 0);
		CHECK(flame_diff_request_failed_side(r, NULL) == -1);
		CHECK(t != NULL);
		if (!t)
			continue;
		CHECK_EQ_U64(flame_diff_request_total(r, 1), flame_tree_total(t, 1));
		char *got = folded_of(t);
		CHECK(want && got && strlen(want) > 1000000);
		CHECK(want && got && strcmp(want, got) == 0);
		flame_diff_request_free(r);
		flame_tree_free(t);
		free(got);
	}
	flame_tree_free(tb);
	flame_tree_free(ta);
	free(want);
}

static void test_diff_blocks(void)
{
	char **s = make_stacks(7);
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	char *b = make_input(s, 1, 5, 0, 0, 0, NULL, 0);
	char *a = make_input(s, 2, 7, 3, 0, 0, NULL, 0);
	check_diff(b, a, &o); /* sorted sides: the merge walk */
	char *u = make_input(s, 3, 7, 3, 0, 1, NULL, 0);
	check_diff(b, u, &o); /* AFTER shuffled: hashing from the first stack out of order */
	check_diff(u, b, &o);
	char *r = make_input(s, 4, 9, 1, 1, 0, NULL, 0);
	check_diff(r, a, &o); /* every line twice, some pairs split by a block boundary */
	char *f = make_input(s, 5, 5, 0, 0, 0, "zzz;late 1.25\n", LINES - 100);
	check_diff(b, f, &o); /* a fraction near the end rescales what came before */
	o.norm = FLAME_DIFF_NORM_TOTAL;
	o.strip_hex = 1;
	check_diff(f, a, &o);
	o.strip_hex = 0;
	o.norm = FLAME_DIFF_NORM_REQUESTS;
	o.requests_before = 3;
	o.requests_after = 7;
	check_diff(r, u, &o);
	free(b);
	free(a);
	free(u);
	free(r);
	free(f);
	free_stacks(s);
}

static void test_diff_lines(void)
{
	char **s = make_stacks(11);
	/* 24000 lines each (every 5th stack left out) */
	char *b = make_input(s, 1, 5, 0, 0, 0, "not a folded line\n", 21000);
	char *a = make_input(s, 2, 5, 0, 0, 0, NULL, 0);
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	warned w[2] = {{0}, {0}};
	const char *sides[2] = {b, a};
	flame_tree *t = NULL;
	flame_diff_request *r;
	CHECK(diff_request(sides, &o, w, 2, &t, &r) == 0);
	CHECK(w[0].count == 1 && w[0].first_line == 21000); /* the input's line, not a block's */
	CHECK(w[1].count == 0);
	flame_diff_request_free(r);
	flame_tree_free(t);
	/* a 3-column AFTER: refused, and said which side, both ways of reading */
	free(a);
	a = make_input(s, 2, 5, 0, 0, 0, "main;x 1 2\n", 20000);
	sides[1] = a;
	for (unsigned threads = 2; threads >= 1; threads--) {
		int differential = 0;
		CHECK(diff_request(sides, &o, NULL, threads, &t, &r) == FLAME_EDATA);
		CHECK(t == NULL);
		CHECK(flame_diff_request_failed_side(r, &differential) == 1 && differential);
		flame_diff_request_free(r);
	}
	/* a 3-column BEFORE (read second with one thread) */
	sides[0] = a;
	sides[1] = b;
	for (unsigned threads = 2; threads >= 1; threads--) {
		int differential = 0;
		CHECK(diff_request(sides, &o, NULL, threads, &t, &r) == FLAME_EDATA);
		CHECK(flame_diff_request_failed_side(r, &differential) == 0 && differential);
		flame_diff_request_free(r);
	}
	/* an error names the input's line too */
	free(a);
	a = make_input(s, 2, 5, 0, 0, 0, "main;y 99999999999999999999\n", 17000);
	sides[0] = b;
	sides[1] = a;
	flame_err err = {0};
	flame_diff_request_new(&r, &o, NULL);
	flame_input *in[2];
	for (int i = 0; i < 2; i++) {
		CHECK(flame_input_open_mem(&in[i], sides[i], strlen(sides[i]), "mem", NULL) == 0);
		CHECK(flame_diff_request_input(r, i, NULL, in[i], NULL, NULL) == 0);
	}
	CHECK(flame_diff_request_tree(r, &t, &err) == FLAME_ERANGE);
	CHECK(flame_diff_request_failed_side(r, NULL) == 1 && err.line == 17000);
	for (int i = 0; i < 2; i++)
		flame_input_free(in[i]);
	flame_diff_request_free(r);
	free(a);
	free(b);
	free_stacks(s);
}

/* A merge request of n inputs (weights w/10^d) against parse + weight + flame_tree_merge. */
static void check_merge(char **in, size_t n, const uint64_t *w, const unsigned *d)
{
	flame_tree *want_t = test_tree_new();
	for (size_t i = 0; i < n; i++) {
		flame_tree *u = parse_str(in[i], FLAME_FORMAT_AUTO, NULL);
		CHECK(u != NULL);
		CHECK(flame_tree_weight(u, w[i], d[i], NULL) == 0);
		CHECK(flame_tree_merge(want_t, u, NULL) == 0);
		flame_tree_free(u);
	}
	char *want = folded_of(want_t);
	flame_merge_request *r;
	flame_input *fi[4];
	CHECK(flame_merge_request_new(&r, NULL) == 0);
	for (size_t i = 0; i < n; i++) {
		CHECK(flame_input_open_mem(&fi[i], in[i], strlen(in[i]), "mem", NULL) == 0);
		CHECK(flame_merge_request_input(r, NULL, fi[i], NULL, w[i], d[i], NULL) == 0);
	}
	flame_tree *t = NULL;
	CHECK(flame_merge_request_tree(r, &t, NULL) == 0);
	flame_merge_request_free(r);
	char *got = folded_of(t);
	CHECK(want && got && strcmp(want, got) == 0);
	for (size_t i = 0; i < n; i++)
		flame_input_free(fi[i]);
	flame_tree_free(t);
	flame_tree_free(want_t);
	free(want);
	free(got);
}

static void test_merge(void)
{
	char **s = make_stacks(13);
	char *in[4] = {make_input(s, 1, 3, 0, 0, 0, NULL, 0), make_input(s, 2, 3, 1, 0, 0, NULL, 0),
	               make_input(s, 3, 4, 2, 0, 1, NULL, 0),
	               make_input(s, 4, 5, 3, 0, 0, "a 0.5\n", 100)};
	uint64_t w[4] = {2, 25, 1, 3};
	unsigned d[4] = {0, 2, 0, 0};
	check_merge(in, 2, w, d);  /* two inputs stream */
	check_merge(in + 2, 2, w, d);
	check_merge(in, 4, w, d);  /* more are read whole and joined */
	for (int i = 0; i < 4; i++)
		free(in[i]);
	free_stacks(s);
}

int main(void)
{
	RUN(test_diff_blocks);
	RUN(test_diff_lines);
	RUN(test_merge);
	return harness_done();
}
