/* Unit tests for the protobuf wire decoder (parse/pbuf.c): varint limits, every wire
 * type, lengths past the end, packed and unpacked repeated fields, error offsets. */
#include "harness.h"
#include "parse/pbuf.h"

static int varint(const char *bytes, size_t n, uint64_t *v)
{
	const uint8_t *p = (const uint8_t *)bytes;
	return flame__pbuf_varint(&p, p + n, v);
}

static void test_varint(void)
{
	uint64_t v = 0;
	CHECK(varint("\x01", 1, &v) == 0);
	CHECK_EQ_U64(v, 1);
	CHECK(varint("\xac\x02", 2, &v) == 0);
	CHECK_EQ_U64(v, 300);
	CHECK(varint("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10, &v) == 0);
	CHECK_EQ_U64(v, UINT64_MAX);
	/* the 10th byte may only carry one bit */
	CHECK(varint("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10, &v) == -2);
	/* 11 bytes */
	CHECK(varint("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11, &v) == -2);
	/* runs past the end */
	CHECK(varint("\x80\x80", 2, &v) == -1);
	CHECK(varint("", 0, &v) == -1);
}

static void test_fields(void)
{
	/* f1 varint 150, f2 len "hi", f3 fixed64, f4 fixed32, f100 varint (unknown) */
	static const char msg[] = "\x08\x96\x01"
	                          "\x12\x02hi"
	                          "\x19\x01\x02\x03\x04\x05\x06\x07\x08"
	                          "\x25\x01\x00\x00\x80"
	                          "\xa0\x06\x07";
	flame__pbuf b;
	flame__pfield f;
	flame_err err = {0};
	flame__pbuf_init(&b, msg, sizeof msg - 1, "m");
	CHECK(flame__pbuf_next(&b, &f, &err) == 1);
	CHECK(f.num == 1 && f.wt == 0 && f.v == 150 && f.off == 0);
	CHECK(flame__pbuf_next(&b, &f, &err) == 1);
	CHECK(f.num == 2 && f.wt == 2 && f.len == 2 && memcmp(f.data, "hi", 2) == 0 && f.off == 3);
	CHECK(flame__pbuf_next(&b, &f, &err) == 1);
	CHECK(f.num == 3 && f.wt == 1 && f.v == 0x0807060504030201ULL);
	CHECK(flame__pbuf_next(&b, &f, &err) == 1);
	CHECK(f.num == 4 && f.wt == 5 && f.v == 0x80000001ULL);
	CHECK(flame__pbuf_next(&b, &f, &err) == 1);
	CHECK(f.num == 100 && f.v == 7);
	CHECK(flame__pbuf_next(&b, &f, &err) == 0);
}

static void check_error(const char *msg, size_t n, uint64_t off, const char *text)
{
	flame__pbuf b;
	flame__pfield f;
	flame_err err = {0};
	int r;
	flame__pbuf_init(&b, msg, n, "bad.pb");
	while ((r = flame__pbuf_next(&b, &f, &err)) > 0)
		;
	CHECK(r == FLAME_EDATA);
	CHECK_EQ_U64(err.offset, off);
	CHECK_STR(err.msg, text);
}

static void test_errors(void)
{
	/* the offset is that of the length varint */
	check_error("\x08\x01\x12\x05hi", 6, 3,
	            "truncated protobuf: field 2 has length 5 but only 2 bytes are left in its message");
	check_error("\x08\x01\x0b", 3, 2, "invalid protobuf: field 1 has unsupported wire type 3");
	check_error("\x00\x01", 2, 0, "invalid protobuf: field number 0");
	check_error("\x08\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 12, 1,
	            "invalid protobuf: value varint longer than 10 bytes");
	check_error("\x08\x80", 2, 1,
	            "truncated protobuf: value varint runs past the end of its message");
	check_error("\x19\x01\x02", 3, 1,
	            "truncated protobuf: 8-byte field 3 runs past the end of its message");
	check_error("\x12", 1, 1,
	            "truncated protobuf: length varint runs past the end of its message");
	/* a length too big for the buffer but fine as a varint: no overflow in the check */
	check_error("\x12\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11, 1,
	            "truncated protobuf: field 2 has length 18446744073709551615 but only 0 bytes "
	            "are left in its message");
}

static void test_nested(void)
{
	/* f1 { f2 { f3 = 5 } } with offsets absolute in the outer buffer */
	static const char msg[] = "\x0a\x04\x12\x02\x18\x05";
	flame__pbuf b, s1, s2;
	flame__pfield f;
	flame_err err = {0};
	flame__pbuf_init(&b, msg, 6, "m");
	CHECK(flame__pbuf_next(&b, &f, &err) == 1);
	flame__pbuf_sub(&b, &f, &s1);
	CHECK(flame__pbuf_next(&s1, &f, &err) == 1 && f.off == 2);
	flame__pbuf_sub(&s1, &f, &s2);
	CHECK(flame__pbuf_next(&s2, &f, &err) == 1 && f.off == 4 && f.v == 5);
	CHECK(flame__pbuf_next(&s2, &f, &err) == 0);
	/* an inner length may not exceed its own message even if the buffer goes on */
	static const char bad[] = "\x0a\x02\x12\x03\x18\x05";
	flame__pbuf_init(&b, bad, 6, "m");
	CHECK(flame__pbuf_next(&b, &f, &err) == 1);
	flame__pbuf_sub(&b, &f, &s1);
	CHECK(flame__pbuf_next(&s1, &f, &err) == FLAME_EDATA);
	CHECK_EQ_U64(err.offset, 3);
}

static void test_repeated(void)
{
	/* packed [1, 300, 2], then unpacked 7, then unpacked 8 */
	static const char msg[] = "\x0a\x04\x01\xac\x02\x02\x08\x07\x08\x08";
	flame__pbuf b;
	flame__pfield f;
	flame_err err = {0};
	uint64_t got[8], v;
	size_t n = 0;
	int r;
	flame__pbuf_init(&b, msg, sizeof msg - 1, "m");
	while (flame__pbuf_next(&b, &f, &err) == 1) {
		flame__prep rep;
		CHECK(flame__prep_start(&rep, &b, &f, &err) == 0);
		while ((r = flame__prep_next(&rep, &b, &v, &err)) > 0 && n < 8)
			got[n++] = v;
		CHECK(r == 0);
	}
	CHECK_EQ_U64(n, 5);
	CHECK(got[0] == 1 && got[1] == 300 && got[2] == 2 && got[3] == 7 && got[4] == 8);
	/* a packed run that ends inside a varint */
	static const char cut[] = "\x0a\x02\x01\xac";
	flame__pbuf_init(&b, cut, 4, "m");
	CHECK(flame__pbuf_next(&b, &f, &err) == 1);
	flame__prep rep;
	CHECK(flame__prep_start(&rep, &b, &f, &err) == 0);
	CHECK(flame__prep_next(&rep, &b, &v, &err) == 1 && v == 1);
	CHECK(flame__prep_next(&rep, &b, &v, &err) == FLAME_EDATA);
	CHECK_EQ_U64(err.offset, 3);
	/* fixed32 cannot be a repeated varint */
	flame__pbuf_init(&b, "\x0d\x01\x00\x00\x00", 5, "m");
	CHECK(flame__pbuf_next(&b, &f, &err) == 1);
	CHECK(flame__prep_start(&rep, &b, &f, &err) == FLAME_EDATA);
}

int main(void)
{
	RUN(test_varint);
	RUN(test_fields);
	RUN(test_errors);
	RUN(test_nested);
	RUN(test_repeated);
	return harness_done();
}
