/* Text for people about a diff: the --top tables of the functions whose self and total
 * cost grew and shrank most, and the regression gate's offender lines. Both print the
 * per-function report (flame_diff_report) of a differential tree, its rows already
 * attributed (xform's flame_diff_attribute, called by request/report.c before these run),
 * with amounts in its unit through core/human.c ("1.42 s", "3.2 MiB", "12,345"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/human.h"
#include "report.h"

static double delta_of(const uint64_t v[2])
{
	return v[1] >= v[0] ? (double)(v[1] - v[0]) : -(double)(v[0] - v[1]);
}

static int cmp_name(const flame_diff_row *x, const flame_diff_row *y)
{
	size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
	int r = memcmp(x->name.ptr, y->name.ptr, n);
	return r ? r : (x->name.len > y->name.len) - (x->name.len < y->name.len);
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
	size_t n = flame_format_count(buf, cap, v, scale, unit);
	if (flame__unit_kind_of(unit, NULL) == FLAME__UNIT_COUNT && n < cap)
		snprintf(buf + n, cap - n, " %s", unit && strcmp(unit, "count") ? unit : "samples");
}

int flame__report_top(flame_tree *t, const flame_diff_row *rows, size_t n,
                       const flame_top_opts *o, flame_text_fn fn, void *ud, flame_err *err)
{
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);
	if (!idx)
		return flame__err_nomem(err);
	unsigned scale = flame_tree_scale(t);
	const char *unit = flame_tree_count_name(t);
	int rc = 0;
	char tb[96], ta[96], tr[96];
	amount(tb, sizeof tb, flame_tree_total(t, 0), scale, unit);
	amount(ta, sizeof ta, flame_tree_total(t, 1), scale, unit);
	flame_format_count(tr, sizeof tr, o->before_raw, scale, unit);
	if (!o->norm)
		rc = flame__textf(fn, ud, "# before %s, after %s\n", tb, ta);
	else
		rc = flame__textf(fn, ud, "# before %s (%s as read, x%.4f by %s), after %s\n", tb, tr,
		         o->before_raw ? (double)flame_tree_total(t, 0) / (double)o->before_raw : 0.0,
		         o->norm, ta);
	for (int pass = 0; pass < 4 && !rc; pass++) {
		int total = pass >= 2, grew = !(pass & 1);
		sort_ctx sc = {rows, total};
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			double d = delta_of(total ? rows[i].total : rows[i].self);
			if ((grew ? d > 0 : d < 0) && (d < 0 ? -d : d) >= o->min_delta &&
			    !(total && rows[i].inside != SIZE_MAX))
				idx[m++] = i;
		}
		qsort_r(idx, m, sizeof *idx, cmp_rows, &sc);
		if (!grew) /* most shrunk first */
			for (size_t i = 0; i < m / 2; i++) {
				size_t x = idx[i];
				idx[i] = idx[m - 1 - i];
				idx[m - 1 - i] = x;
			}
		rc = flame__textf(fn, ud, "\n%s cost, %s most:\n%14s %14s %14s %9s  %s\n", total ? "total" : "self",
		         grew ? "grew" : "shrank", "before", "after", "delta", "change", "function");
		for (size_t k = 0; k < m && k < o->rows && !rc; k++) {
			const flame_diff_row *r = &rows[idx[k]];
			const uint64_t *v = total ? r->total : r->self;
			char b[64], af[64], d[64], c[32];
			flame_format_count(b, sizeof b, v[0], scale, unit);
			flame_format_count(af, sizeof af, v[1], scale, unit);
			flame_format_delta(d, sizeof d, v[0], v[1], scale, unit);
			if (v[0] == 0)
				snprintf(c, sizeof c, v[1] ? "new" : "0%%");
			else
				snprintf(c, sizeof c, "%+.2f%%", 100.0 * delta_of(v) / (double)v[0]);
			rc = flame__textf(fn, ud, "%14s %14s %14s %9s  %.*s\n", b, af, d, c, (int)r->name.len,
			         r->name.ptr);
		}
		if (!rc && m == 0)
			rc = flame__textf(fn, ud, "%14s\n", "(none)");
	}
	free(idx);
	return rc;
}

/* ---- the gate */

/* Offenders by their larger growth (self or total), largest first, ties by name: the same
 * report however the inputs were ordered or read. */
static double growth(const flame_diff_row *r)
{
	double s = delta_of(r->self), t = r->inside == SIZE_MAX ? delta_of(r->total) : s;
	return s > t ? s : t;
}

static int cmp_growth(const void *pa, const void *pb)
{
	const flame_diff_row *x = pa, *y = pb;
	double gx = growth(x), gy = growth(y);
	if (gx != gy)
		return gx > gy ? -1 : 1;
	return cmp_name(x, y);
}

double flame__report_gate_limit(flame_tree *t, double limit_pct)
{
	return limit_pct / 100.0 * (double)flame_tree_total(t, 0);
}

int flame__report_gate(flame_tree *t, flame_diff_row *rows, size_t n, double limit_pct,
                       flame_text_fn fn, void *ud)
{
	unsigned scale = flame_tree_scale(t);
	const char *unit = flame_tree_count_name(t);
	double t0 = (double)flame_tree_total(t, 0);
	double limit = flame__report_gate_limit(t, limit_pct);
	int bad = 0, rc;
	qsort(rows, n, sizeof *rows, cmp_growth); /* `inside` is resolved: rows may move */
	for (size_t i = 0; i < n; i++) {
		const flame_diff_row *r = &rows[i];
		char line[1024];
		int len = snprintf(line, sizeof line, "%.*s: ", (int)(r->name.len > 400 ? 400 : r->name.len),
		                   r->name.ptr);
		int any = 0;
		for (int k = 0; k < 2; k++) {
			const uint64_t *v = k ? r->total : r->self;
			double d = delta_of(v);
			if (!(d > 0 && d > limit) || (k && r->inside != SIZE_MAX))
				continue;
			char b[64], af[64], dd[64];
			flame_format_count(b, sizeof b, v[0], scale, unit);
			flame_format_count(af, sizeof af, v[1], scale, unit);
			flame_format_delta(dd, sizeof dd, v[0], v[1], scale, unit);
			int m = snprintf(line + len, sizeof line - (size_t)len,
			                 "%s%s %s -> %s (%s, %.2f%% of the before total)", any ? "; " : "",
			                 k ? "total" : "self", b, af, dd, t0 > 0 ? 100.0 * d / t0 : 100.0);
			if (m > 0)
				len += m < (int)sizeof line - len ? m : (int)sizeof line - len - 1;
			any = 1;
		}
		if (any) {
			if ((rc = fn(ud, line, (size_t)len)))
				return rc < 0 ? rc : -rc;
			bad++;
		}
	}
	return bad;
}
