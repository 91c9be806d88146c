/* The library's version at run time, and the way every versioned options struct comes into
 * the library (version.h): read as the layout the caller was compiled against, so a program
 * built with an older flame.h keeps working. */
#include <string.h>
#include "../flame.h"
#include "err.h"
#include "version.h"

const char *flame_version(void)
{
	return FLAME_VERSION;
}

int flame__opts_version(const struct flame__opts_layout *L, unsigned version, flame_err *err)
{
	if (version >= 1 && version <= L->known)
		return 0;
	return flame__err(err, FLAME_EUSAGE, NULL, 0, FLAME__NO_OFFSET,
	                  "%s version %u is not known to libflame %s (it knows 1 to %u); "
	                  "initialize it with its _INIT macro or %s_init", L->what, version,
	                  FLAME_VERSION, L->known, L->what);
}

int flame__opts_init(const struct flame__opts_layout *L, void *o, unsigned version)
{
	if (flame__opts_version(L, version, NULL))
		return FLAME_EUSAGE;
	memcpy(o, L->defaults, L->sizes[version]);
	memcpy(o, &version, sizeof version);
	return 0;
}

int flame__opts_read(const struct flame__opts_layout *L, void *dst, const void *src,
                     flame_err *err)
{
	memcpy(dst, L->defaults, L->size);
	if (!src)
		return 0;
	unsigned version;
	memcpy(&version, src, sizeof version);
	int rc = flame__opts_version(L, version, err);
	if (rc)
		return rc;
	memcpy(dst, src, L->sizes[version]);
	memcpy(dst, &L->known, sizeof L->known);
	return 0;
}
