/* Compressed perf.data records (parse/perfdata-zstd.c): `perf record -z` writes its
 * records through one zstd stream, cut into COMPRESSED (81) and COMPRESSED2 (83) records;
 * a record of the stream may straddle two of them. perfdata-read.c feeds each one's
 * payload here and takes back the records it holds, as if the file held them. */
#ifndef FLAME_PARSE_PERFDATA_ZSTD_H
#define FLAME_PARSE_PERFDATA_ZSTD_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"

typedef struct flame__pdz flame__pdz;

/** A decompressor for the recording named `name` (borrowed, for messages), whose first
 * compressed record is at byte `off`: 0, or an error (out of memory; a build without
 * libzstd: the message says so). */
int flame__pdz_new(flame__pdz **out, const char *name, uint64_t off, flame_err *err);
void flame__pdz_free(flame__pdz *z);

/** The compressed bytes p[0..n) of the record at byte `off`, to decompress next (copied;
 * the last ones must have been taken: flame__pdz_next gave 0). */
void flame__pdz_feed(flame__pdz *z, const unsigned char *p, size_t n, uint64_t off);

/** The next whole record of the stream: 1 with *p (valid until the next call), *size and
 * *off (the compressed record it was completed in); 0 when more input is needed; or an
 * error naming the compressed record's byte. */
int flame__pdz_next(flame__pdz *z, const unsigned char **p, size_t *size, uint64_t *off,
                    flame_err *err);

/** Bytes of a record begun and not completed (at the end of the data: cut short). */
size_t flame__pdz_pending(const flame__pdz *z);
#endif
