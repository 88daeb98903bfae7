// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * refrt - a reference runtime that looks like CoreCLR to a tracer.
 *
 * main.c: options, the main thread and the thread-pool workers.  The main
 * thread fires RuntimeInformationStart, loads the app domain and
 * assemblies, compiles the managed program (loader.c), performs the first
 * rundown check, starts the workers and waits for them.  Each worker fires
 * ThreadCreated and ThreadPoolWorkerThreadStart, enters cooperative mode
 * and calls the JIT'd System.Threading.PortableThreadPool+WorkerThread::
 * WorkerThreadStart(), which loops over rt_helper_tp_dequeue() and
 * DispatchWorkItem() -> RefApp.Program::RunIteration() until the worker's
 * operations are done, --duration has passed, or SIGINT/SIGTERM arrived.
 * At the end: DCEnd rundown (for the probes that are enabled), then the
 * JSON summary.
 *
 * Exit status: 0 success, 1 runtime failure, 64 usage error.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "refrt.h"

#define EX_USAGE 64

/* The runtime: main() passes it to every part's init. */
static struct refrt runtime = {
	.env = {
		.scenario = SC_MIXED,
		.threads = 2,
		.seed = 1,
		.work = 20000,
		.hold_us = 500,
	},
	.jit_lock = PTHREAD_MUTEX_INITIALIZER,
};
static struct refrt *const rt = &runtime;
static volatile sig_atomic_t go_signal;
static int active_workers;

const char *argp_program_version = "refrt 0.1 (ebpf-collect)";
const char *argp_program_bug_address = "<https://github.com/ebpf-collect/ebpf-collect/issues>";

static const char doc[] =
"refrt: a reference runtime that looks like a CoreCLR process to a tracer.\n"
"\n"
"USAGE: refrt [--scenario NAME] [--threads N]\n"
"             [--iterations N | --duration SECS] [--rate OPS] [--seed N]\n"
"             [--summary FILE]\n"
"             [--wait-for-tracer SECS | --wait-for-signal SECS]\n"
"\n"
"Scenarios: cpu, alloc, exceptions, contention, jit-churn, mixed (default).\n"
"An operation is one call of the JIT'd RefApp.Program::RunIteration;\n"
"--iterations and --rate count operations per worker thread.\n"
"Environment: DOTNET_PerfMapEnabled (1 perf map + perfinfo + jitdump,\n"
"2 jitdump, 3 perf map + perfinfo), DOTNET_PerfMapJitDumpPath,\n"
"DOTNET_PerfMapShowOptimizationTiers.  A JSON summary is printed at exit.\n"
"Exit status: 0 success, 1 runtime failure, 64 usage error.\n"
"\n"
"EXAMPLES:\n"
"    refrt --scenario cpu --threads 2 --iterations 200\n"
"    DOTNET_PerfMapEnabled=3 refrt --scenario jit-churn --duration 5 -o s.json\n"
"    refrt --scenario alloc --wait-for-tracer 10  # start once traced\n";

enum {
	OPT_SEED = 1000,
	OPT_WAIT,
	OPT_WAIT_SIGNAL,
	OPT_WORK,
	OPT_HOLD,
};

static const struct argp_option opts[] = {
	{ "scenario", 's', "NAME", 0, "cpu|alloc|exceptions|contention|jit-churn|mixed", 0 },
	{ "threads", 't', "N", 0, "worker threads (1-64, default 2)", 0 },
	{ "iterations", 'n', "N", 0, "operations per worker (default 100 unless --duration)", 0 },
	{ "duration", 'd', "SECS", 0, "run for SECS seconds instead", 0 },
	{ "rate", 'r', "OPS", 0, "operations per second per worker (default: unlimited)", 0 },
	{ "seed", OPT_SEED, "N", 0, "seed of every pseudo-random choice (default 1)", 0 },
	{ "summary", 'o', "FILE", 0, "write the JSON summary to FILE (default stdout)", 0 },
	{ "wait-for-tracer", OPT_WAIT, "SECS", 0,
	  "before starting, wait up to SECS for SIGUSR1 or for a tracer to enable probes", 0 },
	{ "wait-for-signal", OPT_WAIT_SIGNAL, "SECS", 0,
	  "before starting, wait up to SECS for SIGUSR1 only", 0 },
	{ "work", OPT_WORK, "N", 0, "inner iterations of HotLoop per operation (default 20000)", 0 },
	{ "hold-us", OPT_HOLD, "US", 0, "lock hold time in the contention scenario (default 500)", 0 },
	{},
};

/* strict numbers: the whole string, in range */
static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static bool have_iterations, have_duration;

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	uint64_t u;
	double d;

	switch (key) {
	case 's':
		for (int i = SC_CPU; i <= SC_MIXED; i++)
			if (!strcmp(arg, rt_scenario_name((enum rt_scenario)i))) {
				rt->env.scenario = (enum rt_scenario)i;
				return 0;
			}
		argp_error(state, "unknown scenario '%s'", arg);
		break;
	case 't':
		if (parse_u64(arg, 1, 64, &u))
			argp_error(state, "--threads: expected 1..64, got '%s'", arg);
		rt->env.threads = (int)u;
		break;
	case 'n':
		if (parse_u64(arg, 1, UINT32_MAX, &u))
			argp_error(state, "--iterations: expected a positive integer, got '%s'", arg);
		rt->env.iterations = u;
		have_iterations = true;
		break;
	case 'd':
		if (parse_double(arg, 0.001, 86400, &d))
			argp_error(state, "--duration: expected seconds (0.001..86400), got '%s'", arg);
		rt->env.duration_ns = (uint64_t)(d * 1e9);
		have_duration = true;
		break;
	case 'r':
		if (parse_double(arg, 0, 1e7, &d))
			argp_error(state, "--rate: expected operations per second, got '%s'", arg);
		rt->env.rate = d;
		break;
	case OPT_SEED:
		if (parse_u64(arg, 0, UINT64_MAX, &u))
			argp_error(state, "--seed: expected an unsigned integer, got '%s'", arg);
		rt->env.seed = u;
		break;
	case 'o':
		rt->env.summary_path = arg;
		break;
	case OPT_WAIT:
	case OPT_WAIT_SIGNAL:
		if (parse_double(arg, 0, 3600, &d))
			argp_error(state, "%s: expected seconds, got '%s'",
				   key == OPT_WAIT ? "--wait-for-tracer" : "--wait-for-signal", arg);
		rt->env.wait_for_tracer = d;
		rt->env.wait_signal_only = key == OPT_WAIT_SIGNAL;
		break;
	case OPT_WORK:
		if (parse_u64(arg, 16, 100000000, &u))
			argp_error(state, "--work: expected 16..100000000, got '%s'", arg);
		rt->env.work = (uint32_t)u;
		break;
	case OPT_HOLD:
		if (parse_u64(arg, 0, 1000000, &u))
			argp_error(state, "--hold-us: expected 0..1000000, got '%s'", arg);
		rt->env.hold_us = (uint32_t)u;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (have_iterations && have_duration)
			argp_error(state, "--iterations and --duration are exclusive");
		if (!have_iterations && !have_duration)
			rt->env.iterations = 100;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char *getenv2(const char *name)
{
	char k[128];
	const char *v;

	snprintf(k, sizeof(k), "DOTNET_%s", name);
	v = getenv(k);
	if (v)
		return v;
	snprintf(k, sizeof(k), "COMPlus_%s", name);
	return getenv(k);
}

static void read_environment(void)
{
	const char *v = getenv2("PerfMapEnabled");
	uint64_t u;

	if (v && !parse_u64(v, 0, 3, &u))
		rt->env.perfmap_mode = (int)u;
	else if (v)
		pr_warn("ignoring DOTNET_PerfMapEnabled=%s (expected 0..3)\n", v);
	v = getenv2("PerfMapShowOptimizationTiers");
	rt->env.perfmap_tiers = v && !strcmp(v, "1");
	v = getenv2("PerfMapJitDumpPath");
	snprintf(rt->env.perfmap_dir, sizeof(rt->env.perfmap_dir), "%s", v && *v ? v : "/tmp");
}

static void on_stop(int sig)
{
	(void)sig;
	rt->stopping = 2;
}

static void on_go(int sig)
{
	(void)sig;
	go_signal = 1;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_go;
	sigaction(SIGUSR1, &sa, NULL);
}

/* wait for SIGUSR1, or (unless --wait-for-signal) for probes to be enabled
 * and stay unchanged for 300 ms */
static void wait_for_tracer(void)
{
	uint64_t deadline = mono_ns() + (uint64_t)(rt->env.wait_for_tracer * 1e9);
	int last = 0, stable = 0;

	pr_info("pid %d waiting for %s\n", getpid(),
		rt->env.wait_signal_only ? "SIGUSR1" : "a tracer (SIGUSR1 or probes)");
	while (!go_signal && !rt->stopping && mono_ns() < deadline) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		int n = ev_enabled_probe_count();

		stable = (n && n == last) ? stable + 10 : 0;
		last = n;
		if (stable >= 300 && !rt->env.wait_signal_only)
			break;
		nanosleep(&ts, NULL);
	}
	if (!go_signal && mono_ns() >= deadline)
		pr_warn("no tracer after %gs, starting anyway\n", rt->env.wait_for_tracer);
}

static void thread_init(struct rt_thread *t, int index)
{
	t->index = index;
	t->tid = (pid_t)syscall(SYS_gettid);
	t->managed_id = (uint64_t)(uintptr_t)t;
	t->managed_index = (uint32_t)(index + 2);	/* main thread is 1 */
	t->rng.s = rt->env.seed ^ (0xd1b54a32d192ed03ull * (uint64_t)(index + 2));
	rt_self = t;
}

static void *worker_main(void *arg)
{
	struct rt_thread *t = arg;
	typedef void (*entry_fn)(void);
	int active;

	thread_init(t, t->index);
	ev_thread_created(t);
	active = __atomic_add_fetch(&active_workers, 1, __ATOMIC_SEQ_CST);
	ev_threadpool_worker(false, (uint32_t)active, 0);
	rt_coop_enter();
	((entry_fn)__atomic_load_n(&rt->wk.worker_start->slot, __ATOMIC_ACQUIRE))();
	rt_coop_leave();
	active = __atomic_sub_fetch(&active_workers, 1, __ATOMIC_SEQ_CST);
	ev_threadpool_worker(true, (uint32_t)active, 0);
	ev_thread_terminated(t);
	return NULL;
}

static void wait_duration(void)
{
	uint64_t end = mono_ns() + rt->env.duration_ns;

	while (!rt->stopping) {
		uint64_t now = mono_ns();
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		if (now >= end)
			break;
		if (end - now < 20 * 1000 * 1000u)
			ts.tv_nsec = (long)(end - now);
		nanosleep(&ts, NULL);
	}
	if (!rt->stopping)
		rt->stopping = 1;
}

/* The helpers JIT'd code calls (helpers.c), for the JIT. */
static const struct rt_helpers helpers = {
	.new_obj = (void *)rt_helper_new,
	.new_large = (void *)rt_helper_new_large,
	.try_call = (void *)rt_helper_try_call,
	.throw_exc = (void *)rt_helper_throw,
	.monitor_enter = (void *)rt_helper_monitor_enter,
	.monitor_exit = (void *)rt_helper_monitor_exit,
	.sleep = (void *)rt_helper_sleep,
	.gc_collect = (void *)rt_helper_gc_collect,
	.churn = (void *)rt_helper_churn,
	.work_item_done = (void *)rt_helper_work_item_done,
	.tp_dequeue = (void *)rt_helper_tp_dequeue,
};

int main(int argc, char **argv)
{
	static const struct argp argp = { opts, parse_arg, NULL, doc, NULL, NULL, NULL };
	uint64_t start_ns, end_ns;
	int err, started = 0;

	argp_err_exit_status = EX_USAGE;
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return EX_USAGE;
	read_environment();
	install_signals();
	thread_init(&rt->main_thread, -1);
	rt->main_thread.managed_index = 1;
	rt->workers = calloc((size_t)rt->env.threads, sizeof(*rt->workers));
	if (!rt->workers)
		return 1;
	jit__init(rt, &helpers);
	events__init(rt);
	eventsource__init(rt);
	err = codeheap__init(rt);
	if (!err)
		err = gc__init(rt);
	if (!err)
		err = helpers__init(rt);
	if (err) {
		pr_warn("initialization failed: %s\n", strerror(-err));
		return 1;
	}
	perfmap__init(rt);	/* a failure is reported and the run goes on */
	if (rt->env.wait_for_tracer > 0)
		wait_for_tracer();

	start_ns = mono_ns();
	ev_runtime_information(false);
	ev_thread_created(&rt->main_thread);
	err = loader__init(rt);
	if (err) {
		pr_warn("start-up JIT failed: %s\n", strerror(-err));
		return 1;
	}
	ev_threadpool_adjustment(0, (uint32_t)rt->env.threads, 1 /* Initializing */);
	err = loader__rundown_watch_start();
	if (err)
		pr_warn("cannot start the rundown watcher: %s\n", strerror(-err));
	pr_info("pid %d running scenario %s on %d threads\n", getpid(),
		rt_scenario_name(rt->env.scenario), rt->env.threads);
	for (int i = 0; i < rt->env.threads; i++) {
		rt->workers[i].index = i;
		err = pthread_create(&rt->workers[i].pthread, NULL, worker_main, &rt->workers[i]);
		if (err) {
			pr_warn("cannot start worker %d: %s\n", i, strerror(err));
			rt->stopping = 1;
			break;
		}
		started++;
	}
	if (rt->env.duration_ns && !rt->stopping)
		wait_duration();
	for (int i = 0; i < started; i++)
		pthread_join(rt->workers[i].pthread, NULL);
	if (!rt->stopping)
		rt->stopping = 1;
	loader__rundown_watch_stop();
	loader__rundown(false);
	end_ns = mono_ns();
	perfmap__close();
	err = summary__write(rt, rt->env.summary_path, start_ns, end_ns);
	return err || started < rt->env.threads ? 1 : 0;
}
