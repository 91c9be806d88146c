/* Fuzz target for the reader of flame-render's HTML page (parse/html.c). The input is
 * tried twice: as a page (the data block's framing, base64 and gzip), and as the inflated
 * "FLP1" stream itself, wrapped into a page here (gzip, base64, the data block), so the
 * fuzzer reaches the stream decoder without having to write valid deflate data. Any bytes
 * must parse or fail with an error, never crash, hang or allocate without bound. */
#include <string.h>
#include <zlib.h>
#include "fuzz.h"

#define HEAD "<!DOCTYPE html>\n<script type=\"application/octet-stream\" id=\"flame-data\">"
#define TAIL "</script>\n"

static size_t base64(const unsigned char *s, size_t n, char *out)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) |
		             (i + 2 < n ? s[i + 2] : 0);
		out[o++] = a[v >> 18 & 63];
		out[o++] = a[v >> 12 & 63];
		out[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? a[v & 63] : '=';
	}
	return o;
}

/* `data` gzipped and base64-encoded into a page: its length, or 0. */
static size_t wrap(const uint8_t *data, size_t size, char **page)
{
	z_stream z = {0};
	uLong cap = compressBound(size) + 32;
	unsigned char *gz = malloc(cap);
	if (!gz || deflateInit2(&z, 1, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(gz);
		return 0;
	}
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)size;
	z.next_out = gz;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	size_t gn = z.total_out;
	deflateEnd(&z);
	*page = rc == Z_STREAM_END ? malloc(sizeof HEAD + gn / 3 * 4 + 8 + sizeof TAIL) : NULL;
	if (!*page) {
		free(gz);
		return 0;
	}
	size_t n = sizeof HEAD - 1;
	memcpy(*page, HEAD, n);
	n += base64(gz, gn, *page + n);
	memcpy(*page + n, TAIL, sizeof TAIL - 1);
	free(gz);
	return n + sizeof TAIL - 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_HTML;
	flame_fuzz_parse(data, size, &o, 0);
	char *page = NULL;
	size_t n = wrap(data, size, &page);
	if (n) {
		o.format = FLAME_FORMAT_AUTO;
		flame_fuzz_parse((const uint8_t *)page, n, &o, 0);
	}
	free(page);
	return 0;
}

#include "replay-main.h"
