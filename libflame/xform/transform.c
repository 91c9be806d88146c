/* The call-tree transforms people reach for (pprof's focus and hide, the recursion collapse
 * of speedscope and the Firefox Profiler): --focus, --drop, --merge and
 * --collapse-recursion, each a rewrite of every stack through core/tree.h's skeleton. The
 * HTML page (templates/page.js) does the same to its tree, step for step, and
 * tests/browser/html.test.mjs holds the two to the same stacks. A stack left with no frame
 * is dropped (folded text has no empty stack). */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/regex.h"
#include "../core/tree.h"

/* Compile `pat` (unanchored) and mark the names it matches: *match is calloc'd. */
static int match_names(flame_tree *t, const char *pat, const char *what, unsigned char **match,
                       flame_err *err)
{
	flame__regex *re;
	*match = NULL;
	if (!pat)
		return flame__err(err, FLAME_EUSAGE, what, 0, FLAME__NO_OFFSET, "no pattern given");
	int rc = flame__regex_compile(&re, pat, strlen(pat), 0, what, err);
	if (rc)
		return rc;
	const flame__intern *names = flame__tree_names(t);
	*match = calloc(names->count ? names->count : 1, 1);
	if (!*match) {
		flame__regex_free(re);
		return flame__err_nomem(err);
	}
	for (uint32_t id = 0; id < names->count; id++) {
		const flame__name *nm = flame__intern_get(names, id);
		(*match)[id] = (unsigned char)flame__regex_match(re, nm->ptr, nm->len);
	}
	flame__regex_free(re);
	return 0;
}

/* focus: from the root-most matching frame to the leaf; no match, no stack */
static int focus_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                       uint64_t w[2])
{
	const unsigned char *m = ud;
	(void)w;
	for (uint32_t i = 0; i < depth; i++)
		if (m[ids[i]]) {
			memcpy(out, ids + i, (depth - i) * sizeof *ids);
			return (int)(depth - i);
		}
	return 0;
}

/* drop: no stack through a matching frame */
static int drop_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                      uint64_t w[2])
{
	const unsigned char *m = ud;
	(void)w;
	for (uint32_t i = 0; i < depth; i++)
		if (m[ids[i]])
			return 0;
	memcpy(out, ids, depth * sizeof *ids);
	return (int)depth;
}

/* merge: the matching frames go, their time stays with their callers */
static int merge_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                       uint64_t w[2])
{
	const unsigned char *m = ud;
	uint32_t k = 0;
	(void)w;
	for (uint32_t i = 0; i < depth; i++)
		if (!m[ids[i]])
			out[k++] = ids[i];
	return (int)k;
}

typedef int (*stack_fn)(void *, const uint32_t *, uint32_t, uint32_t *, uint64_t[2]);

static int by_regex(flame_tree *t, const char *regex, const char *what, stack_fn fn,
                    flame_err *err)
{
	unsigned char *m;
	int rc = match_names(t, regex, what, &m, err);
	if (!rc)
		rc = flame__tree_rewrite(t, fn, m, 0, err);
	free(m);
	return rc;
}

int flame_focus(flame_tree *t, const char *regex, flame_err *err)
{
	return by_regex(t, regex, "--focus", focus_stack, err);
}

int flame_drop(flame_tree *t, const char *regex, flame_err *err)
{
	return by_regex(t, regex, "--drop", drop_stack, err);
}

int flame_merge_frames(flame_tree *t, const char *regex, flame_err *err)
{
	return by_regex(t, regex, "--merge", merge_stack, err);
}

/* collapse recursion: a name met again takes the stack back to where it was first met
 * (the frames between go, as the Firefox Profiler's "collapse recursion" does), so each
 * function is on a stack once. `at[id]` is the name's place in `out` plus one (0: not on
 * it), cleared after each stack. */
static int collapse_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                          uint64_t w[2])
{
	uint32_t *at = ud, k = 0;
	(void)w;
	for (uint32_t i = 0; i < depth; i++) {
		uint32_t id = ids[i];
		if (at[id]) {
			uint32_t keep = at[id];
			while (k > keep)
				at[out[--k]] = 0;
		} else {
			out[k++] = id;
			at[id] = k;
		}
	}
	for (uint32_t i = 0; i < k; i++)
		at[out[i]] = 0;
	return (int)k;
}

int flame_collapse_recursion(flame_tree *t, flame_err *err)
{
	const flame__intern *names = flame__tree_names(t);
	uint32_t *at = calloc(names->count ? names->count : 1, sizeof *at);
	if (!at)
		return flame__err_nomem(err);
	int rc = flame__tree_rewrite(t, collapse_stack, at, 0, err);
	free(at);
	return rc;
}
