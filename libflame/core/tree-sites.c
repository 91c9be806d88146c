/* The public side of the sites a tree keeps (flame.h's "Sites"): asking for them and
 * reading a node's site and the mappings. The table itself is core/sites.c's; tree.c keeps
 * frames true through merges. */
#include "err.h"
#include "sites.h"
#include "tree-private.h"

struct flame__sites *flame__tree_sites(const flame_tree *t) { return t->sites; }

flame__intern *flame__tree_names_mut(flame_tree *t) { return &t->names; }

int flame_tree_keep_sites(flame_tree *t, flame_err *err)
{
	if (t->sites)
		return 0;
	flame__stacks *s; /* spilled runs come back: a spilled run keeps names only */
	int rc = flame__tree_stacks(t, &s, err);
	if (rc)
		return rc;
	t->sites = flame__sites_new();
	return t->sites ? 0 : flame__err_nomem(err);
}

const flame_site *flame_node_site(const flame_tree *t, flame_node n)
{
	size_t count;
	const flame__node *nodes = flame__tree_nodes(t, &count);
	if (!t->sites || n >= count)
		return NULL;
	const flame__site *st = flame__sites_of(t->sites, nodes[n].name);
	return st ? &st->pub : NULL;
}

const flame_mapping *flame_tree_mapping(const flame_tree *t, size_t i)
{
	if (!t->sites || i == 0 || i > t->sites->maps.n)
		return NULL;
	return &t->sites->maps.v[i - 1].pub;
}
