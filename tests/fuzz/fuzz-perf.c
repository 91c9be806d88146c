/* Fuzz target for the perf script reader: any bytes must parse or fail with an error,
 * never crash, hang or allocate without bound; a parsed tree must build. Run once with
 * the defaults, once with every naming flag, an event filter and a time range on perf's
 * clock, on two threads so the reader's split of the input into blocks is exercised too,
 * once keeping time with a range from the first sample (parse/time-range.c: the input
 * into a tree of its own, cut, merged), and keeping comm and thread as labels on one thread
 * and on two. Built as a
 * libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain program
 * that runs the target once per file named on the command line. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_PERF;
	o.threads = 1;
	flame_fuzz_parse(data, size, &o, 0);
	o.perf_flags = FLAME_PERF_TID | FLAME_PERF_KERNEL | FLAME_PERF_JIT | FLAME_PERF_ADDRS |
	               FLAME_PERF_KEEP_TEMPLATES;
	o.perf_event_filter = "cpu-clock";
	o.has_time_range = 1;
	o.time_start = 0.5;
	o.time_end = 1e9;
	o.threads = 2;
	flame_fuzz_parse(data, size, &o, 0);
	o.time_range = FLAME_TIME_RANGE_RELATIVE;
	o.time_start = 0.001;
	o.time_end = 0.5;
	o.keep_time_ns = 1000000;
	o.threads = 1;
	flame_fuzz_parse(data, size, &o, 0);
	/* comm and thread kept as labels, on one thread and through the block parsers */
	o.has_time_range = 0;
	o.keep_labels = 1;
	flame_fuzz_parse(data, size, &o, 0);
	o.threads = 2;
	flame_fuzz_parse(data, size, &o, 0);
	return 0;
}

#include "replay-main.h"
