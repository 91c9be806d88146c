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

/* --ignore-units, the same in every tool that adds inputs (flame_tree_set_ignore_units). */
#define CLI_IGNORE_UNITS_HELP                                                                \
	"add or compare inputs whose units differ (CPU nanoseconds, heap bytes, sample "          \
	"counts...) instead of refusing them"

/* --max-inflate, in every tool (each reads gzip input): the most bytes a gzip input may
 * inflate to (flame_input_set_limit; a pprof profile, read whole, is bounded by it gzipped
 * or not). The errors at the limit name the option (cli_report). */
#define CLI_MAX_INFLATE_OPT(id)                                                                \
	{"max-inflate", 0, CLI_ARG, id, "SIZE",                                                    \
	 "stop with an error when a gzip input inflates past SIZE bytes (K, M, G, T: powers of "   \
	 "1024; default 4G, and 1G for a pprof profile, which is read whole)"}

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

/* the --progress and --no-progress rows of an option table, with the tool's ids */
#define CLI_PROGRESS_OPTS(on_id, off_id)                                                       \
	{"progress", 0, CLI_NOARG, on_id, NULL,                                                    \
	 "show a progress line on stderr (default: when it is a terminal)"},                       \
	{"no-progress", 0, CLI_NOARG, off_id, NULL, "never show the progress line"}

/* pprof's label filters and sample type, the same rows in every tool that reads labels */
#define CLI_PPROF_TAG_OPTS(tag_id, ignore_id)                                                  \
	{"tag", 0, CLI_ARG, tag_id, "KEY=REGEX",                                                   \
	 "pprof: keep samples with a label matching (KEY=MIN:MAX for numbers); repeatable"},        \
	{"tag-ignore", 0, CLI_ARG, ignore_id, "KEY=REGEX",                                         \
	 "pprof: drop samples with a label matching; repeatable"}
#define CLI_SAMPLE_TYPE_OPT(id)                                                                \
	{"sample-type", 0, CLI_ARG, id, "TYPE",                                                    \
	 "pprof: the value to count (cpu, alloc_space...; default as go tool pprof)"}

void cli_progress(void *ud, uint64_t done, uint64_t total, uint64_t stacks);
/** Call when one input is finished (the next one's bytes add to the count). */
void cli_progress_next(cli_progress_state *p);
/** Clear the line, if one was drawn. */
void cli_progress_finish(cli_progress_state *p);

/* The input options flame-diff, flame-merge and flame-top share, defined once: each tool
 * lists the rows in its own order (which --help, the man page and the completions follow),
 * so there is a macro for each row, and CLI_INPUT_OPTS for the run flame-merge and
 * flame-top list together. The rows carry the ids below, which the tool hands to
 * cli_input_opt. --input-format takes the input format names: {CLI_IN_FORMAT,
 * CLI_INPUT_FORMATS, "auto"} in the tool's cli_format table. */
enum {
	CLI_IN_FORMAT = 900, /* above a tool's own ids, below render-opts.h's RENDER_OPT_BASE */
	CLI_IN_QUIET, CLI_IN_IGNORE_UNITS, CLI_IN_PROGRESS, CLI_IN_NO_PROGRESS, CLI_IN_MAX_INFLATE
};
#define CLI_INPUT_FORMAT_OPT                                                                   \
	{"input-format", 0, CLI_ARG, CLI_IN_FORMAT, "FMT", "read the inputs as FMT: {}"}
#define CLI_QUIET_OPT {"quiet", 'q', CLI_NOARG, CLI_IN_QUIET, NULL, "do not print warnings"}
#define CLI_IGNORE_UNITS_OPT                                                                   \
	{"ignore-units", 0, CLI_NOARG, CLI_IN_IGNORE_UNITS, NULL, CLI_IGNORE_UNITS_HELP}
/* --quiet, --ignore-units, --progress, --no-progress and --max-inflate, in that order */
#define CLI_INPUT_OPTS                                                                         \
	CLI_QUIET_OPT, CLI_IGNORE_UNITS_OPT,                                                   \
	CLI_PROGRESS_OPTS(CLI_IN_PROGRESS, CLI_IN_NO_PROGRESS),                                \
	CLI_MAX_INFLATE_OPT(CLI_IN_MAX_INFLATE)

/* What those options ask for; zero is each one's default. */
typedef struct cli_input {
	flame_format format; /* FLAME_FORMAT_AUTO: told from the content */
	int quiet;
	int ignore_units;
	cli_progress_state progress;
	uint64_t max_inflate; /* 0: the library's defaults */
} cli_input;

/** Set `in` from input option `id` (CLI_IN_*): 0, or a usage error (2) after printing. */
int cli_input_opt(cli_input *in, int id, const char *arg);

/** Append `arg` to a growing list of an option's values (--tag): 0, or 2 after printing. */
int cli_push_arg(const char ***v, size_t *n, const char *arg);

/* Number parsing with range checks; 0 ok, -1 bad. */
int cli_parse_u64(const char *s, uint64_t *out);
int cli_parse_double(const char *s, double *out);
#endif
