/* perf.data parser: a `perf record` file (or `perf record -o -` stream) -> stacks, with
 * the output of `perf script -F comm,pid,tid,time,period,event,ip,sym,dso | flame-collapse`.
 *
 * Flow: perfdata-read.c gives the records in perf's order; COMM, FORK and MMAP records
 * update the threads and maps of perfdata-sym.c; each SAMPLE is written as the text perf
 * script prints for it (event line, then one line per callchain frame, resolved through
 * the context markers as perf resolves them; less what the reader makes no use of: the
 * symbol's offset, the path of a plain file whose frame is named), and that text streams
 * through the perf
 * script parser (perf.c) from a generated input, so every option (--pid, --tid, --kernel,
 * --jit, --all, --addrs, --event-filter, --time, name tidying, -j) means exactly what it
 * means on perf script text. The text never exists whole: it is made a block at a time as
 * perf.c reads. A frame's text is made once per distinct address (perfdata-sym.c's
 * cache), so the cost per sample is a copy of short lines.
 *
 * The one difference from `perf script | flame-collapse`: the event line carries the pid
 * as well as the tid (perf script's default fields have only the tid, so --pid there
 * gives "comm-?"); with -F comm,pid,tid,... the outputs are the same bytes.
 * Recordings with user stacks to unwind (--call-graph dwarf) or compressed records
 * (-z) are refused with a message that names perf script. */
#include <stdio.h>
#include <string.h>
#include "../core/array.h"
#include "parser.h"
#include "perfdata-read.h"
#include "perfdata-sym.h"

#define CTX_MAX ((uint64_t)-4095)
#define CTX_HV ((uint64_t)-32)
#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER ((uint64_t)-512)
enum { MAX_STACK = 127, MISC_MMAP_DATA = 1 << 13, MISC_MMAP_BUILD_ID = 1 << 14 };

typedef struct gen {
	flame__pd *r;
	flame__pdsym *s;
	char *buf;
	size_t len, pos, cap;
	int done;
} gen;

static int put(gen *g, const char *p, size_t n)
{
	if (!n) /* an empty name: nothing to add, and no buffer may exist yet */
		return 0;
	if (flame__array_reserve_min(g->buf, g->cap, g->len + n, 1 << 16))
		return -1;
	memcpy(g->buf + g->len, p, n);
	g->len += n;
	return 0;
}

static int frame(gen *g, uint32_t pid, int mode, int fallback, uint64_t ip, char lead)
{
	const char *p;
	size_t n;
	if (flame__pdsym_frame(g->s, pid, mode, fallback, ip, &p, &n) ||
	    flame__array_reserve_min(g->buf, g->cap, g->len + n + 2, 1 << 16))
		return -1;
	g->buf[g->len++] = lead;
	memcpy(g->buf + g->len, p, n);
	g->len += n;
	g->buf[g->len++] = '\n';
	return 0;
}

static int sample(gen *g, const flame__pd_rec *rec, flame_err *err)
{
	flame__pd_sample sm;
	int rc = flame__pd_decode(g->r, rec, &sm, err);
	if (rc)
		return rc;
	size_t cn;
	const char *comm = flame__pdsym_thread_comm(g->s, sm.pid, sm.tid, &cn);
	char head[160];
	if (!comm || put(g, comm, cn))
		return flame__err_nomem(err);
	int k = snprintf(head, sizeof head, " %d/%d ", (int32_t)sm.pid, (int32_t)sm.tid);
	if (sm.has_time)
		k += snprintf(head + k, sizeof head - (size_t)k, "%llu.%06llu: ",
		              (unsigned long long)(sm.time / 1000000000u),
		              (unsigned long long)(sm.time % 1000000000u / 1000u));
	if (sm.has_period)
		k += snprintf(head + k, sizeof head - (size_t)k, "%llu ", (unsigned long long)sm.period);
	if (put(g, head, (size_t)k) || put(g, sm.attr->name, strlen(sm.attr->name)) || put(g, ":", 1))
		return flame__err_nomem(err);
	if (!sm.has_chain) {
		int mode = (rec->misc & 7) == 1 ? FLAME__PD_KERNEL
		           : (rec->misc & 7) == 3 ? FLAME__PD_HV : FLAME__PD_USER;
		return frame(g, sm.pid, mode, 1, sm.ip, ' ') ? flame__err_nomem(err) : 0;
	}
	if (put(g, "\n", 1))
		return flame__err_nomem(err);
	int mode = FLAME__PD_USER;
	size_t frames = 0, mark = g->len;
	for (uint64_t i = 0; i < sm.nchain && frames < MAX_STACK; i++) {
		uint64_t ip;
		memcpy(&ip, sm.chain + 8 * i, 8);
		if (ip >= CTX_MAX) {
			if (ip == CTX_HV)
				mode = FLAME__PD_HV;
			else if (ip == CTX_KERNEL)
				mode = FLAME__PD_KERNEL;
			else if (ip == CTX_USER)
				mode = FLAME__PD_USER;
			else {
				g->len = mark; /* perf drops a chain with a context it does not know */
				break;
			}
			continue;
		}
		frames++;
		if (frame(g, sm.pid, mode, 0, ip, '\t'))
			return flame__err_nomem(err);
	}
	return put(g, "\n", 1) ? flame__err_nomem(err) : 0;
}

static int record(gen *g, const flame__pd_rec *rec, flame_err *err)
{
	const unsigned char *p = rec->p;
	size_t n = rec->size;
	uint32_t pid, tid, ppid, ptid;
	uint64_t start, len, pgoff;
	int rc = 0;
	switch (rec->type) {
	case FLAME__PD_SAMPLE:
		return sample(g, rec, err);
	case FLAME__PD_COMM:
		if (n < 17)
			break;
		memcpy(&pid, p + 8, 4);
		memcpy(&tid, p + 12, 4);
		rc = flame__pdsym_comm(g->s, pid, tid, (const char *)p + 16,
		                       strnlen((const char *)p + 16, n - 16));
		break;
	case FLAME__PD_FORK:
		if (n < 24)
			break;
		memcpy(&pid, p + 8, 4);
		memcpy(&ppid, p + 12, 4);
		memcpy(&tid, p + 16, 4);
		memcpy(&ptid, p + 20, 4);
		rc = flame__pdsym_fork(g->s, pid, ppid, tid, ptid);
		break;
	case FLAME__PD_MMAP:
	case FLAME__PD_MMAP2: {
		size_t at = rec->type == FLAME__PD_MMAP ? 40 : 72;
		if (n <= at)
			break;
		memcpy(&pid, p + 8, 4);
		memcpy(&start, p + 16, 8);
		memcpy(&len, p + 24, 8);
		memcpy(&pgoff, p + 32, 8);
		int exec = !(rec->misc & MISC_MMAP_DATA);
		const uint8_t *bid = NULL;
		size_t bidlen = 0;
		if (rec->type == FLAME__PD_MMAP2) {
			uint32_t prot;
			memcpy(&prot, p + 64, 4);
			exec = (prot & 4) != 0; /* PROT_EXEC */
			if (rec->misc & MISC_MMAP_BUILD_ID) {
				bid = p + 44;
				bidlen = p[40] > 20 ? 20 : p[40];
			}
		}
		const char *file = (const char *)p + at;
		rc = flame__pdsym_mmap(g->s, pid, start, len, pgoff, exec, file, strnlen(file, n - at),
		                       bid, bidlen);
		break;
	}
	}
	return rc ? flame__err_nomem(err) : 0;
}

/* The generated input's bytes: perf script text, made as it is read. */
static long pull(void *ud, char *buf, size_t cap, flame_err *err)
{
	gen *g = ud;
	while (g->pos == g->len && !g->done) {
		g->pos = g->len = 0;
		while (g->len < (1 << 16)) {
			flame__pd_rec rec;
			int rc = flame__pd_next(g->r, &rec, err);
			if (rc < 0)
				return rc;
			if (rc == 0) {
				g->done = 1;
				break;
			}
			if ((rc = record(g, &rec, err)))
				return rc;
		}
	}
	size_t n = g->len - g->pos;
	if (n > cap)
		n = cap;
	if (n) /* nothing made yet: the buffer may not exist */
		memcpy(buf, g->buf + g->pos, n);
	g->pos += n;
	return (long)n;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	gen g;
	memset(&g, 0, sizeof g);
	int rc = flame__pd_open(&g.r, in, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < flame__pd_attr_count(g.r); i++)
		if (flame__pd_attr_at(g.r, i)->sample_type & FLAME__PD_S_STACK_USER) {
			const char *name = flame_input_name(in);
			rc = flame__err(err, FLAME_EFORMAT, name, 0, FLAME__NO_OFFSET,
			                "this perf.data was recorded with --call-graph dwarf (user stacks "
			                "that need unwinding), which is not read here: use 'perf script -i "
			                "%s | flame-collapse'",
			                name[0] == '<' ? "FILE" : name);
			goto done;
		}
	flame_input *text = NULL;
	if (!(g.s = flame__pdsym_new(g.r))) {
		rc = flame__err_nomem(err);
		goto done;
	}
	if ((rc = flame__input_open_pull(&text, flame_input_name(in), pull, &g, err)))
		goto done;
	rc = flame__parser_perf.parse(t, text, o, err);
	flame_input_free(text);
done:
	flame__pdsym_free(g.s);
	flame__pd_free(g.r);
	free(g.buf);
	return rc;
}

static int probe(const char *buf, size_t len)
{
	return len >= 8 && memcmp(buf, "PERFILE2", 8) == 0;
}

const struct flame__parser flame__parser_perfdata = {"perfdata", FLAME_FORMAT_PERFDATA, probe,
                                                     parse};
