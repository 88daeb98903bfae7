// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_usdt_decode.c - the generated event table (clretw_event_table) and
 * the decoder in usdt/event_decode.c: lookups, identities, payload size,
 * JSON, single-field reads, truncated and over-long payloads.
 */
#include <stdlib.h>

#include "event_table.h"
#include "test.h"

extern const struct ect_table clretw_event_table;
static const struct ect_table *T = &clretw_event_table;

static char *buf;	/* the last decoded JSON */

/* decode into buf; returns the decoder's result */
static int to_json(const struct ect_event *ev, const void *p, size_t len)
{
	size_t n = 0;
	FILE *f;
	int err;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	if (!f)
		return -ENOMEM;
	err = ect_payload_to_json(ev, p, len, f);
	fclose(f);
	return err;
}

static void test_lookups(void)
{
	const struct ect_event *e, *e2;
	const struct ect_provider *p;
	static const unsigned char guid_bytes[16] = {
		0x23, 0x0d, 0x3c, 0xe1, 0xbc, 0xcc, 0x12, 0x4e,
		0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4,
	};

	ASSERT_STREQ(T->manifest, "clr-events.man", "table names its manifest");
	ASSERT_EQ(T->n_providers, 2, "runtime + rundown providers");
	e = ect_find_symbol(T, "DotNETRuntime", "GCStart_V2");
	if (!ASSERT_OK_PTR(e, "GCStart_V2 by usdt name"))
		return;
	ASSERT_EQ(e->id, 1, "id");
	ASSERT_EQ(e->version, 2, "version");
	ASSERT_EQ(e->level, 4, "level Informational");
	ASSERT_EQ(e->opcode, 1, "opcode win:Start");
	ASSERT_EQ(e->task, 1, "task GarbageCollection");
	ASSERT_EQ(e->keywords, 0x1, "GCKeyword");
	ASSERT_STREQ(e->task_name, "GarbageCollection", "task name");
	ASSERT_STREQ(e->opcode_name, "Start", "opcode name");
	ASSERT_STREQ(e->template_name, "GCStart_V2", "template");
	ASSERT_EQ(e->n_fields, 6, "fields");
	ASSERT_STREQ(e->provider->name, "Microsoft-Windows-DotNETRuntime", "provider");
	ASSERT_STREQ(e->provider->guid, "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", "guid");
	ASSERT_MEMEQ(e->provider->guid_bytes, guid_bytes, 16, "guid bytes (.NET layout)");

	e2 = ect_find_id(T, "microsoft-windows-dotnetruntime", 1, 2);
	ASSERT_TRUE(e2 == e, "by id and version, case-insensitive provider");
	ASSERT_TRUE(ect_find_symbol(T, "Microsoft-Windows-DotNETRuntime", "GCStart_V2") == e,
		    "by full provider name");
	ASSERT_TRUE(ect_find_symbol(T, "DotNETRuntimeRundown", "GCStart_V2") == NULL,
		    "wrong provider");
	ASSERT_TRUE(ect_find_id(T, "Microsoft-Windows-DotNETRuntime", 1, 9) == NULL, "no v9");

	p = ect_find_provider(T, "{A669021C-C450-4609-A035-5AF59AF4DF18}");
	if (ASSERT_OK_PTR(p, "rundown by GUID")) {
		ASSERT_STREQ(p->usdt_name, "DotNETRuntimeRundown", "usdt name");
		ASSERT_GE(p->n_keywords, 1, "keywords");
	}
	e = ect_find_symbol(T, "DotNETRuntimeRundown", "MethodDCEndVerbose_V1");
	if (ASSERT_OK_PTR(e, "MethodDCEndVerbose_V1")) {
		ASSERT_EQ(e->id, 144, "id");
		ASSERT_EQ(e->keywords, 0x30, "JitRundown|NGenRundown");
		ASSERT_EQ(e->opcode, 40, "opcode MethodDCEndVerbose");
	}
	e = ect_find_symbol(T, NULL, "ExceptionThrownStop");
	if (ASSERT_OK_PTR(e, "no-template event")) {
		ASSERT_EQ(e->n_fields, 0, "no fields");
		ASSERT_TRUE(e->template_name == NULL, "no template");
	}
	ASSERT_STREQ(ect_intype_name(ECT_UNICODE), "win:UnicodeString", "intype name");
}

static const unsigned char gcstart[] = {
	0x2a, 0, 0, 0, 0x02, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x07, 0,
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0xee, 0xee,	/* 2 extra bytes */
};

static void test_json_scalars(void)
{
	const struct ect_event *e = ect_find_symbol(T, NULL, "GCStart_V2");
	uint64_t v;

	ASSERT_EQ(to_json(e, gcstart, 26), 0, "decodes");
	ASSERT_STREQ(buf, "{\"Count\":42,\"Depth\":2,\"Reason\":1,\"Type\":0,\"ClrInstanceID\":7,"
		     "\"ClientSequenceNumber\":72623859790382856}", "json");
	ASSERT_EQ(ect_payload_size(e, gcstart, 26), 26, "size");
	ASSERT_EQ(to_json(e, gcstart, 10), -EINVAL, "truncated");
	ASSERT_STREQ(buf, "{\"Count\":42,\"Depth\":2,\"...\":\"truncated\"}", "truncated json");
	ASSERT_EQ(ect_payload_size(e, gcstart, 25), -EINVAL, "short size");
	ASSERT_EQ(to_json(e, gcstart, 28), -E2BIG, "extra bytes");
	ASSERT_STREQ(buf, "{\"Count\":42,\"Depth\":2,\"Reason\":1,\"Type\":0,\"ClrInstanceID\":7,"
		     "\"ClientSequenceNumber\":72623859790382856,\"_extra\":2}", "extra json");
	ASSERT_OK(ect_payload_get_u64(e, gcstart, 26, "ClrInstanceID", &v), "get");
	ASSERT_EQ(v, 7, "ClrInstanceID");
	ASSERT_EQ(ect_payload_get_u64(e, gcstart, 26, "Nope", &v), -ENOENT, "absent field");
	ASSERT_EQ(ect_payload_get_u64(e, gcstart, 17, "ClrInstanceID", &v), -EINVAL, "short");
}

static void test_json_strings_and_arrays(void)
{
	static const unsigned char mlv[] = {
		0x11, 0, 0, 0, 0, 0, 0, 0, 0x22, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x10, 0, 0, 0x7f, 0, 0, 0, 0x40, 0, 0, 0, 0x01, 0, 0, 0x06, 0x08, 0, 0, 0,
		'N', 0, '"', 0, 0xe9, 0, 0, 0,		/* N"\u00e9 */
		0x3d, 0xd8, 0x00, 0xde, 0, 0,		/* U+1F600 */
		0, 0,
		0x05, 0, 0x02, 0, 0, 0, 0, 0, 0, 0,
	};
	static const unsigned char il[] = {
		0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0x00,
		0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0x01, 0x00,
	};
	static const unsigned char dyn[] = {
		'S', 0, 0, 0, 0x03, 0, 0, 0, 0xde, 0x00, 0xff, 0x04, 0x00,
	};
	const struct ect_event *e;
	uint64_t v;

	e = ect_find_symbol(T, NULL, "MethodLoadVerbose_V2");
	ASSERT_EQ(to_json(e, mlv, sizeof(mlv)), 0, "MethodLoadVerbose_V2");
	ASSERT_STREQ(buf, "{\"MethodID\":17,\"ModuleID\":34,\"MethodStartAddress\":545460850688,"
		     "\"MethodSize\":64,\"MethodToken\":100663297,\"MethodFlags\":8,"
		     "\"MethodNamespace\":\"N\\\"\xc3\xa9\",\"MethodName\":\"\xf0\x9f\x98\x80\","
		     "\"MethodSignature\":\"\",\"ClrInstanceID\":5,\"ReJITID\":2}", "json");
	ASSERT_OK(ect_payload_get_u64(e, mlv, sizeof(mlv), "ClrInstanceID", &v), "after strings");
	ASSERT_EQ(v, 5, "ClrInstanceID");
	ASSERT_EQ(ect_payload_get_u64(e, mlv, sizeof(mlv), "MethodName", &v), -EINVAL,
		  "string is not a u64");
	ASSERT_EQ(ect_payload_size(e, mlv, 40), -EINVAL, "unterminated string");

	e = ect_find_symbol(T, NULL, "MethodILToNativeMap");
	ASSERT_EQ(to_json(e, il, sizeof(il)), 0, "MethodILToNativeMap");
	ASSERT_STREQ(buf, "{\"MethodID\":1,\"ReJITID\":0,\"MethodExtent\":0,\"CountOfMapEntries\":2,"
		     "\"ILOffsets\":[0,5],\"NativeOffsets\":[0,16],\"ClrInstanceID\":1}", "json");
	ASSERT_EQ(ect_payload_size(e, il, sizeof(il) - 1), -EINVAL, "short array");

	e = ect_find_symbol(T, NULL, "GCDynamicEvent");
	ASSERT_EQ(to_json(e, dyn, sizeof(dyn)), 0, "GCDynamicEvent");
	ASSERT_STREQ(buf, "{\"Name\":\"S\",\"DataSize\":3,\"Data\":\"de00ff\",\"ClrInstanceID\":4}",
		     "binary as hex");
}

static void test_json_struct_array(void)
{
	static const unsigned char bt[] = {
		0x02, 0, 0, 0, 0x03, 0,
		0xa0, 0, 0, 0, 0, 0, 0, 0, 0xb0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0x12,
		'F', 0, 0, 0, 0, 0, 0, 0,
		0xa1, 0, 0, 0, 0, 0, 0, 0, 0xb1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0x15,
		'L', 0, 0, 0, 2, 0, 0, 0,
		0x11, 0x11, 0, 0, 0, 0, 0, 0, 0x22, 0x22, 0, 0, 0, 0, 0, 0,
	};
	static const unsigned char stack[] = {
		0x01, 0, 0, 0, 0x03, 0, 0, 0,
		0x10, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0x30, 0, 0, 0, 0, 0, 0, 0,
	};
	const struct ect_event *e = ect_find_symbol(T, NULL, "BulkType");

	if (!ASSERT_OK_PTR(e, "BulkType"))
		return;
	ASSERT_EQ(e->fields[2].intype, ECT_STRUCT, "Values is a struct");
	ASSERT_EQ(e->fields[2].count_kind, ECT_COUNT_FIELD, "counted");
	ASSERT_EQ(e->fields[2].count, 0, "by Count");
	ASSERT_EQ(e->fields[2].n_members, 8, "8 members");
	ASSERT_EQ(e->fields[2].members[7].count, 6, "TypeParameters by TypeParameterCount");
	ASSERT_EQ(ect_payload_size(e, bt, sizeof(bt)), (long)sizeof(bt), "size");
	ASSERT_EQ(to_json(e, bt, sizeof(bt)), 0, "decodes");
	ASSERT_STREQ(buf, "{\"Count\":2,\"ClrInstanceID\":3,\"Values\":["
		     "{\"TypeID\":160,\"ModuleID\":176,\"TypeNameID\":1,\"Flags\":2,"
		     "\"CorElementType\":18,\"Name\":\"F\",\"TypeParameterCount\":0,"
		     "\"TypeParameters\":[]},"
		     "{\"TypeID\":161,\"ModuleID\":177,\"TypeNameID\":2,\"Flags\":0,"
		     "\"CorElementType\":21,\"Name\":\"L\",\"TypeParameterCount\":2,"
		     "\"TypeParameters\":[4369,8738]}]}", "json");
	ASSERT_EQ(to_json(e, bt, sizeof(bt) - 8), -EINVAL, "truncated");

	/* ClrStackWalk: Stack count="2" is a placeholder for FrameCount frames */
	e = ect_find_symbol(T, NULL, "CLRStackWalk");
	if (!ASSERT_OK_PTR(e, "CLRStackWalk"))
		return;
	ASSERT_EQ(e->fields[4].count_kind, ECT_COUNT_FIELD, "Stack counted by FrameCount");
	ASSERT_STREQ(e->fields[4].count_name, "2", "count as written");
	ASSERT_EQ(to_json(e, stack, sizeof(stack)), 0, "decodes");
	ASSERT_STREQ(buf, "{\"ClrInstanceID\":1,\"Reserved1\":0,\"Reserved2\":0,\"FrameCount\":3,"
		     "\"Stack\":[\"0x10\",\"0x20\",\"0x30\"]}", "json");
}

/* random payloads: never read out of bounds, and the three readers agree */
static void test_random_payloads(void)
{
	unsigned char p[512];
	uint64_t x = 0x9e3779b97f4a7c15ULL, v;
	uint32_t ei;
	int round, agree = 1;
	size_t i, len;

	for (ei = 0; ei < T->n_events; ei++) {
		const struct ect_event *e = &T->events[ei];

		for (round = 0; round < 200; round++) {
			long size;
			int rc;

			for (i = 0; i < sizeof(p); i++) {
				x ^= x << 13; x ^= x >> 7; x ^= x << 17;
				/* mostly small bytes, so counts stay small and strings end */
				p[i] = (x & 3) ? (unsigned char)(x >> 8 & 3) : (unsigned char)(x >> 16);
			}
			len = (size_t)(x >> 32) % sizeof(p);
			size = ect_payload_size(e, p, len);
			rc = to_json(e, p, len);
			if (size >= 0 && (size_t)size > len)
				agree = 0;
			if ((size == (long)len) != (rc == 0) ||
			    (size >= 0 && size < (long)len) != (rc == -E2BIG) ||
			    (size < 0) != (rc == -EINVAL))
				agree = 0;
			if (e->n_fields)
				ect_payload_get_u64(e, p, len, e->fields[e->n_fields - 1].name, &v);
		}
	}
	ASSERT_TRUE(agree, "size and json agree on every random payload");
}

int main(void)
{
	RUN(test_lookups);
	RUN(test_json_scalars);
	RUN(test_json_strings_and_arrays);
	RUN(test_json_struct_array);
	RUN(test_random_payloads);
	free(buf);
	return test_summary();
}
