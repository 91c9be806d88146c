/* The events of a binary JFR recording into stacks (see jfr-bin.h), chosen and weighed
 * as the JFR text reader (parse/jfr.c) does with what `jfr print` shows of them: the same
 * event type picked (--event, else jdk.ExecutionSample when the input has any, else the
 * first type seen with stacks), the thread for --threads (sampledThread, else
 * eventThread), and the weights: allocation sizes in bytes, durations in nanoseconds,
 * else one per event; here sizes and durations are exact where the text rounds them.
 * Stack traces and threads are named by jfr-names.c, once per chunk; a chunk's events are
 * summed per stack trace and thread, then kept per type until the end, when the chosen
 * type's go to the tree. When the tree keeps time, each event's startTime is kept too, on
 * the wall clock (the chunk header's start in ns and in ticks): the JFR text reader's
 * times, to the nanosecond where jfr print gives milliseconds of the day. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/hash.h"
#include "../core/labels.h"
#include "../core/stacks.h"
#include "jfr-names.h"
#include "parser.h"

enum { W_COUNT, W_BYTES };
enum { NONE = -1, BAD = 1 }; /* BAD: bad bytes, told by the caller who knows where */

typedef struct evtype {
	char *name;
	int kind;            /* W_BYTES: weighed by wfield; else by duration or one */
	const char *wfield;
	int saw_duration;    /* a duration jfr print shows (not 0): weigh by durations */
	int has_stacks;
	uint64_t events, truncated;
	/* events whose stack trace or thread was found only in the chunk before, and their
	 * weight; events whose stack trace is in neither, threads in neither */
	uint64_t prev, prev_weight, lost, lost_threads;
} evtype;

/* What to read of an event of one class of the chunk: which of its fields. */
typedef struct plan {
	int ty;              /* evtype index; NONE until made */
	uint32_t nread;      /* fields read: up to the last of those below */
	uint32_t stack, sampled, thread, weight; /* field index in the class, UINT32_MAX: none */
	uint32_t start;      /* startTime, read only when the tree keeps time */
} plan;

typedef struct agg { /* the events of the chunk on one stack trace (and thread) so far */
	uint32_t st, thread; /* the sent, the thread's name id (0 without --threads) */
	uint64_t amount, count;
} agg;

typedef struct when { /* an event's time, when the tree keeps time */
	uint32_t at;      /* its agg in the chunk, then (flush) its stack in loc */
	int64_t ns;       /* wall clock */
	uint64_t amount;  /* its bytes or nanoseconds (0: weighed by count) */
} when;

struct flame__jfr_events {
	flame__sink k;
	const flame_parse_opts *o;
	unsigned flags;
	const char *src;
	flame__stacks loc; /* [type, (thread), frames root first] -> (amount, count) */
	int threaded;      /* loc's keys hold the thread: --threads, or labels kept */
	struct flame__labels *labels; /* the tree's, when it keeps them: {thread} per stack */
	flame__label_memo sets; /* a thread's name id -> its label set */
	evtype *types;
	size_t ntypes, types_cap;
	flame__jfr_map names; /* hash of an event type's name -> its evtype */
	int want, exec;
	uint64_t events, unknown; /* events, and those of types the metadata does not declare */
	/* per chunk */
	plan *plans;
	size_t plans_cap;
	flame__jfr_names nm;  /* the chunk's stack traces and threads, named */
	agg *agg;             /* the events of type agg_ty by (thread, stack trace) */
	size_t nagg, agg_cap;
	flame__jfr_map amap;  /* (thread, sent) -> agg */
	int agg_ty;
	uint32_t *key;        /* scratch */
	size_t key_cap;
	flame__jfr_chunk *c;
	/* time, when kept: the chunk's events (at: agg), then all (at: loc) */
	int timed;
	flame__array(when) pend;
	flame__array(when) whens;
	uint32_t *agg_at;     /* scratch: agg i's stack in loc, at flush */
	size_t agg_at_cap;
};

int flame__jfr_events_new(flame__jfr_events **out, flame_tree *t, const flame_parse_opts *o,
                          const char *src, flame_err *err)
{
	flame__jfr_events *e = calloc(1, sizeof *e);
	if (!e)
		return flame__err_nomem(err);
	flame__sink_init(&e->k, t);
	e->o = o;
	e->flags = o->jfr_flags;
	e->src = src;
	e->want = e->exec = NONE;
	e->timed = e->k.time != NULL;
	e->labels = flame__tree_labels(t);
	e->threaded = (e->flags & FLAME_JFR_THREADS) || e->labels;
	flame__jfr_names_init(&e->nm, &e->k, e->flags);
	flame__stacks_init(&e->loc);
	*out = e;
	return 0;
}

void flame__jfr_events_free(flame__jfr_events *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->ntypes; i++)
		free(e->types[i].name);
	free(e->types);
	flame__jfr_map_free(&e->names);
	flame__jfr_names_free(&e->nm);
	flame__jfr_map_free(&e->amap);
	free(e->agg);
	free(e->plans);
	free(e->key);
	free(e->agg_at);
	flame__array_free(e->pend);
	flame__array_free(e->whens);
	flame__stacks_free(&e->loc);
	flame__label_memo_free(&e->sets);
	free(e);
}

/* ---- event types, as the text reader keeps them ---- */

static int type_index(flame__jfr_events *e, const char *name, flame_err *err)
{
	uint64_t h = flame__hash_bytes(name, strlen(name));
	int64_t i = flame__jfr_map_get(&e->names, 0, h);
	if (i >= 0)
		return (int)i;
	if (flame__array_reserve_min(e->types, e->types_cap, e->ntypes + 1, 64))
		return flame__err_nomem(err), -2;
	evtype *t = &e->types[e->ntypes];
	memset(t, 0, sizeof *t);
	if (!(t->name = strdup(name)) || flame__jfr_map_put(&e->names, 0, h, (uint32_t)e->ntypes))
		return flame__err_nomem(err), -2;
	static const struct { const char *type, *field; } bytes[] = {
		{"jdk.ObjectAllocationSample", "weight"},
		{"jdk.ObjectAllocationInNewTLAB", "tlabSize"},
		{"jdk.ObjectAllocationOutsideTLAB", "allocationSize"}};
	for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++)
		if (strcmp(name, bytes[k].type) == 0) {
			t->kind = W_BYTES;
			t->wfield = bytes[k].field;
		}
	if (strcmp(name, "jdk.ExecutionSample") == 0)
		e->exec = (int)e->ntypes;
	if (e->o->jfr_event && strcmp(name, e->o->jfr_event) == 0)
		e->want = (int)e->ntypes;
	return (int)e->ntypes++;
}

/* The fields of an event class that matter, on its first event in the chunk. */
static int make_plan(flame__jfr_events *e, uint32_t cls, plan *p, flame_err *err)
{
	flame__jfr_chunk *c = e->c;
	int ty = type_index(e, flame__jfr_name(c, c->cls[cls].name), err);
	if (ty < 0)
		return FLAME_ENOMEM;
	evtype *t = &e->types[ty];
	p->ty = ty;
	p->stack = flame__jfr_field_of(c, cls, "stackTrace");
	p->sampled = flame__jfr_field_of(c, cls, "sampledThread");
	p->thread = flame__jfr_field_of(c, cls, "eventThread");
	p->weight = flame__jfr_field_of(c, cls, t->kind == W_BYTES ? t->wfield : "duration");
	p->start = e->timed ? flame__jfr_field_of(c, cls, "startTime") : UINT32_MAX;
	uint32_t *f[] = {&p->stack, &p->sampled, &p->thread, &p->weight, &p->start};
	p->nread = 0;
	for (size_t i = 0; i < 5; i++) {
		if (*f[i] == UINT32_MAX)
			continue;
		const flame__jfr_field *fd = &c->fld[*f[i]];
		int isnum = c->cls[fd->type].kind >= FLAME__JFR_BYTE && c->cls[fd->type].kind <= FLAME__JFR_LONG;
		if (fd->array || (i < 3 ? !fd->cp : fd->cp || !isnum)) {
			*f[i] = UINT32_MAX; /* not of the form jfr print shows either */
			continue;
		}
		*f[i] -= c->cls[cls].field0;
		if (*f[i] + 1 > p->nread)
			p->nread = *f[i] + 1;
	}
	return 0;
}

/* ---- events ---- */

/* The fields of plan p of the event at cur: stack trace key, thread keys, weight. */
typedef struct got {
	uint64_t stack, thread, weight, start;
	int has_stack, has_thread;
	uint32_t stack_cls, thread_cls;
} got;

static int fields(flame__jfr_events *e, uint32_t cls, const plan *p, flame__jfr_cur *cur,
                  got *g)
{
	flame__jfr_chunk *c = e->c;
	memset(g, 0, sizeof *g);
	if (p->nread == 0) /* (a metadata of no fields at all has no field array) */
		return cur->bad ? BAD : 0;
	const flame__jfr_field *f0 = &c->fld[c->cls[cls].field0];
	int prio = 0;
	for (uint32_t i = 0; i < p->nread; i++) {
		const flame__jfr_field *f = &f0[i];
		if (i == p->stack) {
			g->stack = flame__jfr_u64(cur);
			g->has_stack = 1;
			g->stack_cls = f->type;
		} else if (i == p->sampled || (i == p->thread && prio < 2)) {
			g->thread = flame__jfr_u64(cur);
			g->has_thread = 1;
			g->thread_cls = f->type;
			prio = i == p->sampled ? 2 : 1;
		} else if (i == p->weight || i == p->start) {
			*(i == p->weight ? &g->weight : &g->start) = flame__jfr_field_int(c, f, cur->p, 0);
			if (flame__jfr_skip_field(c, cur, f))
				return BAD;
		} else if (flame__jfr_skip_field(c, cur, f)) {
			return BAD;
		}
	}
	return cur->bad ? BAD : 0;
}

/* A duration in ticks as nanoseconds, as the JDK converts it; Long.MIN_VALUE ("N/A")
 * and negative ones weigh nothing. */
static uint64_t nanos(const flame__jfr_chunk *c, uint64_t ticks)
{
	if ((int64_t)ticks <= 0)
		return 0;
	if (c->ticks_per_sec == 1000000000 || c->ticks_per_sec == 0)
		return ticks;
	double ns = (double)ticks * (1e9 / (double)c->ticks_per_sec);
	return ns >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)ns;
}

/* The chunk's timed events, each now at its stack in loc (agg_at). */
static int flush_times(flame__jfr_events *e, flame_err *err)
{
	for (size_t i = 0; i < e->pend.n; i++) {
		when x = e->pend.v[i];
		x.at = e->agg_at[x.at];
		if (flame__array_push(e->whens, x))
			return flame__err_nomem(err);
	}
	e->pend.n = 0;
	return 0;
}

/* The chunk's events so far into the local table, one add per stack trace (and thread):
 * hashing the stack's ids once, not once an event. */
static int flush(flame__jfr_events *e, flame_err *err)
{
	size_t lead = 1 + (e->threaded != 0);
	if (e->timed && flame__array_reserve_min(e->agg_at, e->agg_at_cap, e->nagg + 1, 256))
		return flame__err_nomem(err);
	for (size_t i = 0; i < e->nagg; i++) {
		const agg *a = &e->agg[i];
		const flame__jfr_sent *st = &e->nm.stk[a->st];
		if (flame__array_reserve_min(e->key, e->key_cap, st->n + lead, 256))
			return flame__err_nomem(err);
		e->key[0] = (uint32_t)e->agg_ty;
		e->key[1] = a->thread; /* overwritten by the frames without --threads */
		memcpy(e->key + lead, e->nm.ids + st->off, st->n * sizeof *e->key);
		size_t n = st->n + lead;
		int rc = e->timed ? flame__stacks_add_at(&e->loc, e->key, n, flame__stacks_hash(e->key, n),
		                                         a->amount, a->count, &e->agg_at[i])
		                  : flame__stacks_add(&e->loc, e->key, n, a->amount, a->count);
		if (rc == FLAME_ERANGE)
			return flame__err(err, rc, e->src, 0, FLAME__NO_OFFSET,
			                  "the total weight overflows 64 bits");
		if (rc)
			return flame__err_nomem(err);
	}
	int rc = e->timed ? flush_times(e, err) : 0;
	if (rc)
		return rc;
	e->nagg = 0;
	flame__jfr_map_clear(&e->amap);
	return 0;
}

/* One event of a type chosen so far: its weight onto its stack trace's. */
static int keep(flame__jfr_events *e, const plan *p, const got *g, flame_err *err)
{
	evtype *t = &e->types[p->ty];
	t->events++;
	if (t->kind != W_BYTES && p->weight != UINT32_MAX && g->weight != 0)
		t->saw_duration = 1; /* jfr print leaves out a duration of 0 */
	const flame__jfr_sent *st = NULL;
	int rc = g->has_stack && g->stack
	             ? flame__jfr_stack(&e->nm, g->stack_cls, g->stack, &st, err) : 0;
	t->lost += st && st->from == FLAME__JFR_NONE;
	if (rc || !st || st->n == 0)
		return rc;
	t->truncated += st->truncated;
	t->has_stacks = 1;
	uint32_t tid = 0, from = FLAME__JFR_OWN;
	if (e->threaded) {
		tid = g->has_thread ? flame__jfr_thread(&e->nm, g->thread_cls, g->thread, &from)
		                    : flame__sink_intern(&e->k, "[unknown thread]", 16);
		if (tid == FLAME__ID_NONE)
			return flame__err_nomem(err);
		t->lost_threads += from == FLAME__JFR_NONE;
	}
	if (e->agg_ty != p->ty && (rc = flush(e, err)))
		return rc;
	e->agg_ty = p->ty;
	uint32_t sidx = (uint32_t)(st - e->nm.stk);
	int64_t i = flame__jfr_map_get(&e->amap, tid, sidx);
	if (i < 0) {
		if (flame__array_reserve_min(e->agg, e->agg_cap, e->nagg + 1, 256) ||
		    flame__jfr_map_put(&e->amap, tid, sidx, (uint32_t)e->nagg))
			return flame__err_nomem(err);
		e->agg[e->nagg] = (agg){sidx, tid, 0, 0};
		i = (int64_t)e->nagg++;
	}
	agg *a = &e->agg[i];
	uint64_t w = t->kind == W_BYTES ? g->weight : nanos(e->c, g->weight);
	if (a->amount + w < a->amount)
		return flame__err(err, FLAME_ERANGE, e->src, 0, FLAME__NO_OFFSET,
		                  "the total weight overflows 64 bits");
	if (st->from == FLAME__JFR_PREV || from == FLAME__JFR_PREV) {
		t->prev++;
		t->prev_weight += t->prev_weight + w < t->prev_weight ? 0 : w;
	}
	a->amount += w;
	a->count++;
	if (p->start == UINT32_MAX)
		return 0;
	const flame__jfr_chunk *c = e->c; /* startTime in ticks, onto the wall clock */
	double tps = c->ticks_per_sec ? (double)c->ticks_per_sec : 1e9;
	double ns = (double)c->start_nanos + (double)(int64_t)(g->start - c->start_ticks) * (1e9 / tps);
	if (!(ns > -9.2e18 && ns < 9.2e18))
		return 0; /* no time to keep (a damaged field): the stack keeps its weight */
	if (flame__array_push(e->pend, ((when){(uint32_t)i, (int64_t)ns, w})))
		return flame__err_nomem(err);
	return 0;
}

/* The event of class id `type` whose fields start at cur (its end at `end`). */
static int event(flame__jfr_events *e, uint64_t type, flame__jfr_cur *cur, flame_err *err)
{
	flame__jfr_chunk *c = e->c;
	uint32_t cls = flame__jfr_class_of(c, type);
	e->events++;
	if (cls == UINT32_MAX) {
		e->unknown++; /* a type the metadata does not declare: skipped, as jfr print does */
		return 0;
	}
	plan *p = &e->plans[cls];
	int rc = p->ty == NONE ? make_plan(e, cls, p, err) : 0;
	if (rc)
		return rc;
	if (e->o->jfr_event ? p->ty != e->want : e->exec >= 0 && p->ty != e->exec)
		return 0;
	got g;
	const uint8_t *at = cur->p;
	if (fields(e, cls, p, cur, &g))
		return flame__jfr_bad(c, at, err, "an event's fields run past its end");
	return keep(e, p, &g, err);
}

/* The chunk's caches start empty: its constants are its own. */
static int chunk_start(flame__jfr_events *e, flame__jfr_chunk *c, flame_err *err)
{
	e->c = c;
	flame__jfr_names_chunk(&e->nm, c);
	if (flame__array_reserve_min(e->plans, e->plans_cap, c->ncls + 1, 64))
		return flame__err_nomem(err);
	for (size_t i = 0; i < c->ncls; i++)
		e->plans[i].ty = NONE;
	return 0;
}

int flame__jfr_events_chunk(flame__jfr_events *e, flame__jfr_chunk *c, size_t end, int whole,
                            flame_err *err)
{
	int rc = chunk_start(e, c, err);
	for (size_t pos = FLAME__JFR_HEADER; rc == 0 && pos < end;) {
		flame__jfr_cur cur = flame__jfr_at(c, pos);
		cur.end = c->b + end;
		uint64_t size = flame__jfr_int(&cur);
		uint64_t type = flame__jfr_u64(&cur);
		if (cur.bad || size > end - pos || size < (uint64_t)(cur.p - (c->b + pos))) {
			if (!whole)
				break; /* the cut: told by the caller */
			return flame__jfr_bad(c, c->b + pos, err,
			                      "an event's size runs past its chunk or is too small");
		}
		cur.end = c->b + pos + size;
		if (type > 1) /* 0: metadata, 1: checkpoint (read before) */
			rc = event(e, type, &cur, err);
		pos += size;
	}
	return rc ? rc : flush(e, err); /* the chunk's stack traces go with it */
}

/* ---- the end: the chosen type's stacks into the tree ---- */

/* The type to draw, as the text reader picks it; NONE (warned) when there is none. */
static int chosen(flame__jfr_events *e)
{
	const flame_parse_opts *o = e->o;
	int ty = o->jfr_event ? e->want : e->exec;
	if (ty < 0 && !o->jfr_event)
		for (size_t i = 0; i < e->ntypes && ty < 0; i++)
			if (e->types[i].has_stacks)
				ty = (int)i;
	if (ty < 0) {
		if (o->jfr_event)
			flame__warn(o->warn, o->warn_ud, "jfr-no-such-event", e->src, 0,
			            "no '%s' event with a stack trace in the input", o->jfr_event);
		else if (e->events)
			flame__warn(o->warn, o->warn_ud, "jfr-no-stacks", e->src, 0,
			            "none of the %llu events has a stack trace: nothing to draw",
			            (unsigned long long)e->events);
		return NONE;
	}
	const evtype *t = &e->types[ty];
	if (!t->has_stacks) {
		flame__warn(o->warn, o->warn_ud, "jfr-no-stacks", e->src, 0,
		            "the %llu '%s' events have no stack trace: nothing to draw",
		            (unsigned long long)t->events, t->name);
		return NONE;
	}
	if (t->truncated)
		flame__warn(o->warn, o->warn_ud, "jfr-truncated", e->src, 0,
		            "%llu of the %llu '%s' stack traces were cut by the recorder at its "
		            "stack depth (64 frames unless told): kept under a '[truncated]' root "
		            "frame; for deeper stacks record with -XX:FlightRecorderOptions:stackdepth=N",
		            (unsigned long long)t->truncated, (unsigned long long)t->events, t->name);
	return ty;
}

/* Each event of the chosen type at its time, weighed as its stack is (`at`: where the
 * stacks of loc went in the tree). */
static int put_times(flame__jfr_events *e, const evtype *t, const uint32_t *at, uint64_t mult,
                     flame_err *err)
{
	for (size_t i = 0; i < e->whens.n; i++) {
		const when *x = &e->whens.v[i];
		if (at[x->at] == UINT32_MAX)
			continue;
		uint64_t w = t->kind == W_BYTES || t->saw_duration ? x->amount : 1;
		int rc = flame__sink_time_put(&e->k, at[x->at], FLAME_CLOCK_WALL, x->ns, w * mult, 0, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* With labels, the stacks added next have the thread (name id `tid`) as their label set. */
static int label_thread(flame__jfr_events *e, uint32_t tid, flame_err *err)
{
	uint32_t set = flame__labels_of_name(e->labels, &e->sets, "thread", e->k.names, tid);
	if (set == FLAME__ID_NONE)
		return flame__err_nomem(err);
	flame__sink_label(&e->k, set);
	return 0;
}

/* The chosen type's stacks into the tree (their places into at[], when not NULL). */
static int put_stacks(flame__jfr_events *e, int ty, uint64_t mult, uint32_t *at, flame_err *err)
{
	/* the frames: past the type, and past the thread unless --threads made it the root */
	size_t skip = 1 + (e->threaded && !(e->flags & FLAME_JFR_THREADS));
	const evtype *t = &e->types[ty];
	for (size_t i = 0; i < e->loc.count; i++) {
		const flame__stack *st = &e->loc.v[i];
		if (at)
			at[i] = UINT32_MAX;
		if (st->ids[0] != (uint32_t)ty)
			continue;
		uint64_t w = t->kind == W_BYTES || t->saw_duration ? st->w[0] : st->w[1];
		if (w && w > UINT64_MAX / mult)
			return flame__err(err, FLAME_ERANGE, e->src, 0, FLAME__NO_OFFSET,
			                  "a weight overflows 64 bits");
		int rc = e->labels ? label_thread(e, st->ids[1], err) : 0;
		if (!rc)
			rc = flame__sink_add_at(&e->k, st->ids + skip, st->depth - skip, w * mult, 0,
			                        at ? &at[i] : NULL, err);
		if (rc == FLAME_ERANGE)
			return flame__err(err, rc, e->src, 0, FLAME__NO_OFFSET,
			                  "the total weight overflows 64 bits");
		if (rc)
			return rc;
	}
	return 0;
}

/* The events of the chosen type whose stack trace or thread the chunk's pools lack:
 * found in the chunk before (jfr print's own reader looks in the chunk's pools only, so
 * it shows such an event without them, unless the event before of its type had the same
 * one: it keeps the last), or nowhere. */
static void tell_lookups(const flame__jfr_events *e, const evtype *t, const char *unit)
{
	const flame_parse_opts *o = e->o;
	if (t->prev)
		flame__warn(o->warn, o->warn_ud, "jfr-previous-chunk", e->src, 0,
		            "%llu of the %llu '%s' events (%llu %s) refer to stack traces or threads "
		            "that the chunk before theirs holds, not their own (the recorder wrote them "
		            "there around the switch to a new chunk): read from there (jfr print "
		            "shows most such events without them)",
		            (unsigned long long)t->prev, (unsigned long long)t->events, t->name,
		            (unsigned long long)(t->kind == W_BYTES || t->saw_duration ? t->prev_weight
		                                                                       : t->prev),
		            unit);
	if (t->lost || t->lost_threads)
		flame__warn(o->warn, o->warn_ud, "jfr-missing-constant", e->src, 0,
		            "%llu of the %llu '%s' events refer to stack traces, and %llu to threads, "
		            "that neither their chunk nor the chunk before holds: those stacks left "
		            "out, those threads named 'N/A'",
		            (unsigned long long)t->lost, (unsigned long long)t->events, t->name,
		            (unsigned long long)t->lost_threads);
}

int flame__jfr_events_finish(flame__jfr_events *e, flame_err *err)
{
	if (e->unknown)
		flame__warn(e->o->warn, e->o->warn_ud, "jfr-unknown-type", e->src, 0,
		            "skipped %llu event%s of types the recording's metadata does not declare",
		            (unsigned long long)e->unknown, e->unknown == 1 ? "" : "s");
	int ty = chosen(e);
	if (ty < 0)
		return 0;
	const evtype *t = &e->types[ty];
	const char *cname = t->kind == W_BYTES ? "bytes" : t->saw_duration ? "nanoseconds" : "samples";
	tell_lookups(e, t, cname);
	int rc = flame__sink_units(&e->k, cname, NULL, e->src, err);
	if (rc)
		return rc;
	static const uint64_t m10[] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
	                               1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL};
	uint64_t mult = m10[flame__sink_scale(&e->k)];
	uint32_t *at = e->whens.n ? malloc(e->loc.count * sizeof *at) : NULL;
	if (e->whens.n && !at)
		return flame__err_nomem(err);
	rc = put_stacks(e, ty, mult, at, err);
	flame__sink_label(&e->k, 0); /* (another input's stacks have none of these labels) */
	if (!rc && at)
		rc = put_times(e, t, at, mult, err);
	free(at);
	return rc;
}
