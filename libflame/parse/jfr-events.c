/* The events of a binary JFR recording into stacks (see jfr-bin.h), named, chosen and
 * weighed as the JFR text reader (parse/jfr.c) does with what `jfr print` shows of them:
 * the same event type picked (--event, else jdk.ExecutionSample when the input has any,
 * else the first type seen with stacks), frames named as jfr print names them
 * (pkg.Class.method(Params), then cut per --signatures, --lines, --annotate), hidden
 * frames left out as jfr print leaves them, the thread for --threads (sampledThread, else
 * eventThread), and the weights: allocation sizes in bytes, durations in nanoseconds,
 * else one per event. Here sizes and durations are exact where the text rounds them.
 * A stack trace the recorder truncated goes under a `[truncated]` root frame.
 * Constant pools are per chunk, so are the caches: a stack trace, method or thread is
 * decoded once per chunk, then every event naming it costs a lookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/hash.h"
#include "../core/stacks.h"
#include "jfr-bin.h"
#include "parser.h"

enum { W_COUNT, W_BYTES };
enum { C_STACK = 0, C_THREAD = 1, C_METHOD = 2, C_TYPE = 3 }; /* the cache's key classes */
enum { NONE = -1, BAD = 1 }; /* BAD: bad bytes, told by the caller who knows where */

typedef struct evtype {
	char *name;
	int kind;            /* W_BYTES: weighed by wfield; else by duration or one */
	const char *wfield;
	int saw_duration;    /* the type has a duration: weigh by it */
	int has_stacks;
	uint64_t events, truncated;
} evtype;

/* What to read of an event of one class of the chunk: which of its fields. */
typedef struct plan {
	int ty;              /* evtype index; NONE until made */
	uint32_t nread;      /* fields read: up to the last of those below */
	uint32_t stack, sampled, thread, weight; /* field index in the class, UINT32_MAX: none */
} plan;

typedef struct sent { /* a stack trace of the chunk: ids[off..off+n) root first */
	uint32_t off, n, truncated;
} sent;

typedef struct agg { /* the events of the chunk on one stack trace (and thread) so far */
	uint32_t st, thread; /* the sent, the thread's name id (0 without --threads) */
	uint64_t amount, count;
} agg;

typedef struct ment { /* a method of the chunk: its jfr print text at mtext + off */
	uint32_t off, len, hidden;
} ment;

struct flame__jfr_events {
	flame__sink k;
	const flame_parse_opts *o;
	unsigned flags;
	const char *src;
	flame__stacks loc; /* [type, (thread), frames root first] -> (amount, count) */
	evtype *types;
	size_t ntypes, types_cap;
	flame__jfr_map names; /* hash of an event type's name -> its evtype */
	int want, exec;
	uint64_t events, unknown; /* events, and those of types the metadata does not declare */
	/* per chunk */
	plan *plans;
	size_t plans_cap;
	flame__jfr_map cache; /* (C_*, key) -> sent, thread name id, ment */
	sent *stk;
	size_t nstk, stk_cap;
	ment *meth;
	size_t nmeth, meth_cap;
	uint32_t *ids;
	size_t nids, ids_cap;
	char *mtext;
	size_t mlen, mcap;
	agg *agg;             /* the events of type agg_ty by (thread, stack trace) */
	size_t nagg, agg_cap;
	flame__jfr_map amap;  /* (thread, sent) -> agg */
	int agg_ty;
	/* scratch */
	uint32_t *key, *frames;
	size_t key_cap, frames_cap;
	char *name;
	size_t name_cap;
	uint32_t truncated_id;
	flame__jfr_chunk *c;
};

int flame__jfr_events_new(flame__jfr_events **out, flame_tree *t, const flame_parse_opts *o,
                          const char *src, flame_err *err)
{
	flame__jfr_events *e = calloc(1, sizeof *e);
	if (!e)
		return flame__err_nomem(err);
	flame__sink_init(&e->k, t);
	e->o = o;
	e->flags = o->jfr_flags;
	e->src = src;
	e->want = e->exec = NONE;
	e->truncated_id = FLAME__ID_NONE;
	flame__stacks_init(&e->loc);
	*out = e;
	return 0;
}

void flame__jfr_events_free(flame__jfr_events *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->ntypes; i++)
		free(e->types[i].name);
	free(e->types);
	flame__jfr_map_free(&e->names);
	flame__jfr_map_free(&e->cache);
	flame__jfr_map_free(&e->amap);
	free(e->agg);
	free(e->plans);
	free(e->stk);
	free(e->meth);
	free(e->ids);
	free(e->mtext);
	free(e->key);
	free(e->frames);
	free(e->name);
	flame__stacks_free(&e->loc);
	free(e);
}

/* ---- event types, as the text reader keeps them ---- */

static int type_index(flame__jfr_events *e, const char *name, flame_err *err)
{
	uint64_t h = flame__hash_bytes(name, strlen(name));
	int64_t i = flame__jfr_map_get(&e->names, 0, h);
	if (i >= 0)
		return (int)i;
	if (flame__array_reserve_min(e->types, e->types_cap, e->ntypes + 1, 64))
		return flame__err_nomem(err), -2;
	evtype *t = &e->types[e->ntypes];
	memset(t, 0, sizeof *t);
	if (!(t->name = strdup(name)) || flame__jfr_map_put(&e->names, 0, h, (uint32_t)e->ntypes))
		return flame__err_nomem(err), -2;
	static const struct { const char *type, *field; } bytes[] = {
		{"jdk.ObjectAllocationSample", "weight"},
		{"jdk.ObjectAllocationInNewTLAB", "tlabSize"},
		{"jdk.ObjectAllocationOutsideTLAB", "allocationSize"}};
	for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++)
		if (strcmp(name, bytes[k].type) == 0) {
			t->kind = W_BYTES;
			t->wfield = bytes[k].field;
		}
	if (strcmp(name, "jdk.ExecutionSample") == 0)
		e->exec = (int)e->ntypes;
	if (e->o->jfr_event && strcmp(name, e->o->jfr_event) == 0)
		e->want = (int)e->ntypes;
	return (int)e->ntypes++;
}

/* The fields of an event class that matter, on its first event in the chunk. */
static int make_plan(flame__jfr_events *e, uint32_t cls, plan *p, flame_err *err)
{
	flame__jfr_chunk *c = e->c;
	int ty = type_index(e, flame__jfr_name(c, c->cls[cls].name), err);
	if (ty < 0)
		return FLAME_ENOMEM;
	evtype *t = &e->types[ty];
	p->ty = ty;
	p->stack = flame__jfr_field_of(c, cls, "stackTrace");
	p->sampled = flame__jfr_field_of(c, cls, "sampledThread");
	p->thread = flame__jfr_field_of(c, cls, "eventThread");
	p->weight = flame__jfr_field_of(c, cls, t->kind == W_BYTES ? t->wfield : "duration");
	if (t->kind != W_BYTES && p->weight != UINT32_MAX)
		t->saw_duration = 1;
	uint32_t *f[] = {&p->stack, &p->sampled, &p->thread, &p->weight};
	p->nread = 0;
	for (size_t i = 0; i < 4; i++) {
		if (*f[i] == UINT32_MAX)
			continue;
		const flame__jfr_field *fd = &c->fld[*f[i]];
		int isnum = c->cls[fd->type].kind >= FLAME__JFR_BYTE && c->cls[fd->type].kind <= FLAME__JFR_LONG;
		if (fd->array || (i < 3 ? !fd->cp : fd->cp || !isnum)) {
			*f[i] = UINT32_MAX; /* not of the form jfr print shows either */
			continue;
		}
		*f[i] -= c->cls[cls].field0;
		if (*f[i] + 1 > p->nread)
			p->nread = *f[i] + 1;
	}
	return 0;
}

/* ---- strings out of fields ---- */

/* Positions of the fields called names[0..n) of the `cls` value at cur, into at[]
 * (NULL: absent), and the cursor past the value. -1 on bad bytes. */
static int locate(flame__jfr_chunk *c, flame__jfr_cur *cur, uint32_t cls,
                  const char *const *names, size_t n, const uint8_t **at, uint32_t *fld)
{
	const flame__jfr_class *k = &c->cls[cls];
	for (size_t j = 0; j < n; j++)
		at[j] = NULL;
	for (uint32_t i = 0; i < k->nfields; i++) {
		const flame__jfr_field *f = &c->fld[k->field0 + i];
		for (size_t j = 0; j < n; j++)
			if (!at[j] && strcmp(flame__jfr_name(c, f->name), names[j]) == 0) {
				at[j] = cur->p;
				fld[j] = k->field0 + i;
			}
		if (flame__jfr_skip_field(c, cur, f))
			return -1;
	}
	return 0;
}

/* The struct a field's value is (a constant, or written in place): a cursor at it. */
static int deref(flame__jfr_chunk *c, const flame__jfr_field *f, const uint8_t *at,
                 flame__jfr_cur *out)
{
	flame__jfr_cur cur = flame__jfr_at(c, (size_t)(at - c->b));
	if (!f->cp || f->array) {
		*out = cur;
		return f->array ? -1 : 0;
	}
	uint64_t key = flame__jfr_u64(&cur);
	return cur.bad ? -1 : flame__jfr_constant(c, f->type, key, out);
}

/* A string field, or a symbol (a struct with a `string` field), into *p, *n: 1, 0 for
 * null, -1 for bad bytes. */
static int field_string(flame__jfr_chunk *c, const flame__jfr_field *f, const uint8_t *at,
                        const char **p, size_t *n)
{
	flame__jfr_cur cur;
	if (!at || deref(c, f, at, &cur))
		return 0;
	if (c->cls[f->type].kind == FLAME__JFR_STRING) /* in place, or a String constant */
		return flame__jfr_string(c, &cur, p, n);
	static const char *const names[] = {"string"};
	const uint8_t *sat[1];
	uint32_t sf[1];
	if (c->cls[f->type].kind != FLAME__JFR_STRUCT ||
	    locate(c, &cur, f->type, names, 1, sat, sf) || !sat[0])
		return 0;
	if (c->fld[sf[0]].cp || c->cls[c->fld[sf[0]].type].kind != FLAME__JFR_STRING)
		return 0;
	cur = flame__jfr_at(c, (size_t)(sat[0] - c->b));
	return flame__jfr_string(c, &cur, p, n);
}

static int64_t field_int(flame__jfr_chunk *c, const flame__jfr_field *f, const uint8_t *at,
                         int64_t dflt)
{
	if (!at || f->cp || f->array)
		return dflt;
	flame__jfr_cur cur = flame__jfr_at(c, (size_t)(at - c->b));
	switch (c->cls[f->type].kind) {
	case FLAME__JFR_BYTE: return (int8_t)flame__jfr_u8(&cur);
	case FLAME__JFR_SHORT: return (int16_t)flame__jfr_long(&cur, 2);
	case FLAME__JFR_INT: return (int32_t)flame__jfr_long(&cur, 4);
	case FLAME__JFR_LONG: return (int64_t)flame__jfr_long(&cur, 8);
	default: return dflt;
	}
}


/* ---- methods, stack traces and threads of the chunk, each decoded once ---- */

/* Append to e->mtext. */
static int mput(flame__jfr_events *e, const char *p, size_t n)
{
	if (flame__array_reserve_min(e->mtext, e->mcap, e->mlen + n + 1, 4096))
		return -1;
	memcpy(e->mtext + e->mlen, p, n);
	e->mlen += n;
	return 0;
}

/* The parameter types of a descriptor "(Ljava.lang.String;[I)V" as jfr print shows them:
 * "String, int[]" (simple names, array brackets after). */
static int params(flame__jfr_events *e, const char *d, size_t n)
{
	static const char *const prim[] = {"I", "int", "J", "long", "Z", "boolean", "D", "double",
	                                   "F", "float", "S", "short", "C", "char", "B", "byte"};
	size_t end = n;
	while (end > 0 && d[end - 1] != ')')
		end--;
	if (n == 0 || d[0] != '(' || end == 0)
		return 0;
	int rc = 0;
	for (size_t i = 1, first = 1; i < end - 1 && !rc; i++, first = 0) {
		size_t dims = 0;
		while (i < end - 1 && d[i] == '[')
			dims++, i++;
		if (i >= end - 1)
			break;
		const char *t = "<unknown-descriptor-type>";
		size_t tn = strlen(t);
		if (d[i] == 'L') {
			const char *semi = memchr(d + i, ';', end - 1 - i);
			size_t stop = semi ? (size_t)(semi - d) : end - 1, dot = i + 1;
			for (size_t j = i + 1; j < stop; j++)
				if (d[j] == '/' || d[j] == '.')
					dot = j + 1;
			t = d + dot;
			tn = stop - dot;
			i = stop;
		} else {
			for (size_t j = 0; j < sizeof prim / sizeof prim[0]; j += 2)
				if (d[i] == prim[j][0])
					t = prim[j + 1], tn = strlen(t);
		}
		rc = (!first && mput(e, ", ", 2)) || mput(e, t, tn);
		for (size_t j = 0; j < dims && !rc; j++)
			rc = mput(e, "[]", 2);
	}
	return rc ? -1 : 0;
}

/* A string field's bytes appended to mtext ('/' as '.' when `dots`); null as "null". */
static int mput_field(flame__jfr_events *e, const flame__jfr_field *f, const uint8_t *at,
                      int dots)
{
	const char *p;
	size_t n;
	if (field_string(e->c, f, at, &p, &n) <= 0)
		p = "null", n = 4;
	size_t from = e->mlen;
	if (mput(e, p, n))
		return -1;
	for (size_t i = from; dots && i < e->mlen; i++)
		if (e->mtext[i] == '/')
			e->mtext[i] = '.';
	return 0;
}

/* The method constant `key` of class `cls`: "pkg.Class.name(Params)" in mtext. */
static int method(flame__jfr_events *e, uint32_t cls, uint64_t key, const ment **out,
                  flame_err *err)
{
	int64_t got = flame__jfr_map_get(&e->cache, C_METHOD, key);
	if (got >= 0)
		return *out = &e->meth[got], 0;
	flame__jfr_chunk *c = e->c;
	static const char *const names[] = {"type", "name", "descriptor", "hidden"};
	static const char *const cnames[] = {"name"};
	const uint8_t *at[4], *cat[1] = {NULL};
	uint32_t f[4] = {0, 0, 0, 0}, cf[1] = {0};
	flame__jfr_cur cur, ccur;
	ment m = {(uint32_t)e->mlen, 0, 0};
	if (flame__jfr_constant(c, cls, key, &cur) || locate(c, &cur, cls, names, 4, at, f))
		at[0] = at[1] = at[2] = at[3] = NULL;
	if (at[0] && !deref(c, &c->fld[f[0]], at[0], &ccur) &&
	    c->cls[c->fld[f[0]].type].kind == FLAME__JFR_STRUCT &&
	    locate(c, &ccur, c->fld[f[0]].type, cnames, 1, cat, cf))
		cat[0] = NULL;
	int rc = mput_field(e, cat[0] ? &c->fld[cf[0]] : NULL, cat[0], 1) || mput(e, ".", 1) ||
	         mput_field(e, at[1] ? &c->fld[f[1]] : NULL, at[1], 0) || mput(e, "(", 1);
	const char *d;
	size_t dn;
	if (!rc && at[2] && field_string(c, &c->fld[f[2]], at[2], &d, &dn) > 0) {
		/* out of the string buffer first: the names below may use it */
		if (flame__array_reserve_min(e->name, e->name_cap, dn + 1, 256))
			return flame__err_nomem(err);
		memcpy(e->name, d, dn);
		rc = params(e, e->name, dn);
	}
	if (rc || mput(e, ")", 1) || e->mlen > UINT32_MAX)
		return flame__err_nomem(err);
	m.len = (uint32_t)(e->mlen - m.off);
	m.hidden = at[3] && field_int(c, &c->fld[f[3]], at[3], 0) != 0;
	if (flame__array_reserve_min(e->meth, e->meth_cap, e->nmeth + 1, 256) ||
	    flame__jfr_map_put(&e->cache, C_METHOD, key, (uint32_t)e->nmeth))
		return flame__err_nomem(err);
	e->meth[e->nmeth] = m;
	*out = &e->meth[e->nmeth++];
	return 0;
}

/* Append id to the ids of the chunk's stacks. */
static int push(flame__jfr_events *e, uint32_t id)
{
	if (flame__array_reserve_min(e->ids, e->ids_cap, e->nids + 1, 1024))
		return -1;
	e->ids[e->nids++] = id;
	return 0;
}

/* A frame as the text reader names the line jfr print writes for it:
 * "pkg.Class.method(Params) line: N", cut per the options. */
static uint32_t frame_id(flame__jfr_events *e, const ment *m, int64_t line)
{
	const char *t = e->mtext + m->off;
	size_t base = m->len;
	if (!(e->flags & FLAME_JFR_SIGNATURES)) {
		const char *paren = memchr(t, '(', m->len);
		if (paren && paren > t)
			base = (size_t)(paren - t);
	}
	int lines = (e->flags & FLAME_JFR_LINES) && line >= 0;
	if (!lines && !(e->flags & FLAME_JFR_ANNOTATE))
		return flame__sink_intern(&e->k, t, base);
	if (flame__array_reserve_min(e->name, e->name_cap, base + 32, 256))
		return FLAME__ID_NONE;
	memcpy(e->name, t, base);
	size_t n = base;
	if (lines) {
		char digits[24];
		int k = snprintf(digits, sizeof digits, ":%lld", (long long)line);
		memcpy(e->name + n, digits, (size_t)k);
		n += (size_t)k;
	}
	if (e->flags & FLAME_JFR_ANNOTATE) {
		memcpy(e->name + n, "_[j]", 4);
		n += 4;
	}
	return flame__sink_intern(&e->k, e->name, n);
}

/* One element of the frames array at cur: its id pushed onto e->frames (leaf first),
 * unless jfr print leaves it out (a hidden method, a frame not Java). */
static int frame(flame__jfr_events *e, const flame__jfr_field *ff, flame__jfr_cur *cur,
                 size_t *nf, flame_err *err)
{
	flame__jfr_chunk *c = e->c;
	static const char *const names[] = {"method", "lineNumber", "javaFrame"};
	const uint8_t *at[3];
	uint32_t f[3];
	flame__jfr_cur fc;
	if (ff->cp) {
		uint64_t key = flame__jfr_u64(cur);
		if (cur->bad)
			return BAD;
		if (flame__jfr_constant(c, ff->type, key, &fc))
			return 0; /* a frame that is not there */
	} else {
		fc = *cur;
	}
	if (c->cls[ff->type].kind != FLAME__JFR_STRUCT || locate(c, &fc, ff->type, names, 3, at, f))
		return BAD;
	if (!ff->cp)
		*cur = fc;
	if (at[2] && field_int(c, &c->fld[f[2]], at[2], 1) == 0)
		return 0;
	const ment *m = NULL;
	if (at[0] && c->fld[f[0]].cp && !c->fld[f[0]].array) {
		flame__jfr_cur k = flame__jfr_at(c, (size_t)(at[0] - c->b));
		uint64_t key = flame__jfr_u64(&k);
		int rc = method(e, c->fld[f[0]].type, key, &m, err);
		if (rc)
			return rc;
	}
	if (!m || m->hidden)
		return 0;
	uint32_t id = frame_id(e, m, at[1] ? field_int(c, &c->fld[f[1]], at[1], -1) : -1);
	if (id == FLAME__ID_NONE || flame__array_reserve_min(e->frames, e->frames_cap, *nf + 1, 256))
		return flame__err_nomem(err);
	e->frames[(*nf)++] = id;
	return 0;
}

/* The stack trace constant `key` of class `cls`: its frames' ids, root first (behind a
 * `[truncated]` frame when the recorder cut it), in e->ids, as a sent. */
static int stack(flame__jfr_events *e, uint32_t cls, uint64_t key, const sent **out,
                 flame_err *err)
{
	int64_t got = flame__jfr_map_get(&e->cache, C_STACK, key);
	if (got >= 0)
		return *out = &e->stk[got], 0;
	flame__jfr_chunk *c = e->c;
	static const char *const names[] = {"truncated", "frames"};
	const uint8_t *at[2] = {NULL, NULL};
	uint32_t f[2];
	flame__jfr_cur cur;
	size_t nf = 0;
	int rc = 0;
	if (!flame__jfr_constant(c, cls, key, &cur) && c->cls[cls].kind == FLAME__JFR_STRUCT &&
	    locate(c, &cur, cls, names, 2, at, f))
		return flame__jfr_bad(c, cur.p, err, "a stack trace runs past its constant pool");
	const flame__jfr_field *ff = at[1] ? &c->fld[f[1]] : NULL;
	if (ff && ff->array) {
		cur = flame__jfr_at(c, (size_t)(at[1] - c->b));
		uint64_t n = flame__jfr_int(&cur);
		if (n > flame__jfr_left(&cur))
			cur.bad = 1, n = 0;
		for (uint64_t i = 0; i < n && !rc; i++)
			rc = frame(e, ff, &cur, &nf, err);
		if (rc == BAD || cur.bad)
			return flame__jfr_bad(c, at[1], err, "a stack trace's frames are damaged");
		if (rc)
			return rc;
	}
	sent s = {(uint32_t)e->nids, 0, at[0] && field_int(c, &c->fld[f[0]], at[0], 0) != 0};
	if (s.truncated && nf) {
		if (e->truncated_id == FLAME__ID_NONE &&
		    (e->truncated_id = flame__sink_intern(&e->k, "[truncated]", 11)) == FLAME__ID_NONE)
			return flame__err_nomem(err);
		if (push(e, e->truncated_id))
			return flame__err_nomem(err);
	}
	for (size_t i = nf; i-- > 0;)
		if (push(e, e->frames[i]))
			return flame__err_nomem(err);
	s.n = (uint32_t)(e->nids - s.off);
	if (flame__array_reserve_min(e->stk, e->stk_cap, e->nstk + 1, 256) ||
	    flame__jfr_map_put(&e->cache, C_STACK, key, (uint32_t)e->nstk))
		return flame__err_nomem(err);
	e->stk[e->nstk] = s;
	*out = &e->stk[e->nstk++];
	return 0;
}

/* The thread constant `key` of class `cls` by the name jfr print shows: the Java name
 * for a Java thread, else the OS one; "N/A" when there is none. */
static uint32_t thread(flame__jfr_events *e, uint32_t cls, uint64_t key)
{
	int64_t got = flame__jfr_map_get(&e->cache, C_THREAD, key);
	if (got >= 0)
		return (uint32_t)got;
	flame__jfr_chunk *c = e->c;
	static const char *const names[] = {"javaName", "javaThreadId", "osName"};
	const uint8_t *at[3] = {NULL, NULL, NULL};
	uint32_t f[3];
	flame__jfr_cur cur;
	const char *p = "N/A";
	size_t n = 3;
	if (!flame__jfr_constant(c, cls, key, &cur) && c->cls[cls].kind == FLAME__JFR_STRUCT &&
	    !locate(c, &cur, cls, names, 3, at, f)) {
		int java = at[1] && field_int(c, &c->fld[f[1]], at[1], 0) > 0;
		int k = java ? 0 : 2;
		if (!at[k] || field_string(c, &c->fld[f[k]], at[k], &p, &n) <= 0)
			p = "null", n = 4;
	}
	uint32_t id = flame__sink_intern(&e->k, p, n);
	if (id != FLAME__ID_NONE && flame__jfr_map_put(&e->cache, C_THREAD, key, id))
		return FLAME__ID_NONE;
	return id;
}

/* ---- events ---- */

/* The fields of plan p of the event at cur: stack trace key, thread keys, weight. */
typedef struct got {
	uint64_t stack, thread, weight;
	int has_stack, has_thread;
	uint32_t stack_cls, thread_cls;
} got;

static int fields(flame__jfr_events *e, uint32_t cls, const plan *p, flame__jfr_cur *cur,
                  got *g)
{
	flame__jfr_chunk *c = e->c;
	const flame__jfr_field *f0 = &c->fld[c->cls[cls].field0];
	int prio = 0;
	memset(g, 0, sizeof *g);
	for (uint32_t i = 0; i < p->nread; i++) {
		const flame__jfr_field *f = &f0[i];
		if (i == p->stack) {
			g->stack = flame__jfr_u64(cur);
			g->has_stack = 1;
			g->stack_cls = f->type;
		} else if (i == p->sampled || (i == p->thread && prio < 2)) {
			g->thread = flame__jfr_u64(cur);
			g->has_thread = 1;
			g->thread_cls = f->type;
			prio = i == p->sampled ? 2 : 1;
		} else if (i == p->weight) {
			g->weight = field_int(c, f, cur->p, 0);
			if (flame__jfr_skip_field(c, cur, f))
				return BAD;
		} else if (flame__jfr_skip_field(c, cur, f)) {
			return BAD;
		}
	}
	return cur->bad ? BAD : 0;
}

/* A duration in ticks as nanoseconds, as the JDK converts it; Long.MIN_VALUE ("N/A")
 * and negative ones weigh nothing. */
static uint64_t nanos(const flame__jfr_chunk *c, uint64_t ticks)
{
	if ((int64_t)ticks <= 0)
		return 0;
	if (c->ticks_per_sec == 1000000000 || c->ticks_per_sec == 0)
		return ticks;
	double ns = (double)ticks * (1e9 / (double)c->ticks_per_sec);
	return ns >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)ns;
}

/* The chunk's events so far into the local table, one add per stack trace (and thread):
 * hashing the stack's ids once, not once an event. */
static int flush(flame__jfr_events *e, flame_err *err)
{
	size_t lead = 1 + ((e->flags & FLAME_JFR_THREADS) != 0);
	for (size_t i = 0; i < e->nagg; i++) {
		const agg *a = &e->agg[i];
		const sent *st = &e->stk[a->st];
		if (flame__array_reserve_min(e->key, e->key_cap, st->n + lead, 256))
			return flame__err_nomem(err);
		e->key[0] = (uint32_t)e->agg_ty;
		e->key[1] = a->thread; /* overwritten by the frames without --threads */
		memcpy(e->key + lead, e->ids + st->off, st->n * sizeof *e->key);
		int rc = flame__stacks_add(&e->loc, e->key, st->n + lead, a->amount, a->count);
		if (rc == FLAME_ERANGE)
			return flame__err(err, rc, e->src, 0, FLAME__NO_OFFSET,
			                  "the total weight overflows 64 bits");
		if (rc)
			return flame__err_nomem(err);
	}
	e->nagg = 0;
	flame__jfr_map_clear(&e->amap);
	return 0;
}

/* One event of a type chosen so far: its weight onto its stack trace's. */
static int keep(flame__jfr_events *e, const plan *p, const got *g, flame_err *err)
{
	evtype *t = &e->types[p->ty];
	t->events++;
	const sent *st = NULL;
	int rc = g->has_stack && g->stack ? stack(e, g->stack_cls, g->stack, &st, err) : 0;
	if (rc || !st || st->n == 0)
		return rc;
	t->truncated += st->truncated;
	t->has_stacks = 1;
	uint32_t tid = 0;
	if (e->flags & FLAME_JFR_THREADS) {
		tid = g->has_thread ? thread(e, g->thread_cls, g->thread)
		                    : flame__sink_intern(&e->k, "[unknown thread]", 16);
		if (tid == FLAME__ID_NONE)
			return flame__err_nomem(err);
	}
	if (e->agg_ty != p->ty && (rc = flush(e, err)))
		return rc;
	e->agg_ty = p->ty;
	uint32_t sidx = (uint32_t)(st - e->stk);
	int64_t i = flame__jfr_map_get(&e->amap, tid, sidx);
	if (i < 0) {
		if (flame__array_reserve_min(e->agg, e->agg_cap, e->nagg + 1, 256) ||
		    flame__jfr_map_put(&e->amap, tid, sidx, (uint32_t)e->nagg))
			return flame__err_nomem(err);
		e->agg[e->nagg] = (agg){sidx, tid, 0, 0};
		i = (int64_t)e->nagg++;
	}
	agg *a = &e->agg[i];
	uint64_t w = t->kind == W_BYTES ? g->weight : t->saw_duration ? nanos(e->c, g->weight) : 0;
	if (a->amount + w < a->amount)
		return flame__err(err, FLAME_ERANGE, e->src, 0, FLAME__NO_OFFSET,
		                  "the total weight overflows 64 bits");
	a->amount += w;
	a->count++;
	return 0;
}

/* The event of class id `type` whose fields start at cur (its end at `end`). */
static int event(flame__jfr_events *e, uint64_t type, flame__jfr_cur *cur, flame_err *err)
{
	flame__jfr_chunk *c = e->c;
	uint32_t cls = flame__jfr_class_of(c, type);
	e->events++;
	if (cls == UINT32_MAX) {
		e->unknown++; /* a type the metadata does not declare: skipped, as jfr print does */
		return 0;
	}
	plan *p = &e->plans[cls];
	int rc = p->ty == NONE ? make_plan(e, cls, p, err) : 0;
	if (rc)
		return rc;
	if (e->o->jfr_event ? p->ty != e->want : e->exec >= 0 && p->ty != e->exec)
		return 0;
	got g;
	const uint8_t *at = cur->p;
	if (fields(e, cls, p, cur, &g))
		return flame__jfr_bad(c, at, err, "an event's fields run past its end");
	return keep(e, p, &g, err);
}

/* The chunk's caches start empty: its constants are its own. */
static int chunk_start(flame__jfr_events *e, flame__jfr_chunk *c, flame_err *err)
{
	e->c = c;
	flame__jfr_map_clear(&e->cache);
	e->nstk = e->nmeth = e->nids = e->mlen = 0;
	if (flame__array_reserve_min(e->plans, e->plans_cap, c->ncls + 1, 64))
		return flame__err_nomem(err);
	for (size_t i = 0; i < c->ncls; i++)
		e->plans[i].ty = NONE;
	return 0;
}

int flame__jfr_events_chunk(flame__jfr_events *e, flame__jfr_chunk *c, size_t end, int whole,
                            flame_err *err)
{
	int rc = chunk_start(e, c, err);
	for (size_t pos = FLAME__JFR_HEADER; rc == 0 && pos < end;) {
		flame__jfr_cur cur = flame__jfr_at(c, pos);
		cur.end = c->b + end;
		uint64_t size = flame__jfr_int(&cur);
		uint64_t type = flame__jfr_u64(&cur);
		if (cur.bad || size > end - pos || size < (uint64_t)(cur.p - (c->b + pos))) {
			if (!whole)
				break; /* the cut: told by the caller */
			return flame__jfr_bad(c, c->b + pos, err,
			                      "an event's size runs past its chunk or is too small");
		}
		cur.end = c->b + pos + size;
		if (type > 1) /* 0: metadata, 1: checkpoint (read before) */
			rc = event(e, type, &cur, err);
		pos += size;
	}
	return rc ? rc : flush(e, err); /* the chunk's stack traces go with it */
}

/* ---- the end: the chosen type's stacks into the tree ---- */

/* The type to draw, as the text reader picks it; NONE (warned) when there is none. */
static int chosen(flame__jfr_events *e)
{
	const flame_parse_opts *o = e->o;
	int ty = o->jfr_event ? e->want : e->exec;
	if (ty < 0 && !o->jfr_event)
		for (size_t i = 0; i < e->ntypes && ty < 0; i++)
			if (e->types[i].has_stacks)
				ty = (int)i;
	if (ty < 0) {
		if (o->jfr_event)
			flame__warn(o->warn, o->warn_ud, "jfr-no-such-event", e->src, 0,
			            "no '%s' event with a stack trace in the input", o->jfr_event);
		else if (e->events)
			flame__warn(o->warn, o->warn_ud, "jfr-no-stacks", e->src, 0,
			            "none of the %llu events has a stack trace: nothing to draw",
			            (unsigned long long)e->events);
		return NONE;
	}
	const evtype *t = &e->types[ty];
	if (!t->has_stacks) {
		flame__warn(o->warn, o->warn_ud, "jfr-no-stacks", e->src, 0,
		            "the %llu '%s' events have no stack trace: nothing to draw",
		            (unsigned long long)t->events, t->name);
		return NONE;
	}
	if (t->truncated)
		flame__warn(o->warn, o->warn_ud, "jfr-truncated", e->src, 0,
		            "%llu of the %llu '%s' stack traces were cut by the recorder at its "
		            "stack depth (64 frames unless told): kept under a '[truncated]' root "
		            "frame; for deeper stacks record with -XX:FlightRecorderOptions:stackdepth=N",
		            (unsigned long long)t->truncated, (unsigned long long)t->events, t->name);
	return ty;
}

int flame__jfr_events_finish(flame__jfr_events *e, flame_err *err)
{
	if (e->unknown)
		flame__warn(e->o->warn, e->o->warn_ud, "jfr-unknown-type", e->src, 0,
		            "skipped %llu event%s of types the recording's metadata does not declare",
		            (unsigned long long)e->unknown, e->unknown == 1 ? "" : "s");
	int ty = chosen(e);
	if (ty < 0)
		return 0;
	const evtype *t = &e->types[ty];
	const char *cname = t->kind == W_BYTES ? "bytes" : t->saw_duration ? "nanoseconds" : "samples";
	int rc = flame__sink_units(&e->k, cname, NULL, e->src, err);
	if (rc)
		return rc;
	static const uint64_t m10[] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
	                               1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL};
	uint64_t mult = m10[flame__sink_scale(&e->k)];
	for (size_t i = 0; i < e->loc.count; i++) {
		const flame__stack *st = &e->loc.v[i];
		if (st->ids[0] != (uint32_t)ty)
			continue;
		uint64_t w = t->kind == W_BYTES || t->saw_duration ? st->w[0] : st->w[1];
		if (w && w > UINT64_MAX / mult)
			return flame__err(err, FLAME_ERANGE, e->src, 0, FLAME__NO_OFFSET,
			                  "a weight overflows 64 bits");
		rc = flame__sink_add(&e->k, st->ids + 1, st->depth - 1, w * mult, 0, err);
		if (rc == FLAME_ERANGE)
			return flame__err(err, rc, e->src, 0, FLAME__NO_OFFSET,
			                  "the total weight overflows 64 bits");
		if (rc)
			return rc;
	}
	return 0;
}
