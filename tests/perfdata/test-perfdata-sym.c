/* The symbol tables behind perf.data symbolization (parse/perfdata-elf.c), on the cases
 * perf script decides by rule: two symbols at one address (zero sizes extended first, so
 * the second is kept, as perf keeps __x86_indirect_thunk_rax over
 * __pi___x86_indirect_thunk_rax in kallsyms), the preferences among sized ones, the ends
 * of zero-sized symbols, kallsyms' page rule, sizes that overflow, and PLT stubs. */
#include "harness.h"
#include "libflame/parse/perfdata-elf.h"

static const char *at(const flame__symtab *t, uint64_t a)
{
	const flame__sym *s = flame__symtab_find(t, a);
	return s ? flame__sym_name(t, s) : "(none)";
}

static void add(flame__symtab *t, uint64_t start, uint64_t size, int bind, const char *name)
{
	CHECK(flame__symtab_add(t, start, size, bind, name, strlen(name)) == 0);
}

int main(void)
{
	flame__symtab t = {0};
	/* kallsyms: both global and unsized at one address; the second in file order wins */
	add(&t, 0x1000, 0, 1, "__pi___x86_indirect_thunk_rax");
	add(&t, 0x1000, 0, 1, "__x86_indirect_thunk_rax");
	add(&t, 0x1040, 0, 1, "next");
	flame__symtab_finish(&t, 1);
	CHECK_STR(at(&t, 0x1000), "__x86_indirect_thunk_rax");
	CHECK_STR(at(&t, 0x103f), "__x86_indirect_thunk_rax");
	CHECK_STR(at(&t, 0x1040), "next");
	CHECK_STR(at(&t, 0x2fff), "next"); /* the last one ends a page past its own */
	CHECK_STR(at(&t, 0x3000), "(none)");
	CHECK_STR(at(&t, 0xfff), "(none)");
	flame__symtab_free(&t);

	/* sized symbols at one address: non-weak over weak, global over local, fewer leading
	 * underscores, then the longer name */
	add(&t, 0x100, 16, 2, "weak_one");
	add(&t, 0x100, 16, 0, "local_one");
	add(&t, 0x200, 16, 1, "__two");
	add(&t, 0x200, 16, 1, "two");
	add(&t, 0x300, 16, 1, "abc");
	add(&t, 0x300, 16, 1, "abcd");
	add(&t, 0x400, 0, 1, "unsized");
	add(&t, 0x400, 8, 1, "sized");
	flame__symtab_finish(&t, 0);
	CHECK_STR(at(&t, 0x100), "local_one");
	CHECK_STR(at(&t, 0x200), "two");
	CHECK_STR(at(&t, 0x300), "abcd");
	CHECK_STR(at(&t, 0x404), "sized");
	CHECK_STR(at(&t, 0x110), "(none)"); /* past a sized symbol: no symbol, as perf says */
	flame__symtab_free(&t);

	/* PLT stubs (x86): this test's own executable calls libc through its .plt, so perf
	 * names a sample there "NAME@plt" (the header gets no symbol, as perf 6.1 gives it
	 * none), never the symbol before .plt (_init, extended to the next symbol) */
	CHECK(flame__elf_symbols_path("/proc/self/exe", NULL, &t) == 0);
	size_t plts = 0, header = 0;
	for (size_t i = 0; i < t.n; i++) {
		const char *name = flame__sym_name(&t, &t.v[i]);
		size_t len = strlen(name);
		if (!strcmp(name, ".plt"))
			header++;
		if (len > 4 && !strcmp(name + len - 4, "@plt")) {
			plts++;
			CHECK_STR(at(&t, t.v[i].start), name);
			CHECK_STR(at(&t, t.v[i].start + 15), name);
		}
	}
#if defined(__x86_64__) || defined(__i386__)
	CHECK(plts > 0);
	CHECK(header == 0);
#endif
	flame__symtab_free(&t);

	/* a size that runs past the address space, and a symbol at its very top */
	add(&t, UINT64_MAX - 4, 100, 1, "top");
	add(&t, 0x10, 0, 1, "low");
	flame__symtab_finish(&t, 0);
	CHECK_STR(at(&t, UINT64_MAX - 1), "top");
	CHECK_STR(at(&t, 0x20), "low"); /* unsized: to the next symbol */
	flame__symtab_free(&t);
	return harness_done();
}
