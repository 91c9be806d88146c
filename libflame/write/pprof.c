/* pprof writer: a tree as a gzipped profile.proto, so our stacks can go to pprof,
 * Pyroscope or Parca. One string per distinct frame name, one function and one
 * location per name (ids dense, from the first name string), one mapping (has_functions),
 * one sample per unique stack with location ids leaf-first. The sample type is the input's
 * when a pprof input said it (cpu/nanoseconds stays cpu/nanoseconds, with its period type
 * and period, and samples/count beside it when every value is a whole number of periods,
 * as in Go's CPU profiles); else it comes from the tree's count name: a unit
 * (nanoseconds, bytes, count...) gives `time`/`space`/`samples`, any other name N gives
 * N/count. Differential trees get two types, before and after (the default). */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/gzip.h"
#include "../core/tree.h"

typedef struct pb {
	uint8_t *p;
	size_t len, cap;
} pb;

static int pb_reserve(pb *b, size_t n)
{
	return flame__array_reserve_min(b->p, b->cap, b->len + n, 4096) ? FLAME_ENOMEM : 0;
}

static void put_varint(pb *b, uint64_t v)
{
	while (v >= 0x80) {
		b->p[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (uint8_t)v;
}

/* key + varint value; reserve 20 bytes first */
static void put_uint(pb *b, unsigned field, uint64_t v)
{
	put_varint(b, (uint64_t)field << 3);
	put_varint(b, v);
}

/* Emit `msg` as length-delimited field `field` of the top-level Profile. */
static int emit(flame__gzip *z, unsigned field, const void *msg, size_t n, flame_err *err)
{
	uint8_t hdr[20];
	pb h = {hdr, 0, sizeof hdr};
	put_varint(&h, (uint64_t)field << 3 | 2);
	put_varint(&h, n);
	int rc = flame__gzip_write(z, hdr, h.len, err);
	return rc ? rc : flame__gzip_write(z, msg, n, err);
}

static int emit_string(flame__gzip *z, const char *s, size_t n, flame_err *err)
{
	return emit(z, 6, s, n, err);
}

static const char *const time_units[] = {"nanoseconds", "microseconds", "milliseconds",
                                         "seconds"};

/* (type, unit) of the counts: the input's sample type when known, else from the count name. */
static void sample_type(const flame_tree *t, const char **type, const char **unit)
{
	const char *cn = flame_tree_count_name(t);
	*type = "samples";
	*unit = "count";
	if (cn && !strcmp(cn, "us"))
		cn = "microseconds"; /* offcputime's spelling */
	if (flame__tree_units(t)->type[0] && cn) {
		*type = flame__tree_units(t)->type;
		*unit = cn;
		return;
	}
	if (!cn || !*cn || strcmp(cn, "count") == 0 || strcmp(cn, "samples") == 0)
		return;
	if (strcmp(cn, "bytes") == 0) {
		*type = "space";
		*unit = "bytes";
		return;
	}
	for (size_t i = 0; i < sizeof time_units / sizeof *time_units; i++)
		if (strcmp(cn, time_units[i]) == 0) {
			*type = "time";
			*unit = time_units[i];
			return;
		}
	*type = cn;
}

/* The strings before the frame names, and what the header refers to by index. */
typedef struct head {
	const char *str[9]; /* str[0] = "" */
	uint32_t n;
	uint32_t type[2][2]; /* sample types (type, unit), in order */
	int ntypes;
	int samples;         /* type[0] is samples/count: values are value / period */
	uint32_t ptype[2];   /* period type; 0, 0: none */
} head;

static uint32_t head_str(head *h, const char *s)
{
	for (uint32_t i = 0; i < h->n; i++)
		if (!strcmp(h->str[i], s))
			return i;
	h->str[h->n] = s;
	return h->n++;
}

static void make_head(const flame_tree *t, int diff, int samples, head *h)
{
	const char *type, *unit;
	sample_type(t, &type, &unit);
	memset(h, 0, sizeof *h);
	h->str[h->n++] = "";
	if (diff) {
		h->type[0][0] = head_str(h, "before");
		h->type[1][0] = head_str(h, "after");
		h->type[0][1] = h->type[1][1] = head_str(h, unit);
		h->ntypes = 2;
		return;
	}
	if (samples) {
		h->type[h->ntypes][0] = head_str(h, "samples");
		h->type[h->ntypes++][1] = head_str(h, "count");
		h->samples = 1;
	}
	h->type[h->ntypes][0] = head_str(h, type);
	h->type[h->ntypes++][1] = head_str(h, unit);
	if (flame__tree_units(t)->period_type[0] && flame__tree_units(t)->period) {
		h->ptype[0] = head_str(h, flame__tree_units(t)->period_type);
		h->ptype[1] = head_str(h, flame__tree_units(t)->period_unit);
	}
}

int flame_write_pprof(flame_tree *t, flame_output *o, flame_err *err)
{
	if (flame_tree_decimals(t))
		return flame__err(err, FLAME_EDATA, "", 0, FLAME__NO_OFFSET,
		                  "pprof values are integers: the input has fractional counts "
		                  "(%u decimals)", flame_tree_decimals(t));
	flame__stacks *st;
	int rc = flame__tree_stacks(t, &st, err), diff = flame_tree_is_differential(t);
	if (rc)
		return rc;
	const flame__intern *names = flame__tree_names(t);
	size_t nn = names->count;
	uint32_t *str_of = calloc(nn ? nn : 1, sizeof *str_of); /* name id -> string index, 0 = unused */
	pb b = {0};
	flame__gzip *z = NULL;
	if (!str_of)
		return flame__err_nomem(err);
	/* samples/count is written beside the value when the input had it and every value is
	 * a whole number of periods (a transform such as a normalization can break that) */
	uint64_t period = flame__tree_units(t)->period;
	int samples = !diff && flame__tree_units(t)->with_samples && period;
	for (size_t k = 0; k < st->count; k++) {
		const flame__stack *s = &st->v[k];
		if (s->w[0] > INT64_MAX || s->w[1] > INT64_MAX) {
			rc = flame__err(err, FLAME_ERANGE, "", 0, FLAME__NO_OFFSET,
			                "a count exceeds pprof's int64 values");
			goto done;
		}
		if (samples && s->w[0] % period)
			samples = 0;
	}
	head h;
	make_head(t, diff, samples, &h);
	/* the header's strings, then the names */
	const uint32_t first = h.n;
	uint32_t next = first;
	for (size_t k = 0; k < st->count; k++) {
		const flame__stack *s = &st->v[k];
		for (uint32_t i = 0; i < s->depth; i++)
			if (!str_of[s->ids[i]])
				str_of[s->ids[i]] = next++;
	}
	if ((rc = flame__gzip_open(&z, o, err)))
		goto done;
	/* sample types */
	for (int c = 0; c < h.ntypes && !rc; c++) {
		b.len = 0;
		if (pb_reserve(&b, 64))
			goto nomem;
		put_uint(&b, 1, h.type[c][0]);
		put_uint(&b, 2, h.type[c][1]);
		rc = emit(z, 1, b.p, b.len, err);
	}
	/* one mapping that says its functions are known, so pprof does not try to
	 * symbolize the locations */
	b.len = 0;
	if (pb_reserve(&b, 64))
		goto nomem;
	put_uint(&b, 1, 1);
	put_uint(&b, 7, 1);
	if (!rc)
		rc = emit(z, 3, b.p, b.len, err);
	/* string table, in index order */
	for (uint32_t i = 0; i < h.n && !rc; i++)
		rc = emit_string(z, h.str[i], strlen(h.str[i]), err);
	if (rc)
		goto done;
	uint32_t *by_str = malloc((next ? next : 1) * sizeof *by_str);
	if (!by_str)
		goto nomem;
	for (uint32_t id = 0; id < nn; id++)
		if (str_of[id])
			by_str[str_of[id]] = id;
	for (uint32_t si = first; si < next && !rc; si++) {
		const flame__name *nm = flame__intern_get(names, by_str[si]);
		rc = emit_string(z, nm->ptr, nm->len, err);
	}
	free(by_str);
	/* functions and locations: id = string index - first + 1 */
	for (uint32_t si = first; si < next && !rc; si++) {
		uint64_t id = si - first + 1;
		b.len = 0;
		if (pb_reserve(&b, 64))
			goto nomem;
		put_uint(&b, 1, id);
		put_uint(&b, 2, si);
		put_uint(&b, 3, si);
		if ((rc = emit(z, 5, b.p, b.len, err)))
			break;
		b.len = 0;
		put_uint(&b, 1, id);
		put_uint(&b, 2, 1); /* mapping_id */
		/* line { function_id } */
		uint8_t ln[12];
		pb l = {ln, 0, sizeof ln};
		put_uint(&l, 1, id);
		put_varint(&b, 4 << 3 | 2);
		put_varint(&b, l.len);
		memcpy(b.p + b.len, ln, l.len);
		b.len += l.len;
		rc = emit(z, 4, b.p, b.len, err);
	}
	/* samples: packed location ids (leaf first), packed values */
	pb ids = {0};
	for (size_t k = 0; k < st->count && !rc; k++) {
		const flame__stack *s = &st->v[k];
		if (s->depth == 0 || (s->w[0] == 0 && s->w[1] == 0))
			continue;
		ids.len = 0;
		if (pb_reserve(&ids, (size_t)s->depth * 10)) {
			free(ids.p);
			goto nomem;
		}
		for (uint32_t i = s->depth; i-- > 0;)
			put_varint(&ids, str_of[s->ids[i]] - first + 1);
		b.len = 0;
		if (pb_reserve(&b, ids.len + 64)) {
			free(ids.p);
			goto nomem;
		}
		put_varint(&b, 1 << 3 | 2);
		put_varint(&b, ids.len);
		memcpy(b.p + b.len, ids.p, ids.len);
		b.len += ids.len;
		uint8_t vals[32];
		pb v = {vals, 0, sizeof vals};
		if (h.samples)
			put_varint(&v, s->w[0] / period);
		put_varint(&v, s->w[0]);
		if (diff)
			put_varint(&v, s->w[1]);
		put_varint(&b, 2 << 3 | 2);
		put_varint(&b, v.len);
		memcpy(b.p + b.len, vals, v.len);
		b.len += v.len;
		rc = emit(z, 2, b.p, b.len, err);
	}
	free(ids.p);
	if (!rc && (diff || h.ptype[0])) {
		b.len = 0;
		if (pb_reserve(&b, 64))
			goto nomem;
		if (h.ptype[0]) { /* period_type, period */
			uint8_t vt[24];
			pb m = {vt, 0, sizeof vt};
			put_uint(&m, 1, h.ptype[0]);
			put_uint(&m, 2, h.ptype[1]);
			put_varint(&b, 11 << 3 | 2);
			put_varint(&b, m.len);
			memcpy(b.p + b.len, vt, m.len);
			b.len += m.len;
			put_uint(&b, 12, period);
		}
		if (diff)
			put_uint(&b, 14, h.type[1][0]); /* default_sample_type = "after" */
		rc = flame__gzip_write(z, b.p, b.len, err);
	}
	if (!rc) {
		rc = flame__gzip_finish(z, err);
		z = NULL;
	}
	goto done;
nomem:
	rc = flame__err_nomem(err);
done:
	flame__gzip_free(z);
	free(b.p);
	free(str_of);
	return rc;
}
