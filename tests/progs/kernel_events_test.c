// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kernel_events_test.c - kevtest: a minimal driver of collector/sources/kernel_events.c.
 *
 *   kevtest -o FILE [--kernel SPEC] [--cpu-sampling[=HZ]] [--all-processes]
 *           [-d SECS] [-b MB] [-v] (-p PID ... | -- CMD ARGS)
 *
 * It does what ebpf-collect does for kernel events, on the same path: a
 * ring buffer (created here, shared with the kernel-event skeleton through
 * bpf_map__reuse_fd as the collector's is), the reorder buffer, the
 * collector's symbolize naming every frame (symbolizer/symbolize.h), and
 * the nettrace writer, the kernel's mapping records (mmap_events.c).  Used
 * by the bench (tests/bench/bench_sampling.sh) and for development;
 * tests/kernel.bats drives the real CLI.  Exit: 0 ok, 1 failure, 64 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kernel_events.h"
#include "mmap_events.h"
#include "nettrace.h"
#include "own_events.h"
#include "reorder.h"
#include "symbolize.h"

#define MAX_PIDS	16
#define WINDOW_NS	(30 * 1000000ULL)

static volatile sig_atomic_t exiting;

struct kevtest {
	struct kernel_events *ke;
	struct ke_sink sink;
	struct reorder *ro;
	struct ring_buffer *rb;
	struct mmap_events *mm;
	uint64_t last_ts;
	int fatal;
};

static void on_signal(int sig)
{
	(void)sig;
	exiting = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int emit(void *ctx, const void *rec, size_t len)
{
	struct kevtest *k = ctx;
	const struct ce_header *h = rec;

	if (h->timestamp > k->last_ts)
		k->last_ts = h->timestamp;
	int ret = kernel_events__emit(k->ke, rec, len, &k->sink);

	return ret < 0 ? ret : 0;
}

static int on_record(void *ctx, void *data, size_t len)
{
	struct kevtest *k = ctx;
	const struct ce_header *h = data;
	int err;

	if (len < sizeof(*h))
		return 0;
	err = reorder__push(k->ro, h->timestamp, data, len);
	if (err)
		k->fatal = err;
	return err;
}

/* Loss summary, the names of every frame still to write, close. */
static int finish(struct kevtest *k, const char *out)
{
	struct ke_counters c = { 0 };
	struct loss_summary loss = { 0 };
	struct loss_summary_event sev;
	uint64_t lost;
	int err;

	kernel_events__counters(k->ke, &c);
	lost = c.rb_drops + c.nested_drops;
	if (lost)
		nt_writer__note_lost(k->sink.w, 0, lost > UINT32_MAX ? UINT32_MAX : lost);
	loss.ringbuf_drops = c.rb_drops;
	loss.truncated_stacks = c.kstack_truncated + c.ustack_truncated;
	loss.other_drops = c.nested_drops + kernel_events__bad_records(k->ke);
	err = symbolize__finish(k->sink.sz, k->last_ts + 1);
	if (!err)
		err = nt_writer__close(k->sink.w, loss_summary__event(&sev, &loss, k->sink.w),
				       k->last_ts + 1);
	else
		nt_writer__abort(k->sink.w);
	k->sink.w = NULL;
	if (err) {
		fprintf(stderr, "kevtest: cannot finish %s: %s\n", out, strerror(-err));
		return err;
	}
	kernel_events__print_summary(k->ke, stderr);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: kevtest -o FILE [--kernel SPEC] [--cpu-sampling[=HZ]] "
		"[--all-processes] [-d SECS] [-b MB] [-v] (-p PID ... | -- CMD ARGS)\n");
}

static pid_t spawn_held(char **cmd, int *release_fd)
{
	int fds[2];
	pid_t pid;
	char b;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid)
		close(fds[0]);
	if (pid < 0)
		close(fds[1]);
	if (pid)
		*release_fd = fds[1];
	if (pid)
		return pid;
	close(fds[1]);
	if (read(fds[0], &b, 1) != 1)
		_exit(127);
	execvp(cmd[0], cmd);
	fprintf(stderr, "kevtest: cannot run %s: %s\n", cmd[0], strerror(errno));
	_exit(127);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "cpu-sampling", optional_argument, NULL, 's' },
		{ "all-processes", no_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "verbose", no_argument, NULL, 'v' },
		{ 0 },
	};
	struct kernel_events_opts opts = { .groups = 0 };
	struct nt_trace_info info = { .freq = 1000000000ULL, .pointer_size = 8 };
	struct kevtest k = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	pid_t pids[MAX_PIDS], child = -1;
	int nr_pids = 0, release_fd = -1, c, i, err = 0, ret = 1, rb_fd = -1, status = 0;
	const char *out = NULL;
	double duration = 0;
	unsigned long mb = 32;
	char msg[160];
	char **cmd = NULL;
	uint64_t start;

	while ((c = getopt_long(argc, argv, "o:p:d:b:v", lopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (kernel_events__parse_groups(optarg, &opts.groups, msg, sizeof(msg))) {
				fprintf(stderr, "kevtest: %s\n", msg);
				return 64;
			}
			break;
		case 's':
			if (kernel_events__parse_hz(optarg, &opts.sample_hz)) {
				fprintf(stderr, "kevtest: invalid rate '%s'\n", optarg);
				return 64;
			}
			break;
		case 'a':
			opts.all_processes = 1;
			break;
		case 'd':
			duration = atof(optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'p':
			if (nr_pids < MAX_PIDS)
				pids[nr_pids++] = atoi(optarg);
			break;
		case 'b':
			mb = strtoul(optarg, NULL, 10);
			break;
		case 'v':
			opts.verbose++;
			break;
		default:
			usage(stderr);
			return 64;
		}
	}
	if (optind < argc)
		cmd = &argv[optind];
	if (!out || (!nr_pids && !cmd && !opts.all_processes) || (nr_pids && cmd) || !mb ||
	    (mb & (mb - 1))) {
		usage(stderr);
		return 64;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	opts.rb_bytes = (uint64_t)mb << 20;
	rb_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb", 0, 0, opts.rb_bytes, NULL);
	if (rb_fd < 0) {
		fprintf(stderr, "kevtest: cannot create ring buffer: %s\n", strerror(errno));
		return 1;
	}
	opts.rb_fd = rb_fd;
	k.ro = reorder__new();
	k.ke = kernel_events__open(&opts);
	if (!k.ro || !k.ke)
		goto cleanup;
	if (cmd) {
		child = spawn_held(cmd, &release_fd);
		if (child < 0)
			goto cleanup;
		pids[nr_pids++] = child;
	}
	for (i = 0; i < nr_pids; i++)
		if (kernel_events__add_target(k.ke, pids[i]))
			goto cleanup;
	info.pid = nr_pids ? pids[0] : getpid();
	info.ncpu = libbpf_num_possible_cpus();
	info.sampling_interval_ns = opts.sample_hz ? 1000000000U / opts.sample_hz : 1000000;
	clock_gettime(CLOCK_REALTIME, &info.sync_utc);
	info.sync_ts = now_ns();
	unlink(out);
	k.sink.w = nt_writer__open(out, &info);
	if (!k.sink.w) {
		fprintf(stderr, "kevtest: cannot create %s: %s\n", out, strerror(errno));
		goto cleanup;
	}
	nt_writer__set_lost_marker(k.sink.w, &own_events_lost);	/* as the collector */
	k.sink.sz = symbolize__new(k.sink.w, NULL);
	if (!k.sink.sz)
		goto cleanup;
	k.mm = mmap_events__new();	/* as the collector: mappings as made */
	for (i = 0; i < nr_pids; i++) {
		symbolize__add_pid(k.sink.sz, pids[i]);
		if (k.mm && !mmap_events__add_pid(k.mm, pids[i]))
			symbolize__mappings_reported(k.sink.sz, pids[i]);
	}
	k.rb = ring_buffer__new(rb_fd, on_record, &k, NULL);
	if (!k.rb || kernel_events__attach(k.ke))
		goto cleanup;
	if (release_fd >= 0) {
		if (write(release_fd, "g", 1) != 1)
			goto cleanup;
		close(release_fd);
		release_fd = -1;
	}
	start = now_ns();
	while (!exiting) {
		uint64_t now;

		err = ring_buffer__poll(k.rb, 100);
		if (err == -EINTR) {
			err = 0;
			break;
		}
		if (err < 0) {
			fprintf(stderr, "kevtest: ring buffer poll: %s\n", strerror(-err));
			break;
		}
		now = now_ns();
		err = mmap_events__drain(k.mm, k.sink.sz);
		if (!err)
			err = reorder__pop_before(k.ro, now - WINDOW_NS, emit, &k);
		if (err) {
			fprintf(stderr, "kevtest: cannot write %s: %s\n", out, strerror(-err));
			break;
		}
		symbolize__tick(k.sink.sz, now, now - WINDOW_NS);
		if (duration > 0 && now - start >= duration * 1e9)
			break;
		if (child > 0) {
			if (waitpid(child, &status, WNOHANG) == child) {
				child = -1;
				break;
			}
		} else if (nr_pids) {
			for (i = 0; i < nr_pids; i++)
				if (!kill(pids[i], 0) || errno != ESRCH)
					break;
			if (i == nr_pids)
				break;
		}
	}
	/* stop producing, then take everything that is left */
	kernel_events__detach(k.ke);
	if (err >= 0 && ring_buffer__consume(k.rb) < 0 && k.fatal)
		err = k.fatal;
	if (err >= 0)
		err = mmap_events__drain(k.mm, k.sink.sz);
	if (err >= 0)
		err = reorder__pop_before(k.ro, UINT64_MAX, emit, &k);
	if (err < 0)
		fprintf(stderr, "kevtest: %s: %s\n", out, strerror(-err));
	if (!err)
		err = finish(&k, out);
	ret = err ? 1 : 0;
cleanup:
	if (release_fd >= 0)
		close(release_fd);
	if (child > 0 && ret) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	ring_buffer__free(k.rb);
	kernel_events__destroy(k.ke);
	if (k.sink.w)
		nt_writer__abort(k.sink.w);
	reorder__free(k.ro);
	symbolize__free(k.sink.sz);
	mmap_events__free(k.mm);
	if (rb_fd >= 0)
		close(rb_fd);
	return ret;
}
