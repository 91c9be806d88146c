/* Unit tests of the core: arena, interning, stack table, tree building, iterator,
 * merge and scaling. */
#include <stdint.h>
#include "core/arena.h"
#include "core/hash.h"
#include "core/intern.h"
#include "core/order.h"
#include "core/stacks.h"
#include "core/tree-private.h" /* white-box tests of the core */
#include "harness.h"
#include "util.h"

static void test_arena(void)
{
	flame__arena a;
	flame__arena_init(&a);
	char *p = flame__arena_alloc(&a, 3);
	char *q = flame__arena_alloc(&a, 5);
	CHECK(p && q && ((uintptr_t)q & 7) == 0 && q >= p + 8);
	char *big = flame__arena_alloc(&a, 10 << 20); /* bigger than a block */
	CHECK(big != NULL);
	memset(big, 1, 10 << 20);
	flame__arena_free(&a);
}

static void test_intern(void)
{
	flame__intern in;
	flame__intern_init(&in);
	uint32_t a = flame__intern_put(&in, "foo", 3);
	uint32_t b = flame__intern_put(&in, "foo-bar", 7);
	CHECK(a != b);
	CHECK_EQ_U64(flame__intern_put(&in, "foo", 3), a);
	CHECK_EQ_U64(flame__intern_find(&in, "foo-bar", 7), b);
	CHECK_EQ_U64(flame__intern_find(&in, "nope", 4), FLAME__ID_NONE);
	/* many names: the table grows and ids stay dense and stable */
	char buf[32];
	for (int i = 0; i < 100000; i++) {
		int n = snprintf(buf, sizeof buf, "name%d", i);
		CHECK_EQ_U64(flame__intern_put(&in, buf, (size_t)n), (uint64_t)i + 2);
	}
	CHECK_STR(flame__intern_get(&in, 12345 + 2)->ptr, "name12345");
	CHECK_EQ_U64(flame__intern_put(&in, "", 0), 100002); /* the empty name is a name */
	flame__intern_free(&in);

	/* slots match short names by length and first bytes: neighbours stay apart, on the
	 * general path and on the padded one (names followed by 8 readable bytes) */
	flame__intern_init(&in);
	static const char *near[] = {"ab", "ab\0", "ab\0\0", "abcdefgh", "abcdefghi", "abcdefghj",
	                             "abcdefgh\0", "b", ""};
	static const size_t nlen[] = {2, 3, 4, 8, 9, 9, 9, 1, 0};
	char *big = malloc(70000 + 8);
	memset(big, 'x', 70000 + 8);
	uint32_t id[11];
	for (int i = 0; i < 9; i++)
		id[i] = flame__intern_put(&in, near[i], nlen[i]);
	id[9] = flame__intern_put(&in, big, 70000);
	id[10] = flame__intern_put(&in, big, 69999);
	for (int i = 0; i < 11; i++)
		for (int j = 0; j < i; j++)
			CHECK(id[i] != id[j]);
	char pad[32];
	for (int i = 0; i < 9; i++) {
		memset(pad, 0x55, sizeof pad);
		memcpy(pad, near[i], nlen[i]);
		CHECK_EQ_U64(flame__intern_find_padded(&in, pad, nlen[i], flame__hash_bytes(pad, nlen[i])),
		             id[i]);
		CHECK_EQ_U64(flame__intern_find(&in, pad, nlen[i]), id[i]);
	}
	CHECK_EQ_U64(flame__intern_find_padded(&in, big, 70000, flame__hash_bytes(big, 70000)), id[9]);
	CHECK_EQ_U64(flame__intern_find_padded(&in, big, 69999, flame__hash_bytes(big, 69999)), id[10]);
	CHECK_EQ_U64(flame__intern_find_padded(&in, "abcdefgk--------", 9,
	                                       flame__hash_bytes("abcdefgk", 9)), FLAME__ID_NONE);
	free(big);
	flame__intern_free(&in);
}

static void test_stacks(void)
{
	flame__stacks s;
	flame__stacks_init(&s);
	uint32_t x[] = {1, 2, 3}, y[] = {1, 2};
	CHECK(flame__stacks_add(&s, x, 3, 5, 0) == 0);
	CHECK(flame__stacks_add(&s, y, 2, 1, 2) == 0);
	CHECK(flame__stacks_add(&s, x, 3, 7, 1) == 0);
	CHECK_EQ_U64(s.count, 2);
	CHECK_EQ_U64(s.v[0].w[0], 12);
	CHECK_EQ_U64(s.v[0].w[1], 1);
	CHECK_EQ_U64(s.total[0], 13);
	/* overflow is an error and leaves the counts alone */
	CHECK(flame__stacks_add(&s, y, 2, UINT64_MAX, 0) == FLAME_ERANGE);
	CHECK_EQ_U64(s.v[1].w[0], 1);
	flame__stacks_free(&s);
}

/* The sorted flag: appends in order keep it without building the index; a lookup builds
 * the index lazily (and still finds stacks appended before it); a new stack added out of
 * order clears it. */
static void test_stacks_sorted(void)
{
	flame__stacks s;
	flame__stacks_init(&s);
	CHECK(s.sorted == 1);
	uint32_t a[] = {1}, ab[] = {1, 2}, b[] = {2}, c[] = {3}, d[] = {4};
	CHECK(flame__stacks_add(&s, a, 1, 1, 0) == 0); /* into an empty table: still sorted */
	CHECK(s.sorted == 1);
	CHECK(flame__stacks_append_sorted(&s, ab, 2, 2, 0) == 0);
	CHECK(flame__stacks_append_sorted(&s, b, 1, 3, 1) == 0);
	CHECK(s.sorted == 1 && s.count == 3 && s.indexed == 1); /* appends skip the index */
	CHECK_EQ_U64(s.total[0], 6);
	CHECK_EQ_U64(s.total[1], 1);
	CHECK(flame__stacks_add(&s, ab, 2, 10, 0) == 0); /* a lookup: the index is built */
	CHECK(s.sorted == 1 && s.count == 3 && s.indexed == 3);
	CHECK_EQ_U64(s.v[1].w[0], 12);
	CHECK(flame__stacks_append_sorted(&s, c, 1, 1, 0) == 0);
	CHECK(flame__stacks_add(&s, c, 1, 4, 0) == 0); /* appended after the index was built */
	CHECK(s.sorted == 1 && s.count == 4);
	CHECK_EQ_U64(s.v[3].w[0], 5);
	CHECK(flame__stacks_append_sorted(&s, c, 1, UINT64_MAX, 0) == FLAME_ERANGE);
	CHECK(s.count == 4);
	CHECK(flame__stacks_add(&s, d, 1, 1, 0) == 0); /* new, not proven in order */
	CHECK(s.sorted == 0 && s.count == 5);
	/* on an unsorted table an append is an ordinary add: no duplicate */
	CHECK(flame__stacks_append_sorted(&s, a, 1, 1, 0) == 0);
	CHECK(s.count == 5);
	CHECK_EQ_U64(s.v[0].w[0], 2);
	CHECK_EQ_U64(s.total[0], 23);
	flame__stacks_free(&s);

	/* many appends, then lookups of each */
	flame__stacks_init(&s);
	uint32_t ids[3] = {7, 0, 0};
	for (uint32_t i = 0; i < 5000; i++) {
		ids[1] = i / 100;
		ids[2] = i % 100;
		CHECK(flame__stacks_append_sorted(&s, ids, 3, 1, 0) == 0);
	}
	for (uint32_t i = 0; i < 5000; i += 7) {
		ids[1] = i / 100;
		ids[2] = i % 100;
		CHECK(flame__stacks_add(&s, ids, 3, 1, 0) == 0);
	}
	CHECK(s.sorted == 1 && s.count == 5000);
	CHECK_EQ_U64(s.v[4998].w[0], 2);
	CHECK_EQ_U64(s.v[4999].w[0], 1);
	flame__stacks_free(&s);
}

/* The folded text of stack k of t (into buf). */
static const char *stack_text(const flame_tree *t, size_t k, char *buf, size_t cap)
{
	const flame__stack *st = &t->stacks.v[k];
	size_t o = 0;
	for (uint32_t i = 0; i < st->depth; i++) {
		const flame__name *nm = flame__intern_get(&t->names, st->ids[i]);
		if (i && o + 1 < cap)
			buf[o++] = ';';
		for (uint32_t j = 0; j < nm->len && o + 1 < cap; j++)
			buf[o++] = nm->ptr[j];
	}
	buf[o] = '\0';
	return buf;
}

/* Does the sorted flag tell the truth about t's table? */
static int sorted_flag_holds(const flame_tree *t)
{
	char x[256], y[256];
	if (!t->stacks.sorted)
		return 1;
	for (size_t k = 1; k < t->stacks.count; k++)
		if (strcmp(stack_text(t, k - 1, x, sizeof x), stack_text(t, k, y, sizeof y)) >= 0)
			return 0;
	return 1;
}

/* The folded parser appends lines in sorted order without lookups, and falls back to
 * lookups (clearing the flag only when a new stack comes out of order). */
static void test_folded_sorted(void)
{
	static const struct {
		const char *text;
		int sorted;
		uint64_t count;
	} cases[] = {
	    {"a;b 1\na;c 2\nb 3\n", 1, 3},
	    {"a 1\na-x 1\na;b 1\n", 1, 3}, /* '-' sorts before ';' */
	    {"a;b 1\na-x 1\n", 0, 2},
	    {"a 1\na 2\nb 1\nb 1\n", 1, 2},
	    {"b 1\na 2\n", 0, 2},
	    {"a 1\nb 1\na 2\n", 1, 2},      /* an old stack again: no new one out of order */
	    {"a 1\nb 1\na 2\nc 1\n", 0, 3}, /* not proven after b: looked up, flag cleared */
	    {"a;b 1\na;b 1 2\na;c 0.5\na;d 1\n", 1, 3},
	    {"x 1\nx;y 1\n\nbad line\nx;z 1\n", 1, 3},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		flame_err err;
		flame_tree *t = parse_str(cases[i].text, FLAME_FORMAT_FOLDED, &err);
		CHECK(t != NULL);
		if (!t)
			continue;
		CHECK_EQ_U64(t->stacks.sorted, cases[i].sorted);
		CHECK_EQ_U64(t->stacks.count, cases[i].count);
		CHECK(sorted_flag_holds(t));
		flame_tree_free(t);
	}
	flame_err err;
	flame_tree *t = parse_str("a 1\na 2\nb 1\nb 1\n", FLAME_FORMAT_FOLDED, &err);
	char *s = folded_str(t);
	CHECK_STR(s, "a 3\nb 2\n");
	free(s);
	flame_tree_free(t);
	/* a differential line whose second column raises the scale keeps its first one */
	t = parse_str("a 1 1\nb 2 3.25\nc 0.5 7\nd 18446744073709551615 1\n", FLAME_FORMAT_FOLDED,
	              &err);
	CHECK(t == NULL);
	t = parse_str("a 1 1\nb 2 3.25\nc 0.5 7\nd 9999999999999999999 00012\n",
	              FLAME_FORMAT_FOLDED, &err);
	CHECK(t == NULL); /* 10^19 - 1 at scale 2 overflows */
	t = parse_str("a 1 1\nb 2 3.25\nc 0.5 7\nd 99999999999999 00012\n", FLAME_FORMAT_FOLDED,
	              &err);
	s = folded_str(t);
	CHECK_STR(s, "a 1 1\nb 2 3.25\nc 0.5 7\nd 99999999999999 12\n");
	free(s);
	flame_tree_free(t);
}

/* Parse `n` bytes of folded text (NUL bytes inside) into `t`: the status, `err` filled. */
static int parse_folded_n(flame_tree *t, const char *text, size_t n, flame_err *err)
{
	flame_input *in = NULL;
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_FOLDED;
	int rc = flame_input_open_mem(&in, text, n, "test", err);
	if (!rc)
		rc = flame_parse(t, in, &o, err);
	flame_input_free(in);
	return rc;
}

/* A NUL in a stack is binary data, on the line that has it: in a name new to the tree
 * (only those are searched), in the last frame, in a prefix the next line shares, and in
 * a name the tree held before the text came (then every stack byte is looked at). */
static void test_folded_nul(void)
{
	static const struct {
		const char *text;
		size_t n;
		uint64_t line;
	} cases[] = {
	    {"a;b 1\na;c 2\na;x\0y;z 3\n", 22, 3},
	    {"a;b 1\na;b\0c 5\n", 14, 2},
	    {"a\0b;c 1\na\0b;d 1\n", 16, 1},
	    {"a;b 1\n\0;b 1\n", 12, 2},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		flame_err err;
		flame_tree *t = test_tree_new();
		CHECK(parse_folded_n(t, cases[i].text, cases[i].n, &err) == FLAME_EDATA);
		CHECK_EQ_U64(err.line, cases[i].line);
		CHECK(strstr(err.msg, "binary data where folded text was expected") != NULL);
		flame_tree_free(t);
	}
	/* the name with a NUL is the tree's already (another format put it there) */
	flame_err err;
	flame_tree *t = test_tree_new();
	flame_str fr[2] = {{"a", 1}, {"x\0y", 3}};
	CHECK(flame_tree_add(t, fr, 2, 0, 1, 0, &err) == 0);
	CHECK(parse_folded_n(t, "a;b 1\na;x\0y 2\n", 14, &err) == FLAME_EDATA);
	CHECK_EQ_U64(err.line, 2);
	flame_tree_free(t);
	/* without one, a name seen before is not searched again, and clean text passes */
	t = test_tree_new();
	CHECK(flame_tree_add(t, fr, 1, 0, 1, 0, &err) == 0);
	CHECK(parse_folded_n(t, "a;b 1\na;b 2\nb;a 1\n", 18, &err) == 0);
	char *s = folded_str(t);
	CHECK_STR(s, "a 1\na;b 3\nb;a 1\n");
	free(s);
	flame_tree_free(t);
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Parse `n` lines (joined) into a tree; memory_limit > 0 spills runs. */
static flame_tree *parse_lines(char **lines, size_t n, size_t memory_limit)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(lines[i]) + 1;
	char *text = malloc(len), *o = text;
	for (size_t i = 0; i < n; i++)
		o += sprintf(o, "%s\n", lines[i]);
	*o = '\0';
	flame_tree *t = test_tree_new();
	flame_input *in = NULL;
	flame_err err;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.format = FLAME_FORMAT_FOLDED;
	if (memory_limit)
		flame_tree_set_memory_limit(t, memory_limit);
	if (flame_input_open_mem(&in, text, strlen(text), "test", &err) ||
	    flame_parse(t, in, &po, &err)) {
		flame_tree_free(t);
		t = NULL;
	}
	flame_input_free(in);
	free(text);
	return t;
}

/* The same stacks sorted (the fast path) and shuffled (lookups) give the same tree,
 * folded text and pictures; names where one is a prefix of another followed by bytes
 * below ';' are where bytewise line order and frame-by-frame order differ. */
static void test_sorted_vs_shuffled(void)
{
	static const char *names[] = {"a", "a-b", "a b", "ab", "b", "a0", "a-", "a.b", "z"};
	enum { N = 4000 };
	char **lines = malloc(N * sizeof *lines);
	unsigned x = 777;
	for (int k = 0; k < 2; k++) { /* k = 1: differential lines */
		for (size_t i = 0; i < N; i++) {
			char buf[128];
			size_t o = 0;
			x = x * 1103515245u + 12345u;
			size_t depth = 1 + (x >> 16) % 5;
			for (size_t d = 0; d < depth; d++) {
				x = x * 1103515245u + 12345u;
				o += (size_t)sprintf(buf + o, "%s%s", d ? ";" : "", names[(x >> 16) % 9]);
			}
			x = x * 1103515245u + 12345u;
			if (k)
				sprintf(buf + o, " %u %u", (x >> 16) % 50, (x >> 8) % 50);
			else
				sprintf(buf + o, " %u", 1 + (x >> 16) % 100);
			lines[i] = strdup(buf);
		}
		qsort(lines, N, sizeof *lines, cmp_line); /* bytewise: the count sorts last */
		flame_tree *sorted = parse_lines(lines, N, 0);
		flame_tree *spilled = parse_lines(lines, N, 4096);
		for (size_t i = N - 1; i > 0; i--) {
			x = x * 1103515245u + 12345u;
			size_t j = (x >> 8) % (i + 1);
			char *tmp = lines[i];
			lines[i] = lines[j];
			lines[j] = tmp;
		}
		flame_tree *shuffled = parse_lines(lines, N, 0);
		CHECK(sorted && shuffled && spilled);
		if (!sorted || !shuffled || !spilled)
			break;
		CHECK(sorted->stacks.sorted == 1 && shuffled->stacks.sorted == 0);
		CHECK(sorted_flag_holds(sorted));
		CHECK_EQ_U64(sorted->stacks.count, shuffled->stacks.count);
		char *a = folded_str(sorted), *b = folded_str(shuffled), *c = folded_str(spilled);
		CHECK(a && b && c && strlen(a) > 1000);
		CHECK_STR(a, b);
		CHECK_STR(c, b);
		free(a);
		free(b);
		free(c);
		flame_render_opts ro = FLAME_RENDER_OPTS_INIT;
		for (int v = 0; v < 5; v++) {
			ro.min_width = v == 1 ? 2 : v == 4 ? 200 : 0.1; /* 200 px: top-level frames hidden */
			ro.sort = v == 2 ? FLAME_ORDER_WEIGHT : FLAME_ORDER_NAME;
			flame_err rerr;
			if (v == 3) /* --reverse: both reversed (and turned back after) */
				CHECK(flame_reverse_stacks(sorted, &rerr) == 0 &&
				      flame_reverse_stacks(shuffled, &rerr) == 0);
			a = svg_str(sorted, &ro);
			b = svg_str(shuffled, &ro);
			CHECK(a && b && strlen(a) > 10000);
			CHECK(a && b && strcmp(a, b) == 0);
			if (v == 3) {
				CHECK(a && strstr(a, "data-reverse=\"1\"") != NULL);
				CHECK(flame_reverse_stacks(sorted, &rerr) == 0 &&
				      flame_reverse_stacks(shuffled, &rerr) == 0);
			}
			if (v == 4)
				CHECK(a && strstr(a, "data-pruned=\"") != NULL);
			free(a);
			free(b);
		}
		/* the node tree: same shape and counts */
		flame_err err;
		CHECK(flame_tree_build(sorted, FLAME_ORDER_NAME, &err) == 0);
		CHECK(flame_tree_build(shuffled, FLAME_ORDER_NAME, &err) == 0);
		CHECK_EQ_U64(flame_tree_node_count(sorted), flame_tree_node_count(shuffled));
		flame_iter is, ih;
		flame_iter_init(&is, sorted);
		flame_iter_init(&ih, shuffled);
		flame_event es, eh;
		int same = 1;
		do {
			es = flame_iter_next(&is);
			eh = flame_iter_next(&ih);
			if (es != eh)
				same = 0;
			else if (es == FLAME_EVENT_ENTER) {
				flame_str ns = flame_node_name(sorted, is.node), nh = flame_node_name(shuffled, ih.node);
				if (ns.len != nh.len || memcmp(ns.ptr, nh.ptr, ns.len) ||
				    flame_node_total(sorted, is.node, 0) != flame_node_total(shuffled, ih.node, 0) ||
				    flame_node_total(sorted, is.node, 1) != flame_node_total(shuffled, ih.node, 1))
					same = 0;
			}
		} while (same && es != FLAME_EVENT_DONE);
		CHECK(same);
		flame_tree_free(sorted);
		flame_tree_free(shuffled);
		flame_tree_free(spilled);
		for (size_t i = 0; i < N; i++)
			free(lines[i]);
	}
	free(lines);
}

/* The fill of the frame whose tooltip starts with `title` in an SVG ("" if none). */
static void fill_of(const char *svg, const char *title, char *out, size_t cap)
{
	out[0] = '\0';
	const char *t = svg ? strstr(svg, title) : NULL;
	if (!t)
		return;
	const char *f = t;
	while (f > svg && strncmp(f, "fill=\"", 6))
		f--;
	const char *e = strchr(f + 6, '"');
	if (e && (size_t)(e - f) < cap) {
		memcpy(out, f, (size_t)(e - f));
		out[e - f] = '\0';
	}
}

/* Narrow tails are never laid out, yet the differential colour scale still counts their
 * deltas (flamegraph.pl takes the largest delta over all frames): x9's colour is the
 * same with and without --minwidth. */
static void test_narrow_tails(void)
{
	char text[20000];
	size_t o = 0;
	for (int i = 100; i < 400; i++)
		o += (size_t)sprintf(text + o, "r;x%d;y;z 100 100\n", i);
	o += (size_t)sprintf(text + o, "r;x150;q;w 100000 1\nr;x170;q 5 1\nr;x190 50 150\n");
	flame_err err;
	flame_tree *t = parse_str(text, FLAME_FORMAT_FOLDED, &err);
	CHECK(t != NULL);
	flame_render_opts ro = FLAME_RENDER_OPTS_INIT;
	for (int mode = 0; mode < 2 && t; mode++) {
		char a[64], b[64];
		ro.diff_mode = mode ? FLAME_DIFF_TOTAL : FLAME_DIFF_SELF;
		ro.min_width = 0.1;
		char *narrow = svg_str(t, &ro);
		ro.min_width = 0;
		char *all = svg_str(t, &ro);
		CHECK(narrow && all && strlen(all) > strlen(narrow)); /* q and w: only in `all` */
		fill_of(narrow, "<title>x190 (", a, sizeof a);
		fill_of(all, "<title>x190 (", b, sizeof b);
		CHECK(a[0] && strcmp(a, "fill=\"#ffffff") != 0);
		CHECK_STR(a, b);
		free(narrow);
		free(all);
	}
	flame_tree_free(t);
}

/* The merge the Perl tools get wrong: foo is one frame whatever the line order. */
static void test_real_tree(void)
{
	const char *orders[] = {"x;foo;baz 2\nx;foo 5\nx;foo-bar 3\n",
	                        "x;foo-bar 3\nx;foo;baz 2\nx;foo 5\n",
	                        "x;foo 5\nx;foo-bar 3\nx;foo;baz 2\n"};
	for (int k = 0; k < 3; k++) {
		flame_err err;
		flame_tree *t = parse_str(orders[k], FLAME_FORMAT_FOLDED, &err);
		CHECK(t != NULL);
		CHECK(flame_tree_build(t, FLAME_ORDER_NAME, &err) == 0);
		/* all -> x -> {foo (7) -> baz (2), foo-bar (3)} */
		CHECK_EQ_U64(flame_tree_node_count(t), 5);
		flame_node x = flame_node_first_child(t, 0);
		flame_node foo = flame_node_first_child(t, x);
		flame_str n = flame_node_name(t, foo);
		CHECK(n.len == 3 && memcmp(n.ptr, "foo", 3) == 0);
		CHECK_EQ_U64(flame_node_total(t, foo, 0), 7);
		CHECK_EQ_U64(flame_node_self(t, foo, 0), 5);
		flame_node baz = flame_node_first_child(t, foo);
		CHECK_EQ_U64(flame_node_total(t, baz, 0), 2);
		flame_node bar = flame_node_next_sibling(t, foo);
		n = flame_node_name(t, bar);
		CHECK(n.len == 7 && memcmp(n.ptr, "foo-bar", 7) == 0);
		CHECK_EQ_U64(flame_node_next_sibling(t, bar), FLAME_NODE_NONE);
		CHECK_EQ_U64(flame_node_total(t, 0, 0), 10);
		/* by weight: foo (7) before foo-bar (3) too; check an inversion instead */
		flame_tree_free(t);
	}
	flame_err err;
	flame_tree *t = parse_str("r;a 1\nr;b 9\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(flame_tree_build(t, FLAME_ORDER_WEIGHT, &err) == 0);
	flame_node r = flame_node_first_child(t, 0);
	flame_str n = flame_node_name(t, flame_node_first_child(t, r));
	CHECK(n.len == 1 && n.ptr[0] == 'b');
	CHECK(flame_tree_build(t, FLAME_ORDER_NAME, &err) == 0);
	n = flame_node_name(t, flame_node_first_child(t, r));
	CHECK(n.len == 1 && n.ptr[0] == 'a');
	flame_tree_free(t);
}

/* The iterator walks ENTER/EXIT in order and handles 100,000-frame stacks. */
static void test_iter(void)
{
	flame_err err;
	flame_tree *t = parse_str("a;b 1\na;c 2\nd 3\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(flame_tree_build(t, FLAME_ORDER_NAME, &err) == 0);
	flame_iter it;
	flame_iter_init(&it, t);
	char trace[128] = "";
	flame_event ev;
	while ((ev = flame_iter_next(&it)) != FLAME_EVENT_DONE) {
		flame_str n = flame_node_name(t, it.node);
		strncat(trace, ev == FLAME_EVENT_ENTER ? "+" : "-", sizeof trace - strlen(trace) - 1);
		strncat(trace, n.ptr, n.len < 8 ? n.len : 8);
	}
	CHECK_STR(trace, "+all+a+b-b+c-c-a+d-d-all");
	/* skip_children */
	flame_iter_init(&it, t);
	trace[0] = '\0';
	while ((ev = flame_iter_next(&it)) != FLAME_EVENT_DONE) {
		flame_str n = flame_node_name(t, it.node);
		if (ev == FLAME_EVENT_ENTER && n.len == 1 && n.ptr[0] == 'a')
			flame_iter_skip_children(&it);
		strncat(trace, ev == FLAME_EVENT_ENTER ? "+" : "-", sizeof trace - strlen(trace) - 1);
		strncat(trace, n.ptr, n.len < 8 ? n.len : 8);
	}
	CHECK_STR(trace, "+all+a-a+d-d-all");
	flame_tree_free(t);

	enum { DEPTH = 100000 };
	flame_str *fr = malloc(DEPTH * sizeof *fr);
	for (int i = 0; i < DEPTH; i++)
		fr[i] = (flame_str){i % 2 ? "odd" : "even", i % 2 ? 3u : 4u};
	t = test_tree_new();
	CHECK(flame_tree_add(t, fr, DEPTH, 0, 1, 0, &err) == 0);
	CHECK(flame_tree_build(t, FLAME_ORDER_NAME, &err) == 0);
	CHECK_EQ_U64(flame_tree_node_count(t), DEPTH + 1);
	flame_iter_init(&it, t);
	uint64_t enters = 0, maxd = 0;
	while ((ev = flame_iter_next(&it)) != FLAME_EVENT_DONE)
		if (ev == FLAME_EVENT_ENTER) {
			enters++;
			if (flame_node_depth(t, it.node) > maxd)
				maxd = flame_node_depth(t, it.node);
		}
	CHECK_EQ_U64(enters, DEPTH + 1);
	CHECK_EQ_U64(maxd, DEPTH);
	char *s = folded_str(t);
	CHECK(s && strlen(s) == (size_t)(DEPTH / 2) * 4 + (DEPTH / 2) * 5 - 1 + 3);
	free(s);
	free(fr);
	flame_tree_free(t);
}

static void test_merge_and_scale(void)
{
	flame_err err;
	flame_tree *a = parse_str("m;x 1\nm;y 2\n", FLAME_FORMAT_FOLDED, &err);
	flame_tree *b = parse_str("m;y 0.5\nm;z 3\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(flame_tree_merge(a, b, &err) == 0);
	char *s = folded_str(a);
	CHECK_STR(s, "m;x 1\nm;y 2.5\nm;z 3\n");
	free(s);
	CHECK_EQ_U64(flame_tree_decimals(a), 1);
	CHECK_EQ_U64(flame_tree_total(a, 0), 65);
	CHECK(flame_tree_scale_column(a, 0, 2, 1, &err) == 0);
	s = folded_str(a);
	CHECK_STR(s, "m;x 2\nm;y 5\nm;z 6\n");
	free(s);
	CHECK(flame_tree_scale_column(a, 0, 1, 0, &err) == FLAME_EUSAGE);
	flame_tree_free(a);
	flame_tree_free(b);
}

static int count_cb(void *ud, const flame_str *fr, size_t n, uint64_t w0, uint64_t w1)
{
	uint64_t *sum = ud;
	*sum += w0 * 100 + n;
	(void)fr;
	(void)w1;
	return 0;
}

static void test_each_stack(void)
{
	flame_err err;
	flame_tree *t = parse_str("a;b 2\nc 3\n", FLAME_FORMAT_FOLDED, &err);
	uint64_t sum = 0;
	CHECK(flame_tree_each_stack(t, count_cb, &sum, NULL) == 0);
	CHECK_EQ_U64(sum, 503);
	flame_tree_free(t);
}

struct text_line {
	char *text;
	uint64_t w;
};

static int cmp_text(const void *a, const void *b)
{
	return strcmp(((const struct text_line *)a)->text, ((const struct text_line *)b)->text);
}

/* The folded writer's order is bytewise order of the stack text, whatever the names:
 * prefixes of each other, bytes below and above ';', long shared prefixes (several
 * 64-bit keys deep), enough stacks for the radix path; with a name holding ';' too. */
static void check_text_order(const char *const *pool, size_t npool, int stacks, int semis)
{
	flame_err err;
	flame_tree *t = test_tree_new();
	struct text_line *lines = calloc((size_t)stacks, sizeof *lines);
	CHECK(t && lines);
	unsigned x = 777;
	for (int i = 0; i < stacks; i++) {
		flame_str fr[64];
		size_t n = 0;
		x = x * 1103515245u + 12345u;
		size_t shared = (x >> 8) % 3 ? 30 + (x >> 12) % 4 : 0; /* one of 4 long prefixes */
		for (; n < shared; n++)
			fr[n] = (flame_str){pool[(n * 7 + shared) % npool], strlen(pool[(n * 7 + shared) % npool])};
		x = x * 1103515245u + 12345u;
		size_t tail = 1 + (x >> 16) % 12;
		for (size_t k = 0; k < tail; k++) {
			x = x * 1103515245u + 12345u;
			const char *nm = pool[(x >> 8) % npool];
			fr[n++] = (flame_str){nm, strlen(nm)};
		}
		x = x * 1103515245u + 12345u;
		lines[i].w = 1 + (x >> 20) % 50;
		size_t len = 0;
		for (size_t k = 0; k < n; k++)
			len += fr[k].len + 1;
		char *p = lines[i].text = malloc(len);
		CHECK(p != NULL);
		for (size_t k = 0; k < n; k++) {
			memcpy(p, fr[k].ptr, fr[k].len);
			p += fr[k].len;
			*p++ = ';';
		}
		p[-1] = '\0';
		CHECK(flame_tree_add(t, fr, n, 0, lines[i].w, 0, &err) == 0);
	}
	qsort(lines, (size_t)stacks, sizeof *lines, cmp_text);
	size_t cap = 1 << 20, len = 0;
	char *want = malloc(cap);
	for (int i = 0; i < stacks; i++) {
		uint64_t w = lines[i].w;
		while (i + 1 < stacks && strcmp(lines[i].text, lines[i + 1].text) == 0)
			w += lines[++i].w;
		size_t need = strlen(lines[i].text) + 32;
		if (len + need > cap)
			want = realloc(want, cap *= 2);
		len += (size_t)sprintf(want + len, "%s %llu\n", lines[i].text, (unsigned long long)w);
	}
	char *got = folded_str(t);
	CHECK(got && want && strlen(got) > 1000);
	if (!semis) {
		CHECK(got && want && strcmp(got, want) == 0);
	} else if (got) {
		/* "a;b" and "a","b" are two stacks of one text: lines in order, none lost */
		size_t lines_got = 0, lines_want = 0;
		for (char *p = got, *prev = NULL; *p; lines_got++) {
			char *nl = strchr(p, '\n'), *sp = memrchr(p, ' ', (size_t)(nl - p));
			*sp = '\0';
			CHECK(!prev || strcmp(prev, p) <= 0);
			prev = p;
			p = nl + 1;
		}
		for (char *p = want; *p; p++)
			lines_want += *p == '\n';
		CHECK(lines_got > lines_want && lines_got < lines_want + 100);
	}
	free(got);
	free(want);
	for (int i = 0; i < stacks; i++)
		free(lines[i].text);
	free(lines);
	flame_tree_free(t);
}

static void test_text_order(void)
{
	static const char *const pool[] = {"a", "a-b", "ab", "a0", "a:", "a<", "b", "A", "a\x01",
	                                   "\xff", "a\xc3\xa9", "main", "main.f", "mainx"};
	check_text_order(pool, sizeof pool / sizeof *pool, 20000, 0);
	check_text_order(pool, sizeof pool / sizeof *pool, 300, 0);
	/* enough lines that two threads format them */
	check_text_order(pool, sizeof pool / sizeof *pool, 90000, 0);
	/* enough names that only the tokens stacks use are ranked */
	enum { MANY = 90000 };
	char **many = malloc(MANY * sizeof *many);
	for (int i = 0; i < MANY; i++) {
		many[i] = malloc(16);
		snprintf(many[i], 16, i % 3 ? "f%d" : "f%d-", i % 7 ? i : i / 7);
	}
	check_text_order((const char *const *)many, MANY, 40000, 0);
	for (int i = 0; i < MANY; i++)
		free(many[i]);
	free(many);
	static const char *const semi[] = {"a", "a;b", "ab", "a-b", "b", "a;"};
	check_text_order(semi, sizeof semi / sizeof *semi, 3000, 1);
}

/* Ranks updated as names arrive in batches (what a spilling table does at each run) equal
 * ranks computed afresh: prefixes, bytes below and above ';', the empty name. */
static void test_order_update(void)
{
	static const char *stems[] = {"", "a", "a-b", "a b", "ab", "a.", "b", "\001", "~", "a:b"};
	flame__intern names;
	flame__intern_init(&names);
	flame__order inc = {0}, fresh = {0};
	unsigned x = 99;
	for (int batch = 0; batch < 12; batch++) {
		for (int i = 0; i < 1 << batch; i++) {
			char buf[64];
			x = x * 1103515245u + 12345u;
			int n = snprintf(buf, sizeof buf, "%s%s", stems[(x >> 16) % 10],
			                 (x >> 8) % 3 ? stems[(x >> 20) % 10] : "");
			CHECK(flame__intern_put(&names, buf, (size_t)n) != FLAME__ID_NONE);
		}
		CHECK(flame__order_update(&inc, &names) == 0);
		CHECK(flame__order_init(&fresh, &names) == 0);
		CHECK(inc.count == names.count && fresh.count == names.count);
		int same = 1;
		for (size_t t = 0; t < 2 * (size_t)names.count && inc.rank && fresh.rank; t++)
			same &= inc.rank[t] == fresh.rank[t];
		CHECK(same);
	}
	/* a name with ';' switches to comparing bytes */
	CHECK(flame__intern_put(&names, "x;y", 3) != FLAME__ID_NONE);
	CHECK(flame__order_update(&inc, &names) == 0);
	CHECK(inc.count == 0);
	flame__order_free(&inc);
	flame__order_free(&fresh);
	flame__intern_free(&names);
}

/* Ranks of the tokens some stacks use, added a table at a time (what a spilling table
 * does at each run), order those tokens as ranks computed afresh over every name do;
 * the tokens no stack used stay unranked. */
static void test_order_update_stacks(void)
{
	static const char *stems[] = {"", "a", "a-b", "a b", "ab", "a.", "b", "\001", "~", "a:b"};
	flame__intern names;
	flame__intern_init(&names);
	flame__order inc = {0}, fresh = {0};
	uint8_t *used = NULL;
	uint32_t nused = 0;
	unsigned x = 7;
	for (int batch = 0; batch < 12; batch++) {
		for (int i = 0; i < 1 << batch; i++) {
			char buf[64];
			x = x * 1103515245u + 12345u;
			int n = snprintf(buf, sizeof buf, "%s%s%d", stems[(x >> 16) % 10],
			                 (x >> 8) % 3 ? stems[(x >> 20) % 10] : "", (int)(x >> 27) % 5);
			CHECK(flame__intern_put(&names, buf, (size_t)n) != FLAME__ID_NONE);
		}
		/* a table of stacks over a random part of the names */
		enum { N = 64 };
		flame__stack v[N];
		uint32_t ids[N][4];
		for (int j = 0; j < N; j++) {
			v[j] = (flame__stack){ids[j], 1 + j % 4, 0, {1, 0}};
			for (int f = 0; f < 4; f++) {
				x = x * 1103515245u + 12345u;
				ids[j][f] = (x >> 8) % names.count;
			}
		}
		CHECK(flame__order_update_stacks(&inc, &names, v, N) == 0);
		CHECK(flame__order_init(&fresh, &names) == 0);
		CHECK(inc.count == names.count);
		/* the tokens of every table so far */
		uint8_t *u = realloc(used, 2 * (size_t)names.count);
		CHECK(u != NULL);
		used = u;
		memset(used + 2 * (size_t)nused, 0, 2 * (size_t)(names.count - nused));
		nused = names.count;
		for (int j = 0; j < N; j++)
			for (uint32_t f = 0; f < v[j].depth; f++)
				used[2 * ids[j][f] + (f + 1 == v[j].depth)] = 1;
		int ranked = 1, same = 1;
		uint32_t prev_fresh = 0, prev_inc = 0;
		int have = 0;
		/* walk the used tokens in fresh order: inc must rank them in the same order */
		for (size_t r = 0; r < fresh.ntoks; r++) {
			uint32_t t = fresh.toks[r];
			if (!used[t])
				continue;
			ranked &= inc.rank[t] != UINT32_MAX;
			if (have)
				same &= inc.rank[t] > prev_inc && r > prev_fresh;
			prev_inc = inc.rank[t];
			prev_fresh = (uint32_t)r;
			have = 1;
		}
		CHECK(ranked && same);
	}
	/* a name with ';' switches to comparing bytes */
	CHECK(flame__intern_put(&names, "x;y", 3) != FLAME__ID_NONE);
	CHECK(flame__order_update_stacks(&inc, &names, NULL, 0) == 0);
	CHECK(inc.count == 0);
	free(used);
	flame__order_free(&inc);
	flame__order_free(&fresh);
	flame__intern_free(&names);
}

/* Spilled runs merge back to exactly the in-memory result, in writing and in any
 * other use of the stacks. */
static void test_spill(void)
{
	flame_err err;
	flame_tree *mem = test_tree_new(), *disk = test_tree_new();
	CHECK(flame_tree_set_memory_limit(disk, 1) == 0); /* a run after every new stack */
	char names[4][8] = {"a", "a-b", "b", "ab"};
	unsigned x = 12345;
	for (int i = 0; i < 3000; i++) {
		flame_str fr[6];
		size_t n = 1 + (x >> 7) % 6;
		for (size_t k = 0; k < n; k++) {
			x = x * 1103515245u + 12345u;
			fr[k] = (flame_str){names[(x >> 16) % 4], strlen(names[(x >> 16) % 4])};
		}
		x = x * 1103515245u + 12345u;
		uint64_t w = 1 + (x >> 20) % 100;
		CHECK(flame_tree_add(mem, fr, n, 0, w, 0, &err) == 0);
		CHECK(flame_tree_add(disk, fr, n, 0, w, 0, &err) == 0);
	}
	CHECK_EQ_U64(flame_tree_total(disk, 0), flame_tree_total(mem, 0));
	char *a = folded_str(mem), *b = folded_str(disk);
	CHECK(a && b && strlen(a) > 1000);
	CHECK_STR(b, a);
	free(a);
	free(b);
	flame_tree_free(disk);
	flame_tree_free(mem);
	/* names that keep arriving between runs, ranked anew into the runs' order */
	mem = test_tree_new();
	disk = test_tree_new();
	flame_tree_set_memory_limit(disk, 2048);
	for (int i = 0; i < 6000; i++) {
		char nm[3][16];
		flame_str fr[3];
		for (int k = 0; k < 3; k++) {
			x = x * 1103515245u + 12345u;
			int n = snprintf(nm[k], sizeof nm[k], "%s%u", names[(x >> 16) % 4], (x >> 8) % (1 + i / 8));
			fr[k] = (flame_str){nm[k], (size_t)n};
		}
		CHECK(flame_tree_add(mem, fr, 3, 0, 1, 0, &err) == 0);
		CHECK(flame_tree_add(disk, fr, 3, 0, 1, 0, &err) == 0);
	}
	CHECK(flame__tree_spilled(disk));
	a = folded_str(mem);
	b = folded_str(disk);
	CHECK(a && b && strlen(a) > 10000);
	CHECK(a && b && strcmp(a, b) == 0);
	free(a);
	free(b);
	flame_tree_free(disk);
	flame_tree_free(mem);
	mem = test_tree_new();
	/* read back for other consumers: counts and the node tree agree */
	disk = test_tree_new();
	flame_tree_set_memory_limit(disk, 1);
	flame_str s1[] = {{"m", 1}, {"x", 1}}, s2[] = {{"m", 1}, {"y", 1}};
	flame_tree_add(disk, s1, 2, 0, 2, 0, &err);
	flame_tree_add(disk, s2, 2, 0, 3, 0, &err);
	flame_tree_add(disk, s1, 2, 0, 4, 0, &err);
	size_t nst = 0;
	CHECK(flame_tree_stack_count(disk, &nst, &err) == 0);
	CHECK_EQ_U64(nst, 2);
	CHECK(flame_tree_build(disk, FLAME_ORDER_NAME, &err) == 0);
	CHECK_EQ_U64(flame_node_total(disk, 0, 0), 9);
	CHECK_EQ_U64(flame_tree_node_count(disk), 4);
	flame_tree_free(disk);
	flame_tree_free(mem);
}

int main(void)
{
	RUN(test_arena);
	RUN(test_intern);
	RUN(test_stacks);
	RUN(test_stacks_sorted);
	RUN(test_folded_sorted);
	RUN(test_folded_nul);
	RUN(test_sorted_vs_shuffled);
	RUN(test_order_update);
	RUN(test_order_update_stacks);
	RUN(test_narrow_tails);
	RUN(test_real_tree);
	RUN(test_iter);
	RUN(test_merge_and_scale);
	RUN(test_each_stack);
	RUN(test_spill);
	RUN(test_text_order);
	return harness_done();
}
