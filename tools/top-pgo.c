/* flame-top --pgo FILE: what `go build -pgo=FILE` makes of a pprof profile, by the rules of
 * Go's cmd/internal/pgo (FromPProf, createNamedEdgeMap) and the graph it builds them on
 * (internal/profile's NewGraph): the sample type it weighs by (the first samples/count or
 * cpu/nanoseconds; none: refused), the call edges it reads (caller name, the call's line
 * less the caller's Function.start_line, callee name; a profile none of whose frames it
 * reads has a start line is refused), and the hottest edges with their share of the
 * weight. Go reads only each sample's last two locations (the leaf's and its caller's,
 * with the lines inlined in each): an edge between two of those frames counts the
 * sample's weight once, however often it appears there, and edges higher up the stack
 * (a recursion's, runtime.main's call of main.main) count nothing. `go tool preprofile`
 * prints the same edges and weights (tests/lines/pgo.sh compares them). Go inlines hot
 * call sites: those among the heaviest edges that make up 99% of the weight. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "top-pgo.h"

typedef struct types {
	char type[8][128], unit[8][128];
	int n, all;
} types;

static int on_type(void *ud, const char *type, const char *unit, int is_default)
{
	types *t = ud;
	(void)is_default; /* Go takes no default */
	if (t->n < 8) {
		snprintf(t->type[t->n], sizeof t->type[0], "%s", type);
		snprintf(t->unit[t->n], sizeof t->unit[0], "%s", unit);
		t->n++;
	}
	t->all++;
	return 0;
}

/* Go's choice of sample type (FromPProf's valueIndex); -1 when it refuses the profile. */
static int pick(const types *t)
{
	for (int i = 0; i < t->n; i++)
		if ((!strcmp(t->type[i], "samples") && !strcmp(t->unit[i], "count")) ||
		    (!strcmp(t->type[i], "cpu") && !strcmp(t->unit[i], "nanoseconds")))
			return i;
	return -1;
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

/* A frame as Go's graph keys it (NodeInfo): its function's name, line, start line and its
 * location's address. */
typedef struct gnode {
	flame_str name;
	int64_t line, start;
	uint64_t address;
} gnode;

static gnode gnode_of(const flame_tree *t, flame_node n)
{
	const flame_site *s = flame_node_site(t, n);
	return (gnode){fn_name(t, n), s ? s->line : 0, s ? s->start_line : 0, s ? s->address : 0};
}

static int gnode_eq(const gnode *a, const gnode *b)
{
	return a->line == b->line && a->start == b->start && a->address == b->address &&
	       !strcmp_s(a->name, b->name);
}

/* Whether frame c is of its parent p's location: inlined into it, at its address (the pprof
 * writer's Location of several Lines). */
static int same_location(const flame_tree *t, flame_node p, flame_node c)
{
	const flame_site *ps = flame_node_site(t, p), *cs = flame_node_site(t, c);
	return ps && cs && cs->inlined && cs->address == ps->address && cs->mapping == ps->mapping;
}

enum { WINDOW = 256 };

/* The frames of the last two locations of the stack ending at `leaf`, root first, into
 * w[]: their count (at most WINDOW). */
static size_t window(const flame_tree *t, flame_node leaf, gnode *w)
{
	flame_node up[WINDOW];
	size_t k = 0;
	int locs = 0;
	for (flame_node n = leaf; n && n != FLAME_NODE_NONE && locs < 2 && k < WINDOW;) {
		flame_node p = flame_node_parent(t, n);
		up[k++] = n;
		if (!p || p == FLAME_NODE_NONE || !same_location(t, p, n))
			locs++;
		n = p;
	}
	for (size_t i = 0; i < k; i++)
		w[i] = gnode_of(t, up[k - 1 - i]);
	return k;
}

/* Whether the pair w[i-1], w[i] came before in the window (Go counts it once). */
static int seen_pair(const gnode *w, size_t i)
{
	for (size_t j = 1; j < i; j++)
		if (gnode_eq(&w[j - 1], &w[i - 1]) && gnode_eq(&w[j], &w[i]))
			return 1;
	return 0;
}

/* The edges of each stack's last two locations (Go's NewGraph): consecutive frames that
 * are not one node, each pair once per stack, weighed by the stack's samples. Equal edges
 * are summed; *start_lines says whether a frame read has a start line. */
static edge *edges_of(const flame_tree *t, size_t *n, int *start_lines)
{
	size_t cap = 1024, k = 0, nodes = flame_tree_node_count(t);
	edge *e = malloc(cap * sizeof *e);
	gnode w[WINDOW];
	*start_lines = 0;
	for (flame_node c = 1; e && c < nodes; c++) {
		uint64_t weight = flame_node_self(t, c, 0);
		size_t m = weight ? window(t, c, w) : 0;
		for (size_t i = 0; i < m; i++)
			*start_lines |= w[i].start != 0;
		for (size_t i = 1; e && i < m; i++) {
			if (gnode_eq(&w[i - 1], &w[i]))
				continue;
			if (seen_pair(w, i))
				continue;
			edge x = {w[i - 1].name, w[i].name, w[i - 1].line - w[i - 1].start, weight};
			if (k == cap) {
				edge *b = realloc(e, 2 * cap * sizeof *e);
				if (!b)
					free(e);
				e = b;
				cap *= 2;
			}
			if (e)
				e[k++] = x;
		}
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

/* The profile read into a built tree, weighed by sample type `type` (NULL: the default):
 * 0, or 1 with the reason in err. */
static int read_tree(const char *path, const char *type, flame_tree **t, flame_err *err)
{
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.format = FLAME_FORMAT_PPROF;
	po.keep_sites = 1;
	po.pprof_flags = FLAME_PPROF_NO_PRUNE; /* Go reads every frame */
	po.pprof_sample_type = type;
	flame_input *in = NULL;
	int rc = flame_tree_new(t, err) || flame_input_open(&in, path, err) ||
	         flame_parse(*t, in, &po, err) || flame_tree_build(*t, FLAME_ORDER_NAME, err);
	flame_input_free(in);
	return rc;
}

int top_pgo(const char *path, unsigned rows, FILE *out)
{
	flame_err err = {0};
	flame_input *in = NULL;
	types ty = {.n = 0};
	int bad = flame_input_open(&in, path, &err) || flame_pprof_sample_types(in, on_type, &ty, &err);
	flame_input_free(in); /* read again below, from its start */
	int vi = bad ? -1 : pick(&ty);
	flame_tree *t = NULL;
	if (bad || read_tree(path, vi >= 0 ? ty.type[vi] : NULL, &t, &err)) {
		flame_tree_free(t);
		return refuse(path, err.msg[0] ? err.msg : "not a pprof profile");
	}
	/* Go takes a profile with no samples before it looks at their types */
	if (!ty.all || (flame_tree_node_count(t) <= 1 && !flame_tree_total(t, 0))) {
		flame_tree_free(t);
		fprintf(out, "%s: Go takes it, but it holds no samples: it changes nothing\n", path);
		return 0;
	}
	size_t n = 0;
	int start_lines = 0, rc = 0;
	edge *e = vi < 0 ? NULL : edges_of(t, &n, &start_lines);
	if (vi < 0)
		rc = refuse(path, "profile does not contain a sample index with value/type "
		                  "\"samples/count\" or cpu/nanoseconds\""); /* Go's words */
	else if (!e)
		rc = refuse(path, "out of memory");
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += e[i].w;
	if (!rc && !start_lines && flame_tree_total(t, 0))
		rc = refuse(path, "profile missing Function.start_line data (Go version of profiled "
		                  "application too old? Go 1.20+ automatically adds this to profiles)");
	else if (!rc && !total)
		fprintf(out, "%s: Go takes it, but it holds no call edges: it changes nothing\n", path);
	else if (!rc) {
		fprintf(out, "%s: Go's PGO takes it\nsample type: %s/%s\n", path, ty.type[vi], ty.unit[vi]);
		print_edges(out, e, n, rows, total);
	}
	free(e);
	flame_tree_free(t);
	return rc;
}
