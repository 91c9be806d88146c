/* Inputs: a file, stdin or memory, read in chunks; gzip is detected by its magic bytes
 * and inflated with zlib as it streams (multi-member files too), so every format can be
 * gzipped and nothing is ever mapped or read whole unless a parser asks to. What comes out
 * of zlib is counted as it comes and stopped at a limit, so a small gzip bomb costs a
 * bounded amount of time and memory. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "array.h"
#include "err.h"
#include "input.h"
#include "tree.h"

enum { RAW_CAP = 256 * 1024, DIRECT_MIN = 32 * 1024 };

struct flame_input {
	char name[256];
	int fd, own_fd;
	const unsigned char *mem;
	size_t mem_len, mem_pos;
	unsigned char *raw;         /* compressed (or plain) bytes */
	size_t raw_start, raw_end;
	int raw_eof;
	uint64_t raw_offset;        /* raw bytes consumed before raw[raw_start] */
	int sniffed, gz, gz_end;    /* gz_end: the last member ended cleanly */
	z_stream zs;
	int zs_init;
	char *peek;                 /* decompressed bytes peeked but not yet read */
	size_t peek_len, peek_pos;
	uint64_t offset;            /* decompressed bytes handed out */
	uint64_t size;              /* bytes of a regular file or memory; 0: unknown */
	uint64_t limit;             /* most decompressed bytes; 0: the defaults */
	uint64_t gz_out;            /* bytes inflated so far, all members */
	flame_progress_fn progress;
	void *progress_ud;
	const flame_tree *watched;  /* the tree being parsed from here: its stacks so far */
	uint64_t reported;          /* the most bytes reported done (progress never goes back) */
};

static void set_name(flame_input *in, const char *name)
{
	size_t n = strlen(name);
	if (n >= sizeof in->name)
		n = sizeof in->name - 1;
	memcpy(in->name, name, n);
	in->name[n] = '\0';
}

static flame_input *input_alloc(const char *name)
{
	flame_input *in = calloc(1, sizeof *in);
	if (!in)
		return NULL;
	in->raw = malloc(RAW_CAP);
	if (!in->raw) {
		free(in);
		return NULL;
	}
	in->fd = -1;
	set_name(in, name);
	return in;
}

int flame_input_open(flame_input **out, const char *path, flame_err *err)
{
	*out = NULL;
	int is_stdin = !path || strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return flame__err(err, FLAME_EIO, name, 0, FLAME__NO_OFFSET, "cannot open: %s",
		                  strerror(errno));
	struct stat st = {0};
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (!is_stdin)
			close(fd);
		return flame__err(err, FLAME_EIO, name, 0, FLAME__NO_OFFSET, "is a directory");
	}
	flame_input *in = input_alloc(name);
	if (!in) {
		if (!is_stdin)
			close(fd);
		return flame__err_nomem(err);
	}
	in->fd = fd;
	in->own_fd = !is_stdin;
	in->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	*out = in;
	return 0;
}

int flame_input_open_mem(flame_input **out, const void *data, size_t len, const char *name,
                         flame_err *err)
{
	flame_input *in = input_alloc(name ? name : "<memory>");
	if (!in)
		return flame__err_nomem(err);
	in->mem = data;
	in->mem_len = len;
	in->size = len;
	*out = in;
	return 0;
}

const char *flame_input_name(const flame_input *in) { return in->name; }

void flame_input_free(flame_input *in)
{
	if (!in)
		return;
	if (in->own_fd)
		close(in->fd);
	if (in->zs_init)
		inflateEnd(&in->zs);
	free(in->raw);
	free(in->peek);
	free(in);
}

/* Refill raw[] (keeping unconsumed bytes). Returns bytes added, 0 at EOF, <0 error. */
static long raw_fill(flame_input *in, flame_err *err)
{
	if (in->raw_eof)
		return 0;
	if (in->raw_start > 0) {
		memmove(in->raw, in->raw + in->raw_start, in->raw_end - in->raw_start);
		in->raw_end -= in->raw_start;
		in->raw_offset += in->raw_start;
		in->raw_start = 0;
	}
	size_t room = RAW_CAP - in->raw_end;
	if (room == 0)
		return 0;
	if (in->mem) {
		size_t n = in->mem_len - in->mem_pos;
		if (n > room)
			n = room;
		memcpy(in->raw + in->raw_end, in->mem + in->mem_pos, n);
		in->mem_pos += n;
		in->raw_end += n;
		if (n == 0)
			in->raw_eof = 1;
		return (long)n;
	}
	for (;;) {
		ssize_t n = read(in->fd, in->raw + in->raw_end, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return flame__err(err, FLAME_EIO, in->name, 0, in->raw_offset + in->raw_end,
			                  "read error: %s", strerror(errno));
		if (n == 0)
			in->raw_eof = 1;
		in->raw_end += (size_t)n;
		return (long)n;
	}
}

static int sniff(flame_input *in, flame_err *err)
{
	in->sniffed = 1;
	while (in->raw_end - in->raw_start < 2 && !in->raw_eof) {
		long r = raw_fill(in, err);
		if (r < 0)
			return (int)r;
	}
	if (in->raw_end - in->raw_start >= 2 && in->raw[in->raw_start] == 0x1f &&
	    in->raw[in->raw_start + 1] == 0x8b) {
		in->gz = 1;
		memset(&in->zs, 0, sizeof in->zs);
		if (inflateInit2(&in->zs, 16 + MAX_WBITS) != Z_OK)
			return flame__err_nomem(err);
		in->zs_init = 1;
	}
	return 0;
}

static long gz_read(flame_input *in, unsigned char *buf, size_t cap, flame_err *err)
{
	size_t got = 0;
	while (got < cap) {
		if (in->raw_start == in->raw_end) {
			long r = raw_fill(in, err);
			if (r < 0)
				return r;
			if (r == 0) {
				if (in->gz_end)
					break; /* clean end after a complete member */
				return flame__err(err, FLAME_EDATA, in->name, 0, in->raw_offset + in->raw_end,
				                  "truncated gzip data (unexpected end of file)");
			}
		}
		if (in->gz_end) {
			/* another member follows (pprof and gzip allow concatenation) */
			inflateReset(&in->zs);
			in->gz_end = 0;
		}
		in->zs.next_in = in->raw + in->raw_start;
		in->zs.avail_in = (uInt)(in->raw_end - in->raw_start);
		/* room for one byte past the limit, to tell "exactly the limit" from "more" */
		uint64_t limit = flame__input_limit(in, FLAME_INPUT_LIMIT_DEFAULT);
		size_t room = cap - got;
		if (room > limit + 1 - in->gz_out)
			room = (size_t)(limit + 1 - in->gz_out);
		if (room > UINT_MAX)
			room = UINT_MAX;
		in->zs.next_out = buf + got;
		in->zs.avail_out = (uInt)room;
		int zr = inflate(&in->zs, Z_NO_FLUSH);
		size_t used = (in->raw_end - in->raw_start) - in->zs.avail_in;
		in->raw_start += used;
		got += room - in->zs.avail_out;
		in->gz_out += room - in->zs.avail_out;
		if (in->gz_out > limit)
			return flame__err(err, FLAME_ERANGE, in->name, 0, in->raw_offset + in->raw_start,
			                  "gzip data inflates to more than %llu bytes (the limit)",
			                  (unsigned long long)limit);
		if (zr == Z_STREAM_END) {
			in->gz_end = 1;
			continue;
		}
		if (zr == Z_OK || zr == Z_BUF_ERROR)
			continue;
		if (zr == Z_MEM_ERROR)
			return flame__err_nomem(err);
		return flame__err(err, FLAME_EDATA, in->name, 0, in->raw_offset + in->raw_start,
		                  "corrupt gzip data: %s", in->zs.msg ? in->zs.msg : "inflate failed");
	}
	return (long)got;
}

static long raw_read(flame_input *in, flame_input *unused, unsigned char *buf, size_t cap,
                     flame_err *err)
{
	(void)unused;
	size_t got = 0;
	while (got < cap) {
		if (in->raw_start == in->raw_end) {
			/* large reads go straight to the caller's buffer (a parser reading
			 * 64 KB blocks keeps them in L2 from the copy to the parse) */
			if (!in->mem && cap - got >= DIRECT_MIN && !in->raw_eof) {
				ssize_t n;
				do
					n = read(in->fd, buf + got, cap - got);
				while (n < 0 && errno == EINTR);
				if (n < 0)
					return flame__err(err, FLAME_EIO, in->name, 0, in->raw_offset,
					                  "read error: %s", strerror(errno));
				if (n == 0) {
					in->raw_eof = 1;
					break;
				}
				in->raw_offset += (size_t)n;
				got += (size_t)n;
				continue;
			}
			long r = raw_fill(in, err);
			if (r < 0)
				return r;
			if (r == 0)
				break;
		}
		size_t n = in->raw_end - in->raw_start;
		if (n > cap - got)
			n = cap - got;
		memcpy(buf + got, in->raw + in->raw_start, n);
		in->raw_start += n;
		got += n;
	}
	return (long)got;
}

static long read_decoded(flame_input *in, void *buf, size_t cap, flame_err *err)
{
	if (!in->sniffed) {
		int rc = sniff(in, err);
		if (rc)
			return rc;
	}
	long r = in->gz ? gz_read(in, buf, cap, err) : raw_read(in, NULL, buf, cap, err);
	if (r > 0)
		flame__input_report(in, in->raw_offset + in->raw_start);
	return r;
}

void flame__input_report(flame_input *in, uint64_t done)
{
	if (done < in->reported)
		done = in->reported; /* a reader at offsets may read behind what it read first */
	in->reported = done;
	if (in->progress)
		in->progress(in->progress_ud, done, in->size,
		             in->watched ? flame__tree_stacks_seen(in->watched) : 0);
}

void flame_input_set_limit(flame_input *in, uint64_t max_bytes) { in->limit = max_bytes; }

uint64_t flame__input_limit(const flame_input *in, uint64_t dflt)
{
	return in->limit ? in->limit : dflt;
}

void flame__input_watch(flame_input *in, const flame_tree *t) { in->watched = t; }

void flame_input_set_progress(flame_input *in, flame_progress_fn fn, void *ud)
{
	in->progress = fn;
	in->progress_ud = ud;
}

long flame__input_read(flame_input *in, void *buf, size_t cap, flame_err *err)
{
	size_t got = 0;
	if (in->peek_pos < in->peek_len) {
		size_t n = in->peek_len - in->peek_pos;
		if (n > cap)
			n = cap;
		memcpy(buf, in->peek + in->peek_pos, n);
		in->peek_pos += n;
		got = n;
		if (got == cap) {
			in->offset += got;
			return (long)got;
		}
	}
	long r = read_decoded(in, (char *)buf + got, cap - got, err);
	if (r < 0)
		return r;
	got += (size_t)r;
	in->offset += got;
	return (long)got;
}

long flame__input_peek(flame_input *in, const char **data, size_t cap, flame_err *err)
{
	if (!in->peek) {
		in->peek = malloc(cap ? cap : 1);
		if (!in->peek)
			return flame__err_nomem(err);
		long r = read_decoded(in, in->peek, cap, err);
		if (r < 0)
			return r;
		in->peek_len = (size_t)r;
		in->peek_pos = 0;
	}
	*data = in->peek + in->peek_pos;
	return (long)(in->peek_len - in->peek_pos);
}

int flame__input_slurp(flame_input *in, char **data, size_t *len, size_t limit, flame_err *err)
{
	/* room for one byte past the limit, to tell "exactly the limit" from "more" */
	size_t most = limit < SIZE_MAX ? limit + 1 : limit;
	size_t cap = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (n > limit) {
			free(buf);
			return flame__err(err, FLAME_ERANGE, in->name, 0, limit,
			                  "input larger than %zu bytes (the limit)", limit);
		}
		if (flame__array_reserve_upto(buf, cap, n + 1, 1 << 16, most)) {
			free(buf);
			return flame__err_nomem(err);
		}
		long r = flame__input_read(in, buf + n, cap - n, err);
		if (r < 0) {
			free(buf);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*data = buf;
	*len = n;
	return 0;
}

static int regular_file(const flame_input *in)
{
	struct stat st;
	return in->own_fd && fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
}

int flame__input_plain(flame_input *in)
{
	if (!in->mem && !regular_file(in))
		return 0;
	if (!in->sniffed) {
		flame_err err;
		if (sniff(in, &err))
			return 0;
	}
	return !in->gz;
}

int flame__input_rewind(flame_input *in)
{
	if (in->gz || (!in->mem && (!regular_file(in) || lseek(in->fd, 0, SEEK_SET) != 0)))
		return -1;
	in->mem_pos = 0;
	in->raw_start = in->raw_end = 0;
	in->raw_eof = 0;
	in->raw_offset = 0;
	in->sniffed = 0;
	free(in->peek);
	in->peek = NULL;
	in->peek_len = in->peek_pos = 0;
	in->offset = 0;
	return 0;
}

int flame__input_map(flame_input *in, uint64_t off, uint64_t n, flame__mapped *m)
{
	memset(m, 0, sizeof *m);
	if (in->mem) {
		if (off > in->mem_len || n > in->mem_len - off)
			return -1;
		m->p = in->mem + off;
		m->len = (size_t)n;
		return 0;
	}
	if (!n || in->gz || !regular_file(in) || !flame__input_holds(in, off + n) ||
	    n > SIZE_MAX / 2)
		return -1;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t lead = off % (uint64_t)(page > 0 ? page : 4096);
	void *b = mmap(NULL, (size_t)(n + lead), PROT_READ, MAP_PRIVATE, in->fd, (off_t)(off - lead));
	if (b == MAP_FAILED)
		return -1;
	madvise(b, (size_t)(n + lead), MADV_SEQUENTIAL);
	m->base = b;
	m->len = (size_t)(n + lead);
	m->p = (const unsigned char *)b + lead;
	return 0;
}

void flame__input_unmap(flame__mapped *m)
{
	if (m->base)
		munmap(m->base, m->len);
	memset(m, 0, sizeof *m);
}

void flame__input_map_drop(flame__mapped *m, size_t done)
{
	if (!m->base)
		return;
	size_t lead = (size_t)(m->p - (const unsigned char *)m->base), page = 4096;
	long ps = sysconf(_SC_PAGESIZE);
	if (ps > 0)
		page = (size_t)ps;
	/* whole pages only: the one that holds bytes past `done` stays */
	size_t end = (lead + done) / page * page;
	if (end > m->len)
		end = m->len / page * page;
	if (end)
		madvise(m->base, end, MADV_DONTNEED);
}

int flame__input_holds(flame_input *in, uint64_t end)
{
	struct stat st;
	if (in->mem)
		return end <= in->mem_len;
	return fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= end;
}

uint64_t flame__input_offset(const flame_input *in) { return in->offset; }

uint64_t flame__input_size(const flame_input *in) { return in->size; }

long flame__input_pread(flame_input *in, void *buf, size_t n, uint64_t off, flame_err *err)
{
	if (in->mem) {
		if (off >= in->mem_len)
			return 0;
		if (n > in->mem_len - off)
			n = (size_t)(in->mem_len - off);
		memcpy(buf, in->mem + off, n);
		return (long)n;
	}
	if (in->gz || !regular_file(in))
		return flame__err(err, FLAME_EUSAGE, in->name, 0, off, "cannot read at an offset");
	size_t got = 0;
	while (got < n) {
		ssize_t k = pread(in->fd, (char *)buf + got, n - got, (off_t)(off + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return flame__err(err, FLAME_EIO, in->name, 0, off + got, "read error: %s",
			                  strerror(errno));
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (long)got;
}
