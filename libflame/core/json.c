/* The pull tokenizer of JSON (core/json.h): one buffer of input refilled in chunks, a
 * token at a time, the grammar checked by a small state machine. Under parse/'s JSON
 * readers, which keep what they need of each token and drop the rest. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "err.h"
#include "input.h"
#include "json.h"

enum { CHUNK = 1 << 20, MAX_TOKEN = 64 << 20 };

/* what may come next */
enum { ST_VALUE, ST_VALUE_OR_END, ST_KEY, ST_KEY_OR_END, ST_AFTER, ST_DONE };

int flame__json_init(flame__json *j, flame_input *in, flame_err *err)
{
	memset(j, 0, sizeof *j);
	j->in = in;
	j->err = err;
	j->src = flame_input_name(in);
	j->max_token = MAX_TOKEN;
	j->buf = malloc(CHUNK);
	if (!j->buf)
		return flame__err_nomem(err);
	j->cap = CHUNK;
	j->state = ST_VALUE;
	return 0;
}

void flame__json_free(flame__json *j)
{
	free(j->buf);
	free(j->scratch);
	j->buf = j->scratch = NULL;
}

int flame__json_bad(flame__json *j, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return flame__err(j->err, FLAME_EDATA, j->src, 0, j->at, "%s", msg);
}

/* More bytes after buf[len), keeping buf[pos..len): 1, 0 at the end, or a status. */
static int refill(flame__json *j)
{
	if (j->eof)
		return 0;
	if (j->pos) {
		memmove(j->buf, j->buf + j->pos, j->len - j->pos);
		j->base += j->pos;
		j->len -= j->pos;
		j->pos = 0;
	}
	if (j->len == j->cap) {
		if (j->cap >= j->max_token)
			return flame__json_bad(j, "a string or number longer than %zu bytes", j->max_token);
		if (flame__array_grow(&j->buf, &j->cap, j->cap * 2, 1, CHUNK))
			return flame__err_nomem(j->err);
	}
	long r = flame__input_read(j->in, j->buf + j->len, j->cap - j->len, j->err);
	if (r < 0)
		return (int)r;
	if (r == 0)
		j->eof = 1;
	j->len += (size_t)r;
	return r > 0;
}

/* The next byte that is not white space, left unread: the byte, -1 at the end, or a status
 * (< -1). */
static int peek_byte(flame__json *j)
{
	for (;;) {
		while (j->pos < j->len) {
			unsigned char c = (unsigned char)j->buf[j->pos];
			if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
				return c;
			j->pos++;
		}
		int rc = refill(j);
		if (rc < 0)
			return rc;
		if (rc == 0)
			return -1;
	}
}

static int hex4(const char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return v;
}

static size_t utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 63));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 63));
		o[2] = (char)(0x80 | (cp & 63));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 63));
	o[2] = (char)(0x80 | (cp >> 6 & 63));
	o[3] = (char)(0x80 | (cp & 63));
	return 4;
}

/* A \u escape at p (p[0] == 'u', `left` bytes from p to the string's end) into o: the
 * bytes written, *used the input bytes after the backslash; a lone surrogate is U+FFFD. */
static int unicode(const char *p, size_t left, char *o, size_t *used)
{
	int cp = left >= 5 ? hex4(p + 1) : -1;
	if (cp < 0)
		return -1;
	*used = 5;
	if (cp >= 0xd800 && cp < 0xdc00 && left >= 11 && p[5] == '\\' && p[6] == 'u') {
		int lo = hex4(p + 7);
		if (lo >= 0xdc00 && lo < 0xe000) {
			*used = 11;
			return (int)utf8(o, 0x10000u + ((unsigned)(cp - 0xd800) << 10) + (unsigned)(lo - 0xdc00));
		}
	}
	if (cp >= 0xd800 && cp < 0xe000)
		cp = 0xfffd;
	return (int)utf8(o, (unsigned)cp);
}

/* The escaped string text p[0..n) unescaped into the scratch buffer, as the token. */
static int unescape(flame__json *j, const char *p, size_t n)
{
	if (flame__array_reserve_min(j->scratch, j->scratch_cap, n + 1, 256))
		return flame__err_nomem(j->err);
	char *o = j->scratch;
	for (size_t i = 0; i < n;) {
		if (p[i] != '\\') {
			*o++ = p[i++];
			continue;
		}
		const char *e = strchr("\"\\/bfnrt", p[i + 1]);
		if (p[i + 1] && e) {
			*o++ = "\"\\/\b\f\n\r\t"[e - "\"\\/bfnrt"];
			i += 2;
			continue;
		}
		size_t used = 0;
		int w = p[i + 1] == 'u' ? unicode(p + i + 1, n - i - 1, o, &used) : -1;
		if (w < 0)
			return flame__json_bad(j, "a bad escape in a string");
		o += w;
		i += 1 + used;
	}
	j->s = j->scratch;
	j->n = (size_t)(o - j->scratch);
	return 0;
}

/* A string from buf[pos] ('"'): its text as the token, pos past it. */
static int string(flame__json *j)
{
	size_t k = 1;
	int esc = 0;
	for (;;) {
		const char *b = j->buf + j->pos;
		size_t end = j->len - j->pos;
		while (k < end) {
			unsigned char c = (unsigned char)b[k];
			if (c == '"') {
				const char *p = b + 1;
				size_t n = k - 1;
				j->pos += k + 1;
				if (esc)
					return unescape(j, p, n);
				j->s = p;
				j->n = n;
				return 0;
			}
			if (c < 0x20)
				return flame__json_bad(j, "a control character in a string");
			if (c == '\\') {
				esc = 1;
				k++; /* the escaped byte, checked when unescaped */
			}
			k++;
		}
		int rc = refill(j);
		if (rc < 0)
			return rc;
		if (rc == 0)
			return flame__json_bad(j, "the input ends inside a string");
	}
}

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* p[0..n) is a JSON number. */
static int number_ok(const char *p, size_t n)
{
	size_t i = p[0] == '-';
	if (i >= n || !digit(p[i]))
		return 0;
	if (p[i] == '0')
		i++;
	else
		while (i < n && digit(p[i]))
			i++;
	if (i < n && p[i] == '.') {
		if (++i >= n || !digit(p[i]))
			return 0;
		while (i < n && digit(p[i]))
			i++;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		i++;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		if (i >= n || !digit(p[i]))
			return 0;
		while (i < n && digit(p[i]))
			i++;
	}
	return i == n;
}

static int number(flame__json *j)
{
	size_t k = 0;
	for (;;) {
		const char *b = j->buf + j->pos;
		size_t end = j->len - j->pos;
		while (k < end && (digit(b[k]) || b[k] == '-' || b[k] == '+' || b[k] == '.' ||
		                   b[k] == 'e' || b[k] == 'E'))
			k++;
		if (k < end || j->eof) {
			if (!number_ok(b, k))
				return flame__json_bad(j, "a malformed number");
			j->s = b;
			j->n = k;
			j->pos += k;
			return 0;
		}
		int rc = refill(j);
		if (rc < 0)
			return rc;
	}
}

/* true, false or null at buf[pos]. */
static int literal(flame__json *j, int c)
{
	const char *w = c == 't' ? "true" : c == 'f' ? "false" : "null";
	size_t n = strlen(w);
	while (j->len - j->pos < n) {
		int rc = refill(j);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
	}
	if (j->len - j->pos < n || memcmp(j->buf + j->pos, w, n))
		return flame__json_bad(j, "an unexpected '%c'", c);
	j->pos += n;
	return c == 't' ? FLAME__JSON_TRUE : c == 'f' ? FLAME__JSON_FALSE : FLAME__JSON_NULL;
}

/* A value starting with byte c at buf[pos]. */
static int value(flame__json *j, int c)
{
	int rc, after = j->depth ? ST_AFTER : ST_DONE; /* a scalar alone is the whole document */
	switch (c) {
	case '{':
	case '[':
		if (j->depth == FLAME__JSON_MAX_DEPTH)
			return flame__json_bad(j, "nesting deeper than %d", FLAME__JSON_MAX_DEPTH);
		j->open[j->depth++] = (char)c;
		j->pos++;
		j->state = c == '{' ? ST_KEY_OR_END : ST_VALUE_OR_END;
		return c == '{' ? FLAME__JSON_OBJ : FLAME__JSON_ARR;
	case '"':
		rc = string(j);
		j->state = after;
		return rc ? rc : FLAME__JSON_STR;
	case 't':
	case 'f':
	case 'n':
		j->state = after;
		return literal(j, c);
	default:
		if (c != '-' && !digit((char)c))
			return flame__json_bad(j, c < 0x20 || c > 0x7e ? "an unexpected byte 0x%02x"
			                                               : "an unexpected '%c'", c);
		j->state = after;
		rc = number(j);
		return rc ? rc : FLAME__JSON_NUM;
	}
}

/* A member's name at buf[pos] (c is its first byte) and the ':' after it. */
static int key(flame__json *j, int c)
{
	if (c != '"')
		return flame__json_bad(j, "a member name should come here");
	int rc = string(j);
	if (rc)
		return rc;
	const char *s = j->s;
	size_t n = j->n;
	if (j->pos == j->len || j->buf[j->pos] != ':') {
		/* white space before the ':' may need a refill, which moves buf: keep the name */
		if (s != j->scratch) {
			if (flame__array_reserve_min(j->scratch, j->scratch_cap, n + 1, 256))
				return flame__err_nomem(j->err);
			flame__copy(j->scratch, s, n);
			s = j->scratch;
		}
		int d = peek_byte(j);
		if (d < -1)
			return d;
		if (d != ':') {
			j->at = j->base + j->pos;
			return flame__json_bad(j, "a ':' should follow a member name");
		}
	}
	j->pos++;
	j->s = s;
	j->n = n;
	j->state = ST_VALUE;
	return FLAME__JSON_KEY;
}

/* A closing bracket c at buf[pos]. */
static int close(flame__json *j, int c)
{
	char want = c == '}' ? '{' : '[';
	if (!j->depth || j->open[j->depth - 1] != want)
		return flame__json_bad(j, "an unexpected '%c'", c);
	j->pos++;
	j->depth--;
	j->state = j->depth ? ST_AFTER : ST_DONE;
	return c == '}' ? FLAME__JSON_OBJ_END : FLAME__JSON_ARR_END;
}

int flame__json_next(flame__json *j)
{
	int c = peek_byte(j);
	if (c < -1)
		return c;
	j->at = j->base + j->pos;
	if (c == -1) {
		if (j->state == ST_DONE)
			return FLAME__JSON_EOF;
		return flame__json_bad(j, j->state == ST_VALUE && !j->depth ? "no JSON value"
		                                                            : "the input ends inside a value");
	}
	switch (j->state) {
	case ST_DONE:
		return flame__json_bad(j, "more bytes after the JSON value");
	case ST_VALUE_OR_END:
		return c == ']' ? close(j, c) : value(j, c);
	case ST_KEY_OR_END:
		return c == '}' ? close(j, c) : key(j, c);
	case ST_KEY:
		return key(j, c);
	case ST_AFTER:
		if (c == '}' || c == ']')
			return close(j, c);
		if (c != ',')
			return flame__json_bad(j, "a ',' or a closing bracket should come here");
		j->pos++;
		if ((c = peek_byte(j)) < -1)
			return c;
		j->at = j->base + j->pos;
		if (c == -1)
			return flame__json_bad(j, "the input ends inside a value");
		return j->open[j->depth - 1] == '{' ? key(j, c) : value(j, c);
	default:
		return value(j, c);
	}
}

static long ints_in_buffer(flame__json *j, int64_t *v, size_t cap);

int flame__json_skip(flame__json *j, int tok)
{
	if (tok != FLAME__JSON_OBJ && tok != FLAME__JSON_ARR)
		return 0;
	unsigned depth = j->depth - 1;
	int64_t v[64];
	for (;;) {
		while (ints_in_buffer(j, v, 64) > 0) /* arrays of numbers ("lines") at a stride */
			;
		int t = flame__json_next(j);
		if (t < 0)
			return t;
		if ((t == FLAME__JSON_OBJ_END || t == FLAME__JSON_ARR_END) && j->depth == depth)
			return 0;
	}
}

int flame__json_skip_value(flame__json *j)
{
	int t = flame__json_next(j);
	return t < 0 ? t : flame__json_skip(j, t);
}

int flame__json_text_value(flame__json *j, flame__json_text *a)
{
	int t = flame__json_next(j);
	a->n = 0;
	if (t != FLAME__JSON_STR)
		return t < 0 ? t : flame__json_skip(j, t);
	if (flame__array_reserve(a->v, a->cap, j->n + 1))
		return flame__err_nomem(j->err);
	memcpy(a->v, j->s, j->n);
	a->n = j->n;
	return 0;
}

int flame__json_int(flame__json *j, int64_t *v, const char *what)
{
	const char *p = j->s;
	size_t i = p[0] == '-', n = j->n;
	uint64_t x = 0, lim = i ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		unsigned d = (unsigned)(p[i] - '0');
		if (d > 9 || x > (lim - d) / 10)
			return flame__json_bad(j, "%s is not an integer of 64 bits: '%.*s'", what,
			                       (int)(n < 40 ? n : 40), p);
		x = x * 10 + d;
	}
	*v = p[0] == '-' ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

int flame__json_array_int(flame__json *j, int64_t *v, const char *what)
{
	/* the fast path: a plain integer of at most 18 digits, all within the buffer */
	if (j->len - j->pos >= 32 && j->depth && j->open[j->depth - 1] == '[' &&
	    (j->state == ST_VALUE_OR_END || j->state == ST_AFTER)) {
		const char *p = j->buf + j->pos;
		size_t i = j->state == ST_AFTER, start;
		if (i && p[0] != ',')
			goto slow;
		int neg = p[i] == '-';
		i += (size_t)neg;
		if (!digit(p[i]) || (p[i] == '0' && digit(p[i + 1])))
			goto slow;
		uint64_t x = 0;
		for (start = i; digit(p[i]) && i - start < 18; i++)
			x = x * 10 + (uint64_t)(p[i] - '0');
		if (digit(p[i]) || p[i] == '.' || p[i] == 'e' || p[i] == 'E')
			goto slow;
		j->at = j->base + j->pos + (j->state == ST_AFTER);
		j->pos += i;
		j->state = ST_AFTER;
		*v = neg ? -(int64_t)x : (int64_t)x;
		return 1;
	}
slow:;
	int t = flame__json_next(j);
	if (t == FLAME__JSON_NUM) {
		int rc = flame__json_int(j, v, what);
		return rc ? rc : 1;
	}
	if (t == FLAME__JSON_ARR_END)
		return 0;
	return t < 0 ? t : flame__json_bad(j, "%s should be a number", what);
}

/* The plain integers that follow in the current array, up to `cap` of them, read straight
 * from the buffer into v[] (checked as number() would): how many (0: none here). */
static long ints_in_buffer(flame__json *j, int64_t *v, size_t cap)
{
	size_t n = 0;
	if (j->len - j->pos >= 32 && j->depth && j->open[j->depth - 1] == '[' &&
	    (j->state == ST_VALUE_OR_END || j->state == ST_AFTER)) {
		const char *p = j->buf + j->pos, *safe = j->buf + j->len - 24;
		int after = j->state == ST_AFTER;
		while (n < cap && p < safe) {
			const char *q = p + after;
			if (after && *p != ',')
				break;
			int neg = *q == '-';
			q += neg;
			if (!digit(*q) || (*q == '0' && digit(q[1])))
				break;
			uint64_t x = 0;
			const char *start = q;
			for (; digit(*q) && q - start < 18; q++)
				x = x * 10 + (uint64_t)(*q - '0');
			if (digit(*q) || *q == '.' || *q == 'e' || *q == 'E')
				break;
			v[n++] = neg ? -(int64_t)x : (int64_t)x;
			p = q;
			after = 1;
		}
		if (n) {
			j->at = j->base + (size_t)(p - j->buf);
			j->pos = (size_t)(p - j->buf);
			j->state = ST_AFTER;
		}
	}
	return (long)n;
}

long flame__json_array_ints(flame__json *j, int64_t *v, size_t cap, const char *what)
{
	long n = ints_in_buffer(j, v, cap);
	return n ? n : flame__json_array_int(j, v, what);
}

long flame__json_array_nints(flame__json *j, int64_t *v, size_t cap, int64_t null_value,
                             const char *what)
{
	long n = ints_in_buffer(j, v, cap);
	if (n)
		return n;
	int t = flame__json_next(j);
	if (t == FLAME__JSON_NULL) {
		*v = null_value;
		return 1;
	}
	if (t == FLAME__JSON_NUM) {
		int rc = flame__json_int(j, v, what);
		return rc ? rc : 1;
	}
	if (t == FLAME__JSON_ARR_END)
		return 0;
	return t < 0 ? t : flame__json_bad(j, "%s should be a number or null", what);
}

/* The next element of an array, from its `open` byte to the first `close` after it. */
static int peek_text(flame__json *j, char open, char close, const char **p, size_t *n)
{
	if (!j->depth || j->open[j->depth - 1] != '[' ||
	    (j->state != ST_VALUE_OR_END && j->state != ST_AFTER))
		return 0;
	size_t at = j->pos + (j->state == ST_AFTER);
	if (at >= j->len || (j->state == ST_AFTER && j->buf[j->pos] != ',') || j->buf[at] != open)
		return 0;
	const char *end = memchr(j->buf + at, close, j->len - at);
	if (!end)
		return 0;
	j->peek_comma = j->state == ST_AFTER;
	*p = j->buf + at;
	*n = (size_t)(end + 1 - *p);
	return 1;
}

int flame__json_peek_array_text(flame__json *j, const char **p, size_t *n)
{
	return peek_text(j, '[', ']', p, n);
}

int flame__json_peek_object_text(flame__json *j, const char **p, size_t *n)
{
	return peek_text(j, '{', '}', p, n);
}

int flame__json_number_token(flame__json *j, const char *p, size_t n)
{
	if (!n || !number_ok(p, n))
		return -1;
	j->s = p;
	j->n = n;
	j->at = j->base + (size_t)(p - j->buf);
	return 0;
}

void flame__json_skip_text(flame__json *j, size_t n)
{
	j->pos += n + (size_t)j->peek_comma;
	j->state = ST_AFTER;
}

/* mant * 10^-dec with dec brought into [0, 9]: 0, or -1 when it does not fit. */
static int normalize(uint64_t *mant, int *dec, int round_digit)
{
	if (round_digit >= 5 && ++*mant == 0)
		return -1;
	while (*dec < 0) {
		if (*mant > UINT64_MAX / 10)
			return -1;
		*mant *= 10;
		++*dec;
	}
	while (*dec > 9) {
		uint64_t r = *mant % 10;
		*mant = *mant / 10 + (r >= 5);
		--*dec;
	}
	return 0;
}

int flame__json_decimal(flame__json *j, uint64_t *mant, unsigned *dec, int *neg,
                        const char *what)
{
	const char *p = j->s;
	size_t i = 0, n = j->n;
	int negative = p[0] == '-', d = 0, round_digit = 0, full = 0;
	uint64_t x = 0;
	i += (size_t)negative;
	for (int frac = 0; i < n && (digit(p[i]) || (p[i] == '.' && !frac)); i++) {
		if (p[i] == '.') {
			frac = 1;
			continue;
		}
		unsigned c = (unsigned)(p[i] - '0');
		if (!full && x <= (UINT64_MAX - c) / 10) {
			x = x * 10 + c;
			d += frac;
		} else {
			if (!full)
				round_digit = (int)c;
			full = 1;
			d -= !frac; /* an integer digit dropped: one decimal less */
		}
	}
	if (i < n) { /* the exponent: the token is not NUL-terminated */
		size_t k = i + 1 + (p[i + 1] == '+' || p[i + 1] == '-');
		long e = 0;
		for (; k < n && e <= 1000; k++)
			e = e * 10 + (p[k] - '0');
		e = p[i + 1] == '-' ? -e : e;
		if (e > 40 || e < -40)
			return flame__json_bad(j, "%s is out of range: '%.*s'", what, (int)(n < 40 ? n : 40), p);
		d -= (int)e;
	}
	if ((negative && !neg && x) || normalize(&x, &d, round_digit))
		return flame__json_bad(j, "%s is %s: '%.*s'", what, negative ? "negative" : "too large",
		                       (int)(n < 40 ? n : 40), p);
	if (neg)
		*neg = negative && x;
	*mant = x;
	*dec = (unsigned)d;
	return 0;
}
