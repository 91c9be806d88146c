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
#include "../core/version.h"
#include "../core/human.h"

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

int flame_write_top(const flame_diff_report *rep, const flame_top_opts *opts, flame_text_fn fn,
                    void *ud, flame_err *err)
{
	flame_top_opts cur;
	int rc = flame__opts_read(&top_layout, &cur, opts, err);
	if (rc)
		return rc;
	const flame_top_opts *o = &cur;
	flame_tree *t = rep->tree;
	const flame_diff_row *rows = rep->rows;
	size_t n = rep->n;
	uint64_t max_rows = o->rows ? o->rows : UINT64_MAX;
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);
	if (!idx)
		return flame__err_nomem(err);
	unsigned scale = flame_tree_decimals(t);
	const char *unit = flame_tree_count_name(t);
	char tb[96], ta[96], tr[96];
	amount(tb, sizeof tb, flame_tree_total(t, 0), scale, unit);
	amount(ta, sizeof ta, flame_tree_total(t, 1), scale, unit);
	flame_amount_print(tr, sizeof tr, o->before_raw, scale, unit);
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
		for (size_t k = 0; k < m && k < max_rows && !rc; k++) {
			const flame_diff_row *r = &rows[idx[k]];
			const uint64_t *v = total ? r->total : r->self;
			char b[64], af[64], d[64], c[32];
			flame_amount_print(b, sizeof b, v[0], scale, unit);
			flame_amount_print(af, sizeof af, v[1], scale, unit);
			flame_amount_print_delta(d, sizeof d, v[0], v[1], scale, unit);
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
