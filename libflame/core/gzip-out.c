/* gzip output (core/gzip.h): the writers that compress (pprof, the HTML page's data)
 * deflate through here into a flame_output, which still commits or aborts the file, or
 * into a sink of their own. The one deflate path;
 * the one inflate path is core/input.c's reading. */
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>
#include "err.h"
#include "gzip.h"

enum { GZ_OUT = 64 * 1024 };

struct flame__gzip {
	z_stream zs;
	flame__gzip_sink sink;
	void *ud;
	unsigned char buf[GZ_OUT];
};

static int to_output(void *ud, const void *p, size_t n, flame_err *err)
{
	return flame_output_write(ud, p, n, err);
}

int flame__gzip_open_sink(flame__gzip **z, flame__gzip_sink sink, void *ud, int level,
                          flame_err *err)
{
	flame__gzip *g = calloc(1, sizeof *g);
	if (!g)
		return flame__err_nomem(err);
	if (deflateInit2(&g->zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return flame__err_nomem(err);
	}
	g->sink = sink;
	g->ud = ud;
	*z = g;
	return 0;
}

int flame__gzip_open(flame__gzip **z, flame_output *out, flame_err *err)
{
	return flame__gzip_open_sink(z, to_output, out, Z_DEFAULT_COMPRESSION, err);
}

static int gz_pump(flame__gzip *g, int flush, flame_err *err)
{
	for (;;) {
		g->zs.next_out = g->buf;
		g->zs.avail_out = GZ_OUT;
		int zr = deflate(&g->zs, flush);
		if (zr == Z_STREAM_ERROR)
			return flame__err(err, FLAME_EIO, "", 0, FLAME__NO_OFFSET, "gzip compression failed");
		size_t n = GZ_OUT - g->zs.avail_out;
		if (n) {
			int rc = g->sink(g->ud, g->buf, n, err);
			if (rc)
				return rc;
		}
		if (flush == Z_FINISH ? zr == Z_STREAM_END : g->zs.avail_in == 0 && g->zs.avail_out)
			return 0;
	}
}

int flame__gzip_write(flame__gzip *g, const void *data, size_t len, flame_err *err)
{
	while (len) {
		uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;
		g->zs.next_in = (unsigned char *)(uintptr_t)data;
		g->zs.avail_in = chunk;
		int rc = gz_pump(g, Z_NO_FLUSH, err);
		if (rc)
			return rc;
		data = (const char *)data + chunk;
		len -= chunk;
	}
	return 0;
}

int flame__gzip_finish(flame__gzip *g, flame_err *err)
{
	g->zs.next_in = NULL;
	g->zs.avail_in = 0;
	int rc = gz_pump(g, Z_FINISH, err);
	flame__gzip_free(g);
	return rc;
}

void flame__gzip_free(flame__gzip *g)
{
	if (!g)
		return;
	deflateEnd(&g->zs);
	free(g);
}
