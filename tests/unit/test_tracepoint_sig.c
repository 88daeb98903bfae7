// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_tracepoint_sig.c - a stock CoreCLR tracepoint's signature read
 * (usdt/tracepoint_sig.c) as .NET 10 registers it, matched against the
 * generated event table, and the manifest payload rebuilt from one call's
 * arguments as bpf/tpshim.bpf.c records them: integers at the manifest's
 * widths, UTF-8 strings back to UTF-16LE, a serialized buffer as it is.
 */
#include <errno.h>
#include <string.h>

#include "event_table.h"
#include "test.h"
#include "tracepoint_sig.h"

extern const struct ect_table clretw_event_table;
static const struct ect_table *T = &clretw_event_table;

static void test_parse(void)
{
	struct tpsig s;

	ASSERT_OK(tpsig_parse("const unsigned int, Count, const unsigned int, Depth, const unsigned "
			      "int, Reason, const unsigned int, Type, const unsigned short, "
			      "ClrInstanceID, const uint64_t, ClientSequenceNumber", &s), "GCStart_V2");
	ASSERT_EQ(s.n, 6, "arguments");
	ASSERT_EQ(s.kind[4], TPSIG_U16, "unsigned short");
	ASSERT_EQ(s.kind[5], TPSIG_U64, "uint64_t");
	ASSERT_EQ(s.serialized, 0, "field by field");
	ASSERT_OK(tpsig_parse("const unsigned int, length, const char *, __data__", &s), "data");
	ASSERT_EQ(s.serialized, 1, "serialized");
	ASSERT_OK(tpsig_parse("const unsigned long, Id", &s), ".NET 8's 64-bit spelling");
	ASSERT_EQ(s.kind[0], TPSIG_U64, "unsigned long");
	ASSERT_OK(tpsig_parse("", &s), "no arguments");
	ASSERT_EQ(s.n, 0, "none");
	ASSERT_OK(tpsig_parse("const double, Throughput, const unsigned int, New, const double, "
			      "Average, const unsigned short, ClrInstanceID", &s), "doubles");
	ASSERT_EQ(s.n_int, 2, "integer arguments");
	ASSERT_EQ(s.n_fp, 2, "doubles, in SSE registers");
	ASSERT_EQ(s.slot[1], 0, "the first integer argument");
	ASSERT_EQ(s.slot[2], 1, "the second double");
	ASSERT_EQ(s.slot[3], 1, "the second integer argument");
	ASSERT_EQ(tpsig_parse("const double, a, const double, b, const double, c, const double, d, "
			      "const double, e", &s), -E2BIG, "more doubles than the probe spills");
	ASSERT_EQ(tpsig_parse("const size_t*, Ids", &s), -EINVAL, "a pointer of unknown length");
	ASSERT_EQ(tpsig_parse("const unsigned int", &s), -EINVAL, "a type without a name");
	ASSERT_EQ(tpsig_parse("const BOOL, a, const BOOL, b, const BOOL, c, const BOOL, d, const "
			      "BOOL, e, const BOOL, f, const BOOL, g, const BOOL, h, const BOOL, i, "
			      "const BOOL, j", &s), -E2BIG, "ten arguments");
}

static void test_gcstart(void)
{
	const struct ect_event *ev = ect_find_symbol(T, "DotNETRuntime", "GCStart_V2");
	uint64_t args[TPSIG_MAX_ARGS] = { 42, 2, 1, 0, 7, 0x0102030405060708ull };
	uint16_t copied[TPSIG_MAX_ARGS + 1] = {};
	static const uint8_t want[] = {
		42, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7, 0,
		8, 7, 6, 5, 4, 3, 2, 1,
	};
	uint8_t out[64];
	struct tpsig s;

	if (!ASSERT_OK_PTR(ev, "GCStart_V2 in the table"))
		return;
	ASSERT_OK(tpsig_parse("const unsigned int, Count, const unsigned int, Depth, const unsigned "
			      "int, Reason, const unsigned int, Type, const unsigned short, "
			      "ClrInstanceID, const uint64_t, ClientSequenceNumber", &s), "parse");
	ASSERT_OK(tpsig_match(&s, ev, false), "matches the template");
	ASSERT_EQ(tpsig_payload(&s, ev, args, NULL, NULL, 0, copied, out, sizeof(out)), 26, "26 bytes");
	ASSERT_MEMEQ(out, want, sizeof(want), "the manifest's layout");
	ASSERT_EQ(tpsig_payload(&s, ev, args, NULL, NULL, 0, copied, out, 25), -E2BIG, "no room");
	ASSERT_EQ(tpsig_match(&s, ev, true), 0, "a prefix too");
	s.kind[4] = TPSIG_U32;
	ASSERT_EQ(tpsig_match(&s, ev, false), -EINVAL, "a width that does not match");
	s.n = 5;
	ASSERT_EQ(tpsig_match(&s, ev, false), -EINVAL, "a count that does not match");
}

static void test_exception(void)
{
	const struct ect_event *ev = ect_find_symbol(T, "DotNETRuntime", "ExceptionThrown_V1");
	/* the two strings as the program copies them, NULs included */
	static const char data[] = "Ex\xc3\xa9\0boom";
	uint64_t args[TPSIG_MAX_ARGS] = { 0x1000, 0x2000, 0, 0x80131500, 16, 3 };
	uint16_t copied[TPSIG_MAX_ARGS + 1] = { 5, 5 };
	static const uint8_t want[] = {
		'E', 0, 'x', 0, 0xe9, 0, 0, 0, 'b', 0, 'o', 0, 'o', 0, 'm', 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x15, 0x13, 0x80, 16, 0, 3, 0,
	};
	uint8_t out[64];
	struct tpsig s;

	if (!ASSERT_OK_PTR(ev, "ExceptionThrown_V1 in the table"))
		return;
	ASSERT_OK(tpsig_parse("const char*, ExceptionType, const char*, ExceptionMessage, const "
			      "size_t, ExceptionEIP, const unsigned int, ExceptionHRESULT, const "
			      "unsigned short, ExceptionFlags, const unsigned short, ClrInstanceID",
			      &s), "parse");
	ASSERT_OK(tpsig_match(&s, ev, false), "matches");
	ASSERT_EQ(tpsig_payload(&s, ev, args, NULL, (const uint8_t *)data, 10, copied, out, sizeof(out)),
		  (long)sizeof(want), "length");
	ASSERT_MEMEQ(out, want, sizeof(want), "UTF-16 strings, then the integers");
	copied[1] = 0;	/* the program could not read the message */
	ASSERT_EQ(tpsig_payload(&s, ev, args, NULL, (const uint8_t *)data, 10, copied, out, sizeof(out)),
		  -EINVAL, "a string not copied");
}

/* ContentionStop_V1: a double between integers, from the spilled SSE
 * registers; the integers keep their own slots */
static void test_double(void)
{
	const struct ect_event *ev = ect_find_symbol(T, "DotNETRuntime", "ContentionStop_V1");
	uint64_t args[TPSIG_MAX_ARGS] = { 1, 7 }, fp[TPSIG_MAX_FP];
	uint16_t copied[TPSIG_MAX_ARGS + 1] = {};
	double d = 1234.5;
	uint8_t out[32], want[11] = { 1, 7, 0 };
	struct tpsig s;

	if (!ASSERT_OK_PTR(ev, "ContentionStop_V1 in the table"))
		return;
	memcpy(&fp[0], &d, 8);
	memcpy(want + 3, &d, 8);
	ASSERT_OK(tpsig_parse("const unsigned char, ContentionFlags, const unsigned short, "
			      "ClrInstanceID, const double, DurationNs", &s), "parse");
	ASSERT_OK(tpsig_match(&s, ev, false), "matches win:Double");
	ASSERT_EQ(tpsig_payload(&s, ev, args, fp, NULL, 0, copied, out, sizeof(out)), 11, "11 bytes");
	ASSERT_MEMEQ(out, want, sizeof(want), "the double's bits after the integers");
}

/* .NET 8's ContentionStart_V2 beside a table whose newest is V1: the
 * fields V2 appends are cut, the rest is V1's payload */
static void test_newer_version(void)
{
	const struct ect_event *ev = ect_find_symbol(T, "DotNETRuntime", "ContentionStart_V1");
	uint64_t args[TPSIG_MAX_ARGS] = { 1, 7, 0x1000, 0x2000, 42 };
	uint16_t copied[TPSIG_MAX_ARGS + 1] = {};
	static const uint8_t want[] = { 1, 7, 0 };
	uint8_t out[32];
	struct tpsig s;

	if (!ASSERT_OK_PTR(ev, "ContentionStart_V1 in the table"))
		return;
	ASSERT_OK(tpsig_parse("const unsigned char, ContentionFlags, const unsigned short, "
			      "ClrInstanceID, const size_t, LockID, const size_t, AssociatedObjectID, "
			      "const uint64_t, LockOwnerThreadID", &s), "parse");
	ASSERT_EQ(tpsig_match(&s, ev, false), -EINVAL, "not V1's whole");
	ASSERT_OK(tpsig_match(&s, ev, true), "V1's fields first");
	ASSERT_EQ(tpsig_payload(&s, ev, args, NULL, NULL, 0, copied, out, sizeof(out)), 3,
		  "V1's 3 bytes");
	ASSERT_MEMEQ(out, want, sizeof(want), "Flags, ClrInstanceID");
	/* a newer version's serialized payload: cut to the table version's
	 * layout, here V1's 3 bytes of 7 */
	ASSERT_OK(tpsig_parse("const unsigned int, length, const char *, __data__", &s), "data");
	ASSERT_OK(tpsig_match(&s, ev, true), "a newer buffer");
	{
		static const uint8_t data[] = { 1, 7, 0, 0xaa, 0xbb, 0xcc, 0xdd };
		uint64_t a[TPSIG_MAX_ARGS] = { 7, 0x1000 };
		uint16_t c[TPSIG_MAX_ARGS + 1] = { 0, 7 };

		ASSERT_EQ(tpsig_payload(&s, ev, a, NULL, data, 7, c, out, sizeof(out)), 3,
			  "cut to V1's layout");
		ASSERT_MEMEQ(out, want, sizeof(want), "V1's bytes");
	}
}

static void test_serialized(void)
{
	const struct ect_event *ev = ect_find_symbol(T, "DotNETRuntime", "MethodLoadVerbose_V2");
	static const uint8_t data[] = { 1, 2, 3, 4, 5 };
	uint64_t args[TPSIG_MAX_ARGS] = { 5, 0x1000 };
	uint16_t copied[TPSIG_MAX_ARGS + 1] = { 0, 5 };
	uint8_t out[16];
	struct tpsig s;

	if (!ASSERT_OK_PTR(ev, "MethodLoadVerbose_V2 in the table"))
		return;
	ASSERT_OK(tpsig_parse("const unsigned int, length, const char *, __data__", &s), "parse");
	ASSERT_OK(tpsig_match(&s, ev, false), "a buffer matches any template");
	ASSERT_EQ(tpsig_payload(&s, ev, args, NULL, data, 5, copied, out, sizeof(out)), 5, "as it is");
	ASSERT_MEMEQ(out, data, 5, "bytes");
	args[0] = 9000;	/* the program cut it */
	ASSERT_EQ(tpsig_payload(&s, ev, args, NULL, data, 5, copied, out, sizeof(out)), -EINVAL, "cut");
}

int main(void)
{
	RUN(test_parse);
	RUN(test_gcstart);
	RUN(test_exception);
	RUN(test_double);
	RUN(test_newer_version);
	RUN(test_serialized);
	return test_summary();
}
