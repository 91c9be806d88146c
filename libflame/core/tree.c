/* flame_tree: the stack table parsers fill, and the node tree built from it on demand.
 * Building takes the unique stacks in frame order (core/order.c: by name, so a shorter
 * stack sorts before its extensions, as if ';' sorted below every byte; nearly free on
 * sorted input); one linear pass then opens only the frames beyond the common prefix
 * with the previous stack. */
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "err.h"
#include "labels.h"
#include "sites.h"
#include "spill.h"
#include "time.h"
#include "tree-private.h"
#include "u128.h"
#include "values.h"

flame_tree *flame__tree_new(void)
{
	flame_tree *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	flame__intern_init(&t->names);
	flame__stacks_init(&t->stacks);
	t->root_name = flame__intern_put(&t->names, "all", 3);
	if (t->root_name == FLAME__ID_NONE) {
		flame_tree_free(t);
		return NULL;
	}
	return t;
}

int flame_tree_new(flame_tree **out, flame_err *err)
{
	*out = flame__tree_new();
	return *out ? 0 : flame__err_nomem(err);
}

void flame_tree_free(flame_tree *t)
{
	if (!t)
		return;
	flame__intern_free(&t->names);
	flame__stacks_free(&t->stacks);
	flame__spill_free(t->spill);
	free(t->nodes);
	free(t->scratch);
	flame__time_free(t->time);
	flame__sites_free(t->sites);
	flame__labels_free(t->labels);
	flame__values_free(t->values);
	free(t);
}

static int status_err(flame_err *err, int rc)
{
	if (rc == FLAME_ENOMEM)
		return flame__err_nomem(err);
	if (rc == FLAME_ERANGE)
		return flame__err(err, rc, "", 0, FLAME__NO_OFFSET, "a count overflows 64 bits");
	return rc;
}

/* ---- spilling (core/spill.c below writes and reads the runs) */

int flame__tree_spilled(const flame_tree *t) { return flame__spill_runs(t->spill) > 0; }

size_t flame__tree_spill_runs(const flame_tree *t) { return flame__spill_runs(t->spill); }

uint64_t flame__tree_stacks_seen(const flame_tree *t) { return t->moved + t->stacks.count; }

int flame__tree_maybe_spill(flame_tree *t, flame_err *err)
{
	/* time and values are keyed by the stacks' places in the table, and a run spilled as
	 * text would lose which frame of a name each is, and each stack's labels: a tree
	 * keeping any of them never spills */
	if (!t->spill_limit || t->time || t->sites || t->labels || t->values ||
	    flame__stacks_bytes(&t->stacks) < t->spill_limit)
		return 0;
	t->moved += t->stacks.count;
	if (t->drain)
		return t->drain(t->drain_ud, t, err);
	return flame__spill_run(&t->spill, &t->stacks, &t->names, err);
}

/* Every stack back in the in-memory table: the stacks still in memory become the last run,
 * and all runs are read back (in order of first appearance). No-op when nothing spilled. */
static int unspill(flame_tree *t, flame_err *err)
{
	if (!flame__tree_spilled(t))
		return 0;
	flame__stacks fresh;
	int rc = flame__spill_run(&t->spill, &t->stacks, &t->names, err);
	if (!rc)
		rc = flame__spill_read_back(t->spill, &t->names, &fresh, err);
	if (rc)
		return rc;
	flame__tree_replace_stacks(t, &fresh);
	flame__spill_free(t->spill);
	t->spill = NULL;
	return 0;
}

int flame__tree_stream_sorted(flame_tree *t, flame__stacks **mem, flame__emit_fn emit, void *ud,
                              flame_err *err)
{
	*mem = NULL;
	if (!flame__tree_spilled(t)) {
		*mem = &t->stacks;
		return 0;
	}
	int rc = flame__spill_run(&t->spill, &t->stacks, &t->names, err);
	return rc ? rc : flame__spill_merge(t->spill, &t->names, emit, ud, err);
}

static uint32_t max_depth(const flame__stacks *s);

static uint32_t *scratch_ids(flame_tree *t, size_t n)
{
	return flame__array_reserve_min(t->scratch, t->scratch_cap, n, 256) ? NULL : t->scratch;
}

int flame__tree_add_ids(flame_tree *t, const uint32_t *ids, size_t n, uint64_t w0, uint64_t w1,
                        flame_err *err)
{
	t->nodes_valid = 0;
	int rc = flame__stacks_add(&t->stacks, ids, n, w0, w1);
	if (rc)
		return status_err(err, rc);
	return t->spill_limit ? flame__tree_maybe_spill(t, err) : 0;
}

int flame__tree_append_sorted_ids(flame_tree *t, const uint32_t *ids, size_t n, uint64_t w0,
                                  uint64_t w1, flame_err *err)
{
	t->nodes_valid = 0;
	int rc = flame__stacks_append_sorted(&t->stacks, ids, n, w0, w1);
	if (rc)
		return status_err(err, rc);
	return t->spill_limit ? flame__tree_maybe_spill(t, err) : 0;
}

int flame_tree_add(flame_tree *t, const flame_str *frames, size_t n, int leaf_first, uint64_t w0,
                   uint64_t w1, flame_err *err)
{
	if (n == 0)
		return 0;
	uint32_t *ids = scratch_ids(t, n);
	if (!ids)
		return flame__err_nomem(err);
	for (size_t i = 0; i < n; i++) {
		const flame_str *f = &frames[leaf_first ? n - 1 - i : i];
		ids[i] = flame__intern_put(&t->names, f->ptr, f->len);
		if (ids[i] == FLAME__ID_NONE)
			return flame__err_nomem(err);
	}
	return flame__tree_add_ids(t, ids, n, w0, w1, err);
}

const uint64_t flame__pow10[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL, 10000000000000000000ULL};

static int mul_all(flame__stacks *s, uint64_t m)
{
	/* check first, so a failure leaves the table untouched */
	for (int c = 0; c < 2; c++)
		if (s->total[c] && s->total[c] > UINT64_MAX / m)
			return FLAME_ERANGE;
	for (size_t k = 0; k < s->count; k++) {
		s->v[k].w[0] *= m;
		s->v[k].w[1] *= m;
	}
	s->total[0] *= m;
	s->total[1] *= m;
	return 0;
}

int flame__tree_rescale(flame_tree *t, unsigned scale, flame_err *err)
{
	if (scale <= t->scale)
		return 0;
	int urc = unspill(t, err);
	if (urc)
		return urc;
	if (scale > 9)
		return flame__err(err, FLAME_ERANGE, "", 0, FLAME__NO_OFFSET,
		                  "more than 9 decimal places in a count");
	int rc = mul_all(&t->stacks, flame__pow10[scale - t->scale]);
	if (rc)
		return status_err(err, rc);
	if (t->time)
		flame__time_scale(t->time, flame__pow10[scale - t->scale]);
	flame__tree_drop_values(t); /* column 0 no longer counts its type's units */
	t->scale = scale;
	t->nodes_valid = 0;
	return 0;
}

/* Frame `id` of src in dst: its name by its bytes, and its site (when src keeps sites) as
 * a site of dst's, made when dst keeps none yet. FLAME__ID_NONE on out of memory. */
static uint32_t map_frame(flame_tree *dst, const flame_tree *src, uint32_t id)
{
	const flame__name *nm = flame__intern_get(&src->names, id);
	uint32_t name = flame__intern_put(&dst->names, nm->ptr, nm->len);
	const flame__site *st = flame__sites_of(src->sites, id);
	if (!st || name == FLAME__ID_NONE)
		return name;
	if (!dst->sites && !(dst->sites = flame__sites_new()))
		return FLAME__ID_NONE;
	uint32_t k = flame__sites_import(dst->sites, src->sites, (uint32_t)(st - src->sites->v.v));
	return k == FLAME__ID_NONE ? k : flame__sites_frame(dst->sites, &dst->names, name, k);
}

/* src's frames in dst, map[id] (FLAME__ID_NONE until needed); 0 or FLAME_ENOMEM. */
static int map_ids(flame_tree *dst, const flame_tree *src, uint32_t *map, const flame__stack *st,
                   uint32_t *ids)
{
	for (uint32_t i = 0; i < st->depth; i++) {
		uint32_t id = st->ids[i];
		if (map[id] == FLAME__ID_NONE && (map[id] = map_frame(dst, src, id)) == FLAME__ID_NONE)
			return FLAME_ENOMEM;
		ids[i] = map[id];
	}
	return 0;
}

/* The time of src's stacks in dst: src's own table re-keyed by `at` (where each of src's
 * stacks went), or, given a clock, every stack at `ts` (a pprof profile's slices). */
static int merge_time(flame_tree *dst, const flame_tree *src, const uint32_t *at, uint64_t m,
                      const flame__tree_at *ts, flame_err *err)
{
	int rc = 0;
	if (!dst->time && src->time && src->time->clock != FLAME_CLOCK_NONE &&
	    !(dst->time = flame__time_new(src->time->bucket_ns)))
		return flame__err_nomem(err);
	if (ts && dst->time)
		rc = flame__time_spread(dst->time, &src->stacks, at, ts->clock, ts->start_ns, ts->end_ns);
	else if (src->time && dst->time)
		rc = flame__time_add(dst->time, src->time, at, m, 0);
	if (rc == FLAME_EDATA || rc == FLAME_ERANGE)
		return flame__time_err(err, rc, dst->time);
	return rc ? status_err(err, rc) : 0;
}

/* Whether the values of src's stacks go on into dst (a table made for an empty dst): only
 * between tables of the same types, weighed alike; any other merge of stacks leaves dst
 * without the table, where column 0 alone stays true. 1, 0, or -1 out of memory. */
static int join_values(flame_tree *dst, const flame_tree *src)
{
	const flame__values *sv = src->values;
	if (!src->stacks.count)
		return 0; /* nothing added: dst's table, if any, stays true */
	if (sv && !dst->values && !dst->stacks.count && !flame__tree_spilled(dst) &&
	    !(dst->values = flame__values_new(sv->ntypes, sv->main, (const char *const *)sv->type,
	                                      (const char *const *)sv->unit)))
		return -1;
	if (dst->values && (!sv || dst->scale != src->scale || src->differential ||
	                    !flame__values_same(dst->values, sv->ntypes, sv->main,
	                                        (const char *const *)sv->type,
	                                        (const char *const *)sv->unit)))
		flame__tree_drop_values(dst);
	return dst->values != NULL;
}

int flame__tree_merge_at(flame_tree *dst, flame_tree *src, const flame__tree_at *ts,
                         flame_err *err)
{
	int rc = flame__units_join(dst, src, err);
	/* a spilled source is read back first: merging needs its stacks in memory */
	if (!rc)
		rc = unspill(src, err);
	if (!rc)
		rc = flame__tree_rescale(dst, src->scale, err);
	if (rc)
		return rc;
	uint64_t m = flame__pow10[dst->scale - src->scale];
	int timed = (ts && dst->time) || src->time, valued = join_values(dst, src);
	uint32_t *lmap; /* src's label sets in dst (dst keeps labels when src does) */
	if (valued < 0)
		return flame__err_nomem(err);
	if ((rc = flame__tree_label_map(dst, src, &lmap, err)))
		return rc;
	uint32_t *map = malloc((size_t)src->names.count * sizeof *map);
	int keyed = timed || valued; /* where each of src's stacks went is needed */
	uint32_t *at = keyed ? malloc((src->stacks.count ? src->stacks.count : 1) * sizeof *at) : NULL;
	uint32_t *ids = scratch_ids(dst, max_depth(&src->stacks));
	if ((!map && src->names.count) || (keyed && !at) || !ids) {
		free(map);
		free(at);
		free(lmap);
		return flame__err_nomem(err);
	}
	for (uint32_t i = 0; i < src->names.count; i++)
		map[i] = FLAME__ID_NONE;
	dst->nodes_valid = 0;
	for (size_t k = 0; k < src->stacks.count && !rc; k++) {
		const flame__stack *st = &src->stacks.v[k];
		if (map_ids(dst, src, map, st, ids)) {
			rc = flame__err_nomem(err);
			break;
		}
		uint64_t w0 = st->w[0], w1 = st->w[1];
		if (m > 1 && ((w0 && w0 > UINT64_MAX / m) || (w1 && w1 > UINT64_MAX / m))) {
			rc = status_err(err, FLAME_ERANGE);
			break;
		}
		dst->stacks.label = lmap ? lmap[flame__stack_label(&src->stacks, st)] : 0;
		if (at) {
			rc = flame__stacks_add_at(&dst->stacks, ids, st->depth,
			                          flame__stacks_hash(ids, st->depth), w0 * m, w1 * m, &at[k]);
			rc = rc ? status_err(err, rc) : flame__tree_maybe_spill(dst, err);
		} else {
			rc = flame__tree_add_ids(dst, ids, st->depth, w0 * m, w1 * m, err);
		}
	}
	dst->stacks.label = 0;
	free(lmap);
	if (src->differential)
		dst->differential = 1;
	if (!rc && dst->sites && src->sites)
		flame__sites_time(dst->sites, src->sites->time_nanos);
	if (!rc && timed)
		rc = merge_time(dst, src, at, m, ts, err);
	if (!rc && valued && (rc = flame__values_move(dst->values, src->values, at, src->stacks.count)))
		rc = status_err(err, rc);
	free(map);
	free(at);
	return rc;
}

int flame__tree_time_join(flame_tree *dst, const flame_tree *src, const uint32_t *at, uint64_t m,
                          flame_err *err)
{
	if (!src->time || src->time->clock == FLAME_CLOCK_NONE)
		return 0;
	if (!dst->time && !(dst->time = flame__time_new(src->time->bucket_ns)))
		return flame__err_nomem(err);
	int rc = flame__time_add(dst->time, src->time, at, m, 1);
	if (rc == FLAME_EDATA)
		return flame__err(err, rc, "", 0, FLAME__NO_OFFSET,
		                  "BEFORE and AFTER are on different clocks: their times cannot share one "
		                  "timeline");
	return rc ? status_err(err, rc) : 0;
}

int flame_tree_merge(flame_tree *dst, flame_tree *src, flame_err *err)
{
	return flame__tree_merge_at(dst, src, NULL, err);
}

/* Column `col` times num/den, rounded down (flame_tree_scale_column). */
struct scale {
	int col;
	uint64_t num, den;
};

static int scale_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                       uint64_t w[2])
{
	const struct scale *sc = ud;
	(void)ids, (void)depth, (void)out;
	flame__u128 v = (flame__u128)w[sc->col] * sc->num / sc->den;
	if (v > UINT64_MAX)
		return FLAME_ERANGE;
	w[sc->col] = (uint64_t)v;
	return 0;
}

int flame_tree_scale_column(flame_tree *t, int col, uint64_t num, uint64_t den, flame_err *err)
{
	if (den == 0 || col < 0 || col > 1)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET, "invalid scale factor");
	return flame__tree_rewrite(t, scale_stack, &(struct scale){col, num, den},
	                           FLAME__REWRITE_WEIGHTS, err);
}

void flame__tree_replace_stacks(flame_tree *t, flame__stacks *fresh)
{
	flame__stacks_free(&t->stacks);
	t->stacks = *fresh;
	memset(fresh, 0, sizeof *fresh);
	t->nodes_valid = 0;
}

int flame_tree_stack_count(flame_tree *t, size_t *out, flame_err *err)
{
	/* unique stacks across runs are known only after merging them */
	*out = 0;
	int rc = unspill(t, err);
	if (!rc)
		*out = t->stacks.count;
	return rc;
}

int flame__tree_stacks(flame_tree *t, flame__stacks **out, flame_err *err)
{
	int rc = unspill(t, err);
	*out = rc ? NULL : &t->stacks;
	return rc;
}

const flame__intern *flame__tree_names(const flame_tree *t) { return &t->names; }

uint32_t flame__tree_intern(flame_tree *t, const char *p, size_t n)
{
	return flame__intern_put(&t->names, p, n);
}

flame_tree *flame__tree_new_like(const flame_tree *t)
{
	flame_tree *r = flame__tree_new();
	if (r) {
		r->scale = t->scale;
		r->differential = t->differential;
		memcpy(r->units.name, t->units.name, sizeof r->units.name);
	}
	return r;
}

const flame__node *flame__tree_nodes(const flame_tree *t, size_t *n)
{
	*n = t->nodes_valid ? t->node_count : 0;
	return t->nodes_valid ? t->nodes : NULL;
}

uint32_t flame__tree_root_name(const flame_tree *t) { return t->root_name; }

void flame__tree_sink_open(flame_tree *t, flame__intern **names, flame__stacks **stacks,
                           size_t *limit)
{
	t->nodes_valid = 0;
	*names = &t->names;
	*stacks = &t->stacks;
	*limit = t->time || t->sites || t->labels || t->values ? 0 : t->spill_limit;
}

void flame__tree_set_differential(flame_tree *t)
{
	flame__tree_drop_values(t); /* a diff's columns are two sides of one type */
	t->differential = 1;
	t->nodes_valid = 0;
}

static uint32_t max_depth(const flame__stacks *s)
{
	uint32_t d = 1;
	for (size_t k = 0; k < s->count; k++)
		if (s->v[k].depth > d)
			d = s->v[k].depth;
	return d;
}

/* The time entries through a weights-only rewrite: each as its stack would be (entries sum
 * to no more than their stack, so what fit the stack fits them). */
static void rewrite_time_weights(flame_tree *t, flame__rewrite_fn fn, void *ud)
{
	flame__time *tm = t->time;
	for (size_t i = 0; i < tm->count; i++) {
		flame__time_entry *e = &tm->v[i];
		const flame__stack *st = &t->stacks.v[e->stack];
		if (fn(ud, st->ids, st->depth, NULL, e->w) < 0)
			e->w[0] = e->w[1] = 0;
	}
	tm->compacted = 0; /* zeros to drop */
	flame__time_compact(tm);
}

static int rewrite_weights(flame_tree *t, flame__rewrite_fn fn, void *ud, flame_err *err)
{
	flame__stacks *s = &t->stacks;
	uint64_t total[2] = {0, 0};
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < s->count; k++) {
			flame__stack *st = &s->v[k];
			uint64_t w[2] = {st->w[0], st->w[1]};
			int rc = fn(ud, st->ids, st->depth, NULL, w);
			if (rc < 0)
				return status_err(err, rc);
			if (pass == 0) {
				if (total[0] + w[0] < total[0] || total[1] + w[1] < total[1])
					return status_err(err, FLAME_ERANGE);
				total[0] += w[0];
				total[1] += w[1];
			} else {
				st->w[0] = w[0];
				st->w[1] = w[1];
			}
		}
	s->total[0] = total[0];
	s->total[1] = total[1];
	if (t->time)
		rewrite_time_weights(t, fn, ud);
	flame__tree_drop_values(t); /* column 0 no longer its type's values */
	t->nodes_valid = 0;
	return 0;
}

int flame__tree_rewrite(flame_tree *t, flame__rewrite_fn fn, void *ud, int flags,
                        flame_err *err)
{
	int rc = unspill(t, err);
	if (rc)
		return rc;
	if (flags & FLAME__REWRITE_WEIGHTS)
		return rewrite_weights(t, fn, ud, err);
	const flame__stacks *s = &t->stacks;
	uint32_t *out = malloc(max_depth(s) * sizeof *out);
	/* where each stack went, for the time and values tables (UINT32_MAX: dropped) */
	int keyed = t->time || t->values;
	uint32_t *at = keyed ? malloc((s->count ? s->count : 1) * sizeof *at) : NULL;
	flame__stacks fresh;
	flame__stacks_init(&fresh);
	fresh.labelled = s->labelled; /* a stack keeps its set, stacks equal in both summed */
	fresh.sorted = !s->labelled;
	if (!out || (keyed && !at)) {
		free(out);
		free(at);
		return flame__err_nomem(err);
	}
	for (size_t k = 0; k < s->count && !rc; k++) {
		const flame__stack *st = &s->v[k];
		uint64_t w[2] = {st->w[0], st->w[1]};
		int d = fn(ud, st->ids, st->depth, out, w);
		if (at)
			at[k] = UINT32_MAX;
		fresh.label = flame__stack_label(s, st);
		if (d > 0)
			d = flame__stacks_add_at(&fresh, out, (size_t)d, flame__stacks_hash(out, (size_t)d),
			                         w[0], w[1], at ? &at[k] : NULL);
		if (d < 0)
			rc = status_err(err, d);
	}
	free(out);
	if (rc) {
		free(at);
		flame__stacks_free(&fresh);
		return rc;
	}
	if (t->time)
		flame__time_remap(t->time, at, s->count);
	if (t->values && (rc = flame__values_move(t->values, t->values, at, s->count)))
		flame__tree_drop_values(t); /* a sum past int64: the rows stop being true */
	free(at);
	fresh.label = 0;
	flame__tree_replace_stacks(t, &fresh);
	return 0;
}

int flame__tree_has_stacks(const flame_tree *t)
{
	return t->stacks.count > 0 || flame__tree_spilled(t);
}

int flame_tree_set_memory_limit(flame_tree *t, size_t bytes)
{
	t->spill_limit = bytes;
	return 0;
}
uint64_t flame_tree_total(const flame_tree *t, int col)
{
	return (col == 0 || col == 1) ? t->stacks.total[col] : 0;
}
unsigned flame_tree_decimals(const flame_tree *t) { return t->scale; }
int flame_tree_is_differential(const flame_tree *t)
{
	return t->differential || t->stacks.total[1] != 0;
}

const char *flame_tree_count_name(const flame_tree *t)
{
	return t->units.name[0] ? t->units.name : NULL;
}

int flame_tree_set_count_name(flame_tree *t, const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n >= sizeof t->units.name)
		return FLAME_EUSAGE;
	memcpy(t->units.name, name ? name : "", n);
	t->units.name[n] = '\0';
	return 0;
}

/* ---- units (core/units.c has the rule) */

/* Whether a second unit could conflict: the tree stands for stacks already. */
static int holds_stacks(const flame_tree *t)
{
	return flame__tree_has_stacks(t) || t->differential;
}

const flame__units *flame__tree_units(const flame_tree *t) { return &t->units; }

int flame__units_record(flame_tree *t, const char *unit, const char *type, const char *source,
                        flame_err *err)
{
	return flame__units_take(&t->units, holds_stacks(t), unit, type, source, err);
}

int flame__units_join(flame_tree *dst, const flame_tree *src, flame_err *err)
{
	return flame__units_add(&dst->units, holds_stacks(dst), &src->units, err);
}

int flame__units_set_pprof(flame_tree *t, const char *type, const char *ptype,
                           const char *punit, uint64_t period, int with_samples)
{
	flame__units_describe(&t->units, holds_stacks(t), type, ptype, punit, period, with_samples);
	return 0;
}

void flame__units_set_duration(flame_tree *t, uint64_t ns) { flame__units_widen(&t->units, ns); }

int flame__units_cpu_time(const flame_tree *t) { return flame__units_is_cpu_time(&t->units); }

void flame_tree_set_ignore_units(flame_tree *t, int on) { t->units.ignore = !!on; }

uint64_t flame_tree_duration(const flame_tree *t) { return t->units.duration_ns; }

int flame_tree_each_stack(flame_tree *t, flame_stack_fn fn, void *ud, flame_err *err)
{
	int rc = unspill(t, err);
	if (rc)
		return rc;
	size_t maxd = 1;
	for (size_t k = 0; k < t->stacks.count; k++)
		if (t->stacks.v[k].depth > maxd)
			maxd = t->stacks.v[k].depth;
	flame_str *fr = malloc(maxd * sizeof *fr);
	if (!fr)
		return flame__err_nomem(err);
	for (size_t k = 0; k < t->stacks.count && !rc; k++) {
		const flame__stack *st = &t->stacks.v[k];
		for (uint32_t i = 0; i < st->depth; i++) {
			const flame__name *nm = flame__intern_get(&t->names, st->ids[i]);
			fr[i] = (flame_str){nm->ptr, nm->len};
		}
		rc = fn(ud, fr, st->depth, st->w[0], st->w[1]);
	}
	free(fr);
	return rc;
}

int flame__tree_frame_order(const flame_tree *t, flame__frame_order *fo)
{
	return flame__order_frames(&t->names, &t->stacks, fo);
}

/* ---- node tree */

static uint32_t new_node(flame_tree *t, uint32_t name, uint32_t parent, uint32_t depth)
{
	/* ids stay below FLAME_NODE_NONE */
	if (flame__array_reserve_upto(t->nodes, t->node_cap, t->node_count + 1, 1024,
	                              (size_t)FLAME_NODE_NONE - 1))
		return FLAME_NODE_NONE;
	uint32_t id = (uint32_t)t->node_count++;
	t->nodes[id] = (flame__node){name, parent, FLAME_NODE_NONE, FLAME_NODE_NONE, depth,
	                             {0, 0}, {0, 0}};
	return id;
}

struct weight_ctx {
	const flame__node *nodes;
	const uint32_t *rank;
};

static int cmp_by_weight(const void *a, const void *b, void *ud)
{
	const struct weight_ctx *c = ud;
	const flame__node *x = &c->nodes[*(const uint32_t *)a], *y = &c->nodes[*(const uint32_t *)b];
	if (x->total[0] != y->total[0])
		return x->total[0] > y->total[0] ? -1 : 1;
	return c->rank[x->name] < c->rank[y->name] ? -1 : 1;
}

static int sort_children_by_weight(flame_tree *t, const uint32_t *rank)
{
	uint32_t *kids = NULL;
	size_t cap = 0;
	struct weight_ctx c = {t->nodes, rank};
	for (size_t p = 0; p < t->node_count; p++) {
		size_t n = 0;
		for (uint32_t k = t->nodes[p].first_child; k != FLAME_NODE_NONE;
		     k = t->nodes[k].next_sibling) {
			if (flame__array_reserve_min(kids, cap, n + 1, 64)) {
				free(kids);
				return FLAME_ENOMEM;
			}
			kids[n++] = k;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof *kids, cmp_by_weight, &c);
		t->nodes[p].first_child = kids[0];
		for (size_t i = 0; i + 1 < n; i++)
			t->nodes[kids[i]].next_sibling = kids[i + 1];
		t->nodes[kids[n - 1]].next_sibling = FLAME_NODE_NONE;
	}
	free(kids);
	return 0;
}

/* The nodes of the stacks in frame order `fo`, then their totals: each stack opens only
 * the frames past the prefix it shares with the one before. 0 or FLAME_ENOMEM. */
static int make_nodes(flame_tree *t, const flame__frame_order *fo)
{
	uint32_t maxd = max_depth(&t->stacks);
	uint32_t *path = malloc(((size_t)maxd + 1) * sizeof *path);
	uint32_t *last = malloc(((size_t)maxd + 1) * sizeof *last);
	int rc = FLAME_ENOMEM;
	t->node_count = 0;
	if (!path || !last || (path[0] = new_node(t, t->root_name, FLAME_NODE_NONE, 0)) == FLAME_NODE_NONE)
		goto done;
	last[0] = FLAME_NODE_NONE;
	const flame__stack *prev = NULL;
	for (size_t s = 0; s < t->stacks.count; s++) {
		const flame__stack *st = &t->stacks.v[fo->idx ? fo->idx[s] : s];
		uint32_t cp = 0;
		if (fo->lcp) {
			cp = fo->lcp[s];
		} else if (prev) {
			uint32_t n = prev->depth < st->depth ? prev->depth : st->depth;
			while (cp < n && prev->ids[cp] == st->ids[cp])
				cp++;
		}
		for (uint32_t d = cp; d < st->depth; d++) {
			uint32_t parent = path[d];
			uint32_t nd = new_node(t, st->ids[d], parent, d + 1);
			if (nd == FLAME_NODE_NONE)
				goto done;
			if (last[d] == FLAME_NODE_NONE)
				t->nodes[parent].first_child = nd;
			else
				t->nodes[last[d]].next_sibling = nd;
			last[d] = nd;
			path[d + 1] = nd;
			last[d + 1] = FLAME_NODE_NONE;
		}
		flame__node *leaf = &t->nodes[path[st->depth]];
		leaf->self[0] += st->w[0];
		leaf->self[1] += st->w[1];
		prev = st;
	}
	/* nodes were created parent-first: a reverse sweep sums totals bottom-up */
	for (size_t i = t->node_count; i-- > 0;) {
		flame__node *nd = &t->nodes[i];
		nd->total[0] += nd->self[0];
		nd->total[1] += nd->self[1];
		if (nd->parent != FLAME_NODE_NONE) {
			t->nodes[nd->parent].total[0] += nd->total[0];
			t->nodes[nd->parent].total[1] += nd->total[1];
		}
	}
	rc = 0;
done:
	free(path);
	free(last);
	return rc;
}

int flame_tree_build(flame_tree *t, flame_order order, flame_err *err)
{
	if (t->nodes_valid && t->order == order)
		return 0;
	int rc = unspill(t, err);
	if (rc)
		return rc;
	uint32_t *rank = NULL;
	flame__frame_order fo = {NULL, NULL, NULL};
	t->nodes_valid = 0; /* (a failure leaves no half-built tree to read) */
	if (flame__tree_frame_order(t, &fo) ||
	    (order == FLAME_ORDER_WEIGHT && !(rank = flame__order_name_ranks(&t->names))) ||
	    make_nodes(t, &fo) || (order == FLAME_ORDER_WEIGHT && sort_children_by_weight(t, rank))) {
		rc = flame__err_nomem(err);
	} else {
		t->order = order;
		t->nodes_valid = 1;
	}
	free(rank);
	flame__frame_order_free(&fo);
	return rc;
}

/* Checked node access: an id out of range (FLAME_NODE_NONE included) or a node tree
 * made stale by a change of the stacks gives no node, and the accessors a defined value
 * (an empty name, FLAME_NODE_NONE, 0), never a read out of bounds. */
static const flame__node *node_at(const flame_tree *t, flame_node n)
{
	return t && t->nodes_valid && n < t->node_count ? &t->nodes[n] : NULL;
}

size_t flame_tree_node_count(const flame_tree *t) { return t->nodes_valid ? t->node_count : 0; }

flame_str flame_node_name(const flame_tree *t, flame_node n)
{
	const flame__node *nd = node_at(t, n);
	if (!nd)
		return (flame_str){"", 0};
	const flame__name *nm = flame__intern_get(&t->names, nd->name);
	return (flame_str){nm->ptr, nm->len};
}
flame_node flame_node_parent(const flame_tree *t, flame_node n)
{
	const flame__node *nd = node_at(t, n);
	return nd ? nd->parent : FLAME_NODE_NONE;
}
flame_node flame_node_first_child(const flame_tree *t, flame_node n)
{
	const flame__node *nd = node_at(t, n);
	return nd ? nd->first_child : FLAME_NODE_NONE;
}
flame_node flame_node_next_sibling(const flame_tree *t, flame_node n)
{
	const flame__node *nd = node_at(t, n);
	return nd ? nd->next_sibling : FLAME_NODE_NONE;
}
uint32_t flame_node_depth(const flame_tree *t, flame_node n)
{
	const flame__node *nd = node_at(t, n);
	return nd ? nd->depth : 0;
}
uint64_t flame_node_self(const flame_tree *t, flame_node n, int col)
{
	const flame__node *nd = node_at(t, n);
	return nd && (col == 0 || col == 1) ? nd->self[col] : 0;
}
uint64_t flame_node_total(const flame_tree *t, flame_node n, int col)
{
	const flame__node *nd = node_at(t, n);
	return nd && (col == 0 || col == 1) ? nd->total[col] : 0;
}

int flame_tree_weight(flame_tree *t, uint64_t num, unsigned decimals, flame_err *err)
{
	flame__stacks *s;
	int rc = flame__tree_stacks(t, &s, err); /* spilled runs are weighed too */
	unsigned before = t->scale;
	if (!rc)
		rc = flame__stacks_weigh(s, &t->scale, num, decimals, "", err);
	if (!rc && t->time) { /* the same factor: num over the decimals weigh did not add */
		uint64_t n = num;
		for (unsigned d = decimals - (t->scale - before); d; d--)
			n /= 10;
		flame__time_scale(t->time, n);
	}
	flame__tree_drop_values(t); /* column 0 weighed: no longer its type's values */
	t->nodes_valid = 0;
	return rc;
}

void flame__tree_set_drain(flame_tree *t, size_t limit,
                           int (*fn)(void *ud, flame_tree *t, flame_err *err), void *ud)
{
	t->spill_limit = limit;
	t->drain = fn;
	t->drain_ud = ud;
}

void flame__tree_take_stacks(flame_tree *t, flame__stacks *out)
{
	*out = t->stacks;
	flame__stacks_init(&t->stacks);
	t->nodes_valid = 0;
}

int flame__tree_marked_differential(const flame_tree *t) { return t->differential; }

struct flame__values *flame__tree_values(const flame_tree *t) { return t->values; }

void flame__tree_set_values(flame_tree *t, struct flame__values *vt)
{
	flame__values_free(t->values);
	t->values = vt;
}

void flame__tree_drop_values(flame_tree *t) { flame__tree_set_values(t, NULL); }

int flame__tree_reversed(const flame_tree *t) { return t->reversed; }

void flame__tree_set_reversed(flame_tree *t, int reversed) { t->reversed = reversed != 0; }
