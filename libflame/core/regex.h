/* A minimal internal regular-expression API, so parsers (pprof's label values and
 * drop_frames/keep_frames) and xform/filter.c match without depending on pcre2
 * themselves: the implementation is core/regex.c, the one file that uses pcre2. */
#ifndef FLAME_CORE_REGEX_H
#define FLAME_CORE_REGEX_H
#include <stddef.h>
#include "../flame.h"

typedef struct flame__regex flame__regex;

/** Compile `pat[0..len)`; with `whole` the match must span the whole subject (as
 * pprof's `^(re)$`). On error: FLAME_EUSAGE with pcre2's message and offset, `what`
 * naming the option or field ("--tag", "drop_frames"). */
int flame__regex_compile(flame__regex **out, const char *pat, size_t len, int whole,
                         const char *what, flame_err *err);
/** 1 when `s[0..n)` matches (anywhere, or wholly), 0 when not. */
int flame__regex_match(flame__regex *re, const char *s, size_t n);
void flame__regex_free(flame__regex *re);
/** Replace every match in `s[0..n)` by `repl[0..rlen)` (pcre2's substitution syntax: $1,
 * ${name}, $$) into *buf (grown as needed, the caller frees it), its length in *out_len.
 * 1 when something was replaced, 0 when nothing matched, or FLAME_EUSAGE (a replacement
 * naming a group the regex lacks) / FLAME_ENOMEM with `err` filled. */
int flame__regex_replace(flame__regex *re, const char *s, size_t n, const char *repl,
                         size_t rlen, char **buf, size_t *cap, size_t *out_len, flame_err *err);
#endif
