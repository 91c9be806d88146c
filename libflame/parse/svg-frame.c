/* A flame graph frame from its text (parse/svg.h): the title "NAME (COUNT COUNTNAME, PCT%...)",
 * commas allowed, differential titles "...; before B, after A)" giving both columns; the
 * exact data flame-render adds to a rect (data-v counts, data-raw names percent-encoded,
 * data-name, the root's data-unit); coordinates. Both XML readers (svg-sax.c, svg-fast.c)
 * call flame__svg_title_rect with what they read, and the frame joins s->v for
 * svg-build.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "svg.h"

int flame__sbuf_reserve(flame__sbuf *b, size_t need)
{
	return flame__array_reserve_min(b->p, b->cap, need, 64);
}

int flame__sbuf_set(flame__sbuf *b, const char *p, size_t n)
{
	if (flame__sbuf_reserve(b, n + 1))
		return -1;
	memcpy(b->p, p, n);
	b->p[n] = '\0';
	b->n = n;
	b->set = 1;
	return 0;
}

/* `1,234.5` -> mantissa and decimals; -1 when not a count, -2 when its digits do not fit
 * 64 bits (a count, but one no tree can hold: an error, not a name). */
int flame__svg_count(const char *p, const char *end, const char **stop, uint64_t *mant,
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

/* Two counts at their decimals -> the same scale (-1 when they do not fit 64 bits). */
int flame__svg_common_scale(uint64_t *a, unsigned ad, uint64_t *b, unsigned bd, unsigned *dec)
{
	unsigned dd = ad > bd ? ad : bd;
	if ((*a && *a > UINT64_MAX / flame__pow10[dd - ad]) ||
	    (*b && *b > UINT64_MAX / flame__pow10[dd - bd]))
		return -1;
	*a *= flame__pow10[dd - ad];
	*b *= flame__pow10[dd - bd];
	*dec = dd;
	return 0;
}

/* "NAME (COUNT COUNTNAME, PCT%[; +D%][; before B, after A])": split off the count part at
 * the last " (" that is followed by one (names may hold " (" themselves). Returns -2 when
 * the count part is there but its count does not fit 64 bits, else 0. */
static int parse_title(flame__svg *s, const char *t, size_t n, flame__svg_frame *f,
                       size_t *name_len)
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
		int cr = flame__svg_count(p, end, &e, &m, &d);
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
		if (b && flame__svg_count(b + 9, end, &be, &bm, &bd) == 0 && (size_t)(end - be) > 8 &&
		    memcmp(be, ", after ", 8) == 0 && flame__svg_count(be + 8, end, &ae, &am, &ad) == 0) {
			s->differential = 1;
			if (flame__svg_common_scale(&bm, bd, &am, ad, &dd) == 0) {
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
static int exact_counts(flame__svg *s, const char *p, size_t n, flame__svg_frame *f)
{
	const char *end = p + n, *e;
	uint64_t a, b;
	unsigned ad, bd, dd;
	if (flame__svg_count(p, end, &e, &a, &ad))
		return -1;
	if (e == end) {
		f->mant[0] = f->mant[1] = a;
		f->dec = (uint8_t)ad;
	} else if (*e == ' ' && flame__svg_count(e + 1, end, &e, &b, &bd) == 0 && e == end &&
	           flame__svg_common_scale(&a, ad, &b, bd, &dd) == 0) {
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
int flame__svg_unit_attr(flame__svg *s, const char *p, size_t n)
{
	size_t dn;
	if (flame__svg_pct_decode(s, p, n, &dn))
		return -1;
	if (dn && dn < sizeof s->count_name) {
		memcpy(s->count_name, s->dec_buf, dn);
		s->count_name[dn] = '\0';
		s->unit_attr = 1;
	}
	return 0;
}

int flame__svg_hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	                                      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* data-raw: the raw name with '%', ';', controls and non-ASCII bytes as %XX (names that
 * the title cannot carry exactly). Decoded into s->dec_buf; *out is the length. */
int flame__svg_pct_decode(flame__svg *s, const char *p, size_t n, size_t *out)
{
	if (flame__array_reserve(s->dec_buf, s->dec_cap, n + 1))
		return flame__err_nomem(s->err);
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		int hi, lo;
		if (p[i] == '%' && i + 2 < n && (hi = flame__svg_hexval((unsigned char)p[i + 1])) >= 0 &&
		    (lo = flame__svg_hexval((unsigned char)p[i + 2])) >= 0) {
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
int flame__svg_num(const char *p, const char *end, double *out)
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

static int add_frame(flame__svg *s, const char *name, size_t nn, const flame__svg_frame *proto)
{
	if (nn > FLAME__SVG_NAME_MAX)
		return flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
		                  "a frame name longer than %d bytes", FLAME__SVG_NAME_MAX);
	if (flame__array_reserve_min(s->v, s->cap, s->n + 1, 4096))
		return flame__err_nomem(s->err);
	flame__svg_frame *f = &s->v[s->n];
	*f = *proto;
	f->name = flame__sink_intern(&s->k, name, nn);
	if (f->name == FLAME__ID_NONE)
		return flame__err_nomem(s->err);
	s->n++;
	return 0;
}

/* A frame from a title and its rect's attributes (exact data first: data-v, data-raw, then
 * the rect's data-name or its g's). */
int flame__svg_title_rect(flame__svg_sax *x, const char *title, size_t tn,
                          const flame__svg_frame *geom)
{
	flame__svg *s = x->s;
	const flame__sbuf *name = x->rect_name.set ? &x->rect_name : &x->g_name;
	flame__svg_frame f = *geom;
	size_t nn;
	int big = parse_title(s, title, tn, &f, &nn);
	if (x->rect_v.set && exact_counts(s, x->rect_v.p, x->rect_v.n, &f) == 0)
		big = 0;
	if (big)
		return flame__err(s->err, FLAME_ERANGE, s->src, flame__svg_line(x), FLAME__NO_OFFSET,
		                  "a frame's count overflows 64 bits (in its title)");
	if (x->rect_raw.set) {
		size_t dn;
		int rc = flame__svg_pct_decode(s, x->rect_raw.p, x->rect_raw.n, &dn);
		return rc ? rc : add_frame(s, s->dec_buf, dn, &f);
	}
	if (name->set)
		return add_frame(s, name->p, name->n, &f);
	return add_frame(s, title, nn, &f);
}
