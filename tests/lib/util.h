/* Test helpers: parse a string, write a tree as folded text or SVG (or any output format,
 * through flame_write) into a string. */
#ifndef FLAME_TEST_UTIL_H
#define FLAME_TEST_UTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libflame/flame.h"

/* A new tree; the tests treat running out of memory as a crash. */
static inline flame_tree *test_tree_new(void)
{
	flame_tree *t = NULL;
	if (flame_tree_new(&t, NULL))
		abort();
	return t;
}

/* Parse `text` as `fmt` into a new tree; NULL on error (message in *err). */
static inline flame_tree *parse_str(const char *text, flame_format fmt, flame_err *err)
{
	flame_tree *t = test_tree_new();
	flame_input *in = NULL;
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = fmt;
	if (flame_input_open_mem(&in, text, strlen(text), "test", err) ||
	    flame_parse(t, in, &o, err)) {
		flame_input_free(in);
		flame_tree_free(t);
		return NULL;
	}
	flame_input_free(in);
	return t;
}

/* The contents of `path` as a malloc'd string (NUL-terminated; its length, which counts
 * any NUL bytes inside, in *len when not NULL); the file is removed. */
static inline char *slurp_unlink_n(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	size_t got = s ? fread(s, 1, (size_t)n, f) : 0;
	if (s)
		s[got] = '\0';
	if (len)
		*len = got;
	fclose(f);
	unlink(path);
	return s;
}

static inline char *slurp_unlink(const char *path)
{
	return slurp_unlink_n(path, NULL);
}

/* What a writer makes of `t` (malloc'd; its length in *len when not NULL), through a temp
 * file: flame_write as `via`, or with FLAME_OUTPUT_NONE the writer itself -- the SVG
 * when `ro` is given, else folded text. NULL on error. */
static inline char *written(flame_tree *t, flame_output_format via, const flame_render_opts *ro,
                            size_t *len)
{
	char path[] = "/tmp/flame-test-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	close(fd);
	flame_output *o = NULL;
	flame_err err;
	if (flame_output_open(&o, path, &err)) {
		unlink(path);
		return NULL;
	}
	int rc = via != FLAME_OUTPUT_NONE ? flame_write(t, via, ro, o, &err)
	         : ro                     ? flame_write_svg(t, ro, o, &err)
	                                  : flame_write_folded(t, o, &err);
	if (rc)
		flame_output_abort(o);
	if (rc || flame_output_commit(o, &err)) {
		unlink(path);
		return NULL;
	}
	return slurp_unlink_n(path, len);
}

static inline char *written_as(flame_tree *t, flame_output_format format,
                               const flame_render_opts *ro, size_t *len)
{
	return written(t, format, ro, len);
}

static inline char *written_str(flame_tree *t, const flame_render_opts *ro)
{
	return written(t, FLAME_OUTPUT_NONE, ro, NULL);
}

/* The stacks of `t` as folded text: flame_write_folded's lines after its header line
 * (`# countname=...`, when the tree knows its unit; test-io checks it), so a parser's
 * tests compare stacks whatever unit the parser records. */
static inline char *folded_str(flame_tree *t)
{
	char *s = written_str(t, NULL);
	if (s && !strncmp(s, "# countname=", 12)) {
		char *nl = strchr(s, '\n');
		memmove(s, nl ? nl + 1 : s + strlen(s), strlen(nl ? nl + 1 : s + strlen(s)) + 1);
	}
	return s;
}

/* All of flame_write_folded's output, header line included. */
static inline char *folded_all(flame_tree *t)
{
	return written_str(t, NULL);
}

static inline char *svg_str(flame_tree *t, const flame_render_opts *ro)
{
	return written_str(t, ro);
}
#endif
