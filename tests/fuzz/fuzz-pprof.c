/* Fuzz target for the pprof reader (protobuf wire decoder and gzip included): any bytes
 * must parse or fail with an error, never crash, hang or allocate without bound. Built as
 * a libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain program
 * that runs the target once per file named on the command line (the corpus replay the
 * test suite does with any compiler). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const tags[] = {"endpoint=a", "bytes=10:"};
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_PPROF;
	flame_fuzz_parse(data, size, &o, 0);
	o.pprof_flags = FLAME_PPROF_ADDRESSES | FLAME_PPROF_LINES | FLAME_PPROF_INLINE_ANNOTATE;
	o.tags_ignore = tags;
	o.n_tags_ignore = 2;
	o.group_by = "endpoint";
	flame_fuzz_parse(data, size, &o, 0);
	return 0;
}

#include "replay-main.h"
