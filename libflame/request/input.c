/* Inputs of diff and merge requests: given by path (opened only while the request runs,
 * so a merge of many files keeps few open) or as the caller's flame_input. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../core/err.h"
#include "../parse/parser.h"
#include "request.h"

int flame__req_input_set(flame__req_input *ri, const char *path, flame_input *in,
                         const flame_parse_opts *po, flame_err *err)
{
	flame__req_input_free(ri);
	memset(ri, 0, sizeof *ri);
	int rc = flame__parse_opts_read(&ri->opts, po, err);
	if (rc)
		return rc;
	ri->caller = in;
	if (!in && !(ri->path = strdup(path ? path : "-")))
		return flame__err_nomem(err);
	return 0;
}

void flame__req_reading_init(flame__req_reading *rd)
{
	memset(rd, 0, sizeof *rd);
	pthread_mutex_init(&rd->mu, NULL);
}

void flame__req_reading_free(flame__req_reading *rd) { pthread_mutex_destroy(&rd->mu); }

void flame__req_reading_begin(flame__req_reading *rd, flame__req_input *v, size_t n)
{
	rd->done = rd->stacks = rd->total = 0;
	int known = 1;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		v[i].reading = rd;
		v[i].done = v[i].stacks = 0;
		if (v[i].path && strcmp(v[i].path, "-") != 0 && stat(v[i].path, &st) == 0 &&
		    S_ISREG(st.st_mode))
			rd->total += (uint64_t)st.st_size;
		else
			known = 0; /* stdin, a pipe, or the caller's input: size unknown here */
	}
	if (!known)
		rd->total = 0;
}

/* One input's report into the sum. A rewound input (the text merge reads sorted files
 * twice) adds nothing until it passes what it had reported. */
static void on_progress(void *ud, uint64_t done, uint64_t total, uint64_t stacks)
{
	flame__req_input *ri = ud;
	flame__req_reading *rd = ri->reading;
	(void)total;
	pthread_mutex_lock(&rd->mu);
	if (done > ri->done) {
		rd->done += done - ri->done;
		ri->done = done;
	}
	if (stacks > ri->stacks) {
		rd->stacks += stacks - ri->stacks;
		ri->stacks = stacks;
	}
	rd->fn(rd->ud, rd->done, rd->total, rd->stacks);
	pthread_mutex_unlock(&rd->mu);
}

int flame__req_input_open(flame__req_input *ri, flame__source *s, flame_err *err)
{
	memset(s, 0, sizeof *s);
	s->opts = ri->opts;
	s->weight = ri->weight;
	s->weight_decimals = ri->weight_decimals;
	if (!ri->caller && !ri->opened) {
		int rc = flame_input_open(&ri->opened, ri->path, err);
		if (rc)
			return rc;
		if (ri->reading) {
			flame_input_set_limit(ri->opened, ri->reading->limit);
			if (ri->reading->fn)
				flame_input_set_progress(ri->opened, on_progress, ri);
		}
	}
	s->in = ri->caller ? ri->caller : ri->opened;
	return 0;
}

void flame__req_input_close(flame__req_input *ri)
{
	flame_input_free(ri->opened);
	ri->opened = NULL;
}

void flame__req_input_free(flame__req_input *ri)
{
	flame__req_input_close(ri);
	free(ri->path);
	ri->path = NULL;
}
