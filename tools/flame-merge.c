/* flame-merge: sum any number of profiles (any format flame-collapse reads) into one,
 * as folded text, a pprof profile or a rendered flame graph. FILE:W weights an input; --normalize scales
 * every input to the same total first. Without --normalize merging is a plain sum, so it
 * is associative and commutative: merges of merges equal one merge of everything.
 * How the inputs are read (as text, streamed, or whole) is the library's choice: the tool
 * asks for folded text or for a tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "render-opts.h"

enum { O_NORMALIZE = 1, O_OUTPUT, O_FORMAT, O_JOBS, O_NO_HEADER };
/* the output formats flame-merge writes: the stacks (folded text, pprof) and pictures */
#define OUTPUTS (FLAME_OUTPUT_STACKS | FLAME_OUTPUT_PICTURE)

/* its own rows; the input options (cli_input_opts) and the drawing options follow */
static const cli_opt own_options[] = {
	{"normalize", 0, CLI_NOARG, O_NORMALIZE, NULL,
	 "scale every input to the largest input's total before summing (rounding each stack "
	 "down; weights apply after)"},
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE",
	 "write to FILE (atomically); the format from its extension (see Output formats)"},
	{"format", 0, CLI_ARG, O_FORMAT, "FMT", "output format: {}"},
	{"jobs", 'j', CLI_ARG, O_JOBS, "N",
	 "parse N inputs at a time (default 2); folded inputs are read in blocks, a thread each "
	 "(sorted folded files to folded text: a merge of their lines, checked on 2 threads)"},
	CLI_NO_HEADER_OPT(O_NO_HEADER),
	{NULL, 0, 0, 0, NULL, NULL},
};

static const cli_format formats[] = {
	{O_FORMAT, OUTPUTS, "folded"},
	{CLI_IN_FORMAT, CLI_INPUT_FORMATS, "auto"},
	{0, 0, NULL},
};

typedef struct args {
	render_cli r;
	int normalize;
	const char *output;
	flame_output_format format;
	uint64_t jobs;
	int no_header;
	cli_input inputs;
	char what[600]; /* the inputs, as messages name them */
} args;

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	if (id >= RENDER_OPT_BASE)
		return render_cli_opt(&a->r, id, arg);
	switch (id) {
	case O_NORMALIZE: a->normalize = 1; break;
	case O_NO_HEADER: a->no_header = 1; break;
	case O_OUTPUT: a->output = arg; break;
	case O_FORMAT: return cli_output_format("--format", arg, OUTPUTS, &a->format);
	case O_JOBS:
		if (cli_parse_u64(arg, &a->jobs) || a->jobs < 1 || a->jobs > 64)
			return cli_usage_error("--jobs wants a number from 1 to 64, got '%s'", arg);
		break;
	default: return cli_input_opt(&a->inputs, id, arg);
	}
	return 0;
}

/* ---- inputs: FILE or FILE:W (W a decimal > 0, kept exact as num / 10^dec) */

typedef struct input {
	char *path;
	uint64_t num;
	unsigned dec;
	cli_warnings warn;
} input;

/* W = digits[.digits]; 0 ok, -1 not a weight. */
static int parse_weight(const char *s, uint64_t *num, unsigned *dec)
{
	uint64_t n = 0;
	unsigned d = 0;
	int dot = 0, digits = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (*s < '0' || *s > '9' || n > (UINT64_MAX - 9) / 10 || d > 18)
			return -1;
		n = n * 10 + (uint64_t)(*s - '0');
		if (dot)
			d++;
		digits++;
	}
	if (!digits)
		return -1;
	while (d && n % 10 == 0) { /* 2.50 is 2.5, 1.0 is 1 */
		n /= 10;
		d--;
	}
	*num = n;
	*dec = d;
	return 0;
}

static int split_input(const char *arg, input *in)
{
	struct stat st;
	const char *colon = strrchr(arg, ':');
	size_t n = strlen(arg);
	in->num = 1;
	in->dec = 0;
	if (colon && stat(arg, &st) != 0) { /* an existing file named "x:2" stays a file */
		if (parse_weight(colon + 1, &in->num, &in->dec) == 0) {
			if (in->num == 0)
				return cli_usage_error("weight of '%.*s' must be above zero, got '%s'",
				                       (int)(colon - arg), arg, colon + 1);
			if (in->dec > 9)
				return cli_usage_error("weight of '%.*s' has more than 9 decimals: '%s'",
				                       (int)(colon - arg), arg, colon + 1);
			n = (size_t)(colon - arg);
		} else if (colon[1] && strspn(colon + 1, "0123456789.-+eE") == strlen(colon + 1)) {
			return cli_usage_error("'%s': the weight after ':' must be a number above zero",
			                       arg);
		}
	}
	if (n == 0)
		return cli_usage_error("'%s': empty file name", arg);
	if (!(in->path = strndup(arg, n))) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		return 1;
	}
	return 0;
}

/* The options and operands into `a` and *in (n of them): 0 to go on, or an exit code
 * (--help, usage errors, --list-sample-types done). */
static int parse_args(args *a, int argc, char **argv, input **in, size_t *n)
{
	cli_opt *table = cli_table(own_options, cli_input_opts, render_cli_opts, NULL);
	if (!table)
		return 1;
	int first;
	int rc = cli_parse(argc, argv, table, formats, on_opt, a,
	                   "[OPTIONS] FILE[:WEIGHT]... > merged.folded",
	                   "Sum profiles (of the input formats below; '-' for stdin) into one folded\n"
	                   "profile, or write it in another output format below (--format).\n"
	                   "FILE:W multiplies an input by W (a decimal, e.g. host1.folded:2 or\n"
	                   "b.folded:0.5); --normalize first scales every input to the same total.\n"
	                   "Merging is associative: merge merges freely.",
	                   &first);
	free(table);
	*n = (size_t)(argc - first);
	if (!rc)
		rc = cli_input_ready(&a->inputs);
	if (!rc && *n == 0)
		rc = cli_usage_error("wants at least one input FILE; see --help");
	if (!rc && !(*in = calloc(*n, sizeof **in))) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		rc = 1;
	}
	const char **paths = rc ? NULL : calloc(*n, sizeof *paths);
	int stdin_seen = 0;
	for (size_t i = 0; i < *n && !rc; i++) {
		if (!paths) {
			fprintf(stderr, "%s: out of memory\n", cli_prog());
			rc = 1;
		} else if (!(rc = split_input(argv[first + (int)i], &(*in)[i]))) {
			paths[i] = (*in)[i].path;
			if (!strcmp(paths[i], "-") && stdin_seen++)
				rc = cli_usage_error("'-' (stdin) can be given only once");
		}
	}
	if (!rc && a->inputs.list_types)
		rc = cli_input_list_types(&a->inputs, paths, (int)*n);
	if (!rc)
		cli_inputs_name(a->what, sizeof a->what, paths, (int)*n);
	free(paths);
	return rc;
}

/* The sum to -o's FILE or stdout: folded text straight from the request when that is all
 * that is asked, else its tree (transformed, drawn). The exit code, after reporting. */
static int run(args *a, flame_merge_request *req, input *in, size_t n, flame_output_format fmt,
               int draw)
{
	flame_err err = {0};
	flame_output *out = NULL;
	flame_tree *t = NULL;
	int rc, code = 0;
	char why[128] = "";
	if ((rc = cli_output_open(&out, a->output, &err)))
		return cli_report(&err);
	if (fmt == FLAME_OUTPUT_FOLDED && !cli_input_transforms(&a->inputs) && !a->no_header) {
		rc = flame_merge_request_write_folded(req, out, &err);
	} else if (!(rc = flame_merge_request_tree(req, &t, &err))) {
		int had = flame_tree_total(t, 0) || flame_tree_total(t, 1);
		rc = cli_input_transform(&a->inputs, t, &err);
		if (!rc && had)
			cli_input_emptied(&a->inputs, why, sizeof why);
		if (!rc && a->no_header && fmt == FLAME_OUTPUT_FOLDED)
			flame_tree_set_count_name(t, NULL); /* no unit: no header line */
		if (!rc && draw && !flame_tree_total(t, 0) && !flame_tree_total(t, 1))
			code = cli_no_stacks(a->what, why); /* a picture of nothing */
		if (!rc && (!code || cli_to_stdout(a->output)))
			rc = render_cli_write(&a->r, fmt, t, out, &err);
	}
	cli_progress_finish(&a->inputs.progress);
	for (size_t i = 0; i < n; i++)
		cli_warnings_finish(&in[i].warn);
	if (rc || (code && !cli_to_stdout(a->output))) {
		cli_output_abort(out); /* -o's FILE stays as it was */
		code = rc ? cli_report(&err) : code;
	} else if ((rc = cli_output_commit(out, &err)) ||
	           (draw && !code && (rc = render_cli_finish(&a->r, &err)))) {
		code = cli_report(&err);
	}
	flame_tree_free(t);
	return code;
}

int main(int argc, char **argv)
{
	args a = {.jobs = 2, .inputs = CLI_INPUT_INIT};
	render_cli_init(&a.r);
	input *in = NULL;
	size_t n = 0;
	int code = parse_args(&a, argc, argv, &in, &n);
	flame_output_format fmt = a.format;
	if (!code && !a.inputs.list_types && !fmt)
		code = cli_output_path(a.output, OUTPUTS, "--format", &fmt);
	if (!fmt)
		fmt = FLAME_OUTPUT_FOLDED;
	flame_err err = {0};
	int draw = (cli_output_flags(fmt) & FLAME_OUTPUT_PICTURE) != 0;
	if (!code && !a.inputs.list_types && draw && render_cli_prepare(&a.r, &err))
		code = cli_report(&err);
	flame_merge_request *req = NULL;
	if (!code && !a.inputs.list_types && flame_merge_request_new(&req, &err)) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		code = 1;
	}
	for (size_t i = 0; req && !code && i < n; i++) {
		flame_parse_opts po = cli_input_parse_opts(&a.inputs, &in[i].warn);
		if (fmt == FLAME_OUTPUT_HTML) /* the page draws the inputs' timeline */
			po.keep_time_ns = CLI_TIME_BUCKET_NS;
		po.keep_sites = fmt == FLAME_OUTPUT_PPROF; /* pprof out keeps pprof's sites */
		po.keep_sample_types = fmt == FLAME_OUTPUT_PPROF; /* and every sample type */
		/* the samples' labels: written back to pprof, the page's label slices */
		po.keep_labels = fmt == FLAME_OUTPUT_PPROF || fmt == FLAME_OUTPUT_HTML;
		in[i].warn.defer = 1; /* inputs are read at once: their warnings print in order */
		if (flame_merge_request_input(req, in[i].path, NULL, &po, in[i].num, in[i].dec, &err))
			code = cli_report(&err);
	}
	if (req && !code) {
		flame_merge_request_threads(req, (unsigned)a.jobs);
		flame_merge_request_normalize(req, a.normalize);
		flame_merge_request_ignore_units(req, a.inputs.ignore_units);
		flame_merge_request_limit(req, a.inputs.max_inflate);
		flame_merge_request_progress(req, cli_progress, &a.inputs.progress);
		code = run(&a, req, in, n, fmt, draw);
	}
	for (size_t i = 0; in && i < n; i++)
		free(in[i].path);
	free(in);
	flame_merge_request_free(req);
	render_cli_free(&a.r);
	cli_input_free(&a.inputs);
	return code;
}
