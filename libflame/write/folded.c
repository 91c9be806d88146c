/* Folded writer: one line per unique stack, `frame;frame;... count` (or `... before
 * after` for differential trees), lines in bytewise order of the stack text, as
 * stackcollapse-perf.pl's `sort keys` prints them. Stacks are sorted on id sequences
 * by token ranks (core/order.c), never as text. Lines are built straight in the output's
 * buffer (core/output.h); sorted neighbours share long prefixes, so a line starts with
 * one copy of its prefix from the line before, which the buffer keeps when it is flushed;
 * big tables are formatted by two threads, a chunk each in turn (the helper's into memory
 * of its own), written in order. A tree that spilled runs to disk is merged as it is
 * written. A tree whose counts are known not to be plain samples starts with the line
 * `# countname=UNIT [type=TYPE] [duration=NS]` (header), which parse/folded.c reads back:
 * the unit survives `flame-collapse | flame-render`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/numfmt.h"
#include "../core/order.h"
#include "../core/output.h"
#include "../core/pool.h"
#include "../core/prefetch.h"
#include "../core/tree.h"
#include "../core/units.h"

/* the helper thread's first chunk buffer; a line's bound past LOOSE_MAX is counted exactly
 * (a few long names must not make every line reserve far more than it needs) */
enum { BUF_CAP = 512 * 1024, LOOSE_MAX = 64 * 1024 };

/* memcpy for the short names most frames have, without a call. */
static inline void copy_name(char *d, const char *s, size_t n)
{
	if (n > 16) {
		memcpy(d, s, n);
	} else if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	}
}

typedef struct line_writer {
	const flame__intern *names;
	flame_output *o;
	flame_err *err;
	int diff;
	unsigned scale;
	flame__outbuf mem; /* without an output (the helper thread): its chunk of lines */
	size_t memcap;
	size_t prevlen;    /* of the previous line, just before where the next one goes */
	uint32_t *ids;     /* the previous line's stack */
	size_t *end;       /* end[i]: offset in that line just past frame i's ';' */
	uint32_t depth;
	size_t idcap, endcap;
	size_t maxlen;     /* of all names: bounds a line's length without reading them */
} line_writer;

static int lw_grow_ids(line_writer *lw, uint32_t depth)
{
	if (flame__array_reserve_min(lw->ids, lw->idcap, depth, 256) ||
	    flame__array_reserve_min(lw->end, lw->endcap, depth, 256))
		return flame__err_nomem(lw->err);
	return 0;
}

/* Where a line of at most `need` bytes goes, the previous line just before it; NULL on
 * an error (in *rc). */
static inline char *lw_room(line_writer *lw, size_t need, int *rc)
{
	if (lw->o)
		return flame__output_reserve_keep(lw->o, need, lw->prevlen, rc, lw->err);
	flame__outbuf *m = &lw->mem;
	if (flame__array_reserve_min(m->buf, lw->memcap, m->len + need, BUF_CAP)) {
		*rc = flame__err_nomem(lw->err);
		return NULL;
	}
	return m->buf + m->len;
}

static int emit_line(void *ud, const uint32_t *ids, uint32_t depth, uint64_t w0, uint64_t w1)
{
	line_writer *lw = ud;
	if (depth == 0)
		return 0;
	/* frames shared with the previous line, all but its last (which ends in ' ') */
	uint32_t cp = 0, lim = lw->depth < depth ? lw->depth : depth;
	if (lim)
		lim--;
	while (cp < lim && lw->ids[cp] == ids[cp])
		cp++;
	size_t pre = cp ? lw->end[cp - 1] : 0;
	size_t need = pre + 2 * 32 + 2 + (size_t)(depth - cp) * (lw->maxlen + 1);
	if (need > LOOSE_MAX) { /* a loose bound: count exactly */
		need = pre + 2 * 32 + 2;
		for (uint32_t i = cp; i < depth; i++)
			need += flame__intern_get(lw->names, ids[i])->len + 1;
	}
	int rc = lw_grow_ids(lw, depth);
	char *line = rc ? NULL : lw_room(lw, need, &rc);
	if (!line)
		return rc;
	char *p = line + pre;
	memcpy(line, line - lw->prevlen, pre);
	for (uint32_t i = cp; i < depth; i++) {
		const flame__name *nm = flame__intern_get(lw->names, ids[i]);
		copy_name(p, nm->ptr, nm->len);
		p += nm->len;
		*p++ = ';';
		lw->end[i] = (size_t)(p - line);
		lw->ids[i] = ids[i];
	}
	p[-1] = ' ';
	p += flame__fmt_count(p, w0, lw->scale);
	if (lw->diff) {
		*p++ = ' ';
		p += flame__fmt_count(p, w1, lw->scale);
	}
	*p++ = '\n';
	lw->prevlen = (size_t)(p - line);
	if (lw->o)
		flame__output_advance(lw->o, lw->prevlen);
	else
		lw->mem.len += lw->prevlen;
	lw->depth = depth;
	return 0;
}

/* Sorted order visits the table at random: fetch the stacks a few lines ahead in
 * stages (entry, then its ids, then its leaf's name, the frame least likely shared),
 * so the memory latency overlaps the formatting of the lines before. */
static inline void prefetch_ahead(const flame__stack *v, const uint32_t *idx, size_t n, size_t k,
                                  const flame__intern *names)
{
	if (k + 12 < n)
		flame__prefetch(&v[idx[k + 12]]);
	if (k + 8 < n) {
		const flame__stack *s = &v[idx[k + 8]];
		const char *p = (const char *)s->ids, *e = (const char *)(s->ids + s->depth);
		for (; p < e; p += 64)
			flame__prefetch(p);
		if (s->depth)
			flame__prefetch(e - 1);
	}
	if (k + 4 < n) {
		const flame__stack *s = &v[idx[k + 4]];
		if (s->depth)
			flame__prefetch(flame__intern_get(names, s->ids[s->depth - 1]));
	}
	if (k + 2 < n) {
		const flame__stack *s = &v[idx[k + 2]];
		if (s->depth)
			flame__prefetch(flame__intern_get(names, s->ids[s->depth - 1])->ptr);
	}
}

/* Two threads format a sorted table: chunks of lines alternate between them, each into
 * its own buffer, and the calling thread writes both in order. Few handovers (a chunk
 * is many lines), so a busy machine costs at most the overlap. */
typedef struct pair {
	const flame__stack *v;
	const uint32_t *idx;
	const flame__intern *names;
	line_writer lw;   /* the helper's, into memory (a chunk at a time) */
	flame_err err;
	size_t lo, hi;    /* the helper's chunk */
	int rc;
} pair;

static int format_chunk(line_writer *lw, const flame__stack *v, const uint32_t *idx, size_t lo,
                        size_t hi, const flame__intern *names)
{
	lw->mem.len = lw->prevlen = 0; /* a chunk shares no prefix with the one before */
	lw->depth = 0;
	int rc = 0;
	for (size_t k = lo; k < hi && !rc; k++) {
		prefetch_ahead(v, idx, hi, k, names);
		const flame__stack *s = &v[idx[k]];
		rc = emit_line(lw, s->ids, s->depth, s->w[0], s->w[1]);
	}
	return rc;
}

static void helper(void *arg, unsigned thread)
{
	pair *pr = arg;
	(void)thread;
	pr->rc = format_chunk(&pr->lw, pr->v, pr->idx, pr->lo, pr->hi, pr->names);
}

/* lines below which one thread formats everything: a handover to a thread that a busy
 * machine has not scheduled yet costs more than small tables take */
enum { PAIR_MIN = 65536 };

/* Returns 0, an error, or 1 when no thread could be started (format on one). */
static int write_pair(line_writer *lw, const flame__stack *v, const uint32_t *idx, size_t n,
                      const flame__intern *names)
{
	pair pr = {.v = v, .idx = idx, .names = names};
	pr.lw = *lw;
	pr.lw.o = NULL;
	pr.lw.err = &pr.err;
	pr.lw.mem = (flame__outbuf){0};
	pr.lw.ids = NULL;
	pr.lw.end = NULL;
	pr.lw.memcap = pr.lw.idcap = pr.lw.endcap = 0;
	/* chunks of about a sixteenth of the table, two at the least */
	size_t chunk = n / 16 > PAIR_MIN / 2 ? n / 16 : (n + 1) / 2;
	flame__pool *pool = flame__pool_new(1);
	if (!pool || !flame__pool_threads(pool)) {
		flame__pool_free(pool);
		return 1;
	}
	flame__task task = {helper, &pr, NULL, 0};
	int rc = 0;
	for (size_t lo = 0; lo < n && !rc; lo += 2 * chunk) {
		size_t mid = lo + chunk < n ? lo + chunk : n, hi = mid + chunk < n ? mid + chunk : n;
		if (mid < hi) {
			pr.lo = mid;
			pr.hi = hi;
			flame__pool_submit(pool, &task);
		}
		rc = format_chunk(lw, v, idx, lo, mid, names); /* straight into the output */
		if (mid < hi) {
			/* a chunk the helper has not started (a busy machine) is formatted here */
			flame__pool_wait(pool, &task);
			if (!rc && pr.rc) {
				rc = pr.rc;
				if (lw->err)
					*lw->err = pr.err;
			}
			if (!rc && pr.lw.mem.len)
				rc = flame_output_write(lw->o, pr.lw.mem.buf, pr.lw.mem.len, lw->err);
		}
	}
	flame__pool_free(pool);
	lw->prevlen = 0; /* the helper's line was the last written */
	lw->depth = 0;
	free(pr.lw.mem.buf);
	free(pr.lw.ids);
	free(pr.lw.end);
	return rc;
}

/* 1 when `s` reads back whole as a header value: printable ASCII, no space or '=' */
static int header_word(const char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == '=')
			return 0;
	return 1;
}

/* The header line: what the counts measure, when the tree knows and it is not samples
 * (a unit with a byte that would not read back is left out, as it was before), and
 * there are stacks to measure. */
static int header(const flame_tree *t, flame_output *o, flame_err *err)
{
	const char *unit = flame_tree_count_name(t);
	const flame__units *u = flame__tree_units(t);
	if (!unit || !strcmp(unit, "samples") || !strcmp(unit, "count") || !header_word(unit))
		return 0;
	if (!flame_tree_total(t, 0) && !flame_tree_total(t, 1))
		return 0; /* no stacks: an empty output, as for an empty input */
	char line[256];
	int n = snprintf(line, sizeof line, "# countname=%s", unit);
	if (u->type[0] && header_word(u->type))
		n += snprintf(line + n, sizeof line - (size_t)n, " type=%s", u->type);
	if (u->duration_ns)
		n += snprintf(line + n, sizeof line - (size_t)n, " duration=%llu",
		              (unsigned long long)u->duration_ns);
	line[n++] = '\n';
	return flame_output_write(o, line, (size_t)n, err);
}

int flame_write_folded(flame_tree *t, flame_output *o, flame_err *err)
{
	const flame__intern *names = flame__tree_names(t);
	line_writer lw = {.names = names, .o = o, .err = err,
	                  .diff = flame_tree_is_differential(t), .scale = flame_tree_decimals(t)};
	for (uint32_t i = 0; i < names->count; i++)
		if (names->names[i].len > lw.maxlen)
			lw.maxlen = names->names[i].len;
	/* spilled runs come merged in text order; else the table, ordered here */
	flame__stacks *mem = NULL;
	int rc = header(t, o, err);
	if (!rc)
		rc = flame__tree_stream_sorted(t, &mem, emit_line, &lw, err);
	if (!rc && mem) {
		size_t n = mem->count;
		const flame__stack *v = mem->v;
		if (mem->sorted) { /* filled in text order (a sorted input) */
			for (size_t k = 0; k < n && !rc; k++)
				rc = emit_line(&lw, v[k].ids, v[k].depth, v[k].w[0], v[k].w[1]);
		} else {
			flame__order ord = {0};
			uint32_t *idx = NULL;
			if (flame__order_init_stacks(&ord, names, v, n) ||
			    !(idx = flame__order_sort(&ord, v, n)))
				rc = flame__err_nomem(err);
			flame__order_free(&ord);
			if (!rc && n >= PAIR_MIN)
				rc = write_pair(&lw, v, idx, n, names);
			else if (!rc)
				rc = 1;
			if (rc == 1) {
				rc = 0;
				for (size_t k = 0; k < n && !rc; k++) {
					prefetch_ahead(v, idx, n, k, names);
					const flame__stack *s = &v[idx[k]];
					rc = emit_line(&lw, s->ids, s->depth, s->w[0], s->w[1]);
				}
			}
			free(idx);
		}
	}
	free(lw.ids);
	free(lw.end);
	return rc;
}
