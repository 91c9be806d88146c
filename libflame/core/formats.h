/* Lookups in a table of formats (flame_format_info): by name, by a path's extension, and the
 * lists that name the known ones in errors and help. The tables themselves live with what
 * they describe -- the input formats beside the parsers (parse/registry.c), the output
 * formats beside the writers (write/formats.c) -- and both search them through here. */
#ifndef FLAME_CORE_FORMATS_H
#define FLAME_CORE_FORMATS_H
#include "../flame.h"

/* An entry takes part when `accept` is 0 or shares a flag with it. */

/** The index of the entry called `name`, or -1. */
int flame__format_find(const flame_format_info *tab, size_t n, const char *name, unsigned accept);

/** The index of the entry with the longest extension `path` ends with (case-insensitive),
 * or -1. */
int flame__format_by_path(const flame_format_info *tab, size_t n, const char *path,
                          unsigned accept);

/** The extension of `path`'s base name from its last dot (".gz" of "x.pb.gz"), or NULL when
 * it has none: no dot, a dot file, NULL or "-". */
const char *flame__format_ext(const char *path);

/** The accepted entries' names ("svg, png, pdf"), or their extensions (".svg .png .pdf")
 * when `exts`, into buf (cut to fit; always NUL-terminated). */
void flame__format_list(const flame_format_info *tab, size_t n, unsigned accept, int exts,
                        char *buf, size_t cap);
#endif
