/* Lookups in a table of format descriptors (formats.h): by name, by a path's extension, by
 * position, and the lists of known names for errors and help. The input and output tables
 * (parse/registry.c, write/formats.c) are searched through these, so both answer the same
 * way. */
#include <string.h>
#include <strings.h>
#include "formats.h"

static int takes(const struct flame__format *f, unsigned accept)
{
	return f->info.name && (f->parser || f->write) &&
	       (accept == 0 || (f->info.flags & accept) != 0);
}

int flame__format_find(const struct flame__format *tab, size_t n, const char *name, unsigned accept)
{
	for (size_t i = 0; name && i < n; i++)
		if (takes(&tab[i], accept) && strcmp(tab[i].info.name, name) == 0)
			return (int)i;
	return -1;
}

const char *flame__format_ext(const char *path)
{
	if (!path || strcmp(path, "-") == 0)
		return NULL;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	return dot && dot != base ? dot : NULL;
}

int flame__format_by_path(const struct flame__format *tab, size_t n, const char *path,
                          unsigned accept)
{
	const char *ext = flame__format_ext(path);
	if (!ext)
		return -1;
	/* only the base name may match: "dir.svg/out" has no extension */
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base), best_len = 0;
	int best = -1;
	for (size_t i = 0; i < n; i++) {
		if (!takes(&tab[i], accept))
			continue;
		for (const char *const *e = tab[i].info.extensions; e && *e; e++) {
			size_t k = strlen(*e);
			if (k > best_len && k < len && strcasecmp(base + len - k, *e) == 0) {
				best = (int)i;
				best_len = k;
			}
		}
	}
	return best;
}

static void append(char *buf, size_t cap, size_t *len, const char *sep, const char *s)
{
	size_t need = strlen(sep) + strlen(s);
	if (*len + need + 1 > cap)
		return;
	memcpy(buf + *len, sep, strlen(sep));
	memcpy(buf + *len + strlen(sep), s, strlen(s) + 1);
	*len += need;
}

void flame__format_list(const struct flame__format *tab, size_t n, unsigned accept, int exts,
                        char *buf, size_t cap)
{
	size_t len = 0;
	if (cap)
		buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!takes(&tab[i], accept))
			continue;
		if (!exts)
			append(buf, cap, &len, len ? ", " : "", tab[i].info.name);
		for (const char *const *e = tab[i].info.extensions; exts && e && *e; e++)
			append(buf, cap, &len, len ? " " : "", *e);
	}
}

const flame_format_info *flame__format_nth(const struct flame__format *tab, size_t n, size_t i)
{
	for (size_t j = 0; j < n; j++)
		if (takes(&tab[j], 0) && i-- == 0)
			return &tab[j].info;
	return NULL;
}

size_t flame__format_available(const struct flame__format *tab, size_t n)
{
	size_t c = 0;
	for (size_t j = 0; j < n; j++)
		c += takes(&tab[j], 0);
	return c;
}
