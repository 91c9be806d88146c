/* The samples of a pprof profile to stacks (parse/, the last step of pprof.c): each
 * Sample's location ids, leaf first, become the root-first frame ids pprof-frames.c laid
 * out, cut where drop_frames says, and are added with the chosen value to the tree. Two
 * paths: the common sample (no label filter, no --group-by, well formed) is decoded in
 * one walk with each location id resolved as it is read, and queued a few samples deep so
 * its table slot is fetched while the next ones decode; any other goes through the
 * general reader, which also words every error. Values are int64: positive ones go
 * straight to the tree; negative ones (diff profiles) are subtracted once all are read,
 * and a stack whose sum is negative is dropped with a warning (folded counts are >= 0).
 * A tree keeping every sample type's values (core/values.h) takes each sample's row beside
 * its stack, through the general reader: a stack whose chosen value is 0 or negative is
 * added with weight 0 then, so its other values have a stack to sit on. */
#include <inttypes.h>
#include <stdlib.h>
#include "../core/err.h"
#include "../core/labels.h"
#include "../core/prefetch.h"
#include "../core/tree.h"
#include "../core/values.h"
#include "pprof.h"

/* The fast path keeps a few decoded samples before adding them, so the table slot each
 * one lands in (a cache miss on big tables) is loaded while the next ones decode. */
enum { PIPE = 3 };
typedef struct pending {
	uint32_t *ids;
	size_t depth, cap;
	int64_t v;
	uint64_t hash, off;
} pending;

typedef struct sampler {
	flame__sink *k; /* where the stacks go */
	const flame__pp *p;
	const flame__pp_filters *fl;
	const flame_parse_opts *o;
	size_t vidx;
	uint64_t *locids; /* the sample's location ids, then their indexes or frames */
	size_t nloc, caploc;
	flame__array(flame__pp_label) labels;
	struct flame__labels *sets; /* the tree keeps labels: each sample's set */
	flame__values *vt;          /* the tree keeps every type's values: each sample's row */
	int64_t *row;               /* the sample's values (vt's ntypes) */
	flame_label *lv;            /* a sample's labels as the set table takes them */
	size_t caplv;
	uint32_t *ids;
	size_t capids;
	flame__pp_text nb;
	uint64_t frame_budget;
	flame__stacks neg;     /* magnitudes of negative values, subtracted at the end */
	pending pend[PIPE];    /* decoded samples not yet in the table */
	size_t npend, head;
} sampler;

static int too_deep(const sampler *s, uint64_t off, flame_err *err)
{
	return flame__err(err, FLAME_ERANGE, s->p->src, 0, off,
	                  "invalid pprof: a stack of more than %zu frames", FLAME__PP_MAX_DEPTH);
}

static int overflow(const sampler *s, uint64_t off, flame_err *err)
{
	return flame__err(err, FLAME_ERANGE, s->p->src, 0, off,
	                  "invalid pprof: sample values overflow 64 bits");
}

/* One step of the drop_frames cut over a sample's locations, leaf first (`l` NULL: a
 * location taken as a user frame): the cut is at the root-most pruned location below
 * some user frame. 1 when location i decides it (*lo: the first location kept). */
static inline int prune_cut(const flame__pp_loc *l, size_t i, int *found_user, size_t *lo)
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

/* ---- the general path */

/* Field 1 (location ids) or 2 (values) of the sample `f`, packed or not. */
static int decode_ids(sampler *s, const flame__pbuf *sb, const flame__pfield *g,
                      const flame__pfield *f, size_t *nvals, int64_t *v, flame_err *err)
{
	flame__prep rep;
	uint64_t x;
	int r;
	if ((r = flame__prep_start(&rep, sb, g, err)))
		return r;
	while ((r = flame__prep_next(&rep, sb, &x, err)) > 0) {
		if (g->num == 2) {
			if (s->row && *nvals < s->vt->ntypes)
				s->row[*nvals] = (int64_t)x;
			if ((*nvals)++ == s->vidx)
				*v = (int64_t)x;
			continue;
		}
		if (s->nloc >= FLAME__PP_MAX_DEPTH) /* every location is at least one frame */
			return too_deep(s, f->off, err);
		if (flame__array_reserve(s->locids, s->caploc, s->nloc + 1))
			return flame__err_nomem(err);
		s->locids[s->nloc++] = x;
	}
	return r;
}

/* The sample `f` decoded: its location ids, labels (when a filter wants them) and value. */
static int decode_sample(sampler *s, const flame__pbuf *b, const flame__pfield *f, int64_t *v,
                         flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	int want_labels = flame__pp_filters_any(s->fl) || s->sets;
	size_t nvals = 0;
	*v = 0;
	s->nloc = s->labels.n = 0;
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		if (g.num == 1 || g.num == 2) {
			if ((r = decode_ids(s, &sb, &g, f, &nvals, v, err)) < 0)
				return r;
		} else if (g.num == 3 && want_labels) {
			if (flame__array_reserve(s->labels.v, s->labels.cap, s->labels.n + 1))
				return flame__err_nomem(err);
			if ((r = flame__pp_label_decode(s->p, &sb, &g, &s->labels.v[s->labels.n++], err)))
				return r;
		}
	}
	if (r < 0)
		return r;
	if (nvals != s->p->st.n)
		return flame__err(err, FLAME_EDATA, s->p->src, 0, f->off,
		                  "invalid pprof: sample has %zu values, expected one per sample type "
		                  "(%zu)", nvals, s->p->st.n);
	return 0;
}

/* The decoded sample's stack, root-first, into s->ids (*depth frames, 0: none left). */
static int sample_stack(sampler *s, const flame__pfield *f, size_t *depth, flame_err *err)
{
	const flame__pp *p = s->p;
	size_t lo = 0, d = 0;
	int found_user = 0;
	/* locations, leaf first: resolve, find the prune cut, count frames */
	for (size_t i = s->nloc; i-- > 0;) {
		uint32_t li = flame__pp_ids_get(&p->locm, s->locids[i]);
		if (!li)
			return flame__err(err, FLAME_EDATA, p->src, 0, f->off,
			                  "invalid pprof: sample refers to location id %" PRIu64
			                  ", which is not defined", s->locids[i]);
		s->locids[i] = li - 1; /* reuse the slot for the index */
	}
	for (size_t i = s->nloc; i-- > 0;)
		if (prune_cut(&p->locs.v[s->locids[i]], i, &found_user, &lo))
			break;
	for (size_t i = lo; i < s->nloc; i++)
		d += p->locs.v[s->locids[i]].fcount;
	*depth = 0;
	if (d == 0)
		return 0;
	d += s->fl->group_by != NULL;
	if (d > FLAME__PP_MAX_DEPTH)
		return too_deep(s, f->off, err);
	if (d > s->frame_budget)
		return flame__err(err, FLAME_ERANGE, p->src, 0, f->off,
		                  "invalid pprof: the samples expand to more than %d frames per byte "
		                  "of input", FLAME__PP_FRAMES_PER_BYTE);
	s->frame_budget -= d;
	if (flame__array_reserve_min(s->ids, s->capids, d, 256))
		return flame__err_nomem(err);
	if (s->fl->group_by && flame__pp_group_frame(s->k, p, s->fl->group_by, s->labels.v,
	                                             s->labels.n, &s->nb, &s->ids[(*depth)++]))
		return flame__err_nomem(err);
	for (size_t i = s->nloc; i-- > lo;) {
		const flame__pp_loc *l = &p->locs.v[s->locids[i]];
		memcpy(s->ids + *depth, p->frames + l->fstart, l->fcount * sizeof *s->ids);
		*depth += l->fcount;
	}
	return 0;
}

/* The decoded sample's label set (s->sets) for the stacks added next. */
static int label_sample(sampler *s, flame_err *err)
{
	if (flame__array_reserve(s->lv, s->caplv, s->labels.n))
		return flame__err_nomem(err);
	for (size_t i = 0; i < s->labels.n; i++) {
		const flame__pp_label *lb = &s->labels.v[i];
		s->lv[i] = (flame_label){flame__pp_str(s->p, lb->key), flame__pp_str(s->p, lb->str),
		                         lb->num, flame__pp_str(s->p, lb->unit), lb->is_num};
	}
	uint32_t set = flame__labels_put(s->sets, s->lv, s->labels.n);
	if (set == FLAME__ID_NONE)
		return flame__err_nomem(err);
	flame__sink_label(s->k, set);
	s->neg.label = set;
	return 0;
}

/* Whether the decoded sample has a value other than 0 in a type besides the chosen one. */
static int other_values(const sampler *s)
{
	for (size_t i = 0; s->vt && i < s->vt->ntypes; i++)
		if (s->row[i] && i != s->vidx)
			return 1;
	return 0;
}

/* The sample's stack (s->ids, d frames) with weight w in the columns `in`, and its row of
 * values beside it. */
static int add_valued(sampler *s, size_t d, uint64_t w, const uint64_t in[2], flame_err *err)
{
	uint32_t at;
	int r = flame__sink_add_at(s->k, s->ids, d, w * in[0], w * in[1], &at, err);
	if (!r && (r = flame__values_add(s->vt, at, s->row)) == FLAME_ENOMEM)
		r = flame__err_nomem(err);
	return r;
}

/* The sample `f` read by the general reader, filtered and added. */
static int one_sample(sampler *s, const flame__pbuf *b, const flame__pfield *f, flame_err *err)
{
	int64_t v;
	uint64_t in[2] = {1, 0}; /* the columns the sample counts in */
	size_t d = 0;
	int r;
	if ((r = decode_sample(s, b, f, &v, err)))
		return r;
	if ((v == 0 && !other_values(s)) || s->nloc == 0)
		return 0;
	if (flame__pp_filters_any(s->fl))
		flame__pp_filters_columns(s->fl, s->p, s->labels.v, s->labels.n, &s->nb, in);
	if ((!in[0] && !in[1]) || (r = sample_stack(s, f, &d, err)) || d == 0)
		return r;
	if (s->sets && (r = label_sample(s, err)))
		return r;
	/* positive values go straight to the tree; negative ones are subtracted at the end */
	uint64_t mag = v > 0 ? (uint64_t)v : (uint64_t)0 - (uint64_t)v;
	if (s->vt)
		r = add_valued(s, d, v > 0 ? mag : 0, in, err);
	else if (v > 0)
		r = flame__sink_add(s->k, s->ids, d, mag * in[0], mag * in[1], err);
	if (!r && v < 0 &&
	    (r = flame__stacks_add(&s->neg, s->ids, d, mag * in[0], mag * in[1])) == FLAME_ENOMEM)
		r = flame__err_nomem(err);
	return r == FLAME_ERANGE ? overflow(s, f->off, err) : r;
}

/* ---- the fast path */

/* A sample's location reference as the fast path keeps it: a frame id, or
 * LOC_REF | index of a location to expand (or to check for pruning). */
#define LOC_REF ((uint64_t)1 << 32)

static inline int add_loc(const flame__pp *p, uint64_t id, uint64_t *out, size_t *depth)
{
	uint32_t u;
	if (p->lone) {
		u = id < p->locm.ndense ? p->lone[id] : FLAME__PP_LONE_NONE;
		if (u < FLAME__PP_LONE_LOC) {
			*out = u;
			(*depth)++;
			return 0;
		}
		if (u == FLAME__PP_LONE_NONE)
			return -1;
		u = p->locm.dense[id] - 1;
	} else {
		uint32_t x = flame__pp_ids_get(&p->locm, id);
		if (!x)
			return -1;
		u = x - 1;
	}
	*out = LOC_REF | u;
	*depth += p->locs.v[u].fcount;
	return 0;
}

/* Add the oldest pending sample to its table. */
static int add_oldest(sampler *s, flame_err *err)
{
	pending *pd = &s->pend[s->head];
	s->head = (s->head + 1) % PIPE;
	s->npend--;
	int rc = pd->v > 0 ? flame__sink_add_hashed(s->k, pd->ids, pd->depth, pd->hash,
	                                            (uint64_t)pd->v, 0, err)
	                   : flame__stacks_add_hashed(&s->neg, pd->ids, pd->depth, pd->hash,
	                                              (uint64_t)0 - (uint64_t)pd->v, 0);
	if (pd->v <= 0 && rc == FLAME_ENOMEM)
		rc = flame__err_nomem(err);
	return rc == FLAME_ERANGE ? overflow(s, pd->off, err) : rc;
}

static int add_pending(sampler *s, flame_err *err)
{
	int rc = 0;
	while (s->npend && !rc)
		rc = add_oldest(s, err);
	return rc;
}

/* What the fast walk found in a sample. */
typedef struct walked {
	size_t nvals, nloc, depth;
	int64_t v;
	int missing; /* a location id no location has */
} walked;

/* A run of field 1 or 2 from *qp to e: packed, or one value when `one`. */
static int walk_run(sampler *s, uint64_t num, const uint8_t **qp, const uint8_t *e, int one,
                    walked *w, flame_err *err)
{
	const uint8_t *q = *qp;
	uint64_t x;
	if (num == 2) {
		while (q < e) {
			if (flame__pbuf_quick_varint(&q, e, &x))
				return 1;
			if (w->nvals++ == s->vidx)
				w->v = (int64_t)x;
			if (one)
				break;
		}
		*qp = q;
		return 0;
	}
	size_t most = w->nloc + (one ? 1 : (size_t)(e - q));
	if (most > FLAME__PP_MAX_DEPTH)
		return 1;
	if (most > s->caploc && flame__array_reserve(s->locids, s->caploc, most))
		return flame__err_nomem(err);
	while (q < e) {
		if (flame__pbuf_quick_varint(&q, e, &x))
			return 1;
		if (add_loc(s->p, x, &s->locids[w->nloc], &w->depth))
			w->missing = 1;
		w->nloc++;
		if (one)
			break;
	}
	*qp = q;
	return 0;
}

/* The sample `f` in one walk: 0, < 0 out of memory, 1 for the general reader. */
static int walk_sample(sampler *s, const flame__pfield *f, walked *w, flame_err *err)
{
	const uint8_t *q = f->data, *end = q + f->len;
	int r;
	*w = (walked){0};
	while (q < end) {
		uint64_t num, len;
		unsigned wt;
		if (flame__pbuf_quick_key(&q, end, &num, &wt))
			return 1;
		if (num != 1 && num != 2) {
			if (flame__pbuf_quick_skip(&q, end, wt))
				return 1;
			continue;
		}
		const uint8_t *e = end; /* a packed run [q, e), or one unpacked value */
		if (wt == FLAME__WT_LEN) {
			if (flame__pbuf_quick_varint(&q, end, &len) || len > (uint64_t)(end - q))
				return 1;
			e = q + len;
		} else if (wt != FLAME__WT_VARINT) {
			return 1;
		}
		if ((r = walk_run(s, num, &q, e, wt == FLAME__WT_VARINT, w, err)))
			return r;
	}
	return 0;
}

/* Where drop_frames cuts the walked sample: its first location kept (0: none cut), with
 * its depth from there. */
static size_t fast_prune(const sampler *s, size_t nloc, size_t *depth)
{
	const flame__pp *p = s->p;
	size_t lo = 0;
	int found_user = 0;
	for (size_t i = nloc; i-- > 0;) {
		uint64_t r = s->locids[i];
		if (prune_cut(r & LOC_REF ? &p->locs.v[(uint32_t)r] : NULL, i, &found_user, &lo))
			break;
	}
	if (lo) {
		*depth = 0;
		for (size_t i = lo; i < nloc; i++) {
			uint64_t r = s->locids[i];
			*depth += r & LOC_REF ? p->locs.v[(uint32_t)r].fcount : 1;
		}
	}
	return lo;
}

/* Queue the walked sample's stack (its locations from lo on), fetching its table slot
 * and the entry of the one queued before (whose slot is loaded by now). */
static int fast_queue(sampler *s, const flame__pfield *f, const walked *w, size_t lo,
                      size_t depth, flame_err *err)
{
	const flame__pp *p = s->p;
	int rc;
	if (s->npend == PIPE && (rc = add_oldest(s, err)))
		return rc;
	pending *pd = &s->pend[(s->head + s->npend) % PIPE];
	if (depth > pd->cap && flame__array_reserve(pd->ids, pd->cap, depth))
		return flame__err_nomem(err);
	size_t d = 0;
	for (size_t i = w->nloc; i-- > lo;) {
		uint64_t r = s->locids[i];
		if (!(r & LOC_REF)) {
			pd->ids[d++] = (uint32_t)r;
			continue;
		}
		const flame__pp_loc *l = &p->locs.v[(uint32_t)r];
		memcpy(pd->ids + d, p->frames + l->fstart, l->fcount * sizeof *pd->ids);
		d += l->fcount;
	}
	pd->depth = d;
	pd->v = w->v;
	pd->off = f->off;
	pd->hash = flame__stacks_hash(pd->ids, d);
	const flame__stacks *st = s->k->stacks;
	if (w->v > 0 && st->slots) {
		flame__prefetch(&st->slots[(uint32_t)pd->hash & st->mask]);
		if (s->npend) {
			const pending *prev = &s->pend[(s->head + s->npend - 1) % PIPE];
			uint32_t k = prev->v > 0 ? st->slots[(uint32_t)prev->hash & st->mask] : 0;
			if (k && k <= st->count)
				flame__prefetch(&st->v[k - 1]);
		}
	}
	s->npend++;
	return 0;
}

/* The common sample: 0 when done, < 0 on an error of its own, 1 when the sample needs
 * one_sample. */
static int sample_fast(sampler *s, const flame__pfield *f, flame_err *err)
{
	walked w;
	int r = walk_sample(s, f, &w, err);
	if (r)
		return r;
	if (w.nvals != s->p->st.n)
		return 1;
	if (w.v == 0 || w.nloc == 0)
		return 0;
	if (w.missing)
		return 1;
	size_t depth = w.depth, lo = s->p->drop ? fast_prune(s, w.nloc, &depth) : 0;
	if (depth == 0)
		return 0;
	if (depth > FLAME__PP_MAX_DEPTH || depth > s->frame_budget)
		return 1;
	s->frame_budget -= depth;
	return fast_queue(s, f, &w, lo, depth, err);
}

/* ---- all samples */

/* The table without the stacks that subtracting emptied (those with other values keep
 * their place in the new table, their rows moved with them). */
static int drop_empty(flame_tree *t, const flame__stacks *ts, flame_err *err)
{
	flame__values *vt = flame__tree_values(t);
	uint32_t *at = vt ? malloc((ts->count ? ts->count : 1) * sizeof *at) : NULL;
	flame__stacks fresh;
	flame__stacks_init(&fresh);
	fresh.labelled = ts->labelled;
	fresh.sorted = !ts->labelled;
	int rc = vt && !at ? FLAME_ENOMEM : 0;
	for (size_t k = 0; k < ts->count && !rc; k++) {
		const flame__stack *x = &ts->v[k];
		uint32_t where = UINT32_MAX;
		fresh.label = flame__stack_label(ts, x);
		if (x->w[0] || x->w[1] || (vt && flame__values_any(vt, (uint32_t)k)))
			rc = flame__stacks_add_at(&fresh, x->ids, x->depth,
			                          flame__stacks_hash(x->ids, x->depth), x->w[0], x->w[1],
			                          &where);
		if (at)
			at[k] = where;
	}
	if (!rc && vt)
		rc = flame__values_move(vt, vt, at, ts->count);
	free(at);
	if (rc) {
		flame__stacks_free(&fresh);
		return rc == FLAME_ENOMEM ? flame__err_nomem(err)
		                          : flame__err(err, rc, "", 0, FLAME__NO_OFFSET,
		                                       "invalid pprof: sample values overflow 64 bits");
	}
	fresh.label = 0;
	flame__tree_replace_stacks(t, &fresh);
	flame__stacks_free(&fresh);
	return 0;
}

/* Subtract the negative values; stacks whose sum is not positive are dropped (folded
 * counts are >= 0), with a warning when the sum was negative. */
static int subtract_negative(sampler *s, flame_err *err)
{
	if (!s->neg.count)
		return 0;
	flame__stacks *ts; /* spilled stacks are read back: they may hold ones to subtract */
	int rc = flame__tree_stacks(s->k->t, &ts, err);
	if (rc)
		return rc;
	uint64_t dropped = 0;
	int emptied = 0;
	for (size_t k = 0; k < s->neg.count; k++) {
		const flame__stack *n = &s->neg.v[k];
		flame__stack *x;
		ts->label = flame__stack_label(&s->neg, n);
		if (flame__stacks_find(ts, n->ids, n->depth,
		                       ts->labelled ? flame__stacks_hash(n->ids, n->depth) : n->hash32, &x))
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
	ts->label = 0;
	if (emptied && (rc = drop_empty(s->k->t, ts, err)))
		return rc;
	if (dropped)
		flame__warn(s->o->warn, s->o->warn_ud, "pprof-negative", s->p->src, 0,
		            "%" PRIu64 " stacks with a negative total value were dropped", dropped);
	return 0;
}

static int pass_samples(sampler *s, flame_err *err)
{
	const flame__pp *p = s->p;
	flame__pbuf b;
	flame__pfield f;
	int r = 0;
	int fast = !flame__pp_filters_any(s->fl) && !s->sets && !s->vt;
	for (size_t run = 0; run < p->sruns.n && r >= 0; run++) {
		/* a run holds nothing but samples, as pass 1 read it */
		flame__pbuf_init(&b, p->buf, p->sruns.v[run].end, p->src);
		b.p = p->buf + p->sruns.v[run].start;
		while ((r = flame__pbuf_next(&b, &f, err)) > 0) {
			if ((r = flame__pp_want_wt(p, &f, FLAME__WT_LEN, "sample", err)))
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

int flame__pp_samples(flame__sink *k, const flame__pp *p, const flame__pp_filters *fl,
                      size_t vidx, const flame_parse_opts *o, flame_err *err)
{
	sampler s = {.k = k, .p = p, .fl = fl, .o = o, .vidx = vidx,
	             .frame_budget = (uint64_t)p->len * FLAME__PP_FRAMES_PER_BYTE +
	                             FLAME__PP_MAX_DEPTH};
	flame__stacks_init(&s.neg);
	s.sets = flame__tree_labels(k->t);
	s.vt = flame__tree_values(k->t);
	if (s.vt && !(s.row = calloc(s.vt->ntypes, sizeof *s.row)))
		return flame__err_nomem(err);
	s.neg.labelled = s.sets != NULL;
	s.neg.sorted = !s.neg.labelled;
	int r = pass_samples(&s, err);
	flame__sink_label(k, 0);
	if (!r)
		r = subtract_negative(&s, err);
	free(s.locids);
	flame__array_free(s.labels);
	free(s.lv);
	free(s.ids);
	for (size_t i = 0; i < PIPE; i++)
		free(s.pend[i].ids);
	free(s.nb.p);
	free(s.row);
	flame__stacks_free(&s.neg);
	return r;
}
