/* Minimal unit-test harness: CHECK records a failure and goes on; the test binary
 * exits non-zero if anything failed. Each test file has one main() calling tests. */
#ifndef FLAME_TEST_HARNESS_H
#define FLAME_TEST_HARNESS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_failures, harness_checks;

#define CHECK(cond)                                                                      \
	do {                                                                                 \
		harness_checks++;                                                                \
		if (!(cond)) {                                                                   \
			harness_failures++;                                                          \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
		}                                                                                \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                               \
	do {                                                                                 \
		unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b);  \
		harness_checks++;                                                                \
		if (va_ != vb_) {                                                                \
			harness_failures++;                                                          \
			fprintf(stderr, "%s:%d: %s == %llu, expected %llu\n", __FILE__, __LINE__, #a,  \
			        va_, vb_);                                                           \
		}                                                                                \
	} while (0)

#define CHECK_STR(a, b)                                                                  \
	do {                                                                                 \
		const char *sa_ = (a), *sb_ = (b);                                               \
		harness_checks++;                                                                \
		if (strcmp(sa_, sb_) != 0) {                                                     \
			harness_failures++;                                                          \
			fprintf(stderr, "%s:%d: %s is\n---\n%s\n--- expected\n%s\n---\n", __FILE__,     \
			        __LINE__, #a, sa_, sb_);                                             \
		}                                                                                \
	} while (0)

#define RUN(fn)                                                                          \
	do {                                                                                 \
		fprintf(stderr, "-- %s\n", #fn);                                                 \
		fn();                                                                            \
	} while (0)

static inline int harness_done(void)
{
	fprintf(stderr, "%d checks, %d failed\n", harness_checks, harness_failures);
	return harness_failures ? 1 : 0;
}
#endif
