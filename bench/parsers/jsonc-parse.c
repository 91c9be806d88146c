/* json-c's reading of a JSON file, for bench/parsers/json.sh to set beside our readers: the
 * file fed in 1 MiB chunks to json_tokener_parse_ex (json-c's incremental parser, which
 * builds the whole document), then the document freed. Nothing is done with the document:
 * a reader on json-c could only be slower than this. Prints the bytes read.
 * Build: cc -O2 jsonc-parse.c $(pkg-config --cflags --libs json-c)
 * Usage: jsonc-parse FILE */
#include <json.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
	if (!f) {
		fprintf(stderr, "usage: jsonc-parse FILE\n");
		return 2;
	}
	struct json_tokener *tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
	static char buf[1 << 20];
	size_t n, total = 0;
	json_object *doc = NULL;
	enum json_tokener_error e = json_tokener_continue;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		total += n;
		doc = json_tokener_parse_ex(tok, buf, (int)n);
		e = json_tokener_get_error(tok);
		if (e != json_tokener_continue)
			break;
	}
	fclose(f);
	if (e != json_tokener_success || !doc) {
		fprintf(stderr, "jsonc-parse: %s\n", json_tokener_error_desc(e));
		return 1;
	}
	json_object_put(doc);
	json_tokener_free(tok);
	printf("%zu\n", total);
	return 0;
}
