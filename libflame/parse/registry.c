/* The parser registry: format names, auto-detection from content (after gzip is
 * undone), and dispatch. A new format adds one line to `parsers`. */
#include <string.h>
#include "parser.h"

/* Probe order matters: specific formats first, folded (the loosest) last. */
static const struct flame__parser *const parsers[] = {
	&flame__parser_pprof, /* binary: probed before the text formats */
	&flame__parser_offcpu,
	&flame__parser_jfr,
	&flame__parser_svg,
	&flame__parser_perf,
	&flame__parser_folded,
};
enum { NPARSERS = sizeof parsers / sizeof parsers[0] };

static const char *const format_names[] = {"auto", "folded", "perf", "pprof", "offcpu", "jfr",
                                           "svg"};

int flame_format_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
		if (strcmp(name, format_names[i]) == 0)
			return (int)i;
	return -1;
}

const char *flame_format_name(flame_format f)
{
	return (unsigned)f < sizeof format_names / sizeof format_names[0] ? format_names[f] : "?";
}

flame_format flame_detect(const void *buf, size_t len)
{
	for (size_t i = 0; i < NPARSERS; i++)
		if (parsers[i]->probe && parsers[i]->probe(buf, len))
			return parsers[i]->format;
	return FLAME_FORMAT_AUTO;
}

enum { PEEK = 64 * 1024 };

int flame_parse(flame_tree *t, flame_input *in, const flame_parse_opts *o, flame_err *err)
{
	static const flame_parse_opts defaults = FLAME_PARSE_OPTS_INIT;
	if (!o)
		o = &defaults;
	flame_format f = o->format;
	if (f == FLAME_FORMAT_AUTO) {
		const char *p;
		long n = flame__input_peek(in, &p, PEEK, err);
		if (n < 0)
			return (int)n;
		if (n == 0)
			return 0; /* empty input: nothing to add, in any format */
		f = flame_detect(p, (size_t)n);
		if (f == FLAME_FORMAT_AUTO)
			return flame__err(err, FLAME_EFORMAT, flame_input_name(in), 0, FLAME__NO_OFFSET,
			                  "cannot tell the input format; use --format");
	}
	for (size_t i = 0; i < NPARSERS; i++)
		if (parsers[i]->format == f)
			return parsers[i]->parse(t, in, o, err);
	return flame__err(err, FLAME_EUSAGE, flame_input_name(in), 0, FLAME__NO_OFFSET,
	                  "the %s format is not supported", flame_format_name(f));
}
