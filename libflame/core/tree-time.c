/* The public side of the time a tree keeps (flame.h's "Time"): asking for it, its span,
 * reading it back per stack, per bucket or per node, and cutting a range of it into the
 * tree. The table itself is core/time.c's; tree.c keeps its stack numbers true. */
#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "time.h"
#include "tree-private.h"

struct flame__time *flame__tree_time(const flame_tree *t) { return t->time; }

void flame__tree_drop_time(flame_tree *t)
{
	flame__time_free(t->time);
	t->time = NULL;
}

int flame_tree_keep_time(flame_tree *t, uint64_t bucket_ns, flame_err *err)
{
	if (!bucket_ns || bucket_ns > INT64_MAX)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "a time bucket must be 1 ns to 2^63 ns, not %llu",
		                  (unsigned long long)bucket_ns);
	if (t->time && t->time->bucket_ns != bucket_ns)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "the tree keeps time in buckets of %llu ns already",
		                  (unsigned long long)t->time->bucket_ns);
	if (t->time)
		return 0;
	flame__stacks *s; /* spilled runs come back: time keeps the table in memory */
	int rc = flame__tree_stacks(t, &s, err);
	if (rc)
		return rc;
	t->time = flame__time_new(bucket_ns);
	return t->time ? 0 : flame__err_nomem(err);
}

flame_clock flame_tree_time_span(const flame_tree *t, int64_t *first_ns, int64_t *last_ns)
{
	const flame__time *tm = t->time;
	int on = tm && tm->clock != FLAME_CLOCK_NONE;
	if (first_ns)
		*first_ns = on ? tm->first_ns : 0;
	if (last_ns)
		*last_ns = on ? tm->last_ns : 0;
	return on ? tm->clock : FLAME_CLOCK_NONE;
}

uint64_t flame_tree_time_bucket(const flame_tree *t) { return t->time ? t->time->bucket_ns : 0; }

/* An entry's time from the first sample: its bucket's start (the first bucket at 0). */
static int64_t rel_ns(const flame__time *tm, const flame__time_entry *e)
{
	int64_t r = flame__time_bucket_ns(tm, e->bucket) - tm->first_ns;
	return r < 0 ? 0 : r;
}

int flame_tree_each_time(flame_tree *t, flame_time_fn fn, void *ud, flame_err *err)
{
	flame__time *tm = t->time;
	if (!tm || !tm->count)
		return 0;
	flame__time_compact(tm);
	flame_str *fr = NULL;
	size_t cap = 0;
	int rc = 0;
	for (size_t i = 0; i < tm->count && rc <= 0; i++) {
		const flame__time_entry *e = &tm->v[i];
		const flame__stack *st = &t->stacks.v[e->stack];
		if (st->depth > cap) {
			free(fr);
			cap = st->depth * 2;
			if (!(fr = malloc(cap * sizeof *fr)))
				return flame__err_nomem(err);
		}
		for (uint32_t d = 0; d < st->depth; d++) {
			const flame__name *nm = flame__intern_get(&t->names, st->ids[d]);
			fr[d] = (flame_str){nm->ptr, nm->len};
		}
		rc = fn(ud, fr, st->depth, rel_ns(tm, e), e->w[0], e->w[1]);
	}
	free(fr);
	return rc > 0 ? rc : 0;
}

/* match[k] = 1 when stack k passes through `node` of the built tree (all: every stack). */
static int through_node(const flame_tree *t, flame_node node, unsigned char *match)
{
	size_t n = t->stacks.count;
	if (node == FLAME_NODE_NONE || node == 0) {
		memset(match, 1, n);
		return 0;
	}
	if (!t->nodes_valid || node >= t->node_count)
		return FLAME_EUSAGE;
	uint32_t depth = t->nodes[node].depth;
	uint32_t *path = malloc(depth * sizeof *path);
	if (!path)
		return FLAME_ENOMEM;
	for (uint32_t x = node, d = depth; d; x = t->nodes[x].parent)
		path[--d] = t->nodes[x].name;
	for (size_t k = 0; k < n; k++) {
		const flame__stack *st = &t->stacks.v[k];
		match[k] = st->depth >= depth && memcmp(st->ids, path, depth * sizeof *path) == 0;
	}
	free(path);
	return 0;
}

int flame_tree_time_series(flame_tree *t, flame_node node, int col, int64_t start_ns,
                           uint64_t step_ns, uint64_t *out, size_t n, flame_err *err)
{
	if (col < 0 || col > 1 || !step_ns || step_ns > INT64_MAX)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "a time series wants column 0 or 1 and a step above 0");
	memset(out, 0, n * sizeof *out);
	flame__time *tm = t->time;
	if (!tm || !tm->count || !n)
		return 0;
	unsigned char *match = malloc(t->stacks.count ? t->stacks.count : 1);
	if (!match)
		return flame__err_nomem(err);
	int rc = through_node(t, node, match);
	if (rc) {
		free(match);
		return rc == FLAME_ENOMEM ? flame__err_nomem(err)
		                          : flame__err(err, rc, "", 0, FLAME__NO_OFFSET,
		                                       "no node %u in the built tree", node);
	}
	for (size_t i = 0; i < tm->count; i++) {
		const flame__time_entry *e = &tm->v[i];
		int64_t r = rel_ns(tm, e) - start_ns;
		if (!match[e->stack] || r < 0 || (uint64_t)r / step_ns >= n)
			continue;
		out[(uint64_t)r / step_ns] += e->w[col];
	}
	free(match);
	return 0;
}

/* The stacks of `t` with the weights `w` (two a stack): zeros dropped, time re-keyed. */
static int reweigh(flame_tree *t, const uint64_t *w, flame_err *err)
{
	const flame__stacks *s = &t->stacks;
	uint32_t *at = malloc((s->count ? s->count : 1) * sizeof *at);
	flame__stacks fresh;
	flame__stacks_init(&fresh);
	fresh.labelled = s->labelled;
	fresh.sorted = !s->labelled;
	int rc = at ? 0 : FLAME_ENOMEM;
	for (size_t k = 0; k < s->count && !rc; k++) {
		const flame__stack *st = &s->v[k];
		at[k] = UINT32_MAX;
		fresh.label = flame__stack_label(s, st);
		if (w[2 * k] || w[2 * k + 1])
			rc = flame__stacks_add_at(&fresh, st->ids, st->depth,
			                          flame__stacks_hash(st->ids, st->depth), w[2 * k],
			                          w[2 * k + 1], &at[k]);
	}
	if (rc) {
		free(at);
		flame__stacks_free(&fresh);
		return rc == FLAME_ENOMEM ? flame__err_nomem(err)
		                          : flame__err(err, rc, "", 0, FLAME__NO_OFFSET,
		                                       "a count overflows 64 bits");
	}
	flame__time_remap(t->time, at, s->count);
	free(at);
	fresh.label = 0;
	flame__tree_replace_stacks(t, &fresh);
	flame__tree_drop_values(t); /* the rows are the whole profile's, not the range's */
	return 0;
}

int flame_tree_time_cut(flame_tree *t, int64_t start_ns, int64_t end_ns, flame_err *err)
{
	flame__time *tm = t->time;
	if (!tm)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "the profile keeps no time to cut a range of");
	if (start_ns > end_ns)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "a time range ends before it starts");
	uint64_t *w = calloc(t->stacks.count ? 2 * t->stacks.count : 1, sizeof *w);
	if (!w)
		return flame__err_nomem(err);
	size_t o = 0;
	for (size_t i = 0; i < tm->count; i++) {
		flame__time_entry e = tm->v[i];
		int64_t r = rel_ns(tm, &e);
		if (r < start_ns || r >= end_ns)
			continue;
		w[2 * e.stack] += e.w[0]; /* parts of a stack's weight: they fit */
		w[2 * e.stack + 1] += e.w[1];
		tm->v[o++] = e;
	}
	tm->count = o;
	tm->compacted = 0;
	int rc = reweigh(t, w, err);
	free(w);
	return rc;
}
