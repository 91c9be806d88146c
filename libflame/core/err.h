/* Internal error helpers: fill a caller-owned flame_err (which may be NULL).
 *
 * The one convention: a function that can fail and takes a flame_err fills it on every
 * failing return, through one of the four helpers below, and returns the code they
 * return. A small helper without a flame_err returns a bare status (a FLAME_E* code, or
 * -1 for out of memory), and its caller, which knows the source and position, turns it
 * into a filled error with flame__err_status. So no failing public call leaves `err`
 * empty (tests/core/test-err.c checks it, allocation failures included). */
#ifndef FLAME_CORE_ERR_H
#define FLAME_CORE_ERR_H
#include "../flame.h"

#define FLAME__NO_OFFSET UINT64_MAX

/** Set `err` (if not NULL) and return `code`, so an error path is one line:
 *  return flame__err(err, FLAME_EDATA, src, line, off, "bad count '%.*s'", n, p); */
int flame__err(flame_err *err, int code, const char *source, uint64_t line, uint64_t offset,
               const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/** Shorthand for out-of-memory: no allocation, no formatting. */
int flame__err_nomem(flame_err *err);

/** Fill `err` for a bare status `code` returned by a helper that has no flame_err (-1 is
 * out of memory): flame_strerror's text, naming `source` and the position when known. */
int flame__err_status(flame_err *err, int code, const char *source, uint64_t line,
                      uint64_t offset);

/** Give an error a callee filled another code and source (its message stays): e.g. a
 * pattern that is a usage error when typed is bad data when a file carries it. */
int flame__err_recode(flame_err *err, int code, const char *source);

/** Report a warning through the optional callback (formats into a stack buffer). */
void flame__warn(flame_warn_fn fn, void *ud, const char *kind, const char *source,
                 uint64_t line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#endif
