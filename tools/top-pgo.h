/* flame-top --pgo: whether Go's PGO takes a pprof profile, and what it gives it. */
#ifndef FLAME_TOOLS_TOP_PGO_H
#define FLAME_TOOLS_TOP_PGO_H
#include <stdio.h>
/** Report on `path` to `out` (the `rows` hottest edges, 0: all): 0, or 1 with the reason
 * on stderr when Go would refuse the profile or it cannot be read. */
int top_pgo(const char *path, unsigned rows, FILE *out);
#endif
