/* What the three files of the binary JFR reader share: the bounded byte cursor (LEB128
 * integers, or fixed-width big-endian ones in a chunk written without compressed integers),
 * one chunk's metadata (its classes and their fields) and constant pools (where each
 * constant's value lies in the chunk), and the u64-keyed map both use.
 *   jfr-binary.c  the entry: probe, chunks read one at a time from the input
 *   jfr-chunk.c   a chunk's checkpoint events (its pools), values and strings
 *   jfr-meta.c    a chunk's metadata event: its classes and their fields
 *   jfr-events.c  events of the chosen type into stacks, weights and threads
 *   jfr-names.c   stack traces and threads named as jfr print shows them (jfr-names.h)
 * A recording has no published specification; the facts come from the JDK's own consumer
 * (jdk.jfr.internal.consumer) and from what JDK 17 writes. Every count read from the file
 * is bounded by the bytes left, so a lying file costs an error, never memory or time. */
#ifndef FLAME_PARSE_JFR_BIN_H
#define FLAME_PARSE_JFR_BIN_H
#include <stddef.h>
#include <stdint.h>
#include "../core/err.h"
#include "../core/slots.h"
#include "../flame.h"

enum { FLAME__JFR_HEADER = 68 }; /* chunk header bytes */

/* ---- the cursor: reads past `end` set `bad` and give 0, checked where it matters ---- */

typedef struct flame__jfr_cur {
	const uint8_t *p, *end;
	int bad;        /* a read went past the end */
	int compressed; /* integers as LEB128 (the chunk header's flag; JDK 11+ always) */
} flame__jfr_cur;

static inline uint8_t flame__jfr_u8(flame__jfr_cur *c)
{
	if (c->p >= c->end) {
		c->bad = 1;
		return 0;
	}
	return *c->p++;
}

static inline uint64_t flame__jfr_be(flame__jfr_cur *c, unsigned width)
{
	if ((size_t)(c->end - c->p) < width) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++)
		v = v << 8 | c->p[i];
	c->p += width;
	return v;
}

/** A long: LEB128 of at most 9 bytes, the 9th giving its 8 bits whole (as the JDK
 * writes); `width` bytes big-endian in a chunk without compressed integers. */
static inline uint64_t flame__jfr_long(flame__jfr_cur *c, unsigned width)
{
	if (!c->compressed)
		return flame__jfr_be(c, width);
	const uint8_t *p = c->p;
	if (c->end - p >= 9) { /* the common case, no check per byte */
		uint64_t v = 0;
		for (unsigned i = 0; i < 8; i++) {
			uint8_t b = p[i];
			v |= (uint64_t)(b & 0x7f) << (7 * i);
			if (!(b & 0x80)) {
				c->p = p + i + 1;
				return v;
			}
		}
		c->p = p + 9;
		return v | (uint64_t)p[8] << 56;
	}
	uint64_t v = 0;
	for (unsigned i = 0; i < 9; i++) {
		uint8_t b = flame__jfr_u8(c);
		if (i == 8)
			return v | (uint64_t)b << 56;
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			break;
	}
	return v;
}

static inline uint64_t flame__jfr_int(flame__jfr_cur *c) { return flame__jfr_long(c, 4); }
static inline uint64_t flame__jfr_u64(flame__jfr_cur *c) { return flame__jfr_long(c, 8); }

static inline void flame__jfr_skip(flame__jfr_cur *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
	} else {
		c->p += n;
	}
}

static inline size_t flame__jfr_left(const flame__jfr_cur *c) { return (size_t)(c->end - c->p); }

/* ---- a map of (class, key) -> u32 over core/slots.h: pools, and the readers' caches ---- */

typedef struct flame__jfr_ent {
	uint64_t key;
	uint32_t cls, val;
} flame__jfr_ent;

typedef struct flame__jfr_map {
	flame__jfr_ent *e;
	size_t n, cap;
	uint64_t *slots;
	size_t mask;
} flame__jfr_map;

static inline uint32_t flame__jfr_hash(uint32_t cls, uint64_t key)
{
	uint64_t x = (key ^ (uint64_t)cls << 48 ^ cls) * 0x9e3779b97f4a7c15ULL;
	return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

typedef struct flame__jfr_probe {
	const flame__jfr_ent *e;
	uint32_t cls;
	uint64_t key;
} flame__jfr_probe;

static inline int flame__jfr_eq(const void *ctx, uint32_t i)
{
	const flame__jfr_probe *q = ctx;
	return q->e[i].key == q->key && q->e[i].cls == q->cls;
}

/** The value of (cls, key), or -1. */
static inline int64_t flame__jfr_map_get(const flame__jfr_map *m, uint32_t cls, uint64_t key)
{
	if (!m->slots)
		return -1;
	flame__jfr_probe q = {m->e, cls, key};
	uint64_t s = m->slots[flame__slots_probe(m->slots, m->mask, flame__jfr_hash(cls, key),
	                                         flame__jfr_eq, &q)];
	return s ? (int64_t)m->e[flame__slot_entry(s)].val : -1;
}

/** Set (cls, key) to val, replacing a value there. 0, or -1 out of memory. */
int flame__jfr_map_put(flame__jfr_map *m, uint32_t cls, uint64_t key, uint32_t val);
void flame__jfr_map_clear(flame__jfr_map *m);
void flame__jfr_map_free(flame__jfr_map *m);

/* ---- a chunk's metadata ---- */

enum { /* how a class's values are written */
	FLAME__JFR_STRUCT = 0, FLAME__JFR_BYTE, FLAME__JFR_SHORT, FLAME__JFR_INT, FLAME__JFR_LONG,
	FLAME__JFR_FLOAT, FLAME__JFR_DOUBLE, FLAME__JFR_STRING
};

typedef struct flame__jfr_field {
	uint32_t name, nlen; /* in the metadata's text */
	uint32_t type;       /* class index */
	uint32_t owner;      /* class index of the class it belongs to */
	uint64_t tid;        /* the type's class id, as the metadata gives it */
	uint8_t cp, array;   /* a constant pool key; an array of values (dimension 1) */
	uint8_t fast;        /* FLAME__JFR_FAST_*: skipped without a call (most fields) */
} flame__jfr_field;

enum { FLAME__JFR_FAST_NONE, FLAME__JFR_FAST_VARINT, FLAME__JFR_FAST_BYTE };

typedef struct flame__jfr_class {
	uint64_t id;
	uint32_t name, nlen;      /* in the metadata's text */
	uint32_t field0, nfields; /* its fields: fields[field0 ..] */
	uint32_t nvarint;         /* nfields when each is FLAME__JFR_FAST_VARINT, else 0 */
	uint8_t kind;             /* FLAME__JFR_* */
} flame__jfr_class;

typedef struct flame__jfr_chunk {
	/* the chunk: its bytes from its header on, and where it starts in the input */
	const uint8_t *b;
	size_t n;
	uint64_t base;
	const char *src;
	int compressed;
	uint64_t ticks_per_sec;
	int64_t start_nanos;  /* the chunk's start on the wall clock (ns since the epoch), */
	uint64_t start_ticks; /* and in ticks: an event's startTime is on the tick clock */
	/* metadata */
	char *text;         /* metadata strings, each NUL-terminated */
	size_t text_len, text_cap;
	uint32_t *strs;     /* metadata string i at text + strs[i] */
	size_t nstrs, strs_cap;
	flame__jfr_class *cls; /* sorted by id */
	size_t ncls, cls_cap;
	uint32_t *by_id;       /* class index by id below nby_id (UINT32_MAX: none) */
	size_t nby_id, by_id_cap;
	flame__jfr_field *fld;
	size_t nfld, fld_cap;
	uint32_t string_cls; /* java.lang.String's class index (UINT32_MAX: none) */
	uint8_t *meta;       /* the metadata event these classes were read from, kept: a */
	size_t meta_len, meta_cap; /* chunk with the same one (the JDK's next) is not reread */
	int meta_compressed;
	/* constant pools: (class index, key) -> offset of the value in b */
	flame__jfr_map pool;
	uint64_t budget;     /* values a skip may still visit (against crafted nesting) */
	char *sbuf;          /* a string decoded out of its encoding */
	size_t sbuf_cap;
	/* the chunk read before, whole, or NULL: the recorder may write a constant an event
	 * refers to there, around the switch to a new chunk (jfr-names.c looks there) */
	struct flame__jfr_chunk *prev;
} flame__jfr_chunk;

/** An error naming the input byte of `p`: "damaged JFR recording: WHAT". */
int flame__jfr_bad(flame__jfr_chunk *c, const uint8_t *p, flame_err *err, const char *what);
/** Read the metadata event at byte `meta` of the chunk (jfr-meta.c). */
int flame__jfr_meta_read(flame__jfr_chunk *c, uint64_t meta, flame_err *err);
/** Read the metadata and constant pools of the chunk at c->b (c->n bytes, header
 * included) whose header says they are at `meta` and `cpool`. 0 or an error naming
 * the byte. */
int flame__jfr_chunk_load(flame__jfr_chunk *c, uint64_t meta, uint64_t cpool, flame_err *err);
void flame__jfr_chunk_free(flame__jfr_chunk *c);

/** The index of the class with id `id`, or UINT32_MAX. */
uint32_t flame__jfr_class_search(const flame__jfr_chunk *c, uint64_t id);
static inline uint32_t flame__jfr_class_of(const flame__jfr_chunk *c, uint64_t id)
{
	return id < c->nby_id ? c->by_id[id] : flame__jfr_class_search(c, id);
}
/** The field called `name` of class `cls`, or UINT32_MAX. */
uint32_t flame__jfr_field_of(const flame__jfr_chunk *c, uint32_t cls, const char *name);
static inline const char *flame__jfr_name(const flame__jfr_chunk *c, uint32_t off)
{
	return c->text + off;
}

/** Skip the value of field `f` at the cursor. 0, or -1 when it runs past the bytes or
 * nests beyond reason (the cursor's `bad` set, or the budget spent). */
int flame__jfr_skip_field(flame__jfr_chunk *c, flame__jfr_cur *cur, const flame__jfr_field *f);

/** Read a string at the cursor into *p, *n (pointing into the chunk or c->sbuf, valid
 * until the next string is read): 1 for a string, 0 for null, -1 for bad bytes. */
int flame__jfr_string(flame__jfr_chunk *c, flame__jfr_cur *cur, const char **p, size_t *n);

/** A cursor at the value of (cls, key) in the pools: 0, or -1 when the pool has none. */
int flame__jfr_constant(const flame__jfr_chunk *c, uint32_t cls, uint64_t key,
                        flame__jfr_cur *out);

/** A cursor over the chunk from byte `off`. */
static inline flame__jfr_cur flame__jfr_at(const flame__jfr_chunk *c, size_t off)
{
	flame__jfr_cur k = {c->b + (off < c->n ? off : c->n), c->b + c->n, 0, c->compressed};
	return k;
}

/** The input offset of where the cursor is. */
static inline uint64_t flame__jfr_off(const flame__jfr_chunk *c, const uint8_t *p)
{
	return c->base + (uint64_t)(p - c->b);
}

/* ---- events (jfr-events.c) ---- */

typedef struct flame__jfr_events flame__jfr_events;

int flame__jfr_events_new(flame__jfr_events **out, flame_tree *t, const flame_parse_opts *o,
                          const char *src, flame_err *err);
/** The events of the loaded chunk `c`, whose events end at byte `end` of it; `whole`: 0
 * when the chunk was cut short (an event running past its end is then the end, not an
 * error). */
int flame__jfr_events_chunk(flame__jfr_events *e, flame__jfr_chunk *c, size_t end, int whole,
                            flame_err *err);
/** The stacks of the chosen event type into the tree, with their warnings. */
int flame__jfr_events_finish(flame__jfr_events *e, flame_err *err);
void flame__jfr_events_free(flame__jfr_events *e);
#endif
