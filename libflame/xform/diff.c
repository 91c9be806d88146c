/* Differential trees: BEFORE in column 0, AFTER in column 1 of one stack table, with
 * difffolded.pl's -n (before = int(before * T2 / T1)) and -s (hex addresses folded), and
 * per-request or per-unit-of-work normalization. Scaling is exact (128-bit) and rounds down. Sorted
 * sides are combined by a merge-join (core/join.c). Reading the sides is read/'s, and
 * choosing how is the diff request's (request/diff.c). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/join.h"
#include "../core/regex.h"
#include "../core/tree.h"
#include "../core/u128.h"
#include "../core/version.h"
#include "diff.h"

static const flame_diff_opts diff_defaults = FLAME_DIFF_OPTS_INIT;
static const size_t diff_sizes[] = {0, offsetof(flame_diff_opts, normalize_names),
                                    sizeof(flame_diff_opts)};
static const struct flame__opts_layout diff_layout = {"flame_diff_opts", &diff_defaults,
                                                      sizeof diff_defaults, diff_sizes,
                                                      FLAME_DIFF_OPTS_VERSION};

int flame_diff_opts_init(flame_diff_opts *o, unsigned version)
{
	return flame__opts_init(&diff_layout, o, version);
}

int flame__diff_opts_read(flame_diff_opts *dst, const flame_diff_opts *src, flame_err *err)
{
	return flame__opts_read(&diff_layout, dst, src, err);
}

int flame_diff_opts_check(const flame_diff_opts *opts, flame_err *err)
{
	flame_diff_opts cur;
	int rc = flame__diff_opts_read(&cur, opts, err);
	if (rc)
		return rc;
	const flame_diff_opts *o = &cur;
	flame__namefix *f = NULL;
	if ((rc = flame__namefix_new(&f, o, err)))
		return rc;
	flame__namefix_free(f);
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

/* ---- -s: hex addresses (the rules themselves are xform/rename.c's) */

static int has_hex(const char *p, size_t n)
{
	for (size_t i = 0; i + 2 < n; i++)
		if (p[i] == '0' && p[i + 1] == 'x' && ((p[i + 2] >= '0' && p[i + 2] <= '9') ||
		                                       ((p[i + 2] | 0x20) >= 'a' && (p[i + 2] | 0x20) <= 'f')))
			return 1;
	return 0;
}

static int add_err(flame_err *err, int rc)
{
	if (rc == FLAME_ENOMEM)
		return flame__err_nomem(err);
	return flame__err(err, rc, "", 0, FLAME__NO_OFFSET, "a count overflows 64 bits");
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
	flame_diff_opts o = FLAME_DIFF_OPTS_INIT;
	o.strip_hex = 1;
	return flame__diff_fix_names(t, &o, err);
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

int flame__diff_frame_weight(flame_tree *t, int col, const char *re, uint64_t *w,
                             flame_err *err)
{
	uint64_t w2[2] = {0, 0};
	int rc = frame_weights(t, re, &w2[0], &w2[1], err);
	*w = w2[col ? 1 : 0];
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
			rc = scale_before(t, t1, t0, flame__pow10[flame_tree_decimals(t)], err);
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

int flame_diff_normalize(flame_tree *t, const flame_diff_opts *opts, flame_err *err)
{
	flame_diff_opts cur;
	const flame_diff_opts *o = &cur;
	int rc = flame__diff_opts_read(&cur, opts, err);
	if (!rc)
		rc = flame_diff_opts_check(o, err);
	if (rc || (flame__diff_renames(o) && (rc = flame__diff_fix_names(t, o, err))))
		return rc;
	return normalize(t, o, err);
}

/* AFTER's stacks (names through `map`) into column 1 of BEFORE's table, times `m`; where
 * each went into at[k] when `at` is not NULL. */
static int add_after(flame__stacks *bs, const flame__stacks *as, const uint32_t *map, uint32_t *ids,
                     uint64_t m, uint32_t *at, const uint32_t *lmap, flame_err *err)
{
	for (size_t k = 0; k < as->count; k++) {
		const flame__stack *s = &as->v[k];
		bs->label = lmap ? lmap[flame__stack_label(as, s)] : 0;
		for (uint32_t i = 0; i < s->depth; i++)
			ids[i] = map[s->ids[i]];
		uint64_t w = s->w[0];
		if (m > 1 && w > UINT64_MAX / m)
			return add_err(err, FLAME_ERANGE);
		uint32_t where;
		int rc = flame__stacks_add_at(bs, ids, s->depth, flame__stacks_hash(ids, s->depth), 0,
		                              w * m, &where);
		if (rc)
			return add_err(err, rc);
		if (at)
			at[k] = where;
	}
	return 0;
}

int flame_diff(flame_tree *before, flame_tree *after, const flame_diff_opts *opts,
               flame_err *err)
{
	flame__stacks *bs, *as;
	flame_diff_opts cur;
	const flame_diff_opts *o = &cur;
	int rc = flame__diff_opts_read(&cur, opts, err);
	if (!rc)
		rc = flame_diff_opts_check(o, err);
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
	int fix = flame__diff_renames(o);
	if (fix && (rc = flame__diff_fix_names(before, o, err)))
		return rc;
	if ((rc = flame__tree_rescale(before, flame_tree_decimals(after), err)))
		return rc;
	uint64_t m = flame__pow10[flame_tree_decimals(before) - flame_tree_decimals(after)];
	uint32_t *map = NULL, *ids = NULL, *at = NULL, *lmap = NULL;
	flame__namefix *f = NULL;
	/* sorted sides (sorted folded files): one merge-join, no hashing */
	if (!fix && flame__tree_stacks_sorted(before) && flame__tree_stacks_sorted(after)) {
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
	/* AFTER's time goes with its stacks: where each went in BEFORE's table */
	at = flame_tree_time_bucket(after) ? malloc((as->count ? as->count : 1) * sizeof *at) : NULL;
	if (!map || !ids || (flame_tree_time_bucket(after) && !at)) {
		rc = flame__err_nomem(err);
		goto done;
	}
	if ((rc = flame__namefix_new(&f, o, err)) || (rc = flame__namefix_map(before, after, f, map, err)) ||
	    (rc = flame__tree_label_map(before, after, &lmap, err)))
		goto done;
	rc = add_after(bs, as, map, ids, m, at, lmap, err);
	bs->label = 0;
	if (rc ||
	    (at && (rc = flame__tree_time_join(before, after, at, m, err))))
		goto done;
joined:
	flame__tree_set_differential(before);
	rc = normalize(before, o, err);
done:
	flame__namefix_free(f);
	free(map);
	free(ids);
	free(at);
	free(lmap);
	return rc;
}
