/* core/pool.h: every task runs once, on a pool thread or in the caller that waits for it
 * (a pool without threads does all its work that way), or only on a pool thread when it
 * has some (flame__pool_await); thread indexes stay in range, so per-thread scratch can
 * be indexed by them; flame__pool_run returns the first failure in job order whatever
 * the order the jobs finish in. */
#include <stdint.h>
#include <unistd.h>
#include "../../libflame/core/pool.h"
#include "harness.h"

struct count {
	int runs;
	unsigned thread;
};

static void count_run(void *arg, unsigned thread)
{
	struct count *c = arg;
	__atomic_fetch_add(&c->runs, 1, __ATOMIC_RELAXED);
	c->thread = thread;
}

static void tasks_run_once(unsigned threads)
{
	enum { N = 500 };
	static struct count c[N];
	static flame__task t[N];
	memset(c, 0, sizeof c);
	flame__pool *p = flame__pool_new(threads);
	CHECK(p != NULL);
	if (!p)
		return;
	unsigned nt = flame__pool_threads(p);
	CHECK(nt <= threads);
	for (int i = 0; i < N; i++) {
		t[i] = (flame__task){count_run, &c[i], NULL, 0};
		flame__pool_submit(p, &t[i]);
	}
	for (int i = N; i-- > 0;) /* the last first: some are still queued, and taken back */
		flame__pool_wait(p, &t[i]);
	int once = 1, in_range = 1;
	for (int i = 0; i < N; i++) {
		once &= c[i].runs == 1;
		in_range &= c[i].thread <= nt;
	}
	CHECK(once);
	CHECK(in_range);
	flame__pool_wait(p, &t[0]); /* waiting again for a finished task returns at once */
	CHECK_EQ_U64(c[0].runs, 1);
	flame__pool_free(p);
}

/* flame__pool_await leaves every task to the threads (thread < nt), queued ones too;
 * without threads the waiter runs them all (thread 0). */
static void tasks_await(unsigned threads)
{
	enum { N = 500 };
	static struct count c[N];
	static flame__task t[N];
	memset(c, 0, sizeof c);
	flame__pool *p = flame__pool_new(threads);
	CHECK(p != NULL);
	if (!p)
		return;
	unsigned nt = flame__pool_threads(p);
	for (int i = 0; i < N; i++) {
		t[i] = (flame__task){count_run, &c[i], NULL, 0};
		flame__pool_submit(p, &t[i]);
	}
	for (int i = N; i-- > 0;) /* the last first: with flame__pool_wait, some would run here */
		flame__pool_await(p, &t[i]);
	int once = 1, on_threads = 1;
	for (int i = 0; i < N; i++) {
		once &= c[i].runs == 1;
		on_threads &= nt ? c[i].thread < nt : c[i].thread == 0;
	}
	CHECK(once);
	CHECK(on_threads);
	flame__pool_free(p);
}

/* jobs finish out of order: the later ones fail first */
static int slow_fail(void *ctx, size_t i)
{
	int *seen = ctx;
	if (i < 3)
		usleep(20000);
	__atomic_fetch_add(&seen[i], 1, __ATOMIC_RELAXED);
	return i == 1 ? -11 : i >= 5 ? -(int)i : 0;
}

static void run_first_failure(unsigned threads)
{
	int seen[8] = {0};
	CHECK_EQ_U64(flame__pool_run(threads, 8, slow_fail, seen), (uint64_t)(int64_t)-11);
	int all = 1;
	for (int i = 0; i < 8; i++)
		all &= seen[i] == 1;
	CHECK(all);
	CHECK_EQ_U64(flame__pool_run(threads, 0, slow_fail, seen), 0);
}

int main(void)
{
	tasks_run_once(0); /* no thread: the waiter runs every task */
	tasks_run_once(1);
	tasks_run_once(4);
	tasks_await(0);
	tasks_await(1);
	tasks_await(4);
	run_first_failure(1);
	run_first_failure(3);
	run_first_failure(64);
	return harness_done();
}
