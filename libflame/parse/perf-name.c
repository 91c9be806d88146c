/* perf script line grammar (event lines, frame lines, srclines, "# cmdline") and the
 * frame-name tidying of stackcollapse-perf.pl, reproduced rule by rule so folded
 * baselines made with the Perl tool diff cleanly against ours. Pure functions over one
 * line: perf.c calls them from its hot loop, the unit tests call them directly. */
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "../core/array.h"
#include "../flame.h"
#include "perf-name.h"

/* Perl's \s and \w on bytes */
static inline int perl_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
static inline int is_word(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_';
}
static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static inline int is_hex(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static inline int is_blank(unsigned char c) { return c == ' ' || c == '\t'; }

static int all_digits(const char *p, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!is_digit((unsigned char)p[i]))
			return 0;
	return 1;
}

static int has_sub(const char *p, size_t n, const char *sub)
{
	size_t k = strlen(sub);
	return n >= k && memmem(p, n, sub, k) != NULL;
}

/* ------------------------------------------------------------------ event lines */

typedef struct tok {
	size_t b, e;
} tok;

/* "1234" or "1234/5678" */
static int id_token(const char *s, tok t, size_t *slash)
{
	const char *p = s + t.b;
	size_t n = t.e - t.b;
	const char *sl = memchr(p, '/', n);
	if (!sl) {
		*slash = 0;
		return all_digits(p, n);
	}
	size_t k = (size_t)(sl - p);
	*slash = t.b + k;
	return all_digits(p, k) && all_digits(sl + 1, n - k - 1);
}

/* "[001]" */
static int cpu_token(const char *s, tok t)
{
	size_t n = t.e - t.b;
	return n >= 3 && s[t.b] == '[' && s[t.e - 1] == ']' && all_digits(s + t.b + 1, n - 2);
}

/* "420.951668:" -> seconds */
static int time_token(const char *s, tok t, double *out)
{
	const char *p = s + t.b, *e = s + t.e;
	if (e - p < 4 || e[-1] != ':')
		return 0;
	e--;
	double sec = 0;
	const char *q = p;
	while (q < e && is_digit((unsigned char)*q))
		sec = sec * 10 + (*q++ - '0');
	if (q == p || q >= e || *q != '.')
		return 0;
	const char *f = ++q;
	double frac = 0, scale = 1;
	while (q < e && is_digit((unsigned char)*q)) {
		if (scale < 1e18) {
			frac = frac * 10 + (*q - '0');
			scale *= 10;
		}
		q++;
	}
	if (q == f || q != e)
		return 0;
	*out = sec + frac / scale;
	return 1;
}

/* The first blank (want_blank) or non-blank byte of s[i..n), or n: sixteen bytes at a
 * time, since every event line is cut into tokens. */
static inline size_t find_blank(const char *s, size_t n, size_t i, int want_blank)
{
#if defined(__SSE2__)
	const __m128i sp = _mm_set1_epi8(' '), tb = _mm_set1_epi8('\t');
	unsigned flip = want_blank ? 0 : 0xffffu;
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + i));
		unsigned m = ((unsigned)_mm_movemask_epi8(
		                  _mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tb))) ^
		              flip);
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	while (i < n && is_blank((unsigned char)s[i]) != want_blank)
		i++;
	return i;
}

static size_t next_token(const char *s, size_t n, size_t i, tok *t)
{
	t->b = i = find_blank(s, n, i, 0);
	t->e = i = find_blank(s, n, i, 1);
	return i;
}

static void parse_period(const char *s, tok t, flame__perf_event *ev)
{
	uint64_t v = 0;
	ev->has_period = 1;
	ev->period_str = s + t.b;
	ev->period_len = t.e - t.b;
	for (size_t i = t.b; i < t.e; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10) {
			ev->period_overflow = 1;
			return;
		}
		v = v * 10 + d;
	}
	ev->period = v;
}

/* After the timestamp (or the id when there is none): [period] [event:] [rest].
 * Returns 0 when `need_event` and no "event:" token follows. */
static int parse_tail(const char *s, size_t n, size_t i, flame__perf_event *ev, int need_event)
{
	tok t;
	size_t j = next_token(s, n, i, &t);
	if (t.e > t.b && all_digits(s + t.b, t.e - t.b)) {
		parse_period(s, t, ev);
		i = j;
		j = next_token(s, n, i, &t);
	}
	if (t.e - t.b >= 2 && s[t.e - 1] == ':') {
		ev->event = s + t.b;
		ev->event_len = t.e - t.b - 1;
		i = j;
	} else if (need_event) {
		return 0;
	}
	while (i < n && is_blank((unsigned char)s[i]))
		i++;
	size_t e = n;
	while (e > i && is_blank((unsigned char)s[e - 1]))
		e--;
	ev->rest = s + i;
	ev->rest_len = e - i;
	return 1;
}

static void set_ids(const char *s, tok id, size_t slash, flame__perf_event *ev)
{
	if (slash) {
		ev->pid = s + id.b;
		ev->pid_len = slash - id.b;
		ev->tid = s + slash + 1;
		ev->tid_len = id.e - slash - 1;
	} else {
		ev->tid = s + id.b;
		ev->tid_len = id.e - id.b;
	}
}

int flame__perf_parse_event(const char *s, size_t n, flame__perf_event *ev)
{
	memset(ev, 0, sizeof *ev);
	if (n == 0 || s[0] == '\t' || s[0] == '#')
		return 0;
	int indented = s[0] == ' ';
	/* Anchor on the first "secs.frac:" token that follows "id [cpu]" with a comm
	 * before it: the comm may hold spaces and digits, the timestamp cannot be faked
	 * by anything before it in a real line. Keep the last three tokens. */
	tok w[3] = {{0, 0}, {0, 0}, {0, 0}};
	size_t ntok = 0, i = 0;
	tok first = {0, 0};
	for (;;) {
		tok t;
		i = next_token(s, n, i, &t);
		if (t.b == t.e)
			break;
		if (ntok == 0)
			first = t;
		double tm;
		if (ntok >= 2 && s[t.e - 1] == ':' && time_token(s, t, &tm)) {
			size_t slash;
			tok id = w[2];
			size_t before = ntok - 1; /* tokens before `id` */
			if (cpu_token(s, w[2])) {
				id = w[1];
				before = ntok - 2;
			}
			if (before >= 1 && id_token(s, id, &slash)) {
				ev->comm = s + first.b;
				/* comm: up to the end of the token before the id */
				size_t ce = id.b;
				while (ce > first.b && is_blank((unsigned char)s[ce - 1]))
					ce--;
				ev->comm_len = ce - first.b;
				set_ids(s, id, slash, ev);
				ev->has_time = 1;
				ev->time = tm;
				return parse_tail(s, n, t.e, ev, 0);
			}
		}
		w[0] = w[1];
		w[1] = w[2];
		w[2] = t;
		ntok++;
	}
	if (indented)
		return 0;
	/* Older perf without a time column: "comm id [cpu] [period] event:" */
	i = 0;
	ntok = 0;
	for (;;) {
		tok t;
		i = next_token(s, n, i, &t);
		if (t.b == t.e)
			return 0;
		size_t slash;
		if (ntok >= 1 && id_token(s, t, &slash)) {
			tok c;
			size_t j = next_token(s, n, t.e, &c), k = t.e;
			if (c.e > c.b && cpu_token(s, c))
				k = j;
			flame__perf_event tmp = *ev;
			if (parse_tail(s, n, k, &tmp, 1)) {
				*ev = tmp;
				ev->comm = s + first.b;
				size_t ce = t.b;
				while (ce > first.b && is_blank((unsigned char)s[ce - 1]))
					ce--;
				ev->comm_len = ce - first.b;
				set_ids(s, t, slash, ev);
				return 1;
			}
			memset(ev, 0, sizeof *ev);
		}
		if (ntok == 0)
			first = t;
		ntok++;
	}
}

/* ------------------------------------------------------------------ frame lines */

static const char unknown_sym[] = "[unknown]";

/* The Perl tool's /^\s*(\w+)\s*(.+) \((\S*)\)/: the dso group is the LAST " (" whose
 * following non-space run holds a ')', up to that run's last ')'. Usually that is simply
 * the last space of a line ending in ')'. 1 with the " (" at *P and the ')' at *close. */
static inline int dso_group(const char *s, size_t n, size_t *P, size_t *close)
{
	if (n >= 3 && s[n - 1] == ')') {
		const char *q = memrchr(s, ' ', n);
		if (q && q + 1 < s + n && q[1] == '(') {
			*P = (size_t)(q - s);
			*close = n - 1;
			return 1;
		}
	}
	size_t lastp = SIZE_MAX;
	for (size_t x = n; x-- > 0;) {
		unsigned char c = (unsigned char)s[x];
		if (perl_space(c)) {
			if (c == ' ' && x + 1 < n && s[x + 1] == '(' && lastp != SIZE_MAX) {
				*P = x;
				*close = lastp;
				return 1;
			}
			lastp = SIZE_MAX;
		} else if (c == ')' && lastp == SIZE_MAX) {
			lastp = x;
		}
	}
	return 0;
}

int flame__perf_parse_frame(const char *s, size_t n, flame__perf_frame *f)
{
	size_t i = 0;
	while (i < n && perl_space((unsigned char)s[i]))
		i++;
	size_t pc0 = i;
	if (pc0 == 0) {
		/* unindented (old perf): must be "hexaddr " */
		size_t k = 0;
		while (k < n && is_hex((unsigned char)s[k]))
			k++;
		if (k == 0 || k == n || !perl_space((unsigned char)s[k]))
			return 0;
	}
	while (i < n && is_word((unsigned char)s[i]))
		i++;
	size_t wend = i;
	if (wend == pc0)
		return 0;
	size_t j = wend;
	while (j < n && perl_space((unsigned char)s[j]))
		j++;
	int hexpc = 1;
	for (size_t k = pc0; k < wend; k++)
		hexpc &= is_hex((unsigned char)s[k]);

	/* -F ip,dso: "addr (dso)", no symbol */
	if (hexpc && j > wend && j + 1 < n && s[j] == '(' && s[n - 1] == ')' &&
	    !memchr(s + j, ' ', n - j)) {
		*f = (flame__perf_frame){s + pc0, wend - pc0, unknown_sym, sizeof unknown_sym - 1,
		                         s + j + 1, n - j - 2};
		return 1;
	}

	size_t P = 0, close = 0;
	if (dso_group(s, n, &P, &close) && P >= pc0 + 2) {
		size_t pc_end = wend, sym_b;
		if (P >= j + 1)
			sym_b = j;
		else if (P >= wend + 1)
			sym_b = P - 1;
		else
			sym_b = pc_end = P - 1;
		*f = (flame__perf_frame){s + pc0, pc_end - pc0, s + sym_b, P - sym_b, s + P + 2,
		                         close - P - 2};
		return 1;
	}

	/* -F ip,sym: "addr symbol", or a bare "addr" */
	if (!hexpc)
		return 0;
	size_t e = n;
	while (e > j && perl_space((unsigned char)s[e - 1]))
		e--;
	if (j == wend && j < n)
		return 0; /* "addr" glued to something */
	if (e == j)
		*f = (flame__perf_frame){s + pc0, wend - pc0, unknown_sym, sizeof unknown_sym - 1,
		                         NULL, 0};
	else
		*f = (flame__perf_frame){s + pc0, wend - pc0, s + j, e - j, NULL, 0};
	return 1;
}

int flame__perf_is_srcline(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && perl_space((unsigned char)s[i]))
		i++;
	while (n > i && perl_space((unsigned char)s[n - 1]))
		n--;
	if (i == 0 || i == n)
		return 0;
	if (s[n - 1] == ']')
		return 1; /* "libc.so.6[27b25]", "[kernel.kallsyms][ffffffff814f9302]" */
	size_t k = n;
	while (k > i && is_digit((unsigned char)s[k - 1]))
		k--;
	return k < n && k > i && s[k - 1] == ':'; /* "workload.c:27" */
}

size_t flame__perf_cmdline_target(const char *s, size_t n, const char **name)
{
	/* Perl: the last whitespace-separated field not starting with '-', basename */
	size_t e = n;
	for (;;) {
		while (e > 0 && perl_space((unsigned char)s[e - 1]))
			e--;
		if (e == 0)
			return 0;
		size_t b = e;
		while (b > 0 && !perl_space((unsigned char)s[b - 1]))
			b--;
		if (s[b] != '-') {
			const char *sl = memrchr(s + b, '/', e - b);
			if (sl)
				b = (size_t)(sl - s) + 1;
			*name = s + b;
			return e - b;
		}
		e = b;
	}
}

/* ------------------------------------------------------------------ tidying */

void flame__perf_names_free(flame__perf_names *nm)
{
	free(nm->buf);
	free(nm->v);
	memset(nm, 0, sizeof *nm);
}

static int reserve(flame__perf_names *o, size_t more)
{
	return flame__array_reserve_min(o->buf, o->cap, o->len + more, 256);
}

static int push_piece(flame__perf_names *o, const char *ptr, size_t off, size_t len)
{
	if (flame__array_reserve_min(o->v, o->vcap, o->n + 1, 8))
		return -1;
	o->v[o->n++] = (struct flame__perf_piece){ptr, off, len};
	return 0;
}

static int append(flame__perf_names *o, const char *p, size_t n)
{
	if (!n) /* the buffer may not exist yet: not even buf + len may be formed */
		return 0;
	if (reserve(o, n))
		return -1;
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	return 0;
}

static const char anon_ns[] = "anonymous namespace)";
enum { ANON_LEN = sizeof anon_ns - 1 };

static int is_anon_ns(const char *p, size_t n, size_t i)
{
	return n - i - 1 >= ANON_LEN && memcmp(p + i + 1, anon_ns, ANON_LEN) == 0;
}

/* Go method names ("net/http.(*Client).Do") match /\.\(.*\)\./ and are not cut. */
static int is_go_method(const char *p, size_t n)
{
	const char *a = memmem(p, n, ".(", 2);
	if (!a)
		return 0;
	size_t from = (size_t)(a - p) + 2;
	return memmem(p + from, n - from, ").", 2) != NULL;
}

/* Where the argument list starts: Perl cuts at the first '(' that does not open
 * "(anonymous namespace)"; with --keep-templates only a '(' outside <> {} [] counts, so
 * "std::function<int (int, int)>::operator()(int)" keeps its template. */
static size_t arg_cut(const char *p, size_t n, int keep_templates)
{
	if (!keep_templates) {
		for (size_t i = 0; i < n; i++) {
			const char *q = memchr(p + i, '(', n - i);
			if (!q)
				return n;
			i = (size_t)(q - p);
			if (!is_anon_ns(p, n, i))
				return i;
		}
		return n;
	}
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (c == 'o' && n - i >= 8 && memcmp(p + i, "operator", 8) == 0 &&
		    (i == 0 || !is_word((unsigned char)p[i - 1]))) {
			/* operator<, operator<<=, operator->, operator<=>: not brackets */
			i += 8;
			while (i < n && strchr("<>=-", p[i]) && p[i])
				i++;
			i--;
			continue;
		}
		if (c == '<' || c == '{' || c == '[')
			depth++;
		else if ((c == '>' || c == '}' || c == ']') && depth > 0)
			depth--;
		else if (c == '(' && depth == 0) {
			if (!is_anon_ns(p, n, i))
				return i;
			i += ANON_LEN;
		}
	}
	return n;
}

/* "/tmp/perf-<digits>.map" anywhere in the dso */
static int is_perf_map(const char *p, size_t n)
{
	for (const char *q = p, *e = p + n; (q = memmem(q, (size_t)(e - q), "/tmp/perf-", 10));) {
		q += 10;
		const char *d = q;
		while (d < e && is_digit((unsigned char)*d))
			d++;
		if (d > q && e - d >= 4 && memcmp(d, ".map", 4) == 0)
			return 1;
	}
	return 0;
}

static int ends_with(const char *p, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && memcmp(p + n - k, suffix, k) == 0;
}

/* A kernel dso, as the Perl tool tells it ("[kernel.kallsyms]", "[nf_conntrack]",
 * ".../vmlinux"), and as inferno does too: a versioned kernel image
 * ("vmlinux-5.4.14-cloudflare-2020.1.11") and a module file ("nf_conntrack.ko", or
 * compressed "x.ko.xz", "x.ko.zst", "x.ko.gz"). */
static int is_kernel_dso(const char *p, size_t n)
{
	if (has_sub(p, n, "unknown"))
		return 0;
	if ((n && p[0] == '[') || ends_with(p, n, "vmlinux"))
		return 1;
	const char *sl = memrchr(p, '/', n);
	const char *b = sl ? sl + 1 : p;
	size_t bn = n - (size_t)(b - p);
	return (bn > 8 && memcmp(b, "vmlinux-", 8) == 0) || ends_with(b, bn, ".ko") ||
	       ends_with(b, bn, ".ko.xz") || ends_with(b, bn, ".ko.zst") || ends_with(b, bn, ".ko.gz");
}

/* A jitdump module from `perf inject --jit`: ".../jitted-<pid>-<n>.so". */
static int is_jitdump(const char *p, size_t n)
{
	const char *sl = memrchr(p, '/', n);
	const char *b = sl ? sl + 1 : p, *e = p + n;
	if (e - b < 14 || memcmp(b, "jitted-", 7) != 0 || !ends_with(b, (size_t)(e - b), ".so"))
		return 0;
	const char *q = b + 7, *d = q;
	while (d < e && is_digit((unsigned char)*d))
		d++;
	if (d == q || *d != '-')
		return 0;
	q = ++d;
	while (d < e && is_digit((unsigned char)*d))
		d++;
	return d > q && d == e - 3;
}

/* The "_[i]" / "_[k]" / "_[j]" annotation for the name `d[0..k)`, or NULL. */
int flame__perf_dso_class(const char *dso, size_t n)
{
	return is_kernel_dso(dso, n) ? 1 : is_perf_map(dso, n) || is_jitdump(dso, n) ? 2 : 0;
}

static const char *annotation(const char *d, size_t k, size_t idx, const flame__perf_frame *f,
                              unsigned flags)
{
	if (idx > 0)
		return has_sub(d, k, "_[i]") ? NULL : "_[i]";
	if ((flags & FLAME_PERF_KERNEL) && f->dso && is_kernel_dso(f->dso, f->dso_len))
		return "_[k]";
	if ((flags & FLAME_PERF_JIT) && f->dso &&
	    (is_perf_map(f->dso, f->dso_len) || is_jitdump(f->dso, f->dso_len)))
		return has_sub(d, k, "_[j]") ? NULL : "_[j]";
	return NULL;
}

/* ------------------------------------------------------------------ Rust names */

/* Rust's legacy mangling, which perf demangles only halfway: the path is split, but
 * the escapes stay ("GcBox$LT$T$GT$::new::_$u7b$$u7b$closure$u7d$$u7d$::h5a..") and
 * the hash is kept. We finish the job as rustc-demangle does ("GcBox<T>::new::
 * {{closure}}"), on names that are Rust for sure: they hold an escape or end in
 * rustc's hash, "::h" and 16 hex digits. */

/* The escape "$NAME$" at p[0..n) (p[0] == '$'): its length, and its text in out[0..*m)
 * (at most 4 bytes); 0 when it is not one. A ';' becomes ':' as every ';' does. */
static size_t rust_escape(const char *p, size_t n, char *out, size_t *m)
{
	static const char names[][3] = {"SP", "BP", "RF", "LT", "GT", "LP", "RP", "C"};
	static const char chars[] = "@*&<>(),";
	const char *e = n > 1 ? memchr(p + 1, '$', n - 1) : NULL;
	if (!e)
		return 0;
	size_t k = (size_t)(e - p) - 1; /* the name's length */
	const char *t = p + 1;
	for (size_t i = 0; i < sizeof chars - 1; i++)
		if (strlen(names[i]) == k && memcmp(t, names[i], k) == 0) {
			out[0] = chars[i];
			*m = 1;
			return k + 2;
		}
	if (k < 2 || k > 7 || t[0] != 'u')
		return 0;
	uint32_t c = 0;
	for (size_t i = 1; i < k; i++) {
		unsigned char h = (unsigned char)t[i];
		if (!is_digit(h) && !(h >= 'a' && h <= 'f'))
			return 0;
		c = c * 16 + (is_digit(h) ? h - '0' : h - 'a' + 10);
	}
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || (c >= 0xd800 && c < 0xe000) ||
	    c > 0x10ffff)
		return 0; /* control characters and non-characters stay escaped */
	if (c < 0x80) {
		out[0] = c == ';' ? ':' : (char)c;
		*m = 1;
	} else if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		*m = 2;
	} else if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		*m = 3;
	} else {
		out[0] = (char)(0xf0 | c >> 18);
		out[1] = (char)(0x80 | (c >> 12 & 0x3f));
		out[2] = (char)(0x80 | (c >> 6 & 0x3f));
		out[3] = (char)(0x80 | (c & 0x3f));
		*m = 4;
	}
	return k + 2;
}

/* Length of the trailing "::h<hex>" hash of d[0..n) (0: none); `any` accepts any
 * number of digits (rustc-demangle's rule), else rustc's 16. */
static size_t rust_hash(const char *d, size_t n, int any)
{
	size_t k = n;
	while (k > 0 && (is_digit((unsigned char)d[k - 1]) || (d[k - 1] >= 'a' && d[k - 1] <= 'f')))
		k--;
	size_t digits = n - k;
	if (!digits || (!any && digits != 16) || k < 3 || memcmp(d + k - 3, "::h", 3) != 0)
		return 0;
	return digits + 3;
}

/* Tidy the Rust name d[0..n) in place (the text only shrinks); returns the new length. */
static size_t rust_tidy(char *d, size_t n)
{
	char tmp[4];
	size_t m, escapes = 0;
	for (const char *q = d; (q = memchr(q, '$', n - (size_t)(q - d))); q++)
		if (rust_escape(q, n - (size_t)(q - d), tmp, &m)) {
			escapes = 1;
			break;
		}
	size_t hash = rust_hash(d, n, (int)escapes);
	if (!escapes && !hash)
		return n;
	n -= hash;
	size_t w = 0;
	int start = 1; /* at the start of a path element */
	for (size_t r = 0; r < n;) {
		if (start && d[r] == '_' && r + 1 < n && d[r + 1] == '$')
			r++; /* "_$LT$impl..." is "<impl..." */
		start = 0;
		size_t k;
		if (d[r] == '$' && (k = rust_escape(d + r, n - r, tmp, &m))) {
			memcpy(d + w, tmp, m);
			w += m;
			r += k;
		} else if (d[r] == '.' && r + 1 < n && d[r + 1] == '.') {
			d[w++] = ':';
			d[w++] = ':';
			r += 2;
			start = 1;
		} else if (d[r] == ':' && r + 1 < n && d[r + 1] == ':') {
			d[w++] = ':';
			d[w++] = ':';
			r += 2;
			start = 1;
		} else {
			d[w++] = d[r++];
		}
	}
	return w;
}

/* One "->" piece: the Perl loop body from "[unknown]" to the annotations. */
static int tidy_piece(flame__perf_names *o, const char *func, size_t flen, size_t idx,
                      const flame__perf_frame *f, unsigned flags)
{
	size_t start = o->len;
	int in_buf = 0;

	if (flen == sizeof unknown_sym - 1 && memcmp(func, unknown_sym, flen) == 0) {
		const char *base = "unknown";
		size_t blen = 7;
		if (f->dso && !(f->dso_len == 9 && memcmp(f->dso, unknown_sym, 9) == 0)) {
			const char *sl = memrchr(f->dso, '/', f->dso_len);
			base = sl ? sl + 1 : f->dso;
			blen = f->dso_len - (size_t)(base - f->dso);
		}
		if (append(o, "[", 1) || append(o, base, blen))
			return -1;
		if (flags & FLAME_PERF_ADDRS) {
			if (append(o, " <", 2) || append(o, f->pc, f->pc_len) || append(o, ">", 1))
				return -1;
		}
		if (append(o, "]", 1))
			return -1;
		in_buf = 1;
	}

	/* ';' -> ':', cut the arguments, drop quotes, java's "L": decide on the source
	 * bytes, and copy only when something changes. */
	const char *src = in_buf ? o->buf + start : func;
	size_t slen = in_buf ? o->len - start : flen;
	/* one pass for the bytes any rule cares about */
	int paren = 0, quote = 0, dollar = 0;
	for (size_t i = 0; i < slen; i++) {
		unsigned char c = (unsigned char)src[i];
		if (c <= '\'' || c == '(' || c == ';') {
			paren |= c == '(';
			quote |= c == ';' || c == '"' || c == '\'';
			dollar |= c == '$';
		}
	}
	size_t cut = slen;
	if (paren && !is_go_method(src, slen))
		cut = arg_cut(src, slen, flags & FLAME_PERF_KEEP_TEMPLATES);
	/* a Rust name: an escape, or rustc's hash at the end */
	int rust = !(flags & FLAME_PERF_RAW_NAMES) && (dollar || rust_hash(src, cut, 0));
	int dirty = in_buf || cut < slen || quote || rust;
	if (!dirty && !((flags & FLAME__PERF_JAVA) && cut && src[0] == 'L')) {
		const char *ann = annotation(src, cut, idx, f, flags);
		if (!ann)
			return push_piece(o, func, 0, flen);
		if (append(o, src, cut) || append(o, ann, 4))
			return -1;
		return push_piece(o, NULL, start, o->len - start);
	}
	/* rebuild in place: the output never outgrows the source before the annotation */
	if (!in_buf) {
		if (append(o, func, flen))
			return -1;
	}
	char *d = o->buf + start;
	size_t k = 0;
	for (size_t i = 0; i < cut; i++) {
		char c = d[i];
		if (c == '"' || c == '\'')
			continue;
		d[k++] = c == ';' ? ':' : c;
	}
	if ((flags & FLAME__PERF_JAVA) && k > 0 && d[0] == 'L' && memchr(d, '/', k)) {
		memmove(d, d + 1, k - 1);
		k--;
	}
	if (rust)
		k = rust_tidy(d, k);
	o->len = start + k;
	const char *ann = annotation(d, k, idx, f, flags);
	if (ann && append(o, ann, 4))
		return -1;
	return push_piece(o, NULL, start, o->len - start);
}

int flame__perf_tidy(const flame__perf_frame *f, unsigned flags, flame__perf_names *out)
{
	out->len = 0;
	out->n = 0;
	const char *s = f->sym;
	size_t n = f->sym_len;
	/* s/\+0x[\da-f]+$// */
	size_t k = n;
	while (k > 0 && (is_digit((unsigned char)s[k - 1]) || (s[k - 1] >= 'a' && s[k - 1] <= 'f')))
		k--;
	if (k < n && k >= 3 && s[k - 3] == '+' && s[k - 2] == '0' && s[k - 1] == 'x')
		n = k - 3;
	if (n && s[0] == '(')
		return 0; /* Perl: "skip process names" */
	/* split /\->/, whose trailing empty fields Perl drops */
	while (n >= 2 && s[n - 2] == '-' && s[n - 1] == '>')
		n -= 2;
	if (n == 0)
		return 0;
	int arrows = memchr(s, '-', n) != NULL;
	for (size_t b = 0, idx = 0;; idx++) {
		const char *a = arrows ? memmem(s + b, n - b, "->", 2) : NULL;
		size_t e = a ? (size_t)(a - s) : n;
		if (tidy_piece(out, s + b, e - b, idx, f, flags))
			return -1;
		if (!a)
			break;
		b = e + 2;
	}
	return (int)out->n;
}
