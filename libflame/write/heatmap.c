/* The time heatmap (heatmap.h): the grid from the tree's time series, and its SVG. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "escape.h"
#include "heatmap.h"

enum { ROWS = 50, MIN_SECONDS = 3, MAX_COLUMNS = 1200, BARS = 600, PAD = 10 };
#define NS 1000000000ull

/* Heatmap or timeline, and the grid's size, from the span. */
static void shape(flame__heatmap *h, uint64_t span, uint64_t bucket)
{
	uint64_t cols = span ? (span + NS - 1) / NS : 1; /* a sample at the very end is dropped */
	h->timeline = span < MIN_SECONDS * NS || cols > MAX_COLUMNS;
	if (!h->timeline) {
		h->cols = (size_t)cols;
		h->rows = bucket * ROWS <= NS ? ROWS : (size_t)(NS / bucket ? NS / bucket : 1);
		h->cell_ns = NS / h->rows;
		return;
	}
	h->rows = 1;
	h->cell_ns = span / BARS + 1;
	if (h->cell_ns < bucket)
		h->cell_ns = bucket;
	h->cols = (size_t)(span / h->cell_ns + 1);
}

static void geometry(flame__heatmap *h, const flame_render_opts *o)
{
	double avail = (o->width > 200 ? o->width : 1200) - 6 * PAD;
	h->font_size = o->font_size > 0 ? o->font_size : 12;
	h->font_type = o->font_type ? o->font_type : "Verdana";
	h->cw = avail / (double)h->cols;
	if (!h->timeline && h->cw > 24)
		h->cw = 24;
	h->ch = h->timeline ? 200 : 8;
	h->x0 = 5 * PAD;
	h->y0 = 3 * h->font_size + PAD;
	h->width = h->x0 + h->cw * (double)h->cols + PAD;
	h->height = h->y0 + h->ch * (double)h->rows + 3 * h->font_size + PAD;
}

int flame__heatmap_compute(flame__heatmap *h, flame_tree *t, const flame_render_opts *o,
                           flame_err *err)
{
	memset(h, 0, sizeof *h);
	int64_t first, last;
	if (flame_tree_time_span(t, &first, &last) == FLAME_CLOCK_NONE)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "the profile keeps no sample times to draw a heatmap of (perf script "
		                  "text, perf.data, jfr print's text and pprof profiles with "
		                  "time_nanos have them)");
	shape(h, (uint64_t)(last - first), flame_tree_time_bucket(t));
	if (!(h->v = calloc(h->cols * h->rows, sizeof *h->v)))
		return flame__err_nomem(err);
	int rc = flame_tree_time_series(t, FLAME_NODE_NONE, flame_tree_is_differential(t), 0,
	                                h->cell_ns, h->v, h->cols * h->rows, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < h->cols * h->rows; i++) {
		h->max = h->v[i] > h->max ? h->v[i] : h->max;
		h->total += h->v[i];
	}
	const char *cn = o->count_name ? o->count_name : flame_tree_count_name(t);
	snprintf(h->unit, sizeof h->unit, "%s", cn ? cn : "samples");
	snprintf(h->title, sizeof h->title, "%s", o->title ? o->title : "Time Heatmap");
	h->decimals = flame_tree_decimals(t);
	geometry(h, o);
	return 0;
}

void flame__heatmap_free(flame__heatmap *h)
{
	free(h->v);
	h->v = NULL;
}

flame__rgb flame__heatmap_color(const flame__heatmap *h, uint64_t v)
{
	if (!v || !h->max)
		return (flame__rgb){255, 255, 255};
	double f = 0.15 + 0.85 * (double)v / (double)h->max; /* the lightest still shows */
	return (flame__rgb){(uint8_t)(255 - 75 * f), (uint8_t)(235 - 215 * f), (uint8_t)(215 - 200 * f)};
}

void flame__heatmap_cell(const flame__heatmap *h, size_t c, size_t r, double *x, double *y,
                         double *w, double *hh)
{
	*x = h->x0 + h->cw * (double)c;
	*w = h->cw;
	if (h->timeline) {
		double f = h->max ? (double)h->v[c] / (double)h->max : 0;
		*hh = h->ch * f;
		*y = h->y0 + h->ch - *hh;
		return;
	}
	*y = h->y0 + h->ch * (double)r;
	*hh = h->ch;
}

size_t flame__heatmap_xtick(const flame__heatmap *h, size_t i, char *buf, size_t cap)
{
	static const size_t steps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1200};
	size_t need = (size_t)(60 / h->cw) + 1, every = steps[sizeof steps / sizeof *steps - 1];
	for (size_t k = 0; k < sizeof steps / sizeof *steps; k++)
		if (steps[k] >= need) { /* a label at most every 60 px, on round numbers */
			every = steps[k];
			break;
		}
	if (i % every)
		return 0;
	double s = (double)i * (double)h->cell_ns * (double)h->rows / 1e9;
	int n = snprintf(buf, cap, "%g s", s);
	return n > 0 ? (size_t)n : 0;
}

/* ---- SVG */

typedef struct hw {
	flame_output *out;
	flame_err *err;
	int rc;
} hw;

static void put(hw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(hw *w, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!w->rc && n > 0)
		w->rc = flame_output_write(w->out, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1, w->err);
}

static void put_escaped(hw *w, const char *s)
{
	size_t n = strlen(s);
	char *e = malloc(FLAME__ESCAPE_MAX(n) + 1);
	if (!e) {
		w->rc = w->rc ? w->rc : flame__err_nomem(w->err);
		return;
	}
	size_t k = flame__xml_escape(e, s, n);
	if (!w->rc)
		w->rc = flame_output_write(w->out, e, k, w->err);
	free(e);
}

static void cells(hw *w, const flame__heatmap *h)
{
	char amount[64];
	for (size_t c = 0; c < h->cols; c++)
		for (size_t r = 0; r < h->rows; r++) {
			uint64_t v = h->v[c * h->rows + r];
			if (!v)
				continue;
			double x, y, cw, ch;
			flame__heatmap_cell(h, c, r, &x, &y, &cw, &ch);
			flame__rgb k = flame__heatmap_color(h, h->timeline ? h->max : v);
			double t0 = (double)((c * h->rows + r) * h->cell_ns) / 1e9;
			flame_amount_print(amount, sizeof amount, v, h->decimals, h->unit);
			put(w, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
			    "fill=\"rgb(%u,%u,%u)\" data-t=\"%.6f\" data-v=\"%llu\"><title>%.3f s: ",
			    x, y, cw, ch, k.r, k.g, k.b, t0, (unsigned long long)v, t0);
			put_escaped(w, amount);
			put(w, " ");
			put_escaped(w, strstr(amount, h->unit) ? "" : h->unit);
			put(w, "</title></rect>\n");
		}
}

static void axes(hw *w, const flame__heatmap *h)
{
	char b[64];
	double ybase = h->y0 + h->ch * (double)h->rows + h->font_size + 2;
	for (size_t c = 0; c < h->cols; c++)
		if (flame__heatmap_xtick(h, c, b, sizeof b))
			put(w, "<text x=\"%.2f\" y=\"%.2f\">%s</text>\n", h->x0 + h->cw * (double)c, ybase, b);
	if (!h->timeline) {
		put(w, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">0 ms</text>\n", h->x0 - 4,
		    h->y0 + h->font_size * 0.8);
		put(w, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">1000 ms</text>\n", h->x0 - 4,
		    h->y0 + h->ch * (double)h->rows);
	}
	put(w, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n", h->width / 2,
	    ybase + h->font_size + 4,
	    h->timeline ? "seconds from the first sample"
	                : "seconds from the first sample (columns) and the offset within each second (rows)");
}

int flame__heatmap_svg(flame_tree *t, const flame_render_opts *o, flame_output *out,
                       flame_err *err)
{
	flame__heatmap h;
	int rc = flame__heatmap_compute(&h, t, o, err);
	if (rc) {
		flame__heatmap_free(&h);
		return rc;
	}
	hw w = {out, err, 0};
	put(&w, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	    "xmlns=\"http://www.w3.org/2000/svg\" data-kind=\"%s\" data-cols=\"%zu\" data-rows=\"%zu\" "
	    "data-cell-ns=\"%llu\">\n", h.width, h.height, h.width, h.height,
	    h.timeline ? "timeline" : "heatmap", h.cols, h.rows, (unsigned long long)h.cell_ns);
	put(&w, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"rgb(250,250,250)\"/>\n"
	    "<g font-family=\"");
	put_escaped(&w, h.font_type);
	put(&w, "\" font-size=\"%g\" fill=\"rgb(0,0,0)\">\n<text x=\"%.2f\" y=\"%.2f\" "
	    "text-anchor=\"middle\" font-size=\"%g\">", h.font_size, h.width / 2, h.font_size * 2,
	    h.font_size + 5);
	put_escaped(&w, h.title);
	put(&w, "</text>\n");
	axes(&w, &h);
	put(&w, "</g>\n<g id=\"cells\">\n");
	cells(&w, &h);
	put(&w, "</g>\n</svg>\n");
	flame__heatmap_free(&h);
	return w.rc;
}
