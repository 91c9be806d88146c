/* flame-render: folded stacks (2-column, or 3-column differential) to a flame graph as
 * an interactive SVG, a PNG or a PDF, with flamegraph.pl's options and meanings.
 * Several input files are summed; no valid input gives flamegraph.pl's error image
 * and exit status 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"

enum {
	O_TITLE = 1, O_SUBTITLE, O_WIDTH, O_HEIGHT, O_MINWIDTH, O_FONTTYPE, O_FONTSIZE, O_FONTWIDTH,
	O_COUNTNAME, O_NAMETYPE, O_COLORS, O_BGCOLORS, O_HASH, O_RANDOM, O_CP, O_REVERSE,
	O_INVERTED, O_FLAMECHART, O_NEGATE, O_NOTES, O_FACTOR, O_TOTAL, O_NAMEATTR, O_ENCODING,
	O_SEARCH_COLOR, O_SORT, O_OUTPUT, O_FORMAT, O_DIFF_MODE, O_PALETTE_FILE, O_SEED, O_QUIET
};

static const cli_opt options[] = {
	{"title", 0, CLI_ARG, O_TITLE, "TEXT", "title text (default \"Flame Graph\")"},
	{"subtitle", 0, CLI_ARG, O_SUBTITLE, "TEXT", "second-level title"},
	{"width", 0, CLI_ARG, O_WIDTH, "NUM", "width of the image in px (default 1200)"},
	{"height", 0, CLI_ARG, O_HEIGHT, "NUM", "height of each frame in px (default 16)"},
	{"minwidth", 0, CLI_ARG, O_MINWIDTH, "NUM[%]",
	 "omit frames narrower than NUM px, or NUM% of the total (default 0.1)"},
	{"fonttype", 0, CLI_ARG, O_FONTTYPE, "FONT", "font family (default \"Verdana\")"},
	{"fontsize", 0, CLI_ARG, O_FONTSIZE, "NUM", "font size (default 12)"},
	{"fontwidth", 0, CLI_ARG, O_FONTWIDTH, "NUM", "average glyph width / font size (default 0.59)"},
	{"countname", 0, CLI_ARG, O_COUNTNAME, "TEXT", "count type label (default \"samples\")"},
	{"nametype", 0, CLI_ARG, O_NAMETYPE, "TEXT", "name type label (default \"Function:\")"},
	{"colors", 0, CLI_ARG, O_COLORS, "PALETTE",
	 "hot (default), mem, io, wakeup, chain, java, js, perl, python, rust, red, green, blue, "
	 "aqua, yellow, purple, orange"},
	{"bgcolors", 0, CLI_ARG, O_BGCOLORS, "COLOR",
	 "background: yellow (default), blue, green, grey, or a flat #rrggbb"},
	{"hash", 0, CLI_NOARG, O_HASH, NULL, "colours keyed by a hash of the function name"},
	{"random", 0, CLI_NOARG, O_RANDOM, NULL, "random colours (not the same from run to run)"},
	{"cp", 0, CLI_NOARG, O_CP, NULL, "consistent palette: read and update palette.map"},
	{"palette-file", 0, CLI_ARG, O_PALETTE_FILE, "FILE", "the --cp palette file (default palette.map)"},
	{"reverse", 0, CLI_NOARG, O_REVERSE, NULL, "reverse each stack (leaf frames at the root)"},
	{"inverted", 0, CLI_NOARG, O_INVERTED, NULL, "icicle graph (root at the top)"},
	{"flamechart", 0, CLI_NOARG, O_FLAMECHART, NULL,
	 "flame chart: stacks in input order (first appearance), not merged by name"},
	{"negate", 0, CLI_NOARG, O_NEGATE, NULL, "switch differential hues (blue<->red)"},
	{"diff-mode", 0, CLI_ARG, O_DIFF_MODE, "MODE",
	 "differential colour by each frame's self delta (self, default) or inclusive delta (total)"},
	{"notes", 0, CLI_ARG, O_NOTES, "TEXT", "notes kept in the SVG"},
	{"factor", 0, CLI_ARG, O_FACTOR, "NUM", "multiply displayed counts by NUM"},
	{"total", 0, CLI_ARG, O_TOTAL, "NUM", "width of the graph in counts (when above the actual total)"},
	{"nameattr", 0, CLI_ARG, O_NAMEATTR, "FILE", "per-function SVG attributes (name<TAB>attr=value...)"},
	{"encoding", 0, CLI_ARG, O_ENCODING, "NAME", "encoding of the input and option text (converted: the SVG is UTF-8)"},
	{"search-color", 0, CLI_ARG, O_SEARCH_COLOR, "COLOR", "fill of search matches (default rgb(230,0,230))"},
	{"sort", 0, CLI_ARG, O_SORT, "ORDER", "siblings by name (default) or weight (heaviest first)"},
	{"seed", 0, CLI_ARG, O_SEED, "N", "seed for --random"},
	{"output", 'o', CLI_ARG, O_OUTPUT, "FILE", "write to FILE (atomically); format from .svg .png .pdf"},
	{"format", 0, CLI_ARG, O_FORMAT, "FMT", "output format: svg (default), png, pdf"},
	{"quiet", 'q', CLI_NOARG, O_QUIET, NULL, "do not print warnings"},
	{NULL, 0, 0, 0, NULL, NULL},
};

enum { FMT_NONE = 0, FMT_SVG, FMT_PNG, FMT_PDF };

typedef struct args {
	flame_render_opts ro;
	const char *output;
	int format;
	int cp;
	const char *palette_file;
	const char *nameattr_file;
	int quiet;
} args;

static int parse_positive(const char *opt, const char *arg, double *out)
{
	if (cli_parse_double(arg, out) || !(*out > 0))
		return cli_usage_error("--%s wants a positive number, got '%s'", opt, arg);
	return 0;
}

static int parse_size(const char *opt, const char *arg, unsigned *out, uint64_t max)
{
	uint64_t u;
	if (cli_parse_u64(arg, &u) || u < 1 || u > max)
		return cli_usage_error("--%s wants a whole number from 1 to %llu, got '%s'", opt,
		                       (unsigned long long)max, arg);
	*out = (unsigned)u;
	return 0;
}

static int format_from_name(const char *s)
{
	if (!strcmp(s, "svg"))
		return FMT_SVG;
	if (!strcmp(s, "png"))
		return FMT_PNG;
	if (!strcmp(s, "pdf"))
		return FMT_PDF;
	return FMT_NONE;
}

static int on_opt(void *ud, int id, const char *arg)
{
	args *a = ud;
	flame_render_opts *o = &a->ro;
	double d;
	uint64_t u;
	switch (id) {
	case O_TITLE: o->title = arg; break;
	case O_SUBTITLE: o->subtitle = arg; break;
	case O_WIDTH: return parse_size("width", arg, &o->width, 1000000);
	case O_HEIGHT: return parse_size("height", arg, &o->frame_height, 10000);
	case O_MINWIDTH: {
		size_t n = strlen(arg);
		char buf[64];
		int pct = n > 0 && arg[n - 1] == '%';
		if (n - (size_t)pct >= sizeof buf)
			return cli_usage_error("--minwidth wants NUM or NUM%%, got '%s'", arg);
		memcpy(buf, arg, n - (size_t)pct);
		buf[n - (size_t)pct] = '\0';
		if (cli_parse_double(buf, &d) || d < 0)
			return cli_usage_error("--minwidth wants NUM or NUM%%, got '%s'", arg);
		o->min_width = d;
		if (pct)
			o->flags |= FLAME_RENDER_MINWIDTH_PERCENT;
		else
			o->flags &= ~(unsigned)FLAME_RENDER_MINWIDTH_PERCENT;
		break;
	}
	case O_FONTTYPE: o->font_type = arg; break;
	case O_FONTSIZE: return parse_positive("fontsize", arg, &o->font_size);
	case O_FONTWIDTH: return parse_positive("fontwidth", arg, &o->font_width);
	case O_COUNTNAME: o->count_name = arg; break;
	case O_NAMETYPE: o->name_type = arg; break;
	case O_COLORS: o->colors = arg; break;
	case O_BGCOLORS: o->bgcolors = arg; break;
	case O_HASH: o->flags |= FLAME_RENDER_HASH; break;
	case O_RANDOM: o->flags |= FLAME_RENDER_RANDOM; break;
	case O_CP: a->cp = 1; break;
	case O_PALETTE_FILE: a->palette_file = arg; break;
	case O_REVERSE: o->flags |= FLAME_RENDER_REVERSE; break;
	case O_INVERTED: o->flags |= FLAME_RENDER_INVERTED; break;
	case O_FLAMECHART: o->flags |= FLAME_RENDER_FLAMECHART; break;
	case O_NEGATE: o->flags |= FLAME_RENDER_NEGATE; break;
	case O_DIFF_MODE:
		if (!strcmp(arg, "self"))
			o->diff_mode = FLAME_DIFF_SELF;
		else if (!strcmp(arg, "total"))
			o->diff_mode = FLAME_DIFF_TOTAL;
		else
			return cli_usage_error("--diff-mode wants self or total, got '%s'", arg);
		break;
	case O_NOTES: o->notes = arg; break;
	case O_FACTOR: return parse_positive("factor", arg, &o->factor);
	case O_TOTAL: return parse_positive("total", arg, &o->total);
	case O_NAMEATTR: a->nameattr_file = arg; break;
	case O_ENCODING: o->encoding = arg; break;
	case O_SEARCH_COLOR: o->search_color = arg; break;
	case O_SORT:
		if (!strcmp(arg, "name"))
			o->sort = FLAME_ORDER_NAME;
		else if (!strcmp(arg, "weight"))
			o->sort = FLAME_ORDER_WEIGHT;
		else
			return cli_usage_error("--sort wants name or weight, got '%s'", arg);
		break;
	case O_SEED:
		if (cli_parse_u64(arg, &u))
			return cli_usage_error("--seed wants a whole number, got '%s'", arg);
		o->seed = u;
		break;
	case O_OUTPUT: a->output = arg; break;
	case O_FORMAT:
		a->format = format_from_name(arg);
		if (!a->format)
			return cli_usage_error("--format wants svg, png or pdf, got '%s'", arg);
		break;
	case O_QUIET: a->quiet = 1; break;
	}
	return 0;
}

/* Invalid folded lines are summed up once, in flamegraph.pl's words; other warnings go
 * through the shared once-per-kind printer. */
typedef struct warn_state {
	cli_warnings w;
	unsigned long invalid;
} warn_state;

static void on_warn(void *ud, const char *kind, const char *source, uint64_t line, const char *msg)
{
	warn_state *s = ud;
	if (!strcmp(kind, "folded-invalid-line")) {
		s->invalid++;
		return;
	}
	cli_warn(&s->w, kind, source, line, msg);
}

static int format_from_path(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (!dot || strchr(dot, '/'))
		return FMT_NONE;
	if (!strcasecmp(dot, ".svg"))
		return FMT_SVG;
	if (!strcasecmp(dot, ".png"))
		return FMT_PNG;
	if (!strcasecmp(dot, ".pdf"))
		return FMT_PDF;
	return FMT_NONE;
}

int main(int argc, char **argv)
{
	args a = {.ro = FLAME_RENDER_OPTS_INIT};
	int first;
	int rc = cli_parse(argc, argv, options, on_opt, &a, "[OPTIONS] [FILE...] > graph.svg",
	                   "Render folded stacks ('frame;frame;... count', or 'stack before after' for a\n"
	                   "differential graph) as a flame graph: an interactive SVG (default), a PNG or\n"
	                   "a PDF. Reads stdin when no FILE (or '-') is given; several files are summed.",
	                   &first);
	if (rc)
		return rc;
	flame_err err = {0};
	if (flame_render_opts_check(&a.ro, &err))
		return cli_report(&err);
	int fmt = a.format ? a.format : format_from_path(a.output);
	if (!fmt)
		fmt = FMT_SVG;

	warn_state ws = {.w = {.quiet = a.quiet}};
	a.ro.warn = on_warn;
	a.ro.warn_ud = &ws;
	flame_parse_opts popts = FLAME_PARSE_OPTS_INIT;
	popts.format = FLAME_FORMAT_FOLDED;
	popts.warn = on_warn;
	popts.warn_ud = &ws;

	flame_tree *t = flame_tree_new();
	flame_palette *pal = NULL;
	flame_nameattr *na = NULL;
	flame_output *out = NULL;
	const char *palette_path = a.palette_file ? a.palette_file : "palette.map";
	int code = 0;
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", cli_prog());
		return 1;
	}
	if (a.nameattr_file && (rc = flame_nameattr_load(&na, a.nameattr_file, &err)))
		goto done;
	a.ro.nameattr = na;
	if (a.cp) {
		pal = flame_palette_new();
		if (!pal) {
			fprintf(stderr, "%s: out of memory\n", cli_prog());
			code = 1;
			goto done;
		}
		if ((rc = flame_palette_load(pal, palette_path, &err)))
			goto done;
		a.ro.palette = pal;
	}
	int nfiles = argc - first;
	for (int i = 0; i < (nfiles ? nfiles : 1) && !rc; i++) {
		const char *path = nfiles ? argv[first + i] : "-";
		flame_input *in = NULL;
		rc = flame_input_open(&in, path, &err);
		if (!rc)
			rc = flame_parse(t, in, &popts, &err);
		flame_input_free(in);
	}
	if (rc)
		goto done;
	if (ws.invalid && !a.quiet)
		fprintf(stderr, "Ignored %lu lines with invalid format\n", ws.invalid);
	if ((rc = cli_output_open(&out, a.output, &err)))
		goto done;
	rc = fmt == FMT_PNG   ? flame_write_png(t, &a.ro, out, &err)
	     : fmt == FMT_PDF ? flame_write_pdf(t, &a.ro, out, &err)
	                      : flame_write_svg(t, &a.ro, out, &err);
	if (rc) {
		cli_output_abort(out);
		goto done;
	}
	if ((rc = cli_output_commit(out, &err)))
		goto done;
	if (pal && (rc = flame_palette_save(pal, palette_path, &err)))
		goto done;
	if (flame_tree_total(t, 0) == 0 && flame_tree_total(t, 1) == 0) {
		fprintf(stderr, "ERROR: No stack counts found\n");
		code = 2; /* flamegraph.pl's exit status for no valid input */
	}
done:
	cli_warnings_finish(&ws.w);
	if (rc)
		code = cli_report(&err);
	flame_tree_free(t);
	flame_palette_free(pal);
	flame_nameattr_free(na);
	return code;
}
