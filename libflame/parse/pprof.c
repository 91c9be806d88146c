/* pprof reader: profile.proto (gzip is undone by the input layer) to stacks.
 *
 * Example input (as `go tool pprof -raw` shows it):    Example output (folded):
 *   samples/count cpu/nanoseconds                        main;main.work;main.hot 20000000
 *     2  20000000: 3 2 1        (location ids, leaf first)
 *   Locations 1: main  2: main.work  3: main.hot
 *
 * The whole message is read (bounded) and walked three times with the wire decoder of
 * pbuf.c: the string table first (it may come last, or first), then sample types,
 * mappings, functions and locations, then the samples, so every index is checked with
 * the byte offset of the field that holds it. Each location's frames are named and
 * interned once; a sample costs one id lookup per location and one stack-table lookup.
 * Frames follow `go tool pprof -traces`: Function.name, else `[basename(mapping)]`,
 * else `<unknown>`; a location with several lines is inlined code, emitted from its
 * last line (the caller) to line[0]; drop_frames/keep_frames prune as Profile.Prune.
 * Values are int64: a stack's values are summed first and a stack whose sum is
 * negative (diff profiles) is dropped with a warning, since folded counts are >= 0. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/hash.h"
#include "../core/prefetch.h"
#include "../core/regex.h"
#include "../core/version.h"
#include "parser.h"
#include "pbuf.h"

/* Decompressed profiles beyond this are refused (real ones are tens of MB). */
#define PPROF_MAX_BYTES ((size_t)1 << 30)
/* Inlined locations let a few bytes name many frames; these bound what a hostile file
 * can make us allocate: frames per stack, and frames over all samples per input byte
 * (real profiles have about one frame per byte of samples). */
#define PPROF_MAX_DEPTH ((size_t)1 << 20)
#define PPROF_FRAMES_PER_BYTE 16

typedef struct span {
	uint32_t off, len;
} span;

typedef struct span64 {
	uint64_t start, end;
} span64;

typedef struct vtype {
	uint32_t type, unit;
} vtype;

typedef struct mapping {
	uint64_t id, off;
	uint32_t file;
} mapping;

typedef struct func {
	uint64_t id, off;
	uint32_t name, sys, file;
} func;

typedef struct line {
	uint64_t fid;
	int64_t line;
	uint32_t fidx; /* index into fns, or UINT32_MAX: no function */
} line;

typedef struct loc {
	uint64_t id, mid, addr, off;
	uint32_t line0, nline;
	uint32_t midx;            /* index into maps, or UINT32_MAX */
	uint32_t fstart, fcount;  /* frames (root-first) in prof.frames */
	uint8_t prune;            /* 1: drop this location and all leafward of it */
	uint8_t beneath;          /* 1: keep it (its frames already trimmed), drop leafward */
} loc;

/* id -> index: a direct array when ids are small and dense (Go's), else a hash. */
typedef struct idmap {
	uint32_t *dense; /* index+1, 0 = none */
	uint64_t ndense;
	uint64_t *keys;
	uint32_t *vals;  /* index+1 */
	size_t mask;
} idmap;

typedef struct prof {
	const char *src;
	const uint8_t *buf;
	size_t len;
	span *str;
	size_t nstr, capstr;
	vtype *st;
	size_t nst, capst;
	uint32_t default_st, drop, keep;
	vtype pt;         /* period_type (0, 0: none) */
	uint64_t period;
	uint64_t duration; /* duration_nanos (0: none) */
	mapping *maps;
	size_t nmaps, capmaps;
	func *fns;
	size_t nfns, capfns;
	loc *locs;
	size_t nlocs, caplocs;
	line *lines;
	size_t nlines, caplines;
	idmap mapm, fnm, locm;
	uint32_t *frames;
	size_t nframes;
	uint32_t *lone; /* location id -> its one frame, or LONE_*: see build_lone */
	span64 *sruns;  /* byte ranges holding only samples (field 2): most of a profile */
	size_t nsruns, capsruns;
} prof;

/* lone[] values past every frame id: an id no location has, and a location that is not
 * one plain frame (inlined lines, or marked by drop_frames) */
#define LONE_NONE UINT32_MAX
#define LONE_LOC (UINT32_MAX - 1)

#define GROW(arr, cnt, capv) flame__array_reserve(arr, capv, (cnt) + 1)

static void idmap_free(idmap *m)
{
	free(m->dense);
	free(m->keys);
	free(m->vals);
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static uint32_t idmap_get(const idmap *m, uint64_t id)
{
	if (m->dense)
		return id < m->ndense ? m->dense[id] : 0;
	if (!m->keys)
		return 0;
	for (size_t i = mix64(id) & m->mask;; i = (i + 1) & m->mask) {
		if (!m->vals[i])
			return 0;
		if (m->keys[i] == id)
			return m->vals[i];
	}
}

/* Build the map over `n` ids (id of element i at ((char*)base + i*stride)); on a
 * duplicate returns its element index + 1 in *dup. */
static int idmap_build(idmap *m, const void *base, size_t n, size_t stride, uint64_t max_id,
                       size_t *dup)
{
	*dup = 0;
	if (n == 0)
		return 0;
	if (max_id < 4 * (uint64_t)n + 1024) {
		m->ndense = max_id + 1;
		if (!(m->dense = calloc(m->ndense, sizeof *m->dense)))
			return FLAME_ENOMEM;
		for (size_t i = 0; i < n; i++) {
			uint64_t id = *(const uint64_t *)((const char *)base + i * stride);
			if (m->dense[id]) {
				*dup = i + 1;
				return 0;
			}
			m->dense[id] = (uint32_t)(i + 1);
		}
		return 0;
	}
	size_t cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	m->mask = cap - 1;
	if (!(m->keys = malloc(cap * sizeof *m->keys)) || !(m->vals = calloc(cap, sizeof *m->vals)))
		return FLAME_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint64_t id = *(const uint64_t *)((const char *)base + i * stride);
		size_t j = mix64(id) & m->mask;
		while (m->vals[j] && m->keys[j] != id)
			j = (j + 1) & m->mask;
		if (m->vals[j]) {
			*dup = i + 1;
			return 0;
		}
		m->keys[j] = id;
		m->vals[j] = (uint32_t)(i + 1);
	}
	return 0;
}

static void prof_free(prof *p)
{
	free(p->str);
	free(p->st);
	free(p->maps);
	free(p->fns);
	free(p->locs);
	free(p->lines);
	free(p->frames);
	free(p->lone);
	free(p->sruns);
	idmap_free(&p->mapm);
	idmap_free(&p->fnm);
	idmap_free(&p->locm);
}


static int bad(const prof *p, uint64_t off, flame_err *err, const char *what, uint64_t idx)
{
	return flame__err(err, FLAME_EDATA, p->src, 0, off,
	                  "invalid pprof: %s %" PRIu64 " is out of range (%zu strings)", what, idx,
	                  p->nstr);
}

/* A string index field: checked against the table read in pass 1. */
static int str_idx(const prof *p, const flame__pfield *f, uint32_t *out, const char *what,
                   flame_err *err)
{
	if (f->wt != FLAME__WT_VARINT)
		return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
		                  "invalid pprof: %s has wire type %d, expected a varint", what, f->wt);
	if (f->v >= p->nstr)
		return bad(p, f->off, err, what, f->v);
	*out = (uint32_t)f->v;
	return 0;
}

static flame_str S(const prof *p, uint32_t i)
{
	return (flame_str){(const char *)p->buf + p->str[i].off, p->str[i].len};
}

static int want_wt(const prof *p, const flame__pfield *f, int wt, const char *what,
                   flame_err *err)
{
	if (f->wt == wt)
		return 0;
	return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
	                  "invalid pprof: %s has wire type %d, expected %d", what, f->wt, wt);
}

/* ---- pass 1: string_table (field 6), the concatenation check (field 9), and where the
 * samples are (the later passes walk only their ranges, or only around them) */
static int pass_strings(prof *p, flame_err *err)
{
	flame__pbuf b;
	flame__pfield f;
	int r, times = 0;
	uint64_t first_off = 0;
	flame__pbuf_init(&b, p->buf, p->len, p->src);
	while ((r = flame__pbuf_next(&b, &f, err)) > 0) {
		if (f.num == 6) {
			if ((r = want_wt(p, &f, FLAME__WT_LEN, "string_table entry", err)))
				return r;
			if (p->nstr == 0)
				first_off = f.off;
			if (p->nstr >= UINT32_MAX - 1)
				return flame__err(err, FLAME_ERANGE, p->src, 0, f.off,
				                  "invalid pprof: too many strings");
			if (GROW(p->str, p->nstr, p->capstr))
				return flame__err_nomem(err);
			p->str[p->nstr++] = (span){(uint32_t)(f.data - p->buf), (uint32_t)f.len};
		} else if (f.num == 2) {
			uint64_t end = (uint64_t)(b.p - p->buf);
			if (p->nsruns && p->sruns[p->nsruns - 1].end == f.off) {
				p->sruns[p->nsruns - 1].end = end;
			} else {
				if (GROW(p->sruns, p->nsruns, p->capsruns))
					return flame__err_nomem(err);
				p->sruns[p->nsruns++] = (span64){f.off, end};
			}
		} else if (f.num == 9 && ++times > 1) {
			return flame__err(err, FLAME_EDATA, p->src, 0, f.off,
			                  "invalid pprof: concatenated profiles detected (a second "
			                  "time_nanos)");
		}
	}
	if (r < 0)
		return r;
	if (p->nstr == 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, 0,
		                  "invalid pprof: no string_table (is this a profile.proto?)");
	if (p->str[0].len != 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, first_off,
		                  "invalid pprof: string_table[0] must be the empty string");
	return 0;
}

static int read_vtype(prof *p, const flame__pbuf *b, const flame__pfield *f, vtype *vt,
                      flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	*vt = (vtype){0, 0};
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		if (g.num == 1 && (r = str_idx(p, &g, &vt->type, "sample type name", err)))
			return r;
		if (g.num == 2 && (r = str_idx(p, &g, &vt->unit, "sample type unit", err)))
			return r;
	}
	return r;
}

static int need_varint(const prof *p, const flame__pfield *g, const char *what, flame_err *err)
{
	return want_wt(p, g, FLAME__WT_VARINT, what, err);
}

static int read_mapping(prof *p, const flame__pbuf *b, const flame__pfield *f, flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	mapping m = {.off = f->off};
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		if (g.num == 1) {
			if ((r = need_varint(p, &g, "mapping id", err)))
				return r;
			m.id = g.v;
		} else if (g.num == 5 && (r = str_idx(p, &g, &m.file, "mapping filename", err))) {
			return r;
		}
	}
	if (r < 0)
		return r;
	if (m.id == 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
		                  "invalid pprof: mapping with id 0 (ids must be nonzero)");
	if (GROW(p->maps, p->nmaps, p->capmaps))
		return flame__err_nomem(err);
	p->maps[p->nmaps++] = m;
	return 0;
}

static int read_function(prof *p, const flame__pbuf *b, const flame__pfield *f, flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	func fn = {.off = f->off};
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		switch (g.num) {
		case 1:
			if ((r = need_varint(p, &g, "function id", err)))
				return r;
			fn.id = g.v;
			break;
		case 2: r = str_idx(p, &g, &fn.name, "function name", err); break;
		case 3: r = str_idx(p, &g, &fn.sys, "function system_name", err); break;
		case 4: r = str_idx(p, &g, &fn.file, "function filename", err); break;
		}
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	if (fn.id == 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
		                  "invalid pprof: function with id 0 (ids must be nonzero)");
	if (GROW(p->fns, p->nfns, p->capfns))
		return flame__err_nomem(err);
	p->fns[p->nfns++] = fn;
	return 0;
}

static int read_line(prof *p, const flame__pbuf *b, const flame__pfield *f, flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	line ln = {.fidx = UINT32_MAX};
	if ((r = want_wt(p, f, FLAME__WT_LEN, "location line", err)))
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
		}
	}
	if (r < 0)
		return r;
	if (GROW(p->lines, p->nlines, p->caplines))
		return flame__err_nomem(err);
	p->lines[p->nlines++] = ln;
	return 0;
}

static int read_location(prof *p, const flame__pbuf *b, const flame__pfield *f, flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	loc l = {.off = f->off, .line0 = (uint32_t)p->nlines, .midx = UINT32_MAX};
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		switch (g.num) {
		case 1:
			if ((r = need_varint(p, &g, "location id", err)))
				return r;
			l.id = g.v;
			break;
		case 2:
			if ((r = need_varint(p, &g, "location mapping_id", err)))
				return r;
			l.mid = g.v;
			break;
		case 3:
			if ((r = need_varint(p, &g, "location address", err)))
				return r;
			l.addr = g.v;
			break;
		case 4: r = read_line(p, &sb, &g, err); break;
		}
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	if (l.id == 0)
		return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
		                  "invalid pprof: location with id 0 (ids must be nonzero)");
	if (p->nlines - l.line0 > UINT32_MAX / 2)
		return flame__err(err, FLAME_ERANGE, p->src, 0, f->off, "invalid pprof: too many lines");
	l.nline = (uint32_t)(p->nlines - l.line0);
	if (GROW(p->locs, p->nlocs, p->caplocs))
		return flame__err_nomem(err);
	p->locs[p->nlocs++] = l;
	return 0;
}

/* A varint at *pp, below `end`: nonzero when it is cut or too long. */
static inline int vget(const uint8_t **pp, const uint8_t *end, uint64_t *v)
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

/* Skip a field of wire type `wt` at *q; nonzero when it is cut or of a refused type. */
static inline int skip_field(const uint8_t **q, const uint8_t *end, unsigned wt)
{
	uint64_t x;
	switch (wt) {
	case FLAME__WT_VARINT:
		return vget(q, end, &x);
	case FLAME__WT_I64:
	case FLAME__WT_I32: {
		size_t n = wt == FLAME__WT_I64 ? 8 : 4;
		if ((size_t)(end - *q) < n)
			return 1;
		*q += n;
		return 0;
	}
	case FLAME__WT_LEN:
		if (vget(q, end, &x) || x > (uint64_t)(end - *q))
			return 1;
		*q += x;
		return 0;
	default:
		return 1;
	}
}

/* A field key at *q: nonzero when cut, too long, or an invalid field number. */
static inline int get_key(const uint8_t **q, const uint8_t *end, uint64_t *num, unsigned *wt)
{
	uint64_t key;
	if (vget(q, end, &key))
		return 1;
	*num = key >> 3;
	*wt = (unsigned)(key & 7);
	return *num == 0 || *num > 0x1fffffff;
}

/* Fast readers of the messages a profile has by the million (functions, locations):
 * 0 when read, < 0 out of memory, 1 when the general reader must look (it words every
 * error; nothing has been kept). */
static int function_fast(prof *p, const flame__pfield *f, flame_err *err)
{
	const uint8_t *q = f->data, *end = q + f->len;
	func fn = {.off = f->off};
	while (q < end) {
		uint64_t num, x;
		unsigned wt;
		if (get_key(&q, end, &num, &wt))
			return 1;
		if (num < 1 || num > 4) {
			if (skip_field(&q, end, wt))
				return 1;
			continue;
		}
		if (wt != FLAME__WT_VARINT || vget(&q, end, &x) || (num > 1 && x >= p->nstr))
			return 1;
		if (num == 1)
			fn.id = x;
		else
			*(num == 2 ? &fn.name : num == 3 ? &fn.sys : &fn.file) = (uint32_t)x;
	}
	if (fn.id == 0)
		return 1;
	if (GROW(p->fns, p->nfns, p->capfns))
		return flame__err_nomem(err);
	p->fns[p->nfns++] = fn;
	return 0;
}

static int location_fast(prof *p, const flame__pfield *f, flame_err *err)
{
	const uint8_t *q = f->data, *end = q + f->len;
	loc l = {.off = f->off, .line0 = (uint32_t)p->nlines, .midx = UINT32_MAX};
	size_t nl0 = p->nlines;
	while (q < end) {
		uint64_t num, x;
		unsigned wt;
		if (get_key(&q, end, &num, &wt))
			goto general;
		if (num >= 1 && num <= 3) {
			if (wt != FLAME__WT_VARINT || vget(&q, end, &x))
				goto general;
			*(num == 1 ? &l.id : num == 2 ? &l.mid : &l.addr) = x;
		} else if (num == 4) {
			if (wt != FLAME__WT_LEN || vget(&q, end, &x) || x > (uint64_t)(end - q))
				goto general;
			const uint8_t *le = q + x;
			line ln = {.fidx = UINT32_MAX};
			while (q < le) {
				if (get_key(&q, le, &num, &wt))
					goto general;
				if (num == 1 || num == 2) {
					if (wt != FLAME__WT_VARINT || vget(&q, le, &x))
						goto general;
					if (num == 1)
						ln.fid = x;
					else
						ln.line = (int64_t)x;
				} else if (skip_field(&q, le, wt)) {
					goto general;
				}
			}
			if (GROW(p->lines, p->nlines, p->caplines))
				return flame__err_nomem(err);
			p->lines[p->nlines++] = ln;
		} else if (skip_field(&q, end, wt)) {
			goto general;
		}
	}
	if (l.id == 0 || p->nlines - l.line0 > UINT32_MAX / 2)
		goto general;
	l.nline = (uint32_t)(p->nlines - l.line0);
	if (GROW(p->locs, p->nlocs, p->caplocs))
		return flame__err_nomem(err);
	p->locs[p->nlocs++] = l;
	return 0;
general:
	p->nlines = nl0;
	return 1;
}

/* ---- pass 2: everything but the samples */
static int pass_header(prof *p, flame_err *err)
{
	flame__pbuf b;
	flame__pfield f;
	int r;
	size_t run = 0;
	flame__pbuf_init(&b, p->buf, p->len, p->src);
	while ((r = flame__pbuf_next(&b, &f, err)) > 0) {
		switch (f.num) {
		case 2: /* the first of a run of samples: over the run */
			if (run < p->nsruns && p->sruns[run].start == f.off)
				b.p = p->buf + p->sruns[run++].end;
			break;
		case 1: {
			vtype vt;
			if ((r = want_wt(p, &f, FLAME__WT_LEN, "sample_type", err)) ||
			    (r = read_vtype(p, &b, &f, &vt, err)))
				return r;
			if (GROW(p->st, p->nst, p->capst))
				return flame__err_nomem(err);
			p->st[p->nst++] = vt;
			break;
		}
		case 3:
			if ((r = want_wt(p, &f, FLAME__WT_LEN, "mapping", err)) ||
			    (r = read_mapping(p, &b, &f, err)))
				return r;
			break;
		case 4:
			if ((r = want_wt(p, &f, FLAME__WT_LEN, "location", err)) ||
			    ((r = location_fast(p, &f, err)) > 0 && (r = read_location(p, &b, &f, err))))
				return r;
			break;
		case 5:
			if ((r = want_wt(p, &f, FLAME__WT_LEN, "function", err)) ||
			    ((r = function_fast(p, &f, err)) > 0 && (r = read_function(p, &b, &f, err))))
				return r;
			break;
		case 7: r = str_idx(p, &f, &p->drop, "drop_frames", err); break;
		case 8: r = str_idx(p, &f, &p->keep, "keep_frames", err); break;
		case 13: {
			flame__prep rep;
			uint64_t v;
			if ((r = flame__prep_start(&rep, &b, &f, err)))
				return r;
			while ((r = flame__prep_next(&rep, &b, &v, err)) > 0)
				if (v >= p->nstr)
					return bad(p, f.off, err, "comment string index", v);
			break;
		}
		case 14: r = str_idx(p, &f, &p->default_st, "default_sample_type", err); break;
		case 11:
			r = want_wt(p, &f, FLAME__WT_LEN, "period_type", err);
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

/* Index of the sample type to use: --sample-type NAME (or a number, as pprof's
 * -sample_index), else default_sample_type, else the last. */
static int pick_type(const prof *p, const char *want, size_t *idx, flame_err *err)
{
	if (want) {
		for (size_t i = 0; i < p->nst; i++) {
			flame_str s = S(p, p->st[i].type);
			if (s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0) {
				*idx = i;
				return 0;
			}
		}
		char *end;
		unsigned long long n = strtoull(want, &end, 10);
		if (*want >= '0' && *want <= '9' && !*end && n < p->nst) {
			*idx = (size_t)n;
			return 0;
		}
		char have[256];
		size_t hl = 0;
		have[0] = '\0';
		for (size_t i = 0; i < p->nst && hl < sizeof have - 1; i++) {
			flame_str s = S(p, p->st[i].type);
			int w = snprintf(have + hl, sizeof have - hl, "%s%.*s", i ? ", " : "", (int)s.len,
			                 s.ptr);
			hl = w < 0 ? hl : hl + (size_t)w;
		}
		return flame__err(err, FLAME_EUSAGE, p->src, 0, FLAME__NO_OFFSET,
		                  "no sample type '%s' (the profile has: %s)", want,
		                  p->nst ? have : "none");
	}
	*idx = p->nst - 1;
	if (p->default_st) {
		for (size_t i = 0; i < p->nst; i++)
			if (p->st[i].type == p->default_st ||
			    (S(p, p->st[i].type).len == S(p, p->default_st).len &&
			     memcmp(S(p, p->st[i].type).ptr, S(p, p->default_st).ptr,
			            S(p, p->default_st).len) == 0)) {
				*idx = i;
				break;
			}
	}
	return 0;
}

/* Resolve ids: mapping and function of every location, duplicates. */
static int resolve(prof *p, flame_err *err)
{
	size_t dup = 0;
	uint64_t mx;
#define BUILD(map, arr, n, what)                                                              \
	do {                                                                                      \
		mx = 0;                                                                               \
		for (size_t i = 0; i < (n); i++)                                                      \
			if ((arr)[i].id > mx)                                                             \
				mx = (arr)[i].id;                                                             \
		if ((n) && idmap_build(&(map), &(arr)[0].id, (n), sizeof *(arr), mx, &dup))          \
			return flame__err_nomem(err);                                                     \
		if ((n) && dup)                                                                       \
			return flame__err(err, FLAME_EDATA, p->src, 0, (arr)[dup - 1].off,                \
			                  "invalid pprof: %s id %" PRIu64 " is defined twice", what,         \
			                  (arr)[dup - 1].id);                                             \
	} while (0)
	BUILD(p->mapm, p->maps, p->nmaps, "mapping");
	BUILD(p->fnm, p->fns, p->nfns, "function");
	BUILD(p->locm, p->locs, p->nlocs, "location");
#undef BUILD
	for (size_t i = 0; i < p->nlocs; i++) {
		loc *l = &p->locs[i];
		if (l->mid) {
			uint32_t m = idmap_get(&p->mapm, l->mid);
			if (!m)
				return flame__err(err, FLAME_EDATA, p->src, 0, l->off,
				                  "invalid pprof: location %" PRIu64 " refers to mapping id %" PRIu64
				                  ", which is not defined", l->id, l->mid);
			l->midx = m - 1;
		}
		for (uint32_t k = 0; k < l->nline; k++) {
			line *ln = &p->lines[l->line0 + k];
			if (!ln->fid)
				continue;
			uint32_t fi = idmap_get(&p->fnm, ln->fid);
			if (!fi)
				return flame__err(err, FLAME_EDATA, p->src, 0, l->off,
				                  "invalid pprof: location %" PRIu64 " refers to function id %" PRIu64
				                  ", which is not defined", l->id, ln->fid);
			ln->fidx = fi - 1;
		}
	}
	return 0;
}

static int load(prof *p, flame_err *err)
{
	int r;
	if ((r = pass_strings(p, err)) || (r = pass_header(p, err)) || (r = resolve(p, err)))
		return r;
	return 0;
}

/* ---- frame names */

typedef struct namebuf {
	char *p;
	size_t len, cap;
} namebuf;

static int nb_put(namebuf *b, const char *s, size_t n)
{
	if (flame__array_reserve_min(b->p, b->cap, b->len + n + 1, 256))
		return FLAME_ENOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

/* `[basename]`, `<unknown>`, or with addresses `basename+0xADDR` / `0xADDR`. */
static int unknown_name(const prof *p, const loc *l, unsigned flags, namebuf *b)
{
	flame_str file = {"", 0};
	if (l->midx != UINT32_MAX)
		file = S(p, p->maps[l->midx].file);
	const char *base = file.ptr;
	size_t bl = file.len;
	const char *slash = bl ? memrchr(base, '/', bl) : NULL;
	if (slash) {
		bl -= (size_t)(slash + 1 - base);
		base = slash + 1;
	}
	char num[32];
	int nl = snprintf(num, sizeof num, "0x%" PRIx64, l->addr);
	if (flags & FLAME_PPROF_ADDRESSES) {
		if (bl && (nb_put(b, base, bl) || nb_put(b, "+", 1)))
			return FLAME_ENOMEM;
		return nb_put(b, num, (size_t)nl);
	}
	if (!bl)
		return nb_put(b, "<unknown>", 9);
	if (nb_put(b, "[", 1) || nb_put(b, base, bl) || nb_put(b, "]", 1))
		return FLAME_ENOMEM;
	return 0;
}

/* Name the frame of line `ln` (NULL: a location without lines) and intern it. */
static int frame_id(flame__sink *t, const prof *p, const loc *l, const line *ln, int inlined,
                    unsigned flags, namebuf *b, uint32_t *id)
{
	b->len = 0;
	const func *fn = ln && ln->fidx != UINT32_MAX ? &p->fns[ln->fidx] : NULL;
	flame_str name = {"", 0};
	if (fn) {
		name = S(p, fn->name);
		if ((flags & FLAME_PPROF_SYSTEM_NAMES) && fn->sys)
			name = S(p, fn->sys);
	}
	if (name.len) {
		if (nb_put(b, name.ptr, name.len))
			return FLAME_ENOMEM;
		if ((flags & FLAME_PPROF_LINES) && fn->file) {
			flame_str file = S(p, fn->file);
			char num[32];
			int n = snprintf(num, sizeof num, ":%" PRId64, ln->line);
			if (nb_put(b, " ", 1) || nb_put(b, file.ptr, file.len) || nb_put(b, num, (size_t)n))
				return FLAME_ENOMEM;
		}
	} else if (unknown_name(p, l, flags, b)) {
		return FLAME_ENOMEM;
	}
	if (inlined && (flags & FLAME_PPROF_INLINE_ANNOTATE) && nb_put(b, "_[i]", 4))
		return FLAME_ENOMEM;
	/* folded text cannot hold these: ';' separates frames, newline ends a stack */
	for (size_t i = 0; i < b->len; i++) {
		if (b->p[i] == ';')
			b->p[i] = ':';
		else if (b->p[i] == '\n' || b->p[i] == '\r')
			b->p[i] = ' ';
	}
	*id = flame__sink_intern(t, b->p, b->len);
	return *id == FLAME__ID_NONE ? FLAME_ENOMEM : 0;
}

/* pprof's simplified name for drop/keep matching: no leading '.', cut at the first
 * '(' that does not start "(anonymous namespace)" or "operator()". */
static flame_str simplify(flame_str s)
{
	if (s.len && s.ptr[0] == '.') {
		s.ptr++;
		s.len--;
	}
	static const char anon[] = "(anonymous namespace)", op[] = "operator()";
	for (size_t i = 0; i < s.len; i++) {
		if (s.len - i >= sizeof anon - 1 && memcmp(s.ptr + i, anon, sizeof anon - 1) == 0) {
			i += sizeof anon - 2;
			continue;
		}
		if (s.len - i >= sizeof op - 1 && memcmp(s.ptr + i, op, sizeof op - 1) == 0) {
			i += sizeof op - 2;
			continue;
		}
		if (s.ptr[i] == '(') {
			s.len = i;
			break;
		}
	}
	return s;
}

/* Profile.Prune: per location, from line[last] down to line[0], the first line whose
 * simplified name matches drop and not keep is the cut. */
static int mark_prune(prof *p, flame_err *err)
{
	if (!p->drop)
		return 0;
	flame__regex *drop = NULL, *keep = NULL;
	flame_str ds = S(p, p->drop), ks = S(p, p->keep);
	int r = flame__regex_compile(&drop, ds.ptr, ds.len, 1, "drop_frames", err);
	if (!r && p->keep)
		r = flame__regex_compile(&keep, ks.ptr, ks.len, 1, "keep_frames", err);
	if (r) {
		flame__regex_free(drop);
		/* the profile carries the bad pattern: that is bad data, not usage */
		return flame__err_recode(err, FLAME_EDATA, p->src);
	}
	for (size_t i = 0; i < p->nlocs; i++) {
		loc *l = &p->locs[i];
		long k = (long)l->nline - 1;
		for (; k >= 0; k--) {
			const line *ln = &p->lines[l->line0 + (size_t)k];
			if (ln->fidx == UINT32_MAX)
				continue;
			flame_str name = S(p, p->fns[ln->fidx].name);
			if (!name.len)
				continue;
			flame_str sn = simplify(name);
			if (flame__regex_match(drop, sn.ptr, sn.len) &&
			    !(keep && flame__regex_match(keep, sn.ptr, sn.len)))
				break;
		}
		if (k < 0)
			continue;
		if (k == (long)l->nline - 1) {
			l->prune = 1;
		} else {
			l->beneath = 1;
			l->nline = l->nline - (uint32_t)k - 1; /* keep lines[k+1:] */
			l->line0 += (uint32_t)k + 1;
		}
	}
	flame__regex_free(drop);
	flame__regex_free(keep);
	return 0;
}

/* The name of a frame when it is a string of the table as it stands (the usual case),
 * so it can be hashed ahead; {NULL, 0} when frame_id has to build it. */
static flame_str plain_name(const prof *p, const line *ln, int inlined, unsigned flags)
{
	flame_str none = {NULL, 0};
	const func *fn = ln && ln->fidx != UINT32_MAX ? &p->fns[ln->fidx] : NULL;
	if (!fn || (flags & FLAME_PPROF_LINES) || (inlined && (flags & FLAME_PPROF_INLINE_ANNOTATE)))
		return none;
	flame_str name = S(p, fn->name);
	if ((flags & FLAME_PPROF_SYSTEM_NAMES) && fn->sys)
		name = S(p, fn->sys);
	for (size_t i = 0; i < name.len; i++)
		if (name.ptr[i] == ';' || name.ptr[i] == '\n' || name.ptr[i] == '\r')
			return none;
	return name.len ? name : none;
}

/* A position in the frames of all locations: location i, its j-th frame root-first. */
typedef struct fpos {
	size_t i;
	uint32_t j;
} fpos;

static const line *fpos_line(const prof *p, const fpos *c, int *inlined)
{
	const loc *l = &p->locs[c->i];
	*inlined = 0;
	if (!l->nline)
		return NULL;
	uint32_t k = l->nline - 1 - c->j; /* line[last] is the caller */
	*inlined = k + 1 < l->nline;
	return &p->lines[l->line0 + k];
}

/* Advance; 1 when that finished location i. */
static int fpos_step(const prof *p, fpos *c)
{
	const loc *l = &p->locs[c->i];
	if (++c->j < (l->nline ? l->nline : 1))
		return 0;
	c->i++;
	c->j = 0;
	return 1;
}

/* Name and intern every location's frames, root-first (line[last] .. line[0]). Plain
 * names are hashed a few frames ahead and their table slot fetched, so interning a
 * million distinct names does not wait on memory for each. */
static int name_frames(flame__sink *t, prof *p, unsigned flags, flame_err *err)
{
	size_t total = 0;
	for (size_t i = 0; i < p->nlocs; i++)
		total += p->locs[i].nline ? p->locs[i].nline : 1;
	if (!(p->frames = malloc((total ? total : 1) * sizeof *p->frames)))
		return flame__err_nomem(err);
	enum { AHEAD = 8 };
	struct {
		flame_str s;
		uint64_t h;
	} ring[AHEAD];
	flame__intern *in = t->names;
	namebuf b = {0};
	int r = 0;
	fpos a = {0, 0}, c = {0, 0};
	for (size_t g = 0; g < total + AHEAD && !r; g++) {
		if (g >= AHEAD) { /* frame k = g - AHEAD, at position c */
			size_t k = g - AHEAD;
			loc *l = &p->locs[c.i];
			if (c.j == 0)
				l->fstart = (uint32_t)p->nframes;
			uint32_t id = FLAME__ID_NONE;
			if (ring[k % AHEAD].s.ptr) {
				id = flame__intern_put_hashed(in, ring[k % AHEAD].s.ptr, ring[k % AHEAD].s.len,
				                              ring[k % AHEAD].h);
				r = id == FLAME__ID_NONE ? FLAME_ENOMEM : 0;
			} else {
				int inl;
				const line *ln = fpos_line(p, &c, &inl);
				r = frame_id(t, p, l, ln, inl, flags, &b, &id);
			}
			p->frames[p->nframes++] = id;
			if (fpos_step(p, &c))
				l->fcount = (uint32_t)p->nframes - l->fstart;
		}
		if (g < total) { /* look ahead: frame g, at position a */
			int inl;
			const line *ln = fpos_line(p, &a, &inl);
			flame_str s = plain_name(p, ln, inl, flags);
			ring[g % AHEAD].s = s;
			if (s.ptr) {
				ring[g % AHEAD].h = flame__hash_bytes(s.ptr, s.len);
				if (in->slots)
					flame__prefetch(&in->slots[(uint32_t)ring[g % AHEAD].h & in->mask]);
			}
			fpos_step(p, &a);
		}
	}
	free(b.p);
	return r ? flame__err_nomem(err) : 0;
}

/* With dense location ids (Go's), samples resolve each id with one lookup in lone[]:
 * the frame of a location that is exactly one frame, else LONE_LOC or LONE_NONE. */
static int build_lone(prof *p, flame_err *err)
{
	if (!p->locm.dense)
		return 0;
	if (!(p->lone = malloc(p->locm.ndense * sizeof *p->lone)))
		return flame__err_nomem(err);
	for (uint64_t id = 0; id < p->locm.ndense; id++) {
		uint32_t k = p->locm.dense[id];
		const loc *l = k ? &p->locs[k - 1] : NULL;
		p->lone[id] = !l ? LONE_NONE
		              : l->fcount == 1 && !l->prune && !l->beneath && p->frames[l->fstart] < LONE_LOC
		                  ? p->frames[l->fstart]
		                  : LONE_LOC;
	}
	return 0;
}

/* ---- labels: --tag, --tag-ignore, --group-by */

typedef struct tagf {
	const char *key;
	size_t klen;        /* 0: any key (regexes then see "key:value") */
	int numeric;
	int has_lo, has_hi;
	int64_t lo, hi;
	flame__regex *re;
} tagf;

static int parse_i64(const char *s, size_t n, int64_t *v)
{
	if (n == 0 || n > 20)
		return -1;
	char tmp[24];
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	char *end;
	errno = 0;
	long long x = strtoll(tmp, &end, 10);
	if (*end || errno || !((tmp[0] >= '0' && tmp[0] <= '9') || tmp[0] == '-'))
		return -1;
	*v = x;
	return 0;
}

static int tagf_compile(tagf *f, const char *spec, const char *what, flame_err *err)
{
	memset(f, 0, sizeof *f);
	const char *eq = strchr(spec, '=');
	const char *val = spec;
	if (eq) {
		f->key = spec;
		f->klen = (size_t)(eq - spec);
		val = eq + 1;
	}
	/* a range: N, N:, :N or N:M (integers in the label's own unit) */
	const char *colon = strchr(val, ':');
	size_t vl = strlen(val);
	int64_t a = 0, b = 0;
	if (!colon && parse_i64(val, vl, &a) == 0) {
		f->numeric = f->has_lo = f->has_hi = 1;
		f->lo = f->hi = a;
		return 0;
	}
	if (colon && !strchr(colon + 1, ':')) {
		size_t al = (size_t)(colon - val), bl = vl - al - 1;
		int oka = al == 0 || parse_i64(val, al, &a) == 0;
		int okb = bl == 0 || parse_i64(colon + 1, bl, &b) == 0;
		if (oka && okb && (al || bl)) {
			f->numeric = 1;
			if ((f->has_lo = al != 0))
				f->lo = a;
			if ((f->has_hi = bl != 0))
				f->hi = b;
			return 0;
		}
	}
	return flame__regex_compile(&f->re, val, vl, 0, what, err);
}

/* Does sample label set `labels` satisfy `f`? */
typedef struct label {
	uint32_t key, str, unit;
	int64_t num;
	int is_num;
} label;

static int tagf_match(const prof *p, const tagf *f, const label *labels, size_t n, namebuf *b)
{
	for (size_t i = 0; i < n; i++) {
		const label *lb = &labels[i];
		flame_str k = S(p, lb->key);
		if (f->klen && (k.len != f->klen || memcmp(k.ptr, f->key, k.len) != 0))
			continue;
		if (f->numeric) {
			if (lb->is_num && (!f->has_lo || lb->num >= f->lo) && (!f->has_hi || lb->num <= f->hi))
				return 1;
			continue;
		}
		if (lb->is_num)
			continue;
		flame_str v = S(p, lb->str);
		if (f->klen) {
			if (flame__regex_match(f->re, v.ptr, v.len))
				return 1;
			continue;
		}
		/* as pprof: without a key, match "key:value" */
		b->len = 0;
		if (nb_put(b, k.ptr, k.len) || nb_put(b, ":", 1) || nb_put(b, v.ptr, v.len))
			return 0;
		if (flame__regex_match(f->re, b->p, b->len))
			return 1;
	}
	return 0;
}

static int decode_labels(const prof *p, const flame__pbuf *b, const flame__pfield *f,
                         label *lb, flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	memset(lb, 0, sizeof *lb);
	if ((r = want_wt(p, f, FLAME__WT_LEN, "sample label", err)))
		return r;
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		switch (g.num) {
		case 1: r = str_idx(p, &g, &lb->key, "label key", err); break;
		case 2: r = str_idx(p, &g, &lb->str, "label str", err); break;
		case 3:
			if (!(r = need_varint(p, &g, "label num", err))) {
				lb->num = (int64_t)g.v;
				lb->is_num = 1;
			}
			break;
		case 4: r = str_idx(p, &g, &lb->unit, "label num_unit", err); break;
		}
		if (r < 0)
			return r;
	}
	if (lb->str)
		lb->is_num = 0;
	return r;
}

/* The --group-by root frame: the key's values joined by ',' (as pprof -tagroot). */
static int group_frame(flame__sink *t, const prof *p, const char *key, const label *labels,
                       size_t n, namebuf *b, uint32_t *id)
{
	size_t kl = strlen(key);
	int any = 0;
	b->len = 0;
	for (size_t i = 0; i < n; i++) {
		flame_str k = S(p, labels[i].key);
		if (k.len != kl || memcmp(k.ptr, key, kl) != 0)
			continue;
		if (any++ && nb_put(b, ",", 1))
			return FLAME_ENOMEM;
		if (labels[i].is_num) {
			char num[32];
			int w = snprintf(num, sizeof num, "%" PRId64, labels[i].num);
			flame_str u = S(p, labels[i].unit);
			if (nb_put(b, num, (size_t)w) || (u.len && (nb_put(b, " ", 1) || nb_put(b, u.ptr, u.len))))
				return FLAME_ENOMEM;
		} else {
			flame_str v = S(p, labels[i].str);
			if (nb_put(b, v.ptr, v.len))
				return FLAME_ENOMEM;
		}
	}
	if (!any && (nb_put(b, "<no ", 4) || nb_put(b, key, kl) || nb_put(b, ">", 1)))
		return FLAME_ENOMEM;
	for (size_t i = 0; i < b->len; i++)
		if (b->p[i] == ';' || b->p[i] == '\n' || b->p[i] == '\r')
			b->p[i] = b->p[i] == ';' ? ':' : ' ';
	*id = flame__sink_intern(t, b->p, b->len);
	return *id == FLAME__ID_NONE ? FLAME_ENOMEM : 0;
}

/* ---- pass 3: samples */

/* One step of the drop_frames cut over a sample's locations, leaf first (`l` NULL: a
 * location taken as a user frame): the cut is at the root-most pruned location below
 * some user frame. 1 when location i decides it (*lo: the first location kept). */
static inline int prune_cut(const loc *l, size_t i, int *found_user, size_t *lo)
{
	if (!l || (!l->prune && !l->beneath)) {
		*found_user = 1;
		return 0;
	}
	if (!*found_user)
		return 0;
	*lo = l->prune ? i + 1 : i;
	return 1;
}

typedef struct sampler {
	flame_tree *t;
	flame__sink k; /* where the stacks go (t's) */
	prof *p;
	const flame_parse_opts *o;
	size_t vidx;
	tagf *focus, *ignore;
	size_t nfocus, nignore;
	tagf *side[2];  /* --before-tag / --after-tag: which columns a sample counts in */
	size_t nside[2];
	int split;      /* either is given: the tree is differential */
	uint64_t *locids;
	size_t nloc, caploc;
	label *labels;
	size_t nlab, caplab;
	uint32_t *ids;
	size_t capids;
	namebuf nb;
	uint64_t frame_budget;
	flame__stacks neg; /* magnitudes of negative values, subtracted at the end */
	struct pending *pend; /* PIPE decoded samples not yet in the table */
	size_t npend, head;
} sampler;

/* The fast path keeps a few decoded samples before adding them, so the table slot each
 * one lands in (a cache miss on big tables) is loaded while the next ones decode. */
enum { PIPE = 3 };
struct pending {
	uint32_t *ids;
	size_t depth, cap;
	int64_t v;
	uint64_t hash, off;
};

static int one_sample(sampler *s, const flame__pbuf *b, const flame__pfield *f, flame_err *err)
{
	prof *p = s->p;
	flame__pbuf sb;
	flame__pfield g;
	int r;
	int want_labels = s->nfocus || s->nignore || s->split || s->o->group_by;
	size_t nvals = 0;
	int64_t v = 0;
	s->nloc = s->nlab = 0;
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		if (g.num == 1 || g.num == 2) {
			flame__prep rep;
			uint64_t x;
			if ((r = flame__prep_start(&rep, &sb, &g, err)))
				return r;
			while ((r = flame__prep_next(&rep, &sb, &x, err)) > 0) {
				if (g.num == 2) {
					if (nvals++ == s->vidx)
						v = (int64_t)x;
					continue;
				}
				if (s->nloc >= PPROF_MAX_DEPTH) /* every location is at least one frame */
					return flame__err(err, FLAME_ERANGE, p->src, 0, f->off,
					                  "invalid pprof: a stack of more than %zu frames",
					                  PPROF_MAX_DEPTH);
				if (GROW(s->locids, s->nloc, s->caploc))
					return flame__err_nomem(err);
				s->locids[s->nloc++] = x;
			}
			if (r < 0)
				return r;
		} else if (g.num == 3 && want_labels) {
			if (GROW(s->labels, s->nlab, s->caplab))
				return flame__err_nomem(err);
			if ((r = decode_labels(p, &sb, &g, &s->labels[s->nlab++], err)))
				return r;
		}
	}
	if (r < 0)
		return r;
	if (nvals != p->nst)
		return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
		                  "invalid pprof: sample has %zu values, expected one per sample type "
		                  "(%zu)", nvals, p->nst);
	if (v == 0 || s->nloc == 0)
		return 0;
	for (size_t i = 0; i < s->nfocus; i++)
		if (!tagf_match(p, &s->focus[i], s->labels, s->nlab, &s->nb))
			return 0;
	for (size_t i = 0; i < s->nignore; i++)
		if (tagf_match(p, &s->ignore[i], s->labels, s->nlab, &s->nb))
			return 0;
	/* the columns the sample counts in: column 0 alone without --before/--after-tag */
	uint64_t in[2] = {1, 0};
	for (int c = 0; s->split && c < 2; c++) {
		in[c] = 1;
		for (size_t i = 0; i < s->nside[c] && in[c]; i++)
			in[c] = (uint64_t)tagf_match(p, &s->side[c][i], s->labels, s->nlab, &s->nb);
	}
	if (!in[0] && !in[1])
		return 0;
	/* locations, leaf first: resolve, find the prune cut, count frames */
	size_t lo = 0, depth = 0;
	int found_user = 0;
	for (size_t i = s->nloc; i-- > 0;) {
		uint32_t li = idmap_get(&p->locm, s->locids[i]);
		if (!li)
			return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
			                  "invalid pprof: sample refers to location id %" PRIu64
			                  ", which is not defined", s->locids[i]);
		s->locids[i] = li - 1; /* reuse the slot for the index */
	}
	for (size_t i = s->nloc; i-- > 0;)
		if (prune_cut(&p->locs[s->locids[i]], i, &found_user, &lo))
			break;
	for (size_t i = lo; i < s->nloc; i++)
		depth += p->locs[s->locids[i]].fcount;
	if (depth == 0)
		return 0;
	depth += s->o->group_by != NULL;
	if (depth > PPROF_MAX_DEPTH)
		return flame__err(err, FLAME_ERANGE, p->src, 0, f->off,
		                  "invalid pprof: a stack of more than %zu frames", PPROF_MAX_DEPTH);
	if (depth > s->frame_budget)
		return flame__err(err, FLAME_ERANGE, p->src, 0, f->off,
		                  "invalid pprof: the samples expand to more than %d frames per byte "
		                  "of input", PPROF_FRAMES_PER_BYTE);
	s->frame_budget -= depth;
	if (flame__array_reserve_min(s->ids, s->capids, depth, 256))
		return flame__err_nomem(err);
	size_t d = 0;
	if (s->o->group_by &&
	    group_frame(&s->k, p, s->o->group_by, s->labels, s->nlab, &s->nb, &s->ids[d++]))
		return flame__err_nomem(err);
	for (size_t i = s->nloc; i-- > lo;) {
		const loc *l = &p->locs[s->locids[i]];
		memcpy(s->ids + d, p->frames + l->fstart, l->fcount * sizeof *s->ids);
		d += l->fcount;
	}
	/* positive values go straight to the tree; negative ones (diff profiles) are
	 * subtracted once all are read */
	uint64_t mag = v > 0 ? (uint64_t)v : (uint64_t)0 - (uint64_t)v;
	if (v > 0)
		r = flame__sink_add(&s->k, s->ids, d, mag * in[0], mag * in[1], err);
	else if ((r = flame__stacks_add(&s->neg, s->ids, d, mag * in[0], mag * in[1])) ==
	         FLAME_ENOMEM)
		r = flame__err_nomem(err);
	if (r == FLAME_ERANGE)
		return flame__err(err, FLAME_ERANGE, p->src, 0, f->off,
		                  "invalid pprof: sample values overflow 64 bits");
	return r;
}

/* A sample's location reference as the fast path keeps it: a frame id, or
 * LOC_REF | index of a location to expand (or to check for pruning). */
#define LOC_REF ((uint64_t)1 << 32)

static inline int add_loc(const prof *p, uint64_t id, uint64_t *out, size_t *depth)
{
	uint32_t u;
	if (p->lone) {
		u = id < p->locm.ndense ? p->lone[id] : LONE_NONE;
		if (u < LONE_LOC) {
			*out = u;
			(*depth)++;
			return 0;
		}
		if (u == LONE_NONE)
			return -1;
		u = p->locm.dense[id] - 1;
	} else {
		uint32_t k = idmap_get(&p->locm, id);
		if (!k)
			return -1;
		u = k - 1;
	}
	*out = LOC_REF | u;
	*depth += p->locs[u].fcount;
	return 0;
}

/* Add the oldest pending sample to its table. */
static int add_oldest(sampler *s, flame_err *err)
{
	struct pending *pd = &s->pend[s->head];
	s->head = (s->head + 1) % PIPE;
	s->npend--;
	int rc = pd->v > 0 ? flame__sink_add_hashed(&s->k, pd->ids, pd->depth, pd->hash,
	                                            (uint64_t)pd->v, 0, err)
	                   : flame__stacks_add_hashed(&s->neg, pd->ids, pd->depth, pd->hash,
	                                              (uint64_t)0 - (uint64_t)pd->v, 0);
	if (pd->v <= 0 && rc == FLAME_ENOMEM)
		rc = flame__err_nomem(err);
	if (rc == FLAME_ERANGE)
		return flame__err(err, FLAME_ERANGE, s->p->src, 0, pd->off,
		                  "invalid pprof: sample values overflow 64 bits");
	return rc;
}

static int add_pending(sampler *s, flame_err *err)
{
	int rc = 0;
	while (s->npend && !rc)
		rc = add_oldest(s, err);
	return rc;
}

/* The common sample (no label filters, no --group-by, well formed) decoded in one
 * walk: each location id resolved as it is read. Returns 0 when done, < 0 on an error
 * of its own, 1 when the sample needs one_sample (which also words every error). */
static int sample_fast(sampler *s, const flame__pfield *f, flame_err *err)
{
	prof *p = s->p;
	int rc;
	const uint8_t *q = f->data, *end = q + f->len;
	size_t nvals = 0, nloc = 0, depth = 0;
	int64_t v = 0;
	int missing = 0;
	while (q < end) {
		uint64_t key, x;
		if (vget(&q, end, &key))
			return 1;
		unsigned wt = (unsigned)(key & 7);
		uint64_t num = key >> 3;
		if (num == 1 || num == 2) {
			/* a packed run [q, e), or one unpacked value */
			const uint8_t *e = end;
			int one = wt == FLAME__WT_VARINT;
			if (wt == FLAME__WT_LEN) {
				uint64_t len;
				if (vget(&q, end, &len) || len > (uint64_t)(end - q))
					return 1;
				e = q + len;
			} else if (!one) {
				return 1;
			}
			if (num == 2) {
				while (q < e) {
					if (vget(&q, e, &x))
						return 1;
					if (nvals++ == s->vidx)
						v = (int64_t)x;
					if (one)
						break;
				}
				continue;
			}
			size_t most = nloc + (one ? 1 : (size_t)(e - q));
			if (most > PPROF_MAX_DEPTH)
				return 1;
			if (most > s->caploc && flame__array_reserve(s->locids, s->caploc, most))
				return flame__err_nomem(err);
			while (q < e) {
				if (vget(&q, e, &x))
					return 1;
				if (add_loc(p, x, &s->locids[nloc], &depth))
					missing = 1;
				nloc++;
				if (one)
					break;
			}
			continue;
		}
		switch (wt) {
		case FLAME__WT_VARINT:
			if (vget(&q, end, &x))
				return 1;
			break;
		case FLAME__WT_I64:
		case FLAME__WT_I32: {
			size_t n = wt == FLAME__WT_I64 ? 8 : 4;
			if ((size_t)(end - q) < n)
				return 1;
			q += n;
			break;
		}
		case FLAME__WT_LEN:
			if (vget(&q, end, &x) || x > (uint64_t)(end - q))
				return 1;
			q += x;
			break;
		default:
			return 1;
		}
		if (num == 0 || num > 0x1fffffff)
			return 1;
	}
	if (nvals != p->nst)
		return 1;
	if (v == 0 || nloc == 0)
		return 0;
	if (missing)
		return 1;
	/* drop_frames: where prune_cut says */
	size_t lo = 0;
	if (p->drop) {
		int found_user = 0;
		for (size_t i = nloc; i-- > 0;) {
			uint64_t r = s->locids[i];
			if (prune_cut(r & LOC_REF ? &p->locs[(uint32_t)r] : NULL, i, &found_user, &lo))
				break;
		}
		if (lo) {
			depth = 0;
			for (size_t i = lo; i < nloc; i++) {
				uint64_t r = s->locids[i];
				depth += r & LOC_REF ? p->locs[(uint32_t)r].fcount : 1;
			}
		}
	}
	if (depth == 0)
		return 0;
	if (depth > PPROF_MAX_DEPTH || depth > s->frame_budget)
		return 1;
	s->frame_budget -= depth;
	if (s->npend == PIPE && (rc = add_oldest(s, err)))
		return rc;
	struct pending *pd = &s->pend[(s->head + s->npend) % PIPE];
	if (depth > pd->cap && flame__array_reserve(pd->ids, pd->cap, depth))
		return flame__err_nomem(err);
	uint32_t *ids = pd->ids;
	size_t d = 0;
	for (size_t i = nloc; i-- > lo;) {
		uint64_t r = s->locids[i];
		if (!(r & LOC_REF)) {
			ids[d++] = (uint32_t)r;
			continue;
		}
		const loc *l = &p->locs[(uint32_t)r];
		memcpy(ids + d, p->frames + l->fstart, l->fcount * sizeof *ids);
		d += l->fcount;
	}
	pd->depth = d;
	pd->v = v;
	pd->off = f->off;
	pd->hash = flame__stacks_hash(ids, d);
	const flame__stacks *st = s->k.stacks;
	if (v > 0 && st->slots) {
		flame__prefetch(&st->slots[(uint32_t)pd->hash & st->mask]);
		if (s->npend) { /* the one before: its slot is loaded by now, fetch its entry */
			const struct pending *q = &s->pend[(s->head + s->npend - 1) % PIPE];
			uint32_t k = q->v > 0 ? st->slots[(uint32_t)q->hash & st->mask] : 0;
			if (k && k <= st->count)
				flame__prefetch(&st->v[k - 1]);
		}
	}
	s->npend++;
	return 0;
}

static void free_tagfs(tagf *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		flame__regex_free(v[i].re);
	free(v);
}

static int compile_tagfs(const char *const *specs, size_t n, const char *what, tagf **out,
                         flame_err *err)
{
	*out = NULL;
	if (!n)
		return 0;
	tagf *v = calloc(n, sizeof *v);
	if (!v)
		return flame__err_nomem(err);
	for (size_t i = 0; i < n; i++) {
		int r = tagf_compile(&v[i], specs[i], what, err);
		if (r) {
			free_tagfs(v, i);
			return r;
		}
	}
	*out = v;
	return 0;
}

/* --before-tag / --after-tag: fields of flame_parse_opts version 2 */
static const char *const SIDE_OPT[2] = {"--before-tag", "--after-tag"};
static size_t n_side(const flame_parse_opts *o, int c)
{
	return o->n_side_tags[c];
}
static const char *const *side_specs(const flame_parse_opts *o, int c)
{
	return o->side_tags[c];
}

int flame__pprof_check_tags(const flame_parse_opts *o, flame_err *err)
{
	tagf *a = NULL, *b = NULL;
	int r = compile_tagfs(o->tags, o->n_tags, "--tag", &a, err);
	if (!r)
		r = compile_tagfs(o->tags_ignore, o->n_tags_ignore, "--tag-ignore", &b, err);
	free_tagfs(a, o->n_tags);
	free_tagfs(b, o->n_tags_ignore);
	for (int c = 0; !r && c < 2; c++) {
		r = compile_tagfs(side_specs(o, c), n_side(o, c), SIDE_OPT[c], &a, err);
		free_tagfs(a, n_side(o, c));
	}
	if (!r && o->group_by && !*o->group_by)
		r = flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET, "--group-by wants a label key");
	return r;
}

/* Subtract the negative values; stacks whose sum is not positive are dropped (folded
 * counts are >= 0), with a warning when the sum was negative. */
static int subtract_negative(sampler *s, flame_err *err)
{
	if (!s->neg.count)
		return 0;
	flame__stacks *ts; /* spilled stacks are read back: they may hold ones to subtract */
	int rc = flame__tree_stacks(s->t, &ts, err);
	if (rc)
		return rc;
	uint64_t dropped = 0;
	int emptied = 0;
	for (size_t k = 0; k < s->neg.count; k++) {
		const flame__stack *n = &s->neg.v[k];
		flame__stack *x;
		if (flame__stacks_find(ts, n->ids, n->depth, n->hash32, &x))
			return flame__err_nomem(err);
		int short_of = 0;
		for (int c = 0; c < 2; c++) { /* column 1 only with --before/--after-tag */
			uint64_t have = x ? x->w[c] : 0;
			short_of |= have < n->w[c];
			uint64_t sub = have < n->w[c] ? have : n->w[c];
			if (x) {
				x->w[c] -= sub;
				ts->total[c] -= sub;
			}
		}
		dropped += (uint64_t)short_of;
		emptied |= x && x->w[0] == 0 && x->w[1] == 0;
	}
	if (emptied) {
		flame__stacks fresh;
		flame__stacks_init(&fresh);
		for (size_t k = 0; k < ts->count; k++) {
			const flame__stack *x = &ts->v[k];
			if ((x->w[0] || x->w[1]) && flame__stacks_add_hashed(&fresh, x->ids, x->depth,
			                                                    x->hash32, x->w[0], x->w[1])) {
				flame__stacks_free(&fresh);
				return flame__err_nomem(err);
			}
		}
		flame__tree_replace_stacks(s->t, &fresh);
		flame__stacks_free(&fresh);
	}
	if (dropped)
		flame__warn(s->o->warn, s->o->warn_ud, "pprof-negative", s->p->src, 0,
		            "%" PRIu64 " stacks with a negative total value were dropped", dropped);
	return 0;
}

static int pass_samples(sampler *s, flame_err *err)
{
	flame__pbuf b;
	flame__pfield f;
	int r;
	int fast = !s->nfocus && !s->nignore && !s->split && !s->o->group_by;
	if (fast && !(s->pend = calloc(PIPE, sizeof *s->pend)))
		return flame__err_nomem(err);
	r = 0;
	for (size_t run = 0; run < s->p->nsruns && r >= 0; run++) {
		/* a run holds nothing but samples, as pass 1 read it */
		flame__pbuf_init(&b, s->p->buf, s->p->sruns[run].end, s->p->src);
		b.p = s->p->buf + s->p->sruns[run].start;
		while ((r = flame__pbuf_next(&b, &f, err)) > 0) {
			if ((r = want_wt(s->p, &f, FLAME__WT_LEN, "sample", err)))
				return r;
			if (fast && (r = sample_fast(s, &f, err)) <= 0) {
				if (r < 0)
					return r;
				continue;
			}
			if ((r = add_pending(s, err)) || (r = one_sample(s, &b, &f, err)))
				return r;
		}
	}
	return r < 0 ? r : add_pending(s, err);
}

/* A string of the profile as C text (truncated to the tree's name fields). */
static const char *cstr(const prof *p, uint32_t idx, char buf[64])
{
	flame_str s = S(p, idx);
	size_t n = s.len < 63 ? s.len : 63;
	memcpy(buf, s.ptr, n);
	buf[n] = '\0';
	return buf;
}

/* The unit of the chosen sample type is the tree's count name (core/units.c refuses one
 * that differs from earlier inputs'); the type and the period are kept for the pprof
 * writer, with whether samples/count rides along (Go's CPU profiles: samples = cpu / period). */
static int check_unit(flame_tree *t, const prof *p, size_t vidx, flame_err *err)
{
	char type[64], unit[64], pty[64], pun[64];
	cstr(p, p->st[vidx].type, type);
	cstr(p, p->st[vidx].unit, unit);
	if (!unit[0])
		return 0;
	int r = flame__units_record(t, unit, type, p->src, err);
	if (r)
		return r;
	cstr(p, p->pt.type, pty);
	cstr(p, p->pt.unit, pun);
	int with_samples = 0;
	for (size_t i = 0; i < p->nst; i++) {
		char a[64], b[64];
		if (i != vidx && !strcmp(cstr(p, p->st[i].type, a), "samples") &&
		    !strcmp(cstr(p, p->st[i].unit, b), "count"))
			with_samples = p->period && !strcmp(pun, unit);
	}
	return flame__units_set_pprof(t, type, pty, pun, p->period, with_samples);
}

static int probe_pprof(const char *buf, size_t len);

/* Why binary data the probe refused is no profile.proto, naming the byte: the first of
 * its top-level fields that does not decode (a length past the end...) or is no field of
 * Profile with that wire type. */
static int not_pprof(const char *data, size_t len, const char *src, flame_err *err)
{
	static const char what[] = "not a pprof profile (profile.proto, gzipped or raw)";
	int binary = memchr(data, 0, len < 4096 ? len : 4096) != NULL;
	for (size_t i = 0; !binary && i < len && i < 4096; i++)
		binary = (unsigned char)data[i] < 0x09;
	if (!binary)
		return flame__err(err, FLAME_EDATA, src, 0, FLAME__NO_OFFSET, "%s", what);
	flame__pbuf b;
	flame__pfield f;
	flame_err e = {0};
	flame__pbuf_init(&b, data, len, src);
	int r;
	while ((r = flame__pbuf_next(&b, &f, &e)) == 1) {
		int lenf = (f.num >= 1 && f.num <= 6) || f.num == 11 || f.num == 13;
		if (f.num <= 14 && (f.wt == FLAME__WT_LEN) != lenf)
			return flame__err(err, FLAME_EDATA, src, 0, f.off,
			                  "%s: field %u has wire type %d, which Profile's field %u does not",
			                  what, f.num, f.wt, f.num);
	}
	if (r < 0)
		return flame__err(err, FLAME_EDATA, src, 0, e.offset, "%s: %s", what, e.msg);
	return flame__err(err, FLAME_EDATA, src, 0, 0, "%s: no field of Profile at the start", what);
}

/* The whole decompressed input; text or other binary data is refused up front (with
 * --format pprof or --list-sample-types) rather than with a wire-level error deep in. */
static int read_all(flame_input *in, char **data, size_t *len, flame_err *err)
{
	uint64_t lim = flame__input_limit(in, PPROF_MAX_BYTES);
	int r = flame__input_slurp(in, data, len, lim > SIZE_MAX ? SIZE_MAX : (size_t)lim, err);
	if (r || !*len || probe_pprof(*data, *len))
		return r;
	r = not_pprof(*data, *len, flame_input_name(in), err);
	free(*data);
	*data = NULL;
	return r;
}

static int parse_pprof(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	char *data = NULL;
	size_t len = 0;
	int r = read_all(in, &data, &len, err);
	if (r)
		return r;
	prof p = {.src = flame_input_name(in), .buf = (const uint8_t *)data, .len = len};
	sampler s = {.t = t, .p = &p, .o = o,
	             .frame_budget = (uint64_t)len * PPROF_FRAMES_PER_BYTE + PPROF_MAX_DEPTH};
	flame__sink_init(&s.k, t);
	flame__stacks_init(&s.neg);
	if (len == 0)
		goto done; /* empty input: nothing to add, as for every format */
	if ((r = load(&p, err)))
		goto done;
	/* no sample types is only valid without values (pass 3 checks each sample) */
	if (p.nst && ((r = pick_type(&p, o->pprof_sample_type, &s.vidx, err)) ||
	              (r = check_unit(t, &p, s.vidx, err))))
		goto done;
	if ((r = compile_tagfs(o->tags, o->n_tags, "--tag", &s.focus, err)))
		goto done;
	s.nfocus = o->n_tags;
	if ((r = compile_tagfs(o->tags_ignore, o->n_tags_ignore, "--tag-ignore",
	                       &s.ignore, err)))
		goto done;
	s.nignore = o->n_tags_ignore;
	for (int c = 0; c < 2; c++) {
		if ((r = compile_tagfs(side_specs(o, c), n_side(o, c), SIDE_OPT[c], &s.side[c], err)))
			goto done;
		s.nside[c] = n_side(o, c);
		s.split |= s.nside[c] != 0;
	}
	if (s.split)
		flame__sink_set_differential(&s.k);
	flame__units_set_duration(t, p.duration);
	if ((r = mark_prune(&p, err)) || (r = name_frames(&s.k, &p, o->pprof_flags, err)) ||
	    (r = build_lone(&p, err)) ||
	    (r = pass_samples(&s, err)) || (r = subtract_negative(&s, err)))
		goto done;
done:
	free_tagfs(s.focus, s.nfocus);
	free_tagfs(s.ignore, s.nignore);
	free_tagfs(s.side[0], s.nside[0]);
	free_tagfs(s.side[1], s.nside[1]);
	free(s.locids);
	free(s.labels);
	free(s.ids);
	for (size_t i = 0; s.pend && i < PIPE; i++)
		free(s.pend[i].ids);
	free(s.pend);
	free(s.nb.p);
	flame__stacks_free(&s.neg);
	prof_free(&p);
	free(data);
	return r;
}

int flame_pprof_sample_types(flame_input *in, flame_sample_type_fn fn, void *ud, flame_err *err)
{
	char *data = NULL;
	size_t len = 0;
	int r = read_all(in, &data, &len, err);
	if (r)
		return r;
	prof p = {.src = flame_input_name(in), .buf = (const uint8_t *)data, .len = len};
	size_t dflt = 0;
	if (len && !(r = load(&p, err)) && p.nst && !(r = pick_type(&p, NULL, &dflt, err))) {
		char ty[256], un[256];
		for (size_t i = 0; i < p.nst; i++) {
			flame_str a = S(&p, p.st[i].type), b = S(&p, p.st[i].unit);
			snprintf(ty, sizeof ty, "%.*s", (int)a.len, a.ptr);
			snprintf(un, sizeof un, "%.*s", (int)b.len, b.ptr);
			if ((r = fn(ud, ty, un, i == dflt)))
				break;
		}
	}
	prof_free(&p);
	free(data);
	return r;
}

/* Auto-detection: the start must decode as Profile fields with the wire types the
 * schema gives them (unknown field numbers with any valid type), and hold some byte
 * below 0x09 as binary data does and text does not. */
static int probe_pprof(const char *buf, size_t len)
{
	const uint8_t *p = (const uint8_t *)buf, *end = p + (len > 4096 ? 4096 : len);
	int binary = 0, fields = 0;
	for (const uint8_t *q = p; q < end; q++)
		if (*q < 0x09) {
			binary = 1;
			break;
		}
	if (!binary)
		return 0;
	while (p < end) {
		uint64_t key, v;
		int kr = flame__pbuf_varint(&p, end, &key);
		if (kr == -1)
			return fields > 0; /* cut by the window */
		if (kr)
			return fields >= 2; /* broken later on: let the parser say where */
		uint64_t num = key >> 3;
		int wt = (int)(key & 7);
		if (num == 0 || (wt != 0 && wt != 1 && wt != 2 && wt != 5))
			return fields >= 2;
		if (num <= 15) {
			int lenf = (num >= 1 && num <= 6) || num == 11 || num == 13;
			int varf = (num >= 7 && num <= 10) || num == 12 || num >= 13;
			if (!((wt == 2 && lenf) || (wt == 0 && varf)))
				return fields >= 2;
		}
		int r = 0;
		switch (wt) {
		case 0: r = flame__pbuf_varint(&p, end, &v); break;
		case 1: p = (size_t)(end - p) >= 8 ? p + 8 : end; break;
		case 5: p = (size_t)(end - p) >= 4 ? p + 4 : end; break;
		case 2:
			r = flame__pbuf_varint(&p, end, &v);
			if (!r) {
				if (v > (uint64_t)PPROF_MAX_BYTES)
					return 0;
				if (v > (uint64_t)(end - p)) /* runs past the window */
					return fields > 0 || len > (size_t)(end - (const uint8_t *)buf);
				p += v;
			}
			break;
		}
		if (r == -2)
			return fields >= 2;
		if (r == -1)
			return fields > 0;
		fields++;
	}
	return fields > 0;
}

const struct flame__parser flame__parser_pprof = {
	.probe = probe_pprof,
	.parse = parse_pprof,
};
