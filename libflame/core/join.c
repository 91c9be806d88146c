/* Merge-join of two sorted stack tables: when both sides list their stacks in bytewise
 * order of the folded text (sorted folded files do), combining them is one linear walk
 * with no hashing, and the result is sorted too (so writers need not sort it). Stacks are
 * compared on id sequences through a name map; only the first differing frame is looked
 * at as bytes. */
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "err.h"
#include "join.h"
#include "tree-private.h"

/* Byte `*pos` of frame `*f` onwards of the text of stack ids[0..n) (ids through `map`
 * when not NULL), or -1 past its end. */
static int text_byte(const flame__intern *names, const uint32_t *ids, const uint32_t *map,
                     uint32_t n, uint32_t *f, size_t *pos)
{
	while (*f < n) {
		const flame__name *nm = flame__intern_get(names, map ? map[ids[*f]] : ids[*f]);
		if (*pos < nm->len)
			return (unsigned char)nm->ptr[(*pos)++];
		if (*pos == nm->len && *f + 1 < n) {
			(*pos)++;
			return ';';
		}
		(*f)++;
		*pos = 0;
	}
	return -1;
}

/* The text order of a and b (b's ids through `map` when not NULL), knowing frames [0, i)
 * are the same. */
static int cmp_from(const flame__intern *names, const uint32_t *a, uint32_t da, const uint32_t *b,
                    uint32_t db, const uint32_t *map, uint32_t i)
{
	if (i < da && i < db) { /* the usual case: the names differ within their bytes */
		const flame__name *p = flame__intern_get(names, a[i]);
		const flame__name *q = flame__intern_get(names, map ? map[b[i]] : b[i]);
		int r = memcmp(p->ptr, q->ptr, p->len < q->len ? p->len : q->len);
		if (r)
			return r;
	}
	uint32_t fa = i, fb = i;
	size_t pa = 0, pb = 0;
	for (;;) {
		int x = text_byte(names, a, NULL, da, &fa, &pa);
		int y = text_byte(names, b, map, db, &fb, &pb);
		if (x != y)
			return x < y ? -1 : 1;
		if (x < 0)
			return 0;
	}
}

int flame__join_cmp_from(const flame__intern *names, const uint32_t *a, uint32_t da,
                         const uint32_t *b, uint32_t db, uint32_t i)
{
	return cmp_from(names, a, da, b, db, NULL, i);
}

/* <0, 0, >0 as the text of a sorts before, equals, sorts after the text of b (b's ids
 * through `map` when not NULL). *same_ids tells whether the id sequences are equal (the
 * texts can be equal without that only when some name contains ';'). */
static int cmp_text(const flame__intern *names, const uint32_t *a, uint32_t da, const uint32_t *b,
                    uint32_t db, const uint32_t *map, int *same_ids)
{
	uint32_t n = da < db ? da : db, i = 0;
	if (map) {
		while (i < n && a[i] == map[b[i]])
			i++;
	} else {
		i = flame__join_prefix(a, b, n);
	}
	*same_ids = i == da && i == db;
	if (*same_ids)
		return 0;
	return cmp_from(names, a, da, b, db, map, i);
}

int flame__tree_stacks_sorted(const flame_tree *t)
{
	const flame__stack *v = t->stacks.v;
	int same;
	if (flame__tree_spilled(t))
		return 0;
	if (t->stacks.sorted)
		return 1;
	for (size_t k = 1; k < t->stacks.count; k++)
		if (cmp_text(&t->names, v[k - 1].ids, v[k - 1].depth, v[k].ids, v[k].depth, NULL,
		             &same) >= 0)
			return 0;
	return 1;
}

enum { DST_ONLY, SRC_ONLY, BOTH };

/* map[id] = dst's id of src's name `id` (interned into dst): malloc'd, NULL on out of
 * memory. */
static uint32_t *name_map(flame_tree *dst, const flame_tree *src)
{
	uint32_t *map = malloc((src->names.count ? src->names.count : 1) * sizeof *map);
	for (uint32_t id = 0; map && id < src->names.count; id++) {
		const flame__name *nm = flame__intern_get(&src->names, id);
		map[id] = flame__intern_put_hashed(&dst->names, nm->ptr, nm->len, nm->hash32);
		if (map[id] == FLAME__ID_NONE) {
			free(map);
			map = NULL;
		}
	}
	return map;
}

/* The stacks were renumbered or moved: the hash index is rebuilt when a lookup comes
 * (core/stacks.c). */
static void drop_index(flame__stacks *s)
{
	free(s->slots);
	s->slots = NULL;
	s->mask = 0;
	s->indexed = 0;
}

int flame__tree_adopt_ids(flame_tree *dst, flame_tree *src, flame_err *err)
{
	uint32_t *map = name_map(dst, src);
	if (!map)
		return flame__err_nomem(err);
	for (size_t k = 0; k < src->stacks.count; k++) {
		uint32_t *ids = (uint32_t *)src->stacks.v[k].ids; /* in src's own arena */
		for (uint32_t i = 0; i < src->stacks.v[k].depth; i++)
			ids[i] = map[ids[i]];
	}
	drop_index(&src->stacks); /* it hashed the old ids */
	free(map);
	return 0;
}

/* The join of two sorted tables, decided forward: ops[k] says where output stack k comes
 * from; *u output stacks, *new_ids ids to copy from src. 0, or 1 when two stacks have
 * equal texts of different frames (hashing keeps them apart). */
static int plan_join(const flame_tree *dst, const flame_tree *src, const uint32_t *map,
                     unsigned char *ops, size_t *u, size_t *new_ids)
{
	const flame__stacks *d = &dst->stacks, *s = &src->stacks;
	size_t na = d->count, nb = s->count, i = 0, j = 0;
	*u = *new_ids = 0;
	while (i < na || j < nb) {
		int c, same = 1;
		if (i == na)
			c = 1;
		else if (j == nb)
			c = -1;
		else
			c = cmp_text(&dst->names, d->v[i].ids, d->v[i].depth, s->v[j].ids, s->v[j].depth,
			             map, &same);
		if (c == 0 && !same)
			return 1;
		if (c < 0) {
			ops[(*u)++] = DST_ONLY;
			i++;
		} else if (c > 0) {
			ops[(*u)++] = SRC_ONLY;
			*new_ids += s->v[j++].depth;
		} else {
			ops[(*u)++] = BOTH;
			i++;
			j++;
		}
	}
	return 0;
}

/* The planned join, backward, so every dst stack moves up to its place before its slot
 * is needed: src's stacks weighed by `m` (into column 1 `to_after`), new ones copied to
 * `ids`. d->v holds `u` stacks. */
static void place_stacks(flame__stacks *d, const flame__stacks *s, const uint32_t *map,
                         const unsigned char *ops, size_t u, uint32_t *ids, size_t new_ids,
                         uint64_t m, int to_after)
{
	size_t i = d->count, j = s->count;
	for (size_t k = u; k-- > 0;) {
		flame__stack *out = &d->v[k];
		if (ops[k] == DST_ONLY) {
			*out = d->v[--i];
			continue;
		}
		const flame__stack *st = &s->v[--j];
		uint64_t w0 = to_after ? 0 : st->w[0] * m, w1 = (to_after ? st->w[0] : st->w[1]) * m;
		if (ops[k] == BOTH) {
			*out = d->v[--i];
		} else {
			uint32_t *p = ids + (new_ids -= st->depth);
			if (map)
				for (uint32_t f = 0; f < st->depth; f++)
					p[f] = map[st->ids[f]];
			else
				memcpy(p, st->ids, st->depth * sizeof *p);
			*out = (flame__stack){p, st->depth, 0, {0, 0}};
		}
		out->w[0] += w0;
		out->w[1] += w1;
	}
}

int flame__tree_join_sorted(flame_tree *dst, const flame_tree *src, uint64_t m, int flags,
                            flame_err *err)
{
	if (dst->time || src->time || dst->sites || src->sites || dst->labels || src->labels)
		return 1; /* the join moves stacks: time keyed by their places, and frames that
		           * differ by site only, or stacks by labels, go the long way */
	flame__stacks *d = &dst->stacks;
	const flame__stacks *s = &src->stacks;
	int to_after = flags & FLAME__JOIN_TO_AFTER;
	/* the sums cannot overflow when the totals do not */
	uint64_t add0 = to_after ? 0 : s->total[0], add1 = to_after ? s->total[0] : s->total[1];
	if ((m > 1 && (add0 > UINT64_MAX / m || add1 > UINT64_MAX / m)) ||
	    d->total[0] + add0 * m < d->total[0] || d->total[1] + add1 * m < d->total[1])
		return flame__err(err, FLAME_ERANGE, "", 0, FLAME__NO_OFFSET, "a count overflows 64 bits");
	uint32_t *map = flags & FLAME__JOIN_SAME_NAMES ? NULL : name_map(dst, src);
	unsigned char *ops = malloc(d->count + s->count ? d->count + s->count : 1);
	size_t u = 0, new_ids = 0;
	uint32_t *ids = NULL;
	int rc = 0;
	if ((!map && !(flags & FLAME__JOIN_SAME_NAMES)) || !ops)
		rc = flame__err_nomem(err);
	else /* 1: equal texts of different frames, which the caller's hashing keeps apart */
		rc = plan_join(dst, src, map, ops, &u, &new_ids);
	/* allocated first (the table to exactly u stacks): nothing can fail once stacks move */
	if (!rc && (u >= UINT32_MAX ||
	            (new_ids && !(ids = flame__arena_alloc(&d->arena, new_ids * sizeof *ids))) ||
	            flame__array_reserve_upto(d->v, d->cap, u, u, u)))
		rc = flame__err_nomem(err);
	if (!rc) {
		place_stacks(d, s, map, ops, u, ids, new_ids, m, to_after);
		d->total[0] += add0 * m;
		d->total[1] += add1 * m;
		d->count = u;
		d->sorted = 1;
		drop_index(d);
		dst->nodes_valid = 0;
	}
	free(map);
	free(ops);
	return rc;
}
