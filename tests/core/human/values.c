/* Numbers for people as core/human.c writes them, one line per case of a cases file
 * (tests/core/human/cases.txt): compare.mjs runs the page's script on the same cases and
 * compares. Usage: human-values CASES */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/human.h"

int main(int argc, char **argv)
{
	char line[512], kind[16], value[128], a[64], b[64], out[1024];
	FILE *in = argc == 2 ? fopen(argv[1], "r") : NULL;
	if (!in) {
		fprintf(stderr, "usage: human-values CASES\n");
		return 2;
	}
	while (fgets(line, sizeof line, in)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		int n = sscanf(line, "%15s %127s %63s %63s", kind, value, a, b);
		if (n >= 3 && !strcmp(kind, "human")) {
			flame__human(out, sizeof out, strtod(value, NULL), strcmp(a, "-") ? a : NULL,
			             n == 4 && !strcmp(b, "+"));
		} else if (n == 4 && !strcmp(kind, "count")) {
			flame_amount_print(out, sizeof out, strtoull(value, NULL, 10), (unsigned)atoi(a),
			                   strcmp(b, "-") ? b : NULL);
		} else {
			fprintf(stderr, "human-values: not a case: %s", line);
			return 1;
		}
		printf("%s\n", out);
	}
	fclose(in);
	return 0;
}
