/* JFR text reader: the output of `jfr print` (JDK 11+) into stacks of one event type.
 *
 * Example input:                                    Example output:
 *   jdk.ExecutionSample {                             java.lang.Thread.run;Work.hot 1
 *     startTime = 02:58:31.693
 *     sampledThread = "worker" (javaThreadId = 15)    (--threads: worker;java.lang...)
 *     stackTrace = [
 *       Work.hot(int[], int) line: 536                (--signatures: Work.hot(int[], int),
 *       java.lang.Thread.run() line: 840               --lines: Work.hot:536,
 *       ...                                            --annotate: Work.hot_[j])
 *     ]
 *   }
 *
 * Events start with `TYPE {` and end with `}` at column 0; only fields at 2-space indent
 * are read (strings are printed unescaped and may span lines, so nothing else is
 * trusted). Frames are leaf first; a trace that ends in `...` was cut short (by jfr print's
 * --stack-depth, 5 by default, or the recorder's 64 frames): its root side is missing, so
 * it goes under a `[truncated]` root frame rather than pose as a stack from its real
 * root, with one warning that counts them and says how to get whole stacks. Weights: 1 per
 * event; durations in ns; allocation sizes in bytes, converted back from the rounded
 * text ("19.0 MB"). Those are summed per stack in tenths of a byte and rounded once at
 * the end, so the totals equal those of the exact values as far as the text allows.
 * Without --event the type is jdk.ExecutionSample when the input has any, else the
 * first type seen with stacks: stacks are kept per type until the end for that. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/labels.h"
#include "../core/slots.h"
#include "../core/stacks.h"
#include "../core/tree.h"
#include "../core/u128.h"
#include "frame-region.h"
#include "parser.h"
#include "scan.h"

enum { W_COUNT, W_BYTES };
enum { MAX_TYPES = 4096 };

typedef struct evtype {
	char *name;
	size_t len;
	int kind;            /* W_BYTES: weight field in bytes; else count or duration */
	const char *wfield;  /* "weight = " ... for W_BYTES */
	size_t wflen;
	int saw_duration;    /* some event of the type had a duration: weigh by it */
	int has_stacks;
	uint64_t events;     /* read (not skipped), and of those cut short: */
	uint64_t truncated, deep; /* deep: 64 frames or more, the recorder's own limit */
} evtype;

struct jfr_when {
	uint32_t loc;   /* the stack in jfr.loc */
	int64_t ns;     /* time of day, ns (days added past midnight) */
	uint64_t amount;
};

typedef struct jfr {
	flame__sink k; /* where the stacks go (the tree) */
	const flame_parse_opts *o;
	unsigned flags;
	const char *src;
	flame__lines cur;
	flame__stacks loc;      /* [type, (thread), frames root first] -> (amount, count) */
	int threaded;           /* loc's keys hold the thread: --threads, or labels kept */
	struct flame__labels *labels; /* the tree's, when it keeps them: {thread} per stack */
	flame__label_memo sets; /* a thread's name id -> its label set */
	evtype *types;
	size_t ntypes, types_cap;
	uint64_t type_slots[2 * MAX_TYPES]; /* core/slots.h's table over types[], by name */
	int want;               /* type picked by --event (-1: not seen yet) */
	int exec;               /* index of jdk.ExecutionSample, -1 if not seen */
	/* the current event */
	int in_event, in_stack, ty; /* ty: type index, -1 = skipped */
	uint64_t ev_line;
	uint64_t amount;
	uint32_t thread;
	int thread_prio;
	uint32_t *key;
	size_t key_cap;
	char *scratch;
	size_t scratch_cap;
	uint64_t events;
	uint64_t line_no, off;  /* the current line */
	flame__region fr;       /* frames of the stack trace: ids (leaf first), lines */
	uint32_t truncated;     /* id of "[truncated]", FLAME__ID_NONE until needed */
	/* the tree keeps time: each event's stack in `loc`, time of day and weight */
	int timed;
	int64_t start_ns, day_ns; /* the event's startTime; days passed midnight so far */
	flame__array(struct jfr_when) whens;
} jfr;

enum { RECORDER_DEPTH = 64 }; /* -XX:FlightRecorderOptions:stackdepth default */

static int starts(const char *p, size_t n, const char *lit, size_t k)
{
	return n >= k && memcmp(p, lit, k) == 0;
}
#define STARTS(p, n, lit) starts(p, n, lit, sizeof(lit) - 1)

static int is_event_start(const char *p, size_t n)
{
	if (n < 3 || p[n - 1] != '{' || p[n - 2] != ' ')
		return 0;
	char c = p[0];
	if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'))
		return 0;
	for (size_t i = 1; i < n - 2; i++) {
		c = p[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '$'))
			return 0;
	}
	return 1;
}

/* ---- values ---- */

/* `\d+(\.\d+)?` -> mant, dec. -1 if not a number or too long. */
static int decimal(const char *p, size_t n, uint64_t *mant, unsigned *dec)
{
	uint64_t v = 0;
	unsigned d = 0, digits = 0;
	int dot = 0;
	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '.' && !dot && i > 0 && i + 1 < n) {
			dot = 1;
			continue;
		}
		if (p[i] < '0' || p[i] > '9' || ++digits > 18)
			return -1;
		v = v * 10 + (uint64_t)(p[i] - '0');
		d += (unsigned)dot;
	}
	*mant = v;
	*dec = d;
	return 0;
}

/* mant / 10^dec * unit, rounded to the nearest integer; -1 on overflow. */
static int scale_round(uint64_t mant, unsigned dec, uint64_t unit, uint64_t *out)
{
	flame__u128 x = (flame__u128)mant * unit;
	uint64_t d = flame__pow10[dec];
	x = (x + d / 2) / d;
	if (x > UINT64_MAX)
		return -1;
	*out = (uint64_t)x;
	return 0;
}

/* "N bytes", "1 byte", "19.0 MB" -> tenths of a byte. 0 ok, -1 unreadable, -2 overflow. */
static int bytes_tenths(const char *p, size_t n, uint64_t *out)
{
	static const struct { const char *u; uint64_t m; } units[] = {
		{"byte", 10}, {"bytes", 10}, {"kB", 10240ULL}, {"MB", 10485760ULL},
		{"GB", 10737418240ULL}, {"TB", 10995116277760ULL}, {"PB", 11258999068426240ULL},
		{"EB", 11529215046068469760ULL}};
	const char *sp = memchr(p, ' ', n);
	uint64_t mant;
	unsigned dec;
	if (!sp || decimal(p, (size_t)(sp - p), &mant, &dec))
		return -1;
	const char *u = sp + 1;
	size_t un = n - (size_t)(u - p);
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strlen(units[i].u) == un && memcmp(u, units[i].u, un) == 0)
			return scale_round(mant, dec, units[i].m, out) ? -2 : 0;
	return -1;
}

/* "2.37 ms", "1.23 s", "0.000500 ms", "1 m 5 s", "2 h 3 m", "1 d 2 h", "0 s" -> ns. */
static int duration_ns(const char *p, size_t n, uint64_t *out)
{
	static const struct { const char *u; uint64_t m; } units[] = {
		{"ns", 1}, {"us", 1000ULL}, {"ms", 1000000ULL}, {"s", 1000000000ULL},
		{"m", 60000000000ULL}, {"h", 3600000000000ULL}, {"d", 86400000000000ULL}};
	uint64_t total = 0;
	size_t i = 0;
	if (n == 0)
		return -1;
	while (i < n) {
		const char *sp = memchr(p + i, ' ', n - i);
		uint64_t mant, v;
		unsigned dec;
		if (!sp || decimal(p + i, (size_t)(sp - (p + i)), &mant, &dec))
			return -1;
		const char *u = sp + 1;
		const char *ue = memchr(u, ' ', (size_t)(p + n - u));
		if (!ue)
			ue = p + n;
		size_t un = (size_t)(ue - u), k;
		for (k = 0; k < sizeof units / sizeof units[0]; k++)
			if (strlen(units[k].u) == un && memcmp(u, units[k].u, un) == 0)
				break;
		if (k == sizeof units / sizeof units[0])
			return -1;
		if (scale_round(mant, dec, units[k].m, &v) || total + v < v)
			return -2;
		total += v;
		i = (size_t)(ue - p) + (ue < p + n);
	}
	*out = total;
	return 0;
}

/* ---- event types ---- */

/* What the probe compares: a type of the table with the name asked for. */
typedef struct type_key {
	const evtype *types;
	const char *p;
	size_t n;
} type_key;

static int type_eq(const void *ctx, uint32_t i)
{
	const type_key *k = ctx;
	return k->types[i].len == k->n && memcmp(k->types[i].name, k->p, k->n) == 0;
}

static int type_index(jfr *s, const char *p, size_t n, flame_err *err)
{
	/* hashed: hostile input may name thousands of types (MAX_TYPES, half the slots) */
	uint32_t h = (uint32_t)flame__hash_bytes(p, n);
	type_key key = {s->types, p, n};
	size_t slot = flame__slots_probe(s->type_slots, 2 * MAX_TYPES - 1, h, type_eq, &key);
	if (s->type_slots[slot])
		return (int)flame__slot_entry(s->type_slots[slot]);
	if (s->ntypes >= MAX_TYPES)
		return -1; /* absurd input: ignore further types */
	if (flame__array_reserve_min(s->types, s->types_cap, s->ntypes + 1, 256))
		return flame__err_nomem(err), -2;
	s->type_slots[slot] = flame__slot_make(h, (uint32_t)s->ntypes);
	evtype *e = &s->types[s->ntypes];
	memset(e, 0, sizeof *e);
	e->name = malloc(n + 1);
	if (!e->name)
		return flame__err_nomem(err), -2;
	memcpy(e->name, p, n);
	e->name[n] = '\0';
	e->len = n;
	static const struct { const char *type, *field; } bytes[] = {
		{"jdk.ObjectAllocationSample", "weight = "},
		{"jdk.ObjectAllocationInNewTLAB", "tlabSize = "},
		{"jdk.ObjectAllocationOutsideTLAB", "allocationSize = "}};
	for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++)
		if (strcmp(e->name, bytes[k].type) == 0) {
			e->kind = W_BYTES;
			e->wfield = bytes[k].field;
			e->wflen = strlen(bytes[k].field);
		}
	if (strcmp(e->name, "jdk.ExecutionSample") == 0)
		s->exec = (int)s->ntypes;
	if (s->o->jfr_event && strcmp(e->name, s->o->jfr_event) == 0)
		s->want = (int)s->ntypes;
	return (int)s->ntypes++;
}

/* `TYPE {`: pick or skip the event. */
static int event_start(jfr *s, const char *p, size_t n, flame_err *err)
{
	int ty = type_index(s, p, n - 2, err);
	if (ty == -2)
		return FLAME_ENOMEM;
	s->in_event = 1;
	s->in_stack = 0;
	s->ev_line = s->line_no;
	s->amount = 0;
	s->thread = FLAME__ID_NONE;
	s->thread_prio = 0;
	s->start_ns = -1;
	s->fr.n = 0;
	if (ty >= 0 && s->o->jfr_event)
		ty = ty == s->want ? ty : -1;
	else if (ty >= 0 && s->exec >= 0 && ty != s->exec)
		ty = -1; /* default: jdk.ExecutionSample wins once seen */
	s->ty = ty;
	return 0;
}

/* "HH:MM:SS.mmm" (jfr print's startTime) as ns of the day, days added each time the clock
 * goes back by more than twelve hours (past midnight); unreadable: no time. */
static void start_time(jfr *s, const char *v, size_t n)
{
	unsigned h, m, sec, ms = 0;
	char tail[8] = "";
	char b[32];
	if (n >= sizeof b)
		return;
	memcpy(b, v, n);
	b[n] = '\0';
	int k = sscanf(b, "%2u:%2u:%2u.%3u%7s", &h, &m, &sec, &ms, tail);
	if (k < 3 || h > 23 || m > 59 || sec > 60)
		return;
	int64_t ns = (((int64_t)h * 60 + m) * 60 + sec) * 1000000000 + (int64_t)ms * 1000000;
	static const int64_t day = 86400 * (int64_t)1000000000;
	if (s->whens.n && ns + s->day_ns < s->whens.v[s->whens.n - 1].ns - day / 2)
		s->day_ns += day;
	s->start_ns = ns + s->day_ns;
}

/* `  name = value` at 2-space indent: the thread and the weight. */
static int field(jfr *s, const char *p, size_t n, flame_err *err)
{
	evtype *e = &s->types[s->ty];
	const char *f = p + 2;
	size_t fn = n - 2;
	if (STARTS(f, fn, "stackTrace = [") && fn == 14) {
		s->in_stack = 1;
		return 0;
	}
	if (s->threaded) {
		int prio = STARTS(f, fn, "sampledThread = ") ? 2 : STARTS(f, fn, "eventThread = ") ? 1 : 0;
		if (prio > s->thread_prio) {
			const char *v = (const char *)memchr(f, '=', fn) + 2;
			size_t vn = (size_t)(f + fn - v);
			/* "NAME" (javaThreadId = N): NAME is unescaped, so up to the last `" (` */
			if (vn >= 2 && v[0] == '"' && v[vn - 1] == ')') {
				for (size_t k = vn - 1; k >= 3; k--)
					if (v[k] == '(' && v[k - 1] == ' ' && v[k - 2] == '"') {
						v++;
						vn = k - 3;
						break;
					}
			}
			s->thread = flame__sink_intern(&s->k, v, vn);
			if (s->thread == FLAME__ID_NONE)
				return flame__err_nomem(err);
			s->thread_prio = prio;
			return 0;
		}
	}
	if (s->timed && STARTS(f, fn, "startTime = ")) {
		start_time(s, f + 12, fn - 12);
		return 0;
	}
	int isw = e->kind == W_BYTES ? starts(f, fn, e->wfield, e->wflen)
	                             : STARTS(f, fn, "duration = ");
	if (!isw)
		return 0;
	const char *v = (const char *)memchr(f, '=', fn) + 2;
	size_t vn = (size_t)(f + fn - v);
	if (e->kind != W_BYTES)
		e->saw_duration = 1;
	if (vn == 3 && memcmp(v, "N/A", 3) == 0) {
		s->amount = 0;
		return 0;
	}
	int rc = e->kind == W_BYTES ? bytes_tenths(v, vn, &s->amount) : duration_ns(v, vn, &s->amount);
	if (rc == -2)
		return flame__err(err, FLAME_ERANGE, s->src, s->line_no, s->off,
		                  "the value '%.*s' overflows 64 bits", (int)(vn > 60 ? 60 : vn), v);
	if (rc)
		return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
		                  "cannot read the %s '%.*s' (expected %s)",
		                  e->kind == W_BYTES ? "size" : "duration", (int)(vn > 60 ? 60 : vn), v,
		                  e->kind == W_BYTES ? "a size like '1.5 kB' or '24 bytes'"
		                                     : "a duration like '2.37 ms' or '1 m 5 s'");
	return 0;
}

/* `    pkg.Class.method(Params) line: N` -> interned frame name, per the options. */
static int frame(jfr *s, const char *f, size_t fn, flame_err *err)
{
	size_t k = fn, ln = 0;
	while (k > 0 && f[k - 1] >= '0' && f[k - 1] <= '9')
		k--;
	if (k < fn && k >= 7 && memcmp(f + k - 7, " line: ", 7) == 0) {
		ln = fn - k;
		k -= 7;
	} else {
		k = fn;
	}
	size_t base = k;
	if (!(s->flags & FLAME_JFR_SIGNATURES)) {
		const char *paren = memchr(f, '(', k);
		if (paren && paren > f)
			base = (size_t)(paren - f);
	}
	const char *name = f;
	size_t nn = base;
	int lines = (s->flags & FLAME_JFR_LINES) && ln;
	if (lines || (s->flags & FLAME_JFR_ANNOTATE)) {
		if (flame__array_reserve_min(s->scratch, s->scratch_cap, base + ln + 8, 256))
			return flame__err_nomem(err);
		memcpy(s->scratch, f, base);
		nn = base;
		if (lines) {
			s->scratch[nn++] = ':';
			memcpy(s->scratch + nn, f + fn - ln, ln);
			nn += ln;
		}
		if (s->flags & FLAME_JFR_ANNOTATE) {
			memcpy(s->scratch + nn, "_[j]", 4);
			nn += 4;
		}
		name = s->scratch;
	}
	return flame__region_intern(&s->fr, &s->k, name, nn, err);
}

/* One line of a stack trace (`n`: without its CR) onto the ids: the region's callback. */
static int frame_line(void *ctx, const char *q, size_t n, flame_err *err)
{
	jfr *s = ctx;
	if (n == 7 && memcmp(q + 4, "...", 3) == 0) { /* cut short: a root of its own */
		if (s->truncated == FLAME__ID_NONE &&
		    (s->truncated = flame__sink_intern(&s->k, "[truncated]", 11)) == FLAME__ID_NONE)
			return flame__err_nomem(err);
		return flame__region_push(&s->fr, s->truncated, err);
	}
	return frame(s, q + 4, n - 4, err);
}

static int stack_line(jfr *s, const char *p, size_t n, size_t raw, flame_err *err)
{
	if (n == 3 && p[0] == ' ' && p[1] == ' ' && p[2] == ']') {
		s->in_stack = 0;
		/* the same stack traces come again and again: whole ones are looked up by bytes */
		return flame__region_close(&s->fr, err);
	}
	if (n > 4 && memcmp(p, "    ", 4) == 0 && p[4] != ' ')
		return s->ty < 0 ? 0 : flame__region_add(&s->fr, p, raw, err);
	return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
	                  "expected a frame (4 spaces, then 'pkg.Class.method(...)') or '  ]' "
	                  "closing the stack trace of the event at line %llu",
	                  (unsigned long long)s->ev_line);
}

/* `}`: add the event's stack, keyed by its type, to the local table. */
static int event_end(jfr *s, flame_err *err)
{
	s->in_event = 0;
	s->events++;
	if (s->ty < 0)
		return 0;
	evtype *e = &s->types[s->ty];
	e->events++;
	const uint32_t *ids = s->fr.ids;
	size_t n = s->fr.n;
	if (n == 0)
		return 0;
	if (ids[n - 1] == s->truncated) {
		e->truncated++;
		e->deep += n - 1 >= RECORDER_DEPTH;
	}
	size_t lead = 1 + (s->threaded != 0);
	if (flame__array_reserve_min(s->key, s->key_cap, n + lead, 256))
		return flame__err_nomem(err);
	s->key[0] = (uint32_t)s->ty;
	if (lead == 2) {
		if (s->thread == FLAME__ID_NONE &&
		    (s->thread = flame__sink_intern(&s->k, "[unknown thread]", 16)) == FLAME__ID_NONE)
			return flame__err_nomem(err);
		s->key[1] = s->thread;
	}
	for (size_t i = 0; i < n; i++)
		s->key[lead + i] = ids[n - 1 - i];
	e->has_stacks = 1;
	uint32_t at;
	int rc = flame__stacks_add_at(&s->loc, s->key, n + lead,
	                              flame__stacks_hash(s->key, n + lead), s->amount, 1, &at);
	if (!rc && s->timed && s->start_ns >= 0 &&
	    flame__array_push(s->whens, ((struct jfr_when){at, s->start_ns, s->amount})))
		rc = FLAME_ENOMEM;
	if (rc == FLAME_ERANGE)
		return flame__err(err, rc, s->src, s->line_no, s->off,
		                  "the total weight overflows 64 bits");
	return rc ? flame__err_nomem(err) : 0;
}

/* Each event of the chosen type at its time, weighed as its stack is (`at`: where the
 * stacks of `loc` went in the tree). */
static int put_times(jfr *s, const evtype *e, const uint32_t *at, uint64_t mult, flame_err *err)
{
	for (size_t i = 0; i < s->whens.n; i++) {
		const struct jfr_when *x = &s->whens.v[i];
		if (at[x->loc] == UINT32_MAX)
			continue;
		uint64_t w = e->kind == W_BYTES ? x->amount / 10 + (x->amount % 10 >= 5)
		             : e->saw_duration  ? x->amount
		                                : 1;
		int rc = flame__sink_time_put(&s->k, at[x->loc], FLAME_CLOCK_DAY, x->ns, w * mult, 0, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* One stack's share of its bytes: its group (the stack's frames, whatever the thread), its
 * place in `loc`, and the tenths its rounding drops. */
typedef struct share {
	uint32_t g, i;
	unsigned rem;
} share;

static int cmp_share(const void *pa, const void *pb)
{
	const share *a = pa, *b = pb;
	if (a->g != b->g)
		return a->g < b->g ? -1 : 1;
	if (a->rem != b->rem)
		return a->rem > b->rem ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* Bytes in tenths w[i] of the stacks of type ty, split by thread (labels kept), to whole
 * bytes: each stack's bytes rounded once over its threads, and the bytes the threads'
 * rounding down left handed out by largest remainder, so the slices add up to what the
 * folded output says. 0 or FLAME_ENOMEM. */
static int round_over_threads(jfr *s, int ty, size_t skip, uint64_t *w)
{
	flame__stacks g; /* frames -> (tenths, whole bytes given so far) */
	flame__stacks_init(&g);
	share *sh = malloc((s->loc.count ? s->loc.count : 1) * sizeof *sh);
	size_t n = 0;
	int rc = sh ? 0 : FLAME_ENOMEM;
	for (size_t i = 0; i < s->loc.count && !rc; i++) {
		const flame__stack *st = &s->loc.v[i];
		uint32_t gi;
		if (st->ids[0] != (uint32_t)ty)
			continue;
		rc = flame__stacks_add_at(&g, st->ids + skip, st->depth - skip,
		                          flame__stacks_hash(st->ids + skip, st->depth - skip), w[i],
		                          w[i] / 10, &gi);
		sh[n++] = (share){gi, (uint32_t)i, (unsigned)(w[i] % 10)};
		w[i] /= 10;
	}
	if (!rc)
		qsort(sh, n, sizeof *sh, cmp_share);
	for (size_t k = 0; k < n && !rc; k++) {
		flame__stack *gs = &g.v[sh[k].g];
		if (gs->w[0] / 10 + (gs->w[0] % 10 >= 5) > gs->w[1]) {
			w[sh[k].i]++;
			gs->w[1]++;
		}
	}
	free(sh);
	flame__stacks_free(&g);
	return rc;
}

/* The weight of each stack of type ty into w[i] (other types' 0): its count, its
 * nanoseconds, or its bytes rounded from the text's tenths. 0 or FLAME_ENOMEM. */
static int weigh(jfr *s, const evtype *e, int ty, size_t skip, uint64_t *w)
{
	for (size_t i = 0; i < s->loc.count; i++) {
		const flame__stack *st = &s->loc.v[i];
		w[i] = st->ids[0] != (uint32_t)ty                    ? 0
		       : e->kind == W_BYTES || e->saw_duration ? st->w[0]
		                                               : st->w[1];
	}
	if (e->kind != W_BYTES)
		return 0;
	if (skip > 1)
		return round_over_threads(s, ty, skip, w);
	for (size_t i = 0; i < s->loc.count; i++)
		w[i] = w[i] / 10 + (w[i] % 10 >= 5);
	return 0;
}

/* The stacks of type ty, weighed w[i], into the tree (labelled with their thread when it
 * keeps labels; their places into at[] when not NULL). */
static int put_stacks(jfr *s, int ty, size_t skip, const uint64_t *w, uint64_t mult, uint32_t *at,
                      flame_err *err)
{
	for (size_t i = 0; i < s->loc.count; i++) {
		const flame__stack *st = &s->loc.v[i];
		if (at)
			at[i] = UINT32_MAX;
		if (st->ids[0] != (uint32_t)ty)
			continue;
		if (w[i] && w[i] > UINT64_MAX / mult)
			return flame__err(err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
			                  "a weight overflows 64 bits");
		if (s->labels) { /* the thread, as binary JFR's reader labels it */
			uint32_t set = flame__labels_of_name(s->labels, &s->sets, "thread", s->k.names,
			                                     st->ids[1]);
			if (set == FLAME__ID_NONE)
				return flame__err_nomem(err);
			flame__sink_label(&s->k, set);
		}
		int rc = flame__sink_add_at(&s->k, st->ids + skip, st->depth - skip, w[i] * mult, 0,
		                            at ? &at[i] : NULL, err);
		if (rc == FLAME_ERANGE)
			return flame__err(err, rc, s->src, 0, FLAME__NO_OFFSET,
			                  "the total weight overflows 64 bits");
		if (rc)
			return rc;
	}
	flame__sink_label(&s->k, 0); /* (another input's stacks have none of these labels) */
	return 0;
}

/* Hand the chosen type's stacks to the tree, in its unit and scale. */
static int flush(jfr *s, flame_err *err)
{
	int ty = s->o->jfr_event ? s->want : s->exec;
	if (ty < 0 && !s->o->jfr_event)
		for (size_t i = 0; i < s->ntypes && ty < 0; i++)
			if (s->types[i].has_stacks)
				ty = (int)i;
	if (ty < 0) {
		if (s->o->jfr_event)
			flame__warn(s->o->warn, s->o->warn_ud, "jfr-no-such-event", s->src, 0,
			            "no '%s' event with a stack trace in the input", s->o->jfr_event);
		else if (s->events)
			flame__warn(s->o->warn, s->o->warn_ud, "jfr-no-stacks", s->src, 0,
			            "none of the %llu events has a stack trace: nothing to draw",
			            (unsigned long long)s->events);
		return 0;
	}
	const evtype *e = &s->types[ty];
	if (!e->has_stacks) {
		flame__warn(s->o->warn, s->o->warn_ud, "jfr-no-stacks", s->src, 0,
		            "the %llu '%s' events have no stack trace: nothing to draw",
		            (unsigned long long)e->events, e->name);
		return 0;
	}
	if (e->truncated > e->deep)
		flame__warn(s->o->warn, s->o->warn_ud, "jfr-truncated", s->src, 0,
		            "%llu of the %llu '%s' stack traces end in '...', cut by jfr print "
		            "(5 frames unless given --stack-depth): kept under a '[truncated]' root "
		            "frame; for whole stacks: jfr print --stack-depth %d --events %s FILE.jfr",
		            (unsigned long long)e->truncated, (unsigned long long)e->events, e->name,
		            RECORDER_DEPTH, e->name);
	else if (e->truncated)
		flame__warn(s->o->warn, s->o->warn_ud, "jfr-truncated", s->src, 0,
		            "%llu of the %llu '%s' stack traces end in '...' after %d frames or more, "
		            "cut by the recorder: kept under a '[truncated]' root frame; for deeper "
		            "stacks record with -XX:FlightRecorderOptions:stackdepth=N",
		            (unsigned long long)e->truncated, (unsigned long long)e->events, e->name,
		            RECORDER_DEPTH);
	const char *cname = e->kind == W_BYTES ? "bytes" : e->saw_duration ? "nanoseconds" : "samples";
	int urc = flame__sink_units(&s->k, cname, NULL, s->src, err);
	if (urc)
		return urc;
	static const uint64_t m10[] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
	                               1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL};
	uint64_t mult = m10[flame__sink_scale(&s->k)];
	uint32_t *at = s->whens.n ? malloc((s->loc.count ? s->loc.count : 1) * sizeof *at) : NULL;
	uint64_t *w = malloc((s->loc.count ? s->loc.count : 1) * sizeof *w);
	/* the frames: past the type, and past the thread unless --threads made it the root */
	size_t skip = 1 + (s->threaded && !(s->flags & FLAME_JFR_THREADS));
	int rc = (s->whens.n && !at) || !w || weigh(s, e, ty, skip, w) ? flame__err_nomem(err) : 0;
	if (!rc)
		rc = put_stacks(s, ty, skip, w, mult, at, err);
	if (!rc && at)
		rc = put_times(s, e, at, mult, err);
	free(w);
	free(at);
	return rc;
}

static int line(jfr *s, const char *p, size_t raw, flame_err *err)
{
	size_t n = raw;
	if (n && p[n - 1] == '\r')
		n--;
	if (s->in_stack) {
		if (n == 1 && p[0] == '}')
			return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
			                  "the event ends inside its stack trace (no '  ]' after the "
			                  "frames of the event at line %llu)",
			                  (unsigned long long)s->ev_line);
		return stack_line(s, p, n, raw, err);
	}
	if (s->in_event) {
		if (n == 1 && p[0] == '}')
			return event_end(s, err);
		if (s->ty >= 0 && n > 2 && p[0] == ' ' && p[1] == ' ' && p[2] != ' ')
			return field(s, p, n, err);
		return 0; /* nested objects, arrays, continued strings */
	}
	if (n == 0)
		return 0;
	if (is_event_start(p, n))
		return event_start(s, p, n, err);
	if (s->events == 0)
		return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
		                  "expected an event such as 'jdk.ExecutionSample {' (the text of "
		                  "'jfr print')");
	flame__warn(s->o->warn, s->o->warn_ud, "jfr-unexpected-line", s->src, s->line_no,
	            "skipped a line outside of any event: '%.*s'", (int)(n > 80 ? 80 : n), p);
	return 0;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	jfr s = {.o = o, .flags = o->jfr_flags, .want = -1, .exec = -1,
	         .truncated = FLAME__ID_NONE};
	flame__sink_init(&s.k, t);
	s.timed = s.k.time != NULL;
	s.labels = flame__tree_labels(t);
	s.threaded = (s.flags & FLAME_JFR_THREADS) || s.labels;
	int rc = flame__lines_init(&s.cur, in, err);
	if (rc)
		return rc;
	flame__stacks_init(&s.loc);
	flame__region_init(&s.fr, frame_line, &s);
	s.src = flame__lines_source(&s.cur);
	/* a chunk of whole lines at a time, numbered as they are found (scan.h) */
	flame__linewalk w;
	flame__linewalk_init(&w, &s.cur);
	while ((rc = flame__linewalk_chunk(&w, err)) > 0) {
		const char *q;
		size_t raw;
		while ((q = flame__linewalk_next(&w, &raw, &s.line_no))) {
			s.off = flame__linewalk_offset(&w, q);
			if ((rc = line(&s, q, raw, err)))
				break;
		}
		if (rc || (rc = flame__region_flush(&s.fr, err))) /* the chunk's bytes go away */
			break;
	}
	if (rc == 0 && s.in_event)
		rc = flame__err(err, FLAME_EDATA, s.src, s.line_no, FLAME__NO_OFFSET,
		                "the input ends inside the event '%s' that starts at line %llu "
		                "(truncated?)",
		                s.ty >= 0 ? s.types[s.ty].name : "?", (unsigned long long)s.ev_line);
	if (rc == 0)
		rc = flush(&s, err);
	for (size_t i = 0; i < s.ntypes; i++)
		free(s.types[i].name);
	free(s.types);
	free(s.key);
	free(s.scratch);
	flame__label_memo_free(&s.sets);
	flame__array_free(s.whens);
	flame__stacks_free(&s.loc);
	flame__region_free(&s.fr);
	flame__lines_free(&s.cur);
	return rc < 0 ? rc : 0;
}

/* Strict: the first line is `TYPE {` and the next a 2-space `name = value` field. */
static int probe(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	while (p < end && (*p == '\n' || *p == '\r'))
		p++;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		return 0;
	size_t n = (size_t)(nl - p);
	if (n && p[n - 1] == '\r')
		n--;
	if (!is_event_start(p, n))
		return 0;
	p = nl + 1;
	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		return 0;
	n = (size_t)(nl - p);
	if (n < 6 || p[0] != ' ' || p[1] != ' ' || !((p[2] >= 'a' && p[2] <= 'z') || (p[2] >= 'A' && p[2] <= 'Z')))
		return 0;
	for (size_t i = 3; i + 2 < n; i++)
		if (p[i] == ' ' && p[i + 1] == '=' && p[i + 2] == ' ')
			return 1;
	return 0;
}

const struct flame__parser flame__parser_jfr = {probe, parse};
