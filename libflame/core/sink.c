/* The parsers' sink (see sink.h): the out-of-line part, over the tree's own functions. */
#include "err.h"
#include "sink.h"
#include "time.h"
#include "tree.h"

void flame__sink_init(flame__sink *k, flame_tree *t)
{
	flame__tree_sink_open(t, &k->names, &k->stacks, &k->limit);
	k->t = t;
	k->scale = flame_tree_decimals(t);
	k->time = flame__tree_time(t);
}

int flame__sink_time_put(flame__sink *k, uint32_t at, flame_clock clock, int64_t ns, uint64_t w0,
                         uint64_t w1, flame_err *err)
{
	int rc = flame__time_put(k->time, at, clock, ns, w0, w1);
	if (rc == FLAME_EDATA || rc == FLAME_ERANGE)
		return flame__time_err(err, rc, k->time);
	return rc ? flame__sink_fail(err, rc) : 0;
}

int flame__sink_add_at(flame__sink *k, const uint32_t *ids, size_t n, uint64_t w0, uint64_t w1,
                       uint32_t *at, flame_err *err)
{
	uint32_t where;
	int rc = flame__stacks_add_at(k->stacks, ids, n, flame__stacks_hash(ids, n), w0, w1, &where);
	if (at)
		*at = where;
	return flame__sink_done(k, rc, err);
}

int flame__sink_time_add(flame__sink *k, const uint32_t *ids, size_t n, uint64_t w0,
                         uint64_t w1, flame_clock clock, int64_t ns, flame_err *err)
{
	uint32_t at;
	int rc = flame__stacks_add_at(k->stacks, ids, n, flame__stacks_hash(ids, n), w0, w1, &at);
	if (rc)
		return flame__sink_fail(err, rc);
	return flame__sink_time_put(k, at, clock, ns, w0, w1, err);
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
