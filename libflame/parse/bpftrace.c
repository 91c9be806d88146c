/* bpftrace map reader (stackcollapse-bpftrace.pl's input): `@[...]: N` entries whose key
 * holds stacks, printed innermost frame first, into root-first stacks weighed in samples.
 *
 * Example input (`@[kstack, ustack, comm] = count()`):
 *   Attaching 2 probes...
 *   @[
 *       _raw_spin_lock_bh+0          <- kstack, leaf first
 *       tcp_recvmsg+808
 *   ,                                <- ", " between the key's members
 *       __libc_recv+14               <- ustack, leaf first
 *   , curl]: 3                       <- the last member, then the count
 * Example output:
 *   curl;__libc_recv+14;-;tcp_recvmsg+808;_raw_spin_lock_bh+0 3
 *
 * As the Perl tool: frames lose their indent and keep their offsets; the text before
 * `]: N` on the closing line is the root frame; `@[, X]: N` is the one-frame stack X; other
 * lines outside an entry (the probe count, maps with no stack) are skipped. Unlike it
 * (which reads `@[` entries whose first stack is not empty, and nothing else): an entry
 * whose first stack is empty (`@[, ` then the user stack: bpftrace prints it for every
 * user-space sample of `@[kstack, ustack]`) is read; `, , X]: N` (an empty stack last) has
 * the root X, not ", X"; the members' separator line (`, `) is the frame `-`, not ", ";
 * a named map (`@name[`) is read as `@[` is, the first map of stacks only (a second one
 * counts the same samples again), the others skipped with a warning; blank lines in an
 * entry and CRs are dropped; identical stacks are summed; an entry with no count
 * (truncated, or a new entry first) is an error naming its line, and NUL bytes are
 * refused as binary data. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "parser.h"
#include "scan.h"

typedef struct bpft {
	flame__sink k;
	const flame_parse_opts *o;
	const char *src;
	uint32_t *ids;         /* the open entry's frames, leaf first */
	size_t n, cap;
	uint32_t *stack;       /* the root-first copy handed to the sink */
	size_t stack_cap;
	uint64_t block_line;   /* line of the open entry's `@[` (0: none open) */
	uint64_t line_no, off; /* the current line */
	char map[64];          /* the name of the map read ("" for @), once seen */
	size_t map_len;
	int have_map;
	int skip;              /* the open entry is another map's: read, not added */
	int warned_map;
} bpft;

/* `@[` or `@name[` alone on its line, an entry whose key starts with a stack: 1; `@[, `,
 * the same whose first stack is empty (a user-space sample of `@[kstack, ustack]`): 2. */
static int opens_entry(const char *p, size_t n)
{
	if (n < 2 || p[0] != '@')
		return 0;
	size_t i = 1;
	while (i < n && ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
	                 (p[i] >= '0' && p[i] <= '9') || p[i] == '_'))
		i++;
	if (i == n || p[i] != '[')
		return 0;
	if (i + 1 == n)
		return 1;
	return p[i + 1] == ',' && (i + 2 == n || (i + 3 == n && p[i + 2] == ' ')) ? 2 : 0;
}

/* The count of a closing line `...]: N` (the Perl tool's /\]: (\d+)/, greedy: the last
 * `]: ` before a digit): 1 with the text before it in *kn, 0 when the line has none,
 * -1 when N overflows 64 bits. */
static int count_of(const char *p, size_t n, size_t *kn, uint64_t *v)
{
	for (size_t d = n; d-- > 3;) {
		if (p[d] < '0' || p[d] > '9' || p[d - 1] != ' ' || p[d - 2] != ':' || p[d - 3] != ']')
			continue;
		uint64_t x = 0;
		for (size_t j = d; j < n && p[j] >= '0' && p[j] <= '9'; j++) {
			unsigned c = (unsigned)(p[j] - '0');
			if (x > (UINT64_MAX - c) / 10)
				return -1;
			x = x * 10 + c;
		}
		*kn = d - 3;
		*v = x;
		return 1;
	}
	return 0;
}

static int push(bpft *s, const char *p, size_t n, flame_err *err)
{
	uint32_t id = flame__sink_intern(&s->k, p, n);
	if (id == FLAME__ID_NONE || flame__array_reserve_min(s->ids, s->cap, s->n + 1, 64))
		return flame__err_nomem(err);
	s->ids[s->n++] = id;
	return 0;
}

/* The open entry's frames, root first, with weight v. */
static int add(bpft *s, uint64_t v, flame_err *err)
{
	if (s->n == 0) {
		flame__warn(s->o->warn, s->o->warn_ud, "bpftrace-empty-stack", s->src, s->line_no,
		            "skipped an entry with no frames");
		return 0;
	}
	if (flame__array_reserve_min(s->stack, s->stack_cap, s->n, 256))
		return flame__err_nomem(err);
	for (size_t i = 0; i < s->n; i++)
		s->stack[i] = s->ids[s->n - 1 - i];
	int rc = flame__sink_add(&s->k, s->stack, s->n, v, 0, err);
	if (rc == FLAME_ERANGE)
		return flame__err(err, rc, s->src, s->line_no, s->off,
		                  "the total of the counts overflows 64 bits");
	return rc;
}

static int overflow(bpft *s, flame_err *err)
{
	return flame__err(err, FLAME_ERANGE, s->src, s->line_no, s->off,
	                  "count overflows 64 bits");
}

/* Whether an entry of map `name` is to be skipped: only the first map keyed by stacks is
 * read, since two maps of one run count the same samples twice (the Perl tool reads `@`
 * alone). */
static int other_map(bpft *s, const char *name, size_t n)
{
	if (!s->have_map) {
		s->have_map = 1;
		s->map_len = n < sizeof s->map ? n : sizeof s->map;
		memcpy(s->map, name, s->map_len);
		return 0;
	}
	if (n == s->map_len && memcmp(name, s->map, n) == 0)
		return 0;
	if (!s->warned_map)
		flame__warn(s->o->warn, s->o->warn_ud, "bpftrace-other-map", s->src, s->line_no,
		            "skipped the map @%.*s: only the first map of stacks, @%.*s, is read",
		            (int)(n > 64 ? 64 : n), name, (int)s->map_len, s->map);
	s->warned_map = 1;
	return 1;
}

/* The closing line's key text p[0..kn) (the members after the stacks, as `, X` or, after
 * an empty stack, `, , X`) is the root frame X; then the entry goes in with weight v. */
static int close_entry(bpft *s, const char *p, size_t kn, uint64_t v, flame_err *err)
{
	size_t i = 0;
	while (i < kn && p[i] == ',') {
		i++;
		if (i < kn && (p[i] == ' ' || p[i] == '\t'))
			i++;
	}
	int rc = i < kn && !s->skip ? push(s, p + i, kn - i, err) : 0;
	s->block_line = 0;
	return rc || s->skip ? rc : add(s, v, err);
}

/* A line outside an entry. */
static int outside(bpft *s, const char *p, size_t n, flame_err *err)
{
	size_t kn;
	uint64_t v;
	const char *c = n >= 2 && p[0] == '@' ? memchr(p, '[', n) : NULL;
	if (opens_entry(p, n) || (c && c[1] == ',' && count_of(p, n, &kn, &v))) {
		s->skip = other_map(s, p + 1, (size_t)(c - p - 1));
		s->block_line = s->line_no;
		s->n = 0;
	}
	if (s->block_line) {
		/* `@[, X]: N`: an empty stack, then the key's last member */
		int rc = count_of(c + 1, (size_t)(p + n - c - 1), &kn, &v);
		if (rc < 0)
			return overflow(s, err);
		if (rc > 0)
			return close_entry(s, c + 1, kn, v, err);
		return 0;
	}
	if (n && p[0] != '@' && !(n >= 10 && memcmp(p, "Attaching ", 10) == 0))
		flame__warn(s->o->warn, s->o->warn_ud, "bpftrace-invalid-line", s->src, s->line_no,
		            "skipped a line outside any map entry: '%.*s'", (int)(n > 80 ? 80 : n), p);
	return 0;
}

/* A line inside an entry: a frame, the members' separator, or the closing line. */
static int inside(bpft *s, const char *p, size_t n, flame_err *err)
{
	size_t kn;
	uint64_t v;
	if (opens_entry(p, n))
		return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
		                  "a new map entry, but the entry that starts at line %llu has no "
		                  "count ('...]: N')", (unsigned long long)s->block_line);
	/* most lines are frames with no `]`: memchr tells them at once */
	int rc = memchr(p, ']', n) ? count_of(p, n, &kn, &v) : 0;
	if (rc < 0)
		return overflow(s, err);
	if (rc > 0)
		return close_entry(s, p, kn, v, err);
	size_t i = 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\f' || p[i] == '\v'))
		i++;
	if (i == n)
		return 0;
	if (s->skip && !(i == 0 && (p[0] == ']' || p[0] == ',')))
		return 0;
	if (i == 0 && p[0] == ',' && (n == 1 || (n == 2 && p[1] == ' ')))
		return s->skip ? 0 : push(s, "-", 1, err);
	if (i == 0 && (p[0] == ']' || p[0] == ','))
		return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
		                  "the entry that starts at line %llu ends without a count "
		                  "('...]: N')", (unsigned long long)s->block_line);
	return push(s, p + i, n - i, err);
}

static int one_line(bpft *s, const char *p, size_t n, flame_err *err)
{
	if (n && p[n - 1] == '\r')
		n--;
	if (memchr(p, '\0', n))
		return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
		                  "binary data (a NUL byte): not bpftrace output");
	return s->block_line ? inside(s, p, n, err) : outside(s, p, n, err);
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	bpft s = {.o = o};
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
	while ((rc = flame__linewalk_chunk(&w, err)) > 0) {
		const char *q;
		size_t raw;
		while ((q = flame__linewalk_next(&w, &raw, &s.line_no))) {
			s.off = flame__linewalk_offset(&w, q);
			if ((rc = one_line(&s, q, raw, err)))
				goto done;
		}
	}
	if (rc == 0 && s.block_line)
		rc = flame__err(err, FLAME_EDATA, s.src, s.line_no, FLAME__NO_OFFSET,
		                "the input ends inside the map entry that starts at line %llu "
		                "(truncated?)", (unsigned long long)s.block_line);
done:
	free(s.ids);
	free(s.stack);
	flame__lines_free(&cur);
	return rc < 0 ? rc : 0;
}

/* Sure only of bpftrace's own lines: after blank lines and `Attaching N probes...`, an
 * entry opening (`@[` or `@[, ` alone) or `@[, X]: N`. */
static int probe(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return 0;
		size_t n = (size_t)(nl - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (opens_entry(p, n))
			return 1; /* `@[` alone on a line: nothing else prints that */
		const char *c = n > 2 && p[0] == '@' ? memchr(p, '[', n) : NULL;
		if (c && c[1] == ',') {
			size_t kn;
			uint64_t v;
			return count_of(p, n, &kn, &v) == 1;
		}
		if (n && !(n >= 10 && memcmp(p, "Attaching ", 10) == 0))
			return 0;
		p = nl + 1;
	}
	return 0;
}

const struct flame__parser flame__parser_bpftrace = {probe, parse};
