/* Frames to stacks, the SVG reader's last step (parse/svg.h): once the XML readers have
 * collected every frame (name, count(s), x, y, width), find the root by its row, give each
 * frame its depth from its y and its parent -- the last frame one level closer to the root
 * when the document is depth-first (as flame-render writes it: exact however narrow the
 * frames), else the frame whose x-range holds it (flamegraph.pl writes in hash order) --
 * and put each frame's self count (total - children) into the tree as the stack of names
 * from the root. A frame whose title holds no count (a --nameattr title) gets one from its
 * width. The root's data-pruned adds the top-level frames --minwidth hid; what else the
 * root holds beyond its drawn children is its own self, a one-frame stack. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "svg.h"

static void add_sat(uint64_t *a, uint64_t b)
{
	*a = *a + b < *a ? UINT64_MAX : *a + b;
}

static int by_depth_x(const void *a, const void *b)
{
	const flame__svg_frame *p = a, *q = b;
	if (p->depth != q->depth)
		return p->depth < q->depth ? -1 : 1;
	return p->x < q->x ? -1 : p->x > q->x;
}

/* data-pruned="C NAME;C NAME" (differential: "B A NAME"): the top-level frames --minwidth
 * hid, each with its weight; names percent-encoded as in data-raw. */
typedef struct pruned {
	uint32_t name;
	uint8_t dec;
	uint64_t mant[2];
} pruned;

static int parse_pruned(flame__svg *s, pruned **out, size_t *count, unsigned *maxdec)
{
	*out = NULL;
	*count = 0;
	const char *p = s->pruned;
	if (!p || !*p)
		return 0;
	size_t cap = 1;
	for (const char *q = p; *q; q++)
		cap += *q == ';';
	pruned *v = malloc(cap * sizeof *v);
	if (!v)
		return flame__err_nomem(s->err);
	size_t n = 0;
	while (*p) {
		const char *end = strchr(p, ';'), *e;
		if (!end)
			end = p + strlen(p);
		pruned pr = {0};
		uint64_t a, b = 0;
		unsigned ad, bd = 0, dd;
		int ok = flame__svg_count(p, end, &e, &a, &ad) == 0 && e < end && *e == ' ';
		if (ok && s->differential)
			ok = flame__svg_count(e + 1, end, &e, &b, &bd) == 0 && e < end && *e == ' ' &&
			     flame__svg_common_scale(&a, ad, &b, bd, &dd) == 0;
		else
			dd = ad;
		if (!ok) {
			free(v);
			return flame__err(s->err, FLAME_EDATA, s->src, 0, FLAME__NO_OFFSET,
			                  "the root frame's data-pruned is not 'COUNT NAME;...'");
		}
		size_t dn;
		int rc = flame__svg_pct_decode(s, e + 1, (size_t)(end - e - 1), &dn);
		if (!rc && (pr.name = flame__sink_intern(&s->k, s->dec_buf, dn)) == FLAME__ID_NONE)
			rc = flame__err_nomem(s->err);
		if (rc) {
			free(v);
			return rc;
		}
		pr.mant[0] = a;
		pr.mant[1] = s->differential ? b : a;
		pr.dec = (uint8_t)dd;
		if (dd > *maxdec)
			*maxdec = dd;
		v[n++] = pr;
		p = *end ? end + 1 : end;
	}
	*out = v;
	*count = n;
	return 0;
}

/* The root: a full-width frame on the root row, the bottom one (the top one when the
 * graph is inverted), "all" by name when one is. Element order says nothing:
 * flamegraph.pl writes frames in hash order, and a top-level frame as wide as the root
 * (every stack under one process) may come first. Only a single chain (full width on
 * every row) leaves the rows alone to choose: then the bottom one, unless the name says. */
static size_t find_root(const flame__svg *s)
{
	const flame__svg_frame *v = s->v;
	size_t n = s->n, first = 0;
	double ymin = v[0].y, ymax = v[0].y;
	for (size_t i = 1; i < n; i++) {
		if (v[i].w > v[first].w)
			first = i;
		ymin = v[i].y < ymin ? v[i].y : ymin;
		ymax = v[i].y > ymax ? v[i].y : ymax;
	}
	double wmax = v[first].w;
	size_t bottom = SIZE_MAX, top = SIZE_MAX;
	uint32_t all = flame__intern_find(s->k.names, "all", 3);
	for (size_t i = 0; i < n; i++) {
		if (v[i].w < wmax - 0.05)
			continue;
		int at_bottom = fabs(v[i].y - ymax) < 0.5, at_top = fabs(v[i].y - ymin) < 0.5;
		if (!at_bottom && !at_top)
			continue;
		if (v[i].name == all)
			return i;
		if (at_bottom && bottom == SIZE_MAX)
			bottom = i;
		if (at_top && top == SIZE_MAX)
			top = i;
	}
	return bottom != SIZE_MAX ? bottom : top != SIZE_MAX ? top : first;
}

/* Each frame's depth, in rows from the root's; *dec: the most decimals of any count. */
static int rows(flame__svg *s, size_t root, unsigned *dec)
{
	flame__svg_frame *v = s->v;
	size_t n = s->n;
	double step = 0;
	for (size_t i = 0; i < n; i++) {
		double d = fabs(v[i].y - v[root].y);
		if (d > 0.5 && (step == 0 || d < step))
			step = d;
	}
	if (step == 0)
		step = 1;
	for (size_t i = 0; i < n; i++) {
		double dd = floor(fabs(v[i].y - v[root].y) / step + 0.5);
		if (!(dd <= (double)n)) /* deeper than there are frames: not a flame graph's layout */
			return flame__err(s->err, FLAME_EDATA, s->src, 0, FLAME__NO_OFFSET,
			                  "frame rows are not evenly spaced (a frame lies %.0f rows away)", dd);
		v[i].depth = (uint32_t)dd;
		if (v[i].has_count && v[i].dec > *dec)
			*dec = v[i].dec;
	}
	return 0;
}

/* The tree's scale made `dec` decimals at least (data-pruned's counts counted in), then
 * the hidden top-level frames of data-pruned: one-frame stacks (folded text has no root
 * self); their weight is added to hidden[]. */
static int pruned_stacks(flame__svg *s, unsigned dec, uint64_t hidden[2])
{
	pruned *pv;
	size_t pn;
	int rc = parse_pruned(s, &pv, &pn, &dec);
	if (rc)
		return rc;
	if (dec > flame__sink_scale(&s->k) && flame__sink_rescale(&s->k, dec, s->err)) {
		free(pv);
		return flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
		                  "rescaled counts overflow 64 bits");
	}
	unsigned scale = flame__sink_scale(&s->k);
	for (size_t i = 0; i < pn && !rc; i++) {
		uint64_t m = flame__pow10[scale - pv[i].dec], w[2];
		for (int c = 0; c < 2; c++) {
			if (pv[i].mant[c] > UINT64_MAX / m)
				rc = flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
				                "a count overflows 64 bits");
			w[c] = pv[i].mant[c] * m;
		}
		if (!rc && (w[0] || w[1]))
			rc = flame__sink_add(&s->k, &pv[i].name, 1, w[0], s->differential ? w[1] : 0,
			                     s->err);
		add_sat(&hidden[0], w[0]);
		add_sat(&hidden[1], w[1]);
	}
	free(pv);
	return rc;
}

/* Every count in the tree's scale; a frame with no count gets its share of the root's by
 * its width. */
static int scale_counts(flame__svg *s, size_t root)
{
	flame__svg_frame *v = s->v;
	unsigned scale = flame__sink_scale(&s->k);
	for (size_t i = 0; i < s->n; i++) {
		flame__svg_frame *f = &v[i];
		for (int c = 0; c < 2; c++) {
			if (f->has_count) {
				uint64_t m = flame__pow10[scale - f->dec];
				if (f->mant[c] > UINT64_MAX / m)
					return flame__err(s->err, FLAME_ERANGE, s->src, 0, FLAME__NO_OFFSET,
					                  "a count overflows 64 bits");
				f->mant[c] *= m;
			} else {
				double rt = (double)v[root].mant[c] * flame__pow10[scale - v[root].dec];
				double x = v[root].w > 0 ? floor(rt * f->w / v[root].w + 0.5) : 0;
				f->mant[c] = !(x > 0) ? 0 : x >= 1.8e19 ? UINT64_MAX : (uint64_t)x;
			}
		}
		f->dec = (uint8_t)scale;
	}
	return 0;
}

/* flame-render writes frames depth first (each after its parent, subtrees whole): then a
 * frame's parent is the last frame one level up, exactly, however narrow the frames are.
 * 1 when the frames are in that order (parents set), 0 when not, or an error. */
static int parents_in_order(flame__svg *s)
{
	flame__svg_frame *v = s->v;
	size_t n = s->n;
	int preorder = v[0].depth == 0;
	for (size_t i = 1; i < n && preorder; i++)
		preorder = v[i].depth >= 1 && v[i].depth <= v[i - 1].depth + 1;
	if (!preorder)
		return 0;
	uint32_t maxd = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].depth > maxd)
			maxd = v[i].depth;
	uint32_t *last = malloc(((size_t)maxd + 1) * sizeof *last);
	if (!last)
		return flame__err_nomem(s->err);
	/* a breadth-first order passes the depth test too: the geometry must agree */
	for (size_t i = 0; i < n && preorder; i++) {
		uint32_t d = v[i].depth;
		last[d] = (uint32_t)i;
		v[i].parent = d ? last[d - 1] : UINT32_MAX;
		const flame__svg_frame *p = d ? &v[last[d - 1]] : NULL;
		if (p && (v[i].x < p->x - 0.05 || v[i].x + v[i].w > p->x + p->w + 0.05))
			preorder = 0;
	}
	free(last);
	for (size_t i = 0; i < n && preorder; i++)
		if (v[i].parent != UINT32_MAX) {
			add_sat(&v[v[i].parent].child[0], v[i].mant[0]);
			add_sat(&v[v[i].parent].child[1], v[i].mant[1]);
		}
	return preorder;
}

/* flamegraph.pl's order is by name: the frames sorted by depth and x, a frame's parent is
 * the last frame one level up starting at or left of its x (with rounding slack). */
static void parents_by_geometry(flame__svg *s)
{
	flame__svg_frame *v = s->v;
	size_t n = s->n;
	qsort(v, n, sizeof *v, by_depth_x);
	size_t lvl = 0, prev_lvl = 0, prev_end = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && v[i].depth != v[i - 1].depth) {
			prev_lvl = lvl;
			prev_end = i;
			lvl = i;
		}
		v[i].parent = UINT32_MAX;
		if (v[i].depth == 0 || v[prev_lvl].depth + 1 != v[i].depth)
			continue;
		size_t lo = prev_lvl, hi = prev_end; /* [lo, hi): level above, by x */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (v[mid].x <= v[i].x + 0.05)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo > prev_lvl && v[i].x < v[lo - 1].x + v[lo - 1].w + 0.05) {
			v[i].parent = (uint32_t)(lo - 1);
			add_sat(&v[lo - 1].child[0], v[i].mant[0]);
			add_sat(&v[lo - 1].child[1], v[i].mant[1]);
		}
	}
}

/* Frame i's stack, root first, into ids from its chain of parents: its length, or 0 when
 * the chain ends short of the root (a frame under no frame of the level below it). */
static size_t chain(const flame__svg *s, size_t i, uint32_t *ids)
{
	const flame__svg_frame *v = s->v;
	size_t k = 0;
	for (size_t j = i; v[j].depth > 0; j = v[j].parent) {
		if (v[j].parent == UINT32_MAX)
			return 0;
		ids[k++] = v[j].name;
	}
	/* the chain is leaf-first; a --reverse picture drew stacks leaf-first already */
	for (size_t a = 0, b = k - 1; !s->reverse && a < b; a++, b--) {
		uint32_t x = ids[a];
		ids[a] = ids[b];
		ids[b] = x;
	}
	return k;
}

/* The root's self: what lies under it in no drawn top-level frame, data-pruned's (hidden[],
 * already added) aside. flamegraph.pl and inferno hide top-level frames narrower than
 * --minwidth and say nothing of them: their weight is only in the root's count. Folded
 * text has no root self, so it comes back as a one-frame stack named as the root is
 * ("all"): the name the picture gives those samples, and the graph's total stays exact. */
static int root_self(flame__svg *s, const flame__svg_frame *r, const uint64_t hidden[2])
{
	uint64_t self[2];
	for (int c = 0; c < 2; c++) {
		uint64_t under = r->child[c];
		add_sat(&under, hidden[c]);
		self[c] = r->mant[c] > under ? r->mant[c] - under : 0;
	}
	if (!self[0] && !self[1])
		return 0;
	return flame__sink_add(&s->k, &r->name, 1, self[0], s->differential ? self[1] : 0, s->err);
}

/* Each frame with a self count as a stack of the names from the root. In depth-first
 * order (`by_path`) the path to a frame is the last frame seen at each shallower depth;
 * else it is the chain of parents; the root's own self too (hidden[]: data-pruned's). */
static int stacks(flame__svg *s, int by_path, const uint64_t hidden[2])
{
	const flame__svg_frame *v = s->v;
	uint32_t *ids = malloc((s->n + 1) * sizeof *ids);
	if (!ids)
		return flame__err_nomem(s->err);
	int rc = 0;
	for (size_t i = 0; i < s->n && !rc; i++) {
		if (v[i].depth == 0) {
			if (v[i].root)
				rc = root_self(s, &v[i], hidden);
			continue;
		}
		if (by_path)
			ids[v[i].depth - 1] = v[i].name;
		uint64_t self[2];
		for (int c = 0; c < 2; c++)
			self[c] = v[i].mant[c] > v[i].child[c] ? v[i].mant[c] - v[i].child[c] : 0;
		if (!self[0] && !self[1])
			continue;
		size_t k = by_path ? v[i].depth : chain(s, i, ids);
		if (k == 0) {
			flame__warn(s->o->warn, s->o->warn_ud, "svg-orphan-frame", s->src, 0,
			            "a frame lies under no frame of the level below it; skipped");
			continue;
		}
		rc = flame__sink_add(&s->k, ids, k, self[0], s->differential ? self[1] : 0, s->err);
	}
	free(ids);
	return rc;
}

int flame__svg_build(flame__svg *s)
{
	size_t root = find_root(s);
	s->v[root].root = 1; /* it keeps the mark when the frames are sorted */
	unsigned dec = 0;
	uint64_t hidden[2] = {0, 0};
	int rc = rows(s, root, &dec);
	if (rc)
		return rc;
	if (!s->v[root].has_count)
		return flame__err(s->err, FLAME_EDATA, s->src, 0, FLAME__NO_OFFSET,
		                  "the root frame's title has no count");
	if ((rc = pruned_stacks(s, dec, hidden)) || (rc = scale_counts(s, root)))
		return rc;
	int preorder = parents_in_order(s);
	if (preorder < 0)
		return preorder;
	if (!preorder)
		parents_by_geometry(s);
	rc = stacks(s, preorder && !s->reverse, hidden);
	if (!rc && s->differential)
		flame__sink_set_differential(&s->k);
	if (!rc && s->count_name[0])
		rc = flame__sink_units(&s->k, s->count_name, NULL, s->src, s->err);
	return rc;
}
