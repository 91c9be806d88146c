/* The site table of a tree (core/sites.h): sites and mappings deduplicated, and frames
 * interned as (name, site) pairs into ids of the tree's name table. tree.c owns the table
 * and keeps frames true through merges; the pprof reader fills it, the pprof writer reads
 * it. */
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "sites.h"
#include "slots.h"

flame__sites *flame__sites_new(void)
{
	flame__sites *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	flame__intern_init(&s->strs);
	if (flame__intern_put(&s->strs, "", 0) != 0) {
		flame__sites_free(s);
		return NULL;
	}
	return s;
}

void flame__sites_free(flame__sites *s)
{
	if (!s)
		return;
	flame__intern_free(&s->strs);
	flame__array_free(s->v);
	flame__array_free(s->maps);
	flame__array_free(s->frames);
	free(s->slots);
	free(s->fslots);
	free(s->site_of);
	free(s);
}

uint32_t flame__sites_str(flame__sites *s, const char *p, size_t n)
{
	return flame__intern_put(&s->strs, p, n);
}

static flame_str str_of(const flame__sites *s, uint32_t id)
{
	const flame__name *nm = flame__intern_get(&s->strs, id);
	return (flame_str){nm->ptr, nm->len};
}

uint32_t flame__sites_map(flame__sites *s, const flame__map *m)
{
	for (size_t i = 0; i < s->maps.n; i++) {
		const flame__map *x = &s->maps.v[i];
		if (x->file == m->file && x->build_id == m->build_id && x->pub.start == m->pub.start &&
		    x->pub.limit == m->pub.limit && x->pub.offset == m->pub.offset) {
			s->maps.v[i].flags |= m->flags;
			return (uint32_t)i + 1;
		}
	}
	flame__map c = *m;
	c.pub.file = str_of(s, m->file);
	c.pub.build_id = str_of(s, m->build_id);
	if (s->maps.n >= UINT32_MAX - 1 || flame__array_push(s->maps, c))
		return 0;
	return (uint32_t)s->maps.n;
}

static uint64_t key_hash(const flame__site_key *k)
{
	uint64_t h = flame__hash_word(0x51735173u, (uint64_t)k->fn << 32 | k->file);
	h = flame__hash_word(h, (uint64_t)k->sys << 32 | k->map);
	h = flame__hash_word(h, (uint64_t)k->line);
	h = flame__hash_word(h, (uint64_t)k->start_line);
	h = flame__hash_word(h, k->address ^ ((uint64_t)k->flags << 63));
	return flame__mix64(h);
}

typedef struct site_ctx {
	const flame__sites *s;
	const flame__site_key *k;
} site_ctx;

static int site_eq(const void *ctx, uint32_t e)
{
	const site_ctx *c = ctx;
	const flame__site_key *a = &c->s->v.v[e].k, *b = c->k;
	return a->fn == b->fn && a->sys == b->sys && a->file == b->file && a->map == b->map &&
	       a->line == b->line && a->start_line == b->start_line && a->address == b->address &&
	       a->flags == b->flags;
}

uint32_t flame__sites_put(flame__sites *s, const flame__site_key *k)
{
	if (s->v.n >= UINT32_MAX - 1 || flame__slots_reserve(&s->slots, &s->mask, s->v.n, 256))
		return FLAME__ID_NONE;
	uint32_t h = (uint32_t)key_hash(k);
	site_ctx c = {s, k};
	size_t i = flame__slots_probe(s->slots, s->mask, h, site_eq, &c);
	if (s->slots[i])
		return flame__slot_entry(s->slots[i]);
	flame__site x = {*k, {str_of(s, k->fn), str_of(s, k->sys), str_of(s, k->file), k->line,
	                      k->start_line, k->address, k->map, (k->flags & FLAME__SITE_INLINED) != 0}};
	if (flame__array_push(s->v, x))
		return FLAME__ID_NONE;
	s->slots[i] = flame__slot_make(h, (uint32_t)s->v.n - 1);
	return (uint32_t)s->v.n - 1;
}

typedef struct frame_ctx {
	const flame__sites *s;
	uint32_t name, site;
} frame_ctx;

static int frame_eq(const void *ctx, uint32_t e)
{
	const frame_ctx *c = ctx;
	const flame__frame_key *f = &c->s->frames.v[e];
	return f->name == c->name && f->site == c->site;
}

/* site_of covers ids below `n`: the ids it did not cover have no site. 0 or -1. */
static int cover(flame__sites *s, size_t n)
{
	size_t old = s->site_cap;
	if (n <= old)
		return 0;
	if (flame__array_reserve_min(s->site_of, s->site_cap, n, 1024))
		return -1;
	memset(s->site_of + old, 0, (s->site_cap - old) * sizeof *s->site_of);
	return 0;
}

uint32_t flame__sites_frame(flame__sites *s, flame__intern *names, uint32_t name, uint32_t site)
{
	if (flame__slots_reserve(&s->fslots, &s->fmask, s->frames.n, 256))
		return FLAME__ID_NONE;
	uint32_t h = (uint32_t)flame__mix64((uint64_t)name << 32 | site);
	frame_ctx c = {s, name, site};
	size_t i = flame__slots_probe(s->fslots, s->fmask, h, frame_eq, &c);
	if (s->fslots[i])
		return s->frames.v[flame__slot_entry(s->fslots[i])].frame;
	/* the name's own id when no frame took it yet, else a new id of the same bytes */
	uint32_t f = name < s->site_cap && s->site_of[name] ? flame__intern_dup(names, name) : name;
	if (f == FLAME__ID_NONE || cover(s, (size_t)f + 1))
		return FLAME__ID_NONE;
	flame__frame_key fk = {name, site, f};
	if (flame__array_push(s->frames, fk))
		return FLAME__ID_NONE;
	s->site_of[f] = site + 1;
	s->fslots[i] = flame__slot_make(h, (uint32_t)s->frames.n - 1);
	return f;
}

uint32_t flame__sites_import(flame__sites *dst, const flame__sites *src, uint32_t k)
{
	const flame__site_key *a = &src->v.v[k].k;
	flame__site_key b = *a;
	flame_str fn = str_of(src, a->fn), sys = str_of(src, a->sys), file = str_of(src, a->file);
	b.fn = flame__sites_str(dst, fn.ptr, fn.len);
	b.sys = flame__sites_str(dst, sys.ptr, sys.len);
	b.file = flame__sites_str(dst, file.ptr, file.len);
	if (b.fn == FLAME__ID_NONE || b.sys == FLAME__ID_NONE || b.file == FLAME__ID_NONE)
		return FLAME__ID_NONE;
	if (a->map) {
		flame__map m = src->maps.v[a->map - 1];
		flame_str mf = str_of(src, m.file), bi = str_of(src, m.build_id);
		m.file = flame__sites_str(dst, mf.ptr, mf.len);
		m.build_id = flame__sites_str(dst, bi.ptr, bi.len);
		if (m.file == FLAME__ID_NONE || m.build_id == FLAME__ID_NONE ||
		    !(b.map = flame__sites_map(dst, &m)))
			return FLAME__ID_NONE;
	}
	return flame__sites_put(dst, &b);
}
