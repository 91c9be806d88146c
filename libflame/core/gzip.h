/* gzip compression for writers (implemented in core/gzip-out.c; inflating is
 * core/input.c's): a stream that deflates what it is given into a flame_output. */
#ifndef FLAME_CORE_GZIP_H
#define FLAME_CORE_GZIP_H
#include <stddef.h>
#include "../flame.h"

typedef struct flame__gzip flame__gzip;

/** Start a gzip member written to `out` (which the caller still owns). */
int flame__gzip_open(flame__gzip **z, flame_output *out, flame_err *err);
/** Where compressed bytes go when they do not go straight to an output (the HTML writer
 * base64-encodes them on their way): 0, or a negative status with `err` filled. */
typedef int (*flame__gzip_sink)(void *ud, const void *p, size_t n, flame_err *err);
/** Start a gzip member handed to `sink` at zlib `level` (-1: zlib's default). */
int flame__gzip_open_sink(flame__gzip **z, flame__gzip_sink sink, void *ud, int level,
                          flame_err *err);
int flame__gzip_write(flame__gzip *z, const void *data, size_t len, flame_err *err);
/** Finish the member (trailer) and free `z`; `out` is left open. */
int flame__gzip_finish(flame__gzip *z, flame_err *err);
/** Free without finishing (on error). NULL is a no-op. */
void flame__gzip_free(flame__gzip *z);
#endif
