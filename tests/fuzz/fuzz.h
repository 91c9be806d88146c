/* What every fuzz target shares: the libFuzzer entry point's prototype and one parse of
 * the input under given options into a tree that is then built, so each target only
 * says which formats and options it drives. Included by the tests/fuzz/fuzz-*.c targets,
 * which end with replay-main.h for the corpus-replay build. */
#ifndef FLAME_FUZZ_H
#define FLAME_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "libflame/flame.h"

/* A new tree; out of memory is a crash here. */
static inline flame_tree *test_tree_new(void)
{
	flame_tree *t = NULL;
	if (flame_tree_new(&t, NULL))
		abort();
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parse `data` as `o` says and build the tree. Returns the built tree when the input
 * parsed (the caller frees it) if `keep` is set, else frees it and returns NULL. Errors
 * are the expected answer to most inputs: only crashes, hangs and leaks are findings. */
static inline flame_tree *flame_fuzz_parse(const uint8_t *data, size_t size,
                                           const flame_parse_opts *o, int keep)
{
	flame_err err;
	flame_tree *t = test_tree_new();
	flame_input *in = NULL;
	int ok = t && flame_input_open_mem(&in, data, size, "fuzz", &err) == 0 &&
	         flame_parse(t, in, o, &err) == 0 &&
	         flame_tree_build(t, FLAME_ORDER_NAME, &err) == 0;
	flame_input_free(in);
	if (ok && keep)
		return t;
	flame_tree_free(t);
	return NULL;
}

/* Run a writer into /dev/null (written in place, so nothing is kept): committed when it
 * succeeds, aborted when it fails, as the tools do. */
typedef int (*flame_fuzz_write_fn)(void *ctx, flame_output *out, flame_err *err);
static inline void flame_fuzz_write_null(flame_fuzz_write_fn write, void *ctx)
{
	flame_err err;
	flame_output *out = NULL;
	if (flame_output_open(&out, "/dev/null", &err) != 0)
		return;
	if (write(ctx, out, &err) == 0)
		flame_output_commit(out, &err);
	else
		flame_output_abort(out);
}
#endif
