/* Reader of the Firefox Profiler's processed format (profiler.firefox.com's own files, and
 * what samply writes: `samply record --save-only`, `samply import`), into stacks. Sits in
 * parse/ on core/json.h's tokenizer: no document is built.
 *
 *   {"meta":{"preprocessedProfileVersion":49,"startTime":1795885380762.864,...},
 *    "libs":[{"name":"work","path":"/tmp/work","debugPath":"/tmp/work",...}],
 *    "threads":[{"name":"work",
 *      "samples":{"weightType":"samples","stack":[2,2,null],"time":[0.0,0.98,1.9],"weight":[1,1,1]},
 *      "stackTable":{"prefix":[null,0,1],"frame":[0,1,2]},
 *      "frameTable":{"func":[0,1,2],"address":[160329,4498,-1],"inlineDepth":[0,0,0]},
 *      "funcTable":{"name":[1,3,4],"resource":[0,1,-1]},
 *      "resourceTable":{"lib":[0,1],"name":[0,2]},
 *      "stringArray":["libc.so.6","0x27249","work","0x1192","main"]}]}
 *
 * The versions samply 0.13 and the profiler write differ in where things are, and the keys
 * say which: the strings per thread (`stringArray`; `stringTable` before) or shared
 * (`shared.stringArray`, version 56 on), the tables per thread or shared (`shared`, version 60
 * on), a stack's parent as `prefix` or as `prefixOffset` back from it (66 on), a frame's
 * library through its function's resource or on the frame (`frameTable.lib`, 70 on), sample
 * times as `time` or `timeDeltas` (50 on). A sample weighs `weight` (1 each when null or
 * absent) in the unit of `weightType`: samples, tracing-ms (milliseconds) or bytes.
 *
 * Every thread is summed into the one tree under a root frame of its name, as
 * stackcollapse-perf.pl puts the comm first. A frame is its function's name; samply leaves
 * user-space functions unsymbolicated (named by their library-relative address, "0x1192"):
 * such a frame is named from the ELF symbols of its library's file when it is readable here
 * (perfdata-elf.c, with -Dperfdata), else `lib+0x1192`; an address in no library is
 * [unknown], as perf script names it. Kept time is the wall clock:
 * meta.startTime plus the sample's time, both in ms.
 *
 * Memory: the tables, a sum per stack of each thread, and the samples' stacks while their
 * weights are still to come (samply writes `stack` before `weight`: 4 bytes a sample of
 * the thread being read); 20 bytes a sample more when keeping time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../core/array.h"
#include "../core/json.h"
#include "parser.h"
#ifdef FLAME_HAVE_PERFDATA
#include "perfdata-elf.h"
#endif

typedef flame__json_text text;
typedef flame__array(int32_t) col;
typedef flame__array(int64_t) col64;
typedef flame__array(uint64_t) colu;

#define NONE UINT32_MAX

/* One set of tables: a thread's own, or the profile's shared ones. */
typedef struct tables {
	col prefix, sframe;    /* stackTable: prefix (or prefixOffset), frame */
	int prefix_offset;     /* prefix holds prefixOffset (version 66 on) */
	col func, flib;        /* frameTable: func, lib (version 70 on) */
	col64 addr;            /* frameTable: address (-1: none) */
	col fname, fres;       /* funcTable: name, resource */
	col rlib;              /* resourceTable: lib (before version 70) */
	text str;              /* the strings back to back ... */
	flame__array(uint32_t) soff; /* ... string i at str[soff[i] .. soff[i + 1]) */
	int have_str, have_stack;
	flame__array(uint32_t) named; /* frame -> name id (NONE: not named yet) */
} tables;

/* A library of profile.libs, and its symbols once looked for. */
typedef struct lib {
	char *name, *path, *dpath, *code_id;
	int state; /* 0: not looked for, 1: symbols, -1: none */
#ifdef FLAME_HAVE_PERFDATA
	flame__symtab syms;
#endif
} lib;

/* A thread's samples: the sum per stack; its samples one by one when keeping time. */
typedef struct thread {
	text name;
	unsigned scale; /* decimals of w and wsum */
	colu wsum;      /* stack -> weight */
	col stack;      /* each sample's stack (-1: none), while weights may come */
	colu w;         /* each sample's weight, when keeping time */
	col64 t;        /* each sample's time in ns since startTime, when keeping time */
	int have_stack, have_w, have_t;
	flame__array(uint64_t) wbuf_m; /* weights read before the stacks: mantissas, */
	flame__array(uint8_t) wbuf_d;  /* ... and decimals */
	tables own;     /* its own tables, when it waits for the shared strings */
	int own_tables;
} thread;

typedef struct ffr {
	flame__json j;
	flame__sink k;
	const char *src;
	int timed;
	int64_t start_ns;
	tables local, shared;
	flame__array(lib) libs;
	thread th;
	flame__array(thread) pending; /* threads waiting for the shared tables */
	char units[16];
	text tmp;
	flame__array(uint32_t) ids;
	flame__array(uint32_t) pool, at; /* ids of each used stack: at[stack] -> pool offset */
	uint64_t frames; /* frames of the stacks named so far, against FRAMES_PER_BYTE */
} ffr;

/* Each used stack is walked to its root, so a hostile table of stacks chained one on the
 * next would cost the square of its length: the frames named are bounded by the input read
 * so far, as pprof's are (a real file names well under one frame per byte). */
enum { FRAMES_PER_BYTE = 16, FRAMES_FREE = 1 << 20 };

static int probe(const char *buf, size_t len)
{
	size_t i = 0;
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	return i < len && buf[i] == '{' && memmem(buf, len, "\"preprocessedProfileVersion\"", 28) &&
	       (memmem(buf, len, "\"threads\"", 9) || memmem(buf, len, "\"stackTable\"", 12));
}

/* The next token is `want`: 1; null: 0 (nothing to read); else an error. */
static int open_or_null(ffr *s, int want, const char *what)
{
	int t = flame__json_next(&s->j);
	if (t == want)
		return 1;
	if (t == FLAME__JSON_NULL)
		return 0;
	return t < 0 ? t : flame__json_bad(&s->j, "%s should be an %s", what,
	                                   want == FLAME__JSON_ARR ? "array" : "object");
}

/* An array of integers or nulls (-1) into c, each at least -1 and below INT32_MAX, or
 * into c64 as they are (times, weights): the one reader of the tables' columns. */
static int read_column(ffr *s, col *c, col64 *c64, const char *what)
{
	int64_t v[256];
	long got;
	int rc = open_or_null(s, FLAME__JSON_ARR, what);
	if (c)
		c->n = 0;
	else
		c64->n = 0;
	if (rc <= 0)
		return rc;
	while ((got = flame__json_array_nints(&s->j, v, 256, -1, what)) > 0) {
		if (c64 ? flame__array_reserve(c64->v, c64->cap, c64->n + (size_t)got)
		        : flame__array_reserve(c->v, c->cap, c->n + (size_t)got))
			return flame__err_nomem(s->j.err);
		if (c64) {
			memcpy(c64->v + c64->n, v, (size_t)got * sizeof *v);
			c64->n += (size_t)got;
			continue;
		}
		for (long i = 0; i < got; i++) {
			if (v[i] < -1 || v[i] >= INT32_MAX)
				return flame__json_bad(&s->j, "%s %lld is out of range", what, (long long)v[i]);
			c->v[c->n++] = (int32_t)v[i];
		}
	}
	return (int)got;
}

static int column(ffr *s, col *c, const char *what) { return read_column(s, c, NULL, what); }

static int column64(ffr *s, col64 *c, const char *what) { return read_column(s, NULL, c, what); }

static char *strdup_value(ffr *s, char **out)
{
	free(*out);
	*out = NULL;
	if (flame__json_text_value(&s->j, &s->tmp))
		return NULL;
	*out = malloc(s->tmp.n + 1);
	if (*out) {
		memcpy(*out, s->tmp.v ? s->tmp.v : "", s->tmp.n);
		(*out)[s->tmp.n] = 0;
	}
	return *out;
}

/* ---- the tables */

static int strings(ffr *s, tables *tb)
{
	int rc = open_or_null(s, FLAME__JSON_ARR, "a string table"), t;
	tb->str.n = tb->soff.n = 0;
	tb->have_str = 1;
	if (flame__array_push(tb->soff, 0))
		return flame__err_nomem(s->j.err);
	if (rc <= 0)
		return rc;
	while ((t = flame__json_next(&s->j)) == FLAME__JSON_STR || t == FLAME__JSON_NULL) {
		size_t n = t == FLAME__JSON_STR ? s->j.n : 0;
		if (tb->str.n + n >= UINT32_MAX)
			return flame__json_bad(&s->j, "the string table is over 4 GiB");
		if (flame__array_reserve(tb->str.v, tb->str.cap, tb->str.n + n + 1))
			return flame__err_nomem(s->j.err);
		if (n)
			memcpy(tb->str.v + tb->str.n, s->j.s, n);
		tb->str.n += n;
		if (flame__array_push(tb->soff, (uint32_t)tb->str.n))
			return flame__err_nomem(s->j.err);
	}
	return t == FLAME__JSON_ARR_END ? 0 : t < 0 ? t : flame__json_bad(&s->j, "a string table's entry should be a string");
}

/* One table object: each key in `keys` read into its column, the rest skipped. */
typedef struct colkey {
	const char *key;
	col *c;
	col64 *c64;
	int *flag; /* set when this key was read */
} colkey;

static int table(ffr *s, const colkey *keys, size_t nkeys, const char *what)
{
	int rc = open_or_null(s, FLAME__JSON_OBJ, what), t;
	if (rc <= 0)
		return rc;
	while ((t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		size_t i = 0;
		while (i < nkeys && !flame__json_is(&s->j, keys[i].key))
			i++;
		if (i == nkeys)
			rc = flame__json_skip_value(&s->j);
		else if (keys[i].c64)
			rc = column64(s, keys[i].c64, keys[i].key);
		else
			rc = column(s, keys[i].c, keys[i].key);
		if (rc)
			return rc;
		if (i < nkeys && keys[i].flag)
			*keys[i].flag = 1;
	}
	return t == FLAME__JSON_OBJ_END ? 0 : t;
}

/* A table of `tb` named by the current key: 1 when it was one, 0 when the key is another. */
static int table_member(ffr *s, tables *tb, int *rc)
{
	int is_prefix = 0, is_offset = 0;
	if (flame__json_is(&s->j, "stackTable")) {
		colkey k[] = {{"prefix", &tb->prefix, NULL, &is_prefix},
		              {"prefixOffset", &tb->prefix, NULL, &is_offset},
		              {"frame", &tb->sframe, NULL, NULL}};
		*rc = table(s, k, 3, "stackTable");
		tb->prefix_offset = is_offset && !is_prefix;
		tb->have_stack = 1;
	} else if (flame__json_is(&s->j, "frameTable")) {
		colkey k[] = {{"func", &tb->func, NULL, NULL}, {"lib", &tb->flib, NULL, NULL},
		              {"address", NULL, &tb->addr, NULL}};
		*rc = table(s, k, 3, "frameTable");
		tb->named.n = 0;
	} else if (flame__json_is(&s->j, "funcTable")) {
		colkey k[] = {{"name", &tb->fname, NULL, NULL}, {"resource", &tb->fres, NULL, NULL}};
		*rc = table(s, k, 2, "funcTable");
	} else if (flame__json_is(&s->j, "resourceTable")) {
		colkey k[] = {{"lib", &tb->rlib, NULL, NULL}};
		*rc = table(s, k, 1, "resourceTable");
	} else if (flame__json_is(&s->j, "stringArray") || flame__json_is(&s->j, "stringTable")) {
		*rc = strings(s, tb);
	} else {
		return 0;
	}
	return 1;
}

static void tables_reset(tables *tb)
{
	tb->prefix.n = tb->sframe.n = tb->func.n = tb->flib.n = tb->addr.n = 0;
	tb->fname.n = tb->fres.n = tb->rlib.n = tb->str.n = tb->soff.n = tb->named.n = 0;
	tb->have_str = tb->have_stack = tb->prefix_offset = 0;
}

static void tables_free(tables *tb)
{
	flame__array_free(tb->prefix);
	flame__array_free(tb->sframe);
	flame__array_free(tb->func);
	flame__array_free(tb->flib);
	flame__array_free(tb->addr);
	flame__array_free(tb->fname);
	flame__array_free(tb->fres);
	flame__array_free(tb->rlib);
	flame__array_free(tb->str);
	flame__array_free(tb->soff);
	flame__array_free(tb->named);
}

/* ---- naming */

static int is_hex_address(const char *p, size_t n)
{
	if (n < 3 || n > 18 || p[0] != '0' || p[1] != 'x')
		return 0;
	for (size_t i = 2; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f') ||
		      (p[i] >= 'A' && p[i] <= 'F')))
			return 0;
	return 1;
}

#ifdef FLAME_HAVE_PERFDATA
static int regular(const char *path)
{
	struct stat st;
	return path && !stat(path, &st) && S_ISREG(st.st_mode); /* never a device or a pipe */
}

/* Library l's symbols, from the files perf would read: its build-id's copy in perf's
 * cache (~/.debug/.build-id/xx/rest/elf) and debug file (/usr/lib/debug/.build-id/xx/
 * rest.debug), its path when the build-id there is the recorded one (or none is
 * recorded), or its debugPath; the first with a .symtab gives the names, the binary (else
 * the first found) the segments. */
static void lib_load(lib *l)
{
	char cache[4200] = "", dbg[128] = "";
	const char *cand[4], *runtime = NULL, *home = getenv("HOME");
	size_t nc = 0, idn = l->code_id ? strlen(l->code_id) : 0;
	if (idn >= 4 && idn <= 80 && strspn(l->code_id, "0123456789abcdef") == idn) {
		snprintf(cache, sizeof cache, "%.4000s/.debug/.build-id/%.2s/%s/elf", home ? home : "",
		         l->code_id, l->code_id + 2);
		snprintf(dbg, sizeof dbg, "/usr/lib/debug/.build-id/%.2s/%s.debug", l->code_id, l->code_id + 2);
	}
	if (cache[0] && regular(cache))
		cand[nc++] = runtime = cache;
	if (dbg[0] && regular(dbg))
		cand[nc++] = dbg;
	if (regular(l->path)) {
		uint8_t id[20];
		char h[41];
		size_t k = flame__elf_build_id_path(l->path, id);
		for (size_t i = 0; i < k; i++)
			snprintf(h + 2 * i, 3, "%02x", id[i]);
		if (!idn || (k && 2 * k == idn && !memcmp(h, l->code_id, idn)))
			cand[nc++] = runtime = l->path;
	}
	if (regular(l->dpath) && (!l->path || strcmp(l->dpath, l->path)))
		cand[nc++] = l->dpath;
	const char *syms = nc ? cand[0] : NULL;
	for (size_t i = 0; i < nc; i++)
		if (flame__elf_has_symtab(cand[i])) {
			syms = cand[i];
			break;
		}
	l->state = -1;
	if (syms && !flame__elf_symbols_rel(syms, runtime ? runtime : syms, &l->syms) && l->syms.n)
		l->state = 1;
	else
		flame__symtab_free(&l->syms), memset(&l->syms, 0, sizeof l->syms);
}
#endif

/* The symbol of library-relative address `a` in library l's files, when they are here. */
static const char *lib_symbol(lib *l, uint64_t a)
{
#ifdef FLAME_HAVE_PERFDATA
	if (!l->state)
		lib_load(l);
	const flame__sym *y = l->state > 0 ? flame__symtab_find(&l->syms, a) : NULL;
	return y ? flame__sym_name(&l->syms, y) : NULL;
#else
	(void)l, (void)a;
	return NULL;
#endif
}

/* Frame f's library (-1: none): on the frame (version 70 on), else its function's resource's. */
static int32_t frame_lib(const tables *tb, uint32_t f, int32_t fn)
{
	if (tb->flib.n)
		return f < tb->flib.n ? tb->flib.v[f] : -1;
	int32_t r = (size_t)fn < tb->fres.n ? tb->fres.v[fn] : -1;
	return r >= 0 && (size_t)r < tb->rlib.n ? tb->rlib.v[r] : -1;
}

/* An address name ("0x1192") of frame f in library li: its symbol, or `lib+0x1192`. */
static int address_name(ffr *s, const tables *tb, uint32_t f, int32_t li, const char *p, size_t n)
{
	lib *l = &s->libs.v[li];
	uint64_t a = f < tb->addr.n && tb->addr.v[f] >= 0 ? (uint64_t)tb->addr.v[f]
	                                                   : strtoull(p + 2, NULL, 16);
	(void)n;
	const char *sym = lib_symbol(l, a);
	size_t len = (sym ? strlen(sym) : strlen(l->name ? l->name : "")) + 24;
	if (flame__array_reserve(s->tmp.v, s->tmp.cap, len))
		return flame__err_nomem(s->j.err);
	int k = sym ? snprintf(s->tmp.v, len, "%s", sym)
	            : snprintf(s->tmp.v, len, "%s+0x%llx", l->name ? l->name : "", (unsigned long long)a);
	s->tmp.n = (size_t)k;
	return 0;
}

/* Frame f's name id, named once per table. */
static int frame_name(ffr *s, tables *tb, const tables *strs, uint32_t f, uint32_t *id)
{
	if (f >= tb->func.n)
		return flame__json_bad(&s->j, "frame %u is not in the frame table", f);
	if (!tb->named.n) {
		if (flame__array_reserve(tb->named.v, tb->named.cap, tb->func.n))
			return flame__err_nomem(s->j.err);
		memset(tb->named.v, 0xff, tb->func.n * sizeof *tb->named.v);
		tb->named.n = tb->func.n;
	}
	if ((*id = tb->named.v[f]) != NONE)
		return 0;
	int32_t fn = tb->func.v[f], sx;
	if (fn < 0 || (size_t)fn >= tb->fname.n)
		return flame__json_bad(&s->j, "frame %u's function %d is not in the function table", f, fn);
	if ((sx = tb->fname.v[fn]) < 0 || (size_t)sx + 1 >= strs->soff.n)
		return flame__json_bad(&s->j, "function %d's name %d is not in the string table", fn, sx);
	const char *p = (strs->str.v ? strs->str.v : "") + strs->soff.v[sx];
	size_t n = strs->soff.v[sx + 1] - strs->soff.v[sx];
	int32_t li = is_hex_address(p, n) ? frame_lib(tb, f, fn) : INT32_MIN;
	if (li == -1 || (li >= 0 && (size_t)li >= s->libs.n))
		p = "[unknown]", n = 9; /* an address in no library, as perf script names it */
	else if (li >= 0) {
		int rc = address_name(s, tb, f, li, p, n);
		if (rc)
			return rc;
		p = s->tmp.v, n = s->tmp.n;
	}
	*id = flame__sink_intern(&s->k, p, n);
	if (*id == FLAME__ID_NONE)
		return flame__err_nomem(s->j.err);
	tb->named.v[f] = *id;
	return 0;
}

/* Stack st's names, root first after `root`, into s->ids. */
static int stack_ids(ffr *s, tables *tb, const tables *strs, uint32_t root, int32_t st)
{
	s->ids.n = 0;
	for (int64_t at = st; at >= 0;) {
		uint32_t id;
		if (++s->frames > (s->j.base + s->j.pos) * FRAMES_PER_BYTE + FRAMES_FREE)
			return flame__json_bad(&s->j, "the stacks expand to more than %d frames per byte "
			                       "of input (a stack table chained to a hostile depth?)",
			                       FRAMES_PER_BYTE);
		if ((size_t)at >= tb->prefix.n || (size_t)at >= tb->sframe.n || tb->sframe.v[at] < 0)
			return flame__json_bad(&s->j, "stack %lld is not in the stack table", (long long)at);
		int rc = frame_name(s, tb, strs, (uint32_t)tb->sframe.v[at], &id);
		if (rc || (rc = flame__array_push(s->ids, id) ? flame__err_nomem(s->j.err) : 0))
			return rc;
		int64_t p = tb->prefix.v[at];
		if (tb->prefix_offset)
			p = p > 0 ? at - p : p == 0 ? -1 : at;
		if (p >= at)
			return flame__json_bad(&s->j, "stack %lld's prefix %lld does not come before it",
			                       (long long)at, (long long)p);
		at = p;
	}
	if (flame__array_push(s->ids, root))
		return flame__err_nomem(s->j.err);
	for (size_t a = 0, b = s->ids.n - 1; a < b; a++, b--) {
		uint32_t x = s->ids.v[a];
		s->ids.v[a] = s->ids.v[b];
		s->ids.v[b] = x;
	}
	return 0;
}

/* ---- samples */

/* Raise the thread's scale to d decimals: its weights so far times 10^k. */
static int raise_scale(ffr *s, thread *th, unsigned d)
{
	uint64_t f = flame__pow10[d - th->scale];
	colu *a[2] = {&th->wsum, &th->w};
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < a[k]->n; i++) {
			if (a[k]->v[i] > UINT64_MAX / f)
				return flame__json_bad(&s->j, "the weights overflow 64 bits with %u decimals", d);
			a[k]->v[i] *= f;
		}
	th->scale = d;
	return 0;
}

/* Sample i weighs m / 10^d: onto its stack's sum, or kept beside it when keeping time. */
static int weigh(ffr *s, thread *th, size_t i, uint64_t m, unsigned d)
{
	int rc = d > th->scale ? raise_scale(s, th, d) : 0;
	uint64_t f = flame__pow10[th->scale - d], *x;
	if (rc || i >= th->stack.n)
		return rc;
	if (m > UINT64_MAX / f)
		return flame__json_bad(&s->j, "a weight overflows 64 bits");
	int32_t st = th->stack.v[i];
	if (s->timed) {
		if (flame__array_reserve(th->w.v, th->w.cap, th->stack.n))
			return flame__err_nomem(s->j.err);
		memset(th->w.v + th->w.n, 0, (th->stack.n - th->w.n) * sizeof *th->w.v);
		th->w.n = th->stack.n;
		th->w.v[i] = m * f;
		return 0;
	}
	if (st < 0)
		return 0; /* no stack: nothing to hang it on, as the profiler's call tree drops it */
	if ((size_t)st >= th->wsum.n) {
		if (flame__array_reserve(th->wsum.v, th->wsum.cap, (size_t)st + 1))
			return flame__err_nomem(s->j.err);
		memset(th->wsum.v + th->wsum.n, 0, ((size_t)st + 1 - th->wsum.n) * sizeof *th->wsum.v);
		th->wsum.n = (size_t)st + 1;
	}
	x = &th->wsum.v[st];
	if (*x + m * f < *x)
		return flame__json_bad(&s->j, "a stack's weight overflows 64 bits");
	*x += m * f;
	return 0;
}

static int weights(ffr *s, thread *th)
{
	int rc = open_or_null(s, FLAME__JSON_ARR, "weight"), t;
	size_t i = 0;
	if (rc <= 0)
		return rc;
	th->have_w = 1;
	while ((t = flame__json_next(&s->j)) == FLAME__JSON_NUM) {
		uint64_t m;
		unsigned d;
		if ((rc = flame__json_decimal(&s->j, &m, &d, NULL, "a weight")))
			return rc;
		if (th->have_stack)
			rc = weigh(s, th, i, m, d);
		else if (flame__array_push(th->wbuf_m, m) || flame__array_push(th->wbuf_d, (uint8_t)d))
			rc = flame__err_nomem(s->j.err);
		if (rc)
			return rc;
		i++;
	}
	return t == FLAME__JSON_ARR_END ? 0 : t < 0 ? t : flame__json_bad(&s->j, "a weight should be a number");
}

/* The current NUM token, in ms, as ns. */
static int ms_to_ns(ffr *s, int64_t *ns, const char *what)
{
	uint64_t m;
	unsigned d;
	int neg = 0, rc = flame__json_decimal(&s->j, &m, &d, &neg, what);
	if (rc)
		return rc;
	if (d <= 6 && m > (uint64_t)INT64_MAX / flame__pow10[6 - d])
		return flame__json_bad(&s->j, "%s is out of range", what);
	m = d <= 6 ? m * flame__pow10[6 - d] : (m + flame__pow10[d - 6] / 2) / flame__pow10[d - 6];
	*ns = neg ? -(int64_t)m : (int64_t)m;
	return 0;
}

/* `time` (deltas: `timeDeltas`, each from the one before) in ms, kept in ns. */
static int times(ffr *s, thread *th, int deltas)
{
	int rc = open_or_null(s, FLAME__JSON_ARR, deltas ? "timeDeltas" : "time"), t;
	int64_t at = 0, v;
	if (rc <= 0)
		return rc;
	th->have_t = 1;
	th->t.n = 0;
	while ((t = flame__json_next(&s->j)) == FLAME__JSON_NUM) {
		if ((rc = ms_to_ns(s, &v, "a sample's time")))
			return rc;
		if (deltas && ((v > 0 && at > INT64_MAX - v) || (v < 0 && at < INT64_MIN - v)))
			return flame__json_bad(&s->j, "the time deltas overflow");
		at = deltas ? at + v : v;
		if (flame__array_push(th->t, at))
			return flame__err_nomem(s->j.err);
	}
	return t == FLAME__JSON_ARR_END ? 0 : t < 0 ? t : flame__json_bad(&s->j, "a sample's time should be a number");
}

static int weight_type(ffr *s)
{
	static const char *const types[][2] = {{"samples", "samples"}, {"tracing-ms", "milliseconds"},
	                                       {"bytes", "bytes"}};
	int rc = flame__json_text_value(&s->j, &s->tmp);
	for (size_t i = 0; !rc && i < sizeof types / sizeof *types; i++)
		if (s->tmp.n == strlen(types[i][0]) && !memcmp(s->tmp.v, types[i][0], s->tmp.n)) {
			if (s->units[0] && strcmp(s->units, types[i][1]))
				return flame__json_bad(&s->j, "a thread weighs %s where an earlier one weighs %s",
				                       types[i][1], s->units);
			strcpy(s->units, types[i][1]);
			return 0;
		}
	return rc ? rc : flame__json_bad(&s->j, "weightType '%.*s' is not samples, tracing-ms or bytes",
	                                 (int)(s->tmp.n < 40 ? s->tmp.n : 40), s->tmp.v ? s->tmp.v : "");
}

/* The stacks read: the weights read before them, or 1 each when there are none. */
static int stacks_read(ffr *s, thread *th)
{
	int rc = 0;
	th->have_stack = 1;
	for (size_t i = 0; i < th->wbuf_m.n && !rc; i++)
		rc = weigh(s, th, i, th->wbuf_m.v[i], th->wbuf_d.v[i]);
	th->wbuf_m.n = th->wbuf_d.n = 0;
	return rc;
}

static int samples(ffr *s, thread *th)
{
	int rc = open_or_null(s, FLAME__JSON_OBJ, "samples"), t;
	if (rc <= 0)
		return rc;
	rc = 0;
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&s->j, "stack") && th->have_stack)
			rc = flame__json_bad(&s->j, "a second stack column");
		else if (flame__json_is(&s->j, "stack"))
			rc = (rc = column(s, &th->stack, "a sample's stack")) ? rc : stacks_read(s, th);
		else if (flame__json_is(&s->j, "weight"))
			rc = weights(s, th);
		else if (flame__json_is(&s->j, "weightType"))
			rc = weight_type(s);
		else if (s->timed && (flame__json_is(&s->j, "time") || flame__json_is(&s->j, "timeDeltas")))
			rc = times(s, th, flame__json_is(&s->j, "timeDeltas"));
		else
			rc = flame__json_skip_value(&s->j);
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	for (size_t i = 0; !th->have_w && i < th->stack.n && !rc; i++)
		rc = weigh(s, th, i, 1, 0);
	if (!s->timed)
		th->stack.n = 0;
	return rc;
}

/* ---- threads */

/* Stack st's ids through the memo of the timed path: its offset in s->pool. */
static int stack_memo(ffr *s, tables *tb, const tables *strs, uint32_t root, int32_t st,
                      uint32_t *off)
{
	if ((size_t)st >= s->at.n) {
		if (flame__array_reserve(s->at.v, s->at.cap, (size_t)st + 1))
			return flame__err_nomem(s->j.err);
		memset(s->at.v + s->at.n, 0xff, ((size_t)st + 1 - s->at.n) * sizeof *s->at.v);
		s->at.n = (size_t)st + 1;
	}
	if ((*off = s->at.v[st]) != NONE)
		return 0;
	int rc = stack_ids(s, tb, strs, root, st);
	if (rc)
		return rc;
	if (s->pool.n + s->ids.n + 1 >= NONE ||
	    flame__array_reserve(s->pool.v, s->pool.cap, s->pool.n + s->ids.n + 1))
		return flame__err_nomem(s->j.err);
	*off = s->at.v[st] = (uint32_t)s->pool.n;
	s->pool.v[s->pool.n++] = (uint32_t)s->ids.n;
	memcpy(s->pool.v + s->pool.n, s->ids.v, s->ids.n * sizeof *s->ids.v);
	s->pool.n += s->ids.n;
	return 0;
}

/* A timed thread's samples, one by one with their wall-clock times. */
static int emit_timed(ffr *s, thread *th, tables *tb, const tables *strs, uint32_t root, uint64_t f)
{
	s->at.n = s->pool.n = 0;
	for (size_t i = 0; i < th->stack.n; i++) {
		uint32_t off;
		uint64_t w = i < th->w.n ? th->w.v[i] : 0;
		if (th->stack.v[i] < 0 || !w)
			continue;
		int rc = stack_memo(s, tb, strs, root, th->stack.v[i], &off);
		if (rc)
			return rc;
		if (w > UINT64_MAX / f)
			return flame__json_bad(&s->j, "a weight overflows 64 bits");
		const uint32_t *ids = s->pool.v + off + 1;
		int64_t t = i < th->t.n ? th->t.v[i] : 0;
		rc = i < th->t.n ? flame__sink_add_timed(&s->k, ids, s->pool.v[off], w * f, 0,
		                                          FLAME_CLOCK_WALL, s->start_ns + t, s->j.err)
		                 : flame__sink_add(&s->k, ids, s->pool.v[off], w * f, 0, s->j.err);
		if (rc)
			return rc;
	}
	return 0;
}

/* A thread's samples to the sink, named through tb (strings from strs). */
static int resolve(ffr *s, thread *th, tables *tb, const tables *strs)
{
	if (!strs->have_str)
		return flame__json_bad(&s->j, "a thread's stacks come with no string table");
	int rc = flame__sink_units(&s->k, s->units[0] ? s->units : "samples", NULL, s->src, s->j.err);
	if (!rc && th->scale > flame__sink_scale(&s->k))
		rc = flame__sink_rescale(&s->k, th->scale, s->j.err);
	uint32_t root = flame__sink_intern(&s->k, th->name.n ? th->name.v : "[unknown]",
	                                   th->name.n ? th->name.n : 9);
	if (rc || root == FLAME__ID_NONE)
		return rc ? rc : flame__err_nomem(s->j.err);
	uint64_t f = flame__pow10[flame__sink_scale(&s->k) - th->scale];
	if (s->timed)
		return emit_timed(s, th, tb, strs, root, f);
	for (size_t st = 0; st < th->wsum.n && !rc; st++) {
		if (!th->wsum.v[st])
			continue;
		if (th->wsum.v[st] > UINT64_MAX / f)
			return flame__json_bad(&s->j, "a stack's weight overflows 64 bits");
		if (!(rc = stack_ids(s, tb, strs, root, (int32_t)st)))
			rc = flame__sink_add(&s->k, s->ids.v, s->ids.n, th->wsum.v[st] * f, 0, s->j.err);
	}
	return rc;
}

static void thread_free(thread *th)
{
	flame__array_free(th->name);
	flame__array_free(th->wsum);
	flame__array_free(th->stack);
	flame__array_free(th->w);
	flame__array_free(th->t);
	flame__array_free(th->wbuf_m);
	flame__array_free(th->wbuf_d);
	tables_free(&th->own);
}

/* The thread read: named now with its own tables, or with the shared ones when they are
 * here, else kept until the end of the file. */
static int thread_done(ffr *s, thread *th)
{
	if (!th->wsum.n && !th->stack.n)
		return 0;
	if (s->local.have_stack && (s->local.have_str || s->shared.have_str))
		return resolve(s, th, &s->local, s->local.have_str ? &s->local : &s->shared);
	if (!s->local.have_stack && s->shared.have_stack && s->shared.have_str)
		return resolve(s, th, &s->shared, &s->shared);
	if (s->local.have_stack) { /* its tables go with it */
		th->own = s->local;
		th->own_tables = 1;
		memset(&s->local, 0, sizeof s->local);
	}
	if (flame__array_push(s->pending, *th))
		return flame__err_nomem(s->j.err);
	memset(th, 0, sizeof *th);
	return 0;
}

static int thread_obj(ffr *s)
{
	int rc = 0, t;
	thread *th = &s->th;
	tables_reset(&s->local);
	th->name.n = th->wsum.n = th->stack.n = th->w.n = th->t.n = th->wbuf_m.n = th->wbuf_d.n = 0;
	th->scale = 0;
	th->have_stack = th->have_w = th->have_t = 0;
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&s->j, "name"))
			rc = flame__json_text_value(&s->j, &th->name);
		else if (flame__json_is(&s->j, "samples"))
			rc = samples(s, th);
		else if (!table_member(s, &s->local, &rc))
			rc = flame__json_skip_value(&s->j);
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	return thread_done(s, th);
}

/* ---- the file */

static int lib_obj(ffr *s)
{
	int rc = 0, t;
	if (flame__array_push(s->libs, ((lib){0})))
		return flame__err_nomem(s->j.err);
	lib *l = &s->libs.v[s->libs.n - 1];
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		char **to = flame__json_is(&s->j, "name") ? &l->name : flame__json_is(&s->j, "path") ? &l->path
		          : flame__json_is(&s->j, "debugPath") ? &l->dpath : flame__json_is(&s->j, "codeId") ? &l->code_id : NULL;
		if (!to)
			rc = flame__json_skip_value(&s->j);
		else if (!strdup_value(s, to) && s->tmp.v)
			rc = flame__err_nomem(s->j.err);
	}
	return rc ? rc : t < 0 ? t : 0;
}

static int meta(ffr *s)
{
	int rc = open_or_null(s, FLAME__JSON_OBJ, "meta"), t;
	if (rc <= 0)
		return rc;
	rc = 0;
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		if (!flame__json_is(&s->j, "startTime")) {
			rc = flame__json_skip_value(&s->j);
		} else if ((t = flame__json_next(&s->j)) == FLAME__JSON_NUM) {
			rc = ms_to_ns(s, &s->start_ns, "meta.startTime");
		} else {
			rc = t < 0 ? t : flame__json_skip(&s->j, t);
		}
	}
	return rc ? rc : t < 0 ? t : 0;
}

/* An array of objects, each read by `one`. */
static int objects(ffr *s, int (*one)(ffr *), const char *what)
{
	int rc = open_or_null(s, FLAME__JSON_ARR, what), t;
	if (rc <= 0)
		return rc;
	while ((t = flame__json_next(&s->j)) == FLAME__JSON_OBJ)
		if ((rc = one(s)))
			return rc;
	return t == FLAME__JSON_ARR_END ? 0 : t < 0 ? t : flame__json_bad(&s->j, "%s should hold objects", what);
}

static int shared_obj(ffr *s)
{
	int rc = open_or_null(s, FLAME__JSON_OBJ, "shared"), t;
	if (rc <= 0)
		return rc;
	rc = 0;
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY)
		if (!table_member(s, &s->shared, &rc))
			rc = flame__json_skip_value(&s->j);
	return rc ? rc : t < 0 ? t : 0;
}

static int members(ffr *s)
{
	int t = flame__json_next(&s->j), rc = 0;
	if (t != FLAME__JSON_OBJ)
		return t < 0 ? t : flame__json_bad(&s->j, "a Firefox Profiler file should be an object");
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&s->j, "meta"))
			rc = meta(s);
		else if (flame__json_is(&s->j, "libs"))
			rc = objects(s, lib_obj, "libs");
		else if (flame__json_is(&s->j, "threads"))
			rc = objects(s, thread_obj, "threads");
		else if (flame__json_is(&s->j, "shared"))
			rc = shared_obj(s);
		else
			rc = flame__json_skip_value(&s->j);
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	if ((t = flame__json_next(&s->j)) < 0)
		return t;
	for (size_t i = 0; i < s->pending.n && !rc; i++) {
		thread *th = &s->pending.v[i];
		tables *tb = th->own_tables ? &th->own : &s->shared;
		rc = tb->have_stack ? resolve(s, th, tb, tb->have_str ? tb : &s->shared)
		                    : flame__json_bad(&s->j, "a thread has samples but no stack table");
	}
	return rc ? rc : flame__sink_units(&s->k, s->units[0] ? s->units : "samples", NULL, s->src,
	                                   s->j.err);
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	(void)o;
	ffr s = {.src = flame_input_name(in)};
	int rc = flame__json_init(&s.j, in, err);
	if (rc)
		return rc;
	flame__sink_init(&s.k, t);
	s.timed = s.k.time != NULL;
	rc = members(&s);
	flame__json_free(&s.j);
	tables_free(&s.local);
	tables_free(&s.shared);
	for (size_t i = 0; i < s.libs.n; i++) {
		free(s.libs.v[i].name);
		free(s.libs.v[i].path);
		free(s.libs.v[i].dpath);
		free(s.libs.v[i].code_id);
#ifdef FLAME_HAVE_PERFDATA
		flame__symtab_free(&s.libs.v[i].syms);
#endif
	}
	flame__array_free(s.libs);
	thread_free(&s.th);
	for (size_t i = 0; i < s.pending.n; i++)
		thread_free(&s.pending.v[i]);
	flame__array_free(s.pending);
	flame__array_free(s.tmp);
	flame__array_free(s.ids);
	flame__array_free(s.pool);
	flame__array_free(s.at);
	return rc;
}

const struct flame__parser flame__parser_firefox = {probe, parse};
