/* The stack table: aggregate samples by their whole id sequence (one hash lookup per
 * sample) before any tree is built. Stacks keep the order of first appearance. A table
 * filled in sorted order (flame__stacks_append_sorted) needs no lookups at all, so its
 * hash index is built only when a lookup finally comes (lazily, in index_rest). */
#include <stdlib.h>
#include <string.h>
#include "../flame.h"
#include "array.h"
#include "err.h"
#include "hash.h"
#include "slots.h"
#include "stacks.h"

void flame__stacks_init(flame__stacks *s)
{
	memset(s, 0, sizeof *s);
	flame__arena_init(&s->arena);
	s->sorted = 1;
}

void flame__stacks_free(flame__stacks *s)
{
	flame__arena_free(&s->arena);
	free(s->v);
	free(s->slots);
	memset(s, 0, sizeof *s);
}

uint64_t flame__stacks_hash(const uint32_t *ids, size_t n)
{
	return flame__hash_bytes(ids, n * sizeof *ids);
}

/* A labelled stack's hash: its ids' hash with its label set mixed in. */
static inline uint32_t label_hash(uint64_t hash, uint32_t label)
{
	return (uint32_t)flame__mix64(hash + (uint64_t)label * FLAME__HASH_SEED);
}

static inline int never_eq(const void *ctx, uint32_t k)
{
	(void)ctx, (void)k;
	return 0;
}

/* Make the index cover every stack, with room for one more at load <= 1/2 (grown to
 * fit at once after a run of sorted appends), hashing the ones appended without it. */
static int index_rest(flame__stacks *s)
{
	size_t want = s->slots ? s->mask + 1 : 1024;
	while (want < (s->count + 1) * 2)
		want *= 2;
	if ((!s->slots || want > s->mask + 1) &&
	    (want > (size_t)UINT32_MAX + 1 || flame__slots_resize(&s->slots, &s->mask, want)))
		return FLAME_ENOMEM;
	for (size_t k = s->indexed; k < s->count; k++) {
		flame__stack *st = &s->v[k];
		uint64_t h = flame__stacks_hash(st->ids, st->depth);
		st->hash32 = s->labelled ? label_hash(h, st->ids[st->depth]) : (uint32_t)h;
		/* a stack of the table is unlike every other: its place is the first free slot */
		s->slots[flame__slots_probe(s->slots, s->mask, st->hash32, never_eq, NULL)] =
		    flame__slot_make(st->hash32, (uint32_t)k);
	}
	s->indexed = s->count;
	return 0;
}

/* What the probe compares: a stack of the table with the ids asked for. */
typedef struct stack_key {
	const flame__stack *v;
	const uint32_t *ids;
	size_t n;
} stack_key;

static inline int stack_eq(const void *ctx, uint32_t k)
{
	const stack_key *key = ctx;
	const flame__stack *st = &key->v[k];
	return st->depth == key->n && memcmp(st->ids, key->ids, key->n * sizeof *key->ids) == 0;
}

/* The same in a labelled table: the label set kept after the ids too. */
typedef struct stack_lkey {
	stack_key k;
	uint32_t label;
} stack_lkey;

static inline int stack_eq_labelled(const void *ctx, uint32_t k)
{
	const stack_lkey *key = ctx;
	return stack_eq(&key->k, k) && key->k.v[k].ids[key->k.n] == key->label;
}

static int add_weights(flame__stacks *s, flame__stack *st, uint64_t w0, uint64_t w1)
{
	if (st->w[0] + w0 < w0 || st->w[1] + w1 < w1 || s->total[0] + w0 < w0 ||
	    s->total[1] + w1 < w1)
		return FLAME_ERANGE;
	st->w[0] += w0;
	st->w[1] += w1;
	s->total[0] += w0;
	s->total[1] += w1;
	return 0;
}

/* Room for one more stack; 0 or FLAME_ENOMEM. */
static int grow_v(flame__stacks *s)
{
	return flame__array_reserve_min(s->v, s->cap, s->count + 1, 1024) ? FLAME_ENOMEM : 0;
}

/* Append a new stack (not yet indexed), its ids copied; NULL on out of memory. */
static flame__stack *append(flame__stacks *s, const uint32_t *ids, size_t n, uint32_t h)
{
	if (grow_v(s))
		return NULL;
	uint32_t *copy = flame__arena_alloc(&s->arena, (n + s->labelled) * sizeof *ids);
	if (!copy && n + s->labelled)
		return NULL;
	flame__copy(copy, ids, n * sizeof *ids);
	if (s->labelled)
		copy[n] = s->label;
	flame__stack *st = &s->v[s->count];
	*st = (flame__stack){copy, (uint32_t)n, h, {0, 0}};
	return st;
}

int flame__stacks_find(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t hash,
                       flame__stack **out)
{
	*out = NULL;
	if (s->indexed < s->count || !s->slots) {
		int rc = index_rest(s);
		if (rc)
			return rc;
	}
	uint64_t sl;
	if (s->labelled) {
		stack_lkey lk = {{s->v, ids, n}, s->label};
		sl = s->slots[flame__slots_probe(s->slots, s->mask, label_hash(hash, s->label),
		                                 stack_eq_labelled, &lk)];
	} else {
		stack_key key = {s->v, ids, n};
		sl = s->slots[flame__slots_probe(s->slots, s->mask, (uint32_t)hash, stack_eq, &key)];
	}
	if (sl)
		*out = &s->v[flame__slot_entry(sl)];
	return 0;
}

/* The add, with the stack's index into *at when `at` is not NULL (inlined into both
 * callers, so the plain add keeps its code); `labelled` a constant, so a table without
 * labels runs the code it ran before there were any. */
static inline int add_key(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t hash,
                          uint64_t w0, uint64_t w1, uint32_t *at, const int labelled)
{
	if (n > UINT32_MAX)
		return FLAME_ERANGE;
	if (s->indexed < s->count || !s->slots || (s->count + 1) * 2 > s->mask + 1) {
		int rc = index_rest(s);
		if (rc)
			return rc;
	}
	uint32_t h = labelled ? label_hash(hash, s->label) : (uint32_t)hash;
	stack_lkey lk = {{s->v, ids, n}, s->label};
	size_t i = labelled ? flame__slots_probe(s->slots, s->mask, h, stack_eq_labelled, &lk)
	                    : flame__slots_probe(s->slots, s->mask, h, stack_eq, &lk.k);
	if (s->slots[i]) {
		uint32_t e = flame__slot_entry(s->slots[i]);
		if (at)
			*at = e;
		return add_weights(s, &s->v[e], w0, w1);
	}
	flame__stack *st = append(s, ids, n, h);
	if (!st)
		return FLAME_ENOMEM;
	int rc = add_weights(s, st, w0, w1);
	if (rc)
		return rc;
	if (s->count)
		s->sorted = 0;
	if (at)
		*at = (uint32_t)s->count;
	s->slots[i] = flame__slot_make(h, (uint32_t)s->count++);
	s->indexed = s->count;
	return 0;
}

static inline int add_at(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t hash,
                         uint64_t w0, uint64_t w1, uint32_t *at)
{
	return s->labelled ? add_key(s, ids, n, hash, w0, w1, at, 1)
	                   : add_key(s, ids, n, hash, w0, w1, at, 0);
}

int flame__stacks_add_hashed(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t hash,
                             uint64_t w0, uint64_t w1)
{
	return add_at(s, ids, n, hash, w0, w1, NULL);
}

int flame__stacks_add_at(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t hash,
                         uint64_t w0, uint64_t w1, uint32_t *at)
{
	return add_at(s, ids, n, hash, w0, w1, at);
}

int flame__stacks_add(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t w0, uint64_t w1)
{
	return flame__stacks_add_hashed(s, ids, n, flame__stacks_hash(ids, n), w0, w1);
}

int flame__stacks_append_ref(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t w0,
                             uint64_t w1)
{
	if (n > UINT32_MAX || s->total[0] + w0 < w0 || s->total[1] + w1 < w1)
		return FLAME_ERANGE;
	if (grow_v(s))
		return FLAME_ENOMEM;
	s->v[s->count++] = (flame__stack){ids, (uint32_t)n, 0, {w0, w1}};
	s->total[0] += w0;
	s->total[1] += w1;
	return 0;
}

int flame__stacks_append_sorted(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t w0,
                                uint64_t w1)
{
	if (!s->sorted) /* (a labelled table never is: its stacks may share their text) */
		return flame__stacks_add(s, ids, n, w0, w1);
	if (n > UINT32_MAX || s->total[0] + w0 < w0 || s->total[1] + w1 < w1)
		return FLAME_ERANGE;
	uint32_t *copy = flame__arena_alloc(&s->arena, n * sizeof *ids);
	if (!copy && n)
		return FLAME_ENOMEM;
	flame__copy(copy, ids, n * sizeof *ids);
	return flame__stacks_append_ref(s, copy, n, w0, w1);
}

/* Counts of `s` times num / 10^dec exactly (merge weights): the scale `*scale` rises by
 * the decimals instead of rounding. Checked first, so a failure changes nothing. */
int flame__stacks_weigh(flame__stacks *s, unsigned *scale, uint64_t num, unsigned dec,
                        const char *source, flame_err *err)
{
	while (dec && num % 10 == 0) { /* 0.50 is 0.5 */
		num /= 10;
		dec--;
	}
	if (*scale + dec > 9)
		return flame__err(err, FLAME_ERANGE, source, 0, FLAME__NO_OFFSET,
		                  "a weight with more decimals than the counts can take (9 in all)");
	for (int c = 0; c < 2; c++)
		if (num && s->total[c] > UINT64_MAX / num)
			return flame__err(err, FLAME_ERANGE, source, 0, FLAME__NO_OFFSET,
			                  "a count overflows 64 bits");
	for (size_t k = 0; k < s->count; k++) {
		s->v[k].w[0] *= num;
		s->v[k].w[1] *= num;
	}
	s->total[0] *= num;
	s->total[1] *= num;
	*scale += dec;
	return 0;
}
