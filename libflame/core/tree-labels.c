/* The public side of the labels a tree keeps (flame.h's "Labels"): asking for them, adding
 * a labelled stack, reading the sets and each stack's set back. The table itself is
 * core/labels.c's; tree.c keeps set ids true through rewrites and merges. */
#include <stdlib.h>
#include "err.h"
#include "labels.h"
#include "tree-private.h"

struct flame__labels *flame__tree_labels(const flame_tree *t) { return t->labels; }

/* The table keyed on (ids, set) from now on: every stack so far re-added with the empty set
 * (in order, so each keeps its place and the time entries theirs). */
static int make_labelled(flame__stacks *s)
{
	flame__stacks fresh;
	flame__stacks_init(&fresh);
	fresh.labelled = 1;
	fresh.sorted = 0; /* two stacks may have the same text from now on */
	for (size_t k = 0; k < s->count; k++) {
		const flame__stack *st = &s->v[k];
		if (flame__stacks_add(&fresh, st->ids, st->depth, st->w[0], st->w[1])) {
			flame__stacks_free(&fresh);
			return FLAME_ENOMEM;
		}
	}
	flame__stacks_free(s);
	*s = fresh;
	return 0;
}

int flame_tree_keep_labels(flame_tree *t, flame_err *err)
{
	if (t->labels)
		return 0;
	flame__stacks *s; /* spilled runs come back: a spilled run keeps names only */
	int rc = flame__tree_stacks(t, &s, err);
	if (rc)
		return rc;
	if (!(t->labels = flame__labels_new()) || make_labelled(&t->stacks)) {
		flame__labels_free(t->labels);
		t->labels = NULL;
		return flame__err_nomem(err);
	}
	t->nodes_valid = 0;
	return 0;
}

int flame__tree_label_map(flame_tree *dst, const flame_tree *src, uint32_t **map,
                          flame_err *err)
{
	*map = NULL;
	if (!src->labels)
		return 0;
	int rc = flame_tree_keep_labels(dst, err);
	if (rc)
		return rc;
	uint32_t n = flame__labels_count(src->labels);
	if (!(*map = malloc(n * sizeof **map)))
		return flame__err_nomem(err);
	for (uint32_t i = 0; i < n; i++)
		if (((*map)[i] = flame__labels_import(dst->labels, src->labels, i)) == FLAME__ID_NONE) {
			free(*map);
			*map = NULL;
			return flame__err_nomem(err);
		}
	return 0;
}

int flame_tree_add_labelled(flame_tree *t, const flame_str *frames, size_t n, int leaf_first,
                            const flame_label *labels, size_t nlabels, uint64_t w0, uint64_t w1,
                            flame_err *err)
{
	uint32_t set = 0;
	if (t->labels && nlabels &&
	    (set = flame__labels_put(t->labels, labels, nlabels)) == FLAME__ID_NONE)
		return flame__err_nomem(err);
	t->stacks.label = set;
	int rc = flame_tree_add(t, frames, n, leaf_first, w0, w1, err);
	t->stacks.label = 0;
	return rc;
}

size_t flame_tree_label_sets(const flame_tree *t)
{
	return t->labels ? flame__labels_count(t->labels) : 0;
}

size_t flame_tree_label_set(const flame_tree *t, size_t set, flame_label *out, size_t cap)
{
	if (!t->labels || set >= flame__labels_count(t->labels))
		return 0;
	return flame__labels_get(t->labels, (uint32_t)set, out, cap);
}

int flame_tree_each_labelled(flame_tree *t, flame_labelled_fn fn, void *ud, flame_err *err)
{
	flame__stacks *s;
	int rc = flame__tree_stacks(t, &s, err);
	if (rc)
		return rc;
	size_t maxd = 1;
	for (size_t k = 0; k < s->count; k++)
		if (s->v[k].depth > maxd)
			maxd = s->v[k].depth;
	flame_str *fr = malloc(maxd * sizeof *fr);
	if (!fr)
		return flame__err_nomem(err);
	for (size_t k = 0; k < s->count && !rc; k++) {
		const flame__stack *st = &s->v[k];
		for (uint32_t i = 0; i < st->depth; i++) {
			const flame__name *nm = flame__intern_get(&t->names, st->ids[i]);
			fr[i] = (flame_str){nm->ptr, nm->len};
		}
		rc = fn(ud, fr, st->depth, flame__stack_label(s, st), st->w[0], st->w[1]);
	}
	free(fr);
	return rc;
}
