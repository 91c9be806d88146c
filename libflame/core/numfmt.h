/* Counts as decimal text, for the writers of folded lines (inline: they format a number
 * or two per line, millions of lines). */
#ifndef FLAME_CORE_NUMFMT_H
#define FLAME_CORE_NUMFMT_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern const char flame__digits2[200]; /* "00" "01" ... "99" */
extern const uint64_t flame__pow10[20];

/** Decimal digits of v at buf; returns their count (at most 20). */
static inline size_t flame__fmt_u64(char *buf, uint64_t v)
{
	char tmp[24];
	char *e = tmp + sizeof tmp, *p = e;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, flame__digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, flame__digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	size_t n = (size_t)(e - p);
	memcpy(buf, p, n);
	return n;
}

/** A count in units of 10^-scale, trailing zeros of the fraction trimmed ("2.5", "3");
 * returns its length (at most 31). */
static inline size_t flame__fmt_count(char *buf, uint64_t v, unsigned scale)
{
	if (!scale)
		return flame__fmt_u64(buf, v);
	uint64_t ip = v / flame__pow10[scale], fp = v % flame__pow10[scale];
	size_t len = flame__fmt_u64(buf, ip);
	if (fp) {
		buf[len++] = '.';
		unsigned digits = scale;
		while (fp % 10 == 0) {
			fp /= 10;
			digits--;
		}
		for (unsigned d = digits; d-- > 0;) {
			buf[len + d] = (char)('0' + fp % 10);
			fp /= 10;
		}
		len += digits;
	}
	return len;
}
#endif
