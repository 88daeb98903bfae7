// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_nettrace_fixed.c - the writer's bytes for a fixed event sequence do
 * not change: a speed-up of the writer must write exactly what the writer
 * before it wrote.  A deterministic stream of 200000 events
 * (several threads, stacks repeating and new, small and large payloads,
 * activity ids, an out-of-order event, losses, many EventBlocks and
 * sequence points) is written as V5 and as V6, with 8- and 4-byte pointers;
 * each file's size and FNV-1a hash must be the ones the writer of main at
 * e126ca3 gave.  The golden file of test_nettrace.c shows the bytes of one
 * event; this shows that a long stream's bytes stay put.  When the format
 * is changed on purpose, print the new values (the failing asserts show
 * them) and say why in the commit.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "nettrace.h"

static char tmpdir[64];

/* xorshift64: the same sequence on every machine */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const struct nt_event_desc sample_desc = {
	.provider = "Microsoft-DotNETCore-SampleProfiler", .name = "", .level = 4 };
static const struct nt_event_desc gc_desc = {
	.provider = "Microsoft-Windows-DotNETRuntime", .event_id = 9, .name = "",
	.version = 1, .level = 4, .keywords = 1 };
static const struct nt_event_desc big_desc = {
	.provider = "Microsoft-Windows-DotNETRuntime", .event_id = 80, .name = "",
	.version = 0, .level = 4, .keywords = 0x8000 };

/* Write the fixed stream to path; 0 or -errno. */
static int write_stream(const char *path, uint32_t format, uint32_t pointer_size)
{
	struct nt_trace_info info = {
		.sync_utc = { .tv_sec = 1736942400 }, .sync_ts = 1000000000,
		.freq = 1000000000, .pointer_size = pointer_size, .pid = 4242, .ncpu = 8,
		.sampling_interval_ns = 1000000, .format = format };
	static uint64_t pool[96][40];
	static uint8_t big[3000];
	uint32_t depth[96], ids[3];
	uint8_t act[2][16] = { { 1, 2, 3 }, { 9, 8, 7 } };
	uint64_t rng = 88172645463325252ULL, ts = 1000000000;
	struct nt_writer *w;
	int err = 0;

	for (int s = 0; s < 96; s++) {
		depth[s] = 1 + s % 37;
		for (uint32_t k = 0; k < depth[s]; k++)
			pool[s][k] = 0x7f3a00000000ULL + s * 0x1000 + k * 0x40 +
				     (s % 3 ? 0 : 0x100000000ULL * k);
	}
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7);
	w = nt_writer__open(path, &info);
	if (!w)
		return -1;
	err = nt_writer__define(w, &sample_desc, &ids[0]);
	if (!err)
		err = nt_writer__define(w, &gc_desc, &ids[1]);
	if (!err)
		err = nt_writer__define(w, &big_desc, &ids[2]);
	for (uint32_t i = 0; i < 200000 && !err; i++) {
		uint64_t r = next_rand(&rng);
		uint32_t kind = r % 10, s = (r >> 8) % 96, t = (r >> 16) % 7;
		int32_t type = 2;
		struct nt_event ev = { .capture_thread_id = 1000 + t % 3,
				       .thread_id = 2000 + t, .processor = (r >> 24) % 4 };

		ts += (r >> 32) % 5000;
		ev.timestamp = ts;
		if (kind < 6) {		/* a sample with a stack; a new one now and then */
			ev.metadata_id = ids[0];
			ev.payload = &type;
			ev.payload_size = 4;
			if (!(r >> 40 & 63))
				pool[s][0]++;
			ev.stack = pool[s];
			ev.stack_depth = depth[s];
		} else if (kind < 9) {	/* small payloads of changing sizes */
			ev.metadata_id = ids[1];
			ev.payload = big + (r >> 40) % 64;
			ev.payload_size = (r >> 48) % 24;
			ev.activity_id = kind == 8 ? act[(r >> 56) & 1] : NULL;
			ev.related_activity_id = kind == 8 && (r >> 57 & 1) ? act[0] : NULL;
		} else {		/* a large payload, sometimes from the past */
			ev.metadata_id = ids[2];
			ev.payload = big;
			ev.payload_size = 100 + (r >> 40) % 900;
			if (!(r >> 52 & 15))
				ev.timestamp -= 3000;
		}
		err = nt_writer__write_event(w, &ev);
		if (!err && !(r >> 58 & 31))
			err = nt_writer__note_lost(w, 1000 + (r >> 61) % 3, 1 + (r >> 60) % 5);
	}
	if (!err)
		return nt_writer__close(w, NULL, ts + 1);
	nt_writer__abort(w);
	return err;
}

/* FNV-1a 64 of the file at path and its size; 0 when it does not read. */
static uint64_t file_hash(const char *path, size_t *size)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	uint8_t buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	*size = 0;
	if (!f)
		return 0;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		for (size_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ULL;
		*size += n;
	}
	fclose(f);
	return h;
}

static void check(uint32_t format, uint32_t pointer_size, size_t want_size, uint64_t want_hash)
{
	char path[128];
	size_t size;
	uint64_t h;

	snprintf(path, sizeof(path), "%s/v%u-p%u.nettrace", tmpdir, format, pointer_size);
	if (!ASSERT_OK(write_stream(path, format, pointer_size), "write"))
		return;
	h = file_hash(path, &size);
	printf("  V%u, %u-byte pointers: %zu bytes, hash 0x%016llx\n", format, pointer_size, size,
	       (unsigned long long)h);
	ASSERT_EQ(size, want_size, "size");
	ASSERT_EQ(h, want_hash, "FNV-1a of the file");
	unlink(path);
}

static void test_v5_p8(void)
{
	check(5, 8, 16008226, 0x0283f24743ae49ddULL);
}

static void test_v5_p4(void)
{
	check(5, 4, 15870674, 0x89833e786690b9e8ULL);
}

static void test_v6_p8(void)
{
	check(6, 8, 14765371, 0xeb53ec9df9d48c8bULL);
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_nettrace_fixed.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_v5_p8);
	RUN(test_v5_p4);
	RUN(test_v6_p8);
	rmdir(tmpdir);
	return test_summary();
}
