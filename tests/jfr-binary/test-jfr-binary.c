/* Unit tests of the binary JFR reader's cursor and map (parse/jfr-bin.h): LEB128 integers
 * of every length, the 9th byte taken whole, fixed-width big-endian integers of a chunk
 * without compressed integers, reads past the end flagged rather than made up; and the
 * (class, key) map, replacing values and growing. Whole recordings are in golden.cases. */
#include <string.h>
#include "harness.h"
#include "parse/jfr-bin.h"

static flame__jfr_cur cur(const uint8_t *p, size_t n, int compressed)
{
	flame__jfr_cur c = {p, p + n, 0, compressed};
	return c;
}

static void test_leb128(void)
{
	static const uint8_t one[] = {0x7f}, two[] = {0xff, 0x01}, padded[] = {0x85, 0x80, 0x80, 0x00};
	flame__jfr_cur c = cur(one, 1, 1);
	CHECK_EQ_U64(flame__jfr_u64(&c), 127);
	CHECK(!c.bad && c.p == one + 1);
	c = cur(two, 2, 1);
	CHECK_EQ_U64(flame__jfr_int(&c), 255);
	c = cur(padded, 4, 1); /* the JDK's padded event sizes */
	CHECK_EQ_U64(flame__jfr_int(&c), 5);
	CHECK(c.p == padded + 4);
	/* nine bytes: eight of 7 bits, the last of 8 (all ones: -1) */
	uint8_t nine[9];
	memset(nine, 0xff, sizeof nine);
	c = cur(nine, 9, 1);
	CHECK_EQ_U64(flame__jfr_u64(&c), UINT64_MAX);
	CHECK(!c.bad && c.p == nine + 9);
	/* the same when fewer than 9 bytes are left after it: the careful path */
	uint8_t tail[12] = {0};
	memcpy(tail + 3, nine, 9);
	c = cur(tail + 3, 9, 1);
	CHECK_EQ_U64(flame__jfr_u64(&c), UINT64_MAX);
	/* cut inside: flagged, never past the end */
	c = cur(nine, 4, 1);
	flame__jfr_u64(&c);
	CHECK(c.bad && c.p == nine + 4);
	c = cur(nine, 0, 1);
	CHECK_EQ_U64(flame__jfr_u64(&c), 0);
	CHECK(c.bad);
}

static void test_fixed_width(void)
{
	static const uint8_t b[] = {0x00, 0x00, 0x01, 0x02, 0xff, 0xff, 0xff, 0xff,
	                            0xff, 0xff, 0xff, 0xfe, 0x12, 0x34};
	flame__jfr_cur c = cur(b, sizeof b, 0);
	CHECK_EQ_U64(flame__jfr_int(&c), 0x102);
	CHECK_EQ_U64(flame__jfr_u64(&c), 0xfffffffffffffffeULL);
	CHECK_EQ_U64(flame__jfr_long(&c, 2), 0x1234);
	CHECK(!c.bad && c.p == b + sizeof b);
	CHECK_EQ_U64(flame__jfr_int(&c), 0);
	CHECK(c.bad);
	c = cur(b, 3, 0);
	flame__jfr_skip(&c, 4);
	CHECK(c.bad && c.p == b + 3);
}

static void test_map(void)
{
	flame__jfr_map m = {0};
	CHECK(flame__jfr_map_get(&m, 1, 7) == -1);
	for (uint32_t i = 0; i < 5000; i++)
		CHECK(flame__jfr_map_put(&m, i % 3, (uint64_t)i << 40 | i, i) == 0);
	CHECK(flame__jfr_map_get(&m, 4999 % 3, (uint64_t)4999 << 40 | 4999) == 4999);
	CHECK(flame__jfr_map_get(&m, 4999 % 3 + 1, (uint64_t)4999 << 40 | 4999) == -1);
	CHECK(flame__jfr_map_put(&m, 0, 0, 77) == 0); /* (0, 0) was put first: replaced */
	CHECK(flame__jfr_map_get(&m, 0, 0) == 77);
	CHECK_EQ_U64(m.n, 5000);
	flame__jfr_map_clear(&m);
	CHECK(flame__jfr_map_get(&m, 0, 0) == -1);
	flame__jfr_map_free(&m);
}

int main(void)
{
	RUN(test_leb128);
	RUN(test_fixed_width);
	RUN(test_map);
	return harness_done();
}
