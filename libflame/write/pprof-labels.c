/* The labels of a tree that keeps them, as the pprof writer writes them back (write/, for
 * pprof.c): each set's strings (keys, string values, units) numbered in the string table
 * after the header's, and each set's Label messages encoded once, so a sample appends its
 * set's bytes. */
#include <stdlib.h>
#include "../core/labels.h"
#include "pprof.h"

struct flame__ppl {
	flame__intern strs;   /* the labels' strings; id 0 is "" (index 0 of the table) */
	uint32_t first;       /* the string index of strs' id 1 */
	size_t *at;           /* set -> its messages in msgs: [at[set], at[set + 1]) */
	flame__pb msgs;
};

/* The string index of `s` (0: ""), interning it; UINT32_MAX on out of memory. */
static uint32_t str_index(flame__ppl *w, flame_str s)
{
	if (!s.len)
		return 0;
	uint32_t id = flame__intern_put(&w->strs, s.ptr, s.len);
	return id == FLAME__ID_NONE ? UINT32_MAX : w->first + id - 1;
}

/* One Label message of `lb` into w->msgs (field 3 of a Sample). */
static int put_label(flame__ppl *w, const flame_label *lb)
{
	uint32_t key = str_index(w, lb->key), str = 0, unit = 0;
	if (!lb->is_num)
		str = str_index(w, lb->str);
	else
		unit = str_index(w, lb->unit);
	if (key == UINT32_MAX || str == UINT32_MAX || unit == UINT32_MAX)
		return FLAME_ENOMEM;
	uint8_t m[64];
	flame__pb b = {m, 0, sizeof m};
	flame__pb_uint(&b, 1, key);
	if (!lb->is_num && str)
		flame__pb_uint(&b, 2, str);
	if (lb->is_num) {
		flame__pb_uint(&b, 3, (uint64_t)lb->num);
		if (unit)
			flame__pb_uint(&b, 4, unit);
	}
	if (flame__pb_reserve(&w->msgs, b.len + 12))
		return FLAME_ENOMEM;
	flame__pb_msg(&w->msgs, 3, &b);
	return 0;
}

int flame__ppl_plan(flame__ppl **out, const struct flame__labels *l, uint32_t first)
{
	flame__ppl *w = calloc(1, sizeof *w);
	*out = w;
	if (!w)
		return FLAME_ENOMEM;
	flame__intern_init(&w->strs);
	w->first = first;
	uint32_t n = flame__labels_count(l);
	flame_label *v = NULL;
	size_t cap = 0;
	if (flame__intern_put(&w->strs, "", 0) != 0 || !(w->at = malloc((n + 1) * sizeof *w->at)))
		return FLAME_ENOMEM;
	int rc = 0;
	for (uint32_t set = 0; set < n && !rc; set++) {
		w->at[set] = w->msgs.len;
		size_t k = flame__labels_get(l, set, v, cap);
		if (k > cap && flame__array_reserve(v, cap, k)) {
			rc = FLAME_ENOMEM;
			break;
		}
		if (k > 0)
			flame__labels_get(l, set, v, cap);
		for (size_t i = 0; i < k && !rc; i++)
			rc = put_label(w, &v[i]);
	}
	free(v);
	w->at[n] = w->msgs.len;
	return rc;
}

uint32_t flame__ppl_strings(const flame__ppl *w) { return w ? w->strs.count - 1 : 0; }

int flame__ppl_write_strings(const flame__ppl *w, flame__gzip *z, flame_err *err)
{
	int rc = 0;
	for (uint32_t id = 1; w && id < w->strs.count && !rc; id++) {
		const flame__name *nm = flame__intern_get(&w->strs, id);
		rc = flame__pb_emit(z, 6, nm->ptr, nm->len, err);
	}
	return rc;
}

int flame__ppl_sample(const flame__ppl *w, uint32_t set, flame__pb *b)
{
	size_t n = w->at[set + 1] - w->at[set];
	if (!n) /* (no label at all: no messages buffer either) */
		return 0;
	if (flame__pb_reserve(b, n))
		return FLAME_ENOMEM;
	flame__copy(b->p + b->len, w->msgs.p + w->at[set], n);
	b->len += n;
	return 0;
}

void flame__ppl_free(flame__ppl *w)
{
	if (!w)
		return;
	flame__intern_free(&w->strs);
	free(w->at);
	free(w->msgs.p);
	free(w);
}
