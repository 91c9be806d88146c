/* The stack table: unique stacks (root-first sequences of name ids) with two weight
 * columns, found by hashing the id sequence. Parsers aggregate here (one lookup per
 * sample); the node tree is built from it only when a writer needs one. */
#ifndef FLAME_CORE_STACKS_H
#define FLAME_CORE_STACKS_H
#include <stddef.h>
#include <stdint.h>
#include "arena.h"

typedef struct flame__stack {
	const uint32_t *ids; /* root-first, in the table's arena */
	uint32_t depth;
	uint32_t hash32;     /* valid for v[0..indexed) only */
	uint64_t w[2];
} flame__stack;

typedef struct flame__stacks {
	flame__arena arena;
	flame__stack *v;
	size_t count, cap;
	uint64_t *slots; /* core/slots.h's table over v[]; built lazily, covers v[0..indexed) */
	size_t mask;
	size_t indexed;
	uint64_t total[2];
	/* 1 when v[] is in strictly increasing bytewise order of the stacks' folded text
	 * ("a;b;c"), hence all distinct. An empty table is sorted. Adding a new stack with
	 * flame__stacks_add clears it (unless the table was empty); only
	 * flame__stacks_append_sorted keeps it. Weight changes keep it. */
	int sorted;
	/* 1 when the tree keeps labels (core/labels.h): a stack's key is its ids and its label
	 * set, kept after them (ids[depth], outside depth); adds and finds key on `label`, the
	 * set of the stacks added next. A labelled table is never `sorted` (whoever sets
	 * `labelled` clears it), so it is never appended to by reference. */
	uint32_t labelled, label;
} flame__stacks;

/** The label set of stack `st` of `s` (0: none, or a table without labels). */
static inline uint32_t flame__stack_label(const flame__stacks *s, const flame__stack *st)
{
	return s->labelled ? st->ids[st->depth] : 0;
}

/** A visitor of stacks (root-first ids and the two weights); non-zero stops. */
typedef int (*flame__emit_fn)(void *ud, const uint32_t *ids, uint32_t depth, uint64_t w0,
                              uint64_t w1);

/** Bytes the table holds: its ids, entries and index (what a memory limit is compared
 * with). Inline: adders compare it with the limit after every stack. */
static inline size_t flame__stacks_bytes(const flame__stacks *s)
{
	return s->arena.total + s->cap * sizeof(flame__stack) + (s->slots ? (s->mask + 1) * sizeof *s->slots : 0);
}

void flame__stacks_init(flame__stacks *s);
void flame__stacks_free(flame__stacks *s);
/** Hash of an id sequence, as used by the table. */
uint64_t flame__stacks_hash(const uint32_t *ids, size_t n);
/** Add weights to the stack `ids[0..n)` (root-first), creating it if new.
 * Returns 0, FLAME_ENOMEM, or FLAME_ERANGE when a count or total would overflow. */
int flame__stacks_add(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t w0, uint64_t w1);
int flame__stacks_add_hashed(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t h,
                             uint64_t w0, uint64_t w1);
/** The same, with the stack's index in the table into `*at` (the time table's key). */
int flame__stacks_add_at(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t hash,
                         uint64_t w0, uint64_t w1, uint32_t *at);
/** `*out` = the stack ids[0..n) (`hash` from flame__stacks_hash), or NULL when absent.
 * 0, or FLAME_ENOMEM (indexing the stacks appended without a lookup). */
int flame__stacks_find(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t hash,
                       flame__stack **out);
/** Add a stack the caller knows to be new and last: its folded text sorts bytewise after
 * the text of v[count - 1] (any stack when the table is empty). On a sorted table this
 * is a plain append (no hashing, no probe) and the table stays sorted; on an unsorted
 * one it is flame__stacks_add. Same returns. */
int flame__stacks_append_sorted(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t w0,
                                uint64_t w1);
/** As flame__stacks_append_sorted on a sorted table, but `ids` are kept where they are, not
 * copied: the caller keeps them alive as long as the table (and proves the order). */
int flame__stacks_append_ref(flame__stacks *s, const uint32_t *ids, size_t n, uint64_t w0,
                             uint64_t w1);
struct flame_err;
/** Counts of `s` times num / 10^dec exactly (merge weights): `*scale` rises by the
 * decimals instead of rounding. Checked first, so a failure changes nothing; FLAME_ERANGE
 * names `source`. */
int flame__stacks_weigh(flame__stacks *s, unsigned *scale, uint64_t num, unsigned dec,
                        const char *source, struct flame_err *err);
#endif
