/* Call-frame information for unwinding perf.data's user stacks (parse/perfdata-cfi.c):
 * the mapped files opened once each (the build-id cache's copy, else the recorded path,
 * and a separate debug file for .debug_frame), and for a file address the CFI row
 * compiled into a compact rule (CFA = register + offset, where the return address and
 * the callee-saved registers were saved), kept in a cache keyed by file and address.
 * Rows a compact rule cannot hold (DWARF expressions: PLT entries, signal frames) are
 * evaluated in full each time (flame__cfi_eval). libdw parses the CFI; perfdata-unwind.c
 * drives the steps. x86_64 only: registers are numbered as DWARF numbers them. */
#ifndef FLAME_PARSE_PERFDATA_CFI_H
#define FLAME_PARSE_PERFDATA_CFI_H
#include <stddef.h>
#include <stdint.h>
#include "perfdata-sym.h"

/* DWARF's x86_64 registers: rax rdx rcx rbx rsi rdi rbp rsp r8..r15, then the return
 * address column (rip) */
enum { FLAME__CFI_SP = 7, FLAME__CFI_BP = 6, FLAME__CFI_RA = 16, FLAME__CFI_NREGS = 17 };

typedef struct flame__cfi_regs {
	uint64_t r[FLAME__CFI_NREGS];
	uint32_t valid; /* a bit per register whose value is known */
	/* a bit per register whose r[] is the address its value was saved at, read when used
	 * (flame__cfi_reg): most saved registers are only carried up the stack, and reading
	 * each at every step was a fifth of the unwinding. Never the SP or the return address. */
	uint32_t lazy;
} flame__cfi_regs;

/* kinds of rule */
enum {
	FLAME__CFI_RULE,  /* the compact rule below */
	FLAME__CFI_EXPR,  /* only the general evaluator can step it (flame__cfi_eval) */
	FLAME__CFI_NOFDE, /* the file has CFI, but not for this address */
	FLAME__CFI_NOCFI, /* the file cannot be read or has no CFI */
};

typedef struct flame__cfi_rule {
	uint8_t kind;
	uint8_t cfa_reg;
	uint8_t signal;   /* a signal frame (the CIE's 'S'): the caller's pc is exact */
	uint8_t ra_undef; /* the end of the stack */
	uint8_t nsaved;
	int32_t cfa_off, ra_off;
	struct {
		uint8_t reg, how; /* how: FLAME__CFI_AT [CFA+off], _VAL CFA+off, _REG register off */
		int32_t off;
	} saved[7];
} flame__cfi_rule;
enum { FLAME__CFI_AT = 1, FLAME__CFI_VAL, FLAME__CFI_REG };

/* Reads 8 bytes of the sampled process's memory at addr: 0, or -1 when not available. */
typedef int (*flame__cfi_read)(void *ctx, uint64_t addr, uint64_t *v);

typedef struct flame__cfi flame__cfi;
typedef struct flame__cfi_file flame__cfi_file;

/** A CFI reader; `debug_dir`: perf's build-id cache ($HOME/.debug). NULL: out of memory. */
flame__cfi *flame__cfi_new(const char *debug_dir);
void flame__cfi_free(flame__cfi *c);

/** The file mapped at `m`, opened when first asked for; NULL when it cannot be read. */
flame__cfi_file *flame__cfi_file_get(flame__cfi *c, const flame__pd_map *m);
/** File number `id` as the ELF image img[0..n) (kept by the caller while c lives),
 * before any map asks for it: the fuzz target's way in. 0, or -1. */
int flame__cfi_file_mem(flame__cfi *c, uint32_t id, void *img, size_t n);
/** The ELF address of file offset `off` (through the load segments): 0 when outside. */
int flame__cfi_vaddr(const flame__cfi_file *f, uint64_t off, uint64_t *vaddr);
/** Up to n bytes of the file's data at offset `off`: the count read, or -1. */
long flame__cfi_pread(const flame__cfi_file *f, void *buf, size_t n, uint64_t off);
/** The file's DWARF debug information (its own, or its separate debug file's), for
 * inline frames; NULL when it has none. Opaque: libdw's Dwarf. */
void *flame__cfi_debuginfo(flame__cfi_file *f);

/** The rule for ELF address `vaddr` of `f` (NULL: a file with no CFI). Valid until the
 * next call. NULL only when out of memory. */
const flame__cfi_rule *flame__cfi_rule_at(flame__cfi *c, flame__cfi_file *f, uint64_t vaddr);

/** Register `reg` of `in`: 0 with *v, or -1 when it is not known (not valid, or saved
 * where `rd` cannot read). */
int flame__cfi_reg(const flame__cfi_regs *in, unsigned reg, flame__cfi_read rd, void *ctx,
                   uint64_t *v);

/** One step with a compact rule: the caller's registers from `in` (the frame's). 1 when
 * the caller's return address is in out->r[FLAME__CFI_RA], 0 at the end of the stack, -1
 * when a register or the memory needed is not there. */
int flame__cfi_apply(const flame__cfi_rule *rule, const flame__cfi_regs *in,
                     flame__cfi_read rd, void *ctx, flame__cfi_regs *out);
/** The same for any row, through libdw and a DWARF expression evaluator (bounded). */
int flame__cfi_eval(flame__cfi *c, flame__cfi_file *f, uint64_t vaddr,
                    const flame__cfi_regs *in, flame__cfi_read rd, void *ctx,
                    flame__cfi_regs *out);

/** Lookups of the rule cache so far: found, and compiled. */
void flame__cfi_stats(const flame__cfi *c, uint64_t *hits, uint64_t *misses);
#endif
