/* The frames of the stack an offcpu or jfr reader is reading (see frame-region.h): the
 * pending lines interned line by line through the reader's callback, or, for a whole
 * stack, taken from the cache of stacks already seen. Called when a stack ends and
 * before a chunk goes away; what runs per line is inline in the header. */
#include <stdlib.h>
#include <string.h>
#include "frame-region.h"

/* Beyond this many bytes of remembered stacks the cache declines new ones, so memory
 * stays bounded on inputs of many distinct stacks. */
enum { REGION_CACHE_LIMIT = 64 << 20 };

void flame__region_init(flame__region *r, flame__frame_line_fn line, void *ctx)
{
	memset(r, 0, sizeof *r);
	flame__idcache_init(&r->cache, REGION_CACHE_LIMIT);
	r->line = line;
	r->ctx = ctx;
}

void flame__region_free(flame__region *r)
{
	free(r->ids);
	flame__idcache_free(&r->cache);
	memset(r, 0, sizeof *r);
}

int flame__region_flush(flame__region *r, flame_err *err)
{
	if (r->len == 0)
		return 0;
	const char *q = r->p, *end = r->p + r->len;
	r->len = 0;
	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		size_t n = (size_t)((nl ? nl : end) - q);
		if (n && q[n - 1] == '\r')
			n--;
		int rc = r->line(r->ctx, q, n, err);
		if (rc)
			return rc;
		q = nl ? nl + 1 : end;
	}
	return 0;
}

int flame__region_close(flame__region *r, flame_err *err)
{
	if (r->len == 0)
		return 0;
	if (r->n != 0) /* frames before the lines: not a whole stack the cache could hold */
		return flame__region_flush(r, err);
	const char *text = r->p;
	size_t len = r->len;
	uint64_t h = flame__idcache_hash(text, len);
	const flame__idcache_ent *e = flame__idcache_find(&r->cache, text, len, h);
	if (e) {
		if (flame__array_reserve_min(r->ids, r->cap, e->nids, 256))
			return flame__err_nomem(err);
		memcpy(r->ids, e->ids, e->nids * sizeof *r->ids);
		r->n = e->nids;
		r->len = 0;
		return 0;
	}
	int rc = flame__region_flush(r, err);
	if (!rc && flame__idcache_put(&r->cache, text, len, h, r->ids, r->n))
		rc = flame__err_nomem(err);
	return rc;
}
