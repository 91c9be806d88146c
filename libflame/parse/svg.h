/* The flame graph SVG reader's shared parts (parse/svg*.c). The flow: svg.c detects an SVG,
 * reads the input in blocks and hands each block to one of two XML readers -- libxml2's
 * SAX2 push parser (svg-sax.c) for the document, a strict scanner (svg-fast.c) for the
 * frame lines flame-render writes inside its <g id="fr"> -- which turn each frame's title
 * and attributes into a flame__svg_frame (svg-frame.c); svg-build.c then places the frames
 * (depths, parents) and puts their stacks into the tree. */
#ifndef FLAME_PARSE_SVG_H
#define FLAME_PARSE_SVG_H
#include <stddef.h>
#include <stdint.h>
#include <libxml/parser.h>
#include "parser.h"

/** One drawn frame, as read. */
typedef struct flame__svg_frame {
	double x, y, w;
	uint64_t mant[2];      /* total count(s) as decimal mantissas at `dec` decimals */
	uint64_t child[2];     /* children's totals, in the common scale */
	uint32_t name, depth, parent;
	uint8_t has_count, dec;
	uint8_t root;          /* the root frame (svg-build.c marks it) */
} flame__svg_frame;

/** A read in progress: the frames so far and what the root's attributes said. */
typedef struct flame__svg {
	flame__sink k; /* where the stacks go (the tree) */
	const flame_parse_opts *o;
	flame_input *in;
	const char *src;
	flame_err *err;
	int rc;
	flame__svg_frame *v;
	size_t n, cap;
	int differential;
	int reverse;           /* data-reverse on the root: drawn stacks are leaf-first */
	char *pruned;          /* data-pruned of the root: top-level frames --minwidth hid */
	char *dec_buf;         /* scratch for percent-decoded names */
	size_t dec_cap;
	char count_name[64];
	int unit_attr;         /* count_name came from the root's data-unit */
} flame__svg;

/** A growable byte string reused across elements (no allocation per frame). */
typedef struct flame__sbuf {
	char *p;
	size_t n, cap;
	int set;
} flame__sbuf;

/** Make b hold p[0..n) and a NUL: 0, or -1 when out of memory. */
int flame__sbuf_set(flame__sbuf *b, const char *p, size_t n);
/** Make room in b for `need` bytes: 0, or -1 when out of memory. */
int flame__sbuf_reserve(flame__sbuf *b, size_t need);

/* How many element and attribute names the SAX reader looks for (svg-sax.c's keys). */
enum { FLAME__SVG_KEYS = 20 };

/** What both XML readers know of the document as they go: the element being read, a
 * title waiting for its rect or a rect for its title, and the attributes of both. */
typedef struct flame__svg_sax {
	flame__svg *s;
	const xmlChar *k[FLAME__SVG_KEYS]; /* those names, in libxml2's dictionary */
	int depth;            /* of the current element */
	int skip;             /* depth of a label/script/style/panel subtree being skipped, or 0 */
	flame__sbuf t;        /* title text */
	int in_title, title_el_depth;
	int have_title, title_depth; /* a closed title waiting for its sibling rect */
	flame__svg_frame rect; /* a rect waiting for its child title */
	int rect_depth;       /* -1: none */
	flame__sbuf rect_name, rect_raw, rect_v; /* data-name / data-raw / data-v of that rect */
	flame__sbuf g_name;   /* data-name of the enclosing g or a */
	flame__sbuf rect_mo, g_mo; /* old flamegraph.pl's title: onmouseover="s('INFO')" */
	int g_mo_depth;       /* depth of the g or a that g_mo came from */
	int fr_last;          /* the last event was the start of flame-render's <g id="fr"> */
	int decls;            /* the DTD declared attributes or entities: no fast path */
	uint64_t text;        /* bytes of text handed to on_text, entities expanded */
	xmlParserCtxtPtr doc; /* the document's parser (an entity's text comes through another) */
	uint64_t pending;     /* newlines the fast path read that libxml2 has not counted yet */
} flame__svg_sax;

/* ---- svg-frame.c: a frame from its text */

/** Frame names past this are refused: no real frame comes near it, and an entity used
 * many times in a title would otherwise make a name of gigabytes. */
enum { FLAME__SVG_NAME_MAX = 64 * 1024 };

/** `1,234.5` at p -> mantissa and decimals, *stop after it; -1 when not a count, -2 when
 * its digits do not fit 64 bits (a count, but one no tree can hold). */
int flame__svg_count(const char *p, const char *end, const char **stop, uint64_t *mant,
                     unsigned *dec);
/** Two counts at their decimals -> the same scale *dec; -1 when they do not fit 64 bits. */
int flame__svg_common_scale(uint64_t *a, unsigned ad, uint64_t *b, unsigned bd, unsigned *dec);
/** The value of hex digit c, or -1. */
int flame__svg_hexval(int c);
/** p[0..n) with %XX decoded into s->dec_buf, its length in *out: 0, or an error. */
int flame__svg_pct_decode(flame__svg *s, const char *p, size_t n, size_t *out);
/** data-unit on the root (percent-encoded): the counts' unit. 0, or -1 when out of memory. */
int flame__svg_unit_attr(flame__svg *s, const char *p, size_t n);
/** A coordinate ("10", "737.5") -> *out: 0, or -1 when it is not one. */
int flame__svg_num(const char *p, const char *end, double *out);
/** The line being read, for errors: libxml2's count plus the fast path's lines ahead. */
uint64_t flame__svg_line(const flame__svg_sax *x);
/** A frame from its title text and its rect's geometry, with the data- attributes x holds
 * for that rect (exact data first: data-v, data-raw, then data-name): 0, or an error. */
int flame__svg_title_rect(flame__svg_sax *x, const char *title, size_t tn,
                          const flame__svg_frame *geom);

/* ---- svg-sax.c: libxml2's reader */

/** A push parser whose callbacks fill x (x->s set, x->rect_depth -1): NULL when out of
 * memory. Free it with flame__svg_sax_close. */
xmlParserCtxtPtr flame__svg_sax_open(flame__svg_sax *x);
/** Free the parser and x's buffers. */
void flame__svg_sax_close(flame__svg_sax *x, xmlParserCtxtPtr ctxt);

/* ---- svg-fast.c: the strict scanner of flame-render's frame lines */

enum { FLAME__SVG_FAST_NEED_MORE, FLAME__SVG_FAST_HANDOFF };

/** Frame lines from p[0..n): *used bytes of them were read, *lines newlines among them.
 * FLAME__SVG_FAST_NEED_MORE when the block ran out inside a line, _HANDOFF at the first
 * line that is not one (libxml2 reads on from there); x->s->rc is set on an error. */
int flame__svg_fast_lines(flame__svg_sax *x, const char *p, size_t n, size_t *used,
                          size_t *lines, flame__sbuf *val);

/* ---- svg-build.c: frames to stacks */

/** Depths, parents and self counts of s's frames, their stacks into s->k: 0, or an error. */
int flame__svg_build(flame__svg *s);
#endif
