/* flame-collapse: profiles (perf script text, folded...) to folded stacks or pprof, with
 * stackcollapse-perf.pl's options and meanings, plus filters and parallel parsing.
 * --format is the output format, as in every tool; a script's old --format naming the
 * input keeps its meaning (resolve_format). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* unique-stack storage kept in memory before a sorted run goes to a temp file */
enum { SPILL_LIMIT = 4 << 20 };

enum { O_JOBS = 1, O_OUTPUT, O_FORMAT, O_OUTPUT_FORMAT, O_NO_HEADER };
/* the output formats flame-collapse writes: stacks (folded text, pprof) */
#define OUTPUTS FLAME_OUTPUT_STACKS

/* its own rows; the input options (cli_input_opts) follow them */
static const cli_opt own_options[] = {
	{"jobs", 'j', CLI_ARG, O_JOBS, "N", "worker threads (default: number of cores)"},
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE",
	 "write to FILE (atomically) instead of stdout; the format from its extension (see "
	 "Output formats)"},
	{"format", 0, CLI_ARG, O_FORMAT, "FMT",
	 "output format: {}. As before, a name that is also an input format means "
	 "--input-format, unless --input-format is given too: --format pprof reads pprof"},
	{"output-format", 0, CLI_ARG, O_OUTPUT_FORMAT, "FMT", "output format, always: {}"},
	CLI_NO_HEADER_OPT(O_NO_HEADER),
	{NULL, 0, 0, 0, NULL, NULL},
};

static const cli_format formats[] = {
	{O_FORMAT, OUTPUTS, "folded"},
	{CLI_IN_FORMAT, CLI_INPUT_FORMATS, "auto"},
	{O_OUTPUT_FORMAT, OUTPUTS, "folded"},
	{0, 0, NULL},
};

typedef struct args {
	cli_input in;
	unsigned threads;        /* -j */
	const char *output;
	const char *format;      /* --format, resolved once all options are read */
	flame_output_format out; /* --output-format, or --format as the output */
	int no_header;
} args;

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	uint64_t u;
	switch (id) {
	case O_JOBS:
		if (cli_parse_u64(arg, &u) || u < 1 || u > 256)
			return cli_usage_error("-j wants a number of threads from 1 to 256, got '%s'", arg);
		a->threads = (unsigned)u;
		break;
	case O_OUTPUT: a->output = arg; break;
	case O_FORMAT: a->format = arg; break;
	case O_OUTPUT_FORMAT: return cli_output_format("--output-format", arg, OUTPUTS, &a->out);
	case O_NO_HEADER: a->no_header = 1; break;
	default: return cli_input_opt(&a->in, id, arg);
	}
	return 0;
}

/* --format was the input format here before it meant the output format in every tool.
 * So that no script's command line changes what it writes: a name that is also an input
 * format (perf, svg, auto; folded and pprof, which are outputs too) keeps its old meaning
 * unless --input-format is given, which leaves --format only the output to name. Then the
 * output format is --format's or --output-format's, else -o's extension, else folded. */
static int resolve_format(args *a)
{
	flame_format in;
	if (a->format && !a->in.format_given && flame_input_format_find(a->format, &in, NULL) == 0) {
		a->in.po.format = in;
		a->format = NULL;
	}
	flame_output_format out = FLAME_OUTPUT_NONE;
	int rc;
	if (a->format && (rc = cli_output_format("--format", a->format, OUTPUTS, &out)))
		return rc;
	if (out && a->out && out != a->out)
		return cli_usage_error("--format %s and --output-format name different outputs",
		                       a->format);
	if (!a->out)
		a->out = out;
	if (!a->out && (rc = cli_output_path(a->output, OUTPUTS, "--output-format", &a->out)))
		return rc;
	if (!a->out)
		a->out = FLAME_OUTPUT_FOLDED;
	return 0;
}

/* Read every input into `t` (stdin when there is none), one after the other. */
static int read_inputs(args *a, flame_tree *t, char **paths, int n, cli_warnings *w,
                       flame_err *err)
{
	flame_parse_opts po = cli_input_parse_opts(&a->in, w);
	po.threads = a->threads;
	po.keep_sites = a->out == FLAME_OUTPUT_PPROF; /* pprof out keeps pprof's sites */
	po.keep_labels = a->out == FLAME_OUTPUT_PPROF; /* and the samples' labels */
	po.keep_sample_types = a->out == FLAME_OUTPUT_PPROF; /* and every sample type */
	return cli_input_read(&a->in, t, paths, n, &po, flame_parse, err);
}

int main(int argc, char **argv)
{
	args a = {.in = CLI_INPUT_INIT};
	cli_opt *table = cli_table(own_options, cli_input_opts, NULL);
	if (!table)
		return 1;
	int first;
	int rc = cli_parse(argc, argv, table, formats, on_opt, &a, "[OPTIONS] [FILE...]",
	                   "Collapse profiles of any input format below (told apart by content;\n"
	                   "--input-format names one) into folded stacks: one line per unique stack,\n"
	                   "'root;...;leaf count', sorted bytewise; or into a pprof profile.\n"
	                   "Reads stdin when no FILE (or '-') is given; gzip input is inflated.",
	                   &first);
	free(table);
	if (!rc)
		rc = resolve_format(&a);
	if (!rc)
		rc = cli_input_ready(&a.in);
	if (!rc && a.in.list_types)
		rc = cli_input_list_types(&a.in, (const char *const *)argv + first, argc - first);
	if (rc || a.in.list_types) {
		cli_input_free(&a.in);
		return rc;
	}
	flame_err err = {0};
	cli_warnings warns = {0};
	flame_output *out = NULL;
	flame_tree *t = NULL;
	if (flame_tree_new(&t, &err)) {
		cli_input_free(&a.in);
		return cli_report(&err);
	}
	flame_tree_set_ignore_units(t, a.in.ignore_units);
	/* folded output merges spilled runs as it writes: memory stays flat on any input */
	flame_tree_set_memory_limit(t, SPILL_LIMIT);
	rc = read_inputs(&a, t, argv + first, argc - first, &warns, &err);
	if (!rc)
		rc = cli_input_transform(&a.in, t, &err);
	if (!rc && a.no_header && a.out == FLAME_OUTPUT_FOLDED)
		flame_tree_set_count_name(t, NULL); /* no unit: no header line */
	if (!rc)
		rc = cli_output_open(&out, a.output, &err);
	if (!rc) {
		rc = flame_write(t, a.out, NULL, out, &err);
		if (rc) {
			cli_output_abort(out);
		} else {
			rc = cli_output_commit(out, &err);
		}
	}
	cli_warnings_finish(&warns);
	int code = rc ? cli_report(&err) : 0;
	flame_tree_free(t);
	cli_input_free(&a.in);
	return code;
}
