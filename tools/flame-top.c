/* flame-top: what each function (or root, pprof label value, team) costs, as `go tool
 * pprof -top` prints it and beyond: average cores and cost per year for CPU time. Reads
 * one or many profiles (any format flame-collapse reads; several are summed as flame-merge
 * sums them) through the library's merge request, rolls them up with flame_cost_new and
 * prints the report as text, CSV or JSON; --fail-above-share makes it a CI threshold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "top-pgo.h"

enum {
	O_ROWS = 1, O_SORT, O_BY, O_OWNERS, O_FREQUENCY, O_WINDOW, O_CORE_PRICE, O_OUTPUT_FORMAT,
	O_FAIL_ABOVE_SHARE, O_OUTPUT, O_JOBS, O_WITH_IDLE, O_PGO
};

/* its own rows; the input options (cli_input_opts) follow them */
static const cli_opt own_options[] = {
	{"rows", 'n', CLI_ARG, O_ROWS, "N", "print the N largest groups (default 20; 0: all)"},
	{"sort", 0, CLI_ARG, O_SORT, "ORDER", "self (default) or total"},
	{"by", 0, CLI_ARG, O_BY, "GROUP",
	 "function (default), root (the root frame: comm, thread), label:KEY (the value of pprof "
	 "label KEY; <no KEY> when a sample has none) or owner (teams of --owners)"},
	{"owners", 0, CLI_ARG, O_OWNERS, "FILE",
	 "lines REGEX<TAB>TEAM: each function's self cost goes to the team of the first line "
	 "matching it, (no owner) when none does; implies --by owner"},
	{"frequency", 0, CLI_ARG, O_FREQUENCY, "HZ",
	 "the profile counts samples taken HZ times a second per core: they are CPU time"},
	{"window", 0, CLI_ARG, O_WINDOW, "DURATION",
	 "the wall time the profile covers (90s, 5m, 1h, 250ms; a bare number is seconds), for "
	 "average cores; default: the pprof profile's duration, else the recording's span from its "
	 "first sample to its last (perf, perf.data, jfr)"},
	{"with-idle", 0, CLI_NOARG, O_WITH_IDLE, NULL,
	 "count the idle loop (perf's swapper, the kernel's do_idle, cpuidle, *_safe_halt...) as "
	 "busy functions; by default it is left out of the table and reported apart, as idle"},
	{"core-price", 0, CLI_ARG, O_CORE_PRICE, "P",
	 "the price of one core for an hour: adds the cost per year of each group's cores"},
	{"output-format", 0, CLI_ARG, O_OUTPUT_FORMAT, "FMT",
	 "text (default: an aligned table), csv or json"},
	{"fail-above-share", 0, CLI_ARG, O_FAIL_ABOVE_SHARE, "PCT",
	 "exit 1 (after writing the report) when a group's self share of the total exceeds "
	 "PCT%; each is named on stderr"},
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE", "write to FILE (atomically) instead of stdout"},
	{"jobs", 'j', CLI_ARG, O_JOBS, "N", "parse N inputs at a time (default 2)"},
	{"pgo", 0, CLI_ARG, O_PGO, "FILE",
	 "say whether go build -pgo takes the pprof profile FILE and what it gives: the sample "
	 "type used, the call edges, the hottest (-n) and their share; the reason when Go would "
	 "refuse it (exit 1)"},
	{NULL, 0, 0, 0, NULL, NULL},
};

static const cli_format formats[] = {
	{CLI_IN_FORMAT, CLI_INPUT_FORMATS, "auto"},
	{0, 0, NULL},
};

typedef struct args {
	flame_cost_opts co;
	const char *owners, *output;
	flame_cost_format format;
	double fail_above; /* < 0: off */
	uint64_t jobs;
	int by_owner;
	int with_idle;
	const char *pgo; /* --pgo FILE */
	cli_input inputs;
} args;

/* "90s", "5m", "1h", "250ms", "1.5" (seconds) */
static int parse_duration(const char *arg, double *out)
{
	static const struct {
		const char *suffix;
		double s;
	} units[] = {{"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"s", 1}, {"m", 60}, {"h", 3600},
	             {"d", 86400}};
	char num[64];
	size_t n = strlen(arg);
	double mul = 1;
	for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
		size_t k = strlen(units[i].suffix);
		if (n > k && !strcmp(arg + n - k, units[i].suffix)) {
			mul = units[i].s;
			n -= k;
			break;
		}
	}
	if (n >= sizeof num)
		return -1;
	memcpy(num, arg, n);
	num[n] = '\0';
	if (cli_parse_double(num, out) || !(*out > 0))
		return -1;
	*out *= mul;
	return 0;
}

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	switch (id) {
	case O_ROWS:
		if (cli_parse_u64(arg, &a->co.rows))
			return cli_usage_error("-n wants a number of rows, got '%s'", arg);
		break;
	case O_SORT:
		if (strcmp(arg, "self") && strcmp(arg, "total"))
			return cli_usage_error("--sort wants self or total, got '%s'", arg);
		a->co.sort = strcmp(arg, "self") ? FLAME_COST_SORT_TOTAL : FLAME_COST_SORT_SELF;
		break;
	case O_BY:
		a->co.group_name = NULL; /* --by label:KEY sets --group-by KEY once options are read */
		a->by_owner = 0;
		if (!strcmp(arg, "function")) {
			a->co.by = FLAME_COST_BY_FUNCTION;
		} else if (!strcmp(arg, "root")) {
			a->co.by = FLAME_COST_BY_ROOT;
		} else if (!strcmp(arg, "owner")) {
			a->by_owner = 1;
		} else if (!strncmp(arg, "label:", 6) && arg[6]) {
			a->co.by = FLAME_COST_BY_ROOT; /* the label's value as the root frame */
			a->co.group_name = arg + 6;
		} else {
			return cli_usage_error("--by wants function, root, label:KEY or owner, got '%s'", arg);
		}
		break;
	case O_OWNERS: a->owners = arg; break;
	case O_FREQUENCY:
		if (cli_parse_double(arg, &a->co.frequency) || !(a->co.frequency > 0))
			return cli_usage_error("--frequency wants samples per second above zero, got '%s'", arg);
		break;
	case O_WINDOW:
		if (parse_duration(arg, &a->co.window))
			return cli_usage_error("--window wants a duration above zero (90s, 5m, 1h), got '%s'",
			                       arg);
		break;
	case O_WITH_IDLE: a->with_idle = 1; break;
	case O_CORE_PRICE:
		if (cli_parse_double(arg, &a->co.core_price) || a->co.core_price < 0)
			return cli_usage_error("--core-price wants a price >= 0, got '%s'", arg);
		break;
	case O_OUTPUT_FORMAT:
		if (!strcmp(arg, "text"))
			a->format = FLAME_COST_TEXT;
		else if (!strcmp(arg, "csv"))
			a->format = FLAME_COST_CSV;
		else if (!strcmp(arg, "json"))
			a->format = FLAME_COST_JSON;
		else
			return cli_usage_error("--output-format wants text, csv or json, got '%s'", arg);
		break;
	case O_FAIL_ABOVE_SHARE:
		if (cli_parse_double(arg, &a->fail_above) || a->fail_above < 0 || a->fail_above > 100)
			return cli_usage_error("--fail-above-share wants a percentage from 0 to 100, got '%s'",
			                       arg);
		break;
	case O_OUTPUT: a->output = arg; break;
	case O_PGO: a->pgo = arg; break;
	case O_JOBS:
		if (cli_parse_u64(arg, &a->jobs) || a->jobs < 1 || a->jobs > 64)
			return cli_usage_error("--jobs wants 1 to 64, got '%s'", arg);
		break;
	default: return cli_input_opt(&a->inputs, id, arg);
	}
	return 0;
}

static int offender(void *ud, const char *line, size_t len)
{
	(void)ud;
	fprintf(stderr, "%s: above the share: %.*s\n", cli_prog(), (int)len, line);
	return 0;
}

/* The report of `t` to -o (or stdout), then the threshold. The exit code, after reporting. */
static int report(args *a, flame_tree *t)
{
	flame_err err = {0};
	flame_cost_report *c = NULL;
	flame_output *out = NULL;
	int rc = flame_cost_report_new(&c, t, &a->co, &err);
	if (!rc && !(rc = cli_output_open(&out, a->output, &err))) {
		cli_text_out w = {out, &err};
		if ((rc = flame_write_cost(c, a->format, cli_text_to_output, &w, &err)) != 0) {
			cli_output_abort(out);
		} else {
			rc = cli_output_commit(out, &err);
		}
	}
	int code = rc ? cli_report(&err) : 0;
	if (!code && a->fail_above >= 0) {
		int bad = flame_cost_report_gate(c, a->fail_above, offender, NULL, &err);
		if (bad < 0) {
			code = cli_report(&err);
		} else if (bad > 0) {
			fprintf(stderr, "%s: %d group%s above %g%% of the total\n", cli_prog(), bad,
			        bad == 1 ? "" : "s", a->fail_above);
			code = 1;
		}
	}
	flame_cost_report_free(c);
	return code;
}

/* Idle CPU as perf records it: the swapper task (pid 0), and the kernel's idle loop under
 * any name (kernel frames may carry _[k]). */
#define IDLE_FRAMES                                                                            \
	"^(swapper(-0(/0)?)?|do_idle|cpu_startup_entry|cpuidle_\\w+|cpu_idle\\w*|default_idle\\w*|" \
	"arch_cpu_idle\\w*|\\w*_safe_halt|intel_idle\\w*|acpi_idle\\w*|poll_idle|mwait_idle\\w*)"  \
	"(_\\[k\\])?$"

/* The idle stacks out of `t`, said apart on stderr (with cores over `window` seconds when the
 * counts are CPU time in ns). */
static int leave_out_idle(args *a, flame_tree *t, double window, flame_err *err)
{
	uint64_t before = flame_tree_total(t, 0);
	int rc = flame_filter_stacks(t, NULL, IDLE_FRAMES, err);
	uint64_t idle = before - flame_tree_total(t, 0);
	if (rc || !idle || a->inputs.quiet)
		return rc;
	char amount[64], cores[64] = "";
	const char *unit = flame_tree_count_name(t);
	flame_amount_print(amount, sizeof amount, idle, flame_tree_decimals(t), unit);
	if (window > 0 && unit && !strcmp(unit, "nanoseconds"))
		snprintf(cores, sizeof cores, ", %.3f cores over %.3f s", (double)idle / 1e9 / window, window);
	fprintf(stderr, "%s: idle (the swapper task, the kernel's idle loop): %s%s (%.1f%% of the "
	        "samples), left out of the table (--with-idle counts it as busy)\n", cli_prog(), amount,
	        cores, 100.0 * (double)idle / (double)before);
	return 0;
}

/* With no --window and no duration in the profile: the recording's span, said on stderr. */
static void window_from_span(args *a, flame_tree *t)
{
	int64_t first, last;
	if (a->co.window > 0 || flame_tree_duration(t) ||
	    flame_tree_time_span(t, &first, &last) == FLAME_CLOCK_NONE || last <= first)
		return;
	a->co.window = (double)(last - first) / 1e9;
	if (!a->inputs.quiet)
		fprintf(stderr, "%s: no --window: the recording's span, %.3f s from its first sample to "
		        "its last\n", cli_prog(), a->co.window);
}

/* The options and operands: 0 to go on, or an exit code (--help, usage errors,
 * --list-sample-types done). */
static int parse_args(args *a, int argc, char **argv, int *first, flame_owners **owners)
{
	cli_opt *table = cli_table(own_options, cli_input_opts, NULL);
	if (!table)
		return 1;
	int rc = cli_parse(argc, argv, table, formats, on_opt, a, "[OPTIONS] [FILE...]",
	                   "Print what each function costs: self and total (cumulative) time, bytes or\n"
	                   "samples, as go tool pprof -top does, rolled up by function, root frame, pprof\n"
	                   "label or team (--owners). For CPU time over a known window (--window, or\n"
	                   "pprof's duration) also the average cores, and with --core-price the cost per\n"
	                   "year. Reads any format flame-collapse reads; several FILEs are summed as\n"
	                   "flame-merge sums them; stdin when no FILE (or '-').",
	                   first);
	free(table);
	if (rc)
		return rc;
	if (a->by_owner && !a->owners)
		return cli_usage_error("--by owner wants --owners FILE");
	if (a->co.group_name) /* --by label:KEY: the label's value as the root frame */
		a->inputs.po.group_by = a->co.group_name;
	if ((rc = cli_input_ready(&a->inputs)))
		return rc;
	if (a->inputs.list_types)
		return cli_input_list_types(&a->inputs, (const char *const *)argv + *first, argc - *first);
	flame_err err = {0};
	if (a->owners && (a->by_owner || a->co.by == FLAME_COST_BY_FUNCTION) && !a->co.group_name) {
		a->co.by = FLAME_COST_BY_OWNER;
		if (flame_owners_new(owners, a->owners, &err))
			return cli_report(&err);
		a->co.owners = *owners;
	}
	return 0;
}

/* Every input (stdin when there is none) summed into *t by a merge request, then the
 * transforms. The exit code, after reporting. */
static int read_inputs(args *a, char **paths, int nfiles, flame_tree **t)
{
	flame_err err = {0};
	flame_merge_request *req = NULL;
	int n = nfiles ? nfiles : 1, code = 0, stdin_seen = 0;
	cli_warnings *warns = calloc((size_t)n, sizeof *warns);
	if (!warns || flame_merge_request_new(&req, &err)) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		free(warns);
		return 1;
	}
	for (int i = 0; i < n && !code; i++) {
		const char *path = nfiles ? paths[i] : "-";
		if (!strcmp(path, "-") && stdin_seen++) {
			code = cli_usage_error("'-' (stdin) can be given only once");
			break;
		}
		flame_parse_opts po = cli_input_parse_opts(&a->inputs, &warns[i]);
		if (!(a->co.window > 0)) /* for the window when the profile has no duration */
			po.keep_time_ns = CLI_TIME_BUCKET_NS;
		warns[i].defer = 1; /* inputs are read at once: their warnings print in order */
		if (flame_merge_request_input(req, path, NULL, &po, 0, 0, &err))
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
			cli_warnings_finish(&warns[i]);
		if (!rc)
			rc = cli_input_transform(&a->inputs, *t, &err);
		if (!rc)
			window_from_span(a, *t);
		if (!rc && !a->with_idle)
			rc = leave_out_idle(a, *t, a->co.window > 0 ? a->co.window
			                                            : (double)flame_tree_duration(*t) / 1e9, &err);
		code = rc ? cli_report(&err) : 0;
	}
	flame_merge_request_free(req);
	free(warns);
	return code;
}

int main(int argc, char **argv)
{
	args a = {.co = FLAME_COST_OPTS_INIT, .fail_above = -1, .jobs = 2, .inputs = CLI_INPUT_INIT};
	a.co.rows = 20;
	int first;
	flame_owners *owners = NULL;
	flame_tree *t = NULL;
	int code = parse_args(&a, argc, argv, &first, &owners);
	if (!code && a.pgo) {
		code = top_pgo(a.pgo, a.co.rows, stdout);
		flame_owners_free(owners);
		cli_input_free(&a.inputs);
		return code;
	}
	if (!code && !a.inputs.list_types)
		code = read_inputs(&a, argv + first, argc - first, &t);
	if (!code && !a.inputs.list_types)
		code = report(&a, t);
	flame_tree_free(t);
	flame_owners_free(owners);
	cli_input_free(&a.inputs);
	return code;
}
