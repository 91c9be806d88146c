/* The time heatmap of a tree that keeps time (FLAME_RENDER_HEATMAP): FlameScope's
 * subsecond-offset layout (a column per second from the first sample, rows the offsets
 * within the second, colour the weight), or a plain timeline of bars when the recording is
 * shorter than a few seconds or longer than the heatmap shows at a column a second. The
 * grid and its geometry are computed once here; heatmap.c draws it as SVG, cairo.c as PNG
 * and PDF, so they agree. */
#ifndef FLAME_WRITE_HEATMAP_H
#define FLAME_WRITE_HEATMAP_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"
#include "color.h"

typedef struct flame__heatmap {
	int timeline;        /* 1: one row of bars, their height the weight */
	size_t cols, rows;
	uint64_t cell_ns;    /* the time of a cell (heatmap: 1 s / rows; timeline: a bar's) */
	uint64_t *v;         /* cols * rows weights, column by column, offset 0 first */
	uint64_t max, total;
	double width, height; /* image, px */
	double x0, y0;       /* top left of the grid */
	double cw, ch;       /* a cell's size (timeline: a bar's width, the grid's height) */
	double font_size;
	const char *font_type;
	char title[256];     /* untrusted (the user's title): escape it */
	char unit[64];       /* "samples", "nanoseconds" */
	unsigned decimals;
} flame__heatmap;

/** The grid of `t` with `o`'s width, title and font. FLAME_EUSAGE when `t` keeps no time. */
int flame__heatmap_compute(flame__heatmap *h, flame_tree *t, const flame_render_opts *o,
                           flame_err *err);
void flame__heatmap_free(flame__heatmap *h);
/** A cell's colour: white for nothing, to dark red for the heaviest. */
flame__rgb flame__heatmap_color(const flame__heatmap *h, uint64_t v);
/** Where cell (c, r) is drawn: its rectangle in px. */
void flame__heatmap_cell(const flame__heatmap *h, size_t c, size_t r, double *x, double *y,
                         double *w, double *hh);
/** The label of the axis tick `i` of the x axis into `buf` ("12 s"), or 0 when column i
 * has none; the y axis is labelled by its ends. */
size_t flame__heatmap_xtick(const flame__heatmap *h, size_t i, char *buf, size_t cap);
/** The SVG (flame_write_svg with FLAME_RENDER_HEATMAP). */
int flame__heatmap_svg(flame_tree *t, const flame_render_opts *o, flame_output *out,
                       flame_err *err);
#endif
