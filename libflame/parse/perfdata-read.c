/* perf.data reader: bytes -> attributes, feature sections and records (see
 * perfdata-read.h). Format facts from linux/perf_event.h and perf's
 * perf.data-file-format.txt.
 *
 * File mode: a 104-byte header points at the attributes (each with its id list), the data
 * section, and after the data one section per feature bit set (build-ids, hostname,
 * cmdline, event names...). Pipe mode: a 16-byte header, then records only; attributes,
 * event names and features come as records of perf's own types (64 and up).
 *
 * Records are delivered as perf delivers them: those with a timestamp are queued and, at
 * each FINISHED_ROUND, the ones up to the previous round's latest time are released in
 * time order (stable), so a COMM or MMAP is seen before the samples after it even when
 * it was written by another CPU's buffer later in the file. The queue is bounded (half
 * is released when it passes QUEUE_MAX bytes, as perf does when it runs short).
 *
 * Every size is checked against what holds it (the file, the data section, the record):
 * bad input is an error naming the byte offset, never a read past a buffer or an
 * allocation larger than the input. Memory: the attributes and features, a read buffer
 * and the queue. A file's data section is mapped (read in place: no copy into a buffer,
 * and a queued record is kept as its place in the mapping; the pages read are let go as
 * it goes, so memory stays flat), else streamed (pread, or read on a pipe). A mapped
 * file is asked its size every CHECK_EVERY bytes, so one cut short while it is read is
 * an error rather than a fault on the lost pages (a window of a few milliseconds of
 * reading remains, as in perf's own reader). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/hash.h"
#include "../core/slots.h"
#include "../core/input.h"
#include "perfdata-read.h"
#include "perfdata-zstd.h"

enum {
	HDR_FILE = 104, HDR_PIPE = 16, BUF = 256 << 10, MAX_ATTRS = 4096, MAX_IDS = 1 << 22,
	MAX_BUILD_IDS = 1 << 16,
	QUEUE_MAX = 64 << 20, FEATURE_MAX = 64 << 20, SLURP_MAX = 1 << 30, CHECK_EVERY = 4 << 20,
};

/* perf's record types that the reader consumes itself */
enum {
	R_HEADER_ATTR = 64, R_HEADER_EVENT_TYPE = 65, R_HEADER_TRACING_DATA = 66,
	R_HEADER_BUILD_ID = 67, R_FINISHED_ROUND = 68, R_AUXTRACE = 71, R_EVENT_UPDATE = 78,
	R_HEADER_FEATURE = 80, R_COMPRESSED = 81, R_COMPRESSED2 = 83,
};
/* feature bits */
enum { F_BUILD_ID = 2, F_HOSTNAME = 3, F_CMDLINE = 11, F_EVENT_DESC = 12 };

/* sample_type bits for the layouts */
#define S_IP (1ull << 0)
#define S_TID (1ull << 1)
#define S_TIME (1ull << 2)
#define S_ADDR (1ull << 3)
#define S_READ (1ull << 4)
#define S_CALLCHAIN (1ull << 5)
#define S_ID (1ull << 6)
#define S_CPU (1ull << 7)
#define S_PERIOD (1ull << 8)
#define S_STREAM_ID (1ull << 9)
#define S_IDENTIFIER (1ull << 16)
#define S_RAW (1ull << 10)
#define S_BRANCH_STACK (1ull << 11)
#define S_REGS_USER (1ull << 12)
#define S_STACK_USER (1ull << 13)
#define BS_HW_INDEX (1ull << 17)
#define A_SAMPLE_ID_ALL (1ull << 18)
#define RF_TOTAL_TIME_ENABLED 1u
#define RF_TOTAL_TIME_RUNNING 2u
#define RF_ID 4u
#define RF_GROUP 8u
#define RF_LOST 16u

typedef struct qent {
	uint64_t time, seq, off; /* off: in qbuf, or (mapped) in the mapping */
	uint64_t foff;           /* in the file */
	uint32_t size, mapped;
} qent;

struct flame__pd {
	flame_input *in, *mem_in; /* mem_in: a file-mode recording read whole (not seekable) */
	char *mem;
	const char *name;
	int pipe, random;
	uint64_t data_off, data_end, pos;
	/* data[bpos..blen) holds the file's bytes from pos on: data is buf (read into), or
	 * the data section mapped (map.p: then bpos, blen count from data_off) */
	const unsigned char *data;
	unsigned char *buf;
	size_t bpos, blen;
	int eof;
	flame__mapped map;
	uint64_t next_check; /* mapped: where the file's size is asked again */
	flame__pd_attr *attrs;
	size_t nattrs;
	struct id_attr {
		uint64_t id;
		uint32_t attr;
	} *idv; /* the index of event ids (core/slots.h) */
	size_t nidv, idv_cap;
	uint64_t *id_slots;
	size_t id_mask;
	int id_pos, is_pos; /* where the id is: u64 index in a sample, from the end of others */
	flame__pd_build_id *bids;
	size_t nbids, bids_cap;
	char *hostname, *cmdline;
	/* ordering */
	qent *q, *qtmp; /* qtmp: for sorting, as large */
	size_t qn, qcap, qtmpcap, ready, nready;
	unsigned char *qbuf, *qbuf2; /* qbuf2: spare, for compact() */
	size_t qlen, qcap_bytes, qcap2;
	size_t qheld; /* bytes of the queued records, copied or mapped (QUEUE_MAX) */
	int attrs_ready;
	uint64_t seq, next_flush, max_time;
	int data_eof;
	int unfinished; /* the header's data size is 0: perf record was killed */
	uint64_t cut;   /* unfinished: where a record cut short was dropped, else UINT64_MAX */
	flame__pdz *z;  /* the compressed records' stream (perf record -z), from the first */
	unsigned char direct[65536]; /* a record delivered at once, unqueued */
};

static uint64_t u64at(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}
static uint32_t u32at(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

#define BAD(r, err, off, ...) flame__err(err, FLAME_EDATA, (r)->name, 0, (off), __VA_ARGS__)

/* Read exactly n bytes at `off` (random access): 0, or an error naming the offset. */
static int read_at(flame__pd *r, void *dst, size_t n, uint64_t off, const char *what,
                   flame_err *err)
{
	flame_input *in = r->mem_in ? r->mem_in : r->in;
	long k = flame__input_pread(in, dst, n, off, err);
	if (k < 0)
		return (int)k;
	if ((size_t)k < n)
		return BAD(r, err, off, "truncated perf.data: %s (%zu bytes at byte %llu) runs past "
		           "the end of the file", what, n, (unsigned long long)off);
	return 0;
}

/* The `size` bytes at `off` that the header entry at byte `entry` points to, in a
 * malloc'd *p: refused past the end of the file (`fsize`) or past `max` bytes. */
static int read_section(flame__pd *r, uint64_t off, uint64_t size, uint64_t fsize,
                        uint64_t max, uint64_t entry, const char *what, unsigned char **p,
                        flame_err *err)
{
	*p = NULL;
	if (size > max || off > fsize || size > fsize - off)
		return BAD(r, err, entry, "%s (%llu bytes at byte %llu) runs past the end of the file",
		           what, (unsigned long long)size, (unsigned long long)off);
	if (!(*p = malloc(size ? size : 1)))
		return flame__err_nomem(err);
	int rc = read_at(r, *p, size, off, what, err);
	if (rc) {
		free(*p);
		*p = NULL;
	}
	return rc;
}

/* ------------------------------------------------------------------ attributes */

static int event_name(flame__pd_attr *a);

static int add_attr(flame__pd *r, const unsigned char *p, size_t n, uint64_t off,
                    flame_err *err)
{
	if (r->nattrs >= MAX_ATTRS)
		return BAD(r, err, off, "more than %d event attributes", MAX_ATTRS);
	if (n < 64)
		return BAD(r, err, off, "an event attribute of %zu bytes (at least 64)", n);
	flame__pd_attr *v = realloc(r->attrs, (r->nattrs + 1) * sizeof *v);
	if (!v)
		return flame__err_nomem(err);
	r->attrs = v;
	r->attrs_ready = 0;
	flame__pd_attr *a = &v[r->nattrs++];
	memset(a, 0, sizeof *a);
	a->type = u32at(p);
	a->config = u64at(p + 8);
	a->sample_period = u64at(p + 16);
	a->sample_type = u64at(p + 24);
	a->read_format = u64at(p + 32);
	a->flags = u64at(p + 40);
	if (n >= 96) { /* PERF_ATTR_SIZE_VER3: the user registers and stack to unwind */
		a->branch_sample_type = u64at(p + 72);
		a->sample_regs_user = u64at(p + 80);
		a->sample_stack_user = u32at(p + 88);
	}
	return 0;
}

struct id_ctx {
	const flame__pd *r;
	uint64_t id;
};
static int id_eq(const void *ctx, uint32_t e)
{
	const struct id_ctx *k = ctx;
	return k->r->idv[e].id == k->id;
}

/* The ids of attribute `a` go into the index (id -> attribute): a sample names its event
 * by id, so each sample is one probe. A repeated id keeps its first attribute. */
static int add_ids(flame__pd *r, flame__pd_attr *a, const unsigned char *p, size_t n,
                   flame_err *err)
{
	if (n > MAX_IDS - r->nidv)
		return BAD(r, err, FLAME__NO_OFFSET, "more than %d event ids", MAX_IDS);
	uint32_t ai = (uint32_t)(a - r->attrs);
	for (size_t i = 0; i < n; i++) {
		uint64_t id = u64at(p + 8 * i);
		struct id_ctx k = {r, id};
		uint32_t h = (uint32_t)flame__mix64(id);
		if (flame__slots_reserve(&r->id_slots, &r->id_mask, r->nidv, 64) ||
		    flame__array_reserve(r->idv, r->idv_cap, r->nidv + 1))
			return flame__err_nomem(err);
		size_t at = flame__slots_probe(r->id_slots, r->id_mask, h, id_eq, &k);
		if (r->id_slots[at])
			continue;
		r->id_slots[at] = flame__slot_make(h, (uint32_t)r->nidv);
		r->idv[r->nidv++] = (struct id_attr){id, ai};
	}
	a->nids += n;
	return 0;
}

/* Where the id sits in a sample (u64 index) and in other records' sample_id (from the
 * end), as perf computes them; -1: none. */
static int id_pos(uint64_t t)
{
	if (t & S_IDENTIFIER)
		return 0;
	if (!(t & S_ID))
		return -1;
	return !!(t & S_IP) + !!(t & S_TID) + !!(t & S_TIME) + !!(t & S_ADDR);
}
static int is_pos(uint64_t t)
{
	if (t & S_IDENTIFIER)
		return 1;
	if (!(t & S_ID))
		return -1;
	return 1 + !!(t & S_CPU) + !!(t & S_STREAM_ID);
}

/* After the attributes are known: names, and one layout for the ids. */
static int attrs_done(flame__pd *r, flame_err *err)
{
	if (!r->nattrs)
		return BAD(r, err, r->pipe ? r->pos : 0, "the recording has no event attributes");
	r->id_pos = id_pos(r->attrs[0].sample_type);
	r->is_pos = is_pos(r->attrs[0].sample_type);
	for (size_t i = 0; i < r->nattrs; i++) {
		flame__pd_attr *a = &r->attrs[i];
		if (r->nattrs > 1 && (id_pos(a->sample_type) != r->id_pos ||
		                      is_pos(a->sample_type) != r->is_pos || r->id_pos < 0))
			return BAD(r, err, FLAME__NO_OFFSET,
			           "the events' sample_type layouts disagree and carry no common id "
			           "(event %zu: sample_type 0x%llx)", i,
			           (unsigned long long)a->sample_type);
		if (!a->name && event_name(a))
			return flame__err_nomem(err);
	}
	r->attrs_ready = 1;
	return 0;
}

/* perf's name for an event that the recording does not name: hardware and software
 * events with their modifiers (evsel__name). */
static int event_name(flame__pd_attr *a)
{
	static const char *const hw[] = {"cycles", "instructions", "cache-references",
	                                 "cache-misses", "branches", "branch-misses", "bus-cycles",
	                                 "stalled-cycles-frontend", "stalled-cycles-backend",
	                                 "ref-cycles"};
	static const char *const sw[] = {"cpu-clock", "task-clock", "page-faults",
	                                 "context-switches", "cpu-migrations", "minor-faults",
	                                 "major-faults", "alignment-faults", "emulation-faults",
	                                 "dummy", "bpf-output", "cgroup-switches"};
	char b[96];
	int n;
	if (a->type == 0 && a->config < sizeof hw / sizeof hw[0])
		n = snprintf(b, sizeof b, "%s", hw[a->config]);
	else if (a->type == 1 && a->config < sizeof sw / sizeof sw[0])
		n = snprintf(b, sizeof b, "%s", sw[a->config]);
	else
		n = snprintf(b, sizeof b, "unknown-%u-0x%llx", a->type, (unsigned long long)a->config);
	if (a->type <= 1) { /* evsel__add_modifiers */
		uint64_t f = a->flags;
		int ek = f >> 5 & 1, eu = f >> 4 & 1, eh = f >> 6 & 1, eho = f >> 19 & 1,
		    eg = f >> 20 & 1, pi = (int)(f >> 15 & 3), colon = 0, dflt = 0;
		char m[16];
		int k = 0;
		if (ek || eu || eh) {
			if (!ek)
				m[k++] = 'k';
			if (!eu)
				m[k++] = 'u';
			if (!eh)
				m[k++] = 'h';
			dflt = 1;
			colon = 1;
		}
		if (pi) {
			for (int i = 0; i < pi; i++)
				m[k++] = 'p';
			dflt = 1;
			colon = 1;
		}
		if (eho || eg == dflt) {
			if (!eho)
				m[k++] = 'H';
			if (!eg)
				m[k++] = 'G';
			colon = 1;
		}
		if (colon && k)
			n += snprintf(b + n, sizeof b - (size_t)n, ":%.*s", k, m);
	}
	a->name = strdup(b);
	return a->name ? 0 : -1;
}

static int set_name(flame__pd *r, flame__pd_attr *a, const char *s, size_t n, flame_err *err)
{
	char *c = malloc(n + 1);
	if (!c)
		return flame__err_nomem(err);
	memcpy(c, s, n);
	c[n] = '\0';
	for (size_t i = 0; i < n; i++) /* printed in messages: no control bytes */
		if ((unsigned char)c[i] < 32 || c[i] == 127)
			c[i] = c[i] ? '?' : c[i];
	free(a->name);
	a->name = c;
	(void)r;
	return 0;
}

static flame__pd_attr *attr_by_id(const flame__pd *r, uint64_t id)
{
	if (!r->id_slots)
		return NULL;
	struct id_ctx k = {r, id};
	uint64_t sl = r->id_slots[flame__slots_probe(r->id_slots, r->id_mask,
	                                             (uint32_t)flame__mix64(id), id_eq, &k)];
	return sl ? &r->attrs[r->idv[flame__slot_entry(sl)].attr] : NULL;
}

/* ------------------------------------------------------------------ features */

/* A perf string (u32 length, then that many bytes, NUL-padded) at p[*i..n). */
static int pstring(const unsigned char *p, size_t n, size_t *i, const char **s, size_t *len)
{
	if (n - *i < 4)
		return -1;
	uint32_t k = u32at(p + *i);
	if (k > n - *i - 4)
		return -1;
	*s = (const char *)p + *i + 4;
	*len = strnlen(*s, k);
	*i += 4 + (size_t)k;
	return 0;
}

static int dupstr(char **dst, const char *s, size_t n)
{
	char *c = malloc(n + 1);
	if (!c)
		return -1;
	memcpy(c, s, n);
	c[n] = '\0';
	free(*dst);
	*dst = c;
	return 0;
}

static int add_build_id(flame__pd *r, const unsigned char *p, size_t n, uint64_t off,
                        flame_err *err)
{
	/* header (8), pid (4), build_id[24] (the size in byte 20 when misc says so), path */
	if (n < 8 + 4 + 24)
		return BAD(r, err, off, "a build-id entry of %zu bytes is too short", n);
	if (r->nbids >= MAX_BUILD_IDS)
		return BAD(r, err, off, "more than %d build-ids", MAX_BUILD_IDS);
	if (flame__array_reserve(r->bids, r->bids_cap, r->nbids + 1))
		return flame__err_nomem(err);
	flame__pd_build_id *b = &r->bids[r->nbids];
	memset(b, 0, sizeof *b);
	uint16_t misc;
	memcpy(&misc, p + 4, 2);
	memcpy(&b->pid, p + 8, 4);
	memcpy(b->id, p + 12, 20);
	b->len = misc & (1u << 15) ? p[12 + 20] : 20;
	if (b->len > 20)
		b->len = 20;
	const char *s = (const char *)p + 36;
	if (dupstr(&b->path, s, strnlen(s, n - 36)))
		return flame__err_nomem(err);
	r->nbids++;
	return 0;
}

/* One feature's bytes p[0..n), at `off`. */
static int feature(flame__pd *r, unsigned bit, const unsigned char *p, size_t n, uint64_t off,
                   flame_err *err)
{
	size_t i = 0;
	const char *s;
	size_t len;
	switch (bit) {
	case F_HOSTNAME:
		if (pstring(p, n, &i, &s, &len))
			return BAD(r, err, off, "the hostname feature runs past its section");
		return dupstr(&r->hostname, s, len) ? flame__err_nomem(err) : 0;
	case F_CMDLINE: {
		if (n < 4)
			return BAD(r, err, off, "the cmdline feature runs past its section");
		uint32_t nr = u32at(p);
		i = 4;
		char *c = NULL;
		size_t clen = 0;
		for (uint32_t k = 0; k < nr; k++) {
			if (pstring(p, n, &i, &s, &len)) {
				free(c);
				return BAD(r, err, off + i, "the cmdline feature runs past its section");
			}
			char *nc = realloc(c, clen + len + 2);
			if (!nc) {
				free(c);
				return flame__err_nomem(err);
			}
			c = nc;
			if (clen)
				c[clen++] = ' ';
			memcpy(c + clen, s, len);
			clen += len;
			c[clen] = '\0';
		}
		free(r->cmdline);
		r->cmdline = c;
		return 0;
	}
	case F_EVENT_DESC: {
		if (n < 8)
			return BAD(r, err, off, "the event-description feature runs past its section");
		uint32_t nr = u32at(p), asz = u32at(p + 4);
		i = 8;
		for (uint32_t k = 0; k < nr; k++) {
			if (asz > n - i || n - i - asz < 4)
				return BAD(r, err, off + i, "the event-description feature runs past its section");
			uint64_t cfg_type = u32at(p + i), cfg = asz >= 16 ? u64at(p + i + 8) : 0;
			i += asz;
			uint32_t nids = u32at(p + i);
			i += 4;
			if (pstring(p, n, &i, &s, &len) || nids > (n - i) / 8)
				return BAD(r, err, off + i, "the event-description feature runs past its section");
			/* the event with one of these ids; else the k-th (ids may be absent) */
			flame__pd_attr *a = NULL;
			for (uint32_t j = 0; j < nids && !a; j++)
				a = attr_by_id(r, u64at(p + i + 8 * j));
			if (!a && k < r->nattrs && r->attrs[k].type == cfg_type && r->attrs[k].config == cfg)
				a = &r->attrs[k];
			i += 8 * (size_t)nids;
			if (a && set_name(r, a, s, len, err))
				return FLAME_ENOMEM;
		}
		return 0;
	}
	case F_BUILD_ID:
		while (n - i >= 8) {
			uint16_t sz;
			memcpy(&sz, p + i + 6, 2);
			if (sz < 8 || sz > n - i)
				return BAD(r, err, off + i, "a build-id entry of %u bytes runs past its section", sz);
			int rc = add_build_id(r, p + i, sz, off + i, err);
			if (rc)
				return rc;
			i += sz;
		}
		return 0;
	}
	return 0;
}

static int file_features(flame__pd *r, const unsigned char *hdr, uint64_t fsize, flame_err *err)
{
	uint64_t bits[4];
	memcpy(bits, hdr + 72, 32);
	uint64_t at = r->data_end;
	unsigned char sec[16];
	for (unsigned bit = 0; bit < 256; bit++) {
		if (!(bits[bit / 64] >> (bit % 64) & 1))
			continue;
		int rc = read_at(r, sec, 16, at, "a feature section's entry", err);
		if (rc)
			return rc;
		at += 16;
		uint64_t off = u64at(sec), size = u64at(sec + 8);
		if (bit != F_HOSTNAME && bit != F_CMDLINE && bit != F_EVENT_DESC && bit != F_BUILD_ID)
			continue;
		unsigned char *p;
		if ((rc = read_section(r, off, size, fsize, FEATURE_MAX, at - 16, "a feature section",
		                       &p, err)))
			return rc;
		rc = feature(r, bit, p, size, off, err);
		free(p);
		if (rc)
			return rc;
	}
	return 0;
}

/* ------------------------------------------------------------------ opening */

static int open_file(flame__pd *r, const unsigned char *h, flame_err *err)
{
	uint64_t fsize = flame__input_size(r->mem_in ? r->mem_in : r->in);
	uint64_t attr_size = u64at(h + 16), a_off = u64at(h + 24), a_size = u64at(h + 32);
	uint64_t d_off = u64at(h + 40), d_size = u64at(h + 48);
	if (u64at(h + 8) != HDR_FILE)
		return BAD(r, err, 8, "a perf.data header of %llu bytes (104 expected)",
		           (unsigned long long)u64at(h + 8));
	if (attr_size < 64 + 16 || attr_size > 4096)
		return BAD(r, err, 16, "event attributes of %llu bytes each", (unsigned long long)attr_size);
	if (a_off > fsize || a_size > fsize - a_off || a_size % attr_size)
		return BAD(r, err, 24, "the attribute section (%llu bytes at byte %llu) runs past the "
		           "end of the file or holds part of an attribute", (unsigned long long)a_size,
		           (unsigned long long)a_off);
	if (d_off > fsize || d_size > fsize - d_off)
		return BAD(r, err, 40, "the data section (%llu bytes at byte %llu) runs past the end of "
		           "the file (%llu bytes): truncated?", (unsigned long long)d_size,
		           (unsigned long long)d_off, (unsigned long long)fsize);
	/* perf record writes the data size when it ends: 0 when it was killed, the records
	 * written so far running to the end of the file, and no feature sections after them
	 * (the header's feature bits are set all the same) */
	r->unfinished = d_size == 0 && d_off > 0;
	r->data_off = r->pos = d_off;
	r->data_end = r->unfinished ? fsize : d_off + d_size;
	unsigned char a[4096];
	for (uint64_t at = a_off; at < a_off + a_size; at += attr_size) {
		int rc = read_at(r, a, attr_size, at, "an event attribute", err);
		if (rc)
			return rc;
		uint32_t asz = u32at(a + 4);
		if (asz < 64 || asz > attr_size - 16)
			return BAD(r, err, at + 4, "an event attribute of %u bytes in entries of %llu", asz,
			           (unsigned long long)attr_size);
		if ((rc = add_attr(r, a, asz, at, err)))
			return rc;
		uint64_t ioff = u64at(a + attr_size - 16), isz = u64at(a + attr_size - 8);
		unsigned char *ids;
		if ((rc = read_section(r, ioff, isz, fsize, FEATURE_MAX, at + attr_size - 16,
		                       "an id list", &ids, err)))
			return rc;
		rc = add_ids(r, &r->attrs[r->nattrs - 1], ids, isz / 8, err);
		free(ids);
		if (rc)
			return rc;
	}
	int rc = r->unfinished ? 0 : file_features(r, h, fsize, err);
	return rc ? rc : attrs_done(r, err);
}

/* The data section in memory, where it can be (file mode): read in place from then on. */
static void map_data(flame__pd *r)
{
	if (r->data_end <= r->data_off || r->data_end - r->data_off > SIZE_MAX ||
	    flame__input_map(r->mem_in ? r->mem_in : r->in, r->data_off, r->data_end - r->data_off,
	                     &r->map))
		return;
	r->data = r->map.p;
	r->bpos = 0;
	r->blen = (size_t)(r->data_end - r->data_off);
	r->eof = 1;
	r->next_check = r->data_off;
}

int flame__pd_open(flame__pd **out, flame_input *in, int map, flame_err *err)
{
	*out = NULL;
	flame__pd *r = calloc(1, sizeof *r);
	if (!r || !(r->buf = malloc(BUF + 65536))) {
		free(r);
		return flame__err_nomem(err);
	}
	r->in = in;
	r->data = r->buf;
	r->name = flame_input_name(in);
	r->id_pos = r->is_pos = -1;
	r->cut = UINT64_MAX;
	unsigned char h[HDR_FILE];
	size_t got = 0;
	int rc = 0;
	while (got < HDR_PIPE) {
		long k = flame__input_read(in, h + got, HDR_PIPE - got, err);
		if (k < 0) {
			rc = (int)k;
			goto fail;
		}
		if (k == 0)
			break;
		got += (size_t)k;
	}
	if (got < HDR_PIPE || memcmp(h, "PERFILE2", 8) != 0) {
		rc = BAD(r, err, 0, got >= 8 && memcmp(h, "2ELIFREP", 8) == 0
		                        ? "a perf.data recording of the other byte order, which is not "
		                          "read here: use perf script"
		                        : "not a perf.data recording (no PERFILE2 magic)");
		goto fail;
	}
	if (u64at(h + 8) == HDR_PIPE) {
		r->pipe = 1;
		r->pos = HDR_PIPE;
		r->data_end = UINT64_MAX;
		*out = r;
		return 0;
	}
	/* file mode: random access, on the file itself, else on the whole of it in memory */
	if (!flame__input_plain(in)) {
		char *rest;
		size_t n;
		if ((rc = flame__input_slurp(in, &rest, &n, SLURP_MAX, err)))
			goto fail;
		r->mem = malloc(n + HDR_PIPE);
		if (r->mem) {
			memcpy(r->mem, h, HDR_PIPE);
			memcpy(r->mem + HDR_PIPE, rest, n);
		}
		free(rest);
		if (!r->mem) {
			rc = flame__err_nomem(err);
			goto fail;
		}
		if ((rc = flame_input_open_mem(&r->mem_in, r->mem, n + HDR_PIPE, r->name, err)))
			goto fail;
	}
	r->random = 1;
	if ((rc = read_at(r, h, HDR_FILE, 0, "the file header", err)) || (rc = open_file(r, h, err)))
		goto fail;
	if (map)
		map_data(r);
	*out = r;
	return 0;
fail:
	flame__pd_free(r);
	return rc;
}

void flame__pd_free(flame__pd *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nattrs; i++)
		free(r->attrs[i].name);
	free(r->idv);
	free(r->id_slots);
	for (size_t i = 0; i < r->nbids; i++)
		free(r->bids[i].path);
	free(r->attrs);
	free(r->bids);
	free(r->hostname);
	free(r->cmdline);
	free(r->q);
	free(r->qtmp);
	free(r->qbuf);
	free(r->qbuf2);
	free(r->buf);
	flame__input_unmap(&r->map);
	flame__pdz_free(r->z);
	flame_input_free(r->mem_in);
	free(r->mem);
	free(r);
}

/* ------------------------------------------------------------------ the data stream */

/* Make n (<= 65536 + 8) bytes from r->pos available in buf[bpos..]: 1, 0 when the data
 * ends first (fewer are there), or a negative status. */
static int need(flame__pd *r, size_t n, flame_err *err)
{
	if (r->blen - r->bpos >= n)
		return 1;
	if (r->map.p) /* all of the data is there */
		return 0;
	if (r->bpos) {
		memmove(r->buf, r->buf + r->bpos, r->blen - r->bpos);
		r->blen -= r->bpos;
		r->bpos = 0;
	}
	while (r->blen < n && !r->eof) {
		size_t room = BUF + 65536 - r->blen;
		uint64_t at = r->pos + r->blen;
		long k;
		if (r->random) {
			if (room > r->data_end - at)
				room = (size_t)(r->data_end - at);
			k = room ? flame__input_pread(r->mem_in ? r->mem_in : r->in, r->buf + r->blen,
			                              room, at, err)
			         : 0;
			if (k > 0 && !r->mem_in) /* (read whole first: its reads were reported) */
				flame__input_report(r->in, at + (uint64_t)k);
		} else {
			k = flame__input_read(r->in, r->buf + r->blen, room, err);
		}
		if (k < 0)
			return (int)k;
		if (k == 0)
			r->eof = 1;
		r->blen += (size_t)k;
	}
	return r->blen >= n;
}

static void consume(flame__pd *r, size_t n)
{
	r->bpos += n;
	r->pos += n;
}

/* Skip n bytes of the stream (data that follows some records). */
static int skip(flame__pd *r, uint64_t n, const char *what, flame_err *err)
{
	while (n) {
		int rc = need(r, 1, err);
		if (rc < 0)
			return rc;
		if (!rc)
			return BAD(r, err, r->pos, "truncated perf.data: %s runs past the end of the data",
			           what);
		size_t k = r->blen - r->bpos;
		if (k > n)
			k = (size_t)n;
		consume(r, k);
		n -= k;
	}
	return 0;
}

/* The time of a record (a sample's, or a sample_id's): 1 with *t, 0 when it has none. */
static int rec_time(const flame__pd *r, const unsigned char *p, size_t size, uint64_t *t)
{
	uint32_t type = u32at(p);
	const flame__pd_attr *a = &r->attrs[0];
	if (type == FLAME__PD_SAMPLE) {
		if (r->nattrs > 1 && r->id_pos >= 0) {
			if (8 + 8 * (size_t)r->id_pos + 8 > size)
				return 0;
			a = attr_by_id(r, u64at(p + 8 + 8 * r->id_pos));
			if (!a)
				return 0;
		}
		uint64_t st = a->sample_type;
		if (!(st & S_TIME))
			return 0;
		size_t at = 8 + 8 * (!!(st & S_IDENTIFIER) + !!(st & S_IP) + !!(st & S_TID));
		if (at + 8 > size)
			return 0;
		*t = u64at(p + at);
		return 1;
	}
	if (!(a->flags & A_SAMPLE_ID_ALL))
		return 0;
	if (r->nattrs > 1) {
		if (r->is_pos < 0 || 8 + 8 * (size_t)r->is_pos > size)
			return 0;
		a = attr_by_id(r, u64at(p + size - 8 * (size_t)r->is_pos));
		if (!a)
			return 0;
	}
	uint64_t st = a->sample_type;
	if (!(st & S_TIME))
		return 0;
	size_t back = 1 + !!(st & S_ID) + !!(st & S_STREAM_ID) + !!(st & S_CPU) + !!(st & S_IDENTIFIER);
	if (8 + 8 * back > size)
		return 0;
	*t = u64at(p + size - 8 * back);
	return 1;
}

/* The queue's order: by time, then as read (seq is unique, so no two are equal). */
static int qless(const qent *a, const qent *b)
{
	return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

/* v[0..n) sorted by qless, through tmp (n entries). The records come in sorted runs (each
 * CPU's buffer is in time order, and the ones kept from the last round are sorted), so
 * neighbouring runs are merged until one is left: a few passes, not a sort from scratch
 * (qsort took 6% of the time on a --call-graph dwarf recording). */
static void sort_runs(qent *v, qent *tmp, size_t n)
{
	for (;;) {
		size_t i = 0, runs = 0;
		while (i < n) {
			size_t m = i + 1, e;
			while (m < n && !qless(&v[m], &v[m - 1]))
				m++;
			if (i == 0 && m == n)
				return;
			for (e = m < n ? m + 1 : m; e < n && !qless(&v[e], &v[e - 1]); e++)
				;
			size_t x = i, y = m, o = i;
			while (x < m && y < e)
				tmp[o++] = qless(&v[y], &v[x]) ? v[y++] : v[x++];
			while (x < m)
				tmp[o++] = v[x++];
			while (y < e)
				tmp[o++] = v[y++];
			i = e;
			runs++;
		}
		if (runs == 0) /* an empty queue (a round with nothing in it) */
			return;
		memcpy(v, tmp, n * sizeof *v);
		if (runs == 1)
			return;
	}
}

/* Release the queued records up to `limit` (all: UINT64_MAX), at most `most`. */
static void release(flame__pd *r, uint64_t limit, size_t most)
{
	sort_runs(r->q, r->qtmp, r->qn);
	size_t k = 0;
	while (k < r->qn && k < most && r->q[k].time <= limit)
		k++;
	r->nready = k;
	r->ready = 0;
}

/* Drop the released records from the queue: the kept ones' bytes (those not in the
 * mapping) move to the spare buffer, in queue order, which becomes the queue's. */
static int compact(flame__pd *r, flame_err *err)
{
	size_t keep = r->qn - r->nready, need = 0, held = 0;
	for (size_t i = r->nready; i < r->qn; i++) {
		need += r->q[i].mapped ? 0 : r->q[i].size;
		held += r->q[i].size;
	}
	if (flame__array_reserve_min(r->qbuf2, r->qcap2, need, 1 << 20))
		return flame__err_nomem(err);
	size_t at = 0;
	for (size_t i = r->nready; i < r->qn; i++) {
		if (r->q[i].mapped)
			continue;
		memcpy(r->qbuf2 + at, r->qbuf + r->q[i].off, r->q[i].size);
		r->q[i].off = at;
		at += r->q[i].size;
	}
	memmove(r->q, r->q + r->nready, keep * sizeof *r->q);
	unsigned char *t = r->qbuf;
	size_t tc = r->qcap_bytes;
	r->qbuf = r->qbuf2;
	r->qcap_bytes = r->qcap2;
	r->qbuf2 = t;
	r->qcap2 = tc;
	r->qn = keep;
	r->qlen = at;
	r->qheld = held;
	r->nready = r->ready = 0;
	return 0;
}

/* Queue the record at byte `off` (of `size` bytes, time `t`) until its round is released:
 * its bytes copied, or where it is when it is in the mapping (`mapped`). */
static int enqueue(flame__pd *r, const unsigned char *p, size_t size, uint64_t t, uint64_t off,
                   int mapped, flame_err *err)
{
	if (flame__array_reserve(r->q, r->qcap, r->qn + 1) ||
	    flame__array_reserve(r->qtmp, r->qtmpcap, r->qn + 1))
		return flame__err_nomem(err);
	if (mapped) {
		r->q[r->qn++] = (qent){t, r->seq++, (uint64_t)(p - r->data), off, (uint32_t)size, 1};
	} else {
		if (flame__array_reserve_min(r->qbuf, r->qcap_bytes, r->qlen + size, 1 << 20))
			return flame__err_nomem(err);
		memcpy(r->qbuf + r->qlen, p, size);
		r->q[r->qn++] = (qent){t, r->seq++, r->qlen, off, (uint32_t)size, 0};
		r->qlen += size;
	}
	r->qheld += size;
	if (t > r->max_time)
		r->max_time = t;
	return 0;
}

/* A compressed record (perf record -z): its payload goes to the stream, whose records
 * flame__pd_next takes before the file's next. COMPRESSED2 says how many of its bytes
 * are data (the rest pads it to 8). */
static int compressed(flame__pd *r, const unsigned char *p, size_t size, uint64_t off,
                      flame_err *err)
{
	int rc;
	size_t at = 8, n = size - 8;
	if (u32at(p) == R_COMPRESSED2) {
		if (size < 16 || u64at(p + 8) > size - 16)
			return BAD(r, err, off, "a compressed record of %zu bytes says it holds %llu "
			           "bytes of data", size, size < 16 ? 0ull : (unsigned long long)u64at(p + 8));
		at = 16;
		n = (size_t)u64at(p + 8);
	}
	if (!r->z && (rc = flame__pdz_new(&r->z, r->name, off, err)))
		return rc;
	flame__pdz_feed(r->z, p + at, n, off);
	return 0;
}

/* A record of perf's own types (64 and up, and the ones read whole in pipe mode). */
static int user_record(flame__pd *r, const unsigned char *p, size_t size, uint64_t off,
                       flame_err *err)
{
	uint32_t type = u32at(p);
	switch (type) {
	case R_HEADER_ATTR: {
		if (size < 8 + 64)
			return BAD(r, err, off, "an attribute record of %zu bytes is too short", size);
		uint32_t asz = u32at(p + 8 + 4);
		if (asz < 64 || asz > size - 8)
			return BAD(r, err, off, "an attribute of %u bytes in a record of %zu", asz, size);
		int rc = add_attr(r, p + 8, asz, off, err);
		return rc ? rc : add_ids(r, &r->attrs[r->nattrs - 1], p + 8 + asz, (size - 8 - asz) / 8, err);
	}
	case R_EVENT_UPDATE: {
		if (size < 24)
			return 0;
		uint64_t kind = u64at(p + 8), id = u64at(p + 16);
		flame__pd_attr *a = attr_by_id(r, id);
		if (kind == 2 && a) { /* PERF_EVENT_UPDATE__NAME (0 unit, 1 scale, 3 cpus) */
			const char *s = (const char *)p + 24;
			return set_name(r, a, s, strnlen(s, size - 24), err);
		}
		return 0;
	}
	case R_HEADER_FEATURE:
		if (size < 16)
			return BAD(r, err, off, "a feature record of %zu bytes is too short", size);
		return u64at(p + 8) < 256 ? feature(r, (unsigned)u64at(p + 8), p + 16, size - 16,
		                                    off + 16, err)
		                          : 0;
	case R_HEADER_BUILD_ID:
		return add_build_id(r, p, size, off, err);
	case R_COMPRESSED:
	case R_COMPRESSED2:
		return compressed(r, p, size, off, err);
	}
	return 0;
}

/* A record just read from the data (`size` bytes at `p`, of `type`, at byte `off`;
 * `mapped`: p is in the mapping, which stays): 1 it is *rec (one with no time, handed out
 * at once), 0 it was queued, skipped or done with, or an error. */
static int route(flame__pd *r, const unsigned char *p, uint16_t size, uint32_t type,
                 uint64_t off, int mapped, flame__pd_rec *rec, flame_err *err)
{
	int rc;
	if (type == R_FINISHED_ROUND) {
		release(r, r->next_flush, SIZE_MAX);
		r->next_flush = r->max_time;
		return 0;
	}
	if (type == R_HEADER_TRACING_DATA || type == R_AUXTRACE) {
		/* data follows the record, not counted in its size */
		uint64_t n = type == R_AUXTRACE ? (size >= 16 ? u64at(p + 8) : 0)
		                                : (size >= 12 ? (u32at(p + 8) + 7ull) & ~7ull : 0);
		return skip(r, n, type == R_AUXTRACE ? "AUX data" : "tracing data", err);
	}
	if (type >= 64)
		return user_record(r, p, size, off, err);
	if (!r->nattrs)
		return BAD(r, err, off, "a record (type %u) before any event attribute", type);
	if (!r->attrs_ready && (rc = attrs_done(r, err)))
		return rc;
	if (type != FLAME__PD_SAMPLE && type != FLAME__PD_MMAP && type != FLAME__PD_MMAP2 &&
	    type != FLAME__PD_COMM && type != FLAME__PD_FORK && type != FLAME__PD_EXIT)
		return 0; /* LOST, THROTTLE, SWITCH, KSYMBOL...: nothing to draw; unknown: skipped as perf does */
	uint64_t t;
	if (rec_time(r, p, size, &t)) {
		if ((rc = enqueue(r, p, size, t, off, mapped, err)))
			return rc;
		if (r->qheld > QUEUE_MAX)
			release(r, UINT64_MAX, r->qn / 2);
		return 0;
	}
	if (!mapped) {
		memcpy(r->direct, p, size);
		p = r->direct;
	}
	*rec = (flame__pd_rec){type, 0, p, size, off};
	memcpy(&rec->misc, p + 4, 2);
	return 1;
}

/* The records of the compressed stream, each routed as the file's are: 1 one is *rec,
 * 2 queued ones are ready (a round ended), 0 the stream needs the next compressed
 * record, or an error. */
static int from_stream(flame__pd *r, flame__pd_rec *rec, flame_err *err)
{
	const unsigned char *p;
	size_t size;
	uint64_t off;
	int rc;
	while ((rc = flame__pdz_next(r->z, &p, &size, &off, err)) > 0) {
		uint32_t type = u32at(p);
		if (type == R_COMPRESSED || type == R_COMPRESSED2 || type == R_HEADER_TRACING_DATA ||
		    type == R_AUXTRACE)
			return BAD(r, err, off, "a record of type %u inside the compressed record's data",
			           type);
		if ((rc = route(r, p, (uint16_t)size, type, off, 0, rec, err)))
			return rc;
		if (r->ready < r->nready)
			return 2;
	}
	return rc;
}

/* Mapped: the file still holds the rest of the data section (one cut short while read
 * would fault on the lost pages), and the progress so far. */
static int still_there(flame__pd *r, flame_err *err)
{
	if (!r->mem_in)
		flame__input_report(r->in, r->pos);
	if (!flame__input_holds(r->mem_in ? r->mem_in : r->in, r->data_end))
		return BAD(r, err, r->pos, "truncated perf.data: the file was cut short while it was "
		           "read (the data section ran to byte %llu)", (unsigned long long)r->data_end);
	r->next_check = r->pos + CHECK_EVERY;
	/* the pages before the oldest record still queued are done with */
	size_t done = r->bpos;
	for (size_t i = r->ready; i < r->qn; i++)
		if (r->q[i].mapped && r->q[i].off < done)
			done = (size_t)r->q[i].off;
	flame__input_map_drop(&r->map, done);
	return 0;
}

int flame__pd_next(flame__pd *r, flame__pd_rec *rec, flame_err *err)
{
	int rc;
	for (;;) {
		if (r->ready < r->nready) {
			/* attributes may have come (pipe mode) since the record was queued */
			if (!r->attrs_ready && (rc = attrs_done(r, err)))
				return rc;
			const qent *e = &r->q[r->ready++];
			const unsigned char *p = (e->mapped ? r->data : r->qbuf) + e->off;
			*rec = (flame__pd_rec){u32at(p), 0, p, e->size, e->foff};
			memcpy(&rec->misc, p + 4, 2);
			return 1;
		}
		if (r->nready && (rc = compact(r, err)))
			return rc;
		if (r->z && (rc = from_stream(r, rec, err))) {
			if (rc == 2)
				continue;
			return rc;
		}
		if (r->data_eof) {
			if (r->z && flame__pdz_pending(r->z) && !r->unfinished)
				return BAD(r, err, r->pos, "truncated perf.data: the compressed records end "
				           "inside a record (%zu bytes of it)", flame__pdz_pending(r->z));
			if (!r->qn)
				return 0;
			release(r, UINT64_MAX, SIZE_MAX);
			continue;
		}
		if (r->map.p && r->pos >= r->next_check && (rc = still_there(r, err)))
			return rc;
		if ((rc = need(r, 8, err)) < 0)
			return rc;
		if (!rc) {
			if (r->blen != r->bpos && r->unfinished) { /* the last record, cut short */
				r->cut = r->pos;
				r->data_eof = 1;
				continue;
			}
			if (r->blen != r->bpos && !r->pipe)
				return BAD(r, err, r->pos, "truncated perf.data: %zu bytes of a record header "
				           "at the end of the data", r->blen - r->bpos);
			if (r->blen != r->bpos)
				return BAD(r, err, r->pos, "truncated perf.data: the stream ends inside a record");
			if (r->map.p && !r->mem_in)
				flame__input_report(r->in, r->pos);
			r->data_eof = 1;
			continue;
		}
		const unsigned char *p = r->data + r->bpos;
		uint32_t type = u32at(p);
		uint16_t size;
		memcpy(&size, p + 6, 2);
		uint64_t off = r->pos;
		if (size < 8)
			return BAD(r, err, off, "a record of %u bytes (type %u): the size field lies", size,
			           type);
		if ((rc = need(r, size, err)) < 0)
			return rc;
		if (!rc && r->unfinished) {
			r->cut = off;
			r->data_eof = 1;
			continue;
		}
		if (!rc)
			return BAD(r, err, off, "truncated perf.data: a record of %u bytes (type %u) runs "
			           "past the end of the %s", size, type, r->pipe ? "stream" : "data section");
		p = r->data + r->bpos;
		consume(r, size);
		if ((rc = route(r, p, size, type, off, r->map.p != NULL, rec, err)))
			return rc;
	}
}

/* ------------------------------------------------------------------ samples */

/* What follows the callchain, for --call-graph dwarf (perf's evsel__parse_sample): RAW
 * and BRANCH_STACK stepped over, then the user registers and the user stack dump. */
static int decode_user(const flame__pd *r, const flame__pd_rec *rec, const flame__pd_attr *a,
                       size_t i, flame__pd_sample *s, flame_err *err)
{
	const unsigned char *p = rec->p;
	size_t n = rec->size;
	uint64_t st = a->sample_type, v;
	if (st & S_RAW) {
		if (n - i < 4 || u32at(p + i) > n - i - 4)
			goto short_;
		i += (4 + (size_t)u32at(p + i) + 7) & ~(size_t)7;
		if (i > n)
			goto short_;
	}
	if (st & S_BRANCH_STACK) {
		if (n - i < 8)
			goto short_;
		v = u64at(p + i);
		i += 8 + ((a->branch_sample_type & BS_HW_INDEX) ? 8 : 0);
		if (i > n || v > (n - i) / 24)
			goto short_;
		i += 24 * v;
	}
	if (st & S_REGS_USER) {
		if (n - i < 8)
			goto short_;
		s->regs_abi = u64at(p + i);
		i += 8;
		if (s->regs_abi) {
			s->nregs = (uint32_t)__builtin_popcountll(a->sample_regs_user);
			if (s->nregs > (n - i) / 8)
				return BAD(r, err, rec->off, "a sample of %zu bytes has no room for the %u "
				           "user registers its attribute describes", n, s->nregs);
			s->regs = p + i;
			i += 8 * (size_t)s->nregs;
		}
	}
	if (st & S_STACK_USER) {
		if (n - i < 8)
			goto short_;
		v = u64at(p + i);
		i += 8;
		if (v) {
			if (v > n - i || n - i - v < 8)
				return BAD(r, err, rec->off + i - 8, "a user stack dump of %llu bytes runs "
				           "past its sample of %zu bytes", (unsigned long long)v, n);
			s->stack = p + i;
			s->stack_size = u64at(p + i + v);
			if (s->stack_size > v)
				return BAD(r, err, rec->off + i + v, "a user stack dump says %llu bytes were "
				           "filled of %llu", (unsigned long long)s->stack_size,
				           (unsigned long long)v);
		}
	}
	return 0;
short_:
	return BAD(r, err, rec->off, "a sample of %zu bytes is shorter than its sample_type "
	           "(0x%llx) says", n, (unsigned long long)st);
}

/* The attribute a sample belongs to: the only one, or the one its id names. */
static int sample_attr(const flame__pd *r, const flame__pd_rec *rec, const flame__pd_attr **a,
                       flame_err *err)
{
	*a = &r->attrs[0];
	if (r->nattrs < 2)
		return 0;
	if (8 + 8 * (size_t)r->id_pos + 8 > rec->size)
		return BAD(r, err, rec->off, "a sample of %zu bytes has no room for its id", rec->size);
	uint64_t id = u64at(rec->p + 8 + 8 * r->id_pos);
	if (!(*a = attr_by_id(r, id)))
		return BAD(r, err, rec->off, "a sample of event id %llu, which no attribute in the "
		           "header describes", (unsigned long long)id);
	return 0;
}

int flame__pd_decode(const flame__pd *r, const flame__pd_rec *rec, flame__pd_sample *s,
                     flame_err *err)
{
	int rc;
	const unsigned char *p = rec->p;
	size_t n = rec->size, i = 8;
	memset(s, 0, sizeof *s);
	const flame__pd_attr *a;
	if ((rc = sample_attr(r, rec, &a, err)))
		return rc;
	s->attr = a;
	uint64_t st = a->sample_type;
#define TAKE(dst)                                                                            \
	do {                                                                                     \
		if (n - i < 8)                                                                       \
			goto short_;                                                                     \
		dst = u64at(p + i);                                                                  \
		i += 8;                                                                              \
	} while (0)
	uint64_t v;
	if (st & S_IDENTIFIER)
		TAKE(v);
	if (st & S_IP)
		TAKE(s->ip);
	if (st & S_TID) {
		TAKE(v);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
		s->has_tid = 1;
	}
	if (st & S_TIME) {
		TAKE(s->time);
		s->has_time = 1;
	}
	if (st & S_ADDR)
		TAKE(v);
	if (st & S_ID)
		TAKE(v);
	if (st & S_STREAM_ID)
		TAKE(v);
	if (st & S_CPU)
		TAKE(v);
	/* as perf's evsel__parse_sample: the attr's period (a fixed `-c N`) unless the sample
	 * carries one, and perf script prints it either way */
	s->period = a->sample_period;
	s->has_period = 1;
	if (st & S_PERIOD)
		TAKE(s->period);
	if (st & S_READ) {
		uint64_t rf = a->read_format, per = 1 + !!(rf & RF_ID) + !!(rf & RF_LOST), nr = 1;
		if (rf & RF_GROUP)
			TAKE(nr);
		uint64_t words = !!(rf & RF_TOTAL_TIME_ENABLED) + !!(rf & RF_TOTAL_TIME_RUNNING);
		if (nr > (n - i) / 8 / per)
			goto short_;
		words += nr * per;
		if (words > (n - i) / 8)
			goto short_;
		i += 8 * words;
	}
	if (st & S_CALLCHAIN) {
		TAKE(s->nchain);
		if (s->nchain > (n - i) / 8)
			return BAD(r, err, rec->off, "a callchain of %llu entries in a sample of %zu bytes",
			           (unsigned long long)s->nchain, n);
		s->chain = p + i;
		s->has_chain = 1;
		i += 8 * s->nchain;
	}
	if ((st & (S_REGS_USER | S_STACK_USER)) && (rc = decode_user(r, rec, a, i, s, err)))
		return rc;
#undef TAKE
	return 0;
short_:
	return BAD(r, err, rec->off, "a sample of %zu bytes is shorter than its sample_type "
	           "(0x%llx) says", n, (unsigned long long)st);
}

size_t flame__pd_attr_count(const flame__pd *r) { return r->nattrs; }
const flame__pd_attr *flame__pd_attr_at(const flame__pd *r, size_t i) { return &r->attrs[i]; }
const flame__pd_build_id *flame__pd_build_ids(const flame__pd *r, size_t *n)
{
	*n = r->nbids;
	return r->bids;
}
const char *flame__pd_hostname(const flame__pd *r) { return r->hostname ? r->hostname : ""; }
const char *flame__pd_cmdline(const flame__pd *r) { return r->cmdline ? r->cmdline : ""; }
const char *flame__pd_name(const flame__pd *r) { return r->name; }
int flame__pd_unfinished(const flame__pd *r, uint64_t *cut)
{
	*cut = r->cut;
	return r->unfinished;
}
