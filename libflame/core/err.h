/* Internal error helpers: fill a caller-owned flame_err (which may be NULL). */
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

/** Report a warning through the optional callback (formats into a stack buffer). */
void flame__warn(flame_warn_fn fn, void *ud, const char *kind, const char *source,
                 uint64_t line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#endif
