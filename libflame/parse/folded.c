/* Folded stacks reader (FlameGraph's collapsed format).
 *
 * Example input:                       Example stacks:
 *   main;work;hot 12                     [main, work, hot] x 12
 *   main;work 3.5                        [main, work]      x 3.5   (fractional)
 *   main;a;b 5 9                         [main, a, b]      before 5, after 9
 *
 * Grammar (as flamegraph.pl reads it): `stack WS count`, where count is the text after
 * the last run of whitespace, `\d+(\.\d*)?`; if the stack part itself ends in
 * `WS count`, the line is differential: `stack before after` (column 0 = before,
 * column 1 = after). Frames are split on ';' and may contain spaces.
 * Fractional counts are kept exactly: the tree's decimal scale rises to the most
 * decimals seen (at most 9; more is an error, never a silent rounding).
 * Consecutive lines usually share a prefix (sorted input), so frames up to the last
 * ';' of the common prefix reuse the previous line's ids instead of being hashed, and a
 * line whose stack sorts after the previous one is appended to the (sorted) stack table
 * without a lookup. */
#include <stdlib.h>
#include <string.h>
#include "../core/hash.h"
#include "parser.h"

typedef struct count {
	uint64_t mant;
	unsigned dec;
} count;

/* Parse `\d+(\.\d*)?` exactly; 0 ok, -1 not a count, -2 overflow / too many decimals. */
static int parse_count(const char *p, size_t n, count *c)
{
	size_t i = 0;
	uint64_t v = 0;
	unsigned dec = 0;
	int dot = 0;
	if (n == 0 || p[0] < '0' || p[0] > '9')
		return -1;
	for (; i < n; i++) {
		char ch = p[i];
		if (ch == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (ch < '0' || ch > '9')
			return -1;
		if (dot) {
			if (ch == '0') {
				/* trailing zeros need not raise the scale: count them lazily */
				size_t j = i;
				while (j < n && p[j] == '0')
					j++;
				if (j == n)
					break;
			}
			if (++dec > 9)
				return -2;
		}
		if (v >= UINT64_MAX / 10 && (v > UINT64_MAX / 10 || (uint64_t)(ch - '0') > UINT64_MAX % 10))
			return -2;
		v = v * 10 + (uint64_t)(ch - '0');
	}
	c->mant = v;
	c->dec = dec;
	return 0;
}

/* Split off a trailing `WS count` of p[0..*n) as a count. Scans back only over the
 * count's own characters, so a stack without a trailing number costs a byte or two. */
static int take_count(const char *p, size_t *n, count *c)
{
	size_t e = *n;
	size_t s = e;
	while (s > 0 && ((p[s - 1] >= '0' && p[s - 1] <= '9') || p[s - 1] == '.'))
		s--;
	if (s == e || s == 0 || (p[s - 1] != ' ' && p[s - 1] != '\t'))
		return -1;
	int rc = parse_count(p + s, e - s, c);
	if (rc)
		return rc;
	while (s > 0 && (p[s - 1] == ' ' || p[s - 1] == '\t'))
		s--;
	*n = s;
	return 0;
}

static int scaled(flame_tree *t, const count *c, uint64_t *out, const char *src, uint64_t line,
                  flame_err *err)
{
	if (c->dec > t->scale) {
		int rc = flame__tree_rescale(t, c->dec, err);
		if (rc)
			return flame__err(err, rc, src, line, FLAME__NO_OFFSET,
			                  "more than 9 decimal places in a count, or the rescaled counts overflow");
	}
	uint64_t m = flame__pow10[t->scale - c->dec];
	if (c->mant && c->mant > UINT64_MAX / m)
		return flame__err(err, FLAME_ERANGE, src, line, FLAME__NO_OFFSET,
		                  "count overflows 64 bits");
	*out = c->mant * m;
	return 0;
}

enum { FRAME_SEP = ';' };

/* Intern the ';'-separated frames of f[0..end) into ids[fi...], hashing each name in the
 * same pass that finds its end: 8 bytes at a time, a ';' found with the "has zero byte"
 * bit trick. Sets *nframes to the total frame count. */
typedef struct memo {
	uint64_t *hash; /* per depth: hash and id of the last name interned there */
	uint32_t *id;
	size_t cap;
} memo;

static int memo_grow(memo *m, size_t want)
{
	size_t cap = m->cap ? m->cap : 64;
	while (cap < want)
		cap *= 2;
	uint64_t *h = realloc(m->hash, cap * sizeof *h);
	if (h)
		m->hash = h;
	uint32_t *id = realloc(m->id, cap * sizeof *id);
	if (id)
		m->id = id;
	if (!h || !id)
		return -1;
	for (size_t i = m->cap; i < cap; i++)
		m->hash[i] = 0, m->id[i] = FLAME__ID_NONE;
	m->cap = cap;
	return 0;
}

static int intern_frames(flame_tree *t, memo *m, const char *f, const char *end, size_t fi,
                         uint32_t **ids, size_t *cap, size_t *nframes, flame_err *err)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	const uint64_t seps = ones * (uint64_t)FRAME_SEP;
	for (;;) {
		const char *s = f, *e;
		uint64_t h = FLAME__HASH_SEED;
		for (;;) {
			if (end - s >= 8) {
				uint64_t w;
				memcpy(&w, s, 8);
				uint64_t x = w ^ seps;
				uint64_t m = (x - ones) & ~x & highs;
				if (m) {
					unsigned b = (unsigned)__builtin_ctzll(m) >> 3;
					if (b)
						h = flame__hash_tail(h, w & ((1ULL << (8 * b)) - 1));
					e = s + b;
					break;
				}
				h = flame__hash_word(h, w);
				s += 8;
			} else {
				size_t r = (size_t)(end - s);
				const char *q = memchr(s, FRAME_SEP, r);
				size_t b = q ? (size_t)(q - s) : r;
				if (b) {
					uint64_t v = 0;
					memcpy(&v, s, b);
					h = flame__hash_tail(h, v);
				}
				e = s + b;
				break;
			}
		}
		size_t len = (size_t)(e - f);
		if (fi == *cap) {
			size_t nc = *cap ? *cap * 2 : 256;
			uint32_t *v = realloc(*ids, nc * sizeof *v);
			if (!v)
				return flame__err_nomem(err);
			*ids = v;
			*cap = nc;
		}
		h = flame__hash_final(h, len);
		uint32_t id = FLAME__ID_NONE;
		if (fi < m->cap && m->hash[fi] == h) {
			/* the name last interned at this depth, likely again (and cached) */
			const flame__name *nm = flame__intern_get(&t->names, m->id[fi]);
			if (nm->len == len && memcmp(nm->ptr, f, len) == 0)
				id = m->id[fi];
		}
		if (id == FLAME__ID_NONE) {
			id = flame__intern_put_hashed(&t->names, f, len, h);
			if (id == FLAME__ID_NONE)
				return flame__err_nomem(err);
			if (fi >= m->cap && memo_grow(m, fi + 1))
				return flame__err_nomem(err);
			m->hash[fi] = h;
			m->id[fi] = id;
		}
		(*ids)[fi++] = id;
		if (e == end)
			break;
		f = e + 1;
	}
	*nframes = fi;
	return 0;
}

/* Folded if the first lines (up to 16 complete ones) all are `frames count` (an
 * overflowing count still counts: parsing reports it) and no stack ends in ':' (a
 * "Key: value" report such as `jfr summary`). */
static int probe(const char *buf, size_t len)
{
	size_t i = 0;
	int seen = 0;
	while (i < len && seen < 16) {
		const char *nl = memchr(buf + i, '\n', len - i);
		if (!nl && seen)
			break; /* a cut last line proves nothing */
		size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;
		const char *p = buf + i;
		i += n + 1;
		if (n && p[n - 1] == '\r')
			n--;
		if (n == 0)
			continue;
		if (p[0] == '#')
			return 0;
		count c;
		size_t m = n;
		int rc = take_count(p, &m, &c);
		if (rc == -2) /* too big: still a count; the parser will say so */
			continue;
		if (rc != 0 || m == 0 || p[m - 1] == ':')
			return 0;
		seen++;
	}
	return seen > 0;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	flame__lines cur;
	int rc = flame__lines_init(&cur, in, err);
	if (rc)
		return rc;
	const char *src = flame__lines_source(&cur);
	uint32_t *ids = NULL;
	size_t ids_cap = 0, prev_n = 0, prev_frames = 0;
	char *prev = NULL;
	size_t prev_cap = 0;
	int last_ok = 0; /* the previous line's stack is the table's last */
	memo mo = {NULL, NULL, 0};
	while ((rc = flame__lines_next(&cur, err)) > 0) {
		const char *p = cur.line;
		size_t n = cur.len;
		if (n && p[n - 1] == '\r')
			n--;
		if (n == 0)
			continue;
		count c1, c2;
		int cr = take_count(p, &n, &c1);
		int diff = 0;
		if (cr == 0) {
			size_t m = n;
			if (take_count(p, &m, &c2) == 0) {
				diff = 1;
				n = m;
			}
		}
		if (cr == -2) {
			rc = flame__err(err, FLAME_ERANGE, src, cur.line_no, cur.offset,
			                "count overflows 64 bits (or has more than 9 decimals)");
			break;
		}
		if (cr || n == 0) {
			flame__warn(o ? o->warn : NULL, o ? o->warn_ud : NULL, "folded-invalid-line", src,
			            cur.line_no, "invalid folded line (expected 'frame;frame... count')");
			continue;
		}
		uint64_t w0 = 0, w1 = 0;
		unsigned scale = t->scale;
		if (diff) {
			/* `stack before after`: c2 was parsed second from the end = before */
			if ((rc = scaled(t, &c2, &w0, src, cur.line_no, err)) ||
			    (rc = scaled(t, &c1, &w1, src, cur.line_no, err)))
				break;
			t->differential = 1;
		} else if ((rc = scaled(t, &c1, &w0, src, cur.line_no, err))) {
			break;
		}
		/* frames shared with the previous line keep their ids */
		size_t same = 0, lim = n < prev_n ? n : prev_n;
		while (same + 8 <= lim) {
			uint64_t a, b;
			memcpy(&a, p + same, 8);
			memcpy(&b, prev + same, 8);
			if (a != b)
				break;
			same += 8;
		}
		while (same < lim && p[same] == prev[same])
			same++;
		/* a line whose stack sorts after the table's last one is appended unlooked-up */
		if (scale != t->scale && t->spill_limit)
			last_ok = 0; /* rescaling read spilled runs back: a new table */
		int after = last_ok && same < n &&
		            (same == prev_n || (unsigned char)p[same] > (unsigned char)prev[same]);
		int repeat = same == n && same == prev_n;
		size_t nframes = 0, before = t->stacks.count;
		if (repeat) {
			nframes = prev_frames;
		} else {
			size_t fi = 0; /* frames fully inside the common prefix */
			const char *f = p;
			for (const char *q = p; (q = memchr(q, ';', (size_t)(p + same - q))); q++) {
				fi++;
				f = q + 1;
			}
			if ((rc = intern_frames(t, &mo, f, p + n, fi, &ids, &ids_cap, &nframes, err)))
				goto done;
		}
		rc = after ? flame__tree_append_sorted_ids(t, ids, nframes, w0, w1, err)
		           : flame__tree_add_ids(t, ids, nframes, w0, w1, err);
		if (rc) {
			if (rc == FLAME_ERANGE)
				flame__err(err, rc, src, cur.line_no, cur.offset, "count overflows 64 bits");
			break;
		}
		if (n > prev_cap) {
			size_t cap = n * 2;
			char *v = realloc(prev, cap);
			if (!v) {
				rc = flame__err_nomem(err);
				break;
			}
			prev = v;
			prev_cap = cap;
		}
		memcpy(prev, p, n);
		/* is this line's stack now the table's last one? (a spill empties the table) */
		last_ok = t->stacks.count > before || t->stacks.count == 0 ||
		          (repeat && last_ok);
		prev_n = n;
		prev_frames = nframes;
	}
done:
	free(mo.hash);
	free(mo.id);
	free(ids);
	free(prev);
	flame__lines_free(&cur);
	return rc < 0 ? rc : 0;
}

const struct flame__parser flame__parser_folded = {"folded", FLAME_FORMAT_FOLDED, probe, parse};
