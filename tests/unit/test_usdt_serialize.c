// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_usdt_serialize.c - bytes written by the generated FireEtXplat*
 * functions, compared with layouts computed by hand from the manifest.
 *
 * The generated clretw_provider.c is compiled for this test with
 * -DCLRETW_TEST_HOOK=test_capture, so every fired event is also handed to
 * test_capture() below.  Events are enabled by writing their USDT semaphore
 * (a plain global in .probes) exactly as the kernel does when a tracer
 * attaches.
 */
#include <stdlib.h>
#include <uchar.h>

#include "clretw_provider.h"
#include "test.h"

static struct {
	int calls;
	char provider[64];
	char symbol[128];
	unsigned char payload[70000];
	unsigned int len;
	int has_act, has_rel;
	GUID act, rel;
} cap;

void test_capture(const char *provider, const char *symbol, const void *payload,
		  unsigned int len, const GUID *activity, const GUID *related);

void test_capture(const char *provider, const char *symbol, const void *payload,
		  unsigned int len, const GUID *activity, const GUID *related)
{
	cap.calls++;
	snprintf(cap.provider, sizeof(cap.provider), "%s", provider);
	snprintf(cap.symbol, sizeof(cap.symbol), "%s", symbol);
	cap.len = len;
	if (len && len <= sizeof(cap.payload))
		memcpy(cap.payload, payload, len);
	cap.has_act = activity != NULL;
	cap.has_rel = related != NULL;
	if (activity)
		cap.act = *activity;
	if (related)
		cap.rel = *related;
}

static void reset(void)
{
	memset(&cap, 0, sizeof(cap));
}

#define CHECK_PAYLOAD(exp, name) do {							\
	ASSERT_EQ(cap.calls, 1, name ": fired once");					\
	ASSERT_EQ(cap.len, sizeof(exp), name ": length");				\
	ASSERT_MEMEQ(cap.payload, exp, sizeof(exp) < cap.len ? sizeof(exp) : cap.len, name); \
} while (0)

static void test_disabled_does_nothing(void)
{
	reset();
	DotNETRuntime_GCStart_V2_semaphore = 0;
	ASSERT_FALSE(EventXplatEnabledGCStart_V2(), "disabled");
	ASSERT_EQ(FireEtXplatGCStart_V2(1, 2, 3, 4, 5, 6), ERROR_SUCCESS, "returns 0");
	ASSERT_EQ(cap.calls, 0, "nothing serialized");
}

static void test_gcstart_v2(void)
{
	/* Count u32, Depth u32, Reason u32, Type u32, ClrInstanceID u16,
	 * ClientSequenceNumber u64 = 26 bytes */
	static const unsigned char exp[] = {
		0x2a, 0x00, 0x00, 0x00,		/* Count 42 */
		0x02, 0x00, 0x00, 0x00,		/* Depth 2 */
		0x01, 0x00, 0x00, 0x00,		/* Reason 1 (Induced) */
		0x00, 0x00, 0x00, 0x00,		/* Type 0 */
		0x07, 0x00,			/* ClrInstanceID 7 */
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, /* 0x0102030405060708 */
	};

	reset();
	DotNETRuntime_GCStart_V2_semaphore = 1;
	ASSERT_TRUE(EventXplatEnabledGCStart_V2(), "enabled");
	ASSERT_EQ(FireEtXplatGCStart_V2(42, 2, 1, 0, 7, 0x0102030405060708ULL), ERROR_SUCCESS,
		  "fire");
	DotNETRuntime_GCStart_V2_semaphore = 0;
	CHECK_PAYLOAD(exp, "GCStart_V2");
	ASSERT_STREQ(cap.provider, "DotNETRuntime", "provider");
	ASSERT_STREQ(cap.symbol, "GCStart_V2", "probe name");
	ASSERT_FALSE(cap.has_act, "no activity id");
}

static void test_gcheapstats_v2(void)
{
	/* 10 x u64, 3 x u32, u16, 2 x u64 = 80 + 12 + 2 + 16 = 110 bytes */
	unsigned char exp[110];
	int i;

	for (i = 0; i < 10; i++) {	/* GenerationSize0 .. FinalizationPromotedCount */
		memset(&exp[8 * i], 0, 8);
		exp[8 * i] = (unsigned char)(0x10 + i);
		exp[8 * i + 7] = 0x80;
	}
	memcpy(&exp[80], "\x01\x00\x00\x00", 4);	/* PinnedObjectCount 1 */
	memcpy(&exp[84], "\x02\x00\x00\x00", 4);	/* SinkBlockCount 2 */
	memcpy(&exp[88], "\x03\x01\x00\x00", 4);	/* GCHandleCount 0x103 */
	memcpy(&exp[92], "\x09\x00", 2);		/* ClrInstanceID 9 */
	memcpy(&exp[94], "\xaa\x00\x00\x00\x00\x00\x00\x00", 8);	/* GenerationSize4 */
	memcpy(&exp[102], "\xbb\x00\x00\x00\x00\x00\x00\xff", 8);	/* TotalPromotedSize4 */

	reset();
	DotNETRuntime_GCHeapStats_V2_semaphore = 1;
	FireEtXplatGCHeapStats_V2(0x8000000000000010ULL, 0x8000000000000011ULL,
				  0x8000000000000012ULL, 0x8000000000000013ULL,
				  0x8000000000000014ULL, 0x8000000000000015ULL,
				  0x8000000000000016ULL, 0x8000000000000017ULL,
				  0x8000000000000018ULL, 0x8000000000000019ULL,
				  1, 2, 0x103, 9, 0xaa, 0xff000000000000bbULL);
	DotNETRuntime_GCHeapStats_V2_semaphore = 0;
	CHECK_PAYLOAD(exp, "GCHeapStats_V2");
}

static void test_gcallocationtick_v3(void)
{
	/* The newest GCAllocationTick in ClrEtwAll.man is V3 (id 10 version 3):
	 * AllocationAmount u32, AllocationKind u32, ClrInstanceID u16,
	 * AllocationAmount64 u64, TypeID ptr, TypeName UTF-16 "Obj\0",
	 * HeapIndex u32, Address ptr */
	static const unsigned char exp[] = {
		0x00, 0x00, 0x01, 0x00,				/* 0x10000 */
		0x01, 0x00, 0x00, 0x00,				/* Large */
		0x00, 0x00,					/* ClrInstanceID 0 */
		0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 0x10000 */
		0xf0, 0xde, 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12,	/* TypeID */
		'O', 0, 'b', 0, 'j', 0, 0, 0,			/* TypeName */
		0x03, 0x00, 0x00, 0x00,				/* HeapIndex 3 */
		0x00, 0x10, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00,	/* Address */
	};

	reset();
	DotNETRuntime_GCAllocationTick_V3_semaphore = 1;
	FireEtXplatGCAllocationTick_V3(0x10000, 1, 0, 0x10000, (const void *)0x123456789abcdef0ULL,
				       u"Obj", 3, (const void *)0x7f0000001000ULL);
	DotNETRuntime_GCAllocationTick_V3_semaphore = 0;
	CHECK_PAYLOAD(exp, "GCAllocationTick_V3");
}

static void test_methodloadverbose_v2(void)
{
	static const unsigned char exp[] = {
		0x11, 0, 0, 0, 0, 0, 0, 0,			/* MethodID */
		0x22, 0, 0, 0, 0, 0, 0, 0,			/* ModuleID */
		0x00, 0x10, 0, 0, 0x7f, 0, 0, 0,		/* MethodStartAddress */
		0x40, 0, 0, 0,					/* MethodSize 64 */
		0x01, 0, 0, 0x06,				/* MethodToken 0x06000001 */
		0x08, 0, 0, 0,					/* MethodFlags Jitted */
		'N', 0, '.', 0, 'S', 0, 0, 0,			/* MethodNamespace "N.S" */
		'M', 0, 0, 0,					/* MethodName "M" */
		0, 0,						/* MethodSignature NULL -> "" */
		0x05, 0,					/* ClrInstanceID 5 */
		0x02, 0, 0, 0, 0, 0, 0, 0,			/* ReJITID 2 */
	};

	reset();
	DotNETRuntime_MethodLoadVerbose_V2_semaphore = 1;
	FireEtXplatMethodLoadVerbose_V2(0x11, 0x22, 0x7f00001000ULL, 64, 0x06000001, 8, u"N.S",
					u"M", NULL, 5, 2);
	DotNETRuntime_MethodLoadVerbose_V2_semaphore = 0;
	CHECK_PAYLOAD(exp, "MethodLoadVerbose_V2");
}

static void test_methodiltonativemap(void)
{
	static const unsigned int il[] = { 0, 5, 0xfffffffe };
	static const unsigned int native[] = { 0, 0x10, 0x20 };
	static const unsigned char exp[] = {
		0x01, 0, 0, 0, 0, 0, 0, 0,			/* MethodID */
		0x00, 0, 0, 0, 0, 0, 0, 0,			/* ReJITID */
		0x00,						/* MethodExtent */
		0x03, 0x00,					/* CountOfMapEntries */
		0, 0, 0, 0, 5, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff,	/* ILOffsets[3] */
		0, 0, 0, 0, 0x10, 0, 0, 0, 0x20, 0, 0, 0,	/* NativeOffsets[3] */
		0x01, 0x00,					/* ClrInstanceID */
	};

	reset();
	DotNETRuntime_MethodILToNativeMap_semaphore = 1;
	FireEtXplatMethodILToNativeMap(1, 0, 0, 3, il, native, 1);
	DotNETRuntime_MethodILToNativeMap_semaphore = 0;
	CHECK_PAYLOAD(exp, "MethodILToNativeMap");
}

static void test_exceptionthrown_v1(void)
{
	static const unsigned char exp[] = {
		'E', 0, 'x', 0, 0, 0,				/* ExceptionType "Ex" */
		0xe9, 0x00, 0x3d, 0xd8, 0x00, 0xde, 0, 0,	/* "\u00e9\U0001F600" */
		0xef, 0xbe, 0xad, 0xde, 0, 0, 0, 0,		/* ExceptionEIP */
		0x15, 0x15, 0x13, 0x80,				/* HRESULT 0x80131515 */
		0x10, 0x00,					/* ExceptionFlags 0x10 */
		0x02, 0x00,					/* ClrInstanceID 2 */
	};
	static const GUID act = { 0x11223344, 0x5566, 0x7788,
				  { 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00 } };

	reset();
	EventXplatSetActivityId(&act, NULL);
	DotNETRuntime_ExceptionThrown_V1_semaphore = 1;
	FireEtXplatExceptionThrown_V1(u"Ex", u"\u00e9\U0001F600", (const void *)0xdeadbeefULL,
				      0x80131515, 0x10, 2);
	DotNETRuntime_ExceptionThrown_V1_semaphore = 0;
	EventXplatSetActivityId(NULL, NULL);
	CHECK_PAYLOAD(exp, "ExceptionThrown_V1");
	ASSERT_TRUE(cap.has_act, "activity id passed");
	ASSERT_FALSE(cap.has_rel, "no related id");
	ASSERT_MEMEQ(&cap.act, &act, 16, "activity id bytes");
}

static void test_activity_ids(void)
{
	static const GUID a = { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };
	static const GUID r = { 0xffffffff, 0xeeee, 0xdddd, { 0xcc, 0xbb, 0xaa, 0x99, 0, 0, 0, 1 } };

	DotNETRuntime_GCStart_V2_semaphore = 1;
	reset();
	EventXplatSetActivityId(&a, &r);
	FireEtXplatGCStart_V2(1, 0, 0, 0, 0, 0);
	ASSERT_TRUE(cap.has_act && cap.has_rel, "both ids passed");
	ASSERT_MEMEQ(&cap.act, "\x01\x00\x00\x00\x02\x00\x03\x00\x04\x05\x06\x07\x08\x09\x0a\x0b", 16,
		     "activity id in .NET byte order");
	ASSERT_MEMEQ(&cap.rel, "\xff\xff\xff\xff\xee\xee\xdd\xdd\xcc\xbb\xaa\x99\x00\x00\x00\x01", 16,
		     "related activity id");
	reset();
	EventXplatSetActivityId(NULL, &r);
	FireEtXplatGCStart_V2(1, 0, 0, 0, 0, 0);
	ASSERT_TRUE(!cap.has_act && cap.has_rel, "activity cleared, related kept");
	reset();
	EventXplatSetActivityId(NULL, NULL);
	FireEtXplatGCStart_V2(1, 0, 0, 0, 0, 0);
	ASSERT_TRUE(!cap.has_act && !cap.has_rel, "both cleared");
	DotNETRuntime_GCStart_V2_semaphore = 0;
}

static void test_bulktype(void)
{
	static const unsigned long long params[] = { 0x1111, 0x2222 };
	static const BulkType_Values elems[] = {
		{ .TypeID = 0xa0, .ModuleID = 0xb0, .TypeNameID = 1, .Flags = 0x2,
		  .CorElementType = 0x12, .Name = u"Foo", .TypeParameterCount = 0,
		  .TypeParameters = NULL },
		{ .TypeID = 0xa1, .ModuleID = 0xb1, .TypeNameID = 2, .Flags = 0,
		  .CorElementType = 0x15, .Name = u"L`1", .TypeParameterCount = 2,
		  .TypeParameters = params },
	};
	static const unsigned char exp[] = {
		0x02, 0, 0, 0,					/* Count 2 */
		0x03, 0,					/* ClrInstanceID 3 */
		/* Values[0] */
		0xa0, 0, 0, 0, 0, 0, 0, 0,			/* TypeID */
		0xb0, 0, 0, 0, 0, 0, 0, 0,			/* ModuleID */
		0x01, 0, 0, 0,					/* TypeNameID */
		0x02, 0, 0, 0,					/* Flags */
		0x12,						/* CorElementType */
		'F', 0, 'o', 0, 'o', 0, 0, 0,			/* Name */
		0x00, 0, 0, 0,					/* TypeParameterCount 0 */
		/* Values[1] */
		0xa1, 0, 0, 0, 0, 0, 0, 0,
		0xb1, 0, 0, 0, 0, 0, 0, 0,
		0x02, 0, 0, 0,
		0x00, 0, 0, 0,
		0x15,
		'L', 0, '`', 0, '1', 0, 0, 0,
		0x02, 0, 0, 0,					/* TypeParameterCount 2 */
		0x11, 0x11, 0, 0, 0, 0, 0, 0,			/* TypeParameters[0] */
		0x22, 0x22, 0, 0, 0, 0, 0, 0,			/* TypeParameters[1] */
	};
	unsigned char packed[256];
	size_t need;

	need = clretw_pack_BulkType_Values(NULL, 0, elems, 2);
	ASSERT_EQ(need, sizeof(exp) - 6, "packed size");
	ASSERT_EQ(clretw_pack_BulkType_Values(packed, 10, elems, 2), need, "too small: size only");
	ASSERT_EQ(clretw_pack_BulkType_Values(packed, sizeof(packed), elems, 2), need, "pack");

	reset();
	DotNETRuntime_BulkType_semaphore = 1;
	ASSERT_EQ(FireEtXplatBulkType(2, 3, (int)need, packed), ERROR_SUCCESS, "fire");
	ASSERT_EQ(FireEtXplatBulkType(2, 3, -1, packed), ERROR_INVALID_PARAMETER,
		  "negative ElementSize rejected");
	DotNETRuntime_BulkType_semaphore = 0;
	CHECK_PAYLOAD(exp, "BulkType");
}

static void test_gcdynamicevent(void)
{
	static const unsigned char data[] = { 0xde, 0xad, 0x00, 0xbe, 0xef };
	static const unsigned char exp[] = {
		'S', 0, 'i', 0, 'z', 0, 'e', 0, 0, 0,		/* Name "Size" */
		0x05, 0, 0, 0,					/* DataSize 5 */
		0xde, 0xad, 0x00, 0xbe, 0xef,			/* Data */
		0x04, 0x00,					/* ClrInstanceID 4 */
	};

	reset();
	DotNETRuntime_GCDynamicEvent_semaphore = 1;
	FireEtXplatGCDynamicEvent(u"Size", 5, data, 4);
	DotNETRuntime_GCDynamicEvent_semaphore = 0;
	CHECK_PAYLOAD(exp, "GCDynamicEvent");
}

static void test_no_template_event(void)
{
	reset();
	DotNETRuntimeRundown_DCStartInit_V1_semaphore = 1;
	FireEtXplatDCStartInit_V1(6);
	DotNETRuntimeRundown_DCStartInit_V1_semaphore = 0;
	ASSERT_EQ(cap.len, 2, "DCStartInit_V1: ClrInstanceID only");
	ASSERT_STREQ(cap.provider, "DotNETRuntimeRundown", "rundown provider");

	/* ExceptionThrownStop has no template: fires with no payload */
	reset();
	DotNETRuntime_ExceptionThrownStop_semaphore = 1;
	ASSERT_EQ(FireEtXplatExceptionThrownStop(), ERROR_SUCCESS, "fire");
	DotNETRuntime_ExceptionThrownStop_semaphore = 0;
	ASSERT_EQ(cap.calls, 1, "fired");
	ASSERT_EQ(cap.len, 0, "empty payload");
}

static void test_oversize_dropped(void)
{
	size_t n = 40000;	/* 40000 UTF-16 units = 80002 bytes > 65535 */
	char16_t *big = calloc(n + 1, sizeof(*big));
	unsigned long long before = clretw_dropped_oversize;
	size_t i;

	if (!ASSERT_OK_PTR(big, "calloc"))
		return;
	for (i = 0; i < n; i++)
		big[i] = u'x';
	reset();
	DotNETRuntime_GCDynamicEvent_semaphore = 1;
	ASSERT_EQ(FireEtXplatGCDynamicEvent(big, 0, NULL, 0), ERROR_WRITE_FAULT, "dropped");
	ASSERT_EQ(cap.calls, 0, "not fired");
	ASSERT_EQ(clretw_dropped_oversize, before + 1, "counted");
	/* 65535 bytes is the most: "x" * 32754 + NUL (65510) + 4 + 19 + 2 */
	big[32754] = 0;
	ASSERT_EQ(FireEtXplatGCDynamicEvent(big, 19, (const BYTE *)big, 0), ERROR_SUCCESS,
		  "65535 bytes fit");
	ASSERT_EQ(cap.len, 65535, "full 65535-byte payload");
	ASSERT_EQ(clretw_dropped_oversize, before + 1, "not counted");
	/* one byte more (64 KiB) is dropped */
	ASSERT_EQ(FireEtXplatGCDynamicEvent(big, 20, (const BYTE *)big, 0), ERROR_WRITE_FAULT,
		  "64 KiB dropped");
	ASSERT_EQ(clretw_dropped_oversize, before + 2, "counted");
	/* a hostile count cannot overflow the size computation */
	ASSERT_EQ(FireEtXplatGCDynamicEvent(NULL, 0xffffffffu, (const BYTE *)big, 0),
		  ERROR_WRITE_FAULT, "huge length dropped");
	DotNETRuntime_GCDynamicEvent_semaphore = 0;
	free(big);
}

int main(void)
{
	RUN(test_disabled_does_nothing);
	RUN(test_gcstart_v2);
	RUN(test_gcheapstats_v2);
	RUN(test_gcallocationtick_v3);
	RUN(test_methodloadverbose_v2);
	RUN(test_methodiltonativemap);
	RUN(test_exceptionthrown_v1);
	RUN(test_activity_ids);
	RUN(test_bulktype);
	RUN(test_gcdynamicevent);
	RUN(test_no_template_event);
	RUN(test_oversize_dropped);
	return test_summary();
}
