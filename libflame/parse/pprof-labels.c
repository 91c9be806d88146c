/* Sample labels of a pprof profile (parse/, used by pprof-samples.c): the filters of
 * flame_parse_opts compiled and applied -- --tag and --tag-ignore (pprof's -tagfocus and
 * -tagignore), --before-tag/--after-tag (the two columns of a differential tree) -- and
 * --group-by's root frame (pprof's -tagroot). A filter is KEY=REGEX, or KEY=N / N: / :N /
 * N:M for numeric labels in their own unit; without KEY= a regex sees "key:value". */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "../core/err.h"
#include "../core/regex.h"
#include "parser.h"
#include "pprof.h"

struct flame__pp_tagf {
	const char *key;
	size_t klen;        /* 0: any key (regexes then see "key:value") */
	int numeric;
	int has_lo, has_hi;
	int64_t lo, hi;
	flame__regex *re;
};
typedef flame__pp_tagf tagf;

static int parse_i64(const char *s, size_t n, int64_t *v)
{
	if (n == 0 || n > 20)
		return -1;
	char tmp[24];
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	char *end;
	errno = 0;
	long long x = strtoll(tmp, &end, 10);
	if (*end || errno || !((tmp[0] >= '0' && tmp[0] <= '9') || tmp[0] == '-'))
		return -1;
	*v = x;
	return 0;
}

/* A range N:, :N or N:M at `val` (`colon` its ':'): 1 when it is one, into f. */
static int tagf_range(tagf *f, const char *val, size_t vl, const char *colon)
{
	int64_t a = 0, b = 0;
	size_t al = (size_t)(colon - val), bl = vl - al - 1;
	int oka = al == 0 || parse_i64(val, al, &a) == 0;
	int okb = bl == 0 || parse_i64(colon + 1, bl, &b) == 0;
	if (!oka || !okb || (!al && !bl))
		return 0;
	f->numeric = 1;
	if ((f->has_lo = al != 0))
		f->lo = a;
	if ((f->has_hi = bl != 0))
		f->hi = b;
	return 1;
}

static int tagf_compile(tagf *f, const char *spec, const char *what, flame_err *err)
{
	memset(f, 0, sizeof *f);
	const char *eq = strchr(spec, '=');
	const char *val = spec;
	if (eq) {
		f->key = spec;
		f->klen = (size_t)(eq - spec);
		val = eq + 1;
	}
	/* a range: N, N:, :N or N:M (integers in the label's own unit) */
	const char *colon = strchr(val, ':');
	size_t vl = strlen(val);
	int64_t a = 0;
	if (!colon && parse_i64(val, vl, &a) == 0) {
		f->numeric = f->has_lo = f->has_hi = 1;
		f->lo = f->hi = a;
		return 0;
	}
	if (colon && !strchr(colon + 1, ':') && tagf_range(f, val, vl, colon))
		return 0;
	return flame__regex_compile(&f->re, val, vl, 0, what, err);
}

/* Does sample label set `labels` satisfy `f`? */
static int tagf_match(const flame__pp *p, const tagf *f, const flame__pp_label *labels,
                      size_t n, flame__pp_text *b)
{
	for (size_t i = 0; i < n; i++) {
		const flame__pp_label *lb = &labels[i];
		flame_str k = flame__pp_str(p, lb->key);
		if (f->klen && (k.len != f->klen || memcmp(k.ptr, f->key, k.len) != 0))
			continue;
		if (f->numeric) {
			if (lb->is_num && (!f->has_lo || lb->num >= f->lo) && (!f->has_hi || lb->num <= f->hi))
				return 1;
			continue;
		}
		if (lb->is_num)
			continue;
		flame_str v = flame__pp_str(p, lb->str);
		if (f->klen) {
			if (flame__regex_match(f->re, v.ptr, v.len))
				return 1;
			continue;
		}
		/* as pprof: without a key, match "key:value" */
		b->len = 0;
		if (flame__pp_put(b, k.ptr, k.len) || flame__pp_put(b, ":", 1) ||
		    flame__pp_put(b, v.ptr, v.len))
			return 0;
		if (flame__regex_match(f->re, b->p, b->len))
			return 1;
	}
	return 0;
}

static void free_tagfs(tagf *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		flame__regex_free(v[i].re);
	free(v);
}

static int compile_tagfs(const char *const *specs, size_t n, const char *what, tagf **out,
                         flame_err *err)
{
	*out = NULL;
	if (!n)
		return 0;
	tagf *v = calloc(n, sizeof *v);
	if (!v)
		return flame__err_nomem(err);
	for (size_t i = 0; i < n; i++) {
		int r = tagf_compile(&v[i], specs[i], what, err);
		if (r) {
			free_tagfs(v, i);
			return r;
		}
	}
	*out = v;
	return 0;
}

/* --before-tag / --after-tag: two slices of one profile as a diff (side_tags) */
static const char *const SIDE_OPT[2] = {"--before-tag", "--after-tag"};
static size_t n_side(const flame_parse_opts *o, int c)
{
	return o->n_side_tags[c];
}
static const char *const *side_specs(const flame_parse_opts *o, int c)
{
	return o->side_tags[c];
}

int flame__pprof_check_tags(const flame_parse_opts *o, flame_err *err)
{
	tagf *a = NULL, *b = NULL;
	int r = compile_tagfs(o->tags, o->n_tags, "--tag", &a, err);
	if (!r)
		r = compile_tagfs(o->tags_ignore, o->n_tags_ignore, "--tag-ignore", &b, err);
	free_tagfs(a, o->n_tags);
	free_tagfs(b, o->n_tags_ignore);
	for (int c = 0; !r && c < 2; c++) {
		r = compile_tagfs(side_specs(o, c), n_side(o, c), SIDE_OPT[c], &a, err);
		free_tagfs(a, n_side(o, c));
	}
	if (!r && o->group_by && !*o->group_by)
		r = flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET, "--group-by wants a label key");
	return r;
}

int flame__pp_filters_compile(flame__pp_filters *fl, const flame_parse_opts *o,
                              flame_err *err)
{
	int r;
	memset(fl, 0, sizeof *fl);
	fl->group_by = o->group_by;
	if ((r = compile_tagfs(o->tags, o->n_tags, "--tag", &fl->focus, err)))
		return r;
	fl->nfocus = o->n_tags;
	if ((r = compile_tagfs(o->tags_ignore, o->n_tags_ignore, "--tag-ignore",
	                       &fl->ignore, err)))
		return r;
	fl->nignore = o->n_tags_ignore;
	for (int c = 0; c < 2; c++) {
		if ((r = compile_tagfs(side_specs(o, c), n_side(o, c), SIDE_OPT[c], &fl->side[c], err)))
			return r;
		fl->nside[c] = n_side(o, c);
		fl->split |= fl->nside[c] != 0;
	}
	return 0;
}

void flame__pp_filters_free(flame__pp_filters *fl)
{
	free_tagfs(fl->focus, fl->nfocus);
	free_tagfs(fl->ignore, fl->nignore);
	free_tagfs(fl->side[0], fl->nside[0]);
	free_tagfs(fl->side[1], fl->nside[1]);
}

void flame__pp_filters_columns(const flame__pp_filters *fl, const flame__pp *p,
                               const flame__pp_label *labels, size_t n, flame__pp_text *b,
                               uint64_t in[2])
{
	in[0] = in[1] = 0;
	for (size_t i = 0; i < fl->nfocus; i++)
		if (!tagf_match(p, &fl->focus[i], labels, n, b))
			return;
	for (size_t i = 0; i < fl->nignore; i++)
		if (tagf_match(p, &fl->ignore[i], labels, n, b))
			return;
	/* column 0 alone without --before/--after-tag */
	in[0] = 1;
	for (int c = 0; fl->split && c < 2; c++) {
		in[c] = 1;
		for (size_t i = 0; i < fl->nside[c] && in[c]; i++)
			in[c] = (uint64_t)tagf_match(p, &fl->side[c][i], labels, n, b);
	}
}

int flame__pp_label_decode(const flame__pp *p, const flame__pbuf *b, const flame__pfield *f,
                           flame__pp_label *lb, flame_err *err)
{
	flame__pbuf sb;
	flame__pfield g;
	int r;
	memset(lb, 0, sizeof *lb);
	if ((r = flame__pp_want_wt(p, f, FLAME__WT_LEN, "sample label", err)))
		return r;
	flame__pbuf_sub(b, f, &sb);
	while ((r = flame__pbuf_next(&sb, &g, err)) > 0) {
		switch (g.num) {
		case 1: r = flame__pp_str_idx(p, &g, &lb->key, "label key", err); break;
		case 2: r = flame__pp_str_idx(p, &g, &lb->str, "label str", err); break;
		case 3:
			if (!(r = flame__pp_want_wt(p, &g, FLAME__WT_VARINT, "label num", err))) {
				lb->num = (int64_t)g.v;
				lb->is_num = 1;
			}
			break;
		case 4: r = flame__pp_str_idx(p, &g, &lb->unit, "label num_unit", err); break;
		}
		if (r < 0)
			return r;
	}
	if (lb->str)
		lb->is_num = 0;
	return r;
}

/* One label's value as --group-by shows it: the string, or the number and its unit. */
static int put_value(const flame__pp *p, const flame__pp_label *lb, flame__pp_text *b)
{
	if (!lb->is_num) {
		flame_str v = flame__pp_str(p, lb->str);
		return flame__pp_put(b, v.ptr, v.len);
	}
	char num[32];
	int w = snprintf(num, sizeof num, "%" PRId64, lb->num);
	flame_str u = flame__pp_str(p, lb->unit);
	if (flame__pp_put(b, num, (size_t)w) ||
	    (u.len && (flame__pp_put(b, " ", 1) || flame__pp_put(b, u.ptr, u.len))))
		return FLAME_ENOMEM;
	return 0;
}

int flame__pp_group_frame(flame__sink *k, const flame__pp *p, const char *key,
                          const flame__pp_label *labels, size_t n, flame__pp_text *b,
                          uint32_t *id)
{
	size_t kl = strlen(key);
	int any = 0;
	b->len = 0;
	for (size_t i = 0; i < n; i++) {
		flame_str lk = flame__pp_str(p, labels[i].key);
		if (lk.len != kl || memcmp(lk.ptr, key, kl) != 0)
			continue;
		if ((any++ && flame__pp_put(b, ",", 1)) || put_value(p, &labels[i], b))
			return FLAME_ENOMEM;
	}
	if (!any && (flame__pp_put(b, "<no ", 4) || flame__pp_put(b, key, kl) ||
	             flame__pp_put(b, ">", 1)))
		return FLAME_ENOMEM;
	return flame__pp_intern(k, b, id);
}
