/* Shared CLI plumbing: the option table drives getopt_long and --help; warnings print
 * once per kind with a count; -o outputs are atomic and removed on SIGINT/SIGTERM. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

static const char *prog = "flame";
enum { CLI_ID_HELP = -1000, CLI_ID_VERSION = -1001 }; /* getopt_long's values for them */
/* the temp file to remove if a signal arrives (a CLI has at most one open output) */
static const char *volatile pending_tmp;
static char pending_buf[4096];

const char *cli_prog(void) { return prog; }

/* What every tool's --help and man page say of output and exit status (one text for both). */
static const char output_text[] =
	"Output goes to stdout, or to FILE with -o FILE: written to a temporary file beside it and "
	"renamed when complete, so FILE is never left half-written (removed on error or signal). "
	"Warnings and errors go to stderr.";
static const char exit_text[] =
	"0 success; 1 an input could not be read or parsed, an output could not be written (or "
	"a gate such as flame-diff --fail-above tripped); 2 a usage error (unknown option, bad "
	"value), or a picture asked of a profile with no stacks (as flamegraph.pl: its error "
	"picture goes to stdout, never to -o's FILE).";

/* The version line of every tool: the tool (as compiled) and the library (as loaded) may
 * differ when an older libflame.so is found first; CLI_BUILT_WITH comes from meson. */
static void print_version(void)
{
	printf("%s %s\nlibflame %s\nbuilt with: %s\n", prog, FLAME_VERSION, flame_version(),
	       CLI_BUILT_WITH);
}

/* ---- format names in option help: the lists come from the library's tables */

static const cli_format *format_of(const cli_format *formats, int id)
{
	for (; formats && formats->id; formats++)
		if (formats->id == id)
			return formats;
	return NULL;
}

/* "auto (default), folded, perf..." or the output formats with a flag in `fm->formats`;
 * `bare`: "auto folded perf..." */
static void format_list(const cli_format *fm, int bare, char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = '\0';
	int in = (fm->formats & CLI_INPUT_FORMATS) != 0;
	size_t n = in ? flame_input_format_count() + 1 : flame_output_format_count();
	for (size_t i = 0; i < n; i++) {
		const flame_format_info *f = in ? (i ? flame_input_format_info(i - 1) : NULL)
		                                : flame_output_format_info(i);
		if (!in && !(f->flags & fm->formats))
			continue;
		const char *name = f ? f->name : "auto";
		int def = fm->def && !strcmp(name, fm->def);
		int w = snprintf(buf + len, cap - len, "%s%s%s", len ? bare ? " " : ", " : "", name,
		                 def && !bare ? " (default)" : "");
		if (w < 0 || (size_t)w >= cap - len)
			break;
		len += (size_t)w;
	}
}

/* The option's help, its "{}" replaced by the list of the format names it takes. */
static const char *opt_help(const cli_opt *o, const cli_format *formats, char *buf, size_t cap)
{
	const cli_format *fm = format_of(formats, o->id);
	const char *mark = fm ? strstr(o->help, "{}") : NULL;
	if (!mark)
		return o->help;
	char list[512];
	format_list(fm, 0, list, sizeof list);
	snprintf(buf, cap, "%.*s%s%s", (int)(mark - o->help), o->help, list, mark + 2);
	return buf;
}

/* Each format the tool's options take, inputs then outputs, with its extensions and
 * description: `put` gets (ud, "input" or "output", info, extensions joined by spaces). */
typedef void (*format_fn)(void *ud, const char *kind, const flame_format_info *f, const char *exts);

static void each_format(const cli_format *formats, format_fn put, void *ud)
{
	unsigned all = 0;
	for (const cli_format *fm = formats; fm && fm->id; fm++)
		all |= fm->formats;
	for (int out = 0; out < 2; out++) {
		if (!out && !(all & CLI_INPUT_FORMATS))
			continue;
		size_t n = out ? flame_output_format_count() : flame_input_format_count();
		for (size_t i = 0; i < n; i++) {
			const flame_format_info *f = out ? flame_output_format_info(i) : flame_input_format_info(i);
			if (out && !(f->flags & all & ~CLI_INPUT_FORMATS))
				continue;
			char exts[128] = "";
			for (const char *const *e = f->extensions; *e; e++)
				if (strlen(exts) + strlen(*e) + 2 < sizeof exts) {
					strcat(exts, e == f->extensions ? "" : " ");
					strcat(exts, *e);
				}
			put(ud, out ? "output" : "input", f, exts);
		}
	}
}

/* --help-table (not listed): the option table as tab-separated lines, read at build time
 * by tools/gen-docs.py to make the man pages and shell completions, so they cannot drift
 * from --help: `opt` rows, a `values` row after each option taking format names, and a
 * `format` row for each format the tool reads or writes. Tabs and newlines in texts are
 * printed as \t and \n. */
static void put_field(const char *s)
{
	putchar('\t');
	for (; s && *s; s++)
		if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '\t')
			fputs("\\t", stdout);
		else
			putchar(*s);
}

static void table_format(void *ud, const char *kind, const flame_format_info *f, const char *exts)
{
	(void)ud;
	fputs("format", stdout);
	put_field(kind);
	put_field(f->name);
	put_field(exts);
	put_field(f->description);
	putchar('\n');
}

static void print_table(const cli_opt *opts, const cli_format *formats, const char *usage,
                        const char *about)
{
	const char *heads[][2] = {{"prog", prog}, {"version", FLAME_VERSION}, {"usage", usage},
	                          {"about", about}, {"output", output_text}, {"exit", exit_text}};
	for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
		fputs(heads[i][0], stdout);
		put_field(heads[i][1]);
		putchar('\n');
	}
	for (const cli_opt *o = opts; o->name; o++) {
		if (!o->name[0]) { /* a heading over the rows after it */
			fputs("heading", stdout);
			put_field(o->help);
			putchar('\n');
			continue;
		}
		char s[2] = {(char)o->short_name, 0};
		fputs("opt", stdout);
		put_field(s);
		put_field(o->name);
		put_field(o->has_arg ? o->arg_name : "");
		char help[1024];
		put_field(opt_help(o, formats, help, sizeof help));
		putchar('\n');
		const cli_format *fm = format_of(formats, o->id);
		if (fm) { /* its values, for the completions */
			format_list(fm, 1, help, sizeof help);
			fputs("values", stdout);
			put_field(o->name);
			put_field(help);
			putchar('\n');
		}
	}
	each_format(formats, table_format, NULL);
	printf("opt\th\thelp\t\tshow this help and exit\n"
	       "opt\t\tversion\t\tshow the versions of the tool and the library and what is built "
	       "in, and exit\n");
}

/* print "  TEXT" folded at about 80 columns */
static void print_wrapped(const char *text)
{
	int col = 0;
	for (const char *w = text; *w;) {
		size_t n = strcspn(w, " ");
		if (col && col + 1 + (int)n > 78) {
			putchar('\n');
			col = 0;
		}
		printf("%s%.*s", col ? " " : "  ", (int)n, w);
		col += (col ? 1 : 2) + (int)n;
		w += n;
		w += strspn(w, " ");
	}
	putchar('\n');
}

/* "Input formats:" / "Output formats:" headed lists; `ud` points to the kind printed last */
static void help_format(void *ud, const char *kind, const flame_format_info *f, const char *exts)
{
	const char **last = ud;
	if (strcmp(kind, *last))
		printf("\n%s formats (%s):\n", !strcmp(kind, "input") ? "Input" : "Output",
		       !strcmp(kind, "input") ? "told from the content unless --input-format names one"
		                              : "named by --format or by the extension of -o's FILE");
	*last = kind;
	printf("  %-8s %s [%s]\n", f->name, f->description, exts);
}

static void print_help(const cli_opt *opts, const cli_format *formats, const char *usage,
                       const char *about)
{
	printf("Usage: %s %s\n\n%s\n\nOptions:\n", prog, usage, about);
	for (const cli_opt *o = opts; o->name; o++) {
		if (!o->name[0]) {
			printf("\n%s\n", o->help);
			continue;
		}
		char left[64];
		if (o->short_name)
			snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name,
			         o->has_arg ? " " : "", o->has_arg ? o->arg_name : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s", o->name, o->has_arg ? " " : "",
			         o->has_arg ? o->arg_name : "");
		char help[1024];
		printf("  %-28s %s\n", left, opt_help(o, formats, help, sizeof help));
	}
	printf("  %-28s %s\n  %-28s %s\n", "-h, --help", "show this help and exit", "    --version",
	       "show the version and exit");
	const char *last = "";
	each_format(formats, help_format, &last);
	printf("\nOutput:\n");
	print_wrapped(output_text);
	printf("\nExit status:\n");
	print_wrapped(exit_text);
}

/* The options of the Perl tools ours replace: flamegraph.pl's (in every tool that draws)
 * and stackcollapse-perf.pl's. Perl's Getopt::Long takes any unique abbreviation of them
 * (--ti for --title); a tool here may have more options sharing it (--time, --tid), so an
 * abbreviation several options share means the one option of the Perl tool it abbreviates,
 * as it did there (perl_abbrev). */
static const char *const flamegraph_names[] = {
	"fonttype", "width", "height", "encoding", "fontsize", "fontwidth", "minwidth", "title",
	"subtitle", "nametype", "countname", "nameattr", "total", "factor", "colors", "bgcolors",
	"hash", "random", "cp", "reverse", "inverted", "flamechart", "negate", "notes", NULL};
static const char *const stackcollapse_names[] = {
	"inline", "context", "srcline", "pid", "kernel", "jit", "all", "tid", "addrs",
	"event-filter", NULL};

static int named(const char *const *names, const char *name)
{
	for (; *names; names++)
		if (!strcmp(*names, name))
			return 1;
	return 0;
}

static const cli_opt *find_opt(const cli_opt *opts, const char *name)
{
	for (; opts->name; opts++)
		if (!strcmp(opts->name, name))
			return opts;
	return NULL;
}

/* `word` ("--ti" or "--ti=X") when getopt_long found it ambiguous: the one option of `opts`
 * it abbreviates among the options of the Perl tool this tool replaces (flamegraph.pl when
 * it has all of flamegraph.pl's, else stackcollapse-perf.pl), or NULL. */
static const cli_opt *perl_abbrev(const cli_opt *opts, const char *word)
{
	if (strncmp(word, "--", 2))
		return NULL;
	const char *const *perl = flamegraph_names;
	for (const char *const *p = flamegraph_names; *p; p++)
		if (!find_opt(opts, *p))
			perl = stackcollapse_names;
	size_t n = strcspn(word + 2, "=");
	const cli_opt *found = NULL;
	for (const cli_opt *o = opts; o->name; o++) {
		if (!o->name[0] || strncmp(o->name, word + 2, n) || !named(perl, o->name))
			continue;
		if (found)
			return NULL; /* ambiguous in Perl too */
		found = o;
	}
	return found;
}

/* getopt_long's option `c` (or an abbreviation perl_abbrev resolves) handed to `fn`: 0,
 * or an exit code after a message. */
static int one_option(int c, int argc, char **argv, const cli_opt *opts, cli_opt_fn fn,
                      void *ud)
{
	const char *word = argv[optind - 1];
	const cli_opt *o = c == '?' && !optopt && word ? perl_abbrev(opts, word) : NULL;
	if (o) {
		const char *eq = strchr(word, '='), *val = NULL;
		if (o->has_arg)
			val = eq ? eq + 1 : optind < argc ? argv[optind++] : NULL;
		if (o->has_arg ? val != NULL : eq == NULL)
			return fn(ud, o->id, val);
	}
	if (c == '?' || c == ':') {
		if (optopt && optopt < 256)
			fprintf(stderr, "%s: invalid option or missing argument: -%c\n", prog, optopt);
		else
			fprintf(stderr, "%s: invalid option or missing argument: %s\n", prog,
			        word ? word : "?");
		fprintf(stderr, "Try '%s --help' for more information.\n", prog);
		return 2;
	}
	int id = c;
	for (o = opts; o->name; o++)
		if (o->short_name && o->short_name == c)
			id = o->id;
	return fn(ud, id, optarg);
}

/* getopt_long's tables from `opts` (headings left out), with --help and --version; NULL
 * on out of memory. */
static struct option *long_options(const cli_opt *opts, char **shorts)
{
	size_t n = 0;
	while (opts[n].name)
		n++;
	struct option *lo = calloc(n + 3, sizeof *lo);
	char *so = calloc(2 * n + 4, 1);
	if (!lo || !so) {
		free(lo);
		free(so);
		return NULL;
	}
	size_t k = 0, m = 0;
	for (size_t i = 0; i < n; i++) {
		if (!opts[i].name[0])
			continue; /* a heading */
		lo[m++] = (struct option){opts[i].name,
		                          opts[i].has_arg ? required_argument : no_argument, NULL,
		                          opts[i].id};
		if (opts[i].short_name) {
			so[k++] = (char)opts[i].short_name;
			if (opts[i].has_arg)
				so[k++] = ':';
		}
	}
	lo[m] = (struct option){"help", no_argument, NULL, CLI_ID_HELP};
	lo[m + 1] = (struct option){"version", no_argument, NULL, CLI_ID_VERSION};
	so[k++] = 'h';
	*shorts = so;
	return lo;
}

int cli_parse(int argc, char **argv, const cli_opt *opts, const cli_format *formats,
              cli_opt_fn fn, void *ud, const char *usage, const char *about,
              int *first_operand)
{
	const char *slash = strrchr(argv[0], '/');
	prog = slash ? slash + 1 : argv[0];
	if (argc == 2 && strcmp(argv[1], "--help-table") == 0) {
		print_table(opts, formats, usage, about);
		exit(0);
	}
	char *so = NULL;
	struct option *lo = long_options(opts, &so);
	if (!lo) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	int rc = 0, c;
	opterr = 0;
	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h' || c == CLI_ID_HELP) {
			print_help(opts, formats, usage, about);
			exit(0);
		}
		if (c == CLI_ID_VERSION) {
			print_version();
			exit(0);
		}
		rc = one_option(c, argc, argv, opts, fn, ud);
	}
	*first_operand = optind;
	free(lo);
	free(so);
	return rc;
}

int cli_report(const flame_err *e)
{
	/* stdout's reader went away (`| head`) while SIGPIPE was ignored: end as SIGPIPE would
	 * have ended the run, quietly and with its status, rather than as a failure */
	char epipe[128];
	snprintf(epipe, sizeof epipe, "write error: %s", strerror(EPIPE)); /* as output.c says it */
	if (e->code == FLAME_EIO && !strcmp(e->source, "<stdout>") && !strcmp(e->msg, epipe))
		return 128 + SIGPIPE;
	char buf[1024];
	flame_err_format(e, buf, sizeof buf);
	/* the inflate limits ("... (the limit)") say how to raise them: every tool has the option */
	const char *hint = e->code == FLAME_ERANGE && strstr(e->msg, "(the limit)")
	                       ? "; raise it with --max-inflate SIZE"
	                       : "";
	fprintf(stderr, "%s: %s%s\n", prog, buf, hint);
	return e->code == FLAME_EUSAGE ? 2 : 1;
}

int cli_max_inflate(const char *arg, uint64_t *out)
{
	char *end;
	errno = 0;
	double v = arg[0] >= '0' && arg[0] <= '9' ? strtod(arg, &end) : -1;
	static const char units[] = "KMGT";
	const char *u = v >= 0 && *end ? strchr(units, *end & ~0x20) : NULL;
	int shift = u ? 10 * (int)(u - units + 1) : 0;
	if (u)
		end += 1 + (!strcasecmp(end + 1, "iB") ? 2 : !strcasecmp(end + 1, "B"));
	double bytes = v * (double)((uint64_t)1 << shift);
	if (v < 0 || errno || *end || !(bytes >= 1) || bytes >= 18446744073709551615.0)
		return cli_usage_error("--max-inflate wants a size in bytes, with K, M, G or T for "
		                       "powers of 1024 (e.g. 8G), got '%s'", arg);
	*out = (uint64_t)bytes;
	return 0;
}

int cli_output_path(const char *path, unsigned accept, const char *option,
                    flame_output_format *out)
{
	flame_err err;
	if (flame_output_format_from_path(path, accept, out, &err) == 0)
		return 0;
	return cli_usage_error("-o %s: %s (or say %s)", path, err.msg, option);
}

int cli_output_format(const char *option, const char *arg, unsigned accept,
                      flame_output_format *out)
{
	flame_err err;
	flame_format in;
	if (flame_output_format_find(arg, accept, out, &err) == 0)
		return 0;
	flame_output_format any;
	if (flame_output_format_find(arg, 0, &any, NULL) != 0 &&
	    flame_input_format_find(arg, &in, NULL) == 0) /* a likely slip: say where it goes */
		return cli_usage_error("%s: %s; %s is an input format: --input-format %s", option,
		                       err.msg, arg, arg);
	return cli_usage_error("%s: %s", option, err.msg);
}

unsigned cli_output_flags(flame_output_format f)
{
	for (size_t i = 0; i < flame_output_format_count(); i++)
		if (flame_output_format_info(i)->id == (int)f)
			return flame_output_format_info(i)->flags;
	return 0;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return 2;
}

int cli_input_format(const char *arg, flame_format *out)
{
	flame_err err;
	if (flame_input_format_find(arg, out, &err))
		return cli_usage_error("--input-format: %s", err.msg);
	return 0;
}

/* ---- the input options: one table, one meaning each, in every tool that reads profiles */

const cli_opt cli_input_opts[] = {
	{"", 0, 0, 0, NULL, "Reading the inputs (the same options in every tool that reads profiles):"},
	{"input-format", 0, CLI_ARG, CLI_IN_FORMAT, "FMT", "read the inputs as FMT: {}"},
	{"quiet", 'q', CLI_NOARG, CLI_IN_QUIET, NULL, "do not print warnings"},
	{"ignore-units", 0, CLI_NOARG, CLI_IN_IGNORE_UNITS, NULL,
	 "add or compare inputs whose units differ (CPU nanoseconds, heap bytes, sample counts...) "
	 "instead of refusing them"},
	{"progress", 0, CLI_NOARG, CLI_IN_PROGRESS, NULL,
	 "show a progress line on stderr (default: when it is a terminal)"},
	{"no-progress", 0, CLI_NOARG, CLI_IN_NO_PROGRESS, NULL, "never show the progress line"},
	{"max-inflate", 0, CLI_ARG, CLI_IN_MAX_INFLATE, "SIZE",
	 "stop with an error when a gzip input inflates past SIZE bytes (K, M, G, T: powers of "
	 "1024; default 4G, and 1G for a pprof profile, which is read whole)"},
	{"include", 0, CLI_ARG, CLI_IN_INCLUDE, "REGEX",
	 "keep only stacks with a frame matching REGEX (PCRE2; of the profile as read: after a "
	 "diff's or merge's normalization)"},
	{"exclude", 0, CLI_ARG, CLI_IN_EXCLUDE, "REGEX", "drop stacks with a frame matching REGEX"},
	{"skip-after", 0, CLI_ARG, CLI_IN_SKIP_AFTER, "SYMBOL",
	 "drop the frames below SYMBOL (towards the root); repeatable"},
	{"focus", 0, CLI_ARG, CLI_IN_FOCUS, "REGEX",
	 "keep only stacks through a frame matching REGEX, each starting at the first such "
	 "frame (the HTML page's focus; the call-tree transforms apply in the order given)"},
	{"drop", 0, CLI_ARG, CLI_IN_DROP, "REGEX", "drop the stacks through a frame matching REGEX"},
	{"merge", 0, CLI_ARG, CLI_IN_MERGE, "REGEX",
	 "remove the frames matching REGEX, their time kept by their callers (only your code: a "
	 "REGEX matching the frames that are not yours)"},
	{"collapse-recursion", 0, CLI_NOARG, CLI_IN_COLLAPSE_RECURSION, NULL,
	 "a function called again on a stack (directly or not) takes the stack back to its "
	 "first call, so each function is on a stack once"},
	{"pid", 0, CLI_NOARG, CLI_IN_PID, NULL,
	 "perf, offcpu: append the PID to the process name (comm-PID)"},
	{"tid", 0, CLI_NOARG, CLI_IN_TID, NULL,
	 "perf, offcpu: append PID and TID to the process name (comm-PID/TID)"},
	{"kernel", 0, CLI_NOARG, CLI_IN_KERNEL, NULL, "perf: annotate kernel frames with _[k]"},
	{"jit", 0, CLI_NOARG, CLI_IN_JIT, NULL,
	 "perf: annotate JIT frames (/tmp/perf-N.map, jitdump's jitted-N-M.so) with _[j]"},
	{"all", 0, CLI_NOARG, CLI_IN_ALL, NULL, "perf: all annotations (--kernel --jit)"},
	{"addrs", 0, CLI_NOARG, CLI_IN_ADDRS, NULL, "perf: show raw addresses for unknown symbols"},
	{"event-filter", 0, CLI_ARG, CLI_IN_EVENT_FILTER, "EVENT",
	 "perf: keep only samples of EVENT (default: the first sampling event, else the first seen)"},
	{"raw-names", 0, CLI_NOARG, CLI_IN_RAW_NAMES, NULL,
	 "perf: names as stackcollapse-perf.pl leaves them (Rust's $LT$... and ::h<hash> kept)"},
	{"no-inline", 0, CLI_NOARG, CLI_IN_NO_INLINE, NULL,
	 "perf: no inline frames on perf.data's --call-graph dwarf stacks (perf script --no-inline)"},
	{"keep-templates", 0, CLI_NOARG, CLI_IN_KEEP_TEMPLATES, NULL,
	 "perf: cut arguments at the first '(' outside <>, {}, [] (keeps C++ templates whole)"},
	{"time", 0, CLI_ARG, CLI_IN_TIME, "START,END",
	 "keep the samples from START to END seconds after each input's first sample (perf, "
	 "perf.data, jfr, pprof; either end may be left out), or between two dates "
	 "(2026-11-28T14:30:00Z: the wall clock of pprof and .jfr files), or perf:START,END "
	 "on perf's clock (seconds since boot, as perf script prints them)"},
	{"srcline", 0, CLI_NOARG, CLI_IN_SRCLINE, NULL,
	 "perf: accepted for compatibility: srcline lines are always recognized"},
	{"event", 0, CLI_ARG, CLI_IN_JFR_EVENT, "NAME",
	 "jfr: the event type (default jdk.ExecutionSample, else the first with stacks)"},
	{"signatures", 0, CLI_NOARG, CLI_IN_SIGNATURES, NULL, "jfr: keep parameter lists in frames"},
	{"threads", 0, CLI_NOARG, CLI_IN_THREADS, NULL, "jfr: the thread name as the root frame"},
	{"lines", 0, CLI_NOARG, CLI_IN_LINES, NULL,
	 "jfr: append :LINE to frames; pprof: append ' file:line'"},
	{"annotate", 0, CLI_NOARG, CLI_IN_ANNOTATE, NULL, "jfr: append _[j] to Java frames"},
	{"sample-type", 0, CLI_ARG, CLI_IN_SAMPLE_TYPE, "TYPE",
	 "pprof: the value to count (cpu, alloc_space...; default as go tool pprof)"},
	{"list-sample-types", 0, CLI_NOARG, CLI_IN_LIST_TYPES, NULL,
	 "pprof: print the sample types of each input (type/unit) and exit"},
	{"tag", 0, CLI_ARG, CLI_IN_TAG, "KEY=REGEX",
	 "pprof: keep samples with a label matching (KEY=MIN:MAX for numbers); repeatable"},
	{"tag-ignore", 0, CLI_ARG, CLI_IN_TAG_IGNORE, "KEY=REGEX",
	 "pprof: drop samples with a label matching; repeatable"},
	{"group-by", 0, CLI_ARG, CLI_IN_GROUP_BY, "KEY",
	 "pprof: the value of label KEY as the root frame"},
	{"inline-annotate", 0, CLI_NOARG, CLI_IN_INLINE_ANNOTATE, NULL,
	 "pprof: append _[i] to inlined frames"},
	{"addresses", 0, CLI_NOARG, CLI_IN_ADDRESSES, NULL,
	 "pprof: mapping+0xADDR for code with no function name"},
	{"system-names", 0, CLI_NOARG, CLI_IN_SYSTEM_NAMES, NULL,
	 "pprof: system (mangled) function names"},
	{NULL, 0, 0, 0, NULL, NULL},
};

/* One end of --time: seconds, or a date (YYYY-MM-DDTHH:MM:SS[.frac] in UTC, or with Z or
 * +HH:MM) as seconds since the epoch; an empty end is open. 0, or -1 when unreadable;
 * *date says which it was. */
static int time_end(const char *p, size_t n, double open, double *out, int *date)
{
	char b[64];
	if (n >= sizeof b)
		return -1;
	memcpy(b, p, n);
	b[n] = '\0';
	*date = 0;
	if (!n) {
		*out = open;
		return 0;
	}
	struct tm tm = {0};
	char *rest = strptime(b, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!rest)
		rest = strptime(b, "%Y-%m-%d %H:%M:%S", &tm);
	if (!rest)
		return cli_parse_double(b, out) || *out < 0 ? -1 : 0;
	*date = 1;
	double frac = 0;
	if (*rest == '.') {
		char *e;
		frac = strtod(rest, &e);
		rest = e;
	}
	long off = 0;
	if ((rest[0] == '+' || rest[0] == '-') && strlen(rest) == 6 && rest[3] == ':')
		off = (rest[0] == '-' ? -1 : 1) * (atol(rest + 1) * 3600 + atol(rest + 4) * 60);
	else if (strcmp(rest, "Z") && *rest)
		return -1;
	*out = (double)timegm(&tm) + frac - (double)off;
	return 0;
}

int cli_time_range(const char *opt, const char *arg, flame_parse_opts *p)
{
	const char *a = arg, *comma;
	unsigned range = FLAME_TIME_RANGE_RELATIVE;
	if (!strncmp(a, "perf:", 5)) {
		range = FLAME_TIME_RANGE_PERF;
		a += 5;
	}
	comma = strchr(a, ',');
	double s, e;
	int ds, de;
	if (!comma || time_end(a, (size_t)(comma - a), 0, &s, &ds) ||
	    time_end(comma + 1, strlen(comma + 1), 1e18, &e, &de))
		return cli_usage_error("%s wants START,END: seconds from the first sample (0.5,1.5; "
		                       "an end left out is open), dates (2026-11-28T14:30:00Z,...) or "
		                       "perf:START,END on perf's clock; got '%s'", opt, arg);
	if ((ds || de) && range == FLAME_TIME_RANGE_PERF)
		return cli_usage_error("%s perf: wants seconds since boot, not dates; got '%s'", opt, arg);
	if ((ds || de) && !((ds || comma == a) && (de || !comma[1])))
		return cli_usage_error("%s wants both ends as dates or both as seconds; got '%s'", opt, arg);
	if (e < s)
		return cli_usage_error("%s wants START <= END, got '%s'", opt, arg);
	p->has_time_range = 1;
	p->time_range = ds || de ? FLAME_TIME_RANGE_WALL : range;
	p->time_start = s;
	p->time_end = e;
	return 0;
}

static int64_t clamp_ns(double x)
{
	return x < -9e18 ? INT64_MIN : x > 9e18 ? INT64_MAX : (int64_t)x;
}

int cli_time_rel(const flame_parse_opts *p, flame_clock clock, int64_t first_ns, int64_t *s,
                 int64_t *e)
{
	double base = 0;
	if (p->time_range == FLAME_TIME_RANGE_WALL || p->time_range == FLAME_TIME_RANGE_PERF) {
		if (clock != (p->time_range == FLAME_TIME_RANGE_WALL ? FLAME_CLOCK_WALL : FLAME_CLOCK_PERF))
			return 0;
		base = (double)first_ns / 1e9;
	}
	*s = clamp_ns((p->time_start - base) * 1e9);
	*e = clamp_ns((p->time_end - base) * 1e9);
	if (p->time_range == FLAME_TIME_RANGE_PERF && *e < INT64_MAX)
		(*e)++; /* perf's END is in the range */
	return 1;
}

/* The options that set a flag of one format (or two: --pid, --tid, --lines). */
static int input_flag(cli_input *in, int id)
{
	flame_parse_opts *o = &in->po;
	switch (id) {
	case CLI_IN_PID: o->perf_flags |= FLAME_PERF_PID; o->offcpu_flags |= FLAME_OFFCPU_PID; break;
	case CLI_IN_TID: o->perf_flags |= FLAME_PERF_TID; o->offcpu_flags |= FLAME_OFFCPU_TID; break;
	case CLI_IN_KERNEL: o->perf_flags |= FLAME_PERF_KERNEL; break;
	case CLI_IN_JIT: o->perf_flags |= FLAME_PERF_JIT; break;
	case CLI_IN_ALL: o->perf_flags |= FLAME_PERF_KERNEL | FLAME_PERF_JIT; break;
	case CLI_IN_ADDRS: o->perf_flags |= FLAME_PERF_ADDRS; break;
	case CLI_IN_RAW_NAMES: o->perf_flags |= FLAME_PERF_RAW_NAMES; break;
	case CLI_IN_NO_INLINE: o->perf_flags |= FLAME_PERF_NO_INLINE; break;
	case CLI_IN_KEEP_TEMPLATES: o->perf_flags |= FLAME_PERF_KEEP_TEMPLATES; break;
	case CLI_IN_SRCLINE: break;
	case CLI_IN_SIGNATURES: o->jfr_flags |= FLAME_JFR_SIGNATURES; break;
	case CLI_IN_THREADS: o->jfr_flags |= FLAME_JFR_THREADS; break;
	case CLI_IN_LINES: o->jfr_flags |= FLAME_JFR_LINES; o->pprof_flags |= FLAME_PPROF_LINES; break;
	case CLI_IN_ANNOTATE: o->jfr_flags |= FLAME_JFR_ANNOTATE; break;
	case CLI_IN_INLINE_ANNOTATE: o->pprof_flags |= FLAME_PPROF_INLINE_ANNOTATE; break;
	case CLI_IN_ADDRESSES: o->pprof_flags |= FLAME_PPROF_ADDRESSES; break;
	case CLI_IN_SYSTEM_NAMES: o->pprof_flags |= FLAME_PPROF_SYSTEM_NAMES; break;
	default: return cli_usage_error("internal: unknown input option %d", id);
	}
	return 0;
}

/* A call-tree transform, kept in order as its letter then its argument */
static int push_step(cli_input *in, int id, const char *arg)
{
	static const char *const letter[] = {"f", "d", "m", "r"};
	size_t len = 2 * in->n_steps;
	if (cli_push_arg(&in->steps, &len, letter[id - CLI_IN_FOCUS]) ||
	    cli_push_arg(&in->steps, &len, arg ? arg : ""))
		return 2;
	in->n_steps++;
	return 0;
}

/* Step `k` of the call-tree transforms on `t` */
static int apply_step(const cli_input *in, size_t k, flame_tree *t, flame_err *err)
{
	const char *arg = in->steps[2 * k + 1];
	switch (in->steps[2 * k][0]) {
	case 'f': return flame_focus(t, arg, err);
	case 'd': return flame_drop(t, arg, err);
	case 'm': return flame_merge_frames(t, arg, err);
	default: return flame_collapse_recursion(t, err);
	}
}

int cli_input_opt(cli_input *in, int id, const char *arg)
{
	switch (id) {
	case CLI_IN_FORMAT: in->format_given = 1; return cli_input_format(arg, &in->po.format);
	case CLI_IN_QUIET: in->quiet = 1; break;
	case CLI_IN_IGNORE_UNITS: in->ignore_units = 1; break;
	case CLI_IN_PROGRESS: in->progress.mode = CLI_PROGRESS_ON; break;
	case CLI_IN_NO_PROGRESS: in->progress.mode = CLI_PROGRESS_OFF; break;
	case CLI_IN_MAX_INFLATE: return cli_max_inflate(arg, &in->max_inflate);
	case CLI_IN_INCLUDE: in->include = arg; break;
	case CLI_IN_EXCLUDE: in->exclude = arg; break;
	case CLI_IN_SKIP_AFTER: return cli_push_arg(&in->skip_after, &in->n_skip, arg);
	case CLI_IN_FOCUS: case CLI_IN_DROP: case CLI_IN_MERGE: case CLI_IN_COLLAPSE_RECURSION:
		return push_step(in, id, arg);
	case CLI_IN_EVENT_FILTER: in->po.perf_event_filter = arg; break;
	case CLI_IN_TIME: return cli_time_range("--time", arg, &in->po);
	case CLI_IN_JFR_EVENT: in->po.jfr_event = arg; break;
	case CLI_IN_SAMPLE_TYPE: in->po.pprof_sample_type = arg; break;
	case CLI_IN_LIST_TYPES: in->list_types = 1; break;
	case CLI_IN_TAG: return cli_push_arg(&in->tags, &in->po.n_tags, arg);
	case CLI_IN_TAG_IGNORE:
		return cli_push_arg(&in->tags_ignore, &in->po.n_tags_ignore, arg);
	case CLI_IN_GROUP_BY: in->po.group_by = arg; break;
	default: return input_flag(in, id);
	}
	return 0;
}

int cli_input_ready(cli_input *in)
{
	flame_err err = {0};
	in->po.tags = in->tags;
	in->po.tags_ignore = in->tags_ignore;
	if (flame_filter_check(in->include, in->exclude, &err) ||
	    flame_parse_opts_check(&in->po, &err))
		return cli_report(&err);
	/* the regexes of the call-tree transforms, compiled on an empty tree */
	flame_tree *empty = NULL;
	int rc = in->n_steps ? flame_tree_new(&empty, &err) : 0;
	for (size_t k = 0; k < in->n_steps && !rc; k++)
		rc = apply_step(in, k, empty, &err);
	flame_tree_free(empty);
	return rc ? cli_report(&err) : 0;
}

flame_parse_opts cli_input_parse_opts(const cli_input *in, cli_warnings *w)
{
	flame_parse_opts po = in->po;
	po.tags = in->tags;
	po.tags_ignore = in->tags_ignore;
	po.warn = cli_warn;
	po.warn_ud = w;
	w->quiet = in->quiet;
	return po;
}

int cli_input_transforms(const cli_input *in)
{
	return in->include || in->exclude || in->n_skip || in->n_steps;
}

int cli_input_transform(const cli_input *in, flame_tree *t, flame_err *err)
{
	int rc = in->n_skip ? flame_skip_after(t, in->skip_after, in->n_skip, err) : 0;
	if (!rc)
		rc = flame_filter_stacks(t, in->include, in->exclude, err);
	for (size_t k = 0; k < in->n_steps && !rc; k++)
		rc = apply_step(in, k, t, err);
	return rc;
}

static int print_type(void *ud, const char *type, const char *unit, int is_default)
{
	const char *file = ud;
	printf("%s%s%s/%s%s\n", file ? file : "", file ? ": " : "", type, unit,
	       is_default ? " (default)" : "");
	return 0;
}

int cli_input_list_types(const cli_input *in, const char *const *paths, int n)
{
	flame_err err = {0};
	int rc = 0;
	for (int i = 0; i < (n ? n : 1) && !rc; i++) {
		flame_input *f = NULL;
		const char *path = n ? paths[i] : "-";
		rc = flame_input_open(&f, path, &err);
		if (!rc)
			flame_input_set_limit(f, in->max_inflate);
		if (!rc)
			rc = flame_pprof_sample_types(f, print_type, n > 1 ? (void *)path : NULL, &err);
		flame_input_free(f);
	}
	return rc ? cli_report(&err) : 0;
}

void cli_input_free(cli_input *in)
{
	free(in->skip_after);
	free(in->tags);
	free(in->tags_ignore);
	free(in->steps);
	in->skip_after = in->tags = in->tags_ignore = in->steps = NULL;
}

void cli_input_emptied(const cli_input *in, char *buf, size_t cap)
{
	const char *given[4];
	int n = 0;
	if (in->include)
		given[n++] = "--include";
	if (in->exclude)
		given[n++] = "--exclude";
	if (in->n_skip)
		given[n++] = "--skip-after";
	if (in->n_steps)
		given[n++] = "the call-tree transforms";
	buf[0] = '\0';
	size_t len = 0;
	for (int k = 0; k < n && len < cap; k++) {
		const char *sep = k == 0 ? " (none left after " : k == n - 1 ? " and " : ", ";
		len += (size_t)snprintf(buf + len, cap - len, "%s%s", sep, given[k]);
	}
	if (n && len < cap)
		snprintf(buf + len, cap - len, ")");
}

/* every input in turn (stdin when there is none) through `parse`, with the limit and
 * progress the options asked for: the one read loop of the tools that parse profiles */
int cli_input_read(cli_input *in, flame_tree *t, char **paths, int n, const flame_parse_opts *po,
                   cli_parse_fn parse, flame_err *err)
{
	int rc = 0;
	for (int i = 0; i < (n ? n : 1) && !rc; i++) {
		flame_input *fi = NULL;
		rc = flame_input_open(&fi, n ? paths[i] : "-", err);
		if (!rc) {
			flame_input_set_limit(fi, in->max_inflate);
			flame_input_set_progress(fi, cli_progress, &in->progress);
			rc = parse(t, fi, po, err);
		}
		flame_input_free(fi);
		cli_progress_next(&in->progress);
	}
	cli_progress_finish(&in->progress);
	return rc;
}

/* ---- empty profiles */

void cli_inputs_name(char *buf, size_t cap, const char *const *paths, int n)
{
	const char *first = n ? paths[0] : "-";
	if (!strcmp(first, "-"))
		first = "<stdin>";
	if (n <= 1)
		snprintf(buf, cap, "%s", first);
	else if (n == 2)
		snprintf(buf, cap, "%s, %s", first, strcmp(paths[1], "-") ? paths[1] : "<stdin>");
	else
		snprintf(buf, cap, "%s and %d more", first, n - 1);
}

int cli_to_stdout(const char *output)
{
	return !output || !strcmp(output, "-");
}

int cli_no_stacks(const char *what, const char *why)
{
	fprintf(stderr, "%s: %s: no stacks to draw%s\n", prog, what, why ? why : "");
	return 2; /* flamegraph.pl's exit status for no valid input */
}

/* ---- tables */

cli_opt *cli_table(const cli_opt *first, ...)
{
	va_list ap;
	size_t n = 0;
	va_start(ap, first);
	for (const cli_opt *t = first; t; t = va_arg(ap, const cli_opt *))
		for (; t->name; t++)
			n++;
	va_end(ap);
	cli_opt *all = malloc((n + 1) * sizeof *all);
	if (!all) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return NULL;
	}
	size_t k = 0;
	va_start(ap, first);
	for (const cli_opt *t = first; t; t = va_arg(ap, const cli_opt *))
		for (; t->name; t++)
			all[k++] = *t;
	va_end(ap);
	all[k] = (cli_opt){NULL, 0, 0, 0, NULL, NULL};
	return all;
}

void cli_warn(void *ud, const char *kind, const char *source, uint64_t line, const char *msg)
{
	cli_warnings *w = ud;
	int i = 0;
	while (i < w->n && strcmp(w->kinds[i].kind, kind) != 0)
		i++;
	if (i == w->n && w->n < (int)(sizeof w->kinds / sizeof w->kinds[0])) {
		snprintf(w->kinds[i].kind, sizeof w->kinds[i].kind, "%s", kind);
		w->kinds[i].count = 0;
		w->n++;
	}
	unsigned long seen = i < w->n ? w->kinds[i].count++ : 1;
	if (seen == 0 && !w->quiet) {
		char buf[1024];
		int n;
		if (source && source[0] && line)
			n = snprintf(buf, sizeof buf, "%s: warning: %s:%llu: %s\n", prog, source,
			             (unsigned long long)line, msg);
		else if (source && source[0])
			n = snprintf(buf, sizeof buf, "%s: warning: %s: %s\n", prog, source, msg);
		else
			n = snprintf(buf, sizeof buf, "%s: warning: %s\n", prog, msg);
		size_t len = n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
		char *d = w->defer ? realloc(w->deferred, w->deferred_len + len + 1) : NULL;
		if (d) {
			memcpy(d + w->deferred_len, buf, len + 1);
			w->deferred = d;
			w->deferred_len += len;
		} else {
			fputs(buf, stderr);
		}
	}
}

void cli_warnings_finish(cli_warnings *w)
{
	if (w->deferred)
		fputs(w->deferred, stderr);
	free(w->deferred);
	w->deferred = NULL;
	w->deferred_len = 0;
	for (int i = 0; i < w->n; i++)
		if (w->kinds[i].count > 1 && !w->quiet)
			fprintf(stderr, "%s: warning: %lu more like the above (%s), %lu in all\n", prog,
			        w->kinds[i].count - 1, w->kinds[i].kind, w->kinds[i].count);
}

static void on_signal(int sig)
{
	const char *t = pending_tmp;
	if (t)
		unlink(t);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A signal ignored when the tool started stays ignored (`nohup`, `trap '' INT`): the
 * caller asked for the job to survive it, and the output is then written whole. */
static void catch_signal(int sig)
{
	struct sigaction old;
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	signal(sig, on_signal);
}

int cli_output_open(flame_output **o, const char *path, flame_err *err)
{
	int rc = flame_output_open(o, path, err);
	if (rc)
		return rc;
	const char *tmp = flame_output_temp_path(*o);
	if (tmp && strlen(tmp) < sizeof pending_buf) {
		memcpy(pending_buf, tmp, strlen(tmp) + 1);
		pending_tmp = pending_buf;
		catch_signal(SIGINT);
		catch_signal(SIGTERM);
		catch_signal(SIGHUP);
	}
	return 0;
}

int cli_output_commit(flame_output *o, flame_err *err)
{
	int rc = flame_output_commit(o, err);
	pending_tmp = NULL;
	return rc;
}

void cli_output_abort(flame_output *o)
{
	pending_tmp = NULL;
	flame_output_abort(o);
}

int cli_parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int cli_text_to_output(void *ud, const char *text, size_t len)
{
	cli_text_out *t = ud;
	return flame_output_write(t->o, text, len, t->err);
}

int cli_push_arg(const char ***v, size_t *n, const char *arg)
{
	const char **p = realloc(*v, (*n + 1) * sizeof *p);
	if (!p)
		return cli_usage_error("out of memory");
	p[(*n)++] = arg;
	*v = p;
	return 0;
}

int cli_parse_double(const char *s, double *out)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "12.3 MB" */
static void human_bytes(char *buf, size_t n, double v)
{
	const char *units[] = {"B", "kB", "MB", "GB", "TB"};
	int u = 0;
	while (v >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

/* "1,234,567" */
static void grouped(char *buf, size_t n, uint64_t v)
{
	char d[32];
	int len = snprintf(d, sizeof d, "%llu", (unsigned long long)v), o = 0;
	for (int i = 0; i < len && o + 2 < (int)n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = '\0';
}

void cli_progress(void *ud, uint64_t done, uint64_t total, uint64_t stacks)
{
	cli_progress_state *p = ud;
	if (p->mode == CLI_PROGRESS_OFF)
		return;
	if (p->mode == CLI_PROGRESS_AUTO) {
		const char *term = getenv("TERM");
		p->mode = isatty(2) && !(term && strcmp(term, "dumb") == 0) ? CLI_PROGRESS_ON
		                                                              : CLI_PROGRESS_OFF;
		if (p->mode == CLI_PROGRESS_OFF)
			return;
	}
	double t = now_seconds();
	if (p->start == 0)
		p->start = t;
	p->done = done;
	p->stacks = stacks;
	/* a short job shows nothing; a long one redraws five times a second */
	if (t - p->start < 1.0 || t - p->last < 0.2)
		return;
	p->last = t;
	char got[32], all[32], rate[32], st[48] = "";
	human_bytes(got, sizeof got, (double)(p->base + done));
	human_bytes(rate, sizeof rate, (double)(p->base + done) / (t - p->start));
	if (stacks) {
		grouped(st + 2, sizeof st - 12, stacks);
		memcpy(st, ", ", 2);
		strcat(st, stacks == 1 ? " stack" : " stacks");
	}
	if (total) {
		human_bytes(all, sizeof all, (double)total);
		fprintf(stderr, "\r%s: %s of %s (%.0f%%), %s/s%s\033[K", prog, got, all,
		        100.0 * (double)done / (double)total, rate, st);
	} else {
		fprintf(stderr, "\r%s: %s read, %s/s%s\033[K", prog, got, rate, st);
	}
	fflush(stderr);
	p->shown = 1;
}

void cli_progress_next(cli_progress_state *p)
{
	p->base += p->done;
	p->done = 0;
}

void cli_progress_finish(cli_progress_state *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
