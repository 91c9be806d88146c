/* The pprof reader's parts (parse/), and what they hand one another. pprof.c (the probe
 * and the entry) reads the input whole and drives, in order:
 *   pprof-wire.c     profile.proto into the tables below, every index checked
 *   pprof-frames.c   each location's frames named and interned, drop_frames marked
 *   pprof-labels.c   the label filters of the options (--tag, --tag-ignore,
 *                    --before-tag/--after-tag) and --group-by's root frame
 *   pprof-samples.c  the samples, through the filters, to stacks in the tree
 * The tables keep each Mapping, Function, Location and Line whole, as profile.proto
 * defines them, plus what the frames add to a location (fstart, fcount, prune...). */
#ifndef FLAME_PARSE_PPROF_H
#define FLAME_PARSE_PPROF_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "../core/array.h"
#include "../core/hash.h"
#include "../core/sink.h"
#include "../core/slots.h"
#include "pbuf.h"

/* Decompressed profiles beyond this are refused (real ones are tens of MB). */
#define FLAME__PP_MAX_BYTES ((size_t)1 << 30)
/* Inlined locations let a few bytes name many frames; these bound what a hostile file
 * can make us allocate: frames per stack, and frames over all samples per input byte
 * (real profiles have about one frame per byte of samples). */
#define FLAME__PP_MAX_DEPTH ((size_t)1 << 20)
#define FLAME__PP_FRAMES_PER_BYTE 16

/* A string of the table: bytes [off, off + len) of the input. */
typedef struct flame__pp_span {
	uint32_t off, len;
} flame__pp_span;

typedef struct flame__pp_range {
	uint64_t start, end;
} flame__pp_range;

/* ValueType: string indexes (0, 0: none). */
typedef struct flame__pp_vtype {
	uint32_t type, unit;
} flame__pp_vtype;

/* String indexes that profile.proto makes optional read 0 ("") when past the table and
 * the reader never looked at them before (build_id): such profiles were read before. */
typedef struct flame__pp_mapping {
	uint64_t id, start, limit, file_offset;
	uint64_t off; /* the byte offset of the message, for errors */
	uint32_t file, build_id;
	uint8_t has_functions, has_filenames, has_lines, has_inline;
} flame__pp_mapping;

typedef struct flame__pp_func {
	uint64_t id, off;
	int64_t start_line;
	uint32_t name, sys, file;
} flame__pp_func;

typedef struct flame__pp_line {
	uint64_t fid;
	int64_t line, column;
	uint32_t fidx; /* index into fns, or UINT32_MAX: no function */
} flame__pp_line;

typedef struct flame__pp_loc {
	uint64_t id, mid, addr, off;
	uint32_t line0, nline;   /* its lines in lines[], line[0] the innermost */
	uint32_t midx;           /* index into maps, or UINT32_MAX */
	uint32_t fstart, fcount; /* frames (root-first) in frames[] (pprof-frames.c) */
	uint8_t is_folded;
	uint8_t prune;           /* 1: drop this location and all leafward of it */
	uint8_t beneath;         /* 1: keep it (its frames already trimmed), drop leafward */
} flame__pp_loc;

/* Id -> index + 1 (0: none) over one table: a direct array when the ids are small and
 * dense (Go's), else core/slots.h over the table's own ids (element i's at base + i *
 * stride). */
typedef struct flame__pp_ids {
	uint32_t *dense;
	uint64_t ndense;
	uint64_t *slots;
	size_t mask;
	const char *base;
	size_t stride;
} flame__pp_ids;

/* One profile: the input (owned by the caller), its tables, and its frames. */
typedef struct flame__pp {
	const char *src;
	const uint8_t *buf;
	size_t len;
	flame__array(flame__pp_span) str;
	flame__array(flame__pp_vtype) st; /* sample types */
	flame__array(flame__pp_mapping) maps;
	flame__array(flame__pp_func) fns;
	flame__array(flame__pp_loc) locs;
	flame__array(flame__pp_line) lines;
	flame__array(flame__pp_range) sruns; /* byte ranges holding only samples (field 2) */
	uint32_t default_st, drop, keep;     /* string indexes (0: none) */
	flame__pp_vtype pt;                  /* period_type */
	uint64_t period;                     /* 0: none, as a negative one */
	uint64_t duration;                   /* duration_nanos (0: none) */
	int64_t time_nanos;                  /* 0: none */
	flame__pp_ids mapm, fnm, locm;
	uint32_t *frames; /* every location's frame ids, root-first (pprof-frames.c) */
	size_t nframes;
	uint32_t *lone;   /* location id -> its one frame, or FLAME__PP_LONE_* (dense ids) */
} flame__pp;

/* lone[] values past every frame id: an id no location has, and a location that is not
 * one plain frame (inlined lines, or marked by drop_frames) */
#define FLAME__PP_LONE_NONE UINT32_MAX
#define FLAME__PP_LONE_LOC (UINT32_MAX - 1)

static inline flame_str flame__pp_str(const flame__pp *p, uint32_t i)
{
	return (flame_str){(const char *)p->buf + p->str.v[i].off, p->str.v[i].len};
}

typedef struct flame__pp_idkey {
	const flame__pp_ids *m;
	uint64_t id;
} flame__pp_idkey;

static inline int flame__pp_id_eq(const void *ctx, uint32_t entry)
{
	const flame__pp_idkey *k = (const flame__pp_idkey *)ctx;
	uint64_t id;
	memcpy(&id, k->m->base + (size_t)entry * k->m->stride, sizeof id);
	return id == k->id;
}

/** The index + 1 of the element with `id` (0: none). */
static inline uint32_t flame__pp_ids_get(const flame__pp_ids *m, uint64_t id)
{
	if (m->dense)
		return id < m->ndense ? m->dense[id] : 0;
	if (!m->slots)
		return 0;
	flame__pp_idkey k = {m, id};
	uint64_t s = m->slots[flame__slots_probe(m->slots, m->mask, (uint32_t)flame__mix64(id),
	                                         flame__pp_id_eq, &k)];
	return s ? flame__slot_entry(s) + 1 : 0;
}

/* ---- pprof-wire.c */

/** Read the whole message into the tables: the string table first, then everything but
 * the samples (whose byte ranges it notes in sruns), then every id resolved. */
int flame__pp_load(flame__pp *p, flame_err *err);
void flame__pp_free(flame__pp *p);
/** Errors naming the field's offset: its wire type is not `wt`; a string index past the
 * table. */
int flame__pp_want_wt(const flame__pp *p, const flame__pfield *f, int wt, const char *what,
                      flame_err *err);
int flame__pp_str_idx(const flame__pp *p, const flame__pfield *f, uint32_t *out,
                      const char *what, flame_err *err);

/* ---- pprof-frames.c */

/* Text built for a name (a frame's, a label's "key:value"). */
typedef struct flame__pp_text {
	char *p;
	size_t len, cap;
} flame__pp_text;

static inline int flame__pp_put(flame__pp_text *b, const char *s, size_t n)
{
	if (flame__array_reserve_min(b->p, b->cap, b->len + n + 1, 256))
		return FLAME_ENOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

/** Intern `b` as a frame name, with what folded text cannot hold replaced (';' by ':',
 * line ends by spaces): 0, or FLAME_ENOMEM. */
int flame__pp_intern(flame__sink *k, flame__pp_text *b, uint32_t *id);
/** drop_frames/keep_frames marked, then every location's frames named (as `flags`, the
 * FLAME_PPROF_* of flame_parse_opts), interned and laid out in frames; lone[] filled. */
int flame__pp_frames(flame__sink *k, flame__pp *p, unsigned flags, flame_err *err);

/* ---- pprof-labels.c */

typedef struct flame__pp_label {
	uint32_t key, str, unit;
	int64_t num;
	int is_num;
} flame__pp_label;

typedef struct flame__pp_tagf flame__pp_tagf;
/* The label options of one parse: its filters, compiled, and --group-by. */
typedef struct flame__pp_filters {
	flame__pp_tagf *focus, *ignore; /* --tag, --tag-ignore */
	size_t nfocus, nignore;
	flame__pp_tagf *side[2];        /* --before-tag / --after-tag: the columns a sample counts in */
	size_t nside[2];
	int split;                      /* either is given: the tree is differential */
	const char *group_by;           /* --group-by KEY, or NULL */
} flame__pp_filters;

int flame__pp_filters_compile(flame__pp_filters *fl, const flame_parse_opts *o,
                              flame_err *err);
void flame__pp_filters_free(flame__pp_filters *fl);
/** Whether a sample's labels are needed (any filter or --group-by). */
static inline int flame__pp_filters_any(const flame__pp_filters *fl)
{
	return fl->nfocus || fl->nignore || fl->split || fl->group_by;
}
/** Decode one Label message (field 3 of a Sample). */
int flame__pp_label_decode(const flame__pp *p, const flame__pbuf *b, const flame__pfield *f,
                           flame__pp_label *lb, flame_err *err);
/** The columns (0 and 1) a sample with `labels` counts in: in[0] = 1, in[1] = 0 without
 * --before-tag/--after-tag; both 0 when the filters drop it. */
void flame__pp_filters_columns(const flame__pp_filters *fl, const flame__pp *p,
                               const flame__pp_label *labels, size_t n, flame__pp_text *b,
                               uint64_t in[2]);
/** The --group-by root frame: the key's values joined by ',' (as pprof -tagroot). */
int flame__pp_group_frame(flame__sink *k, const flame__pp *p, const char *key,
                          const flame__pp_label *labels, size_t n, flame__pp_text *b,
                          uint32_t *id);

/* ---- pprof-samples.c */

/** Every sample of `p` (frames named) through the filters, its value `vidx` added to
 * `k`'s tree; negative values (diff profiles) subtracted at the end, with a warning
 * through `o` for stacks whose sum is negative. */
int flame__pp_samples(flame__sink *k, const flame__pp *p, const flame__pp_filters *fl,
                      size_t vidx, const flame_parse_opts *o, flame_err *err);
#endif
