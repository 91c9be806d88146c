/* flame-merge: sum any number of profiles (any format flame-collapse reads) into one,
 * as folded text, a pprof profile or a rendered flame graph. FILE:W weights an input; --normalize scales
 * every input to the same total first. Without --normalize merging is a plain sum, so it
 * is associative and commutative: merges of merges equal one merge of everything. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "render-opts.h"

enum { O_NORMALIZE = 1, O_OUTPUT, O_FORMAT, O_QUIET, O_JOBS, O_INPUT_FORMAT };

static const cli_opt own_options[] = {
	{"normalize", 0, CLI_NOARG, O_NORMALIZE, NULL,
	 "scale every input to the largest input's total before summing (rounding each stack "
	 "down; weights apply after)"},
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE",
	 "write to FILE (atomically); format from .folded .svg .png .pdf .pb.gz"},
	{"format", 0, CLI_ARG, O_FORMAT, "FMT", "folded (default), svg, png, pdf or pprof"},
	{"jobs", 'j', CLI_ARG, O_JOBS, "N", "read N inputs at a time (default 2)"},
	{"input-format", 0, CLI_ARG, O_INPUT_FORMAT, "FMT",
	 "read the inputs as FMT (perf, folded, pprof, offcpu, jfr, svg; default: auto)"},
	{"quiet", 'q', CLI_NOARG, O_QUIET, NULL, "do not print warnings"},
	{NULL, 0, 0, 0, NULL, NULL},
};

enum { FMT_FOLDED = 100, FMT_PPROF };

typedef struct args {
	render_cli r;
	int normalize;
	const char *output;
	int format;
	int quiet;
	flame_format input_format;
	uint64_t jobs;
} args;

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	if (id >= RENDER_OPT_BASE)
		return render_cli_opt(&a->r, id, arg);
	switch (id) {
	case O_NORMALIZE: a->normalize = 1; break;
	case O_OUTPUT: a->output = arg; break;
	case O_FORMAT:
		if (!strcmp(arg, "folded"))
			a->format = FMT_FOLDED;
		else if (!strcmp(arg, "pprof"))
			a->format = FMT_PPROF;
		else if (!(a->format = render_cli_format_name(arg)))
			return cli_usage_error("--format wants folded, svg, png, pdf or pprof, got '%s'", arg);
		break;
	case O_JOBS:
		if (cli_parse_u64(arg, &a->jobs) || a->jobs < 1 || a->jobs > 64)
			return cli_usage_error("--jobs wants a number from 1 to 64, got '%s'", arg);
		break;
	case O_QUIET: a->quiet = 1; break;
	case O_INPUT_FORMAT: {
		int f = flame_format_from_name(arg);
		if (f < 0)
			return cli_usage_error("--input-format wants auto, perf, folded, pprof, offcpu, jfr or "
			                       "svg, got '%s'", arg);
		a->input_format = (flame_format)f;
		break;
	}
	}
	return 0;
}

static int format_from_path(const char *path)
{
	int f = render_cli_format_path(path);
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (!f && dot && !strchr(dot, '/') &&
	    (!strcasecmp(dot, ".folded") || !strcasecmp(dot, ".collapsed") || !strcasecmp(dot, ".txt")))
		f = FMT_FOLDED;
	size_t n = path ? strlen(path) : 0;
	if (!f && ((n > 6 && !strcasecmp(path + n - 6, ".pb.gz")) || (dot && !strchr(dot, '/') &&
	                                                           !strcasecmp(dot, ".pprof"))))
		f = FMT_PPROF;
	return f;
}

/* ---- inputs: FILE or FILE:W (W a decimal > 0, kept exact as num / 10^dec) */

typedef struct input {
	char *path;
	uint64_t num;
	unsigned dec;
	flame_tree *t; /* its own tree when it must be scaled before summing */
	flame_err err;
	int rc;
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

/* ---- reading: a few workers, each summing into its own tree */

typedef struct worker {
	input *inputs;
	size_t n, first, step;
	int normalize;
	flame_format format;
	flame_tree *sum;
	cli_warnings warn;
} worker;

static int read_one(flame_tree *t, input *in, flame_format format, cli_warnings *w)
{
	flame_input *fi = NULL;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.warn = cli_warn;
	po.warn_ud = w;
	po.format = format;
	int rc = flame_input_open(&fi, in->path, &in->err);
	if (!rc)
		rc = flame_parse(t, fi, &po, &in->err);
	flame_input_free(fi);
	return rc;
}

static int weigh(flame_tree *t, const input *in, flame_err *err)
{
	int rc = in->num == 1 && in->dec == 0 ? 0 : flame_tree_weight(t, in->num, in->dec, err);
	if (rc && err && !err->source[0]) /* name the input the weight belongs to */
		snprintf(err->source, sizeof err->source, "%s", in->path);
	return rc;
}

static void *work(void *ud)
{
	worker *w = ud;
	for (size_t i = w->first; i < w->n; i += w->step) {
		input *in = &w->inputs[i];
		if (!w->normalize && in->num == 1 && in->dec == 0) {
			/* plain sum: parse straight into this worker's tree */
			if ((in->rc = read_one(w->sum, in, w->format, &w->warn)))
				break;
			continue;
		}
		if (!(in->t = flame_tree_new())) {
			in->rc = FLAME_ENOMEM;
			in->err.code = FLAME_ENOMEM;
			snprintf(in->err.msg, sizeof in->err.msg, "out of memory");
			break;
		}
		if ((in->rc = read_one(in->t, in, w->format, &w->warn)))
			break;
		if (w->normalize)
			continue; /* scaled once every total is known */
		if ((in->rc = weigh(in->t, in, &in->err)) ||
		    (in->rc = flame_tree_merge(w->sum, in->t, &in->err)))
			break;
		flame_tree_free(in->t);
		in->t = NULL;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	args a = {.jobs = 2};
	render_cli_init(&a.r);
	cli_opt *table = render_cli_table(own_options);
	if (!table) {
		fprintf(stderr, "flame-merge: out of memory\n");
		return 1;
	}
	int first;
	int rc = cli_parse(argc, argv, table, on_opt, &a, "[OPTIONS] FILE[:WEIGHT]... > merged.folded",
	                   "Sum profiles (any format flame-collapse reads; '-' for stdin) into one folded\n"
	                   "profile, or write it as pprof or a picture (--format pprof|svg|png|pdf).\n"
	                   "FILE:W multiplies an input by W (a decimal, e.g. host1.folded:2 or\n"
	                   "b.folded:0.5); --normalize first scales every input to the same total.\n"
	                   "Merging is associative: merge merges freely.",
	                   &first);
	free(table);
	if (rc)
		return rc;
	size_t n = (size_t)(argc - first);
	if (n == 0)
		return cli_usage_error("wants at least one input FILE; see --help");
	int fmt = a.format ? a.format : format_from_path(a.output);
	if (!fmt)
		fmt = FMT_FOLDED;
	flame_err err = {0};
	int draw = fmt != FMT_FOLDED && fmt != FMT_PPROF;
	if (draw && render_cli_prepare(&a.r, &err)) {
		rc = cli_report(&err);
		render_cli_free(&a.r);
		return rc;
	}
	int code = 0, stdin_seen = 0;
	size_t nw = a.jobs < n ? (size_t)a.jobs : n;
	input *in = calloc(n, sizeof *in);
	worker *w = calloc(nw, sizeof *w);
	pthread_t *th = calloc(nw, sizeof *th);
	flame_output *out = NULL;
	flame_tree *t = NULL;
	if (!in || !w || !th) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		code = 1;
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		if ((code = split_input(argv[first + (int)i], &in[i])))
			goto done;
		if (!strcmp(in[i].path, "-") && stdin_seen++) {
			code = cli_usage_error("'-' (stdin) can be given only once");
			goto done;
		}
	}
	for (size_t k = 0; k < nw; k++) {
		w[k] = (worker){in, n, k, nw, a.normalize, a.input_format, flame_tree_new(),
		                {.quiet = a.quiet}};
		if (!w[k].sum) {
			fprintf(stderr, "%s: out of memory\n", cli_prog());
			code = 1;
			goto done;
		}
	}
	size_t started = 0;
	for (size_t k = 1; k < nw; k++, started++)
		if (pthread_create(&th[k], NULL, work, &w[k]))
			break;
	work(&w[0]);
	for (size_t k = 1; k <= started; k++)
		pthread_join(th[k], NULL);
	for (size_t k = started + 1; k < nw; k++) /* threads that could not start */
		work(&w[k]);
	for (size_t k = 0; k < nw; k++)
		cli_warnings_finish(&w[k].warn);
	for (size_t i = 0; i < n; i++)
		if (in[i].rc) {
			code = cli_report_input(&in[i].err, "--input-format");
			goto done;
		}
	t = w[0].sum;
	w[0].sum = NULL;
	for (size_t k = 1; k < nw; k++)
		if ((rc = flame_tree_merge(t, w[k].sum, &err))) {
			code = cli_report(&err);
			goto done;
		}
	if (a.normalize) {
		/* every input to the largest total, column by column, then its weight */
		uint64_t max[2] = {0, 0};
		for (size_t i = 0; i < n; i++)
			for (int c = 0; c < 2; c++)
				if (flame_tree_total(in[i].t, c) > max[c])
					max[c] = flame_tree_total(in[i].t, c);
		for (size_t i = 0; i < n; i++) {
			for (int c = 0; c < 2 && !rc; c++) {
				uint64_t tot = flame_tree_total(in[i].t, c);
				if (tot && tot != max[c])
					rc = flame_tree_scale_column(in[i].t, c, max[c], tot, &err);
			}
			if (rc || (rc = weigh(in[i].t, &in[i], &err)) ||
			    (rc = flame_tree_merge(t, in[i].t, &err))) {
				code = cli_report(&err);
				goto done;
			}
		}
	}
	if ((rc = cli_output_open(&out, a.output, &err))) {
		code = cli_report(&err);
		goto done;
	}
	rc = draw                ? render_cli_write(&a.r, fmt, t, out, &err)
	     : fmt == FMT_PPROF ? flame_write_pprof(t, out, &err)
	                        : flame_write_folded(t, out, &err);
	if (rc) {
		cli_output_abort(out);
		code = cli_report(&err);
		goto done;
	}
	if ((rc = cli_output_commit(out, &err)) || (draw && (rc = render_cli_finish(&a.r, &err))))
		code = cli_report(&err);
done:
	for (size_t i = 0; in && i < n; i++) {
		free(in[i].path);
		flame_tree_free(in[i].t);
	}
	for (size_t k = 0; w && k < nw; k++)
		flame_tree_free(w[k].sum);
	flame_tree_free(t);
	free(in);
	free(w);
	free(th);
	render_cli_free(&a.r);
	return code;
}
