/* The pprof writer's functions, locations and mappings for a tree that keeps sites
 * (write/, beside pprof.c): a Function per (name, system name, file, start line), a
 * Location per run of frames that share an address (a frame, then the frames inlined into
 * it: one Location whose Lines are leaf first), and the sites' Mappings. A frame without a
 * site gets a function of its name and a location of one line, as pprof.c writes them.
 * Planned before anything is written (strings, then tables), the samples looked up after. */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/hash.h"
#include "../core/sites.h"
#include "../core/slots.h"
#include "pprof.h"

typedef struct pfn {
	uint32_t name, sys, file; /* string indexes */
	int64_t start;
} pfn;

typedef struct ploc {
	uint32_t off, n; /* its frames in runs[] (root first) */
	uint32_t hash;
} ploc;

struct flame__pps {
	const flame__stacks *st;
	const flame__intern *names;
	const flame__sites *s;
	flame__array(flame_str) strs; /* strings from index `first` */
	uint32_t first;
	uint32_t *str_site, *str_name; /* strs id / name id -> string index (0: none yet) */
	flame__array(pfn) fns;
	uint64_t *fslots;
	size_t fmask;
	uint32_t *fn_of;               /* frame id -> function id (0: none yet) */
	flame__array(ploc) locs;
	flame__array(uint32_t) runs;
	flame__array(uint32_t) tmp;    /* a sample's location ids, root first */
	uint64_t *lslots;
	size_t lmask;
};

static uint32_t str_index(flame__pps *w, uint32_t *idx, uint32_t id, flame_str s)
{
	if (idx[id] || !s.len)
		return idx[id];
	if (flame__array_push(w->strs, s))
		return UINT32_MAX;
	return idx[id] = w->first + (uint32_t)w->strs.n - 1;
}

static uint32_t site_str(flame__pps *w, uint32_t id)
{
	const flame__name *nm = flame__intern_get(&w->s->strs, id);
	return str_index(w, w->str_site, id, (flame_str){nm->ptr, nm->len});
}

typedef struct fn_ctx {
	const flame__pps *w;
	const pfn *f;
} fn_ctx;

static int fn_eq(const void *ctx, uint32_t e)
{
	const fn_ctx *c = ctx;
	const pfn *a = &c->w->fns.v[e];
	return a->name == c->f->name && a->sys == c->f->sys && a->file == c->f->file &&
	       a->start == c->f->start;
}

/* The function id (1 ..) of frame `id`; 0: none (a location without lines), UINT32_MAX:
 * out of memory. */
static uint32_t frame_fn(flame__pps *w, uint32_t id)
{
	if (w->fn_of[id])
		return w->fn_of[id];
	const flame__site *st = flame__sites_of(w->s, id);
	pfn f = {0, 0, 0, 0};
	if (st && !st->k.fn)
		return 0;
	if (st) {
		f = (pfn){site_str(w, st->k.fn), site_str(w, st->k.sys), site_str(w, st->k.file),
		          st->k.start_line};
	} else {
		const flame__name *nm = flame__intern_get(w->names, id);
		f.name = f.sys = str_index(w, w->str_name, id, (flame_str){nm->ptr, nm->len});
	}
	if (f.name == UINT32_MAX || f.sys == UINT32_MAX || f.file == UINT32_MAX ||
	    flame__slots_reserve(&w->fslots, &w->fmask, w->fns.n, 256))
		return UINT32_MAX;
	uint64_t h = flame__hash_word(flame__hash_word(f.name, (uint64_t)f.sys << 32 | f.file),
	                              (uint64_t)f.start);
	fn_ctx c = {w, &f};
	size_t i = flame__slots_probe(w->fslots, w->fmask, (uint32_t)h, fn_eq, &c);
	if (!w->fslots[i]) {
		if (flame__array_push(w->fns, f))
			return UINT32_MAX;
		w->fslots[i] = flame__slot_make((uint32_t)h, (uint32_t)w->fns.n - 1);
	}
	return w->fn_of[id] = flame__slot_entry(w->fslots[i]) + 1;
}

/* Where the location of frames ids[i..) ends: the frames inlined into ids[i] follow it at
 * its address. */
static uint32_t run_end(const flame__pps *w, const uint32_t *ids, uint32_t i, uint32_t depth)
{
	const flame__site *a = flame__sites_of(w->s, ids[i]);
	uint32_t j = i + 1;
	for (; a && j < depth; j++) {
		const flame__site *b = flame__sites_of(w->s, ids[j]);
		if (!b || !(b->k.flags & FLAME__SITE_INLINED) || b->k.address != a->k.address ||
		    b->k.map != a->k.map)
			break;
	}
	return j;
}

typedef struct loc_ctx {
	const flame__pps *w;
	const uint32_t *ids;
	uint32_t n;
} loc_ctx;

static int loc_eq(const void *ctx, uint32_t e)
{
	const loc_ctx *c = ctx;
	const ploc *l = &c->w->locs.v[e];
	return l->n == c->n && !memcmp(c->w->runs.v + l->off, c->ids, c->n * sizeof *c->ids);
}

/* The location id (1 ..) of frames ids[0..n), made when `make`; 0 on out of memory. */
static uint32_t loc_of(flame__pps *w, const uint32_t *ids, uint32_t n, int make)
{
	if (make && flame__slots_reserve(&w->lslots, &w->lmask, w->locs.n, 1024))
		return 0;
	uint32_t h = (uint32_t)flame__hash_bytes(ids, n * sizeof *ids);
	loc_ctx c = {w, ids, n};
	size_t i = flame__slots_probe(w->lslots, w->lmask, h, loc_eq, &c);
	if (w->lslots[i] || !make)
		return w->lslots[i] ? flame__slot_entry(w->lslots[i]) + 1 : 0;
	for (uint32_t k = 0; k < n; k++)
		if (frame_fn(w, ids[k]) == UINT32_MAX)
			return 0;
	ploc l = {(uint32_t)w->runs.n, n, h};
	if (flame__array_reserve(w->runs.v, w->runs.cap, w->runs.n + n) || flame__array_push(w->locs, l))
		return 0;
	memcpy(w->runs.v + w->runs.n, ids, n * sizeof *ids);
	w->runs.n += n;
	w->lslots[i] = flame__slot_make(h, (uint32_t)w->locs.n - 1);
	return (uint32_t)w->locs.n;
}

int flame__pps_plan(flame__pps **out, const flame__stacks *st, const flame__intern *names,
                    const struct flame__sites *s, uint32_t first)
{
	flame__pps *w = *out = calloc(1, sizeof *w);
	if (!w)
		return FLAME_ENOMEM;
	*w = (flame__pps){.st = st, .names = names, .s = s, .first = first};
	w->str_site = calloc(s->strs.count + 1, sizeof *w->str_site);
	w->str_name = calloc(names->count + 1, sizeof *w->str_name);
	w->fn_of = calloc(names->count + 1, sizeof *w->fn_of);
	if (!w->str_site || !w->str_name || !w->fn_of)
		return FLAME_ENOMEM;
	for (size_t i = 0; i < s->maps.n; i++)
		if (site_str(w, s->maps.v[i].file) == UINT32_MAX ||
		    site_str(w, s->maps.v[i].build_id) == UINT32_MAX)
			return FLAME_ENOMEM;
	for (size_t k = 0; k < st->count; k++) {
		const flame__stack *x = &st->v[k];
		for (uint32_t i = 0, j; i < x->depth; i = j) {
			j = run_end(w, x->ids, i, x->depth);
			if (!loc_of(w, x->ids + i, j - i, 1))
				return FLAME_ENOMEM;
		}
	}
	return 0;
}

int flame__pps_sample(flame__pps *w, const flame__stack *st, flame__pb *ids)
{
	w->tmp.n = 0;
	for (uint32_t i = 0, j; i < st->depth; i = j) {
		j = run_end(w, st->ids, i, st->depth);
		if (flame__array_push(w->tmp, loc_of(w, st->ids + i, j - i, 0)))
			return FLAME_ENOMEM;
	}
	ids->len = 0;
	if (flame__pb_reserve(ids, w->tmp.n * 10))
		return FLAME_ENOMEM;
	for (size_t k = w->tmp.n; k-- > 0;)
		flame__pb_varint(ids, w->tmp.v[k]);
	return 0;
}

static int write_maps(flame__pps *w, flame__pb *b, flame__gzip *z, flame_err *err)
{
	int rc = 0;
	for (size_t i = 0; i < w->s->maps.n && !rc; i++) {
		const flame__map *m = &w->s->maps.v[i];
		b->len = 0;
		if (flame__pb_reserve(b, 128))
			return flame__err_nomem(err);
		flame__pb_uint(b, 1, i + 1);
		flame__pb_uint(b, 2, m->pub.start);
		flame__pb_uint(b, 3, m->pub.limit);
		flame__pb_uint(b, 4, m->pub.offset);
		flame__pb_uint(b, 5, w->str_site[m->file]);
		flame__pb_uint(b, 6, w->str_site[m->build_id]);
		for (unsigned f = 0; f < 4; f++)
			if (m->flags >> f & 1)
				flame__pb_uint(b, 7 + f, 1);
		rc = flame__pb_emit(z, 3, b->p, b->len, err);
	}
	return rc;
}

static int write_fns(flame__pps *w, flame__pb *b, flame__gzip *z, flame_err *err)
{
	int rc = 0;
	for (size_t i = 0; i < w->fns.n && !rc; i++) {
		const pfn *f = &w->fns.v[i];
		b->len = 0;
		if (flame__pb_reserve(b, 64))
			return flame__err_nomem(err);
		flame__pb_uint(b, 1, i + 1);
		flame__pb_uint(b, 2, f->name);
		flame__pb_uint(b, 3, f->sys);
		flame__pb_uint(b, 4, f->file);
		flame__pb_uint(b, 5, (uint64_t)f->start);
		rc = flame__pb_emit(z, 5, b->p, b->len, err);
	}
	return rc;
}

/* A location: id, mapping, address, its lines leaf first. */
static int write_loc(flame__pps *w, size_t i, flame__pb *b, flame__gzip *z, flame_err *err)
{
	const ploc *l = &w->locs.v[i];
	const uint32_t *ids = w->runs.v + l->off;
	const flame__site *top = flame__sites_of(w->s, ids[0]);
	b->len = 0;
	if (flame__pb_reserve(b, 40 + (size_t)l->n * 40))
		return flame__err_nomem(err);
	flame__pb_uint(b, 1, i + 1);
	if (top && top->k.map)
		flame__pb_uint(b, 2, top->k.map);
	if (top && top->k.address)
		flame__pb_uint(b, 3, top->k.address);
	for (uint32_t k = l->n; k-- > 0;) {
		uint32_t fn = w->fn_of[ids[k]];
		if (!fn)
			continue;
		const flame__site *st = flame__sites_of(w->s, ids[k]);
		uint8_t ln[32];
		flame__pb m = {ln, 0, sizeof ln};
		flame__pb_uint(&m, 1, fn);
		if (st && st->k.line)
			flame__pb_uint(&m, 2, (uint64_t)st->k.line);
		flame__pb_msg(b, 4, &m);
	}
	return flame__pb_emit(z, 4, b->p, b->len, err);
}

int flame__pps_write(flame__pps *w, flame__gzip *z, flame_err *err)
{
	int rc = 0;
	for (size_t i = 0; i < w->strs.n && !rc; i++)
		rc = flame__pb_emit(z, 6, w->strs.v[i].ptr, w->strs.v[i].len, err);
	flame__pb b = {0};
	if (!rc)
		rc = write_maps(w, &b, z, err);
	if (!rc)
		rc = write_fns(w, &b, z, err);
	for (size_t i = 0; i < w->locs.n && !rc; i++)
		rc = write_loc(w, i, &b, z, err);
	free(b.p);
	return rc;
}

void flame__pps_free(flame__pps *w)
{
	if (!w)
		return;
	flame__array_free(w->strs);
	flame__array_free(w->fns);
	flame__array_free(w->locs);
	flame__array_free(w->runs);
	flame__array_free(w->tmp);
	free(w->str_site);
	free(w->str_name);
	free(w->fn_of);
	free(w->fslots);
	free(w->lslots);
	free(w);
}
