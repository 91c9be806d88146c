/* Shared CLI plumbing: one option table drives getopt_long and --help; warnings are
 * printed once per kind with a count; errors print as "prog: file:line: msg";
 * outputs given with -o are written atomically and removed on error or SIGINT. */
#ifndef FLAME_CLI_H
#define FLAME_CLI_H
#include <stdio.h>
#include "libflame/flame.h"

enum { CLI_NOARG = 0, CLI_ARG = 1 };

typedef struct cli_opt {
	const char *name;     /* long name without "--"; NULL ends the table */
	int short_name;       /* 'o', or 0 */
	int has_arg;          /* CLI_NOARG / CLI_ARG */
	int id;               /* passed to the handler; unique, > 0 */
	const char *arg_name; /* "FILE" (for --help) */
	const char *help;     /* one line; for an option of cli_format, "{}" in it is replaced
	                       * by the list of the format names it takes */
} cli_opt;

/* An option whose values are format names from the library's tables: its help lists
 * them, and --help, the man page and the completions describe each (so a format added to
 * the library reaches every tool's option, text and docs). */
typedef struct cli_format {
	int id;                 /* the option's cli_opt.id; 0 ends the table */
	unsigned formats;       /* CLI_INPUT_FORMATS, or the FLAME_OUTPUT_* flags of the
	                         * output formats the option takes */
	const char *def;        /* the one marked "(default)" in the list */
} cli_format;

#define CLI_INPUT_FORMATS 0x10000u /* the input formats, "auto" first */

/* Return 0 to go on, or an exit code (e.g. 2 after printing a usage error). */
typedef int (*cli_opt_fn)(void *ud, int id, const char *arg);

/** Parse argv with `opts` (and `formats`, which names the options taking format names;
 * NULL: none); --help and --version are handled here (exit 0). Returns 0 with
 * *first_operand = index of the first non-option, or an exit code (2 for usage errors,
 * after printing "prog: ..." and a hint to stderr). `usage` is the synopsis line, `about`
 * one paragraph for --help. */
int cli_parse(int argc, char **argv, const cli_opt *opts, const cli_format *formats,
              cli_opt_fn fn, void *ud, const char *usage, const char *about,
              int *first_operand);

/** The program name used in messages (basename of argv[0]), set by cli_parse. */
const char *cli_prog(void);

/** Print "prog: <formatted err>" to stderr. Returns 1 (or 2 for FLAME_EUSAGE). */
int cli_report(const flame_err *e);

/** Print "prog: msg" to stderr and return 2 (usage errors). */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** The output format -o PATH names by its extension, among those with a flag in `accept`
 * (FLAME_OUTPUT_*), into *out (FLAME_OUTPUT_NONE for `-` and names without an
 * extension): 0, or a usage error naming the known extensions and `option`, which says the
 * format instead (exit 2). */
int cli_output_path(const char *path, unsigned accept, const char *option,
                    flame_output_format *out);

/** The output format `arg` of `option` names, among those with a flag in `accept`: 0, or a
 * usage error naming the accepted ones (2). */
int cli_output_format(const char *option, const char *arg, unsigned accept,
                      flame_output_format *out);

/** The flags (FLAME_OUTPUT_*) of output format `f` in the library's table; 0 if none. */
unsigned cli_output_flags(flame_output_format f);

/** The input format named by `arg` of --input-format into *out: 0, or a usage error (2). */
int cli_input_format(const char *arg, flame_format *out);

/* Warnings: print the first of each kind as it comes, count the rest, and print
 * "prog: N more KIND warnings" at the end. Pass cli_warn as the flame_warn_fn with a
 * cli_warnings* as its user data. */
typedef struct cli_warnings {
	struct {
		char kind[48];
		unsigned long count;
	} kinds[32];
	int n;
	int quiet;
	int defer;      /* hold the messages until cli_warnings_finish (inputs read at once on
	                 * several threads, each with its own cli_warnings, print in order) */
	char *deferred; /* malloc'd; freed by cli_warnings_finish */
	size_t deferred_len;
} cli_warnings;

void cli_warn(void *ud, const char *kind, const char *source, uint64_t line, const char *msg);
void cli_warnings_finish(cli_warnings *w);

/** Open the output (NULL/"-" = stdout) and arrange that SIGINT/SIGTERM remove its temp
 * file. Close with cli_output_commit / cli_output_abort. */
int cli_output_open(flame_output **o, const char *path, flame_err *err);
int cli_output_commit(flame_output *o, flame_err *err);
void cli_output_abort(flame_output *o);

/* Text the library writes (a flame_text_fn) into an output: pass cli_text_to_output with a
 * cli_text_out* holding the output and where its error goes. */
typedef struct cli_text_out {
	flame_output *o;
	flame_err *err;
} cli_text_out;
int cli_text_to_output(void *ud, const char *text, size_t len);

/** "1.5G", "512M", "4096", "2KiB" -> bytes (K/M/G/T are powers of 1024; 0 and overflow are
 * refused). A usage error (2) naming --max-inflate, or 0. */
int cli_max_inflate(const char *arg, uint64_t *out);

/* Progress on stderr: one updating line (bytes read of the total when known, rate) once
 * the job has run a second, cleared at the end. By default only when stderr is a terminal
 * (never in pipes, files or CI logs); --progress / --no-progress force it. Pass cli_progress
 * as flame_parse_opts.progress with a cli_progress_state* as its user data. */
typedef struct cli_progress_state {
	int mode;            /* CLI_PROGRESS_AUTO / _ON / _OFF */
	double start, last;  /* monotonic seconds: first report, last line drawn */
	uint64_t base;       /* bytes of the inputs finished before the current one */
	uint64_t done, prev_done;
	uint64_t stacks;     /* stacks so far (summed over the inputs by the library) */
	int shown;
} cli_progress_state;
enum { CLI_PROGRESS_AUTO = 0, CLI_PROGRESS_ON = 1, CLI_PROGRESS_OFF = 2 };

void cli_progress(void *ud, uint64_t done, uint64_t total, uint64_t stacks);
/** Call when one input is finished (the next one's bytes add to the count). */
void cli_progress_next(cli_progress_state *p);
/** Clear the line, if one was drawn. */
void cli_progress_finish(cli_progress_state *p);

/* ---- reading profiles: ONE table of the options that say how inputs are read, in every
 * tool that reads them (flame-collapse, flame-render, flame-diff, flame-merge, flame-top),
 * so each option has one name, one meaning and one help line everywhere (and so in the man
 * pages and completions). A tool's table is its own rows, then cli_input_opts (then
 * render_cli_opts for those that draw), joined by cli_table; it hands the ids below to
 * cli_input_opt. --input-format takes the input format names: {CLI_IN_FORMAT,
 * CLI_INPUT_FORMATS, "auto"} in the tool's cli_format table. The perf, offcpu, jfr and
 * pprof rows are stackcollapse-perf.pl's and our flame-collapse's; none has the name of a
 * flamegraph.pl option (flame-render's). */
enum {
	CLI_IN_FORMAT = 900, /* above a tool's own ids, below render-opts.h's RENDER_OPT_BASE */
	CLI_IN_QUIET, CLI_IN_IGNORE_UNITS, CLI_IN_PROGRESS, CLI_IN_NO_PROGRESS, CLI_IN_MAX_INFLATE,
	CLI_IN_INCLUDE, CLI_IN_EXCLUDE, CLI_IN_SKIP_AFTER,
	CLI_IN_FOCUS, CLI_IN_DROP, CLI_IN_MERGE, CLI_IN_COLLAPSE_RECURSION,
	CLI_IN_PID, CLI_IN_TID, CLI_IN_KERNEL, CLI_IN_JIT, CLI_IN_ALL, CLI_IN_ADDRS, CLI_IN_EVENT_FILTER,
	CLI_IN_RAW_NAMES, CLI_IN_KEEP_TEMPLATES, CLI_IN_TIME, CLI_IN_SRCLINE,
	CLI_IN_JFR_EVENT, CLI_IN_SIGNATURES, CLI_IN_THREADS, CLI_IN_LINES, CLI_IN_ANNOTATE,
	CLI_IN_SAMPLE_TYPE, CLI_IN_LIST_TYPES, CLI_IN_TAG, CLI_IN_TAG_IGNORE, CLI_IN_GROUP_BY,
	CLI_IN_INLINE_ANNOTATE, CLI_IN_ADDRESSES, CLI_IN_SYSTEM_NAMES,
	CLI_IN_NO_INLINE,
	CLI_IN_LAST
};
extern const cli_opt cli_input_opts[];

/** A time range `arg` of option `opt` into p's has_time_range, time_range, time_start and
 * time_end: START,END seconds from the first sample (either may be left out: open),
 * two dates (YYYY-MM-DDTHH:MM:SS[.frac][Z|+HH:MM], UTC by default) on the wall clock, or
 * perf:START,END on perf's clock. 0, or a usage error (2) after printing. */
int cli_time_range(const char *opt, const char *arg, flame_parse_opts *p);
/** Seconds `x` of a range `p` describes as ns from the first sample of a tree whose span
 * starts at `first_ns` on `clock`; 0 when the range cannot apply to that clock. */
int cli_time_rel(const flame_parse_opts *p, flame_clock clock, int64_t first_ns, int64_t *s,
                 int64_t *e);

/* The time buckets the tools keep when they draw time (--heatmap, the page): 1 ms */
#define CLI_TIME_BUCKET_NS 1000000u

/* What those options ask for. Start from CLI_INPUT_INIT; free with cli_input_free. */
typedef struct cli_input {
	flame_parse_opts po;  /* the format and each format's options (warn set per input by
	                       * cli_input_parse_opts) */
	int format_given;     /* --input-format was given */
	int quiet;
	int ignore_units;
	cli_progress_state progress;
	uint64_t max_inflate; /* 0: the library's defaults */
	const char *include, *exclude;
	const char **skip_after;
	size_t n_skip;
	const char **steps;   /* --focus, --drop, --merge, --collapse-recursion in the order
	                       * given: each "f", "d", "m" or "r" followed by its REGEX */
	size_t n_steps;
	const char **tags, **tags_ignore; /* the pprof lists po points to */
	int list_types;       /* --list-sample-types */
} cli_input;
#define CLI_INPUT_INIT {.po = FLAME_PARSE_OPTS_INIT}

/** Set `in` from input option `id` (CLI_IN_*): 0, or a usage error (2) after printing. */
int cli_input_opt(cli_input *in, int id, const char *arg);
/** After the options: check the regexes and the pprof options before any input is read.
 * 0, or an exit code after reporting. */
int cli_input_ready(cli_input *in);
/** The parse options of one input: `w` (quiet as --quiet says) gets its warnings. */
flame_parse_opts cli_input_parse_opts(const cli_input *in, cli_warnings *w);
/** 1 when a transform of the read profile was asked for (--include, --exclude,
 * --skip-after, --focus, --drop, --merge, --collapse-recursion): the tool needs the
 * profile as a tree. */
int cli_input_transforms(const cli_input *in);
/** Apply them to `t`, the profile as read (after a diff's or merge's normalization):
 * --skip-after, then --include and --exclude, then the call-tree transforms in the order
 * given. */
int cli_input_transform(const cli_input *in, flame_tree *t, flame_err *err);
/** --list-sample-types: print each of the `n` inputs' pprof sample types (`type/unit`,
 * the default marked; prefixed by the file name when n > 1) and return the exit code. */
int cli_input_list_types(const cli_input *in, const char *const *paths, int n);
void cli_input_free(cli_input *in);
/** " (none left after --include)": what of --include, --exclude and --skip-after were given,
 * for a message about a profile they emptied (`buf` is "" when none was). */
void cli_input_emptied(const cli_input *in, char *buf, size_t cap);
/** How one input is parsed (flame_parse, or a tool's own way round it). */
typedef int (*cli_parse_fn)(flame_tree *t, flame_input *in, const flame_parse_opts *po,
                            flame_err *err);
/** Read the `n` inputs `paths` (stdin when n is 0) into `t`, one after the other, with
 * --max-inflate and the progress line: 0, or the first failure (in `err`). */
int cli_input_read(cli_input *in, flame_tree *t, char **paths, int n, const flame_parse_opts *po,
                   cli_parse_fn parse, flame_err *err);

/* ---- folded output: its first line says what the counts measure (`# countname=UNIT
 * type=TYPE`, when they are not plain samples), so the unit survives a pipe into the next
 * tool; --no-header leaves it out, for stackcollapse-perf.pl's bytes. The same row in every
 * tool that writes folded text (flame-collapse, flame-merge, flame-diff), with its id. */
#define CLI_NO_HEADER_OPT(id)                                                                  \
	{"no-header", 0, CLI_NOARG, id, NULL,                                                      \
	 "folded output: no '# countname=UNIT' first line (stackcollapse-perf.pl's bytes; the "    \
	 "next tool then takes nanoseconds or bytes for samples)"}

/* ---- an empty profile: folded text (or pprof) of nothing is an empty output, not an
 * error; a picture of nothing is one. */

/** "FILE", "<stdin>" or "A, B and 2 more" for the `n` inputs `paths` ("-": stdin; n == 0:
 * stdin), for messages about all of them. */
void cli_inputs_name(char *buf, size_t cap, const char *const *paths, int n);
/** 1 when `output` (-o's argument, NULL: none) is standard output. */
int cli_to_stdout(const char *output);
/** A picture of a profile with no stacks: print "prog: WHAT: no stacks to draw" (with
 * `why`, e.g. " after --include", when they were there before the transforms) and return
 * flamegraph.pl's exit status, 2. The caller writes flamegraph.pl's error picture to
 * standard output (for drop-in users), but never to -o's FILE, which is left as it was. */
int cli_no_stacks(const char *what, const char *why);

/* ---- one table from several: the tool's own rows, cli_input_opts, render_cli_opts */

/** The tables given (NULL-ended list), one after the other, malloc'd; NULL on out of memory
 * (after printing). A row whose name is "" is a heading: --help prints its help text above
 * the rows after it, and the man page makes it a subsection. */
cli_opt *cli_table(const cli_opt *first, ...);

/** Append `arg` to a growing list of an option's values (--tag): 0, or 2 after printing. */
int cli_push_arg(const char ***v, size_t *n, const char *arg);

/* Number parsing with range checks; 0 ok, -1 bad. */
int cli_parse_u64(const char *s, uint64_t *out);
int cli_parse_double(const char *s, double *out);
#endif
