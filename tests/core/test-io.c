/* Unit tests of inputs (files, gzip, errors), the line cursor, the folded reader and
 * writer, atomic outputs, and the regex / skip-after transforms. */
#include <sys/stat.h>
#include <zlib.h>
#include "core/input.h"
#include "core/lines.h"
#include "core/output.h"
#include "harness.h"
#include "util.h"

static size_t gz(const char *s, size_t n, unsigned char *out, size_t cap)
{
	z_stream z = {0};
	deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (unsigned char *)s;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	deflate(&z, Z_FINISH);
	size_t len = z.total_out;
	deflateEnd(&z);
	return len;
}

static char *read_all(flame_input *in, size_t *len, flame_err *err)
{
	char *d = NULL;
	if (flame__input_slurp(in, &d, len, 1 << 26, err))
		return NULL;
	return d;
}

static void test_gzip(void)
{
	const char *text = "a;b 1\na;c 2\n";
	unsigned char buf[256 * 2];
	size_t n1 = gz(text, strlen(text), buf, 256);
	size_t n2 = gz("z 3\n", 4, buf + n1, 256); /* multi-member */
	flame_input *in;
	flame_err err;
	size_t len;
	CHECK(flame_input_open_mem(&in, buf, n1 + n2, "mem.gz", &err) == 0);
	char *d = read_all(in, &len, &err);
	CHECK(d && len == 16 && memcmp(d, "a;b 1\na;c 2\nz 3\n", 16) == 0);
	free(d);
	flame_input_free(in);
	/* truncated: a clear error with a byte offset */
	CHECK(flame_input_open_mem(&in, buf, n1 - 5, "cut.gz", &err) == 0);
	d = read_all(in, &len, &err);
	CHECK(d == NULL && err.code == FLAME_EDATA);
	CHECK(strstr(err.msg, "truncated gzip") != NULL);
	CHECK_STR(err.source, "cut.gz");
	flame_input_free(in);
	/* corrupt */
	buf[12] ^= 0xff;
	buf[13] ^= 0xff;
	CHECK(flame_input_open_mem(&in, buf, n1, "bad.gz", &err) == 0);
	d = read_all(in, &len, &err);
	CHECK(d == NULL && err.code == FLAME_EDATA);
	flame_input_free(in);
}

/* A gzip bomb: 32 MiB of zeros in about 32 KB. With a 1 MiB limit reading stops with
 * FLAME_ERANGE once the limit is passed, having handed out no more than the limit; the
 * limit itself still reads whole; pprof's slurp obeys the same setter. */
static void test_gzip_limit(void)
{
	enum { BIG = 32 << 20, LIMIT = 1 << 20 };
	char *zeros = calloc(1, BIG);
	size_t cap = BIG / 256;
	unsigned char *bomb = malloc(cap), *exact = malloc(cap);
	CHECK(zeros && bomb && exact);
	size_t nb = gz(zeros, BIG, bomb, cap), ne = gz(zeros, LIMIT, exact, cap);
	CHECK(nb > 0 && nb < cap && ne > 0);
	flame_input *in;
	flame_err err;
	CHECK(flame_input_open_mem(&in, bomb, nb, "bomb.gz", &err) == 0);
	flame_input_set_limit(in, LIMIT);
	static char buf[1 << 16];
	uint64_t total = 0;
	long r;
	while ((r = flame__input_read(in, buf, sizeof buf, &err)) > 0)
		total += (uint64_t)r;
	CHECK(r == FLAME_ERANGE && err.code == FLAME_ERANGE);
	CHECK(total <= LIMIT);
	CHECK_STR(err.source, "bomb.gz");
	CHECK(err.offset > 0 && err.offset <= nb);
	CHECK(strstr(err.msg, "inflates to more than 1048576 bytes") != NULL);
	flame_input_free(in);
	CHECK(flame_input_open_mem(&in, exact, ne, "exact.gz", &err) == 0);
	flame_input_set_limit(in, LIMIT);
	total = 0;
	while ((r = flame__input_read(in, buf, sizeof buf, &err)) > 0)
		total += (uint64_t)r;
	CHECK(r == 0 && total == LIMIT);
	flame_input_free(in);
	/* through the parser: a pprof bomb is refused at the limit, not at 1 GiB */
	flame_tree *t = test_tree_new();
	CHECK(t != NULL);
	CHECK(flame_input_open_mem(&in, bomb, nb, "bomb.pb.gz", &err) == 0);
	flame_input_set_limit(in, LIMIT);
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.format = FLAME_FORMAT_PPROF;
	CHECK(flame_parse(t, in, &po, &err) == FLAME_ERANGE);
	CHECK_STR(err.source, "bomb.pb.gz");
	flame_input_free(in);
	flame_tree_free(t);
	free(zeros);
	free(bomb);
	free(exact);
}

static void test_open_errors(void)
{
	flame_input *in = NULL;
	flame_err err;
	CHECK(flame_input_open(&in, "/nonexistent/x", &err) == FLAME_EIO && in == NULL);
	CHECK(strstr(err.msg, "cannot open") != NULL);
	CHECK(flame_input_open(&in, "/tmp", &err) == FLAME_EIO);
	CHECK_STR(err.msg, "is a directory");
	char buf[512];
	flame_err_format(&err, buf, sizeof buf);
	CHECK_STR(buf, "/tmp: is a directory");
}

static void test_lines(void)
{
	/* a 3 MB line between short ones, CRLF kept, last line without newline */
	size_t big = 3u << 20;
	char *text = malloc(big + 64);
	strcpy(text, "first\r\n");
	memset(text + 7, 'x', big);
	strcpy(text + 7 + big, "\nlast");
	flame_input *in;
	flame_err err;
	flame_input_open_mem(&in, text, strlen(text), "mem", &err);
	flame__lines c;
	CHECK(flame__lines_init(&c, in, &err) == 0);
	CHECK(flame__lines_next(&c, &err) == 1 && c.len == 6 && c.line[5] == '\r');
	CHECK(flame__lines_next(&c, &err) == 1 && c.len == big && c.line_no == 2);
	CHECK(flame__lines_next(&c, &err) == 1 && c.len == 4 && memcmp(c.line, "last", 4) == 0);
	CHECK_EQ_U64(c.offset, 7 + big + 1);
	CHECK(flame__lines_next(&c, &err) == 0);
	flame__lines_free(&c);
	flame_input_free(in);
	/* blocks hold whole lines and line numbers stay right */
	const char *t2 = "l1\nl2\nl3\nl4\nl5";
	flame_input_open_mem(&in, t2, strlen(t2), "mem", &err);
	flame__lines_init(&c, in, &err);
	const char *p;
	size_t n;
	CHECK(flame__lines_block(&c, 7, &p, &n, &err) == 1 && n == 6 && c.block_first_line == 1);
	CHECK(flame__lines_block(&c, 7, &p, &n, &err) == 1 && n == 6 && c.block_first_line == 3);
	CHECK(flame__lines_block(&c, 7, &p, &n, &err) == 1 && n == 2 && c.block_first_line == 5);
	CHECK(flame__lines_block(&c, 7, &p, &n, &err) == 0);
	flame__lines_free(&c);
	flame_input_free(in);
	free(text);
}

static int warn_count;
static void count_warn(void *ud, const char *kind, const char *src, uint64_t line, const char *m)
{
	(void)ud;
	(void)src;
	(void)m;
	if (strcmp(kind, "folded-invalid-line") == 0 && line > 0)
		warn_count++;
}

static void test_folded(void)
{
	flame_err err;
	/* bytewise line order: '-' (0x2d) sorts before ';' (0x3b), a prefix first */
	flame_tree *t = parse_str("a;b;c 1\na;b-x 2\na;b 3\nb 1\na;b;c 4\n\n", FLAME_FORMAT_FOLDED,
	                          &err);
	char *s = folded_str(t);
	CHECK_STR(s, "a;b 3\na;b-x 2\na;b;c 5\nb 1\n");
	free(s);
	flame_tree_free(t);
	/* frames with spaces; count after the last whitespace; tabs; CRLF */
	t = parse_str("java;void foo(int, int) 7\r\nmain;x\t2\n", FLAME_FORMAT_FOLDED, &err);
	s = folded_str(t);
	CHECK_STR(s, "java;void foo(int, int) 7\nmain;x 2\n");
	free(s);
	flame_tree_free(t);
	/* differential: before after */
	t = parse_str("a;b 1 2\na;c 3 0\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(flame_tree_is_differential(t));
	CHECK_EQ_U64(flame_tree_total(t, 0), 4);
	CHECK_EQ_U64(flame_tree_total(t, 1), 2);
	s = folded_str(t);
	CHECK_STR(s, "a;b 1 2\na;c 3 0\n");
	free(s);
	flame_tree_free(t);
	/* fractional counts are exact */
	t = parse_str("a 0.1\na 0.2\nb 1.25\nc 3.\nd 2.50\n", FLAME_FORMAT_FOLDED, &err);
	CHECK_EQ_U64(flame_tree_decimals(t), 2);
	s = folded_str(t);
	CHECK_STR(s, "a 0.3\nb 1.25\nc 3\nd 2.5\n");
	free(s);
	flame_tree_free(t);
	/* overflow and too many decimals are errors naming the line */
	t = parse_str("a 18446744073709551615\nb 1\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(t == NULL && err.code == FLAME_ERANGE && err.line == 2);
	t = parse_str("a 99999999999999999999\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(t == NULL && err.code == FLAME_ERANGE && err.line == 1);
	t = parse_str("a 0.0000000001\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(t == NULL && err.code == FLAME_ERANGE);
	/* invalid lines warn (one call per line, the CLI counts them) and are skipped */
	flame_tree *u = test_tree_new();
	flame_input *in;
	const char *bad = "no count here\na 1\n 5\nx;y -3\n";
	flame_input_open_mem(&in, bad, strlen(bad), "bad", &err);
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_FOLDED;
	o.warn = count_warn;
	CHECK(flame_parse(u, in, &o, &err) == 0);
	CHECK_EQ_U64(warn_count, 3);
	size_t nu = 0;
	CHECK(flame_tree_stack_count(u, &nu, NULL) == 0);
	CHECK_EQ_U64(nu, 1);
	flame_input_free(in);
	flame_tree_free(u);
	/* shared-prefix reuse must not confuse frames that only share bytes */
	t = parse_str("ab;cd 1\nab;c 1\nab;cd;e 1\na;bcd 1\n", FLAME_FORMAT_FOLDED, &err);
	s = folded_str(t);
	CHECK_STR(s, "a;bcd 1\nab;c 1\nab;cd 1\nab;cd;e 1\n");
	free(s);
	flame_tree_free(t);
}

/* The header line of folded text: what the counts measure, written when the tree knows it
 * (and it is not samples), read back into the tree's unit; the stacks are unchanged. */
static void test_folded_header(void)
{
	flame_err err;
	const char *text = "# countname=nanoseconds type=cpu duration=5000000000 later=x\n"
	                   "a;b 10\na 5\n";
	flame_tree *t = parse_str(text, FLAME_FORMAT_AUTO, &err);
	CHECK(t != NULL);
	CHECK_STR(flame_tree_count_name(t), "nanoseconds");
	CHECK_EQ_U64(flame_tree_duration(t), 5000000000u);
	CHECK_EQ_U64(flame_tree_total(t, 0), 15);
	char *s = folded_all(t);
	CHECK_STR(s, "# countname=nanoseconds type=cpu duration=5000000000\na 5\na;b 10\n");
	free(s);
	flame_tree_free(t);
	/* no header: plain samples, an unknown unit, a unit that would not read back */
	t = parse_str("# countname=samples\na 1\n", FLAME_FORMAT_FOLDED, &err);
	s = folded_all(t);
	CHECK_STR(s, "a 1\n");
	free(s);
	CHECK(flame_tree_set_count_name(t, "two words") == 0);
	s = folded_all(t);
	CHECK_STR(s, "a 1\n");
	free(s);
	flame_tree_free(t);
	t = parse_str("a 1\n", FLAME_FORMAT_FOLDED, &err);
	s = folded_all(t);
	CHECK_STR(s, "a 1\n");
	CHECK(flame_tree_count_name(t) == NULL);
	free(s);
	flame_tree_free(t);
	/* CRLF; the header anywhere (files joined with cat); other comments warn */
	t = parse_str("a 1\r\n# countname=bytes\r\n", FLAME_FORMAT_FOLDED, &err);
	CHECK_STR(flame_tree_count_name(t), "bytes");
	flame_tree_free(t);
	warn_count = 0;
	flame_tree *u = test_tree_new();
	flame_input *in;
	const char *other = "# countname=\n# a comment\na 1\n";
	flame_input_open_mem(&in, other, strlen(other), "other", &err);
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.warn = count_warn;
	CHECK(flame_parse(u, in, &o, &err) == 0);
	CHECK_EQ_U64(warn_count, 2);
	CHECK(flame_tree_count_name(u) == NULL);
	flame_input_free(in);
	flame_tree_free(u);
	/* two units in one input: refused, as two inputs in different units are */
	t = parse_str("# countname=bytes\na 1\n# countname=nanoseconds\nb 1\n", FLAME_FORMAT_FOLDED,
	              &err);
	CHECK(t == NULL && err.code == FLAME_EDATA && strstr(err.msg, "different units"));
	/* a header alone, or blank lines alone, is folded text of no stacks (not "cannot tell") */
	CHECK(flame_detect("# countname=bytes\n", 18) == FLAME_FORMAT_FOLDED);
	CHECK(flame_detect("\n\n", 2) == FLAME_FORMAT_FOLDED);
	t = parse_str("\n\n", FLAME_FORMAT_AUTO, &err);
	CHECK(t && flame_tree_total(t, 0) == 0);
	flame_tree_free(t);
}

static void test_detect(void)
{
	CHECK(flame_detect("a;b 1\n", 6) == FLAME_FORMAT_FOLDED);
	CHECK(flame_detect("\x01\x02\x03", 3) == FLAME_FORMAT_AUTO);
	/* a "Key: value" report whose values are numbers is not folded (jfr summary) */
	const char *rep = " Version: 2.1\n Chunks: 1\n Start: 2026\n";
	CHECK(flame_detect(rep, strlen(rep)) == FLAME_FORMAT_AUTO);
	/* a comm with a leading space is (offcputime -f keeps it) */
	const char *lead = " lead space;schedule 6\nb 1\n";
	CHECK(flame_detect(lead, strlen(lead)) == FLAME_FORMAT_FOLDED);
	flame_err err;
	CHECK(parse_str("\x01\x02 garbage", FLAME_FORMAT_AUTO, &err) == NULL);
	CHECK(err.code == FLAME_EFORMAT);
	CHECK(strstr(err.msg, "cannot tell the input format; use --input-format") != NULL);
	flame_tree *t = parse_str("", FLAME_FORMAT_AUTO, &err);
	size_t nt = 1;
	CHECK(t && flame_tree_stack_count(t, &nt, NULL) == 0 && nt == 0);
	flame_tree_free(t);
}

static void test_output(void)
{
	const char *path = "/tmp/flame-test-output.txt";
	unlink(path);
	flame_output *o;
	flame_err err;
	CHECK(flame_output_open(&o, path, &err) == 0);
	CHECK(flame_output_write(o, "half", 4, &err) == 0);
	struct stat st;
	CHECK(stat(path, &st) != 0); /* nothing at the target until commit */
	char tmp[512];
	snprintf(tmp, sizeof tmp, "%s", flame_output_temp_path(o));
	flame_output_abort(o);
	CHECK(stat(path, &st) != 0 && stat(tmp, &st) != 0);
	CHECK(flame_output_open(&o, path, &err) == 0);
	CHECK(flame_output_write(o, "done\n", 5, &err) == 0);
	CHECK(flame_output_commit(o, &err) == 0);
	CHECK(stat(path, &st) == 0 && st.st_size == 5);
	unlink(path);
	CHECK(flame_output_open(&o, "/nonexistent-dir/x", &err) == FLAME_EIO);
}

/* The writers' fast path (core/output.h): bytes kept across a flush, an item larger than
 * the buffer, and after a write failed every reserve fails (none hands out memory past the
 * buffer). */
static void test_output_fast_path(void)
{
	const char *path = "/tmp/flame-test-output-fast.txt";
	flame_output *o;
	flame_err err;
	int rc = 0;
	CHECK(flame_output_open(&o, path, &err) == 0);
	size_t total = 0;
	for (int i = 0; i < 2000 && !rc; i++) { /* lines of 300 bytes: many flushes */
		char *d = flame__output_reserve_keep(o, 300, 300, &rc, &err);
		CHECK(d != NULL);
		if (!d)
			break;
		if (i) /* the line before is still just before `d` */
			CHECK(d[-300] == (char)('a' + (i - 1) % 26) && d[-1] == '\n');
		memset(d, 'a' + i % 26, 299);
		d[299] = '\n';
		flame__output_advance(o, 300);
		total += 300;
	}
	char *big = flame__output_reserve(o, 1 << 20, &rc, &err); /* larger than the buffer */
	CHECK(big != NULL);
	if (big) {
		memset(big, 'z', 1 << 20);
		flame__output_advance(o, 1 << 20);
		total += 1 << 20;
	}
	CHECK(flame__output_put(o, "end\n", 4, &err) == 0 && flame__output_putc(o, '.', &err) == 0);
	CHECK(flame_output_commit(o, &err) == 0);
	struct stat st;
	CHECK(stat(path, &st) == 0 && (size_t)st.st_size == total + 5);
	unlink(path);

	CHECK(flame_output_open(&o, "/dev/full", &err) == 0);
	char *d = NULL;
	rc = 0;
	for (int i = 0; i < 1000; i++) {
		if (!(d = flame__output_reserve(o, 4096, &rc, &err)))
			break;
		memset(d, 'x', 4096);
		flame__output_advance(o, 4096);
	}
	CHECK(d == NULL && rc == FLAME_EIO);
	rc = 0;
	CHECK(flame__output_reserve(o, 16, &rc, &err) == NULL && rc == FLAME_EIO);
	CHECK(flame__output_putc(o, 'x', &err) == FLAME_EIO);
	CHECK(flame__output_put(o, "xy", 2, &err) == FLAME_EIO);
	flame_output_abort(o);
}

static void test_transforms(void)
{
	flame_err err;
	flame_tree *t = parse_str("p;main;a;lock 1\np;main;b 2\np;main;c;lock 3\n",
	                          FLAME_FORMAT_FOLDED, &err);
	CHECK(flame_filter_stacks(t, "^lo", "^c$", &err) == 0);
	char *s = folded_str(t);
	CHECK_STR(s, "p;main;a;lock 1\n");
	free(s);
	CHECK(flame_filter_stacks(t, "(", NULL, &err) == FLAME_EUSAGE);
	CHECK(strstr(err.msg, "invalid --include regex") != NULL);
	flame_tree_free(t);
	t = parse_str("p;main;work;sub 1\np;main;work 2\np;other 4\np;x;work;work;y 1\n",
	              FLAME_FORMAT_FOLDED, &err);
	const char *sym[] = {"work"};
	CHECK(flame_skip_after(t, sym, 1, &err) == 0);
	s = folded_str(t);
	CHECK_STR(s, "p;other 4\np;work 2\np;work;sub 1\np;work;y 1\n");
	free(s);
	flame_tree_free(t);

	/* --reverse: leaf first; twice gives the stacks back (both columns of a diff) */
	t = parse_str("a;b;c 1 2\na;b 3 0\nd 5 5\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(flame_reverse_stacks(t, &err) == 0);
	s = folded_str(t);
	CHECK_STR(s, "b;a 3 0\nc;b;a 1 2\nd 5 5\n");
	free(s);
	CHECK(flame_reverse_stacks(t, &err) == 0);
	s = folded_str(t);
	CHECK_STR(s, "a;b 3 0\na;b;c 1 2\nd 5 5\n");
	free(s);
	flame_tree_free(t);
}

int main(void)
{
	RUN(test_gzip);
	RUN(test_gzip_limit);
	RUN(test_open_errors);
	RUN(test_lines);
	RUN(test_folded);
	RUN(test_folded_header);
	RUN(test_detect);
	RUN(test_output);
	RUN(test_output_fast_path);
	RUN(test_transforms);
	return harness_done();
}
