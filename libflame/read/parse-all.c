/* Parsing several inputs at once, each into its own tree, on a few threads: the whole-tree
 * reading of a diff's two sides and of a merge's inputs (the read layer: it calls
 * flame_parse from parse/, and is called from read/combine.c and the diff/merge requests).
 * Nothing is shared but the counter that hands out the jobs. */
#include <pthread.h>
#include <unistd.h>
#include "read.h"


typedef struct jobs_ctx {
	flame__parse_job *jobs;
	size_t n, next;
} jobs_ctx;

static void *run_jobs(void *ud)
{
	jobs_ctx *c = ud;
	for (;;) {
		size_t i = __atomic_fetch_add(&c->next, 1, __ATOMIC_RELAXED);
		if (i >= c->n)
			return NULL;
		flame__parse_job *j = &c->jobs[i];
		j->rc = flame_parse(j->tree, j->in, &j->opts, &j->err);
	}
}

int flame__parse_all(flame__parse_job *jobs, size_t n, unsigned threads)
{
	jobs_ctx c = {jobs, n, 0};
	if (!threads) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cores > 0 ? (unsigned)cores : 1;
	}
	size_t extra = (threads < n ? threads : n) - (n > 0), started = 0;
	pthread_t th[64];
	if (extra > sizeof th / sizeof th[0])
		extra = sizeof th / sizeof th[0];
	for (; started < extra; started++) /* a thread that cannot start leaves its share to us */
		if (pthread_create(&th[started], NULL, run_jobs, &c))
			break;
	run_jobs(&c);
	for (size_t k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	for (size_t i = 0; i < n; i++)
		if (jobs[i].rc)
			return jobs[i].rc;
	return 0;
}

