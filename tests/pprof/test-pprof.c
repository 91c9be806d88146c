/* Unit tests for the pprof reader and writer: profiles are encoded here field by field,
 * so each test controls the wire layout (packed or not, field order, ids) exactly. */
#include <stdint.h>
#include <unistd.h>
#include "harness.h"
#include "util.h"
#include "libflame/flame.h"

/* ---- a tiny protobuf encoder */
typedef struct msg {
	uint8_t b[8192];
	size_t n;
} msg;

static void put_varint(msg *m, uint64_t v)
{
	while (v >= 0x80) {
		m->b[m->n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	m->b[m->n++] = (uint8_t)v;
}
static void vi(msg *m, unsigned f, uint64_t v)
{
	put_varint(m, (uint64_t)f << 3);
	put_varint(m, v);
}
static void ld(msg *m, unsigned f, const void *p, size_t n)
{
	put_varint(m, (uint64_t)f << 3 | 2);
	put_varint(m, n);
	memcpy(m->b + m->n, p, n);
	m->n += n;
}
static void sub(msg *m, unsigned f, const msg *s) { ld(m, f, s->b, s->n); }
static void str(msg *m, const char *s) { ld(m, 6, s, strlen(s)); }
static void packed(msg *m, unsigned f, const uint64_t *v, size_t n)
{
	msg s = {.n = 0};
	for (size_t i = 0; i < n; i++)
		put_varint(&s, v[i]);
	sub(m, f, &s);
}
static void vtype(msg *m, unsigned field, uint64_t type, uint64_t unit)
{
	msg s = {.n = 0};
	vi(&s, 1, type);
	vi(&s, 2, unit);
	sub(m, field, &s);
}
static void function(msg *m, uint64_t id, uint64_t name, uint64_t sys)
{
	msg s = {.n = 0};
	vi(&s, 1, id);
	vi(&s, 2, name);
	if (sys)
		vi(&s, 3, sys);
	sub(m, 5, &s);
}
/* a location with lines fids[0..n) (line[0] = innermost), optional mapping */
static void location(msg *m, uint64_t id, uint64_t mapping, uint64_t addr, const uint64_t *fids,
                     size_t n)
{
	msg s = {.n = 0};
	vi(&s, 1, id);
	if (mapping)
		vi(&s, 2, mapping);
	if (addr)
		vi(&s, 3, addr);
	for (size_t i = 0; i < n; i++) {
		msg l = {.n = 0};
		vi(&l, 1, fids[i]);
		vi(&l, 2, 10 + i);
		sub(&s, 4, &l);
	}
	sub(m, 4, &s);
}
static void sample(msg *m, const uint64_t *locs, size_t nl, const int64_t *vals, size_t nv,
                   int pack)
{
	msg s = {.n = 0};
	if (pack) {
		packed(&s, 1, locs, nl);
		packed(&s, 2, (const uint64_t *)vals, nv);
	} else {
		for (size_t i = 0; i < nl; i++)
			vi(&s, 1, locs[i]);
		for (size_t i = 0; i < nv; i++)
			vi(&s, 2, (uint64_t)vals[i]);
	}
	sub(m, 2, &s);
}

/* ---- parsing into sorted folded text */
typedef struct text {
	char lines[64][256];
	int n;
} text;

static int collect(void *ud, const flame_str *frames, size_t n, uint64_t w0, uint64_t w1)
{
	text *t = ud;
	char *p = t->lines[t->n++];
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(p + len, 256 - len, "%s%.*s", i ? ";" : "", (int)frames[i].len,
		                        frames[i].ptr);
	snprintf(p + len, 256 - len, " %llu", (unsigned long long)w0);
	(void)w1;
	return 0;
}
static int cmp_line(const void *a, const void *b) { return strcmp(a, b); }

static char out[8192];

/* Parse `m` with `o`; returns the status, fills `out` with sorted folded lines. */
static int parse_with(const msg *m, const flame_parse_opts *o, flame_tree *t, flame_err *err)
{
	flame_input *in = NULL;
	CHECK(flame_input_open_mem(&in, m->b, m->n, "t.pb", err) == 0);
	int rc = flame_parse(t, in, o, err);
	flame_input_free(in);
	text tx = {.n = 0};
	flame_tree_each_stack(t, collect, &tx, NULL);
	qsort(tx.lines, (size_t)tx.n, sizeof tx.lines[0], cmp_line);
	out[0] = '\0';
	for (int i = 0; i < tx.n; i++) {
		strcat(out, tx.lines[i]);
		strcat(out, "\n");
	}
	return rc;
}

static int parse(const msg *m, const flame_parse_opts *o, flame_err *err)
{
	flame_tree *t = test_tree_new();
	int rc = parse_with(m, o, t, err);
	flame_tree_free(t);
	return rc;
}

/* strings: 0 "", 1 samples, 2 count, 3 cpu, 4 nanoseconds, 5 main, 6 work, 7 hot,
 * 8 inl, 9 runtime.gc, 10 runtime\..*, 11 bin/app, 12 runtime.keep.* */
static const char *const strs[] = {"",     "samples", "count",      "cpu",         "nanoseconds",
                                   "main", "work",    "hot",        "inl",         "runtime.gc",
                                   "runtime\\..*",    "/usr/bin/app", "runtime\\.keep.*"};
static void strings(msg *m)
{
	for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
		str(m, strs[i]);
}

/* main -> work -> hot, where hot has 'inl' inlined into it */
static void body(msg *m, int pack)
{
	vtype(m, 1, 1, 2);
	vtype(m, 1, 3, 4);
	function(m, 1, 5, 0);
	function(m, 2, 6, 0);
	function(m, 3, 7, 0);
	function(m, 4, 8, 0);
	uint64_t f1 = 1, f2 = 2, f34[] = {4, 3};
	location(m, 10, 0, 0, &f1, 1);
	location(m, 20, 0, 0, &f2, 1);
	location(m, 30, 0, 0, f34, 2);
	uint64_t s1[] = {30, 20, 10}, s2[] = {20, 10};
	int64_t v1[] = {2, 20}, v2[] = {1, 10};
	sample(m, s1, 3, v1, 2, pack);
	sample(m, s2, 2, v2, 2, !pack);
	sample(m, s1, 3, v1, 2, !pack);
}

static void test_basic(void)
{
	flame_err err = {0};
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	msg m = {.n = 0};
	body(&m, 1);
	strings(&m);
	CHECK(parse(&m, &o, &err) == 0);
	/* the last sample type by default; inlined 'inl' is the leaf of location 30 */
	CHECK_STR(out, "main;work 10\nmain;work;hot;inl 40\n");
	/* string table first, unpacked everything: the same */
	msg m2 = {.n = 0};
	strings(&m2);
	body(&m2, 0);
	CHECK(parse(&m2, &o, &err) == 0);
	CHECK_STR(out, "main;work 10\nmain;work;hot;inl 40\n");
	o.pprof_sample_type = "samples";
	CHECK(parse(&m2, &o, &err) == 0);
	CHECK_STR(out, "main;work 1\nmain;work;hot;inl 4\n");
	o.pprof_sample_type = "0";
	CHECK(parse(&m2, &o, &err) == 0);
	CHECK_STR(out, "main;work 1\nmain;work;hot;inl 4\n");
	o.pprof_sample_type = "wall";
	CHECK(parse(&m2, &o, &err) == FLAME_EUSAGE);
	CHECK_STR(err.msg, "no sample type 'wall' (the profile has: samples, cpu)");
	o.pprof_sample_type = NULL;
	o.pprof_flags = FLAME_PPROF_INLINE_ANNOTATE;
	CHECK(parse(&m2, &o, &err) == 0);
	CHECK_STR(out, "main;work 10\nmain;work;hot;inl_[i] 40\n");
	/* the unit becomes the count name */
	flame_tree *t = test_tree_new();
	o.pprof_flags = 0;
	CHECK(parse_with(&m2, &o, t, &err) == 0);
	CHECK_STR(flame_tree_count_name(t), "nanoseconds");
	flame_tree_free(t);
}

static void test_default_type(void)
{
	flame_err err = {0};
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	msg m = {.n = 0};
	body(&m, 1);
	vi(&m, 14, 1); /* default_sample_type = "samples" */
	strings(&m);
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "main;work 1\nmain;work;hot;inl 4\n");
}

static void test_unsymbolized_and_ids(void)
{
	flame_err err = {0};
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	msg m = {.n = 0};
	strings(&m);
	vtype(&m, 1, 1, 2);
	/* mapping 1<<41 with a file; function with an empty name; huge, sparse ids */
	msg mp = {.n = 0};
	vi(&mp, 1, 1ULL << 41);
	vi(&mp, 5, 11);
	sub(&m, 3, &mp);
	function(&m, 1ULL << 40, 5, 0);
	function(&m, 7, 0, 9); /* name "" (system_name runtime.gc) */
	uint64_t fm = 1ULL << 40, fe = 7;
	location(&m, 1ULL << 50, 0, 0, &fm, 1);
	location(&m, 3, 1ULL << 41, 0x1234, NULL, 0); /* no lines, mapped */
	location(&m, 4, 0, 0xbeef, NULL, 0);          /* no lines, no mapping */
	location(&m, 5, 1ULL << 41, 0x99, &fe, 1);    /* a function without a name */
	uint64_t a[] = {3, 1ULL << 50}, b[] = {4, 1ULL << 50}, c[] = {5, 1ULL << 50};
	int64_t one = 1;
	sample(&m, a, 2, &one, 1, 1);
	sample(&m, b, 2, &one, 1, 1);
	sample(&m, c, 2, &one, 1, 0);
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "main;<unknown> 1\nmain;[app] 2\n");
	o.pprof_flags = FLAME_PPROF_ADDRESSES;
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "main;0xbeef 1\nmain;app+0x1234 1\nmain;app+0x99 1\n");
	o.pprof_flags = FLAME_PPROF_SYSTEM_NAMES;
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "main;<unknown> 1\nmain;[app] 1\nmain;runtime.gc 1\n");
}

static void test_prune(void)
{
	/* drop_frames runtime\..* keep runtime.keep.*: frames from the first match leafward
	 * are cut, but only after a user frame */
	flame_err err = {0};
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	msg m = {.n = 0};
	strings(&m);
	vtype(&m, 1, 1, 2);
	vi(&m, 7, 10);
	function(&m, 1, 5, 0); /* main */
	function(&m, 2, 9, 0); /* runtime.gc */
	function(&m, 3, 7, 0); /* hot */
	uint64_t f1 = 1, f2 = 2, f3 = 3, f23[] = {3, 2};
	location(&m, 1, 0, 0, &f1, 1);
	location(&m, 2, 0, 0, &f2, 1);
	location(&m, 3, 0, 0, &f3, 1);
	location(&m, 4, 0, 0, f23, 2); /* hot inlined into runtime.gc */
	uint64_t s1[] = {3, 2, 1};  /* main;runtime.gc;hot -> main */
	uint64_t s2[] = {1, 2};     /* runtime.gc;main: runtime.gc is rootward of any user frame */
	uint64_t s3[] = {4, 1};     /* main;[runtime.gc;hot] -> main */
	int64_t one = 1;
	sample(&m, s1, 3, &one, 1, 1);
	sample(&m, s2, 2, &one, 1, 1);
	sample(&m, s3, 2, &one, 1, 1);
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "main 2\nruntime.gc;main 1\n");
}

static void test_negative(void)
{
	flame_err err = {0};
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	msg m = {.n = 0};
	strings(&m);
	vtype(&m, 1, 1, 2);
	function(&m, 1, 5, 0);
	function(&m, 2, 6, 0);
	uint64_t f1 = 1, f2 = 2;
	location(&m, 1, 0, 0, &f1, 1);
	location(&m, 2, 0, 0, &f2, 1);
	uint64_t a[] = {1}, b[] = {2, 1};
	int64_t v5 = 5, vm2 = -2, vm9 = -9, v9 = 9, v0 = 0;
	sample(&m, a, 1, &v5, 1, 1);
	sample(&m, a, 1, &vm2, 1, 1);
	sample(&m, b, 2, &vm9, 1, 1); /* b sums to 0: gone */
	sample(&m, b, 2, &v9, 1, 1);
	sample(&m, b, 2, &v0, 1, 1);
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "main 3\n");
	/* a negative sum is dropped */
	msg n2 = m;
	sample(&n2, b, 2, &vm2, 1, 0);
	CHECK(parse(&n2, &o, &err) == 0);
	CHECK_STR(out, "main 3\n");
}

static void test_labels(void)
{
	flame_err err = {0};
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	msg m = {.n = 0};
	strings(&m);
	str(&m, "endpoint");  /* 13 */
	str(&m, "/api/a");    /* 14 */
	str(&m, "bytes");     /* 15 */
	vtype(&m, 1, 1, 2);
	function(&m, 1, 5, 0);
	uint64_t f1 = 1, l1 = 1;
	location(&m, 1, 0, 0, &f1, 1);
	for (int k = 0; k < 3; k++) {
		msg s = {.n = 0}, lb = {.n = 0};
		vi(&s, 1, l1);
		vi(&s, 2, (uint64_t)(k + 1));
		if (k == 0) {
			vi(&lb, 1, 13);
			vi(&lb, 2, 14);
		} else {
			vi(&lb, 1, 15);
			vi(&lb, 3, k == 1 ? 100 : 5000);
		}
		sub(&s, 3, &lb);
		sub(&m, 2, &s);
	}
	const char *tag[] = {"endpoint=^/api"};
	o.tags = tag;
	o.n_tags = 1;
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "main 1\n");
	const char *range[] = {"bytes=1000:"};
	o.tags = range;
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "main 3\n");
	o.tags = NULL;
	o.n_tags = 0;
	o.tags_ignore = range;
	o.n_tags_ignore = 1;
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "main 3\n");
	o.tags_ignore = NULL;
	o.n_tags_ignore = 0;
	o.group_by = "bytes";
	CHECK(parse(&m, &o, &err) == 0);
	CHECK_STR(out, "100;main 2\n5000;main 3\n<no bytes>;main 1\n");
	const char *badre[] = {"endpoint=(x"};
	o.tags = badre;
	o.n_tags = 1;
	CHECK(flame_parse_opts_check(&o, &err) == FLAME_EUSAGE);
}

static void test_errors(void)
{
	flame_err err = {0};
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	msg m = {.n = 0};
	strings(&m);
	vtype(&m, 1, 1, 2);
	function(&m, 1, 5, 0);
	uint64_t f1 = 1;
	size_t loc_at = m.n;
	location(&m, 1, 0, 0, &f1, 1);
	location(&m, 1, 0, 0, &f1, 1);
	CHECK(parse(&m, &o, &err) == FLAME_EDATA);
	CHECK_STR(err.msg, "invalid pprof: location id 1 is defined twice");
	CHECK_EQ_U64(err.offset, m.n - (m.n - loc_at) / 2);
	/* a second time_nanos: concatenated profiles */
	msg c = {.n = 0};
	strings(&c);
	vi(&c, 9, 1);
	vi(&c, 9, 2);
	CHECK(parse(&c, &o, &err) == FLAME_EDATA);
	CHECK_STR(err.msg, "invalid pprof: concatenated profiles detected (a second time_nanos)");
	/* no string table at all */
	msg e = {.n = 0};
	vtype(&e, 1, 1, 2);
	CHECK(parse(&e, &o, &err) == FLAME_EDATA);
}

/* Every prefix and every single-byte change of a valid profile parses or fails cleanly
 * (run under ASan in CI, this is a small deterministic fuzz). */
static void test_mutations(void)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_PPROF;
	msg m = {.n = 0};
	body(&m, 1);
	vi(&m, 7, 10);
	strings(&m);
	int bad = 0;
	for (size_t n = 0; n < m.n; n++) {
		msg p = m;
		p.n = n;
		flame_err err = {0};
		int rc = parse(&p, &o, &err);
		bad += rc != 0 && rc != FLAME_EDATA && rc != FLAME_EUSAGE;
	}
	for (size_t i = 0; i < m.n; i++) {
		static const uint8_t vals[] = {0x00, 0x7f, 0x80, 0xff, 0x02, 0x0b};
		for (size_t k = 0; k < sizeof vals; k++) {
			msg p = m;
			p.b[i] = vals[k];
			flame_err err = {0};
			int rc = parse(&p, &o, &err);
			bad += rc != 0 && rc != FLAME_EDATA && rc != FLAME_EUSAGE && rc != FLAME_ERANGE;
		}
	}
	CHECK(bad == 0);
}

static void test_write_roundtrip(void)
{
	flame_err err = {0};
	flame_tree *t = test_tree_new();
	flame_str a[] = {{"main", 4}, {"work", 4}, {"hot", 3}};
	CHECK(flame_tree_add(t, a, 3, 0, 7, 0, &err) == 0);
	CHECK(flame_tree_add(t, a, 2, 0, 5, 0, &err) == 0);
	flame_str b[] = {{"main", 4}, {"x y", 3}};
	CHECK(flame_tree_add(t, b, 2, 0, (uint64_t)1 << 40, 0, &err) == 0);
	CHECK(flame_tree_set_count_name(t, "bytes") == 0);
	char path[] = "/tmp/flame-test-pprof-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	flame_output *o = NULL;
	CHECK(flame_output_open(&o, path, &err) == 0);
	CHECK(flame_write_pprof(t, o, &err) == 0);
	CHECK(flame_output_commit(o, &err) == 0);
	flame_tree_free(t);
	/* read it back */
	flame_tree *r = test_tree_new();
	flame_input *in = NULL;
	CHECK(flame_input_open(&in, path, &err) == 0);
	CHECK(flame_parse(r, in, NULL, &err) == 0);
	flame_input_free(in);
	text tx = {.n = 0};
	flame_tree_each_stack(r, collect, &tx, NULL);
	qsort(tx.lines, (size_t)tx.n, sizeof tx.lines[0], cmp_line);
	CHECK_EQ_U64(tx.n, 3);
	CHECK_STR(tx.lines[0], "main;work 5");
	CHECK_STR(tx.lines[1], "main;work;hot 7");
	CHECK_STR(tx.lines[2], "main;x y 1099511627776");
	CHECK_STR(flame_tree_count_name(r), "bytes");
	flame_tree_free(r);
	unlink(path);
}

int main(void)
{
	RUN(test_basic);
	RUN(test_default_type);
	RUN(test_unsymbolized_and_ids);
	RUN(test_prune);
	RUN(test_negative);
	RUN(test_labels);
	RUN(test_errors);
	RUN(test_mutations);
	RUN(test_write_roundtrip);
	return harness_done();
}
