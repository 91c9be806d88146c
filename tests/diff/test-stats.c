/* Unit tests for xform/diff-stats.c's distributions and procedures against textbook values:
 * Student's t quantiles and tail areas (any table, e.g. NIST/SEMATECH's), the normal's,
 * Welch-Satterthwaite's degrees of freedom on a worked example, Benjamini-Hochberg's
 * q-values worked by hand, and the weight of one sample. (stats-reference.py checks a
 * whole diff against the same numbers computed by Python's statistics module.) */
#include <math.h>
#include "harness.h"
#include "../../libflame/core/tree.h"
#include "../../libflame/xform/diff.h"

static void near(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol * (fabs(want) > 1 ? fabs(want) : 1))) {
		fprintf(stderr, "%s: got %.10g, want %.10g\n", what, got, want);
		CHECK(0);
	}
}

static void test_quantiles(void)
{
	/* t(1 - upper, df): the table's two-sided 95% and 99% columns */
	near(flame__stat_t_quantile(0.025, 1), 12.7062047, 1e-7, "t 0.975 df 1");
	near(flame__stat_t_quantile(0.025, 5), 2.5705818, 1e-7, "t 0.975 df 5");
	near(flame__stat_t_quantile(0.005, 10), 3.1692727, 1e-7, "t 0.995 df 10");
	near(flame__stat_t_quantile(0.005, 4), 4.6040949, 1e-7, "t 0.995 df 4");
	near(flame__stat_t_quantile(0.05, 30), 1.6972609, 1e-7, "t 0.95 df 30");
	/* a fractional df (Welch's): 0.01 two-sided, by Simpson's rule on the density */
	near(flame__stat_t_p2(flame__stat_t_quantile(0.005, 2.5), 2.5), 0.01, 1e-9, "t df 2.5");
	near(flame__stat_t_quantile(0.005, 2.5), 7.1637281, 1e-6, "t 0.995 df 2.5");
	/* the normal (df 0: known variance) */
	near(flame__stat_t_quantile(0.025, 0), 1.9599640, 1e-8, "z 0.975");
	near(flame__stat_t_quantile(0.005, 0), 2.5758293, 1e-8, "z 0.995");
	near(flame__stat_t_quantile(1e-6, 0), 4.7534243, 1e-7, "z 1-1e-6");
}

static void test_tails(void)
{
	near(flame__stat_t_p2(2.2281389, 10), 0.05, 1e-7, "P(|T|>2.228) df 10");
	near(flame__stat_t_p2(63.656741, 1), 0.01, 1e-7, "P(|T|>63.66) df 1");
	near(flame__stat_t_p2(1.959964, 0), 0.05, 1e-7, "P(|Z|>1.96)");
	near(flame__stat_t_p2(0, 7), 1, 1e-12, "P(|T|>0)");
	near(flame__stat_t_p2(-2.5705818, 5), 0.05, 1e-7, "symmetric");
	CHECK(flame__stat_t_p2(40, 0) < 1e-300 || flame__stat_t_p2(40, 0) >= 0);
}

static void test_welch(void)
{
	/* two samples of 5 and 4 with variances of the means 0.02 and 0.05, df 4 and 3:
	 * df = 0.07^2 / (0.02^2/4 + 0.05^2/3) = 0.0049 / 0.000933333 = 5.25 */
	double m[2] = {1.0, 1.5}, v[2] = {0.02, 0.05}, df[2] = {4, 3}, d, se, dof;
	flame__stat_welch(m, v, df, &d, &se, &dof);
	near(d, 0.5, 1e-12, "welch d");
	near(se, sqrt(0.07), 1e-12, "welch se");
	near(dof, 5.25, 1e-9, "welch df");
	/* one side of known variance: only the other's term */
	df[0] = 0;
	flame__stat_welch(m, v, df, &d, &se, &dof);
	near(dof, 0.0049 / (0.0025 / 3), 1e-9, "welch df, one side known");
	df[1] = 0; /* both known: the normal */
	flame__stat_welch(m, v, df, &d, &se, &dof);
	CHECK(dof == 0);
}

static void test_bh(void)
{
	/* m = 10: q_(i) = min over j >= i of p_(j) * m / j */
	double p[10] = {0.01, 0.04, 0.03, 0.005, 0.5, 0.2, 0.9, 0.04, 0.6, 0.001}, q[10];
	size_t tmp[10];
	/* sorted: .001 .005 .01 .03 .04 .04 .2 .5 .6 .9; p*m/rank: .01 .025 .0333 .075 .08
	 * .0667 .2857 .625 .6667 .9; q is the running minimum from the largest down */
	const double want[10] = {1 / 30.0, 1 / 15.0, 1 / 15.0, 0.025, 0.625,
	                         2 / 7.0,  0.9,      1 / 15.0, 2 / 3.0, 0.01};
	flame__stat_bh(p, q, 10, tmp);
	for (int i = 0; i < 10; i++)
		near(q[i], want[i], 1e-9, "bh q");
	flame__stat_bh(p, p, 10, tmp); /* in place */
	for (int i = 0; i < 10; i++)
		near(p[i], want[i], 1e-9, "bh q in place");
}

/* A sample's weight: the profile's period when it counted samples of one, else the 5th
 * percentile of the stack weights. A Go CPU profile of a few stacks, each of many samples,
 * once got the percentile (ten samples' weight), and its noise ten times the variance. */
static void test_sample_weight(void)
{
	const uint64_t period = 2500000, counts[] = {10, 14, 34, 60, 102, 141};
	flame_tree *t = NULL;
	flame_err err = {0};
	CHECK(flame_tree_new(&t, &err) == 0);
	for (size_t i = 0; i < 6; i++) {
		char name[8] = {(char)('a' + i), 0};
		flame_str f[2] = {{"main", 4}, {name, 1}};
		CHECK(flame_tree_add(t, f, 2, 0, counts[i] * period, 0, &err) == 0);
	}
	double w = 0;
	CHECK(flame__stat_sample_weight(t, 0, &w, &err) == 0);
	near(w, 10.0 * period, 0, "no period known: the smallest stack's weight");
	CHECK(flame__units_set_pprof(t, "cpu", "cpu", "nanoseconds", period, 1) == 0);
	CHECK(flame__stat_sample_weight(t, 0, &w, &err) == 0);
	near(w, (double)period, 0, "the profile's period");
	flame_str odd[1] = {{"x", 1}}; /* a weight that is not a whole number of periods */
	CHECK(flame_tree_add(t, odd, 1, 0, period / 2, 0, &err) == 0);
	CHECK(flame__stat_sample_weight(t, 0, &w, &err) == 0);
	near(w, period / 2.0, 0, "not whole periods: the percentile");
	flame_tree_free(t);
}

int main(void)
{
	RUN(test_sample_weight);
	RUN(test_quantiles);
	RUN(test_tails);
	RUN(test_welch);
	RUN(test_bh);
	return harness_done();
}
