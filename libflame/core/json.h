/* A pull tokenizer of JSON over a flame_input (core/): the JSON readers of parse/
 * (cpuprofile.c, speedscope.c) ask for one token at a time and keep only what they need,
 * so memory is one buffer of input (grown only for a token longer than it) and the
 * nesting, never a document tree. The grammar is checked as it goes (RFC 8259: commas,
 * colons, nesting, string escapes, number syntax); a bad byte is an error naming the
 * input and its byte offset. Strings come back unescaped (\uXXXX as UTF-8) and numbers as
 * their text, read on demand as an integer or a decimal. */
#ifndef FLAME_CORE_JSON_H
#define FLAME_CORE_JSON_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "../flame.h"
#include "array.h"

typedef enum flame__json_tok {
	FLAME__JSON_EOF = 0,  /* the end of the input, after the one top-level value */
	FLAME__JSON_OBJ,      /* { */
	FLAME__JSON_OBJ_END,  /* } */
	FLAME__JSON_ARR,      /* [ */
	FLAME__JSON_ARR_END,  /* ] */
	FLAME__JSON_KEY,      /* a member's name (its ':' read): the text in s, n */
	FLAME__JSON_STR,      /* a string value: s, n */
	FLAME__JSON_NUM,      /* a number: its text in s, n */
	FLAME__JSON_TRUE,
	FLAME__JSON_FALSE,
	FLAME__JSON_NULL
} flame__json_tok;

enum { FLAME__JSON_MAX_DEPTH = 256 };

typedef struct flame__json {
	flame_input *in;
	const char *src; /* the input's name, for messages */
	flame_err *err;
	char *buf;
	size_t cap, pos, len; /* unread bytes are buf[pos..len) */
	uint64_t base;        /* input offset of buf[0] */
	int eof;
	/* the current token's text (KEY, STR, NUM): in buf or in `scratch`, valid until the
	 * next call */
	const char *s;
	size_t n;
	uint64_t at; /* input offset of the current token */
	char *scratch;
	size_t scratch_cap;
	size_t max_token; /* a longer string or number is an error */
	/* the grammar: what may come next, and the open containers ('{' or '[') */
	int state;
	int peek_comma; /* the peeked element follows a ',' */
	unsigned depth;
	char open[FLAME__JSON_MAX_DEPTH];
} flame__json;

/** Start reading `in`. 0, or FLAME_ENOMEM with `err` filled. */
int flame__json_init(flame__json *j, flame_input *in, flame_err *err);
void flame__json_free(flame__json *j);

/** The next token (a flame__json_tok >= 0), or a negative status with `err` filled. */
int flame__json_next(flame__json *j);

/** Skip the rest of the value whose first token `tok` was just read (a container's whole
 * contents; nothing for a scalar). 0, or a negative status. */
int flame__json_skip(flame__json *j, int tok);

/** Skip the next value, whatever it is (a member's value a reader does not use). */
int flame__json_skip_value(flame__json *j);

/** Whether the current token's text (a key, a string) is `k`. */
static inline int flame__json_is(const flame__json *j, const char *k)
{
	return j->n == strlen(k) && !memcmp(j->s, k, j->n);
}

/** A string of the readers' own: bytes and length, room for a NUL. */
typedef flame__array(char) flame__json_text;
/** The next value as a string into *a (null, or a value of another type skipped: empty).
 * 0, or a negative status. */
int flame__json_text_value(flame__json *j, flame__json_text *a);

/** In an array: its next element as an integer into *v (1), or 0 when the array ends (its
 * ']' read); another element is FLAME_EDATA naming `what`. Plain integers (digits, no white
 * space around them) are read straight from the buffer, without a token: the arrays of
 * numbers that make most of a profile. */
int flame__json_array_int(flame__json *j, int64_t *v, const char *what);
/** The same for up to `cap` elements at once into v[]: how many were read (> 0), 0 when the
 * array ends, or a negative status. */
long flame__json_array_ints(flame__json *j, int64_t *v, size_t cap, const char *what);

/** The same where an element may also be null, read as `null_value` (the Firefox
 * Profiler's columns: a root stack's prefix, a frame's missing line). */
long flame__json_array_nints(flame__json *j, int64_t *v, size_t cap, int64_t null_value,
                             const char *what);

/** In an array: the text of its next element from its '[' to the first ']' after it, when
 * that element is an array starting right here (no white space before it) and the ']' is
 * in the buffer: 1 with the text in *p, *n (valid until the next call; nothing is read),
 * else 0. A reader that met the same text before as a whole element of numbers knows what
 * it holds and passes it with flame__json_skip_text; else it reads the element token by
 * token. (A cache of repeated stacks: speedscope's samples.) */
int flame__json_peek_array_text(flame__json *j, const char **p, size_t *n);
/** The same for an element that is an object, from its '{' to the first '}' after it: a
 * reader that recognizes the whole text as a flat object of the shape it expects reads it
 * from there (flame__json_number_token for its numbers) and passes it, else it reads the
 * element token by token. (speedscope's events.) */
int flame__json_peek_object_text(flame__json *j, const char **p, size_t *n);
/** Pass the element whose text flame__json_peek_array_text or _object_text gave, `n` bytes. */
void flame__json_skip_text(flame__json *j, size_t n);
/** Make p[0..n), within a peeked element's text, the current NUM token (for
 * flame__json_int and flame__json_decimal; messages name its offset): 0, or -1 when it is
 * not a JSON number (nothing changed). */
int flame__json_number_token(flame__json *j, const char *p, size_t n);

/** The current NUM token as an integer: 0, or FLAME_EDATA naming `what` when it has a
 * fraction, an exponent or does not fit. */
int flame__json_int(flame__json *j, int64_t *v, const char *what);

/** The current NUM token as a non-negative decimal mant / 10^dec with at most 9 decimals
 * (more are rounded half up; an exponent is applied exactly): 0, or FLAME_EDATA naming
 * `what` when it is negative (unless `neg` is not NULL: then *neg says) or too large. */
int flame__json_decimal(flame__json *j, uint64_t *mant, unsigned *dec, int *neg,
                        const char *what);

/** An error at the current token: FLAME_EDATA naming the input and its byte offset. */
int flame__json_bad(flame__json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
