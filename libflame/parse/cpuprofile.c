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
 * stack. The nodes, samples and deltas go to V8's profile model (v8-profile.h), which the
 * trace event reader (chrometrace.c) shares: it weighs them (microseconds from the deltas,
 * or a count each without them), names the frames and makes one stack per node with time.
 * Memory: the nodes, and 4 bytes per sample until timeDeltas is read (the two arrays are
 * parallel, so one waits for the other; timeDeltas read first waits as 8 bytes a sample). */
#include <string.h>
#include "../core/json.h"
#include "parser.h"
#include "v8-profile.h"

typedef struct cpup {
	flame__json j;
	flame__sink k;
	flame__v8ctx x;
	flame__v8prof p;
	int have_samples;
} cpup;

static int probe(const char *buf, size_t len)
{
	size_t i = 0;
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	return i < len && buf[i] == '{' && memmem(buf, len, "\"callFrame\"", 11) &&
	       memmem(buf, len, "\"nodes\"", 7) && !memmem(buf, len, "\"traceEvents\"", 13);
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

static int nodes(cpup *c)
{
	int rc = expect(c, FLAME__JSON_ARR, "nodes"), t;
	flame__v8node nd;
	while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_OBJ)
		if (!(rc = flame__v8_node(&c->x, &nd, &c->p.edges)))
			rc = flame__v8prof_node(&c->p, &c->x, &nd);
	if (!rc && t != FLAME__JSON_ARR_END)
		rc = t < 0 ? t : flame__json_bad(&c->j, "a node should be an object");
	return rc;
}

/* samples or timeDeltas: an array of integers, 256 at a time to the profile. */
static int numbers(cpup *c, int deltas)
{
	int rc = expect(c, FLAME__JSON_ARR, deltas ? "timeDeltas" : "samples");
	int64_t v[256];
	long got = 0;
	if (!rc && (deltas ? c->p.have_deltas : c->have_samples))
		return flame__json_bad(&c->j, "a second %s array", deltas ? "timeDeltas" : "samples");
	if (deltas)
		c->p.have_deltas = 1;
	c->have_samples |= !deltas;
	while (!rc && (got = flame__json_array_ints(&c->j, v, 256, deltas ? "a time delta"
	                                                                  : "a sample's node id")) > 0)
		rc = deltas ? flame__v8prof_deltas(&c->p, &c->x, v, (size_t)got)
		            : flame__v8prof_samples(&c->p, &c->x, v, (size_t)got);
	return rc ? rc : got < 0 ? (int)got : 0;
}

/* The members of the top-level object. */
static int members(cpup *c)
{
	int rc = expect(c, FLAME__JSON_OBJ, "a CPU profile"), t;
	while (!rc && (t = flame__json_next(&c->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&c->j, "nodes"))
			rc = nodes(c);
		else if (flame__json_is(&c->j, "samples"))
			rc = numbers(c, 0);
		else if (flame__json_is(&c->j, "timeDeltas"))
			rc = numbers(c, 1);
		else if (flame__json_is(&c->j, "startTime"))
			rc = integer(c, &c->p.start, "startTime"), c->p.have_start = 1;
		else if (flame__json_is(&c->j, "endTime"))
			rc = integer(c, &c->p.end, "endTime"), c->p.have_end = 1;
		else
			rc = (t = flame__json_next(&c->j)) < 0 ? t : flame__json_skip(&c->j, t);
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	return (t = flame__json_next(&c->j)) < 0 ? t : 0; /* the end: nothing after the object */
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	(void)o;
	cpup c = {0};
	int rc = flame__json_init(&c.j, in, err);
	if (rc)
		return rc;
	flame__sink_init(&c.k, t);
	c.x = (flame__v8ctx){.j = &c.j, .k = &c.k, .src = flame_input_name(in)};
	if (!(rc = members(&c)) &&
	    !(rc = flame__sink_units(&c.k, c.p.have_deltas ? "microseconds" : "samples", NULL,
	                             c.x.src, err)))
		rc = flame__v8prof_finish(&c.p, &c.x);
	flame__json_free(&c.j);
	flame__v8ctx_free(&c.x);
	flame__v8prof_free(&c.p);
	return rc;
}

const struct flame__parser flame__parser_cpuprofile = {probe, parse};
