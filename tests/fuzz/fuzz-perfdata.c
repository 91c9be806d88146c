/* Fuzz target for the perf.data reader (parse/perfdata*.c): any bytes must parse or fail
 * with an error naming a byte, never crash, hang or allocate without bound. Run with the
 * defaults and with every naming flag, an event filter and a time range (the text it
 * makes goes through the perf script reader), and once keeping sites (perfdata-sites.c:
 * mappings, addresses, and lines where a mapped file has DWARF), written back as pprof. Symbols are looked up on this machine by
 * the paths the input names: $HOME points nowhere, so no build-id cache is read. Built
 * as a libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a program
 * that runs the target once per file named on the command line. */
#include <stdlib.h>
#include "fuzz.h"

static int write_pprof(void *t, flame_output *out, flame_err *err)
{
	return flame_write_pprof(t, out, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setenv("HOME", "/nonexistent", 1);
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_PERFDATA;
	o.threads = 1;
	flame_fuzz_parse(data, size, &o, 0);
	o.perf_flags = FLAME_PERF_TID | FLAME_PERF_KERNEL | FLAME_PERF_JIT | FLAME_PERF_ADDRS;
	o.perf_event_filter = "cpu-clock";
	o.has_time_range = 1;
	o.time_start = 0.5;
	o.time_end = 1e9;
	flame_fuzz_parse(data, size, &o, 0);
	flame_parse_opts so = FLAME_PARSE_OPTS_INIT;
	so.format = FLAME_FORMAT_PERFDATA;
	so.threads = 1;
	so.keep_sites = 1;
	flame_tree *t = flame_fuzz_parse(data, size, &so, 1);
	if (t)
		flame_fuzz_write_null(write_pprof, t);
	flame_tree_free(t);
	return 0;
}

#include "replay-main.h"
