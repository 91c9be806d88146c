/* Fuzz target for the frame region (parse/frame-region.c), the frames of a stack that the
 * offcputime and JFR text readers keep as a run of lines and intern when the stack ends,
 * a whole stack at a time through the stack cache: the region has no input of its own,
 * so each input goes through both readers, with every option that changes what a frame
 * line means (offcpu's thread roots; JFR's signatures, lines, annotations and
 * thread roots). Any bytes must parse or fail with an error, never crash, hang or
 * allocate without bound. Built as a libFuzzer target with -Dfuzzing=enabled; otherwise
 * (FLAME_FUZZ_MAIN) a program that runs the target once per file named on the command
 * line. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_OFFCPU;
	flame_fuzz_parse(data, size, &o, 0);
	o.offcpu_flags = FLAME_OFFCPU_TID;
	flame_fuzz_parse(data, size, &o, 0);
	o.format = FLAME_FORMAT_JFR;
	flame_fuzz_parse(data, size, &o, 0);
	o.jfr_flags = FLAME_JFR_SIGNATURES | FLAME_JFR_THREADS | FLAME_JFR_LINES |
	              FLAME_JFR_ANNOTATE;
	flame_fuzz_parse(data, size, &o, 0);
	return 0;
}

#include "replay-main.h"
