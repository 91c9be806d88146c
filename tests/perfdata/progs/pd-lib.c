/* The shared library of pd-prog.c (tests/perfdata/record.sh): a hot loop in a .so, so
 * the perf.data reader resolves a shared object with its load bias. */
#include <stdint.h>

volatile uint64_t pd_lib_sink;

__attribute__((noinline)) uint64_t pd_lib_spin(unsigned n)
{
	uint64_t x = n;
	for (unsigned i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	pd_lib_sink += x;
	return x;
}
