/* Name interning: open addressing over (hash, id) with names copied into an arena.
 * Ids are dense and stable, so stacks can be stored as id sequences. */
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "hash.h"
#include "intern.h"

void flame__intern_init(flame__intern *in)
{
	memset(in, 0, sizeof *in);
	flame__arena_init(&in->arena);
}

void flame__intern_free(flame__intern *in)
{
	flame__arena_free(&in->arena);
	free(in->names);
	free(in->slots);
	memset(in, 0, sizeof *in);
}

static int grow_slots(flame__intern *in)
{
	uint32_t nslots = in->slots ? (in->mask + 1) * 2 : 1024;
	if (nslots == 0)
		return -1;
	uint64_t *slots = calloc(nslots, sizeof *slots);
	if (!slots)
		return -1;
	uint32_t mask = nslots - 1;
	for (uint32_t id = 0; id < in->count; id++) {
		uint32_t h = in->names[id].hash32;
		uint32_t i = h & mask;
		while (slots[i])
			i = (i + 1) & mask;
		slots[i] = (uint64_t)h << 32 | (id + 1);
	}
	free(in->slots);
	in->slots = slots;
	in->mask = mask;
	return 0;
}

uint32_t flame__intern_find(const flame__intern *in, const char *p, size_t n)
{
	if (!in->slots)
		return FLAME__ID_NONE;
	uint32_t h = (uint32_t)flame__hash_bytes(p, n);
	for (uint32_t i = h & in->mask;; i = (i + 1) & in->mask) {
		uint64_t s = in->slots[i];
		if (!s)
			return FLAME__ID_NONE;
		if ((uint32_t)(s >> 32) != h)
			continue;
		uint32_t id = (uint32_t)s - 1;
		const flame__name *nm = &in->names[id];
		if (nm->len == n && memcmp(nm->ptr, p, n) == 0)
			return id;
	}
}

uint32_t flame__intern_put_hashed(flame__intern *in, const char *p, size_t n, uint64_t hash)
{
	if (n >= UINT32_MAX)
		return FLAME__ID_NONE;
	/* keep the load factor under 1/2 */
	if (!in->slots || (in->count + 1) * 2 > in->mask + 1) {
		if (grow_slots(in))
			return FLAME__ID_NONE;
	}
	uint32_t h = (uint32_t)hash;
	uint32_t i = h & in->mask;
	for (;; i = (i + 1) & in->mask) {
		uint64_t s = in->slots[i];
		if (!s)
			break;
		if ((uint32_t)(s >> 32) != h)
			continue;
		uint32_t id = (uint32_t)s - 1;
		const flame__name *nm = &in->names[id];
		if (nm->len == n && memcmp(nm->ptr, p, n) == 0)
			return id;
	}
	if (in->count == UINT32_MAX - 1 ||
	    flame__array_reserve_min(in->names, in->cap, in->count + 1, 1024))
		return FLAME__ID_NONE;
	char *copy = flame__arena_alloc(&in->arena, n + 1);
	if (!copy)
		return FLAME__ID_NONE;
	if (n)
		memcpy(copy, p, n);
	copy[n] = '\0';
	uint32_t id = in->count++;
	in->names[id] = (flame__name){copy, (uint32_t)n, h};
	in->slots[i] = (uint64_t)h << 32 | (id + 1);
	return id;
}

uint32_t flame__intern_put(flame__intern *in, const char *p, size_t n)
{
	return flame__intern_put_hashed(in, p, n, flame__hash_bytes(p, n));
}
