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

enum { O_OUTPUT = 1, O_FORMAT, O_NO_REMOVED, O_HEATMAP };

/* the output formats flame-render writes: pictures */
#define OUTPUTS FLAME_OUTPUT_PICTURE

/* its own rows; the input options (cli_input_opts) and the drawing options follow */
static const cli_opt own_options[] = {
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE",
	 "write to FILE (atomically); the format from its extension (see Output formats)"},
	{"format", 0, CLI_ARG, O_FORMAT, "FMT", "output format: {}"},
	{"no-removed", 0, CLI_NOARG, O_NO_REMOVED, NULL,
	 "3-column input: no panel of the frames found only in BEFORE under the graph"},
	{"heatmap", 0, CLI_NOARG, O_HEATMAP, NULL,
	 "SVG, PNG, PDF: draw when the samples were taken instead of the graph: FlameScope's "
	 "heatmap (a column a second, rows the offset within it, colour the weight), or a "
	 "timeline for recordings under 3 s or over 20 minutes (inputs with times: perf, "
	 "perf.data, jfr, pprof profiles, which make one timeline by their time_nanos)"},
	{NULL, 0, 0, 0, NULL, NULL},
};

static const cli_format formats[] = {
	{O_FORMAT, OUTPUTS, "svg"},
	{CLI_IN_FORMAT, CLI_INPUT_FORMATS, "auto"},
	{0, 0, NULL},
};

typedef struct args {
	render_cli r;
	cli_input in;
	const char *output;
	flame_output_format format;
	int keep_time;
	int keep_labels;
} args;

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	if (id >= RENDER_OPT_BASE)
		return render_cli_opt(&a->r, id, arg);
	switch (id) {
	case O_OUTPUT: a->output = arg; break;
	case O_FORMAT: return cli_output_format("--format", arg, OUTPUTS, &a->format);
	case O_NO_REMOVED: a->r.ro.flags |= FLAME_RENDER_NO_REMOVED; break;
	case O_HEATMAP: a->r.ro.flags |= FLAME_RENDER_HEATMAP; break;
	default: return cli_input_opt(&a->in, id, arg);
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
 * what no reader takes and no rule recognizes is read as folded text, so invalid lines are
 * counted and reported as flamegraph.pl does (telling the format only peeks: the input is
 * still whole for the folded reader). An input told for what it is but not read (a
 * perf.data recorded with --call-graph dwarf, a PNG) keeps its message. */
static int parse_input(flame_tree *t, flame_input *in, const flame_parse_opts *o,
                       flame_err *err)
{
	int rc = flame_parse(t, in, o, err);
	/* FLAME_EFORMAT: nothing fits; a kind told but not read is FLAME_EDATA, its message kept */
	if (o->format != FLAME_FORMAT_AUTO || rc != FLAME_EFORMAT)
		return rc;
	flame_parse_opts folded = *o;
	folded.format = FLAME_FORMAT_FOLDED;
	return flame_parse(t, in, &folded, err);
}

/* Every input (stdin when there is none) summed into `t`, then the transforms; `what` is
 * set to how messages name the inputs, `why` to what emptied the profile, if anything
 * did. */
static int read_inputs(args *a, warn_state *ws, flame_tree *t, char **paths, int n,
                       char *why, size_t why_cap, flame_err *err)
{
	flame_parse_opts po = cli_input_parse_opts(&a->in, &ws->w);
	po.warn = on_warn;
	po.warn_ud = ws;
	if (a->keep_time) /* --heatmap, or the page, which draws one */
		po.keep_time_ns = CLI_TIME_BUCKET_NS;
	po.keep_labels = a->keep_labels; /* the page's label slices */
	int rc = cli_input_read(&a->in, t, paths, n, &po, parse_input, err);
	int had = flame_tree_total(t, 0) || flame_tree_total(t, 1);
	if (!rc)
		rc = cli_input_transform(&a->in, t, err);
	if (!rc && had)
		cli_input_emptied(&a->in, why, why_cap);
	return rc;
}

/* The picture of `t` to -o's FILE or stdout; of a profile with no stacks, flamegraph.pl's
 * error picture to stdout only. The exit code, after reporting. */
static int draw(args *a, flame_tree *t, flame_output_format fmt, const char *what,
                const char *why)
{
	flame_err err = {0};
	flame_output *out = NULL;
	int code = 0, rc;
	if (!flame_tree_total(t, 0) && !flame_tree_total(t, 1)) {
		code = cli_no_stacks(what, why);
		if (!cli_to_stdout(a->output))
			return code;
	}
	if ((rc = cli_output_open(&out, a->output, &err)))
		return cli_report(&err);
	if ((rc = render_cli_write(&a->r, fmt, t, out, &err))) {
		cli_output_abort(out);
		return cli_report(&err);
	}
	if ((rc = cli_output_commit(out, &err)) || (rc = render_cli_finish(&a->r, &err)))
		return cli_report(&err);
	return code;
}

int main(int argc, char **argv)
{
	args a = {.in = CLI_INPUT_INIT, .format = FLAME_OUTPUT_NONE};
	render_cli_init(&a.r);
	cli_opt *table = cli_table(own_options, cli_input_opts, render_cli_opts, NULL);
	if (!table)
		return 1;
	int first;
	int rc = cli_parse(argc, argv, table, formats, on_opt, &a, "[OPTIONS] [FILE...] > graph.svg",
	                   "Render folded stacks ('frame;frame;... count', or 'stack before after' for a\n"
	                   "differential graph), or any profile of the input formats below, as a flame\n"
	                   "graph in one of the output formats below. Reads stdin when no FILE (or '-')\n"
	                   "is given; several files are summed. With --input-format auto (the default),\n"
	                   "text no reader takes is read as folded text, as flamegraph.pl reads it.",
	                   &first);
	free(table);
	flame_output_format fmt = a.format;
	if (!rc)
		rc = cli_input_ready(&a.in);
	if (!rc && a.in.list_types)
		rc = cli_input_list_types(&a.in, (const char *const *)argv + first, argc - first);
	if (!rc && !a.in.list_types && !fmt)
		rc = cli_output_path(a.output, OUTPUTS, "--format", &fmt);
	flame_err err = {0};
	flame_tree *t = NULL;
	if (!rc && !a.in.list_types && flame_tree_new(&t, &err))
		rc = cli_report(&err);
	if (!t) {
		cli_input_free(&a.in);
		return rc;
	}
	a.keep_time = (a.r.ro.flags & FLAME_RENDER_HEATMAP) || fmt == FLAME_OUTPUT_HTML;
	a.keep_labels = fmt == FLAME_OUTPUT_HTML;
	warn_state ws = {.w = {.quiet = a.in.quiet}};
	a.r.ro.warn = on_warn;
	a.r.ro.warn_ud = &ws;
	flame_tree_set_ignore_units(t, a.in.ignore_units);
	char what[600], why[128] = "";
	cli_inputs_name(what, sizeof what, (const char *const *)argv + first, argc - first);
	/* options, --nameattr and the --cp palette are checked before any input is read */
	int code;
	if ((rc = render_cli_prepare(&a.r, &err)) ||
	    (rc = read_inputs(&a, &ws, t, argv + first, argc - first, why, sizeof why, &err))) {
		cli_warnings_finish(&ws.w);
		code = cli_report(&err);
	} else {
		if (ws.invalid && !a.in.quiet)
			fprintf(stderr, "Ignored %lu lines with invalid format (the first at %s)\n",
			        ws.invalid, ws.first);
		code = draw(&a, t, fmt ? fmt : FLAME_OUTPUT_SVG, what, why);
		cli_warnings_finish(&ws.w);
	}
	flame_tree_free(t);
	render_cli_free(&a.r);
	cli_input_free(&a.in);
	return code;
}
