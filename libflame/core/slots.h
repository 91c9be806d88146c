/* The one open-addressing probe of the library, under core's name table (intern.c) and
 * stack table (stacks.c), the text readers' stack cache (parse/scan.h), perf's line cache
 * (parse/perf.c) and the writers' name maps (palette, --nameattr). A table is a
 * power-of-two array of 64-bit slots, each 0 (empty) or `hash32 << 32 | (entry + 1)`:
 * the caller keeps its entries in its own array and says what "equal" means; the hash in
 * the slot spares a visit to the entry on most mismatches and lets the table grow
 * without hashing anything again. */
#ifndef FLAME_CORE_SLOTS_H
#define FLAME_CORE_SLOTS_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline uint64_t flame__slot_make(uint32_t hash32, uint32_t entry)
{
	return (uint64_t)hash32 << 32 | ((uint64_t)entry + 1);
}

/** The entry of a full slot. */
static inline uint32_t flame__slot_entry(uint64_t slot)
{
	return (uint32_t)slot - 1;
}

/** The slot on `hash32`'s probe path that holds an entry `eq(ctx, entry)` accepts, or the
 * empty slot where such an entry would go. The table must have an empty slot. Inline with
 * a constant `eq`, the compiler makes one loop of it for each caller. */
static inline size_t flame__slots_probe(const uint64_t *slots, size_t mask, uint32_t hash32,
                                        int (*eq)(const void *ctx, uint32_t entry),
                                        const void *ctx)
{
	for (size_t i = hash32 & mask;; i = (i + 1) & mask) {
		uint64_t s = slots[i];
		if (!s || ((uint32_t)(s >> 32) == hash32 && eq(ctx, flame__slot_entry(s))))
			return i;
	}
}

/** The same, looking at `limit` slots at most: SIZE_MAX when none of them is the one (a
 * cache fed keys made to collide declines to keep them, rather than make every probe
 * long). */
static inline size_t flame__slots_probe_at_most(const uint64_t *slots, size_t mask,
                                                uint32_t hash32, size_t limit,
                                                int (*eq)(const void *ctx, uint32_t entry),
                                                const void *ctx)
{
	for (size_t i = hash32 & mask, k = 0; k < limit; k++, i = (i + 1) & mask) {
		uint64_t s = slots[i];
		if (!s || ((uint32_t)(s >> 32) == hash32 && eq(ctx, flame__slot_entry(s))))
			return i;
	}
	return SIZE_MAX;
}

/** Resize the table `*slots` (NULL: none yet; else `*mask + 1` slots) to `nslots`, a power
 * of two larger than the number of entries, placing every entry again. 0, or -1 on out of
 * memory (or too many slots) with the table untouched. */
static inline int flame__slots_resize(uint64_t **slots, size_t *mask, size_t nslots)
{
	if (nslots == 0 || (nslots & (nslots - 1)) || nslots > SIZE_MAX / sizeof **slots)
		return -1;
	uint64_t *v = calloc(nslots, sizeof *v);
	if (!v)
		return -1;
	size_t m = nslots - 1;
	for (size_t k = 0; *slots && k <= *mask; k++) {
		uint64_t s = (*slots)[k];
		if (!s)
			continue;
		size_t i = (uint32_t)(s >> 32) & m;
		while (v[i])
			i = (i + 1) & m;
		v[i] = s;
	}
	free(*slots);
	*slots = v;
	*mask = m;
	return 0;
}

/** Make room for one more entry beside `count`, keeping the load factor at most 1/2: the
 * table doubles (from `first` slots). 0, or -1 on out of memory. */
static inline int flame__slots_reserve(uint64_t **slots, size_t *mask, size_t count, size_t first)
{
	size_t n = *slots ? *mask + 1 : 0;
	if ((count + 1) * 2 <= n)
		return 0;
	return flame__slots_resize(slots, mask, n ? n * 2 : first);
}
#endif
