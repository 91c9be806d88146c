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

/** Hash a byte string 8 bytes at a time. */
static inline uint64_t flame__hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
	while (n >= 8) {
		uint64_t v;
		memcpy(&v, s, 8);
		h = (h ^ v) * 0x100000001b3ULL;
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	if (n) {
		uint64_t v = 0;
		memcpy(&v, s, n);
		h = (h ^ v) * 0x100000001b3ULL;
	}
	return flame__mix64(h);
}
#endif
