/* Numbers for people: counts of a unit as the --top table, the regression gate, tooltips
 * and subtitles print them (nanoseconds as "1.42 s", bytes as "3.20 MiB", other counts with
 * thousands separators; never scientific notation). Every writer of text meant to be read
 * goes through here, so the same amount reads the same everywhere. */
#ifndef FLAME_CORE_HUMAN_H
#define FLAME_CORE_HUMAN_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"

/** What a count name measures: time (scaled to nanoseconds by `ns`), bytes, or a plain
 * count (samples, events, unknown). */
typedef enum flame__unit_kind { FLAME__UNIT_COUNT = 0, FLAME__UNIT_TIME, FLAME__UNIT_BYTES } flame__unit_kind;

/** The kind of `unit` (NULL: a count); for time, *ns_per receives nanoseconds per unit. */
flame__unit_kind flame__unit_kind_of(const char *unit, double *ns_per);

/** `v` counts of `unit` (a double: per-request figures are fractional) as text, sign
 * included when `sign` is set ("+830 ms"). Returns the length (at most cap - 1 written). */
size_t flame__human(char *buf, size_t cap, double v, const char *unit, int sign);

/** `digits` (a run of decimal digits) with ',' every three from the right. */
size_t flame__put_commas(char *buf, size_t cap, const char *digits);

/** printf to a flame_text_fn (at most 8 KiB a call): 0, or what `fn` returned. */
int flame__textf(flame_text_fn fn, void *ud, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#endif
