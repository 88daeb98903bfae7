// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_own_events.c - what a split of the collector's traces makes of its
 * events (own_split_opts, collector/pipeline/own_events.h): CPU samples,
 * SampleProfiler's or Universal.Events cpu, give a file only to a process
 * its ProcessInfo says was selected; kernel events, Universal.Events
 * cswitch among them, give none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "nettrace.h"
#include "own_events.h"

static char dir[] = "/tmp/own_events_XXXXXX";

static const struct nt_event_desc sample_desc = {
	.provider = "Microsoft-DotNETCore-SampleProfiler", .event_id = 0, .name = "", .level = 4,
};
static const struct nt_event_desc cpu_desc = {
	.provider = "Universal.Events", .event_id = 1, .name = "cpu", .level = 4,
};
static const struct nt_event_desc cswitch_desc = {
	.provider = "Universal.Events", .event_id = 2, .name = "cswitch", .level = 4,
};
static const struct nt_event_desc app_desc = {
	.provider = "Test-App", .event_id = 1, .name = "Tick", .level = 4,
};

static int put_event(struct nt_writer *w, uint32_t id, uint64_t ts, uint32_t pid,
		     const void *payload, uint32_t size)
{
	static const uint64_t stack[] = { 0x401000, 0x402000 };

	return nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
		.timestamp = ts, .thread_id = pid, .capture_thread_id = pid, .pid = pid,
		.payload = payload, .payload_size = size, .stack = stack, .stack_depth = 2 });
}

static int info(struct nt_writer *w, uint32_t id, uint64_t ts, uint32_t pid, int selected)
{
	static uint8_t buf[PROCESS_INFO_MAX];
	struct proc_info pi = { .comm = "prog" };

	return put_event(w, id, ts, pid, buf, (uint32_t)process_info__payload(buf, pid, selected, &pi));
}

/*
 * A V6 trace: 10 unselected with cpu and cswitch events only, 20 selected
 * with cpu events, 30 unselected with a SampleProfiler sample, 40
 * unselected with an event of its own.  20 and 40 get a file.
 */
static void test_split_samples(void)
{
	struct nt_trace_info ti = { .format = 6, .ncpu = 2, .sync_ts = 1000 };
	static const uint8_t one = 1, ns[2] = { 0x88, 0x27 };
	static const int32_t managed = 2;
	uint32_t pi, cpu, cs, sp, app;
	char path[400], sub[100], err[512];
	struct nt_writer *w;
	int n;

	ti.sync_utc.tv_sec = 1736942400;
	snprintf(path, sizeof(path), "%s/all.nettrace", dir);
	w = nt_writer__open(path, &ti);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	nt_writer__define(w, &own_process_info, &pi);
	nt_writer__define(w, &cpu_desc, &cpu);
	nt_writer__define(w, &cswitch_desc, &cs);
	nt_writer__define(w, &sample_desc, &sp);
	nt_writer__define(w, &app_desc, &app);
	ASSERT_OK(info(w, pi, 2000, 10, 0), "info 10");
	ASSERT_OK(put_event(w, cpu, 2001, 10, &one, 1), "cpu of 10");
	ASSERT_OK(put_event(w, cs, 2002, 10, ns, 2), "cswitch of 10");
	ASSERT_OK(info(w, pi, 2003, 20, 1), "info 20");
	ASSERT_OK(put_event(w, cpu, 2004, 20, &one, 1), "cpu of 20");
	ASSERT_OK(info(w, pi, 2005, 30, 0), "info 30");
	ASSERT_OK(put_event(w, sp, 2006, 30, &managed, 4), "sample of 30");
	ASSERT_OK(info(w, pi, 2007, 40, 0), "info 40");
	ASSERT_OK(put_event(w, app, 2008, 40, &managed, 4), "tick of 40");
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");

	snprintf(sub, sizeof(sub), "%s/parts", dir);
	n = nt_split_by_process(path, sub, &own_split_opts, err, sizeof(err));
	if (!ASSERT_EQ(n, 2, "files: the selected 20 and 40 with its own event"))
		printf("#   %s\n", err);
	snprintf(path, sizeof(path), "%s/all.20.prog.nettrace", sub);
	ASSERT_TRUE(access(path, F_OK) == 0, "20's file");
	snprintf(path, sizeof(path), "%s/all.40.prog.nettrace", sub);
	ASSERT_TRUE(access(path, F_OK) == 0, "40's file");
	snprintf(path, sizeof(path), "%s/all.10.prog.nettrace", sub);
	ASSERT_TRUE(access(path, F_OK) != 0, "none for 10: samples and switch-ins only");
	snprintf(path, sizeof(path), "%s/all.30.prog.nettrace", sub);
	ASSERT_TRUE(access(path, F_OK) != 0, "none for 30: a sample only");
}

int main(void)
{
	char cmd[400];
	int rc;

	if (!mkdtemp(dir))
		return 1;
	RUN(test_split_samples);
	rc = test_summary();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return rc;
}
