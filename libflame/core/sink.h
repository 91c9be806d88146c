/* The one way parsers put stacks into a tree (parse/ -> core/): intern a name, add a
 * root-first stack of name ids with its two weights (with a hint when the input is sorted),
 * raise the decimal scale, mark the tree differential, set the count name. Adding does the
 * spill check, so no parser can bypass the memory limit. The add and intern paths are
 * inline (a hash-table insert and a size compare): they run once per sample. */
#ifndef FLAME_CORE_SINK_H
#define FLAME_CORE_SINK_H
#include "../flame.h"
#include "intern.h"
#include "stacks.h"

typedef struct flame__sink {
	flame_tree *t;
	flame__intern *names;  /* the tree's names */
	flame__stacks *stacks; /* the tree's in-memory table */
	size_t limit;          /* spill past this many bytes (0: never) */
	unsigned scale;        /* the tree's decimal scale (changed only through the sink) */
	struct flame__time *time; /* the tree's time table, NULL unless it keeps time */
} flame__sink;

/** Start adding to `t` (its node tree is stale from here on). */
void flame__sink_init(flame__sink *k, flame_tree *t);

/** Spill (or drain) the table: called by the adds once it is past the limit. */
int flame__sink_spill(flame__sink *k, flame_err *err);
/** Fill `err` for a failed add: out of memory, or a count overflowing 64 bits. */
int flame__sink_fail(flame_err *err, int rc);

static inline uint32_t flame__sink_intern(flame__sink *k, const char *p, size_t n)
{
	return flame__intern_put(k->names, p, n);
}
static inline uint32_t flame__sink_intern_hashed(flame__sink *k, const char *p, size_t n,
                                                 uint64_t h)
{
	return flame__intern_put_hashed(k->names, p, n, h);
}

/* The size compare is inline: the call goes out only to spill. */
static inline int flame__sink_done(flame__sink *k, int rc, flame_err *err)
{
	if (rc)
		return flame__sink_fail(err, rc);
	if (k->limit && flame__stacks_bytes(k->stacks) >= k->limit)
		return flame__sink_spill(k, err);
	return 0;
}

/** Add weights to the stack ids[0..n) (root-first). 0, or a status with `err` filled
 * (FLAME_ERANGE's message is generic: a caller may name its line). */
static inline int flame__sink_add(flame__sink *k, const uint32_t *ids, size_t n, uint64_t w0,
                                  uint64_t w1, flame_err *err)
{
	return flame__sink_done(k, flame__stacks_add(k->stacks, ids, n, w0, w1), err);
}
/** The same with the hash of the ids known (flame__stacks_hash). */
static inline int flame__sink_add_hashed(flame__sink *k, const uint32_t *ids, size_t n,
                                         uint64_t h, uint64_t w0, uint64_t w1, flame_err *err)
{
	return flame__sink_done(k, flame__stacks_add_hashed(k->stacks, ids, n, h, w0, w1), err);
}
/** The sorted-input hint: the stack's folded text sorts after the last stack added (see
 * flame__stacks_append_sorted), so no lookup while the table stays sorted. */
static inline int flame__sink_add_sorted(flame__sink *k, const uint32_t *ids, size_t n,
                                         uint64_t w0, uint64_t w1, flame_err *err)
{
	return flame__sink_done(k, flame__stacks_append_sorted(k->stacks, ids, n, w0, w1), err);
}

/** Add weights to a stack sampled at absolute time `ns` of `clock`: its time is kept when
 * the tree keeps time (k->time), else this is flame__sink_add. */
int flame__sink_time_add(flame__sink *k, const uint32_t *ids, size_t n, uint64_t w0,
                         uint64_t w1, flame_clock clock, int64_t ns, flame_err *err);
static inline int flame__sink_add_timed(flame__sink *k, const uint32_t *ids, size_t n,
                                        uint64_t w0, uint64_t w1, flame_clock clock, int64_t ns,
                                        flame_err *err)
{
	if (!k->time)
		return flame__sink_add(k, ids, n, w0, w1, err);
	return flame__sink_time_add(k, ids, n, w0, w1, clock, ns, err);
}

/** flame__sink_add, with the stack's place in the table into *at (when `at` is not NULL),
 * for a parser that times its samples after adding them (JFR text). */
int flame__sink_add_at(flame__sink *k, const uint32_t *ids, size_t n, uint64_t w0, uint64_t w1,
                       uint32_t *at, flame_err *err);
/** Weights of the stack at place `at` at time `ns` of `clock` (k->time must be set). */
int flame__sink_time_put(flame__sink *k, uint32_t at, flame_clock clock, int64_t ns, uint64_t w0,
                         uint64_t w1, flame_err *err);

/** The label set (core/labels.h) of the stacks added next, when the tree keeps labels
 * (flame__tree_labels); 0 (none) until set. */
static inline void flame__sink_label(flame__sink *k, uint32_t set) { k->stacks->label = set; }

/** Unique stacks in memory now (a spill empties the table). */
static inline size_t flame__sink_count(const flame__sink *k) { return k->stacks->count; }

/** The tree's decimal scale; raise it (<= 9) by multiplying every count up. */
static inline unsigned flame__sink_scale(const flame__sink *k) { return k->scale; }
int flame__sink_rescale(flame__sink *k, unsigned scale, flame_err *err);
/** Mark the tree differential (3-column input). */
void flame__sink_set_differential(flame__sink *k);
/** The unit the counts are in (and the sample type, or NULL), as core/units.h records
 * them: an input in other units than the tree's earlier ones is refused, naming `source`. */
int flame__sink_units(flame__sink *k, const char *unit, const char *type, const char *source,
                      flame_err *err);
#endif
