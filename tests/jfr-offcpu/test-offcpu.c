/* Unit tests of the BCC offcputime reader: every output mode on small inputs, the
 * multi-line and -f forms of one entry giving the same stack, --pid/--tid, the markers
 * and warnings, detection, and the exact error messages for broken input. */
#include "harness.h"
#include "util.h"

typedef struct warns {
	int n;
	char last_kind[64];
	unsigned long long last_line;
} warns;

static void on_warn(void *ud, const char *kind, const char *source, uint64_t line,
                    const char *msg)
{
	warns *w = ud;
	w->n++;
	snprintf(w->last_kind, sizeof w->last_kind, "%s", kind);
	w->last_line = line;
	(void)source;
	(void)msg;
}

/* Folded text of `text` read as offcpu with `flags` (offcpu.flags); NULL and *err on error. */
static char *collapse(const char *text, unsigned flags, warns *w, flame_err *err)
{
	flame_tree *t = test_tree_new();
	flame_input *in = NULL;
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_OFFCPU;
	o.offcpu_flags = flags;
	if (w) {
		o.warn = on_warn;
		o.warn_ud = w;
	}
	char *s = NULL;
	if (flame_input_open_mem(&in, text, strlen(text), "t.txt", err) == 0 &&
	    flame_parse(t, in, &o, err) == 0) {
		s = folded_str(t);
		const char *cn = flame_tree_count_name(t);
		CHECK(cn && strcmp(cn, "us") == 0);
	}
	flame_input_free(in);
	flame_tree_free(t);
	return s;
}

static void check_collapse(const char *text, unsigned flags, const char *want)
{
	flame_err err = {0};
	char *s = collapse(text, flags, NULL, &err);
	if (!s)
		fprintf(stderr, "error: %s\n", err.msg);
	CHECK(s != NULL);
	if (s)
		CHECK_STR(s, want);
	free(s);
}

static void check_error(const char *text, unsigned long long line, const char *msg)
{
	flame_err err = {0};
	char *s = collapse(text, 0, NULL, &err);
	CHECK(s == NULL);
	free(s);
	CHECK(err.code == FLAME_EDATA || err.code == FLAME_ERANGE);
	CHECK_EQ_U64(err.line, line);
	CHECK_STR(err.msg, msg);
	CHECK_STR(err.source, "t.txt");
}

static void test_multiline(void)
{
	/* kernel then user frames, leaf first; the comm keeps its spaces */
	check_collapse("Tracing off-CPU time (us) of all threads by user + kernel stack for 3 secs.\n"
	               "\n"
	               "    schedule\n"
	               "    do_nanosleep\n"
	               "    nanosleep\n"
	               "    main\n"
	               "    -                deep worker (27098)\n"
	               "        208\n"
	               "\n"
	               "    schedule\n"
	               "    do_nanosleep\n"
	               "    nanosleep\n"
	               "    main\n"
	               "    -                deep worker (27099)\n"
	               "        12\n"
	               "\n",
	               0, "deep worker;main;nanosleep;do_nanosleep;schedule 220\n");
	/* --pid/--tid: the printed id (a thread id) is appended like perf's comm-PID */
	check_collapse("    schedule\n    -                a (1)\n        5\n\n"
	               "    schedule\n    -                a (2)\n        7\n",
	               FLAME_OFFCPU_TID, "a-1;schedule 5\na-2;schedule 7\n");
	check_collapse("    schedule\n    -                a (1)\n        5\n",
	               FLAME_OFFCPU_PID, "a-1;schedule 5\n");
	/* a comm holding " (" and digits: the id is the last parenthesized number */
	check_collapse("    f\n    -                x (3) y (42)\n        1\n", FLAME_OFFCPU_TID,
	               "x (3) y-42;f 1\n");
	/* an entry with no frames at all (libbpf-tools prints missed stacks on stderr) */
	check_collapse("    -                bash (3580)\n        17154\n\n", 0, "bash 17154\n");
	/* CRLF line ends, no final newline */
	check_collapse("    f\r\n    -                c (1)\r\n        3\r\n\r\n    g\r\n    -        "
	               "        c (1)\r\n        4",
	               0, "c;f 3\nc;g 4\n");
}

static void test_delimiter_and_markers(void)
{
	const char *multi = "    schedule\n"
	                    "    --\n"
	                    "    read\n"
	                    "    -                cat (5)\n"
	                    "        10\n"
	                    "\n"
	                    "    [Missed Kernel Stack]\n"
	                    "    read\n"
	                    "    -                cat (5)\n"
	                    "        4\n"
	                    "\n"
	                    "    schedule\n"
	                    "    [Missed User Stack]\n"
	                    "    -                cat (5)\n"
	                    "        2\n"
	                    "\n";
	const char *folded = "cat;read;-;schedule 10\n"
	                     "cat;read;[Missed Kernel Stack] 4\n"
	                     "cat;[Missed User Stack];schedule 2\n";
	flame_err err = {0};
	char *a = collapse(multi, 0, NULL, &err);
	char *b = collapse(folded, 0, NULL, &err);
	CHECK(a && b);
	if (a && b) {
		CHECK_STR(a, b);
		CHECK_STR(a, "cat;[Missed User Stack];schedule 2\n"
		             "cat;read;-;schedule 10\n"
		             "cat;read;[Missed Kernel Stack] 4\n");
	}
	free(a);
	free(b);
}

static void test_old_format_and_offsets(void)
{
	/* bcc 2016: the process line is just the comm, no id */
	check_collapse("Tracing off-CPU time (us) of all threads by kernel stack... Hit Ctrl-C to end.\n"
	               "    schedule\n"
	               "    kthread\n"
	               "    rcuos/0\n"
	               "        22\n"
	               "\n"
	               "    schedule\n"
	               "    kthread\n"
	               "    rcuos/0\n"
	               "        8\n",
	               FLAME_OFFCPU_TID, "rcuos/0;kthread;schedule 30\n");
	/* -s offsets are kept as printed */
	check_collapse("    schedule+0x23\n    main+0x10\n    -                s (9)\n        3\n", 0,
	               "s;main+0x10;schedule+0x23 3\n");
	/* libbpf-tools -v: the address and dso columns go, sym+off stays */
	check_collapse("    #0  0xffffffff821fb643 schedule+0x23\n"
	               "    #1  0x000055e0b4ecd44d hot_leaf+0x2d (/tmp/w+0x144d)\n"
	               "    #2  0x00007fb406310ad7 [unknown]\n"
	               "    #3  0x00007fb406310ad8\n"
	               "    -                w (1)\n"
	               "        9\n",
	               0, "w;[unknown];[unknown];hot_leaf+0x2d;schedule+0x23 9\n");
}

static void test_warnings(void)
{
	warns w = {0};
	flame_err err = {0};
	char *s = collapse("    f\n    -                c (1)\n        3\n\n"
	                   "failed to get syms\n"
	                   "WARNING: 2 stack traces lost and could not be displayed.\n",
	                   0, &w, &err);
	CHECK(s && strcmp(s, "c;f 3\n") == 0);
	CHECK_EQ_U64(w.n, 2);
	CHECK_STR(w.last_kind, "offcpu-tool-warning");
	CHECK_EQ_U64(w.last_line, 6);
	free(s);
	/* -f input has no ids: --tid cannot apply and says so */
	memset(&w, 0, sizeof w);
	s = collapse("c;f 3\n", FLAME_OFFCPU_TID, &w, &err);
	CHECK(s && strcmp(s, "c;f 3\n") == 0);
	CHECK_EQ_U64(w.n, 1);
	CHECK_STR(w.last_kind, "offcpu-folded-no-id");
	free(s);
}

static void test_errors(void)
{
	check_error("    f\n    -                c (1)\n", 2,
	            "the input ends inside the stack that starts at line 1 (truncated?)");
	check_error("\n        12\n", 2, "a value line without a stack above it");
	check_error("    f\n    -                c (1)\n        99999999999999999999\n", 3,
	            "value overflows 64 bits");
}

/* `text` collapses to `want` with `nwarn` warnings, the last of kind `kind` at `line`. */
static void check_warned(const char *text, const char *want, int nwarn, const char *kind,
                         unsigned long long line)
{
	flame_err err = {0};
	warns w = {0};
	char *s = collapse(text, 0, &w, &err);
	if (!s)
		fprintf(stderr, "error: %s\n", err.msg);
	CHECK(s != NULL);
	if (s)
		CHECK_STR(s, want);
	free(s);
	CHECK_EQ_U64(w.n, nwarn);
	CHECK_STR(w.last_kind, kind);
	CHECK_EQ_U64(w.last_line, line);
}

/* A `2>&1` capture. stderr lines land where stdout's buffer was
 * flushed, mostly inside a line: the line is joined back around them; a line that fits
 * no rule is skipped, a block without its value line dropped, each with a warning. */
static void test_stderr_merged(void)
{
	/* ` failed to get syms` (the head of a frame line before it), the rest on the next */
	check_warned("    f\n failed to get syms\n   g\n    -                c (1)\n        5\n\n",
	             "c;g;f 5\n", 1, "offcpu-glued-line", 2);
	/* a frame cut in mid-name */
	check_warned("    schedule\n    do_nanofailed to get syms\nsleep\n    -                c (1)\n"
	             "        7\n",
	             "c;do_nanosleep;schedule 7\n", 1, "offcpu-glued-line", 2);
	/* a value cut by two stderr lines in a row (the second skipped as stderr) */
	check_warned("    f\n    -                c (1)\n        1    [Missed User Stack]\n"
	             "failed to get syms\n2\n\n",
	             "c;f 12\n", 2, "offcpu-unrecognized-line", 4);
	/* the cut fell at the end of a line: its rest is the newline alone */
	check_warned("    ffailed to get syms\n\n    -                c (1)\n        2\n",
	             "c;f 2\n", 1, "offcpu-glued-line", 1);
	/* BCC's closing warning inside a value line */
	check_warned("    f\n    -                c (1)\n        4WARNING: 3 stack traces lost and "
	             "could not be displayed.\n2\n",
	             "c;f 42\n", 1, "offcpu-glued-line", 3);
	/* stray lines inside a block: skipped, the block kept */
	check_warned("    f\n      g\n    h\n    -                c (1)\n        3\n",
	             "c;h;f 3\n", 1, "offcpu-unrecognized-line", 2);
	check_warned("    f\n    -                c (1)\n    g\n        1\n", "c;f 1\n", 1,
	             "offcpu-unrecognized-line", 3);
	/* no value line: the block cannot be weighed and is dropped; the next one is read */
	check_warned("    f\n    g\n\n    h\n    -                c (1)\n        2\n", "c;h 2\n", 1,
	             "offcpu-dropped-block", 3);
	/* the input ends after a head: it is read alone */
	check_warned("    f\n    -                c (1)\n        9failed to get syms\n", "c;f 9\n", 1,
	             "offcpu-glued-line", 3);
}

static void test_probe(void)
{
	const char *yes[] = {
		"Tracing off-CPU time (us) of all threads by user + kernel stack for 3 secs.\n\n",
		"    schedule\n    -                bash (3580)\n        17154\n\n",
		"    -                bash (3580)\n        17154\n",
		"    schedule\n    chmod\n        13\n",
	};
	const char *no[] = {
		"bash;schedule 8\n",                       /* -f output is folded */
		"    [Missed Kernel Stack]\nfailed to get syms\n", /* a stderr capture */
		"perf 123 1.0: 1 cpu-clock:\n\tffffffff schedule ([kernel])\n\n",
		"jdk.ExecutionSample {\n  startTime = 1\n}\n",
		"    schedule\n\n        12\n",
		"        12\n",
	};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		CHECK(flame_detect(yes[i], strlen(yes[i])) == FLAME_FORMAT_OFFCPU);
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		CHECK(flame_detect(no[i], strlen(no[i])) != FLAME_FORMAT_OFFCPU);
}

int main(void)
{
	RUN(test_multiline);
	RUN(test_delimiter_and_markers);
	RUN(test_old_format_and_offsets);
	RUN(test_warnings);
	RUN(test_errors);
	RUN(test_stderr_merged);
	RUN(test_probe);
	return harness_done();
}
