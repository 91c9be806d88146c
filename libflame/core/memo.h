/* The one bounded memo of the library: a key of two words (an address and the file it is
 * in) to an entry number, found by one probe of core/slots.h, for the perf.data readers'
 * caches of what an address gave (perfdata-cfi.c's rules, perfdata-inline.c's inline
 * frames, perfdata-lines.c's sites, perfdata-sym.c's frame names). The owner keeps what an
 * entry holds in its own array by entry number. A memo that holds `max` entries, or whose
 * owner says its payload is past its own bound, starts again on the next add, so a
 * recording of any size is read in bounded memory. */
#ifndef FLAME_CORE_MEMO_H
#define FLAME_CORE_MEMO_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "hash.h"
#include "slots.h"

typedef struct flame__memo_key {
	uint64_t a, b;
} flame__memo_key;

typedef struct flame__memo {
	flame__memo_key *keys;
	size_t n, cap, max; /* entries, allocated, the bound (0: 1 << 20) */
	uint64_t *slots;
	size_t mask;
} flame__memo;

static inline uint32_t flame__memo_hash(uint64_t a, uint64_t b)
{
	return (uint32_t)flame__mix64(a * 0x9e3779b97f4a7c15ULL ^ b);
}

struct flame__memo_probe {
	const flame__memo *m;
	uint64_t a, b;
};
static inline int flame__memo_eq(const void *ctx, uint32_t e)
{
	const struct flame__memo_probe *k = ctx;
	return k->m->keys[e].a == k->a && k->m->keys[e].b == k->b;
}

/** The entry of (a, b): its number, or -1 when the memo has none. */
static inline int64_t flame__memo_get(const flame__memo *m, uint64_t a, uint64_t b)
{
	if (!m->slots)
		return -1;
	struct flame__memo_probe k = {m, a, b};
	uint64_t sl = m->slots[flame__slots_probe(m->slots, m->mask, flame__memo_hash(a, b),
	                                          flame__memo_eq, &k)];
	return sl ? (int64_t)flame__slot_entry(sl) : -1;
}

/** A new entry for (a, b), which the memo does not have: its number, or -1 out of memory.
 * When the memo is full, or `full` (the owner's payload is past its bound), it first
 * starts again: every entry before is gone, *restarted = 1 (the owner empties its payload)
 * and the new entry is number 0. */
static inline int64_t flame__memo_add(flame__memo *m, uint64_t a, uint64_t b, int full,
                                      int *restarted)
{
	*restarted = 0;
	if (m->n >= (m->max ? m->max : (size_t)1 << 20) || full) {
		if (m->slots)
			memset(m->slots, 0, (m->mask + 1) * sizeof *m->slots);
		m->n = 0;
		*restarted = 1;
	}
	if (flame__slots_reserve(&m->slots, &m->mask, m->n, 4096) ||
	    flame__array_reserve_min(m->keys, m->cap, m->n + 1, 4096))
		return -1;
	struct flame__memo_probe k = {m, a, b};
	uint32_t h = flame__memo_hash(a, b);
	m->slots[flame__slots_probe(m->slots, m->mask, h, flame__memo_eq, &k)] =
		flame__slot_make(h, (uint32_t)m->n);
	m->keys[m->n] = (flame__memo_key){a, b};
	return (int64_t)m->n++;
}

static inline void flame__memo_free(flame__memo *m)
{
	free(m->keys);
	free(m->slots);
	memset(m, 0, sizeof *m);
}
#endif
