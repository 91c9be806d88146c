/* Shared by the line-oriented text readers (offcpu, jfr): a newline scanner over a chunk
 * of whole lines (64 bytes at a time as a bit mask: lines of ~20-60 bytes cost more in
 * memchr calls than in scanning), a walk over an input's lines a chunk at a time that
 * numbers them as the scanner finds them, and a cache from the bytes of a run of frame
 * lines to their interned ids, because profiles repeat the same stacks many times. */
#ifndef FLAME_PARSE_SCAN_H
#define FLAME_PARSE_SCAN_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "../core/arena.h"
#include "../core/hash.h"
#include "../core/lines.h"
#include "../core/slots.h"

/* ---- newline scanner ---- */

typedef struct flame__nlscan {
	const char *p, *end; /* next window */
	const char *win;     /* window of `mask` */
	uint64_t mask;       /* newlines left in the window */
} flame__nlscan;

static inline void flame__nlscan_init(flame__nlscan *sc, const char *p, size_t n)
{
	sc->p = p;
	sc->end = p + n;
	sc->win = p;
	sc->mask = 0;
}

static inline uint64_t flame__nl_mask64(const char *p)
{
#if defined(__SSE2__)
	const __m128i nl = _mm_set1_epi8('\n');
	uint64_t m0 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), nl));
	uint64_t m1 = (uint16_t)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), nl));
	uint64_t m2 = (uint16_t)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), nl));
	uint64_t m3 = (uint16_t)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), nl));
	return m0 | m1 << 16 | m2 << 32 | m3 << 48;
#else
	uint64_t m = 0;
	for (int i = 0; i < 64; i++)
		m |= (uint64_t)(p[i] == '\n') << i;
	return m;
#endif
}

/** The next '\n' after the previous one, or NULL when the chunk has no more. */
static inline const char *flame__nlscan_next(flame__nlscan *sc)
{
	while (!sc->mask) {
		if (sc->p >= sc->end)
			return NULL;
		sc->win = sc->p;
		if (sc->end - sc->p >= 64) {
			sc->mask = flame__nl_mask64(sc->p);
			sc->p += 64;
		} else {
			size_t n = (size_t)(sc->end - sc->p);
			for (size_t i = 0; i < n; i++)
				sc->mask |= (uint64_t)(sc->p[i] == '\n') << i;
			sc->p = sc->end;
		}
	}
	const char *nl = sc->win + __builtin_ctzll(sc->mask);
	sc->mask &= sc->mask - 1;
	return nl;
}

/* ---- numbered lines, a chunk at a time ---- */

/* The chunks come from flame__lines_chunk, which does not count lines: the walk counts
 * them as it finds them, so each line is scanned once. */
typedef struct flame__linewalk {
	flame__lines *cur;
	const char *chunk;         /* the current chunk, up to sc.end */
	const char *q;             /* its next line */
	flame__nlscan sc;
} flame__linewalk;

/** Walk the lines of `cur` from where it stands. */
static inline void flame__linewalk_init(flame__linewalk *w, flame__lines *cur)
{
	/* field by field: after a memset GCC kept the walk's state in memory, not registers */
	w->cur = cur;
	w->chunk = w->q = w->sc.p = w->sc.end = w->sc.win = NULL;
	w->sc.mask = 0;
}

/** The next chunk of whole lines (about 1 MiB): 1, 0 at the end, negative on error. Its
 * bytes, [chunk, sc.end), stay valid until the next call. */
static inline int flame__linewalk_chunk(flame__linewalk *w, flame_err *err)
{
	const char *p;
	size_t n;
	/* into locals: with the address of a field of w passed out, no field of w would stay
	 * in a register across the reader's calls */
	int rc = flame__lines_chunk(w->cur, 1 << 20, &p, &n, err);
	if (rc <= 0)
		return rc;
	w->chunk = w->q = p;
	flame__nlscan_init(&w->sc, p, n);
	return 1;
}

/** The next line of the chunk, `*raw` bytes (a CR kept, no '\n'), counted in `*line_no`
 * (the number of the line last given: 0 before the first); NULL when the chunk has no
 * more. */
static inline const char *flame__linewalk_next(flame__linewalk *w, size_t *raw,
                                               uint64_t *line_no)
{
	const char *p = w->q, *end = w->sc.end;
	if (p >= end)
		return NULL;
	const char *nl = flame__nlscan_next(&w->sc);
	*raw = (size_t)((nl ? nl : end) - p);
	w->q = nl ? nl + 1 : end;
	++*line_no;
	return p;
}

/** The byte offset in the input of `p`, a line of the current chunk. */
static inline uint64_t flame__linewalk_offset(const flame__linewalk *w, const char *p)
{
	return w->cur->offset + (uint64_t)(p - w->chunk);
}

/* ---- text -> ids cache ---- */

/** Hash of a long text for the cache (core/hash.h's two-lane hash). */
static inline uint64_t flame__idcache_hash(const char *p, size_t n)
{
	return flame__hash_lanes(p, n);
}

typedef struct flame__idcache_ent {
	uint64_t hash;
	size_t len, nids;
	const char *text;
	const uint32_t *ids;
} flame__idcache_ent;

typedef struct flame__idcache {
	flame__idcache_ent *v;
	size_t count, mask;
	uint64_t *slots; /* core/slots.h's table over v[] */
	flame__arena arena;
	size_t limit;    /* stop remembering beyond this many bytes: memory stays bounded */
} flame__idcache;

static inline void flame__idcache_init(flame__idcache *c, size_t limit)
{
	memset(c, 0, sizeof *c);
	flame__arena_init(&c->arena);
	c->limit = limit;
}

static inline void flame__idcache_free(flame__idcache *c)
{
	free(c->v);
	free(c->slots);
	flame__arena_free(&c->arena);
	memset(c, 0, sizeof *c);
}

typedef struct flame__idcache_key {
	const flame__idcache *c;
	const char *text;
	size_t len;
	uint64_t hash;
} flame__idcache_key;

static inline int flame__idcache_eq(const void *ctx, uint32_t k)
{
	const flame__idcache_key *key = (const flame__idcache_key *)ctx;
	const flame__idcache_ent *e = &key->c->v[k];
	return e->hash == key->hash && e->len == key->len && memcmp(e->text, key->text, key->len) == 0;
}

/** The remembered ids of `text` (hash `h`), or NULL. */
static inline const flame__idcache_ent *flame__idcache_find(const flame__idcache *c,
                                                           const char *text, size_t len,
                                                           uint64_t h)
{
	if (!c->slots)
		return NULL;
	flame__idcache_key key = {c, text, len, h};
	uint64_t s = c->slots[flame__slots_probe(c->slots, c->mask, (uint32_t)h, flame__idcache_eq, &key)];
	return s ? &c->v[flame__slot_entry(s)] : NULL;
}

/** Remember `text` -> ids. 0, or -1 on out of memory (a full cache
 * silently declines). */
static inline int flame__idcache_put(flame__idcache *c, const char *text, size_t len,
                                     uint64_t h, const uint32_t *ids, size_t nids)
{
	if (c->arena.total > c->limit || len > c->limit / 64 || c->count >= UINT32_MAX - 1)
		return 0; /* full, or a text too long to be worth keeping */
	size_t had = c->slots ? c->mask + 1 : 0;
	if (flame__slots_reserve(&c->slots, &c->mask, c->count, 4096))
		return -1;
	if (c->mask + 1 != had) { /* entries: half the slots, as the load factor allows */
		flame__idcache_ent *v = realloc(c->v, ((c->mask + 1) / 2 + 1) * sizeof *v);
		if (!v)
			return -1;
		c->v = v;
	}
	flame__idcache_key key = {c, text, len, h};
	size_t i = flame__slots_probe(c->slots, c->mask, (uint32_t)h, flame__idcache_eq, &key);
	if (c->slots[i])
		return 0; /* remembered already */
	char *t = flame__arena_alloc(&c->arena, len + 1);
	uint32_t *d = flame__arena_alloc(&c->arena, nids * sizeof *d + 1);
	if (!t || !d)
		return -1;
	memcpy(t, text, len);
	if (nids)
		memcpy(d, ids, nids * sizeof *d);
	c->v[c->count] = (flame__idcache_ent){h, len, nids, t, d};
	c->slots[i] = flame__slot_make((uint32_t)h, (uint32_t)c->count++);
	return 0;
}
#endif
