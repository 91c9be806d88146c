/* The units rule (units.h): one check shared by every parser that records a count name
 * and every operation that adds one tree to another (merge, diff, the streaming readers). */
#include <stdio.h>
#include <string.h>
#include "err.h"
#include "human.h"
#include "tree-private.h"
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

static int holds_stacks(const flame_tree *t)
{
	return flame__tree_has_stacks(t) || t->differential;
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

static int check(flame_tree *t, const char *unit, const char *type, const char *source,
                 flame_err *err)
{
	if (!unit || !*unit)
		return 0;
	if (t->count_name[0] && holds_stacks(t)) {
		if (t->units.ignore || !strcmp(canonical(unit), canonical(t->count_name)))
			return 0;
		char a[160], b[160];
		return flame__err(err, FLAME_EDATA, source ? source : "", 0, FLAME__NO_OFFSET,
		                  "counts %s, but %s counts %s: inputs in different units cannot be "
		                  "added or compared (--ignore-units does it anyway)",
		                  described(a, sizeof a, unit, type),
		                  t->units.source[0] ? t->units.source : "the earlier input",
		                  described(b, sizeof b, t->count_name, t->units.type));
	}
	if (strlen(unit) >= sizeof t->count_name)
		return flame__err(err, FLAME_EUSAGE, source ? source : "", 0, FLAME__NO_OFFSET,
		                  "count name too long: '%.64s...'", unit);
	if (t->count_name[0] && !strcmp(t->count_name, unit))
		return 0;
	put(t->count_name, sizeof t->count_name, unit);
	put(t->units.source, sizeof t->units.source, source ? source : "");
	t->units.type[0] = '\0'; /* a new unit: what was known of the old one is not of it */
	t->units.period_type[0] = t->units.period_unit[0] = '\0';
	t->units.period = 0;
	t->units.with_samples = 0;
	return 0;
}

int flame__units_record(flame_tree *t, const char *unit, const char *type, const char *source,
                        flame_err *err)
{
	return check(t, unit, type, source, err);
}

int flame__units_join(flame_tree *dst, const flame_tree *src, flame_err *err)
{
	if (!src->count_name[0])
		return 0;
	flame__units before = dst->units;
	int had = dst->count_name[0] != '\0', fresh = !had || !holds_stacks(dst);
	int rc = check(dst, src->count_name, src->units.type, src->units.source, err);
	if (rc)
		return rc;
	flame__units *u = &dst->units;
	if (fresh || !had) { /* dst takes src's description whole */
		memcpy(u->type, src->units.type, sizeof u->type);
		memcpy(u->period_type, src->units.period_type, sizeof u->period_type);
		memcpy(u->period_unit, src->units.period_unit, sizeof u->period_unit);
		u->period = src->units.period;
		u->with_samples = src->units.with_samples;
		flame__units_set_duration(dst, src->units.duration_ns);
		if (!u->source[0])
			memcpy(u->source, src->units.source, sizeof u->source);
		return 0;
	}
	/* two inputs in one unit: keep only what both say */
	*u = before;
	if (strcmp(u->type, src->units.type))
		u->type[0] = '\0';
	if (strcmp(u->period_type, src->units.period_type) ||
	    strcmp(u->period_unit, src->units.period_unit) || u->period != src->units.period) {
		u->period_type[0] = u->period_unit[0] = '\0';
		u->period = 0;
	}
	u->with_samples &= src->units.with_samples;
	flame__units_set_duration(dst, src->units.duration_ns);
	return 0;
}

int flame__units_set_pprof(flame_tree *t, const char *type, const char *ptype,
                           const char *punit, uint64_t period, int with_samples)
{
	flame__units *u = &t->units;
	if (holds_stacks(t) && u->type[0] && strcmp(u->type, type ? type : "")) {
		/* a second input of another sample type in the same unit: the type is unknown */
		u->type[0] = '\0';
		u->period_type[0] = u->period_unit[0] = '\0';
		u->period = 0;
		u->with_samples = 0;
		return 0;
	}
	int first = !holds_stacks(t) || !u->type[0];
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
	return 0;
}

void flame_tree_set_ignore_units(flame_tree *t, int on)
{
	t->units.ignore = !!on;
}

/* Profiles of one window from several hosts are merged far more often than consecutive
 * windows of one host, so the merged profile covers the longest window, not the sum. */
void flame__units_set_duration(flame_tree *t, uint64_t ns)
{
	if (ns > t->units.duration_ns)
		t->units.duration_ns = ns;
}

uint64_t flame_tree_duration(const flame_tree *t) { return t->units.duration_ns; }

int flame__units_cpu_time(const flame_tree *t)
{
	return flame__unit_kind_of(t->count_name, NULL) == FLAME__UNIT_TIME &&
	       !strcmp(t->units.type, "cpu");
}

const flame__units *flame__tree_units(const flame_tree *t) { return &t->units; }
