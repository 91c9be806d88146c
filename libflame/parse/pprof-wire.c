/* The pprof wire reader (parse/, under pprof.c): a profile.proto message into the tables
 * of pprof.h, with the wire decoder of pbuf.c. The message is walked twice: the string
 * table first (it may come last, or first), noting where the samples are; then
 * everything but the samples (sample types, mappings, functions, locations and their
 * lines, the scalars), so every index is checked against the table, with the byte offset
 * of the field that holds it. Then ids are resolved: each location's mapping, each line's
 * function. The samples are read later, by pprof-samples.c, over the ranges noted here.
 * Functions and locations come by the million: each has a quiet fast reader, and the
 * general one reads (and words the error of) any message the fast one turns down. */
#include <inttypes.h>
#include <stdlib.h>
#include "../core/err.h"
#include "pprof.h"

static int bad(const flame__pp *p, uint64_t off, flame_err *err, const char *what, uint64_t idx)
{
	return flame__err(err, FLAME_EDATA, p->src, 0, off,
	                  "invalid pprof: %s %" PRIu64 " is out of range (%zu strings)", what, idx,
	                  p->str.n);
}

int flame__pp_want_wt(const flame__pp *p, const flame__pfield *f, int wt, const char *what,
                      flame_err *err)
{
	if (f->wt == wt)
		return 0;
	return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
	                  "invalid pprof: %s has wire type %d, expected %d", what, f->wt, wt);
}

/* A string index field: checked against the table read in pass 1. */
int flame__pp_str_idx(const flame__pp *p, const flame__pfield *f, uint32_t *out,
                      const char *what, flame_err *err)
{
	if (f->wt != FLAME__WT_VARINT)
		return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
		                  "invalid pprof: %s has wire type %d, expected a varint", what, f->wt);
	if (f->v >= p->str.n)
		return bad(p, f->off, err, what, f->v);
	*out = (uint32_t)f->v;
	return 0;
}

static int need_varint(const flame__pp *p, const flame__pfield *g, const char *what,
                       flame_err *err)
{
	return flame__pp_want_wt(p, g, FLAME__WT_VARINT, what, err);
}

/* A field this reader once skipped: taken when it is a varint, else left as it was (0),
 * so no profile read before is refused for it. */
static void lenient(const flame__pfield *g, uint64_t *out)
{
	if (g->wt == FLAME__WT_VARINT)
		*out = g->v;
}

/* ---- pass 1: string_table (field 6), the concatenation check (field 9), and where the
 * samples are (the later passes walk only their ranges, or only around them) */

static int note_samples(flame__pp *p, const flame__pbuf *b, const flame__pfield *f)
{
	uint64_t end = (uint64_t)(b->p - p->buf);
	if (p->sruns.n && p->sruns.v[p->sruns.n - 1].end == f->off) {
		p->sruns.v[p->sruns.n - 1].end = end;
		return 0;
	}
	return flame__array_push(p->sruns, ((flame__pp_range){f->off, end})) ? FLAME_ENOMEM : 0;
}

static int pass_strings(flame__pp *p, flame_err *err)
{
	flame__pbuf b;
	flame__pfield f;
	int r, times = 0;
	uint64_t first_off = 0;
	flame__pbuf_init(&b, p->buf, p->len, p->src);
	while ((r = flame__pbuf_next(&b, &f, err)) > 0) {
		if (f.num == 6) {
			if ((r = flame__pp_want_wt(p, &f, FLAME__WT_LEN, "string_table entry", err)))
				return r;
			if (p->str.n == 0)
				first_off = f.off;
			if (p->str.n >= UINT32_MAX - 1)
				return flame__err(err, FLAME_ERANGE, p->src, 0, f.off,
				                  "invalid pprof: too many strings");
			flame__pp_span sp = {(uint32_t)(f.data - p->buf), (uint32_t)f.len};
			if (flame__array_push(p->str, sp))
				return flame__err_nomem(err);
		} else if (f.num == 2) {
			if (note_samples(p, &b, &f))
				return flame__err_nomem(err);
		} else if (f.num == 9) {
			if (++times > 1)
				return flame__err(err, FLAME_EDATA, p->src, 0, f.off,
				                  "invalid pprof: concatenated profiles detected (a second "
				                  "time_nanos)");
			lenient(&f, (uint64_t *)&p->time_nanos);
		}
	}
	if (r < 0)
		return r;
	if (p->str.n == 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, 0,
		                  "invalid pprof: no string_table (is this a profile.proto?)");
	if (p->str.v[0].len != 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, first_off,
		                  "invalid pprof: string_table[0] must be the empty string");
	return 0;
}

/* ---- the general readers of pass 2: every error worded */

static int read_vtype(flame__pp *p, const flame__pbuf *b, const flame__pfield *f,
                      flame__pp_vtype *vt, flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	*vt = (flame__pp_vtype){0, 0};
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		if (g.num == 1 && (r = flame__pp_str_idx(p, &g, &vt->type, "sample type name", err)))
			return r;
		if (g.num == 2 && (r = flame__pp_str_idx(p, &g, &vt->unit, "sample type unit", err)))
			return r;
	}
	return r;
}

/* One field of a Mapping: 0, or an error. */
static int mapping_field(const flame__pp *p, const flame__pfield *g, flame__pp_mapping *m,
                         flame_err *err)
{
	uint64_t x = 0;
	int r;
	switch (g->num) {
	case 1:
		if ((r = need_varint(p, g, "mapping id", err)))
			return r;
		m->id = g->v;
		return 0;
	case 2: lenient(g, &m->start); return 0;
	case 3: lenient(g, &m->limit); return 0;
	case 4: lenient(g, &m->file_offset); return 0;
	case 5: return flame__pp_str_idx(p, g, &m->file, "mapping filename", err);
	case 6:
		lenient(g, &x);
		m->build_id = x < p->str.n ? (uint32_t)x : 0;
		return 0;
	case 7: case 8: case 9: case 10:
		lenient(g, &x);
		*(g->num == 7 ? &m->has_functions : g->num == 8 ? &m->has_filenames
		  : g->num == 9 ? &m->has_lines : &m->has_inline) = x != 0;
		return 0;
	}
	return 0;
}

static int read_mapping(flame__pp *p, const flame__pbuf *b, const flame__pfield *f,
                        flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	flame__pp_mapping m = {.off = f->off};
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0)
		if ((r = mapping_field(p, &g, &m, err)))
			return r;
	if (r < 0)
		return r;
	if (m.id == 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
		                  "invalid pprof: mapping with id 0 (ids must be nonzero)");
	return flame__array_push(p->maps, m) ? flame__err_nomem(err) : 0;
}

static int read_function(flame__pp *p, const flame__pbuf *b, const flame__pfield *f,
                         flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	flame__pp_func fn = {.off = f->off};
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		switch (g.num) {
		case 1:
			if ((r = need_varint(p, &g, "function id", err)))
				return r;
			fn.id = g.v;
			break;
		case 2: r = flame__pp_str_idx(p, &g, &fn.name, "function name", err); break;
		case 3: r = flame__pp_str_idx(p, &g, &fn.sys, "function system_name", err); break;
		case 4: r = flame__pp_str_idx(p, &g, &fn.file, "function filename", err); break;
		case 5: lenient(&g, (uint64_t *)&fn.start_line); break;
		}
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	if (fn.id == 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
		                  "invalid pprof: function with id 0 (ids must be nonzero)");
	return flame__array_push(p->fns, fn) ? flame__err_nomem(err) : 0;
}

static int read_line(flame__pp *p, const flame__pbuf *b, const flame__pfield *f,
                     flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	flame__pp_line ln = {.fidx = UINT32_MAX};
	if ((r = flame__pp_want_wt(p, f, FLAME__WT_LEN, "location line", err)))
		return r;
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		if (g.num == 1 || g.num == 2) {
			if ((r = need_varint(p, &g, g.num == 1 ? "line function_id" : "line number", err)))
				return r;
			if (g.num == 1)
				ln.fid = g.v;
			else
				ln.line = (int64_t)g.v;
		} else if (g.num == 3) {
			lenient(&g, (uint64_t *)&ln.column);
		}
	}
	if (r < 0)
		return r;
	return flame__array_push(p->lines, ln) ? flame__err_nomem(err) : 0;
}

/* A location's lines are in p->lines from l->line0 on: count them into l->nline. */
static int end_location(flame__pp *p, flame__pp_loc *l)
{
	if (l->id == 0 || p->lines.n - l->line0 > UINT32_MAX / 2)
		return 1;
	l->nline = (uint32_t)(p->lines.n - l->line0);
	return 0;
}

static int read_location(flame__pp *p, const flame__pbuf *b, const flame__pfield *f,
                         flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	uint64_t folded = 0;
	flame__pp_loc l = {.off = f->off, .line0 = (uint32_t)p->lines.n, .midx = UINT32_MAX};
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		static const char *const what[] = {"", "location id", "location mapping_id",
		                                   "location address"};
		if (g.num >= 1 && g.num <= 3) {
			if ((r = need_varint(p, &g, what[g.num], err)))
				return r;
			*(g.num == 1 ? &l.id : g.num == 2 ? &l.mid : &l.addr) = g.v;
		} else if (g.num == 4 && (r = read_line(p, &sb, &g, err))) {
			return r;
		} else if (g.num == 5) {
			lenient(&g, &folded);
		}
	}
	if (r < 0)
		return r;
	if (l.id == 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
		                  "invalid pprof: location with id 0 (ids must be nonzero)");
	if (end_location(p, &l))
		return flame__err(err, FLAME_ERANGE, p->src, 0, f->off, "invalid pprof: too many lines");
	l.is_folded = folded != 0;
	return flame__array_push(p->locs, l) ? flame__err_nomem(err) : 0;
}

/* ---- the fast readers of pass 2: 0 when read, < 0 out of memory, 1 when the general
 * reader must look (nothing has been kept) */

static int function_fast(flame__pp *p, const flame__pfield *f, flame_err *err)
{
	const uint8_t *q = f->data, *end = q + f->len;
	flame__pp_func fn = {.off = f->off};
	while (q < end) {
		uint64_t num, x;
		unsigned wt;
		if (flame__pbuf_quick_key(&q, end, &num, &wt))
			return 1;
		if (num < 1 || num > 5 || (num == 5 && wt != FLAME__WT_VARINT)) {
			if (flame__pbuf_quick_skip(&q, end, wt))
				return 1;
			continue;
		}
		if (wt != FLAME__WT_VARINT || flame__pbuf_quick_varint(&q, end, &x) ||
		    (num > 1 && num < 5 && x >= p->str.n))
			return 1;
		if (num == 1)
			fn.id = x;
		else if (num == 5)
			fn.start_line = (int64_t)x;
		else
			*(num == 2 ? &fn.name : num == 3 ? &fn.sys : &fn.file) = (uint32_t)x;
	}
	if (fn.id == 0)
		return 1;
	return flame__array_push(p->fns, fn) ? flame__err_nomem(err) : 0;
}

/* A Line message [q, end): appended to p->lines. */
static int line_fast(flame__pp *p, const uint8_t *q, const uint8_t *end, flame_err *err)
{
	flame__pp_line ln = {.fidx = UINT32_MAX};
	while (q < end) {
		uint64_t num, x;
		unsigned wt;
		if (flame__pbuf_quick_key(&q, end, &num, &wt))
			return 1;
		if ((num == 1 || num == 2 || num == 3) && (wt == FLAME__WT_VARINT || num != 3)) {
			if (wt != FLAME__WT_VARINT || flame__pbuf_quick_varint(&q, end, &x))
				return 1;
			*(num == 1 ? &ln.fid : num == 2 ? (uint64_t *)&ln.line : (uint64_t *)&ln.column) = x;
		} else if (flame__pbuf_quick_skip(&q, end, wt)) {
			return 1;
		}
	}
	return flame__array_push(p->lines, ln) ? flame__err_nomem(err) : 0;
}

static int location_fast(flame__pp *p, const flame__pfield *f, flame_err *err)
{
	const uint8_t *q = f->data, *end = q + f->len;
	flame__pp_loc l = {.off = f->off, .line0 = (uint32_t)p->lines.n, .midx = UINT32_MAX};
	size_t nl0 = p->lines.n;
	int r;
	while (q < end) {
		uint64_t num, x;
		unsigned wt;
		if (flame__pbuf_quick_key(&q, end, &num, &wt))
			goto general;
		if (num >= 1 && num <= 3) {
			if (wt != FLAME__WT_VARINT || flame__pbuf_quick_varint(&q, end, &x))
				goto general;
			*(num == 1 ? &l.id : num == 2 ? &l.mid : &l.addr) = x;
		} else if (num == 4) {
			if (wt != FLAME__WT_LEN || flame__pbuf_quick_varint(&q, end, &x) ||
			    x > (uint64_t)(end - q))
				goto general;
			if ((r = line_fast(p, q, q + x, err)) < 0)
				return r;
			if (r)
				goto general;
			q += x;
		} else if (num == 5 && wt == FLAME__WT_VARINT) {
			if (flame__pbuf_quick_varint(&q, end, &x))
				goto general;
			l.is_folded = x != 0;
		} else if (flame__pbuf_quick_skip(&q, end, wt)) {
			goto general;
		}
	}
	if (end_location(p, &l))
		goto general;
	return flame__array_push(p->locs, l) ? flame__err_nomem(err) : 0;
general:
	p->lines.n = nl0;
	return 1;
}

/* ---- pass 2: everything but the samples */

static int check_comments(flame__pp *p, flame__pbuf *b, const flame__pfield *f, flame_err *err)
{
	flame__prep rep;
	uint64_t v;
	int r;
	if ((r = flame__prep_start(&rep, b, f, err)))
		return r;
	while ((r = flame__prep_next(&rep, b, &v, err)) > 0)
		if (v >= p->str.n)
			return bad(p, f->off, err, "comment string index", v);
	return r;
}

/* A message field of Profile (wire type 2 checked): read into its table. */
static int header_message(flame__pp *p, flame__pbuf *b, const flame__pfield *f, flame_err *err)
{
	static const char *const what[] = {"", "sample_type", "", "mapping", "location", "function"};
	int r;
	flame__pp_vtype vt;
	if ((r = flame__pp_want_wt(p, f, FLAME__WT_LEN, what[f->num], err)))
		return r;
	switch (f->num) {
	case 1:
		if ((r = read_vtype(p, b, f, &vt, err)))
			return r;
		return flame__array_push(p->st, vt) ? flame__err_nomem(err) : 0;
	case 3: return read_mapping(p, b, f, err);
	case 4: return (r = location_fast(p, f, err)) > 0 ? read_location(p, b, f, err) : r;
	case 5: return (r = function_fast(p, f, err)) > 0 ? read_function(p, b, f, err) : r;
	}
	return 0;
}

static int pass_header(flame__pp *p, flame_err *err)
{
	flame__pbuf b;
	flame__pfield f;
	int r;
	size_t run = 0;
	flame__pbuf_init(&b, p->buf, p->len, p->src);
	while ((r = flame__pbuf_next(&b, &f, err)) > 0) {
		switch (f.num) {
		case 2: /* the first of a run of samples: over the run */
			if (run < p->sruns.n && p->sruns.v[run].start == f.off)
				b.p = p->buf + p->sruns.v[run++].end;
			break;
		case 1: case 3: case 4: case 5: r = header_message(p, &b, &f, err); break;
		case 7: r = flame__pp_str_idx(p, &f, &p->drop, "drop_frames", err); break;
		case 8: r = flame__pp_str_idx(p, &f, &p->keep, "keep_frames", err); break;
		case 13: r = check_comments(p, &b, &f, err); break;
		case 14: r = flame__pp_str_idx(p, &f, &p->default_st, "default_sample_type", err); break;
		case 11:
			r = flame__pp_want_wt(p, &f, FLAME__WT_LEN, "period_type", err);
			if (!r)
				r = read_vtype(p, &b, &f, &p->pt, err);
			break;
		case 10:
			if (!(r = need_varint(p, &f, "duration_nanos", err)))
				p->duration = f.v <= INT64_MAX ? f.v : 0;
			break;
		case 12:
			if (!(r = need_varint(p, &f, "period", err)))
				p->period = f.v <= INT64_MAX ? f.v : 0; /* int64: a negative period is none */
			break;
		}
		if (r < 0)
			return r;
	}
	return r;
}

/* ---- ids */

/* The index of a table's ids (the first at `first_id`, one every `stride` bytes); a
 * duplicate's element index + 1 in *dup. */
static int ids_build(flame__pp_ids *m, const uint64_t *first_id, size_t n, size_t stride,
                     size_t *dup)
{
	const char *base = (const char *)first_id;
	uint64_t mx = 0, id;
	*dup = 0;
	m->base = base;
	m->stride = stride;
	for (size_t i = 0; i < n; i++) {
		memcpy(&id, base + i * stride, sizeof id);
		mx = id > mx ? id : mx;
	}
	if (mx < 4 * (uint64_t)n + 1024) {
		m->ndense = mx + 1;
		if (!(m->dense = calloc(m->ndense, sizeof *m->dense)))
			return FLAME_ENOMEM;
		for (size_t i = 0; i < n; i++) {
			memcpy(&id, base + i * stride, sizeof id);
			if (m->dense[id]) {
				*dup = i + 1;
				return 0;
			}
			m->dense[id] = (uint32_t)(i + 1);
		}
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (flame__slots_reserve(&m->slots, &m->mask, i, 16))
			return FLAME_ENOMEM;
		memcpy(&id, base + i * stride, sizeof id);
		flame__pp_idkey k = {m, id};
		uint32_t h = (uint32_t)flame__mix64(id);
		size_t at = flame__slots_probe(m->slots, m->mask, h, flame__pp_id_eq, &k);
		if (m->slots[at]) {
			*dup = i + 1;
			return 0;
		}
		m->slots[at] = flame__slot_make(h, (uint32_t)i);
	}
	return 0;
}

static int defined_twice(const flame__pp *p, const char *what, uint64_t off, uint64_t id,
                         flame_err *err)
{
	return flame__err(err, FLAME_EDATA, p->src, 0, off,
	                  "invalid pprof: %s id %" PRIu64 " is defined twice", what, id);
}

/* Index the three tables by id; a duplicate is an error at its second definition. */
static int index_ids(flame__pp *p, flame_err *err)
{
	size_t dup = 0;
	if (p->maps.n && ids_build(&p->mapm, &p->maps.v->id, p->maps.n, sizeof *p->maps.v, &dup))
		return flame__err_nomem(err);
	if (dup)
		return defined_twice(p, "mapping", p->maps.v[dup - 1].off, p->maps.v[dup - 1].id, err);
	if (p->fns.n && ids_build(&p->fnm, &p->fns.v->id, p->fns.n, sizeof *p->fns.v, &dup))
		return flame__err_nomem(err);
	if (dup)
		return defined_twice(p, "function", p->fns.v[dup - 1].off, p->fns.v[dup - 1].id, err);
	if (p->locs.n && ids_build(&p->locm, &p->locs.v->id, p->locs.n, sizeof *p->locs.v, &dup))
		return flame__err_nomem(err);
	if (dup)
		return defined_twice(p, "location", p->locs.v[dup - 1].off, p->locs.v[dup - 1].id, err);
	return 0;
}

static int undefined(const flame__pp *p, const flame__pp_loc *l, const char *what, uint64_t id,
                     flame_err *err)
{
	return flame__err(err, FLAME_EDATA, p->src, 0, l->off,
	                  "invalid pprof: location %" PRIu64 " refers to %s id %" PRIu64
	                  ", which is not defined", l->id, what, id);
}

/* Resolve ids: mapping and function of every location, duplicates. */
static int resolve(flame__pp *p, flame_err *err)
{
	int r = index_ids(p, err);
	for (size_t i = 0; !r && i < p->locs.n; i++) {
		flame__pp_loc *l = &p->locs.v[i];
		if (l->mid) {
			uint32_t m = flame__pp_ids_get(&p->mapm, l->mid);
			if (!m)
				return undefined(p, l, "mapping", l->mid, err);
			l->midx = m - 1;
		}
		for (uint32_t k = 0; k < l->nline; k++) {
			flame__pp_line *ln = &p->lines.v[l->line0 + k];
			if (!ln->fid)
				continue;
			uint32_t fi = flame__pp_ids_get(&p->fnm, ln->fid);
			if (!fi)
				return undefined(p, l, "function", ln->fid, err);
			ln->fidx = fi - 1;
		}
	}
	return r;
}

int flame__pp_load(flame__pp *p, flame_err *err)
{
	int r;
	if ((r = pass_strings(p, err)) || (r = pass_header(p, err)) || (r = resolve(p, err)))
		return r;
	return 0;
}

static void ids_free(flame__pp_ids *m)
{
	free(m->dense);
	free(m->slots);
}

void flame__pp_free(flame__pp *p)
{
	flame__array_free(p->str);
	flame__array_free(p->st);
	flame__array_free(p->maps);
	flame__array_free(p->fns);
	flame__array_free(p->locs);
	flame__array_free(p->lines);
	flame__array_free(p->sruns);
	ids_free(&p->mapm);
	ids_free(&p->fnm);
	ids_free(&p->locm);
	free(p->frames);
	free(p->lone);
}
