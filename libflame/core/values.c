/* The table of every sample type's values (see values.h): rows of int64 sums indexed by
 * stack, grown as stacks come. */
#include <stdlib.h>
#include <string.h>
#include "../flame.h"
#include "array.h"
#include "values.h"

static char *copy_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *r = malloc(n);
	return r ? memcpy(r, s, n) : NULL;
}

flame__values *flame__values_new(size_t ntypes, size_t main, const char *const *type,
                                 const char *const *unit)
{
	flame__values *vt = calloc(1, sizeof *vt);
	if (!vt)
		return NULL;
	vt->ntypes = ntypes;
	vt->main = main;
	vt->type = calloc(ntypes, sizeof *vt->type);
	vt->unit = calloc(ntypes, sizeof *vt->unit);
	int ok = ntypes && main < ntypes && vt->type && vt->unit;
	for (size_t i = 0; ok && i < ntypes; i++)
		ok = (vt->type[i] = copy_str(type[i])) && (vt->unit[i] = copy_str(unit[i]));
	if (!ok) {
		flame__values_free(vt);
		return NULL;
	}
	return vt;
}

void flame__values_free(flame__values *vt)
{
	if (!vt)
		return;
	for (size_t i = 0; i < vt->ntypes; i++) {
		free(vt->type ? vt->type[i] : NULL);
		free(vt->unit ? vt->unit[i] : NULL);
	}
	free(vt->type);
	free(vt->unit);
	free(vt->v);
	free(vt);
}

int flame__values_same(const flame__values *vt, size_t n, size_t main, const char *const *type,
                       const char *const *unit)
{
	if (vt->ntypes != n || vt->main != main)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(vt->type[i], type[i]) || strcmp(vt->unit[i], unit[i]))
			return 0;
	return 1;
}

/* Rows for stacks 0..stack, the new ones zero. */
static int reach(flame__values *vt, size_t stack)
{
	if (stack < vt->rows)
		return 0;
	size_t need = stack + 1;
	if (need > vt->cap &&
	    flame__array_grow(&vt->v, &vt->cap, need, vt->ntypes * sizeof *vt->v, 64))
		return FLAME_ENOMEM;
	memset(vt->v + vt->rows * vt->ntypes, 0, (need - vt->rows) * vt->ntypes * sizeof *vt->v);
	vt->rows = need;
	return 0;
}

int flame__values_add(flame__values *vt, uint32_t stack, const int64_t *row)
{
	if (reach(vt, stack))
		return FLAME_ENOMEM;
	int64_t *r = vt->v + (size_t)stack * vt->ntypes;
	for (size_t i = 0; i < vt->ntypes; i++)
		if (__builtin_add_overflow(r[i], row[i], &r[i]))
			return FLAME_ERANGE;
	return 0;
}

const int64_t *flame__values_row(const flame__values *vt, uint32_t stack)
{
	return stack < vt->rows ? vt->v + (size_t)stack * vt->ntypes : NULL;
}

int flame__values_any(const flame__values *vt, uint32_t stack)
{
	const int64_t *r = flame__values_row(vt, stack);
	for (size_t i = 0; r && i < vt->ntypes; i++)
		if (r[i] && i != vt->main)
			return 1;
	return 0;
}

int flame__values_move(flame__values *dst, const flame__values *src, const uint32_t *map,
                       size_t n)
{
	flame__values tmp = *src; /* when dst is src: read the old rows, write fresh ones */
	if (dst == src) {
		dst->v = NULL;
		dst->rows = dst->cap = 0;
	}
	int rc = 0;
	for (size_t k = 0; k < n && k < tmp.rows && !rc; k++)
		if (map[k] != UINT32_MAX)
			rc = flame__values_add(dst, map[k], tmp.v + k * tmp.ntypes);
	if (dst == src)
		free(tmp.v);
	return rc;
}
