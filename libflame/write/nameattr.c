/* flamegraph.pl's --nameattr file: lines `NAME<TAB>attr=value<TAB>...`, read the way
 * every input is (core/input + core/lines: gzip accepted, its limits, errors naming
 * file:line), into a map name -> attributes that svg.c looks frames up in. What may be
 * written (event handlers, script URLs) is svg.c's decision, not the reader's. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/intern.h"
#include "../core/lines.h"
#include "nameattr.h"

struct flame_nameattr {
	flame__intern names;           /* id -> name */
	flame__nameattr_entry *v;      /* id -> its attributes */
	size_t cap;
};

const flame__nameattr_entry *flame__nameattr_find(const flame_nameattr *na, const char *name,
                                                  size_t len)
{
	uint32_t id = na ? flame__intern_find(&na->names, name, len) : FLAME__ID_NONE;
	return id == FLAME__ID_NONE ? NULL : &na->v[id];
}

void flame_nameattr_free(flame_nameattr *na)
{
	if (!na)
		return;
	for (size_t i = 0; i < na->names.count; i++) {
		for (size_t k = 0; k < na->v[i].n; k++) {
			free(na->v[i].attrs[k].key);
			free(na->v[i].attrs[k].value);
		}
		free(na->v[i].attrs);
	}
	free(na->v);
	flame__intern_free(&na->names);
	free(na);
}

/* key=value into `e`: a key given again replaces its value, as in flamegraph.pl's hash. */
static int set_attr(flame__nameattr_entry *e, const char *k, size_t kn, const char *v, size_t vn)
{
	char *key = strndup(k, kn), *value = strndup(v, vn);
	if (!key || !value) {
		free(key);
		free(value);
		return FLAME_ENOMEM;
	}
	for (size_t i = 0; i < e->n; i++)
		if (strcmp(e->attrs[i].key, key) == 0) {
			free(e->attrs[i].value);
			free(key);
			e->attrs[i].value = value;
			return 0;
		}
	if (flame__array_reserve_min(e->attrs, e->cap, e->n + 1, 4)) {
		free(key);
		free(value);
		return FLAME_ENOMEM;
	}
	e->attrs[e->n++] = (flame__nameattr_pair){key, value};
	return 0;
}

static int read_line(void *ud, const char *line, size_t len, const flame__lines *c,
                     flame_err *err)
{
	flame_nameattr *na = ud;
	const char *tab = memchr(line, '\t', len), *end = line + len;
	if (!tab)
		return flame__err(err, FLAME_EDATA, flame__lines_source(c), c->line_no,
		                  FLAME__NO_OFFSET, "expected NAME<TAB>attr=value...");
	uint32_t had = na->names.count, id = FLAME__ID_NONE;
	if (!flame__array_reserve(na->v, na->cap, (size_t)had + 1))
		id = flame__intern_put(&na->names, line, (size_t)(tab - line));
	if (id == FLAME__ID_NONE)
		return flame__err_nomem(err);
	flame__nameattr_entry *e = &na->v[id];
	if (id == had)
		*e = (flame__nameattr_entry){NULL, 0, 0};
	for (const char *p = tab + 1; p <= end; ) { /* attr=value fields; others are skipped */
		const char *stop = memchr(p, '\t', (size_t)(end - p));
		if (!stop)
			stop = end;
		const char *eq = memchr(p, '=', (size_t)(stop - p));
		if (eq && eq > p && set_attr(e, p, (size_t)(eq - p), eq + 1, (size_t)(stop - eq - 1)))
			return flame__err_nomem(err);
		p = stop + 1;
	}
	return 0;
}

int flame_nameattr_new(flame_nameattr **out, const char *path, flame_err *err)
{
	*out = NULL;
	flame_nameattr *na = calloc(1, sizeof *na);
	if (!na)
		return flame__err_nomem(err);
	flame__intern_init(&na->names);
	int rc = flame__lines_read_file(path, read_line, na, err);
	if (rc < 0) {
		flame_nameattr_free(na);
		return rc;
	}
	*out = na;
	return 0;
}
