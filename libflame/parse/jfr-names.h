/* Between jfr-events.c and jfr-names.c: the names of a chunk's stack traces and threads
 * as `jfr print` shows them, decoded once per chunk from its constant pools. A stack
 * trace is a run of name ids, root first; the events reader keys its stacks by it. */
#ifndef FLAME_PARSE_JFR_NAMES_H
#define FLAME_PARSE_JFR_NAMES_H
#include "../core/sink.h"
#include "jfr-bin.h"

/* Where a stack trace or thread was found: the chunk's own pools, the chunk before's
 * (written there around the switch to a new chunk), neither. */
enum { FLAME__JFR_OWN, FLAME__JFR_PREV, FLAME__JFR_NONE };

typedef struct flame__jfr_sent { /* a stack trace of the chunk: ids[off..off+n), root first */
	uint32_t off, n, truncated;
	uint32_t from; /* FLAME__JFR_OWN, _PREV or _NONE */
} flame__jfr_sent;

typedef struct flame__jfr_ment { /* a method of the chunk: its jfr print text at mtext + off */
	uint32_t off, len, hidden;
} flame__jfr_ment;

typedef struct flame__jfr_names {
	flame__sink *k;        /* where names are interned */
	unsigned flags;        /* FLAME_JFR_* */
	flame__jfr_chunk *c;   /* the chunk being read */
	flame__jfr_map cache;  /* (kind, key) -> its sent, thread name id or ment */
	flame__jfr_sent *stk;
	size_t nstk, stk_cap;
	flame__jfr_ment *meth;
	size_t nmeth, meth_cap;
	uint32_t *ids;         /* the stack traces' ids */
	size_t nids, ids_cap;
	char *mtext;           /* the methods' texts */
	size_t mlen, mcap;
	uint32_t *frames;      /* scratch: a stack trace's ids, leaf first */
	size_t frames_cap;
	char *name;            /* scratch: a frame's name */
	size_t name_cap;
	uint32_t truncated_id; /* "[truncated]", FLAME__ID_NONE until needed */
	uint32_t mkind;        /* the cache's class for methods of the chunk decoded from */
} flame__jfr_names;

void flame__jfr_names_init(flame__jfr_names *e, flame__sink *k, unsigned flags);
void flame__jfr_names_free(flame__jfr_names *e);
/** Forget the last chunk's names: those of chunk `c` follow. */
void flame__jfr_names_chunk(flame__jfr_names *e, flame__jfr_chunk *c);

/** The stack trace constant `key` of class `cls` into *out (empty when neither the
 * chunk's pools nor the chunk before's have it: see its `from`); an error naming the
 * byte when its frames are damaged. */
int flame__jfr_stack(flame__jfr_names *e, uint32_t cls, uint64_t key,
                     const flame__jfr_sent **out, flame_err *err);
/** The name id of the thread constant `key` of class `cls` ("N/A" when neither the
 * chunk's pools nor the chunk before's have it), or FLAME__ID_NONE out of memory; *from
 * says where it was found. */
uint32_t flame__jfr_thread(flame__jfr_names *e, uint32_t cls, uint64_t key, uint32_t *from);
/** An integer field's value at `at` (`dflt` when absent or not an integer). */
int64_t flame__jfr_field_int(flame__jfr_chunk *c, const flame__jfr_field *f, const uint8_t *at,
                             int64_t dflt);
#endif
