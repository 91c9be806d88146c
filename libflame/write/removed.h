/* The removed-frames panel of a differential graph: frames found only in BEFORE have no
 * width in the graph (widths are AFTER), so a band under it draws them, widths by their
 * BEFORE counts, on the path of the frames that called them (drawn as grey context).
 * removed.c lays it out; svg.c and cairo.c draw it. */
#ifndef FLAME_WRITE_REMOVED_H
#define FLAME_WRITE_REMOVED_H
#include "layout.h"

typedef struct flame__panel {
	flame__frame *frames; /* parents first; value = the removed BEFORE weight it spans,
	                       * before = its BEFORE total */
	uint64_t *after;      /* per frame: its AFTER total (0 for a removed frame) */
	size_t count;         /* frames drawn (0: none wide enough; no panel when header is empty) */
	double top, height;   /* the band below the graph, px */
	double header_y;      /* baseline of the header line (left-aligned at xpad) */
	uint64_t removed;     /* BEFORE count of all removed frames (tree scale) */
	uint64_t before_total; /* BEFORE's total: the tooltips' 100% */
	char header[256];     /* "Only in BEFORE (removed): N samples, P% of before" */
	flame_tree *own;      /* the removed stacks' tree the frames' names point into */
} flame__panel;

/** Lay out the panel of `t` (the tree `L` was computed from) and
 * grow L->height by its height. No panel (count 0) unless the graph is differential, some
 * frame is only in BEFORE, and FLAME_RENDER_NO_REMOVED is not set. */
int flame__panel_compute(flame__panel *P, flame_tree *t, flame__layout *L,
                         const flame_render_opts *o, flame_err *err);
void flame__panel_free(flame__panel *P);

/** 1 for a context frame (in AFTER too: a caller of removed frames), 0 for a removed one. */
int flame__panel_is_context(const flame__panel *P, size_t i);

/** Tooltip of panel frame i: "NAME (N COUNTNAME, P%; before B, after 0)" for a removed
 * frame, "NAME (N COUNTNAME, P%; calls removed frames)" for a context one; N the removed
 * weight it spans, P that as a % of BEFORE's total. Raw bytes; returns the length it
 * wanted (like snprintf). */
size_t flame__panel_info(const flame__layout *L, const flame__panel *P, size_t i, char *buf,
                         size_t cap);
#endif
