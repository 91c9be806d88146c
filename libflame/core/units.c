/* The units rule (units.h): one check shared by every parser that records a count name
 * and every operation that adds one tree to another (merge, diff, the streaming readers).
 * It works on a flame__units value and knows nothing of trees: core/tree.c holds one
 * per tree and says whether the tree holds stacks. */
#include <stdio.h>
#include <string.h>
#include "err.h"
#include "human.h"
#include "units.h"

/* Spellings of one unit: pprof's "count" is our "samples", offcputime's "us" is pprof's
 * "microseconds". */
static const char *canonical(const char *u)
{
	static const char *const same[][2] = {{"count", "samples"},   {"us", "microseconds"},
	                                      {"ns", "nanoseconds"},  {"ms", "milliseconds"},
	                                      {"s", "seconds"},       {"B", "bytes"}};
	for (size_t i = 0; i < sizeof same / sizeof *same; i++)
		if (!strcmp(u, same[i][0]))
			return same[i][1];
	return u;
}

static void put(char *dst, size_t cap, const char *s)
{
	size_t n = strlen(s);
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "nanoseconds (cpu)" or "nanoseconds" */
static const char *described(char *buf, size_t cap, const char *unit, const char *type)
{
	if (type && *type && strcmp(type, unit))
		snprintf(buf, cap, "%s (%s)", unit, type);
	else
		snprintf(buf, cap, "%s", unit);
	return buf;
}

int flame__units_take(flame__units *u, int holds, const char *unit, const char *type,
                      const char *source, flame_err *err)
{
	if (!unit || !*unit)
		return 0;
	if (u->name[0] && holds) {
		if (u->ignore || !strcmp(canonical(unit), canonical(u->name)))
			return 0;
		char a[160], b[160];
		return flame__err(err, FLAME_EDATA, source ? source : "", 0, FLAME__NO_OFFSET,
		                  "counts %s, but %s counts %s: inputs in different units cannot be "
		                  "added or compared (--ignore-units does it anyway)",
		                  described(a, sizeof a, unit, type),
		                  u->source[0] ? u->source : "the earlier input",
		                  described(b, sizeof b, u->name, u->type));
	}
	if (strlen(unit) >= sizeof u->name)
		return flame__err(err, FLAME_EUSAGE, source ? source : "", 0, FLAME__NO_OFFSET,
		                  "count name too long: '%.64s...'", unit);
	if (u->name[0] && !strcmp(u->name, unit))
		return 0;
	put(u->name, sizeof u->name, unit);
	put(u->source, sizeof u->source, source ? source : "");
	u->type[0] = '\0'; /* a new unit: what was known of the old one is not of it */
	u->period_type[0] = u->period_unit[0] = '\0';
	u->period = 0;
	u->with_samples = 0;
	return 0;
}

int flame__units_add(flame__units *u, int holds, const flame__units *src, flame_err *err)
{
	if (!src->name[0])
		return 0;
	flame__units before = *u;
	int had = u->name[0] != '\0', fresh = !had || !holds;
	int rc = flame__units_take(u, holds, src->name, src->type, src->source, err);
	if (rc)
		return rc;
	if (fresh || !had) { /* u takes src's description whole */
		memcpy(u->type, src->type, sizeof u->type);
		memcpy(u->period_type, src->period_type, sizeof u->period_type);
		memcpy(u->period_unit, src->period_unit, sizeof u->period_unit);
		u->period = src->period;
		u->with_samples = src->with_samples;
		flame__units_widen(u, src->duration_ns);
		if (!u->source[0])
			memcpy(u->source, src->source, sizeof u->source);
		return 0;
	}
	/* two inputs in one unit: keep only what both say */
	*u = before;
	if (strcmp(u->type, src->type))
		u->type[0] = '\0';
	if (strcmp(u->period_type, src->period_type) || strcmp(u->period_unit, src->period_unit) ||
	    u->period != src->period) {
		u->period_type[0] = u->period_unit[0] = '\0';
		u->period = 0;
	}
	u->with_samples &= src->with_samples;
	flame__units_widen(u, src->duration_ns);
	return 0;
}

void flame__units_describe(flame__units *u, int holds, const char *type, const char *ptype,
                           const char *punit, uint64_t period, int with_samples)
{
	if (holds && u->type[0] && strcmp(u->type, type ? type : "")) {
		/* a second input of another sample type in the same unit: the type is unknown */
		u->type[0] = '\0';
		u->period_type[0] = u->period_unit[0] = '\0';
		u->period = 0;
		u->with_samples = 0;
		return;
	}
	int first = !holds || !u->type[0];
	put(u->type, sizeof u->type, type ? type : "");
	if (first) {
		put(u->period_type, sizeof u->period_type, ptype ? ptype : "");
		put(u->period_unit, sizeof u->period_unit, punit ? punit : "");
		u->period = period;
		u->with_samples = with_samples;
	} else if (strcmp(u->period_type, ptype ? ptype : "") ||
	           strcmp(u->period_unit, punit ? punit : "") || u->period != period) {
		u->period_type[0] = u->period_unit[0] = '\0';
		u->period = 0;
		u->with_samples = 0;
	} else {
		u->with_samples &= with_samples;
	}
}

/* Profiles of one window from several hosts are merged far more often than consecutive
 * windows of one host, so the merged profile covers the longest window, not the sum. */
void flame__units_widen(flame__units *u, uint64_t ns)
{
	if (ns > u->duration_ns)
		u->duration_ns = ns;
}

int flame__units_is_cpu_time(const flame__units *u)
{
	return flame__unit_kind_of(u->name, NULL) == FLAME__UNIT_TIME && !strcmp(u->type, "cpu");
}
