/* Deep and recursive stacks for the perf fixtures: a recursion 300 frames deep, mutual
 * recursion (even/odd), and a call chain through function pointers. Built with frame
 * pointers and recorded by record.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile uint64_t sink;

__attribute__((noinline)) static void burn(unsigned n)
{
	uint64_t x = n;
	for (unsigned i = 0; i < 20000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink += x;
}

__attribute__((noinline)) static void dive(unsigned depth)
{
	if (depth == 0) {
		burn(depth);
		return;
	}
	dive(depth - 1);
	sink++;
}

__attribute__((noinline)) static void is_odd(unsigned n);
__attribute__((noinline)) static void is_even(unsigned n)
{
	if (n == 0)
		burn(n);
	else
		is_odd(n - 1);
	sink++;
}
__attribute__((noinline)) static void is_odd(unsigned n)
{
	if (n == 0)
		burn(n);
	else
		is_even(n - 1);
	sink++;
}

typedef void (*step_fn)(unsigned);
__attribute__((noinline)) static void step_c(unsigned n) { burn(n); }
__attribute__((noinline)) static void step_b(unsigned n) { step_c(n); sink++; }
__attribute__((noinline)) static void step_a(unsigned n) { step_b(n); sink++; }
static step_fn steps[] = {step_a, step_b, step_c};

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 3000;
	for (unsigned r = 0; r < rounds; r++) {
		dive(300);
		is_even(40 + r % 3);
		steps[r % 3](r);
	}
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
