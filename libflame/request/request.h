/* The request layer, on top of every other: diff and merge requests (flame.h) hold the
 * inputs and what the caller wants, and choose how to get it (read/'s text merge or
 * streaming, xform/'s diff, write/'s folded writer). What both kinds share: an input
 * given by path or as the caller's flame_input. */
#ifndef FLAME_REQUEST_REQUEST_H
#define FLAME_REQUEST_REQUEST_H
#include <pthread.h>
#include "../flame.h"
#include "../read/read.h"

/* How a request reads the inputs it opens by path: the inflate limit, and one progress
 * report for all of them (bytes and stacks summed over the inputs; inputs read on several
 * threads report through one lock, so the caller's callback is never called twice at once). */
typedef struct flame__req_reading {
	uint64_t limit;          /* flame_input_set_limit of each input; 0: the defaults */
	flame_progress_fn fn;    /* NULL: no reports */
	void *ud;
	pthread_mutex_t mu;
	uint64_t done, stacks, total; /* summed; total 0 when some size is unknown */
} flame__req_reading;

void flame__req_reading_init(flame__req_reading *rd);
void flame__req_reading_free(flame__req_reading *rd);

typedef struct flame__req_input {
	char *path;          /* opened when read; NULL: `caller` is the input */
	flame_input *caller; /* the caller's, never freed here */
	flame_input *opened; /* opened from `path` while the request runs */
	flame_parse_opts opts;
	uint64_t weight;
	unsigned weight_decimals;
	flame__req_reading *reading; /* the request's; set by flame__req_reading_begin */
	uint64_t done, stacks;       /* what this input last reported */
} flame__req_input;

/** Before a request runs: attach its `n` inputs to `rd` and sum their sizes (regular files
 * by path and the caller's inputs of known size; stdin or a pipe leaves the total unknown). */
void flame__req_reading_begin(flame__req_reading *rd, flame__req_input *v, size_t n);

/** Record an input: the caller's `in`, else `path` (NULL: "-", stdin), with `po` (NULL:
 * the defaults). 0 or FLAME_ENOMEM. */
int flame__req_input_set(flame__req_input *ri, const char *path, flame_input *in,
                         const flame_parse_opts *po, flame_err *err);

/** Open `ri` (when given by path) and make `s` a fresh source of it; 0 or the open's
 * error (naming the path). */
int flame__req_input_open(flame__req_input *ri, flame__source *s, flame_err *err);

/** Close what flame__req_input_open opened (the caller's input stays open). */
void flame__req_input_close(flame__req_input *ri);

/** Close and free what `ri` holds. */
void flame__req_input_free(flame__req_input *ri);
#endif
