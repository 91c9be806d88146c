/* flamegraph.pl's --nameattr file (write/nameattr.c reads it): per frame name, the
 * attributes the SVG writer (svg.c) puts on that frame's element. */
#ifndef FLAME_WRITE_NAMEATTR_H
#define FLAME_WRITE_NAMEATTR_H
#include <stddef.h>
#include "../flame.h"

typedef struct flame__nameattr_pair {
	char *key, *value; /* as the file gives them: svg.c decides what it writes */
} flame__nameattr_pair;

typedef struct flame__nameattr_entry {
	flame__nameattr_pair *attrs; /* in the file's order; a key given twice keeps its last */
	size_t n, cap;
} flame__nameattr_entry;

/** The attributes of frame name `name[0..len)`, or NULL when `na` is NULL or has none. */
const flame__nameattr_entry *flame__nameattr_find(const flame_nameattr *na, const char *name,
                                                  size_t len);
#endif
