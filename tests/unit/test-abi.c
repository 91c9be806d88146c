/* The ABI as an outside program sees it: this test includes only flame.h and links the
 * shared library. The version macros and flame_version() agree with meson's project
 * version (argv[1]). */
#include <stdio.h>
#include "libflame/flame.h"
#include "harness.h"

static const char *project_version;

static void test_version(void)
{
	CHECK_STR(flame_version(), FLAME_VERSION);
	CHECK_STR(flame_version(), project_version);
	char buf[64];
	snprintf(buf, sizeof buf, "%d.%d.%d", FLAME_VERSION_MAJOR, FLAME_VERSION_MINOR,
	         FLAME_VERSION_PATCH);
	CHECK_STR(buf, project_version);
	CHECK_EQ_U64(FLAME_VERSION_NUMBER,
	             FLAME_VERSION_MAJOR * 10000 + FLAME_VERSION_MINOR * 100 + FLAME_VERSION_PATCH);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test-abi PROJECT_VERSION\n");
		return 2;
	}
	project_version = argv[1];
	RUN(test_version);
	return harness_done();
}
