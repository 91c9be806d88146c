/* .cpuprofile writer: a tree as Chrome DevTools' and V8's CPU profile JSON, which Chrome's
 * DevTools, VS Code and speedscope open. The node tree is written as it is (node 1 is
 * `(root)`, each frame a callFrame with its name as functionName and no url), and each node
 * with self time is one sample lasting that time: timeDeltas[i + 1] is sample i's time and
 * the last one runs to endTime, as DevTools weighs samples (parse/cpuprofile.c reads it back
 * so). A .cpuprofile holds microseconds: counts in a time unit are converted (the running
 * sum rounded, so the total is exact to a microsecond), other counts (samples, bytes) are
 * refused. A differential tree writes its AFTER column. */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/numfmt.h"
#include "../core/output.h"
#include "../core/tree.h"
#include "escape.h"

__extension__ typedef unsigned __int128 u128;

typedef struct cpw {
	flame_output *o;
	flame_err *err;
	const flame__node *nodes;
	size_t n;
	const flame__intern *names;
	int col;
	uint64_t num, den; /* microseconds = count * num / den */
} cpw;

static int put(cpw *w, const char *s)
{
	return flame__output_put(w->o, s, strlen(s), w->err);
}

static int put_u64(cpw *w, uint64_t v, const char *before)
{
	char b[40];
	size_t k = strlen(before);
	memcpy(b, before, k);
	return flame__output_put(w->o, b, k + flame__fmt_u64(b + k, v), w->err);
}

/* Node i as {"id":..,"callFrame":{..},"children":[..]}. */
static int node(cpw *w, size_t i)
{
	const flame__name *nm = flame__intern_get(w->names, w->nodes[i].name);
	int rc = put_u64(w, i + 1, i ? ",{\"id\":" : "{\"id\":");
	rc = rc ? rc : put(w, ",\"callFrame\":{\"functionName\":\"");
	if (!rc && i) {
		char *d = flame__output_reserve(w->o, FLAME__ESCAPE_MAX(nm->len), &rc, w->err);
		if (d)
			flame__output_advance(w->o, flame__json_escape(d, nm->ptr, nm->len));
	} else if (!rc) {
		rc = put(w, "(root)");
	}
	rc = rc ? rc : put(w, "\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1}");
	const char *sep = ",\"children\":[";
	for (uint32_t c = w->nodes[i].first_child; !rc && c != FLAME_NODE_NONE; c = w->nodes[c].next_sibling) {
		rc = put_u64(w, (uint64_t)c + 1, sep);
		sep = ",";
	}
	if (!rc && sep[0] == ',' && sep[1])
		return put(w, "}");
	return rc ? rc : put(w, "]}");
}

/* Microseconds up to and including count `sum` (the running sum rounded). */
static uint64_t us(const cpw *w, uint64_t sum)
{
	u128 v = (u128)sum * w->num;
	return (uint64_t)((v + w->den / 2) / w->den);
}

/* The samples (one per node with self time) and their timeDeltas. */
static int samples(cpw *w)
{
	uint64_t total = 0;
	for (size_t i = 0; i < w->n; i++)
		total += w->nodes[i].self[w->col];
	int rc = put_u64(w, us(w, total), "],\"startTime\":0,\"endTime\":");
	rc = rc ? rc : put(w, ",\"samples\":[");
	const char *sep = "";
	for (size_t i = 0; i < w->n && !rc; i++)
		if (w->nodes[i].self[w->col]) {
			rc = put_u64(w, i + 1, sep);
			sep = ",";
		}
	rc = rc ? rc : put(w, "],\"timeDeltas\":[");
	uint64_t sum = 0, at = 0;
	sep = "";
	for (size_t i = 0; i < w->n && !rc; i++)
		if (w->nodes[i].self[w->col]) {
			rc = put_u64(w, us(w, sum) - at, sep); /* the previous sample's time */
			at = us(w, sum);
			sum += w->nodes[i].self[w->col];
			sep = ",";
		}
	return rc ? rc : put(w, "]}\n");
}

/* Counts to microseconds: num / den from the tree's unit and decimals; 0 for no time unit. */
static int scale_of(const flame_tree *t, cpw *w)
{
	static const struct { const char *unit; uint64_t num, den; } units[] = {
		{"nanoseconds", 1, 1000}, {"ns", 1, 1000},       {"microseconds", 1, 1}, {"us", 1, 1},
		{"milliseconds", 1000, 1}, {"ms", 1000, 1},      {"seconds", 1000000, 1}, {"s", 1000000, 1}};
	const char *cn = flame_tree_count_name(t);
	for (size_t i = 0; cn && i < sizeof units / sizeof *units; i++)
		if (!strcmp(cn, units[i].unit)) {
			w->num = units[i].num;
			w->den = units[i].den * flame__pow10[flame_tree_decimals(t)];
			return 1;
		}
	return 0;
}

int flame_write_cpuprofile(flame_tree *t, flame_output *out, flame_err *err)
{
	cpw w = {.o = out, .err = err, .names = flame__tree_names(t),
	         .col = flame_tree_is_differential(t) ? 1 : 0};
	if (!scale_of(t, &w)) {
		const char *cn = flame_tree_count_name(t);
		return flame__err(err, FLAME_EUSAGE, NULL, 0, FLAME__NO_OFFSET,
		                  "a .cpuprofile holds time, and these counts are %s: write speedscope "
		                  "or pprof instead", cn ? cn : "samples");
	}
	int rc = flame_tree_build(t, FLAME_ORDER_NAME, err);
	if (rc)
		return rc;
	w.nodes = flame__tree_nodes(t, &w.n);
	rc = put(&w, "{\"nodes\":[");
	for (size_t i = 0; i < w.n && !rc; i++)
		rc = node(&w, i);
	return rc ? rc : samples(&w);
}
