/* Spilling a stack table: past a memory limit, unique stacks are sorted (folded text
 * order) and written as a run to an anonymous temp file, and the table starts empty.
 * The folded writer merges the runs as it writes, so memory stays flat however many
 * unique stacks an input has; any other reader has them read back into a table. Names
 * stay in memory (they grow far more slowly). Below the tree: core/tree.c decides when
 * to spill and read back, this file knows only tables, names and the temp file. */
#ifndef FLAME_CORE_SPILL_H
#define FLAME_CORE_SPILL_H
#include "../flame.h"
#include "intern.h"
#include "stacks.h"

typedef struct flame__spill flame__spill;

/** Write the table `s` (ids naming `names`) as one more sorted run and empty it, keeping
 * its totals. Creates `*sp` (and the temp file) on first use. */
int flame__spill_run(flame__spill **sp, flame__stacks *s, const flame__intern *names,
                     flame_err *err);

/** Number of runs written. */
size_t flame__spill_runs(const flame__spill *sp);

/** Call `emit` for every unique stack of all runs in folded text order, equal stacks
 * summed. A non-zero return of `emit` stops and is returned. */
int flame__spill_merge(flame__spill *sp, const flame__intern *names, flame__emit_fn emit,
                       void *ud, flame_err *err);

/** The stacks of all runs as a fresh table `*out`, in their order of first appearance
 * (the order the table had, had nothing been spilled). */
int flame__spill_read_back(flame__spill *sp, const flame__intern *names, flame__stacks *out,
                           flame_err *err);

void flame__spill_free(flame__spill *sp);
#endif
