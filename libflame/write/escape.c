/* The escaping gate (see escape.h). A table marks the ASCII bytes that need work, so
 * plain names are copied in runs; UTF-8 is validated per sequence (RFC 3629 ranges). */
#include <stdio.h>
#include <string.h>
#include "escape.h"

/* 0: copy; 1: entity or reference; 2: forbidden control byte; 3: start of non-ASCII */
static const unsigned char cls[256] = {
	2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 1, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
};

/* Length of the well-formed, XML-allowed UTF-8 sequence at s (s[0] >= 0x80), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	if (c >= 0xc2 && c <= 0xdf)
		return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0; /* overlong */
		if (c == 0xed && s[1] >= 0xa0)
			return 0; /* surrogate */
		if (c == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf))
			return 0; /* U+FFFE, U+FFFF: not XML characters */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && s[1] < 0x90)
			return 0; /* overlong */
		if (c == 0xf4 && s[1] >= 0x90)
			return 0; /* > U+10FFFF */
		return 4;
	}
	return 0;
}

static size_t gate(char *dst, const char *src, size_t n, int markup)
{
	const unsigned char *s = (const unsigned char *)src;
	char *d = dst;
	size_t i = 0;
	while (i < n) {
		size_t j = i;
		while (j < n && cls[s[j]] == 0)
			j++;
		if (j > i) {
			memcpy(d, s + i, j - i);
			d += j - i;
			i = j;
			if (i == n)
				break;
		}
		unsigned c = s[i];
		const char *rep = NULL;
		switch (cls[c]) {
		case 1:
			if (!markup) {
				*d++ = (char)c;
				i++;
				continue;
			}
			switch (c) {
			case '&': rep = "&amp;"; break;
			case '<': rep = "&lt;"; break;
			case '>': rep = "&gt;"; break;
			case '"': rep = "&quot;"; break;
			case '\'': rep = "&#39;"; break;
			case '\t': rep = "&#9;"; break;
			case '\n': rep = "&#10;"; break;
			default: rep = "&#13;"; break;
			}
			i++;
			break;
		case 2:
			rep = "\xef\xbf\xbd";
			i++;
			break;
		default: {
			size_t k = utf8_seq(s + i, n - i);
			if (k) {
				memcpy(d, s + i, k);
				d += k;
				i += k;
				continue;
			}
			rep = "\xef\xbf\xbd";
			i++; /* one U+FFFD per bad byte */
		}
		}
		size_t rl = strlen(rep);
		memcpy(d, rep, rl);
		d += rl;
	}
	return (size_t)(d - dst);
}

size_t flame__xml_escape(char *dst, const char *src, size_t n) { return gate(dst, src, n, 1); }

size_t flame__utf8_repair(char *dst, const char *src, size_t n) { return gate(dst, src, n, 0); }

/* One byte inside a JSON string, the one escape both JSON writers use: '"' and '\\' get a
 * backslash, control bytes and DEL become \u00XX; others pass. Returns the bytes written
 * (at most 6). */
static size_t json_byte(char *d, unsigned char c)
{
	if (c == '"' || c == '\\') {
		d[0] = '\\';
		d[1] = (char)c;
		return 2;
	}
	if (c < 0x20 || c == 0x7f) {
		memcpy(d, "\\u00", 4);
		d[4] = "0123456789abcdef"[c >> 4];
		d[5] = "0123456789abcdef"[c & 15];
		return 6;
	}
	d[0] = (char)c;
	return 1;
}

/* A field or string: CSV quotes it (RFC 4180), JSON escapes it, invalid UTF-8 as U+FFFD. */
int flame__put_quoted(flame_text_fn fn, void *ud, const char *p, size_t n, int json)
{
	char buf[512];
	size_t o = 0;
	int rc = fn(ud, "\"", 1);
	for (size_t i = 0; i < n && !rc;) {
		unsigned char ch = (unsigned char)p[i];
		size_t len = 1;
		if (ch >= 0x80) { /* a whole, shortest-form UTF-8 sequence, or one bad byte */
			size_t want = ch >= 0xf0 && ch <= 0xf4 ? 4 : ch >= 0xe0 ? 3 : ch >= 0xc2 && ch < 0xe0 ? 2 : 0;
			int ok = want && i + want <= n;
			for (size_t k = 1; ok && k < want; k++)
				ok = ((unsigned char)p[i + k] & 0xc0) == 0x80;
			if (ok && want == 3)
				ok = !(ch == 0xe0 && (unsigned char)p[i + 1] < 0xa0) &&
				     !(ch == 0xed && (unsigned char)p[i + 1] >= 0xa0);
			if (ok && want == 4)
				ok = !(ch == 0xf0 && (unsigned char)p[i + 1] < 0x90) &&
				     !(ch == 0xf4 && (unsigned char)p[i + 1] >= 0x90);
			if (ok) {
				memcpy(buf + o, p + i, want);
				o += want;
				len = want;
			} else {
				memcpy(buf + o, "\xef\xbf\xbd", 3);
				o += 3;
			}
		} else if (json) {
			o += json_byte(buf + o, ch);
		} else if (ch == '"') {
			memcpy(buf + o, "\"\"", 2);
			o += 2;
		} else {
			buf[o++] = (char)ch;
		}
		i += len;
		if (o > sizeof buf - 16 || i >= n) {
			rc = fn(ud, buf, o);
			o = 0;
		}
	}
	return rc ? rc : fn(ud, "\"", 1);
}

size_t flame__json_escape(char *dst, const char *src, size_t n)
{
	char *d = dst;
	for (size_t i = 0; i < n; i++)
		d += json_byte(d, (unsigned char)src[i]);
	return (size_t)(d - dst);
}
