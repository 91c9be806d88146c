/* Numbers for people (human.h): time and bytes with three significant digits in the unit
 * that keeps them between 1 and 1000 (1024 for bytes), counts exact with separators. The
 * rules (units, steps, where decimals change) are human-rules.h's, shared with the pages'
 * JavaScript (templates/human.js). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../flame.h"
#include "human-rules.h"
#include "human.h"
#include "numfmt.h"

flame__unit_kind flame__unit_kind_of(const char *unit, double *ns_per)
{
	if (!unit)
		return FLAME__UNIT_COUNT;
	for (size_t i = 0; i < FLAME__HUMAN_COUNT(flame__human_time_names); i++)
		if (!strcmp(unit, flame__human_time_names[i].name)) {
			if (ns_per)
				*ns_per = flame__human_time_names[i].ns;
			return FLAME__UNIT_TIME;
		}
	for (size_t i = 0; i < FLAME__HUMAN_COUNT(flame__human_byte_names); i++)
		if (!strcmp(unit, flame__human_byte_names[i]))
			return FLAME__UNIT_BYTES;
	return FLAME__UNIT_COUNT;
}

size_t flame__put_commas(char *buf, size_t cap, const char *digits)
{
	size_t nd = strlen(digits), o = 0;
	for (size_t i = 0; i < nd; i++) {
		if (i && (nd - i) % FLAME__HUMAN_GROUP == 0 && o + 1 < cap)
			buf[o++] = FLAME__HUMAN_SEPARATOR;
		if (o + 1 < cap)
			buf[o++] = digits[i];
	}
	if (cap)
		buf[o < cap ? o : cap - 1] = '\0';
	return o;
}

/* x >= 0 with three significant digits ("1.20 s": the same width in a table column);
 * whole numbers of 1000 and more get separators. */
static size_t put_sig3(char *buf, size_t cap, double x)
{
	char tmp[64];
	if (!(x >= 0) || isinf(x)) { /* NaN or infinite: said as such, never a width from them */
		int w = snprintf(buf, cap, "%g", x);
		return w < 0 ? 0 : (size_t)w < cap ? (size_t)w : cap ? cap - 1 : 0;
	}
	if (x >= FLAME__HUMAN_WHOLE_FROM || x == 0) {
		snprintf(tmp, sizeof tmp, "%.0f", x);
		return flame__put_commas(buf, cap, tmp);
	}
	int decimals = x >= FLAME__HUMAN_ONE_DECIMAL_FROM    ? 1
	               : x >= FLAME__HUMAN_TWO_DECIMALS_FROM ? 2
	                                                      : 2 - (int)floor(log10(x));
	if (decimals > FLAME__HUMAN_MAX_DECIMALS)
		decimals = FLAME__HUMAN_MAX_DECIMALS;
	int w = snprintf(buf, cap, "%.*f", decimals, x);
	return w < 0 ? 0 : (size_t)w < cap ? (size_t)w : cap ? cap - 1 : 0;
}

/* x (>= 0) in the largest of `n` units of ratio `step` that keeps it at or above 1. */
static size_t put_scaled(char *buf, size_t cap, double x, const char *const *names, size_t n,
                         double step)
{
	size_t u = 0;
	while (u + 1 < n && x >= step * FLAME__HUMAN_NEXT_UNIT_AT) {
		x /= step;
		u++;
	}
	size_t len = put_sig3(buf, cap, x);
	int w = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, " %s", names[u]);
	return len + (w > 0 ? (size_t)w : 0);
}

size_t flame__human(char *buf, size_t cap, double v, const char *unit, int sign)
{
	size_t len = 0;
	if (cap)
		buf[0] = '\0';
	if (sign || v < 0) {
		if (cap > 1) {
			buf[0] = v < 0 ? '-' : '+';
			buf[1] = '\0';
		}
		len = 1;
	}
	double x = fabs(v), ns = 1;
	char *p = len < cap ? buf + len : NULL;
	size_t c = len < cap ? cap - len : 0;
	switch (flame__unit_kind_of(unit, &ns)) {
	case FLAME__UNIT_TIME:
		if (x == 0)
			return len + (size_t)snprintf(p, c, "%s", FLAME__HUMAN_ZERO_TIME);
		return len + put_scaled(p, c, x * ns, flame__human_time_units,
		                        FLAME__HUMAN_COUNT(flame__human_time_units), FLAME__HUMAN_TIME_STEP);
	case FLAME__UNIT_BYTES:
		return len + put_scaled(p, c, x, flame__human_byte_units,
		                        FLAME__HUMAN_COUNT(flame__human_byte_units), FLAME__HUMAN_BYTE_STEP);
	default:
		return len + put_sig3(p, c, x);
	}
}

size_t flame_amount_print(char *buf, size_t cap, uint64_t v, unsigned scale, const char *unit)
{
	if (scale > 19)
		scale = 19;
	if (flame__unit_kind_of(unit, NULL) != FLAME__UNIT_COUNT)
		return flame__human(buf, cap, (double)v / (double)flame__pow10[scale], unit, 0);
	/* counts stay exact: whole part with separators, the fraction's decimals as kept */
	char tmp[48];
	size_t n = flame__fmt_count(tmp, v, scale);
	tmp[n] = '\0';
	char *dot = strchr(tmp, '.');
	if (dot)
		*dot = '\0';
	size_t len = flame__put_commas(buf, cap, tmp);
	if (dot) {
		int w = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, ".%s", dot + 1);
		len += w > 0 ? (size_t)w : 0;
	}
	return len;
}

size_t flame_amount_print_delta(char *buf, size_t cap, uint64_t before, uint64_t after, unsigned scale,
                          const char *unit)
{
	if (cap < 2)
		return cap ? (buf[0] = '\0', 0) : 0;
	buf[0] = after >= before ? '+' : '-';
	return 1 + flame_amount_print(buf + 1, cap - 1, after >= before ? after - before : before - after,
	                              scale, unit);
}

int flame__textf(flame_text_fn fn, void *ud, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return fn(ud, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}
