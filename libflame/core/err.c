/* Error values and warnings: formatting into caller-owned fixed-size storage, so
 * reporting never allocates (even out of memory can be reported). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "err.h"

static void copy_str(char *dst, size_t cap, const char *src)
{
	size_t n = src ? strlen(src) : 0;
	if (n >= cap)
		n = cap - 1;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

int flame__err(flame_err *err, int code, const char *source, uint64_t line, uint64_t offset,
               const char *fmt, ...)
{
	if (!err)
		return code;
	err->code = code;
	err->line = line;
	err->offset = offset;
	copy_str(err->source, sizeof err->source, source);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return code;
}

int flame__err_nomem(flame_err *err)
{
	if (err) {
		err->code = FLAME_ENOMEM;
		err->line = 0;
		err->offset = FLAME__NO_OFFSET;
		err->source[0] = '\0';
		copy_str(err->msg, sizeof err->msg, "out of memory");
	}
	return FLAME_ENOMEM;
}

int flame__err_status(flame_err *err, int code, const char *source, uint64_t line,
                      uint64_t offset)
{
	if (code == -1 || code == FLAME_ENOMEM)
		return flame__err_nomem(err);
	return flame__err(err, code, source, line, offset, "%s", flame_strerror(code));
}

int flame__err_recode(flame_err *err, int code, const char *source)
{
	if (err) {
		err->code = code;
		copy_str(err->source, sizeof err->source, source);
	}
	return code;
}

void flame__warn(flame_warn_fn fn, void *ud, const char *kind, const char *source,
                 uint64_t line, const char *fmt, ...)
{
	if (!fn)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fn(ud, kind, source, line, msg);
}

const char *flame_strerror(int code)
{
	switch (code) {
	case FLAME_OK: return "success";
	case FLAME_ENOMEM: return "out of memory";
	case FLAME_EIO: return "input/output error";
	case FLAME_EDATA: return "invalid input data";
	case FLAME_EUSAGE: return "invalid argument";
	case FLAME_ERANGE: return "value out of range";
	case FLAME_EFORMAT: return "unknown input format";
	}
	return "unknown error";
}

size_t flame_err_format(const flame_err *e, char *buf, size_t n)
{
	const char *msg = e->msg[0] ? e->msg : flame_strerror(e->code);
	int r;
	if (e->source[0] && e->line)
		r = snprintf(buf, n, "%s:%llu: %s", e->source, (unsigned long long)e->line, msg);
	else if (e->source[0] && e->offset != FLAME__NO_OFFSET)
		r = snprintf(buf, n, "%s: byte %llu: %s", e->source, (unsigned long long)e->offset, msg);
	else if (e->source[0])
		r = snprintf(buf, n, "%s: %s", e->source, msg);
	else
		r = snprintf(buf, n, "%s", msg);
	return r < 0 ? 0 : (size_t)r;
}
