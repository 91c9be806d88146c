/* The table of output formats (one descriptor each: name, extensions, what it is, its
 * writer) and flame_write, which dispatches on it. Tools take their --format choices, help
 * and -o extension checks from this table: a new writer adds one entry here. */
#include <string.h>
#include "../core/err.h"
#include "../core/formats.h"

/* the stack formats take no drawing options */
static int write_folded(flame_tree *t, const flame_render_opts *o, flame_output *out,
                        flame_err *err)
{
	(void)o;
	return flame_write_folded(t, out, err);
}

static int write_pprof(flame_tree *t, const flame_render_opts *o, flame_output *out,
                       flame_err *err)
{
	(void)o;
	return flame_write_pprof(t, out, err);
}

static int write_speedscope(flame_tree *t, const flame_render_opts *o, flame_output *out,
                            flame_err *err)
{
	(void)o;
	return flame_write_speedscope(t, out, err);
}

static int write_cpuprofile(flame_tree *t, const flame_render_opts *o, flame_output *out,
                            flame_err *err)
{
	(void)o;
	return flame_write_cpuprofile(t, out, err);
}

static const char *const ext_folded[] = {".folded", ".collapsed", ".txt", NULL};
static const char *const ext_pprof[] = {".pb.gz", ".pb", ".pprof", ".pgo", NULL};
static const char *const ext_svg[] = {".svg", NULL};
static const char *const ext_png[] = {".png", NULL};
static const char *const ext_pdf[] = {".pdf", NULL};
static const char *const ext_html[] = {".html", ".htm", NULL};
static const char *const ext_speedscope[] = {".speedscope.json", NULL};
static const char *const ext_cpuprofile[] = {".cpuprofile", NULL};

#define PICTURE (FLAME_OUTPUT_PICTURE | FLAME_OUTPUT_DIFF)

/* The output formats, indexed by flame_output_format; tools list them in this order. */
static const struct flame__format outputs[] = {
	[FLAME_OUTPUT_FOLDED] = {{"folded", ext_folded,
	                          "folded stacks, 'root;...;leaf count' in bytewise order ('stack before after' for a diff)",
	                          FLAME_OUTPUT_FOLDED, FLAME_OUTPUT_STACKS | FLAME_OUTPUT_DIFF},
	                         NULL, write_folded},
	[FLAME_OUTPUT_PPROF] = {{"pprof", ext_pprof, "gzipped pprof profile.proto (go tool pprof, Pyroscope, Parca)",
	                         FLAME_OUTPUT_PPROF, FLAME_OUTPUT_STACKS},
	                        NULL, write_pprof},
	[FLAME_OUTPUT_SVG] = {{"svg", ext_svg, "an interactive flame graph SVG (zoom, search)",
	                       FLAME_OUTPUT_SVG, PICTURE},
	                      NULL, flame_write_svg},
	[FLAME_OUTPUT_PNG] = {{"png", ext_png, "the flame graph as a PNG image", FLAME_OUTPUT_PNG, PICTURE},
	                      NULL, flame_write_png},
	[FLAME_OUTPUT_PDF] = {{"pdf", ext_pdf, "the flame graph as a vector PDF", FLAME_OUTPUT_PDF, PICTURE},
	                      NULL, flame_write_pdf},
	[FLAME_OUTPUT_HTML] = {{"html", ext_html,
	                        "one self-contained page holding the whole profile (zoom to any frame, search, sandwich, top table)",
	                        FLAME_OUTPUT_HTML, PICTURE},
	                       NULL, flame_write_html},
	[FLAME_OUTPUT_SPEEDSCOPE] = {{"speedscope", ext_speedscope,
	                              "speedscope's JSON (speedscope.app; a diff as two profiles)",
	                              FLAME_OUTPUT_SPEEDSCOPE, FLAME_OUTPUT_STACKS | FLAME_OUTPUT_DIFF},
	                             NULL, write_speedscope},
	[FLAME_OUTPUT_CPUPROFILE] = {{"cpuprofile", ext_cpuprofile,
	                              "Chrome DevTools / V8 CPU profile (time units only)",
	                              FLAME_OUTPUT_CPUPROFILE, FLAME_OUTPUT_STACKS},
	                             NULL, write_cpuprofile},
};
enum { NOUTPUTS = sizeof outputs / sizeof outputs[0] };

size_t flame_output_format_count(void)
{
	return flame__format_available(outputs, NOUTPUTS);
}

const flame_format_info *flame_output_format_info(size_t i)
{
	return flame__format_nth(outputs, NOUTPUTS, i);
}

int flame_output_format_find(const char *name, unsigned accept, flame_output_format *out,
                             flame_err *err)
{
	int i = flame__format_find(outputs, NOUTPUTS, name, accept);
	if (i >= 0) {
		*out = (flame_output_format)i;
		return 0;
	}
	char list[256];
	flame__format_list(outputs, NOUTPUTS, accept, 0, list, sizeof list);
	return flame__err(err, FLAME_EUSAGE, NULL, 0, FLAME__NO_OFFSET,
	                  "unknown output format '%s' (%s)", name ? name : "", list);
}

int flame_output_format_from_path(const char *path, unsigned accept, flame_output_format *out,
                                  flame_err *err)
{
	const char *ext = flame__format_ext(path);
	int i = flame__format_by_path(outputs, NOUTPUTS, path, accept);
	if (i >= 0 || !ext) {
		*out = i >= 0 ? (flame_output_format)i : FLAME_OUTPUT_NONE;
		return 0;
	}
	char list[256];
	flame__format_list(outputs, NOUTPUTS, accept, 1, list, sizeof list);
	return flame__err(err, FLAME_EUSAGE, path, 0, FLAME__NO_OFFSET,
	                  "unknown extension '%s'; known: %s", ext, list);
}

int flame_write(flame_tree *t, flame_output_format format, const flame_render_opts *o,
                flame_output *out, flame_err *err)
{
	flame_render_opts defaults = FLAME_RENDER_OPTS_INIT;
	if ((unsigned)format < NOUTPUTS && outputs[format].write)
		return outputs[format].write(t, o ? o : &defaults, out, err);
	return flame__err(err, FLAME_EUSAGE, NULL, 0, FLAME__NO_OFFSET,
	                  "no writer for output format %d", (int)format);
}
