/* Name interning: bytes -> dense uint32 id, names stored once in an arena
 * (an open-addressing table, as xkbcommon's atom table). */
#ifndef FLAME_CORE_INTERN_H
#define FLAME_CORE_INTERN_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "arena.h"
#include "slots.h"

#define FLAME__ID_NONE UINT32_MAX

typedef struct flame__name {
	const char *ptr; /* in the arena, NUL-terminated for convenience */
	uint32_t len;
	uint32_t hash32;
} flame__name;

typedef struct flame__intern {
	flame__arena arena;
	flame__name *names; /* id -> name */
	uint32_t count;
	size_t cap;
	uint64_t *slots;    /* core/slots.h's table: hash32 << 32 | (id + 1); 0 = empty */
	size_t mask;
} flame__intern;

/** The bytewise order of a[0..an) and b[0..bn), a prefix first: < 0, 0 or > 0. The one
 * comparison of names and strings as bytes (sorting names, labels, report rows). */
static inline int flame__bytes_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	size_t n = an < bn ? an : bn;
	int c = n ? memcmp(a, b, n) : 0;
	return c ? c : (an > bn) - (an < bn);
}

void flame__intern_init(flame__intern *in);
void flame__intern_free(flame__intern *in);
/** Id of `p[0..n)`, adding it if new; FLAME__ID_NONE on out of memory or n >= 4 GiB. */
uint32_t flame__intern_put(flame__intern *in, const char *p, size_t n);
/** Same, with a precomputed flame__hash_bytes(p, n). */
uint32_t flame__intern_put_hashed(flame__intern *in, const char *p, size_t n, uint64_t h);
/** A new id naming the bytes of `id` (lookups by bytes still give `id`): a frame of that
 * name at another site (core/sites.c). FLAME__ID_NONE on out of memory. */
uint32_t flame__intern_dup(flame__intern *in, uint32_t id);
/** Id of an existing name, or FLAME__ID_NONE. */
uint32_t flame__intern_find(const flame__intern *in, const char *p, size_t n);
static inline const flame__name *flame__intern_get(const flame__intern *in, uint32_t id)
{
	return &in->names[id];
}

/** Do the n bytes of interned name `a` equal b[0..n), where b is followed by at least 8
 * readable bytes? Words are compared whole: names sit 8-aligned in the arena, so the
 * last word of a name stays inside its allocation (the bytes past it are masked). */
static inline int flame__name_eq_padded(const char *a, const char *b, size_t n)
{
	size_t k = 0;
	uint64_t x, y;
	for (; k + 8 <= n; k += 8) {
		memcpy(&x, a + k, 8);
		memcpy(&y, b + k, 8);
		if (x != y)
			return 0;
	}
	if (k == n)
		return 1;
	memcpy(&x, a + k, 8);
	memcpy(&y, b + k, 8);
	return ((x ^ y) << (8 * (8 - (n - k)))) == 0; /* little-endian: the low bytes count */
}

/* What the probe compares: the name asked for, and whether 8 readable bytes follow it. */
typedef struct flame__intern_key {
	const flame__intern *in;
	const char *p;
	size_t n;
} flame__intern_key;

static inline int flame__intern_eq(const void *ctx, uint32_t id)
{
	const flame__intern_key *k = (const flame__intern_key *)ctx;
	const flame__name *nm = &k->in->names[id];
	return nm->len == k->n && memcmp(nm->ptr, k->p, k->n) == 0;
}

static inline int flame__intern_eq_padded(const void *ctx, uint32_t id)
{
	const flame__intern_key *k = (const flame__intern_key *)ctx;
	const flame__name *nm = &k->in->names[id];
	return nm->len == k->n && flame__name_eq_padded(nm->ptr, k->p, k->n);
}

/** flame__intern_find with a precomputed hash, for a name followed by 8 readable bytes
 * (no call, no memcmp: the parsers' hot path). */
static inline uint32_t flame__intern_find_padded(const flame__intern *in, const char *p, size_t n,
                                                 uint64_t hash)
{
	if (!in->slots)
		return FLAME__ID_NONE;
	flame__intern_key k = {in, p, n};
	uint64_t s = in->slots[flame__slots_probe(in->slots, in->mask, (uint32_t)hash,
	                                          flame__intern_eq_padded, &k)];
	return s ? flame__slot_entry(s) : FLAME__ID_NONE;
}
#endif
