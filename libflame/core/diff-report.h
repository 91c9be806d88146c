/* The diff report object (flame_diff_report): made and attributed in xform/diff-report.c,
 * its statistics computed in xform/diff-stats.c, read by the --top tables in
 * write/report.c and by the pictures (write/layout.c, write/html.c: a change within noise
 * is drawn as none). Here in core/ so every layer sees it. */
#ifndef FLAME_CORE_DIFF_REPORT_H
#define FLAME_CORE_DIFF_REPORT_H
#include "../flame.h"

struct flame_diff_report {
	flame_tree *tree;        /* the caller's; outlives the report */
	flame_diff_row *rows;    /* one per function, in first-seen order */
	size_t n;
	flame_diff_stat *stats;  /* one per row; NULL until statistics are computed */
	unsigned runs[2];        /* with stats: the runs of BEFORE and AFTER */
	double alpha;
	uint32_t *row_of;        /* with stats: the tree's name id -> row (UINT32_MAX: none) */
	uint32_t n_ids;
};

/** Row `i`'s statistic for `total` (1) or self (0), as a picture reads it: 1 when the
 * report has statistics and the change is within noise (not significant). */
static inline int flame__diff_report_noise(const flame_diff_report *r, uint32_t name_id,
                                           int total)
{
	if (!r || !r->stats || name_id >= r->n_ids || r->row_of[name_id] == UINT32_MAX)
		return 0;
	return !r->stats[r->row_of[name_id]].significant[total ? 1 : 0];
}
#endif
