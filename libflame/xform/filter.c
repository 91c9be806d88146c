/* Stack filters by regular expression (core/regex.h): keep stacks in which some frame
 * matches --include, drop those in which some frame matches --exclude. Each distinct name
 * is matched once, then stacks are tested by id. */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/regex.h"
#include "../core/tree.h"

/* Compile `pat` for --include or --exclude, unanchored. */
static int compile(flame__regex **re, const char *pat, const char *what, flame_err *err)
{
	return flame__regex_compile(re, pat, strlen(pat), 0, what, err);
}

/* match[id] = 1 when name `id` matches `re`. */
static void match_names(const flame_tree *t, flame__regex *re, unsigned char *match)
{
	const flame__intern *names = flame__tree_names(t);
	for (uint32_t id = 0; id < names->count; id++) {
		const flame__name *nm = flame__intern_get(names, id);
		match[id] = (unsigned char)flame__regex_match(re, nm->ptr, nm->len);
	}
}

int flame_filter_check(const char *include, const char *exclude, flame_err *err)
{
	flame__regex *re;
	int rc = include ? compile(&re, include, "--include", err) : 0;
	if (include && !rc)
		flame__regex_free(re);
	if (exclude && !rc && !(rc = compile(&re, exclude, "--exclude", err)))
		flame__regex_free(re);
	return rc;
}

struct keep {
	const unsigned char *mi, *mx; /* names matching --include, --exclude (NULL: none given) */
};

/* A stack stays when some frame matches --include (or none was given) and none matches
 * --exclude. */
static int keep_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out,
                      uint64_t w[2])
{
	const struct keep *k = ud;
	int any_inc = !k->mi, any_exc = 0;
	(void)w;
	for (uint32_t i = 0; i < depth; i++) {
		if (k->mi && k->mi[ids[i]])
			any_inc = 1;
		if (k->mx && k->mx[ids[i]])
			any_exc = 1;
	}
	if (!any_inc || any_exc)
		return 0;
	memcpy(out, ids, depth * sizeof *ids);
	return (int)depth;
}

int flame_filter_stacks(flame_tree *t, const char *include, const char *exclude, flame_err *err)
{
	if (!include && !exclude)
		return 0;
	int rc = 0;
	flame__regex *inc = NULL, *exc = NULL;
	unsigned char *mi = NULL, *mx = NULL;
	if ((include && (rc = compile(&inc, include, "--include", err))) ||
	    (exclude && (rc = compile(&exc, exclude, "--exclude", err))))
		goto done;
	size_t nn = flame__tree_names(t)->count ? flame__tree_names(t)->count : 1;
	if ((inc && !(mi = calloc(nn, 1))) || (exc && !(mx = calloc(nn, 1)))) {
		rc = flame__err_nomem(err);
		goto done;
	}
	if (inc)
		match_names(t, inc, mi);
	if (exc)
		match_names(t, exc, mx);
	rc = flame__tree_rewrite(t, keep_stack, &(struct keep){mi, mx}, 0, err);
done:
	flame__regex_free(inc);
	flame__regex_free(exc);
	free(mi);
	free(mx);
	return rc;
}
