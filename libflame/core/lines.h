/* Line cursor over a flame_input: streams through one reusable buffer (never maps or
 * slurps the file), so memory stays flat however large the input. Lines of any length
 * work: the buffer grows to hold the longest line. */
#ifndef FLAME_CORE_LINES_H
#define FLAME_CORE_LINES_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"

typedef struct flame__lines {
	flame_input *in;
	char *buf;
	size_t cap, start, end; /* unread bytes are buf[start..end); `cap` bytes, of which
	                         * the last 8 stay for the zeros after the data */
	int eof;
	/* the current line */
	const char *line;       /* not NUL-terminated; no '\n' (a trailing '\r' is kept) */
	size_t len;
	uint64_t line_no;       /* 1-based */
	uint64_t offset;        /* byte offset of the line's start */
	uint64_t consumed;      /* bytes before buf[start] */
	uint64_t block_first_line; /* flame__lines_block: number of the block's first line */
} flame__lines;

int flame__lines_init(flame__lines *c, flame_input *in, flame_err *err);
void flame__lines_free(flame__lines *c);
/** Advance to the next line: 1 when there is one, 0 at the end, negative on error. */
int flame__lines_next(flame__lines *c, flame_err *err);
/** Name of the input, for messages. */
const char *flame__lines_source(const flame__lines *c);

/** The one way a side file (a palette map, a nameattr or owners file) is read, the way
 * inputs are: flame_input_open (gzip, limits, errors naming the file), then every line
 * that is not blank, its trailing '\r' dropped, to `fn` with the cursor (for its number
 * and source). 0, or the first negative status of opening, reading or `fn`. */
typedef int (*flame__line_fn)(void *ud, const char *line, size_t len, const flame__lines *c,
                              flame_err *err);
int flame__lines_read_file(const char *path, flame__line_fn fn, void *ud, flame_err *err);

/** Take the next block of whole lines (up to about `want` bytes, at least one line)
 * for parsers that scan a chunk themselves. the block (p, n) stays valid until the next call.
 * Returns 1, 0 at the end, negative on error. Afterwards block_first_line and offset
 * locate the block's start and line_no is the number of its last line. */
int flame__lines_block(flame__lines *c, size_t want, const char **p, size_t *n, flame_err *err);
/** The same without counting lines (the caller does, as it walks the block): only
 * `offset` is set. Any line's bytes are followed by at least 8 readable bytes (the
 * next lines, or zeros after the data), so a scanner may load 8 bytes at any position
 * before a line's end. */
int flame__lines_chunk(flame__lines *c, size_t want, const char **p, size_t *n, flame_err *err);
#endif
