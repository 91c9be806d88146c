/* Multi-threaded stacks with inlined functions for the perf fixtures: four named
 * threads (one name with a space), each running its own loop through always-inline
 * helpers, so DWARF unwinding shows "(inlined)" frames. Recorded by record.sh. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile uint64_t sink;
static unsigned rounds = 400;

static inline __attribute__((always_inline)) uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	return x * 0x9e3779b97f4a7c15ULL;
}
static inline __attribute__((always_inline)) uint64_t mix_twice(uint64_t x)
{
	return mix(mix(x) + 1);
}

__attribute__((noinline)) static void hash_loop(uint64_t seed)
{
	uint64_t x = seed;
	for (unsigned i = 0; i < 100000; i++)
		x = mix_twice(x);
	sink += x;
}

__attribute__((noinline)) static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) static void sort_loop(void)
{
	static uint32_t v[4096];
	for (unsigned i = 0; i < 4096; i++)
		v[i] = (uint32_t)mix(i);
	for (unsigned i = 1; i < 4096; i++) /* insertion sort: slow on purpose */
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint32_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	sink += v[0];
}

static void *hasher(void *a) { for (unsigned r = 0; r < rounds; r++) hash_loop(r + (uintptr_t)a); return NULL; }
static void *fibber(void *a) { for (unsigned r = 0; r < rounds / 2; r++) sink += fib(24 + r % 3); return a; }
static void *sorter(void *a) { for (unsigned r = 0; r < rounds / 40; r++) sort_loop(); return a; }

int main(int argc, char **argv)
{
	if (argc > 1)
		rounds = (unsigned)atoi(argv[1]);
	pthread_t t[3];
	void *(*fn[3])(void *) = {hasher, fibber, sorter};
	const char *names[3] = {"hash worker", "fib-thread", "sorter"};
	for (int i = 0; i < 3; i++) {
		pthread_create(&t[i], NULL, fn[i], (void *)(uintptr_t)i);
		pthread_setname_np(t[i], names[i]);
	}
	hash_loop(7);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
