/* The layout pass (see layout.h): walks the node tree once, skipping subtrees narrower
 * than --minwidth (so the work is proportional to what is drawn), and records each
 * surviving frame's rectangle, counts and colour. Within a frame its own (self) samples
 * come first and its children after them, left to right, as in flamegraph.pl (which
 * sorts "a 5" before "a;b 3"). --flamechart runs the same flow pass in input order:
 * the unique stacks in order of first appearance (the stack table keeps it), merging
 * a frame only with the same frame of the stack just before, so repeated identical
 * stacks that were not adjacent are summed where they first appeared. --sort weight
 * needs sibling totals first, so it builds the node tree (flame_tree_build). */
#include <iconv.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/diff-report.h"
#include "../core/err.h"
#include "../core/human.h"
#include "../core/tree.h"
#include "../core/version.h"
#include "layout.h"

static const flame_render_opts render_defaults = FLAME_RENDER_OPTS_INIT;
static const size_t render_sizes[] = {0, offsetof(flame_render_opts, diff_report),
                                      sizeof(flame_render_opts)};
static const struct flame__opts_layout render_layout = {"flame_render_opts", &render_defaults,
                                                        sizeof render_defaults, render_sizes,
                                                        FLAME_RENDER_OPTS_VERSION};

int flame_render_opts_init(flame_render_opts *o, unsigned version)
{
	return flame__opts_init(&render_layout, o, version);
}

int flame__render_opts_read(flame_render_opts *dst, const flame_render_opts *src, flame_err *err)
{
	return flame__opts_read(&render_layout, dst, src, err);
}

int flame_render_opts_check(const flame_render_opts *opts, flame_err *err)
{
	flame__rgb a, b;
	flame_render_opts cur;
	const flame_render_opts *o = &cur;
	int rc = flame__render_opts_read(&cur, opts, err);
	if (rc)
		return rc;
	if (flame__palette_lookup(o->colors ? o->colors : "hot") < 0)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "--colors: unknown palette '%s'", o->colors);
	if (flame__bgcolors(o->bgcolors, o->colors, &a, &b))
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "--bgcolors: unrecognized value '%s' (yellow blue green grey #rrggbb)",
		                  o->bgcolors);
	if (o->width < 1 || o->width > 1000000)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "--width must be between 1 and 1000000");
	if (o->frame_height < 1 || o->frame_height > 10000)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "--height must be between 1 and 10000");
	if (!(o->font_size > 0 && o->font_size < 10000) || !(o->font_width > 0 && o->font_width < 100))
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "--fontsize and --fontwidth must be positive");
	if (o->encoding && strcasecmp(o->encoding, "UTF-8") && strcasecmp(o->encoding, "UTF8")) {
		iconv_t cd = iconv_open("UTF-8", o->encoding);
		if (cd == (iconv_t)-1)
			return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
			                  "--encoding: unknown encoding '%s'", o->encoding);
		iconv_close(cd);
	}
	if (!(o->min_width >= 0) || !isfinite(o->min_width) || !isfinite(o->factor) ||
	    !(o->factor > 0) || !(o->total >= 0) || !isfinite(o->total))
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "--minwidth, --factor and --total must be non-negative numbers");
	return 0;
}

/* ---- growable frame array */

static flame__frame *push_frame(flame__layout *L, size_t *cap)
{
	if (flame__array_reserve_min(L->frames, *cap, L->count + 1, 1024))
		return NULL;
	flame__frame *f = &L->frames[L->count++];
	memset(f, 0, sizeof *f);
	return f;
}

/* The same without clearing, for the flow pass's hot loop: it sets every field. */
static inline flame__frame *push_frame_raw(flame__layout *L, size_t *cap)
{
	if (L->count == *cap)
		return push_frame(L, cap);
	return &L->frames[L->count++];
}

/* ---- geometry */

static void place(flame__layout *L, flame__frame *f)
{
	double x1 = L->xpad + (double)f->start * L->width_per_count;
	double x2 = L->xpad + (double)(f->start + f->value) * L->width_per_count;
	f->x = x1;
	f->w = x2 - x1;
	f->h = L->frame_height - 1;
	if (L->inverted)
		f->y = L->ypad1 + f->depth * L->frame_height;
	else
		f->y = L->height - L->ypad2 - (f->depth + 1) * L->frame_height + 1;
}

static double u2d(uint64_t v) { return (double)v; }

static double diff_delta(uint64_t after, uint64_t before)
{
	return after >= before ? u2d(after - before) : -u2d(before - after);
}

/* ---- the merged tree */

static int layout_tree(flame__layout *L, flame_tree *t, const flame_render_opts *o,
                       double min_time, flame_err *err)
{
	int rc = flame_tree_build(t, o->sort, err);
	if (rc)
		return rc;
	const int col = L->differential ? 1 : 0;
	size_t nn, cap = 0;
	const flame__node *nodes = flame__tree_nodes(t, &nn);
	const flame__intern *names = flame__tree_names(t);
	/* next[d]: where the next child at depth d starts; idx[d]: frame index at depth d */
	size_t ncap = 0, icap = 0;
	uint64_t *next = NULL;
	uint32_t *idx = NULL;
	flame_iter it;
	flame_iter_init(&it, t);
	flame_event ev;
	while ((ev = flame_iter_next(&it)) != FLAME_EVENT_DONE) {
		if (ev != FLAME_EVENT_ENTER)
			continue;
		const flame__node *nd = &nodes[it.node];
		uint32_t d = nd->depth;
		if (flame__array_reserve_min(next, ncap, (size_t)d + 2, 64) ||
		    flame__array_reserve_min(idx, icap, (size_t)d + 2, 64)) {
			rc = flame__err_nomem(err);
			goto done;
		}
		uint64_t value = nd->total[col];
		uint64_t start = d ? next[d] : 0;
		if (d)
			next[d] += value;
		if (d && u2d(value) < min_time) {
			flame_iter_skip_children(&it);
			continue;
		}
		next[d + 1] = start + nd->self[col];
		flame__frame *f = push_frame(L, &cap);
		if (!f) {
			rc = flame__err_nomem(err);
			goto done;
		}
		const flame__name *nm = flame__intern_get(names, nd->name);
		f->name = nm->ptr;
		f->name_len = nm->len;
		f->depth = d;
		f->parent = d ? idx[d - 1] : UINT32_MAX;
		f->start = start;
		f->value = value;
		f->before = L->differential ? nd->total[0] : value;
		if (L->differential)
			f->delta = o->diff_mode == FLAME_DIFF_TOTAL
			               ? diff_delta(nd->total[1], nd->total[0])
			               : diff_delta(nd->self[1], nd->self[0]);
		idx[d] = (uint32_t)(L->count - 1);
		if (d > L->max_depth)
			L->max_depth = d;
	}
done:
	free(next);
	free(idx);
	return rc;
}

/* ---- the merged tree without building it: a flow pass over the stacks in frame-by-frame
 * name order (flame__tree_frame_order, so `x;foo` and `x;foo-bar` stay apart and `foo` is one
 * frame however the input was ordered). Frames are appended when opened (parents first);
 * when one closes narrower than --minwidth, it and its descendants are exactly the tail of
 * the array, which is cut off. Memory is the drawn frames plus one open path; no node
 * array for the whole tree. */

struct open_frame {
	uint32_t idx;         /* in L->frames */
	uint64_t self[2];     /* weights of the stack ending here (unique stacks: at most one) */
	uint64_t total[2];
};

static void close_frame(flame__layout *L, flame__frame *f, const struct open_frame *of, int col,
                        int total_mode, double *maxdelta)
{
	f->value = of->total[col];
	f->before = L->differential ? of->total[0] : f->value;
	if (L->differential) {
		f->delta = total_mode ? diff_delta(of->total[1], of->total[0])
		                      : diff_delta(of->self[1], of->self[0]);
		if (fabs(f->delta) > *maxdelta)
			*maxdelta = fabs(f->delta);
	}
}

/* The flow pass's state: the open path (op[0] the root, op[d] the frame open at depth d). */
typedef struct flow_state {
	flame__layout *L;
	size_t cap;             /* of L->frames */
	struct open_frame *op;
	uint32_t depth;         /* of the deepest open frame */
	uint64_t now;           /* where the next stack starts, in counts */
	int col, total_mode;
	double min_time, mdelta;
} flow_state;

/* Close the open frames deeper than `keep`, adding each one's weight to its parent; one
 * narrower than --minwidth goes with its descendants (the array's tail). */
static inline void flow_close(flow_state *fl, uint32_t keep)
{
	flame__layout *L = fl->L;
	for (; fl->depth > keep; fl->depth--) {
		struct open_frame *of = &fl->op[fl->depth];
		flame__frame *f = &L->frames[of->idx];
		close_frame(L, f, of, fl->col, fl->total_mode, &fl->mdelta);
		fl->op[fl->depth - 1].total[0] += of->total[0];
		fl->op[fl->depth - 1].total[1] += of->total[1];
		if (u2d(f->value) < fl->min_time)
			L->count = of->idx; /* drop it and its descendants: the array's tail */
		else if (f->depth > L->max_depth)
			L->max_depth = f->depth;
	}
}

/* Open frames [same, open_to) of stack `st`, and add its weights at depth open_to. */
static inline int flow_open(flow_state *fl, const flame__stack *st, uint32_t same, uint32_t open_to)
{
	for (uint32_t d = same; d < open_to; d++) {
		flame__frame *f = push_frame_raw(fl->L, &fl->cap);
		if (!f)
			return FLAME_ENOMEM;
		/* the name id for now: names are looked up for the drawn frames only */
		f->name = NULL;
		f->name_len = st->ids[d];
		f->depth = d + 1;
		f->parent = fl->op[d].idx;
		f->start = fl->now;
		f->delta = 0; /* value, before, delta: at close; geometry and fill: later */
		struct open_frame *of = &fl->op[d + 1];
		of->idx = (uint32_t)(fl->L->count - 1);
		of->self[0] = of->self[1] = of->total[0] = of->total[1] = 0;
	}
	fl->depth = open_to;
	struct open_frame *leaf = &fl->op[open_to];
	if (open_to == st->depth) {
		leaf->self[0] += st->w[0];
		leaf->self[1] += st->w[1];
	}
	leaf->total[0] += st->w[0];
	leaf->total[1] += st->w[1];
	fl->now += st->w[fl->col];
	return 0;
}

/* The root frame, open at depth 0 (its name is the tree's root name). */
static int flow_root(flow_state *fl, flame_tree *t)
{
	flame__frame *root = push_frame(fl->L, &fl->cap);
	if (!root)
		return FLAME_ENOMEM;
	const flame__name *rn = flame__intern_get(flame__tree_names(t), flame__tree_root_name(t));
	root->name = rn->ptr;
	root->name_len = rn->len;
	root->parent = UINT32_MAX;
	memset(&fl->op[0], 0, sizeof fl->op[0]);
	return 0;
}

/* Frames shared by `st` and the stack after it, `nx` (the k+1-th in the order). */
static uint32_t shared_with_next(const flame__stack *st, const flame__stack *nx,
                                 const uint32_t *lcp, size_t k)
{
	if (!nx)
		return 0;
	if (lcp)
		return lcp[k + 1];
	uint32_t c = 0, n = nx->depth < st->depth ? nx->depth : st->depth;
	while (c < n && nx->ids[c] == st->ids[c])
		c++;
	return c;
}

static int layout_flow(flame__layout *L, flame_tree *t, const flame_render_opts *o,
                       double min_time, int chart, double *maxdelta, flame_err *err)
{
	flame__stacks *s;
	int rc = flame__tree_stacks(t, &s, err);
	if (rc)
		return rc;
	flow_state fl = {L, 0, NULL, 0, 0, L->differential ? 1 : 0, o->diff_mode == FLAME_DIFF_TOTAL,
	           min_time, 0};
	size_t maxd = 1;
	for (size_t k = 0; k < s->count; k++)
		if (s->v[k].depth > maxd)
			maxd = s->v[k].depth;
	/* a flame chart keeps the table's order (first appearance): no sort */
	flame__frame_order fo = {NULL, NULL, NULL};
	fl.op = malloc((maxd + 1) * sizeof *fl.op);
	if ((!chart && flame__tree_frame_order(t, &fo)) || !fl.op || flow_root(&fl, t)) {
		flame__frame_order_free(&fo);
		free(fl.op);
		return flame__err_nomem(err);
	}
	const uint32_t *order = fo.idx;
	/* st: the current stack; same: frames it shares with the one before, next_same:
	 * with the one after. Frames st opens at depths >= next_same close right after it,
	 * worth exactly its weight: when that is below --minwidth they are never opened
	 * (most frames of a big graph are such narrow tails). */
	const flame__stack *st = s->count ? &s->v[order ? order[0] : 0] : NULL;
	uint32_t same = 0;
	for (size_t k = 0; st && !rc; k++) {
		flow_close(&fl, same); /* the frames below the common prefix */
		const flame__stack *nx = k + 1 < s->count ? &s->v[order ? order[k + 1] : k + 1] : NULL;
		uint32_t next_same = shared_with_next(st, nx, fo.lcp, k), open_to = st->depth;
		if (next_same < open_to && u2d(st->w[fl.col]) < min_time) {
			open_to = next_same > same ? next_same : same;
			/* their deltas (self: the leaf's; total: each one's) are all this one */
			if (L->differential && fabs(diff_delta(st->w[1], st->w[0])) > fl.mdelta)
				fl.mdelta = fabs(diff_delta(st->w[1], st->w[0]));
		}
		if (flow_open(&fl, st, same, open_to))
			rc = flame__err_nomem(err);
		st = nx;
		same = next_same;
	}
	if (!rc) {
		flow_close(&fl, 0); /* all but the root, then the root */
		double root_delta = 0;
		close_frame(L, &L->frames[0], &fl.op[0], fl.col, fl.total_mode, &root_delta);
		*maxdelta = fl.mdelta;
		for (size_t i = 1; i < L->count; i++) {
			const flame__name *nm = flame__intern_get(flame__tree_names(t), L->frames[i].name_len);
			L->frames[i].name = nm->ptr;
			L->frames[i].name_len = nm->len;
		}
	}
	flame__frame_order_free(&fo);
	free(fl.op);
	return rc;
}

/* ---- the whole pass */

/* The report of o that tested this tree's changes, or NULL. */
static const flame_diff_report *tested(const flame_render_opts *o, flame_tree *t)
{
	const flame_diff_report *r = o->diff_report;
	return r && r->tree == t && r->stats && flame_tree_is_differential(t) ? r : NULL;
}

const char *flame__diff_subtitle(const flame_render_opts *o, flame_tree *t, char *buf,
                                 size_t cap)
{
	const char *user = o->subtitle && *o->subtitle ? o->subtitle : NULL;
	const flame_diff_report *r = tested(o, t);
	if (!r)
		return user;
	snprintf(buf, cap, "%.*s%sWhite: no change, or within noise (q > %g after FDR; %u run%s "
	         "before, %u after); tooltips give each change's %g%% interval",
	         user ? (int)(cap / 2) : 0, user ? user : "", user ? " | " : "", r->alpha, r->runs[0],
	         r->runs[0] == 1 ? "" : "s", r->runs[1], 100 * (1 - r->alpha));
	return buf;
}

const flame_diff_stat *flame__name_stat(const flame_diff_report *rep, const char *name,
                                        size_t len)
{
	if (!rep)
		return NULL;
	uint32_t id = flame__intern_find(flame__tree_names(rep->tree), name, len);
	if (id == FLAME__ID_NONE || id >= rep->n_ids || rep->row_of[id] == UINT32_MAX)
		return NULL;
	return &rep->stats[rep->row_of[id]];
}

/* What the options and the tree say before any frame is placed: texts, sizes, fonts. */
static void layout_texts(flame__layout *L, flame_tree *t, const flame_render_opts *o)
{
	L->differential = flame_tree_is_differential(t);
	L->inverted = (o->flags & FLAME_RENDER_INVERTED) != 0;
	L->negate = (o->flags & FLAME_RENDER_NEGATE) != 0;
	L->diff_per = o->diff_per;
	L->font_type = o->font_type ? o->font_type : "Verdana";
	L->font_size = o->font_size;
	L->font_width = o->font_width;
	L->frame_height = o->frame_height;
	L->width = o->width;
	L->xpad = 10;
	L->ypad1 = o->font_size * 3;
	L->ypad2 = o->font_size * 2 + 10;
	L->report = tested(o, t);
	L->stat_total = o->diff_mode == FLAME_DIFF_TOTAL;
	L->subtitle = flame__diff_subtitle(o, t, L->legend, sizeof L->legend);
	if (L->subtitle)
		L->ypad1 += o->font_size * 2;
	L->title = o->title && *o->title ? o->title
	           : (o->flags & FLAME_RENDER_FLAMECHART) ? "Flame Chart"
	           : L->inverted                          ? "Icicle Graph"
	                                                  : "Flame Graph";
	L->notes = o->notes && *o->notes ? o->notes : NULL;
	L->count_name = o->count_name       ? o->count_name
	                : flame_tree_count_name(t) ? flame_tree_count_name(t)
	                                           : "samples";
	/* a unit the user named (--countname) is printed as given, flamegraph.pl's way */
	L->human = !o->count_name && flame__unit_kind_of(L->count_name, NULL) != FLAME__UNIT_COUNT;
	L->name_type = o->name_type ? o->name_type : "Function:";
	L->search_color = o->search_color ? o->search_color : "rgb(230,0,230)";
	L->scale = flame_tree_decimals(t);
	L->factor = o->factor;
	L->title_x = floor(L->width / 2);
	L->title_y = o->font_size * 2;
	L->subtitle_y = o->font_size * 4;
	flame__bgcolors(o->bgcolors, o->colors, &L->bg_top, &L->bg_bottom);
}

/* The width the graph spans, in counts: the tree's total, or --total when it is larger. */
static void layout_timemax(flame__layout *L, uint64_t actual, const flame_render_opts *o)
{
	L->timemax = actual;
	if (o->total > 0) {
		double want = o->total * (double)flame__pow10[L->scale];
		if (want >= 18446744073709551615.0)
			want = 18446744073709551615.0;
		if ((uint64_t)want < actual)
			flame__warn(o->warn, o->warn_ud, "render-total-too-small", "", 0,
			            "--total %g is less than the actual total, so ignored", o->total);
		else
			L->timemax = (uint64_t)want;
	}
}

/* Each frame's rectangle and fill. A differential graph's hues are scaled to the largest
 * delta: over every node of a built tree, drawn or not, as flamegraph.pl takes it over all
 * stacks (`maxdelta` already holds the flow pass's). */
static int layout_colors(flame__layout *L, flame_tree *t, const flame_render_opts *o,
                         int tree_built, double maxdelta, flame_err *err)
{
	if (L->differential && tree_built) {
		size_t nn;
		const flame__node *nodes = flame__tree_nodes(t, &nn);
		for (size_t i = 1; i < nn; i++) {
			const flame__node *nd = &nodes[i];
			double dl = o->diff_mode == FLAME_DIFF_TOTAL ? diff_delta(nd->total[1], nd->total[0])
			                                             : diff_delta(nd->self[1], nd->self[0]);
			maxdelta = fmax(maxdelta, fabs(dl));
		}
	}
	flame__colorer cr;
	flame__colorer_init(&cr, o->colors, o->flags, o->seed, o->palette);
	const int negate = (o->flags & FLAME_RENDER_NEGATE) != 0;
	const double min_delta = o->diff_min_delta * (double)flame__pow10[L->scale]; /* in tree units */
	for (size_t i = 0; i < L->count; i++) {
		flame__frame *f = &L->frames[i];
		place(L, f);
		if (f->name_len == 2 && f->name[0] == '-' && f->name[1] == '-')
			flame__color_name(&cr, f->name, f->name_len, &f->fill);
		else if (f->name_len == 1 && f->name[0] == '-')
			flame__color_name(&cr, f->name, f->name_len, &f->fill);
		else if (L->differential) {
			const flame_diff_stat *st = f->depth ? flame__name_stat(L->report, f->name, f->name_len)
			                                     : NULL;
			int noise = fabs(f->delta) < min_delta || (st && !st->significant[L->stat_total]);
			f->fill = flame__color_delta(noise ? 0 : f->delta, maxdelta, negate);
		}
		else if (flame__color_name(&cr, f->name, f->depth ? f->name_len : 0, &f->fill))
			/* the root is coloured as flamegraph.pl's nameless root frame */
			return flame__err_nomem(err);
	}
	return 0;
}

int flame__layout_compute(flame__layout *L, flame_tree *t, const flame_render_opts *o,
                          flame_err *err)
{
	flame_render_opts cur; /* the caller's version: later fields (diff_report) defaulted */
	memset(L, 0, sizeof *L);
	int rc = flame__render_opts_read(&cur, o, err);
	if (rc || (rc = flame_render_opts_check(&cur, err)))
		return rc;
	o = &cur;
	layout_texts(L, t, o);
	uint64_t actual = flame_tree_total(t, L->differential ? 1 : 0);
	layout_timemax(L, actual, o);
	if (actual == 0) {
		L->empty = 1;
		L->height = o->font_size * 5; /* flamegraph.pl's error image */
		L->details_y = L->height - L->ypad2 / 2;
		return 0;
	}
	L->width_per_count = (L->width - 2 * L->xpad) / (double)L->timemax;
	double min_time = (o->flags & FLAME_RENDER_MINWIDTH_PERCENT)
	                      ? (double)L->timemax * o->min_width / 100
	                      : o->min_width / L->width_per_count;
	double maxdelta = 0;
	int chart = (o->flags & FLAME_RENDER_FLAMECHART) != 0;
	/* the flow pass for the usual order and for a chart; --sort weight builds the tree */
	int tree_built = !chart && o->sort != FLAME_ORDER_NAME;
	if (!tree_built)
		rc = layout_flow(L, t, o, min_time, chart, &maxdelta, err);
	else
		rc = layout_tree(L, t, o, min_time, err);
	if (!rc) {
		L->height = (L->max_depth + 1) * L->frame_height + L->ypad1 + L->ypad2;
		L->details_y = L->height - L->ypad2 / 2;
		rc = layout_colors(L, t, o, tree_built, maxdelta, err);
	}
	if (rc)
		flame__layout_free(L);
	return rc;
}

void flame__layout_free(flame__layout *L)
{
	free(L->frames);
	L->frames = NULL;
	L->count = 0;
}

/* ---- text */

size_t flame__layout_fit_chars(const flame__layout *L, double w)
{
	double c = w / (L->font_size * L->font_width);
	return c > 0 ? (size_t)c : 0;
}

size_t flame__frame_display_len(const flame__frame *f)
{
	size_t n = f->name_len;
	const char *p = f->name;
	if (n >= 4 && p[n - 4] == '_' && p[n - 3] == '[' && p[n - 1] == ']' &&
	    (p[n - 2] == 'k' || p[n - 2] == 'w' || p[n - 2] == 'i' || p[n - 2] == 'j'))
		n -= 4;
	return n;
}

size_t flame__frame_label(const flame__frame *f, size_t max_chars, char *buf, size_t cap)
{
	size_t n = flame__frame_display_len(f);
	buf[0] = '\0';
	if (max_chars < 3 || cap < 4)
		return 0;
	/* walk code points (continuation bytes do not count) */
	size_t chars = 0, cut = n, keep_end = 0;
	for (size_t i = 0; i < n; i++) {
		if (((unsigned char)f->name[i] & 0xc0) == 0x80)
			continue;
		if (chars == max_chars - 2)
			keep_end = i;
		if (chars == max_chars) {
			cut = i;
			break;
		}
		chars++;
	}
	size_t len;
	if (cut < n) { /* longer than max_chars: keep max_chars - 2 and add ".." */
		len = keep_end;
		if (len + 3 > cap)
			len = cap - 3;
		memcpy(buf, f->name, len);
		buf[len++] = '.';
		buf[len++] = '.';
	} else {
		len = n < cap ? n : cap - 1;
		memcpy(buf, f->name, len);
	}
	buf[len] = '\0';
	return len;
}

size_t flame__format_count(const flame__layout *L, uint64_t v, char *buf, size_t cap)
{
	char tmp[64];
	if (L->human)
		return flame__human(buf, cap, (double)v / (double)flame__pow10[L->scale] * L->factor,
		                    L->count_name, 0);
	if (L->factor == 1.0) {
		uint64_t p = flame__pow10[L->scale];
		snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)(v / p));
		size_t o = flame__put_commas(buf, cap, tmp);
		uint64_t frac = v % p;
		if (frac && o + L->scale + 2 < cap) {
			int k = snprintf(buf + o, cap - o, ".%0*llu", (int)L->scale, (unsigned long long)frac);
			o += (size_t)k;
			while (buf[o - 1] == '0')
				buf[--o] = '\0';
		}
		return o;
	}
	double x = (double)v / (double)flame__pow10[L->scale] * L->factor;
	double r = floor(x + 0.5);
	if (fabs(x - r) < 1e-9 * fmax(1, x) || L->scale == 0) {
		snprintf(tmp, sizeof tmp, "%.0f", x);
		return flame__put_commas(buf, cap, tmp);
	}
	snprintf(tmp, sizeof tmp, "%.0f", floor(x));
	size_t o = flame__put_commas(buf, cap, tmp);
	int k = snprintf(buf + o, cap > o ? cap - o : 0, "%.*f", (int)(L->scale > 2 ? L->scale : 2),
	                 x - floor(x));
	/* "0.25" -> ".25" */
	if (k > 1 && o + 1 < cap) {
		memmove(buf + o, buf + o + 1, (size_t)k);
		o += (size_t)k - 1;
		while (o > 0 && buf[o - 1] == '0')
			buf[--o] = '\0';
		if (o > 0 && buf[o - 1] == '.')
			buf[--o] = '\0';
	}
	return o;
}

size_t flame__frame_info(const flame__layout *L, const flame__frame *f, char *buf, size_t cap)
{
	char cnt[96];
	flame__format_count(L, f->value, cnt, sizeof cnt);
	double pct = L->timemax ? 100.0 * (double)f->value / (double)L->timemax : 0;
	size_t dn = f->depth == 0 ? 3 : flame__frame_display_len(f);
	const char *name = f->depth == 0 ? "all" : f->name;
	int n;
	const char *cn = L->human ? "" : L->count_name, *sp = L->human ? "" : " ";
	if (f->depth == 0) /* flamegraph.pl: the root is always 100% */
		n = snprintf(buf, cap, "%.*s (%s%s%s, 100%%", (int)dn, name, cnt, sp, cn);
	else
		n = snprintf(buf, cap, "%.*s (%s%s%s, %.2f%%", (int)dn, name, cnt, sp, cn, pct);
	if (n < 0)
		return 0;
	size_t len = (size_t)n;
	if (L->differential) {
		char b[96], a[96];
		double d = f->delta;
		if (L->negate && d != 0)
			d = -d;
		double dp = L->timemax ? 100.0 * d / (double)L->timemax : 0;
		flame__format_count(L, f->before, b, sizeof b);
		flame__format_count(L, f->value, a, sizeof a);
		n = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0,
		             "; %s%.2f%%; before %s, after %s", d > 0 ? "+" : "", dp, b, a);
		if (n > 0)
			len += (size_t)n;
		if (L->diff_per > 0) {
			/* per request amounts are fractions of counts: three significant digits in
			 * the tree's unit, never "3.633e+06" */
			double p = (double)flame__pow10[L->scale] * L->diff_per;
			const char *u = L->human ? L->count_name : NULL;
			flame__human(b, sizeof b, (double)f->before * L->factor / p, u, 0);
			flame__human(a, sizeof a, (double)f->value * L->factor / p, u, 0);
			n = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0,
			             "; per request before %s, after %s", b, a);
			if (n > 0)
				len += (size_t)n;
		}
		const flame_diff_stat *st = f->depth ? flame__name_stat(L->report, f->name, f->name_len)
		                                     : NULL;
		if (st) { /* the function's change in % of before, with its interval */
			int k = L->stat_total, sg = L->negate ? -1 : 1;
			double lo = sg > 0 ? st->low[k] : -st->high[k], hi = sg > 0 ? st->high[k] : -st->low[k];
			n = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0,
			             "; %s %+.2f%% [%+.2f%%, %+.2f%%] q=%.2g%s", k ? "total" : "self",
			             sg * st->change[k], lo, hi, st->q[k],
			             st->significant[k] ? "" : ", within noise");
			if (n > 0)
				len += (size_t)n;
		}
		n = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, ")");
	} else {
		n = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, ")");
	}
	return len + (n > 0 ? (size_t)n : 0);
}
