/* --reverse (flamegraph.pl's): every stack leaf-first, so the graph's roots are the
 * functions samples were taken in and their callers stack above them. A transform of
 * the tree's stacks like the others here; the writers draw whatever stacks they are
 * given, and the tree remembers the stacks are reversed so an SVG can say so
 * (data-reverse), for the reader to turn them back. */
#include "../core/err.h"
#include "../core/tree.h"

static int reverse_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                         uint64_t w[2])
{
	(void)ud;
	(void)w;
	for (uint32_t i = 0; i < depth; i++)
		out[i] = ids[depth - 1 - i];
	return (int)depth;
}

int flame_reverse_stacks(flame_tree *t, flame_err *err)
{
	/* distinct stacks stay distinct reversed: nothing merges, and the table keeps its
	 * order (first appearance, which --flamechart draws in) */
	int rc = flame__tree_rewrite(t, reverse_stack, NULL, 0, err);
	if (!rc)
		flame__tree_set_reversed(t, !flame__tree_reversed(t));
	return rc;
}
