/* Fuzz target for the speedscope reader and writer (parse/speedscope.c,
 * write/speedscope.c) and the JSON tokenizer (core/json.c): any bytes, detected or forced
 * to the format, must parse or fail with an error, never crash, hang or allocate without
 * bound. What parses is written as speedscope JSON and read back: the same number of
 * stacks and the same total (at any number of decimals), or the target aborts. Built as a
 * libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain program that
 * runs the target once per file named on the command line (the corpus replay). */
#include <stdio.h>
#include <unistd.h>
#include "fuzz.h"

__extension__ typedef unsigned __int128 u128;

static u128 scaled_total(flame_tree *t, unsigned to)
{
	u128 v = flame_tree_total(t, 0);
	for (unsigned d = flame_tree_decimals(t); d < to; d++)
		v *= 10;
	return v;
}

/* t written as speedscope into a file and read back: the same stacks and total. */
static void round_trip(flame_tree *t)
{
	static char path[64];
	flame_err err;
	flame_output *out = NULL;
	if (!path[0])
		snprintf(path, sizeof path, "/tmp/fuzz-speedscope-%d.json", (int)getpid());
	if (flame_output_open(&out, path, &err))
		return;
	if (flame_write_speedscope(t, out, &err)) {
		flame_output_abort(out);
		abort(); /* what was read must be written */
	}
	if (flame_output_commit(out, &err))
		return;
	flame_tree *back = test_tree_new();
	flame_input *in = NULL;
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	size_t n0 = 0, n1 = 1;
	if (flame_input_open(&in, path, &err) || flame_parse(back, in, &o, &err) ||
	    flame_tree_stack_count(t, &n0, &err) || flame_tree_stack_count(back, &n1, &err))
		abort();
	flame_input_free(in);
	unsigned d = flame_tree_decimals(t) > flame_tree_decimals(back) ? flame_tree_decimals(t)
	                                                                 : flame_tree_decimals(back);
	if (n0 != n1 || scaled_total(t, d) != scaled_total(back, d))
		abort();
	flame_tree_free(back);
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	flame_fuzz_parse(data, size, &o, 0);
	o.format = FLAME_FORMAT_SPEEDSCOPE;
	flame_tree *t = flame_fuzz_parse(data, size, &o, 1);
	if (t) {
		round_trip(t);
		flame_tree_free(t);
	}
	return 0;
}

#include "replay-main.h"
