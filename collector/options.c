// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * options.c - the options of `ebpf-collect` in one table (options.h), and
 * argp's vector made from it.  The order is --help's; the daemon takes
 * every row as a config key and on its command line (daemon_config.c).
 */
#include <argp.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include "options.h"

static const struct collect_opt rows[] = {
	{ "pid", 'p', "PID", 0, "Trace this process (repeatable)" },
	{ "output", 'o', "FILE", 0, "Output file (default trace.nettrace; overwritten)" },
	{ "providers", OPT_PROVIDERS, "SPEC", 0, "Providers, keywords and levels (see above)" },
	{ "profile", OPT_PROFILE, "NAME", 0, "Named provider set (see above)" },
	{ "duration", 'd', "D", 0, "Stop after D (e.g. 30, 500ms, 10s, 2m, 1h)" },
	{ "buffer-size", 'b', "MB", 0, "Ring buffer size in MiB, power of two (default 32)" },
	{ "lib", OPT_LIB, "PATH", 0,
	  "Also attach the probes of this ELF file, mapped now or later (repeatable)" },
	{ "kernel-stack", OPT_KSTACK, NULL, 0,
	  "Also capture kernel stacks (empty for USDT events, which fire in user mode)" },
	{ "no-user-stack", OPT_NO_USTACK, NULL, 0, "Do not capture user stacks" },
	{ "batched", OPT_BATCHED, NULL, 0,
	  "Batch every selected runtime event in the runtime's own per-thread buffers (no trap "
	  "per event; user stacks walked by the runtime).  Default: only events of the "
	  "high-rate heap keywords alone (0x80000 Type, 0x100000 GCHeapDump, "
	  "0x400000 GCHeapSurvivalAndMovement, 0x1000000 GCHeapAndTypeNames)" },
	{ "no-batched", OPT_NO_BATCHED, NULL, 0, "Every runtime event through its own probe" },
	{ "tracepoint-shim", OPT_TPSHIM, NULL, 0,
	  "With -- dotnet CMD: start it ready for tracing through the tracepoint shim "
	  "(LD_LIBRARY_PATH, DOTNET_EnableEventLog=1, an EventSource filter, the selected "
	  "keywords as DOTNET_LTTngConfig) and trace its "
	  "runtime's own tracepoints instead of EventPipe" },
	{ "stack-helper", OPT_STACK_HELPER, NULL, 0,
	  "User stacks with bpf_get_stack() instead of the BPF frame-pointer walk" },
	{ "usdt", OPT_USDT, "SPEC", 0,
	  "Also trace any USDT provider: PROVIDER[:PROBE-GLOB][:ARGSPEC] (repeatable)" },
	{ "usdt-children", OPT_USDT_CHILDREN, NULL, 0,
	  "--usdt probes also in the targets' descendants (forking servers: PostgreSQL); "
	  "attaches them for every process running the same files" },
	{ "kernel", OPT_KERNEL, "LIST", 0,
	  "Kernel events: sched,syscalls,proc (or all, none); see above" },
	{ "cpu-sampling", OPT_CPU_SAMPLING, "HZ", OPTF_ARG_OPTIONAL,
	  "Sample CPU stacks at HZ (default 999; 1-10000)" },
	{ "call-graph", OPT_CALL_GRAPH, "fp|dwarf|eh", 0,
	  "User stacks of CPU samples: eh walks them in the kernel by tables built from the "
	  "files' .eh_frame, frame pointers where no table applies (JIT code; the default "
	  "with -p and -- CMD); fp walks frame pointers only (the default with --all and "
	  "--flight-recorder); dwarf copies the top of the stack and unwinds it by the "
	  "files' CFI, like perf" },
	{ "sample-events", OPT_SAMPLE_EVENTS, "KIND", 0,
	  "What CPU samples (and, with sched, switch-ins) become: sampleprofiler (EventPipe's "
	  "thread samples), universal (TraceEvent 4's Universal.Events cpu and cswitch: "
	  "PerfView's CPU and Thread Time views) or both (default)" },
	{ "stack-size", OPT_STACK_SIZE, "BYTES", 0,
	  "With --call-graph dwarf: user stack bytes copied per sample (default 8192; 8-32768)" },
	{ "all-processes", OPT_ALL_PROCESSES, NULL, 0,
	  "Kernel events, samples and --usdt probes of every process, not just the targets" },
	{ "manifest", OPT_MANIFEST, "FILE", 0,
	  "Event table from this ETW manifest instead of the built-in one (see above)" },
	{ "all", OPT_ALL, NULL, 0,
	  "Host-wide: every process with the runtime provider, a --usdt provider or a .NET "
	  "diagnostics socket, also those started later; kernel events of every process" },
	{ "comm", OPT_COMM, "GLOB", 0,
	  "With --all: only processes whose comm matches (repeatable); CPU samples too" },
	{ "cgroup", OPT_CGROUP, "GLOB", 0,
	  "With --all: only processes whose cgroup path matches (repeatable)" },
	{ "container", OPT_CONTAINER, "ID", 0,
	  "With --all: only processes of the container whose id starts so (repeatable)" },
	{ "pid-filter", OPT_PID_FILTER, "PID,...", 0, "With --all: only these processes" },
	{ "dotnet-port", OPT_DOTNET_PORT, "PATH", 0,
	  "With --all: listen on PATH; .NET started with DOTNET_DiagnosticPorts=PATH,suspend "
	  "waits there until its session runs (traced from its first managed method)" },
	{ "format", OPT_FORMAT, "v5|v6", 0,
	  "NetTrace version: v6 holds many processes (default with --all), v5 one (default "
	  "otherwise; what PerfView before .NET 10 reads)" },
	{ "split-by-process", OPT_SPLIT, "DIR", 0,
	  "Also write one V5 file per process into DIR (NAME.PID.nettrace)" },
	{ "metrics", OPT_METRICS, "ADDR:PORT", 0,
	  "Serve Prometheus metrics (runtime and collector health) on ADDR:PORT" },
	{ "clickhouse", OPT_CLICKHOUSE, "URL", 0,
	  "Send named CPU stacks and runtime event counts to ClickHouse (http[s]://) every interval" },
	{ "host", OPT_HOST, "NAME", 0, "Host label of metrics and exports (default: hostname)" },
	{ "service", OPT_SERVICE, "NAME", 0,
	  "Service label of metrics and exports (with --service-from: where it finds none)" },
	{ "service-from", OPT_SERVICE_FROM, "cgroup|comm|env:NAME", 0,
	  "Service label per process: its container (12-digit id) or cgroup leaf, its comm, "
	  "or a variable of its environment" },
	{ "metrics-pid", OPT_METRICS_PID, NULL, 0,
	  "Label runtime metrics with the pid too (a series per process, unbounded)" },
	{ "export-interval", OPT_EXPORT_INTERVAL, "D", 0,
	  "ClickHouse export interval (default 10s)" },
	{ "spool", OPT_SPOOL, "DIR", 0, "Where exports wait while ClickHouse is away" },
	{ "spool-max", OPT_SPOOL_MAX, "SIZE", 0, "Bound of the spool (default 256MB)" },
	{ "rotate", OPT_ROTATE, "LIMIT", 0,
	  "Start a new file every LIMIT: a time (10m, 30s) or a size (1GB, 256MB); "
	  "files are -o's name with .1, .2, ... before the extension (repeatable: both)" },
	{ "keep", OPT_KEEP, "N", 0, "With --rotate: keep only the newest N files" },
	{ "keep-dumps", OPT_KEEP_DUMPS, "N", 0,
	  "Keep only the newest N SIGUSR1/--dump-on dumps (FILE.dump-1, ...; default: all)" },
	{ "flight-recorder", OPT_FLIGHT, "WINDOW", 0,
	  "Keep only the last WINDOW (30s, or a size: 256MB; both: 30s,256MB) in memory; "
	  "kill -USR1, --dump-on and exit write it to a numbered file" },
	{ "dump-on", OPT_DUMP_ON, "PRED", 0,
	  "Write the flight-recorder window when an event matches PRED: "
	  "EVENT[:FIELD OP VALUE] or GCPause>DURATION (repeatable)" },
	{ "stop-on", OPT_STOP_ON, "PRED", 0, "Stop tracing when an event matches PRED" },
	{ "filter", OPT_FILTER, "PRED", 0,
	  "Keep EVENT only when it matches (EVENT:FIELD OP VALUE; in the kernel where the "
	  "field sits at a fixed offset)" },
	{ "list", 'l', NULL, 0, "List the USDT probes of -p PID or of BINARY" },
	{ "no-symbols", OPT_NO_SYMBOLS, NULL, 0,
	  "Do not write method/module events naming the stack frames" },
	{ "symbols", OPT_SYMBOLS, "LIST", 0,
	  "Debug files of stripped native code by build id also from these symbol stores: "
	  "absolute directories and http(s):// URLs (SSQP layout), comma-separated; the "
	  "network is asked at the end of the trace only (and debuginfod when "
	  "DEBUGINFOD_URLS is set)" },
	{ "quiet", 'q', NULL, 0, "No progress or summary on stderr" },
	{ "verbose", 'v', NULL, 0, "More diagnostics (repeat for libbpf debug)" },
	{ NULL, 'h', NULL, OPTF_HIDDEN, "Show the full help" },
	/* bench_batched's consumer ceiling: the ring read and counted, nothing
	 * else, in the same run as the full collector (collector/README.md) */
	{ "bench-count-only", OPT_COUNT_ONLY, NULL, OPTF_HIDDEN, NULL },
	/* the daemon's: where its config file is (its own --help says so) */
	{ "config", OPT_CONFIG, "FILE", OPTF_DAEMON, NULL },
	{},
};

#define N_ROWS	(sizeof(rows) / sizeof(rows[0]) - 1)

const struct argp_option *collect_opts__argp(void)
{
	static struct argp_option v[N_ROWS + 1];
	static bool made;
	size_t i, n = 0;

	if (made)
		return v;
	for (i = 0; i < N_ROWS; i++) {
		const struct collect_opt *o = &rows[i];

		if (o->flags & OPTF_DAEMON)
			continue;
		v[n].name = o->name;
		v[n].key = o->key;
		v[n].arg = o->arg;
		v[n].flags = (o->flags & OPTF_ARG_OPTIONAL ? OPTION_ARG_OPTIONAL : 0) |
			     (o->flags & OPTF_HIDDEN ? OPTION_HIDDEN : 0);
		v[n].doc = o->help;
		n++;
	}
	made = true;
	return v;
}

const struct collect_opt *collect_opts__find(const char *name)
{
	size_t i;

	for (i = 0; i < N_ROWS; i++)
		if (rows[i].name && !strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}
