/* One growable array for the whole library (libxkbcommon's darray.h is the model): a
 * buffer of items that doubles when it fills. Every layer grows its buffers through it, so
 * the doubling and its overflow checks are written once. It sits at the bottom of core/
 * and includes nothing of the library. */
#ifndef FLAME_CORE_ARRAY_H
#define FLAME_CORE_ARRAY_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/** Items a buffer gets when it is first allocated, unless the caller says otherwise. */
#define FLAME__ARRAY_MIN 16

/** Grow the buffer whose address is `pp` (a `T **`), holding `*cap` items of `size` bytes,
 * so that it holds `need` items: the capacity doubles, starting from `min` items, and
 * stops at `max` items. 0, or -1 on out of memory, when `need` passes `max` or when the
 * size would overflow, with the buffer and `*cap` untouched. The pointer is read and
 * written as bytes, so any `T *` can be passed. */
static inline int flame__array_grow_upto(void *pp, size_t *cap, size_t need, size_t size,
                                         size_t min, size_t max)
{
	size_t c = *cap > min ? *cap : (min ? min : 1);
	if (need > max)
		return -1;
	while (c < need)
		c = c > max / 2 ? max : c * 2;
	if (c > max)
		c = max;
	if (c > SIZE_MAX / size)
		return -1;
	void *old;
	memcpy(&old, pp, sizeof old);
	void *p = realloc(old, c * size);
	if (!p)
		return -1;
	memcpy(pp, &p, sizeof p);
	*cap = c;
	return 0;
}

/** The same with no limit but the size of memory. */
static inline int flame__array_grow(void *pp, size_t *cap, size_t need, size_t size, size_t min)
{
	return flame__array_grow_upto(pp, cap, need, size, min, SIZE_MAX);
}

/** Make the buffer `p` (capacity `cap`, a size_t lvalue) hold at least `need` items:
 * 0, or -1 on out of memory. Inline for the common case of enough room. */
#define flame__array_reserve(p, cap, need) flame__array_reserve_min(p, cap, need, FLAME__ARRAY_MIN)
/** The same, with the first allocation at least `min` items. */
#define flame__array_reserve_min(p, cap, need, min)                                         \
	((size_t)(need) <= (cap) ? 0 : flame__array_grow(&(p), &(cap), (need), sizeof *(p), (min)))

/** The same, the capacity never past `max` items (a buffer for an input with a limit). */
#define flame__array_reserve_upto(p, cap, need, min, max)                                    \
	((size_t)(need) <= (cap) ? 0                                                             \
	                         : flame__array_grow_upto(&(p), &(cap), (need), sizeof *(p), (min), (max)))

/** memcpy of `bytes` that takes an empty copy from or to an array not yet grown (NULL):
 * memcpy may not be handed NULL even for 0 bytes. (A pointer formed as NULL + offset is
 * already undefined: such a caller returns early itself.) */
static inline void flame__copy(void *dst, const void *src, size_t bytes)
{
	if (bytes)
		memcpy(dst, src, bytes);
}

/** qsort that takes an empty array not yet grown (NULL), which qsort may not. */
static inline void flame__sort(void *base, size_t n, size_t size,
                               int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/** A typed array with its length, for code that appends: `flame__array(uint32_t) ids;`
 * zero-initialized is empty. */
#define flame__array(T) \
	struct {            \
		T *v;           \
		size_t n, cap;  \
	}
/** Append `x` to array `a`: 0, or -1 on out of memory (`a` unchanged). */
#define flame__array_push(a, x) \
	(flame__array_reserve((a).v, (a).cap, (a).n + 1) ? -1 : ((a).v[(a).n++] = (x), 0))
/** Free array `a`'s items and leave it empty. */
#define flame__array_free(a) (free((a).v), (a).v = NULL, (a).n = (a).cap = 0)
#endif
