/* Reader of speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json,
 * speedscope's src/lib/file-format-spec.ts), as py-spy, rbspy, our own writer and others
 * write it, into stacks. Sits in parse/ on core/json.h's tokenizer: no document is built.
 *
 *   {"$schema":"https://www.speedscope.app/file-format-schema.json",
 *    "shared":{"frames":[{"name":"main","file":"app.py","line":3},...]},
 *    "profiles":[{"type":"sampled","unit":"seconds","samples":[[0,1],[0]],"weights":[0.01,0.02]},
 *                {"type":"evented","unit":"nanoseconds","events":[{"type":"O","frame":0,"at":0},
 *                                                                 {"type":"C","frame":0,"at":7}]}]}
 *
 * A sampled profile's stack i (frame indices, root first) weighs weights[i]; an evented
 * profile's open frames weigh the time between one event and the next (a close of a frame
 * that is not the innermost open one is an error, as in speedscope; frames still open at
 * the end run to endValue). Every profile of the file (py-spy writes one per thread) is
 * summed into the one tree; their units must agree ("none" is samples). Weights keep their
 * decimals (the tree's decimal scale, up to 9). A frame is named `name (file:line)` (py-spy's
 * raw format), or its name alone without a file. The frames may come after the profiles
 * (py-spy writes them last), so stacks are kept as frame indices in a table of unique
 * stacks and named at the end; memory is that table, the frames, and 4 bytes per sample
 * of a profile whose weights come after its samples (16 when they come before). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/hash.h"
#include "../core/json.h"
#include "../core/slots.h"
#include "../core/stacks.h"
#include "parser.h"

typedef flame__json_text text;

typedef struct dec {
	uint64_t m;
	unsigned d;
} dec;

/* A sample's text ("[0,4,7]") already read, and the table entry it gave. */
typedef struct seen {
	size_t off; /* in the cache's text */
	uint32_t len, entry;
} seen;

enum { CACHE_TEXT_MAX = 64 << 20 }; /* bytes of sample text remembered, at most */

/* The open-frame tree of evented profiles: frame `frame` opened inside entry `parent`
 * (UINT32_MAX: at the root) is entry `entry` of the table. */
typedef struct kid {
	uint32_t parent, frame, entry;
} kid;

typedef struct ssr {
	flame__json j;
	flame__sink k;
	const char *src;
	flame__stacks tab;  /* stacks of frame indices; w[0] at `scale` decimals */
	unsigned scale;
	flame__array(uint32_t) frames; /* frame index -> name id */
	int have_frames;
	flame__array(uint32_t) cur, ids; /* a sample's or the open frames' indices; names */
	flame__array(uint32_t) sample_entry; /* the profile's samples, as entries of tab */
	flame__array(dec) wbuf;              /* its weights, when read before its samples */
	size_t nweights;
	int samples_done, weights_done;
	uint64_t at, end; /* evented: the last event's time, endValue; at `scale` */
	int have_at, have_end;
	text name, file, unit;
	text cache;                /* the texts of samples seen, back to back */
	flame__array(seen) seen;   /* ... and their entries, found through `slots` */
	uint64_t *slots;
	size_t mask;
	const char *probe_text;    /* for seen_eq */
	size_t probe_len;
	flame__array(uint32_t) open; /* evented: the entry of each open frame's stack */
	flame__array(kid) kids;      /* ... found through kid_slots */
	uint64_t *kid_slots;
	size_t kid_mask;
	uint32_t probe_parent, probe_frame; /* for kid_eq */
	char units[16]; /* the first profile's unit */
} ssr;

static int probe(const char *buf, size_t len)
{
	size_t i = 0;
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	return i < len && buf[i] == '{' &&
	       memmem(buf, len, "speedscope.app/file-format-schema.json", 38) != NULL;
}

static int expect(ssr *s, int want, const char *what)
{
	int t = flame__json_next(&s->j);
	if (t < 0)
		return t;
	return t == want ? 0 : flame__json_bad(&s->j, "%s should be %s", what,
	                                       want == FLAME__JSON_ARR ? "an array"
	                                       : want == FLAME__JSON_OBJ ? "an object" : "a number");
}

static int decimal(ssr *s, dec *v, const char *what)
{
	int rc = expect(s, FLAME__JSON_NUM, what);
	return rc ? rc : flame__json_decimal(&s->j, &v->m, &v->d, NULL, what);
}

/* A frame index (the current NUM token). */
static int frame_index(ssr *s, uint32_t *v)
{
	int64_t x;
	int rc = flame__json_int(&s->j, &x, "a frame index");
	if (!rc && (x < 0 || x >= INT32_MAX))
		rc = flame__json_bad(&s->j, "frame index %lld is out of range", (long long)x);
	*v = (uint32_t)x;
	return rc;
}

/* ---- weights at the table's decimal scale */

/* Raise the scale to d decimals: every weight so far, and the evented times, times 10^k. */
static int raise_scale(ssr *s, unsigned d)
{
	uint64_t f = flame__pow10[d - s->scale];
	for (size_t i = 0; i < s->tab.count; i++)
		if (s->tab.v[i].w[0] > UINT64_MAX / f)
			return flame__json_bad(&s->j, "the weights overflow 64 bits with %u decimals", d);
	if (s->at > UINT64_MAX / f || s->end > UINT64_MAX / f)
		return flame__json_bad(&s->j, "the times overflow 64 bits with %u decimals", d);
	for (size_t i = 0; i < s->tab.count; i++)
		s->tab.v[i].w[0] *= f;
	s->at *= f;
	s->end *= f;
	s->scale = d;
	return 0;
}

/* v at the table's scale (raised to v's decimals first) into *out. */
static int scaled(ssr *s, dec v, uint64_t *out)
{
	int rc = v.d > s->scale ? raise_scale(s, v.d) : 0;
	uint64_t f = flame__pow10[s->scale - v.d];
	if (!rc && v.m > UINT64_MAX / f)
		rc = flame__json_bad(&s->j, "a weight overflows 64 bits");
	*out = v.m * f;
	return rc;
}

/* An empty sample's entry: it has no stack to hang on, and the table holds none. */
#define EMPTY UINT32_MAX

/* Entry e of the table gets weight v. */
static int weigh(ssr *s, uint32_t e, dec v)
{
	uint64_t w;
	if (e == EMPTY)
		return 0;
	int rc = scaled(s, v, &w);
	if (rc)
		return rc;
	uint64_t *x = &s->tab.v[e].w[0];
	if (*x + w < *x)
		return flame__json_bad(&s->j, "a stack's weight overflows 64 bits");
	*x += w;
	return 0;
}

/* The table's entry for the stack s->cur (created with no weight when new). */
static int entry(ssr *s, uint32_t *e)
{
	uint64_t h = flame__stacks_hash(s->cur.v, s->cur.n);
	flame__stack *st = NULL;
	int rc = flame__stacks_find(&s->tab, s->cur.v, s->cur.n, h, &st);
	if (!rc && !st && !(rc = flame__stacks_add_hashed(&s->tab, s->cur.v, s->cur.n, h, 0, 0)))
		rc = flame__stacks_find(&s->tab, s->cur.v, s->cur.n, h, &st);
	if (rc || !st)
		return flame__err_nomem(s->j.err);
	*e = (uint32_t)(st - s->tab.v);
	return 0;
}

/* ---- sampled profiles */

static int seen_eq(const void *ctx, uint32_t i)
{
	const ssr *s = ctx;
	const seen *e = &s->seen.v[i];
	return e->len == s->probe_len && !memcmp(s->cache.v + e->off, s->probe_text, e->len);
}

/* The slot of the sample text p[0..n) (hash h) in the cache. */
static size_t seen_slot(ssr *s, const char *p, size_t n, uint64_t h)
{
	s->probe_text = p;
	s->probe_len = n;
	return flame__slots_probe(s->slots, s->mask, (uint32_t)h, seen_eq, s);
}

/* Remember that the sample text p[0..n) (hash h) is entry e (while the cache has room). */
static int remember(ssr *s, const char *p, size_t n, uint64_t h, uint32_t e)
{
	if (s->cache.n + n > CACHE_TEXT_MAX || n > UINT32_MAX)
		return 0;
	if (flame__slots_reserve(&s->slots, &s->mask, s->seen.n, 1024) ||
	    flame__array_reserve(s->cache.v, s->cache.cap, s->cache.n + n) ||
	    flame__array_push(s->seen, ((seen){s->cache.n, (uint32_t)n, e})))
		return flame__err_nomem(s->j.err);
	memcpy(s->cache.v + s->cache.n, p, n);
	s->cache.n += n;
	s->slots[seen_slot(s, p, n, h)] = flame__slot_make((uint32_t)h, (uint32_t)(s->seen.n - 1));
	return 0;
}

/* One sample's frame indices (its '[' read) into s->cur, and its entry. */
static int sample_stack(ssr *s, uint32_t *e)
{
	int64_t f[128];
	long got;
	s->cur.n = 0;
	while ((got = flame__json_array_ints(&s->j, f, 128, "a frame index")) > 0) {
		if (flame__array_reserve(s->cur.v, s->cur.cap, s->cur.n + (size_t)got))
			return flame__err_nomem(s->j.err);
		for (long k = 0; k < got; k++) {
			if (f[k] < 0 || f[k] >= INT32_MAX)
				return flame__json_bad(&s->j, "frame index %lld is out of range", (long long)f[k]);
			s->cur.v[s->cur.n++] = (uint32_t)f[k];
		}
	}
	if (got < 0)
		return (int)got;
	if (!s->cur.n) {
		*e = EMPTY;
		return 0;
	}
	return entry(s, e);
}

/* The next sample's entry: 1, 0 at the end of the samples, or a status. A sample whose
 * text was seen before is not read again (py-spy's samples repeat). */
static int next_sample(ssr *s, uint32_t *e)
{
	const char *p;
	size_t n;
	uint64_t h = 0;
	int peeked = flame__json_peek_array_text(&s->j, &p, &n);
	if (peeked) {
		h = flame__hash_bytes(p, n);
		size_t i = s->slots ? seen_slot(s, p, n, h) : 0;
		if (s->slots && s->slots[i]) {
			*e = s->seen.v[flame__slot_entry(s->slots[i])].entry;
			flame__json_skip_text(&s->j, n);
			return 1;
		}
		/* read it below: keep its text, which the reads may move */
		if (flame__array_reserve(s->name.v, s->name.cap, n))
			return flame__err_nomem(s->j.err);
		memcpy(s->name.v, p, n);
	}
	int t = flame__json_next(&s->j), rc;
	if (t == FLAME__JSON_ARR_END)
		return 0;
	if (t != FLAME__JSON_ARR)
		return t < 0 ? t : flame__json_bad(&s->j, "a sample should be an array of frame indices");
	if ((rc = sample_stack(s, e)))
		return rc;
	return peeked && (rc = remember(s, s->name.v, n, h, *e)) ? rc : 1;
}

static int samples(ssr *s)
{
	int rc = expect(s, FLAME__JSON_ARR, "samples");
	size_t i = 0;
	uint32_t e;
	while (!rc && (rc = next_sample(s, &e)) == 1) {
		if (s->weights_done)
			rc = i < s->wbuf.n ? weigh(s, e, s->wbuf.v[i]) : 0;
		else
			rc = flame__array_push(s->sample_entry, e) ? flame__err_nomem(s->j.err) : 0;
		i++;
	}
	if (rc)
		return rc;
	s->samples_done = 1;
	return 0;
}

static int weights(ssr *s)
{
	int rc = expect(s, FLAME__JSON_ARR, "weights"), t;
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_NUM) {
		dec v;
		if ((rc = flame__json_decimal(&s->j, &v.m, &v.d, NULL, "a weight")))
			break;
		if (s->samples_done)
			rc = s->nweights < s->sample_entry.n ? weigh(s, s->sample_entry.v[s->nweights], v) : 0;
		else if (flame__array_push(s->wbuf, v))
			rc = flame__err_nomem(s->j.err);
		s->nweights++;
	}
	if (rc || (t != FLAME__JSON_ARR_END && (rc = t < 0 ? t : flame__json_bad(&s->j, "a weight should be a number"))))
		return rc;
	s->weights_done = 1;
	return 0;
}

/* ---- evented profiles */

/* The time from the last event to `now` onto the open frames. */
static int elapse(ssr *s, uint64_t now)
{
	if (s->have_at && s->open.n && now > s->at) {
		uint64_t *x = &s->tab.v[s->open.v[s->open.n - 1]].w[0];
		if (*x + (now - s->at) < *x)
			return flame__json_bad(&s->j, "a stack's weight overflows 64 bits");
		*x += now - s->at;
	}
	return 0;
}

static int kid_eq(const void *ctx, uint32_t i)
{
	const ssr *s = ctx;
	return s->kids.v[i].parent == s->probe_parent && s->kids.v[i].frame == s->probe_frame;
}

/* Open frame f on the open stack: its entry is found from the innermost open frame's and
 * f (a hash of two numbers), not from the whole stack. */
static int open_frame(ssr *s, uint32_t f)
{
	uint32_t parent = s->open.n ? s->open.v[s->open.n - 1] : UINT32_MAX, e;
	uint64_t h = flame__mix64((uint64_t)parent << 32 | f);
	if (flame__array_push(s->cur, f) ||
	    flame__slots_reserve(&s->kid_slots, &s->kid_mask, s->kids.n, 1024))
		return flame__err_nomem(s->j.err);
	s->probe_parent = parent;
	s->probe_frame = f;
	size_t i = flame__slots_probe(s->kid_slots, s->kid_mask, (uint32_t)h, kid_eq, s);
	if (s->kid_slots[i]) {
		e = s->kids.v[flame__slot_entry(s->kid_slots[i])].entry;
	} else {
		int rc = entry(s, &e);
		if (rc)
			return rc;
		if (flame__array_push(s->kids, ((kid){parent, f, e})))
			return flame__err_nomem(s->j.err);
		s->kid_slots[i] = flame__slot_make((uint32_t)h, (uint32_t)(s->kids.n - 1));
	}
	return flame__array_push(s->open, e) ? flame__err_nomem(s->j.err) : 0;
}

/* An event read: the time since the last one onto the open frames, then frame f opened or
 * closed. */
static int apply_event(ssr *s, int type, uint32_t f, dec at)
{
	uint64_t now;
	int rc;
	if ((rc = scaled(s, at, &now)) || (rc = elapse(s, now)))
		return rc;
	s->at = now > s->at || !s->have_at ? now : s->at;
	s->have_at = 1;
	if (type == 'O')
		return open_frame(s, f);
	if (!s->cur.n || s->cur.v[s->cur.n - 1] != f)
		return flame__json_bad(&s->j, "an event closes frame %u, which is not the innermost open frame", f);
	s->cur.n--;
	s->open.n--;
	return 0;
}

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* p[0..n) as a JSON integer of at most `max` digits (no sign, no leading zero): 1 with its
 * value in *v (the value json_int and json_decimal would give), else 0. */
static int plain_int(const char *p, size_t n, size_t max, uint64_t *v)
{
	uint64_t x = 0;
	if (!n || n > max || (p[0] == '0' && n > 1))
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!digit(p[i]))
			return 0;
		x = x * 10 + (uint64_t)(p[i] - '0');
	}
	*v = x;
	return 1;
}

/* The next event when its text is exactly {"type":"O"|"C","frame":N,"at":T}, as speedscope
 * and the tools write it: read from the buffer at once (1), or 0 for any other text, which
 * event() then reads token by token; the same checks and messages either way. */
static int event_text(ssr *s)
{
	const char *p;
	size_t n, i = 20, f0 = 20;
	if (!flame__json_peek_object_text(&s->j, &p, &n) || n < 29 ||
	    memcmp(p, "{\"type\":\"", 9) || (p[9] != 'O' && p[9] != 'C') ||
	    memcmp(p + 10, "\",\"frame\":", 10))
		return 0;
	while (i < n && digit(p[i]))
		i++;
	if (i == f0 || n - i < 8 || memcmp(p + i, ",\"at\":", 6))
		return 0;
	const char *a = p + i + 6;
	size_t an = n - i - 7;
	uint64_t fv;
	dec at = {0, 0};
	int fplain = plain_int(p + f0, i - f0, 9, &fv), aplain = plain_int(a, an, 18, &at.m), rc;
	if ((!fplain && flame__json_number_token(&s->j, p + f0, i - f0)) ||
	    (!aplain && flame__json_number_token(&s->j, a, an)))
		return 0; /* not numbers: token by token, which says so */
	uint32_t f = (uint32_t)fv; /* up to 9 digits: within a frame index's range */
	if (!fplain && ((rc = flame__json_number_token(&s->j, p + f0, i - f0)) ||
	                (rc = frame_index(s, &f))))
		return rc;
	if (!aplain && ((rc = flame__json_number_token(&s->j, a, an)) ||
	                (rc = flame__json_decimal(&s->j, &at.m, &at.d, NULL, "an event's time"))))
		return rc;
	uint64_t close = s->j.base + (size_t)(p + n - 1 - s->j.buf); /* the '}', as event() */
	flame__json_skip_text(&s->j, n);
	s->j.at = close;
	rc = apply_event(s, p[9], f, at);
	return rc ? rc : 1;
}

/* One event object: {"type":"O"|"C","frame":N,"at":T}. */
static int event(ssr *s)
{
	int rc = 0, t, type = 0, have_frame = 0, have_at = 0;
	uint32_t f = 0;
	dec at = {0, 0};
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&s->j, "type")) {
			if ((t = flame__json_next(&s->j)) == FLAME__JSON_STR && s->j.n == 1)
				type = s->j.s[0];
			else
				rc = t < 0 ? t : flame__json_skip(&s->j, t);
		} else if (flame__json_is(&s->j, "frame")) {
			rc = expect(s, FLAME__JSON_NUM, "an event's frame");
			rc = rc ? rc : frame_index(s, &f), have_frame = 1;
		} else if (flame__json_is(&s->j, "at")) {
			rc = decimal(s, &at, "an event's time"), have_at = 1;
		} else {
			rc = flame__json_skip_value(&s->j);
		}
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	if ((type != 'O' && type != 'C') || !have_frame || !have_at)
		return flame__json_bad(&s->j, "an event needs a type (\"O\" or \"C\"), a frame and a time");
	return apply_event(s, type, f, at);
}

static int events(ssr *s)
{
	int rc = expect(s, FLAME__JSON_ARR, "events"), t = 0;
	while (!rc) {
		while ((rc = event_text(s)) == 1)
			;
		if (rc || (t = flame__json_next(&s->j)) != FLAME__JSON_OBJ)
			break;
		if ((rc = event(s)))
			break;
	}
	return rc ? rc : t == FLAME__JSON_ARR_END ? 0 : t < 0 ? t : flame__json_bad(&s->j, "an event should be an object");
}

/* ---- the file */

/* The profile's unit, checked against the first profile's. */
static int profile_unit(ssr *s)
{
	static const char *const known[] = {"none", "nanoseconds", "microseconds", "milliseconds",
	                                    "seconds", "bytes"};
	const char *u = NULL;
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (s->unit.n == strlen(known[i]) && !memcmp(s->unit.v, known[i], s->unit.n))
			u = known[i];
	if (!u)
		return flame__json_bad(&s->j, "a profile's unit '%.*s' is not one of speedscope's",
		                       (int)(s->unit.n < 40 ? s->unit.n : 40), s->unit.v ? s->unit.v : "");
	if (s->units[0] && strcmp(s->units, u))
		return flame__json_bad(&s->j, "a profile counts %s where an earlier one counts %s", u, s->units);
	strcpy(s->units, u);
	return 0;
}

static int profile(ssr *s)
{
	int rc = 0, t;
	dec end = {0, 0};
	s->unit.n = s->cur.n = s->open.n = s->sample_entry.n = s->wbuf.n = s->nweights = 0;
	s->samples_done = s->weights_done = s->have_at = s->have_end = 0;
	s->at = s->end = 0;
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&s->j, "unit"))
			rc = flame__json_text_value(&s->j, &s->unit);
		else if (flame__json_is(&s->j, "samples"))
			rc = samples(s);
		else if (flame__json_is(&s->j, "weights"))
			rc = weights(s);
		else if (flame__json_is(&s->j, "events"))
			rc = events(s);
		else if (flame__json_is(&s->j, "endValue"))
			rc = decimal(s, &end, "endValue"), s->have_end = 1;
		else
			rc = flame__json_skip_value(&s->j);
	}
	if (rc || (rc = t < 0 ? t : 0) || (rc = profile_unit(s)))
		return rc;
	if (s->weights_done && s->samples_done && s->sample_entry.n != s->nweights)
		return flame__json_bad(&s->j, "a profile has %zu samples and %zu weights",
		                       s->sample_entry.n, s->nweights);
	uint64_t e;
	if (s->cur.n && s->have_end && !(rc = scaled(s, end, &e)))
		rc = elapse(s, e); /* frames still open run to endValue */
	return rc;
}

static int frame(ssr *s)
{
	int rc = 0, t;
	int64_t line = -1;
	s->name.n = s->file.n = 0;
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&s->j, "name"))
			rc = flame__json_text_value(&s->j, &s->name);
		else if (flame__json_is(&s->j, "file"))
			rc = flame__json_text_value(&s->j, &s->file);
		else if (flame__json_is(&s->j, "line") && (t = flame__json_next(&s->j)) == FLAME__JSON_NUM)
			rc = flame__json_int(&s->j, &line, "a frame's line");
		else if (!flame__json_is(&s->j, "line"))
			rc = flame__json_skip_value(&s->j);
		else
			rc = t < 0 ? t : flame__json_skip(&s->j, t);
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	size_t n = s->name.n;
	if (s->file.n) {
		size_t need = n + s->file.n + 32;
		if (flame__array_reserve(s->name.v, s->name.cap, need))
			return flame__err_nomem(s->j.err);
		n += (size_t)(line >= 0 ? snprintf(s->name.v + n, need - n, " (%.*s:%lld)", (int)s->file.n, s->file.v, (long long)line)
		                        : snprintf(s->name.v + n, need - n, " (%.*s)", (int)s->file.n, s->file.v));
	}
	uint32_t id = flame__sink_intern(&s->k, s->name.v ? s->name.v : "", n);
	if (id == FLAME__ID_NONE || flame__array_push(s->frames, id))
		return flame__err_nomem(s->j.err);
	return 0;
}

/* "shared": {"frames": [...]} */
static int shared(ssr *s)
{
	int rc = expect(s, FLAME__JSON_OBJ, "shared"), t;
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		if (!flame__json_is(&s->j, "frames")) {
			rc = flame__json_skip_value(&s->j);
			continue;
		}
		if (s->have_frames)
			return flame__json_bad(&s->j, "a second list of frames");
		s->have_frames = 1;
		if ((rc = expect(s, FLAME__JSON_ARR, "frames")))
			return rc;
		while ((t = flame__json_next(&s->j)) == FLAME__JSON_OBJ && !(rc = frame(s)))
			;
		if (!rc && t != FLAME__JSON_ARR_END)
			rc = t < 0 ? t : flame__json_bad(&s->j, "a frame should be an object");
	}
	return rc ? rc : t < 0 ? t : 0;
}

static int members(ssr *s)
{
	int rc = expect(s, FLAME__JSON_OBJ, "a speedscope file"), t;
	while (!rc && (t = flame__json_next(&s->j)) == FLAME__JSON_KEY) {
		if (flame__json_is(&s->j, "shared")) {
			rc = shared(s);
		} else if (flame__json_is(&s->j, "profiles")) {
			if (!(rc = expect(s, FLAME__JSON_ARR, "profiles")))
				while ((t = flame__json_next(&s->j)) == FLAME__JSON_OBJ && !(rc = profile(s)))
					;
			if (!rc && t != FLAME__JSON_ARR_END)
				rc = t < 0 ? t : flame__json_bad(&s->j, "a profile should be an object");
		} else {
			rc = flame__json_skip_value(&s->j);
		}
	}
	if (rc || (rc = t < 0 ? t : 0))
		return rc;
	return (t = flame__json_next(&s->j)) < 0 ? t : 0;
}

/* Every stack of frame indices named, to the sink. */
static int finish(ssr *s)
{
	int rc = flame__sink_units(&s->k, !s->units[0] || !strcmp(s->units, "none") ? "samples" : s->units,
	                           NULL, s->src, s->j.err);
	if (!rc && s->scale > flame__sink_scale(&s->k))
		rc = flame__sink_rescale(&s->k, s->scale, s->j.err);
	uint64_t f = flame__pow10[flame__sink_scale(&s->k) - s->scale];
	for (size_t i = 0; i < s->tab.count && !rc; i++) {
		const flame__stack *st = &s->tab.v[i];
		if (!st->w[0] || !st->depth)
			continue;
		if (flame__array_reserve(s->ids.v, s->ids.cap, st->depth))
			return flame__err_nomem(s->j.err);
		for (uint32_t d = 0; d < st->depth; d++) {
			if (st->ids[d] >= s->frames.n)
				return flame__err(s->j.err, FLAME_EDATA, s->src, 0, FLAME__NO_OFFSET,
				                  "frame index %u is not among the %zu shared frames",
				                  st->ids[d], s->frames.n);
			s->ids.v[d] = s->frames.v[st->ids[d]];
		}
		if (st->w[0] > UINT64_MAX / f)
			return flame__err(s->j.err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
			                  "a stack's weight overflows 64 bits");
		rc = flame__sink_add(&s->k, s->ids.v, st->depth, st->w[0] * f, 0, s->j.err);
	}
	return rc;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	(void)o;
	ssr s = {.src = flame_input_name(in)};
	int rc = flame__json_init(&s.j, in, err);
	if (rc)
		return rc;
	flame__stacks_init(&s.tab);
	flame__sink_init(&s.k, t);
	if (!(rc = members(&s)))
		rc = finish(&s);
	flame__json_free(&s.j);
	flame__stacks_free(&s.tab);
	flame__array_free(s.frames);
	flame__array_free(s.cur);
	flame__array_free(s.ids);
	flame__array_free(s.sample_entry);
	flame__array_free(s.wbuf);
	flame__array_free(s.name);
	flame__array_free(s.file);
	flame__array_free(s.unit);
	flame__array_free(s.cache);
	flame__array_free(s.seen);
	free(s.slots);
	flame__array_free(s.open);
	flame__array_free(s.kids);
	free(s.kid_slots);
	return rc;
}

const struct flame__parser flame__parser_speedscope = {probe, parse};
