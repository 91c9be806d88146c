/* Layout of the removed-frames panel (see removed.h). The stacks through removed frames
 * go into a small tree of their own; one pass over its node tree sums,
 * per node, the BEFORE weight of the removed subtrees at or under it (a removed frame: in
 * BEFORE, not in AFTER, under a frame that is in AFTER); a second pass places the nodes
 * with such weight left to right as a small flame graph of its own, at the scale of a graph
 * of BEFORE, pruned by --minwidth or the width of a label, whichever is wider. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/tree.h"
#include "removed.h"

static int removed_node(const flame__node *nd) { return nd->total[1] == 0 && nd->total[0] > 0; }

int flame__panel_is_context(const flame__panel *P, size_t i) { return P->after[i] != 0; }

void flame__panel_free(flame__panel *P)
{
	free(P->frames);
	free(P->after);
	flame_tree_free(P->own);
	memset(P, 0, sizeof *P);
}

/* The stacks through removed frames, in a small tree of their own: each such stack (AFTER
 * 0, BEFORE > 0) with its BEFORE weight, and its callers' part (the longest prefix some
 * stack with AFTER > 0 shares; in the frame order the nearest such stacks before and after
 * it share the longest) once more with AFTER 1, which marks those frames as context.
 * Memory: the order of the stacks, and the few stacks drawn; no node tree of `t`. */
static int removed_tree(flame_tree **out, flame_tree *t, flame_err *err)
{
	*out = NULL;
	flame__stacks *st;
	int rc = flame__tree_stacks(t, &st, err);
	if (rc)
		return rc;
	size_t n = st->count;
	flame__frame_order fo;
	if (flame__tree_frame_order(t, &fo))
		return flame__err_nomem(err);
	uint32_t *ctx = malloc((n ? n : 1) * sizeof *ctx), maxd = 1;
	flame_tree *r = flame__tree_new_like(t); /* t's scale; differential, marked below */
	if (!ctx || !r) {
		free(ctx);
		flame_tree_free(r);
		flame__frame_order_free(&fo);
		return flame__err_nomem(err);
	}
	for (size_t k = 0; k < n; k++)
		if (st->v[k].depth > maxd)
			maxd = st->v[k].depth;
	for (int dir = 0; dir < 2; dir++) {
		const flame__stack *near = NULL;
		for (size_t j = 0; j < n; j++) {
			size_t k = dir ? n - 1 - j : j;
			const flame__stack *s = &st->v[fo.idx ? fo.idx[k] : k];
			if (s->w[1]) {
				near = s;
				continue;
			}
			uint32_t c = 0;
			if (near) {
				uint32_t m = near->depth < s->depth ? near->depth : s->depth;
				while (c < m && near->ids[c] == s->ids[c])
					c++;
			}
			if (!dir || c > ctx[k])
				ctx[k] = c;
		}
	}
	rc = 0;
	flame_str *fr = malloc(maxd * sizeof *fr);
	if (!fr)
		rc = flame__err_nomem(err);
	flame__tree_set_differential(r);
	for (size_t k = 0; k < n && !rc; k++) {
		const flame__stack *s = &st->v[fo.idx ? fo.idx[k] : k];
		if (s->w[1] || !s->w[0] || ctx[k] >= s->depth)
			continue;
		for (uint32_t i = 0; i < s->depth; i++) {
			const flame__name *nm = flame__intern_get(flame__tree_names(t), s->ids[i]);
			fr[i] = (flame_str){nm->ptr, nm->len};
		}
		rc = flame_tree_add(r, fr, s->depth, 0, s->w[0], 0, err);
		if (!rc && ctx[k])
			rc = flame_tree_add(r, fr, ctx[k], 0, 0, 1, err);
	}
	free(fr);
	free(ctx);
	flame__frame_order_free(&fo);
	if (rc) {
		flame_tree_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

/* 1 when some stack of `t` is only in BEFORE (AFTER 0): without one there is no removed
 * frame, and no node tree to build (its memory is several times the stack table's). */
static int any_removed(flame_tree *t, flame_err *err)
{
	flame__stacks *st;
	int rc = flame__tree_stacks(t, &st, err);
	if (rc)
		return rc;
	for (size_t k = 0; k < st->count; k++)
		if (st->v[k].w[1] == 0 && st->v[k].w[0] > 0)
			return 1;
	return 0;
}

/* Pass 1: the removed weight at or under each node of `t` (a removed node's is its whole
 * BEFORE) into *out (calloc'd, w[0] the total). */
static int removed_weights(flame_tree *t, uint64_t **out, flame_err *err)
{
	size_t nn;
	const flame__node *nodes = flame__tree_nodes(t, &nn);
	uint64_t *w = calloc(nn ? nn : 1, sizeof *w);
	if (!(*out = w))
		return flame__err_nomem(err);
	flame_iter it;
	flame_event ev;
	flame_iter_init(&it, t);
	while ((ev = flame_iter_next(&it)) != FLAME_EVENT_DONE) {
		const flame__node *nd = &nodes[it.node];
		if (ev == FLAME_EVENT_ENTER) {
			if (it.node && removed_node(nd)) /* and so is everything under it */
				w[it.node] = nd->total[0];
		} else if (it.node && (nd->parent == 0 || !removed_node(&nodes[nd->parent]))) {
			w[nd->parent] += w[it.node];
		}
	}
	return 0;
}

/* One placed frame: node `nd` at depth `d`, from `start` for `value`. */
static int add_frame(flame__panel *P, size_t *fcap, size_t *acap, const flame_tree *t,
                     const flame__node *nd, uint32_t d, uint64_t start, uint64_t value)
{
	if (flame__array_reserve_min(P->frames, *fcap, P->count + 1, 64) ||
	    flame__array_reserve_min(P->after, *acap, P->count + 1, 64))
		return FLAME_ENOMEM;
	flame__frame *f = &P->frames[P->count];
	memset(f, 0, sizeof *f);
	const flame__name *nm = flame__intern_get(flame__tree_names(t), nd->name);
	f->name = nm->ptr;
	f->name_len = nm->len;
	f->depth = d;
	f->start = start;
	f->value = value;
	f->before = nd->total[0];
	P->after[P->count++] = nd->total[1];
	return 0;
}

/* Pass 2: the nodes with removed weight of at least `min_time`, left to right in counts
 * (P->frames' start and value); *maxd the deepest placed. */
static int place(flame__panel *P, flame_tree *t, const uint64_t *w, double min_time,
                 uint32_t *maxd, flame_err *err)
{
	size_t nn, fcap = 0, acap = 0, dcap = 0;
	const flame__node *nodes = flame__tree_nodes(t, &nn);
	uint64_t *next = NULL; /* next[d]: where the next frame at depth d starts */
	if (flame__array_reserve_min(next, dcap, 2, 64))
		return flame__err_nomem(err);
	next[1] = 0;
	*maxd = 0;
	int rc = 0;
	flame_iter it;
	flame_event ev;
	flame_iter_init(&it, t);
	while ((ev = flame_iter_next(&it)) != FLAME_EVENT_DONE && !rc) {
		if (ev != FLAME_EVENT_ENTER || it.node == 0)
			continue;
		const flame__node *nd = &nodes[it.node];
		uint32_t d = nd->depth;
		if (!w[it.node] || (double)w[it.node] < min_time) {
			if (w[it.node])
				next[d] += w[it.node];
			flame_iter_skip_children(&it);
			continue;
		}
		if (flame__array_reserve_min(next, dcap, (size_t)d + 2, 64)) {
			rc = flame__err_nomem(err);
			break;
		}
		uint64_t start = next[d];
		next[d] += w[it.node];
		/* a removed frame's own samples first, then its children (as in the graph) */
		next[d + 1] = start + (removed_node(nd) ? nd->self[0] : 0);
		if (add_frame(P, &fcap, &acap, t, nd, d, start, w[it.node]))
			rc = flame__err_nomem(err);
		if (d > *maxd)
			*maxd = d;
	}
	free(next);
	return rc;
}

/* The band under the graph: the frames' rectangles and fills, the header line. */
static void draw_band(flame__panel *P, flame__layout *L, double wpc, uint32_t maxd)
{
	P->top = L->height;
	P->header_y = P->top + L->font_size + 4;
	double band = P->top + L->font_size * 2;
	P->height = L->font_size * 2 + maxd * L->frame_height + 10;
	/* the graph's "shrank" hue (blue, red with --negate), not its most saturated shade */
	flame__rgb removed_fill = flame__color_delta(-0.55, 1, L->negate), context = {224, 224, 224};
	for (size_t i = 0; i < P->count; i++) {
		flame__frame *f = &P->frames[i];
		double x1 = L->xpad + (double)f->start * wpc, x2 = L->xpad + (double)(f->start + f->value) * wpc;
		f->x = x1;
		f->w = x2 - x1;
		f->h = L->frame_height - 1;
		f->y = band + (L->inverted ? f->depth - 1 : maxd - f->depth) * L->frame_height;
		f->fill = P->after[i] ? context : removed_fill;
	}
	char cnt[96];
	flame__format_count(L, P->removed, cnt, sizeof cnt);
	snprintf(P->header, sizeof P->header, "Only in BEFORE (removed): %s%s%s, %.2f%% of before",
	         cnt, L->human ? "" : " ", L->human ? "" : L->count_name,
	         P->before_total ? 100.0 * (double)P->removed / (double)P->before_total : 0.0);
	L->height += P->height;
}

int flame__panel_compute(flame__panel *P, flame_tree *t, flame__layout *L,
                         const flame_render_opts *o, flame_err *err)
{
	memset(P, 0, sizeof *P);
	if (!L->differential || L->empty || (o->flags & FLAME_RENDER_NO_REMOVED))
		return 0;
	int rc = any_removed(t, err);
	if (rc <= 0)
		return rc;
	uint64_t before_total = flame_tree_total(t, 0), *w = NULL;
	rc = removed_tree(&P->own, t, err);
	if (!rc)
		rc = flame_tree_build(P->own, FLAME_ORDER_NAME, err);
	if (!rc)
		rc = removed_weights(P->own, &w, err);
	/* at the scale of a graph of BEFORE: a frame is as wide as its share of BEFORE, and one
	 * too narrow for a label is left out (its weight is in the header, and its name in the
	 * subtitle), so a sliver of noise is a line, not a band as tall as the graph */
	uint64_t total = w ? w[0] : 0, span = before_total > total ? before_total : total;
	double wpc = span ? (L->width - 2 * L->xpad) / (double)span : 0;
	double label = 3 * L->font_size * L->font_width + 3;
	double min_px = (o->flags & FLAME_RENDER_MINWIDTH_PERCENT) ? o->min_width / 100 * (L->width - 2 * L->xpad)
	                                                           : o->min_width;
	uint32_t maxd = 0;
	if (!rc && total)
		rc = place(P, P->own, w, (min_px > label ? min_px : label) / wpc, &maxd, err);
	free(w);
	if (rc || !total) {
		flame__panel_free(P);
		return rc;
	}
	P->removed = total;
	P->before_total = before_total;
	draw_band(P, L, wpc, maxd);
	return 0;
}

size_t flame__panel_info(const flame__layout *L, const flame__panel *P, size_t i, char *buf,
                         size_t cap)
{
	const flame__frame *f = &P->frames[i];
	char n[96], b[96], a[96];
	flame__format_count(L, f->value, n, sizeof n);
	flame__format_count(L, f->before, b, sizeof b);
	flame__format_count(L, P->after[i], a, sizeof a);
	double pct = P->before_total ? 100.0 * (double)f->value / (double)P->before_total : 0.0;
	const char *cn = L->human ? "" : L->count_name, *sp = L->human ? "" : " ";
	int k = P->after[i] ? snprintf(buf, cap, "%.*s (%s%s%s, %.2f%%; calls removed frames)",
	                               (int)flame__frame_display_len(f), f->name, n, sp, cn, pct)
	                    : snprintf(buf, cap, "%.*s (%s%s%s, %.2f%%; before %s, after %s)",
	                               (int)flame__frame_display_len(f), f->name, n, sp, cn, pct, b,
	                               a);
	return k > 0 ? (size_t)k : 0;
}
