/* An index heap: a binary min-heap of small numbers (the runs or inputs of a k-way merge)
 * in an order the caller gives with `before(ctx, a, b)` (a strict order: ties broken by
 * number keep a merge's output the same as a scan of the inputs in order). Each item
 * written costs about 2 log k comparisons instead of a scan's k. Inline, so a static
 * `before` is inlined too. Used by core/spill.c (spilled runs) and read/sorted-text.c
 * (sorted folded files). */
#ifndef FLAME_CORE_HEAP_H
#define FLAME_CORE_HEAP_H
#include <stddef.h>

typedef int (*flame__heap_before_fn)(const void *ctx, size_t a, size_t b);

typedef struct flame__heap {
	size_t *h; /* room for every number, the caller's */
	size_t n;
	flame__heap_before_fn before;
	const void *ctx;
} flame__heap;

static inline void flame__heap_down(flame__heap *hp, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < hp->n && hp->before(hp->ctx, hp->h[l], hp->h[m]))
			m = l;
		if (l + 1 < hp->n && hp->before(hp->ctx, hp->h[l + 1], hp->h[m]))
			m = l + 1;
		if (m == i)
			return;
		size_t t = hp->h[i];
		hp->h[i] = hp->h[m];
		hp->h[m] = t;
		i = m;
	}
}

static inline void flame__heap_push(flame__heap *hp, size_t x)
{
	size_t i = hp->n++;
	hp->h[i] = x;
	while (i && hp->before(hp->ctx, hp->h[i], hp->h[(i - 1) / 2])) {
		size_t p = (i - 1) / 2, t = hp->h[i];
		hp->h[i] = hp->h[p];
		hp->h[p] = t;
		i = p;
	}
}

/** The smallest number, taken out (the heap must not be empty). */
static inline size_t flame__heap_pop(flame__heap *hp)
{
	size_t x = hp->h[0];
	hp->h[0] = hp->h[--hp->n];
	flame__heap_down(hp, 0);
	return x;
}
#endif
