/* Threads, maps and frame names for perf.data samples (see perfdata-sym.h), as perf
 * script 6.1 resolves them:
 *   - a thread's comm is the last COMM for it; FORK gives the child its parent's comm
 *     (when one was recorded) and, for a new process, a copy of its maps; a thread never
 *     named is ":TID", but for tid 0, perf's idle thread "swapper";
 *   - a map is found in the process's maps (user addresses) or the kernel's (pid -1:
 *     [kernel.kallsyms]); a new map cuts what it overlaps; the address in the file is
 *     ip - start + pgoff (anonymous executable memory: ip itself, in /tmp/perf-PID.map);
 *   - a file's symbols come from the build-id cache (~/.debug/.build-id/xx/rest/elf) or /usr/lib/debug/.build-id/xx/rest.debug, or the path itself
 *     when its build-id is the recorded one (or none was recorded): the first that has a
 *     .symtab, else the first that opens; the kernel's from /proc/kallsyms (the cache's
 *     kallsyms, or none, when the running kernel is not the recorded one), moved by the distance
 *     between the recorded and the present address of the map's reference symbol (_text);
 *     once they are read the kernel's map spans them (the init text past _etext too);
 *   - a kernel module's map (pid -1, a .ko path or "[NAME]") is "[NAME]", its symbols the
 *     kallsyms lines of that module;
 *   - no map: "[unknown] ([unknown])"; a map but no symbol: "[unknown] (DSO)".
 * Each distinct (file, address) is named once and its text kept in a cache (bounded:
 * it starts again when full). Names, comms and paths are hostile: control bytes are
 * written as '?', so the text perf.c reads stays text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../core/array.h"
#include "../core/hash.h"
#include "../core/lines.h"
#include "../core/memo.h"
#include "../core/slots.h"
#include "perf-name.h"
#include "perfdata-elf.h"
#include "perfdata-sym.h"

enum { D_ELF, D_KERNEL, D_KMOD, D_PERFMAP, D_NONE };
enum { FC_BYTES = 64 << 20, MAX_MAPS = 1 << 17 };

typedef struct dso {
	char *name;
	uint8_t bid[20];
	uint8_t bidlen;
	int kind, loaded;
	int cls; /* flame__perf_dso_class of its name */
	uint32_t idx; /* its place in dsos[] */
	uint64_t reloc; /* kernel: subtracted from kallsyms addresses */
	char ref[32];   /* kernel: the reference symbol ("_text") */
	uint64_t ref_addr;
	flame__symtab syms;
} dso;

typedef struct map {
	uint64_t start, end, pgoff;
	dso *d;
	int identity; /* the address in the file is the ip (anonymous memory, kernel) */
} map;

typedef struct proc {
	uint32_t pid; /* the table's key: first (see table_get) */
	map *v;
	size_t n, cap;
	size_t last;
} proc;

typedef struct thread {
	uint32_t tid; /* the table's key: first (see table_get) */
	uint32_t pid;
	int comm_set;
	char *comm;
	size_t comm_len;
} thread;

typedef struct fentry {
	uint32_t off, len; /* the text in fbuf */
	uint64_t memo; /* the caller's (flame__pdsym_frame) */
} fentry;

/* Entries of `size` bytes keyed by the uint32_t they start with (threads by tid, processes
 * by pid), found through core/slots.h. */
typedef struct table {
	char *v;
	size_t n, cap, size;
	uint64_t *slots;
	size_t mask;
} table;

struct flame__pdsym {
	const flame__pd *r; /* its build-ids, read when a file is first symbolized */
	const flame__pd_build_id **bids; /* r's, sorted by path */
	size_t nbids;
	table th, pr; /* threads, processes */
	proc *last_proc; /* the last process found in `pr` (see proc_get) */
	dso *kernel_dso; /* [kernel.kallsyms], whose kallsyms also name the modules' symbols */
	proc kernel;
	dso **dsos; /* the files, by name (core/slots.h) */
	size_t ndsos, dcap;
	uint64_t *d_slots;
	size_t d_mask;
	flame__memo fc_memo; /* the frame cache: (address, file) -> fc[] (core/memo.h) */
	fentry *fc;
	size_t fc_cap;
	char *fbuf;
	size_t flen, fcap;
	char tmp[160];
	char *line;
	size_t line_cap;
	char debug_dir[4096];
};

/* ------------------------------------------------------------------ tables */

static uint64_t h32(uint32_t k) { return flame__mix64(k + 0x9e3779b97f4a7c15ULL); }

struct key_ctx {
	const table *t;
	uint32_t key;
};
static int key_eq(const void *ctx, uint32_t e)
{
	const struct key_ctx *k = ctx;
	uint32_t x;
	memcpy(&x, k->t->v + (size_t)e * k->t->size, sizeof x);
	return x == k->key;
}

/* The entry keyed `key`; with `create`, a new zeroed one when it is not there. NULL when
 * absent (or out of memory). Entries move as the table grows. */
static void *table_get(table *t, uint32_t key, int create)
{
	uint32_t h = (uint32_t)h32(key);
	struct key_ctx k = {t, key};
	if (t->slots) {
		uint64_t sl = t->slots[flame__slots_probe(t->slots, t->mask, h, key_eq, &k)];
		if (sl)
			return t->v + (size_t)flame__slot_entry(sl) * t->size;
	}
	if (!create || t->n >= UINT32_MAX - 1 ||
	    flame__slots_reserve(&t->slots, &t->mask, t->n, 64) ||
	    flame__array_grow(&t->v, &t->cap, t->n + 1, t->size, 64))
		return NULL;
	t->slots[flame__slots_probe(t->slots, t->mask, h, key_eq, &k)] =
		flame__slot_make(h, (uint32_t)t->n);
	char *e = t->v + t->n++ * t->size;
	memset(e, 0, t->size);
	memcpy(e, &key, sizeof key);
	return e;
}

static thread *thread_get(flame__pdsym *s, uint32_t tid, int create)
{
	return table_get(&s->th, tid, create);
}

/* Every frame of a sample looks up one process: the last one found is asked first. It
 * stays valid, since the table only moves in a call here, which makes its result the
 * last. */
static proc *proc_get(flame__pdsym *s, uint32_t pid, int create)
{
	if (pid == UINT32_MAX)
		return &s->kernel;
	if (s->last_proc && s->last_proc->pid == pid)
		return s->last_proc;
	proc *p = table_get(&s->pr, pid, create);
	if (p || create)
		s->last_proc = p;
	return p;
}

static int set_comm(thread *t, const char *comm, size_t n);

flame__pdsym *flame__pdsym_new(const flame__pd *r)
{
	flame__pdsym *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->r = r;
	s->th.size = sizeof(thread);
	s->pr.size = sizeof(proc);
	const char *home = getenv("HOME"); /* perf's default buildid.dir */
	snprintf(s->debug_dir, sizeof s->debug_dir, "%s/.debug", home ? home : "");
	/* perf script's idle thread, named before any record is read (pid 0 is no process
	 * that a COMM names) */
	thread *idle = thread_get(s, 0, 1);
	if (!idle || set_comm(idle, "swapper", 7)) {
		flame__pdsym_free(s);
		return NULL;
	}
	return s;
}

void flame__pdsym_free(flame__pdsym *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->th.n; i++)
		free(((thread *)(void *)s->th.v)[i].comm);
	for (size_t i = 0; i < s->pr.n; i++)
		free(((proc *)(void *)s->pr.v)[i].v);
	free(s->kernel.v);
	for (size_t i = 0; i < s->ndsos; i++) {
		free(s->dsos[i]->name);
		flame__symtab_free(&s->dsos[i]->syms);
		free(s->dsos[i]);
	}
	free(s->dsos);
	free(s->d_slots);
	free(s->bids);
	free(s->th.v);
	free(s->th.slots);
	free(s->pr.v);
	free(s->pr.slots);
	flame__memo_free(&s->fc_memo);
	free(s->fc);
	free(s->fbuf);
	free(s->line);
	free(s);
}

/* ------------------------------------------------------------------ threads */

/* Copy n bytes of hostile text with control bytes as '?'. */
static void clean(char *dst, const char *src, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)src[i];
		dst[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
}

static int set_comm(thread *t, const char *comm, size_t n)
{
	char *c = malloc(n + 1);
	if (!c)
		return -1;
	clean(c, comm, n);
	c[n] = '\0';
	free(t->comm);
	t->comm = c;
	t->comm_len = n;
	t->comm_set = 1;
	return 0;
}

int flame__pdsym_comm(flame__pdsym *s, uint32_t pid, uint32_t tid, const char *comm, size_t n)
{
	thread *t = thread_get(s, tid, 1);
	if (!t)
		return -1;
	t->pid = pid;
	return set_comm(t, comm, n);
}

static int copy_maps(proc *dst, const proc *src)
{
	if (src == dst)
		return 0;
	map *v = NULL;
	if (src->n && !(v = malloc(src->n * sizeof *v)))
		return -1;
	flame__copy(v, src->v, src->n * sizeof *v);
	free(dst->v);
	dst->v = v;
	dst->n = dst->cap = src->n;
	dst->last = 0;
	return 0;
}

int flame__pdsym_fork(flame__pdsym *s, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	thread *p = thread_get(s, ptid, 1);
	if (!p)
		return -1;
	if (!p->comm_set)
		p->pid = ppid;
	char *pc = NULL;
	size_t pn = 0;
	if (p->comm_set && !(pc = strdup(p->comm)))
		return -1;
	pn = p->comm_set ? p->comm_len : 0;
	thread *t = thread_get(s, tid, 1); /* may move the table: p is stale from here */
	if (!t) {
		free(pc);
		return -1;
	}
	free(t->comm);
	*t = (thread){tid, pid, 0, NULL, 0};
	if (pc) {
		t->comm = pc;
		t->comm_len = pn;
		t->comm_set = 1;
	}
	if (pid != ppid) {
		proc *parent = proc_get(s, ppid, 1);
		if (!parent)
			return -1;
		proc copy = *parent; /* proc_get may move the table */
		proc *child = proc_get(s, pid, 1);
		if (!child)
			return -1;
		if (copy_maps(child, &copy))
			return -1;
	}
	return 0;
}

const char *flame__pdsym_thread_comm(flame__pdsym *s, uint32_t pid, uint32_t tid, size_t *n)
{
	thread *t = thread_get(s, tid, 1);
	if (!t)
		return NULL;
	if (!t->comm) {
		char b[16];
		int k = snprintf(b, sizeof b, ":%d", (int32_t)tid);
		t->pid = pid;
		if (set_comm(t, b, (size_t)k))
			return NULL;
		t->comm_set = 0;
	}
	*n = t->comm_len;
	return t->comm;
}

/* ------------------------------------------------------------------ maps */

struct dso_ctx {
	const flame__pdsym *s;
	const char *name;
	size_t n;
};
static int dso_eq(const void *ctx, uint32_t e)
{
	const struct dso_ctx *k = ctx;
	const char *nm = k->s->dsos[e]->name;
	return strncmp(nm, k->name, k->n) == 0 && nm[k->n] == '\0';
}

/* The file called name[0..n) (as cleaned), or NULL. */
static dso *dso_find(const flame__pdsym *s, const char *name, size_t n)
{
	struct dso_ctx k = {s, name, n};
	uint64_t sl = s->d_slots ? s->d_slots[flame__slots_probe(s->d_slots, s->d_mask,
	                                                         (uint32_t)flame__hash_bytes(name, n),
	                                                         dso_eq, &k)]
	                         : 0;
	return sl ? s->dsos[flame__slot_entry(sl)] : NULL;
}

/* The file called name[0..n) (control bytes as '?'), made when new. */
static dso *dso_get(flame__pdsym *s, const char *name, size_t n, int kind)
{
	char *c = malloc(n + 1);
	if (!c)
		return NULL;
	clean(c, name, n);
	c[n] = '\0';
	dso *d = dso_find(s, c, n);
	if (d) {
		free(c);
		return d;
	}
	struct dso_ctx k = {s, c, n};
	uint32_t h = (uint32_t)flame__hash_bytes(c, n);
	if (s->ndsos >= UINT32_MAX - 1 || flame__slots_reserve(&s->d_slots, &s->d_mask, s->ndsos, 64) ||
	    flame__array_reserve(s->dsos, s->dcap, s->ndsos + 1) || !(d = calloc(1, sizeof *d))) {
		free(c);
		return NULL;
	}
	d->name = c;
	d->idx = (uint32_t)s->ndsos;
	d->kind = kind;
	d->cls = flame__perf_dso_class(c, n);
	s->d_slots[flame__slots_probe(s->d_slots, s->d_mask, h, dso_eq, &k)] =
		flame__slot_make(h, (uint32_t)s->ndsos);
	s->dsos[s->ndsos++] = d;
	return d;
}

/* Keep p's maps sorted by start after one was added or moved (insertion: one moves). */
static void sort_maps(proc *p)
{
	for (size_t i = 1; i < p->n; i++) {
		map x = p->v[i];
		size_t j = i;
		while (j > 0 && p->v[j - 1].start > x.start) {
			p->v[j] = p->v[j - 1];
			j--;
		}
		p->v[j] = x;
	}
	p->last = 0;
}

/* Insert m into p's maps, cutting the maps it overlaps (perf's fixup_overlappings). A
 * process holds at most MAX_MAPS (the kernel's default limit is 65530): past that a new
 * map is dropped, so hostile input costs bounded time per record. */
static int insert_map(proc *p, map m)
{
	if (p->n >= MAX_MAPS)
		return 0;
	if (flame__array_reserve(p->v, p->cap, p->n + 2))
		return -1;
	size_t k = 0;
	map extra = {0};
	int has_extra = 0;
	for (size_t i = 0; i < p->n; i++) {
		map o = p->v[i];
		if (o.end <= m.start || o.start >= m.end) {
			p->v[k++] = o;
			continue;
		}
		if (o.start < m.start) {
			map l = o;
			l.end = m.start;
			p->v[k++] = l;
		}
		if (o.end > m.end) {
			map r = o;
			if (!r.identity)
				r.pgoff += m.end - o.start;
			r.start = m.end;
			extra = r;
			has_extra = 1;
		}
	}
	p->n = k;
	p->v[p->n++] = m;
	if (has_extra)
		p->v[p->n++] = extra;
	sort_maps(p);
	return 0;
}

static int prefix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);
	return n >= k && memcmp(s, p, k) == 0;
}

/* The name perf gives a kernel module's map (kmod_path__parse_name): "[NAME]" from
 * ".../NAME.ko" (compressed too) or "[NAME]" itself, '-' made '_'; another file keeps its
 * base name. The length written to out[0..cap). */
static size_t module_name(const char *file, size_t n, char *out, size_t cap)
{
	const char *sl = memrchr(file, '/', n), *b = sl ? sl + 1 : file, *e = file + n;
	const char *dot = memrchr(b, '.', (size_t)(e - b));
	size_t k;
	if (b < e && b[0] == '[') {
		k = (size_t)(e - b);
		k = k < cap ? k : cap - 1;
		memcpy(out, b, k);
	} else {
		const char *ext = dot;
		if (ext && (e - ext == 3 || e - ext == 4) &&
		    (prefix(ext, (size_t)(e - ext), ".gz") || prefix(ext, (size_t)(e - ext), ".xz") ||
		     prefix(ext, (size_t)(e - ext), ".zst")))
			ext -= 3; /* perf steps back three, whatever the suffix's length */
		int kmod = ext && ext > b && e - ext >= 3 && memcmp(ext, ".ko", 3) == 0;
		size_t len = kmod ? (size_t)(ext - b) : (size_t)(e - b);
		if (len > cap - 3)
			len = cap - 3;
		k = 0;
		if (kmod)
			out[k++] = '[';
		memcpy(out + k, b, len);
		k += len;
		if (kmod)
			out[k++] = ']';
	}
	for (size_t i = 0; i < k; i++)
		if (out[i] == '-')
			out[i] = '_';
	return k;
}

int flame__pdsym_mmap(flame__pdsym *s, uint32_t pid, uint64_t start, uint64_t len,
                      uint64_t pgoff, int exec, const char *file, size_t n, const uint8_t *bid,
                      size_t bidlen)
{
	map m = {start, start + len < start ? UINT64_MAX : start + len, pgoff, NULL, 0};
	char jit[64];
	if (pid == UINT32_MAX && prefix(file, n, "[kernel.kallsyms]")) {
		m.d = dso_get(s, "[kernel.kallsyms]", 17, D_KERNEL);
		if (!m.d)
			return -1;
		size_t r = n - 17;
		if (r >= sizeof m.d->ref)
			r = sizeof m.d->ref - 1;
		memcpy(m.d->ref, file + 17, r);
		m.d->ref[r] = '\0';
		m.d->ref_addr = pgoff;
		m.identity = 1;
		s->kernel_dso = m.d;
	} else if (pid == UINT32_MAX && n && (file[0] == '/' || file[0] == '[')) {
		/* a kernel module: named as perf names it, its symbols from kallsyms */
		char name[256];
		size_t k = module_name(file, n, name, sizeof name);
		if (!(m.d = dso_get(s, name, k, D_KMOD)))
			return -1;
		m.identity = 1;
	} else {
		int anon = (n == 6 && memcmp(file, "//anon", 6) == 0) || prefix(file, n, "/dev/zero") ||
		           prefix(file, n, "/anon_hugepage");
		int nodso = prefix(file, n, "[stack") || prefix(file, n, "/SYSV") ||
		            (n == 6 && memcmp(file, "[heap]", 6) == 0);
		if ((anon || nodso) && exec) {
			int k = snprintf(jit, sizeof jit, "/tmp/perf-%d.map", (int32_t)pid);
			file = jit;
			n = (size_t)k;
		}
		m.identity = anon || nodso;
		m.d = dso_get(s, file, n, anon || nodso ? (exec ? D_PERFMAP : D_NONE) : D_ELF);
		if (!m.d)
			return -1;
		if (bidlen && bidlen <= 20 && !m.d->bidlen) {
			memcpy(m.d->bid, bid, bidlen);
			m.d->bidlen = (uint8_t)bidlen;
		}
	}
	proc *p = proc_get(s, pid, 1);
	return p ? insert_map(p, m) : -1;
}

static const map *find_map(proc *p, uint64_t ip)
{
	if (!p || !p->n)
		return NULL;
	if (p->last < p->n && ip >= p->v[p->last].start && ip < p->v[p->last].end)
		return &p->v[p->last];
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ip >= p->v[lo - 1].end)
		return NULL;
	p->last = lo - 1;
	return &p->v[lo - 1];
}

/* ------------------------------------------------------------------ symbols */

static void hex(char *b, const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(b + 2 * i, "%02x", id[i]);
	b[2 * n] = '\0';
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* This process's own vdso image, as perf uses its own for a vdso whose build-id the
 * recording does not give (a pipe-mode recording): its start from the aux vector, its length from
 * /proc/self/maps. 0 and NULL when there is none. */
static const void *own_vdso(size_t *n)
{
	uintptr_t at = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	FILE *f = at ? fopen("/proc/self/maps", "re") : NULL;
	char line[512];
	*n = 0;
	while (f && fgets(line, sizeof line, f)) {
		unsigned long long lo, hi;
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &lo, &hi) == 2 && lo == at &&
		    hi > lo) {
			*n = (size_t)(hi - lo);
			break;
		}
	}
	if (f)
		fclose(f);
	return *n ? (const void *)at : NULL;
}

static void load_elf(flame__pdsym *s, dso *d)
{
	char cache[4200] = "", dbg[4200] = "", h[41];
	const char *cand[3];
	size_t nc = 0;
	int recorded = d->bidlen != 0;
	if (!recorded && exists(d->name)) /* perf reads it from the file, for the debug paths */
		d->bidlen = (uint8_t)flame__elf_build_id_path(d->name, d->bid);
	if (d->bidlen) {
		hex(h, d->bid, d->bidlen);
		/* perf keeps a vdso image as "vdso", any other file as "elf" */
		snprintf(cache, sizeof cache, "%s/.build-id/%.2s/%s/%s", s->debug_dir, h, h + 2,
		         strncmp(d->name, "[vdso", 5) == 0 ? "vdso" : "elf");
		snprintf(dbg, sizeof dbg, "/usr/lib/debug/.build-id/%.2s/%s.debug", h, h + 2);
		if (exists(cache))
			cand[nc++] = cache;
		if (exists(dbg))
			cand[nc++] = dbg;
	}
	int path_ok = 0;
	if (exists(d->name)) {
		uint8_t id[20];
		size_t k = recorded ? flame__elf_build_id_path(d->name, id) : 0;
		path_ok = !recorded || (k == d->bidlen && memcmp(id, d->bid, k) == 0);
		if (path_ok)
			cand[nc++] = d->name;
	}
	if (!nc) {
		size_t n;
		/* only with no build-id recorded: a recorded one that no cache holds stays
		 * unnamed, as perf leaves it */
		const void *img = !recorded && strncmp(d->name, "[vdso", 5) == 0 ? own_vdso(&n) : NULL;
		if (img && flame__elf_symbols_mem(img, n, &d->syms))
			flame__symtab_free(&d->syms);
		return;
	}
	const char *runtime = path_ok ? d->name : cand[0];
	const char *syms = cand[0];
	for (size_t i = 0; i < nc; i++)
		if (flame__elf_has_symtab(cand[i])) {
			syms = cand[i];
			break;
		}
	if (flame__elf_symbols_path(syms, runtime, &d->syms))
		flame__symtab_free(&d->syms);
}

/* One kallsyms line, "ADDR TYPE NAME[\t[MODULE]]": its T, W, D, B symbols are added, a
 * module's with "\t[MODULE]" still in the name (split_modules moves them); the reference
 * symbol's address is noted. 0, or -1 when out of memory. */
static int kallsyms_line(dso *d, const char *p, size_t n, uint64_t *ref, int *have_ref)
{
	uint64_t a = 0;
	size_t i = 0;
	for (; i < n && i < 16; i++) {
		unsigned c = (unsigned char)p[i], v = c - '0' < 10 ? c - '0' : (c | 32) - 'a' < 6 ? (c | 32) - 'a' + 10 : 16;
		if (v > 15)
			break;
		a = a << 4 | v;
	}
	if (i == 0 || i + 3 > n || p[i] != ' ' || p[i + 2] != ' ')
		return 0;
	char t = p[i + 1];
	const char *name = p + i + 3;
	size_t k = n - i - 3;
	if (!*have_ref && strlen(d->ref) == k && memcmp(name, d->ref, k) == 0) {
		*ref = a;
		*have_ref = 1;
	}
	char u = t >= 'a' && t <= 'z' ? (char)(t - 32) : t;
	if (u != 'T' && u != 'W' && u != 'D' && u != 'B')
		return 0;
	int bind = u == 'W' ? 2 : t >= 'A' && t <= 'Z' ? 1 : 0;
	return flame__symtab_add(&d->syms, a, 0, bind, name, k);
}

/* The symbols of a kallsyms file into d (the kernel's), sorted and sized as perf sizes
 * them before it splits off the modules' (a module's last symbol ends a page on, the
 * kernel's too); *ref the file's address of d's reference symbol, when *have_ref. Read
 * through core/lines.h and split by hand: the 100 k-odd lines are a fixed cost of every
 * recording with kernel frames. 0, or -1 when the file cannot be opened. */
static int load_kallsyms(dso *d, const char *path, uint64_t *ref, int *have_ref)
{
	flame_input *in = NULL;
	flame_err err;
	flame__lines c;
	*ref = 0;
	*have_ref = 0;
	if (flame_input_open(&in, path, &err))
		return -1;
	if (flame__lines_init(&c, in, &err) == 0) {
		while (flame__lines_next(&c, &err) > 0)
			if (kallsyms_line(d, c.line, c.len, ref, have_ref)) {
				flame__symtab_free(&d->syms);
				break;
			}
		flame__lines_free(&c);
	}
	flame_input_free(in);
	flame__symtab_finish(&d->syms, 1);
	return 0;
}

/* perf's dso__split_kallsyms: each module's symbols ("NAME\t[MODULE]") go to the module's
 * map of that name, where there is one (else nowhere), at their addresses; the kernel's
 * own move by `delta`, the distance the kernel sits from where it was recorded (KASLR).
 * (perf drops a module's first symbol when that module's map was looked up before the
 * kernel's: not copied.) 0, or -1 when out of memory. */
static int split_modules(flame__pdsym *s, dso *kd, uint64_t delta)
{
	flame__symtab *t = &kd->syms;
	dso *last = NULL;
	size_t k = 0;
	int rc = 0;
	for (size_t i = 0; i < t->n; i++) {
		flame__sym y = t->v[i];
		const char *name = flame__sym_name(t, &y), *tab = strchr(name, '\t');
		if (!tab) {
			y.start -= delta;
			y.end = y.end == UINT64_MAX ? y.end : y.end - delta;
			t->v[k++] = y;
			continue;
		}
		size_t mn = strlen(tab + 1);
		if (!last || strlen(last->name) != mn || memcmp(last->name, tab + 1, mn) != 0) {
			last = dso_find(s, tab + 1, mn);
			if (last && last->kind != D_KMOD)
				last = NULL;
		}
		if (last && !rc)
			rc = flame__symtab_add(&last->syms, y.start, y.end - y.start, y.binding, name,
			                       (size_t)(tab - name));
	}
	t->n = k;
	for (size_t i = 0; i < s->ndsos; i++)
		if (s->dsos[i]->kind == D_KMOD) {
			flame__symtab_finish(&s->dsos[i]->syms, 0);
			s->dsos[i]->loaded = 1;
		}
	return rc;
}

/* perf's map__fixup_start and map__fixup_end once kallsyms are read: the kernel's map
 * spans its symbols, no longer the recorded _text.._etext, so the init text past _etext
 * (the idle task's start_kernel...) is named, from then on. */
static void fit_kernel_map(flame__pdsym *s, const dso *d)
{
	if (!d->syms.n)
		return;
	proc *k = &s->kernel;
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].d == d) {
			k->v[i].start = d->syms.v[0].start;
			k->v[i].end = d->syms.v[d->syms.n - 1].end;
		}
	sort_maps(k);
}

static void load_kernel(flame__pdsym *s, dso *d)
{
	char path[4200] = "/proc/kallsyms", h[41];
	uint64_t ref = 0;
	int have_ref = 0;
	if (d->bidlen) {
		/* the running kernel's build-id is in /sys/kernel/notes (an ELF note) */
		uint8_t id[64];
		int same = 0;
		FILE *f = fopen("/sys/kernel/notes", "re");
		if (f) {
			unsigned char b[4096];
			size_t k = fread(b, 1, sizeof b, f), i = 0;
			fclose(f);
			while (i + 12 <= k) {
				uint32_t nsz, dsz, type;
				memcpy(&nsz, b + i, 4);
				memcpy(&dsz, b + i + 4, 4);
				memcpy(&type, b + i + 8, 4);
				size_t nn = (nsz + 3u) & ~3u, dd = (dsz + 3u) & ~3u;
				if (nn > k || dd > k || i + 12 + nn + dd > k)
					break;
				if (type == 3 && nsz == 4 && memcmp(b + i + 12, "GNU", 4) == 0 && dsz <= 20) {
					memcpy(id, b + i + 12 + nn, dsz);
					same = dsz == d->bidlen && memcmp(id, d->bid, dsz) == 0;
					break;
				}
				i += 12 + nn + dd;
			}
		}
		/* another kernel than the recorded one: its kallsyms from the cache, else none
		 * ([unknown] frames), as perf does. The same kernel: perf reads /proc/kallsyms,
		 * whose kernel symbols the cache's copy (written by perf record from it) holds
		 * too, and a file reads many times faster than /proc formats its lines; a copy
		 * made without the right to see addresses (all zero) is passed over. */
		hex(h, d->bid, d->bidlen);
		snprintf(path, sizeof path, "%s/[kernel.kallsyms]/%s/kallsyms", s->debug_dir, h);
		if (!same) {
			load_kallsyms(d, path, &ref, &have_ref);
			goto split;
		}
		if (load_kallsyms(d, path, &ref, &have_ref) == 0 && d->syms.n &&
		    d->syms.v[d->syms.n - 1].start)
			goto split;
		flame__symtab_free(&d->syms);
		snprintf(path, sizeof path, "/proc/kallsyms");
	}
	load_kallsyms(d, path, &ref, &have_ref);
split:
	/* the kernel may sit elsewhere now (KASLR): its symbols move to where it was */
	if (split_modules(s, d, have_ref && d->ref_addr ? ref - d->ref_addr : 0))
		flame__symtab_free(&d->syms);
	fit_kernel_map(s, d);
}

/* /tmp/perf-PID.map: "START SIZE NAME" lines, hex. */
static void load_perfmap(dso *d)
{
	FILE *f = fopen(d->name, "re");
	if (!f)
		return;
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		char *e, *e2;
		unsigned long long a = strtoull(line, &e, 16), z;
		if (e == line || *e != ' ')
			continue;
		z = strtoull(e + 1, &e2, 16);
		if (e2 == e + 1 || *e2 != ' ')
			continue;
		char *name = e2 + 1;
		size_t n = strcspn(name, "\n");
		if (flame__symtab_add(&d->syms, a, z, 1, name, n)) {
			flame__symtab_free(&d->syms);
			break;
		}
	}
	fclose(f);
	flame__symtab_finish(&d->syms, 0);
}

static int by_path(const void *x, const void *y)
{
	const flame__pd_build_id *const *a = x, *const *b = y;
	int c = strcmp((*a)->path, (*b)->path);
	return c ? c : (*a < *b ? -1 : *a > *b); /* the first recorded of a path first */
}

/* The recorded build-id of the file called `name`: the build-ids sorted by path once
 * they are all read (the first file symbolized comes after the header). */
static const flame__pd_build_id *recorded_id(flame__pdsym *s, const char *name)
{
	size_t nb;
	const flame__pd_build_id *b = flame__pd_build_ids(s->r, &nb);
	if (nb != s->nbids) {
		const flame__pd_build_id **v = realloc(s->bids, nb * sizeof *v);
		if (!v)
			return NULL; /* no build-id: the file on disk is read as it is */
		for (size_t i = 0; i < nb; i++)
			v[i] = &b[i];
		flame__sort(v, nb, sizeof *v, by_path);
		s->bids = v;
		s->nbids = nb;
	}
	size_t lo = 0, hi = s->nbids;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(s->bids[mid]->path, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nbids && strcmp(s->bids[lo]->path, name) == 0 ? s->bids[lo] : NULL;
}

static void load(flame__pdsym *s, dso *d)
{
	d->loaded = 1;
	const flame__pd_build_id *b = d->bidlen ? NULL : recorded_id(s, d->name);
	if (b) {
		memcpy(d->bid, b->id, 20);
		d->bidlen = b->len;
	}
	if (d->kind == D_ELF)
		load_elf(s, d);
	else if (d->kind == D_KERNEL)
		load_kernel(s, d);
	else if (d->kind == D_KMOD && s->kernel_dso && !s->kernel_dso->loaded)
		load(s, s->kernel_dso); /* which names the modules' symbols too */
	else if (d->kind == D_PERFMAP)
		load_perfmap(d);
}

/* ------------------------------------------------------------------ frames */

/* The frame text p[0..n) of (file d, address key) kept: its entry, or NULL out of memory. */
static fentry *fc_put(flame__pdsym *s, uint64_t key, const dso *d, const char *p, size_t n)
{
	int restarted;
	int64_t e = flame__memo_add(&s->fc_memo, key, (uint64_t)(uintptr_t)d, s->flen > FC_BYTES,
	                            &restarted);
	if (restarted)
		s->flen = 0;
	if (e < 0 || flame__array_reserve_min(s->fc, s->fc_cap, (size_t)e + 1, 4096) ||
	    flame__array_reserve_min(s->fbuf, s->fcap, s->flen + n, 1 << 16))
		return NULL;
	s->fc[e] = (fentry){(uint32_t)s->flen, (uint32_t)n, 0};
	memcpy(s->fbuf + s->flen, p, n);
	s->flen += n;
	return &s->fc[e];
}

static fentry *fc_get(const flame__pdsym *s, uint64_t key, const dso *d)
{
	int64_t e = flame__memo_get(&s->fc_memo, key, (uint64_t)(uintptr_t)d);
	return e >= 0 ? &s->fc[e] : NULL;
}

/* 1 when name[0..n) ends in "+0x" and hex digits, as perf.c strips from a frame. */
static int ends_in_offset(const char *name, size_t n)
{
	size_t i = n;
	while (i > 0 && ((name[i - 1] >= '0' && name[i - 1] <= '9') ||
	                 (name[i - 1] >= 'a' && name[i - 1] <= 'f')))
		i--;
	return i < n && i >= 3 && memcmp(name + i - 3, "+0x", 3) == 0;
}

int flame__pdsym_frame(flame__pdsym *s, uint32_t pid, int mode, int fallback, uint64_t ip,
                       const char **p, size_t *n, uint64_t **memo)
{
	const map *m = NULL;
	if (mode == FLAME__PD_USER)
		m = find_map(proc_get(s, pid, 0), ip);
	else if (mode == FLAME__PD_KERNEL)
		m = find_map(&s->kernel, ip);
	if (!m && fallback && mode != FLAME__PD_HV) {
		/* perf's machine__addr_cpumode: an address at or above the kernel's start is the
		 * kernel's */
		int kern = s->kernel.n && ip >= s->kernel.v[0].start;
		if (kern && mode == FLAME__PD_USER)
			m = find_map(&s->kernel, ip);
		else if (!kern && mode == FLAME__PD_KERNEL)
			m = find_map(proc_get(s, pid, 0), ip);
	}
	uint64_t addr = m ? (m->identity ? ip : ip - m->start + m->pgoff) : ip;
	const dso *d = m ? m->d : NULL;
	fentry *f = fc_get(s, addr, d);
	if (f) {
		*p = s->fbuf + f->off;
		*n = f->len;
		*memo = &f->memo;
		return 0;
	}
	dso *dd = m ? m->d : NULL;
	if (dd && !dd->loaded)
		load(s, dd);
	const flame__sym *sym = dd ? flame__symtab_find(&dd->syms, addr) : NULL;
	const char *name = sym ? flame__sym_name(&dd->syms, sym) : "[unknown]";
	const char *dname = dd ? dd->name : "[unknown]";
	size_t nl = strlen(name), dl = strlen(dname), need = nl + dl + 64;
	if (flame__array_reserve_min(s->line, s->line_cap, need, 256))
		return -1;
	int k = snprintf(s->line, need, "%llx ", (unsigned long long)addr);
	clean(s->line + k, name, nl);
	k += (int)nl;
	/* perf script's "+0xOFF" is left out: the reader strips it (one "+0x..." at the end),
	 * unless the name itself ends in one, which must stay */
	if (sym && (nl == 0 || ends_in_offset(name, nl)))
		k += snprintf(s->line + k, need - (size_t)k, "+0x%llx",
		              (unsigned long long)(addr - sym->start));
	s->line[k++] = ' ';
	s->line[k++] = '(';
	/* a named frame's file matters to the reader only as a kernel's or JIT code's (the
	 * annotations): any other is written "u", so the reader has short lines to hash */
	if (sym && dd->cls == 0) {
		s->line[k++] = 'u';
	} else {
		clean(s->line + k, dname, dl);
		k += (int)dl;
	}
	s->line[k++] = ')';
	f = fc_put(s, addr, d, s->line, (size_t)k);
	if (!f)
		return -1;
	*p = s->line;
	*n = (size_t)k;
	*memo = &f->memo;
	return 0;
}

int flame__pdsym_map(flame__pdsym *s, uint32_t pid, uint64_t ip, flame__pd_map *out)
{
	const map *m = find_map(proc_get(s, pid, 0), ip);
	if (!m)
		return 0;
	dso *d = m->d;
	if (!d->loaded)
		load(s, d);
	*out = (flame__pd_map){m->start, m->end, m->pgoff, d->name, d->bid, d->bidlen, d->idx,
	                       d->kind == D_ELF};
	return 1;
}

const char *flame__pdsym_symbol(flame__pdsym *s, uint32_t pid, uint64_t ip)
{
	const map *m = find_map(proc_get(s, pid, 0), ip);
	if (!m)
		return NULL;
	if (!m->d->loaded)
		load(s, m->d);
	const flame__sym *sym = flame__symtab_find(&m->d->syms, m->identity ? ip : ip - m->start + m->pgoff);
	return sym ? flame__sym_name(&m->d->syms, sym) : NULL;
}

const char *flame__pdsym_debug_dir(const flame__pdsym *s) { return s->debug_dir; }
