/* Inline frames from DWARF debug information (see perfdata-inline.h). For an address,
 * its compilation unit (dwarf_addrdie), then the concrete path down the DIE tree: each
 * child whose ranges hold the address is entered, and the subprogram and the inlined
 * subroutines on the way are the frames, named as addr2line names them (the linkage
 * name, else DW_AT_name, through the abstract origin). libdw's dwarf_getscopes is not
 * used: past an inlined subroutine it follows the abstract definition's scopes, not the
 * callers'. Results are kept in a cache by (file, address), bounded (it starts again
 * when full); the walk is bounded in depth and DIEs, so hostile DWARF cannot loop. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/hash.h"
#include "../core/slots.h"
#include "perfdata-inline.h"

enum { MAX_DEPTH = 64, MAX_DIES = 1 << 20, CACHE_MAX = 1 << 20, POOL_MAX = 64 << 20 };

typedef struct ientry {
	uint64_t addr, low;
	uint32_t file, off, n;
} ientry;

struct flame__inl {
	ientry *v;
	size_t nv, cap;
	uint64_t *slots;
	size_t mask;
	char *pool;
	size_t plen, pcap;
};

flame__inl *flame__inl_new(void) { return calloc(1, sizeof(flame__inl)); }

void flame__inl_free(flame__inl *l)
{
	if (!l)
		return;
	free(l->v);
	free(l->slots);
	free(l->pool);
	free(l);
}

/* A function's name as addr2line gives it: the linkage name (*linkage set), else its
 * name. */
static const char *die_name(Dwarf_Die *d, int *linkage)
{
	Dwarf_Attribute a;
	const char *s = NULL;
	if (dwarf_attr_integrate(d, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(d, DW_AT_MIPS_linkage_name, &a))
		s = dwarf_formstring(&a);
	*linkage = s != NULL;
	if (!s && dwarf_attr_integrate(d, DW_AT_name, &a))
		s = dwarf_formstring(&a);
	return s;
}

static int add_name(flame__inl *l, const char *s)
{
	if (!s)
		s = "??";
	size_t k = strlen(s) + 1;
	if (flame__array_reserve_min(l->pool, l->pcap, l->plen + k, 4096))
		return -1;
	memcpy(l->pool + l->plen, s, k);
	l->plen += k;
	return 0;
}

/* The extent of a DIE's range that holds addr (its low_pc..high_pc; UINT64_MAX when
 * it has none: split ranges). */
static uint64_t extent(Dwarf_Die *d)
{
	Dwarf_Addr lo, hi;
	return dwarf_lowpc(d, &lo) == 0 && dwarf_highpc(d, &hi) == 0 && hi > lo ? hi - lo
	                                                                      : UINT64_MAX;
}

/* The path of DIEs holding addr below `cu`, outermost first, into path[]: its length.
 * Out-of-line definitions sit at the unit's top level (C++'s through DW_AT_specification),
 * so only functions, inlined calls and lexical blocks are entered. Where several hold
 * addr (an assembler file's aliases: __clone3, __GI___clone3, clone3), binutils takes
 * the smallest, the last of equals. */
static int walk(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *path)
{
	Dwarf_Die cur = *cu, child, best;
	int depth = 0;
	size_t dies = 0;
	while (depth < MAX_DEPTH && dwarf_child(&cur, &child) == 0) {
		uint64_t best_len = 0;
		int found = 0;
		do {
			if (++dies > MAX_DIES)
				return depth;
			int tag = dwarf_tag(&child);
			if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
			     tag == DW_TAG_lexical_block) && dwarf_haspc(&child, addr) == 1) {
				uint64_t len = extent(&child);
				if (!found || len <= best_len) {
					best = child;
					best_len = len;
				}
				found = 1;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!found)
			break;
		if (dwarf_tag(&best) != DW_TAG_lexical_block)
			path[depth++] = best;
		cur = best;
	}
	return depth;
}

/* binutils takes the DW_AT_name of a C-like unit's function as final (its mangle_style
 * is 0); another's (assembler, C++ without a linkage name) may give way to a symbol. */
static int c_like(int lang)
{
	switch (lang) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_C99: case DW_LANG_C11:
	case DW_LANG_ObjC: case DW_LANG_Fortran77: case DW_LANG_Fortran90:
	case DW_LANG_Fortran95: case DW_LANG_Fortran03: case DW_LANG_Fortran08:
	case DW_LANG_Pascal83: case DW_LANG_Modula2: case DW_LANG_Cobol74: case DW_LANG_Cobol85:
		return 1;
	default:
		return 0;
	}
}

/* The names at vaddr into the pool, innermost first: their count, or -1. *low: the
 * innermost function's start when it has no linkage name (addr2line then takes the
 * symbol table's name of a symbol starting there), else UINT64_MAX. */
static int lookup(flame__inl *l, flame__cfi_file *f, uint64_t vaddr, uint64_t *low)
{
	Dwarf *dw = flame__cfi_debuginfo(f);
	Dwarf_Die cu, path[MAX_DEPTH];
	*low = UINT64_MAX;
	if (!dw || !dwarf_addrdie(dw, vaddr, &cu))
		return 0;
	int n = walk(&cu, vaddr, path);
	for (int i = n - 1; i >= 0; i--) {
		int linkage;
		Dwarf_Addr lo;
		if (add_name(l, die_name(&path[i], &linkage)))
			return -1;
		if (i == n - 1 && !linkage && !c_like(dwarf_srclang(&cu)) &&
		    dwarf_lowpc(&path[i], &lo) == 0)
			*low = lo;
	}
	return n;
}

struct ikey {
	const flame__inl *l;
	uint64_t addr;
	uint32_t file;
};
static int ikey_eq(const void *ctx, uint32_t e)
{
	const struct ikey *k = ctx;
	return k->l->v[e].addr == k->addr && k->l->v[e].file == k->file;
}

int flame__inl_at(flame__inl *l, flame__cfi_file *f, uint32_t id, uint64_t vaddr,
                  const char **names, uint64_t *low)
{
	uint32_t h = (uint32_t)flame__mix64(vaddr * 0x9e3779b97f4a7c15ULL ^ id);
	struct ikey k = {l, vaddr, id};
	if (l->slots) {
		uint64_t sl = l->slots[flame__slots_probe(l->slots, l->mask, h, ikey_eq, &k)];
		if (sl) {
			const ientry *e = &l->v[flame__slot_entry(sl)];
			*names = l->pool + e->off;
			*low = e->low;
			return (int)e->n;
		}
	}
	if (l->nv >= CACHE_MAX || l->plen > POOL_MAX) { /* bounded: start again */
		memset(l->slots, 0, (l->mask + 1) * sizeof *l->slots);
		l->nv = l->plen = 0;
	}
	if (flame__slots_reserve(&l->slots, &l->mask, l->nv, 4096) ||
	    flame__array_reserve_min(l->v, l->cap, l->nv + 1, 4096))
		return -1;
	size_t off = l->plen;
	int n = lookup(l, f, vaddr, low);
	if (n < 0)
		return -1;
	l->slots[flame__slots_probe(l->slots, l->mask, h, ikey_eq, &k)] =
		flame__slot_make(h, (uint32_t)l->nv);
	l->v[l->nv++] = (ientry){vaddr, *low, id, (uint32_t)off, (uint32_t)n};
	*names = l->pool + off;
	return n;
}
