/* The diff reports for people (flame.h's flame_write_top and flame_gate) as two steps, so
 * data flows one way: xform/ attributes the rows (flame_diff_attribute: a caller whose
 * total change lies inside one callee is left to the callee), then write/report.c prints
 * them. Neither layer calls the other; this one, above both, calls each. */
#include "../write/report.h"

int flame_write_top(flame_tree *t, flame_diff_row *rows, size_t n, const flame_top_opts *o,
                    flame_text_fn fn, void *ud, flame_err *err)
{
	int rc = flame_diff_attribute(t, rows, n, o->min_delta, err);
	return rc ? rc : flame__report_top(t, rows, n, o, fn, ud, err);
}

int flame_gate(flame_tree *t, flame_diff_row *rows, size_t n, double limit_pct, flame_text_fn fn,
               void *ud, flame_err *err)
{
	/* a caller that grew only because a named callee grew is not named again */
	int rc = flame_diff_attribute(t, rows, n, flame__report_gate_limit(t, limit_pct), err);
	return rc ? rc : flame__report_gate(t, rows, n, limit_pct, fn, ud);
}
