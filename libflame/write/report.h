/* The diff reports for people (write/report.c): the --top tables and the regression gate's
 * lines, printed from per-function rows that are already attributed (flame_diff_attribute
 * has set each row's `inside`). request/report.c attributes the rows, then calls these:
 * write/ prints what it is given and calls nothing of xform/. */
#ifndef FLAME_WRITE_REPORT_H
#define FLAME_WRITE_REPORT_H
#include <stddef.h>
#include "../flame.h"

/** flame_write_top's text, from attributed rows. */
int flame__report_top(flame_tree *t, const flame_diff_row *rows, size_t n,
                      const flame_top_opts *o, flame_text_fn fn, void *ud, flame_err *err);

/** The gate's limit in counts: `limit_pct` % of BEFORE's total. */
double flame__report_gate_limit(flame_tree *t, double limit_pct);

/** flame_gate's lines, from rows attributed with flame__report_gate_limit's limit: sorts
 * `rows`, returns how many offenders, or the non-zero value `fn` returned (negative). */
int flame__report_gate(flame_tree *t, flame_diff_row *rows, size_t n, double limit_pct,
                       flame_text_fn fn, void *ud);
#endif
