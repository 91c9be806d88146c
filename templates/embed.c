/* Build-time tool: embeds template files into a C source as arrays of bytes, so an
 * installed binary needs no data files.
 * Usage: embed OUT.c [--part NAME=FILE]... [--cdata|--html] NAME=FILE...
 *   ->  const char flame__tpl_NAME[]; const size_t flame__tpl_NAME_len (a NUL follows).
 * A line `//#include PART` in a file (only spaces or tabs before it) is replaced by the
 * part of that name, each line indented as the include line is: code that two scripts
 * share is written once (templates/search.js, human.js) and lands inside each. Parts hold
 * no includes of their own. Files after --cdata go inside CDATA sections, so "]]>" in them
 * is refused; files after --html go inside <script> and <style> elements of a page, so
 * "</" and "<!--" in them are refused (they could end or confuse the element). The bytes
 * are written as numbers, not as a string literal: ISO C promises string literals of only
 * 4095 characters (-Woverlength-strings). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 16

typedef struct buf {
	char *p;
	size_t len, cap;
} buf;

typedef struct part {
	const char *name;
	buf text;
} part;

static void put(buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			fprintf(stderr, "embed: out of memory\n");
			exit(1);
		}
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static buf slurp(const char *path)
{
	buf b = {NULL, 0, 0};
	char chunk[65536];
	size_t k;
	FILE *in = fopen(path, "rb");
	if (!in) {
		perror(path);
		exit(1);
	}
	put(&b, "", 0);
	while ((k = fread(chunk, 1, sizeof chunk, in)) > 0)
		put(&b, chunk, k);
	fclose(in);
	return b;
}

/* The include line at `line` (`n` bytes, no newline): the part it names, or NULL when the
 * line is not an include; an include of an unknown part is an error. */
static const part *included(const char *line, size_t n, const part *parts, int nparts,
                            const char *path)
{
	static const char tag[] = "//#include ";
	size_t i = strspn(line, " \t");
	if (i > n || n - i < sizeof tag - 1 || memcmp(line + i, tag, sizeof tag - 1))
		return NULL;
	const char *name = line + i + sizeof tag - 1;
	size_t len = n - i - (sizeof tag - 1);
	for (int k = 0; k < nparts; k++)
		if (strlen(parts[k].name) == len && !memcmp(parts[k].name, name, len))
			return &parts[k];
	fprintf(stderr, "embed: %s: no part named %.*s (--part NAME=FILE)\n", path, (int)len, name);
	exit(1);
}

/* `in` with its include lines replaced by their parts, indented as the include line is */
static buf expand(const buf *in, const part *parts, int nparts, const char *path)
{
	buf out = {NULL, 0, 0};
	put(&out, "", 0);
	for (size_t at = 0; at < in->len;) {
		const char *line = in->p + at, *nl = memchr(line, '\n', in->len - at);
		size_t n = nl ? (size_t)(nl - line) : in->len - at;
		const part *pt = included(line, n, parts, nparts, path);
		at += n + (nl != NULL);
		if (!pt) {
			put(&out, line, n + (nl != NULL));
			continue;
		}
		size_t indent = strspn(line, " \t");
		for (size_t k = 0; k < pt->text.len;) {
			const char *pl = pt->text.p + k, *pnl = memchr(pl, '\n', pt->text.len - k);
			size_t pn = pnl ? (size_t)(pnl - pl) : pt->text.len - k;
			if (pn)
				put(&out, line, indent);
			put(&out, pl, pn);
			put(&out, "\n", 1);
			k += pn + (pnl != NULL);
		}
	}
	return out;
}

/* 0, or 1 after saying what the text holds that its place cannot */
static int refused(const buf *b, int cdata, int html, const char *path)
{
	for (size_t i = 0; cdata && i + 2 < b->len; i++)
		if (b->p[i] == ']' && b->p[i + 1] == ']' && b->p[i + 2] == '>') {
			fprintf(stderr, "embed: %s contains \"]]>\"\n", path);
			return 1;
		}
	for (size_t i = 0; html && i + 1 < b->len; i++)
		if (b->p[i] == '<' && (b->p[i + 1] == '/' || b->p[i + 1] == '!')) {
			fprintf(stderr, "embed: %s contains \"%c%c\"\n", path, b->p[i], b->p[i + 1]);
			return 1;
		}
	return 0;
}

static void emit(FILE *out, const char *name, const buf *b)
{
	fprintf(out, "extern const char flame__tpl_%s[];\nconst char flame__tpl_%s[] = {", name, name);
	for (size_t i = 0; i <= b->len; i++) /* the NUL after the text too */
		fprintf(out, "%s%d,", i % 24 ? "" : "\n", i < b->len ? (unsigned char)b->p[i] : 0);
	fprintf(out, "\n};\nextern const size_t flame__tpl_%s_len;\n"
	             "const size_t flame__tpl_%s_len = %zu;\n",
	        name, name, b->len);
}

int main(int argc, char **argv)
{
	part parts[MAX_PARTS];
	int nparts = 0, cdata = 0, html = 0;
	if (argc < 3) {
		fprintf(stderr, "usage: embed OUT.c [--part NAME=FILE]... [--cdata|--html] NAME=FILE...\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fprintf(out, "/* Embedded templates (written by templates/embed.c at build time). */\n"
	             "#include <stddef.h>\n");
	for (int a = 2; a < argc; a++) {
		int is_part = !strcmp(argv[a], "--part") && a + 1 < argc;
		if (is_part)
			a++;
		if (!strcmp(argv[a], "--cdata") || !strcmp(argv[a], "--html")) {
			cdata = argv[a][2] == 'c';
			html = !cdata;
			continue;
		}
		char *eq = strchr(argv[a], '=');
		if (!eq || (is_part && nparts == MAX_PARTS)) {
			fprintf(stderr, "embed: expected NAME=FILE (at most %d parts), got %s\n", MAX_PARTS,
			        argv[a]);
			return 2;
		}
		*eq = '\0';
		buf text = slurp(eq + 1);
		if (is_part) {
			for (size_t i = 0; i + 10 <= text.len; i++)
				if (!memcmp(text.p + i, "//#include", 10)) {
					fprintf(stderr, "embed: %s: a part includes nothing\n", eq + 1);
					return 1;
				}
			parts[nparts++] = (part){argv[a], text};
			continue;
		}
		buf whole = expand(&text, parts, nparts, eq + 1);
		if (refused(&whole, cdata, html, eq + 1))
			return 1;
		emit(out, argv[a], &whole);
		free(text.p);
		free(whole.p);
	}
	for (int k = 0; k < nparts; k++)
		free(parts[k].text.p);
	if (fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
