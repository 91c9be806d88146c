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
 * gives its name. Exact when nothing was pruned by --minwidth and names carry no _[k]
 * style annotation (titles drop those); otherwise as exact as the picture is: a pruned
 * frame's weight stays in its parent's self (pruned top-level stacks are lost, as folded
 * text has no place for the root's self).
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
	uint32_t name;
	int has_count;
	uint64_t mant[2];      /* total count(s) as decimal mantissas at `dec` decimals */
	unsigned dec;
	double x, y, w, h;
	uint32_t depth, parent;
	uint64_t child[2];     /* children's totals, in the common scale */
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
	char count_name[64];
} svgr;

/* `1,234.5` -> mantissa and decimals; -1 when not a count. */
static int count_at(const char *p, const char **end, uint64_t *mant, unsigned *dec)
{
	uint64_t v = 0;
	unsigned d = 0;
	int dot = 0, digits = 0;
	for (;; p++) {
		if (*p >= '0' && *p <= '9') {
			if (v > (UINT64_MAX - 9) / 10 || (dot && d >= 9))
				return -1;
			v = v * 10 + (uint64_t)(*p - '0');
			d += (unsigned)dot;
			digits++;
		} else if (*p == ',' && !dot && digits && p[1] >= '0' && p[1] <= '9') {
			continue;
		} else if (*p == '.' && !dot && digits && p[1] >= '0' && p[1] <= '9') {
			dot = 1;
		} else {
			break;
		}
	}
	if (!digits)
		return -1;
	*end = p;
	*mant = v;
	*dec = d;
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
	for (size_t i = n - 1; i-- > 1;) {
		if (t[i] != '(' || t[i - 1] != ' ')
			continue;
		const char *e;
		uint64_t m;
		unsigned d;
		if (count_at(t + i + 1, &e, &m, &d) || *e != ' ')
			continue;
		const char *cn = e + 1, *ce = strchr(cn, ',');
		if (!ce)
			continue;
		*name_len = i - 1;
		f->has_count = 1;
		f->mant[0] = f->mant[1] = m;
		f->dec = d;
		if (!s->count_name[0] && (size_t)(ce - cn) < sizeof s->count_name) {
			memcpy(s->count_name, cn, (size_t)(ce - cn));
			s->count_name[ce - cn] = '\0';
		}
		const char *b = strstr(ce, "; before ");
		uint64_t bm, am;
		unsigned bd, ad;
		const char *be, *ae;
		if (b && count_at(b + 9, &be, &bm, &bd) == 0 && strncmp(be, ", after ", 8) == 0 &&
		    count_at(be + 8, &ae, &am, &ad) == 0) {
			s->differential = 1;
			unsigned dd = bd > ad ? bd : ad;
			if ((bm == 0 || bm <= UINT64_MAX / flame__pow10[dd - bd]) &&
			    (am == 0 || am <= UINT64_MAX / flame__pow10[dd - ad])) {
				f->mant[0] = bm * flame__pow10[dd - bd];
				f->mant[1] = am * flame__pow10[dd - ad];
				f->dec = dd;
			}
		}
		return;
	}
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
		size_t cap = s->cap ? s->cap * 2 : 1024;
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

/* A frame from a title and its rect's attributes. */
static int title_rect(svgr *s, const char *title, const frame *geom, const char *data_name)
{
	frame f = *geom;
	size_t nn;
	parse_title(s, title, strlen(title), &f, &nn);
	if (data_name)
		return add_frame(s, data_name, strlen(data_name), &f);
	return add_frame(s, title, nn, &f);
}

/* ---- SAX: libxml2 calls these as it reads; no document tree is built ---- */

typedef struct sax {
	svgr *s;
	int depth;            /* of the current element */
	int skip;             /* depth of a label/script/style subtree being skipped, or 0 */
	char *t;              /* title text (NUL-terminated) */
	size_t tlen, tcap;
	int in_title, title_el_depth;
	int have_title, title_depth; /* a closed title waiting for its sibling rect */
	frame rect;           /* a rect waiting for its child title */
	int rect_depth;       /* -1: none */
	char *rect_name, *g_name; /* data-name of that rect / of the enclosing g or a */
} sax;

static void fail(sax *x, xmlParserCtxtPtr ctxt, int rc)
{
	if (!x->s->rc)
		x->s->rc = rc;
	xmlStopParser(ctxt);
}

static char *dup_range(const xmlChar *p, const xmlChar *e)
{
	size_t n = (size_t)(e - p);
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
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
	const char *el = (const char *)name;
	/* first byte before strcmp: most elements and attributes are not ours */
	if ((el[0] == 't' && strcmp(el, "text") == 0) || (el[0] == 's' && (strcmp(el, "script") == 0 ||
	                                                                  strcmp(el, "style") == 0))) {
		x->skip = x->depth;
	} else if (el[0] == 't' && strcmp(el, "title") == 0) {
		x->in_title = 1;
		x->title_el_depth = x->depth;
		x->tlen = 0;
	} else if (((el[0] == 'g' || el[0] == 'a') && !el[1]) || (el[0] == 'r' && strcmp(el, "rect") == 0)) {
		int is_rect = el[0] == 'r';
		frame f;
		memset(&f, 0, sizeof f);
		int have = 0;
		char *dn = NULL;
		for (int i = 0; i < nattr; i++) {
			const char *k = (const char *)attr[5 * i];
			const char *v = (const char *)attr[5 * i + 3], *e = (const char *)attr[5 * i + 4];
			if (k[0] == 'd' && strcmp(k, "data-name") == 0) {
				free(dn);
				dn = dup_range(attr[5 * i + 3], attr[5 * i + 4]);
				if (!dn)
					return fail(x, ctxt, flame__err_nomem(x->s->err));
			} else if (is_rect) {
				double *dst = NULL;
				int bit = 0;
				if (k[0] == 'x' && !k[1])
					dst = &f.x, bit = 1;
				else if (k[0] == 'y' && !k[1])
					dst = &f.y, bit = 2;
				else if (k[0] == 'w' && strcmp(k, "width") == 0)
					dst = &f.w, bit = 4;
				else if (k[0] == 'h' && strcmp(k, "height") == 0)
					dst = &f.h, bit = 8;
				if (dst && num(v, e, dst) == 0)
					have |= bit;
			}
		}
		if (!is_rect) {
			free(x->g_name);
			x->g_name = dn;
			return;
		}
		if (x->have_title && x->depth == x->title_depth) {
			x->have_title = 0;
			int rc = have == 15 ? title_rect(x->s, x->t, &f, dn ? dn : x->g_name) : 0;
			free(dn);
			if (rc)
				fail(x, ctxt, rc);
		} else if (have == 15) {
			x->rect = f;
			x->rect_depth = x->depth;
			free(x->rect_name);
			x->rect_name = dn;
		} else {
			free(dn);
		}
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
			int rc = title_rect(x->s, x->t ? x->t : "", &x->rect,
			                    x->rect_name ? x->rect_name : x->g_name);
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
	if (x->tlen + (size_t)len + 1 > x->tcap) {
		size_t cap = (x->tlen + (size_t)len + 1) * 2;
		char *t = realloc(x->t, cap);
		if (!t)
			return fail(x, ctxt, flame__err_nomem(x->s->err));
		x->t = t;
		x->tcap = cap;
	}
	memcpy(x->t + x->tlen, ch, (size_t)len);
	x->tlen += (size_t)len;
	x->t[x->tlen] = '\0';
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
	free(x.t);
	free(x.rect_name);
	free(x.g_name);
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
	if (dec > s->t->scale && flame__tree_rescale(s->t, dec, s->err))
		return flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
		                  "rescaled counts overflow 64 bits");
	unsigned scale = s->t->scale;
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
		f->dec = scale;
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
	int rc = 0;
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
		for (size_t a = 0, b = k - 1; a < b; a++, b--) {
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
