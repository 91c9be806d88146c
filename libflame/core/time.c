/* The time table (see time.h): entries appended as parsers add timed samples, summed
 * in place while one stack's samples follow one another in a bucket, and compacted by
 * sorting when the array fills, so it grows with the distinct (stack, bucket) pairs, not
 * with the samples. */
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "err.h"
#include "stacks.h"
#include "time.h"
#include "u128.h"

flame__time *flame__time_new(uint64_t bucket_ns)
{
	if (!bucket_ns || bucket_ns > INT64_MAX)
		return NULL;
	flame__time *tm = calloc(1, sizeof *tm);
	if (tm)
		tm->bucket_ns = bucket_ns;
	return tm;
}

void flame__time_free(flame__time *tm)
{
	if (!tm)
		return;
	free(tm->v);
	free(tm);
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int cmp_entry(const void *a, const void *b)
{
	const flame__time_entry *x = a, *y = b;
	if (x->stack != y->stack)
		return x->stack < y->stack ? -1 : 1;
	return (x->bucket > y->bucket) - (x->bucket < y->bucket);
}

int flame__time_compact(flame__time *tm)
{
	if (tm->compacted == tm->count)
		return 0;
	flame__sort(tm->v, tm->count, sizeof *tm->v, cmp_entry);
	size_t o = 0;
	for (size_t i = 0; i < tm->count; i++) {
		flame__time_entry *e = &tm->v[i];
		if (o && tm->v[o - 1].stack == e->stack && tm->v[o - 1].bucket == e->bucket) {
			tm->v[o - 1].w[0] += e->w[0];
			tm->v[o - 1].w[1] += e->w[1];
		} else if (e->w[0] || e->w[1]) {
			tm->v[o++] = *e;
		}
	}
	tm->count = tm->compacted = o;
	return 0;
}

/* Room for one more entry: compact first when that frees a good part of the array. */
static int room(flame__time *tm)
{
	if (tm->count < tm->cap)
		return 0;
	if (tm->count - tm->compacted > tm->cap / 4) {
		flame__time_compact(tm);
		if (tm->count < tm->cap - tm->cap / 4)
			return 0;
	}
	return flame__array_reserve_min(tm->v, tm->cap, tm->count + 1, 4096) ? FLAME_ENOMEM : 0;
}

/* The clock and span checks of a time `ns`; *rel its bucket from base. */
static int place(flame__time *tm, flame_clock clock, int64_t ns, int32_t *rel)
{
	int64_t abs = floor_div(ns, (int64_t)tm->bucket_ns);
	if (tm->clock == FLAME_CLOCK_NONE) {
		tm->clock = clock;
		tm->base = abs;
		tm->first_ns = tm->last_ns = ns;
	} else if (tm->clock != clock) {
		return FLAME_EDATA;
	}
	int64_t r = abs - tm->base;
	if (r < INT32_MIN || r > INT32_MAX)
		return FLAME_ERANGE;
	*rel = (int32_t)r;
	if (ns < tm->first_ns)
		tm->first_ns = ns;
	if (ns > tm->last_ns)
		tm->last_ns = ns;
	return 0;
}

int flame__time_reach(flame__time *tm, flame_clock clock, int64_t ns)
{
	int32_t b;
	return place(tm, clock, ns, &b);
}

/* Weights of `stack` in bucket `b` (from base). */
static int append(flame__time *tm, uint32_t stack, int32_t b, uint64_t w0, uint64_t w1)
{
	int rc;
	if (tm->count > tm->compacted) {
		flame__time_entry *last = &tm->v[tm->count - 1];
		if (last->stack == stack && last->bucket == b) {
			last->w[0] += w0;
			last->w[1] += w1;
			return 0;
		}
	}
	if ((rc = room(tm)))
		return rc;
	tm->v[tm->count++] = (flame__time_entry){stack, b, {w0, w1}};
	return 0;
}

int flame__time_put(flame__time *tm, uint32_t stack, flame_clock clock, int64_t ns,
                    uint64_t w0, uint64_t w1)
{
	int32_t b;
	int rc = place(tm, clock, ns, &b);
	return rc ? rc : append(tm, stack, b, w0, w1);
}

void flame__time_remap(flame__time *tm, const uint32_t *map, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < tm->count; i++) {
		flame__time_entry e = tm->v[i];
		if (e.stack >= n || map[e.stack] == UINT32_MAX)
			continue;
		e.stack = map[e.stack];
		tm->v[o++] = e;
	}
	tm->count = o;
	tm->compacted = 0; /* stacks merged by the map may now repeat */
	flame__time_compact(tm);
}

int flame__time_add(flame__time *dst, const flame__time *src, const uint32_t *map, uint64_t mult,
                    int to_after)
{
	if (src->clock == FLAME_CLOCK_NONE)
		return 0;
	int rc = flame__time_reach(dst, src->clock, src->first_ns);
	if (!rc)
		rc = flame__time_reach(dst, src->clock, src->last_ns);
	for (size_t i = 0; i < src->count && !rc; i++) {
		const flame__time_entry *e = &src->v[i];
		if (map[e->stack] == UINT32_MAX)
			continue;
		flame__u128 a = (flame__u128)e->w[0] * mult, b = (flame__u128)e->w[1] * mult;
		if (a > UINT64_MAX || b > UINT64_MAX)
			return FLAME_ERANGE;
		int64_t abs = floor_div(flame__time_bucket_ns(src, e->bucket), (int64_t)dst->bucket_ns);
		if (abs - dst->base < INT32_MIN || abs - dst->base > INT32_MAX)
			return FLAME_ERANGE;
		rc = to_after ? append(dst, map[e->stack], (int32_t)(abs - dst->base), 0, (uint64_t)a)
		              : append(dst, map[e->stack], (int32_t)(abs - dst->base), (uint64_t)a, (uint64_t)b);
	}
	return rc;
}

void flame__time_scale(flame__time *tm, uint64_t m)
{
	for (size_t i = 0; i < tm->count; i++) {
		tm->v[i].w[0] *= m;
		tm->v[i].w[1] *= m;
	}
}

int flame__time_spread(flame__time *tm, const flame__stacks *s, const uint32_t *at,
                       flame_clock clock, int64_t start_ns, int64_t end_ns)
{
	uint64_t span = end_ns > start_ns ? (uint64_t)(end_ns - start_ns) : 0;
	uint64_t slices = span / 1000000000u, step;
	if (slices > 60)
		slices = 60;
	if (slices > span / tm->bucket_ns)
		slices = span / tm->bucket_ns;
	if (slices == 0)
		slices = 1;
	step = span / slices;
	int rc = flame__time_reach(tm, clock, start_ns);
	if (!rc && end_ns > start_ns)
		rc = flame__time_reach(tm, clock, end_ns);
	for (size_t k = 0; k < s->count && !rc; k++) {
		const flame__stack *st = &s->v[k];
		if (at[k] == UINT32_MAX || (!st->w[0] && !st->w[1]))
			continue;
		for (uint64_t i = 0; i < slices && !rc; i++) {
			uint64_t w0 = st->w[0] / slices + (i == 0 ? st->w[0] % slices : 0);
			uint64_t w1 = st->w[1] / slices + (i == 0 ? st->w[1] % slices : 0);
			if (w0 || w1)
				rc = flame__time_put(tm, at[k], clock, start_ns + (int64_t)(i * step), w0, w1);
		}
	}
	return rc;
}

int flame__time_err(flame_err *err, int rc, const flame__time *tm)
{
	if (rc == FLAME_EDATA)
		return flame__err(err, rc, "", 0, FLAME__NO_OFFSET,
		                  "inputs on different clocks (perf's, the wall clock, jfr print's time of "
		                  "day) cannot share one timeline");
	if (rc == FLAME_ERANGE)
		return flame__err(err, rc, "", 0, FLAME__NO_OFFSET,
		                  "the samples' times span more than 2^31 buckets of %llu ns",
		                  (unsigned long long)tm->bucket_ns);
	return rc;
}
