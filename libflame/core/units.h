/* What a tree's counts measure, and the one rule for adding inputs: counts in different
 * units (CPU nanoseconds, heap bytes, sample counts...) are never summed or diffed
 * silently. The unit itself is the tree's count name; this records what pprof says
 * beside it (the sample type, the period) so a pprof written back keeps them, and where
 * the unit came from, so a refusal names both inputs. */
#ifndef FLAME_CORE_UNITS_H
#define FLAME_CORE_UNITS_H
#include "../flame.h"

typedef struct flame__units {
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

/** What the counts of `t` measure, for reading (the pprof writer). */
const flame__units *flame__tree_units(const flame_tree *t);

/** Record that `source` counts in `unit` (a count name: "nanoseconds", "bytes", "samples";
 * `type` what of, when known: "cpu") into `t`: taken when `t` has no unit yet, checked against it otherwise. FLAME_EDATA
 * naming both inputs when the units differ and `t` holds stacks already (unless the tree
 * ignores units); FLAME_EUSAGE when the name is too long. */
int flame__units_record(flame_tree *t, const char *unit, const char *type, const char *source,
                        flame_err *err);

/** Before adding the stacks of `src` to `dst`: the same check, then `dst` learns what `src`
 * knows (a sample type or period the two disagree on becomes unknown). */
int flame__units_join(flame_tree *dst, const flame_tree *src, flame_err *err);

/** pprof's description of the counts: sample type `type`/`unit`, the period type and
 * period (`ptype` NULL: none), and whether the profile also counted samples/count. */
int flame__units_set_pprof(flame_tree *t, const char *type, const char *ptype,
                           const char *punit, uint64_t period, int with_samples);

/** The input covers `ns` nanoseconds of wall time: `t` keeps the longest it has seen. */
void flame__units_set_duration(flame_tree *t, uint64_t ns);

/** 1 when the counts of `t` are CPU time (a time unit whose sample type is "cpu": perf's
 * cpu-clock periods, pprof CPU profiles); off-CPU and other times are not. */
int flame__units_cpu_time(const flame_tree *t);
#endif
