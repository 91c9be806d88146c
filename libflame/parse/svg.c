/* Flame graph SVG reader (flamegraph.pl, inferno, flame-render): frames back into stacks.
 *
 * Example input:                                              Example output:
 *   <g><title>all (12 samples, 100%)</title><rect x="10" y="49" width="1180" .../></g>
 *   <g><title>main (12 samples, 100.00%)</title><rect x="10" y="33" .../></g>   main 2
 *   <g><title>work (10 samples, 83.33%)</title><rect x="10" y="17" .../></g>    main;work 10
 *
 * A <title> with a sibling <rect> in a <g>/<a>, or inside a <rect>, is a frame (so is a <rect>
 * with no title whose onmouseover="s('TEXT')", or its g's, holds the text: the oldest
 * flamegraph.pl form). The root is found by its row, not its place in the file. Name and count
 * from the title ("NAME (COUNT COUNTNAME, PCT%...)", commas allowed; differential titles
 * "...; before B, after A)" give both columns), depth from the rect's y. The parent is
 * the last frame one level closer to the root when the document is depth-first (as
 * flame-render writes it: exact however narrow the frames), else the frame whose x-range
 * holds it (flamegraph.pl writes in hash order). Self = total - children. A frame
 * whose title holds no count (a --nameattr title) gets one from its width; `data-name`
 * gives its name. flame-render's SVGs add what titles cannot carry, so they read back
 * exactly: data-raw (a name, percent-encoded), data-v (counts --factor scaled or titles
 * printing time and bytes for people), and on the root data-pruned (top-level frames
 * --minwidth hid: folded text has no root self), data-reverse and data-unit. Others read back as exactly as the picture is: a pruned frame's
 * weight stays in its parent's self; _[k] annotations are lost. Elements marked
 * data-panel (the removed-frames panel of a diff) are not part of the graph.
 * libxml2 (its SAX2 push parser: no tree, bytes streamed from the input) lives here only
 * (inside flame-render's <g id="fr">, frame lines of the exact form it writes are read by
 * a strict scanner here, everything else by libxml2: see "the fast path" below);
 * external entities and DTDs are never loaded; internal entities expand within libxml2's
 * loop and amplification limits (a billion laughs is an error). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include "../core/array.h"
#include "../core/input.h"
#include "parser.h"

typedef struct frame {
	double x, y, w;
	uint64_t mant[2];      /* total count(s) as decimal mantissas at `dec` decimals */
	uint64_t child[2];     /* children's totals, in the common scale */
	uint32_t name, depth, parent;
	uint8_t has_count, dec;
} frame;

typedef struct svgr {
	flame__sink k; /* where the stacks go (the tree) */
	const flame_parse_opts *o;
	flame_input *in;
	const char *src;
	flame_err *err;
	int rc;
	frame *v;
	size_t n, cap;
	int differential;
	int reverse;           /* data-reverse on the root: drawn stacks are leaf-first */
	char *pruned;          /* data-pruned of the root: top-level frames --minwidth hid */
	char *dec_buf;         /* scratch for percent-decoded names */
	size_t dec_cap;
	char count_name[64];
	int unit_attr;         /* count_name came from the root's data-unit */
} svgr;

/* A growable byte string reused across elements (no allocation per frame). */
typedef struct sbuf {
	char *p;
	size_t n, cap;
	int set;
} sbuf;

static int sbuf_set(sbuf *b, const char *p, size_t n)
{
	if (n + 1 > b->cap) {
		size_t cap = (n + 1) * 2;
		char *q = realloc(b->p, cap);
		if (!q)
			return -1;
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p, p, n);
	b->p[n] = '\0';
	b->n = n;
	b->set = 1;
	return 0;
}

/* `1,234.5` -> mantissa and decimals; -1 when not a count, -2 when its digits do not fit
 * 64 bits (a count, but one no tree can hold: an error, not a name). */
static int count_at(const char *p, const char *end, const char **stop, uint64_t *mant,
                    unsigned *dec)
{
	uint64_t v = 0;
	unsigned d = 0;
	int dot = 0, digits = 0;
	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9') {
			if (dot && d >= 9)
				return -1;
			if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
				return -2;
			v = v * 10 + (uint64_t)(*p - '0');
			d += (unsigned)dot;
			digits++;
		} else if (*p == ',' && !dot && digits && p + 1 < end && p[1] >= '0' && p[1] <= '9') {
			continue;
		} else if (*p == '.' && !dot && digits && p + 1 < end && p[1] >= '0' && p[1] <= '9') {
			dot = 1;
		} else {
			break;
		}
	}
	if (!digits)
		return -1;
	*stop = p;
	*mant = v;
	*dec = d;
	return 0;
}

/* Two counts at their decimals -> the same scale (0 when they do not fit 64 bits). */
static int common_scale(uint64_t *a, unsigned ad, uint64_t *b, unsigned bd, unsigned *dec)
{
	unsigned dd = ad > bd ? ad : bd;
	if ((*a && *a > UINT64_MAX / flame__pow10[dd - ad]) || (*b && *b > UINT64_MAX / flame__pow10[dd - bd]))
		return -1;
	*a *= flame__pow10[dd - ad];
	*b *= flame__pow10[dd - bd];
	*dec = dd;
	return 0;
}

/* "NAME (COUNT COUNTNAME, PCT%[; +D%][; before B, after A])": split off the count part at
 * the last " (" that is followed by one (names may hold " (" themselves). Returns -2 when
 * the count part is there but its count does not fit 64 bits, else 0. */
static int parse_title(svgr *s, const char *t, size_t n, frame *f, size_t *name_len)
{
	*name_len = n;
	f->has_count = 0;
	if (n < 4 || t[n - 1] != ')')
		return 0;
	const char *end = t + n;
	for (size_t i = n - 1; i-- > 1;) {
		if (t[i] != '(' || t[i - 1] != ' ')
			continue;
		const char *e, *p = t + i + 1;
		uint64_t m;
		unsigned d;
		int cr = count_at(p, end, &e, &m, &d);
		if (cr == -2) { /* the digits run on: a count part (" WORD, ...") makes it the count */
			e = p + strspn(p, "0123456789,.");
			if (e < end && *e == ' ' && memchr(e, ',', (size_t)(end - e)))
				return -2;
		}
		if (cr || e == end || *e != ' ')
			continue;
		const char *cn = e + 1, *ce = memchr(cn, ',', (size_t)(end - cn));
		if (!ce)
			continue;
		*name_len = i - 1;
		f->has_count = 1;
		f->mant[0] = f->mant[1] = m;
		f->dec = (uint8_t)d;
		if (!s->unit_attr && !s->count_name[0] && (size_t)(ce - cn) < sizeof s->count_name) {
			memcpy(s->count_name, cn, (size_t)(ce - cn));
			s->count_name[ce - cn] = '\0';
		}
		const char *b = memmem(ce, (size_t)(end - ce), "; before ", 9);
		uint64_t bm, am;
		unsigned bd, ad, dd;
		const char *be, *ae;
		if (b && count_at(b + 9, end, &be, &bm, &bd) == 0 && (size_t)(end - be) > 8 &&
		    memcmp(be, ", after ", 8) == 0 && count_at(be + 8, end, &ae, &am, &ad) == 0) {
			s->differential = 1;
			if (common_scale(&bm, bd, &am, ad, &dd) == 0) {
				f->mant[0] = bm;
				f->mant[1] = am;
				f->dec = (uint8_t)dd;
			}
		}
		return 0;
	}
	return 0;
}

/* data-v="V" or "BEFORE AFTER": a frame's exact counts (written when --factor scales the
 * titles' counts). */
static int exact_counts(svgr *s, const char *p, size_t n, frame *f)
{
	const char *end = p + n, *e;
	uint64_t a, b;
	unsigned ad, bd, dd;
	if (count_at(p, end, &e, &a, &ad))
		return -1;
	if (e == end) {
		f->mant[0] = f->mant[1] = a;
		f->dec = (uint8_t)ad;
	} else if (*e == ' ' && count_at(e + 1, end, &e, &b, &bd) == 0 && e == end &&
	           common_scale(&a, ad, &b, bd, &dd) == 0) {
		s->differential = 1;
		f->mant[0] = a;
		f->mant[1] = b;
		f->dec = (uint8_t)dd;
	} else {
		return -1;
	}
	f->has_count = 1;
	return 0;
}

/* data-unit on the root: the unit of the counts when the titles print amounts for people
 * ("1.42 s"; data-v holds the counts), percent-encoded. It wins over a title's word. */
static int pct_decode(svgr *s, const char *p, size_t n, size_t *out);
static int unit_attr(svgr *s, const char *p, size_t n)
{
	size_t dn;
	if (pct_decode(s, p, n, &dn))
		return -1;
	if (dn && dn < sizeof s->count_name) {
		memcpy(s->count_name, s->dec_buf, dn);
		s->count_name[dn] = '\0';
		s->unit_attr = 1;
	}
	return 0;
}

/* data-raw: the raw name with '%', ';', controls and non-ASCII bytes as %XX (names that
 * the title cannot carry exactly). Decoded into s->dec_buf; returns the length. */
static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	                                      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int pct_decode(svgr *s, const char *p, size_t n, size_t *out)
{
	if (n + 1 > s->dec_cap) {
		char *d = realloc(s->dec_buf, n + 1);
		if (!d)
			return flame__err_nomem(s->err);
		s->dec_buf = d;
		s->dec_cap = n + 1;
	}
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		int hi, lo;
		if (p[i] == '%' && i + 2 < n && (hi = hexval((unsigned char)p[i + 1])) >= 0 &&
		    (lo = hexval((unsigned char)p[i + 2])) >= 0) {
			s->dec_buf[o++] = (char)(hi << 4 | lo);
			i += 2;
		} else {
			s->dec_buf[o++] = p[i];
		}
	}
	*out = o;
	return 0;
}

/* A decimal number as SVG coordinates are written ("10", "737.5"; no exponents): digits
 * into an integer, scaled once (the writer's numbers are exact in a double this way). */
static int num(const char *p, const char *end, double *out)
{
	static const double scale[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	                               1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17};
	uint64_t m = 0;
	int neg = 0, digits = 0, dot = 0, frac = 0;
	double big = 0; /* more than 17 significant digits: the slow way */
	while (p < end && *p == ' ')
		p++;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9') {
			if (digits < 17) {
				m = m * 10 + (uint64_t)(*p - '0');
				frac += dot;
			} else if (!dot) {
				big += 1; /* an integer part past 17 digits: count the lost powers */
			}
			digits++;
		} else if (*p == '.' && !dot) {
			dot = 1;
		} else {
			break;
		}
	}
	while (p < end && *p == ' ')
		p++;
	if (!digits || p != end)
		return -1;
	double v = (double)m / scale[frac];
	if (big > 0)
		v *= pow(10, big);
	if (!isfinite(v))
		return -1;
	*out = neg ? -v : v;
	return 0;
}

/* Frame names past this are refused: no real frame comes near it, and an entity used
 * many times in a title would otherwise make a name of gigabytes. */
enum { NAME_MAX_BYTES = 64 * 1024 };

static int add_frame(svgr *s, const char *name, size_t nn, const frame *proto)
{
	if (nn > NAME_MAX_BYTES)
		return flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
		                  "a frame name longer than %d bytes", NAME_MAX_BYTES);
	if (flame__array_reserve_min(s->v, s->cap, s->n + 1, 4096))
		return flame__err_nomem(s->err);
	frame *f = &s->v[s->n];
	*f = *proto;
	f->name = flame__sink_intern(&s->k, name, nn);
	if (f->name == FLAME__ID_NONE)
		return flame__err_nomem(s->err);
	s->n++;
	return 0;
}

/* ---- SAX: libxml2 calls these as it reads; no document tree is built ---- */

/* Element and attribute names we look for, as libxml2's dictionary pointers: SAX2 hands
 * every name over interned in the parser's dictionary, so a match is one comparison. */
enum { K_RECT, K_TITLE, K_G, K_A, K_TEXT, K_SCRIPT, K_STYLE, K_X, K_Y, K_WIDTH, K_HEIGHT,
       K_DNAME, K_DRAW, K_DV, K_DPRUNED, K_DREVERSE, K_DPANEL, K_ID, K_MOUSEOVER, K_DUNIT,
       K_COUNT };
static const char *const key_names[K_COUNT] = {
    "rect", "title", "g", "a", "text", "script", "style", "x", "y", "width", "height",
    "data-name", "data-raw", "data-v", "data-pruned", "data-reverse", "data-panel", "id",
    "onmouseover", "data-unit"};

typedef struct sax {
	svgr *s;
	const xmlChar *k[K_COUNT];
	int depth;            /* of the current element */
	int skip;             /* depth of a label/script/style/panel subtree being skipped, or 0 */
	sbuf t;               /* title text */
	int in_title, title_el_depth;
	int have_title, title_depth; /* a closed title waiting for its sibling rect */
	frame rect;           /* a rect waiting for its child title */
	int rect_depth;       /* -1: none */
	sbuf rect_name, rect_raw, rect_v; /* data-name / data-raw / data-v of that rect */
	sbuf g_name;          /* data-name of the enclosing g or a */
	sbuf rect_mo, g_mo;   /* old flamegraph.pl's title: onmouseover="s('INFO')" */
	int g_mo_depth;       /* depth of the g or a that g_mo came from */
	int fr_last;          /* the last event was the start of flame-render's <g id="fr"> */
	int decls;            /* the DTD declared attributes or entities: no fast path */
	uint64_t text;        /* bytes of text handed to on_text, entities expanded */
	xmlParserCtxtPtr doc; /* the document's parser (an entity's text comes through another) */
	uint64_t pending;     /* newlines the fast path read that libxml2 has not counted yet */
} sax;

/* The line being read, for errors: libxml2's count plus the fast path's lines ahead of it. */
static uint64_t line_of(const sax *x)
{
	return (uint64_t)xmlSAX2GetLineNumber(x->doc) + x->pending;
}

static void fail(sax *x, xmlParserCtxtPtr ctxt, int rc)
{
	if (!x->s->rc)
		x->s->rc = rc;
	xmlStopParser(ctxt);
	if (x->doc && x->doc != ctxt)
		xmlStopParser(x->doc);
}

/* A frame from a title and its rect's attributes (exact data first: data-v, data-raw). */
static int title_rect(sax *x, const char *title, size_t tn, const frame *geom, const sbuf *name,
                      const sbuf *raw, const sbuf *v)
{
	svgr *s = x->s;
	frame f = *geom;
	size_t nn;
	int big = parse_title(s, title, tn, &f, &nn);
	if (v->set && exact_counts(s, v->p, v->n, &f) == 0)
		big = 0;
	if (big)
		return flame__err(s->err, FLAME_ERANGE, s->src, line_of(x), FLAME__NO_OFFSET,
		                  "a frame's count overflows 64 bits (in its title)");
	if (raw->set) {
		size_t dn;
		int rc = pct_decode(s, raw->p, raw->n, &dn);
		return rc ? rc : add_frame(s, s->dec_buf, dn, &f);
	}
	if (name->set)
		return add_frame(s, name->p, name->n, &f);
	return add_frame(s, title, nn, &f);
}

/* libxml2's SAX2 hands attribute values over with each '&' (from &amp; or &#38;) as the
 * text "&#38;" (it would not expand entities again); every other reference is replaced.
 * Back to '&', in place; returns the new length (the string stays NUL-terminated). */
static size_t amp(char *p, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		p[o++] = p[i];
		if (p[i] == '&' && n - i >= 5 && memcmp(p + i + 1, "#38;", 4) == 0)
			i += 4;
	}
	p[o] = '\0';
	return o;
}

static void on_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                     int nns, const xmlChar **ns, int nattr, int ndef, const xmlChar **attr)
{
	xmlParserCtxtPtr ctxt = ctx;
	sax *x = ctxt->_private;
	(void)prefix, (void)uri, (void)nns, (void)ns, (void)ndef;
	x->depth++;
	x->fr_last = 0;
	if (x->skip)
		return;
	const xmlChar *const *k = x->k;
	int is_rect = name == k[K_RECT];
	if (name == k[K_TEXT] || name == k[K_SCRIPT] || name == k[K_STYLE]) {
		x->skip = x->depth;
		return;
	}
	if (name == k[K_TITLE]) {
		x->in_title = 1;
		x->title_el_depth = x->depth;
		x->t.n = 0;
		x->t.set = 1;
		return;
	}
	if (!is_rect && name != k[K_G] && name != k[K_A]) {
		for (int i = 0; i < nattr; i++)
			if (attr[5 * i] == k[K_DPANEL])
				x->skip = x->depth;
		return;
	}
	frame f;
	memset(&f, 0, sizeof f);
	int have = 0;
	sbuf *nb = is_rect ? &x->rect_name : &x->g_name;
	/* a rect that will wait for its title keeps these; one that completes a title
	 * before it uses them at once */
	nb->set = 0;
	if (is_rect)
		x->rect_raw.set = x->rect_v.set = x->rect_mo.set = 0;
	else
		x->g_mo.set = 0;
	for (int i = 0; i < nattr; i++) {
		const xmlChar *a = attr[5 * i];
		const char *v = (const char *)attr[5 * i + 3], *e = (const char *)attr[5 * i + 4];
		sbuf *dst = NULL;
		if (a == k[K_X]) {
			if (num(v, e, &f.x) == 0)
				have |= 1;
		} else if (a == k[K_Y]) {
			if (num(v, e, &f.y) == 0)
				have |= 2;
		} else if (a == k[K_WIDTH]) {
			if (num(v, e, &f.w) == 0)
				have |= 4;
		} else if (a == k[K_HEIGHT]) {
			double h;
			if (num(v, e, &h) == 0)
				have |= 8;
		} else if (a == k[K_DNAME]) {
			dst = nb;
		} else if (a == k[K_MOUSEOVER]) {
			/* s('INFO'): INFO unescaped (old flamegraph.pl did not escape quotes) */
			size_t len = (size_t)(e - v);
			if (len >= 5 && memcmp(v, "s('", 3) == 0 && memcmp(e - 2, "')", 2) == 0) {
				sbuf *mo = is_rect ? &x->rect_mo : &x->g_mo;
				if (sbuf_set(mo, v + 3, len - 5))
					return fail(x, ctxt, flame__err_nomem(x->s->err));
				mo->n = amp(mo->p, mo->n);
				if (!is_rect)
					x->g_mo_depth = x->depth;
			}
		} else if (!is_rect) {
			if (a == k[K_DPANEL])
				x->skip = x->depth;
			else if (a == k[K_ID] && name == k[K_G] && e - v == 2 && v[0] == 'f' && v[1] == 'r')
				x->fr_last = 1;
		} else if (a == k[K_DRAW]) {
			dst = &x->rect_raw;
		} else if (a == k[K_DV]) {
			dst = &x->rect_v;
		} else if (a == k[K_DPRUNED]) {
			free(x->s->pruned);
			if (!(x->s->pruned = strndup(v, (size_t)(e - v))))
				return fail(x, ctxt, flame__err_nomem(x->s->err));
			amp(x->s->pruned, strlen(x->s->pruned));
		} else if (a == k[K_DREVERSE]) {
			x->s->reverse = e > v && *v == '1';
		} else if (a == k[K_DUNIT]) {
			if (unit_attr(x->s, v, (size_t)(e - v)))
				return fail(x, ctxt, flame__err_nomem(x->s->err));
		} else if (a == k[K_DPANEL]) {
			x->skip = x->depth;
		}
		if (dst && sbuf_set(dst, v, (size_t)(e - v)))
			return fail(x, ctxt, flame__err_nomem(x->s->err));
		if (dst)
			dst->n = amp(dst->p, dst->n);
	}
	if (!is_rect || x->skip)
		return;
	if (x->have_title && x->depth == x->title_depth) {
		x->have_title = 0;
		int rc = have == 15 ? title_rect(x, x->t.p, x->t.n, &f,
		                                 x->rect_name.set ? &x->rect_name : &x->g_name,
		                                 &x->rect_raw, &x->rect_v)
		                    : 0;
		if (rc)
			fail(x, ctxt, rc);
	} else if (have == 15) {
		x->rect = f;
		x->rect_depth = x->depth;
	}
}

static void on_end(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri)
{
	xmlParserCtxtPtr ctxt = ctx;
	sax *x = ctxt->_private;
	(void)name, (void)prefix, (void)uri;
	int d = x->depth--;
	x->fr_last = 0;
	if (x->skip) {
		if (d == x->skip)
			x->skip = 0;
		return;
	}
	if (x->in_title && d == x->title_el_depth) {
		x->in_title = 0;
		if (x->rect_depth >= 0 && d == x->rect_depth + 1) {
			int rc = title_rect(x, x->t.p ? x->t.p : "", x->t.n, &x->rect,
			                    x->rect_name.set ? &x->rect_name : &x->g_name, &x->rect_raw,
			                    &x->rect_v);
			x->rect_depth = -1;
			if (rc)
				fail(x, ctxt, rc);
		} else {
			x->have_title = 1;
			x->title_depth = d;
		}
		return;
	}
	if (x->have_title && d < x->title_depth)
		x->have_title = 0; /* the g/a closed without a rect */
	if (d == x->rect_depth) {
		/* no <title>: old flamegraph.pl put the text in onmouseover, on the rect or its g */
		const sbuf *mo = x->rect_mo.set                                    ? &x->rect_mo
		                 : x->g_mo.set && x->g_mo_depth == x->rect_depth - 1 ? &x->g_mo
		                                                                     : NULL;
		x->rect_depth = -1;
		int rc = mo ? title_rect(x, mo->p, mo->n, &x->rect,
		                         x->rect_name.set ? &x->rect_name : &x->g_name, &x->rect_raw,
		                         &x->rect_v)
		            : 0;
		if (rc)
			fail(x, ctxt, rc);
	}
}

enum { TEXT_AMPLIFICATION = 16, TEXT_SLACK = 64 << 20 };

static void on_text(void *ctx, const xmlChar *ch, int len)
{
	xmlParserCtxtPtr ctxt = ctx;
	sax *x = ctxt->_private;
	x->fr_last = 0;
	if (len <= 0 || x->s->rc)
		return;
	/* libxml2 2.9 bounds the depth of entities, not how often one is used: text that
	 * outgrows what was read many times over comes from expansion, and stops here */
	x->text += (uint64_t)len;
	if (x->text > TEXT_SLACK + TEXT_AMPLIFICATION * flame__input_offset(x->s->in))
		return fail(x, ctxt,
		            flame__err(x->s->err, FLAME_ERANGE, x->s->src,
		                       line_of(x), FLAME__NO_OFFSET,
		                       "entities expand to more than %d times the input's size",
		                       TEXT_AMPLIFICATION));
	if (!x->in_title || x->skip)
		return;
	sbuf *t = &x->t;
	if (t->n + (size_t)len > NAME_MAX_BYTES)
		return fail(x, ctxt,
		            flame__err(x->s->err, FLAME_ERANGE, x->s->src,
		                       line_of(x), FLAME__NO_OFFSET,
		                       "a title longer than %d bytes (entities expanded)",
		                       NAME_MAX_BYTES));
	if (t->n + (size_t)len + 1 > t->cap) {
		size_t cap = (t->n + (size_t)len + 1) * 2;
		char *p = realloc(t->p, cap);
		if (!p)
			return fail(x, ctxt, flame__err_nomem(x->s->err));
		t->p = p;
		t->cap = cap;
	}
	memcpy(t->p + t->n, ch, (size_t)len);
	t->n += (size_t)len;
	t->p[t->n] = '\0';
}

/* ---- the fast path for flame-render's own frames.
 * Most of an SVG of ours is one line per frame inside <g id="fr">:
 *   <rect x="10" y="53" width="647.1" height="15" fill="#e05915"[ data-...="..."]><title>TEXT</title></rect>
 * libxml2 spends most of its time on those. Once libxml2 has read the <g id="fr"> start tag
 * (and nothing else is pending), such lines are checked and read here, strictly (the
 * attribute names we write, each once, no whitespace but single spaces, UTF-8 with only
 * XML's characters, the predefined entities and character references, no "]]>"), and
 * libxml2 gets a newline for each so its line numbers stay right. The first line that is
 * anything else, and everything after it, goes to libxml2 as usual (its </g>, a link, an
 * odd character, a declared entity: all read exactly as before). */

enum { FAST_NEED_MORE, FAST_HANDOFF };

/* UTF-8 sequence length at p (p[0] >= 0x80) if well formed and an XML Char, else 0. */
static size_t xml_utf8(const unsigned char *p, const unsigned char *e)
{
	unsigned c = p[0];
	size_t n = (size_t)(e - p);
	if (c >= 0xc2 && c <= 0xdf)
		return n >= 2 && (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 || (c == 0xe0 && p[1] < 0xa0) ||
		    (c == 0xed && p[1] >= 0xa0) || (c == 0xef && p[1] == 0xbf && p[2] >= 0xbe))
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 || (p[3] & 0xc0) != 0x80 ||
		    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}

/* Printable ASCII but for the bytes fast_text looks at: & < " ] */
static const unsigned char plain_byte[256] = {
    ['!'] = 1, ['#'] = 1, ['$'] = 1, ['%'] = 1, ['\''] = 1, ['('] = 1, [')'] = 1, ['*'] = 1,
    ['+'] = 1, [','] = 1, ['-'] = 1, ['.'] = 1, ['/'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1,
    ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, [':'] = 1,
    [';'] = 1, ['='] = 1, ['>'] = 1, ['?'] = 1, ['@'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1,
    ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1,
    ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1,
    ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['['] = 1,
    ['\\'] = 1, ['^'] = 1, ['_'] = 1, ['`'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,
    ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1,
    ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
    ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['{'] = 1, ['|'] = 1,
    ['}'] = 1, ['~'] = 1, [' '] = 1};

/* Decode text up to `stop` ('"' in attribute values, '<' in content) into b; returns the
 * position of `stop`, or NULL when the text is not one the fast path takes (or runs past
 * e: the caller cannot tell the two apart and hands over, which is always safe). */
static const unsigned char *fast_text(const unsigned char *p, const unsigned char *e, int stop,
                                      sbuf *b)
{
	b->n = 0;
	b->set = 1;
	if (!b->p) { /* an empty text ends it at once, NUL-terminated: the buffer must exist */
		if (!(b->p = malloc(64)))
			return NULL;
		b->cap = 64;
	}
	for (;;) {
		const unsigned char *q = p;
		while (q < e && plain_byte[*q])
			q++;
		if (q > p) {
			if (b->n + (size_t)(q - p) + 8 > b->cap) {
				size_t cap = (b->n + (size_t)(q - p) + 8) * 2;
				char *np = realloc(b->p, cap);
				if (!np)
					return NULL;
				b->p = np;
				b->cap = cap;
			}
			memcpy(b->p + b->n, p, (size_t)(q - p));
			b->n += (size_t)(q - p);
			p = q;
		}
		if (p >= e)
			return NULL;
		if (*p == stop) {
			b->p[b->n] = '\0';
			return p;
		}
		unsigned char out[4];
		size_t on = 0, adv = 0;
		if (*p == '"' || *p == ']') { /* '"' in content; ']' unless it starts "]]>" */
			if (*p == ']' && (e - p < 3 || (p[1] == ']' && p[2] == '>')))
				return NULL;
			out[0] = *p;
			on = adv = 1;
		} else if (*p == '\t' || *p == '\n') { /* content only: values would normalize them */
			if (stop == '"')
				return NULL;
			out[0] = *p;
			on = adv = 1;
		} else if (*p >= 0x80) {
			on = adv = xml_utf8(p, e);
			if (!on)
				return NULL;
			memcpy(out, p, on);
		} else if (*p == '&') {
			const unsigned char *r = p + 1;
			unsigned long cp = 0;
			if (e - r >= 4 && memcmp(r, "amp;", 4) == 0)
				cp = '&', adv = 5;
			else if (e - r >= 3 && memcmp(r, "lt;", 3) == 0)
				cp = '<', adv = 4;
			else if (e - r >= 3 && memcmp(r, "gt;", 3) == 0)
				cp = '>', adv = 4;
			else if (e - r >= 5 && memcmp(r, "quot;", 5) == 0)
				cp = '"', adv = 6;
			else if (e - r >= 5 && memcmp(r, "apos;", 5) == 0)
				cp = '\'', adv = 6;
			else if (r < e && *r == '#') {
				int hex = r + 1 < e && r[1] == 'x', digits = 0;
				for (r += 1 + hex; r < e && digits < 8; r++, digits++) {
					int v = hexval(*r);
					if (v < 0 || (!hex && v > 9))
						break;
					cp = cp * (hex ? 16 : 10) + (unsigned long)v;
				}
				if (!digits || r >= e || *r != ';')
					return NULL;
				adv = (size_t)(r + 1 - p);
				if (!(cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
				      (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)))
					return NULL;
			} else {
				return NULL;
			}
			if (cp < 0x80)
				out[on++] = (unsigned char)cp;
			else if (cp < 0x800)
				out[on++] = (unsigned char)(0xc0 | cp >> 6), out[on++] = (unsigned char)(0x80 | (cp & 0x3f));
			else if (cp < 0x10000)
				out[on++] = (unsigned char)(0xe0 | cp >> 12),
				out[on++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f)),
				out[on++] = (unsigned char)(0x80 | (cp & 0x3f));
			else
				out[on++] = (unsigned char)(0xf0 | cp >> 18),
				out[on++] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f)),
				out[on++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f)),
				out[on++] = (unsigned char)(0x80 | (cp & 0x3f));
		} else {
			return NULL; /* '<' in a value, a control byte, '\r' (line ends normalize) */
		}
		if (b->n + on + 8 > b->cap) {
			size_t cap = (b->n + on + 8) * 2;
			char *np = realloc(b->p, cap);
			if (!np)
				return NULL;
			b->p = np;
			b->cap = cap;
		}
		memcpy(b->p + b->n, out, on);
		b->n += on;
		p += adv;
	}
}

/* One frame line at p; its length, 0 when it is not one (hand over), or -1 for out of
 * memory or a failed frame (x->s->rc says which). */
static long fast_line(sax *x, const unsigned char *p, const unsigned char *e, sbuf *val)
{
	static const char *const names[] = {"x", "y", "width", "height", "fill", "data-raw",
	                                    "data-v", "data-name", "data-pruned", "data-reverse",
	                                    "data-unit"};
	const unsigned char *q = p;
	if (e - q < 6 || memcmp(q, "<rect ", 6) != 0)
		return 0;
	q += 5;
	frame f;
	memset(&f, 0, sizeof f);
	unsigned seen = 0;
	int have = 0;
	x->rect_raw.set = x->rect_v.set = x->rect_name.set = 0;
	while (q < e && *q == ' ') {
		const unsigned char *nm = ++q;
		while (q < e && ((*q >= 'a' && *q <= 'z') || *q == '-'))
			q++;
		if (e - q < 2 || q[0] != '=' || q[1] != '"')
			return 0;
		size_t nl = (size_t)(q - nm);
		int which = -1;
		for (int i = 0; i < 11; i++)
			if (strlen(names[i]) == nl && memcmp(names[i], nm, nl) == 0)
				which = i;
		if (which < 0 || (seen & (1u << which)))
			return 0;
		seen |= 1u << which;
		const unsigned char *ve = fast_text(q + 2, e, '"', val);
		if (!ve)
			return 0;
		q = ve + 1;
		const char *v = val->p, *vend = val->p + val->n;
		sbuf *dst = NULL;
		switch (which) {
		case 0: have |= num(v, vend, &f.x) == 0 ? 1 : 0; break;
		case 1: have |= num(v, vend, &f.y) == 0 ? 2 : 0; break;
		case 2: have |= num(v, vend, &f.w) == 0 ? 4 : 0; break;
		case 3: have |= num(v, vend, &(double){0}) == 0 ? 8 : 0; break;
		case 5: dst = &x->rect_raw; break;
		case 6: dst = &x->rect_v; break;
		case 7: dst = &x->rect_name; break;
		case 8:
			free(x->s->pruned);
			if (!(x->s->pruned = strndup(v, val->n))) {
				x->s->rc = flame__err_nomem(x->s->err);
				return -1;
			}
			break;
		case 9: x->s->reverse = val->n && *v == '1'; break;
		case 10:
			if (unit_attr(x->s, v, val->n)) {
				x->s->rc = flame__err_nomem(x->s->err);
				return -1;
			}
			break;
		}
		if (dst && sbuf_set(dst, v, val->n)) {
			x->s->rc = flame__err_nomem(x->s->err);
			return -1;
		}
	}
	if (e - q < 8 || memcmp(q, "><title>", 8) != 0)
		return 0;
	const unsigned char *te = fast_text(q + 8, e, '<', &x->t);
	if (!te || e - te < 15 || memcmp(te, "</title></rect>", 15) != 0)
		return 0;
	q = te + 15;
	if (q < e && *q == '\n')
		q++;
	if (have == 15) {
		int rc = title_rect(x, x->t.p, x->t.n, &f, x->rect_name.set ? &x->rect_name : &x->g_name,
		                    &x->rect_raw, &x->rect_v);
		if (rc) {
			if (!x->s->rc)
				x->s->rc = rc;
			return -1;
		}
	}
	return q - p;
}

/* Frame lines from p; *used bytes of them were read, *lines newlines among them. */
static int fast_lines(sax *x, const char *p0, size_t n, size_t *used, size_t *lines, sbuf *val)
{
	const unsigned char *p = (const unsigned char *)p0, *e = p + n;
	*used = *lines = 0;
	while (p < e && !x->s->rc) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl) /* a line's end first: a text that runs out is then not "need more" */
			return FAST_NEED_MORE;
		x->pending = *lines;
		long k = *p == '\n' ? 1 : fast_line(x, p, nl + 1, val);
		if (k <= 0)
			return FAST_HANDOFF;
		*lines += p[k - 1] == '\n';
		p += k;
		*used = (size_t)(p - (const unsigned char *)p0);
	}
	return p < e ? FAST_HANDOFF : FAST_NEED_MORE;
}

static void on_decl_entity(void *ctx, const xmlChar *name, int type, const xmlChar *pub,
                           const xmlChar *sys, xmlChar *content)
{
	xmlParserCtxtPtr ctxt = ctx;
	((sax *)ctxt->_private)->decls = 1;
	xmlSAX2EntityDecl(ctx, name, type, pub, sys, content);
}

/* An entity referenced in a title whose text is not in the document (declared SYSTEM or
 * PUBLIC, which is never loaded, or not declared at all, as for one an external DTD would
 * declare) would drop out of the name and leave it shorter or empty: refused instead. */
static xmlEntityPtr on_get_entity(void *ctx, const xmlChar *name)
{
	xmlParserCtxtPtr ctxt = ctx;
	sax *x = ctxt->_private;
	xmlEntityPtr e = xmlSAX2GetEntity(ctx, name);
	if (x->in_title && !x->skip && !x->s->rc && (!e || e->etype != XML_INTERNAL_GENERAL_ENTITY))
		fail(x, ctxt,
		     flame__err(x->s->err, FLAME_EDATA, x->s->src, line_of(x), FLAME__NO_OFFSET,
		                "entity &%.64s; in a frame's title %s", (const char *)name,
		                e ? "is external (never loaded)" : "is not declared in the document"));
	return e;
}

static void on_decl_attr(void *ctx, const xmlChar *elem, const xmlChar *name, int type, int def,
                         const xmlChar *dflt, xmlEnumerationPtr tree)
{
	xmlParserCtxtPtr ctxt = ctx;
	((sax *)ctxt->_private)->decls = 1;
	xmlSAX2AttributeDecl(ctx, elem, name, type, def, dflt, tree);
}

/* Bytes to libxml2 in slices of at most `CHUNK` (its checks of how far it looks ahead are
 * made per call, so a long tag must arrive in pieces as a stream would bring it). */
static int feed(xmlParserCtxtPtr ctxt, const char *p, size_t n, size_t chunk)
{
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i += chunk)
		rc = xmlParseChunk(ctxt, p + i, (int)(n - i < chunk ? n - i : chunk), 0);
	return rc;
}

/* The end of the start tag that begins at p (quote aware), or NULL if not within e. */
static const char *tag_end(const char *p, const char *e)
{
	char q = 0;
	for (; p < e; p++) {
		if (q) {
			if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'') {
			q = *p;
		} else if (*p == '>') {
			return p;
		}
	}
	return NULL;
}

/* Pull every frame out of the document: a <title> followed by a sibling <rect> in a
 * <g>/<a> (flamegraph.pl, inferno), or a <rect> holding its <title> (flame-render). */
static int read_frames(svgr *s)
{
	xmlSAXHandler h;
	memset(&h, 0, sizeof h);
	xmlSAXVersion(&h, 2);
	/* no tree: only our element and text callbacks (external entities are never
	 * loaded: no XML_PARSE_NOENT / DTDLOAD) */
	h.startElementNs = on_start;
	h.endElementNs = on_end;
	h.characters = on_text;
	h.cdataBlock = on_text;
	h.entityDecl = on_decl_entity;
	h.getEntity = on_get_entity;
	h.attributeDecl = on_decl_attr;
	h.ignorableWhitespace = NULL;
	h.reference = NULL;
	h.processingInstruction = NULL;
	h.comment = NULL;
	h.warning = NULL;
	h.error = NULL;
	h.fatalError = NULL;
	h.serror = NULL;
	sax x = {.s = s, .rect_depth = -1};
	sbuf val = {0};
	enum { CHUNK = 1 << 18, MAX_LINE = 1 << 26 };
	size_t cap = 2 * CHUNK, have = 0, off = 0;
	char *buf = malloc(cap), *nls = NULL;
	if (!buf)
		return flame__err_nomem(s->err);
	xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&h, NULL, NULL, 0, s->src);
	if (!ctxt) {
		free(buf);
		return flame__err_nomem(s->err);
	}
	ctxt->_private = &x;
	x.doc = ctxt;
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
	                            XML_PARSE_NOBLANKS | XML_PARSE_COMPACT);
	for (int i = 0; i < K_COUNT; i++)
		if (!(x.k[i] = xmlDictLookup(ctxt->dict, (const xmlChar *)key_names[i], -1)))
			s->rc = flame__err_nomem(s->err);
	enum { SEARCH, FAST, PLAIN } mode = SEARCH;
	int xrc = 0, eof = 0;
	static const char fr[] = "<g id=\"fr\"";
	while (!s->rc && !xrc && !eof) {
		if (off) { /* everything before off is read (by libxml2 or the fast path) */
			memmove(buf, buf + off, have - off);
			have -= off;
			off = 0;
		}
		if (have == cap) { /* one very long frame line */
			if (cap >= MAX_LINE) {
				mode = PLAIN;
			} else {
				char *nb = realloc(buf, cap * 2);
				if (!nb) {
					s->rc = flame__err_nomem(s->err);
					break;
				}
				buf = nb;
				cap *= 2;
			}
		}
		long n = have < cap ? flame__input_read(s->in, buf + have, cap - have, s->err) : 0;
		if (n < 0) {
			s->rc = (int)n;
			break;
		}
		eof = n == 0 && have < cap;
		have += (size_t)n;
		if (mode == SEARCH) {
			const char *m = memmem(buf, have, fr, sizeof fr - 1), *te = m ? tag_end(m, buf + have) : NULL;
			if (te) {
				/* libxml2 reads up to the tag's end; the fast path starts if it stopped
				 * right there, inside <g id="fr">, reading UTF-8 with no declarations */
				off = (size_t)(te + 1 - buf);
				xrc = feed(ctxt, buf, off, CHUNK);
				mode = !xrc && !s->rc && x.fr_last && !x.decls && !x.skip && ctxt->input &&
				               ctxt->input->cur == ctxt->input->end && ctxt->input->buf &&
				               !ctxt->input->buf->encoder
				           ? FAST
				           : PLAIN;
			} else if (eof) {
				off = have;
				xrc = feed(ctxt, buf, off, CHUNK);
				mode = PLAIN;
			} else {
				/* what surely comes before the group goes on; the rest waits for bytes */
				off = m ? (size_t)(m - buf) : have > sizeof fr - 1 ? have - (sizeof fr - 1) : 0;
				xrc = feed(ctxt, buf, off, CHUNK);
			}
		}
		if (mode == FAST && !xrc) {
			size_t used, lines;
			int st = fast_lines(&x, buf + off, have - off, &used, &lines, &val);
			x.pending = 0;
			if (s->rc)
				break;
			off += used;
			if (lines) { /* libxml2 counts the lines it did not see */
				char *nn = realloc(nls, lines);
				if (!nn) {
					s->rc = flame__err_nomem(s->err);
					break;
				}
				nls = nn;
				memset(nls, '\n', lines);
				xrc = xmlParseChunk(ctxt, nls, (int)lines, 0);
				free(nls);
				nls = NULL;
			}
			if (st == FAST_HANDOFF || eof)
				mode = PLAIN;
		}
		if (mode == PLAIN && !xrc && have > off) {
			xrc = feed(ctxt, buf + off, have - off, CHUNK);
			off = have;
		}
	}
	if (!s->rc && !xrc)
		xrc = xmlParseChunk(ctxt, NULL, 0, 1);
	int rc = s->rc;
	if (!rc && (xrc || !ctxt->wellFormed)) {
		const xmlError *e = xmlCtxtGetLastError(ctxt);
		const char *m = e && e->message ? e->message : "parse error";
		size_t mn = strlen(m);
		while (mn && (m[mn - 1] == '\n' || m[mn - 1] == ' '))
			mn--;
		rc = flame__err(s->err, FLAME_EDATA, s->src, e && e->line > 0 ? (uint64_t)e->line : 0,
		                FLAME__NO_OFFSET, "not well-formed XML: %.*s", (int)mn, m);
	}
	if (ctxt->myDoc)
		xmlFreeDoc(ctxt->myDoc);
	xmlFreeParserCtxt(ctxt);
	free(buf);
	free(val.p);
	free(x.t.p);
	free(x.rect_name.p);
	free(x.rect_raw.p);
	free(x.rect_v.p);
	free(x.g_name.p);
	free(x.rect_mo.p);
	free(x.g_mo.p);
	return rc;
}

static void add_sat(uint64_t *a, uint64_t b)
{
	*a = *a + b < *a ? UINT64_MAX : *a + b;
}

static int by_depth_x(const void *a, const void *b)
{
	const frame *p = a, *q = b;
	if (p->depth != q->depth)
		return p->depth < q->depth ? -1 : 1;
	return p->x < q->x ? -1 : p->x > q->x;
}

/* data-pruned="C NAME;C NAME" (differential: "B A NAME"): the top-level frames --minwidth
 * hid, each with its weight; names percent-encoded as in data-raw. */
typedef struct pruned {
	uint32_t name;
	uint8_t dec;
	uint64_t mant[2];
} pruned;

static int parse_pruned(svgr *s, pruned **out, size_t *count, unsigned *maxdec)
{
	*out = NULL;
	*count = 0;
	const char *p = s->pruned;
	if (!p || !*p)
		return 0;
	size_t cap = 1;
	for (const char *q = p; *q; q++)
		cap += *q == ';';
	pruned *v = malloc(cap * sizeof *v);
	if (!v)
		return flame__err_nomem(s->err);
	size_t n = 0;
	while (*p) {
		const char *end = strchr(p, ';'), *e;
		if (!end)
			end = p + strlen(p);
		pruned pr = {0};
		uint64_t a, b = 0;
		unsigned ad, bd = 0, dd;
		int ok = count_at(p, end, &e, &a, &ad) == 0 && e < end && *e == ' ';
		if (ok && s->differential)
			ok = count_at(e + 1, end, &e, &b, &bd) == 0 && e < end && *e == ' ' &&
			     common_scale(&a, ad, &b, bd, &dd) == 0;
		else
			dd = ad;
		if (!ok) {
			free(v);
			return flame__err(s->err, FLAME_EDATA, s->src, 0, FLAME__NO_OFFSET,
			                  "the root frame's data-pruned is not 'COUNT NAME;...'");
		}
		size_t dn;
		int rc = pct_decode(s, e + 1, (size_t)(end - e - 1), &dn);
		if (!rc && (pr.name = flame__sink_intern(&s->k, s->dec_buf, dn)) == FLAME__ID_NONE)
			rc = flame__err_nomem(s->err);
		if (rc) {
			free(v);
			return rc;
		}
		pr.mant[0] = a;
		pr.mant[1] = s->differential ? b : a;
		pr.dec = (uint8_t)dd;
		if (dd > *maxdec)
			*maxdec = dd;
		v[n++] = pr;
		p = *end ? end + 1 : end;
	}
	*out = v;
	*count = n;
	return 0;
}

/* The root: a full-width frame on the root row, the bottom one (the top one when the
 * graph is inverted), "all" by name when one is. Element order says nothing:
 * flamegraph.pl writes frames in hash order, and a top-level frame as wide as the root
 * (every stack under one process) may come first. Only a single chain (full width on
 * every row) leaves the rows alone to choose: then the bottom one, unless the name says. */
static size_t find_root(const svgr *s)
{
	const frame *v = s->v;
	size_t n = s->n, first = 0;
	double ymin = v[0].y, ymax = v[0].y;
	for (size_t i = 1; i < n; i++) {
		if (v[i].w > v[first].w)
			first = i;
		ymin = v[i].y < ymin ? v[i].y : ymin;
		ymax = v[i].y > ymax ? v[i].y : ymax;
	}
	double wmax = v[first].w;
	size_t bottom = SIZE_MAX, top = SIZE_MAX;
	uint32_t all = flame__intern_find(s->k.names, "all", 3);
	for (size_t i = 0; i < n; i++) {
		if (v[i].w < wmax - 0.05)
			continue;
		int at_bottom = fabs(v[i].y - ymax) < 0.5, at_top = fabs(v[i].y - ymin) < 0.5;
		if (!at_bottom && !at_top)
			continue;
		if (v[i].name == all)
			return i;
		if (at_bottom && bottom == SIZE_MAX)
			bottom = i;
		if (at_top && top == SIZE_MAX)
			top = i;
	}
	return bottom != SIZE_MAX ? bottom : top != SIZE_MAX ? top : first;
}

/* Frames -> tree: depths, parents, self counts, stacks. */
static int build(svgr *s)
{
	frame *v = s->v;
	size_t n = s->n;
	size_t root = find_root(s);
	double step = 0;
	for (size_t i = 0; i < n; i++) {
		double d = fabs(v[i].y - v[root].y);
		if (d > 0.5 && (step == 0 || d < step))
			step = d;
	}
	if (step == 0)
		step = 1;
	unsigned dec = 0;
	for (size_t i = 0; i < n; i++) {
		double dd = floor(fabs(v[i].y - v[root].y) / step + 0.5);
		if (!(dd <= (double)n)) /* deeper than there are frames: not a flame graph's layout */
			return flame__err(s->err, FLAME_EDATA, s->src, 0, FLAME__NO_OFFSET,
			                  "frame rows are not evenly spaced (a frame lies %.0f rows away)", dd);
		v[i].depth = (uint32_t)dd;
		if (v[i].has_count && v[i].dec > dec)
			dec = v[i].dec;
	}
	if (!v[root].has_count)
		return flame__err(s->err, FLAME_EDATA, s->src, 0, FLAME__NO_OFFSET,
		                  "the root frame's title has no count");
	pruned *pv;
	size_t pn;
	int prc = parse_pruned(s, &pv, &pn, &dec);
	if (prc)
		return prc;
	if (dec > flame__sink_scale(&s->k) && flame__sink_rescale(&s->k, dec, s->err)) {
		free(pv);
		return flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
		                  "rescaled counts overflow 64 bits");
	}
	unsigned scale = flame__sink_scale(&s->k);
	int rc = 0;
	/* the hidden top-level frames: one-frame stacks (folded text has no root self) */
	for (size_t i = 0; i < pn && !rc; i++) {
		uint64_t m = flame__pow10[scale - pv[i].dec], w[2];
		for (int c = 0; c < 2; c++) {
			if (pv[i].mant[c] > UINT64_MAX / m)
				rc = flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
				                "a count overflows 64 bits");
			w[c] = pv[i].mant[c] * m;
		}
		if (!rc && (w[0] || w[1]))
			rc = flame__sink_add(&s->k, &pv[i].name, 1, w[0], s->differential ? w[1] : 0,
			                         s->err);
	}
	free(pv);
	if (rc)
		return rc;
	/* counts in the tree's scale; untitled counts from width */
	for (size_t i = 0; i < n; i++) {
		frame *f = &v[i];
		for (int c = 0; c < 2; c++) {
			if (f->has_count) {
				uint64_t m = flame__pow10[scale - f->dec];
				if (f->mant[c] > UINT64_MAX / m)
					return flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
					                  "a count overflows 64 bits");
				f->mant[c] *= m;
			} else {
				double rt = (double)v[root].mant[c] * flame__pow10[scale - v[root].dec];
				double x = v[root].w > 0 ? floor(rt * f->w / v[root].w + 0.5) : 0;
				f->mant[c] = !(x > 0) ? 0 : x >= 1.8e19 ? UINT64_MAX : (uint64_t)x;
			}
		}
		f->dec = (uint8_t)scale;
	}
	/* flame-render writes frames depth first (each after its parent, subtrees whole):
	 * then a frame's parent is the last frame one level up, exactly, however narrow the
	 * frames are. flamegraph.pl's order is by name: parents come from geometry then. */
	int preorder = v[0].depth == 0;
	for (size_t i = 1; i < n && preorder; i++)
		preorder = v[i].depth >= 1 && v[i].depth <= v[i - 1].depth + 1;
	if (preorder) {
		uint32_t maxd = 0;
		for (size_t i = 0; i < n; i++)
			if (v[i].depth > maxd)
				maxd = v[i].depth;
		uint32_t *last = malloc(((size_t)maxd + 1) * sizeof *last);
		if (!last)
			return flame__err_nomem(s->err);
		/* a breadth-first order passes the depth test too: the geometry must agree */
		for (size_t i = 0; i < n && preorder; i++) {
			uint32_t d = v[i].depth;
			last[d] = (uint32_t)i;
			v[i].parent = d ? last[d - 1] : UINT32_MAX;
			const frame *p = d ? &v[last[d - 1]] : NULL;
			if (p && (v[i].x < p->x - 0.05 || v[i].x + v[i].w > p->x + p->w + 0.05))
				preorder = 0;
		}
		free(last);
	}
	if (preorder) {
		for (size_t i = 0; i < n; i++)
			if (v[i].parent != UINT32_MAX) {
				add_sat(&v[v[i].parent].child[0], v[i].mant[0]);
				add_sat(&v[v[i].parent].child[1], v[i].mant[1]);
			}
		goto stacks;
	}
	qsort(v, n, sizeof *v, by_depth_x);
	/* parents: the last frame one level up starting at or left of x (with rounding slack) */
	size_t lvl = 0, prev_lvl = 0, prev_end = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && v[i].depth != v[i - 1].depth) {
			prev_lvl = lvl;
			prev_end = i;
			lvl = i;
		}
		v[i].parent = UINT32_MAX;
		if (v[i].depth == 0 || v[prev_lvl].depth + 1 != v[i].depth)
			continue;
		size_t lo = prev_lvl, hi = prev_end; /* [lo, hi): level above, by x */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (v[mid].x <= v[i].x + 0.05)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo > prev_lvl && v[i].x < v[lo - 1].x + v[lo - 1].w + 0.05) {
			v[i].parent = (uint32_t)(lo - 1);
			add_sat(&v[lo - 1].child[0], v[i].mant[0]);
			add_sat(&v[lo - 1].child[1], v[i].mant[1]);
		}
	}
stacks:;
	/* stacks: root-first names of each frame with a self count */
	uint32_t *ids = malloc((n + 1) * sizeof *ids);
	if (!ids)
		return flame__err_nomem(s->err);
	/* depth first: the path to a frame is the last frame seen at each shallower depth */
	int by_path = preorder && !s->reverse;
	for (size_t i = 0; i < n && !rc; i++) {
		if (v[i].depth == 0)
			continue;
		if (by_path)
			ids[v[i].depth - 1] = v[i].name;
		uint64_t self[2];
		for (int c = 0; c < 2; c++)
			self[c] = v[i].mant[c] > v[i].child[c] ? v[i].mant[c] - v[i].child[c] : 0;
		if (!self[0] && !self[1])
			continue;
		if (by_path) {
			rc = flame__sink_add(&s->k, ids, v[i].depth, self[0], s->differential ? self[1] : 0,
			                         s->err);
			continue;
		}
		size_t k = 0;
		int rooted = 1;
		for (size_t j = i; v[j].depth > 0; j = v[j].parent) {
			if (v[j].parent == UINT32_MAX) {
				rooted = 0;
				break;
			}
			ids[k++] = v[j].name;
		}
		if (!rooted) {
			flame__warn(s->o->warn, s->o->warn_ud, "svg-orphan-frame", s->src, 0,
			            "a frame lies under no frame of the level below it; skipped");
			continue;
		}
		/* the chain is leaf-first; a --reverse picture drew stacks leaf-first already */
		for (size_t a = 0, b = k - 1; !s->reverse && a < b; a++, b--) {
			uint32_t x = ids[a];
			ids[a] = ids[b];
			ids[b] = x;
		}
		rc = flame__sink_add(&s->k, ids, k, self[0], s->differential ? self[1] : 0, s->err);
	}
	free(ids);
	if (!rc && s->differential)
		flame__sink_set_differential(&s->k);
	if (!rc && s->count_name[0])
		rc = flame__sink_units(&s->k, s->count_name, NULL, s->src, s->err);
	return rc;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	svgr s = {.o = o, .in = in, .src = flame_input_name(in), .err = err};
	flame__sink_init(&s.k, t);
	const char *head;
	long got = flame__input_peek(in, &head, 4096, err);
	if (got < 0)
		return (int)got;
	if (got == 0) /* libxml2 would say "Extra content at the end of the document" */
		return flame__err(err, FLAME_EDATA, s.src, 0, FLAME__NO_OFFSET,
		                  "empty file: no SVG document");
	int rc = read_frames(&s);
	if (!rc && s.n == 0)
		rc = flame__err(err, FLAME_EDATA, s.src, 0, FLAME__NO_OFFSET,
		                "no flame graph frames (<g><title>NAME (COUNT ...)</title><rect/></g>)");
	if (!rc)
		rc = build(&s);
	free(s.v);
	free(s.pruned);
	free(s.dec_buf);
	return rc;
}

static size_t skip_space(const char *buf, size_t i, size_t len)
{
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	return i;
}

/* Past the XML prolog (declaration, comments, processing instructions, a DOCTYPE with its
 * internal subset) from i: the index of the root element's '<'; len when the window ends
 * inside the prolog (*svg_doctype says whether a DOCTYPE named svg was seen); SIZE_MAX when
 * what is there is no prolog. */
static size_t skip_prolog(const char *buf, size_t i, size_t len, int *svg_doctype)
{
	for (;;) {
		i = skip_space(buf, i, len);
		if (i >= len)
			return len;
		const char *p = buf + i, *e;
		size_t n = len - i;
		if (n >= 4 && memcmp(p, "<!--", 4) == 0) {
			e = memmem(p + 4, n - 4, "-->", 3);
			if (!e)
				return len;
			i = (size_t)(e + 3 - buf);
		} else if (n >= 2 && memcmp(p, "<?", 2) == 0) {
			e = memmem(p + 2, n - 2, "?>", 2);
			if (!e)
				return len;
			i = (size_t)(e + 2 - buf);
		} else if (n >= 9 && memcmp(p, "<!DOCTYPE", 9) == 0) {
			size_t j = skip_space(buf, i + 9, len);
			*svg_doctype |= len - j >= 4 && memcmp(buf + j, "svg", 3) == 0 &&
			                memchr(" \n\r\t[>", buf[j + 3], 6) != NULL;
			int sub = 0; /* inside [...]: its declarations hold quoted '>' and comments */
			char q = 0;
			for (j = i + 9; j < len; j++) {
				char c = buf[j];
				if (q) {
					q = c == q ? 0 : q;
				} else if (sub && len - j >= 4 && memcmp(buf + j, "<!--", 4) == 0) {
					e = memmem(buf + j + 4, len - j - 4, "-->", 3);
					if (!e)
						return len;
					j = (size_t)(e + 2 - buf);
				} else if (c == '"' || c == '\'') {
					q = c;
				} else if (c == '[') {
					sub = 1;
				} else if (c == ']') {
					sub = 0;
				} else if (c == '>' && !sub) {
					break;
				}
			}
			if (j >= len)
				return len;
			i = j + 1;
		} else {
			return *p == '<' ? i : SIZE_MAX;
		}
	}
}

/* An XML document whose root element is <svg>: within the first 4 KiB, or after a prolog
 * (comments, a DOCTYPE with entities...) of any length the window holds, or when the window
 * ends inside a prolog whose DOCTYPE names svg. */
static int probe(const char *buf, size_t len)
{
	size_t i = 0;
	if (len >= 3 && (unsigned char)buf[0] == 0xef && (unsigned char)buf[1] == 0xbb &&
	    (unsigned char)buf[2] == 0xbf)
		i = 3;
	i = skip_space(buf, i, len);
	if (i >= len || buf[i] != '<')
		return 0;
	size_t lim = len < i + 4096 ? len : i + 4096;
	if (memmem(buf + i, lim - i, "<svg", 4) != NULL)
		return 1;
	int svg_doctype = 0;
	size_t r = skip_prolog(buf, i, len, &svg_doctype);
	if (r == len)
		return svg_doctype;
	return r != SIZE_MAX && len - r >= 5 && memcmp(buf + r, "<svg", 4) == 0 &&
	       memchr(" \n\r\t>", buf[r + 4], 5) != NULL;
}

const struct flame__parser flame__parser_svg = {"svg", FLAME_FORMAT_SVG, probe, parse};
