// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_nettrace_v6.c - the NetTrace V6 writer through our reader: events of
 * three processes whose thread ids overlap (each (pid, tid) is its own
 * thread index), metadata with every field kind, a native runtime event,
 * stacks and activity ids across sequence points, loss gaps per capture
 * thread, the file on disk after a flush, a full file system, V5 output
 * unchanged by the new fields, and bytes after the end of a V6 or V5 trace
 * told alike by every way of reading it.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "nettrace.h"
#include "nettrace_bytes.h"
#include "own_events.h"
#include "hash.h"

/* A writer as the collector opens one, with its lost marker
 * (collector/pipeline/own_events.c): the loss tests count its events. */
static struct nt_writer *open_writer(const char *path, const struct nt_trace_info *info)
{
	struct nt_writer *w = nt_writer__open(path, info);

	if (w)
		nt_writer__set_lost_marker(w, &own_events_lost);
	return w;
}

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

/* The traces are megabytes (the killed writer's above all): not left behind. */
static void rm_tmpdir(void)
{
	static const char *const names[] = {
		"v6.nettrace", "json5.nettrace", "json6.nettrace", "lost.nettrace",
		"latest.nettrace", "killed6.nettrace", "sigkill6.nettrace", "full6.nettrace",
		"f0.nettrace", "f5.nettrace", "bad.nettrace", "tail5.nettrace", "tail6.nettrace",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		tmp_path(names[i]);	/* unlinks it */
	rmdir(tmpdir);
}

static void v6_info(struct nt_trace_info *info, uint32_t format)
{
	memset(info, 0, sizeof(*info));
	info->sync_utc.tv_sec = 1736942400;
	info->sync_ts = 1000000000;
	info->freq = 1000000000;
	info->pointer_size = 8;
	info->pid = 4242;
	info->ncpu = 8;
	info->sampling_interval_ns = 1000000;
	info->format = format;
}

/* ------------------------------------------------------------ event kinds */

static const struct nt_field_desc obj_members[] = {
	{ .name = "Code", .type = NT_TYPE_UINT16 },
	{ .name = "Text", .type = NT_TYPE_STRING },
};

static const struct nt_field_desc all_fields[] = {
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
	{ .name = "Dec", .type = NT_TYPE_DECIMAL },
	{ .name = "Time", .type = NT_TYPE_DATETIME },
	{ .name = "Id", .type = NT_TYPE_GUID },
	{ .name = "Name", .type = NT_TYPE_STRING },
	{ .name = "Values", .type = NT_TYPE_ARRAY, .elem_type = NT_TYPE_UINT32 },
	{ .name = "Pair", .type = NT_TYPE_OBJECT, .members = obj_members, .n_members = 2 },
	{ .name = "Pairs", .type = NT_TYPE_ARRAY, .elem_type = NT_TYPE_OBJECT,
	  .members = obj_members, .n_members = 2 },
};

static const struct nt_event_desc all_desc = {
	.provider = "Test-AllKinds", .event_id = 7, .name = "Everything",
	.keywords = 0x8000000000000001ULL, .version = 3, .level = 5, .opcode = 11,
	.fields = all_fields, .n_fields = sizeof(all_fields) / sizeof(all_fields[0]),
};

/* native: empty name, no fields; TraceEvent knows the layout (GCStart_V2) */
static const struct nt_event_desc gc_desc = {
	.provider = "Microsoft-Windows-DotNETRuntime", .event_id = 1, .name = "",
	.keywords = 1, .version = 2, .level = 4, .opcode = 1,
};

static void put_utf16(struct nt_buf *b, const char *s)
{
	nt_buf__utf16(b, s);
}

/* A payload matching all_fields; seed varies the values. */
static void all_payload(struct nt_buf *b, uint32_t seed)
{
	uint8_t guid[16];

	nt_buf__reserve(b, 256);
	nt_put_u32(b, seed & 1);
	nt_put_u16(b, 'A' + seed % 26);
	nt_put_u8(b, (uint8_t)-3);
	nt_put_u8(b, 200);
	nt_put_u16(b, (uint16_t)-1234);
	nt_put_u16(b, 65000);
	nt_put_u32(b, (uint32_t)-100000);
	nt_put_u32(b, seed);
	nt_put_u64(b, (uint64_t)-5000000000LL);
	nt_put_u64(b, 0x123456789abcdefULL + seed);
	nt_put_u32(b, 0x3fc00000);		/* 1.5f */
	nt_put_u64(b, 0x4004000000000000ULL);	/* 2.5 */
	for (int i = 0; i < 16; i++)
		nt_put_u8(b, i == 0 ? 7 : 0);	/* decimal */
	nt_put_u64(b, 133000000000000000ULL);
	for (int i = 0; i < 16; i++)
		guid[i] = i + seed;
	nt_put_bytes(b, guid, 16);
	put_utf16(b, seed % 2 ? "héllo" : "world");
	nt_buf__reserve(b, 64);
	nt_put_u16(b, 3);
	for (int i = 0; i < 3; i++)
		nt_put_u32(b, seed * 10 + i);
	nt_put_u16(b, 42);
	put_utf16(b, "pair");
	nt_buf__reserve(b, 2);
	nt_put_u16(b, 2);
	for (int i = 0; i < 2; i++) {
		nt_buf__reserve(b, 2);
		nt_put_u16(b, i);
		put_utf16(b, i ? "b" : "a");
	}
}

static void gc_payload(struct nt_buf *b, uint32_t seed)
{
	nt_buf__reserve(b, 26);
	nt_put_u32(b, seed);		/* Count */
	nt_put_u32(b, 2);		/* Depth */
	nt_put_u32(b, 1);		/* Reason */
	nt_put_u32(b, 0);		/* Type */
	nt_put_u16(b, 9);		/* ClrInstanceID */
	nt_put_u64(b, 1000 + seed);	/* ClientSequenceNumber */
}

/* ------------------------------------------------------------ round trip */

#define N_EV 120
static const uint32_t pids[3] = { 1001, 2002, 3003 };

struct expect {
	uint32_t pid, meta;
	uint64_t tid, capture;
	uint32_t processor, depth, lost_before;
	uint64_t ts, stack[6];
	uint8_t act[16], rel[16];
	struct nt_buf payload;
};

static void make_event(struct expect *x, int i, const uint32_t ids[2])
{
	memset(x, 0, sizeof(*x));
	x->pid = pids[i % 3];
	x->tid = 10 + (i / 3) % 3;		/* the same tids in every process */
	x->capture = i % 5 ? x->tid : 99;	/* some events captured by another thread */
	x->processor = i % 4;
	x->ts = 2000000000ULL + i * 10;
	x->meta = ids[i % 2];
	if (i % 2)
		gc_payload(&x->payload, i);
	else
		all_payload(&x->payload, i);
	x->depth = i % 3 ? 1 + i % 6 : 0;
	for (uint32_t k = 0; k < x->depth; k++)
		x->stack[k] = 0x7f0000001000ULL + 16 * k + (i % 4);
	if (i % 4 == 1)
		memset(x->act, 1 + (i / 4) % 3, 16);	/* three distinct activities */
	if (i % 8 == 1)
		memset(x->rel, 0xa0 + i % 2, 16);
}

static int write_expected(struct nt_writer *w, const struct expect *x)
{
	static const uint8_t zero[16];

	return nt_writer__write_event(w, &(struct nt_event){
		.metadata_id = x->meta, .timestamp = x->ts, .thread_id = x->tid,
		.capture_thread_id = x->capture, .processor = x->processor, .pid = x->pid,
		.activity_id = memcmp(x->act, zero, 16) ? x->act : NULL,
		.related_activity_id = memcmp(x->rel, zero, 16) ? x->rel : NULL,
		.payload = x->payload.data, .payload_size = x->payload.len,
		.stack = x->depth ? x->stack : NULL, .stack_depth = x->depth });
}

static int check_event(const struct nt_read_event *ev, const struct expect *x, int i)
{
	char what[64];
	int ok = 1;

	snprintf(what, sizeof(what), "event %d", i);
	ok &= ASSERT_EQ(ev->pid, x->pid, what);
	ok &= ASSERT_EQ(ev->thread_id, x->tid, what);
	ok &= ASSERT_EQ(ev->capture_thread_id, x->capture, what);
	ok &= ASSERT_EQ(ev->processor, x->processor, what);
	ok &= ASSERT_EQ(ev->timestamp, x->ts, what);
	ok &= ASSERT_EQ(ev->lost_before, x->lost_before, what);
	ok &= ASSERT_EQ(ev->payload_size, x->payload.len, what);
	ok &= ASSERT_MEMEQ(ev->payload, x->payload.data, x->payload.len, what);
	ok &= ASSERT_EQ(ev->stack_depth, x->depth, what);
	if (ev->stack_depth == x->depth)
		ok &= ASSERT_MEMEQ(ev->stack, x->stack, x->depth * 8, what);
	ok &= ASSERT_MEMEQ(ev->activity_id, x->act, 16, what);
	ok &= ASSERT_MEMEQ(ev->related_activity_id, x->rel, 16, what);
	return ok;
}

static void check_metadata(const struct nt_metadata *m)
{
	if (!strcmp(m->provider, "Microsoft-Windows-DotNETRuntime")) {
		ASSERT_EQ(m->event_id, 1, "GCStart id");
		ASSERT_EQ(m->version, 2, "GCStart version");
		ASSERT_STREQ(m->name, "", "native: no name");
		ASSERT_EQ(m->n_fields, 0, "native: no fields");
		ASSERT_EQ(m->keywords, 1, "GCStart keywords");
		return;
	}
	ASSERT_STREQ(m->provider, "Test-AllKinds", "provider");
	ASSERT_STREQ(m->name, "Everything", "name");
	ASSERT_EQ(m->keywords, 0x8000000000000001ULL, "keywords");
	ASSERT_EQ(m->version, 3, "version");
	ASSERT_EQ(m->level, 5, "level");
	ASSERT_EQ(m->opcode, 11, "opcode");
	if (!ASSERT_EQ(m->n_fields, all_desc.n_fields, "fields"))
		return;
	for (uint32_t k = 0; k < m->n_fields; k++) {
		ASSERT_STREQ(m->fields[k].name, all_fields[k].name, "field name");
		ASSERT_EQ(m->fields[k].type, all_fields[k].type, "field type");
	}
	ASSERT_EQ(m->fields[16].elem_type, NT_TYPE_UINT32, "array element");
	ASSERT_EQ(m->fields[17].n_members, 2, "object members");
	ASSERT_EQ(m->fields[18].elem_type, NT_TYPE_OBJECT, "array of objects");
	ASSERT_EQ(m->fields[18].n_members, 2, "array of objects: members");
}

static uint64_t digest_event(uint64_t h, const struct nt_read_event *ev)
{
	h = hash_mix(h, ev->pid);
	h = hash_mix(h, ev->thread_id);
	h = hash_mix(h, ev->capture_thread_id);
	h = hash_mix(h, ev->timestamp);
	h = hash_mix(h, ev->lost_before);
	h = hash_bytes(ev->activity_id, 16, h);
	h = hash_bytes(ev->related_activity_id, 16, h);
	h = hash_bytes(ev->stack, ev->stack_depth * 8ull, h);
	return hash_bytes(ev->payload, ev->payload_size, h);
}

/* Every event of a file through the stream reader fed step bytes at a time
 * (step 0: the whole file at once with nt_reader__open_mem). */
static uint64_t digest_file(const uint8_t *buf, size_t len, size_t step, long *n)
{
	struct nt_reader *r = step ? nt_reader__open_stream(NULL) : nt_reader__open_mem(buf, len, NULL);
	struct nt_read_event ev;
	uint64_t h = 0;
	size_t off = 0;
	int rc;

	*n = 0;
	for (;;) {
		rc = nt_reader__next(r, &ev);
		if (rc == 1) {
			h = digest_event(h, &ev);
			++*n;
			continue;
		}
		if (rc != NT_READ_AGAIN)
			break;
		if (off == len) {
			nt_reader__feed_end(r);
			continue;
		}
		size_t k = len - off < step ? len - off : step;

		if (nt_reader__feed(r, buf + off, k))
			break;
		off += k;
	}
	nt_reader__close(r);
	if (rc != 0)
		*n = -1;
	return h;
}

static uint8_t *slurp(const char *path, size_t *len);

/* The stream reader (live sessions) gives the same V6 events, labels and
 * pids included, whatever the pieces. */
static void check_stream(const char *path)
{
	size_t len;
	uint8_t *buf = slurp(path, &len);
	long n0, n;
	uint64_t h0 = digest_file(buf, len, 0, &n0);

	for (size_t step = 1; step < 5000; step = step * 3 + 1) {
		uint64_t h = digest_file(buf, len, step, &n);

		if (!ASSERT_EQ(n, n0, "stream: events") || !ASSERT_TRUE(h == h0, "stream: same events"))
			printf("#   step %zu\n", step);
	}
	free(buf);
}

static void test_v6_roundtrip(void)
{
	static struct expect x[N_EV];
	const char *path = tmp_path("v6.nettrace");
	struct loss_summary loss = { .ringbuf_drops = 5 };
	struct loss_summary_event sev;
	struct nt_trace_info info;
	struct nt_read_event ev;
	struct nt_reader *r;
	struct nt_writer *w;
	uint32_t ids[2];
	int i, rc;

	v6_info(&info, 6);
	w = open_writer(path, &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	ASSERT_OK(nt_writer__define(w, &all_desc, &ids[0]), "define all kinds");
	ASSERT_OK(nt_writer__define(w, &gc_desc, &ids[1]), "define GCStart");
	{
		static uint8_t big[1 << 24];

		ASSERT_EQ(nt_writer__write_event(w, &(struct nt_event){ .metadata_id = ids[1],
			.timestamp = 2000000000ULL, .payload = big, .payload_size = sizeof(big) }),
			  -E2BIG, "an event bigger than a V6 block: refused, the trace goes on");
	}
	for (i = 0; i < N_EV; i++) {
		make_event(&x[i], i, ids);
		if (i == 61)	/* (2002, 10)'s next event, #64, follows a gap */
			ASSERT_OK(nt_writer__note_lost_pid(w, 2002, 10, 5), "note lost");
		if (i == 64)
			x[i].lost_before = 5;
		ASSERT_OK(write_expected(w, &x[i]), "write");
		if (i == 40 || i == 90)	/* sequence points: stacks, labels forgotten */
			ASSERT_OK(nt_writer__flush(w), "flush");
	}
	ASSERT_OK(nt_writer__close(w, loss_summary__event(&sev, &loss, w), 0), "close");

	r = nt_reader__open(path, NULL);
	if (!ASSERT_OK_PTR(r, "reader"))
		return;
	ASSERT_EQ(nt_reader__info(r)->format, 6, "read as V6");
	ASSERT_EQ(nt_reader__info(r)->pid, 4242, "ProcessId");
	ASSERT_EQ(nt_reader__info(r)->ncpu, 8, "HardwareThreadCount");
	for (i = 0; (rc = nt_reader__next(r, &ev)) == 1 && i < N_EV; i++) {
		check_metadata(ev.meta);
		if (!check_event(&ev, &x[i], i))
			break;
		if (ev.meta->n_fields) {
			FILE *f = fopen("/dev/null", "w");

			ASSERT_OK(nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f),
				  "payload decodes from the V6 metadata");
			fclose(f);
		}
	}
	ASSERT_EQ(i, N_EV, "every event");
	if (ASSERT_EQ(rc, 1, "the loss summary")) {
		ASSERT_STREQ(ev.meta->name, "LossSummary", "summary last");
		ASSERT_EQ(ev.pid, 4242, "summary: the trace's process");
		ASSERT_EQ(ev.thread_id, 0, "summary thread");
		rc = nt_reader__next(r, &ev);
	}
	ASSERT_EQ(rc, 0, "clean end");
	ASSERT_EQ(nt_reader__lost(r), 5, "the gap, once");
	ASSERT_EQ(nt_reader__thread_lost(r, 2002, 10), 5, "on its thread");
	ASSERT_EQ(nt_reader__thread_lost(r, 1001, 10), 0, "same tid, other process");
	ASSERT_EQ(nt_reader__thread_lost(r, 3003, 10), 0, "same tid, third process");
	nt_reader__close(r);
	check_stream(path);
	for (i = 0; i < N_EV; i++)
		nt_buf__free(&x[i].payload);
}

/*
 * The JSON of one payload of every kind, decoded from the V6 metadata: the
 * same text as from the V5 metadata of the same event.
 */
static char *first_json(const char *path)
{
	struct nt_reader *r = nt_reader__open(path, NULL);
	struct nt_read_event ev;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (r && nt_reader__next(r, &ev) == 1)
		nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f);
	fclose(f);
	nt_reader__close(r);
	return out;
}

static void test_v6_payload_json(void)
{
	const char *paths[2] = { tmp_path("json5.nettrace"), tmp_path("json6.nettrace") };
	char *json[2];

	for (int k = 0; k < 2; k++) {
		struct nt_trace_info info;
		struct nt_buf p = { 0 };
		struct nt_writer *w;
		uint32_t id;

		v6_info(&info, k ? 6 : 5);
		w = open_writer(paths[k], &info);
		nt_writer__define(w, &all_desc, &id);
		all_payload(&p, 3);
		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
			.timestamp = 2000000000ULL, .thread_id = 5, .capture_thread_id = 5,
			.payload = p.data, .payload_size = p.len });
		ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
		nt_buf__free(&p);
		json[k] = first_json(paths[k]);
	}
	ASSERT_TRUE(json[0] && strstr(json[0], "\"Pairs\":[{\"Code\":0,\"Text\":\"a\"}"),
		    "V5 JSON");
	ASSERT_STREQ(json[1], json[0], "V6 JSON = V5 JSON");
	free(json[0]);
	free(json[1]);
}

/* ------------------------------------------------------------ losses */

/* A thread that loses events before its first one gets an EventsLost
 * marker in its own process; note_lost without a pid takes the process of
 * the capture thread's last event. */
static void test_v6_lost_marker(void)
{
	const char *path = tmp_path("lost.nettrace");
	struct nt_trace_info info;
	struct nt_read_event ev;
	struct nt_reader *r;
	struct nt_writer *w;
	uint32_t id;
	int n = 0, rc;

	v6_info(&info, 6);
	w = open_writer(path, &info);
	nt_writer__define(w, &gc_desc, &id);
	ASSERT_OK(nt_writer__note_lost_pid(w, 777, 70, 3), "lost before any event");
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id, .pid = 888,
		.timestamp = 2000000000ULL, .thread_id = 70, .capture_thread_id = 70 });
	ASSERT_OK(nt_writer__note_lost(w, 70, 4), "lost, pid from the last event");
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id, .pid = 888,
		.timestamp = 2000000010ULL, .thread_id = 70, .capture_thread_id = 70 });
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");

	r = nt_reader__open(path, NULL);
	while ((rc = nt_reader__next(r, &ev)) == 1) {
		if (n == 0) {
			ASSERT_STREQ(ev.meta->name, "EventsLost", "marker first");
			ASSERT_EQ(ev.pid, 777, "marker in its process");
			ASSERT_EQ(ev.thread_id, 70, "marker thread");
		} else {
			ASSERT_EQ(ev.pid, 888, "pid");
			ASSERT_EQ(ev.lost_before, n == 1 ? 0 : 4, "gap per thread");
		}
		n++;
	}
	ASSERT_EQ(rc, 0, "clean end");
	ASSERT_EQ(n, 3, "marker + 2 events");
	ASSERT_EQ(nt_reader__lost(r), 3 + 4, "both gaps");
	ASSERT_EQ(nt_reader__thread_lost(r, 777, 70), 3, "gap after the marker");
	ASSERT_EQ(nt_reader__thread_lost(r, 888, 70), 4, "gap between events");
	ASSERT_EQ(nt_reader__thread_lost(r, 0, 70), 0, "tid 70 of the trace's process: none");
	nt_reader__close(r);
}

/* note_lost without a pid follows the capture thread's latest process, even
 * when the writer's one-thread lookup cache skips the map. */
static void test_v6_lost_latest_pid(void)
{
	static const struct { uint32_t pid; uint64_t tid, capture; } evs[] = {
		{ 500, 80, 80 }, { 500, 80, 80 }, { 600, 81, 80 }, { 500, 80, 80 },
	};
	const char *path = tmp_path("latest.nettrace");
	struct nt_trace_info info;
	struct nt_reader *r;
	struct nt_read_event ev;
	struct nt_writer *w;
	uint32_t id;

	v6_info(&info, 6);
	w = open_writer(path, &info);
	nt_writer__define(w, &gc_desc, &id);
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id, .pid = evs[i].pid,
			.timestamp = 2000000000ULL + i, .thread_id = evs[i].tid,
			.capture_thread_id = evs[i].capture });
	ASSERT_OK(nt_writer__note_lost(w, 80, 2), "lost");
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
	r = nt_reader__open(path, NULL);
	while (nt_reader__next(r, &ev) == 1)
		;
	ASSERT_EQ(nt_reader__thread_lost(r, 500, 80), 2, "charged to (500, 80)");
	ASSERT_EQ(nt_reader__thread_lost(r, 600, 80), 0, "not to (600, 80)");
	nt_reader__close(r);
}

/* ------------------------------------------------------------ on disk */

static long count_complete(const char *path, uint32_t *pid_mask)
{
	struct nt_reader *r = nt_reader__open(path, NULL);
	struct nt_read_event ev;
	long n = 0;
	int rc;

	while ((rc = nt_reader__next(r, &ev)) == 1) {
		n++;
		if (pid_mask)
			*pid_mask |= 1u << (ev.pid % 32);
	}
	nt_reader__close(r);
	return rc == 0 ? n : -1;
}

/* After a flush the file on disk is a complete trace (a writer killed
 * with SIGKILL leaves it); later blocks overwrite the end marker. */
static void test_v6_cut_after_flush(void)
{
	const char *path = tmp_path("killed6.nettrace");
	struct nt_trace_info info;
	struct nt_writer *w;
	uint8_t payload[64] = { 0 };
	uint64_t stack[3] = { 1, 2, 3 };
	uint32_t id, mask = 0;

	v6_info(&info, 6);
	w = open_writer(path, &info);
	ASSERT_EQ(count_complete(path, NULL), 0, "header alone is complete");
	nt_writer__define(w, &gc_desc, &id);
	for (int i = 0; i < 5000; i++)
		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id, .timestamp = i,
			.pid = 1 + i % 3, .thread_id = i % 7, .capture_thread_id = i % 7,
			.payload = payload, .payload_size = 64, .stack = stack,
			.stack_depth = i % 3 });
	ASSERT_OK(nt_writer__flush(w), "flush");
	for (int i = 0; i < 10; i++)
		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id, .pid = 9,
							      .timestamp = 6000 + i });
	ASSERT_EQ(count_complete(path, &mask), 5000, "complete, every flushed event");
	ASSERT_EQ(mask, 0xe, "three processes");
	ASSERT_OK(nt_writer__flush(w), "second flush");
	ASSERT_EQ(count_complete(path, NULL), 5010, "complete again, the marker overwritten");
	ASSERT_OK(nt_writer__close(w, NULL, 7002), "close");
	ASSERT_EQ(count_complete(path, NULL), 5010, "closed");
}

/* Every event of path a reader gets before it stops; *rc: 0 complete, -1
 * stopped (*why: the reason). */
static long count_read(const char *path, int *rc, const char **why, char *buf, size_t len)
{
	struct nt_reader *r = nt_reader__open(path, NULL);
	struct nt_read_event ev;
	long n = 0;

	while ((*rc = nt_reader__next(r, &ev)) == 1)
		n++;
	snprintf(buf, len, "%s", *rc ? nt_reader__error(r) : "");
	*why = buf;
	nt_reader__close(r);
	return n;
}

/*
 * The same with a real SIGKILL: a child writes and flushes 3000 events of
 * three processes, keeps writing unflushed ones, and is killed.  Killed
 * between writes, the file is complete; killed inside one (the kernel may
 * cut a write short for a fatal signal), it ends in a partial last block:
 * either way every flushed event is read.
 */
static void test_v6_sigkill(void)
{
	const char *path = tmp_path("sigkill6.nettrace");
	int fds[2], status, rc;
	const char *why;
	char reason[256], c = 0;
	uint32_t mask = 0;
	pid_t pid;
	long n;

	if (!ASSERT_OK(pipe(fds), "pipe"))
		return;
	pid = fork();
	if (pid == 0) {
		struct nt_trace_info info;
		struct nt_writer *w;
		uint32_t id;

		v6_info(&info, 6);
		w = open_writer(path, &info);
		nt_writer__define(w, &gc_desc, &id);
		for (uint64_t i = 0;; i++) {
			nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
				.timestamp = 2000000000ULL + i, .pid = 1 + i % 3, .thread_id = i % 5,
				.capture_thread_id = i % 5 });
			if (i == 2999) {
				nt_writer__flush(w);
				if (write(fds[1], "x", 1) != 1)
					_exit(1);
			}
		}
	}
	close(fds[1]);
	ASSERT_EQ(read(fds[0], &c, 1), 1, "child flushed");
	usleep(20000);		/* let it write more, unflushed */
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(fds[0]);
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "killed");
	n = count_read(path, &rc, &why, reason, sizeof(reason));
	ASSERT_GE(n, 3000, "every flushed event");
	if (rc)		/* only the block being written may be missing */
		ASSERT_TRUE(strstr(why, "claims") || strstr(why, "ends"), why);
	count_complete(path, &mask);	/* the processes of the events read */
	ASSERT_EQ(mask, 0xe, "three processes");
}

/* A full file system: the salvaged V6 file reads to its end (the thread
 * rows the final sequence point needs are written again). */
static void test_v6_full_disk(void)
{
	const char *path = tmp_path("full6.nettrace");
	int complete = 0;

	for (rlim_t limit = 3000; limit < 200000; limit += 7919) {
		struct nt_salvage sv = { .kept = -1 };
		int fds[2], status;
		pid_t pid;

		unlink(path);
		if (pipe(fds))
			return;
		pid = fork();
		if (pid == 0) {
			struct rlimit rl = { limit, limit };
			struct nt_trace_info info;
			struct nt_writer *w;
			uint8_t payload[150] = { 0 };
			uint32_t id;
			int err = 0;

			signal(SIGXFSZ, SIG_IGN);
			setrlimit(RLIMIT_FSIZE, &rl);
			v6_info(&info, 6);
			w = open_writer(path, &info);
			if (w && !nt_writer__define(w, &gc_desc, &id)) {
				for (int i = 0; i < 100000 && !err; i++)
					err = nt_writer__write_event(w, &(struct nt_event){
						.metadata_id = id, .timestamp = 10 + i,
						.pid = 100 + i % 3, .thread_id = i % 50,
						.capture_thread_id = i % 50, .payload = payload,
						.payload_size = sizeof(payload) - i % 7 });
				nt_writer__finish(w, NULL, 0, &sv);
			}
			_exit(write(fds[1], &sv, sizeof(sv)) != sizeof(sv));
		}
		close(fds[1]);
		if (read(fds[0], &sv, sizeof(sv)) != sizeof(sv))
			sv.kept = -1;
		close(fds[0]);
		waitpid(pid, &status, 0);
		if (sv.kept != 1)
			continue;
		if (sv.finalized) {
			complete++;
			if (!ASSERT_EQ(count_complete(path, NULL), sv.events, "salvaged V6 file"))
				printf("#   limit %llu\n", (unsigned long long)limit);
		}
	}
	ASSERT_GE(complete, 15, "most limits leave a complete V6 trace");
}

/* ------------------------------------------------------------ V5 unchanged */

static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *p = NULL;
	int fd = open(path, O_RDONLY);

	if (fd >= 0 && !fstat(fd, &st) && (p = malloc(st.st_size + 1)) &&
	    read(fd, p, st.st_size) != st.st_size) {
		free(p);
		p = NULL;
	}
	if (fd >= 0)
		close(fd);
	*len = p ? st.st_size : 0;
	return p;
}

/* format 0 and 5 write the same bytes, and the V5 writer ignores pids */
static void test_v5_unchanged(void)
{
	const char *paths[2] = { tmp_path("f0.nettrace"), tmp_path("f5.nettrace") };
	struct nt_trace_info info;
	uint8_t *data[2];
	size_t len[2];

	for (int k = 0; k < 2; k++) {
		struct loss_summary_event sev;
		struct nt_writer *w;
		uint32_t id;

		v6_info(&info, k ? 5 : 0);
		w = open_writer(paths[k], &info);
		nt_writer__define(w, &gc_desc, &id);
		for (int i = 0; i < 50; i++)
			nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
				.timestamp = 2000000000ULL + i, .thread_id = i % 3,
				.capture_thread_id = i % 3, .pid = k ? 0 : 1 + i % 3 });
		nt_writer__note_lost(w, 1, 2);
		nt_writer__close(w, loss_summary__event(&sev, &(struct loss_summary){ 0 }, w), 0);
		data[k] = slurp(paths[k], &len[k]);
	}
	if (ASSERT_EQ(len[0], len[1], "same size"))
		ASSERT_MEMEQ(data[0], data[1], len[0], "same bytes");
	ASSERT_TRUE(len[0] > 8 && !memcmp(data[0] + 8, "\x14\0\0\0", 4), "V5 header");
	{
		struct nt_reader *r = nt_reader__open(paths[1], NULL);
		struct nt_read_event ev;

		while (nt_reader__next(r, &ev) == 1)
			ASSERT_EQ(ev.pid, 4242, "V5: the trace's process");
		ASSERT_EQ(nt_reader__thread_lost(r, 0, 1), 2, "V5: the gap on thread 1");
		ASSERT_EQ(nt_reader__thread_lost(r, 4242, 1), 2, "V5: pid = the trace's");
		ASSERT_EQ(nt_reader__thread_lost(r, 1, 1), 0, "V5: no other process");
		nt_reader__close(r);
	}
	free(data[0]);
	free(data[1]);
	v6_info(&info, 7);
	ASSERT_TRUE(!open_writer(tmp_path("bad.nettrace"), &info) && errno == EINVAL,
		    "format 7 refused");
}

/* ------------------------------------------------------------ after the end */

/* How a reader of buf ends: 0 clean, -1 stopped (why: its message), after
 * how many events.  how: 0 the whole buffer, 1 the file at path (mapped),
 * 2 a pipe, else a stream fed how - 2 bytes at a time, its last piece cut
 * at end (the end of the end-of-stream block or marker, where a live
 * session's stream ends) so that the bytes after it come in pieces of
 * their own. */
static int read_end(const uint8_t *buf, size_t len, size_t end, const char *path, int how,
		    long *n, char *why, size_t whysz)
{
	struct nt_reader *r = NULL;
	struct nt_read_event ev;
	size_t off = 0, step = how > 2 ? (size_t)how - 2 : 0;
	int rc, fds[2] = { -1, -1 };

	if (how == 0) {
		r = nt_reader__open_mem(buf, len, NULL);
	} else if (how == 1) {
		r = nt_reader__open(path, NULL);
	} else if (how == 2) {
		char fdpath[64];

		/* the trace fits the pipe's buffer: written whole, then read */
		if (pipe(fds) || write(fds[1], buf, len) != (ssize_t)len)
			return -2;
		close(fds[1]);
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fds[0]);
		r = nt_reader__open(fdpath, NULL);
		close(fds[0]);
	} else {
		r = nt_reader__open_stream(NULL);
	}
	if (!r)
		return -2;
	*n = 0;
	for (;;) {
		rc = nt_reader__next(r, &ev);
		if (rc == 1) {
			++*n;
			continue;
		}
		if (rc != NT_READ_AGAIN || !step)
			break;
		if (off == len) {
			nt_reader__feed_end(r);
			continue;
		}
		size_t k = len - off < step ? len - off : step;

		if (off < end && off + k > end)
			k = end - off;
		if (nt_reader__feed(r, buf + off, k))
			break;
		off += k;
	}
	snprintf(why, whysz, "%s", rc ? nt_reader__error(r) : "");
	nt_reader__close(r);
	return rc;
}

/*
 * A complete trace with bytes after its end-of-stream block (V6) or marker
 * (V5): every way of reading it delivers every event and then stops on the
 * same one line, a file mapped or whole, a pipe, or a stream whatever its
 * pieces, the one that stops right at the block's end included.  Without
 * those bytes, every way ends clean.
 */
static void test_bytes_after_end(void)
{
	static const char *const what[] = { "V5", "V6" };
	static const char *const kind[] = { "marker", "block" };

	for (int v = 0; v < 2; v++) {
		const char *path = tmp_path(v ? "tail6.nettrace" : "tail5.nettrace");
		struct nt_trace_info info;
		struct nt_writer *w;
		uint8_t *buf;
		size_t len, end;
		uint32_t id;
		char expect[128], why[256], name[96];
		int fd;

		v6_info(&info, v ? 6 : 5);
		w = open_writer(path, &info);
		if (!ASSERT_OK_PTR(w, "writer"))
			return;
		nt_writer__define(w, &gc_desc, &id);
		for (int i = 0; i < 40; i++)
			nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
				.timestamp = 2000000000ULL + i, .thread_id = 1, .capture_thread_id = 1,
				.pid = 1 });
		ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
		buf = slurp(path, &end);
		if (!ASSERT_OK_PTR(buf, "slurp"))
			return;
		for (int how = 0; how < 2 + 2 + 5; how++) {
			long n = -1;
			int rc = read_end(buf, end, end, path, how == 8 ? 4096 + 2 : how, &n,
					  why, sizeof(why));

			snprintf(name, sizeof(name), "%s, no bytes after the end, way %d", what[v], how);
			ASSERT_EQ(rc, 0, name);
			ASSERT_STREQ(why, "", name);
			ASSERT_EQ(n, 40, name);
		}
		len = end + 3;
		buf = realloc(buf, len);
		memcpy(buf + end, "\x01\0X", 3);
		fd = open(path, O_WRONLY | O_APPEND);
		ASSERT_TRUE(fd >= 0 && write(fd, buf + end, 3) == 3, "append");
		if (fd >= 0)
			close(fd);
		snprintf(expect, sizeof(expect), "offset %zu: 3 bytes after the end-of-stream %s",
			 end, kind[v]);
		for (int how = 0; how < 2 + 2 + 5; how++) {
			long n = -1;
			int rc = read_end(buf, len, end, path, how == 8 ? 4096 + 2 : how, &n,
					  why, sizeof(why));

			snprintf(name, sizeof(name), "%s, 3 bytes after the end, way %d", what[v], how);
			ASSERT_EQ(rc, -1, name);
			ASSERT_STREQ(why, expect, name);
			ASSERT_EQ(n, 40, name);
		}
		free(buf);
	}
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_nettrace_v6.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_v6_roundtrip);
	RUN(test_v6_payload_json);
	RUN(test_v6_lost_marker);
	RUN(test_v6_lost_latest_pid);
	RUN(test_v6_cut_after_flush);
	RUN(test_v6_sigkill);
	RUN(test_v6_full_disk);
	RUN(test_v5_unchanged);
	RUN(test_bytes_after_end);
	rm_tmpdir();
	return test_summary();
}
