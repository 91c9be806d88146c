/* Fuzz target for the Chrome trace event reader (parse/chrometrace.c), V8's profile model
 * under it (parse/v8-profile.c) and the JSON tokenizer (core/json.c): any bytes, detected
 * or forced to the format, must parse or fail with an error, never crash, hang or allocate
 * without bound; a parsed tree must build. Built as a libFuzzer target with
 * -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain program that runs the target once
 * per file named on the command line (the corpus replay). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	flame_fuzz_parse(data, size, &o, 0);
	o.format = FLAME_FORMAT_CHROMETRACE;
	flame_fuzz_parse(data, size, &o, 0);
	return 0;
}

#include "replay-main.h"
