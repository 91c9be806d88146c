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

#endif
