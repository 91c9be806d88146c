/* Buffered output to stdout or to a file written atomically: data goes to a temp file
 * beside the target, renamed over it on commit and removed on abort, so a failed run
 * never leaves a half-written file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "err.h"

enum { OUT_CAP = 256 * 1024 };

struct flame_output {
	int fd;
	char *path, *tmp;  /* NULL for stdout */
	char *buf;
	size_t len;
	int failed;
	int direct; /* writing to `path` in place (not a regular file) */
};

/* /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N -> N; else -1. */
static int std_fd(const char *path)
{
	if (strcmp(path, "/dev/stdout") == 0)
		return 1;
	if (strcmp(path, "/dev/stderr") == 0)
		return 2;
	const char *num = NULL;
	if (strncmp(path, "/dev/fd/", 8) == 0)
		num = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		num = path + 14;
	if (!num || !*num)
		return -1;
	char *end;
	long v = strtol(num, &end, 10);
	return (*end || v < 0 || v > 1 << 20) ? -1 : (int)v;
}

int flame_output_open(flame_output **out, const char *path, flame_err *err)
{
	*out = NULL;
	flame_output *o = calloc(1, sizeof *o);
	if (!o || !(o->buf = malloc(OUT_CAP))) {
		free(o);
		return flame__err_nomem(err);
	}
	o->fd = 1;
	struct stat st;
	char *real = NULL;
	const char *name = path; /* what errors call it: the user's spelling */
	if (path && strcmp(path, "-") != 0 &&
	    (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0 ||
	     (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))) {
		/* a device, FIFO or /dev/stdout: write to it in place; renaming a temp file over
		 * it would replace the device or the link */
		o->path = strdup(path);
		int fdn = std_fd(path);
		if (!o->path)
			o->fd = -1;
		else if (fdn >= 0) /* share the caller's descriptor (and its file offset) */
			o->fd = fcntl(fdn, F_DUPFD_CLOEXEC, 3);
		else
			o->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0) {
			int e = errno;
			o->fd = 1;
			flame_output_abort(o);
			return flame__err(err, FLAME_EIO, path, 0, FLAME__NO_OFFSET, "cannot open: %s",
			                  strerror(e));
		}
		o->direct = 1;
	} else if (path && strcmp(path, "-") != 0) {
		/* through a symlink: replace the file it points to and keep the link */
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)))
			path = real;
		size_t n = strlen(path);
		o->path = strdup(path);
		o->tmp = malloc(n + 16);
		if (!o->path || !o->tmp) {
			free(real);
			flame_output_abort(o);
			return flame__err_nomem(err);
		}
		snprintf(o->tmp, n + 16, "%s.tmp.XXXXXX", path);
		o->fd = mkstemp(o->tmp);
		if (o->fd < 0) {
			int e = errno;
			free(o->tmp);
			o->tmp = NULL;
			free(real);
			flame_output_abort(o);
			return flame__err(err, FLAME_EIO, name, 0, FLAME__NO_OFFSET, "cannot create: %s",
			                  strerror(e));
		}
		fchmod(o->fd, 0644);
	}
	free(real);
	*out = o;
	return 0;
}

const char *flame_output_temp_path(const flame_output *o) { return o->tmp; }

static int flush(flame_output *o, flame_err *err)
{
	size_t off = 0;
	while (off < o->len) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			o->failed = 1;
			return flame__err(err, FLAME_EIO, o->path ? o->path : "<stdout>", 0,
			                  FLAME__NO_OFFSET, "write error: %s", strerror(errno));
		}
		off += (size_t)n;
	}
	o->len = 0;
	return 0;
}

/* A write after one that failed: the output is already incomplete. */
static int failed(const flame_output *o, flame_err *err)
{
	return flame__err(err, FLAME_EIO, o->path ? o->path : "<stdout>", 0, FLAME__NO_OFFSET,
	                  "an earlier write failed");
}

int flame_output_write(flame_output *o, const void *data, size_t len, flame_err *err)
{
	if (o->failed)
		return failed(o, err);
	if (len > OUT_CAP - o->len) {
		int rc = flush(o, err);
		if (rc)
			return rc;
		if (len >= OUT_CAP) { /* large writes bypass the buffer */
			const char *p = data;
			while (len) {
				ssize_t n = write(o->fd, p, len);
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0) {
					o->failed = 1;
					return flame__err(err, FLAME_EIO, o->path ? o->path : "<stdout>", 0,
					                  FLAME__NO_OFFSET, "write error: %s", strerror(errno));
				}
				p += n;
				len -= (size_t)n;
			}
			return 0;
		}
	}
	memcpy(o->buf + o->len, data, len);
	o->len += len;
	return 0;
}

static void release(flame_output *o)
{
	free(o->buf);
	free(o->path);
	free(o->tmp);
	free(o);
}

int flame_output_commit(flame_output *o, flame_err *err)
{
	int rc = o->failed ? failed(o, err) : flush(o, err);
	if (o->direct)
		close(o->fd);
	if (o->tmp) {
		if (close(o->fd) != 0 && !rc)
			rc = flame__err(err, FLAME_EIO, o->path, 0, FLAME__NO_OFFSET, "write error: %s",
			                strerror(errno));
		if (!rc && rename(o->tmp, o->path) != 0)
			rc = flame__err(err, FLAME_EIO, o->path, 0, FLAME__NO_OFFSET, "cannot rename: %s",
			                strerror(errno));
		if (rc)
			unlink(o->tmp);
	}
	release(o);
	return rc;
}

void flame_output_abort(flame_output *o)
{
	if (!o)
		return;
	if (o->direct)
		close(o->fd);
	if (o->tmp) {
		close(o->fd);
		unlink(o->tmp);
	}
	release(o);
}
