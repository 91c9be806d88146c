/* Bump allocator: everything a tree owns (names, stack frame ids) is freed at once. */
#ifndef FLAME_CORE_ARENA_H
#define FLAME_CORE_ARENA_H
#include <stddef.h>

struct flame__arena_block;
typedef struct flame__arena {
	struct flame__arena_block *head;
	size_t used;  /* bytes used in head */
	size_t cap;   /* capacity of head */
	size_t total; /* bytes in all blocks, for accounting */
} flame__arena;

void flame__arena_init(flame__arena *a);
void flame__arena_free(flame__arena *a);
/** Allocate `n` bytes aligned to 8; NULL on out of memory. Never freed individually. */
void *flame__arena_alloc(flame__arena *a, size_t n);
/** Move every block of `src` into `dst` (what was allocated in src now lives as long as
 * dst); src is left empty. */
void flame__arena_adopt(flame__arena *dst, flame__arena *src);
#endif
