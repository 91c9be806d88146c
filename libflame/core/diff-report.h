/* The diff report object (flame_diff_report): made and attributed in xform/diff-report.c,
 * read by the --top tables in write/report.c. Here in core/ so both layers see it. */
#ifndef FLAME_CORE_DIFF_REPORT_H
#define FLAME_CORE_DIFF_REPORT_H
#include "../flame.h"

struct flame_diff_report {
	flame_tree *tree;     /* the caller's; outlives the report */
	flame_diff_row *rows; /* one per function, in first-seen order */
	size_t n;
};
#endif
