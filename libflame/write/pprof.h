/* What the pprof writer's two files share (write/): the protobuf encoding of a message
 * being built (flame__pb), and the top-level fields streamed to the gzip output. pprof.c writes
 * a profile; pprof-sites.c the functions, locations and mappings of a tree that keeps
 * sites. */
#ifndef FLAME_WRITE_PPROF_H
#define FLAME_WRITE_PPROF_H
#include <stdint.h>
#include <string.h>
#include "../core/array.h"
#include "../core/gzip.h"
#include "../core/stacks.h"

typedef struct flame__pb {
	uint8_t *p;
	size_t len, cap;
} flame__pb;

static inline int flame__pb_reserve(flame__pb *b, size_t n)
{
	return flame__array_reserve_min(b->p, b->cap, b->len + n, 4096) ? FLAME_ENOMEM : 0;
}

static inline void flame__pb_varint(flame__pb *b, uint64_t v)
{
	while (v >= 0x80) {
		b->p[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (uint8_t)v;
}

/* key + varint value; reserve 20 bytes first */
static inline void flame__pb_uint(flame__pb *b, unsigned field, uint64_t v)
{
	flame__pb_varint(b, (uint64_t)field << 3);
	flame__pb_varint(b, v);
}

/* Emit `msg` as length-delimited field `field` of the top-level Profile. */
static inline int flame__pb_emit(flame__gzip *z, unsigned field, const void *msg, size_t n, flame_err *err)
{
	uint8_t hdr[20];
	flame__pb h = {hdr, 0, sizeof hdr};
	flame__pb_varint(&h, (uint64_t)field << 3 | 2);
	flame__pb_varint(&h, n);
	int rc = flame__gzip_write(z, hdr, h.len, err);
	return rc ? rc : flame__gzip_write(z, msg, n, err);
}

/* Nest `m` as length-delimited field `field` of `b` (room reserved). */
static inline void flame__pb_msg(flame__pb *b, unsigned field, const flame__pb *m)
{
	flame__pb_varint(b, (uint64_t)field << 3 | 2);
	flame__pb_varint(b, m->len);
	memcpy(b->p + b->len, m->p, m->len);
	b->len += m->len;
}

struct flame__sites;
/* The sites' part of one writing (pprof-sites.c). */
typedef struct flame__pps flame__pps;
/** Plan the strings (from index `first`), functions, locations and mappings of the stacks
 * `st` of a tree with names `names` and sites `s`. 0 or FLAME_ENOMEM. */
int flame__pps_plan(flame__pps **out, const flame__stacks *st, const flame__intern *names,
                    const struct flame__sites *s, uint32_t first);
/** Write the strings, in index order, then the mappings, functions and locations. */
int flame__pps_write(flame__pps *w, flame__gzip *z, flame_err *err);
/** A stack's location ids, leaf first, packed into `ids` (emptied first). 0 or
 * FLAME_ENOMEM. */
int flame__pps_sample(flame__pps *w, const flame__stack *st, flame__pb *ids);
void flame__pps_free(flame__pps *w);
#endif
