/* perf.data through the public API (parse/perfdata*.c): a file-mode recording, whose data
 * section is read at offsets, reports its progress as any other input does (growing
 * counts of bytes up to the data's end, the file's size as the total), and so does a
 * pipe-mode one. The committed recording is small enough to be read whole at the first
 * look, so a copy is made with 1 MiB of FINISHED_ROUND records at the end of its data
 * section (its size and the feature sections' offsets moved to match). A file cut short
 * while it is read (from the progress callback: the data section is mapped, and a read
 * of a lost page would fault) is an error naming it, not a crash.
 * Usage: test-perfdata FIXTURES_DIR */
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness.h"
#include "util.h"
#include "libflame/flame.h"

typedef struct seen {
	unsigned calls, backwards;
	uint64_t last, total;
} seen;

static void progress(void *ud, uint64_t done, uint64_t total, uint64_t stacks)
{
	seen *s = ud;
	(void)stacks;
	s->calls++;
	if (done < s->last)
		s->backwards++;
	s->last = done;
	s->total = total;
}

static uint64_t u64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* `in` with `pad` bytes of 8-byte FINISHED_ROUND records after its data; the new data
 * section's end in *data_end. */
static int padded(const char *in, const char *out, size_t pad, uint64_t *data_end)
{
	FILE *f = fopen(in, "rb");
	if (!f)
		return -1;
	static unsigned char b[1 << 20];
	size_t n = fread(b, 1, sizeof b, f);
	fclose(f);
	if (n < 104 || memcmp(b, "PERFILE2", 8) != 0)
		return -1;
	uint64_t doff = u64(b + 40), dsize = u64(b + 48), end = doff + dsize;
	int nfeat = 0;
	for (int i = 0; i < 32; i++)
		nfeat += __builtin_popcount(b[72 + i]);
	if (end + 16 * (uint64_t)nfeat > n)
		return -1;
	put64(b + 48, dsize + pad);
	for (int i = 0; i < nfeat; i++) /* the feature sections move by `pad` */
		put64(b + end + 16 * (size_t)i, u64(b + end + 16 * (size_t)i) + pad);
	f = fopen(out, "wb");
	if (!f)
		return -1;
	fwrite(b, 1, (size_t)end, f);
	const unsigned char round[8] = {68, 0, 0, 0, 0, 0, 8, 0}; /* type 68, size 8 */
	for (size_t i = 0; i < pad / 8; i++)
		fwrite(round, 1, 8, f);
	fwrite(b + end, 1, n - (size_t)end, f);
	*data_end = end + pad;
	return fclose(f);
}

static void check_file(const char *path, uint64_t data_end)
{
	const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct stat st;
	CHECK(stat(path, &st) == 0);
	flame_err err;
	flame_input *in = NULL;
	CHECK(flame_input_open(&in, path, &err) == 0);
	if (!in)
		return;
	seen s = {0};
	flame_input_set_progress(in, progress, &s);
	flame_tree *t = test_tree_new();
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_PERFDATA;
	int rc = flame_parse(t, in, &o, &err);
	if (rc) {
		char msg[512];
		flame_err_format(&err, msg, sizeof msg);
		fprintf(stderr, "%s: %s\n", file, msg);
	}
	CHECK(rc == 0);
	CHECK(s.calls > 0);
	CHECK(s.backwards == 0);
	CHECK(s.last >= data_end && s.last <= (uint64_t)st.st_size);
	CHECK_EQ_U64(s.total, (uint64_t)st.st_size);
	flame_tree_free(t);
	flame_input_free(in);
}

/* The progress callback that cuts the file to `to` bytes at its second call (the first is
 * the format's detection; the second, the reading of the data section). */
typedef struct cutter {
	const char *path;
	uint64_t to;
	unsigned calls;
} cutter;

static void cut(void *ud, uint64_t done, uint64_t total, uint64_t stacks)
{
	cutter *c = ud;
	(void)done, (void)total, (void)stacks;
	if (c->calls++ == 1)
		CHECK(truncate(c->path, (off_t)c->to) == 0);
}

/* `path` (a data section of 20 MiB) cut to 1 MiB past its start while it is read. */
static void check_cut(const char *path)
{
	flame_err err;
	flame_input *in = NULL;
	CHECK(flame_input_open(&in, path, &err) == 0);
	if (!in)
		return;
	cutter c = {path, 0, 0};
	struct stat st;
	CHECK(stat(path, &st) == 0);
	c.to = (uint64_t)st.st_size / 20;
	flame_input_set_progress(in, cut, &c);
	flame_tree *t = test_tree_new();
	flame_parse_opts o = FLAME_PARSE_OPTS_INIT;
	o.format = FLAME_FORMAT_PERFDATA;
	int rc = flame_parse(t, in, &o, &err);
	char msg[512] = "";
	flame_err_format(&err, msg, sizeof msg);
	CHECK(c.calls > 1);
	CHECK(rc == FLAME_EDATA);
	if (!strstr(msg, "cut short while it was read"))
		fprintf(stderr, "cut: %s\n", msg);
	CHECK(strstr(msg, "cut short while it was read") != NULL);
	flame_tree_free(t);
	flame_input_free(in);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test-perfdata FIXTURES_DIR\n");
		return 2;
	}
	char home[4096];
	snprintf(home, sizeof home, "%s/perfdata/home", argv[1]); /* the recordings' build-id cache */
	setenv("HOME", home, 1);
	char path[4096], big[] = "/tmp/test-perfdata-XXXXXX";
	uint64_t end = 0;
	snprintf(path, sizeof path, "%s/perfdata/static.data", argv[1]);
	check_file(path, 1);
	int fd = mkstemp(big);
	CHECK(fd >= 0 && padded(path, big, 1 << 20, &end) == 0);
	check_file(big, end);
	CHECK(padded(path, big, 20 << 20, &end) == 0);
	check_cut(big);
	if (fd >= 0) {
		close(fd);
		unlink(big);
	}
	snprintf(path, sizeof path, "%s/perfdata/static-pipe.data", argv[1]);
	check_file(path, 1);
	return harness_done();
}
