/* The writers' fast path into a flame_output (core/output.c): they format straight into
 * the output's own buffer instead of a buffer of their own that is copied into it. A
 * writer reserves room, writes up to that many bytes at the pointer it is given, and says
 * how many it wrote; the common case (room left) is an inline compare. The public
 * flame_output_write is the same buffer seen from outside. */
#ifndef FLAME_CORE_OUTPUT_H
#define FLAME_CORE_OUTPUT_H
#include <stddef.h>
#include <string.h>
#include "../flame.h"

/** The buffer at the start of every flame_output: bytes [0, len) not yet written, room
 * up to `lim` (both 0 after a write failed, so every reserve takes the slow path and
 * fails). */
typedef struct flame__outbuf {
	char *buf;
	size_t len, lim;
} flame__outbuf;

/** The slow path of flame__output_reserve: write out what the buffer holds except its last
 * `keep` bytes, which move to its start, and grow the buffer if `keep + n` does not fit.
 * A pointer to room for `n` bytes just past the kept ones, or NULL with `*rc` (a negative
 * status) and `err` filled. */
char *flame__output_room(flame_output *o, size_t n, size_t keep, int *rc, flame_err *err);

static inline flame__outbuf *flame__output_buf(flame_output *o)
{
	return (flame__outbuf *)(void *)o; /* the first member of struct flame_output */
}

/** Room for `n` more bytes: where to write them (then flame__output_advance by what was
 * written, at most `n`), or NULL with `*rc` and `err` filled. */
static inline char *flame__output_reserve(flame_output *o, size_t n, int *rc, flame_err *err)
{
	flame__outbuf *b = flame__output_buf(o);
	if (n <= b->lim - b->len)
		return b->buf + b->len;
	return flame__output_room(o, n, 0, rc, err);
}

/** The same, keeping the last `keep` bytes written in the buffer, just before the
 * pointer returned (the folded writer copies a shared prefix from its previous line). */
static inline char *flame__output_reserve_keep(flame_output *o, size_t n, size_t keep,
                                               int *rc, flame_err *err)
{
	flame__outbuf *b = flame__output_buf(o);
	if (n <= b->lim - b->len)
		return b->buf + b->len;
	return flame__output_room(o, n, keep, rc, err);
}

/** `n` bytes written at the pointer the last reserve returned. */
static inline void flame__output_advance(flame_output *o, size_t n)
{
	flame__output_buf(o)->len += n;
}

/** Append `n` bytes: 0, or a negative status with `err` filled. */
static inline int flame__output_put(flame_output *o, const void *p, size_t n, flame_err *err)
{
	flame__outbuf *b = flame__output_buf(o);
	if (n <= b->lim - b->len) {
		if (n)
			memcpy(b->buf + b->len, p, n);
		b->len += n;
		return 0;
	}
	return flame_output_write(o, p, n, err);
}

/** Append one byte: 0, or a negative status with `err` filled. */
static inline int flame__output_putc(flame_output *o, char c, flame_err *err)
{
	flame__outbuf *b = flame__output_buf(o);
	if (b->len < b->lim) {
		b->buf[b->len++] = c;
		return 0;
	}
	return flame_output_write(o, &c, 1, err);
}
#endif
