/* PNG and PDF flame graphs through cairo (the only file that includes it): draws the
 * rectangles and colours layout.c computed, so the picture matches the SVG; labels are
 * measured with cairo's font metrics so they fit their frames. Bytes stream into a
 * flame_output (atomic -o). The SVG's interactive controls (search, zoom, details line)
 * mean nothing in a static image and are not drawn. */
#include <cairo-pdf.h>
#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "escape.h"
#include "heatmap.h"
#include "layout.h"
#include "removed.h"

/* cairo's image surfaces are limited to 32767 px a side (pixman's coordinate range); the
 * pixel buffer (4 bytes a pixel) is held whole, so it is capped at 1 GiB as well. */
enum { PNG_MAX_SIDE = 32767 };
#define PNG_MAX_PIXELS (256.0 * 1024 * 1024)

/* ---- output: cairo's write callback into flame_output */

typedef struct sink {
	flame_output *out;
	flame_err *err;
	int failed; /* flame_output_write failed: err is filled, cairo sees a write error */
} sink;

static cairo_status_t sink_write(void *ud, const unsigned char *data, unsigned int len)
{
	sink *s = ud;
	if (s->failed)
		return CAIRO_STATUS_WRITE_ERROR;
	if (flame_output_write(s->out, data, len, s->err) < 0) {
		s->failed = 1;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

/* ---- drawing state */

typedef struct painter {
	cairo_t *cr;
	const flame__layout *L;
	const flame__panel *panel; /* frames only in BEFORE, under the graph */
	cairo_font_face_t *face;
	char *buf;          /* repaired label text, reused for every frame */
	size_t cap;
	size_t *cuts;       /* byte offsets of code points in buf, reused */
	size_t cuts_cap;
	double dots_w;      /* advance of ".." at the frame font size */
	double min_glyph_w; /* a lower bound on a label's first glyph, to skip tiny frames fast */
	int vector;         /* PDF: group fills by colour */
} painter;

/* The first family of a CSS-style list ("Verdana, sans-serif" -> "Verdana"), unquoted;
 * "DejaVu Sans" when there is none. Fontconfig then picks the nearest installed font. */
static void font_family(const char *list, char *out, size_t cap)
{
	const char *p = list ? list : "";
	while (*p == ' ' || *p == '\t' || *p == '"' || *p == '\'')
		p++;
	size_t n = strcspn(p, ",\"'");
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n == 0) {
		p = "DejaVu Sans";
		n = strlen(p);
	}
	if (n >= cap / 3)
		n = cap / 3 - 1;
	/* cairo wants UTF-8 family names; a broken one would put the context in error */
	out[flame__utf8_repair(out, p, n)] = '\0';
}

static cairo_font_face_t *open_face(const char *font_type)
{
	char fam[256 * 3];
	font_family(font_type, fam, sizeof fam);
	cairo_font_face_t *f = cairo_toy_font_face_create(fam, CAIRO_FONT_SLANT_NORMAL,
	                                                  CAIRO_FONT_WEIGHT_NORMAL);
	if (cairo_font_face_status(f) == CAIRO_STATUS_SUCCESS)
		return f;
	cairo_font_face_destroy(f);
	return cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
	                                  CAIRO_FONT_WEIGHT_NORMAL);
}

static double advance(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

/* Repair untrusted bytes into P->buf (NUL-terminated) for cairo, which rejects invalid
 * UTF-8 by putting the whole context into an error state. */
static const char *repair(painter *P, const char *s, size_t n)
{
	if (flame__array_reserve_min(P->buf, P->cap, 3 * n + 3, 256))
		return NULL;
	P->buf[flame__utf8_repair(P->buf, s, n)] = '\0';
	return P->buf;
}

static void set_rgb(cairo_t *cr, flame__rgb c)
{
	cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0);
}

/* Text centred on x (SVG's text-anchor: middle). */
static void show_centred(cairo_t *cr, const char *s, double x, double y)
{
	cairo_move_to(cr, x - advance(cr, s) / 2, y);
	cairo_show_text(cr, s);
}

static void rounded_rect(cairo_t *cr, double x, double y, double w, double h)
{
	/* rx = ry = 2 as in the SVG; SVG clamps the radius to half the side */
	double r = fmin(2.0, fmin(w / 2, h / 2));
	if (r <= 0.01) {
		cairo_rectangle(cr, x, y, w, h);
		return;
	}
	cairo_new_sub_path(cr);
	cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
	cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
	cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
	cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
	cairo_close_path(cr);
}

/* Draw the label of f: the display name when it fits w - 3 px, else its longest prefix
 * (whole code points) followed by ".." that fits, else nothing. Widths are cairo's. */
static int draw_label(painter *P, const flame__frame *f)
{
	cairo_t *cr = P->cr;
	double avail = f->w - 3;
	if (avail < P->dots_w + P->min_glyph_w)
		return 0;
	size_t n = flame__frame_display_len(f);
	/* No glyph here is narrower than 1/8 px at a sane font size, so more code points than
	 * this cannot fit: bounds the work on a megabyte-long name. */
	size_t limit = (size_t)(avail * 8) + 8;
	if (n > 4 * limit)
		n = 4 * limit;
	const char *s = repair(P, f->name, n);
	if (!s)
		return -1;
	size_t len = strlen(s);
	/* code point boundaries, at most `limit` of them */
	size_t ncut = 0;
	if (flame__array_reserve_min(P->cuts, P->cuts_cap, len + 2, 256))
		return -1;
	for (size_t i = 0; i < len && ncut <= limit; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			P->cuts[ncut++] = i;
	int cut_short = ncut > limit || n < flame__frame_display_len(f);
	if (ncut > limit) {
		ncut = limit;
		len = P->cuts[limit];
		P->buf[len] = '\0';
	}
	if (!cut_short && advance(cr, s) <= avail) {
		cairo_move_to(cr, f->x + 3, f->y + f->h / 2 + 3);
		cairo_show_text(cr, s);
		return 0;
	}
	/* largest k >= 1 whose k code points plus ".." fit; P->buf has room for the dots */
	if (flame__array_reserve_min(P->buf, P->cap, len + 3, 256))
		return -1;
	size_t lo = 0, hi = ncut - 1; /* answer in [lo, hi]; 0 = nothing fits */
	while (lo < hi) {
		size_t k = lo + (hi - lo + 1) / 2;
		size_t end = P->cuts[k]; /* byte offset after k code points */
		char save[3] = {P->buf[end], P->buf[end + 1], P->buf[end + 2]};
		memcpy(P->buf + end, "..", 3);
		int fits = advance(cr, P->buf) <= avail;
		memcpy(P->buf + end, save, 3);
		if (fits)
			lo = k;
		else
			hi = k - 1;
	}
	if (lo == 0)
		return 0;
	memcpy(P->buf + P->cuts[lo], "..", 3);
	cairo_move_to(cr, f->x + 3, f->y + f->h / 2 + 3);
	cairo_show_text(cr, P->buf);
	return 0;
}

static void frame_path(cairo_t *cr, const flame__frame *f)
{
	if (f->w < 1) /* corners this small are invisible; a plain rectangle is cheaper */
		cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	else
		rounded_rect(cr, f->x, f->y, f->w, f->h);
}

/* Raster: one fill per frame is cheap. */
static int fill_each(painter *P)
{
	for (size_t i = 0; i < P->L->count; i++) {
		const flame__frame *f = &P->L->frames[i];
		set_rgb(P->cr, f->fill);
		frame_path(P->cr, f);
		cairo_fill(P->cr);
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Vector: cairo records every drawing operation of a PDF page (about a kilobyte each)
 * before writing it, so a million frames filled one by one cost gigabytes. Frames never
 * overlap, so all frames of one colour can be one path and one fill; long paths are
 * filled in batches to bound the path's memory. */
static int fill_by_colour(painter *P)
{
	const flame__layout *L = P->L;
	if (L->count > UINT32_MAX)
		return -1;
	uint64_t *keys = malloc((L->count ? L->count : 1) * sizeof *keys);
	if (!keys)
		return -1;
	for (size_t i = 0; i < L->count; i++) {
		flame__rgb c = L->frames[i].fill;
		keys[i] = (uint64_t)c.r << 48 | (uint64_t)c.g << 40 | (uint64_t)c.b << 32 | i;
	}
	qsort(keys, L->count, sizeof *keys, cmp_u64);
	size_t in_path = 0;
	for (size_t k = 0; k < L->count; k++) {
		const flame__frame *f = &L->frames[(uint32_t)keys[k]];
		frame_path(P->cr, f);
		int last = k + 1 == L->count || (keys[k + 1] >> 32) != (keys[k] >> 32);
		if (last || ++in_path == 4096) {
			set_rgb(P->cr, f->fill);
			cairo_fill(P->cr);
			in_path = 0;
		}
	}
	free(keys);
	return 0;
}

static int paint(painter *P)
{
	const flame__layout *L = P->L;
	cairo_t *cr = P->cr;

	/* background: the SVG's vertical gradient, stops at 5% and 95% */
	cairo_pattern_t *bg = cairo_pattern_create_linear(0, 0, 0, L->height);
	cairo_pattern_add_color_stop_rgb(bg, 0.05, L->bg_top.r / 255.0, L->bg_top.g / 255.0,
	                                 L->bg_top.b / 255.0);
	cairo_pattern_add_color_stop_rgb(bg, 0.95, L->bg_bottom.r / 255.0, L->bg_bottom.g / 255.0,
	                                 L->bg_bottom.b / 255.0);
	cairo_set_source(cr, bg);
	cairo_rectangle(cr, 0, 0, L->width, L->height);
	cairo_fill(cr);
	cairo_pattern_destroy(bg);

	cairo_set_font_face(cr, P->face);
	cairo_font_options_t *fo = cairo_font_options_create();
	/* unhinted metrics: the same label widths in PNG and PDF */
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);

	/* title (and the error message of an empty graph) */
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, L->font_size + 5);
	const char *title = L->empty ? "ERROR: No valid input provided" : L->title;
	const char *s = repair(P, title, strlen(title));
	if (!s)
		return -1;
	show_centred(cr, s, L->title_x, L->title_y);
	if (L->empty)
		return 0;

	cairo_set_font_size(cr, L->font_size);
	if (L->subtitle) {
		if (!(s = repair(P, L->subtitle, strlen(L->subtitle))))
			return -1;
		cairo_set_source_rgb(cr, 0xa0 / 255.0, 0xa0 / 255.0, 0xa0 / 255.0);
		show_centred(cr, s, L->title_x, L->subtitle_y);
	}

	P->dots_w = advance(cr, "..");
	P->min_glyph_w = fmin(advance(cr, "i"), advance(cr, "."));
	if (P->vector ? fill_by_colour(P) : fill_each(P))
		return -1;
	cairo_set_source_rgb(cr, 0, 0, 0);
	for (size_t i = 0; i < L->count; i++) {
		const flame__frame *f = &L->frames[i];
		if (f->w - 3 >= P->dots_w + P->min_glyph_w && draw_label(P, f))
			return -1;
	}
	const flame__panel *R = P->panel;
	if (R && R->header[0]) { /* a few frames: filled one by one in PNG and PDF */
		if (!(s = repair(P, R->header, strlen(R->header))))
			return -1;
		cairo_move_to(cr, L->xpad, R->header_y);
		cairo_show_text(cr, s);
		for (size_t i = 0; i < R->count; i++) {
			set_rgb(cr, R->frames[i].fill);
			frame_path(cr, &R->frames[i]);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, 0, 0, 0);
		for (size_t i = 0; i < R->count; i++) {
			const flame__frame *f = &R->frames[i];
			if (f->w - 3 >= P->dots_w + P->min_glyph_w && draw_label(P, f))
				return -1;
		}
	}
	return 0;
}

/* ---- the two writers */

enum { KIND_PNG, KIND_PDF };

/* A PNG over cairo's and the viewers' limits is refused with a message that says what to
 * do instead. */
static int png_size_check(double w, double h, flame_err *err)
{
	if (w > PNG_MAX_SIDE || h > PNG_MAX_SIDE)
		return flame__err(err, FLAME_ERANGE, "PNG", 0, FLAME__NO_OFFSET,
		                  "%.0fx%.0f px is too large (at most %d px a side): write SVG or PDF, "
		                  "or lower --height or --width",
		                  w, h, PNG_MAX_SIDE);
	if (w * h > PNG_MAX_PIXELS)
		return flame__err(err, FLAME_ERANGE, "PNG", 0, FLAME__NO_OFFSET,
		                  "%.0fx%.0f px is too large (at most %.0f M pixels): write SVG or PDF, "
		                  "or lower --height or --width",
		                  w, h, PNG_MAX_PIXELS / (1024 * 1024));
	return 0;
}

/* The surface to draw on: an image `w` x `h` (PNG), or a PDF streamed through `snk` with
 * its metadata. NULL only when the title could not be repaired (out of memory); a cairo
 * failure is the surface's status. */
static cairo_surface_t *new_surface(const flame__layout *L, painter *P, sink *snk, int kind,
                                    double w, double h)
{
	if (kind == KIND_PNG)
		return cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
	cairo_surface_t *surf = cairo_pdf_surface_create_for_stream(sink_write, snk, L->width, L->height);
	if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS)
		return surf;
	const char *title = L->empty ? "Flame Graph" : L->title;
	const char *s = repair(P, title, strlen(title));
	if (!s) {
		cairo_surface_destroy(surf);
		return NULL;
	}
	cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_TITLE, s);
	cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATOR, "libflame " FLAME_VERSION);
	/* no CreationDate: the same input gives the same bytes, as PNG and SVG do */
	cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATE_DATE, "");
	return surf;
}

/* Paint the picture on `surf` and write it out through `snk`: cairo's status, or
 * CAIRO_STATUS_NO_MEMORY when painting ran out of memory. */
static cairo_status_t paint_and_write(painter *P, cairo_surface_t *surf, sink *snk, int kind)
{
	P->cr = cairo_create(surf);
	P->vector = kind == KIND_PDF;
	P->face = open_face(P->L->font_type);
	if (paint(P))
		return CAIRO_STATUS_NO_MEMORY;
	cairo_status_t st = cairo_status(P->cr);
	if (st != CAIRO_STATUS_SUCCESS)
		return st;
	cairo_destroy(P->cr);
	P->cr = NULL;
	if (kind == KIND_PNG)
		return cairo_surface_write_to_png_stream(surf, sink_write, snk);
	cairo_surface_finish(surf); /* writes the rest of the PDF through sink_write */
	return cairo_surface_status(surf);
}

static int render(flame_tree *t, const flame_render_opts *o, flame_output *out, flame_err *err,
                  int kind)
{
	const char *what = kind == KIND_PNG ? "PNG" : "PDF";
	flame__layout L;
	painter P = {0};
	sink snk = {out, err, 0};
	cairo_surface_t *surf = NULL;
	flame__panel R = {0};
	int rc = flame__layout_compute(&L, t, o, err);
	if (!rc)
		rc = flame__panel_compute(&R, t, &L, o, err);
	double w = ceil(L.width - 1e-9), h = ceil(L.height - 1e-9);
	if (!rc && (w < 1 || h < 1))
		rc = flame__err(err, FLAME_EUSAGE, what, 0, FLAME__NO_OFFSET, "empty image size %gx%g", w, h);
	if (!rc && kind == KIND_PNG)
		rc = png_size_check(w, h, err);
	P.L = &L;
	P.panel = &R;
	if (!rc && !(surf = new_surface(&L, &P, &snk, kind, w, h)))
		rc = flame__err_nomem(err);
	if (!rc) {
		cairo_status_t st = cairo_surface_status(surf);
		if (st == CAIRO_STATUS_SUCCESS)
			st = paint_and_write(&P, surf, &snk, kind);
		if (st == CAIRO_STATUS_SUCCESS)
			rc = 0;
		else if (snk.failed) /* flame_output already said what went wrong */
			rc = err ? err->code : FLAME_EIO;
		else if (st == CAIRO_STATUS_NO_MEMORY)
			rc = flame__err_nomem(err);
		else
			rc = flame__err(err, FLAME_EIO, what, 0, FLAME__NO_OFFSET, "cairo: %s",
			                cairo_status_to_string(st));
	}
	if (P.cr)
		cairo_destroy(P.cr);
	if (P.face)
		cairo_font_face_destroy(P.face);
	if (surf)
		cairo_surface_destroy(surf);
	free(P.buf);
	free(P.cuts);
	flame__panel_free(&R);
	flame__layout_free(&L);
	return rc;
}

/* The time heatmap (heatmap.h) painted on `cr`. */
static void paint_heatmap(cairo_t *cr, const flame__heatmap *h)
{
	cairo_set_source_rgb(cr, 250 / 255.0, 250 / 255.0, 250 / 255.0);
	cairo_paint(cr);
	for (size_t c = 0; c < h->cols; c++)
		for (size_t r = 0; r < h->rows; r++) {
			uint64_t v = h->v[c * h->rows + r];
			if (!v)
				continue;
			double x, y, w, hh;
			flame__heatmap_cell(h, c, r, &x, &y, &w, &hh);
			flame__rgb k = flame__heatmap_color(h, h->timeline ? h->max : v);
			cairo_set_source_rgb(cr, k.r / 255.0, k.g / 255.0, k.b / 255.0);
			cairo_rectangle(cr, x, y, w, hh);
			cairo_fill(cr);
		}
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_select_font_face(cr, h->font_type, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, h->font_size);
	char b[64];
	double ybase = h->y0 + h->ch * (double)h->rows + h->font_size + 2;
	for (size_t c = 0; c < h->cols; c++)
		if (flame__heatmap_xtick(h, c, b, sizeof b)) {
			cairo_move_to(cr, h->x0 + h->cw * (double)c, ybase);
			cairo_show_text(cr, b);
		}
	char title[3 * sizeof h->title];
	title[flame__utf8_repair(title, h->title, strlen(h->title))] = '\0';
	cairo_text_extents_t ex;
	cairo_set_font_size(cr, h->font_size + 5);
	cairo_text_extents(cr, title, &ex);
	cairo_move_to(cr, h->width / 2 - ex.width / 2, h->font_size * 2);
	cairo_show_text(cr, title);
}

static int render_heatmap(flame_tree *t, const flame_render_opts *o, flame_output *out,
                          flame_err *err, int kind)
{
	flame__heatmap h;
	sink snk = {out, err, 0};
	int rc = flame__heatmap_compute(&h, t, o, err);
	double w = ceil(h.width), hh = ceil(h.height);
	if (!rc && kind == KIND_PNG)
		rc = png_size_check(w, hh, err);
	if (rc) {
		flame__heatmap_free(&h);
		return rc;
	}
	cairo_surface_t *surf = kind == KIND_PNG
	                            ? cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)hh)
	                            : cairo_pdf_surface_create_for_stream(sink_write, &snk, w, hh);
	cairo_t *cr = cairo_create(surf);
	paint_heatmap(cr, &h);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && kind == KIND_PNG)
		st = cairo_surface_write_to_png_stream(surf, sink_write, &snk);
	else if (st == CAIRO_STATUS_SUCCESS) {
		cairo_surface_finish(surf);
		st = cairo_surface_status(surf);
	}
	cairo_surface_destroy(surf);
	flame__heatmap_free(&h);
	if (st == CAIRO_STATUS_SUCCESS)
		return 0;
	if (snk.failed)
		return err ? err->code : FLAME_EIO;
	return flame__err(err, FLAME_EIO, kind == KIND_PNG ? "PNG" : "PDF", 0, FLAME__NO_OFFSET,
	                  "cairo: %s", cairo_status_to_string(st));
}

int flame_write_png(flame_tree *t, const flame_render_opts *o, flame_output *out, flame_err *err)
{
	flame_render_opts cur;
	int rc = flame__render_opts_read(&cur, o, err);
	if (!rc && (cur.flags & FLAME_RENDER_HEATMAP))
		return render_heatmap(t, &cur, out, err, KIND_PNG);
	return rc ? rc : render(t, &cur, out, err, KIND_PNG);
}

int flame_write_pdf(flame_tree *t, const flame_render_opts *o, flame_output *out, flame_err *err)
{
	flame_render_opts cur;
	int rc = flame__render_opts_read(&cur, o, err);
	if (!rc && (cur.flags & FLAME_RENDER_HEATMAP))
		return render_heatmap(t, &cur, out, err, KIND_PDF);
	return rc ? rc : render(t, &cur, out, err, KIND_PDF);
}
