// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_nettrace - throughput and compactness of the nettrace writer/reader.
 *
 *   bench_nettrace [-n EVENTS] [-r RUNS] [-k DIR] [REAL.nettrace]
 *
 * -k DIR keeps the files written (DIR/synthetic.nettrace,
 * DIR/transcoded.nettrace) for tests/nettrace.bats to check independently.
 *
 * 1. Writes a synthetic stream shaped like a CPU-sampling session (per
 *    sampling pass: GC suspend/restart events with small payloads on the
 *    sampler thread, then one SampleProfiler event with a stack per thread,
 *    stacks drawn from a pool of hot stacks) and reports writer MB/s and
 *    events/s, then reader events/s, and bytes and header bytes per event.
 * 2. Reads a real runtime-written trace (default:
 *    $SHARED/testdata/nettrace/perfview/only_managed_samples.nettrace), and
 *    transcodes it event for event through our writer: same metadata,
 *    threads, timestamps, payloads and stacks.  Prints both files' bytes per
 *    event and compressed-header bytes per event, and the ratios.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nettrace.h"
#include "own_events.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *p = NULL;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && (p = malloc(st.st_size + 1))) {
		size_t got = 0;

		while (got < (size_t)st.st_size) {
			ssize_t r = read(fd, p + got, st.st_size - got);

			if (r <= 0)
				break;
			got += r;
		}
		*len = got;
	}
	close(fd);
	return p;
}

struct read_stats {
	uint64_t events, header_bytes, payload_bytes;
	double secs;
	int ok;
};

/* Read a whole file from memory; header bytes = blob start .. payload start. */
static void read_all(const uint8_t *buf, size_t len, struct read_stats *st)
{
	struct nt_reader *r = nt_reader__open_mem(buf, len, NULL);
	struct nt_read_event ev;
	double t0 = now();
	int rc;

	memset(st, 0, sizeof(*st));
	while ((rc = nt_reader__next(r, &ev)) == 1) {
		st->events++;
		st->header_bytes += (ev.payload - buf) - ev.file_offset;
		st->payload_bytes += ev.payload_size;
	}
	st->secs = now() - t0;
	st->ok = rc == 0;
	if (rc < 0)
		fprintf(stderr, "bench_nettrace: read: %s\n", nt_reader__error(r));
	nt_reader__close(r);
}

static const char *keep_dir;

static void tmp_name(char *buf, size_t n, const char *tag)
{
	if (keep_dir)
		snprintf(buf, n, "%s/%s.nettrace", keep_dir, tag);
	else
		snprintf(buf, n, "/tmp/bench_nettrace.%d.%s.nettrace", getpid(), tag);
	unlink(buf);
}

static void done_with(const char *path)
{
	if (!keep_dir)
		unlink(path);
}

static struct nt_trace_info bench_info(void)
{
	struct nt_trace_info info = { 0 };

	clock_gettime(CLOCK_REALTIME, &info.sync_utc);
	info.sync_ts = 1000000000;
	info.freq = 1000000000;
	info.pointer_size = 8;
	info.pid = 4242;
	info.ncpu = 2;
	info.sampling_interval_ns = 1000000;
	return info;
}

struct synth_result {
	uint64_t events;
	size_t bytes;
	double write_secs, read_secs;	/* writing excludes close (final blocks + fsync) */
	double close_secs;
	uint64_t header_bytes, payload_bytes;
};

static int synthetic(uint64_t n_events, struct synth_result *res)
{
	static const struct nt_event_desc sample = {
		.provider = "Microsoft-DotNETCore-SampleProfiler", .level = 4 };
	struct nt_event_desc gc = { .provider = "Microsoft-Windows-DotNETRuntime",
				    .name = "", .version = 1, .level = 4, .keywords = 1 };
	uint64_t pool[64][24], ts = 1000000000, written = 0, rng = 88172645463325252ULL;
	uint32_t sample_id, gc_ids[4], depth[64], seq_pass = 0;
	struct nt_trace_info info = bench_info();
	struct loss_summary_event sev;
	struct read_stats rs;
	struct nt_writer *w;
	uint8_t *buf;
	size_t len = 0;
	char path[128];
	double t0, wsecs;
	int err = 0;

	for (int s = 0; s < 64; s++) {
		depth[s] = 8 + s % 17;
		for (uint32_t k = 0; k < depth[s]; k++)
			pool[s][k] = 0x7f3a00000000ULL + s * 0x1000 + k * 0x40 + (k ? 0 : s);
	}
	tmp_name(path, sizeof(path), "synthetic");
	w = nt_writer__open(path, &info);
	if (!w) {
		perror("bench_nettrace: open");
		return 1;
	}
	nt_writer__define(w, &sample, &sample_id);
	for (int i = 0; i < 4; i++) {
		static const uint32_t ids[] = { 9, 8, 7, 3 };

		gc.event_id = ids[i];
		nt_writer__define(w, &gc, &gc_ids[i]);
	}
	/* the events are built once; the timed loop changes only what differs
	 * from one to the next (time, the GC events' pass byte, the stack), so
	 * the time is the writer's, not the building of its input */
	uint8_t gcp[10] = { 0 };
	int32_t type = 2;
	struct nt_event gce[4], se[6];

	for (int i = 0; i < 4; i++)
		gce[i] = (struct nt_event){ .metadata_id = gc_ids[i], .thread_id = 1000,
					    .capture_thread_id = 1000, .processor = 0xFFFFFFFF,
					    .payload = gcp, .payload_size = i < 2 ? 6 : 2 };
	for (int t = 0; t < 6; t++)
		se[t] = (struct nt_event){ .metadata_id = sample_id, .thread_id = 2000 + t,
					   .capture_thread_id = 1000, .processor = 0xFFFFFFFF,
					   .payload = &type, .payload_size = 4 };
	t0 = now();
	while (written < n_events && !err) {
		/* one sampling pass: 4 GC events + one sample for each of 6 threads */
		gcp[0] = seq_pass;
		for (int i = 0; i < 4 && !err; i++) {
			gce[i].timestamp = ts += 2000;
			err = nt_writer__write_event(w, &gce[i]);
			written++;
		}
		for (int t = 0; t < 6 && !err; t++) {
			uint32_t s;

			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			s = rng % 64;
			se[t].timestamp = ts += 300;
			se[t].stack = pool[s];
			se[t].stack_depth = depth[s];
			err = nt_writer__write_event(w, &se[t]);
			written++;
		}
		ts += 1000000;
		seq_pass++;
	}
	wsecs = now() - t0;
	t0 = now();
	if (!err)
		err = nt_writer__close(w, loss_summary__event(&sev, &(struct loss_summary){ 0 }, w),
				       ts);
	else
		nt_writer__abort(w);
	res->close_secs = now() - t0;
	if (err) {
		fprintf(stderr, "bench_nettrace: write: %s\n", strerror(-err));
		return 1;
	}
	buf = slurp(path, &len);
	done_with(path);
	if (!buf)
		return 1;
	read_all(buf, len, &rs);
	free(buf);
	res->events = rs.events;
	res->bytes = len;
	res->write_secs = wsecs;
	res->read_secs = rs.secs;
	res->header_bytes = rs.header_bytes;
	res->payload_bytes = rs.payload_bytes;
	return rs.ok ? 0 : 1;
}

struct real_result {
	uint64_t events;
	size_t bytes, our_bytes;
	uint64_t header_bytes, our_header_bytes;
	double read_secs, transcode_secs;
};

/* Transcode a real trace through our writer; compare sizes. */
static int real_trace(const char *real, struct real_result *res)
{
	struct read_stats a, b;
	struct nt_reader *r;
	struct nt_writer *w = NULL;
	struct nt_read_event ev;
	struct nt_trace_info info;
	uint32_t *ids = NULL, n_ids = 0;
	uint8_t *buf, *out;
	size_t len = 0, olen = 0;
	char path[128];
	double t0, wsecs;
	int err = 0, rc = 0;

	buf = slurp(real, &len);
	if (!buf) {
		fprintf(stderr, "bench_nettrace: %s: %s\n", real, strerror(errno));
		return 1;
	}
	read_all(buf, len, &a);
	r = nt_reader__open_mem(buf, len, NULL);
	info = *nt_reader__info(r);
	tmp_name(path, sizeof(path), "transcoded");
	w = nt_writer__open(path, &info);
	if (!w) {
		perror("bench_nettrace: open");
		return 1;
	}
	t0 = now();
	while (!err && (rc = nt_reader__next(r, &ev)) == 1) {
		const struct nt_metadata *m = ev.meta;
		struct nt_event e;

		if (m->id >= n_ids) {
			uint32_t nn = m->id + 64;

			ids = realloc(ids, nn * sizeof(*ids));
			memset(ids + n_ids, 0, (nn - n_ids) * sizeof(*ids));
			n_ids = nn;
		}
		if (!ids[m->id]) {
			struct nt_event_desc d = {
				.provider = m->provider, .event_id = m->event_id, .name = m->name,
				.keywords = m->keywords, .version = m->version, .level = m->level,
				.opcode = m->opcode, .fields = m->fields, .n_fields = m->n_fields };

			err = nt_writer__define(w, &d, &ids[m->id]);
			if (err)
				break;
		}
		memset(&e, 0, sizeof(e));
		e.metadata_id = ids[m->id];
		e.timestamp = ev.timestamp;
		e.thread_id = ev.thread_id;
		e.capture_thread_id = ev.capture_thread_id;
		e.processor = ev.processor;
		e.activity_id = ev.activity_id;
		e.related_activity_id = ev.related_activity_id;
		e.payload = ev.payload;
		e.payload_size = ev.payload_size;
		e.stack = ev.stack;
		e.stack_depth = ev.stack_depth;
		err = nt_writer__write_event(w, &e);
	}
	nt_reader__close(r);
	if (!err)
		err = nt_writer__close(w, NULL, 0);
	else
		nt_writer__abort(w);
	wsecs = now() - t0;
	free(ids);
	if (err) {
		fprintf(stderr, "bench_nettrace: transcode: %s\n", strerror(-err));
		free(buf);
		return 1;
	}
	out = slurp(path, &olen);
	done_with(path);
	if (!out) {
		free(buf);
		return 1;
	}
	read_all(out, olen, &b);
	res->events = a.events;
	res->bytes = len;
	res->our_bytes = olen;
	res->header_bytes = a.header_bytes;
	res->our_header_bytes = b.header_bytes;
	res->read_secs = a.secs;
	res->transcode_secs = wsecs;
	free(buf);
	free(out);
	return a.events == b.events && a.ok && b.ok ? 0 : 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "median min max" of v[0..n) */
static void row(const char *what, double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	printf("  %-28s %12.2f %12.2f %12.2f\n", what, v[n / 2], v[0], v[n - 1]);
}

#define MAX_RUNS 32

int main(int argc, char **argv)
{
	uint64_t n = 1000000;
	int runs = 5, opt, err = 0, i;
	const char *real = NULL;
	char def[512];
	double wm[MAX_RUNS], we[MAX_RUNS], rm[MAX_RUNS], re[MAX_RUNS], rr[MAX_RUNS],
	       tr[MAX_RUNS], cl[MAX_RUNS];
	struct synth_result sr = { 0 };
	struct real_result rl = { 0 };

	while ((opt = getopt(argc, argv, "n:k:r:")) != -1) {
		char *end;

		if (opt == 'k') {
			keep_dir = optarg;
		} else if (opt == 'n' || opt == 'r') {
			unsigned long long v = strtoull(optarg, &end, 10);

			if (*end || !v || (opt == 'r' && v > MAX_RUNS)) {
				fprintf(stderr, "bench_nettrace: bad -%c %s\n", opt, optarg);
				return 64;
			}
			if (opt == 'n')
				n = v;
			else
				runs = v;
		} else {
			fprintf(stderr, "usage: bench_nettrace [-n EVENTS] [-r RUNS] [-k DIR] "
				"[REAL.nettrace]\n");
			return 64;
		}
	}
	if (optind < argc) {
		real = argv[optind];
	} else if (getenv("SHARED")) {
		snprintf(def, sizeof(def), "%s/testdata/nettrace/perfview/only_managed_samples.nettrace",
			 getenv("SHARED"));
		real = def;
	}
	for (i = 0; i < runs && !err; i++) {
		err = synthetic(n, &sr);
		wm[i] = sr.bytes / 1e6 / sr.write_secs;
		we[i] = sr.events / 1e6 / sr.write_secs;
		rm[i] = sr.bytes / 1e6 / sr.read_secs;
		re[i] = sr.events / 1e6 / sr.read_secs;
		cl[i] = sr.close_secs * 1e3;
		if (!err && real) {
			err = real_trace(real, &rl);
			rr[i] = rl.events / 1e6 / rl.read_secs;
			tr[i] = rl.events / 1e6 / rl.transcode_secs;
		}
	}
	if (err)
		return 1;
	printf("nettrace writer/reader, %d runs\n", runs);
	printf("synthetic CPU-sampling stream: %llu events (GC suspend/restart + "
	       "ThreadSample with stacks), %.1f MB\n", (unsigned long long)sr.events,
	       sr.bytes / 1e6);
	printf("(writer: nt_writer__write_event calls incl. block writes to the page cache;\n"
	       " reader: nt_reader__next over the file in memory)\n");
	printf("  %-28s %12s %12s %12s\n", "", "median", "min", "max");
	row("writer MB/s", wm, runs);
	row("writer Mevents/s", we, runs);
	row("close incl. fsync, ms", cl, runs);
	row("reader MB/s", rm, runs);
	row("reader Mevents/s", re, runs);
	/* row() sorted them: [runs / 2] is the median */
	printf("  target writer >= 500 MB/s: %s (median %.0f); reader >= 300 MB/s: %s (median %.0f)\n",
	       wm[runs / 2] >= 500 ? "met" : "MISSED", wm[runs / 2],
	       rm[runs / 2] >= 300 ? "met" : "MISSED", rm[runs / 2]);
	printf("  bytes/event %.2f = header %.2f + payload %.2f (+ stacks, block framing)\n",
	       (double)sr.bytes / sr.events, (double)sr.header_bytes / sr.events,
	       (double)sr.payload_bytes / sr.events);
	if (!real) {
		printf("real trace: skipped (pass a file or set SHARED)\n");
		return 0;
	}
	printf("real trace %s: %llu events\n", real, (unsigned long long)rl.events);
	printf("  %-28s %12s %12s %12s\n", "", "runtime", "ours", "ours/runtime");
	printf("  %-28s %12zu %12zu %12.3f\n", "file bytes", rl.bytes, rl.our_bytes,
	       (double)rl.our_bytes / rl.bytes);
	printf("  %-28s %12.2f %12.2f %12.3f\n", "bytes/event", (double)rl.bytes / rl.events,
	       (double)rl.our_bytes / rl.events, (double)rl.our_bytes / rl.bytes);
	printf("  %-28s %12.2f %12.2f %12.3f\n", "header bytes/event",
	       (double)rl.header_bytes / rl.events, (double)rl.our_header_bytes / rl.events,
	       (double)rl.our_header_bytes / (rl.header_bytes ? rl.header_bytes : 1));
	printf("  %-28s %12s %12s %12s\n", "", "median", "min", "max");
	row("reader Mevents/s (real)", rr, runs);
	row("transcode Mevents/s", tr, runs);
	printf("  synthetic/real header bytes per event: %.3f\n",
	       ((double)sr.header_bytes / sr.events) / ((double)rl.header_bytes / rl.events));
	return 0;
}
