/* Fuzz target for the Firefox Profiler reader (parse/firefox.c) and the JSON tokenizer
 * under it (core/json.c): any bytes, detected or forced to the format, with and without
 * kept time, must parse or fail with an error, never crash, hang or allocate without bound;
 * a parsed tree must build. Library paths in the input are only looked at (a regular file's
 * ELF symbols). Built as a libFuzzer target with -Dfuzzing=enabled; otherwise
 * (FLAME_FUZZ_MAIN) a plain program that runs the target once per file named on the command
 * line (the corpus replay). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	flame_fuzz_parse(data, size, &o, 0);
	o.format = FLAME_FORMAT_FIREFOX;
	flame_fuzz_parse(data, size, &o, 0);
	o.keep_time_ns = 1000000;
	flame_fuzz_parse(data, size, &o, 0);
	return 0;
}

#include "replay-main.h"
