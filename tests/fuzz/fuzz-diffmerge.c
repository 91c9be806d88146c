/* Fuzz target for two-input diff and merge through the public request API: the input is
 * split at its first NUL byte (in halves when there is none) into BEFORE and AFTER, each
 * read with format auto-detection, then diffed (normalized by total, hex stripped) and
 * merged (normalized, weighted), written as folded text to /dev/null and built as trees.
 * Any pair must give a result or an error, never crash, hang or allocate without bound.
 * Built as a libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain
 * program that runs the target once per file named on the command line. */
#include <string.h>
#include "fuzz.h"

static int write_diff(void *r, flame_output *out, flame_err *err)
{
	return flame_diff_request_write_folded(r, out, err);
}

static int write_merge(void *r, flame_output *out, flame_err *err)
{
	return flame_merge_request_write_folded(r, out, err);
}

/* Run the request's folded writer into /dev/null, or its tree builder. */
static void run_diff(flame_input *in[2], const flame_parse_opts *po, const flame_diff_opts *d,
                     int tree)
{
	flame_err err;
	flame_diff_request *r = NULL;
	if (flame_diff_request_new(&r, d, &err) != 0)
		return;
	flame_diff_request_threads(r, 1);
	flame_diff_request_ignore_units(r, 1);
	flame_tree *t = NULL;
	if (flame_diff_request_input(r, 0, NULL, in[0], po, &err) == 0 &&
	    flame_diff_request_input(r, 1, NULL, in[1], po, &err) == 0) {
		if (tree && flame_diff_request_tree(r, &t, &err) == 0)
			flame_tree_free(t);
		if (!tree)
			flame_fuzz_write_null(write_diff, r);
	}
	flame_diff_request_free(r);
}

static void run_merge(flame_input *in[2], const flame_parse_opts *po, int normalize, int tree)
{
	flame_err err;
	flame_merge_request *r = NULL;
	if (flame_merge_request_new(&r, &err) != 0)
		return;
	flame_merge_request_threads(r, 1);
	flame_merge_request_normalize(r, normalize);
	flame_tree *t = NULL;
	if (flame_merge_request_input(r, NULL, in[0], po, 0, 0, &err) == 0 &&
	    flame_merge_request_input(r, NULL, in[1], po, 25, 1, &err) == 0) {
		if (tree && flame_merge_request_tree(r, &t, &err) == 0)
			flame_tree_free(t);
		if (!tree)
			flame_fuzz_write_null(write_merge, r);
	}
	flame_merge_request_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = size ? memchr(data, 0, size) : NULL;
	size_t cut = nul ? (size_t)(nul - data) : size / 2;
	size_t rest = nul ? cut + 1 : cut;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.threads = 1;
	flame_diff_opts plain = FLAME_DIFF_OPTS_INIT, norm = FLAME_DIFF_OPTS_INIT;
	norm.norm = FLAME_DIFF_NORM_TOTAL;
	norm.strip_hex = 1;
	for (int run = 0; run < 4; run++) {
		flame_err err;
		flame_input *in[2] = {NULL, NULL};
		/* a request reads a caller's input once: open them afresh for every run */
		if (flame_input_open_mem(&in[0], data, cut, "before", &err) == 0 &&
		    flame_input_open_mem(&in[1], data + rest, size - rest, "after", &err) == 0) {
			if (run < 2)
				run_diff(in, &po, run ? &norm : &plain, run);
			else
				run_merge(in, &po, run == 3, run == 3);
		}
		flame_input_free(in[0]);
		flame_input_free(in[1]);
	}
	return 0;
}

#include "replay-main.h"
