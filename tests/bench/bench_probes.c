// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_probes.c - the traced program of the side-by-side tracer bench
 * (scripts/bench-tracers.sh).
 *
 *   bench_probes -m MODE [-s BYTES] [-n COUNT] [-t THREADS] [-r RATE]
 *                [-w SECS] [-d MS] [-g FILE] [-G FILE] [-b BATCH] [-V] [-A]
 *
 * Every mode fires one event with the same payload: a GCDynamicEvent in the
 * manifest layout (Name u"B", DataSize, Data, ClrInstanceID) of BYTES bytes
 * in all (64 or 1024; at least 10), in a tight loop, COUNT times on each of
 * THREADS threads:
 *
 *   clr    the generated provider: FireEtXplatGCDynamicEvent(), i.e. what a
 *          runtime built with usdt-gen runs (semaphore check, serialize,
 *          5-byte-nop USDT probe DotNETRuntime:GCDynamicEvent)
 *   nop5   the same serialization by hand, then our own semaphore probe
 *          BenchProbes:Nop5 with the generated provider's argument list and a
 *          5-byte nop site (what usdt-gen emits)
 *   nop1   the same with BenchProbes:Nop1 and sys/sdt.h's stock 1-byte nop:
 *          nop1 vs nop5 is exactly "what the 5-byte nop buys"
 *   lttng  (bench_probes_lttng only) LTTng-UST tracepoint
 *          bench_lttng:gc_dynamic with the same payload as a byte sequence
 *
 * -V (clr mode): the first 8 bytes of each event's Data are its thread's
 * number << 40 | its index in that thread, so two traces of the same run
 * can be compared event for event.  -A: each thread fires its events with
 * activity id {N+1, 0xac} and related activity id {N+1, 0x4e} (thread N).
 *
 * Arguments of the BenchProbes probes: arg0 payload pointer, arg1 u32 length,
 * arg2/arg3 activity id pointers (0), as in usdt/README.md.
 *
 * The loop starts once the event is enabled (a tracer raised the semaphore,
 * or LTTng enabled the tracepoint), waiting up to SECS (-w, default 0: start
 * at once), then -d MS more so a tracer that attaches in several steps is
 * complete; then it creates FILE (-g: the driver's cue to read the tracer's
 * CPU time; it holds "go") and, with -G FILE2, waits for FILE2 to exist
 * (a test's cue that it has done what it must before the first event), and
 * the threads start together.  RATE (-r) paces each thread to RATE
 * events/s (0 = as fast as possible): bursts of BATCH events (-b, default
 * 64), then a sleep
 * until the next burst is due; the thread's CPU time is then summed over
 * the bursts only (two clock_gettime(CLOCK_THREAD_CPUTIME_ID) syscalls per
 * burst add ~5 ns per event), so pacing itself costs nothing measured.
 *
 * Output, one JSON line on stdout:
 *   {"mode", "bytes", "threads", "enabled": 0/1, "events": fired in all,
 *    "cpu_ns_per_event": mean over threads of the thread's CPU time
 *    (user + kernel: the uprobe trap and the BPF program are charged to it)
 *    per event, "wall_ns_per_event": the same for elapsed time,
 *    "seconds": wall time of the slowest thread, "rate": events/s in all}
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clretw_provider.h"
#ifdef BENCH_LTTNG
#include "bench_lttng_tp.h"
#endif

#define MAX_THREADS	64
#define BATCH		64	/* paced mode: default events per burst (-b) */
#define MAX_BYTES	1024	/* the generated provider's stack buffer */
#define NAME_BYTES	4	/* u"B" with its NUL */
#define FIXED_BYTES	(NAME_BYTES + 4 + 2)

enum mode { M_CLR, M_NOP5, M_NOP1, M_LTTNG };

static const char *const mode_names[] = { "clr", "nop5", "nop1", "lttng" };

struct env {
	enum mode mode;
	unsigned int bytes;
	unsigned long count;
	int threads;
	unsigned long rate;
	double wait_secs;
	unsigned int delay_ms;
	const char *go_file;
	const char *start_file;	/* -G: start once it exists */
	unsigned long batch;
	int vary;			/* -V */
	int activity;			/* -A */
};

static struct env env = { .mode = M_CLR, .bytes = 64, .count = 1000000, .threads = 1,
			  .batch = BATCH };

struct worker {
	pthread_t thread;
	uint64_t cpu_ns, wall_ns, fired;
};

static struct worker workers[MAX_THREADS];
static pthread_barrier_t start_barrier;
static uint8_t data[MAX_BYTES];

__extension__ unsigned short BenchProbes_Nop1_semaphore
	__attribute__((section(".probes"), visibility("hidden")));
__extension__ unsigned short BenchProbes_Nop5_semaphore
	__attribute__((section(".probes"), visibility("hidden")));

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* GCDynamicEvent's manifest layout: Name, DataSize, Data, ClrInstanceID */
static __always_inline unsigned int pack_payload(uint8_t *buf, unsigned int bytes)
{
	static const uint8_t name[NAME_BYTES] = { 'B', 0, 0, 0 };
	uint32_t dsize = bytes - FIXED_BYTES;
	uint16_t inst = 7;

	memcpy(buf, name, NAME_BYTES);
	memcpy(buf + NAME_BYTES, &dsize, 4);
	memcpy(buf + NAME_BYTES + 4, data, dsize);
	memcpy(buf + NAME_BYTES + 4 + dsize, &inst, 2);
	return bytes;
}

/* keeps functions holding a 5-byte-nop probe non-leaf (red zone, usdt/README.md) */
__attribute__((noinline)) static void nonleaf(void)
{
	__asm__ __volatile__("" ::: "memory");
}

/* sys/sdt.h's stock site: a 1-byte nop (int3 when traced) */
__attribute__((noinline)) static int fire_nop1(unsigned int bytes)
{
	uint8_t buf[MAX_BYTES];
	unsigned int len;
	const void *act = NULL, *rel = NULL;

	if (!BenchProbes_Nop1_semaphore)
		return 0;
	len = pack_payload(buf, bytes);
	__asm__ volatile("" : "+r"(len), "+r"(act), "+r"(rel));
	STAP_PROBE4(BenchProbes, Nop1, buf, len, act, rel);
	nonleaf();
	return 1;
}

/* from here on every STAP_PROBE site is the generated provider's 5-byte nop */
#undef _SDT_NOP
#define _SDT_NOP .nops 5

__attribute__((noinline)) static int fire_nop5(unsigned int bytes)
{
	uint8_t buf[MAX_BYTES];
	unsigned int len;
	const void *act = NULL, *rel = NULL;

	if (!BenchProbes_Nop5_semaphore)
		return 0;
	len = pack_payload(buf, bytes);
	__asm__ volatile("" : "+r"(len), "+r"(act), "+r"(rel));
	STAP_PROBE4(BenchProbes, Nop5, buf, len, act, rel);
	nonleaf();
	return 1;
}

/* -V: each event's Data starts with its thread's number and its own */
static __thread uint8_t thread_data[MAX_BYTES];
static __thread uint64_t thread_seq;

static int fire_clr(unsigned int bytes)
{
	static const char16_t name[] = u"B";
	const uint8_t *d = data;

	if (!EventXplatEnabledGCDynamicEvent())
		return 0;
	if (env.vary) {
		memcpy(thread_data, &thread_seq, 8);
		thread_seq++;
		d = thread_data;
	}
	FireEtXplatGCDynamicEvent(name, bytes - FIXED_BYTES, d, 7);
	return 1;
}

#ifdef BENCH_LTTNG
__attribute__((noinline)) static int fire_lttng(unsigned int bytes)
{
	uint8_t buf[MAX_BYTES];
	unsigned int len;

	if (!lttng_ust_tracepoint_enabled(bench_lttng, gc_dynamic))
		return 0;
	len = pack_payload(buf, bytes);
	lttng_ust_do_tracepoint(bench_lttng, gc_dynamic, buf, len);
	return 1;
}
#endif

static int fire(unsigned int bytes)
{
	switch (env.mode) {
	case M_CLR:
		return fire_clr(bytes);
	case M_NOP5:
		return fire_nop5(bytes);
	case M_NOP1:
		return fire_nop1(bytes);
	case M_LTTNG:
#ifdef BENCH_LTTNG
		return fire_lttng(bytes);
#endif
		break;
	}
	return 0;
}

static int enabled(void)
{
	switch (env.mode) {
	case M_CLR:
		return EventXplatEnabledGCDynamicEvent();
	case M_NOP5:
		return BenchProbes_Nop5_semaphore != 0;
	case M_NOP1:
		return BenchProbes_Nop1_semaphore != 0;
	case M_LTTNG:
#ifdef BENCH_LTTNG
		return lttng_ust_tracepoint_enabled(bench_lttng, gc_dynamic) != 0;
#endif
		break;
	}
	return 0;
}

/* sleep until `due` on CLOCK_MONOTONIC (sleeping costs the thread no CPU time) */
static void pace(uint64_t due)
{
	struct timespec ts = { (time_t)(due / 1000000000ULL), (long)(due % 1000000000ULL) };

	if (due > clock_ns(CLOCK_MONOTONIC))
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int bytes = env.bytes;
	uint64_t t0, c0, fired = 0;
	unsigned long i;

	thread_seq = (uint64_t)(w - workers) << 40;
	if (env.activity) {
		GUID act = { .Data1 = (unsigned int)(w - workers) + 1, .Data2 = 0xac },
		     rel = { .Data1 = (unsigned int)(w - workers) + 1, .Data2 = 0x4e };

		EventXplatSetActivityId(&act, &rel);
	}
	pthread_barrier_wait(&start_barrier);
	t0 = clock_ns(CLOCK_MONOTONIC);
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	if (!env.rate) {
		for (i = 0; i < env.count; i++)
			fired += fire(bytes);
		w->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	} else {
		/* paced: bursts of BATCH events, CPU time counted per burst only */
		for (i = 0; i < env.count;) {
			unsigned long end = i + env.batch < env.count ? i + env.batch : env.count;

			c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
			for (; i < end; i++)
				fired += fire(bytes);
			w->cpu_ns += clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
			pace(t0 + i * 1000000000ULL / env.rate);
		}
	}
	w->wall_ns = clock_ns(CLOCK_MONOTONIC) - t0;
	w->fired = fired;
	return NULL;
}

static int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv)
{
	unsigned long v;
	int opt, k;

	while ((opt = getopt(argc, argv, "m:s:n:t:r:w:d:g:G:b:VA")) != -1) {
		switch (opt) {
		case 'm':
			for (k = 0; k < 4 && strcmp(optarg, mode_names[k]); k++)
				;
			if (k == 4)
				return -EINVAL;
			env.mode = k;
			break;
		case 's':
			if (parse_ulong(optarg, FIXED_BYTES, MAX_BYTES, &v))
				return -EINVAL;
			env.bytes = v;
			break;
		case 'n':
			if (parse_ulong(optarg, 1, ~0UL >> 1, &env.count))
				return -EINVAL;
			break;
		case 't':
			if (parse_ulong(optarg, 1, MAX_THREADS, &v))
				return -EINVAL;
			env.threads = v;
			break;
		case 'r':
			if (parse_ulong(optarg, 0, 1000000000, &env.rate))
				return -EINVAL;
			break;
		case 'w':
			env.wait_secs = strtod(optarg, NULL);
			break;
		case 'd':
			if (parse_ulong(optarg, 0, 600000, &v))
				return -EINVAL;
			env.delay_ms = v;
			break;
		case 'g':
			env.go_file = optarg;
			break;
		case 'G':
			env.start_file = optarg;
			break;
		case 'V':
			env.vary = 1;
			break;
		case 'A':
			env.activity = 1;
			break;
		case 'b':
			if (parse_ulong(optarg, 1, 1000000, &env.batch))
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
#ifndef BENCH_LTTNG
	if (env.mode == M_LTTNG) {
		fprintf(stderr, "bench_probes: -m lttng needs bench_probes_lttng\n");
		return -EINVAL;
	}
#endif
	return optind == argc ? 0 : -EINVAL;
}

int main(int argc, char **argv)
{
	uint64_t fired = 0, cpu = 0, wall = 0, slowest = 0, deadline;
	int i, on, err;

	if (parse_args(argc, argv)) {
		fprintf(stderr, "usage: bench_probes -m clr|nop5|nop1|lttng [-s BYTES] [-n COUNT] "
			"[-t THREADS] [-r RATE] [-w SECS] [-d MS] [-g FILE] [-G FILE] [-b BATCH] "
			"[-V] [-A]\n");
		return 64;
	}
	for (i = 0; i < MAX_BYTES; i++)
		data[i] = (uint8_t)(i * 7 + 1);
	deadline = clock_ns(CLOCK_MONOTONIC) + (uint64_t)(env.wait_secs * 1e9);
	while (!(on = enabled()) && clock_ns(CLOCK_MONOTONIC) < deadline)
		usleep(2000);
	if (on && env.delay_ms)
		usleep(env.delay_ms * 1000);
	if (env.go_file) {
		FILE *f = fopen(env.go_file, "w");

		if (f) {
			fputs("go\n", f);
			fclose(f);
		}
	}
	while (env.start_file && access(env.start_file, F_OK))
		usleep(2000);
	pthread_barrier_init(&start_barrier, NULL, env.threads);
	for (i = 0; i < env.threads; i++) {
		err = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
		if (err) {
			fprintf(stderr, "bench_probes: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	for (i = 0; i < env.threads; i++) {
		pthread_join(workers[i].thread, NULL);
		fired += workers[i].fired;
		cpu += workers[i].cpu_ns;
		wall += workers[i].wall_ns;
		if (workers[i].wall_ns > slowest)
			slowest = workers[i].wall_ns;
	}
	printf("{\"mode\": \"%s\", \"bytes\": %u, \"threads\": %d, \"enabled\": %d, "
	       "\"events\": %llu, \"cpu_ns_per_event\": %.1f, \"wall_ns_per_event\": %.1f, "
	       "\"seconds\": %.4f, \"rate\": %.0f}\n",
	       mode_names[env.mode], env.bytes, env.threads, on, (unsigned long long)fired,
	       (double)cpu / env.threads / env.count, (double)wall / env.threads / env.count,
	       slowest / 1e9, fired / (slowest / 1e9));
	return 0;
}
