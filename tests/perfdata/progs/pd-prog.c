/* A workload for the perf.data tests (tests/perfdata/record.sh), built with frame
 * pointers: two named threads, a loop in a shared library (pd-lib.c), a loop in the
 * kernel (reads of /dev/zero), a C++-free recursion, and, on x86-64, a loop in
 * anonymous executable memory named by /tmp/perf-PID.map as a JIT names its code.
 * Usage: pd-prog MILLISECONDS */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

uint64_t pd_lib_spin(unsigned n);
static volatile uint64_t sink;
static double ms_total;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static uint64_t user_leaf(unsigned n)
{
	uint64_t x = n;
	for (unsigned i = 0; i < n; i++)
		x ^= x << 7 ^ x >> 9 ^ i;
	return x;
}

__attribute__((noinline)) static uint64_t recurse(unsigned depth)
{
	if (!depth)
		return user_leaf(20000);
	return recurse(depth - 1) + 1;
}

__attribute__((noinline)) static void kernel_reads(int fd)
{
	static char buf[1 << 16];
	for (int i = 0; i < 8; i++)
		if (read(fd, buf, sizeof buf) < 0)
			abort();
}

static void *worker(void *arg)
{
	const char *what = arg;
	pthread_setname_np(pthread_self(), what);
	int fd = open("/dev/zero", O_RDONLY);
	double end = now_ms() + ms_total;
	while (now_ms() < end) {
		if (strcmp(what, "pd-kernel") == 0)
			kernel_reads(fd);
		else
			sink += recurse(5) + pd_lib_spin(20000);
	}
	close(fd);
	return NULL;
}

/* x86-64: mov ecx, N; 1: dec ecx; jnz 1b; ret */
static void jit(void)
{
#if defined(__x86_64__)
	unsigned char code[] = {0xb9, 0x40, 0x42, 0x0f, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3};
	unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	memcpy(p, code, sizeof code);
	char path[64];
	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%lx %zx pd_jit_loop\n", (unsigned long)(uintptr_t)p, sizeof code);
	fclose(f);
	void (*fn)(void) = (void (*)(void))p;
	double end = now_ms() + ms_total / 2;
	while (now_ms() < end)
		fn();
#endif
}

int main(int argc, char **argv)
{
	ms_total = argc > 1 ? atof(argv[1]) : 300;
	pthread_t a, b;
	pthread_create(&a, NULL, worker, "pd-user");
	pthread_create(&b, NULL, worker, "pd-kernel");
	jit();
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return sink == 42; /* keeps the work; prints nothing (perf record -o - writes to stdout) */
}
