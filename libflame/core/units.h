/* What a tree's counts measure, and the one rule for adding inputs: counts in different
 * units (CPU nanoseconds, heap bytes, sample counts...) are never summed or diffed
 * silently. The unit itself is the tree's count name; this records what pprof says
 * beside it (the sample type, the period) so a pprof written back keeps them, and where
 * the unit came from, so a refusal names both inputs. */
#ifndef FLAME_CORE_UNITS_H
#define FLAME_CORE_UNITS_H
#include <stdint.h>
#include "../flame.h"

typedef struct flame__units {
	char name[64];         /* the count name ("nanoseconds", "bytes", "samples"); "" none */
	char type[64];         /* pprof sample type of the counts ("cpu", "alloc_space"); "" unknown */
	char period_type[64];  /* pprof period type and unit ("cpu", "nanoseconds"); "" none */
	char period_unit[64];
	uint64_t period;       /* 0: unknown, or inputs with different periods were added */
	int with_samples;      /* the input also had samples/count, which is value / period */
	uint64_t duration_ns;  /* the wall time the profile covers (pprof duration_nanos); the
	                        * longest of the inputs added, 0 unknown */
	char source[256];      /* the input the count name came from */
	int ignore;            /* flame_tree_set_ignore_units */
} flame__units;

/* Each function takes `holds`: whether the counts described already stand for stacks (a
 * tree holding any, or marked differential). Only then can a second unit conflict. The
 * tree's own entry points (flame__units_record and the others, core/tree.h) pass it. */

/** Record that `source` counts in `unit` (`type` what of, when known: "cpu") into `u`:
 * taken when `u` has no unit yet, checked against it otherwise. FLAME_EDATA naming both
 * inputs when the units differ and `holds` (unless `u` ignores units); FLAME_EUSAGE when
 * the name is too long. */
int flame__units_take(flame__units *u, int holds, const char *unit, const char *type,
                      const char *source, flame_err *err);

/** Before adding the stacks `src` describes to those of `u`: the same check, then `u`
 * learns what `src` knows (a sample type or period the two disagree on becomes unknown). */
int flame__units_add(flame__units *u, int holds, const flame__units *src, flame_err *err);

/** pprof's description of the counts: sample type `type`/`unit`, the period type and
 * period (`ptype` NULL: none), and whether the profile also counted samples/count. */
void flame__units_describe(flame__units *u, int holds, const char *type, const char *ptype,
                           const char *punit, uint64_t period, int with_samples);

/** The input covers `ns` nanoseconds of wall time: `u` keeps the longest it has seen. */
void flame__units_widen(flame__units *u, uint64_t ns);

/** 1 when the counts are CPU time (a time unit whose sample type is "cpu": perf's
 * cpu-clock periods, pprof CPU profiles); off-CPU and other times are not. */
int flame__units_is_cpu_time(const flame__units *u);
#endif
