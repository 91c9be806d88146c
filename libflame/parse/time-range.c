/* Time in parsing: a tree asked to keep time (flame_parse_opts.keep_time_ns) starts keeping
 * it before the parser runs, and a time range in seconds from the input's first sample or
 * on the wall clock is applied here, for every format with times alike: the input goes to
 * a tree of its own that keeps time, the range is cut out of it, and what is left joins the
 * caller's tree. perf's own clock (the 1.0 form) is filtered by the perf readers as they
 * read. */
#include <stdio.h>
#include <time.h>
#include "parser.h"

enum { RANGE_BUCKET_NS = 1000000 }; /* a range's precision when nothing else asks: 1 ms */

static const char *clock_name(flame_clock c)
{
	return c == FLAME_CLOCK_PERF ? "perf's clock" : c == FLAME_CLOCK_WALL ? "the wall clock"
	                                                                       : "the time of day";
}

/* The range as it was given: seconds, or dates on the wall clock. */
static void range_text(const flame_parse_opts *o, char *buf, size_t cap)
{
	if (o->time_range != FLAME_TIME_RANGE_WALL) {
		snprintf(buf, cap, "%g,%g", o->time_start, o->time_end);
		return;
	}
	char a[32] = "", b[32] = "";
	struct tm tm;
	time_t s = (time_t)o->time_start, e = (time_t)o->time_end;
	if (gmtime_r(&s, &tm))
		strftime(a, sizeof a, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (gmtime_r(&e, &tm))
		strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(buf, cap, "%s,%s", a, b);
}

/* The warning for a range that kept nothing of an input with samples. */
static void warn_empty(const flame_parse_opts *o, const char *src, flame_clock c, int64_t first,
                       int64_t last)
{
	char r[80];
	range_text(o, r, sizeof r);
	if (c == FLAME_CLOCK_NONE) {
		flame__warn(o->warn, o->warn_ud, "time-range-empty", src, 0,
		            "the input has no sample times: --time %s keeps nothing of it", r);
		return;
	}
	flame__warn(o->warn, o->warn_ud, "time-range-empty", src, 0,
	            "--time %s keeps nothing: the samples span 0 to %.3f s from the first "
	            "(%s %.6f to %.6f)%s", r, (double)(last - first) / 1e9,
	            clock_name(c), (double)first / 1e9, (double)last / 1e9,
	            o->time_range == FLAME_TIME_RANGE_WALL && c != FLAME_CLOCK_WALL
	                ? ": a date needs an input on the wall clock (pprof)" : "");
}

/* [*s, *e) from the first sample, in ns, of the range `o` asks on clock `c`; 0 when the
 * range cannot apply to that clock. */
static int range_ns(const flame_parse_opts *o, flame_clock c, int64_t first, int64_t *s, int64_t *e)
{
	double base = 0;
	if (o->time_range == FLAME_TIME_RANGE_WALL) {
		if (c != FLAME_CLOCK_WALL)
			return 0;
		base = (double)first / 1e9;
	}
	double a = (o->time_start - base) * 1e9, b = (o->time_end - base) * 1e9;
	*s = a < -9e18 ? INT64_MIN : a > 9e18 ? INT64_MAX : (int64_t)a;
	*e = b < -9e18 ? INT64_MIN : b > 9e18 ? INT64_MAX : (int64_t)b;
	return 1;
}

static int parse_range(flame_tree *t, flame_input *in, const struct flame__parser *parser,
                       const flame_parse_opts *o, flame_err *err)
{
	flame_parse_opts inner = *o;
	inner.has_time_range = 0;
	uint64_t b = flame_tree_time_bucket(t);
	flame_tree *r = flame__tree_new();
	if (!r)
		return flame__err_nomem(err);
	int rc = flame_tree_keep_time(r, b ? b : o->keep_time_ns ? o->keep_time_ns : RANGE_BUCKET_NS, err);
	if (!rc && flame__tree_labels(t))
		rc = flame_tree_keep_labels(r, err);
	if (!rc) {
		flame__input_watch(in, r);
		rc = parser->parse(r, in, &inner, err);
		flame__input_watch(in, NULL);
	}
	int64_t first, last, s = 0, e = 0;
	flame_clock c = flame_tree_time_span(r, &first, &last);
	int had = flame_tree_total(r, 0) || flame_tree_total(r, 1);
	if (!rc) {
		int applies = c != FLAME_CLOCK_NONE && range_ns(o, c, first, &s, &e);
		rc = flame_tree_time_cut(r, applies ? s : 0, applies ? e : 0, err);
		if (!rc && had && !flame_tree_total(r, 0) && !flame_tree_total(r, 1))
			warn_empty(o, flame_input_name(in), c, first, last);
	}
	if (!rc && !b)
		flame__tree_drop_time(r); /* the caller's tree keeps none */
	if (!rc)
		rc = flame_tree_merge(t, r, err);
	flame_tree_free(r);
	return rc;
}

/* The readers that give samples times: a tree reading anything else keeps none, so it
 * can still spill, and streamed folded inputs still go in blocks. */
static int gives_times(const struct flame__parser *p)
{
	return p == &flame__parser_perf || p == &flame__parser_pprof || p == &flame__parser_jfr ||
	       p == &flame__parser_jfr_binary
#ifdef FLAME_HAVE_PERFDATA
	       || p == &flame__parser_perfdata
#endif
	    ;
}

/* The readers that give samples labels: pprof's own, perf's comm and thread, JFR's thread
 * (binary and text). */
static int gives_labels(const struct flame__parser *p)
{
	return p == &flame__parser_pprof || p == &flame__parser_perf || p == &flame__parser_jfr_binary ||
	       p == &flame__parser_jfr
#ifdef FLAME_HAVE_PERFDATA
	       || p == &flame__parser_perfdata
#endif
	    ;
}

/* the readers that give sites (perf.data's from DWARF line tables: -Ddwarf) */
static int gives_sites(const struct flame__parser *p)
{
	return p == &flame__parser_pprof
#ifdef FLAME_HAVE_DWARF
	       || p == &flame__parser_perfdata
#endif
	    ;
}

int flame__parse_timed(flame_tree *t, flame_input *in, const struct flame__parser *parser,
                       const flame_parse_opts *o, flame_err *err)
{
	int rc = o->keep_time_ns && gives_times(parser) ? flame_tree_keep_time(t, o->keep_time_ns, err) : 0;
	/* sites likewise, from the readers that give them (a tree with a table keeps its
	 * frames apart by site, and never spills) */
	if (!rc && o->keep_sites && gives_sites(parser))
		rc = flame_tree_keep_sites(t, err);
	/* and labels, from the readers that give them */
	if (!rc && o->keep_labels && gives_labels(parser))
		rc = flame_tree_keep_labels(t, err);
	if (rc)
		return rc;
	if (o->has_time_range && o->time_range != FLAME_TIME_RANGE_PERF)
		return parse_range(t, in, parser, o, err);
	flame__input_watch(in, t);
	rc = parser->parse(t, in, o, err);
	flame__input_watch(in, NULL);
	return rc;
}
