/* Line cursor: one reusable buffer refilled from the input; memchr finds line ends.
 * The buffer only grows to hold the longest line, so memory stays flat. */
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "err.h"
#include "input.h"
#include "lines.h"

/* LINES_PAD zero bytes always follow the data, so scanners may load a word at any
 * position before the end of a line (see lines.h). */
enum { LINES_CAP = 1 << 20, LINES_PAD = 8 };

int flame__lines_init(flame__lines *c, flame_input *in, flame_err *err)
{
	memset(c, 0, sizeof *c);
	c->in = in;
	if (flame__array_reserve_min(c->buf, c->cap, LINES_CAP + LINES_PAD, LINES_CAP + LINES_PAD))
		return flame__err_nomem(err);
	return 0;
}

void flame__lines_free(flame__lines *c)
{
	free(c->buf);
	c->buf = NULL;
}

const char *flame__lines_source(const flame__lines *c) { return flame_input_name(c->in); }

/* Make room and read more. Returns bytes read (0 at EOF) or a negative status. */
static long refill(flame__lines *c, flame_err *err)
{
	if (c->start > 0) {
		memmove(c->buf, c->buf + c->start, c->end - c->start);
		c->end -= c->start;
		c->consumed += c->start;
		c->start = 0;
	}
	if (c->end + LINES_PAD == c->cap && flame__array_reserve(c->buf, c->cap, c->cap + 1))
		return flame__err_nomem(err);
	long r = flame__input_read(c->in, c->buf + c->end, c->cap - LINES_PAD - c->end, err);
	if (r < 0)
		return r;
	if (r == 0)
		c->eof = 1;
	c->end += (size_t)r;
	memset(c->buf + c->end, 0, LINES_PAD);
	return r;
}

int flame__lines_next(flame__lines *c, flame_err *err)
{
	size_t scan = c->start;
	for (;;) {
		char *nl = memchr(c->buf + scan, '\n', c->end - scan);
		if (nl) {
			c->line = c->buf + c->start;
			c->len = (size_t)(nl - c->line);
			c->offset = c->consumed + c->start;
			c->line_no++;
			c->start = (size_t)(nl - c->buf) + 1;
			return 1;
		}
		if (c->eof) {
			if (c->start == c->end)
				return 0;
			c->line = c->buf + c->start; /* last line without '\n' */
			c->len = c->end - c->start;
			c->offset = c->consumed + c->start;
			c->line_no++;
			c->start = c->end;
			return 1;
		}
		size_t done = c->end - c->start;
		long r = refill(c, err);
		if (r < 0)
			return (int)r;
		scan = c->start + done;
	}
}

static int take_block(flame__lines *c, size_t want, const char **p, size_t *n, int count,
                      flame_err *err)
{
	for (;;) {
		size_t avail = c->end - c->start;
		if (avail >= want || c->eof) {
			if (avail == 0)
				return 0;
			size_t lim = avail < want ? avail : want;
			const char *b = c->buf + c->start;
			const char *nl = memrchr(b, '\n', lim);
			size_t take;
			if (nl)
				take = (size_t)(nl - b) + 1;
			else if (c->eof)
				take = avail;
			else {
				/* one line longer than `want`: read until it ends */
				const char *e = memchr(b, '\n', avail);
				if (!e) {
					long r = refill(c, err);
					if (r < 0)
						return (int)r;
					continue;
				}
				take = (size_t)(e - b) + 1;
			}
			c->offset = c->consumed + c->start;
			*p = b;
			*n = take;
			c->start += take;
			c->line = b;
			c->len = take;
			if (!count)
				return 1;
			uint64_t lines = 0;
			for (const char *q = b, *end = b + take; (q = memchr(q, '\n', (size_t)(end - q)));
			     q++)
				lines++;
			if (b[take - 1] != '\n')
				lines++; /* last line without '\n' */
			c->block_first_line = c->line_no + 1;
			c->line_no += lines;
			return 1;
		}
		long r = refill(c, err);
		if (r < 0)
			return (int)r;
	}
}

int flame__lines_block(flame__lines *c, size_t want, const char **p, size_t *n, flame_err *err)
{
	return take_block(c, want, p, n, 1, err);
}

int flame__lines_chunk(flame__lines *c, size_t want, const char **p, size_t *n, flame_err *err)
{
	return take_block(c, want, p, n, 0, err);
}

int flame__lines_read_file(const char *path, flame__line_fn fn, void *ud, flame_err *err)
{
	flame_input *in = NULL;
	flame__lines c;
	int rc = flame_input_open(&in, path, err);
	if (!rc && !(rc = flame__lines_init(&c, in, err))) {
		while ((rc = flame__lines_next(&c, err)) > 0) {
			size_t len = c.len;
			while (len && c.line[len - 1] == '\r')
				len--;
			if (len && (rc = fn(ud, c.line, len, &c, err)))
				break;
		}
		flame__lines_free(&c);
	}
	flame_input_free(in);
	return rc < 0 ? rc : 0;
}
