/* Folded stacks reader (FlameGraph's collapsed format).
 *
 * Example input:                       Example stacks:
 *   main;work;hot 12                     [main, work, hot] x 12
 *   main;work 3.5                        [main, work]      x 3.5   (fractional)
 *   main;a;b 5 9                         [main, a, b]      before 5, after 9
 *
 * Grammar (as flamegraph.pl reads it, in folded-line.h, shared with the text merge of
 * sorted files): `stack WS count`, where count is the text after the last run of
 * whitespace, `\d+(\.\d*)?`; if the stack part itself ends in `WS count`, the line is
 * differential: `stack before after` (column 0 = before, column 1 = after). Frames are
 * split on ';' and may contain spaces.
 * Fractional counts are kept exactly: the tree's decimal scale rises to the most
 * decimals seen (at most 9; more is an error, never a silent rounding).
 * Consecutive lines usually share a prefix (sorted input), so frames up to the last
 * ';' of the common prefix reuse the previous line's ids instead of being hashed, and a
 * line whose stack sorts after the previous one is appended to the (sorted) stack table
 * without a lookup. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/hash.h"
#include "binary.h"
#include "folded-line.h"
#include "parser.h"

static int scaled(flame__sink *t, const flame__count *c, uint64_t *out, const char *src, uint64_t line,
                  flame_err *err)
{
	if (c->dec > flame__sink_scale(t)) {
		int rc = flame__sink_rescale(t, c->dec, err);
		if (rc)
			return flame__err(err, rc, src, line, FLAME__NO_OFFSET,
			                  "more than 9 decimal places in a count, or the rescaled counts overflow");
	}
	uint64_t m = flame__pow10[flame__sink_scale(t) - c->dec];
	if (c->mant && c->mant > UINT64_MAX / m)
		return flame__err(err, FLAME_ERANGE, src, line, FLAME__NO_OFFSET,
		                  "count overflows 64 bits");
	*out = c->mant * m;
	return 0;
}

enum { FRAME_SEP = ';' };

/* Intern the ';'-separated frames of f[0..end) into ids[fi...], hashing each name in the
 * same pass that finds its end: 8 bytes at a time, a ';' found with the "has zero byte"
 * bit trick. Sets *nframes to the total frame count. */
typedef struct memo {
	uint64_t *hash; /* per depth: hash and id of the last name interned there */
	uint32_t *id;
	size_t cap;
} memo;

/* Per-parse state: the previous line (its stack text, frame ids and ';' offsets) so a
 * line only scans and interns the frames after the prefix it shares with it. */
typedef struct state {
	flame__sink k; /* where the stacks go (the tree) */
	const flame_parse_opts *o;
	const char *src;
	uint32_t *ids;   /* ids of the previous line's frames, then of this line's */
	uint32_t *sep;   /* sep[i]: offset of the ';' ending frame i of the previous line */
	size_t cap;      /* of ids and sep */
	const char *prev; /* the previous line's stack text: in the block, or in `keep` */
	size_t prev_n, prev_frames;
	char *keep;
	size_t keep_cap;
	int last_ok;     /* the previous line's stack is the table's last */
	uint64_t nul;    /* a NUL seen by intern_frames: binary data */
	int scan_nul;    /* the tree held a name with a NUL before: every stack byte is looked
	                  * at, not only those of the names new to it */
	memo mo;
} state;

/* Room for `want` frames in ids, sep and the memo (which starts empty). 0 or -1. */
static int grow_frames(state *S, size_t want)
{
	size_t a = S->cap, b = S->cap, h = S->mo.cap, i = S->mo.cap, old = S->mo.cap;
	if (flame__array_reserve_min(S->ids, a, want, 64) ||
	    flame__array_reserve_min(S->sep, b, want, 64) ||
	    flame__array_reserve_min(S->mo.hash, h, want, 64) ||
	    flame__array_reserve_min(S->mo.id, i, want, 64))
		return -1;
	for (size_t k = old; k < h; k++)
		S->mo.hash[k] = 0, S->mo.id[k] = FLAME__ID_NONE;
	S->cap = S->mo.cap = h;
	return 0;
}

/* Intern the ';'-separated frames of f[0..end) of line p into ids[fi...], hashing each
 * name in the same pass that finds its end: 8 bytes at a time, a ';' found with the
 * "has zero byte" bit trick (lines.h guarantees 8 readable bytes past any line byte).
 * Records the ';' offsets in sep[]; returns the total frame count, or 0 on out of
 * memory. A NUL in the stack is noted in S->nul. Each stack byte is in a name, and a name
 * the tree holds already was looked at when it came (or the tree had one with a NUL,
 * then `scan` looks at every word as it passes): so only a new name is searched, once. */
static inline __attribute__((always_inline)) size_t
intern_frames_(state *S, const char *p, const char *f, const char *end, size_t fi, const int scan)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	const uint64_t seps = ones * (uint64_t)FRAME_SEP;
	flame__intern *names = S->k.names;
	uint64_t nul = 0;
	for (;;) {
		const char *s = f, *e;
		uint64_t h = FLAME__HASH_SEED;
		for (;;) {
			uint64_t w;
			memcpy(&w, s, 8);
			uint64_t x = w ^ seps;
			uint64_t m = (x - ones) & ~x & highs;
			size_t left = (size_t)(end - s);
			if (!m && left > 8) {
				if (scan)
					nul |= flame__nul_mask64(w);
				h = flame__hash_word(h, w);
				s += 8;
				continue;
			}
			/* the first ';' (bytes above it may be false hits), or the stack's end */
			size_t b = m ? (unsigned)__builtin_ctzll(m) >> 3 : 8;
			if (b > left)
				b = left;
			if (scan)
				nul |= flame__nul_mask64(w) & (b == 8 ? ~0ULL : (1ULL << (8 * b)) - 1);
			if (b == 8)
				h = flame__hash_word(h, w);
			else if (b)
				h = flame__hash_tail(h, w & ((1ULL << (8 * b)) - 1));
			e = s + b;
			break;
		}
		size_t len = (size_t)(e - f);
		if (fi + 1 >= S->cap && grow_frames(S, fi + 2))
			return 0;
		h = flame__hash_final(h, len);
		uint32_t id = FLAME__ID_NONE;
		if (S->mo.hash[fi] == h) {
			/* the name last interned at this depth, likely again (and cached) */
			const flame__name *nm = flame__intern_get(names, S->mo.id[fi]);
			if (nm->len == len && flame__name_eq_padded(nm->ptr, f, len))
				id = S->mo.id[fi];
		}
		if (id == FLAME__ID_NONE) {
			id = flame__intern_find_padded(names, f, len, h);
			if (id == FLAME__ID_NONE) {
				id = flame__intern_put_hashed(names, f, len, h);
				if (!scan && flame__has_nul(f, len))
					nul = 1;
			}
			if (id == FLAME__ID_NONE)
				return 0;
			S->mo.hash[fi] = h;
			S->mo.id[fi] = id;
		}
		S->ids[fi++] = id;
		if (e == end) {
			S->nul |= nul;
			return fi;
		}
		S->sep[fi - 1] = (uint32_t)(e - p);
		f = e + 1;
	}
}

/* Two copies of the loop, so the common one carries no test of `scan` per word. */
static size_t intern_frames(state *S, const char *p, const char *f, const char *end, size_t fi)
{
	return S->scan_nul ? intern_frames_(S, p, f, end, fi, 1) : intern_frames_(S, p, f, end, fi, 0);
}

/* 1 when a name of `names` holds a NUL (one that came from pprof, say). */
static int names_hold_nul(const flame__intern *names)
{
	for (uint32_t id = 0; id < names->count; id++) {
		const flame__name *nm = flame__intern_get(names, id);
		if (flame__has_nul(nm->ptr, nm->len))
			return 1;
	}
	return 0;
}

/* Folded if, of the first lines (up to 32 complete ones besides '#' comments), those
 * that are `frames count` (an overflowing count still counts: parsing reports it; no
 * stack ends in ':', as in a "Key: value" report such as `jfr summary`) outnumber the
 * others: none of those, or a few (one in four) when some good line holds a ';'. A
 * header comment or one garbled line must not hide a folded file; the parser then skips
 * them with a warning. */
static int probe(const char *buf, size_t len)
{
	size_t i = 0;
	int good = 0, bad = 0, semi = 0;
	while (i < len && good + bad < 32) {
		const char *nl = memchr(buf + i, '\n', len - i);
		if (!nl && good + bad)
			break; /* a cut last line proves nothing */
		size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;
		const char *p = buf + i;
		i += n + 1;
		if (n && p[n - 1] == '\r')
			n--;
		if (n == 0 || p[0] == '#')
			continue;
		flame__count c;
		size_t m = n;
		int rc = flame__count_take(p, &m, &c);
		if (rc == -2 || (rc == 0 && m > 0 && p[m - 1] != ':')) {
			good++;
			semi |= memchr(p, ';', m ? m : n) != NULL;
		} else {
			bad++;
		}
	}
	/* nothing but blank lines and comments (a header), all of the input (shorter than the
	 * 64 KiB flame_parse peeks): folded text of no stacks, as an empty input is */
	if (good + bad == 0)
		return i >= len && len < 64 * 1024;
	return good > 0 && (bad == 0 || (semi && bad * 4 <= good + bad));
}

/* The header line p[0..n): `# countname=UNIT` and, in any order after it, `type=TYPE`
 * (pprof's sample type: "cpu") and `duration=NS` (the wall time covered); unknown keys are
 * skipped, for later versions. The unit is recorded as a parser of that format records
 * it (an input in other units than the tree's is refused). 1 when the line is one, 0 when
 * it is not (an ordinary comment), or a negative status. */
static int header(state *S, const char *p, size_t n, flame_err *err)
{
	static const char key[] = "# countname=";
	char unit[64] = "", type[64] = "";
	uint64_t duration = 0;
	if (n < sizeof key - 1 || memcmp(p, key, sizeof key - 1))
		return 0;
	while (n && (p[n - 1] == '\r' || p[n - 1] == ' '))
		n--;
	for (size_t i = 2; i < n;) {
		size_t j = i;
		while (j < n && p[j] != ' ')
			j++;
		const char *eq = memchr(p + i, '=', j - i);
		size_t k = eq ? (size_t)(eq - (p + i)) : 0, vn = eq ? j - i - k - 1 : 0;
		char *to = k == 9 && !memcmp(p + i, "countname", 9) ? unit
		           : k == 4 && !memcmp(p + i, "type", 4) ? type : NULL;
		if (to && vn < sizeof unit) {
			memcpy(to, eq + 1, vn);
			to[vn] = '\0';
		} else if (k == 8 && !memcmp(p + i, "duration", 8)) {
			for (size_t d = 0; d < vn && eq[1 + d] >= '0' && eq[1 + d] <= '9' &&
			                   duration <= (UINT64_MAX - 9) / 10; d++)
				duration = duration * 10 + (uint64_t)(eq[1 + d] - '0');
		}
		i = j + 1;
	}
	if (!unit[0])
		return 0;
	int rc = flame__sink_units(&S->k, unit, type[0] ? type : NULL, S->src, err);
	if (!rc && type[0])
		rc = flame__units_set_pprof(S->k.t, type, NULL, NULL, 0, 0);
	if (!rc)
		flame__units_set_duration(S->k.t, duration);
	return rc ? rc : 1;
}

/* Binary data read as folded would make junk stacks: stop at its first line. */
static int binary(const state *S, uint64_t line_no, uint64_t offset, flame_err *err)
{
	return flame__err(err, FLAME_EDATA, S->src, line_no, offset, FLAME__BINARY_MSG("folded text"));
}

/* The weights of a line's counts c[0..ncounts) at the tree's scale (raised to theirs). */
static int line_weights(state *S, const flame__count *c, int ncounts, uint64_t *w0,
                        uint64_t *w1, uint64_t line_no, flame_err *err)
{
	flame__sink *t = &S->k;
	int rc;
	if (ncounts == 2) {
		/* `stack before after`: the one with more decimals first: rescaling the tree must
		 * happen before the other is scaled, or that one would stay at the old scale */
		int a = c[1].dec > c[0].dec;
		if ((rc = scaled(t, &c[a], a ? w1 : w0, S->src, line_no, err)) ||
		    (rc = scaled(t, &c[!a], a ? w0 : w1, S->src, line_no, err)))
			return rc;
		flame__sink_set_differential(t);
		return 0;
	}
	return scaled(t, &c[0], w0, S->src, line_no, err);
}

/* How many bytes p and prev share from the start, lim at most: 8 at a time. */
static inline size_t shared_prefix(const char *p, const char *prev, size_t lim)
{
	size_t same = 0;
	while (same + 8 <= lim) {
		uint64_t a, b;
		memcpy(&a, p + same, 8);
		memcpy(&b, prev + same, 8);
		if (a != b)
			return same + ((unsigned)__builtin_ctzll(a ^ b) >> 3);
		same += 8;
	}
	while (same < lim && p[same] == prev[same])
		same++;
	return same;
}

/* One line p[0..n) (no '\n'). 0, or a negative status with *err set. */
static int parse_line(state *S, const char *p, size_t n, uint64_t line_no, uint64_t offset,
                      flame_err *err)
{
	flame__sink *t = &S->k;
	flame__count c[2];
	int ncounts = 1;
	size_t all = n;
	int h = n && p[0] == '#' ? header(S, p, n, err) : 0;
	if (h)
		return h < 0 ? h : 0;
	int cr = flame__folded_line(p, &n, c, &ncounts);
	if (cr == -1 && n == 0)
		return 0; /* a blank line */
	if (cr == -2)
		return flame__err(err, FLAME_ERANGE, S->src, line_no, offset,
		                  "count overflows 64 bits (or has more than 9 decimals)");
	if (cr || n == 0) {
		if (flame__has_nul(p, all))
			return binary(S, line_no, offset, err);
		flame__warn(S->o ? S->o->warn : NULL, S->o ? S->o->warn_ud : NULL,
		            "folded-invalid-line", S->src, line_no,
		            "invalid folded line (expected 'frame;frame... count')");
		return 0;
	}
	if (n >= UINT32_MAX)
		return flame__err(err, FLAME_ERANGE, S->src, line_no, offset, "line too long");
	uint64_t w0 = 0, w1 = 0;
	unsigned scale = flame__sink_scale(t);
	int rc = line_weights(S, c, ncounts, &w0, &w1, line_no, err);
	if (rc)
		return rc;
	/* frames shared with the previous line keep their ids */
	const char *prev = S->prev;
	size_t prev_n = S->prev_n;
	size_t same = shared_prefix(p, prev, n < prev_n ? n : prev_n);
	/* a line whose stack sorts after the table's last one is appended unlooked-up */
	if (scale != flame__sink_scale(t) && t->limit)
		S->last_ok = 0; /* rescaling read spilled runs back: a new table */
	int after = S->last_ok && same < n &&
	            (same == prev_n || (unsigned char)p[same] > (unsigned char)prev[same]);
	int repeat = same == n && same == prev_n;
	size_t nframes = S->prev_frames, before = flame__sink_count(t);
	if (!repeat) {
		size_t fi = 0; /* frames fully inside the common prefix */
		while (fi + 1 < S->prev_frames && S->sep[fi] < same)
			fi++;
		const char *f = fi ? p + S->sep[fi - 1] + 1 : p;
		nframes = intern_frames(S, p, f, p + n, fi);
		if (!nframes)
			return flame__err_nomem(err);
		if (S->nul)
			return binary(S, line_no, offset, err);
	}
	rc = after ? flame__sink_add_sorted(t, S->ids, nframes, w0, w1, err)
	           : flame__sink_add(t, S->ids, nframes, w0, w1, err);
	if (rc) {
		if (rc == FLAME_ERANGE)
			flame__err(err, rc, S->src, line_no, offset, "count overflows 64 bits");
		return rc;
	}
	/* is this line's stack now the table's last one? (a spill empties the table) */
	S->last_ok = flame__sink_count(t) > before || flame__sink_count(t) == 0 ||
	             (repeat && S->last_ok);
	S->prev = p;
	S->prev_n = n;
	S->prev_frames = nframes;
	return 0;
}

static int parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	flame__lines cur;
	int rc = flame__lines_init(&cur, in, err);
	if (rc)
		return rc;
	state S = {.o = o, .src = flame__lines_source(&cur), .prev = ""};
	flame__sink_init(&S.k, t);
	S.scan_nul = names_hold_nul(S.k.names);
	uint64_t line_no = 0;
	const char *b;
	size_t bn;
	/* whole lines a block at a time: the previous line stays where it was read */
	while (rc >= 0 && (rc = flame__lines_chunk(&cur, 256 << 10, &b, &bn, err)) > 0) {
		uint64_t offset = cur.offset;
		for (size_t pos = 0; pos < bn;) {
			const char *p = b + pos;
			const char *nl = memchr(p, '\n', bn - pos);
			size_t n = nl ? (size_t)(nl - p) : bn - pos;
			pos += n + 1;
			if ((rc = parse_line(&S, p, n, ++line_no, offset + (uint64_t)(p - b), err)) < 0)
				break;
		}
		if (rc >= 0 && S.prev_n) {
			/* the block's buffer is reused: keep the last line */
			if (flame__array_reserve_min(S.keep, S.keep_cap, S.prev_n, 256)) {
				rc = flame__err_nomem(err);
				break;
			}
			memmove(S.keep, S.prev, S.prev_n);
			S.prev = S.keep;
		}
	}
	free(S.mo.hash);
	free(S.mo.id);
	free(S.ids);
	free(S.sep);
	free(S.keep);
	flame__lines_free(&cur);
	return rc < 0 ? rc : 0;
}

const struct flame__parser flame__parser_folded = {probe, parse};
