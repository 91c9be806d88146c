/* The sites of perf.data's user frames, for a tree that keeps them (parse/perfdata-sites.c,
 * flame_tree_keep_sites): each user frame fed to perf.c's steps as perfdata.c feeds it,
 * preceded by the frames inlined at its address (from DWARF line tables, perfdata-lines.c),
 * and each given its site: function, file, line, start line, the address and the mapping
 * (start, limit, offset, file, build id). Kernel frames and the process's get none. */
#ifndef FLAME_PARSE_PERFDATA_SITES_H
#define FLAME_PARSE_PERFDATA_SITES_H
#include <stdint.h>
#include "../core/sites.h"
#include "perf-feed.h"
#include "perfdata-cfi.h"
#include "perfdata-sym.h"

typedef struct flame__pdsites flame__pdsites;

/** Sites into `s` of frames named through `sym`, files read through `cfi` (all borrowed).
 * NULL when out of memory. */
flame__pdsites *flame__pdsites_new(flame__sites *s, flame__pdsym *sym, flame__cfi *cfi);
void flame__pdsites_free(flame__pdsites *ps);

/** The user frame at `ip` of process `pid` fed to `f` (its text as perf script prints it),
 * after the frames inlined there, each with its site at address `at`: the address whose
 * line it is (the sampled one, or a return address less one). 0, or an error. */
int flame__pdsites_frame(flame__pdsites *ps, flame__perf_feed *f, uint32_t pid, uint64_t ip,
                         uint64_t at, flame_err *err);
#endif
