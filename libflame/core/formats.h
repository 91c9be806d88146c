/* One descriptor per format: a format's name, extensions and description (the public
 * flame_format_info) with its probe and parser, or its writer, in one entry. The input
 * formats' table is parse/registry.c's, the output formats' write/formats.c's; each is an
 * array indexed by its enum (designated initializers), and both are searched through the
 * lookups here, so both answer the same way. An entry with neither parser nor writer (a
 * format this build does not read, such as perf.data without -Dperfdata) keeps its name for
 * messages and is left out of every list and lookup. */
#ifndef FLAME_CORE_FORMATS_H
#define FLAME_CORE_FORMATS_H
#include "../flame.h"

/* What reads a format (parse/parser.h: each parse/NAME.c defines one). */
struct flame__parser {
	int (*probe)(const char *buf, size_t len); /* 1 yes, 0 no: for auto-detect */
	int (*parse)(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err);
};

typedef int (*flame__writer_fn)(flame_tree *t, const flame_render_opts *o, flame_output *out,
                                flame_err *err);

struct flame__format {
	flame_format_info info;              /* name NULL: no format has this id */
	const struct flame__parser *parser;  /* inputs; NULL when not built */
	flame__writer_fn write;              /* outputs */
};

/* An entry takes part when it has a parser or a writer and `accept` is 0 or shares a flag
 * with it. */

/** The id (index) of the entry called `name`, or -1. */
int flame__format_find(const struct flame__format *tab, size_t n, const char *name,
                       unsigned accept);

/** The id of the entry with the longest extension `path` ends with (case-insensitive),
 * or -1. */
int flame__format_by_path(const struct flame__format *tab, size_t n, const char *path,
                          unsigned accept);

/** The i-th entry that takes part (accept 0), or NULL; and how many there are. */
const flame_format_info *flame__format_nth(const struct flame__format *tab, size_t n, size_t i);
size_t flame__format_available(const struct flame__format *tab, size_t n);

/** The extension of `path`'s base name from its last dot (".gz" of "x.pb.gz"), or NULL when
 * it has none: no dot, a dot file, NULL or "-". */
const char *flame__format_ext(const char *path);

/** The accepted entries' names ("svg, png, pdf"), or their extensions (".svg .png .pdf")
 * when `exts`, into buf (cut to fit; always NUL-terminated). */
void flame__format_list(const struct flame__format *tab, size_t n, unsigned accept, int exts,
                        char *buf, size_t cap);
#endif
