/* perf script line grammar and frame-name tidying, as pure functions over one line
 * (no state, no allocation beyond a caller-owned scratch buffer): perf.c drives them
 * over the input, and the unit tests call them directly. */
#ifndef FLAME_PARSE_PERF_NAME_H
#define FLAME_PARSE_PERF_NAME_H
#include <stddef.h>
#include <stdint.h>

/* An event (sample header) line: "comm  pid/tid [cpu] secs.frac: period event: rest". */
typedef struct flame__perf_event {
	const char *comm;   /* trimmed; may contain spaces, digits, ':' and '/' */
	size_t comm_len;
	const char *pid;    /* NULL when the line has only a tid */
	size_t pid_len;
	const char *tid;
	size_t tid_len;
	int has_time;
	double time;        /* seconds */
	int has_period;
	int period_overflow; /* the period does not fit 64 bits */
	uint64_t period;
	const char *period_str; /* the digits, for Perl's "0 is false" rule */
	size_t period_len;
	const char *event;  /* name without the final ':' (modifiers kept); NULL if absent */
	size_t event_len;
	const char *rest;   /* after "event:", trimmed: a tracepoint payload or a frame */
	size_t rest_len;
} flame__perf_event;

/** 1 when `s[0..n)` is an event line (filling `ev`), else 0. Lines that start with a
 * TAB never are; lines that start with a space need the "secs.frac:" timestamp. */
int flame__perf_parse_event(const char *s, size_t n, flame__perf_event *ev);

/* A frame line: "TAB addr symbol (dso)", split the way stackcollapse-perf.pl's
 * /^\s*(\w+)\s*(.+) \((\S*)\)/ splits it, or the dso-less "-F ip,sym" form. */
typedef struct flame__perf_frame {
	const char *pc;
	size_t pc_len;
	const char *sym;    /* raw symbol, "+0x.." still attached */
	size_t sym_len;
	const char *dso;    /* NULL when the line has no "(dso)" group */
	size_t dso_len;
} flame__perf_frame;

/** 1 when `s[0..n)` is a frame line, else 0. A line that does not start with white
 * space must start with a hex address and a space. */
int flame__perf_parse_frame(const char *s, size_t n, flame__perf_frame *f);

/** 1 when an unparsed indented line looks like `-F +srcline` output ("file.c:27",
 * "libc.so.6[27b25]"), which is source info to skip silently. */
int flame__perf_is_srcline(const char *s, size_t n);

/* Tidying flags (FLAME_PERF_* from flame.h) plus: */
#define FLAME__PERF_JAVA 0x10000 /* the process name starts with "java" (as the Perl
                                 * tool tests it, pid or not): strip "L" from classes */

/* The names one frame line turns into, root-first (a "->" chain gives several).
 * Each is either a slice of the line or bytes in `buf`. */
typedef struct flame__perf_names {
	char *buf;
	size_t len, cap;
	struct flame__perf_piece {
		const char *ptr; /* NULL: the bytes are buf[off..off+len) */
		size_t off, len;
	} *v;
	size_t n, vcap;
} flame__perf_names;

void flame__perf_names_free(flame__perf_names *nm);
static inline const char *flame__perf_name_ptr(const flame__perf_names *nm, size_t i)
{
	return nm->v[i].ptr ? nm->v[i].ptr : nm->buf + nm->v[i].off;
}

/** Tidy a frame as stackcollapse-perf.pl does: strip "+0x..", drop frames whose symbol
 * starts with '(', split "a->b" into a and b_[i], "[unknown]" -> "[basename(dso)]"
 * (or "[dso <addr>]"), ';' -> ':', cut at the first '(' (except Go "pkg.(*T).m" and
 * "(anonymous namespace)"), remove quotes, "_[k]"/"_[j]" annotations. Fills `out`
 * (reset first); returns the number of names (0: the frame is skipped) or -1 when out
 * of memory. */
int flame__perf_tidy(const flame__perf_frame *f, unsigned flags, flame__perf_names *out);

/** What the annotations see in a frame's dso: 1 a kernel's (--kernel's _[k]), 2 JIT code's
 * (--jit's _[j]), 0 neither. */
int flame__perf_dso_class(const char *dso, size_t n);

/** Target process name from a "# cmdline : perf record ... prog args" line, as the Perl
 * tool finds it: the last argument not starting with '-', without its directory.
 * Returns its length (0 if none) and points *name into `s`. */
size_t flame__perf_cmdline_target(const char *s, size_t n, const char **name);
#endif
