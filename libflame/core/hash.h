/* Fast non-cryptographic hashing for interning and stack keys (not attacker-proof
 * against collisions, but tables probe linearly and grow, so the worst case is slow,
 * not wrong). */
#ifndef FLAME_CORE_HASH_H
#define FLAME_CORE_HASH_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t flame__mix64(uint64_t x)
{
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	return x;
}

/* Word-at-a-time string hash, usable incrementally so a parser can hash a name while it
 * scans for the name's end (see parse/folded.c): seed, one _word per full 8 bytes, one
 * _tail for the 1-7 bytes left (zero-padded, little-endian as memcpy loads them), then
 * _final with the length. flame__hash_bytes is exactly that sequence. */
#define FLAME__HASH_SEED 0x9e3779b97f4a7c15ULL

static inline uint64_t flame__hash_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xff51afd7ed558ccdULL;
	return h ^ (h >> 29);
}

static inline uint64_t flame__hash_tail(uint64_t h, uint64_t partial)
{
	return (h ^ partial) * 0xc4ceb9fe1a85ec53ULL;
}

static inline uint64_t flame__hash_final(uint64_t h, size_t n)
{
	return flame__mix64(h ^ ((uint64_t)n * 0x2545f4914f6cdd1dULL));
}

/** Hash a byte string 8 bytes at a time. */
static inline uint64_t flame__hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	uint64_t h = FLAME__HASH_SEED;
	size_t left = n;
	while (left >= 8) {
		uint64_t v;
		memcpy(&v, s, 8);
		h = flame__hash_word(h, v);
		s += 8;
		left -= 8;
	}
	if (left) {
		uint64_t v = 0;
		memcpy(&v, s, left);
		h = flame__hash_tail(h, v);
	}
	return flame__hash_final(h, n);
}
/** A hash for long byte strings (lines of perf script, whole stack texts): two
 * independent lanes of 8 bytes, so the multiply chains overlap (half the latency of
 * flame__hash_bytes' one chain); the tail is read as the last 8 bytes, overlapping. */
static inline uint64_t flame__hash_lanes(const void *s, size_t n)
{
	const char *p = (const char *)s;
	uint64_t a = 0x9e3779b97f4a7c15ULL ^ n, b = 0xc2b2ae3d27d4eb4fULL, x, y;
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		memcpy(&x, p + i, 8);
		memcpy(&y, p + i + 8, 8);
		a = (a ^ x) * 0xff51afd7ed558ccdULL;
		b = (b ^ y) * 0xc4ceb9fe1a85ec53ULL;
		a ^= a >> 29;
		b ^= b >> 31;
	}
	if (n >= 8) {
		if (i + 8 <= n) {
			memcpy(&x, p + i, 8);
			a = (a ^ x) * 0xff51afd7ed558ccdULL;
		}
		memcpy(&y, p + n - 8, 8);
		b = (b ^ y) * 0xc4ceb9fe1a85ec53ULL;
	} else if (n) {
		y = 0;
		memcpy(&y, p, n);
		b = (b ^ y) * 0xc4ceb9fe1a85ec53ULL;
	}
	return flame__mix64(a ^ (b << 17 | b >> 47));
}
#endif
