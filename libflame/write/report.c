/* Text for people about a diff: the tables of the functions whose self and total cost grew
 * and shrank most. They read a diff report (core/diff-report.h, made and attributed in
 * xform/) and print amounts in the tree's unit through core/human.c ("1.42 s", "3.2 MiB",
 * "12,345"). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diff-report.h"
#include "../core/err.h"
#include "../core/intern.h"
#include "../core/version.h"
#include "../core/human.h"
#include "../core/numfmt.h"
#include "escape.h"

static double delta_of(const uint64_t v[2])
{
	return v[1] >= v[0] ? (double)(v[1] - v[0]) : -(double)(v[0] - v[1]);
}

static int cmp_name(const flame_diff_row *x, const flame_diff_row *y)
{
	return flame__bytes_cmp(x->name.ptr, x->name.len, y->name.ptr, y->name.len);
}


/* ---- --top */

typedef struct sort_ctx {
	const flame_diff_row *rows;
	int total; /* sort by total (1) or self (0) */
} sort_ctx;

static int cmp_rows(const void *pa, const void *pb, void *ud)
{
	const sort_ctx *c = ud;
	const flame_diff_row *x = &c->rows[*(const size_t *)pa];
	const flame_diff_row *y = &c->rows[*(const size_t *)pb];
	double dx = delta_of(c->total ? x->total : x->self);
	double dy = delta_of(c->total ? y->total : y->self);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return cmp_name(x, y);
}

/* "1.93 s" for time and bytes; "99 samples" for counts, which need their name. */
static void amount(char *buf, size_t cap, uint64_t v, unsigned scale, const char *unit)
{
	size_t n = flame_amount_print(buf, cap, v, scale, unit);
	if (flame__unit_kind_of(unit, NULL) == FLAME__UNIT_COUNT && n < cap)
		snprintf(buf + n, cap - n, " %s", unit && strcmp(unit, "count") ? unit : "samples");
}

static const flame_top_opts top_defaults = FLAME_TOP_OPTS_INIT;
static const size_t top_sizes[] = {0, offsetof(flame_top_opts, format), sizeof(flame_top_opts)};
static const struct flame__opts_layout top_layout = {"flame_top_opts", &top_defaults,
                                                     sizeof top_defaults, top_sizes,
                                                     FLAME_TOP_OPTS_VERSION};

int flame_top_opts_init(flame_top_opts *o, unsigned version)
{
	return flame__opts_init(&top_layout, o, version);
}

/* One row of a table: amounts, its change, with statistics its change in % of the before
 * total with its interval and q-value, the name, and the callee it contains. */
static int top_row(const flame_diff_report *rep, size_t i, int total, unsigned scale,
                   const char *unit, flame_text_fn fn, void *ud)
{
	const flame_diff_row *r = &rep->rows[i];
	const uint64_t *v = total ? r->total : r->self;
	char b[64], af[64], d[64], c[32], st[96] = "";
	flame_amount_print(b, sizeof b, v[0], scale, unit);
	flame_amount_print(af, sizeof af, v[1], scale, unit);
	flame_amount_print_delta(d, sizeof d, v[0], v[1], scale, unit);
	if (v[0] == 0)
		snprintf(c, sizeof c, v[1] ? "new" : "0%%");
	else
		snprintf(c, sizeof c, "%+.2f%%", 100.0 * delta_of(v) / (double)v[0]);
	if (rep->stats) {
		const flame_diff_stat *x = &rep->stats[i];
		char iv[64];
		snprintf(iv, sizeof iv, "[%+.2f%%, %+.2f%%]", x->low[total], x->high[total]);
		snprintf(st, sizeof st, " %+8.2f%% %21s %8.2g %s", x->change[total], iv, x->q[total],
		         x->significant[total] ? "  " : " ~");
	}
	int rc = flame__textf(fn, ud, "%14s %14s %14s %9s%s  %.*s", b, af, d, c, st, (int)r->name.len,
	                      r->name.ptr);
	if (!rc && total && r->inside != SIZE_MAX) {
		const flame_diff_row *in = &rep->rows[r->inside];
		rc = flame__textf(fn, ud, "  (contains %.*s)", (int)in->name.len, in->name.ptr);
	}
	return rc ? rc : fn(ud, "\n", 1);
}

/* The rows of one table into idx (their number): what grew (or shrank) by at least
 * min_delta, largest change first. */
static size_t top_pick(const flame_diff_report *rep, int total, int grew, double min_delta,
                       size_t *idx)
{
	const flame_diff_row *rows = rep->rows;
	size_t m = 0;
	for (size_t i = 0; i < rep->n; i++) {
		double d = delta_of(total ? rows[i].total : rows[i].self);
		if ((grew ? d > 0 : d < 0) && (d < 0 ? -d : d) >= min_delta)
			idx[m++] = i;
	}
	sort_ctx sc = {rows, total};
	qsort_r(idx, m, sizeof *idx, cmp_rows, &sc);
	if (!grew) /* most shrunk first */
		for (size_t i = 0; i < m / 2; i++) {
			size_t x = idx[i];
			idx[i] = idx[m - 1 - i];
			idx[m - 1 - i] = x;
		}
	return m;
}

static int write_tables(const flame_diff_report *rep, const flame_top_opts *o, flame_text_fn fn,
                        void *ud, size_t *idx)
{
	flame_tree *t = rep->tree;
	uint64_t max_rows = o->rows ? o->rows : UINT64_MAX;
	unsigned scale = flame_tree_decimals(t);
	const char *unit = flame_tree_count_name(t);
	char tb[96], ta[96], tr[96];
	int rc;
	amount(tb, sizeof tb, flame_tree_total(t, 0), scale, unit);
	amount(ta, sizeof ta, flame_tree_total(t, 1), scale, unit);
	flame_amount_print(tr, sizeof tr, o->before_raw, scale, unit);
	if (!o->norm)
		rc = flame__textf(fn, ud, "# before %s, after %s\n", tb, ta);
	else
		rc = flame__textf(fn, ud, "# before %s (%s as read, x%.4f by %s), after %s\n", tb, tr,
		         o->before_raw ? (double)flame_tree_total(t, 0) / (double)o->before_raw : 0.0,
		         o->norm, ta);
	if (!rc && rep->stats)
		rc = flame__textf(fn, ud, "# %u run%s before, %u after; of total: the change in %% of "
		                  "the before total, its %g%% interval and q-value (~: within noise, "
		                  "q > %g)\n", rep->runs[0], rep->runs[0] == 1 ? "" : "s", rep->runs[1],
		                  100 * (1 - rep->alpha), rep->alpha);
	for (int pass = 0; pass < 4 && !rc; pass++) {
		int total = pass >= 2, grew = !(pass & 1);
		size_t m = top_pick(rep, total, grew, o->min_delta, idx);
		rc = flame__textf(fn, ud, "\n%s cost, %s most:\n%14s %14s %14s %9s", total ? "total" : "self",
		                  grew ? "grew" : "shrank", "before", "after", "delta", "change");
		if (!rc && rep->stats)
			rc = flame__textf(fn, ud, " %9s %21s %8s  ", "of total", "interval", "q");
		if (!rc)
			rc = flame__textf(fn, ud, "  %s\n", "function");
		for (size_t k = 0; k < m && k < max_rows && !rc; k++)
			rc = top_row(rep, idx[k], total, scale, unit, fn, ud);
		if (!rc && m == 0)
			rc = flame__textf(fn, ud, "%14s\n", "(none)");
	}
	return rc;
}

/* ---- CSV and JSON: every function that changed, exact counts, the statistics */

static const char *const CSV_HEAD = "function,self_before,self_after,total_before,total_after";
static const char *const CSV_STATS =
	",self_change_pct,self_low_pct,self_high_pct,self_p,self_q,self_significant"
	",total_change_pct,total_low_pct,total_high_pct,total_p,total_q,total_significant";

static int put_counts(const flame_diff_row *r, unsigned scale, int json, flame_text_fn fn,
                      void *ud)
{
	static const char *const keys[4] = {"self_before", "self_after", "total_before", "total_after"};
	const uint64_t v[4] = {r->self[0], r->self[1], r->total[0], r->total[1]};
	int rc = 0;
	for (int j = 0; j < 4 && !rc; j++) {
		char num[48];
		num[flame__fmt_count(num, v[j], scale)] = '\0';
		rc = json ? flame__textf(fn, ud, ",\"%s\":%s", keys[j], num) : flame__textf(fn, ud, ",%s", num);
	}
	return rc;
}

static int put_stats(const flame_diff_stat *x, int json, flame_text_fn fn, void *ud)
{
	static const char *const kind[2] = {"self", "total"};
	int rc = 0;
	for (int k = 0; k < 2 && !rc; k++)
		rc = json ? flame__textf(fn, ud, ",\"%s_change_pct\":%.6g,\"%s_low_pct\":%.6g,\"%s_high_pct\""
		                         ":%.6g,\"%s_p\":%.6g,\"%s_q\":%.6g,\"%s_significant\":%s",
		                         kind[k], x->change[k], kind[k], x->low[k], kind[k], x->high[k],
		                         kind[k], x->p[k], kind[k], x->q[k], kind[k],
		                         x->significant[k] ? "true" : "false")
		          : flame__textf(fn, ud, ",%.6g,%.6g,%.6g,%.6g,%.6g,%d", x->change[k], x->low[k],
		                         x->high[k], x->p[k], x->q[k], x->significant[k]);
	return rc;
}

static int write_rows(const flame_diff_report *rep, int json, flame_text_fn fn, void *ud,
                      size_t *idx)
{
	unsigned scale = flame_tree_decimals(rep->tree);
	size_t m = 0;
	for (size_t i = 0; i < rep->n; i++) /* every function that changed, by its total change */
		if (delta_of(rep->rows[i].self) != 0 || delta_of(rep->rows[i].total) != 0)
			idx[m++] = i;
	sort_ctx sc = {rep->rows, 1};
	qsort_r(idx, m, sizeof *idx, cmp_rows, &sc);
	int rc = !json     ? flame__textf(fn, ud, "%s%s,contains\r\n", CSV_HEAD, rep->stats ? CSV_STATS : "")
	         : rep->stats ? flame__textf(fn, ud, "{\"runs_before\":%u,\"runs_after\":%u,\"alpha\":%g,"
	                                     "\"rows\":[", rep->runs[0], rep->runs[1], rep->alpha)
	                      : flame__textf(fn, ud, "{\"runs_before\":null,\"runs_after\":null,"
	                                     "\"alpha\":null,\"rows\":[");
	for (size_t k = 0; k < m && !rc; k++) {
		const flame_diff_row *r = &rep->rows[idx[k]];
		rc = json ? fn(ud, k ? ",{\"function\":" : "{\"function\":", k ? 14 : 13) : 0;
		if (!rc)
			rc = flame__put_quoted(fn, ud, r->name.ptr, r->name.len, json);
		if (!rc)
			rc = put_counts(r, scale, json, fn, ud);
		if (!rc && rep->stats)
			rc = put_stats(&rep->stats[idx[k]], json, fn, ud);
		if (!rc)
			rc = fn(ud, json ? ",\"contains\":" : ",", json ? 12 : 1);
		if (!rc && r->inside != SIZE_MAX)
			rc = flame__put_quoted(fn, ud, rep->rows[r->inside].name.ptr,
			                       rep->rows[r->inside].name.len, json);
		else if (!rc && json)
			rc = fn(ud, "null", 4);
		if (!rc)
			rc = json ? fn(ud, "}", 1) : fn(ud, "\r\n", 2);
	}
	return rc ? rc : json ? fn(ud, "]}\n", 3) : 0;
}

int flame_write_top(const flame_diff_report *rep, const flame_top_opts *opts, flame_text_fn fn,
                    void *ud, flame_err *err)
{
	flame_top_opts cur;
	int rc = flame__opts_read(&top_layout, &cur, opts, err);
	if (rc)
		return rc;
	if (cur.format < FLAME_COST_TEXT || cur.format > FLAME_COST_JSON)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "unknown report format %d", cur.format);
	size_t *idx = malloc((rep->n ? rep->n : 1) * sizeof *idx);
	if (!idx)
		return flame__err_nomem(err);
	rc = cur.format == FLAME_COST_TEXT ? write_tables(rep, &cur, fn, ud, idx)
	                                   : write_rows(rep, cur.format == FLAME_COST_JSON, fn, ud, idx);
	free(idx);
	return rc;
}
