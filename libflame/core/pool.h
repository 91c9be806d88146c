/* The one thread pool of the library: a few threads that run tasks handed to them in
 * order, and a caller that waits for each task (running it itself when no thread has
 * taken it yet, so a pool that could start no thread, or a busy machine, still gets the
 * work done; or, for tasks that keep per-thread state warm, only when no thread started). Whole-input parses, the streamed inputs of a diff or merge, perf's blocks,
 * the checks of sorted folded files and the folded writer's second formatter all run on
 * it. No global state: a pool belongs to the call that made it. */
#ifndef FLAME_CORE_POOL_H
#define FLAME_CORE_POOL_H
#include <stddef.h>

typedef struct flame__pool flame__pool;

/** A task, owned by the caller (no allocation per task): `fn(arg, thread)` runs once, on a
 * pool thread (`thread` in [0, threads)) or in the waiting caller (`thread` == threads),
 * so per-thread scratch can be indexed by it. Not moved or reused until waited for. */
typedef struct flame__task {
	void (*fn)(void *arg, unsigned thread);
	void *arg;
	struct flame__task *next; /* the pool's queue */
	int state;                /* the pool's */
} flame__task;

/** A pool of up to `threads` threads (0 when none could start, or `threads` is 0); NULL
 * on out of memory. */
flame__pool *flame__pool_new(unsigned threads);
/** The threads that started: tasks that must run at the same time as one another (the
 * streamed inputs) need as many. */
unsigned flame__pool_threads(const flame__pool *p);
/** Queue `t` (its fn and arg set) for the next free thread. */
void flame__pool_submit(flame__pool *p, flame__task *t);
/** Return when `t` has run: wait for the thread running it, or run it here if no thread
 * has taken it. */
void flame__pool_wait(flame__pool *p, flame__task *t);
/** The same, but `t` is left to the threads (it runs here only when none started): for
 * tasks that keep per-thread state warm, such as perf's line caches, where a task run by
 * the waiter would warm one set more. */
void flame__pool_await(flame__pool *p, flame__task *t);
/** Stop the threads and free the pool; every submitted task must have been waited for.
 * NULL is a no-op. */
void flame__pool_free(flame__pool *p);

/** Run job(ctx, i) for i in [0, n) on up to `threads` threads, this one included, and
 * return the first nonzero result in job order (every job runs). */
int flame__pool_run(unsigned threads, size_t n, int (*job)(void *ctx, size_t i), void *ctx);
#endif
