/* The ENTER/EXIT iterator over the node tree (cmark's shape): non-recursive, so the
 * depth of a stack is never limited by the C stack. */
#include "tree.h"

void flame_iter_init(flame_iter *it, const flame_tree *t)
{
	it->tree = t;
	it->node = FLAME_NODE_NONE;
	it->ev = FLAME_EVENT_DONE;
	it->skip = 0;
}

flame_event flame_iter_next(flame_iter *it)
{
	const flame_tree *t = it->tree;
	if (!t->nodes_valid || t->node_count == 0)
		return it->ev = FLAME_EVENT_DONE;
	if (it->node == FLAME_NODE_NONE) {
		if (it->ev == FLAME_EVENT_EXIT) /* exited the root: finished */
			return it->ev = FLAME_EVENT_DONE;
		it->node = 0;
		return it->ev = FLAME_EVENT_ENTER;
	}
	const flame__node *nd = &t->nodes[it->node];
	if (it->ev == FLAME_EVENT_ENTER) {
		if (nd->first_child != FLAME_NODE_NONE && !it->skip) {
			it->node = nd->first_child;
			return it->ev = FLAME_EVENT_ENTER;
		}
		it->skip = 0;
		return it->ev = FLAME_EVENT_EXIT;
	}
	if (it->ev == FLAME_EVENT_EXIT) {
		if (it->node == 0) {
			it->node = FLAME_NODE_NONE;
			return it->ev = FLAME_EVENT_DONE;
		}
		if (nd->next_sibling != FLAME_NODE_NONE) {
			it->node = nd->next_sibling;
			return it->ev = FLAME_EVENT_ENTER;
		}
		it->node = nd->parent;
		return it->ev = FLAME_EVENT_EXIT;
	}
	return FLAME_EVENT_DONE;
}

void flame_iter_skip_children(flame_iter *it)
{
	if (it->ev == FLAME_EVENT_ENTER)
		it->skip = 1;
}
