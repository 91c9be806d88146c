/* core/json.c, the pull tokenizer under the JSON readers: every token kind, string
 * escapes (surrogate pairs, lone surrogates), the number grammar, each grammar error with
 * its byte offset, tokens that straddle the 1 MiB buffer (a long string, a name before its
 * ':' after white space, arrays of numbers read in batches and peeked as text), integers
 * and decimals read from number tokens. */
#include <stdint.h>
#include "harness.h"
#include "libflame/core/json.h"

/* The tokens of `s` as text ("{ K:a N:1 }"), or the first error ("ERR 4: ..."). */
static char *trace_of(const char *s, size_t n)
{
	static char out[4096];
	flame_input *in = NULL;
	flame_err err;
	flame__json j;
	size_t o = 0;
	out[0] = '\0';
	if (flame_input_open_mem(&in, s, n, "t", &err) || flame__json_init(&j, in, &err))
		abort();
	for (;;) {
		int t = flame__json_next(&j);
		const char *k[] = {"EOF", "{", "}", "[", "]", "K:", "S:", "N:", "true", "false", "null"};
		if (t < 0) {
			o += (size_t)snprintf(out + o, sizeof out - o, "%sERR %llu: %s", o ? " " : "",
			                      (unsigned long long)err.offset, err.msg);
			break;
		}
		o += (size_t)snprintf(out + o, sizeof out - o, "%s%s", o ? " " : "", k[t]);
		if (t == FLAME__JSON_KEY || t == FLAME__JSON_STR || t == FLAME__JSON_NUM)
			o += (size_t)snprintf(out + o, sizeof out - o, "%.*s", (int)j.n, j.s);
		if (t == FLAME__JSON_EOF || o > sizeof out - 256)
			break;
	}
	flame__json_free(&j);
	flame_input_free(in);
	return out;
}

static char *trace(const char *s)
{
	return trace_of(s, strlen(s));
}

static void test_tokens(void)
{
	CHECK_STR(trace(" {\"a\" : [1, -2.5e+3, \"x\", true, false, null, {}, []]}\n"),
	          "{ K:a [ N:1 N:-2.5e+3 S:x true false null { } [ ] ] } EOF");
	CHECK_STR(trace("3"), "N:3 EOF");
	CHECK_STR(trace("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\""), "S:\"\\/\b\f\n\r\tA\xc3\xa9 EOF");
	CHECK_STR(trace("\"\\ud83d\\ude00 \\ud83d \\ude00x\""),
	          "S:\xf0\x9f\x98\x80 \xef\xbf\xbd \xef\xbf\xbdx EOF");
}

static void test_errors(void)
{
	CHECK_STR(trace("[1,]"), "[ N:1 ERR 3: an unexpected ']'");
	CHECK_STR(trace("{\"a\" 1}"), "{ ERR 5: a ':' should follow a member name");
	CHECK_STR(trace("3,4"), "N:3 ERR 1: more bytes after the JSON value");
	CHECK_STR(trace("[1 2]"), "[ N:1 ERR 3: a ',' or a closing bracket should come here");
	CHECK_STR(trace("[01]"), "[ ERR 1: a malformed number");
	CHECK_STR(trace("[1.]"), "[ ERR 1: a malformed number");
	CHECK_STR(trace("[-]"), "[ ERR 1: a malformed number");
	CHECK_STR(trace("{1:2}"), "{ ERR 1: a member name should come here");
	CHECK_STR(trace("[\"ab"), "[ ERR 1: the input ends inside a string");
	CHECK_STR(trace("[\"a\tb\"]"), "[ ERR 1: a control character in a string");
	CHECK_STR(trace("[\"\\x\"]"), "[ ERR 1: a bad escape in a string");
	CHECK_STR(trace("[\"\\u12\"]"), "[ ERR 1: a bad escape in a string");
	CHECK_STR(trace("[1]]"), "[ N:1 ] ERR 3: more bytes after the JSON value");
	CHECK_STR(trace("[1"), "[ N:1 ERR 2: the input ends inside a value");
	CHECK_STR(trace(""), "ERR 0: no JSON value");
	CHECK_STR(trace("[tru]"), "[ ERR 1: an unexpected 't'");
	CHECK_STR(trace("[}"), "[ ERR 1: an unexpected '}'");
	CHECK_STR(trace("\x01"), "ERR 0: an unexpected byte 0x01");
	char deep[300];
	memset(deep, '[', sizeof deep);
	CHECK(strstr(trace_of(deep, sizeof deep), "ERR 256: nesting deeper than 256") != NULL);
}

/* Open a reader on s[0..n) and read its first `skip` tokens. */
static void open_at(flame__json *j, flame_input **in, const char *s, size_t n, int skip)
{
	flame_err *err = malloc(sizeof *err);
	if (flame_input_open_mem(in, s, n, "t", err) || flame__json_init(j, *in, err))
		abort();
	while (skip--)
		flame__json_next(j);
}

static void test_numbers(void)
{
	static const struct { const char *text; int rc; uint64_t m; unsigned d; } dec[] = {
	    {"0.005", 0, 5, 3},      {"1e-3", 0, 1, 3},        {"2.5e3", 0, 2500, 0},
	    {"3", 0, 3, 0},          {"1.23456789012", 0, 1234567890, 9}, {"0.0000000005", 0, 1, 9},
	    {"-1", FLAME_EDATA, 0, 0}, {"1e41", FLAME_EDATA, 0, 0}, {"99999999999999999999", FLAME_EDATA, 0, 0},
	};
	for (size_t i = 0; i < sizeof dec / sizeof dec[0]; i++) {
		flame__json j;
		flame_input *in;
		open_at(&j, &in, dec[i].text, strlen(dec[i].text), 1);
		uint64_t m = 0;
		unsigned d = 0;
		int rc = flame__json_decimal(&j, &m, &d, NULL, "a weight");
		if (rc != dec[i].rc || (!rc && (m != dec[i].m || d != dec[i].d)))
			fprintf(stderr, "%s: rc %d, %llu / 10^%u\n", dec[i].text, rc, (unsigned long long)m, d);
		CHECK(rc == dec[i].rc && (rc || (m == dec[i].m && d == dec[i].d)));
		int neg = 0;
		if (dec[i].text[0] == '-')
			CHECK(flame__json_decimal(&j, &m, &d, &neg, "x") == 0 && neg && m == 1);
		free(j.err);
		flame__json_free(&j);
		flame_input_free(in);
	}
	static const struct { const char *text; int rc; int64_t v; } ints[] = {
	    {"9223372036854775807", 0, INT64_MAX}, {"-9223372036854775808", 0, INT64_MIN},
	    {"9223372036854775808", FLAME_EDATA, 0}, {"1.0", FLAME_EDATA, 0}, {"1e2", FLAME_EDATA, 0},
	};
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		flame__json j;
		flame_input *in;
		open_at(&j, &in, ints[i].text, strlen(ints[i].text), 1);
		int64_t v = 0;
		int rc = flame__json_int(&j, &v, "an id");
		CHECK(rc == ints[i].rc && (rc || v == ints[i].v));
		free(j.err);
		flame__json_free(&j);
		flame_input_free(in);
	}
}

/* Arrays of numbers read in batches, over the buffer's edge, with white space and
 * numbers the fast path leaves to the tokenizer. */
static void test_batches(void)
{
	size_t n = 3 << 20, o = 0, count = 0;
	char *s = malloc(n + 64);
	uint64_t want = 0, got_sum = 0; /* sums modulo 2^64: they pass INT64_MAX */
	s[o++] = '[';
	for (int64_t k = 0; o < n; k++) {
		int64_t v = k % 7 == 3 ? -k : k % 11 == 5 ? 123456789012345678LL : k;
		o += (size_t)sprintf(s + o, k % 13 == 7 ? "%s %lld" : "%s%lld", k ? "," : "", (long long)v);
		want += (uint64_t)v;
		count++;
	}
	s[o++] = ']';
	flame__json j;
	flame_input *in;
	open_at(&j, &in, s, o, 1);
	int64_t v[100];
	long got;
	size_t seen = 0;
	while ((got = flame__json_array_ints(&j, v, 100, "x")) > 0)
		for (long i = 0; i < got; i++, seen++)
			got_sum += (uint64_t)v[i];
	CHECK(got == 0 && seen == count && got_sum == want);
	CHECK(flame__json_next(&j) == FLAME__JSON_EOF);
	free(j.err);
	flame__json_free(&j);
	flame_input_free(in);
	/* a string and a name longer than the buffer, the ':' after white space past its edge */
	memset(s, ' ', n);
	memcpy(s, "{\"", 2);
	memset(s + 2, 'k', 1500000);
	memcpy(s + 1500002, "\"", 1);
	memcpy(s + (1 << 20) + 600000 - 1, ":[[1,2],[1,2],  [3]]}", 21);
	open_at(&j, &in, s, (1 << 20) + 600020, 1);
	CHECK(flame__json_next(&j) == FLAME__JSON_KEY && j.n == 1500000 && j.s[0] == 'k');
	CHECK(flame__json_next(&j) == FLAME__JSON_ARR);
	const char *p;
	size_t tn;
	CHECK(flame__json_peek_array_text(&j, &p, &tn) == 1 && tn == 5 && !memcmp(p, "[1,2]", 5));
	flame__json_skip_text(&j, tn);
	CHECK(flame__json_peek_array_text(&j, &p, &tn) == 1 && tn == 5);
	flame__json_skip_text(&j, tn);
	CHECK(flame__json_peek_array_text(&j, &p, &tn) == 0); /* white space first */
	CHECK(flame__json_next(&j) == FLAME__JSON_ARR && flame__json_array_int(&j, v, "x") == 1 && v[0] == 3);
	CHECK(flame__json_array_int(&j, v, "x") == 0);
	CHECK(flame__json_next(&j) == FLAME__JSON_ARR_END && flame__json_next(&j) == FLAME__JSON_OBJ_END);
	CHECK(flame__json_next(&j) == FLAME__JSON_EOF);
	free(j.err);
	flame__json_free(&j);
	flame_input_free(in);
	free(s);
}

/* Skip the value whose first token is the `skip`-th of s: its status, with the error's
 * offset and message in *msg. */
static int skip_in(const char *s, int skip, char *msg, size_t cap)
{
	flame__json j;
	flame_input *in;
	open_at(&j, &in, s, strlen(s), skip - 1);
	int t = flame__json_next(&j), rc = t < 0 ? t : flame__json_skip(&j, t);
	if (!rc)
		rc = flame__json_next(&j) == FLAME__JSON_EOF ? 0 : 1;
	snprintf(msg, cap, "%llu: %s", (unsigned long long)j.err->offset, rc < 0 ? j.err->msg : "");
	free(j.err);
	flame__json_free(&j);
	flame_input_free(in);
	return rc;
}

/* Skipping reads arrays of integers straight from the buffer (Chrome's "lines"): the same
 * checks as token by token. */
static void test_skip(void)
{
	char msg[600];
	const char *ints = "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20";
	char s[400];
	snprintf(s, sizeof s, "{\"a\":%s],\"b\":[%s],-3]}", ints, ints);
	CHECK(skip_in(s, 1, msg, sizeof msg) == 0);
	snprintf(s, sizeof s, "[%s,,21]]", ints);
	CHECK(skip_in(s, 1, msg, sizeof msg) < 0 && !strcmp(msg, "53: an unexpected ','"));
	snprintf(s, sizeof s, "[%s,01,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]]", ints);
	CHECK(skip_in(s, 1, msg, sizeof msg) < 0 && !strcmp(msg, "53: a malformed number"));
	snprintf(s, sizeof s, "[%s 21,22,23,24,25,26,27,28,29,30,31,32,33]]", ints);
	CHECK(skip_in(s, 1, msg, sizeof msg) < 0 && !strcmp(msg, "53: a ',' or a closing bracket should come here"));
	snprintf(s, sizeof s, "[%s,123456789012345678901234,1.5e3,-0,2,3,4,5,6,7,8,9,10,11,12]]", ints);
	CHECK(skip_in(s, 1, msg, sizeof msg) == 0);
}

/* A flat object element's text, and numbers in it made the current token. */
static void test_peek_object(void)
{
	const char *s = "[{\"a\":12},{\"b\":-3.5e1},{\"c\":[]},7]";
	flame__json j;
	flame_input *in;
	const char *p;
	size_t n;
	int64_t v;
	uint64_t m;
	unsigned d;
	open_at(&j, &in, s, strlen(s), 1);
	CHECK(flame__json_peek_object_text(&j, &p, &n) == 1 && n == 8 && !memcmp(p, "{\"a\":12}", 8));
	CHECK(flame__json_number_token(&j, p + 5, 2) == 0 && j.at == 6 &&
	      flame__json_int(&j, &v, "x") == 0 && v == 12);
	CHECK(flame__json_number_token(&j, p + 4, 3) == -1); /* ':12' */
	flame__json_skip_text(&j, n);
	CHECK(flame__json_peek_object_text(&j, &p, &n) == 1 && n == 12);
	CHECK(flame__json_number_token(&j, p + 5, 6) == 0 &&
	      flame__json_decimal(&j, &m, &d, NULL, "x") < 0); /* negative */
	flame__json_skip_text(&j, n);
	CHECK(flame__json_next(&j) == FLAME__JSON_OBJ); /* read token by token */
	CHECK(flame__json_next(&j) == FLAME__JSON_KEY && flame__json_next(&j) == FLAME__JSON_ARR);
	CHECK(flame__json_next(&j) == FLAME__JSON_ARR_END && flame__json_next(&j) == FLAME__JSON_OBJ_END);
	CHECK(flame__json_peek_object_text(&j, &p, &n) == 0); /* 7: not an object */
	CHECK(flame__json_next(&j) == FLAME__JSON_NUM && flame__json_next(&j) == FLAME__JSON_ARR_END);
	CHECK(flame__json_next(&j) == FLAME__JSON_EOF);
	free(j.err);
	flame__json_free(&j);
	flame_input_free(in);
}

/* Integers with nulls among them (the Firefox Profiler's columns): null gives the value
 * asked for, in and out of the fast path; a string is refused naming what was read. */
static void test_nullable(void)
{
	static const char text[] = "[null,1,-1, null ,22,null]   ";
	static const char bad[] = "[1,\"x\"]                          ";
	flame__json j;
	flame_input *in;
	int64_t v[8], all[8];
	long got;
	size_t n = 0;
	open_at(&j, &in, text, sizeof text - 1, 1); /* past the '[' */
	while ((got = flame__json_array_nints(&j, v, 8, -7, "x")) > 0)
		for (long i = 0; i < got && n < 8; i++)
			all[n++] = v[i];
	CHECK(got == 0 && n == 6);
	CHECK(n == 6 && all[0] == -7 && all[1] == 1 && all[2] == -1 && all[3] == -7 && all[4] == 22 &&
	      all[5] == -7);
	CHECK(flame__json_next(&j) == FLAME__JSON_EOF);
	free(j.err);
	flame__json_free(&j);
	flame_input_free(in);
	open_at(&j, &in, bad, sizeof bad - 1, 1);
	while ((got = flame__json_array_nints(&j, v, 8, -1, "a stack")) > 0)
		;
	CHECK(got == FLAME_EDATA && strstr(j.err->msg, "a stack should be a number or null"));
	free(j.err);
	flame__json_free(&j);
	flame_input_free(in);
}

int main(void)
{
	RUN(test_tokens);
	RUN(test_errors);
	RUN(test_numbers);
	RUN(test_batches);
	RUN(test_skip);
	RUN(test_peek_object);
	RUN(test_nullable);
	return harness_done();
}
