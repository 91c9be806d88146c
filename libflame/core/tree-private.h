/* struct flame_tree: core/'s own. Everything else reaches a tree through flame.h and the
 * functions of core/tree.h (flame__tree_stacks, flame__tree_names, core/sink.h...), so no
 * file outside core/ can see the stack table without its spilled runs, or forget to mark
 * the node tree stale. tests/core/sealed-layers.sh checks who includes this header. */
#ifndef FLAME_CORE_TREE_PRIVATE_H
#define FLAME_CORE_TREE_PRIVATE_H
#include "tree.h"

struct flame_tree {
	flame__intern names;
	flame__stacks stacks;
	unsigned scale;        /* counts are in units of 10^-scale */
	int differential;      /* 3-column input seen */
	int reversed;          /* stacks leaf-first (flame_reverse_stacks): an SVG says so */
	flame__units units;    /* what the counts measure, their name first (core/units.c) */
	/* node tree, valid while nodes_valid */
	flame__node *nodes;
	size_t node_count, node_cap;
	int nodes_valid;
	flame_order order;
	uint32_t root_name;    /* id of "all" */
	size_t spill_limit;    /* bytes of stack table before spilling a run (0: never) */
	struct flame__spill *spill; /* runs written by core/spill.c (tree.c alone uses it) */
	/* instead of spilling a run to a file: hand the table to `drain`, which takes it over
	 * and leaves t->stacks empty (read/combine.c streams blocks of an input this way) */
	int (*drain)(void *ud, flame_tree *t, flame_err *err);
	void *drain_ud;
	uint64_t moved;        /* stacks spilled or drained so far (for progress reports) */
	uint32_t *scratch;     /* reusable id buffer for flame_tree_add/merge */
	struct flame__time *time; /* weights per time bucket (core/time.h), NULL unless kept */
	struct flame__sites *sites; /* frames' source sites (core/sites.h), NULL unless kept */
	struct flame__labels *labels; /* stacks' label sets (core/labels.h), NULL unless kept */
	struct flame__values *values; /* every sample type's values (core/values.h), NULL
	                               * unless kept */
	size_t scratch_cap;
};
#endif
