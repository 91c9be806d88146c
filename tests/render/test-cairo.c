/* Tests for the cairo writers (write/cairo.c): the PNG has the SVG's pixel size and its
 * pixels carry the layout's frame fills and background; the PDF is one that pdftoppm
 * renders at the same size; differential colours; hostile names; size limits.
 * Usage: test-cairo png | pdf  (pdf exits 77 when pdftoppm is missing). */
#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <sys/wait.h>
#include "harness.h"
#include "util.h"
#include "write/layout.h"

/* ---- helpers */

static char tmpdir[] = "/tmp/flame-cairo-XXXXXX";

/* A path in the temp dir; one stable buffer per distinct name, so paths stay valid. */
static const char *tmp_path(const char *name)
{
	static char buf[32][512];
	static int used;
	char want[512];
	snprintf(want, sizeof want, "%s/%s", tmpdir, name);
	for (int i = 0; i < used; i++)
		if (strcmp(buf[i], want) == 0)
			return buf[i];
	if (used == 32)
		abort();
	memcpy(buf[used], want, sizeof want);
	return buf[used++];
}

typedef int (*writer_fn)(flame_tree *, const flame_render_opts *, flame_output *, flame_err *);

/* Render t with w into path through the public output API; the writer's status. */
static int render_to(writer_fn w, flame_tree *t, const flame_render_opts *o, const char *path,
                     flame_err *err)
{
	flame_output *out = NULL;
	int rc = flame_output_open(&out, path, err);
	if (rc)
		return rc;
	rc = w(t, o, out, err);
	if (rc) {
		flame_output_abort(out);
		return rc;
	}
	return flame_output_commit(out, err);
}

static char *slurp(const char *path, size_t *len)
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
	if (len)
		*len = got;
	return s;
}

/* width="W" height="H" of the <svg> element of the SVG writer's output for t */
static int svg_size(flame_tree *t, const flame_render_opts *o, double *w, double *h)
{
	flame_err err;
	const char *path = tmp_path("size.svg");
	if (render_to(flame_write_svg, t, o, path, &err))
		return -1;
	char *s = slurp(path, NULL);
	char *svg = s ? strstr(s, "<svg") : NULL;
	char *pw = svg ? strstr(svg, " width=\"") : NULL;
	char *ph = svg ? strstr(svg, " height=\"") : NULL;
	int rc = pw && ph ? 0 : -1;
	if (!rc) {
		*w = strtod(pw + 8, NULL);
		*h = strtod(ph + 9, NULL);
	}
	free(s);
	return rc;
}

typedef struct image {
	cairo_surface_t *s;
	int w, h, stride;
	const unsigned char *data;
} image;

static int image_load(image *im, const char *path)
{
	im->s = cairo_image_surface_create_from_png(path);
	if (cairo_surface_status(im->s) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "cannot read %s as PNG: %s\n", path,
		        cairo_status_to_string(cairo_surface_status(im->s)));
		cairo_surface_destroy(im->s);
		im->s = NULL;
		return -1;
	}
	cairo_surface_flush(im->s);
	im->w = cairo_image_surface_get_width(im->s);
	im->h = cairo_image_surface_get_height(im->s);
	im->stride = cairo_image_surface_get_stride(im->s);
	im->data = cairo_image_surface_get_data(im->s);
	return 0;
}

static void image_free(image *im)
{
	if (im->s)
		cairo_surface_destroy(im->s);
	im->s = NULL;
}

static flame__rgb pixel(const image *im, int x, int y)
{
	uint32_t v;
	memcpy(&v, im->data + (size_t)y * im->stride + (size_t)x * 4, 4);
	flame__rgb c = {(uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
	return c;
}

static int near(flame__rgb a, flame__rgb b, int tol)
{
	return abs(a.r - b.r) <= tol && abs(a.g - b.g) <= tol && abs(a.b - b.b) <= tol;
}

static int report_pixel(const char *what, int x, int y, flame__rgb got, flame__rgb want)
{
	fprintf(stderr, "%s at (%d,%d): rgb(%d,%d,%d), expected rgb(%d,%d,%d)\n", what, x, y, got.r,
	        got.g, got.b, want.r, want.g, want.b);
	return 0;
}

/* The background gradient at pixel row y (cairo samples pixel centres). */
static flame__rgb bg_at(const flame__layout *L, int y)
{
	double t = ((y + 0.5) / L->height - 0.05) / 0.9;
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	flame__rgb c = {(uint8_t)lround(L->bg_top.r + t * (L->bg_bottom.r - L->bg_top.r)),
	                (uint8_t)lround(L->bg_top.g + t * (L->bg_bottom.g - L->bg_top.g)),
	                (uint8_t)lround(L->bg_top.b + t * (L->bg_bottom.b - L->bg_top.b))};
	return c;
}

/* Frame i's rectangle centre holds its fill (tolerance for a renderer's rounding). */
static int centre_ok(const image *im, const flame__frame *f, int tol)
{
	int x = (int)floor(f->x + f->w / 2), y = (int)floor(f->y + f->h / 2);
	flame__rgb got = pixel(im, x, y);
	return near(got, f->fill, tol) || report_pixel("frame centre", x, y, got, f->fill);
}

/* A pixel left of the label (labels start 3 px in) in the frame's middle row is
 * exactly the fill for every frame at least 2.5 px wide, labelled or not. */
static int left_strip_ok(const image *im, const flame__frame *f)
{
	int x = (int)floor(f->x) + 1, y = (int)floor(f->y + f->h / 2);
	flame__rgb got = pixel(im, x, y);
	return near(got, f->fill, 0) || report_pixel("frame left strip", x, y, got, f->fill);
}

static int dark_pixels(const image *im, int x0, int y0, int x1, int y1)
{
	int n = 0;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++) {
			flame__rgb c = pixel(im, x, y);
			n += c.r < 100 && c.g < 100 && c.b < 100;
		}
	return n;
}

/* Every frame <rect> of the SVG file (x, y, width, height, fill="#rrggbb"), read from the
 * SVG's text rather than the layout: its pixel left of the label in the middle row of the
 * PNG has exactly its fill. Returns the number of rects checked; *bad gets mismatches. */
static size_t svg_rects_match(const char *svg_path, const image *im, size_t *bad)
{
	char *svg = slurp(svg_path, NULL);
	size_t checked = 0;
	*bad = 0;
	char *p = svg ? strstr(svg, "<g id=\"frames\"") : NULL;
	while (p && (p = strstr(p, "<rect x=\"")) != NULL) {
		double x, y, w, h;
		unsigned r, g, b;
		if (sscanf(p, "<rect x=\"%lf\" y=\"%lf\" width=\"%lf\" height=\"%lf\" fill=\"#%2x%2x%2x\"",
		           &x, &y, &w, &h, &r, &g, &b) != 7) {
			(*bad)++;
			fprintf(stderr, "unexpected rect: %.80s\n", p);
			break;
		}
		p++;
		if (w < 2.5 || h < 2)
			continue;
		checked++;
		flame__rgb want = {(uint8_t)r, (uint8_t)g, (uint8_t)b};
		int px = (int)floor(x) + 1, py = (int)floor(y + h / 2);
		flame__rgb got = pixel(im, px, py);
		if (!near(got, want, 0) && (*bad)++ < 5)
			report_pixel("svg rect", px, py, got, want);
	}
	free(svg);
	return checked;
}

/* Frame index by name (first match), or -1. */
static long frame_named(const flame__layout *L, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < L->count; i++)
		if (L->frames[i].name_len == n && memcmp(L->frames[i].name, name, n) == 0)
			return (long)i;
	return -1;
}

/* A deterministic graph of a few hundred stacks over 40 names, up to 12 deep. */
static char *synthetic_folded(void)
{
	size_t cap = 1 << 20, len = 0;
	char *s = malloc(cap);
	uint32_t x = 12345;
	for (int i = 0; i < 600; i++) {
		x = x * 1103515245u + 12345u;
		int depth = 1 + (int)((x >> 16) % 12);
		len += (size_t)snprintf(s + len, cap - len, "main");
		for (int d = 0; d < depth; d++) {
			x = x * 1103515245u + 12345u;
			len += (size_t)snprintf(s + len, cap - len, ";func_%u_%s", (x >> 16) % 40,
			                        d % 3 ? "work" : "dispatch_the_request");
		}
		x = x * 1103515245u + 12345u;
		len += (size_t)snprintf(s + len, cap - len, " %u\n", 1 + (x >> 16) % 50);
	}
	return s;
}

/* ---- PNG */

static const char *small_folded = "main;a 60\n"
                                  "main;a;b 30\n"
                                  "main;c 25\n"
                                  "main;c;d 10\n"
                                  "x 5\n";

static void test_png_small(void)
{
	flame_err err;
	flame_tree *t = parse_str(small_folded, FLAME_FORMAT_FOLDED, &err);
	CHECK(t != NULL);
	if (!t)
		return;
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	o.subtitle = "sub <title>";
	const char *path = tmp_path("small.png");
	CHECK(render_to(flame_write_png, t, &o, path, &err) == 0);

	double sw = 0, sh = 0;
	CHECK(svg_size(t, &o, &sw, &sh) == 0);
	flame__layout L;
	CHECK(flame__layout_compute(&L, t, &o, &err) == 0);
	image im;
	if (image_load(&im, path) == 0) {
		/* the SVG's pixel size, which is the layout's */
		CHECK_EQ_U64(im.w, (uint64_t)sw);
		CHECK_EQ_U64(im.h, (uint64_t)sh);
		CHECK_EQ_U64(im.w, (uint64_t)ceil(L.width));
		CHECK_EQ_U64(im.h, (uint64_t)ceil(L.height));
		CHECK_EQ_U64(L.count, 7); /* all main a b c d x */
		/* every frame: its centre (short names: labels end well before) and left strip */
		for (size_t i = 0; i < L.count; i++) {
			CHECK(centre_ok(&im, &L.frames[i], 0));
			CHECK(left_strip_ok(&im, &L.frames[i]));
		}
		/* distinct names here have distinct fills, so the pixels tell frames apart */
		long a = frame_named(&L, "a"), c = frame_named(&L, "c");
		CHECK(a > 0 && c > 0);
		if (a > 0 && c > 0)
			CHECK(!near(L.frames[a].fill, L.frames[c].fill, 0));
		/* background in the side padding (x < xpad) of every row, and above the frames */
		int bad = 0;
		for (int y = 0; y < im.h; y += 7) {
			flame__rgb got = pixel(&im, 3, y), want = bg_at(&L, y);
			if (!near(got, want, 1) && !bad++)
				report_pixel("background", 3, y, got, want);
		}
		CHECK(bad == 0);
		/* labels are drawn: dark pixels inside "main" (label "main"), none in "b"'s right
		 * half (label "b" is short) */
		const flame__frame *m = &L.frames[frame_named(&L, "main")];
		CHECK(dark_pixels(&im, (int)m->x + 3, (int)m->y, (int)m->x + 40, (int)(m->y + m->h)) > 10);
		long b = frame_named(&L, "b");
		CHECK(b > 0);
		if (b > 0) {
			const flame__frame *f = &L.frames[b];
			CHECK(dark_pixels(&im, (int)(f->x + f->w / 2), (int)f->y + 1, (int)(f->x + f->w) - 1,
			                  (int)(f->y + f->h) - 1) == 0);
		}
		/* title and subtitle drawn around their centre line */
		int tx = (int)L.title_x;
		CHECK(dark_pixels(&im, tx - 60, (int)L.title_y - 14, tx + 60, (int)L.title_y + 4) > 20);
		/* the subtitle is mid-grey (#a0a0a0): grey pixels, none black */
		int grey = 0, black = 0;
		for (int y = (int)L.subtitle_y - 12; y < (int)L.subtitle_y + 3; y++)
			for (int x = tx - 60; x < tx + 60; x++) {
				flame__rgb p = pixel(&im, x, y);
				grey += p.r >= 150 && p.r <= 200;
				black += p.r < 120;
			}
		CHECK(grey > 10);
		CHECK(black == 0);
		image_free(&im);
	} else {
		CHECK(0);
	}
	flame__layout_free(&L);

	/* PNG signature, and the output is complete (IEND at the end) */
	size_t n = 0;
	char *png = slurp(path, &n);
	CHECK(png && n > 20 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
	CHECK(png && n > 20 && memcmp(png + n - 8, "IEND", 4) == 0);
	free(png);
	flame_tree_free(t);
}

/* Every frame of a bigger graph, with options that move things (inverted, other sizes). */
static void check_all_frames(const char *what, const flame_render_opts *o)
{
	flame_err err;
	char *text = synthetic_folded();
	flame_tree *t = parse_str(text, FLAME_FORMAT_FOLDED, &err);
	free(text);
	CHECK(t != NULL);
	if (!t)
		return;
	const char *path = tmp_path("big.png");
	int rc = render_to(flame_write_png, t, o, path, &err);
	if (rc)
		fprintf(stderr, "%s: %s\n", what, err.msg);
	CHECK(rc == 0);
	flame__layout L;
	CHECK(flame__layout_compute(&L, t, o, &err) == 0);
	double sw = 0, sh = 0;
	CHECK(svg_size(t, o, &sw, &sh) == 0);
	image im;
	if (rc == 0 && image_load(&im, path) == 0) {
		CHECK_EQ_U64(im.w, (uint64_t)ceil(sw));
		CHECK_EQ_U64(im.h, (uint64_t)ceil(sh));
		size_t checked = 0, bad = 0;
		for (size_t i = 0; i < L.count; i++) {
			const flame__frame *f = &L.frames[i];
			if (f->w < 2.5)
				continue;
			checked++;
			if (!left_strip_ok(&im, f) && bad++ > 5)
				break;
		}
		fprintf(stderr, "%s: %zu frames, %zu checked by pixel, %zu wrong\n", what, L.count,
		        checked, bad);
		CHECK(bad == 0);
		CHECK(checked > 100);
		/* the same against the SVG's own rects (the SVG written by svg_size above) */
		size_t svg_bad = 0, svg_checked = svg_rects_match(tmp_path("size.svg"), &im, &svg_bad);
		CHECK(svg_bad == 0);
		/* (about as many rects: the SVG rounds x and width, which moves some past 2.5 px) */
		CHECK(svg_checked > checked * 9 / 10 && svg_checked < checked * 11 / 10);
		image_free(&im);
	} else {
		CHECK(0);
	}
	flame__layout_free(&L);
	flame_tree_free(t);
}

static void test_png_big(void)
{
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	check_all_frames("default", &o);
	o.flags = FLAME_RENDER_INVERTED;
	o.width = 900;
	o.frame_height = 20;
	o.font_size = 14;
	o.colors = "java";
	o.bgcolors = "#203040";
	check_all_frames("inverted 900px fh20 fs14 java", &o);
	/* a fractional font size gives a fractional height, rounded up like the SVG's */
	o = (flame_render_opts)FLAME_RENDER_OPTS_INIT;
	o.font_size = 12.5;
	o.sort = FLAME_ORDER_WEIGHT;
	check_all_frames("fontsize 12.5", &o);
}

/* Labels are cut with ".." to fit: a long name never spills into its neighbour. */
static void test_png_label_fit(void)
{
	flame_err err;
	size_t n = 3000;
	char *text = malloc(n + 64);
	memcpy(text, "main;", 5);
	for (size_t i = 0; i < n; i++)
		text[5 + i] = "WWWMMMwide_"[i % 11];
	snprintf(text + 5 + n, 59, " 50\nmain;z 50\n");
	flame_tree *t = parse_str(text, FLAME_FORMAT_FOLDED, &err);
	free(text);
	CHECK(t != NULL);
	if (!t)
		return;
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	const char *path = tmp_path("fit.png");
	CHECK(render_to(flame_write_png, t, &o, path, &err) == 0);
	flame__layout L;
	CHECK(flame__layout_compute(&L, t, &o, &err) == 0);
	long z = frame_named(&L, "z");
	image im;
	CHECK(z > 0);
	if (z > 0 && image_load(&im, path) == 0) {
		const flame__frame *fz = &L.frames[z], *fl = &L.frames[z - 1];
		CHECK(fl->depth == fz->depth && fl->x < fz->x);
		/* the long label fills its frame... */
		CHECK(dark_pixels(&im, (int)fl->x + 3, (int)fl->y, (int)(fl->x + fl->w), (int)(fl->y + fl->h)) >
		      500);
		/* ...and its end is "..": the last 12 px hold only a low run of dots */
		int top_dark = dark_pixels(&im, (int)(fl->x + fl->w) - 14, (int)fl->y,
		                           (int)(fl->x + fl->w), (int)(fl->y + fl->h / 2));
		CHECK(top_dark == 0);
		/* ...and nothing of it in "z" beyond z's own short label */
		CHECK(dark_pixels(&im, (int)fz->x + 14, (int)fz->y, (int)(fz->x + fz->w), (int)(fz->y + fz->h)) ==
		      0);
		CHECK(left_strip_ok(&im, fz));
		image_free(&im);
	}
	flame__layout_free(&L);
	flame_tree_free(t);
}

static void test_png_differential(void)
{
	flame_err err;
	/* grow: b 10 -> 40; shrink: c 40 -> 10; same: d */
	flame_tree *t = parse_str("main;b 10 40\nmain;c 40 10\nmain;d 20 20\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(flame_tree_is_differential(t));
	for (int negate = 0; negate < 2; negate++) {
		flame_render_opts o = FLAME_RENDER_OPTS_INIT;
		if (negate)
			o.flags |= FLAME_RENDER_NEGATE;
		const char *path = tmp_path("diff.png");
		CHECK(render_to(flame_write_png, t, &o, path, &err) == 0);
		flame__layout L;
		CHECK(flame__layout_compute(&L, t, &o, &err) == 0);
		image im;
		if (image_load(&im, path) == 0) {
			long b = frame_named(&L, "b"), c = frame_named(&L, "c"), d = frame_named(&L, "d");
			CHECK(b > 0 && c > 0 && d > 0);
			if (b > 0 && c > 0 && d > 0) {
				for (size_t i = 0; i < L.count; i++)
					CHECK(centre_ok(&im, &L.frames[i], 0));
				flame__rgb pb = pixel(&im, (int)(L.frames[b].x + L.frames[b].w / 2),
				                      (int)(L.frames[b].y + L.frames[b].h / 2));
				flame__rgb pc = pixel(&im, (int)(L.frames[c].x + L.frames[c].w / 2),
				                      (int)(L.frames[c].y + L.frames[c].h / 2));
				flame__rgb pd = pixel(&im, (int)(L.frames[d].x + L.frames[d].w / 2),
				                      (int)(L.frames[d].y + L.frames[d].h / 2));
				/* growth red, reduction blue (swapped by --negate), no change white */
				CHECK(negate ? pb.b > pb.r : pb.r > pb.b);
				CHECK(negate ? pc.r > pc.b : pc.b > pc.r);
				CHECK(pd.r == 255 && pd.g == 255 && pd.b == 255);
				/* widths follow the second column: b (40) is 4x c (10) */
				CHECK(fabs(L.frames[b].w - 4 * L.frames[c].w) < 0.01);
			}
			image_free(&im);
		}
		flame__layout_free(&L);
	}
	flame_tree_free(t);
}

static void test_png_empty(void)
{
	flame_err err;
	flame_tree *t = test_tree_new();
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	const char *path = tmp_path("empty.png");
	CHECK(render_to(flame_write_png, t, &o, path, &err) == 0);
	double sw = 0, sh = 0;
	CHECK(svg_size(t, &o, &sw, &sh) == 0);
	image im;
	if (image_load(&im, path) == 0) {
		CHECK_EQ_U64(im.w, (uint64_t)sw);
		CHECK_EQ_U64(im.h, (uint64_t)ceil(sh));
		CHECK_EQ_U64(im.h, 60); /* 5 font sizes */
		/* the error message is drawn around the centre of the title line */
		CHECK(dark_pixels(&im, 400, 10, 800, 28) > 50);
		image_free(&im);
	}
	flame_tree_free(t);
}

/* Names that break markup or UTF-8, huge names, a deep stack: no crash, a valid image. */
static const char *const hostile[] = {
	"</title><script>alert(1)</script>",
	"]]>",
	"\"><svg onload=alert(1)>",
	"a&b'c\"d",
	"ctl\x01\x02\x1b[31m\x7f",
	"bad\xff\xfe utf8 \xc3\x28 \xe2\x82 \xed\xa0\x80 \xf4\x90\x80\x80 end",
	"trunc\xe2\x82",
	"\xc3\xa9t\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x94\xa5 ok",
	"tab\there",
	"%s%n%x",
	"\xef\xbf\xbe\xef\xbf\xbf",
};

static void test_hostile(writer_fn w, const char *ext)
{
	size_t cap = 1 << 21, len = 0;
	char *text = malloc(cap);
	for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++)
		len += (size_t)snprintf(text + len, cap - len, "root;%s;leaf %zu\n", hostile[i], 10 + i);
	/* a 200 kB name of invalid bytes, and one of 3-byte characters */
	len += (size_t)snprintf(text + len, cap - len, "root;");
	for (int i = 0; i < 200000; i++)
		text[len++] = (char)(0x80 + i % 64);
	len += (size_t)snprintf(text + len, cap - len, " 300\nroot;");
	for (int i = 0; i < 100000; i++) {
		memcpy(text + len, "\xe6\x97\xa5", 3);
		len += 3;
	}
	len += (size_t)snprintf(text + len, cap - len, " 300\n");
	text[len] = '\0';
	flame_err err;
	flame_tree *t = parse_str(text, FLAME_FORMAT_FOLDED, &err);
	free(text);
	CHECK(t != NULL);
	if (!t)
		return;
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	o.title = "title \xff\xfe <b>&amp;";
	o.subtitle = "sub\x01title \xc3";
	o.font_type = "\xff\"Bogus Font\", sans-serif";
	char path[64];
	snprintf(path, sizeof path, "hostile.%s", ext);
	int rc = render_to(w, t, &o, tmp_path(path), &err);
	if (rc)
		fprintf(stderr, "hostile %s: %s\n", ext, err.msg);
	CHECK(rc == 0);
	size_t n = 0;
	char *data = slurp(tmp_path(path), &n);
	CHECK(data && n > 100);
	if (data && strcmp(ext, "png") == 0) {
		image im;
		CHECK(image_load(&im, tmp_path(path)) == 0);
		flame__layout L;
		CHECK(flame__layout_compute(&L, t, &o, &err) == 0);
		if (im.s) {
			CHECK_EQ_U64(im.w, 1200);
			CHECK_EQ_U64(im.h, (uint64_t)ceil(L.height));
			for (size_t i = 0; i < L.count; i++)
				if (L.frames[i].w >= 2.5)
					CHECK(left_strip_ok(&im, &L.frames[i]));
			image_free(&im);
		}
		flame__layout_free(&L);
	}
	if (data && strcmp(ext, "pdf") == 0)
		CHECK(memcmp(data, "%PDF-", 5) == 0);
	free(data);
	flame_tree_free(t);
}

static void test_png_hostile(void) { test_hostile(flame_write_png, "png"); }

/* A graph taller than cairo's image limit is a clear error, and -o leaves no file. */
static void test_png_too_tall(void)
{
	size_t depth = 2500, cap = depth * 8 + 64, len = 0;
	char *text = malloc(cap);
	for (size_t i = 0; i < depth; i++)
		len += (size_t)snprintf(text + len, cap - len, "%sf%zu", i ? ";" : "", i % 100);
	snprintf(text + len, cap - len, " 1\n");
	flame_err err;
	flame_tree *t = parse_str(text, FLAME_FORMAT_FOLDED, &err);
	free(text);
	CHECK(t != NULL);
	if (!t)
		return;
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	const char *path = tmp_path("tall.png");
	memset(&err, 0, sizeof err);
	int rc = render_to(flame_write_png, t, &o, path, &err);
	CHECK(rc == FLAME_ERANGE);
	CHECK(strstr(err.msg, "too large") != NULL);
	CHECK(strcmp(err.source, "PNG") == 0);
	CHECK(access(path, F_OK) != 0);
	/* the same graph at a smaller frame height fits (narrow, to keep the test quick) */
	o.frame_height = 12;
	o.width = 200;
	CHECK(render_to(flame_write_png, t, &o, path, &err) == 0);
	image im;
	if (image_load(&im, path) == 0) {
		CHECK_EQ_U64(im.h, (2500 + 1) * 12 + 36 + 34); /* 2500 frames over "all" */
		CHECK_EQ_U64(im.w, 200);
		image_free(&im);
	}
	flame_tree_free(t);
}

/* --fonttype picks the family: the first of a CSS-style list, quotes dropped. */
static void test_png_fonttype(void)
{
	flame_err err;
	flame_tree *t = parse_str(small_folded, FLAME_FORMAT_FOLDED, &err);
	CHECK(t != NULL);
	if (!t)
		return;
	const char *fonts[] = {"DejaVu Serif", " 'DejaVu Serif' , serif", "DejaVu Sans Mono", ""};
	char *png[4];
	size_t len[4];
	for (int i = 0; i < 4; i++) {
		flame_render_opts o = FLAME_RENDER_OPTS_INIT;
		o.font_type = fonts[i];
		char name[32];
		snprintf(name, sizeof name, "font%d.png", i);
		CHECK(render_to(flame_write_png, t, &o, tmp_path(name), &err) == 0);
		png[i] = slurp(tmp_path(name), &len[i]);
		CHECK(png[i] != NULL);
	}
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	CHECK(render_to(flame_write_png, t, &o, tmp_path("font-default.png"), &err) == 0);
	size_t dlen = 0;
	char *dflt = slurp(tmp_path("font-default.png"), &dlen);
	if (png[0] && png[1] && png[2] && png[3] && dflt) {
		/* the list form names the same font */
		CHECK(len[0] == len[1] && memcmp(png[0], png[1], len[0]) == 0);
		/* other families draw other glyphs */
		CHECK(len[0] != len[2] || memcmp(png[0], png[2], len[0]) != 0);
		CHECK(len[0] != dlen || memcmp(png[0], dflt, len[0]) != 0);
		/* an empty family is DejaVu Sans, which fontconfig also picks for Verdana here */
		if (system("fc-match -f '%{family}' Verdana 2>/dev/null | grep -q '^DejaVu Sans$'") == 0)
			CHECK(len[3] == dlen && memcmp(png[3], dflt, dlen) == 0);
	}
	for (int i = 0; i < 4; i++)
		free(png[i]);
	free(dflt);
	flame_tree_free(t);
}

/* ---- PDF */

static int run(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Render path.pdf with pdftoppm at 72 dpi (1 pt = 1 px) into out.png and load it. */
static int pdf_raster(const char *pdf, const char *stem, image *im)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "pdftoppm -png -r 72 -singlefile '%s' '%s'", pdf, stem);
	if (run(cmd) != 0) {
		fprintf(stderr, "pdftoppm failed on %s\n", pdf);
		return -1;
	}
	char png[600];
	snprintf(png, sizeof png, "%s.png", stem);
	return image_load(im, png);
}

static void test_pdf_small(void)
{
	flame_err err;
	flame_tree *t = parse_str(small_folded, FLAME_FORMAT_FOLDED, &err);
	CHECK(t != NULL);
	if (!t)
		return;
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	o.title = "PDF title";
	const char *path = tmp_path("small.pdf");
	CHECK(render_to(flame_write_pdf, t, &o, path, &err) == 0);
	size_t n = 0;
	char *pdf = slurp(path, &n);
	CHECK(pdf && n > 100 && memcmp(pdf, "%PDF-", 5) == 0);
	CHECK(pdf && n > 100 && memmem(pdf + n - 32, 32, "%%EOF", 5) != NULL);
	/* the same input gives the same bytes (no creation date) */
	CHECK(render_to(flame_write_pdf, t, &o, tmp_path("again.pdf"), &err) == 0);
	size_t n2 = 0;
	char *pdf2 = slurp(tmp_path("again.pdf"), &n2);
	CHECK(pdf && pdf2 && n == n2 && memcmp(pdf, pdf2, n) == 0);
	free(pdf2);
	free(pdf);
	double sw = 0, sh = 0;
	CHECK(svg_size(t, &o, &sw, &sh) == 0);
	flame__layout L;
	CHECK(flame__layout_compute(&L, t, &o, &err) == 0);
	CHECK(sw == L.width && sh == L.height);
	/* the page is the SVG's size in points */
	if (run("command -v pdfinfo >/dev/null 2>&1") == 0) {
		char cmd[1024];
		snprintf(cmd, sizeof cmd, "pdfinfo '%s' | grep -q '^Page size: *%g x %g pts'", path, sw, sh);
		CHECK(run(cmd) == 0);
	}
	image im;
	if (pdf_raster(path, tmp_path("small-pdf"), &im) == 0) {
		CHECK_EQ_U64(im.w, (uint64_t)sw);
		CHECK_EQ_U64(im.h, (uint64_t)sh);
		/* another renderer: allow a little rounding in colours */
		for (size_t i = 0; i < L.count; i++)
			CHECK(centre_ok(&im, &L.frames[i], 2));
		flame__rgb got = pixel(&im, 3, im.h / 2), want = bg_at(&L, im.h / 2);
		CHECK(near(got, want, 3) || report_pixel("PDF background", 3, im.h / 2, got, want));
		const flame__frame *m = &L.frames[frame_named(&L, "main")];
		CHECK(dark_pixels(&im, (int)m->x + 3, (int)m->y, (int)m->x + 40, (int)(m->y + m->h)) > 10);
		int tx = (int)L.title_x;
		CHECK(dark_pixels(&im, tx - 60, (int)L.title_y - 14, tx + 60, (int)L.title_y + 4) > 20);
		image_free(&im);
	} else {
		CHECK(0);
	}
	flame__layout_free(&L);
	flame_tree_free(t);
}

static void test_pdf_differential(void)
{
	flame_err err;
	flame_tree *t = parse_str("main;b 10 40\nmain;c 40 10\n", FLAME_FORMAT_FOLDED, &err);
	CHECK(t != NULL);
	if (!t)
		return;
	flame_render_opts o = FLAME_RENDER_OPTS_INIT;
	o.width = 640;
	const char *path = tmp_path("diff.pdf");
	CHECK(render_to(flame_write_pdf, t, &o, path, &err) == 0);
	flame__layout L;
	CHECK(flame__layout_compute(&L, t, &o, &err) == 0);
	image im;
	if (pdf_raster(path, tmp_path("diff-pdf"), &im) == 0) {
		CHECK_EQ_U64(im.w, 640);
		CHECK_EQ_U64(im.h, (uint64_t)ceil(L.height));
		for (size_t i = 0; i < L.count; i++)
			CHECK(centre_ok(&im, &L.frames[i], 2));
		image_free(&im);
	} else {
		CHECK(0);
	}
	flame__layout_free(&L);
	flame_tree_free(t);
}

static void test_pdf_hostile(void) { test_hostile(flame_write_pdf, "pdf"); }

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "png";
	if (strcmp(mode, "pdf") == 0 && run("command -v pdftoppm >/dev/null 2>&1") != 0) {
		fprintf(stderr, "pdftoppm (poppler-utils) not found: skipped\n");
		return 77;
	}
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	if (strcmp(mode, "pdf") == 0) {
		RUN(test_pdf_small);
		RUN(test_pdf_differential);
		RUN(test_pdf_hostile);
	} else {
		RUN(test_png_small);
		RUN(test_png_big);
		RUN(test_png_label_fit);
		RUN(test_png_differential);
		RUN(test_png_empty);
		RUN(test_png_fonttype);
		RUN(test_png_hostile);
		RUN(test_png_too_tall);
	}
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (!harness_failures || !getenv("FLAME_KEEP"))
		run(cmd);
	else
		fprintf(stderr, "images kept in %s\n", tmpdir);
	return harness_done();
}
