/* A cost report (flame-top) as xform/cost.c rolls it up and write/cost.c prints it: the
 * groups (functions, roots, teams) with their self and total counts, and what turns counts
 * into CPU seconds, cores and money. Here in core because the two layers share it. */
#ifndef FLAME_CORE_COST_H
#define FLAME_CORE_COST_H
#include "../flame.h"

struct flame_cost_report {
	flame_cost_row *rows;  /* every group, sorted as asked (largest first, ties by name) */
	size_t n;
	uint64_t total;        /* all counts of the column reported */
	unsigned scale;        /* counts are in units of 10^-scale */
	char unit[64];         /* the tree's count name ("" unknown) */
	flame_cost_opts o;     /* as asked (window filled from the profile when not given) */
	double seconds_per_count; /* > 0: the counts are CPU time (one count in the tree's scale) */
	int bytes;             /* the counts are bytes (memory): never cores */
};
#endif
