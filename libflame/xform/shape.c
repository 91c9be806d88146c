/* Stack shaping transforms that rewrite id sequences and re-aggregate:
 * --skip-after (start each stack at the leaf-most frame named SYMBOL, keeping the
 * root, which is the process name). */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/spill.h"
#include "../core/tree.h"

int flame_skip_after(flame_tree *t, const char *const *symbols, size_t n, flame_err *err)
{
	if (n == 0)
		return 0;
	int rc = flame__tree_unspill(t, err);
	if (rc)
		return rc;
	unsigned char *is_sym = calloc(t->names.count ? t->names.count : 1, 1);
	uint32_t *ids = NULL;
	size_t cap = 0;
	flame__stacks fresh;
	flame__stacks_init(&fresh);
	if (!is_sym)
		return flame__err_nomem(err);
	int any = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t id = flame__intern_find(&t->names, symbols[i], strlen(symbols[i]));
		if (id != FLAME__ID_NONE) {
			is_sym[id] = 1;
			any = 1;
		}
	}
	if (!any)
		goto done;
	for (size_t k = 0; k < t->stacks.count; k++) {
		const flame__stack *s = &t->stacks.v[k];
		uint32_t cut = 0; /* index of the leaf-most match; frames 1..cut-1 go */
		for (uint32_t i = s->depth; i-- > 1;)
			if (is_sym[s->ids[i]]) {
				cut = i;
				break;
			}
		if (s->depth > cap) {
			cap = s->depth * 2;
			uint32_t *v = realloc(ids, cap * sizeof *v);
			if (!v) {
				rc = flame__err_nomem(err);
				goto done;
			}
			ids = v;
		}
		size_t m = 0;
		for (uint32_t i = 0; i < s->depth; i++)
			if (i == 0 || cut == 0 || i >= cut)
				ids[m++] = s->ids[i];
		if ((rc = flame__stacks_add(&fresh, ids, m, s->w[0], s->w[1]))) {
			rc = rc == FLAME_ENOMEM ? flame__err_nomem(err)
			                        : flame__err(err, rc, "", 0, FLAME__NO_OFFSET,
			                                     "a count overflows 64 bits");
			goto done;
		}
	}
	flame__tree_replace_stacks(t, &fresh);
done:
	flame__stacks_free(&fresh);
	free(is_sym);
	free(ids);
	return rc;
}
