/* speedscope writer: a tree as speedscope's JSON file format (its file-format-schema.json),
 * which speedscope (https://www.speedscope.app, the npm package's CLI) opens. One frame per
 * distinct name that a stack uses (in the order the stacks first use them), one sampled
 * profile whose samples are the unique stacks (root first, in text order) weighed by their
 * counts, in the tree's unit when speedscope has it (nanoseconds to seconds, bytes; else
 * "none") and with the tree's decimals. A differential tree is two profiles, "before" and
 * "after" (speedscope shows one at a time). Names are JSON strings (escape.h); bytes that
 * are not UTF-8 pass as they are (speedscope shows them as U+FFFD). parse/speedscope.c
 * reads the file back. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/numfmt.h"
#include "../core/order.h"
#include "../core/output.h"
#include "../core/tree.h"
#include "escape.h"

#define NONE UINT32_MAX

typedef struct ssw {
	flame_output *o;
	flame_err *err;
	const flame__intern *names;
	const flame__stack *v;
	uint32_t *idx;   /* stacks in text order */
	size_t n;
	uint32_t *frame; /* name id -> frame index, NONE when no stack uses it */
	unsigned scale;
} ssw;

static int put(ssw *w, const char *s)
{
	return flame__output_put(w->o, s, strlen(s), w->err);
}

/* A JSON string of p[0..n), quotes included. */
static int put_string(ssw *w, const char *p, size_t n)
{
	int rc;
	char *d = flame__output_reserve(w->o, FLAME__ESCAPE_MAX(n) + 2, &rc, w->err);
	if (!d)
		return rc;
	d[0] = '"';
	size_t m = 1 + flame__json_escape(d + 1, p, n);
	d[m++] = '"';
	flame__output_advance(w->o, m);
	return 0;
}

static int put_count(ssw *w, uint64_t v)
{
	char b[32];
	return flame__output_put(w->o, b, flame__fmt_count(b, v, w->scale), w->err);
}

/* speedscope's name of the tree's unit. */
static const char *unit_of(const flame_tree *t)
{
	static const char *const same[][2] = {
		{"nanoseconds", "nanoseconds"}, {"ns", "nanoseconds"},   {"microseconds", "microseconds"},
		{"us", "microseconds"},         {"milliseconds", "milliseconds"}, {"ms", "milliseconds"},
		{"seconds", "seconds"},         {"s", "seconds"},        {"bytes", "bytes"},
		{"B", "bytes"}};
	const char *cn = flame_tree_count_name(t);
	for (size_t i = 0; cn && i < sizeof same / sizeof *same; i++)
		if (!strcmp(cn, same[i][0]))
			return same[i][1];
	return "none";
}

/* Frame indices for the names the stacks use, then the frames. */
static int frames(ssw *w)
{
	uint32_t next = 0;
	if (!(w->frame = malloc((w->names->count ? w->names->count : 1) * sizeof *w->frame)))
		return flame__err_nomem(w->err);
	memset(w->frame, 0xff, w->names->count * sizeof *w->frame);
	int rc = put(w, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	                "\"shared\":{\"frames\":[");
	for (size_t k = 0; k < w->n && !rc; k++) {
		const flame__stack *s = &w->v[w->idx[k]];
		for (uint32_t d = 0; d < s->depth && !rc; d++) {
			if (w->frame[s->ids[d]] != NONE)
				continue;
			const flame__name *nm = flame__intern_get(w->names, s->ids[d]);
			rc = put(w, next ? ",{\"name\":" : "{\"name\":");
			rc = rc ? rc : put_string(w, nm->ptr, nm->len);
			rc = rc ? rc : put(w, "}");
			w->frame[s->ids[d]] = next++;
		}
	}
	return rc ? rc : put(w, "]},\"profiles\":[");
}

/* One sampled profile of column `col`. */
static int profile(ssw *w, int col, const char *name, const char *unit, uint64_t total)
{
	int rc = put(w, "{\"type\":\"sampled\",\"name\":");
	rc = rc ? rc : put_string(w, name, strlen(name));
	rc = rc ? rc : put(w, ",\"unit\":\"");
	rc = rc ? rc : put(w, unit);
	rc = rc ? rc : put(w, "\",\"startValue\":0,\"endValue\":");
	rc = rc ? rc : put_count(w, total);
	rc = rc ? rc : put(w, ",\"samples\":[");
	int first = 1;
	for (size_t k = 0; k < w->n && !rc; k++) {
		const flame__stack *s = &w->v[w->idx[k]];
		if (!s->w[col])
			continue;
		rc = put(w, first ? "[" : ",[");
		for (uint32_t d = 0; d < s->depth && !rc; d++) {
			char b[16];
			size_t m = 0;
			if (d)
				b[m++] = ',';
			m += flame__fmt_u64(b + m, w->frame[s->ids[d]]);
			rc = flame__output_put(w->o, b, m, w->err);
		}
		rc = rc ? rc : put(w, "]");
		first = 0;
	}
	rc = rc ? rc : put(w, "],\"weights\":[");
	first = 1;
	for (size_t k = 0; k < w->n && !rc; k++) {
		const flame__stack *s = &w->v[w->idx[k]];
		if (!s->w[col])
			continue;
		rc = first ? 0 : put(w, ",");
		rc = rc ? rc : put_count(w, s->w[col]);
		first = 0;
	}
	return rc ? rc : put(w, "]}");
}

int flame_write_speedscope(flame_tree *t, flame_output *out, flame_err *err)
{
	flame__stacks *st = NULL;
	int rc = flame__tree_stacks(t, &st, err);
	if (rc)
		return rc;
	ssw w = {.o = out, .err = err, .names = flame__tree_names(t), .v = st->v, .n = st->count,
	         .scale = flame_tree_decimals(t)};
	flame__order ord = {0};
	if (flame__order_init_stacks(&ord, w.names, w.v, w.n) || !(w.idx = flame__order_sort(&ord, w.v, w.n)))
		rc = flame__err_nomem(err);
	flame__order_free(&ord);
	const char *unit = unit_of(t);
	int diff = flame_tree_is_differential(t);
	rc = rc ? rc : frames(&w);
	if (!rc && diff) {
		rc = profile(&w, 0, "before", unit, flame_tree_total(t, 0));
		rc = rc ? rc : put(&w, ",");
		rc = rc ? rc : profile(&w, 1, "after", unit, flame_tree_total(t, 1));
	} else if (!rc) {
		rc = profile(&w, 0, "profile", unit, flame_tree_total(t, 0));
	}
	rc = rc ? rc : put(&w, "],\"activeProfileIndex\":");
	rc = rc ? rc : put(&w, diff ? "1" : "0");
	rc = rc ? rc : put(&w, ",\"exporter\":\"libflame " FLAME_VERSION "\"}\n");
	free(w.idx);
	free(w.frame);
	return rc;
}
