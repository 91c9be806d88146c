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
	"value).";

/* The version line of every tool: the tool (as compiled) and the library (as loaded) may
 * differ when an older libflame.so is found first; CLI_BUILT_WITH comes from meson. */
static void print_version(void)
{
	printf("%s %s\nlibflame %s\nbuilt with: %s\n", prog, FLAME_VERSION, flame_version(),
	       CLI_BUILT_WITH);
}

/* --help-table (not listed): the option table as tab-separated lines, read at build time
 * by tools/gen-docs.py to make the man pages and shell completions, so they cannot drift
 * from --help. Tabs and newlines in texts are printed as \t and \n. */
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

static void print_table(const cli_opt *opts, const char *usage, const char *about)
{
	const char *heads[][2] = {{"prog", prog}, {"version", FLAME_VERSION}, {"usage", usage},
	                          {"about", about}, {"output", output_text}, {"exit", exit_text}};
	for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
		fputs(heads[i][0], stdout);
		put_field(heads[i][1]);
		putchar('\n');
	}
	for (const cli_opt *o = opts; o->name; o++) {
		char s[2] = {(char)o->short_name, 0};
		fputs("opt", stdout);
		put_field(s);
		put_field(o->name);
		put_field(o->has_arg ? o->arg_name : "");
		put_field(o->help);
		putchar('\n');
	}
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

static void print_help(const cli_opt *opts, const char *usage, const char *about)
{
	printf("Usage: %s %s\n\n%s\n\nOptions:\n", prog, usage, about);
	for (const cli_opt *o = opts; o->name; o++) {
		char left[64];
		if (o->short_name)
			snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name,
			         o->has_arg ? " " : "", o->has_arg ? o->arg_name : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s", o->name, o->has_arg ? " " : "",
			         o->has_arg ? o->arg_name : "");
		printf("  %-28s %s\n", left, o->help);
	}
	printf("  %-28s %s\n  %-28s %s\n", "-h, --help", "show this help and exit", "    --version",
	       "show the version and exit");
	printf("\nOutput:\n");
	print_wrapped(output_text);
	printf("\nExit status:\n");
	print_wrapped(exit_text);
}

int cli_parse(int argc, char **argv, const cli_opt *opts, cli_opt_fn fn, void *ud,
              const char *usage, const char *about, int *first_operand)
{
	const char *slash = strrchr(argv[0], '/');
	prog = slash ? slash + 1 : argv[0];
	if (argc == 2 && strcmp(argv[1], "--help-table") == 0) {
		print_table(opts, usage, about);
		exit(0);
	}
	size_t n = 0;
	while (opts[n].name)
		n++;
	struct option *lo = calloc(n + 3, sizeof *lo);
	char *so = calloc(2 * n + 4, 1);
	if (!lo || !so) {
		free(lo);
		free(so);
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		lo[i] = (struct option){opts[i].name, opts[i].has_arg ? required_argument : no_argument,
		                        NULL, opts[i].id};
		if (opts[i].short_name) {
			so[k++] = (char)opts[i].short_name;
			if (opts[i].has_arg)
				so[k++] = ':';
		}
	}
	enum { ID_HELP = -1000, ID_VERSION = -1001 };
	lo[n] = (struct option){"help", no_argument, NULL, ID_HELP};
	lo[n + 1] = (struct option){"version", no_argument, NULL, ID_VERSION};
	so[k++] = 'h';
	int rc = 0, c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h' || c == ID_HELP) {
			print_help(opts, usage, about);
			exit(0);
		}
		if (c == ID_VERSION) {
			print_version();
			exit(0);
		}
		if (c == '?' || c == ':') {
			const char *bad = argv[optind - 1];
			if (optopt && optopt < 256)
				fprintf(stderr, "%s: invalid option or missing argument: -%c\n", prog, optopt);
			else
				fprintf(stderr, "%s: invalid option or missing argument: %s\n", prog,
				        bad ? bad : "?");
			fprintf(stderr, "Try '%s --help' for more information.\n", prog);
			rc = 2;
			break;
		}
		int id = c;
		for (size_t i = 0; i < n; i++)
			if (opts[i].short_name == c)
				id = opts[i].id;
		rc = fn(ud, id, optarg);
		if (rc)
			break;
	}
	*first_operand = optind;
	free(lo);
	free(so);
	return rc;
}

int cli_report(const flame_err *e)
{
	char buf[1024];
	flame_err_format(e, buf, sizeof buf);
	fprintf(stderr, "%s: %s\n", prog, buf);
	return e->code == FLAME_EUSAGE ? 2 : 1;
}

int cli_report_input(const flame_err *e, const char *option)
{
	/* only the generic message names --format; a file of a kind no reader takes says
	 * what it is and what to do instead */
	if (e->code != FLAME_EFORMAT || !strstr(e->msg, "use --format"))
		return cli_report(e);
	fprintf(stderr, "%s: %s: cannot tell the input format; use %s\n", prog, e->source, option);
	return 1;
}

int cli_output_ext(const char *path, const char *const *known, const char *option)
{
	if (!path || !strcmp(path, "-"))
		return 0;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	if (!dot || dot == base)
		return 0; /* no extension (or a dot file): the default format, as ever */
	size_t n = strlen(path);
	char list[256] = "";
	for (size_t k = 0; known[k]; k++) {
		size_t kn = strlen(known[k]);
		if (n >= kn && !strcasecmp(path + n - kn, known[k]))
			return 0;
		if (strlen(list) + kn + 2 < sizeof list) {
			strcat(list, k ? " " : "");
			strcat(list, known[k]);
		}
	}
	return cli_usage_error("-o %s: unknown extension '%s'; known: %s (or say %s)", path, dot,
	                       list, option);
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
	int f = flame_format_from_name(arg);
	if (f < 0)
		return cli_usage_error("--input-format wants auto, perf, folded, pprof, offcpu, jfr or "
		                       "svg, got '%s'", arg);
	*out = (flame_format)f;
	return 0;
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

void cli_progress(void *ud, uint64_t done, uint64_t total)
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
	/* a short job shows nothing; a long one redraws five times a second */
	if (t - p->start < 1.0 || t - p->last < 0.2)
		return;
	p->last = t;
	char got[32], all[32], rate[32];
	human_bytes(got, sizeof got, (double)(p->base + done));
	human_bytes(rate, sizeof rate, (double)(p->base + done) / (t - p->start));
	if (total) {
		human_bytes(all, sizeof all, (double)total);
		fprintf(stderr, "\r%s: %s of %s (%.0f%%), %s/s\033[K", prog, got, all,
		        100.0 * (double)done / (double)total, rate);
	} else {
		fprintf(stderr, "\r%s: %s read, %s/s\033[K", prog, got, rate);
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
