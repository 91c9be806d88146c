/* Fuzz target for the folded reader, 2-column (`stack count`) and 3-column
 * (`stack before after`, difffolded.pl's): any bytes must parse or fail with an error,
 * never crash, hang or allocate without bound; a parsed tree must build and its stacks
 * walk. Built as a libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a
 * plain program that runs the target once per file named on the command line. */
#include "fuzz.h"

static int count_stack(void *ud, const flame_str *frames, size_t n, uint64_t w0, uint64_t w1)
{
	(void)frames, (void)n, (void)w0, (void)w1;
	++*(size_t *)ud;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_FOLDED;
	flame_tree *t = flame_fuzz_parse(data, size, &o, 1);
	if (t) {
		flame_err err;
		size_t n = 0;
		flame_tree_each_stack(t, count_stack, &n, &err);
		flame_tree_free(t);
	}
	return 0;
}

#include "replay-main.h"
