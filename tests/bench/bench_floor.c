// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_floor.c - loader and consumer of the bench floor (tests/bench/bench_floor.bpf.c):
 * the minimal libbpf USDT tracer the side-by-side bench compares
 * ebpf-collect with.
 *
 *   bench_floor -p PID -x BINARY -e PROVIDER:NAME [-e ...] [-b MB] [-i MS] [-X MASK]
 *
 * Attaches floor_event to each probe in BINARY for PID (libbpf USDT: the
 * kernel raises the semaphores), prints "floor: attached N probes in X ms"
 * on stderr, then consumes the ring buffer every MS milliseconds (default
 * 10: records are submitted without wakeups, so the consumer polls, as
 * ebpf-collect does on its timeout) until PID exits or SIGINT/SIGTERM, and
 * prints one JSON line on stdout: events consumed, bytes, and the BPF
 * side's counters (submitted, ring full, oversize, faults), detach time and,
 * with kernel.bpf_stats_enabled=1, the program's mean run time per event.
 * -X MASK adds per-event work ebpf-collect's program does (see
 * tests/bench/bench_floor.bpf.c, targ_extra), to attribute the gap to the floor.
 * Exit status: 0, 1 failure, 64 usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <bpf/bpf.h>

#include "bench_floor.skel.h"

#define MAX_PROBES	64

static volatile sig_atomic_t exiting;

struct env {
	int pid;
	const char *binary;
	char *probes[MAX_PROBES];
	int nprobes;
	unsigned long rb_mb;
	unsigned int interval_ms;
	unsigned int extra;
};

struct stats {
	unsigned long long events, bytes;
};

static void on_signal(int sig)
{
	(void)sig;
	exiting = 1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int handle_record(void *ctx, void *data, size_t size)
{
	struct stats *st = ctx;

	(void)data;
	st->events++;
	st->bytes += size;
	return 0;
}

/* alive and not a zombie */
static int target_alive(int pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	int alive = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[1] == ' ')
		alive = p[2] != 'Z' && p[2] != 'X';
	fclose(f);
	return alive;
}

static int parse_args(int argc, char **argv, struct env *env)
{
	char *end;
	int opt;

	while ((opt = getopt(argc, argv, "p:x:e:b:i:X:")) != -1) {
		switch (opt) {
		case 'p':
			env->pid = strtol(optarg, &end, 10);
			if (*end || env->pid <= 0)	/* 0 would mean "self" to libbpf */
				return -EINVAL;
			break;
		case 'x':
			env->binary = optarg;
			break;
		case 'e':
			if (env->nprobes == MAX_PROBES || !strchr(optarg, ':'))
				return -EINVAL;
			env->probes[env->nprobes++] = optarg;
			break;
		case 'b':
			env->rb_mb = strtoul(optarg, &end, 10);
			if (*end || !env->rb_mb || (env->rb_mb & (env->rb_mb - 1)))
				return -EINVAL;
			break;
		case 'i':
			env->interval_ms = strtoul(optarg, &end, 10);
			if (*end || !env->interval_ms)
				return -EINVAL;
			break;
		case 'X':
			env->extra = strtoul(optarg, &end, 0);
			if (*end || env->extra > 15)
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind != argc || !env->pid || !env->binary || !env->nprobes)
		return -EINVAL;
	return 0;
}

static int print_quiet(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static void read_counters(struct bench_floor *skel, unsigned long long out[4])
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(skel->maps.floor_counters);
	unsigned long long *v = calloc(ncpu > 0 ? ncpu : 1, sizeof(*v));
	__u32 k;
	int c;

	for (k = 0; k < 4; k++) {
		out[k] = 0;
		if (!v || ncpu <= 0 || bpf_map_lookup_elem(fd, &k, v))
			continue;
		for (c = 0; c < ncpu; c++)
			out[k] += v[c];
	}
	free(v);
}

int main(int argc, char **argv)
{
	struct env env = { .rb_mb = 64, .interval_ms = 10 };
	struct bpf_link *links[MAX_PROBES] = {};
	struct bench_floor *skel = NULL;
	struct ring_buffer *rb = NULL;
	struct stats st = {};
	unsigned long long cnt[4];
	double t0, attach_ms, detach_ms, bpf_ns = 0;
	int i, err = 0;

	if (parse_args(argc, argv, &env)) {
		fprintf(stderr, "usage: bench_floor -p PID -x BINARY -e PROVIDER:NAME [-e ...] "
			"[-b MB (power of 2)] [-i MS] [-X MASK]\n");
		return 64;
	}
	libbpf_set_print(print_quiet);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	skel = bench_floor__open();
	if (!skel) {
		err = -errno;
		fprintf(stderr, "floor: open: %s\n", strerror(-err));
		goto cleanup;
	}
	skel->rodata->targ_extra = env.extra;
	err = bpf_map__set_max_entries(skel->maps.floor_rb, env.rb_mb << 20);
	if (!err)
		err = bench_floor__load(skel);
	if (err) {
		fprintf(stderr, "floor: load: %s\n", strerror(-err));
		goto cleanup;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.floor_rb), handle_record, &st, NULL);
	if (!rb) {
		err = -errno;
		fprintf(stderr, "floor: ring_buffer__new: %s\n", strerror(-err));
		goto cleanup;
	}
	t0 = now_ms();
	for (i = 0; i < env.nprobes; i++) {
		LIBBPF_OPTS(bpf_usdt_opts, opts, .usdt_cookie = i);
		char *name = strchr(env.probes[i], ':');

		*name++ = '\0';
		links[i] = bpf_program__attach_usdt(skel->progs.floor_event, env.pid, env.binary,
						    env.probes[i], name, &opts);
		if (!links[i]) {
			err = -errno;
			fprintf(stderr, "floor: attach %s:%s in %s: %s\n", env.probes[i], name,
				env.binary, strerror(-err));
			goto cleanup;
		}
	}
	attach_ms = now_ms() - t0;
	fprintf(stderr, "floor: attached %d probes in %.1f ms\n", env.nprobes, attach_ms);

	while (!exiting && target_alive(env.pid)) {
		usleep(env.interval_ms * 1000);
		err = ring_buffer__consume(rb);
		if (err < 0) {
			fprintf(stderr, "floor: consume: %s\n", strerror(-err));
			goto cleanup;
		}
	}
	err = ring_buffer__consume(rb);
	if (err < 0)
		goto cleanup;
	err = 0;
	read_counters(skel, cnt);
	{
		/* the program's own run time per event, when kernel.bpf_stats_enabled */
		struct bpf_prog_info info = {};
		__u32 info_len = sizeof(info);

		if (!bpf_prog_get_info_by_fd(bpf_program__fd(skel->progs.floor_event), &info,
					     &info_len) && info.run_cnt)
			bpf_ns = (double)info.run_time_ns / info.run_cnt;
	}
	t0 = now_ms();
	for (i = 0; i < env.nprobes; i++) {
		bpf_link__destroy(links[i]);
		links[i] = NULL;
	}
	detach_ms = now_ms() - t0;
	printf("{\"events\": %llu, \"bytes\": %llu, \"submitted\": %llu, \"lost\": %llu, "
	       "\"oversize\": %llu, \"faults\": %llu, \"attach_ms\": %.1f, \"detach_ms\": %.1f, "
	       "\"bpf_ns_per_run\": %.1f}\n",
	       st.events, st.bytes, cnt[0], cnt[1], cnt[2], cnt[3], attach_ms, detach_ms, bpf_ns);
cleanup:
	for (i = 0; i < env.nprobes; i++)
		bpf_link__destroy(links[i]);
	ring_buffer__free(rb);
	bench_floor__destroy(skel);
	return err ? 1 : 0;
}
