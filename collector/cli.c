// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cli.c - the options of `ebpf-collect collect` parsed (argp, with the
 * table of collector/options.c) into the session's struct env
 * (session/collector.h), and `collect` itself: the options, then the
 * session (session/session.c).
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
#include "collector_event.h"
#include "commands.h"
#include "http_client.h"
#include "session.h"
#include "event_table.h"
#include "options.h"
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
#include "symbol_store.h"	/* --symbols */
#include "ep_targets.h"		/* stock .NET: EventPipe over IPC */

#include "series.h"
#include "batch.h"
#include "collector.h"

const char *argp_program_version = "ebpf-collect " EBPF_COLLECT_VERSION;
const char *argp_program_bug_address = "<https://github.com/ebpf-collect/ebpf-collect/issues>";

static const char doc_head[] =
"Trace a .NET runtime's events through its USDT probes into a .nettrace file.\n"
"\n"
"USAGE: ebpf-collect -p PID [-p PID ...] [-o FILE] [--providers SPEC]\n"
"         [--profile NAME] [--duration D] [--buffer-size MB] [-v] [-- CMD ARGS]\n"
"         [--usdt PROVIDER[:PROBE-GLOB][:ARGSPEC]]... [--manifest FILE]\n"
"       ebpf-collect --all [--comm GLOB] [--format v5|v6] [OPTIONS]\n"
"       ebpf-collect -l (-p PID | BINARY)\n"
"       ebpf-collect dump|report FILE;  ebpf-collect split FILE DIR\n"
"\n"
"EXAMPLES:\n"
"  ebpf-collect -p 1234                  # default profile into trace.nettrace\n"
"  ebpf-collect -p 1234 --profile gc-collect -d 30s -o gc.nettrace\n"
"  ebpf-collect -p 1234 --providers Microsoft-Windows-DotNETRuntime:0x8000:4\n"
"  ebpf-collect -o app.nettrace -- ./app --arg   # trace a command from start\n"
"  ebpf-collect -l -p 1234               # list the USDT probes of a process\n"
"  ebpf-collect -p 42 --usdt 'python:function__*' --usdt python:gc__start\n"
"  ebpf-collect -p 42 --usdt 'myapp:req*:0=str/url,1=int/status'\n"
"\n"
"PROVIDERS: Provider[:KEYWORDS[:LEVEL]],... with KEYWORDS in hex (omitted:\n"
"all) and LEVEL 0-5 or LogAlways, Critical, Error, Warning, Informational,\n"
"Verbose (omitted: 5).  Full names (Microsoft-Windows-DotNETRuntime) or USDT\n"
"names (DotNETRuntime).  An event is traced when its level <= LEVEL\n"
"(LogAlways: always) and it has no keyword or one in KEYWORDS.  The other\n"
"probes are not attached and cost the runtime nothing.\n"
"\n"
"STOCK .NET (5+, no USDT provider): an EventPipe session over the process's\n"
"diagnostics socket, same provider selection (EventSource names accepted),\n"
"merged in time order with --kernel events and --cpu-sampling samples;\n"
"-- dotnet app.dll starts the runtime suspended until the session runs.\n"
"\n"
"EVENT TABLE: the built-in table holds the events of the project's manifest\n"
"(usdt/clr-events.man).  A runtime whose provider was generated from another\n"
"manifest (CoreCLR's full ClrEtwAll.man) is traced with --manifest FILE,\n"
"which reads that manifest's events instead; probes of the runtime's\n"
"providers that the table lacks are counted per file and not attached.\n"
"\n"
"--usdt (any provider: python, hotspot, hotspot_jni, postgresql, ...):\n"
"PROVIDER[:PROBE-GLOB][:ARGSPEC], repeatable.  ARGSPEC is N=TYPE[/NAME],...\n"
"with N 0-based (field names default to arg0, arg1, ...) and TYPE int, u64,\n"
"str (NUL-terminated, up to 256 bytes) or lstr (length in argument N+1).\n"
"python, hotspot, hotspot_jni and postgresql probes are typed and named from\n"
"a built-in table.  Each probe becomes a self-describing event: provider =\n"
"the USDT provider, event = the probe name.  Probes in libraries the target\n"
"maps later are attached within a second (--lib PATH: from the start).\n"
"--usdt-children also traces the targets' descendants (forked later too),\n"
"--all-processes every process that runs the same files.\n"
"\n"
"KERNEL EVENTS: --kernel LIST (sched, syscalls, proc, all, none) adds\n"
"context switches, wake-ups and off-CPU intervals with their blocking stacks\n"
"(provider Linux-Kernel-Sched), syscalls with durations (Linux-Kernel-\n"
"Syscalls), fork/exec/exit (Linux-Kernel-Process).  --cpu-sampling[=HZ]\n"
"(default 999 Hz) samples on-CPU stacks (kernel + user) into SampleProfiler\n"
"thread samples, as EventPipe writes them.  Both cover the targets and the\n"
"processes they fork, or every process with --all-processes.  Profiles:\n"
"cpu-sampling = default + --cpu-sampling + proc; contention adds sched.\n"
"\n"
"PROFILES (--profile; combine with --providers; \"default\" when neither):\n";

static const char doc_tail[] =
"\n"
"ALWAYS ON: --flight-recorder 30s keeps the last 30 s in memory; kill -USR1\n"
"and --dump-on PRED write it to FILE's name with .dump-1, .dump-2, ...\n"
"(--keep-dumps N), the end with .1, .2, ... (so does --rotate 10m|1GB,\n"
"--keep N).  A dump that cannot be written is removed; the run exits 1.\n"
"PRED: EVENT, EVENT:FIELD OP VALUE (OP == != < <= > >=, e.g.\n"
"GCEnd_V1:Depth>=2) or GCPause>50ms; --stop-on PRED ends the trace there,\n"
"--filter PRED drops non-matching events (in the kernel when it can).\n"
"--all traces every runtime of the host into one V6 file.\n"
"EXIT STATUS: 0 ok, 1 runtime failure, 2 no such process, 3 no (matching)\n"
"runtime probes and no .NET diagnostics socket in the target, 4 missing\n"
"privileges, 5 kernel lacks BTF or BPF ring buffers, 6 cannot create the\n"
"output file, 7 an EventPipe stream ended mid-trace (file kept), 64 usage.\n"
"\n"
"OPTIONS:";

/* strict number parsing: the whole string, in range */
static int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *sfx; uint64_t mul; } units[] = {
		{ "", 1000000000ULL }, { "s", 1000000000ULL }, { "ms", 1000000ULL },
		{ "m", 60000000000ULL }, { "h", 3600000000000ULL },
	};
	unsigned long long v;
	unsigned int i;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].sfx)) {
			if (!v || v > UINT64_MAX / units[i].mul)
				return -EINVAL;
			*ns = v * units[i].mul;
			return 0;
		}
	}
	return -EINVAL;
}

/* The machine's memory in bytes (the bound of what can be held in it). */
static uint64_t phys_mem_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (uint64_t)pages * size : UINT64_MAX;
}

/* --rotate, --flight-recorder (LIMIT[,LIMIT]: a time and/or a size), --keep */
static void parse_series_opt(int key, char *arg, struct argp_state *state)
{
	char buf[64], *tok, *save = NULL;
	unsigned long v;
	uint64_t val;
	int kind;

	if (key == OPT_KEEP || key == OPT_KEEP_DUMPS) {
		if (parse_ulong(arg, 1, 1000000, &v))
			argp_error(state, "invalid %s '%s' (a number of files, 1 or more)",
				   key == OPT_KEEP ? "--keep" : "--keep-dumps", arg);
		*(key == OPT_KEEP ? &env.keep : &env.keep_dumps) = v;
		return;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		kind = series__parse_limit(tok, &val);
		if (!kind)
			argp_error(state, "invalid %s '%s' (a time: 30s, 10m, 1h; or a size: "
				   "256MB, 1GB)", key == OPT_ROTATE ? "--rotate" :
				   "--flight-recorder", tok);
		if (key == OPT_FLIGHT && kind == 'b' && val > phys_mem_bytes())
			argp_error(state, "invalid --flight-recorder '%s' (the window is held in "
				   "memory: at most this machine's %llu MB)", tok,
				   (unsigned long long)(phys_mem_bytes() >> 20));
		if (key == OPT_ROTATE)
			*(kind == 't' ? &env.rotate_ns : &env.rotate_bytes) = val;
		else
			*(kind == 't' ? &env.fr_ns : &env.fr_bytes) = val;
	}
	if (key == OPT_FLIGHT)
		env.flight = true;
}

/* --metrics, --clickhouse and their labels and limits */
static void parse_fleet_opt(int key, char *arg, struct argp_state *state)
{
	uint64_t v;

	switch (key) {
	case OPT_METRICS:
		if (!strchr(arg, ':'))
			argp_error(state, "invalid --metrics '%s' (ADDR:PORT, e.g. 127.0.0.1:9464)",
				   arg);
		env.metrics_addr = arg;
		break;
	case OPT_CLICKHOUSE: {
		struct ch_url u;
		char why[300];

		if (ch_url__parse(arg, &u, why, sizeof(why)))
			argp_error(state, "--clickhouse: %s", why);
		env.clickhouse = arg;
		break;
	}
	case OPT_HOST:
		env.host_label = arg;
		break;
	case OPT_SERVICE:
		env.attrib.service = arg;
		break;
	case OPT_SERVICE_FROM:
		if (attrib_opts__parse(arg, &env.attrib))
			argp_error(state, "invalid --service-from '%s' (cgroup, comm or env:NAME)",
				   arg);
		break;
	case OPT_METRICS_PID:
		env.metrics_pid = true;
		break;
	case OPT_EXPORT_INTERVAL:
		if (parse_duration(arg, &env.export_ns))
			argp_error(state, "invalid --export-interval '%s' (e.g. 10s, 1m)", arg);
		break;
	case OPT_SPOOL:
		env.spool_dir = arg;
		break;
	case OPT_SPOOL_MAX:
		if (series__parse_limit(arg, &v) != 'b')
			argp_error(state, "invalid --spool-max '%s' (a size: 64MB, 1GB)", arg);
		env.spool_max = v;
		break;
	}
}

/* --pid-filter PID,PID,... */
static void parse_pid_filter(char *arg, struct argp_state *state)
{
	char *tok, *save = NULL;
	unsigned long v;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_ulong(tok, 1, INT_MAX, &v))
			argp_error(state, "invalid --pid-filter PID '%s'", tok);
		if (env.nr_pid_filter >= MAX_PIDS)
			argp_error(state, "too many --pid-filter PIDs (max %d)", MAX_PIDS);
		env.pid_filter[env.nr_pid_filter++] = v;
	}
}

/* --dump-on, --stop-on, --filter: checked against the event table later */
static void parse_trigger_opt(int key, char *arg, struct argp_state *state)
{
	const char **list = key == OPT_DUMP_ON ? env.dump_on : key == OPT_STOP_ON ?
			    env.stop_on : env.filter;
	int *n = key == OPT_DUMP_ON ? &env.nr_dump_on : key == OPT_STOP_ON ?
		 &env.nr_stop_on : &env.nr_filter;

	if (*n >= MAX_TRIGGERS)
		argp_error(state, "too many --%s (max %d)", key == OPT_DUMP_ON ? "dump-on" :
			   key == OPT_STOP_ON ? "stop-on" : "filter", MAX_TRIGGERS);
	list[(*n)++] = arg;
	if (key == OPT_DUMP_ON)
		env.flight = true;
}

/* --all, flight recorder, triggers and rotation options with a value */
static error_t parse_always_on(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case OPT_ROTATE:
	case OPT_FLIGHT:
	case OPT_KEEP:
	case OPT_KEEP_DUMPS:
		parse_series_opt(key, arg, state);
		break;
	case OPT_DUMP_ON:
	case OPT_STOP_ON:
	case OPT_FILTER:
		parse_trigger_opt(key, arg, state);
		break;
	case OPT_COMM:
		if (env.nr_comm >= 16)
			argp_error(state, "too many --comm (max 16)");
		env.comm[env.nr_comm++] = arg;
		break;
	case OPT_CGROUP:
		if (env.nr_cgroup >= 16)
			argp_error(state, "too many --cgroup (max 16)");
		env.cgroup[env.nr_cgroup++] = arg;
		break;
	case OPT_CONTAINER:
		if (env.nr_container >= 16)
			argp_error(state, "too many --container (max 16)");
		if (!*arg || strspn(arg, "0123456789abcdef") != strlen(arg) || strlen(arg) > 64)
			argp_error(state, "invalid --container '%s' (the id's hex digits, or "
				   "their start)", arg);
		env.container[env.nr_container++] = arg;
		break;
	case OPT_PID_FILTER:
		parse_pid_filter(arg, state);
		break;
	case OPT_FORMAT:
		if (strcmp(arg, "v5") && strcmp(arg, "v6") && strcmp(arg, "5") && strcmp(arg, "6"))
			argp_error(state, "invalid --format '%s' (v5 or v6)", arg);
		env.format = arg[strlen(arg) - 1] - '0';
		break;
	case OPT_SPLIT:
		env.split_dir = arg;
		break;
	case OPT_METRICS:
	case OPT_CLICKHOUSE:
	case OPT_HOST:
	case OPT_SERVICE:
	case OPT_SERVICE_FROM:
	case OPT_METRICS_PID:
	case OPT_EXPORT_INTERVAL:
	case OPT_SPOOL:
	case OPT_SPOOL_MAX:
		parse_fleet_opt(key, arg, state);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* --usdt: checked here, parsed again in main. */
static void add_usdt(char *arg, struct argp_state *state)
{
	struct ug_spec sp;
	char err[256];

	if (env.nr_usdt >= 32)
		argp_error(state, "too many --usdt (max 32)");
	if (ug_spec__parse(arg, &sp, err, sizeof(err)))
		argp_error(state, "--usdt %s", err);
	ug_spec__free(&sp);
	env.usdt[env.nr_usdt++] = arg;
}

/* One --providers value: usage errors for too many and for one that names
 * no provider (',,,', ''), which would otherwise select nothing (exit 3). */
static void add_providers(struct argp_state *state, char *arg)
{
	if (env.nr_providers >= SEL_MAX_REQ)
		argp_error(state, "too many --providers");
	if (!arg[strspn(arg, ", \t")])
		argp_error(state, "--providers '%s' names no provider "
			   "(PROVIDER[:KEYWORDS[:LEVEL]][,...])", arg);
	env.providers[env.nr_providers++] = arg;
}

/* Options with a value to check. */
static error_t parse_value(int key, char *arg, struct argp_state *state)
{
	unsigned long v;

	switch (key) {
	case 'p':
		if (parse_ulong(arg, 1, INT_MAX, &v))
			argp_error(state, "invalid PID '%s' (a positive process id; 0 is not allowed)",
				   arg);
		if (env.nr_pids >= MAX_PIDS)
			argp_error(state, "too many -p (max %d)", MAX_PIDS);
		env.pids[env.nr_pids++] = v;
		break;
	case 'o':
		env.output = arg;
		break;
	case OPT_PROVIDERS:
		add_providers(state, arg);
		break;
	case OPT_PROFILE:
		if (env.nr_profiles >= 16)
			argp_error(state, "too many --profile");
		env.profiles[env.nr_profiles++] = arg;
		break;
	case 'd':
		if (parse_duration(arg, &env.duration_ns))
			argp_error(state, "invalid duration '%s' (e.g. 30, 500ms, 10s, 2m, 1h)", arg);
		break;
	case 'b':
		if (parse_ulong(arg, 1, 4096, &v) || (v & (v - 1)))
			argp_error(state, "invalid --buffer-size '%s' (MiB, a power of two, 1..4096)",
				   arg);
		env.buffer_mb = v;
		env.buffer_set = true;
		break;
	case OPT_LIB:
		if (env.nr_libs >= 16)
			argp_error(state, "too many --lib");
		if (access(arg, R_OK))
			argp_error(state, "--lib %s: %s", arg, strerror(errno));
		env.libs[env.nr_libs++] = arg;
		break;
	case OPT_USDT:
		add_usdt(arg, state);
		break;
	case OPT_KERNEL: {
		char err[160];

		if (kernel_events__parse_groups(arg, &env.kernel_groups, err, sizeof(err)))
			argp_error(state, "--kernel: %s", err);
		env.kernel_set = true;
		break;
	}
	case OPT_CPU_SAMPLING:
		if (kernel_events__parse_hz(arg, &env.sample_hz))
			argp_error(state, "invalid --cpu-sampling rate '%s' (Hz, 1-%d)", arg,
				   KE_MAX_HZ);
		env.sampling_set = true;
		break;
	case OPT_CALL_GRAPH:
		if (strcmp(arg, "fp") && strcmp(arg, "dwarf") && strcmp(arg, "eh"))
			argp_error(state, "invalid --call-graph '%s' (fp, dwarf or eh)", arg);
		env.call_graph_dwarf = !strcmp(arg, "dwarf");
		env.call_graph_eh = !strcmp(arg, "eh");
		env.call_graph_set = true;
		break;
	case OPT_SAMPLE_EVENTS:
		if (kernel_events__parse_sample_events(arg, &env.sample_events))
			argp_error(state, "invalid --sample-events '%s' (sampleprofiler, universal "
				   "or both)", arg);
		break;
	case OPT_STACK_SIZE: {
		unsigned long v;
		char *end;

		errno = 0;
		v = strtoul(arg, &end, 10);
		if (*arg < '0' || *arg > '9' || errno || *end || v < 8 || v > KE_USTACK_COPY_MAX ||
		    v % 8)
			argp_error(state, "invalid --stack-size '%s' (bytes, a multiple of 8, 8-%d)",
				   arg, KE_USTACK_COPY_MAX);
		env.stack_size = v;
		break;
	}
	case OPT_MANIFEST:
		env.manifest = arg;
		break;
	case ARGP_KEY_ARG:
		if (!env.list || env.list_path)
			argp_error(state, "unexpected argument '%s' (a command goes after --)", arg);
		env.list_path = arg;
		break;
	default:
		return parse_always_on(key, arg, state);
	}
	return 0;
}

int cli_arg_index;

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	/* options only: argp's own keys (ARGP_KEY_END...) come after them */
	cli_arg_index = key > 0 && key < ARGP_KEY_END ? state->next - 1 : 0;
	switch (key) {
	case OPT_KSTACK:
		env.kstack = true;
		break;
	case OPT_BATCHED:
		env.batched = BATCH_ALL;
		break;
	case OPT_NO_BATCHED:
		env.batched = BATCH_OFF;
		break;
	case OPT_NO_USTACK:
		env.no_ustack = true;
		break;
	case OPT_STACK_HELPER:
		env.stack_helper = true;
		break;
	case OPT_TPSHIM:
		env.tpshim = true;
		break;
	case OPT_USDT_CHILDREN:
		env.usdt_children = true;
		break;
	case OPT_ALL:
		env.all = true;
		break;
	case OPT_DOTNET_PORT:
		env.dotnet_port = arg;
		break;
	case OPT_ALL_PROCESSES:
		env.all_processes = true;
		break;
	case 'l':
		env.list = true;
		break;
	case 'q':
		env.quiet = true;
		break;
	case OPT_NO_SYMBOLS:
		env.no_symbols = true;
		break;
	case OPT_SYMBOLS: {
		char why[512];

		if (symbol_store__configure(arg, why, sizeof(why)))
			argp_error(state, "%s", why);
		break;
	}
	case OPT_COUNT_ONLY:
		env.count_only = true;
		break;
	case 'v':
		env.verbose++;
		break;
	case 'h':
		argp_state_help(state, stderr, ARGP_HELP_STD_HELP);
		break;
	default:
		return parse_value(key, arg, state);
	}
	return 0;
}

static char *help_filter(int key, const char *text, void *input)
{
	char *s;

	(void)input;
	if (key != ARGP_KEY_HELP_PRE_DOC)
		return (char *)text;
	if (asprintf(&s, "%s%s%s", doc_head, selection__profiles_help(), doc_tail) < 0)
		return (char *)text;
	return s;
}

static int parse_cmdline(int argc, char **argv)
{
	const struct argp argp = {
		.options = collect_opts__argp(), .parser = parse_arg, .doc = "x",
		.help_filter = help_filter,
	};
	int i, err;

	/* Everything after "--" is the command: split before argp sees it. */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			argv[i] = NULL;
			if (i + 1 < argc)
				env.cmd = &argv[i + 1];
			argc = i;
			break;
		}
	}
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return err;
	cli_arg_index = 0;	/* the checks below are of the options together */
	log_set_level(env.verbose >= 2 ? LOG_DEBUG2 : env.verbose ? LOG_DEBUG :
		      env.quiet ? LOG_WARN : LOG_INFO);
	if (env.list) {
		if (!env.nr_pids == !env.list_path || env.nr_pids > 1 || env.cmd) {
			pr_warn("-l needs exactly one of -p PID or BINARY\n");
			return -EINVAL;
		}
		return 0;
	}
	if (env.all && (env.nr_pids || env.cmd)) {
		pr_warn("--all traces every process: use --pid-filter or --comm to narrow it, "
			"not -p or -- CMD\n");
		return -EINVAL;
	}
	if ((env.nr_comm || env.nr_cgroup || env.nr_container || env.nr_pid_filter) && !env.all) {
		pr_warn("--comm, --cgroup, --container and --pid-filter narrow --all\n");
		return -EINVAL;
	}
	if (env.dotnet_port && !env.all) {
		pr_warn("--dotnet-port is for --all (-- dotnet CMD is traced from its start "
			"anyway)\n");
		return -EINVAL;
	}
	if (!env.format)
		env.format = env.all ? 6 : 5;
	if (env.split_dir && env.flight) {
		pr_warn("--split-by-process splits the trace at its end; with --flight-recorder "
			"split a dump with 'ebpf-collect split FILE DIR'\n");
		return -EINVAL;
	}
	if (env.all) {	/* host-wide kernel events; exec events find new processes */
		env.all_processes = true;
		env.kernel_groups |= KE_GROUP_PROC;	/* profiles add theirs */
	}
	if (!env.nr_pids && !env.cmd && !env.all) {
		pr_warn("-p PID, -- CMD or --all is required "
			"(try 'ebpf-collect --help')\n");
		return -EINVAL;
	}
	if (env.nr_pids && env.cmd) {
		pr_warn("use either -p PID or -- CMD, not both\n");
		return -EINVAL;
	}
	if (env.tpshim && !env.cmd) {
		pr_warn("--tracepoint-shim starts -- CMD ready for the shim (a -p process "
			"started with it is traced through it anyway)\n");
		return -EINVAL;
	}
	if (env.flight && env.rotate_bytes) {
		pr_warn("--flight-recorder with --rotate writes its records every interval: "
			"--rotate takes a time there (10m), not a size\n");
		return -EINVAL;
	}
	if (env.flight && !env.fr_ns && !env.fr_bytes)
		env.fr_ns = DEFAULT_FLIGHT_NS;
	if (env.stack_size && !env.call_graph_dwarf) {
		pr_warn("--stack-size is the stack copy of --call-graph dwarf\n");
		return -EINVAL;
	}
	return 0;
}

int collect_main(int argc, char **argv)
{
	if (parse_cmdline(argc, argv))
		return EXIT_USAGE;
	return session__main();
}

int collect_check(int argc, char **argv)
{
	if (parse_cmdline(argc, argv))
		return EXIT_USAGE;
	return session__check();
}
