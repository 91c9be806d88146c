/* The ENTER/EXIT iterator over the node tree (cmark's shape): non-recursive, so the
 * depth of a stack is never limited by the C stack. NONE is "not started" and DONE is
 * final, so a loop that calls once more after DONE does not walk the tree again. */
#include "tree-private.h"

void flame_iter_init(flame_iter *it, const flame_tree *t)
{
	it->tree = t;
	it->node = FLAME_NODE_NONE;
	it->ev = FLAME_EVENT_NONE;
	it->skip = 0;
}

static flame_event done(flame_iter *it)
{
	it->node = FLAME_NODE_NONE;
	return it->ev = FLAME_EVENT_DONE;
}

flame_event flame_iter_next(flame_iter *it)
{
	const flame_tree *t = it->tree;
	if (it->ev == FLAME_EVENT_DONE)
		return FLAME_EVENT_DONE;
	/* not built, or rebuilt smaller under the walk: nothing valid to step to */
	if (!t || !t->nodes_valid || t->node_count == 0)
		return done(it);
	if (it->ev == FLAME_EVENT_NONE) {
		it->node = 0;
		return it->ev = FLAME_EVENT_ENTER;
	}
	if (it->node >= t->node_count)
		return done(it);
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
		if (it->node == 0)
			return done(it);
		if (nd->next_sibling != FLAME_NODE_NONE) {
			it->node = nd->next_sibling;
			return it->ev = FLAME_EVENT_ENTER;
		}
		it->node = nd->parent;
		return it->ev = FLAME_EVENT_EXIT;
	}
	return done(it);
}

void flame_iter_skip_children(flame_iter *it)
{
	if (it->ev == FLAME_EVENT_ENTER)
		it->skip = 1;
}
