/* Fuzz target for the writers: the input is parsed as folded text (2- or 3-column, so
 * differential pictures are drawn too), then written as SVG, folded and pprof to
 * /dev/null (an output written in place), and laid out as PNG and PDF are (the cairo
 * drawing itself is left out: it only paints the layout, and would dominate the time).
 * The first byte picks render options. Hostile names must come out escaped or refused,
 * never crash, hang or allocate without bound. Built as a libFuzzer target with
 * -Dfuzzing=enabled; otherwise (FLAME_FUZZ_MAIN) a plain program that runs the target
 * once per file named on the command line. */
#include "fuzz.h"
#include "libflame/write/layout.h"

/* The tree and the render options a writer draws. */
typedef struct picture {
	flame_tree *t;
	const flame_render_opts *ro;
} picture;

static int write_svg(void *p, flame_output *out, flame_err *err)
{
	return flame_write_svg(((picture *)p)->t, ((picture *)p)->ro, out, err);
}

static int write_folded(void *p, flame_output *out, flame_err *err)
{
	return flame_write_folded(((picture *)p)->t, out, err);
}

static int write_pprof(void *p, flame_output *out, flame_err *err)
{
	return flame_write_pprof(((picture *)p)->t, out, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick = size ? data[0] : 0;
	flame_parse_opts po = FLAME_PARSE_OPTS_INIT;
	po.format = FLAME_FORMAT_FOLDED;
	flame_tree *t = flame_fuzz_parse(data + (size > 0), size - (size > 0), &po, 1);
	if (!t)
		return 0;
	flame_render_opts ro = FLAME_RENDER_OPTS_INIT;
	ro.title = "<t>&\"";
	ro.subtitle = (pick & 1) ? "sub]]>" : NULL;
	ro.flags = pick >> 4;
	ro.sort = (pick & 2) ? FLAME_ORDER_NAME : FLAME_ORDER_WEIGHT;
	ro.diff_mode = (flame_diff_mode)((pick >> 2) & 1);
	ro.min_width = (pick & 8) ? 0 : 0.1;
	static const char *const palettes[] = {"hot", "java", "mem", "rust"};
	ro.colors = palettes[(pick >> 2) & 3];
	ro.seed = 1;
	picture p = {t, &ro};
	flame_fuzz_write_null(write_svg, &p);
	flame_fuzz_write_null(write_folded, &p);
	flame_fuzz_write_null(write_pprof, &p);
	flame__layout L;
	flame_err err;
	if (flame__layout_compute(&L, t, &ro, &err) == 0)
		flame__layout_free(&L);
	flame_tree_free(t);
	return 0;
}

#include "replay-main.h"
