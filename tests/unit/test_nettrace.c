// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_nettrace.c - writer/reader unit tests: docs/nettrace-format.md section 9
 * golden file byte for byte, section 4.4 header compression, random round
 * trips (threads, stacks, UTF-16, metadata kinds, out-of-order timestamps,
 * sequence points, lost-event gaps), a trace cut at every byte offset,
 * corruption checks of docs/nettrace-format.md section 8, write errors and bounded memory.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "nettrace.h"
#include "nettrace_bytes.h"
#include "manifest_meta.h"
#include "own_events.h"
#include "event_table.h"

/* A writer as the collector opens one, with its lost marker
 * (collector/pipeline/own_events.c): the loss tests count its events. */
static struct nt_writer *open_writer(const char *path, const struct nt_trace_info *info)
{
	struct nt_writer *w = nt_writer__open(path, info);

	if (w)
		nt_writer__set_lost_marker(w, &own_events_lost);
	return w;
}

/* docs/nettrace-format.md section 9, 446 bytes */
static const uint8_t golden[] = {
	0x4e, 0x65, 0x74, 0x74, 0x72, 0x61, 0x63, 0x65, 0x14, 0x00, 0x00, 0x00,
	0x21, 0x46, 0x61, 0x73, 0x74, 0x53, 0x65, 0x72, 0x69, 0x61, 0x6c, 0x69,
	0x7a, 0x61, 0x74, 0x69, 0x6f, 0x6e, 0x2e, 0x31, 0x05, 0x05, 0x01, 0x04,
	0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x54,
	0x72, 0x61, 0x63, 0x65, 0x06, 0xe9, 0x07, 0x01, 0x00, 0x03, 0x00, 0x0f,
	0x00, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xca, 0x9a,
	0x3b, 0x00, 0x00, 0x00, 0x00, 0x00, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00,
	0x00, 0x08, 0x00, 0x00, 0x00, 0x92, 0x10, 0x00, 0x00, 0x08, 0x00, 0x00,
	0x00, 0x40, 0x42, 0x0f, 0x00, 0x06, 0x05, 0x05, 0x01, 0x02, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x00, 0x00, 0x0d, 0x00, 0x00, 0x00, 0x4d, 0x65, 0x74,
	0x61, 0x64, 0x61, 0x74, 0x61, 0x42, 0x6c, 0x6f, 0x63, 0x6b, 0x06, 0x7d,
	0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x01, 0x00, 0x00, 0xca, 0x9a, 0x3b,
	0x00, 0x00, 0x00, 0x00, 0x00, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00,
	0xc0, 0x00, 0x66, 0x01, 0x00, 0x00, 0x00, 0x4d, 0x00, 0x69, 0x00, 0x63,
	0x00, 0x72, 0x00, 0x6f, 0x00, 0x73, 0x00, 0x6f, 0x00, 0x66, 0x00, 0x74,
	0x00, 0x2d, 0x00, 0x44, 0x00, 0x6f, 0x00, 0x74, 0x00, 0x4e, 0x00, 0x45,
	0x00, 0x54, 0x00, 0x43, 0x00, 0x6f, 0x00, 0x72, 0x00, 0x65, 0x00, 0x2d,
	0x00, 0x53, 0x00, 0x61, 0x00, 0x6d, 0x00, 0x70, 0x00, 0x6c, 0x00, 0x65,
	0x00, 0x50, 0x00, 0x72, 0x00, 0x6f, 0x00, 0x66, 0x00, 0x69, 0x00, 0x6c,
	0x00, 0x65, 0x00, 0x72, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x05, 0x05,
	0x01, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00,
	0x00, 0x53, 0x74, 0x61, 0x63, 0x6b, 0x42, 0x6c, 0x6f, 0x63, 0x6b, 0x06,
	0x1c, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x10, 0x00, 0x00, 0x00, 0x78, 0x56, 0x34, 0x12, 0x00, 0x7f, 0x00, 0x00,
	0x00, 0x00, 0x34, 0x12, 0x00, 0x7f, 0x00, 0x00, 0x06, 0x05, 0x05, 0x01,
	0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00,
	0x45, 0x76, 0x65, 0x6e, 0x74, 0x42, 0x6c, 0x6f, 0x63, 0x6b, 0x06, 0x25,
	0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x01, 0x00, 0x88, 0xdd, 0x9a, 0x3b,
	0x00, 0x00, 0x00, 0x00, 0x88, 0xdd, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00,
	0xcf, 0x01, 0x00, 0x64, 0x00, 0x65, 0x01, 0x88, 0xbb, 0xeb, 0xdc, 0x03,
	0x04, 0x02, 0x00, 0x00, 0x00, 0x06, 0x05, 0x05, 0x01, 0x02, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x53, 0x50, 0x42,
	0x6c, 0x6f, 0x63, 0x6b, 0x06, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x89, 0xdd, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x06, 0x01,
};

static char tmpdir[64];

static const char *tmp_path(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmpdir, name);
	unlink(buf[k]);
	return buf[k];
}

static uint8_t *read_file(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *p;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	p = malloc(st.st_size + 1);
	if (p && read(fd, p, st.st_size) != st.st_size) {
		free(p);
		p = NULL;
	}
	close(fd);
	*len = st.st_size;
	return p;
}

static void golden_info(struct nt_trace_info *info)
{
	memset(info, 0, sizeof(*info));
	info->sync_utc.tv_sec = 1736942400;	/* 2025-01-15 12:00:00 UTC, a Wednesday */
	info->sync_ts = 1000000000;
	info->freq = 1000000000;
	info->pointer_size = 8;
	info->pid = 4242;
	info->ncpu = 8;
	info->sampling_interval_ns = 1000000;
}

static const struct nt_event_desc sample_desc = {
	.provider = "Microsoft-DotNETCore-SampleProfiler",
	.event_id = 0,
	.name = "",
	.level = 4,
};

/* Section 9: same inputs, same 446 bytes. */
static void test_golden_write(void)
{
	static const uint64_t stack[] = { 0x7F0012345678ULL, 0x7F0012340000ULL };
	const char *path = tmp_path("golden.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;
	struct nt_event ev = { 0 };
	int32_t type = 2;
	uint32_t id = 0;
	uint8_t *buf;
	size_t len = 0;

	golden_info(&info);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	ASSERT_OK(nt_writer__define(w, &sample_desc, &id), "define");
	ASSERT_EQ(id, 1, "metadata id");
	ev.metadata_id = id;
	ev.timestamp = 1000005000;
	ev.thread_id = 101;
	ev.capture_thread_id = 100;
	ev.payload = &type;
	ev.payload_size = 4;
	ev.stack = stack;
	ev.stack_depth = 2;
	ASSERT_OK(nt_writer__write_event(w, &ev), "write");
	ASSERT_OK(nt_writer__close(w, NULL, 1000005001), "close");
	buf = read_file(path, &len);
	if (!ASSERT_OK_PTR(buf, "read back"))
		return;
	ASSERT_EQ(len, sizeof(golden), "size");
	ASSERT_MEMEQ(buf, golden, len < sizeof(golden) ? len : sizeof(golden), "bytes");
	free(buf);
}

static void test_golden_read(void)
{
	struct nt_reader *r = nt_reader__open_mem(golden, sizeof(golden), NULL);
	const struct nt_trace_info *info;
	struct nt_read_event ev;

	if (!ASSERT_OK_PTR(r, "open"))
		return;
	info = nt_reader__info(r);
	ASSERT_EQ(info->sync_utc.tv_sec, 1736942400, "sync utc");
	ASSERT_EQ(info->sync_ts, 1000000000, "sync ts");
	ASSERT_EQ(info->pid, 4242, "pid");
	ASSERT_EQ(info->ncpu, 8, "ncpu");
	ASSERT_EQ(info->sampling_interval_ns, 1000000, "rate");
	if (!ASSERT_EQ(nt_reader__next(r, &ev), 1, "one event"))
		goto out;
	ASSERT_STREQ(ev.meta->provider, "Microsoft-DotNETCore-SampleProfiler", "provider");
	ASSERT_STREQ(ev.meta->name, "", "name");
	ASSERT_EQ(ev.meta->level, 4, "level");
	ASSERT_EQ(ev.sequence, 1, "seq");
	ASSERT_EQ(ev.capture_thread_id, 100, "capture");
	ASSERT_EQ(ev.thread_id, 101, "thread");
	ASSERT_EQ(ev.stack_id, 1, "stack id");
	ASSERT_EQ(ev.stack_depth, 2, "depth");
	ASSERT_EQ(ev.stack[0], 0x7F0012345678LL, "leaf");
	ASSERT_EQ(ev.stack[1], 0x7F0012340000LL, "caller");
	ASSERT_EQ(ev.timestamp, 1000005000, "ts");
	ASSERT_TRUE(ev.sorted, "sorted");
	ASSERT_EQ(ev.payload_size, 4, "payload size");
	ASSERT_EQ(nt_get_u32(ev.payload), 2, "Managed");
	ASSERT_EQ(ev.file_offset, 0x174, "blob offset");
	ASSERT_EQ(nt_reader__next(r, &ev), 0, "clean end");
	ASSERT_TRUE(nt_reader__error(r) == NULL, "no error");
	ASSERT_EQ(nt_reader__lost(r), 0, "lost");
out:
	nt_reader__close(r);
}

/* Section 4.4: the real .NET 6 file's first event header, byte by byte, and
 * the writer producing the same compression (plus IsSorted on every event). */
static void test_section_4_4(void)
{
	static const uint8_t hdr[] = { 0xCF, 0x01, 0x00, 0x98, 0xC4, 0x01, 0xFF, 0xFF, 0xFF,
				       0xFF, 0x0F, 0x98, 0xC4, 0x01, 0x01, 0xED, 0xA9, 0xBB,
				       0x9B, 0xB3, 0xC3, 0x02, 0x22 };
	const char *shared = getenv("SHARED");
	char path[512];
	struct nt_reader *r;
	struct nt_read_event ev;
	uint64_t ts0 = 0;
	size_t flen = 0;
	uint8_t *file;

	if (!shared)
		TEST_SKIP("SHARED not set");
	snprintf(path, sizeof(path), "%s/testdata/nettrace/perfview/"
		 "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace", shared);
	file = read_file(path, &flen);
	if (!file)
		TEST_SKIP("checkpoint sample not found");
	r = nt_reader__open_mem(file, flen, NULL);
	if (!ASSERT_EQ(nt_reader__next(r, &ev), 1, "event 1"))
		goto out;
	ASSERT_MEMEQ(file + ev.file_offset, hdr, sizeof(hdr), "raw header");
	ASSERT_EQ(ev.meta->event_id, 300, "id");
	ASSERT_EQ(ev.sequence, 1, "seq");
	ASSERT_EQ(ev.capture_thread_id, 25112, "capture");
	ASSERT_EQ(ev.processor, 0xFFFFFFFFu, "proc");
	ASSERT_EQ(ev.thread_id, 25112, "tid");
	ASSERT_EQ(ev.stack_id, 1, "stack id of the empty stack");
	ASSERT_EQ(ev.stack_depth, 0, "empty stack");
	ASSERT_EQ(ev.payload_size, 34, "payload");
	ts0 = ev.timestamp;
	ASSERT_EQ(file[ev.file_offset + sizeof(hdr) + 34], 0x80, "event 2 flags");
	ASSERT_EQ(nt_reader__next(r, &ev), 1, "event 2");
	ASSERT_EQ(ev.sequence, 2, "seq 2");
	ASSERT_GE(ev.timestamp, ts0, "ts 2");
	ASSERT_EQ(nt_reader__next(r, &ev), 1, "event 3");
	ASSERT_EQ(file[ev.file_offset], 0x00, "event 3 flags");
	ASSERT_EQ(ev.sequence, 3, "seq 3");
	ASSERT_EQ(nt_reader__next(r, &ev), 0, "end");
	nt_reader__close(r);

	/* writer: the same three headers (stack id 1 = a one-frame stack) */
	{
		const char *out = tmp_path("s44.nettrace");
		struct nt_trace_info info;
		struct nt_event_desc d = { .provider = "Microsoft-Windows-DotNETRuntimeRundown",
					   .event_id = 300, .name = "", .level = 4 };
		static const uint64_t ip = 0x1000;
		uint8_t payload[40] = { 9 };
		struct nt_event e = { 0 };
		struct nt_writer *w;
		uint32_t id;
		uint8_t *buf;
		size_t len = 0;

		golden_info(&info);
		w = open_writer(out, &info);
		if (!ASSERT_OK_PTR(w, "open"))
			goto out;
		nt_writer__define(w, &d, &id);
		e.metadata_id = id;
		e.capture_thread_id = e.thread_id = 25112;
		e.processor = 0xFFFFFFFF;
		e.stack = &ip;
		e.stack_depth = 1;
		e.timestamp = ts0;
		e.payload = payload;
		e.payload_size = 34;
		nt_writer__write_event(w, &e);
		e.timestamp += 172;
		e.payload_size = 38;
		nt_writer__write_event(w, &e);
		e.timestamp += 105;
		nt_writer__write_event(w, &e);
		ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
		buf = read_file(out, &len);
		r = nt_reader__open_mem(buf, len, NULL);
		if (ASSERT_EQ(nt_reader__next(r, &ev), 1, "w1")) {
			ASSERT_MEMEQ(buf + ev.file_offset, hdr, sizeof(hdr), "writer header");
			ASSERT_EQ(buf[ev.file_offset + sizeof(hdr) + 34], 0xC0, "w2 flags");
			ASSERT_EQ(buf[ev.file_offset + sizeof(hdr) + 34 + 1], 0xAC, "w2 delta");
			ASSERT_EQ(buf[ev.file_offset + sizeof(hdr) + 34 + 3], 38, "w2 size");
			ASSERT_EQ(buf[ev.file_offset + sizeof(hdr) + 34 + 4 + 38], 0x40, "w3 flags");
			ASSERT_EQ(buf[ev.file_offset + sizeof(hdr) + 34 + 4 + 38 + 1], 105, "w3 ts");
		}
		nt_reader__close(r);
		free(buf);
	}
out:
	free(file);
}

/* ------------------------------------------------------------ round trip */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint32_t rndn(uint32_t n)
{
	return n ? rnd() % n : 0;
}

static const struct nt_field_desc obj_members[] = {
	{ .name = "X", .type = NT_TYPE_INT32 },
	{ .name = "Name", .type = NT_TYPE_STRING },
};
static const struct nt_field_desc inner_members[] = {
	{ .name = "Deep", .type = NT_TYPE_UINT64 },
};
static const struct nt_field_desc nested_members[] = {
	{ .name = "A", .type = NT_TYPE_BYTE },
	{ .name = "Inner", .type = NT_TYPE_OBJECT, .members = inner_members, .n_members = 1 },
};
static const struct nt_field_desc v1_fields[] = {
	{ .name = "Bool", .type = NT_TYPE_BOOLEAN },
	{ .name = "Char", .type = NT_TYPE_CHAR },
	{ .name = "SByte", .type = NT_TYPE_SBYTE },
	{ .name = "Byte", .type = NT_TYPE_BYTE },
	{ .name = "I16", .type = NT_TYPE_INT16 },
	{ .name = "U16", .type = NT_TYPE_UINT16 },
	{ .name = "I32", .type = NT_TYPE_INT32 },
	{ .name = "U32", .type = NT_TYPE_UINT32 },
	{ .name = "I64", .type = NT_TYPE_INT64 },
	{ .name = "U64", .type = NT_TYPE_UINT64 },
	{ .name = "F32", .type = NT_TYPE_SINGLE },
	{ .name = "F64", .type = NT_TYPE_DOUBLE },
	{ .name = "Guid", .type = NT_TYPE_GUID },
	{ .name = "Str", .type = NT_TYPE_STRING },
	{ .name = "Obj", .type = NT_TYPE_OBJECT, .members = nested_members, .n_members = 2 },
};
static const struct nt_field_desc v2_fields[] = {
	{ .name = "Count", .type = NT_TYPE_UINT16 },
	{ .name = "Ints", .type = NT_TYPE_ARRAY, .elem_type = NT_TYPE_INT32 },
	{ .name = "Strs", .type = NT_TYPE_ARRAY, .elem_type = NT_TYPE_STRING },
	{ .name = "Objs", .type = NT_TYPE_ARRAY, .elem_type = NT_TYPE_OBJECT,
	  .members = obj_members, .n_members = 2 },
	{ .name = "Tail", .type = NT_TYPE_OBJECT, .members = obj_members, .n_members = 2 },
};

static const struct nt_event_desc descs[] = {
	{ .provider = "Microsoft-Windows-DotNETRuntime", .event_id = 143, .name = "",
	  .keywords = 0x30, .version = 2, .level = 4 },
	{ .provider = "Microsoft-Windows-DotNETRuntime", .event_id = 1, .name = "",
	  .keywords = 1, .version = 2, .level = 4, .opcode = 1 },
	{ .provider = "Linux-Kernel", .event_id = 7, .name = "sched_switch", .level = 5,
	  .fields = v1_fields, .n_fields = 15 },
	{ .provider = "Ünïcødé-Prøvider-€", .event_id = 65535, .name = "名前😀",
	  .keywords = ~0ULL, .version = 255, .level = 1, .opcode = 9,
	  .fields = v2_fields, .n_fields = 5 },
	{ .provider = "usdt", .event_id = 3, .name = "Arrays", .opcode = 0,
	  .fields = v2_fields + 1, .n_fields = 1 },
};
#define N_DESCS (sizeof(descs) / sizeof(descs[0]))

static int fields_equal(const struct nt_field_desc *a, uint32_t na,
			const struct nt_field_desc *b, uint32_t nb)
{
	if (na != nb)
		return 0;
	for (uint32_t i = 0; i < na; i++) {
		if (strcmp(a[i].name, b[i].name) || a[i].type != b[i].type)
			return 0;
		if (a[i].type == NT_TYPE_ARRAY && a[i].elem_type != b[i].elem_type)
			return 0;
		if ((a[i].type == NT_TYPE_OBJECT || (a[i].type == NT_TYPE_ARRAY &&
						     a[i].elem_type == NT_TYPE_OBJECT)) &&
		    !fields_equal(a[i].members, a[i].n_members, b[i].members, b[i].n_members))
			return 0;
	}
	return 1;
}

struct exp_event {
	uint32_t desc;
	uint32_t seq;
	int sorted;
	struct nt_event ev;
	uint8_t act[16];
	uint64_t stack[64];
	uint8_t *payload;
};

static int roundtrip_one(uint64_t seed, uint32_t n_events, uint32_t psize, int big_payloads)
{
	const char *path = tmp_path("rt.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;
	struct nt_reader *r = NULL;
	struct nt_read_event rev;
	struct exp_event *exp = calloc(n_events, sizeof(*exp));
	uint32_t meta_ids[N_DESCS] = { 0 }, n_defined = 0;
	uint64_t threads[6] = { 100, 101, 102, 1ULL << 40, 7, 0 };
	uint32_t seqs[6] = { 0 };
	uint64_t lost = 0, ts = 5000, max_ts = 0;
	uint32_t i, got = 0;
	int ok = 1, rc;

	rng_state = seed;
	golden_info(&info);
	info.pointer_size = psize;
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return 0;
	for (i = 0; i < n_events; i++) {
		struct exp_event *x = &exp[i];
		uint32_t t = rndn(6), r100 = rndn(100);

		/* define lazily, in random order */
		if (n_defined < N_DESCS && (n_defined == 0 || rndn(50) == 0)) {
			ok &= ASSERT_OK(nt_writer__define(w, &descs[n_defined], &meta_ids[n_defined]),
					"define");
			n_defined++;
		}
		if (r100 < 2) {
			uint32_t n = 1 + rndn(1000);

			ok &= ASSERT_OK(nt_writer__note_lost(w, threads[t], n), "note_lost");
			seqs[t] += n;
			lost += n;
		}
		if (r100 == 3)
			ok &= ASSERT_OK(nt_writer__flush(w), "flush");
		x->desc = rndn(n_defined);
		x->ev.metadata_id = meta_ids[x->desc];
		ts += rndn(1000);
		x->ev.timestamp = ts;
		if (rndn(20) == 0)	/* out of order */
			x->ev.timestamp = ts - rndn(ts < 100000 ? ts : 100000);
		x->sorted = i == 0 || x->ev.timestamp >= max_ts;
		if (x->ev.timestamp > max_ts || i == 0)
			max_ts = x->ev.timestamp;
		x->ev.thread_id = rndn(4) ? threads[t] + 1000 : rnd();
		x->ev.capture_thread_id = threads[t];
		x->ev.processor = rndn(3) ? rndn(8) : 0xFFFFFFFF;
		if (rndn(10) == 0) {
			for (int k = 0; k < 16; k++)
				x->act[k] = rnd();
			x->ev.activity_id = x->act;
			if (rndn(2))
				x->ev.related_activity_id = x->act;
		}
		x->ev.payload_size = big_payloads && rndn(100) == 0 ? 100000 + rndn(200000)
								   : rndn(300);
		x->payload = malloc(x->ev.payload_size + 1);
		for (uint32_t k = 0; k < x->ev.payload_size; k++)
			x->payload[k] = rnd();
		x->ev.payload = x->payload;
		if (rndn(3)) {
			/* a few hot stacks and some random ones */
			uint32_t depth = 1 + rndn(64), hot = rndn(8);

			for (uint32_t k = 0; k < depth; k++)
				x->stack[k] = rndn(2) ? 0x7f0000000000ULL + hot * 0x100 + k
						      : rnd();
			if (rndn(2))
				for (uint32_t k = 0; k < depth; k++)
					x->stack[k] = 0x400000 + hot * 64 + k;
			x->ev.stack = x->stack;
			x->ev.stack_depth = depth;
		}
		x->seq = ++seqs[t];
		rc = nt_writer__write_event(w, &x->ev);
		if (!ASSERT_OK(rc, "write")) {
			ok = 0;
			break;
		}
	}
	ok &= ASSERT_OK(nt_writer__close(w, NULL, ts + 1), "close");
	r = nt_reader__open(path, NULL);
	if (!ASSERT_OK_PTR(r, "reopen"))
		goto out;
	while (ok && (rc = nt_reader__next(r, &rev)) == 1) {
		struct exp_event *x;
		const struct nt_event_desc *d;

		if (!ASSERT_TRUE(got < n_events, "not too many")) {
			ok = 0;
			break;
		}
		x = &exp[got++];
		d = &descs[x->desc];
		ok &= ASSERT_EQ(rev.meta->id, x->ev.metadata_id, "meta id");
		ok &= ASSERT_STREQ(rev.meta->provider, d->provider, "provider");
		ok &= ASSERT_STREQ(rev.meta->name, d->name, "name");
		ok &= ASSERT_EQ(rev.meta->event_id, d->event_id, "event id");
		ok &= ASSERT_EQ(rev.meta->version, d->version, "version");
		ok &= ASSERT_EQ(rev.meta->level, d->level, "level");
		ok &= ASSERT_EQ(rev.meta->keywords, d->keywords, "keywords");
		ok &= ASSERT_EQ(rev.meta->opcode, d->opcode, "opcode");
		ok &= ASSERT_TRUE(fields_equal(rev.meta->fields, rev.meta->n_fields, d->fields,
					       d->n_fields), "fields");
		ok &= ASSERT_EQ(rev.sequence, x->seq, "sequence");
		ok &= ASSERT_EQ(rev.timestamp, x->ev.timestamp, "timestamp");
		ok &= ASSERT_EQ(rev.sorted, x->sorted, "sorted");
		ok &= ASSERT_EQ(rev.thread_id, x->ev.thread_id, "thread");
		ok &= ASSERT_EQ(rev.capture_thread_id, x->ev.capture_thread_id, "capture");
		ok &= ASSERT_EQ(rev.processor, x->ev.processor, "processor");
		ok &= ASSERT_MEMEQ(rev.activity_id, x->ev.activity_id ? x->act : (uint8_t[16]){ 0 },
				   16, "activity");
		ok &= ASSERT_MEMEQ(rev.related_activity_id,
				   x->ev.related_activity_id ? x->act : (uint8_t[16]){ 0 },
				   16, "related");
		ok &= ASSERT_EQ(rev.payload_size, x->ev.payload_size, "payload size");
		ok &= ASSERT_MEMEQ(rev.payload, x->payload, x->ev.payload_size, "payload");
		ok &= ASSERT_EQ(rev.stack_depth, x->ev.stack_depth, "stack depth");
		for (uint32_t k = 0; k < rev.stack_depth && k < x->ev.stack_depth; k++) {
			uint64_t want = psize == 4 ? (uint32_t)x->stack[k] : x->stack[k];

			if (rev.stack[k] != want) {
				ok &= ASSERT_EQ(rev.stack[k], want, "stack frame");
				break;
			}
		}
		if (!ok)
			printf("#   at event %u (seed %llu)\n", got - 1, (unsigned long long)seed);
	}
	ok &= ASSERT_EQ(rc, 0, "clean end");
	ok &= ASSERT_EQ(got, n_events, "all events back");
	ok &= ASSERT_EQ(nt_reader__lost(r), lost, "lost");
out:
	nt_reader__close(r);
	for (i = 0; i < n_events; i++)
		free(exp[i].payload);
	free(exp);
	return ok;
}

static void test_roundtrip_random(void)
{
	for (uint64_t seed = 1; seed <= 6; seed++)
		if (!roundtrip_one(seed * 0x9E3779B97F4A7C15ULL, 20000, seed % 3 ? 8 : 4, 0))
			return;
}

static void test_roundtrip_big(void)
{
	/* many blocks, block-sized payloads, several 8 MB sequence points */
	roundtrip_one(42, 40000, 8, 1);
}

/* More distinct stacks than one SP region may hold: forced sequence points. */
static void test_many_distinct_stacks(void)
{
	const char *path = tmp_path("stacks.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;
	struct nt_reader *r;
	struct nt_read_event ev;
	uint32_t id, n = 150000, i, got = 0, bad = 0, max_stack_id = 0;
	uint64_t stack[4];

	golden_info(&info);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	nt_writer__define(w, &sample_desc, &id);
	for (i = 0; i < n; i++) {
		struct nt_event e = { .metadata_id = id, .timestamp = 2000000000ULL + i,
				      .capture_thread_id = 1, .thread_id = 2,
				      .stack = stack, .stack_depth = 4 };

		for (int k = 0; k < 4; k++)
			stack[k] = ((uint64_t)i << 8) + k;
		if (nt_writer__write_event(w, &e))
			break;
	}
	ASSERT_EQ(i, n, "written");
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
	r = nt_reader__open(path, NULL);
	while (nt_reader__next(r, &ev) == 1) {
		if (ev.stack_depth != 4 || ev.stack[0] != ((uint64_t)got << 8) ||
		    ev.stack[3] != ((uint64_t)got << 8) + 3)
			bad++;
		if (ev.stack_id > max_stack_id)
			max_stack_id = ev.stack_id;
		got++;
	}
	ASSERT_TRUE(nt_reader__error(r) == NULL, "no error");
	ASSERT_EQ(got, n, "events");
	ASSERT_EQ(bad, 0, "stacks intact");
	ASSERT_EQ(max_stack_id, 65536, "stack ids bounded per region");
	nt_reader__close(r);
}

/* Stacks that a recent one resembles (same depth and end frames, one
 * frame different anywhere, every depth up to 40, 8- and 4-byte pointers):
 * each event reads back with exactly the stack it was written with. */
static void one_frame_apart(uint32_t psize)
{
	const char *path = tmp_path("apart.nettrace");
	uint64_t base[40], st[40], want[2000][2];	/* depth, changed frame */
	uint32_t id, n_ev = 0, got = 0, bad = 0;
	struct nt_trace_info info;
	struct nt_read_event ev;
	struct nt_writer *w;
	struct nt_reader *r;

	golden_info(&info);
	info.pointer_size = psize;
	unlink(path);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	nt_writer__define(w, &sample_desc, &id);
	for (uint32_t k = 0; k < 40; k++)
		base[k] = 0x7f0000001000ULL + k * 0x10;
	for (uint32_t n = 1; n <= 40; n++) {
		for (uint32_t k = 0; k <= n; k++) {	/* k == n: the base stack itself */
			memcpy(st, base, sizeof(st));
			if (k < n)
				st[k] ^= 0x8;
			want[n_ev][0] = n;
			want[n_ev][1] = k;
			if (nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
				.timestamp = 2000000000ULL + n_ev, .capture_thread_id = 1,
				.thread_id = 2, .stack = st, .stack_depth = n }))
				break;
			n_ev++;
		}
	}
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
	r = nt_reader__open(path, NULL);
	while (got < n_ev && nt_reader__next(r, &ev) == 1) {
		uint32_t n = (uint32_t)want[got][0], k = (uint32_t)want[got][1];

		memcpy(st, base, sizeof(st));
		if (k < n)
			st[k] ^= 0x8;
		for (uint32_t i = 0; psize == 4 && i < n; i++)
			st[i] = (uint32_t)st[i];	/* what a 4-byte pointer keeps */
		if (ev.stack_depth != n || memcmp(ev.stack, st, n * 8))
			bad++;
		got++;
	}
	ASSERT_EQ(got, n_ev, "events");
	ASSERT_EQ(bad, 0, "each event with its own stack");
	nt_reader__close(r);
	unlink(path);
}

static void test_stacks_one_frame_apart(void)
{
	one_frame_apart(8);
	one_frame_apart(4);
}

/* ------------------------------------------------------------ payload JSON */

static void put_str(struct nt_buf *b, const char *s)
{
	nt_buf__utf16(b, s);
}

static void test_payload_json(void)
{
	const char *path = tmp_path("json.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;
	struct nt_reader *r;
	struct nt_read_event ev;
	struct nt_buf p1 = { 0 }, p2 = { 0 };
	uint32_t id1, id2;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;
	float f32 = 1.5f;
	double f64 = -2.25;
	uint32_t u;
	uint64_t u64;

	/* v1_fields payload */
	nt_buf__reserve(&p1, 512);
	nt_put_u32(&p1, 1);			/* Bool */
	nt_put_u16(&p1, 'Z');			/* Char */
	nt_put_u8(&p1, 0xFF);			/* SByte -1 */
	nt_put_u8(&p1, 200);			/* Byte */
	nt_put_u16(&p1, 0x8000);		/* I16 */
	nt_put_u16(&p1, 65535);			/* U16 */
	nt_put_u32(&p1, 0xFFFFFFFE);		/* I32 -2 */
	nt_put_u32(&p1, 4000000000u);		/* U32 */
	nt_put_u64(&p1, (uint64_t)-5);		/* I64 */
	nt_put_u64(&p1, 18446744073709551615ULL);
	memcpy(&u, &f32, 4);
	nt_put_u32(&p1, u);
	memcpy(&u64, &f64, 8);
	nt_put_u64(&p1, u64);
	nt_put_bytes(&p1, "\x23\x0d\x3c\xe1\xbc\xcc\x12\x4e\x93\x1b\xd9\xcc\x2e\xee\x27\xe4", 16);
	put_str(&p1, "tab\there \"q\" é😀");
	nt_buf__reserve(&p1, 16);
	nt_put_u8(&p1, 7);			/* Obj.A */
	nt_put_u64(&p1, 99);			/* Obj.Inner.Deep */

	/* v2_fields payload */
	nt_buf__reserve(&p2, 512);
	nt_put_u16(&p2, 3);
	nt_put_u16(&p2, 2);			/* Ints[2] */
	nt_put_u32(&p2, 10);
	nt_put_u32(&p2, (uint32_t)-20);
	nt_put_u16(&p2, 2);			/* Strs[2] */
	put_str(&p2, "a");
	put_str(&p2, "");
	nt_buf__reserve(&p2, 64);
	nt_put_u16(&p2, 1);			/* Objs[1] */
	nt_put_u32(&p2, 5);
	put_str(&p2, "x");
	nt_buf__reserve(&p2, 64);
	nt_put_u32(&p2, 6);			/* Tail */
	put_str(&p2, "y");

	golden_info(&info);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		goto out;
	nt_writer__define(w, &descs[2], &id1);
	nt_writer__define(w, &descs[3], &id2);
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id1, .timestamp = 1,
						      .payload = p1.data,
						      .payload_size = p1.len });
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id2, .timestamp = 2,
						      .payload = p2.data,
						      .payload_size = p2.len });
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id2, .timestamp = 3,
						      .payload = p2.data,
						      .payload_size = p2.len - 2 });
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");

	r = nt_reader__open(path, NULL);
	f = open_memstream(&out, &outlen);
	nt_reader__next(r, &ev);
	ASSERT_OK(nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f), "json 1");
	fputc('\n', f);
	nt_reader__next(r, &ev);
	ASSERT_EQ(ev.meta->opcode, 9, "opcode");
	ASSERT_OK(nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f), "json 2");
	fputc('\n', f);
	nt_reader__next(r, &ev);
	ASSERT_EQ(nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f), -EINVAL,
		  "short payload");
	fclose(f);
	{
		static const char *const want[] = {
			"{\"Bool\":true,\"Char\":\"Z\",\"SByte\":-1,\"Byte\":200,\"I16\":-32768,"
			"\"U16\":65535,\"I32\":-2,\"U32\":4000000000,\"I64\":-5,"
			"\"U64\":18446744073709551615,\"F32\":1.5,\"F64\":-2.25,",
			"\"Guid\":\"e13c0d23-ccbc-4e12-931b-d9cc2eee27e4\","
			"\"Str\":\"tab\\there \\\"q\\\" é😀\",\"Obj\":{\"A\":7,\"Inner\":{\"Deep\":99}}}",
			"{\"Count\":3,\"Ints\":[10,-20],\"Strs\":[\"a\",\"\"],"
			"\"Objs\":[{\"X\":5,\"Name\":\"x\"}],\"Tail\":{\"X\":6,\"Name\":\"y\"}}",
			"{\"_error\":\"payload does not match metadata\",\"_hex\":\"0300020"
			"00a000000ecffffff020061000000000001000500000078000000060000007900\"}",
		};
		char *line = out, *save = NULL, *tok;
		int k = 0;

		/* line 1 is split after "F64" so each comparison fits the message buffer */
		for (tok = strtok_r(line, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
			if (k == 0) {
				size_t n = strlen(want[0]);

				ASSERT_TRUE(!strncmp(tok, want[0], n), "json line 1a");
				ASSERT_STREQ(tok + (strlen(tok) >= n ? n : 0), want[1], "json line 1b");
				k = 2;
			} else if (k < 4) {
				ASSERT_STREQ(tok, want[k], "json line");
				k++;
			}
		}
		ASSERT_EQ(k, 4, "three lines");
	}
	nt_reader__close(r);
out:
	free(out);
	nt_buf__free(&p1);
	nt_buf__free(&p2);
}

/* Arrays of empty objects take no payload bytes: decoding work is bounded. */
static void test_json_budget(void)
{
	static const struct nt_field_desc inner[] = {
		{ .name = "E", .type = NT_TYPE_ARRAY, .elem_type = NT_TYPE_OBJECT },
	};
	static const struct nt_field_desc outer[] = {
		{ .name = "O", .type = NT_TYPE_ARRAY, .elem_type = NT_TYPE_OBJECT,
		  .members = inner, .n_members = 1 },
	};
	static const struct nt_event_desc d = { .provider = "p", .name = "Bomb",
						.fields = outer, .n_fields = 1 };
	const char *path = tmp_path("bomb.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;
	struct nt_reader *r;
	struct nt_read_event ev;
	uint8_t payload[2 + 2 * 1000];
	uint32_t id;
	FILE *f = fopen("/dev/null", "w");

	payload[0] = 1000 & 0xff;
	payload[1] = 1000 >> 8;
	for (int i = 0; i < 1000; i++)
		payload[2 + 2 * i] = payload[3 + 2 * i] = 0xff;	/* 65535 empty objects each */
	golden_info(&info);
	w = open_writer(path, &info);
	nt_writer__define(w, &d, &id);
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id, .payload = payload,
						      .payload_size = sizeof(payload) });
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
	r = nt_reader__open(path, NULL);
	if (ASSERT_EQ(nt_reader__next(r, &ev), 1, "event")) {
		ASSERT_EQ(ev.meta->fields[0].members[0].elem_type, NT_TYPE_OBJECT, "nested");
		ASSERT_EQ(nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f), -EINVAL,
			  "65 million values refused");
	}
	nt_reader__close(r);
	fclose(f);
}

/* define_manifest: empty name, no fields, opcode tag only when non-zero */
static void test_define_manifest(void)
{
	static const struct ect_provider prov = { .name = "Microsoft-Windows-DotNETRuntime" };
	static const struct ect_event gc = { .provider = &prov, .symbol = "GCStart_V2",
					     .id = 1, .version = 2, .level = 4, .opcode = 1,
					     .keywords = 1 };
	static const struct ect_event mlv = { .provider = &prov, .symbol = "MethodLoadVerbose_V1",
					      .id = 143, .version = 1, .level = 5,
					      .keywords = 0x30 };
	const char *path = tmp_path("manifest.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;
	struct nt_reader *r;
	struct nt_read_event ev;
	uint32_t id1, id2;
	uint8_t *buf;
	size_t len = 0;

	golden_info(&info);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	ASSERT_OK(manifest_define_event(w, &gc, &id1), "gc");
	ASSERT_OK(manifest_define_event(w, &mlv, &id2), "mlv");
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id1, .timestamp = 1 });
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id2, .timestamp = 2 });
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
	buf = read_file(path, &len);
	r = nt_reader__open_mem(buf, len, NULL);
	ASSERT_EQ(nt_reader__next(r, &ev), 1, "ev1");
	ASSERT_STREQ(ev.meta->provider, "Microsoft-Windows-DotNETRuntime", "provider");
	ASSERT_STREQ(ev.meta->name, "", "empty name");
	ASSERT_EQ(ev.meta->n_fields, 0, "no fields");
	ASSERT_EQ(ev.meta->event_id, 1, "id");
	ASSERT_EQ(ev.meta->version, 2, "version");
	ASSERT_EQ(ev.meta->keywords, 1, "keywords");
	ASSERT_EQ(ev.meta->opcode, 1, "opcode");
	ASSERT_EQ(nt_reader__next(r, &ev), 1, "ev2");
	ASSERT_EQ(ev.meta->event_id, 143, "id 143");
	ASSERT_EQ(ev.meta->opcode, 0, "no opcode");
	nt_reader__close(r);
	/* the GC record carries the opcode tag (int32 1, kind 1, opcode 1); the
	 * 143 record (opcode 0) none: the file holds the tag exactly once */
	{
		static const uint8_t tag[] = { 1, 0, 0, 0, 1, 1 };
		const uint8_t *t = memmem(buf, len, tag, sizeof(tag));

		ASSERT_TRUE(t != NULL, "opcode tag");
		ASSERT_TRUE(t && !memmem(t + 1, len - (t + 1 - buf), tag, sizeof(tag)),
			    "only once");
	}
	free(buf);
}

/* The collector's LossSummary as the last event at close */
static void test_loss_summary(void)
{
	const char *path = tmp_path("loss.nettrace");
	struct loss_summary loss = { 0, 11, 12, 13, 14, 15 };
	struct loss_summary_event sev;
	struct nt_trace_info info;
	struct nt_writer *w;
	struct nt_reader *r;
	struct nt_read_event ev;
	uint32_t id;
	char *out = NULL;
	size_t outlen = 0, n = 0;
	FILE *f;

	golden_info(&info);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	nt_writer__define(w, &sample_desc, &id);
	for (int i = 0; i < 3; i++)
		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
							      .timestamp = 10 + i,
							      .capture_thread_id = 5 });
	ASSERT_OK(nt_writer__note_lost(w, 5, 4), "lost 4 at the end");
	ASSERT_OK(nt_writer__close(w, loss_summary__event(&sev, &loss, w), 100), "close");
	r = nt_reader__open(path, NULL);
	while (nt_reader__next(r, &ev) == 1)
		n++;
	ASSERT_EQ(n, 4, "3 events + summary");
	ASSERT_STREQ(ev.meta->provider, "ebpf-collect", "provider");
	ASSERT_STREQ(ev.meta->name, "LossSummary", "name");
	ASSERT_EQ(ev.timestamp, 100, "at last_ts");
	f = open_memstream(&out, &outlen);
	ASSERT_OK(nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f), "json");
	fclose(f);
	ASSERT_STREQ(out, "{\"EventsWritten\":3,\"RingbufDrops\":11,\"TruncatedPayloads\":12,"
		     "\"TruncatedStacks\":13,\"UnreadableMaps\":14,\"OtherDrops\":15}", "fields");
	ASSERT_EQ(nt_reader__lost(r), 4, "trailing loss seen through the final SP");
	ASSERT_TRUE(nt_reader__error(r) == NULL, "clean");
	nt_reader__close(r);
	free(out);
}

/* ------------------------------------------------------------ truncation */

/* A small multi-block trace in memory. */
static uint8_t *small_trace(size_t *len, uint32_t *n_events)
{
	const char *path = tmp_path("small.nettrace");
	static const uint64_t stack[] = { 0x1111, 0x2222, 0x3333 };
	struct nt_trace_info info;
	struct nt_writer *w;
	uint32_t id1, id2, n = 0;
	uint8_t payload[24] = "payload";
	struct loss_summary_event sev;

	golden_info(&info);
	w = open_writer(path, &info);
	nt_writer__define(w, &sample_desc, &id1);
	nt_writer__define(w, &descs[4], &id2);
	for (int i = 0; i < 40; i++) {
		struct nt_event e = { .metadata_id = i % 3 ? id1 : id2,
				      .timestamp = 1000 + i * 10 - (i % 7 == 6 ? 35 : 0),
				      .capture_thread_id = 1 + i % 2, .thread_id = 50 + i % 3,
				      .payload = payload, .payload_size = 4 + i % 5,
				      .stack = stack, .stack_depth = i % 4 };

		if (i % 11 == 10)
			nt_writer__flush(w);
		if (i == 20)
			nt_writer__note_lost(w, 2, 3);
		nt_writer__write_event(w, &e);
		n++;
	}
	nt_writer__close(w, loss_summary__event(&sev, &(struct loss_summary){ 0 }, w), 0);
	*n_events = n + 1;
	return read_file(path, len);
}

/* Whole-block event counts at each cut, from a minimal object walk. */
static void block_ends(const uint8_t *buf, size_t len, size_t *ends, uint32_t *counts,
		       int *n, const uint64_t *ev_offs, uint32_t n_evs)
{
	size_t pos = 32 + 16 + 5 + 49;

	*n = 0;
	while (pos < len && buf[pos] != 1) {
		uint32_t nlen = nt_get_u32(buf + pos + 11);
		int is_ev = nlen == 10 && !memcmp(buf + pos + 15, "EventBlock", 10);
		size_t size_at = pos + 16 + nlen, content = size_at + 4;
		uint32_t size = nt_get_u32(buf + size_at);

		content += (4 - content % 4) % 4;
		pos = content + size + 1;
		if (is_ev) {
			uint32_t c = 0;

			for (uint32_t i = 0; i < n_evs; i++)
				if (ev_offs[i] >= content && ev_offs[i] < pos)
					c++;
			ends[*n] = pos;
			counts[(*n)++] = c;
		}
	}
}

static void test_cut_every_offset(void)
{
	size_t len = 0, ends[256];
	uint32_t n_events = 0, counts[256], got;
	uint64_t offs[64];
	uint8_t *buf = small_trace(&len, &n_events), *cut;
	struct nt_reader *r;
	struct nt_read_event ev;
	int nb = 0, rc, fails = 0;

	if (!ASSERT_OK_PTR(buf, "trace"))
		return;
	r = nt_reader__open_mem(buf, len, NULL);
	for (got = 0; (rc = nt_reader__next(r, &ev)) == 1 && got < 64; got++)
		offs[got] = ev.file_offset;
	nt_reader__close(r);
	ASSERT_EQ(rc, 0, "full file reads clean");
	ASSERT_EQ(got, n_events, "all events");
	block_ends(buf, len, ends, counts, &nb, offs, got);
	ASSERT_GE(nb, 8, "several event blocks");
	printf("# small trace: %zu bytes, %u events, %d event blocks\n", len, got, nb);

	for (size_t c = 0; c <= len && fails < 5; c++) {
		uint32_t want = 0, n = 0;

		for (int b = 0; b < nb; b++)
			if (ends[b] <= c)
				want += counts[b];
		/* a separate allocation of exactly c bytes: ASan-style overreads crash */
		cut = malloc(c ? c : 1);
		memcpy(cut, buf, c);
		r = nt_reader__open_mem(cut, c, NULL);
		while ((rc = nt_reader__next(r, &ev)) == 1)
			n++;
		if (c == len) {
			ASSERT_EQ(rc, 0, "whole file ends clean");
		} else if (rc != -1 || !nt_reader__error(r) || nt_reader__error_offset(r) > c) {
			fails++;
			ASSERT_EQ(rc, -1, "cut reports an error");
			printf("#   cut at %zu\n", c);
		}
		if (n != want) {
			fails++;
			ASSERT_EQ(n, want, "events of whole blocks");
			printf("#   cut at %zu\n", c);
		}
		nt_reader__close(r);
		free(cut);
	}
	free(buf);
}

/* Flip every byte: never crash, always end (clean or with an error). */
static void test_corrupt_every_byte(void)
{
	size_t len = 0;
	uint32_t n_events = 0;
	uint8_t *buf = small_trace(&len, &n_events);
	struct nt_read_event ev;
	uint64_t errors = 0;

	if (!ASSERT_OK_PTR(buf, "trace"))
		return;
	for (size_t i = 0; i < len; i++) {
		for (int k = 0; k < 3; k++) {
			static const uint8_t x[] = { 0xFF, 0x80, 0x01 };
			struct nt_reader *r;
			int rc, guard = 0;

			buf[i] ^= x[k];
			r = nt_reader__open_mem(buf, len, NULL);
			while ((rc = nt_reader__next(r, &ev)) == 1 && guard++ < 100000)
				;
			errors += rc < 0;
			nt_reader__close(r);
			buf[i] ^= x[k];
		}
	}
	ASSERT_GE(errors, len, "most corruptions are detected");
	free(buf);
}

/* Section 8 checks on mutated copies of the golden file. */
static int golden_mutant_error(size_t off, uint8_t val, int append, char *why, size_t n)
{
	uint8_t buf[sizeof(golden) + 1];
	struct nt_read_event ev;
	struct nt_reader *r;
	size_t len = sizeof(golden);
	int rc;

	memcpy(buf, golden, len);
	if (append)
		buf[len++] = val;
	else
		buf[off] = val;
	r = nt_reader__open_mem(buf, len, NULL);
	while ((rc = nt_reader__next(r, &ev)) == 1)
		;
	snprintf(why, n, "%s", nt_reader__error(r) ? nt_reader__error(r) : "");
	nt_reader__close(r);
	return rc;
}

static void test_validity_checks(void)
{
	static const struct {
		size_t off;
		uint8_t val;
		int append;
		const char *msg;
	} cases[] = {
		{ 0, 'X', 0, "offset 0: not a NetTrace file (no \"Nettrace\" magic)" },
		{ 8, 21, 0, "offset 8: bad FastSerialization header" },
		{ 0x23, 5, 0, "offset 32: Trace object version 5 (only 4 is defined)" },
		{ 0x7e, 'X', 0, "offset 102: unknown object type \"MetadataBXock\"" },
		{ 0x69, 3, 0, "offset 102: MetadataBlock version 3 (at most 2 is defined)" },
		{ 0x9f, 0, 0, "offset 156: metadata record defines id 0" },
		{ 0x17a, 2, 0, "offset 372: event uses stack id 2, not defined since the last "
			       "sequence point" },
		{ 0x175, 2, 0, "offset 372: event uses undefined metadata id 2" },
		{ 0x180, 0x7f, 0, "offset 372: EventBlock: event payload runs past the end of its "
			       "block" },
		{ 0x105, 7, 0, "offset 261: MetadataBlock not closed by 06 (found 07)" },
		{ 0x15f, 1, 0, "offset 351: non-zero padding byte in EventBlock" },
		{ 0x1bd, 6, 0, "offset 445: file ends inside an object header (1 bytes left)" },
		{ 0, 0, 1, "offset 446: 1 bytes after the end-of-stream marker" },
	};
	char why[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = golden_mutant_error(cases[i].off, cases[i].val, cases[i].append, why,
					     sizeof(why));

		ASSERT_EQ(rc, -1, cases[i].msg);
		ASSERT_STREQ(why, cases[i].msg, "message");
	}
}

/* NetPerf-era uncompressed event blobs (docs/nettrace-format.md section 4.3) are still read. */
static void append_block(struct nt_buf *b, const char *name, const struct nt_buf *content)
{
	size_t n = strlen(name);

	nt_buf__reserve(b, 32 + n + content->len);
	nt_put_u8(b, 5);
	nt_put_u8(b, 5);
	nt_put_u8(b, 1);
	nt_put_u32(b, 2);
	nt_put_u32(b, 2);
	nt_put_u32(b, n);
	nt_put_bytes(b, name, n);
	nt_put_u8(b, 6);
	nt_put_u32(b, content->len);
	while (b->len % 4)
		nt_put_u8(b, 0);
	nt_put_bytes(b, content->data, content->len);
	nt_put_u8(b, 6);
}

static void put_uncompressed_stack(struct nt_buf *c, uint32_t meta, uint32_t seq, uint64_t ts,
				   uint32_t psize, uint32_t stack)
{
	size_t start = c->len;

	nt_buf__reserve(c, 100);
	nt_put_u32(c, 76 + psize + (4 - (76 + psize) % 4) % 4);
	nt_put_u32(c, meta);
	nt_put_u32(c, seq);
	nt_put_u64(c, 101);		/* thread */
	nt_put_u64(c, 100);		/* capture thread */
	nt_put_u32(c, 3);		/* processor */
	nt_put_u32(c, stack);
	nt_put_u64(c, ts);
	memset(c->data + c->len, 0xAA, 32);
	c->len += 32;
	nt_put_u32(c, psize);
	for (uint32_t i = 0; i < psize; i++)
		nt_put_u8(c, i + 1);
	while ((c->len - start) % 4)
		nt_put_u8(c, 0);
}

static void put_uncompressed(struct nt_buf *c, uint32_t meta, uint32_t seq, uint64_t ts,
			     uint32_t psize)
{
	put_uncompressed_stack(c, meta, seq, ts, psize, 1);
}

/* A StackBlock of count one-frame stacks from first_id; frame = id * 0x100. */
static void append_stacks(struct nt_buf *f, uint32_t first_id, uint32_t count)
{
	struct nt_buf c = { 0 };

	nt_buf__reserve(&c, 8 + count * 12);
	nt_put_u32(&c, first_id);
	nt_put_u32(&c, count);
	for (uint32_t i = 0; i < count; i++) {
		nt_put_u32(&c, 8);
		nt_put_u64(&c, (uint64_t)(first_id + i) * 0x100);
	}
	append_block(f, "StackBlock", &c);
	nt_buf__free(&c);
}

/* The golden file's header, metadata and stack 1, stacks 5 and 9-10, one
 * EventBlock with an event on each of ids[0..n), the end of the stream. */
static void sparse_stacks_file(struct nt_buf *f, const uint32_t *ids, int n)
{
	struct nt_buf c = { 0 };

	nt_buf__bytes(f, golden, 0x141);
	append_stacks(f, 5, 1);
	append_stacks(f, 9, 2);
	nt_buf__reserve(&c, 20);
	nt_put_u16(&c, 20);
	nt_put_u16(&c, 0);		/* no header compression */
	nt_put_u64(&c, 10);
	nt_put_u64(&c, 10 + n);
	for (int i = 0; i < n; i++)
		put_uncompressed_stack(&c, 1, i + 1, 10 + i, 4, ids[i]);
	append_block(f, "EventBlock", &c);
	nt_buf__reserve(f, 1);
	nt_put_u8(f, 1);
	nt_buf__free(&c);
}

/* Stack ids of a region that are not one run from its first (the reader's
 * shortcut for ids numbered in order must not apply): each event gets its
 * own stack, and an id in a gap is undefined. */
static void test_sparse_stack_ids(void)
{
	static const uint32_t ids[] = { 1, 5, 9, 10, 7 };
	struct nt_buf f = { 0 };
	struct nt_read_event ev;
	struct nt_reader *r;
	int i;

	sparse_stacks_file(&f, ids, 4);
	r = nt_reader__open_mem(f.data, f.len, NULL);
	for (i = 0; i < 4; i++) {
		if (!ASSERT_EQ(nt_reader__next(r, &ev), 1, "event"))
			break;
		ASSERT_EQ(ev.stack_id, ids[i], "stack id");
		if (i)
			ASSERT_TRUE(ev.stack_depth == 1 && ev.stack[0] == ids[i] * 0x100ULL,
				    "its own frame");
	}
	ASSERT_EQ(nt_reader__next(r, &ev), 0, "clean end");
	nt_reader__close(r);
	f.len = 0;
	sparse_stacks_file(&f, ids, 5);
	r = nt_reader__open_mem(f.data, f.len, NULL);
	ASSERT_EQ(nt_reader__next(r, &ev), -1, "id 7 (a gap) is undefined");
	ASSERT_TRUE(nt_reader__error(r) && strstr(nt_reader__error(r), "stack id 7, not defined"),
		    "reason");
	nt_reader__close(r);
	nt_buf__free(&f);
}

/* Metadata ids past the reader's table of small ids (looked up by hash). */
static void test_large_metadata_ids(void)
{
	const char *path = tmp_path("bigmeta.nettrace");
	static const uint32_t use[] = { 1, 65535, 65536, 66000, 2 };
	struct nt_event_desc d = { .provider = "P", .name = "E", .level = 4 };
	struct nt_trace_info info;
	struct nt_read_event ev;
	struct nt_reader *r;
	struct nt_writer *w;
	uint32_t id = 0;
	int i;

	golden_info(&info);
	unlink(path);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	for (i = 0; i < 66000; i++) {
		d.event_id = (uint32_t)i;
		if (nt_writer__define(w, &d, &id))
			break;
	}
	ASSERT_EQ(id, 66000, "ids defined");
	for (i = 0; i < 5; i++)
		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = use[i],
			.timestamp = 2000000000 + i, .thread_id = 1, .capture_thread_id = 1,
			.payload = "x", .payload_size = 1 });
	ASSERT_OK(nt_writer__close(w, NULL, 2000000010), "close");
	r = nt_reader__open(path, NULL);
	for (i = 0; i < 5; i++) {
		if (!ASSERT_EQ(nt_reader__next(r, &ev), 1, "event"))
			break;
		ASSERT_EQ(ev.meta->id, use[i], "metadata id");
		ASSERT_EQ(ev.meta->event_id, use[i] - 1, "its definition");
	}
	ASSERT_EQ(nt_reader__next(r, &ev), 0, "clean end");
	nt_reader__close(r);
	unlink(path);
}

/* Metadata is kept decoded for the whole trace: more than 8 MiB of it (a
 * hostile file, real ones hold a few hundred KiB) stops the reader. */
static void test_metadata_bounded(void)
{
	const char *path = tmp_path("hugemeta.nettrace");
	static char name[2001];
	struct nt_event_desc d = { .provider = "P", .name = name, .level = 4 };
	struct nt_trace_info info;
	struct nt_read_event ev;
	struct nt_reader *r;
	struct nt_writer *w;
	uint32_t id = 0;
	int i;

	memset(name, 'N', sizeof(name) - 1);
	golden_info(&info);
	unlink(path);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	for (i = 0; i < 2500; i++) {	/* ~4 KiB each: ~10 MiB */
		d.event_id = (uint32_t)i;
		if (!ASSERT_OK(nt_writer__define(w, &d, &id), "define"))
			break;
	}
	ASSERT_OK(nt_writer__close(w, NULL, 2000000010), "close");
	r = nt_reader__open(path, NULL);
	if (!ASSERT_OK_PTR(r, "reader"))
		return;
	ASSERT_EQ(nt_reader__next(r, &ev), -1, "refused");
	ASSERT_TRUE(nt_reader__error(r) &&
		    strstr(nt_reader__error(r), ": metadata records take more than 8 MiB (refused)"),
		    "why");
	nt_reader__close(r);
	unlink(path);
}

static void test_uncompressed_headers(void)
{
	struct nt_buf f = { 0 }, c = { 0 }, sp = { 0 };
	struct nt_read_event ev;
	struct nt_reader *r;

	/* the golden file's header, metadata and stack blocks */
	nt_buf__bytes(&f, golden, 0x141);
	nt_buf__reserve(&c, 20);
	nt_put_u16(&c, 20);
	nt_put_u16(&c, 0);		/* no header compression */
	nt_put_u64(&c, 10);
	nt_put_u64(&c, 20);
	put_uncompressed(&c, 1, 1, 10, 4);
	put_uncompressed(&c, 1 | 0x80000000u, 2, 20, 5);
	append_block(&f, "EventBlock", &c);
	nt_buf__reserve(&sp, 24);
	nt_put_u64(&sp, 20);
	nt_put_u32(&sp, 1);
	nt_put_u64(&sp, 100);
	nt_put_u32(&sp, 2);
	append_block(&f, "SPBlock", &sp);
	nt_buf__reserve(&f, 1);
	nt_put_u8(&f, 1);

	r = nt_reader__open_mem(f.data, f.len, NULL);
	if (ASSERT_EQ(nt_reader__next(r, &ev), 1, "event 1")) {
		ASSERT_EQ(ev.sequence, 1, "seq");
		ASSERT_EQ(ev.thread_id, 101, "thread");
		ASSERT_EQ(ev.capture_thread_id, 100, "capture");
		ASSERT_EQ(ev.processor, 3, "proc");
		ASSERT_EQ(ev.stack_depth, 2, "stack");
		ASSERT_EQ(ev.timestamp, 10, "ts");
		ASSERT_EQ(ev.activity_id[15], 0xAA, "activity");
		ASSERT_TRUE(ev.sorted, "high bit clear = sorted");
		ASSERT_EQ(ev.payload_size, 4, "payload");
	}
	if (ASSERT_EQ(nt_reader__next(r, &ev), 1, "event 2")) {
		ASSERT_EQ(ev.meta->id, 1, "meta id without the high bit");
		ASSERT_FALSE(ev.sorted, "high bit set = not sorted");
		ASSERT_EQ(ev.payload_size, 5, "payload 5 + 3 padding");
		ASSERT_EQ(ev.payload[4], 5, "payload byte");
	}
	ASSERT_EQ(nt_reader__next(r, &ev), 0, "clean end");
	ASSERT_EQ(nt_reader__lost(r), 0, "lost");
	nt_reader__close(r);
	nt_buf__free(&f);
	nt_buf__free(&c);
	nt_buf__free(&sp);
}

/* ------------------------------------------------------------ V6 */

/* docs/nettrace-format.md section 12.4: the minimal V6 file (325 bytes), with its
 * placeholders filled in from the section 9 file (same sample). */
static void v6_golden(struct nt_buf *b)
{
	static const char *const kv[] = { "ProcessId", "4242", "HardwareThreadCount", "8",
					  "ExpectedCPUSamplingRate", "1000000" };
	static const uint8_t threads[] = { 0x10, 0, 0, 6, 6, 0, 1, 2, 0x92, 0x21, 3, 0x64,
					   6, 0, 2, 2, 0x92, 0x21, 3, 0x65 };
	static const uint8_t ev[] = { 0xCF, 1, 0, 1, 0, 2, 1, 0x88, 0xBB, 0xEB, 0xDC, 3, 4,
				      2, 0, 0, 0 };
	static const char prov[] = "Microsoft-DotNETCore-SampleProfiler";

	nt_buf__reserve(b, 400);
	nt_put_bytes(b, "Nettrace", 8);
	nt_put_u32(b, 0);
	nt_put_u32(b, 6);
	nt_put_u32(b, 0);
	nt_put_u32(b, 0x6D | 1u << 24);			/* Trace block, 109 bytes */
	nt_put_bytes(b, golden + 0x35, 16);		/* SYSTEMTIME */
	nt_put_u64(b, 1000000000);
	nt_put_u64(b, 1000000000);
	nt_put_u32(b, 8);
	nt_put_u32(b, 3);
	for (int i = 0; i < 6; i++) {
		nt_put_u8(b, strlen(kv[i]));
		nt_put_bytes(b, kv[i], strlen(kv[i]));
	}
	nt_put_bytes(b, threads, sizeof(threads));	/* at 0x85 */
	nt_put_u32(b, 0x45 | 3u << 24);			/* Metadata block at 0x99 */
	nt_put_u16(b, 0);
	nt_put_u16(b, 0x41);
	nt_put_u8(b, 1);
	nt_put_u8(b, 35);
	nt_put_bytes(b, prov, 35);
	nt_put_u8(b, 0);
	nt_put_u8(b, 12);
	nt_put_bytes(b, "ThreadSample", 12);
	nt_put_bytes(b, "\x01\x00\x06\x00\x04Type\x09\x02\x00\x08\x04", 14);
	nt_put_u32(b, 0x1C | 5u << 24);			/* Stack block at 0xE2 */
	nt_put_bytes(b, golden + 0x124, 28);
	nt_put_u32(b, 0x25 | 2u << 24);			/* Event block at 0x102 */
	nt_put_u16(b, 20);
	nt_put_u16(b, 1);
	nt_put_u64(b, 1000005000);
	nt_put_u64(b, 1000005000);
	nt_put_bytes(b, ev, sizeof(ev));
	nt_put_u32(b, 0x12 | 4u << 24);			/* SequencePoint at 0x12B */
	nt_put_u64(b, 1000005001);
	nt_put_u32(b, 0);
	nt_put_u32(b, 1);
	nt_put_u8(b, 1);
	nt_put_u8(b, 1);
	nt_put_u32(b, 0);				/* EndOfStream at 0x141 */
}

static void test_v6_read(void)
{
	struct nt_buf b = { 0 };
	struct nt_read_event ev;
	struct nt_reader *r;
	const struct nt_trace_info *info;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;

	v6_golden(&b);
	ASSERT_EQ(b.len, 325, "section 12.4 size");
	r = nt_reader__open_mem(b.data, b.len, NULL);
	info = nt_reader__info(r);
	ASSERT_EQ(info->pid, 4242, "pid from ProcessId");
	ASSERT_EQ(info->ncpu, 8, "HardwareThreadCount");
	ASSERT_EQ(info->sampling_interval_ns, 1000000, "rate");
	ASSERT_EQ(info->sync_utc.tv_sec, 1736942400, "sync time");
	if (ASSERT_EQ(nt_reader__next(r, &ev), 1, "event")) {
		ASSERT_STREQ(ev.meta->provider, "Microsoft-DotNETCore-SampleProfiler", "provider");
		ASSERT_STREQ(ev.meta->name, "ThreadSample", "name");
		ASSERT_EQ(ev.meta->level, 4, "level from optional metadata");
		ASSERT_EQ(ev.thread_id, 101, "thread index 2 -> tid 101");
		ASSERT_EQ(ev.capture_thread_id, 100, "capture index 1 -> tid 100");
		ASSERT_EQ(ev.sequence, 1, "seq");
		ASSERT_EQ(ev.stack_depth, 2, "stack");
		ASSERT_EQ(ev.stack[0], 0x7F0012345678LL, "leaf");
		ASSERT_EQ(ev.timestamp, 1000005000, "ts");
		f = open_memstream(&out, &outlen);
		ASSERT_OK(nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f), "json");
		fclose(f);
		ASSERT_STREQ(out, "{\"Type\":2}", "fields");
	}
	ASSERT_EQ(nt_reader__next(r, &ev), 0, "clean end");
	ASSERT_TRUE(nt_reader__error(r) == NULL, "no error");
	nt_reader__close(r);

	/* every cut: no crash; the event only once its block is whole */
	for (size_t c = 0; c < b.len; c++) {
		uint8_t *cut = malloc(c ? c : 1);
		int rc, n = 0;

		memcpy(cut, b.data, c);
		r = nt_reader__open_mem(cut, c, NULL);
		while ((rc = nt_reader__next(r, &ev)) == 1)
			n++;
		if (!ASSERT_EQ(rc, -1, "cut is an error") ||
		    !ASSERT_EQ(n, c >= 0x12B ? 1 : 0, "event count at cut")) {
			printf("#   cut at %zu\n", c);
			c = b.len;
		}
		nt_reader__close(r);
		free(cut);
	}
	/* no Thread block: the event's thread indexes are undefined */
	b.data[0x88] = 0x7f;	/* the Thread block becomes a (skipped) unknown kind */
	r = nt_reader__open_mem(b.data, b.len, NULL);
	ASSERT_EQ(nt_reader__next(r, &ev), -1, "undefined thread");
	ASSERT_STREQ(nt_reader__error(r), "offset 282: event uses thread index 2/1 not defined "
		     "by a Thread block", "reason");
	nt_reader__close(r);
	free(out);
	nt_buf__free(&b);
}

/* V6 RemoveThread (final sequence numbers count losses), thread index reuse,
 * SequencePoint flag 1 (thread table flushed). */
static void test_v6_threads(void)
{
	struct nt_buf b = { 0 };
	struct nt_read_event ev;
	struct nt_reader *r;

	v6_golden(&b);
	b.len -= 4;				/* drop EndOfStream */
	nt_buf__reserve(&b, 128);
	nt_put_u32(&b, 2 | 7u << 24);		/* RemoveThread: index 1 ended at seq 5 */
	nt_put_varint(&b, 1);
	nt_put_varint(&b, 5);
	nt_put_u32(&b, 6 | 6u << 24);		/* Thread: index 1 is now tid 300 */
	nt_put_u16(&b, 4);
	nt_put_varint(&b, 1);
	nt_put_u8(&b, 3);
	nt_put_varint(&b, 300);
	nt_put_u32(&b, (20 + 13) | 2u << 24);	/* Event on index 1, seq 1 */
	nt_put_u16(&b, 20);
	nt_put_u16(&b, 1);
	nt_put_u64(&b, 1000006000);
	nt_put_u64(&b, 1000006000);
	nt_put_u8(&b, 0xC7);
	nt_put_varint(&b, 1);			/* metadata */
	nt_put_varint(&b, 0);			/* seq 0 + 0 + 1 */
	nt_put_varint(&b, 1);			/* capture index */
	nt_put_varint(&b, 0);			/* processor */
	nt_put_varint(&b, 1);			/* thread index */
	nt_put_varint(&b, 1000006000);		/* 5 bytes */
	nt_put_varint(&b, 1);			/* payload size */
	nt_put_u8(&b, 1);
	nt_put_u32(&b, 18 | 4u << 24);		/* SP, flag 1: forget threads */
	nt_put_u64(&b, 1000006001);
	nt_put_u32(&b, 1);
	nt_put_u32(&b, 1);
	nt_put_varint(&b, 1);
	nt_put_varint(&b, 1);
	nt_put_u32(&b, 33 | 2u << 24);		/* Event on index 1 again: undefined */
	nt_put_u16(&b, 20);
	nt_put_u16(&b, 1);
	nt_put_u64(&b, 0);
	nt_put_u64(&b, 0);
	nt_put_bytes(&b, b.data + b.len - 20 - 4 - 18 - 4 - 13, 13);
	nt_put_u32(&b, 0);

	r = nt_reader__open_mem(b.data, b.len, NULL);
	ASSERT_EQ(nt_reader__next(r, &ev), 1, "first event");
	if (ASSERT_EQ(nt_reader__next(r, &ev), 1, "event on the reused index")) {
		ASSERT_EQ(ev.thread_id, 300, "tid");
		ASSERT_EQ(ev.capture_thread_id, 300, "capture tid");
		ASSERT_EQ(ev.sequence, 1, "seq");
		ASSERT_EQ(ev.payload_size, 1, "payload");
	}
	ASSERT_EQ(nt_reader__lost(r), 4, "seq 2..5 of the removed thread lost");
	ASSERT_EQ(nt_reader__next(r, &ev), -1, "index forgotten at the SP");
	ASSERT_TRUE(nt_reader__error(r) &&
		    strstr(nt_reader__error(r), "thread index 1/1 not defined"), "reason");
	nt_reader__close(r);
	nt_buf__free(&b);
}

/* ------------------------------------------------------------ I/O failures */

/* In a child: files may grow to `limit` bytes (then writes fail with
 * EFBIG, as on a full disk); open a writer on path.  NULL if even the
 * stream header does not fit. */
static struct nt_writer *open_limited(const char *path, rlim_t limit)
{
	struct rlimit rl = { limit, limit };
	struct nt_trace_info info;

	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &rl);
	golden_info(&info);
	return open_writer(path, &info);
}

static void test_write_error_removes_file(void)
{
	const char *path = tmp_path("efbig.nettrace");
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		struct nt_writer *w = open_limited(path, 200000);
		uint8_t payload[200] = { 0 };
		uint32_t id;
		int err = 0, i;

		if (!w)
			_exit(10);
		nt_writer__define(w, &sample_desc, &id);
		for (i = 0; i < 100000 && !err; i++)
			err = nt_writer__write_event(w, &(struct nt_event){
				.metadata_id = id, .timestamp = i, .payload = payload,
				.payload_size = sizeof(payload) });
		if (err != -EFBIG)
			_exit(11);
		if (nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id }) != -EFBIG)
			_exit(12);	/* sticky */
		if (nt_writer__close(w, NULL, 0) != -EFBIG)
			_exit(13);
		_exit(access(path, F_OK) == 0 ? 14 : 0);
	}
	waitpid(pid, &status, 0);
	ASSERT_TRUE(WIFEXITED(status), "child exited");
	ASSERT_EQ(WEXITSTATUS(status), 0, "EFBIG returned, sticky, file removed");
}

/*
 * Write the same event stream (3 capture threads, stacks, a lost-event gap)
 * under RLIMIT_FSIZE = limit in a child, until the writer fails, then
 * nt_writer__finish with salvage.  Returns the child's struct nt_salvage
 * (kept = -1 when the child did not get that far).
 */
static struct nt_salvage write_until_full(const char *path, rlim_t limit)
{
	struct nt_salvage res = { .kept = -1 };
	int fds[2], status;
	pid_t pid;

	unlink(path);
	if (pipe(fds))
		return res;
	pid = fork();
	if (pid == 0) {
		struct nt_writer *w = open_limited(path, limit);
		struct nt_salvage sv = { .kept = -1 };
		uint8_t payload[150] = { 0 };
		uint64_t stack[4] = { 0x1000, 0x2000, 0x3000, 0x4000 };
		uint32_t id;
		int err = 0, i;

		if (!w)
			sv.kept = -3;	/* not even the header fitted */
		if (w && !nt_writer__define(w, &sample_desc, &id)) {
			for (i = 0; i < 100000 && !err; i++) {
				stack[0] = 0x1000 + i % 50;
				err = nt_writer__write_event(w, &(struct nt_event){
					.metadata_id = id, .timestamp = 10 + i, .thread_id = i % 3,
					.capture_thread_id = i % 3, .payload = payload,
					.payload_size = sizeof(payload) - i % 7, .stack = stack,
					.stack_depth = 1 + i % 4 });
				if (i == 500)
					nt_writer__note_lost(w, 1, 2);
			}
			if (nt_writer__finish(w, NULL, 0, &sv) != -EFBIG)
				sv.kept = -2;
		}
		if (write(fds[1], &sv, sizeof(sv)) != sizeof(sv))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &res, sizeof(res)) != sizeof(res))
		res.kept = -1;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return res;
}

/* Read a salvaged file back: events, lost, and whether it is complete. */
static int read_back(const char *path, uint64_t *events, uint64_t *lost, uint64_t *err_off)
{
	struct nt_read_event ev;
	struct nt_reader *r = nt_reader__open(path, NULL);
	int rc;

	*events = 0;
	if (!r)
		return -2;
	while ((rc = nt_reader__next(r, &ev)) == 1)
		(*events)++;
	*lost = nt_reader__lost(r);
	*err_off = rc < 0 ? nt_reader__error_offset(r) : 0;
	nt_reader__close(r);
	return rc;
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

/* A full file system (ENOSPC, EDQUOT, EFBIG; EFBIG here) keeps what fits. */
static void test_full_disk_keeps_what_fits(void)
{
	const char *path = tmp_path("full.nettrace");
	struct nt_salvage a, b, c;
	uint64_t events, lost, off;
	rlim_t limit;
	int rc, finalized = 0;

	/* with room for the closing sequence point: a complete trace whose
	 * readers count every event that did not fit as lost */
	a = write_until_full(path, 150000);
	if (!ASSERT_EQ(a.kept, 1, "kept") || !ASSERT_EQ(a.finalized, 1, "finalized"))
		return;
	ASSERT_EQ(file_size(path), a.bytes, "size");
	ASSERT_TRUE(a.bytes <= 150000 && a.events > 0 && a.lost > 0, "some events fit, some not");
	rc = read_back(path, &events, &lost, &off);
	ASSERT_EQ(rc, 0, "complete");
	ASSERT_EQ(events, a.events, "events in the file");
	ASSERT_EQ(lost, a.lost + 2, "lost = what did not fit + the gap noted");

	/* one byte short of that: the file ends at its last whole block */
	b = write_until_full(path, a.bytes - 1);
	ASSERT_EQ(b.kept, 1, "kept, short");
	ASSERT_EQ(b.finalized, 0, "not finalized");
	ASSERT_EQ(b.events, a.events, "same events");
	ASSERT_TRUE(b.bytes < a.bytes, "cut back");
	ASSERT_EQ(file_size(path), b.bytes, "size, short");
	rc = read_back(path, &events, &lost, &off);
	ASSERT_EQ(rc, -1, "truncated");
	ASSERT_EQ(events, b.events, "every whole block read");
	ASSERT_EQ(off, b.bytes, "truncation at the cut");

	/* exactly enough */
	c = write_until_full(path, a.bytes);
	ASSERT_TRUE(c.kept == 1 && c.finalized == 1 && c.bytes == a.bytes, "exact fit");

	/* any limit: the file is kept and reads to the events it says it has */
	for (limit = 1000; limit < 400000; limit += 9973) {
		char what[64];

		c = write_until_full(path, limit);
		snprintf(what, sizeof(what), "limit %llu", (unsigned long long)limit);
		if (c.kept == -3) {	/* not even the header fitted: no file */
			ASSERT_TRUE(access(path, F_OK) != 0, what);
			continue;
		}
		if (!ASSERT_EQ(c.kept, 1, what))
			break;
		finalized += c.finalized;
		rc = read_back(path, &events, &lost, &off);
		ASSERT_TRUE(events == c.events && rc == (c.finalized ? 0 : -1) &&
			    file_size(path) == c.bytes && c.bytes <= limit, what);
	}
	printf("# full at 150000 bytes: %llu events kept, %llu did not fit, %llu bytes; "
	       "%d of 41 limits left a complete trace\n", (unsigned long long)a.events,
	       (unsigned long long)a.lost, (unsigned long long)a.bytes, finalized);
	ASSERT_GE(finalized, 30, "most limits leave a complete trace");
	unlink(path);
}

static void test_abort_and_excl(void)
{
	const char *path = tmp_path("abort.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;

	golden_info(&info);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	ASSERT_TRUE(open_writer(path, &info) == NULL && errno == EEXIST, "O_EXCL");
	nt_writer__abort(w);
	ASSERT_TRUE(access(path, F_OK) != 0, "abort unlinks");
	nt_writer__abort(NULL);
	ASSERT_TRUE(open_writer(tmp_path("no/such/dir"), &info) == NULL && errno == ENOENT,
		    "ENOENT");
	ASSERT_TRUE(nt_reader__open(tmp_path("missing"), NULL) == NULL && errno == ENOENT,
		    "reader ENOENT");
}

/* Read path to its end: the number of events, or -1 if the file is not a
 * complete trace. */
static long count_complete(const char *path)
{
	struct nt_reader *r = nt_reader__open(path, NULL);
	struct nt_read_event ev;
	long n = 0;
	int rc;

	while ((rc = nt_reader__next(r, &ev)) == 1)
		n++;
	nt_reader__close(r);
	return rc == 0 ? n : -1;
}

/*
 * A writer that is killed between flushes leaves a complete trace: every
 * flush ends the file with a sequence point and the end-of-stream byte,
 * which the next block overwrites.
 */
static void test_killed_writer(void)
{
	const char *path = tmp_path("killed.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;
	uint8_t payload[64] = { 0 };
	uint64_t stack[3] = { 1, 2, 3 };
	uint32_t id;

	golden_info(&info);
	w = open_writer(path, &info);
	nt_writer__define(w, &sample_desc, &id);
	for (int i = 0; i < 5000; i++)
		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id, .timestamp = i,
			.payload = payload, .payload_size = 64, .stack = stack,
			.stack_depth = i % 3 });
	ASSERT_OK(nt_writer__flush(w), "flush");
	for (int i = 0; i < 10; i++)
		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
							      .timestamp = 6000 + i });
	ASSERT_EQ(count_complete(path), 5000, "complete, every flushed event");
	ASSERT_OK(nt_writer__flush(w), "second flush");
	ASSERT_EQ(count_complete(path), 5010, "complete again, the marker overwritten");
	for (int i = 0; i < 3; i++)
		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
							      .timestamp = 7000 + i });
	ASSERT_OK(nt_writer__close(w, NULL, 7002), "close");
	ASSERT_EQ(count_complete(path), 5013, "closed: every event, one end marker");
}

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/*
 * Memory does not grow with the trace: write 256 MB of events with (almost)
 * all-distinct stacks; the heap in use after the first 32 MB (stack table
 * full, several forced sequence points) bounds it for the remaining 224 MB.
 */
/* Resident set of this process (file pages mapped by the reader count). */
static size_t rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	size_t kib = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %zu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

/* Reading a big mapped trace: the pages read are dropped as the reader goes,
 * so the resident set does not grow with the file. */
static void reader_rss_bounded(const char *path)
{
	struct nt_reader *r = nt_reader__open(path, NULL);
	struct nt_read_event ev;
	size_t base = rss_kib(), peak = 0;
	uint64_t n = 0;
	int rc;

	if (!ASSERT_OK_PTR(r, "open for reading"))
		return;
	while ((rc = nt_reader__next(r, &ev)) == 1)
		if (++n % 65536 == 0) {
			size_t k = rss_kib() - base;

			peak = k > peak ? k : peak;
		}
	ASSERT_EQ(rc, 0, "read to the end");
	printf("# reading it back (%" PRIu64 " events, mapped): RSS peak +%zu KiB\n", n, peak);
	ASSERT_TRUE(peak < (64u << 10), "reader RSS under 64 MiB");
	nt_reader__close(r);
}

static void test_bounded_memory(void)
{
	const char *path = tmp_path("big.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;
	uint8_t payload[200];
	uint64_t stack[16];
	size_t base = heap_in_use(), peak_early = 0, peak_late = 0;
	uint32_t id;
	int err = 0;

	for (int i = 0; i < 200; i++)
		payload[i] = i;
	golden_info(&info);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	nt_writer__define(w, &sample_desc, &id);
	for (uint64_t i = 0; nt_writer__bytes(w) < (256ULL << 20) && !err; i++) {
		for (int k = 0; k < 16; k++)
			stack[k] = (i * 16 + k) % 1000003;	/* ~all distinct */
		err = nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
			.timestamp = i, .capture_thread_id = i % 64, .payload = payload,
			.payload_size = 100 + i % 100, .stack = stack, .stack_depth = 16 });
		if (i % 1024 == 0) {
			size_t h = heap_in_use() - base;

			if (nt_writer__bytes(w) < (32ULL << 20))
				peak_early = h > peak_early ? h : peak_early;
			else
				peak_late = h > peak_late ? h : peak_late;
		}
	}
	ASSERT_OK(err, "write");
	printf("# 256 MB trace: writer heap peak %zu KiB in the first 32 MB, %zu KiB after\n",
	       peak_early >> 10, peak_late >> 10);
	ASSERT_TRUE(peak_late <= peak_early + (256 << 10), "no growth after 32 MB");
	ASSERT_TRUE(peak_late < (24u << 20), "under 24 MiB");
	if (ASSERT_OK(nt_writer__close(w, NULL, 0), "close"))
		reader_rss_bounded(path);
	unlink(path);
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_nettrace.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_golden_write);
	RUN(test_golden_read);
	RUN(test_section_4_4);
	RUN(test_roundtrip_random);
	RUN(test_roundtrip_big);
	RUN(test_many_distinct_stacks);
	RUN(test_stacks_one_frame_apart);
	RUN(test_payload_json);
	RUN(test_json_budget);
	RUN(test_define_manifest);
	RUN(test_loss_summary);
	RUN(test_cut_every_offset);
	RUN(test_corrupt_every_byte);
	RUN(test_validity_checks);
	RUN(test_uncompressed_headers);
	RUN(test_sparse_stack_ids);
	RUN(test_large_metadata_ids);
	RUN(test_metadata_bounded);
	RUN(test_v6_read);
	RUN(test_v6_threads);
	RUN(test_write_error_removes_file);
	RUN(test_full_disk_keeps_what_fits);
	RUN(test_abort_and_excl);
	RUN(test_killed_writer);
	RUN(test_bounded_memory);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", tmpdir);
	}
	return test_summary();
}
