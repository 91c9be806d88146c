/* Fuzz target for the symbolizer of perf.data samples (parse/perfdata-sym.c), driven
 * directly: the bytes are a sequence of operations, one byte saying which, then its
 * arguments: comm(pid, tid, name), fork(pid, ppid, tid, ptid), mmap(pid, start, len,
 * pgoff, exec, file, build-id), thread_comm(pid, tid) and frame(pid, mode, fallback, ip).
 * Nothing may crash, and what the records and samples name must be text: a frame is
 * "ADDR SYM (DSO)" with no control byte, a comm the last one given, else the parent's,
 * else ":TID" (tid 0: "swapper"). Files are one of a fixed few, so no input reaches an arbitrary path: the
 * kernel (always with a recorded build-id that is not the running kernel's, so the 100 k
 * lines of /proc/kallsyms, which are no input's, are never read), the vdso (this
 * process's own), anonymous and JIT memory (/tmp/perf-PID.map), a file that does not
 * exist and this program itself. $HOME points nowhere, so no build-id cache is read.
 * Built as a libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a
 * program that runs the target once per file named on the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "libflame/parse/perfdata-elf.h"
#include "libflame/parse/perfdata-sym.h"

#define CHECK(c) ((c) ? (void)0 : abort())

enum { OP_COMM, OP_FORK, OP_MMAP, OP_THREAD_COMM, OP_FRAME, NOPS };
enum { MAX_OPS = 4096, MAX_THREADS = 64, MAX_COMM = 48 };

/* ------------------------------------------------------------------ the recordings */

/* A symbolizer needs a reader for its recorded build-ids: two pipe-mode recordings made
 * of build-id records only, read once. The first names the kernel alone; the second also
 * the vdso and a missing file (ids no file has: they stay unnamed) and this program (its
 * own id: read from its path). */
static uint8_t rec_bytes[2][1024];
static flame__pd *readers[2];

static size_t put_build_id(uint8_t *p, const char *path, const uint8_t *id, size_t len)
{
	size_t n = (36 + strlen(path) + 1 + 7) & ~(size_t)7;
	uint32_t type = 67; /* PERF_RECORD_HEADER_BUILD_ID */
	uint16_t misc = 1u << 15, size = (uint16_t)n; /* the id's length in byte 32 */
	memset(p, 0, n);
	memcpy(p, &type, 4);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
	memcpy(p + 12, id, len);
	p[32] = (uint8_t)len;
	memcpy(p + 36, path, strlen(path));
	return n;
}

static flame__pd *open_reader(uint8_t *b, int full)
{
	static const uint8_t other[20] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	uint64_t hsize = 16;
	size_t n = 0;
	memcpy(b, "PERFILE2", 8);
	memcpy(b + 8, &hsize, 8);
	n = 16;
	n += put_build_id(b + n, "[kernel.kallsyms]", other, 20);
	if (full) {
		uint8_t self[20];
		size_t k = flame__elf_build_id_path("/proc/self/exe", self);
		n += put_build_id(b + n, "[vdso]", other, 20);
		n += put_build_id(b + n, "/nonexistent/libfuzz.so", other, 8);
		n += put_build_id(b + n, "/nonexistent/libfuzz.so", other, 20); /* the first counts */
		if (k)
			n += put_build_id(b + n, "/proc/self/exe", self, k);
	}
	flame_err err;
	flame_input *in = NULL;
	flame__pd *r = NULL;
	flame__pd_rec rec;
	/* the input stays open with the reader: both live as long as the process */
	if (flame_input_open_mem(&in, b, n, "fuzz-perfdata-sym", &err) ||
	    flame__pd_open(&r, in, 1, &err) || flame__pd_next(r, &rec, &err) != 0)
		abort();
	return r;
}

/* ------------------------------------------------------------------ the operations */

typedef struct src {
	const uint8_t *p;
	size_t n;
} src;

/* Arguments past the end of the input are zeros. */
static uint8_t byte(src *s)
{
	if (!s->n)
		return 0;
	s->n--;
	return *s->p++;
}

static uint64_t raw(src *s, int k)
{
	uint64_t v = 0;
	for (int i = 0; i < k; i++)
		v |= (uint64_t)byte(s) << 8 * i;
	return v;
}

/* A pid or tid: mostly one of a few, so records meet; -1 (the kernel), or any. */
static uint32_t id32(src *s)
{
	uint8_t b = byte(s);
	return b == 0xff ? UINT32_MAX : b == 0xfe ? (uint32_t)raw(s, 4) : b % 16;
}

/* An address, length or offset: near user code, near the kernel's, small, or any, so
 * maps overlap and frames land in them. */
static uint64_t num(src *s)
{
	uint8_t b = byte(s);
	uint64_t lo = (uint64_t)(b & 63) * 0x1000 + (uint64_t)byte(s) * 16;
	switch (b >> 6) {
	case 0:
		return 0x400000 + lo;
	case 1:
		return 0xffffffff81000000ULL + lo;
	case 2:
		return lo;
	default:
		return raw(s, 8);
	}
}

/* A few bytes of the input as text (any bytes: the symbolizer cleans them). */
static size_t text(src *s, char *dst, size_t cap)
{
	size_t n = byte(s) % cap;
	for (size_t i = 0; i < n; i++)
		dst[i] = (char)byte(s);
	return n;
}

/* The file of an mmap, one of a fixed few: where a tail is taken from the input, the
 * name never reaches the disk (a kernel's reference symbol; anonymous memory, whose
 * executable maps are named /tmp/perf-PID.map). */
static size_t file(src *s, uint32_t *pid, char *f, size_t cap)
{
	static const char *const fixed[] = {
		"[kernel.kallsyms]_text", "[kernel.kallsyms]", "[vdso]", "//anon", "[heap]",
		"/dev/zero (deleted)", "/anon_hugepage (deleted)", "/tmp/perf-1.map",
		"/nonexistent/libfuzz.so", "/nonexistent/a\nb\x01(c)", "/proc/self/exe",
	};
	enum { NFIXED = sizeof fixed / sizeof fixed[0] };
	unsigned c = byte(s) % (NFIXED + 3);
	if (c < NFIXED) {
		size_t n = strlen(fixed[c]);
		memcpy(f, fixed[c], n);
		return n;
	}
	const char *head = c == NFIXED ? "[kernel.kallsyms]" : c == NFIXED + 1 ? "[stack" : "/SYSV";
	size_t n = strlen(head);
	memcpy(f, head, n);
	if (c == NFIXED)
		*pid = UINT32_MAX; /* else it would name a file */
	return n + text(s, f + n, cap - n);
}

/* ------------------------------------------------------------------ what must hold */

/* The comms given, as the symbolizer should keep them, for the first few threads. */
enum { T_NONE, T_TID, T_RECORDED, T_UNKNOWN }; /* T_TID: ":TID", asked for, none recorded */
typedef struct mthread {
	uint32_t tid;
	int state;
	char comm[MAX_COMM];
	size_t n;
} mthread;

typedef struct model {
	mthread t[MAX_THREADS];
	size_t n;
} model;

/* The thread `tid`, made when there is room; NULL: not followed. */
static mthread *model_get(model *m, uint32_t tid)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->t[i].tid == tid)
			return &m->t[i];
	if (m->n == MAX_THREADS)
		return NULL;
	memset(&m->t[m->n], 0, sizeof m->t[0]);
	m->t[m->n].tid = tid;
	return &m->t[m->n++];
}

static void clean(char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			p[i] = '?';
}

static int is_text(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!readers[0]) {
		setenv("HOME", "/nonexistent", 1);
		readers[0] = open_reader(rec_bytes[0], 0);
		readers[1] = open_reader(rec_bytes[1], 1);
	}
	src in = {data, size};
	flame__pdsym *s = flame__pdsym_new(readers[byte(&in) & 1]);
	CHECK(s);
	model *m = calloc(1, sizeof *m);
	CHECK(m);
	/* tid 0 is perf script's idle thread, named before any record */
	mthread *idle = model_get(m, 0);
	idle->state = T_RECORDED;
	memcpy(idle->comm, "swapper", idle->n = 7);
	int mapped = 0;
	for (int ops = 0; in.n && ops < MAX_OPS; ops++) {
		int op = byte(&in) % NOPS;
		uint32_t pid = id32(&in), tid;
		switch (op) {
		case OP_COMM: {
			char c[MAX_COMM];
			tid = id32(&in);
			size_t n = text(&in, c, sizeof c);
			CHECK(flame__pdsym_comm(s, pid, tid, c, n) == 0);
			mthread *t = model_get(m, tid);
			if (t) {
				t->state = T_RECORDED;
				memcpy(t->comm, c, n);
				clean(t->comm, n);
				t->n = n;
			}
			break;
		}
		case OP_FORK: {
			uint32_t ppid = id32(&in), ptid;
			tid = id32(&in);
			ptid = id32(&in);
			CHECK(flame__pdsym_fork(s, pid, ppid, tid, ptid) == 0);
			/* the child has the parent's comm when one was recorded, else none */
			mthread *p = model_get(m, ptid), *t = model_get(m, tid);
			if (!t)
				break;
			if (!p || p->state == T_UNKNOWN)
				t->state = T_UNKNOWN;
			else if (p->state == T_RECORDED) {
				if (p != t)
					*t = *p;
				t->tid = tid;
			} else
				t->state = T_NONE;
			break;
		}
		case OP_MMAP: {
			char f[64];
			uint8_t bid[24];
			uint64_t start = num(&in), len = num(&in), pgoff = num(&in);
			int exec = byte(&in) & 1;
			size_t n = file(&in, &pid, f, sizeof f), bidlen = byte(&in) % 25;
			for (size_t i = 0; i < bidlen; i++)
				bid[i] = byte(&in);
			CHECK(flame__pdsym_mmap(s, pid, start, len, pgoff, exec, f, n, bid, bidlen) == 0);
			mapped = 1;
			break;
		}
		case OP_THREAD_COMM: {
			tid = id32(&in);
			size_t n = 0;
			const char *c = flame__pdsym_thread_comm(s, pid, tid, &n);
			CHECK(c && strlen(c) == n && is_text(c, n));
			mthread *t = model_get(m, tid);
			if (!t || t->state == T_UNKNOWN)
				break;
			if (t->state == T_NONE) {
				t->n = (size_t)snprintf(t->comm, sizeof t->comm, ":%d", (int32_t)tid);
				t->state = T_TID;
			}
			CHECK(n == t->n && memcmp(c, t->comm, n) == 0);
			break;
		}
		case OP_FRAME: {
			uint8_t b = byte(&in);
			int mode = b % 3, fallback = b >> 7;
			uint64_t ip = num(&in);
			const char *p = NULL;
			size_t n = 0, i = 0;
			uint64_t *memo = NULL;
			CHECK(flame__pdsym_frame(s, pid, mode, fallback, ip, &p, &n, &memo) == 0);
			/* the caller's word goes with the frame's text: 0 when named afresh, else what
			 * was written for the same text (here its hash) */
			uint64_t h = 1469598103934665603ull;
			for (size_t k = 0; k < n; k++)
				h = (h ^ (unsigned char)p[k]) * 1099511628211ull;
			CHECK(memo && (*memo == 0 || *memo == (h | 1)));
			*memo = h | 1;
			/* "ADDR SYM (DSO)": text, on one line */
			CHECK(p && n >= 5 && is_text(p, n) && p[n - 1] == ')' && memchr(p, ' ', n));
			for (; p[i] != ' '; i++)
				CHECK((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'));
			CHECK(i > 0);
			/* nothing mapped, or a hypervisor frame (never looked up): nothing to name */
			if (!mapped || mode == FLAME__PD_HV) {
				char want[64];
				int k = snprintf(want, sizeof want, "%llx [unknown] ([unknown])",
				                 (unsigned long long)ip);
				CHECK(n == (size_t)k && memcmp(p, want, n) == 0);
			}
			break;
		}
		}
	}
	free(m);
	flame__pdsym_free(s);
	return 0;
}

#include "replay-main.h"
