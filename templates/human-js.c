/* Build-time tool: writes libflame/core/human-rules.h (the rules of numbers for people that
 * core/human.c formats with) as a JavaScript object, HUMAN_RULES, which embed.c puts into
 * the scripts of the SVG and the HTML page beside templates/human.js. So the rules exist
 * once, in C, and the scripts cannot drift from them.
 * Usage: human-js OUT.js */
#include <stdio.h>
#include <stdlib.h>
#include "../libflame/core/human-rules.h"

/* a name as a JavaScript string (the names are plain ASCII: quotes and backslashes only) */
static void str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* the shortest text that reads back as the same double; whole numbers without exponent */
static void num(FILE *out, double v)
{
	char b[32];
	if (v > -1e15 && v < 1e15 && v == (double)(long long)v) {
		fprintf(out, "%lld", (long long)v);
		return;
	}
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(b, sizeof b, "%.*g", digits, v);
		if (strtod(b, NULL) == v)
			break;
	}
	fputs(b, out);
}

static void names(FILE *out, const char *key, const char *const *list, size_t n)
{
	fprintf(out, "\t%s: [", key);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", out);
		str(out, list[i]);
	}
	fputs("],\n", out);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: human-js OUT.js\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fputs("// The rules of numbers for people: libflame/core/human-rules.h, as the build wrote it\n"
	      "// here (templates/human-js.c); templates/human.js formats with them as core/human.c does.\n"
	      "var HUMAN_RULES = {\n\ttimeNames: {",
	      out);
	for (size_t i = 0; i < FLAME__HUMAN_COUNT(flame__human_time_names); i++) {
		fputs(i ? ", " : "", out);
		str(out, flame__human_time_names[i].name);
		fputs(": ", out);
		num(out, flame__human_time_names[i].ns);
	}
	fputs("},\n", out);
	names(out, "byteNames", flame__human_byte_names, FLAME__HUMAN_COUNT(flame__human_byte_names));
	names(out, "timeUnits", flame__human_time_units, FLAME__HUMAN_COUNT(flame__human_time_units));
	names(out, "byteUnits", flame__human_byte_units, FLAME__HUMAN_COUNT(flame__human_byte_units));
	fprintf(out, "\ttimeStep: %d, byteStep: %d, nextUnitAt: ", FLAME__HUMAN_TIME_STEP,
	        FLAME__HUMAN_BYTE_STEP);
	num(out, FLAME__HUMAN_NEXT_UNIT_AT);
	fputs(",\n\twholeFrom: ", out);
	num(out, FLAME__HUMAN_WHOLE_FROM);
	fputs(", oneDecimalFrom: ", out);
	num(out, FLAME__HUMAN_ONE_DECIMAL_FROM);
	fputs(", twoDecimalsFrom: ", out);
	num(out, FLAME__HUMAN_TWO_DECIMALS_FROM);
	fprintf(out, ", maxDecimals: %d,\n\tseparator: \"%c\", group: %d, zeroTime: ",
	        FLAME__HUMAN_MAX_DECIMALS, FLAME__HUMAN_SEPARATOR, FLAME__HUMAN_GROUP);
	str(out, FLAME__HUMAN_ZERO_TIME);
	fputs("\n};\n", out);
	if (fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
