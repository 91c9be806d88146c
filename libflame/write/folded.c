/* Folded writer: one line per unique stack, `frame;frame;... count` (or `... before
 * after` for differential trees), lines in bytewise order of the stack text, as
 * stackcollapse-perf.pl's `sort keys` prints them. Sorting compares id sequences and
 * touches name bytes only at the first differing frame, and the text is streamed out,
 * never built whole, so memory stays at the size of the stack table. */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/tree.h"

struct text_ctx {
	const flame__stack *v;
	const flame__intern *names;
};

/* Byte `i` of the stack's text, or -1 past its end. Slow path only. */
static int text_byte(const flame__intern *names, const flame__stack *s, size_t *frame,
                     size_t *pos)
{
	while (*frame < s->depth) {
		const flame__name *nm = flame__intern_get(names, s->ids[*frame]);
		if (*pos < nm->len)
			return (unsigned char)nm->ptr[(*pos)++];
		if (*pos == nm->len && *frame + 1 < s->depth) {
			(*pos)++;
			return ';';
		}
		(*frame)++;
		*pos = 0;
	}
	return -1;
}

static int cmp_text(const void *a, const void *b, void *ud)
{
	const struct text_ctx *c = ud;
	const flame__stack *x = &c->v[*(const uint32_t *)a], *y = &c->v[*(const uint32_t *)b];
	uint32_t n = x->depth < y->depth ? x->depth : y->depth;
	uint32_t i = 0;
	while (i < n && x->ids[i] == y->ids[i])
		i++;
	if (i == n)
		return x->depth < y->depth ? -1 : x->depth > y->depth;
	const flame__name *p = flame__intern_get(c->names, x->ids[i]);
	const flame__name *q = flame__intern_get(c->names, y->ids[i]);
	size_t m = p->len < q->len ? p->len : q->len;
	int r = memcmp(p->ptr, q->ptr, m);
	if (r)
		return r;
	/* one name is a prefix of the other: compare what follows it */
	int nx = p->len > m ? (unsigned char)p->ptr[m] : (i + 1 < x->depth ? ';' : -1);
	int ny = q->len > m ? (unsigned char)q->ptr[m] : (i + 1 < y->depth ? ';' : -1);
	if (nx != ny)
		return nx < ny ? -1 : 1;
	/* only possible when names contain ';' themselves: compare the texts byte by byte */
	size_t fx = i, px = 0, fy = i, py = 0;
	for (;;) {
		int bx = text_byte(c->names, x, &fx, &px), by = text_byte(c->names, y, &fy, &py);
		if (bx != by)
			return bx < by ? -1 : 1;
		if (bx < 0)
			return 0;
	}
}

static const uint64_t p10[] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
                               1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL};

/* Format a count of the given decimal scale; returns its length. */
static size_t fmt_count(char *buf, uint64_t v, unsigned scale)
{
	char tmp[32];
	size_t n = 0;
	uint64_t ip = v / p10[scale], fp = v % p10[scale];
	do {
		tmp[n++] = (char)('0' + ip % 10);
		ip /= 10;
	} while (ip);
	size_t len = 0;
	while (n)
		buf[len++] = tmp[--n];
	if (scale && fp) {
		buf[len++] = '.';
		unsigned digits = scale;
		while (fp % 10 == 0) { /* trim trailing zeros */
			fp /= 10;
			digits--;
		}
		for (unsigned d = digits; d-- > 0;) {
			buf[len + d] = (char)('0' + fp % 10);
			fp /= 10;
		}
		len += digits;
	}
	return len;
}

int flame_write_folded(flame_tree *t, flame_output *o, flame_err *err)
{
	size_t n = t->stacks.count;
	uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
	if (!idx)
		return flame__err_nomem(err);
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	struct text_ctx c = {t->stacks.v, &t->names};
	qsort_r(idx, n, sizeof *idx, cmp_text, &c);
	int diff = flame_tree_is_differential(t);
	int rc = 0;
	char num[80];
	for (size_t k = 0; k < n && !rc; k++) {
		const flame__stack *s = &t->stacks.v[idx[k]];
		if (s->depth == 0)
			continue;
		for (uint32_t i = 0; i < s->depth && !rc; i++) {
			const flame__name *nm = flame__intern_get(&t->names, s->ids[i]);
			if (i)
				rc = flame_output_write(o, ";", 1, err);
			if (!rc)
				rc = flame_output_write(o, nm->ptr, nm->len, err);
		}
		size_t len = 0;
		num[len++] = ' ';
		len += fmt_count(num + len, s->w[0], t->scale);
		if (diff) {
			num[len++] = ' ';
			len += fmt_count(num + len, s->w[1], t->scale);
		}
		num[len++] = '\n';
		if (!rc)
			rc = flame_output_write(o, num, len, err);
	}
	free(idx);
	return rc;
}
