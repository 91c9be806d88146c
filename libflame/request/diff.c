/* Diff requests: BEFORE and AFTER, the normalization, and what is wanted (folded text or
 * a tree). The request chooses the way: two sorted folded files to folded text are merged
 * as text (read/sorted-text.c); otherwise both sides are read at once (read/combine.c:
 * folded ones streamed into one tree, others parsed whole and joined by flame_diff), or,
 * with one thread, one after the other into one tree (flame_diff_swap). */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/tree.h"
#include "../core/numfmt.h"
#include "../xform/diff.h"
#include "request.h"

struct flame_diff_request {
	flame_diff_opts o;
	flame__req_input side[2];
	unsigned threads;
	int ignore_units; /* flame_tree_set_ignore_units on the result */
	int failed_side, failed_differential;
	uint64_t total[2];
	flame__req_reading reading; /* inflate limit and progress of the inputs opened by path */
};

int flame_diff_request_new(flame_diff_request **out, const flame_diff_opts *o, flame_err *err)
{
	flame_diff_opts cur;
	*out = NULL;
	int rc = flame__diff_opts_read(&cur, o, err);
	if (!rc)
		rc = flame_diff_opts_check(&cur, err);
	if (rc)
		return rc;
	flame_diff_request *r = calloc(1, sizeof *r);
	if (!r)
		return flame__err_nomem(err);
	r->o = cur;
	r->threads = 2;
	flame__req_reading_init(&r->reading);
	for (int i = 0; i < 2 && !rc; i++)
		rc = flame__req_input_set(&r->side[i], NULL, NULL, NULL, err);
	if (rc) {
		flame_diff_request_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void flame_diff_request_free(flame_diff_request *r)
{
	if (!r)
		return;
	flame__req_input_free(&r->side[0]);
	flame__req_input_free(&r->side[1]);
	flame__req_reading_free(&r->reading);
	free(r);
}

int flame_diff_request_input(flame_diff_request *r, int side, const char *path, flame_input *in,
                             const flame_parse_opts *po, flame_err *err)
{
	if (side != 0 && side != 1)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "a diff's side is 0 (BEFORE) or 1 (AFTER)");
	return flame__req_input_set(&r->side[side], path, in, po, err);
}

void flame_diff_request_threads(flame_diff_request *r, unsigned threads)
{
	r->threads = threads == 1 ? 1 : 2;
}

void flame_diff_request_limit(flame_diff_request *r, uint64_t max_bytes)
{
	r->reading.limit = max_bytes;
}

void flame_diff_request_progress(flame_diff_request *r, flame_progress_fn fn, void *ud)
{
	r->reading.fn = fn;
	r->reading.ud = ud;
}

void flame_diff_request_ignore_units(flame_diff_request *r, int on)
{
	r->ignore_units = !!on;
}

int flame_diff_request_failed_side(const flame_diff_request *r, int *differential)
{
	if (differential)
		*differential = r->failed_differential;
	return r->failed_side;
}

uint64_t flame_diff_request_total(const flame_diff_request *r, int side)
{
	return side == 0 || side == 1 ? r->total[side] : 0;
}

/* Side i failed with src->rc: its error becomes the request's. */
static int side_failed(flame_diff_request *r, int i, const flame__source *s, flame_err *err)
{
	r->failed_side = i;
	r->failed_differential = s->differential;
	if (err)
		*err = s->err;
	return s->rc;
}

/* Open side i into s: 0, or its failure. */
static int open_side(flame_diff_request *r, int i, flame__source *s, flame_err *err)
{
	int rc = flame__req_input_open(&r->side[i], s, err ? err : &s->err);
	if (rc)
		r->failed_side = i;
	return rc;
}

/* With one thread: AFTER into t, moved to column 1, then BEFORE into column 0 (the memory
 * of one tree). A 3-column BEFORE shows as a change of column 1. */
static int one_tree(flame_diff_request *r, flame_tree *t, flame_err *err)
{
	flame__source s[2];
	int rc = open_side(r, 1, &s[1], err);
	if (rc)
		return rc;
	if ((s[1].rc = flame_parse(t, s[1].in, &s[1].opts, &s[1].err)))
		return side_failed(r, 1, &s[1], err);
	flame__req_input_close(&r->side[1]);
	if (flame_tree_is_differential(t)) {
		r->failed_side = 1;
		r->failed_differential = 1;
		return flame_diff_swap(t, err); /* says why */
	}
	if ((rc = flame_diff_swap(t, err)))
		return rc;
	uint64_t after_total = flame_tree_total(t, 1);
	unsigned after_scale = flame_tree_decimals(t);
	if ((rc = open_side(r, 0, &s[0], err)))
		return rc;
	if ((s[0].rc = flame_parse(t, s[0].in, &s[0].opts, &s[0].err)))
		return side_failed(r, 0, &s[0], err);
	flame__req_input_close(&r->side[0]);
	/* fractional BEFORE counts raise the scale: AFTER's total is multiplied up too */
	after_total *= flame__pow10[flame_tree_decimals(t) - after_scale];
	if (flame_tree_total(t, 1) != after_total) {
		r->failed_side = 0;
		r->failed_differential = 1;
		return flame__err(err, FLAME_EDATA, flame_input_name(s[0].in), 0, FLAME__NO_OFFSET,
		                  "a differential (3-column) profile cannot be one side of a diff");
	}
	r->total[0] = flame_tree_total(t, 0);
	r->total[1] = flame_tree_total(t, 1);
	return flame_diff_normalize(t, &r->o, err);
}

/* Both sides at once from the open sources s: streamed into one tree, or two trees
 * joined by flame_diff. */
static int both_at_once(flame_diff_request *r, flame_tree *t, flame__source s[2], flame_err *err)
{
	flame_tree *after;
	int rc = flame__read_pair(t, &after, s, err);
	for (int i = 0; i < 2 && rc; i++)
		if (s[i].rc)
			return side_failed(r, i, &s[i], err);
	if (rc)
		return rc;
	r->total[0] = s[0].total;
	r->total[1] = s[1].total;
	if (!after) /* streamed into one differential tree */
		return flame_diff_normalize(t, &r->o, err);
	unsigned s0 = flame_tree_decimals(t), s1 = flame_tree_decimals(after);
	if (!(rc = flame_diff(t, after, &r->o, err))) { /* totals in the result's scale */
		r->total[0] *= flame__pow10[flame_tree_decimals(t) - s0];
		r->total[1] *= flame__pow10[flame_tree_decimals(t) - s1];
	}
	flame_tree_free(after);
	return rc;
}

/* The tree, or (out not NULL) folded text on out, as text when the sides qualify. */
static int run(flame_diff_request *r, flame_tree **tree, flame_output *out, flame_err *err)
{
	flame__source s[2];
	flame_tree *t = NULL;
	int rc = 0;
	r->failed_side = -1;
	r->failed_differential = 0;
	r->total[0] = r->total[1] = 0;
	flame__req_reading_begin(&r->reading, r->side, 2);
	if (tree)
		*tree = NULL;
	if (r->threads == 1) {
		if (!(t = flame__tree_new())) {
			rc = flame__err_nomem(err);
		} else {
			flame_tree_set_ignore_units(t, r->ignore_units);
			rc = one_tree(r, t, err);
		}
		goto done;
	}
	for (int i = 0; i < 2 && !rc; i++)
		rc = open_side(r, i, &s[i], err);
	if (!rc && out && !r->o.strip_hex && r->o.norm != FLAME_DIFF_NORM_FRAME) {
		/* 1: not sorted folded files; both are back at their start, for the tree */
		if ((rc = flame__text_diff(s, &r->o, out, err)) == 0) {
			r->total[0] = s[0].total;
			r->total[1] = s[1].total;
			goto done;
		}
		if (rc == 1)
			rc = 0;
	}
	if (!rc && !(t = flame__tree_new()))
		rc = flame__err_nomem(err);
	if (!rc) {
		flame_tree_set_ignore_units(t, r->ignore_units);
		rc = both_at_once(r, t, s, err);
	}
done:
	if (!rc && t && out)
		rc = flame_write_folded(t, out, err);
	flame__req_input_close(&r->side[0]);
	flame__req_input_close(&r->side[1]);
	if (!rc && tree)
		*tree = t;
	else
		flame_tree_free(t);
	return rc;
}

int flame_diff_request_write_folded(flame_diff_request *r, flame_output *out, flame_err *err)
{
	return run(r, NULL, out, err);
}

int flame_diff_request_tree(flame_diff_request *r, flame_tree **tree, flame_err *err)
{
	return run(r, tree, NULL, err);
}
