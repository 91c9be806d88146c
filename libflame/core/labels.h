/* Labels kept beside the stacks (flame_tree_keep_labels): a sample's labels (pprof's
 * string and numeric labels, perf's comm and thread) as one label set, interned here and
 * named by an id (0: the empty set). Optional as time and sites are: a tree that keeps none
 * has no table (a NULL pointer) and its stack table keys on frames alone. With labels, the
 * stack table keys on (frames, set) (core/stacks.h: the set id kept after a stack's ids),
 * so samples of the same frames under other labels are other stacks; the node tree merges
 * them by name as it merges any stacks, and time, keyed by stack, splits with them.
 *
 * A set is its labels sorted (by key, then kind, then value) and encoded as bytes, so equal
 * sets are equal bytes: interning is flame__intern's, and a merge matches sets by value by
 * interning the bytes in the other table. Per label: a kind byte (0 string, 1 number),
 * the key as a varint length and bytes, then a string's bytes the same way, or a number as
 * 8 bytes little-endian and its unit as a length and bytes. core/tree.c keeps set ids true
 * through rewrites and merges. */
#ifndef FLAME_CORE_LABELS_H
#define FLAME_CORE_LABELS_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../flame.h"
#include "array.h"
#include "intern.h"

typedef struct flame__labels {
	flame__intern sets;  /* each set's encoding; id 0 is "" (no labels) */
	flame_label *tmp;    /* a set's labels, sorted before encoding */
	size_t tmp_cap;
	char *enc;           /* the encoding being built */
	size_t enc_cap;
} flame__labels;

/** A new table holding the empty set (id 0), or NULL. */
flame__labels *flame__labels_new(void);
void flame__labels_free(flame__labels *l);

/** The id of the set of `n` labels (any order, duplicates kept), FLAME__ID_NONE on out of
 * memory. */
uint32_t flame__labels_put(flame__labels *l, const flame_label *v, size_t n);

/** Set `id` of `src` in `dst` (by value): its id there, FLAME__ID_NONE on out of memory. */
uint32_t flame__labels_import(flame__labels *dst, const flame__labels *src, uint32_t id);

/** Sets in the table (the empty one included). */
static inline uint32_t flame__labels_count(const flame__labels *l) { return l->sets.count; }

/** The labels of set `id` into out[0..cap) (strings into the table: valid while it
 * lives), returning how many it holds (more than `cap`: only `cap` written). */
size_t flame__labels_get(const flame__labels *l, uint32_t id, flame_label *out, size_t cap);

/* The set of each interned name, made once: the readers that label a sample by one name
 * (perf's "COMM\x1fTID", JFR's thread) keep the set of each name id here. */
typedef struct flame__label_memo {
	uint32_t *set_of; /* name id -> its set + 1 (0: not made yet) */
	size_t cap;
} flame__label_memo;

/** The set of name `id` made before into *set: 1; 0 when not made yet (make it, then
 * flame__label_memo_put); -1 out of memory. */
static inline int flame__label_memo_get(flame__label_memo *m, uint32_t id, uint32_t *set)
{
	if (id >= m->cap) {
		size_t old = m->cap;
		if (flame__array_reserve_min(m->set_of, m->cap, (size_t)id + 1, 256))
			return -1;
		memset(m->set_of + old, 0, (m->cap - old) * sizeof *m->set_of);
	}
	*set = m->set_of[id] - 1;
	return m->set_of[id] != 0;
}

/** Keep `set` as name `id`'s (after flame__label_memo_get said 0). */
static inline void flame__label_memo_put(flame__label_memo *m, uint32_t id, uint32_t set)
{
	m->set_of[id] = set + 1;
}

/** The set {key = name id `id`'s name} (a JFR event's thread), made once per id through
 * `m`; FLAME__ID_NONE on out of memory. */
uint32_t flame__labels_of_name(flame__labels *l, flame__label_memo *m, const char *key,
                               const flame__intern *names, uint32_t id);

static inline void flame__label_memo_free(flame__label_memo *m)
{
	free(m->set_of);
	m->set_of = NULL;
	m->cap = 0;
}
#endif
