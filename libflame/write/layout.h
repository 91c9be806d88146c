/* The layout pass shared by every flame graph writer: which frames survive --minwidth,
 * where each rectangle goes (px), its counts and fill colour, plus the image size,
 * title/subtitle/details positions and background. svg.c and cairo.c only draw this,
 * so SVG, PNG and PDF agree. Geometry follows flamegraph.pl (xpad 10, ypad1 = 3 font
 * sizes (+2 with a subtitle), ypad2 = 2 font sizes + 10, framepad 1). */
#ifndef FLAME_WRITE_LAYOUT_H
#define FLAME_WRITE_LAYOUT_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"
#include "color.h"

typedef struct flame__frame {
	const char *name;    /* raw frame name (in the tree's name table; not NUL-safe: use len) */
	uint32_t name_len;
	uint32_t depth;      /* 0 = the root "all" */
	uint32_t parent;     /* index of the parent frame in flame__layout.frames (root: UINT32_MAX) */
	uint64_t start;      /* left edge in counts (tree scale) */
	uint64_t value;      /* width in counts: column 0, or column 1 (after) when differential */
	uint64_t before;     /* differential: inclusive column-0 count (else equal to value) */
	double delta;        /* differential: the delta that colours it (self or total per
	                      * diff mode, before negation), in counts; 0 otherwise */
	double x, y, w, h;   /* rectangle in px: left, top, width, height (frame_height - 1) */
	flame__rgb fill;
} flame__frame;

typedef struct flame__layout {
	flame__frame *frames; /* parents before children; frames[0] is the root (if any) */
	size_t count;
	int empty;            /* no samples: draw only "ERROR: No valid input provided" centred
	                       * at (title_x, title_y); height is 5 font sizes */
	int differential;
	int inverted;
	double width, height; /* image size, px */
	double xpad, ypad1, ypad2, frame_height;
	double font_size, font_width;
	const char *font_type;
	double title_x, title_y;    /* centre of the title baseline */
	double subtitle_y;          /* baseline of the subtitle (centred at title_x) */
	double details_y;           /* baseline of the details/"Matched:" line (bottom) */
	uint32_t max_depth;         /* deepest surviving frame */
	uint64_t timemax;           /* the width of the graph in counts (>= the root's value) */
	unsigned scale;             /* counts are in units of 10^-scale */
	double factor;
	double width_per_count;     /* px per count */
	flame__rgb bg_top, bg_bottom;
	const char *title, *subtitle, *notes, *count_name, *name_type, *search_color;
	int negate;                 /* --negate: tooltips show the delta negated too */
	double diff_per;            /* > 0: tooltips add per-request before/after */
	int human;                  /* the tree's unit is time or bytes: tooltips print amounts
	                             * as people read them ("1.42 s"), so the SVG carries the
	                             * exact counts in data-v and the unit in data-unit */
	const flame_diff_report *report; /* differential: changes were tested (o->diff_report
	                             * of this tree, with statistics), else NULL */
	int stat_total;             /* the statistic frames are coloured by: total (1) or self */
	char legend[640];           /* with a report: the subtitle with the legend after it */
} flame__layout;

/** The subtitle of a picture of `t` with `o`: the user's, then, when o->diff_report has
 * statistics of `t`, a legend saying that changes within noise are drawn as none (into
 * buf). NULL when there is neither. */
const char *flame__diff_subtitle(const flame_render_opts *o, flame_tree *t, char *buf,
                                 size_t cap);

/** The statistics of the function named name[0..len) in a picture with a report, or NULL. */
const flame_diff_stat *flame__name_stat(const flame_diff_report *rep, const char *name,
                                        size_t len);

/** Build the node tree as needed (honouring --flamechart and --sort) and lay it out: the
 * stacks as they are (--reverse is a transform, xform/reverse.c, done before). Strings in
 * the layout point into `o`, `t` or static storage: keep them alive while the layout is
 * used. */
int flame__layout_compute(flame__layout *L, flame_tree *t, const flame_render_opts *o,
                          flame_err *err);
void flame__layout_free(flame__layout *L);

/** How many characters fit a frame `w` px wide by the --fontwidth estimate (flamegraph.pl:
 * int(w / (font_size * font_width))). Labels need at least 3. */
size_t flame__layout_fit_chars(const flame__layout *L, double w);

/** The displayed name: the raw name without a trailing annotation (_[k] _[w] _[i] _[j]). */
size_t flame__frame_display_len(const flame__frame *f);

/** Label for a frame fitting `max_chars` characters (UTF-8 aware: counts code points, never
 * cuts inside one): the display name, or its start followed by ".." when it is longer;
 * empty when max_chars < 3. Writes raw (unescaped) bytes to buf (NUL-terminated) and
 * returns the length. `cap` must be >= 4 * max_chars + 3. */
size_t flame__frame_label(const flame__frame *f, size_t max_chars, char *buf, size_t cap);

/** The tooltip text in flamegraph.pl's form: "NAME (N COUNTNAME, P%)", "all (...)" at the
 * root; differential adds "; +D%" (flamegraph.pl's delta) then "; before B, after A".
 * Raw (unescaped) bytes; returns the length it wanted (like snprintf). */
size_t flame__frame_info(const flame__layout *L, const flame__frame *f, char *buf, size_t cap);

/** Format a count (tree scale, times factor) with thousands separators, as the tooltip
 * does. Returns the length. */
size_t flame__format_count(const flame__layout *L, uint64_t v, char *buf, size_t cap);
/** A caller's render options (NULL: the defaults) as the current layout (core/version.h):
 * every public writer reads its options through this first. */
int flame__render_opts_read(flame_render_opts *dst, const flame_render_opts *src, flame_err *err);
#endif
