/* Spilling the stack table: past a memory limit, unique stacks are sorted (folded text
 * order) and written as a run to an anonymous temp file, and the table starts empty.
 * The folded writer merges the runs as it writes, so memory stays flat however many
 * unique stacks an input has. Names stay in memory (they grow far more slowly). */
#ifndef FLAME_CORE_SPILL_H
#define FLAME_CORE_SPILL_H
#include "tree.h"

/** Spill when the table passed t->spill_limit (0: never). Call after adding stacks. */
int flame__tree_maybe_spill(flame_tree *t, flame_err *err);

/** Read spilled runs back into the in-memory table (for every consumer but the folded
 * writer). No-op when nothing was spilled. */
int flame__tree_unspill(flame_tree *t, flame_err *err);

/** 1 when runs exist. */
int flame__tree_spilled(const flame_tree *t);
/** How many runs were spilled (tests). */
size_t flame__tree_spill_runs(const flame_tree *t);

typedef int (*flame__emit_fn)(void *ud, const uint32_t *ids, uint32_t depth, uint64_t w0,
                              uint64_t w1);
/** Spill what is in memory as a last run, then call `emit` for every unique stack of all
 * runs in folded text order, equal stacks summed. Empties the tree's stacks. */
int flame__tree_merge_runs(flame_tree *t, flame__emit_fn emit, void *ud, flame_err *err);

void flame__spill_free(struct flame__spill *sp);
#endif
