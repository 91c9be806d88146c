/* Fuzz target for the perf.data record reader alone (parse/perfdata-read.c): any bytes
 * must open as a recording or be refused, then give records until the end or an error,
 * never crash, hang or allocate without bound. Each record delivered must be one the
 * reader hands on, whole (its header saying its type and size), found at the byte offset
 * it gives; each SAMPLE is decoded against a named event and its callchain must lie
 * inside the record; the accessors must give what perfdata.c relies on. The input is read
 * three times, from memory in place (as a mapped file is), from memory through the read
 * buffer (as a file that cannot be mapped), and gzipped (a stream, as from a pipe: read
 * whole, or record by record in pipe mode), and all must give the same records. Built as a
 * libFuzzer target with -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a program that
 * runs the target once per file named on the command line. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "fuzz.h"
#include "libflame/parse/perfdata-read.h"

#define CHECK(c) ((c) ? (void)0 : abort())

/* FNV-1a over what the reader delivered, to compare the two ways of reading. */
static void mix(uint64_t *h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*h = (*h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ULL;
}
#define MIX(h, v) mix(h, &(v), sizeof(v))

/* The strings are read through, so ASan sees one left unterminated; the bounds are the
 * sections' that hold them. */
static void check_accessors(const flame__pd *r)
{
	size_t nb;
	const flame__pd_build_id *b = flame__pd_build_ids(r, &nb);
	for (size_t i = 0; i < nb; i++)
		CHECK(b[i].len <= 20 && b[i].path && strlen(b[i].path) < 65536);
	CHECK(strlen(flame__pd_hostname(r)) < (64u << 20) && strlen(flame__pd_cmdline(r)) < (64u << 20));
	CHECK(strcmp(flame__pd_name(r), "fuzz") == 0);
}

/* Index of the attribute `a` points to, or abort: a sample's attribute is one of them. */
static size_t attr_index(const flame__pd *r, const flame__pd_attr *a)
{
	for (size_t i = 0; i < flame__pd_attr_count(r); i++)
		if (flame__pd_attr_at(r, i) == a)
			return i;
	abort();
}

/* Read `in` to its end (`map`: in place where it can be): a digest of the records, samples
 * and final status. `data`: the bytes the records come from, `size` of them (NULL:
 * unknown, a gzip input inflates). */
static uint64_t run(flame_input *in, int map, const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	flame_err err;
	flame__pd *r = NULL;
	int rc = flame__pd_open(&r, in, map, &err);
	MIX(&h, rc);
	if (rc) {
		CHECK(rc < 0 && !r);
		return h;
	}
	check_accessors(r);
	/* file mode reads every attribute at open, and names it */
	size_t nattrs = flame__pd_attr_count(r);
	for (size_t i = 0; i < nattrs; i++)
		CHECK(flame__pd_attr_at(r, i)->name);
	size_t nrec = 0;
	flame__pd_rec rec;
	while ((rc = flame__pd_next(r, &rec, &err)) == 1) {
		nrec++;
		/* each delivered record is at least 8 bytes of its own of the input, or came out
		 * of the compressed record (perf record -z) at the byte it names */
		uint32_t at = 0;
		if (data && rec.off <= size && size - rec.off >= 4)
			memcpy(&at, data + rec.off, 4);
		int packed = at == 81 || at == 83;
		nrec -= packed;
		CHECK(rec.size >= 8 && rec.size <= 65535 && (!data || nrec <= size / 8));
		uint32_t type;
		uint16_t misc, sz;
		memcpy(&type, rec.p, 4);
		memcpy(&misc, rec.p + 4, 2);
		memcpy(&sz, rec.p + 6, 2);
		CHECK(type == rec.type && misc == rec.misc && sz == rec.size);
		/* and is at the byte it says, which messages name */
		CHECK(!data || packed || (rec.off <= size && rec.size <= size - rec.off &&
		                          memcmp(data + rec.off, rec.p, rec.size) == 0));
		/* perf's own records (64 and up) and the ones with nothing to draw are consumed */
		CHECK(type == FLAME__PD_SAMPLE || type == FLAME__PD_MMAP || type == FLAME__PD_MMAP2 ||
		      type == FLAME__PD_COMM || type == FLAME__PD_FORK || type == FLAME__PD_EXIT);
		MIX(&h, rec.type);
		MIX(&h, rec.misc);
		MIX(&h, rec.off);
		mix(&h, rec.p, rec.size); /* every byte, so a short buffer shows under ASan */
		if (type != FLAME__PD_SAMPLE)
			continue;
		flame__pd_sample s;
		int drc = flame__pd_decode(r, &rec, &s, &err);
		MIX(&h, drc);
		if (drc) {
			CHECK(drc < 0);
			continue;
		}
		/* perfdata.c gives the event's name with every sample */
		CHECK(s.attr && s.attr->name);
		size_t ai = attr_index(r, s.attr);
		MIX(&h, ai);
		if (s.has_chain) {
			CHECK(s.chain >= rec.p + 8 && s.chain <= rec.p + rec.size);
			CHECK(s.nchain <= (size_t)(rec.p + rec.size - s.chain) / 8);
			mix(&h, s.chain, 8 * (size_t)s.nchain);
		} else {
			CHECK(!s.nchain && !s.chain);
		}
		uint64_t f[] = {s.pid, s.tid, s.ip, s.time, s.period, (uint64_t)s.has_tid,
		                (uint64_t)s.has_time, (uint64_t)s.has_period, (uint64_t)s.has_chain,
		                s.nchain};
		mix(&h, f, sizeof f);
	}
	MIX(&h, rc);
	MIX(&h, nrec);
	CHECK(rc <= 0);
	if (rc == 0) /* the end stays the end */
		CHECK(flame__pd_next(r, &rec, &err) == 0);
	check_accessors(r);
	nattrs = flame__pd_attr_count(r);
	MIX(&h, nattrs);
	size_t nb;
	const flame__pd_build_id *b = flame__pd_build_ids(r, &nb);
	MIX(&h, nb);
	for (size_t i = 0; i < nb; i++) {
		mix(&h, b[i].id, b[i].len);
		mix(&h, b[i].path, strlen(b[i].path));
	}
	mix(&h, flame__pd_hostname(r), strlen(flame__pd_hostname(r)));
	mix(&h, flame__pd_cmdline(r), strlen(flame__pd_cmdline(r)));
	flame__pd_free(r);
	return h;
}

/* `n` bytes gzipped (fast, not small) into a malloc'd buffer; NULL when zlib fails. */
static uint8_t *gzip(const uint8_t *p, size_t n, size_t *len)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (n > UINT_MAX || deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	uLong cap = deflateBound(&z, (uLong)n);
	uint8_t *b = malloc(cap);
	z.next_in = (Bytef *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = b;
	z.avail_out = (uInt)cap;
	int rc = b ? deflate(&z, Z_FINISH) : Z_MEM_ERROR;
	*len = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(b);
		return NULL;
	}
	return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_err err;
	flame_input *in = NULL;
	/* an input gzipped already is read once: its records are in bytes of a size unknown */
	int gz = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
	if (flame_input_open_mem(&in, data, size, "fuzz", &err))
		return 0;
	uint64_t a = run(in, 1, gz ? NULL : data, size);
	flame_input_free(in);
	in = NULL;
	if (flame_input_open_mem(&in, data, size, "fuzz", &err))
		return 0;
	uint64_t c = run(in, 0, gz ? NULL : data, size);
	flame_input_free(in);
	CHECK(a == c);
	if (gz)
		return 0;
	size_t zn;
	uint8_t *z = gzip(data, size, &zn);
	in = NULL;
	if (!z || flame_input_open_mem(&in, z, zn, "fuzz", &err)) {
		free(z);
		return 0;
	}
	uint64_t b = run(in, 1, data, size);
	flame_input_free(in);
	free(z);
	CHECK(a == b);
	return 0;
}

#include "replay-main.h"
