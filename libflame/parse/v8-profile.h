/* V8's CPU profile model, shared by the two readers that carry it (parse/): Chrome's
 * `.cpuprofile` (cpuprofile.c: one object) and Chrome trace events (chrometrace.c: the same
 * nodes, samples and time deltas cut into ProfileChunk events). The readers parse the JSON
 * around it; a node object is read here, and nodes, samples and deltas are fed in as they
 * come, in pieces, so one way turns them into stacks. Samples and deltas are parallel
 * arrays: each pair read is weighed at once (sample i lasts timeDeltas[i + 1], a negative
 * delta counting 0), so memory is the nodes, the time by node id, and what one array is
 * ahead of the other (a .cpuprofile's whole samples array until its timeDeltas come). */
#ifndef FLAME_PARSE_V8_PROFILE_H
#define FLAME_PARSE_V8_PROFILE_H
#include "../core/array.h"
#include "../core/json.h"
#include "../core/sink.h"

typedef struct flame__v8node {
	int64_t id, parent_id; /* parent_id: INT64_MIN when the node names none */
	uint64_t at;           /* the input offset of the node, for messages */
	uint32_t name, parent; /* parent: an index into nodes, or UINT32_MAX */
	int root;              /* the synthetic "(root)" */
	uint64_t w;
} flame__v8node;

/* A "children" entry: node `child` has the parent `parent` (ids). */
typedef struct flame__v8edge {
	int64_t parent, child;
} flame__v8edge;

typedef flame__array(flame__v8node) flame__v8nodes;
typedef flame__array(flame__v8edge) flame__v8edges;
typedef flame__json_text flame__v8text;

/* What the readers share while they read: the tokenizer, the sink, scratch buffers. */
typedef struct flame__v8ctx {
	flame__json *j;
	flame__sink *k;
	const char *src;
	flame__v8text fn, url, name;
	flame__array(int64_t) kids;
	flame__array(uint32_t) stack, ids;
} flame__v8ctx;

/* One profile: one thread's samples. Zero-initialized is empty. */
typedef struct flame__v8prof {
	flame__v8nodes nodes;
	flame__v8edges edges;
	flame__array(uint32_t) qs; /* samples not yet paired with their delta, from qs_at */
	flame__array(int64_t) qd;  /* deltas not yet paired with their sample, from qd_at */
	size_t qs_at, qd_at;
	uint64_t *w; /* time by node id (samples without deltas: their count), `nw` ids */
	size_t nw;
	size_t paired;   /* samples paired with their delta */
	size_t nsamples, ndeltas;
	uint32_t prev;   /* the last paired sample */
	int64_t start, end, sum; /* sum: of the deltas so far */
	int have_start, have_end, have_deltas;
	uint32_t *index; /* node id -> index in nodes, at the end */
	size_t nindex;
} flame__v8prof;

void flame__v8ctx_free(flame__v8ctx *x);
void flame__v8prof_free(flame__v8prof *p);

/** The node object whose '{' was just read, into *nd (its frame's name interned as
 * `functionName (url:line)`), its "children" appended to *edges. 0 or a status. */
int flame__v8_node(flame__v8ctx *x, flame__v8node *nd, flame__v8edges *edges);
/** A time (a number, decimals dropped) as the current token's value into *v. */
int flame__v8_time(flame__v8ctx *x, int64_t *v, const char *what);

/** Add a node read by flame__v8_node (errors name x->j's current token). */
int flame__v8prof_node(flame__v8prof *p, flame__v8ctx *x, const flame__v8node *nd);
int flame__v8prof_edges(flame__v8prof *p, flame__v8ctx *x, const flame__v8edge *e, size_t n);
/** The next `n` samples' node ids, and the next `n` time deltas. */
int flame__v8prof_samples(flame__v8prof *p, flame__v8ctx *x, const int64_t *ids, size_t n);
int flame__v8prof_deltas(flame__v8prof *p, flame__v8ctx *x, const int64_t *d, size_t n);
/** Every node with time as one stack into x->k (the synthetic root dropped). */
int flame__v8prof_finish(flame__v8prof *p, flame__v8ctx *x);
#endif
