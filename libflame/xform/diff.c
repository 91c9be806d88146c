/* Differential trees: BEFORE in column 0, AFTER in column 1 of one stack table, with
 * difffolded.pl's -n (before = int(before * T2 / T1)) and -s (hex addresses folded), and
 * per-request or per-unit-of-work normalization. Also the per-function self/total report
 * the regression gate and --top read. Scaling is exact (128-bit) and rounds down. Sorted
 * sides are combined by a merge-join (core/join.c). Reading the sides is read/'s, and
 * choosing how is the diff request's (request/diff.c). */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/join.h"
#include "../core/regex.h"
#include "../core/tree.h"
#include "../core/u128.h"
#include "../core/version.h"

int flame_diff_opts_init(flame_diff_opts *o, unsigned version)
{
	static const flame_diff_opts defaults = FLAME_DIFF_OPTS_INIT;
	return flame__opts_init(o, &defaults, sizeof defaults, version, FLAME_DIFF_OPTS_VERSION,
	                        "flame_diff_opts");
}

int flame_diff_check(const flame_diff_opts *o, flame_err *err)
{
	int rc = flame__opts_version(o->version, FLAME_DIFF_OPTS_VERSION, "flame_diff_opts", err);
	if (rc)
		return rc;
	switch (o->norm) {
	case FLAME_DIFF_NORM_NONE:
	case FLAME_DIFF_NORM_TOTAL:
		return 0;
	case FLAME_DIFF_NORM_REQUESTS:
		if (!o->requests_before || !o->requests_after)
			return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
			                  "--requests wants two request counts above zero");
		return 0;
	case FLAME_DIFF_NORM_FRAME:
		if (!o->frame_regex || !*o->frame_regex)
			return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
			                  "--normalize-frame wants a regex");
	{
		flame__regex *re = NULL;
		rc = flame__regex_compile(&re, o->frame_regex, strlen(o->frame_regex), 0,
		                          "--normalize-frame", err);
		flame__regex_free(re);
		return rc;
	}
	}
	return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET, "unknown normalization");
}

/* ---- -s: hex addresses */

static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* Length of `p` with every 0x[0-9a-fA-F]+ replaced by "0x..." (as Perl's s///g scans:
 * leftmost match, then on after it); writes the result to `out` when not NULL. */
static size_t strip_hex_name(const char *p, size_t n, char *out)
{
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		if (p[i] == '0' && i + 2 < n && p[i + 1] == 'x' && is_hex((unsigned char)p[i + 2])) {
			i += 2;
			while (i < n && is_hex((unsigned char)p[i]))
				i++;
			if (out)
				memcpy(out + o, "0x...", 5);
			o += 5;
			continue;
		}
		if (out)
			out[o] = p[i];
		o++;
		i++;
	}
	return o;
}

static int has_hex(const char *p, size_t n)
{
	for (size_t i = 0; i + 2 < n; i++)
		if (p[i] == '0' && p[i + 1] == 'x' && is_hex((unsigned char)p[i + 2]))
			return 1;
	return 0;
}

/* map[id] = id (in `dst`) of the stripped name of `src`'s name id. */
static int strip_map(flame_tree *dst, const flame_tree *src, uint32_t *map, flame_err *err)
{
	char *buf = NULL;
	size_t cap = 0;
	const flame__intern *names = flame__tree_names(src);
	uint32_t count = names->count; /* dst may be src: new names are not revisited */
	for (uint32_t id = 0; id < count; id++) {
		const flame__name *nm = flame__intern_get(names, id);
		const char *p = nm->ptr;
		size_t n = nm->len;
		if (has_hex(p, n)) {
			size_t m = strip_hex_name(p, n, NULL);
			if (flame__array_reserve_min(buf, cap, m, 256)) {
				free(buf);
				return flame__err_nomem(err);
			}
			n = strip_hex_name(p, n, buf);
			p = buf;
		} else if (dst == src) {
			map[id] = id;
			continue;
		}
		map[id] = flame__tree_intern(dst, p, n);
		if (map[id] == FLAME__ID_NONE) {
			free(buf);
			return flame__err_nomem(err);
		}
	}
	free(buf);
	return 0;
}

static int add_err(flame_err *err, int rc)
{
	if (rc == FLAME_ENOMEM)
		return flame__err_nomem(err);
	return flame__err(err, rc, "", 0, FLAME__NO_OFFSET, "a count overflows 64 bits");
}

static int strip_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                       uint64_t w[2])
{
	const uint32_t *map = ud;
	(void)w;
	for (uint32_t i = 0; i < depth; i++)
		out[i] = map[ids[i]];
	return (int)depth;
}

int flame_strip_hex(flame_tree *t, flame_err *err)
{
	const flame__intern *names = flame__tree_names(t);
	int any = 0;
	for (uint32_t id = 0; id < names->count && !any; id++) {
		const flame__name *nm = flame__intern_get(names, id);
		any = has_hex(nm->ptr, nm->len);
	}
	if (!any)
		return 0;
	uint32_t *map = malloc((size_t)names->count * sizeof *map);
	if (!map)
		return flame__err_nomem(err);
	int rc = strip_map(t, t, map, err);
	if (!rc)
		rc = flame__tree_rewrite(t, strip_stack, map, 0, err);
	free(map);
	return rc;
}

/* ---- normalization */

/* Column 0 of every stack times num/den, rounded down to a multiple of `unit` (difffolded.pl's
 * int() drops fractions of a whole count; elsewhere unit is 1). */
struct scale {
	uint64_t num, den, unit;
};

static int scale_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                       uint64_t w[2])
{
	const struct scale *sc = ud;
	(void)ids, (void)depth, (void)out;
	flame__u128 v = (flame__u128)w[0] * sc->num / sc->den;
	v -= v % sc->unit;
	if (v > UINT64_MAX)
		return FLAME_ERANGE;
	w[0] = (uint64_t)v;
	return 0;
}

static int scale_before(flame_tree *t, uint64_t num, uint64_t den, uint64_t unit, flame_err *err)
{
	return flame__tree_rewrite(t, scale_stack, &(struct scale){num, den, unit},
	                           FLAME__REWRITE_WEIGHTS, err);
}

/* Sum of column `col` over the stacks through a frame whose name matches. */
static uint64_t matched_weight(const flame__stacks *s, int col, const unsigned char *match)
{
	uint64_t w = 0;
	for (size_t k = 0; k < s->count; k++) {
		const flame__stack *st = &s->v[k];
		for (uint32_t i = 0; i < st->depth; i++)
			if (match[st->ids[i]]) {
				w += st->w[col];
				break;
			}
	}
	return w;
}

static int frame_weights(flame_tree *t, const char *re, uint64_t *w0, uint64_t *w1,
                         flame_err *err)
{
	const flame__intern *names = flame__tree_names(t);
	flame__stacks *s;
	int rc = flame__tree_stacks(t, &s, err);
	if (rc)
		return rc;
	unsigned char *m = malloc(names->count ? names->count : 1);
	if (!m)
		return flame__err_nomem(err);
	flame__regex *rx = NULL;
	rc = flame__regex_compile(&rx, re, strlen(re), 0, "--normalize-frame", err);
	if (!rc) {
		for (uint32_t id = 0; id < names->count; id++) {
			const flame__name *nm = flame__intern_get(names, id);
			m[id] = flame__regex_match(rx, nm->ptr, nm->len) == 1;
		}
		*w0 = matched_weight(s, 0, m);
		*w1 = matched_weight(s, 1, m);
	}
	flame__regex_free(rx);
	free(m);
	return rc;
}

/* The chosen normalization of column 0 (BEFORE). */
static int normalize(flame_tree *t, const flame_diff_opts *o, flame_err *err)
{
	int rc = 0;
	uint64_t t0 = flame_tree_total(t, 0), t1 = flame_tree_total(t, 1);
	switch (o->norm) {
	case FLAME_DIFF_NORM_NONE:
		break;
	case FLAME_DIFF_NORM_TOTAL:
		/* difffolded.pl: only when the totals differ (and, here, when BEFORE has any) */
		if (t0 && t0 != t1)
			rc = scale_before(t, t1, t0, flame__pow10[flame_tree_scale(t)], err);
		break;
	case FLAME_DIFF_NORM_REQUESTS:
		rc = scale_before(t, o->requests_after, o->requests_before, 1, err);
		break;
	case FLAME_DIFF_NORM_FRAME: {
		uint64_t w0 = 0, w1 = 0;
		if ((rc = frame_weights(t, o->frame_regex, &w0, &w1, err)))
			break;
		if (!w0 || !w1) {
			rc = flame__err(err, FLAME_EDATA, "", 0, FLAME__NO_OFFSET,
			                "--normalize-frame '%s' matches no sampled frame in %s",
			                o->frame_regex, !w0 ? "BEFORE" : "AFTER");
			break;
		}
		rc = scale_before(t, w1, w0, 1, err);
		break;
	}
	}
	return rc;
}

/* Column 0 moves to column 1. */
static int swap_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                      uint64_t w[2])
{
	(void)ud, (void)ids, (void)depth, (void)out;
	w[1] = w[0];
	w[0] = 0;
	return 0;
}

int flame_diff_swap(flame_tree *t, flame_err *err)
{
	if (flame_tree_is_differential(t))
		return flame__err(err, FLAME_EDATA, "", 0, FLAME__NO_OFFSET,
		                  "a differential (3-column) profile cannot be one side of a diff");
	int rc = flame__tree_rewrite(t, swap_stack, NULL, FLAME__REWRITE_WEIGHTS, err);
	if (!rc)
		flame__tree_set_differential(t);
	return rc;
}

int flame_diff_normalize(flame_tree *t, const flame_diff_opts *o, flame_err *err)
{
	int rc = flame_diff_check(o, err);
	if (rc || (o->strip_hex && (rc = flame_strip_hex(t, err))))
		return rc;
	return normalize(t, o, err);
}

int flame_diff(flame_tree *before, flame_tree *after, const flame_diff_opts *o,
               flame_err *err)
{
	flame__stacks *bs, *as;
	int rc = flame_diff_check(o, err);
	if (!rc)
		rc = flame__tree_stacks(before, &bs, err);
	if (!rc)
		rc = flame__tree_stacks(after, &as, err);
	if (rc)
		return rc;
	if (flame_tree_is_differential(before) || flame_tree_is_differential(after))
		return flame__err(err, FLAME_EDATA, "", 0, FLAME__NO_OFFSET,
		                  "a differential (3-column) profile cannot be one side of a diff");
	if ((rc = flame__units_join(before, after, err)))
		return rc;
	if (o->strip_hex && (rc = flame_strip_hex(before, err)))
		return rc;
	if ((rc = flame__tree_rescale(before, flame_tree_scale(after), err)))
		return rc;
	uint64_t m = flame__pow10[flame_tree_scale(before) - flame_tree_scale(after)];
	uint32_t *map = NULL, *ids = NULL;
	/* sorted sides (sorted folded files): one merge-join, no hashing */
	if (!o->strip_hex && flame__tree_stacks_sorted(before) && flame__tree_stacks_sorted(after)) {
		rc = flame__tree_join_sorted(before, after, m, FLAME__JOIN_TO_AFTER, err);
		if (rc < 0)
			return rc;
		if (rc == 0)
			goto joined;
	}
	const flame__intern *an = flame__tree_names(after);
	uint32_t maxd = 1;
	for (size_t k = 0; k < as->count; k++)
		if (as->v[k].depth > maxd)
			maxd = as->v[k].depth;
	map = malloc((an->count ? an->count : 1) * sizeof *map);
	ids = malloc(maxd * sizeof *ids);
	if (!map || !ids) {
		rc = flame__err_nomem(err);
		goto done;
	}
	if (o->strip_hex) {
		if ((rc = strip_map(before, after, map, err)))
			goto done;
	} else {
		for (uint32_t id = 0; id < an->count; id++) {
			const flame__name *nm = flame__intern_get(an, id);
			map[id] = flame__tree_intern(before, nm->ptr, nm->len);
			if (map[id] == FLAME__ID_NONE) {
				rc = flame__err_nomem(err);
				goto done;
			}
		}
	}
	for (size_t k = 0; k < as->count; k++) {
		const flame__stack *s = &as->v[k];
		for (uint32_t i = 0; i < s->depth; i++)
			ids[i] = map[s->ids[i]];
		uint64_t w = s->w[0];
		if (m > 1 && w > UINT64_MAX / m) {
			rc = add_err(err, FLAME_ERANGE);
			goto done;
		}
		if ((rc = flame__stacks_add(bs, ids, s->depth, 0, w * m))) {
			rc = add_err(err, rc);
			goto done;
		}
	}
joined:
	flame__tree_set_differential(before);
	rc = normalize(before, o, err);
done:
	free(map);
	free(ids);
	return rc;
}

/* ---- per-function report */

int flame_diff_report(flame_tree *t, flame_diff_row **rows_out, size_t *n_out,
                      flame_err *err)
{
	*rows_out = NULL;
	*n_out = 0;
	flame__stacks *st;
	int rc = flame__tree_stacks(t, &st, err);
	if (rc)
		return rc;
	const flame__intern *names = flame__tree_names(t);
	uint32_t nn = names->count;
	uint32_t *row_of = malloc((nn ? nn : 1) * sizeof *row_of);
	size_t *stamp = malloc((nn ? nn : 1) * sizeof *stamp);
	flame_diff_row *rows = malloc((nn ? nn : 1) * sizeof *rows);
	if (!row_of || !stamp || !rows) {
		free(row_of);
		free(stamp);
		free(rows);
		return flame__err_nomem(err);
	}
	size_t n = 0;
	for (uint32_t id = 0; id < nn; id++) {
		row_of[id] = UINT32_MAX;
		stamp[id] = SIZE_MAX;
	}
	for (size_t k = 0; k < st->count; k++) {
		const flame__stack *s = &st->v[k];
		for (uint32_t i = 0; i < s->depth; i++) {
			uint32_t id = s->ids[i];
			if (row_of[id] == UINT32_MAX) {
				const flame__name *nm = flame__intern_get(names, id);
				row_of[id] = (uint32_t)n;
				rows[n++] = (flame_diff_row){{nm->ptr, nm->len}, {0, 0}, {0, 0}, SIZE_MAX};
			}
			flame_diff_row *r = &rows[row_of[id]];
			if (stamp[id] != k) { /* once per stack, however deep the recursion */
				stamp[id] = k;
				r->total[0] += s->w[0];
				r->total[1] += s->w[1];
			}
			if (i + 1 == s->depth) {
				r->self[0] += s->w[0];
				r->self[1] += s->w[1];
			}
		}
	}
	free(row_of);
	free(stamp);
	*rows_out = rows;
	*n_out = n;
	return 0;
}

/* ---- attribution: callers whose total change lies inside one callee */

#define MAX_CAND 512

static double total_delta(const flame_diff_row *r)
{
	return r->total[1] >= r->total[0] ? (double)(r->total[1] - r->total[0])
	                                  : -(double)(r->total[0] - r->total[1]);
}

static int cmp_abs_delta(const void *a, const void *b, void *ud)
{
	const flame_diff_row *rows = ud;
	double x = total_delta(&rows[*(const size_t *)a]), y = total_delta(&rows[*(const size_t *)b]);
	x = x < 0 ? -x : x;
	y = y < 0 ? -y : y;
	if (x != y)
		return x > y ? -1 : 1;
	/* ties by name: the same attribution whatever the order of the stack table */
	const flame_diff_row *p = &rows[*(const size_t *)a], *q = &rows[*(const size_t *)b];
	size_t n = p->name.len < q->name.len ? p->name.len : q->name.len;
	int r = memcmp(p->name.ptr, q->name.ptr, n);
	return r ? r : (p->name.len > q->name.len) - (p->name.len < q->name.len);
}

/* What the attribution counts over the stacks, for k candidates: cnt[x] stacks hold x,
 * together[x * k + y] hold both, deeper[x * k + y] says whether y sat deeper than x
 * where they first met (-1: never); the rest is scratch of count_together. */
typedef struct attrib {
	size_t k;
	uint32_t *cnt, *together, *pos, *present_pos, *cur_pos;
	int8_t *deeper;
	size_t *stamp, *present, *cur;
} attrib;

static int attrib_init(attrib *A, size_t k)
{
	size_t kk = k * k + 1, k1 = k ? k : 1;
	memset(A, 0, sizeof *A);
	A->k = k;
	A->cnt = calloc(k1, sizeof *A->cnt);
	A->together = calloc(kk, sizeof *A->together);
	A->deeper = malloc(kk);
	A->pos = malloc(k1 * sizeof *A->pos);
	A->stamp = malloc(k1 * sizeof *A->stamp);
	A->present = malloc(k1 * sizeof *A->present);
	A->cur = malloc(k1 * sizeof *A->cur);
	A->present_pos = malloc(k1 * sizeof *A->present_pos);
	A->cur_pos = malloc(k1 * sizeof *A->cur_pos);
	if (!A->cnt || !A->together || !A->deeper || !A->pos || !A->stamp || !A->present ||
	    !A->cur || !A->present_pos || !A->cur_pos)
		return FLAME_ENOMEM;
	memset(A->deeper, -1, k * k);
	for (size_t c = 0; c < k; c++)
		A->stamp[c] = SIZE_MAX;
	return 0;
}

static void attrib_free(attrib *A)
{
	free(A->cnt);
	free(A->together);
	free(A->deeper);
	free(A->pos);
	free(A->stamp);
	free(A->present);
	free(A->cur);
	free(A->present_pos);
	free(A->cur_pos);
}

/* Count the candidates (cand_of[name id]: its candidate, or -1) over the stacks.
 * Neighbouring stacks (sorted tables) often hold the same candidates at the same depths:
 * such a run is counted once, times its length (the first-seen order is the same). */
static void count_together(attrib *A, const flame__stacks *ts, const int32_t *cand_of)
{
	size_t k = A->k, np = 0, run = 0;
	for (size_t si = 0; si <= ts->count && k > 1; si++) {
		size_t nq = 0;
		if (si < ts->count) {
			const flame__stack *st = &ts->v[si];
			for (uint32_t i = 0; i < st->depth; i++) {
				int32_t c = cand_of[st->ids[i]];
				if (c < 0)
					continue;
				if (A->stamp[c] != si) {
					A->stamp[c] = si;
					A->cur[nq++] = (size_t)c;
				}
				A->pos[c] = i; /* the deepest occurrence */
			}
			for (size_t a = 0; a < nq; a++)
				A->cur_pos[a] = A->pos[A->cur[a]];
			if (run && nq == np && !memcmp(A->cur, A->present, np * sizeof *A->cur) &&
			    !memcmp(A->cur_pos, A->present_pos, np * sizeof *A->cur_pos)) {
				run++;
				continue;
			}
		}
		for (size_t a = 0; a < np && run; a++) { /* the run before this stack */
			size_t x = A->present[a];
			A->cnt[x] += (uint32_t)run;
			for (size_t b = 0; b < np; b++) {
				size_t y = A->present[b];
				if (x == y)
					continue;
				A->together[x * k + y] += (uint32_t)run;
				if (A->deeper[x * k + y] < 0)
					A->deeper[x * k + y] = A->present_pos[b] > A->present_pos[a];
			}
		}
		memcpy(A->present, A->cur, nq * sizeof *A->cur);
		memcpy(A->present_pos, A->cur_pos, nq * sizeof *A->cur_pos);
		np = nq;
		run = 1;
	}
}

/* Each candidate's change inside one callee: the largest change in its direction among
 * those called only under it (the deeper of two always together), when what is left is
 * within `limit`; then chains (main -> serve -> handle -> hot) resolve to their end. */
static void choose_callees(const attrib *A, flame_diff_row *rows, const size_t *cand,
                           double limit)
{
	size_t k = A->k;
	for (size_t x = 0; x < k; x++) {
		double dx = total_delta(&rows[cand[x]]);
		size_t best = SIZE_MAX;
		double best_abs = 0;
		for (size_t y = 0; y < k; y++) {
			double dy = total_delta(&rows[cand[y]]);
			if (y == x || (dx > 0) != (dy > 0) || A->together[x * k + y] != A->cnt[y])
				continue; /* not the same direction, or y is also called elsewhere */
			if (A->cnt[x] == A->cnt[y] && A->deeper[x * k + y] != 1)
				continue; /* always together: only the deeper one carries the change */
			double ay = dy < 0 ? -dy : dy;
			if (ay > best_abs) {
				best_abs = ay;
				best = y;
			}
		}
		if (best != SIZE_MAX && (dx < 0 ? -dx : dx) - best_abs <= limit)
			rows[cand[x]].inside = cand[best];
	}
	for (size_t x = 0; x < k; x++) {
		flame_diff_row *r = &rows[cand[x]];
		for (size_t hops = 0; r->inside != SIZE_MAX && rows[r->inside].inside != SIZE_MAX &&
		                      hops < k;
		     hops++)
			r->inside = rows[r->inside].inside;
	}
}

int flame_diff_attribute(flame_tree *t, flame_diff_row *rows, size_t n, double limit,
                         flame_err *err)
{
	flame__stacks *ts;
	int rc = flame__tree_stacks(t, &ts, err);
	if (rc)
		return rc;
	const flame__intern *names = flame__tree_names(t);
	size_t k = 0, nn = names->count ? names->count : 1;
	size_t *cand = malloc((n ? n : 1) * sizeof *cand);
	int32_t *cand_of = malloc(nn * sizeof *cand_of);
	attrib A;
	memset(&A, 0, sizeof A);
	if (!cand || !cand_of) {
		rc = flame__err_nomem(err);
		goto done;
	}
	/* the candidates: the largest changes past `limit`, MAX_CAND at most */
	for (size_t i = 0; i < n; i++) {
		double d = total_delta(&rows[i]);
		rows[i].inside = SIZE_MAX;
		if ((d < 0 ? -d : d) > limit)
			cand[k++] = i;
	}
	qsort_r(cand, k, sizeof *cand, cmp_abs_delta, rows);
	if (k > MAX_CAND)
		k = MAX_CAND;
	for (size_t i = 0; i < nn; i++)
		cand_of[i] = -1;
	for (size_t c = 0; c < k; c++) {
		uint32_t id = flame__intern_find(names, rows[cand[c]].name.ptr, rows[cand[c]].name.len);
		if (id != FLAME__ID_NONE)
			cand_of[id] = (int32_t)c;
	}
	if (attrib_init(&A, k)) {
		rc = flame__err_nomem(err);
		goto done;
	}
	count_together(&A, ts, cand_of);
	choose_callees(&A, rows, cand, limit);
done:
	free(cand);
	free(cand_of);
	attrib_free(&A);
	return rc;
}
