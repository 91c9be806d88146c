/* Source lines of perf.data's user frames, for the sites a tree keeps (parse/perfdata-lines.c):
 * at a file address, from the file's DWARF debug information, the functions whose code
 * holds it, innermost first (an inlined function, then the one it was inlined into, down to
 * the out-of-line function), each with its name, its start line (DW_AT_decl_line) and the
 * line and file the address is at in it: the line table's for the innermost, the inlined
 * call's (DW_AT_call_line, DW_AT_call_file) for the others. Go's functions are named as Go's
 * runtime prints them (a generic's shape as "[...]"). Cached by file and address, bounded.
 * perfdata-sites.c puts them on the frames. */
#ifndef FLAME_PARSE_PERFDATA_LINES_H
#define FLAME_PARSE_PERFDATA_LINES_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"
#include "perfdata-cfi.h"

typedef struct flame__pdlines flame__pdlines;

/* One function at an address. `text` is the frame line perf script would print for it when
 * inlined ("0 NAME (inlined)"), `memo` a word the caller keeps with it (0 at first; cleared
 * when the cache starts again), `tmemo` another (the feed's, for the text). */
typedef struct flame__pdline {
	flame_str fn, sys, file, text;
	int64_t line, start_line;
	uint64_t *memo, *tmemo;
} flame__pdline;

/** NULL when out of memory. */
flame__pdlines *flame__pdlines_new(void);
void flame__pdlines_free(flame__pdlines *l);

/** The functions at ELF address `vaddr` of file `f` (numbered `id`), innermost first: their
 * count into out[0..max) (0: no line information there), valid until the next call; -1
 * when out of memory. */
int flame__pdlines_at(flame__pdlines *l, flame__cfi_file *f, uint32_t id, uint64_t vaddr,
                      flame__pdline *out, int max);
#endif
