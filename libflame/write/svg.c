/* The SVG writer: draws a flame__layout into the embedded skeleton (templates/), one
 * <rect ...><title>INFO</title></rect> per frame with flamegraph.pl's tooltip text (so
 * tools that scrape its titles keep working), and the labels in a group of their own.
 * Compact: one element per frame (half the layout objects a browser has to paint when
 * zooming), no empty labels, colours as #rrggbb. Every untrusted string passes through
 * escape.c; the script is static and reads its data from the document. The attributes of
 * --nameattr (nameattr.c reads the file) go on the frames they name, those that are safe. */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/intern.h"
#include "../core/output.h"
#include "../core/tree.h"
#include "escape.h"
#include "heatmap.h"
#include "layout.h"
#include "nameattr.h"
#include "removed.h"
#include "template.h"

/* ---- --nameattr (read by nameattr.c): what of it is written */

/* An attribute name we write: XML-name-like, not an event handler, not style, no
 * namespace prefix, and not one of flamegraph.pl's raw-markup keys. */
static int attr_name_ok(const char *k)
{
	if (!(isalpha((unsigned char)k[0]) || k[0] == '_'))
		return 0;
	for (const char *p = k; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.'))
			return 0;
	if (strncasecmp(k, "on", 2) == 0 || strcasecmp(k, "style") == 0 ||
	    strcasecmp(k, "g_extra") == 0 || strcasecmp(k, "a_extra") == 0 ||
	    strncasecmp(k, "xmlns", 5) == 0 || strcasecmp(k, "data-name") == 0)
		return 0;
	return 1;
}

/* Links may be relative or http(s)/mailto/ftp: never javascript: or data: URLs. */
static int href_ok(const char *v)
{
	const char *colon = strchr(v, ':');
	const char *stop = strpbrk(v, "/?#");
	if (!colon || (stop && stop < colon))
		return 1;
	size_t n = (size_t)(colon - v);
	return (n == 4 && strncasecmp(v, "http", 4) == 0) || (n == 5 && strncasecmp(v, "https", 5) == 0) ||
	       (n == 6 && strncasecmp(v, "mailto", 6) == 0) || (n == 3 && strncasecmp(v, "ftp", 3) == 0);
}

/* ---- writing, straight into the output's buffer (core/output.h) */

typedef struct sw {
	flame_output *out;
	flame_err *err;
	int rc;
	const flame__layout *L;
	const flame_render_opts *o;
	char *tmp; /* scratch for info/label text */
	size_t tmp_cap;
	iconv_t cd;  /* --encoding other than UTF-8: untrusted text is converted from it */
	char *conv;  /* conversion buffer */
	size_t conv_cap;
	flame_tree *t; /* the tree laid out */
	const flame__panel *panel;
} sw;

/* Room for n more bytes (then advance() by what was written), or NULL with w->rc set.
 * After an error, NULL without asking again: err keeps the first error (a closed pipe's
 * EPIPE, which the tools end quietly on), not "an earlier write failed". */
static inline char *room(sw *w, size_t n)
{
	return w->rc ? NULL : flame__output_reserve(w->out, n, &w->rc, w->err);
}

static inline void advance(sw *w, size_t n) { flame__output_advance(w->out, n); }

static void put(sw *w, const char *p, size_t n)
{
	char *d = room(w, n);
	if (d) {
		memcpy(d, p, n);
		advance(w, n);
	}
}

static void puts_(sw *w, const char *s) { put(w, s, strlen(s)); }

/* Convert `p[0..n)` from the --encoding to UTF-8 (bytes that do not convert become
 * U+FFFD); returns the converted length in w->conv, or (size_t)-1 on out of memory. */
static size_t convert(sw *w, const char *p, size_t n)
{
	if (flame__array_reserve_min(w->conv, w->conv_cap, n * 4 + 16, 256)) {
		w->rc = flame__err_nomem(w->err);
		return (size_t)-1;
	}
	char *in = (char *)p, *out = w->conv;
	size_t inleft = n, outleft = w->conv_cap;
	iconv(w->cd, NULL, NULL, NULL, NULL);
	while (inleft > 0) {
		if (iconv(w->cd, &in, &inleft, &out, &outleft) != (size_t)-1)
			break;
		if ((errno != EILSEQ && errno != EINVAL) || outleft < 3)
			break;
		memcpy(out, "\xef\xbf\xbd", 3);
		out += 3;
		outleft -= 3;
		in++;
		inleft--;
	}
	return (size_t)(out - w->conv);
}

static void put_esc(sw *w, const char *p, size_t n)
{
	if (w->cd != (iconv_t)-1 && n) {
		size_t k = convert(w, p, n);
		if (k == (size_t)-1)
			return;
		p = w->conv;
		n = k;
	}
	char *d = room(w, FLAME__ESCAPE_MAX(n));
	if (d)
		advance(w, flame__xml_escape(d, p, n));
}

static void puts_esc(sw *w, const char *s) { put_esc(w, s, s ? strlen(s) : 0); }

/* The font-family list, with a generic family after it when it has none: a browser
 * without Verdana would otherwise fall back to its default, a serif font. */
static void put_font(sw *w, const char *list)
{
	static const char *const generic[] = {"serif", "sans-serif", "monospace", "cursive",
	                                      "fantasy", "system-ui"};
	puts_esc(w, list);
	const char *p = list ? list : "";
	while (*p) {
		p += strspn(p, " \t,");
		size_t n = strcspn(p, ",");
		size_t k = n;
		while (k && (p[k - 1] == ' ' || p[k - 1] == '\t'))
			k--;
		for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
			if (strlen(generic[i]) == k && strncasecmp(p, generic[i], k) == 0)
				return;
		p += n;
	}
	puts_(w, list && *list ? ", sans-serif" : "sans-serif");
}

/* A number in tenths, "12" or "12.5" (no trailing ".0"). */
static size_t fmt_tenths(char *d, long long t)
{
	char tmp[32];
	size_t n = 0, o = 0;
	if (t < 0) {
		d[o++] = '-';
		t = -t;
	}
	long long ip = t / 10;
	int frac = (int)(t % 10);
	do {
		tmp[n++] = (char)('0' + ip % 10);
		ip /= 10;
	} while (ip);
	while (n)
		d[o++] = tmp[--n];
	if (frac) {
		d[o++] = '.';
		d[o++] = (char)('0' + frac);
	}
	return o;
}

static long long tenths(double v) { return llround(v * 10); }

static void put_num(sw *w, double v)
{
	char *d = room(w, 32);
	if (d)
		advance(w, fmt_tenths(d, tenths(v)));
}

/* Text in the scratch buffer, grown as needed. */
static char *scratch(sw *w, size_t n)
{
	if (flame__array_reserve_min(w->tmp, w->tmp_cap, n, 256)) {
		w->rc = flame__err_nomem(w->err);
		return NULL;
	}
	return w->tmp;
}

/* ---- one frame */

static void put_attr(sw *w, const char *k, const char *v)
{
	puts_(w, " ");
	puts_(w, k);
	puts_(w, "=\"");
	puts_esc(w, v);
	puts_(w, "\"");
}

/* ---- what makes the SVG read back exactly (parse/svg.c): a name the title cannot carry
 * byte for byte (a _[k] annotation the title drops, bytes the escaping replaces, text an
 * --encoding converts) goes in data-raw, percent-encoded; counts a --factor scales or the
 * tooltip prints for people ("1.42 s") go in data-v, the unit then in the root's data-unit;
 * the root lists the top-level frames --minwidth hid (data-pruned) and marks a
 * --reverse picture (data-reverse). */

static int name_needs_raw(const sw *w, const flame__frame *f)
{
	if (flame__frame_display_len(f) != f->name_len)
		return 1;
	const unsigned char *p = (const unsigned char *)f->name;
	size_t n = f->name_len, i = 0;
	while (i < n && p[i] >= 0x20 && p[i] < 0x7f)
		i++;
	if (i == n)
		return 0;
	if (w->cd != (iconv_t)-1)
		return 1;
	for (; i < n; i++)
		if (p[i] < 0x20 || p[i] >= 0x80)
			break;
	if (i == n)
		return 0;
	/* non-ASCII: raw unless it is well-formed UTF-8 the escaping keeps as is */
	char buf[256];
	char *d = n <= sizeof buf / 3 ? buf : malloc(3 * n);
	if (!d)
		return 1;
	size_t k = flame__utf8_repair(d, f->name, n);
	int differs = k != n || memcmp(d, f->name, n) != 0;
	if (d != buf)
		free(d);
	return differs;
}

static void put_pct(sw *w, const char *p, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	char *d = room(w, 3 * n);
	if (!d)
		return;
	char *o = d;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c < 0x20 || c >= 0x7f || c == '%' || c == ';' || c == '&' || c == '<' || c == '"' ||
		    c == '>' || c == '\'') {
			*o++ = '%';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		} else {
			*o++ = (char)c;
		}
	}
	advance(w, (size_t)(o - d));
}

/* A count in the tree's scale as plain decimal text ("12", "0.25"). */
static void put_count(sw *w, uint64_t v)
{
	char b[48];
	unsigned sc = w->L->scale;
	uint64_t p = flame__pow10[sc];
	int n = snprintf(b, sizeof b, "%llu", (unsigned long long)(v / p));
	if (v % p) {
		n += snprintf(b + n, sizeof b - (size_t)n, ".%0*llu", (int)sc, (unsigned long long)(v % p));
		while (b[n - 1] == '0')
			n--;
	}
	put(w, b, (size_t)n);
}

static int cmp_name_ids(const void *a, const void *b, void *ud)
{
	const flame__name *x = flame__intern_get(ud, *(const uint32_t *)a);
	const flame__name *y = flame__intern_get(ud, *(const uint32_t *)b);
	return flame__bytes_cmp(x->ptr, x->len, y->ptr, y->len);
}

/* The root's data-pruned: per top-level name, its weight minus what its drawn frames show
 * (a flame chart may draw one name several times), "C NAME" or "BEFORE AFTER NAME". */
static void put_pruned(sw *w)
{
	const flame__layout *L = w->L;
	flame_tree *t = w->t;
	const flame__intern *names = flame__tree_names(t);
	size_t nn = names->count;
	uint64_t(*sum)[2] = calloc(nn ? nn : 1, sizeof *sum);
	if (!sum) {
		w->rc = flame__err_nomem(w->err);
		return;
	}
	flame__stacks *st;
	if ((w->rc = flame__tree_stacks(t, &st, w->err))) {
		free(sum);
		return;
	}
	for (size_t k = 0; k < st->count; k++)
		if (st->v[k].depth) {
			sum[st->v[k].ids[0]][0] += st->v[k].w[0];
			sum[st->v[k].ids[0]][1] += st->v[k].w[1];
		}
	for (size_t i = 1; i < L->count; i++) {
		const flame__frame *f = &L->frames[i];
		if (f->depth != 1)
			continue;
		uint32_t id = flame__intern_find(names, f->name, f->name_len);
		if (id == FLAME__ID_NONE)
			continue;
		sum[id][0] -= f->before < sum[id][0] ? f->before : sum[id][0];
		if (L->differential)
			sum[id][1] -= f->value < sum[id][1] ? f->value : sum[id][1];
	}
	/* in name order: name ids follow the input's line order, the picture must not */
	uint32_t *ids = malloc((nn ? nn : 1) * sizeof *ids);
	size_t nids = 0;
	if (!ids) {
		free(sum);
		w->rc = flame__err_nomem(w->err);
		return;
	}
	for (size_t id = 0; id < nn; id++)
		if (sum[id][0] || (L->differential && sum[id][1]))
			ids[nids++] = (uint32_t)id;
	qsort_r(ids, nids, sizeof *ids, cmp_name_ids, (void *)names);
	int any = 0;
	for (size_t k = 0; k < nids && !w->rc; k++) {
		size_t id = ids[k];
		puts_(w, any ? ";" : " data-pruned=\"");
		any = 1;
		put_count(w, sum[id][0]);
		if (L->differential) {
			puts_(w, " ");
			put_count(w, sum[id][1]);
		}
		puts_(w, " ");
		const flame__name *nm = flame__intern_get(names, (uint32_t)id);
		put_pct(w, nm->ptr, nm->len);
	}
	if (any)
		puts_(w, "\"");
	free(ids);
	free(sum);
}

static void put_exact(sw *w, const flame__frame *f)
{
	const flame__layout *L = w->L;
	if (f->depth == 0) {
		if (flame__tree_reversed(w->t)) /* drawn leaf-first: the reader turns them back */
			puts_(w, " data-reverse=\"1\"");
		put_pruned(w);
		if (L->human) {
			puts_(w, " data-unit=\"");
			put_pct(w, L->count_name, strlen(L->count_name));
			puts_(w, "\"");
		}
	} else if (name_needs_raw(w, f)) {
		puts_(w, " data-raw=\"");
		put_pct(w, f->name, f->name_len);
		puts_(w, "\"");
	}
	if (L->factor != 1.0 || L->human) {
		puts_(w, " data-v=\"");
		if (L->differential) {
			put_count(w, f->before);
			puts_(w, " ");
		}
		put_count(w, f->value);
		puts_(w, "\"");
	}
}

static void put_frame(sw *w, const flame__frame *f)
{
	const flame__layout *L = w->L;
	const flame__nameattr_entry *na =
	    w->o->nameattr ? flame__nameattr_find(w->o->nameattr, f->name, f->name_len) : NULL;
	const char *title = NULL, *href = NULL, *target = NULL;
	if (na)
		for (size_t i = 0; i < na->n; i++) {
			if (strcmp(na->attrs[i].key, "title") == 0)
				title = na->attrs[i].value;
			else if (strcmp(na->attrs[i].key, "href") == 0 && href_ok(na->attrs[i].value))
				href = na->attrs[i].value;
			else if (strcmp(na->attrs[i].key, "target") == 0)
				target = na->attrs[i].value;
		}
	if (href) {
		puts_(w, "<a");
		put_attr(w, "xlink:href", href);
		put_attr(w, "target", target ? target : "_top");
		puts_(w, ">");
	}
	long long x1 = tenths(f->x), x2 = tenths(f->x + f->w);
	char *d = room(w, 200);
	if (!d)
		return;
	char *p = d;
	memcpy(p, "<rect x=\"", 9);
	p += 9;
	p += fmt_tenths(p, x1);
	memcpy(p, "\" y=\"", 5);
	p += 5;
	p += fmt_tenths(p, tenths(f->y));
	memcpy(p, "\" width=\"", 9);
	p += 9;
	p += fmt_tenths(p, x2 - x1);
	memcpy(p, "\" height=\"", 10);
	p += 10;
	p += fmt_tenths(p, tenths(f->h));
	memcpy(p, "\" fill=\"", 8);
	p += 8;
	char hex[8];
	flame__rgb_hex(f->fill, hex);
	memcpy(p, hex, 7);
	p += 7;
	*p++ = '"';
	advance(w, (size_t)(p - d));
	put_exact(w, f);
	if (na) {
		for (size_t i = 0; i < na->n; i++) {
			const char *k = na->attrs[i].key;
			if (strcmp(k, "title") && strcmp(k, "href") && strcmp(k, "target") && attr_name_ok(k))
				put_attr(w, k, na->attrs[i].value);
		}
		if (title) { /* the script reads the name from here when the title is replaced */
			puts_(w, " data-name=\"");
			put_esc(w, f->name, flame__frame_display_len(f));
			puts_(w, "\"");
		}
	}
	puts_(w, "><title>");
	if (title) {
		puts_esc(w, title);
	} else {
		size_t want = f->name_len + strlen(L->count_name) + 256;
		char *t = scratch(w, want);
		if (!t)
			return;
		size_t n = flame__frame_info(L, f, t, want);
		put_esc(w, t, n < want ? n : want - 1);
	}
	puts_(w, href ? "</title></rect></a>\n" : "</title></rect>\n");
}


/* A frame's label, if it fits: <text> elements live in their own group after the frames,
 * so the script can zoom the frames with one transform and redraw only labels. */
static void put_label(sw *w, const flame__frame *f)
{
	const flame__layout *L = w->L;
	char *d, *p;
	long long x1 = tenths(f->x);
	size_t chars = flame__layout_fit_chars(L, f->w);
	if (chars >= 3) {
		size_t cap = 4 * (chars < f->name_len ? chars : f->name_len) + 8;
		char *t = scratch(w, cap);
		if (!t)
			return;
		size_t n = flame__frame_label(f, chars, t, cap);
		if (n) {
			d = room(w, 80);
			if (!d)
				return;
			p = d;
			memcpy(p, "<text x=\"", 9);
			p += 9;
			p += fmt_tenths(p, x1 + 30);
			memcpy(p, "\" y=\"", 5);
			p += 5;
			p += fmt_tenths(p, tenths(f->y + f->h / 2 + 3));
			memcpy(p, "\">", 2);
			p += 2;
			advance(w, (size_t)(p - d));
			put_esc(w, t, n);
			puts_(w, "</text>\n");
		}
	}
}

/* The picture: one <path> per fill colour holding every frame of that colour as a
 * rectangle. A browser then paints a few hundred elements instead of one per frame, so
 * hovering, searching and zooming (a transform on this group) stay fast on 100,000
 * frames; the per-frame <rect><title/></rect> elements keep the data and tooltips. Frames
 * narrower than a pixel go in paths of their own, class "t", which the style draws
 * anti-aliased: under the picture's crispEdges Chromium would drop them, where
 * flamegraph.pl's SVGs show them faintly. */
enum { GEOM_CHUNK = 1 << 18, PATH_CHUNK = 1 << 16 };

struct by_fill {
	uint32_t rgb, idx;
};

static int cmp_fill(const void *a, const void *b)
{
	const struct by_fill *x = a, *y = b;
	if (x->rgb != y->rgb)
		return x->rgb < y->rgb ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void put_picture(sw *w)
{
	const flame__layout *L = w->L;
	struct by_fill *v = malloc((L->count ? L->count : 1) * sizeof *v);
	if (!v) {
		w->rc = flame__err_nomem(w->err);
		return;
	}
	for (size_t i = 0; i < L->count; i++) {
		flame__rgb c = L->frames[i].fill;
		uint32_t thin = L->frames[i].w < 1.0 ? 1u << 24 : 0;
		v[i] = (struct by_fill){thin | (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b, (uint32_t)i};
	}
	qsort(v, L->count, sizeof *v, cmp_fill);
	for (size_t i = 0, run = 0; i < L->count && !w->rc; i++, run++) {
		const flame__frame *f = &L->frames[v[i].idx];
		/* a new path per colour, and every PATH_CHUNK rectangles (tags stay small) */
		if (i == 0 || v[i].rgb != v[i - 1].rgb || run == PATH_CHUNK) {
			run = 0;
			char hex[8];
			flame__rgb_hex(f->fill, hex);
			if (i)
				puts_(w, "\"/>\n");
			puts_(w, v[i].rgb >> 24 ? "<path class=\"t\" fill=\"" : "<path fill=\"");
			puts_(w, hex);
			puts_(w, "\" d=\"");
		}
		long long x1 = tenths(f->x), x2 = tenths(f->x + f->w);
		char *d = room(w, 120);
		if (!d)
			break;
		char *p = d;
		*p++ = 'M';
		p += fmt_tenths(p, x1);
		*p++ = ' ';
		p += fmt_tenths(p, tenths(f->y));
		*p++ = 'h';
		p += fmt_tenths(p, x2 - x1);
		*p++ = 'v';
		p += fmt_tenths(p, tenths(f->h));
		*p++ = 'h';
		p += fmt_tenths(p, x1 - x2);
		*p++ = 'z';
		advance(w, (size_t)(p - d));
	}
	if (L->count)
		puts_(w, "\"/>\n");
	free(v);
}

/* Every frame's x,width,y once more in data-geom: the script reads 100,000 frames from it
 * in one call instead of 300,000 attribute reads. In chunks of GEOM_CHUNK frames (the
 * first on the frames' group, the rest on empty groups after it): XML readers such as
 * libxml2 refuse a start tag over 10 MB, and a single attribute would pass that at about
 * 800,000 frames. */
static void put_geom(sw *w, size_t from)
{
	const flame__layout *L = w->L;
	size_t to = from + GEOM_CHUNK < L->count ? from + GEOM_CHUNK : L->count;
	puts_(w, " data-geom=\"");
	for (size_t i = from; i < to && !w->rc; i++) {
		const flame__frame *f = &L->frames[i];
		long long x1 = tenths(f->x), x2 = tenths(f->x + f->w);
		char *d = room(w, 80);
		if (!d)
			break;
		char *p = d;
		if (i > from)
			*p++ = ' ';
		p += fmt_tenths(p, x1);
		*p++ = ',';
		p += fmt_tenths(p, x2 - x1);
		*p++ = ',';
		p += fmt_tenths(p, tenths(f->y));
		advance(w, (size_t)(p - d));
	}
	puts_(w, "\"");
}

/* The removed-frames panel (removed.h): drawn rects with their own tooltips, in a group
 * the script never reads (search and zoom stay the graph's) and the SVG reader skips. */
/* `open` (the element's start up to its x value), then x, y and the escaped text:
 * `<text ... x="X" y="Y">TEXT</text>`. */
static void put_text(sw *w, const char *open, double x, double y, const char *text)
{
	puts_(w, open);
	put_num(w, x);
	puts_(w, "\" y=\"");
	put_num(w, y);
	puts_(w, "\">");
	puts_esc(w, text);
	puts_(w, "</text>\n");
}

static void put_panel(sw *w)
{
	const flame__panel *P = w->panel;
	const flame__layout *L = w->L;
	if (!P || !P->header[0])
		return;
	puts_(w, "<g id=\"removed\" data-panel=\"removed\">\n");
	put_text(w, "<text x=\"", L->xpad, P->header_y, P->header);
	for (size_t i = 0; i < P->count && !w->rc; i++) {
		const flame__frame *f = &P->frames[i];
		long long x1 = tenths(f->x), x2 = tenths(f->x + f->w);
		char hex[8], b[200];
		flame__rgb_hex(f->fill, hex);
		char *p = b;
		p += sprintf(p, "<rect x=\"");
		p += fmt_tenths(p, x1);
		p += sprintf(p, "\" y=\"");
		p += fmt_tenths(p, tenths(f->y));
		p += sprintf(p, "\" width=\"");
		p += fmt_tenths(p, x2 - x1);
		p += sprintf(p, "\" height=\"");
		p += fmt_tenths(p, tenths(f->h));
		p += sprintf(p, "\" fill=\"%s\"%s><title>", hex,
		             flame__panel_is_context(P, i) ? " class=\"context\"" : "");
		put(w, b, (size_t)(p - b));
		size_t want = f->name_len + strlen(L->count_name) + 256;
		char *t = scratch(w, want);
		if (!t)
			return;
		size_t n = flame__panel_info(L, P, i, t, want);
		put_esc(w, t, n < want ? n : want - 1);
		puts_(w, "</title></rect>\n");
	}
	for (size_t i = 0; i < P->count && !w->rc; i++)
		put_label(w, &P->frames[i]);
	puts_(w, "</g>\n");
}

/* ---- the document */

static int on_literal(void *ud, const char *p, size_t n)
{
	sw *w = ud;
	put(w, p, n);
	return w->rc;
}

static int key_is(const char *k, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(k, s, n) == 0;
}

static int is_utf8_name(const char *e)
{
	return !e || !strcasecmp(e, "UTF-8") || !strcasecmp(e, "UTF8");
}

/* The placeholders of the document's head: sizes, fonts, colours, the style and script.
 * 0 when `k` is not one of them. */
static int put_head_key(sw *w, const char *k, size_t n)
{
	const flame__layout *L = w->L;
	char hex[8];
	if (key_is(k, n, "encoding")) {
		if (w->o->encoding) /* text of any --encoding is converted: the SVG is UTF-8 */
			puts_(w, " encoding=\"UTF-8\"");
	} else if (key_is(k, n, "width")) {
		put_num(w, L->width);
	} else if (key_is(k, n, "height")) {
		put_num(w, L->height);
	} else if (key_is(k, n, "fonttype")) {
		put_font(w, L->font_type);
	} else if (key_is(k, n, "fontsize")) {
		char b[64];
		snprintf(b, sizeof b, "%g", L->font_size);
		puts_(w, b);
	} else if (key_is(k, n, "titlesize")) {
		char b[64];
		snprintf(b, sizeof b, "%g", L->font_size + 5);
		puts_(w, b);
	} else if (key_is(k, n, "fontwidth")) {
		char b[64];
		snprintf(b, sizeof b, "%g", L->font_width);
		puts_(w, b);
	} else if (key_is(k, n, "xpad")) {
		put_num(w, L->xpad);
	} else if (key_is(k, n, "frameheight")) {
		put_num(w, L->frame_height);
	} else if (key_is(k, n, "inverted")) {
		puts_(w, L->inverted ? "1" : "0");
	} else if (key_is(k, n, "searchcolor")) {
		puts_esc(w, L->search_color);
	} else if (key_is(k, n, "nametype")) {
		puts_esc(w, L->name_type);
	} else if (key_is(k, n, "notes")) {
		if (L->notes) {
			puts_(w, "<desc id=\"notes\">");
			puts_esc(w, L->notes);
			puts_(w, "</desc>\n");
		}
	} else if (key_is(k, n, "bgtop")) {
		flame__rgb_hex(L->bg_top, hex);
		puts_(w, hex);
	} else if (key_is(k, n, "bgbottom")) {
		flame__rgb_hex(L->bg_bottom, hex);
		puts_(w, hex);
	} else if (key_is(k, n, "css")) {
		put(w, flame__tpl_css, flame__tpl_css_len);
	} else if (key_is(k, n, "js")) {
		put(w, flame__tpl_js, flame__tpl_js_len);
	} else {
		return 0;
	}
	return 1;
}

/* The placeholders of the title and the controls' positions. 0 when `k` is not one. */
static int put_title_key(sw *w, const char *k, size_t n)
{
	const flame__layout *L = w->L;
	if (key_is(k, n, "titlex")) {
		put_num(w, L->title_x);
	} else if (key_is(k, n, "titley")) {
		put_num(w, L->title_y);
	} else if (key_is(k, n, "title")) {
		puts_esc(w, L->title);
	} else if (key_is(k, n, "subtitle")) {
		if (L->subtitle)
			put_text(w, "<text id=\"subtitle\" x=\"", L->title_x, L->subtitle_y, L->subtitle);
	} else if (key_is(k, n, "detailsy")) {
		put_num(w, L->details_y);
	} else if (key_is(k, n, "searchx")) {
		put_num(w, L->width - L->xpad - 100);
	} else if (key_is(k, n, "icx")) {
		put_num(w, L->width - L->xpad - 16);
	} else if (key_is(k, n, "prevx")) {
		put_num(w, L->width - L->xpad - 130);
	} else if (key_is(k, n, "nextx")) {
		put_num(w, L->width - L->xpad - 115);
	} else if (key_is(k, n, "clipwidth")) {
		put_num(w, L->width - 2 * L->xpad);
	} else {
		return 0;
	}
	return 1;
}

/* The frames, their labels and the panel here; the small placeholders in the functions
 * above. */
static int on_key(void *ud, const char *k, size_t n)
{
	sw *w = ud;
	const flame__layout *L = w->L;
	if (key_is(k, n, "frames")) {
		for (size_t i = 0; i < L->count && !w->rc; i++)
			put_frame(w, &L->frames[i]);
	} else if (key_is(k, n, "geom")) {
		put_geom(w, 0); /* the first chunk, on the frames' group */
	} else if (key_is(k, n, "geommore")) {
		for (size_t i = GEOM_CHUNK; i < L->count && !w->rc; i += GEOM_CHUNK) {
			puts_(w, "<g");
			put_geom(w, i);
			puts_(w, "/>\n");
		}
	} else if (key_is(k, n, "picture")) {
		put_picture(w);
	} else if (key_is(k, n, "labels")) {
		for (size_t i = 0; i < L->count && !w->rc; i++)
			put_label(w, &L->frames[i]);
	} else if (key_is(k, n, "panel")) {
		put_panel(w);
	} else if (!put_head_key(w, k, n) && !put_title_key(w, k, n)) {
		return flame__err(w->err, FLAME_EUSAGE, "template", 0, FLAME__NO_OFFSET,
		                  "unknown placeholder {{%.*s}}", (int)n, k);
	}
	return w->rc;
}

static void put_error_svg(sw *w)
{
	const flame__layout *L = w->L;
	puts_(w, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	         "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	         "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
	         "<svg version=\"1.1\" width=\"");
	put_num(w, L->width);
	puts_(w, "\" height=\"");
	put_num(w, L->height);
	puts_(w, "\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"");
	put_font(w, L->font_type);
	puts_(w, "\">\n<text x=\"");
	put_num(w, L->title_x);
	puts_(w, "\" y=\"");
	put_num(w, L->title_y);
	puts_(w, "\" text-anchor=\"middle\" font-size=\"");
	put_num(w, L->font_size + 5);
	puts_(w, "\">ERROR: No valid input provided</text>\n</svg>\n");
}

int flame_write_svg(flame_tree *t, const flame_render_opts *o, flame_output *out,
                    flame_err *err)
{
	flame_render_opts defaults = FLAME_RENDER_OPTS_INIT;
	if (!o)
		o = &defaults;
	if (o->flags & FLAME_RENDER_HEATMAP)
		return flame__heatmap_svg(t, o, out, err);
	flame__layout L;
	int rc = flame__layout_compute(&L, t, o, err);
	if (rc)
		return rc;
	flame__panel P;
	rc = flame__panel_compute(&P, t, &L, o, err);
	if (rc) {
		flame__layout_free(&L);
		return rc;
	}
	sw w = {out, err, 0, &L, o, NULL, 0, (iconv_t)-1, NULL, 0, t, &P};
	if (!is_utf8_name(o->encoding)) {
		w.cd = iconv_open("UTF-8", o->encoding);
		if (w.cd == (iconv_t)-1) {
			rc = flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
			                "--encoding: unknown encoding '%s'", o->encoding);
			goto done;
		}
	}
	if (L.empty) {
		put_error_svg(&w);
	} else {
		flame__tpl_cb cb = {on_literal, on_key, &w};
		rc = flame__template_expand(flame__tpl_svg, flame__tpl_svg_len, &cb);
		if (rc && !w.rc)
			w.rc = rc;
	}
	rc = w.rc;
done:
	if (w.cd != (iconv_t)-1)
		iconv_close(w.cd);
	free(w.conv);
	free(w.tmp);
	flame__panel_free(&P);
	flame__layout_free(&L);
	return rc;
}
