/* The tree is sealed: spilling stacks to a temp file (flame_tree_set_memory_limit) is an
 * implementation detail nobody outside libflame/core can see. The same profile is built
 * into a tree that spills several runs and into one that never spills; then every public
 * function of flame.h that takes a tree runs on both, and what each gives (return codes,
 * values, the bytes a writer writes) must be the same byte for byte.
 *
 * The list of covered functions is checked against flame.h itself (argv[1]): a function
 * declared there with a flame_tree parameter and no case below fails this test, so the
 * list grows with the header. Also here: the defects found on spilled trees (I/O errors
 * of stack_count/each_stack), the iterator's sticky DONE and the checked node accessors.
 *
 * Usage: test-sealed FLAME_H */
#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/resource.h>
#include "harness.h"
#include "util.h"

/* ---- results as bytes */

typedef struct buf {
	char *p;
	size_t n, cap;
} buf;

static void put_bytes(buf *b, const void *p, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->n + n + 1) * 2;
		char *q = realloc(b->p, cap);
		if (!q)
			abort();
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void put(buf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	put_bytes(b, tmp, n < 0 ? 0 : (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void put_rc(buf *b, const char *what, int rc, const flame_err *err)
{
	put(b, "%s: %d", what, rc);
	if (rc)
		put(b, " (%s)", err->msg);
	put(b, "\n");
}

/* ---- the profile */

enum { NSTACKS = 2500, LIMIT = 128 * 1024 }; /* a run per 1024 stacks or so */

/* Deterministic stacks over a few dozen names, with hex addresses (strip_hex), shared
 * prefixes, a name that prefixes another ("f1" / "f1-x": text and frame order differ)
 * and the symbol skip_after cuts at. `salt` gives a second, overlapping profile. */
static void make_stack(unsigned i, unsigned salt, char names[8][32], flame_str *fr, size_t *n,
                       uint64_t *w)
{
	unsigned x = (i + 1) * 2654435761u ^ salt * 40503u;
	*n = 1 + (x >> 5) % 8;
	for (size_t k = 0; k < *n; k++) {
		x = x * 1103515245u + 12345u;
		unsigned r = (x >> 16) % 40;
		int len;
		if (k == 0)
			len = snprintf(names[k], 32, "proc%u", r % 3);
		else if (r < 4)
			len = snprintf(names[k], 32, "f%u-x", r);
		else if (r < 8)
			len = snprintf(names[k], 32, "lib+0x%x", 0xa0 + r + (x >> 24) % 7);
		else if (r == 9)
			len = snprintf(names[k], 32, "main");
		else
			len = snprintf(names[k], 32, "f%u", r % 17);
		fr[k] = (flame_str){names[k], (size_t)len};
	}
	x = x * 1103515245u + 12345u;
	*w = 1 + (x >> 18) % 1000;
}

/* The same stacks as folded text (the half that goes through flame_parse). */
static char *folded_text(unsigned from, unsigned to, unsigned salt)
{
	buf b = {0};
	for (unsigned i = from; i < to; i++) {
		char names[8][32];
		flame_str fr[8];
		size_t n;
		uint64_t w;
		make_stack(i, salt, names, fr, &n, &w);
		for (size_t k = 0; k < n; k++)
			put(&b, "%s%.*s", k ? ";" : "", (int)fr[k].len, fr[k].ptr);
		put(&b, " %llu\n", (unsigned long long)w);
	}
	return b.p;
}

/* How many runs the last spilled tree had: counted by flame__tree_spill_runs. */
size_t flame__tree_spill_runs(const flame_tree *t);

/* A tree of profile `salt` (column 1 too when `diff`): half added with flame_tree_add,
 * half parsed as folded text, each stack added twice over (so runs hold equal stacks).
 * With `spill`, a memory limit small enough for several runs. */
static flame_tree *build(int spill, unsigned salt, int diff)
{
	flame_tree *t = test_tree_new();
	flame_err err;
	if (!t)
		abort();
	if (spill)
		CHECK(flame_tree_set_memory_limit(t, LIMIT) == 0);
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < NSTACKS / 2; i++) {
			char names[8][32];
			flame_str fr[8];
			size_t n;
			uint64_t w;
			make_stack(i, salt, names, fr, &n, &w);
			CHECK(flame_tree_add(t, fr, n, 0, w, diff ? w / 3 + pass : 0, &err) == 0);
		}
		char *text = folded_text(NSTACKS / 2, NSTACKS, salt);
		flame_input *in = NULL;
		flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
		po.format = FLAME_FORMAT_FOLDED;
		CHECK(flame_input_open_mem(&in, text, strlen(text), "profile", &err) == 0);
		CHECK(flame_parse(t, in, &po, &err) == 0);
		flame_input_free(in);
		free(text);
	}
	if (spill)
		CHECK(flame__tree_spill_runs(t) >= 3 && flame__tree_spill_runs(t) <= 20);
	else
		CHECK(flame__tree_spill_runs(t) == 0);
	CHECK(flame_tree_set_count_name(t, "samples") == 0);
	return t;
}

/* ---- what a writer writes */

enum writer { W_FOLDED, W_SVG, W_PNG, W_PDF, W_PPROF, W_HTML, W_SPEEDSCOPE, W_CPUPROFILE,
              W_TABLE /* + a flame_output_format */ };

static void put_written(buf *b, flame_tree *t, int w)
{
	char path[] = "/tmp/flame-sealed-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		abort();
	close(fd);
	flame_output *o = NULL;
	flame_err err;
	flame_render_opts ro = FLAME_RENDER_OPTS_INIT;
	ro.title = "sealed";
	int rc = flame_output_open(&o, path, &err);
	if (!rc) {
		switch (w) {
		case W_FOLDED: rc = flame_write_folded(t, o, &err); break;
		case W_SVG: rc = flame_write_svg(t, &ro, o, &err); break;
		case W_PNG: rc = flame_write_png(t, &ro, o, &err); break;
		case W_PDF: rc = flame_write_pdf(t, &ro, o, &err); break;
		case W_PPROF: rc = flame_write_pprof(t, o, &err); break;
		case W_HTML: rc = flame_write_html(t, &ro, o, &err); break;
		case W_SPEEDSCOPE: rc = flame_write_speedscope(t, o, &err); break;
		case W_CPUPROFILE: rc = flame_write_cpuprofile(t, o, &err); break;
		default: rc = flame_write(t, (flame_output_format)(w - W_TABLE), &ro, o, &err); break;
		}
		if (rc)
			flame_output_abort(o);
		else
			rc = flame_output_commit(o, &err);
	}
	put_rc(b, "write", rc, &err);
	FILE *f = fopen(path, "rb");
	if (f) {
		char chunk[65536];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
			put_bytes(b, chunk, n);
		fclose(f);
	}
	unlink(path);
}

static void put_summary(buf *b, flame_tree *t)
{
	const char *cn = flame_tree_count_name(t);
	put(b, "total %llu %llu scale %u diff %d count name %s\n",
	    (unsigned long long)flame_tree_total(t, 0), (unsigned long long)flame_tree_total(t, 1),
	    flame_tree_decimals(t), flame_tree_is_differential(t), cn ? cn : "(none)");
	put_written(b, t, W_FOLDED);
}

/* ---- the cases: each runs on a fresh spilled tree and a fresh unspilled one */

static void op_writers(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	put_written(b, t, W_FOLDED);
	put_written(b, t, W_SVG);
	put_written(b, t, W_PPROF);
}

/* flame_write: every output format of the library's table, by its id */
static void op_write_table(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	for (size_t i = 0; i < flame_output_format_count(); i++) {
		const flame_format_info *f = flame_output_format_info(i);
		if (f->id == FLAME_OUTPUT_PNG || f->id == FLAME_OUTPUT_PDF)
			continue; /* drawn by the png and pdf cases; the same layout as the SVG */
		put(b, "%s:\n", f->name);
		put_written(b, t, W_TABLE + f->id);
	}
}

static void op_png(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	put_written(b, t, W_PNG);
}

static void op_html(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	put_written(b, t, W_HTML);
}

static void op_speedscope(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	put_written(b, t, W_SPEEDSCOPE);
}

/* in nanoseconds, which a .cpuprofile holds (as microseconds) */
static void op_cpuprofile(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	CHECK(flame_tree_set_count_name(t, "nanoseconds") == 0);
	put_written(b, t, W_CPUPROFILE);
}

static void op_pdf(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	put_written(b, t, W_PDF);
}

static void op_counts(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	size_t n = 0;
	int rc = flame_tree_stack_count(t, &n, &err);
	put(b, "stack count %d %zu\n", rc, n);
	put_summary(b, t);
	CHECK(flame_tree_set_count_name(t, "nanoseconds") == 0);
	put_summary(b, t);
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct lines {
	char **v;
	size_t n, cap;
	int stop_after;
};

static int collect(void *ud, const flame_str *frames, size_t n, uint64_t w0, uint64_t w1)
{
	struct lines *l = ud;
	buf line = {0};
	for (size_t k = 0; k < n; k++)
		put(&line, "%s%.*s", k ? ";" : "", (int)frames[k].len, frames[k].ptr);
	put(&line, " %llu %llu", (unsigned long long)w0, (unsigned long long)w1);
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = line.p;
	return l->stop_after && (int)l->n == l->stop_after ? 7 : 0;
}

/* each_stack's order is unspecified: compare the sorted lines */
static void op_each_stack(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	struct lines l = {0};
	int rc = flame_tree_each_stack(t, collect, &l, &err);
	put(b, "each_stack %d, %zu stacks\n", rc, l.n);
	qsort(l.v, l.n, sizeof *l.v, cmp_lines);
	for (size_t i = 0; i < l.n; i++) {
		put(b, "%s\n", l.v[i]);
		free(l.v[i]);
	}
	free(l.v);
	/* stopping early returns fn's value */
	struct lines s = {.stop_after = 10};
	rc = flame_tree_each_stack(t, collect, &s, &err);
	put(b, "stopped %d after %zu\n", rc, s.n);
	for (size_t i = 0; i < s.n; i++)
		free(s.v[i]);
	free(s.v);
}

static void put_nodes(buf *b, flame_tree *t, flame_order order)
{
	flame_err err;
	put_rc(b, "build", flame_tree_build(t, order, &err), &err);
	size_t n = flame_tree_node_count(t);
	put(b, "%zu nodes\n", n);
	for (flame_node i = 0; i <= n; i++) { /* one past the end: checked */
		flame_str nm = flame_node_name(t, i);
		put(b, "%u %.*s p%d c%d s%d d%u self %llu %llu total %llu %llu\n", i, (int)nm.len,
		    nm.ptr, (int)flame_node_parent(t, i), (int)flame_node_first_child(t, i),
		    (int)flame_node_next_sibling(t, i), flame_node_depth(t, i),
		    (unsigned long long)flame_node_self(t, i, 0),
		    (unsigned long long)flame_node_self(t, i, 1),
		    (unsigned long long)flame_node_total(t, i, 0),
		    (unsigned long long)flame_node_total(t, i, 1));
	}
	flame_iter it;
	flame_iter_init(&it, t);
	flame_event ev;
	size_t steps = 0;
	while ((ev = flame_iter_next(&it)) != FLAME_EVENT_DONE) {
		put(b, "%c%u", ev == FLAME_EVENT_ENTER ? '>' : '<', it.node);
		if (ev == FLAME_EVENT_ENTER && flame_node_depth(t, it.node) == 2)
			flame_iter_skip_children(&it);
		if (++steps % 32 == 0)
			put(b, "\n");
	}
	put(b, "\nafter done: %d\n", (int)flame_iter_next(&it));
}

static void op_nodes(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	put_nodes(b, t, FLAME_ORDER_NAME);
	put_nodes(b, t, FLAME_ORDER_WEIGHT);
}

/* a stack added after the runs: new, and one the runs hold already */
static void op_add(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	flame_str fr[] = {{"main", 4}, {"late", 4}}, again[] = {{"late", 4}, {"f3", 2}, {"proc0", 5}};
	put_rc(b, "add", flame_tree_add(t, fr, 2, 0, 5, 1, &err), &err);
	put_rc(b, "add leaf first", flame_tree_add(t, again, 3, 1, 9, 0, &err), &err);
	put_summary(b, t);
	put_nodes(b, t, FLAME_ORDER_NAME);
}

static void op_scale_column(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put_rc(b, "scale", flame_tree_scale_column(t, 0, 3, 7, &err), &err);
	put_rc(b, "scale 1", flame_tree_scale_column(t, 1, 5, 2, &err), &err);
	put_summary(b, t);
}

static void op_weight(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put_rc(b, "weight", flame_tree_weight(t, 25, 2, &err), &err);
	put_summary(b, t);
	put_written(b, t, W_PPROF); /* refused: fractional counts */
}

static void op_filter(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put_rc(b, "filter", flame_filter_stacks(t, "^f[1-5]", "lib\\+0xa[3-5]", &err), &err);
	put_summary(b, t);
}

static void op_skip_after(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	const char *sym[] = {"main", "f7"};
	put_rc(b, "skip_after", flame_skip_after(t, sym, 2, &err), &err);
	put_summary(b, t);
}

static void op_strip_hex(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put_rc(b, "strip_hex", flame_strip_hex(t, &err), &err);
	put_summary(b, t);
}

/* the call-tree transforms, one after the other */
static void op_call_tree(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put_rc(b, "merge", flame_merge_frames(t, "lib", &err), &err);
	put_rc(b, "collapse", flame_collapse_recursion(t, &err), &err);
	put_rc(b, "drop", flame_drop(t, "^f7$", &err), &err);
	put_rc(b, "focus", flame_focus(t, "^f[1-5]", &err), &err);
	put_summary(b, t);
}

/* --reverse: the stacks leaf-first, drawn so (data-reverse), and twice is the tree again */
static void op_reverse(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put_rc(b, "reverse", flame_reverse_stacks(t, &err), &err);
	put_summary(b, t);
	put_written(b, t, W_SVG);
	put_rc(b, "reverse again", flame_reverse_stacks(t, &err), &err);
	put_summary(b, t);
}

/* merge: spilled into spilled against in-memory into in-memory, both ways round */
static void op_merge(flame_tree *t, int spill, buf *b)
{
	flame_err err;
	flame_tree *u = build(spill, 2, 0);
	put_rc(b, "merge", flame_tree_merge(t, u, &err), &err);
	put_summary(b, t);
	put_rc(b, "merge back", flame_tree_merge(u, t, &err), &err);
	put_summary(b, u);
	flame_tree_free(u);
}

/* the units rule refuses the same pair, and --ignore-units takes it, spilled or not */
static void op_units(flame_tree *t, int spill, buf *b)
{
	flame_err err;
	flame_tree *u = build(spill, 2, 0);
	flame_tree_set_count_name(t, "nanoseconds");
	flame_tree_set_count_name(u, "bytes");
	put_rc(b, "merge bytes into nanoseconds", flame_tree_merge(t, u, &err), &err);
	put_summary(b, t);
	flame_tree_set_ignore_units(t, 1);
	put_rc(b, "merge, units ignored", flame_tree_merge(t, u, &err), &err);
	put_summary(b, t);
	flame_tree_free(u);
}

static void op_diff(flame_tree *t, int spill, buf *b)
{
	flame_err err;
	flame_tree *after = build(spill, 2, 0);
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	o.norm = FLAME_DIFF_NORM_TOTAL;
	o.strip_hex = 1;
	put_rc(b, "diff", flame_diff(t, after, &o, &err), &err);
	put_summary(b, t);
	put_written(b, after, W_FOLDED); /* after is not changed */
	flame_tree_free(after);
	put_written(b, t, W_SVG);
	put_written(b, t, W_PPROF);
}

static void put_report(buf *b, flame_tree *t)
{
	flame_err err;
	flame_diff_report *rep = NULL;
	put_rc(b, "report", flame_diff_report_new(&rep, t, &err), &err);
	put_rc(b, "attribute", rep ? flame_diff_report_attribute(rep, 5.0, FLAME_DIFF_ATTRIBUTE_ALL, &err) : -1, &err);
	size_t n = rep ? flame_diff_report_count(rep) : 0;
	const flame_diff_row *r = rep ? flame_diff_report_row(rep, 0) : NULL;
	/* rows come in no particular order: print them sorted by name */
	struct lines l = {0};
	for (size_t i = 0; i < n; i++) {
		buf line = {0};
		put(&line, "%.*s self %llu %llu total %llu %llu inside %.*s", (int)r[i].name.len,
		    r[i].name.ptr, (unsigned long long)r[i].self[0],
		    (unsigned long long)r[i].self[1], (unsigned long long)r[i].total[0],
		    (unsigned long long)r[i].total[1],
		    r[i].inside == SIZE_MAX ? 1 : (int)r[r[i].inside].name.len,
		    r[i].inside == SIZE_MAX ? "-" : r[r[i].inside].name.ptr);
		collect(&l, &(flame_str){line.p, line.n}, 1, 0, 0);
		free(line.p);
	}
	qsort(l.v, l.n, sizeof *l.v, cmp_lines);
	put(b, "%zu rows\n", n);
	for (size_t i = 0; i < l.n; i++) {
		put(b, "%s\n", l.v[i]);
		free(l.v[i]);
	}
	free(l.v);
	flame_diff_report_free(rep);
}

/* the one-tree diff: AFTER parsed, swapped to column 1, BEFORE parsed on top */
static void op_diff_swap(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put_rc(b, "swap", flame_diff_swap(t, &err), &err);
	put_summary(b, t);
	char *text = folded_text(0, NSTACKS, 3);
	flame_input *in = NULL;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	CHECK(flame_input_open_mem(&in, text, strlen(text), "before", &err) == 0);
	put_rc(b, "parse before", flame_parse(t, in, &po, &err), &err);
	flame_input_free(in);
	free(text);
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	o.norm = FLAME_DIFF_NORM_FRAME;
	o.frame_regex = "^main$";
	put_rc(b, "normalize", flame_diff_normalize(t, &o, &err), &err);
	put_summary(b, t);
	put_report(b, t);
}

static void op_report(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	put_report(b, t);
	put_written(b, t, W_SVG);
}

static int put_text(void *ud, const char *text, size_t len)
{
	put_bytes(ud, text, len);
	put_bytes(ud, "\n", 1);
	return 0;
}

/* the --top tables and the gate's lines, in the tree's unit */
static void op_top(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	flame_diff_report *r = NULL;
	flame_tree_set_count_name(t, "nanoseconds");
	put_rc(b, "report", flame_diff_report_new(&r, t, &err), &err);
	flame_top_opts o = FLAME_TOP_OPTS_INIT;
	o.rows = 5;
	o.before_raw = flame_tree_total(t, 0);
	put_rc(b, "attribute", r ? flame_diff_report_attribute(r, o.min_delta, FLAME_DIFF_ATTRIBUTE_ALL, &err) : -1, &err);
	put_rc(b, "top", r ? flame_write_top(r, &o, put_text, b, &err) : -1, &err);
	put(b, "gate %d\n", r ? flame_diff_report_gate(r, 1.0, put_text, b, &err) : -1);
	flame_diff_report_free(r);
}

/* the cost report (flame-top): every grouping and format, and the threshold */
static void op_cost(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	flame_tree_set_count_name(t, "nanoseconds");
	put(b, "duration %llu\n", (unsigned long long)flame_tree_duration(t));
	for (int by = 0; by < 2; by++) {
		flame_cost_opts o = FLAME_COST_OPTS_INIT;
		flame_cost_report *c = NULL;
		o.by = by ? FLAME_COST_BY_ROOT : FLAME_COST_BY_FUNCTION;
		o.rows = 8;
		o.window = 10;
		o.frequency = 99;
		put_rc(b, "cost", flame_cost_report_new(&c, t, &o, &err), &err);
		for (int f = FLAME_COST_TEXT; c && f <= FLAME_COST_JSON; f++)
			put_rc(b, "write cost", flame_write_cost(c, (flame_cost_format)f, put_text, b, &err), &err);
		if (c)
			put(b, "gate %d\n", flame_cost_report_gate(c, 1.0, put_text, b, &err));
		flame_cost_report_free(c);
	}
}

/* the diff and merge requests, which build the tree they return (the caller's memory
 * limit cannot reach it: `spill` only changes the tree they are compared with) */
static void op_readers(flame_tree *unused, int spill, buf *b)
{
	(void)unused;
	(void)spill;
	flame_err err;
	char *text[2] = {folded_text(0, NSTACKS, 1), folded_text(0, NSTACKS, 2)};
	for (int merge = 0; merge < 2; merge++) {
		flame_tree *t = NULL;
		flame_input *in[2];
		flame_diff_request *dr = NULL;
		flame_merge_request *mr = NULL;
		CHECK(merge ? flame_merge_request_new(&mr, &err) == 0
		            : flame_diff_request_new(&dr, NULL, &err) == 0);
		for (int i = 0; i < 2; i++) {
			CHECK(flame_input_open_mem(&in[i], text[i], strlen(text[i]), "in", &err) == 0);
			CHECK(merge ? flame_merge_request_input(mr, NULL, in[i], NULL, 0, 0, &err) == 0
			            : flame_diff_request_input(dr, i, NULL, in[i], NULL, &err) == 0);
		}
		int rc = merge ? flame_merge_request_tree(mr, &t, &err) : flame_diff_request_tree(dr, &t, &err);
		put_rc(b, merge ? "merge request" : "diff request", rc, &err);
		for (int i = 0; i < 2; i++) {
			if (!merge)
				put(b, "side %d total %llu\n", i,
				    (unsigned long long)flame_diff_request_total(dr, i));
			flame_input_free(in[i]);
		}
		if (t)
			put_summary(b, t);
		flame_tree_free(t);
		flame_diff_request_free(dr);
		flame_merge_request_free(mr);
	}
	free(text[0]);
	free(text[1]);
}

static int put_time(void *ud, const flame_str *frames, size_t n, int64_t ns, uint64_t w0,
                    uint64_t w1)
{
	buf *b = ud;
	for (size_t i = 0; i < n; i++)
		put(b, "%s%.*s", i ? ";" : "", (int)frames[i].len, frames[i].ptr);
	put(b, " @%lld %llu %llu\n", (long long)ns, (unsigned long long)w0, (unsigned long long)w1);
	return 0;
}

/* time kept beside the stacks: a tree that spilled reads its runs back to keep it */
static void op_time(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put_rc(b, "keep time", flame_tree_keep_time(t, 1000000, &err), &err);
	buf text = {0};
	for (int i = 0; i < 40; i++) /* 10 ms apart: f, then g from 0.2 s */
		put(&text, "prog 7 100.%06d: 1 cpu-clock:\n\t1 %s (/x)\n\t2 main (/x)\n\n", i * 10000,
		    i < 20 ? "f" : "g");
	flame_input *in = NULL;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	CHECK(flame_input_open_mem(&in, text.p, text.n, "timed", &err) == 0);
	put_rc(b, "parse timed", flame_parse(t, in, &po, &err), &err);
	flame_input_free(in);
	free(text.p);
	int64_t first, last;
	put(b, "clock %d", (int)flame_tree_time_span(t, &first, &last));
	put(b, " span %lld %lld bucket %llu\n", (long long)first, (long long)last,
	    (unsigned long long)flame_tree_time_bucket(t));
	put_rc(b, "each time", flame_tree_each_time(t, put_time, b, &err), &err);
	uint64_t s[4];
	put_rc(b, "series", flame_tree_time_series(t, FLAME_NODE_NONE, 0, 0, 100000000, s, 4, &err), &err);
	put(b, "series %llu %llu %llu %llu\n", (unsigned long long)s[0], (unsigned long long)s[1],
	    (unsigned long long)s[2], (unsigned long long)s[3]);
	put_rc(b, "cut", flame_tree_time_cut(t, 200000000, 400000000, &err), &err);
	put_summary(b, t);
	put_written(b, t, W_FOLDED);
	/* a diff carries both sides' time: BEFORE's in column 0, AFTER's in column 1 */
	flame_tree *before = NULL;
	CHECK(flame_tree_new(&before, &err) == 0);
	put_rc(b, "copy", flame_tree_merge(before, t, &err), &err);
	put_rc(b, "cut before", flame_tree_time_cut(before, 200000000, 300000000, &err), &err);
	put_rc(b, "diff", flame_diff(before, t, NULL, &err), &err);
	put_rc(b, "each time of the diff", flame_tree_each_time(before, put_time, b, &err), &err);
	flame_tree_free(before);
}

/* A Go CPU profile of the corpus, from flame.h's path (main sets it). */
static char pprof_fixture[4096];

/* Every node's site, and the first mapping. */
static void put_sites(buf *b, flame_tree *t)
{
	flame_err err;
	put_rc(b, "build", flame_tree_build(t, FLAME_ORDER_NAME, &err), &err);
	size_t with = 0;
	for (flame_node n = 0; n < flame_tree_node_count(t); n++) {
		const flame_site *s = flame_node_site(t, n);
		if (!s)
			continue;
		with++;
		flame_str nm = flame_node_name(t, n);
		put(b, "%.*s: %.*s %.*s:%lld start %lld addr %llx map %zu%s\n", (int)nm.len, nm.ptr,
		    (int)s->function.len, s->function.ptr, (int)s->file.len, s->file.ptr,
		    (long long)s->line, (long long)s->start_line, (unsigned long long)s->address,
		    s->mapping, s->inlined ? " inlined" : "");
	}
	const flame_mapping *m = flame_tree_mapping(t, 1);
	put(b, "%zu nodes with sites; mapping 1 %.*s %llx-%llx; mapping 0 %p\n", with,
	    m ? (int)m->file.len : 0, m ? m->file.ptr : "", m ? (unsigned long long)m->start : 0,
	    m ? (unsigned long long)m->limit : 0, (const void *)flame_tree_mapping(t, 0));
	CHECK(with > 50 && m);
}

/* sites kept beside the frames (a tree that spilled reads its runs back to keep them):
 * a pprof profile's functions, lines and locations, written back and read again */
static void op_sites(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put(b, "site before keeping: %p\n", (const void *)flame_node_site(t, 0));
	put_rc(b, "keep sites", flame_tree_keep_sites(t, &err), &err);
	flame_tree *p = NULL;
	flame_input *in = NULL;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.keep_sites = 1;
	CHECK(flame_tree_new(&p, &err) == 0);
	CHECK(flame_input_open(&in, pprof_fixture, &err) == 0);
	put_rc(b, "parse pprof", flame_parse(p, in, &po, &err), &err);
	flame_input_free(in);
	flame_tree_set_ignore_units(t, 1); /* samples and nanoseconds */
	put_rc(b, "merge", flame_tree_merge(t, p, &err), &err);
	flame_tree_free(p);
	put_sites(b, t);
	put_summary(b, t);
	put_written(b, t, W_PPROF);
}

/* Every label set of `t`, as "set: key=value ..." lines. */
static void put_sets(buf *b, const flame_tree *t)
{
	flame_label v[8];
	for (size_t set = 0; set < flame_tree_label_sets(t); set++) {
		size_t n = flame_tree_label_set(t, set, v, 8);
		put(b, "set %zu:", set);
		for (size_t i = 0; i < n && i < 8; i++)
			if (v[i].is_num)
				put(b, " %.*s=%lld %.*s", (int)v[i].key.len, v[i].key.ptr, (long long)v[i].num,
				    (int)v[i].unit.len, v[i].unit.ptr);
			else
				put(b, " %.*s=%.*s", (int)v[i].key.len, v[i].key.ptr, (int)v[i].str.len,
				    v[i].str.ptr);
		put(b, "\n");
	}
}

static int put_labelled(void *ud, const flame_str *frames, size_t n, size_t set, uint64_t w0,
                        uint64_t w1)
{
	buf *b = ud;
	for (size_t i = 0; i < n; i++)
		put(b, "%s%.*s", i ? ";" : "", (int)frames[i].len, frames[i].ptr);
	put(b, " [%zu] %llu %llu\n", set, (unsigned long long)w0, (unsigned long long)w1);
	return 0;
}

/* labels kept beside the stacks (a tree that spilled reads its runs back to keep them):
 * stacks of the same frames under other labels are other stacks, merged by name in the
 * node tree; a pprof profile's labels merged in by value; a filter keeps them */
static void op_labels(flame_tree *t, int spill, buf *b)
{
	(void)spill;
	flame_err err;
	put(b, "sets before keeping: %zu\n", flame_tree_label_sets(t));
	put_rc(b, "keep labels", flame_tree_keep_labels(t, &err), &err);
	flame_str fr[2] = {{"main", 4}, {"work", 4}};
	flame_label l1[2] = {{{"thread", 6}, {"<img src=x onerror=alert(1)>", 28}, 0, {"", 0}, 0},
	                     {{"bytes", 5}, {"", 0}, -512, {"bytes", 5}, 1}};
	flame_label l2[2] = {l1[1], l1[0]}; /* the same set, another order */
	put_rc(b, "add 1", flame_tree_add_labelled(t, fr, 2, 0, l1, 2, 5, 0, &err), &err);
	put_rc(b, "add 2", flame_tree_add_labelled(t, fr, 2, 0, l2, 2, 6, 0, &err), &err);
	put_rc(b, "add 3", flame_tree_add_labelled(t, fr, 2, 0, l1, 1, 7, 0, &err), &err);
	put_rc(b, "add 4", flame_tree_add_labelled(t, fr, 2, 0, NULL, 0, 1, 0, &err), &err);
	flame_tree *p = NULL;
	flame_input *in = NULL;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.keep_labels = 1;
	CHECK(flame_tree_new(&p, &err) == 0);
	CHECK(flame_input_open(&in, pprof_fixture, &err) == 0);
	put_rc(b, "parse pprof", flame_parse(p, in, &po, &err), &err);
	flame_input_free(in);
	flame_tree_set_ignore_units(t, 1);
	put_rc(b, "merge", flame_tree_merge(t, p, &err), &err);
	flame_tree_free(p);
	put_rc(b, "filter", flame_filter_stacks(t, "main|work", NULL, &err), &err);
	put_sets(b, t);
	put_rc(b, "each labelled", flame_tree_each_labelled(t, put_labelled, b, &err), &err);
	put_summary(b, t);
	put_written(b, t, W_PPROF);
}

typedef void (*op_fn)(flame_tree *t, int spill, buf *b);

static const struct op {
	const char *name;
	op_fn fn;
	int diff;           /* the profile has column 1 too */
	const char *covers; /* the flame.h functions taking a tree it runs, space-separated */
} ops[] = {
    {"writers", op_writers, 0,
     "flame_tree_new flame_tree_free flame_tree_add flame_tree_set_memory_limit flame_parse "
     "flame_write_folded flame_write_svg flame_write_pprof"},
    {"writers (differential)", op_writers, 1, ""},
    {"write (table)", op_write_table, 1, "flame_write"},
    {"png", op_png, 0, "flame_write_png"},
    {"pdf", op_pdf, 1, "flame_write_pdf"},
    {"html", op_html, 1, "flame_write_html"},
    {"speedscope", op_speedscope, 1, "flame_write_speedscope"},
    {"cpuprofile", op_cpuprofile, 1, "flame_write_cpuprofile"},
    {"counts", op_counts, 1,
     "flame_tree_stack_count flame_tree_total flame_tree_decimals flame_tree_is_differential "
     "flame_tree_count_name flame_tree_set_count_name"},
    {"each_stack", op_each_stack, 1, "flame_tree_each_stack"},
    {"nodes", op_nodes, 1,
     "flame_tree_build flame_tree_node_count flame_node_name flame_node_parent "
     "flame_node_first_child flame_node_next_sibling flame_node_depth flame_node_self "
     "flame_node_total flame_iter_init"},
    {"add", op_add, 0, ""},
    {"scale_column", op_scale_column, 1, "flame_tree_scale_column"},
    {"weight", op_weight, 0, "flame_tree_weight"},
    {"filter", op_filter, 0, "flame_filter_stacks"},
    {"skip_after", op_skip_after, 0, "flame_skip_after"},
    {"call_tree", op_call_tree, 0,
     "flame_focus flame_drop flame_merge_frames flame_collapse_recursion"},
    {"strip_hex", op_strip_hex, 1, "flame_strip_hex"},
    {"reverse", op_reverse, 1, "flame_reverse_stacks"},
    {"merge", op_merge, 0, "flame_tree_merge"},
    {"units", op_units, 0, "flame_tree_set_ignore_units"},
    {"diff", op_diff, 0, "flame_diff"},
    {"diff_swap", op_diff_swap, 0, "flame_diff_swap flame_diff_normalize"},
    {"report", op_report, 1, "flame_diff_report_new flame_diff_report_attribute"},
    {"top", op_top, 1, "flame_write_top flame_diff_report_gate"},
    {"cost", op_cost, 0, "flame_cost_report_new flame_tree_duration"},
    {"readers", op_readers, 0, "flame_diff_request_tree flame_merge_request_tree"},
    {"time", op_time, 0,
     "flame_tree_keep_time flame_tree_time_span flame_tree_time_bucket flame_tree_each_time "
     "flame_tree_time_series flame_tree_time_cut"},
    {"sites", op_sites, 0, "flame_tree_keep_sites flame_node_site flame_tree_mapping"},
    {"labels", op_labels, 0,
     "flame_tree_keep_labels flame_tree_add_labelled flame_tree_label_sets flame_tree_label_set "
     "flame_tree_each_labelled"},
};

static void test_same_spilled_or_not(void)
{
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
		buf r[2] = {{0}, {0}};
		for (int spill = 0; spill < 2; spill++) {
			flame_tree *t = build(spill, 1, ops[i].diff);
			ops[i].fn(t, spill, &r[spill]);
			flame_tree_free(t);
		}
		harness_checks++;
		if (r[0].n != r[1].n || memcmp(r[0].p, r[1].p, r[0].n) != 0) {
			size_t at = 0;
			while (at < r[0].n && at < r[1].n && r[0].p[at] == r[1].p[at])
				at++;
			harness_failures++;
			fprintf(stderr, "%s: spilled tree differs at byte %zu (%zu vs %zu bytes):\n"
			        "  in memory: %.60s\n  spilled:   %.60s\n", ops[i].name, at, r[0].n,
			        r[1].n, r[0].p + at, r[1].p + at);
			const char *dump = getenv("FLAME_SEALED_DUMP"); /* a directory, to compare */
			for (int k = 0; dump && k < 2; k++) {
				char path[4096];
				snprintf(path, sizeof path, "%s/%s.%s", dump, ops[i].name, k ? "spilled" : "memory");
				FILE *f = fopen(path, "wb");
				if (f) {
					fwrite(r[k].p, 1, r[k].n, f);
					fclose(f);
				}
			}
		}
		/* a case that compared nothing proves nothing */
		CHECK(r[0].n > 100);
		free(r[0].p);
		free(r[1].p);
	}
}

/* Every FLAME_EXPORT function of flame.h with a flame_tree parameter (or taking jobs and
 * sources that hold trees) has a case above. */
static int covered(const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		for (const char *p = ops[i].covers; (p = strstr(p, name)); p += n)
			if ((p == ops[i].covers || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
				return 1;
	return 0;
}

static void test_covers_flame_h(const char *path)
{
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	static char text[1 << 20];
	size_t len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = '\0';
	size_t found = 0;
	/* a declaration: FLAME_EXPORT ... name(params); */
	for (char *p = text; (p = strstr(p, "FLAME_EXPORT ")); p++) {
		char *open = strchr(p, '('), *end = open ? strchr(open, ';') : NULL;
		if (!open || !end || memchr(p, '#', (size_t)(open - p)))
			continue;
		char *q = open;
		while (q > p && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
			q--;
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)(open - q), q);
		char params[2048];
		snprintf(params, sizeof params, "%.*s", (int)(end - open), open);
		int takes_tree = strstr(params, "flame_tree *") || strstr(params, "flame_tree*") ||
		                 strstr(params, "flame_iter *") ||
		                 strstr(name, "flame_tree_new");
		if (!takes_tree)
			continue;
		found++;
		if (!covered(name) && strcmp(name, "flame_iter_next") &&
		    strcmp(name, "flame_iter_skip_children")) {
			harness_checks++;
			harness_failures++;
			fprintf(stderr, "%s takes a tree and has no case in test-sealed.c\n", name);
		}
	}
	CHECK(found >= 40); /* the scan found the declarations */
}

/* ---- the defects (each failed before the fix) */

/* An I/O failure reading the runs back is an error, not "0 stacks" or out of memory:
 * files may not grow (RLIMIT_FSIZE) when the last in-memory stacks are spilled. */
static void test_io_failure(void)
{
	flame_tree *t = build(1, 1, 0);
	flame_str fr[] = {{"late", 4}}; /* stacks in memory too: reading back spills them first */
	CHECK(flame_tree_add(t, fr, 1, 0, 1, 0, NULL) == 0);
	struct rlimit old;
	CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit tiny = {1, old.rlim_max};
	CHECK(setrlimit(RLIMIT_FSIZE, &tiny) == 0);
	flame_err err = {0};
	size_t n = 99;
	int rc = flame_tree_stack_count(t, &n, &err);
	struct lines l = {0};
	flame_err err2 = {0};
	int rc2 = flame_tree_each_stack(t, collect, &l, &err2);
	CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
	CHECK_EQ_U64(rc, FLAME_EIO);
	CHECK(n == 0 && err.code == FLAME_EIO && strstr(err.msg, "cannot write"));
	CHECK_EQ_U64(rc2, FLAME_EIO);
	CHECK(l.n == 0 && err2.code == FLAME_EIO);
	free(l.v);
	flame_tree_free(t);
}

static void test_iter_done_sticky(void)
{
	flame_err err;
	flame_tree *t = parse_str("a;b 1\na;c 2\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(flame_tree_build(t, FLAME_ORDER_NAME, &err) == 0);
	flame_iter it;
	flame_iter_init(&it, t);
	int events = 0;
	while (flame_iter_next(&it) != FLAME_EVENT_DONE)
		events++;
	CHECK_EQ_U64(events, 8); /* all, a, b, c entered and exited */
	for (int i = 0; i < 3; i++)
		CHECK_EQ_U64(flame_iter_next(&it), FLAME_EVENT_DONE);
	/* a tree not built: DONE at once, and after */
	flame_tree *u = test_tree_new();
	flame_iter_init(&it, u);
	CHECK_EQ_U64(flame_iter_next(&it), FLAME_EVENT_DONE);
	CHECK_EQ_U64(flame_iter_next(&it), FLAME_EVENT_DONE);
	/* the stacks change under a walk: the node tree is stale, the walk ends */
	flame_iter_init(&it, t);
	CHECK_EQ_U64(flame_iter_next(&it), FLAME_EVENT_ENTER);
	flame_str fr[] = {{"z", 1}};
	CHECK(flame_tree_add(t, fr, 1, 0, 1, 0, &err) == 0);
	CHECK_EQ_U64(flame_iter_next(&it), FLAME_EVENT_DONE);
	CHECK_EQ_U64(flame_iter_next(&it), FLAME_EVENT_DONE);
	flame_tree_free(u);
	flame_tree_free(t);
}

static void test_node_checked(void)
{
	flame_err err;
	flame_tree *t = parse_str("a;b 1\na;c 2\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(flame_tree_build(t, FLAME_ORDER_NAME, &err) == 0);
	CHECK_EQ_U64(flame_tree_node_count(t), 4);
	CHECK_EQ_U64(flame_node_total(t, 0, 0), 3);
	CHECK_EQ_U64(flame_node_total(t, 0, 2), 0); /* no column 2 */
	flame_node bad[] = {FLAME_NODE_NONE, 4, 1000000, FLAME_NODE_NONE - 1};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		flame_str nm = flame_node_name(t, bad[i]);
		CHECK(nm.ptr && nm.len == 0);
		CHECK_EQ_U64(flame_node_parent(t, bad[i]), FLAME_NODE_NONE);
		CHECK_EQ_U64(flame_node_first_child(t, bad[i]), FLAME_NODE_NONE);
		CHECK_EQ_U64(flame_node_next_sibling(t, bad[i]), FLAME_NODE_NONE);
		CHECK_EQ_U64(flame_node_depth(t, bad[i]), 0);
		CHECK_EQ_U64(flame_node_self(t, bad[i], 0), 0);
		CHECK_EQ_U64(flame_node_total(t, bad[i], 1), 0);
	}
	/* stale: the stacks changed since the build */
	flame_str fr[] = {{"z", 1}};
	CHECK(flame_tree_add(t, fr, 1, 0, 1, 0, &err) == 0);
	CHECK_EQ_U64(flame_tree_node_count(t), 0);
	CHECK_EQ_U64(flame_node_total(t, 0, 0), 0);
	CHECK_EQ_U64(flame_node_first_child(t, 0), FLAME_NODE_NONE);
	CHECK(flame_node_name(t, 1).len == 0);
	/* a tree never built */
	flame_tree *u = test_tree_new();
	CHECK_EQ_U64(flame_node_total(u, 0, 0), 0);
	CHECK_EQ_U64(flame_node_parent(u, 0), FLAME_NODE_NONE);
	flame_tree_free(u);
	flame_tree_free(t);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test-sealed FLAME_H\n");
		return 2;
	}
	const char *slash = strrchr(argv[1], '/');
	snprintf(pprof_fixture, sizeof pprof_fixture, "%.*s/../fixtures/corpus/pprof/go-cpu-labels.pb.gz",
	         slash ? (int)(slash - argv[1]) : 1, slash ? argv[1] : ".");
	RUN(test_iter_done_sticky);
	RUN(test_node_checked);
	RUN(test_io_failure);
	RUN(test_same_spilled_or_not);
	test_covers_flame_h(argv[1]);
	return harness_done();
}
