/* libflame public API: parse profiles of several formats into one stack tree,
 * transform it, and write it as folded text or a flame graph.
 * Data flows one way: flame_input -> flame_parse -> flame_tree -> transforms -> writers.
 * All functions return 0 or a negative flame_status; details go to a caller-owned
 * flame_err (which may be NULL). No global state: objects may be used from different
 * threads as long as one object is not used by two threads at once. */
#ifndef FLAME_H
#define FLAME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(FLAME_BUILDING) && defined(__GNUC__)
#define FLAME_EXPORT __attribute__((visibility("default")))
#else
#define FLAME_EXPORT
#endif

/* FLAME_VERSION ("0.1.0"), FLAME_VERSION_MAJOR/MINOR/PATCH/NUMBER: generated from meson's
 * project version, the version this program is compiled against. */
#include "flame-version.h"

/** The version of the library loaded at run time ("0.1.0"). */
FLAME_EXPORT const char *flame_version(void);

/* ---------------------------------------------------------------- Errors */

typedef enum flame_status {
	FLAME_OK = 0,
	FLAME_ENOMEM = -1,   /* out of memory */
	FLAME_EIO = -2,      /* read/write failure, missing file, directory */
	FLAME_EDATA = -3,    /* input does not fit its format */
	FLAME_EUSAGE = -4,   /* bad argument or option value */
	FLAME_ERANGE = -5,   /* a count or size overflows */
	FLAME_EFORMAT = -6   /* the input format cannot be told */
} flame_status;

/** Where and why something failed. Fixed size so even out-of-memory can be reported
 * without allocating. `line` is 1-based (0: not line-oriented); `offset` is a byte
 * offset into the (decompressed) input, or UINT64_MAX when unknown. */
typedef struct flame_err {
	int code;
	uint64_t line;
	uint64_t offset;
	char source[256];
	char msg[512];
} flame_err;

/** Short text for a flame_status ("out of memory"). Never NULL. */
FLAME_EXPORT const char *flame_strerror(int code);

/** Format `e` as "source:line: msg" (or "source: byte N: msg", or "source: msg").
 * Writes at most `n` bytes including the NUL; returns the length it wanted. */
FLAME_EXPORT size_t flame_err_format(const flame_err *e, char *buf, size_t n);

/** Called for recoverable problems (a skipped line). `kind` is a stable short key
 * ("perf-unrecognized-line") so callers can print each kind once with a count. */
typedef void (*flame_warn_fn)(void *ud, const char *kind, const char *source,
                              uint64_t line, const char *msg);


/* ---------------------------------------------------------------- Strings */

/** A borrowed byte slice (not NUL-terminated). */
typedef struct flame_str {
	const char *ptr;
	size_t len;
} flame_str;

/* ---------------------------------------------------------------- Input */

/** A streamed input: a file, stdin, or memory. gzip (detected by its magic bytes) is
 * inflated transparently; everything downstream sees decompressed bytes. */
typedef struct flame_input flame_input;

/** Open `path` for reading; NULL or "-" means stdin. Directories and unreadable files
 * fail here with FLAME_EIO naming the path. */
FLAME_EXPORT int flame_input_open(flame_input **out, const char *path, flame_err *err);

/** Read from memory. `data` must outlive the input; `name` names it in errors. */
FLAME_EXPORT int flame_input_open_mem(flame_input **out, const void *data, size_t len,
                                      const char *name, flame_err *err);

/** The name used in errors ("<stdin>" for stdin). */
FLAME_EXPORT const char *flame_input_name(const flame_input *in);

FLAME_EXPORT void flame_input_free(flame_input *in);

/** Read at most `max_bytes` decompressed bytes from `in`; 0 restores the defaults. Past
 * it reading fails with FLAME_ERANGE naming the input and the byte offset in the stored
 * file, counted as zlib produces them (a gzip bomb stops there). Defaults: 4 GiB inflated
 * from a gzip input; 1 GiB for pprof, which is read whole into memory. Set before
 * parsing; for pprof the limit counts plain and gzipped bytes alike. */
FLAME_EXPORT void flame_input_set_limit(flame_input *in, uint64_t max_bytes);

/** Called as an input is read: `done` bytes of it consumed (as stored: compressed bytes of a
 * gzip file) of `total` (its size; 0 when unknown, as for a pipe), and `stacks` added to the
 * tree so far while flame_parse reads it (unique stacks of each block held in memory, a
 * figure for people; 0 before parsing, and for pprof, which is parsed once read whole).
 * From the thread reading that input; the caller decides whether and how often to show
 * anything. */
typedef void (*flame_progress_fn)(void *ud, uint64_t done, uint64_t total, uint64_t stacks);

/** Report the reading of `in` to `fn` (with `ud`) after each read from now on; NULL stops. */
FLAME_EXPORT void flame_input_set_progress(flame_input *in, flame_progress_fn fn, void *ud);

/* ---------------------------------------------------------------- Tree */

/** A profile: interned frame names, the table of unique stacks with two weight
 * columns (differential input `stack before after` puts BEFORE in column 0 and AFTER
 * in column 1; flame graphs take widths from AFTER, as flamegraph.pl does), and, built on demand, the
 * node tree the writers walk. Counts are uint64 in units of 10^-scale (see
 * flame_tree_scale): integer inputs have scale 0; fractional folded counts raise the
 * scale (at most 9 decimals) and earlier counts are multiplied up exactly, so nothing
 * is ever rounded silently. Overflow of 64 bits is an error (FLAME_ERANGE). */
typedef struct flame_tree flame_tree;

FLAME_EXPORT flame_tree *flame_tree_new(void);
FLAME_EXPORT void flame_tree_free(flame_tree *t);

/** Add one stack. `frames` are root-first when `leaf_first` is 0. Names are copied;
 * a stack of zero frames is ignored. Weights are in the tree's current scale. */
FLAME_EXPORT int flame_tree_add(flame_tree *t, const flame_str *frames, size_t n,
                                int leaf_first, uint64_t w0, uint64_t w1, flame_err *err);

/** Above about `bytes` of unique-stack storage, sort the stacks and spill them as a run
 * to an anonymous temp file (0, the default: never). flame_write_folded merges the runs
 * as it writes, so collapsing stays in flat memory however many unique stacks the input
 * has; any other use of the stacks reads the runs back into memory first. */
FLAME_EXPORT int flame_tree_set_memory_limit(flame_tree *t, size_t bytes);

/** Add every stack of `src` to `dst` (names are re-interned; scales are unified). `src`
 * keeps its stacks (spilled runs of it are read back first, hence not const). */
FLAME_EXPORT int flame_tree_merge(flame_tree *dst, flame_tree *src, flame_err *err);

/** Multiply column `col` of every stack by num/den (rounding down), e.g. weighting. */
FLAME_EXPORT int flame_tree_scale_column(flame_tree *t, int col, uint64_t num, uint64_t den,
                                         flame_err *err);

/** Number of unique stacks into `*out`. Stacks spilled by flame_tree_set_memory_limit are
 * read back to count them (hence not const), so it can fail: FLAME_EIO or FLAME_ENOMEM
 * with `err` filled (and `*out` 0). */
FLAME_EXPORT int flame_tree_stack_count(flame_tree *t, size_t *out, flame_err *err);
/** Sum of a column, decimal scale of the counts. */
FLAME_EXPORT uint64_t flame_tree_total(const flame_tree *t, int col);
FLAME_EXPORT unsigned flame_tree_scale(const flame_tree *t);
/** 1 when any stack has a non-zero column 1 or the input was 3-column. */
FLAME_EXPORT int flame_tree_is_differential(const flame_tree *t);

/** The wall time the profile covers, in nanoseconds (pprof's duration_nanos; of several
 * inputs added, the longest), 0 when unknown. */
FLAME_EXPORT uint64_t flame_tree_duration(const flame_tree *t);

/** Count name recorded by the parser ("samples", "nanoseconds", "bytes"); may be NULL. */
FLAME_EXPORT const char *flame_tree_count_name(const flame_tree *t);
FLAME_EXPORT int flame_tree_set_count_name(flame_tree *t, const char *name);

/** One rule for adding profiles: inputs whose units differ (count names such as
 * "nanoseconds" and "bytes", both known) are refused when they meet in one tree -- in a
 * parser adding to a tree that holds stacks, flame_tree_merge, flame_diff, flame_diff_read
 * and flame_merge_read -- with FLAME_EDATA naming both inputs and their units. A tree of
 * unknown unit (folded text) takes any. `on` lets `t` take them anyway (it keeps its first
 * unit). Units spelled differently are the same: samples and count, us and microseconds. */
FLAME_EXPORT void flame_tree_set_ignore_units(flame_tree *t, int on);

/** `v` counts of `unit` (a count name; NULL: plain counts), in units of 10^-scale, as
 * people read them: time units as "1.42 s", "830 ms", "12.5 us" (three significant
 * digits), bytes as "3.20 MiB", other counts exactly with thousands separators ("12,345",
 * "2.5"); never scientific notation. The --top table, gate messages, subtitles and the
 * tooltips and details line of a tree counting time or bytes ("foo (1.42 s, 42.00%)";
 * sample counts keep flamegraph.pl's "foo (1,234 samples, 12.34%)", the same digits)
 * print amounts this way; an SVG whose tooltips round keeps the exact counts in data-v
 * and the unit in data-unit. Writes at most `cap` bytes with the NUL; returns the
 * length written. flame_format_delta prints after - before with its sign ("+830 ms"). */
FLAME_EXPORT size_t flame_format_count(char *buf, size_t cap, uint64_t v, unsigned scale,
                                       const char *unit);
FLAME_EXPORT size_t flame_format_delta(char *buf, size_t cap, uint64_t before, uint64_t after,
                                       unsigned scale, const char *unit);

/* Visit every unique stack (root-first frame names) in unspecified order. Stop early
 * by returning a positive value from `fn`; that value is returned. Spilled stacks are
 * read back first: a failure there is a negative flame_status with `err` filled. */
typedef int (*flame_stack_fn)(void *ud, const flame_str *frames, size_t n,
                              uint64_t w0, uint64_t w1);
FLAME_EXPORT int flame_tree_each_stack(flame_tree *t, flame_stack_fn fn, void *ud,
                                       flame_err *err);

/* ---- Nodes: the merged tree (a real tree: a child per distinct name) ----
 * Node 0 is the synthetic root ("all"); a parent's number is below its children's.
 * Building is done lazily by the functions below and cached until the stacks change. */

typedef uint32_t flame_node;
#define FLAME_NODE_NONE UINT32_MAX

typedef enum flame_order {
	FLAME_ORDER_NAME = 0,  /* children in bytewise order of their names (folded order) */
	FLAME_ORDER_WEIGHT = 1 /* heaviest child first (column 0 total), ties by name */
} flame_order;

/** Build (or rebuild) the node tree with children in `order`. */
FLAME_EXPORT int flame_tree_build(flame_tree *t, flame_order order, flame_err *err);
/** Nodes of the built tree (0 when not built, or changed since). The accessors below are
 * checked: an id out of range (FLAME_NODE_NONE included), a column other than 0 or 1, or a
 * tree changed since it was built give an empty name, FLAME_NODE_NONE or 0. */
FLAME_EXPORT size_t flame_tree_node_count(const flame_tree *t);
FLAME_EXPORT flame_str flame_node_name(const flame_tree *t, flame_node n);
FLAME_EXPORT flame_node flame_node_parent(const flame_tree *t, flame_node n);
FLAME_EXPORT flame_node flame_node_first_child(const flame_tree *t, flame_node n);
FLAME_EXPORT flame_node flame_node_next_sibling(const flame_tree *t, flame_node n);
FLAME_EXPORT uint32_t flame_node_depth(const flame_tree *t, flame_node n);
FLAME_EXPORT uint64_t flame_node_self(const flame_tree *t, flame_node n, int col);
FLAME_EXPORT uint64_t flame_node_total(const flame_tree *t, flame_node n, int col);

/* ---- Iterator (ENTER/EXIT, as cmark's): every writer is one loop ---- */

typedef enum flame_event {
	FLAME_EVENT_DONE = 0,  /* the walk is over; every later call returns DONE again */
	FLAME_EVENT_ENTER = 1,
	FLAME_EVENT_EXIT = 2,
	FLAME_EVENT_NONE = 3   /* not started: flame_iter_init's state */
} flame_event;

typedef struct flame_iter {
	const flame_tree *tree;
	flame_node node;
	flame_event ev;
	int skip;
} flame_iter;

/** Start at the root of a built tree. Non-recursive: depth is unlimited. */
FLAME_EXPORT void flame_iter_init(flame_iter *it, const flame_tree *t);
/** Advance; the current node is `it->node`. Returns FLAME_EVENT_DONE at the end, and
 * keeps returning it (call flame_iter_init to walk again); also DONE when the tree is not
 * built or was changed under the walk. */
FLAME_EXPORT flame_event flame_iter_next(flame_iter *it);
/** Do not descend into the current (just entered) node: its EXIT comes next. */
FLAME_EXPORT void flame_iter_skip_children(flame_iter *it);

/* ---------------------------------------------------------------- Parsing */

typedef enum flame_format {
	FLAME_FORMAT_AUTO = 0,
	FLAME_FORMAT_FOLDED,
	FLAME_FORMAT_PERF,
	FLAME_FORMAT_PPROF,
	FLAME_FORMAT_OFFCPU,
	FLAME_FORMAT_JFR,
	FLAME_FORMAT_SVG,
	FLAME_FORMAT_PERFDATA  /* perf.data (perf record's file or pipe); built with -Dperfdata */
} flame_format;

/** "folded", "perf"... -> format; -1 when unknown. And back. */
FLAME_EXPORT int flame_format_from_name(const char *name);
FLAME_EXPORT const char *flame_format_name(flame_format f);

/* ---- Format tables: the input formats flame_parse reads and the output formats flame_write
 * writes, each with its name, its file extensions and a line saying what it is. Tools build
 * their --input-format and --format choices, their help and their checks of -o's extension
 * from these tables, so a new format is one entry in the library (beside its parser or
 * writer) and every tool takes it. */

/** One format. The library owns it (never freed); later versions only add fields at the
 * end, so a program reads the fields it was compiled with through the pointer. */
typedef struct flame_format_info {
	const char *name;               /* "pprof": the value of --format / --input-format */
	const char *const *extensions;  /* file name endings, the usual one first, NULL-ended:
	                                 * ".pb.gz", ".pb", ".pprof" */
	const char *description;        /* one line, for --help and the man pages */
	int id;                         /* a flame_format (inputs) or flame_output_format */
	unsigned flags;                 /* outputs: FLAME_OUTPUT_STACKS...; inputs: 0 */
} flame_format_info;

/** The input formats, in flame_format order (FLAME_FORMAT_AUTO is not one: it means "tell
 * from the content"). flame_input_format_info returns NULL for i >= the count. */
FLAME_EXPORT size_t flame_input_format_count(void);
FLAME_EXPORT const flame_format_info *flame_input_format_info(size_t i);

/** The input format called `name` into *out ("auto" gives FLAME_FORMAT_AUTO); FLAME_EUSAGE
 * naming the known ones when there is none. */
FLAME_EXPORT int flame_input_format_find(const char *name, flame_format *out, flame_err *err);

/** The input format whose extension `path` ends with (".pb.gz", case-insensitive; the
 * longest wins), or FLAME_FORMAT_AUTO: a hint only, flame_parse tells formats from the
 * content. */
FLAME_EXPORT flame_format flame_input_format_of_path(const char *path);

/* perf flags (stackcollapse-perf.pl's options, and ours) */
#define FLAME_PERF_PID 0x01            /* comm-PID as root */
#define FLAME_PERF_TID 0x02            /* comm-PID/TID as root */
#define FLAME_PERF_KERNEL 0x04         /* _[k] on kernel frames */
#define FLAME_PERF_JIT 0x08            /* _[j] on JIT frames */
#define FLAME_PERF_ADDRS 0x10          /* [dso <addr>] for unknown symbols */
#define FLAME_PERF_KEEP_TEMPLATES 0x20 /* cut args at the first '(' outside <> {} [] */
#define FLAME_PERF_RAW_NAMES 0x40      /* no tidying beyond stackcollapse-perf.pl's (Rust) */

/* jfr flags */
#define FLAME_JFR_SIGNATURES 0x01 /* keep the parameter list: pkg.Class.method(int, String) */
#define FLAME_JFR_THREADS 0x02    /* the thread name as the root frame */
#define FLAME_JFR_LINES 0x04      /* append :LINE when the text has a line number */
#define FLAME_JFR_ANNOTATE 0x08   /* append _[j] to Java frames (flamegraph.pl --colors java) */

/* offcpu flags (the perf flags' --pid/--tid: root `comm-TID`) */
#define FLAME_OFFCPU_PID 0x01
#define FLAME_OFFCPU_TID 0x02

/* Each format's options in a struct of its own, read by that format's parser only. */
typedef struct flame_perf_opts {
	unsigned flags;            /* FLAME_PERF_* */
	const char *event_filter;  /* NULL: the first event seen */
	int has_time_range;        /* --time START,END (seconds, inclusive) */
	double time_start, time_end;
} flame_perf_opts;

typedef struct flame_offcpu_opts {
	unsigned flags;            /* FLAME_OFFCPU_* */
} flame_offcpu_opts;

typedef struct flame_jfr_opts {
	const char *event;         /* --event NAME; NULL: jdk.ExecutionSample if the input has
	                            * any, else the first event type with stack traces */
	unsigned flags;            /* FLAME_JFR_* */
} flame_jfr_opts;

typedef struct flame_pprof_opts {
	const char *sample_type;        /* --sample-type; NULL: default_sample_type, else the last */
	unsigned flags;                 /* FLAME_PPROF_* (in the pprof section below) */
	const char *const *tags;        /* --tag KEY=REGEX or KEY=MIN:MAX; a sample must match all */
	size_t n_tags;
	const char *const *tags_ignore; /* --tag-ignore: a sample matching any is dropped */
	size_t n_tags_ignore;
	const char *group_by;           /* --group-by KEY: the label's value becomes the root frame */
	/* version 2: --before-tag / --after-tag, two slices of one profile as a diff. A sample
	 * matching all of side_tags[0] (same forms as tags) counts in column 0 (BEFORE), one
	 * matching all of side_tags[1] in column 1 (AFTER), one matching both in both, one
	 * matching neither nowhere; an empty list matches every sample. When either list is
	 * given the tree is differential: flame_diff_normalize then applies a diff's options. */
	const char *const *side_tags[2];
	size_t n_side_tags[2];
} flame_pprof_opts;

/* Options structs are versioned (libgit2's pattern): `version` says which layout of the
 * struct the caller was compiled against. Initialize with the _INIT macro or the _init
 * function, never with {0}: a version the library does not know is refused (FLAME_EUSAGE).
 * A later library keeps reading the layouts of earlier versions, so new fields (anywhere,
 * e.g. in a format's struct) come with a new version number. Zero means "default" for
 * every other field. */
#define FLAME_PARSE_OPTS_VERSION 2

typedef struct flame_parse_opts {
	unsigned version;          /* FLAME_PARSE_OPTS_VERSION */
	flame_format format;
	unsigned threads;          /* worker threads; 0 = number of cores */
	/* warnings (skipped lines); NULL = silent */
	flame_warn_fn warn;
	void *warn_ud;
	flame_perf_opts perf;
	flame_offcpu_opts offcpu;
	flame_jfr_opts jfr;
	flame_pprof_opts pprof;
} flame_parse_opts;

#define FLAME_PARSE_OPTS_INIT {.version = FLAME_PARSE_OPTS_VERSION, .format = FLAME_FORMAT_AUTO}

/** Set `o` to the defaults of `version` (FLAME_PARSE_OPTS_VERSION), as the _INIT macro
 * does: for callers that cannot use the macro (other languages' bindings). FLAME_EUSAGE,
 * and `o` untouched, for a version the library does not know. */
FLAME_EXPORT int flame_parse_opts_init(flame_parse_opts *o, unsigned version);

/** Parse all of `in` and add its stacks to `t`. Frame names are interned into `t`;
 * `in` may be freed afterwards. With FLAME_FORMAT_AUTO the format is told from the
 * content (after gzip is undone); FLAME_EFORMAT when nothing fits. */
FLAME_EXPORT int flame_parse(flame_tree *t, flame_input *in, const flame_parse_opts *o,
                             flame_err *err);

/** Tell the format of the start of an input. Returns a flame_format, or
 * FLAME_FORMAT_AUTO when nothing fits. */
FLAME_EXPORT flame_format flame_detect(const void *buf, size_t len);

/* ---------------------------------------------------------------- Transforms */

/** Keep stacks in which some frame matches `include` (pcre2; NULL: all), then drop
 * stacks in which some frame matches `exclude` (NULL: none). Each distinct name is
 * matched once. FLAME_EUSAGE with the pcre2 message for an invalid pattern. */
FLAME_EXPORT int flame_filter_stacks(flame_tree *t, const char *include, const char *exclude,
                                     flame_err *err);

/** Check that `include` and `exclude` (either may be NULL) compile, so a CLI can reject
 * a bad pattern before reading any input. */
FLAME_EXPORT int flame_filter_check(const char *include, const char *exclude, flame_err *err);

/** Drop the frames between the root (kept: the process name) and the leaf-most frame
 * whose name equals one of `symbols`, so the stack starts at that frame. */
FLAME_EXPORT int flame_skip_after(flame_tree *t, const char *const *symbols, size_t n,
                                  flame_err *err);

/** Reverse every stack (flamegraph.pl's --reverse: the leaf becomes the root), before a
 * flame graph is drawn. Twice gives the stacks back. */
FLAME_EXPORT int flame_reverse_stacks(flame_tree *t, flame_err *err);

/* ---------------------------------------------------------------- Output */

/** A buffered output: stdout, or a file written atomically (a temp file renamed over
 * `path` on commit, removed on abort), so an error never leaves a half-written file. */
typedef struct flame_output flame_output;

/** `path` NULL or "-": stdout. */
FLAME_EXPORT int flame_output_open(flame_output **out, const char *path, flame_err *err);
FLAME_EXPORT int flame_output_write(flame_output *o, const void *data, size_t len,
                                    flame_err *err);
/** Flush, fsync-free close and rename into place. Frees `o`. */
FLAME_EXPORT int flame_output_commit(flame_output *o, flame_err *err);
/** Remove the temp file (if any) and free `o`. */
FLAME_EXPORT void flame_output_abort(flame_output *o);
/** The temp file's path (NULL for stdout), for a signal handler to unlink. */
FLAME_EXPORT const char *flame_output_temp_path(const flame_output *o);

/* ---------------------------------------------------------------- Writers */

/* The output formats (see "Format tables" above): ids, and the flags that say what each is,
 * so a tool takes every format of the kinds it writes. */
typedef enum flame_output_format {
	FLAME_OUTPUT_NONE = 0, /* none named: a path with no extension, or "-" */
	FLAME_OUTPUT_FOLDED,
	FLAME_OUTPUT_PPROF,
	FLAME_OUTPUT_SVG,
	FLAME_OUTPUT_PNG,
	FLAME_OUTPUT_PDF,
	FLAME_OUTPUT_HTML      /* one self-contained page holding the whole tree (flame_write_html) */
} flame_output_format;

#define FLAME_OUTPUT_STACKS 0x01  /* the stacks themselves, which flame_parse reads back */
#define FLAME_OUTPUT_PICTURE 0x02 /* a flame graph drawn with flame_render_opts */
#define FLAME_OUTPUT_DIFF 0x04    /* shows a differential tree as a diff (3-column folded
                                   * text, pictures in red and blue) */

/** The output formats, in table order; flame_output_format_info returns NULL for i >= the
 * count. */
FLAME_EXPORT size_t flame_output_format_count(void);
FLAME_EXPORT const flame_format_info *flame_output_format_info(size_t i);

/** The output format called `name` among those with a flag in `accept` (0: all) into *out;
 * FLAME_EUSAGE naming the accepted ones when there is none. */
FLAME_EXPORT int flame_output_format_find(const char *name, unsigned accept,
                                          flame_output_format *out, flame_err *err);

/** The output format `path` names by its extension (the longest that matches,
 * case-insensitive), among those with a flag in `accept` (0: all), into *out. NULL, "-" and
 * names with no extension give FLAME_OUTPUT_NONE (the caller's default); an extension no
 * accepted format has is FLAME_EUSAGE naming the known ones ("x.jpg": unknown extension). */
FLAME_EXPORT int flame_output_format_from_path(const char *path, unsigned accept,
                                               flame_output_format *out, flame_err *err);

/** Write folded stacks, one line per unique stack, lines in bytewise order of the
 * stack text (stackcollapse-perf.pl's order). 3-column `stack before after` when the
 * tree is differential. Counts are printed in the tree's scale. */
FLAME_EXPORT int flame_write_folded(flame_tree *t, flame_output *o, flame_err *err);

/* ---- Diff and merge: differential trees (difffolded.pl and more), per-function reports.
 * A diff is an ordinary differential flame_tree: column 0 = BEFORE (normalized), column 1 =
 * AFTER, so the folded writer prints difffolded.pl's `stack before after` and the renderer
 * draws it. To diff or merge profiles, state what you want with a request (below): the
 * library chooses how to read. Two trees already in memory are diffed by flame_diff and
 * merged by flame_tree_merge (+ flame_tree_weight). */

typedef enum flame_diff_norm {
	FLAME_DIFF_NORM_NONE = 0,    /* counts as they are */
	FLAME_DIFF_NORM_TOTAL = 1,   /* difffolded.pl -n: before = int(before * T_after / T_before) */
	FLAME_DIFF_NORM_REQUESTS = 2, /* before served requests_before, after requests_after:
	                              * before = before * requests_after / requests_before */
	FLAME_DIFF_NORM_FRAME = 3    /* stacks through a frame matching frame_regex are the unit:
	                              * before scaled so that they weigh the same in both */
} flame_diff_norm;

/* versioned as flame_parse_opts is (see there) */
#define FLAME_DIFF_OPTS_VERSION 1

typedef struct flame_diff_opts {
	unsigned version;                         /* FLAME_DIFF_OPTS_VERSION */
	flame_diff_norm norm;
	uint64_t requests_before, requests_after; /* FLAME_DIFF_NORM_REQUESTS, both > 0 */
	const char *frame_regex;                  /* FLAME_DIFF_NORM_FRAME (pcre2) */
	int strip_hex;                            /* difffolded.pl -s: 0x[0-9a-fA-F]+ -> 0x... */
} flame_diff_opts;

#define FLAME_DIFF_OPTS_INIT {.version = FLAME_DIFF_OPTS_VERSION, .norm = FLAME_DIFF_NORM_NONE}

/** Set `o` to the defaults of `version` (FLAME_DIFF_OPTS_VERSION), as the _INIT macro does;
 * FLAME_EUSAGE, and `o` untouched, for a version the library does not know. */
FLAME_EXPORT int flame_diff_opts_init(flame_diff_opts *o, unsigned version);

/** Check `o` (its version, request counts, the regex compiles) before any input is read;
 * FLAME_EUSAGE naming the option. */
FLAME_EXPORT int flame_diff_check(const flame_diff_opts *o, flame_err *err);

/** Turn `before` into the differential tree: its column 0 stays BEFORE (normalized as `o`
 * says, rounding down), column 1 receives every stack of `after` (column 0 of `after`).
 * Stacks found in only one side get 0 in the other. `after` is not changed and may be freed
 * afterwards. Neither input may be differential already (FLAME_EDATA). With
 * FLAME_DIFF_NORM_FRAME, FLAME_EDATA when no frame matches in one of them. */
FLAME_EXPORT int flame_diff(flame_tree *before, flame_tree *after,
                            const flame_diff_opts *o, flame_err *err);

/** Diffing in one tree (the memory of one profile instead of two): parse AFTER into `t`,
 * call flame_diff_swap (column 0 moves to column 1), parse BEFORE into the same `t`, then
 * flame_diff_normalize. FLAME_EDATA when `t` is differential already. */
FLAME_EXPORT int flame_diff_swap(flame_tree *t, flame_err *err);

/** Apply `o` (strip_hex, then the normalization of column 0) to a differential tree built
 * with flame_diff_swap; flame_diff calls it too. */
FLAME_EXPORT int flame_diff_normalize(flame_tree *t, const flame_diff_opts *o, flame_err *err);

/* ---- Diff and merge requests: the inputs and what is wanted, the way chosen inside.
 * Running a request reads its inputs at once (a thread each, or `threads` workers) and
 * takes the cheapest way to the same result:
 *  - folded text of sorted folded files (plain files as flame-collapse and
 *    stackcollapse-perf.pl print them: `stack count` lines, whole counts, stacks in
 *    strictly increasing bytewise order) is a merge of their lines, with no tree (a first
 *    pass checks and sums them, the second merges);
 *  - other folded inputs stream into the result in blocks as they are parsed (sorted ones
 *    by a linear merge), in about the memory of the result;
 *  - other formats are parsed whole, into a tree each, and combined.
 * Every way gives the same bytes. Inputs are given by path (opened when the request runs,
 * NULL or "-" for stdin) or as a caller's flame_input (left open: free it after the run).
 * Parse options are copied; strings they point to must outlive the request. Warning
 * callbacks may run on threads of their own, one input's at a time. */

typedef struct flame_diff_request flame_diff_request;

/** A diff of BEFORE and AFTER normalized as `o` says (NULL: counts as they are); `o` is
 * checked here (FLAME_EUSAGE naming the option) and copied (frame_regex must outlive it). */
FLAME_EXPORT int flame_diff_request_new(flame_diff_request **out, const flame_diff_opts *o,
                                        flame_err *err);
FLAME_EXPORT void flame_diff_request_free(flame_diff_request *r);

/** Side 0 is BEFORE, 1 AFTER: read from the caller's `in` when not NULL, else from `path`
 * (NULL or "-": stdin), opened when the request runs. `po` NULL: FLAME_PARSE_OPTS_INIT. */
FLAME_EXPORT int flame_diff_request_input(flame_diff_request *r, int side, const char *path,
                                          flame_input *in, const flame_parse_opts *po,
                                          flame_err *err);

/** 2 (the default): both sides read at once, a thread each. 1: one after the other into
 * one tree (AFTER first, then BEFORE beside it), never as text. */
FLAME_EXPORT void flame_diff_request_threads(flame_diff_request *r, unsigned threads);

/** flame_input_set_limit for each input the request opens from a path (0: the defaults);
 * an input given as a flame_input keeps its own. */
FLAME_EXPORT void flame_diff_request_limit(flame_diff_request *r, uint64_t max_bytes);

/** Report the reading of the inputs opened from paths to `fn` as one: bytes and stacks summed
 * over them, of the sum of their sizes (0 when one is stdin or a pipe). Called from the
 * threads reading them, one call at a time; NULL stops. */
FLAME_EXPORT void flame_diff_request_progress(flame_diff_request *r, flame_progress_fn fn,
                                              void *ud);

/** Let BEFORE and AFTER differ in units (flame_tree_set_ignore_units); default: refused. */
FLAME_EXPORT void flame_diff_request_ignore_units(flame_diff_request *r, int on);

/** Write the diff as difffolded.pl's `stack before after` lines, in bytewise order, to
 * `out` (not committed: the caller commits or aborts it). */
FLAME_EXPORT int flame_diff_request_write_folded(flame_diff_request *r, flame_output *out,
                                                 flame_err *err);

/** Build the differential tree (for a picture, flame_diff_report...): *tree is the
 * caller's (flame_tree_free). */
FLAME_EXPORT int flame_diff_request_tree(flame_diff_request *r, flame_tree **tree,
                                         flame_err *err);

/** After a failed run: the side (0 or 1) whose input failed, or -1 when the failure was
 * not one input's (then `err` said why). *differential (may be NULL) is 1 when that side
 * is a differential (3-column) profile, which cannot be one side of a diff. */
FLAME_EXPORT int flame_diff_request_failed_side(const flame_diff_request *r, int *differential);

/** After a run: a side's column 0 total as read, in the scale of the result, before any
 * normalization (a --top header's "as read"). */
FLAME_EXPORT uint64_t flame_diff_request_total(const flame_diff_request *r, int side);

typedef struct flame_merge_request flame_merge_request;

FLAME_EXPORT int flame_merge_request_new(flame_merge_request **out, flame_err *err);
FLAME_EXPORT void flame_merge_request_free(flame_merge_request *r);

/** Add an input, from `path` or the caller's `in` (as flame_diff_request_input), its
 * counts multiplied by weight / 10^weight_decimals exactly (weight 0: 1). Path inputs are
 * opened 16 at a time, so any number can be merged. */
FLAME_EXPORT int flame_merge_request_input(flame_merge_request *r, const char *path,
                                           flame_input *in, const flame_parse_opts *po,
                                           uint64_t weight, unsigned weight_decimals,
                                           flame_err *err);

/** Workers that parse inputs whole (0, the default: 2). */
FLAME_EXPORT void flame_merge_request_threads(flame_merge_request *r, unsigned threads);

/** As flame_diff_request_limit, for every input of the merge. */
FLAME_EXPORT void flame_merge_request_limit(flame_merge_request *r, uint64_t max_bytes);

/** As flame_diff_request_progress, summed over every input of the merge. */
FLAME_EXPORT void flame_merge_request_progress(flame_merge_request *r, flame_progress_fn fn,
                                               void *ud);

/** Before summing, scale every input, column by column, to the largest input's total
 * (rounding each stack down); weights apply after. Every input is then read whole. */
FLAME_EXPORT void flame_merge_request_normalize(flame_merge_request *r, int on);

/** Let the inputs differ in units (flame_tree_set_ignore_units); default: refused. */
FLAME_EXPORT void flame_merge_request_ignore_units(flame_merge_request *r, int on);

/** Write the sum as folded text to `out` (not committed). */
FLAME_EXPORT int flame_merge_request_write_folded(flame_merge_request *r, flame_output *out,
                                                  flame_err *err);

/** Build the sum as a tree: *tree is the caller's. */
FLAME_EXPORT int flame_merge_request_tree(flame_merge_request *r, flame_tree **tree,
                                          flame_err *err);

/** Multiply both columns of every stack by num / 10^decimals exactly (a merge weight such as
 * 2 or 0.25): the tree's decimal scale rises by `decimals` instead of rounding. FLAME_ERANGE
 * when the scale would pass 9 decimals or a count would overflow (nothing is changed then). */
FLAME_EXPORT int flame_tree_weight(flame_tree *t, uint64_t num, unsigned decimals, flame_err *err);

/** Replace 0x[0-9a-fA-F]+ by "0x..." in every frame name (difffolded.pl -s), merging the
 * stacks that become equal. */
FLAME_EXPORT int flame_strip_hex(flame_tree *t, flame_err *err);

/** One function (distinct frame name) of a differential tree: self = samples where it is
 * the leaf, total = samples of stacks it appears in (once per stack, however deep its
 * recursion). Index 0 = before, 1 = after. `name` points into the tree. */
typedef struct flame_diff_row {
	flame_str name;
	uint64_t self[2];
	uint64_t total[2];
	size_t inside; /* set by flame_diff_attribute: the row of a callee that carries this
	                * row's total change, or SIZE_MAX */
} flame_diff_row;

/** Per-function costs of `t` (both columns), one row per name that occurs in a stack, in
 * no particular order (`inside` = SIZE_MAX). `*rows` is malloc'd: free it with free(). */
FLAME_EXPORT int flame_diff_report(flame_tree *t, flame_diff_row **rows, size_t *n,
                                   flame_err *err);

/** Callers grow with their callees: when a function's total changed by more than `limit`
 * (counts) but all of that change beyond `limit` lies inside one callee that changed the
 * same way (the callee is only ever called under it), set `inside` to that callee's row (else
 * SIZE_MAX), so a report can name where the change is rather than every caller up to the
 * root. Considers the 512 largest total changes. */
FLAME_EXPORT int flame_diff_attribute(flame_tree *t, flame_diff_row *rows, size_t n,
                                      double limit, flame_err *err);

/* ---- Reports for people: the --top tables and the regression gate, amounts in the tree's
 * unit as flame_format_count prints them. */

/** Receives text (`len` bytes, not NUL-terminated); non-zero stops the writer, which
 * returns that value. */
typedef int (*flame_text_fn)(void *ud, const char *text, size_t len);

typedef struct flame_top_opts {
	uint64_t rows;       /* functions per table */
	double min_delta;    /* changes smaller than this (in the tree's units) are left out */
	uint64_t before_raw; /* BEFORE's total as read, before normalization (the header) */
	const char *norm;    /* the normalization's option ("--requests"), NULL: none */
} flame_top_opts;

/** A header with both totals, then four tables (self cost grew most, shrank most; total
 * cost grew, shrank) of at most o->rows functions each: before, after, delta, change,
 * name. A caller whose total change lies inside a listed callee is left to the callee
 * (flame_diff_attribute: `rows` are changed). */
FLAME_EXPORT int flame_write_top(flame_tree *t, flame_diff_row *rows, size_t n,
                                 const flame_top_opts *o, flame_text_fn fn, void *ud,
                                 flame_err *err);

/** The regression gate: every function whose self or total cost grew by more than
 * `limit_pct` % of BEFORE's total, largest first, as one line each to `fn` ("NAME: self 1.2 s
 * -> 1.5 s (+300 ms, 5.00% of the before total)", no newline). Returns how many (0: none)
 * or a negative status. `rows` are sorted and attributed. */
FLAME_EXPORT int flame_gate(flame_tree *t, flame_diff_row *rows, size_t n, double limit_pct,
                            flame_text_fn fn, void *ud, flame_err *err);

/* ---- Cost reports (flame-top): what each function, root, label value or team costs, as
 * `go tool pprof -top` and beyond it: average cores and money for CPU time. */

typedef enum flame_cost_by {
	FLAME_COST_BY_FUNCTION = 0, /* each distinct frame name: self where it is the leaf, total
	                             * in the stacks it appears in (once per stack, however deep
	                             * its recursion) */
	FLAME_COST_BY_ROOT = 1,     /* the root frame of each stack (comm, thread, or the value of
	                             * a pprof label read with group_by): self = total */
	FLAME_COST_BY_OWNER = 2     /* teams of a flame_owners: each function's self cost goes to
	                             * the team of the first line matching it ("(no owner)" when
	                             * none does), so every sample counts once; total = the stacks
	                             * with some frame of the team */
} flame_cost_by;

typedef enum flame_cost_sort { FLAME_COST_SORT_SELF = 0, FLAME_COST_SORT_TOTAL = 1 } flame_cost_sort;

typedef enum flame_cost_format {
	FLAME_COST_TEXT = 0, /* an aligned table for people (1.42 s, 3.20 MiB, 12.5 cores) */
	FLAME_COST_CSV = 1,  /* RFC 4180, exact numbers; columns in flame-top(1) */
	FLAME_COST_JSON = 2  /* one object, the same columns per row */
} flame_cost_format;

/** An owners file: lines `REGEX<TAB>TEAM` (pcre2; blank lines and lines starting with '#'
 * are skipped), tried in order, the first match wins. FLAME_EDATA naming file and line for
 * a line without a tab or team, FLAME_EUSAGE for a bad regex. */
typedef struct flame_owners flame_owners;
FLAME_EXPORT int flame_owners_load(flame_owners **out, const char *path, flame_err *err);
FLAME_EXPORT void flame_owners_free(flame_owners *ow);

/* versioned as flame_parse_opts is (see there) */
#define FLAME_COST_OPTS_VERSION 1

typedef struct flame_cost_opts {
	unsigned version;            /* FLAME_COST_OPTS_VERSION */
	flame_cost_by by;
	const char *group_name;      /* heading of the name column; NULL: function, root or owner */
	const flame_owners *owners;  /* FLAME_COST_BY_OWNER; must outlive the report */
	flame_cost_sort sort;
	uint64_t rows;               /* rows printed; 0: all */
	double frequency;            /* Hz: sample counts are CPU time, 1/frequency s each */
	double window;               /* seconds of wall time the profile covers; 0: the profile's
	                              * own (flame_tree_duration), else unknown */
	double core_price;           /* price of one core for an hour; 0: no cost column */
} flame_cost_opts;

#define FLAME_COST_OPTS_INIT {.version = FLAME_COST_OPTS_VERSION}
FLAME_EXPORT int flame_cost_opts_init(flame_cost_opts *o, unsigned version);

/** One group of a report: counts in the tree's unit and scale. */
typedef struct flame_cost_row {
	flame_str name; /* points into the tree (or the owners): valid while they live */
	uint64_t self, total;
} flame_cost_row;

/** A report: the groups of `t` (column 0; AFTER of a differential tree) with what their
 * counts cost. CPU time is a time unit of sample type "cpu" (perf cpu-clock periods, pprof
 * CPU profiles), or sample counts (unit samples, count or none; not event counts such as
 * cycles) with o->frequency; cores need a window too. Memory
 * (bytes) never gets cores. FLAME_EUSAGE for bad options (owners missing, negative
 * numbers). Free with flame_cost_free; `t` must outlive it. */
typedef struct flame_cost flame_cost;
FLAME_EXPORT int flame_cost_new(flame_cost **out, flame_tree *t, const flame_cost_opts *o,
                                flame_err *err);
FLAME_EXPORT void flame_cost_free(flame_cost *c);

/** Every group, sorted by o->sort (largest first, ties by name bytewise); the count. */
FLAME_EXPORT size_t flame_cost_rows(const flame_cost *c, const flame_cost_row **rows);

/** The report (at most o->rows groups) as text, CSV or JSON to `fn`. Names are escaped for
 * each (control bytes as \xNN in text, quoted in CSV, JSON strings with invalid UTF-8 as
 * U+FFFD). */
FLAME_EXPORT int flame_write_cost(const flame_cost *c, flame_cost_format f, flame_text_fn fn,
                                  void *ud, flame_err *err);

/** The CI threshold: every group whose self share of the total exceeds `share_pct` %, as
 * one line each to `fn` ("NAME: self 1.42 s, 42.00% of 3.38 s", no newline), largest
 * first. Returns how many (0: none) or a negative status. */
FLAME_EXPORT int flame_cost_gate(const flame_cost *c, double share_pct, flame_text_fn fn,
                                 void *ud, flame_err *err);

/* ---- pprof: profile.proto in (flame_parse) and out ----
 * Frames are named as `go tool pprof -traces` names them: Function.name, `[mapping
 * basename]` or `<unknown>` for unsymbolized code; ';' in a name becomes ':'. */

#define FLAME_PPROF_INLINE_ANNOTATE 0x01 /* _[i] on inlined frames (all but a location's last line) */
#define FLAME_PPROF_ADDRESSES 0x02       /* `mapping+0xADDR` / `0xADDR` for code with no function */
#define FLAME_PPROF_LINES 0x04           /* append ` file:line` to each frame */
#define FLAME_PPROF_SYSTEM_NAMES 0x08    /* Function.system_name (mangled) instead of name */

/** Called once per sample type of a profile, in order; `is_default` marks the one
 * flame_parse picks without --sample-type. Return non-zero to stop. */
typedef int (*flame_sample_type_fn)(void *ud, const char *type, const char *unit,
                                    int is_default);

/** List the sample types of the pprof profile `in` (consumes `in`). */
FLAME_EXPORT int flame_pprof_sample_types(flame_input *in, flame_sample_type_fn fn, void *ud,
                                          flame_err *err);

/** Check the pprof options of `o` (--tag syntax and regexes) before reading input;
 * FLAME_EUSAGE naming the bad option. */
FLAME_EXPORT int flame_pprof_opts_check(const flame_parse_opts *o, flame_err *err);

/** Write `t` as a gzipped profile.proto: one sample per unique stack, one function and
 * location per distinct frame name, the sample type from the tree's count name
 * (nanoseconds, bytes, ... ; "samples/count" when unset). A differential tree gets two
 * sample types, before and after. Fractional counts (scale > 0) are refused. */
FLAME_EXPORT int flame_write_pprof(flame_tree *t, flame_output *o, flame_err *err);

/* ---- Rendering: flame graphs as SVG (interactive), PNG and PDF ----
 * One layout pass computes the rectangles and colours; every format draws the same
 * layout. Options mirror flamegraph.pl's (same names and defaults). A tree with no
 * samples renders as an image saying "ERROR: No valid input provided" (the writer
 * returns 0: flamegraph.pl's CLI then exits 2, and flame-render does the same). */

#define FLAME_RENDER_HASH 0x01             /* --hash: colours from a hash of the name */
#define FLAME_RENDER_RANDOM 0x02           /* --random: random colours (not deterministic) */
#define FLAME_RENDER_REVERSE 0x04          /* reserved: --reverse is flame_reverse_stacks */
#define FLAME_RENDER_INVERTED 0x08         /* --inverted: icicle graph (root at the top) */
#define FLAME_RENDER_FLAMECHART 0x10       /* --flamechart: stacks in input order, not merged */
#define FLAME_RENDER_NEGATE 0x20           /* --negate: swap differential hues */
#define FLAME_RENDER_MINWIDTH_PERCENT 0x40 /* min_width is a % of the total, not pixels */
#define FLAME_RENDER_NO_REMOVED 0x80       /* differential: no panel of the frames found only
                                            * in BEFORE under the graph */

typedef enum flame_diff_mode {
	FLAME_DIFF_SELF = 0, /* colour each frame by its own (self) delta, like flamegraph.pl */
	FLAME_DIFF_TOTAL = 1 /* colour by the inclusive delta */
} flame_diff_mode;

/** A palette map (flamegraph.pl's --cp palette.map): name -> colour, so a name keeps its
 * colour across graphs. Names not in the map get a palette colour and are added. */
typedef struct flame_palette flame_palette;
FLAME_EXPORT flame_palette *flame_palette_new(void);
FLAME_EXPORT void flame_palette_free(flame_palette *p);
/** Read lines `name->rgb(r,g,b)` from `path`; a missing file is not an error (empty map). */
FLAME_EXPORT int flame_palette_load(flame_palette *p, const char *path, flame_err *err);
/** Write the map sorted by name, in the same format (atomically). */
FLAME_EXPORT int flame_palette_save(const flame_palette *p, const char *path, flame_err *err);

/** flamegraph.pl's --nameattr FILE: lines `name<TAB>attr=value<TAB>...`. `title` replaces
 * the frame's tooltip, `href`/`target` make the frame a link; other attributes are written
 * escaped on the frame's group, except event handlers (on*) and raw-markup keys
 * (g_extra, a_extra), which are dropped: attribute values are untrusted text. */
typedef struct flame_nameattr flame_nameattr;
FLAME_EXPORT int flame_nameattr_load(flame_nameattr **out, const char *path, flame_err *err);
FLAME_EXPORT void flame_nameattr_free(flame_nameattr *na);

/* versioned as flame_parse_opts is (see there) */
#define FLAME_RENDER_OPTS_VERSION 1

typedef struct flame_render_opts {
	unsigned version;         /* FLAME_RENDER_OPTS_VERSION */
	const char *title;        /* NULL: "Flame Graph" ("Icicle Graph" when inverted) */
	const char *subtitle;     /* NULL: none */
	const char *notes;        /* NULL: none; kept in the SVG's notes element */
	unsigned width;           /* image width, px (1200) */
	unsigned frame_height;    /* px per frame row (16) */
	double min_width;         /* omit frames narrower than this many px (0.1), or % of the
	                           * total with FLAME_RENDER_MINWIDTH_PERCENT */
	const char *font_type;    /* "Verdana" */
	double font_size;         /* 12 */
	double font_width;        /* average glyph width as a fraction of font_size (0.59) */
	const char *count_name;   /* NULL: the tree's count name, else "samples" */
	const char *name_type;    /* "Function:" */
	const char *colors;       /* palette: hot mem io wakeup chain java js perl python rust
	                           * red green blue aqua yellow purple orange ("hot") */
	const char *bgcolors;     /* NULL: from the palette; yellow blue green grey or #rrggbb */
	const char *search_color; /* "rgb(230,0,230)" */
	const char *encoding;     /* NULL: text is UTF-8; else the iconv name of the encoding of
	                           * names and option text, converted to UTF-8 (SVG: declared) */
	double factor;            /* displayed counts are multiplied by this (1.0) */
	double total;             /* > 0: width of the graph in counts when above the actual
	                           * total (flamegraph.pl's --total); 0: the actual total */
	flame_diff_mode diff_mode;
	flame_order sort;         /* sibling order: by name (flamegraph.pl) or heaviest first */
	unsigned flags;           /* FLAME_RENDER_* */
	uint64_t seed;            /* FLAME_RENDER_RANDOM: seed (0: from the clock) */
	flame_palette *palette;   /* NULL, or a --cp map (new names are added to it) */
	const flame_nameattr *nameattr; /* NULL, or --nameattr */
	flame_warn_fn warn;       /* e.g. "--total is less than the actual total"; NULL = silent */
	void *warn_ud;
	double diff_min_delta;    /* differential: |delta| (counts, the delta that colours the
	                           * frame) below this is drawn as no change (white); 0 = off */
	double diff_per;          /* differential: > 0 adds "; per request before B, after A"
	                           * (the inclusive counts divided by diff_per, printed as
	                           * flame_format_count does: "23.0 ms", "0.250") to tooltips */
} flame_render_opts;

#define FLAME_RENDER_OPTS_INIT                                                            \
	{.version = FLAME_RENDER_OPTS_VERSION, .width = 1200, .frame_height = 16,                \
	 .min_width = 0.1, .font_type = "Verdana",                                             \
	 .font_size = 12.0, .font_width = 0.59, .name_type = "Function:", .colors = "hot",      \
	 .search_color = "rgb(230,0,230)", .factor = 1.0}

/** Set `o` to the defaults of `version` (FLAME_RENDER_OPTS_VERSION), as the _INIT macro
 * does; FLAME_EUSAGE, and `o` untouched, for a version the library does not know. */
FLAME_EXPORT int flame_render_opts_init(flame_render_opts *o, unsigned version);

/** Check option values (palette and bgcolors names, sizes); FLAME_EUSAGE naming the
 * option when one is invalid. The writers call it too. */
FLAME_EXPORT int flame_render_opts_check(const flame_render_opts *o, flame_err *err);

/** Write an interactive, self-contained SVG flame graph of `t` (built as needed, so
 * `t` is not const). Untrusted text (names, title, notes...) is escaped. */
FLAME_EXPORT int flame_write_svg(flame_tree *t, const flame_render_opts *o, flame_output *out,
                                 flame_err *err);
/** The same picture as a PNG of the SVG's pixel size (cairo). */
FLAME_EXPORT int flame_write_png(flame_tree *t, const flame_render_opts *o, flame_output *out,
                                 flame_err *err);
/** The same picture as a vector PDF (cairo). */
FLAME_EXPORT int flame_write_pdf(flame_tree *t, const flame_render_opts *o, flame_output *out,
                                 flame_err *err);
/** One self-contained HTML page holding the whole tree of `t` (no frame pruned; built as
 * needed, so `t` is not const): a canvas flame graph and icicle laid out again at every
 * zoom, search, a sandwich view of a function's callers and callees, a table of every
 * function, differential colours and the frames found only in BEFORE. Of `o` it honours
 * the title, subtitle, notes, count and name type, palette (--colors, --hash, --random,
 * --cp), background and search colours, font, frame height, --inverted (the first view),
 * --sort, --factor, --total and the differential options; the picture's width,
 * --minwidth, --reverse and --flamechart do not apply. Names and texts are embedded
 * compressed and base64-encoded, so none of them is markup; the page shows them as text. */
FLAME_EXPORT int flame_write_html(flame_tree *t, const flame_render_opts *o, flame_output *out,
                                  flame_err *err);

/** Write `t` as `format`, through that format's writer above: pictures are drawn with `o`
 * (NULL: FLAME_RENDER_OPTS_INIT), the stack formats do not read it. FLAME_EUSAGE for a
 * format with no writer. The output is the caller's to commit or abort. */
FLAME_EXPORT int flame_write(flame_tree *t, flame_output_format format, const flame_render_opts *o,
                             flame_output *out, flame_err *err);

#ifdef __cplusplus
}
#endif
#endif
