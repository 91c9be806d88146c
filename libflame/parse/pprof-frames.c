/* The frames of a pprof profile (parse/, between pprof-wire.c's tables and
 * pprof-samples.c): every location's frames named and interned once, root-first, so a
 * sample costs one copy of ids per location. Names follow `go tool pprof -traces`:
 * Function.name, else `[basename(mapping)]`, else `<unknown>`; a location with several
 * lines is inlined code, its frames from its last line (the caller) to line[0]. The
 * profile's drop_frames/keep_frames mark locations as Profile.Prune does, and lone[]
 * gives, for dense location ids, the frame of each location that is exactly one. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "../core/err.h"
#include "../core/prefetch.h"
#include "../core/regex.h"
#include "../core/sites.h"
#include "../core/tree.h"
#include "pprof.h"

int flame__pp_intern(flame__sink *k, flame__pp_text *b, uint32_t *id)
{
	/* folded text cannot hold these: ';' separates frames, newline ends a stack */
	for (size_t i = 0; i < b->len; i++) {
		if (b->p[i] == ';')
			b->p[i] = ':';
		else if (b->p[i] == '\n' || b->p[i] == '\r')
			b->p[i] = ' ';
	}
	*id = flame__sink_intern(k, b->p, b->len);
	return *id == FLAME__ID_NONE ? FLAME_ENOMEM : 0;
}

/* `[basename]`, `<unknown>`, or with addresses `basename+0xADDR` / `0xADDR`. */
static int unknown_name(const flame__pp *p, const flame__pp_loc *l, unsigned flags,
                        flame__pp_text *b)
{
	flame_str file = {"", 0};
	if (l->midx != UINT32_MAX)
		file = flame__pp_str(p, p->maps.v[l->midx].file);
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
		if (bl && (flame__pp_put(b, base, bl) || flame__pp_put(b, "+", 1)))
			return FLAME_ENOMEM;
		return flame__pp_put(b, num, (size_t)nl);
	}
	if (!bl)
		return flame__pp_put(b, "<unknown>", 9);
	if (flame__pp_put(b, "[", 1) || flame__pp_put(b, base, bl) || flame__pp_put(b, "]", 1))
		return FLAME_ENOMEM;
	return 0;
}

/* Name the frame of line `ln` (NULL: a location without lines) and intern it. */
static int frame_id(flame__sink *k, const flame__pp *p, const flame__pp_loc *l,
                    const flame__pp_line *ln, int inlined, unsigned flags, flame__pp_text *b,
                    uint32_t *id)
{
	b->len = 0;
	const flame__pp_func *fn = ln && ln->fidx != UINT32_MAX ? &p->fns.v[ln->fidx] : NULL;
	flame_str name = {"", 0};
	if (fn) {
		name = flame__pp_str(p, fn->name);
		if ((flags & FLAME_PPROF_SYSTEM_NAMES) && fn->sys)
			name = flame__pp_str(p, fn->sys);
	}
	if (name.len) {
		if (flame__pp_put(b, name.ptr, name.len))
			return FLAME_ENOMEM;
		if ((flags & FLAME_PPROF_LINES) && fn->file) {
			flame_str file = flame__pp_str(p, fn->file);
			char num[32];
			int n = snprintf(num, sizeof num, ":%" PRId64, ln->line);
			if (flame__pp_put(b, " ", 1) || flame__pp_put(b, file.ptr, file.len) ||
			    flame__pp_put(b, num, (size_t)n))
				return FLAME_ENOMEM;
		}
	} else if (unknown_name(p, l, flags, b)) {
		return FLAME_ENOMEM;
	}
	if (inlined && (flags & FLAME_PPROF_INLINE_ANNOTATE) && flame__pp_put(b, "_[i]", 4))
		return FLAME_ENOMEM;
	return flame__pp_intern(k, b, id);
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

/* Where drop_frames cuts location l: from line[last] down to line[0], the first line
 * whose simplified name matches drop and not keep; -1 when none does. */
static long prune_line(const flame__pp *p, const flame__pp_loc *l, flame__regex *drop,
                       flame__regex *keep)
{
	for (long k = (long)l->nline - 1; k >= 0; k--) {
		const flame__pp_line *ln = &p->lines.v[l->line0 + (size_t)k];
		if (ln->fidx == UINT32_MAX)
			continue;
		flame_str name = flame__pp_str(p, p->fns.v[ln->fidx].name);
		if (!name.len)
			continue;
		flame_str sn = simplify(name);
		if (flame__regex_match(drop, sn.ptr, sn.len) &&
		    !(keep && flame__regex_match(keep, sn.ptr, sn.len)))
			return k;
	}
	return -1;
}

/* Profile.Prune: a location cut at its caller line is dropped (prune); one cut lower
 * keeps the lines above the cut (beneath). */
static int mark_prune(flame__pp *p, flame_err *err)
{
	if (!p->drop)
		return 0;
	flame__regex *drop = NULL, *keep = NULL;
	flame_str ds = flame__pp_str(p, p->drop), ks = flame__pp_str(p, p->keep);
	int r = flame__regex_compile(&drop, ds.ptr, ds.len, 1, "drop_frames", err);
	if (!r && p->keep)
		r = flame__regex_compile(&keep, ks.ptr, ks.len, 1, "keep_frames", err);
	if (r) {
		flame__regex_free(drop);
		/* the profile carries the bad pattern: that is bad data, not usage */
		return flame__err_recode(err, FLAME_EDATA, p->src);
	}
	for (size_t i = 0; i < p->locs.n; i++) {
		flame__pp_loc *l = &p->locs.v[i];
		long k = prune_line(p, l, drop, keep);
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
static flame_str plain_name(const flame__pp *p, const flame__pp_line *ln, int inlined,
                            unsigned flags)
{
	flame_str none = {NULL, 0};
	const flame__pp_func *fn = ln && ln->fidx != UINT32_MAX ? &p->fns.v[ln->fidx] : NULL;
	if (!fn || (flags & FLAME_PPROF_LINES) || (inlined && (flags & FLAME_PPROF_INLINE_ANNOTATE)))
		return none;
	flame_str name = flame__pp_str(p, fn->name);
	if ((flags & FLAME_PPROF_SYSTEM_NAMES) && fn->sys)
		name = flame__pp_str(p, fn->sys);
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

static const flame__pp_line *fpos_line(const flame__pp *p, const fpos *c, int *inlined)
{
	const flame__pp_loc *l = &p->locs.v[c->i];
	*inlined = 0;
	if (!l->nline)
		return NULL;
	uint32_t k = l->nline - 1 - c->j; /* line[last] is the caller */
	*inlined = k + 1 < l->nline;
	return &p->lines.v[l->line0 + k];
}

/* Advance; 1 when that finished location i. */
static int fpos_step(const flame__pp *p, fpos *c)
{
	const flame__pp_loc *l = &p->locs.v[c->i];
	if (++c->j < (l->nline ? l->nline : 1))
		return 0;
	c->i++;
	c->j = 0;
	return 1;
}

/* Frames named ahead of the one being interned: a plain name, hashed, or none. */
enum { AHEAD = 8 };
typedef struct ahead {
	flame_str s;
	uint64_t h;
} ahead;

/* Look ahead at the frame at `a`: hash its name, if plain, and fetch its table slot. */
static void look_ahead(const flame__pp *p, const flame__intern *in, fpos *a, unsigned flags,
                       ahead *x)
{
	int inl;
	const flame__pp_line *ln = fpos_line(p, a, &inl);
	x->s = plain_name(p, ln, inl, flags);
	if (x->s.ptr) {
		x->h = flame__hash_bytes(x->s.ptr, x->s.len);
		if (in->slots)
			flame__prefetch(&in->slots[(uint32_t)x->h & in->mask]);
	}
	fpos_step(p, a);
}

/* A string of the profile in the site table's strings. */
static uint32_t site_str(flame__sites *s, const flame__pp *p, uint32_t i)
{
	flame_str x = flame__pp_str(p, i);
	return flame__sites_str(s, x.ptr, x.len);
}

/* The site table's mapping of the profile's mapping `m` (index + 1; 0: out of memory),
 * cached in `cache` (one entry per mapping, 0 until made). */
static uint32_t site_map(flame__sites *s, const flame__pp *p, uint32_t m, uint32_t *cache)
{
	if (cache[m])
		return cache[m];
	const flame__pp_mapping *pm = &p->maps.v[m];
	flame__map x = {site_str(s, p, pm->file), site_str(s, p, pm->build_id),
	                (uint32_t)(pm->has_functions | pm->has_filenames << 1 | pm->has_lines << 2 |
	                           pm->has_inline << 3),
	                {pm->start, pm->limit, pm->file_offset, {"", 0}, {"", 0}}};
	if (x.file == FLAME__ID_NONE || x.build_id == FLAME__ID_NONE)
		return 0;
	return cache[m] = flame__sites_map(s, &x);
}

/* Frame `*id` (a name) at the site of line `ln` of location `l`: the frame of that name
 * and site. 0 or FLAME_ENOMEM. */
static int site_frame(flame__sink *k, const flame__pp *p, const flame__pp_loc *l,
                      const flame__pp_line *ln, int inlined, uint32_t *cache, uint32_t *id)
{
	flame__sites *s = flame__tree_sites(k->t);
	const flame__pp_func *fn = ln && ln->fidx != UINT32_MAX ? &p->fns.v[ln->fidx] : NULL;
	flame__site_key key = {0, 0, 0, 0, ln ? ln->line : 0, fn ? fn->start_line : 0, l->addr,
	                       inlined ? FLAME__SITE_INLINED : 0};
	if (fn && ((key.fn = site_str(s, p, fn->name)) == FLAME__ID_NONE ||
	           (key.sys = site_str(s, p, fn->sys)) == FLAME__ID_NONE ||
	           (key.file = site_str(s, p, fn->file)) == FLAME__ID_NONE))
		return FLAME_ENOMEM;
	if (l->midx != UINT32_MAX && !(key.map = site_map(s, p, l->midx, cache)))
		return FLAME_ENOMEM;
	uint32_t site = flame__sites_put(s, &key);
	if (site == FLAME__ID_NONE)
		return FLAME_ENOMEM;
	*id = flame__sites_frame(s, k->names, *id, site);
	return *id == FLAME__ID_NONE ? FLAME_ENOMEM : 0;
}

/* Intern the frame at `c` (looked ahead as `x`) into p->frames. */
static int intern_at(flame__sink *k, flame__pp *p, fpos *c, const ahead *x, unsigned flags,
                     flame__pp_text *b, uint32_t *cache)
{
	flame__pp_loc *l = &p->locs.v[c->i];
	uint32_t id = FLAME__ID_NONE;
	int r;
	if (c->j == 0)
		l->fstart = (uint32_t)p->nframes;
	if (x->s.ptr) {
		id = flame__intern_put_hashed(k->names, x->s.ptr, x->s.len, x->h);
		r = id == FLAME__ID_NONE ? FLAME_ENOMEM : 0;
	} else {
		int inl;
		const flame__pp_line *ln = fpos_line(p, c, &inl);
		r = frame_id(k, p, l, ln, inl, flags, b, &id);
	}
	if (!r && cache) {
		int inl;
		const flame__pp_line *ln = fpos_line(p, c, &inl);
		r = site_frame(k, p, l, ln, inl, cache, &id);
	}
	p->frames[p->nframes++] = id;
	if (fpos_step(p, c))
		l->fcount = (uint32_t)p->nframes - l->fstart;
	return r;
}

/* Name and intern every location's frames, root-first (line[last] .. line[0]). Plain
 * names are hashed a few frames ahead and their table slot fetched, so interning a
 * million distinct names does not wait on memory for each. */
static int name_frames(flame__sink *k, flame__pp *p, unsigned flags, flame_err *err)
{
	size_t total = 0;
	for (size_t i = 0; i < p->locs.n; i++)
		total += p->locs.v[i].nline ? p->locs.v[i].nline : 1;
	if (!(p->frames = malloc((total ? total : 1) * sizeof *p->frames)))
		return flame__err_nomem(err);
	ahead ring[AHEAD];
	flame__pp_text b = {0};
	int r = 0;
	/* with sites kept: the site table's mapping of each of the profile's */
	uint32_t *cache = NULL;
	if (flame__tree_sites(k->t) && !(cache = calloc(p->maps.n + 1, sizeof *cache)))
		r = FLAME_ENOMEM;
	fpos a = {0, 0}, c = {0, 0};
	for (size_t g = 0; g < total + AHEAD && !r; g++) {
		if (g >= AHEAD) /* frame g - AHEAD, at position c */
			r = intern_at(k, p, &c, &ring[(g - AHEAD) % AHEAD], flags, &b, cache);
		if (g < total) /* frame g, at position a */
			look_ahead(p, k->names, &a, flags, &ring[g % AHEAD]);
	}
	free(b.p);
	free(cache);
	return r ? flame__err_nomem(err) : 0;
}

/* With dense location ids (Go's), samples resolve each id with one lookup in lone[]:
 * the frame of a location that is exactly one frame, else LONE_LOC or LONE_NONE. */
static int build_lone(flame__pp *p, flame_err *err)
{
	if (!p->locm.dense)
		return 0;
	if (!(p->lone = malloc(p->locm.ndense * sizeof *p->lone)))
		return flame__err_nomem(err);
	for (uint64_t id = 0; id < p->locm.ndense; id++) {
		uint32_t x = p->locm.dense[id];
		const flame__pp_loc *l = x ? &p->locs.v[x - 1] : NULL;
		p->lone[id] = !l ? FLAME__PP_LONE_NONE
		              : l->fcount == 1 && !l->prune && !l->beneath &&
		                      p->frames[l->fstart] < FLAME__PP_LONE_LOC
		                  ? p->frames[l->fstart]
		                  : FLAME__PP_LONE_LOC;
	}
	return 0;
}

int flame__pp_frames(flame__sink *k, flame__pp *p, unsigned flags, flame_err *err)
{
	int r;
	if ((r = mark_prune(p, err)) || (r = name_frames(k, p, flags, err)) ||
	    (r = build_lone(p, err)))
		return r;
	return 0;
}
