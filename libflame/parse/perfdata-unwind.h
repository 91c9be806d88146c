/* User stacks of perf.data samples recorded with --call-graph dwarf, unwound
 * (parse/perfdata-unwind.c): from the sample's user registers and stack dump, with the
 * call-frame information of the mapped files (perfdata-cfi.c), into the addresses perf
 * script prints, leaf first. perfdata.c names them and adds inline frames
 * (perfdata-inline.c). x86_64 recordings only. */
#ifndef FLAME_PARSE_PERFDATA_UNWIND_H
#define FLAME_PARSE_PERFDATA_UNWIND_H
#include <stddef.h>
#include <stdint.h>
#include "perfdata-cfi.h"
#include "perfdata-read.h"
#include "perfdata-sym.h"

typedef struct flame__uframe {
	uint64_t ip;           /* as perf prints it: a caller's return address minus one */
	flame__cfi_file *file; /* its file when it has one that can be read (else NULL) */
	uint32_t file_id;
	uint64_t vaddr;        /* ip's address in the file */
} flame__uframe;

typedef struct flame__unwind flame__unwind;

/** An unwinder naming addresses through `s` (borrowed). NULL when out of memory. */
flame__unwind *flame__unwind_new(flame__pdsym *s);
void flame__unwind_free(flame__unwind *u);

/** The user frames of sample `sm` of process `pid` (as perf 6.1 finds them with
 * libunwind): at most `max` into `out`, their count. A sample with no registers or no
 * stack dump has none, as perf gives none; an unwinding that cannot go on (the dump
 * ends, a file has no CFI) ends with the frames found so far. */
size_t flame__unwind_sample(flame__unwind *u, uint32_t pid, const flame__pd_sample *sm,
                            flame__uframe *out, size_t max);

/** The CFI reader (for the rule cache's figures and the inline frames' files). */
flame__cfi *flame__unwind_cfi(flame__unwind *u);
#endif
