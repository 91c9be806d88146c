/* Diffs and merges of sorted folded files, as text: the fast path of `flame-diff --format
 * folded` and of `flame-merge`. Collapsed files are sorted (stackcollapse-perf.pl and
 * flame-collapse print their lines in bytewise order), and difffolded.pl's output of two
 * sorted files, or the sum of several, is a merge of their lines: no names to intern, no
 * tree to build, no lines to rebuild from ids. A first pass checks that every file
 * qualifies (plain files, every line `stack count` with a whole count, stacks strictly
 * increasing, perhaps after a header line as write/folded.c writes it, the same in every
 * file that has one) and sums it (for the normalizations and to rule out overflow); the second
 * merges them. What does not qualify is left to the tree (flame__read_pair,
 * flame__read_sum), which prints the same lines and reports what is wrong. Both passes
 * stream through fixed buffers. Part of the read layer: it reads inputs and writes
 * text to an output, with no tree and no transform. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/heap.h"
#include "../core/input.h"
#include "../core/lines.h"
#include "../core/numfmt.h"
#include "../core/output.h"
#include "../core/pool.h"
#include "../core/u128.h"
#include "../parse/binary.h"
#include "../parse/folded-line.h"
#include "read.h"

/* 128-bit products of counts (GCC and Clang) */
__extension__ typedef unsigned __int128 u128;

enum {
	CHUNK = 256 * 1024,      /* bytes of lines per read, for one or two inputs */
	CHUNK_MANY = 64 * 1024   /* and for more */
};

/* A line `stack count`. */
typedef struct row {
	const char *p;
	size_t n; /* of the stack */
	uint64_t v;
} row;

/* Split p[0..n) into stack and count by the folded grammar (parse/folded-line.h): 1, or
 * 0 when the line is not one the text merge takes: a count with a fraction, a 3-column
 * line, an empty stack, or no count (the tree warns about those or scales them). */
static inline int split_line(const char *p, size_t n, row *r)
{
	flame__count c[2];
	int ncounts;
	if (flame__folded_line(p, &n, c, &ncounts) || ncounts != 1 || c[0].dec || n == 0)
		return 0;
	r->p = p;
	r->n = n;
	r->v = c[0].mant;
	return 1;
}

/* 1 when `s[0..n)` is a word of a header as the folded writer writes it: printable ASCII,
 * no space or '='. */
static int header_word(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~' || s[i] == '=')
			return 0;
	return n > 0;
}

/* 1 when p[0..n) is a header line exactly as write/folded.c writes it (`# countname=UNIT[
 * type=TYPE][ duration=NS]`, UNIT not samples), so the merge can write it as the tree
 * would; any other '#' line is left to the tree. */
static int header_line(const char *p, size_t n)
{
	static const char key[] = "# countname=";
	static const char *const keys[] = {" type=", " duration="};
	if (n < sizeof key - 1 || memcmp(p, key, sizeof key - 1))
		return 0;
	size_t i = sizeof key - 1, j = i;
	while (j < n && p[j] != ' ')
		j++;
	if (!header_word(p + i, j - i) || (j - i == 7 && !memcmp(p + i, "samples", 7)) ||
	    (j - i == 5 && !memcmp(p + i, "count", 5)))
		return 0;
	for (int k = 0; k < 2 && j < n; k++) {
		size_t kl = strlen(keys[k]);
		if (n - j < kl || memcmp(p + j, keys[k], kl))
			continue;
		i = j + kl;
		j = i;
		while (j < n && p[j] != ' ')
			j++;
		if (!header_word(p + i, j - i) || (k == 1 && (p[i] == '0' || strspn(p + i, "0123456789") < j - i)))
			return 0;
	}
	return j == n;
}

/* Bytewise order of the stacks (a stack before those it is a prefix of). */
static int cmp_rows(const row *a, const row *b)
{
	size_t n = a->n < b->n ? a->n : b->n;
	int c = memcmp(a->p, b->p, n);
	if (c)
		return c;
	return a->n < b->n ? -1 : a->n > b->n;
}

/* ---- reading lines: both passes */

typedef struct cursor {
	flame__lines cur;
	size_t chunk;
	const char *b;
	size_t bn, pos; /* the block of whole lines, and the next line in it */
	row r;
	int find_nul, nul; /* the first pass looks for a NUL in each block it reads */
	int started;       /* a line was read: a header line can only come first */
} cursor;

/* The next non-blank line (the tree skips blank lines too): 1 with (*p, *n), 0 at the
 * end, or a negative status. Lines of the block before are gone once it returns. */
static inline int next_line(cursor *c, const char **p, size_t *n, flame_err *err)
{
	for (;;) {
		if (c->pos >= c->bn) {
			int rc = flame__lines_chunk(&c->cur, c->chunk, &c->b, &c->bn, err);
			if (rc <= 0)
				return rc;
			c->pos = 0;
			if (c->find_nul) /* a block at once: one call, not one per line */
				c->nul |= flame__has_nul(c->b, c->bn);
		}
		*p = c->b + c->pos;
		const char *nl = memchr(*p, '\n', c->bn - c->pos);
		*n = nl ? (size_t)(nl - *p) : c->bn - c->pos;
		c->pos += *n + 1;
		if (*n)
			return 1;
	}
}

/* ---- first pass */

typedef struct check {
	flame_input *in;
	size_t chunk;
	uint64_t total;
	int verdict; /* 1: qualifies, 0: not (or failed to read: the tree will say why) */
	char header[160]; /* its header line, "" when it has none */
} check;

static void check_one(check *c)
{
	flame_err err;
	cursor cu = {.chunk = c->chunk, .find_nul = 1};
	c->verdict = 0;
	if (flame__lines_init(&cu.cur, c->in, &err))
		return;
	char *keep = NULL;
	size_t keep_cap = 0;
	row prev = {"", 0, 0};
	int have = 0, ok = 1, rc = 0;
	uint64_t sum = 0;
	const char *p;
	size_t n;
	for (;;) {
		if (have && cu.pos >= cu.bn) { /* the block's buffer is about to be reused */
			if (flame__array_reserve_min(keep, keep_cap, prev.n, 256)) {
				ok = 0;
				break;
			}
			memmove(keep, prev.p, prev.n);
			prev.p = keep;
		}
		if ((rc = next_line(&cu, &p, &n, &err)) <= 0)
			break;
		if (!cu.started++ && n < sizeof c->header && header_line(p, n)) {
			memcpy(c->header, p, n);
			c->header[n] = '\0';
			continue;
		}
		row r;
		/* binary data goes to the folded parser, which names its first line (a NUL in
		 * the block read: in this line or one to come, so the input does not qualify) */
		if (cu.nul || !split_line(p, n, &r) || sum + r.v < sum ||
		    (have && cmp_rows(&prev, &r) >= 0)) {
			ok = 0;
			break;
		}
		sum += r.v;
		prev = r;
		have = 1;
	}
	free(keep);
	flame__lines_free(&cu.cur);
	c->total = sum;
	c->verdict = ok && rc == 0;
}

static int check_job(void *ctx, size_t i)
{
	check_one(&((check *)ctx)[i]);
	return 0;
}

/* Check every input, on two threads (this one too). */
static void check_all(check *c, size_t n)
{
	flame__pool_run(2, n, check_job, c);
}

/* ---- second pass: a merge of the lines, the smallest stack first */

/* The next line of c into c->r: 1, 0 at the end, or a negative status. */
static int advance(cursor *c, flame_err *err)
{
	const char *p;
	size_t n;
	int rc = next_line(c, &p, &n, err);
	if (rc > 0 && !c->started++ && header_line(p, n))
		rc = next_line(c, &p, &n, err); /* checked by the first pass */
	if (rc <= 0)
		return rc;
	if (!split_line(p, n, &c->r))
		return flame__err(err, FLAME_EDATA, flame__lines_source(&c->cur), 0,
		                  c->cur.offset + (uint64_t)(p - c->b), "the file changed while it was read");
	return 1;
}

/* Where merged lines go: straight into the output's buffer (core/output.h). */
typedef struct text_out {
	flame_output *o;
	flame_err *err;
} text_out;

/* `stack count`, or `stack before after` when ncol is 2 */
static int emit(text_out *w, const row *r, const uint64_t *col, int ncol)
{
	int rc = 0;
	char *p = flame__output_reserve(w->o, r->n + 2 * 21 + 1, &rc, w->err);
	if (!p)
		return rc;
	memcpy(p, r->p, r->n);
	char *q = p + r->n;
	for (int i = 0; i < ncol; i++) {
		*q++ = ' ';
		q += flame__fmt_u64(q, col[i]);
	}
	*q++ = '\n';
	flame__output_advance(w->o, (size_t)(q - p));
	return 0;
}

/* What the merged lines hold: a diff (input 0 is BEFORE, times num / den rounded down; 1
 * is AFTER) or a sum (each input times mul[i]). */
typedef struct combine {
	int diff;
	uint64_t num, den;
	const uint64_t *mul;
	const char *header; /* the header line to write first, or NULL */
} combine;

typedef struct merger {
	cursor *c;
	flame__heap heap; /* inputs with a line left, the smallest stack on top */
	size_t *eq;       /* the inputs whose line is the next stack */
} merger;

static inline int before(const cursor *c, size_t a, size_t b)
{
	int k = cmp_rows(&c[a].r, &c[b].r);
	return k < 0 || (k == 0 && a < b);
}

FLAME__HEAP(inputs, cursor, before)

static int merge_lines(merger *m, size_t n, const combine *cb, text_out *w, flame_err *err)
{
	int rc = 0;
	if (cb->header && /* first, as the folded writer writes it */
	    ((rc = flame__output_put(w->o, cb->header, strlen(cb->header), err)) ||
	     (rc = flame__output_putc(w->o, '\n', err))))
		return rc;
	for (size_t i = 0; i < n && !rc; i++) {
		int a = advance(&m->c[i], err);
		if (a < 0)
			rc = a;
		else if (a)
			inputs_push(&m->heap, m->c, i);
	}
	while (!rc && m->heap.n) {
		size_t ne = 0;
		m->eq[ne++] = inputs_pop(&m->heap, m->c);
		while (m->heap.n && cmp_rows(&m->c[m->heap.h[0]].r, &m->c[m->eq[0]].r) == 0)
			m->eq[ne++] = inputs_pop(&m->heap, m->c);
		uint64_t col[2] = {0, 0};
		for (size_t j = 0; j < ne; j++) {
			size_t i = m->eq[j];
			uint64_t v = m->c[i].r.v;
			if (!cb->diff)
				col[0] += v * cb->mul[i]; /* the first pass ruled out overflow */
			else if (i == 0)
				col[0] = (uint64_t)((flame__u128)v * cb->num / cb->den);
			else
				col[1] = v;
		}
		rc = emit(w, &m->c[m->eq[0]].r, col, cb->diff ? 2 : 1);
		for (size_t j = 0; j < ne && !rc; j++) {
			int a = advance(&m->c[m->eq[j]], err);
			if (a < 0)
				rc = a;
			else if (a)
				inputs_push(&m->heap, m->c, m->eq[j]);
		}
	}
	return rc;
}

static int merge(flame__source *src, size_t n, size_t chunk, const combine *cb, flame_output *o,
                 flame_err *err)
{
	merger m = {0};
	m.c = calloc(n, sizeof *m.c);
	m.heap = (flame__heap){calloc(n, sizeof *m.heap.h), 0};
	m.eq = calloc(n, sizeof *m.eq);
	text_out w = {o, err};
	size_t ready = 0;
	int rc = m.c && m.heap.h && m.eq ? 0 : flame__err_nomem(err);
	for (; ready < n && !rc; ready++) {
		m.c[ready].chunk = chunk;
		if ((rc = flame__lines_init(&m.c[ready].cur, src[ready].in, err)))
			break;
	}
	if (!rc)
		rc = merge_lines(&m, n, cb, &w, err);
	for (size_t i = 0; i < ready; i++)
		flame__lines_free(&m.c[i].cur);
	free(m.c);
	free(m.heap.h);
	free(m.eq);
	return rc;
}

/* ---- both passes */

/* The header line the inputs share (those with none count in any unit, as a tree of
 * unknown unit takes any), "" when none has one, or NULL when two differ: the tree then
 * says whether their units can be added. */
static const char *common_header(const check *c, size_t n)
{
	const char *h = "";
	for (size_t i = 0; i < n; i++)
		if (c[i].header[0] && h[0] && strcmp(h, c[i].header))
			return NULL;
		else if (c[i].header[0])
			h = c[i].header;
	return h;
}

/* Check the inputs: 0 when they all qualify (totals in c[]), 1 when not, or an error.
 * The inputs are at their start afterwards: format detection only peeks, and what the
 * check read is read again. */
static int check_inputs(flame__source *src, size_t n, check *c, flame_err *err)
{
	for (size_t i = 0; i < n; i++) {
		/* plain first: it reads nothing of stdin, which the caller may then reopen */
		if (!flame__input_plain(src[i].in))
			return 1;
		src[i].rc = 0;
		if (!flame__source_folded(&src[i])) {
			if (src[i].rc) /* the input cannot be read: no use trying the tree */
				*err = src[i].err;
			return src[i].rc ? src[i].rc : 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		c[i] = (check){.in = src[i].in, .chunk = n > 2 ? CHUNK_MANY : CHUNK};
	check_all(c, n);
	int ok = 1;
	for (size_t i = 0; i < n; i++) {
		ok &= c[i].verdict;
		if (flame__input_rewind(src[i].in))
			return flame__err(err, FLAME_EIO, flame_input_name(src[i].in), 0, FLAME__NO_OFFSET,
			                  "cannot read the file again from its start");
	}
	return !ok || !common_header(c, n);
}

int flame__text_diff(flame__source src[2], const flame_diff_opts *o, flame_output *out,
                     flame_err *err)
{
	check c[2];
	int rc;
	if ((rc = check_inputs(src, 2, c, err)))
		return rc;
	combine cb = {1, 1, 1, NULL, NULL};
	uint64_t t0 = c[0].total, t1 = c[1].total;
	const char *h = common_header(c, 2);
	if (h[0] && o->norm != FLAME_DIFF_NORM_NONE)
		return 1; /* whether the tree has any count left to write one is the tree's to say */
	if (h[0] && (t0 || t1))
		cb.header = h; /* the folded writer's, for a tree with counts */
	if (o->norm == FLAME_DIFF_NORM_TOTAL && t0 && t0 != t1) {
		cb.num = t1;
		cb.den = t0;
	} else if (o->norm == FLAME_DIFF_NORM_REQUESTS) {
		cb.num = o->requests_after;
		cb.den = o->requests_before;
		if ((flame__u128)t0 * cb.num / cb.den > UINT64_MAX)
			return 1; /* the tree reports the overflow */
	}
	src[0].total = t0;
	src[1].total = t1;
	return merge(src, 2, CHUNK, &cb, out, err);
}

int flame__text_sum(flame__source *src, size_t n, flame_output *out, flame_err *err)
{
	for (size_t i = 0; i < n; i++)
		if (src[i].weight_decimals)
			return 1;
	check *c = calloc(n ? n : 1, sizeof *c);
	uint64_t *mul = calloc(n ? n : 1, sizeof *mul);
	int rc = c && mul ? check_inputs(src, n, c, err) : flame__err_nomem(err);
	flame__u128 sum = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		mul[i] = src[i].weight ? src[i].weight : 1;
		src[i].total = c[i].total * mul[i];
		sum += (flame__u128)c[i].total * mul[i];
		if (sum > UINT64_MAX)
			rc = 1; /* the tree reports the overflow */
	}
	if (!rc) {
		const char *h = common_header(c, n);
		combine cb = {0, 1, 1, mul, h[0] && sum ? h : NULL};
		rc = merge(src, n, n > 2 ? CHUNK_MANY : CHUNK, &cb, out, err);
	}
	free(c);
	free(mul);
	return rc;
}
