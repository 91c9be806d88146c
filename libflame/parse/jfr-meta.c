/* A chunk's metadata event (see jfr-bin.h): a table of strings, then a tree of elements
 * named by them, each with attributes and children. The `class` elements are the types
 * (id, name), their `field` children the fields in the order values are written (name,
 * type id, constantPool, dimension); everything else (annotations, settings, regions) is
 * passed over. Read into the chunk's classes, sorted by id, with their fields together. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "jfr-bin.h"

enum { MAX_DEPTH = 32 };

/* The metadata's strings into c->text, each NUL-terminated (a NUL inside one ends it:
 * names never hold one). */
static int strings(flame__jfr_chunk *c, flame__jfr_cur *cur, flame_err *err)
{
	const uint8_t *at = cur->p;
	uint64_t n = flame__jfr_int(cur);
	if (cur->bad || n > flame__jfr_left(cur))
		return flame__jfr_bad(c, at, err, "the metadata claims more strings than its bytes");
	c->nstrs = c->text_len = 0;
	if (flame__array_reserve_min(c->strs, c->strs_cap, n + 1, 256))
		return flame__err_nomem(err);
	for (uint64_t i = 0; i < n; i++) {
		const char *p;
		size_t len;
		at = cur->p;
		if (flame__jfr_string(c, cur, &p, &len) < 0 || len > UINT32_MAX / 2)
			return flame__jfr_bad(c, at, err, "a metadata string is not one");
		if (flame__array_reserve_min(c->text, c->text_cap, c->text_len + len + 1, 4096) ||
		    c->text_len + len + 1 > UINT32_MAX)
			return flame__err_nomem(err);
		memcpy(c->text + c->text_len, p, len);
		c->text[c->text_len + len] = '\0';
		c->strs[c->nstrs++] = (uint32_t)c->text_len;
		c->text_len += len + 1;
	}
	return 0;
}

static uint64_t number(const char *s)
{
	uint64_t v = 0;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	return v;
}

typedef struct elem {
	const char *name;
	uint32_t a_name, a_id, a_class; /* string offsets of attributes (UINT32_MAX: absent) */
	int cp, array;
} elem;

/* An element's name and the attributes we read. */
static int attributes(flame__jfr_chunk *c, flame__jfr_cur *cur, elem *e, flame_err *err)
{
	const uint8_t *at = cur->p;
	uint64_t name = flame__jfr_int(cur), n = flame__jfr_int(cur);
	if (cur->bad || name >= c->nstrs || n > flame__jfr_left(cur))
		return flame__jfr_bad(c, at, err, "a metadata element is damaged");
	*e = (elem){c->text + c->strs[name], UINT32_MAX, UINT32_MAX, UINT32_MAX, 0, 0};
	for (uint64_t i = 0; i < n; i++) {
		uint64_t k = flame__jfr_int(cur), v = flame__jfr_int(cur);
		if (cur->bad || k >= c->nstrs || v >= c->nstrs)
			return flame__jfr_bad(c, at, err, "a metadata attribute names no string");
		const char *key = c->text + c->strs[k], *val = c->text + c->strs[v];
		if (strcmp(key, "name") == 0)
			e->a_name = c->strs[v];
		else if (strcmp(key, "id") == 0)
			e->a_id = c->strs[v];
		else if (strcmp(key, "class") == 0)
			e->a_class = c->strs[v];
		else if (strcmp(key, "constantPool") == 0)
			e->cp = strcmp(val, "true") == 0;
		else if (strcmp(key, "dimension") == 0)
			e->array = strcmp(val, "0") != 0;
	}
	return 0;
}

static int add(flame__jfr_chunk *c, const elem *e, uint32_t owner, uint32_t *cls)
{
	uint32_t name = e->a_name == UINT32_MAX ? c->strs[0] : e->a_name;
	if (strcmp(e->name, "class") == 0 && e->a_id != UINT32_MAX) {
		if (flame__array_reserve_min(c->cls, c->cls_cap, c->ncls + 1, 256))
			return -1;
		c->cls[c->ncls] = (flame__jfr_class){number(c->text + e->a_id), name,
		                                     (uint32_t)strlen(c->text + name), 0, 0, 0, 0};
		*cls = (uint32_t)c->ncls++;
	} else if (strcmp(e->name, "field") == 0 && owner != UINT32_MAX && e->a_class != UINT32_MAX) {
		if (flame__array_reserve_min(c->fld, c->fld_cap, c->nfld + 1, 1024))
			return -1;
		c->fld[c->nfld++] = (flame__jfr_field){name, (uint32_t)strlen(c->text + name), 0, owner,
		                                       number(c->text + e->a_class), (uint8_t)e->cp,
		                                       (uint8_t)e->array, 0};
	}
	return 0;
}

/* An element and its children; `owner`: the class a field child belongs to. */
static int element(flame__jfr_chunk *c, flame__jfr_cur *cur, uint32_t owner, int depth,
                   flame_err *err)
{
	const uint8_t *at = cur->p;
	elem e;
	if (depth > MAX_DEPTH)
		return flame__jfr_bad(c, at, err, "metadata elements nest too deep");
	int rc = attributes(c, cur, &e, err);
	if (rc)
		return rc;
	uint32_t cls = UINT32_MAX;
	if (c->nstrs && add(c, &e, owner, &cls))
		return flame__err_nomem(err);
	uint64_t n = flame__jfr_int(cur);
	if (cur->bad || n > flame__jfr_left(cur))
		return flame__jfr_bad(c, at, err, "a metadata element claims more children than its bytes");
	for (uint64_t i = 0; i < n; i++)
		if ((rc = element(c, cur, cls, depth + 1, err)))
			return rc;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const flame__jfr_class *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static uint8_t kind_of(const char *name)
{
	static const struct { const char *n; uint8_t k; } prims[] = {
		{"boolean", FLAME__JFR_BYTE}, {"byte", FLAME__JFR_BYTE}, {"char", FLAME__JFR_SHORT},
		{"short", FLAME__JFR_SHORT}, {"int", FLAME__JFR_INT}, {"long", FLAME__JFR_LONG},
		{"float", FLAME__JFR_FLOAT}, {"double", FLAME__JFR_DOUBLE},
		{"java.lang.String", FLAME__JFR_STRING}};
	for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
		if (strcmp(name, prims[i].n) == 0)
			return prims[i].k;
	return FLAME__JFR_STRUCT;
}

/* Classes sorted by id (each once), their fields resolved and grouped by class. */
static int link(flame__jfr_chunk *c, const uint8_t *at, flame_err *err)
{
	uint32_t *perm = malloc((c->ncls + 1) * sizeof *perm);
	flame__jfr_field *f = malloc((c->nfld + 1) * sizeof *f);
	if (!perm || !f)
		return free(perm), free(f), flame__err_nomem(err);
	for (size_t i = 0; i < c->ncls; i++)
		c->cls[i].field0 = (uint32_t)i; /* the old index, for perm */
	flame__sort(c->cls, c->ncls, sizeof *c->cls, by_id);
	int rc = 0;
	for (size_t i = 0; i < c->ncls; i++) {
		perm[c->cls[i].field0] = (uint32_t)i;
		c->cls[i].kind = kind_of(c->text + c->cls[i].name);
		c->cls[i].field0 = c->cls[i].nfields = 0;
		if (i && c->cls[i].id == c->cls[i - 1].id)
			rc = flame__jfr_bad(c, at, err, "the metadata declares a class id twice");
	}
	for (size_t i = 0; i < c->nfld && !rc; i++) {
		c->fld[i].owner = perm[c->fld[i].owner];
		c->fld[i].type = flame__jfr_class_of(c, c->fld[i].tid);
		c->cls[c->fld[i].owner].nfields++;
		if (c->fld[i].type == UINT32_MAX)
			rc = flame__jfr_bad(c, at, err, "a field's type is no class of the metadata");
	}
	uint32_t next = 0; /* a counting sort by owner, keeping each class's order of fields */
	for (size_t i = 0; i < c->ncls; i++) {
		c->cls[i].field0 = next;
		next += c->cls[i].nfields;
		c->cls[i].nfields = 0;
	}
	for (size_t i = 0; i < c->nfld && !rc; i++) {
		flame__jfr_class *k = &c->cls[c->fld[i].owner];
		f[k->field0 + k->nfields++] = c->fld[i];
	}
	if (!rc)
		flame__copy(c->fld, f, c->nfld * sizeof *f);
	free(perm);
	free(f);
	return rc;
}

/* What lets a value be skipped or a class found without a search: each field's fast way,
 * and the classes by id when their ids are small (the JDK's are). */
static int shortcuts(flame__jfr_chunk *c, flame_err *err)
{
	for (size_t i = 0; i < c->nfld; i++) {
		flame__jfr_field *f = &c->fld[i];
		uint8_t k = c->cls[f->type].kind;
		f->fast = f->array ? FLAME__JFR_FAST_NONE
		          : k == FLAME__JFR_BYTE ? FLAME__JFR_FAST_BYTE
		          : c->compressed && (f->cp || (k >= FLAME__JFR_SHORT && k <= FLAME__JFR_LONG))
		              ? FLAME__JFR_FAST_VARINT
		              : FLAME__JFR_FAST_NONE;
		if (f->cp && f->fast == FLAME__JFR_FAST_BYTE)
			f->fast = c->compressed ? FLAME__JFR_FAST_VARINT : FLAME__JFR_FAST_NONE;
	}
	for (size_t i = 0; i < c->ncls; i++) { /* (a stack trace's frames are such structs) */
		flame__jfr_class *k = &c->cls[i];
		k->nvarint = k->kind == FLAME__JFR_STRUCT ? k->nfields : 0;
		for (uint32_t j = 0; j < k->nfields && k->nvarint; j++)
			if (c->fld[k->field0 + j].fast != FLAME__JFR_FAST_VARINT)
				k->nvarint = 0;
	}
	c->nby_id = 0;
	uint64_t top = c->ncls ? c->cls[c->ncls - 1].id + 1 : 0;
	if (top > 65536)
		return 0; /* ids too large for a table: searched */
	if (flame__array_reserve_min(c->by_id, c->by_id_cap, (size_t)top + 1, 256))
		return flame__err_nomem(err);
	memset(c->by_id, 0xff, (size_t)top * sizeof *c->by_id);
	for (size_t i = 0; i < c->ncls; i++)
		c->by_id[c->cls[i].id] = (uint32_t)i;
	c->nby_id = (size_t)top;
	return 0;
}

int flame__jfr_meta_read(flame__jfr_chunk *c, uint64_t meta, flame_err *err)
{
	if (meta < FLAME__JFR_HEADER || meta >= c->n)
		return flame__jfr_bad(c, c->b, err, "the chunk's metadata lies outside it");
	flame__jfr_cur cur = flame__jfr_at(c, (size_t)meta);
	const uint8_t *at = cur.p;
	uint64_t size = flame__jfr_int(&cur);
	uint64_t type = flame__jfr_u64(&cur);
	if (cur.bad || type != 0 || size < 2 || size > c->n - meta)
		return flame__jfr_bad(c, at, err, "no metadata event where the chunk says it is");
	cur.end = at + size;
	if (c->meta_len == size && c->meta_compressed == c->compressed &&
	    memcmp(c->meta, at, (size_t)size) == 0)
		return 0; /* the classes read last time */
	c->meta_len = 0;
	flame__jfr_u64(&cur); /* start time */
	flame__jfr_u64(&cur); /* duration */
	flame__jfr_u64(&cur); /* metadata id */
	c->ncls = c->nfld = 0;
	c->string_cls = UINT32_MAX;
	int rc = strings(c, &cur, err);
	c->nby_id = 0; /* the classes change */
	if (rc || (rc = element(c, &cur, UINT32_MAX, 0, err)) || (rc = link(c, at, err)) ||
	    (rc = shortcuts(c, err)))
		return rc;
	for (size_t i = 0; i < c->ncls; i++)
		if (c->cls[i].kind == FLAME__JFR_STRING)
			c->string_cls = (uint32_t)i;
	if (flame__array_reserve_min(c->meta, c->meta_cap, (size_t)size, 4096))
		return flame__err_nomem(err);
	memcpy(c->meta, at, (size_t)size);
	c->meta_len = (size_t)size;
	c->meta_compressed = c->compressed;
	return 0;
}
