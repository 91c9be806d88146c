/* Stack shaping transforms that rewrite id sequences and re-aggregate:
 * --skip-after (start each stack at the leaf-most frame named SYMBOL, keeping the
 * root, which is the process name). */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/tree.h"

/* Frames 1..cut-1 go, cut being the leaf-most frame named a symbol (the root stays). */
static int skip_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                      uint64_t w[2])
{
	const unsigned char *is_sym = ud;
	uint32_t cut = 0, m = 0;
	(void)w;
	for (uint32_t i = depth; i-- > 1;)
		if (is_sym[ids[i]]) {
			cut = i;
			break;
		}
	for (uint32_t i = 0; i < depth; i++)
		if (i == 0 || cut == 0 || i >= cut)
			out[m++] = ids[i];
	return (int)m;
}

int flame_skip_after(flame_tree *t, const char *const *symbols, size_t n, flame_err *err)
{
	if (n == 0)
		return 0;
	const flame__intern *names = flame__tree_names(t);
	unsigned char *is_sym = calloc(names->count ? names->count : 1, 1);
	if (!is_sym)
		return flame__err_nomem(err);
	int any = 0, rc = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t id = flame__intern_find(names, symbols[i], strlen(symbols[i]));
		if (id != FLAME__ID_NONE) {
			is_sym[id] = 1;
			any = 1;
		}
	}
	if (any)
		rc = flame__tree_rewrite(t, skip_stack, is_sym, 0, err);
	free(is_sym);
	return rc;
}
