/* The parser interface: one per format, each in parse/<format>.c. */
#ifndef FLAME_PARSE_PARSER_H
#define FLAME_PARSE_PARSER_H
#include "../flame.h"
#include "../core/err.h"
#include "../core/input.h"
#include "../core/lines.h"
#include "../core/sink.h"
#include "../core/tree.h"

struct flame__parser {
	const char *name;                             /* "perf" */
	flame_format format;
	int (*probe)(const char *buf, size_t len);    /* 1 yes, 0 no: for auto-detect */
	int (*parse)(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err);
};

extern const struct flame__parser flame__parser_folded;
extern const struct flame__parser flame__parser_perf;
extern const struct flame__parser flame__parser_pprof;
extern const struct flame__parser flame__parser_offcpu;
extern const struct flame__parser flame__parser_jfr;
extern const struct flame__parser flame__parser_svg;
extern const struct flame__parser flame__parser_perfdata; /* with -Dperfdata (FLAME_HAVE_PERFDATA) */
#endif
