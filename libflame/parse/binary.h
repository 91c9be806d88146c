/* When a text reader is looking at binary data (a perf.data, a gzip, an executable given
 * where text was expected), once for every text reader: perf script, folded, and the text
 * merge of sorted folded files. They stop with FLAME__BINARY_MSG(format), naming file and
 * line, rather than make junk stacks of it.
 * Two rules. A NUL byte is in no text (UTF-8, Latin-1, tabs) and is in nearly every
 * binary file within its first few hundred bytes: folded input, where frame names may
 * carry other control bytes (escaped on output), refuses only that. perf script prints
 * no control bytes at all, so its reader refuses any but tab, CR, FF and VT, and DEL. */
#ifndef FLAME_PARSE_BINARY_H
#define FLAME_PARSE_BINARY_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FLAME__BINARY_MSG(what) "binary data where " what " was expected"

/** 1 when p[0..n) holds a control byte or DEL other than tab, CR, FF and VT. */
static inline int flame__is_binary(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f)
			return 1;
	}
	return 0;
}

/** 1 when p[0..n) holds a NUL byte. */
static inline int flame__has_nul(const char *p, size_t n)
{
	return memchr(p, 0, n) != NULL;
}

/** Nonzero when the 8 bytes of w hold a NUL, for word-at-a-time scans (the "has zero
 * byte" trick: bits above a true hit may be false hits, never bits below one, so the
 * mask restricted to the first k bytes is exact about them). */
static inline uint64_t flame__nul_mask64(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	return (w - ones) & ~w & highs;
}
#endif
