/* The embedded templates (templates/ files compiled in by templates/embed.c) and the
 * expansion of {{key}} placeholders in the SVG skeleton and the HTML page. */
#ifndef FLAME_WRITE_TEMPLATE_H
#define FLAME_WRITE_TEMPLATE_H
#include <stddef.h>

extern const char flame__tpl_svg[], flame__tpl_js[], flame__tpl_css[];
extern const size_t flame__tpl_svg_len, flame__tpl_js_len, flame__tpl_css_len;
extern const char flame__tpl_page_html[], flame__tpl_page_js[], flame__tpl_page_css[];
extern const size_t flame__tpl_page_html_len, flame__tpl_page_js_len, flame__tpl_page_css_len;
/* the time heatmap of the page (page-heatmap.js), put in only when the profile keeps time */
extern const char flame__tpl_page_heatmap_js[];
extern const size_t flame__tpl_page_heatmap_js_len;
extern const char flame__tpl_page_labels_js[];
extern const size_t flame__tpl_page_labels_js_len;

/* Called for literal text and for each {{key}} in order; return non-zero to stop. */
typedef struct flame__tpl_cb {
	int (*literal)(void *ud, const char *p, size_t n);
	int (*key)(void *ud, const char *key, size_t n);
	void *ud;
} flame__tpl_cb;

/** Expand `tpl[0..len)`; returns the first non-zero callback result, or 0. */
int flame__template_expand(const char *tpl, size_t len, const flame__tpl_cb *cb);
#endif
