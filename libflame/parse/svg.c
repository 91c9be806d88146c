/* Flame graph SVG reader (flamegraph.pl, inferno, flame-render): frames back into stacks.
 *
 * Example input:                                              Example output:
 *   <g><title>all (12 samples, 100%)</title><rect x="10" y="49" width="1180" .../></g>
 *   <g><title>main (12 samples, 100.00%)</title><rect x="10" y="33" .../></g>   main 2
 *   <g><title>work (10 samples, 83.33%)</title><rect x="10" y="17" .../></g>    main;work 10
 *
 * A <title> with a sibling <rect> in a <g>/<a>, or inside a <rect>, is a frame: name and count
 * from the title ("NAME (COUNT COUNTNAME, PCT%...)", commas allowed; differential titles
 * "...; before B, after A)" give both columns), depth from the rect's y. The parent is
 * the last frame one level closer to the root when the document is depth-first (as
 * flame-render writes it: exact however narrow the frames), else the frame whose x-range
 * holds it (flamegraph.pl writes in hash order). Self = total - children. A frame
 * whose title holds no count (a --nameattr title) gets one from its width; `data-name`
 * gives its name. flame-render's SVGs add what titles cannot carry, so they read back
 * exactly: data-raw (a name, percent-encoded), data-v (counts --factor scaled), and on
 * the root data-pruned (top-level frames --minwidth hid: folded text has no root self)
 * and data-reverse. Others read back as exactly as the picture is: a pruned frame's
 * weight stays in its parent's self; _[k] annotations are lost. Elements marked
 * data-panel (the removed-frames panel of a diff) are not part of the graph.
 * libxml2 (its SAX2 push parser: no tree, bytes streamed from the input) lives here only;
 * external entities and DTDs are never loaded; internal entities expand within libxml2's
 * loop and amplification limits (a billion laughs is an error). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
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
	flame_tree *t;
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

/* `1,234.5` -> mantissa and decimals; -1 when not a count. */
static int count_at(const char *p, const char *end, const char **stop, uint64_t *mant,
                    unsigned *dec)
{
	uint64_t v = 0;
	unsigned d = 0;
	int dot = 0, digits = 0;
	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9') {
			if (v > (UINT64_MAX - 9) / 10 || (dot && d >= 9))
				return -1;
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
 * the last " (" that is followed by one (names may hold " (" themselves). */
static void parse_title(svgr *s, const char *t, size_t n, frame *f, size_t *name_len)
{
	*name_len = n;
	f->has_count = 0;
	if (n < 4 || t[n - 1] != ')')
		return;
	const char *end = t + n;
	for (size_t i = n - 1; i-- > 1;) {
		if (t[i] != '(' || t[i - 1] != ' ')
			continue;
		const char *e;
		uint64_t m;
		unsigned d;
		if (count_at(t + i + 1, end, &e, &m, &d) || e == end || *e != ' ')
			continue;
		const char *cn = e + 1, *ce = memchr(cn, ',', (size_t)(end - cn));
		if (!ce)
			continue;
		*name_len = i - 1;
		f->has_count = 1;
		f->mant[0] = f->mant[1] = m;
		f->dec = (uint8_t)d;
		if (!s->count_name[0] && (size_t)(ce - cn) < sizeof s->count_name) {
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
		return;
	}
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

/* A decimal number as SVG coordinates are written ("10", "737.5"; no exponents). */
static int num(const char *p, const char *end, double *out)
{
	double v = 0, scale = 1;
	int neg = 0, digits = 0, dot = 0;
	while (p < end && *p == ' ')
		p++;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9') {
			if (dot)
				v += (*p - '0') * (scale /= 10);
			else
				v = v * 10 + (*p - '0');
			digits++;
		} else if (*p == '.' && !dot) {
			dot = 1;
		} else {
			break;
		}
	}
	while (p < end && *p == ' ')
		p++;
	if (!digits || p != end || !isfinite(v))
		return -1;
	*out = neg ? -v : v;
	return 0;
}

static int add_frame(svgr *s, const char *name, size_t nn, const frame *proto)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		frame *v = realloc(s->v, cap * sizeof *v);
		if (!v)
			return flame__err_nomem(s->err);
		s->v = v;
		s->cap = cap;
	}
	frame *f = &s->v[s->n];
	*f = *proto;
	f->name = flame__tree_intern(s->t, name, nn);
	if (f->name == FLAME__ID_NONE)
		return flame__err_nomem(s->err);
	s->n++;
	return 0;
}

/* ---- SAX: libxml2 calls these as it reads; no document tree is built ---- */

/* Element and attribute names we look for, as libxml2's dictionary pointers: SAX2 hands
 * every name over interned in the parser's dictionary, so a match is one comparison. */
enum { K_RECT, K_TITLE, K_G, K_A, K_TEXT, K_SCRIPT, K_STYLE, K_X, K_Y, K_WIDTH, K_HEIGHT,
       K_DNAME, K_DRAW, K_DV, K_DPRUNED, K_DREVERSE, K_DPANEL, K_COUNT };
static const char *const key_names[K_COUNT] = {
    "rect", "title", "g", "a", "text", "script", "style", "x", "y", "width", "height",
    "data-name", "data-raw", "data-v", "data-pruned", "data-reverse", "data-panel"};

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
} sax;

static void fail(sax *x, xmlParserCtxtPtr ctxt, int rc)
{
	if (!x->s->rc)
		x->s->rc = rc;
	xmlStopParser(ctxt);
}

/* A frame from a title and its rect's attributes (exact data first: data-v, data-raw). */
static int title_rect(sax *x, const char *title, size_t tn, const frame *geom, const sbuf *name,
                      const sbuf *raw, const sbuf *v)
{
	svgr *s = x->s;
	frame f = *geom;
	size_t nn;
	parse_title(s, title, tn, &f, &nn);
	if (v->set)
		exact_counts(s, v->p, v->n, &f);
	if (raw->set) {
		size_t dn;
		int rc = pct_decode(s, raw->p, raw->n, &dn);
		return rc ? rc : add_frame(s, s->dec_buf, dn, &f);
	}
	if (name->set)
		return add_frame(s, name->p, name->n, &f);
	return add_frame(s, title, nn, &f);
}

static void on_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                     int nns, const xmlChar **ns, int nattr, int ndef, const xmlChar **attr)
{
	xmlParserCtxtPtr ctxt = ctx;
	sax *x = ctxt->_private;
	(void)prefix, (void)uri, (void)nns, (void)ns, (void)ndef;
	x->depth++;
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
		x->rect_raw.set = x->rect_v.set = 0;
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
		} else if (!is_rect) {
			if (a == k[K_DPANEL])
				x->skip = x->depth;
		} else if (a == k[K_DRAW]) {
			dst = &x->rect_raw;
		} else if (a == k[K_DV]) {
			dst = &x->rect_v;
		} else if (a == k[K_DPRUNED]) {
			free(x->s->pruned);
			if (!(x->s->pruned = strndup(v, (size_t)(e - v))))
				return fail(x, ctxt, flame__err_nomem(x->s->err));
		} else if (a == k[K_DREVERSE]) {
			x->s->reverse = e > v && *v == '1';
		} else if (a == k[K_DPANEL]) {
			x->skip = x->depth;
		}
		if (dst && sbuf_set(dst, v, (size_t)(e - v)))
			return fail(x, ctxt, flame__err_nomem(x->s->err));
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
	if (d == x->rect_depth)
		x->rect_depth = -1;
}

static void on_text(void *ctx, const xmlChar *ch, int len)
{
	xmlParserCtxtPtr ctxt = ctx;
	sax *x = ctxt->_private;
	if (!x->in_title || x->skip || len <= 0)
		return;
	sbuf *t = &x->t;
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
	h.ignorableWhitespace = NULL;
	h.reference = NULL;
	h.processingInstruction = NULL;
	h.comment = NULL;
	h.warning = NULL;
	h.error = NULL;
	h.fatalError = NULL;
	h.serror = NULL;
	sax x = {.s = s, .rect_depth = -1};
	enum { CHUNK = 1 << 18 };
	char *buf = malloc(CHUNK);
	if (!buf)
		return flame__err_nomem(s->err);
	long n = flame__input_read(s->in, buf, CHUNK, s->err);
	if (n < 0) {
		free(buf);
		return (int)n;
	}
	xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&h, NULL, buf, (int)n, s->src);
	if (!ctxt) {
		free(buf);
		return flame__err_nomem(s->err);
	}
	ctxt->_private = &x;
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
	                            XML_PARSE_NOBLANKS | XML_PARSE_COMPACT);
	for (int i = 0; i < K_COUNT; i++)
		if (!(x.k[i] = xmlDictLookup(ctxt->dict, (const xmlChar *)key_names[i], -1)))
			s->rc = flame__err_nomem(s->err);
	int xrc = 0;
	while (n > 0 && !s->rc && !xrc) {
		if ((n = flame__input_read(s->in, buf, CHUNK, s->err)) < 0) {
			s->rc = (int)n;
			break;
		}
		xrc = xmlParseChunk(ctxt, buf, (int)n, n == 0);
	}
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
	free(x.t.p);
	free(x.rect_name.p);
	free(x.rect_raw.p);
	free(x.rect_v.p);
	free(x.g_name.p);
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
		if (!rc && (pr.name = flame__tree_intern(s->t, s->dec_buf, dn)) == FLAME__ID_NONE)
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

/* Frames -> tree: depths, parents, self counts, stacks. */
static int build(svgr *s)
{
	frame *v = s->v;
	size_t n = s->n;
	/* the root: "all", the widest; the graph grows away from it */
	size_t root = 0;
	for (size_t i = 1; i < n; i++)
		if (v[i].w > v[root].w)
			root = i;
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
	if (dec > s->t->scale && flame__tree_rescale(s->t, dec, s->err)) {
		free(pv);
		return flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
		                  "rescaled counts overflow 64 bits");
	}
	unsigned scale = s->t->scale;
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
			rc = flame__tree_add_ids(s->t, &pv[i].name, 1, w[0], s->differential ? w[1] : 0,
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
	for (size_t i = 0; i < n && !rc; i++) {
		if (v[i].depth == 0)
			continue;
		uint64_t self[2];
		for (int c = 0; c < 2; c++)
			self[c] = v[i].mant[c] > v[i].child[c] ? v[i].mant[c] - v[i].child[c] : 0;
		if (!self[0] && !self[1])
			continue;
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
		rc = flame__tree_add_ids(s->t, ids, k, self[0], s->differential ? self[1] : 0, s->err);
	}
	free(ids);
	if (!rc && s->differential)
		s->t->differential = 1;
	if (!rc && s->count_name[0])
		rc = flame_tree_set_count_name(s->t, s->count_name) ? flame__err_nomem(s->err) : 0;
	return rc;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	svgr s = {.t = t, .o = o, .in = in, .src = flame_input_name(in), .err = err};
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

/* An XML document whose root element is <svg> (within the first bytes). */
static int probe(const char *buf, size_t len)
{
	size_t i = 0;
	if (len >= 3 && (unsigned char)buf[0] == 0xef && (unsigned char)buf[1] == 0xbb &&
	    (unsigned char)buf[2] == 0xbf)
		i = 3;
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	if (i >= len || buf[i] != '<')
		return 0;
	size_t lim = len < i + 4096 ? len : i + 4096;
	return memmem(buf + i, lim - i, "<svg", 4) != NULL;
}

const struct flame__parser flame__parser_svg = {"svg", FLAME_FORMAT_SVG, probe, parse};
