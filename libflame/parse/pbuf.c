/* Protobuf wire decoding with every length checked before use (see pbuf.h). Nothing
 * here allocates: a reader is two pointers into the caller's buffer, so hostile input
 * can cost at most a walk over its own bytes. */
#include "pbuf.h"
#include "../core/err.h"

void flame__pbuf_init(flame__pbuf *b, const void *data, size_t len, const char *src)
{
	b->base = data;
	b->p = data;
	b->end = b->p + len;
	b->src = src;
}

void flame__pbuf_sub(const flame__pbuf *b, const flame__pfield *f, flame__pbuf *sub)
{
	sub->base = b->base;
	sub->p = f->data;
	sub->end = f->data + f->len;
	sub->src = b->src;
}

static int varint_err(const flame__pbuf *b, const uint8_t *at, int r, const char *what,
                      flame_err *err)
{
	if (r == -1)
		return flame__err(err, FLAME_EDATA, b->src, 0, flame__pbuf_off(b, at),
		                  "truncated protobuf: %s varint runs past the end of its message", what);
	return flame__err(err, FLAME_EDATA, b->src, 0, flame__pbuf_off(b, at),
	                  "invalid protobuf: %s varint longer than 10 bytes", what);
}

int flame__pbuf_next(flame__pbuf *b, flame__pfield *f, flame_err *err)
{
	if (b->p >= b->end)
		return 0;
	const uint8_t *at = b->p;
	uint64_t key;
	int r = flame__pbuf_varint(&b->p, b->end, &key);
	if (r)
		return varint_err(b, at, r, "field key", err);
	f->off = flame__pbuf_off(b, at);
	f->wt = (int)(key & 7);
	if ((key >> 3) == 0 || (key >> 3) > 0x1fffffff)
		return flame__err(err, FLAME_EDATA, b->src, 0, f->off,
		                  "invalid protobuf: field number %llu", (unsigned long long)(key >> 3));
	f->num = (uint32_t)(key >> 3);
	f->v = 0;
	f->data = NULL;
	f->len = 0;
	const uint8_t *vp = b->p;
	switch (f->wt) {
	case FLAME__WT_VARINT:
		if ((r = flame__pbuf_varint(&b->p, b->end, &f->v)))
			return varint_err(b, vp, r, "value", err);
		return 1;
	case FLAME__WT_I64:
	case FLAME__WT_I32: {
		size_t n = f->wt == FLAME__WT_I64 ? 8 : 4;
		if ((size_t)(b->end - b->p) < n)
			return flame__err(err, FLAME_EDATA, b->src, 0, flame__pbuf_off(b, vp),
			                  "truncated protobuf: %zu-byte field %u runs past the end of its "
			                  "message", n, f->num);
		for (size_t i = 0; i < n; i++)
			f->v |= (uint64_t)b->p[i] << (8 * i);
		b->p += n;
		return 1;
	}
	case FLAME__WT_LEN: {
		uint64_t len;
		if ((r = flame__pbuf_varint(&b->p, b->end, &len)))
			return varint_err(b, vp, r, "length", err);
		size_t left = (size_t)(b->end - b->p);
		if (len > left)
			return flame__err(err, FLAME_EDATA, b->src, 0, flame__pbuf_off(b, vp),
			                  "truncated protobuf: field %u has length %llu but only %zu "
			                  "bytes are left in its message", f->num, (unsigned long long)len,
			                  left);
		f->data = b->p;
		f->len = (size_t)len;
		b->p += len;
		return 1;
	}
	default:
		return flame__err(err, FLAME_EDATA, b->src, 0, f->off,
		                  "invalid protobuf: field %u has unsupported wire type %d", f->num, f->wt);
	}
}

int flame__prep_start(flame__prep *r, const flame__pbuf *b, const flame__pfield *f,
                      flame_err *err)
{
	if (f->wt == FLAME__WT_LEN) {
		r->p = f->data;
		r->end = f->data + f->len;
		r->state = 0;
		return 0;
	}
	if (f->wt == FLAME__WT_VARINT) {
		r->single = f->v;
		r->state = 1;
		return 0;
	}
	return flame__err(err, FLAME_EDATA, b->src, 0, f->off,
	                  "invalid protobuf: repeated field %u has wire type %d, expected a varint "
	                  "or a packed run", f->num, f->wt);
}

int flame__prep_next(flame__prep *r, const flame__pbuf *b, uint64_t *v, flame_err *err)
{
	if (r->state == 1) {
		r->state = 2;
		*v = r->single;
		return 1;
	}
	if (r->state == 2 || r->p >= r->end)
		return 0;
	const uint8_t *at = r->p;
	int rc = flame__pbuf_varint(&r->p, r->end, v);
	if (rc)
		return varint_err(b, at, rc, "packed", err);
	return 1;
}
