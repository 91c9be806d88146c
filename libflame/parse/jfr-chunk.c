/* One chunk of a binary JFR recording made readable (see jfr-bin.h): its metadata event
 * (the classes, with their fields in the order their values are written), its checkpoint
 * events (several per chunk, linked backwards from the header's offset, each holding
 * pools of constants of several types, a type in several of them), values skipped by the
 * declared type of their field (so a field a newer JDK adds is passed over, not misread),
 * and strings in their six encodings. Nothing here decodes a constant: the pools remember
 * where each value lies, and the events reader (jfr-events.c) reads the few it needs. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "jfr-bin.h"

enum { MAX_DEPTH = 32 }; /* classes nested in values, elements in the metadata */

/* ---- the map ---- */

int flame__jfr_map_put(flame__jfr_map *m, uint32_t cls, uint64_t key, uint32_t val)
{
	if ((m->n + 1) * 2 > (m->slots ? m->mask + 1 : 0) &&
	    flame__slots_resize(&m->slots, &m->mask, m->slots ? (m->mask + 1) * 2 : 64))
		return -1;
	uint32_t h = flame__jfr_hash(cls, key);
	flame__jfr_probe q = {m->e, cls, key};
	size_t i = flame__slots_probe(m->slots, m->mask, h, flame__jfr_eq, &q);
	if (m->slots[i]) {
		m->e[flame__slot_entry(m->slots[i])].val = val;
		return 0;
	}
	if (flame__array_reserve_min(m->e, m->cap, m->n + 1, 64))
		return -1;
	m->e[m->n] = (flame__jfr_ent){key, cls, val};
	m->slots[i] = flame__slot_make(h, (uint32_t)m->n++);
	return 0;
}

void flame__jfr_map_clear(flame__jfr_map *m)
{
	if (m->slots)
		memset(m->slots, 0, (m->mask + 1) * sizeof *m->slots);
	m->n = 0;
}

void flame__jfr_map_free(flame__jfr_map *m)
{
	free(m->e);
	free(m->slots);
	memset(m, 0, sizeof *m);
}

void flame__jfr_chunk_free(flame__jfr_chunk *c)
{
	free(c->text);
	free(c->strs);
	free(c->cls);
	free(c->fld);
	free(c->by_id);
	free(c->sbuf);
	free(c->meta);
	flame__jfr_map_free(&c->pool);
	memset(c, 0, sizeof *c);
}

int flame__jfr_bad(flame__jfr_chunk *c, const uint8_t *p, flame_err *err, const char *what)
{
	return flame__err(err, FLAME_EDATA, c->src, 0, flame__jfr_off(c, p),
	                  "damaged JFR recording: %s", what);
}

/* ---- strings ---- */

static int sbuf_put(flame__jfr_chunk *c, size_t at, uint32_t cp)
{
	if (flame__array_reserve_min(c->sbuf, c->sbuf_cap, at + 4, 256))
		return -1;
	uint8_t *o = (uint8_t *)c->sbuf + at;
	if (cp < 0x80)
		return o[0] = (uint8_t)cp, 1;
	if (cp < 0x800)
		return o[0] = (uint8_t)(0xc0 | cp >> 6), o[1] = (uint8_t)(0x80 | (cp & 0x3f)), 2;
	if (cp < 0x10000) {
		o[0] = (uint8_t)(0xe0 | cp >> 12);
		o[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (uint8_t)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (uint8_t)(0xf0 | cp >> 18);
	o[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (uint8_t)(0x80 | (cp & 0x3f));
	return 4;
}

/* Java chars (UTF-16 units; a lone surrogate becomes '?', as String.getBytes makes it) or
 * Latin-1 bytes, as UTF-8 in sbuf. */
static int widen(flame__jfr_chunk *c, flame__jfr_cur *cur, uint64_t len, int latin1, size_t *n)
{
	size_t at = 0;
	for (uint64_t i = 0; i < len && !cur->bad; i++) {
		uint32_t u = latin1 ? flame__jfr_u8(cur) : (uint32_t)(uint16_t)flame__jfr_long(cur, 2);
		if (u >= 0xd800 && u < 0xdc00 && i + 1 < len) {
			flame__jfr_cur peek = *cur;
			uint32_t lo = (uint16_t)flame__jfr_long(&peek, 2);
			if (lo >= 0xdc00 && lo < 0xe000) {
				*cur = peek;
				i++;
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			}
		}
		if (u >= 0xd800 && u < 0xe000)
			u = '?';
		int k = sbuf_put(c, at, u);
		if (k < 0)
			return -2;
		at += (size_t)k;
	}
	*n = at;
	return cur->bad ? -1 : 0;
}

static int string_at(flame__jfr_chunk *c, flame__jfr_cur *cur, const char **p, size_t *n,
                     int depth)
{
	uint8_t enc = flame__jfr_u8(cur);
	uint64_t len;
	*p = "";
	*n = 0;
	switch (enc) {
	case 0:
		return cur->bad ? -1 : 0;
	case 1:
		return cur->bad ? -1 : 1;
	case 2: { /* a java.lang.String constant, itself written out (no chains of them) */
		uint64_t key = flame__jfr_u64(cur);
		flame__jfr_cur k;
		if (cur->bad || depth || flame__jfr_constant(c, c->string_cls, key, &k))
			return -1;
		return string_at(c, &k, p, n, 1);
	}
	case 3:
	case 5:
		len = flame__jfr_int(cur);
		if (cur->bad || len > flame__jfr_left(cur))
			return -1;
		*p = (const char *)cur->p;
		*n = (size_t)len;
		for (size_t i = 0; enc == 5 && i < len; i++)
			if (cur->p[i] >= 0x80) { /* Latin-1 beyond ASCII: to UTF-8 */
				int rc = widen(c, cur, len, 1, n);
				*p = c->sbuf;
				return rc ? rc : 1;
			}
		cur->p += len;
		return 1;
	case 4:
		len = flame__jfr_int(cur);
		if (cur->bad || len > flame__jfr_left(cur))
			return -1;
		int rc = widen(c, cur, len, 0, n);
		*p = c->sbuf ? c->sbuf : "";
		return rc ? rc : 1;
	default:
		return -1;
	}
}

int flame__jfr_string(flame__jfr_chunk *c, flame__jfr_cur *cur, const char **p, size_t *n)
{
	return string_at(c, cur, p, n, 0);
}

static int skip_string(flame__jfr_cur *cur)
{
	uint8_t enc = flame__jfr_u8(cur);
	uint64_t len;
	switch (enc) {
	case 0:
	case 1:
		break;
	case 2:
		flame__jfr_u64(cur);
		break;
	case 3:
	case 5:
		flame__jfr_skip(cur, flame__jfr_int(cur));
		break;
	case 4:
		len = flame__jfr_int(cur);
		if (len > flame__jfr_left(cur))
			return -1;
		for (uint64_t i = 0; i < len && !cur->bad; i++)
			flame__jfr_long(cur, 2);
		break;
	default:
		return -1;
	}
	return cur->bad ? -1 : 0;
}

/* ---- values ---- */

static int skip_value(flame__jfr_chunk *c, flame__jfr_cur *cur, uint32_t cls, int depth);

static int skip_one(flame__jfr_chunk *c, flame__jfr_cur *cur, const flame__jfr_field *f,
                    int depth)
{
	if (f->cp) {
		flame__jfr_u64(cur);
		return cur->bad ? -1 : 0;
	}
	return skip_value(c, cur, f->type, depth);
}

/* n LEB128 integers of 9 bytes at most (the 9th taken whole). */
static int skip_varints(flame__jfr_cur *cur, uint64_t n)
{
	const uint8_t *p = cur->p, *end = cur->end;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *stop = end - p > 8 ? p + 8 : end;
		while (p < stop && (*p & 0x80))
			p++;
		if (p == end)
			return cur->p = end, cur->bad = 1, -1;
		p++;
	}
	cur->p = p;
	return 0;
}

static int skip_in(flame__jfr_chunk *c, flame__jfr_cur *cur, const flame__jfr_field *f, int depth)
{
	if (!f->array)
		return skip_one(c, cur, f, depth);
	uint64_t n = flame__jfr_int(cur);
	if (cur->bad || n > flame__jfr_left(cur))
		return cur->bad = 1, -1;
	uint32_t nv = f->cp ? 0 : c->cls[f->type].nvarint;
	if (nv) { /* structs of integers and keys (a stack trace's frames): no call each */
		if (c->budget < n)
			return -1;
		c->budget -= n;
		return skip_varints(cur, n * nv);
	}
	for (uint64_t i = 0; i < n; i++)
		if (skip_one(c, cur, f, depth))
			return -1;
	return 0;
}

static int skip_value(flame__jfr_chunk *c, flame__jfr_cur *cur, uint32_t cls, int depth)
{
	if (depth > MAX_DEPTH || c->budget == 0)
		return -1;
	c->budget--;
	const flame__jfr_class *k = &c->cls[cls];
	switch (k->kind) {
	case FLAME__JFR_BYTE: flame__jfr_skip(cur, 1); break;
	case FLAME__JFR_SHORT: flame__jfr_long(cur, 2); break;
	case FLAME__JFR_INT: flame__jfr_long(cur, 4); break;
	case FLAME__JFR_LONG: flame__jfr_long(cur, 8); break;
	case FLAME__JFR_FLOAT: flame__jfr_skip(cur, 4); break;
	case FLAME__JFR_DOUBLE: flame__jfr_skip(cur, 8); break;
	case FLAME__JFR_STRING: return skip_string(cur);
	default:
		for (uint32_t i = 0; i < k->nfields; i++) {
			const flame__jfr_field *f = &c->fld[k->field0 + i];
			if (f->fast == FLAME__JFR_FAST_VARINT) { /* a key or an integer: the common case */
				size_t left = flame__jfr_left(cur), max = left < 9 ? left : 9, n = 0;
				while (n < max && (cur->p[n] & 0x80))
					n++;
				if (n == 9 || n < max) /* 9 bytes: the last one taken whole */
					cur->p += n == 9 ? 9 : n + 1;
				else
					cur->p = cur->end, cur->bad = 1;
			} else if (f->fast == FLAME__JFR_FAST_BYTE) {
				flame__jfr_skip(cur, 1);
			} else if (skip_in(c, cur, f, depth + 1)) {
				return -1;
			}
		}
	}
	return cur->bad ? -1 : 0;
}

int flame__jfr_skip_field(flame__jfr_chunk *c, flame__jfr_cur *cur, const flame__jfr_field *f)
{
	return skip_in(c, cur, f, 0);
}

int flame__jfr_constant(const flame__jfr_chunk *c, uint32_t cls, uint64_t key,
                        flame__jfr_cur *out)
{
	int64_t off = cls == UINT32_MAX ? -1 : flame__jfr_map_get(&c->pool, cls, key);
	if (off < 0)
		return -1;
	*out = flame__jfr_at(c, (size_t)off);
	return 0;
}

/* ---- classes ---- */

uint32_t flame__jfr_class_search(const flame__jfr_chunk *c, uint64_t id)
{
	size_t lo = 0, hi = c->ncls;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->cls[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->ncls && c->cls[lo].id == id ? (uint32_t)lo : UINT32_MAX;
}

uint32_t flame__jfr_field_of(const flame__jfr_chunk *c, uint32_t cls, const char *name)
{
	const flame__jfr_class *k = &c->cls[cls];
	for (uint32_t i = 0; i < k->nfields; i++)
		if (strcmp(c->text + c->fld[k->field0 + i].name, name) == 0)
			return k->field0 + i;
	return UINT32_MAX;
}

/* ---- the checkpoint events ---- */

/* One pool: its type, its constants, each remembered by where its value is. */
static int pool(flame__jfr_chunk *c, flame__jfr_cur *cur, flame_err *err)
{
	const uint8_t *at = cur->p;
	uint32_t cls = flame__jfr_class_of(c, flame__jfr_u64(cur));
	uint64_t count = flame__jfr_int(cur);
	if (cur->bad || count > flame__jfr_left(cur))
		return flame__jfr_bad(c, at, err, "a constant pool runs past its checkpoint event");
	if (cls == UINT32_MAX)
		return flame__jfr_bad(c, at, err, "a constant pool of a type the metadata does not declare");
	for (uint64_t i = 0; i < count; i++) {
		uint64_t key = flame__jfr_u64(cur);
		const uint8_t *v = cur->p;
		if (cur->bad || skip_value(c, cur, cls, 0))
			return flame__jfr_bad(c, v, err, c->budget ? "a constant runs past its checkpoint event"
			                                : "constants nest beyond what their bytes hold");
		if (flame__jfr_map_put(&c->pool, cls, key, (uint32_t)(v - c->b)))
			return flame__err_nomem(err);
	}
	return 0;
}

/* The checkpoint event at `off`: its pools, and the offset of the one before (0: none). */
static int checkpoint(flame__jfr_chunk *c, uint64_t off, uint64_t *prev, flame_err *err)
{
	flame__jfr_cur cur = flame__jfr_at(c, (size_t)off);
	uint64_t size = flame__jfr_int(&cur);
	uint64_t type = flame__jfr_u64(&cur);
	if (cur.bad || type != 1 || size < 2 || size > c->n - off)
		return flame__jfr_bad(c, c->b + off, err, "no checkpoint event where the chunk says one is");
	cur.end = c->b + off + size;
	flame__jfr_u64(&cur); /* start time */
	flame__jfr_u64(&cur); /* duration */
	int64_t delta = (int64_t)flame__jfr_u64(&cur);
	flame__jfr_u8(&cur); /* its kind (flush, header...) */
	uint64_t npools = flame__jfr_int(&cur);
	if (cur.bad || npools > flame__jfr_left(&cur))
		return flame__jfr_bad(c, c->b + off, err, "a checkpoint event claims more pools than its bytes");
	for (uint64_t i = 0; i < npools; i++) {
		int rc = pool(c, &cur, err);
		if (rc)
			return rc;
	}
	/* they are linked backwards: a link forward or in place would go round for ever */
	if (delta != 0 && (delta > 0 || (uint64_t)-delta > off - FLAME__JFR_HEADER))
		return flame__jfr_bad(c, c->b + off, err, "a checkpoint event links to one not before it "
		                               "(cyclic constant pools)");
	*prev = delta ? off - (uint64_t)-delta : 0;
	return 0;
}

int flame__jfr_chunk_load(flame__jfr_chunk *c, uint64_t meta, uint64_t cpool, flame_err *err)
{
	c->budget = (uint64_t)c->n * 16 + 4096;
	flame__jfr_map_clear(&c->pool);
	int rc = flame__jfr_meta_read(c, meta, err);
	for (uint64_t off = cpool; rc == 0 && off;) {
		if (off < FLAME__JFR_HEADER || off >= c->n)
			return flame__jfr_bad(c, c->b, err, "the chunk's constant pools lie outside it");
		rc = checkpoint(c, off, &off, err);
	}
	return rc;
}
