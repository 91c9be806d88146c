/* Sorted runs of unique stacks in an anonymous temp file, merged back in folded text
 * order (see spill.h). Record: u32 depth, u32 ids[depth], u64 w0, u64 w1, u64 seq, where
 * seq numbers the stacks in order of first appearance over all runs: reading the runs back
 * restores the table's order as if nothing had been spilled (writers that follow the
 * table's order, such as pprof's samples and flame charts, give the same bytes). The
 * temp file goes in $TMPDIR (else /tmp), unnamed from the start where Linux allows
 * (O_TMPFILE), else named and unlinked at once: a killed run leaves nothing behind. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "array.h"
#include "err.h"
#include "heap.h"
#include "order.h"
#include "spill.h"

typedef struct run {
	uint64_t start, end;
} run;

struct flame__spill {
	FILE *f;
	uint64_t size;
	run *runs;
	size_t nruns, cap;
	flame__order order; /* the names' ranks, updated at each run */
	uint64_t seq;       /* stacks spilled so far: the next run's first seq */
};

void flame__spill_free(flame__spill *sp)
{
	if (!sp)
		return;
	if (sp->f)
		fclose(sp->f);
	flame__order_free(&sp->order);
	free(sp->runs);
	free(sp);
}

size_t flame__spill_runs(const flame__spill *sp) { return sp ? sp->nruns : 0; }

static int io_err(flame_err *err, const char *what)
{
	return flame__err(err, FLAME_EIO, "temp file", 0, FLAME__NO_OFFSET, "%s: %s", what,
	                  strerror(errno));
}

/* A read-write temp file in $TMPDIR with no name; errors name the directory. */
static int open_temp(FILE **out, flame_err *err)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	int fd = -1;
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (fd < 0) { /* no O_TMPFILE here or on this filesystem */
		size_t n = strlen(dir) + sizeof "/flame-spill.XXXXXX";
		char *name = malloc(n);
		if (!name)
			return flame__err_nomem(err);
		snprintf(name, n, "%s/flame-spill.XXXXXX", dir);
		if ((fd = mkostemp(name, O_CLOEXEC)) >= 0)
			unlink(name);
		free(name);
	}
	if (fd >= 0 && (*out = fdopen(fd, "w+b")))
		return 0;
	int e = errno;
	if (fd >= 0)
		close(fd);
	return flame__err(err, FLAME_EIO, dir, 0, FLAME__NO_OFFSET, "cannot create a temp file: %s",
	                  strerror(e));
}

int flame__spill_run(flame__spill **spp, flame__stacks *s, const flame__intern *names,
                     flame_err *err)
{
	flame__spill *sp = *spp;
	if (!sp && !(sp = *spp = calloc(1, sizeof *sp)))
		return flame__err_nomem(err);
	int rc = sp->f ? 0 : open_temp(&sp->f, err);
	if (rc)
		return rc;
	if (flame__array_reserve(sp->runs, sp->cap, sp->nruns + 1))
		return flame__err_nomem(err);
	uint32_t *idx = NULL;
	if (flame__order_update_stacks(&sp->order, names, s->v, s->count) ||
	    !(idx = flame__order_sort(&sp->order, s->v, s->count)))
		return flame__err_nomem(err);
	if (fseeko(sp->f, (off_t)sp->size, SEEK_SET) != 0)
		rc = io_err(err, "cannot seek");
	uint64_t start = sp->size;
	/* records gathered in a buffer of our own: an fwrite per field costs more than the
	 * copy */
	enum { RUN_BUF = 256 * 1024 };
	unsigned char *buf = malloc(RUN_BUF);
	size_t len = 0;
	if (!buf && !rc)
		rc = flame__err_nomem(err);
	for (size_t i = 0; i < s->count && !rc; i++) {
		const flame__stack *st = &s->v[idx[i]];
		size_t rec = 4 + 4 * (size_t)st->depth + 24;
		uint64_t seq = sp->seq + idx[i]; /* the table is in order of first appearance */
		if (len + rec > RUN_BUF && len) {
			if (fwrite(buf, 1, len, sp->f) != len)
				rc = io_err(err, "cannot write");
			len = 0;
		}
		if (rec > RUN_BUF) { /* a stack deeper than the buffer: field by field */
			if (!rc && (fwrite(&st->depth, 4, 1, sp->f) != 1 ||
			            fwrite(st->ids, 4, st->depth, sp->f) != st->depth ||
			            fwrite(st->w, 8, 2, sp->f) != 2 || fwrite(&seq, 8, 1, sp->f) != 1))
				rc = io_err(err, "cannot write");
		} else {
			memcpy(buf + len, &st->depth, 4);
			memcpy(buf + len + 4, st->ids, 4 * (size_t)st->depth);
			memcpy(buf + len + 4 + 4 * (size_t)st->depth, st->w, 16);
			memcpy(buf + len + 20 + 4 * (size_t)st->depth, &seq, 8);
			len += rec;
		}
		sp->size += rec;
	}
	if (!rc && len && fwrite(buf, 1, len, sp->f) != len)
		rc = io_err(err, "cannot write");
	free(buf);
	free(idx);
	if (!rc && fflush(sp->f) != 0)
		rc = io_err(err, "cannot write");
	if (rc)
		return rc;
	sp->runs[sp->nruns++] = (run){start, sp->size};
	sp->seq += s->count;
	uint64_t total[2] = {s->total[0], s->total[1]};
	flame__stacks_free(s);
	flame__stacks_init(s);
	s->total[0] = total[0];
	s->total[1] = total[1];
	return 0;
}

/* A buffered reader of one run. */
typedef struct reader {
	int fd;
	uint64_t pos, end;
	unsigned char *buf;
	size_t len, off; /* buffered bytes and the read position in them */
	uint32_t *ids;
	size_t cap;
	uint32_t depth;
	uint64_t w[2], seq;
	int live;
} reader;

enum { READ_BUF = 64 * 1024 };

static int fill(reader *r, size_t need, flame_err *err)
{
	if (r->len - r->off >= need)
		return 0;
	memmove(r->buf, r->buf + r->off, r->len - r->off);
	r->len -= r->off;
	r->off = 0;
	if (need > READ_BUF) {
		unsigned char *nb = realloc(r->buf, need);
		if (!nb)
			return flame__err_nomem(err);
		r->buf = nb;
	}
	size_t cap = need > READ_BUF ? need : READ_BUF;
	while (r->len < need) {
		size_t want = cap - r->len;
		if (want > r->end - r->pos)
			want = (size_t)(r->end - r->pos);
		if (want == 0)
			return flame__err(err, FLAME_EIO, "temp file", 0, r->pos, "truncated run");
		ssize_t n = pread(r->fd, r->buf + r->len, want, (off_t)r->pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return io_err(err, "cannot read");
		r->len += (size_t)n;
		r->pos += (uint64_t)n;
	}
	return 0;
}

/* Load the reader's next record; live = 0 at the end of the run. */
static int next(reader *r, flame_err *err)
{
	if (r->pos == r->end && r->off == r->len) {
		r->live = 0;
		return 0;
	}
	int rc = fill(r, 4, err);
	if (rc)
		return rc;
	memcpy(&r->depth, r->buf + r->off, 4);
	size_t rec = 4 + 4 * (size_t)r->depth + 24;
	if ((rc = fill(r, rec, err)))
		return rc;
	if (flame__array_reserve_min(r->ids, r->cap, r->depth, 64))
		return flame__err_nomem(err);
	memcpy(r->ids, r->buf + r->off + 4, 4 * (size_t)r->depth);
	memcpy(r->w, r->buf + r->off + 4 + 4 * (size_t)r->depth, 16);
	memcpy(&r->seq, r->buf + r->off + 20 + 4 * (size_t)r->depth, 8);
	r->off += rec;
	r->live = 1;
	return 0;
}

/* emit with the stack's seq (the smallest of the runs holding it) */
typedef int (*emit_seq_fn)(void *ud, const uint32_t *ids, uint32_t depth, uint64_t w0,
                           uint64_t w1, uint64_t seq);

/* Heap order of the readers: the smallest current stack first, equal texts by run. */
struct by_stack {
	const reader *rd;
	const flame__order *o;
};

static inline int stack_before(const struct by_stack *c, size_t a, size_t b)
{
	const reader *x = &c->rd[a], *y = &c->rd[b];
	int k = flame__order_cmp(c->o, x->ids, x->depth, y->ids, y->depth);
	return k < 0 || (k == 0 && a < b);
}

FLAME__HEAP(runs, struct by_stack, stack_before)

/* k runs merged with a heap: about 2 log k comparisons of stacks per stack written,
 * where a scan of the runs made k (a table spilled 16 times spent more on that than on
 * sorting its runs). */
static int merge(flame__spill *sp, const flame__intern *names, emit_seq_fn emit, void *ud,
                 flame_err *err)
{
	size_t k = sp->nruns;
	reader *rd = calloc(k ? k : 1, sizeof *rd);
	size_t *h = malloc((k ? k : 1) * sizeof *h), *same = malloc((k ? k : 1) * sizeof *same);
	/* every token of every run was ranked as the run was written (flame__spill_run) */
	struct by_stack ctx = {rd, &sp->order};
	flame__heap hp = {h, 0};
	int rc = 0;
	(void)names;
	if (!rd || !h || !same) {
		rc = flame__err_nomem(err);
		goto done;
	}
	for (size_t i = 0; i < k && !rc; i++) {
		rd[i] = (reader){.fd = fileno(sp->f), .pos = sp->runs[i].start, .end = sp->runs[i].end,
		                 .buf = malloc(READ_BUF)};
		rc = rd[i].buf ? next(&rd[i], err) : flame__err_nomem(err);
		if (!rc && rd[i].live)
			runs_push(&hp, &ctx, i);
	}
	while (!rc && hp.n) {
		/* the smallest stack, and every run whose current stack has its text (they are
		 * on top of the heap in turn): those with the same ids are summed with it; a
		 * different stack of the same text (names holding ';') goes back, unread */
		size_t m = runs_pop(&hp, &ctx), ns = 0;
		const reader *rm = &rd[m];
		while (hp.n && flame__order_cmp(&sp->order, rd[hp.h[0]].ids, rd[hp.h[0]].depth,
		                                rm->ids, rm->depth) == 0)
			same[ns++] = runs_pop(&hp, &ctx);
		uint64_t w0 = rm->w[0], w1 = rm->w[1], seq = rm->seq;
		size_t nd = 0;
		for (size_t j = 0; j < ns; j++) {
			const reader *r = &rd[same[j]];
			if (r->depth != rm->depth || memcmp(r->ids, rm->ids, 4 * (size_t)rm->depth) != 0) {
				runs_push(&hp, &ctx, same[j]);
				continue;
			}
			if (w0 + r->w[0] < w0 || w1 + r->w[1] < w1) {
				rc = flame__err(err, FLAME_ERANGE, "", 0, FLAME__NO_OFFSET,
				                "a count overflows 64 bits");
				goto done;
			}
			w0 += r->w[0];
			w1 += r->w[1];
			if (r->seq < seq)
				seq = r->seq;
			same[nd++] = same[j];
		}
		same[nd++] = m;
		if ((rc = emit(ud, rm->ids, rm->depth, w0, w1, seq)))
			break;
		for (size_t j = 0; j < nd && !rc; j++) {
			rc = next(&rd[same[j]], err);
			if (!rc && rd[same[j]].live)
				runs_push(&hp, &ctx, same[j]);
		}
	}
done:
	for (size_t i = 0; rd && i < k; i++) {
		free(rd[i].buf);
		free(rd[i].ids);
	}
	free(rd);
	free(h);
	free(same);
	return rc;
}

struct emit_plain {
	flame__emit_fn emit;
	void *ud;
};

static int emit_plain(void *ud, const uint32_t *ids, uint32_t depth, uint64_t w0, uint64_t w1,
                      uint64_t seq)
{
	const struct emit_plain *e = ud;
	(void)seq;
	return e->emit(e->ud, ids, depth, w0, w1);
}

int flame__spill_merge(flame__spill *sp, const flame__intern *names, flame__emit_fn emit,
                       void *ud, flame_err *err)
{
	return merge(sp, names, emit_plain, &(struct emit_plain){emit, ud}, err);
}

/* Reading back: the merged stacks are distinct and in text order, so they are appended
 * (no hashing); their seqs then put them in order of first appearance. */
struct readback {
	flame__stacks fresh;
	uint64_t *seq; /* room for every spilled stack: the merge gives no more */
	int in_order; /* seqs increasing so far: text order is first-appearance order */
};

static int readd(void *ud, const uint32_t *ids, uint32_t depth, uint64_t w0, uint64_t w1,
                 uint64_t seq)
{
	struct readback *r = ud;
	size_t n = r->fresh.count;
	if (n && seq < r->seq[n - 1])
		r->in_order = 0;
	r->seq[n] = seq;
	return flame__stacks_append_sorted(&r->fresh, ids, depth, w0, w1);
}

struct by_seq {
	uint64_t seq;
	uint32_t idx;
};

static int cmp_seq(const void *a, const void *b)
{
	uint64_t x = ((const struct by_seq *)a)->seq, y = ((const struct by_seq *)b)->seq;
	return x < y ? -1 : x > y;
}

/* Put the table in order of first appearance (it no longer is in text order). */
static int reorder(struct readback *r)
{
	flame__stacks *s = &r->fresh;
	size_t n = s->count;
	struct by_seq *o = malloc((n ? n : 1) * sizeof *o);
	flame__stack *v = malloc((s->cap ? s->cap : 1) * sizeof *v);
	if (!o || !v) {
		free(o);
		free(v);
		return FLAME_ENOMEM;
	}
	for (size_t k = 0; k < n; k++)
		o[k] = (struct by_seq){r->seq[k], (uint32_t)k};
	qsort(o, n, sizeof *o, cmp_seq);
	for (size_t k = 0; k < n; k++)
		v[k] = s->v[o[k].idx];
	free(o);
	free(s->v);
	s->v = v;
	s->sorted = n < 2;
	return 0;
}

int flame__spill_read_back(flame__spill *sp, const flame__intern *names, flame__stacks *out,
                           flame_err *err)
{
	struct readback r = {.in_order = 1};
	flame__stacks_init(&r.fresh);
	int rc = 0;
	if (!(r.seq = malloc((size_t)(sp->seq ? sp->seq : 1) * sizeof *r.seq)))
		rc = FLAME_ENOMEM;
	if (!rc)
		rc = merge(sp, names, readd, &r, err);
	if (!rc && !r.in_order)
		rc = reorder(&r);
	free(r.seq);
	if (rc) {
		flame__stacks_free(&r.fresh);
		if (rc == FLAME_ERANGE)
			return flame__err(err, rc, "", 0, FLAME__NO_OFFSET, "a count overflows 64 bits");
		return rc == FLAME_ENOMEM ? flame__err_nomem(err) : rc;
	}
	*out = r.fresh;
	return 0;
}
