/* The HTML writer: one self-contained page (templates/page.html, with page.js and page.css)
 * that holds the whole tree, with no --minwidth pruning, for the canvas viewer of page.js.
 *
 * The data is one byte stream, gzip-compressed and base64-encoded into a script block of
 * type application/octet-stream (base64 has no '<', so no name can close the block). The
 * block comes after the page's script, so a large tree's preview (put_preview: a block of
 * the same form, before the script) is drawn while the browser parses it; the head's
 * generator tag is how parse/html.c knows the page within the bytes formats are told by.
 *
 *   "FLP1"
 *   pairs of strings (key, value) up to an empty key: title, subtitle, notes, countname,
 *     the render options the page honours, numbers as decimal text
 *   varint K, then K strings: the name table (tree ids index it)
 *   K * 3 bytes: each name's fill colour (r, g, b) as the SVG gives it
 *   varint N (nodes), then columns of N varints each, nodes in depth-first order
 *   (parents first, siblings in the tree's order):
 *     up:    depth of the node before + 1 - this depth (0 for the root)
 *     name:  name id
 *     self0: self count, column 0 (BEFORE in a differential tree)
 *     self1: self count, column 1 (AFTER), differential trees only
 *
 * When the tree keeps time (and is not differential), the stream goes on with "TIM1",
 * varints cell_ns, span_ns (first to last sample), E, then E entries as three columns of
 * varints, sorted by node then cell: node (the delta from the entry before), cell (from
 * the first sample; the delta from the entry before when the node is the same), weight
 * (column 0). A node is the leaf of a stack, whose self count its entries sum to; then
 * varints heat_ns and M, and M varints: the whole profile's weight per heat_ns from the first
 * sample (what the heatmap draws; zeros included). Each cell is the finest of a ladder
 * (20 ms to an hour) that fits half of a budget of half the tree's own bytes (time_cell),
 * so time costs a bounded part of the page: a long recording of many stacks keeps its
 * heatmap fine and its ranges coarse.
 *
 * When the tree keeps labels (and is not differential) and some stack has any, a "LAB1"
 * section comes first: varint B, the bytes of the section after it (so a reader can skip
 * it), then varint S and the S label sets a stack uses, each a varint L and L pairs of
 * strings (key, value: a number as its decimal text, then a space and its unit if any); then
 * varint U and U units, a unit being a leaf node under one set, as three columns of
 * varints sorted by node then set: node (the delta from the unit before), set, weight
 * (column 0). With labels, TIM1's entries name units instead of nodes, so a time range and
 * a label slice combine.
 *
 * A string is a varint byte length and its bytes as they are (the page decodes them as
 * UTF-8, or as --encoding says). Totals are sums of selves, computed by the page. The
 * columns are filled in one pass (no node tree is built for the usual order by name) and
 * written one after the other, so gzip sees runs of like values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/diff-report.h"
#include "../core/err.h"
#include "../core/gzip.h"
#include "../core/labels.h"
#include "../core/numfmt.h"
#include "../core/output.h"
#include "../core/time.h"
#include "../core/tree.h"
#include "../core/units.h"
#include "color.h"
#include "escape.h"
#include "layout.h"
#include "template.h"

/* zlib level 1: about twice as fast as the default, and the page a few percent larger */
enum { HTML_ZLEVEL = 1, RAW_CAP = 1 << 16, B64_RUN = 1 << 14 /* triples a reserve holds */ };

typedef struct hw {
	flame_output *out;
	flame_err *err;
	int rc;
	flame__gzip *gz;
	unsigned char raw[RAW_CAP]; /* stream bytes not yet deflated (the page text goes
	                             * straight into the output's buffer, core/output.h) */
	size_t nraw;
	unsigned char carry[3]; /* compressed bytes waiting for a base64 triple */
	size_t ncarry;
	flame_tree *t;
	const flame_render_opts *o;
	struct cols *c; /* the node columns, built for the first block that needs them */
} hw;

/* ---- page text */

static void out_put(hw *w, const char *p, size_t n)
{
	if (!w->rc)
		w->rc = flame__output_put(w->out, p, n, w->err);
}

/* ---- base64 of the compressed stream, straight into the page text */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_triple(char *d, const unsigned char *s)
{
	d[0] = b64[s[0] >> 2];
	d[1] = b64[(s[0] & 3) << 4 | s[1] >> 4];
	d[2] = b64[(s[1] & 15) << 2 | s[2] >> 6];
	d[3] = b64[s[2] & 63];
}

static int b64_sink(void *ud, const void *data, size_t n, flame_err *err)
{
	hw *w = ud;
	(void)err;
	const unsigned char *p = data;
	while (n && w->ncarry) { /* finish a triple begun by the last call */
		w->carry[w->ncarry++] = *p++;
		n--;
		if (w->ncarry == 3) {
			char d[4];
			b64_triple(d, w->carry);
			out_put(w, d, 4);
			w->ncarry = 0;
		}
	}
	while (n >= 3 && !w->rc) {
		size_t k = n / 3 < B64_RUN ? n / 3 : B64_RUN;
		char *d = flame__output_reserve(w->out, 4 * k, &w->rc, w->err);
		if (!d)
			break;
		for (size_t i = 0; i < k; i++, p += 3)
			b64_triple(d + 4 * i, p);
		flame__output_advance(w->out, 4 * k);
		n -= 3 * k;
	}
	memcpy(w->carry + w->ncarry, p, n);
	w->ncarry += n;
	return w->rc;
}

static void b64_finish(hw *w)
{
	if (!w->ncarry)
		return;
	unsigned char s[3] = {w->carry[0], w->ncarry > 1 ? w->carry[1] : 0, 0};
	char d[4];
	b64_triple(d, s);
	if (w->ncarry == 1)
		d[2] = '=';
	d[3] = '=';
	out_put(w, d, 4);
	w->ncarry = 0;
}

/* ---- the raw stream, deflated a block at a time */

static void raw_flush(hw *w)
{
	if (!w->rc && w->nraw)
		w->rc = flame__gzip_write(w->gz, w->raw, w->nraw, w->err);
	w->nraw = 0;
}

/* Append to the raw block, deflating it each time it is full. */
static void raw_put(hw *w, const void *data, size_t n)
{
	const char *p = data;
	while (n && !w->rc) {
		if (w->nraw == RAW_CAP)
			raw_flush(w);
		size_t k = RAW_CAP - w->nraw < n ? RAW_CAP - w->nraw : n;
		memcpy(w->raw + w->nraw, p, k);
		w->nraw += k;
		p += k;
		n -= k;
	}
}

static inline void put_varint(hw *w, uint64_t v)
{
	if (RAW_CAP - w->nraw < 10)
		raw_flush(w);
	unsigned char *d = w->raw + w->nraw;
	size_t k = 0;
	while (v >= 0x80) {
		d[k++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	d[k++] = (unsigned char)v;
	w->nraw += k;
}

static void put_str(hw *w, const char *s, size_t n)
{
	put_varint(w, n);
	raw_put(w, s, n);
}

static void put_meta(hw *w, const char *key, const char *value)
{
	put_str(w, key, strlen(key));
	put_str(w, value ? value : "", value ? strlen(value) : 0);
}

static void put_meta_num(hw *w, const char *key, double v)
{
	char b[64];
	snprintf(b, sizeof b, "%.17g", v);
	put_meta(w, key, b);
}

/* A tested diff's statistics, for the page's colours and tooltips: "ID SIG CHANGE LOW HIGH Q"
 * for self, then the same for total, per function, ';' between functions (name ids are
 * the name table's; numbers exact, q as the SVG's tooltips print it). Nothing without a
 * report. */
static void put_stats(hw *w)
{
	const flame_diff_report *r = w->o->diff_report;
	if (!r || r->tree != w->t || !r->stats)
		return;
	char *buf = NULL, line[320];
	size_t len = 0, cap = 0;
	for (uint32_t id = 0; id < r->n_ids && !w->rc; id++) {
		if (r->row_of[id] == UINT32_MAX)
			continue;
		const flame_diff_stat *st = &r->stats[r->row_of[id]];
		int n = snprintf(line, sizeof line, "%s%u", len ? ";" : "", id);
		for (int k = 0; k < 2; k++)
			n += snprintf(line + n, sizeof line - (size_t)n, " %d %.17g %.17g %.17g %.2g",
			              st->significant[k], st->change[k], st->low[k], st->high[k], st->q[k]);
		if (flame__array_reserve_min(buf, cap, len + (size_t)n + 1, 4096)) {
			w->rc = flame__err_nomem(w->err);
			break;
		}
		memcpy(buf + len, line, (size_t)n + 1);
		len += (size_t)n;
	}
	char al[32];
	snprintf(al, sizeof al, "%g", r->alpha);
	put_meta(w, "alpha", al);
	put_meta(w, "stats", buf ? buf : "");
	free(buf);
}

/* What the page is told: the texts and the render options that mean something on it
 * (sizes of the drawing, --minwidth, --reverse and --flamechart do not: the page lays
 * the whole tree out at every zoom). */
static void put_header(hw *w)
{
	const flame_render_opts *o = w->o;
	flame_tree *t = w->t;
	flame__rgb top, bottom, root;
	char hex[8];
	int diff = flame_tree_is_differential(t);
	const char *cn = o->count_name ? o->count_name
	                 : flame_tree_count_name(t) ? flame_tree_count_name(t)
	                                            : "samples";
	raw_put(w, "FLP1", 4);
	put_meta(w, "title", o->title && *o->title ? o->title : NULL);
	char legend[640];
	put_meta(w, "subtitle", flame__diff_subtitle(o, t, legend, sizeof legend));
	put_meta(w, "notes", o->notes);
	put_meta(w, "countname", cn);
	/* a unit the user named (--countname) is printed as given, as in the SVG */
	put_meta(w, "human", !o->count_name && cn == flame_tree_count_name(t) ? "1" : "0");
	/* what parse/html.c reads back besides the stacks: the sample type and the duration */
	const flame__units *u = flame__tree_units(t);
	put_meta(w, "type", u->type[0] ? u->type : NULL);
	char ns[24];
	snprintf(ns, sizeof ns, "%llu", (unsigned long long)u->duration_ns);
	put_meta(w, "duration", ns);
	put_meta(w, "nametype", o->name_type ? o->name_type : "Function:");
	put_meta(w, "encoding", o->encoding);
	put_meta(w, "fonttype", o->font_type ? o->font_type : "Verdana");
	put_meta_num(w, "fontsize", o->font_size);
	put_meta_num(w, "fontwidth", o->font_width);
	put_meta_num(w, "frameheight", o->frame_height);
	put_meta_num(w, "scale", flame_tree_decimals(t));
	put_meta_num(w, "factor", o->factor);
	put_meta_num(w, "total", o->total * (double)flame__pow10[flame_tree_decimals(t)]);
	put_meta(w, "inverted", o->flags & FLAME_RENDER_INVERTED ? "1" : "0");
	put_meta(w, "differential", diff ? "1" : "0");
	put_meta(w, "negate", o->flags & FLAME_RENDER_NEGATE ? "1" : "0");
	put_meta(w, "diffmode", o->diff_mode == FLAME_DIFF_TOTAL ? "total" : "self");
	put_meta_num(w, "mindelta", o->diff_min_delta * (double)flame__pow10[flame_tree_decimals(t)]);
	put_meta_num(w, "diffper", o->diff_per);
	put_stats(w);
	/* colours: background, search, and the root's (flamegraph.pl's nameless frame) */
	flame__bgcolors(o->bgcolors, o->colors, &top, &bottom);
	flame__colorer cr;
	flame__colorer_init(&cr, o->colors, o->flags, o->seed, o->palette);
	flame__color_name(&cr, "", 0, &root);
	char cols[64];
	flame__rgb_hex(top, hex);
	memcpy(cols, hex, 7);
	cols[7] = ' ';
	flame__rgb_hex(bottom, hex);
	memcpy(cols + 8, hex, 7);
	cols[15] = ' ';
	flame__rgb_hex(root, hex);
	memcpy(cols + 16, hex, 7);
	snprintf(cols + 23, sizeof cols - 23, " %s", o->search_color ? o->search_color : "rgb(230,0,230)");
	put_meta(w, "colors", cols);
	put_str(w, "", 0); /* the end of the pairs */
}

/* The name table and each name's colour, as layout.c colours a frame of that name: every
 * name, or the `count` names of `only` (the preview's). */
static void put_names(hw *w, const uint32_t *only, uint32_t count)
{
	const flame__intern *names = flame__tree_names(w->t);
	const flame_render_opts *o = w->o;
	if (!only)
		count = names->count;
	put_varint(w, count);
	for (uint32_t i = 0; i < count && !w->rc; i++) {
		const flame__name *nm = flame__intern_get(names, only ? only[i] : i);
		put_str(w, nm->ptr, nm->len);
	}
	flame__colorer cr;
	flame__colorer_init(&cr, o->colors, o->flags, o->seed, o->palette);
	for (uint32_t i = 0; i < count && !w->rc; i++) {
		const flame__name *nm = flame__intern_get(names, only ? only[i] : i);
		flame__rgb c;
		if (flame__color_name(&cr, nm->ptr, nm->len, &c))
			w->rc = flame__err_nomem(w->err);
		unsigned char b[3] = {c.r, c.g, c.b};
		raw_put(w, b, 3);
	}
}

/* ---- the node columns, filled in one pass and written one after the other */

enum { COL_UP, COL_NAME, COL_SELF0, COL_SELF1, NCOLS };

typedef struct cols {
	unsigned char *v[NCOLS];
	size_t n[NCOLS], cap[NCOLS];
	size_t nodes;
	uint32_t depth; /* of the node added last */
	int nomem;
	uint32_t *leaf; /* the tree keeps time or labels: each stack's leaf node (its place in
	                 * the table), or its unit once the labels are written (put_labels) */
	int labelled;   /* the stacks have labels: a stack repeats under other sets */
} cols;

static inline void col_varint(cols *c, int k, uint64_t v)
{
	if (flame__array_reserve_min(c->v[k], c->cap[k], c->n[k] + 10, 1 << 16)) {
		c->nomem = 1;
		return;
	}
	unsigned char *d = c->v[k] + c->n[k];
	size_t i = 0;
	while (v >= 0x80) {
		d[i++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	d[i++] = (unsigned char)v;
	c->n[k] += i;
}

/* The next node in depth-first order. */
static inline void col_node(cols *c, uint32_t depth, uint32_t name, uint64_t self0, uint64_t self1)
{
	col_varint(c, COL_UP, c->nodes ? c->depth + 1 - depth : 0);
	col_varint(c, COL_NAME, name);
	col_varint(c, COL_SELF0, self0);
	col_varint(c, COL_SELF1, self1);
	c->depth = depth;
	c->nodes++;
}

/* Sibling order by weight: a walk of the node tree, built for it. */
static int cols_from_tree(cols *c, flame_tree *t, flame_order order, flame_err *err)
{
	int rc = flame_tree_build(t, order, err);
	if (rc)
		return rc;
	size_t nn;
	const flame__node *nodes = flame__tree_nodes(t, &nn);
	flame_iter it;
	flame_iter_init(&it, t);
	flame_event ev;
	while ((ev = flame_iter_next(&it)) != FLAME_EVENT_DONE && !c->nomem) {
		const flame__node *nd = &nodes[it.node];
		if (ev == FLAME_EVENT_ENTER)
			col_node(c, nd->depth, nd->name, nd->self[0], nd->self[1]);
	}
	return 0;
}

/* Whether stack `k` of frame order `fo` has the frames of `st` (a stack under another
 * label set). */
static int same_frames(const flame__stacks *s, const flame__frame_order *fo, size_t k,
                       const flame__stack *st)
{
	const flame__stack *o = &s->v[fo->idx ? fo->idx[k] : k];
	if (o->depth != st->depth)
		return 0;
	if (fo->lcp)
		return fo->lcp[k] >= st->depth;
	return memcmp(o->ids, st->ids, st->depth * sizeof *st->ids) == 0;
}

/* By name, as the SVG's flow layout does (write/layout.c): the unique stacks in
 * frame-by-frame name order are the depth-first order of the tree, a shorter stack
 * before its extensions, so each stack adds the nodes past the prefix it shares with
 * the one before, its own weight on the last; no node tree is built. 1 when the table
 * holds a repeated stack (then the caller walks the tree instead). */
static int cols_from_stacks(cols *c, flame_tree *t, flame_err *err, int *repeated)
{
	flame__stacks *s;
	int rc = flame__tree_stacks(t, &s, err);
	if (rc)
		return rc;
	flame__frame_order fo = {NULL, NULL, NULL};
	if (flame__tree_frame_order(t, &fo))
		return flame__err_nomem(err);
	c->labelled = s->labelled && !flame_tree_is_differential(t);
	if ((flame__tree_time(t) || c->labelled) && !flame_tree_is_differential(t) &&
	    (c->leaf = calloc(s->count ? s->count : 1, sizeof *c->leaf)) == NULL) {
		flame__frame_order_free(&fo);
		return flame__err_nomem(err);
	}
	uint64_t root[2] = {0, 0}; /* empty stacks: the root's own weight */
	for (size_t k = 0; k < s->count; k++)
		if (!s->v[k].depth) {
			root[0] += s->v[k].w[0];
			root[1] += s->v[k].w[1];
		}
	col_node(c, 0, flame__tree_root_name(t), root[0], root[1]);
	const flame__stack *prev = NULL;
	for (size_t k = 0; k < s->count && !c->nomem; k++) {
		const flame__stack *st = &s->v[fo.idx ? fo.idx[k] : k];
		if (!st->depth)
			continue;
		uint32_t same = 0;
		if (fo.lcp && prev) {
			same = fo.lcp[k];
		} else if (prev) {
			uint32_t n = prev->depth < st->depth ? prev->depth : st->depth;
			while (same < n && prev->ids[same] == st->ids[same])
				same++;
		}
		if (same >= st->depth) {
			*repeated = 1;
			break;
		}
		/* with labels, the stacks of these frames under other sets follow: one node */
		size_t run = 1;
		uint64_t w0 = st->w[0], w1 = st->w[1];
		while (c->labelled && k + run < s->count &&
		       same_frames(s, &fo, k + run, st)) {
			const flame__stack *o = &s->v[fo.idx ? fo.idx[k + run] : k + run];
			w0 += o->w[0];
			w1 += o->w[1];
			run++;
		}
		for (uint32_t d = same; d < st->depth; d++) {
			int leaf = d + 1 == st->depth;
			col_node(c, d + 1, st->ids[d], leaf ? w0 : 0, leaf ? w1 : 0);
		}
		for (size_t j = k; c->leaf && j < k + run; j++)
			c->leaf[fo.idx ? fo.idx[j] : j] = (uint32_t)(c->nodes - 1);
		k += run - 1;
		prev = st;
	}
	flame__frame_order_free(&fo);
	return 0;
}

static void cols_free(cols *c)
{
	for (int k = 0; k < NCOLS; k++)
		free(c->v[k]);
	free(c->leaf);
}

/* ---- time: the tree's entries at a page cell, per leaf node */

typedef struct tentry {
	uint32_t node;
	uint32_t cell;
	uint64_t w;
} tentry;

static int cmp_tentry(const void *a, const void *b)
{
	const tentry *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->cell > y->cell) - (x->cell < y->cell);
}

static uint64_t rel_of(const flame__time *tm, const flame__time_entry *e)
{
	int64_t r = flame__time_bucket_ns(tm, e->bucket) - tm->first_ns;
	return r < 0 ? 0 : (uint64_t)r;
}

static const uint64_t ladder[] = {20000000, 100000000, 1000000000, 10000000000, 60000000000,
                                  300000000000, 900000000000, 3600000000000};
enum { LADDER = sizeof ladder / sizeof *ladder };

/* The finest page cell whose entries (stack, cell), or with `totals` whose cells over the
 * span, fit `budget`; the table is compacted, so a stack's entries come in time order. */
static uint64_t time_cell(const flame__time *tm, size_t budget, int totals)
{
	uint64_t span = (uint64_t)(tm->last_ns - tm->first_ns);
	for (size_t k = 0; k < LADDER; k++) {
		if (ladder[k] < tm->bucket_ns)
			continue;
		size_t count = totals ? (size_t)(span / ladder[k] + 1) : 0;
		for (size_t i = 0; !totals && i < tm->count && count <= budget; i++)
			count += i == 0 || tm->v[i].stack != tm->v[i - 1].stack ||
			         rel_of(tm, &tm->v[i]) / ladder[k] != rel_of(tm, &tm->v[i - 1]) / ladder[k];
		if (count <= budget)
			return ladder[k];
	}
	return ladder[LADDER - 1];
}

/* The heatmap's cells: the whole profile's weight per `cell` from the first sample. */
static void put_heat(hw *w, const flame__time *tm, uint64_t cell)
{
	uint64_t m = (uint64_t)(tm->last_ns - tm->first_ns) / cell + 1;
	uint64_t *v = calloc(m, sizeof *v);
	if (!v) {
		w->rc = flame__err_nomem(w->err);
		return;
	}
	for (size_t i = 0; i < tm->count; i++) {
		uint64_t c = rel_of(tm, &tm->v[i]) / cell;
		v[c < m ? c : m - 1] += tm->v[i].w[0];
	}
	put_varint(w, cell);
	put_varint(w, m);
	for (uint64_t i = 0; i < m; i++)
		put_varint(w, v[i]);
	free(v);
}

static void put_time(hw *w, const cols *c)
{
	flame__time *tm = flame__tree_time(w->t);
	if (!tm || !c->leaf || tm->clock == FLAME_CLOCK_NONE)
		return;
	flame__time_compact(tm);
	size_t colbytes = c->n[COL_UP] + c->n[COL_NAME] + c->n[COL_SELF0];
	/* half the tree's raw bytes (bench/time): a heat cell costs about 1.5 raw bytes, an
	 * entry about 4; each kind gets half */
	size_t budget = colbytes / 2 > 32768 ? colbytes / 2 : 32768;
	uint64_t cell = time_cell(tm, budget / 2 / 4, 0), heat = time_cell(tm, budget / 2 * 2 / 3, 1);
	tentry *v = malloc((tm->count ? tm->count : 1) * sizeof *v);
	cols tc;
	memset(&tc, 0, sizeof tc);
	if (!v) {
		w->rc = flame__err_nomem(w->err);
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < tm->count; i++) {
		const flame__time_entry *e = &tm->v[i];
		tentry x = {c->leaf[e->stack], (uint32_t)(rel_of(tm, e) / cell), e->w[0]};
		if (n && v[n - 1].node == x.node && v[n - 1].cell == x.cell)
			v[n - 1].w += x.w;
		else if (x.w)
			v[n++] = x;
	}
	flame__sort(v, n, sizeof *v, cmp_tentry);
	for (size_t i = 0; i < n; i++) {
		int same = i && v[i].node == v[i - 1].node;
		col_varint(&tc, 0, i ? v[i].node - v[i - 1].node : v[i].node);
		col_varint(&tc, 1, same ? v[i].cell - v[i - 1].cell : v[i].cell);
		col_varint(&tc, 2, v[i].w);
	}
	if (tc.nomem) {
		w->rc = flame__err_nomem(w->err);
	} else {
		raw_put(w, "TIM1", 4);
		put_varint(w, cell);
		put_varint(w, (uint64_t)(tm->last_ns - tm->first_ns));
		put_varint(w, n);
		for (int k = 0; k < 3; k++)
			raw_put(w, tc.v[k], tc.n[k]);
		put_heat(w, tm, heat);
	}
	free(v);
	cols_free(&tc);
}

/* ---- labels: the sets the stacks use, and each leaf node's weight per set */

typedef struct unit {
	uint32_t node, set;
	uint32_t stack;
	uint64_t w;
} unit;

static int cmp_unit(const void *a, const void *b)
{
	const unit *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return (x->stack > y->stack) - (x->stack < y->stack);
}

/* One set's labels as strings into `tc` column 0 (a number as its text and unit). */
static void put_set(cols *tc, const flame__labels *l, uint32_t set, flame_label *v, size_t cap)
{
	size_t n = flame__labels_get(l, set, v, cap);
	n = n < cap ? n : cap;
	col_varint(tc, 0, n);
	for (size_t i = 0; i < n && !tc->nomem; i++) {
		char num[64];
		flame_str val = v[i].str;
		if (v[i].is_num) {
			int k = snprintf(num, sizeof num, "%lld%s%.*s", (long long)v[i].num,
			                 v[i].unit.len ? " " : "", (int)(v[i].unit.len < 40 ? v[i].unit.len : 40),
			                 v[i].unit.ptr);
			val = (flame_str){num, (size_t)k};
		}
		flame_str kv[2] = {v[i].key, val};
		for (int j = 0; j < 2 && !tc->nomem; j++) {
			col_varint(tc, 0, kv[j].len);
			if (flame__array_reserve_min(tc->v[0], tc->cap[0], tc->n[0] + kv[j].len, 1 << 12)) {
				tc->nomem = 1;
				break;
			}
			flame__copy(tc->v[0] + tc->n[0], kv[j].ptr, kv[j].len);
			tc->n[0] += kv[j].len;
		}
	}
}

/* The units (leaf node, set) of the stacks, sorted; c->leaf becomes each stack's unit.
 * `*dense` maps a set to its place among the sets used (+ 1). Units in `*out` (to free). */
static size_t make_units(cols *c, const flame__stacks *s, uint32_t nsets, uint32_t *dense,
                         unit **out)
{
	unit *u = malloc((s->count ? s->count : 1) * sizeof *u);
	size_t n = 0, units = 0;
	if (!(*out = u))
		return 0;
	for (size_t k = 0; k < s->count; k++)
		if (s->v[k].depth)
			u[n++] = (unit){c->leaf[k], flame__stack_label(s, &s->v[k]), (uint32_t)k, s->v[k].w[0]};
	flame__sort(u, n, sizeof *u, cmp_unit);
	for (size_t i = 0; i < n; i++) {
		if (u[i].set < nsets)
			dense[u[i].set] = 1;
		if (!i || u[i].node != u[units - 1].node || u[i].set != u[units - 1].set) {
			uint32_t stack = u[i].stack;
			u[units++] = u[i];
			c->leaf[stack] = (uint32_t)(units - 1);
		} else {
			u[units - 1].w += u[i].w;
			c->leaf[u[i].stack] = (uint32_t)(units - 1);
		}
	}
	return units;
}

static void put_labels(hw *w, cols *c)
{
	const flame__labels *l = flame__tree_labels(w->t);
	flame__stacks *s;
	if (!l || !c->leaf || !c->labelled || flame__tree_stacks(w->t, &s, w->err))
		return;
	uint32_t nsets = flame__labels_count(l), used = 0;
	for (size_t k = 0; k < s->count && !used; k++)
		used = flame__stack_label(s, &s->v[k]) != 0;
	if (!used) /* no stack has a label: no section, the page as without labels */
		return;
	uint32_t *dense = calloc(nsets, sizeof *dense);
	flame_label v[256];
	unit *u = NULL;
	size_t n = dense ? make_units(c, s, nsets, dense, &u) : 0;
	cols tc;
	memset(&tc, 0, sizeof tc);
	uint32_t nused = 0;
	for (uint32_t i = 0; dense && i < nsets; i++)
		if (dense[i])
			dense[i] = ++nused;
	col_varint(&tc, 0, nused);
	for (uint32_t i = 0; dense && i < nsets; i++)
		if (dense[i])
			put_set(&tc, l, i, v, sizeof v / sizeof *v);
	col_varint(&tc, 0, n);
	for (size_t i = 0; i < n; i++) {
		col_varint(&tc, 1, i ? u[i].node - u[i - 1].node : u[i].node);
		col_varint(&tc, 2, dense[u[i].set] - 1);
		col_varint(&tc, 3, u[i].w);
	}
	if (!dense || !u || tc.nomem) {
		w->rc = flame__err_nomem(w->err);
	} else {
		raw_put(w, "LAB1", 4);
		put_varint(w, tc.n[0] + tc.n[1] + tc.n[2] + tc.n[3]);
		for (int k = 0; k < 4; k++)
			raw_put(w, tc.v[k], tc.n[k]);
	}
	free(dense);
	free(u);
	cols_free(&tc);
}

/* The node columns in w->c, built once (the preview and the data block both read them). */
static int get_cols(hw *w)
{
	if (w->c || w->rc)
		return w->rc;
	cols *c = w->c = calloc(1, sizeof *c);
	if (!c)
		return w->rc = flame__err_nomem(w->err);
	int repeated = 0;
	if (w->o->sort == FLAME_ORDER_NAME)
		w->rc = cols_from_stacks(c, w->t, w->err, &repeated);
	if (!w->rc && (w->o->sort != FLAME_ORDER_NAME || repeated)) {
		cols_free(c);
		memset(c, 0, sizeof *c);
		w->rc = cols_from_tree(c, w->t, w->o->sort, w->err);
	}
	if (!w->rc && c->nomem)
		w->rc = flame__err_nomem(w->err);
	return w->rc;
}

static void put_data(hw *w)
{
	if (get_cols(w))
		return;
	cols *c = w->c;
	put_header(w);
	put_names(w, NULL, 0);
	put_varint(w, c->nodes);
	int ncols = flame_tree_is_differential(w->t) ? NCOLS : COL_SELF1;
	for (int k = 0; k < ncols; k++)
		raw_put(w, c->v[k], c->n[k]);
	put_labels(w, c);
	put_time(w, c);
	raw_flush(w);
}

/* ---- the preview: what the first screen of a large tree shows, before the whole data
 * block is parsed (the page draws it while the browser is still reading the rest). The
 * same "FLP1" stream: the header, the names it uses, then the nodes under which a frame
 * can be seen at any width up to PREVIEW_PX pixels (parent total >= root / PREVIEW_PX),
 * each in the tree's order; a node narrower than that stands for its whole subtree (its
 * self count is the subtree's total), so every frame laid out over half a pixel wide is
 * where the whole tree puts it. Only for trees of PREVIEW_MIN nodes or more, not diffs. */

enum { PREVIEW_MIN = 1 << 18 };
#define PREVIEW_PX 16384.0

static inline uint64_t get_varint(const unsigned char **p)
{
	const unsigned char *q = *p;
	uint64_t v = 0;
	int shift = 0;
	while (*q & 0x80) {
		v |= (uint64_t)(*q++ & 0x7f) << shift;
		shift += 7;
	}
	v |= (uint64_t)*q++ << shift;
	*p = q;
	return v;
}

/* open[i / 8] bit i % 8: node i is wide enough for its children to show */
static int preview_open(const cols *c, unsigned char *open, uint64_t root)
{
	uint64_t *tot = malloc(64 * sizeof *tot);
	size_t *idx = malloc(64 * sizeof *idx), cap = 64, sp = 0, capi = 64, d = 0;
	const unsigned char *pu = c->v[COL_UP], *ps = c->v[COL_SELF0];
	int nomem = !tot || !idx;
	for (size_t i = 0; i <= c->nodes && !nomem; i++) {
		uint64_t up = i < c->nodes ? get_varint(&pu) : d + 1, self = i < c->nodes ? get_varint(&ps) : 0;
		d = i ? d + 1 - (size_t)up : 0; /* the end: depth 0, closing every node */
		for (; sp > d || (i == c->nodes && sp); sp--) {
			if ((double)tot[sp - 1] * PREVIEW_PX >= (double)root || idx[sp - 1] == 0)
				open[idx[sp - 1] / 8] |= (unsigned char)(1u << idx[sp - 1] % 8);
			if (sp > 1)
				tot[sp - 2] += tot[sp - 1];
		}
		if (i == c->nodes)
			break;
		if (flame__array_reserve_min(tot, cap, sp + 1, 64) ||
		    flame__array_reserve_min(idx, capi, sp + 1, 64)) {
			nomem = 1;
			break;
		}
		tot[sp] = self;
		idx[sp++] = i;
	}
	free(tot);
	free(idx);
	return nomem;
}

typedef struct pv {
	cols out;
	uint32_t *id, *used, nused; /* tree name id -> preview id (UINT32_MAX: none); the used */
} pv;

static void pv_node(pv *p, uint32_t depth, uint32_t name, uint64_t self)
{
	if (p->id[name] == UINT32_MAX) {
		p->id[name] = p->nused;
		p->used[p->nused++] = name;
	}
	col_node(&p->out, depth, p->id[name], self, 0);
}

/* The preview's nodes, from the columns and the open bits: a closed node gathers the self
 * counts of its subtree and is written when the subtree ends. */
static void preview_nodes(pv *p, const cols *c, const unsigned char *open)
{
	const unsigned char *pu = c->v[COL_UP], *pn = c->v[COL_NAME], *ps = c->v[COL_SELF0];
	size_t d = 0, cd = 0; /* depth; a closed node's depth */
	uint32_t cname = 0;
	uint64_t acc = 0;
	int closed = 0;
	for (size_t i = 0; i < c->nodes; i++) {
		uint64_t up = get_varint(&pu), self = get_varint(&ps);
		uint32_t name = (uint32_t)get_varint(&pn);
		d = i ? d + 1 - (size_t)up : 0;
		if (closed && d > cd) {
			acc += self;
			continue;
		}
		if (closed)
			pv_node(p, (uint32_t)cd, cname, acc);
		closed = !(open[i / 8] >> i % 8 & 1);
		if (closed) {
			cd = d;
			cname = name;
			acc = self;
		} else {
			pv_node(p, (uint32_t)d, name, self);
		}
	}
	if (closed)
		pv_node(p, (uint32_t)cd, cname, acc);
}

static void put_preview(hw *w)
{
	if (get_cols(w))
		return;
	const cols *c = w->c;
	uint32_t nnames = flame__tree_names(w->t)->count;
	uint64_t root = 0;
	const unsigned char *ps = c->v[COL_SELF0];
	for (size_t i = 0; i < c->nodes; i++)
		root += get_varint(&ps);
	pv p;
	memset(&p, 0, sizeof p);
	unsigned char *open = calloc(c->nodes / 8 + 1, 1);
	p.id = malloc((nnames ? nnames : 1) * sizeof *p.id);
	p.used = malloc((nnames ? nnames : 1) * sizeof *p.used);
	if (!open || !p.id || !p.used || preview_open(c, open, root)) {
		w->rc = flame__err_nomem(w->err);
	} else {
		memset(p.id, 0xff, nnames * sizeof *p.id);
		preview_nodes(&p, c, open);
		if (p.out.nomem)
			w->rc = flame__err_nomem(w->err);
	}
	if (!w->rc) {
		put_header(w);
		put_names(w, p.used, p.nused);
		put_varint(w, p.out.nodes);
		for (int k = 0; k < COL_SELF1; k++)
			raw_put(w, p.out.v[k], p.out.n[k]);
		raw_flush(w);
	}
	free(open);
	free(p.id);
	free(p.used);
	cols_free(&p.out);
}

/* A gzip+base64 block of the stream `put` writes, into the page text. */
static void put_block(hw *w, void (*put)(hw *))
{
	if (!w->rc)
		w->rc = flame__gzip_open_sink(&w->gz, b64_sink, w, HTML_ZLEVEL, w->err);
	if (!w->rc)
		put(w);
	if (!w->rc) {
		w->rc = flame__gzip_finish(w->gz, w->err);
		w->gz = NULL;
	}
	b64_finish(w);
}

/* ---- the page */

static int key_is(const char *k, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(k, s, n) == 0;
}

static int on_literal(void *ud, const char *p, size_t n)
{
	hw *w = ud;
	out_put(w, p, n);
	return w->rc;
}

/* Whether the page gets a LAB1 section: a tree that keeps labels, not differential, with
 * some stack under a set (put_labels). */
static int page_labelled(flame_tree *t)
{
	flame__stacks *s;
	if (!flame__tree_labels(t) || flame_tree_is_differential(t) ||
	    flame__tree_stacks(t, &s, NULL))
		return 0;
	for (size_t k = 0; k < s->count; k++)
		if (flame__stack_label(s, &s->v[k]))
			return 1;
	return 0;
}

static int on_key(void *ud, const char *k, size_t n)
{
	hw *w = ud;
	if (key_is(k, n, "title")) {
		/* the static <title>, for tabs and history before the script runs: escaped as
		 * text, so a name cannot end the element (the script sets it again from data) */
		const char *s = w->o->title && *w->o->title ? w->o->title : "Flame Graph";
		size_t len = strlen(s) > 200 ? 200 : strlen(s);
		char d[FLAME__ESCAPE_MAX(200)];
		out_put(w, d, flame__xml_escape(d, s, len));
	} else if (key_is(k, n, "css")) {
		out_put(w, flame__tpl_page_css, flame__tpl_page_css_len);
	} else if (key_is(k, n, "js")) {
		out_put(w, flame__tpl_page_js, flame__tpl_page_js_len);
	} else if (key_is(k, n, "timejs")) {
		/* the heatmap's script, only in a page whose profile keeps time */
		if (flame__tree_time(w->t) && !flame_tree_is_differential(w->t) &&
		    flame_tree_time_span(w->t, NULL, NULL) != FLAME_CLOCK_NONE) {
			out_put(w, "<script>\n", 9);
			out_put(w, flame__tpl_page_heatmap_js, flame__tpl_page_heatmap_js_len);
			out_put(w, "</script>\n", 10);
		}
	} else if (key_is(k, n, "labelsjs")) {
		/* the label selector's script, only in a page whose stacks have labels */
		if (page_labelled(w->t)) {
			out_put(w, "<script>\n", 9);
			out_put(w, flame__tpl_page_labels_js, flame__tpl_page_labels_js_len);
			out_put(w, "</script>\n", 10);
		}
	} else if (key_is(k, n, "data")) {
		put_block(w, put_data);
	} else if (key_is(k, n, "preview")) {
		/* the preview's own block (a different id: the data block stays the only one) */
		if (!get_cols(w) && w->c->nodes >= PREVIEW_MIN && !flame_tree_is_differential(w->t)) {
			static const char open[] = "<script type=\"application/octet-stream\" id=\"flame-preview\">";
			out_put(w, open, sizeof open - 1);
			put_block(w, put_preview);
			out_put(w, "</script>\n", 10);
		}
	} else {
		return flame__err(w->err, FLAME_EUSAGE, "template", 0, FLAME__NO_OFFSET,
		                  "unknown placeholder {{%.*s}}", (int)n, k);
	}
	return w->rc;
}

int flame_write_html(flame_tree *t, const flame_render_opts *o, flame_output *out,
                     flame_err *err)
{
	flame_render_opts cur;
	if (flame__render_opts_read(&cur, o, err))
		return FLAME_EUSAGE; /* the only failure: a version not known */
	o = &cur;
	int rc = flame_render_opts_check(o, err);
	if (rc)
		return rc;
	hw *w = malloc(sizeof *w);
	if (!w)
		return flame__err_nomem(err);
	w->out = out;
	w->err = err;
	w->rc = 0;
	w->gz = NULL;
	w->nraw = w->ncarry = 0;
	w->t = t;
	w->o = o;
	w->c = NULL;
	flame__tpl_cb cb = {on_literal, on_key, w};
	rc = flame__template_expand(flame__tpl_page_html, flame__tpl_page_html_len, &cb);
	rc = rc ? rc : w->rc;
	flame__gzip_free(w->gz);
	if (w->c)
		cols_free(w->c);
	free(w->c);
	free(w);
	return rc;
}
