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

enum {
	O_PID = 1, O_TID, O_KERNEL, O_JIT, O_ALL, O_ADDRS, O_EVENT, O_KEEP_TEMPLATES,
	O_SKIP_AFTER, O_INCLUDE, O_EXCLUDE, O_TIME, O_JOBS, O_OUTPUT, O_FORMAT, O_QUIET, O_SRCLINE,
	O_SIGNATURES, O_THREADS, O_LINES, O_ANNOTATE, O_JFR_EVENT, O_RAW_NAMES, O_IGNORE_UNITS,
	O_INPUT_FORMAT
};
/* the output formats flame-collapse writes: stacks (folded text, pprof) */
#define OUTPUTS FLAME_OUTPUT_STACKS
/* progress line (cli_progress) */
enum { O_PROGRESS = 2000, O_NO_PROGRESS, O_MAX_INFLATE };
/* pprof options */
enum {
	O_SAMPLE_TYPE = 1000, O_LIST_TYPES, O_TAG, O_TAG_IGNORE, O_GROUP_BY, O_INLINE_ANNOTATE,
	O_ADDRESSES, O_SYSTEM_NAMES, O_OUTPUT_FORMAT
};

static const cli_opt options[] = {
	{"pid", 0, CLI_NOARG, O_PID, NULL, "append the PID to the process name (comm-PID)"},
	{"tid", 0, CLI_NOARG, O_TID, NULL, "append PID and TID to the process name (comm-PID/TID)"},
	{"kernel", 0, CLI_NOARG, O_KERNEL, NULL, "annotate kernel frames with _[k]"},
	{"jit", 0, CLI_NOARG, O_JIT, NULL,
	 "annotate JIT frames (/tmp/perf-N.map, jitdump's jitted-N-M.so) with _[j]"},
	{"all", 0, CLI_NOARG, O_ALL, NULL, "all annotations (--kernel --jit)"},
	{"addrs", 0, CLI_NOARG, O_ADDRS, NULL, "show raw addresses for unknown symbols"},
	{"event-filter", 0, CLI_ARG, O_EVENT, "EVENT",
	 "keep only samples of EVENT (default: the first sampling event, else the first seen)"},
	{"raw-names", 0, CLI_NOARG, O_RAW_NAMES, NULL,
	 "names as stackcollapse-perf.pl leaves them (Rust's $LT$... and ::h<hash> kept)"},
	{"keep-templates", 0, CLI_NOARG, O_KEEP_TEMPLATES, NULL,
	 "cut arguments at the first '(' outside <>, {}, [] (keeps C++ templates whole)"},
	{"skip-after", 0, CLI_ARG, O_SKIP_AFTER, "SYMBOL",
	 "drop the frames below SYMBOL (towards the root); repeatable"},
	{"include", 0, CLI_ARG, O_INCLUDE, "REGEX", "keep only stacks with a frame matching REGEX"},
	{"exclude", 0, CLI_ARG, O_EXCLUDE, "REGEX", "drop stacks with a frame matching REGEX"},
	{"time", 0, CLI_ARG, O_TIME, "START,END", "keep samples with START <= time <= END (seconds)"},
	{"jobs", 'j', CLI_ARG, O_JOBS, "N", "worker threads (default: number of cores)"},
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE",
	 "write to FILE (atomically) instead of stdout; the format from its extension (see "
	 "Output formats)"},
	{"format", 0, CLI_ARG, O_FORMAT, "FMT",
	 "output format: {}. As before, a name that is also an input format means "
	 "--input-format, unless --input-format is given too: --format pprof reads pprof"},
	{"input-format", 0, CLI_ARG, O_INPUT_FORMAT, "FMT", "input format: {}"},
	{"srcline", 0, CLI_NOARG, O_SRCLINE, NULL,
	 "accepted for compatibility: srcline lines are always recognized"},
	{"quiet", 'q', CLI_NOARG, O_QUIET, NULL, "do not print warnings"},
	CLI_PROGRESS_OPTS(O_PROGRESS, O_NO_PROGRESS),
	CLI_MAX_INFLATE_OPT(O_MAX_INFLATE),
	{"ignore-units", 0, CLI_NOARG, O_IGNORE_UNITS, NULL, CLI_IGNORE_UNITS_HELP},
	{"event", 0, CLI_ARG, O_JFR_EVENT, "NAME",
	 "jfr: the event type (default jdk.ExecutionSample, else the first with stacks)"},
	{"signatures", 0, CLI_NOARG, O_SIGNATURES, NULL, "jfr: keep parameter lists in frames"},
	{"threads", 0, CLI_NOARG, O_THREADS, NULL, "jfr: the thread name as the root frame"},
	{"lines", 0, CLI_NOARG, O_LINES, NULL, "jfr: append :LINE to frames; pprof: append ' file:line'"},
	{"annotate", 0, CLI_NOARG, O_ANNOTATE, NULL, "jfr: append _[j] to Java frames"},
	CLI_SAMPLE_TYPE_OPT(O_SAMPLE_TYPE),
	{"list-sample-types", 0, CLI_NOARG, O_LIST_TYPES, NULL,
	 "pprof: print the sample types of each input (type/unit) and exit"},
	CLI_PPROF_TAG_OPTS(O_TAG, O_TAG_IGNORE),
	{"group-by", 0, CLI_ARG, O_GROUP_BY, "KEY", "pprof: the value of label KEY as the root frame"},
	{"inline-annotate", 0, CLI_NOARG, O_INLINE_ANNOTATE, NULL, "pprof: append _[i] to inlined frames"},
	{"addresses", 0, CLI_NOARG, O_ADDRESSES, NULL,
	 "pprof: mapping+0xADDR for code with no function name"},
	{"system-names", 0, CLI_NOARG, O_SYSTEM_NAMES, NULL,
	 "pprof: system (mangled) function names"},
	{"output-format", 0, CLI_ARG, O_OUTPUT_FORMAT, "FMT", "output format, always: {}"},
	{NULL, 0, 0, 0, NULL, NULL},
};

static const cli_format formats[] = {
	{O_FORMAT, OUTPUTS, "folded"},
	{O_INPUT_FORMAT, CLI_INPUT_FORMATS, "auto"},
	{O_OUTPUT_FORMAT, OUTPUTS, "folded"},
	{0, 0, NULL},
};

typedef struct args {
	flame_parse_opts popts;
	const char *output;
	const char **skip_after;
	size_t n_skip;
	const char *include, *exclude;
	int quiet;
	int ignore_units;
	const char **tags, **tags_ignore; /* pprof */
	int list_types;
	const char *format;               /* --format, resolved once all options are read */
	int input_format_given;
	flame_output_format out;          /* --output-format, or --format as the output */
	cli_progress_state progress;
	uint64_t max_inflate; /* 0: the library's defaults */
} args;

static void free_args(args *a)
{
	free(a->skip_after);
	free(a->tags);
	free(a->tags_ignore);
}

static int print_type(void *ud, const char *type, const char *unit, int is_default)
{
	const char *file = ud;
	printf("%s%s%s/%s%s\n", file ? file : "", file ? ": " : "", type, unit,
	       is_default ? " (default)" : "");
	return 0;
}

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	uint64_t u;
	switch (id) {
	case O_PID:
		a->popts.perf_flags |= FLAME_PERF_PID;
		a->popts.offcpu_flags |= FLAME_OFFCPU_PID;
		break;
	case O_TID:
		a->popts.perf_flags |= FLAME_PERF_TID;
		a->popts.offcpu_flags |= FLAME_OFFCPU_TID;
		break;
	case O_KERNEL: a->popts.perf_flags |= FLAME_PERF_KERNEL; break;
	case O_JIT: a->popts.perf_flags |= FLAME_PERF_JIT; break;
	case O_ALL: a->popts.perf_flags |= FLAME_PERF_KERNEL | FLAME_PERF_JIT; break;
	case O_ADDRS: a->popts.perf_flags |= FLAME_PERF_ADDRS; break;
	case O_KEEP_TEMPLATES: a->popts.perf_flags |= FLAME_PERF_KEEP_TEMPLATES; break;
	case O_RAW_NAMES: a->popts.perf_flags |= FLAME_PERF_RAW_NAMES; break;
	case O_EVENT: a->popts.perf_event_filter = arg; break;
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
	case O_FORMAT: a->format = arg; break;
	case O_INPUT_FORMAT:
		a->input_format_given = 1;
		return cli_input_format(arg, &a->popts.format);
	case O_SRCLINE: break;
	case O_JFR_EVENT: a->popts.jfr_event = arg; break;
	case O_SIGNATURES: a->popts.jfr_flags |= FLAME_JFR_SIGNATURES; break;
	case O_THREADS: a->popts.jfr_flags |= FLAME_JFR_THREADS; break;
	case O_LINES:
		a->popts.jfr_flags |= FLAME_JFR_LINES;
		a->popts.pprof_flags |= FLAME_PPROF_LINES;
		break;
	case O_ANNOTATE: a->popts.jfr_flags |= FLAME_JFR_ANNOTATE; break;
	case O_QUIET: a->quiet = 1; break;
	case O_PROGRESS: a->progress.mode = CLI_PROGRESS_ON; break;
	case O_NO_PROGRESS: a->progress.mode = CLI_PROGRESS_OFF; break;
	case O_MAX_INFLATE: return cli_max_inflate(arg, &a->max_inflate);
	case O_IGNORE_UNITS: a->ignore_units = 1; break;
	case O_SAMPLE_TYPE: a->popts.pprof_sample_type = arg; break;
	case O_LIST_TYPES: a->list_types = 1; break;
	case O_TAG: return cli_push_arg(&a->tags, &a->popts.n_tags, arg);
	case O_TAG_IGNORE: return cli_push_arg(&a->tags_ignore, &a->popts.n_tags_ignore, arg);
	case O_GROUP_BY: a->popts.group_by = arg; break;
	case O_INLINE_ANNOTATE: a->popts.pprof_flags |= FLAME_PPROF_INLINE_ANNOTATE; break;
	case O_ADDRESSES: a->popts.pprof_flags |= FLAME_PPROF_ADDRESSES; break;
	case O_SYSTEM_NAMES: a->popts.pprof_flags |= FLAME_PPROF_SYSTEM_NAMES; break;
	case O_OUTPUT_FORMAT: return cli_output_format("--output-format", arg, OUTPUTS, &a->out);
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
	if (a->format && !a->input_format_given && flame_input_format_find(a->format, &in, NULL) == 0) {
		a->popts.format = in;
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

int main(int argc, char **argv)
{
	args a = {.popts = FLAME_PARSE_OPTS_INIT};
	int first;
	int rc = cli_parse(argc, argv, options, formats, on_opt, &a, "[OPTIONS] [FILE...]",
	                   "Collapse profiles of any input format below (told apart by content;\n"
	                   "--input-format names one) into folded stacks: one line per unique stack,\n"
	                   "'root;...;leaf count', sorted bytewise; or into a pprof profile.\n"
	                   "Reads stdin when no FILE (or '-') is given; gzip input is inflated.",
	                   &first);
	if (!rc)
		rc = resolve_format(&a);
	if (rc) {
		free_args(&a);
		return rc;
	}
	flame_err err = {0};
	if (flame_filter_check(a.include, a.exclude, &err)) {
		free_args(&a);
		return cli_report(&err);
	}
	a.popts.tags = a.tags;
	a.popts.tags_ignore = a.tags_ignore;
	if (flame_parse_opts_check(&a.popts, &err)) {
		free_args(&a);
		return cli_report(&err);
	}
	if (a.list_types) {
		int n = argc - first;
		for (int i = 0; i < (n ? n : 1) && !rc; i++) {
			flame_input *in = NULL;
			const char *path = n ? argv[first + i] : "-";
			rc = flame_input_open(&in, path, &err);
			if (!rc)
				flame_input_set_limit(in, a.max_inflate);
			if (!rc)
				rc = flame_pprof_sample_types(in, print_type, n > 1 ? (void *)path : NULL, &err);
			flame_input_free(in);
		}
		free_args(&a);
		return rc ? cli_report(&err) : 0;
	}
	cli_warnings warns = {.quiet = a.quiet};
	a.popts.warn = cli_warn;
	a.popts.warn_ud = &warns;
	flame_output *out = NULL;
	flame_tree *t = NULL;
	if (flame_tree_new(&t, &err)) {
		free_args(&a);
		return cli_report(&err);
	}
	flame_tree_set_ignore_units(t, a.ignore_units);
	/* folded output merges spilled runs as it writes: memory stays flat on any input */
	flame_tree_set_memory_limit(t, SPILL_LIMIT);
	int nfiles = argc - first;
	for (int i = 0; i < (nfiles ? nfiles : 1) && !rc; i++) {
		const char *path = nfiles ? argv[first + i] : "-";
		flame_input *in = NULL;
		rc = flame_input_open(&in, path, &err);
		if (!rc) {
			flame_input_set_limit(in, a.max_inflate);
			flame_input_set_progress(in, cli_progress, &a.progress);
			rc = flame_parse(t, in, &a.popts, &err);
		}
		flame_input_free(in);
		cli_progress_next(&a.progress);
	}
	cli_progress_finish(&a.progress);
	if (!rc && a.n_skip)
		rc = flame_skip_after(t, a.skip_after, a.n_skip, &err);
	if (!rc)
		rc = flame_filter_stacks(t, a.include, a.exclude, &err);
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
	free_args(&a);
	return code;
}
