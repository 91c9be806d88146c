/* Symbol tables for perf.data symbolization (parse/perfdata-elf.c): a sorted table of
 * [start, end) -> name that perf's rules fill (aliases resolved, zero sizes extended),
 * and the readers that fill it from an ELF file's .symtab or .dynsym (libelf), demangled
 * as perf script shows them. perfdata-sym.c fills it from kallsyms and perf-PID.map too. */
#ifndef FLAME_PARSE_PERFDATA_ELF_H
#define FLAME_PARSE_PERFDATA_ELF_H
#include <stddef.h>
#include <stdint.h>

typedef struct flame__sym {
	uint64_t start, end;
	uint32_t name;    /* offset in the table's strings */
	uint8_t binding;  /* STB_LOCAL, STB_GLOBAL, STB_WEAK */
} flame__sym;

typedef struct flame__symtab {
	flame__sym *v;
	size_t n, cap;
	char *strs;
	size_t slen, scap;
} flame__symtab;

void flame__symtab_free(flame__symtab *t);
/** Add a symbol (size 0: it ends where the next one starts). 0, or -1 out of memory. */
int flame__symtab_add(flame__symtab *t, uint64_t start, uint64_t size, int binding,
                      const char *name, size_t n);
/** Sort, extend zero sizes, then keep one symbol per start address, as perf does (`kallsyms`:
 * the last one ends at the next page, as perf does). */
void flame__symtab_finish(flame__symtab *t, int kallsyms);
/** The symbol holding `addr`, or NULL. */
const flame__sym *flame__symtab_find(const flame__symtab *t, uint64_t addr);
static inline const char *flame__sym_name(const flame__symtab *t, const flame__sym *s)
{
	return t->strs + s->name;
}

struct Elf;
/** `path` opened as an ELF file read through a mapping (libelf's Elf, its descriptor in
 * *fd for the caller to close after elf_end), or NULL (*fd -1) when it is not one. */
struct Elf *flame__elf_open(const char *path, int *fd);
/** The GNU build-id of the ELF file at `path` into id[20]: its length, or 0 if none. */
size_t flame__elf_build_id_path(const char *path, uint8_t id[20]);

/** flame__elf_symbols_path's table keyed by library-relative addresses as the Firefox
 * Profiler keeps them (from the image base: `runtime`'s first PT_LOAD segment's p_vaddr -
 * p_offset, as samply counts) instead of file offsets. 0, or -1 as that function. */
int flame__elf_symbols_rel(const char *syms, const char *runtime, flame__symtab *t);

/** Read the symbols of ELF image `syms` (a path) into `t`, as perf does: functions and
 * objects of .symtab (else .dynsym), made file-relative with the program headers of
 * `runtime` (the file that was mapped; NULL: `syms` itself), demangled. 0, -1 when the
 * file cannot be read as ELF or has no symbol table. */
int flame__elf_symbols_path(const char *syms, const char *runtime, flame__symtab *t);
/** The same from an image in memory (the fuzz target's way in). */
int flame__elf_symbols_mem(const void *buf, size_t n, flame__symtab *t);
/** 1 when the ELF file at `path` has a .symtab (perf prefers such a file). */
int flame__elf_has_symtab(const char *path);
#endif
