/* Fuzz target for the BCC offcputime reader (multi-line, -f, -v and old forms): any bytes must parse or fail
 * with an error, never crash, hang or allocate without bound; a parsed tree must build. Built as a libFuzzer target with clang (-fsanitize=fuzzer); with
 * FLAME_FUZZ_MAIN it is a plain program that runs the target once per file named on the
 * command line (the corpus replay the test suite does with any compiler). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "libflame/flame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_err err;
	for (int mode = 0; mode < 2; mode++) {
		flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
		o.format = mode ? FLAME_FORMAT_OFFCPU : FLAME_FORMAT_AUTO;
		if (mode)
			o.offcpu.flags = FLAME_OFFCPU_TID;
		flame_tree *t = flame_tree_new();
		flame_input *in = NULL;
		if (t && flame_input_open_mem(&in, data, size, "fuzz", &err) == 0 &&
		    flame_parse(t, in, &o, &err) == 0)
			flame_tree_build(t, FLAME_ORDER_NAME, &err);
		flame_input_free(in);
		flame_tree_free(t);
	}
	return 0;
}

#include "replay-main.h"
