/* Diff requests: BEFORE and AFTER, the normalization, and what is wanted (folded text or
 * a tree). The request chooses the way: two sorted folded files to folded text are merged
 * as text (read/sorted-text.c); otherwise both sides are read at once (read/combine.c:
 * folded ones streamed into one tree, others parsed whole and joined by flame_diff), or,
 * with one thread, one after the other into one tree (flame_diff_swap). Several runs per
 * side are parsed whole, a tree each, kept for the statistics of the noise between them
 * (xform/diff-stats.c), and their means diffed. */
#include <stdlib.h>
#include <string.h>
#include "../core/array.h"
#include "../core/diff-report.h"
#include "../core/err.h"
#include "../core/tree.h"
#include "../core/numfmt.h"
#include "../xform/diff.h"
#include "request.h"

/* A run beyond a side's first, and the requests it served (0: not given). */
typedef struct more_run {
	flame__req_input in;
	uint64_t requests;
} more_run;

struct flame_diff_request {
	flame_diff_opts o;
	flame__req_input side[2];   /* each side's first run */
	uint64_t requests[2];       /* the first runs' requests (0: not given) */
	size_t given[2];            /* runs given per side */
	more_run *more[2];          /* the other runs */
	size_t n_more[2], cap_more[2];
	flame_tree **run_trees;     /* after a run of several: every run's tree, BEFORE's first */
	flame__stat_run *stat_runs;
	size_t n_run_trees;
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

/* The trees of the runs of the last run of the request. */
static void free_run_trees(flame_diff_request *r)
{
	for (size_t i = 0; i < r->n_run_trees; i++)
		flame_tree_free(r->run_trees[i]);
	free(r->run_trees);
	free(r->stat_runs);
	r->run_trees = NULL;
	r->stat_runs = NULL;
	r->n_run_trees = 0;
}

void flame_diff_request_free(flame_diff_request *r)
{
	if (!r)
		return;
	flame__req_input_free(&r->side[0]);
	flame__req_input_free(&r->side[1]);
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < r->n_more[s]; i++)
			flame__req_input_free(&r->more[s][i].in);
		free(r->more[s]);
	}
	free_run_trees(r);
	flame__req_reading_free(&r->reading);
	free(r);
}

int flame_diff_request_input(flame_diff_request *r, int side, const char *path, flame_input *in,
                             const flame_parse_opts *po, flame_err *err)
{
	if (side != 0 && side != 1)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "a diff's side is 0 (BEFORE) or 1 (AFTER)");
	if (!r->given[side])
		r->given[side] = 1;
	return flame__req_input_set(&r->side[side], path, in, po, err);
}

int flame_diff_request_run(flame_diff_request *r, int side, const char *path, flame_input *in,
                           const flame_parse_opts *po, uint64_t requests, flame_err *err)
{
	if (side != 0 && side != 1)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "a diff's side is 0 (BEFORE) or 1 (AFTER)");
	if (!r->given[side]) {
		int rc = flame__req_input_set(&r->side[side], path, in, po, err);
		if (!rc) {
			r->given[side] = 1;
			r->requests[side] = requests;
		}
		return rc;
	}
	if (flame__array_reserve_min(r->more[side], r->cap_more[side], r->n_more[side] + 1, 4))
		return flame__err_nomem(err);
	more_run *m = &r->more[side][r->n_more[side]];
	memset(m, 0, sizeof *m);
	int rc = flame__req_input_set(&m->in, path, in, po, err);
	if (rc)
		return rc;
	m->requests = requests;
	r->n_more[side]++;
	r->given[side]++;
	return 0;
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

/* Open run `ri` of side i into s: 0, or its failure. */
static int open_side_input(flame_diff_request *r, int i, flame__req_input *ri, flame__source *s,
                           flame_err *err)
{
	int rc = flame__req_input_open(ri, s, err ? err : &s->err);
	if (rc)
		r->failed_side = i;
	return rc;
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

/* ---- several runs per side */

static flame__req_input *run_input(flame_diff_request *r, int side, size_t i)
{
	return i ? &r->more[side][i - 1].in : &r->side[side];
}

static uint64_t run_requests(const flame_diff_request *r, int side, size_t i)
{
	return i ? r->more[side][i - 1].requests : r->requests[side];
}

/* 1 when the runs must be read one by one: several on a side, or requests per run. */
static int several(const flame_diff_request *r)
{
	if (r->given[0] > 1 || r->given[1] > 1)
		return 1;
	return r->requests[0] || r->requests[1];
}

/* Every run parsed whole into a tree of its own (r->run_trees, BEFORE's first), at once. */
static int parse_runs(flame_diff_request *r, size_t n, flame_err *err)
{
	flame__parse_job *jobs = calloc(n, sizeof *jobs);
	flame__source *src = calloc(n, sizeof *src);
	int rc = !jobs || !src ? flame__err_nomem(err) : 0;
	size_t k = 0;
	for (int s = 0; s < 2 && !rc; s++)
		for (size_t i = 0; i < r->given[s] && !rc; i++, k++) {
			flame__req_input *ri = run_input(r, s, i);
			ri->reading = &r->reading;
			if ((rc = open_side_input(r, s, ri, &src[k], err)))
				break;
			if (!(r->run_trees[k] = flame__tree_new())) {
				rc = flame__err_nomem(err);
				break;
			}
			flame_tree_set_ignore_units(r->run_trees[k], r->ignore_units);
			jobs[k] = (flame__parse_job){r->run_trees[k], src[k].in, src[k].opts, 0, {0}};
		}
	if (!rc && flame__parse_all(jobs, n, r->threads == 1 ? 1 : 0)) {
		for (k = 0; k < n && !jobs[k].rc; k++)
			;
		r->failed_side = k < r->given[0] ? 0 : 1;
		if (err)
			*err = jobs[k].err;
		rc = jobs[k].rc;
	}
	for (k = 0; k < n && !rc; k++)
		if (flame_tree_is_differential(r->run_trees[k])) {
			r->failed_side = k < r->given[0] ? 0 : 1;
			r->failed_differential = 1;
			rc = flame__err(err, FLAME_EDATA, flame_input_name(src[k].in), 0, FLAME__NO_OFFSET,
			                "a differential (3-column) profile cannot be one side of a diff");
		}
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < r->given[s]; i++)
			flame__req_input_close(run_input(r, s, i));
	free(jobs);
	free(src);
	return rc;
}

/* Run k's unit (what each count is divided by), its names made equal across runs. */
static int run_unit(flame_diff_request *r, int side, size_t i, size_t k, flame_err *err)
{
	flame_tree *t = r->run_trees[k];
	flame__stat_run *u = &r->stat_runs[k];
	int rc = flame__diff_fix_names(t, &r->o, err);
	uint64_t req = run_requests(r, side, i), w = 0;
	*u = (flame__stat_run){t, 0, 1, 0, (double)flame_tree_total(t, 0), 0};
	if (rc)
		return rc;
	if (req)
		u->unit = (double)req;
	else if (r->o.norm == FLAME_DIFF_NORM_REQUESTS)
		u->unit = (double)(side ? r->o.requests_after : r->o.requests_before);
	else if (r->o.norm == FLAME_DIFF_NORM_TOTAL && u->total > 0)
		u->unit = u->total, u->share = 1;
	else if (r->o.norm == FLAME_DIFF_NORM_FRAME) {
		if ((rc = flame__diff_frame_weight(t, 0, r->o.frame_regex, &w, err)))
			return rc;
		if (!w)
			return flame__err(err, FLAME_EDATA, "", 0, FLAME__NO_OFFSET,
			                  "--normalize-frame '%s' matches no sampled frame in %s's run %zu",
			                  r->o.frame_regex, side ? "AFTER" : "BEFORE", i + 1);
		u->unit = (double)w, u->share = 1;
	}
	return 0;
}

/* Side s's runs summed into a tree, then divided by their number (three more decimals
 * first, so the mean of small counts is not rounded away). */
static int side_mean(flame_diff_request *r, int s, flame_tree **out, flame_err *err)
{
	flame_tree *t = flame__tree_new();
	if (!(*out = t))
		return flame__err_nomem(err);
	flame_tree_set_ignore_units(t, r->ignore_units);
	size_t k0 = s ? r->given[0] : 0, n = r->given[s];
	int rc = 0;
	for (size_t k = k0; k < k0 + n && !rc; k++)
		rc = flame_tree_merge(t, r->run_trees[k], err);
	if (!rc && n > 1 && flame_tree_decimals(t) <= 6)
		rc = flame_tree_weight(t, 1000, 3, err);
	if (!rc && n > 1)
		rc = flame_tree_scale_column(t, 0, 1, n, err);
	r->total[s] = flame_tree_total(t, 0);
	return rc;
}

/* The diff of the sides' mean runs, with the options left once names are fixed; requests
 * given per run become the sides' mean requests. */
static int several_runs(flame_diff_request *r, flame_tree **out, flame_err *err)
{
	size_t n = r->given[0] + r->given[1];
	uint64_t req[2] = {0, 0};
	int per_run = r->requests[0] || r->requests[1];
	free_run_trees(r);
	if (per_run && r->o.norm != FLAME_DIFF_NORM_NONE)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "requests per run cannot be combined with another normalization");
	r->run_trees = calloc(n, sizeof *r->run_trees);
	r->stat_runs = calloc(n, sizeof *r->stat_runs);
	if (!r->run_trees || !r->stat_runs)
		return flame__err_nomem(err);
	r->n_run_trees = n;
	int rc = parse_runs(r, n, err);
	for (int s = 0, k = 0; s < 2 && !rc; s++)
		for (size_t i = 0; i < r->given[s] && !rc; i++, k++) {
			if (per_run && !(req[s] += run_requests(r, s, i)))
				rc = flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
				                "%s's run %zu has no request count: give every run one",
				                s ? "AFTER" : "BEFORE", i + 1);
			else
				rc = run_unit(r, s, i, (size_t)k, err);
		}
	flame_tree *side[2] = {NULL, NULL};
	for (int s = 0; s < 2 && !rc; s++)
		rc = side_mean(r, s, &side[s], err);
	flame_diff_opts o = r->o;
	o.strip_hex = o.normalize_names = 0;
	o.n_renames = 0;
	if (per_run) {
		o.norm = FLAME_DIFF_NORM_REQUESTS;
		o.requests_before = req[0] * r->given[1];
		o.requests_after = req[1] * r->given[0];
	}
	if (!rc)
		rc = flame_diff(side[0], side[1], &o, err);
	flame_tree_free(side[1]);
	if (rc)
		flame_tree_free(side[0]);
	else
		*out = side[0];
	return rc;
}

int flame_diff_request_stats(flame_diff_request *req, flame_diff_report *rep, double alpha,
                             flame_err *err)
{
	if (!req->n_run_trees)
		return flame_diff_report_stats(rep, &req->o, req->total[0], alpha, err);
	flame__stat_run *const run[2] = {req->stat_runs, req->stat_runs + req->given[0]};
	const size_t n[2] = {req->given[0], req->given[1]};
	return flame__diff_stats(rep, run, n, alpha, err);
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
	if (several(r)) {
		if (r->given[0] + r->given[1] > 2)
			r->reading.total = 0; /* only the first runs' sizes are summed */
		rc = several_runs(r, &t, err);
		goto done;
	}
	free_run_trees(r);
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
	if (!rc && out && !flame__diff_renames(&r->o) && r->o.norm != FLAME_DIFF_NORM_FRAME) {
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
