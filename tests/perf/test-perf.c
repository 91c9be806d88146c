/* Unit tests of the perf script parser: the line grammar and the name tidying
 * (parse/perf-name.c) one rule at a time, then whole inputs through flame_parse:
 * -j N against -j 1, event filtering, orphan frames, --time, errors with lines. */
#include "harness.h"
#include "util.h"
#include "parse/perf-name.h"

static char *str(const char *p, size_t n)
{
	static char buf[8][512];
	static int k;
	char *b = buf[k++ % 8];
	if (!p)
		return strcpy(b, "(null)");
	snprintf(b, sizeof buf[0], "%.*s", (int)n, p);
	return b;
}
#define S(p, n) str((p), (n))

static void test_event_lines(void)
{
	flame__perf_event ev;
	const char *l = "deep worker  7268   285.436221:    2004008 cpu-clock: ";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev));
	CHECK_STR(S(ev.comm, ev.comm_len), "deep worker");
	CHECK(ev.pid == NULL);
	CHECK_STR(S(ev.tid, ev.tid_len), "7268");
	CHECK(ev.has_time && ev.time > 285.436 && ev.time < 285.437);
	CHECK(ev.has_period && ev.period == 2004008);
	CHECK_STR(S(ev.event, ev.event_len), "cpu-clock");
	CHECK_EQ_U64(ev.rest_len, 0);

	l = "memfd:sealed-91  2810 [001]   310.733898:   10101010 cpu-clock: ";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev));
	CHECK_STR(S(ev.comm, ev.comm_len), "memfd:sealed-91");
	CHECK_STR(S(ev.tid, ev.tid_len), "2810");

	l = "fib-thread 12599/12602 [000]   430.148873: cpu-clock: ";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev));
	CHECK_STR(S(ev.pid, ev.pid_len), "12599");
	CHECK_STR(S(ev.tid, ev.tid_len), "12602");
	CHECK(!ev.has_period);

	/* modifiers stay in the name */
	l = "perl 10103   383.764463:    5025125 cpu-clock:uhH: ";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev));
	CHECK_STR(S(ev.event, ev.event_len), "cpu-clock:uhH");

	/* a tracepoint: no period, a payload */
	l = "deep worker 12654 [001]   436.369402: sched:sched_switch: prev_comm=deep worker "
	    "prev_pid=12654 ==> next_comm=x";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev));
	CHECK_STR(S(ev.comm, ev.comm_len), "deep worker");
	CHECK(!ev.has_period);
	CHECK_STR(S(ev.event, ev.event_len), "sched:sched_switch");
	CHECK_STR(S(ev.rest, ev.rest_len), "prev_comm=deep worker prev_pid=12654 ==> next_comm=x");

	/* a single-line sample: right-aligned comm, the frame after the event */
	l = "     deep worker 12322   420.971284:    2004008 cpu-clock:      55796573d44d "
	    "hot_leaf+0x2d (/tmp/w)";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev));
	CHECK_STR(S(ev.comm, ev.comm_len), "deep worker");
	CHECK_STR(S(ev.rest, ev.rest_len), "55796573d44d hot_leaf+0x2d (/tmp/w)");

	/* --ns, and an old file without a time column */
	l = "workload 12320   420.951668622:    2004008 cpu-clock: ";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev) && ev.time > 420.95166 && ev.time < 420.95167);
	l = "func_ab 15294 cpu-clock:";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev));
	CHECK(!ev.has_time);
	CHECK_STR(S(ev.comm, ev.comm_len), "func_ab");
	CHECK_STR(S(ev.event, ev.event_len), "cpu-clock");

	/* a comm with digits and spaces: the timestamp anchors the id */
	l = "Thread 2 x 1234 [000] 5.000001: 7 cycles: ";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev));
	CHECK_STR(S(ev.comm, ev.comm_len), "Thread 2 x");
	CHECK(ev.period == 7);

	/* not event lines */
	const char *no[] = {"\t            143f hot_leaf+0x1f (/tmp/pt/workload)",
	                    "Processed 1234 events and lost 5 chunks!",
	                    "Warning: something",
	                    "  workload.c:27",
	                    "a;b;c 12",
	                    ""};
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		CHECK(!flame__perf_parse_event(no[i], strlen(no[i]), &ev));

	/* a period that does not fit 64 bits is flagged */
	l = "w 1 1.0: 99999999999999999999999 cpu-clock: ";
	CHECK(flame__perf_parse_event(l, strlen(l), &ev) && ev.period_overflow);
}

static void test_frame_lines(void)
{
	flame__perf_frame f;
	const char *l = "\t            143f hot_leaf+0x1f (/tmp/pt/workload)";
	CHECK(flame__perf_parse_frame(l, strlen(l), &f));
	CHECK_STR(S(f.pc, f.pc_len), "143f");
	CHECK_STR(S(f.sym, f.sym_len), "hot_leaf+0x1f");
	CHECK_STR(S(f.dso, f.dso_len), "/tmp/pt/workload");

	/* symbols with spaces and parens; the dso group is found from the right */
	l = "\t    7f2e14ec8115 void java.lang.System.arraycopy(java.lang.Object, int)+0xf5 "
	    "(/tmp/perf-12848.map)";
	CHECK(flame__perf_parse_frame(l, strlen(l), &f));
	CHECK_STR(S(f.sym, f.sym_len), "void java.lang.System.arraycopy(java.lang.Object, int)+0xf5");
	CHECK_STR(S(f.dso, f.dso_len), "/tmp/perf-12848.map");

	/* "(deleted)" inside the dso: the Perl tool's regex takes the last " (" group */
	l = "\t           c59ae [unknown] (/memfd:sealed-91173221a7ea (deleted))";
	CHECK(flame__perf_parse_frame(l, strlen(l), &f));
	CHECK_STR(S(f.sym, f.sym_len), "[unknown] (/memfd:sealed-91173221a7ea");
	CHECK_STR(S(f.dso, f.dso_len), "deleted)");

	/* -F ip,sym and -F ip,dso */
	l = "\t            13b5 op_square";
	CHECK(flame__perf_parse_frame(l, strlen(l), &f));
	CHECK_STR(S(f.sym, f.sym_len), "op_square");
	CHECK(f.dso == NULL);
	l = "\t            143f (/tmp/pt/workload)";
	CHECK(flame__perf_parse_frame(l, strlen(l), &f));
	CHECK_STR(S(f.sym, f.sym_len), "[unknown]");
	CHECK_STR(S(f.dso, f.dso_len), "/tmp/pt/workload");

	/* no indent (old perf): needs a hex address */
	l = "4005d6 main (/tmp/a.out)";
	CHECK(flame__perf_parse_frame(l, strlen(l), &f));
	CHECK_STR(S(f.sym, f.sym_len), "main");
	l = "Warning: 5 (x)";
	CHECK(!flame__perf_parse_frame(l, strlen(l), &f));

	CHECK(flame__perf_is_srcline("  workload.c:27", 15));
	CHECK(flame__perf_is_srcline("  libc.so.6[27b25]", 18));
	CHECK(!flame__perf_is_srcline("  something else", 16));

	const char *name;
	l = "# cmdline : /usr/bin/perf record -g -o x.data ./bin/workload --fast";
	size_t n = flame__perf_cmdline_target(l, strlen(l), &name);
	CHECK_STR(S(name, n), "workload");
}

/* Tidy the frame line `l` with `flags`; the names joined with '|'. */
static char *tidy(const char *l, unsigned flags)
{
	static char out[1024];
	static flame__perf_names nm;
	flame__perf_frame f;
	out[0] = '\0';
	if (!flame__perf_parse_frame(l, strlen(l), &f))
		return strcpy(out, "(not a frame)");
	int k = flame__perf_tidy(&f, flags, &nm);
	for (int i = 0; i < k; i++) {
		if (i)
			strcat(out, "|");
		strncat(out, flame__perf_name_ptr(&nm, (size_t)i), nm.v[i].len);
	}
	return out;
}

static void test_tidy(void)
{
	CHECK_STR(tidy("\t1 hot_leaf+0x1f (/w)", 0), "hot_leaf");
	CHECK_STR(tidy("\t1 _start+0xffff018fd5dce000 (/w)", 0), "_start");
	CHECK_STR(tidy("\t1 a+0x1+0xab (/w)", 0), "a+0x1");
	CHECK_STR(tidy("\t1 f+0xAB (/w)", 0), "f+0xAB"); /* only lowercase hex is an offset */
	/* arguments cut at the first '(' */
	CHECK_STR(tidy("\t1 void java.lang.X.m(java.lang.Object, int)+0xf5 (/tmp/perf-1.map)", 0),
	          "void java.lang.X.m");
	CHECK_STR(tidy("\t1 StubRoutines (1)+0xc9 (/tmp/perf-1.map)", 0), "StubRoutines ");
	/* Go methods are kept whole */
	CHECK_STR(tidy("\t1 encoding/json.(*decodeState).array+0x554 (/g)", 0),
	          "encoding/json.(*decodeState).array");
	/* (anonymous namespace) survives the cut, but frames starting with '(' are dropped */
	CHECK_STR(tidy("\t1 ns::(anonymous namespace)::f(int)+0x5 (/c)", 0),
	          "ns::(anonymous namespace)::f");
	CHECK_STR(tidy("\t1 (anonymous namespace)::Matrix<double, 48>::operator*+0x57 (/c)", 0), "");
	/* ';' -> ':', quotes dropped */
	CHECK_STR(tidy("\t1 Ljava/io/PrintStream;::print+0x0 (/tmp/perf-1.map)", 0),
	          "Ljava/io/PrintStream:::print");
	CHECK_STR(tidy("\t1 RegExp:[&<>\"'] (/tmp/perf-7539.map)", 0), "RegExp:[&<>]");
	/* java: "L" dropped from class names when the process is java */
	CHECK_STR(tidy("\t1 Lorg/mozilla/ContextFactory;.call(Lorg/C;)V (/tmp/perf-1.map)",
	               FLAME__PERF_JAVA),
	          "org/mozilla/ContextFactory:.call");
	/* "->" inline chains: caller first, the inlined ones _[i] */
	CHECK_STR(tidy("\t1 Ljava/io/PrintStream;::println->Ljava/io/PrintStream;::print+0x0 "
	               "(/tmp/perf-10487.map)",
	               FLAME_PERF_JIT),
	          "Ljava/io/PrintStream:::println_[j]|Ljava/io/PrintStream:::print_[i]");
	CHECK_STR(tidy("\t1 a->b->c (/x)", 0), "a|b_[i]|c_[i]");
	/* Rust legacy names perf half-demangled; FLAME_PERF_RAW_NAMES keeps them */
	CHECK_STR(tidy("\t1 GcBox$LT$T$GT$::new::_$u7b$$u7b$closure$u7d$$u7d$::ha2ed0674a1c3dc9 (/r)",
	               0),
	          "GcBox<T>::new::{{closure}}");
	CHECK_STR(tidy("\t1 GcBox$LT$T$GT$::new::ha2ed0674a1c3dc9 (/r)", FLAME_PERF_RAW_NAMES),
	          "GcBox$LT$T$GT$::new::ha2ed0674a1c3dc9");
	CHECK_STR(tidy("\t1 core..ptr..drop::h0123456789abcdef+0x1 (/r)", 0), "core::ptr::drop");
	CHECK_STR(tidy("\t1 a$u3b$b$C$c$u0a$d$u$e$LT (/r)", 0), "a:b,c$u0a$d$u$e$LT");
	CHECK_STR(tidy("\t1 x$u20ac$y$u1f600$ (/r)", 0), "x\xe2\x82\xacy\xf0\x9f\x98\x80");
	/* not Rust: no escape and no 16-digit hash */
	CHECK_STR(tidy("\t1 a..b::hdead (/r)", 0), "a..b::hdead");
	CHECK_STR(tidy("\t1 $ (/r)", 0), "$");
	CHECK_STR(tidy("\t1 a-> (/x)", 0), "a");
	/* [unknown] symbols */
	CHECK_STR(tidy("\t1234 [unknown] (/usr/bin/python3.11)", 0), "[python3.11]");
	CHECK_STR(tidy("\t0 [unknown] ([unknown])", 0), "[unknown]");
	CHECK_STR(tidy("\tff12 [unknown] (/tmp/perf-12634.map)", FLAME_PERF_ADDRS),
	          "[perf-12634.map <ff12>]");
	CHECK_STR(tidy("\t0 [unknown] ([unknown])", FLAME_PERF_ADDRS), "[unknown <0>]");
	CHECK_STR(tidy("\t           c59ae [unknown] (/memfd:sealed-91173221a7ea (deleted))", 0),
	          "[unknown] ");
	/* annotations */
	CHECK_STR(tidy("\tffffffff821facd8 __schedule+0x618 ([kernel.kallsyms])", FLAME_PERF_KERNEL),
	          "__schedule_[k]");
	CHECK_STR(tidy("\t8c3453 tcp_sendmsg (/lib/modules/4.3.0/build/vmlinux)", FLAME_PERF_KERNEL),
	          "tcp_sendmsg_[k]");
	CHECK_STR(tidy("\t0 [unknown] ([unknown])", FLAME_PERF_KERNEL), "[unknown]");
	CHECK_STR(tidy("\t1 Interpreter+0x0 (/tmp/perf-12848.map)", FLAME_PERF_JIT), "Interpreter_[j]");
	CHECK_STR(tidy("\t1 Interpreter+0x0 (/tmp/perf-12848.map)", FLAME_PERF_KERNEL),
	          "Interpreter");
	/* --keep-templates: the argument list is the first '(' outside <> {} [] */
	unsigned kt = FLAME_PERF_KEEP_TEMPLATES;
	CHECK_STR(tidy("\t1 std::function<int (int, int)>::operator()(int, int) const+0x1 (/c)", 0),
	          "std::function<int ");
	CHECK_STR(tidy("\t1 std::function<int (int, int)>::operator()(int, int) const+0x1 (/c)", kt),
	          "std::function<int (int, int)>::operator");
	CHECK_STR(tidy("\t1 main::{lambda(int)#1}::operator()(int) const (/c)", kt),
	          "main::{lambda(int)#1}::operator");
	CHECK_STR(tidy("\t1 bool operator< <int>(Foo<int> const&, Foo<int> const&) (/c)", kt),
	          "bool operator< <int>");
	CHECK_STR(tidy("\t1 std::vector<int>::operator[](unsigned long) (/c)", kt),
	          "std::vector<int>::operator[]");
	CHECK_STR(tidy("\t1 ns::(anonymous namespace)::g<int>(int) (/c)", kt),
	          "ns::(anonymous namespace)::g<int>");
}

/* Collapse `text` with `o` (format perf); the folded text, or "ERR <msg>". */
static char *collapse(const char *text, flame_parse_opts o)
{
	flame_err err = {0};
	flame_tree *t = test_tree_new();
	flame_input *in = NULL;
	char *r;
	o.format = FLAME_FORMAT_PERF;
	if (flame_input_open_mem(&in, text, strlen(text), "t.perf", &err) ||
	    flame_parse(t, in, &o, &err)) {
		char buf[700];
		flame_err_format(&err, buf, sizeof buf);
		r = malloc(strlen(buf) + 5);
		sprintf(r, "ERR %s", buf);
	} else {
		r = folded_str(t);
	}
	flame_input_free(in);
	flame_tree_free(t);
	return r;
}

struct warns {
	char text[4096];
	int n;
};
static void on_warn(void *ud, const char *kind, const char *source, uint64_t line,
                    const char *msg)
{
	struct warns *w = ud;
	size_t l = strlen(w->text);
	snprintf(w->text + l, sizeof w->text - l, "%s %s:%llu\n", kind, source,
	         (unsigned long long)line);
	w->n++;
	(void)msg;
}

static void test_samples(void)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	const char *two = "deep worker  7268   1.000001:    10 cpu-clock: \n"
	                  "\t143f hot_leaf+0x1f (/w)\n"
	                  "\t11f0 main+0xf0 (/w)\n"
	                  "\n"
	                  "deep worker  7269   2.000001:    5 cpu-clock: \n"
	                  "\t143f hot_leaf+0x1f (/w)\n"
	                  "\t11f0 main+0xf0 (/w)\n";
	char *r = collapse(two, o);
	CHECK_STR(r, "deep_worker;main;hot_leaf 15\n");
	free(r);
	o.perf_flags = FLAME_PERF_TID;
	r = collapse(two, o);
	CHECK_STR(r, "deep_worker-?/7268;main;hot_leaf 10\ndeep_worker-?/7269;main;hot_leaf 5\n");
	free(r);
	o.perf_flags = 0;
	o.has_time_range = 1;
	o.time_start = 1.5;
	o.time_end = 3;
	r = collapse(two, o);
	CHECK_STR(r, "deep_worker;main;hot_leaf 5\n");
	free(r);

	/* the same frame line in java and other samples: tidied differently in each (the
	 * line cache must keep them apart) */
	const char *jv = "java 1 1.000001: 1 cpu-clock:\n"
	                 "\t1 Lcom/foo/Bar;::baz+0x1 (/tmp/perf-1.map)\n\n"
	                 "other 2 1.000002: 1 cpu-clock:\n"
	                 "\t1 Lcom/foo/Bar;::baz+0x1 (/tmp/perf-1.map)\n\n"
	                 "java 1 1.000003: 1 cpu-clock:\n"
	                 "\t1 Lcom/foo/Bar;::baz+0x1 (/tmp/perf-1.map)\n\n"
	                 "other 2 1.000004: 1 cpu-clock:\n"
	                 "\t1 Lcom/foo/Bar;::baz+0x1 (/tmp/perf-1.map)\n";
	o = (flame_parse_opts)FLAME_PARSE_OPTS_INIT;
	r = collapse(jv, o);
	CHECK_STR(r, "java;com/foo/Bar:::baz 2\nother;Lcom/foo/Bar:::baz 2\n");
	free(r);

	/* mixed events: the first sampling event is kept, before a tracepoint seen earlier
	 * (cpu-clock:u is another event), one warning per skipped sample */
	o = (flame_parse_opts)FLAME_PARSE_OPTS_INIT;
	struct warns w = {{0}, 0};
	o.warn = on_warn;
	o.warn_ud = &w;
	const char *mixed = "a 1 [000] 1.0: sched:sched_switch: prev_comm=a\n"
	                    "\t1 schedule (/k)\n\n"
	                    "a 1 1.1: 100 cpu-clock: \n"
	                    "\t1 work (/w)\n\n"
	                    "a 1 1.2: 100 cpu-clock:u: \n"
	                    "\t1 more (/w)\n";
	r = collapse(mixed, o);
	CHECK_STR(r, "a;work 100\n");
	CHECK_STR(w.text, "perf-event-filtered t.perf:1\nperf-event-filtered t.perf:7\n");
	free(r);
	o.perf_event_filter = "cpu-clock";
	r = collapse(mixed, o);
	CHECK_STR(r, "a;more 100\na;work 100\n");
	free(r);
	o.perf_event_filter = "cpu-clock:u";
	r = collapse(mixed, o);
	CHECK_STR(r, "a;more 100\n");
	free(r);

	/* single-line samples, srclines, a cmdline-less "-F ip,sym" file */
	o = (flame_parse_opts)FLAME_PARSE_OPTS_INIT;
	r = collapse("    w 5 1.0: 3 cpu-clock:  55 f+0x1 (/w)\n"
	             "    w 5 1.1: 4 cpu-clock:  56 g+0x1 (/w)\n",
	             o);
	CHECK_STR(r, "w;f 3\nw;g 4\n");
	free(r);
	r = collapse("w 5 1.0: 3 cpu-clock: \n\t1 f+0x1 (/w)\n  w.c:27\n\t2 main (/w)\n  w.c:9\n", o);
	CHECK_STR(r, "w;main;f 3\n");
	free(r);
	r = collapse("\n\t13b5 op_square\n\t11f0 main\n\n\n\t13b5 op_square\n\t11f0 main\n", o);
	CHECK_STR(r, "perf;main;op_square 2\n");
	free(r);

	/* frames orphaned by a blank line after the event line: dropped with a warning; the
	 * event line counts alone, as stackcollapse-perf.pl counts it */
	memset(&w, 0, sizeof w);
	o.warn = on_warn;
	o.warn_ud = &w;
	r = collapse("w 5 1.0: 3 cpu-clock: \n\n\t1 f (/w)\n\nw 5 1.1: 2 cpu-clock: \n\t1 g (/w)\n",
	             o);
	CHECK_STR(r, "w 3\nw;g 2\n");
	CHECK_STR(w.text, "perf-orphan-frames t.perf:3\n");
	free(r);

	/* junk before the first sample and inside one */
	memset(&w, 0, sizeof w);
	r = collapse("Warning: lost samples\nw 5 1.0: 3 cpu-clock: \n\t1 f (/w)\nJUNK\n", o);
	CHECK_STR(r, "w;f 3\n");
	CHECK_STR(w.text, "perf-unrecognized-line t.perf:1\nperf-unrecognized-line t.perf:4\n");
	free(r);

	/* errors name the line */
	o = (flame_parse_opts)FLAME_PARSE_OPTS_INIT;
	r = collapse("w 5 1.0: 18446744073709551615 cpu-clock: \n\t1 f (/w)\n\n"
	             "w 5 1.1: 1 cpu-clock: \n\t1 f (/w)\n",
	             o);
	CHECK_STR(r, "ERR t.perf:4: the sample counts add up to more than 64 bits");
	free(r);
	r = collapse("w 5 1.0: 18446744073709551616 cpu-clock: \n\t1 f (/w)\n", o);
	CHECK_STR(r, "ERR t.perf:1: sample period does not fit 64 bits");
	free(r);
	r = collapse("w 5 1.0: 1 cpu-clock: \n\t1 f (/w)\n\x01\x02\x03garbage\n", o);
	CHECK_STR(r, "ERR t.perf:3: binary data where perf script text was expected");
	free(r);
	r = collapse("", o);
	CHECK_STR(r, "");
	free(r);
}

/* A generated input of many samples and blocks: every thread count gives the same. */
static void test_threads(void)
{
	size_t cap = 6 << 20, n = 0;
	char *text = malloc(cap);
	unsigned x = 12345;
	for (int i = 0; n + 4096 < cap; i++) {
		x = x * 1103515245 + 12345;
		if (i == 7)
			n += (size_t)sprintf(text + n, "\n\t1 orphan (/w)\n\n");
		if (i % 1000 == 3)
			n += (size_t)sprintf(text + n, "junk line %d\n", i);
		const char *ev = i % 97 == 5 ? "page-faults" : "cpu-clock";
		n += (size_t)sprintf(text + n, "comm %u %d [001] %d.%06d: %u %s: \n", x % 7, i, i / 1000,
		                     i % 1000, 1 + x % 1000, ev);
		for (unsigned d = 0; d < 3 + (x >> 8) % 20; d++)
			n += (size_t)sprintf(text + n, "\t%x f%u+0x%x (/usr/lib/lib%u.so)\n", d * 16,
			                     (x >> (d % 16)) % 50, d, d % 3);
		n += (size_t)sprintf(text + n, "\n");
	}
	text[n] = '\0';
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	struct warns w1 = {{0}, 0}, w4 = {{0}, 0};
	o.threads = 1;
	o.warn = on_warn;
	o.warn_ud = &w1;
	char *r1 = collapse(text, o);
	o.threads = 4;
	o.warn_ud = &w4;
	char *r4 = collapse(text, o);
	CHECK(r1 && r4 && strlen(r1) > 1000);
	CHECK(strcmp(r1, r4) == 0);
	CHECK(w1.n > 10 && w1.n == w4.n);
	CHECK_STR(w1.text, w4.text);
	free(r1);
	free(r4);
	free(text);
}

/* Deep stacks and long names work (and are not slow). */
static void test_sizes(void)
{
	enum { DEPTH = 100000 };
	size_t cap = (size_t)DEPTH * 24 + 4096, n = 0;
	char *text = malloc(cap);
	n += (size_t)sprintf(text + n, "deep 1 1.0: 1 cpu-clock: \n");
	for (int i = 0; i < DEPTH; i++)
		n += (size_t)sprintf(text + n, "\t%x f%d (/w)\n", i, i % 3);
	text[n] = '\0';
	flame_err err;
	flame_tree *t = parse_str(text, FLAME_FORMAT_PERF, &err);
	size_t nst = 0;
	CHECK(t && flame_tree_stack_count(t, &nst, NULL) == 0 && nst == 1 &&
	      flame_tree_total(t, 0) == 1);
	flame_tree_free(t);
	free(text);

	size_t big = 1 << 20;
	text = malloc(big + 128);
	n = (size_t)sprintf(text, "w 1 1.0: 1 cpu-clock: \n\t1 ");
	memset(text + n, 'x', big);
	n += big;
	n += (size_t)sprintf(text + n, " (/w)\n");
	text[n] = '\0';
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	char *r = collapse(text, o);
	CHECK(r && strlen(r) == big + 5 && memcmp(r, "w;xxx", 5) == 0);
	free(r);
	free(text);
}

/* More distinct frame lines than the line cache keeps: it starts again, and names
 * (with "->" chains, cached apart) stay right before and after. */
static void test_line_cache_restart(void)
{
	enum { N = 70000 };
	size_t cap = (size_t)N * 64 + 256, n = 0;
	char *text = malloc(cap);
	for (int i = 0; i <= N; i++)
		n += (size_t)sprintf(text + n, "w 1 1.0: 1 cpu-clock: \n\t%x a->b%d (/w)\n\t1 main (/w)\n\n",
		                     i, i % N);
	text[n] = '\0';
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.threads = 1;
	char *r = collapse(text, o);
	size_t lines = 0;
	for (const char *q = r; (q = strchr(q, '\n')); q++)
		lines++;
	CHECK_EQ_U64(lines, N);
	CHECK(strstr(r, "\nw;main;a;b0_[i] 2\n") || strncmp(r, "w;main;a;b0_[i] 2\n", 18) == 0);
	CHECK(strstr(r, "\nw;main;a;b69999_[i] 1\n") != NULL);
	CHECK(strstr(r, "\nw;main;a;b12345_[i] 1\n") != NULL);
	free(r);
	free(text);
}

int main(void)
{
	RUN(test_event_lines);
	RUN(test_frame_lines);
	RUN(test_tidy);
	RUN(test_samples);
	RUN(test_threads);
	RUN(test_sizes);
	RUN(test_line_cache_restart);
	return harness_done();
}
