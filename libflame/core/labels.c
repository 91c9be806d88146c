/* The label-set table (see labels.h): sets sorted, encoded as bytes and interned, so a set
 * is found, compared and imported by its bytes. */
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "intern.h"
#include "labels.h"

flame__labels *flame__labels_new(void)
{
	flame__labels *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	flame__intern_init(&l->sets);
	if (flame__intern_put(&l->sets, "", 0) != 0) {
		flame__labels_free(l);
		return NULL;
	}
	return l;
}

void flame__labels_free(flame__labels *l)
{
	if (!l)
		return;
	flame__intern_free(&l->sets);
	free(l->tmp);
	free(l->enc);
	free(l);
}

static int cmp_str(flame_str a, flame_str b)
{
	return flame__bytes_cmp(a.ptr, a.len, b.ptr, b.len);
}

/* The set's order: key, then strings before numbers, then value (and unit). */
static int cmp_label(const void *pa, const void *pb)
{
	const flame_label *a = pa, *b = pb;
	int c = cmp_str(a->key, b->key);
	if (c || (c = (a->is_num != 0) - (b->is_num != 0)))
		return c;
	if (!a->is_num)
		return cmp_str(a->str, b->str);
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return cmp_str(a->unit, b->unit);
}

static size_t put_varint(char *d, uint64_t v)
{
	size_t i = 0;
	while (v >= 0x80) {
		d[i++] = (char)(v | 0x80);
		v >>= 7;
	}
	d[i++] = (char)v;
	return i;
}

static size_t put_bytes(char *d, flame_str s)
{
	size_t i = put_varint(d, s.len);
	flame__copy(d + i, s.ptr, s.len);
	return i + s.len;
}

uint32_t flame__labels_put(flame__labels *l, const flame_label *v, size_t n)
{
	size_t need = 0;
	for (size_t i = 0; i < n; i++)
		need += 1 + 10 + v[i].key.len + 10 + (v[i].is_num ? 8 + v[i].unit.len : v[i].str.len);
	if (flame__array_reserve(l->tmp, l->tmp_cap, n) ||
	    flame__array_reserve_min(l->enc, l->enc_cap, need + 1, 256))
		return FLAME__ID_NONE;
	flame__copy(l->tmp, v, n * sizeof *v);
	flame__sort(l->tmp, n, sizeof *v, cmp_label);
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		const flame_label *lb = &l->tmp[i];
		l->enc[len++] = (char)(lb->is_num != 0);
		len += put_bytes(l->enc + len, lb->key);
		if (!lb->is_num) {
			len += put_bytes(l->enc + len, lb->str);
			continue;
		}
		uint64_t x = (uint64_t)lb->num;
		for (int b = 0; b < 8; b++)
			l->enc[len++] = (char)(x >> (8 * b));
		len += put_bytes(l->enc + len, lb->unit);
	}
	return flame__intern_put(&l->sets, l->enc, len);
}

uint32_t flame__labels_import(flame__labels *dst, const flame__labels *src, uint32_t id)
{
	const flame__name *nm = flame__intern_get(&src->sets, id);
	return flame__intern_put(&dst->sets, nm->ptr, nm->len);
}

/* A varint at *p (below e): 0, or -1 past e (the table's own bytes: never). */
static int get_varint(const unsigned char **p, const unsigned char *e, uint64_t *v)
{
	*v = 0;
	for (int s = 0; *p < e && s < 64; s += 7) {
		unsigned char c = *(*p)++;
		*v |= (uint64_t)(c & 0x7f) << s;
		if (!(c & 0x80))
			return 0;
	}
	return -1;
}

static int get_bytes(const unsigned char **p, const unsigned char *e, flame_str *s)
{
	uint64_t n;
	if (get_varint(p, e, &n) || n > (uint64_t)(e - *p))
		return -1;
	*s = (flame_str){(const char *)*p, (size_t)n};
	*p += n;
	return 0;
}

size_t flame__labels_get(const flame__labels *l, uint32_t id, flame_label *out, size_t cap)
{
	if (!l || id >= l->sets.count)
		return 0;
	const flame__name *nm = flame__intern_get(&l->sets, id);
	const unsigned char *p = (const unsigned char *)nm->ptr, *e = p + nm->len;
	size_t n = 0;
	while (p < e) {
		flame_label lb;
		memset(&lb, 0, sizeof lb);
		lb.key = lb.str = lb.unit = (flame_str){"", 0};
		lb.is_num = *p++ != 0;
		if (get_bytes(&p, e, &lb.key))
			break;
		if (!lb.is_num) {
			if (get_bytes(&p, e, &lb.str))
				break;
		} else {
			uint64_t x = 0;
			if (e - p < 8)
				break;
			for (int b = 0; b < 8; b++)
				x |= (uint64_t)p[b] << (8 * b);
			p += 8;
			lb.num = (int64_t)x;
			if (get_bytes(&p, e, &lb.unit))
				break;
		}
		if (n < cap)
			out[n] = lb;
		n++;
	}
	return n;
}

uint32_t flame__labels_of_name(flame__labels *l, flame__label_memo *m, const char *key,
                               const flame__intern *names, uint32_t id)
{
	uint32_t set;
	int r = flame__label_memo_get(m, id, &set);
	if (r)
		return r < 0 ? FLAME__ID_NONE : set;
	const flame__name *nm = flame__intern_get(names, id);
	flame_label lb = {{key, strlen(key)}, {nm->ptr, nm->len}, 0, {"", 0}, 0};
	if ((set = flame__labels_put(l, &lb, 1)) != FLAME__ID_NONE)
		flame__label_memo_put(m, id, set);
	return set;
}
