/* A workload for the --call-graph dwarf tests (tests/perfdata/record.sh), built
 * -O2 -g -fomit-frame-pointer: two threads calling through the PLT into a shared library
 * of ours (pd-dwlib.c, whose loop is an inlined function), a SIGPROF handler that works
 * on top of the interrupted stack (a signal frame), a recursion deeper than the 8 KiB
 * stack dump, and a static function inlined into its caller.
 * Usage: pd-dwarf MILLISECONDS */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

uint64_t pd_dw_lib(unsigned n);
static volatile uint64_t sink;
static double ms_total;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline __attribute__((always_inline)) uint64_t mix(uint64_t x, unsigned i)
{
	for (unsigned k = 0; k < 8; k++)
		x = (x ^ (x << 7) ^ (x >> 9) ^ i) * 0x9e3779b97f4a7c15ULL + k;
	return x;
}

__attribute__((noinline)) static uint64_t inlined_caller(unsigned n)
{
	uint64_t x = n;
	for (unsigned i = 0; i < n; i++)
		x = mix(x, i);
	return x;
}

/* deep: each level keeps 256 bytes on the stack, so 64 levels pass the dump */
__attribute__((noinline)) static uint64_t deep(unsigned depth)
{
	volatile char pad[256];
	pad[depth & 255] = (char)depth;
	if (!depth)
		return inlined_caller(30000);
	return deep(depth - 1) + pad[depth & 255];
}

__attribute__((noinline)) static void in_handler(void)
{
	sink += inlined_caller(20000);
}

static void on_prof(int sig)
{
	(void)sig;
	in_handler();
}

static void *worker(void *arg)
{
	const char *what = arg;
	pthread_setname_np(pthread_self(), what);
	double end = now_ms() + ms_total;
	while (now_ms() < end) {
		if (strcmp(what, "dw-deep") == 0)
			sink += deep(64);
		else
			sink += pd_dw_lib(20000) + inlined_caller(5000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	ms_total = argc > 1 ? atof(argv[1]) : 300;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_prof;
	sigaction(SIGPROF, &sa, NULL);
	struct itimerval it = {{0, 2000}, {0, 2000}};
	setitimer(ITIMER_PROF, &it, NULL);
	pthread_t a, b;
	pthread_create(&a, NULL, worker, "dw-lib");
	pthread_create(&b, NULL, worker, "dw-deep");
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
