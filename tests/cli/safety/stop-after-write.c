/* A test shim (LD_PRELOAD) for tests/cli/safety/output.py: the process stops itself (SIGSTOP)
 * right after its first write to a file in the directory FLAME_TEST_STOP_DIR names. The
 * test then finds the tool mid-write for certain, however fast the tool and however busy
 * the machine: a tool that writes its output in one call leaves no window to poll for. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int stopped; /* once: the test resumes the tool only to signal it */

ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);
	if (!real) { /* POSIX: dlsym's object pointer holds a function; copied, not cast */
		void *sym = dlsym(RTLD_NEXT, "write");
		memcpy(&real, &sym, sizeof real);
	}
	ssize_t n = real(fd, buf, len);
	const char *dir;
	if (n > 0 && fd > 2 && !stopped && (dir = getenv("FLAME_TEST_STOP_DIR"))) {
		char proc[64], link[4096];
		snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
		ssize_t k = readlink(proc, link, sizeof link - 1);
		size_t dl = strlen(dir);
		if (k > (ssize_t)dl && !strncmp(link, dir, dl) && link[dl] == '/') {
			stopped = 1;
			raise(SIGSTOP);
		}
	}
	return n;
}
