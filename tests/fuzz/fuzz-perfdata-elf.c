/* Fuzz target for the ELF symbol reader of perf.data symbolization
 * (parse/perfdata-elf.c): any bytes given to libelf as an ELF image must read into a
 * symbol table or be refused, never crash or allocate without bound; each symbol read is
 * then looked up at its start and end. Built as a libFuzzer target with
 * -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a program that runs the target once per
 * file named on the command line. */
#include <stdlib.h>
#include "fuzz.h"
#include "libflame/parse/perfdata-elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame__symtab t = {0};
	if (flame__elf_symbols_mem(data, size, &t) == 0)
		for (size_t i = 0; i < t.n && i < 4096; i++) {
			const flame__sym *s = flame__symtab_find(&t, t.v[i].start);
			if (t.v[i].end > t.v[i].start && (!s || s != &t.v[i]))
				abort(); /* a symbol not found at its own start */
			flame__symtab_find(&t, t.v[i].end);
		}
	flame__symtab_free(&t);
	return 0;
}

#include "replay-main.h"
