/* Inline frames from DWARF debug information (see perfdata-inline.h). For an address,
 * its compilation unit (dwarf_addrdie), then the concrete path down the DIE tree: each
 * child whose ranges hold the address is entered, and the subprogram and the inlined
 * subroutines on the way are the frames, named as addr2line names them (the linkage
 * name, else DW_AT_name, through the abstract origin). libdw's dwarf_getscopes is not
 * used: past an inlined subroutine it follows the abstract definition's scopes, not the
 * callers'. Results are kept in a cache by (file, address), bounded (core/memo.h: it
 * starts again when full); the walk is bounded in depth and DIEs, so hostile DWARF cannot loop. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/memo.h"
#include "perfdata-inline.h"

enum { MAX_DEPTH = FLAME__INL_DEPTH, MAX_DIES = 1 << 20, POOL_MAX = 64 << 20 };

typedef struct ientry {
	uint32_t first, n; /* an address's frames: fr[first..first+n) */
} ientry;

typedef struct iframe {
	uint32_t off, len; /* the text in the pool */
	uint8_t own;
	uint64_t memo;
} iframe;

struct flame__inl {
	flame__memo memo; /* (address, file) -> v[] */
	ientry *v;
	size_t cap;
	iframe *fr;
	size_t nfr, frcap;
	char *pool;
	size_t plen, pcap;
};

flame__inl *flame__inl_new(void) { return calloc(1, sizeof(flame__inl)); }

void flame__inl_free(flame__inl *l)
{
	if (!l)
		return;
	flame__memo_free(&l->memo);
	free(l->v);
	free(l->fr);
	free(l->pool);
	free(l);
}

/* A function's name as addr2line gives it: the linkage name, else its name. */
static const char *die_name(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	const char *s = NULL;
	if (dwarf_attr_integrate(d, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(d, DW_AT_MIPS_linkage_name, &a))
		s = dwarf_formstring(&a);
	if (!s && dwarf_attr_integrate(d, DW_AT_name, &a))
		s = dwarf_formstring(&a);
	return s;
}

/* A frame for the function called s: the symbol's own when s is its name (perf's
 * new_inline_sym), else the line "0 NAME (inlined)" (control bytes as '?'). 0, or -1. */
static int add_frame(flame__inl *l, const char *s, const char *sym)
{
	if (!s)
		s = "??";
	size_t k = strlen(s);
	if (k > 4096)
		k = 4096;
	if (flame__array_reserve_min(l->pool, l->pcap, l->plen + k + 12, 4096) ||
	    flame__array_reserve_min(l->fr, l->frcap, l->nfr + 1, 256))
		return -1;
	char *p = l->pool + l->plen;
	memcpy(p, "0 ", 2);
	for (size_t i = 0; i < k; i++)
		p[2 + i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	memcpy(p + 2 + k, " (inlined)", 10);
	l->fr[l->nfr++] = (iframe){(uint32_t)l->plen, (uint32_t)(k + 12), strcmp(s, sym) == 0, 0};
	l->plen += k + 12;
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

/* (see perfdata-inline.h) Out-of-line definitions sit at the unit's top level (C++'s through DW_AT_specification),
 * so only functions, inlined calls and lexical blocks are entered. Where several hold
 * addr (an assembler file's aliases: __clone3, __GI___clone3, clone3), binutils takes
 * the smallest, the last of equals. */
int flame__inl_path(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *path)
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

/* The frames at vaddr into fr[], innermost first: their count, or -1. perf adds none
 * where no symbol holds the address (append_inlines). */
static int lookup(flame__inl *l, flame__cfi_file *f, uint64_t vaddr, flame__inl_sym symf,
                  void *ctx)
{
	Dwarf *dw = flame__cfi_debuginfo(f);
	Dwarf_Die cu, path[MAX_DEPTH];
	if (!dw || !dwarf_addrdie(dw, vaddr, &cu))
		return 0;
	const char *sym = symf(ctx);
	int n = sym ? flame__inl_path(&cu, vaddr, path) : 0;
	for (int i = n - 1; i >= 0; i--)
		if (add_frame(l, die_name(&path[i]), sym))
			return -1;
	return n;
}

static int frames_of(flame__inl *l, const ientry *e, flame__inl_frame *out, int max)
{
	int n = (int)e->n < max ? (int)e->n : max;
	for (int i = 0; i < n; i++) {
		iframe *x = &l->fr[e->first + (size_t)i];
		out[i] = (flame__inl_frame){l->pool + x->off, x->len, x->own, &x->memo};
	}
	return n;
}

int flame__inl_at(flame__inl *l, flame__cfi_file *f, uint32_t id, uint64_t vaddr,
                  flame__inl_sym sym, void *ctx, flame__inl_frame *out, int max)
{
	int64_t e = flame__memo_get(&l->memo, vaddr, id);
	if (e >= 0)
		return frames_of(l, &l->v[e], out, max);
	int restarted;
	if ((e = flame__memo_add(&l->memo, vaddr, id, l->plen > POOL_MAX, &restarted)) < 0 ||
	    flame__array_reserve_min(l->v, l->cap, (size_t)e + 1, 4096))
		return -1;
	if (restarted)
		l->plen = l->nfr = 0;
	size_t first = l->nfr;
	l->v[e] = (ientry){(uint32_t)first, 0}; /* no frames, should the lookup fail */
	int n = lookup(l, f, vaddr, sym, ctx);
	if (n < 0)
		return -1;
	l->v[e] = (ientry){(uint32_t)first, (uint32_t)n};
	return frames_of(l, &l->v[e], out, max);
}
