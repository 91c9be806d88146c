/* The flame_tree object: names + stack table (what parsers fill) and the node tree
 * built from it on demand (what writers walk). */
#ifndef FLAME_CORE_TREE_H
#define FLAME_CORE_TREE_H
#include "../flame.h"
#include "intern.h"
#include "stacks.h"

typedef struct flame__node {
	uint32_t name;
	uint32_t parent, first_child, next_sibling;
	uint32_t depth;
	uint64_t self[2];
	uint64_t total[2];
} flame__node;

struct flame_tree {
	flame__intern names;
	flame__stacks stacks;
	unsigned scale;        /* counts are in units of 10^-scale */
	int differential;      /* 3-column input seen */
	char count_name[64];
	/* node tree, valid while nodes_valid */
	flame__node *nodes;
	size_t node_count, node_cap;
	int nodes_valid;
	flame_order order;
	uint32_t root_name;    /* id of "all" */
	size_t spill_limit;    /* bytes of stack table before spilling a run (0: never) */
	struct flame__spill *spill; /* core/spill.c */
	/* instead of spilling a run to a file: hand the table to `drain`, which takes it over
	 * and leaves t->stacks empty (read/combine.c streams blocks of an input this way) */
	int (*drain)(void *ud, flame_tree *t, flame_err *err);
	void *drain_ud;
	uint32_t *scratch;     /* reusable id buffer for flame_tree_add/merge */
	size_t scratch_cap;
};

/** 10^0 .. 10^19: decimal scales of counts, shared by every parser and writer. */
extern const uint64_t flame__pow10[20];

/** Intern a name into the tree (FLAME__ID_NONE on out of memory). */
static inline uint32_t flame__tree_intern(flame_tree *t, const char *p, size_t n)
{
	return flame__intern_put(&t->names, p, n);
}

/** Add a root-first stack of name ids; invalidates the node tree. */
int flame__tree_add_ids(flame_tree *t, const uint32_t *ids, size_t n, uint64_t w0, uint64_t w1,
                        flame_err *err);

/** The same for a stack whose folded text sorts bytewise after the table's last stack
 * (flame__stacks_append_sorted): no lookup while the table is sorted. */
int flame__tree_append_sorted_ids(flame_tree *t, const uint32_t *ids, size_t n, uint64_t w0,
                                  uint64_t w1, flame_err *err);

/** Raise the tree's scale to `scale` (<= 9) by multiplying every count up. */
int flame__tree_rescale(flame_tree *t, unsigned scale, flame_err *err);

/** rank[id] = position of name `id` in bytewise order of all names (malloc'd). */
uint32_t *flame__tree_name_ranks(const flame_tree *t);
/** The stacks in frame-by-frame name order, a shorter stack before its extensions (the
 * order the node tree and the flame graph follow). */
typedef struct flame__frame_order {
	uint32_t *idx;       /* stack indices in that order; NULL: the table's order */
	const uint32_t *lcp; /* lcp[k]: leading ids the k-th stack in that order shares with
	                      * the one before (lcp[0] = 0); NULL: not known */
	uint32_t *own;       /* (freed with it) */
} flame__frame_order;
/** Cheap on a sorted table (linear, plus reordering the few groups where bytewise and
 * frame order differ), a radix sort otherwise. 0 or FLAME_ENOMEM. */
int flame__tree_frame_order(const flame_tree *t, flame__frame_order *fo);
void flame__frame_order_free(flame__frame_order *fo);

/** Replace the stacks of `t` by those of `fresh` (same name table), freeing the old ones:
 * how transforms that rewrite stacks re-aggregate. */
void flame__tree_replace_stacks(flame_tree *t, flame__stacks *fresh);
#endif
