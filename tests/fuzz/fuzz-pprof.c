/* Fuzz target for the pprof reader (protobuf wire decoder included): any bytes must
 * parse or fail with an error, never crash, hang or allocate without bound. Built as a
 * libFuzzer target with clang (-fsanitize=fuzzer); with FLAME_FUZZ_MAIN it is a plain
 * program that runs the target once per file named on the command line (the corpus
 * replay the test suite does with any compiler). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "libflame/flame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tags[] = {"endpoint=a", "bytes=10:"};
	flame_err err;
	for (int mode = 0; mode < 2; mode++) {
		flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
		o.format = FLAME_FORMAT_PPROF;
		if (mode) {
			o.pprof.flags = FLAME_PPROF_ADDRESSES | FLAME_PPROF_LINES | FLAME_PPROF_INLINE_ANNOTATE;
			o.pprof.tags_ignore = tags;
			o.pprof.n_tags_ignore = 2;
			o.pprof.group_by = "endpoint";
		}
		flame_tree *t = flame_tree_new();
		flame_input *in = NULL;
		if (t && flame_input_open_mem(&in, data, size, "fuzz", &err) == 0) {
			int rc = flame_parse(t, in, &o, &err);
			if (rc == 0)
				flame_tree_build(t, FLAME_ORDER_NAME, &err);
		}
		flame_input_free(in);
		flame_tree_free(t);
	}
	return 0;
}

#include "replay-main.h"
