/* flame-render's drawing options (flamegraph.pl's names, defaults and meanings) as a table
 * other CLIs append to their own, plus the palette/nameattr plumbing around a render. */
#include <stdlib.h>
#include <string.h>
#include "render-opts.h"

enum {
	R_TITLE = RENDER_OPT_BASE, R_SUBTITLE, R_WIDTH, R_HEIGHT, R_MINWIDTH, R_FONTTYPE,
	R_FONTSIZE, R_FONTWIDTH, R_COUNTNAME, R_NAMETYPE, R_COLORS, R_BGCOLORS, R_HASH, R_RANDOM,
	R_CP, R_PALETTE_FILE, R_REVERSE, R_INVERTED, R_FLAMECHART, R_NEGATE, R_DIFF_MODE, R_NOTES,
	R_FACTOR, R_TOTAL, R_NAMEATTR, R_ENCODING, R_SEARCH_COLOR, R_SORT, R_SEED
};

const cli_opt render_cli_opts[] = {
	{"", 0, 0, 0, NULL, "Drawing (flamegraph.pl's options and meanings, the same in every tool "
	                    "that draws):"},
	{"title", 0, CLI_ARG, R_TITLE, "TEXT", "title text (default \"Flame Graph\")"},
	{"subtitle", 0, CLI_ARG, R_SUBTITLE, "TEXT", "second-level title"},
	{"width", 0, CLI_ARG, R_WIDTH, "NUM", "width of the image in px (default 1200)"},
	{"height", 0, CLI_ARG, R_HEIGHT, "NUM", "height of each frame in px (default 16)"},
	{"minwidth", 0, CLI_ARG, R_MINWIDTH, "NUM[%]",
	 "omit frames narrower than NUM px, or NUM% of the total (default 0.1)"},
	{"fonttype", 0, CLI_ARG, R_FONTTYPE, "FONT", "font family (default \"Verdana\")"},
	{"fontsize", 0, CLI_ARG, R_FONTSIZE, "NUM", "font size (default 12)"},
	{"fontwidth", 0, CLI_ARG, R_FONTWIDTH, "NUM", "average glyph width / font size (default 0.59)"},
	{"countname", 0, CLI_ARG, R_COUNTNAME, "TEXT",
	 "count type label (default: the unit of the input, else \"samples\")"},
	{"nametype", 0, CLI_ARG, R_NAMETYPE, "TEXT", "name type label (default \"Function:\")"},
	{"colors", 0, CLI_ARG, R_COLORS, "PALETTE",
	 "hot (default), mem, io, wakeup, chain, java, js, perl, python, rust, red, green, blue, "
	 "aqua, yellow, purple, orange"},
	{"bgcolors", 0, CLI_ARG, R_BGCOLORS, "COLOR",
	 "background: yellow (default), blue, green, grey, or a flat #rrggbb"},
	{"hash", 0, CLI_NOARG, R_HASH, NULL, "colours keyed by a hash of the function name"},
	{"random", 0, CLI_NOARG, R_RANDOM, NULL, "random colours (not the same from run to run)"},
	{"cp", 0, CLI_NOARG, R_CP, NULL, "consistent palette: read and update palette.map"},
	{"palette-file", 0, CLI_ARG, R_PALETTE_FILE, "FILE", "the --cp palette file (default palette.map)"},
	{"reverse", 0, CLI_NOARG, R_REVERSE, NULL, "reverse each stack (leaf frames at the root)"},
	{"inverted", 0, CLI_NOARG, R_INVERTED, NULL, "icicle graph (root at the top)"},
	{"flamechart", 0, CLI_NOARG, R_FLAMECHART, NULL,
	 "flame chart: stacks in input order (first appearance), not merged by name"},
	{"negate", 0, CLI_NOARG, R_NEGATE, NULL, "switch differential hues (blue<->red)"},
	{"diff-mode", 0, CLI_ARG, R_DIFF_MODE, "MODE",
	 "differential colour by each frame's self delta (self, default) or inclusive delta (total)"},
	{"notes", 0, CLI_ARG, R_NOTES, "TEXT", "notes kept in the SVG"},
	{"factor", 0, CLI_ARG, R_FACTOR, "NUM", "multiply displayed counts by NUM"},
	{"total", 0, CLI_ARG, R_TOTAL, "NUM", "width of the graph in counts (when above the actual total)"},
	{"nameattr", 0, CLI_ARG, R_NAMEATTR, "FILE", "per-function SVG attributes (name<TAB>attr=value...)"},
	{"encoding", 0, CLI_ARG, R_ENCODING, "NAME", "encoding of the input and option text (converted: the SVG is UTF-8)"},
	{"search-color", 0, CLI_ARG, R_SEARCH_COLOR, "COLOR", "fill of search matches (default rgb(230,0,230))"},
	{"sort", 0, CLI_ARG, R_SORT, "ORDER", "siblings by name (default) or weight (heaviest first)"},
	{"seed", 0, CLI_ARG, R_SEED, "N", "seed for --random"},
	{NULL, 0, 0, 0, NULL, NULL},
};

void render_cli_init(render_cli *r)
{
	memset(r, 0, sizeof *r);
	r->ro = (flame_render_opts)FLAME_RENDER_OPTS_INIT;
}

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

static int parse_minwidth(flame_render_opts *o, const char *arg)
{
	size_t n = strlen(arg);
	char buf[64];
	double d;
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
	return 0;
}

int render_cli_opt(render_cli *r, int id, const char *arg)
{
	flame_render_opts *o = &r->ro;
	uint64_t u;
	switch (id) {
	case R_TITLE: o->title = arg; break;
	case R_SUBTITLE: o->subtitle = arg; break;
	case R_WIDTH: return parse_size("width", arg, &o->width, 1000000);
	case R_HEIGHT: return parse_size("height", arg, &o->frame_height, 10000);
	case R_MINWIDTH: return parse_minwidth(o, arg);
	case R_FONTTYPE: o->font_type = arg; break;
	case R_FONTSIZE: return parse_positive("fontsize", arg, &o->font_size);
	case R_FONTWIDTH: return parse_positive("fontwidth", arg, &o->font_width);
	case R_COUNTNAME: o->count_name = arg; break;
	case R_NAMETYPE: o->name_type = arg; break;
	case R_COLORS: o->colors = arg; break;
	case R_BGCOLORS: o->bgcolors = arg; break;
	case R_HASH: o->flags |= FLAME_RENDER_HASH; break;
	case R_RANDOM: o->flags |= FLAME_RENDER_RANDOM; break;
	case R_CP: r->cp = 1; break;
	case R_PALETTE_FILE: r->palette_file = arg; break;
	case R_REVERSE: r->reverse = 1; break;
	case R_INVERTED: o->flags |= FLAME_RENDER_INVERTED; break;
	case R_FLAMECHART: o->flags |= FLAME_RENDER_FLAMECHART; break;
	case R_NEGATE: o->flags |= FLAME_RENDER_NEGATE; break;
	case R_DIFF_MODE:
		if (!strcmp(arg, "self"))
			o->diff_mode = FLAME_DIFF_SELF;
		else if (!strcmp(arg, "total"))
			o->diff_mode = FLAME_DIFF_TOTAL;
		else
			return cli_usage_error("--diff-mode wants self or total, got '%s'", arg);
		break;
	case R_NOTES: o->notes = arg; break;
	case R_FACTOR: return parse_positive("factor", arg, &o->factor);
	case R_TOTAL: return parse_positive("total", arg, &o->total);
	case R_NAMEATTR: r->nameattr_file = arg; break;
	case R_ENCODING: o->encoding = arg; break;
	case R_SEARCH_COLOR: o->search_color = arg; break;
	case R_SORT:
		if (!strcmp(arg, "name"))
			o->sort = FLAME_ORDER_NAME;
		else if (!strcmp(arg, "weight"))
			o->sort = FLAME_ORDER_WEIGHT;
		else
			return cli_usage_error("--sort wants name or weight, got '%s'", arg);
		break;
	case R_SEED:
		if (cli_parse_u64(arg, &u))
			return cli_usage_error("--seed wants a whole number, got '%s'", arg);
		o->seed = u;
		break;
	default:
		return cli_usage_error("internal: unknown render option %d", id);
	}
	return 0;
}

int render_cli_prepare(render_cli *r, flame_err *err)
{
	int rc = flame_render_opts_check(&r->ro, err);
	if (rc)
		return rc;
	if (r->nameattr_file && !r->na && (rc = flame_nameattr_new(&r->na, r->nameattr_file, err)))
		return rc;
	r->ro.nameattr = r->na;
	if (r->cp && !r->pal) {
		if ((rc = flame_palette_new(&r->pal, err)))
			return rc;
		if ((rc = flame_palette_load(r->pal, r->palette_file ? r->palette_file : "palette.map",
		                             err)))
			return rc;
		r->ro.palette = r->pal;
	}
	return 0;
}

int render_cli_write(render_cli *r, flame_output_format fmt, flame_tree *t, flame_output *o,
                     flame_err *err)
{
	/* --reverse transforms the stacks of the drawn flame graphs (not the HTML page, which
	 * never took it, nor stack formats), then turns them back: the caller's tree is
	 * unchanged for what it does next (flame-diff's --top and gate read callers) */
	int rev = r->reverse &&
	          (fmt == FLAME_OUTPUT_SVG || fmt == FLAME_OUTPUT_PNG || fmt == FLAME_OUTPUT_PDF);
	int rc = rev ? flame_reverse_stacks(t, err) : 0;
	if (!rc)
		rc = flame_write(t, fmt, &r->ro, o, err);
	if (!rc && rev)
		rc = flame_reverse_stacks(t, err);
	return rc;
}

int render_cli_finish(render_cli *r, flame_err *err)
{
	if (!r->pal)
		return 0;
	return flame_palette_save(r->pal, r->palette_file ? r->palette_file : "palette.map", err);
}

void render_cli_free(render_cli *r)
{
	flame_palette_free(r->pal);
	flame_nameattr_free(r->na);
	r->pal = NULL;
	r->na = NULL;
}
