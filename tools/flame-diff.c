/* flame-diff: what got hotter between two profiles. Reads BEFORE and AFTER (any format
 * flame-collapse reads; several runs of each with --before and --after), normalizes them
 * (difffolded.pl's -n, per request, per unit of work), tests each function's change
 * against the noise between runs (or sampling noise with one run), and writes a
 * differential flame graph, difffolded.pl's 3-column folded text, or a --top table (text,
 * CSV or JSON); --fail-above turns it into a CI regression gate (exit 1 naming the
 * functions that grew significantly).
 * How the sides are read (as text, streamed, or whole) is the library's choice: the tool
 * asks for folded text or for a tree. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "render-opts.h"

enum {
	O_NORMALIZE = 1, O_STRIP_HEX, O_REQUESTS, O_NORMALIZE_FRAME, O_FAIL_ABOVE, O_MIN_DELTA,
	O_TOP, O_OUTPUT, O_FORMAT, O_JOBS, O_NO_REMOVED, O_BEFORE_TAG, O_AFTER_TAG, O_NO_HEADER,
	O_BEFORE_TIME, O_AFTER_TIME, O_BEFORE, O_AFTER, O_ALPHA, O_NORMALIZE_NAMES, O_RENAME,
	O_TOP_FORMAT
};
/* the output formats flame-diff writes: those that show a diff (folded text, pictures) */
#define OUTPUTS FLAME_OUTPUT_DIFF

/* its own rows; the input options (cli_input_opts) and the drawing options follow */
static const cli_opt own_options[] = {
	{"normalize", 'n', CLI_NOARG, O_NORMALIZE, NULL,
	 "scale BEFORE to AFTER's total: before = int(before * T_after / T_before)"},
	{"strip-hex", 's', CLI_NOARG, O_STRIP_HEX, NULL, "replace hex addresses 0x[0-9a-fA-F]+ by 0x..."},
	{"before", 0, CLI_ARG, O_BEFORE, "FILE",
	 "a run of BEFORE (repeatable: several runs of the same build, any input format); with "
	 "--after instead of the two operands"},
	{"after", 0, CLI_ARG, O_AFTER, "FILE", "a run of AFTER (repeatable), as --before"},
	{"requests", 0, CLI_ARG, O_REQUESTS, "B,A|FILE:N",
	 "BEFORE served B requests, AFTER A (every run of a side, with several): compare cost per "
	 "request (BEFORE scaled by A/B); or FILE:N, repeatable: the run read from FILE served N "
	 "(give every run one)"},
	{"normalize-names", 0, CLI_NOARG, O_NORMALIZE_NAMES, NULL,
	 "make names that differ only by run equal before comparing: hex addresses, lambda and "
	 "closure numbers ($$Lambda$12/0x..., func1.2, {lambda()#3}), JIT ids (jitted-PID-N.so, "
	 "perf-PID.map, V8's tier marks), Rust hashes, temporary file names"},
	{"rename", 0, CLI_ARG, O_RENAME, "REGEX=REPL",
	 "rewrite every name of every run matching REGEX (PCRE2; $1 in REPL names a group; write a "
	 "'=' in REGEX as \\=), repeatable, applied in order after --normalize-names"},
	{"alpha", 0, CLI_ARG, O_ALPHA, "A",
	 "a change is significant when its q-value (its p-value after Benjamini-Hochberg's "
	 "false-discovery control over every function) is at most A (0.01); intervals are at "
	 "level 1-A"},
	{"normalize-frame", 0, CLI_ARG, O_NORMALIZE_FRAME, "REGEX",
	 "the stacks through a frame matching REGEX are the unit of work: BEFORE is scaled so "
	 "they weigh the same, so every figure is a share of that unit's cost (a slowdown spread "
	 "evenly through it cancels out, and an unchanged function can look smaller); for cost "
	 "per request use --requests"},
	{"fail-above", 0, CLI_ARG, O_FAIL_ABOVE, "PCT",
	 "exit 1 (after writing the output) when a function's self or total cost grew by more "
	 "than PCT% of BEFORE's total and significantly (see --alpha: noise between runs, or "
	 "sampling noise with one run per side); offenders are named on stderr with the change, "
	 "its interval and q-value"},
	{"min-delta", 0, CLI_ARG, O_MIN_DELTA, "PCT",
	 "changes below PCT% of BEFORE's total are drawn as no change and left out of --top"},
	{"top", 0, CLI_ARG, O_TOP, "N",
	 "print a table of the N functions whose self and total cost grew and shrank most, each "
	 "with its change in % of BEFORE's total, its interval and q-value (~: within noise) (to "
	 "stdout, or -o's file; with a picture or folded text asked for by --format or -o's "
	 "extension, that goes to -o and the table to stdout, or stderr when -o is stdout). A "
	 "caller whose total change lies inside one callee that changed alike is still listed, "
	 "marked (contains CALLEE)"},
	{"top-format", 0, CLI_ARG, O_TOP_FORMAT, "FMT",
	 "the --top report as text (the tables), csv or json (every function that changed, "
	 "exact counts, change, interval, p- and q-value, the callee it contains)"},
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE",
	 "write to FILE (atomically); the format from its extension (see Output formats)"},
	{"format", 0, CLI_ARG, O_FORMAT, "FMT", "output format: {} (folded: stack before after)"},
	CLI_NO_HEADER_OPT(O_NO_HEADER),
	{"jobs", 'j', CLI_ARG, O_JOBS, "N",
	 "2 (default): read both inputs at once (two sorted folded files to folded text: a merge "
	 "of their lines; other folded inputs in blocks, merged as they come: about the memory "
	 "of the result); 1: one after the other into one tree"},
	{"no-removed", 0, CLI_NOARG, O_NO_REMOVED, NULL,
	 "no panel of the frames found only in BEFORE, and no names of them in the subtitle"},
	{"before-tag", 0, CLI_ARG, O_BEFORE_TAG, "KEY=REGEX",
	 "pprof: diff two slices of the same profile(s), read once: BEFORE is the samples with a "
	 "label matching (KEY=MIN:MAX for numbers; repeatable, a sample must match all); the "
	 "inputs (one or more, summed) are then all of the operands"},
	{"after-tag", 0, CLI_ARG, O_AFTER_TAG, "KEY=REGEX",
	 "pprof: AFTER is the samples with a label matching, as --before-tag (e.g. --before-tag "
	 "version=v1 --after-tag version=v2 fleet.pb.gz)"},
	{"before-time", 0, CLI_ARG, O_BEFORE_TIME, "START,END",
	 "diff two time ranges of the same profile(s), read once: BEFORE is the samples from "
	 "START to END (as --time: seconds from the first sample, dates, or perf:START,END); the "
	 "inputs (one or more, one timeline) are then all of the operands"},
	{"after-time", 0, CLI_ARG, O_AFTER_TIME, "START,END",
	 "AFTER is the samples of this range, as --before-time (e.g. --before-time 0,2 "
	 "--after-time 2,3 perf.data)"},
	{NULL, 0, 0, 0, NULL, NULL},
};

static const cli_format formats[] = {
	{O_FORMAT, OUTPUTS, "svg"},
	{CLI_IN_FORMAT, CLI_INPUT_FORMATS, "auto"},
	{0, 0, NULL},
};

typedef struct args {
	render_cli r;
	flame_diff_opts d;
	int norm_set;
	double fail_above; /* < 0: off */
	double min_delta;
	uint64_t top;
	const char *output;
	flame_output_format format;
	uint64_t jobs;
	int no_removed;
	int no_header;
	const char **side_tags[2]; /* --before-tag, --after-tag */
	size_t n_side_tags[2];
	flame_parse_opts side_time[2]; /* --before-time, --after-time (has_time_range: given) */
	const char **runs[2];      /* --before, --after */
	size_t n_runs[2];
	const char **run_requests; /* --requests FILE:N */
	size_t n_run_requests;
	const char **renames;      /* --rename */
	size_t n_renames;
	double alpha;
	int top_format;            /* a flame_cost_format */
	int several;               /* runs read one by one: several on a side, or requests per run */
	uint64_t side_requests[2]; /* --requests B,A with several runs: every run's */
	double after_requests;     /* requests per run: AFTER's mean, for per-request tooltips */
	cli_input inputs;
	char what[600];            /* the inputs, as messages name them */
} args;

static int set_norm(args *a, flame_diff_norm n, const char *opt)
{
	if (a->norm_set && a->d.norm != n)
		return cli_usage_error("%s cannot be combined with another normalization", opt);
	a->norm_set = 1;
	a->d.norm = n;
	return 0;
}

static int parse_pct(const char *opt, const char *arg, double *out)
{
	if (cli_parse_double(arg, out) || *out < 0)
		return cli_usage_error("--%s wants a percentage >= 0, got '%s'", opt, arg);
	return 0;
}

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	if (id >= RENDER_OPT_BASE)
		return render_cli_opt(&a->r, id, arg);
	switch (id) {
	case O_NORMALIZE: return set_norm(a, FLAME_DIFF_NORM_TOTAL, "--normalize");
	case O_STRIP_HEX: a->d.strip_hex = 1; break;
	case O_NO_HEADER: a->no_header = 1; break;
	case O_REQUESTS: {
		const char *comma = strchr(arg, ','), *colon = strrchr(arg, ':');
		uint64_t nreq;
		if (colon && colon > arg && (!comma || comma < colon)) { /* FILE:N */
			if (cli_parse_u64(colon + 1, &nreq) || !nreq)
				return cli_usage_error("--requests wants FILE:N with N above zero, got '%s'", arg);
			return cli_push_arg(&a->run_requests, &a->n_run_requests, arg);
		}
		char b[32];
		size_t n = comma ? (size_t)(comma - arg) : 0;
		if (!comma || n == 0 || n >= sizeof b)
			return cli_usage_error("--requests wants B,A (two request counts), got '%s'", arg);
		memcpy(b, arg, n);
		b[n] = '\0';
		if (cli_parse_u64(b, &a->d.requests_before) ||
		    cli_parse_u64(comma + 1, &a->d.requests_after) || !a->d.requests_before ||
		    !a->d.requests_after)
			return cli_usage_error("--requests wants two request counts above zero, got '%s'",
			                       arg);
		return set_norm(a, FLAME_DIFF_NORM_REQUESTS, "--requests");
	}
	case O_NORMALIZE_FRAME:
		a->d.frame_regex = arg;
		return set_norm(a, FLAME_DIFF_NORM_FRAME, "--normalize-frame");
	case O_FAIL_ABOVE: return parse_pct("fail-above", arg, &a->fail_above);
	case O_MIN_DELTA: return parse_pct("min-delta", arg, &a->min_delta);
	case O_TOP:
		if (cli_parse_u64(arg, &a->top) || a->top == 0)
			return cli_usage_error("--top wants a number above zero, got '%s'", arg);
		break;
	case O_OUTPUT: a->output = arg; break;
	case O_FORMAT: return cli_output_format("--format", arg, OUTPUTS, &a->format);
	case O_NO_REMOVED: a->no_removed = 1; a->r.ro.flags |= FLAME_RENDER_NO_REMOVED; break;
	case O_BEFORE: return cli_push_arg(&a->runs[0], &a->n_runs[0], arg);
	case O_AFTER: return cli_push_arg(&a->runs[1], &a->n_runs[1], arg);
	case O_NORMALIZE_NAMES: a->d.normalize_names = 1; break;
	case O_RENAME: return cli_push_arg(&a->renames, &a->n_renames, arg);
	case O_ALPHA:
		if (cli_parse_double(arg, &a->alpha) || !(a->alpha > 0 && a->alpha < 1))
			return cli_usage_error("--alpha wants a number between 0 and 1, got '%s'", arg);
		break;
	case O_TOP_FORMAT:
		if (!strcmp(arg, "text") || !strcmp(arg, "csv") || !strcmp(arg, "json")) {
			a->top_format = arg[0] == 't' ? FLAME_COST_TEXT : arg[0] == 'c' ? FLAME_COST_CSV
			                                                                : FLAME_COST_JSON;
			break;
		}
		return cli_usage_error("--top-format wants text, csv or json, got '%s'", arg);
	case O_BEFORE_TAG: return cli_push_arg(&a->side_tags[0], &a->n_side_tags[0], arg);
	case O_AFTER_TAG: return cli_push_arg(&a->side_tags[1], &a->n_side_tags[1], arg);
	case O_BEFORE_TIME: return cli_time_range("--before-time", arg, &a->side_time[0]);
	case O_AFTER_TIME: return cli_time_range("--after-time", arg, &a->side_time[1]);
	case O_JOBS:
		if (cli_parse_u64(arg, &a->jobs) || a->jobs < 1 || a->jobs > 2)
			return cli_usage_error("--jobs wants 1 or 2, got '%s'", arg);
		break;
	default: return cli_input_opt(&a->inputs, id, arg);
	}
	return 0;
}

/* -o names a picture or folded text by its extension, as `named` (.txt is left to --top's
 * table) */
static int names_format(const char *path, flame_output_format named)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	return named != FLAME_OUTPUT_NONE && !(dot && !strcasecmp(dot, ".txt"));
}

/* ---- reading: the library's diff request reads both sides and chooses how */

typedef struct side {
	const char *path;
	const char *what; /* "BEFORE" / "AFTER" */
	cli_warnings warn;
} side;

static int not_one_side(const side *s);

/* The exit code for a failed request, after reporting: a 3-column side is named with the
 * line that makes it one; a side that cannot be read or told as the library says. */
static int request_failed(const flame_diff_request *req, const side *s, const flame_err *err)
{
	int differential;
	int i = flame_diff_request_failed_side(req, &differential);
	if (i >= 0 && differential)
		return not_one_side(&s[i]);
	return cli_report(err);
}

/* 1-based number of the first `stack before after` line of a plain file, or 0: only to
 * name the line in the error for a 3-column input (the tree does not keep line numbers). */
static unsigned long first_3col_line(const char *path)
{
	if (!strcmp(path, "-"))
		return 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char *buf = NULL;
	size_t cap = 0;
	unsigned long line = 0, found = 0;
	while (!found && getline(&buf, &cap, f) > 0) {
		line++;
		size_t n = strcspn(buf, "\r\n");
		int nums = 0;
		while (nums < 2) {
			size_t e = n;
			while (n > 0 && ((buf[n - 1] >= '0' && buf[n - 1] <= '9') || buf[n - 1] == '.'))
				n--;
			if (n == e || n == 0 || (buf[n - 1] != ' ' && buf[n - 1] != '\t'))
				break;
			while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
				n--;
			nums++;
		}
		if (nums == 2 && n > 0)
			found = line;
	}
	free(buf);
	fclose(f);
	return found;
}

static int not_one_side(const side *s)
{
	unsigned long line = first_3col_line(s->path);
	const char *name = strcmp(s->path, "-") ? s->path : "<stdin>";
	if (line)
		fprintf(stderr, "%s: %s:%lu: a differential (3-column) profile cannot be %s of a diff\n",
		        cli_prog(), name, line, s->what);
	else
		fprintf(stderr, "%s: %s: a differential (3-column) profile cannot be %s of a diff\n",
		        cli_prog(), name, s->what);
	return 1;
}

/* ---- counts as text: the tree's decimal scale */


/* ---- removed functions: AFTER is 0, so the picture gives them no width (as flamegraph.pl
 * does); the subtitle names the largest ones so they are not silently lost. Found from the
 * per-function report (no node tree: that would cost memory in proportion to all frames). */

static int cmp_before_desc(const void *pa, const void *pb)
{
	const flame_diff_row *x = pa, *y = pb;
	if (x->total[0] != y->total[0])
		return x->total[0] > y->total[0] ? -1 : 1;
	size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
	int r = memcmp(x->name.ptr, y->name.ptr, n);
	return r ? r : (x->name.len > y->name.len) - (x->name.len < y->name.len);
}

/* The removed functions of `rep` (AFTER 0) that no removed callee names instead (a removed
 * caller of a removed callee, old_path -> legacy, is named by the callee), into *out. */
static int removed_rows(flame_diff_report *rep, flame_diff_row **out, size_t *k, flame_err *err)
{
	int rc = flame_diff_report_attribute(rep, 0.0, FLAME_DIFF_ATTRIBUTE_REMOVED, err);
	if (rc)
		return rc;
	size_t n = flame_diff_report_count(rep), m = 0;
	flame_diff_row *rm = malloc((n ? n : 1) * sizeof *rm);
	if (!rm) {
		err->code = FLAME_ENOMEM;
		snprintf(err->msg, sizeof err->msg, "out of memory");
		return FLAME_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const flame_diff_row *r = flame_diff_report_row(rep, i);
		if (r->total[1] == 0 && r->total[0] > 0 &&
		    (r->inside == SIZE_MAX || flame_diff_report_row(rep, r->inside)->total[1] > 0))
			rm[m++] = *r;
	}
	*out = rm;
	*k = m;
	return 0;
}

static int removed_subtitle(flame_tree *t, flame_diff_report *rep, const char *user, char *buf,
                            size_t cap, flame_err *err)
{
	size_t len = 0, k = 0;
	buf[0] = '\0';
	if (user)
		len += (size_t)snprintf(buf, cap, "%s", user);
	flame_diff_row *rm = NULL;
	int rc = removed_rows(rep, &rm, &k, err);
	if (rc || !k) {
		free(rm);
		return rc;
	}
	qsort(rm, k, sizeof *rm, cmp_before_desc);
	unsigned scale = flame_tree_decimals(t);
	double t0 = (double)flame_tree_total(t, 0);
	len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%sonly in BEFORE (no width):",
	                        user ? " | " : "");
	for (size_t i = 0; i < k && i < 3 && len + 1 < cap; i++) {
		char num[64];
		flame_amount_print(num, sizeof num, rm[i].total[0], scale, flame_tree_count_name(t));
		int w = snprintf(buf + len, cap - len, "%s %.*s %s (%.2f%%)", i ? "," : "",
		                 (int)(rm[i].name.len > 200 ? 200 : rm[i].name.len), rm[i].name.ptr, num,
		                 t0 > 0 ? 100.0 * (double)rm[i].total[0] / t0 : 0.0);
		if (w > 0)
			len += (size_t)w < cap - len ? (size_t)w : cap - len - 1;
	}
	if (k > 3 && len + 1 < cap)
		snprintf(buf + len, cap - len, ", and %zu more", k - 3);
	free(rm);
	return 0;
}

/* ---- --top and the gate (the library writes both): to a stream, or to -o's file */

static int to_stream(void *ud, const char *text, size_t len)
{
	return fwrite(text, 1, len, ud) == len ? 0 : FLAME_EIO;
}

static int offender(void *ud, const char *line, size_t len)
{
	(void)ud;
	fprintf(stderr, "%s: regression: %.*s\n", cli_prog(), (int)len, line);
	return 0;
}

static int gate(const args *a, const flame_diff_report *rep, flame_err *err)
{
	int bad = flame_diff_report_gate(rep, a->fail_above, offender, NULL, err);
	if (bad > 0)
		fprintf(stderr, "%s: %d function%s grew by more than %g%% of the before total, beyond "
		        "noise (q <= %g)\n", cli_prog(), bad, bad == 1 ? "" : "s", a->fail_above,
		        a->alpha);
	return bad;
}

/* ---- what is made of the differential tree: a picture, --top, folded text, the gate */

/* The drawing options a differential picture of `t` takes from the diff's: a title, the
 * --min-delta in counts, per-request tooltips, the frames only in BEFORE in the subtitle. */
static int picture_opts(args *a, flame_tree *t, flame_diff_report *rep, flame_err *err)
{
	if (!a->r.ro.title)
		a->r.ro.title = "Differential Flame Graph";
	if (a->min_delta > 0) { /* the renderer takes it in whole counts, not tree units */
		double unit = 1;
		for (unsigned i = 0; i < flame_tree_decimals(t); i++)
			unit *= 10;
		a->r.ro.diff_min_delta = a->min_delta / 100.0 * (double)flame_tree_total(t, 0) / unit;
	}
	if (a->d.norm == FLAME_DIFF_NORM_REQUESTS) /* both columns are now A requests' worth */
		a->r.ro.diff_per = (double)a->d.requests_after;
	if (a->after_requests > 0) /* requests per run: AFTER's mean run */
		a->r.ro.diff_per = a->after_requests;
	a->r.ro.diff_report = rep; /* changes within noise drawn as none */
	static char subtitle[2048];
	if (!a->no_removed) {
		int rc = removed_subtitle(t, rep, a->r.ro.subtitle, subtitle, sizeof subtitle, err);
		if (rc)
			return rc;
		if (subtitle[0])
			a->r.ro.subtitle = subtitle;
	}
	return 0;
}

/* --include, --exclude and --skip-after on the differential tree; a picture of what is
 * then nothing is refused (flamegraph.pl's error picture on stdout, nothing in -o's FILE):
 * 0 to go on, or the exit code (*write: whether to write that picture). */
static int transform(args *a, flame_tree *t, int draw, int *write)
{
	flame_err err = {0};
	char why[128] = "";
	int had = flame_tree_total(t, 0) || flame_tree_total(t, 1);
	*write = 0;
	if (cli_input_transform(&a->inputs, t, &err))
		return cli_report(&err);
	*write = 1;
	if (!draw || flame_tree_total(t, 0) || flame_tree_total(t, 1))
		return 0;
	if (had)
		cli_input_emptied(&a->inputs, why, sizeof why);
	*write = cli_to_stdout(a->output);
	return cli_no_stacks(a->what, why);
}

/* The report of `t` with its statistics: from the request's runs, or (req NULL: a diff by
 * labels) from the tree's columns. */
static int tested_report(args *a, flame_diff_request *req, flame_tree *t, uint64_t before_raw,
                         flame_diff_report **rep, flame_err *err)
{
	int rc = flame_diff_report_new(rep, t, err);
	if (!rc)
		rc = req ? flame_diff_request_stats(req, *rep, a->alpha, err)
		         : flame_diff_report_stats(*rep, &a->d, before_raw, a->alpha, err);
	return rc;
}

/* The exit code, after reporting. */
static int write_tree(args *a, flame_diff_request *req, flame_tree *t, uint64_t before_raw,
                      flame_output_format fmt, int draw, int main_out)
{
	flame_err err = {0};
	flame_output *out = NULL;
	flame_diff_report *rep = NULL;
	int rc, write, code = transform(a, t, draw, &write);
	if (!write)
		return code;
	if (a->no_header && fmt == FLAME_OUTPUT_FOLDED)
		flame_tree_set_count_name(t, NULL); /* no unit: no header line */
	if ((a->top || a->fail_above >= 0 || draw) && (rc = tested_report(a, req, t, before_raw, &rep, &err))) {
		code = cli_report(&err);
		goto done;
	}
	if (draw && (rc = picture_opts(a, t, rep, &err))) {
		code = cli_report(&err);
		goto done;
	}
	flame_top_opts top = FLAME_TOP_OPTS_INIT;
	top.rows = a->top;
	top.min_delta = a->min_delta / 100.0 * (double)flame_tree_total(t, 0);
	top.before_raw = before_raw;
	top.format = a->top_format;
	top.norm = a->d.norm == FLAME_DIFF_NORM_TOTAL      ? "--normalize"
	           : a->d.norm == FLAME_DIFF_NORM_REQUESTS ? "--requests"
	           : a->d.norm == FLAME_DIFF_NORM_FRAME    ? "--normalize-frame"
	                                                   : NULL;
	/* callers whose total change lies inside a listed callee are marked as containing it */
	if (rep && a->top && (rc = flame_diff_report_attribute(rep, top.min_delta, FLAME_DIFF_ATTRIBUTE_ALL, &err))) {
		code = cli_report(&err);
		goto done;
	}
	if ((rc = cli_output_open(&out, a->output, &err))) {
		code = cli_report(&err);
		goto done;
	}
	cli_text_out tab = {out, &err};
	if (!main_out)
		rc = flame_write_top(rep, &top, cli_text_to_output, &tab, &err);
	else
		rc = render_cli_write(&a->r, fmt, t, out, &err);
	if (rc) {
		cli_output_abort(out);
		code = cli_report(&err);
		goto done;
	}
	if ((rc = cli_output_commit(out, &err)) || (draw && (rc = render_cli_finish(&a->r, &err)))) {
		code = cli_report(&err);
		goto done;
	}
	if (main_out && a->top) { /* the picture is written: the table beside it */
		FILE *f = a->output && strcmp(a->output, "-") ? stdout : stderr;
		if ((rc = flame_write_top(rep, &top, to_stream, f, &err)) || fflush(f)) {
			code = rc ? cli_report(&err) : 1;
			goto done;
		}
	}
	if (!code && a->fail_above >= 0 && (rc = gate(a, rep, &err))) {
		if (rc < 0)
			cli_report(&err);
		code = 1;
	}
done:
	flame_diff_report_free(rep);
	return code;
}

/* The parse options of every input: the input options, and the sides' tags. */
static flame_parse_opts parse_opts(const args *a, cli_warnings *w)
{
	flame_parse_opts po = cli_input_parse_opts(&a->inputs, w);
	for (int i = 0; i < 2; i++) {
		po.side_tags[i] = a->side_tags[i];
		po.n_side_tags[i] = a->n_side_tags[i];
	}
	w->defer = 1; /* inputs are read at once: their warnings print in order */
	return po;
}

/* Every operand read into one tree *t (pprof labels going to BEFORE, AFTER or both as
 * --before-tag/--after-tag say, through the parse options; with keep_time_ns > 0 the tree
 * keeps time): the read both diffs of one input share. Returns the exit code. */
static int read_operands(args *a, char **paths, int n, uint64_t keep_time_ns, flame_tree **t)
{
	flame_err err = {0};
	flame_merge_request *req = NULL;
	cli_warnings *w = calloc((size_t)n, sizeof *w);
	int code = 0, stdin_seen = 0;
	*t = NULL;
	if (!w || flame_merge_request_new(&req, &err)) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		free(w);
		return 1;
	}
	for (int i = 0; i < n && !code; i++) {
		if (!strcmp(paths[i], "-") && stdin_seen++) {
			code = cli_usage_error("'-' (stdin) can be given only once");
			break;
		}
		flame_parse_opts po = parse_opts(a, &w[i]);
		po.keep_time_ns = keep_time_ns;
		if (flame_merge_request_input(req, paths[i], NULL, &po, 0, 0, &err))
			code = cli_report(&err);
	}
	if (!code) {
		flame_merge_request_threads(req, (unsigned)a->jobs);
		flame_merge_request_ignore_units(req, a->inputs.ignore_units);
		flame_merge_request_limit(req, a->inputs.max_inflate);
		flame_merge_request_progress(req, cli_progress, &a->inputs.progress);
		int rc = flame_merge_request_tree(req, t, &err);
		cli_progress_finish(&a->inputs.progress);
		for (int i = 0; i < n; i++)
			cli_warnings_finish(&w[i]);
		if (rc)
			code = cli_report(&err);
	}
	flame_merge_request_free(req);
	free(w);
	return code;
}

/* --before-tag / --after-tag: every operand is read once (summed when several), each sample
 * going to BEFORE, AFTER or both by its labels; then the diff's normalizations. */
static int diff_by_tags(args *a, char **paths, int n, flame_output_format fmt, int draw,
                        int main_out)
{
	flame_err err = {0};
	flame_tree *t = NULL;
	int code = read_operands(a, paths, n, 0, &t);
	if (!code && !flame_tree_is_differential(t)) {
		fprintf(stderr, "%s: --before-tag and --after-tag read pprof labels: the inputs are not "
		        "pprof profiles\n", cli_prog());
		code = 1;
	}
	uint64_t before_raw = t ? flame_tree_total(t, 0) : 0;
	if (!code && flame_diff_normalize(t, &a->d, &err))
		code = cli_report(&err);
	if (!code)
		code = write_tree(a, NULL, t, before_raw, fmt, draw, main_out);
	flame_tree_free(t);
	return code;
}

/* One side's range cut out of `t` (the whole read, kept in time), as messages say it. */
static int cut_side(flame_tree *t, const flame_parse_opts *r, const char *opt, const char *what,
                    int quiet)
{
	flame_err err = {0};
	int64_t first, last, s = INT64_MIN, e = INT64_MAX;
	flame_clock c = flame_tree_time_span(t, &first, &last);
	if (r->has_time_range && !cli_time_rel(r, c, first, &s, &e)) {
		fprintf(stderr, "%s: %s: the range is on %s, which %s has no times of\n", cli_prog(), opt,
		        r->time_range == FLAME_TIME_RANGE_WALL ? "the wall clock" : "perf's clock", what);
		return 1;
	}
	int had = flame_tree_total(t, 0) > 0;
	if (flame_tree_time_cut(t, s, e, &err))
		return cli_report(&err);
	if (had && !flame_tree_total(t, 0) && !quiet)
		fprintf(stderr, "%s: warning: %s keeps nothing of %s: its samples span 0 to %.3f s "
		        "from the first\n", cli_prog(), opt, what, (double)(last - first) / 1e9);
	return 0;
}

/* --before-time / --after-time: every operand is read once into one timeline, the two
 * ranges cut out of copies of it and diffed as two profiles. */
static int diff_by_time(args *a, char **paths, int n, flame_output_format fmt, int draw,
                        int main_out)
{
	flame_err err = {0};
	flame_tree *t = NULL, *before = NULL;
	if (flame_tree_new(&before, &err)) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		return 1;
	}
	int code = read_operands(a, paths, n, CLI_TIME_BUCKET_NS, &t);
	if (!code && flame_tree_time_span(t, NULL, NULL) == FLAME_CLOCK_NONE) {
		fprintf(stderr, "%s: --before-time and --after-time want inputs with sample times (perf, "
		        "perf.data, jfr, pprof with time_nanos): %s has none\n", cli_prog(), a->what);
		code = 1;
	}
	if (!code && flame_tree_merge(before, t, &err))
		code = cli_report(&err);
	if (!code)
		code = cut_side(before, &a->side_time[0], "--before-time", a->what, a->inputs.quiet);
	if (!code)
		code = cut_side(t, &a->side_time[1], "--after-time", a->what, a->inputs.quiet);
	uint64_t before_raw = flame_tree_total(before, 0);
	if (!code && flame_diff(before, t, &a->d, &err))
		code = cli_report(&err);
	if (!code)
		code = write_tree(a, NULL, before, before_raw, fmt, draw, main_out);
	flame_tree_free(t);
	flame_tree_free(before);
	return code;
}

static void free_args(args *a)
{
	cli_input_free(&a->inputs);
	free(a->side_tags[0]);
	free(a->side_tags[1]);
	free(a->runs[0]);
	free(a->runs[1]);
	free(a->run_requests);
	free(a->renames);
	render_cli_free(&a->r);
}

/* The requests run `path` of side `side` served: its FILE:N, else its side's B or A; 0:
 * none given. */
static uint64_t run_requests(const args *a, int sd, const char *path)
{
	for (size_t i = 0; i < a->n_run_requests; i++) {
		const char *spec = a->run_requests[i], *colon = strrchr(spec, ':');
		uint64_t n = 0;
		if ((size_t)(colon - spec) == strlen(path) && !strncmp(spec, path, strlen(path)) &&
		    !cli_parse_u64(colon + 1, &n))
			return n;
	}
	return a->side_requests[sd];
}

/* The runs checked before any is read: every FILE:N names a run; several runs (or requests
 * per run) take --requests B,A as every run's; AFTER's mean requests. `operands`: BEFORE
 * and AFTER when not given by --before/--after. */
static int runs_ready(args *a, char **operands)
{
	if (operands) {
		for (int s = 0; s < 2; s++)
			if (cli_push_arg(&a->runs[s], &a->n_runs[s], operands[s]))
				return 1;
	}
	a->several = a->n_runs[0] > 1 || a->n_runs[1] > 1 || a->n_run_requests;
	for (size_t i = 0; i < a->n_run_requests; i++) {
		const char *spec = a->run_requests[i], *colon = strrchr(spec, ':');
		int found = 0;
		for (int s = 0; s < 2 && !found; s++)
			for (size_t k = 0; k < a->n_runs[s] && !found; k++)
				found = (size_t)(colon - spec) == strlen(a->runs[s][k]) &&
				        !strncmp(spec, a->runs[s][k], strlen(a->runs[s][k]));
		if (!found)
			return cli_usage_error("--requests %s names no run of --before or --after", spec);
		if (a->norm_set && a->d.norm != FLAME_DIFF_NORM_REQUESTS)
			return cli_usage_error("--requests cannot be combined with another normalization");
	}
	if (a->several && a->d.norm == FLAME_DIFF_NORM_REQUESTS) {
		a->side_requests[0] = a->d.requests_before;
		a->side_requests[1] = a->d.requests_after;
		a->d.norm = FLAME_DIFF_NORM_NONE; /* the request divides each run by its own */
	}
	if (a->several && (a->n_run_requests || a->side_requests[1])) {
		double sum = 0;
		for (size_t k = 0; k < a->n_runs[1]; k++)
			sum += (double)run_requests(a, 1, a->runs[1][k]);
		a->after_requests = sum / (double)a->n_runs[1];
	}
	a->d.renames = a->renames;
	a->d.n_renames = a->n_renames;
	return 0;
}

/* The options and operands: 0 to go on, or an exit code (--help, usage errors,
 * --list-sample-types done). */
static int parse_args(args *a, int argc, char **argv, int *first)
{
	cli_opt *table = cli_table(own_options, cli_input_opts, render_cli_opts, NULL);
	if (!table)
		return 1;
	int rc = cli_parse(argc, argv, table, formats, on_opt, a, "[OPTIONS] BEFORE AFTER > diff.svg  |  --before FILE... --after FILE...  |  --before-tag K=RE --after-tag K=RE FILE...",
	                   "Compare two profiles (of the input formats below; '-' for stdin) and\n"
	                   "draw what changed as a differential flame graph: widths from AFTER, red where\n"
	                   "a function grew, blue where it shrank (--negate swaps them). --format folded\n"
	                   "writes difffolded.pl's 'stack before after' lines in bytewise order.\n"
	                   "With --before-tag/--after-tag the operands are one or more pprof profiles,\n"
	                   "read once, and BEFORE and AFTER are the samples whose labels match.\n"
	                   "Each function's change is tested against noise: the variance between the\n"
	                   "runs of each side (--before and --after, repeatable), never below the\n"
	                   "sampling noise of its counts (all that one run per side gives); Welch's\n"
	                   "test, Benjamini-Hochberg q-values over every function (--alpha). Changes\n"
	                   "within noise are drawn white, left out of --fail-above, marked ~ by --top.\n"
	                   "Take 5 runs a side or more: a machine's own noise between runs is often\n"
	                   "larger than sampling noise, which is all one run per side can measure.",
	                   first);
	free(table);
	int by_time = a->side_time[0].has_time_range || a->side_time[1].has_time_range;
	int n = argc - *first, by_tags = a->n_side_tags[0] || a->n_side_tags[1] || by_time;
	int by_runs = a->n_runs[0] || a->n_runs[1];
	if (!rc && by_time && (a->n_side_tags[0] || a->n_side_tags[1]))
		rc = cli_usage_error("--before-time/--after-time and --before-tag/--after-tag cannot be "
		                     "combined");
	if (!rc)
		rc = cli_input_ready(&a->inputs);
	if (!rc && a->inputs.list_types)
		return cli_input_list_types(&a->inputs, (const char *const *)argv + *first, n);
	if (!rc && by_runs && (by_tags || n))
		rc = cli_usage_error("--before and --after replace the operands%s; see --help",
		                     by_time ? " and --before-time/--after-time"
		                     : by_tags ? " and --before-tag/--after-tag" : "");
	if (!rc && by_runs && (!a->n_runs[0] || !a->n_runs[1]))
		rc = cli_usage_error("wants --before and --after, at least one run each; see --help");
	if (!rc && !by_tags && !by_runs && n != 2)
		rc = cli_usage_error("wants two inputs, BEFORE and AFTER (got %d); see --help", n);
	if (!rc && by_tags && a->n_run_requests)
		rc = cli_usage_error("--requests FILE:N names runs of --before and --after");
	if (!rc)
		rc = runs_ready(a, !by_tags && !by_runs ? argv + *first : NULL);
	if (!rc && !by_tags && !by_runs && !strcmp(argv[*first], "-") && !strcmp(argv[*first + 1], "-"))
		rc = cli_usage_error("only one of BEFORE and AFTER can be '-' (stdin)");
	if (!rc && by_tags && n < 1)
		rc = cli_usage_error("%s want at least one input; see --help",
		                     by_time ? "--before-time/--after-time" : "--before-tag/--after-tag");
	cli_inputs_name(a->what, sizeof a->what, (const char *const *)argv + *first, n);
	return rc;
}

/* Every run of both sides into the request, each with its warnings (w, in order). */
static int request_runs(args *a, flame_diff_request *req, cli_warnings *w, flame_err *err)
{
	int rc = 0;
	for (int i = 0, k = 0; i < 2 && !rc; i++) /* read at once: BEFORE's warnings, then AFTER's */
		for (size_t r = 0; r < a->n_runs[i] && !rc; r++, k++) {
			flame_parse_opts po = parse_opts(a, &w[k]);
			const char *path = a->runs[i][r];
			rc = a->several ? flame_diff_request_run(req, i, path, NULL, &po,
			                                         run_requests(a, i, path), err)
			                : flame_diff_request_input(req, i, path, NULL, &po, err);
		}
	flame_diff_request_threads(req, (unsigned)a->jobs);
	flame_diff_request_ignore_units(req, a->inputs.ignore_units);
	flame_diff_request_limit(req, a->inputs.max_inflate);
	flame_diff_request_progress(req, cli_progress, &a->inputs.progress);
	return rc;
}

/* The runs' warnings, in the order they were read (one tree: AFTER's first). */
static void finish_run_warnings(const args *a, cli_warnings *w)
{
	size_t n = a->n_runs[0] + a->n_runs[1];
	for (size_t k = 0; k < n; k++)
		cli_warnings_finish(&w[a->jobs == 1 && !a->several ? n - 1 - k : k]);
}

/* BEFORE and AFTER through the diff request: folded text straight from it when that is all
 * that is asked, else its tree. The exit code, after reporting. */
static int diff_pair(args *a, flame_diff_request *req, flame_output_format fmt, int draw,
                     int main_out)
{
	side s[2] = {{.path = a->runs[0][0], .what = "BEFORE"}, {.path = a->runs[1][0], .what = "AFTER"}};
	flame_err err = {0};
	flame_tree *t = NULL;
	flame_output *out = NULL;
	cli_warnings *w = calloc(a->n_runs[0] + a->n_runs[1], sizeof *w);
	int rc = 0, code = 0;
	if (!w) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		return 1;
	}
	if ((rc = request_runs(a, req, w, &err))) {
		free(w);
		return cli_report(&err);
	}
	/* text only: no tree needed */
	if (fmt == FLAME_OUTPUT_FOLDED && !a->top && a->fail_above < 0 &&
	    !cli_input_transforms(&a->inputs) && !a->no_header) {
		if ((rc = cli_output_open(&out, a->output, &err))) {
			free(w);
			return cli_report(&err);
		}
		rc = flame_diff_request_write_folded(req, out, &err);
		cli_progress_finish(&a->inputs.progress);
		finish_run_warnings(a, w);
		free(w);
		if (rc) {
			cli_output_abort(out);
			return a->several ? cli_report(&err) : request_failed(req, s, &err);
		}
		return cli_output_commit(out, &err) ? cli_report(&err) : 0;
	}
	rc = flame_diff_request_tree(req, &t, &err);
	cli_progress_finish(&a->inputs.progress);
	finish_run_warnings(a, w);
	free(w);
	if (rc)
		code = a->several ? cli_report(&err) : request_failed(req, s, &err);
	else
		code = write_tree(a, req, t, flame_diff_request_total(req, 0), fmt, draw, main_out);
	flame_tree_free(t);
	return code;
}

int main(int argc, char **argv)
{
	args a = {.d = FLAME_DIFF_OPTS_INIT, .fail_above = -1, .jobs = 2, .inputs = CLI_INPUT_INIT,
	          .alpha = 0.01};
	render_cli_init(&a.r);
	int first, rc = parse_args(&a, argc, argv, &first);
	flame_output_format named = FLAME_OUTPUT_NONE; /* by -o's extension */
	if (!rc && !a.inputs.list_types && !a.format)
		rc = cli_output_path(a.output, OUTPUTS, "--format", &named);
	if (rc || a.inputs.list_types) {
		free_args(&a);
		return rc;
	}
	flame_err err = {0};
	flame_diff_request *req = NULL;
	{ /* the sides' tags are checked before any input is read */
		cli_warnings w = {0};
		flame_parse_opts po = parse_opts(&a, &w);
		if (flame_parse_opts_check(&po, &err) || flame_diff_request_new(&req, &a.d, &err)) {
			free_args(&a);
			return cli_report(&err);
		}
	}
	flame_output_format fmt = a.format ? a.format : named ? named : FLAME_OUTPUT_SVG;
	/* --top alone prints the table (to -o's file, or stdout); with a picture or folded text
	 * asked for (--format, or -o's extension) that goes to -o and the table to stdout,
	 * or to stderr when the output is stdout */
	int main_out = !a.top || a.format || names_format(a.output, named);
	int draw = main_out && (cli_output_flags(fmt) & FLAME_OUTPUT_PICTURE);
	if (draw && render_cli_prepare(&a.r, &err))
		rc = cli_report(&err);
	else if (a.side_time[0].has_time_range || a.side_time[1].has_time_range)
		rc = diff_by_time(&a, argv + first, argc - first, fmt, draw, main_out);
	else if (a.n_side_tags[0] || a.n_side_tags[1])
		rc = diff_by_tags(&a, argv + first, argc - first, fmt, draw, main_out);
	else
		rc = diff_pair(&a, req, fmt, draw, main_out);
	flame_diff_request_free(req);
	free_args(&a);
	return rc;
}
