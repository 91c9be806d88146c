/* The library's version at run time, and the check every versioned options struct goes
 * through on its way into the library (libgit2's pattern: the caller's struct says which
 * layout it was compiled against; a layout this library does not know is refused). */
#include <string.h>
#include "../flame.h"
#include "err.h"
#include "version.h"

const char *flame_version(void)
{
	return FLAME_VERSION;
}

int flame__opts_version(unsigned version, unsigned known, const char *what, flame_err *err)
{
	if (version >= 1 && version <= known)
		return 0;
	return flame__err(err, FLAME_EUSAGE, NULL, 0, FLAME__NO_OFFSET,
	                  "%s version %u is not known to libflame %s (it knows 1 to %u); "
	                  "initialize it with its _INIT macro or %s_init", what, version,
	                  FLAME_VERSION, known, what);
}

int flame__opts_init(void *o, const void *defaults, size_t size, unsigned version,
                     unsigned known, const char *what)
{
	if (flame__opts_version(version, known, what, NULL))
		return FLAME_EUSAGE;
	memcpy(o, defaults, size);
	memcpy(o, &version, sizeof version);
	return 0;
}
