/* The orders of stacks on id sequences (see order.h): text order and frame order. The
 * token ranking, the name ranking and both stack sorts are one engine: sequences of symbols packed into 64-bit keys, a
 * slice sorted by its keys (radix when large), then each run of equal keys sorted by its
 * next key, until runs are single or their sequences end. Keys are filled once per
 * element and level, so the sort touches each stack's ids about once per 64 bits of
 * rank instead of once per comparison. A table already sorted in text order comes into
 * frame order without a sort (the groups where the two differ are reordered). */
#include <stdlib.h>
#include <string.h>
#include "../flame.h"
#include "array.h"
#include "order.h"
#include "prefetch.h"

#ifndef ORDER_MARK_NAMES
#define ORDER_MARK_NAMES 65536 /* names from which only used tokens are ranked */
#endif

/* ---- the keyed sort engine */

typedef struct kel {
	uint64_t key;
	uint32_t idx, pad;
} kel;

/* Key `level` of element `idx` (symbols packed high to low, 0 past the end); *more is
 * set when the sequence goes on past it. Equal keys must agree on *more. */
typedef uint64_t (*key_fn)(const void *ctx, uint32_t idx, uint32_t level, int *more);
/* Start loading what key `level` of `idx` will read (elements come in random order):
 * stage 0 some elements ahead, stage 1 (which may read what stage 0 loaded) closer. */
typedef void (*touch_fn)(const void *ctx, uint32_t idx, uint32_t level, int stage);

typedef struct job {
	size_t lo, hi;
	uint32_t level;
} job;

static void insertion(kel *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		kel x = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1].key > x.key) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}

static void quick(kel *a, size_t n)
{
	while (n > 24) {
		/* median of three as pivot; Hoare partition */
		kel *m = &a[n / 2], *z = &a[n - 1];
		uint64_t x = a[0].key, y = m->key, w = z->key;
		uint64_t p = x < y ? (y < w ? y : (x < w ? w : x)) : (x < w ? x : (y < w ? w : y));
		size_t i = 0, j = n - 1;
		for (;;) {
			while (a[i].key < p)
				i++;
			while (a[j].key > p)
				j--;
			if (i >= j)
				break;
			kel t = a[i];
			a[i] = a[j];
			a[j] = t;
			i++;
			j--;
		}
		/* [0, j] <= p <= [j+1, n): recurse into the smaller side */
		size_t left = j + 1;
		if (left < n - left) {
			quick(a, left);
			a += left;
			n -= left;
		} else {
			quick(a + left, n - left);
			n = left;
		}
	}
	insertion(a, n);
}

/* LSD radix on 11-bit digits (six passes at most), skipping digits all keys share;
 * `tmp` holds n elements. */
static void radix(kel *a, kel *tmp, size_t n)
{
	enum { BITS = 11, DIGITS = (64 + BITS - 1) / BITS, SIZE = 1 << BITS };
	size_t (*cnt)[SIZE] = calloc(DIGITS, sizeof *cnt);
	if (!cnt) {
		quick(a, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t k = a[i].key;
		for (unsigned d = 0; d < DIGITS; d++)
			cnt[d][(k >> (BITS * d)) & (SIZE - 1)]++;
	}
	kel *src = a, *dst = tmp;
	for (unsigned d = 0; d < DIGITS; d++) {
		size_t *c = cnt[d];
		unsigned sh = BITS * d;
		if (c[(a[0].key >> sh) & (SIZE - 1)] == n)
			continue;
		size_t sum = 0;
		for (unsigned v = 0; v < SIZE; v++) {
			size_t t = c[v];
			c[v] = sum;
			sum += t;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i].key >> sh) & (SIZE - 1)]++] = src[i];
		kel *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
	free(cnt);
}

/* Sort a[0..n) (idx filled) by the whole symbol sequences. 0 or FLAME_ENOMEM. */
static int keyed_sort(kel *a, size_t n, key_fn fn, touch_fn touch, const void *ctx)
{
	if (n < 2)
		return 0;
	kel *tmp = n > 4096 ? malloc(n * sizeof *tmp) : NULL;
	job *jobs = NULL;
	size_t njobs = 0, capjobs = 0;
	if ((n > 4096 && !tmp) || flame__array_reserve_min(jobs, capjobs, 1, 64)) {
		free(tmp);
		free(jobs);
		return FLAME_ENOMEM;
	}
	jobs[njobs++] = (job){0, n, 0};
	while (njobs) {
		job jb = jobs[--njobs];
		kel *s = a + jb.lo;
		size_t m = jb.hi - jb.lo;
		int more;
		for (size_t i = 0; i < m; i++) {
			if (touch && i + 16 < m)
				touch(ctx, s[i + 16].idx, jb.level, 0);
			if (touch && i + 8 < m)
				touch(ctx, s[i + 8].idx, jb.level, 1);
			s[i].key = fn(ctx, s[i].idx, jb.level, &more);
		}
		if (m > 4096)
			radix(s, tmp, m);
		else
			quick(s, m);
		for (size_t i = 0; i < m;) {
			size_t j = i + 1;
			while (j < m && s[j].key == s[i].key)
				j++;
			if (j - i > 1) {
				fn(ctx, s[i].idx, jb.level, &more);
				if (more) {
					if (flame__array_reserve(jobs, capjobs, njobs + 1)) {
						free(tmp);
						free(jobs);
						return FLAME_ENOMEM;
					}
					jobs[njobs++] = (job){jb.lo + i, jb.lo + j, jb.level + 1};
				}
			}
			i = j;
		}
	}
	free(tmp);
	free(jobs);
	return 0;
}

/* ---- token ranks */

/* Token 2*id is "name;", 2*id+1 is "name" at the end of a line. Symbols: byte + 1, the
 * ';' of "name;" as ';' + 1, then 0 (which sorts a prefix first), seven per key. */
static uint64_t token_key(const void *ctx, uint32_t tok, uint32_t level, int *more)
{
	const flame__name *nm = flame__intern_get(ctx, tok >> 1);
	size_t semi = !(tok & 1), len = nm->len, pos = (size_t)level * 7;
	const unsigned char *p = (const unsigned char *)nm->ptr;
	uint64_t key = 0;
	for (unsigned j = 0; j < 7; j++, pos++) {
		unsigned sym = pos < len ? p[pos] + 1u : (semi && pos == len ? ';' + 1u : 0);
		key = key << 9 | sym;
	}
	*more = pos <= len + semi; /* the terminating 0 is still to come */
	return key;
}

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

void flame__order_free(flame__order *o)
{
	free(o->rank);
	free(o->toks);
	o->rank = o->toks = NULL;
	o->count = 0;
	o->ntoks = 0;
}

/* Tokens that some stack of v[0..n) uses (all when v is NULL); NULL on out of memory. */
static uint8_t *used_tokens(uint32_t count, const flame__stack *v, size_t n)
{
	size_t nt = 2 * (size_t)count;
	uint8_t *used = v ? calloc(nt ? nt : 1, 1) : malloc(nt ? nt : 1);
	if (!used || !v) {
		if (used)
			memset(used, 1, nt);
		return used;
	}
	for (size_t k = 0; k < n; k++) {
		const uint32_t *ids = v[k].ids;
		uint32_t d = v[k].depth;
		if (!d)
			continue;
		for (uint32_t j = 0; j + 1 < d; j++)
			used[2 * (size_t)ids[j]] = 1;
		used[2 * (size_t)ids[d - 1] + 1] = 1;
	}
	return used;
}

static int order_init(flame__order *o, const flame__intern *names, const flame__stack *v,
                      size_t n, int keep)
{
	flame__order_free(o);
	o->names = names;
	uint32_t count = names->count;
	if (count >= UINT32_MAX / 2)
		return 0; /* token ranks would not fit: compare bytes */
	for (uint32_t i = 0; i < count; i++) {
		const flame__name *nm = flame__intern_get(names, i);
		if (memchr(nm->ptr, ';', nm->len))
			return 0; /* ranks cannot express it: compare bytes */
	}
	size_t nt = 2 * (size_t)count, m = 0;
	uint8_t *used = used_tokens(count, v, n);
	kel *a = used ? malloc((nt ? nt : 1) * sizeof *a) : NULL;
	o->rank = a ? malloc((nt ? nt : 1) * sizeof *o->rank) : NULL;
	if (!o->rank) {
		free(used);
		free(a);
		return FLAME_ENOMEM;
	}
	for (size_t i = 0; i < nt; i++) {
		o->rank[i] = UINT32_MAX; /* a token no stack uses: never compared */
		if (used[i])
			a[m++].idx = (uint32_t)i;
	}
	free(used);
	if (keyed_sort(a, m, token_key, NULL, names)) {
		free(a);
		flame__order_free(o);
		return FLAME_ENOMEM;
	}
	for (size_t i = 0; i < m; i++)
		o->rank[a[i].idx] = (uint32_t)i;
	/* the ranked tokens in order, for the updates (without them an update starts over) */
	if (keep && (o->toks = malloc((m ? m : 1) * sizeof *o->toks))) {
		for (size_t i = 0; i < m; i++)
			o->toks[i] = a[i].idx;
		o->ntoks = m;
	}
	free(a);
	o->count = count;
	return 0;
}

/* Token order as token_key sorts (two distinct tokens never compare equal). */
static int cmp_tokens(const flame__intern *names, uint32_t x, uint32_t y)
{
	return cmp_bytes(flame__intern_get(names, x >> 1), flame__intern_get(names, y >> 1),
	                 x & 1 ? -1 : ';', y & 1 ? -1 : ';');
}

/* The tokens to rank: every token of the names added since the last update (v NULL), or
 * those of v[0..n) not ranked yet, each once; malloc'd into *out. */
static int new_tokens(flame__order *o, uint32_t old, uint32_t count, const flame__stack *v,
                      size_t n, kel **out, size_t *k)
{
	*k = 0;
	if (!v) {
		size_t m = 2 * (size_t)(count - old);
		if (!(*out = malloc((m ? m : 1) * sizeof **out)))
			return FLAME_ENOMEM;
		for (size_t i = 0; i < m; i++)
			(*out)[(*k)++].idx = 2 * old + (uint32_t)i;
		return 0;
	}
	size_t cap = 0;
	kel *a = NULL;
	for (size_t j = 0; j < n; j++) {
		const uint32_t *ids = v[j].ids;
		for (uint32_t f = 0, d = v[j].depth; f < d; f++) {
			uint32_t t = 2 * ids[f] + (f + 1 == d);
			if (o->rank[t] != UINT32_MAX)
				continue;
			if (flame__array_reserve_min(a, cap, *k + 1, 1024)) {
				for (size_t i = 0; i < *k; i++) /* unmark */
					o->rank[a[i].idx] = UINT32_MAX;
				free(a);
				return FLAME_ENOMEM;
			}
			o->rank[t] = UINT32_MAX - 1; /* taken (every rank is rewritten below) */
			a[(*k)++].idx = t;
		}
	}
	*out = a;
	return 0;
}

/* Rank the tokens new_tokens picks among the ranked ones: they are sorted, then each
 * placed after the ranked tokens below it, found by galloping from where the one before
 * went (a binary search over a span doubled until it holds the place), so a few new
 * tokens among many cost a few comparisons each, near one another. The ranked tokens
 * keep their order, so tables sorted before stay sorted. */
static int update(flame__order *o, const flame__intern *names, const flame__stack *v, size_t n)
{
	uint32_t old = o->count, count = names->count;
	int fresh = !o->toks || !old || o->names != names;
	if (v && (fresh || o->ntoks == 2 * (size_t)old)) {
		/* while every token is ranked, ranking the new names' whole is cheaper when they
		 * are few beside the stacks' ids (a perf recording's runs), which picking the used
		 * tokens would read all of; a pprof profile's leaves are the other way round */
		size_t ids = 0;
		for (size_t j = 0; j < n; j++)
			ids += v[j].depth;
		if (2 * (size_t)(count - (fresh ? 0 : old)) * 64 <= ids)
			v = NULL;
	}
	if (fresh || count >= UINT32_MAX / 2)
		return order_init(o, names, v, n, 1);
	for (uint32_t i = old; i < count; i++) {
		const flame__name *nm = flame__intern_get(names, i);
		if (memchr(nm->ptr, ';', nm->len)) {
			flame__order_free(o); /* compare bytes */
			return 0;
		}
	}
	if (count > old) { /* room for the new names' tokens, unranked */
		uint32_t *r = realloc(o->rank, 2 * (size_t)count * sizeof *r);
		if (!r)
			return FLAME_ENOMEM;
		for (size_t t = 2 * (size_t)old; t < 2 * (size_t)count; t++)
			r[t] = UINT32_MAX;
		o->rank = r;
		o->count = count;
	}
	kel *a = NULL;
	size_t k, n0 = o->ntoks;
	if (new_tokens(o, old, count, v, n, &a, &k))
		return FLAME_ENOMEM;
	uint32_t *merged = k ? malloc((n0 + k) * sizeof *merged) : NULL;
	if ((k && !merged) || keyed_sort(a, k, token_key, NULL, names)) {
		for (size_t i = 0; i < k; i++)
			o->rank[a[i].idx] = UINT32_MAX;
		free(a);
		free(merged);
		return FLAME_ENOMEM;
	}
	if (!k) {
		free(a);
		return 0;
	}
	size_t lo = 0, out = 0;
	for (size_t j = 0; j < k; j++) {
		uint32_t t = a[j].idx;
		size_t l = lo, h = n0, step = 1;
		while (l + step < n0 && cmp_tokens(names, o->toks[l + step - 1], t) < 0) {
			l += step;
			step *= 2;
		}
		if (l + step < n0)
			h = l + step - 1;
		while (l < h) {
			size_t mid = l + (h - l) / 2;
			if (cmp_tokens(names, o->toks[mid], t) < 0)
				l = mid + 1;
			else
				h = mid;
		}
		memcpy(merged + out, o->toks + lo, (l - lo) * sizeof *merged);
		out += l - lo;
		lo = l;
		merged[out++] = t;
	}
	memcpy(merged + out, o->toks + lo, (n0 - lo) * sizeof *merged);
	out += n0 - lo;
	for (size_t r = 0; r < out; r++)
		o->rank[merged[r]] = (uint32_t)r;
	free(a);
	free(o->toks);
	o->toks = merged;
	o->ntoks = out;
	return 0;
}

int flame__order_update(flame__order *o, const flame__intern *names)
{
	return update(o, names, NULL, 0);
}

int flame__order_update_stacks(flame__order *o, const flame__intern *names,
                               const flame__stack *v, size_t n)
{
	return update(o, names, v, n);
}

int flame__order_init(flame__order *o, const flame__intern *names)
{
	return order_init(o, names, NULL, 0, 1);
}

int flame__order_init_stacks(flame__order *o, const flame__intern *names, const flame__stack *v,
                             size_t n)
{
	/* marking costs a pass over every frame: worth it only for many names */
	return order_init(o, names, names->count >= (uint32_t)ORDER_MARK_NAMES ? v : NULL, n, 0);
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
	if (o->count && x < o->count && y < o->count)
		return o->rank[2 * (size_t)x + al] < o->rank[2 * (size_t)y + bl] ? -1 : 1;
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

/* ---- sorting stacks */

typedef struct stack_ctx {
	const flame__stack *v;
	const uint32_t *rank;
	unsigned bits, k; /* bits per token rank (+1), tokens per key */
} stack_ctx;

static uint64_t stack_key(const void *ctx, uint32_t idx, uint32_t level, int *more)
{
	const stack_ctx *c = ctx;
	const flame__stack *s = &c->v[idx];
	size_t pos = (size_t)level * c->k, depth = s->depth;
	uint64_t key = 0;
	for (unsigned j = 0; j < c->k; j++, pos++) {
		uint64_t t = 0;
		if (pos < depth)
			t = (uint64_t)c->rank[2 * (size_t)s->ids[pos] + (pos + 1 == depth)] + 1;
		key = key << c->bits | t;
	}
	*more = pos < depth;
	return key;
}

static void touch_stack(const void *ctx, uint32_t idx, uint32_t level, int stage)
{
	const stack_ctx *c = ctx;
	const flame__stack *s = &c->v[idx];
	if (stage == 0) {
		flame__prefetch(s);
		return;
	}
	size_t pos = (size_t)level * c->k;
	if (pos < s->depth)
		flame__prefetch(s->ids + pos);
}

struct cmp_ctx {
	const flame__order *o;
	const flame__stack *v;
};

static int cmp_idx(const void *a, const void *b, void *ud)
{
	const struct cmp_ctx *c = ud;
	const flame__stack *x = &c->v[*(const uint32_t *)a], *y = &c->v[*(const uint32_t *)b];
	return flame__order_cmp(c->o, x->ids, x->depth, y->ids, y->depth);
}

uint32_t *flame__order_sort(const flame__order *o, const flame__stack *v, size_t n)
{
	uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
	if (!idx)
		return NULL;
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	/* already in order (a sorted input): one cheap pass, usually cut short at once */
	size_t i = 1;
	while (i < n && flame__order_cmp(o, v[i - 1].ids, v[i - 1].depth, v[i].ids, v[i].depth) < 0)
		i++;
	if (i >= n)
		return idx;
	if (!o->count) {
		struct cmp_ctx c = {o, v};
		qsort_r(idx, n, sizeof *idx, cmp_idx, &c);
		return idx;
	}
	stack_ctx c = {v, o->rank, 1, 0};
	while (c.bits < 32 && ((uint64_t)1 << c.bits) <= 2 * (uint64_t)o->count)
		c.bits++;
	c.k = 64 / c.bits;
	kel *a = malloc(n * sizeof *a);
	if (!a) {
		free(idx);
		return NULL;
	}
	for (size_t j = 0; j < n; j++)
		a[j].idx = (uint32_t)j;
	if (keyed_sort(a, n, stack_key, touch_stack, &c)) {
		free(a);
		free(idx);
		return NULL;
	}
	for (size_t j = 0; j < n; j++)
		idx[j] = a[j].idx;
	free(a);
	return idx;
}

/* ---- frame order: name by name, a shorter stack before its extensions */

uint32_t *flame__order_name_ranks(const flame__intern *names)
{
	uint32_t n = names->count;
	if (n >= UINT32_MAX / 2)
		return NULL; /* a name's token would not fit 32 bits */
	uint32_t *rank = malloc((n ? n : 1) * sizeof *rank);
	kel *a = malloc((n ? n : 1) * sizeof *a);
	if (!rank || !a) {
		free(rank);
		free(a);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		a[i].idx = 2 * i + 1; /* the name as a token that ends its line: no ';' after it */
	if (keyed_sort(a, n, token_key, NULL, names)) {
		free(rank);
		free(a);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		rank[a[i].idx >> 1] = i;
	free(a);
	return rank;
}

/* A stack's symbols are its names' ranks + 1, then 0, which puts a shorter stack first.
 * A stack ending inside a key has its 0 there, so equal keys agree on *more. */
static uint64_t frame_key(const void *ctx, uint32_t idx, uint32_t level, int *more)
{
	const stack_ctx *c = ctx;
	const flame__stack *s = &c->v[idx];
	size_t pos = (size_t)level * c->k, depth = s->depth;
	uint64_t key = 0;
	for (unsigned j = 0; j < c->k; j++, pos++)
		key = key << c->bits | (pos < depth ? (uint64_t)c->rank[s->ids[pos]] + 1 : 0);
	*more = pos <= depth;
	return key;
}

/* Any table: the keyed sort on name ranks. */
static uint32_t *sort_frames(const flame__intern *names, const flame__stacks *s)
{
	size_t n = s->count;
	uint32_t *rank = flame__order_name_ranks(names);
	kel *a = rank ? malloc((n ? n : 1) * sizeof *a) : NULL;
	uint32_t *out = a ? malloc((n ? n : 1) * sizeof *out) : NULL;
	stack_ctx c = {s->v, rank, 1, 0};
	while (c.bits < 32 && ((uint64_t)1 << c.bits) <= (uint64_t)names->count + 1)
		c.bits++;
	c.k = 64 / c.bits;
	for (size_t k = 0; out && k < n; k++)
		a[k].idx = (uint32_t)k;
	if (out && keyed_sort(a, n, frame_key, touch_stack, &c)) {
		free(out);
		out = NULL;
	}
	for (size_t k = 0; out && k < n; k++)
		out[k] = a[k].idx;
	free(rank);
	free(a);
	return out;
}

/* A sorted table (bytewise text order) is in frame order except where a name is a
 * prefix of a sibling's name followed by a byte below ';': text order puts "b-x;..."
 * before "b;...", frame order puts b first. Such a spot shows as a pair of adjacent
 * stacks whose first differing frames are out of name order (an "inversion" at that
 * depth). In text order, the stacks below one parent path (a group) are contiguous, and
 * so are, inside a group, the stacks below each child (a block), except that a child's
 * own one-frame-longer stack may stand apart before its block. So fixing the order is
 * reordering whole blocks in the groups holding inversions, deepest groups first (a
 * deeper fix only permutes inside one block of the shallower group). */

typedef struct inversion {
	uint32_t at, depth; /* stacks at-1 and at first differ at frame `depth` */
} inversion;

typedef struct block {
	uint32_t start, len, name;
} block;

typedef flame__array(inversion) inversions;

/* Name order: bytewise, a prefix first (the order of flame__order_name_ranks). */
static int cmp_name_ids(const flame__intern *in, uint32_t a, uint32_t b)
{
	const flame__name *x = flame__intern_get(in, a), *y = flame__intern_get(in, b);
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->ptr, y->ptr, n);
	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

static int cmp_blocks(const flame__intern *names, const block *x, const block *y)
{
	int c = x->name == y->name ? 0 : cmp_name_ids(names, x->name, y->name);
	if (c)
		return c;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* lcp[k]: the leading ids stack k shares with stack k-1 (table order), and the inversions
 * where they first differ. 0 or FLAME_ENOMEM. */
static int find_inversions(const flame__intern *names, const flame__stacks *s, uint32_t *lcp,
                           inversions *inv)
{
	if (s->count)
		lcp[0] = 0;
	for (size_t k = 1; k < s->count; k++) {
		const flame__stack *x = &s->v[k - 1], *y = &s->v[k];
		uint32_t m = x->depth < y->depth ? x->depth : y->depth, d = 0;
		while (d < m && x->ids[d] == y->ids[d])
			d++;
		lcp[k] = d;
		if (d == m)
			continue;
		/* text order is name order there unless y's name is a proper prefix of x's */
		const flame__name *nx = flame__intern_get(names, x->ids[d]);
		const flame__name *ny = flame__intern_get(names, y->ids[d]);
		if (ny->len < nx->len && memcmp(nx->ptr, ny->ptr, ny->len) == 0 &&
		    flame__array_push(*inv, ((inversion){(uint32_t)k, d})))
			return FLAME_ENOMEM;
	}
	return 0;
}

/* The inversions deepest first, in table order within a depth (a counting sort by depth):
 * a new array, or NULL on out of memory. */
static inversion *deepest_first(const inversion *inv, size_t n)
{
	uint32_t maxd = 0;
	for (size_t i = 0; i < n; i++)
		if (inv[i].depth > maxd)
			maxd = inv[i].depth;
	size_t *start = calloc((size_t)maxd + 2, sizeof *start);
	inversion *sorted = malloc((n ? n : 1) * sizeof *sorted);
	if (!start || !sorted) {
		free(start);
		free(sorted);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		start[maxd - inv[i].depth + 1]++;
	for (uint32_t d = 1; d <= maxd + 1; d++)
		start[d] += start[d - 1];
	for (size_t i = 0; i < n; i++)
		sorted[start[maxd - inv[i].depth]++] = inv[i];
	free(start);
	return sorted;
}

/* The order being fixed: stack indices and, beside them, the common-prefix lengths in
 * that order; `tmp` (2 * n) and `blocks` are scratch. */
typedef struct fixing {
	const flame__intern *names;
	const flame__stacks *s;
	const uint32_t *lcp; /* in table order */
	uint32_t *order, *olcp, *tmp;
	flame__array(block) blocks;
} fixing;

/* Reorder the blocks of the group [lo, hi) whose stacks share their first d frames: the
 * parent's own stack stays first. Deeper fixes permuted only inside blocks, so block
 * boundaries (and names) are those of the table order. 0 or FLAME_ENOMEM. */
static int fix_group(fixing *F, size_t lo, size_t hi, uint32_t d)
{
	const flame__stacks *s = F->s;
	size_t p0 = lo;
	if (s->v[p0].depth == d)
		p0++;
	F->blocks.n = 0;
	for (size_t p = p0; p < hi;) {
		size_t q = p + 1;
		while (q < hi && F->lcp[q] > d)
			q++;
		if (flame__array_push(F->blocks, ((block){(uint32_t)p, (uint32_t)(q - p), s->v[p].ids[d]})))
			return FLAME_ENOMEM;
		p = q;
	}
	/* stable by name (a child's own stack stays just before its block). Insertion: the
	 * blocks are in text order, where only a name that prefixes the names just before it
	 * is out of place, and moves back past those few */
	block *bl = F->blocks.v;
	size_t nb = F->blocks.n;
	for (size_t b = 1; b < nb; b++) {
		block x = bl[b];
		size_t j = b;
		while (j > 0 && cmp_blocks(F->names, &bl[j - 1], &x) > 0) {
			bl[j] = bl[j - 1];
			j--;
		}
		bl[j] = x;
	}
	size_t o = 0, m = hi - p0;
	for (size_t b = 0; b < nb; b++) {
		memcpy(F->tmp + o, F->order + bl[b].start, bl[b].len * sizeof *F->tmp);
		memcpy(F->tmp + m + o, F->olcp + bl[b].start, bl[b].len * sizeof *F->tmp);
		/* where blocks now meet they differ at frame d, or share it (the child's own
		 * stack, then its block); the group's first keeps its value */
		F->tmp[m + o] = b ? (bl[b].name == bl[b - 1].name ? d + 1 : d) : F->olcp[p0];
		o += bl[b].len;
	}
	memcpy(F->order + p0, F->tmp, m * sizeof *F->tmp);
	memcpy(F->olcp + p0, F->tmp + m, m * sizeof *F->tmp);
	return 0;
}

/* Fix the groups holding the inversions `inv` (deepest first) in F. 0 or FLAME_ENOMEM. */
static int fix_groups(fixing *F, const inversion *inv, size_t ninv)
{
	size_t n = F->s->count, done_hi = 0;
	uint32_t done_depth = UINT32_MAX;
	for (size_t i = 0; i < ninv; i++) {
		uint32_t d = inv[i].depth;
		if (d == done_depth && inv[i].at < done_hi)
			continue; /* its group is already fixed */
		/* the group: stacks around `at` sharing its first d frames */
		size_t lo = inv[i].at - 1, hi = inv[i].at + 1;
		while (lo > 0 && F->lcp[lo] >= d)
			lo--;
		while (hi < n && F->lcp[hi] >= d)
			hi++;
		done_depth = d;
		done_hi = hi;
		if (fix_group(F, lo, hi, d))
			return FLAME_ENOMEM;
	}
	return 0;
}

/* A sorted table: linear, plus reordering the few groups where the orders differ. */
static int sorted_frames(const flame__intern *names, const flame__stacks *s,
                         flame__frame_order *fo)
{
	size_t n = s->count;
	inversions inv = {0};
	inversion *deep = NULL;
	fixing F = {names, s, NULL, NULL, NULL, NULL, {0}};
	uint32_t *lcp = malloc((n ? n : 1) * sizeof *lcp);
	int rc = lcp ? find_inversions(names, s, lcp, &inv) : FLAME_ENOMEM;
	if (!rc && !inv.n) { /* already in frame order */
		fo->lcp = fo->own = lcp;
		lcp = NULL;
		goto done;
	}
	F.lcp = lcp;
	F.olcp = malloc(n * sizeof *F.olcp);
	F.order = malloc(n * sizeof *F.order);
	F.tmp = malloc(2 * n * sizeof *F.tmp);
	if (rc || !F.olcp || !F.order || !F.tmp || !(deep = deepest_first(inv.v, inv.n))) {
		rc = FLAME_ENOMEM;
		goto done;
	}
	memcpy(F.olcp, lcp, n * sizeof *F.olcp); /* lcp itself stays in table order */
	for (size_t k = 0; k < n; k++)
		F.order[k] = (uint32_t)k;
	if ((rc = fix_groups(&F, deep, inv.n)))
		goto done;
	fo->idx = F.order;
	fo->lcp = fo->own = F.olcp;
	F.order = F.olcp = NULL;
done:
	free(lcp);
	free(deep);
	flame__array_free(inv);
	free(F.olcp);
	free(F.order);
	free(F.tmp);
	flame__array_free(F.blocks);
	return rc;
}

int flame__order_frames(const flame__intern *names, const flame__stacks *s,
                        flame__frame_order *fo)
{
	memset(fo, 0, sizeof *fo);
	if (s->sorted)
		return sorted_frames(names, s, fo);
	fo->idx = sort_frames(names, s);
	return fo->idx ? 0 : FLAME_ENOMEM;
}

void flame__frame_order_free(flame__frame_order *fo)
{
	free(fo->idx);
	free(fo->own);
	memset(fo, 0, sizeof *fo);
}
