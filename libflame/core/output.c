/* Buffered output to stdout or to a file written atomically: data goes to a temp file
 * beside the target, renamed over it on commit and removed on abort, so a failed run
 * never leaves a half-written file. On Linux the temp file is unnamed (O_TMPFILE) until
 * commit links it in, so even SIGKILL leaves nothing beside the target. A symlink is
 * followed as `>` would (its target written or created, the link kept), and an existing
 * target keeps its mode: profiles hold paths and symbols people keep private. The buffer
 * is the only one between a writer and the file: writers format straight into it through
 * core/output.h's inlines (flame__output_reserve), and flame_output_write fills it too. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "array.h"
#include "err.h"
#include "output.h"

enum { OUT_CAP = 256 * 1024, MAX_LINKS = 40 };

struct flame_output {
	flame__outbuf b; /* first: output.h's inlines write into it */
	size_t cap;      /* of b.buf; b.lim is cap until a write fails */
	int fd;
	char *path, *tmp;  /* NULL for stdout */
	int failed;
	int direct; /* writing to `path` in place (not a regular file) */
	int unnamed; /* fd is an O_TMPFILE: linked in at commit, tmp is NULL until then */
};

/* `path` with its symlinks followed, the last one even when dangling (its target is what
 * `>` would create); NULL with errno set (ELOOP past MAX_LINKS hops). */
static char *follow_links(const char *path)
{
	char *cur = strdup(path);
	for (int hops = 0; cur; hops++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (hops == MAX_LINKS) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		size_t cap = (size_t)st.st_size + 1 > 256 ? (size_t)st.st_size + 1 : 256;
		char *to = malloc(cap);
		ssize_t n = to ? readlink(cur, to, cap) : -1;
		if (n < 0 || (size_t)n >= cap) { /* the link changed under us: fail, not guess */
			if (n >= 0)
				errno = ELOOP;
			free(to);
			free(cur);
			return NULL;
		}
		to[n] = 0;
		const char *slash = strrchr(cur, '/');
		if (to[0] != '/' && slash) { /* relative to the link's own directory */
			size_t d = (size_t)(slash - cur) + 1;
			char *j = malloc(d + (size_t)n + 1);
			if (j) {
				memcpy(j, cur, d);
				memcpy(j + d, to, (size_t)n + 1);
			}
			free(to);
			to = j;
		}
		free(cur);
		cur = to;
	}
	return NULL;
}

/* Writes "PATH.tmp.XXXXXX" into buf (room for strlen(path) + 16), a different name each
 * attempt: callers create it with O_EXCL and retry on EEXIST. */
static void temp_name(char *buf, size_t cap, const char *path, unsigned attempt)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	unsigned long r = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 12) ^
	                  (attempt * 2654435761u) ^ (unsigned long)(uintptr_t)buf;
	snprintf(buf, cap, "%s.tmp.%06lx", path, r & 0xffffff);
}

/* An unnamed temp file in path's directory, or -1 where the filesystem (or a missing
 * /proc, which linkat needs to name it) does not allow one. */
static int open_unnamed(const char *path)
{
#ifdef O_TMPFILE
	if (access("/proc/self/fd", X_OK) != 0)
		return -1;
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
	if (slash && !dir)
		return -1;
	/* mode 0666 as a new file gets through `>`: the umask applies */
	int fd = open(dir ? dir : ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	free(dir);
	return fd;
#else
	(void)path;
	return -1;
#endif
}

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

/* A device, FIFO or /dev/stdout: written in place; renaming a temp file over it would
 * replace the device or the link. 0, or an error with `o` aborted. */
static int open_in_place(flame_output *o, const char *path, flame_err *err)
{
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
	return 0;
}

/* A regular file (or none yet): written to an unnamed or temporary file that commit puts
 * in its place, with the mode of the file it replaces. Through a symlink, the file it
 * points to is written (created if the link dangles) and the link kept. 0, or an error
 * with `o` aborted. */
static int open_replacing(flame_output *o, const char *name, flame_err *err)
{
	char *path = follow_links(name);
	if (!path) {
		int e = errno;
		flame_output_abort(o);
		return e == ENOMEM ? flame__err_nomem(err)
		                   : flame__err(err, FLAME_EIO, name, 0, FLAME__NO_OFFSET,
		                                "cannot follow the link: %s", strerror(e));
	}
	size_t n = strlen(path);
	o->path = strdup(path);
	o->tmp = malloc(n + 16);
	if (!o->path || !o->tmp) {
		free(path);
		flame_output_abort(o);
		return flame__err_nomem(err);
	}
	struct stat st;
	int keep = stat(path, &st) == 0; /* regular here: the other kinds are written in place */
	if ((o->fd = open_unnamed(path)) >= 0) {
		o->unnamed = 1;
		free(o->tmp);
		o->tmp = NULL;
	} else {
		for (unsigned i = 0; i < 100; i++) {
			temp_name(o->tmp, n + 16, path, i);
			o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
			if (o->fd >= 0 || errno != EEXIST)
				break;
		}
	}
	int e = errno;
	free(path);
	if (o->fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		flame_output_abort(o);
		return flame__err(err, FLAME_EIO, name, 0, FLAME__NO_OFFSET, "cannot create: %s",
		                  strerror(e));
	}
	if (keep)
		fchmod(o->fd, st.st_mode & 07777);
	return 0;
}

int flame_output_open(flame_output **out, const char *path, flame_err *err)
{
	*out = NULL;
	flame_output *o = calloc(1, sizeof *o);
	if (!o || !(o->b.buf = malloc(OUT_CAP))) {
		free(o);
		return flame__err_nomem(err);
	}
	o->cap = o->b.lim = OUT_CAP;
	o->fd = 1;
	struct stat st;
	int rc = 0;
	if (path && strcmp(path, "-") != 0 &&
	    (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0 ||
	     (stat(path, &st) == 0 && !S_ISREG(st.st_mode))))
		rc = open_in_place(o, path, err);
	else if (path && strcmp(path, "-") != 0)
		rc = open_replacing(o, path, err);
	if (!rc)
		*out = o;
	return rc;
}

const char *flame_output_temp_path(const flame_output *o) { return o->tmp; }

/* All of p[0..len) to the file, through short writes and signals. */
static int write_all(flame_output *o, const char *p, size_t len, flame_err *err)
{
	while (len) {
		ssize_t n = write(o->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* the output is incomplete: drop what is buffered, and no room is left, so
			 * output.h's fast path (room = lim - len) sends every write here to fail */
			o->failed = 1;
			o->b.len = o->b.lim = 0;
			return flame__err(err, FLAME_EIO, o->path ? o->path : "<stdout>", 0,
			                  FLAME__NO_OFFSET, "write error: %s", strerror(errno));
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int flush(flame_output *o, flame_err *err)
{
	int rc = write_all(o, o->b.buf, o->b.len, err);
	if (!rc)
		o->b.len = 0;
	return rc;
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
	if (len > o->cap - o->b.len) {
		int rc = flush(o, err);
		if (rc)
			return rc;
		if (len >= o->cap) /* large writes bypass the buffer */
			return write_all(o, data, len, err);
	}
	memcpy(o->b.buf + o->b.len, data, len);
	o->b.len += len;
	return 0;
}

char *flame__output_room(flame_output *o, size_t n, size_t keep, int *rc, flame_err *err)
{
	if (o->failed) {
		*rc = failed(o, err);
		return NULL;
	}
	if (keep > o->b.len)
		keep = o->b.len;
	if (n > o->cap - o->b.len) {
		size_t from = o->b.len - keep;
		if ((*rc = write_all(o, o->b.buf, from, err)) != 0)
			return NULL;
		memmove(o->b.buf, o->b.buf + from, keep);
		o->b.len = keep;
	}
	if (n > o->cap - o->b.len) { /* an item larger than the buffer: grow it for good */
		if (n > SIZE_MAX - o->b.len ||
		    flame__array_grow(&o->b.buf, &o->cap, o->b.len + n, 1, OUT_CAP)) {
			*rc = flame__err_nomem(err);
			return NULL;
		}
		o->b.lim = o->cap;
	}
	return o->b.buf + o->b.len;
}

static void release(flame_output *o)
{
	free(o->b.buf);
	free(o->path);
	free(o->tmp);
	free(o);
}

/* Give the unnamed temp file a name: the target itself when there is none yet, else a
 * temp name (o->tmp) that commit renames over the target, as linkat cannot replace. */
static int link_unnamed(flame_output *o, flame_err *err)
{
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, o->path, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	size_t cap = strlen(o->path) + 16;
	if (errno != EEXIST)
		return flame__err(err, FLAME_EIO, o->path, 0, FLAME__NO_OFFSET, "cannot create: %s",
		                  strerror(errno));
	if (!(o->tmp = malloc(cap)))
		return flame__err_nomem(err);
	for (unsigned i = 0; i < 100; i++) {
		temp_name(o->tmp, cap, o->path, i);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	int e = errno;
	free(o->tmp);
	o->tmp = NULL;
	return flame__err(err, FLAME_EIO, o->path, 0, FLAME__NO_OFFSET, "cannot create: %s",
	                  strerror(e));
}

int flame_output_commit(flame_output *o, flame_err *err)
{
	int rc = o->failed ? failed(o, err) : flush(o, err);
	if (o->direct)
		close(o->fd);
	if (o->unnamed) {
		if (!rc)
			rc = link_unnamed(o, err);
		close(o->fd);
		if (!rc && o->tmp && rename(o->tmp, o->path) != 0) {
			rc = flame__err(err, FLAME_EIO, o->path, 0, FLAME__NO_OFFSET, "cannot rename: %s",
			                strerror(errno));
			unlink(o->tmp);
		}
	} else if (o->tmp) {
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
	if (o->direct || o->unnamed)
		close(o->fd); /* an unnamed temp file vanishes with its descriptor */
	else if (o->tmp) {
		close(o->fd);
		unlink(o->tmp);
	}
	release(o);
}
