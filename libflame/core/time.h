/* Time kept beside the stacks (flame_tree_keep_time): for each unique stack of the table,
 * its weight per time bucket, as an appended array of (stack, bucket, weights) compacted
 * by sorting. Optional: a tree that does not keep time has no table (a NULL pointer), so
 * parsing, transforms and writers cost what they cost without it. Buckets are aligned on
 * multiples of bucket_ns of the input's clock (perf's seconds since boot, the Unix epoch),
 * so inputs merged on one clock (a day of 10-second pprof profiles) share one axis.
 * core/tree.c keeps the stack numbers true through rewrites and merges. */
#ifndef FLAME_CORE_TIME_H
#define FLAME_CORE_TIME_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"

typedef struct flame__time_entry {
	uint32_t stack;  /* index into the tree's stack table */
	int32_t bucket;  /* from `base` */
	uint64_t w[2];   /* the stack's two columns, as the table's */
} flame__time_entry;

typedef struct flame__time {
	uint64_t bucket_ns;
	flame_clock clock;    /* FLAME_CLOCK_NONE until the first time */
	int64_t base;         /* the absolute bucket (time / bucket_ns) of bucket 0 */
	int64_t first_ns, last_ns; /* the span: first and last time seen (last: the end of a
	                            * pprof profile's duration) */
	flame__time_entry *v;
	size_t count, cap;
	size_t compacted;     /* v[0..compacted) sorted by (stack, bucket), keys distinct */
} flame__time;

/** A new empty table of `bucket_ns` buckets (> 0), or NULL. */
flame__time *flame__time_new(uint64_t bucket_ns);
void flame__time_free(flame__time *tm);

/** Weights of stack `stack` at absolute time `ns` of `clock`. 0, FLAME_ENOMEM, FLAME_EDATA
 * (another clock than the table's), FLAME_ERANGE (a span past 2^31 buckets). */
int flame__time_put(flame__time *tm, uint32_t stack, flame_clock clock, int64_t ns,
                    uint64_t w0, uint64_t w1);
/** The message of a status the table's functions return: FLAME_EDATA (inputs on different
 * clocks) and FLAME_ERANGE (a span past 2^31 buckets) into `err`; returns `rc`, any other
 * status untold (the caller's to tell). */
int flame__time_err(flame_err *err, int rc, const flame__time *tm);
/** Widen the span to `ns` with no weight (the end of a pprof profile). */
int flame__time_reach(flame__time *tm, flame_clock clock, int64_t ns);

/** Sort by (stack, bucket), sum equal keys, drop zero weights. 0 or FLAME_ENOMEM. */
int flame__time_compact(flame__time *tm);

/** Stack numbers changed: entry stacks become map[stack], dropped where UINT32_MAX. */
void flame__time_remap(flame__time *tm, const uint32_t *map, size_t n);

/** Add the entries of `src` to `dst`, stack numbers through `map` (UINT32_MAX: none),
 * weights times `mult` (with `to_after`, src's column 0 goes to column 1: a diff's AFTER),
 * re-bucketed to dst's bucket size. 0, FLAME_ENOMEM, FLAME_EDATA (clocks differ),
 * FLAME_ERANGE. */
int flame__time_add(flame__time *dst, const flame__time *src, const uint32_t *map, uint64_t mult,
                    int to_after);

struct flame__stacks;
/** Every stack k of `s` with weights, at stack number at[k] (UINT32_MAX: none), spread
 * evenly over [start_ns, end_ns): a slice a second (at most 60, at least one bucket each),
 * the remainder in the first. */
int flame__time_spread(flame__time *tm, const struct flame__stacks *s, const uint32_t *at,
                       flame_clock clock, int64_t start_ns, int64_t end_ns);

/** Every weight times `m` (the table's counts were checked to fit). */
void flame__time_scale(flame__time *tm, uint64_t m);

/** The absolute start of bucket `b` in ns. */
static inline int64_t flame__time_bucket_ns(const flame__time *tm, int32_t b)
{
	return (tm->base + b) * (int64_t)tm->bucket_ns;
}
#endif
