// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * testprog.c - a minimal USDT target for the collector's tests and bench:
 * sys/sdt.h semaphore probes with the runtime's provider/probe names and
 * argument convention (arg0 payload pointer, arg1 length, arg2/arg3
 * activity id pointers), 5-byte nop sites (architecture decision 12).
 *
 *   usdt_testprog [-n COUNT] [-t THREADS] [-r RATE] [-w SECS] [-s PAYLOAD]
 *                 [-L LIB [-D MS]] [-A]
 *
 * Fires DotNETRuntime:GCStart_V2 COUNT times per thread (RATE per second per
 * thread, 0 = as fast as possible), after waiting up to SECS for a tracer
 * to enable the probe (-w).  Prints {"GCStart_V2": N, "GCEnd_V1": M,
 * "calls", "cpu_ns_per_call" (thread CPU time, kernel included: trap + BPF),
 * "ns_per_call" (wall), "seconds"}: N counts only probes fired while enabled.  -s pads the payload to
 * PAYLOAD bytes (Count..ClientSequenceNumber, then zeros) for size tests.
 * -L dlopen()s LIB (testlib.c) MS milliseconds after the start (-D, default
 * 0) and from then on also fires its GCEnd_V1 probe each iteration:
 * "GCEnd_V1" in the output counts those fired while enabled.  -A passes
 * activity id 01020304-... and related activity id 11121314-... (arg2/arg3).
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#undef _SDT_NOP
#define _SDT_NOP .nops 5
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

__extension__ unsigned short DotNETRuntime_GCStart_V2_semaphore
	__attribute__((unused)) __attribute__((section(".probes")));

static unsigned long count = 1000, rate, wait_secs, payload_size = 26;
static int nthreads = 1;
static uint64_t fired[64], lib_fired[64], cpu_ns[64];
static const char *lib_path;
static unsigned long lib_delay_ms;
static int (*volatile lib_fire)(uint32_t n, uint8_t *buf);
static int with_activity;
static const uint8_t activity[2][16] = {
	{ 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 },
	{ 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
	  0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20 },
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static __attribute__((noinline)) void fire_gc_start(uint8_t *buf, uint32_t n, int thread)
{
	if (DotNETRuntime_GCStart_V2_semaphore) {
		uint32_t depth = 2, reason = 1, type = 0;
		uint16_t inst = 7;
		uint64_t seq = n;
		uint32_t len = payload_size;
		const uint8_t *act = with_activity ? activity[0] : NULL;
		const uint8_t *rel = with_activity ? activity[1] : NULL;

		__asm__ volatile("" : "+r"(len));	/* a register: libbpf cannot read %rip args */

		memcpy(buf, &n, 4);
		memcpy(buf + 4, &depth, 4);
		memcpy(buf + 8, &reason, 4);
		memcpy(buf + 12, &type, 4);
		memcpy(buf + 16, &inst, 2);
		memcpy(buf + 18, &seq, 8);
		STAP_PROBE4(DotNETRuntime, GCStart_V2, buf, len, act, rel);
		fired[thread]++;
	}
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void *worker(void *arg)
{
	int thread = (int)(long)arg;
	uint8_t *buf = calloc(1, payload_size < 26 ? 26 : payload_size);
	uint64_t start = now_ns(), cpu0 = thread_cpu_ns();
	unsigned long i;

	if (!buf)
		return NULL;
	for (i = 0; i < count; i++) {
		int (*lf)(uint32_t, uint8_t *) = lib_fire;

		fire_gc_start(buf, i, thread);
		if (lf)
			lib_fired[thread] += lf(i, buf);
		if (rate) {
			uint64_t due = start + (i + 1) * 1000000000ULL / rate;
			uint64_t now = now_ns();

			if (due > now) {
				struct timespec ts = { (due - now) / 1000000000ULL,
						       (due - now) % 1000000000ULL };

				nanosleep(&ts, NULL);
			}
		}
	}
	cpu_ns[thread] = thread_cpu_ns() - cpu0;
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	uint64_t t0, t1, total = 0, lib_total = 0, cpu_total = 0;
	int opt, i;

	while ((opt = getopt(argc, argv, "n:t:r:w:s:L:D:A")) != -1) {
		switch (opt) {
		case 'n': count = strtoul(optarg, NULL, 10); break;
		case 't': nthreads = atoi(optarg); break;
		case 'r': rate = strtoul(optarg, NULL, 10); break;
		case 'w': wait_secs = strtoul(optarg, NULL, 10); break;
		case 's': payload_size = strtoul(optarg, NULL, 10); break;
		case 'L': lib_path = optarg; break;
		case 'D': lib_delay_ms = strtoul(optarg, NULL, 10); break;
		case 'A': with_activity = 1; break;
		default:
			fprintf(stderr, "usage: %s [-n COUNT] [-t THREADS] [-r RATE] [-w SECS] "
				"[-s PAYLOAD] [-L LIB [-D MS]] [-A]\n", argv[0]);
			return 64;
		}
	}
	if (nthreads < 1 || nthreads > 64 || payload_size > 1000000)
		return 64;
	for (i = 0; wait_secs && i < (int)wait_secs * 100; i++) {
		if (DotNETRuntime_GCStart_V2_semaphore)
			break;
		usleep(10000);
	}
	t0 = now_ns();
	for (i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, worker, (void *)(long)i);
	if (lib_path) {
		void *h;

		usleep(lib_delay_ms * 1000);
		h = dlopen(lib_path, RTLD_NOW);
		if (!h) {
			fprintf(stderr, "usdt_testprog: %s\n", dlerror());
			return 1;
		}
		lib_fire = (int (*)(uint32_t, uint8_t *))dlsym(h, "testlib_fire");
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	t1 = now_ns();
	for (i = 0; i < nthreads; i++) {
		total += fired[i];
		lib_total += lib_fired[i];
		cpu_total += cpu_ns[i];
	}
	printf("{\"GCStart_V2\": %llu, \"GCEnd_V1\": %llu, \"calls\": %llu, "
	       "\"cpu_ns_per_call\": %.1f, \"ns_per_call\": %.1f, \"seconds\": %.3f}\n",
	       (unsigned long long)total, (unsigned long long)lib_total,
	       (unsigned long long)count * nthreads, (double)cpu_total / ((double)count * nthreads),
	       (double)(t1 - t0) * nthreads / ((double)count * nthreads), (t1 - t0) / 1e9);
	return 0;
}
