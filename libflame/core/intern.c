/* Name interning: core/slots.h's table over (hash, id) with names copied into an arena.
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

uint32_t flame__intern_find(const flame__intern *in, const char *p, size_t n)
{
	if (!in->slots)
		return FLAME__ID_NONE;
	flame__intern_key k = {in, p, n};
	uint64_t s = in->slots[flame__slots_probe(in->slots, in->mask, (uint32_t)flame__hash_bytes(p, n),
	                                          flame__intern_eq, &k)];
	return s ? flame__slot_entry(s) : FLAME__ID_NONE;
}

uint32_t flame__intern_put_hashed(flame__intern *in, const char *p, size_t n, uint64_t hash)
{
	if (n >= UINT32_MAX || flame__slots_reserve(&in->slots, &in->mask, in->count, 1024))
		return FLAME__ID_NONE;
	uint32_t h = (uint32_t)hash;
	flame__intern_key k = {in, p, n};
	size_t i = flame__slots_probe(in->slots, in->mask, h, flame__intern_eq, &k);
	if (in->slots[i])
		return flame__slot_entry(in->slots[i]);
	if (in->count == UINT32_MAX - 1 ||
	    flame__array_reserve_min(in->names, in->cap, in->count + 1, 1024))
		return FLAME__ID_NONE;
	char *copy = flame__arena_alloc(&in->arena, n + 1);
	if (!copy)
		return FLAME__ID_NONE;
	flame__copy(copy, p, n);
	copy[n] = '\0';
	uint32_t id = in->count++;
	in->names[id] = (flame__name){copy, (uint32_t)n, h};
	in->slots[i] = flame__slot_make(h, id);
	return id;
}

uint32_t flame__intern_put(flame__intern *in, const char *p, size_t n)
{
	return flame__intern_put_hashed(in, p, n, flame__hash_bytes(p, n));
}

uint32_t flame__intern_dup(flame__intern *in, uint32_t id)
{
	if (in->count == UINT32_MAX - 1 ||
	    flame__array_reserve_min(in->names, in->cap, in->count + 1, 1024))
		return FLAME__ID_NONE;
	in->names[in->count] = in->names[id]; /* the same bytes; the slots keep pointing at id */
	return in->count++;
}
