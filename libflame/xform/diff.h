/* Internal: what the request layer needs of the diff (xform/diff.c) and of its statistics
 * (xform/diff-stats.c). */
#ifndef FLAME_XFORM_DIFF_H
#define FLAME_XFORM_DIFF_H
#include "../flame.h"

/** A caller's diff options (NULL: the defaults) as the current layout (core/version.h). */
int flame__diff_opts_read(flame_diff_opts *dst, const flame_diff_opts *src, flame_err *err);

/** Make the names of `t` that differ only by run equal, as `o` says (strip_hex,
 * normalize_names, renames; `o` already read as the current layout), merging the stacks
 * that become equal. */
int flame__diff_fix_names(flame_tree *t, const flame_diff_opts *o, flame_err *err);

/* The name rules of a diff (xform/rename.c), compiled once. */
typedef struct flame__namefix flame__namefix;
/** The rules `o` asks for into *out (NULL when it asks for none); FLAME_EUSAGE naming a bad
 * --rename. */
int flame__namefix_new(flame__namefix **out, const flame_diff_opts *o, flame_err *err);
void flame__namefix_free(flame__namefix *f);
/** map[id] = the id in `dst` of the fixed name of `src`'s name id (f NULL: the same name). */
int flame__namefix_map(flame_tree *dst, const flame_tree *src, flame__namefix *f,
                       uint32_t *map, flame_err *err);
/** Rewrite `t` with its names fixed by `f`. */
int flame__namefix_tree(flame_tree *t, flame__namefix *f, flame_err *err);
/** Length of `p[0..n)` with every 0x[0-9a-fA-F]+ as "0x..." (-s), written to `out` if not
 * NULL. */
size_t flame__strip_hex_name(const char *p, size_t n, char *out);

/** 1 when `o` rewrites names (so sorted sides cannot be merged as they are). */
int flame__diff_renames(const flame_diff_opts *o);

/** Column `col`'s weight of the stacks through a frame matching `re` into *w. */
int flame__diff_frame_weight(flame_tree *t, int col, const char *re, uint64_t *w,
                             flame_err *err);

/* ---- statistics (xform/diff-stats.c) */

/** One run of a side: column `col` of `tree`, each count divided by `unit`. `share`: the
 * unit is itself sampled and holds the counts (a total, a frame's weight): binomial. */
typedef struct flame__stat_run {
	flame_tree *tree;
	int col;
	double unit;
	int share;
	double total; /* the column's total (counts), for the change's base */
	double w;     /* one sample's weight; 0: 1 for counts of samples, else estimated from the
	               * stacks (flame__stat_sample_weight) */
} flame__stat_run;

/** The statistics of every row of `rep` from the runs of each side (run[s][0..n[s])), at
 * level `alpha`; replaces earlier ones. */
int flame__diff_stats(flame_diff_report *rep, flame__stat_run *const run[2], const size_t n[2],
                      double alpha, flame_err *err);

/** The weight of one sample in column `col` of `t`: the profile's period when it counted
 * samples of one and every weight is a whole number of periods, else the 5th percentile of
 * its non-zero stack weights (a stack seen once weighs one period); 1 when it has none. */
int flame__stat_sample_weight(flame_tree *t, int col, double *w, flame_err *err);

/** Student's t with `df` degrees of freedom (df <= 0 or infinite: the normal): P(|T| >= t). */
double flame__stat_t_p2(double t, double df);
/** The t with P(T > t) = `upper` (0 < upper < 0.5). */
double flame__stat_t_quantile(double upper, double df);
/** Benjamini-Hochberg q-values of p[0..m) into q (may be p); `tmp` has room for m. */
void flame__stat_bh(const double *p, double *q, size_t m, size_t *tmp);

/** Welch's test of two means: side s has mean m[s], variance of the mean v[s] and degrees
 * of freedom df[s] (0: known variance). The change m[1] - m[0], its standard error and the
 * Welch-Satterthwaite degrees of freedom (0: normal). */
void flame__stat_welch(const double m[2], const double v[2], const double df[2], double *d,
                       double *se, double *dof);
#endif
