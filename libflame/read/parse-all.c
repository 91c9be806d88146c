/* Parsing several inputs at once, each into its own tree, on a few threads: the whole-tree
 * reading of a diff's two sides and of a merge's inputs (the read layer: it calls
 * flame_parse from parse/, and is called from read/combine.c and the diff/merge requests).
 * Nothing is shared but core/pool.h's queue of jobs. */
#include <unistd.h>
#include "../core/pool.h"
#include "read.h"

static int run_job(void *ctx, size_t i)
{
	flame__parse_job *j = &((flame__parse_job *)ctx)[i];
	return j->rc = flame_parse(j->tree, j->in, &j->opts, &j->err);
}

int flame__parse_all(flame__parse_job *jobs, size_t n, unsigned threads)
{
	if (!threads) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cores > 0 ? (unsigned)cores : 1;
	}
	if (threads > 65)
		threads = 65; /* this one and 64 more */
	return flame__pool_run(threads, n, run_job, jobs);
}
