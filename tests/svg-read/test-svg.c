/* Unit tests of the flame graph SVG reader: our own SVGs read back exactly (names with
 * markup characters, fractional and differential counts), flamegraph.pl's frame order and
 * geometry, titles replaced by --nameattr, pruned frames, hostile XML (entities are never
 * expanded or loaded), errors with lines, and detection. */
#include "harness.h"
#include "util.h"

static flame_tree *tree_of(const char *text, flame_format fmt, flame_err *err)
{
	flame_tree *t = test_tree_new();
	flame_input *in = NULL;
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = fmt;
	if (flame_input_open_mem(&in, text, strlen(text), "t.svg", err) || flame_parse(t, in, &o, err)) {
		flame_tree_free(t);
		t = NULL;
	}
	flame_input_free(in);
	return t;
}

/* Render `t` as SVG (min_width as given) into a malloc'd string. */
static char *svg_of(flame_tree *t, double min_width)
{
	char path[] = "/tmp/flame-test-svg-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	close(fd);
	flame_render_opts ro = FLAME_RENDER_OPTS_INIT;
	ro.min_width = min_width;
	flame_output *o = NULL;
	flame_err err;
	if (flame_output_open(&o, path, &err) || flame_write_svg(t, &ro, o, &err) ||
	    flame_output_commit(o, &err)) {
		unlink(path);
		return NULL;
	}
	return slurp_unlink(path);
}

/* folded -> tree -> SVG -> tree -> folded must give the folded text back. */
static void check_round_trip(const char *folded)
{
	flame_err err = {0};
	flame_tree *a = tree_of(folded, FLAME_FORMAT_FOLDED, &err);
	CHECK(a != NULL);
	if (!a)
		return;
	char *want = folded_str(a);
	char *svg = svg_of(a, 0);
	CHECK(svg != NULL);
	CHECK(svg && flame_detect(svg, strlen(svg)) == FLAME_FORMAT_SVG);
	flame_tree *b = svg ? tree_of(svg, FLAME_FORMAT_AUTO, &err) : NULL;
	if (!b)
		fprintf(stderr, "error: %s\n", err.msg);
	CHECK(b != NULL);
	if (b) {
		char *got = folded_str(b);
		CHECK_STR(got, want);
		CHECK(flame_tree_is_differential(b) == flame_tree_is_differential(a));
		free(got);
		flame_tree_free(b);
	}
	free(svg);
	free(want);
	flame_tree_free(a);
}

static void test_round_trip(void)
{
	check_round_trip("main;parse (inline);std::vector<int>::push_back(int const&) 1234567\n"
	                 "main;parse (inline) 3\n"
	                 "main;a&b;\"q\" 't' 1\n"
	                 "main;\xc3\xbcnic\xc3\xb6" "de;x 2\n"
	                 "other 5\n");
	check_round_trip("a;b 1.5\na;c 0.25\na 2\n");            /* fractional counts */
	/* names the title cannot carry (data-raw): annotations, bad UTF-8, controls, '%' */
	check_round_trip("a_[k];b_[j] 2\nx;bad\xff\xc3 1\nx;c\x01t\x7fl%41 3\nx;%;_[i] 1\n");
	check_round_trip("a;b 5 9\na;c 3 0\na 0 4\nd;e 7 7\n"); /* differential */
	/* deep and narrow: the reader takes parents from the document order, not geometry */
	char deep[8192] = "";
	for (int i = 0; i < 200; i++)
		strcat(deep, i ? ";f" : "f");
	strcat(deep, " 1\nbig 100000000\n");
	check_round_trip(deep);
}

static void test_pruned_keeps_totals(void)
{
	flame_err err = {0};
	flame_tree *a = tree_of("a;b 100000000\na;tiny;tinier 1\nc 7000000\nhid;den 2\n",
	                        FLAME_FORMAT_FOLDED, &err);
	char *svg = svg_of(a, 0.1); /* `tiny` and `hid` are narrower than 0.1 px: not drawn */
	CHECK(svg && strstr(svg, " data-pruned=\"2 hid\"") != NULL);
	flame_tree *b = svg ? tree_of(svg, FLAME_FORMAT_SVG, &err) : NULL;
	CHECK(b != NULL);
	if (b) {
		char *got = folded_str(b);
		/* tiny's weight is a's self; the hidden top-level frame keeps its name */
		CHECK_STR(got, "a 1\na;b 100000000\nc 7000000\nhid 2\n");
		CHECK_EQ_U64(flame_tree_total(b, 0), flame_tree_total(a, 0));
		free(got);
		flame_tree_free(b);
	}
	free(svg);
	flame_tree_free(a);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	size_t got = fread(s, 1, (size_t)n, f);
	s[got] = '\0';
	fclose(f);
	return s;
}

static void check_svg(const char *svg, const char *want)
{
	flame_err err = {0};
	flame_tree *t = tree_of(svg, FLAME_FORMAT_SVG, &err);
	if (!t)
		fprintf(stderr, "error: %s\n", err.msg);
	CHECK(t != NULL);
	if (t) {
		char *got = folded_str(t);
		CHECK_STR(got, want);
		free(got);
		flame_tree_free(t);
	}
}

static void test_flamegraph_pl(const char *fixtures)
{
	/* flamegraph.pl writes frames in hash order: parents come from geometry */
	char path[4096];
	snprintf(path, sizeof path, "%s/svg/flamegraph-pl-style.svg", fixtures);
	char *svg = read_file(path);
	CHECK(svg != NULL);
	if (svg)
		check_svg(svg, "main;parse&check 500\nmain;parse&check;read 1500\n"
		               "main;std::vector<int>::push_back 1000\nworker (thread 2) 1000\n");
	free(svg);
}

/* The root is the full-width frame on the root row (bottom, or top
 * when inverted), "all" by name when present, whatever the element order; and the oldest
 * flamegraph.pl SVGs, with onmouseover="s('INFO')" and no <title>, read too. */
static void test_root_row_and_old_titles(const char *fixtures)
{
	static const char *const files[] = {"flamegraph-pl-hash-order", "flamegraph-pl-inverted",
	                                    "flamegraph-pl-old-onmouseover"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/svg/%s.svg", fixtures, files[i]);
		char *svg = read_file(path);
		CHECK(svg != NULL);
		if (svg)
			check_svg(svg, "java;gc 50\njava;start_thread;run;idle 100\n"
			               "java;start_thread;run;work 300\n");
		free(svg);
	}
	/* no "all": the row decides; a full-width top-level frame first, bottom root */
	check_svg("<svg><g><title>java (8 samples, 100%)</title><rect x='0' y='34' width='80' height='15'/></g>"
	          "<g><title>a (6 samples, 75%)</title><rect x='0' y='18' width='60' height='15'/></g>"
	          "<g><title>root (8 samples, 100%)</title><rect x='0' y='50' width='80' height='15'/></g></svg>",
	          "java 2\njava;a 6\n");
	/* the same inverted: the root on the top row */
	check_svg("<svg><g><title>java (8 samples, 100%)</title><rect x='0' y='34' width='80' height='15'/></g>"
	          "<g><title>a (6 samples, 75%)</title><rect x='0' y='50' width='60' height='15'/></g>"
	          "<g><title>root (8 samples, 100%)</title><rect x='0' y='18' width='80' height='15'/></g></svg>",
	          "java 2\njava;a 6\n");
	/* onmouseover on the g (a later old form), escaped text, a quote left as it was */
	check_svg("<svg><g onmouseover=\"s('all (3 samples, 100%)')\"><rect x='0' y='20' width='9' height='15'/></g>"
	          "<g onmouseover=\"s('a&amp;b's (3 samples, 100.00%)')\"><rect x='0' y='4' width='9' height='15'/></g>"
	          "</svg>",
	          "a&b's 3\n");
}

/* flamegraph.pl and inferno do not draw a top-level frame narrower than --minwidth and say
 * nothing of it: its weight is only in the root's count. It comes back as the root's own
 * self, a one-frame stack named as the root, so the total is the root's: a 2013 SVG of
 * 348,427 samples once read back 13 short (two hidden top-level frames). */
static void test_hidden_top_level(const char *fixtures)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/svg/flamegraph-pl-old-pruned-top.svg", fixtures);
	char *svg = read_file(path);
	CHECK(svg != NULL);
	flame_err err = {0};
	flame_tree *t = svg ? tree_of(svg, FLAME_FORMAT_SVG, &err) : NULL;
	CHECK(t != NULL);
	if (t) {
		char *got = folded_str(t);
		CHECK_STR(got, "all 13\njava;gc 8414\njava;start_thread;run;idle 40000\n"
		               "java;start_thread;run;work 300000\n");
		CHECK_EQ_U64(flame_tree_total(t, 0), 348427);
		free(got);
		flame_tree_free(t);
	}
	free(svg);
	/* the <g><title> form, and a differential one: both columns */
	check_svg("<svg><g><title>all (10 samples, 100%)</title><rect x='0' y='20' width='100' height='15'/></g>"
	          "<g><title>a (7 samples, 70%)</title><rect x='0' y='4' width='70' height='15'/></g></svg>",
	          "a 7\nall 3\n");
	check_svg("<svg><g><title>all (10 samples, 100%; before 8, after 10)</title>"
	          "<rect x='0' y='20' width='100' height='15'/></g>"
	          "<g><title>a (7 samples, 70%; before 5, after 7)</title>"
	          "<rect x='0' y='4' width='70' height='15'/></g></svg>",
	          "a 5 7\nall 3 3\n");
	/* a graph of the root alone is its stack */
	check_svg("<svg><g><title>main (4 samples, 100%)</title><rect x='0' y='4' width='70' height='15'/></g></svg>",
	          "main 4\n");
}

static void test_nameattr_and_hostile(void)
{
	/* a --nameattr title: the name from data-name, the count from the width (the root's
	 * other 6 are under no drawn frame: its own self) */
	check_svg("<svg xmlns='http://www.w3.org/2000/svg'>"
	          "<g><title>all (10 samples, 100%)</title><rect x='10' y='50' width='100' height='15'/></g>"
	          "<g data-name='f'><title>see the docs</title><rect x='10' y='34' width='40' height='15'/></g>"
	          "</svg>",
	          "all 6\nf 4\n");
	/* breadth-first order: depths alone would hang b under c; the geometry says a */
	check_svg("<svg><g><title>all (8 samples, 100%)</title><rect x='0' y='50' width='80' height='15'/></g>"
	          "<g><title>a (4 samples, 50%)</title><rect x='0' y='34' width='40' height='15'/></g>"
	          "<g><title>c (4 samples, 50%)</title><rect x='40' y='34' width='40' height='15'/></g>"
	          "<g><title>b (2 samples, 25%)</title><rect x='0' y='18' width='20' height='15'/></g></svg>",
	          "a 2\na;b 2\nc 4\n");
	/* internal entities expand, within limits; external entities are never loaded, and
	 * one in a title is an error rather than a name with a piece silently missing */
	static const char ents[] =
		"<?xml version='1.0'?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM 'file:///etc/passwd'>"
		"<!ENTITY a 'aaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;'>]>\n"
		"<svg><g><title>all (3 samples, 100%%)</title><rect x='0' y='20' width='9' height='15'/></g>\n"
		"<g><title>p%sq&b; (3 samples, 100.00%%)</title><rect x='0' y='4' width='9' height='15'/></g>"
		"</svg>";
	char doc[1024];
	snprintf(doc, sizeof doc, ents, "");
	check_svg(doc, "pqaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 3\n");
	snprintf(doc, sizeof doc, ents, "&x;");
	flame_err xerr = {0};
	CHECK(tree_of(doc, FLAME_FORMAT_SVG, &xerr) == NULL);
	CHECK(xerr.code == FLAME_EDATA && xerr.line == 4);
	CHECK_STR(xerr.msg, "entity &x; in a frame's title is external (never loaded)");
	flame_err lerr = {0};
	char lol[4096] = "<?xml version='1.0'?>\n<!DOCTYPE svg [<!ENTITY l0 'lol'>";
	for (int i = 1; i < 10; i++) {
		char e[256];
		snprintf(e, sizeof e, "<!ENTITY l%d '&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;'>", i,
		         i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
		strcat(lol, e);
	}
	strcat(lol, "]>\n<svg><g><title>&l9; (3 samples, 100%)</title>"
	            "<rect x='0' y='4' width='9' height='15'/></g></svg>");
	CHECK(tree_of(lol, FLAME_FORMAT_SVG, &lerr) == NULL); /* a billion laughs: refused */
	CHECK(lerr.code == FLAME_EDATA);
	flame_err err = {0};
	CHECK(tree_of("<svg>\n<g><title>all (1 samples, 100%)</title><rect x='1'\n</svg>\n",
	              FLAME_FORMAT_SVG, &err) == NULL);
	CHECK(err.code == FLAME_EDATA && err.line == 3);
	CHECK(strncmp(err.msg, "not well-formed XML: ", 21) == 0);
	CHECK(tree_of("<svg><rect/></svg>", FLAME_FORMAT_SVG, &err) == NULL);
	CHECK_STR(err.msg, "no flame graph frames (<g><title>NAME (COUNT ...)</title><rect/></g>)");
	CHECK(flame_detect("main;a 1\n", 9) != FLAME_FORMAT_SVG);
	CHECK(flame_detect("\xef\xbb\xbf <?xml version='1.0'?><svg>", 29) == FLAME_FORMAT_SVG);
}

/* The fast path reads flame-render's frame lines inside <g id="fr">; libxml2 reads every
 * other group. An empty attribute value or title as the first text the fast path reads
 * (its buffers not grown yet) once wrote past a NULL buffer: both readers must give the
 * same result, here and wherever the empty text comes. */
static void check_same_as_libxml2(const char *fmt)
{
	char fast[1024], slow[1024];
	snprintf(fast, sizeof fast, fmt, "fr");
	snprintf(slow, sizeof slow, fmt, "fx");
	flame_err ef = {0}, es = {0};
	flame_tree *a = tree_of(fast, FLAME_FORMAT_SVG, &ef), *b = tree_of(slow, FLAME_FORMAT_SVG, &es);
	CHECK((a != NULL) == (b != NULL));
	if (a && b) {
		char *ga = folded_str(a), *gb = folded_str(b);
		CHECK_STR(ga, gb);
		free(ga);
		free(gb);
	} else if (!a && !b) {
		CHECK_STR(ef.msg, es.msg);
	}
	flame_tree_free(a);
	flame_tree_free(b);
}

static void test_fast_path_empty_text(void)
{
	static const char *const docs[] = {
		/* an empty x first, then the frames */
		"<svg xmlns='http://www.w3.org/2000/svg'>\n<g id=\"%s\">\n"
		"<rect x=\"\" y=\"20\" width=\"100\" height=\"15\"><title>x (1 samples, 100%%)</title></rect>\n"
		"<rect x=\"10\" y=\"20\" width=\"100\" height=\"15\"><title>all (4 samples, 100%%)</title></rect>\n"
		"<rect x=\"10\" y=\"4\" width=\"100\" height=\"15\"><title>a (4 samples, 100.00%%)</title></rect>\n"
		"</g>\n</svg>\n",
		/* an empty title first: a frame named "" counted from its width */
		"<svg xmlns='http://www.w3.org/2000/svg'>\n<g id=\"%s\">\n"
		"<rect x=\"10\" y=\"20\" width=\"100\" height=\"15\"><title>all (4 samples, 100%%)</title></rect>\n"
		"<rect x=\"10\" y=\"4\" width=\"50\" height=\"15\"><title></title></rect>\n"
		"</g>\n</svg>\n",
		"<svg xmlns='http://www.w3.org/2000/svg'>\n<g id=\"%s\">\n"
		"<rect x=\"10\" y=\"4\" width=\"50\" height=\"15\"><title></title></rect>\n"
		"<rect x=\"10\" y=\"20\" width=\"100\" height=\"15\"><title>all (4 samples, 100%%)</title></rect>\n"
		"</g>\n</svg>\n"};
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
		check_same_as_libxml2(docs[i]);
	char doc[1024];
	snprintf(doc, sizeof doc, docs[0], "fr");
	check_svg(doc, "a 4\n");
}

int main(int argc, char **argv)
{
	RUN(test_round_trip);
	RUN(test_pruned_keeps_totals);
	if (argc > 1) {
		test_flamegraph_pl(argv[1]);
		test_root_row_and_old_titles(argv[1]);
		test_hidden_top_level(argv[1]);
	}
	RUN(test_nameattr_and_hostile);
	RUN(test_fast_path_empty_text);
	return harness_done();
}
