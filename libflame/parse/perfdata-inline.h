/* Inline frames of perf.data's unwound user frames (parse/perfdata-inline.c): the
 * functions whose code holds an address, from the file's DWARF debug information, as
 * perf script 6.1 gets them from `addr2line -i`: the innermost inlined function first,
 * the function it was inlined into last. Cached by file and address. */
#ifndef FLAME_PARSE_PERFDATA_INLINE_H
#define FLAME_PARSE_PERFDATA_INLINE_H
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>
#include "perfdata-cfi.h"

typedef struct flame__inl flame__inl;

/* One frame at an address: the symbol's own (`own`: the record names the symbol, so perf
 * prints the symbol's frame), or an inline frame whose line "0 NAME (inlined)" is text[0..len)
 * with a memo word for flame__perf_feed_frame. */
typedef struct flame__inl_frame {
	const char *text;
	uint32_t len;
	uint8_t own;
	uint64_t *memo;
} flame__inl_frame;

/* The name of the symbol holding ELF address vaddr, asked only on a miss (NULL: none,
 * and perf then adds no inline frame). */
typedef const char *(*flame__inl_sym)(void *ctx);

enum { FLAME__INL_DEPTH = 64 };

/** The DIEs holding `addr` below compilation unit `cu`, outermost first, into
 * path[0..FLAME__INL_DEPTH): the subprogram and the inlined subroutines down to the
 * innermost (lexical blocks passed through), as addr2line -i finds them; their count.
 * Bounded in depth and DIEs. The source lines of sites walk it too (perfdata-lines.c). */
int flame__inl_path(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *path);

/** NULL when out of memory. */
flame__inl *flame__inl_new(void);
void flame__inl_free(flame__inl *l);

/** The frames perf script prints at ELF address `vaddr` of file `f` (numbered `id`),
 * innermost first, from the functions addr2line -i names there: their count into
 * out[0..max) (0: only the symbol's own frame, as without debug information), valid
 * until the next call; -1 when out of memory. */
int flame__inl_at(flame__inl *l, flame__cfi_file *f, uint32_t id, uint64_t vaddr,
                  flame__inl_sym sym, void *ctx, flame__inl_frame *out, int max);
#endif
