/* flame-collapse: profiles (perf script text, folded...) to folded stacks, with
 * stackcollapse-perf.pl's options and meanings, plus filters and parallel parsing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

enum {
	O_PID = 1, O_TID, O_KERNEL, O_JIT, O_ALL, O_ADDRS, O_EVENT, O_KEEP_TEMPLATES,
	O_SKIP_AFTER, O_INCLUDE, O_EXCLUDE, O_TIME, O_JOBS, O_OUTPUT, O_FORMAT, O_QUIET, O_SRCLINE,
	O_SIGNATURES, O_THREADS, O_LINES, O_ANNOTATE, O_JFR_EVENT
};

static const cli_opt options[] = {
	{"pid", 0, CLI_NOARG, O_PID, NULL, "append the PID to the process name (comm-PID)"},
	{"tid", 0, CLI_NOARG, O_TID, NULL, "append PID and TID to the process name (comm-PID/TID)"},
	{"kernel", 0, CLI_NOARG, O_KERNEL, NULL, "annotate kernel frames with _[k]"},
	{"jit", 0, CLI_NOARG, O_JIT, NULL, "annotate JIT frames (/tmp/perf-N.map) with _[j]"},
	{"all", 0, CLI_NOARG, O_ALL, NULL, "all annotations (--kernel --jit)"},
	{"addrs", 0, CLI_NOARG, O_ADDRS, NULL, "show raw addresses for unknown symbols"},
	{"event-filter", 0, CLI_ARG, O_EVENT, "EVENT",
	 "keep only samples of EVENT (default: the first event seen)"},
	{"keep-templates", 0, CLI_NOARG, O_KEEP_TEMPLATES, NULL,
	 "cut arguments at the first '(' outside <>, {}, [] (keeps C++ templates whole)"},
	{"skip-after", 0, CLI_ARG, O_SKIP_AFTER, "SYMBOL",
	 "drop the frames below SYMBOL (towards the root); repeatable"},
	{"include", 0, CLI_ARG, O_INCLUDE, "REGEX", "keep only stacks with a frame matching REGEX"},
	{"exclude", 0, CLI_ARG, O_EXCLUDE, "REGEX", "drop stacks with a frame matching REGEX"},
	{"time", 0, CLI_ARG, O_TIME, "START,END", "keep samples with START <= time <= END (seconds)"},
	{"jobs", 'j', CLI_ARG, O_JOBS, "N", "worker threads (default: number of cores)"},
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE", "write to FILE (atomically) instead of stdout"},
	{"format", 0, CLI_ARG, O_FORMAT, "FMT", "input format: auto (default), perf, folded, offcpu (BCC offcputime), jfr (jfr print text)"},
	{"srcline", 0, CLI_NOARG, O_SRCLINE, NULL,
	 "accepted for compatibility: srcline lines are always recognized"},
	{"quiet", 'q', CLI_NOARG, O_QUIET, NULL, "do not print warnings"},
	{"event", 0, CLI_ARG, O_JFR_EVENT, "NAME",
	 "jfr: the event type (default jdk.ExecutionSample, else the first with stacks)"},
	{"signatures", 0, CLI_NOARG, O_SIGNATURES, NULL, "jfr: keep parameter lists in frames"},
	{"threads", 0, CLI_NOARG, O_THREADS, NULL, "jfr: the thread name as the root frame"},
	{"lines", 0, CLI_NOARG, O_LINES, NULL, "jfr: append :LINE to frames"},
	{"annotate", 0, CLI_NOARG, O_ANNOTATE, NULL, "jfr: append _[j] to Java frames"},
	{NULL, 0, 0, 0, NULL, NULL},
};

typedef struct args {
	flame_parse_opts popts;
	const char *output;
	const char **skip_after;
	size_t n_skip;
	const char *include, *exclude;
	int quiet;
} args;

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	uint64_t u;
	switch (id) {
	case O_PID: a->popts.perf_flags |= FLAME_PERF_PID; break;
	case O_TID: a->popts.perf_flags |= FLAME_PERF_TID; break;
	case O_KERNEL: a->popts.perf_flags |= FLAME_PERF_KERNEL; break;
	case O_JIT: a->popts.perf_flags |= FLAME_PERF_JIT; break;
	case O_ALL: a->popts.perf_flags |= FLAME_PERF_KERNEL | FLAME_PERF_JIT; break;
	case O_ADDRS: a->popts.perf_flags |= FLAME_PERF_ADDRS; break;
	case O_KEEP_TEMPLATES: a->popts.perf_flags |= FLAME_PERF_KEEP_TEMPLATES; break;
	case O_EVENT: a->popts.event_filter = arg; break;
	case O_SKIP_AFTER: {
		const char **v = realloc(a->skip_after, (a->n_skip + 1) * sizeof *v);
		if (!v)
			return cli_usage_error("out of memory");
		v[a->n_skip++] = arg;
		a->skip_after = v;
		break;
	}
	case O_INCLUDE: a->include = arg; break;
	case O_EXCLUDE: a->exclude = arg; break;
	case O_TIME: {
		const char *comma = strchr(arg, ',');
		char first[64];
		double s, e;
		if (!comma || (size_t)(comma - arg) >= sizeof first)
			return cli_usage_error("--time wants START,END in seconds, got '%s'", arg);
		memcpy(first, arg, (size_t)(comma - arg));
		first[comma - arg] = '\0';
		if (cli_parse_double(first, &s) || cli_parse_double(comma + 1, &e) || s < 0 || e < s)
			return cli_usage_error("--time wants START,END with 0 <= START <= END, got '%s'", arg);
		a->popts.has_time_range = 1;
		a->popts.time_start = s;
		a->popts.time_end = e;
		break;
	}
	case O_JOBS:
		if (cli_parse_u64(arg, &u) || u < 1 || u > 256)
			return cli_usage_error("-j wants a number of threads from 1 to 256, got '%s'", arg);
		a->popts.threads = (unsigned)u;
		break;
	case O_OUTPUT: a->output = arg; break;
	case O_FORMAT: {
		int f = flame_format_from_name(arg);
		if (f < 0)
			return cli_usage_error("unknown format '%s' (auto, perf, folded, pprof, offcpu, jfr, svg)",
			                       arg);
		a->popts.format = (flame_format)f;
		break;
	}
	case O_SRCLINE: break;
	case O_JFR_EVENT: a->popts.jfr_event = arg; break;
	case O_SIGNATURES: a->popts.jfr_flags |= FLAME_JFR_SIGNATURES; break;
	case O_THREADS: a->popts.jfr_flags |= FLAME_JFR_THREADS; break;
	case O_LINES: a->popts.jfr_flags |= FLAME_JFR_LINES; break;
	case O_ANNOTATE: a->popts.jfr_flags |= FLAME_JFR_ANNOTATE; break;
	case O_QUIET: a->quiet = 1; break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	args a = {.popts = FLAME_PARSE_OPTS_INIT};
	int first;
	int rc = cli_parse(argc, argv, options, on_opt, &a, "[OPTIONS] [FILE...]",
	                   "Collapse profiles (perf script output, folded stacks) into folded stacks:\n"
	                   "one line per unique stack, 'root;...;leaf count', sorted bytewise.\n"
	                   "Reads stdin when no FILE (or '-') is given; gzip input is inflated.",
	                   &first);
	if (rc) {
		free(a.skip_after);
		return rc;
	}
	flame_err err = {0};
	if (flame_filter_check(a.include, a.exclude, &err)) {
		free(a.skip_after);
		return cli_report(&err);
	}
	cli_warnings warns = {.quiet = a.quiet};
	a.popts.warn = cli_warn;
	a.popts.warn_ud = &warns;
	flame_output *out = NULL;
	flame_tree *t = flame_tree_new();
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		free(a.skip_after);
		return 1;
	}
	int nfiles = argc - first;
	for (int i = 0; i < (nfiles ? nfiles : 1) && !rc; i++) {
		const char *path = nfiles ? argv[first + i] : "-";
		flame_input *in = NULL;
		rc = flame_input_open(&in, path, &err);
		if (!rc)
			rc = flame_parse(t, in, &a.popts, &err);
		flame_input_free(in);
	}
	if (!rc && a.n_skip)
		rc = flame_skip_after(t, a.skip_after, a.n_skip, &err);
	if (!rc)
		rc = flame_filter_stacks(t, a.include, a.exclude, &err);
	if (!rc)
		rc = cli_output_open(&out, a.output, &err);
	if (!rc) {
		rc = flame_write_folded(t, out, &err);
		if (rc) {
			cli_output_abort(out);
		} else {
			rc = cli_output_commit(out, &err);
		}
	}
	cli_warnings_finish(&warns);
	int code = rc ? cli_report(&err) : 0;
	flame_tree_free(t);
	free(a.skip_after);
	return code;
}
