/* Combining two stack tables that are both in bytewise order of their stack texts (as
 * sorted folded files give them): one linear merge-join instead of a hash lookup per stack.
 * flame_diff (xform/diff.c) and flame_tree_merge use it when both sides are sorted. */
#ifndef FLAME_CORE_JOIN_H
#define FLAME_CORE_JOIN_H
#include <string.h>
#include "tree.h"

/** 1 when the stacks of `t` are in strictly increasing bytewise order of their texts
 * (hence all distinct) and in memory: the table's sorted flag, else a check of adjacent
 * pairs (linear). */
int flame__tree_stacks_sorted(const flame_tree *t);

/** Number of leading ids a[i] == b[i], i < n (two at a time). */
static inline uint32_t flame__join_prefix(const uint32_t *a, const uint32_t *b, uint32_t n)
{
	uint32_t i = 0;
	while (i + 2 <= n) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
		i += 2;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

enum {
	FLAME__JOIN_TO_AFTER = 1,  /* src's column 0 goes to dst's column 1 (a diff's AFTER) */
	FLAME__JOIN_SAME_NAMES = 2 /* src's ids are dst's already (flame__tree_adopt_ids) */
};

/** Rewrite the stacks of `src` (in place) to name ids of `dst`, interning its names there:
 * afterwards src's ids no longer match its own names, so it is only good for
 * flame__tree_join_sorted(..., FLAME__JOIN_SAME_NAMES) and freeing. */
int flame__tree_adopt_ids(flame_tree *dst, flame_tree *src, flame_err *err);

/** Add every stack of `src` to `dst`, both sorted (flame__tree_stacks_sorted), keeping
 * `dst` sorted. Weights are multiplied by `m` (the scale step: dst's scale is not below
 * src's); with FLAME__JOIN_TO_AFTER in `flags` src's column 0 goes to dst's column 1 (a
 * diff's AFTER), else the columns add up. Returns 0; 1 when it cannot (two stacks of different frames have
 * the same text: names with ';'), nothing changed but names; or FLAME_ENOMEM/FLAME_ERANGE
 * with `err` filled, the stacks unchanged. */
int flame__tree_join_sorted(flame_tree *dst, const flame_tree *src, uint64_t m, int flags,
                            flame_err *err);
/** Compare the texts of stacks a and b whose first `i` frames are the same ids. */
int flame__join_cmp_from(const flame__intern *names, const uint32_t *a, uint32_t da,
                         const uint32_t *b, uint32_t db, uint32_t i);

#endif
