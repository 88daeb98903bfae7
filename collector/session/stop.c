// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * stop.c - the end of a trace: pause the runtimes' providers, detach every
 * source while the main thread keeps reading, drain the ring, flush the
 * reorder window, write the losses and the names, close the file.
 */
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "clr_events.skel.h"
#include "collector_event.h"
#include "exit_codes.h"
#include "event_table.h"
#include "nettrace.h"
#include "manifest_meta.h"
#include "reorder.h"
#include "selection.h"
#include "usdt_notes.h"
#include "tracer_pause.h"
#include "usdt_generic.h"	/* --usdt */
#include "kernel_events.h"	/* --kernel, --cpu-sampling */
#include "symbolize.h"		/* frame names in the trace */
#include "mmap_events.h"	/* mappings of short-lived processes */
#include "symbolizer.h"
#include "ep_targets.h"		/* stock .NET: EventPipe over IPC */

#include "batch.h"
#include "proc_stat.h"
#include "clock.h"
#include "grow.h"
#include "collector.h"

static void detach_links(struct collector *c);
static void close_fds_parallel(int *fds, size_t n);

/*
 * Every event source off: kernel events, then the probes.  Closing a uprobe
 * link returns once the RCU tasks-trace grace period has passed, i.e. once
 * no handler can still be writing a record, so after this the ring only
 * shrinks.  Runs in its own thread: the main thread keeps reading the ring
 * meanwhile, so the events fired during the ~0.3 s of detaching neither
 * fill the ring nor wait for a later read.
 */
static void *stop_sources(void *arg)
{
	struct collector *c = arg;

	kernel_events__detach(c->ke);
	detach_links(c);
	__atomic_store_n(&c->sources_stopped, true, __ATOMIC_RELEASE);
	return NULL;
}

/* A thread of the runtime that read "traced, not paused" just before the
 * pause went up is still on its way to the probe: this long is ample. */
#define PAUSE_GRACE_US	10000

/*
 * Hold up the pause word of every traced process's provider, so the runtime
 * fires no event while the probes go: the kernel removes a probe's handler
 * before the breakpoint and the semaphore count, and an event fired in
 * between would be counted by the runtime and seen by nobody.  A process
 * that cannot be paused (gone, not ours, an older provider) keeps that
 * window.  The hold is a uprobe whose reference counter is the word, so the
 * kernel lowers it when the collector ends, however it ends.
 */
void pause_runtimes(struct collector *c)
{
	size_t i, raised = 0;

	for (i = 0; i < c->clr.nr_pauses; i++) {
		struct pause_site *ps = &c->clr.pauses[i];
		int err = ps->addr ? 0 :
			  tracer_pause__resolve(ps->pid, ps->dev, ps->ino, ps->off, &ps->addr);

		if (err) {
			ps->addr = 0;
			continue;	/* gone, or never mapped it: nothing left to miss */
		}
		tracer_pause__read(ps->pid, ps->addr, &ps->word_at_stop);
		if (ps->file_fd < 0)
			continue;
		ps->hold_fd = tracer_pause__hold(ps->pid, ps->file_fd, ps->site_off, ps->off);
		raised += ps->hold_fd >= 0;
		if (ps->hold_fd < 0 && ps->hold_fd != -ESRCH)
			pr_debug("pid %d: cannot pause the runtime before detaching (%s); its "
				 "last events can be missed\n", ps->pid, strerror(-ps->hold_fd));
	}
	if (raised)
		usleep(PAUSE_GRACE_US);
}

/* Let the pause words go, so a later tracer sees events: closing a uprobe
 * waits for a grace period, so the holds are closed side by side. */
void resume_runtimes(struct collector *c)
{
	int *fds = calloc(c->clr.nr_pauses ? c->clr.nr_pauses : 1, sizeof(*fds));
	size_t i, n = 0;

	for (i = 0; i < c->clr.nr_pauses; i++) {
		struct pause_site *ps = &c->clr.pauses[i];

		if (ps->hold_fd < 0)
			continue;
		if (fds)
			fds[n++] = ps->hold_fd;
		else
			close(ps->hold_fd);
		ps->hold_fd = -1;
	}
	close_fds_parallel(fds, n);
	free(fds);
}

/* A process must have used this much CPU (clock ticks) for its silence to
 * be worth a word. */
#define BUSY_TICKS	10

/*
 * A runtime whose probes were in for the whole trace, that ran and sent
 * nothing, is worth a warning with the likely cause: a trace that is empty
 * for a reason nobody is told is the worst result a tracer can give.
 */
void warn_silent_runtimes(struct collector *c)
{
	long hz = sysconf(_SC_CLK_TCK);
	size_t i;

	for (i = 0; i < c->clr.nr_pauses; i++) {
		const struct pause_site *ps = &c->clr.pauses[i];
		uint64_t ticks;
		double secs, cpu;

		if (ps->seen || !ps->addr || kill(ps->pid, 0))
			continue;
		ticks = proc_stat_field(ps->pid, 14) + proc_stat_field(ps->pid, 15);
		if (ticks < ps->cpu_ticks + BUSY_TICKS)
			continue;
		secs = (c->wall_mark[1] - ps->attach_ns) / 1e9;
		cpu = (double)(ticks - ps->cpu_ticks) / (hz > 0 ? hz : 100);
		if (ps->word_at_stop)
			pr_warn("pid %d: no runtime event arrived in %.1f s although its probes were "
				"enabled and it used %.2f s of CPU: its provider's tracer pause "
				"word is %u (another tracer holds it, or one left it raised)\n",
				ps->pid, secs, cpu, ps->word_at_stop);
		else
			pr_warn("pid %d: no runtime event arrived in %.1f s although its probes were "
				"enabled and it used %.2f s of CPU: it fired none of the events "
				"selected (see --providers, --profile)\n", ps->pid, secs, cpu);
	}
}

/* Up to this long for a record reserved before the detach to be committed. */
#define DRAIN_WAIT_NS	(1000ULL * 1000 * 1000)

/*
 * The end of every trace (duration, signal, target exit): stop the sources,
 * read the ring to empty, then flush the reorder buffer.  Every event whose
 * handler ran is in the file or counted lost in it (counters are read after
 * the last record).
 */
int stop_and_drain(struct collector *c)
{
	struct ring *r = ring_buffer__ring(c->pipe.rb, 0);
	uint64_t deadline;
	pthread_t th;
	bool threaded = !pthread_create(&th, NULL, stop_sources, c);
	int err = 0;

	if (!threaded)
		stop_sources(c);
	while (!__atomic_load_n(&c->sources_stopped, __ATOMIC_ACQUIRE) && !err)
		err = pipeline__step(&c->pipe, 10, REORDER_WINDOW_NS);
	if (threaded)
		pthread_join(th, NULL);
	deadline = mono_ns() + DRAIN_WAIT_NS;
	while (!err) {
		err = pipeline__step(&c->pipe, 0, UINT64_MAX);
		if (err || !r)
			break;
		if (c->pipe.rb_behind)
			continue;	/* a round's worth read: there is more */
		if (!ring__avail_data_size(r) || mono_ns() > deadline)
			break;
		usleep(1000);	/* a record still being written: not readable yet */
	}
	if (err)
		return err;
	err = pipeline__pop(&c->pipe, UINT64_MAX);
	if (err)
		return err;
	note_losses(c);
	return 0;
}

static int compare_idx(const void *a, const void *b, void *arg)
{
	const struct collector *c = arg;
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct ect_event *ea = &c->table->events[ia], *eb = &c->table->events[ib];
	int r = strcmp(ea->provider->name, eb->provider->name);

	if (r)
		return r;
	if (c->clr.ev_counts[ia] != c->clr.ev_counts[ib])
		return c->clr.ev_counts[ia] < c->clr.ev_counts[ib] ? 1 : -1;
	return strcmp(ea->symbol, eb->symbol);
}

uint64_t self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

/* Start-up (loading, attaching, first symbol tables), tracing, and the
 * stop (drain, names, end of file) apart: a short trace is mostly start-up.
 * Then the peak resident size (the ring buffer's pages read count too). */
static void print_cpu(const struct collector *c)
{
	uint64_t now = self_cpu_ns();
	uint64_t traced = c->cpu_mark[1] - c->cpu_mark[0];
	double secs = (c->wall_mark[1] - c->wall_mark[0]) / 1e9;
	struct rusage ru;

	if (!c->wall_mark[1])
		return;
	if (getrusage(RUSAGE_SELF, &ru))
		ru.ru_maxrss = 0;
	pr_info("collector CPU: start-up %.3f s; while tracing %.3f s in %.1f s (%.2f %% of one "
		"core); stop and write-out %.3f s; peak RSS %ld MiB\n", c->cpu_mark[0] / 1e9,
		traced / 1e9, secs, secs > 0 ? traced / 1e7 / secs : 0.0,
		(now - c->cpu_mark[1]) / 1e9, ru.ru_maxrss / 1024);
}

/* With sysctl kernel.bpf_stats_enabled=1 the kernel times every program run. */
static void print_prog_stats(const struct collector *c)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_prog_get_info_by_fd(bpf_program__fd(c->clr.skel->progs.clr_event), &info, &len) ||
	    !info.run_cnt)
		return;
	pr_warn("BPF program: %llu runs, %.0f ns per run "
		"(kernel.bpf_stats_enabled)\n", (unsigned long long)info.run_cnt,
		(double)info.run_time_ns / info.run_cnt);
}

static void print_summary(struct collector *c, uint64_t bytes)
{
	const struct ce_counters *t = &c->totals;
	uint32_t *idx = calloc(c->table->n_events, sizeof(*idx));
	uint32_t i, n = 0;
	double secs = c->pipe.last_ts > c->pipe.first_ts ? (c->pipe.last_ts - c->pipe.first_ts) / 1e9 : 0;

	if (env.quiet)
		goto out;
	for (i = 0; idx && i < c->table->n_events; i++)
		if (c->clr.ev_counts[i])
			idx[n++] = i;
	if (idx)
		qsort_r(idx, n, sizeof(*idx), compare_idx, c);
	if (n)
		fprintf(stderr, "%-21s %-44s %10s\n", "PROVIDER", "EVENT", "COUNT");
	for (i = 0; i < n; i++)
		fprintf(stderr, "%-21s %-44s %10llu\n", c->table->events[idx[i]].provider->usdt_name,
			c->table->events[idx[i]].symbol,
			(unsigned long long)c->clr.ev_counts[idx[i]]);
	if (c->pipe.rec.fr && !c->pipe.rec.writes && c->pipe.rec.dumps_failed)
		/* an event in several dumps counts once */
		pr_warn("%llu events (%.1f s) into flight-recorder dumps: %llu written, %llu "
			"failed (exit status 1)\n", (unsigned long long)c->pipe.records, secs,
			(unsigned long long)c->pipe.rec.dumps, (unsigned long long)c->pipe.rec.dumps_failed);
	else if (c->pipe.rec.fr && !c->pipe.rec.writes)
		pr_warn("%llu events (%.1f s) written into %llu flight-recorder dumps\n",
			(unsigned long long)c->pipe.records, secs, (unsigned long long)c->pipe.rec.dumps);
	else
		pr_warn("%llu events (%.1f s), %llu bytes written to %s\n",
			(unsigned long long)c->pipe.records, secs, (unsigned long long)bytes,
			c->pipe.rec.path);
	pr_warn("dropped %llu events (ring buffer full %llu, payload "
		"over " CE_STR(CE_MAX_PAYLOAD) " bytes %llu, unreadable payload %llu, preempted %llu); truncated stacks: "
		"%llu user, %llu kernel\n",
		(unsigned long long)(total_lost(t) + c->clr.oversize),
		(unsigned long long)(t->rb_drops + t->batch_drops),	/* batched: whole runs */
		(unsigned long long)c->clr.oversize, (unsigned long long)t->payload_faults,
		(unsigned long long)t->nested_drops, (unsigned long long)t->ustack_truncated,
		(unsigned long long)t->kstack_truncated);
	batch__print(&c->clr, c->totals.batch_drops);
	if (c->pipe.count_only)
		pr_warn("count-only: %llu records, %llu events read from the ring and dropped "
			"(nothing decoded or written)\n", (unsigned long long)c->pipe.counted_records,
			(unsigned long long)c->pipe.counted_events);
	print_prog_stats(c);
	print_cpu(c);
	pr_info("ring buffer: %llu records, %llu bytes from the runtime provider\n",
		(unsigned long long)t->submitted, (unsigned long long)t->bytes);
	if (c->pipe.rb_rounds_cut)	/* the producers outpaced the collector for a while */
		pr_info("ring buffer: %llu reads stopped at %u MiB to pass events on\n",
			(unsigned long long)c->pipe.rb_rounds_cut, RB_ROUND_BYTES >> 20);
	if (c->pipe.sym)
		symbolize__print_summary(c->pipe.sym, stderr);
	if (mmap_events__lost(c->mm))	/* the kernel's mmap ring overflowed */
		pr_warn("%llu mapping records lost: frames in files mapped then may have no "
			"module\n", (unsigned long long)mmap_events__lost(c->mm));
	usdt_generic__print_summary(c->ug, stderr);	/* --usdt */
	kernel_events__print_summary(c->ke, stderr);
	ep_targets__print_summary(&c->ept, stderr);
	tpshim_source__print_summary(&c->tps, stderr);
	recorder__print_summary(&c->pipe.rec, c->totals.filter_drops);
	host__print_summary(c);
	if (c->pipe.bad_records || reorder__late(c->pipe.ro))
		pr_warn("%llu malformed records skipped, %llu records out "
			"of order\n", (unsigned long long)c->pipe.bad_records,
			(unsigned long long)reorder__late(c->pipe.ro));
out:
	free(idx);
}

/* This file's share of the run's losses (--rotate: since it began). */
static void file_loss(struct collector *c, struct loss_summary *loss)
{
	const struct loss_summary *b = &c->pipe.rec.base;

	collect_loss(c, loss);
	loss->events_written = c->pipe.rec.file_records;
	loss->ringbuf_drops -= b->ringbuf_drops;
	loss->truncated_payloads -= b->truncated_payloads;
	loss->truncated_stacks -= b->truncated_stacks;
	loss->other_drops -= b->other_drops;
}

/* The flight recorder's files (without --rotate) were written by its dumps:
 * only the summary. */
static int finish_flight(struct collector *c)
{
	nt_writer__finish(c->pipe.w, NULL, 0, NULL);	/* between files: frees it */
	c->pipe.w = NULL;
	print_summary(c, 0);
	return 0;
}

int finish_file(struct collector *c)
{
	uint64_t bytes, last = c->pipe.last_ts ? c->pipe.last_ts : mono_ns();
	struct loss_summary loss;
	struct loss_summary_event sev;
	struct nt_salvage salv = { 0 };
	const char *path = c->pipe.rec.path;
	int err;

	if (c->pipe.rec.fr && !c->pipe.rec.writes)
		return finish_flight(c);
	if (c->pipe.rec.no_file) {	/* a rotation found no room for the next file */
		pr_warn("%llu records after %s were not written: %s could not be started: %s\n",
			(unsigned long long)c->pipe.rec.unwritten, c->pipe.rec.last_done, path,
			strerror(-c->pipe.rec.no_file));
		nt_writer__abort(c->pipe.w);
		c->pipe.w = NULL;
		return c->pipe.rec.no_file;
	}
	file_loss(c, &loss);
	/* the end of the trace: the one time symbol servers may be asked */
	err = c->pipe.sym ? symbolize__fetch_symbols(c->pipe.sym, last + 1) : 0;
	if (!err && c->pipe.sym)
		err = symbolize__finish(c->pipe.sym, last + 1);
	if (!err)
		err = nt_writer__flush(c->pipe.w);
	bytes = nt_writer__bytes(c->pipe.w);
	/* a full disk keeps what fits (the rest is counted lost in the file) */
	if (!err || nt_writer__is_space_error(err))
		err = nt_writer__finish(c->pipe.w, loss_summary__event(&sev, &loss, c->pipe.w), last,
					&salv);
	else
		nt_writer__abort(c->pipe.w);
	c->pipe.w = NULL;
	if (err && salv.kept) {
		print_salvage(path, err, &salv);
		return err;
	}
	if (err) {
		pr_warn("cannot finish %s: %s; removed it\n", path, strerror(-err));
		return err;
	}
	recorder__file_done(&c->pipe.rec, path);
	print_summary(c, bytes);
	return 0;
}

/* ------------------------------------------------------------------ detach */

/*
 * Releasing a uprobe link waits for an RCU tasks-trace grace period
 * (bpf_uprobe_multi_link_release -> uprobe_unregister_sync), ~65 ms here:
 * 64 links destroyed one by one took 4 s, the full manifest's 430 would take
 * ~28 s after Ctrl-C.  libbpf's USDT detach also updates its spec-id
 * bookkeeping, so its handles must be destroyed from one thread.  So: take
 * an extra reference (dup) to every BPF link fd of the process, let libbpf
 * destroy its handles (fast: the kernel links stay alive), then close the
 * duplicates from many closer tasks at once, whose grace periods overlap.
 *
 * All at once the closes queue on the target's mmap lock, and while a
 * probe waits its handler is gone but its semaphore is still set; our
 * provider is paused by then (pause_runtimes), so spacing the closes out
 * would buy nothing for it.
 */
#define DETACH_THREADS 64

/*
 * The close that drops a uprobe's last reference takes the probe out of the
 * target in the closing task, and the kernel gives up half way when that
 * task has a SIGKILL pending: its page lookups in the target fail with
 * EINTR, and the breakpoint and the counter it raised stay ("failed to
 * unregister, leaking uprobe" in the kernel log).  A collector SIGKILLed
 * during its detach would so leave event semaphores set (the runtime
 * serializing for nobody) or, through its pause hold, a runtime's pause
 * word up for good: a silent runtime.  A collector killed at any other
 * moment is fine: its exit closes the rest with no signal pending.
 *
 * So the closes are made by closer tasks that share the collector's memory
 * and descriptor table but are in neither its thread group nor its process
 * group: a SIGKILL of the collector, or Ctrl-C at its terminal, does not
 * reach them, the collector's death closes nothing they hold, and they
 * finish their share and exit (reaped by whoever inherits them).  A closer
 * that cannot be started has its share closed by the caller.
 */
#define CLOSER_STACK	(64 * 1024)

struct closer {
	int *fds;
	size_t n, start, step;
};

static void close_share(const struct closer *cl)
{
	for (size_t i = cl->start; i < cl->n; i += cl->step)
		close(cl->fds[i]);
}

/* A closer task's body: raw system calls only (it runs with the thread
 * pointer of the task that cloned it, so it may not touch thread-local
 * state), every blockable signal blocked, a process group of its own. */
static int closer_task(void *arg)
{
	const struct closer *cl = arg;
	unsigned long all = ~0UL;

	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, NULL, sizeof(all));
	syscall(SYS_setpgid, 0, 0);
	for (size_t i = cl->start; i < cl->n; i += cl->step)
		syscall(SYS_close, cl->fds[i]);
	return 0;
}

/* Close n descriptors from up to DETACH_THREADS closer tasks at once (each
 * close of a uprobe waits for a grace period; side by side they overlap),
 * and wait for all of them. */
static void close_fds_parallel(int *fds, size_t n)
{
	struct closer cl[DETACH_THREADS];
	pid_t pid[DETACH_THREADS];
	size_t i, nth = n < DETACH_THREADS ? n : DETACH_THREADS;
	char *stacks;

	if (!nth)
		return;
	stacks = mmap(NULL, nth * CLOSER_STACK, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	for (i = 0; i < nth; i++) {
		cl[i] = (struct closer){ .fds = fds, .n = n, .start = i, .step = nth };
		pid[i] = stacks == MAP_FAILED ? -1 :
			 clone(closer_task, stacks + (i + 1) * CLOSER_STACK,
			       CLONE_VM | CLONE_FILES | SIGCHLD, &cl[i]);
		if (pid[i] < 0)
			close_share(&cl[i]);
	}
	for (i = 0; i < nth; i++)
		while (pid[i] > 0 && waitpid(pid[i], NULL, 0) < 0 && errno == EINTR)
			;
	if (stacks != MAP_FAILED)
		munmap(stacks, nth * CLOSER_STACK);
}

/* dup() every bpf_link fd of this process; returns how many (fds malloc'd). */
static size_t dup_link_fds(int **out)
{
	size_t n = 0, cap = 0;
	struct dirent *d;
	int *fds = NULL;
	DIR *dir = opendir("/proc/self/fd");
	char target[64];

	while (dir && (d = readdir(dir))) {
		ssize_t len;
		int fd;

		len = readlinkat(dirfd(dir), d->d_name, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		if (strcmp(target, "anon_inode:bpf_link"))
			continue;
		if (GROW(fds, cap, n + 1))
			break;
		fd = fcntl(atoi(d->d_name), F_DUPFD_CLOEXEC, 0);
		if (fd >= 0)
			fds[n++] = fd;
	}
	if (dir)
		closedir(dir);
	*out = fds;
	return n;
}

static void detach_links(struct collector *c)
{
	size_t i, n;
	int *fds = NULL;

	n = c->clr.nr_links || usdt_generic__nr_links(c->ug) ? dup_link_fds(&fds) : 0;
	for (i = 0; i < c->clr.nr_links; i++)
		bpf_link__destroy(c->clr.links[i]);
	c->clr.nr_links = 0;
	usdt_generic__detach(c->ug);	/* --usdt: same trick */
	close_fds_parallel(fds, n);
	free(fds);
	/* the tracepoint shim: every state lowered (each close of a hold
	 * waits for a grace period, so side by side), then the probe off */
	n = tpshim_source__take_holds(&c->tps, &fds);
	close_fds_parallel(fds, n);
	free(fds);
	n = c->tps.nr_procs ? dup_link_fds(&fds) : 0;
	tpshim_source__detach(&c->tps);
	close_fds_parallel(fds, n);
	free(fds);
}

void collector__free(struct collector *c)
{
	size_t i;

	detach_links(c);
	batch__release(&c->clr);	/* a trace that failed did not get to it */
	free(c->clr.links);
	ring_buffer__free(c->pipe.rb);
	usdt_generic__free(c->ug);
	kernel_events__destroy(c->ke);
	ep_targets__free(&c->ept);
	tpshim_source__free(&c->tps);
	mmap_events__free(c->mm);
	symbolize__free(c->pipe.sym);
	clr_events__destroy(c->clr.skel);
	reorder__free(c->pipe.ro);
	u64_map__free(&c->pipe.described);
	batch__free(&c->clr);
	free(c->clr.meta_ids);
	free(c->clr.ev_counts);
	free(c->clr.files);
	resume_runtimes(c);	/* a trace that failed while they were held */
	for (i = 0; i < c->clr.nr_pauses; i++)
		if (c->clr.pauses[i].file_fd >= 0)
			close(c->clr.pauses[i].file_fd);
	free(c->clr.pauses);
	free(c->clr.searched);
	fleet__stop(&c->fleet, &c->pipe);
	recorder__free(&c->pipe.rec);
	host__free(c);
}
