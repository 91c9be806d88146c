/* Renderer text and colour units: the escaping gate on hostile strings, flamegraph.pl's
 * colours (expected values computed with Perl from flamegraph.pl's own functions), delta
 * shading, background gradients, the --cp palette map, label fitting, count formatting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "write/color.h"
#include "write/escape.h"
#include "write/layout.h"

static const char *esc(const char *s, size_t n)
{
	static char buf[4096];
	size_t k = flame__xml_escape(buf, s, n);
	buf[k] = '\0';
	return buf;
}
#define ESC(lit) esc(lit, sizeof(lit) - 1)

static void test_escape(void)
{
	CHECK_STR(ESC("</title><script>alert(1)</script>"),
	          "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
	CHECK_STR(ESC("]]>"), "]]&gt;");
	CHECK_STR(ESC("\"><svg onload=alert(1)>"), "&quot;&gt;&lt;svg onload=alert(1)&gt;");
	CHECK_STR(ESC("it's \"q\" & more"), "it&#39;s &quot;q&quot; &amp; more");
	CHECK_STR(ESC("a\tb\nc\rd"), "a&#9;b&#10;c&#13;d");
	/* control bytes XML 1.0 forbids, NUL included */
	CHECK_STR(ESC("x\001\002\033y\000z"), "x\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdy\xef\xbf\xbdz");
	CHECK_STR(ESC("del\177"), "del\177"); /* allowed in XML 1.0 */
	/* invalid UTF-8: stray bytes, truncated, overlong, surrogate, > U+10FFFF, U+FFFE */
	CHECK_STR(ESC("a\xff" "b"), "a\xef\xbf\xbd" "b");
	CHECK_STR(ESC("end\xc3"), "end\xef\xbf\xbd");
	CHECK_STR(ESC("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(ESC("\xe0\x80\xaf"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(ESC("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(ESC("\xf4\x90\x80\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(ESC("\xef\xbf\xbe"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* valid multi-byte text passes unchanged */
	CHECK_STR(ESC("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5");
	/* worst case stays within FLAME__ESCAPE_MAX */
	char in[64], out[FLAME__ESCAPE_MAX(64)];
	memset(in, '"', sizeof in);
	CHECK_EQ_U64(flame__xml_escape(out, in, sizeof in), FLAME__ESCAPE_MAX(64));
	/* repair without markup escaping (cairo text) */
	char r[32];
	size_t k = flame__utf8_repair(r, "<a>\xff&", 5);
	r[k] = '\0';
	CHECK_STR(r, "<a>\xef\xbf\xbd&");
}

static const char *hex_of(flame__colorer *c, const char *name)
{
	static char hex[8];
	flame__rgb rgb;
	flame__color_name(c, name, strlen(name), &rgb);
	flame__rgb_hex(rgb, hex);
	return hex;
}

static void test_colors(void)
{
	flame__colorer c;
	CHECK(flame__colorer_init(&c, "hot", 0, 0, NULL) == 0);
	/* flamegraph.pl default (random_namehash): foo -> rgb(220,71,17), "" -> rgb(213,39,9) */
	CHECK_STR(hex_of(&c, "foo"), "#dc4711");
	CHECK_STR(hex_of(&c, ""), "#d52709");
	CHECK_STR(hex_of(&c, "--"), "#a0a0a0");
	CHECK_STR(hex_of(&c, "-"), "#c8c8c8");
	/* --hash (namehash of the name and of its reverse) */
	CHECK(flame__colorer_init(&c, "hot", FLAME_RENDER_HASH, 0, NULL) == 0);
	CHECK_STR(hex_of(&c, "foo"), "#f7c72f");            /* rgb(247,199,47) */
	CHECK_STR(hex_of(&c, "libc.so`memcpy"), "#f09027"); /* rgb(240,144,39) */
	CHECK(flame__colorer_init(&c, "green", FLAME_RENDER_HASH, 0, NULL) == 0);
	CHECK_STR(hex_of(&c, "a"), "#56e956"); /* rgb(86,233,86) */
	/* java palette: java/ packages green, others red, by name */
	CHECK(flame__colorer_init(&c, "java", 0, 0, NULL) == 0);
	CHECK_STR(hex_of(&c, "java/lang/Thread.run"), "#4fe34f"); /* rgb(79,227,79) */
	CHECK_STR(hex_of(&c, "Interpreter"), "#f16e6e");          /* rgb(241,110,110) */
	CHECK(flame__colorer_init(&c, "nope", 0, 0, NULL) == -1);
	CHECK(flame__palette_lookup("rust") >= 0 && flame__palette_lookup("python") >= 0);
	/* --random: differs between seeds, same for the same seed */
	char a[8], b[8];
	flame__colorer_init(&c, "hot", FLAME_RENDER_RANDOM, 1, NULL);
	strcpy(a, hex_of(&c, "foo"));
	flame__colorer_init(&c, "hot", FLAME_RENDER_RANDOM, 1, NULL);
	strcpy(b, hex_of(&c, "foo"));
	CHECK_STR(a, b);
	/* delta shading (flamegraph.pl color_scale) */
	char h[8];
	flame__rgb_hex(flame__color_delta(5, 10, 0), h);
	CHECK_STR(h, "#ff6969");
	flame__rgb_hex(flame__color_delta(-5, 10, 0), h);
	CHECK_STR(h, "#6969ff");
	flame__rgb_hex(flame__color_delta(-5, 10, 1), h);
	CHECK_STR(h, "#ff6969");
	flame__rgb_hex(flame__color_delta(0, 10, 0), h);
	CHECK_STR(h, "#ffffff");
	/* backgrounds */
	flame__rgb top, bot;
	CHECK(flame__bgcolors(NULL, "hot", &top, &bot) == 0 && bot.b == 0xb0);
	CHECK(flame__bgcolors(NULL, "mem", &top, &bot) == 0 && bot.g == 0xff && bot.r == 0xe0);
	CHECK(flame__bgcolors(NULL, "io", &top, &bot) == 0 && bot.b == 0xff && bot.r == 0xe0);
	CHECK(flame__bgcolors("#102030", "hot", &top, &bot) == 0 && top.r == 0x10 && bot.b == 0x30);
	CHECK(flame__bgcolors("pink", "hot", &top, &bot) == -1);
	CHECK(flame__bgcolors("#12345", "hot", &top, &bot) == -1);
}

static void test_palette_map(void)
{
	char path[] = "/tmp/flame-palette-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char *text = "b->rgb(1,2,3)\na->b->rgb(4,5,6)\n";
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	flame_palette *p = NULL;
	CHECK(flame_palette_new(&p, NULL) == 0);
	flame_err err;
	CHECK(flame_palette_load(p, path, &err) == 0);
	flame__colorer c;
	flame__colorer_init(&c, "hot", 0, 0, p);
	CHECK_STR(hex_of(&c, "b"), "#010203");
	CHECK_STR(hex_of(&c, "a->b"), "#040506"); /* split at the last "->" */
	CHECK_STR(hex_of(&c, "foo"), "#dc4711");  /* new names get the palette colour... */
	CHECK(flame_palette_save(p, path, &err) == 0);
	FILE *f = fopen(path, "r");
	char buf[256] = {0};
	CHECK(fread(buf, 1, sizeof buf - 1, f) > 0);
	fclose(f);
	/* ...and are saved, sorted by name */
	CHECK_STR(buf, "a->b->rgb(4,5,6)\nb->rgb(1,2,3)\nfoo->rgb(220,71,17)\n");
	flame_palette_free(p);
	/* a bad line names file and line */
	f = fopen(path, "w");
	fputs("ok->rgb(1,2,3)\nbroken line\n", f);
	fclose(f);
	CHECK(flame_palette_new(&p, NULL) == 0);
	CHECK(flame_palette_load(p, path, &err) == FLAME_EDATA && err.line == 2);
	flame_palette_free(p);
	unlink(path);
	/* a missing file is an empty map */
	CHECK(flame_palette_new(&p, NULL) == 0);
	CHECK(flame_palette_load(p, "/nonexistent/palette.map", &err) == 0);
	flame_palette_free(p);
}

static const char *label(const char *name, size_t chars)
{
	static char buf[256];
	flame__frame f = {.name = name, .name_len = (uint32_t)strlen(name)};
	flame__frame_label(&f, chars, buf, sizeof buf);
	return buf;
}

static void test_labels(void)
{
	CHECK_STR(label("abcdefghij", 20), "abcdefghij");
	CHECK_STR(label("abcdefghij", 10), "abcdefghij");
	CHECK_STR(label("abcdefghij", 9), "abcdefg..");
	CHECK_STR(label("abcdefghij", 3), "a..");
	CHECK_STR(label("abcdefghij", 2), "");
	CHECK_STR(label("read_[k]", 20), "read"); /* annotation stripped */
	/* code points, never a cut inside one */
	CHECK_STR(label("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4), "\xc3\xa9\xc3\xa9..");
	CHECK_STR(label("\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac", 3), "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac");
	flame__layout L = {.font_size = 12, .font_width = 0.59};
	CHECK_EQ_U64(flame__layout_fit_chars(&L, 100), 14); /* int(100 / 7.08) */
	CHECK_EQ_U64(flame__layout_fit_chars(&L, 21), 2);
}

static const char *count(unsigned scale, double factor, uint64_t v)
{
	static char buf[96];
	flame__layout L = {.scale = scale, .factor = factor};
	flame__format_count(&L, v, buf, sizeof buf);
	return buf;
}

static void test_counts(void)
{
	CHECK_STR(count(0, 1, 0), "0");
	CHECK_STR(count(0, 1, 999), "999");
	CHECK_STR(count(0, 1, 1234567), "1,234,567");
	CHECK_STR(count(0, 1, 18446744073709551615ULL), "18,446,744,073,709,551,615");
	CHECK_STR(count(3, 1, 1500), "1.5");
	CHECK_STR(count(3, 1, 1234567250), "1,234,567.25");
	CHECK_STR(count(0, 2, 21), "42");
	CHECK_STR(count(0, 0.5, 3), "2"); /* flamegraph.pl rounds factored integer counts */
	CHECK_STR(count(2, 0.5, 126), "0.63");
}

int main(void)
{
	RUN(test_escape);
	RUN(test_colors);
	RUN(test_palette_map);
	RUN(test_labels);
	RUN(test_counts);
	return harness_done();
}
