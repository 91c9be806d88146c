/* Sites of perf.data's user frames (see perfdata-sites.h). A frame is fed as perfdata.c
 * feeds it, and the id it added to the sample (the leaf-most, when the name was split) is
 * made the frame of that name at its site (core/sites.h). The site of a line is kept in
 * the line's memo word with its mapping, so a frame seen before costs two lookups: the
 * mapping and the frame. */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "perfdata-lines.h"
#include "perfdata-sites.h"

enum { MAX_LINES = 64, MAPS = 8 };

struct flame__pdsites {
	flame__sites *s;
	flame__pdsym *sym;
	flame__cfi *cfi;
	flame__pdlines *lines;
	flame__pdline fr[MAX_LINES];
	struct {               /* the last mappings asked for, and their index + 1 in s */
		flame__pd_map m;
		uint32_t map;
	} last[MAPS];
	unsigned next;         /* the entry replaced next */
};

flame__pdsites *flame__pdsites_new(flame__sites *s, flame__pdsym *sym, flame__cfi *cfi)
{
	flame__pdsites *ps = calloc(1, sizeof *ps);
	if (ps && !(ps->lines = flame__pdlines_new())) {
		free(ps);
		return NULL;
	}
	if (ps) {
		ps->s = s;
		ps->sym = sym;
		ps->cfi = cfi;
	}
	return ps;
}

void flame__pdsites_free(flame__pdsites *ps)
{
	if (!ps)
		return;
	flame__pdlines_free(ps->lines);
	free(ps);
}

/* The site table's mapping of m (index + 1; 0 when out of memory): its file, build id in
 * hex, and what its locations have (functions always; file names, lines and inline
 * frames when the file has DWARF). */
static uint32_t map_of(flame__pdsites *ps, const flame__pd_map *m, flame__cfi_file *f)
{
	for (unsigned i = 0; i < MAPS; i++)
		if (ps->last[i].map && m->id == ps->last[i].m.id && m->start == ps->last[i].m.start &&
		    m->end == ps->last[i].m.end && m->pgoff == ps->last[i].m.pgoff)
			return ps->last[i].map;
	char hex[41];
	size_t nb = m->bidlen > 20 ? 20 : m->bidlen;
	for (size_t i = 0; i < nb; i++) {
		hex[2 * i] = "0123456789abcdef"[m->bid[i] >> 4];
		hex[2 * i + 1] = "0123456789abcdef"[m->bid[i] & 15];
	}
	flame__map x = {flame__sites_str(ps->s, m->file, strlen(m->file)),
	                flame__sites_str(ps->s, hex, 2 * nb),
	                f && flame__cfi_debuginfo(f) ? 15u : 1u,
	                {m->start, m->end, m->pgoff, {"", 0}, {"", 0}}};
	if (x.file == FLAME__ID_NONE || x.build_id == FLAME__ID_NONE)
		return 0;
	unsigned k = ps->next++ % MAPS;
	ps->last[k].m = *m;
	return ps->last[k].map = flame__sites_map(ps->s, &x);
}

/* The site of line `ln` (NULL: none known; the function is the frame's name `nm`) at
 * `at` in mapping `map`, flags `fl`: its index, FLAME__ID_NONE when out of memory. */
static uint32_t site_of(flame__pdsites *ps, const flame__pdline *ln, const flame__name *nm,
                        uint64_t at, uint32_t map, uint32_t fl)
{
	if (ln && *ln->memo >> 32 == map + 1ull)
		return (uint32_t)*ln->memo;
	flame__site_key k = {0, 0, 0, map, 0, 0, at, fl};
	if (ln) {
		k.fn = flame__sites_str(ps->s, ln->fn.ptr, ln->fn.len);
		k.sys = flame__sites_str(ps->s, ln->sys.ptr, ln->sys.len);
		k.file = flame__sites_str(ps->s, ln->file.ptr, ln->file.len);
		k.line = ln->line;
		k.start_line = ln->start_line;
	} else {
		k.fn = k.sys = flame__sites_str(ps->s, nm->ptr, nm->len);
	}
	if (k.fn == FLAME__ID_NONE || k.sys == FLAME__ID_NONE || k.file == FLAME__ID_NONE)
		return FLAME__ID_NONE;
	uint32_t site = flame__sites_put(ps->s, &k);
	if (ln && site != FLAME__ID_NONE)
		*ln->memo = (map + 1ull) << 32 | site;
	return site;
}

/* The frame the feed added at depth `from` (if it added one) put at its site. */
static int put_site(flame__pdsites *ps, flame__perf_feed *f, size_t from,
                    const flame__pdline *ln, uint64_t at, uint32_t map, uint32_t fl)
{
	size_t n;
	uint32_t *ids = flame__perf_feed_frames(f, &n);
	if (from >= n) /* the options skipped it */
		return 0;
	flame__intern *names = flame__perf_feed_names(f);
	uint32_t site = site_of(ps, ln, flame__intern_get(names, ids[from]), at, map, fl);
	if (site == FLAME__ID_NONE ||
	    (ids[from] = flame__sites_frame(ps->s, names, ids[from], site)) == FLAME__ID_NONE)
		return FLAME_ENOMEM;
	return 0;
}

static size_t depth(flame__perf_feed *f)
{
	size_t n;
	flame__perf_feed_frames(f, &n);
	return n;
}

int flame__pdsites_frame(flame__pdsites *ps, flame__perf_feed *f, uint32_t pid, uint64_t ip,
                         uint64_t at, flame_err *err)
{
	flame__pd_map m;
	flame__cfi_file *file = NULL;
	uint64_t vaddr = 0;
	uint32_t map = 0;
	int k = 0, rc = 0;
	if (flame__pdsym_map(ps->sym, pid, at, &m)) {
		file = m.elf ? flame__cfi_file_get(ps->cfi, &m) : NULL;
		if (file && !flame__cfi_vaddr(file, at - m.start + m.pgoff, &vaddr))
			file = NULL;
		if (!(map = map_of(ps, &m, file)))
			return flame__err_nomem(err);
		k = file ? flame__pdlines_at(ps->lines, file, m.id, vaddr, ps->fr, MAX_LINES) : 0;
	}
	if (k < 0)
		return flame__err_nomem(err);
	/* the inlined functions, innermost first, then the frame's own */
	for (int j = 0; j + 1 < k && !rc; j++) {
		size_t from = depth(f);
		const flame__pdline *ln = &ps->fr[j];
		rc = flame__perf_feed_frame(f, ln->text.ptr, ln->text.len, ln->tmemo, err);
		if (!rc)
			rc = put_site(ps, f, from, ln, at, map, FLAME__SITE_INLINED);
	}
	const char *p;
	size_t n;
	uint64_t *memo;
	size_t from = depth(f);
	if (!rc && flame__pdsym_frame(ps->sym, pid, FLAME__PD_USER, 0, ip, &p, &n, &memo))
		return flame__err_nomem(err);
	if (!rc)
		rc = flame__perf_feed_frame(f, p, n, memo, err);
	if (!rc)
		rc = put_site(ps, f, from, k ? &ps->fr[k - 1] : NULL, at, map, 0);
	return rc == FLAME_ENOMEM ? flame__err_nomem(err) : rc;
}
