/* Fuzz target for the JFR text reader (jfr print output): any bytes must parse or fail
 * with an error, never crash, hang or allocate without bound; a parsed tree must build,
 * also with each stack's thread kept as its label (allocation sizes rounded over threads).
 * Built as a libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain
 * program that runs the target once per file named on the command line (the corpus
 * replay the test suite does with any compiler). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	flame_fuzz_parse(data, size, &o, 0);
	o.format = FLAME_FORMAT_JFR;
	o.jfr_flags = FLAME_JFR_SIGNATURES | FLAME_JFR_THREADS | FLAME_JFR_LINES | FLAME_JFR_ANNOTATE;
	o.jfr_event = "jdk.ThreadPark";
	flame_fuzz_parse(data, size, &o, 0);
	flame_parse_opts lo = FLAME_PARSE_OPTS_INIT; /* threads as labels */
	lo.format = FLAME_FORMAT_JFR;
	lo.keep_labels = 1;
	lo.jfr_event = "jdk.ObjectAllocationSample";
	flame_fuzz_parse(data, size, &lo, 0);
	lo.jfr_event = NULL;
	flame_fuzz_parse(data, size, &lo, 0);
	return 0;
}

#include "replay-main.h"
