// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nettrace_scenarios.c - write the traces whose reading depends on
 * TraceEvent's EventCache rules (nettrace/writer_events.c, "What
 * TraceEvent's EventCache makes of that"), for tests/nettrace.bats to read
 * with tests/traceevent_sim.py and with our own reader.
 *
 *   nettrace_scenarios late OUT      late events of other capture threads
 *   nettrace_scenarios loss OUT      losses on threads with no event yet,
 *                                    and after a sequence point: 13 lost
 *   nettrace_scenarios threads OUT   18000 capture threads in 3 regions
 *   nettrace_scenarios full OUT      a file system that fills up (RLIMIT_FSIZE,
 *                                    EFBIG); prints {"events","lost","bytes"}
 *   nettrace_scenarios v6 OUT        NetTrace V6: 3 processes x 3 threads, each
 *                                    thread a GCStart_V2 and 2 stacked samples,
 *                                    4 lost on (2002, 11), 2 on (3003, 50) before
 *                                    any event: 27 events + EventsLost marker +
 *                                    LossSummary, 6 lost
 *   nettrace_scenarios v6mix OUT     NetTrace V6, 60000 events of 3 processes x
 *                                    20 threads: activity ids, 3000 distinct stacks,
 *                                    late events of other threads, a loss every
 *                                    1000 events (59 x 3 lost), a sequence point
 *                                    every 20000; prints {"events","lost"}
 *   nettrace_scenarios kinds5 OUT    one self-describing event with a field of
 *   nettrace_scenarios kinds6 OUT    every kind (arrays and objects too), V5/V6
 *
 * "late", "loss" and "threads" write 16 + N events as said in their comments.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "nettrace.h"
#include "own_events.h"

static struct nt_writer *w;
static uint32_t sample_id;

static int open_trace(const char *path, uint32_t format)
{
	struct nt_trace_info info = { .sync_ts = 1000, .pid = 42, .ncpu = 2,
				      .sampling_interval_ns = 1000000, .format = format };
	struct nt_event_desc d = { .provider = "Microsoft-DotNETCore-SampleProfiler",
				   .name = "ThreadSample", .level = 4 };

	clock_gettime(CLOCK_REALTIME, &info.sync_utc);
	w = nt_writer__open(path, &info);
	if (!w) {
		fprintf(stderr, "nettrace_scenarios: %s: %s\n", path, strerror(errno));
		return -1;
	}
	nt_writer__set_lost_marker(w, &own_events_lost);	/* the collector's traces */
	return nt_writer__define(w, &d, &sample_id);
}

static int sample(uint64_t ts, uint64_t tid)
{
	static const int32_t type = 2;

	return nt_writer__write_event(w, &(struct nt_event){
		.metadata_id = sample_id, .timestamp = ts, .thread_id = tid,
		.capture_thread_id = tid, .payload = &type, .payload_size = 4 });
}

/* 10 events of thread 100; after the 6th, three events 450-550 ns late of
 * threads 200, 300, 200; then 3 of thread 200: 16 events, none lost. */
static int late(void)
{
	uint64_t ts = 2000;
	int i, err = 0;

	for (i = 0; i < 10 && !err; i++) {
		err = sample(ts += 100, 100);
		if (i == 5 && !err)
			err = sample(ts - 550, 200) ?: sample(ts - 500, 300) ?: sample(ts - 450, 200);
	}
	for (i = 0; i < 3 && !err; i++)
		err = sample(ts += 100, 200);
	return err;
}

/* 5 lost on capture thread 0 and 1 on thread 300 before either wrote an
 * event, 4 events, a sequence point, 7 more lost on thread 0, 1 event:
 * 13 lost (and 2 EventsLost markers + the LossSummary: 8 events). */
static int loss(void)
{
	struct loss_summary ls = { .ringbuf_drops = 12, .truncated_payloads = 1 };
	struct loss_summary_event sev;
	static const uint64_t tids[4] = { 100, 200, 100, 300 };
	uint64_t ts = 2000;
	int i, err;

	err = nt_writer__note_lost(w, 0, 5) ?: nt_writer__note_lost(w, 300, 1);
	for (i = 0; i < 4 && !err; i++)
		err = sample(ts += 100, tids[i]);
	err = err ?: nt_writer__flush(w) ?: nt_writer__note_lost(w, 0, 7) ?: sample(ts += 100, 100);
	if (!err) {
		err = nt_writer__close(w, loss_summary__event(&sev, &ls, w), ts);
		w = NULL;
	}
	return err;
}

/* 3 x 6000 threads, one event each, a flush after each 6000 */
static int threads(void)
{
	uint64_t ts = 2000;
	int r, i, err = 0;

	for (r = 0; r < 3 && !err; r++) {
		for (i = 0; i < 6000 && !err; i++)
			err = sample(ts += 10, 1000 + i + r * 6000);
		err = err ?: nt_writer__flush(w);
	}
	return err;
}

/* GCStart_V2's payload (the runtime's manifest layout, which TraceEvent
 * knows: the metadata carries no fields) */
static void gc_start_payload(uint8_t *p, uint32_t pid, uint64_t tid)
{
	uint32_t u32[4] = { pid, tid % 3, 1, 0 };	/* Count, Depth, Reason, Type */
	uint16_t clr = 9;
	uint64_t seq = pid * 100 + tid;			/* ClientSequenceNumber */

	memcpy(p, u32, 16);
	memcpy(p + 16, &clr, 2);
	memcpy(p + 18, &seq, 8);
}

static int v6_thread(uint32_t gc_id, uint32_t pid, uint64_t tid, uint64_t *ts)
{
	static const int32_t type = 1;
	uint64_t stack[3] = { 0x7f0000001000ULL + tid, 0x7f0000002000ULL, 0x7f0000003000ULL };
	uint8_t act[16], gc[26];
	int err;

	memset(act, (int)(pid / 1000), 16);
	gc_start_payload(gc, pid, tid);
	err = nt_writer__write_event(w, &(struct nt_event){
		.metadata_id = gc_id, .timestamp = *ts += 100, .thread_id = tid,
		.capture_thread_id = tid, .pid = pid, .activity_id = act, .payload = gc,
		.payload_size = sizeof(gc) });
	for (int i = 0; i < 2 && !err; i++) {
		if (i == 1 && pid == 2002 && tid == 11)
			err = nt_writer__note_lost_pid(w, pid, tid, 4);
		err = err ?: nt_writer__write_event(w, &(struct nt_event){
			.metadata_id = sample_id, .timestamp = *ts += 100, .thread_id = tid,
			.capture_thread_id = tid, .pid = pid, .payload = &type, .payload_size = 4,
			.stack = stack, .stack_depth = 3 });
	}
	return err;
}

/* the same thread ids in three processes: nine threads of TraceEvent */
static int v6(void)
{
	static const struct nt_event_desc gc = {
		.provider = "Microsoft-Windows-DotNETRuntime", .event_id = 1, .name = "",
		.keywords = 1, .version = 2, .level = 4, .opcode = 1,
	};
	static const uint32_t pids[3] = { 1001, 2002, 3003 };
	uint64_t ts = 2000;
	struct loss_summary_event sev;
	uint32_t gc_id;
	int err;

	err = nt_writer__define(w, &gc, &gc_id);
	for (int p = 0; p < 3 && !err; p++)
		for (uint64_t tid = 10; tid < 13 && !err; tid++)
			err = v6_thread(gc_id, pids[p], tid, &ts);
	err = err ?: nt_writer__note_lost_pid(w, 3003, 50, 2);
	if (!err) {
		err = nt_writer__close(w, loss_summary__event(&sev, &(struct loss_summary){
					       .ringbuf_drops = 4 }, w), ts);
		w = NULL;
	}
	return err;
}

/* Many blocks and sequence points of a V6 trace (a fixed pseudo-random
 * sequence, so every run writes the same file). */
static int v6mix(void)
{
	static const int32_t type = 1;
	uint64_t stack[8], ts = 2000, events = 0, lost = 0, x = 12345;
	uint8_t act[16] = { 0 }, payload[200] = { 0 };
	int err = 0;

	for (int i = 0; i < 60000 && !err; i++) {
		uint32_t pid = 1001 + (i % 3) * 1001, depth;
		uint64_t tid = 10 + (i / 3) % 20, late = 0;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		depth = 1 + (x >> 60) % 8;
		for (uint32_t k = 0; k < depth; k++)
			stack[k] = 0x7f0000000000ULL + ((x >> 33) % 3000) * 64 + k;
		act[0] = (x >> 20) % 50;
		if (i % 97 == 0 && i)
			late = 50;	/* older than its predecessors: not sorted */
		ts += 10;
		err = nt_writer__write_event(w, &(struct nt_event){
			.metadata_id = sample_id, .timestamp = ts - late, .thread_id = tid,
			.capture_thread_id = tid, .pid = pid, .processor = i % 4,
			.activity_id = act[0] ? act : NULL, .payload = i % 2 ? payload : (const void *)&type,
			.payload_size = i % 2 ? 20 + (x >> 40) % 180 : 4, .stack = stack,
			.stack_depth = depth });
		events++;
		if (!err && i % 1000 == 999 && i < 59000) {
			err = nt_writer__note_lost_pid(w, pid, tid, 3);
			lost += 3;
		}
		if (!err && i % 20000 == 19999)
			err = nt_writer__flush(w);
	}
	if (!err) {
		err = nt_writer__close(w, NULL, ts);
		w = NULL;
	}
	if (!err)
		printf("{\"events\": %llu, \"lost\": %llu}\n", (unsigned long long)events,
		       (unsigned long long)lost);
	return err;
}

/* One event whose fields are of every kind the writer describes. */
static int kinds(void)
{
	static const struct nt_field_desc pair[] = {
		{ .name = "Code", .type = NT_TYPE_UINT16 },
		{ .name = "Text", .type = NT_TYPE_STRING },
	};
#define F(n, t) { .name = n, .type = NT_TYPE_##t }
	static const struct nt_field_desc fields[] = {
		F("Bool", BOOLEAN), F("Char", CHAR), F("SByte", SBYTE), F("Byte", BYTE),
		F("I16", INT16), F("U16", UINT16), F("I32", INT32), F("U32", UINT32),
		F("I64", INT64), F("U64", UINT64), F("F32", SINGLE), F("F64", DOUBLE),
		F("Time", DATETIME), F("Id", GUID), F("Name", STRING),
		{ .name = "Values", .type = NT_TYPE_ARRAY, .elem_type = NT_TYPE_UINT32 },
		{ .name = "Pair", .type = NT_TYPE_OBJECT, .members = pair, .n_members = 2 },
		{ .name = "Pairs", .type = NT_TYPE_ARRAY, .elem_type = NT_TYPE_OBJECT,
		  .members = pair, .n_members = 2 },
	};
#undef F
	static const struct nt_event_desc d = {
		.provider = "Test-AllKinds", .event_id = 7, .name = "Everything", .version = 3,
		.level = 5, .keywords = 0x8000000000000001ULL, .fields = fields, .n_fields = 18,
	};
	/* the payload, field by field (little-endian; strings UTF-16LE + NUL) */
	static const uint8_t p[] = {
		1, 0, 0, 0,  'D', 0,  0xfd,  200,  0x2e, 0xfb,  0xe8, 0xfd,
		0x60, 0x79, 0xfe, 0xff,  3, 0, 0, 0,
		0x00, 0x0e, 0xfa, 0xd5, 0xfe, 0xff, 0xff, 0xff,
		0xf2, 0xde, 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12,
		0, 0, 0xc0, 0x3f,  0, 0, 0, 0, 0, 0, 0x04, 0x40,
		0x00, 0x00, 0x34, 0xd4, 0x03, 0x84, 0xd8, 0x01,
		3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		'h', 0, 0xe9, 0, 'l', 0, 'l', 0, 'o', 0, 0, 0,
		3, 0,  30, 0, 0, 0,  31, 0, 0, 0,  32, 0, 0, 0,
		42, 0,  'p', 0, 'a', 0, 'i', 0, 'r', 0, 0, 0,
		2, 0,  0, 0, 'a', 0, 0, 0,  1, 0, 'b', 0, 0, 0,
	};
	uint32_t id;

	return nt_writer__define(w, &d, &id) ?: nt_writer__write_event(w, &(struct nt_event){
		.metadata_id = id, .timestamp = 2000, .thread_id = 5, .capture_thread_id = 5,
		.pid = 77, .payload = p, .payload_size = sizeof(p) });
}

/* 100000 events of 3 threads into at most 150000 bytes (fullstart: 1000
 * bytes, so none of the events fits and no thread has one in the file) */
static int full(void)
{
	struct nt_salvage sv;
	uint64_t ts = 2000;
	int i, err = 0;

	for (i = 0; i < 100000 && !err; i++)
		err = sample(ts += 10, 100 + i % 3);
	if (err != -EFBIG)
		return err ? err : -EINVAL;
	err = nt_writer__finish(w, NULL, ts, &sv);
	w = NULL;
	if (err != -EFBIG || !sv.kept || !sv.finalized)
		return -EINVAL;
	printf("{\"events\": %llu, \"lost\": %llu, \"bytes\": %llu}\n",
	       (unsigned long long)sv.events, (unsigned long long)sv.lost,
	       (unsigned long long)sv.bytes);
	return 0;
}

int main(int argc, char **argv)
{
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: nettrace_scenarios late|loss|threads|full|fullstart|v6|v6mix|"
			"kinds5|kinds6 OUT\n");
		return 64;
	}
	if (!strcmp(argv[1], "full") || !strcmp(argv[1], "fullstart")) {
		rlim_t max = argv[1][4] ? 1000 : 150000;
		struct rlimit rl = { max, max };

		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
	}
	if (open_trace(argv[2], !strcmp(argv[1], "v6") || !strcmp(argv[1], "v6mix") ||
		       !strcmp(argv[1], "kinds6") ? 6 : 0))
		return 1;
	if (!strcmp(argv[1], "late"))
		err = late();
	else if (!strcmp(argv[1], "loss"))
		err = loss();
	else if (!strcmp(argv[1], "threads"))
		err = threads();
	else if (!strcmp(argv[1], "full") || !strcmp(argv[1], "fullstart"))
		err = full();
	else if (!strcmp(argv[1], "v6"))
		err = v6();
	else if (!strcmp(argv[1], "v6mix"))
		err = v6mix();
	else if (!strcmp(argv[1], "kinds5") || !strcmp(argv[1], "kinds6"))
		err = kinds();
	else
		err = -EINVAL;
	if (!err && w)
		err = nt_writer__close(w, NULL, 1 << 30);
	else if (w)
		nt_writer__abort(w);
	if (err)
		fprintf(stderr, "nettrace_scenarios %s: %s\n", argv[1], strerror(-err));
	return err ? 1 : 0;
}
