/* The removed-frames panel of differential graphs (write/removed.c): on the diff fixtures' pair
 * (fixtures/diff/before.folded, after.folded: old_path;legacy and a hex frame exist only
 * in BEFORE), the SVG holds a panel whose rects carry the removed frames' titles (checked
 * with libxml2), the PNG paints them (pixels), the SVG reader skips the panel, and
 * FLAME_RENDER_NO_REMOVED leaves it out. Usage: test-removed FIXTURES_DIR */
#include <cairo.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include "harness.h"
#include "util.h"

static flame_tree *read_file_tree(const char *path)
{
	flame_err err;
	flame_input *in = NULL;
	flame_tree *t = test_tree_new();
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	if (flame_input_open(&in, path, &err) || flame_parse(t, in, &o, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		flame_tree_free(t);
		t = NULL;
	}
	flame_input_free(in);
	return t;
}

static char *write_to(int png, flame_tree *t, const flame_render_opts *o, const char *path)
{
	flame_err err;
	flame_output *out = NULL;
	if (flame_output_open(&out, path, &err) ||
	    (png ? flame_write_png(t, o, out, &err) : flame_write_svg(t, o, out, &err)) ||
	    flame_output_commit(out, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return NULL;
	}
	return png ? strdup(path) : slurp_unlink(path);
}

static double xnum(xmlXPathContextPtr x, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, x);
	double v = o ? xmlXPathCastToNumber(o) : -1;
	xmlXPathFreeObject(o);
	return v;
}

static char *xstr(xmlXPathContextPtr x, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, x);
	xmlChar *s = o ? xmlXPathCastToString(o) : NULL;
	xmlXPathFreeObject(o);
	char *r = strdup(s ? (const char *)s : "");
	xmlFree(s);
	return r;
}

#define LEGACY "//s:g[@data-panel='removed']/s:rect[s:title='legacy (12 samples, 12.12%; before 12, after 0)']"

static void test_pair(const char *fixtures)
{
	char b[4096], a[4096];
	snprintf(b, sizeof b, "%s/diff/before.folded", fixtures);
	snprintf(a, sizeof a, "%s/diff/after.folded", fixtures);
	flame_tree *t = read_file_tree(b), *after = read_file_tree(a);
	CHECK(t && after);
	if (!t || !after)
		return;
	flame_err err;
	flame_diff_opts dopts = FLAME_DIFF_OPTS_INIT;
	CHECK(flame_diff(t, after, &dopts, &err) == 0);
	flame_tree_free(after);
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	char tmp[] = "/tmp/flame-removed-XXXXXX";
	CHECK(mkdtemp(tmp) != NULL);
	char svgp[600], pngp[600];
	snprintf(svgp, sizeof svgp, "%s/d.svg", tmp);
	snprintf(pngp, sizeof pngp, "%s/d.png", tmp);

	/* SVG: the panel, its header, legacy and its removed caller old_path, their context */
	char *svg = write_to(0, t, &o, svgp);
	CHECK(svg != NULL);
	xmlDocPtr d = svg ? xmlReadMemory(svg, (int)strlen(svg), "d.svg", NULL, XML_PARSE_NONET) : NULL;
	CHECK(d != NULL);
	double lx = 0, ly = 0, lw = 0, lh = 0;
	if (d) {
		xmlXPathContextPtr x = xmlXPathNewContext(d);
		xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
		CHECK(xnum(x, "count(" LEGACY ")") == 1);
		lx = xnum(x, LEGACY "/@x");
		ly = xnum(x, LEGACY "/@y");
		lw = xnum(x, LEGACY "/@width");
		lh = xnum(x, LEGACY "/@height");
		/* at the scale of BEFORE: 12 samples of BEFORE's total, of the 1180 px */
		double want = 1180.0 * 12 * 1e0 / (double)flame_tree_total(t, 0);
		CHECK(lw > want - 1 && lw < want + 1);
		char *fill = xstr(x, LEGACY "/@fill");
		CHECK(strlen(fill) == 7); /* blue-ish: the blue byte above the red one */
		CHECK(strtol(fill + 5, NULL, 16) > strtol((char[3]){fill[1], fill[2], 0}, NULL, 16) + 60);
		free(fill);
		CHECK(xnum(x, "count(//s:g[@data-panel]/s:rect[starts-with(s:title, 'old_path (12 ')])") == 1);
		CHECK(xnum(x, "count(//s:g[@data-panel]/s:rect[starts-with(s:title, '0x7f3a12 (3 ')])") == 1);
		CHECK(xnum(x, "count(//s:g[@data-panel]/s:rect[@class='context'][starts-with(s:title, 'main (15 samples, 15.15%; calls removed frames)')])") == 1);
		char *hdr = xstr(x, "//s:g[@data-panel]/s:text[1]");
		CHECK_STR(hdr, "Only in BEFORE (removed): 15 samples, 15.15% of before");
		free(hdr);
		/* below the graph, inside the image */
		CHECK(ly > xnum(x, "//*[@id='details']/@y"));
		CHECK(ly + lh <= xnum(x, "/s:svg/@height"));
		/* the graph itself is unchanged: no legacy frame with width */
		CHECK(xnum(x, "count(//*[@id='fr']/s:rect[starts-with(s:title, 'legacy') and @width > 0])") == 0);
		xmlXPathFreeContext(x);
		xmlFreeDoc(d);
	}
	free(svg);
	/* the SVG reads back to the diff tree: the panel is not part of the graph (at
	 * --minwidth 0, where the graph keeps its zero-wide removed frames) */
	o.min_width = 0;
	svg = write_to(0, t, &o, svgp);
	CHECK(svg && strstr(svg, "data-panel"));
	flame_tree *back = svg ? parse_str(svg, FLAME_FORMAT_SVG, &err) : NULL;
	CHECK(back != NULL);
	if (back) {
		char *want = folded_str(t), *got = folded_str(back);
		CHECK_STR(got, want);
		free(want);
		free(got);
		flame_tree_free(back);
	}
	free(svg);
	o.min_width = 0.1;

	/* PNG: legacy's rect is painted in its fill, with the SVG's pixel size */
	char *png = write_to(1, t, &o, pngp);
	CHECK(png != NULL);
	cairo_surface_t *s = cairo_image_surface_create_from_png(pngp);
	CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
	if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS && lw > 0) {
		cairo_surface_flush(s);
		const unsigned char *px = cairo_image_surface_get_data(s);
		int stride = cairo_image_surface_get_stride(s);
		int blue = 0, n = 0;
		/* the right half of legacy's rect (its label is at the left) */
		for (int y = (int)ly + 2; y < (int)(ly + lh) - 2; y++)
			for (int xx = (int)(lx + lw / 2); xx < (int)(lx + lw) - 2; xx += 5) {
				uint32_t p = *(const uint32_t *)(px + (size_t)y * (size_t)stride + 4 * (size_t)xx);
				int r = (p >> 16) & 255, bb = p & 255;
				blue += bb > r + 60;
				n++;
			}
		CHECK(n > 100 && blue == n);
	}
	cairo_surface_destroy(s);
	free(png);

	/* FLAME_RENDER_NO_REMOVED: no panel, a shorter image */
	o.flags |= FLAME_RENDER_NO_REMOVED;
	svg = write_to(0, t, &o, svgp);
	CHECK(svg && !strstr(svg, "data-panel") && !strstr(svg, "Only in BEFORE"));
	free(svg);
	rmdir(tmp);
	flame_tree_free(t);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test-removed FIXTURES_DIR\n");
		return 2;
	}
	test_pair(argv[1]);
	return harness_done();
}
