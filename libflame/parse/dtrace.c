/* DTrace aggregation reader (stackcollapse.pl's input): `@[stack()] = count()` printed as
 * indented frames, innermost first, each record ended by its count on a line of its own,
 * into root-first stacks weighed in samples.
 *
 * Example input:
 *   CPU     ID                    FUNCTION:NAME      <- dtrace's header: 3 lines
 *     0  64091                        :tick-60s
 *
 *                 unix`i86_mwait+0xd                 <- leaf first
 *                 unix`idle+0x114
 *                1641                                <- the count
 * Example output:
 *   unix`idle;unix`i86_mwait 1641
 *
 * Frames as the Perl tool makes them: the indent and the offset (the last `+...`) go, a
 * C++ name loses its arguments (from the last `(` or `<` after its first `::`), an empty
 * frame is `-`, `a->b` (inlined) is the frames a and b_[i], `;` becomes `:` and a leading
 * `L` (Java) goes. Blank lines are skipped: a record keyed by two stacks prints a blank
 * line between them, and its frames join. Unlike the Perl tool, which drops the first
 * three lines of any input, only dtrace's header is skipped (so `dtrace -q` output loses
 * no frames); CRs are dropped; a count with no frames above it is skipped with a warning
 * (the Perl tool prints it with an empty stack); an input that ends inside a record is an
 * error naming its line, and NUL bytes are refused as binary data. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "parser.h"
#include "scan.h"

typedef struct dtr {
	flame__sink k;
	const flame_parse_opts *o;
	const char *src;
	uint32_t *ids;         /* the record's frames, leaf first (inlined ones reversed) */
	size_t n, cap;
	char *buf;             /* a frame being rewritten (`;` -> `:`, `_[i]`) */
	size_t buf_cap;
	uint64_t block_line;   /* first frame line of the open record (0: none) */
	uint64_t line_no, off; /* the current line */
} dtr;

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || c == '\n';
}

/* dtrace's first header line: `CPU     ID                    FUNCTION:NAME` */
static int is_header(const char *p, size_t n)
{
	size_t i = 0;
	while (i < n && is_space(p[i]))
		i++;
	return n - i >= 3 && memcmp(p + i, "CPU", 3) == 0 && memmem(p, n, "FUNCTION:NAME", 13);
}

/* `   1641`: the Perl tool's /^\s*(\d+)+$/ */
static int is_count(const char *p, size_t n)
{
	size_t i = 0;
	while (i < n && is_space(p[i]))
		i++;
	if (i == n)
		return 0;
	for (; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

/* The first `ab` in p[0..n), or NULL: memchr finds the rare first byte (`:`, `-`) at once,
 * where memmem costs a quarter of the parse. */
static const char *find2(const char *p, size_t n, char a, char b)
{
	const char *end = p + n, *q = p;
	while ((q = memchr(q, a, (size_t)(end - q))) != NULL && q + 1 < end) {
		if (q[1] == b)
			return q;
		q++;
	}
	return NULL;
}

static int push(dtr *s, const char *p, size_t n, flame_err *err)
{
	uint32_t id = flame__sink_intern(&s->k, p, n);
	if (id == FLAME__ID_NONE || flame__array_reserve_min(s->ids, s->cap, s->n + 1, 64))
		return flame__err_nomem(err);
	s->ids[s->n++] = id;
	return 0;
}

/* One part of an `a->b` frame: `;` -> `:`, no leading `L`, `_[i]` after the first. */
static int push_part(dtr *s, const char *p, size_t n, int inlined, flame_err *err)
{
	if (n && p[0] == 'L')
		p++, n--;
	if (!inlined && !memchr(p, ';', n))
		return push(s, p, n, err);
	if (flame__array_reserve_min(s->buf, s->buf_cap, n + 4, 256))
		return flame__err_nomem(err);
	for (size_t i = 0; i < n; i++)
		s->buf[i] = p[i] == ';' ? ':' : p[i];
	if (inlined)
		memcpy(s->buf + n, "_[i]", 4);
	return push(s, s->buf, n + (inlined ? 4 : 0), err);
}

/* A frame line, its indent gone: its frames go on leaf first (an inlined chain reversed). */
static int frame(dtr *s, const char *p, size_t n, flame_err *err)
{
	const char *plus = memrchr(p, '+', n);
	if (plus)
		n = (size_t)(plus - p);
	const char *cc = find2(p, n, ':', ':');
	if (cc)
		for (size_t i = n; i-- > (size_t)(cc - p) + 2;)
			if (p[i] == '(' || p[i] == '<') {
				n = i;
				break;
			}
	if (n == 0)
		return push(s, "-", 1, err);
	/* split at `->`, trailing empty parts dropped (Perl's split) */
	const char *end = p + n;
	while (end - p >= 2 && end[-1] == '>' && end[-2] == '-')
		end -= 2;
	size_t first = s->n;
	const char *f = p;
	for (int inlined = 0; f < end; inlined = 1) {
		const char *a = find2(f, (size_t)(end - f), '-', '>');
		const char *e = a ? a : end;
		int rc = push_part(s, f, (size_t)(e - f), inlined, err);
		if (rc)
			return rc;
		if (!a)
			break;
		f = a + 2;
	}
	for (size_t i = first, j = s->n; i + 1 < j; i++, j--) {
		uint32_t x = s->ids[i];
		s->ids[i] = s->ids[j - 1];
		s->ids[j - 1] = x;
	}
	return 0;
}

static int count_line(dtr *s, const char *p, size_t n, flame_err *err)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			continue;
		unsigned d = (unsigned)(p[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return flame__err(err, FLAME_ERANGE, s->src, s->line_no, s->off,
			                  "count overflows 64 bits");
		v = v * 10 + d;
	}
	s->block_line = 0;
	if (s->n == 0) {
		flame__warn(s->o->warn, s->o->warn_ud, "dtrace-empty-stack", s->src, s->line_no,
		            "skipped a count with no frames above it");
		return 0;
	}
	for (size_t i = 0, j = s->n; i + 1 < j; i++, j--) {
		uint32_t x = s->ids[i];
		s->ids[i] = s->ids[j - 1];
		s->ids[j - 1] = x;
	}
	size_t k = s->n;
	s->n = 0;
	int rc = flame__sink_add(&s->k, s->ids, k, v, 0, err);
	if (rc == FLAME_ERANGE)
		return flame__err(err, rc, s->src, s->line_no, s->off,
		                  "the total of the counts overflows 64 bits");
	return rc;
}

static int one_line(dtr *s, const char *p, size_t n, flame_err *err)
{
	if (n && p[n - 1] == '\r')
		n--;
	if (memchr(p, '\0', n))
		return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
		                  "binary data (a NUL byte): not DTrace output");
	if (is_count(p, n))
		return count_line(s, p, n, err);
	size_t i = 0;
	while (i < n && is_space(p[i]))
		i++;
	if (i == n)
		return 0;
	if (!s->block_line)
		s->block_line = s->line_no;
	return frame(s, p + i, n - i, err);
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	dtr s = {.o = o};
	flame__lines cur;
	flame__sink_init(&s.k, t);
	int rc = flame__lines_init(&cur, in, err);
	if (rc)
		return rc;
	s.src = flame__lines_source(&cur);
	if ((rc = flame__sink_units(&s.k, "samples", NULL, s.src, err)))
		goto done;
	flame__linewalk w;
	flame__linewalk_init(&w, &cur);
	uint64_t skip = 0; /* the header's last line */
	while ((rc = flame__linewalk_chunk(&w, err)) > 0) {
		const char *q;
		size_t raw;
		while ((q = flame__linewalk_next(&w, &raw, &s.line_no))) {
			if (s.line_no == 1 && is_header(q, raw))
				skip = 3;
			if (s.line_no <= skip)
				continue;
			s.off = flame__linewalk_offset(&w, q);
			if ((rc = one_line(&s, q, raw, err)))
				goto done;
		}
	}
	if (rc == 0 && s.block_line)
		rc = flame__err(err, FLAME_EDATA, s.src, s.line_no, FLAME__NO_OFFSET,
		                "the input ends inside the stack that starts at line %llu, before "
		                "its count (truncated?)", (unsigned long long)s.block_line);
done:
	free(s.ids);
	free(s.buf);
	flame__lines_free(&cur);
	return rc < 0 ? rc : 0;
}

/* Sure only of dtrace's own layout: its header, or blank lines then indented frames of
 * the form module`func (or a 0x address) closed by an indented count. */
static int probe(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	int frames = 0;
	for (uint64_t line = 1; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return 0;
		size_t n = (size_t)(nl - p);
		if (line == 1 && is_header(p, n))
			return 1;
		size_t i = 0;
		while (i < n && is_space(p[i]))
			i++;
		if (i < n && i == 0)
			return 0; /* dtrace indents all it prints below the header */
		if (i < n && is_count(p, n))
			return frames > 0;
		if (i < n) {
			if (!memchr(p + i, '`', n - i) && !(n - i > 2 && p[i] == '0' && p[i + 1] == 'x'))
				return 0;
			frames++;
		} else if (frames) {
			return 0;
		}
		p = nl + 1;
	}
	return 0;
}

const struct flame__parser flame__parser_dtrace = {probe, parse};
