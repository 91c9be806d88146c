/* Reading several profiles into one tree as they stream in: the sides of a diff, the
 * inputs of a merge. Each folded input is cut into blocks of whole lines, parsed by a
 * thread of its own into small block trees, and the blocks are merged into the result as
 * they come, so memory stays near that of the result however large the inputs. Sorted
 * inputs (sorted folded files) merge by a linear walk over the block heads, with no hashing;
 * the first stack out of order switches to hash aggregation, which takes any order. Inputs
 * of other formats are parsed whole (flame_parse_all) and combined as trees. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/input.h"
#include "../core/join.h"
#include "../core/spill.h"
#include "../core/tree.h"

enum {
	BLOCK = 1 << 20, /* bytes of text per block tree (two inputs; less for more) */
	MIN_BLOCK = 128 * 1024,
	QUEUE = 2,       /* block trees waiting per input */
	PEEK = 64 * 1024 /* as flame_parse detects formats */
};

/* One input: a producer thread parses blocks, the merging thread takes them in order. */
typedef struct feed {
	flame_source *src;
	int to_after; /* diff: column 0 of this input is AFTER (column 1) */
	size_t block; /* bytes of text per block: memory per input is a few blocks */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	flame_tree *q[QUEUE];
	size_t qh, qn;
	int go, done, stop; /* start reading; producer finished (src->rc says how); merger gave up */
	/* producer */
	uint64_t base_line, base_off; /* lines and bytes before the current block */
	/* merger */
	flame_tree *cur;
	size_t pos;
	int differential; /* a diff side was 3-column */
} feed;

/* Warnings of a block name lines of the whole input. */
static void shifted_warn(void *ud, const char *kind, const char *source, uint64_t line,
                         const char *msg)
{
	feed *f = ud;
	f->src->opts.warn(f->src->opts.warn_ud, kind, source, line ? line + f->base_line : 0, msg);
}

static int push(feed *f, flame_tree *t)
{
	pthread_mutex_lock(&f->mu);
	while (f->qn == QUEUE && !f->stop)
		pthread_cond_wait(&f->cv, &f->mu);
	int stop = f->stop;
	if (!stop) {
		f->q[(f->qh + f->qn++) % QUEUE] = t;
		pthread_cond_broadcast(&f->cv);
	}
	pthread_mutex_unlock(&f->mu);
	return stop;
}

/* Parse one block of whole lines into a new tree; errors name the whole input's lines. */
static flame_tree *parse_block(feed *f, const char *p, size_t n)
{
	flame_source *s = f->src;
	flame_input *in = NULL;
	flame_parse_opts po = s->opts;
	po.format = FLAME_FORMAT_FOLDED;
	if (po.warn) {
		po.warn = shifted_warn;
		po.warn_ud = f;
	}
	flame_tree *t = flame_tree_new();
	if (!t) {
		s->rc = flame__err_nomem(&s->err);
		return NULL;
	}
	s->rc = flame_input_open_mem(&in, p, n, flame_input_name(s->in), &s->err);
	if (!s->rc)
		s->rc = flame_parse(t, in, &po, &s->err);
	flame_input_free(in);
	if (s->rc) {
		if (s->err.line)
			s->err.line += f->base_line;
		if (s->err.offset != FLAME__NO_OFFSET)
			s->err.offset += f->base_off;
	} else if (s->weight && (s->weight != 1 || s->weight_decimals) &&
	           (s->rc = flame_tree_weight(t, s->weight, s->weight_decimals, &s->err)) &&
	           !s->err.source[0]) {
		snprintf(s->err.source, sizeof s->err.source, "%s", flame_input_name(s->in));
	}
	if (s->rc) {
		flame_tree_free(t);
		return NULL;
	}
	return t;
}

static void *produce(void *ud)
{
	feed *f = ud;
	flame_source *s = f->src;
	const size_t block = f->block;
	size_t cap = 0, len = 0, want = block;
	char *buf = NULL;
	int eof = 0;
	pthread_mutex_lock(&f->mu);
	while (!f->go && !f->stop)
		pthread_cond_wait(&f->cv, &f->mu);
	int stop = f->stop;
	pthread_mutex_unlock(&f->mu);
	while (!stop && !s->rc) {
		while (!eof && len < want) {
			if (cap < want + block / 4) { /* read a little past `want`, in one go */
				char *nb = realloc(buf, want + block / 4);
				if (!nb) {
					s->rc = flame__err_nomem(&s->err);
					break;
				}
				buf = nb;
				cap = want + block / 4;
			}
			long r = flame__input_read(s->in, buf + len, cap - len, &s->err);
			if (r < 0)
				s->rc = (int)r;
			if (r <= 0)
				eof = 1;
			else
				len += (size_t)r;
		}
		if (s->rc)
			break;
		size_t cut = len;
		if (!eof) {
			const char *nl = memrchr(buf, '\n', len);
			if (!nl) { /* a line longer than a block: read on */
				want = len + block;
				continue;
			}
			cut = (size_t)(nl - buf) + 1;
		}
		want = block;
		if (!cut)
			break;
		flame_tree *t = parse_block(f, buf, cut);
		if (!t)
			break;
		for (const char *q = buf; (q = memchr(q, '\n', (size_t)(buf + cut - q))); q++)
			f->base_line++;
		f->base_off += cut;
		memmove(buf, buf + cut, len - cut);
		len -= cut;
		if ((stop = push(f, t)))
			flame_tree_free(t);
		if (eof && !len)
			break;
	}
	free(buf);
	pthread_mutex_lock(&f->mu);
	f->done = 1;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

/* The next block of `f` (NULL at its end or on its error). */
static flame_tree *pop(feed *f)
{
	pthread_mutex_lock(&f->mu);
	while (!f->qn && !f->done)
		pthread_cond_wait(&f->cv, &f->mu);
	flame_tree *t = NULL;
	if (f->qn) {
		t = f->q[f->qh];
		f->qh = (f->qh + 1) % QUEUE;
		f->qn--;
		pthread_cond_broadcast(&f->cv);
	}
	pthread_mutex_unlock(&f->mu);
	return t;
}

/* ---- the merging side */

typedef struct merger {
	flame_tree *t;
	feed *feeds;
	size_t n;
	int diff;
	flame_err *err;
} merger;

/* <0, 0, >0 as the text of stack a sorts before, equals, after b (both in t's names);
 * *same: the same frames. */
static int cmp_ids(const flame_tree *t, const flame__stack *a, const flame__stack *b, int *same)
{
	uint32_t n = a->depth < b->depth ? a->depth : b->depth, i = 0;
	while (i < n && a->ids[i] == b->ids[i])
		i++;
	*same = i == a->depth && i == b->depth;
	if (*same)
		return 0;
	return flame__join_cmp_from(&t->names, a->ids, a->depth, b->ids, b->depth, i);
}

/* Take the next block of `f` as its current one: names re-interned into the result, ids
 * rewritten in place, the result's scale raised to the block's. 0, or an error. */
static int next_block(merger *m, feed *f)
{
	flame_tree_free(f->cur);
	f->cur = NULL;
	f->pos = 0;
	for (;;) {
		flame_tree *b = pop(f);
		if (!b)
			return f->src->rc;
		if (m->diff && flame_tree_is_differential(b)) {
			flame_tree_free(b);
			f->differential = 1; /* src is the producer's until it is joined */
			return FLAME_EDATA;
		}
		if (b->differential)
			m->t->differential = 1;
		if (!b->stacks.sorted)
			m->t->stacks.sorted = 0; /* a block out of order: hashing from here on */
		int rc = flame__tree_rescale(m->t, b->scale, m->err);
		uint32_t *map = rc ? NULL : malloc((size_t)b->names.count * sizeof *map);
		if (!rc && !map)
			rc = flame__err_nomem(m->err);
		for (uint32_t id = 0; !rc && id < b->names.count; id++) {
			const flame__name *nm = flame__intern_get(&b->names, id);
			map[id] = flame__intern_put_hashed(&m->t->names, nm->ptr, nm->len, nm->hash32);
			if (map[id] == FLAME__ID_NONE)
				rc = flame__err_nomem(m->err);
		}
		for (size_t k = 0; !rc && k < b->stacks.count; k++) {
			uint32_t *ids = (uint32_t *)b->stacks.v[k].ids; /* the block is ours */
			for (uint32_t i = 0; i < b->stacks.v[k].depth; i++)
				ids[i] = map[ids[i]];
		}
		free(map);
		if (rc) {
			flame_tree_free(b);
			return rc;
		}
		if (b->stacks.count) {
			f->cur = b;
			return 0;
		}
		flame_tree_free(b);
	}
}

static int range_err(flame_err *err)
{
	return flame__err(err, FLAME_ERANGE, "", 0, FLAME__NO_OFFSET, "a count overflows 64 bits");
}

/* Weights of the current stack of `f` in the result's columns and scale. */
static int weights(merger *m, const feed *f, uint64_t w[2])
{
	const flame__stack *st = &f->cur->stacks.v[f->pos];
	uint64_t mul = flame__pow10[m->t->scale - f->cur->scale];
	uint64_t a = st->w[0], b = st->w[1];
	if (mul > 1 && ((a && a > UINT64_MAX / mul) || (b && b > UINT64_MAX / mul)))
		return range_err(m->err);
	a *= mul;
	b *= mul;
	if (f->to_after) {
		b = a;
		a = 0;
	}
	if (w[0] + a < a || w[1] + b < b)
		return range_err(m->err);
	w[0] += a;
	w[1] += b;
	return 0;
}

static int merge_feeds(merger *m)
{
	int rc = 0;
	size_t *eq = malloc(m->n * sizeof *eq);
	if (!eq)
		return flame__err_nomem(m->err);
	for (size_t i = 0; i < m->n && !rc; i++)
		rc = next_block(m, &m->feeds[i]);
	while (!rc) {
		/* the smallest head, and every input whose head has the same frames */
		size_t best = SIZE_MAX, ne = 0;
		int twins = 0;
		for (size_t i = 0; i < m->n; i++) {
			feed *f = &m->feeds[i];
			if (!f->cur)
				continue;
			int same = 0, c = -1;
			if (best != SIZE_MAX)
				c = cmp_ids(m->t, &f->cur->stacks.v[f->pos],
				            &m->feeds[best].cur->stacks.v[m->feeds[best].pos], &same);
			if (c < 0) {
				best = i;
				eq[0] = i;
				ne = 1;
			} else if (same) {
				eq[ne++] = i;
			} else if (c == 0) {
				twins = 1; /* equal texts of different frames: hashing keeps them apart */
			}
		}
		if (best == SIZE_MAX)
			break;
		flame__stacks *s = &m->t->stacks;
		if (twins)
			s->sorted = 0; /* from here on, by hashing */
		const flame__stack *st = &m->feeds[best].cur->stacks.v[m->feeds[best].pos];
		uint64_t w[2] = {0, 0};
		for (size_t k = 0; k < ne && !rc; k++)
			rc = weights(m, &m->feeds[eq[k]], w);
		if (rc)
			break;
		/* Each input in order (its blocks sorted, checked at arrival, and each block's first
		 * stack after what came before) makes the merged stream ordered; so only a block's
		 * first stack needs a look at the table's last. */
		int first = 0, same;
		for (size_t k = 0; k < ne; k++)
			first |= m->feeds[eq[k]].pos == 0;
		if (first && s->sorted && s->count && cmp_ids(m->t, &s->v[s->count - 1], st, &same) >= 0)
			s->sorted = 0; /* out of order: from here on, by hashing */
		/* a plain append while sorted, a hash lookup after */
		if ((rc = flame__stacks_append_sorted(s, st->ids, st->depth, w[0], w[1]))) {
			rc = rc == FLAME_ENOMEM ? flame__err_nomem(m->err) : range_err(m->err);
			break;
		}
		for (size_t k = 0; k < ne && !rc; k++) {
			feed *f = &m->feeds[eq[k]];
			if (++f->pos == f->cur->stacks.count)
				rc = next_block(m, f);
		}
	}
	m->t->nodes_valid = 0;
	free(eq);
	return rc;
}

/* ---- streaming or whole trees */

/* 1 when src can be read in blocks: a folded (or empty) input. Peeks like flame_parse. */
static int streamable(flame_source *s)
{
	if (s->opts.format == FLAME_FORMAT_FOLDED)
		return 1;
	if (s->opts.format != FLAME_FORMAT_AUTO)
		return 0;
	const char *p;
	long n = flame__input_peek(s->in, &p, PEEK, &s->err);
	if (n < 0) {
		s->rc = (int)n;
		return 0;
	}
	return n == 0 || flame_detect(p, (size_t)n) == FLAME_FORMAT_FOLDED;
}

/* Stream every input into t (empty). 0, a source's rc, an error in *err, or 1 when the
 * threads could not start (nothing was read). */
static int stream_all(flame_tree *t, flame_source *src, size_t n, int diff, flame_err *err)
{
	feed *feeds = calloc(n, sizeof *feeds);
	pthread_t *th = calloc(n, sizeof *th);
	unsigned char *started = calloc(n, 1);
	int rc = 0;
	if (!feeds || !th || !started) {
		free(feeds);
		free(th);
		free(started);
		return flame__err_nomem(err);
	}
	for (size_t i = 0; i < n; i++) {
		feeds[i].src = &src[i];
		feeds[i].to_after = diff && i == 1;
		feeds[i].block = n <= 2 ? BLOCK : 2 * BLOCK / n > MIN_BLOCK ? 2 * BLOCK / n : MIN_BLOCK;
		pthread_mutex_init(&feeds[i].mu, NULL);
		pthread_cond_init(&feeds[i].cv, NULL);
	}
	int all = 1; /* start reading only when every thread exists (else nothing is read) */
	for (size_t i = 0; i < n && all; i++)
		all = (started[i] = pthread_create(&th[i], NULL, produce, &feeds[i]) == 0);
	for (size_t i = 0; i < n && all; i++) {
		pthread_mutex_lock(&feeds[i].mu);
		feeds[i].go = 1;
		pthread_cond_broadcast(&feeds[i].cv);
		pthread_mutex_unlock(&feeds[i].mu);
	}
	merger m = {t, feeds, n, diff, err};
	rc = all ? merge_feeds(&m) : 1;
	for (size_t i = 0; i < n; i++) {
		feed *f = &feeds[i];
		pthread_mutex_lock(&f->mu);
		f->stop = 1;
		pthread_cond_broadcast(&f->cv);
		pthread_mutex_unlock(&f->mu);
		if (started[i])
			pthread_join(th[i], NULL);
		flame_tree_free(f->cur);
		while (f->qn) {
			flame_tree_free(f->q[f->qh]);
			f->qh = (f->qh + 1) % QUEUE;
			f->qn--;
		}
		if (f->differential) {
			f->src->differential = 1;
			f->src->rc = flame__err(&f->src->err, FLAME_EDATA, flame_input_name(f->src->in), 0,
			                        FLAME__NO_OFFSET, "a differential (3-column) profile "
			                        "cannot be one side of a diff");
		}
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
	}
	free(feeds);
	free(th);
	free(started);
	return rc;
}

static int first_failure(const flame_source *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (src[i].rc)
			return src[i].rc;
	return 0;
}

int flame_diff_read(flame_tree *t, flame_source src[2], const flame_diff_opts *o, flame_err *err)
{
	int rc = flame_diff_check(o, err);
	if (rc)
		return rc;
	for (int i = 0; i < 2; i++) {
		src[i].rc = src[i].differential = 0;
		src[i].total = 0;
	}
	int s0 = streamable(&src[0]), s1 = streamable(&src[1]);
	if ((rc = first_failure(src, 2)))
		return rc;
	if (s0 && s1 && (rc = stream_all(t, src, 2, 1, err)) != 1) {
		if (rc)
			return first_failure(src, 2) ? first_failure(src, 2) : rc;
		t->differential = 1;
		src[0].total = flame_tree_total(t, 0);
		src[1].total = flame_tree_total(t, 1);
		return flame_diff_normalize(t, o, err);
	}
	/* whole trees, read at once */
	flame_tree *after = flame_tree_new();
	if (!after)
		return flame__err_nomem(err);
	flame_parse_job job[2] = {{t, src[0].in, src[0].opts, 0, {0}}, {after, src[1].in, src[1].opts, 0, {0}}};
	flame_parse_all(job, 2, 2);
	for (int i = 0; i < 2; i++) {
		src[i].rc = job[i].rc;
		src[i].err = job[i].err;
		if (!src[i].rc && flame_tree_is_differential(job[i].tree)) {
			src[i].differential = 1;
			src[i].rc = flame__err(&src[i].err, FLAME_EDATA, flame_input_name(src[i].in), 0,
			                       FLAME__NO_OFFSET, "a differential (3-column) profile "
			                       "cannot be one side of a diff");
		}
	}
	if (!(rc = first_failure(src, 2))) {
		unsigned scale0 = t->scale, scale1 = after->scale;
		uint64_t t0 = flame_tree_total(t, 0), t1 = flame_tree_total(after, 0);
		if (!(rc = flame_diff(t, after, o, err))) {
			src[0].total = t0 * flame__pow10[t->scale - scale0];
			src[1].total = t1 * flame__pow10[t->scale - scale1];
		}
	}
	flame_tree_free(after);
	return rc;
}

/* Add tree u to t: a linear join when both are sorted, else flame_tree_merge. */
static int add_tree(flame_tree *t, flame_tree *u, flame_err *err)
{
	if (!flame__tree_stacks_sorted(t) || !flame__tree_stacks_sorted(u))
		return flame_tree_merge(t, u, err);
	int rc = flame__tree_rescale(t, u->scale, err);
	if (!rc && (rc = flame__tree_join_sorted(t, u, flame__pow10[t->scale - u->scale], 0, err)) == 1)
		return flame_tree_merge(t, u, err);
	if (u->differential)
		t->differential = 1;
	if (!t->count_name[0] && u->count_name[0])
		memcpy(t->count_name, u->count_name, sizeof t->count_name);
	return rc;
}

int flame_merge_read(flame_tree *t, flame_source *src, size_t n, unsigned threads, flame_err *err)
{
	int rc = 0, all = 1;
	for (size_t i = 0; i < n; i++) {
		src[i].rc = src[i].differential = 0;
		src[i].total = 0;
		all &= streamable(&src[i]);
	}
	if ((rc = first_failure(src, n)))
		return rc;
	/* two inputs stream (the memory of one result); more would need many blocks in flight,
	 * and their heads compared many ways: those are read whole, a few at a time, and
	 * joined (linearly when sorted) */
	if (all && n <= 2 && (rc = stream_all(t, src, n, 0, err)) != 1)
		return first_failure(src, n) ? first_failure(src, n) : rc;
	/* whole trees, `threads` at a time, each weighted and added */
	int t_empty = !t->stacks.count && !t->differential && !flame__tree_spilled(t);
	if (!threads)
		threads = 2;
	flame_parse_job *job = calloc(threads, sizeof *job);
	if (!job)
		return flame__err_nomem(err);
	rc = 0;
	for (size_t at = 0; at < n && !rc; at += threads) {
		size_t k = n - at < threads ? n - at : threads;
		for (size_t i = 0; i < k; i++) {
			/* the first input goes straight into an empty result */
			flame_tree *u = at + i == 0 && t_empty ? t : flame_tree_new();
			job[i] = (flame_parse_job){u, src[at + i].in, src[at + i].opts, 0, {0}};
			if (!job[i].tree)
				rc = flame__err_nomem(err);
		}
		if (!rc)
			flame_parse_all(job, k, threads);
		for (size_t i = 0; i < k; i++) {
			flame_source *s = &src[at + i];
			if (!rc && (s->rc = job[i].rc)) {
				s->err = job[i].err;
				rc = s->rc;
			}
			if (!rc && s->weight && (s->weight != 1 || s->weight_decimals) &&
			    (rc = s->rc = flame_tree_weight(job[i].tree, s->weight, s->weight_decimals, &s->err)) &&
			    !s->err.source[0])
				snprintf(s->err.source, sizeof s->err.source, "%s", flame_input_name(s->in));
			if (!rc)
				s->total = flame_tree_total(job[i].tree, 0);
			if (job[i].tree != t) {
				if (!rc)
					rc = add_tree(t, job[i].tree, err);
				flame_tree_free(job[i].tree);
			}
			job[i].tree = NULL;
		}
	}
	free(job);
	return rc;
}
