/* Folded writer: one line per unique stack, `frame;frame;... count` (or `... before
 * after` for differential trees), lines in bytewise order of the stack text, as
 * stackcollapse-perf.pl's `sort keys` prints them. Stacks are sorted on id sequences
 * by name ranks (core/order.c), never as text; each line is built in one buffer and
 * written with one call. A tree that spilled runs to disk is merged as it is written. */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/order.h"
#include "../core/spill.h"
#include "../core/tree.h"

/* Format a count of the given decimal scale; returns its length (at most 31). */
static size_t fmt_count(char *buf, uint64_t v, unsigned scale)
{
	char tmp[32];
	size_t n = 0;
	uint64_t ip = v / flame__pow10[scale], fp = v % flame__pow10[scale];
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

typedef struct line_writer {
	const flame_tree *t;
	flame_output *o;
	flame_err *err;
	int diff;
	char *buf;
	size_t cap;
} line_writer;

static int emit_line(void *ud, const uint32_t *ids, uint32_t depth, uint64_t w0, uint64_t w1)
{
	line_writer *lw = ud;
	if (depth == 0)
		return 0;
	size_t need = 2 * 32 + 2;
	for (uint32_t i = 0; i < depth; i++)
		need += flame__intern_get(&lw->t->names, ids[i])->len + 1;
	if (need > lw->cap) {
		size_t cap = need * 2;
		char *nb = realloc(lw->buf, cap);
		if (!nb)
			return flame__err_nomem(lw->err);
		lw->buf = nb;
		lw->cap = cap;
	}
	char *p = lw->buf;
	for (uint32_t i = 0; i < depth; i++) {
		const flame__name *nm = flame__intern_get(&lw->t->names, ids[i]);
		memcpy(p, nm->ptr, nm->len);
		p += nm->len;
		*p++ = ';';
	}
	p[-1] = ' ';
	p += fmt_count(p, w0, lw->t->scale);
	if (lw->diff) {
		*p++ = ' ';
		p += fmt_count(p, w1, lw->t->scale);
	}
	*p++ = '\n';
	return flame_output_write(lw->o, lw->buf, (size_t)(p - lw->buf), lw->err);
}

struct sort_ctx {
	const flame__order *o;
	const flame__stack *v;
};

static int cmp_idx(const void *a, const void *b, void *ud)
{
	const struct sort_ctx *c = ud;
	const flame__stack *x = &c->v[*(const uint32_t *)a], *y = &c->v[*(const uint32_t *)b];
	return flame__order_cmp(c->o, x->ids, x->depth, y->ids, y->depth);
}

int flame_write_folded(flame_tree *t, flame_output *o, flame_err *err)
{
	line_writer lw = {t, o, err, flame_tree_is_differential(t), NULL, 0};
	int rc = 0;
	if (flame__tree_spilled(t)) {
		rc = flame__tree_merge_runs(t, emit_line, &lw, err);
		free(lw.buf);
		return rc;
	}
	size_t n = t->stacks.count;
	uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
	flame__order ord = {0};
	if (!idx || flame__order_init(&ord, &t->names)) {
		free(idx);
		return flame__err_nomem(err);
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	struct sort_ctx c = {&ord, t->stacks.v};
	qsort_r(idx, n, sizeof *idx, cmp_idx, &c);
	flame__order_free(&ord);
	for (size_t k = 0; k < n && !rc; k++) {
		const flame__stack *s = &t->stacks.v[idx[k]];
		rc = emit_line(&lw, s->ids, s->depth, s->w[0], s->w[1]);
	}
	free(idx);
	free(lw.buf);
	return rc;
}
