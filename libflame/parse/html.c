/* Reader of flame-render's own HTML page (written by write/html.c), back into stacks: the
 * page's one data block is the base64 of the gzip of the "FLP1" stream (meta keys, the name
 * table with colours, then the tree depth-first as varint columns: depth step, name, self
 * count, and the AFTER self count of a differential tree). Every frame is there, so the
 * stacks come back exact, with their decimals and unit. Other tools' pages are named by
 * registry.c's diagnosis. Sits in parse/ beside the SVG reader. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/input.h"
#include "../core/numfmt.h"
#include "../core/sink.h"
#include "../core/tree.h"
#include "../core/units.h"
#include "parser.h"

#define MARK "<script type=\"application/octet-stream\" id=\"flame-data\">"
/* in the head of pages whose data block comes after the script (past the 64 KiB a format
 * is detected by) */
#define GENERATOR "<meta name=\"generator\" content=\"flame-render\">"
enum { MAX_PAGE = 1u << 30 }; /* bytes of page, and of inflated data, unless --max-inflate */

/* The start of the data block within p[0..n), or NULL. */
static const char *find_mark(const char *p, size_t n)
{
	return memmem(p, n, MARK, sizeof MARK - 1);
}

static int probe(const char *buf, size_t len)
{
	size_t k = len < 64 * 1024 ? len : 64 * 1024;
	return k >= 15 && !memcmp(buf, "<!DOCTYPE html>", 15) &&
	       (find_mark(buf, k) != NULL || memmem(buf, k < 1024 ? k : 1024, GENERATOR, sizeof GENERATOR - 1));
}

/* ---- base64, as the writer encodes it (the standard alphabet, '=' padding) */

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Decode s[0..n) into out (room for 3 * n / 4 bytes): its length, or the index of the
 * first byte that is not base64 as SIZE_MAX - index. */
static size_t b64_decode(const char *s, size_t n, unsigned char *out)
{
	size_t o = 0, i = 0;
	uint32_t acc = 0;
	int bits = 0;
	for (; i < n && s[i] != '='; i++) {
		int v = b64_value((unsigned char)s[i]);
		if (v < 0)
			return SIZE_MAX - i;
		acc = acc << 6 | (uint32_t)v;
		if ((bits += 6) >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	while (i < n && s[i] == '=')
		i++;
	return i == n ? o : SIZE_MAX - i;
}

/* ---- the FLP1 stream */

typedef struct rd {
	const unsigned char *p, *end, *start;
	const char *src;
	flame_err *err;
} rd;

static int bad(rd *r, const char *what)
{
	return flame__err(r->err, FLAME_EDATA, r->src, 0, FLAME__NO_OFFSET,
	                  "page data, byte %zu of the inflated stream: %s",
	                  (size_t)(r->p - r->start), what);
}

/* A varint of at most 64 bits into *v: 0, or an error. */
static int varint(rd *r, uint64_t *v)
{
	uint64_t x = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		if (r->p >= r->end)
			return bad(r, "the stream ends inside a number");
		unsigned char c = *r->p++;
		x |= (uint64_t)(c & 127) << shift;
		if (!(c & 128)) {
			*v = x;
			return 0;
		}
	}
	return bad(r, "a number longer than 64 bits");
}

/* A length-prefixed string: its bytes at *s, *n of them. */
static int string(rd *r, const unsigned char **s, size_t *n)
{
	uint64_t len = 0;
	int rc = varint(r, &len);
	if (rc)
		return rc;
	if (len > (uint64_t)(r->end - r->p))
		return bad(r, "a string runs past the end of the stream");
	*s = r->p;
	*n = (size_t)len;
	r->p += len;
	return 0;
}

/* What the reader needs of the meta keys: the decimals, the unit and the differential flag. */
typedef struct meta {
	unsigned scale;
	uint64_t duration; /* ns, 0 unknown */
	int differential, human;
	char unit[64], type[64]; /* the unit, and pprof's sample type ("cpu") */
} meta;

static int is_key(const unsigned char *k, size_t n, const char *want)
{
	return n == strlen(want) && !memcmp(k, want, n);
}

static int read_meta(rd *r, meta *m)
{
	for (;;) {
		const unsigned char *k = NULL, *v = NULL;
		size_t kn = 0, vn = 0;
		int rc;
		if ((rc = string(r, &k, &kn)))
			return rc;
		if (!kn)
			return 0;
		if ((rc = string(r, &v, &vn)))
			return rc;
		if (is_key(k, kn, "scale")) {
			if (vn != 1 || v[0] < '0' || v[0] > '9')
				return bad(r, "the decimals (scale) are not a digit");
			m->scale = (unsigned)(v[0] - '0');
		} else if (is_key(k, kn, "differential")) {
			m->differential = vn == 1 && v[0] == '1';
		} else if (is_key(k, kn, "human")) {
			m->human = vn == 1 && v[0] == '1';
		} else if (is_key(k, kn, "countname") && vn < sizeof m->unit) {
			memcpy(m->unit, v, vn);
			m->unit[vn] = '\0';
		} else if (is_key(k, kn, "duration")) {
			for (size_t i = 0; i < vn && v[i] >= '0' && v[i] <= '9' &&
			                   m->duration <= (UINT64_MAX - 9) / 10; i++)
				m->duration = m->duration * 10 + (uint64_t)(v[i] - '0');
		} else if (is_key(k, kn, "type") && vn < sizeof m->type) {
			memcpy(m->type, v, vn);
			m->type[vn] = '\0';
		}
	}
}

/* The name table into ids[0..*count) (interned), colours skipped. */
static int read_names(rd *r, flame__sink *k, uint32_t **ids, uint64_t *count)
{
	int rc = varint(r, count);
	if (rc)
		return rc;
	if (*count > (uint64_t)(r->end - r->p) || *count >= UINT32_MAX)
		return bad(r, "more names than the stream has bytes");
	if (!(*ids = malloc((*count ? *count : 1) * sizeof **ids)))
		return flame__err_nomem(r->err);
	for (uint64_t i = 0; i < *count; i++) {
		const unsigned char *s = NULL;
		size_t n = 0;
		if ((rc = string(r, &s, &n)))
			return rc;
		if (!n || memchr(s, ';', n) || memchr(s, '\n', n))
			return bad(r, "a frame name that is empty or holds ';' or a line break");
		if (((*ids)[i] = flame__sink_intern(k, (const char *)s, n)) == FLAME__ID_NONE)
			return flame__err_nomem(r->err);
	}
	if ((uint64_t)(r->end - r->p) < *count * 3)
		return bad(r, "the colour table runs past the end of the stream");
	r->p += *count * 3;
	return 0;
}

/* One column of n varints into v. */
static int column(rd *r, uint64_t *v, size_t n)
{
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = varint(r, &v[i]);
	return rc;
}

/* The weight of a count at the page's decimals, at the tree's. */
static int weight(rd *r, flame__sink *k, unsigned scale, uint64_t v, uint64_t *out)
{
	uint64_t m = flame__pow10[flame__sink_scale(k) - scale];
	if (v && v > UINT64_MAX / m)
		return bad(r, "a count overflows 64 bits at the tree's decimals");
	*out = v * m;
	return 0;
}

/* The nodes, depth-first, into stacks: node 0 is the root ("all"), every other node's
 * stack is the names on its path below the root; a node's self counts go to its stack. */
static int read_nodes(rd *r, flame__sink *k, const meta *m, const uint32_t *ids, uint64_t nnames)
{
	uint64_t n = 0;
	int rc = varint(r, &n);
	if (rc)
		return rc;
	int ncol = m->differential ? 4 : 3;
	if (n > (uint64_t)(r->end - r->p) / (unsigned)ncol)
		return bad(r, "more nodes than the stream has bytes");
	uint64_t *col = malloc((n ? n : 1) * (size_t)ncol * sizeof *col);
	uint32_t *path = NULL;
	size_t cap = 0, depth = 0;
	if (!col)
		return flame__err_nomem(r->err);
	for (int c = 0; c < ncol && !rc; c++)
		rc = column(r, col + (size_t)c * n, (size_t)n);
	/* a page whose profile kept labels or time goes on with its "LAB1" or "TIM1" section
	 * (write/html.c), which the stacks do not need */
	if (!rc && r->p != r->end &&
	    !(r->end - r->p >= 4 && (memcmp(r->p, "TIM1", 4) == 0 || memcmp(r->p, "LAB1", 4) == 0)))
		rc = bad(r, "bytes after the last column");
	for (size_t i = 0; i < n && !rc; i++) {
		uint64_t up = col[i], name = col[n + i], w[2] = {0, 0};
		if (i && up > depth) /* every node but the first is below the root */
			rc = bad(r, "a node climbs to or above the root");
		else if (i && name >= nnames)
			rc = bad(r, "a node names no entry of the name table");
		if (rc || !i)
			continue;
		depth = depth + 1 - (size_t)up;
		if (flame__array_reserve(path, cap, depth))
			rc = flame__err_nomem(r->err);
		else if (!(rc = weight(r, k, m->scale, col[2 * n + i], &w[0])) &&
		         !(rc = m->differential ? weight(r, k, m->scale, col[3 * n + i], &w[1]) : 0)) {
			path[depth - 1] = ids[name];
			if (w[0] || w[1])
				rc = flame__sink_add(k, path, depth, w[0], w[1], r->err);
		}
	}
	free(path);
	free(col);
	return rc;
}

/* The inflated stream s[0..n) into the tree. */
static int read_stream(flame__sink *k, const unsigned char *s, size_t n, const char *src,
                       flame_err *err)
{
	rd r = {s, s + n, s, src, err};
	meta m = {0};
	uint32_t *ids = NULL;
	uint64_t nnames = 0;
	int rc = n < 4 || memcmp(s, "FLP1", 4) ? bad(&r, "not a flame-render page's data (no FLP1)")
	                                       : 0;
	r.p += 4;
	if (!rc)
		rc = read_meta(&r, &m);
	if (!rc && m.scale > flame__sink_scale(k) && flame__sink_rescale(k, m.scale, err))
		rc = bad(&r, "the rescaled counts overflow");
	if (!rc && m.differential)
		flame__sink_set_differential(k);
	if (!rc && m.human && m.unit[0])
		rc = flame__sink_units(k, m.unit, m.type[0] ? m.type : NULL, src, err);
	if (!rc && m.human && m.unit[0] && m.type[0])
		rc = flame__units_set_pprof(k->t, m.type, NULL, NULL, 0, 0);
	if (!rc && m.duration)
		flame__units_set_duration(k->t, m.duration);
	if (!rc)
		rc = read_names(&r, k, &ids, &nnames);
	if (!rc)
		rc = read_nodes(&r, k, &m, ids, nnames);
	free(ids);
	return rc;
}

/* The data block's base64 in page p[0..n), decoded and inflated (as any gzip input is,
 * with its limit) into *out. */
static int inflate_block(flame_input *in, const char *p, size_t n, unsigned char **out,
                         size_t *len, flame_err *err)
{
	const char *src = flame_input_name(in), *b = find_mark(p, n);
	if (!b)
		return flame__err(err, FLAME_EDATA, src, 0, FLAME__NO_OFFSET,
		                  "an HTML page without flame-render's data block");
	b += sizeof MARK - 1;
	const char *e = memmem(b, n - (size_t)(b - p), "</script>", 9);
	if (!e || find_mark(e, n - (size_t)(e - p)))
		return flame__err(err, FLAME_EDATA, src, 0, (uint64_t)(b - p),
		                  e ? "a page with two data blocks" : "the data block has no end");
	unsigned char *z = malloc((size_t)(e - b) / 4 * 3 + 3);
	if (!z)
		return flame__err_nomem(err);
	size_t zn = b64_decode(b, (size_t)(e - b), z);
	if (zn > (size_t)(e - b) / 4 * 3 + 3) {
		free(z);
		return flame__err(err, FLAME_EDATA, src, 0, (uint64_t)(b - p) + (SIZE_MAX - zn),
		                  "the data block is not base64");
	}
	flame_input *gz = NULL;
	int rc = flame_input_open_mem(&gz, z, zn, src, err);
	if (!rc) {
		uint64_t lim = flame__input_limit(in, MAX_PAGE);
		flame_input_set_limit(gz, lim);
		rc = flame__input_slurp(gz, (char **)out, len, lim > SIZE_MAX ? SIZE_MAX : (size_t)lim,
		                        err);
	}
	flame_input_free(gz);
	free(z);
	return rc;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	(void)o;
	char *page = NULL;
	unsigned char *s = NULL;
	size_t n = 0, sn = 0;
	uint64_t lim = flame__input_limit(in, MAX_PAGE);
	int rc = flame__input_slurp(in, &page, &n, lim > SIZE_MAX ? SIZE_MAX : (size_t)lim, err);
	if (rc || !n) {
		free(page);
		return rc;
	}
	flame__sink k;
	flame__sink_init(&k, t);
	if (!(rc = inflate_block(in, page, n, &s, &sn, err)))
		rc = read_stream(&k, s, sn, flame_input_name(in), err);
	free(s);
	free(page);
	return rc;
}

const struct flame__parser flame__parser_html = {probe, parse};
