/* flame-top --pgo FILE: what `go build -pgo=FILE` makes of a pprof profile, by the rules of
 * Go's cmd/internal/pgo: the sample type it weighs by (the first samples/count or
 * cpu/nanoseconds, else the default type or the last, refused when that is a heap, mutex or
 * block type), the call edges it reads (caller name, the call's line less the caller's
 * Function.start_line, callee name; a profile whose functions have no start line is
 * refused), and the hottest edges with their share of the weight. Go inlines hot call
 * sites: those among the heaviest edges that make up 99% of the weight. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "top-pgo.h"

typedef struct types {
	char type[8][128], unit[8][128];
	int n, dflt, all;
} types;

static int on_type(void *ud, const char *type, const char *unit, int is_default)
{
	types *t = ud;
	if (t->n < 8) {
		snprintf(t->type[t->n], sizeof t->type[0], "%s", type);
		snprintf(t->unit[t->n], sizeof t->unit[0], "%s", unit);
		if (is_default)
			t->dflt = t->n;
		t->n++;
	}
	t->all++;
	return 0;
}

/* Go's choice of sample type (sampleValueIndex); -1 when it refuses the profile. */
static int pick(const types *t)
{
	static const char *const non_cpu[] = {"alloc_objects", "alloc_space", "inuse_objects",
	                                      "inuse_space", "contentions", "delay"};
	for (int i = 0; i < t->n; i++)
		if ((!strcmp(t->type[i], "samples") && !strcmp(t->unit[i], "count")) ||
		    (!strcmp(t->type[i], "cpu") && !strcmp(t->unit[i], "nanoseconds")))
			return i;
	int i = t->dflt >= 0 ? t->dflt : t->n - 1;
	for (size_t k = 0; i >= 0 && k < sizeof non_cpu / sizeof *non_cpu; k++)
		if (!strcmp(t->type[i], non_cpu[k]))
			return -1;
	return i;
}

typedef struct edge {
	flame_str caller, callee;
	int64_t offset;
	uint64_t w;
} edge;

static int strcmp_s(flame_str a, flame_str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int r = n ? memcmp(a.ptr, b.ptr, n) : 0;
	return r ? r : (a.len > b.len) - (a.len < b.len);
}

static int by_key(const void *x, const void *y)
{
	const edge *a = x, *b = y;
	int r = strcmp_s(a->caller, b->caller);
	if (!r)
		r = strcmp_s(a->callee, b->callee);
	return r ? r : (a->offset > b->offset) - (a->offset < b->offset);
}

/* Go's order: heavier first, then caller, callee, offset */
static int by_weight(const void *x, const void *y)
{
	const edge *a = x, *b = y;
	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return by_key(x, y);
}

static flame_str fn_name(const flame_tree *t, flame_node n)
{
	const flame_site *s = flame_node_site(t, n);
	return s ? s->function : flame_node_name(t, n);
}

/* Every parent -> child pair of the built tree as an edge, equal ones summed. */
static edge *edges_of(const flame_tree *t, size_t *n, int *start_lines)
{
	size_t cap = flame_tree_node_count(t), k = 0;
	edge *e = malloc((cap ? cap : 1) * sizeof *e);
	*start_lines = 0;
	for (flame_node c = 1; e && c < cap; c++) {
		flame_node p = flame_node_parent(t, c);
		const flame_site *ps = flame_node_site(t, p), *cs = flame_node_site(t, c);
		if ((ps && ps->start_line) || (cs && cs->start_line))
			*start_lines = 1;
		if (p == 0 || p == FLAME_NODE_NONE)
			continue;
		e[k++] = (edge){fn_name(t, p), fn_name(t, c), ps ? ps->line - ps->start_line : 0,
		                flame_node_total(t, c, 0)};
	}
	if (!e)
		return NULL;
	qsort(e, k, sizeof *e, by_key);
	size_t u = 0;
	for (size_t i = 0; i < k; i++) {
		if (u && !by_key(&e[u - 1], &e[i]))
			e[u - 1].w += e[i].w;
		else
			e[u++] = e[i];
	}
	qsort(e, u, sizeof *e, by_weight);
	*n = u;
	return e;
}

static int refuse(const char *path, const char *why)
{
	fprintf(stderr, "%s: %s: go build -pgo refuses it: %s\n", cli_prog(), path, why);
	return 1;
}

static void print_edges(FILE *out, const edge *e, size_t n, unsigned rows, uint64_t total)
{
	uint64_t cum = 0;
	size_t hot = 0;
	for (; hot < n && cum * 100 < total * 99; hot++)
		cum += e[hot].w;
	fprintf(out, "call edges: %zu, weight %llu; hot (the heaviest that make up 99%% of the "
	        "weight, which Go inlines at): %zu\n", n, (unsigned long long)total, hot);
	size_t show = rows && rows < n ? rows : n;
	cum = 0;
	fprintf(out, "%14s %7s %7s  edge (caller:+line from its start -> callee)\n", "weight", "share",
	        "cum");
	for (size_t i = 0; i < show; i++) {
		cum += e[i].w;
		fprintf(out, "%14llu %6.2f%% %6.2f%%  %.*s:+%lld -> %.*s\n", (unsigned long long)e[i].w,
		        100.0 * (double)e[i].w / (double)total, 100.0 * (double)cum / (double)total,
		        (int)e[i].caller.len, e[i].caller.ptr, (long long)e[i].offset,
		        (int)e[i].callee.len, e[i].callee.ptr);
	}
	fprintf(out, "the %zu hottest edges cover %.2f%% of the weight\n", show,
	        100.0 * (double)cum / (double)total);
}

int top_pgo(const char *path, unsigned rows, FILE *out)
{
	flame_err err = {0};
	flame_input *in = NULL;
	types ty = {.dflt = -1};
	int bad = flame_input_open(&in, path, &err) || flame_pprof_sample_types(in, on_type, &ty, &err);
	flame_input_free(in); /* read again below, from its start */
	in = NULL;
	if (bad)
		return refuse(path, err.msg[0] ? err.msg : "not a pprof profile");
	if (!ty.all) {
		fprintf(out, "%s: Go takes it, but it holds no samples: it changes nothing\n", path);
		return 0;
	}
	int vi = pick(&ty);
	if (vi < 0)
		return refuse(path, "profile does not contain a sample index with value/type "
		                    "\"samples/count\" or \"cpu/nanoseconds\", and does not default to a "
		                    "CPU sample type");
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.format = FLAME_FORMAT_PPROF;
	po.keep_sites = 1;
	po.pprof_sample_type = ty.type[vi];
	flame_tree *t = NULL;
	int rc = flame_tree_new(&t, &err) || flame_input_open(&in, path, &err) ||
	         flame_parse(t, in, &po, &err) || flame_tree_build(t, FLAME_ORDER_NAME, &err);
	flame_input_free(in);
	size_t n = 0;
	int start_lines = 0;
	edge *e = rc ? NULL : edges_of(t, &n, &start_lines);
	if (rc || !e) {
		flame_tree_free(t);
		free(e);
		return refuse(path, rc ? err.msg : "out of memory");
	}
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += e[i].w;
	if (!start_lines && flame_tree_total(t, 0))
		rc = refuse(path, "profile missing Function.start_line data (Go version of profiled "
		                  "application too old? Go 1.20+ automatically adds this to profiles)");
	else if (!total)
		fprintf(out, "%s: Go takes it, but it holds no call edges: it changes nothing\n", path);
	else {
		fprintf(out, "%s: Go's PGO takes it\nsample type: %s/%s\n", path, ty.type[vi], ty.unit[vi]);
		print_edges(out, e, n, rows, total);
	}
	free(e);
	flame_tree_free(t);
	return rc;
}
