/* Frame colours as flamegraph.pl picks them: palettes, its name hashes, differential
 * shading, background gradients, and the --cp palette map (name->rgb(r,g,b) lines, read
 * as every input is: core/input + core/lines, gzip accepted, errors naming file:line).
 * The default mode reproduces flamegraph.pl's random_namehash exactly: Perl seeds its
 * drand48 with the byte sum of the name and draws once, so a name has one colour in
 * every graph, ours and flamegraph.pl's alike. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/intern.h"
#include "../core/lines.h"
#include "color.h"

/* ---- Perl's drand48 (FreeBSD's, used by Perl >= 5.20 on every platform) */

static uint64_t drand48_seed(uint32_t seed) { return 0x330eULL + ((uint64_t)seed << 16); }

static double drand48_next(uint64_t *x)
{
	*x = (0x5deece66dULL * *x + 0xb) & 0xffffffffffffULL;
	return (double)*x / 281474976710656.0; /* 2^48 */
}

/* flamegraph.pl's random_namehash: srand(unpack("%32W*", $name)); rand(1) */
static double sum_namehash(const char *p, size_t n)
{
	uint32_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += (unsigned char)p[i];
	uint64_t x = drand48_seed(sum);
	return drand48_next(&x);
}

/* flamegraph.pl's namehash: weights the first 3 bytes, after dropping a "module`" prefix. */
static double namehash(const char *p, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (p[i] == '`') {
			p += i + 1;
			n -= i + 1;
			break;
		}
	double vector = 0, weight = 1, max = 1;
	int mod = 10;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)p[i] % mod;
		vector += ((double)c / (mod++ - 1)) * weight;
		max += weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}

static double namehash_reversed(const char *p, size_t n)
{
	char tmp[64];
	/* namehash reads at most 3 bytes after the first backtick of the reversed name */
	size_t k = 0;
	for (size_t i = n; i-- > 0 && k < sizeof tmp;)
		tmp[k++] = p[i];
	if (k == sizeof tmp && n > sizeof tmp) {
		/* a backtick further away would shift the window: do it exactly */
		char *buf = malloc(n);
		if (buf) {
			for (size_t i = 0; i < n; i++)
				buf[i] = p[n - 1 - i];
			double v = namehash(buf, n);
			free(buf);
			return v;
		}
	}
	return namehash(tmp, k);
}

/* ---- palettes */

enum {
	P_HOT, P_MEM, P_IO, P_WAKEUP, P_CHAIN, P_JAVA, P_JS, P_PERL, P_PYTHON, P_RUST,
	P_RED, P_GREEN, P_BLUE, P_AQUA, P_YELLOW, P_PURPLE, P_ORANGE, P_COUNT
};

static const char *const palette_names[P_COUNT] = {
	"hot", "mem", "io", "wakeup", "chain", "java", "js", "perl", "python", "rust",
	"red", "green", "blue", "aqua", "yellow", "purple", "orange"};

int flame__palette_lookup(const char *name)
{
	for (int i = 0; name && i < P_COUNT; i++)
		if (strcmp(name, palette_names[i]) == 0)
			return i;
	return -1;
}

static int has(const char *p, size_t n, const char *s)
{
	return memmem(p, n, s, strlen(s)) != NULL;
}

static int ends(const char *p, size_t n, const char *s)
{
	size_t k = strlen(s);
	return n >= k && memcmp(p + n - k, s, k) == 0;
}

static int starts(const char *p, size_t n, const char *s)
{
	size_t k = strlen(s);
	return n >= k && memcmp(p, s, k) == 0;
}

static int java_prefix(const char *p, size_t n)
{
	/* m:^L?(java|javax|jdk|net|org|com|io|sun)/: */
	static const char *const pre[] = {"java/", "javax/", "jdk/", "net/", "org/",
	                                  "com/",  "io/",    "sun/"};
	if (n && p[0] == 'L') {
		for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
			if (starts(p + 1, n - 1, pre[i]))
				return 1;
	}
	for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
		if (starts(p, n, pre[i]))
			return 1;
	return 0;
}

/* The multi-hue palettes pick a basic palette from the name, as flamegraph.pl does
 * (python and rust follow the same idea: library code, language runtime, kernel). */
static int pick_palette(int type, const char *p, size_t n)
{
	switch (type) {
	case P_JAVA:
		if (ends(p, n, "_[j]"))
			return P_GREEN;
		if (ends(p, n, "_[i]"))
			return P_AQUA;
		if (java_prefix(p, n))
			return P_GREEN;
		if (has(p, n, ":::"))
			return P_GREEN;
		if (has(p, n, "::"))
			return P_YELLOW;
		if (ends(p, n, "_[k]"))
			return P_ORANGE;
		return P_RED;
	case P_PERL:
		if (has(p, n, "::"))
			return P_YELLOW;
		if (has(p, n, "Perl") || has(p, n, ".pl"))
			return P_GREEN;
		if (ends(p, n, "_[k]"))
			return P_ORANGE;
		return P_RED;
	case P_JS:
		if (ends(p, n, "_[j]"))
			return memchr(p, '/', n) ? P_GREEN : P_AQUA;
		if (has(p, n, "::"))
			return P_YELLOW;
		{
			const char *sl = memchr(p, '/', n);
			if (sl && has(sl, n - (size_t)(sl - p), ".js"))
				return P_GREEN;
		}
		if (memchr(p, ':', n))
			return P_AQUA;
		if (n == 1 && p[0] == ' ')
			return P_GREEN;
		if (has(p, n, "_[k]"))
			return P_ORANGE;
		return P_RED;
	case P_PYTHON:
		if (ends(p, n, "_[k]"))
			return P_ORANGE;
		if (has(p, n, "site-packages") || has(p, n, "dist-packages"))
			return P_AQUA;
		if (has(p, n, "lib/python") || has(p, n, "<frozen") || has(p, n, "<built-in"))
			return P_YELLOW;
		if (has(p, n, ".py"))
			return P_GREEN;
		return P_RED;
	case P_RUST: {
		const char *bt = memchr(p, '`', n);
		if (bt) {
			n -= (size_t)(bt + 1 - p);
			p = bt + 1;
		}
		if (starts(p, n, "core::") || starts(p, n, "std::") || starts(p, n, "alloc::") ||
		    starts(p, n, "<core::") || starts(p, n, "<std::") || starts(p, n, "<alloc::"))
			return P_ORANGE;
		if (has(p, n, "::"))
			return P_AQUA;
		if (ends(p, n, "_[k]"))
			return P_ORANGE;
		return P_YELLOW;
	}
	case P_WAKEUP:
		return P_AQUA;
	case P_CHAIN:
		return has(p, n, "_[w]") ? P_AQUA : P_BLUE;
	default:
		return type;
	}
}

static flame__rgb mk(int r, int g, int b) { return (flame__rgb){(uint8_t)r, (uint8_t)g, (uint8_t)b}; }

static flame__rgb palette_color(int type, double v1, double v2, double v3)
{
	switch (type) {
	case P_HOT:
		return mk(205 + (int)(50 * v3), (int)(230 * v1), (int)(55 * v2));
	case P_MEM:
		return mk(0, 190 + (int)(50 * v2), (int)(210 * v1));
	case P_IO: {
		int r = 80 + (int)(60 * v1);
		return mk(r, r, 190 + (int)(55 * v2));
	}
	case P_RED: {
		int x = 50 + (int)(80 * v1);
		return mk(200 + (int)(55 * v1), x, x);
	}
	case P_GREEN: {
		int x = 50 + (int)(60 * v1);
		return mk(x, 200 + (int)(55 * v1), x);
	}
	case P_BLUE: {
		int x = 80 + (int)(60 * v1);
		return mk(x, x, 205 + (int)(50 * v1));
	}
	case P_YELLOW: {
		int x = 175 + (int)(55 * v1);
		return mk(x, x, 50 + (int)(20 * v1));
	}
	case P_PURPLE: {
		int x = 190 + (int)(65 * v1);
		return mk(x, 80 + (int)(60 * v1), x);
	}
	case P_AQUA:
		return mk(50 + (int)(60 * v1), 165 + (int)(55 * v1), 165 + (int)(55 * v1));
	case P_ORANGE:
		return mk(190 + (int)(65 * v1), 90 + (int)(65 * v1), 0);
	default:
		return mk(0, 0, 0);
	}
}

/* ---- the palette map */

struct flame_palette {
	flame__intern names; /* id -> name, in the order first coloured */
	flame__rgb *c;       /* id -> colour */
	size_t cap;
};

int flame_palette_new(flame_palette **out, flame_err *err)
{
	flame_palette *p = calloc(1, sizeof *p);
	if (!p)
		return flame__err_nomem(err);
	flame__intern_init(&p->names);
	*out = p;
	return 0;
}

void flame_palette_free(flame_palette *p)
{
	if (!p)
		return;
	flame__intern_free(&p->names);
	free(p->c);
	free(p);
}

static flame__rgb *pm_find(const flame_palette *p, const char *name, size_t len)
{
	uint32_t id = flame__intern_find(&p->names, name, len);
	return id == FLAME__ID_NONE ? NULL : &p->c[id];
}

static int pm_put(flame_palette *p, const char *name, size_t len, flame__rgb c)
{
	if (flame__array_reserve_min(p->c, p->cap, (size_t)p->names.count + 1, 64))
		return FLAME_ENOMEM;
	uint32_t id = flame__intern_put(&p->names, name, len);
	if (id == FLAME__ID_NONE)
		return FLAME_ENOMEM;
	p->c[id] = c;
	return 0;
}

int flame__parse_color(const char *s, flame__rgb *out)
{
	unsigned r, g, b;
	int n = 0;
	if (s[0] == '#' && strlen(s) == 7 && strspn(s + 1, "0123456789abcdefABCDEF") == 6) {
		unsigned long v = strtoul(s + 1, NULL, 16);
		*out = mk((int)(v >> 16) & 255, (int)(v >> 8) & 255, (int)v & 255);
		return 0;
	}
	if (sscanf(s, "rgb(%u,%u,%u)%n", &r, &g, &b, &n) == 3 && n > 0 && s[n] == '\0' &&
	    r < 256 && g < 256 && b < 256) {
		*out = mk((int)r, (int)g, (int)b);
		return 0;
	}
	return -1;
}

/* NAME->COLOUR: the colour never contains "->", a name may: split at the last one. */
static int palette_line(void *ud, const char *line, size_t len, const flame__lines *c,
                        flame_err *err)
{
	flame_palette *p = ud;
	const char *arrow = NULL;
	for (size_t i = 0; i + 1 < len; i++)
		if (line[i] == '-' && line[i + 1] == '>')
			arrow = line + i;
	flame__rgb col;
	char *colour = arrow ? strndup(arrow + 2, len - (size_t)(arrow + 2 - line)) : NULL;
	if (arrow && !colour)
		return flame__err_nomem(err);
	int bad = !arrow || flame__parse_color(colour, &col);
	free(colour);
	if (bad)
		return flame__err(err, FLAME_EDATA, flame__lines_source(c), c->line_no,
		                  FLAME__NO_OFFSET, "expected NAME->rgb(R,G,B)");
	if (pm_put(p, line, (size_t)(arrow - line), col))
		return flame__err_nomem(err);
	return 0;
}

int flame_palette_load(flame_palette *p, const char *path, flame_err *err)
{
	struct stat st;
	if (stat(path, &st) != 0 && errno == ENOENT)
		return 0; /* as flamegraph.pl: no map yet, --cp starts one */
	return flame__lines_read_file(path, palette_line, p, err);
}

static int cmp_names(const void *a, const void *b)
{
	const flame__name *x = *(const flame__name *const *)a;
	const flame__name *y = *(const flame__name *const *)b;
	return flame__bytes_cmp(x->ptr, x->len, y->ptr, y->len);
}

int flame_palette_save(const flame_palette *p, const char *path, flame_err *err)
{
	size_t count = p->names.count;
	const flame__name **order = malloc((count ? count : 1) * sizeof *order);
	if (!order)
		return flame__err_nomem(err);
	for (uint32_t i = 0; i < count; i++)
		order[i] = flame__intern_get(&p->names, i);
	qsort(order, count, sizeof *order, cmp_names);
	flame_output *out = NULL;
	int rc = flame_output_open(&out, path, err);
	if (rc)
		goto done;
	for (size_t i = 0; i < count && !rc; i++) {
		const flame__rgb *c = &p->c[order[i] - p->names.names];
		char tail[40];
		int k = snprintf(tail, sizeof tail, "->rgb(%u,%u,%u)\n", c->r, c->g, c->b);
		rc = flame_output_write(out, order[i]->ptr, order[i]->len, err);
		if (!rc)
			rc = flame_output_write(out, tail, (size_t)k, err);
	}
	if (rc)
		flame_output_abort(out);
	else
		rc = flame_output_commit(out, err);
done:
	free(order);
	return rc;
}

/* ---- colouring */

int flame__colorer_init(flame__colorer *c, const char *palette_name, unsigned flags,
                        uint64_t seed, flame_palette *map)
{
	memset(c, 0, sizeof *c);
	c->palette = flame__palette_lookup(palette_name ? palette_name : "hot");
	if (c->palette < 0)
		return -1;
	c->mode = (flags & FLAME_RENDER_HASH)     ? FLAME__COLOR_HASH
	          : (flags & FLAME_RENDER_RANDOM) ? FLAME__COLOR_RANDOM
	                                          : FLAME__COLOR_NAME;
	if (c->mode == FLAME__COLOR_RANDOM && !seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
	c->rng = drand48_seed((uint32_t)(seed ^ (seed >> 32)));
	c->map = map;
	return 0;
}

int flame__color_name(flame__colorer *c, const char *name, size_t len, flame__rgb *out)
{
	if (len == 2 && name[0] == '-' && name[1] == '-') {
		*out = mk(160, 160, 160);
		return 0;
	}
	if (len == 1 && name[0] == '-') {
		*out = mk(200, 200, 200);
		return 0;
	}
	if (c->map) {
		const flame__rgb *e = pm_find(c->map, name, len);
		if (e) {
			*out = *e;
			return 0;
		}
	}
	double v1, v2, v3;
	if (c->mode == FLAME__COLOR_HASH) {
		v1 = namehash(name, len);
		v2 = v3 = namehash_reversed(name, len);
	} else if (c->mode == FLAME__COLOR_RANDOM) {
		v1 = drand48_next(&c->rng);
		v2 = drand48_next(&c->rng);
		v3 = drand48_next(&c->rng);
	} else {
		v1 = v2 = v3 = sum_namehash(name, len);
	}
	*out = palette_color(pick_palette(c->palette, name, len), v1, v2, v3);
	if (c->map && pm_put(c->map, name, len, *out))
		return FLAME_ENOMEM;
	return 0;
}

flame__rgb flame__color_delta(double value, double max, int negate)
{
	int r = 255, g = 255, b = 255;
	if (negate)
		value = -value;
	if (max <= 0)
		return mk(r, g, b);
	if (value > max)
		value = max;
	if (value < -max)
		value = -max;
	if (value > 0)
		g = b = (int)(210 * (max - value) / max);
	else if (value < 0)
		r = g = (int)(210 * (max + value) / max);
	return mk(r, g, b);
}

int flame__bgcolors(const char *bg, const char *palette, flame__rgb *top, flame__rgb *bottom)
{
	if (!bg || !*bg) {
		int p = flame__palette_lookup(palette ? palette : "hot");
		if (p == P_MEM)
			bg = "green";
		else if (p == P_IO || p == P_WAKEUP || p == P_CHAIN)
			bg = "blue";
		else if (p >= P_RED)
			bg = "grey";
		else
			bg = "yellow";
	}
	if (strcmp(bg, "yellow") == 0) {
		*top = mk(0xee, 0xee, 0xee);
		*bottom = mk(0xee, 0xee, 0xb0);
	} else if (strcmp(bg, "blue") == 0) {
		*top = mk(0xee, 0xee, 0xee);
		*bottom = mk(0xe0, 0xe0, 0xff);
	} else if (strcmp(bg, "green") == 0) {
		*top = mk(0xee, 0xf2, 0xee);
		*bottom = mk(0xe0, 0xff, 0xe0);
	} else if (strcmp(bg, "grey") == 0) {
		*top = mk(0xf8, 0xf8, 0xf8);
		*bottom = mk(0xe8, 0xe8, 0xe8);
	} else if (bg[0] == '#' && flame__parse_color(bg, top) == 0) {
		*bottom = *top;
	} else {
		return -1;
	}
	return 0;
}

void flame__rgb_hex(flame__rgb c, char out[8])
{
	static const char hx[] = "0123456789abcdef";
	out[0] = '#';
	out[1] = hx[c.r >> 4];
	out[2] = hx[c.r & 15];
	out[3] = hx[c.g >> 4];
	out[4] = hx[c.g & 15];
	out[5] = hx[c.b >> 4];
	out[6] = hx[c.b & 15];
	out[7] = '\0';
}
