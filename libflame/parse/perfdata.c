/* perf.data parser: a `perf record` file (or `perf record -o -` stream) -> stacks, with
 * the output of `perf script -F comm,pid,tid,time,period,event,ip,sym,dso | flame-collapse`.
 *
 * Flow: perfdata-read.c gives the records in perf's order; COMM, FORK and MMAP records
 * update the threads and maps of perfdata-sym.c; each SAMPLE goes to the perf script
 * parser's steps (perf-feed.h) as the fields of its event line and the text of each
 * callchain frame, resolved through the context markers as perf resolves them, so every
 * option (--pid, --tid, --kernel, --jit, --all, --addrs, --event-filter, --time, name
 * tidying) means exactly what it means on perf script text, with no text made and read
 * again. A frame's text is made once per distinct address (perfdata-sym.c's cache) and
 * tidied once per distinct text (perf.c's line cache), whose value the frame then keeps
 * (the memo word), so the cost per frame is one lookup.
 *
 * The one difference from `perf script | flame-collapse`: the event line carries the pid
 * as well as the tid (perf script's default fields have only the tid, so --pid there
 * gives "comm-?"); with -F comm,pid,tid,... the outputs are the same bytes. Warnings name
 * the byte offset of the sample's record.
 * Recordings with user stacks to unwind (--call-graph dwarf) have them unwound by
 * perfdata-unwind.c (-Ddwarf; without it they are refused with a message that names perf
 * script): the kernel's part of the callchain as above, then the user frames, each with
 * the functions inlined there (perfdata-inline.c) as perf script prints them.
 * A tree that keeps sites (-Ddwarf) gets each user frame, of either kind of recording,
 * through perfdata-sites.c: the same frame, after the functions inlined at its address,
 * each at its site (function, file, line, start line, address, mapping). */
#include <stdio.h>
#include <string.h>
#include "../core/numfmt.h"
#include "parser.h"
#include "perf-feed.h"
#include "perfdata-read.h"
#include "perfdata-sym.h"
#ifdef FLAME_HAVE_DWARF
#include <stdlib.h>
#include "../core/tree.h"
#include "perfdata-inline.h"
#include "perfdata-sites.h"
#include "perfdata-unwind.h"
#endif

#define CTX_MAX ((uint64_t)-4095)
#define CTX_HV ((uint64_t)-32)
#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER ((uint64_t)-512)
enum { MAX_STACK = 127, MAX_INLINE = 64, MISC_MMAP_DATA = 1 << 13, MISC_MMAP_BUILD_ID = 1 << 14 };

typedef struct gen {
	flame__pd *r;
	flame__pdsym *s;
	flame__perf_feed *f;
	int event_chosen;
#ifdef FLAME_HAVE_DWARF
	flame__unwind *u; /* NULL unless the recording has user stacks to unwind */
	flame__inl *inl;  /* NULL with FLAME_PERF_NO_INLINE */
	flame__pdsites *ps; /* NULL unless the tree keeps sites: user frames go through it */
	flame__cfi *cfi;  /* the files' reader for the sites, when there is no unwinder */
	flame__uframe uf[MAX_STACK];
	flame__inl_frame inl_fr[64];
#endif
} gen;

static int frame(gen *g, uint32_t pid, int mode, int fallback, uint64_t ip, flame_err *err)
{
	const char *p;
	size_t n;
	uint64_t *memo;
	if (flame__pdsym_frame(g->s, pid, mode, fallback, ip, &p, &n, &memo))
		return flame__err_nomem(err);
	return flame__perf_feed_frame(g->f, p, n, memo, err);
}

/* A pid or tid as perf script prints it (%d) at buf: its length (at most 11). */
static size_t decimal(char *buf, int32_t v)
{
	size_t k = 0;
	if (v < 0)
		buf[k++] = '-';
	return k + flame__fmt_u64(buf + k, v < 0 ? 0u - (uint32_t)v : (uint32_t)v);
}

/* A sample of a negative pid or tid (a task on its way out: perf script prints
 * ":-1  5481/-1"), whose event line the text reader does not read as it reads others:
 * the line as perf script prints it, read back as the text reader reads it. 1, or 0
 * when it reads no event line there. */
static int as_text(flame__perf_event *ev, const flame__pd_sample *sm, char *line, size_t cap)
{
	int chain = (sm->attr->sample_type & FLAME__PD_S_CALLCHAIN) != 0;
	int k = snprintf(line, cap, chain ? "%.*s " : "%16.*s ", (int)(ev->comm_len > 64 ? 64 : ev->comm_len),
	                 ev->comm);
	k += snprintf(line + k, cap - (size_t)k, "%5d/%-5d ", (int32_t)sm->pid, (int32_t)sm->tid);
	if (sm->has_time) {
		char t[32];
		snprintf(t, sizeof t, "%llu.%06llu", (unsigned long long)(sm->time / 1000000000u),
		         (unsigned long long)(sm->time % 1000000000u / 1000u));
		k += snprintf(line + k, cap - (size_t)k, "%12s: ", t);
	}
	if (sm->has_period)
		k += snprintf(line + k, cap - (size_t)k, "%10llu ", (unsigned long long)sm->period);
	snprintf(line + k, cap - (size_t)k, "%.*s: ", (int)(ev->event_len > 96 ? 96 : ev->event_len),
	         ev->event);
	return flame__perf_parse_event(line, strlen(line), ev);
}

/* With no --event-filter, the event kept is the recording's first sampling event in the
 * order of its attributes (perf record's -e order), not a tracepoint nor the dummy event
 * that only tracks maps; known by the first sample (pipe mode: the attributes come as
 * records before it). None such: the text reader's rule, the first seen. */
static int choose_event(gen *g, flame_err *err)
{
	g->event_chosen = 1;
	for (size_t i = 0; i < flame__pd_attr_count(g->r); i++) {
		const flame__pd_attr *a = flame__pd_attr_at(g->r, i);
		if (a->type == 2 || (a->type == 1 && a->config == 9)) /* tracepoint, dummy */
			continue;
		if (flame__perf_feed_default_event(g->f, a->name, strlen(a->name)))
			return flame__err_nomem(err);
		break;
	}
	return 0;
}

/* A callchain's context marker: the space of the frames after it into *mode; 0 for one
 * perf does not know. */
static inline int context(uint64_t ip, int *mode)
{
	if (ip == CTX_HV)
		*mode = FLAME__PD_HV;
	else if (ip == CTX_KERNEL)
		*mode = FLAME__PD_KERNEL;
	else if (ip == CTX_USER)
		*mode = FLAME__PD_USER;
	else
		return 0;
	return 1;
}

#ifdef FLAME_HAVE_DWARF
struct sym_ctx {
	gen *g;
	uint32_t pid;
	uint64_t ip;
};
static const char *sym_at(void *ctx)
{
	struct sym_ctx *k = ctx;
	return flame__pdsym_symbol(k->g->s, k->pid, k->ip);
}

/* The unwound user frames of a --call-graph dwarf sample, leaf first; where debug
 * information names functions inlined at a frame's address, each is a frame of its own,
 * innermost first, and the one named as the symbol is the symbol's own frame (perf's
 * append_inlines and new_inline_sym). */
static int user_frames(gen *g, const flame__pd_sample *sm, flame_err *err)
{
	size_t n = flame__unwind_sample(g->u, sm->pid, sm, g->uf, MAX_STACK);
	const char *p = NULL;
	size_t pn = 0;
	uint64_t *memo = NULL;
	int k = 0;
	for (size_t i = 0; i < n && g->ps; i++) { /* sites kept: lines, inline frames and all */
		int rc = flame__pdsites_frame(g->ps, g->f, sm->pid, g->uf[i].ip, g->uf[i].ip, err);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < n && !g->ps; i++) {
		const flame__uframe *fr = &g->uf[i];
		struct sym_ctx sc = {g, sm->pid, fr->ip};
		/* a recursion repeats its frame: its inline frames, text and memo are the last
		 * one's (nothing was looked up since, so they hold) */
		if (!i || fr->ip != g->uf[i - 1].ip) {
			k = g->inl && fr->file ? flame__inl_at(g->inl, fr->file, fr->file_id, fr->vaddr,
			                                       sym_at, &sc, g->inl_fr, MAX_INLINE) : 0;
			if (k < 0)
				return flame__err_nomem(err);
			if (!k && flame__pdsym_frame(g->s, sm->pid, FLAME__PD_USER, 0, fr->ip, &p, &pn,
			                             &memo))
				return flame__err_nomem(err);
		}
		int rc = k ? 0 : flame__perf_feed_frame(g->f, p, pn, memo, err);
		for (int j = 0; j < k && !rc; j++) {
			const flame__inl_frame *x = &g->inl_fr[j];
			rc = x->own ? frame(g, sm->pid, FLAME__PD_USER, 0, fr->ip, err)
			            : flame__perf_feed_frame(g->f, x->text, x->len, x->memo, err);
		}
		if (rc)
			return rc;
	}
	return 0;
}
#endif

#ifdef FLAME_HAVE_DWARF
/* The callchain of a sample (and its unwound user frames) when the tree keeps sites: the
 * frames sample() feeds, user frames through perfdata-sites.c. A return address's line is
 * its call's, at ip - 1; the first frame of a context is where it was (the interrupted
 * instruction, or the syscall's, whose line it keeps). */
static int chain_sites(gen *g, const flame__pd_sample *sm, flame_err *err)
{
	int mode = FLAME__PD_USER, rc;
	size_t frames = 0, first = 1;
	for (uint64_t i = 0; i < sm->nchain && frames < MAX_STACK; i++) {
		uint64_t ip;
		memcpy(&ip, sm->chain + 8 * i, 8);
		if (ip >= CTX_MAX) {
			first = frames + 1;
			if (!context(ip, &mode)) {
				flame__perf_feed_drop_frames(g->f);
				break;
			}
			continue;
		}
		frames++;
		rc = mode == FLAME__PD_USER
		     ? flame__pdsites_frame(g->ps, g->f, sm->pid, ip, frames > first ? ip - 1 : ip, err)
		     : frame(g, sm->pid, mode, 0, ip, err);
		if (rc)
			return rc;
	}
	return g->u ? user_frames(g, sm, err) : 0;
}
#endif

static int sample(gen *g, const flame__pd_rec *rec, flame_err *err)
{
	flame__pd_sample sm;
	int rc = flame__pd_decode(g->r, rec, &sm, err);
	if (rc || (!g->event_chosen && (rc = choose_event(g, err))))
		return rc;
	flame__perf_event ev;
	memset(&ev, 0, sizeof ev);
	ev.comm = flame__pdsym_thread_comm(g->s, sm.pid, sm.tid, &ev.comm_len);
	if (!ev.comm)
		return flame__err_nomem(err);
	/* the event line's comm, as its parser trims it */
	while (ev.comm_len && ev.comm[0] == ' ')
		ev.comm++, ev.comm_len--;
	while (ev.comm_len && ev.comm[ev.comm_len - 1] == ' ')
		ev.comm_len--;
	char pid[12], tid[12];
	ev.pid_len = decimal(pid, (int32_t)sm.pid);
	ev.tid_len = decimal(tid, (int32_t)sm.tid);
	ev.pid = pid;
	ev.tid = tid;
	if ((ev.has_time = sm.has_time)) /* "SECS.USECS:" read back: the same double */
		ev.time = (double)(sm.time / 1000000000u) + (double)(sm.time % 1000000000u / 1000u) / 1e6;
	if ((ev.has_period = sm.has_period)) {
		ev.period = sm.period;
		ev.period_str = sm.period ? "" : "0"; /* the "0 counts 1" rule reads the digits */
		ev.period_len = sm.period ? 0 : 1;
	}
	ev.event = sm.attr->name;
	ev.event_len = strlen(sm.attr->name);
	char line[256];
	if (((int32_t)sm.pid < 0 || (int32_t)sm.tid < 0) && !as_text(&ev, &sm, line, sizeof line))
		return 0; /* a line that the text reader would not take for a sample */
	if ((rc = flame__perf_feed_sample(g->f, &ev, rec->off, err)))
		return rc;
	if (!sm.has_chain) {
		int mode = (rec->misc & 7) == 1 ? FLAME__PD_KERNEL
		           : (rec->misc & 7) == 3 ? FLAME__PD_HV : FLAME__PD_USER;
#ifdef FLAME_HAVE_DWARF
		if (g->ps && mode == FLAME__PD_USER)
			return flame__pdsites_frame(g->ps, g->f, sm.pid, sm.ip, sm.ip, err);
#endif
		return frame(g, sm.pid, mode, 1, sm.ip, err);
	}
#ifdef FLAME_HAVE_DWARF
	if (g->ps)
		return chain_sites(g, &sm, err);
#endif
	int mode = FLAME__PD_USER;
	size_t frames = 0;
	for (uint64_t i = 0; i < sm.nchain && frames < MAX_STACK; i++) {
		uint64_t ip;
		memcpy(&ip, sm.chain + 8 * i, 8);
		if (ip >= CTX_MAX) {
			if (!context(ip, &mode)) {
				flame__perf_feed_drop_frames(g->f); /* perf drops a chain with a context it does not know */
				break;
			}
			continue;
		}
		frames++;
		if ((rc = frame(g, sm.pid, mode, 0, ip, err)))
			return rc;
	}
#ifdef FLAME_HAVE_DWARF
	if (g->u)
		return user_frames(g, &sm, err);
#endif
	return 0;
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

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	gen g;
	memset(&g, 0, sizeof g);
	int rc = flame__pd_open(&g.r, in, 1, err);
	if (rc)
		return rc;
	const char *name = flame_input_name(in);
	if (!(g.s = flame__pdsym_new(g.r))) {
		rc = flame__err_nomem(err);
		goto done;
	}
	for (size_t i = 0; i < flame__pd_attr_count(g.r); i++)
		if (flame__pd_attr_at(g.r, i)->sample_type & FLAME__PD_S_STACK_USER) {
#ifdef FLAME_HAVE_DWARF
			if (!g.u && (!(g.u = flame__unwind_new(g.s)) ||
			             (!(o->perf_flags & FLAME_PERF_NO_INLINE) && !(g.inl = flame__inl_new())))) {
				rc = flame__err_nomem(err);
				goto done;
			}
			continue;
#endif
			rc = flame__err(err, FLAME_EDATA, name, 0, FLAME__NO_OFFSET,
			                "this perf.data was recorded with --call-graph dwarf (user stacks "
			                "that need unwinding), which is not read here: use 'perf script -i "
			                "%s | flame-collapse'",
			                name[0] == '<' ? "FILE" : name);
			goto done;
		}
#ifdef FLAME_HAVE_DWARF
	flame__sites *st = flame__tree_sites(t);
	if (st && ((!g.u && !(g.cfi = flame__cfi_new(flame__pdsym_debug_dir(g.s)))) ||
	           !(g.ps = flame__pdsites_new(st, g.s, g.u ? flame__unwind_cfi(g.u) : g.cfi)))) {
		rc = flame__err_nomem(err);
		goto done;
	}
#endif
	if ((rc = flame__perf_feed_new(&g.f, t, o, name, err)))
		goto done;
	for (;;) {
		flame__pd_rec rec;
		if ((rc = flame__pd_next(g.r, &rec, err)) <= 0 || (rc = record(&g, &rec, err)))
			break;
	}
	if (rc == 0)
		rc = flame__perf_feed_finish(g.f, err);
	uint64_t cut;
	if (rc == 0 && flame__pd_unfinished(g.r, &cut)) {
		char at[64] = "";
		if (cut != UINT64_MAX)
			snprintf(at, sizeof at, " but the last one, cut short at byte %llu",
			         (unsigned long long)cut);
		flame__warn(o->warn, o->warn_ud, "perfdata-unfinished", name, 0,
		            "at byte 48: the recording was not properly finished (the header's data "
		            "size is 0: was perf record killed?); read the records up to the end of "
		            "the file%s", at);
	}
done:
#ifdef FLAME_HAVE_DWARF
	if (g.u && getenv("FLAME_PERFDATA_STATS")) { /* the rule cache's figures, for bench/ */
		uint64_t hits, misses;
		flame__cfi_stats(flame__unwind_cfi(g.u), &hits, &misses);
		fprintf(stderr, "flame: CFI rule cache: %llu hits, %llu misses (%.2f%% hits)\n",
		        (unsigned long long)hits, (unsigned long long)misses,
		        hits + misses ? 100.0 * (double)hits / (double)(hits + misses) : 0.0);
	}
	flame__pdsites_free(g.ps);
	flame__cfi_free(g.cfi);
	flame__inl_free(g.inl);
	flame__unwind_free(g.u);
#endif
	flame__perf_feed_free(g.f);
	flame__pdsym_free(g.s);
	flame__pd_free(g.r);
	return rc;
}

static int probe(const char *buf, size_t len)
{
	return len >= 8 && memcmp(buf, "PERFILE2", 8) == 0;
}

const struct flame__parser flame__parser_perfdata = {probe, parse};
