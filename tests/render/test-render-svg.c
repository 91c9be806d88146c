/* SVG writer checks through libxml2: every SVG we write parses as XML; the frame count,
 * widths, tooltips and heights follow the input (real tree merge, minwidth pruning, image
 * height from the deepest drawn frame); differential colours; hostile names stay text
 * (no element or event attribute injected); every golden SVG in fixtures/render parses.
 * Usage: test-render-svg FIXTURES_DIR */
#include <dirent.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include "harness.h"
#include "util.h"
#include "write/escape.h"

static char *svg_of(flame_tree *t, const flame_render_opts *o, size_t *len)
{
	char path[] = "/tmp/flame-svg-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	flame_output *out = NULL;
	flame_err err;
	if (flame_output_open(&out, path, &err) || flame_write_svg(t, o, out, &err) ||
	    flame_output_commit(out, &err)) {
		fprintf(stderr, "write: %s\n", err.msg);
		unlink(path);
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	*len = fread(s, 1, (size_t)n, f);
	s[*len] = '\0';
	fclose(f);
	unlink(path);
	return s;
}

typedef struct doc {
	xmlDocPtr d;
	xmlXPathContextPtr x;
} doc;

static int doc_open(doc *D, const char *svg, size_t len)
{
	D->d = xmlReadMemory(svg, (int)len, "test.svg", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
	if (!D->d)
		return -1;
	D->x = xmlXPathNewContext(D->d);
	xmlXPathRegisterNs(D->x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
	return 0;
}

static void doc_close(doc *D)
{
	xmlXPathFreeContext(D->x);
	xmlFreeDoc(D->d);
}

static double num(doc *D, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, D->x);
	double v = o ? xmlXPathCastToNumber(o) : -1;
	xmlXPathFreeObject(o);
	return v;
}

static char *str(doc *D, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, D->x);
	xmlChar *s = o ? xmlXPathCastToString(o) : NULL;
	xmlXPathFreeObject(o);
	char *r = strdup(s ? (char *)s : "");
	xmlFree(s);
	return r;
}

/* rectangles in the picture: subpaths ('M') over all paths */
static int count_moves(doc *D)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST "//*[@id='pic']/*/@d", D->x);
	int moves = 0;
	for (int i = 0; o && o->nodesetval && i < o->nodesetval->nodeNr; i++) {
		xmlChar *d = xmlNodeGetContent(o->nodesetval->nodeTab[i]);
		for (xmlChar *p = d; p && *p; p++)
			moves += *p == 'M';
		xmlFree(d);
	}
	xmlXPathFreeObject(o);
	return moves;
}

#define FRAME(name) "//s:g[@id='fr']/s:rect[starts-with(s:title, '" name " (')]"

static void check_str_free(char *got, const char *want, int line)
{
	if (strcmp(got, want)) {
		harness_failures++;
		fprintf(stderr, "line %d: got '%s', expected '%s'\n", line, got, want);
	}
	harness_checks++;
	free(got);
}
#define CHECK_XSTR(D, expr, want) check_str_free(str(D, expr), want, __LINE__)

static void test_merge(void)
{
	flame_err err;
	/* x;foo and x;foo-bar are siblings, foo is one frame whatever the order */
	flame_tree *t = parse_str("x;foo;baz 2\nx;foo-bar 3\nx;foo 5\n", FLAME_FORMAT_FOLDED, &err);
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	size_t len;
	char *svg = svg_of(t, &o, &len);
	doc D;
	CHECK(svg && doc_open(&D, svg, len) == 0);
	CHECK(num(&D, "count(//s:g[@id='fr']/s:rect)") == 5);
	CHECK(num(&D, "count(" FRAME("foo") ")") == 1);
	CHECK_XSTR(&D, FRAME("foo") "/s:title", "foo (7 samples, 70.00%)");
	CHECK_XSTR(&D, FRAME("all") "/s:title", "all (10 samples, 100%)");
	CHECK(num(&D, FRAME("foo") "/@width") == 826);
	CHECK(num(&D, FRAME("foo-bar") "/@width") == 354);
	/* self samples first, then children: baz starts after foo's 5 own samples */
	CHECK(num(&D, FRAME("baz") "/@x") == 10 + 1180 * 0.5);
	/* 4 rows: height = 4 * 16 + 3 * 12 + (2 * 12 + 10) */
	CHECK(num(&D, "/s:svg/@height") == 4 * 16 + 36 + 34);
	/* the picture: a path per colour, a rectangle per frame, each frame's colour */
	CHECK(num(&D, "count(//s:g[@id='pic']/s:path)") ==
	      num(&D, "count(//s:g[@id='fr']/s:rect[not(@fill = preceding-sibling::s:rect/@fill)])"));
	CHECK(count_moves(&D) == 5);
	/* the script's copy of the geometry: x,width,y per frame in document order */
	CHECK_XSTR(&D, "//s:g[@id='fr']/@data-geom", "10,1180,85 10,1180,69 10,826,53 600,236,37 836,354,53");
	CHECK(num(&D, "count(//s:g[@id='pic']/s:path[contains(@d, 'M10 53h826v15h-826z')][@fill = " FRAME("foo") "/@fill])") == 1);
	/* labels: one per frame wide enough */
	CHECK(num(&D, "count(//s:g[@id='labels']/s:text)") == 5);
	CHECK(num(&D, "count(//s:script)") == 1);
	doc_close(&D);
	free(svg);

	/* minwidth 25%: baz (20%) is pruned, and the image loses its row */
	o.min_width = 25;
	o.flags |= FLAME_RENDER_MINWIDTH_PERCENT;
	svg = svg_of(t, &o, &len);
	CHECK(svg && doc_open(&D, svg, len) == 0);
	CHECK(num(&D, "count(//s:g[@id='fr']/s:rect)") == 4);
	CHECK(num(&D, "count(" FRAME("baz") ")") == 0);
	CHECK(num(&D, "/s:svg/@height") == 3 * 16 + 36 + 34);
	doc_close(&D);
	free(svg);

	/* minwidth in px: 300 px keeps frames >= 300/1180 of the total */
	o.min_width = 300;
	o.flags = FLAME_RENDER_INVERTED;
	svg = svg_of(t, &o, &len);
	CHECK(svg && doc_open(&D, svg, len) == 0);
	CHECK(num(&D, "count(//s:g[@id='fr']/s:rect)") == 4);
	CHECK_XSTR(&D, "//s:text[@id='title']", "Icicle Graph");
	CHECK(num(&D, FRAME("all") "/@y") == 36); /* root at the top */
	doc_close(&D);
	free(svg);
	flame_tree_free(t);
}

static void test_differential(void)
{
	flame_err err;
	flame_tree *t = parse_str("m;hot 10 30\nm;cold 30 10\nm;same 5 5\n", FLAME_FORMAT_FOLDED, &err);
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	size_t len;
	char *svg = svg_of(t, &o, &len);
	doc D;
	CHECK(svg && doc_open(&D, svg, len) == 0);
	/* widths from the second (after) column */
	CHECK(num(&D, FRAME("hot") "/@width") == 786.7); /* 1180 * 30 / 45 */
	CHECK_XSTR(&D, FRAME("hot") "/@fill", "#ff0000");
	CHECK_XSTR(&D, FRAME("cold") "/@fill", "#0000ff");
	CHECK_XSTR(&D, FRAME("same") "/@fill", "#ffffff");
	CHECK_XSTR(&D, FRAME("hot") "/s:title", "hot (30 samples, 66.67%; +44.44%; before 10, after 30)");
	doc_close(&D);
	free(svg);
	o.flags = FLAME_RENDER_NEGATE;
	svg = svg_of(t, &o, &len);
	CHECK(svg && doc_open(&D, svg, len) == 0);
	CHECK_XSTR(&D, FRAME("hot") "/@fill", "#0000ff");
	doc_close(&D);
	free(svg);
	/* small deltas drawn as no change; per-request figures */
	o.flags = 0;
	o.diff_min_delta = 25;
	o.diff_per = 10;
	svg = svg_of(t, &o, &len);
	CHECK(svg && doc_open(&D, svg, len) == 0);
	CHECK_XSTR(&D, FRAME("hot") "/@fill", "#ffffff");
	CHECK_XSTR(&D, FRAME("hot") "/s:title",
	           "hot (30 samples, 66.67%; +44.44%; before 10, after 30; per request before 1.00, after 3.00)");
	doc_close(&D);
	free(svg);
	o.diff_min_delta = 0;
	o.diff_per = 0;
	/* total mode: m's inclusive delta is 0 */
	o.flags = 0;
	o.diff_mode = FLAME_DIFF_TOTAL;
	svg = svg_of(t, &o, &len);
	CHECK(svg && doc_open(&D, svg, len) == 0);
	CHECK_XSTR(&D, FRAME("m") "/@fill", "#ffffff");
	CHECK_XSTR(&D, FRAME("hot") "/@fill", "#ff0000");
	doc_close(&D);
	free(svg);
	flame_tree_free(t);
}

static void test_hostile(void)
{
	flame_err err;
	flame_tree *t = parse_str("x;</title><script>alert(1)</script> 1\nx;]]> 1\n"
	                          "x;\"><svg onload=alert(1)> 1\nx;a\001b\xff 1\n",
	                          FLAME_FORMAT_FOLDED, &err);
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	o.title = "</text><script>alert(2)</script>";
	o.subtitle = "<![CDATA[ x ]]>";
	o.notes = "--><x onload='1'/>";
	o.count_name = "\"onclick=\"alert(3)";
	o.name_type = "<b>";
	o.font_type = "\" onload=\"alert(4)";
	o.search_color = "\"/><script>alert(5)</script>";
	size_t len;
	char *svg = svg_of(t, &o, &len);
	doc D;
	CHECK(svg && doc_open(&D, svg, len) == 0);
	CHECK(num(&D, "count(//s:script)") == 1);
	CHECK(num(&D, "count(//*[local-name()='script' or local-name()='x' or local-name()='b'])") == 1);
	CHECK(num(&D, "count(//@*[starts-with(name(), 'on')])") == 1); /* the static onload */
	CHECK(num(&D, "count(//s:g[@id='fr']/s:rect)") == 6);
	CHECK_XSTR(&D, "//s:text[@id='title']", "</text><script>alert(2)</script>");
	CHECK_XSTR(&D, "//s:text[@id='subtitle']", "<![CDATA[ x ]]>");
	CHECK_XSTR(&D, "//s:desc[@id='notes']", "--><x onload='1'/>");
	CHECK_XSTR(&D, "/s:svg/@font-family", "\" onload=\"alert(4), sans-serif");
	CHECK_XSTR(&D, FRAME("</title><script>alert(1)</script>") "/s:title",
	           "</title><script>alert(1)</script> (1 \"onclick=\"alert(3), 25.00%)");
	CHECK_XSTR(&D, FRAME("a\xef\xbf\xbd" "b\xef\xbf\xbd") "/@height", "15");
	doc_close(&D);
	free(svg);
	flame_tree_free(t);
}

static void test_empty(void)
{
	flame_tree *t = test_tree_new();
	size_t len;
	char *svg = svg_of(t, NULL, &len);
	doc D;
	CHECK(svg && doc_open(&D, svg, len) == 0);
	CHECK_XSTR(&D, "//s:text", "ERROR: No valid input provided");
	doc_close(&D);
	free(svg);
	flame_tree_free(t);
}

/* Random bytes through the escaping gate always give well-formed XML, as text and as an
 * attribute value (libxml2 is the judge), and the text reads back as what went in when
 * the input was clean UTF-8. */
static void test_escape_random(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	static const char alphabet[] = "<>&\"'; ]]>\t\n\r\x01\x7f\xc3\xa9\xe2\x82\xac\xed\xa0\x80\xf0\x9f\x94\xa5\xff\xfe\xc0\xaf" "abc";
	int bad = 0; /* documents libxml2 refused */
	for (int round = 0; round < 5000; round++) {
		char in[64], esc[FLAME__ESCAPE_MAX(64)], xml[2 * FLAME__ESCAPE_MAX(64) + 32];
		size_t n = 0;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t len = x % sizeof in;
		for (; n < len; n++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			in[n] = (x >> 8) % 4 ? alphabet[x % (sizeof alphabet - 1)] : (char)(x >> 16);
		}
		size_t k = flame__xml_escape(esc, in, n);
		int m = snprintf(xml, sizeof xml, "<a b=\"%.*s\">%.*s</a>", (int)k, esc, (int)k, esc);
		xmlDocPtr d = xmlReadMemory(xml, m, "r.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
		if (!d) {
			bad++;
			continue;
		}
		xmlFreeDoc(d);
	}
	CHECK(bad == 0);
}

static void test_goldens(const char *fixtures)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/render/results", fixtures);
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t k = strlen(e->d_name);
		if (k < 5 || strcmp(e->d_name + k - 4, ".svg"))
			continue;
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		xmlDocPtr xdoc = xmlReadFile(path, NULL, XML_PARSE_NONET);
		if (!xdoc)
			fprintf(stderr, "%s: not well-formed XML\n", path);
		CHECK(xdoc != NULL);
		xmlFreeDoc(xdoc);
		n++;
	}
	if (d)
		closedir(d);
	CHECK(n >= 10);
}

int main(int argc, char **argv)
{
	RUN(test_merge);
	RUN(test_differential);
	RUN(test_hostile);
	RUN(test_empty);
	RUN(test_escape_random);
	if (argc > 1)
		test_goldens(argv[1]);
	xmlCleanupParser();
	return harness_done();
}
