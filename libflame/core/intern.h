/* Name interning: bytes -> dense uint32 id, names stored once in an arena
 * (an open-addressing table, as xkbcommon's atom table). */
#ifndef FLAME_CORE_INTERN_H
#define FLAME_CORE_INTERN_H
#include <stddef.h>
#include <stdint.h>
#include "arena.h"

#define FLAME__ID_NONE UINT32_MAX

typedef struct flame__name {
	const char *ptr; /* in the arena, NUL-terminated for convenience */
	uint32_t len;
	uint32_t hash32;
} flame__name;

typedef struct flame__intern {
	flame__arena arena;
	flame__name *names; /* id -> name */
	uint32_t count, cap;
	uint64_t *slots;    /* open addressing: hash32 << 32 | (id + 1); 0 = empty. The hash
	                     * in the slot spares a visit to names[] on most mismatches. */
	uint32_t mask;
} flame__intern;

void flame__intern_init(flame__intern *in);
void flame__intern_free(flame__intern *in);
/** Id of `p[0..n)`, adding it if new; FLAME__ID_NONE on out of memory or n >= 4 GiB. */
uint32_t flame__intern_put(flame__intern *in, const char *p, size_t n);
/** Same, with a precomputed flame__hash_bytes(p, n). */
uint32_t flame__intern_put_hashed(flame__intern *in, const char *p, size_t n, uint64_t h);
/** Id of an existing name, or FLAME__ID_NONE. */
uint32_t flame__intern_find(const flame__intern *in, const char *p, size_t n);
static inline const flame__name *flame__intern_get(const flame__intern *in, uint32_t id)
{
	return &in->names[id];
}
#endif
