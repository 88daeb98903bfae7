/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_dotnet_ipc.c - the diagnostics IPC messages (collector/sources/dotnet_ipc.c)
 * and the EventPipe session (collector/sources/eventpipe.c) against a fake runtime:
 * a Unix socket server that rejects CollectTracing3 like a .NET 5/6
 * runtime, accepts CollectTracing2, streams a nettrace file in small
 * pieces and ends it at StopTracing.  Its runtime events are read as the
 * event table's (eventpipe__event), a version the table lacks as the
 * newest earlier one it has.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "test.h"
#include "dotnet_ipc.h"
#include "event_table.h"
#include "eventpipe.h"
#include "nettrace.h"
#include "pipeline.h"
#include "reorder.h"

extern const struct ect_table clretw_event_table;

static void put_str16(uint8_t **p, const char *s)
{
	uint32_t n = strlen(s) + 1;

	memcpy(*p, &n, 4);
	*p += 4;
	for (uint32_t i = 0; i < n; i++) {
		(*p)[2 * i] = s[i];
		(*p)[2 * i + 1] = 0;
	}
	*p += 2 * n;
}

static void test_header(void)
{
	uint8_t h[DN_IPC_HEADER_SIZE];
	uint16_t total;
	uint8_t set, id;

	dn_put_header(h, 0x1234, DN_SET_PROCESS, DN_PROC_RESUME_RUNTIME);
	ASSERT_MEMEQ(h, "DOTNET_IPC_V1\0", 14, "magic with its NUL");
	ASSERT_EQ(h[14] | h[15] << 8, 0x1234, "size");
	ASSERT_EQ(h[16], 4, "command set");
	ASSERT_EQ(h[17], 1, "command id");
	ASSERT_OK(dn_parse_header(h, &total, &set, &id), "parse");
	ASSERT_EQ(total, 0x1234, "total");
	h[3] = 'X';
	ASSERT_EQ(dn_parse_header(h, &total, &set, &id), -EPROTO, "bad magic");
}

static void test_collect_payload(void)
{
	struct dn_provider p[2] = { { "Microsoft-Windows-DotNETRuntime", 0x14C14FCCBDULL, 4 },
				    { "My", 0x1, 5 } };
	uint8_t b[1024];
	long n2 = dn_build_collect(b, sizeof(b), 2, 256, 1, p, 2), n3;
	size_t off = DN_IPC_HEADER_SIZE;

	/* u32 MB, u32 format, bool rundown, u32 count, then per provider u64
	 * keywords, u32 level, name, filter (null) */
	ASSERT_EQ(n2, 20 + 4 + 4 + 1 + 4 + (8 + 4 + 4 + 2 * 32 + 4) + (8 + 4 + 4 + 2 * 3 + 4),
		  "CollectTracing2 size");
	ASSERT_EQ(b[17], DN_EP_COLLECT_TRACING2, "id 3");
	ASSERT_EQ(b[14] | b[15] << 8, n2, "size in header");
	ASSERT_EQ(b[off], 0, "256 MB");
	ASSERT_EQ(b[off + 1], 1, "256 MB");
	ASSERT_EQ(b[off + 4], 1, "format NetTrace");
	ASSERT_EQ(b[off + 8], 1, "rundown");
	ASSERT_EQ(b[off + 9], 2, "2 providers");
	ASSERT_EQ(b[off + 13], 0xBD, "keywords");
	ASSERT_EQ(b[off + 21], 4, "level");
	ASSERT_EQ(b[off + 25], 32, "name length incl NUL");
	ASSERT_EQ(b[off + 29], 'M', "UTF-16 name");
	n3 = dn_build_collect(b, sizeof(b), 3, 256, 0, p, 2);
	ASSERT_EQ(n3, n2 + 1, "CollectTracing3: + requestStackwalk");
	ASSERT_EQ(b[17], DN_EP_COLLECT_TRACING3, "id 4");
	ASSERT_EQ(b[off + 8], 0, "no rundown");
	ASSERT_EQ(b[off + 9], 1, "stackwalk");
	ASSERT_EQ(dn_build_collect(b, 40, 3, 256, 0, p, 2), -E2BIG, "small buffer");
}

static void test_process_info(void)
{
	uint8_t b[1024], *p = b;
	struct dn_process_info pi;
	uint64_t pid = 4242;

	memcpy(p, &pid, 8);
	memset(p + 8, 0xab, 16);
	p += 24;
	put_str16(&p, "dotnet app.dll");
	put_str16(&p, "Linux");
	put_str16(&p, "x64");
	put_str16(&p, "app");
	put_str16(&p, "10.0.12+abc");
	ASSERT_OK(dn_parse_process_info(b, p - b, 1, &pi), "ProcessInfo2");
	ASSERT_EQ(pi.pid, 4242, "pid");
	ASSERT_STREQ(pi.cmdline, "dotnet app.dll", "command line");
	ASSERT_STREQ(pi.arch, "x64", "arch");
	ASSERT_STREQ(pi.runtime_version, "10.0.12+abc", "version");
	ASSERT_OK(dn_parse_process_info(b, p - b, 0, &pi), "ProcessInfo (v1 fields)");
	ASSERT_STREQ(pi.runtime_version, "", "no version in v1");
	ASSERT_EQ(dn_parse_process_info(b, p - b - 3, 1, &pi), -EPROTO, "truncated");
	ASSERT_EQ(dn_parse_process_info(b, 20, 1, &pi), -EPROTO, "shorter than the header");
}

/* ------------------------------------------------------------ fake runtime */

struct fake {
	int lfd;
	const uint8_t *stream;
	size_t stream_len;
	uint8_t commands[8];
	int n_commands;
	int stream_fd;
};

static int read_n(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (uint8_t *)buf + got, n - got);

		if (r <= 0)
			return -1;
		got += r;
	}
	return 0;
}

static void reply(int fd, int ok, const void *payload, size_t len)
{
	uint8_t h[DN_IPC_HEADER_SIZE];

	dn_put_header(h, DN_IPC_HEADER_SIZE + len, DN_SET_SERVER, ok ? DN_RESP_OK : DN_RESP_ERROR);
	if (write(fd, h, sizeof(h)) != sizeof(h) || write(fd, payload, len) != (ssize_t)len)
		perror("fake runtime: write");
}

static void *fake_runtime(void *arg)
{
	struct fake *f = arg;
	uint64_t session = 0x1234;
	uint32_t unknown = DN_E_UNKNOWN_COMMAND;

	for (;;) {
		uint8_t h[DN_IPC_HEADER_SIZE], body[4096];
		uint16_t total;
		uint8_t set, id;
		int fd = accept(f->lfd, NULL, NULL);

		if (fd < 0)
			return NULL;
		if (read_n(fd, h, sizeof(h)) || dn_parse_header(h, &total, &set, &id) ||
		    read_n(fd, body, total - DN_IPC_HEADER_SIZE)) {
			close(fd);
			continue;
		}
		f->commands[f->n_commands++] = id;
		if (id == DN_EP_COLLECT_TRACING3) {	/* an older runtime */
			reply(fd, 0, &unknown, 4);
			close(fd);
		} else if (id == DN_EP_COLLECT_TRACING2) {
			reply(fd, 1, &session, 8);
			/* all but the end-of-stream byte, in pieces */
			for (size_t off = 0; off + 1 < f->stream_len; off += 333) {
				size_t n = f->stream_len - 1 - off < 333 ? f->stream_len - 1 - off : 333;

				if (write(fd, f->stream + off, n) != (ssize_t)n)
					break;
			}
			f->stream_fd = fd;
		} else if (id == DN_EP_STOP_TRACING) {
			reply(fd, 1, &session, 8);
			close(fd);
			if (write(f->stream_fd, f->stream + f->stream_len - 1, 1) != 1)
				perror("fake runtime: end");
			close(f->stream_fd);
			return NULL;
		} else {	/* EnablePerfMap etc.: as a runtime before .NET 8 */
			reply(fd, 0, &unknown, 4);
			close(fd);
		}
	}
}

#define RT_PROVIDER	"Microsoft-Windows-DotNETRuntime"

/* 100 events of an EventSource, then three of the runtime's: ContentionStart
 * version 2 (the table has version 1), GCStart version 2 (as the table) and
 * GCStart version 1 (older than any the table has) */
static uint8_t *make_stream(const char *dir, size_t *len)
{
	static const struct nt_field_desc fields[] = { { .name = "Index", .type = NT_TYPE_INT32 } };
	struct nt_event_desc d = { .provider = "Fake-Source", .event_id = 1, .name = "Tick",
				   .level = 4, .fields = fields, .n_fields = 1 };
	struct nt_event_desc rt[] = {
		{ .provider = RT_PROVIDER, .event_id = 81, .version = 2, .level = 4 },
		{ .provider = RT_PROVIDER, .event_id = 1, .version = 2, .level = 4 },
		{ .provider = RT_PROVIDER, .event_id = 1, .version = 1, .level = 4 },
	};
	/* ContentionFlags, ClrInstanceID, then V2's LockID, AssociatedObjectID,
	 * LockOwnerThreadID; GCStart_V2: Count 9, Depth 2, Reason 1, Type 0,
	 * ClrInstanceID, ClientSequenceNumber */
	static const uint8_t cont[27] = { 1 };
	static const uint8_t gc[26] = { 9, 0, 0, 0, 2, 0, 0, 0, 1 };
	const void *rt_payload[] = { cont, gc, gc };
	const uint32_t rt_size[] = { sizeof(cont), sizeof(gc), 18 };
	struct nt_trace_info info = { .freq = 1000000000, .pointer_size = 8, .pid = 1, .ncpu = 1 };
	struct timespec now;
	char path[512];
	uint32_t id, rt_id[3];
	uint8_t *buf = NULL;
	struct nt_writer *w;
	FILE *f;

	clock_gettime(CLOCK_MONOTONIC, &now);	/* a runtime's sync point: now */
	info.sync_ts = now.tv_sec * 1000000000ULL + now.tv_nsec;
	snprintf(path, sizeof(path), "%s/s.nettrace", dir);
	w = nt_writer__open(path, &info);
	if (!w || nt_writer__define(w, &d, &id))
		return NULL;
	for (int i = 0; i < 3; i++)
		if (nt_writer__define(w, &rt[i], &rt_id[i]))
			return NULL;
	for (int32_t i = 0; i < 100; i++) {
		struct nt_event ev = { .metadata_id = id, .timestamp = info.sync_ts + i, .thread_id = 7,
				       .capture_thread_id = 7, .payload = &i, .payload_size = 4 };

		nt_writer__write_event(w, &ev);
	}
	for (int i = 0; i < 3; i++) {
		struct nt_event ev = { .metadata_id = rt_id[i], .timestamp = info.sync_ts + 100 + i,
				       .thread_id = 7, .capture_thread_id = 7,
				       .payload = rt_payload[i], .payload_size = rt_size[i] };

		nt_writer__write_event(w, &ev);
	}
	nt_writer__close(w, NULL, info.sync_ts + 1000);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	buf = malloc(*len);
	if (fread(buf, 1, *len, f) != *len)
		*len = 0;
	fclose(f);
	return buf;
}

/* The records out of the reorder buffer, and what eventpipe__event reads. */
struct popped {
	struct eventpipe *ep;
	int events;
	char read_as[4][64];	/* symbol/version sent/payload bytes of each one read */
	int n_read;
	uint64_t depth;
};

static int count(void *ctx, const void *rec, size_t len)
{
	struct popped *p = ctx;
	struct pipeline_event ev;

	p->events++;
	if (eventpipe__event(p->ep, &clretw_event_table, rec, len, &ev) != 1)
		return 0;
	if (p->n_read < 4)
		snprintf(p->read_as[p->n_read], sizeof(p->read_as[0]), "%s/%u/%u", ev.ev->symbol,
			 ev.version, ev.payload_len);
	p->n_read++;
	if (!strcmp(ev.ev->symbol, "GCStart_V2"))
		ect_payload_get_u64(ev.ev, ev.payload, ev.payload_len, "Depth", &p->depth);
	return 0;
}

static void test_fallback_and_stream(void)
{
	char dir[] = "/tmp/test_dotnet_ipc.XXXXXX", err[512];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct fake f = { .stream_fd = -1 };
	struct ep_config cfg = { .provs = { { "Fake-Source", ~0ULL, 5 } }, .n = 1,
				 .buffer_mb = 16 };
	struct popped popped = { 0 };
	struct dn_socket s = { .pid = getpid(), .nspid = getpid() };
	struct reorder *ro = reorder__new();
	struct eventpipe *ep;
	enum ep_fail why;
	pthread_t th;
	int rc = -1;

	if (!ASSERT_OK_PTR(mkdtemp(dir), "tmp dir"))
		return;
	f.stream = make_stream(dir, &f.stream_len);
	if (!ASSERT_OK_PTR(f.stream, "stream"))
		return;
	snprintf(s.path, sizeof(s.path), "%s/dotnet-diagnostic-1-1-socket", dir);
	if (!ASSERT_TRUE(strlen(s.path) < sizeof(sa.sun_path), "short path"))
		return;
	memcpy(sa.sun_path, s.path, strlen(s.path) + 1);
	f.lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_OK(bind(f.lfd, (struct sockaddr *)&sa, sizeof(sa)), "bind");
	ASSERT_OK(listen(f.lfd, 4), "listen");
	pthread_create(&th, NULL, fake_runtime, &f);

	ep = eventpipe__start(&s, &cfg, false, err, sizeof(err));
	if (!ASSERT_OK_PTR(ep, err))
		goto out;
	for (int i = 0; i < 500 && eventpipe__state(ep, NULL, NULL) == EP_STARTING; i++)
		usleep(10000);
	ASSERT_EQ(eventpipe__state(ep, &why, NULL), EP_RUNNING, "session started");
	ASSERT_EQ(eventpipe__version(ep), 2, "fell back to CollectTracing2");
	ASSERT_EQ(f.commands[0], DN_EP_COLLECT_TRACING3, "tried CollectTracing3 first");
	ASSERT_FALSE(eventpipe__perfmap(ep), "EnablePerfMap rejected: no perf map");
	ASSERT_OK(eventpipe__stop_begin(ep), "StopTracing sent");
	for (int i = 0; i < 500 && (rc = eventpipe__stop_poll(ep, ro, false, err, sizeof(err))) ==
	     EP_STOP_AGAIN; i++)
		usleep(10000);
	ASSERT_EQ(rc, 0, "clean end");
	popped.ep = ep;
	reorder__pop_before(ro, UINT64_MAX, count, &popped);
	ASSERT_EQ(popped.events, 103, "every event of the stream");
	ASSERT_EQ(popped.n_read, 2, "two of the runtime's events in the table");
	ASSERT_STREQ(popped.read_as[0], "ContentionStart_V1/2/27", "version 2 read as version 1");
	ASSERT_STREQ(popped.read_as[1], "GCStart_V2/2/26", "the table's version");
	ASSERT_EQ(popped.depth, 2, "its payload decoded with the table's layout");
	ASSERT_EQ(f.commands[f.n_commands - 1], DN_EP_STOP_TRACING, "StopTracing last");
	eventpipe__free(ep);
out:
	pthread_join(th, NULL);
	close(f.lfd);
	unlink(s.path);
	snprintf(err, sizeof(err), "%s/s.nettrace", dir);
	unlink(err);
	rmdir(dir);
	free((void *)f.stream);
	reorder__free(ro);
}

/* A peer that accepts and never answers: the exchange ends at its deadline,
 * or at once when cancelled. */
static void test_deadline(void)
{
	char dir[] = "/tmp/test_dotnet_ipc.XXXXXX", path[108];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	volatile bool cancel = true;
	struct dn_wait w = { mono_ms() + 300, NULL };
	struct dn_reply_info info;
	uint64_t t0;
	int lfd, rc;

	if (!ASSERT_OK_PTR(mkdtemp(dir), "tmp dir"))
		return;
	snprintf(path, sizeof(path), "%s/s", dir);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_OK(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), "bind");
	ASSERT_OK(listen(lfd, 4), "listen");	/* never accepts: connects queue */
	t0 = mono_ms();
	rc = dn_command_wait(path, DN_SET_PROCESS, DN_PROC_INFO, NULL, 0, NULL, NULL, NULL, NULL,
			     &w, &info);
	ASSERT_EQ(rc, -ETIMEDOUT, "no answer: timed out");
	ASSERT_EQ(info.got, 0, "nothing came");
	ASSERT_TRUE(mono_ms() - t0 >= 290 && mono_ms() - t0 < 2000, "at the deadline");
	w.deadline_ms = mono_ms() + 5000;
	w.cancel = &cancel;
	t0 = mono_ms();
	rc = dn_command_wait(path, DN_SET_PROCESS, DN_PROC_INFO, NULL, 0, NULL, NULL, NULL, NULL,
			     &w, NULL);
	ASSERT_EQ(rc, -ECANCELED, "cancelled");
	ASSERT_TRUE(mono_ms() - t0 < 1000, "at once");
	close(lfd);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	RUN(test_header);
	RUN(test_collect_payload);
	RUN(test_process_info);
	RUN(test_fallback_and_stream);
	RUN(test_deadline);
	return test_summary();
}
