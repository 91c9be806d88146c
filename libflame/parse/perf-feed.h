/* perf script samples given as decoded fields instead of text (parse/perf.c): perfdata.c
 * feeds each sample of a perf.data file here, so the options and the output are those of
 * `perf script | flame-collapse` with no text made and parsed again. Places in warnings
 * and errors are byte offsets of the recording. */
#ifndef FLAME_PARSE_PERF_FEED_H
#define FLAME_PARSE_PERF_FEED_H
#include "../flame.h"
#include "../core/intern.h"
#include "perf-name.h"

typedef struct flame__perf_feed flame__perf_feed;

/** Start adding samples to `t` with the perf options of `o`; `src` names the input. */
int flame__perf_feed_new(flame__perf_feed **out, flame_tree *t, const flame_parse_opts *o,
                         const char *src, flame_err *err);
/** The next sample, from what its event line would hold (`rest` unused); `off` is its
 * record's byte offset. Ends the sample before it. */
int flame__perf_feed_sample(flame__perf_feed *f, const flame__perf_event *ev, uint64_t off,
                            flame_err *err);
/** A frame of the current sample, leaf first: the text of a frame line after its indent
 * ("ADDR SYMBOL (DSO)"). `memo` (or NULL): a word the caller keeps with this text, 0 at
 * first; the feed fills it, and the next time skips the text's lookup while it holds. */
int flame__perf_feed_frame(flame__perf_feed *f, const char *p, size_t n, uint64_t *memo,
                           flame_err *err);
/** The frames of the current sample so far, leaf first (ids of the tree's names, `*n` of
 * them), for a caller that puts a site on the ones a frame added (perfdata-sites.c): it
 * may replace an id by a frame of the same name (core/sites.h). Valid until the next
 * call into the feed. */
uint32_t *flame__perf_feed_frames(flame__perf_feed *f, size_t *n);
/** The tree's names the frames are ids of. */
flame__intern *flame__perf_feed_names(flame__perf_feed *f);
/** The event kept when no --event-filter is given, before any sample: a perf.data names
 * its events in order, so its first sampling event is known, where text keeps the first
 * one seen. 0, or FLAME_ENOMEM. */
int flame__perf_feed_default_event(flame__perf_feed *f, const char *name, size_t n);
/** Forget the current sample's frames (perf drops a callchain it cannot read whole). */
void flame__perf_feed_drop_frames(flame__perf_feed *f);
/** End the last sample and settle what waits for the end (the event kept, the unit). */
int flame__perf_feed_finish(flame__perf_feed *f, flame_err *err);
void flame__perf_feed_free(flame__perf_feed *f);
#endif
