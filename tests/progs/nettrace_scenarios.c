// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nettrace_scenarios.c - write the traces whose reading depends on
 * TraceEvent's EventCache rules (symbolizer/nettrace/writer.c, "What
 * TraceEvent's EventCache makes of that"), for tests/nettrace.bats to read
 * with tests/traceevent_sim.py and with our own reader.
 *
 *   nettrace_scenarios late OUT      late events of other capture threads
 *   nettrace_scenarios loss OUT      losses on threads with no event yet,
 *                                    and after a sequence point: 13 lost
 *   nettrace_scenarios threads OUT   18000 capture threads in 3 regions
 *   nettrace_scenarios full OUT      a file system that fills up (RLIMIT_FSIZE,
 *                                    EFBIG); prints {"events","lost","bytes"}
 *
 * Every scenario but "full" writes 16 + N events as said in its comment.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "nettrace.h"

static struct nt_writer *w;
static uint32_t sample_id;

static int open_trace(const char *path)
{
	struct nt_trace_info info = { .sync_ts = 1000, .pid = 42, .ncpu = 2,
				      .sampling_interval_ns = 1000000 };
	struct nt_event_desc d = { .provider = "Microsoft-DotNETCore-SampleProfiler",
				   .name = "ThreadSample", .level = 4 };

	clock_gettime(CLOCK_REALTIME, &info.sync_utc);
	w = nt_writer__open(path, &info);
	if (!w) {
		fprintf(stderr, "nettrace_scenarios: %s: %s\n", path, strerror(errno));
		return -1;
	}
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
	struct nt_loss_summary ls = { .ringbuf_drops = 12, .truncated_payloads = 1 };
	static const uint64_t tids[4] = { 100, 200, 100, 300 };
	uint64_t ts = 2000;
	int i, err;

	err = nt_writer__note_lost(w, 0, 5) ?: nt_writer__note_lost(w, 300, 1);
	for (i = 0; i < 4 && !err; i++)
		err = sample(ts += 100, tids[i]);
	err = err ?: nt_writer__flush(w) ?: nt_writer__note_lost(w, 0, 7) ?: sample(ts += 100, 100);
	if (!err) {
		err = nt_writer__close(w, &ls, ts);
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

/* 100000 events of 3 threads into at most 150000 bytes */
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
		fprintf(stderr, "usage: nettrace_scenarios late|loss|threads|full OUT\n");
		return 64;
	}
	if (!strcmp(argv[1], "full")) {
		struct rlimit rl = { 150000, 150000 };

		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
	}
	if (open_trace(argv[2]))
		return 1;
	if (!strcmp(argv[1], "late"))
		err = late();
	else if (!strcmp(argv[1], "loss"))
		err = loss();
	else if (!strcmp(argv[1], "threads"))
		err = threads();
	else if (!strcmp(argv[1], "full"))
		err = full();
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
