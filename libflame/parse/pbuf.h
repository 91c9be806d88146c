/* A small bounds-checked protobuf wire decoder (no protobuf library): fields of a
 * message one at a time, varints of at most 10 bytes, length-delimited payloads checked
 * against the end of their message, packed or unpacked repeated scalars. Every error
 * names the byte offset (from the start of the whole buffer) where decoding failed. */
#ifndef FLAME_PARSE_PBUF_H
#define FLAME_PARSE_PBUF_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"

enum { FLAME__WT_VARINT = 0, FLAME__WT_I64 = 1, FLAME__WT_LEN = 2, FLAME__WT_I32 = 5 };

/** A message being read: [p, end) within the buffer that starts at `base`. */
typedef struct flame__pbuf {
	const uint8_t *base, *p, *end;
	const char *src; /* input name, for errors */
} flame__pbuf;

/** One field: `num`, wire type `wt`, and either `v` (varint, fixed32/64) or the
 * payload [data, data+len) (length-delimited). `off` is the offset of its key. */
typedef struct flame__pfield {
	uint32_t num;
	int wt;
	uint64_t v;
	const uint8_t *data;
	size_t len;
	uint64_t off;
} flame__pfield;

/** Start reading `len` bytes at `data`, which is the whole buffer. */
void flame__pbuf_init(flame__pbuf *b, const void *data, size_t len, const char *src);

/** A sub-reader over a length-delimited field's payload (offsets stay absolute). */
void flame__pbuf_sub(const flame__pbuf *b, const flame__pfield *f, flame__pbuf *sub);

/** Offset of `p` from the start of the whole buffer. */
static inline uint64_t flame__pbuf_off(const flame__pbuf *b, const uint8_t *p)
{
	return (uint64_t)(p - b->base);
}

/** Decode one varint at *p (< end), advancing *p. Returns 0, -1 when it runs past
 * `end`, -2 when it is longer than 10 bytes (or overflows 64 bits). */
static inline int flame__pbuf_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t r = 0;
	for (unsigned i = 0; i < 10; i++) {
		if (p >= end)
			return -1;
		uint8_t c = *p++;
		/* the 10th byte may only carry the top bit of a 64-bit value */
		if (i == 9 && c > 1)
			return -2;
		r |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			*pp = p;
			*v = r;
			return 0;
		}
	}
	return -2;
}

/* The quiet readers, for fast paths over messages a profile holds by the million: they
 * only say nonzero when anything is wrong (cut, too long, a refused wire type or field
 * number), and the caller reads the message again with flame__pbuf_next, which words it. */

/** A varint at *pp, below `end`; one- and two-byte values (most ids and lengths) inline. */
static inline int flame__pbuf_quick_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	if (p < end && *p < 0x80) {
		*v = *p;
		*pp = p + 1;
		return 0;
	}
	if (end - p >= 2 && p[1] < 0x80) {
		*v = (p[0] & 0x7fu) | (uint64_t)p[1] << 7;
		*pp = p + 2;
		return 0;
	}
	return flame__pbuf_varint(pp, end, v);
}

/** A field key at *q: its number and wire type. */
static inline int flame__pbuf_quick_key(const uint8_t **q, const uint8_t *end, uint64_t *num,
                                        unsigned *wt)
{
	uint64_t key;
	if (flame__pbuf_quick_varint(q, end, &key))
		return 1;
	*num = key >> 3;
	*wt = (unsigned)(key & 7);
	return *num == 0 || *num > 0x1fffffff;
}

/** Over the value of a field of wire type `wt` at *q. */
static inline int flame__pbuf_quick_skip(const uint8_t **q, const uint8_t *end, unsigned wt)
{
	uint64_t x;
	switch (wt) {
	case FLAME__WT_VARINT:
		return flame__pbuf_quick_varint(q, end, &x);
	case FLAME__WT_I64:
	case FLAME__WT_I32: {
		size_t n = wt == FLAME__WT_I64 ? 8 : 4;
		if ((size_t)(end - *q) < n)
			return 1;
		*q += n;
		return 0;
	}
	case FLAME__WT_LEN:
		if (flame__pbuf_quick_varint(q, end, &x) || x > (uint64_t)(end - *q))
			return 1;
		*q += x;
		return 0;
	default:
		return 1;
	}
}

/** Read the next field. Returns 1 with *f filled, 0 at the end of the message, or a
 * negative flame_status (FLAME_EDATA) with `err` naming the offset. Wire types 0, 1, 2
 * and 5 are accepted; groups (3, 4), 6, 7 and field number 0 are errors. */
int flame__pbuf_next(flame__pbuf *b, flame__pfield *f, flame_err *err);

/** Iterate a repeated scalar field that may be packed (wire type 2, a run of varints)
 * or unpacked (wire type 0, one value). Set up with _start, then call _next until it
 * returns 0 (done) or < 0 (error). */
typedef struct flame__prep {
	const uint8_t *p, *end;
	uint64_t single;
	int state; /* 0: packed run, 1: one unpacked value pending, 2: done */
} flame__prep;

/** Returns 0, or FLAME_EDATA when the field has a wire type a repeated varint cannot have. */
int flame__prep_start(flame__prep *r, const flame__pbuf *b, const flame__pfield *f,
                      flame_err *err);
int flame__prep_next(flame__prep *r, const flame__pbuf *b, uint64_t *v, flame_err *err);
#endif
