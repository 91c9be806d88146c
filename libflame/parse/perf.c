/* perf script parser: `perf script` text -> stacks, with stackcollapse-perf.pl's
 * semantics (perf-name.c holds the line grammar and the name tidying).
 *
 * Example input:
 *   deep worker  7268   285.436221:    2004008 cpu-clock:
 *   	            143f hot_leaf+0x1f (/tmp/pt/workload)
 *   	            11f0 main+0xf0 (/tmp/pt/workload)
 *   <blank line>
 * Example output (folded, once written):
 *   deep_worker;main;hot_leaf 2004008
 *
 * Flow: the input is read in blocks of whole samples (cut after a blank line or before
 * an event line, so no state crosses a cut). A block parser turns a block into a
 * stream of records (samples as name-id sequences, warnings, new names); one
 * aggregator consumes the streams in file order and decides everything that depends on
 * what came before (the default event filter, orphan frames, `# cmdline`), so -j N
 * gives exactly the output, warnings and errors of -j 1. With one thread the block
 * parser interns straight into the tree; with several, each worker has its own name
 * table and announces new names in its stream, which the aggregator maps to the
 * tree's ids (no locks on the hot path). Frame lines repeat a lot, so each distinct
 * line is parsed and tidied once and its names are kept in a line cache. Memory: a few
 * blocks of input, the caches (bounded), the tree's tables.
 *
 * Where stackcollapse-perf.pl is wrong we do what is right: the event filter applies to
 * every event line (tracepoint lines with a payload included), event names keep their
 * modifiers ("cpu-clock:u" is not "cpu-clock" unless --event-filter cpu-clock asks for
 * both), a frame on the event line is a one-frame sample (no-callchain output), frames
 * with no event line in the whole file so far ("-F ip,sym") count 1 each under the
 * "# cmdline" target or "perf", an event line with no frames counts as the process
 * frame alone (as the Perl tool counts it: the CPU time was spent), srclines are skipped silently and other odd lines with a warning. --time keeps the
 * samples whose timestamp is in [START, END], so samples without one are dropped.
 * With several events and no --event-filter, the first sampling event is kept (a
 * tracepoint seen before it is held back, bounded, until one comes or the input ends).
 * Each input is a file of its own: with several, each chooses its own event. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../core/array.h"
#include "../core/hash.h"
#include "../core/labels.h"
#include "../core/pool.h"
#include "../core/prefetch.h"
#include "../core/slots.h"
#include "binary.h"
#include "parser.h"
#include "perf-feed.h"
#include "perf-name.h"
#include "scan.h"

/* BLOCK: bytes of input a block holds, at least. Each block is a handover between the
 * reader and a thread (a wake-up, a wait): 128 KiB halves those of 64 KiB, and still fits
 * a core's L2 beside the caches. */
enum { BLOCK = 128 << 10, PAGE = 4096, MAX_WORKERS = 64, PEND_MAX = 8 << 20 };

/* line cache values: a name id, or one of these */
#define LINE_NOT_FRAME 0xffffffffu
#define LINE_SKIPPED 0xfffffffeu  /* a frame the Perl rules drop ("(..." symbols) */
#define LINE_MULTI 0x80000000u    /* "a->b": index into `multi` ({n, ids...}) */

/* ------------------------------------------------------------------ records */

enum rec_type { R_SAMPLE = 1, R_NAMES, R_EVENTS, R_WARN, R_CMDLINE, R_ERROR, R_END };
enum {
	S_ORPHAN = 0x100,      /* frames with no event line before them */
	S_OUT_OF_TIME = 0x200, /* outside --time */
	S_DROP = 0x800,        /* known to be dropped: frames not parsed */
	S_PERIOD = 0x1000,     /* the weight is the event's period (nanoseconds for cpu-clock) */
	S_TIMED = 0x4000,      /* the tree keeps time: the frame ids are followed by the
	                        * sample's time (ns on perf's clock) in two words */
	S_LABELLED = 0x8000,   /* the tree keeps labels: then (after the time) the name id of
	                        * the sample's "COMM\x1fTID" (comm and thread labels) */
	S_EXTRA = S_TIMED | S_LABELLED, /* words after the frame ids (extra_words) */
	TYPE_MASK = 0xff
};

typedef struct rec {
	uint32_t type;   /* rec_type | S_* flags */
	uint32_t n;      /* payload units: frame ids, names, message bytes */
	uint64_t line;   /* line within the block, 1-based */
	uint64_t weight;
	uint32_t root;   /* process frame (local id); warning kind; error code */
	uint32_t event;  /* local event id, or FLAME__ID_NONE */
} rec;

typedef struct name_ref {
	const char *ptr;
	uint64_t len;
} name_ref;

typedef struct recbuf {
	uint64_t *w;
	size_t len, cap; /* in 8-byte words */
} recbuf;

static const char *const warn_kinds[] = {
	"perf-unrecognized-line", "perf-orphan-frames", "perf-event-filtered",
};
enum { W_UNRECOGNIZED, W_ORPHAN, W_EVENT };

static void *rb_grow(recbuf *b, size_t words)
{
	if (flame__array_reserve_min(b->w, b->cap, b->len + words, 4096))
		return NULL;
	void *p = b->w + b->len;
	b->len += words;
	return p;
}

/* Append a record with `bytes` of payload; returns the payload or NULL. */
static void *rb_rec(recbuf *b, rec r, size_t bytes)
{
	size_t words = sizeof(rec) / 8 + (bytes + 7) / 8;
	rec *p = rb_grow(b, words);
	if (!p)
		return NULL;
	*p = r;
	return p + 1;
}

/* ------------------------------------------------------------------ line cache */

/* Distinct frame lines are few (33 k in 3.3 M on the benchmark file), so the names of
 * each are computed once. The cache is core/slots.h's table whose entries are offsets in
 * `bytes`, where each kept line is a record: its length (with a java bit: java samples
 * are tidied differently, so the same line has another value there) and value, then the
 * line, padded to 8 bytes. A mismatch is nearly always decided in the slot (32 bits of
 * the hash); a hit compares the line in full (a hash never stands in for the bytes), and
 * finds its value beside it. The parser hashes a window of lines ahead and fetches their
 * slots and records early, so a hit rarely waits on memory. Bounded: past LC_MAX lines
 * or LC_BYTES of records the cache starts again; lines longer than LC_KEY_MAX are not
 * kept (parsed each time), nor those that find no free slot within LC_PROBES. */
enum { LC_MAX = 3 << 14, LC_BYTES = 3 << 20, LC_KEY_MAX = 1 << 16, LC_PROBES = 64 };
#define LC_JAVA 0x80000000u

typedef struct lc_rec {
	uint32_t len; /* | LC_JAVA */
	uint32_t val;
} lc_rec; /* then the line, zero-padded to a multiple of 8 bytes */

struct line_cache {
	uint64_t *slots; /* core/slots.h's: hash32 << 32 | (record offset + 1) */
	size_t mask, count;
	char *bytes;     /* the records, 8-byte aligned */
	size_t blen, bcap;
	uint32_t gen; /* counts the restarts: a value kept outside is good for one generation */
};

/* The cache's hash: flame__hash_lanes (core/hash.h), built for long lines. */
static inline uint64_t lc_hash(const char *p, size_t n)
{
	return flame__hash_lanes(p, n);
}

/* The 32 bits of it in a slot (its low bits place the line; the java bit does not move
 * it, so the prefetch need not know it). */
static inline uint32_t lc_hash32(uint64_t h)
{
	return (uint32_t)(h >> 32);
}

static void lc_free(struct line_cache *c)
{
	free(c->slots);
	free(c->bytes);
	memset(c, 0, sizeof *c);
}

static void lc_clear(struct line_cache *c)
{
	c->gen++;
	c->count = c->blen = 0;
	if (c->slots)
		memset(c->slots, 0, (c->mask + 1) * sizeof *c->slots);
}

/* What the probe compares: the record at an offset with the line asked for. */
typedef struct lc_key {
	const char *bytes, *p;
	uint32_t len; /* | LC_JAVA */
} lc_key;

static inline int lc_eq(const void *ctx, uint32_t off)
{
	const lc_key *k = ctx;
	const lc_rec *r = (const lc_rec *)(k->bytes + off);
	/* the record is zero-padded to 8 bytes and the line is followed by 8 readable bytes
	 * (lines.h's guarantee): compared a word at a time, inline */
	return r->len == k->len &&
	       flame__name_eq_padded((const char *)(r + 1), k->p, k->len & ~LC_JAVA);
}

/* The value of `p[0..n)` (hash `h`, a java sample's line or not): 1 when found, else 0. */
static inline int lc_get(const struct line_cache *c, const char *p, size_t n, uint64_t h,
                         int java, uint32_t *val)
{
	if (!c->slots)
		return 0;
	lc_key k = {c->bytes, p, (uint32_t)n | (java ? LC_JAVA : 0)};
	size_t i = flame__slots_probe_at_most(c->slots, c->mask, lc_hash32(h), LC_PROBES, lc_eq, &k);
	uint64_t sl = i != SIZE_MAX ? c->slots[i] : 0;
	if (!sl)
		return 0;
	*val = ((const lc_rec *)(c->bytes + flame__slot_entry(sl)))->val;
	return 1;
}

static inline void lc_prefetch_slot(const struct line_cache *c, uint64_t h)
{
	if (c->slots)
		flame__prefetch(&c->slots[lc_hash32(h) & c->mask]);
}

static inline int lc_any(const void *ctx, uint32_t off)
{
	(void)ctx, (void)off;
	return 1;
}

/* Fetch the record a line will be compared with (its slot was fetched earlier): the
 * first of the hash's, within four slots of its place. */
static inline void lc_prefetch_key(const struct line_cache *c, uint64_t h, size_t n)
{
	if (!c->slots)
		return;
	size_t i = flame__slots_probe_at_most(c->slots, c->mask, lc_hash32(h), 4, lc_any, NULL);
	if (i != SIZE_MAX && c->slots[i]) {
		const char *r = c->bytes + flame__slot_entry(c->slots[i]);
		flame__prefetch(r);
		flame__prefetch(r + sizeof(lc_rec) + n - 1);
	}
}

/* Keep `p[0..n)` (n <= LC_KEY_MAX, not in the cache) -> `val`: 0, 1 when declined (no
 * free slot within LC_PROBES: lines made to collide are parsed each time instead of
 * making every lookup long), -1 when out of memory. */
static int lc_put(struct line_cache *c, const char *p, size_t n, uint64_t h, int java,
                  uint32_t val)
{
	if (flame__slots_reserve(&c->slots, &c->mask, c->count, 4096))
		return -1;
	lc_key k = {c->bytes, p, (uint32_t)n | (java ? LC_JAVA : 0)};
	size_t i = flame__slots_probe_at_most(c->slots, c->mask, lc_hash32(h), LC_PROBES, lc_eq, &k);
	if (i == SIZE_MAX)
		return 1;
	size_t padded = (n + 7) & ~(size_t)7, need = c->blen + sizeof(lc_rec) + padded;
	if (need > UINT32_MAX || flame__array_reserve_min(c->bytes, c->bcap, need, 1 << 16))
		return -1;
	char *r = c->bytes + c->blen;
	memcpy(r, &(lc_rec){k.len, val}, sizeof(lc_rec));
	memcpy(r + sizeof(lc_rec), p, n);
	memset(r + sizeof(lc_rec) + n, 0, padded - n); /* the bytes a compare may load */
	c->slots[i] = flame__slot_make(lc_hash32(h), (uint32_t)c->blen);
	c->blen = need;
	c->count++;
	return 0;
}

/* ------------------------------------------------------------------ block parser */

typedef struct worker {
	const flame_parse_opts *o;
	unsigned flags;
	flame__intern *names;  /* the tree's table (one thread) or `own` */
	flame__intern own;
	int announce;          /* several workers: report new names in the stream */
	int timed;             /* the tree keeps time: samples carry theirs */
	int labelled;          /* the tree keeps labels: samples carry their comm and thread */
	uint32_t announced, events_announced;
	flame__intern events;
	/* frame line (after its indent) -> its names: most lines repeat, so each distinct
	 * line is parsed and tidied once; bounded (LC_MAX, LC_BYTES), then restarted */
	struct line_cache lines;
	uint32_t *multi;
	size_t multi_len, multi_cap;
	/* scratch, reused for every sample */
	uint32_t *ids;
	size_t nids, cap_ids;
	flame__perf_names nm;
	char *root;
	size_t root_cap;
	/* the last roots and event seen (id + 1, 0: none): samples repeat a few of each,
	 * and a lookup in the big name table misses the cache */
	uint32_t recent_root[64], recent_event;
	/* aggregator side: local -> tree ids */
	uint32_t *map, *emap;
	size_t map_len, map_cap, emap_len, emap_cap;
} worker;

typedef struct sample {
	int open;
	uint32_t flags;
	uint64_t line, weight;
	int64_t time_ns;       /* with S_TIMED */
	uint32_t label;        /* with S_LABELLED */
	uint32_t root, event;
	int skip;
	unsigned tidy;
} sample;

/* 1 when p[0..n) is a non-empty run of perf's event modifier letters ("u", "ppp"). */
static int modifiers(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!p[i] || !strchr("ukhIGHpPSDWebRX", p[i]))
			return 0;
	return n > 0;
}

/* "cpu-clock" keeps "cpu-clock" and "cpu-clock:u" (modifier letters only). */
static int event_matches(const char *filter, const char *ev, size_t n)
{
	size_t k = strlen(filter);
	if (n < k || memcmp(ev, filter, k) != 0)
		return 0;
	return n == k || (ev[k] == ':' && modifiers(ev + k + 1, n - k - 1));
}

/* A tracepoint ("sched:sched_switch", "probe_app:f"): a ':' not followed by modifiers
 * only. Other events (cpu-clock, cycles:u, task-clock, cpu/instructions/) sample. */
static int is_tracepoint(const char *ev, size_t n)
{
	const char *c = memchr(ev, ':', n);
	return c && c > ev && !modifiers(c + 1, n - (size_t)(c + 1 - ev));
}

static int warn_rec(recbuf *out, int kind, uint64_t line, const char *msg, size_t n)
{
	char *p = rb_rec(out, (rec){R_WARN, (uint32_t)n, line, 0, (uint32_t)kind, 0}, n);
	if (!p)
		return FLAME_ENOMEM;
	memcpy(p, msg, n);
	return 0;
}

static int error_rec(recbuf *out, int code, uint64_t line, const char *msg)
{
	size_t n = strlen(msg);
	char *p = rb_rec(out, (rec){R_ERROR, (uint32_t)n, line, 0, (uint32_t)-code, 0}, n);
	if (!p)
		return FLAME_ENOMEM;
	memcpy(p, msg, n);
	return code;
}

/* Report names (or events) interned since the last report, so the aggregator can map
 * this worker's ids. The bytes live in the worker's arena, which never moves. */
static int announce(recbuf *out, flame__intern *tab, uint32_t *done, int type)
{
	uint32_t n = tab->count - *done;
	if (!n)
		return 0;
	name_ref *v = rb_rec(out, (rec){(uint32_t)type, n, 0, 0, 0, 0}, (size_t)n * sizeof *v);
	if (!v)
		return FLAME_ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const flame__name *nm = flame__intern_get(tab, *done + i);
		v[i] = (name_ref){nm->ptr, nm->len};
	}
	*done = tab->count;
	return 0;
}

/* The words a sample record carries after its frame ids (S_EXTRA): its time, its labels. */
static inline size_t extra_words(uint32_t flags)
{
	return (flags & S_TIMED ? 2 : 0) + (flags & S_LABELLED ? 1 : 0);
}

static void put_extra(uint32_t *p, const sample *s)
{
	if (s->flags & S_TIMED)
		memcpy(p, &s->time_ns, sizeof s->time_ns);
	if (s->flags & S_LABELLED)
		p[extra_words(s->flags) - 1] = s->label;
}

static int finish(worker *w, recbuf *out, sample *s)
{
	if (!s->open)
		return 0;
	s->open = 0;
	if (s->skip)
		w->nids = 0;
	int rc;
	if (w->announce && (rc = announce(out, w->names, &w->announced, R_NAMES)))
		return rc;
	if ((rc = announce(out, &w->events, &w->events_announced, R_EVENTS)))
		return rc;
	size_t n = s->skip ? 0 : w->nids, extra = s->flags & S_EXTRA ? extra_words(s->flags) : 0;
	uint32_t *ids = rb_rec(out, (rec){R_SAMPLE | s->flags, (uint32_t)n, s->line, s->weight,
	                                  s->root, s->event},
	                       (n + extra) * sizeof *ids);
	if (!ids)
		return FLAME_ENOMEM;
	for (size_t i = 0; i < n; i++) /* perf prints the leaf first */
		ids[i] = w->ids[n - 1 - i];
	if (extra)
		put_extra(ids + n, s);
	w->nids = 0;
	return 0;
}

static inline int push_id(worker *w, uint32_t id)
{
	if (flame__array_reserve_min(w->ids, w->cap_ids, w->nids + 1, 256))
		return FLAME_ENOMEM;
	w->ids[w->nids++] = id;
	return 0;
}

static int add_frame(worker *w, sample *s, const flame__perf_frame *f)
{
	if (s->skip)
		return 0;
	int n = flame__perf_tidy(f, s->tidy, &w->nm);
	if (n < 0)
		return FLAME_ENOMEM;
	/* the pieces are root-first and the stack is collected leaf-first */
	for (int i = n; i-- > 0;) {
		const char *p = flame__perf_name_ptr(&w->nm, (size_t)i);
		size_t len = w->nm.v[i].len;
		uint32_t id = flame__intern_put_hashed(w->names, p, len, flame__hash_bytes(p, len));
		if (id == FLAME__ID_NONE || push_id(w, id))
			return FLAME_ENOMEM;
	}
	return 0;
}

static int put_multi(worker *w, uint32_t v)
{
	if (flame__array_reserve_min(w->multi, w->multi_cap, w->multi_len + 1, 256))
		return FLAME_ENOMEM;
	w->multi[w->multi_len++] = v;
	return 0;
}

/* Parse and tidy a frame line not seen before; its value for the line cache. */
static int frame_value(worker *w, const char *p, size_t n, unsigned tidy, uint32_t *val)
{
	flame__perf_frame f;
	if (!flame__perf_parse_frame(p, n, &f)) {
		*val = LINE_NOT_FRAME;
		return 0;
	}
	int k = flame__perf_tidy(&f, tidy, &w->nm);
	if (k < 0)
		return FLAME_ENOMEM;
	uint32_t ids[2];
	for (int i = 0; i < k && i < 2; i++) {
		const char *q = flame__perf_name_ptr(&w->nm, (size_t)i);
		size_t len = w->nm.v[i].len;
		ids[i] = flame__intern_put_hashed(w->names, q, len, flame__hash_bytes(q, len));
		if (ids[i] == FLAME__ID_NONE)
			return FLAME_ENOMEM;
	}
	if (k == 0) {
		*val = LINE_SKIPPED;
	} else if (k == 1 && ids[0] < LINE_MULTI) {
		*val = ids[0];
	} else {
		if (w->multi_len >= LINE_MULTI - 2) /* the top values are LINE_SKIPPED/NOT_FRAME */
			return FLAME_ENOMEM;
		*val = LINE_MULTI | (uint32_t)w->multi_len;
		if (put_multi(w, (uint32_t)k))
			return FLAME_ENOMEM;
		for (int i = 0; i < k; i++) {
			const char *q = flame__perf_name_ptr(&w->nm, (size_t)i);
			size_t len = w->nm.v[i].len;
			uint32_t id = i < 2 ? ids[i] : flame__intern_put_hashed(w->names, q, len,
			                                                       flame__hash_bytes(q, len));
			if (id == FLAME__ID_NONE || put_multi(w, id))
				return FLAME_ENOMEM;
		}
	}
	return 0;
}

/* Length of the leading tabs and spaces, sixteen bytes at a time (a frame line's
 * address is right-aligned in 16 columns, so the indent is usually 10-15 bytes). */
static inline size_t indent(const char *p, size_t n)
{
	size_t i = 0;
#if defined(__SSE2__)
	const __m128i sp = _mm_set1_epi8(' '), tb = _mm_set1_epi8('\t');
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + i));
		unsigned other = (unsigned)_mm_movemask_epi8(
		                     _mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tb))) ^
		                 0xffffu;
		if (other)
			return i + (size_t)__builtin_ctz(other);
	}
#endif
	while (i < n && (p[i] == '\t' || p[i] == ' '))
		i++;
	return i;
}

/* Push the names of line-cache value `v` (a frame not skipped). */
static inline int push_value(worker *w, uint32_t v)
{
	if (!(v & LINE_MULTI))
		return push_id(w, v);
	const uint32_t *m = w->multi + (v & ~LINE_MULTI);
	for (uint32_t k = m[0]; k > 0; k--) /* root-first pieces, collected leaf-first */
		if (push_id(w, m[k]))
			return FLAME_ENOMEM;
	return 0;
}

/* A frame line's value (not LINE_NOT_FRAME) added to the sample: nothing for a frame
 * the options skip. 0, or FLAME_ENOMEM. */
static inline int use_value(worker *w, uint32_t v)
{
	return v == LINE_SKIPPED ? 0 : push_value(w, v);
}

/* tab_frame for a line the cache does not hold: parsed, tidied and (when it fits) kept.
 * Out of line: the hit path stays small enough to live inside the block parser. */
static __attribute__((noinline)) int tab_frame_miss(worker *w, sample *s, const char *p,
                                                    size_t n, size_t i, uint64_t h,
                                                    uint32_t *kept)
{
	if (n - i > LC_KEY_MAX) { /* too long to keep: parsed each time */
		flame__perf_frame f;
		if (!flame__perf_parse_frame(p, n, &f))
			return 0;
		int rc = add_frame(w, s, &f);
		return rc ? rc : 1;
	}
	if (w->lines.count >= LC_MAX || w->lines.blen > LC_BYTES) {
		/* start again, values and all: memory stays bounded on hostile input */
		lc_clear(&w->lines);
		w->multi_len = 0;
	}
	uint32_t v;
	size_t ml = w->multi_len;
	int rc = frame_value(w, p, n, s->tidy, &v);
	if (rc)
		return rc;
	rc = lc_put(&w->lines, p + i, n - i, h, (s->tidy & FLAME__PERF_JAVA) != 0, v);
	if (rc < 0)
		return FLAME_ENOMEM;
	if (v == LINE_NOT_FRAME)
		return 0; /* (frame_value put nothing in `multi` for it) */
	if (use_value(w, v))
		return FLAME_ENOMEM;
	if (rc) /* not kept: its names in `multi` go */
		w->multi_len = ml;
	else if (kept)
		*kept = v;
	return 1;
}

/* A tab-indented line in a sample (its text after the indent at `i`, hashed to `h`): 1 a
 * frame (added), 0 not a frame, or an error. With `kept`, the line's cache value when the
 * cache keeps it (else LINE_NOT_FRAME). */
static inline int tab_frame(worker *w, sample *s, const char *p, size_t n, size_t i, uint64_t h,
                            uint32_t *kept)
{
	uint32_t v;
	if (kept)
		*kept = LINE_NOT_FRAME;
	if (n - i > LC_KEY_MAX ||
	    !lc_get(&w->lines, p + i, n - i, h, (s->tidy & FLAME__PERF_JAVA) != 0, &v))
		return tab_frame_miss(w, s, p, n, i, h, kept);
	if (v == LINE_NOT_FRAME)
		return 0;
	if (use_value(w, v))
		return FLAME_ENOMEM;
	if (kept)
		*kept = v;
	return 1;
}

/* Intern `p[0..n)` in `tab`, checking first the one name `*recent` remembers. */
static uint32_t intern_recent(flame__intern *tab, uint32_t *recent, const char *p, size_t n)
{
	if (*recent) {
		const flame__name *nm = flame__intern_get(tab, *recent - 1);
		if (nm->len == n && memcmp(nm->ptr, p, n) == 0)
			return *recent - 1;
	}
	uint32_t id = flame__intern_put(tab, p, n);
	if (id != FLAME__ID_NONE)
		*recent = id + 1;
	return id;
}

/* The sample's labels as one name, "COMM\x1fTID": the thread as its id alone, as perf script
 * prints it by default, so a recording and its text agree whether or not the text has the
 * PID (-F pid,tid). The aggregator makes it a label set (label_set). */
static int labels_name(worker *w, const flame__perf_event *ev, uint32_t *id)
{
	size_t need = ev->comm_len + ev->tid_len + 2;
	if (flame__array_reserve_min(w->root, w->root_cap, need, 256))
		return FLAME_ENOMEM;
	char *r = w->root;
	size_t n = ev->comm_len;
	memcpy(r, ev->comm, n);
	r[n++] = '\x1f';
	flame__copy(r + n, ev->tid, ev->tid_len);
	n += ev->tid_len;
	*id = flame__intern_put(w->names, r, n);
	return *id == FLAME__ID_NONE ? FLAME_ENOMEM : 0;
}

/* The process frame: comm, comm-PID or comm-PID/TID, spaces made '_' (Perl: a tid of
 * "0" or none moves the number to the tid and the pid becomes "?"). */
static int root_name(worker *w, const flame__perf_event *ev, uint32_t *id, int *java)
{
	const char *pid = ev->pid, *tid = ev->tid;
	size_t pid_len = ev->pid_len, tid_len = ev->tid_len;
	if (!pid || (tid_len == 1 && tid[0] == '0')) {
		if (pid) {
			tid = pid;
			tid_len = pid_len;
		}
		pid = "?";
		pid_len = 1;
	}
	size_t need = ev->comm_len + pid_len + tid_len + 3;
	if (flame__array_reserve_min(w->root, w->root_cap, need, 256))
		return FLAME_ENOMEM;
	char *r = w->root;
	size_t n = ev->comm_len;
	memcpy(r, ev->comm, n);
	if (w->flags & (FLAME_PERF_PID | FLAME_PERF_TID)) {
		r[n++] = '-';
		memcpy(r + n, pid, pid_len);
		n += pid_len;
		if (w->flags & FLAME_PERF_TID) {
			r[n++] = '/';
			memcpy(r + n, tid, tid_len);
			n += tid_len;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (r[i] == ' ')
			r[i] = '_';
	/* the Perl tool tests /^java/ after adding the pid: java, java-PID, java-PID/TID */
	*java = n >= 4 && memcmp(r, "java", 4) == 0;
	unsigned k = n ? (unsigned)n * 31 + (unsigned char)r[0] + (unsigned char)r[n - 1] * 7u : 0;
	*id = intern_recent(w->names, &w->recent_root[k % 64], r, n);
	return *id == FLAME__ID_NONE ? FLAME_ENOMEM : 0;
}

static int open_sample(worker *w, recbuf *out, sample *s, const flame__perf_event *ev,
                       uint64_t line)
{
	const flame_parse_opts *o = w->o;
	memset(s, 0, sizeof *s);
	s->open = 1;
	s->line = line;
	s->event = FLAME__ID_NONE;
	if (ev->period_overflow)
		return error_rec(out, FLAME_ERANGE, line, "sample period does not fit 64 bits");
	/* Perl: a missing period, or "0", counts 1 */
	int by_period = ev->has_period && !(ev->period_len == 1 && ev->period_str[0] == '0');
	s->weight = by_period ? ev->period : 1;
	if (by_period)
		s->flags |= S_PERIOD;
	int java, rc = root_name(w, ev, &s->root, &java);
	if (rc)
		return rc;
	s->tidy = w->flags | (java ? FLAME__PERF_JAVA : 0);
	if (ev->event) {
		s->event = intern_recent(&w->events, &w->recent_event, ev->event, ev->event_len);
		if (s->event == FLAME__ID_NONE)
			return FLAME_ENOMEM;
		if (o->perf_event_filter && !event_matches(o->perf_event_filter, ev->event, ev->event_len))
			s->skip = 1; /* the aggregator drops it too; spare the tidying */
	}
	/* SECS.USECS: microseconds exactly; a time past 292 years has no ns (kept untimed) */
	if (w->timed && ev->has_time && fabs(ev->time) < 9.2e9) {
		s->flags |= S_TIMED;
		s->time_ns = (int64_t)llround(ev->time * 1e6) * 1000;
	}
	if (o->has_time_range && o->time_range == FLAME_TIME_RANGE_PERF &&
	    (!ev->has_time || ev->time < o->time_start || ev->time > o->time_end)) {
		s->flags |= S_OUT_OF_TIME;
		s->skip = 1;
	}
	if (w->labelled && !s->skip) {
		s->flags |= S_LABELLED;
		return labels_name(w, ev, &s->label);
	}
	return 0;
}

static int only_space(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\f' && p[i] != '\v')
			return 0;
	return 1;
}

/* A line that may start a block: an event line (as the block parser sees it). */
static int starts_sample(const char *p, size_t n)
{
	flame__perf_event ev;
	if (n && p[n - 1] == '\r')
		n--;
	return n && p[0] != '\t' && p[0] != '#' && flame__perf_parse_event(p, n, &ev);
}

/* Lines are split ahead of the parser into a ring: each tab-indented line is hashed
 * and its cache slot fetched when it enters the ring, and its key KEY_AHEAD lines
 * before the parser reaches it, so the misses overlap with work instead of stalling
 * it (spread out: a burst of prefetches stalls on the cache's miss queue). */
enum { RING = 64, KEY_AHEAD = 8 };
typedef struct lrec {
	const char *p; /* the line */
	size_t n, ind; /* length without '\n' and '\r'; indent (tab lines) */
	uint64_t h;    /* lc_hash of a tab line after its indent */
} lrec;

typedef struct lring {
	lrec v[RING];
	uint64_t head, tail; /* next to parse, next to fill */
	flame__nlscan sc;
	const char *pos, *end; /* next line to split */
} lring;

static void ring_fill(lring *r, const struct line_cache *c)
{
	const char *p = r->pos;
	for (; r->tail - r->head < RING && p < r->end; r->tail++) {
		const char *nl = flame__nlscan_next(&r->sc);
		lrec *L = &r->v[r->tail % RING];
		size_t n = (size_t)((nl ? nl : r->end) - p);
		if (n && p[n - 1] == '\r')
			n--;
		L->p = p;
		L->n = n;
		if (n && p[0] == '\t') {
			L->ind = indent(p, n);
			L->h = lc_hash(p + L->ind, n - L->ind);
			lc_prefetch_slot(c, L->h);
		}
		p = nl ? nl + 1 : r->end;
	}
	r->pos = p;
}

/* The next line of the ring (NULL at the block's end), filling it ahead and fetching the
 * record of the line KEY_AHEAD lines on. */
static inline const lrec *ring_next(lring *R, const struct line_cache *c)
{
	if (R->tail - R->head <= KEY_AHEAD) {
		ring_fill(R, c);
		if (R->head == R->tail)
			return NULL;
	}
	if (R->head + KEY_AHEAD < R->tail) {
		const lrec *A = &R->v[(R->head + KEY_AHEAD) % RING];
		if (A->n && A->p[0] == '\t')
			lc_prefetch_key(c, A->h, A->n - A->ind);
	}
	return &R->v[R->head++ % RING];
}

/* A comment line: "# cmdline" names the target of orphan frames. 0 or FLAME_ENOMEM. */
static int comment_line(recbuf *out, const char *p, size_t n, uint64_t line)
{
	const char *name;
	size_t k;
	if (n >= 9 && memcmp(p, "# cmdline", 9) == 0 && (k = flame__perf_cmdline_target(p, n, &name))) {
		char *d = rb_rec(out, (rec){R_CMDLINE, (uint32_t)k, line, 0, 0, 0}, k);
		if (!d)
			return FLAME_ENOMEM;
		memcpy(d, name, k);
	}
	return 0;
}

/* Frames with no event line: "-F ip,sym" output has none at all (the aggregator knows
 * whether an event line came before, in another block). */
static void open_orphan(worker *w, sample *s, uint64_t line, int seen_event)
{
	memset(s, 0, sizeof *s);
	s->open = 1;
	s->flags = S_ORPHAN;
	s->line = line;
	s->weight = 1;
	s->root = s->event = FLAME__ID_NONE;
	s->tidy = w->flags;
	if (seen_event) {
		s->flags |= S_DROP;
		s->skip = 1;
	}
}

/* The warning for a `what` ("line", "frame") that fits no grammar (the text is not
 * NUL-terminated: bounded). 0 or FLAME_ENOMEM. */
static int grammar_warning(recbuf *out, const char *what, uint64_t line, const char *p, size_t n)
{
	char msg[160];
	int k = snprintf(msg, sizeof msg, "skipped a %s that fits no perf script grammar: '%.*s%s'",
	                 what, (int)(n > 60 ? 60 : n), p, n > 60 ? "..." : "");
	return warn_rec(out, W_UNRECOGNIZED, line, msg,
	                k < 0 ? 0 : (size_t)k < sizeof msg ? (size_t)k : sizeof msg - 1);
}

/* A line that is not a frame, event, comment or blank line: 1 a srcline after a frame
 * (-F +srcline, skipped silently), 0 warned, or an error (binary data). */
static int odd_line(recbuf *out, const char *p, size_t n, uint64_t line, int prev_frame)
{
	if (prev_frame && flame__perf_is_srcline(p, n))
		return 1;
	if (flame__is_binary(p, n))
		return error_rec(out, FLAME_EDATA, line, FLAME__BINARY_MSG("perf script text"));
	return grammar_warning(out, "line", line, p, n);
}

/* Parse one block of whole samples into records. Returns 0 or a negative status
 * (an R_ERROR record is then the last one, unless out of memory). */
static int parse_block(worker *w, const char *buf, size_t size, recbuf *out)
{
	sample s = {0};
	uint64_t line = 0;
	int prev_frame = 0, seen_event = 0, rc = 0;
	flame__perf_event ev;
	flame__perf_frame f;
	lring R = {.pos = buf, .end = buf + size};
	flame__nlscan_init(&R.sc, buf, size);
	for (const lrec *L; (L = ring_next(&R, &w->lines));) {
		const char *p = L->p;
		size_t n = L->n;
		line++;
		if (n && p[0] == '\t') {
			/* the hot path: a frame line */
			if (s.open && s.skip) {
				prev_frame = 1;
				continue;
			}
			if (s.open) {
				if ((rc = tab_frame(w, &s, p, n, L->ind, L->h, NULL)) < 0)
					goto fail;
				if (rc) {
					rc = 0;
					prev_frame = 1;
					continue;
				}
				goto other;
			}
			if (!flame__perf_parse_frame(p, n, &f))
				goto other;
			goto frame;
		}
		if (n == 0 || only_space(p, n)) {
			if ((rc = finish(w, out, &s)))
				goto fail;
			prev_frame = 0;
			continue;
		}
		if (p[0] == '#') {
			if ((rc = comment_line(out, p, n, line)))
				goto fail;
			continue;
		}
		if (flame__perf_parse_event(p, n, &ev)) {
			if ((rc = finish(w, out, &s)) || (rc = open_sample(w, out, &s, &ev, line)))
				goto fail;
			seen_event = 1;
			prev_frame = 0;
			/* a single-line sample (no callchain, -G): the frame is on the event line */
			if (ev.rest_len && flame__perf_parse_frame(ev.rest, ev.rest_len, &f) &&
			    (rc = add_frame(w, &s, &f)))
				goto fail;
			continue;
		}
		if (!flame__perf_parse_frame(p, n, &f))
			goto other;
	frame:
		if (!s.open)
			open_orphan(w, &s, line, seen_event);
		if ((rc = add_frame(w, &s, &f)))
			goto fail;
		prev_frame = 1;
		continue;
	other:
		if ((rc = odd_line(out, p, n, line, prev_frame)) < 0)
			goto fail;
		prev_frame = rc; /* a srcline keeps the frame before it */
		rc = 0;
	}
	if ((rc = finish(w, out, &s)))
		goto fail;
	if (!rb_rec(out, (rec){R_END, 0, line, 0, 0, 0}, 0))
		return FLAME_ENOMEM;
	return 0;
fail:
	if (rc == FLAME_ENOMEM)
		error_rec(out, FLAME_ENOMEM, line, "out of memory");
	return rc;
}

/* ------------------------------------------------------------------ aggregator */

typedef struct agg {
	flame__sink k; /* where the stacks go (the tree) */
	const flame_parse_opts *o;
	const char *src;
	flame__intern events;  /* event names, in order of first appearance */
	signed char *keep;     /* per event with --event-filter: -1 unknown, 0, 1 */
	size_t keep_cap;
	uint32_t filter;       /* the kept event when defaulted, or FLAME__ID_NONE */
	int recorded;          /* `filter` is the recording's first sampling event (perf.data) */
	/* A tracepoint kept by default is provisional: a sampling event seen later wins
	 * (several events come interleaved in time). Its stacks wait in `pend` until
	 * then, the end of the input, or PEND_MAX bytes, when it is kept for good. */
	int provisional;
	uint32_t pend_event;   /* the provisional event */
	uint32_t *pend;        /* per sample: line (2 words), weight (2), timed | label set
	                        * << 1, time (2), n, ids[n] */
	size_t pend_len, pend_cap;
	uint32_t kept;         /* the event of the first sample kept, or FLAME__ID_NONE */
	int periods;           /* kept samples: 1 some weighed by a period, 2 some by 1 */
	int seen_event;
	uint32_t orphan_root;  /* process frame for orphan frames: "# cmdline" target or "perf" */
	uint64_t base;         /* lines before the current block */
	int at_byte;           /* places are byte offsets (samples fed from perf.data) */
	uint32_t *ids;
	size_t cap;
	int labelled;          /* the tree keeps labels (samples carry S_LABELLED) */
	flame__label_memo sets; /* with labels: name id of a "COMM\x1fTID" -> its set */
} agg;

static int push_map(uint32_t **v, size_t *len, size_t *cap, uint32_t id)
{
	if (flame__array_reserve_min(*v, *cap, *len + 1, 1024))
		return FLAME_ENOMEM;
	(*v)[(*len)++] = id;
	return 0;
}

static int keep_event(agg *a, uint32_t g)
{
	if (g >= a->keep_cap) {
		size_t old = a->keep_cap;
		if (flame__array_reserve(a->keep, a->keep_cap, (size_t)g + 1))
			return -1;
		memset(a->keep + old, -1, a->keep_cap - old);
	}
	if (a->keep[g] < 0) {
		const flame__name *nm = flame__intern_get(&a->events, g);
		a->keep[g] = (signed char)event_matches(a->o->perf_event_filter, nm->ptr, nm->len);
	}
	return a->keep[g];
}

/* A warning at `where`: an absolute line of the text, or a byte of a perf.data file. */
static void warn_at(agg *a, int kind, uint64_t where, const char *msg)
{
	if (a->at_byte)
		flame__warn(a->o->warn, a->o->warn_ud, warn_kinds[kind], a->src, 0,
		            "at byte %llu: %s", (unsigned long long)where, msg);
	else
		flame__warn(a->o->warn, a->o->warn_ud, warn_kinds[kind], a->src, where, "%s", msg);
}

static void warn(agg *a, int kind, uint64_t line, const char *msg)
{
	warn_at(a, kind, a->base + line, msg);
}

/* `line` is absolute (a->base added) */
static void warn_event(agg *a, uint32_t skipped, uint64_t line)
{
	const flame__name *k = flame__intern_get(&a->events, a->filter);
	char msg[512];
	snprintf(msg, sizeof msg,
	         "skipped a sample of event '%s': only '%s', the first %sevent %s, is kept "
	         "(choose one with --event-filter)",
	         flame__intern_get(&a->events, skipped)->ptr, k->ptr,
	         is_tracepoint(k->ptr, k->len) ? "" : "sampling ",
	         a->recorded ? "of the recording" : "seen");
	warn_at(a, W_EVENT, line, msg);
}

/* An error at `where` (as warn_at's). */
static int fail_at(agg *a, int code, uint64_t where, const char *msg, int len, flame_err *err)
{
	return flame__err(err, code, a->src, a->at_byte ? 0 : where,
	                  a->at_byte ? where : FLAME__NO_OFFSET, "%.*s", len, msg);
}

static int settle_event(agg *a, int keep, flame_err *err);

/* A sample's time, when the tree keeps time and the sample has one. */
typedef struct when {
	int timed;
	int64_t ns;
} when;

/* Keep one stack of the provisional event in `pend`. */
static int pend_stack(agg *a, const uint32_t *ids, size_t n, uint64_t weight, uint64_t line,
                      when tm, flame_err *err)
{
	size_t need = a->pend_len + 8 + n;
	if (flame__array_reserve_min(a->pend, a->pend_cap, need, 4096))
		return flame__err_nomem(err);
	uint32_t *p = a->pend + a->pend_len;
	p[0] = (uint32_t)line;
	p[1] = (uint32_t)(line >> 32);
	p[2] = (uint32_t)weight;
	p[3] = (uint32_t)(weight >> 32);
	p[4] = (uint32_t)tm.timed | a->k.stacks->label << 1;
	memcpy(p + 5, &tm.ns, sizeof tm.ns);
	p[7] = (uint32_t)n;
	memcpy(p + 8, ids, n * sizeof *ids);
	a->pend_len = need;
	return a->pend_len * sizeof *a->pend > PEND_MAX ? settle_event(a, 1, err) : 0;
}

/* Add one stack (root first) to the tree, or to `pend` while the event is provisional. */
static inline int put_stack(agg *a, const uint32_t *ids, size_t n, uint64_t weight,
                            uint64_t line, when tm, flame_err *err)
{
	if (a->provisional)
		return pend_stack(a, ids, n, weight, line, tm, err);
	int rc = tm.timed ? flame__sink_add_timed(&a->k, ids, n, weight, 0, FLAME_CLOCK_PERF, tm.ns, err)
	                  : flame__sink_add(&a->k, ids, n, weight, 0, err);
	if (rc == FLAME_ERANGE)
		return fail_at(a, rc, line, "the sample counts add up to more than 64 bits", -1, err);
	return rc;
}

/* The provisional event's pending stacks: kept (added to the tree) or dropped, each
 * with its warning (the event that won is a->filter by then). */
static int settle_event(agg *a, int keep, flame_err *err)
{
	uint32_t skipped = a->pend_len ? a->pend_event : FLAME__ID_NONE;
	int rc = 0;
	a->provisional = 0;
	for (size_t i = 0; i < a->pend_len && !rc;) {
		const uint32_t *p = a->pend + i;
		uint64_t line = p[0] | (uint64_t)p[1] << 32, weight = p[2] | (uint64_t)p[3] << 32;
		when tm = {(int)(p[4] & 1), 0};
		memcpy(&tm.ns, p + 5, sizeof tm.ns);
		flame__sink_label(&a->k, p[4] >> 1);
		if (keep)
			rc = put_stack(a, p + 8, p[7], weight, line, tm, err);
		else
			warn_event(a, skipped, line);
		i += 8 + p[7];
	}
	a->pend_len = 0;
	return rc;
}

/* The label set (comm, thread) of a sample whose labels name is *local (a worker's id; NULL:
 * an orphan's frames, no labels), for the stacks added next; each name's set made once. */
static int label_set(agg *a, worker *w, const uint32_t *local, flame_err *err)
{
	struct flame__labels *l = flame__tree_labels(a->k.t);
	if (!local) {
		flame__sink_label(&a->k, 0);
		return 0;
	}
	uint32_t id = w->announce ? w->map[*local] : *local;
	uint32_t set;
	int r = flame__label_memo_get(&a->sets, id, &set);
	if (r < 0)
		return flame__err_nomem(err);
	if (!r) {
		const flame__name *nm = flame__intern_get(a->k.names, id);
		const char *us = memchr(nm->ptr, '\x1f', nm->len);
		size_t cl = us ? (size_t)(us - nm->ptr) : nm->len;
		flame_label v[2] = {{{"comm", 4}, {nm->ptr, cl}, 0, {"", 0}, 0},
		                    {{"thread", 6}, {nm->ptr + cl + 1, us ? nm->len - cl - 1 : 0}, 0, {"", 0}, 0}};
		if ((set = flame__labels_put(l, v, 2)) == FLAME__ID_NONE)
			return flame__err_nomem(err);
		flame__label_memo_put(&a->sets, id, set);
	}
	flame__sink_label(&a->k, set);
	return 0;
}

static int add_sample(agg *a, worker *w, const rec *r, const uint32_t *fr, flame_err *err)
{
	uint32_t flags = r->type & ~(uint32_t)TYPE_MASK, root;
	int rc;
	if (!(flags & S_ORPHAN)) {
		a->seen_event = 1;
		if (r->event != FLAME__ID_NONE) {
			uint32_t g = w->emap[r->event];
			if (a->o->perf_event_filter) {
				int k = keep_event(a, g);
				if (k < 0)
					return flame__err_nomem(err);
				if (!k)
					return 0;
			} else if (a->filter == FLAME__ID_NONE) {
				const flame__name *nm = flame__intern_get(&a->events, g);
				a->filter = a->pend_event = g;
				a->provisional = is_tracepoint(nm->ptr, nm->len);
			} else if (g != a->filter) {
				const flame__name *nm = flame__intern_get(&a->events, g);
				if (!a->provisional || is_tracepoint(nm->ptr, nm->len)) {
					warn_event(a, g, a->base + r->line);
					return 0;
				}
				a->filter = g; /* a sampling event after a tracepoint: it wins */
				a->periods = 0; /* the tracepoint's samples (no period) are dropped: the
				                 * unit is the sampling event's */
				if ((rc = settle_event(a, 0, err)))
					return rc;
			}
		}
		if (flags & S_OUT_OF_TIME)
			return 0;
		root = w->announce ? w->map[r->root] : r->root;
		if (a->kept == FLAME__ID_NONE && r->event != FLAME__ID_NONE)
			a->kept = w->emap[r->event];
		a->periods |= flags & S_PERIOD ? 1 : 2;
	} else {
		if (a->seen_event || (flags & S_DROP)) {
			warn(a, W_ORPHAN, r->line,
			     "frame lines with no event line before them (a blank line inside a "
			     "sample?): skipped");
			return 0;
		}
		if (a->o->has_time_range && a->o->time_range == FLAME_TIME_RANGE_PERF)
			return 0; /* no timestamp */
		if (a->orphan_root == FLAME__ID_NONE) {
			a->orphan_root = flame__sink_intern(&a->k, "perf", 4);
			if (a->orphan_root == FLAME__ID_NONE)
				return flame__err_nomem(err);
		}
		root = a->orphan_root;
	}
	size_t n = (size_t)r->n + 1;
	if (flame__array_reserve_min(a->ids, a->cap, n, 256))
		return flame__err_nomem(err);
	a->ids[0] = root;
	if (w->announce)
		for (size_t i = 1; i < n; i++)
			a->ids[i] = w->map[fr[i - 1]];
	else
		memcpy(a->ids + 1, fr, (n - 1) * sizeof *fr);
	when tm = {(flags & S_TIMED) != 0, 0};
	if (tm.timed)
		memcpy(&tm.ns, fr + r->n, sizeof tm.ns);
	if (a->labelled &&
	    (rc = label_set(a, w, flags & S_LABELLED ? fr + r->n + (tm.timed ? 2 : 0) : NULL, err)))
		return rc;
	return put_stack(a, a->ids, n, r->weight, a->base + r->line, tm, err);
}

/* Consume one block's records, in file order. */
static int aggregate(agg *a, worker *w, const recbuf *b, flame_err *err)
{
	if (!b->len) /* (nothing written: there may be no buffer yet) */
		return 0;
	const uint64_t *p = b->w, *end = b->w + b->len;
	while (p < end) {
		const rec *r = (const rec *)p;
		const void *pay = r + 1;
		size_t bytes = r->n;
		int rc = 0;
		switch (r->type & TYPE_MASK) {
		case R_NAMES:
		case R_EVENTS: {
			const name_ref *v = pay;
			int names = (r->type & TYPE_MASK) == R_NAMES;
			bytes = r->n * sizeof *v;
			for (uint32_t i = 0; i < r->n && !rc; i++) {
				uint32_t id = names ? flame__sink_intern(&a->k, v[i].ptr, v[i].len)
				                    : flame__intern_put(&a->events, v[i].ptr, v[i].len);
				if (id == FLAME__ID_NONE)
					rc = FLAME_ENOMEM;
				else if (names)
					rc = push_map(&w->map, &w->map_len, &w->map_cap, id);
				else
					rc = push_map(&w->emap, &w->emap_len, &w->emap_cap, id);
			}
			if (rc)
				return flame__err_nomem(err);
			break;
		}
		case R_CMDLINE:
			a->orphan_root = flame__sink_intern(&a->k, pay, r->n);
			if (a->orphan_root == FLAME__ID_NONE)
				return flame__err_nomem(err);
			break;
		case R_WARN: {
			char msg[512];
			snprintf(msg, sizeof msg, "%.*s", (int)r->n, (const char *)pay);
			warn(a, (int)r->root, r->line, msg);
			break;
		}
		case R_ERROR:
			if (r->root == (uint32_t)-FLAME_ENOMEM)
				return flame__err_nomem(err);
			return fail_at(a, -(int)r->root, a->base + r->line, pay, (int)r->n, err);
		case R_END:
			a->base += r->line;
			bytes = 0;
			break;
		case R_SAMPLE:
			bytes = (r->n + (r->type & S_EXTRA ? extra_words(r->type) : 0)) * sizeof(uint32_t);
			if ((rc = add_sample(a, w, r, pay, err)))
				return rc;
			break;
		}
		p += sizeof(rec) / 8 + (bytes + 7) / 8;
	}
	return 0;
}

/* ------------------------------------------------------------------ reading blocks */

typedef struct job {
	char *buf;
	size_t off, len, cap; /* the block is buf[off..off+len) */
	recbuf out;
	int busy;  /* handed to the pool and not yet aggregated */
	int rc;    /* parse_block's status: its error record may be missing when out of memory */
	worker *w;
	worker *ws;        /* the workers, one per pool thread and one for the caller */
	flame__task task;  /* core/pool.h's */
} job;

typedef struct reader {
	flame_input *in;
	char *carry;
	size_t carry_len, carry_cap;
	int eof;
} reader;

/* Where a block may end: after a blank line or before an event line, searching back
 * from the end over at most half the buffer. 0: no cut (grow and read more). */
static size_t find_cut(const char *b, size_t n)
{
	const char *nl = memrchr(b, '\n', n);
	if (!nl)
		return 0;
	size_t le = (size_t)(nl - b), floor = n / 2;
	while (le > floor) {
		const char *pn = memrchr(b, '\n', le);
		size_t ls = pn ? (size_t)(pn - b) + 1 : 0;
		size_t len = le - ls;
		if (len == 0 || (len == 1 && b[ls] == '\r'))
			return le + 1;
		if (ls > 0 && starts_sample(b + ls, len))
			return ls;
		if (!pn)
			return 0;
		le = ls - 1;
	}
	return 0;
}

/* Fill `j` with whole samples: the tail carried from the last block, then fresh input.
 * Returns 1 with data, 0 at the end, or a negative status. */
static int fill(reader *r, job *j, flame_err *err)
{
	if (flame__array_reserve_min(j->buf, j->cap, PAGE + r->carry_len + BLOCK, BLOCK))
		return flame__err_nomem(err);
	/* Fresh bytes land at the same offset within a page as they have in the file: a
	 * kernel copy to a destination a few bytes past the source's page offset stalls on
	 * 4K aliasing (4x slower reads, measured). */
	j->off = (size_t)(flame__input_offset(r->in) - r->carry_len - (uintptr_t)j->buf) & (PAGE - 1);
	flame__copy(j->buf + j->off, r->carry, r->carry_len);
	j->len = r->carry_len;
	r->carry_len = 0;
	for (;;) {
		/* 8 bytes past the data stay readable (and zero): key compares load words */
		char *b = j->buf + j->off;
		size_t room = j->cap - j->off - 8;
		while (!r->eof && j->len < room) {
			long k = flame__input_read(r->in, b + j->len, room - j->len, err);
			if (k < 0)
				return (int)k;
			if (k == 0)
				r->eof = 1;
			j->len += (size_t)k;
		}
		if (r->eof) {
			memset(b + j->len, 0, 8);
			return j->len > 0;
		}
		size_t cut = find_cut(b, j->len);
		if (cut) {
			size_t tail = j->len - cut;
			if (flame__array_reserve_min(r->carry, r->carry_cap, tail, BLOCK))
				return flame__err_nomem(err);
			flame__copy(r->carry, b + cut, tail);
			r->carry_len = tail;
			j->len = cut;
			memset(b + cut, 0, 8);
			return 1;
		}
		/* one sample larger than half the buffer: take more */
		if (flame__array_reserve_min(j->buf, j->cap, j->cap * 2, BLOCK))
			return flame__err_nomem(err);
	}
}

static int consume(agg *a, job *j, flame_err *err)
{
	int rc = aggregate(a, j->w, &j->out, err);
	if (!rc && j->rc < 0) /* the block failed without saying why: out of memory */
		rc = flame__err_nomem(err);
	return rc;
}

/* ------------------------------------------------------------------ threads */

/* A block on whichever thread of the pool takes it (or the caller), with that thread's
 * worker: its own names, caches and scratch. */
static void parse_job(void *arg, unsigned thread)
{
	job *j = arg;
	j->w = &j->ws[thread];
	j->out.len = 0;
	j->rc = parse_block(j->w, j->buf + j->off, j->len, &j->out); /* errors travel as records */
}

static void worker_init(worker *w, const flame_parse_opts *o, flame__intern *names, int timed,
                        int labelled)
{
	memset(w, 0, sizeof *w);
	w->o = o;
	w->flags = o->perf_flags;
	flame__intern_init(&w->own);
	flame__intern_init(&w->events);
	w->names = names ? names : &w->own;
	w->announce = names == NULL;
	w->timed = timed;
	w->labelled = labelled;
}

static void worker_free(worker *w)
{
	flame__intern_free(&w->own);
	flame__intern_free(&w->events);
	lc_free(&w->lines);
	free(w->multi);
	free(w->ids);
	flame__perf_names_free(&w->nm);
	free(w->root);
	free(w->map);
	free(w->emap);
}

static unsigned thread_count(const flame_parse_opts *o)
{
	long n = o->threads ? (long)o->threads : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (unsigned)n;
}

/* Aggregate the oldest block handed out, once it is parsed, and free its slot. The block
 * is left to the pool's threads even when none has taken it yet: each thread's worker
 * has its line cache warm, and a block parsed here would warm one more (every distinct
 * line missed once more: 3% of the CPU time on bench/gen's file with two threads). */
static int consume_next(agg *a, flame__pool *pool, job *d, flame_err *err)
{
	flame__pool_await(pool, &d->task);
	d->busy = 0;
	return consume(a, d, err);
}

/* Several workers parse blocks on core/pool.h's threads; this thread reads and
 * aggregates in order. `first` is job 0, already filled. */
static int run_parallel(agg *a, reader *rd, job *first, unsigned nw, flame_err *err)
{
	/* one worker more than threads: the caller's, when no thread could start */
	worker *ws = calloc((size_t)nw + 1, sizeof *ws);
	size_t njobs = (size_t)nw + 2; /* each worker busy, one being aggregated, one filled */
	job *jobs = calloc(njobs, sizeof *jobs);
	flame__pool *pool = ws && jobs ? flame__pool_new(nw) : NULL;
	int rc = 0, rrc = 0;
	uint64_t queued = 0, next = 0; /* blocks handed out; the next to aggregate */
	if (!pool) {
		free(ws);
		free(jobs);
		return flame__err_nomem(err);
	}
	for (unsigned i = 0; i <= nw; i++)
		worker_init(&ws[i], a->o, NULL, a->k.time != NULL, a->labelled);
	jobs[0] = *first;
	memset(first, 0, sizeof *first);
	for (int have = 1;;) {
		job *j = &jobs[queued % njobs];
		/* the slot is free once its previous block is aggregated */
		while (j->busy)
			if ((rc = consume_next(a, pool, &jobs[next++ % njobs], err)))
				goto done;
		if (!have) {
			int f = fill(rd, j, err);
			if (f < 0) {
				rrc = f; /* report after the blocks before it */
				break;
			}
			if (f == 0)
				break;
		}
		have = 0;
		j->busy = 1;
		j->ws = ws;
		j->task = (flame__task){parse_job, j, NULL, 0};
		flame__pool_submit(pool, &j->task);
		queued++;
	}
	while (next < queued)
		if ((rc = consume_next(a, pool, &jobs[next++ % njobs], err)))
			goto done;
	rc = rrc;
done:
	for (; next < queued; next++) /* after a failure: the blocks still out */
		flame__pool_await(pool, &jobs[next % njobs].task);
	flame__pool_free(pool);
	for (unsigned i = 0; i <= nw; i++)
		worker_free(&ws[i]);
	for (size_t i = 0; i < njobs; i++) {
		free(jobs[i].buf);
		free(jobs[i].out.w);
	}
	free(jobs);
	free(ws);
	return rc;
}

/* What the weights count: an event's period when every kept sample had one (nanoseconds
 * for the clock events, else the event's own count, named by the event), else samples (a
 * tracepoint's samples too: its period is 1). */
static int record_unit(agg *a, flame_err *err)
{
	char ev[64] = "";
	uint32_t kept = a->o->perf_event_filter ? a->kept : a->filter;
	if (kept != FLAME__ID_NONE) {
		const flame__name *nm = flame__intern_get(&a->events, kept);
		if (is_tracepoint(nm->ptr, nm->len))
			return flame__sink_units(&a->k, "samples", NULL, a->src, err);
		size_t n = strcspn(nm->ptr, ":");
		if (n > nm->len)
			n = nm->len;
		if (n < sizeof ev) {
			memcpy(ev, nm->ptr, n);
			ev[n] = '\0';
		}
	}
	int clock = !strcmp(ev, "cpu-clock") || !strcmp(ev, "task-clock");
	const char *unit = a->periods != 1 || !ev[0] ? "samples" : clock ? "nanoseconds" : ev;
	int rc = flame__sink_units(&a->k, unit, clock && a->periods == 1 ? "cpu" : NULL, a->src, err);
	if (!rc && clock && a->periods == 1)
		rc = flame__units_set_pprof(a->k.t, "cpu", NULL, NULL, 0, 0);
	return rc;
}

/* An aggregator adding to `t`, for the input named `src` (text, or perf.data fed). */
static void agg_init(agg *a, flame_tree *t, const flame_parse_opts *o, const char *src)
{
	memset(a, 0, sizeof *a);
	flame__sink_init(&a->k, t);
	a->labelled = flame__tree_labels(t) != NULL;
	a->o = o;
	a->src = src;
	a->filter = a->orphan_root = a->kept = FLAME__ID_NONE;
	flame__intern_init(&a->events);
}

/* What waits for the input's end: a provisional tracepoint kept (no sampling event came),
 * the unit the kept samples are in. */
static int agg_end(agg *a, flame_err *err)
{
	int rc = a->provisional ? settle_event(a, 1, err) : 0;
	return !rc && a->periods ? record_unit(a, err) : rc;
}

static void agg_free(agg *a)
{
	if (a->labelled) /* the tree's next stacks (another input's) have none of these labels */
		flame__sink_label(&a->k, 0);
	free(a->pend);
	flame__label_memo_free(&a->sets);
	free(a->keep);
	free(a->ids);
	flame__intern_free(&a->events);
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	agg a;
	agg_init(&a, t, o, flame_input_name(in));
	reader rd = {in, NULL, 0, 0, 0};
	job j0;
	memset(&j0, 0, sizeof j0);
	worker w;
	worker_init(&w, o, a.k.names, a.k.time != NULL, a.labelled);
	j0.w = &w;
	unsigned nw = thread_count(o);
	int rc = fill(&rd, &j0, err);
	if (rc > 0 && nw > 1 && !rd.eof) {
		rc = run_parallel(&a, &rd, &j0, nw, err);
	} else {
		/* one thread, or all of the input fits one block */
		while (rc > 0) {
			j0.out.len = 0;
			j0.rc = parse_block(&w, j0.buf + j0.off, j0.len, &j0.out);
			if ((rc = consume(&a, &j0, err)))
				break;
			rc = fill(&rd, &j0, err);
		}
	}
	if (rc >= 0) {
		int erc = agg_end(&a, err);
		rc = erc ? erc : rc;
	}
	worker_free(&w);
	agg_free(&a);
	free(j0.buf);
	free(j0.out.w);
	free(rd.carry);
	return rc < 0 ? rc : 0;
}

/* ------------------------------------------------------------------ samples fed */

/* perf.data's samples come decoded (perfdata.c): each event line's fields and each frame's
 * text go straight to the block parser's steps and the aggregator, one sample at a time,
 * so every option means what it means on text, without making and re-reading the text. */
struct flame__perf_feed {
	agg a;
	worker w;
	recbuf out;
	sample s;
};

int flame__perf_feed_new(flame__perf_feed **out, flame_tree *t, const flame_parse_opts *o,
                         const char *src, flame_err *err)
{
	flame__perf_feed *f = calloc(1, sizeof *f);
	if (!f)
		return flame__err_nomem(err);
	agg_init(&f->a, t, o, src);
	f->a.at_byte = 1;
	worker_init(&f->w, o, f->a.k.names, f->a.k.time != NULL, f->a.labelled);
	*out = f;
	return 0;
}

/* The records one step left (an error record, when it failed) into the tree or `err`. */
static int feed_flush(flame__perf_feed *f, int rc, flame_err *err)
{
	int arc = aggregate(&f->a, &f->w, &f->out, err);
	f->out.len = 0;
	if (arc)
		return arc;
	return rc ? flame__err_nomem(err) : 0; /* failed with no record: out of memory */
}

int flame__perf_feed_sample(flame__perf_feed *f, const flame__perf_event *ev, uint64_t off,
                            flame_err *err)
{
	int rc = finish(&f->w, &f->out, &f->s);
	if (!rc)
		rc = open_sample(&f->w, &f->out, &f->s, ev, off);
	return rc || f->out.len ? feed_flush(f, rc, err) : 0;
}

int flame__perf_feed_frame(flame__perf_feed *f, const char *p, size_t n, uint64_t *memo,
                           flame_err *err)
{
	if (!f->s.open || f->s.skip)
		return 0;
	/* the memo: the line cache's generation (30 bits), a bit set, the java bit (a tidying
	 * input), the value */
	uint64_t key = (uint64_t)(f->w.lines.gen & 0x3fffffffu) << 34 | 1ull << 33 |
	               (uint64_t)((f->s.tidy & FLAME__PERF_JAVA) != 0) << 32;
	if (memo && *memo >> 32 == key >> 32) {
		uint32_t v = (uint32_t)*memo;
		return use_value(&f->w, v) ? flame__err_nomem(err) : 0;
	}
	uint32_t kept;
	int rc = tab_frame(&f->w, &f->s, p, n, 0, lc_hash(p, n), &kept);
	if (rc > 0) {
		if (memo && kept != LINE_NOT_FRAME)
			*memo = key | kept;
		return 0;
	}
	if (rc == 0) /* no frame line: the text would have been skipped with this warning */
		rc = grammar_warning(&f->out, "frame", f->s.line, p, n);
	return feed_flush(f, rc, err);
}

uint32_t *flame__perf_feed_frames(flame__perf_feed *f, size_t *n)
{
	*n = f->s.open && !f->s.skip ? f->w.nids : 0;
	return f->w.ids;
}

flame__intern *flame__perf_feed_names(flame__perf_feed *f)
{
	return f->w.names;
}

int flame__perf_feed_default_event(flame__perf_feed *f, const char *name, size_t n)
{
	if (f->a.o->perf_event_filter || f->a.filter != FLAME__ID_NONE)
		return 0;
	if ((f->a.filter = flame__intern_put(&f->a.events, name, n)) == FLAME__ID_NONE)
		return FLAME_ENOMEM;
	f->a.recorded = 1;
	return 0;
}

void flame__perf_feed_drop_frames(flame__perf_feed *f)
{
	f->w.nids = 0;
}

int flame__perf_feed_finish(flame__perf_feed *f, flame_err *err)
{
	int rc = finish(&f->w, &f->out, &f->s);
	return (rc = feed_flush(f, rc, err)) ? rc : agg_end(&f->a, err);
}

void flame__perf_feed_free(flame__perf_feed *f)
{
	if (!f)
		return;
	worker_free(&f->w);
	free(f->out.w);
	agg_free(&f->a);
	free(f);
}

/* Auto-detect: an event line with a timestamp or followed by a frame line (indented
 * or, from old perf, not: anything stackcollapse-perf.pl reads), or (for "-F ip,sym"
 * output) a tab-indented frame line before anything else. */
static int probe(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	int prev_event = 0;
	for (int lines = 0; p < end; lines++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break; /* the last line may be cut */
		size_t n = (size_t)(nl - p);
		if (n && p[n - 1] == '\r')
			n--;
		flame__perf_event ev;
		flame__perf_frame f;
		if (n == 0 || p[0] == '#') {
			prev_event = 0;
		} else if (p[0] != '\t' && flame__perf_parse_event(p, n, &ev)) {
			if (ev.has_time && ev.event)
				return 1;
			prev_event = 1;
		} else if (flame__perf_parse_frame(p, n, &f)) {
			/* old perf prints frames with no indent: "ffffffff8103d0ca sym (dso)" */
			if (prev_event || (p[0] == '\t' && lines < 3))
				return 1;
			prev_event = 0;
		} else {
			prev_event = 0;
		}
		p = nl + 1;
	}
	return 0;
}

const struct flame__parser flame__parser_perf = {probe, parse};
