/* The rules of numbers for people, as data: the names of time and byte counts, the units
 * amounts are shown in, where three significant digits change decimals. core/human.c
 * formats with them, and the build writes the same table into the scripts of the SVG and
 * the HTML page (templates/human-js.c -> HUMAN_RULES, read by templates/human.js), so C
 * and JavaScript print the same amount the same way (tests/core/human compares them). Only
 * standard headers here: the generator is built for the build machine. */
#ifndef FLAME_CORE_HUMAN_RULES_H
#define FLAME_CORE_HUMAN_RULES_H
#include <stddef.h>

/* Count names that measure time, with nanoseconds per unit */
static const struct flame__time_name {
	const char *name;
	double ns;
} flame__human_time_names[] = {{"nanoseconds", 1}, {"ns", 1},  {"microseconds", 1e3}, {"us", 1e3},
                               {"milliseconds", 1e6}, {"ms", 1e6}, {"seconds", 1e9},    {"s", 1e9}};

/* Count names that measure bytes */
static const char *const flame__human_byte_names[] = {"bytes", "B"};

/* The units an amount is shown in, each `step` times the one before; an amount takes the
 * largest that keeps it at or above 1 (times, from nanoseconds; bytes, from bytes) */
static const char *const flame__human_time_units[] = {"ns", "us", "ms", "s"};
static const char *const flame__human_byte_units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
#define FLAME__HUMAN_TIME_STEP 1000
#define FLAME__HUMAN_BYTE_STEP 1024
/* the next unit is taken from step * this on, so 999.96 ms reads "1.00 s", not "1000 ms" */
#define FLAME__HUMAN_NEXT_UNIT_AT 0.9995

/* Three significant digits: no decimals from WHOLE_FROM on (and for 0), one from
 * ONE_DECIMAL_FROM, two from TWO_DECIMALS_FROM, and below as many as three significant
 * digits need, at most MAX_DECIMALS. Whole numbers get SEPARATOR every GROUP digits. */
#define FLAME__HUMAN_WHOLE_FROM 99.95
#define FLAME__HUMAN_ONE_DECIMAL_FROM 9.995
#define FLAME__HUMAN_TWO_DECIMALS_FROM 0.9995
#define FLAME__HUMAN_MAX_DECIMALS 12
#define FLAME__HUMAN_SEPARATOR ','
#define FLAME__HUMAN_GROUP 3

/* A time of zero: in seconds, not "0 ns" (the unit of a time nobody measured in ns) */
#define FLAME__HUMAN_ZERO_TIME "0 s"

#define FLAME__HUMAN_COUNT(a) (sizeof (a) / sizeof *(a))
#endif
