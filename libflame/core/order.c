/* Bytewise text order of stacks on id sequences (see order.h). */
#include <stdlib.h>
#include <string.h>
#include "../flame.h"
#include "order.h"

static int cmp_bytes(const flame__name *p, const flame__name *q, int after_p, int after_q)
{
	size_t m = p->len < q->len ? p->len : q->len;
	int r = memcmp(p->ptr, q->ptr, m);
	if (r)
		return r;
	int x = p->len > m ? (unsigned char)p->ptr[m] : after_p;
	int y = q->len > m ? (unsigned char)q->ptr[m] : after_q;
	return x < y ? -1 : x > y;
}

static int cmp_semi(const void *a, const void *b, void *ud)
{
	return cmp_bytes(flame__intern_get(ud, *(const uint32_t *)a),
	                 flame__intern_get(ud, *(const uint32_t *)b), ';', ';');
}

static int cmp_end(const void *a, const void *b, void *ud)
{
	return cmp_bytes(flame__intern_get(ud, *(const uint32_t *)a),
	                 flame__intern_get(ud, *(const uint32_t *)b), -1, -1);
}

void flame__order_free(flame__order *o)
{
	free(o->semi);
	free(o->end);
	o->semi = o->end = NULL;
	o->count = 0;
}

int flame__order_init(flame__order *o, const flame__intern *names)
{
	flame__order_free(o);
	o->names = names;
	uint32_t n = names->count;
	for (uint32_t i = 0; i < n; i++) {
		const flame__name *nm = flame__intern_get(names, i);
		if (memchr(nm->ptr, ';', nm->len))
			return 0; /* ranks cannot express it: compare bytes */
	}
	uint32_t *ord = malloc(((size_t)n + 1) * sizeof *ord);
	o->semi = malloc(((size_t)n + 1) * sizeof *o->semi);
	o->end = malloc(((size_t)n + 1) * sizeof *o->end);
	if (!ord || !o->semi || !o->end) {
		free(ord);
		flame__order_free(o);
		return FLAME_ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof *ord, cmp_semi, (void *)names);
	for (uint32_t i = 0; i < n; i++)
		o->semi[ord[i]] = i;
	for (uint32_t i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof *ord, cmp_end, (void *)names);
	for (uint32_t i = 0; i < n; i++)
		o->end[ord[i]] = i;
	free(ord);
	o->count = n;
	return 0;
}

/* Byte `*pos` of frame `*frame` onwards of a stack's text, or -1 past its end. */
static int text_byte(const flame__intern *names, const uint32_t *ids, uint32_t depth,
                     uint32_t *frame, size_t *pos)
{
	while (*frame < depth) {
		const flame__name *nm = flame__intern_get(names, ids[*frame]);
		if (*pos < nm->len)
			return (unsigned char)nm->ptr[(*pos)++];
		if (*pos == nm->len && *frame + 1 < depth) {
			(*pos)++;
			return ';';
		}
		(*frame)++;
		*pos = 0;
	}
	return -1;
}

int flame__order_cmp(const flame__order *o, const uint32_t *a, uint32_t da, const uint32_t *b,
                     uint32_t db)
{
	uint32_t n = da < db ? da : db, i = 0;
	while (i < n && a[i] == b[i])
		i++;
	if (i == n)
		return da < db ? -1 : da > db;
	int al = i + 1 == da, bl = i + 1 == db; /* frame i ends its line */
	uint32_t x = a[i], y = b[i];
	if (o->count && x < o->count && y < o->count) {
		if (!al && !bl)
			return o->semi[x] < o->semi[y] ? -1 : 1;
		if (al && bl)
			return o->end[x] < o->end[y] ? -1 : 1;
	}
	const flame__name *p = flame__intern_get(o->names, x), *q = flame__intern_get(o->names, y);
	int r = cmp_bytes(p, q, al ? -1 : ';', bl ? -1 : ';');
	if (r || o->count)
		return r;
	/* names contain ';' themselves: compare the texts byte by byte */
	uint32_t fa = i, fb = i;
	size_t pa = 0, pb = 0;
	for (;;) {
		int ca = text_byte(o->names, a, da, &fa, &pa), cb = text_byte(o->names, b, db, &fb, &pb);
		if (ca != cb)
			return ca < cb ? -1 : 1;
		if (ca < 0)
			return 0;
	}
}
