/* The frames of the stack being read by a line-oriented text reader (offcpu, jfr): the
 * ids interned so far, and after them the frame lines not interned yet, kept as one run
 * of bytes in the chunk being scanned (the region). A stack's lines are interned only
 * when it ends; profiles repeat the same stacks many times, so a region that is a whole
 * stack is first looked up by its bytes in a cache (parse/scan.h): one hash and one
 * memcmp instead of one intern per frame. What a frame line means is the reader's: it
 * interns each line through its own callback. The region points into the chunk, so a
 * reader flushes it before the chunk goes away. */
#ifndef FLAME_PARSE_FRAME_REGION_H
#define FLAME_PARSE_FRAME_REGION_H
#include <stddef.h>
#include <stdint.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/sink.h"
#include "../flame.h"
#include "scan.h"

/** Interns one frame line (`n`: its bytes without the CR) onto the region's ids. */
typedef int (*flame__frame_line_fn)(void *ctx, const char *p, size_t n, flame_err *err);

typedef struct flame__region {
	uint32_t *ids;             /* the stack's frames interned so far, leaf first */
	size_t n, cap;
	const char *p;             /* the frame lines after them (in the current chunk) */
	size_t len;                /* their bytes, inner newlines included; 0: none */
	flame__idcache cache;      /* a whole stack's lines -> its ids */
	flame__frame_line_fn line; /* the reader's frame line */
	void *ctx;
} flame__region;

void flame__region_init(flame__region *r, flame__frame_line_fn line, void *ctx);
void flame__region_free(flame__region *r);

/** Append a frame's id. */
static inline int flame__region_push(flame__region *r, uint32_t id, flame_err *err)
{
	if (flame__array_reserve_min(r->ids, r->cap, r->n + 1, 256))
		return flame__err_nomem(err);
	r->ids[r->n++] = id;
	return 0;
}

/** Append the frame named `p` (`n` bytes), interned in `k`. */
static inline int flame__region_intern(flame__region *r, flame__sink *k, const char *p,
                                       size_t n, flame_err *err)
{
	uint32_t id = flame__sink_intern(k, p, n);
	return id == FLAME__ID_NONE ? flame__err_nomem(err) : flame__region_push(r, id, err);
}

/** Whether the line at `p` directly follows the pending lines. */
static inline int flame__region_follows(const flame__region *r, const char *p)
{
	return r->len && p == r->p + r->len + 1;
}

/** Take the line that follows the pending lines (`raw` bytes, CR included) into them. */
static inline void flame__region_extend(flame__region *r, size_t raw)
{
	r->len += 1 + raw;
}

/** Forget the stack: its ids and its pending lines. */
static inline void flame__region_drop(flame__region *r)
{
	r->len = 0;
	r->n = 0;
}

/** Intern the pending lines through the callback, in order, and forget them. */
int flame__region_flush(flame__region *r, flame_err *err);

/** A frame line of the chunk: it extends the pending lines when it follows them, else
 * they are interned and it starts new ones. */
static inline int flame__region_add(flame__region *r, const char *p, size_t raw, flame_err *err)
{
	if (flame__region_follows(r, p)) {
		flame__region_extend(r, raw);
		return 0;
	}
	int rc = flame__region_flush(r, err);
	r->p = p;
	r->len = raw;
	return rc;
}

/** The stack's frames end here: all of them are in ids afterwards. When the pending
 * lines are all of the stack, their ids come from the cache, or go into it. */
int flame__region_close(flame__region *r, flame_err *err);
#endif
