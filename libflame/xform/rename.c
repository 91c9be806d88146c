/* Names that differ only by run, made equal before a diff compares them: difffolded.pl's
 * -s (hex addresses), --normalize-names' built-in rules (lambda and closure numbers, JIT
 * ids, Rust hashes, temporary files) and --rename's REGEX=REPLACEMENT rules, applied in
 * that order to every name of every run. A tree is rewritten through a map of its name
 * ids, so the stacks that become equal merge. The diff (xform/diff.c) and the diff request
 * (request/diff.c, per run) call it; the regexes are core/regex.c's. */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "../core/regex.h"
#include "../core/tree.h"
#include "diff.h"

/* The built-in rules, as pcre2 patterns and replacements ($$ is a '$'). */
static const char *const builtin[][2] = {
	{"0x[0-9a-fA-F]+", "0x..."},                                  /* addresses (as -s) */
	{"\\$\\$Lambda\\$\\d+(?:/\\d++(?!x))?", "$$$$Lambda$$N"},     /* Java lambdas */
	{"(LambdaForm\\$[A-Z]+)/\\d+", "$1/N"},                       /* method handles, JDK 8 */
	{"\\.func\\d+(?:\\.\\d+)*", ".funcN"},                        /* Go closures */
	{"\\{lambda\\(([^)]*)\\)#\\d+\\}", "{lambda($1)#N}"},         /* C++ lambdas */
	{"::h[0-9a-f]{16}(?![0-9a-zA-Z_])", ""},                      /* Rust symbol hashes */
	{"jitted-\\d+-\\d+\\.so", "jitted-PID-N.so"},                 /* perf's jitdump */
	{"perf-\\d+\\.map", "perf-PID.map"},                          /* perf's JIT maps */
	{"^((?:LazyCompile|Function|JS):)[*~^+]", "$1"},              /* V8's tier marks */
	{"(?<=/tmp/|/var/tmp/|/dev/shm/)[^/\\s)\\]]+", "*"},          /* temporary files */
	{"(?<![0-9a-zA-Z])tmp[a-z0-9_]{8}(?![0-9a-zA-Z_])", "tmp*"}, /* Python's tempfile */
};
#define N_BUILTIN (sizeof builtin / sizeof builtin[0])

struct flame__namefix {
	int strip_hex;            /* -s alone: the fast scan */
	flame__regex **re;
	const char **repl;
	size_t *repl_len;
	size_t n;
	char *buf[2];
	size_t cap[2];
};

int flame__diff_renames(const flame_diff_opts *o)
{
	return o->strip_hex || o->normalize_names || o->n_renames;
}

/* The '=' that ends REGEX in `spec`: the first one not escaped by a backslash. */
static const char *rename_split(const char *spec)
{
	for (const char *p = spec; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '=')
			return p;
	}
	return NULL;
}

void flame__namefix_free(flame__namefix *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		flame__regex_free(f->re[i]);
	free(f->re);
	free(f->repl);
	free(f->repl_len);
	free(f->buf[0]);
	free(f->buf[1]);
	free(f);
}

/* Rule `i`: pattern p[0..pn) and its replacement. */
static int add_rule(flame__namefix *f, const char *p, size_t pn, const char *r, size_t rn,
                    flame_err *err)
{
	int rc = flame__regex_compile(&f->re[f->n], p, pn, 0, "--rename", err);
	if (rc)
		return rc;
	f->repl[f->n] = r;
	f->repl_len[f->n++] = rn;
	return 0;
}

int flame__namefix_new(flame__namefix **out, const flame_diff_opts *o, flame_err *err)
{
	*out = NULL;
	if (!flame__diff_renames(o))
		return 0;
	flame__namefix *f = calloc(1, sizeof *f);
	size_t cap = N_BUILTIN + o->n_renames;
	if (!f || !(f->re = calloc(cap, sizeof *f->re)) || !(f->repl = calloc(cap, sizeof *f->repl)) ||
	    !(f->repl_len = calloc(cap, sizeof *f->repl_len))) {
		flame__namefix_free(f);
		return flame__err_nomem(err);
	}
	f->strip_hex = o->strip_hex && !o->normalize_names;
	int rc = 0;
	for (size_t i = 0; o->normalize_names && i < N_BUILTIN && !rc; i++)
		rc = add_rule(f, builtin[i][0], strlen(builtin[i][0]), builtin[i][1],
		              strlen(builtin[i][1]), err);
	for (size_t i = 0; i < o->n_renames && !rc; i++) {
		const char *spec = o->renames[i], *eq = spec ? rename_split(spec) : NULL;
		if (!eq || eq == spec)
			rc = flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET,
			                "--rename wants REGEX=REPLACEMENT, got '%s'", spec ? spec : "");
		else
			rc = add_rule(f, spec, (size_t)(eq - spec), eq + 1, strlen(eq + 1), err);
	}
	if (rc) {
		flame__namefix_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

/* Length of `p` with every 0x[0-9a-fA-F]+ replaced by "0x..." (as Perl's s///g scans);
 * writes the result to `out` when not NULL. */
static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

size_t flame__strip_hex_name(const char *p, size_t n, char *out)
{
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		if (p[i] == '0' && i + 2 < n && p[i + 1] == 'x' && is_hex((unsigned char)p[i + 2])) {
			i += 2;
			while (i < n && is_hex((unsigned char)p[i]))
				i++;
			if (out)
				memcpy(out + o, "0x...", 5);
			o += 5;
			continue;
		}
		if (out)
			out[o] = p[i];
		o++;
		i++;
	}
	return o;
}

static int namefix_apply(flame__namefix *f, const char **p, size_t *n, flame_err *err)
{
	int cur = 0;
	if (f->strip_hex && *n > 2 && memmem(*p, *n, "0x", 2)) {
		size_t m = flame__strip_hex_name(*p, *n, NULL);
		if (f->cap[0] < m + 1) {
			char *b = realloc(f->buf[0], m + 64);
			if (!b)
				return flame__err_nomem(err);
			f->buf[0] = b;
			f->cap[0] = m + 64;
		}
		flame__strip_hex_name(*p, *n, f->buf[0]);
		if (m != *n || memcmp(f->buf[0], *p, m)) {
			*p = f->buf[0];
			*n = m;
			cur = 1;
		}
	}
	for (size_t i = 0; i < f->n; i++) {
		size_t len;
		int rc = flame__regex_replace(f->re[i], *p, *n, f->repl[i], f->repl_len[i],
		                              &f->buf[cur], &f->cap[cur], &len, err);
		if (rc < 0)
			return rc;
		if (rc) { /* the result is in buf[cur]; the next rule writes the other buffer */
			*p = f->buf[cur];
			*n = len;
			cur = !cur;
		}
	}
	return 0;
}

int flame__namefix_map(flame_tree *dst, const flame_tree *src, flame__namefix *f, uint32_t *map,
                       flame_err *err)
{
	const flame__intern *names = flame__tree_names(src);
	uint32_t count = names->count; /* dst may be src: new names are not revisited */
	for (uint32_t id = 0; id < count; id++) {
		const flame__name *nm = flame__intern_get(names, id);
		const char *p = nm->ptr;
		size_t n = nm->len;
		int rc = f ? namefix_apply(f, &p, &n, err) : 0;
		if (rc)
			return rc;
		if (dst == src && p == nm->ptr) {
			map[id] = id;
			continue;
		}
		map[id] = flame__tree_intern(dst, p, n);
		if (map[id] == FLAME__ID_NONE)
			return flame__err_nomem(err);
	}
	return 0;
}

static int map_stack(void *ud, const uint32_t *ids, uint32_t depth, uint32_t *out, uint64_t w[2])
{
	const uint32_t *map = ud;
	(void)w;
	for (uint32_t i = 0; i < depth; i++)
		out[i] = map[ids[i]];
	return (int)depth;
}

int flame__namefix_tree(flame_tree *t, flame__namefix *f, flame_err *err)
{
	const flame__intern *names = flame__tree_names(t);
	uint32_t *map = malloc((names->count ? (size_t)names->count : 1) * sizeof *map);
	if (!map)
		return flame__err_nomem(err);
	int rc = flame__namefix_map(t, t, f, map, err);
	int changed = 0;
	for (uint32_t id = 0; !rc && id < names->count && !changed; id++)
		changed = map[id] != id;
	if (!rc && changed)
		rc = flame__tree_rewrite(t, map_stack, map, 0, err);
	free(map);
	return rc;
}

int flame__diff_fix_names(flame_tree *t, const flame_diff_opts *o, flame_err *err)
{
	flame__namefix *f = NULL;
	int rc = flame__namefix_new(&f, o, err);
	if (!rc && f)
		rc = flame__namefix_tree(t, f, err);
	flame__namefix_free(f);
	return rc;
}
