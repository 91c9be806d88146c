/* A workload for the perf.data tests (tests/perfdata/record.sh) whose functions carry Rust
 * symbol names, so the test needs no Rust compiler: a legacy name with its hash, a legacy
 * name with $-escapes (an impl of a trait for a generic type), and a v0 name. perf script
 * demangles all three; flame-collapse must show them as it does.
 * Usage: pd-rust MILLISECONDS */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

#define SPIN(fn, sym)                                                                      \
	__attribute__((noinline)) void fn(unsigned n) __asm__(sym);                            \
	__attribute__((noinline)) void fn(unsigned n)                                          \
	{                                                                                      \
		for (unsigned i = 0; i < n; i++)                                                   \
			sink += i;                                                                     \
	}
SPIN(legacy, "_ZN4core3fmt5write17h0123456789abcdefE")
SPIN(escaped, "_ZN63_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..clone..Clone$GT$5clone"
              "17h9f8e7d6c5b4a3210E")
SPIN(v0, "_RNvCs1234_7mycrate4spin")

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double until = now_ms() + (argc > 1 ? atof(argv[1]) : 300);
	while (now_ms() < until) {
		legacy(200000);
		escaped(200000);
		v0(200000);
	}
	return 0;
}
