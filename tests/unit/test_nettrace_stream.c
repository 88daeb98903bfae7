/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_nettrace_stream.c - the reader's stream mode (nt_reader__feed):
 * every sample file fed in pieces of 1, 7, 4096 and 100000 bytes gives the
 * same events, in the same order, with the same payloads and stacks, as the
 * whole file; a stream cut mid-block stops with an error after feed_end.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "nettrace.h"

struct digest {
	uint64_t events, lost, hash;
	int end;
};

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static void add_event(struct digest *d, const struct nt_read_event *ev)
{
	d->events++;
	d->hash = mix(d->hash, &ev->timestamp, 8);
	d->hash = mix(d->hash, &ev->thread_id, 8);
	d->hash = mix(d->hash, &ev->meta->event_id, 4);
	d->hash = mix(d->hash, ev->meta->provider, strlen(ev->meta->provider));
	d->hash = mix(d->hash, ev->payload, ev->payload_size);
	d->hash = mix(d->hash, ev->stack, ev->stack_depth * 8ULL);
	d->hash = mix(d->hash, &ev->file_offset, 8);
}

static void whole(const uint8_t *buf, size_t len, struct digest *d)
{
	struct nt_reader *r = nt_reader__open_mem(buf, len, NULL);
	struct nt_read_event ev;
	int rc;

	memset(d, 0, sizeof(*d));
	while ((rc = nt_reader__next(r, &ev)) == 1)
		add_event(d, &ev);
	d->end = rc;
	d->lost = nt_reader__lost(r);
	nt_reader__close(r);
}

static void pieces(const uint8_t *buf, size_t len, size_t step, struct digest *d)
{
	struct nt_reader *r = nt_reader__open_stream(NULL);
	struct nt_read_event ev;
	size_t off = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	for (;;) {
		rc = nt_reader__next(r, &ev);
		if (rc == 1) {
			add_event(d, &ev);
			continue;
		}
		if (rc != NT_READ_AGAIN)
			break;
		if (off == len) {
			nt_reader__feed_end(r);
			continue;
		}
		size_t n = len - off < step ? len - off : step;

		if (nt_reader__feed(r, buf + off, n))
			break;
		off += n;
	}
	d->end = rc;
	d->lost = nt_reader__lost(r);
	nt_reader__close(r);
}

static uint8_t *load(const char *name, size_t *len)
{
	const char *shared = getenv("SHARED");
	char path[512];
	uint8_t *buf = NULL;
	FILE *f;
	long n;

	if (!shared)
		return NULL;
	snprintf(path, sizeof(path), "%s/testdata/nettrace/%s", shared, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n ? n : 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static const char *const files[] = {
	"perfview/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace",
	"perfview/eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace",
	"perfview/mixed_managed_external_samples.nettrace",
	"dotnet-diagnostics/dotnetcore3.0-preview-win-x64-truncated.nettrace",
};

static void test_pieces_equal_whole(void)
{
	static const size_t steps[] = { 1, 7, 4096, 100000 };
	int found = 0;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct digest a, b;
		size_t len;
		uint8_t *buf = load(files[i], &len);

		if (!buf)
			continue;
		found++;
		whole(buf, len, &a);
		for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
			if (steps[s] == 1 && len > 4000000)
				continue;
			pieces(buf, len, steps[s], &b);
			ASSERT_EQ(b.events, a.events, files[i]);
			ASSERT_EQ(b.hash, a.hash, files[i]);
			ASSERT_EQ(b.end, a.end, files[i]);
			ASSERT_EQ(b.lost, a.lost, files[i]);
		}
		free(buf);
	}
	if (!found)
		TEST_SKIP("SHARED sample traces not found");
}

/* A stream cut inside a block: AGAIN while more may come, an error after. */
static void test_cut_stream(void)
{
	struct nt_reader *r = nt_reader__open_stream(NULL);
	struct nt_read_event ev;
	struct digest full;
	size_t len, n = 0;
	uint8_t *buf = load(files[0], &len);
	int rc;

	if (!buf) {
		nt_reader__close(r);
		TEST_SKIP("SHARED sample traces not found");
	}
	whole(buf, len, &full);
	ASSERT_OK(nt_reader__feed(r, buf, len - 100), "feed");
	while ((rc = nt_reader__next(r, &ev)) == 1)
		n++;
	ASSERT_EQ(rc, NT_READ_AGAIN, "incomplete block waits");
	nt_reader__feed_end(r);
	while ((rc = nt_reader__next(r, &ev)) == 1)
		n++;
	ASSERT_EQ(rc, -1, "then truncation");
	ASSERT_TRUE(nt_reader__error(r) != NULL, "error text");
	ASSERT_TRUE(n < full.events, "fewer events");
	nt_reader__close(r);
	free(buf);
}

/* Bytes that cannot start a trace are refused as they come: the first
 * byte that differs from the magic, not after a whole header's worth. */
static void test_garbage_at_once(void)
{
	struct nt_reader *r = nt_reader__open_stream(NULL);
	struct nt_read_event ev;

	ASSERT_OK(nt_reader__feed(r, "Nx", 2), "feed");
	ASSERT_EQ(nt_reader__next(r, &ev), -1, "refused after 2 bytes");
	ASSERT_TRUE(strstr(nt_reader__error(r), "magic") != NULL, nt_reader__error(r));
	nt_reader__close(r);
	r = nt_reader__open_stream(NULL);
	ASSERT_OK(nt_reader__feed(r, "Nettrace\x14\0\0\0!Fast", 17), "feed");
	ASSERT_EQ(nt_reader__next(r, &ev), NT_READ_AGAIN, "a good start waits");
	ASSERT_OK(nt_reader__feed(r, "Food", 4), "feed");
	ASSERT_EQ(nt_reader__next(r, &ev), -1, "a bad serializer name is refused");
	nt_reader__close(r);
}

/* An object claiming more than NT_STREAM_MAX_BLOCK bytes is refused, not
 * waited for (a hostile peer could make the reader buffer 4 GB). */
static void test_huge_block(void)
{
	struct nt_reader *r = nt_reader__open_stream(NULL);
	struct nt_read_event ev;
	size_t len, hdr;
	uint8_t *buf = load(files[0], &len), obj[64];

	if (!buf) {
		nt_reader__close(r);
		TEST_SKIP("SHARED sample traces not found");
	}
	hdr = 32 + 16 + 5 + 49;		/* stream header, the Trace object */
	ASSERT_OK(nt_reader__feed(r, buf, hdr), "feed the header");
	ASSERT_EQ(nt_reader__next(r, &ev), NT_READ_AGAIN, "header read");
	memcpy(obj, "\x05\x05\x01\x02\0\0\0\x02\0\0\0\x0a\0\0\0EventBlock\x06"
		    "\xf0\xff\xff\xff", 30);
	ASSERT_OK(nt_reader__feed(r, obj, 30), "feed");
	ASSERT_EQ(nt_reader__next(r, &ev), -1, "refused");
	ASSERT_TRUE(strstr(nt_reader__error(r), "claims 4294967280 bytes") != NULL,
		    nt_reader__error(r));
	ASSERT_TRUE(nt_reader__buffered(r) < 4096, "nothing waited for");
	nt_reader__close(r);
	free(buf);
}

int main(void)
{
	RUN(test_pieces_equal_whole);
	RUN(test_cut_stream);
	RUN(test_garbage_at_once);
	RUN(test_huge_block);
	return test_summary();
}
