/* Flame graph SVG reader (flamegraph.pl, inferno, flame-render): frames back into stacks.
 * This file detects an SVG, reads it in blocks and deals them out to the two XML readers;
 * the rest is in parse/svg.h's files.
 *
 * Example input:                                              Example output:
 *   <g><title>all (12 samples, 100%)</title><rect x="10" y="49" width="1180" .../></g>
 *   <g><title>main (12 samples, 100.00%)</title><rect x="10" y="33" .../></g>   main 2
 *   <g><title>work (10 samples, 83.33%)</title><rect x="10" y="17" .../></g>    main;work 10
 *
 * A <title> with a sibling <rect> in a <g>/<a>, or inside a <rect>, is a frame (so is a
 * <rect> with no title whose onmouseover="s('TEXT')", or its g's, holds the text: the
 * oldest flamegraph.pl form); svg-sax.c finds them with libxml2's SAX2 push parser (no
 * tree, bytes streamed from the input), and inside flame-render's <g id="fr"> svg-fast.c
 * reads frame lines of the exact form it writes. Name and count come from the title
 * ("NAME (COUNT COUNTNAME, PCT%...)": svg-frame.c), depth from the rect's y, parents from
 * the document's order or the geometry (svg-build.c). flame-render's SVGs add what titles
 * cannot carry, so they read back exactly: data-raw (a name, percent-encoded), data-v
 * (counts --factor scaled or titles printing time and bytes for people), and on the root
 * data-pruned (top-level frames --minwidth hid: folded text has no root self),
 * data-reverse and data-unit. Others read back as exactly as the picture is: a pruned
 * frame's weight stays in its parent's self (a hidden top-level frame's in the root's,
 * which comes back as a one-frame stack named as the root); _[k] annotations are lost. Elements marked
 * data-panel (the removed-frames panel of a diff) are not part of the graph. External
 * entities and DTDs are never loaded; internal entities expand within libxml2's loop and
 * amplification limits (a billion laughs is an error). */
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include "svg.h"

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

/* The document in blocks, dealt out to the readers: libxml2 until flame-render's
 * <g id="fr"> start tag (SEARCH), the fast path for the frame lines after it (FAST), libxml2
 * for the rest (PLAIN). */
enum mode { SEARCH, FAST, PLAIN };
enum { CHUNK = 1 << 18, MAX_LINE = 1 << 26 };

typedef struct reader {
	flame__svg *s;
	flame__svg_sax x;
	xmlParserCtxtPtr ctxt;
	char *buf;
	size_t cap, have, off; /* buf holds `have` bytes; those before `off` are read */
	flame__sbuf val;       /* the fast path's attribute values */
	enum mode mode;
	int xrc, eof;          /* libxml2's last status; the input has ended */
} reader;

static const char fr[] = "<g id=\"fr\"";

/* Drop what is read, make room for a long frame line, read more: 0, or -1 (s->rc set). */
static int fill(reader *r)
{
	if (r->off) { /* everything before off is read (by libxml2 or the fast path) */
		memmove(r->buf, r->buf + r->off, r->have - r->off);
		r->have -= r->off;
		r->off = 0;
	}
	if (r->have == r->cap) { /* one very long frame line */
		if (r->cap >= MAX_LINE) {
			r->mode = PLAIN;
		} else {
			char *nb = realloc(r->buf, r->cap * 2);
			if (!nb) {
				r->s->rc = flame__err_nomem(r->s->err);
				return -1;
			}
			r->buf = nb;
			r->cap *= 2;
		}
	}
	long n = r->have < r->cap ? flame__input_read(r->s->in, r->buf + r->have, r->cap - r->have,
	                                              r->s->err)
	                          : 0;
	if (n < 0) {
		r->s->rc = (int)n;
		return -1;
	}
	r->eof = n == 0 && r->have < r->cap;
	r->have += (size_t)n;
	return 0;
}

/* SEARCH: libxml2 reads up to the end of <g id="fr">'s start tag; the fast path starts if
 * it stopped right there, inside the group, reading UTF-8 with no declarations. */
static void search(reader *r)
{
	xmlParserCtxtPtr ctxt = r->ctxt;
	const char *m = memmem(r->buf, r->have, fr, sizeof fr - 1);
	const char *te = m ? tag_end(m, r->buf + r->have) : NULL;
	if (te) {
		r->off = (size_t)(te + 1 - r->buf);
		r->xrc = feed(ctxt, r->buf, r->off, CHUNK);
		r->mode = !r->xrc && !r->s->rc && r->x.fr_last && !r->x.decls && !r->x.skip &&
		                  ctxt->input && ctxt->input->cur == ctxt->input->end &&
		                  ctxt->input->buf && !ctxt->input->buf->encoder
		              ? FAST
		              : PLAIN;
	} else if (r->eof) {
		r->off = r->have;
		r->xrc = feed(ctxt, r->buf, r->off, CHUNK);
		r->mode = PLAIN;
	} else {
		/* what surely comes before the group goes on; the rest waits for bytes */
		r->off = m ? (size_t)(m - r->buf)
		           : r->have > sizeof fr - 1 ? r->have - (sizeof fr - 1) : 0;
		r->xrc = feed(ctxt, r->buf, r->off, CHUNK);
	}
}

/* FAST: the frame lines the fast path takes; libxml2 gets their newlines. 0, or -1 when
 * the read stops (s->rc set). */
static int fast(reader *r)
{
	size_t used, lines;
	int st = flame__svg_fast_lines(&r->x, r->buf + r->off, r->have - r->off, &used, &lines,
	                               &r->val);
	r->x.pending = 0;
	if (r->s->rc)
		return -1;
	r->off += used;
	if (lines) { /* libxml2 counts the lines it did not see */
		char *nls = malloc(lines);
		if (!nls) {
			r->s->rc = flame__err_nomem(r->s->err);
			return -1;
		}
		memset(nls, '\n', lines);
		r->xrc = xmlParseChunk(r->ctxt, nls, (int)lines, 0);
		free(nls);
	}
	if (st == FLAME__SVG_FAST_HANDOFF || r->eof)
		r->mode = PLAIN;
	return 0;
}

/* libxml2's complaint about a document that is not well-formed, as our error. */
static int not_well_formed(const flame__svg *s, xmlParserCtxtPtr ctxt)
{
	const xmlError *e = xmlCtxtGetLastError(ctxt);
	const char *m = e && e->message ? e->message : "parse error";
	size_t mn = strlen(m);
	while (mn && (m[mn - 1] == '\n' || m[mn - 1] == ' '))
		mn--;
	return flame__err(s->err, FLAME_EDATA, s->src, e && e->line > 0 ? (uint64_t)e->line : 0,
	                  FLAME__NO_OFFSET, "not well-formed XML: %.*s", (int)mn, m);
}

/* Pull every frame out of the document into s->v. */
static int read_frames(flame__svg *s)
{
	reader r = {.s = s, .x = {.s = s, .rect_depth = -1}, .cap = 2 * CHUNK, .mode = SEARCH};
	if (!(r.buf = malloc(r.cap)))
		return flame__err_nomem(s->err);
	if (!(r.ctxt = flame__svg_sax_open(&r.x))) {
		free(r.buf);
		return flame__err_nomem(s->err);
	}
	while (!s->rc && !r.xrc && !r.eof) {
		if (fill(&r))
			break;
		if (r.mode == SEARCH)
			search(&r);
		if (r.mode == FAST && !r.xrc && fast(&r))
			break;
		if (r.mode == PLAIN && !r.xrc && r.have > r.off) {
			r.xrc = feed(r.ctxt, r.buf + r.off, r.have - r.off, CHUNK);
			r.off = r.have;
		}
	}
	if (!s->rc && !r.xrc)
		r.xrc = xmlParseChunk(r.ctxt, NULL, 0, 1);
	int rc = s->rc;
	if (!rc && (r.xrc || !r.ctxt->wellFormed))
		rc = not_well_formed(s, r.ctxt);
	flame__svg_sax_close(&r.x, r.ctxt);
	free(r.buf);
	free(r.val.p);
	return rc;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	flame__svg s = {.o = o, .in = in, .src = flame_input_name(in), .err = err};
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
		rc = flame__svg_build(&s);
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

const struct flame__parser flame__parser_svg = {probe, parse};
