/* The parser registry: the table of input formats (one descriptor each: name, extensions,
 * description, probe and parser), auto-detection from content (after gzip is undone), what
 * to say of inputs no reader takes (perf.data without -Dperfdata, UTF-16...),
 * and dispatch. A new format adds its entry to `inputs` and its place in `probe_order`. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include "../core/formats.h"
#include "../core/version.h"
#include "parser.h"

#ifdef FLAME_HAVE_PERFDATA
#define PERFDATA_PARSER (&flame__parser_perfdata)
#else
#define PERFDATA_PARSER NULL /* named in messages, read by no parser */
#endif

static const char *const ext_folded[] = {".folded", ".collapsed", NULL};
static const char *const ext_perf[] = {".perf", ".perf.txt", NULL};
static const char *const ext_pprof[] = {".pb.gz", ".pb", ".pprof", NULL};
static const char *const ext_offcpu[] = {".stacks", ".offcpu.txt", NULL};
static const char *const ext_jfr[] = {".jfr.txt", NULL};
static const char *const ext_svg[] = {".svg", NULL};
static const char *const ext_bpftrace[] = {".bt", ".bpftrace", ".bpftrace.txt", NULL};
static const char *const ext_dtrace[] = {".dtrace", ".dtrace.txt", NULL};
static const char *const ext_perfdata[] = {".data", NULL}; /* perf record's perf.data */
static const char *const ext_html[] = {".html", ".htm", NULL};
static const char *const ext_jfr_binary[] = {".jfr", NULL};
static const char *const ext_cpuprofile[] = {".cpuprofile", NULL};
static const char *const ext_speedscope[] = {".speedscope.json", NULL};
static const char *const ext_chrometrace[] = {".trace.json", NULL};
static const char *const ext_firefox[] = {".profile.json.gz", ".profile.json", NULL}; /* samply's names */

/* The input formats, indexed by flame_format (FLAME_FORMAT_AUTO, 0, is no format). */
static const struct flame__format inputs[] = {
	[FLAME_FORMAT_FOLDED] = {{"folded", ext_folded,
	                          "folded stacks: 'root;...;leaf count' lines, or 'stack before after'",
	                          FLAME_FORMAT_FOLDED, 0},
	                         &flame__parser_folded, NULL},
	[FLAME_FORMAT_PERF] = {{"perf", ext_perf, "perf script text (stackcollapse-perf.pl's input)",
	                        FLAME_FORMAT_PERF, 0},
	                       &flame__parser_perf, NULL},
	[FLAME_FORMAT_PPROF] = {{"pprof", ext_pprof,
	                         "pprof profile.proto, gzipped or not (Go, async-profiler, Pyroscope)",
	                         FLAME_FORMAT_PPROF, 0},
	                        &flame__parser_pprof, NULL},
	[FLAME_FORMAT_OFFCPU] = {{"offcpu", ext_offcpu, "BCC or libbpf-tools offcputime output, any mode",
	                          FLAME_FORMAT_OFFCPU, 0},
	                         &flame__parser_offcpu, NULL},
	[FLAME_FORMAT_JFR] = {{"jfr", ext_jfr, "JDK Flight Recorder events as jfr print text",
	                       FLAME_FORMAT_JFR, 0},
	                      &flame__parser_jfr, NULL},
	[FLAME_FORMAT_SVG] = {{"svg", ext_svg,
	                       "a flame graph SVG (flamegraph.pl, inferno, flame-render) read back",
	                       FLAME_FORMAT_SVG, 0},
	                      &flame__parser_svg, NULL},
	[FLAME_FORMAT_PERFDATA] = {{"perfdata", ext_perfdata,
	                            "perf record's perf.data (file or pipe), symbolized as perf script does",
	                            FLAME_FORMAT_PERFDATA, 0},
	                           PERFDATA_PARSER, NULL},
	[FLAME_FORMAT_HTML] = {{"html", ext_html, "flame-render's HTML page read back (every frame, exact)",
	                        FLAME_FORMAT_HTML, 0},
	                       &flame__parser_html, NULL},
	[FLAME_FORMAT_BPFTRACE] = {{"bpftrace", ext_bpftrace,
	                            "bpftrace maps keyed by stacks (stackcollapse-bpftrace.pl's input)",
	                            FLAME_FORMAT_BPFTRACE, 0},
	                           &flame__parser_bpftrace, NULL},
	[FLAME_FORMAT_DTRACE] = {{"dtrace", ext_dtrace,
	                          "DTrace stack aggregations (stackcollapse.pl's input)",
	                          FLAME_FORMAT_DTRACE, 0},
	                         &flame__parser_dtrace, NULL},
	[FLAME_FORMAT_JFR_BINARY] = {{"jfr-binary", ext_jfr_binary,
	                              "JDK Flight Recorder recording (.jfr, JDK 11+, async-profiler)",
	                              FLAME_FORMAT_JFR_BINARY, 0},
	                             &flame__parser_jfr_binary, NULL},
	[FLAME_FORMAT_CPUPROFILE] = {{"cpuprofile", ext_cpuprofile,
	                              "Chrome DevTools / V8 CPU profile JSON (node --cpu-prof)",
	                              FLAME_FORMAT_CPUPROFILE, 0},
	                             &flame__parser_cpuprofile, NULL},
	[FLAME_FORMAT_SPEEDSCOPE] = {{"speedscope", ext_speedscope,
	                              "speedscope JSON, sampled and evented profiles (py-spy, rbspy)",
	                              FLAME_FORMAT_SPEEDSCOPE, 0},
	                             &flame__parser_speedscope, NULL},
	[FLAME_FORMAT_CHROMETRACE] = {{"chrometrace", ext_chrometrace,
	                               "Chrome trace events with V8's sampled stacks (ProfileChunk)",
	                               FLAME_FORMAT_CHROMETRACE, 0},
	                              &flame__parser_chrometrace, NULL},
	[FLAME_FORMAT_FIREFOX] = {{"firefox", ext_firefox,
	                           "the Firefox Profiler's processed JSON (samply, profiler.firefox.com)",
	                           FLAME_FORMAT_FIREFOX, 0},
	                          &flame__parser_firefox, NULL},
};
enum { NINPUTS = sizeof inputs / sizeof inputs[0] };

/* Probe order matters: binary formats by their magic first, then the specific text formats,
 * folded (the loosest) last. Every format is here once. */
static const flame_format probe_order[] = {
	FLAME_FORMAT_PERFDATA, FLAME_FORMAT_JFR_BINARY, FLAME_FORMAT_PPROF, FLAME_FORMAT_OFFCPU,
	FLAME_FORMAT_JFR,
	FLAME_FORMAT_SVG,      FLAME_FORMAT_HTML,     FLAME_FORMAT_BPFTRACE, FLAME_FORMAT_DTRACE,
	FLAME_FORMAT_CPUPROFILE, FLAME_FORMAT_SPEEDSCOPE, FLAME_FORMAT_CHROMETRACE,
	FLAME_FORMAT_FIREFOX,
	FLAME_FORMAT_PERF,     FLAME_FORMAT_FOLDED,
};
_Static_assert(sizeof probe_order / sizeof probe_order[0] == NINPUTS - 1,
               "every input format has its place in probe_order");

/* The parser of format f, or NULL (unknown, or not built) */
static const struct flame__parser *parser_of(flame_format f)
{
	return (unsigned)f < NINPUTS ? inputs[f].parser : NULL;
}

size_t flame_input_format_count(void)
{
	return flame__format_available(inputs, NINPUTS);
}

const flame_format_info *flame_input_format_info(size_t i)
{
	return flame__format_nth(inputs, NINPUTS, i);
}

int flame_input_format_find(const char *name, flame_format *out, flame_err *err)
{
	int i = flame__format_find(inputs, NINPUTS, name, 0);
	if (i >= 0 || (name && strcmp(name, "auto") == 0)) {
		*out = i >= 0 ? (flame_format)i : FLAME_FORMAT_AUTO;
		return 0;
	}
	char list[256];
	flame__format_list(inputs, NINPUTS, 0, 0, list, sizeof list);
	return flame__err(err, FLAME_EUSAGE, NULL, 0, FLAME__NO_OFFSET,
	                  "unknown input format '%s' (auto, %s)", name ? name : "", list);
}

flame_format flame_input_format_from_path(const char *path)
{
	int i = flame__format_by_path(inputs, NINPUTS, path, 0);
	return i >= 0 ? (flame_format)i : FLAME_FORMAT_AUTO;
}

const char *flame_input_format_name(flame_format f)
{
	if (f == FLAME_FORMAT_AUTO)
		return "auto";
	return (unsigned)f < NINPUTS ? inputs[f].info.name : NULL;
}

flame_format flame_detect(const void *buf, size_t len)
{
	for (size_t i = 0; i < sizeof probe_order / sizeof probe_order[0]; i++) {
		const struct flame__parser *p = parser_of(probe_order[i]);
		if (p && p->probe && p->probe(buf, len))
			return probe_order[i];
	}
	return FLAME_FORMAT_AUTO;
}

enum { PEEK = 64 * 1024 };

/* ---- inputs no reader takes: say what the file looks like and what to do, since no
 * --format would help. `binary` kinds cannot be text of any format, so they are told
 * even when a format is forced; the others only when detection fails. */

static int has(const char *p, size_t n, const char *s)
{
	return memmem(p, n, s, strlen(s)) != NULL;
}

#ifdef FLAME_HAVE_PERFDATA
#define PERFDATA 1 /* perf.data is read (parse/perfdata.c): only its old format is told */
#else
#define PERFDATA 0
#endif

/* UTF-16 text: a byte-order mark, or ASCII with every other byte NUL. */
static int utf16(const unsigned char *p, size_t n)
{
	if (n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff)))
		return 1;
	size_t m = n < 256 ? n & ~(size_t)1 : 256, zero[2] = {0, 0}, text[2] = {0, 0};
	for (size_t i = 0; i < m; i++) {
		zero[i & 1] += p[i] == 0;
		text[i & 1] += p[i] >= 0x09 && p[i] < 0x7f;
	}
	return m >= 8 && ((zero[1] == m / 2 && text[0] == m / 2) || (zero[0] == m / 2 && text[1] == m / 2));
}

/* What p[0..n) is when it is a picture or a document (a flame graph drawn as PNG or PDF
 * given back as input): "a PNG image", or NULL. */
static const char *picture(const unsigned char *u, size_t n)
{
	if (n >= 8 && memcmp(u, "\x89PNG\r\n\x1a\n", 8) == 0)
		return "a PNG image";
	if (n >= 5 && memcmp(u, "%PDF-", 5) == 0)
		return "a PDF document";
	if (n >= 3 && memcmp(u, "\xff\xd8\xff", 3) == 0)
		return "a JPEG image";
	if (n >= 6 && (memcmp(u, "GIF87a", 6) == 0 || memcmp(u, "GIF89a", 6) == 0))
		return "a GIF image";
	if (n >= 12 && memcmp(u, "RIFF", 4) == 0 && memcmp(u + 8, "WEBP", 4) == 0)
		return "a WebP image";
	return NULL;
}

/* The binary kinds, which no text format can be: what p[0..n) is ("a perf.data
 * recording...", NULL when none), the command to suggest (with %s for the file) and what
 * follows it. */
static const char *binary_kind(const char *p, size_t n, const char **cmd, const char **tail)
{
	const unsigned char *u = (const unsigned char *)p;
	const char *m = NULL;
	if (n >= 8 && (memcmp(p, "PERFFILE", 8) == 0 || (memcmp(p, "PERFILE2", 8) == 0 && !PERFDATA))) {
		m = "a perf.data recording, not perf script text: read its text with";
		*cmd = "perf script -i %s | flame-collapse";
	} else if (utf16(u, n)) {
		m = "UTF-16 text (as PowerShell's '>' writes it): convert it with";
		*cmd = "iconv -f UTF-16 -t UTF-8 %s > out.txt";
		*tail = ", then read out.txt";
	} else if (n >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0) {
		m = "zstd-compressed data (only gzip is undone here): decompress it with";
		*cmd = "zstd -dc %s | flame-collapse";
	} else if (n >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0) {
		m = "xz-compressed data (only gzip is undone here): decompress it with";
		*cmd = "xz -dc %s | flame-collapse";
	} else if (n >= 4 && memcmp(p, "BZh", 3) == 0 && u[3] >= '1' && u[3] <= '9') {
		m = "bzip2-compressed data (only gzip is undone here): decompress it with";
		*cmd = "bzip2 -dc %s | flame-collapse";
	} else if ((m = picture(u, n)) != NULL) {
		*tail = ", which holds no stacks to read: give the profile it was drawn from (a flame "
		        "graph SVG reads back: flame-render -o graph.svg)";
	} else if (n >= 4 && memcmp(p, "\x7f" "ELF", 4) == 0) {
		m = "an ELF executable or library, not a profile: record it (perf record -g -- "
		    "PROGRAM), then read the perf.data that perf record writes";
	}
	return m;
}

/* The message for p[0..n) of file `name` when it is a kind we know and cannot read,
 * in `msg`; 0 when it is not. */
static int diagnose(const char *p, size_t n, const char *name, int binary_only, char *msg,
                    size_t cap)
{
	const char *f = name[0] == '<' || strcmp(name, "-") == 0 ? "FILE" : name; /* <stdin> */
	const char *m = NULL, *cmd = NULL, *tail = "";
	if ((m = binary_kind(p, n, &cmd, &tail)) != NULL) {
		/* told even when a format is forced */
	} else if (binary_only) {
		return 0;
	} else {
		size_t i = 0;
		while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
			i++;
		const char *s = p + i;
		size_t k = n - i;
		size_t j = 1;
		while (j < k && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n'))
			j++;
		if (j < k && ((s[0] == '{' && s[j] == '"') || (s[0] == '[' && (s[j] == '{' || s[j] == '[')))) {
			if (has(s, k, "\"head\"") && has(s, k, "\"functionName\""))
				m = "a CPU profile in Chrome's old tree format (\"head\", before Chrome 61), "
				    "which is not read here: load it in a newer Chrome or speedscope and save "
				    "it again as .cpuprofile";
			else if (has(s, k, "\"recording\"") && has(s, k, "\"jdk."))
				m = "JFR as JSON (jfr print --json), which is not read here: use the text "
				    "of jfr print --stack-depth 64 instead";
			else
				m = "JSON of a kind no reader here takes (of JSON, .cpuprofile, speedscope "
				    "and Chrome trace files are read)";
		} else if (k >= 5 && (strncasecmp(s, "<!doctype html", k < 14 ? k : 14) == 0 ||
		                      strncasecmp(s, "<html", 5) == 0)) {
			m = "an HTML page other than flame-render's (an async-profiler flame graph?), "
			    "which is not read here: "
			    "ask for folded stacks instead (async-profiler -o collapsed)";
		} else if (has(p, n, "\n# Samples: ") || has(p, n, "\n# Overhead ") ||
		           has(p, n, "\n# Children ")) {
			m = "perf report output, which has no stacks to read: use perf script "
			    "(perf script -i perf.data | flame-collapse)";
		} else {
			return 0;
		}
	}
	int k = snprintf(msg, cap, "this looks like %s", m);
	if (cmd && k >= 0 && (size_t)k < cap) {
		int c = snprintf(msg + k, cap - (size_t)k, " '");
		k += c;
		if (k >= 0 && (size_t)k < cap)
			k += snprintf(msg + k, cap - (size_t)k, cmd, f);
		if (k >= 0 && (size_t)k < cap)
			snprintf(msg + k, cap - (size_t)k, "'%s", tail);
	} else if (k >= 0 && (size_t)k < cap) {
		snprintf(msg + k, cap - (size_t)k, "%s", tail);
	}
	return 1;
}

/* flame_parse_opts' layouts by version (core/version.h): a field added after 1.0 goes at the
 * end, with a new version whose size is the struct's then */
static const flame_parse_opts parse_defaults = FLAME_PARSE_OPTS_INIT;
static const size_t parse_sizes[] = {0, offsetof(flame_parse_opts, time_range),
                                     offsetof(flame_parse_opts, keep_sites),
                                     offsetof(flame_parse_opts, keep_labels),
                                     offsetof(flame_parse_opts, keep_sample_types),
                                     sizeof(flame_parse_opts)};
static const struct flame__opts_layout parse_layout = {
	"flame_parse_opts", &parse_defaults, sizeof parse_defaults, parse_sizes,
	FLAME_PARSE_OPTS_VERSION};
_Static_assert(sizeof parse_sizes / sizeof parse_sizes[0] == FLAME_PARSE_OPTS_VERSION + 1,
               "a size for every version of flame_parse_opts");

int flame_parse_opts_init(flame_parse_opts *o, unsigned version)
{
	return flame__opts_init(&parse_layout, o, version);
}

int flame__parse_opts_read(flame_parse_opts *dst, const flame_parse_opts *src, flame_err *err)
{
	return flame__opts_read(&parse_layout, dst, src, err);
}

int flame_parse_opts_check(const flame_parse_opts *o, flame_err *err)
{
	flame_parse_opts cur;
	int rc = flame__parse_opts_read(&cur, o, err);
	return rc ? rc : flame__pprof_check_tags(&cur, err);
}

int flame_parse(flame_tree *t, flame_input *in, const flame_parse_opts *opts, flame_err *err)
{
	flame_parse_opts cur;
	int rc = flame__parse_opts_read(&cur, opts, err);
	if (rc)
		return rc;
	const flame_parse_opts *o = &cur;
	flame_format f = o->format;
	const char *p;
	long n = flame__input_peek(in, &p, PEEK, err);
	if (n < 0)
		return (int)n;
	char msg[512];
	const char *name = flame_input_name(in);
	/* a kind told for what it is but read by no parser is FLAME_EDATA: FLAME_EFORMAT is
	 * kept for a format that cannot be told, which a caller may read some other way */
	if (diagnose(p, (size_t)n, name, 1, msg, sizeof msg))
		return flame__err(err, FLAME_EDATA, name, 0, FLAME__NO_OFFSET, "%s", msg);
	if (f == FLAME_FORMAT_AUTO) {
		if (n == 0)
			return 0; /* empty input: nothing to add, in any format */
		f = flame_detect(p, (size_t)n);
		if (f == FLAME_FORMAT_AUTO && diagnose(p, (size_t)n, name, 0, msg, sizeof msg))
			return flame__err(err, FLAME_EDATA, name, 0, FLAME__NO_OFFSET, "%s", msg);
		if (f == FLAME_FORMAT_AUTO)
			return flame__err(err, FLAME_EFORMAT, name, 0, FLAME__NO_OFFSET,
			                  "cannot tell the input format; use --input-format");
	}
	if (f == FLAME_FORMAT_JFR && flame__parser_jfr_binary.probe(p, (size_t)n))
		f = FLAME_FORMAT_JFR_BINARY; /* jfr: the text of jfr print, or the recording itself */
	else if (f != FLAME_FORMAT_JFR_BINARY && flame__parser_jfr_binary.probe(p, (size_t)n))
		return flame__err(err, FLAME_EDATA, name, 0, FLAME__NO_OFFSET,
		                  "this looks like a binary JFR recording, not %s input: read it "
		                  "with --input-format jfr-binary (or let the format be told)",
		                  flame_input_format_name(f));
	const struct flame__parser *parser = parser_of(f);
	if (!parser) {
		const char *fname = flame_input_format_name(f);
		return flame__err(err, FLAME_EUSAGE, name, 0, FLAME__NO_OFFSET,
		                  fname ? "the %s format is not read by this build" : "no input format %s",
		                  fname ? fname : "of that number");
	}
	return flame__parse_timed(t, in, parser, o, err);
}
