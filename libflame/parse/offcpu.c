/* BCC offcputime reader (tools/offcputime.py and libbpf-tools offcputime): off-CPU
 * time in microseconds, every output mode, into stacks rooted at the comm.
 *
 * Example input (default multi-line form, frames leaf first):
 *   Tracing off-CPU time (us) of all threads by user + kernel stack for 3 secs.
 *
 *       schedule                      <- kernel frames, leaf first
 *       do_nanosleep
 *       --                            <- kernel/user delimiter (-d)
 *       nanosleep                     <- user frames, leaf first
 *       main
 *       -                sleep (27098)   <- "    %-16s %s (%d)" % ("-", comm, tid)
 *           208695                    <- microseconds
 *
 * Example output (as `offcputime -f -d` prints the same entry):
 *   sleep;main;nanosleep;-;do_nanosleep;schedule 208695
 *
 * A block is a run of lines ended by an empty line: the last line is the value, the
 * one before it the process line, everything above frames. The old process line
 * (bcc 2016) is just `    comm`; libbpf-tools `-v` frames are `    #N  0xADDR sym+0xOFF
 * [(dso+0xOFF)]` (the address and dso columns are dropped, the offset kept, as with
 * `-s`). `-f` lines (`comm;frames value`) are read as they are. Identical stacks from
 * different threads are summed; --pid/--tid make the root `comm-TID` (the id is the
 * only one offcputime prints, a thread id).
 *
 * Captures made with `2>&1` interleave the tool's stderr (unbuffered) with its stdout
 * (flushed a block at a time, mostly in mid-line): a stderr message can cut a line in two,
 *   `    __sche` + `failed to get syms` NL + `dule` NL.
 * A line that ends in such a message keeps its head, and the next line that is not one
 * completes it. Lines that fit no rule are skipped with a warning; a block that ends
 * without its value line is dropped with a warning. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "frame-region.h"
#include "parser.h"
#include "scan.h"

typedef struct offcpu {
	flame__sink k; /* where the stacks go (the tree) */
	const flame_parse_opts *o;
	const char *src;
	flame__lines cur;
	uint32_t *stack;        /* root-first copy handed to the tree */
	size_t stack_cap;
	uint64_t block_line;    /* first line of the current block (0: none open) */
	int has_proc;           /* a new-format process line was seen */
	int warned_no_id;
	uint32_t comm;          /* root id from the process line */
	uint64_t mult;          /* 10^tree scale */
	char name[64];          /* "comm-TID" */
	uint64_t line_no, off;  /* the current line */
	flame__region fr;       /* frames of the current block: ids (leaf first), lines */
	char *head;             /* the part of a line before a glued stderr message */
	size_t head_len, head_cap;
	int glued;              /* a head waits for the rest of its line */
	int marker;             /* a missed-stack marker waits for the next line: M_KERNEL, M_USER */
	uint64_t marker_line;
	const char *marker_p;   /* its line while in the chunk (NULL: gone, or in head) */
	size_t marker_raw;
	const char *chunk, *chunk_end; /* the bytes of the current chunk */
} offcpu;

enum { M_NONE, M_KERNEL, M_USER };

static int starts(const char *p, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	return n >= k && memcmp(p, lit, k) == 0;
}

static int all_digits(const char *p, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

/* value line: exactly 8 spaces, then digits */
static int is_value_line(const char *p, size_t n)
{
	return n > 8 && memcmp(p, "        ", 8) == 0 && all_digits(p + 8, n - 8);
}

static int push(offcpu *s, const char *p, size_t n, flame_err *err)
{
	return flame__region_intern(&s->fr, &s->k, p, n, err);
}

/* libbpf-tools -v frame: `#N  0xADDR [sym+0xOFF] [(dso+0xOFF)]` -> `sym+0xOFF`.
 * Returns 0 when `p` is not in that form. */
static int verbose_frame(const char *p, size_t n, const char **fp, size_t *fn)
{
	size_t i = 1;
	if (n < 2 || p[0] != '#')
		return 0;
	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	if (i == 1 || i == n || p[i] != ' ')
		return 0;
	while (i < n && p[i] == ' ')
		i++;
	if (i + 2 > n || p[i] != '0' || p[i + 1] != 'x')
		return 0;
	i += 2;
	size_t h = i;
	while (i < n && ((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f') ||
	                 (p[i] >= 'A' && p[i] <= 'F')))
		i++;
	if (i == h || (i < n && p[i] != ' '))
		return 0;
	while (i < n && p[i] == ' ')
		i++;
	const char *s = p + i;
	size_t m = n - i;
	/* drop a trailing `(dso+0xOFF)`: mangled symbols never hold " (" */
	if (m && s[m - 1] == ')') {
		size_t k = m;
		while (k > 0 && s[k - 1] != '(')
			k--;
		if (k > 0 && (k == 1 || s[k - 2] == ' '))
			m = k >= 2 ? k - 2 : 0;
	}
	if (m == 0) {
		s = "[unknown]";
		m = 9;
	}
	*fp = s;
	*fn = m;
	return 1;
}

/* `    -                comm (tid)`: the comm may hold spaces and " (". */
static int process_line(offcpu *s, const char *p, size_t n, flame_err *err)
{
	size_t i = 5;
	size_t sp = 0;
	while (i + sp < n && p[i + sp] == ' ')
		sp++;
	i += sp > 16 ? 16 : sp; /* "%-16s " pads "-" with 16 spaces; more belong to the comm */
	const char *c = p + i;
	size_t cn = n - i, id_at = 0, id_len = 0;
	if (cn >= 4 && c[cn - 1] == ')') {
		size_t k = cn - 1;
		while (k > 0 && c[k - 1] >= '0' && c[k - 1] <= '9')
			k--;
		if (k < cn - 1 && k >= 2 && c[k - 1] == '(' && c[k - 2] == ' ') {
			id_at = k;
			id_len = cn - 1 - k;
			cn = k - 2;
		}
	}
	const char *rp = c;
	size_t rn = cn;
	if (id_len && (s->o->offcpu_flags & (FLAME_OFFCPU_PID | FLAME_OFFCPU_TID)) &&
	    cn + 1 + id_len < sizeof s->name) {
		memcpy(s->name, c, cn);
		s->name[cn] = '-';
		memcpy(s->name + cn + 1, c + id_at, id_len);
		rp = s->name;
		rn = cn + 1 + id_len;
	}
	s->comm = flame__sink_intern(&s->k, rp, rn);
	if (s->comm == FLAME__ID_NONE)
		return flame__err_nomem(err);
	s->has_proc = 1;
	return 0;
}

static int add_stack(offcpu *s, uint32_t root, const uint32_t *leaf_first, size_t n,
                     uint64_t v, flame_err *err)
{
	if (flame__array_reserve_min(s->stack, s->stack_cap, n + 1, 256))
		return flame__err_nomem(err);
	s->stack[0] = root;
	for (size_t i = 0; i < n; i++)
		s->stack[1 + i] = leaf_first[n - 1 - i];
	if (v && v > UINT64_MAX / s->mult)
		return flame__err(err, FLAME_ERANGE, s->src, s->line_no, s->off,
		                  "value overflows 64 bits");
	int rc = flame__sink_add(&s->k, s->stack, n + 1, v * s->mult, 0, err);
	if (rc == FLAME_ERANGE)
		return flame__err(err, rc, s->src, s->line_no, s->off,
		                  "the total of the values overflows 64 bits");
	return rc;
}

static int parse_u64(const char *p, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(p[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* `        N`: closes the block. */
static int value_line(offcpu *s, const char *p, size_t n, flame_err *err)
{
	uint64_t v;
	if (!s->block_line)
		return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
		                  "a value line without a stack above it");
	if (parse_u64(p + 8, n - 8, &v))
		return flame__err(err, FLAME_ERANGE, s->src, s->line_no, s->off,
		                  "value overflows 64 bits");
	uint32_t root;
	if (s->has_proc) {
		root = s->comm;
	} else {
		/* old format: the line above the value is just the comm */
		if (s->fr.n == 0)
			return flame__err(err, FLAME_EDATA, s->src, s->line_no, s->off,
			                  "a value line without a process line above it");
		root = s->fr.ids[--s->fr.n];
	}
	int rc = add_stack(s, root, s->fr.ids, s->fr.n, v, err);
	s->fr.n = 0;
	s->has_proc = 0;
	s->block_line = 0;
	return rc;
}

/* `comm;frame;...;frame value` (-f), root first already. */
static int folded_line(offcpu *s, const char *p, size_t n, flame_err *err)
{
	size_t e = n;
	while (e > 0 && p[e - 1] != ' ')
		e--;
	uint64_t v;
	if (e < 2 || !all_digits(p + e, n - e))
		return 1;
	if (parse_u64(p + e, n - e, &v))
		return flame__err(err, FLAME_ERANGE, s->src, s->line_no, s->off,
		                  "value overflows 64 bits");
	size_t m = e - 1;
	if ((s->o->offcpu_flags & (FLAME_OFFCPU_PID | FLAME_OFFCPU_TID)) && !s->warned_no_id) {
		s->warned_no_id = 1;
		flame__warn(s->o->warn, s->o->warn_ud, "offcpu-folded-no-id", s->src, s->line_no,
		            "-f output carries no thread ids: --pid/--tid do not apply");
	}
	s->fr.n = 0;
	const char *f = p, *end = p + m;
	for (;;) {
		const char *q = memchr(f, ';', (size_t)(end - f));
		int rc = push(s, f, (size_t)((q ? q : end) - f), err);
		if (rc)
			return rc;
		if (!q)
			break;
		f = q + 1;
	}
	/* ids are root first here; add_stack wants the root apart and the rest leaf first */
	uint32_t *ids = s->fr.ids;
	for (size_t i = 1, j = s->fr.n - 1; i < j; i++, j--) {
		uint32_t x = ids[i];
		ids[i] = ids[j];
		ids[j] = x;
	}
	int rc = add_stack(s, ids[0], ids + 1, s->fr.n - 1, v, err);
	s->fr.n = 0;
	return rc;
}

static void skip_line_at(offcpu *s, uint64_t line, const char *p, size_t n)
{
	flame__warn(s->o->warn, s->o->warn_ud, "offcpu-unrecognized-line", s->src, line,
	            "skipped a line offcputime does not print: '%.*s'", (int)(n > 80 ? 80 : n), p);
}

static void skip_line(offcpu *s, const char *p, size_t n) { skip_line_at(s, s->line_no, p, n); }

static int marker_kind(const char *p, size_t n)
{
	if (n == 25 && memcmp(p, "    [Missed Kernel Stack]", 25) == 0)
		return M_KERNEL;
	if (n == 23 && memcmp(p, "    [Missed User Stack]", 23) == 0)
		return M_USER;
	return M_NONE;
}

static int is_process_line(const char *p, size_t n)
{
	return n >= 6 && memcmp(p, "    - ", 6) == 0;
}

/* The stderr lines of offcputime (BCC and libbpf-tools) that a `2>&1` capture mixes in. */
static int is_stderr_line(const char *p, size_t n)
{
	return (n == 18 && memcmp(p, "failed to get syms", 18) == 0) || marker_kind(p, n) ||
	       starts(p, n, "WARNING: ") || starts(p, n, "WARN: ") || starts(p, n, "libbpf: ") ||
	       starts(p, n, "Could not open ");
}

/* Where a stderr message glued after the head of a stdout line starts (0: none). Only
 * messages that end the line can be seen: the line's last byte picks the candidates. */
static size_t glued_at(const char *p, size_t n)
{
	static const char *const tails[] = {"failed to get syms", "    [Missed Kernel Stack]",
	                                    "    [Missed User Stack]"};
	if (n < 2)
		return 0;
	if (p[n - 1] == 's' || p[n - 1] == ']') {
		for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
			size_t k = strlen(tails[i]);
			if (n > k && memcmp(p + n - k, tails[i], k) == 0)
				return n - k;
		}
		return 0;
	}
	if (p[n - 1] != '.') /* "WARNING: N stack traces lost and could not be displayed." */
		return 0;
	for (size_t i = 1; i + 9 <= n; i++)
		if (p[i] == 'W' && memcmp(p + i, "WARNING: ", 9) == 0)
			return i;
	return 0;
}

/* Unindented lines: header, the tool's warnings, stderr noise, or -f lines. */
static int top_line(offcpu *s, const char *p, size_t n, flame_err *err)
{
	const flame_parse_opts *o = s->o;
	if (starts(p, n, "Tracing off-CPU time"))
		return 0;
	if (starts(p, n, "WARNING:") || starts(p, n, "WARN:")) {
		flame__warn(o->warn, o->warn_ud, "offcpu-tool-warning", s->src, s->line_no,
		            "%.*s", (int)(n > 200 ? 200 : n), p);
		return 0;
	}
	if (!s->block_line) {
		int rc = folded_line(s, p, n, err);
		if (rc <= 0)
			return rc;
	}
	skip_line(s, p, n);
	return 0;
}

/* One frame line (4 spaces, not the process line) onto the block's ids: the region's
 * callback. */
static int frame_line(void *ctx, const char *p, size_t n, flame_err *err)
{
	offcpu *s = ctx;
	const char *f = p + 4;
	size_t fn = n - 4;
	if (fn == 2 && f[0] == '-' && f[1] == '-')
		return push(s, "-", 1, err); /* kernel/user delimiter, a grey `-` frame as in -f -d */
	const char *vp;
	size_t vn;
	if (f[0] == '#' && verbose_frame(f, fn, &vp, &vn))
		return push(s, vp, vn, err);
	return push(s, f, fn, err);
}

/* A missed-stack marker is a frame of BCC's stdout where BCC prints it: the kernel one
 * first in its block and not before another, the user one just before the process line.
 * libbpf-tools prints them on stderr, and a `2>&1` capture has them anywhere, in runs:
 * those are skipped. Decided at the line after the marker; a marker still in the chunk
 * joins the region as any frame line does, so its block keeps the region's cache. */
static int resolve_marker(offcpu *s, const char *p, size_t n, flame_err *err)
{
	int kind = s->marker;
	s->marker = M_NONE;
	int ok = kind == M_USER ? is_process_line(p, n) : marker_kind(p, n) != M_KERNEL;
	if (!ok) {
		skip_line_at(s, s->marker_line, kind == M_USER ? "    [Missed User Stack]"
		                                               : "    [Missed Kernel Stack]",
		             kind == M_USER ? 23 : 25);
		return 0;
	}
	if (s->marker_p)
		return flame__region_add(&s->fr, s->marker_p, s->marker_raw, err);
	int rc = flame__region_flush(&s->fr, err);
	return rc ? rc
	          : kind == M_USER ? push(s, "[Missed User Stack]", 19, err)
	                           : push(s, "[Missed Kernel Stack]", 21, err);
}

static int indented_line(offcpu *s, const char *p, size_t n, size_t raw, flame_err *err)
{
	int first = !s->block_line;
	if (!s->block_line)
		s->block_line = s->line_no;
	if (s->has_proc) { /* only the value line may follow the process line */
		skip_line(s, p, n);
		return 0;
	}
	int mk = p[4] == '[' ? marker_kind(p, n) : M_NONE;
	if (mk == M_KERNEL && !first) {
		skip_line(s, p, n);
		return 0;
	}
	if (mk) {
		s->marker = mk;
		s->marker_line = s->line_no;
		s->marker_p = p >= s->chunk && p < s->chunk_end ? p : NULL;
		s->marker_raw = raw;
		return 0;
	}
	if (is_process_line(p, n)) {
		int rc = flame__region_close(&s->fr, err);
		return rc ? rc : process_line(s, p, n, err);
	}
	return flame__region_add(&s->fr, p, raw, err);
}

/* A line by the rules of offcputime's output (`n`: without its CR). */
static int classify(offcpu *s, const char *p, size_t n, size_t raw, flame_err *err)
{
	if (n == 0) {
		if (s->block_line) {
			/* no value: the block cannot be weighed (a 2>&1 capture may have lost it) */
			flame__warn(s->o->warn, s->o->warn_ud, "offcpu-dropped-block", s->src, s->line_no,
			            "dropped the stack that starts at line %llu: it has no value line",
			            (unsigned long long)s->block_line);
			flame__region_drop(&s->fr);
			s->has_proc = 0;
			s->block_line = 0;
		}
		return 0;
	}
	if (is_value_line(p, n)) {
		int rc = flame__region_close(&s->fr, err);
		return rc ? rc : value_line(s, p, n, err);
	}
	if (n > 4 && memcmp(p, "    ", 4) == 0 && p[4] != ' ')
		return indented_line(s, p, n, raw, err);
	if (p[0] != ' ' && p[0] != '\t')
		return top_line(s, p, n, err);
	skip_line(s, p, n);
	return 0;
}

/* What a `2>&1` capture did to a line (see the top of the file), undone before it is
 * classified: 0 when the line is taken here (a stderr line, or a head kept for the rest
 * of its line), 1 to classify *p (*raw bytes): the line, or the head joined with it. A
 * pending marker is decided by the line classified after it. */
static int repair(offcpu *s, const char **p, size_t *raw, size_t n, flame_err *err)
{
	if (s->glued) {
		if (is_stderr_line(*p, n)) {
			skip_line(s, *p, n);
			return 0;
		}
		s->glued = 0;
		if (flame__array_reserve_min(s->head, s->head_cap, s->head_len + *raw, 256))
			return flame__err_nomem(err);
		memcpy(s->head + s->head_len, *p, *raw);
		*p = s->head;
		*raw += s->head_len;
		n = *raw - (*raw && s->head[*raw - 1] == '\r');
	} else {
		size_t k = glued_at(*p, n);
		if (k) {
			flame__warn(s->o->warn, s->o->warn_ud, "offcpu-glued-line", s->src, s->line_no,
			            "a stderr line cut this line in two: '%.*s' joined with the next line",
			            (int)(k > 80 ? 80 : k), *p);
			if (flame__array_reserve_min(s->head, s->head_cap, k, 256))
				return flame__err_nomem(err);
			memcpy(s->head, *p, k);
			s->head_len = k;
			s->glued = 1;
			return 0;
		}
	}
	int rc = s->marker ? resolve_marker(s, *p, n, err) : 0;
	return rc ? rc : 1;
}

/* Whether the line may end in a stderr message (see glued_at): `...syms`, `...Stack]`,
 * `....`; two bytes tell nearly every frame line apart. */
static inline int may_be_glued(const char *p, size_t n)
{
	if (n < 2)
		return 0;
	char a = p[n - 2], b = p[n - 1];
	return (b == 's' && a == 'm') || (b == ']' && a == 'k') || b == '.';
}

/* A line. Well-formed lines go straight to classify: only a pending head or marker, or
 * a line that may end in a stderr message, takes the repair first. */
static int one_line(offcpu *s, const char *p, size_t raw, flame_err *err)
{
	size_t n = raw - (raw && p[raw - 1] == '\r');
	if (s->glued || s->marker || may_be_glued(p, n)) {
		int rc = repair(s, &p, &raw, n, err);
		if (rc <= 0)
			return rc;
		n = raw - (raw && p[raw - 1] == '\r');
	}
	int rc = classify(s, p, n, raw, err);
	if (!rc && p == s->head)
		rc = flame__region_flush(&s->fr, err); /* the head buffer is reused */
	return rc;
}

/* Most lines of an input: a frame line right after the frame lines before it in its
 * block, with no CR and no ending a stderr message may have. All it does is extend the
 * pending region, so the parse loop does that itself; every other line (and any line
 * while a head or a marker waits) goes through one_line. A pending region means no
 * process line yet in the block (it closes the region). */
static inline int extends_region(const offcpu *s, const char *p, size_t raw)
{
	if (!flame__region_follows(&s->fr, p) || raw < 6 ||
	    (s->glued | s->marker | s->has_proc))
		return 0;
	char b = p[raw - 1];
	if (memcmp(p, "    ", 4) != 0 || p[4] == ' ' || p[4] == '[' || (p[4] == '-' && p[5] == ' '))
		return 0;
	return (b != 's' && b != ']' && b != '.' && b != '\r') || !may_be_glued(p, raw);
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	offcpu s = {.o = o};
	flame__sink_init(&s.k, t);
	int rc = flame__lines_init(&s.cur, in, err);
	if (rc)
		return rc;
	flame__region_init(&s.fr, frame_line, &s);
	s.src = flame__lines_source(&s.cur);
	s.mult = flame__pow10[flame__sink_scale(&s.k)];
	if ((rc = flame__sink_units(&s.k, "us", NULL, s.src, err)))
		goto done;
	/* a chunk of whole lines at a time, numbered as they are found (scan.h) */
	flame__linewalk w;
	flame__linewalk_init(&w, &s.cur);
	while ((rc = flame__linewalk_chunk(&w, err)) > 0) {
		s.chunk = w.chunk;
		s.chunk_end = w.sc.end;
		const char *q;
		size_t raw;
		while ((q = flame__linewalk_next(&w, &raw, &s.line_no))) {
			if (extends_region(&s, q, raw)) {
				flame__region_extend(&s.fr, raw);
			} else {
				s.off = flame__linewalk_offset(&w, q);
				if ((rc = one_line(&s, q, raw, err)))
					goto done;
			}
		}
		s.marker_p = NULL;
		if ((rc = flame__region_flush(&s.fr, err))) /* the chunk's bytes go away */
			goto done;
	}
	if (rc == 0 && s.marker)
		rc = resolve_marker(&s, "", 0, err);
	if (rc == 0 && s.glued) { /* the rest of the line never came: the head alone */
		s.off = FLAME__NO_OFFSET;
		rc = one_line(&s, "", 0, err);
	}
	if (rc == 0 && s.block_line)
		rc = flame__err(err, FLAME_EDATA, s.src, s.line_no, FLAME__NO_OFFSET,
		                "the input ends inside the stack that starts at line %llu "
		                "(truncated?)",
		                (unsigned long long)s.block_line);
done:
	free(s.head);
	free(s.stack);
	flame__region_free(&s.fr);
	flame__lines_free(&s.cur);
	return rc < 0 ? rc : 0;
}

/* Strict: a header, or a first block of 4-space lines closed by a value line. */
static int probe(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	int frames = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return 0; /* only whole lines count */
		size_t n = (size_t)(nl - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (frames == 0 && starts(p, n, "Tracing off-CPU time ("))
			return 1;
		if (is_value_line(p, n))
			return frames > 0;
		if (n > 4 && memcmp(p, "    ", 4) == 0 && p[4] != ' ' && p[4] != '\t')
			frames++;
		else if (!(n == 0 && frames == 0) && !is_stderr_line(p, n))
			return 0;
		p = nl + 1;
	}
	return 0;
}

const struct flame__parser flame__parser_offcpu = {probe, parse};
