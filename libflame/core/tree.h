/* The flame_tree object: names + stack table (what parsers fill) and the node tree
 * built from it on demand (what writers walk). */
#ifndef FLAME_CORE_TREE_H
#define FLAME_CORE_TREE_H
#include "../flame.h"
#include "intern.h"
#include "order.h"
#include "stacks.h"
#include "units.h"

typedef struct flame__node {
	uint32_t name;
	uint32_t parent, first_child, next_sibling;
	uint32_t depth;
	uint64_t self[2];
	uint64_t total[2];
} flame__node;


/** 10^0 .. 10^19: decimal scales of counts, shared by every parser and writer. */
extern const uint64_t flame__pow10[20];

/** Intern a name into the tree (FLAME__ID_NONE on out of memory). Parsers use the inline
 * flame__sink_intern instead. */
uint32_t flame__tree_intern(flame_tree *t, const char *p, size_t n);

/** Add a root-first stack of name ids; invalidates the node tree. */
int flame__tree_add_ids(flame_tree *t, const uint32_t *ids, size_t n, uint64_t w0, uint64_t w1,
                        flame_err *err);

/** The same for a stack whose folded text sorts bytewise after the table's last stack
 * (flame__stacks_append_sorted): no lookup while the table is sorted. */
int flame__tree_append_sorted_ids(flame_tree *t, const uint32_t *ids, size_t n, uint64_t w0,
                                  uint64_t w1, flame_err *err);

/** Every stack of `t` in its in-memory table: spilled runs are read back into it first, so
 * every reader gets the same stacks spilled or not. The way to the stacks for any code
 * outside core/ (only the folded writer streams the runs instead: flame__tree_each_sorted).
 * 0, or FLAME_EIO / FLAME_ENOMEM with `err` filled (and `*out` NULL). */
int flame__tree_stacks(flame_tree *t, flame__stacks **out, flame_err *err);

/** The tree's interned frame names (ids index them), for reading. */
const flame__intern *flame__tree_names(const flame_tree *t);
/** A new empty tree with the scale, differential mark and count name of `t` (a writer's
 * private tree: reversed stacks, the removed-frames panel). NULL on out of memory. */
flame_tree *flame__tree_new_like(const flame_tree *t);

/** A new empty tree, or NULL when out of memory (flame_tree_new for the library's own
 * callers, which report the failure themselves). */
flame_tree *flame__tree_new(void);
/** The nodes of the built tree (`*n` of them), or NULL when it is not built or stale. */
const flame__node *flame__tree_nodes(const flame_tree *t, size_t *n);
/** The id of the root's name ("all"). */
uint32_t flame__tree_root_name(const flame_tree *t);
/** For core/sink.c: the tree's names, in-memory table and spill limit, for adding stacks
 * inline (the node tree is marked stale). */
void flame__tree_sink_open(flame_tree *t, flame__intern **names, flame__stacks **stacks,
                           size_t *limit);
/** For read/combine.c, which streams an input's stacks in blocks: past `limit` bytes of
 * table, hand the tree to `fn` instead of spilling a run; `fn` takes the table with
 * flame__tree_take_stacks. */
void flame__tree_set_drain(flame_tree *t, size_t limit,
                           int (*fn)(void *ud, flame_tree *t, flame_err *err), void *ud);
/** Move the in-memory table into `*out`, leaving the tree an empty one. */
void flame__tree_take_stacks(flame_tree *t, flame__stacks *out);
/** 1 when `t` was marked differential (3-column input, or a diff), whatever its counts. */
int flame__tree_marked_differential(const flame_tree *t);
/** Mark `t` differential (a diff's tree, even where column 1 is all 0). */
void flame__tree_set_differential(flame_tree *t);
/** 1 when the stacks of `t` are leaf-first (flame_reverse_stacks), so a picture that is
 * read back can say so (the SVG's data-reverse). */
int flame__tree_reversed(const flame_tree *t);
void flame__tree_set_reversed(flame_tree *t, int reversed);

/** One stack through flame__tree_rewrite: `ids[0..depth)` root-first and its weights in
 * `w` (the new weights are written back there). Rewriting ids, write the new stack into
 * `out` (room for `depth` ids) and return its depth, 0 to drop it; rewriting weights only
 * (`out` NULL), return 0. A negative flame_status (FLAME_ERANGE) stops the rewrite. */
typedef int (*flame__rewrite_fn)(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                                 uint64_t w[2]);
enum { FLAME__REWRITE_WEIGHTS = 1 /* `fn` changes weights only: in place, order kept */ };
/** Rewrite every stack of `t` (spilled runs too) through `fn`: the one skeleton of the
 * transforms (filter, skip-after, strip-hex, scaling, weighting, swapping columns). Ids
 * rewritten: stacks that become equal are summed into a fresh table. Weights only: `fn`
 * runs twice per stack (it must give the same answer), once to check the totals fit, so a
 * failure leaves `t` unchanged either way. 0, or a negative status with `err` filled. */
int flame__tree_rewrite(flame_tree *t, flame__rewrite_fn fn, void *ud, int flags,
                        flame_err *err);

/** Spill when the table passed the memory limit (0: never), or hand it to the drain hook.
 * Call after adding stacks. */
int flame__tree_maybe_spill(flame_tree *t, flame_err *err);

/** Stacks added so far, for progress reports: the table's unique stacks plus those spilled
 * or drained before (a stack in two runs counts twice). Read it on the thread adding. */
uint64_t flame__tree_stacks_seen(const flame_tree *t);
/** 1 when runs were spilled; how many (tests). */
int flame__tree_spilled(const flame_tree *t);
size_t flame__tree_spill_runs(const flame_tree *t);
/** For a writer of folded text order (the folded writer): when runs were spilled, the
 * stacks still in memory become one more run and every stack of all runs goes to `emit` in
 * text order, equal stacks summed (`*mem` NULL: the runs stay, the table is empty); else
 * `*mem` is the in-memory table, for the caller to order. */
int flame__tree_stream_sorted(flame_tree *t, flame__stacks **mem, flame__emit_fn emit, void *ud,
                              flame_err *err);

/** 1 when the tree holds any stack (in memory or spilled); no I/O. */
int flame__tree_has_stacks(const flame_tree *t);

/** Raise the tree's scale to `scale` (<= 9) by multiplying every count up. */
int flame__tree_rescale(flame_tree *t, unsigned scale, flame_err *err);

/** The stacks of `t` in frame order (flame__order_frames). 0 or FLAME_ENOMEM. */
int flame__tree_frame_order(const flame_tree *t, flame__frame_order *fo);

/* ---- the units of a tree: core/units.c's rule on the tree's flame__units, told whether
 * the tree holds stacks */

/** What the counts of `t` measure, for reading (the pprof writer). */
const flame__units *flame__tree_units(const flame_tree *t);
/** flame__units_take on `t` (parsers, through flame__sink_units). */
int flame__units_record(flame_tree *t, const char *unit, const char *type, const char *source,
                        flame_err *err);
/** Before adding the stacks of `src` to `dst`: flame__units_add. */
int flame__units_join(flame_tree *dst, const flame_tree *src, flame_err *err);
/** flame__units_describe on `t` (0). */
int flame__units_set_pprof(flame_tree *t, const char *type, const char *ptype,
                           const char *punit, uint64_t period, int with_samples);
/** flame__units_widen on `t`. */
void flame__units_set_duration(flame_tree *t, uint64_t ns);
/** flame__units_is_cpu_time of `t`. */
int flame__units_cpu_time(const flame_tree *t);

/* ---- time (core/time.h; the public side is core/tree-time.c) */

struct flame__time;
/** The time table of `t`, NULL when it keeps none (parsers ask before timing samples). */
struct flame__time *flame__tree_time(const flame_tree *t);

/** Forget the time `t` keeps (a tree read for a time range, merged into one that keeps
 * none). */
void flame__tree_drop_time(flame_tree *t);

/** Where a merge puts weights that had no time: every stack of the source spread evenly
 * over [start_ns, end_ns) of `clock` (a pprof profile's time_nanos and duration). */
typedef struct flame__tree_at {
	flame_clock clock;
	int64_t start_ns, end_ns;
} flame__tree_at;

/** flame_tree_merge; with `at` (not NULL) and `dst` keeping time, the stacks of `src`
 * are put in time as `at` says. */
int flame__tree_merge_at(flame_tree *dst, flame_tree *src, const flame__tree_at *at,
                         flame_err *err);

/** A diff's AFTER time: the entries of `src` (column 0, times `m`) into column 1 of `dst`'s
 * table (made when `dst` keeps none), `at[k]` the place of src's stack k in dst. */
int flame__tree_time_join(flame_tree *dst, const flame_tree *src, const uint32_t *at, uint64_t m,
                          flame_err *err);

/* ---- sites (core/sites.h; the public side is core/tree-sites.c) */

struct flame__sites;
/** The site table of `t`, NULL when it keeps none (the pprof reader asks before naming
 * frames with their sites). */
struct flame__sites *flame__tree_sites(const flame_tree *t);
/** The names of `t` for adding frames to (core/sites.c's flame__sites_frame). */
flame__intern *flame__tree_names_mut(flame_tree *t);

/* ---- labels (core/labels.h; the public side is core/tree-labels.c) */

struct flame__labels;
/** The label-set table of `t`, NULL when it keeps none (parsers ask before labelling
 * samples; the set of the stacks added next is the table's `label`, core/stacks.h). */
struct flame__labels *flame__tree_labels(const flame_tree *t);
/** Where the label sets of `src` are in `dst` (made to keep labels when src keeps some):
 * `*map` (to free) indexed by src's set ids, NULL when src keeps none. 0 or FLAME_ENOMEM
 * with `err` filled. */
int flame__tree_label_map(flame_tree *dst, const flame_tree *src, uint32_t **map,
                          flame_err *err);

/* ---- every sample type's values (core/values.h) */

struct flame__values;
/** The values table of `t`, NULL when it keeps none. */
struct flame__values *flame__tree_values(const flame_tree *t);
/** Give `t` the table `vt` (taken over; NULL: none), freeing the one it had. */
void flame__tree_set_values(flame_tree *t, struct flame__values *vt);
/** Forget the values `t` keeps: what a change of column 0 that the rows cannot follow does
 * (a weight rewrite, a time cut, a diff, a merge with other types or none). */
void flame__tree_drop_values(flame_tree *t);

/** Replace the stacks of `t` by those of `fresh` (same name table), freeing the old ones:
 * how transforms that rewrite stacks re-aggregate. */
void flame__tree_replace_stacks(flame_tree *t, flame__stacks *fresh);
#endif
