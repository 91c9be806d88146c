/* Internal: what the request layer needs of the diff (xform/diff.c). */
#ifndef FLAME_XFORM_DIFF_H
#define FLAME_XFORM_DIFF_H
#include "../flame.h"

/** A caller's diff options (NULL: the defaults) as the current layout (core/version.h). */
int flame__diff_opts_read(flame_diff_opts *dst, const flame_diff_opts *src, flame_err *err);
#endif
