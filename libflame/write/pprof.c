/* pprof writer: a tree as a gzipped profile.proto, so our stacks can go to pprof,
 * Pyroscope or Parca. One string per distinct frame name, one function and one
 * location per name (ids dense, from the first name string), one mapping (has_functions),
 * one sample per unique stack with location ids leaf-first. The sample type is the input's
 * when a pprof input said it (cpu/nanoseconds stays cpu/nanoseconds, with its period type
 * and period, and samples/count beside it when every value is a whole number of periods,
 * as in Go's CPU profiles); else it comes from the tree's count name: a unit
 * (nanoseconds, bytes, count...) gives `time`/`space`/`samples`, any other name N gives
 * N/count. Differential trees get two types, before and after (the default). The period
 * type and period are the input's, else the values' own type and 1: Parca's queries fail
 * on a profile without a period type, and read its values as 0 without a period. A tree
 * keeping every sample type's values (core/values.h) gets them all back, in the input's
 * order, its chosen one the default. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/gzip.h"
#include "../core/labels.h"
#include "../core/sites.h"
#include "../core/tree.h"
#include "../core/values.h"
#include "pprof.h"

static int emit_string(flame__gzip *z, const char *s, size_t n, flame_err *err)
{
	return flame__pb_emit(z, 6, s, n, err);
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
	uint32_t type[2][2]; /* sample types (type, unit), in order (vt's when kept) */
	int ntypes;
	const flame__values *vt; /* every type's values, NULL: type[] */
	uint32_t vstr;       /* vt's strings: its types then its units, from this index */
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
	h->vt = diff ? NULL : flame__tree_values(t);
	if (h->vt)
		samples = 0; /* samples/count is among vt's types when the input had it */
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
	} else { /* the values' own, with period 1 (see the top of this file) */
		h->ptype[0] = h->type[h->ntypes - 1][0];
		h->ptype[1] = h->type[h->ntypes - 1][1];
	}
	h->vstr = h->n; /* vt's strings follow the header's (type[] is then not written) */
}

/* The strings before the labels' and the names': the header's, then vt's types and units. */
static uint32_t head_strings(const head *h)
{
	return h->n + (h->vt ? 2 * (uint32_t)h->vt->ntypes : 0);
}

/* One writing: the stacks, the strings they need, and the message being built. */
typedef struct writer {
	flame__gzip *z;
	const flame__stacks *st;
	const flame__intern *names;
	int diff;
	uint64_t period;
	head h;
	uint32_t *str_of;     /* name id -> string index, 0 = unused */
	uint32_t first, next; /* the names' string indexes: [first, next) */
	flame__pb b, ids, vals;      /* a message, a sample's packed location ids, values */
	flame__pps *sites;    /* the tree keeps sites: its functions, locations, mappings */
	flame__ppl *labels;   /* the tree keeps labels: each set's strings and messages */
	int64_t time_nanos;   /* the profile's start, 0: none (kept with sites) */
	uint64_t duration;
} writer;

/* Values are int64 in pprof. Whether samples/count is written beside the value: when the
 * input had it and every value is a whole number of periods (a transform such as a
 * normalization can break that). */
static int check_counts(writer *w, const flame_tree *t, int *samples, flame_err *err)
{
	*samples = !w->diff && flame__tree_units(t)->with_samples && w->period;
	for (size_t k = 0; k < w->st->count; k++) {
		const flame__stack *s = &w->st->v[k];
		if (s->w[0] > INT64_MAX || s->w[1] > INT64_MAX)
			return flame__err(err, FLAME_ERANGE, "", 0, FLAME__NO_OFFSET,
			                  "a count exceeds pprof's int64 values");
		if (*samples && s->w[0] % w->period)
			*samples = 0;
	}
	return 0;
}

/* A string index for every name the stacks use, after the header's strings, in the
 * order the stacks first use them. */
static int number_names(writer *w)
{
	size_t nn = w->names->count;
	if (!(w->str_of = calloc(nn ? nn : 1, sizeof *w->str_of)))
		return FLAME_ENOMEM;
	w->first = w->next = head_strings(&w->h) + flame__ppl_strings(w->labels);
	for (size_t k = 0; k < w->st->count; k++) {
		const flame__stack *s = &w->st->v[k];
		for (uint32_t i = 0; i < s->depth; i++)
			if (!w->str_of[s->ids[i]])
				w->str_of[s->ids[i]] = w->next++;
	}
	return 0;
}

/* The sample types, the one mapping, and the header's strings. */
static int write_header(writer *w, flame_err *err)
{
	int rc = 0;
	const flame__values *vt = w->h.vt;
	size_t ntypes = vt ? vt->ntypes : (size_t)w->h.ntypes;
	for (size_t c = 0; c < ntypes && !rc; c++) {
		w->b.len = 0;
		if (flame__pb_reserve(&w->b, 64))
			return flame__err_nomem(err);
		flame__pb_uint(&w->b, 1, vt ? w->h.vstr + c : w->h.type[c][0]);
		flame__pb_uint(&w->b, 2, vt ? w->h.vstr + vt->ntypes + c : w->h.type[c][1]);
		rc = flame__pb_emit(w->z, 1, w->b.p, w->b.len, err);
	}
	/* one mapping that says its functions are known, so pprof does not try to
	 * symbolize the locations (a tree with sites has its own mappings) */
	w->b.len = 0;
	if (flame__pb_reserve(&w->b, 64))
		return flame__err_nomem(err);
	flame__pb_uint(&w->b, 1, 1);
	flame__pb_uint(&w->b, 7, 1);
	if (!rc && !w->sites)
		rc = flame__pb_emit(w->z, 3, w->b.p, w->b.len, err);
	for (uint32_t i = 0; i < w->h.n && !rc; i++) /* string table, in index order */
		rc = emit_string(w->z, w->h.str[i], strlen(w->h.str[i]), err);
	for (size_t i = 0; vt && i < 2 * vt->ntypes && !rc; i++) { /* vt's types, units */
		const char *x = i < vt->ntypes ? vt->type[i] : vt->unit[i - vt->ntypes];
		rc = emit_string(w->z, x, strlen(x), err);
	}
	return rc ? rc : flame__ppl_write_strings(w->labels, w->z, err); /* then the labels' */
}

/* The names' strings, in string index order. */
static int write_names(writer *w, flame_err *err)
{
	uint32_t *by_str = malloc((w->next ? w->next : 1) * sizeof *by_str);
	if (!by_str)
		return flame__err_nomem(err);
	for (uint32_t id = 0; id < w->names->count; id++)
		if (w->str_of[id])
			by_str[w->str_of[id]] = id;
	int rc = 0;
	for (uint32_t si = w->first; si < w->next && !rc; si++) {
		const flame__name *nm = flame__intern_get(w->names, by_str[si]);
		rc = emit_string(w->z, nm->ptr, nm->len, err);
	}
	free(by_str);
	return rc;
}

/* A function and a location per name: id = string index - first + 1. */
static int write_functions(writer *w, flame_err *err)
{
	int rc = 0;
	for (uint32_t si = w->first; si < w->next && !rc; si++) {
		uint64_t id = si - w->first + 1;
		w->b.len = 0;
		if (flame__pb_reserve(&w->b, 64))
			return flame__err_nomem(err);
		flame__pb_uint(&w->b, 1, id);
		flame__pb_uint(&w->b, 2, si);
		flame__pb_uint(&w->b, 3, si);
		if ((rc = flame__pb_emit(w->z, 5, w->b.p, w->b.len, err)))
			break;
		w->b.len = 0;
		flame__pb_uint(&w->b, 1, id);
		flame__pb_uint(&w->b, 2, 1); /* mapping_id */
		uint8_t ln[12];
		flame__pb l = {ln, 0, sizeof ln};
		flame__pb_uint(&l, 1, id); /* line { function_id } */
		flame__pb_msg(&w->b, 4, &l);
		rc = flame__pb_emit(w->z, 4, w->b.p, w->b.len, err);
	}
	return rc;
}

/* A sample per stack with a count: packed location ids (leaf first), packed values. */
static int write_sample(writer *w, const flame__stack *s, flame_err *err)
{
	w->ids.len = 0;
	if (w->sites) {
		if (flame__pps_sample(w->sites, s, &w->ids))
			return flame__err_nomem(err);
	} else {
		if (flame__pb_reserve(&w->ids, (size_t)s->depth * 10))
			return flame__err_nomem(err);
		for (uint32_t i = s->depth; i-- > 0;)
			flame__pb_varint(&w->ids, w->str_of[s->ids[i]] - w->first + 1);
	}
	const flame__values *vt = w->h.vt;
	size_t nv = vt ? vt->ntypes : 3;
	w->vals.len = 0;
	if (flame__pb_reserve(&w->vals, nv * 10))
		return flame__err_nomem(err);
	if (vt) { /* the chosen type's values are the table's column 0 */
		const int64_t *row = flame__values_row(vt, (uint32_t)(s - w->st->v));
		for (size_t c = 0; c < nv; c++)
			flame__pb_varint(&w->vals, c == vt->main ? s->w[0] : row ? (uint64_t)row[c] : 0);
	} else {
		if (w->h.samples)
			flame__pb_varint(&w->vals, s->w[0] / w->period);
		flame__pb_varint(&w->vals, s->w[0]);
		if (w->diff)
			flame__pb_varint(&w->vals, s->w[1]);
	}
	w->b.len = 0;
	if (flame__pb_reserve(&w->b, w->ids.len + w->vals.len + 32))
		return flame__err_nomem(err);
	flame__pb_msg(&w->b, 1, &w->ids);
	flame__pb_msg(&w->b, 2, &w->vals);
	if (w->labels && flame__ppl_sample(w->labels, flame__stack_label(w->st, s), &w->b))
		return flame__err_nomem(err);
	return flame__pb_emit(w->z, 2, w->b.p, w->b.len, err);
}

/* period_type and period; default_sample_type = "after" when differential. */
static int write_trailer(writer *w, flame_err *err)
{
	const flame__values *vt = w->h.vt;
	if (!w->diff && !w->h.ptype[0] && !w->sites && !vt)
		return 0;
	w->b.len = 0;
	if (flame__pb_reserve(&w->b, 64))
		return flame__err_nomem(err);
	if (w->h.ptype[0]) {
		uint8_t pt[24];
		flame__pb m = {pt, 0, sizeof pt};
		flame__pb_uint(&m, 1, w->h.ptype[0]);
		flame__pb_uint(&m, 2, w->h.ptype[1]);
		flame__pb_msg(&w->b, 11, &m);
		flame__pb_uint(&w->b, 12, w->period ? w->period : 1);
	}
	if (w->diff)
		flame__pb_uint(&w->b, 14, w->h.type[1][0]);
	if (vt && vt->main + 1 != vt->ntypes) /* pprof's default is the last type */
		flame__pb_uint(&w->b, 14, w->h.vstr + vt->main);
	if (w->time_nanos > 0)
		flame__pb_uint(&w->b, 9, (uint64_t)w->time_nanos);
	if (w->duration)
		flame__pb_uint(&w->b, 10, w->duration);
	return flame__gzip_write(w->z, w->b.p, w->b.len, err);
}

/* The whole profile, after the gzip stream is open. */
static int write_profile(writer *w, flame_err *err)
{
	int rc;
	if ((rc = write_header(w, err)))
		return rc;
	if (w->sites)
		rc = flame__pps_write(w->sites, w->z, err);
	else if (!(rc = write_names(w, err)))
		rc = write_functions(w, err);
	if (rc)
		return rc;
	for (size_t k = 0; k < w->st->count && !rc; k++) {
		const flame__stack *s = &w->st->v[k];
		if (s->depth && (s->w[0] || s->w[1] || (w->h.vt && flame__values_any(w->h.vt, (uint32_t)k))))
			rc = write_sample(w, s, err);
	}
	if (rc || (rc = write_trailer(w, err)))
		return rc;
	rc = flame__gzip_finish(w->z, err);
	w->z = NULL;
	return rc;
}

int flame_write_pprof(flame_tree *t, flame_output *o, flame_err *err)
{
	if (flame_tree_decimals(t))
		return flame__err(err, FLAME_EDATA, "", 0, FLAME__NO_OFFSET,
		                  "pprof values are integers: the input has fractional counts "
		                  "(%u decimals)", flame_tree_decimals(t));
	flame__stacks *st;
	int rc = flame__tree_stacks(t, &st, err), samples;
	if (rc)
		return rc;
	writer w = {.st = st, .names = flame__tree_names(t), .diff = flame_tree_is_differential(t),
	            .period = flame__tree_units(t)->period};
	if (!(rc = check_counts(&w, t, &samples, err))) {
		make_head(t, w.diff, samples, &w.h);
		const flame__sites *sites = flame__tree_sites(t);
		if (sites) { /* the profile's own functions, locations, mappings, start, duration */
			w.time_nanos = sites->time_nanos;
			w.duration = flame_tree_duration(t);
		}
		const struct flame__labels *labels = flame__tree_labels(t);
		if ((labels && flame__ppl_plan(&w.labels, labels, head_strings(&w.h))) ||
		    (sites ? flame__pps_plan(&w.sites, st, w.names, sites,
		                             head_strings(&w.h) + flame__ppl_strings(w.labels))
		           : number_names(&w)))
			rc = flame__err_nomem(err);
		else if (!(rc = flame__gzip_open(&w.z, o, err)))
			rc = write_profile(&w, err);
	}
	flame__gzip_free(w.z);
	free(w.b.p);
	free(w.ids.p);
	free(w.vals.p);
	free(w.str_of);
	flame__pps_free(w.sites);
	flame__ppl_free(w.labels);
	return rc;
}
