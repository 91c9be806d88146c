/* A for 2 s, then B for 1 s, then A for 1 s, on one core: the recording tests/time/aba.sh
 * draws and cuts by time. Each spins on the clock, so the seconds are the program's. */
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile unsigned long sink;

__attribute__((noinline)) static void spin_a(double until)
{
	while (now() < until)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
}

__attribute__((noinline)) static void spin_b(double until)
{
	while (now() < until)
		for (int i = 0; i < 1000; i++)
			sink ^= (unsigned long)i;
}

int main(void)
{
	double t0 = now();
	spin_a(t0 + 2);
	spin_b(t0 + 3);
	spin_a(t0 + 4);
	return 0;
}
