/* Fuzz target for the --call-graph dwarf unwinder (parse/perfdata-unwind.c and
 * perfdata-cfi.c): the input is a sample's user registers, its stack dump, and the CFI
 * of the one file mapped, put into an ELF image made here (as .eh_frame with an
 * .eh_frame_hdr, or as .debug_frame):
 *   byte 0        flags: bit 0 the CFI as .debug_frame, bit 1 the dump's size in the
 *                 sample cut by the next byte's count of words
 *   bytes 1..160  20 registers in perf's sample_regs_user order (mask 0xff0fff)
 *   2 bytes       the dump's length L, then L bytes of dump
 *   2 bytes       the CFI section's address (its pc-relative addresses count from there:
 *                 a real file's .eh_frame keeps its functions where they were)
 *   the rest      the CFI section
 * The file is mapped at 0x400000 in process 1 for 64 KiB (its path does not exist: only
 * the image is read; its load segment spans the 64 KiB), so any pc and any SP can be
 * given. Nothing may crash or hang, and at most the
 * frames asked for come back; each frame's source lines are looked up as a tree keeping
 * sites looks them up (perfdata-lines.c: with .debug_frame the image is read as DWARF). Built as a libFuzzer target with -Dfuzzing=enabled;
 * otherwise (FLAME_FUZZ_MAIN) a program that runs the target once per file named. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "libflame/parse/perfdata-lines.h"
#include "libflame/parse/perfdata-unwind.h"

#define CHECK(c) ((c) ? (void)0 : abort())

enum { NREGS = 20, MAX_FRAMES = 127, BASE = 0x400000, IMG_MAX = 1 << 16, SPAN = 1 << 16 };

/* An ELF64 image: one PT_LOAD of the whole image at vaddr 0, the sections null,
 * .eh_frame_hdr (no search table: libdw then searches .eh_frame itself) and
 * .eh_frame, or .debug_frame, then .shstrtab. Its size. */
static size_t make_elf(unsigned char *img, const uint8_t *cfi, size_t n, int debug,
                       uint64_t addr)
{
	static const char names[] = "\0.eh_frame_hdr\0.eh_frame\0.debug_frame\0.shstrtab";
	size_t off = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr), hdr = off, sec, str, sh;
	memset(img, 0, off);
	/* version 1, the section's address pc-relative (sdata4), no table: libdw searches */
	unsigned char eh_hdr[8] = {1, 0x1b, 0xff, 0xff};
	int32_t rel = (int32_t)(addr - (hdr + 4));
	memcpy(eh_hdr + 4, &rel, 4);
	memcpy(img + off, eh_hdr, sizeof eh_hdr);
	off += 8;
	sec = off;
	memcpy(img + off, cfi, n);
	off += n;
	str = off;
	memcpy(img + off, names, sizeof names);
	off = (off + sizeof names + 7) & ~(size_t)7;
	sh = off;
	Elf64_Shdr s[4];
	memset(s, 0, sizeof s);
	s[1] = (Elf64_Shdr){1, SHT_PROGBITS, SHF_ALLOC, hdr, hdr, 8, 0, 0, 4, 0};
	s[2] = (Elf64_Shdr){debug ? 25 : 15, SHT_PROGBITS, debug ? 0 : SHF_ALLOC, addr, sec, n, 0, 0, 8, 0};
	s[3] = (Elf64_Shdr){38, SHT_STRTAB, 0, 0, str, sizeof names, 0, 0, 1, 0};
	memcpy(img + sh, s, sizeof s);
	off = sh + sizeof s;
	Elf64_Ehdr *e = (Elf64_Ehdr *)(void *)img;
	memcpy(e->e_ident, ELFMAG, SELFMAG);
	e->e_ident[EI_CLASS] = ELFCLASS64;
	e->e_ident[EI_DATA] = ELFDATA2LSB;
	e->e_ident[EI_VERSION] = EV_CURRENT;
	e->e_type = ET_DYN;
	e->e_machine = EM_X86_64;
	e->e_version = EV_CURRENT;
	e->e_phoff = sizeof(Elf64_Ehdr);
	e->e_shoff = sh;
	e->e_ehsize = sizeof(Elf64_Ehdr);
	e->e_phentsize = sizeof(Elf64_Phdr);
	e->e_phnum = 1;
	e->e_shentsize = sizeof(Elf64_Shdr);
	e->e_shnum = 4;
	e->e_shstrndx = 3;
	Elf64_Phdr *p = (Elf64_Phdr *)(void *)(img + sizeof(Elf64_Ehdr));
	*p = (Elf64_Phdr){PT_LOAD, PF_R | PF_X, 0, 0, 0, off, SPAN, 4096};
	return off;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char img[IMG_MAX + 4096];
	if (size < 1 + 8 * NREGS + 2)
		return 0;
	uint8_t flags = data[0];
	const uint8_t *regs = data + 1;
	size_t at = 1 + 8 * NREGS, len = (size_t)data[at] | (size_t)data[at + 1] << 8;
	at += 2;
	if (len > size - at)
		len = size - at;
	const uint8_t *stack = data + at;
	at += len;
	uint64_t addr = 0;
	if (size - at >= 2) {
		addr = (uint64_t)data[at] | (uint64_t)data[at + 1] << 8;
		at += 2;
	}
	size_t ncfi = size - at < IMG_MAX ? size - at : IMG_MAX;
	size_t isz = make_elf(img, data + at, ncfi, flags & 1, addr);

	/* a reader is needed only for its (absent) build-ids */
	static const uint8_t pipe_hdr[16] = {'P', 'E', 'R', 'F', 'I', 'L', 'E', '2', 16};
	flame_input *in = NULL;
	flame_err err;
	flame__pd *r = NULL;
	CHECK(flame_input_open_mem(&in, pipe_hdr, sizeof pipe_hdr, "fuzz", &err) == 0);
	CHECK(flame__pd_open(&r, in, 1, &err) == 0);
	flame__pdsym *s = flame__pdsym_new(r);
	CHECK(s);
	CHECK(flame__pdsym_mmap(s, 1, BASE, SPAN, 0, 1, "/nonexistent/fuzz.so", 20, NULL, 0) == 0);
	flame__unwind *u = flame__unwind_new(s);
	CHECK(u);
	CHECK(flame__cfi_file_mem(flame__unwind_cfi(u), 0, img, isz) == 0);
	flame__pd_attr a;
	memset(&a, 0, sizeof a);
	a.sample_regs_user = 0xff0fff;
	flame__pd_sample sm;
	memset(&sm, 0, sizeof sm);
	sm.attr = &a;
	sm.pid = 1;
	sm.regs = regs;
	sm.regs_abi = 2;
	sm.nregs = (flags & 2) ? (uint32_t)(data[1] % (NREGS + 1)) : NREGS;
	sm.stack = stack;
	sm.stack_size = len;
	static flame__uframe out[MAX_FRAMES];
	size_t max = 1 + data[2] % MAX_FRAMES;
	size_t n = flame__unwind_sample(u, 1, &sm, out, max);
	CHECK(n <= max);
	flame__pdlines *l = flame__pdlines_new();
	CHECK(l);
	static flame__pdline lines[64];
	for (size_t i = 0; i < n; i++)
		if (out[i].file)
			CHECK(flame__pdlines_at(l, out[i].file, out[i].file_id, out[i].vaddr, lines, 64) >= 0);
	flame__pdlines_free(l);
	flame__unwind_free(u);
	flame__pdsym_free(s);
	flame__pd_free(r);
	flame_input_free(in);
	return 0;
}

#include "replay-main.h"
