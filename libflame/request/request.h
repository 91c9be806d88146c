/* The request layer, on top of every other: diff and merge requests (flame.h) hold the
 * inputs and what the caller wants, and choose how to get it (read/'s text merge or
 * streaming, xform/'s diff, write/'s folded writer). What both kinds share: an input
 * given by path or as the caller's flame_input. */
#ifndef FLAME_REQUEST_REQUEST_H
#define FLAME_REQUEST_REQUEST_H
#include "../flame.h"
#include "../read/read.h"

typedef struct flame__req_input {
	char *path;          /* opened when read; NULL: `caller` is the input */
	flame_input *caller; /* the caller's, never freed here */
	flame_input *opened; /* opened from `path` while the request runs */
	flame_parse_opts opts;
	uint64_t weight;
	unsigned weight_decimals;
} flame__req_input;

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
