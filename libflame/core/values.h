/* Every sample type's values kept beside the stacks (flame_parse_opts.keep_sample_types):
 * a pprof profile has several types per sample (Go's heap: alloc_objects, alloc_space,
 * inuse_objects, inuse_space) and the tree weighs by one, the chosen; the others ride
 * here, one row of signed sums per stack of the table, so a profile read and written back
 * keeps them all. Optional: a tree without the table costs what it did. core/tree.c keeps
 * rows on their stacks through rewrites and merges, and forgets the table where the rows
 * would stop being true (a weight rewrite, a time cut, a diff, inputs of other types). */
#ifndef FLAME_CORE_VALUES_H
#define FLAME_CORE_VALUES_H
#include <stddef.h>
#include <stdint.h>

typedef struct flame__values {
	size_t ntypes;     /* columns: every type of the profile, in its order */
	size_t main;       /* the column the stack table's column 0 weighs (the chosen type) */
	char **type, **unit; /* each column's type and unit */
	int64_t *v;        /* rows, ntypes each; row k is stack k's (rows past `rows`: zeros) */
	size_t rows, cap;  /* rows held, rows allocated */
} flame__values;

/** A table of `ntypes` (> 0) columns named type[i]/unit[i] (copied), column `main` the
 * table's own; NULL out of memory. */
flame__values *flame__values_new(size_t ntypes, size_t main, const char *const *type,
                                 const char *const *unit);
void flame__values_free(flame__values *vt);

/** Whether `vt` has the types `type`/`unit` (n of them) with `main` chosen. */
int flame__values_same(const flame__values *vt, size_t n, size_t main, const char *const *type,
                       const char *const *unit);

/** Add `row` (ntypes values) to stack `stack`'s row: 0, FLAME_ENOMEM, FLAME_ERANGE (a sum
 * past int64). */
int flame__values_add(flame__values *vt, uint32_t stack, const int64_t *row);

/** Stack `stack`'s row, NULL where it has none (all zeros). */
const int64_t *flame__values_row(const flame__values *vt, uint32_t stack);

/** Whether stack `stack` has a value other than 0 in a column other than `main` (whose
 * values are the stack table's). */
int flame__values_any(const flame__values *vt, uint32_t stack);

/** The rows of `src` (stacks 0..n) added to `dst`'s at map[k] (UINT32_MAX: dropped). `dst`
 * may be `src` (stacks renumbered: the rows move). 0, FLAME_ENOMEM, FLAME_ERANGE. */
int flame__values_move(flame__values *dst, const flame__values *src, const uint32_t *map,
                       size_t n);
#endif
