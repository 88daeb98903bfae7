// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * session.c - `ebpf-collect -p PID`: trace a runtime's USDT events into
 * a .nettrace file.
 *
 * Flow:
 *   parse options -> check privileges and kernel features -> (fork the
 *   command, held before exec) -> open the output (before anything is
 *   attached, so an unwritable path fails early) -> open/configure/load the
 *   skeleton -> find the runtime's probes in every ELF file the targets have
 *   mapped and attach the selected ones (cookie = event table index) ->
 *   (release the command) -> poll the ring buffer, reorder by timestamp,
 *   write events -> stop on a signal, --duration or when every target has
 *   exited -> drain, write the loss summary, close the file.
 *
 * Mapped files are rescanned every second, so a library the runtime
 * dlopen()s later (libcoreclr.so) gets attached too.
 *
 * Losses (architecture decision 9): BPF counts reserve failures, truncated
 * payloads and stacks, unreadable payloads and preempted-slot drops per
 * CPU.  They cannot be attributed to a thread, so they are noted as a
 * sequence gap on a dedicated capture thread (LOSS_CAPTURE_THREAD) as they
 * appear, summed into the LossSummary event at the end, and printed.
 */
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "clr_events.skel.h"
#include "tracepoint_read.h"
#include "collector_event.h"
#include "session.h"
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
#include "clock.h"
#include "ep_targets.h"
#include "ep_perfmap.h"	/* perf maps left on by a killed collector */
#include "batch.h"		/* stock .NET: EventPipe over IPC */

#include "collector.h"



/* Hundreds of probe links and a perf event per CPU and target thread need
 * more descriptors than the usual soft limit of 1024: take the hard limit
 * (a command started with -- CMD gets the original one back). */
static struct rlimit orig_nofile;

static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &orig_nofile))
		return;
	rl = orig_nofile;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* exiting counts the signals: one more during the stop cuts what is still
 * awaited (EventPipe streams) */
static void sig_handler(int sig)
{
	(void)sig;
	if (exiting < 1000)
		exiting++;
}

/* kill -USR1: the flight recorder writes its window (without one: nothing) */
static void sig_usr1(int sig)
{
	(void)sig;
	dump_requested = 1;
}

static void status_line(struct collector *c, uint64_t *last_records, uint64_t *last_ns)
{
	uint64_t now = mono_ns(), dt = now - *last_ns;
	double rate = dt ? (c->pipe.records - *last_records) * 1e9 / dt : 0;

	fprintf(stderr, "\r\033[K%.0f events/s  %llu events  %.1f MB written  %llu dropped",
		rate, (unsigned long long)c->pipe.records, nt_writer__bytes(c->pipe.w) / 1048576.0,
		(unsigned long long)(total_lost(&c->totals) + c->clr.oversize +
				     kernel_events__lost(c->ke)));
	*last_records = c->pipe.records;
	*last_ns = now;
}

static bool targets_alive(struct collector *c)
{
	bool any = false;
	int i;

	if (c->host.on)
		return true;	/* --all runs until told to stop */
	if (c->child > 0) {
		if (!c->child_exited && waitpid(c->child, &c->child_status, WNOHANG) == c->child)
			c->child_exited = true;
		return !c->child_exited;
	}
	for (i = 0; i < env.nr_pids; i++) {
		/* a zombie (parent not reaping) has exited too: kill(pid, 0) still works */
		if (c->pid_alive[i] && proc__exited(env.pids[i]))
			c->pid_alive[i] = false;
		any |= c->pid_alive[i];
	}
	return any;
}

static void rescan(struct collector *c)
{
	int i;

	if (c->child > 0) {
		if (!c->child_exited) {
			clr_source__attach_pid(&c->clr, c->child, false);
			if (c->ug)	/* --usdt */
				usdt_generic__attach_pid(c->ug, c->child);
		}
		return;
	}
	for (i = 0; i < env.nr_pids; i++) {
		if (!c->pid_alive[i])
			continue;
		clr_source__attach_pid(&c->clr, env.pids[i], false);
		if (c->ug)	/* --usdt */
			usdt_generic__attach_pid(c->ug, env.pids[i]);
	}
}

/* -- dotnet: a runtime with USDT probes needs no session (ep_targets), nor
 * one started ready for the tracepoint shim (--tracepoint-shim): its
 * tracepoints were registered when libcoreclr.so was loaded, before its
 * runtime waits on the diagnostic port */
static bool child_has_usdt(void *ctx, pid_t pid)
{
	struct collector *c = ctx;

	clr_source__attach_pid(&c->clr, pid, false);
	if (c->clr.ours_found > 0)
		return true;
	if (!c->tps.skel || tpshim_source__attach_pid(&c->tps, pid) <= 0)
		return false;
	/* the providers only EventPipe serves, beside the shim */
	ep_targets__beside_shim(&c->ept, 0);
	return true;
}

static int poll_loop(struct collector *c)
{
	uint64_t start = mono_ns(), last_tick = start, last_scan = start, last_rec = 0;
	uint64_t last_status = start, last_flush = start, flushed_events = 0;
	bool tty = isatty(STDERR_FILENO) && !env.quiet;
	int err = 0, wait_ms = PIPELINE_POLL_SOON_MS;	/* the sources' first poll soon */

	while (!exiting) {
		uint64_t now, window, cutoff;

		err = ring_round(&c->pipe, wait_ms);
		if (err < 0) {
			pr_warn("ring buffer poll failed: %s\n", strerror(-err));
			break;
		}
		now = mono_ns();
		err = pipeline__poll_sources(&c->pipe);	/* mappings, eh tables */
		if (err < 0) {
			pr_warn("out of memory\n");
			err = -ENOMEM;
			break;
		}
		wait_ms = err ? PIPELINE_POLL_SOON_MS : 100;
		err = 0;
		err = ep_targets__poll(&c->ept, c->pipe.ro, child_has_usdt, c);	/* stock .NET */
		if (err)
			break;
		window = ep_targets__active(&c->ept) ? EP_REORDER_WINDOW_NS :
			 batch__flowing(&c->clr) ? BATCH_REORDER_WINDOW_NS : REORDER_WINDOW_NS;
		cutoff = ring_pop_cutoff(&c->pipe, now, window);
		err = pipeline__pop(&c->pipe, cutoff);
		if (!err)	/* --metrics, --clickhouse, --rotate, SIGUSR1 */
			err = pipeline__tick(&c->pipe, now, cutoff);
		if (err)
			break;
		batch__tick(&c->clr);	/* files mapped since their probes went in */
		if (!err && c->host.on)
			err = host__tick(c, now);	/* --all: processes exec'd lately */
		if (err)
			break;
		if (c->pipe.sym)	/* snapshots while the targets live */
			symbolize__tick(c->pipe.sym, now, recorder__horizon(&c->pipe.rec, cutoff));
		if (now - last_tick >= TICK_NS) {
			note_losses(c);
			if (tty)
				status_line(c, &last_rec, &last_status);
			last_tick = now;
		}
		if (now - last_scan >= RESCAN_NS) {
			rescan(c);
			last_scan = now;
		}
		if (now - last_flush >= FLUSH_NS && nt_writer__has_file(c->pipe.w) &&
		    nt_writer__events(c->pipe.w) != flushed_events) {
			err = nt_writer__flush(c->pipe.w);
			if (err) {
				pr_warn("cannot write %s: %s\n", c->pipe.rec.path, strerror(-err));
				break;
			}
			flushed_events = nt_writer__events(c->pipe.w);
			last_flush = now;
		}
		if (env.duration_ns && now - start >= env.duration_ns)
			break;
		if (!targets_alive(c)) {
			pr_debug("every target has exited\n");
			break;
		}
	}
	if (tty)
		fprintf(stderr, "\r\033[K");
	return err;
}

/* ------------------------------------------------------------------ -- CMD */

static char *resolve_cmd(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return realpath(name, NULL);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, name);
		if (!access(buf, X_OK))
			return realpath(buf, NULL);
		path += n + (path[n] == ':');
	}
	return NULL;
}

/* Does the file hold the string?  (the first 8 MiB) */
static bool file_contains(const char *path, const char *needle)
{
	static char buf[1 << 16];
	size_t n = strlen(needle), keep = 0, total = 0;
	bool found = false;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while (!found && total < (8 << 20) && (r = read(fd, buf + keep, sizeof(buf) - keep)) > 0) {
		size_t have = keep + r;

		found = memmem(buf, have, needle, n) != NULL;
		keep = have < n - 1 ? have : n - 1;	/* a match across two reads */
		memmove(buf, buf + have - keep, keep);
		total += r;
	}
	close(fd);
	return found;
}

/* A .NET host: `dotnet app.dll`, or an app's own apphost executable (it
 * loads libhostfxr.so): the runtime's start can be held for EventPipe. */
static bool is_dotnet_host(const char *cmd)
{
	char *path = resolve_cmd(cmd);
	const char *base = path ? strrchr(path, '/') : NULL;
	bool yes = base && (!strcmp(base + 1, "dotnet") || file_contains(path, "libhostfxr.so"));

	free(path);
	return yes;
}

static bool cmd_is_dotnet;	/* is_dotnet_host(the -- CMD), set before the fork */
static char cmd_port[PATH_MAX];	/* its diagnostic port (ep_targets__listen_child) */
static char cmd_tpshim_dir[PATH_MAX];	/* --tracepoint-shim: the shim's directory */
static char cmd_lttng_config[2048];	/* --tracepoint-shim: the runtime's DOTNET_LTTngConfig */

/* Where the Debian package installs the tracepoint shim */
#define TPSHIM_INSTALLED_DIR	"/usr/lib/ebpf-collect/tpshim"

/* Does dir hold the tracepoint shim? */
static bool has_tpshim(const char *dir)
{
	char lib[PATH_MAX + 64];

	snprintf(lib, sizeof(lib), "%.*s/" TPABI_LIB_NAME, PATH_MAX, dir);
	return !access(lib, R_OK);
}

/* The tracepoint shim's directory: beside the collector's own binary (the
 * build writes it to .output/tpshim), else where the package installs it.
 * 0, or -ENOENT with the last directory looked in, in dir. */
static int find_tpshim_dir(char *dir, size_t n)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (len > 0) {
		exe[len] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		if ((size_t)snprintf(dir, n, "%.*s/tpshim", (int)(n - 8), exe) < n &&
		    has_tpshim(dir))
			return 0;
	}
	snprintf(dir, n, "%s", TPSHIM_INSTALLED_DIR);
	return has_tpshim(dir) ? 0 : -ENOENT;
}

/* Fork the command; it waits on *release_fd before exec. */
static pid_t spawn_held(char **cmd, int *release_fd)
{
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (!pid) {
		char b;

		close(fds[1]);
		if (read(fds[0], &b, 1) != 1)
			_exit(127);
		if (orig_nofile.rlim_cur)
			setrlimit(RLIMIT_NOFILE, &orig_nofile);
		/* a .NET runtime connects to the collector's port at start-up
		 * and waits there until its EventPipe session runs (then
		 * ResumeRuntime); the user's own ports stay */
		if (cmd_is_dotnet) {
			const char *own = getenv("DOTNET_DiagnosticPorts");
			char ports[PATH_MAX * 2];

			snprintf(ports, sizeof(ports), "%s,suspend%s%s", cmd_port,
				 own && *own ? ";" : "", own && *own ? own : "");
			setenv("DOTNET_DiagnosticPorts", ports, 1);
		}
		/* ready for the tracepoint shim (usdt/README.md): found first on
		 * the loader's path, the runtime's events fired, no EventSource
		 * listened to by the runtime's own logger, and only the selected
		 * keywords' events built: without DOTNET_LTTngConfig the runtime
		 * takes every keyword as on and builds every event's arguments
		 * (a catch's method signature, a throw's type name) before its
		 * tracepoint's state says whether anyone listens.  The user's
		 * own configuration stays. */
		if (cmd_is_dotnet && cmd_tpshim_dir[0]) {
			const char *lp = getenv("LD_LIBRARY_PATH");
			char path[PATH_MAX * 2];

			snprintf(path, sizeof(path), "%s%s%s", cmd_tpshim_dir, lp && *lp ? ":" : "",
				 lp && *lp ? lp : "");
			setenv("LD_LIBRARY_PATH", path, 1);
			setenv("DOTNET_EnableEventLog", "1", 1);
			setenv("DOTNET_EventSourceFilter", "EbpfCollectNoSuchSource", 0);
			if (cmd_lttng_config[0])
				setenv("DOTNET_LTTngConfig", cmd_lttng_config, 0);
		}
		/* its perf map from its start: EnablePerfMap to a runtime that
		 * waits to be resumed kills .NET 8 and 9 (ep_perfmap.h) */
		if (cmd_is_dotnet && !getenv("DOTNET_PerfMapEnabled") &&
		    !getenv("COMPlus_PerfMapEnabled")) {
			setenv("DOTNET_PerfMapEnabled", "3", 1);
			setenv(EP_PERFMAP_OURS, "1", 1);
		}
		execvp(cmd[0], cmd);
		pr_warn("cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	*release_fd = fds[1];
	return pid;
}

/* ------------------------------------------------------------------ main */

/* An unknown provider (an EventSource) is a usage error unless every
 * target is .NET reachable over IPC, where EventPipe takes any. */
static int check_ep_extra(struct collector *c)
{
	char err[256];

	if (!env.nr_ep_extra || (env.cmd && is_dotnet_host(env.cmd[0])) ||
	    (!env.cmd && ep_targets__all_dotnet(env.pids, env.nr_pids)))
		return 0;
	selection__add_spec(&c->sel, c->table, env.ep_extra[0], err, sizeof(err));
	pr_warn("--providers: %s\n", err);
	return -EINVAL;
}

/*
 * A flight-recorder dump mid-run has no end-of-trace rundown after it to
 * name the code compiled since the start: the runtime's method and module
 * load events (Jit and Loader keywords at Verbose) name it as it appears.
 */
static int flight_selection(struct collector *c)
{
	char err[256];

	if (!ect_find_provider(c->table, "DotNETRuntime"))
		return 0;
	if (selection__add_spec(&c->sel, c->table, "DotNETRuntime:0x18:5", err, sizeof(err))) {
		pr_warn("--flight-recorder: %s\n", err);
		return -EINVAL;
	}
	pr_debug("--flight-recorder: method and module loads selected (Jit, Loader "
		 "keywords at Verbose): they name the frames of dumps\n");
	return 0;
}

static int build_selection(struct collector *c)
{
	char err[256];
	int i;

	for (i = 0; i < env.nr_providers; i++) {
		char *keep;	/* freed at exit */

		if (ep_targets__split_providers(c->table, env.providers[i], &keep, env.ep_extra,
						&env.nr_ep_extra, SEL_MAX_REQ))
			return -ENOMEM;
		env.providers[i] = keep;
		if (!*env.providers[i])
			continue;	/* EventSources only: the EventPipe path */
		if (selection__add_spec(&c->sel, c->table, env.providers[i], err, sizeof(err))) {
			pr_warn("--providers: %s\n", err);
			return -EINVAL;
		}
	}
	for (i = 0; i < env.nr_profiles; i++) {
		unsigned int groups = 0, hz = 0;
		const char *clr;

		/* cpu-sampling / contention also bring kernel events */
		if (kernel_events__profile(env.profiles[i], &groups, &hz, &clr)) {
			if (!env.kernel_set)
				env.kernel_groups |= groups;
			if (!env.sampling_set && hz)
				env.sample_hz = hz;
		}
		if (selection__add_profile(&c->sel, c->table, clr)) {
			pr_warn("unknown profile '%s' (see --help)\n", env.profiles[i]);
			return -EINVAL;
		}
	}
	if (!env.nr_providers && !env.nr_profiles)
		selection__add_profile(&c->sel, c->table, "default");
	if (env.flight)
		return flight_selection(c);
	return 0;
}

/* Does pid hold the tracepoint shim with tracepoints in it? */
static bool offers_shim(pid_t pid)
{
	struct tpshim_view v;

	return !tpshim__find(pid, &v) && !v.table.refused && v.table.count;
}

/* Is every target stock .NET, traced through EventPipe alone?  Then no
 * probe, kernel event or --usdt writes into the BPF ring buffer, and the
 * default 32 MiB (mapped twice: 64 MiB of the collector's RSS) is kept
 * small.  -p PIDs only: a command or --all may bring probes later. */
static bool eventpipe_only(const struct collector *c)
{
	int i;

	if (env.buffer_set || env.cmd || c->host.on || c->ug || env.nr_libs || env.flight ||
	    env.kernel_groups || env.sample_hz || !env.nr_pids ||
	    !ep_targets__all_dotnet(env.pids, env.nr_pids))
		return false;
	for (i = 0; i < env.nr_pids; i++)
		if (pid_runtime_probes(env.pids[i]) != 0 || offers_shim(env.pids[i]))
			return false;
	return true;
}


/* Whether CPU samples' user stacks are walked by .eh_frame tables: asked
 * for, or by default when the trace has its targets (-p, -- CMD): their
 * files' tables are built first, in well under a second, and 32 MiB of rows
 * hold them.  Host-wide (--all) and always-on (--flight-recorder: the
 * daemon) the default stays the frame-pointer walk: there every process's
 * files would be built, seconds of a thread's CPU at the start and on each
 * new program, and the rows stay in kernel memory for as long as it runs. */
static bool call_graph_eh(void)
{
	if (env.call_graph_set)
		return env.call_graph_eh;
	return env.sample_hz && !env.all && !env.flight;
}
static int setup_bpf(struct collector *c)
{
	uint64_t rb_bytes = (uint64_t)(eventpipe_only(c) ? EP_ONLY_BUFFER_MB : env.buffer_mb) << 20;
	int err, i;

	c->clr.skel = clr_events__open();
	if (!c->clr.skel) {
		err = -errno;
		pr_warn("cannot open BPF object: %s\n", strerror(-err));
		return err;
	}
	c->clr.skel->rodata->targ_filter_tgid = 1;
	c->clr.skel->rodata->targ_ustack = env.no_ustack ? 0 : env.stack_helper ? 2 : 1;
	c->clr.skel->rodata->targ_kstack = env.kstack;
	c->clr.skel->rodata->targ_wakeup_bytes = CE_WAKEUP_BYTES(rb_bytes);
	c->clr.skel->rodata->targ_backstop_bytes = CE_BACKSTOP_BYTES(rb_bytes);
	bpf_map__set_max_entries(c->clr.skel->maps.rb, rb_bytes);
	bpf_map__set_max_entries(c->clr.skel->maps.scratch, c->ncpu);
	c->clr.skel->rodata->targ_filters =
		recorder__kernel_filters(&c->pipe.rec, NULL, false) > 0;
	err = clr_events__load(c->clr.skel);
	if (err) {
		pr_warn("cannot load BPF program: %s\n", strerror(-err));
		return err;
	}
	err = recorder__kernel_filters(&c->pipe.rec, c->clr.skel->maps.filters, true);
	if (err < 0)
		return err;
	if (c->ug) {	/* --usdt: same ring buffer, same thresholds */
		usdt_generic__set_follow(c->ug, env.all_processes ? UG_FOLLOW_ALL :
					 env.usdt_children ? UG_FOLLOW_CHILDREN : UG_FOLLOW_NONE);
		err = usdt_generic__load(c->ug, bpf_map__fd(c->clr.skel->maps.rb),
					 CE_WAKEUP_BYTES(rb_bytes), CE_BACKSTOP_BYTES(rb_bytes));
		for (i = 0; !err && i < (c->child > 0 ? 1 : env.nr_pids); i++)
			err = usdt_generic__add_target(c->ug, c->child > 0 ? c->child : env.pids[i]);
		if (err)
			return err;
	}
	if (env.kernel_groups || env.sample_hz) {	/* same ring buffer */
		struct kernel_events_opts ko = {
			.groups = env.kernel_groups,
			.sample_hz = env.sample_hz,
			.sample_events = env.sample_events,
			.ustack_copy = !env.call_graph_dwarf ? 0 :
				       env.stack_size ? env.stack_size : KE_USTACK_COPY_DEFAULT,
			.eh_unwind = call_graph_eh(),
			.all_processes = env.all_processes,
			.sample_select = env.all && (env.nr_comm || env.nr_cgroup ||
						     env.nr_container || env.nr_pid_filter),
			.rb_fd = bpf_map__fd(c->clr.skel->maps.rb),
			.rb_bytes = rb_bytes,
			.verbose = env.verbose,
		};

		c->ke = kernel_events__open(&ko);
		if (!c->ke)
			return -errno;
		err = pipeline__add_source(&c->pipe, &kernel_events_source_ops, c->ke, "--kernel");
		for (i = 0; !err && i < (c->child > 0 ? 1 : env.nr_pids); i++)
			err = kernel_events__add_target(c->ke, c->child > 0 ? c->child : env.pids[i]);
		if (err)
			return err;
	}
	for (i = 0; i < (c->child > 0 ? 1 : env.nr_pids); i++) {
		__u32 tgid = c->child > 0 ? c->child : env.pids[i];
		__u8 one = 1;

		err = bpf_map__update_elem(c->clr.skel->maps.targets, &tgid, sizeof(tgid), &one,
					   sizeof(one), 0);
		if (err) {
			pr_warn("cannot add pid %u to the target map: %s\n", tgid, strerror(-err));
			return err;
		}
	}
	/* stock .NET through its tracepoints, with an EventPipe session
	 * beside them for the providers only EventPipe serves (the rundown's
	 * tracepoints then left down: tpshim.h); --all: for every process
	 * that offers them, now or later (host.c) */
	c->tps.no_rundown = c->ept.cfg_shim.n > 0;
	if (c->host.on) {
		err = tpshim_source__load(&c->tps, bpf_map__fd(c->clr.skel->maps.rb),
					  CE_WAKEUP_BYTES(rb_bytes), CE_BACKSTOP_BYTES(rb_bytes));
		if (err)
			return err;
	}
	for (i = 0; !c->host.on && i < (env.tpshim ? 1 : env.nr_pids); i++) {
		if (!env.tpshim && !offers_shim(env.pids[i]))
			continue;
		err = tpshim_source__load(&c->tps, bpf_map__fd(c->clr.skel->maps.rb),
					  CE_WAKEUP_BYTES(rb_bytes), CE_BACKSTOP_BYTES(rb_bytes));
		if (err)
			return err;
		break;
	}
	err = pipeline__open_ring(&c->pipe, bpf_map__fd(c->clr.skel->maps.rb));
	if (err) {
		pr_warn("cannot create ring buffer consumer: %s\n", strerror(-err));
		return err;
	}
	return 0;
}

static int attach_libs(struct collector *c, pid_t pid)
{
	int i, n, total = 0;

	for (i = 0; i < env.nr_libs; i++) {
		n = clr_source__attach_path(&c->clr, pid, env.libs[i]);
		if (n >= 0 && c->ug) {	/* --usdt */
			int g = usdt_generic__attach_path(c->ug, pid, env.libs[i]);

			n = g < 0 ? g : n + g;
		}
		if (n < 0) {
			pr_warn("cannot attach %s in pid %d: %s\n", env.libs[i], pid, strerror(-n));
			return n;
		}
		total += n;
	}
	return total;
}

/* Does a target without runtime probes have a .NET diagnostics socket? */
static bool dotnet_candidates(const struct collector *c)
{
	struct dn_socket s;
	int i;

	for (i = 0; i < env.nr_pids; i++)
		if (c->ep_candidate[i] && dn_find_socket(env.pids[i], &s) != -ENOENT)
			return true;
	return false;
}

/* Initial attach.  Returns 0, or an exit code. */
static int attach_all(struct collector *c, const char *cmd_path)
{
	int i, n, total = 0;

	if (c->child > 0) {
		n = clr_source__attach_path(&c->clr, c->child, cmd_path);
		if (n >= 0 && c->ug) {	/* --usdt */
			int g = usdt_generic__attach_path(c->ug, c->child, cmd_path);

			n = g < 0 ? g : n + g;
		}
		if (n >= 0)
			total = attach_libs(c, c->child);
		if (n < 0 || total < 0) {
			pr_warn("cannot attach to %s: %s\n", cmd_path, strerror(n < 0 ? -n : -total));
			return EXIT_FAIL;
		}
		if (!n && !total && !c->ept.wait_child)
			pr_warn("no runtime probes attached in %s yet; libraries it maps later "
				"are attached within a second (use --lib to catch their first "
				"events)\n", cmd_path);
		return EXIT_OK;
	}
	for (i = 0; i < env.nr_pids; i++) {
		int ours = c->clr.ours_found;

		c->pid_alive[i] = true;
		n = attach_libs(c, env.pids[i]);
		if (n < 0)
			return EXIT_FAIL;
		total += n;
		n = clr_source__attach_pid(&c->clr, env.pids[i], true);
		if (n >= 0 && c->ug) {	/* --usdt */
			int g = usdt_generic__attach_pid(c->ug, env.pids[i]);

			n = g < 0 ? g : n + g;
		}
		if (n == -ESRCH) {
			pr_warn("no such process: %d\n", env.pids[i]);
			return EXIT_NO_PROCESS;
		}
		if (n < 0) {
			pr_warn("cannot attach to pid %d: %s\n", env.pids[i], strerror(-n));
			return EXIT_FAIL;
		}
		total += n;
		c->ep_candidate[i] = c->clr.ours_found == ours;	/* stock .NET? */
		if (c->ep_candidate[i] && c->tps.skel) {
			/* its own tracepoints first, EventPipe otherwise */
			n = tpshim_source__attach_pid(&c->tps, env.pids[i]);
			if (n < 0 && n != -ENOENT)
				return EXIT_FAIL;
			if (n > 0) {	/* none selected: EventPipe's providers */
				/* EventPipe beside it for what only it serves */
				c->ep_candidate[i] = ep_targets__beside_shim(&c->ept, i);
				total += n;
			}
		}
	}
	if (total)
		return EXIT_OK;
	if (dotnet_candidates(c))	/* EventPipe takes over: no warning */
		return EXIT_NO_PROBES;
	if (c->ug)	/* --usdt */
		pr_warn("no USDT probes matching --usdt in pid%s %d%s (ebpf-collect -l -p PID "
			"lists them)\n", env.nr_pids > 1 ? "s" : "", env.pids[0],
			env.nr_pids > 1 ? ",..." : "");
	if (!c->clr.ours_found)
		pr_warn("no .NET runtime USDT probes (providers DotNETRuntime...) in pid%s %d%s: "
			"the runtime must be built with the USDT provider (usdt/clr-events.man), "
			"and no .NET diagnostics socket for EventPipe either (not .NET, or "
			"DOTNET_EnableDiagnostics=0); searched %s\n", env.nr_pids > 1 ? "s" : "",
			env.pids[0], env.nr_pids > 1 ? ",..." : "",
			c->clr.searched ? c->clr.searched : "no files");
	else if (c->clr.attach_failed)
		pr_warn("could not attach any of the %d selected runtime probes (see above)\n",
			c->clr.attach_failed);
	else
		pr_warn("none of the %d runtime probes found matches --providers/--profile\n",
			c->clr.ours_found);
	return c->clr.attach_failed ? EXIT_FAIL : EXIT_NO_PROBES;
}

/* ------------------------------------------------------------------ main */

/* The event table, the selection and the EventPipe sessions' providers.
 * EXIT_OK or EXIT_USAGE. */
static int select_events(struct collector *c)
{
	if (env.manifest) {
		char merr[512];

		if (ect_table__load(env.manifest, &c->table, merr, sizeof(merr))) {
			pr_warn("--manifest %s\n", merr);
			return EXIT_USAGE;
		}
	}
	if (build_selection(c) ||
	    ep_targets__config(&c->ept, &c->sel, env.ep_extra, env.nr_ep_extra, env.sample_hz,
			       env.quiet))
		return EXIT_USAGE;
	return EXIT_OK;
}

/* Options, the event table, the selection and every check before anything
 * is started.  EXIT_OK or the exit code. */
static int prepare(struct collector *c)
{
	if (select_events(c))
		return EXIT_USAGE;
	if (check_privileges())
		return EXIT_NO_PRIV;
	if (check_kernel())
		return EXIT_NO_KERNEL;
	if (check_pids())
		return EXIT_NO_PROCESS;
	if (check_ep_extra(c))
		return EXIT_USAGE;
	if (host__init(c)) {
		pr_warn("out of memory\n");
		return EXIT_FAIL;
	}
	return init_recorder(c, &exiting);
}

/* What the pipeline asks of the session (pipeline.h). */
static int hook_publish(void *ctx)
{
	return publish_output(ctx);
}

static void hook_losses(void *ctx, struct loss_summary *loss)
{
	collect_loss(ctx, loss);
}

static void hook_exec(void *ctx, pid_t pid)
{
	host__note_exec(ctx, pid);
}

static bool hook_selected(void *ctx, pid_t pid)
{
	return host__selected(ctx, pid);
}

/* Per-event tables, the reorder buffer, the pipeline's hooks and sources,
 * and the --usdt specs. */
static int alloc_state(struct collector *c)
{
	char uerr[256];
	int i;

	c->ncpu = libbpf_num_possible_cpus();
	c->clr.meta_ids = calloc(c->table->n_events, sizeof(*c->clr.meta_ids));
	c->clr.ev_counts = calloc(c->table->n_events, sizeof(*c->clr.ev_counts));
	c->pipe.ro = reorder__new();
	c->pipe.count_only = env.count_only;
	if (c->ncpu <= 0 || !c->clr.meta_ids || !c->clr.ev_counts || !c->pipe.ro) {
		pr_warn("out of memory\n");
		return EXIT_FAIL;
	}
	c->pipe.hooks = (struct pipeline_hooks){
		.ctx = c, .publish = hook_publish, .losses = hook_losses, .exec = hook_exec,
		.selected = env.format == 6 ? hook_selected : NULL,
	};
	if (init_sources(c, &exiting))
		return EXIT_FAIL;
	if (!env.nr_usdt)
		return EXIT_OK;
	c->ug = usdt_generic__new(env.quiet ? -1 : env.verbose);
	for (i = 0; c->ug && i < env.nr_usdt; i++)
		if (usdt_generic__add_spec(c->ug, env.usdt[i], uerr, sizeof(uerr)))
			break;
	if (!c->ug || i < env.nr_usdt) {
		pr_warn("--usdt: out of memory\n");
		return EXIT_FAIL;
	}
	if (pipeline__add_source(&c->pipe, &usdt_generic_source_ops, c->ug, "--usdt"))
		return EXIT_FAIL;
	return EXIT_OK;
}

/* -- CMD: fork it, held before exec until everything is attached. */
static int start_command(struct collector *c, char **cmd_path, int *release_fd)
{
	*cmd_path = resolve_cmd(env.cmd[0]);
	if (!*cmd_path) {
		pr_warn("command not found: %s\n", env.cmd[0]);
		return EXIT_USAGE;
	}
	cmd_is_dotnet = is_dotnet_host(*cmd_path);
	if (env.tpshim && !cmd_is_dotnet) {
		pr_warn("--tracepoint-shim: %s is not a .NET host (dotnet or an apphost)\n",
			env.cmd[0]);
		return EXIT_USAGE;
	}
	if (env.tpshim && find_tpshim_dir(cmd_tpshim_dir, sizeof(cmd_tpshim_dir))) {
		pr_warn("--tracepoint-shim: no %s beside the collector's binary (tpshim/) nor in "
			"%s\n", TPABI_LIB_NAME, TPSHIM_INSTALLED_DIR);
		return EXIT_FAIL;
	}
	/* too long a list (SEL_MAX_REQ providers of the runtime's four):
	 * none, every keyword built as before */
	if (env.tpshim)
		selection__lttng_config(&c->sel, cmd_lttng_config, sizeof(cmd_lttng_config));
	if (cmd_is_dotnet && ep_targets__listen_child(&c->ept, cmd_port, sizeof(cmd_port)))
		return EXIT_FAIL;
	c->child = spawn_held(env.cmd, release_fd);
	if (cmd_is_dotnet)	/* EventPipe from its start */
		ep_targets__wait_child(&c->ept, c->child);
	if (c->child < 0) {
		pr_warn("cannot start %s: %s\n", env.cmd[0], strerror(-c->child));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* Frame names: the symbolizer, and the targets' mappings as they are made
 * (for what exits before a /proc snapshot). */
static int start_symbols(struct collector *c)
{
	struct symbolize_opts so = { .per_process = env.format == 6 };
	int i, err, n = c->child > 0 ? 1 : env.nr_pids;

	c->pipe.sym = symbolize__new(c->pipe.w, &so);
	if (!c->pipe.sym) {
		pr_warn("out of memory\n");
		return EXIT_FAIL;
	}
	c->mm = mmap_events__new();
	if (c->mm && pipeline__add_source(&c->pipe, &mmap_events_source_ops, c->mm,
					  "mappings"))
		return EXIT_FAIL;
	for (i = 0; i < n; i++) {
		pid_t p = c->child > 0 ? c->child : env.pids[i];

		symbolize__add_pid(c->pipe.sym, p);
		if (!c->mm)
			continue;
		err = mmap_events__add_pid(c->mm, p);
		if (!err)
			symbolize__mappings_reported(c->pipe.sym, p);
		else if (err < 0)
			pr_debug("pid %d: no mapping records (perf_event_open: %s); "
				 "/proc snapshots only\n", p, strerror(-err));
	}
	return EXIT_OK;
}

/* BPF, the runtime probes, EventPipe sessions for stock .NET, kernel events. */
static int attach_sources(struct collector *c, const char *cmd_path)
{
	int ret;

	if (setup_bpf(c) || start_fleet(c))
		return EXIT_FAIL;
	c->ept.all = c->host.on;	/* a hostile socket must not end the run */
	c->ept.stop = &exiting;
	/* before the scan: a runtime that announces itself meanwhile waits */
	if (c->host.on && env.dotnet_port && ep_targets__listen(&c->ept, env.dotnet_port))
		return EXIT_FAIL;
	if (c->host.on)
		ret = host__scan(c);	/* --all */
	else
		ret = attach_all(c, cmd_path);
	if ((ret == EXIT_OK || ret == EXIT_NO_PROBES) && !c->child && !c->host.on) {
		int ep = ep_targets__attach(&c->ept, env.pids, c->ep_candidate, env.nr_pids);

		if (ret == EXIT_NO_PROBES || ep != EXIT_NO_PROBES)
			ret = ep;
	}
	if (ret == EXIT_NO_PROBES && c->ke) {	/* kernel events still apply */
		pr_info("tracing kernel events only\n");
		ret = EXIT_OK;
	}
	if (!ret && c->ke && kernel_events__attach(c->ke))
		ret = EXIT_FAIL;
	return ret;
}

static void release_command(int *release_fd)
{
	if (*release_fd < 0)
		return;
	if (write(*release_fd, "g", 1) != 1)
		pr_warn("cannot release %s: %s\n", env.cmd[0], strerror(errno));
	close(*release_fd);
	*release_fd = -1;
}

/* Trace until told to stop, then stop every source and write the end. */
static int trace(struct collector *c)
{
	unsigned long long probes = c->clr.nr_links + usdt_generic__nr_links(c->ug);
	int ret, err, off, eps = ep_targets__count(&c->ept), shims = (int)c->tps.nr_procs;
	int beside = ep_targets__count_beside(&c->ept);
	char what[PATH_MAX], names[512];

	/* what is traced: USDT probes, processes through the tracepoint shim
	 * and EventPipe sessions (stock .NET, which has no probe: "0 probes"
	 * said nothing of them), or some of each */
	off = probes || (!eps && !c->ept.wait_child && !shims) ?
	      snprintf(what, sizeof(what), "%llu probes", probes) : 0;
	if (shims)
		off += snprintf(what + off, sizeof(what) - off, "%s%d .NET process%s through the "
				"tracepoint shim", off ? " and " : "", shims, shims == 1 ? "" : "es");
	if (beside)	/* in the same trace: what only EventPipe serves */
		off += snprintf(what + off, sizeof(what) - off, " (%d with an EventPipe session "
				"beside it for %s)", beside,
				ep_targets__beside_names(&c->ept, names, sizeof(names)));
	eps -= beside;
	if (c->ept.wait_child && env.tpshim && c->ept.cfg_shim.n)
		snprintf(what + off, sizeof(what) - off, "%sthe .NET runtime of %s through the "
			 "tracepoint shim from its start, with an EventPipe session beside it for "
			 "%s", off ? " and " : "", env.cmd[0],
			 ep_targets__beside_names(&c->ept, names, sizeof(names)));
	else if (c->ept.wait_child && env.tpshim)
		snprintf(what + off, sizeof(what) - off, "%sthe .NET runtime of %s through the "
			 "tracepoint shim from its start", off ? " and " : "", env.cmd[0]);
	else if (c->ept.wait_child)
		snprintf(what + off, sizeof(what) - off, "%sthe .NET runtime of %s over EventPipe "
			 "from its start (%d provider%s)", off ? " and " : "", env.cmd[0],
			 c->ept.cfg.n, c->ept.cfg.n == 1 ? "" : "s");
	else if (eps)
		snprintf(what + off, sizeof(what) - off, "%s%d .NET process%s over EventPipe "
			 "(%d provider%s)", off ? " and " : "", eps, eps == 1 ? "" : "es",
			 c->ept.cfg.n, c->ept.cfg.n == 1 ? "" : "s");
	pr_info("tracing %s%s; writing %s; Ctrl-C to stop\n", what,
		env.duration_ns ? " for the given duration" : "",
		c->pipe.rec.fr && !c->pipe.rec.writes ? "the flight recorder's window to numbered files on SIGUSR1, "
		"--dump-on and exit" : c->pipe.rec.path);
	c->cpu_mark[0] = self_cpu_ns();
	c->wall_mark[0] = mono_ns();
	err = poll_loop(c);
	c->cpu_mark[1] = self_cpu_ns();
	c->wall_mark[1] = mono_ns();
	if (!err) {
		int stop_err;

		pause_runtimes(c);
		/* the runtimes' buffers out while the probe is in */
		batch__flush(&c->clr, &c->pipe);
		tpshim_source__flush_batched(&c->tps, &c->pipe);
		/* EventPipe's rundown goes into the reorder buffer before the drain */
		err = ep_targets__stop(&c->ept, c->pipe.ro);
		stop_err = stop_and_drain(c);
		batch__release(&c->clr);
		resume_runtimes(c);
		warn_silent_runtimes(c);
		if (!err)
			err = stop_err;
		if (!err)	/* the flight recorder's exit dump */
			err = recorder__finish(&c->pipe);
		fleet__stop(&c->fleet, &c->pipe);	/* the last export */
	}
	ret = err ? (c->ept.fail ? c->ept.fail : EXIT_FAIL) : c->ept.cut ? EXIT_STREAM_CUT : EXIT_OK;
	if (finish_output(c, ret))
		ret = EXIT_FAIL;
	if (ret == EXIT_OK && recorder__failed(&c->pipe.rec))
		ret = EXIT_FAIL;	/* a flight-recorder dump was not written */
	return ret;
}

/* What became of -- CMD. */
static void end_command(struct collector *c, int ret)
{
	if (c->child <= 0)
		return;
	if (c->child_exited) {
		if (WIFEXITED(c->child_status) && WEXITSTATUS(c->child_status))
			pr_info("%s exited with status %d\n", env.cmd[0],
				WEXITSTATUS(c->child_status));
		else if (WIFSIGNALED(c->child_status))
			pr_info("%s was killed by signal %d\n", env.cmd[0],
				WTERMSIG(c->child_status));
		return;
	}
	if (ret != EXIT_OK) {
		kill(c->child, SIGKILL);
		waitpid(c->child, &c->child_status, 0);
	} else {
		pr_info("%s (pid %d) is still running\n", env.cmd[0], c->child);
	}
}

int session__check(void)
{
	struct collector c = { .table = &clretw_event_table };
	int ret;

	libbpf_set_print(libbpf_print_fn);
	ret = env.list ? EXIT_OK : prepare(&c);
	if (!ret)	/* as session__main: a failed prepare() frees only the table */
		collector__free(&c);
	if (c.table != &clretw_event_table)
		ect_table__free(c.table);
	return ret;
}

int session__main(void)
{
	struct collector c = { .table = &clretw_event_table };
	struct sigaction sa = { .sa_handler = sig_handler };
	char *cmd_path = NULL;
	int release_fd = -1, ret;

	libbpf_set_print(libbpf_print_fn);
	raise_nofile();
	if (env.list) {	/* with the selection: what a session would take */
		ret = env.list_path ? EXIT_OK : select_events(&c);
		if (!ret)
			ret = list_probes(&c);
		goto free_table;
	}
	ret = prepare(&c);
	if (ret)
		goto free_table;
	/* perf maps a killed collector left on, found before ours are on */
	ep_perfmap__reclaim(NULL);
	ret = alloc_state(&c);
	if (!ret && env.cmd)
		ret = start_command(&c, &cmd_path, &release_fd);
	if (ret)
		goto cleanup;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = sig_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	if (open_output(&c, c.child > 0 ? c.child : env.nr_pids ? env.pids[0] : 0)) {
		ret = EXIT_OUTPUT;
		goto cleanup;
	}
	ret = env.no_symbols ? EXIT_OK : start_symbols(&c);
	if (!ret)
		ret = attach_sources(&c, cmd_path);
	if (ret)
		goto cleanup;
	release_command(&release_fd);
	ret = trace(&c);
cleanup:
	close_output(&c, ret);
	if (release_fd >= 0)
		close(release_fd);	/* the held child exits on EOF */
	collector__free(&c);
	end_command(&c, ret);
	free(cmd_path);
free_table:
	if (c.table != &clretw_event_table)
		ect_table__free(c.table);
	return ret;
}
