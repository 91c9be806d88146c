/* libflame: parse profiles of many formats into one stack tree, transform it, diff and
 * merge trees, and write them as folded text, pprof, flame graphs (SVG, PNG, PDF, an HTML
 * page) or cost reports.
 *
 * The header is in pipeline order: errors and inputs, parsing and its options, the tree,
 * transforms, diff and merge, outputs and writers, reports, then the format tables and
 * the version. Conventions, which hold for every function:
 *  - Functions that can fail return 0 or a negative flame_status and fill a caller-owned
 *    flame_err (which may be NULL) naming the input and line or byte offset.
 *  - Objects are opaque, made by flame_X_new(&out, ..., err) (inputs and outputs, which
 *    name a file, by _open) and released by flame_X_free (outputs by commit or abort).
 *    Freeing NULL is a no-op. Pointers the library hands back (names, rows, format
 *    entries) stay valid while the object they came from lives.
 *  - Options structs start with `version`: initialize them with their _INIT macro or
 *    _init function. Fields are only ever appended, each addition with a new version
 *    number, and the library reads exactly the fields of the version the caller was
 *    compiled against (the rest take their defaults): a program built against an older
 *    flame.h keeps working with a newer library.
 *  - No global state: objects may be used from different threads as long as one object
 *    is not used by two threads at once. */
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

/* ================================================================ Errors */

typedef enum flame_status {
	FLAME_OK = 0,
	FLAME_ENOMEM = -1,   /* out of memory */
	FLAME_EIO = -2,      /* read/write failure, missing file, directory */
	FLAME_EDATA = -3,    /* input does not fit its format */
	FLAME_EUSAGE = -4,   /* bad argument or option value */
	FLAME_ERANGE = -5,   /* a count or size overflows */
	FLAME_EFORMAT = -6   /* the input format cannot be told */
} flame_status;

/** Where and why something failed. Fixed size, so even out-of-memory is reported without
 * allocating. `line` is 1-based (0: not line-oriented); `offset` is a byte offset into the
 * (decompressed) input, or UINT64_MAX when unknown. */
typedef struct flame_err {
	int code;
	uint64_t line;
	uint64_t offset;
	char source[256];
	char msg[512];
} flame_err;

/** Short text for a flame_status ("out of memory"). Never NULL. */
FLAME_EXPORT const char *flame_strerror(int code);

/** Format `e` as "source:line: msg" (or "source: byte N: msg", or "source: msg"). Writes at
 * most `n` bytes including the NUL; returns the length it wanted. */
FLAME_EXPORT size_t flame_err_format(const flame_err *e, char *buf, size_t n);

/** Called for recoverable problems (a skipped line). `kind` is a stable short key
 * ("perf-unrecognized-line"), so a caller can print each kind once with a count. */
typedef void (*flame_warn_fn)(void *ud, const char *kind, const char *source, uint64_t line,
                              const char *msg);

/** Receives text (`len` bytes, not NUL-terminated); non-zero stops the writer, which
 * returns that value. */
typedef int (*flame_text_fn)(void *ud, const char *text, size_t len);

/** A borrowed byte slice (not NUL-terminated). */
typedef struct flame_str {
	const char *ptr;
	size_t len;
} flame_str;

/* The objects that the sections below pass between them, each described in its section. */
typedef struct flame_input flame_input;   /* Inputs */
typedef struct flame_tree flame_tree;     /* The tree */
typedef struct flame_output flame_output; /* Outputs and writers */
typedef struct flame_diff_report flame_diff_report; /* Reports */

/* ================================================================ Inputs */

/* flame_input: a streamed input, a file, stdin, or memory. gzip (told by its magic bytes)
 * is inflated as it is read; everything downstream sees decompressed bytes. */

/** Open `path` for reading; NULL or "-" means stdin. A directory or an unreadable file
 * fails here with FLAME_EIO naming the path. */
FLAME_EXPORT int flame_input_open(flame_input **out, const char *path, flame_err *err);

/** Read from memory. `data` must outlive the input; `name` names it in errors. */
FLAME_EXPORT int flame_input_open_mem(flame_input **out, const void *data, size_t len,
                                      const char *name, flame_err *err);

FLAME_EXPORT void flame_input_free(flame_input *in);

/** The name used in errors ("<stdin>" for stdin). */
FLAME_EXPORT const char *flame_input_name(const flame_input *in);

/** Read at most `max_bytes` decompressed bytes; 0 restores the defaults (4 GiB inflated from
 * gzip; 1 GiB for formats read whole, such as pprof, counting plain and gzipped bytes
 * alike). Past it reading fails with FLAME_ERANGE naming the input and the byte offset in
 * the stored file, so a gzip bomb stops there. Set before parsing. */
FLAME_EXPORT void flame_input_set_limit(flame_input *in, uint64_t max_bytes);

/** Called as an input is read: `done` bytes consumed (as stored: compressed bytes of a gzip
 * file) of `total` (its size; 0 when unknown, as for a pipe), and `stacks` added to the
 * tree so far (a figure for people; 0 before parsing and for formats read whole). From the
 * thread reading that input. */
typedef void (*flame_progress_fn)(void *ud, uint64_t done, uint64_t total, uint64_t stacks);

/** Report the reading of `in` to `fn` (with `ud`) after each read from now on; NULL stops. */
FLAME_EXPORT void flame_input_set_progress(flame_input *in, flame_progress_fn fn, void *ud);

/* ================================================================ Parsing */

/** The input formats. The table at the end of this header gives each one's name,
 * extensions and description; a build may not read every format (perf.data needs
 * -Dperfdata). */
typedef enum flame_format {
	FLAME_FORMAT_AUTO = 0, /* tell the format from the content */
	FLAME_FORMAT_FOLDED,
	FLAME_FORMAT_PERF,
	FLAME_FORMAT_PPROF,
	FLAME_FORMAT_OFFCPU,
	FLAME_FORMAT_JFR,
	FLAME_FORMAT_SVG,
	FLAME_FORMAT_PERFDATA,
	FLAME_FORMAT_HTML,     /* flame-render's HTML page, read back */
	FLAME_FORMAT_BPFTRACE,
	FLAME_FORMAT_DTRACE,
	FLAME_FORMAT_JFR_BINARY, /* a binary JFR recording (FLAME_FORMAT_JFR reads it too) */
	FLAME_FORMAT_CPUPROFILE, /* Chrome DevTools / V8 .cpuprofile JSON */
	FLAME_FORMAT_SPEEDSCOPE, /* speedscope's JSON file format */
	FLAME_FORMAT_CHROMETRACE, /* Chrome trace events with V8's sampled stacks (ProfileChunk) */
	FLAME_FORMAT_FIREFOX /* the Firefox Profiler's processed JSON (samply) */
} flame_format;

/* perf_flags: stackcollapse-perf.pl's options, and ours (perf script text and perf.data) */
#define FLAME_PERF_PID 0x01            /* comm-PID as the root frame */
#define FLAME_PERF_TID 0x02            /* comm-PID/TID as the root frame */
#define FLAME_PERF_KERNEL 0x04         /* _[k] on kernel frames */
#define FLAME_PERF_JIT 0x08            /* _[j] on JIT frames */
#define FLAME_PERF_ADDRS 0x10          /* [dso <addr>] for unknown symbols */
#define FLAME_PERF_KEEP_TEMPLATES 0x20 /* cut arguments at the first '(' outside <> {} [] */
#define FLAME_PERF_RAW_NAMES 0x40      /* no tidying beyond stackcollapse-perf.pl's */
#define FLAME_PERF_NO_INLINE 0x80      /* perf.data: no inline frames (perf script --no-inline) */

/* offcpu_flags (BCC/libbpf offcputime) */
#define FLAME_OFFCPU_PID 0x01 /* comm-PID as the root frame */
#define FLAME_OFFCPU_TID 0x02 /* comm-TID as the root frame */

/* jfr_flags (JDK Flight Recorder) */
#define FLAME_JFR_SIGNATURES 0x01 /* keep the parameter list: pkg.Class.method(int, String) */
#define FLAME_JFR_THREADS 0x02    /* the thread name as the root frame */
#define FLAME_JFR_LINES 0x04      /* append :LINE where the recording has a line number */
#define FLAME_JFR_ANNOTATE 0x08   /* append _[j] to Java frames (the java palette's key) */

/* pprof_flags (profile.proto). Frames are named as `go tool pprof -traces` names them:
 * Function.name, `[mapping basename]` or `<unknown>` for unsymbolized code; ';' in a name
 * becomes ':'. */
#define FLAME_PPROF_INLINE_ANNOTATE 0x01 /* _[i] on inlined frames */
#define FLAME_PPROF_ADDRESSES 0x02       /* `mapping+0xADDR` / `0xADDR` for code with no function */
#define FLAME_PPROF_LINES 0x04           /* append ` file:line` to each frame */
#define FLAME_PPROF_SYSTEM_NAMES 0x08    /* Function.system_name (mangled) instead of name */
#define FLAME_PPROF_NO_PRUNE 0x10        /* keep the frames drop_frames cuts (Go's PGO does) */

#define FLAME_PARSE_OPTS_VERSION 5

/* time_range: what time_start and time_end are (version 2) */
#define FLAME_TIME_RANGE_PERF 0     /* perf's clock, seconds since boot (perf script's times;
                                     * perf script text and perf.data only, as in 1.0) */
#define FLAME_TIME_RANGE_RELATIVE 1 /* seconds from the input's first sample, any input with
                                     * times (to the millisecond) */
#define FLAME_TIME_RANGE_WALL 2     /* seconds since the Unix epoch (UTC), inputs with a wall
                                     * clock (pprof's time_nanos) */

/** How to read an input. A format's fields are read by that format's parser only; zero
 * means "default" for every field. */
typedef struct flame_parse_opts {
	unsigned version;        /* FLAME_PARSE_OPTS_VERSION */
	flame_format format;     /* FLAME_FORMAT_AUTO: told from the content */
	unsigned threads;        /* worker threads; 0: the number of cores */
	flame_warn_fn warn;      /* skipped lines and other recoverable problems; NULL: silent */
	void *warn_ud;

	/* samples in a time range, for inputs with sample times (perf script text, perf.data):
	 * START <= time <= END, in seconds */
	int has_time_range;
	double time_start, time_end;

	/* samples' labels (pprof): KEY=REGEX or KEY=MIN:MAX */
	const char *const *tags;        /* a sample must match all */
	size_t n_tags;
	const char *const *tags_ignore; /* a sample matching any is dropped */
	size_t n_tags_ignore;
	const char *group_by;           /* the value of this label becomes the root frame */
	/* Two slices of one profile as a diff: a sample matching all of side_tags[0] counts in
	 * column 0 (BEFORE), one matching all of side_tags[1] in column 1 (AFTER), one matching
	 * both in both, neither nowhere; an empty list matches every sample. When either is
	 * given the tree is differential (flame_diff_normalize then applies a diff's options). */
	const char *const *side_tags[2];
	size_t n_side_tags[2];

	unsigned perf_flags;            /* FLAME_PERF_* */
	const char *perf_event_filter;  /* keep samples of this event; NULL: the first one seen */
	unsigned offcpu_flags;          /* FLAME_OFFCPU_* */
	const char *jfr_event;          /* NULL: jdk.ExecutionSample if the input has any, else
	                                 * the first event type with stack traces */
	unsigned jfr_flags;             /* FLAME_JFR_* */
	const char *pprof_sample_type;  /* NULL: default_sample_type, else the last */
	unsigned pprof_flags;           /* FLAME_PPROF_* */

	/* version 2 */
	unsigned time_range;            /* FLAME_TIME_RANGE_*: the clock of has_time_range's
	                                 * START <= time < END (PERF: <= END, as in 1.0). A range
	                                 * that keeps nothing of an input with samples warns
	                                 * "time-range-empty" naming the input's span */
	uint64_t keep_time_ns;          /* > 0: the tree keeps time in buckets of this many ns
	                                 * (flame_tree_keep_time) if it does not yet */

	/* version 3 */
	int keep_sites;                 /* 1: the tree keeps the frames' source sites
	                                 * (flame_tree_keep_sites) when the input has them
	                                 * (pprof) */

	/* version 4 */
	int keep_labels;                /* 1: the tree keeps each sample's labels
	                                 * (flame_tree_keep_labels) when the input has them
	                                 * (pprof's labels; perf's comm and thread; JFR's
	                                 * thread) */

	/* version 5 */
	int keep_sample_types;          /* 1: a pprof profile's other sample types are kept
	                                 * beside the chosen one's, per stack, so the pprof
	                                 * writer gives them all back (inputs of the same types
	                                 * merge theirs; any change the other values cannot
	                                 * follow - a weight rewrite, a time range, a diff,
	                                 * inputs of other types - forgets them) */
} flame_parse_opts;

#define FLAME_PARSE_OPTS_INIT {.version = FLAME_PARSE_OPTS_VERSION, .format = FLAME_FORMAT_AUTO}

/** Set `o` to the defaults of `version`, as the _INIT macro does (for callers that cannot
 * use the macro); FLAME_EUSAGE, and `o` untouched, for a version the library does not
 * know. Every _opts_init below works the same way. */
FLAME_EXPORT int flame_parse_opts_init(flame_parse_opts *o, unsigned version);

/** Check `o` before any input is read (the label expressions and their regexes);
 * FLAME_EUSAGE naming the bad one. */
FLAME_EXPORT int flame_parse_opts_check(const flame_parse_opts *o, flame_err *err);

/** Parse all of `in` and add its stacks to `t`. With FLAME_FORMAT_AUTO the format is told
 * from the content (after gzip is undone): FLAME_EFORMAT when nothing fits (so a caller
 * may read it some other way), FLAME_EDATA saying what the input looks like when it is a
 * known kind no parser reads (a PNG, a perf.data that needs unwinding). `o` NULL: the defaults.
 * `in` may be freed afterwards. Empty input adds nothing and is not an error. */
FLAME_EXPORT int flame_parse(flame_tree *t, flame_input *in, const flame_parse_opts *o,
                             flame_err *err);

/** The format of the start of an input, or FLAME_FORMAT_AUTO when nothing fits. */
FLAME_EXPORT flame_format flame_detect(const void *buf, size_t len);

/** Called once per sample type of a profile, in order; `is_default` marks the one
 * flame_parse takes when pprof_sample_type is NULL. Return non-zero to stop. */
typedef int (*flame_sample_type_fn)(void *ud, const char *type, const char *unit,
                                    int is_default);

/** List the sample types of the pprof profile `in` (consumes `in`). */
FLAME_EXPORT int flame_pprof_sample_types(flame_input *in, flame_sample_type_fn fn, void *ud,
                                          flame_err *err);

/* ================================================================ The tree */

/* A profile: interned frame names, the table of unique stacks with two weight columns, and,
 * built on demand, the node tree. Column 0 holds the counts; a differential tree (`stack
 * before after` input, a diff) has BEFORE in column 0 and AFTER in column 1, and flame
 * graphs take widths from AFTER, as flamegraph.pl does. Counts are uint64 in units of
 * 10^-decimals (flame_tree_decimals): integer inputs have 0 decimals; fractional folded
 * counts raise them (at most 9) and earlier counts are multiplied up exactly, so nothing is
 * rounded silently. Overflow of 64 bits is FLAME_ERANGE. */

FLAME_EXPORT int flame_tree_new(flame_tree **out, flame_err *err);
FLAME_EXPORT void flame_tree_free(flame_tree *t);

/** Add one stack. `frames` are root-first when `leaf_first` is 0. Names are copied; a stack
 * of no frames is ignored. Weights are in the tree's current decimals. */
FLAME_EXPORT int flame_tree_add(flame_tree *t, const flame_str *frames, size_t n,
                                int leaf_first, uint64_t w0, uint64_t w1, flame_err *err);

/** Above about `bytes` of unique-stack storage, sort the stacks and spill them as a run to
 * an anonymous temp file (0, the default: never). flame_write_folded merges the runs as it
 * writes, so collapsing stays in flat memory; any other use reads them back first. */
FLAME_EXPORT int flame_tree_set_memory_limit(flame_tree *t, size_t bytes);

/** Let `t` take stacks of another unit. By default inputs whose units differ (count names
 * such as "nanoseconds" and "bytes", both known) are refused where they meet in one tree
 * (a parser adding to a tree that holds stacks, flame_tree_merge, flame_diff, requests) with
 * FLAME_EDATA naming both; a tree of unknown unit (folded text without a unit line) takes
 * any. With `on` the tree keeps its first unit. Spellings of one unit are the same: samples
 * and count, us and microseconds. */
FLAME_EXPORT void flame_tree_set_ignore_units(flame_tree *t, int on);

/** Add every stack of `src` to `dst` (names re-interned, decimals unified). `src` keeps its
 * stacks (spilled runs of it are read back first, hence not const). */
FLAME_EXPORT int flame_tree_merge(flame_tree *dst, flame_tree *src, flame_err *err);

/** Multiply both columns of every stack by num / 10^decimals exactly (a weight such as 2 or
 * 0.25): the tree's decimals rise by `decimals` instead of rounding. FLAME_ERANGE, and
 * nothing changed, when they would pass 9 or a count would overflow. */
FLAME_EXPORT int flame_tree_weight(flame_tree *t, uint64_t num, unsigned decimals,
                                   flame_err *err);

/** Multiply column `col` of every stack by num/den, rounding down. */
FLAME_EXPORT int flame_tree_scale_column(flame_tree *t, int col, uint64_t num, uint64_t den,
                                         flame_err *err);

/** The number of unique stacks into `*out`. Spilled stacks are read back to count them, so
 * it can fail (FLAME_EIO, FLAME_ENOMEM; `*out` 0). */
FLAME_EXPORT int flame_tree_stack_count(flame_tree *t, size_t *out, flame_err *err);

/** The sum of column `col`, in units of 10^-decimals. */
FLAME_EXPORT uint64_t flame_tree_total(const flame_tree *t, int col);

/** The decimals of the counts: a count c stands for c / 10^decimals. */
FLAME_EXPORT unsigned flame_tree_decimals(const flame_tree *t);

/** 1 when any stack has a non-zero column 1 or the input was differential. */
FLAME_EXPORT int flame_tree_is_differential(const flame_tree *t);

/** What the counts measure ("samples", "nanoseconds", "bytes"), as the parser recorded it;
 * NULL when unknown. */
FLAME_EXPORT const char *flame_tree_count_name(const flame_tree *t);
FLAME_EXPORT int flame_tree_set_count_name(flame_tree *t, const char *name);

/** The wall time the profile covers, in nanoseconds (pprof's duration_nanos; of several
 * inputs added, the longest); 0 when unknown. */
FLAME_EXPORT uint64_t flame_tree_duration(const flame_tree *t);

/** Visit every unique stack (root-first frame names) in unspecified order. `fn` returning a
 * positive value stops the walk, and that value is returned. Spilled stacks are read back
 * first: a failure there is a negative flame_status with `err` filled. */
typedef int (*flame_stack_fn)(void *ud, const flame_str *frames, size_t n, uint64_t w0,
                              uint64_t w1);
FLAME_EXPORT int flame_tree_each_stack(flame_tree *t, flame_stack_fn fn, void *ud,
                                       flame_err *err);

/* ---- Nodes: the merged tree, a child per distinct name. Node 0 is the synthetic root
 * ("all"); a parent's number is below its children's. */

typedef uint32_t flame_node;
#define FLAME_NODE_NONE UINT32_MAX

typedef enum flame_order {
	FLAME_ORDER_NAME = 0,  /* children in bytewise order of their names (folded order) */
	FLAME_ORDER_WEIGHT = 1 /* heaviest child first (column 0 total), ties by name */
} flame_order;

/** Build (or rebuild) the node tree with children in `order`. It stays valid until the
 * stacks change. */
FLAME_EXPORT int flame_tree_build(flame_tree *t, flame_order order, flame_err *err);

/** The number of nodes of the built tree (0 when not built, or changed since). The accessors
 * below are checked: a node out of range (FLAME_NODE_NONE included), a column other than 0
 * or 1, or a tree changed since it was built give an empty name, FLAME_NODE_NONE or 0. */
FLAME_EXPORT size_t flame_tree_node_count(const flame_tree *t);
FLAME_EXPORT flame_str flame_node_name(const flame_tree *t, flame_node n);
FLAME_EXPORT flame_node flame_node_parent(const flame_tree *t, flame_node n);
FLAME_EXPORT flame_node flame_node_first_child(const flame_tree *t, flame_node n);
FLAME_EXPORT flame_node flame_node_next_sibling(const flame_tree *t, flame_node n);
FLAME_EXPORT uint32_t flame_node_depth(const flame_tree *t, flame_node n);
FLAME_EXPORT uint64_t flame_node_self(const flame_tree *t, flame_node n, int col);
FLAME_EXPORT uint64_t flame_node_total(const flame_tree *t, flame_node n, int col);

/* ---- The iterator (ENTER/EXIT, as cmark's): every tree walk is one loop, with no
 * recursion, so depth is unlimited. The struct is the caller's; its fields are read-only. */

typedef enum flame_event {
	FLAME_EVENT_DONE = 0,  /* the walk is over; every later call returns DONE again */
	FLAME_EVENT_ENTER = 1,
	FLAME_EVENT_EXIT = 2,
	FLAME_EVENT_NONE = 3   /* not started: flame_iter_init's state */
} flame_event;

typedef struct flame_iter {
	const flame_tree *tree;
	flame_node node; /* the current node */
	flame_event ev;
	int skip;
} flame_iter;

/** Start at the root of a built tree. */
FLAME_EXPORT void flame_iter_init(flame_iter *it, const flame_tree *t);
/** Advance. DONE at the end (and on every later call), and when the tree is not built or
 * was changed under the walk. */
FLAME_EXPORT flame_event flame_iter_next(flame_iter *it);
/** Do not descend into the node just entered: its EXIT comes next. */
FLAME_EXPORT void flame_iter_skip_children(flame_iter *it);

/* ---- Time: where an input has sample times (perf script text, perf.data, JFR text) or a
 * start and a duration (pprof's time_nanos and duration_nanos), the tree can keep, beside
 * each unique stack, how its weight falls into time buckets. Only when asked: a tree that
 * does not keep time costs what it costs without. Buckets are aligned on multiples of their
 * size on the input's clock, so inputs on one clock (a day of 10-second pprof profiles)
 * make one timeline. Time goes with the stacks through merges, transforms and diffs (a
 * diff's time has BEFORE in column 0 and AFTER in column 1); a tree that keeps time never
 * spills. Times below are nanoseconds; relative ones count from the first sample. */

typedef enum flame_clock {
	FLAME_CLOCK_NONE = 0, /* no time kept, or no input with times yet */
	FLAME_CLOCK_PERF = 1, /* perf's clock (seconds since boot in perf script) */
	FLAME_CLOCK_WALL = 2, /* since the Unix epoch, UTC (pprof) */
	FLAME_CLOCK_DAY = 3   /* time of day, no date (jfr print's startTime) */
} flame_clock;

/** Keep time in buckets of `bucket_ns` from now on (stacks added before have none; runs
 * spilled before are read back). FLAME_EUSAGE for 0, or a tree that keeps time in buckets
 * of another size already. */
FLAME_EXPORT int flame_tree_keep_time(flame_tree *t, uint64_t bucket_ns, flame_err *err);

/** The clock of the tree's time (FLAME_CLOCK_NONE: none kept or seen) and the absolute
 * times of its first and last samples (either pointer may be NULL). The last is the end
 * of a pprof profile's duration. */
FLAME_EXPORT flame_clock flame_tree_time_span(const flame_tree *t, int64_t *first_ns,
                                              int64_t *last_ns);

/** The bucket size (0: no time kept). */
FLAME_EXPORT uint64_t flame_tree_time_bucket(const flame_tree *t);

/** Visit every stack's weight per bucket: `ns` the bucket's start relative to the first
 * sample (the first bucket at 0), in order of stacks, then of time. As flame_tree_each_stack
 * otherwise; a tree without time visits nothing. */
typedef int (*flame_time_fn)(void *ud, const flame_str *frames, size_t n, int64_t ns,
                             uint64_t w0, uint64_t w1);
FLAME_EXPORT int flame_tree_each_time(flame_tree *t, flame_time_fn fn, void *ud,
                                      flame_err *err);

/** Column `col`'s weight in `n` steps of `step_ns` from `start_ns` (relative): out[i] is the
 * weight of the buckets starting in [start + i*step, start + (i+1)*step), of the whole tree
 * (`node` FLAME_NODE_NONE) or of the stacks through `node` of the built tree. */
FLAME_EXPORT int flame_tree_time_series(flame_tree *t, flame_node node, int col, int64_t start_ns,
                                        uint64_t step_ns, uint64_t *out, size_t n,
                                        flame_err *err);

/** Keep only the weight of the buckets starting in [start_ns, end_ns) (relative): the
 * tree becomes that range's profile, stacks with nothing left dropped (copy a tree first
 * with flame_tree_merge into a new one to cut two ranges of it). FLAME_EUSAGE for a tree
 * without time or start > end. */
FLAME_EXPORT int flame_tree_time_cut(flame_tree *t, int64_t start_ns, int64_t end_ns,
                                     flame_err *err);

/* ---- Sites: where an input says where its frames are (pprof's functions, lines and
 * locations), the tree can keep it: for each frame its function, file, line, the
 * function's start line, address, mapping, and whether it was inlined into the frame
 * below it (its caller). Only when asked: a tree that keeps no sites costs what it costs
 * without. With sites, frames of one name at two sites are two frames (two nodes of the
 * built tree, two lines of folded text); merges match frames by name and site, and the
 * pprof writer writes the sites back as Functions, Locations (inlined frames as several
 * Lines of one Location) and Mappings. A tree that keeps sites never spills. */

/** A mapping of the profile: the address range of an executable or library. */
typedef struct flame_mapping {
	uint64_t start, limit, offset;
	flame_str file, build_id;
} flame_mapping;

/** A frame's site. Strings point into the tree; versions only add fields at the end. */
typedef struct flame_site {
	flame_str function;    /* the function's name (pprof's Function.name) */
	flame_str system_name; /* its mangled name, if any */
	flame_str file;
	int64_t line;          /* 0: unknown */
	int64_t start_line;    /* the function's first line; 0: unknown */
	uint64_t address;      /* 0: unknown */
	size_t mapping;        /* flame_tree_mapping's index; 0: none */
	int inlined;           /* inlined into the frame below (shares its address) */
} flame_site;

/** Keep sites from now on (frames added before have none; runs spilled before are read
 * back). */
FLAME_EXPORT int flame_tree_keep_sites(flame_tree *t, flame_err *err);

/** The site of node `n` of the built tree, or NULL (no site, or no sites kept). Valid until
 * the tree changes. */
FLAME_EXPORT const flame_site *flame_node_site(const flame_tree *t, flame_node n);

/** Mapping `i` (1 ..) of the tree's sites, or NULL. */
FLAME_EXPORT const flame_mapping *flame_tree_mapping(const flame_tree *t, size_t i);

/* ---- Labels: where an input gives its samples labels (pprof's string and numeric labels,
 * perf's comm and thread, JFR's thread), the tree can keep them: each sample's labels as one label set,
 * and each stack with its set, so samples of the same frames under other labels are other
 * stacks (in the built tree they merge by name as always; flame_tree_each_stack and folded
 * text see one stack per set). Only when asked: a tree that keeps no labels costs what it
 * costs without. Merges match sets by value; transforms keep them; time, kept per stack,
 * splits by set with the stacks; the pprof writer writes them back. Set 0 is the empty set;
 * a tree that keeps labels never spills. */

/** A label: a key and a string, or a number with its unit. Strings point into the tree
 * (or the caller's memory when adding); versions only add fields at the end. */
typedef struct flame_label {
	flame_str key;
	flame_str str;  /* a string label's value */
	int64_t num;    /* a numeric label's value */
	flame_str unit; /* its unit ("": none) */
	int is_num;
} flame_label;

/** Keep labels from now on (stacks added before have the empty set; runs spilled before are
 * read back). */
FLAME_EXPORT int flame_tree_keep_labels(flame_tree *t, flame_err *err);

/** flame_tree_add with the stack's labels (any order; kept only when the tree keeps labels). */
FLAME_EXPORT int flame_tree_add_labelled(flame_tree *t, const flame_str *frames, size_t n,
                                         int leaf_first, const flame_label *labels,
                                         size_t nlabels, uint64_t w0, uint64_t w1,
                                         flame_err *err);

/** The number of label sets (set 0 included; 0 when the tree keeps none). */
FLAME_EXPORT size_t flame_tree_label_sets(const flame_tree *t);

/** The labels of set `set` into out[0..cap), sorted by key then value: how many the set
 * holds (when more than `cap`, only `cap` are written). Valid until the tree changes. */
FLAME_EXPORT size_t flame_tree_label_set(const flame_tree *t, size_t set, flame_label *out,
                                         size_t cap);

/** Visit every stack with its label set, as flame_tree_each_stack. */
typedef int (*flame_labelled_fn)(void *ud, const flame_str *frames, size_t n, size_t set,
                                 uint64_t w0, uint64_t w1);
FLAME_EXPORT int flame_tree_each_labelled(flame_tree *t, flame_labelled_fn fn, void *ud,
                                          flame_err *err);

/* ================================================================ Transforms */

/** Keep the stacks in which some frame matches `include` (pcre2; NULL: all), then drop those
 * in which some frame matches `exclude` (NULL: none). Each distinct name is matched once.
 * FLAME_EUSAGE with pcre2's message for an invalid pattern. */
FLAME_EXPORT int flame_filter_stacks(flame_tree *t, const char *include, const char *exclude,
                                     flame_err *err);

/** Check that `include` and `exclude` (either may be NULL) compile, before any input is
 * read. */
FLAME_EXPORT int flame_filter_check(const char *include, const char *exclude, flame_err *err);

/** Drop the frames between the root (kept: the process name) and the leaf-most frame whose
 * name equals one of `symbols`, so the stack starts at that frame. */
FLAME_EXPORT int flame_skip_after(flame_tree *t, const char *const *symbols, size_t n,
                                  flame_err *err);

/** Replace 0x[0-9a-fA-F]+ by "0x..." in every frame name (difffolded.pl -s), merging the
 * stacks that become equal. */
FLAME_EXPORT int flame_strip_hex(flame_tree *t, flame_err *err);

/** Reverse every stack (flamegraph.pl's --reverse: the leaf becomes the root). Twice gives
 * the stacks back. */
FLAME_EXPORT int flame_reverse_stacks(flame_tree *t, flame_err *err);

/* The call-tree transforms of the HTML page's bar, the same in every tool (--focus, --drop,
 * --merge, --collapse-recursion): each rewrites every stack, summing those that become
 * equal; a stack left with no frame is dropped. `regex` is PCRE2, unanchored, matched
 * once per distinct name; FLAME_EUSAGE with pcre2's message for an invalid one. */

/** Keep only the stacks through a frame matching `regex`, each starting at the root-most
 * such frame (pprof's focus, rooted at the function). */
FLAME_EXPORT int flame_focus(flame_tree *t, const char *regex, flame_err *err);
/** Drop the stacks through a frame matching `regex`. */
FLAME_EXPORT int flame_drop(flame_tree *t, const char *regex, flame_err *err);
/** Remove the frames matching `regex` from every stack: their time stays with their
 * callers (pprof's hide). "Only my code": a pattern that matches the frames that are not
 * yours, e.g. `^(?!.*myapp)`. */
FLAME_EXPORT int flame_merge_frames(flame_tree *t, const char *regex, flame_err *err);
/** A function met again on a stack takes the stack back to its first call (the frames in
 * between go), so each function is on a stack once. */
FLAME_EXPORT int flame_collapse_recursion(flame_tree *t, flame_err *err);

/* ================================================================ Diff and merge */

/* A diff is an ordinary differential tree: column 0 is BEFORE (normalized), column 1 AFTER.
 * To diff or merge profiles, state what you want with a request (below) and the library
 * chooses how to read; two trees already in memory are diffed by flame_diff and merged by
 * flame_tree_merge (with flame_tree_weight). */

typedef enum flame_diff_norm {
	FLAME_DIFF_NORM_NONE = 0,     /* counts as they are */
	FLAME_DIFF_NORM_TOTAL = 1,    /* difffolded.pl -n: before = int(before * T_after / T_before) */
	FLAME_DIFF_NORM_REQUESTS = 2, /* before served requests_before, after requests_after:
	                               * before = before * requests_after / requests_before */
	FLAME_DIFF_NORM_FRAME = 3     /* stacks through a frame matching frame_regex are the unit:
	                               * before is scaled so that they weigh the same in both */
} flame_diff_norm;

#define FLAME_DIFF_OPTS_VERSION 2

typedef struct flame_diff_opts {
	unsigned version;                         /* FLAME_DIFF_OPTS_VERSION */
	flame_diff_norm norm;
	uint64_t requests_before, requests_after; /* FLAME_DIFF_NORM_REQUESTS, both > 0 */
	const char *frame_regex;                  /* FLAME_DIFF_NORM_FRAME (pcre2) */
	int strip_hex;                            /* flame_strip_hex on both sides first */
	/* version 2: names that differ only by run, made equal in every run before comparing */
	int normalize_names;         /* built-in rules: hex addresses (as strip_hex), lambda and
	                              * closure numbers ($$Lambda$12/0x..., func1.2, {lambda()#3}),
	                              * JIT ids (jitted-PID-N.so, perf-PID.map), Rust hashes
	                              * (::h0123456789abcdef), temporary file names */
	const char *const *renames;  /* "REGEX=REPLACEMENT" (pcre2; $1 names a group; a '=' in
	                              * REGEX is written \=), each applied to every name, in order,
	                              * after the built-in rules */
	size_t n_renames;
} flame_diff_opts;

#define FLAME_DIFF_OPTS_INIT {.version = FLAME_DIFF_OPTS_VERSION, .norm = FLAME_DIFF_NORM_NONE}

FLAME_EXPORT int flame_diff_opts_init(flame_diff_opts *o, unsigned version);

/** Check `o` (request counts, the regex compiles) before any input is read; FLAME_EUSAGE
 * naming the field. */
FLAME_EXPORT int flame_diff_opts_check(const flame_diff_opts *o, flame_err *err);

/** Turn `before` into the differential tree: column 0 stays BEFORE (normalized as `o` says,
 * rounding down), column 1 receives every stack of `after` (its column 0). A stack found on
 * one side only gets 0 on the other. `after` is not changed. Neither input may be
 * differential already (FLAME_EDATA). With FLAME_DIFF_NORM_FRAME, FLAME_EDATA when no frame
 * matches on one side. */
FLAME_EXPORT int flame_diff(flame_tree *before, flame_tree *after, const flame_diff_opts *o,
                            flame_err *err);

/** A diff in one tree (the memory of one profile instead of two): parse AFTER into `t`, call
 * flame_diff_swap (column 0 moves to column 1), parse BEFORE into `t`, then
 * flame_diff_normalize, which applies `o` as flame_diff does. */
FLAME_EXPORT int flame_diff_swap(flame_tree *t, flame_err *err);
FLAME_EXPORT int flame_diff_normalize(flame_tree *t, const flame_diff_opts *o, flame_err *err);

/* ---- Requests: the inputs and what is wanted; the way is chosen inside, and every way
 * gives the same bytes. Sorted folded files (flame-collapse's output) are merged as text
 * with no tree; other folded inputs stream into the result in blocks; other formats are
 * parsed whole, a tree each, and combined. Inputs are read at once, a thread each or
 * `threads` workers. An input is a path (opened when the request runs; NULL or "-": stdin)
 * or the caller's flame_input (left open). Parse options are copied; strings they point to
 * must outlive the request. Warning callbacks may run on threads of their own, one input's
 * at a time. */

typedef struct flame_diff_request flame_diff_request;

/** A diff of BEFORE and AFTER normalized as `o` says (NULL: counts as they are); `o` is
 * checked and copied here (its strings must outlive the request). */
FLAME_EXPORT int flame_diff_request_new(flame_diff_request **out, const flame_diff_opts *o,
                                        flame_err *err);
FLAME_EXPORT void flame_diff_request_free(flame_diff_request *r);

/** Side 0 is BEFORE, 1 AFTER: from `in` when not NULL, else from `path`. `po` NULL: the
 * defaults. */
FLAME_EXPORT int flame_diff_request_input(flame_diff_request *r, int side, const char *path,
                                          flame_input *in, const flame_parse_opts *po,
                                          flame_err *err);

/** Several runs per side: add one more run (a profile of the same build and workload) to
 * side 0 (BEFORE) or 1 (AFTER), read as flame_diff_request_input reads an input;
 * `requests` > 0 is how many requests it served (its counts become cost per request), 0:
 * none (then no run of the request may give any). flame_diff_request_input sets a side's
 * first run; this adds the others. With several runs the diff's tree holds each side's mean
 * run (BEFORE normalized as `o` says, against AFTER's mean) and flame_diff_request_stats
 * measures the noise between runs. */
FLAME_EXPORT int flame_diff_request_run(flame_diff_request *r, int side, const char *path,
                                        flame_input *in, const flame_parse_opts *po,
                                        uint64_t requests, flame_err *err);

/** 2 (the default): both sides read at once, a thread each. 1: one after the other into one
 * tree (AFTER first, then BEFORE beside it). */
FLAME_EXPORT void flame_diff_request_threads(flame_diff_request *r, unsigned threads);

/** flame_input_set_limit for each input opened from a path (0: the defaults). */
FLAME_EXPORT void flame_diff_request_limit(flame_diff_request *r, uint64_t max_bytes);

/** Report the reading of the inputs opened from paths to `fn` as one: bytes and stacks
 * summed, of the sum of their sizes (0 when one is a pipe). One call at a time. */
FLAME_EXPORT void flame_diff_request_progress(flame_diff_request *r, flame_progress_fn fn,
                                              void *ud);

/** Let BEFORE and AFTER differ in units (flame_tree_set_ignore_units); default: refused. */
FLAME_EXPORT void flame_diff_request_ignore_units(flame_diff_request *r, int on);

/** Run the request and write the diff as difffolded.pl's `stack before after` lines, in
 * bytewise order, to `out` (not committed: the caller commits or aborts it). */
FLAME_EXPORT int flame_diff_request_write_folded(flame_diff_request *r, flame_output *out,
                                                 flame_err *err);

/** Run the request and build the differential tree: *tree is the caller's. */
FLAME_EXPORT int flame_diff_request_tree(flame_diff_request *r, flame_tree **tree,
                                         flame_err *err);

/** After a failed run: the side (0 or 1) whose input failed, or -1 when the failure was no
 * one input's. *differential (may be NULL) is 1 when that side is a differential profile,
 * which cannot be one side of a diff. */
FLAME_EXPORT int flame_diff_request_failed_side(const flame_diff_request *r, int *differential);

/** After a run: a side's column 0 total as read, in the result's decimals, before any
 * normalization. */
FLAME_EXPORT uint64_t flame_diff_request_total(const flame_diff_request *r, int side);

typedef struct flame_merge_request flame_merge_request;

FLAME_EXPORT int flame_merge_request_new(flame_merge_request **out, flame_err *err);
FLAME_EXPORT void flame_merge_request_free(flame_merge_request *r);

/** Add an input, from `in` or `path` (as flame_diff_request_input), its counts multiplied
 * by weight / 10^weight_decimals exactly (weight 0: 1). Inputs from paths are opened 16 at
 * a time, so any number can be merged. */
FLAME_EXPORT int flame_merge_request_input(flame_merge_request *r, const char *path,
                                           flame_input *in, const flame_parse_opts *po,
                                           uint64_t weight, unsigned weight_decimals,
                                           flame_err *err);

/** Workers that parse inputs whole (0, the default: 2). */
FLAME_EXPORT void flame_merge_request_threads(flame_merge_request *r, unsigned threads);
FLAME_EXPORT void flame_merge_request_limit(flame_merge_request *r, uint64_t max_bytes);
FLAME_EXPORT void flame_merge_request_progress(flame_merge_request *r, flame_progress_fn fn,
                                               void *ud);

/** Before summing, scale every input, column by column, to the largest input's total
 * (rounding each stack down); weights apply after. Every input is then read whole. */
FLAME_EXPORT void flame_merge_request_normalize(flame_merge_request *r, int on);

/** Let the inputs differ in units (flame_tree_set_ignore_units); default: refused. */
FLAME_EXPORT void flame_merge_request_ignore_units(flame_merge_request *r, int on);

/** Run the request and write the sum as folded text to `out` (not committed). */
FLAME_EXPORT int flame_merge_request_write_folded(flame_merge_request *r, flame_output *out,
                                                  flame_err *err);

/** Run the request and build the sum as a tree: *tree is the caller's. */
FLAME_EXPORT int flame_merge_request_tree(flame_merge_request *r, flame_tree **tree,
                                          flame_err *err);

/* ================================================================ Outputs and writers */

/* flame_output: a buffered output, stdout or a file written atomically (a temp file renamed
 * over `path` on commit, removed on abort), so a failure never leaves a half-written file. */

/** `path` NULL or "-": stdout. */
FLAME_EXPORT int flame_output_open(flame_output **out, const char *path, flame_err *err);
FLAME_EXPORT int flame_output_write(flame_output *o, const void *data, size_t len,
                                    flame_err *err);
/** Flush, close and rename into place; frees `o`. */
FLAME_EXPORT int flame_output_commit(flame_output *o, flame_err *err);
/** Remove the temp file (if any) and free `o`. */
FLAME_EXPORT void flame_output_abort(flame_output *o);
/** The temp file's path (NULL for stdout), for a signal handler to unlink. */
FLAME_EXPORT const char *flame_output_temp_path(const flame_output *o);

/** The output formats; the table at the end of this header gives each one's name,
 * extensions, description and kind. */
typedef enum flame_output_format {
	FLAME_OUTPUT_NONE = 0, /* none named: a path with no extension, or "-" */
	FLAME_OUTPUT_FOLDED,
	FLAME_OUTPUT_PPROF,
	FLAME_OUTPUT_SVG,
	FLAME_OUTPUT_PNG,
	FLAME_OUTPUT_PDF,
	FLAME_OUTPUT_HTML,
	FLAME_OUTPUT_SPEEDSCOPE, /* speedscope's JSON file format */
	FLAME_OUTPUT_CPUPROFILE  /* Chrome DevTools / V8 .cpuprofile */
} flame_output_format;

/* What an output format is (flame_format_info.flags), so a tool takes every format of the
 * kinds it writes. */
#define FLAME_OUTPUT_STACKS 0x01  /* the stacks themselves, which flame_parse reads back */
#define FLAME_OUTPUT_PICTURE 0x02 /* a flame graph drawn with flame_render_opts */
#define FLAME_OUTPUT_DIFF 0x04    /* shows a differential tree as a diff */

/** Folded stacks, one line per unique stack, in bytewise order of the stack text
 * (stackcollapse-perf.pl's order); `stack before after` lines for a differential tree.
 * Counts are printed with the tree's decimals. */
FLAME_EXPORT int flame_write_folded(flame_tree *t, flame_output *out, flame_err *err);

/** A gzipped profile.proto: one sample per unique stack, one function and location per
 * distinct frame name, the sample type from the tree's count name ("samples/count" when
 * unknown); a differential tree gets two sample types, before and after. Fractional counts
 * are refused. */
FLAME_EXPORT int flame_write_pprof(flame_tree *t, flame_output *out, flame_err *err);

/** speedscope's JSON file format: one frame per distinct name, one sampled profile whose
 * samples are the unique stacks with their counts (with the tree's decimals), in the tree's
 * unit where speedscope has it (nanoseconds to seconds, bytes; else "none"); a
 * differential tree gives two profiles, "before" and "after". */
FLAME_EXPORT int flame_write_speedscope(flame_tree *t, flame_output *out, flame_err *err);

/** Chrome DevTools' and V8's CPU profile JSON (.cpuprofile): the node tree, and each node
 * with self time as one sample lasting it, in microseconds (a differential tree: its AFTER
 * column). FLAME_EUSAGE when the counts are not time (samples, bytes). */
FLAME_EXPORT int flame_write_cpuprofile(flame_tree *t, flame_output *out, flame_err *err);

/* ---- Flame graphs: one layout computes the rectangles and colours, and every picture
 * format draws the same layout. The options are flamegraph.pl's, with its defaults. A tree
 * with no samples is drawn as an image saying so, as flamegraph.pl does. */

/* flame_render_opts.flags */
#define FLAME_RENDER_HASH 0x01             /* colours from a hash of the name */
#define FLAME_RENDER_RANDOM 0x02           /* random colours (not deterministic) */
/* 0x04 is not used: reversed stacks are flame_reverse_stacks' */
#define FLAME_RENDER_INVERTED 0x08         /* an icicle graph (the root at the top) */
#define FLAME_RENDER_FLAMECHART 0x10       /* stacks in input order, not merged */
#define FLAME_RENDER_NEGATE 0x20           /* swap the differential hues */
#define FLAME_RENDER_MINWIDTH_PERCENT 0x40 /* min_width is a % of the total, not pixels */
#define FLAME_RENDER_NO_REMOVED 0x80       /* differential: no panel of the frames found only
                                            * in BEFORE under the graph */
#define FLAME_RENDER_HEATMAP 0x100         /* SVG and PNG: instead of the graph, the time
                                            * heatmap of a tree that keeps time (FlameScope's:
                                            * a column per second, rows the offsets within
                                            * it, colour the weight; a timeline when the
                                            * recording is too short or too long for it) */

typedef enum flame_diff_mode {
	FLAME_DIFF_SELF = 0, /* colour each frame by its own (self) change, as flamegraph.pl */
	FLAME_DIFF_TOTAL = 1 /* colour by the inclusive change */
} flame_diff_mode;

/** A palette map (flamegraph.pl's palette.map): name -> colour, so a name keeps its colour
 * across graphs. Names not in the map get a palette colour and are added to it. */
typedef struct flame_palette flame_palette;
FLAME_EXPORT int flame_palette_new(flame_palette **out, flame_err *err);
FLAME_EXPORT void flame_palette_free(flame_palette *p);
/** Add the lines `name->rgb(r,g,b)` of `path`; a missing file is not an error (an empty
 * map), a bad line is FLAME_EDATA naming file and line. */
FLAME_EXPORT int flame_palette_load(flame_palette *p, const char *path, flame_err *err);
/** Write the map, sorted by name, in the same format (atomically). */
FLAME_EXPORT int flame_palette_save(const flame_palette *p, const char *path, flame_err *err);

/** Attributes per frame name, from lines `name<TAB>attr=value<TAB>...` (flamegraph.pl's
 * nameattr file): `title` replaces the tooltip, `href`/`target` make the frame a link,
 * other attributes are written escaped on the frame, except event handlers (on*) and raw
 * markup keys (g_extra, a_extra), which are dropped: the values are untrusted text. */
typedef struct flame_nameattr flame_nameattr;
FLAME_EXPORT int flame_nameattr_new(flame_nameattr **out, const char *path, flame_err *err);
FLAME_EXPORT void flame_nameattr_free(flame_nameattr *na);

#define FLAME_RENDER_OPTS_VERSION 2

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
	const char *encoding;     /* NULL: names and texts are UTF-8; else the iconv name of their
	                           * encoding, converted to UTF-8 */
	double factor;            /* displayed counts are multiplied by this (1.0) */
	double total;             /* > 0: the graph's width in counts when above the actual
	                           * total; 0: the actual total */
	flame_diff_mode diff_mode;
	flame_order sort;         /* sibling order: by name (flamegraph.pl) or heaviest first */
	unsigned flags;           /* FLAME_RENDER_* */
	uint64_t seed;            /* FLAME_RENDER_RANDOM's seed (0: from the clock) */
	flame_palette *palette;   /* NULL, or a palette map (new names are added to it) */
	const flame_nameattr *nameattr; /* NULL, or attributes per frame name */
	flame_warn_fn warn;       /* e.g. "total is less than the actual total"; NULL: silent */
	void *warn_ud;
	double diff_min_delta;    /* differential: a change (in counts) below this is drawn as no
	                           * change; 0: off */
	double diff_per;          /* differential: > 0 adds the inclusive counts divided by this
	                           * (a cost per request) to the details of each frame */
	/* version 2 */
	const flame_diff_report *diff_report; /* differential: a report of this tree with
	                           * statistics (flame_diff_request_stats): a frame whose
	                           * function's change is within noise is drawn as no change,
	                           * tooltips give the change's interval and q-value, and a
	                           * legend says so; NULL: none */
} flame_render_opts;

#define FLAME_RENDER_OPTS_INIT                                                               \
	{.version = FLAME_RENDER_OPTS_VERSION, .width = 1200, .frame_height = 16,                \
	 .min_width = 0.1, .font_type = "Verdana", .font_size = 12.0, .font_width = 0.59,        \
	 .name_type = "Function:", .colors = "hot", .search_color = "rgb(230,0,230)",            \
	 .factor = 1.0}

FLAME_EXPORT int flame_render_opts_init(flame_render_opts *o, unsigned version);

/** Check the values of `o` (palette and background names, sizes); FLAME_EUSAGE naming the
 * field. The writers check too. */
FLAME_EXPORT int flame_render_opts_check(const flame_render_opts *o, flame_err *err);

/** An interactive, self-contained SVG flame graph of `t` (built as needed, hence not
 * const). Untrusted text (names, title, notes) is escaped. */
FLAME_EXPORT int flame_write_svg(flame_tree *t, const flame_render_opts *o, flame_output *out,
                                 flame_err *err);
/** The same picture as a PNG of the SVG's pixel size. */
FLAME_EXPORT int flame_write_png(flame_tree *t, const flame_render_opts *o, flame_output *out,
                                 flame_err *err);
/** The same picture as a vector PDF. */
FLAME_EXPORT int flame_write_pdf(flame_tree *t, const flame_render_opts *o, flame_output *out,
                                 flame_err *err);
/** One self-contained HTML page holding the whole tree (no frame pruned): a flame graph and
 * icicle drawn again at every zoom, search, callers and callees of a function, a table of
 * every function, differential colours. Of `o` it honours the texts, palette, colours,
 * font, frame height, inverted (the first view), sort, factor, total and the differential
 * fields; width, min_width and flamechart do not apply. Names are embedded as
 * compressed data, never as markup. */
FLAME_EXPORT int flame_write_html(flame_tree *t, const flame_render_opts *o, flame_output *out,
                                  flame_err *err);

/** Write `t` as `format` through that format's writer: pictures are drawn with `o` (NULL:
 * the defaults), the stack formats do not read it. FLAME_EUSAGE for a format with no
 * writer. The output is the caller's to commit or abort. */
FLAME_EXPORT int flame_write(flame_tree *t, flame_output_format format,
                             const flame_render_opts *o, flame_output *out, flame_err *err);

/* ================================================================ Reports */

/** `v` counts of `unit` (a count name; NULL: plain counts) in units of 10^-decimals, as
 * people read them: time as "1.42 s", "830 ms", "12.5 us" (three significant digits), bytes
 * as "3.20 MiB", other counts exactly with thousands separators ("12,345", "2.5"); never
 * scientific notation. Writes at most `cap` bytes with the NUL; returns the length
 * written. The _delta form prints after - before with its sign ("+830 ms"). */
FLAME_EXPORT size_t flame_amount_print(char *buf, size_t cap, uint64_t v, unsigned decimals,
                                       const char *unit);
FLAME_EXPORT size_t flame_amount_print_delta(char *buf, size_t cap, uint64_t before,
                                             uint64_t after, unsigned decimals,
                                             const char *unit);

/* ---- The diff report: what each function costs on either side of a differential tree */

/** One function (distinct frame name): self = where it is the leaf, total = the stacks it
 * appears in (once per stack, however deep its recursion); [0] before, [1] after. Later
 * versions only add fields at the end: read rows through flame_diff_report_row. */
typedef struct flame_diff_row {
	flame_str name;   /* points into the tree */
	uint64_t self[2];
	uint64_t total[2];
	size_t inside;    /* after flame_diff_report_attribute: the row of a callee that
	                   * carries this row's total change, else SIZE_MAX */
} flame_diff_row;

/** The rows of differential tree `t`, one per name that occurs in a stack, in no particular
 * order. `t` must outlive the report. */
FLAME_EXPORT int flame_diff_report_new(flame_diff_report **out, flame_tree *t, flame_err *err);
FLAME_EXPORT void flame_diff_report_free(flame_diff_report *r);
FLAME_EXPORT size_t flame_diff_report_count(const flame_diff_report *r);
/** Row `i`, or NULL past the end. */
FLAME_EXPORT const flame_diff_row *flame_diff_report_row(const flame_diff_report *r, size_t i);

/** Callers grow with their callees: when a function's total changed by more than `limit`
 * (counts) but all of that change beyond `limit` lies inside one callee that changed the
 * same way (the callee is only ever called under it), set its `inside` to that callee's
 * row, so a report can name where the change is rather than every caller up to the root.
 * Considers the 512 largest total changes of the functions `which` names; each call starts
 * afresh. */
#define FLAME_DIFF_ATTRIBUTE_ALL 0u
#define FLAME_DIFF_ATTRIBUTE_REMOVED 1u /* only those with nothing after: a removed caller
                                           * is named by the removed callee that carries it */
FLAME_EXPORT int flame_diff_report_attribute(flame_diff_report *r, double limit, unsigned which,
                                             flame_err *err);

/* ---- Noise: whether a change is real. Sampled profiles differ from run to run; a
 * report's statistics say, for each function's self and total, how much it changed, with a
 * confidence interval and a q-value, from the runs of each side.
 *
 * Each run's value of a function is its count divided by the run's unit: 1 (counts as they
 * are), the run's total (with FLAME_DIFF_NORM_TOTAL: its share), its requests, or the
 * weight of the stacks through --normalize-frame's frame. The change is AFTER's mean value
 * minus BEFORE's, in % of BEFORE's mean total in the same unit. Its variance on each side
 * is the variance between the side's runs over their number (with n - 1 degrees of
 * freedom), but never below the sampling variance, which is known (a side of one run has
 * only that): a sample of weight w (the period: a CPU
 * profile's counts are periods times samples; the profile's own period when it counted
 * samples of one, as Go's CPU profiles do, else estimated per run as the 5th percentile of
 * its stack weights) makes a count c Poisson (variance w*c), a share binomial (w*c*(U-c)/U^3);
 * an absent function counts as one sample. The test is Welch's t on the two means
 * (Welch-Satterthwaite degrees of freedom; a side of one run has known variance, so one run
 * on both sides is a z-test), not a permutation test: with 5 runs a side a permutation test
 * cannot give a p-value below 2/252, which no false-discovery control over thousands of
 * functions lets through. The p-values of every test (self and total of every function
 * with a count) are adjusted by Benjamini-Hochberg into q-values: among the changes with
 * q <= alpha, at most a fraction alpha are expected to be noise. Intervals are at level
 * 1 - alpha, unadjusted (a significant change's interval never holds 0). */
typedef struct flame_diff_stat {
	double change[2];   /* [0] self, [1] total: % of BEFORE's mean total */
	double low[2], high[2]; /* the interval of change */
	double p[2], q[2];  /* two-sided p-value, Benjamini-Hochberg q-value (1: not tested) */
	int significant[2]; /* q <= alpha */
} flame_diff_stat;

/** Statistics for every row of `rep`, a report of the tree `req` made (flame_diff_request_
 * tree, whose tree the report was made from; its runs must still be in `req`), at level
 * `alpha` (0 < alpha < 1; the tools' default is 0.01). Replaces earlier statistics. */
FLAME_EXPORT int flame_diff_request_stats(flame_diff_request *req, flame_diff_report *rep,
                                          double alpha, flame_err *err);

/** The same for a report of a differential tree alone (a 3-column file, a diff by labels):
 * its columns are one run per side, so only sampling noise is known; `o` (NULL: counts as
 * they are) says how the tree was normalized, so each run's unit is known, and
 * `before_raw` is BEFORE's total before that (0: as in the tree), so counts of samples
 * keep their weight. */
FLAME_EXPORT int flame_diff_report_stats(flame_diff_report *rep, const flame_diff_opts *o,
                                         uint64_t before_raw, double alpha, flame_err *err);

/** Row `i`'s statistics, or NULL past the end or before any were computed. Later versions
 * only add fields at the end. */
FLAME_EXPORT const flame_diff_stat *flame_diff_report_stat(const flame_diff_report *rep,
                                                           size_t i);

/** 1 with the runs each side had (BEFORE, AFTER) and alpha when the report has
 * statistics, else 0. */
FLAME_EXPORT int flame_diff_report_runs(const flame_diff_report *rep, unsigned runs[2],
                                        double *alpha);

#define FLAME_TOP_OPTS_VERSION 2

typedef struct flame_top_opts {
	unsigned version;    /* FLAME_TOP_OPTS_VERSION */
	uint64_t rows;       /* functions per table; 0: all */
	double min_delta;    /* changes smaller than this (counts) are left out */
	uint64_t before_raw; /* BEFORE's total as read, before normalization, for the header */
	const char *norm;    /* how BEFORE was normalized, for the header; NULL: not */
	/* version 2 */
	int format;          /* a flame_cost_format: FLAME_COST_TEXT (0, the tables), CSV or JSON
	                      * (every function with a change, one row each, exact counts, the
	                      * statistics when the report has them) */
} flame_top_opts;

#define FLAME_TOP_OPTS_INIT {.version = FLAME_TOP_OPTS_VERSION}

FLAME_EXPORT int flame_top_opts_init(flame_top_opts *o, unsigned version);

/** The tables of what changed: a header with both totals, then the functions whose self
 * cost grew most, shrank most, and whose total cost grew and shrank, at most o->rows each
 * (before, after, delta, change, name). A row attributed to a callee (flame_diff_report_
 * attribute) stays in the total tables, marked "(contains NAME)": a table of what grew
 * never hides a function that grew. With statistics, each row has its change in % of
 * BEFORE's total with its interval and q-value, and a change within noise is marked so. */
FLAME_EXPORT int flame_write_top(const flame_diff_report *r, const flame_top_opts *o,
                                 flame_text_fn fn, void *ud, flame_err *err);

/** The regression gate: every function whose self or total cost grew by more than
 * `limit_pct` % of BEFORE's total, largest first, one line each to `fn` ("NAME: self 1.2 s
 * -> 1.5 s (+300 ms, 5.00% of the before total)", no newline). When the report has
 * statistics a growth counts only when it is also significant (its q-value at most the
 * statistics' alpha), and the line gives the change with its interval and q-value
 * ("... +5.00% of the before total [+3.10%, +6.90%], q=0.0004"). Returns how many (0:
 * none) or a negative status. */
FLAME_EXPORT int flame_diff_report_gate(const flame_diff_report *r, double limit_pct,
                                        flame_text_fn fn, void *ud, flame_err *err);

/* ---- Cost reports: what each function, root, label value or team costs, as `go tool
 * pprof -top` and beyond it: average cores and money for CPU time. */

typedef enum flame_cost_by {
	FLAME_COST_BY_FUNCTION = 0, /* each distinct frame name: self where it is the leaf, total
	                             * in the stacks it appears in (once per stack) */
	FLAME_COST_BY_ROOT = 1,     /* the root frame of each stack (comm, thread, or a label's
	                             * value with group_by): self = total */
	FLAME_COST_BY_OWNER = 2     /* teams of a flame_owners: each function's self cost goes to
	                             * the team of the first line matching it ("(no owner)" when
	                             * none does), so every sample counts once; total = the stacks
	                             * with some frame of the team */
} flame_cost_by;

typedef enum flame_cost_sort { FLAME_COST_SORT_SELF = 0, FLAME_COST_SORT_TOTAL = 1 } flame_cost_sort;

typedef enum flame_cost_format {
	FLAME_COST_TEXT = 0, /* an aligned table for people (1.42 s, 3.20 MiB, 12.5 cores) */
	FLAME_COST_CSV = 1,  /* RFC 4180, exact numbers */
	FLAME_COST_JSON = 2  /* one object, the same columns per row */
} flame_cost_format;

/** Teams by function name, from lines `REGEX<TAB>TEAM` (pcre2; blank lines and lines
 * starting with '#' are skipped), tried in order, the first match wins. FLAME_EDATA naming
 * file and line for a line without a tab or team, FLAME_EUSAGE for a bad regex. */
typedef struct flame_owners flame_owners;
FLAME_EXPORT int flame_owners_new(flame_owners **out, const char *path, flame_err *err);
FLAME_EXPORT void flame_owners_free(flame_owners *ow);

#define FLAME_COST_OPTS_VERSION 1

typedef struct flame_cost_opts {
	unsigned version;            /* FLAME_COST_OPTS_VERSION */
	flame_cost_by by;
	const char *group_name;      /* heading of the name column; NULL: function, root or owner */
	const flame_owners *owners;  /* FLAME_COST_BY_OWNER; must outlive the report */
	flame_cost_sort sort;
	uint64_t rows;               /* rows written; 0: all */
	double frequency;            /* Hz: sample counts are CPU time, 1/frequency s each */
	double window;               /* seconds of wall time the profile covers; 0: the profile's
	                              * own (flame_tree_duration), else unknown */
	double core_price;           /* price of one core for an hour; 0: no cost column */
} flame_cost_opts;

#define FLAME_COST_OPTS_INIT {.version = FLAME_COST_OPTS_VERSION}

FLAME_EXPORT int flame_cost_opts_init(flame_cost_opts *o, unsigned version);

/** One group of a cost report, in the tree's unit and decimals. Later versions only add
 * fields at the end: read rows through flame_cost_row. */
typedef struct flame_cost_row {
	flame_str name; /* points into the tree (or the owners) */
	uint64_t self, total;
} flame_cost_row;

/** The groups of `t` (column 0; AFTER of a differential tree) with what their counts cost.
 * CPU time is a time unit of sample type "cpu" (perf cpu-clock, pprof CPU profiles), or
 * sample counts (not event counts such as cycles) with o->frequency; cores need a window
 * too; bytes never get cores. FLAME_EUSAGE for bad options (owners missing, negative
 * numbers). `t` must outlive the report. */
typedef struct flame_cost_report flame_cost_report;
FLAME_EXPORT int flame_cost_report_new(flame_cost_report **out, flame_tree *t,
                                       const flame_cost_opts *o, flame_err *err);
FLAME_EXPORT void flame_cost_report_free(flame_cost_report *c);

/** The number of groups, and group `i` in o->sort's order (largest first, ties by name
 * bytewise), NULL past the end. */
FLAME_EXPORT size_t flame_cost_report_count(const flame_cost_report *c);
FLAME_EXPORT const flame_cost_row *flame_cost_report_row(const flame_cost_report *c, size_t i);

/** The report (at most o->rows groups) as text, CSV or JSON to `fn`. Names are escaped for
 * each (control bytes as \xNN in text, quoted in CSV, JSON strings with invalid UTF-8 as
 * U+FFFD). */
FLAME_EXPORT int flame_write_cost(const flame_cost_report *c, flame_cost_format f,
                                  flame_text_fn fn, void *ud, flame_err *err);

/** The CI threshold: every group whose self share of the total exceeds `share_pct` %, one
 * line each to `fn` ("NAME: self 1.42 s, 42.00% of 3.38 s", no newline), largest first.
 * Returns how many (0: none) or a negative status. */
FLAME_EXPORT int flame_cost_report_gate(const flame_cost_report *c, double share_pct,
                                        flame_text_fn fn, void *ud, flame_err *err);

/* ================================================================ Formats and version */

/* The input formats flame_parse reads and the output formats flame_write writes, each with
 * its name, file extensions and a line saying what it is, so a program builds its choices,
 * help and checks of file names from the library: a format added to the library reaches
 * every such program. */

/** One format. The library owns it (never freed); later versions only add fields at the
 * end, so read the fields through the pointer. */
typedef struct flame_format_info {
	const char *name;               /* "pprof" */
	const char *const *extensions;  /* file name endings, the usual one first, NULL-ended */
	const char *description;        /* one line */
	int id;                         /* a flame_format (inputs) or flame_output_format */
	unsigned flags;                 /* outputs: FLAME_OUTPUT_STACKS...; inputs: 0 */
} flame_format_info;

/** The input formats this build reads, in flame_format order (FLAME_FORMAT_AUTO is none):
 * entry `i`, NULL for i >= the count. */
FLAME_EXPORT size_t flame_input_format_count(void);
FLAME_EXPORT const flame_format_info *flame_input_format_info(size_t i);

/** The input format called `name` into *out ("auto": FLAME_FORMAT_AUTO); FLAME_EUSAGE naming
 * the known ones when there is none, and *out untouched. */
FLAME_EXPORT int flame_input_format_find(const char *name, flame_format *out, flame_err *err);

/** The input format whose extension `path` ends with (".pb.gz", case-insensitive; the
 * longest wins), or FLAME_FORMAT_AUTO: a hint, since flame_parse tells formats from the
 * content. */
FLAME_EXPORT flame_format flame_input_format_from_path(const char *path);

/** The name of input format `f` ("auto" for FLAME_FORMAT_AUTO; a format this build does not
 * read keeps its name), NULL for a number that is no format. */
FLAME_EXPORT const char *flame_input_format_name(flame_format f);

/** The output formats, in the order tools list them: entry `i`, NULL for i >= the count. */
FLAME_EXPORT size_t flame_output_format_count(void);
FLAME_EXPORT const flame_format_info *flame_output_format_info(size_t i);

/** The output format called `name` among those with a flag in `accept` (0: all) into *out;
 * FLAME_EUSAGE naming the accepted ones when there is none. */
FLAME_EXPORT int flame_output_format_find(const char *name, unsigned accept,
                                          flame_output_format *out, flame_err *err);

/** The output format `path` names by its extension (the longest that matches,
 * case-insensitive) among those with a flag in `accept` (0: all). NULL, "-" and names with
 * no extension give FLAME_OUTPUT_NONE (the caller's default); an extension no accepted
 * format has is FLAME_EUSAGE naming the known ones. */
FLAME_EXPORT int flame_output_format_from_path(const char *path, unsigned accept,
                                               flame_output_format *out, flame_err *err);

/* The version this program is compiled against; meson.build checks it is the project's. */
#define FLAME_VERSION_MAJOR 1
#define FLAME_VERSION_MINOR 0
#define FLAME_VERSION_PATCH 0
#define FLAME_VERSION "1.0.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, for #if checks */
#define FLAME_VERSION_NUMBER \
	(FLAME_VERSION_MAJOR * 10000 + FLAME_VERSION_MINOR * 100 + FLAME_VERSION_PATCH)

/** The version of the library loaded at run time ("1.0.0"). */
FLAME_EXPORT const char *flame_version(void);

#ifdef __cplusplus
}
#endif
#endif
