/* The diff report: one row per function of a differential tree (self and total, before
 * and after), the attribution of a caller's change to the callee that carries it, and the
 * regression gate that names what grew. Sits in xform/ beside the diff that makes the tree;
 * the --top tables that print a report are write/report.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diff-report.h"
#include "../core/err.h"
#include "../core/heap.h"
#include "../core/human.h"
#include "../core/intern.h"
#include "../core/tree.h"
#include "diff.h"

/* ---- per-function report */

static int report_rows(flame_tree *t, flame_diff_row **rows_out, size_t *n_out, flame_err *err)
{
	*rows_out = NULL;
	*n_out = 0;
	flame__stacks *st;
	int rc = flame__tree_stacks(t, &st, err);
	if (rc)
		return rc;
	const flame__intern *names = flame__tree_names(t);
	uint32_t nn = names->count;
	uint32_t *row_of = malloc((nn ? nn : 1) * sizeof *row_of);
	size_t *stamp = malloc((nn ? nn : 1) * sizeof *stamp);
	flame_diff_row *rows = malloc((nn ? nn : 1) * sizeof *rows);
	if (!row_of || !stamp || !rows) {
		free(row_of);
		free(stamp);
		free(rows);
		return flame__err_nomem(err);
	}
	size_t n = 0;
	for (uint32_t id = 0; id < nn; id++) {
		row_of[id] = UINT32_MAX;
		stamp[id] = SIZE_MAX;
	}
	for (size_t k = 0; k < st->count; k++) {
		const flame__stack *s = &st->v[k];
		for (uint32_t i = 0; i < s->depth; i++) {
			uint32_t id = s->ids[i];
			if (row_of[id] == UINT32_MAX) {
				const flame__name *nm = flame__intern_get(names, id);
				row_of[id] = (uint32_t)n;
				rows[n++] = (flame_diff_row){{nm->ptr, nm->len}, {0, 0}, {0, 0}, SIZE_MAX};
			}
			flame_diff_row *r = &rows[row_of[id]];
			if (stamp[id] != k) { /* once per stack, however deep the recursion */
				stamp[id] = k;
				r->total[0] += s->w[0];
				r->total[1] += s->w[1];
			}
			if (i + 1 == s->depth) {
				r->self[0] += s->w[0];
				r->self[1] += s->w[1];
			}
		}
	}
	free(row_of);
	free(stamp);
	*rows_out = rows;
	*n_out = n;
	return 0;
}

/* ---- attribution: callers whose total change lies inside one callee */

#define MAX_CAND 512

static double total_delta(const flame_diff_row *r)
{
	return r->total[1] >= r->total[0] ? (double)(r->total[1] - r->total[0])
	                                  : -(double)(r->total[0] - r->total[1]);
}

/* Larger changes first, ties by name: the same attribution whatever the order of the
 * stack table. */
static int order_abs_delta(const flame_diff_row *rows, size_t a, size_t b)
{
	double x = total_delta(&rows[a]), y = total_delta(&rows[b]);
	x = x < 0 ? -x : x;
	y = y < 0 ? -y : y;
	if (x != y)
		return x > y ? -1 : 1;
	const flame_diff_row *p = &rows[a], *q = &rows[b];
	return flame__bytes_cmp(p->name.ptr, p->name.len, q->name.ptr, q->name.len);
}

static int cmp_abs_delta(const void *a, const void *b, void *ud)
{
	return order_abs_delta(ud, *(const size_t *)a, *(const size_t *)b);
}

/* The working state of one attribution: k candidates (the largest changes) and, for each
 * pair, how often they share a stack and which is deeper. */
typedef struct attrib {
	flame_diff_row *rows;
	size_t *cand;         /* candidate -> row */
	int32_t *cand_of;     /* name id -> candidate, or -1 */
	size_t k;
	uint32_t *cnt;        /* candidate -> stacks it is in */
	uint32_t *together;   /* [x * k + y] -> stacks holding both */
	int8_t *deeper;       /* [x * k + y] -> y deeper than x where first seen together (-1: not yet) */
	uint32_t *pos;        /* candidate -> its deepest position in the current stack */
	size_t *stamp, *present, *cur;
	uint32_t *present_pos, *cur_pos;
} attrib;

static void attrib_free(attrib *A)
{
	free(A->cand);
	free(A->cand_of);
	free(A->cnt);
	free(A->together);
	free(A->deeper);
	free(A->pos);
	free(A->stamp);
	free(A->present);
	free(A->cur);
	free(A->present_pos);
	free(A->cur_pos);
}

/* `a` comes after `b` in cmp_abs_delta's order: the heap's top is the smallest change kept */
static inline int smaller_change(const flame_diff_row *rows, size_t a, size_t b)
{
	return order_abs_delta(rows, a, b) > 0;
}

FLAME__HEAP(kept, flame_diff_row, smaller_change)

/* Keep of cand[0..k) the MAX_CAND largest changes, in a heap of rows: choosing them must not
 * sort every changed row (thousands) for the few hundred it keeps. The new k. */
static size_t keep_largest(size_t *cand, size_t k, const flame_diff_row *rows)
{
	size_t h[MAX_CAND];
	flame__heap hp = {h, 0};
	for (size_t i = 0; i < k; i++) {
		if (hp.n == MAX_CAND) {
			if (!smaller_change(rows, h[0], cand[i]))
				continue;
			kept_pop(&hp, rows);
		}
		kept_push(&hp, rows, cand[i]);
	}
	memcpy(cand, h, hp.n * sizeof *h);
	return hp.n;
}

/* The candidates: rows whose total changed by more than `limit`, the MAX_CAND largest. */
static int attrib_init(attrib *A, const flame__intern *names, flame_diff_row *rows, size_t n,
                       double limit, unsigned which, flame_err *err)
{
	size_t nn = names->count ? names->count : 1, k = 0;
	A->rows = rows;
	A->cand = malloc((n ? n : 1) * sizeof *A->cand);
	A->cand_of = malloc(nn * sizeof *A->cand_of);
	if (!A->cand || !A->cand_of)
		return flame__err_nomem(err);
	for (size_t i = 0; i < n; i++) {
		double d = total_delta(&rows[i]);
		rows[i].inside = SIZE_MAX;
		if ((d < 0 ? -d : d) > limit &&
		    (which != FLAME_DIFF_ATTRIBUTE_REMOVED || rows[i].total[1] == 0))
			A->cand[k++] = i;
	}
	if (k > MAX_CAND)
		k = keep_largest(A->cand, k, rows);
	qsort_r(A->cand, k, sizeof *A->cand, cmp_abs_delta, rows);
	A->k = k = k > MAX_CAND ? MAX_CAND : k;
	for (size_t i = 0; i < nn; i++)
		A->cand_of[i] = -1;
	for (size_t c = 0; c < k; c++) {
		const flame_str *nm = &rows[A->cand[c]].name;
		uint32_t id = flame__intern_find(names, nm->ptr, nm->len);
		if (id != FLAME__ID_NONE)
			A->cand_of[id] = (int32_t)c;
	}
	size_t k1 = k ? k : 1, kk = k * k + 1;
	A->cnt = calloc(k1, sizeof *A->cnt);
	A->together = calloc(kk, sizeof *A->together);
	A->deeper = malloc(kk);
	A->pos = malloc(k1 * sizeof *A->pos);
	A->stamp = malloc(k1 * sizeof *A->stamp);
	A->present = malloc(k1 * sizeof *A->present);
	A->cur = malloc(k1 * sizeof *A->cur);
	A->present_pos = malloc(k1 * sizeof *A->present_pos);
	A->cur_pos = malloc(k1 * sizeof *A->cur_pos);
	if (!A->cnt || !A->together || !A->deeper || !A->pos || !A->stamp || !A->present ||
	    !A->cur || !A->present_pos || !A->cur_pos)
		return flame__err_nomem(err);
	memset(A->deeper, -1, k * k);
	for (size_t c = 0; c < k; c++)
		A->stamp[c] = SIZE_MAX;
	return 0;
}

/* The candidates of stack `si` into A->cur (first-seen order) with their deepest positions;
 * their count. */
static size_t stack_candidates(attrib *A, const flame__stack *st, size_t si)
{
	size_t nq = 0;
	for (uint32_t i = 0; i < st->depth; i++) {
		int32_t c = A->cand_of[st->ids[i]];
		if (c < 0)
			continue;
		if (A->stamp[c] != si) {
			A->stamp[c] = si;
			A->cur[nq++] = (size_t)c;
		}
		A->pos[c] = i; /* the deepest occurrence */
	}
	for (size_t a = 0; a < nq; a++)
		A->cur_pos[a] = A->pos[A->cur[a]];
	return nq;
}

/* Count a run of `run` stacks holding the np candidates of A->present. */
static void count_run(attrib *A, size_t np, size_t run)
{
	size_t k = A->k;
	for (size_t a = 0; a < np; a++) {
		size_t x = A->present[a];
		A->cnt[x] += (uint32_t)run;
		for (size_t b = 0; b < np; b++) {
			size_t y = A->present[b];
			if (x == y)
				continue;
			A->together[x * k + y] += (uint32_t)run;
			if (A->deeper[x * k + y] < 0)
				A->deeper[x * k + y] = A->present_pos[b] > A->present_pos[a];
		}
	}
}

/* Neighbouring stacks (sorted tables) often hold the same candidates at the same depths:
 * such a run is counted once, times its length (the first-seen order is the same). */
static void count_stacks(attrib *A, const flame__stacks *ts)
{
	size_t np = 0, run = 0;
	for (size_t si = 0; si <= ts->count && A->k > 1; si++) {
		size_t nq = 0;
		if (si < ts->count) {
			nq = stack_candidates(A, &ts->v[si], si);
			if (run && nq == np && !memcmp(A->cur, A->present, np * sizeof *A->cur) &&
			    !memcmp(A->cur_pos, A->present_pos, np * sizeof *A->cur_pos)) {
				run++;
				continue;
			}
		}
		if (run)
			count_run(A, np, run);
		memcpy(A->present, A->cur, nq * sizeof *A->cur);
		memcpy(A->present_pos, A->cur_pos, nq * sizeof *A->cur_pos);
		np = nq;
		run = 1;
	}
}

/* Each candidate's change goes to the largest callee that changed the same way, is only
 * ever called under it, and carries all of it but `limit`; chains resolve to their end. */
static void choose_callees(attrib *A, double limit)
{
	size_t k = A->k;
	flame_diff_row *rows = A->rows;
	for (size_t x = 0; x < k; x++) {
		double dx = total_delta(&rows[A->cand[x]]);
		size_t best = SIZE_MAX;
		double best_abs = 0;
		for (size_t y = 0; y < k; y++) {
			double dy = total_delta(&rows[A->cand[y]]);
			if (y == x || (dx > 0) != (dy > 0) || A->together[x * k + y] != A->cnt[y])
				continue; /* not the same direction, or y is also called elsewhere */
			if (A->cnt[x] == A->cnt[y] && A->deeper[x * k + y] != 1)
				continue; /* always together: only the deeper one carries the change */
			double ay = dy < 0 ? -dy : dy;
			if (ay > best_abs) {
				best_abs = ay;
				best = y;
			}
		}
		if (best != SIZE_MAX && (dx < 0 ? -dx : dx) - best_abs <= limit)
			rows[A->cand[x]].inside = A->cand[best];
	}
	/* chains (main -> serve -> handle -> hot) resolve to their end */
	for (size_t x = 0; x < k; x++) {
		flame_diff_row *r = &rows[A->cand[x]];
		for (size_t hops = 0; r->inside != SIZE_MAX && rows[r->inside].inside != SIZE_MAX &&
		                      hops < k;
		     hops++)
			r->inside = rows[r->inside].inside;
	}
}

static int attribute(flame_tree *t, flame_diff_row *rows, size_t n, double limit, unsigned which,
                     flame_err *err)
{
	flame__stacks *ts;
	int rc = flame__tree_stacks(t, &ts, err);
	if (rc)
		return rc;
	attrib A = {0};
	rc = attrib_init(&A, flame__tree_names(t), rows, n, limit, which, err);
	if (!rc) {
		count_stacks(&A, ts);
		choose_callees(&A, limit);
	}
	attrib_free(&A);
	return rc;
}

/* ---- the report object */

int flame_diff_report_new(flame_diff_report **out, flame_tree *t, flame_err *err)
{
	flame_diff_report *r = calloc(1, sizeof *r);
	if (!r)
		return flame__err_nomem(err);
	int rc = report_rows(t, &r->rows, &r->n, err);
	if (rc) {
		free(r);
		return rc;
	}
	r->tree = t;
	*out = r;
	return 0;
}

void flame_diff_report_free(flame_diff_report *r)
{
	if (!r)
		return;
	free(r->rows);
	free(r->stats);
	free(r->row_of);
	free(r);
}

size_t flame_diff_report_count(const flame_diff_report *r)
{
	return r->n;
}

const flame_diff_row *flame_diff_report_row(const flame_diff_report *r, size_t i)
{
	return i < r->n ? &r->rows[i] : NULL;
}

int flame_diff_report_attribute(flame_diff_report *r, double limit, unsigned which,
                                flame_err *err)
{
	return attribute(r->tree, r->rows, r->n, limit, which, err);
}

/* ---- statistics of a tree alone: its columns are one run per side */

int flame_diff_report_stats(flame_diff_report *rep, const flame_diff_opts *opts,
                            uint64_t before_raw, double alpha, flame_err *err)
{
	flame_diff_opts o;
	int rc = flame__diff_opts_read(&o, opts, err);
	if (rc)
		return rc;
	flame__stat_run run[2];
	for (int c = 0; c < 2; c++) {
		uint64_t u = 0;
		run[c] = (flame__stat_run){rep->tree, c, 1, 0, (double)flame_tree_total(rep->tree, c), 0};
		/* samples counted as they are: one weighs 1 (or the profile's period, when it
		 * counted samples of one), times what normalized BEFORE */
		const flame__units *un = flame__tree_units(rep->tree);
		double one = un->with_samples && un->period ? (double)un->period : 0;
		if (flame__unit_kind_of(flame_tree_count_name(rep->tree), NULL) == FLAME__UNIT_COUNT)
			one = 1;
		if (one > 0)
			run[c].w = one * (c || !before_raw ? 1 : run[c].total / (double)before_raw);
		if (o.norm == FLAME_DIFF_NORM_TOTAL && run[c].total > 0)
			run[c].unit = run[c].total, run[c].share = 1;
		if (o.norm == FLAME_DIFF_NORM_FRAME && o.frame_regex) {
			if ((rc = flame__diff_frame_weight(rep->tree, c, o.frame_regex, &u, err)))
				return rc;
			if (u)
				run[c].unit = (double)u, run[c].share = 1;
		}
	}
	flame__stat_run *const runs[2] = {&run[0], &run[1]};
	const size_t n[2] = {1, 1};
	return flame__diff_stats(rep, runs, n, alpha, err);
}

const flame_diff_stat *flame_diff_report_stat(const flame_diff_report *rep, size_t i)
{
	return rep->stats && i < rep->n ? &rep->stats[i] : NULL;
}

int flame_diff_report_runs(const flame_diff_report *rep, unsigned runs[2], double *alpha)
{
	if (!rep->stats)
		return 0;
	runs[0] = rep->runs[0];
	runs[1] = rep->runs[1];
	if (alpha)
		*alpha = rep->alpha;
	return 1;
}

/* ---- the gate */

static double delta_of(const uint64_t v[2])
{
	return v[1] >= v[0] ? (double)(v[1] - v[0]) : -(double)(v[0] - v[1]);
}

/* A row's growth of self (k 0) or total (k 1) in % of the before total: the statistics'
 * change when there are any (0 unless significant), else the counts'. */
static double growth_pct(const flame_diff_row *r, const flame_diff_stat *st, int k, double t0)
{
	if (st)
		return st->significant[k] ? st->change[k] : 0;
	double d = delta_of(k ? r->total : r->self);
	return t0 > 0 ? 100.0 * d / t0 : d > 0 ? 100.0 : 0.0;
}

typedef struct gate_ctx {
	const flame_diff_row *rows;
	const flame_diff_stat *stats; /* NULL: none */
	double t0;
} gate_ctx;

/* Offenders by their larger growth (self or total), largest first, ties by name: the same
 * report however the inputs were ordered or read. */
static double growth(const gate_ctx *g, size_t i)
{
	const flame_diff_row *r = &g->rows[i];
	const flame_diff_stat *st = g->stats ? &g->stats[i] : NULL;
	double s = growth_pct(r, st, 0, g->t0);
	double t = r->inside == SIZE_MAX ? growth_pct(r, st, 1, g->t0) : s;
	return s > t ? s : t;
}

static int cmp_growth(const void *pa, const void *pb, void *ud)
{
	const gate_ctx *g = ud;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const flame_diff_row *x = &g->rows[a], *y = &g->rows[b];
	double gx = growth(g, a), gy = growth(g, b);
	if (gx != gy)
		return gx > gy ? -1 : 1;
	return flame__bytes_cmp(x->name.ptr, x->name.len, y->name.ptr, y->name.len);
}

/* The offender line of row `i` into `line` (its length; 0 when it did not grow past
 * limit_pct, significantly when there are statistics). */
static int offense(const gate_ctx *g, size_t i, double limit_pct, unsigned scale,
                   const char *unit, char *line, size_t cap)
{
	const flame_diff_row *r = &g->rows[i];
	const flame_diff_stat *st = g->stats ? &g->stats[i] : NULL;
	int len = snprintf(line, cap, "%.*s: ", (int)(r->name.len > 400 ? 400 : r->name.len),
	                   r->name.ptr);
	int any = 0;
	for (int k = 0; k < 2; k++) {
		const uint64_t *v = k ? r->total : r->self;
		double pct = growth_pct(r, st, k, g->t0);
		if (!(delta_of(v) > 0 || st) || !(pct > 0 && pct > limit_pct) ||
		    (k && r->inside != SIZE_MAX))
			continue;
		char b[64], af[64], dd[64];
		flame_amount_print(b, sizeof b, v[0], scale, unit);
		flame_amount_print(af, sizeof af, v[1], scale, unit);
		flame_amount_print_delta(dd, sizeof dd, v[0], v[1], scale, unit);
		int m = st ? snprintf(line + len, cap - (size_t)len,
		                      "%s%s %s -> %s (%s, %+.2f%% of the before total [%+.2f%%, %+.2f%%], "
		                      "q=%.2g)", any ? "; " : "", k ? "total" : "self", b, af, dd, pct,
		                      st->low[k], st->high[k], st->q[k])
		           : snprintf(line + len, cap - (size_t)len,
		                      "%s%s %s -> %s (%s, %.2f%% of the before total)", any ? "; " : "",
		                      k ? "total" : "self", b, af, dd, pct);
		if (m > 0)
			len += m < (int)cap - len ? m : (int)cap - len - 1;
		any = 1;
	}
	return any ? len : 0;
}

int flame_diff_report_gate(const flame_diff_report *rep, double limit_pct, flame_text_fn fn,
                           void *ud, flame_err *err)
{
	flame_tree *t = rep->tree;
	double t0 = (double)flame_tree_total(t, 0);
	double limit = limit_pct / 100.0 * t0;
	size_t n = rep->n;
	/* a copy, attributed at the gate's limit: a caller that grew only because a named callee
	 * grew is not named again */
	flame_diff_row *rows = malloc((n ? n : 1) * sizeof *rows);
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);
	int bad = 0, rc = 0;
	if (!rows || !idx) {
		rc = flame__err_nomem(err);
		goto done;
	}
	memcpy(rows, rep->rows, n * sizeof *rows);
	if ((rc = attribute(t, rows, n, limit, FLAME_DIFF_ATTRIBUTE_ALL, err)))
		goto done;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	gate_ctx g = {rows, rep->stats, t0};
	qsort_r(idx, n, sizeof *idx, cmp_growth, &g);
	for (size_t i = 0; i < n && !rc; i++) {
		char line[1024];
		int len = offense(&g, idx[i], limit_pct, flame_tree_decimals(t),
		                  flame_tree_count_name(t), line, sizeof line);
		if (len && (rc = fn(ud, line, (size_t)len)))
			rc = rc < 0 ? rc : -rc;
		bad += len > 0;
	}
done:
	free(rows);
	free(idx);
	return rc ? rc : bad;
}
