/* Reader of Chrome DevTools and V8 CPU profiles (`.cpuprofile`: node --cpu-prof, Chrome's
 * "Save profile", the inspector's Profiler.stop) into stacks weighed in microseconds. Sits
 * in parse/ on core/json.h's tokenizer: no document is built.
 *
 *   {"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,...},
 *              "children":[2,3]},...],
 *    "startTime":T0,"endTime":T1,"samples":[3,3,2,...],"timeDeltas":[12,1003,998,...]}
 *
 * A node is a call frame under its parent (given by the parent's "children", or by its own
 * "parent" as trace events' ProfileChunks carry it); a sample names the node on top of the
 * stack. As Chrome DevTools weighs them, sample i lasts from its time to the next sample's
 * (timeDeltas[i + 1], a negative delta counting 0) and the last one until endTime; without
 * timeDeltas each sample counts 1 (in samples). A frame is named `functionName (url:line)`
 * (line 1-based, as DevTools and speedscope show it; `(anonymous)` for an empty name; no
 * location without a url), so functions of one name in two files stay apart; the synthetic
 * `(root)` is dropped, `(program)`, `(idle)` and `(garbage collector)` are kept: they are
 * time the profile covers. Memory: the nodes, and 4 bytes per sample until timeDeltas is
 * read (the two arrays are parallel, so one waits for the other; timeDeltas read first
 * waits as 8 bytes a sample). Each node's time is summed, then each node with time is one
 * stack. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/json.h"
#include "parser.h"

#define NONE UINT32_MAX

typedef struct cnode {
	int64_t id, parent_id; /* parent_id: INT64_MIN when the node names none */
	uint32_t name, parent; /* parent: an index into nodes, or NONE */
	uint64_t w;
	int root; /* named "(root)" */
} cnode;

typedef struct edge {
	uint32_t parent; /* index */
	int64_t child;   /* id */
} edge;

typedef flame__array(char) text;

typedef struct cpup {
	flame__json j;
	flame__sink k;
	const char *src;
	flame__array(cnode) nodes;
	flame__array(edge) edges;
	flame__array(uint32_t) samples; /* node ids */
	flame__array(int64_t) deltas;   /* kept only while samples are not read */
	text fn, url, name;
	flame__array(uint32_t) stack, ids;
	uint64_t *wid;  /* time by node id (the ids samples name), once samples are read */
	size_t nwid;
	uint32_t *index; /* node id -> index in nodes, NONE none; `nindex` ids */
	size_t nindex;
	int64_t start, end, sum; /* the times; sum: of the deltas so far */
	size_t ndeltas;          /* read so far */
	int have_start, have_end, have_samples, have_deltas;
} cpup;

static int probe(const char *buf, size_t len)
{
	size_t i = 0;
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	return i < len && buf[i] == '{' && memmem(buf, len, "\"callFrame\"", 11) &&
	       memmem(buf, len, "\"nodes\"", 7) && !memmem(buf, len, "\"traceEvents\"", 13);
}

static int is(const flame__json *j, const char *k)
{
	return j->n == strlen(k) && !memcmp(j->s, k, j->n);
}

/* The next token, which must be `want` (naming `what` when not). */
static int expect(cpup *c, int want, const char *what)
{
	int t = flame__json_next(&c->j);
	if (t < 0)
		return t;
	return t == want ? 0 : flame__json_bad(&c->j, "%s should be %s", what,
	                                       want == FLAME__JSON_ARR ? "an array"
	                                       : want == FLAME__JSON_OBJ ? "an object" : "a number");
}

static int integer(cpup *c, int64_t *v, const char *what)
{
	int rc = expect(c, FLAME__JSON_NUM, what);
	return rc ? rc : flame__json_int(&c->j, v, what);
}

/* A string member's value into `a`; a value of another type leaves it empty. */
static int text_value(cpup *c, text *a)
{
	int t = flame__json_next(&c->j);
	a->n = 0;
	if (t != FLAME__JSON_STR)
		return t < 0 ? t : flame__json_skip(&c->j, t);
	if (flame__array_reserve(a->v, a->cap, c->j.n + 1))
		return flame__err_nomem(c->j.err);
	flame__copy(a->v, c->j.s, c->j.n);
	a->n = c->j.n;
	return 0;
}

/* callFrame: functionName, url and lineNumber into the node's name. */
static int call_frame(cpup *c, cnode *nd)
{
	int rc = expect(c, FLAME__JSON_OBJ, "callFrame"), t;
	int64_t line = -1;
	c->fn.n = c->url.n = 0;
	while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_KEY) {
		if (is(&c->j, "functionName"))
			rc = text_value(c, &c->fn);
		else if (is(&c->j, "url"))
			rc = text_value(c, &c->url);
		else if (is(&c->j, "lineNumber"))
			rc = integer(c, &line, "lineNumber");
		else
			rc = (t = flame__json_next(&c->j)) < 0 ? t : flame__json_skip(&c->j, t);
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	char loc[32] = "";
	if (line >= 0 && line < INT32_MAX)
		snprintf(loc, sizeof loc, ":%lld", (long long)line + 1);
	size_t need = c->fn.n + c->url.n + sizeof loc + 16;
	if (flame__array_reserve(c->name.v, c->name.cap, need))
		return flame__err_nomem(c->j.err);
	int n = c->fn.n ? snprintf(c->name.v, need, "%.*s", (int)c->fn.n, c->fn.v)
	                : snprintf(c->name.v, need, "(anonymous)");
	if (c->url.n)
		n += snprintf(c->name.v + n, need - (size_t)n, " (%.*s%s)", (int)c->url.n, c->url.v, loc);
	nd->root = c->fn.n == 6 && !memcmp(c->fn.v, "(root)", 6) && !c->url.n;
	nd->name = flame__sink_intern(&c->k, c->name.v, (size_t)n);
	return nd->name == FLAME__ID_NONE ? flame__err_nomem(c->j.err) : 0;
}

/* A node's "children": edges from node `self`. */
static int children(cpup *c, uint32_t self)
{
	int rc = expect(c, FLAME__JSON_ARR, "children");
	int64_t id;
	while (!rc && (rc = flame__json_array_int(&c->j, &id, "a child's id")) == 1)
		rc = flame__array_push(c->edges, ((edge){self, id})) ? flame__err_nomem(c->j.err) : 0;
	return rc;
}

static int node(cpup *c)
{
	cnode nd = {.id = -1, .parent_id = INT64_MIN, .name = FLAME__ID_NONE, .parent = NONE};
	uint32_t self = (uint32_t)c->nodes.n;
	int rc = 0, t, have_id = 0;
	if (c->nodes.n >= NONE - 1)
		return flame__json_bad(&c->j, "too many nodes");
	while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_KEY) {
		if (is(&c->j, "id"))
			rc = integer(c, &nd.id, "a node's id"), have_id = 1;
		else if (is(&c->j, "callFrame"))
			rc = call_frame(c, &nd);
		else if (is(&c->j, "children"))
			rc = children(c, self);
		else if (is(&c->j, "parent"))
			rc = integer(c, &nd.parent_id, "a node's parent");
		else
			rc = (t = flame__json_next(&c->j)) < 0 ? t : flame__json_skip(&c->j, t);
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	if (!have_id || nd.name == FLAME__ID_NONE)
		return flame__json_bad(&c->j, "a node without %s", have_id ? "a callFrame" : "an id");
	return flame__array_push(c->nodes, nd) ? flame__err_nomem(c->j.err) : 0;
}

/* The weight of a time span: a negative one counts 0. */
static uint64_t span(int64_t d)
{
	return d > 0 ? (uint64_t)d : 0;
}

/* Ids get dense tables: a profile's ids count up from 1; a few more are allowed. */
static int id_ok(int64_t id, size_t count)
{
	return id >= 0 && (uint64_t)id < (uint64_t)count * 4 + (1u << 20);
}

static int samples(cpup *c)
{
	int rc = expect(c, FLAME__JSON_ARR, "samples");
	int64_t ids[256], max = -1;
	long got;
	while (!rc && (got = flame__json_array_ints(&c->j, ids, 256, "a sample's node id")) > 0) {
		if (flame__array_reserve(c->samples.v, c->samples.cap, c->samples.n + (size_t)got))
			return flame__err_nomem(c->j.err);
		for (long i = 0; i < got; i++) {
			if (ids[i] < 0 || ids[i] >= NONE)
				return flame__json_bad(&c->j, "a sample's node id %lld is out of range",
				                       (long long)ids[i]);
			c->samples.v[c->samples.n++] = (uint32_t)ids[i];
			max = ids[i] > max ? ids[i] : max;
		}
	}
	if (rc || (rc = got < 0 ? (int)got : 0))
		return rc;
	if (c->have_samples)
		return flame__json_bad(&c->j, "a second samples array");
	c->have_samples = 1;
	if (max >= 0 && !id_ok(max, c->samples.n))
		return flame__json_bad(&c->j, "sample node ids up to %lld, too sparse for %zu samples",
		                       (long long)max, c->samples.n);
	c->nwid = (size_t)(max + 1);
	c->wid = calloc(c->nwid ? c->nwid : 1, sizeof *c->wid);
	return c->wid ? 0 : flame__err_nomem(c->j.err);
}

/* Delta number k (the time since sample k - 1): sample k - 1 lasted that long. */
static void delta(cpup *c, size_t k, int64_t d)
{
	if (k >= 1 && k <= c->samples.n) {
		uint64_t *w = &c->wid[c->samples.v[k - 1]];
		*w = *w + span(d) < *w ? UINT64_MAX : *w + span(d);
	}
	int64_t s = c->sum + d;
	c->sum = (d > 0 && s < c->sum) || (d < 0 && s > c->sum) ? c->sum : s;
}

static int time_deltas(cpup *c)
{
	int rc = expect(c, FLAME__JSON_ARR, "timeDeltas");
	int64_t d[256];
	if (c->have_deltas)
		return flame__json_bad(&c->j, "a second timeDeltas array");
	c->have_deltas = 1;
	long got;
	while (!rc && (got = flame__json_array_ints(&c->j, d, 256, "a time delta")) > 0) {
		for (long i = 0; i < got && c->wid; i++)
			delta(c, c->ndeltas + (size_t)i, d[i]);
		if (!c->wid && flame__array_reserve(c->deltas.v, c->deltas.cap, c->deltas.n + (size_t)got))
			return flame__err_nomem(c->j.err);
		for (long i = 0; i < got && !c->wid; i++)
			c->deltas.v[c->deltas.n++] = d[i];
		c->ndeltas += (size_t)got;
	}
	return rc ? rc : got < 0 ? (int)got : 0;
}

/* The members of the top-level object. */
static int members(cpup *c)
{
	int rc = expect(c, FLAME__JSON_OBJ, "a CPU profile"), t;
	while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_KEY) {
		if (is(&c->j, "nodes")) {
			if (!(rc = expect(c, FLAME__JSON_ARR, "nodes")))
				while ((t = flame__json_next(&c->j)) == FLAME__JSON_OBJ && !(rc = node(c)))
					;
			if (!rc && t != FLAME__JSON_ARR_END)
				rc = t < 0 ? t : flame__json_bad(&c->j, "a node should be an object");
		} else if (is(&c->j, "samples")) {
			rc = samples(c);
		} else if (is(&c->j, "timeDeltas")) {
			rc = time_deltas(c);
		} else if (is(&c->j, "startTime")) {
			rc = integer(c, &c->start, "startTime"), c->have_start = 1;
		} else if (is(&c->j, "endTime")) {
			rc = integer(c, &c->end, "endTime"), c->have_end = 1;
		} else {
			rc = (t = flame__json_next(&c->j)) < 0 ? t : flame__json_skip(&c->j, t);
		}
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	return (t = flame__json_next(&c->j)) < 0 ? t : 0; /* the end: nothing after the object */
}

/* Nodes by id, and each node's parent. */
static int link_nodes(cpup *c)
{
	int64_t max = -1;
	for (size_t i = 0; i < c->nodes.n; i++) {
		if (!id_ok(c->nodes.v[i].id, c->nodes.n))
			return flame__err(c->j.err, FLAME_EDATA, c->src, 0, FLAME__NO_OFFSET,
			                  "node id %lld is out of range for %zu nodes",
			                  (long long)c->nodes.v[i].id, c->nodes.n);
		max = c->nodes.v[i].id > max ? c->nodes.v[i].id : max;
	}
	c->nindex = (size_t)(max + 1);
	if (!(c->index = malloc((c->nindex ? c->nindex : 1) * sizeof *c->index)))
		return flame__err_nomem(c->j.err);
	memset(c->index, 0xff, c->nindex * sizeof *c->index);
	for (size_t i = 0; i < c->nodes.n; i++) {
		uint32_t *slot = &c->index[c->nodes.v[i].id];
		if (*slot != NONE)
			return flame__err(c->j.err, FLAME_EDATA, c->src, 0, FLAME__NO_OFFSET,
			                  "two nodes have the id %lld", (long long)c->nodes.v[i].id);
		*slot = (uint32_t)i;
	}
	for (size_t i = 0; i < c->nodes.n; i++) {
		int64_t p = c->nodes.v[i].parent_id;
		if (p >= 0 && (uint64_t)p < c->nindex)
			c->nodes.v[i].parent = c->index[p];
	}
	for (size_t i = 0; i < c->edges.n; i++) {
		int64_t id = c->edges.v[i].child;
		if (id >= 0 && (uint64_t)id < c->nindex && c->index[id] != NONE)
			c->nodes.v[c->index[id]].parent = c->edges.v[i].parent;
	}
	return 0;
}

/* Node i's stack, root first, to the sink with its time. */
static int emit(cpup *c, size_t i)
{
	size_t n = 0;
	for (uint32_t at = (uint32_t)i; at != NONE; at = c->nodes.v[at].parent) {
		if (n == c->nodes.n)
			return flame__err(c->j.err, FLAME_EDATA, c->src, 0, FLAME__NO_OFFSET,
			                  "the parents of node %lld make a cycle", (long long)c->nodes.v[i].id);
		if (flame__array_reserve(c->stack.v, c->stack.cap, n + 1))
			return flame__err_nomem(c->j.err);
		c->stack.v[n++] = at;
	}
	if (n > 1 && c->nodes.v[c->stack.v[n - 1]].root)
		n--; /* the synthetic root */
	if (flame__array_reserve(c->ids.v, c->ids.cap, n))
		return flame__err_nomem(c->j.err);
	for (size_t a = 0; a < n; a++)
		c->ids.v[a] = c->nodes.v[c->stack.v[n - 1 - a]].name;
	return flame__sink_add(&c->k, c->ids.v, n, c->nodes.v[i].w, 0, c->j.err);
}

/* Every sample's time onto its node, then one stack per node with time. */
static int finish(cpup *c)
{
	int rc = link_nodes(c);
	if (rc)
		return rc;
	if (c->have_deltas) {
		for (size_t k = 0; k < c->deltas.n && c->wid; k++)
			delta(c, k, c->deltas.v[k]);
		if (c->have_start && c->have_end && c->samples.n && c->ndeltas == c->samples.n) {
			int64_t last = c->start + c->sum; /* the last sample lasts until endTime */
			c->sum = 0;
			delta(c, c->samples.n, c->end - last);
		}
	} else {
		for (size_t k = 0; k < c->samples.n; k++)
			c->wid[c->samples.v[k]]++;
	}
	for (size_t id = 0; id < c->nwid; id++) {
		if (!c->wid[id])
			continue;
		if (id >= c->nindex || c->index[id] == NONE)
			return flame__err(c->j.err, FLAME_EDATA, c->src, 0, FLAME__NO_OFFSET,
			                  "samples name node %zu, which is not among the nodes", id);
		c->nodes.v[c->index[id]].w = c->wid[id];
	}
	if ((rc = flame__sink_units(&c->k, c->have_deltas ? "microseconds" : "samples", NULL,
	                            c->src, c->j.err)))
		return rc;
	for (size_t i = 0; i < c->nodes.n && !rc; i++)
		if (c->nodes.v[i].w)
			rc = emit(c, i);
	return rc;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	(void)o;
	cpup c = {.src = flame_input_name(in)};
	int rc = flame__json_init(&c.j, in, err);
	if (rc)
		return rc;
	flame__sink_init(&c.k, t);
	if (!(rc = members(&c)))
		rc = finish(&c);
	flame__json_free(&c.j);
	flame__array_free(c.nodes);
	flame__array_free(c.edges);
	flame__array_free(c.samples);
	flame__array_free(c.deltas);
	flame__array_free(c.fn);
	flame__array_free(c.url);
	flame__array_free(c.name);
	flame__array_free(c.stack);
	flame__array_free(c.ids);
	free(c.wid);
	free(c.index);
	return rc;
}

const struct flame__parser flame__parser_cpuprofile = {probe, parse};
