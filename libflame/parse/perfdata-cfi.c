/* Call-frame information for perf.data's user stacks (see perfdata-cfi.h), read as perf
 * 6.1 (built with libunwind) reads it:
 *   - a file's data comes from the build-id cache's copy when there is one, else from the
 *     recorded path (when its build-id is the recorded one); its .eh_frame is used only
 *     with an .eh_frame_hdr, then .debug_frame, from the file or its separate debug file
 *     (/usr/lib/debug/.build-id/xx/rest.debug, or its .gnu_debuglink);
 *   - a file with neither is NOCFI (perf stops there); an address neither covers is NOFDE
 *     (perf falls back to the frame-pointer guess of libunwind).
 * A row is compiled once into a flame__cfi_rule and kept in a cache keyed by (file,
 * address) (core/memo.h, bounded: it starts again when full); rows with expressions are
 * marked EXPR and evaluated through libdw each time, by a small DWARF stack machine whose
 * steps, stack and memory reads are bounded, so hostile CFI cannot loop. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../core/array.h"
#include "../core/memo.h"
#include "perfdata-cfi.h"
#include "perfdata-elf.h"

enum { MAX_SEGS = 16, EXPR_STEPS = 256, EXPR_STACK = 64 };

struct flame__cfi_file {
	int state; /* 0: not opened yet, 1: open, -1: unreadable */
	uint32_t id; /* the recording's number of the file */
	int fd, dfd;
	Elf *elf, *delf;
	Dwarf *dw;       /* the debug file's (or the file's own) DWARF */
	Dwarf_CFI *eh;   /* .eh_frame, with an .eh_frame_hdr; NULL when none */
	Dwarf_CFI *dcfi; /* .debug_frame; NULL when none */
	size_t nseg;
	struct { uint64_t off, vaddr, size; } seg[MAX_SEGS];
};

struct flame__cfi {
	char debug_dir[4096];
	flame__cfi_file **files; /* by the recording's file number */
	size_t nfiles;
	flame__memo memo;        /* (address, file) -> rules[] (core/memo.h) */
	flame__cfi_rule *rules;
	size_t rcap;
	uint64_t hits, misses;
};

flame__cfi *flame__cfi_new(const char *debug_dir)
{
	flame__cfi *c = calloc(1, sizeof *c);
	if (c)
		snprintf(c->debug_dir, sizeof c->debug_dir, "%s", debug_dir);
	return c;
}

static void file_close(flame__cfi_file *f)
{
	if (f->elf && f->state != 1)
		elf_end(f->elf);
	if (f->state == 1) {
		if (f->dw)
			dwarf_end(f->dw); /* frees dcfi too */
		if (f->eh)
			dwarf_cfi_end(f->eh);
		if (f->delf)
			elf_end(f->delf);
		if (f->elf)
			elf_end(f->elf);
		if (f->dfd >= 0)
			close(f->dfd);
		if (f->fd >= 0)
			close(f->fd);
	}
	free(f);
}

void flame__cfi_free(flame__cfi *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nfiles; i++)
		if (c->files[i])
			file_close(c->files[i]);
	free(c->files);
	flame__memo_free(&c->memo);
	free(c->rules);
	free(c);
}

void flame__cfi_stats(const flame__cfi *c, uint64_t *hits, uint64_t *misses)
{
	*hits = c->hits;
	*misses = c->misses;
}

/* ------------------------------------------------------------------ files */

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static Elf_Scn *section(Elf *elf, const char *name)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		if (n && strcmp(n, name) == 0 && sh.sh_type != SHT_NOBITS)
			return scn;
	}
	return NULL;
}

static int has_section(Elf *elf, const char *name) { return section(elf, name) != NULL; }

/* ------------------------------------------------------------------ CFI checked */

/* A cursor over CFI bytes: reads past `e` set `bad`. */
typedef struct cur {
	const uint8_t *p, *e;
	int bad;
} cur;

static uint64_t uleb(cur *c)
{
	uint64_t v = 0;
	for (unsigned sh = 0; c->p < c->e; sh += 7) {
		uint8_t b = *c->p++;
		if (sh < 64)
			v |= (uint64_t)(b & 0x7f) << sh;
		if (!(b & 0x80))
			return v;
	}
	c->bad = 1;
	return 0;
}

static void skip(cur *c, uint64_t n)
{
	if (n > (uint64_t)(c->e - c->p))
		c->bad = 1;
	else
		c->p += n;
}

/* The operands of one call-frame instruction skipped, its register numbers checked: 0,
 * or -1 for a register past the x86_64 ones libunwind knows (libdw grows a table to the
 * largest register named, so a hostile number costs gigabytes) or an unknown op. */
static int insn(cur *c, unsigned addr_size)
{
	uint8_t op = *c->p++;
	if (op >> 6 == 2) /* DW_CFA_offset: the register in the low bits */
		return uleb(c), 0;
	if (op >> 6) /* advance_loc, restore */
		return 0;
	switch (op) {
	case DW_CFA_nop: case DW_CFA_remember_state: case DW_CFA_restore_state: return 0;
	case DW_CFA_advance_loc1: return skip(c, 1), 0;
	case DW_CFA_advance_loc2: return skip(c, 2), 0;
	case DW_CFA_advance_loc4: return skip(c, 4), 0;
	case DW_CFA_set_loc: return skip(c, addr_size), 0;
	case DW_CFA_def_cfa_offset: case DW_CFA_def_cfa_offset_sf: case DW_CFA_GNU_args_size:
		return uleb(c), 0;
	case DW_CFA_def_cfa_expression: return skip(c, uleb(c)), 0;
	case DW_CFA_offset_extended: case DW_CFA_register: case DW_CFA_def_cfa:
	case DW_CFA_offset_extended_sf: case DW_CFA_def_cfa_sf: case DW_CFA_val_offset:
	case DW_CFA_val_offset_sf: case DW_CFA_GNU_negative_offset_extended:
		if (uleb(c) >= 128)
			return -1;
		return uleb(c), 0;
	case DW_CFA_restore_extended: case DW_CFA_undefined: case DW_CFA_same_value:
	case DW_CFA_def_cfa_register:
		return uleb(c) >= 128 ? -1 : 0;
	case DW_CFA_expression: case DW_CFA_val_expression:
		if (uleb(c) >= 128)
			return -1;
		return skip(c, uleb(c)), 0;
	default: return -1;
	}
}

/* The size of a pointer encoded as `enc` (DW_EH_PE_*), 0 when unknown. */
static unsigned enc_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c: return 8;
	case 0x02: case 0x0a: return 2;
	case 0x03: case 0x0b: return 4;
	default: return 0;
	}
}

/* A CIE's header from its version byte: c is left at its instructions; *fde_ptr the size
 * of its FDEs' addresses ('R'), *z whether they carry augmentation data. 0, or -1. */
static int cie(cur *c, unsigned *fde_ptr, int *z)
{
	if (c->p >= c->e)
		return -1;
	uint8_t ver = *c->p++;
	const char *aug = (const char *)c->p;
	const uint8_t *nul = memchr(c->p, 0, (size_t)(c->e - c->p));
	if (!nul)
		return -1;
	c->p = nul + 1;
	if (ver >= 4)
		skip(c, 2); /* address and segment sizes */
	uleb(c);        /* code alignment */
	uleb(c);        /* data alignment (as an sleb: the same bytes) */
	if (ver == 1 ? (c->p < c->e ? *c->p++ : 0) >= 128 : uleb(c) >= 128)
		return -1; /* the return address column */
	*fde_ptr = 8;
	*z = aug[0] == 'z';
	if (!*z)
		return aug[0] || c->bad ? -1 : 0;
	uint64_t n = uleb(c);
	cur a = {c->p, n <= (uint64_t)(c->e - c->p) ? c->p + n : c->e, 0};
	skip(c, n);
	for (const char *k = aug + 1; *k && !a.bad; k++) {
		if (*k == 'S')
			continue;
		if (a.p >= a.e || (*k != 'R' && *k != 'P' && *k != 'L'))
			return -1;
		uint8_t enc = *a.p++;
		if (*k == 'R')
			*fde_ptr = enc_size(enc);
		else if (*k == 'P')
			skip(&a, enc_size(enc));
	}
	return *fde_ptr && !a.bad && !c->bad ? 0 : -1;
}

/* 1 when a CFI section's entries parse and name only registers libunwind knows; libdw
 * reads a section that does not as it is, with costs in memory that have no bound. */
static int cfi_sane(Elf_Scn *scn, int eh)
{
	GElf_Shdr sh;
	if (!scn || !gelf_getshdr(scn, &sh) ||
	    ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0))
		return 0;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf)
		return 0;
	const uint8_t *base = d->d_buf, *p = base, *end = p + d->d_size;
	while (end - p >= 4) {
		uint32_t len, id;
		memcpy(&len, p, 4);
		if (len == 0 && eh)
			return 1; /* the terminator */
		if (len == 0xffffffffu || len > (size_t)(end - p) - 4 || len < 4)
			return 0;
		cur c = {p + 8, p + 4 + len, 0};
		memcpy(&id, p + 4, 4);
		unsigned fde_ptr;
		int z;
		if (id == (eh ? 0u : 0xffffffffu)) {
			if (cie(&c, &fde_ptr, &z))
				return 0;
		} else { /* an FDE: its CIE says how its addresses are written */
			const uint8_t *at = eh ? p + 4 - id : base + id;
			uint32_t clen;
			if (at < base || end - at < 8 || (eh && id > (size_t)(p + 4 - base)))
				return 0;
			memcpy(&clen, at, 4);
			cur cc = {at + 8, at + 4 + (clen <= (size_t)(end - at) - 4 ? clen : 0), 0};
			if (cie(&cc, &fde_ptr, &z))
				return 0;
			skip(&c, 2 * (uint64_t)(eh ? fde_ptr : 8));
			if (z)
				skip(&c, uleb(&c));
		}
		while (!c.bad && c.p < c.e)
			if (insn(&c, eh ? fde_ptr : 8))
				return 0;
		if (c.bad)
			return 0;
		p += 4 + (size_t)len;
	}
	return 1;
}

static void hex(char *b, const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(b + 2 * i, "%02x", id[i]);
	b[2 * n] = '\0';
}

/* The file perf reads a dso's data from: the build-id cache, else the path itself when
 * its build-id is the recorded one. */
static Elf *open_data(const flame__cfi *c, const flame__pd_map *m, int *fd)
{
	char path[4300], h[41];
	if (m->bidlen) {
		hex(h, m->bid, m->bidlen);
		snprintf(path, sizeof path, "%s/.build-id/%.2s/%s/%s", c->debug_dir, h, h + 2,
		         strncmp(m->file, "[vdso", 5) == 0 ? "vdso" : "elf");
		Elf *e = exists(path) ? flame__elf_open(path, fd) : NULL;
		if (e)
			return e;
	}
	if (m->file[0] != '/')
		return NULL;
	Elf *e = flame__elf_open(m->file, fd);
	if (e && m->bidlen) {
		const void *id;
		ssize_t k = dwelf_elf_gnu_build_id(e, &id);
		if (k != (ssize_t)m->bidlen || memcmp(id, m->bid, (size_t)k) != 0) {
			elf_end(e);
			close(*fd);
			*fd = -1;
			return NULL;
		}
	}
	return e;
}

/* The separate debug file: by build-id, else by .gnu_debuglink beside the file or under
 * /usr/lib/debug. */
static Elf *open_debug(const flame__pd_map *m, Elf *elf, int *fd)
{
	char path[4300], h[41];
	if (m->bidlen) {
		hex(h, m->bid, m->bidlen);
		snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%.2s/%s.debug", h, h + 2);
		Elf *e = exists(path) ? flame__elf_open(path, fd) : NULL;
		if (e)
			return e;
	}
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(elf, &crc);
	const char *sl = strrchr(m->file, '/');
	if (!link || !sl || strchr(link, '/'))
		return NULL;
	int dl = (int)(sl - m->file);
	const char *fmt[] = {"%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s"};
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path, fmt[i], dl, m->file, link);
		Elf *e = strcmp(path, m->file) && exists(path) ? flame__elf_open(path, fd) : NULL;
		if (e)
			return e;
	}
	return NULL;
}

/* What a file gives once its ELF image is open: its load segments, its .eh_frame (with an
 * .eh_frame_hdr), its own DWARF, else (with m) its separate debug file's. */
static void file_setup(flame__cfi_file *f, const flame__pd_map *m)
{
	f->state = 1;
	size_t nph = 0;
	if (elf_getphdrnum(f->elf, &nph))
		nph = 0;
	for (size_t i = 0; i < nph && f->nseg < MAX_SEGS; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(f->elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
			f->seg[f->nseg].off = ph.p_offset;
			f->seg[f->nseg].vaddr = ph.p_vaddr;
			f->seg[f->nseg++].size = ph.p_memsz;
		}
	}
	if (has_section(f->elf, ".eh_frame_hdr") && cfi_sane(section(f->elf, ".eh_frame"), 1))
		f->eh = dwarf_getcfi_elf(f->elf);
	/* .debug_frame and debug information: the file's own, else the debug file's */
	if (has_section(f->elf, ".debug_info") || has_section(f->elf, ".debug_frame"))
		f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	if (!f->dw && m && (f->delf = open_debug(m, f->elf, &f->dfd)))
		f->dw = dwarf_begin_elf(f->delf, DWARF_C_READ, NULL);
	Elf *de = f->delf ? f->delf : f->elf;
	if (f->dw && cfi_sane(section(de, ".debug_frame"), 0))
		f->dcfi = dwarf_getcfi(f->dw);
}

static void file_open(flame__cfi *c, flame__cfi_file *f, const flame__pd_map *m)
{
	f->state = -1;
	f->fd = f->dfd = -1;
	if (m->elf && (f->elf = open_data(c, m, &f->fd)))
		file_setup(f, m);
}

/* The slot of file number id, grown as needed; NULL when out of memory. */
static flame__cfi_file **slot(flame__cfi *c, uint32_t id)
{
	if (id >= c->nfiles) {
		size_t n = c->nfiles ? c->nfiles : 16;
		while (n <= id)
			n *= 2;
		flame__cfi_file **v = realloc(c->files, n * sizeof *v);
		if (!v)
			return NULL;
		memset(v + c->nfiles, 0, (n - c->nfiles) * sizeof *v);
		c->files = v;
		c->nfiles = n;
	}
	return &c->files[id];
}

int flame__cfi_file_mem(flame__cfi *c, uint32_t id, void *img, size_t n)
{
	flame__cfi_file **sl = slot(c, id), *f;
	if (!sl || *sl || !(f = calloc(1, sizeof *f)))
		return -1;
	*sl = f;
	f->id = id;
	f->state = -1;
	f->fd = f->dfd = -1;
	elf_version(EV_CURRENT);
	if ((f->elf = elf_memory(img, n)) && elf_kind(f->elf) == ELF_K_ELF)
		file_setup(f, NULL);
	return 0;
}

flame__cfi_file *flame__cfi_file_get(flame__cfi *c, const flame__pd_map *m)
{
	flame__cfi_file **sl = slot(c, m->id), *f;
	if (!sl)
		return NULL;
	if (!(f = *sl)) {
		if (!(f = calloc(1, sizeof *f)))
			return NULL;
		*sl = f;
		f->id = m->id;
		file_open(c, f, m);
	}
	return f->state == 1 ? f : NULL;
}

int flame__cfi_vaddr(const flame__cfi_file *f, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < f->nseg; i++)
		if (off >= f->seg[i].off && off - f->seg[i].off < f->seg[i].size) {
			*vaddr = off - f->seg[i].off + f->seg[i].vaddr;
			return 1;
		}
	return 0;
}

void *flame__cfi_debuginfo(flame__cfi_file *f) { return f->dw; }

long flame__cfi_pread(const flame__cfi_file *f, void *buf, size_t n, uint64_t off)
{
	if (f->fd < 0) { /* an image in memory */
		size_t sz;
		const char *img = elf_rawfile(f->elf, &sz);
		if (!img || off >= sz)
			return 0;
		n = n < sz - off ? n : (size_t)(sz - off);
		memcpy(buf, img + off, n);
		return (long)n;
	}
	return off > INT64_MAX ? -1 : (long)pread(f->fd, buf, n, (off_t)off);
}

/* ------------------------------------------------------------------ rules */

/* The row of `vaddr`: .eh_frame's, else .debug_frame's. NULL when neither has one. */
static Dwarf_Frame *row(flame__cfi_file *f, uint64_t vaddr)
{
	Dwarf_Frame *fr = NULL;
	if (f->eh && dwarf_cfi_addrframe(f->eh, vaddr, &fr) == 0)
		return fr;
	if (f->dcfi && dwarf_cfi_addrframe(f->dcfi, vaddr, &fr) == 0)
		return fr;
	return NULL;
}

static int fits(Dwarf_Sword v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* How a register is restored, from libdw's expression: FLAME__CFI_AT/_VAL with the
 * offset from the CFA, _REG, 0 for the same value, -1 undefined, -2 an expression.
 * libdw says "undefined" for registers the CFI does not mention as well (its x86_64
 * ABI defaults), so only the return address's undefined is taken as such: the others
 * keep their value, as libunwind keeps them. */
static int reg_how(Dwarf_Frame *fr, int reg, int32_t *off)
{
	Dwarf_Op mem[3], *ops;
	size_t n;
	if (dwarf_frame_register(fr, reg, mem, &ops, &n) != 0)
		return -2;
	*off = 0;
	if (n == 0)
		return ops ? 0 : -1;
	if (n == 1 && ops[0].atom == DW_OP_regx && ops[0].number < FLAME__CFI_NREGS) {
		*off = (int32_t)ops[0].number;
		return FLAME__CFI_REG;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return -2;
	size_t i = 1;
	if (i < n && ops[i].atom == DW_OP_plus_uconst) {
		if (!fits((Dwarf_Sword)ops[i].number))
			return -2;
		*off = (int32_t)(Dwarf_Sword)ops[i++].number;
	}
	if (i == n)
		return FLAME__CFI_AT;
	if (i + 1 == n && ops[i].atom == DW_OP_stack_value)
		return FLAME__CFI_VAL;
	return -2;
}

static void compile(flame__cfi_file *f, uint64_t vaddr, flame__cfi_rule *r)
{
	memset(r, 0, sizeof *r);
	Dwarf_Frame *fr = row(f, vaddr);
	if (!fr) {
		r->kind = f->eh || f->dcfi ? FLAME__CFI_NOFDE : FLAME__CFI_NOCFI;
		return;
	}
	bool sig = false;
	dwarf_frame_info(fr, NULL, NULL, &sig);
	r->signal = sig;
	r->kind = FLAME__CFI_EXPR;
	Dwarf_Op *ops;
	size_t n;
	if (dwarf_frame_cfa(fr, &ops, &n) != 0 || n != 1 || ops[0].atom != DW_OP_bregx ||
	    ops[0].number >= FLAME__CFI_NREGS || !fits((Dwarf_Sword)ops[0].number2))
		goto done;
	r->cfa_reg = (uint8_t)ops[0].number;
	r->cfa_off = (int32_t)(Dwarf_Sword)ops[0].number2;
	int32_t off;
	int how = reg_how(fr, FLAME__CFI_RA, &off);
	if (how == -1)
		r->ra_undef = 1;
	else if (how == FLAME__CFI_AT)
		r->ra_off = off;
	else
		goto done;
	how = reg_how(fr, FLAME__CFI_SP, &off); /* the SP is the CFA, as libunwind takes it */
	if (how == -2 || (how > 0 && !(how == FLAME__CFI_VAL && off == 0)))
		goto done;
	for (int reg = 0; reg < FLAME__CFI_RA; reg++) {
		if (reg == FLAME__CFI_SP)
			continue;
		how = reg_how(fr, reg, &off);
		if (how == -2 || (how > 0 && r->nsaved == sizeof r->saved / sizeof r->saved[0]))
			goto done;
		if (how > 0) {
			r->saved[r->nsaved].reg = (uint8_t)reg;
			r->saved[r->nsaved].how = (uint8_t)how;
			r->saved[r->nsaved++].off = off;
		}
	}
	r->kind = FLAME__CFI_RULE;
done:
	free(fr);
}

const flame__cfi_rule *flame__cfi_rule_at(flame__cfi *c, flame__cfi_file *f, uint64_t vaddr)
{
	int64_t e = flame__memo_get(&c->memo, vaddr, f->id);
	if (e >= 0) {
		c->hits++;
		return &c->rules[e];
	}
	c->misses++;
	int restarted;
	if ((e = flame__memo_add(&c->memo, vaddr, f->id, 0, &restarted)) < 0 ||
	    flame__array_reserve_min(c->rules, c->rcap, (size_t)e + 1, 4096))
		return NULL;
	compile(f, vaddr, &c->rules[e]);
	return &c->rules[e];
}

/* ------------------------------------------------------------------ steps */

int flame__cfi_reg(const flame__cfi_regs *in, unsigned reg, flame__cfi_read rd, void *ctx,
                   uint64_t *v)
{
	if (reg >= FLAME__CFI_NREGS || !(in->valid >> reg & 1))
		return -1;
	if (in->lazy >> reg & 1)
		return rd(ctx, in->r[reg], v) ? -1 : 0;
	*v = in->r[reg];
	return 0;
}

/* The caller's registers: the SP is the CFA, the callee-saved ones restored as `saved`
 * says (one saved in memory as its address, read when used, as libunwind reads them: a
 * value that cannot be read is then unknown, not an error), the rest kept. */
int flame__cfi_apply(const flame__cfi_rule *rule, const flame__cfi_regs *in,
                     flame__cfi_read rd, void *ctx, flame__cfi_regs *out)
{
	uint64_t base, v;
	if (rule->ra_undef)
		return 0;
	if (flame__cfi_reg(in, rule->cfa_reg, rd, ctx, &base))
		return -1;
	uint64_t cfa = base + (uint64_t)(int64_t)rule->cfa_off;
	*out = *in;
	for (unsigned i = 0; i < rule->nsaved; i++) {
		unsigned reg = rule->saved[i].reg, how = rule->saved[i].how;
		uint64_t a = cfa + (uint64_t)(int64_t)rule->saved[i].off;
		int ok = how == FLAME__CFI_REG
		             ? flame__cfi_reg(in, (unsigned)rule->saved[i].off, rd, ctx, &v)
		             : (v = a, 0);
		out->r[reg] = v;
		out->valid = ok ? out->valid & ~(1u << reg) : out->valid | 1u << reg;
		out->lazy = how == FLAME__CFI_AT ? out->lazy | 1u << reg : out->lazy & ~(1u << reg);
	}
	out->r[FLAME__CFI_SP] = cfa;
	out->valid |= 1u << FLAME__CFI_SP;
	if (rd(ctx, cfa + (uint64_t)(int64_t)rule->ra_off, &v))
		return -1;
	out->r[FLAME__CFI_RA] = v;
	out->valid |= 1u << FLAME__CFI_RA;
	out->lazy &= ~(1u << FLAME__CFI_SP | 1u << FLAME__CFI_RA);
	return 1;
}

/* The index of the op at byte offset `off`, or n. */
static size_t op_at(const Dwarf_Op *ops, size_t n, Dwarf_Word off)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i].offset == off)
			return i;
	return n;
}

/* The value a register operator pushes (DW_OP_bregN/bregx: the register plus an offset;
 * DW_OP_regN/regx: the register itself, which makes the result a value). 0, or -1 when
 * the register is not known. */
static int reg_op(const Dwarf_Op *op, const flame__cfi_regs *in, flame__cfi_read rd, void *ctx,
                  uint64_t *v, int *is_value)
{
	uint8_t a = op->atom;
	int breg = (a >= DW_OP_breg0 && a <= DW_OP_breg31) || a == DW_OP_bregx;
	unsigned reg = a >= DW_OP_breg0 && a <= DW_OP_breg31 ? (unsigned)(a - DW_OP_breg0)
	               : a >= DW_OP_reg0 && a <= DW_OP_reg31 ? (unsigned)(a - DW_OP_reg0)
	                                                      : (unsigned)op->number;
	if (op->number > UINT32_MAX && !(a >= DW_OP_breg0 && a <= DW_OP_breg31))
		return -1;
	if (flame__cfi_reg(in, reg, rd, ctx, v))
		return -1;
	if (breg)
		*v += a == DW_OP_bregx ? op->number2 : op->number;
	else
		*is_value = 1;
	return 0;
}

/* The stack operators of DWARF expressions on st[0..*sp): 0, or -1 when the stack has too
 * few or too many entries. */
static int shuffle(uint8_t op, Dwarf_Word x, uint64_t *st, size_t *sp)
{
	size_t n = *sp, need = op == DW_OP_pick ? x + 1 : op == DW_OP_rot ? 3
	                       : op == DW_OP_over || op == DW_OP_swap ? 2 : 1;
	uint64_t a;
	if (x >= EXPR_STACK || n < need || ((op == DW_OP_dup || op == DW_OP_over ||
	                                     op == DW_OP_pick) && n == EXPR_STACK))
		return -1;
	switch (op) {
	case DW_OP_dup: st[n] = st[n - 1]; *sp = n + 1; break;
	case DW_OP_drop: *sp = n - 1; break;
	case DW_OP_over: st[n] = st[n - 2]; *sp = n + 1; break;
	case DW_OP_pick: st[n] = st[n - 1 - x]; *sp = n + 1; break;
	case DW_OP_swap: a = st[n - 1]; st[n - 1] = st[n - 2]; st[n - 2] = a; break;
	default: a = st[n - 1]; st[n - 1] = st[n - 2]; st[n - 2] = st[n - 3]; st[n - 3] = a;
	}
	return 0;
}

/* A binary operator of DWARF expressions on a (below) and b (on top). */
static uint64_t binop(uint8_t op, uint64_t a, uint64_t b)
{
	switch (op) {
	case DW_OP_plus: return a + b;
	case DW_OP_minus: return a - b;
	case DW_OP_mul: return a * b;
	case DW_OP_and: return a & b;
	case DW_OP_or: return a | b;
	case DW_OP_xor: return a ^ b;
	case DW_OP_shl: return b < 64 ? a << b : 0;
	case DW_OP_shr: return b < 64 ? a >> b : 0;
	case DW_OP_shra: return (uint64_t)((int64_t)a >> (b < 63 ? b : 63));
	case DW_OP_eq: return a == b;
	case DW_OP_ne: return a != b;
	case DW_OP_lt: return (int64_t)a < (int64_t)b;
	case DW_OP_gt: return (int64_t)a > (int64_t)b;
	case DW_OP_le: return (int64_t)a <= (int64_t)b;
	default: return (int64_t)a >= (int64_t)b;
	}
}

/* A DWARF expression's value (`cfa` pushed first when `push`); *is_value: the result is a
 * value, not an address to read. 0, or -1 when it cannot be evaluated here. */
static int expr(const Dwarf_Op *ops, size_t n, const flame__cfi_regs *in, flame__cfi_read rd,
                void *ctx, int push, uint64_t cfa, uint64_t *res, int *is_value)
{
	uint64_t st[EXPR_STACK], a, b;
	size_t sp = 0, steps = 0;
	*is_value = 0;
	if (push)
		st[sp++] = cfa;
#define NEED(k) do { if (sp < (k)) return -1; } while (0)
#define PUSH(v) do { uint64_t v_ = (v); if (sp == EXPR_STACK) return -1; st[sp++] = v_; } while (0)
	for (size_t i = 0; i < n; i++) {
		if (++steps > EXPR_STEPS)
			return -1;
		uint8_t op = ops[i].atom;
		Dwarf_Word x = ops[i].number;
		if (op >= DW_OP_lit0 && op <= DW_OP_lit31) {
			PUSH((uint64_t)(op - DW_OP_lit0));
		} else if ((op >= DW_OP_breg0 && op <= DW_OP_breg31) || (op >= DW_OP_reg0 &&
		           op <= DW_OP_reg31) || op == DW_OP_bregx || op == DW_OP_regx) {
			if (reg_op(&ops[i], in, rd, ctx, &a, is_value))
				return -1;
			PUSH(a);
		} else switch (op) {
		case DW_OP_addr: case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u:
		case DW_OP_const2s: case DW_OP_const4u: case DW_OP_const4s: case DW_OP_const8u:
		case DW_OP_const8s: case DW_OP_constu: case DW_OP_consts:
			PUSH(x);
			break;
		case DW_OP_call_frame_cfa: PUSH(cfa); break;
		case DW_OP_dup: case DW_OP_drop: case DW_OP_over: case DW_OP_pick: case DW_OP_swap:
		case DW_OP_rot:
			if (shuffle(op, x, st, &sp))
				return -1;
			break;
		case DW_OP_deref:
			NEED(1);
			if (rd(ctx, st[sp - 1], &st[sp - 1]))
				return -1;
			break;
		case DW_OP_plus_uconst: NEED(1); st[sp - 1] += x; break;
		case DW_OP_neg: NEED(1); st[sp - 1] = 0 - st[sp - 1]; break;
		case DW_OP_not: NEED(1); st[sp - 1] = ~st[sp - 1]; break;
		case DW_OP_abs: NEED(1); if ((int64_t)st[sp - 1] < 0) st[sp - 1] = 0 - st[sp - 1]; break;
		case DW_OP_plus: case DW_OP_minus: case DW_OP_mul: case DW_OP_and: case DW_OP_or:
		case DW_OP_xor: case DW_OP_shl: case DW_OP_shr: case DW_OP_shra: case DW_OP_eq:
		case DW_OP_ne: case DW_OP_lt: case DW_OP_gt: case DW_OP_le: case DW_OP_ge:
			NEED(2);
			b = st[--sp];
			st[sp - 1] = binop(op, st[sp - 1], b);
			break;
		case DW_OP_skip: case DW_OP_bra: {
			if (op == DW_OP_bra) {
				NEED(1);
				if (st[--sp] == 0)
					break;
			}
			if (i + 1 >= n)
				return -1;
			size_t j = op_at(ops, n, ops[i + 1].offset + (Dwarf_Word)(int16_t)x);
			if (j >= n)
				return -1; /* a branch to the end or outside: not an expression CFI has */
			i = j - 1;
			break;
		}
		case DW_OP_nop: break;
		case DW_OP_stack_value: *is_value = 1; i = n; break;
		default: return -1;
		}
	}
#undef NEED
#undef PUSH
	if (!sp)
		return -1;
	*res = st[sp - 1];
	return 0;
}

/* One register of the caller through libdw's expression for it. 1: set, 0: same value or
 * unknown (kept or dropped), -1 undefined. */
static int eval_reg(Dwarf_Frame *fr, int reg, const flame__cfi_regs *in, flame__cfi_read rd,
                    void *ctx, uint64_t cfa, uint64_t *v)
{
	Dwarf_Op mem[3], *ops;
	size_t n;
	int is_value;
	if (dwarf_frame_register(fr, reg, mem, &ops, &n) != 0)
		return 0;
	if (n == 0)
		return ops ? 0 : -1;
	if (n == 1 && ops[0].atom == DW_OP_regx) /* DW_CFA_register */
		return flame__cfi_reg(in, (unsigned)ops[0].number, rd, ctx, v) ? 0 : 1;
	uint64_t a;
	if (expr(ops, n, in, rd, ctx, 0, cfa, &a, &is_value))
		return 0;
	if (is_value) {
		*v = a;
		return 1;
	}
	return rd(ctx, a, v) ? 0 : 1;
}

int flame__cfi_eval(flame__cfi *c, flame__cfi_file *f, uint64_t vaddr,
                    const flame__cfi_regs *in, flame__cfi_read rd, void *ctx,
                    flame__cfi_regs *out)
{
	(void)c;
	Dwarf_Frame *fr = row(f, vaddr);
	if (!fr)
		return -1;
	int rc = -1, is_value, ra = 0;
	Dwarf_Op *ops;
	size_t n;
	uint64_t cfa, v;
	/* the CFA: a register and offset, or an expression whose value it is */
	if (dwarf_frame_cfa(fr, &ops, &n) != 0 || n == 0 ||
	    expr(ops, n, in, rd, ctx, 0, 0, &cfa, &is_value))
		goto done;
	*out = *in;
	for (int reg = 0; reg < FLAME__CFI_NREGS; reg++) {
		int k = eval_reg(fr, reg, in, rd, ctx, cfa, &v);
		if (k == -1 && reg == FLAME__CFI_RA) {
			rc = 0; /* the end of the stack */
			goto done;
		}
		if (k == 1) {
			out->r[reg] = v;
			out->valid |= 1u << reg;
			out->lazy &= ~(1u << reg);
			ra |= reg == FLAME__CFI_RA;
		}
	}
	out->r[FLAME__CFI_SP] = cfa;
	out->valid |= 1u << FLAME__CFI_SP;
	out->lazy &= ~(1u << FLAME__CFI_SP);
	rc = ra ? 1 : -1;
done:
	free(fr);
	return rc;
}
