/* The two orders of stacks, computed on id sequences. Text order: bytewise order of
 * stacks as folded text ("a;b;c"). Each name is two tokens, "name;" (more frames follow)
 * and "name" (it ends the line), ranked together once; a stack is then a token sequence
 * and text order is plain lexicographic order of those, so sorting never builds the
 * text. Used by the folded writer and by spilled runs (core/spill.c). Frame order: name
 * by name, what the node tree (core/tree.c) and the pictures follow. */
#ifndef FLAME_CORE_ORDER_H
#define FLAME_CORE_ORDER_H
#include <stddef.h>
#include <stdint.h>
#include "intern.h"
#include "stacks.h"

typedef struct flame__order {
	const flame__intern *names;
	uint32_t *rank; /* rank[2*id] of "name;", rank[2*id+1] of "name" ending the line */
	uint32_t count; /* names ranked; 0 when some name contains ';' (byte-wise fallback) */
	uint32_t *toks; /* flame__order_init: every token, in rank order (for _update) */
	size_t ntoks;
} flame__order;

/** Rank every name of `names` (call again after new names arrive). 0 or FLAME_ENOMEM. */
int flame__order_init(flame__order *o, const flame__intern *names);
/** The same for a zeroed `o`, or one ranked by this function or _init over the same
 * `names` when fewer names existed: only the new names are sorted, then merged into the
 * ranks (a spilling table re-ranks at every run). 0 or FLAME_ENOMEM. */
int flame__order_update(flame__order *o, const flame__intern *names);
/** The same for sorting and comparing only the stacks v[0..n): tokens none of them uses
 * may be left unranked. */
int flame__order_init_stacks(flame__order *o, const flame__intern *names, const flame__stack *v,
                             size_t n);
/** The same for the tokens the stacks v[0..n) use: those not ranked yet are ranked among
 * the others, whose order stays (a spilling table ranks each run's tokens as it writes
 * the run, and never those of names no stack uses). Mixing it with _update over the same
 * `o` is not supported. 0 or FLAME_ENOMEM. */
int flame__order_update_stacks(flame__order *o, const flame__intern *names,
                               const flame__stack *v, size_t n);
void flame__order_free(flame__order *o);
/** <0, 0, >0 as the text of stack a sorts before, equal to, after stack b. */
int flame__order_cmp(const flame__order *o, const uint32_t *a, uint32_t da, const uint32_t *b,
                     uint32_t db);
/** Indices 0..n-1 of `v` in text order of their stacks (malloc'd; NULL on out of memory).
 * `n` must stay below 2^32. */
uint32_t *flame__order_sort(const flame__order *o, const flame__stack *v, size_t n);

/** rank[id] = position of name `id` in bytewise order of all `names`, a prefix first
 * (malloc'd; NULL on out of memory). */
uint32_t *flame__order_name_ranks(const flame__intern *names);

/** The stacks in frame order: name by name, a shorter stack before its extensions (the
 * order of the node tree and the flame graph; text order differs where a name is a prefix
 * of a sibling's followed by a byte below ';'). */
typedef struct flame__frame_order {
	uint32_t *idx;       /* stack indices in that order; NULL: the table's order */
	const uint32_t *lcp; /* lcp[k]: leading ids the k-th stack in that order shares with
	                      * the one before (lcp[0] = 0); NULL: not known */
	uint32_t *own;       /* (freed with it) */
} flame__frame_order;
/** Cheap on a sorted table (linear, plus reordering the few groups where bytewise and
 * frame order differ), the keyed sort on name ranks otherwise. 0 or FLAME_ENOMEM. */
int flame__order_frames(const flame__intern *names, const flame__stacks *s,
                        flame__frame_order *fo);
void flame__frame_order_free(flame__frame_order *fo);
#endif
