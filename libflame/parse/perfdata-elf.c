/* Symbol tables and ELF symbol reading for perf.data symbolization (see perfdata-elf.h).
 * perf's rules, as perf script 6.1 applies them: functions, objects and text labels of
 * .symtab, else .dynsym; each value made file-relative by its PT_LOAD segment (p_vaddr -
 * p_offset), so a PIE or shared object resolves from the map's pgoff whatever its load
 * address; a symbol of size 0 ends where the next begins; then one symbol per address
 * (the sized, then non-weak, then global, then fewer leading underscores, then longer name);
 * names demangled without parameters (libiberty's cplus_demangle). Hostile files: libelf
 * bounds every section and string; a symbol it cannot place is skipped. */
#include <fcntl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../core/array.h"
#include "perfdata-elf.h"

void flame__symtab_free(flame__symtab *t)
{
	free(t->v);
	free(t->strs);
	memset(t, 0, sizeof *t);
}

int flame__symtab_add(flame__symtab *t, uint64_t start, uint64_t size, int binding,
                      const char *name, size_t n)
{
	if (n > 65536)
		n = 65536; /* a name longer than this is cut (perf prints what it holds) */
	if (t->slen + n + 1 > UINT32_MAX || flame__array_reserve(t->v, t->cap, t->n + 1) ||
	    flame__array_reserve_min(t->strs, t->scap, t->slen + n + 1, 4096))
		return -1;
	memcpy(t->strs + t->slen, name, n);
	t->strs[t->slen + n] = '\0';
	/* `end` holds the insertion order until finish() sorts (ties keep file order) */
	uint64_t end = size ? start + size : start;
	if (end < start)
		end = UINT64_MAX; /* a hostile size: to the end of the address space */
	t->v[t->n] = (flame__sym){start, end, (uint32_t)t->slen, (uint8_t)binding};
	t->slen += n + 1;
	t->n++;
	return 0;
}

static int by_start(const void *x, const void *y)
{
	const flame__sym *a = x, *b = y;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name; /* names are appended in order */
}

static size_t underscores(const char *s)
{
	size_t k = 0;
	while (s[k] == '_')
		k++;
	return k;
}

/* perf's choose_best_symbol: 1 when a is kept over b. */
static int better(const flame__symtab *t, const flame__sym *a, const flame__sym *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	if (!lb && la)
		return 1;
	if (!la && lb)
		return 0;
	int wa = a->binding == STB_WEAK, wb = b->binding == STB_WEAK;
	if (wb != wa)
		return wb;
	int ga = a->binding == STB_GLOBAL, gb = b->binding == STB_GLOBAL;
	if (ga != gb)
		return ga;
	const char *na = t->strs + a->name, *nb = t->strs + b->name;
	size_t ua = underscores(na), ub = underscores(nb);
	if (ua != ub)
		return ub > ua;
	return strlen(na) >= strlen(nb);
}

/* perf's roundup(addr, 4096) + 4096 (the end of the address space past it) */
static uint64_t page_after(uint64_t a)
{
	return a > UINT64_MAX - 8192 ? UINT64_MAX : (a + 4095) / 4096 * 4096 + 4096;
}

void flame__symtab_finish(flame__symtab *t, int kallsyms)
{
	if (!t->n)
		return;
	/* kallsyms and most symbol tables come in address order: sorting them again costs
	 * more than the rest of loading (the order is total, so skipping is the same) */
	size_t run = 1;
	while (run < t->n && by_start(&t->v[run - 1], &t->v[run]) < 0)
		run++;
	if (run < t->n)
		flame__sort(t->v, t->n, sizeof *t->v, by_start);
	/* perf extends the zero sizes first, then keeps one symbol per address: of two at one
	 * address the first gets no size (it ends where the second starts), so the second,
	 * sized now, is kept */
	for (size_t i = 0; i + 1 < t->n; i++) {
		flame__sym *p = &t->v[i];
		if (p->end != p->start)
			continue;
		const char *a = t->strs + p->name, *b = t->strs + t->v[i + 1].name;
		if (kallsyms && !strchr(a, '[') != !strchr(b, '['))
			p->end = page_after(p->end);
		else
			p->end = t->v[i + 1].start;
	}
	flame__sym *last = &t->v[t->n - 1];
	if (last->end == last->start)
		last->end = page_after(last->start);
	size_t k = 0;
	for (size_t i = 1; i < t->n; i++) {
		if (t->v[i].start == t->v[k].start) {
			if (!better(t, &t->v[k], &t->v[i]))
				t->v[k] = t->v[i];
			continue;
		}
		t->v[++k] = t->v[i];
	}
	t->n = k + 1;
}

const flame__sym *flame__symtab_find(const flame__symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) { /* first symbol starting past addr */
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const flame__sym *s = &t->v[lo - 1];
	return addr < s->end ? s : NULL;
}

/* ------------------------------------------------------------------ ELF */

Elf *flame__elf_open(const char *path, int *fd)
{
	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	Elf *e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(*fd);
		*fd = -1;
		return NULL;
	}
	return e;
}

static Elf_Scn *section_of(Elf *e, Elf64_Word type)
{
	Elf_Scn *s = NULL;
	while ((s = elf_nextscn(e, s))) {
		GElf_Shdr sh;
		if (gelf_getshdr(s, &sh) && sh.sh_type == type)
			return s;
	}
	return NULL;
}

static size_t build_id(Elf *e, uint8_t id[20])
{
	Elf_Scn *s = NULL;
	while ((s = elf_nextscn(e, s))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;
		while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)d->d_buf + noff, "GNU", 4) == 0) {
				size_t n = nh.n_descsz > 20 ? 20 : nh.n_descsz;
				memcpy(id, (char *)d->d_buf + doff, n);
				return n;
			}
		}
	}
	return 0;
}

/* Open the ELF file at `path` and ask it one thing: its build-id (into id) or whether
 * it has a .symtab. 0 when it cannot be read as ELF. */
static size_t ask_elf(const char *path, int symtab, uint8_t id[20])
{
	int fd;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	Elf *e = flame__elf_open(path, &fd);
	if (!e)
		return 0;
	size_t n = symtab ? section_of(e, SHT_SYMTAB) != NULL : build_id(e, id);
	elf_end(e);
	close(fd);
	return n;
}

size_t flame__elf_build_id_path(const char *path, uint8_t id[20])
{
	return ask_elf(path, 0, id);
}

int flame__elf_has_symtab(const char *path)
{
	return (int)ask_elf(path, 1, NULL);
}

/* The PT_LOAD segment holding vaddr: its p_vaddr - p_offset in *adj; -1 when none. */
static int segment_adjust(Elf *rt, uint64_t vaddr, uint64_t *adj)
{
	size_t n;
	if (elf_getphdrnum(rt, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(rt, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		uint64_t sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (sz && vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < sz) {
			*adj = ph.p_vaddr - ph.p_offset;
			return 0;
		}
	}
	return -1;
}

/* The first PT_LOAD segment's p_vaddr - p_offset: where samply's relative addresses start. */
static int image_base(Elf *e, uint64_t *base)
{
	size_t n;
	if (elf_getphdrnum(e, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
			*base = ph.p_vaddr - ph.p_offset;
			return 0;
		}
	}
	return -1;
}

/* The PT_LOAD segment holding file offset `off`: its p_vaddr - p_offset in *adj. */
static int offset_adjust(Elf *e, uint64_t off, uint64_t *adj)
{
	size_t n;
	if (elf_getphdrnum(e, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && off >= ph.p_offset &&
		    off - ph.p_offset < ph.p_filesz) {
			*adj = ph.p_vaddr - ph.p_offset;
			return 0;
		}
	}
	return -1;
}

int flame__elf_symbols_rel(const char *syms, const char *runtime, flame__symtab *t)
{
	int fd;
	uint64_t base, adj;
	if (flame__elf_symbols_path(syms, runtime, t))
		return -1;
	Elf *e = flame__elf_open(runtime ? runtime : syms, &fd);
	if (!e)
		return -1;
	int rc = image_base(e, &base);
	for (size_t i = 0; i < t->n && !rc; i++) {
		flame__sym *y = &t->v[i];
		if (offset_adjust(e, y->start, &adj)) {
			y->start = y->end = UINT64_MAX; /* in no segment: sorted last, never found */
			continue;
		}
		y->start += adj - base;
		y->end += adj - base;
	}
	elf_end(e);
	close(fd);
	flame__symtab_finish(t, 0);
	return rc;
}

static int is_text_section(Elf *e, size_t shstrndx, size_t ndx)
{
	Elf_Scn *s = elf_getscn(e, ndx);
	GElf_Shdr sh;
	if (!s || !gelf_getshdr(s, &sh))
		return 0;
	const char *name = elf_strptr(e, shstrndx, sh.sh_name);
	return name && strstr(name, "text") != NULL;
}

static Elf_Scn *section_named(Elf *e, size_t shstrndx, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *s = NULL;
	while ((s = elf_nextscn(e, s))) {
		const char *name;
		if (gelf_getshdr(s, sh) && (name = elf_strptr(e, shstrndx, sh->sh_name)) &&
		    !strcmp(name, want))
			return s;
	}
	return NULL;
}

typedef struct plt_rel {
	uint64_t got; /* the GOT slot: a lazy .plt's entries are in the order of their slots */
	uint32_t sym;
} plt_rel;

static int by_got(const void *x, const void *y)
{
	const plt_rel *a = x, *b = y;
	return a->got < b->got ? -1 : a->got > b->got;
}

/* perf's dso__synthesize_plt_symbols, for x86: a "NAME@plt" symbol per entry, one per
 * .rela.plt (or .rel.plt) relocation, at file offsets as perf keeps them. Without them a
 * sample in a PLT stub is named after whatever symbol precedes .plt (often _init) where
 * perf script prints read@plt. Other machines' PLT layouts are not known here: no
 * symbols, as before. */
static int add_plt(Elf *rt, flame__symtab *t)
{
	GElf_Ehdr eh;
	size_t shstrndx;
	GElf_Shdr plt, sec, rel, dyn;
	if (!gelf_getehdr(rt, &eh) || (eh.e_machine != EM_X86_64 && eh.e_machine != EM_386) ||
	    elf_getshdrstrndx(rt, &shstrndx) || !section_named(rt, shstrndx, ".plt", &plt) ||
	    !plt.sh_size)
		return 0;
	Elf_Scn *rs = section_named(rt, shstrndx, ".rela.plt", &rel);
	if (!rs)
		rs = section_named(rt, shstrndx, ".rel.plt", &rel);
	Elf_Scn *ds = rs ? elf_getscn(rt, rel.sh_link) : NULL;
	if (!ds || !gelf_getshdr(ds, &dyn) || dyn.sh_type != SHT_DYNSYM || !rel.sh_entsize ||
	    (rel.sh_type != SHT_RELA && rel.sh_type != SHT_REL))
		return 0;
	Elf_Data *rd = elf_getdata(rs, NULL), *dd = elf_getdata(ds, NULL);
	if (!rd || !dd)
		return 0;
	uint64_t at = plt.sh_offset, entry = 16;
	int lazy = !section_named(rt, shstrndx, ".plt.sec", &sec) || !sec.sh_size;
	/* the header (16 bytes of a lazy .plt; all of .plt when the entries are in .plt.sec)
	 * gets no symbol, as perf 6.1 gives it none: [unknown] in a stripped program */
	at = lazy ? at + 16 : sec.sh_offset;
	size_t n = rd->d_size / rel.sh_entsize;
	if (n > (1u << 20))
		n = 1u << 20; /* a hostile count: as many as a real program could have */
	plt_rel *v = n ? malloc(n * sizeof *v) : NULL;
	if (n && !v)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela ra;
		GElf_Rel r;
		if (rel.sh_type == SHT_RELA ? !gelf_getrela(rd, (int)i, &ra)
		                            : !(r = (GElf_Rel){0}, gelf_getrel(rd, (int)i, &r))) {
			n = i;
			break;
		}
		uint64_t off = rel.sh_type == SHT_RELA ? ra.r_offset : r.r_offset;
		uint64_t info = rel.sh_type == SHT_RELA ? ra.r_info : r.r_info;
		v[i] = (plt_rel){off, (uint32_t)(eh.e_ident[EI_CLASS] == ELFCLASS64 ? GELF_R_SYM(info)
		                                                                   : ELF32_R_SYM(info))};
	}
	if (lazy)
		flame__sort(v, n, sizeof *v, by_got);
	int rc = 0;
	char buf[512];
	for (size_t i = 0; i < n && !rc; i++, at += entry) {
		GElf_Sym sym;
		const char *name = gelf_getsym(dd, (int)v[i].sym, &sym)
		                       ? elf_strptr(rt, dyn.sh_link, sym.st_name)
		                       : NULL;
		if (!name)
			continue;
		char *dm = cplus_demangle(name, DMGL_NO_OPTS);
		int k = snprintf(buf, sizeof buf, "%s@plt", dm ? dm : name);
		free(dm);
		rc = flame__symtab_add(t, at, entry, STB_GLOBAL, buf,
		                       k < (int)sizeof buf ? (size_t)k : sizeof buf - 1);
	}
	free(v);
	return rc;
}

static int read_symbols(Elf *e, Elf *rt, flame__symtab *t)
{
	Elf_Scn *s = section_of(e, SHT_SYMTAB);
	if (!s)
		s = section_of(e, SHT_DYNSYM);
	GElf_Shdr sh;
	GElf_Ehdr eh;
	size_t shstrndx;
	if (!s || !gelf_getshdr(s, &sh) || !gelf_getehdr(e, &eh) || elf_getshdrstrndx(e, &shstrndx))
		return -1;
	Elf_Data *d = elf_getdata(s, NULL);
	if (!d || !sh.sh_entsize)
		return -1;
	int adjust = eh.e_type == ET_EXEC || eh.e_type == ET_REL || eh.e_type == ET_DYN;
	size_t n = d->d_size / sh.sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym) || !sym.st_name || sym.st_shndx == SHN_UNDEF)
			continue;
		int type = GELF_ST_TYPE(sym.st_info), vis = GELF_ST_VISIBILITY(sym.st_other);
		int label = type == STT_NOTYPE && sym.st_shndx != SHN_ABS && vis != STV_HIDDEN &&
		            vis != STV_INTERNAL;
		if (!label && type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
			continue;
		if (sym.st_shndx >= SHN_LORESERVE)
			continue; /* perf stops at a section it cannot find; we skip the symbol */
		if (label && !is_text_section(e, shstrndx, sym.st_shndx))
			continue;
		const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
		if (!name)
			continue;
		uint64_t v = sym.st_value, adj;
		if (adjust) {
			if (segment_adjust(rt, v, &adj))
				continue;
			v -= adj;
		}
		char *dm = cplus_demangle(name, DMGL_NO_OPTS);
		int rc = flame__symtab_add(t, v, sym.st_size, GELF_ST_BIND(sym.st_info), dm ? dm : name,
		                           strlen(dm ? dm : name));
		free(dm);
		if (rc)
			return -1;
	}
	if (t->n && add_plt(rt, t)) /* perf makes them only when the table gave symbols */
		return -1;
	flame__symtab_finish(t, 0);
	return 0;
}

int flame__elf_symbols_path(const char *syms, const char *runtime, flame__symtab *t)
{
	int fd, rfd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	Elf *e = flame__elf_open(syms, &fd), *rt = NULL;
	if (!e)
		return -1;
	if (runtime && strcmp(runtime, syms) != 0)
		rt = flame__elf_open(runtime, &rfd);
	int rc = read_symbols(e, rt ? rt : e, t);
	if (rt) {
		elf_end(rt);
		close(rfd);
	}
	elf_end(e);
	close(fd);
	return rc;
}

int flame__elf_symbols_mem(const void *buf, size_t n, flame__symtab *t)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	Elf *e = elf_memory((char *)(uintptr_t)buf, n); /* read only: nothing is written */
	if (!e)
		return -1;
	int rc = elf_kind(e) == ELF_K_ELF ? read_symbols(e, e, t) : -1;
	elf_end(e);
	return rc;
}
