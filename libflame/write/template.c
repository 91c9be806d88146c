/* Placeholder expansion for the embedded SVG skeleton: literal runs and {{key}}
 * placeholders are handed to callbacks, so the writer streams the output. */
#include <string.h>
#include "template.h"

int flame__template_expand(const char *tpl, size_t len, const flame__tpl_cb *cb)
{
	size_t i = 0;
	while (i < len) {
		const char *open = memmem(tpl + i, len - i, "{{", 2);
		size_t lit_end = open ? (size_t)(open - tpl) : len;
		int rc;
		if (lit_end > i && (rc = cb->literal(cb->ud, tpl + i, lit_end - i)))
			return rc;
		if (!open)
			break;
		const char *close = memmem(open + 2, len - (lit_end + 2), "}}", 2);
		if (!close) { /* not a placeholder: keep the text */
			if ((rc = cb->literal(cb->ud, open, len - lit_end)))
				return rc;
			break;
		}
		if ((rc = cb->key(cb->ud, open + 2, (size_t)(close - open - 2))))
			return rc;
		i = (size_t)(close + 2 - tpl);
	}
	return 0;
}
