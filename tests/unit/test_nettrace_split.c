// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_nettrace_split.c - what the library writes only when the caller
 * describes it (the lost marker, the last event of a file: it knows no
 * event of its own), and nt_split_by_process with and without the
 * caller's options (host-wide events, the files' lost marker).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "nettrace.h"

static char dir[] = "/tmp/nt_split_XXXXXX";

static const char *path_of(const char *name)
{
	static char buf[4][300];
	static int k;
	char *p = buf[k++ & 3];

	snprintf(p, 300, "%s/%s", dir, name);
	return p;
}

static const struct nt_field_desc n_field[] = { { .name = "N", .type = NT_TYPE_UINT32 } };
static const struct nt_field_desc count_field[] = {
	{ .name = "Count", .type = NT_TYPE_UINT32 },
};
static const struct nt_event_desc tick_desc = {
	.provider = "Test-App", .event_id = 1, .name = "Tick", .level = 4,
	.fields = n_field, .n_fields = 1,
};
static const struct nt_event_desc fork_desc = {
	.provider = "Test-Host", .event_id = 1, .name = "Fork", .level = 4,
};
static const struct nt_event_desc note_desc = {
	.provider = "Test-Own", .event_id = 3, .name = "Note", .level = 4,
	.fields = n_field, .n_fields = 1,
};
static const struct nt_event_desc marker_desc = {
	.provider = "Test-Own", .event_id = 2, .name = "Lost", .level = 3,
	.fields = count_field, .n_fields = 1,
};

struct seen {
	long events, markers, notes, forks, ticks;
	uint32_t marker_count, note_n;
	uint64_t note_ts, lost;
	int complete;
};

static void read_trace(const char *path, struct seen *s)
{
	struct nt_reader *r = nt_reader__open(path, NULL);
	struct nt_read_event ev;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	while (r && (rc = nt_reader__next(r, &ev)) == 1) {
		s->events++;
		if (!strcmp(ev.meta->name, "Lost") && ev.payload_size == 4) {
			s->markers++;
			memcpy(&s->marker_count, ev.payload, 4);
		} else if (!strcmp(ev.meta->name, "Note") && ev.payload_size == 4) {
			s->notes++;
			s->note_ts = ev.timestamp;
			memcpy(&s->note_n, ev.payload, 4);
		}
		s->forks += !strcmp(ev.meta->name, "Fork");
		s->ticks += !strcmp(ev.meta->name, "Tick");
	}
	s->complete = r && rc == 0;
	s->lost = r ? nt_reader__lost(r) : 0;
	nt_reader__close(r);
}

static void info_of(struct nt_trace_info *info, uint32_t format, uint32_t pid)
{
	memset(info, 0, sizeof(*info));
	info->sync_utc.tv_sec = 1736942400;
	info->sync_ts = 1000;
	info->pid = pid;
	info->ncpu = 2;
	info->format = format;
}

static int tick(struct nt_writer *w, uint32_t id, uint64_t ts, uint32_t pid, uint64_t tid,
		uint32_t n)
{
	return nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
		.timestamp = ts, .thread_id = tid, .capture_thread_id = tid, .pid = pid,
		.payload = &n, .payload_size = sizeof(n) });
}

/* Without a marker a loss before a thread's first event is the sequence
 * jump alone; with one, the marker comes first.  A marker needs one UInt32
 * field. */
static void test_lost_marker(void)
{
	static const struct nt_event_desc bad = { .provider = "Test-Own", .event_id = 9,
						  .fields = n_field, .n_fields = 0 };
	struct nt_trace_info info;
	struct nt_writer *w;
	struct seen s;
	uint32_t id;

	info_of(&info, 0, 42);
	for (int with = 0; with < 2; with++) {
		const char *path = path_of(with ? "marker.nettrace" : "nomarker.nettrace");

		w = nt_writer__open(path, &info);
		if (!ASSERT_OK_PTR(w, "open"))
			return;
		ASSERT_EQ(nt_writer__set_lost_marker(w, &bad), -EINVAL, "no field: refused");
		ASSERT_EQ(nt_writer__set_lost_marker(w, &tick_desc), 0, "one UInt32: taken");
		ASSERT_OK(nt_writer__set_lost_marker(w, with ? &marker_desc : NULL), "set");
		nt_writer__define(w, &tick_desc, &id);
		ASSERT_OK(nt_writer__note_lost(w, 7, 5), "lost before any event");
		ASSERT_OK(tick(w, id, 2000, 0, 7, 1), "event");
		ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
		read_trace(path, &s);
		ASSERT_TRUE(s.complete, "complete");
		ASSERT_EQ(s.markers, with, with ? "the marker" : "no marker");
		ASSERT_EQ(s.marker_count, with ? 5 : 0, "its count");
		ASSERT_EQ(s.events, 1 + with, "events");
		ASSERT_EQ(s.lost, 5, "the gap counted either way (by our reader)");
	}
}

/* The caller's last event ends every file, at the newest time, under one
 * id across files. */
static void test_last_event(void)
{
	struct nt_trace_info info;
	struct nt_writer *w;
	struct seen s;
	uint32_t id, n = 77;
	struct nt_last_event last = { .desc = &note_desc, .payload = &n, .payload_size = 4 };

	info_of(&info, 0, 42);
	w = nt_writer__open(path_of("last1.nettrace"), &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	nt_writer__define(w, &tick_desc, &id);
	ASSERT_OK(tick(w, id, 5000, 0, 1, 1), "event");
	ASSERT_OK(nt_writer__next_file(w, path_of("last2.nettrace"), &last, 100, NULL), "next");
	ASSERT_OK(tick(w, id, 6000, 0, 1, 2), "event");
	n = 78;
	ASSERT_OK(nt_writer__close(w, &last, 9000), "close");
	read_trace(path_of("last1.nettrace"), &s);
	ASSERT_TRUE(s.complete && s.notes == 1 && s.note_n == 77, "file 1 ends with it");
	ASSERT_EQ(s.note_ts, 5000, "at the newest event, later than last_ts");
	read_trace(path_of("last2.nettrace"), &s);
	ASSERT_TRUE(s.complete && s.notes == 1 && s.note_n == 78, "file 2 too");
	ASSERT_EQ(s.note_ts, 9000, "at last_ts");
	ASSERT_EQ(s.events, 2, "the tick and the note: no event of the library's own");
}

static int host_wide(const struct nt_metadata *m)
{
	return !strcmp(m->provider, "Test-Host");
}

/*
 * A V6 trace: process 10 with ticks (one thread after a gap the input's
 * writer noted without a marker) and a Fork; process 20 with a Fork only;
 * an event of no process.  With the options, 20 (host-wide events only)
 * gets no file and the gap gets the marker in 10's file; without, both get
 * a file and the gap stays a jump.
 */
static void test_split(void)
{
	const struct nt_split_opts opts = { .host_wide = host_wide, .lost_marker = &marker_desc };
	struct nt_trace_info info;
	struct nt_writer *w;
	uint32_t tid, fid, nid;
	char err[512], sub[320];
	struct seen s;
	struct stat st;
	int n;

	info_of(&info, 6, 0);
	w = nt_writer__open(path_of("all.nettrace"), &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	nt_writer__define(w, &tick_desc, &tid);
	nt_writer__define(w, &fork_desc, &fid);
	nt_writer__define(w, &note_desc, &nid);
	ASSERT_OK(tick(w, tid, 2000, 10, 1, 1), "tick");
	ASSERT_OK(tick(w, fid, 2001, 20, 5, 0), "fork of 20");
	ASSERT_OK(tick(w, fid, 2002, 10, 1, 0), "fork of 10");
	ASSERT_OK(nt_writer__note_lost_pid(w, 10, 3, 4), "lost on 10's thread 3");
	ASSERT_OK(tick(w, tid, 2003, 10, 3, 2), "thread 3 after the gap");
	ASSERT_OK(tick(w, nid, 2004, 0, 0, 9), "no process");
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");

	snprintf(sub, sizeof(sub), "%s/with", dir);
	n = nt_split_by_process(path_of("all.nettrace"), sub, &opts, err, sizeof(err));
	if (!ASSERT_EQ(n, 1, "one file: 20 has host-wide events only"))
		printf("#   %s\n", err);
	ASSERT_TRUE(!stat(sub, &st) && (st.st_mode & 0777) == 0700, "DIR made 0700");
	snprintf(sub, sizeof(sub), "%s/with/all.10.nettrace", dir);
	read_trace(sub, &s);
	ASSERT_TRUE(s.complete, "10's file complete");
	ASSERT_EQ(s.ticks, 2, "its ticks");
	ASSERT_EQ(s.forks, 1, "its fork");
	ASSERT_EQ(s.notes, 1, "the event of no process");
	ASSERT_TRUE(s.markers == 1 && s.marker_count == 4, "the gap behind the caller's marker");
	ASSERT_EQ(s.lost, 4, "the gap");
	snprintf(sub, sizeof(sub), "%s/with/all.20.nettrace", dir);
	ASSERT_TRUE(access(sub, F_OK) != 0, "no file for 20");

	snprintf(sub, sizeof(sub), "%s/without", dir);
	n = nt_split_by_process(path_of("all.nettrace"), sub, NULL, err, sizeof(err));
	if (!ASSERT_EQ(n, 2, "no options: a file per process"))
		printf("#   %s\n", err);
	snprintf(sub, sizeof(sub), "%s/without/all.10.nettrace", dir);
	read_trace(sub, &s);
	ASSERT_TRUE(s.complete && s.ticks == 2 && s.markers == 0, "no marker");
	ASSERT_EQ(s.lost, 4, "the gap, a jump");
	snprintf(sub, sizeof(sub), "%s/without/all.20.nettrace", dir);
	read_trace(sub, &s);
	ASSERT_TRUE(s.complete && s.forks == 1 && s.notes == 1, "20's file");

	ASSERT_EQ(nt_split_by_process("/dev/null", sub, NULL, err, sizeof(err)), -1,
		  "not a trace");
	ASSERT_TRUE(strstr(err, "/dev/null") != NULL, "the reason names the input");
}

int main(void)
{
	char cmd[400];
	int rc;

	if (!mkdtemp(dir))
		return 1;
	RUN(test_lost_marker);
	RUN(test_last_event);
	RUN(test_split);
	rc = test_summary();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return rc;
}
