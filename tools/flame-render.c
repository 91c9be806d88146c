/* flame-render: stacks (folded, 2-column or 3-column differential, or any format
 * flame-collapse reads) to a flame graph as an interactive SVG, a PNG or a PDF, with flamegraph.pl's options and meanings (the
 * drawing options live in render-opts.c, shared with flame-diff and flame-merge).
 * Several input files are summed; no valid input gives flamegraph.pl's error image
 * and exit status 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "render-opts.h"

enum { O_OUTPUT = 1, O_FORMAT, O_QUIET, O_NO_REMOVED, O_PROGRESS, O_NO_PROGRESS, O_INPUT_FORMAT,
       O_MAX_INFLATE };

/* the output formats flame-render writes: pictures */
#define OUTPUTS FLAME_OUTPUT_PICTURE

static const cli_opt own_options[] = {
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE",
	 "write to FILE (atomically); the format from its extension (see Output formats)"},
	{"format", 0, CLI_ARG, O_FORMAT, "FMT", "output format: {}"},
	{"input-format", 0, CLI_ARG, O_INPUT_FORMAT, "FMT",
	 "read the inputs as FMT: {} (auto: what no reader takes is read as folded text)"},
	{"quiet", 'q', CLI_NOARG, O_QUIET, NULL, "do not print warnings"},
	CLI_PROGRESS_OPTS(O_PROGRESS, O_NO_PROGRESS),
	CLI_MAX_INFLATE_OPT(O_MAX_INFLATE),
	{"no-removed", 0, CLI_NOARG, O_NO_REMOVED, NULL,
	 "3-column input: no panel of the frames found only in BEFORE under the graph"},
	{NULL, 0, 0, 0, NULL, NULL},
};

static const cli_format formats[] = {
	{O_FORMAT, OUTPUTS, "svg"},
	{O_INPUT_FORMAT, CLI_INPUT_FORMATS, "auto"},
	{0, 0, NULL},
};

typedef struct args {
	render_cli r;
	const char *output;
	flame_output_format format;
	flame_format input_format;
	int quiet;
	cli_progress_state progress;
	uint64_t max_inflate; /* 0: the library's defaults */
} args;

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	if (id >= RENDER_OPT_BASE)
		return render_cli_opt(&a->r, id, arg);
	switch (id) {
	case O_OUTPUT: a->output = arg; break;
	case O_FORMAT: return cli_output_format("--format", arg, OUTPUTS, &a->format);
	case O_INPUT_FORMAT: return cli_input_format(arg, &a->input_format);
	case O_QUIET: a->quiet = 1; break;
	case O_PROGRESS: a->progress.mode = CLI_PROGRESS_ON; break;
	case O_NO_PROGRESS: a->progress.mode = CLI_PROGRESS_OFF; break;
	case O_MAX_INFLATE: return cli_max_inflate(arg, &a->max_inflate);
	case O_NO_REMOVED: a->r.ro.flags |= FLAME_RENDER_NO_REMOVED; break;
	}
	return 0;
}

/* Invalid folded lines are summed up once, in flamegraph.pl's words; other warnings go
 * through the shared once-per-kind printer. */
typedef struct warn_state {
	cli_warnings w;
	unsigned long invalid;
	char first[300]; /* "FILE:LINE" of the first invalid line */
} warn_state;

static void on_warn(void *ud, const char *kind, const char *source, uint64_t line, const char *msg)
{
	warn_state *s = ud;
	if (!strcmp(kind, "folded-invalid-line")) {
		if (!s->invalid++)
			snprintf(s->first, sizeof s->first, "%s:%llu", source ? source : "<stdin>",
			         (unsigned long long)line);
		return;
	}
	cli_warn(&s->w, kind, source, line, msg);
}

/* Any format flame-collapse reads, told from the content unless --input-format names one;
 * what no reader takes is read as folded text, so invalid lines are counted and reported
 * as flamegraph.pl does (telling the format only peeks: the input is still whole for the
 * folded reader). */
static int parse_input(flame_tree *t, flame_input *in, flame_parse_opts *o,
                       flame_format format, flame_err *err)
{
	o->format = format;
	int rc = flame_parse(t, in, o, err);
	if (format != FLAME_FORMAT_AUTO)
		return rc;
	if (rc != FLAME_EFORMAT || err->line != 0)
		return rc;
	o->format = FLAME_FORMAT_FOLDED;
	return flame_parse(t, in, o, err);
}

int main(int argc, char **argv)
{
	args a = {.format = FLAME_OUTPUT_NONE};
	render_cli_init(&a.r);
	cli_opt *table = render_cli_table(own_options);
	if (!table) {
		fprintf(stderr, "flame-render: out of memory\n");
		return 1;
	}
	int first;
	int rc = cli_parse(argc, argv, table, formats, on_opt, &a, "[OPTIONS] [FILE...] > graph.svg",
	                   "Render folded stacks ('frame;frame;... count', or 'stack before after' for a\n"
	                   "differential graph), or any profile of the input formats below, as a flame\n"
	                   "graph in one of the output formats below. Reads stdin when no FILE (or '-')\n"
	                   "is given; several files are summed.",
	                   &first);
	free(table);
	if (rc)
		return rc;
	flame_output_format fmt = a.format;
	if (!fmt && (rc = cli_output_path(a.output, OUTPUTS, "--format", &fmt)))
		return rc;
	if (!fmt)
		fmt = FLAME_OUTPUT_SVG;
	warn_state ws = {.w = {.quiet = a.quiet}};
	a.r.ro.warn = on_warn;
	a.r.ro.warn_ud = &ws;
	flame_parse_opts popts = FLAME_PARSE_OPTS_INIT; /* any format flame-collapse reads */
	popts.warn = on_warn;
	popts.warn_ud = &ws;

	flame_err err = {0};
	flame_output *out = NULL;
	int code = 0;
	flame_tree *t = NULL;
	if (flame_tree_new(&t, &err))
		return cli_report(&err);
	/* options, --nameattr and the --cp palette are checked before any input is read */
	if ((rc = render_cli_prepare(&a.r, &err)))
		goto done;
	int nfiles = argc - first;
	for (int i = 0; i < (nfiles ? nfiles : 1) && !rc; i++) {
		const char *path = nfiles ? argv[first + i] : "-";
		flame_input *in = NULL;
		rc = flame_input_open(&in, path, &err);
		if (!rc) {
			flame_input_set_limit(in, a.max_inflate);
			flame_input_set_progress(in, cli_progress, &a.progress);
			rc = parse_input(t, in, &popts, a.input_format, &err);
		}
		flame_input_free(in);
		cli_progress_next(&a.progress);
	}
	cli_progress_finish(&a.progress);
	if (rc)
		goto done;
	if (ws.invalid && !a.quiet)
		fprintf(stderr, "Ignored %lu lines with invalid format (the first at %s)\n",
		        ws.invalid, ws.first);
	if ((rc = cli_output_open(&out, a.output, &err)))
		goto done;
	if ((rc = render_cli_write(&a.r, fmt, t, out, &err))) {
		cli_output_abort(out);
		goto done;
	}
	if ((rc = cli_output_commit(out, &err)) || (rc = render_cli_finish(&a.r, &err)))
		goto done;
	if (flame_tree_total(t, 0) == 0 && flame_tree_total(t, 1) == 0) {
		fprintf(stderr, "ERROR: No stack counts found\n");
		code = 2; /* flamegraph.pl's exit status for no valid input */
	}
done:
	cli_warnings_finish(&ws.w);
	if (rc)
		code = cli_report(&err);
	flame_tree_free(t);
	render_cli_free(&a.r);
	return code;
}
