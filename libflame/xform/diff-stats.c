/* Whether a diff's changes are real: for each function of a diff report, self and total,
 * its value in every run of each side, the noise (the variance between runs, never below
 * the sampling variance of its counts), Welch's test of the two means, a confidence
 * interval, and Benjamini-Hochberg q-values across all the report's tests. The choices and
 * their reasons are flame.h's ("Noise"). The runs are trees read by the diff request
 * (request/diff.c), or the two columns of the report's own tree; pictures and tables read
 * the results from the report (core/diff-report.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../core/diff-report.h"
#include "../core/err.h"
#include "../core/human.h"
#include "../core/tree.h"
#include "diff.h"

/* ---- distributions */

/* ln Gamma(x), x > 0 (Lanczos, g = 7: about 15 digits) */
static double ln_gamma(double x)
{
	static const double c[9] = {0.99999999999980993,  676.5203681218851,   -1259.1392167224028,
	                            771.32342877765313,   -176.61502916214059, 12.507343278686905,
	                            -0.13857109526572012, 9.9843695780195716e-6,
	                            1.5056327351493116e-7};
	if (x < 0.5)
		return log(M_PI / sin(M_PI * x)) - ln_gamma(1 - x);
	x -= 1;
	double a = c[0], t = x + 7.5;
	for (int i = 1; i < 9; i++)
		a += c[i] / (x + i);
	return 0.5 * log(2 * M_PI) + (x + 0.5) * log(t) - t + log(a);
}

/* The continued fraction of the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m;
		double aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double inc_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * beta_cf(a, b, x) / a;
	return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

static int normal_df(double df)
{
	return !(df > 0) || df > 1e7 || isinf(df);
}

double flame__stat_t_p2(double t, double df)
{
	t = fabs(t);
	if (normal_df(df))
		return erfc(t / M_SQRT2);
	return inc_beta(df / 2, 0.5, df / (df + t * t));
}

static double t_pdf(double t, double df)
{
	if (normal_df(df))
		return exp(-t * t / 2) / sqrt(2 * M_PI);
	return exp(ln_gamma((df + 1) / 2) - ln_gamma(df / 2) - 0.5 * log(df * M_PI) -
	           (df + 1) / 2 * log1p(t * t / df));
}

/* The standard normal's z with P(Z > z) = upper (Acklam's rational fit, then one Halley
 * step on erfc: full double precision). */
static double normal_upper(double upper)
{
	static const double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02,
	                            -2.759285104469687e+02, 1.383577518672690e+02,
	                            -3.066479806614716e+01, 2.506628277459239e+00};
	static const double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02,
	                            -1.556989798598866e+02, 6.680131188771972e+01,
	                            -1.328068155288572e+01};
	static const double c[6] = {-7.784894002430293e-03, -3.223964580411365e-01,
	                            -2.400758277161838e+00, -2.549732539343734e+00,
	                            4.374664141464968e+00,  2.938163982698783e+00};
	static const double d[4] = {7.784695709041462e-03, 3.224671290700398e-01,
	                            2.445134137142996e+00, 3.754408661907416e+00};
	double p = 1 - upper, x; /* the lower tail */
	if (p < 0.02425 || p > 1 - 0.02425) {
		double q = sqrt(-2 * log(p < 0.5 ? p : upper));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
		if (p > 0.5)
			x = -x;
	} else {
		double q = p - 0.5, r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	double e = 0.5 * erfc(x / M_SQRT2) - upper; /* P(Z > x) - upper */
	double u = -e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

double flame__stat_t_quantile(double upper, double df)
{
	double z = normal_upper(upper);
	if (normal_df(df))
		return z;
	/* Cornish-Fisher's start, then Newton kept inside a bracket */
	double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
	double t = z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df) +
	           (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df);
	double lo = 0, hi = INFINITY;
	if (!(t > 0) || !isfinite(t))
		t = z > 0 ? z : 1;
	for (int i = 0; i < 200; i++) {
		double f = flame__stat_t_p2(t, df) / 2 - upper; /* > 0: t too small */
		if (f > 0)
			lo = t;
		else
			hi = t;
		double next = t + f / t_pdf(t, df);
		if (!(next > lo && next < hi))
			next = isinf(hi) ? 2 * t : (lo + hi) / 2;
		if (fabs(next - t) <= 1e-13 * t)
			return next;
		t = next;
	}
	return t;
}

static int cmp_p(const void *a, const void *b, void *ud)
{
	const double *p = ud;
	double x = p[*(const size_t *)a], y = p[*(const size_t *)b];
	return x < y ? -1 : x > y;
}

void flame__stat_bh(const double *p, double *q, size_t m, size_t *tmp)
{
	for (size_t i = 0; i < m; i++)
		tmp[i] = i;
	qsort_r(tmp, m, sizeof *tmp, cmp_p, (void *)p);
	double run = 1;
	for (size_t k = m; k-- > 0;) { /* from the largest p down: q is the running minimum */
		double v = p[tmp[k]] * (double)m / (double)(k + 1);
		if (v < run)
			run = v;
		q[tmp[k]] = run;
	}
}

void flame__stat_welch(const double m[2], const double v[2], const double df[2], double *d,
                       double *se, double *dof)
{
	/* a side of known variance (df 0) has no term: it only raises the degrees of freedom */
	double var = v[0] + v[1], den = 0;
	for (int s = 0; s < 2; s++)
		if (df[s] > 0)
			den += v[s] * v[s] / df[s];
	*d = m[1] - m[0];
	*se = sqrt(var);
	*dof = den > 0 ? var * var / den : 0;
}

/* ---- runs */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int flame__stat_sample_weight(flame_tree *t, int col, double *w, flame_err *err)
{
	flame__stacks *st;
	*w = 1;
	int rc = flame__tree_stacks(t, &st, err);
	if (rc)
		return rc;
	uint64_t *v = malloc((st->count ? st->count : 1) * sizeof *v);
	if (!v)
		return flame__err_nomem(err);
	/* the profile's own period when it counted samples of one (Go's CPU profiles) and
	 * every weight is a whole number of them: exact where the percentile is not (a profile
	 * of a few stacks, each of many samples, would make a sample weigh ten) */
	uint64_t period = flame__tree_units(t)->with_samples ? flame__tree_units(t)->period : 0;
	size_t n = 0;
	for (size_t k = 0; k < st->count; k++)
		if (st->v[k].w[col]) {
			v[n++] = st->v[k].w[col];
			if (period && v[n - 1] % period)
				period = 0;
		}
	if (period) {
		*w = (double)period;
	} else if (n) {
		qsort(v, n, sizeof *v, cmp_u64);
		*w = (double)v[n / 20];
	}
	free(v);
	return 0;
}

/* The tree's name id -> row of the report. */
static int map_rows(flame_diff_report *rep, flame_err *err)
{
	const flame__intern *names = flame__tree_names(rep->tree);
	free(rep->row_of);
	rep->n_ids = names->count;
	rep->row_of = malloc((names->count ? names->count : 1) * sizeof *rep->row_of);
	if (!rep->row_of)
		return flame__err_nomem(err);
	for (uint32_t id = 0; id < names->count; id++)
		rep->row_of[id] = UINT32_MAX;
	for (size_t i = 0; i < rep->n; i++) {
		uint32_t id = flame__intern_find(names, rep->rows[i].name.ptr, rep->rows[i].name.len);
		if (id != FLAME__ID_NONE)
			rep->row_of[id] = (uint32_t)i;
	}
	return 0;
}

/* Self and total counts of every row in run `r` into c[2 * row] (self), c[2 * row + 1]. */
static int run_counts(const flame_diff_report *rep, const flame__stat_run *r, double *c,
                      flame_err *err)
{
	memset(c, 0, 2 * rep->n * sizeof *c);
	if (r->tree == rep->tree) { /* a column of the report's own tree */
		for (size_t i = 0; i < rep->n; i++) {
			c[2 * i] = (double)rep->rows[i].self[r->col];
			c[2 * i + 1] = (double)rep->rows[i].total[r->col];
		}
		return 0;
	}
	flame__stacks *st;
	int rc = flame__tree_stacks(r->tree, &st, err);
	if (rc)
		return rc;
	const flame__intern *rn = flame__tree_names(r->tree), *tn = flame__tree_names(rep->tree);
	uint32_t nn = rn->count ? rn->count : 1;
	uint32_t *row = malloc(nn * sizeof *row);
	size_t *stamp = malloc(nn * sizeof *stamp);
	if (!row || !stamp) {
		free(row);
		free(stamp);
		return flame__err_nomem(err);
	}
	for (uint32_t id = 0; id < rn->count; id++) {
		const flame__name *nm = flame__intern_get(rn, id);
		uint32_t tid = flame__intern_find(tn, nm->ptr, nm->len);
		row[id] = tid == FLAME__ID_NONE ? UINT32_MAX : rep->row_of[tid];
		stamp[id] = SIZE_MAX;
	}
	for (size_t k = 0; k < st->count; k++) {
		const flame__stack *s = &st->v[k];
		double w = (double)s->w[r->col];
		for (uint32_t i = 0; i < s->depth && w > 0; i++) {
			uint32_t id = s->ids[i];
			if (row[id] == UINT32_MAX)
				continue;
			if (stamp[id] != k) { /* once per stack, however deep the recursion */
				stamp[id] = k;
				c[2 * row[id] + 1] += w;
			}
			if (i + 1 == s->depth)
				c[2 * row[id]] += w;
		}
	}
	free(row);
	free(stamp);
	return 0;
}

/* The sampling variance of count c / unit u, a sample weighing w. */
static double sampling_var(double c, double u, double w, int share)
{
	if (c < w) /* absent, or less than a sample: as if seen once */
		c = w;
	if (!share)
		return w * c / (u * u);
	if (c <= u) /* binomial: a share of the unit */
		return w * c * (u - c) / (u * u * u);
	return w * (c - u) * c / (u * u * u); /* beyond the unit: the outside part is Poisson */
}

/* One side's mean value of test j (count column of counts[r]) and the variance of that
 * mean, with its degrees of freedom (0: known). 0 when the side has no count. */
static int side_mean(const flame__stat_run *run, size_t n, double *const *counts,
                     const double *w, size_t j, double *mean, double *var, double *df)
{
	double sum = 0, floor = 0;
	int any = 0;
	for (size_t r = 0; r < n; r++) {
		double c = counts[r][j];
		any |= c > 0;
		sum += c / run[r].unit;
		floor += sampling_var(c, run[r].unit, w[r], run[r].share);
	}
	*mean = sum / (double)n;
	floor /= (double)n * (double)n;
	*var = floor;
	*df = 0;
	if (n > 1) {
		double ss = 0;
		for (size_t r = 0; r < n; r++) {
			double e = counts[r][j] / run[r].unit - *mean;
			ss += e * e;
		}
		/* the sampling variance is known exactly (df 0); an estimate above it has n - 1 */
		double between = ss / (double)(n - 1) / (double)n;
		if (between > floor) {
			*var = between;
			*df = (double)(n - 1);
		}
	}
	return any;
}

/* Test j of every row: the change, its interval and p-value (1 when no side counts it). */
static void test_all(flame_diff_report *rep, flame__stat_run *const run[2], const size_t n[2],
                     double *const *counts[2], double *const w[2], double base, double *p)
{
	double cache_df = -1, cache_q = 0, upper = rep->alpha / 2;
	for (size_t j = 0; j < 2 * rep->n; j++) {
		flame_diff_stat *s = &rep->stats[j / 2];
		int k = (int)(j % 2);
		double m[2], v[2], df[2], d, se, dof;
		int any = 0;
		for (int side = 0; side < 2; side++)
			any |= side_mean(run[side], n[side], counts[side], w[side], j, &m[side], &v[side],
			                 &df[side]);
		flame__stat_welch(m, v, df, &d, &se, &dof);
		p[j] = !any || d == 0 ? 1 : se > 0 ? flame__stat_t_p2(d / se, dof) : 0;
		if (dof != cache_df) {
			cache_df = dof;
			cache_q = flame__stat_t_quantile(upper, dof);
		}
		s->change[k] = 100 * d / base;
		s->low[k] = 100 * (d - cache_q * se) / base;
		s->high[k] = 100 * (d + cache_q * se) / base;
		s->p[k] = p[j];
		s->q[k] = 1;
		if (!any)
			p[j] = 2; /* not a test */
	}
}

/* BEFORE's mean total in the runs' unit (AFTER's when BEFORE has none). */
static double base_of(flame__stat_run *const run[2], const size_t n[2])
{
	for (int side = 0; side < 2; side++) {
		double b = 0;
		for (size_t r = 0; r < n[side]; r++)
			b += run[side][r].total / run[side][r].unit;
		if (b > 0)
			return b / (double)n[side];
	}
	return 1;
}

/* q-values over the tests (p[j] <= 1) and the verdicts. */
static int adjust(flame_diff_report *rep, double *p, flame_err *err)
{
	size_t m = 0, nt = 2 * rep->n;
	size_t *idx = malloc((nt ? nt : 1) * sizeof *idx), *tmp = malloc((nt ? nt : 1) * sizeof *tmp);
	double *pt = malloc((nt ? nt : 1) * sizeof *pt);
	if (!idx || !tmp || !pt) {
		free(idx), free(tmp), free(pt);
		return flame__err_nomem(err);
	}
	for (size_t j = 0; j < nt; j++)
		if (p[j] <= 1) {
			idx[m] = j;
			pt[m++] = p[j];
		}
	flame__stat_bh(pt, pt, m, tmp);
	for (size_t i = 0; i < m; i++)
		rep->stats[idx[i] / 2].q[idx[i] % 2] = pt[i];
	for (size_t i = 0; i < rep->n; i++)
		for (int k = 0; k < 2; k++)
			rep->stats[i].significant[k] = rep->stats[i].q[k] <= rep->alpha;
	free(idx), free(tmp), free(pt);
	return 0;
}

int flame__diff_stats(flame_diff_report *rep, flame__stat_run *const run[2], const size_t n[2],
                      double alpha, flame_err *err)
{
	if (!(alpha > 0 && alpha < 1))
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "alpha must lie between 0 and 1, got %g", alpha);
	if (!n[0] || !n[1])
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "each side of a diff needs a run");
	size_t nr = n[0] + n[1], nt = rep->n ? 2 * rep->n : 1;
	double *block = malloc(nr * nt * sizeof *block), *p = malloc(nt * sizeof *p);
	double **counts = malloc(nr * sizeof *counts), *w = malloc(nr * sizeof *w);
	flame_diff_stat *stats = calloc(rep->n ? rep->n : 1, sizeof *stats);
	int rc = !block || !p || !counts || !w || !stats ? flame__err_nomem(err) : 0;
	if (!rc)
		rc = map_rows(rep, err);
	for (size_t r = 0; r < nr && !rc; r++) {
		const flame__stat_run *x = r < n[0] ? &run[0][r] : &run[1][r - n[0]];
		counts[r] = block + r * nt;
		w[r] = x->w > 0 ? x->w : 1;
		if (!(rc = run_counts(rep, x, counts[r], err)) && !(x->w > 0) &&
		    flame__unit_kind_of(flame_tree_count_name(x->tree), NULL) != FLAME__UNIT_COUNT)
			rc = flame__stat_sample_weight(x->tree, x->col, &w[r], err);
	}
	if (!rc) {
		free(rep->stats);
		rep->stats = stats;
		stats = NULL;
		rep->alpha = alpha;
		rep->runs[0] = (unsigned)n[0];
		rep->runs[1] = (unsigned)n[1];
		double *const *cs[2] = {counts, counts + n[0]};
		double *const ws[2] = {w, w + n[0]};
		test_all(rep, run, n, cs, ws, base_of(run, n), p);
		rc = adjust(rep, p, err);
	}
	free(block), free(p), free(counts), free(w), free(stats);
	return rc;
}
