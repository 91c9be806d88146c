/* Fuzz target for format auto-detection over every format: flame_detect on the bytes and
 * flame_parse with FLAME_FORMAT_AUTO (gzip undone first), which must pick a reader or
 * fail with an error, never crash, hang or allocate without bound. Built as a libFuzzer
 * target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain program that runs the
 * target once per file named on the command line. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)flame_detect(data, size);
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.threads = 1;
	flame_fuzz_parse(data, size, &o, 0);
	return 0;
}

#include "replay-main.h"
