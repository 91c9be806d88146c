/* Merge requests: any number of inputs, each with a weight, summed (optionally each
 * scaled to the largest total first), wanted as folded text or a tree. The request
 * chooses the way: up to GROUP sorted folded files with whole weights to folded text are
 * merged as text (read/sorted-text.c); otherwise the inputs are read GROUP at a time
 * (read/combine.c: two folded ones streamed, others parsed whole on worker threads and
 * joined), each group summed into the result. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "../core/array.h"
#include "../core/err.h"
#include "../core/tree.h"
#include "request.h"

enum { GROUP = 16 }; /* inputs open at a time */

struct flame_merge_request {
	flame__req_input *in;
	size_t n, cap;
	unsigned threads;
	int normalize;
	int ignore_units; /* flame_tree_set_ignore_units on every tree inputs are summed into */
	flame__req_reading reading; /* inflate limit and progress of the inputs opened by path */
};

int flame_merge_request_new(flame_merge_request **out, flame_err *err)
{
	if (!(*out = calloc(1, sizeof **out)))
		return flame__err_nomem(err);
	flame__req_reading_init(&(*out)->reading);
	return 0;
}

void flame_merge_request_free(flame_merge_request *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		flame__req_input_free(&r->in[i]);
	free(r->in);
	flame__req_reading_free(&r->reading);
	free(r);
}

int flame_merge_request_input(flame_merge_request *r, const char *path, flame_input *in,
                              const flame_parse_opts *po, uint64_t weight,
                              unsigned weight_decimals, flame_err *err)
{
	if (weight_decimals > 9)
		return flame__err(err, FLAME_EUSAGE, path ? path : "", 0, FLAME__NO_OFFSET,
		                  "a weight with more than 9 decimals");
	if (flame__array_reserve(r->in, r->cap, r->n + 1))
		return flame__err_nomem(err);
	flame__req_input *ri = &r->in[r->n];
	memset(ri, 0, sizeof *ri);
	int rc = flame__req_input_set(ri, path, in, po, err);
	if (rc)
		return rc;
	ri->weight = weight;
	ri->weight_decimals = weight_decimals;
	r->n++;
	return 0;
}

void flame_merge_request_threads(flame_merge_request *r, unsigned threads)
{
	r->threads = threads;
}

void flame_merge_request_limit(flame_merge_request *r, uint64_t max_bytes)
{
	r->reading.limit = max_bytes;
}

void flame_merge_request_progress(flame_merge_request *r, flame_progress_fn fn, void *ud)
{
	r->reading.fn = fn;
	r->reading.ud = ud;
}

void flame_merge_request_normalize(flame_merge_request *r, int on)
{
	r->normalize = !!on;
}

void flame_merge_request_ignore_units(flame_merge_request *r, int on)
{
	r->ignore_units = !!on;
}

/* Open inputs [at, at + k) as sources; 0 or the first open's error. */
static int open_group(flame_merge_request *r, flame__source *src, size_t at, size_t k,
                      flame_err *err)
{
	int rc = 0;
	for (size_t i = at; i < at + k && !rc; i++) {
		rc = flame__req_input_open(&r->in[i], &src[i], err);
		if (r->normalize) /* weighed after scaling */
			src[i].weight = src[i].weight_decimals = 0;
	}
	return rc;
}

static void close_group(flame_merge_request *r, size_t at, size_t k)
{
	for (size_t i = at; i < at + k; i++)
		flame__req_input_close(&r->in[i]);
}

/* The first failed source of [at, at + k) as the request's error. */
static int source_failed(const flame__source *src, size_t at, size_t k, int rc, flame_err *err)
{
	for (size_t i = at; i < at + k; i++)
		if (src[i].rc) {
			if (err)
				*err = src[i].err;
			return src[i].rc;
		}
	return rc;
}

/* --normalize: every input to the largest total, column by column, then its weight,
 * then summed into t. */
static int normalize_into(flame_merge_request *r, flame_tree *t, flame_tree **u, flame_err *err)
{
	uint64_t max[2] = {0, 0};
	int rc = 0;
	for (size_t i = 0; i < r->n; i++)
		for (int c = 0; c < 2; c++)
			if (flame_tree_total(u[i], c) > max[c])
				max[c] = flame_tree_total(u[i], c);
	for (size_t i = 0; i < r->n && !rc; i++) {
		for (int c = 0; c < 2 && !rc; c++) {
			uint64_t tot = flame_tree_total(u[i], c);
			if (tot && tot != max[c])
				rc = flame_tree_scale_column(u[i], c, max[c], tot, err);
		}
		const flame__req_input *ri = &r->in[i];
		if (!rc && (ri->weight > 1 || ri->weight_decimals) &&
		    (rc = flame_tree_weight(u[i], ri->weight, ri->weight_decimals, err)) && err &&
		    !err->source[0]) /* name the input the weight belongs to */
			snprintf(err->source, sizeof err->source, "%s",
			         ri->path ? ri->path : flame_input_name(ri->caller));
		if (!rc)
			rc = flame_tree_merge(t, u[i], err);
		flame_tree_free(u[i]);
		u[i] = NULL;
	}
	return rc;
}

/* Read every input into t (empty), GROUP at a time; the sources of the first group may be
 * open already (`opened` of them). */
static int read_groups(flame_merge_request *r, flame_tree *t, flame__source *src, size_t opened,
                       flame_err *err)
{
	flame__parse_job *job = calloc(GROUP, sizeof *job);
	flame_tree **own = r->normalize ? calloc(r->n ? r->n : 1, sizeof *own) : NULL;
	int rc = !job || (r->normalize && !own) ? flame__err_nomem(err) : 0;
	for (size_t at = 0; at < r->n && !rc; at += GROUP) {
		size_t k = r->n - at < GROUP ? r->n - at : GROUP;
		flame_tree *u = NULL;
		if (at >= opened && (rc = open_group(r, src, at, k, err)))
			break;
		if (r->normalize) {
			for (size_t i = 0; i < k && !rc; i++) {
				if (!(own[at + i] = flame__tree_new()))
					rc = flame__err_nomem(err);
				job[i] = (flame__parse_job){own[at + i], src[at + i].in, src[at + i].opts, 0, {0}};
			}
			if (!rc && flame__parse_all(job, k, r->threads ? r->threads : 2))
				for (size_t i = 0; i < k; i++) {
					src[at + i].rc = job[i].rc;
					src[at + i].err = job[i].err;
				}
			rc = rc ? rc : source_failed(src, at, k, 0, err);
		} else if (!(u = at ? flame__tree_new() : t)) {
			rc = flame__err_nomem(err);
		} else {
			flame_tree_set_ignore_units(u, r->ignore_units);
			rc = flame__read_sum(u, &src[at], k, r->threads, err);
			rc = source_failed(src, at, k, rc, err);
		}
		close_group(r, at, k);
		if (!rc && u && u != t)
			rc = flame_tree_merge(t, u, err);
		if (u != t)
			flame_tree_free(u);
	}
	if (!rc && r->normalize)
		rc = normalize_into(r, t, own, err);
	for (size_t i = 0; own && i < r->n; i++)
		flame_tree_free(own[i]);
	free(own);
	free(job);
	return rc;
}

/* The tree, or (out not NULL) folded text on out, as text when the inputs qualify. */
static int run(flame_merge_request *r, flame_tree **tree, flame_output *out, flame_err *err)
{
	flame__source *src = calloc(r->n ? r->n : 1, sizeof *src);
	flame_tree *t = NULL;
	size_t opened = 0;
	int rc = src ? 0 : flame__err_nomem(err);
	flame__req_reading_begin(&r->reading, r->in, r->n);
	if (tree)
		*tree = NULL;
	int text = out && !r->normalize && r->n <= GROUP;
	for (size_t i = 0; i < r->n && text; i++)
		text = !r->in[i].weight_decimals;
	if (!rc && text) {
		opened = r->n;
		/* 1: not sorted folded files; all are back at their start, for the tree */
		if ((rc = open_group(r, src, 0, r->n, err)) ||
		    (rc = flame__text_sum(src, r->n, out, err)) != 1)
			goto done;
		rc = 0;
	}
	if (!rc && !(t = flame__tree_new()))
		rc = flame__err_nomem(err);
	if (!rc) {
		flame_tree_set_ignore_units(t, r->ignore_units);
		rc = read_groups(r, t, src, opened, err);
	}
	if (!rc && out)
		rc = flame_write_folded(t, out, err);
done:
	close_group(r, 0, r->n);
	free(src);
	if (!rc && tree)
		*tree = t;
	else
		flame_tree_free(t);
	return rc;
}

int flame_merge_request_write_folded(flame_merge_request *r, flame_output *out, flame_err *err)
{
	return run(r, NULL, out, err);
}

int flame_merge_request_tree(flame_merge_request *r, flame_tree **tree, flame_err *err)
{
	return run(r, tree, NULL, err);
}
