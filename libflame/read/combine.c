/* Reading several profiles into one tree as they stream in: the sides of a diff, the
 * inputs of a merge (the read layer: parse/ below, xform/ above). Each folded input is parsed by a thread of its own into a tree whose
 * stack table is handed over in blocks as it fills (the tree's drain hook, where spilling
 * would write a run), and the blocks are merged into the result as they come, so memory
 * stays near that of the result however large the inputs. Sorted inputs (sorted folded
 * files) merge by a linear walk over the block heads, with no hashing; the first stack out
 * of order switches to hash aggregation, which takes any order. A diff's sides of other
 * formats are parsed whole, both at once (flame__parse_all), for the caller to diff; a merge
 * of more than two inputs parses them whole on worker threads while the finished trees are
 * joined into the result (linearly when sorted). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/input.h"
#include "../core/join.h"
#include "../core/pool.h"
#include "../core/tree.h"
#include "read.h"

enum {
	BLOCK = 512 * 1024, /* bytes of stack table per block (about 1 MiB of folded text) */
	QUEUE = 2,          /* blocks waiting per input */
	PEEK = 64 * 1024    /* as flame_parse detects formats */
};

/* A block: stacks taken from an input's tree, and the names that tree learnt since the
 * block before (their bytes stay in the producer's tree, which outlives the merge). */
typedef struct block {
	flame__stacks stacks;
	unsigned scale;
	int differential;
	uint32_t names_from, names_to;
	flame__name names[]; /* ids names_from .. names_to - 1 */
} block;

static void block_free(block *b)
{
	if (b) {
		flame__stacks_free(&b->stacks);
		free(b);
	}
}

/* One input: a producer thread parses it, the merging thread takes its blocks in order. */
typedef struct feed {
	flame__source *src;
	int to_after; /* diff: column 0 of this input is AFTER (column 1) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	block *q[QUEUE];
	size_t qh, qn;
	int go, done, stop; /* start reading; producer finished (src->rc says how); merger gave up */
	/* producer */
	flame_tree *pt;       /* the input's tree: names, and the stacks of the block being read */
	uint32_t names_sent;
	int stopped;          /* told to stop by the merger */
	/* merger */
	block *cur;
	size_t pos;
	int adopted;          /* the result refers to ids in cur's arena: keep it when done */
	uint32_t *map;        /* the input's name ids -> the result's */
	size_t map_cap;
	int differential;     /* a diff side was 3-column */
} feed;

/* 0, or 1 when the merger gave up (the producer stops). */
static int push(feed *f, block *b)
{
	pthread_mutex_lock(&f->mu);
	while (f->qn == QUEUE && !f->stop)
		pthread_cond_wait(&f->cv, &f->mu);
	int stop = f->stop;
	if (!stop) {
		f->q[(f->qh + f->qn++) % QUEUE] = b;
		pthread_cond_broadcast(&f->cv);
	}
	pthread_mutex_unlock(&f->mu);
	return stop;
}

/* The tree's drain hook: take its stacks (and the names it learnt) as a block. */
static int drain(void *ud, flame_tree *t, flame_err *err)
{
	feed *f = ud;
	flame__source *s = f->src;
	const flame__intern *names = flame__tree_names(t);
	uint32_t from = f->names_sent, to = names->count;
	block *b = malloc(sizeof *b + (size_t)(to - from) * sizeof b->names[0]);
	if (!b)
		return flame__err_nomem(err);
	flame__tree_take_stacks(t, &b->stacks);
	b->scale = flame_tree_decimals(t);
	b->differential = flame__tree_marked_differential(t);
	b->names_from = from;
	b->names_to = to;
	memcpy(b->names, names->names + from, (size_t)(to - from) * sizeof b->names[0]);
	f->names_sent = to;
	int rc = s->weight && (s->weight != 1 || s->weight_decimals)
	             ? flame__stacks_weigh(&b->stacks, &b->scale, s->weight, s->weight_decimals,
	                            flame_input_name(s->in), err)
	             : 0;
	if (!rc && push(f, b)) {
		f->stopped = 1; /* not this input's failure: the merge gave up */
		rc = flame__err(err, FLAME_EIO, flame_input_name(s->in), 0, FLAME__NO_OFFSET,
		                "reading stopped");
	}
	if (rc)
		block_free(b);
	return rc;
}

static void produce(void *ud, unsigned thread)
{
	feed *f = ud;
	(void)thread;
	flame__source *s = f->src;
	pthread_mutex_lock(&f->mu);
	while (!f->go && !f->stop)
		pthread_cond_wait(&f->cv, &f->mu);
	int stop = f->stop;
	pthread_mutex_unlock(&f->mu);
	if (!stop) {
		flame__tree_set_drain(f->pt, BLOCK, drain, f);
		flame_parse_opts po = s->opts;
		s->rc = flame_parse(f->pt, s->in, &po, &s->err);
		if (!s->rc && (flame__tree_has_stacks(f->pt) || f->names_sent < flame__tree_names(f->pt)->count))
			s->rc = drain(f, f->pt, &s->err); /* the last block */
	}
	pthread_mutex_lock(&f->mu);
	f->done = 1;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
}

/* The next block of `f` (NULL at its end or on its error). */
static block *pop(feed *f)
{
	pthread_mutex_lock(&f->mu);
	while (!f->qn && !f->done)
		pthread_cond_wait(&f->cv, &f->mu);
	block *b = NULL;
	if (f->qn) {
		b = f->q[f->qh];
		f->qh = (f->qh + 1) % QUEUE;
		f->qn--;
		pthread_cond_broadcast(&f->cv);
	}
	pthread_mutex_unlock(&f->mu);
	return b;
}

/* ---- the merging side */

typedef struct merger {
	flame_tree *t;
	flame__intern *names;  /* t's names and table, written in place (the node tree stale) */
	flame__stacks *stacks;
	unsigned scale;        /* t's scale, raised with each block's */
	feed *feeds;
	size_t n;
	int diff;
	flame_err *err;
} merger;

/* <0, 0, >0 as the text of stack a sorts before, equals, after b (both in t's names);
 * *same: the same frames. */
static int cmp_ids(const flame__intern *names, const flame__stack *a, const flame__stack *b, int *same)
{
	uint32_t n = a->depth < b->depth ? a->depth : b->depth;
	uint32_t i = flame__join_prefix(a->ids, b->ids, n);
	*same = i == a->depth && i == b->depth;
	if (*same)
		return 0;
	return flame__join_cmp_from(names, a->ids, a->depth, b->ids, b->depth, i);
}

/* Take the next block of `f` as its current one: new names interned into the result, ids
 * rewritten in place, the result's scale raised to the block's. 0, or an error. */
static int next_block(merger *m, feed *f)
{
	if (f->cur && f->adopted)
		flame__arena_adopt(&m->stacks->arena, &f->cur->stacks.arena);
	f->adopted = 0;
	block_free(f->cur);
	f->cur = NULL;
	f->pos = 0;
	for (;;) {
		block *b = pop(f);
		if (!b)
			return f->src->rc;
		if (m->diff && b->differential) {
			block_free(b);
			f->differential = 1; /* src is the producer's until it is joined */
			return FLAME_EDATA;
		}
		if (b->differential)
			flame__tree_set_differential(m->t);
		if (!b->stacks.sorted)
			m->stacks->sorted = 0; /* a block out of order: hashing from here on */
		int rc = flame__tree_rescale(m->t, b->scale, m->err);
		m->scale = flame_tree_decimals(m->t);
		if (!rc && flame__array_reserve_min(f->map, f->map_cap, b->names_to, 1024))
			rc = flame__err_nomem(m->err);
		for (uint32_t id = b->names_from; !rc && id < b->names_to; id++) {
			const flame__name *nm = &b->names[id - b->names_from];
			f->map[id] = flame__intern_put_hashed(m->names, nm->ptr, nm->len, nm->hash32);
			if (f->map[id] == FLAME__ID_NONE)
				rc = flame__err_nomem(m->err);
		}
		const uint32_t *map = f->map;
		for (size_t k = 0; !rc && k < b->stacks.count; k++) {
			uint32_t *ids = (uint32_t *)b->stacks.v[k].ids; /* the block is ours */
			for (uint32_t i = 0; i < b->stacks.v[k].depth; i++)
				ids[i] = map[ids[i]];
		}
		if (rc) {
			block_free(b);
			return rc;
		}
		if (b->stacks.count) {
			f->cur = b;
			return 0;
		}
		block_free(b);
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
	uint64_t mul = flame__pow10[m->scale - f->cur->scale];
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

/* The feed with the smallest head (SIZE_MAX when all are done), and in eq[0..*ne) every
 * feed whose head has the same frames; *twins when some head has an equal text of other
 * frames (hashing keeps those apart). */
static size_t smallest_heads(merger *m, size_t *eq, size_t *ne, int *twins)
{
	size_t best = SIZE_MAX;
	*ne = 0;
	*twins = 0;
	for (size_t i = 0; i < m->n; i++) {
		feed *f = &m->feeds[i];
		if (!f->cur)
			continue;
		int same = 0, c = -1;
		if (best != SIZE_MAX)
			c = cmp_ids(m->names, &f->cur->stacks.v[f->pos],
			            &m->feeds[best].cur->stacks.v[m->feeds[best].pos], &same);
		if (c < 0) {
			best = i;
			eq[0] = i;
			*ne = 1;
		} else if (same) {
			eq[(*ne)++] = i;
		} else if (c == 0) {
			*twins = 1;
		}
	}
	return best;
}

/* Add the merged stack `st` (the head of feed `best`, with `first` when some feed starts a
 * block with it) weighing w[] to the result. Each input in order (its blocks sorted,
 * checked at arrival, and each block's first stack after what came before) makes the
 * merged stream ordered; so only a block's first stack needs a look at the table's last. */
static int put_merged(merger *m, size_t best, const flame__stack *st, int first,
                      const uint64_t w[2])
{
	flame__stacks *s = m->stacks;
	int same = 0, c = -1; /* c: the table's last against st */
	if (first && s->sorted && s->count)
		c = cmp_ids(m->names, &s->v[s->count - 1], st, &same);
	if (c == 0 && same) { /* a repeated line where the input's table was drained */
		flame__stack *last = &s->v[s->count - 1];
		if (last->w[0] + w[0] < w[0] || last->w[1] + w[1] < w[1] ||
		    s->total[0] + w[0] < w[0] || s->total[1] + w[1] < w[1])
			return range_err(m->err);
		last->w[0] += w[0];
		last->w[1] += w[1];
		s->total[0] += w[0];
		s->total[1] += w[1];
		return 0;
	}
	if (c >= 0)
		s->sorted = 0; /* out of order: from here on, by hashing */
	/* while sorted, the first input's ids are taken as they are (its block's arena then
	 * moves to the result); others are copied; after, a hash lookup */
	int rc;
	if (s->sorted && best == 0) {
		rc = flame__stacks_append_ref(s, st->ids, st->depth, w[0], w[1]);
		m->feeds[0].adopted |= !rc;
	} else {
		rc = flame__stacks_append_sorted(s, st->ids, st->depth, w[0], w[1]);
	}
	return !rc ? 0 : rc == FLAME_ENOMEM ? flame__err_nomem(m->err) : range_err(m->err);
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
		size_t ne;
		int twins, first = 0;
		size_t best = smallest_heads(m, eq, &ne, &twins);
		if (best == SIZE_MAX)
			break;
		if (twins)
			m->stacks->sorted = 0; /* from here on, by hashing */
		const flame__stack *st = &m->feeds[best].cur->stacks.v[m->feeds[best].pos];
		uint64_t w[2] = {0, 0};
		for (size_t k = 0; k < ne && !rc; k++) {
			rc = weights(m, &m->feeds[eq[k]], w);
			first |= m->feeds[eq[k]].pos == 0;
		}
		if (!rc)
			rc = put_merged(m, best, st, first, w);
		for (size_t k = 0; k < ne && !rc; k++) {
			feed *f = &m->feeds[eq[k]];
			if (++f->pos == f->cur->stacks.count)
				rc = next_block(m, f);
		}
	}
	free(eq);
	return rc;
}

/* ---- streaming or whole trees */

int flame__source_folded(flame__source *s)
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

static int not_one_side(flame__source *s)
{
	s->differential = 1;
	return s->rc = flame__err(&s->err, FLAME_EDATA, flame_input_name(s->in), 0, FLAME__NO_OFFSET,
	                          "a differential (3-column) profile cannot be one side of a diff");
}

/* Stream every input into t (empty). 0, a source's rc, an error in *err, or 1 when the
 * threads could not start (nothing was read). */
static int stream_all(flame_tree *t, flame__source *src, size_t n, int diff, flame_err *err)
{
	feed *feeds = calloc(n, sizeof *feeds);
	flame__task *tasks = calloc(n, sizeof *tasks);
	/* the inputs are read at the same time: a thread each, or none is read */
	flame__pool *pool = feeds && tasks ? flame__pool_new((unsigned)n) : NULL;
	int rc = 0;
	if (!pool) {
		free(feeds);
		free(tasks);
		return flame__err_nomem(err);
	}
	int all = flame__pool_threads(pool) == n;
	for (size_t i = 0; i < n; i++) {
		feeds[i].src = &src[i];
		feeds[i].to_after = diff && i == 1;
		all &= !!(feeds[i].pt = flame__tree_new());
		pthread_mutex_init(&feeds[i].mu, NULL);
		pthread_cond_init(&feeds[i].cv, NULL);
	}
	for (size_t i = 0; i < n; i++) {
		tasks[i] = (flame__task){produce, &feeds[i], NULL, 0};
		flame__pool_submit(pool, &tasks[i]); /* each waits for go (or stop) */
	}
	for (size_t i = 0; i < n && all; i++) {
		pthread_mutex_lock(&feeds[i].mu);
		feeds[i].go = 1;
		pthread_cond_broadcast(&feeds[i].cv);
		pthread_mutex_unlock(&feeds[i].mu);
	}
	merger m = {t, NULL, NULL, flame_tree_decimals(t), feeds, n, diff, err};
	size_t limit;
	flame__tree_sink_open(t, &m.names, &m.stacks, &limit);
	rc = all ? merge_feeds(&m) : 1;
	for (size_t i = 0; i < n; i++) {
		feed *f = &feeds[i];
		pthread_mutex_lock(&f->mu);
		f->stop = 1;
		pthread_cond_broadcast(&f->cv);
		pthread_mutex_unlock(&f->mu);
		flame__pool_wait(pool, &tasks[i]);
		/* what the input's counts measure (a folded header), with the units rule */
		if (!rc && !f->src->rc)
			rc = flame__units_join(t, f->pt, err);
		if (f->stopped) { /* its rc says only that it was stopped */
			f->src->rc = 0;
			memset(&f->src->err, 0, sizeof f->src->err);
		}
		if (f->cur && f->adopted) /* the result refers to its ids */
			flame__arena_adopt(&m.stacks->arena, &f->cur->stacks.arena);
		block_free(f->cur);
		free(f->map);
		flame_tree_free(f->pt);
		while (f->qn) {
			block_free(f->q[f->qh]);
			f->qh = (f->qh + 1) % QUEUE;
			f->qn--;
		}
		if (f->differential)
			not_one_side(f->src);
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
	}
	flame__pool_free(pool);
	free(feeds);
	free(tasks);
	return rc;
}

static int first_failure(const flame__source *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (src[i].rc)
			return src[i].rc;
	return 0;
}

int flame__read_pair(flame_tree *t, flame_tree **after, flame__source src[2], flame_err *err)
{
	int rc;
	*after = NULL;
	for (int i = 0; i < 2; i++) {
		src[i].rc = src[i].differential = 0;
		src[i].total = 0;
	}
	int s0 = flame__source_folded(&src[0]), s1 = flame__source_folded(&src[1]);
	if ((rc = first_failure(src, 2)))
		return rc;
	if (s0 && s1 && (rc = stream_all(t, src, 2, 1, err)) != 1) {
		if (rc)
			return first_failure(src, 2) ? first_failure(src, 2) : rc;
		flame__tree_set_differential(t);
		src[0].total = flame_tree_total(t, 0);
		src[1].total = flame_tree_total(t, 1);
		return 0;
	}
	/* whole trees, read at once */
	flame_tree *u = flame__tree_new();
	if (!u)
		return flame__err_nomem(err);
	flame__parse_job job[2] = {{t, src[0].in, src[0].opts, 0, {0}}, {u, src[1].in, src[1].opts, 0, {0}}};
	flame__parse_all(job, 2, 2);
	for (int i = 0; i < 2; i++) {
		src[i].rc = job[i].rc;
		src[i].err = job[i].err;
		if (!src[i].rc && flame_tree_is_differential(job[i].tree))
			not_one_side(&src[i]);
		else if (!src[i].rc)
			src[i].total = flame_tree_total(job[i].tree, 0);
	}
	if ((rc = first_failure(src, 2))) {
		flame_tree_free(u);
		return rc;
	}
	*after = u;
	return 0;
}

/* 1 when a name holds ';' (then two stacks of different frames can have one text). */
static int semicolon_names(const flame_tree *t)
{
	const flame__intern *names = flame__tree_names(t);
	for (uint32_t id = 0; id < names->count; id++) {
		const flame__name *nm = flame__intern_get(names, id);
		if (memchr(nm->ptr, ';', nm->len))
			return 1;
	}
	return 0;
}

/* Add tree u to t: a linear join when both are sorted, else flame_tree_merge. */
static int add_tree(flame_tree *t, flame_tree *u, flame_err *err)
{
	if (!flame__tree_stacks_sorted(t) || !flame__tree_stacks_sorted(u) || semicolon_names(t) ||
	    semicolon_names(u) || flame__tree_time(t) || flame__tree_time(u) || flame__tree_sites(t) ||
	    flame__tree_sites(u) || flame__tree_labels(t) || flame__tree_labels(u))
		return flame_tree_merge(t, u, err);
	int rc = flame__units_join(t, u, err);
	if (!rc)
		rc = flame__tree_rescale(t, flame_tree_decimals(u), err);
	if (!rc)
		rc = flame__tree_adopt_ids(t, u, err); /* u is ours: compare and copy ids as they are */
	if (!rc && (rc = flame__tree_join_sorted(t, u, flame__pow10[flame_tree_decimals(t) - flame_tree_decimals(u)],
	                                         FLAME__JOIN_SAME_NAMES, err)) == 1)
		rc = flame__err(err, FLAME_EDATA, "", 0, FLAME__NO_OFFSET, /* excluded above */
		                "two stacks of different frames have the same text");
	if (flame__tree_marked_differential(u))
		flame__tree_set_differential(t);
	return rc;
}

/* Whole trees: `threads` pool threads parse inputs in order, each into a tree of its own
 * (the first straight into an empty result), while the calling thread adds the finished
 * ones to the result in order; input i + threads is handed out once input i is added, so
 * at most `threads` + 1 trees exist at once. */
typedef struct pipeline {
	flame__source *src;
	flame_tree *t;
	int t_empty;
	flame_tree **trees;
	flame__task *tasks;
	int stop; /* the result failed: inputs not started yet are skipped */
} pipeline;

typedef struct parse_one {
	pipeline *p;
	size_t i;
} parse_one;

static void parse_input(void *ud, unsigned thread)
{
	pipeline *p = ((parse_one *)ud)->p;
	size_t i = ((parse_one *)ud)->i;
	(void)thread;
	if (__atomic_load_n(&p->stop, __ATOMIC_RELAXED))
		return;
	flame__source *s = &p->src[i];
	flame_tree *u = i == 0 && p->t_empty ? p->t : flame__tree_new();
	if (!u)
		s->rc = flame__err_nomem(&s->err);
	else
		s->rc = flame_parse(u, s->in, &s->opts, &s->err);
	if (!s->rc && s->weight && (s->weight != 1 || s->weight_decimals) &&
	    (s->rc = flame_tree_weight(u, s->weight, s->weight_decimals, &s->err)) &&
	    !s->err.source[0])
		snprintf(s->err.source, sizeof s->err.source, "%s", flame_input_name(s->in));
	if (!s->rc)
		s->total = flame_tree_total(u, 0);
	p->trees[i] = u;
}

static int read_whole(flame_tree *t, flame__source *src, size_t n, unsigned threads, flame_err *err)
{
	if (!threads)
		threads = 2;
	if (threads > 64)
		threads = 64;
	pipeline p = {src, t, !flame__tree_has_stacks(t) && !flame__tree_marked_differential(t),
	              calloc(n ? n : 1, sizeof(flame_tree *)), calloc(n ? n : 1, sizeof(flame__task)),
	              0};
	parse_one *ones = calloc(n ? n : 1, sizeof *ones);
	/* no thread at all is no failure: waiting for an input then parses it here */
	flame__pool *pool = p.trees && p.tasks && ones ? flame__pool_new(threads < n ? threads : (unsigned)n) : NULL;
	size_t submitted = 0;
	int rc = 0;
	if (!pool) {
		free(p.trees);
		free(p.tasks);
		free(ones);
		return flame__err_nomem(err);
	}
	for (size_t i = 0; i < n; i++) {
		ones[i] = (parse_one){&p, i};
		p.tasks[i] = (flame__task){parse_input, &ones[i], NULL, 0};
	}
	for (; submitted < n && submitted < threads; submitted++)
		flame__pool_submit(pool, &p.tasks[submitted]);
	for (size_t i = 0; i < n && !rc; i++) {
		flame__pool_wait(pool, &p.tasks[i]);
		if ((rc = src[i].rc))
			break;
		if (p.trees[i] != t)
			rc = add_tree(t, p.trees[i], err);
		if (p.trees[i] != t)
			flame_tree_free(p.trees[i]);
		p.trees[i] = NULL;
		if (submitted < n)
			flame__pool_submit(pool, &p.tasks[submitted++]);
	}
	__atomic_store_n(&p.stop, 1, __ATOMIC_RELAXED);
	for (size_t i = 0; i < submitted; i++)
		flame__pool_wait(pool, &p.tasks[i]);
	flame__pool_free(pool);
	for (size_t i = 0; i < n; i++)
		if (p.trees[i] != t)
			flame_tree_free(p.trees[i]);
	free(p.trees);
	free(p.tasks);
	free(ones);
	return rc;
}

int flame__read_sum(flame_tree *t, flame__source *src, size_t n, unsigned threads, flame_err *err)
{
	int rc = 0, all = 1;
	for (size_t i = 0; i < n; i++) {
		src[i].rc = src[i].differential = 0;
		src[i].total = 0;
		all &= flame__source_folded(&src[i]);
	}
	if ((rc = first_failure(src, n)))
		return rc;
	/* two inputs stream (the memory of one result); more would need many blocks in flight,
	 * and their heads compared many ways: those are read whole, a few at a time, and
	 * joined (linearly when sorted) */
	if (all && n <= 2 && (rc = stream_all(t, src, n, 0, err)) != 1)
		return first_failure(src, n) ? first_failure(src, n) : rc;
	return read_whole(t, src, n, threads, err);
}
