/* Source sites kept beside the frames (flame_tree_keep_sites): for a frame, where it is
 * (function, file, line, the function's start line, address, mapping, inlined into the
 * frame below). Optional as time is: a tree that keeps none has no table (a NULL pointer),
 * and its frame ids are its name ids. With sites kept, a frame is a (name, site) pair
 * interned here: the first of a name with no site is the name id itself, any other an id
 * of the tree's name table that names the same bytes (flame__intern_dup), so every writer
 * reads a frame's name as it reads a name, and frames of one name at two sites are two
 * frames (two nodes). Strings (function and file names, build ids) are interned in a table
 * of their own, mappings in a small one. core/tree.c keeps frames true through merges. */
#ifndef FLAME_CORE_SITES_H
#define FLAME_CORE_SITES_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"
#include "array.h"
#include "intern.h"

#define FLAME__SITE_INLINED 1u

/* A site as the readers hand it in and the pprof writer reads it: strings by id in the
 * table's strs (0: ""), mapping index + 1 (0: none). */
typedef struct flame__site_key {
	uint32_t fn, sys, file, map;
	int64_t line, start_line;
	uint64_t address;
	uint32_t flags; /* FLAME__SITE_* */
} flame__site_key;

typedef struct flame__site {
	flame__site_key k;
	flame_site pub; /* the public view, strings into strs' arena */
} flame__site;

typedef struct flame__map {
	uint32_t file, build_id; /* ids in strs */
	uint32_t flags;          /* has_functions, has_filenames, has_line_numbers,
	                          * has_inline_frames: bits 0..3 */
	flame_mapping pub;
} flame__map;

/* A frame with a site: the name it carries (the name id found by its bytes) and the site
 * index; frame ids are their own (names ids). */
typedef struct flame__frame_key {
	uint32_t name, site, frame;
} flame__frame_key;

typedef struct flame__sites {
	flame__intern strs;              /* "" is id 0 */
	flame__array(flame__site) v;     /* sites, deduplicated */
	uint64_t *slots;
	size_t mask;
	flame__array(flame__map) maps;   /* mappings, deduplicated (few: found by a scan) */
	flame__array(flame__frame_key) frames;
	uint64_t *fslots;
	size_t fmask;
	uint32_t *site_of;               /* frame id -> site index + 1 (0: none) */
	size_t site_cap;                 /* entries of site_of (frame ids below it) */
	int64_t time_nanos;              /* the earliest profile's start (0: none) */
} flame__sites;

/** The profiles' start: the earliest of `ns` (> 0) and what the table has. */
static inline void flame__sites_time(flame__sites *s, int64_t ns)
{
	if (ns > 0 && (!s->time_nanos || ns < s->time_nanos))
		s->time_nanos = ns;
}

/** A new empty table, or NULL. */
flame__sites *flame__sites_new(void);
void flame__sites_free(flame__sites *s);

/** The id of string p[0..n) in the table's strings (FLAME__ID_NONE: out of memory). */
uint32_t flame__sites_str(flame__sites *s, const char *p, size_t n);

/** The index + 1 of mapping `m` (file and build_id ids of strs; pub's numbers); 0 on out
 * of memory. Equal mappings (start, limit, offset, file, build id) are one. */
uint32_t flame__sites_map(flame__sites *s, const flame__map *m);

/** The index of site `k` (FLAME__ID_NONE: out of memory). */
uint32_t flame__sites_put(flame__sites *s, const flame__site_key *k);

/** The frame naming `name` (a name id of `names`, as interned by its bytes) at site
 * `site` (an index of s): a new id of `names` the first time (FLAME__ID_NONE: out of
 * memory). */
uint32_t flame__sites_frame(flame__sites *s, flame__intern *names, uint32_t name, uint32_t site);

/** The site of frame `frame`, or NULL when it has none. */
static inline const flame__site *flame__sites_of(const flame__sites *s, uint32_t frame)
{
	if (!s || frame >= s->site_cap || !s->site_of[frame])
		return NULL;
	return &s->v.v[s->site_of[frame] - 1];
}

/** Site `k` of table `src` as a site of `dst` (strings and mapping imported): its index
 * in dst, FLAME__ID_NONE on out of memory. */
uint32_t flame__sites_import(flame__sites *dst, const flame__sites *src, uint32_t k);
#endif
