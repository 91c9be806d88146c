/* Internal view of flame_input: a pull reader of decompressed bytes. */
#ifndef FLAME_CORE_INPUT_H
#define FLAME_CORE_INPUT_H
#include "../flame.h"

/** Read up to `cap` decompressed bytes into `buf`. Returns bytes read (0 at end), or a
 * negative flame_status with `err` naming the input and byte offset. */
long flame__input_read(flame_input *in, void *buf, size_t cap, flame_err *err);

/** The first bytes of the (decompressed) input, without consuming them, for format
 * detection: fills up to `cap` bytes; returns the count or a negative status. */
long flame__input_peek(flame_input *in, const char **data, size_t cap, flame_err *err);

/** Read the whole decompressed input into a malloc'd buffer (for binary formats),
 * refusing more than `limit` bytes. Caller frees *data. */
int flame__input_slurp(flame_input *in, char **data, size_t *len, size_t limit, flame_err *err);

/** 1 when `in` can be read twice (flame__input_rewind): memory, or a regular file opened
 * by path, and its bytes are not compressed (re-inflating would cost more than a second
 * read saves). Reads the first bytes to tell; 0 otherwise, without reading stdin. */
int flame__input_plain(flame_input *in);

/** Back to the first byte of a flame__input_plain input: 0, or -1 (nothing changed) when
 * it cannot be. */
int flame__input_rewind(flame_input *in);

/** Inflated bytes a gzip input may give before it fails, unless flame_input_set_limit says. */
#define FLAME_INPUT_LIMIT_DEFAULT ((uint64_t)4 << 30)

/** The limit set with flame_input_set_limit, or `dflt` when none was. */
uint64_t flame__input_limit(const flame_input *in, uint64_t dflt);

/** While `t` is being parsed from `in` (NULL: no longer), progress reports give its
 * stacks so far (flame__tree_stacks_seen, read on the thread reading `in`, which is the
 * one adding: no cost to the parsers). */
void flame__input_watch(flame_input *in, const flame_tree *t);

/** Decompressed bytes delivered so far (for error offsets). */
uint64_t flame__input_offset(const flame_input *in);

/** Bytes of a regular file or memory input (0: unknown, such as a pipe). */
uint64_t flame__input_size(const flame_input *in);

/** Read up to `n` bytes at byte `off` of a flame__input_plain input (random access, for
 * binary formats that point into themselves): bytes read (short only at the end), or a
 * negative status. The reading position of flame__input_read does not move. */
long flame__input_pread(flame_input *in, void *buf, size_t n, uint64_t off, flame_err *err);
/** A span of an input in memory, without a copy (flame__input_map). */
typedef struct flame__mapped {
	const unsigned char *p; /* the first byte asked for */
	void *base;             /* the mapping (NULL: the input's own memory) */
	size_t len;
} flame__mapped;

/** The `n` bytes at `off` of a flame__input_plain input in memory, for a reader that
 * walks much of a large file once: a read-only private mapping of the file (advised
 * sequential), or the memory input itself. 0 with *m filled, or -1 when it cannot be (a
 * range past the end, a pipe, a gzip input, mmap refused): read instead. A file that
 * shrinks below a mapped range faults when the lost bytes are read, so a reader checks
 * flame__input_holds as it goes. */
int flame__input_map(flame_input *in, uint64_t off, uint64_t n, flame__mapped *m);
void flame__input_unmap(flame__mapped *m);
/** The pages of m->p[0..done) let go, so a mapping read once costs the memory of what is
 * still to be read, not of the file (read again, they come back from the file). No-op
 * for memory inputs. */
void flame__input_map_drop(flame__mapped *m, size_t done);
/** 1 when the input still has at least `end` bytes (a regular file is asked again). */
int flame__input_holds(flame_input *in, uint64_t end);

/** Report `done` bytes of the input read to its progress callback, for a reader whose
 * reads go through flame__input_pread (which reports nothing: its offsets jump). */
void flame__input_report(flame_input *in, uint64_t done);
#endif
