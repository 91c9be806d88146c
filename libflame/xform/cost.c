/* Cost reports (flame-top), the rolling up: every unique stack's count goes to the group
 * of its leaf (self) and once to each distinct group along it (total), the groups being
 * functions, root frames or the teams of an owners file; then what a count is worth in CPU
 * seconds. write/cost.c prints the result (core/cost.h) and the threshold lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/cost.h"
#include "../core/err.h"
#include "../core/human.h"
#include "../core/intern.h"
#include "../core/lines.h"
#include "../core/regex.h"
#include "../core/tree.h"
#include "../core/array.h"
#include "../core/version.h"

/* ---- owners: REGEX<TAB>TEAM lines */

struct flame_owners {
	struct owner_line {
		flame__regex *re;
		uint32_t team; /* index into teams */
	} *lines;
	size_t n, cap;
	char **teams;      /* distinct team names, in order of first appearance */
	size_t nteams, capteams;
};

static const char NO_OWNER[] = "(no owner)";

void flame_owners_free(flame_owners *ow)
{
	if (!ow)
		return;
	for (size_t i = 0; i < ow->n; i++)
		flame__regex_free(ow->lines[i].re);
	for (size_t i = 0; i < ow->nteams; i++)
		free(ow->teams[i]);
	free(ow->lines);
	free(ow->teams);
	free(ow);
}

static int team_index(flame_owners *ow, const char *name, size_t len, uint32_t *out)
{
	for (size_t i = 0; i < ow->nteams; i++)
		if (strlen(ow->teams[i]) == len && !memcmp(ow->teams[i], name, len)) {
			*out = (uint32_t)i;
			return 0;
		}
	if (flame__array_reserve(ow->teams, ow->capteams, ow->nteams + 1))
		return FLAME_ENOMEM;
	if (!(ow->teams[ow->nteams] = strndup(name, len)))
		return FLAME_ENOMEM;
	*out = (uint32_t)ow->nteams++;
	return 0;
}

static int owner_line(void *ud, const char *p, size_t len, const flame__lines *c,
                      flame_err *err)
{
	flame_owners *ow = ud;
	if (p[0] == '#')
		return 0;
	const char *tab = memchr(p, '\t', len);
	size_t tl = tab ? len - (size_t)(tab - p) - 1 : 0;
	if (!tab || tab == p || !tl || memchr(tab + 1, '\t', tl) || memchr(p, '\0', len))
		return flame__err(err, FLAME_EDATA, flame__lines_source(c), c->line_no, FLAME__NO_OFFSET,
		                  "expected REGEX<TAB>TEAM");
	if (flame__array_reserve(ow->lines, ow->cap, ow->n + 1))
		return flame__err_nomem(err);
	struct owner_line *l = &ow->lines[ow->n];
	char what[300];
	snprintf(what, sizeof what, "%s:%llu", flame__lines_source(c), (unsigned long long)c->line_no);
	int rc = flame__regex_compile(&l->re, p, (size_t)(tab - p), 0, what, err);
	if (rc)
		return rc;
	if (team_index(ow, tab + 1, tl, &l->team)) {
		flame__regex_free(l->re);
		return flame__err_nomem(err);
	}
	ow->n++;
	return 0;
}

int flame_owners_new(flame_owners **out, const char *path, flame_err *err)
{
	*out = NULL;
	flame_owners *ow = calloc(1, sizeof *ow);
	if (!ow)
		return flame__err_nomem(err);
	int rc = flame__lines_read_file(path, owner_line, ow, err);
	if (rc < 0) {
		flame_owners_free(ow);
		return rc;
	}
	*out = ow;
	return 0;
}

/* ---- options */

static const flame_cost_opts cost_defaults = FLAME_COST_OPTS_INIT;
static const size_t cost_sizes[] = {0, sizeof(flame_cost_opts)};
static const struct flame__opts_layout cost_layout = {"flame_cost_opts", &cost_defaults,
                                                      sizeof cost_defaults, cost_sizes,
                                                      FLAME_COST_OPTS_VERSION};

int flame_cost_opts_init(flame_cost_opts *o, unsigned version)
{
	return flame__opts_init(&cost_layout, o, version);
}

static int check_opts(const flame_cost_opts *o, flame_err *err)
{
	const char *bad = o->by > FLAME_COST_BY_OWNER              ? "the grouping"
	                  : o->by == FLAME_COST_BY_OWNER && !o->owners ? "--by owner without owners"
	                  : o->sort > FLAME_COST_SORT_TOTAL         ? "the sort"
	                  : !(o->frequency >= 0) || isinf(o->frequency) ? "--frequency"
	                  : !(o->window >= 0) || isinf(o->window)   ? "--window"
	                  : !(o->core_price >= 0) || isinf(o->core_price) ? "--core-price"
	                                                                 : NULL;
	if (bad)
		return flame__err(err, FLAME_EUSAGE, "", 0, FLAME__NO_OFFSET, "invalid cost report option: %s",
		                  bad);
	return 0;
}

/* ---- rolling up */

/* The group of name `id`: itself (functions), its team (owners; computed once per name). */
typedef struct roller {
	const flame_cost_opts *o;
	const flame__intern *names;
	uint32_t *group;    /* per name id: row index, or UINT32_MAX not yet seen */
	size_t *stamp;      /* per row: the last stack that counted its total */
	flame_cost_row *rows;
	size_t n;
} roller;

static uint32_t group_of(roller *r, uint32_t id)
{
	if (r->group[id] != UINT32_MAX)
		return r->group[id];
	const flame__name *nm = flame__intern_get(r->names, id);
	flame_str name = {nm->ptr, nm->len};
	if (r->o->by == FLAME_COST_BY_OWNER) { /* teams are rows 0..nteams, "(no owner)" last */
		const flame_owners *ow = r->o->owners;
		uint32_t team = (uint32_t)ow->nteams;
		for (size_t i = 0; i < ow->n && team == ow->nteams; i++)
			if (flame__regex_match(ow->lines[i].re, nm->ptr, nm->len))
				team = ow->lines[i].team;
		return r->group[id] = team;
	}
	r->rows[r->n] = (flame_cost_row){name, 0, 0};
	return r->group[id] = (uint32_t)r->n++;
}

static void roll_up(roller *r, const flame__stacks *st, int col)
{
	for (size_t k = 0; k < st->count; k++) {
		const flame__stack *s = &st->v[k];
		uint64_t w = s->w[col];
		if (!w || !s->depth)
			continue;
		uint32_t row;
		if (r->o->by == FLAME_COST_BY_ROOT) { /* every sample under one root: self = total */
			row = group_of(r, s->ids[0]);
			r->rows[row].self += w;
			r->rows[row].total += w;
			continue;
		}
		for (uint32_t i = 0; i < s->depth; i++) {
			row = group_of(r, s->ids[i]);
			if (r->stamp[row] != k) { /* once per stack, however deep the recursion */
				r->stamp[row] = k;
				r->rows[row].total += w;
			}
		}
		r->rows[row].self += w; /* the leaf's */
	}
}

static int cmp_name(flame_str a, flame_str b)
{
	return flame__bytes_cmp(a.ptr, a.len, b.ptr, b.len);
}

/* Largest first by `a` then `b` (self, total or the reverse), ties by name. */
static int cmp_rows(const flame_cost_row *x, const flame_cost_row *y, int total_first)
{
	uint64_t x1 = total_first ? x->total : x->self, y1 = total_first ? y->total : y->self;
	uint64_t x2 = total_first ? x->self : x->total, y2 = total_first ? y->self : y->total;
	if (x1 != y1)
		return x1 > y1 ? -1 : 1;
	if (x2 != y2)
		return x2 > y2 ? -1 : 1;
	return cmp_name(x->name, y->name);
}
static int cmp_self(const void *a, const void *b) { return cmp_rows(a, b, 0); }
static int cmp_total(const void *a, const void *b) { return cmp_rows(a, b, 1); }

/* What one count (in the tree's scale) is worth in CPU seconds; 0 when not CPU time. */
static double seconds_per_count(const flame_tree *t, const flame_cost_opts *o)
{
	const char *unit = flame_tree_count_name(t);
	double ns = 1, one = 1.0 / (double)flame__pow10[flame_tree_decimals(t)];
	flame__unit_kind kind = flame__unit_kind_of(unit, &ns);
	if (kind == FLAME__UNIT_TIME)
		return flame__units_cpu_time(t) ? one * ns / 1e9 : 0;
	/* samples, not event counts: cycles or instructions (perf's periods of those events)
	 * are no time at any frequency */
	int samples = !unit || !*unit || !strcmp(unit, "samples") || !strcmp(unit, "count");
	if (kind == FLAME__UNIT_COUNT && samples && o->frequency > 0)
		return one / o->frequency;
	return 0;
}

int flame_cost_report_new(flame_cost_report **out, flame_tree *t, const flame_cost_opts *opts,
                          flame_err *err)
{
	*out = NULL;
	flame_cost_opts cur;
	const flame_cost_opts *o = &cur;
	int rc = flame__opts_read(&cost_layout, &cur, opts, err);
	if (!rc)
		rc = check_opts(o, err);
	flame__stacks *st;
	if (rc || (rc = flame__tree_stacks(t, &st, err)))
		return rc;
	const flame__intern *names = flame__tree_names(t);
	size_t nn = names->count ? names->count : 1;
	size_t nrows = o->by == FLAME_COST_BY_OWNER ? o->owners->nteams + 1 : nn;
	roller r = {o, names, malloc(nn * sizeof *r.group), malloc(nrows * sizeof *r.stamp),
	            calloc(nrows, sizeof *r.rows), 0};
	flame_cost_report *c = calloc(1, sizeof *c);
	if (!r.group || !r.stamp || !r.rows || !c) {
		free(r.group);
		free(r.stamp);
		free(r.rows);
		free(c);
		return flame__err_nomem(err);
	}
	for (size_t i = 0; i < nn; i++)
		r.group[i] = UINT32_MAX;
	for (size_t i = 0; i < nrows; i++)
		r.stamp[i] = SIZE_MAX;
	if (o->by == FLAME_COST_BY_OWNER) {
		for (size_t i = 0; i < o->owners->nteams; i++)
			r.rows[i].name = (flame_str){o->owners->teams[i], strlen(o->owners->teams[i])};
		r.rows[o->owners->nteams].name = (flame_str){NO_OWNER, sizeof NO_OWNER - 1};
		r.n = nrows;
	}
	int col = flame_tree_is_differential(t) ? 1 : 0;
	roll_up(&r, st, col);
	free(r.group);
	free(r.stamp);
	if (o->by == FLAME_COST_BY_OWNER) { /* teams that own nothing sampled are left out */
		size_t k = 0;
		for (size_t i = 0; i < r.n; i++)
			if (r.rows[i].total)
				r.rows[k++] = r.rows[i];
		r.n = k;
	}
	qsort(r.rows, r.n, sizeof *r.rows, o->sort == FLAME_COST_SORT_TOTAL ? cmp_total : cmp_self);
	c->rows = r.rows;
	c->n = r.n;
	c->total = flame_tree_total(t, col);
	c->scale = flame_tree_decimals(t);
	const char *unit = flame_tree_count_name(t);
	snprintf(c->unit, sizeof c->unit, "%s", unit ? unit : "");
	c->o = *o;
	if (!(c->o.window > 0))
		c->o.window = (double)flame_tree_duration(t) / 1e9;
	c->seconds_per_count = seconds_per_count(t, o);
	c->bytes = flame__unit_kind_of(unit, NULL) == FLAME__UNIT_BYTES;
	*out = c;
	return 0;
}

void flame_cost_report_free(flame_cost_report *c)
{
	if (!c)
		return;
	free(c->rows);
	free(c);
}

size_t flame_cost_report_count(const flame_cost_report *c)
{
	return c->n;
}

const flame_cost_row *flame_cost_report_row(const flame_cost_report *c, size_t i)
{
	return i < c->n ? &c->rows[i] : NULL;
}
