/* Fuzz target for the binary JFR reader (chunks, metadata, constant pools, events; gzip
 * included): any bytes must parse or fail with an error, never crash, hang or allocate
 * without bound; a parsed tree must build. Built as a libFuzzer target with
 * -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain program that runs the target once
 * per file named on the command line (the corpus replay the test suite does). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_JFR_BINARY;
	flame_fuzz_parse(data, size, &o, 0);
	o.jfr_flags = FLAME_JFR_SIGNATURES | FLAME_JFR_THREADS | FLAME_JFR_LINES | FLAME_JFR_ANNOTATE;
	o.jfr_event = "jdk.ThreadPark";
	flame_fuzz_parse(data, size, &o, 0);
	return 0;
}

#include "replay-main.h"
