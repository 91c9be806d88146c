/* The parsers' sink (see sink.h): the out-of-line part, over the tree's own functions. */
#include "err.h"
#include "sink.h"
#include "tree.h"

void flame__sink_init(flame__sink *k, flame_tree *t)
{
	flame__tree_sink_open(t, &k->names, &k->stacks, &k->limit);
	k->t = t;
	k->scale = flame_tree_decimals(t);
}

int flame__sink_spill(flame__sink *k, flame_err *err) { return flame__tree_maybe_spill(k->t, err); }

int flame__sink_fail(flame_err *err, int rc)
{
	if (rc == FLAME_ENOMEM)
		return flame__err_nomem(err);
	return flame__err(err, rc, "", 0, FLAME__NO_OFFSET, "a count overflows 64 bits");
}

int flame__sink_rescale(flame__sink *k, unsigned scale, flame_err *err)
{
	int rc = flame__tree_rescale(k->t, scale, err);
	k->scale = flame_tree_decimals(k->t);
	return rc;
}

void flame__sink_set_differential(flame__sink *k) { flame__tree_set_differential(k->t); }

int flame__sink_units(flame__sink *k, const char *unit, const char *type, const char *source,
                      flame_err *err)
{
	return flame__units_record(k->t, unit, type, source, err);
}
