/* Frame colours: flamegraph.pl's palettes, its name hashes (so the same name gets the
 * same colour as in flamegraph.pl's default mode), differential shading, background
 * gradients and the --cp palette map. Used by layout.c; the writers only read the
 * resulting RGB triples. */
#ifndef FLAME_WRITE_COLOR_H
#define FLAME_WRITE_COLOR_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"

typedef struct flame__rgb {
	uint8_t r, g, b;
} flame__rgb;

/* Colour modes (flamegraph.pl): default = deterministic per-name value (its
 * random_namehash: Perl's srand(sum of bytes); rand()), --hash = namehash of the name
 * and of its reverse, --random = fresh random values per frame. */
enum { FLAME__COLOR_NAME = 0, FLAME__COLOR_HASH = 1, FLAME__COLOR_RANDOM = 2 };

typedef struct flame__colorer {
	int palette;      /* index into the palette table (see color.c) */
	int mode;         /* FLAME__COLOR_* */
	uint64_t rng;     /* state for FLAME__COLOR_RANDOM (48-bit LCG, drand48's) */
	flame_palette *map; /* --cp map or NULL */
} flame__colorer;

/** 0 when `name` is a known palette (hot mem io wakeup chain java js perl python rust
 * red green blue aqua yellow purple orange), else -1. */
int flame__palette_lookup(const char *name);

/** Set up a colorer for palette `palette_name`, mode from FLAME_RENDER_HASH/RANDOM in
 * `flags`, `seed` for random mode, optional palette map. -1 for an unknown palette. */
int flame__colorer_init(flame__colorer *c, const char *palette_name, unsigned flags,
                        uint64_t seed, flame_palette *map);

/** Colour of a frame named `name` (raw name, annotations like _[k] included, as
 * flamegraph.pl passes them). "-" and "--" get its fixed greys. With a palette map, a
 * known name returns its mapped colour and an unknown one is added (FLAME_ENOMEM if
 * that fails; the colour is still set). */
int flame__color_name(flame__colorer *c, const char *name, size_t len, flame__rgb *out);

/** flamegraph.pl's color_scale: white for 0, shades of red for growth (value > 0) and
 * blue for reduction, relative to `max` (> 0); `negate` swaps the hues. */
flame__rgb flame__color_delta(double value, double max, int negate);

/** Background gradient for --bgcolors (yellow blue green grey #rrggbb); NULL picks by
 * palette as flamegraph.pl does. -1 for an unrecognised value. */
int flame__bgcolors(const char *bgcolors, const char *palette, flame__rgb *top, flame__rgb *bottom);

/** Parse "#rrggbb" or "rgb(r,g,b)"; -1 when neither. */
int flame__parse_color(const char *s, flame__rgb *out);

/** Format as "#rrggbb" (8 bytes with NUL). */
void flame__rgb_hex(flame__rgb c, char out[8]);
#endif
