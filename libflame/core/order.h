/* Bytewise order of stacks as folded text ("a;b;c"), computed on id sequences: equal
 * leading ids are skipped and names are compared by precomputed ranks, so sorting never
 * builds the text. Used by the folded writer and by spilled runs (core/spill.c). */
#ifndef FLAME_CORE_ORDER_H
#define FLAME_CORE_ORDER_H
#include <stdint.h>
#include "intern.h"

typedef struct flame__order {
	const flame__intern *names;
	uint32_t *semi; /* rank of "name;" (the name followed by more frames) */
	uint32_t *end;  /* rank of "name" ending the line */
	uint32_t count; /* names ranked; 0 when some name contains ';' (byte-wise fallback) */
} flame__order;

/** Rank every name of `names` (call again after new names arrive). 0 or FLAME_ENOMEM. */
int flame__order_init(flame__order *o, const flame__intern *names);
void flame__order_free(flame__order *o);
/** <0, 0, >0 as the text of stack a sorts before, equal to, after stack b. */
int flame__order_cmp(const flame__order *o, const uint32_t *a, uint32_t da, const uint32_t *b,
                     uint32_t db);
#endif
