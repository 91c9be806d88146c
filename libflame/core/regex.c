/* The regex wrapper of core/regex.h: pcre2 behind a small interface, the one file that
 * includes pcre2.h, so the parsers (pprof's drop_frames/keep_frames and label filters)
 * and the filters of xform/ match the same way without reaching into each other. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include "err.h"
#include "regex.h"

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

int flame__regex_replace(flame__regex *re, const char *s, size_t n, const char *repl,
                         size_t rlen, char **buf, size_t *cap, size_t *out_len, flame_err *err)
{
	if (pcre2_match(re->code, (PCRE2_SPTR)s, n, 0, 0, re->md, NULL) < 0)
		return 0;
	for (;;) {
		if (*cap < n + rlen + 64) {
			size_t want = (n + rlen + 64) * 2;
			char *b = realloc(*buf, want);
			if (!b)
				return flame__err_nomem(err);
			*buf = b;
			*cap = want;
		}
		PCRE2_SIZE len = *cap;
		int rc = pcre2_substitute(re->code, (PCRE2_SPTR)s, n, 0,
		                          PCRE2_SUBSTITUTE_GLOBAL | PCRE2_SUBSTITUTE_OVERFLOW_LENGTH,
		                          re->md, NULL, (PCRE2_SPTR)repl, rlen, (PCRE2_UCHAR *)*buf, &len);
		if (rc >= 0) {
			*out_len = len;
			return rc > 0;
		}
		if (rc == PCRE2_ERROR_NOMEMORY) { /* len is the size it needs */
			char *b = realloc(*buf, len + 1);
			if (!b)
				return flame__err_nomem(err);
			*buf = b;
			*cap = len + 1;
			continue;
		}
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(rc, msg, sizeof msg);
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
		                  "replacement '%.*s': %s", (int)rlen, repl, (const char *)msg);
	}
}
