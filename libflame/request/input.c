/* Inputs of diff and merge requests: given by path (opened only while the request runs,
 * so a merge of many files keeps few open) or as the caller's flame_input. */
#include <stdlib.h>
#include <string.h>
#include "../core/err.h"
#include "request.h"

int flame__req_input_set(flame__req_input *ri, const char *path, flame_input *in,
                         const flame_parse_opts *po, flame_err *err)
{
	flame__req_input_free(ri);
	memset(ri, 0, sizeof *ri);
	ri->opts = po ? *po : (flame_parse_opts)FLAME_PARSE_OPTS_INIT;
	ri->caller = in;
	if (!in && !(ri->path = strdup(path ? path : "-")))
		return flame__err_nomem(err);
	return 0;
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
