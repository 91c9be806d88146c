/* Internal: the library's side of versioned options structs (core/version.c). A caller's
 * struct says in its first field, `version`, which layout it was compiled against; fields
 * are only appended, so each version is a prefix of the current struct, of the size the
 * struct's table gives (sizes[v], the size of version v's layout; sizes[0] unused). The
 * library reads exactly that prefix and gives the rest their defaults, and never writes
 * past it. */
#ifndef FLAME_CORE_VERSION_H
#define FLAME_CORE_VERSION_H
#include "../flame.h"

/* One struct's layouts: its name for messages, its defaults (the _INIT macro, current
 * size), the current size and the size of every version's layout. */
struct flame__opts_layout {
	const char *what;      /* "flame_parse_opts" */
	const void *defaults;
	size_t size;
	const size_t *sizes;   /* [1..known] */
	unsigned known;        /* the current version */
};

/** 0 when `version` is a layout of the struct this library knows (1..known); else
 * FLAME_EUSAGE naming the struct and the versions it knows. */
int flame__opts_version(const struct flame__opts_layout *L, unsigned version, flame_err *err);

/** An options struct's _init: the defaults of `version`'s layout into `o` (that many bytes,
 * no more) with its version set; FLAME_EUSAGE, `o` untouched, for an unknown version. */
int flame__opts_init(const struct flame__opts_layout *L, void *o, unsigned version);

/** A caller's struct `src` (NULL: the defaults) into `dst`, a struct of the current layout:
 * the fields of src's version from src, the others their defaults, and dst's version the
 * current one. FLAME_EUSAGE for an unknown version. */
int flame__opts_read(const struct flame__opts_layout *L, void *dst, const void *src,
                     flame_err *err);
#endif
