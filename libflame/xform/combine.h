/* What combine.c offers the other readers of several sources (sorted-text.c). */
#ifndef FLAME_XFORM_COMBINE_H
#define FLAME_XFORM_COMBINE_H
#include "../flame.h"

/** 1 when `s` is folded (or empty) input, told as flame_parse tells formats (a peek, so
 * nothing is consumed); 0 otherwise, or on a read error, which is then s->rc and s->err. */
int flame__source_folded(flame_source *s);
#endif
