/* Source lines from DWARF for the sites of perf.data's user frames (see perfdata-lines.h).
 * For an address, its compilation unit (dwarf_addrdie), the path of functions down the DIE
 * tree that perfdata-inline.c walks for perf's inline frames (flame__inl_path), the line
 * table's row for the innermost, and each inlined call's line for the function around it.
 * Results are kept in a cache by (file, address) (core/memo.h: bounded, it starts again
 * when full); strings live in one pool. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/memo.h"
#include "perfdata-inline.h"
#include "perfdata-lines.h"

enum { POOL_MAX = 64 << 20, STR_MAX = 4096, RANGES_MAX = 1 << 20 };

typedef struct lentry {
	uint32_t first, n; /* an address's functions: fr[first..first+n) */
} lentry;

typedef struct lstr {
	uint32_t off, len; /* in the pool */
} lstr;

typedef struct lframe {
	lstr fn, sys, file, text;
	int64_t line, start_line;
	uint64_t memo, tmemo;
} lframe;

/* A file's compilation units by address, for one without .debug_aranges (Go writes none,
 * and libdw 0.188's dwarf_addrdie then finds nothing): made from the units' ranges when
 * first needed, sorted by start. */
typedef struct curange {
	uint64_t lo, hi;
	Dwarf_Off die;
} curange;

typedef struct cuindex {
	Dwarf *dw;
	curange *r;
	size_t n;
} cuindex;

struct flame__pdlines {
	cuindex *cus;
	size_t ncus, cucap;
	flame__memo memo; /* (address, file) -> v[] (core/memo.h) */
	lentry *v;
	size_t cap;
	lframe *fr;
	size_t nfr, frcap;
	char *pool;
	size_t plen, pcap;
};

flame__pdlines *flame__pdlines_new(void) { return calloc(1, sizeof(flame__pdlines)); }

void flame__pdlines_free(flame__pdlines *l)
{
	if (!l)
		return;
	flame__memo_free(&l->memo);
	free(l->v);
	free(l->fr);
	free(l->pool);
	for (size_t i = 0; i < l->ncus; i++)
		free(l->cus[i].r);
	free(l->cus);
	free(l);
}

/* pre + s[0..k) + post into the pool (control bytes as '?' when `clean`): its place, or
 * len UINT32_MAX when out of memory. */
static lstr put(flame__pdlines *l, const char *pre, const char *s, size_t k, const char *post,
                int clean)
{
	size_t a = strlen(pre), b = strlen(post);
	/* s may lie in the pool, which may move */
	size_t in = l->pool && s >= l->pool && s < l->pool + l->plen ? (size_t)(s - l->pool) + 1 : 0;
	if (flame__array_reserve_min(l->pool, l->pcap, l->plen + a + k + b, 4096))
		return (lstr){0, UINT32_MAX};
	if (in)
		s = l->pool + in - 1;
	char *p = l->pool + l->plen;
	memcpy(p, pre, a);
	for (size_t i = 0; i < k; i++)
		p[a + i] = clean && ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
	memcpy(p + a + k, post, b);
	lstr r = {(uint32_t)l->plen, (uint32_t)(a + k + b)};
	l->plen += a + k + b;
	return r;
}

static const char *attr_str(Dwarf_Die *d, unsigned name)
{
	Dwarf_Attribute a;
	return dwarf_attr_integrate(d, name, &a) ? dwarf_formstring(&a) : NULL;
}

static uint64_t attr_u(Dwarf_Die *d, unsigned name)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	return dwarf_attr(d, name, &a) && dwarf_formudata(&a, &w) == 0 ? w : 0;
}

/* A function's name: DW_AT_name (through its abstract origin), else the linkage name; a Go
 * function as Go's runtime prints it (funcNameForPrint: a generic's shape between the
 * first '[' and the last ']' as "..."). Its length into *k. */
static const char *fn_name(Dwarf_Die *d, int go, size_t *k, size_t *cut, size_t *resume)
{
	const char *s = attr_str(d, DW_AT_name);
	if (!s)
		s = attr_str(d, DW_AT_linkage_name);
	if (!s)
		s = "??";
	*k = strnlen(s, STR_MAX);
	*cut = *resume = *k;
	const char *o = go ? memchr(s, '[', *k) : NULL, *c = o ? s + *k : NULL;
	while (c && c > o && *c != ']')
		c--;
	if (c && c > o) {
		*cut = (size_t)(o - s) + 1;
		*resume = (size_t)(c - s);
	}
	return s;
}

/* The function of DIE d at `line` of `file`, added to the frames. 0, or -1. */
static int add(flame__pdlines *l, Dwarf_Die *d, int go, const char *file, int64_t line)
{
	size_t k, cut, resume;
	const char *s = fn_name(d, go, &k, &cut, &resume);
	const char *sys = attr_str(d, DW_AT_linkage_name);
	if (flame__array_reserve_min(l->fr, l->frcap, l->nfr + 1, 256))
		return -1;
	lframe *x = &l->fr[l->nfr];
	x->fn = put(l, "", s, cut, resume < k ? "..." : "", 0);
	if (resume < k) { /* "]" and what follows it, joined to the piece before */
		lstr tail = put(l, "", s + resume, k - resume, "", 0);
		x->fn.len = tail.len == UINT32_MAX ? UINT32_MAX : x->fn.len + tail.len;
	}
	x->sys = sys && !go ? put(l, "", sys, strnlen(sys, STR_MAX), "", 0) : x->fn;
	x->file = put(l, "", file ? file : "", file ? strnlen(file, STR_MAX) : 0, "", 0);
	if (x->fn.len == UINT32_MAX || x->sys.len == UINT32_MAX || x->file.len == UINT32_MAX)
		return -1;
	x->text = put(l, "0 ", l->pool + x->fn.off, x->fn.len, " (inlined)", 1);
	int start = 0;
	x->start_line = dwarf_decl_line(d, &start) == 0 && start > 0 ? start : 0;
	x->line = line;
	x->memo = x->tmemo = 0;
	if (x->text.len == UINT32_MAX)
		return -1;
	l->nfr++;
	return 0;
}

static int by_lo(const void *a, const void *b)
{
	const curange *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The index of dw's units (bounded in ranges): 0, or -1 when out of memory. */
static int index_units(cuindex *x)
{
	size_t cap = 0, hsize;
	Dwarf_Off off = 0, next;
	while (x->n < RANGES_MAX && dwarf_nextcu(x->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t at = 0;
		if (dwarf_offdie(x->dw, off + hsize, &cu))
			while (x->n < RANGES_MAX && (at = dwarf_ranges(&cu, at, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (flame__array_reserve_min(x->r, cap, x->n + 1, 64))
					return -1;
				x->r[x->n++] = (curange){lo, hi, off + hsize};
			}
		off = next;
	}
	if (x->n)
		qsort(x->r, x->n, sizeof *x->r, by_lo);
	return 0;
}

/* The compilation unit holding addr: 1 (in *cu), 0 when none, -1 when out of memory. */
static int unit_at(flame__pdlines *l, Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	if (dwarf_addrdie(dw, addr, cu))
		return 1;
	cuindex *x = NULL;
	for (size_t i = 0; i < l->ncus && !x; i++)
		if (l->cus[i].dw == dw)
			x = &l->cus[i];
	if (!x) {
		if (flame__array_reserve_min(l->cus, l->cucap, l->ncus + 1, 8))
			return -1;
		x = &l->cus[l->ncus++];
		*x = (cuindex){dw, NULL, 0};
		if (index_units(x))
			return -1;
	}
	size_t lo = 0, hi = x->n; /* the last range starting at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->r[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && addr < x->r[lo - 1].hi && dwarf_offdie(dw, x->r[lo - 1].die, cu) ? 1 : 0;
}

/* The functions at vaddr into fr[], innermost first: their count, or -1. */
static int lookup(flame__pdlines *l, flame__cfi_file *f, uint64_t vaddr)
{
	Dwarf *dw = flame__cfi_debuginfo(f);
	Dwarf_Die cu, path[FLAME__INL_DEPTH];
	int u = dw ? unit_at(l, dw, vaddr, &cu) : 0;
	if (u <= 0)
		return u;
	int n = flame__inl_path(&cu, vaddr, path);
	int go = dwarf_srclang(&cu) == DW_LANG_Go;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	if (n > 1 && dwarf_getsrcfiles(&cu, &files, &nfiles) != 0)
		files = NULL;
	Dwarf_Line *row = dwarf_getsrc_die(&cu, vaddr);
	int line = 0;
	const char *file = NULL;
	if (row && dwarf_lineno(row, &line) == 0)
		file = dwarf_linesrc(row, NULL, NULL);
	for (int i = n - 1; i >= 0; i--) {
		if (i < n - 1) { /* the call of the function inlined into this one */
			uint64_t fi = attr_u(&path[i + 1], DW_AT_call_file);
			line = (int)attr_u(&path[i + 1], DW_AT_call_line);
			file = files && fi < nfiles ? dwarf_filesrc(files, fi, NULL, NULL) : NULL;
		}
		/* Go's relative names ("<autogenerated>") as Go writes them, not joined to its
		 * compilation directory "." by libdw */
		if (go && file && file[0] == '.' && file[1] == '/')
			file += 2;
		if (add(l, &path[i], go, file, line > 0 ? line : 0))
			return -1;
	}
	return n;
}

static flame_str str_of(const flame__pdlines *l, lstr s)
{
	return (flame_str){l->pool + s.off, s.len};
}

static int frames_of(flame__pdlines *l, const lentry *e, flame__pdline *out, int max)
{
	int n = (int)e->n < max ? (int)e->n : max;
	for (int i = 0; i < n; i++) {
		lframe *x = &l->fr[e->first + (size_t)i];
		out[i] = (flame__pdline){str_of(l, x->fn), str_of(l, x->sys), str_of(l, x->file),
		                         str_of(l, x->text), x->line, x->start_line, &x->memo,
		                         &x->tmemo};
	}
	return n;
}

int flame__pdlines_at(flame__pdlines *l, flame__cfi_file *f, uint32_t id, uint64_t vaddr,
                      flame__pdline *out, int max)
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
	l->v[e] = (lentry){(uint32_t)first, 0}; /* no frames, should the lookup fail */
	int n = lookup(l, f, vaddr);
	if (n < 0)
		return -1;
	l->v[e] = (lentry){(uint32_t)first, (uint32_t)n};
	return frames_of(l, &l->v[e], out, max);
}
