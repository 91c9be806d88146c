/* The read layer: several inputs read at once into one tree (the two sides of a diff, the
 * inputs of a merge), or sorted folded files merged as text without a tree. It sits between
 * parse/ (one input into one tree) and xform/ (what is done to a tree): it calls
 * flame_parse and the folded grammar, never a transform. */
#ifndef FLAME_READ_READ_H
#define FLAME_READ_READ_H
#include "../flame.h"

/** One input of a multi-input read. */
typedef struct flame__source {
	flame_input *in;
	flame_parse_opts opts;     /* its warn callback may run on a thread of its own */
	uint64_t weight;           /* sum: counts times weight / 10^weight_decimals (0: 1) */
	unsigned weight_decimals;
	/* results */
	int rc;                    /* 0, or why this input failed (err says where) */
	flame_err err;
	int differential;          /* diff: the input was 3-column (rc is FLAME_EDATA) */
	uint64_t total;            /* column 0 total as read (weighted), in the scale of the
	                            * result, before any normalization */
} flame__source;

/** One input of flame__parse_all: `in` is parsed into `tree` with `opts`, as flame_parse
 * does; `rc` and `err` receive the outcome. */
typedef struct flame__parse_job {
	flame_tree *tree;
	flame_input *in;
	flame_parse_opts opts; /* its warn callback may run on a worker thread */
	int rc;
	flame_err err;
} flame__parse_job;

/** Parse several inputs at once, each into its own tree (the trees must be distinct), on
 * up to `threads` threads (0: one per core). Returns 0 when every job succeeded, else the
 * `rc` of the first failed job (by index). */
int flame__parse_all(flame__parse_job *jobs, size_t n, unsigned threads);

/** 1 when `s` is folded (or empty) input, told as flame_parse tells formats (a peek, so
 * nothing is consumed); 0 otherwise, or on a read error, which is then s->rc and s->err. */
int flame__source_folded(flame__source *s);

/** Read BEFORE (src[0]) and AFTER (src[1]) at once into the empty tree `t`. Both folded:
 * streamed into `t` as one differential tree (column 0 BEFORE, column 1 AFTER, not
 * normalized) and *after is NULL. Otherwise BEFORE is parsed into `t` and AFTER into a new
 * tree *after (the caller's, for flame_diff), both at once. src[i].rc, .err, .differential
 * (a 3-column side: rc is FLAME_EDATA) and .total are set. Returns 0, a side's rc, or an
 * error in `err`. */
int flame__read_pair(flame_tree *t, flame_tree **after, flame__source src[2], flame_err *err);

/** Sum the inputs (each times its weight) into the empty tree `t`: two folded inputs are
 * streamed as flame__read_pair streams; otherwise `threads` workers (0: 2) parse the inputs
 * whole, in order, while the finished trees are added to `t` (a linear join when sorted).
 * Returns 0, or the first failed input's `rc` (src[i].err says where), or an error in
 * `err`. */
int flame__read_sum(flame_tree *t, flame__source *src, size_t n, unsigned threads,
                    flame_err *err);

/** The diff of two sorted folded files as difffolded.pl's lines on `out`, without a tree,
 * BEFORE normalized by o->norm (none, total or requests; the caller checked `o`, and does
 * not ask this of strip_hex or a frame normalization). 0 when written (src[i].total set),
 * a negative status, or 1 when the inputs do not qualify: nothing written, both inputs at
 * their start. */
int flame__text_diff(flame__source src[2], const flame_diff_opts *o, flame_output *out,
                     flame_err *err);

/** The sum of sorted folded files (whole weights) as folded text on `out`, as
 * flame__text_diff: 0, a negative status, or 1 when they do not qualify. */
int flame__text_sum(flame__source *src, size_t n, flame_output *out, flame_err *err);
#endif
