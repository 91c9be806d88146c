/* The thread pool of core/pool.h: a FIFO of caller-owned tasks under one mutex, threads
 * that take them from the head, and waiters that take a task back when it is still
 * queued. Handovers are per task, and tasks are large (a block of lines, a whole
 * input), so one lock is never contended enough to matter. */
#include <pthread.h>
#include <stdlib.h>
#include "pool.h"

enum { T_QUEUED = 1, T_RUNNING, T_DONE };

struct flame__pool {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	flame__task *head, *tail;
	int stop;
	unsigned nthreads;
	pthread_t th[];
};

struct start {
	flame__pool *p;
	unsigned index;
};

static void *thread_main(void *arg)
{
	flame__pool *p = ((struct start *)arg)->p;
	unsigned me = ((struct start *)arg)->index;
	free(arg);
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->head && !p->stop)
			pthread_cond_wait(&p->work, &p->mu);
		if (!p->head)
			break;
		flame__task *t = p->head;
		if (!(p->head = t->next))
			p->tail = NULL;
		t->state = T_RUNNING;
		pthread_mutex_unlock(&p->mu);
		t->fn(t->arg, me);
		pthread_mutex_lock(&p->mu);
		t->state = T_DONE;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

flame__pool *flame__pool_new(unsigned threads)
{
	flame__pool *p = calloc(1, sizeof *p + (size_t)threads * sizeof p->th[0]);
	if (!p)
		return NULL;
	if (pthread_mutex_init(&p->mu, NULL)) {
		free(p);
		return NULL;
	}
	if (pthread_cond_init(&p->work, NULL)) {
		pthread_mutex_destroy(&p->mu);
		free(p);
		return NULL;
	}
	if (pthread_cond_init(&p->done, NULL)) {
		pthread_cond_destroy(&p->work);
		pthread_mutex_destroy(&p->mu);
		free(p);
		return NULL;
	}
	/* a thread that cannot start leaves its share to the others, or to the waiter */
	while (p->nthreads < threads) {
		struct start *s = malloc(sizeof *s);
		if (!s)
			break;
		*s = (struct start){p, p->nthreads};
		if (pthread_create(&p->th[p->nthreads], NULL, thread_main, s)) {
			free(s);
			break;
		}
		p->nthreads++;
	}
	return p;
}

unsigned flame__pool_threads(const flame__pool *p) { return p->nthreads; }

void flame__pool_submit(flame__pool *p, flame__task *t)
{
	t->next = NULL;
	pthread_mutex_lock(&p->mu);
	t->state = T_QUEUED;
	if (p->tail)
		p->tail->next = t;
	else
		p->head = t;
	p->tail = t;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
}

/* Wait for `t`; run it here when it is still queued and `take` says so. */
static void wait_task(flame__pool *p, flame__task *t, int take)
{
	pthread_mutex_lock(&p->mu);
	if (take && t->state == T_QUEUED) { /* no thread took it: take it back (the queue is short) */
		flame__task **at = &p->head, *prev = NULL;
		while (*at != t) {
			prev = *at;
			at = &(*at)->next;
		}
		*at = t->next;
		if (p->tail == t)
			p->tail = prev;
		t->state = T_RUNNING;
		pthread_mutex_unlock(&p->mu);
		t->fn(t->arg, p->nthreads);
		pthread_mutex_lock(&p->mu);
		t->state = T_DONE;
	}
	while (t->state != T_DONE)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

void flame__pool_wait(flame__pool *p, flame__task *t) { wait_task(p, t, 1); }

void flame__pool_await(flame__pool *p, flame__task *t) { wait_task(p, t, p->nthreads == 0); }

void flame__pool_free(flame__pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->nthreads; i++)
		pthread_join(p->th[i], NULL);
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

struct batch {
	int (*job)(void *ctx, size_t i);
	void *ctx;
	size_t i;
	int rc;
};

static void run_batch_job(void *arg, unsigned thread)
{
	struct batch *b = arg;
	(void)thread;
	b->rc = b->job(b->ctx, b->i);
}

int flame__pool_run(unsigned threads, size_t n, int (*job)(void *ctx, size_t i), void *ctx)
{
	size_t extra = threads > 1 && n > 1 ? (size_t)threads - 1 : 0;
	if (extra > n - 1)
		extra = n - 1;
	flame__pool *p = extra ? flame__pool_new((unsigned)extra) : NULL;
	flame__task *tasks = p ? calloc(n, sizeof *tasks) : NULL;
	struct batch *bs = tasks ? calloc(n, sizeof *bs) : NULL;
	int rc = 0;
	if (!bs) { /* one thread, or no memory for more: all of it here */
		free(tasks);
		flame__pool_free(p);
		for (size_t i = 0; i < n; i++) {
			int r = job(ctx, i);
			if (!rc)
				rc = r;
		}
		return rc;
	}
	for (size_t i = 0; i < n; i++) {
		bs[i] = (struct batch){job, ctx, i, 0};
		tasks[i] = (flame__task){run_batch_job, &bs[i], NULL, 0};
		flame__pool_submit(p, &tasks[i]);
	}
	/* last first: the threads take jobs from the head, this one takes them back from the
	 * tail, and when the one waited for is running, every job before it has started */
	for (size_t i = n; i-- > 0;)
		flame__pool_wait(p, &tasks[i]);
	for (size_t i = 0; i < n && !rc; i++)
		rc = bs[i].rc;
	flame__pool_free(p);
	free(tasks);
	free(bs);
	return rc;
}
