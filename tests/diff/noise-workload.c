/* A CPU-bound workload for the noise tests (tests/diff/noise-real.sh) and the noise bench
 * (bench/diff-noise.sh): hot() takes about 60% of the time, warm() 25%, cold() 15%. The first
 * argument scales hot()'s work in per mille (1050: hot() 5% slower), the second the whole
 * run (per mille of about 0.25 s of CPU). Built with -falign-functions=64 -falign-loops=64:
 * unaligned, the three identical loops ran at different speeds when the other hardware thread
 * of the core was busy, and cold()'s share moved by 4 points between runs (7 times its
 * sampling noise) with the machine's load: noise of the workload, not of the sampling. */
#include <stdlib.h>

static volatile double sink;

/* each spins in its own loop, so its time is its self time (no tail call to share) */
#define SPIN(name)                                                                          \
	__attribute__((noinline)) static void name(long n)                                     \
	{                                                                                      \
		double x = 0;                                                                      \
		for (long i = 0; i < n; i++)                                                       \
			x += (double)(i & 1023) * 0.5;                                                 \
		sink = x;                                                                          \
	}
SPIN(hot)
SPIN(warm)
SPIN(cold)

int main(int argc, char **argv)
{
	long hot_pm = argc > 1 ? atol(argv[1]) : 1000, run_pm = argc > 2 ? atol(argv[2]) : 1000;
	const long unit = 20000; /* work per round: 100 rounds per 1000 per mille */
	for (long r = 0; r < run_pm / 10; r++) {
		hot(unit * 60 * hot_pm / 1000);
		warm(unit * 25);
		cold(unit * 15);
	}
	return 0;
}
