/* flame-render's drawing options as a reusable option table, so every CLI that draws a
 * flame graph (flame-diff, flame-merge) takes the same options with the same meanings.
 * A tool appends render_cli_opts to its own table (cli_table) and hands ids at or above
 * RENDER_OPT_BASE to render_cli_opt. Output path and --format stay with the tool. */
#ifndef FLAME_RENDER_OPTS_H
#define FLAME_RENDER_OPTS_H
#include "cli.h"

#define RENDER_OPT_BASE 1000

typedef struct render_cli {
	flame_render_opts ro;
	int cp;                    /* --cp: read and update the palette file */
	const char *palette_file;  /* NULL: palette.map */
	const char *nameattr_file;
	flame_palette *pal;
	flame_nameattr *na;
	int reverse;               /* --reverse: flame_reverse_stacks before drawing */
} render_cli;

extern const cli_opt render_cli_opts[];

void render_cli_init(render_cli *r);
/** Handle a render option (id >= RENDER_OPT_BASE): 0, or an exit code after a message. */
int render_cli_opt(render_cli *r, int id, const char *arg);
/** Check the options and load --nameattr and the --cp palette (before reading input). */
int render_cli_prepare(render_cli *r, flame_err *err);
/** Write `t` as `fmt` (flame_write): a picture is drawn with the options. */
int render_cli_write(render_cli *r, flame_output_format fmt, flame_tree *t, flame_output *o,
                     flame_err *err);
/** After a successful write: save the --cp palette. */
int render_cli_finish(render_cli *r, flame_err *err);
void render_cli_free(render_cli *r);
#endif
