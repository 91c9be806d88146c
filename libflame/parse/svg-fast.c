/* The SVG reader's second XML reader (parse/svg.h): a strict scanner for flame-render's own
 * frames. Most of an SVG of ours is one line per frame inside <g id="fr">:
 *   <rect x="10" y="53" width="647.1" height="15" fill="#e05915"[ data-...="..."]><title>TEXT</title></rect>
 * libxml2 spends most of its time on those. Once libxml2 has read the <g id="fr"> start tag
 * (and nothing else is pending), svg.c hands such lines here; they are checked and read
 * strictly (the attribute names we write, each once, no whitespace but single spaces, UTF-8
 * with only XML's characters, the predefined entities and character references, no "]]>"),
 * and libxml2 gets a newline for each so its line numbers stay right. The first line that
 * is anything else, and everything after it, goes to libxml2 as usual (its </g>, a link, an
 * odd character, a declared entity: all read exactly as before). */
#include <stdlib.h>
#include <string.h>
#include "svg.h"

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

/* Append n bytes to b (with 8 bytes to spare). 0, or -1 when out of memory. */
static int put(flame__sbuf *b, const void *p, size_t n)
{
	if (flame__sbuf_reserve(b, b->n + n + 8))
		return -1;
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

/* Code point cp (at most 0x10ffff) as UTF-8 into out: its length. */
static size_t utf8_put(unsigned long cp, unsigned char *out)
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xc0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xe0 | cp >> 12);
		out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (unsigned char)(0xf0 | cp >> 18);
	out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The reference at p ('&'): the character it stands for as UTF-8 in out (*on bytes);
 * returns the reference's length, 0 when the fast path does not take it. */
static size_t fast_ref(const unsigned char *p, const unsigned char *e, unsigned char *out,
                       size_t *on)
{
	const unsigned char *r = p + 1;
	unsigned long cp = 0;
	size_t adv;
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
			int v = flame__svg_hexval(*r);
			if (v < 0 || (!hex && v > 9))
				break;
			cp = cp * (hex ? 16 : 10) + (unsigned long)v;
		}
		if (!digits || r >= e || *r != ';')
			return 0;
		adv = (size_t)(r + 1 - p);
		if (!(cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
		      (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)))
			return 0;
	} else {
		return 0;
	}
	*on = utf8_put(cp, out);
	return adv;
}

/* The character at p, which is not a plain byte, in text ending at `stop`: its bytes in
 * out (*on of them); returns how many bytes of the text it takes, 0 when the fast path
 * does not take it. */
static size_t fast_char(const unsigned char *p, const unsigned char *e, int stop,
                        unsigned char *out, size_t *on)
{
	if (*p == '"' || *p == ']') { /* '"' in content; ']' unless it starts "]]>" */
		if (*p == ']' && (e - p < 3 || (p[1] == ']' && p[2] == '>')))
			return 0;
	} else if (*p == '\t' || *p == '\n') { /* content only: values would normalize them */
		if (stop == '"')
			return 0;
	} else if (*p >= 0x80) {
		*on = xml_utf8(p, e);
		memcpy(out, p, *on);
		return *on;
	} else if (*p == '&') {
		return fast_ref(p, e, out, on);
	} else {
		return 0; /* '<' in a value, a control byte, '\r' (line ends normalize) */
	}
	out[0] = *p;
	*on = 1;
	return 1;
}

/* Decode text up to `stop` ('"' in attribute values, '<' in content) into b; returns the
 * position of `stop`, or NULL when the text is not one the fast path takes (or runs past
 * e: the caller cannot tell the two apart and hands over, which is always safe). */
static const unsigned char *fast_text(const unsigned char *p, const unsigned char *e, int stop,
                                      flame__sbuf *b)
{
	b->n = 0;
	b->set = 1;
	if (flame__sbuf_reserve(b, 8)) /* an empty text still ends in a NUL */
		return NULL;
	for (;;) {
		const unsigned char *q = p;
		while (q < e && plain_byte[*q])
			q++;
		if (q > p && put(b, p, (size_t)(q - p)))
			return NULL;
		p = q;
		if (p >= e)
			return NULL;
		if (*p == stop) {
			b->p[b->n] = '\0';
			return p;
		}
		unsigned char out[4];
		size_t on = 0, adv = fast_char(p, e, stop, out, &on);
		if (!adv || put(b, out, on))
			return NULL;
		p += adv;
	}
}

/* The attribute names fast_line takes, each at most once. */
static const char *const attr_names[] = {"x", "y", "width", "height", "fill", "data-raw",
                                         "data-v", "data-name", "data-pruned", "data-reverse",
                                         "data-unit"};
enum { A_X, A_Y, A_WIDTH, A_HEIGHT, A_FILL, A_RAW, A_V, A_NAME, A_PRUNED, A_REVERSE, A_UNIT,
       A_COUNT };

/* The attribute name at nm[0..nl): its A_ index, or -1. */
static int attr_of(const unsigned char *nm, size_t nl)
{
	for (int i = 0; i < A_COUNT; i++)
		if (strlen(attr_names[i]) == nl && memcmp(attr_names[i], nm, nl) == 0)
			return i;
	return -1;
}

/* Attribute `which`, its value decoded in val: into f (a bit in *have for each of x, y,
 * width, height), the rect's data- strings or the root's attributes. 0, or -1 when out of
 * memory. */
static int fast_attr(flame__svg_sax *x, int which, const flame__sbuf *val, flame__svg_frame *f,
                     int *have)
{
	const char *v = val->p, *vend = val->p + val->n;
	flame__sbuf *dst = NULL;
	switch (which) {
	case A_X: *have |= flame__svg_num(v, vend, &f->x) == 0 ? 1 : 0; break;
	case A_Y: *have |= flame__svg_num(v, vend, &f->y) == 0 ? 2 : 0; break;
	case A_WIDTH: *have |= flame__svg_num(v, vend, &f->w) == 0 ? 4 : 0; break;
	case A_HEIGHT: *have |= flame__svg_num(v, vend, &(double){0}) == 0 ? 8 : 0; break;
	case A_RAW: dst = &x->rect_raw; break;
	case A_V: dst = &x->rect_v; break;
	case A_NAME: dst = &x->rect_name; break;
	case A_PRUNED:
		free(x->s->pruned);
		if (!(x->s->pruned = strndup(v, val->n)))
			return -1;
		break;
	case A_REVERSE: x->s->reverse = val->n && *v == '1'; break;
	case A_UNIT: return flame__svg_unit_attr(x->s, v, val->n) ? -1 : 0;
	}
	return dst && flame__sbuf_set(dst, v, val->n) ? -1 : 0;
}

/* One frame line at p; its length, 0 when it is not one (hand over), or -1 for out of
 * memory or a failed frame (x->s->rc says which). */
static long fast_line(flame__svg_sax *x, const unsigned char *p, const unsigned char *e,
                      flame__sbuf *val)
{
	const unsigned char *q = p;
	if (e - q < 6 || memcmp(q, "<rect ", 6) != 0)
		return 0;
	q += 5;
	flame__svg_frame f;
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
		int which = attr_of(nm, (size_t)(q - nm));
		if (which < 0 || (seen & (1u << which)))
			return 0;
		seen |= 1u << which;
		const unsigned char *ve = fast_text(q + 2, e, '"', val);
		if (!ve)
			return 0;
		q = ve + 1;
		if (fast_attr(x, which, val, &f, &have)) {
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
	int rc = have == 15 ? flame__svg_title_rect(x, x->t.p, x->t.n, &f) : 0;
	if (rc) {
		if (!x->s->rc)
			x->s->rc = rc;
		return -1;
	}
	return q - p;
}

int flame__svg_fast_lines(flame__svg_sax *x, const char *p0, size_t n, size_t *used,
                          size_t *lines, flame__sbuf *val)
{
	const unsigned char *p = (const unsigned char *)p0, *e = p + n;
	*used = *lines = 0;
	while (p < e && !x->s->rc) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl) /* a line's end first: a text that runs out is then not "need more" */
			return FLAME__SVG_FAST_NEED_MORE;
		x->pending = *lines;
		long k = *p == '\n' ? 1 : fast_line(x, p, nl + 1, val);
		if (k <= 0)
			return FLAME__SVG_FAST_HANDOFF;
		*lines += p[k - 1] == '\n';
		p += k;
		*used = (size_t)(p - (const unsigned char *)p0);
	}
	return p < e ? FLAME__SVG_FAST_HANDOFF : FLAME__SVG_FAST_NEED_MORE;
}
