/* V8's CPU profile model (parse/v8-profile.h): a node object read into a named frame, nodes,
 * samples and time deltas fed in pieces, each sample weighed as its delta arrives, and at
 * the end one stack per node with time. Under the .cpuprofile and trace event readers.
 *
 * As Chrome DevTools weighs them, sample i lasts from its time to the next sample's
 * (timeDeltas[i + 1], a negative delta counting 0) and the last one until endTime when both
 * arrays have the same length; without timeDeltas each sample counts 1. A frame is named
 * `functionName (url:line)` (line 1-based, as DevTools and speedscope show it; `(anonymous)`
 * for an empty name; no location without a url), so functions of one name in two files
 * stay apart; the synthetic `(root)` is dropped, `(program)`, `(idle)` and `(garbage
 * collector)` are kept: they are time the profile covers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "v8-profile.h"

#define NONE UINT32_MAX

void flame__v8ctx_free(flame__v8ctx *x)
{
	flame__array_free(x->fn);
	flame__array_free(x->url);
	flame__array_free(x->name);
	flame__array_free(x->kids);
	flame__array_free(x->stack);
	flame__array_free(x->ids);
}

void flame__v8prof_free(flame__v8prof *p)
{
	flame__array_free(p->nodes);
	flame__array_free(p->edges);
	flame__array_free(p->qs);
	flame__array_free(p->qd);
	free(p->w);
	free(p->index);
	memset(p, 0, sizeof *p);
}

/* The next token, which must be `want` (naming `what` when not). */
static int expect(flame__json *j, int want, const char *what)
{
	int t = flame__json_next(j);
	if (t < 0)
		return t;
	return t == want ? 0 : flame__json_bad(j, "%s should be %s", what,
	                                       want == FLAME__JSON_ARR ? "an array"
	                                       : want == FLAME__JSON_OBJ ? "an object" : "a number");
}

static int integer(flame__json *j, int64_t *v, const char *what)
{
	int rc = expect(j, FLAME__JSON_NUM, what);
	return rc ? rc : flame__json_int(j, v, what);
}

int flame__v8_time(flame__v8ctx *x, int64_t *v, const char *what)
{
	uint64_t m;
	unsigned d;
	int neg, rc = expect(x->j, FLAME__JSON_NUM, what);
	if (rc || (rc = flame__json_decimal(x->j, &m, &d, &neg, what)))
		return rc;
	while (d--)
		m /= 10;
	if (m > (uint64_t)INT64_MAX)
		return flame__json_bad(x->j, "%s is out of range", what);
	*v = neg ? -(int64_t)m : (int64_t)m;
	return 0;
}

/* callFrame: functionName, url and lineNumber into the node's name. */
static int call_frame(flame__v8ctx *x, flame__v8node *nd)
{
	int rc = expect(x->j, FLAME__JSON_OBJ, "callFrame"), t;
	int64_t line = -1;
	x->fn.n = x->url.n = 0;
	while (!rc && (t = flame__json_next(x->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(x->j, "functionName"))
			rc = flame__json_text_value(x->j, &x->fn);
		else if (flame__json_is(x->j, "url"))
			rc = flame__json_text_value(x->j, &x->url);
		else if (flame__json_is(x->j, "lineNumber"))
			rc = integer(x->j, &line, "lineNumber");
		else
			rc = flame__json_skip_value(x->j);
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	char loc[32] = "";
	if (line >= 0 && line < INT32_MAX)
		snprintf(loc, sizeof loc, ":%lld", (long long)line + 1);
	size_t need = x->fn.n + x->url.n + sizeof loc + 16;
	if (flame__array_reserve(x->name.v, x->name.cap, need))
		return flame__err_nomem(x->j->err);
	int n = x->fn.n ? snprintf(x->name.v, need, "%.*s", (int)x->fn.n, x->fn.v)
	                : snprintf(x->name.v, need, "(anonymous)");
	if (x->url.n)
		n += snprintf(x->name.v + n, need - (size_t)n, " (%.*s%s)", (int)x->url.n, x->url.v, loc);
	nd->root = x->fn.n == 6 && !memcmp(x->fn.v, "(root)", 6) && !x->url.n;
	nd->name = flame__sink_intern(x->k, x->name.v, (size_t)n);
	return nd->name == FLAME__ID_NONE ? flame__err_nomem(x->j->err) : 0;
}

/* A node's "children" into x->kids. */
static int children(flame__v8ctx *x)
{
	int rc = expect(x->j, FLAME__JSON_ARR, "children");
	int64_t id;
	while (!rc && (rc = flame__json_array_int(x->j, &id, "a child's id")) == 1)
		rc = flame__array_push(x->kids, id) ? flame__err_nomem(x->j->err) : 0;
	return rc;
}

int flame__v8_node(flame__v8ctx *x, flame__v8node *nd, flame__v8edges *edges)
{
	*nd = (flame__v8node){.id = -1, .parent_id = INT64_MIN, .at = x->j->at,
	                      .name = FLAME__ID_NONE, .parent = NONE};
	int rc = 0, t, have_id = 0;
	x->kids.n = 0;
	while (!rc && (t = flame__json_next(x->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(x->j, "id"))
			rc = integer(x->j, &nd->id, "a node's id"), have_id = 1;
		else if (flame__json_is(x->j, "callFrame"))
			rc = call_frame(x, nd);
		else if (flame__json_is(x->j, "children"))
			rc = children(x);
		else if (flame__json_is(x->j, "parent"))
			rc = integer(x->j, &nd->parent_id, "a node's parent");
		else
			rc = flame__json_skip_value(x->j);
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	if (!have_id || nd->name == FLAME__ID_NONE)
		return flame__json_bad(x->j, "a node without %s", have_id ? "a callFrame" : "an id");
	if (flame__array_reserve(edges->v, edges->cap, edges->n + x->kids.n))
		return flame__err_nomem(x->j->err);
	for (size_t i = 0; i < x->kids.n; i++)
		edges->v[edges->n++] = (flame__v8edge){nd->id, x->kids.v[i]};
	return 0;
}

/* Ids get dense tables: a profile's ids count up from 1; a few more are allowed. */
static int id_ok(int64_t id, size_t count)
{
	return id >= 0 && (uint64_t)id < (uint64_t)count * 4 + (1u << 20);
}

int flame__v8prof_node(flame__v8prof *p, flame__v8ctx *x, const flame__v8node *nd)
{
	if (p->nodes.n >= NONE - 1)
		return flame__json_bad(x->j, "too many nodes");
	if (!id_ok(nd->id, p->nodes.n + 1))
		return flame__json_bad(x->j, "node id %lld is out of range for %zu nodes",
		                       (long long)nd->id, p->nodes.n + 1);
	return flame__array_push(p->nodes, *nd) ? flame__err_nomem(x->j->err) : 0;
}

int flame__v8prof_edges(flame__v8prof *p, flame__v8ctx *x, const flame__v8edge *e, size_t n)
{
	if (!n)
		return 0; /* (e and the edges may be arrays not yet grown: NULL, no offset from it) */
	if (flame__array_reserve(p->edges.v, p->edges.cap, p->edges.n + n))
		return flame__err_nomem(x->j->err);
	flame__copy(p->edges.v + p->edges.n, e, n * sizeof *e);
	p->edges.n += n;
	return 0;
}

static void add(uint64_t *w, uint64_t d)
{
	*w = *w + d < *w ? UINT64_MAX : *w + d;
}

/* n samples s[] with their deltas d[], weighed (in locals: the weights' stores could
 * alias the profile's fields). */
static void weigh(flame__v8prof *p, const uint32_t *s, const int64_t *d, size_t n)
{
	uint64_t *w = p->w;
	uint32_t prev = p->prev;
	int64_t sum = p->sum, t;
	for (size_t k = 0; k < n; k++) {
		if (p->paired || k) {
			uint64_t x = d[k] > 0 ? (uint64_t)d[k] : 0, *at = &w[prev];
			*at = *at + x < *at ? UINT64_MAX : *at + x;
		}
		if (!__builtin_add_overflow(sum, d[k], &t))
			sum = t;
		prev = s[k];
	}
	p->prev = prev;
	p->sum = sum;
	p->paired += n;
}

/* Samples and deltas read on both sides, weighed. */
static void pair(flame__v8prof *p)
{
	size_t a = p->qs.n - p->qs_at, b = p->qd.n - p->qd_at, n = a < b ? a : b;
	if (!n)
		return; /* (an array not yet grown is NULL: no offset from it) */
	weigh(p, p->qs.v + p->qs_at, p->qd.v + p->qd_at, n);
	p->qs_at += n;
	p->qd_at += n;
	if (p->qs_at == p->qs.n)
		p->qs.n = p->qs_at = 0;
	if (p->qd_at == p->qd.n)
		p->qd.n = p->qd_at = 0;
}

int flame__v8prof_samples(flame__v8prof *p, flame__v8ctx *x, const int64_t *ids, size_t n)
{
	if (flame__array_reserve(p->qs.v, p->qs.cap, p->qs.n + n))
		return flame__err_nomem(x->j->err);
	for (size_t i = 0; i < n; i++) {
		if (ids[i] < 0 || ids[i] >= NONE || !id_ok(ids[i], p->nsamples + p->nodes.n + 1))
			return flame__json_bad(x->j, "a sample's node id %lld is out of range",
			                       (long long)ids[i]);
		if ((size_t)ids[i] >= p->nw) {
			size_t cap = p->nw;
			if (flame__array_reserve_min(p->w, cap, (size_t)ids[i] + 1, 1024))
				return flame__err_nomem(x->j->err);
			memset(p->w + p->nw, 0, (cap - p->nw) * sizeof *p->w);
			p->nw = cap;
		}
		p->qs.v[p->qs.n++] = (uint32_t)ids[i];
		p->nsamples++;
	}
	pair(p);
	return 0;
}

int flame__v8prof_deltas(flame__v8prof *p, flame__v8ctx *x, const int64_t *d, size_t n)
{
	p->have_deltas = 1;
	if (!n)
		return 0; /* (as for edges) */
	p->ndeltas += n;
	if (p->qd_at == p->qd.n && p->qs_at < p->qs.n) { /* pair with the samples waiting */
		size_t k = p->qs.n - p->qs_at < n ? p->qs.n - p->qs_at : n;
		weigh(p, p->qs.v + p->qs_at, d, k);
		p->qs_at += k;
		d += k;
		n -= k;
		if (p->qs_at == p->qs.n)
			p->qs.n = p->qs_at = 0;
		if (!n)
			return 0;
	}
	if (flame__array_reserve(p->qd.v, p->qd.cap, p->qd.n + n))
		return flame__err_nomem(x->j->err);
	flame__copy(p->qd.v + p->qd.n, d, n * sizeof *d);
	p->qd.n += n;
	pair(p);
	return 0;
}

/* Nodes by id, and each node's parent. */
static int link_nodes(flame__v8prof *p, flame__v8ctx *x)
{
	int64_t max = -1;
	for (size_t i = 0; i < p->nodes.n; i++)
		max = p->nodes.v[i].id > max ? p->nodes.v[i].id : max;
	p->nindex = (size_t)(max + 1);
	if (!(p->index = malloc((p->nindex ? p->nindex : 1) * sizeof *p->index)))
		return flame__err_nomem(x->j->err);
	memset(p->index, 0xff, p->nindex * sizeof *p->index);
	for (size_t i = 0; i < p->nodes.n; i++) {
		uint32_t *slot = &p->index[p->nodes.v[i].id];
		if (*slot != NONE)
			return flame__err(x->j->err, FLAME_EDATA, x->src, 0, p->nodes.v[i].at,
			                  "two nodes have the id %lld", (long long)p->nodes.v[i].id);
		*slot = (uint32_t)i;
	}
	for (size_t i = 0; i < p->nodes.n; i++) {
		int64_t par = p->nodes.v[i].parent_id;
		if (par >= 0 && (uint64_t)par < p->nindex)
			p->nodes.v[i].parent = p->index[par];
	}
	for (size_t i = 0; i < p->edges.n; i++) {
		int64_t id = p->edges.v[i].child, par = p->edges.v[i].parent;
		if (id >= 0 && (uint64_t)id < p->nindex && p->index[id] != NONE)
			p->nodes.v[p->index[id]].parent = p->index[par];
	}
	return 0;
}

/* Node i's stack, root first, to the sink with its time. */
static int emit(flame__v8prof *p, flame__v8ctx *x, size_t i)
{
	size_t n = 0;
	for (uint32_t at = (uint32_t)i; at != NONE; at = p->nodes.v[at].parent) {
		if (n == p->nodes.n)
			return flame__err(x->j->err, FLAME_EDATA, x->src, 0, p->nodes.v[i].at,
			                  "the parents of node %lld make a cycle", (long long)p->nodes.v[i].id);
		if (flame__array_reserve(x->stack.v, x->stack.cap, n + 1))
			return flame__err_nomem(x->j->err);
		x->stack.v[n++] = at;
	}
	if (n > 1 && p->nodes.v[x->stack.v[n - 1]].root)
		n--; /* the synthetic root */
	if (flame__array_reserve(x->ids.v, x->ids.cap, n))
		return flame__err_nomem(x->j->err);
	for (size_t a = 0; a < n; a++)
		x->ids.v[a] = p->nodes.v[x->stack.v[n - 1 - a]].name;
	return flame__sink_add(x->k, x->ids.v, n, p->nodes.v[i].w, 0, x->j->err);
}

/* The samples' weights at the end: deltas past the samples (the first weighs the last
 * sample), the last sample until endTime, or a count each without deltas. */
static void last_weights(flame__v8prof *p)
{
	if (!p->have_deltas) {
		for (size_t k = p->qs_at; k < p->qs.n; k++)
			p->w[p->qs.v[k]]++;
		return;
	}
	for (size_t k = p->qd_at; k < p->qd.n; k++) {
		int64_t s;
		if (p->paired && k == p->qd_at) /* the first weighs the last sample */
			add(&p->w[p->prev], p->qd.v[k] > 0 ? (uint64_t)p->qd.v[k] : 0);
		if (!__builtin_add_overflow(p->sum, p->qd.v[k], &s))
			p->sum = s;
	}
	int64_t last, d;
	if (p->have_start && p->have_end && p->nsamples && p->ndeltas == p->nsamples &&
	    !__builtin_add_overflow(p->start, p->sum, &last)) {
		if (__builtin_sub_overflow(p->end, last, &d))
			d = p->end > last ? INT64_MAX : 0;
		add(&p->w[p->prev], d > 0 ? (uint64_t)d : 0);
	}
}

int flame__v8prof_finish(flame__v8prof *p, flame__v8ctx *x)
{
	int rc = link_nodes(p, x);
	if (rc)
		return rc;
	last_weights(p);
	for (size_t id = 0; id < p->nw; id++) {
		if (!p->w[id])
			continue;
		if (id >= p->nindex || p->index[id] == NONE)
			return flame__err(x->j->err, FLAME_EDATA, x->src, 0, FLAME__NO_OFFSET,
			                  "samples name node %zu, which is not among the nodes", id);
		p->nodes.v[p->index[id]].w = p->w[id];
	}
	for (size_t i = 0; i < p->nodes.n && !rc; i++)
		if (p->nodes.v[i].w)
			rc = emit(p, x, i);
	return rc;
}
