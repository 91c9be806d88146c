/* Cost reports (flame-top), the printing: a report rolled up by xform/cost.c
 * (core/cost.h) as an aligned table for people, CSV or JSON with stable column names, and
 * the threshold lines of --fail-above-share. Amounts for people go through core/human.c
 * ("1.42 s", "3.20 MiB"); CSV and JSON carry the exact counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/cost.h"
#include "../core/err.h"
#include "../core/human.h"
#include "../core/numfmt.h"
#include "escape.h"

#define HOURS_PER_YEAR 8766.0 /* 365.25 days */

/* The stable columns of CSV and JSON rows (flame-top(1) documents them). */
static const char *const COLUMNS[] = {
	"rank", "name", "self", "self_pct", "sum_pct", "total", "total_pct", "unit", "self_seconds",
	"total_seconds", "self_cores", "total_cores", "self_cost_per_year", "total_cost_per_year"};
enum { NCOLS = sizeof COLUMNS / sizeof *COLUMNS };

static const char *by_name(const flame_cost_report *c)
{
	if (c->o.group_name)
		return c->o.group_name;
	return c->o.by == FLAME_COST_BY_ROOT ? "root" : c->o.by == FLAME_COST_BY_OWNER ? "owner" : "function";
}

static double pct(const flame_cost_report *c, uint64_t v)
{
	return c->total ? 100.0 * (double)v / (double)c->total : 0.0;
}

static int has_cores(const flame_cost_report *c) { return c->seconds_per_count > 0 && c->o.window > 0; }
static int has_cost(const flame_cost_report *c) { return has_cores(c) && c->o.core_price > 0; }
static double cores(const flame_cost_report *c, uint64_t v)
{
	/* no window: no cores (those columns are not shown), never a 0/0 to format */
	return c->o.window > 0 ? (double)v * c->seconds_per_count / c->o.window : 0;
}
static double per_year(const flame_cost_report *c, uint64_t v)
{
	return cores(c, v) * c->o.core_price * HOURS_PER_YEAR;
}

static size_t shown(const flame_cost_report *c)
{
	return c->o.rows && c->o.rows < c->n ? (size_t)c->o.rows : c->n;
}

/* ---- text */

/* A name for a terminal: control bytes as \xNN (a name cannot move the cursor); one longer
 * than `cap` ends in "..." (cap >= 16). */
static size_t text_name(char *buf, size_t cap, flame_str s)
{
	size_t o = 0, i = 0;
	for (; i < s.len && o + 8 < cap; i++) {
		unsigned char ch = (unsigned char)s.ptr[i];
		if (ch < 0x20 || ch == 0x7f)
			o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", ch);
		else
			buf[o++] = (char)ch;
	}
	if (i < s.len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return o;
}

static void amount(const flame_cost_report *c, char *buf, size_t cap, uint64_t v)
{
	flame_amount_print(buf, cap, v, c->scale, c->unit[0] ? c->unit : NULL);
}

static void number(char *buf, size_t cap, double v, const char *suffix)
{
	size_t n = flame__human(buf, cap, v, NULL, 0);
	if (suffix && n < cap)
		snprintf(buf + n, cap - n, "%s", suffix);
}

enum { TCOLS = 9, CELL = 40 };

/* Row i of the text table (0: the headings); `sum` is the running self% up to it. */
static void row_cells(const flame_cost_report *c, size_t i, double sum, char k[TCOLS][CELL])
{
	static const char *const head[TCOLS] = {"self", "self%", "sum%", "total", "total%",
	                                        "self cores", "total cores", "self/year", "total/year"};
	if (i == 0) {
		for (size_t j = 0; j < TCOLS; j++)
			snprintf(k[j], CELL, "%s", head[j]);
		return;
	}
	const flame_cost_row *r = &c->rows[i - 1];
	amount(c, k[0], CELL, r->self);
	snprintf(k[1], CELL, "%.2f%%", pct(c, r->self));
	snprintf(k[2], CELL, "%.2f%%", sum);
	amount(c, k[3], CELL, r->total);
	snprintf(k[4], CELL, "%.2f%%", pct(c, r->total));
	number(k[5], CELL, cores(c, r->self), NULL);
	number(k[6], CELL, cores(c, r->total), NULL);
	number(k[7], CELL, per_year(c, r->self), NULL);
	number(k[8], CELL, per_year(c, r->total), NULL);
}

static int write_text(const flame_cost_report *c, flame_text_fn fn, void *ud)
{
	char tot[64], buf[CELL];
	amount(c, tot, sizeof tot, c->total);
	const char *unit = c->unit[0] ? c->unit : "samples";
	int rc;
	if (c->seconds_per_count > 0) {
		char secs[64];
		flame__human(secs, sizeof secs, (double)c->total * c->seconds_per_count * 1e9,
		             "nanoseconds", 0);
		if (has_cores(c)) {
			char win[64], nc[64];
			flame__human(win, sizeof win, c->o.window * 1e9, "nanoseconds", 0);
			number(nc, sizeof nc, cores(c, c->total), NULL);
			rc = flame__textf(fn, ud, "Total: %s of CPU time over %s: %s cores", secs, win, nc);
			if (!rc && has_cost(c)) {
				number(buf, sizeof buf, per_year(c, c->total), NULL);
				rc = flame__textf(fn, ud, ", %s a year at %g per core-hour", buf, c->o.core_price);
			}
		} else {
			rc = flame__textf(fn, ud, "Total: %s of CPU time (no --window and no duration in "
			                          "the profile: no cores)", secs);
		}
	} else {
		int count = flame__unit_kind_of(c->unit, NULL) == FLAME__UNIT_COUNT;
		char un[256]; /* the profile's own word: escaped as names are */
		text_name(un, sizeof un, (flame_str){unit, strlen(unit)});
		rc = flame__textf(fn, ud, "Total: %s%s%s", tot, count ? " " : "", count ? un : "");
	}
	if (!rc)
		rc = flame__textf(fn, ud, "\nShowing %zu of %zu, by %s, sorted by %s\n", shown(c), c->n,
		                  by_name(c), c->o.sort == FLAME_COST_SORT_TOTAL ? "total" : "self");
	if (rc)
		return rc;
	/* each column as wide as its widest cell: the cells are made twice (measured, then
	 * printed) rather than kept, as -n 0 of a large profile has millions of rows */
	size_t m = shown(c), ncol = has_cost(c) ? TCOLS : has_cores(c) ? TCOLS - 2 : TCOLS - 4;
	size_t width[TCOLS];
	char k[TCOLS][CELL], name[1024];
	for (int pass = 0; pass < 2 && !rc; pass++) {
		double sum = 0;
		for (size_t i = 0; i <= m && !rc; i++) {
			if (i)
				sum += pct(c, c->rows[i - 1].self);
			row_cells(c, i, sum, k);
			for (size_t j = 0; j < ncol && !pass; j++)
				width[j] = !i || strlen(k[j]) > width[j] ? strlen(k[j]) : width[j];
			for (size_t j = 0; j < ncol && pass && !rc; j++)
				rc = flame__textf(fn, ud, "%*s  ", (int)width[j], k[j]);
			if (!pass)
				continue;
			if (i == 0)
				snprintf(name, sizeof name, "%s", by_name(c));
			else
				text_name(name, sizeof name, c->rows[i - 1].name);
			if (!rc)
				rc = flame__textf(fn, ud, "%s\n", name);
		}
	}
	return rc;
}

/* ---- CSV and JSON: exact counts, the same columns */

/* One row's values as text, NULL where not applicable (CSV: empty, JSON: null). */
typedef struct values {
	char v[NCOLS][64];
	int set[NCOLS];
} values;

static void row_values(const flame_cost_report *c, size_t i, double sum, values *x)
{
	const flame_cost_row *r = &c->rows[i];
	memset(x->set, 0, sizeof x->set);
#define SET(k, ...) (snprintf(x->v[k], sizeof x->v[k], __VA_ARGS__), x->set[k] = 1)
	SET(0, "%zu", i + 1);
	x->v[2][flame__fmt_count(x->v[2], r->self, c->scale)] = '\0';
	x->set[2] = 1;
	SET(3, "%.4f", pct(c, r->self));
	SET(4, "%.4f", sum);
	x->v[5][flame__fmt_count(x->v[5], r->total, c->scale)] = '\0';
	x->set[5] = 1;
	SET(6, "%.4f", pct(c, r->total));
	if (c->seconds_per_count > 0) {
		SET(8, "%.6f", (double)r->self * c->seconds_per_count);
		SET(9, "%.6f", (double)r->total * c->seconds_per_count);
	}
	if (has_cores(c)) {
		SET(10, "%.6f", cores(c, r->self));
		SET(11, "%.6f", cores(c, r->total));
	}
	if (has_cost(c)) {
		SET(12, "%.2f", per_year(c, r->self));
		SET(13, "%.2f", per_year(c, r->total));
	}
#undef SET
}

static int write_csv(const flame_cost_report *c, flame_text_fn fn, void *ud)
{
	int rc = 0;
	for (size_t j = 0; j < NCOLS && !rc; j++)
		rc = flame__textf(fn, ud, "%s%s", j ? "," : "", COLUMNS[j]);
	if (!rc)
		rc = fn(ud, "\r\n", 2);
	values x;
	double sum = 0;
	for (size_t i = 0; i < shown(c) && !rc; i++) {
		sum += pct(c, c->rows[i].self);
		row_values(c, i, sum, &x);
		for (size_t j = 0; j < NCOLS && !rc; j++) {
			if (j)
				rc = fn(ud, ",", 1);
			if (rc)
				break;
			if (j == 1)
				rc = flame__put_quoted(fn, ud, c->rows[i].name.ptr, c->rows[i].name.len, 0);
			else if (j == 7)
				rc = flame__put_quoted(fn, ud, c->unit, strlen(c->unit), 0);
			else if (x.set[j])
				rc = fn(ud, x.v[j], strlen(x.v[j]));
		}
		if (!rc)
			rc = fn(ud, "\r\n", 2);
	}
	return rc;
}

static int json_num(flame_text_fn fn, void *ud, const char *key, double v, int set)
{
	return set ? flame__textf(fn, ud, ",\"%s\":%.6f", key, v) : flame__textf(fn, ud, ",\"%s\":null", key);
}

static int write_json(const flame_cost_report *c, flame_text_fn fn, void *ud)
{
	char tot[32];
	tot[flame__fmt_count(tot, c->total, c->scale)] = '\0';
	int rc = fn(ud, "{\"unit\":", 8);
	if (!rc)
		rc = c->unit[0] ? flame__put_quoted(fn, ud, c->unit, strlen(c->unit), 1) : fn(ud, "null", 4);
	if (!rc)
		rc = flame__textf(fn, ud, ",\"by\":");
	if (!rc)
		rc = flame__put_quoted(fn, ud, by_name(c), strlen(by_name(c)), 1);
	if (!rc)
		rc = flame__textf(fn, ud, ",\"sort\":\"%s\",\"total\":%s,\"groups\":%zu",
		                  c->o.sort == FLAME_COST_SORT_TOTAL ? "total" : "self", tot, c->n);
	if (!rc)
		rc = json_num(fn, ud, "total_seconds", (double)c->total * c->seconds_per_count,
		              c->seconds_per_count > 0);
	if (!rc)
		rc = json_num(fn, ud, "window_seconds", c->o.window, c->o.window > 0);
	if (!rc)
		rc = json_num(fn, ud, "total_cores", has_cores(c) ? cores(c, c->total) : 0, has_cores(c));
	if (!rc)
		rc = json_num(fn, ud, "core_price", c->o.core_price, c->o.core_price > 0);
	if (!rc)
		rc = json_num(fn, ud, "total_cost_per_year", has_cost(c) ? per_year(c, c->total) : 0,
		              has_cost(c));
	if (!rc)
		rc = flame__textf(fn, ud, ",\"rows\":[");
	values x;
	double sum = 0;
	for (size_t i = 0; i < shown(c) && !rc; i++) {
		sum += pct(c, c->rows[i].self);
		row_values(c, i, sum, &x);
		rc = fn(ud, i ? ",{" : "{", i ? 2 : 1);
		for (size_t j = 0; j < NCOLS && !rc; j++) {
			rc = flame__textf(fn, ud, "%s\"%s\":", j ? "," : "", COLUMNS[j]);
			if (rc)
				break;
			if (j == 1)
				rc = flame__put_quoted(fn, ud, c->rows[i].name.ptr, c->rows[i].name.len, 1);
			else if (j == 7)
				rc = c->unit[0] ? flame__put_quoted(fn, ud, c->unit, strlen(c->unit), 1) : fn(ud, "null", 4);
			else
				rc = x.set[j] ? fn(ud, x.v[j], strlen(x.v[j])) : fn(ud, "null", 4);
		}
		if (!rc)
			rc = fn(ud, "}", 1);
	}
	return rc ? rc : fn(ud, "]}\n", 3);
}

int flame_write_cost(const flame_cost_report *c, flame_cost_format f, flame_text_fn fn, void *ud,
                     flame_err *err)
{
	switch (f) {
	case FLAME_COST_TEXT: return write_text(c, fn, ud);
	case FLAME_COST_CSV: return write_csv(c, fn, ud);
	case FLAME_COST_JSON: return write_json(c, fn, ud);
	}
	return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET, "unknown report format %d", (int)f);
}

int flame_cost_report_gate(const flame_cost_report *c, double share_pct, flame_text_fn fn, void *ud,
                    flame_err *err)
{
	int bad = 0;
	char name[1024], self[64], tot[64];
	amount(c, tot, sizeof tot, c->total);
	for (size_t i = 0; i < c->n; i++)
		bad += pct(c, c->rows[i].self) > share_pct;
	if (!bad)
		return 0;
	/* the rows over the line, largest self first whatever the report's order */
	size_t *idx = malloc((size_t)bad * sizeof *idx), k = 0;
	if (!idx)
		return flame__err_nomem(err);
	for (size_t i = 0; i < c->n; i++)
		if (pct(c, c->rows[i].self) > share_pct)
			idx[k++] = i;
	for (size_t a = 1; a < k; a++) /* few rows: insertion sort, stable */
		for (size_t b = a; b > 0 && c->rows[idx[b]].self > c->rows[idx[b - 1]].self; b--) {
			size_t t = idx[b];
			idx[b] = idx[b - 1];
			idx[b - 1] = t;
		}
	int rc = 0;
	for (size_t i = 0; i < k && !rc; i++) {
		const flame_cost_row *r = &c->rows[idx[i]];
		text_name(name, sizeof name, r->name);
		amount(c, self, sizeof self, r->self);
		char line[1200];
		int n = snprintf(line, sizeof line, "%s: self %s, %.2f%% of %s", name, self,
		                 pct(c, r->self), tot);
		rc = fn(ud, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
	}
	free(idx);
	return rc ? rc : bad;
}
