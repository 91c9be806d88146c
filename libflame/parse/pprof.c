/* pprof reader: profile.proto (gzip is undone by the input layer) to stacks. This file
 * is the probe and the entry; the work is in the parts pprof.h lists (the wire reader,
 * the frames, the label filters, the samples), which it calls in that order.
 *
 * Example input (as `go tool pprof -raw` shows it):    Example output (folded):
 *   samples/count cpu/nanoseconds                        main;main.work;main.hot 20000000
 *     2  20000000: 3 2 1        (location ids, leaf first)
 *   Locations 1: main  2: main.work  3: main.hot
 *
 * The whole message is read (bounded), its tables first, every index checked with the
 * byte offset of the field that holds it; each location's frames are named and interned
 * once; a sample then costs one id lookup per location and one stack-table lookup.
 * Frames follow `go tool pprof -traces`; the value counted is --sample-type's, else the
 * one go tool pprof picks (default_sample_type, else the last). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/sites.h"
#include "../core/tree.h"
#include "../core/units.h"
#include "../core/values.h"
#include "parser.h"
#include "pprof.h"

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
				if (v > (uint64_t)FLAME__PP_MAX_BYTES)
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

static int str_is(const flame__pp *p, uint32_t i, const char *s, size_t n)
{
	flame_str a = flame__pp_str(p, i);
	return a.len == n && memcmp(a.ptr, s, n) == 0;
}

/* --sample-type NAME, or a number (as pprof's -sample_index): its index, or an error
 * naming the types the profile has. */
static int find_type(const flame__pp *p, const char *want, size_t *idx, flame_err *err)
{
	for (size_t i = 0; i < p->st.n; i++)
		if (str_is(p, p->st.v[i].type, want, strlen(want))) {
			*idx = i;
			return 0;
		}
	char *end;
	unsigned long long n = strtoull(want, &end, 10);
	if (*want >= '0' && *want <= '9' && !*end && n < p->st.n) {
		*idx = (size_t)n;
		return 0;
	}
	char have[256];
	size_t hl = 0;
	have[0] = '\0';
	for (size_t i = 0; i < p->st.n && hl < sizeof have - 1; i++) {
		flame_str s = flame__pp_str(p, p->st.v[i].type);
		int w = snprintf(have + hl, sizeof have - hl, "%s%.*s", i ? ", " : "", (int)s.len,
		                 s.ptr);
		hl = w < 0 ? hl : hl + (size_t)w;
	}
	return flame__err(err, FLAME_EUSAGE, p->src, 0, FLAME__NO_OFFSET,
	                  "no sample type '%s' (the profile has: %s)", want, p->st.n ? have : "none");
}

/* Index of the sample type to use: `want` (--sample-type), else default_sample_type, else
 * the last. */
static int pick_type(const flame__pp *p, const char *want, size_t *idx, flame_err *err)
{
	if (want)
		return find_type(p, want, idx, err);
	*idx = p->st.n - 1;
	flame_str d = flame__pp_str(p, p->default_st);
	for (size_t i = 0; p->default_st && i < p->st.n; i++)
		if (p->st.v[i].type == p->default_st || str_is(p, p->st.v[i].type, d.ptr, d.len)) {
			*idx = i;
			break;
		}
	return 0;
}

/* A string of the profile as C text (truncated to the tree's name fields). */
static const char *cstr(const flame__pp *p, uint32_t idx, char buf[64])
{
	flame_str s = flame__pp_str(p, idx);
	size_t n = s.len < 63 ? s.len : 63;
	memcpy(buf, s.ptr, n);
	buf[n] = '\0';
	return buf;
}

/* The unit of the chosen sample type is the tree's count name (core/units.c refuses one
 * that differs from earlier inputs'); the type and the period are kept for the pprof
 * writer, with whether samples/count rides along (Go's CPU profiles: samples = cpu / period). */
static int check_unit(flame_tree *t, const flame__pp *p, size_t vidx, flame_err *err)
{
	char type[64], unit[64], pty[64], pun[64];
	cstr(p, p->st.v[vidx].type, type);
	cstr(p, p->st.v[vidx].unit, unit);
	if (!unit[0])
		return 0;
	int r = flame__units_record(t, unit, type, p->src, err);
	if (r)
		return r;
	cstr(p, p->pt.type, pty);
	cstr(p, p->pt.unit, pun);
	int with_samples = 0;
	for (size_t i = 0; i < p->st.n; i++) {
		char a[64], b[64];
		if (i != vidx && !strcmp(cstr(p, p->st.v[i].type, a), "samples") &&
		    !strcmp(cstr(p, p->st.v[i].unit, b), "count"))
			with_samples = p->period && !strcmp(pun, unit);
	}
	return flame__units_set_pprof(t, type, pty, pun, p->period, with_samples);
}

/* The profile's sample types, then their units, as C strings (2 * st.n, each to free). */
static char **type_strings(const flame__pp *p)
{
	size_t n = p->st.n;
	char **v = calloc(2 * n, sizeof *v);
	for (size_t i = 0; v && i < 2 * n; i++) {
		flame_str a = flame__pp_str(p, i < n ? p->st.v[i].type : p->st.v[i - n].unit);
		char *c = malloc(a.len + 1);
		if (!c) {
			for (size_t j = 0; j < i; j++)
				free(v[j]);
			free(v);
			return NULL;
		}
		v[i] = memcpy(c, a.ptr, a.len);
		c[a.len] = '\0';
	}
	return v;
}

/* Every sample type's values beside the chosen one's (keep_sample_types): the tree's table
 * when it has these types, a new one when the tree is empty, else none (the tree keeps
 * column 0 alone, which stays true). The sink then never spills: rows key on places. */
static int plan_values(flame_tree *t, flame__sink *k, const flame__pp *p, size_t vidx,
                       const flame__pp_filters *fl, const flame_parse_opts *o, flame_err *err)
{
	const flame__values *have = flame__tree_values(t);
	if (!o->keep_sample_types || p->st.n < 2 || fl->split) {
		flame__tree_drop_values(t);
		return 0;
	}
	char **ts = type_strings(p);
	if (!ts)
		return flame__err_nomem(err);
	const char *const *ty = (const char *const *)ts, *const *un = ty + p->st.n;
	int rc = 0;
	if (have && !flame__values_same(have, p->st.n, vidx, ty, un))
		flame__tree_drop_values(t);
	else if (!have && !flame__tree_has_stacks(t)) {
		flame__values *vt = flame__values_new(p->st.n, vidx, ty, un);
		if (vt)
			flame__tree_set_values(t, vt);
		else
			rc = flame__err_nomem(err);
	}
	for (size_t i = 0; i < 2 * p->st.n; i++)
		free(ts[i]);
	free(ts);
	if (flame__tree_values(t))
		k->limit = 0;
	return rc;
}

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
	uint64_t lim = flame__input_limit(in, FLAME__PP_MAX_BYTES);
	int r = flame__input_slurp(in, data, len, lim > SIZE_MAX ? SIZE_MAX : (size_t)lim, err);
	if (r || !*len || probe_pprof(*data, *len))
		return r;
	r = not_pprof(*data, *len, flame_input_name(in), err);
	free(*data);
	*data = NULL;
	return r;
}

/* The profile's tables, frames and samples into `t` (the input is not empty). */
static int read_profile(flame_tree *t, flame__sink *k, flame__pp *p, flame__pp_filters *fl,
                        const flame_parse_opts *o, flame_err *err)
{
	size_t vidx = 0;
	int r;
	if ((r = flame__pp_load(p, err)))
		return r;
	/* no sample types is only valid without values (each sample is checked) */
	if (p->st.n && ((r = pick_type(p, o->pprof_sample_type, &vidx, err)) ||
	                (r = check_unit(t, p, vidx, err))))
		return r;
	if ((r = flame__pp_filters_compile(fl, o, err)))
		return r;
	if (fl->split)
		flame__sink_set_differential(k);
	if ((r = plan_values(t, k, p, vidx, fl, o, err)))
		return r;
	flame__units_set_duration(t, p->duration);
	if (flame__tree_sites(t))
		flame__sites_time(flame__tree_sites(t), p->time_nanos);
	if (o->pprof_flags & FLAME_PPROF_NO_PRUNE)
		p->drop = 0; /* as if the profile named no drop_frames */
	if ((r = flame__pp_frames(k, p, o->pprof_flags, err)))
		return r;
	return flame__pp_samples(k, p, fl, vidx, o, err);
}

static int parse_pprof(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	char *data = NULL;
	size_t len = 0;
	int r = read_all(in, &data, &len, err);
	if (r)
		return r;
	flame__pp p = {.src = flame_input_name(in), .buf = (const uint8_t *)data, .len = len};
	flame__pp_filters fl = {0};
	flame__sink k;
	/* samples have no times: a tree that keeps time gets the profile's stacks spread over
	 * its time_nanos and duration, through a tree of the profile's own */
	flame_tree *own = flame__tree_time(t) ? flame__tree_new() : NULL;
	if (flame__tree_time(t) && !own)
		r = flame__err_nomem(err);
	else if (own && flame__tree_sites(t))
		r = flame_tree_keep_sites(own, err);
	if (!r && own && flame__tree_labels(t))
		r = flame_tree_keep_labels(own, err);
	flame__sink_init(&k, own ? own : t);
	if (len && !r) /* empty input: nothing to add, as for every format */
		r = read_profile(own ? own : t, &k, &p, &fl, o, err);
	if (own && !r) {
		int64_t end = p.time_nanos + (int64_t)(p.duration < INT64_MAX - (uint64_t)p.time_nanos
		                                           ? p.duration : 0);
		flame__tree_at at = {FLAME_CLOCK_WALL, p.time_nanos, end};
		r = flame__tree_merge_at(t, own, p.time_nanos > 0 ? &at : NULL, err);
	}
	flame_tree_free(own);
	flame__pp_filters_free(&fl);
	flame__pp_free(&p);
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
	flame__pp p = {.src = flame_input_name(in), .buf = (const uint8_t *)data, .len = len};
	size_t dflt = 0;
	if (len && !(r = flame__pp_load(&p, err)) && p.st.n && !(r = pick_type(&p, NULL, &dflt, err))) {
		char ty[256], un[256];
		for (size_t i = 0; i < p.st.n; i++) {
			flame_str a = flame__pp_str(&p, p.st.v[i].type), b = flame__pp_str(&p, p.st.v[i].unit);
			snprintf(ty, sizeof ty, "%.*s", (int)a.len, a.ptr);
			snprintf(un, sizeof un, "%.*s", (int)b.len, b.ptr);
			if ((r = fn(ud, ty, un, i == dflt)))
				break;
		}
	}
	flame__pp_free(&p);
	free(data);
	return r;
}

const struct flame__parser flame__parser_pprof = {
	.probe = probe_pprof,
	.parse = parse_pprof,
};
