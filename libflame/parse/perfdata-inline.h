/* Inline frames of perf.data's unwound user frames (parse/perfdata-inline.c): the
 * functions whose code holds an address, from the file's DWARF debug information, as
 * perf script 6.1 gets them from `addr2line -i`: the innermost inlined function first,
 * the function it was inlined into last. Cached by file and address. */
#ifndef FLAME_PARSE_PERFDATA_INLINE_H
#define FLAME_PARSE_PERFDATA_INLINE_H
#include <stddef.h>
#include <stdint.h>
#include "perfdata-cfi.h"

typedef struct flame__inl flame__inl;

/** NULL when out of memory. */
flame__inl *flame__inl_new(void);
void flame__inl_free(flame__inl *l);

/** The names of the functions at ELF address `vaddr` of file `f` (numbered `id`),
 * innermost first: their count (0 when the file has no debug information there), the
 * names NUL-separated from *names (valid until the next call); -1 when out of memory.
 * *low: where the innermost function starts when it has no linkage name (addr2line names
 * it after a symbol that starts there), else UINT64_MAX. */
int flame__inl_at(flame__inl *l, flame__cfi_file *f, uint32_t id, uint64_t vaddr,
                  const char **names, uint64_t *low);
#endif
