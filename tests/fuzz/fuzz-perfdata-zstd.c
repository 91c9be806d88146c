/* Fuzz target for compressed perf.data records (parse/perfdata-zstd.c, through
 * parse/perfdata-read.c): `perf record -z` writes its records through one zstd stream cut
 * into COMPRESSED (81) and COMPRESSED2 (83) records. The input's first byte chooses:
 *   - even: the rest is a data section's records; they are compressed here (one stream,
 *     cut into records of a size the byte also chooses, 81 or 83) and the recording read
 *     back must give the same records as the same records uncompressed, or fail where
 *     that fails (but for perf's own record types that may not sit in the stream);
 *   - odd: the rest is the stream's bytes as they are (a hostile zstd frame), cut the
 *     same way: an error naming a byte, never a crash, a hang or unbounded memory.
 * Built as a libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a
 * program that runs the target once per file named on the command line. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "fuzz.h"
#include "libflame/parse/perfdata-read.h"

#define CHECK(c) ((c) ? (void)0 : abort())

enum { HDR = 104, ATTR = 128 };

static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* A file-mode recording of one cpu-clock attribute (ip, tid, time, callchain, period)
 * with `data` as its data section, in a malloc'd buffer. */
static unsigned char *recording(const unsigned char *data, size_t n, size_t *len)
{
	*len = HDR + ATTR + 16 + n;
	unsigned char *f = calloc(1, *len);
	if (!f)
		return NULL;
	memcpy(f, "PERFILE2", 8);
	put64(f + 8, HDR);
	put64(f + 16, ATTR + 16);
	put64(f + 24, HDR);
	put64(f + 32, ATTR + 16);
	put64(f + 40, HDR + ATTR + 16);
	put64(f + 48, n);
	unsigned char *a = f + HDR;
	uint32_t type = 1, size = ATTR;
	memcpy(a, &type, 4);
	memcpy(a + 4, &size, 4);
	put64(a + 24, 1 | 2 | 4 | 32 | 256);
	put64(a + 40, 1ull << 18); /* sample_id_all */
	memcpy(f + HDR + ATTR + 16, data, n);
	return f;
}

/* The stream `z[0..zn)` cut into compressed records of `chunk` bytes (83: with a data
 * size and padding), in a malloc'd buffer. */
static unsigned char *cut(const unsigned char *z, size_t zn, size_t chunk, int type2, size_t *len)
{
	size_t nrec = zn / chunk + 1;
	unsigned char *out = malloc(nrec * (chunk + 24));
	*len = 0;
	for (size_t i = 0; out && i < zn; i += chunk) {
		size_t k = zn - i < chunk ? zn - i : chunk, head = type2 ? 16 : 8;
		size_t total = head + k, pad = type2 ? (8 - total % 8) % 8 : 0;
		uint32_t t = type2 ? 83 : 81;
		uint16_t misc = 0, sz = (uint16_t)(total + pad);
		unsigned char *p = out + *len;
		memcpy(p, &t, 4);
		memcpy(p + 4, &misc, 2);
		memcpy(p + 6, &sz, 2);
		if (type2)
			put64(p + 8, k);
		memcpy(p + head, z + i, k);
		memset(p + head + k, 0, pad);
		*len += total + pad;
	}
	return out;
}

/* Read a recording to its end: a digest of its records and the sign of its status. */
static uint64_t run(const unsigned char *f, size_t n, int *status)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	flame_err err;
	flame_input *in = NULL;
	flame__pd *r = NULL;
	*status = -1;
	if (flame_input_open_mem(&in, f, n, "fuzz", &err))
		return h;
	int rc = flame__pd_open(&r, in, 1, &err);
	if (!rc) {
		flame__pd_rec rec;
		while ((rc = flame__pd_next(r, &rec, &err)) == 1) {
			CHECK(rec.size >= 8 && rec.size <= 65535);
			uint16_t sz;
			memcpy(&sz, rec.p + 6, 2);
			CHECK(sz == rec.size);
			for (size_t i = 0; i < rec.size; i++) /* every byte: a short buffer shows */
				h = (h ^ rec.p[i]) * 0x100000001b3ULL;
			flame__pd_sample s;
			if (rec.type == FLAME__PD_SAMPLE && flame__pd_decode(r, &rec, &s, &err) == 0 &&
			    s.has_chain)
				CHECK(s.chain + 8 * s.nchain <= rec.p + rec.size);
		}
		CHECK(rc <= 0);
		if (rc < 0) /* a data error names the byte: within the file */
			CHECK(err.offset == UINT64_MAX || err.offset <= n);
	}
	*status = rc;
	flame__pd_free(r);
	flame_input_free(in);
	return h;
}

/* 1 when the records of data[0..n) hold a type that may not sit in a compressed stream
 * (compressed records, and those with data after them): the two readings differ there. */
static int has_outer_types(const unsigned char *d, size_t n)
{
	for (size_t i = 0; n - i >= 8;) {
		uint32_t t;
		uint16_t sz;
		memcpy(&t, d + i, 4);
		memcpy(&sz, d + i + 6, 2);
		if (t == 81 || t == 83 || t == 66 || t == 71 || sz < 8)
			return 1;
		i += sz;
		if (i > n)
			return 0;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > (1 << 20))
		return 0;
	int raw = data[0] & 1, type2 = data[0] >> 1 & 1;
	size_t chunk = 1 + (size_t)(data[0] >> 2) * 97;
	const unsigned char *body = data + 1;
	size_t n = size - 1, zn = n, len, flen;
	unsigned char *z = NULL;
	if (!raw) {
		zn = ZSTD_compressBound(n);
		if (!(z = malloc(zn)))
			return 0;
		/* one frame, flushed in two parts, as perf flushes per buffer; a small window
		 * (level 1 as perf's default, 1 KiB), so each run is cheap */
		ZSTD_CCtx *c = ZSTD_createCCtx();
		if (c) {
			ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
			ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 10);
		}
		ZSTD_outBuffer o = {z, zn, 0};
		ZSTD_inBuffer i1 = {body, n / 2, 0}, i2 = {body + n / 2, n - n / 2, 0};
		size_t rc = c ? ZSTD_compressStream2(c, &o, &i1, ZSTD_e_flush) : 1;
		if (c && !ZSTD_isError(rc))
			rc = ZSTD_compressStream2(c, &o, &i2, ZSTD_e_flush);
		ZSTD_freeCCtx(c);
		if (!c || ZSTD_isError(rc)) {
			free(z);
			return 0;
		}
		zn = o.pos;
	}
	unsigned char *recs = cut(raw ? body : z, zn, chunk, type2, &len);
	unsigned char *f = recs ? recording(recs, len, &flen) : NULL;
	int st;
	uint64_t a = f ? run(f, flen, &st) : 0;
	if (f && !raw) {
		unsigned char *plain = recording(body, n, &flen);
		int st2;
		uint64_t b = plain ? run(plain, flen, &st2) : 0;
		if (plain && !has_outer_types(body, n)) {
			CHECK((st < 0) == (st2 < 0));
			CHECK(st < 0 || a == b);
		}
		free(plain);
	}
	free(f);
	free(recs);
	free(z);
	return 0;
}

#include "replay-main.h"
