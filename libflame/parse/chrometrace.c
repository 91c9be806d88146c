/* Reader of Chrome trace events with sampled stacks (Chrome's and V8's tracing, the JSON of
 * chrome://tracing, DevTools' Performance panel and `node` with trace_events) into stacks
 * weighed in microseconds. Sits in parse/ on core/json.h's tokenizer and V8's profile model
 * (v8-profile.h), which it shares with the .cpuprofile reader: no document is built.
 *
 *   {"traceEvents":[
 *     {"name":"Profile","ph":"P","pid":7,"tid":7,"id":"0x1","args":{"data":{"startTime":T0}}},
 *     {"name":"ProfileChunk","ph":"P","pid":7,"tid":9,"id":"0x1","args":{"data":{
 *        "cpuProfile":{"nodes":[{"id":1,"callFrame":{...},"parent":0},...],"samples":[3,...]},
 *        "timeDeltas":[12,...]}}},...]}          (or the events alone, as a JSON array)
 *
 * V8's sampling profiler (category disabled-by-default-v8.cpu_profiler) writes a Profile
 * event on the sampled thread, then ProfileChunk events from its own thread, each adding
 * nodes (with their "parent"), samples and as many time deltas; the last may carry endTime.
 * A profile is one thread's: its events share the process (pid) and the profile id (ids
 * restart in each process), as DevTools groups them. Each profile is weighed as a
 * .cpuprofile of the same nodes, samples and deltas would be, and all are summed into the
 * tree, as speedscope's profiles are. Keys may come in any order (Chrome writes "args"
 * first), so an event's args are kept until its end, then fed to its profile; memory is
 * the profiles' nodes, their time by node, and one chunk. Events of other kinds are skipped
 * (their args read as far as a chunk's fields). */
#include <string.h>
#include "../core/hash.h"
#include "../core/json.h"
#include "../core/slots.h"
#include "parser.h"
#include "v8-profile.h"

typedef struct tprof {
	int64_t pid;
	uint64_t id;
	flame__v8prof p;
} tprof;

enum { EV_OTHER, EV_PROFILE, EV_CHUNK };

/* What one event said, kept until its end. */
typedef struct event {
	int kind;
	int64_t pid;
	uint64_t id;
	int have_pid, have_id;
	uint64_t at;
	flame__v8nodes nodes;
	flame__v8edges edges;
	flame__array(int64_t) samples, deltas;
	int have_deltas;
	int64_t start, end;
	int have_start, have_end;
} event;

typedef struct ctr {
	flame__json j;
	flame__sink k;
	flame__v8ctx x;
	flame__array(tprof) profs;
	uint64_t *slots;
	size_t mask;
	int64_t probe_pid; /* for prof_eq */
	uint64_t probe_id;
	event e;
	size_t chunks;
} ctr;

static size_t skip_ws(const char *buf, size_t len, size_t i)
{
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	return i;
}

/* An object with "traceEvents", or an array of objects with a phase ("ph"). */
static int probe(const char *buf, size_t len)
{
	size_t i = skip_ws(buf, len, 0);
	if (i < len && buf[i] == '{')
		return memmem(buf, len, "\"traceEvents\"", 13) != NULL;
	if (i >= len || buf[i] != '[')
		return 0;
	i = skip_ws(buf, len, i + 1);
	return i < len && buf[i] == '{' && memmem(buf, len, "\"ph\"", 4) &&
	       (memmem(buf, len, "\"pid\"", 5) || memmem(buf, len, "\"ts\"", 4));
}

static int expect(ctr *c, int want, const char *what)
{
	int t = flame__json_next(&c->j);
	if (t < 0)
		return t;
	return t == want ? 0 : flame__json_bad(&c->j, "%s should be %s", what,
	                                       want == FLAME__JSON_ARR ? "an array" : "an object");
}

/* A pid or a profile id: a number, a string of one ("0x1", as Chrome writes ids), or any
 * other string by its hash. */
static int key_value(ctr *c, uint64_t *v, const char *what)
{
	int t = flame__json_next(&c->j);
	int64_t n;
	if (t == FLAME__JSON_NUM) {
		int rc = flame__json_int(&c->j, &n, what);
		*v = (uint64_t)n;
		return rc;
	}
	if (t != FLAME__JSON_STR)
		return t < 0 ? t : flame__json_bad(&c->j, "%s should be a number or a string", what);
	const char *s = c->j.s;
	size_t len = c->j.n, i = 0;
	int hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	uint64_t x = 0;
	for (i = hex ? 2 : 0; i < len && i < 18; i++) {
		char ch = s[i];
		int d = ch >= '0' && ch <= '9' ? ch - '0'
		      : hex && ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
		      : hex && ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
		if (d < 0)
			break;
		x = x * (hex ? 16 : 10) + (uint64_t)d;
	}
	*v = len && i == len ? x : flame__hash_bytes(s, len);
	return 0;
}

/* An array of integers into `a`. */
static int int_array(ctr *c, void *arr, const char *what)
{
	flame__array(int64_t) *a = arr;
	int rc = expect(c, FLAME__JSON_ARR, what);
	int64_t v[256];
	long got = 0;
	while (!rc && (got = flame__json_array_ints(&c->j, v, 256, what)) > 0) {
		if (flame__array_reserve(a->v, a->cap, a->n + (size_t)got))
			return flame__err_nomem(c->j.err);
		memcpy(a->v + a->n, v, (size_t)got * sizeof *v);
		a->n += (size_t)got;
	}
	return rc ? rc : got < 0 ? (int)got : 0;
}

/* args.data.cpuProfile: nodes and samples (and timeDeltas, should a writer put them here). */
static int cpu_profile(ctr *c)
{
	int rc = expect(c, FLAME__JSON_OBJ, "cpuProfile"), t;
	while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&c->j, "nodes")) {
			if ((rc = expect(c, FLAME__JSON_ARR, "nodes")))
				break;
			flame__v8node nd;
			while ((t = flame__json_next(&c->j)) == FLAME__JSON_OBJ &&
			       !(rc = flame__v8_node(&c->x, &nd, &c->e.edges)))
				if (flame__array_push(c->e.nodes, nd))
					return flame__err_nomem(c->j.err);
			if (!rc && t != FLAME__JSON_ARR_END)
				rc = t < 0 ? t : flame__json_bad(&c->j, "a node should be an object");
		} else if (flame__json_is(&c->j, "samples")) {
			rc = int_array(c, &c->e.samples, "a sample's node id");
		} else if (flame__json_is(&c->j, "timeDeltas")) {
			rc = int_array(c, &c->e.deltas, "a time delta"), c->e.have_deltas = 1;
		} else {
			rc = flame__json_skip_value(&c->j);
		}
	}
	return rc ? rc : t < 0 ? t : 0;
}

/* args: data's cpuProfile, timeDeltas, startTime and endTime; anything else skipped. */
static int args(ctr *c)
{
	int t = flame__json_next(&c->j), rc = 0;
	if (t != FLAME__JSON_OBJ)
		return t < 0 ? t : flame__json_skip(&c->j, t);
	while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_KEY) {
		if (!flame__json_is(&c->j, "data")) {
			rc = flame__json_skip_value(&c->j);
			continue;
		}
		if ((t = flame__json_next(&c->j)) != FLAME__JSON_OBJ) {
			rc = t < 0 ? t : flame__json_skip(&c->j, t);
			continue;
		}
		while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_KEY) {
			if (flame__json_is(&c->j, "cpuProfile"))
				rc = cpu_profile(c);
			else if (flame__json_is(&c->j, "timeDeltas"))
				rc = int_array(c, &c->e.deltas, "a time delta"), c->e.have_deltas = 1;
			else if (flame__json_is(&c->j, "startTime"))
				rc = flame__v8_time(&c->x, &c->e.start, "startTime"), c->e.have_start = 1;
			else if (flame__json_is(&c->j, "endTime"))
				rc = flame__v8_time(&c->x, &c->e.end, "endTime"), c->e.have_end = 1;
			else
				rc = flame__json_skip_value(&c->j);
		}
		rc = rc ? rc : t < 0 ? t : 0;
	}
	return rc ? rc : t < 0 ? t : 0;
}

static int prof_eq(const void *ctx, uint32_t i)
{
	const ctr *c = ctx;
	return c->profs.v[i].pid == c->probe_pid && c->profs.v[i].id == c->probe_id;
}

/* The profile of process `pid` and id `id`, made on first sight; NULL on out of memory. */
static flame__v8prof *profile(ctr *c, int64_t pid, uint64_t id)
{
	uint64_t h = flame__hash_word(flame__hash_word(0, (uint64_t)pid), id);
	if (flame__slots_reserve(&c->slots, &c->mask, c->profs.n, 16))
		return NULL;
	c->probe_pid = pid;
	c->probe_id = id;
	size_t i = flame__slots_probe(c->slots, c->mask, (uint32_t)h, prof_eq, c);
	if (!c->slots[i]) {
		if (c->profs.n >= UINT32_MAX - 1 || flame__array_push(c->profs, ((tprof){.pid = pid, .id = id})))
			return NULL;
		c->slots[i] = flame__slot_make((uint32_t)h, (uint32_t)(c->profs.n - 1));
	}
	return &c->profs.v[flame__slot_entry(c->slots[i])].p;
}

/* The event just read, fed to its profile: errors name the event's first byte. */
static int feed(ctr *c)
{
	event *e = &c->e;
	if (e->kind == EV_OTHER)
		return 0;
	c->j.at = e->at;
	if (!e->have_pid || !e->have_id)
		return flame__json_bad(&c->j, "a %s event without %s", e->kind == EV_CHUNK ?
		                       "ProfileChunk" : "Profile", e->have_pid ? "an id" : "a pid");
	flame__v8prof *p = profile(c, e->pid, e->id);
	if (!p)
		return flame__err_nomem(c->j.err);
	if (e->have_start)
		p->start = e->start, p->have_start = 1;
	if (e->kind != EV_CHUNK)
		return 0;
	c->chunks++;
	if (e->have_end)
		p->end = e->end, p->have_end = 1;
	int rc = 0;
	for (size_t i = 0; i < e->nodes.n && !rc; i++) {
		c->j.at = e->nodes.v[i].at;
		rc = flame__v8prof_node(p, &c->x, &e->nodes.v[i]);
	}
	c->j.at = e->at;
	if (!rc)
		rc = flame__v8prof_edges(p, &c->x, e->edges.v, e->edges.n);
	if (!rc)
		rc = flame__v8prof_samples(p, &c->x, e->samples.v, e->samples.n);
	if (!rc && e->have_deltas)
		rc = flame__v8prof_deltas(p, &c->x, e->deltas.v, e->deltas.n);
	return rc;
}

/* One event, its '{' read. */
static int event_obj(ctr *c)
{
	event *e = &c->e;
	e->kind = EV_OTHER;
	e->have_pid = e->have_id = e->have_deltas = e->have_start = e->have_end = 0;
	e->nodes.n = e->edges.n = e->samples.n = e->deltas.n = 0;
	e->at = c->j.at;
	int rc = 0, t;
	uint64_t v;
	while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&c->j, "name")) {
			if ((t = flame__json_next(&c->j)) == FLAME__JSON_STR)
				e->kind = flame__json_is(&c->j, "ProfileChunk") ? EV_CHUNK : flame__json_is(&c->j, "Profile") ? EV_PROFILE
				                                                                      : EV_OTHER;
			else
				rc = t < 0 ? t : flame__json_skip(&c->j, t);
		} else if (flame__json_is(&c->j, "pid")) {
			rc = key_value(c, &v, "pid"), e->pid = (int64_t)v, e->have_pid = 1;
		} else if (flame__json_is(&c->j, "id")) {
			rc = key_value(c, &e->id, "id"), e->have_id = 1;
		} else if (flame__json_is(&c->j, "args")) {
			rc = args(c);
		} else {
			rc = flame__json_skip_value(&c->j);
		}
	}
	return rc ? rc : t < 0 ? t : feed(c);
}

/* The events' array, its '[' read: objects are events; anything else is skipped. */
static int events(ctr *c)
{
	int t, rc = 0;
	while (!rc && (t = flame__json_next(&c->j)) != FLAME__JSON_ARR_END)
		rc = t < 0 ? t : t == FLAME__JSON_OBJ ? event_obj(c) : flame__json_skip(&c->j, t);
	return rc;
}

static int document(ctr *c)
{
	int t = flame__json_next(&c->j), rc = 0, seen = 0;
	if (t == FLAME__JSON_ARR) {
		rc = events(c);
	} else if (t == FLAME__JSON_OBJ) {
		while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_KEY) {
			if (flame__json_is(&c->j, "traceEvents") && !seen) {
				seen = 1;
				rc = expect(c, FLAME__JSON_ARR, "traceEvents");
				rc = rc ? rc : events(c);
			} else {
				rc = flame__json_skip_value(&c->j);
			}
		}
		rc = rc ? rc : t < 0 ? t : 0;
	} else {
		return t < 0 ? t : flame__json_bad(&c->j, "a trace should be an array or an object");
	}
	return rc ? rc : (t = flame__json_next(&c->j)) < 0 ? t : 0; /* nothing after it */
}

/* Every profile's stacks, in their units: microseconds (or samples, without deltas). */
static int finish(ctr *c)
{
	const char *units = NULL;
	int rc = 0;
	if (!c->chunks)
		return flame__err(c->j.err, FLAME_EDATA, c->x.src, 0, FLAME__NO_OFFSET,
		                  "no sampled stacks (ProfileChunk events) in this trace: record it "
		                  "with the category disabled-by-default-v8.cpu_profiler");
	for (size_t i = 0; i < c->profs.n && !rc; i++) {
		flame__v8prof *p = &c->profs.v[i].p;
		if (!p->nsamples)
			continue;
		const char *u = p->have_deltas ? "microseconds" : "samples";
		if (units && strcmp(u, units))
			return flame__err(c->j.err, FLAME_EDATA, c->x.src, 0, FLAME__NO_OFFSET,
			                  "a profile has time deltas and another has none");
		if (!units && (rc = flame__sink_units(&c->k, u, NULL, c->x.src, c->j.err)))
			return rc;
		units = u;
		rc = flame__v8prof_finish(p, &c->x);
	}
	return rc;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	(void)o;
	ctr c = {0};
	int rc = flame__json_init(&c.j, in, err);
	if (rc)
		return rc;
	flame__sink_init(&c.k, t);
	c.x = (flame__v8ctx){.j = &c.j, .k = &c.k, .src = flame_input_name(in)};
	if (!(rc = document(&c)))
		rc = finish(&c);
	flame__json_free(&c.j);
	flame__v8ctx_free(&c.x);
	for (size_t i = 0; i < c.profs.n; i++)
		flame__v8prof_free(&c.profs.v[i].p);
	flame__array_free(c.profs);
	free(c.slots);
	flame__array_free(c.e.nodes);
	flame__array_free(c.e.edges);
	flame__array_free(c.e.samples);
	flame__array_free(c.e.deltas);
	return rc;
}

const struct flame__parser flame__parser_chrometrace = {probe, parse};
