/* Unit tests of the JFR text reader: frames and options, weights per event type (sizes
 * and durations converted back from the text), event selection, thread names, detection
 * and the exact error messages for broken input. */
#include "harness.h"
#include "util.h"

static char count_name[64];
static char last_warn[512], last_kind[64];
static int nwarn;

static void on_warn(void *ud, const char *kind, const char *source, uint64_t line, const char *msg)
{
	(void)ud, (void)source, (void)line;
	nwarn++;
	snprintf(last_kind, sizeof last_kind, "%s", kind);
	snprintf(last_warn, sizeof last_warn, "%s", msg);
}

static char *collapse(const char *text, const char *event, unsigned flags, flame_err *err)
{
	flame_tree *t = test_tree_new();
	flame_input *in = NULL;
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_JFR;
	o.jfr_event = event;
	o.jfr_flags = flags;
	o.warn = on_warn;
	char *s = NULL;
	count_name[0] = '\0';
	nwarn = 0;
	last_warn[0] = last_kind[0] = '\0';
	if (flame_input_open_mem(&in, text, strlen(text), "t.txt", err) == 0 &&
	    flame_parse(t, in, &o, err) == 0) {
		s = folded_str(t);
		const char *cn = flame_tree_count_name(t);
		snprintf(count_name, sizeof count_name, "%s", cn ? cn : "");
	}
	flame_input_free(in);
	flame_tree_free(t);
	return s;
}

static void check_collapse(const char *text, const char *event, unsigned flags, const char *want)
{
	flame_err err = {0};
	char *s = collapse(text, event, flags, &err);
	if (!s)
		fprintf(stderr, "error: line %llu: %s\n", (unsigned long long)err.line, err.msg);
	CHECK(s != NULL);
	if (s)
		CHECK_STR(s, want);
	free(s);
}

static void check_error(const char *text, unsigned long long line, const char *msg)
{
	flame_err err = {0};
	char *s = collapse(text, NULL, 0, &err);
	CHECK(s == NULL);
	free(s);
	CHECK(err.code == FLAME_EDATA || err.code == FLAME_ERANGE);
	CHECK_EQ_U64(err.line, line);
	CHECK_STR(err.msg, msg);
}

static const char sample[] =
	"jdk.ExecutionSample {\n"
	"  startTime = 02:58:31.693\n"
	"  sampledThread = \"odd \"quoted\" name {x} \xc3\xbcn\" (javaThreadId = 15)\n"
	"  state = \"STATE_RUNNABLE\"\n"
	"  stackTrace = [\n"
	"    java.util.Arrays.sort(int[]) line: 99\n"
	"    JfrWorkload.lambda$main$3(long) line: 12\n"
	"    java.lang.Thread.run()\n"
	"    ...\n"
	"  ]\n"
	"}\n"
	"\n";

static void test_frames(void)
{
	check_collapse(sample, NULL, 0,
	               "[truncated];java.lang.Thread.run;JfrWorkload.lambda$main$3;java.util.Arrays.sort 1\n");
	CHECK_STR(count_name, "samples");
	check_collapse(sample, NULL, FLAME_JFR_SIGNATURES,
	               "[truncated];java.lang.Thread.run();JfrWorkload.lambda$main$3(long);"
	               "java.util.Arrays.sort(int[]) 1\n");
	check_collapse(sample, NULL, FLAME_JFR_LINES | FLAME_JFR_ANNOTATE,
	               "[truncated];java.lang.Thread.run_[j];JfrWorkload.lambda$main$3:12_[j];"
	               "java.util.Arrays.sort:99_[j] 1\n");
	/* the thread name is everything between the first '"' and the last '" (' */
	check_collapse(sample, NULL, FLAME_JFR_THREADS,
	               "odd \"quoted\" name {x} \xc3\xbcn;[truncated];java.lang.Thread.run;"
	               "JfrWorkload.lambda$main$3;java.util.Arrays.sort 1\n");
}

/* A trace that ends in '...' lost its root side (jfr print keeps 5
 * frames unless given --stack-depth; the recorder keeps 64): it goes under a
 * '[truncated]' root, never mixed with whole stacks, with one warning that counts them
 * and names the fix. An event type whose events carry no stack warns too. */
static void test_truncated_stacks(void)
{
	static const char whole[] = "jdk.ExecutionSample {\n  stackTrace = [\n    a.B.leaf()\n"
	                            "    a.B.main()\n  ]\n}\n\n";
	static const char cut[] = "jdk.ExecutionSample {\n  stackTrace = [\n    a.B.leaf()\n"
	                          "    a.B.main()\n    ...\n  ]\n}\n\n";
	char text[1024];
	snprintf(text, sizeof text, "%s%s%s", whole, cut, cut);
	check_collapse(text, NULL, 0, "[truncated];a.B.main;a.B.leaf 2\na.B.main;a.B.leaf 1\n");
	CHECK_EQ_U64(nwarn, 1);
	CHECK_STR(last_kind, "jfr-truncated");
	CHECK_STR(last_warn, "2 of the 3 'jdk.ExecutionSample' stack traces end in '...', cut by "
	                     "jfr print (5 frames unless given --stack-depth): kept under a "
	                     "'[truncated]' root frame; for whole stacks: jfr print --stack-depth 64 "
	                     "--events jdk.ExecutionSample FILE.jfr");
	check_collapse(whole, NULL, 0, "a.B.main;a.B.leaf 1\n");
	CHECK_EQ_U64(nwarn, 0);
	/* 64 frames and '...': the recorder's limit, which --stack-depth cannot lift */
	char deep[8192];
	size_t n = (size_t)snprintf(deep, sizeof deep, "jdk.ExecutionSample {\n  stackTrace = [\n");
	for (int i = 0; i < 64; i++)
		n += (size_t)snprintf(deep + n, sizeof deep - n, "    a.B.f%d()\n", i);
	snprintf(deep + n, sizeof deep - n, "    ...\n  ]\n}\n\n");
	flame_err err = {0};
	char *s = collapse(deep, NULL, 0, &err);
	CHECK(s && strncmp(s, "[truncated];a.B.f63;", 20) == 0);
	free(s);
	CHECK_STR(last_warn, "1 of the 1 'jdk.ExecutionSample' stack traces end in '...' after 64 "
	                     "frames or more, cut by the recorder: kept under a '[truncated]' root "
	                     "frame; for deeper stacks record with -XX:FlightRecorderOptions:stackdepth=N");
	/* events without stacks: named, or all of them */
	static const char gc[] = "jdk.GCHeapSummary {\n  gcId = 1\n  heapUsed = 17.9 MB\n}\n\n";
	check_collapse(gc, "jdk.GCHeapSummary", 0, "");
	CHECK_STR(last_kind, "jfr-no-stacks");
	CHECK_STR(last_warn, "the 1 'jdk.GCHeapSummary' events have no stack trace: nothing to draw");
	check_collapse(gc, NULL, 0, "");
	CHECK_STR(last_warn, "none of the 1 events has a stack trace: nothing to draw");
}

static void test_weights(void)
{
	/* 1.3 kB = 1331.2 bytes: five of them are 6656 bytes, not 5 * 1331 */
	char text[4096] = "";
	for (int i = 0; i < 5; i++)
		strcat(text, "jdk.ObjectAllocationSample {\n"
		             "  objectClass = byte[] (classLoader = bootstrap)\n"
		             "  weight = 1.3 kB\n"
		             "  eventThread = \"main\" (javaThreadId = 1)\n"
		             "  stackTrace = [\n"
		             "    A.alloc() line: 1\n"
		             "  ]\n"
		             "}\n\n");
	strcat(text, "jdk.ObjectAllocationSample {\n"
	             "  weight = 19.0 MB\n"
	             "  stackTrace = [\n"
	             "    B.alloc()\n"
	             "  ]\n"
	             "}\n\n"
	             "jdk.ObjectAllocationSample {\n"
	             "  weight = 1 byte\n"
	             "  stackTrace = [\n"
	             "    B.alloc()\n"
	             "  ]\n"
	             "}\n\n");
	check_collapse(text, NULL, 0, "A.alloc 6656\nB.alloc 19922945\n");
	CHECK_STR(count_name, "bytes");
	/* durations: every form jfr prints, in nanoseconds; zero durations are omitted */
	const char *forms[][2] = {{"2.37 ms", "2370000"},  {"0.0450 ms", "45000"},
	                          {"0.000500 ms", "500"}, {"1.23 s", "1230000000"},
	                          {"1 m 5 s", "65000000000"}, {"2 h 3 m", "7380000000000"},
	                          {"1 d 2 h", "93600000000000"}, {"0 s", "0"}, {"N/A", "0"}};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		char t2[512], want[128];
		snprintf(t2, sizeof t2,
		         "jdk.ThreadPark {\n  duration = %s\n  stackTrace = [\n    P.park()\n  ]\n}\n\n",
		         forms[i][0]);
		snprintf(want, sizeof want, "P.park %s\n", forms[i][1]);
		check_collapse(t2, NULL, 0, want);
	}
	check_collapse("jdk.JavaMonitorEnter {\n  duration = 26.0 ms\n  stackTrace = [\n"
	               "    M.m()\n  ]\n}\n\njdk.JavaMonitorEnter {\n  stackTrace = [\n"
	               "    M.m()\n  ]\n}\n",
	               NULL, 0, "M.m 26000000\n");
	CHECK_STR(count_name, "nanoseconds");
}

static void test_event_selection(void)
{
	const char *mixed = "jdk.ThreadPark {\n  duration = 1.00 ms\n  stackTrace = [\n    P.park()\n  ]\n}\n\n"
	                    "jdk.GCPhasePause {\n  duration = 1.00 ms\n  name = \"x\"\n}\n\n"
	                    "jdk.ExecutionSample {\n  stackTrace = [\n    E.run()\n  ]\n}\n\n"
	                    "jdk.ThreadPark {\n  duration = 2.00 ms\n  stackTrace = [\n    P.park()\n  ]\n}\n\n";
	/* default: jdk.ExecutionSample when there is any */
	check_collapse(mixed, NULL, 0, "E.run 1\n");
	check_collapse(mixed, "jdk.ThreadPark", 0, "P.park 3000000\n");
	check_collapse(mixed, "jdk.Nothing", 0, "");
	/* no ExecutionSample: the first type with stacks */
	check_collapse("jdk.GCPhasePause {\n  duration = 1.00 ms\n}\n\n"
	               "jdk.ThreadSleep {\n  duration = 5.00 ms\n  stackTrace = [\n    S.sleep()\n  ]\n}\n\n"
	               "jdk.ThreadPark {\n  duration = 2.00 ms\n  stackTrace = [\n    P.park()\n  ]\n}\n",
	               NULL, 0, "S.sleep 5000000\n");
	/* nested objects, multi-line strings and `N/A` stacks are skipped */
	check_collapse("jdk.OSInformation {\n  osVersion = \"a\nb = c\n  x = {\n\"\n}\n\n"
	               "jdk.GCHeapSummary {\n  heapSpace = {\n    start = 0x1\n  }\n  stackTrace = N/A\n}\n\n"
	               "jdk.ExecutionSample {\n  stackTrace = [\n    E.run()\n  ]\n}\n",
	               NULL, 0, "E.run 1\n");
}

static void test_errors(void)
{
	check_error("jdk.ExecutionSample {\n  stackTrace = [\n    A.a()\n", 3,
	            "the input ends inside the event 'jdk.ExecutionSample' that starts at line 1 "
	            "(truncated?)");
	check_error("jdk.ExecutionSample {\n  stackTrace = [\n    A.a()\n}\n", 4,
	            "the event ends inside its stack trace (no '  ]' after the frames of the event at "
	            "line 1)");
	check_error("jdk.ExecutionSample {\n  stackTrace = [\n  A.a()\n  ]\n}\n", 3,
	            "expected a frame (4 spaces, then 'pkg.Class.method(...)') or '  ]' closing the "
	            "stack trace of the event at line 1");
	check_error("hello\n", 1,
	            "expected an event such as 'jdk.ExecutionSample {' (the text of 'jfr print')");
	check_error("jdk.ObjectAllocationSample {\n  weight = lots\n}\n", 2,
	            "cannot read the size 'lots' (expected a size like '1.5 kB' or '24 bytes')");
	check_error("jdk.ThreadPark {\n  duration = 3 fortnights\n}\n", 2,
	            "cannot read the duration '3 fortnights' (expected a duration like '2.37 ms' or "
	            "'1 m 5 s')");
	check_error("jdk.ObjectAllocationSample {\n  weight = 99999999999.0 EB\n}\n", 2,
	            "the value '99999999999.0 EB' overflows 64 bits");
}

static void test_probe(void)
{
	CHECK(flame_detect(sample, strlen(sample)) == FLAME_FORMAT_JFR);
	const char *no[] = {
		"jdk.ExecutionSample {\n}\n",
		"main;a 1\n",
		"{\n  a = 1\n}\n",
		"jdk.ExecutionSample {\n    nested = 1\n",
		"    schedule\n    -                bash (3580)\n        17154\n",
	};
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		CHECK(flame_detect(no[i], strlen(no[i])) != FLAME_FORMAT_JFR);
}

int main(void)
{
	RUN(test_frames);
	RUN(test_weights);
	RUN(test_event_selection);
	RUN(test_errors);
	RUN(test_truncated_stacks);
	RUN(test_probe);
	return harness_done();
}
