/* Fuzz target for the pprof reader (protobuf wire decoder and gzip included): any bytes
 * must parse or fail with an error, never crash, hang or allocate without bound; parsed
 * with its sites kept, it is written back as pprof. Built as
 * a libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain program
 * that runs the target once per file named on the command line (the corpus replay the
 * test suite does with any compiler). */
#include "fuzz.h"

static int write_pprof(void *t, flame_output *out, flame_err *err)
{
	return flame_write_pprof(t, out, err);
}

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
	/* sites kept (functions, lines, locations, mappings) and written back as pprof */
	flame_parse_opts so = FLAME_PARSE_OPTS_INIT;
	so.format = FLAME_FORMAT_PPROF;
	so.keep_sites = 1;
	flame_tree *t = flame_fuzz_parse(data, size, &so, 1);
	if (t)
		flame_fuzz_write_null(write_pprof, t);
	flame_tree_free(t);
	return 0;
}

#include "replay-main.h"
