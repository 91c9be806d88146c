/* The SVG reader's XML reader for the whole document (parse/svg.h): libxml2's SAX2 push
 * parser, whose callbacks see each element, attribute and text as it is read (no document
 * tree is built). A <title> with a sibling <rect> in a <g>/<a>, or inside a <rect>, is a
 * frame; so is a <rect> with no title whose onmouseover="s('TEXT')", or its g's, holds the
 * text (the oldest flamegraph.pl form). Labels, scripts, styles and data-panel subtrees
 * are skipped. svg.c feeds it the bytes the fast path (svg-fast.c) does not take; each
 * frame goes to svg-frame.c. External entities and DTDs are never loaded; internal
 * entities expand within libxml2's loop and amplification limits and ours (on_text). */
#include <stdlib.h>
#include <string.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include "svg.h"

/* Element and attribute names we look for, as libxml2's dictionary pointers: SAX2 hands
 * every name over interned in the parser's dictionary, so a match is one comparison. */
enum { K_RECT, K_TITLE, K_G, K_A, K_TEXT, K_SCRIPT, K_STYLE, K_X, K_Y, K_WIDTH, K_HEIGHT,
       K_DNAME, K_DRAW, K_DV, K_DPRUNED, K_DREVERSE, K_DPANEL, K_ID, K_MOUSEOVER, K_DUNIT,
       K_COUNT };
_Static_assert((int)K_COUNT == (int)FLAME__SVG_KEYS, "svg.h sizes the keys");
static const char *const key_names[K_COUNT] = {
    "rect", "title", "g", "a", "text", "script", "style", "x", "y", "width", "height",
    "data-name", "data-raw", "data-v", "data-pruned", "data-reverse", "data-panel", "id",
    "onmouseover", "data-unit"};

uint64_t flame__svg_line(const flame__svg_sax *x)
{
	return (uint64_t)xmlSAX2GetLineNumber(x->doc) + x->pending;
}

static void fail(flame__svg_sax *x, xmlParserCtxtPtr ctxt, int rc)
{
	if (!x->s->rc)
		x->s->rc = rc;
	xmlStopParser(ctxt);
	if (x->doc && x->doc != ctxt)
		xmlStopParser(x->doc);
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

/* onmouseover="s('INFO')": INFO unescaped (old flamegraph.pl did not escape quotes) is the
 * title of the rect, or of the g or a it sits in. 0, or -1 when out of memory. */
static int mouseover(flame__svg_sax *x, int is_rect, const char *v, const char *e)
{
	size_t len = (size_t)(e - v);
	if (len < 5 || memcmp(v, "s('", 3) != 0 || memcmp(e - 2, "')", 2) != 0)
		return 0;
	flame__sbuf *mo = is_rect ? &x->rect_mo : &x->g_mo;
	if (flame__sbuf_set(mo, v + 3, len - 5))
		return -1;
	mo->n = amp(mo->p, mo->n);
	if (!is_rect)
		x->g_mo_depth = x->depth;
	return 0;
}

/* The root's data-pruned, data-reverse and data-unit (any rect may carry them; flame-render
 * writes them on the root). 0, or -1 when out of memory. */
static int root_attr(flame__svg_sax *x, const xmlChar *a, const char *v, const char *e)
{
	const xmlChar *const *k = x->k;
	if (a == k[K_DPRUNED]) {
		free(x->s->pruned);
		if (!(x->s->pruned = strndup(v, (size_t)(e - v))))
			return -1;
		amp(x->s->pruned, strlen(x->s->pruned));
	} else if (a == k[K_DREVERSE]) {
		x->s->reverse = e > v && *v == '1';
	} else if (a == k[K_DUNIT]) {
		return flame__svg_unit_attr(x->s, v, (size_t)(e - v)) ? -1 : 0;
	}
	return 0;
}

/* One attribute a="v..e" of a g, a or rect (element `el`): the geometry into f (a bit in
 * *have for each of x, y, width, height), the names and counts kept for the frame.
 * 0, or -1 when out of memory. */
static int attr_one(flame__svg_sax *x, const xmlChar *el, int is_rect, const xmlChar *a,
                    const char *v, const char *e, flame__svg_frame *f, int *have)
{
	const xmlChar *const *k = x->k;
	flame__sbuf *dst = NULL;
	double h;
	if (a == k[K_X]) {
		*have |= flame__svg_num(v, e, &f->x) == 0 ? 1 : 0;
	} else if (a == k[K_Y]) {
		*have |= flame__svg_num(v, e, &f->y) == 0 ? 2 : 0;
	} else if (a == k[K_WIDTH]) {
		*have |= flame__svg_num(v, e, &f->w) == 0 ? 4 : 0;
	} else if (a == k[K_HEIGHT]) {
		*have |= flame__svg_num(v, e, &h) == 0 ? 8 : 0;
	} else if (a == k[K_DNAME]) {
		dst = is_rect ? &x->rect_name : &x->g_name;
	} else if (a == k[K_MOUSEOVER]) {
		return mouseover(x, is_rect, v, e);
	} else if (a == k[K_DPANEL]) {
		x->skip = x->depth;
	} else if (!is_rect) {
		if (a == k[K_ID] && el == k[K_G] && e - v == 2 && v[0] == 'f' && v[1] == 'r')
			x->fr_last = 1;
	} else if (a == k[K_DRAW]) {
		dst = &x->rect_raw;
	} else if (a == k[K_DV]) {
		dst = &x->rect_v;
	} else {
		return root_attr(x, a, v, e);
	}
	if (dst && flame__sbuf_set(dst, v, (size_t)(e - v)))
		return -1;
	if (dst)
		dst->n = amp(dst->p, dst->n);
	return 0;
}

/* A rect with all its geometry (`have` 15): the frame of the title just closed beside it,
 * or one that waits for the title inside it. */
static void rect_start(flame__svg_sax *x, xmlParserCtxtPtr ctxt, const flame__svg_frame *f,
                       int have)
{
	if (x->have_title && x->depth == x->title_depth) {
		x->have_title = 0;
		int rc = have == 15 ? flame__svg_title_rect(x, x->t.p, x->t.n, f) : 0;
		if (rc)
			fail(x, ctxt, rc);
	} else if (have == 15) {
		x->rect = *f;
		x->rect_depth = x->depth;
	}
}

static void on_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                     int nns, const xmlChar **ns, int nattr, int ndef, const xmlChar **attr)
{
	xmlParserCtxtPtr ctxt = ctx;
	flame__svg_sax *x = ctxt->_private;
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
	flame__svg_frame f;
	memset(&f, 0, sizeof f);
	int have = 0;
	/* a rect that will wait for its title keeps these; one that completes a title
	 * before it uses them at once */
	if (is_rect)
		x->rect_name.set = x->rect_raw.set = x->rect_v.set = x->rect_mo.set = 0;
	else
		x->g_name.set = x->g_mo.set = 0;
	for (int i = 0; i < nattr; i++) {
		if (attr_one(x, name, is_rect, attr[5 * i], (const char *)attr[5 * i + 3],
		             (const char *)attr[5 * i + 4], &f, &have)) {
			fail(x, ctxt, flame__err_nomem(x->s->err));
			return;
		}
	}
	if (is_rect && !x->skip)
		rect_start(x, ctxt, &f, have);
}

static void on_end(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri)
{
	xmlParserCtxtPtr ctxt = ctx;
	flame__svg_sax *x = ctxt->_private;
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
			int rc = flame__svg_title_rect(x, x->t.p ? x->t.p : "", x->t.n, &x->rect);
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
		const flame__sbuf *mo = x->rect_mo.set                                      ? &x->rect_mo
		                        : x->g_mo.set && x->g_mo_depth == x->rect_depth - 1 ? &x->g_mo
		                                                                            : NULL;
		x->rect_depth = -1;
		int rc = mo ? flame__svg_title_rect(x, mo->p, mo->n, &x->rect) : 0;
		if (rc)
			fail(x, ctxt, rc);
	}
}

enum { TEXT_AMPLIFICATION = 16, TEXT_SLACK = 64 << 20 };

static void on_text(void *ctx, const xmlChar *ch, int len)
{
	xmlParserCtxtPtr ctxt = ctx;
	flame__svg_sax *x = ctxt->_private;
	flame__svg *s = x->s;
	x->fr_last = 0;
	if (len <= 0 || s->rc)
		return;
	/* libxml2 2.9 bounds the depth of entities, not how often one is used: text that
	 * outgrows what was read many times over comes from expansion, and stops here */
	x->text += (uint64_t)len;
	if (x->text > TEXT_SLACK + TEXT_AMPLIFICATION * flame__input_offset(s->in)) {
		fail(x, ctxt, flame__err(s->err, FLAME_ERANGE, s->src, flame__svg_line(x),
		                         FLAME__NO_OFFSET,
		                         "entities expand to more than %d times the input's size",
		                         TEXT_AMPLIFICATION));
		return;
	}
	if (!x->in_title || x->skip)
		return;
	flame__sbuf *t = &x->t;
	if (t->n + (size_t)len > FLAME__SVG_NAME_MAX) {
		fail(x, ctxt, flame__err(s->err, FLAME_ERANGE, s->src, flame__svg_line(x),
		                         FLAME__NO_OFFSET, "a title longer than %d bytes (entities expanded)",
		                         FLAME__SVG_NAME_MAX));
		return;
	}
	if (flame__sbuf_reserve(t, t->n + (size_t)len + 1)) {
		fail(x, ctxt, flame__err_nomem(s->err));
		return;
	}
	memcpy(t->p + t->n, ch, (size_t)len);
	t->n += (size_t)len;
	t->p[t->n] = '\0';
}

static void on_decl_entity(void *ctx, const xmlChar *name, int type, const xmlChar *pub,
                           const xmlChar *sys, xmlChar *content)
{
	xmlParserCtxtPtr ctxt = ctx;
	((flame__svg_sax *)ctxt->_private)->decls = 1;
	xmlSAX2EntityDecl(ctx, name, type, pub, sys, content);
}

/* An entity referenced in a title whose text is not in the document (declared SYSTEM or
 * PUBLIC, which is never loaded, or not declared at all, as for one an external DTD would
 * declare) would drop out of the name and leave it shorter or empty: refused instead. */
static xmlEntityPtr on_get_entity(void *ctx, const xmlChar *name)
{
	xmlParserCtxtPtr ctxt = ctx;
	flame__svg_sax *x = ctxt->_private;
	xmlEntityPtr e = xmlSAX2GetEntity(ctx, name);
	if (x->in_title && !x->skip && !x->s->rc && (!e || e->etype != XML_INTERNAL_GENERAL_ENTITY))
		fail(x, ctxt,
		     flame__err(x->s->err, FLAME_EDATA, x->s->src, flame__svg_line(x), FLAME__NO_OFFSET,
		                "entity &%.64s; in a frame's title %s", (const char *)name,
		                e ? "is external (never loaded)" : "is not declared in the document"));
	return e;
}

static void on_decl_attr(void *ctx, const xmlChar *elem, const xmlChar *name, int type, int def,
                         const xmlChar *dflt, xmlEnumerationPtr tree)
{
	xmlParserCtxtPtr ctxt = ctx;
	((flame__svg_sax *)ctxt->_private)->decls = 1;
	xmlSAX2AttributeDecl(ctx, elem, name, type, def, dflt, tree);
}

xmlParserCtxtPtr flame__svg_sax_open(flame__svg_sax *x)
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
	xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&h, NULL, NULL, 0, x->s->src);
	if (!ctxt)
		return NULL;
	ctxt->_private = x;
	x->doc = ctxt;
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
	                            XML_PARSE_NOBLANKS | XML_PARSE_COMPACT);
	for (int i = 0; i < K_COUNT; i++)
		if (!(x->k[i] = xmlDictLookup(ctxt->dict, (const xmlChar *)key_names[i], -1)))
			x->s->rc = flame__err_nomem(x->s->err);
	return ctxt;
}

void flame__svg_sax_close(flame__svg_sax *x, xmlParserCtxtPtr ctxt)
{
	if (ctxt && ctxt->myDoc)
		xmlFreeDoc(ctxt->myDoc);
	if (ctxt)
		xmlFreeParserCtxt(ctxt);
	flame__sbuf *bufs[] = {&x->t, &x->rect_name, &x->rect_raw, &x->rect_v, &x->g_name,
	                       &x->rect_mo, &x->g_mo};
	for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
		free(bufs[i]->p);
}
