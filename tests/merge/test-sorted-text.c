/* Unit tests for read/sorted-text.c: the diff and the sum of sorted folded inputs merged
 * as text (flame__text_diff, flame__text_sum) print exactly what the tree prints (a diff or
 * merge request's tree, then flame_write_folded) for inputs that qualify, including the
 * corners of the folded grammar; inputs that do not qualify are declined (1) with nothing
 * written and the inputs back at their start, so the tree then reads them whole. The
 * requests' folded text, whichever way they choose, is the tree's too. */
#include "harness.h"
#include "parse/folded-line.h"
#include "read/read.h"
#include "util.h"

static unsigned long long lcg = 1;
static unsigned rnd(unsigned n)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(lcg >> 33) % n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* `lines` distinct sorted stacks, every `every`-th left out from `skip`, with counts from
 * `seed`: a side of a diff or an input of a merge, about 150 bytes a line. */
static char *make_sorted(unsigned lines, unsigned seed, unsigned every, unsigned skip)
{
	static const char *names[] = {"main", "run", "work", "parse", "a b", "[unknown] ", "0x1f",
	                              "z", "y", "std::vector<int>::push_back"};
	char **v = malloc(lines * sizeof *v);
	lcg = 42; /* the same stacks in every input */
	for (unsigned i = 0; i < lines; i++) {
		char buf[1024];
		size_t n = (size_t)snprintf(buf, sizeof buf, "proc-%u", rnd(20));
		unsigned depth = 4 + rnd(20);
		for (unsigned d = 0; d < depth; d++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, ";%s%u",
			                      names[rnd(sizeof names / sizeof names[0])], rnd(3));
		snprintf(buf + n, sizeof buf - n, ";leaf%u", i);
		v[i] = strdup(buf);
	}
	qsort(v, lines, sizeof *v, cmp_str);
	lcg = seed;
	size_t cap = (size_t)lines * 1100 + 1, len = 0;
	char *t = malloc(cap);
	for (unsigned i = 0; i < lines; i++) {
		if (!every || i % every != skip)
			len += (size_t)snprintf(t + len, cap - len, "%s %u\n", v[i], rnd(1000));
		free(v[i]);
	}
	t[len] = '\0';
	free(v);
	return t;
}

static void open_mem(flame__source *src, const char *const *text, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		src[i] = (flame__source){0};
		src[i].opts = (flame_parse_opts)FLAME_PARSE_OPTS_INIT;
		CHECK(flame_input_open_mem(&src[i].in, text[i], strlen(text[i]), "mem", NULL) == 0);
	}
}

static void close_mem(flame__source *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		flame_input_free(src[i].in);
}

/* A request (diff when o is given, else a sum) over the inputs of src, each from its
 * current position; its tree (out NULL) or its folded text on out. Totals go to src. */
static int request(flame__source *src, size_t n, const flame_diff_opts *o, flame_tree **t,
                   flame_output *out)
{
	flame_err err = {0};
	int rc;
	if (o) {
		flame_diff_request *r;
		CHECK(flame_diff_request_new(&r, o, &err) == 0);
		for (int i = 0; i < 2; i++)
			CHECK(flame_diff_request_input(r, i, NULL, src[i].in, &src[i].opts, &err) == 0);
		rc = out ? flame_diff_request_write_folded(r, out, &err) : flame_diff_request_tree(r, t, &err);
		for (int i = 0; i < 2; i++)
			src[i].total = flame_diff_request_total(r, i);
		flame_diff_request_free(r);
	} else {
		flame_merge_request *r;
		CHECK(flame_merge_request_new(&r, &err) == 0);
		for (size_t i = 0; i < n; i++)
			CHECK(flame_merge_request_input(r, NULL, src[i].in, &src[i].opts, src[i].weight,
			                                src[i].weight_decimals, &err) == 0);
		rc = out ? flame_merge_request_write_folded(r, out, &err) : flame_merge_request_tree(r, t, &err);
		flame_merge_request_free(r);
	}
	return rc;
}

/* The tree's reading of src (diff when o is given, else a sum), as folded text; NULL on
 * failure with *rc the status. */
static char *tree_text(flame__source *src, size_t n, const flame_diff_opts *o, int *rc)
{
	flame_tree *t = NULL;
	*rc = request(src, n, o, &t, NULL);
	char *s = *rc ? NULL : folded_all(t); /* the header line too */
	flame_tree_free(t);
	return s;
}

/* A temp file's path, for an output. */
static void temp_path(char *path)
{
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
}

/* The request's folded text of src, whichever way it took; NULL on failure. */
static char *request_text(flame__source *src, size_t n, const flame_diff_opts *o, int *rc)
{
	char path[] = "/tmp/flame-test-XXXXXX";
	temp_path(path);
	flame_output *out = NULL;
	CHECK(flame_output_open(&out, path, NULL) == 0);
	if ((*rc = request(src, n, o, NULL, out))) {
		flame_output_abort(out);
		free(slurp_unlink(path));
		return NULL;
	}
	CHECK(flame_output_commit(out, NULL) == 0);
	return slurp_unlink(path);
}

/* The text merge of src into a string; *rc its return. */
static char *merged_text(flame__source *src, size_t n, const flame_diff_opts *o, int *rc)
{
	char path[] = "/tmp/flame-test-XXXXXX";
	temp_path(path);
	flame_output *out = NULL;
	flame_err err = {0};
	CHECK(flame_output_open(&out, path, &err) == 0);
	/* as the requests ask: -s and a frame normalization are the tree's, and so are
	 * fractional weights */
	int whole = 1;
	for (size_t i = 0; i < n; i++)
		whole &= !src[i].weight_decimals;
	if (o ? o->strip_hex || o->norm == FLAME_DIFF_NORM_FRAME : !whole)
		*rc = 1;
	else
		*rc = o ? flame__text_diff(src, o, out, &err) : flame__text_sum(src, n, out, &err);
	if (*rc) {
		flame_output_abort(out);
		char *s = slurp_unlink(path);
		CHECK(s == NULL || *s == '\0'); /* nothing written */
		free(s);
		return NULL;
	}
	CHECK(flame_output_commit(out, &err) == 0);
	return slurp_unlink(path);
}

/* The text path qualifies (want_rc 0) and prints what the tree prints, or declines (1) and
 * leaves the inputs as the tree would find them. o NULL: a merge (weights w, may be NULL). */
static void check_case(const char *const *text, size_t n, const flame_diff_opts *o,
                       const uint64_t *w, const unsigned *wdec, int want_rc, const char *what)
{
	flame__source src[8], fresh[8];
	open_mem(src, text, n);
	open_mem(fresh, text, n);
	for (size_t i = 0; w && i < n; i++) {
		src[i].weight = fresh[i].weight = w[i];
		src[i].weight_decimals = fresh[i].weight_decimals = wdec ? wdec[i] : 0;
	}
	int rc_text, rc_tree, rc_after, rc_req;
	char *got = merged_text(src, n, o, &rc_text);
	char *want = tree_text(fresh, n, o, &rc_tree);
	/* and the request, which chooses the way itself, writes what the tree writes */
	{
		flame__source req[8];
		open_mem(req, text, n);
		for (size_t i = 0; w && i < n; i++) {
			req[i].weight = w[i];
			req[i].weight_decimals = wdec ? wdec[i] : 0;
		}
		char *by_req = request_text(req, n, o, &rc_req);
		CHECK(rc_req == rc_tree);
		CHECK((!by_req && !want) || (by_req && want && strcmp(by_req, want) == 0));
		close_mem(req, n);
		free(by_req);
	}
	if (rc_text != want_rc)
		fprintf(stderr, "case '%s': returned %d, expected %d\n", what, rc_text, want_rc);
	CHECK(rc_text == want_rc);
	if (rc_text == 0) {
		CHECK(got && want && strcmp(got, want) == 0);
		if (got && want && strcmp(got, want))
			fprintf(stderr, "case '%s': text path\n%.300s\ntree\n%.300s\n", what, got, want);
		for (size_t i = 0; o && i < n; i++) /* (the tree's merge does not count totals) */
			CHECK_EQ_U64(src[i].total, fresh[i].total);
	} else {
		/* declined: the same sources, read again by the tree, give the same */
		char *again = tree_text(src, n, o, &rc_after);
		CHECK(rc_after == rc_tree);
		CHECK((!again && !want) || (again && want && strcmp(again, want) == 0));
		free(again);
	}
	close_mem(src, n);
	close_mem(fresh, n);
	free(got);
	free(want);
}

static void diff2(const char *b, const char *a, const flame_diff_opts *o, int want_rc,
                  const char *what)
{
	const char *t[2] = {b, a};
	flame_diff_opts none = FLAME_DIFF_OPTS_INIT;
	check_case(t, 2, o ? o : &none, NULL, NULL, want_rc, what);
}

static void test_big_diff(void)
{
	char *b = make_sorted(40000, 1, 5, 0), *a = make_sorted(40000, 2, 7, 3);
	CHECK(strlen(b) > 1000000); /* several read blocks */
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	diff2(b, a, &o, 0, "big");
	diff2(a, b, &o, 0, "big, swapped");
	o.norm = FLAME_DIFF_NORM_TOTAL;
	diff2(b, a, &o, 0, "big -n");
	o.norm = FLAME_DIFF_NORM_REQUESTS;
	o.requests_before = 3;
	o.requests_after = 7;
	diff2(b, a, &o, 0, "big --requests 3,7");
	o.norm = FLAME_DIFF_NORM_NONE;
	o.strip_hex = 1;
	diff2(b, a, &o, 1, "-s is the tree's");
	o.strip_hex = 0;
	o.norm = FLAME_DIFF_NORM_FRAME;
	o.frame_regex = "^main";
	diff2(b, a, &o, 1, "--normalize-frame is the tree's");
	free(b);
	free(a);
}

static void test_corners(void)
{
	/* what qualifies: blanks before the count, a tab, blank lines, zero and zero-padded
	 * counts, a stack that is a prefix of the next, bytes below ' ' in a name, spaces in
	 * names, a last line without '\n', an empty side */
	diff2("a;[unknown]  5\na;[unknown] ;b 3\na;b\t7\n\nc 0\nc;d 007\n",
	      "a;b 2\na;b\001x 4\nb c;d 1\nc 9\nz;z 1", NULL, 0, "corners");
	diff2("", "a 1\nb 2\n", NULL, 0, "empty BEFORE");
	diff2("a 1\nb 2\n", "", NULL, 0, "empty AFTER");
	diff2("", "", NULL, 0, "both empty");
	/* the grammar is the folded parser's (parse/folded-line.h): it drops a CR before the
	 * '\n', and takes a whole count of more than 19 digits that fits */
	diff2("a 1\n", "a 2\r\nb 3\r\n", NULL, 0, "CR LF");
	diff2("a 00000000000000000001\n", "a 1\n", NULL, 0, "21 digits, zero-padded");
	diff2("a 18446744073709551 \n", "a 1\n", NULL, 1, "a blank after the count");
	/* a stack longer than every buffer (not the first line: format detection looks at
	 * whole lines in the first 64 KB) */
	size_t big = 600 * 1024;
	char *b = malloc(big + 64), *a = malloc(big + 64);
	memcpy(b, "a 1\n", 4);
	memset(b + 4, 'x', big);
	memcpy(b + 4 + big, " 5\nz 1\n", 8);
	memcpy(a, "a 2\n", 4);
	memset(a + 4, 'x', big);
	memcpy(a + 4 + big, ";y 2\n", 6);
	diff2(b, a, NULL, 0, "600 KB stack");
	free(b);
	free(a);
	/* what is the tree's: each is declined, and the tree then says the same as alone */
	diff2("b 1\na 2\n", "a 1\n", NULL, 1, "unsorted");
	diff2("a 1\na 2\n", "a 1\n", NULL, 1, "a repeated stack");
	diff2("a 1.5\n", "a 1\n", NULL, 1, "a fraction");
	diff2("a 1 2\n", "a 1\n", NULL, 1, "3 columns");
	diff2("a 99999999999999999999\n", "a 1\n", NULL, 1, "20 digits");
	diff2("a 9999999999999999999\nb 9999999999999999999\n", "a 1\n", NULL, 1, "a sum past 64 bits");
	diff2("# comment\na 1\n", "a 1\n", NULL, 1, "not detected as folded");
	diff2("a 1\n 2\n", "a 1\n", NULL, 1, "an empty stack");
}

static void test_merge(void)
{
	char *in[5];
	for (unsigned i = 0; i < 5; i++)
		in[i] = make_sorted(20000, 10 + i, 3 + i, i);
	const char *t[5] = {in[0], in[1], in[2], in[3], in[4]};
	check_case(t, 5, NULL, NULL, NULL, 0, "merge of 5");
	uint64_t w[5] = {1, 2, 0, 7, 1000};
	check_case(t, 5, NULL, w, NULL, 0, "merge of 5, weighted");
	unsigned dec[5] = {0, 1, 0, 0, 0};
	check_case(t, 5, NULL, w, dec, 1, "a fractional weight is the tree's");
	check_case(t, 1, NULL, NULL, NULL, 0, "merge of 1");
	const char *bad[3] = {in[0], "b 1\na 1\n", in[1]};
	check_case(bad, 3, NULL, NULL, NULL, 1, "one input unsorted");
	const char *big[2] = {"a 9999999999999999999\n", "a 9999999999999999999\n"};
	check_case(big, 2, NULL, NULL, NULL, 1, "a sum past 64 bits");
	for (unsigned i = 0; i < 5; i++)
		free(in[i]);
}

/* The header line write/folded.c writes (what the counts measure): the text path takes it
 * first in a file, the same in every file that has one, and writes what the tree writes */
static void test_header(void)
{
	const char *h = "# countname=nanoseconds type=cpu\n";
	char *b = malloc(4096), *a = malloc(4096);
	snprintf(b, 4096, "%sa 1\nb 2\n", h);
	snprintf(a, 4096, "%sa 3\nc 4\n", h);
	diff2(b, a, NULL, 0, "a header on both sides");
	diff2(b, "a 3\nc 4\n", NULL, 0, "a header on one side");
	diff2("a 3\nc 4\n", a, NULL, 0, "a header on the other side");
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	o.norm = FLAME_DIFF_NORM_TOTAL;
	diff2(b, a, &o, 1, "a header with -n is the tree's");
	diff2(b, "# countname=bytes\na 3\n", NULL, 1, "headers of two units: the tree's refusal");
	diff2("# countname=nanoseconds type=cpu duration=5\na 1\n",
	      "# countname=nanoseconds type=cpu duration=7\na 1\n", NULL, 1, "two durations");
	diff2("# countname=nanoseconds type=cpu\na 0\n", "a 0\n", NULL, 0, "no counts: no header");
	diff2("# countname=nanoseconds  type=cpu\na 1\n", "a 1\n", NULL, 1, "not as written");
	diff2("# countname=samples\na 1\n", "a 1\n", NULL, 1, "samples: no header written");
	diff2("# countname=us duration=012\na 1\n", "a 1\n", NULL, 1, "a zero-padded duration");
	diff2("a 1\n# countname=us\nb 1\n", "a 1\n", NULL, 1, "not first");
	const char *t[3] = {"# countname=bytes type=inuse_space duration=9\na 1\nb 2\n", "a 5\n",
	                    "# countname=bytes type=inuse_space duration=9\nb 1\nc 2\n"};
	uint64_t w[3] = {1, 3, 2};
	check_case(t, 3, NULL, w, NULL, 0, "a merge, two with the header");
	free(b);
	free(a);
}

/* Small random inputs from an alphabet of the grammar's corners (blanks, tabs, '.', ';',
 * digits, bytes below ' ', CR): whatever the text path takes must print what the tree
 * prints, and whatever it declines the tree reads as if alone. */
static void test_random(void)
{
	static const char *atoms[] = {"a", "b", "a b", ";", " ", "\t", "1", "0", ".", "x.5", "\001",
	                              "\r", "  ", "7", "z;y"};
	lcg = 2024;
	int taken = 0;
	for (int iter = 0; iter < 3000; iter++) {
		char *side[2];
		for (int k = 0; k < 2; k++) {
			char **lines = malloc(12 * sizeof *lines);
			unsigned n = rnd(12);
			for (unsigned i = 0; i < n; i++) {
				char buf[128];
				size_t len = 0;
				unsigned atoms_n = 1 + rnd(5);
				for (unsigned j = 0; j < atoms_n; j++)
					len += (size_t)snprintf(buf + len, sizeof buf - len, "%s",
					                        atoms[rnd(sizeof atoms / sizeof atoms[0])]);
				snprintf(buf + len, sizeof buf - len, "%s%u", rnd(8) ? " " : "  ", rnd(50));
				lines[i] = strdup(buf);
			}
			if (rnd(4)) /* mostly sorted */
				qsort(lines, n, sizeof *lines, cmp_str);
			size_t cap = 1, len = 0;
			for (unsigned i = 0; i < n; i++)
				cap += strlen(lines[i]) + 1;
			side[k] = malloc(cap);
			side[k][0] = '\0';
			for (unsigned i = 0; i < n; i++) {
				len += (size_t)sprintf(side[k] + len, "%s\n", lines[i]);
				free(lines[i]);
			}
			free(lines);
		}
		const char *t[2] = {side[0], side[1]};
		flame__source src[2], fresh[2];
		flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
		o.norm = rnd(2) ? FLAME_DIFF_NORM_TOTAL : FLAME_DIFF_NORM_NONE;
		open_mem(src, t, 2);
		open_mem(fresh, t, 2);
		int rc_text, rc_tree, rc_again;
		char *got = merged_text(src, 2, &o, &rc_text);
		char *want = tree_text(fresh, 2, &o, &rc_tree);
		CHECK(rc_text == 0 || rc_text == 1);
		if (rc_text == 0) {
			taken++;
			CHECK(rc_tree == 0 && got && want && strcmp(got, want) == 0);
			if (!(rc_tree == 0 && got && want && strcmp(got, want) == 0))
				fprintf(stderr, "random case %d differs:\n[%s]\n[%s]\n", iter, side[0], side[1]);
		} else {
			char *again = tree_text(src, 2, &o, &rc_again);
			CHECK(rc_again == rc_tree);
			CHECK((!again && !want) || (again && want && strcmp(again, want) == 0));
			free(again);
		}
		close_mem(src, 2);
		close_mem(fresh, 2);
		free(got);
		free(want);
		free(side[0]);
		free(side[1]);
	}
	CHECK(taken > 300); /* the text path is exercised, not only declined */
	fprintf(stderr, "random: %d of 3000 taken by the text path\n", taken);
}

/* The folded-line grammar both readers share (parse/folded-line.h), at the edges of its
 * fast path: counts of 19 digits (the most that cannot overflow) and more, fractions,
 * blanks, a CR, a second count, no count. */
static void test_grammar(void)
{
	static const struct {
		const char *line;
		int rc, ncounts;
		size_t n; /* of the stack */
		uint64_t m0;
		unsigned d0;
		uint64_t m1;
	} cases[] = {
	    {"a;b 1", 0, 1, 3, 1, 0, 0},
	    {"a 1234567890123456789", 0, 1, 1, 1234567890123456789ULL, 0, 0},
	    {"a 12345678901234567890", 0, 1, 1, 12345678901234567890ULL, 0, 0},
	    {"a 18446744073709551615", 0, 1, 1, UINT64_MAX, 0, 0},
	    {"a 18446744073709551616", -2, 0, 0, 0, 0, 0},
	    {"a 0000000000000000000000012", 0, 1, 1, 12, 0, 0},
	    {"a \t 007", 0, 1, 1, 7, 0, 0},
	    {"a 3\r", 0, 1, 1, 3, 0, 0},
	    {"a 1.50", 0, 1, 1, 15, 1, 0},
	    {"a 2.", 0, 1, 1, 2, 0, 0},
	    {"a 5 9", 0, 2, 1, 5, 0, 9},
	    {"a 12.5 3", 0, 2, 1, 125, 1, 3},
	    {"a1 7", 0, 1, 2, 7, 0, 0},
	    {"7", -1, 0, 0, 0, 0, 0},
	    {"a 1x", -1, 0, 0, 0, 0, 0},
	    {"a b", -1, 0, 0, 0, 0, 0},
	    {" 4", 0, 1, 0, 4, 0, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		flame__count c[2] = {{0, 0}, {0, 0}};
		int ncounts = 0;
		char buf[64];
		size_t n = strlen(cases[i].line);
		memcpy(buf, cases[i].line, n + 1);
		memset(buf + n + 1, 0, 8); /* the 8 readable bytes lines.h promises */
		int rc = flame__folded_line(buf, &n, c, &ncounts);
		CHECK_EQ_U64((uint64_t)(int64_t)rc, (uint64_t)(int64_t)cases[i].rc);
		if (rc || cases[i].rc)
			continue;
		CHECK_EQ_U64(ncounts, cases[i].ncounts);
		CHECK_EQ_U64(n, cases[i].n);
		CHECK_EQ_U64(c[0].mant, cases[i].m0);
		CHECK_EQ_U64(c[0].dec, cases[i].d0);
		if (ncounts == 2)
			CHECK_EQ_U64(c[1].mant, cases[i].m1);
	}
}

int main(void)
{
	test_grammar();
	test_big_diff();
	test_corners();
	test_merge();
	test_header();
	test_random();
	return harness_done();
}
