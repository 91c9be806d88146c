/* The parser interface: one per format, each in parse/<format>.c. */
#ifndef FLAME_PARSE_PARSER_H
#define FLAME_PARSE_PARSER_H
#include "../flame.h"
#include "../core/err.h"
#include "../core/formats.h"
#include "../core/input.h"
#include "../core/lines.h"
#include "../core/sink.h"
#include "../core/tree.h"

/* struct flame__parser (probe and parse) is core/formats.h's, the descriptor's half that
 * reads; parse/registry.c's table gives each its name, extensions and description. */
/** flame_parse_opts_check's pprof part: the label expressions of `o` (current layout) compile. */
int flame__pprof_check_tags(const flame_parse_opts *o, flame_err *err);

/** A caller's parse options (NULL: the defaults) as the current layout (core/version.h). */
int flame__parse_opts_read(flame_parse_opts *dst, const flame_parse_opts *src, flame_err *err);

/** Parse `in` with `parser` as `o` says, time included (parse/time-range.c): the tree
 * keeps time when o->keep_time_ns asks, and a relative or wall-clock time range reads the
 * input into a tree of its own that keeps time, cuts it and adds what is left to `t`. */
int flame__parse_timed(flame_tree *t, flame_input *in, const struct flame__parser *parser,
                       const flame_parse_opts *o, flame_err *err);

extern const struct flame__parser flame__parser_folded;
extern const struct flame__parser flame__parser_perf;
extern const struct flame__parser flame__parser_pprof;
extern const struct flame__parser flame__parser_offcpu;
extern const struct flame__parser flame__parser_jfr;
extern const struct flame__parser flame__parser_jfr_binary;
extern const struct flame__parser flame__parser_svg;
extern const struct flame__parser flame__parser_html;
extern const struct flame__parser flame__parser_bpftrace;
extern const struct flame__parser flame__parser_dtrace;
extern const struct flame__parser flame__parser_cpuprofile;
extern const struct flame__parser flame__parser_speedscope;
extern const struct flame__parser flame__parser_chrometrace;
extern const struct flame__parser flame__parser_firefox;
extern const struct flame__parser flame__parser_perfdata; /* with -Dperfdata (FLAME_HAVE_PERFDATA) */
#endif
