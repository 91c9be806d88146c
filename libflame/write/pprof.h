/* What the pprof writer's three files share (write/): the protobuf encoding of a message
 * being built (flame__pb), and the top-level fields streamed to the gzip output. pprof.c writes
 * a profile; pprof-sites.c the functions, locations and mappings of a tree that keeps
 * sites; pprof-labels.c the samples' labels of a tree that keeps labels. */
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

struct flame__labels;
/* The labels' part of one writing (pprof-labels.c). */
typedef struct flame__ppl flame__ppl;
/** Plan the strings (from index `first`) and each set's Label messages of the label sets
 * `l`. 0 or FLAME_ENOMEM (`*out` is the caller's to free either way). */
int flame__ppl_plan(flame__ppl **out, const struct flame__labels *l, uint32_t first);
/** How many strings the labels add (0 for NULL). */
uint32_t flame__ppl_strings(const flame__ppl *w);
/** Write those strings, in index order (nothing for NULL). */
int flame__ppl_write_strings(const flame__ppl *w, flame__gzip *z, flame_err *err);
/** Append set `set`'s Label messages to the sample being built in `b`. */
int flame__ppl_sample(const flame__ppl *w, uint32_t set, flame__pb *b);
void flame__ppl_free(flame__ppl *w);
#endif
