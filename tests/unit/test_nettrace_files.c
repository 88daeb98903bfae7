// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_nettrace_files.c - one writer, a series of files (nt_writer__next_file):
 * every file is a complete trace on its own, with the metadata defined
 * before it under the same ids, sequence numbers from 1 and its own stacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "nettrace.h"
#include "own_events.h"

/* A writer as the collector opens one, with its lost marker
 * (collector/pipeline/own_events.c): the loss tests count its events. */
static struct nt_writer *open_writer(const char *path, const struct nt_trace_info *info)
{
	struct nt_writer *w = nt_writer__open(path, info);

	if (w)
		nt_writer__set_lost_marker(w, &own_events_lost);
	return w;
}

static char dir[] = "/tmp/nt_files_XXXXXX";

static const char *path_of(int i)
{
	static char buf[4][300];
	static int k;
	char *p = buf[k++ & 3];

	snprintf(p, 300, "%s/t%d.nettrace", dir, i);
	return p;
}

static const struct nt_field_desc n_field[] = { { .name = "N", .type = NT_TYPE_UINT32 } };
static const struct nt_event_desc tick_desc = {
	.provider = "Test-Files", .event_id = 1, .name = "Tick", .level = 4,
	.fields = n_field, .n_fields = 1,
};
static const struct nt_event_desc late_desc = {
	.provider = "Test-Files", .event_id = 2, .name = "Late", .level = 4,
};

struct counts {
	long events, ticks, late, with_stack, first_n, last_n;
	uint64_t lost;
	int complete;
};

static void read_file(const char *path, struct counts *c)
{
	struct nt_reader *r = nt_reader__open(path, NULL);
	struct nt_read_event ev;
	int rc;

	memset(c, 0, sizeof(*c));
	c->first_n = -1;
	while (r && (rc = nt_reader__next(r, &ev)) == 1) {
		uint32_t n = 0;

		if (!strcmp(ev.meta->provider, "ebpf-collect"))
			continue;
		c->events++;
		if (ev.meta->event_id == 1 && ev.payload_size == 4) {
			memcpy(&n, ev.payload, 4);
			c->ticks++;
			if (c->first_n < 0)
				c->first_n = n;
			c->last_n = n;
		}
		c->late += ev.meta->event_id == 2;
		c->with_stack += ev.stack_depth == 2 && ev.stack[0] == 0x1000 + n % 7;
	}
	c->complete = r && rc == 0;
	c->lost = r ? nt_reader__lost(r) : 0;
	nt_reader__close(r);
}

static void write_ticks(struct nt_writer *w, uint32_t id, uint32_t from, uint32_t to)
{
	for (uint32_t n = from; n < to; n++) {
		uint64_t stack[2] = { 0x1000 + n % 7, 0x2000 };

		nt_writer__write_event(w, &(struct nt_event){ .metadata_id = id,
			.timestamp = 1000000 + n, .thread_id = 10 + n % 3,
			.capture_thread_id = 10 + n % 3, .payload = &n, .payload_size = 4,
			.stack = stack, .stack_depth = 2 });
	}
}

static void series(uint32_t format)
{
	struct nt_trace_info info = { .freq = 1000000000ULL, .pointer_size = 8, .pid = 42,
				      .ncpu = 2, .sync_ts = 1000, .format = format };
	struct counts c[3];
	struct nt_writer *w;
	uint32_t tick, late;

	info.sync_utc.tv_sec = 1736942400;
	for (int i = 1; i <= 3; i++)
		unlink(path_of(i));
	w = open_writer(path_of(1), &info);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	ASSERT_OK(nt_writer__define(w, &tick_desc, &tick), "define tick");
	write_ticks(w, tick, 0, 3000);
	ASSERT_OK(nt_writer__next_file(w, path_of(2), NULL, 0, NULL), "next file");
	ASSERT_STREQ(nt_writer__path(w), path_of(2), "path");
	write_ticks(w, tick, 3000, 5000);
	ASSERT_OK(nt_writer__note_lost(w, 11, 5), "lost in file 2");
	ASSERT_OK(nt_writer__define(w, &late_desc, &late), "define late");
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = late, .timestamp = 2000000,
						      .thread_id = 11, .capture_thread_id = 11 });
	/* between files: definitions go on, events cannot be written */
	ASSERT_OK(nt_writer__next_file(w, NULL, NULL, 0, NULL), "end, no next");
	ASSERT_FALSE(nt_writer__has_file(w), "between files");
	ASSERT_EQ(nt_writer__write_event(w, &(struct nt_event){ .metadata_id = tick,
					  .timestamp = 3000000 }), -EBADF, "no file: EBADF");
	ASSERT_OK(nt_writer__next_file(w, path_of(3), NULL, 0, NULL), "third file");
	write_ticks(w, tick, 5000, 5010);
	nt_writer__write_event(w, &(struct nt_event){ .metadata_id = late, .timestamp = 3000000,
						      .thread_id = 12, .capture_thread_id = 12 });
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");

	for (int i = 0; i < 3; i++)
		read_file(path_of(i + 1), &c[i]);
	ASSERT_TRUE(c[0].complete && c[1].complete && c[2].complete, "each file complete");
	ASSERT_EQ(c[0].ticks, 3000, "file 1: its ticks");
	ASSERT_EQ(c[0].first_n, 0, "file 1 starts at 0");
	ASSERT_EQ(c[0].last_n, 2999, "file 1 ends at 2999");
	ASSERT_EQ(c[0].with_stack, 3000, "file 1: every stack");
	ASSERT_EQ(c[1].ticks, 2000, "file 2: its ticks");
	ASSERT_EQ(c[1].first_n, 3000, "file 2 starts at 3000");
	ASSERT_EQ(c[1].with_stack, 2000, "file 2: stacks written again");
	ASSERT_EQ(c[1].late, 1, "file 2: an event defined in it");
	ASSERT_EQ(c[0].lost, 0, "file 1: no loss (sequence numbers per file)");
	ASSERT_EQ(c[1].lost, 5, "file 2: its 5 lost");
	ASSERT_EQ(c[2].ticks, 10, "file 3: ticks under the id of file 1");
	ASSERT_EQ(c[2].late, 1, "file 3: event defined while between files");
	ASSERT_EQ(c[2].lost, 0, "file 3: no loss");
}

static void test_series(void)
{
	series(5);
}


/* The same with NetTrace V6: thread indexes and label lists per file. */
static void test_series_v6(void)
{
	series(6);
}

static void test_excl(void)
{
	struct nt_trace_info info = { .freq = 1000000000ULL, .pointer_size = 8, .pid = 1 };
	struct nt_writer *w = open_writer(NULL, &info);
	uint32_t id;

	if (!ASSERT_OK_PTR(w, "open between files"))
		return;
	ASSERT_OK(nt_writer__define(w, &tick_desc, &id), "define");
	ASSERT_EQ(nt_writer__next_file(w, path_of(1), NULL, 0, NULL), -EEXIST,
		  "an existing file is never overwritten");
	ASSERT_FALSE(nt_writer__has_file(w), "still between files");
	ASSERT_OK(nt_writer__next_file(w, path_of(4), NULL, 0, NULL), "a new name works");
	nt_writer__abort(w);
	ASSERT_TRUE(access(path_of(4), F_OK) != 0, "abort unlinks");
}

/* A file written under one name takes another (over an existing file) and
 * goes on there: the end of the trace, and an abort, find it there. */
static void test_rename(void)
{
	struct nt_trace_info info = { .freq = 1000000000ULL, .pointer_size = 8, .pid = 1 };
	struct nt_writer *w;
	struct counts c;
	struct stat st;
	mode_t old = umask(022);
	uint32_t id;
	FILE *f;

	unlink(path_of(5));
	f = fopen(path_of(6), "w");
	if (f) {
		fputs("keep\n", f);
		fclose(f);
	}
	w = open_writer(path_of(5), &info);
	umask(old);
	if (!ASSERT_OK_PTR(w, "open"))
		return;
	ASSERT_OK(stat(path_of(5), &st), "stat");
	ASSERT_EQ(st.st_mode & 0777, 0600, "created 0600 under umask 022");
	ASSERT_OK(nt_writer__define(w, &tick_desc, &id), "define");
	write_ticks(w, id, 0, 100);
	ASSERT_OK(nt_writer__rename(w, path_of(6)), "rename over a file");
	ASSERT_STREQ(nt_writer__path(w), path_of(6), "the new path");
	ASSERT_TRUE(access(path_of(5), F_OK) != 0, "the old name is gone");
	write_ticks(w, id, 100, 200);
	ASSERT_OK(nt_writer__close(w, NULL, 0), "close");
	read_file(path_of(6), &c);
	ASSERT_TRUE(c.complete, "complete under the new name");
	ASSERT_EQ(c.ticks, 200, "every event, before and after");

	w = open_writer(path_of(5), &info);
	if (!ASSERT_OK_PTR(w, "open again"))
		return;
	ASSERT_EQ(nt_writer__rename(w, "/nonexistent-dir/x"), -ENOENT, "a failed rename");
	ASSERT_STREQ(nt_writer__path(w), path_of(5), "stays where it was");
	ASSERT_OK(nt_writer__rename(w, path_of(7)), "rename");
	nt_writer__abort(w);
	ASSERT_TRUE(access(path_of(7), F_OK) != 0 && access(path_of(5), F_OK) != 0,
		    "abort removes the file under its new name");
	unlink(path_of(6));
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	RUN(test_series_v6);
	RUN(test_series);
	RUN(test_excl);	/* after test_series: its first file exists */
	RUN(test_rename);
	for (int i = 1; i <= 4; i++)
		unlink(path_of(i));
	rmdir(dir);
	return test_summary();
}
