/* Compressed perf.data records -> the records they hold (see perfdata-zstd.h), as perf's
 * perf_session__process_compressed_event reads them: one zstd stream (frames may follow
 * one another) across every compressed record, decompressed as it comes, the part of a
 * record left at the end of one record's output completed by the next one's.
 *
 * Memory is flat: the compressed bytes of one record (at most 64 KiB), an output window
 * of OUT bytes plus one record (at most 64 KiB) and zstd's own window, which the
 * recording's compression level sets (capped at 2^WINDOW_LOG_MAX bytes: a hostile frame
 * asking for more is refused). Built without libzstd, the reader says so. */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "perfdata-zstd.h"

#define BAD(z, err, ...) flame__err(err, FLAME_EDATA, (z)->name, 0, (z)->in_off, __VA_ARGS__)

#ifdef FLAME_HAVE_ZSTD
#include <zstd.h>

enum { IN_MAX = 65536, OUT = 256 << 10, REC_MAX = 65536, WINDOW_LOG_MAX = 27 };

struct flame__pdz {
	const char *name;
	ZSTD_DStream *ds;
	unsigned char in[IN_MAX];
	size_t in_len, in_pos;
	uint64_t in_off;      /* the compressed record being decompressed */
	unsigned char *out;   /* decompressed bytes: [head, len) not yet taken */
	size_t head, len;
};

int flame__pdz_new(flame__pdz **out, const char *name, uint64_t off, flame_err *err)
{
	flame__pdz *z = calloc(1, sizeof *z);
	*out = NULL;
	if (!z || !(z->out = malloc(OUT + REC_MAX)) || !(z->ds = ZSTD_createDStream())) {
		flame__pdz_free(z);
		return flame__err_nomem(err);
	}
	z->name = name;
	z->in_off = off;
	ZSTD_DCtx_setParameter(z->ds, ZSTD_d_windowLogMax, WINDOW_LOG_MAX);
	*out = z;
	return 0;
}

void flame__pdz_free(flame__pdz *z)
{
	if (!z)
		return;
	ZSTD_freeDStream(z->ds);
	free(z->out);
	free(z);
}

void flame__pdz_feed(flame__pdz *z, const unsigned char *p, size_t n, uint64_t off)
{
	if (n > IN_MAX)
		n = IN_MAX; /* a record's size is 16 bits: cannot be */
	memcpy(z->in, p, n);
	z->in_len = n;
	z->in_pos = 0;
	z->in_off = off;
}

int flame__pdz_next(flame__pdz *z, const unsigned char **p, size_t *size, uint64_t *off,
                    flame_err *err)
{
	for (;;) {
		size_t avail = z->len - z->head;
		if (avail >= 8) {
			uint16_t n;
			memcpy(&n, z->out + z->head + 6, 2);
			if (n < 8)
				return BAD(z, err, "a record of %u bytes in the compressed record's data: "
				           "the size field lies", n);
			if (avail >= n) {
				*p = z->out + z->head;
				*size = n;
				*off = z->in_off;
				z->head += n;
				return 1;
			}
		}
		if (z->in_pos == z->in_len)
			return 0;
		if (z->head) { /* the part of a record left: to the front, OUT bytes after it */
			memmove(z->out, z->out + z->head, avail);
			z->len = avail;
			z->head = 0;
		}
		ZSTD_outBuffer o = {z->out, z->len + OUT, z->len};
		ZSTD_inBuffer i = {z->in, z->in_len, z->in_pos};
		size_t rc = ZSTD_decompressStream(z->ds, &o, &i);
		if (ZSTD_isError(rc))
			return BAD(z, err, "the compressed record's zstd data does not decompress "
			           "(byte %zu of its %zu: %s)", i.pos, z->in_len, ZSTD_getErrorName(rc));
		if (o.pos == z->len && i.pos == z->in_pos)
			return BAD(z, err, "the compressed record's zstd data makes no progress");
		z->len = o.pos;
		z->in_pos = i.pos;
	}
}

size_t flame__pdz_pending(const flame__pdz *z) { return z->len - z->head; }

#else /* no libzstd */

struct flame__pdz {
	int unused;
};

int flame__pdz_new(flame__pdz **out, const char *name, uint64_t off, flame_err *err)
{
	*out = NULL;
	return flame__err(err, FLAME_EDATA, name, 0, off,
	                  "compressed records (perf record -z), which this build of libflame "
	                  "cannot read: it was built without libzstd (apt-get install "
	                  "libzstd-dev, then build again); or use 'perf script -i %s | "
	                  "flame-collapse'", name[0] == '<' ? "FILE" : name);
}
void flame__pdz_free(flame__pdz *z) { free(z); }
void flame__pdz_feed(flame__pdz *z, const unsigned char *p, size_t n, uint64_t off)
{
	(void)z, (void)p, (void)n, (void)off;
}
int flame__pdz_next(flame__pdz *z, const unsigned char **p, size_t *size, uint64_t *off,
                    flame_err *err)
{
	(void)z, (void)p, (void)size, (void)off, (void)err;
	return 0;
}
size_t flame__pdz_pending(const flame__pdz *z) { (void)z; return 0; }
#endif
