/* What perf.data samples name (parse/perfdata-sym.c): the threads (comm, process) and the
 * memory maps of each process and of the kernel, kept from COMM, FORK, MMAP and MMAP2
 * records, and each address turned into the text perf script prints for a frame,
 * "ADDR SYMBOL+0xOFF (DSO)", through the mapped file's symbols (perfdata-elf.c), kallsyms,
 * or /tmp/perf-PID.map. perfdata.c drives it record by record. */
#ifndef FLAME_PARSE_PERFDATA_SYM_H
#define FLAME_PARSE_PERFDATA_SYM_H
#include <stddef.h>
#include <stdint.h>
#include "perfdata-read.h"

typedef struct flame__pdsym flame__pdsym;

enum { FLAME__PD_USER, FLAME__PD_KERNEL, FLAME__PD_HV };

/** A symbolizer for the recording `r` (borrowed: its build-ids are read when a file is
 * first symbolized). NULL when out of memory. */
flame__pdsym *flame__pdsym_new(const flame__pd *r);
void flame__pdsym_free(flame__pdsym *s);

/* The records that change what samples name: 0, or -1 when out of memory. */
int flame__pdsym_comm(flame__pdsym *s, uint32_t pid, uint32_t tid, const char *comm, size_t n);
int flame__pdsym_fork(flame__pdsym *s, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid);
int flame__pdsym_mmap(flame__pdsym *s, uint32_t pid, uint64_t start, uint64_t len,
                      uint64_t pgoff, int exec, const char *file, size_t n, const uint8_t *bid,
                      size_t bidlen);

/** The comm of thread `tid` now (perf's ":TID" when none was recorded), control bytes
 * made '?'. NULL when out of memory. */
const char *flame__pdsym_thread_comm(flame__pdsym *s, uint32_t pid, uint32_t tid, size_t *n);

/** The text of the frame at `ip` in process `pid` (`mode`: FLAME__PD_USER, _KERNEL, _HV;
 * `fallback`: try the other space when the address is not mapped in this one, as perf does
 * for a sample's own ip): "ADDR SYM+0xOFF (DSO)", valid until the next call, and in *memo a
 * word the caller may keep with this frame (0 when new). 0, or -1 when out of memory. */
int flame__pdsym_frame(flame__pdsym *s, uint32_t pid, int mode, int fallback, uint64_t ip,
                       const char **p, size_t *n, uint64_t **memo);

/* A user address's mapped file, for the unwinder (perfdata-unwind.c) */
typedef struct flame__pd_map {
	uint64_t start, end, pgoff;
	const char *file;   /* its recorded path ("[vdso]" for the vdso) */
	const uint8_t *bid; /* its build-id (recorded, else read from the file) */
	size_t bidlen;
	uint32_t id;        /* the file's number in this recording */
	int elf;            /* a file (0: anonymous memory, JIT code) */
} flame__pd_map;

/** The map of user address `ip` in process `pid`: 1 (filled), 0 when none. */
int flame__pdsym_map(flame__pdsym *s, uint32_t pid, uint64_t ip, flame__pd_map *m);
/** The name of the symbol holding user address `ip` of process `pid`, or NULL. */
const char *flame__pdsym_symbol(flame__pdsym *s, uint32_t pid, uint64_t ip);
/** perf's build-id cache directory ($HOME/.debug). */
const char *flame__pdsym_debug_dir(const flame__pdsym *s);
#endif
