/* Fuzz target for the pprof reader (protobuf wire decoder and gzip included): any bytes
 * must parse or fail with an error, never crash, hang or allocate without bound; parsed
 * with its sites, labels and every sample type kept, it is written back as pprof, and with labels and time as
 * the HTML page (its label and time sections). Built as
 * a libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain program
 * that runs the target once per file named on the command line (the corpus replay the
 * test suite does with any compiler). */
#include "fuzz.h"

static int write_pprof(void *t, flame_output *out, flame_err *err)
{
	return flame_write_pprof(t, out, err);
}

static int write_html(void *t, flame_output *out, flame_err *err)
{
	flame_render_opts ro = FLAME_RENDER_OPTS_INIT;
	return flame_write_html(t, &ro, out, err);
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
	o.keep_sample_types = 1;
	flame_fuzz_parse(data, size, &o, 0);
	/* sites kept (functions, lines, locations, mappings) and written back as pprof */
	flame_parse_opts so = FLAME_PARSE_OPTS_INIT;
	so.format = FLAME_FORMAT_PPROF;
	so.keep_sites = 1;
	so.keep_labels = 1;
	so.keep_sample_types = 1;
	flame_tree *t = flame_fuzz_parse(data, size, &so, 1);
	if (t)
		flame_fuzz_write_null(write_pprof, t);
	flame_tree_free(t);
	/* labels and time kept (the profile spread over its time_nanos), to the page */
	flame_parse_opts lo = FLAME_PARSE_OPTS_INIT;
	lo.format = FLAME_FORMAT_PPROF;
	lo.keep_labels = 1;
	lo.keep_time_ns = 1000000;
	lo.keep_sample_types = 1;
	if ((t = flame_fuzz_parse(data, size, &lo, 1)))
		flame_fuzz_write_null(write_html, t);
	flame_tree_free(t);
	return 0;
}

#include "replay-main.h"
