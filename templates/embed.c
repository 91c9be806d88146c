/* Build-time tool: embeds template files into a C source as byte strings, so an
 * installed binary needs no data files.
 * Usage: embed OUT.c [--cdata|--html] NAME=FILE...  ->  const char flame__tpl_NAME[];
 * const size_t flame__tpl_NAME_len. Files after --cdata go inside CDATA sections, so "]]>"
 * in them is refused; files after --html go inside <script> and <style> elements of a
 * page, so "</" and "<!--" in them are refused (they could end or confuse the element). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: embed OUT.c NAME=FILE...\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fprintf(out, "/* Embedded templates (written by templates/embed.c at build time). */\n"
	             "#include <stddef.h>\n");
	int cdata = 0, html = 0;
	for (int a = 2; a < argc; a++) {
		if (strcmp(argv[a], "--cdata") == 0) {
			cdata = 1;
			html = 0;
			continue;
		}
		if (strcmp(argv[a], "--html") == 0) {
			html = 1;
			cdata = 0;
			continue;
		}
		char *eq = strchr(argv[a], '=');
		if (!eq) {
			fprintf(stderr, "embed: expected NAME=FILE, got %s\n", argv[a]);
			return 2;
		}
		*eq = '\0';
		FILE *in = fopen(eq + 1, "rb");
		if (!in) {
			perror(eq + 1);
			return 1;
		}
		char *buf = NULL;
		size_t len = 0, cap = 0, k;
		char chunk[65536];
		while ((k = fread(chunk, 1, sizeof chunk, in)) > 0) {
			if (len + k > cap) {
				cap = (len + k) * 2;
				buf = realloc(buf, cap);
				if (!buf)
					return 1;
			}
			memcpy(buf + len, chunk, k);
			len += k;
		}
		fclose(in);
		for (size_t i = 0; cdata && i + 2 < len; i++)
			if (buf[i] == ']' && buf[i + 1] == ']' && buf[i + 2] == '>') {
				fprintf(stderr, "embed: %s contains \"]]>\"\n", eq + 1);
				return 1;
			}
		for (size_t i = 0; html && i + 1 < len; i++)
			if (buf[i] == '<' && (buf[i + 1] == '/' || buf[i + 1] == '!')) {
				fprintf(stderr, "embed: %s contains \"%c%c\"\n", eq + 1, buf[i], buf[i + 1]);
				return 1;
			}
		fprintf(out, "extern const char flame__tpl_%s[];\nconst char flame__tpl_%s[] =\n\"",
		        argv[a], argv[a]);
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)buf[i];
			if (c == '\n')
				fputs(i + 1 < len ? "\\n\"\n\"" : "\\n", out);
			else if (c == '\\' || c == '"')
				fprintf(out, "\\%c", c);
			else if (c == '?' || c < 32 || c >= 127)
				fprintf(out, "\\%03o", c);
			else
				fputc(c, out);
		}
		fprintf(out, "\";\nextern const size_t flame__tpl_%s_len;\n"
		             "const size_t flame__tpl_%s_len = %zu;\n",
		        argv[a], argv[a], len);
		free(buf);
	}
	if (fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
