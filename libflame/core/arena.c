/* Bump allocator in growing blocks; a tree frees all its names and stacks at once. */
#include <stdlib.h>
#include "arena.h"

struct flame__arena_block {
	struct flame__arena_block *prev;
	size_t cap;
	_Alignas(16) unsigned char data[];
};

enum { ARENA_MIN = 64 * 1024, ARENA_MAX_STEP = 4 * 1024 * 1024 };

void flame__arena_init(flame__arena *a)
{
	a->head = NULL;
	a->used = a->cap = a->total = 0;
}

void flame__arena_free(flame__arena *a)
{
	struct flame__arena_block *b = a->head;
	while (b) {
		struct flame__arena_block *p = b->prev;
		free(b);
		b = p;
	}
	flame__arena_init(a);
}

void *flame__arena_alloc(flame__arena *a, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (n < (size_t)7)  /* wrapped */
		return NULL;
	if (!a->head || a->cap - a->used < n) {
		/* grow geometrically (bounded) so few blocks exist, but never waste much */
		size_t cap = a->total / 2;
		if (cap < ARENA_MIN)
			cap = ARENA_MIN;
		if (cap > ARENA_MAX_STEP)
			cap = ARENA_MAX_STEP;
		if (cap < n)
			cap = n;
		struct flame__arena_block *b = malloc(sizeof *b + cap);
		if (!b)
			return NULL;
		b->prev = a->head;
		b->cap = cap;
		a->head = b;
		a->cap = cap;
		a->used = 0;
		a->total += cap;
	}
	void *p = a->head->data + a->used;
	a->used += n;
	return p;
}

void flame__arena_adopt(flame__arena *dst, flame__arena *src)
{
	struct flame__arena_block *oldest = src->head;
	if (!oldest)
		return;
	while (oldest->prev)
		oldest = oldest->prev;
	if (dst->head) { /* behind dst's current block, which stays the one to bump */
		oldest->prev = dst->head->prev;
		dst->head->prev = src->head;
	} else {
		dst->head = src->head;
		dst->used = src->used;
		dst->cap = src->cap;
	}
	dst->total += src->total;
	flame__arena_init(src);
}
