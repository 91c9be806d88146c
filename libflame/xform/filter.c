/* Stack filters by regular expression (pcre2, the only file that uses it): keep stacks
 * in which some frame matches --include, drop those in which some frame matches
 * --exclude. Each distinct name is matched once, then stacks are tested by id. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/regex.h"
#include "../core/tree.h"

/* Compile `pat`; on error fill err with pcre2's message and the pattern offset. */
static pcre2_code *compile(const char *pat, const char *what, flame_err *err)
{
	int ec;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &ec, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(ec, msg, sizeof msg);
		flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		           "invalid %s regex '%s' at offset %zu: %s", what, pat, (size_t)off,
		           (const char *)msg);
	}
	return re;
}

/* match[id] = 1 when name `id` matches `re`. */
static int match_names(const flame_tree *t, pcre2_code *re, unsigned char *match, flame_err *err)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	if (!md)
		return flame__err_nomem(err);
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* best effort: falls back to the interpreter */
	const flame__intern *names = flame__tree_names(t);
	for (uint32_t id = 0; id < names->count; id++) {
		const flame__name *nm = flame__intern_get(names, id);
		int r = pcre2_match(re, (PCRE2_SPTR)nm->ptr, nm->len, 0, 0, md, NULL);
		match[id] = r >= 0;
	}
	pcre2_match_data_free(md);
	return 0;
}

int flame_filter_check(const char *include, const char *exclude, flame_err *err)
{
	pcre2_code *re;
	if (include) {
		if (!(re = compile(include, "--include", err)))
			return FLAME_EUSAGE;
		pcre2_code_free(re);
	}
	if (exclude) {
		if (!(re = compile(exclude, "--exclude", err)))
			return FLAME_EUSAGE;
		pcre2_code_free(re);
	}
	return 0;
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
	pcre2_code *inc = NULL, *exc = NULL;
	unsigned char *mi = NULL, *mx = NULL;
	if (include && !(inc = compile(include, "--include", err)))
		return FLAME_EUSAGE;
	if (exclude && !(exc = compile(exclude, "--exclude", err))) {
		rc = FLAME_EUSAGE;
		goto done;
	}
	size_t nn = flame__tree_names(t)->count ? flame__tree_names(t)->count : 1;
	if ((inc && !(mi = calloc(nn, 1))) || (exc && !(mx = calloc(nn, 1)))) {
		rc = flame__err_nomem(err);
		goto done;
	}
	if ((inc && (rc = match_names(t, inc, mi, err))) || (exc && (rc = match_names(t, exc, mx, err))))
		goto done;
	rc = flame__tree_rewrite(t, keep_stack, &(struct keep){mi, mx}, 0, err);
done:
	pcre2_code_free(inc);
	pcre2_code_free(exc);
	free(mi);
	free(mx);
	return rc;
}

/* ---- flame__regex (core/regex.h): pcre2 for the parsers, which must not link it */

struct flame__regex {
	pcre2_code *code;
	pcre2_match_data *md;
};

int flame__regex_compile(flame__regex **out, const char *pat, size_t len, int whole,
                         const char *what, flame_err *err)
{
	*out = NULL;
	int ec;
	PCRE2_SIZE off;
	flame__regex *re = calloc(1, sizeof *re);
	if (!re)
		return flame__err_nomem(err);
	uint32_t flags = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	/* ^(?:re)$ without building a string: anchor the start, require the end */
	if (whole)
		flags |= PCRE2_ANCHORED | PCRE2_ENDANCHORED;
	re->code = pcre2_compile((PCRE2_SPTR)pat, len, flags, &ec, &off, NULL);
	if (!re->code) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(ec, msg, sizeof msg);
		free(re);
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "invalid %s regex '%.*s' at offset %zu: %s", what, (int)len, pat,
		                  (size_t)off, (const char *)msg);
	}
	pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE); /* best effort */
	if (!(re->md = pcre2_match_data_create_from_pattern(re->code, NULL))) {
		flame__regex_free(re);
		return flame__err_nomem(err);
	}
	*out = re;
	return 0;
}

int flame__regex_match(flame__regex *re, const char *s, size_t n)
{
	return pcre2_match(re->code, (PCRE2_SPTR)s, n, 0, 0, re->md, NULL) >= 0;
}

void flame__regex_free(flame__regex *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re);
}
