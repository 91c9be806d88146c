/* The folded-line grammar, once: how a line `stack WS count` or `stack WS before WS after`
 * splits into its stack and counts (as flamegraph.pl reads it: a count is the text after
 * the last run of blanks, `\d+(\.\d*)?`; when the stack part itself ends in `WS count`,
 * the line is differential). The folded parser (parse/folded.c) and the text merge of
 * sorted files (read/sorted-text.c) both split lines here, so what one takes the other
 * takes the same way. Inline: it runs once per line on the fastest paths. */
#ifndef FLAME_PARSE_FOLDED_LINE_H
#define FLAME_PARSE_FOLDED_LINE_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** A count as written: mant / 10^dec exactly. */
typedef struct flame__count {
	uint64_t mant;
	unsigned dec;
} flame__count;

/* Parse `\d+(\.\d*)?` exactly; 0 ok, -1 not a count, -2 overflow / too many decimals. */
static inline int flame__count_parse(const char *p, size_t n, flame__count *c)
{
	uint64_t v = 0;
	unsigned dec = 0;
	int dot = 0;
	if (n == 0 || p[0] < '0' || p[0] > '9')
		return -1;
	for (size_t i = 0; i < n; i++) {
		char ch = p[i];
		if (ch == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (ch < '0' || ch > '9')
			return -1;
		if (dot) {
			if (ch == '0') {
				/* trailing zeros need not raise the scale: count them lazily */
				size_t j = i;
				while (j < n && p[j] == '0')
					j++;
				if (j == n)
					break;
			}
			if (++dec > 9)
				return -2;
		}
		if (v >= UINT64_MAX / 10 && (v > UINT64_MAX / 10 || (uint64_t)(ch - '0') > UINT64_MAX % 10))
			return -2;
		v = v * 10 + (uint64_t)(ch - '0');
	}
	c->mant = v;
	c->dec = dec;
	return 0;
}

/* Split off a trailing `WS count` of p[0..*n) as a count (*n becomes the length before its
 * blanks): 0, -1 when there is none, -2 when it overflows. Scans back only over the count's
 * own characters, so a stack without a trailing number costs a byte or two. */
static inline int flame__count_take(const char *p, size_t *n, flame__count *c)
{
	size_t e = *n;
	size_t s = e;
	/* the usual case first: up to 19 digits (cannot overflow), no '.', valued as they
	 * are scanned (right to left) */
	uint64_t v = 0, m = 1;
	unsigned d;
	while (s > 0 && e - s < 19 && (d = (unsigned char)(p[s - 1] - '0')) < 10) {
		v += d * m;
		m *= 10;
		s--;
	}
	if (s < e && s > 0 && (p[s - 1] == ' ' || p[s - 1] == '\t')) {
		c->mant = v;
		c->dec = 0;
		while (s > 0 && (p[s - 1] == ' ' || p[s - 1] == '\t'))
			s--;
		*n = s;
		return 0;
	}
	while (s > 0 && ((p[s - 1] >= '0' && p[s - 1] <= '9') || p[s - 1] == '.'))
		s--;
	if (s == e || s == 0 || (p[s - 1] != ' ' && p[s - 1] != '\t'))
		return -1;
	int rc = flame__count_parse(p + s, e - s, c);
	if (rc)
		return rc;
	while (s > 0 && (p[s - 1] == ' ' || p[s - 1] == '\t'))
		s--;
	*n = s;
	return 0;
}

/** One folded line p[0..*n) (no '\n'; a trailing '\r' is dropped): 0 with *n the length
 * of the stack (0 for a line with nothing before its count) and the counts in c[] (one:
 * c[0]; differential: c[0] BEFORE, c[1] AFTER, *ncounts 2); -1 when the line has no
 * count; -2 when its (last) count overflows. A blank line is -1 with *n 0. */
static inline int flame__folded_line(const char *p, size_t *n, flame__count c[2], int *ncounts)
{
	size_t m = *n;
	if (m && p[m - 1] == '\r')
		m--;
	*n = m;
	if (m == 0)
		return -1;
	int rc = flame__count_take(p, &m, &c[0]);
	if (rc)
		return rc;
	*ncounts = 1;
	size_t k = m;
	if (flame__count_take(p, &k, &c[1]) == 0) { /* `stack before after` */
		flame__count after = c[0];
		c[0] = c[1];
		c[1] = after;
		*ncounts = 2;
		m = k;
	}
	*n = m;
	return 0;
}
#endif
