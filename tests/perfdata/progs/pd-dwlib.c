/* The shared library of pd-dwarf.c (tests/perfdata/record.sh), called through the PLT;
 * its loop is an inlined function, so a frame here has an inline frame above it. */
#include <stdint.h>

volatile uint64_t pd_dw_sink;

static inline __attribute__((always_inline)) uint64_t step(uint64_t x)
{
	for (unsigned k = 0; k < 8; k++)
		x = (x ^ (x >> 13)) * 6364136223846793005ULL + 1442695040888963407ULL + k;
	return x;
}

__attribute__((noinline)) uint64_t pd_dw_lib(unsigned n)
{
	uint64_t x = n;
	for (unsigned i = 0; i < n; i++)
		x = step(x);
	pd_dw_sink += x;
	return x;
}
