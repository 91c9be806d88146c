/* The names of a chunk's stack traces and threads as `jfr print` shows them (see
 * jfr-names.h), read out of the constant pools: a stack trace's frames (its methods as
 * pkg.Class.method(Params), cut per --signatures, --lines, --annotate; hidden frames and
 * frames not Java left out, as jfr print leaves them), root first behind `[truncated]`
 * when the recorder cut it; a thread's Java name, else its OS name. Each stack trace,
 * method and thread is decoded once per chunk, its constants being the chunk's own; one
 * the chunk's pools lack is looked for in the chunk before's (the recorder writes a stack
 * trace there when the event that refers to it reaches the file after the switch to a
 * new chunk) and decoded there, with that chunk's metadata and constants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "jfr-names.h"

enum { /* the cache's key classes */
	C_STACK, C_METHOD, C_PMETHOD, /* a method of the chunk before */
	C_THREAD, C_THREAD_PREV, C_THREAD_NONE /* a thread, by where it was found */
};
enum { BAD = 1 }; /* bad bytes, told by the caller who knows where */

void flame__jfr_names_init(flame__jfr_names *e, flame__sink *k, unsigned flags)
{
	memset(e, 0, sizeof *e);
	e->k = k;
	e->flags = flags;
	e->truncated_id = FLAME__ID_NONE;
	e->mkind = C_METHOD;
}

void flame__jfr_names_free(flame__jfr_names *e)
{
	flame__jfr_map_free(&e->cache);
	free(e->stk);
	free(e->meth);
	free(e->ids);
	free(e->mtext);
	free(e->frames);
	free(e->name);
}

void flame__jfr_names_chunk(flame__jfr_names *e, flame__jfr_chunk *c)
{
	e->c = c;
	flame__jfr_map_clear(&e->cache);
	e->nstk = e->nmeth = e->nids = e->mlen = 0;
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

int64_t flame__jfr_field_int(flame__jfr_chunk *c, const flame__jfr_field *f, const uint8_t *at,
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
static int mput(flame__jfr_names *e, const char *p, size_t n)
{
	if (flame__array_reserve_min(e->mtext, e->mcap, e->mlen + n + 1, 4096))
		return -1;
	memcpy(e->mtext + e->mlen, p, n);
	e->mlen += n;
	return 0;
}

/* The parameter types of a descriptor "(Ljava.lang.String;[I)V" as jfr print shows them:
 * "String, int[]" (simple names, array brackets after). */
static int params(flame__jfr_names *e, const char *d, size_t n)
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
static int mput_field(flame__jfr_names *e, const flame__jfr_field *f, const uint8_t *at,
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
static int method(flame__jfr_names *e, uint32_t cls, uint64_t key,
                  const flame__jfr_ment **out, flame_err *err)
{
	int64_t got = flame__jfr_map_get(&e->cache, e->mkind, key);
	if (got >= 0)
		return *out = &e->meth[got], 0;
	flame__jfr_chunk *c = e->c;
	static const char *const names[] = {"type", "name", "descriptor", "hidden"};
	static const char *const cnames[] = {"name"};
	const uint8_t *at[4], *cat[1] = {NULL};
	uint32_t f[4] = {0, 0, 0, 0}, cf[1] = {0};
	flame__jfr_cur cur, ccur;
	flame__jfr_ment m = {(uint32_t)e->mlen, 0, 0};
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
	m.hidden = at[3] && flame__jfr_field_int(c, &c->fld[f[3]], at[3], 0) != 0;
	if (flame__array_reserve_min(e->meth, e->meth_cap, e->nmeth + 1, 256) ||
	    flame__jfr_map_put(&e->cache, e->mkind, key, (uint32_t)e->nmeth))
		return flame__err_nomem(err);
	e->meth[e->nmeth] = m;
	*out = &e->meth[e->nmeth++];
	return 0;
}

/* Append id to the ids of the chunk's stacks. */
static int push(flame__jfr_names *e, uint32_t id)
{
	if (flame__array_reserve_min(e->ids, e->ids_cap, e->nids + 1, 1024))
		return -1;
	e->ids[e->nids++] = id;
	return 0;
}

/* A frame as the text reader names the line jfr print writes for it:
 * "pkg.Class.method(Params) line: N", cut per the options. */
static uint32_t frame_id(flame__jfr_names *e, const flame__jfr_ment *m, int64_t line)
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
		return flame__sink_intern(e->k, t, base);
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
	return flame__sink_intern(e->k, e->name, n);
}

/* One element of the frames array at cur: its id pushed onto e->frames (leaf first),
 * unless jfr print leaves it out (a hidden method, a frame not Java). */
static int frame(flame__jfr_names *e, const flame__jfr_field *ff, flame__jfr_cur *cur,
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
	if (at[2] && flame__jfr_field_int(c, &c->fld[f[2]], at[2], 1) == 0)
		return 0;
	const flame__jfr_ment *m = NULL;
	if (at[0] && c->fld[f[0]].cp && !c->fld[f[0]].array) {
		flame__jfr_cur k = flame__jfr_at(c, (size_t)(at[0] - c->b));
		uint64_t key = flame__jfr_u64(&k);
		int rc = method(e, c->fld[f[0]].type, key, &m, err);
		if (rc)
			return rc;
	}
	if (!m || m->hidden)
		return 0;
	uint32_t id = frame_id(e, m, at[1] ? flame__jfr_field_int(c, &c->fld[f[1]], at[1], -1) : -1);
	if (id == FLAME__ID_NONE || flame__array_reserve_min(e->frames, e->frames_cap, *nf + 1, 256))
		return flame__err_nomem(err);
	e->frames[(*nf)++] = id;
	return 0;
}

/* Where the constant `key` of class `cls` of the chunk is: its own pools, else the chunk
 * before's when that has a class of the same id and name. The chunk holding it (NULL:
 * neither), its class there in *kcls, a cursor at its value in *cur. */
static flame__jfr_chunk *find(flame__jfr_names *e, uint32_t cls, uint64_t key, uint32_t *kcls,
                              flame__jfr_cur *cur)
{
	flame__jfr_chunk *c = e->c, *p = c->prev;
	*kcls = cls;
	if (!flame__jfr_constant(c, cls, key, cur))
		return c;
	if (!p)
		return NULL;
	uint32_t k = flame__jfr_class_of(p, c->cls[cls].id);
	if (k == UINT32_MAX || p->cls[k].kind != c->cls[cls].kind ||
	    strcmp(flame__jfr_name(p, p->cls[k].name), flame__jfr_name(c, c->cls[cls].name)) != 0 ||
	    flame__jfr_constant(p, k, key, cur))
		return NULL;
	*kcls = k;
	return p;
}

/* The frames of the stack trace of class `cls` at cur (of chunk e->c) onto e->frames,
 * leaf first: how many in *nf, whether the recorder cut it in *truncated. */
static int frames(flame__jfr_names *e, uint32_t cls, flame__jfr_cur cur, size_t *nf,
                  uint32_t *truncated, flame_err *err)
{
	flame__jfr_chunk *c = e->c;
	static const char *const names[] = {"truncated", "frames"};
	const uint8_t *at[2] = {NULL, NULL};
	uint32_t f[2] = {0, 0};
	int rc = 0;
	if (c->cls[cls].kind == FLAME__JFR_STRUCT && locate(c, &cur, cls, names, 2, at, f))
		return flame__jfr_bad(c, cur.p, err, "a stack trace runs past its constant pool");
	const flame__jfr_field *ff = at[1] ? &c->fld[f[1]] : NULL;
	if (ff && ff->array) {
		cur = flame__jfr_at(c, (size_t)(at[1] - c->b));
		uint64_t n = flame__jfr_int(&cur);
		if (n > flame__jfr_left(&cur))
			cur.bad = 1, n = 0;
		for (uint64_t i = 0; i < n && !rc; i++)
			rc = frame(e, ff, &cur, nf, err);
		if (rc == BAD || cur.bad)
			return flame__jfr_bad(c, at[1], err, "a stack trace's frames are damaged");
		if (rc)
			return rc;
	}
	*truncated = at[0] && flame__jfr_field_int(c, &c->fld[f[0]], at[0], 0) != 0;
	return 0;
}

/* The stack trace constant `key` of class `cls`: its frames' ids, root first (behind a
 * `[truncated]` frame when the recorder cut it), in e->ids, as a sent. */
int flame__jfr_stack(flame__jfr_names *e, uint32_t cls, uint64_t key,
                     const flame__jfr_sent **out, flame_err *err)
{
	int64_t got = flame__jfr_map_get(&e->cache, C_STACK, key);
	if (got >= 0)
		return *out = &e->stk[got], 0;
	flame__jfr_chunk *own = e->c;
	flame__jfr_cur cur;
	uint32_t kcls;
	flame__jfr_chunk *in = find(e, cls, key, &kcls, &cur);
	flame__jfr_sent s = {(uint32_t)e->nids, 0, 0,
	                     !in ? FLAME__JFR_NONE : in == own ? FLAME__JFR_OWN : FLAME__JFR_PREV};
	size_t nf = 0;
	if (in) { /* decoded in the chunk that holds it, its methods cached apart */
		e->c = in;
		e->mkind = in == own ? C_METHOD : C_PMETHOD;
		int rc = frames(e, kcls, cur, &nf, &s.truncated, err);
		e->c = own;
		e->mkind = C_METHOD;
		if (rc)
			return rc;
	}
	if (s.truncated && nf) {
		if (e->truncated_id == FLAME__ID_NONE &&
		    (e->truncated_id = flame__sink_intern(e->k, "[truncated]", 11)) == FLAME__ID_NONE)
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

/* The name of the thread of class `cls` at cur in chunk c, as jfr print shows it: the
 * Java name for a Java thread, else the OS one. */
static void thread_name(flame__jfr_chunk *c, uint32_t cls, flame__jfr_cur cur, const char **p,
                        size_t *n)
{
	static const char *const names[] = {"javaName", "javaThreadId", "osName"};
	const uint8_t *at[3] = {NULL, NULL, NULL};
	uint32_t f[3];
	if (c->cls[cls].kind != FLAME__JFR_STRUCT || locate(c, &cur, cls, names, 3, at, f))
		return;
	int java = at[1] && flame__jfr_field_int(c, &c->fld[f[1]], at[1], 0) > 0;
	int k = java ? 0 : 2;
	if (!at[k] || field_string(c, &c->fld[f[k]], at[k], p, n) <= 0)
		*p = "null", *n = 4;
}

/* The thread constant `key` of class `cls` by the name jfr print shows; "N/A" when there
 * is none. */
uint32_t flame__jfr_thread(flame__jfr_names *e, uint32_t cls, uint64_t key, uint32_t *from)
{
	for (uint32_t k = C_THREAD; k <= C_THREAD_NONE; k++) {
		int64_t got = flame__jfr_map_get(&e->cache, k, key);
		if (got >= 0)
			return *from = k - C_THREAD, (uint32_t)got;
	}
	flame__jfr_cur cur;
	uint32_t kcls;
	flame__jfr_chunk *in = find(e, cls, key, &kcls, &cur);
	const char *p = "N/A";
	size_t n = 3;
	if (in)
		thread_name(in, kcls, cur, &p, &n);
	*from = !in ? FLAME__JFR_NONE : in == e->c ? FLAME__JFR_OWN : FLAME__JFR_PREV;
	uint32_t id = flame__sink_intern(e->k, p, n);
	if (id != FLAME__ID_NONE && flame__jfr_map_put(&e->cache, C_THREAD + *from, key, id))
		return FLAME__ID_NONE;
	return id;
}
