/* An index heap: a binary min-heap of small numbers (the runs or inputs of a k-way merge)
 * in an order the caller gives with `before(ctx, a, b)` (a strict order: ties broken by
 * number keep a merge's output the same as a scan of the inputs in order). Each item
 * written costs about 2 log k comparisons instead of a scan's k. FLAME__HEAP(name,
 * ctx_type, before) defines name_push and name_pop over a flame__heap, with `before`
 * inlined into them (it runs for every item of a merge). Used by core/spill.c (spilled
 * runs) and read/sorted-text.c (sorted folded files). */
#ifndef FLAME_CORE_HEAP_H
#define FLAME_CORE_HEAP_H
#include <stddef.h>

typedef struct flame__heap {
	size_t *h; /* room for every number, the caller's */
	size_t n;
} flame__heap;

#define FLAME__HEAP(name, ctx_type, before)                                                  \
	static inline void name##_push(flame__heap *hp, const ctx_type *ctx, size_t x)           \
	{                                                                                        \
		size_t i = hp->n++;                                                                  \
		hp->h[i] = x;                                                                        \
		while (i && before(ctx, hp->h[i], hp->h[(i - 1) / 2])) {                            \
			size_t p = (i - 1) / 2, t = hp->h[i];                                            \
			hp->h[i] = hp->h[p];                                                             \
			hp->h[p] = t;                                                                    \
			i = p;                                                                           \
		}                                                                                    \
	}                                                                                        \
	/* the smallest number, taken out (the heap must not be empty) */                       \
	static inline size_t name##_pop(flame__heap *hp, const ctx_type *ctx)                    \
	{                                                                                        \
		size_t x = hp->h[0], i = 0;                                                          \
		hp->h[0] = hp->h[--hp->n];                                                           \
		for (;;) {                                                                           \
			size_t l = 2 * i + 1, m = i;                                                     \
			if (l < hp->n && before(ctx, hp->h[l], hp->h[m]))                                \
				m = l;                                                                       \
			if (l + 1 < hp->n && before(ctx, hp->h[l + 1], hp->h[m]))                        \
				m = l + 1;                                                                   \
			if (m == i)                                                                      \
				return x;                                                                    \
			size_t t = hp->h[i];                                                             \
			hp->h[i] = hp->h[m];                                                             \
			hp->h[m] = t;                                                                    \
			i = m;                                                                           \
		}                                                                                    \
	}
#endif
