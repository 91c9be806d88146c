/* Binary JFR recordings (`.jfr`, JDK 11 and later; async-profiler's too): the entry of
 * the reader (see jfr-bin.h). A recording is a run of chunks, each whole in itself: a
 * 68-byte header (magic `FLR\0`, version, size, where its last checkpoint and its
 * metadata are, its clock, a flags byte saying whether integers are LEB128), then events.
 * Chunks are read one at a time from the input (gzip undone), the one before kept beside
 * it (its constants may be the ones an event refers to), so memory follows the two
 * largest chunks, not the recording. A recording still being written or cut short (a
 * header with no metadata yet, a chunk running past the end) keeps what is whole, with
 * a warning; damage inside a chunk is an error naming the byte. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "jfr-bin.h"
#include "parser.h"

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* Up to `n` bytes into buf: how many came (fewer only at the end), or a status. */
static long read_full(flame_input *in, uint8_t *buf, size_t n, flame_err *err)
{
	size_t got = 0;
	while (got < n) {
		long k = flame__input_read(in, buf + got, n - got, err);
		if (k < 0)
			return k;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (long)got;
}

typedef struct reader {
	flame_input *in;
	const char *src;
	const flame_parse_opts *o;
	uint8_t *buf;
	size_t cap;
	flame__jfr_chunk c;
	/* the chunk before, whole and loaded (has_prev), in its own buffer */
	uint8_t *pbuf;
	size_t pcap;
	flame__jfr_chunk pc;
	int has_prev;
	flame__jfr_events *ev;
} reader;

/* The chunk just read becomes the one before: buffers and chunks swap, so the next
 * chunk reuses the older one's memory. */
static void keep_as_prev(reader *r)
{
	uint8_t *b = r->buf;
	size_t cap = r->cap;
	flame__jfr_chunk c = r->c;
	r->buf = r->pbuf, r->cap = r->pcap, r->c = r->pc;
	r->pbuf = b, r->pcap = cap, r->pc = c;
	r->pc.prev = NULL; /* one chunk back, no further */
	r->has_prev = 1;
}

/* The rest of a chunk of `size` bytes after its header: *have bytes of it in r->buf (the
 * buffer grows with what comes, not with what the header claims). */
static int body(reader *r, uint64_t size, size_t *have, flame_err *err)
{
	*have = FLAME__JFR_HEADER;
	while (*have < size) {
		size_t want = *have * 2 > (1u << 20) ? *have * 2 : (1u << 20);
		if (want > size)
			want = (size_t)size;
		if (flame__array_reserve_min(r->buf, r->cap, want, 4096))
			return flame__err_nomem(err);
		long k = read_full(r->in, r->buf + *have, want - *have, err);
		if (k < 0)
			return (int)k;
		*have += (size_t)k;
		if (*have < want)
			break;
	}
	return 0;
}

/* The chunk at input byte `off` whose header is in r->buf: 1 when the recording goes on
 * after it, 0 when it was the last one readable, or a status. */
static int chunk(reader *r, uint64_t off, flame_err *err)
{
	const uint8_t *h = r->buf;
	uint64_t size = be64(h + 8), cpool = be64(h + 16), meta = be64(h + 24);
	if (size < FLAME__JFR_HEADER || cpool == 0 || meta == 0) {
		flame__warn(r->o->warn, r->o->warn_ud, "jfr-incomplete", r->src, 0,
		            "the chunk at byte %llu is still being written (its header names no "
		            "metadata yet): read up to it", (unsigned long long)off);
		return 0;
	}
	if (size > UINT32_MAX)
		return flame__err(err, FLAME_EDATA, r->src, 0, off + 8,
		                  "damaged JFR recording: a chunk of %llu bytes (4 GiB at most)",
		                  (unsigned long long)size);
	size_t have;
	int rc = body(r, size, &have, err);
	if (rc)
		return rc;
	int whole = have == size, readable = meta < have && cpool < have;
	if (!whole && !readable && off == 0)
		return flame__err(err, FLAME_EDATA, r->src, 0, have,
		                  "the input ends inside the first chunk of the JFR recording (%llu "
		                  "bytes; still being written, or cut short) before its metadata: "
		                  "nothing whole to read", (unsigned long long)size);
	if (!whole) {
		flame__warn(r->o->warn, r->o->warn_ud, "jfr-incomplete", r->src, 0,
		            "the chunk at byte %llu claims %llu bytes, of which the input holds %zu "
		            "(still being written, or cut short): %s", (unsigned long long)off,
		            (unsigned long long)size, have,
		            readable ? "its whole events are read" : "its events cannot be read");
		if (!readable)
			return 0;
	}
	r->c.b = r->buf;
	r->c.n = have;
	r->c.base = off;
	r->c.compressed = r->buf[67] & 1;
	r->c.ticks_per_sec = be64(r->buf + 56);
	r->c.start_nanos = (int64_t)be64(r->buf + 32);
	r->c.start_ticks = be64(r->buf + 48);
	r->c.prev = r->has_prev ? &r->pc : NULL;
	if ((rc = flame__jfr_chunk_load(&r->c, meta, cpool, err)) ||
	    (rc = flame__jfr_events_chunk(r->ev, &r->c, have, whole, err)))
		return rc;
	keep_as_prev(r);
	return whole;
}

/* Chunk after chunk to the end of the input. */
static int chunks(reader *r, flame_err *err)
{
	for (uint64_t off = 0, size = 0;; off += size) {
		if (flame__array_reserve_min(r->buf, r->cap, FLAME__JFR_HEADER, 4096))
			return flame__err_nomem(err);
		long n = read_full(r->in, r->buf, FLAME__JFR_HEADER, err);
		if (n <= 0)
			return (int)n;
		if (n < FLAME__JFR_HEADER) {
			flame__warn(r->o->warn, r->o->warn_ud, "jfr-incomplete", r->src, 0,
			            "the input ends inside the header of the chunk at byte %llu (a "
			            "recording still being written?): read up to it",
			            (unsigned long long)off);
			return 0;
		}
		if (memcmp(r->buf, "FLR", 4) != 0)
			return flame__err(err, FLAME_EDATA, r->src, 0, off,
			                  "damaged JFR recording: no chunk ('FLR\\0') where one should start");
		unsigned major = (unsigned)r->buf[4] << 8 | r->buf[5];
		if (major != 2)
			return flame__err(err, FLAME_EDATA, r->src, 0, off + 4,
			                  "JFR version %u.%u: only 2.x (JDK 11 and later, async-profiler) "
			                  "is read", major, (unsigned)r->buf[6] << 8 | r->buf[7]);
		size = be64(r->buf + 8); /* read now: the buffers swap after the chunk */
		int rc = chunk(r, off, err);
		if (rc <= 0)
			return rc;
	}
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	reader r = {.in = in, .src = flame_input_name(in), .o = o};
	r.c.src = r.pc.src = r.src;
	int rc = flame__jfr_events_new(&r.ev, t, o, r.src, err);
	if (rc == 0 && (rc = chunks(&r, err)) == 0)
		rc = flame__jfr_events_finish(r.ev, err);
	flame__jfr_events_free(r.ev);
	flame__jfr_chunk_free(&r.c);
	flame__jfr_chunk_free(&r.pc);
	free(r.buf);
	free(r.pbuf);
	return rc < 0 ? rc : 0;
}

/* The magic of a chunk: any version, so that one not read is told as such. */
static int probe(const char *buf, size_t len)
{
	return len >= 8 && memcmp(buf, "FLR", 4) == 0;
}

const struct flame__parser flame__parser_jfr_binary = {probe, parse};
