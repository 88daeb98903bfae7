// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ebpf-collect.c - `ebpf-collect -p PID`: trace a runtime's USDT events into
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
#include "collector_event.h"
#include "commands.h"
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

_Static_assert(sizeof(struct ce_header) == 24, "ce_header layout (bpf/collector_event.h)");
_Static_assert(sizeof(struct ce_clr_event) == 88, "ce_clr_event layout (bpf/collector_event.h)");
_Static_assert(sizeof(struct ce_counters) == 12 * 8, "ce_counters layout");


#define MAX_PIDS		64
#define LOSS_CAPTURE_THREAD	0	/* tid 0 is never a user thread */
#define DEFAULT_BUFFER_MB	32
#define REORDER_WINDOW_NS	(30 * 1000000ULL)
/* The runtime sends EventPipe events in blocks, up to ~100 ms after they
 * happened (its flush period): the reorder buffer holds records longer
 * while a session runs, so both sides still merge in time order. */
#define EP_REORDER_WINDOW_NS	(1500 * 1000000ULL)
#define TICK_NS			(500 * 1000000ULL)
#define RESCAN_NS		(1000 * 1000000ULL)
/* Whole blocks reach the file as they fill (~100 KiB); at low event rates
 * that could take minutes, so flush at least this often: a collector killed
 * with SIGKILL then loses at most the last second of events. */
#define FLUSH_NS		(1000ULL * 1000 * 1000)

static struct env {
	pid_t pids[MAX_PIDS];
	int nr_pids;
	const char *output;
	const char *providers[SEL_MAX_REQ];
	int nr_providers;
	const char *profiles[16];
	int nr_profiles;
	const char *libs[16];
	int nr_libs;
	uint64_t duration_ns;
	unsigned long buffer_mb;
	int verbose;
	bool list;
	const char *list_path;
	bool kstack;
	bool no_ustack;
	bool stack_helper;
	bool quiet;
	bool no_symbols;
	char **cmd;
	const char *usdt[32];	/* --usdt */
	int nr_usdt;
	bool usdt_children;
	unsigned int kernel_groups;	/* --kernel: KE_GROUP_* */
	unsigned int sample_hz;		/* --cpu-sampling; 0 = off */
	bool kernel_set, sampling_set;	/* given explicitly: profiles do not change them */
	bool all_processes;		/* --all-processes */
	const char *manifest;		/* --manifest: the runtime's own event table */
	char *ep_extra[SEL_MAX_REQ];	/* --providers entries only EventPipe knows */
	int nr_ep_extra;
} env = {
	.output = "trace.nettrace",
	.buffer_mb = DEFAULT_BUFFER_MB,
};

static volatile sig_atomic_t exiting;

#define pr_warn(fmt, ...) fprintf(stderr, "ebpf-collect: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) do { if (!env.quiet) fprintf(stderr, "ebpf-collect: " fmt, ##__VA_ARGS__); } while (0)
#define pr_debug(fmt, ...) do { if (env.verbose) fprintf(stderr, "ebpf-collect: " fmt, ##__VA_ARGS__); } while (0)

/* ------------------------------------------------------------------ CLI */

const char *argp_program_version = "ebpf-collect 0.1";
const char *argp_program_bug_address = "<https://github.com/ebpf-collect/ebpf-collect/issues>";

static const char doc_head[] =
"Trace a .NET runtime's events through its USDT probes into a .nettrace file.\n"
"\n"
"USAGE: ebpf-collect -p PID [-p PID ...] [-o FILE] [--providers SPEC]\n"
"         [--profile NAME] [--duration D] [--buffer-size MB] [-v] [-- CMD ARGS]\n"
"         [--usdt PROVIDER[:PROBE-GLOB][:ARGSPEC]]... [--manifest FILE]\n"
"       ebpf-collect -l (-p PID | BINARY)\n"
"       ebpf-collect dump FILE [--json]\n"
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
"EXIT STATUS: 0 ok, 1 runtime failure, 2 no such process, 3 no (matching)\n"
"runtime probes and no .NET diagnostics socket in the target, 4 missing\n"
"privileges, 5 kernel lacks BTF or BPF ring buffers, 6 cannot create the\n"
"output file, 7 an EventPipe stream ended mid-trace (file kept), 64 usage.\n"
"\n"
"OPTIONS:";

enum {
	OPT_PROVIDERS = 0x100,
	OPT_PROFILE,
	OPT_KSTACK,
	OPT_NO_USTACK,
	OPT_STACK_HELPER,
	OPT_LIB,
	OPT_USDT,
	OPT_NO_SYMBOLS,
	OPT_USDT_CHILDREN,
	OPT_KERNEL,
	OPT_CPU_SAMPLING,
	OPT_ALL_PROCESSES,
	OPT_MANIFEST,
};

static const struct argp_option opts[] = {
	{ "pid", 'p', "PID", 0, "Trace this process (repeatable)", 0 },
	{ "output", 'o', "FILE", 0, "Output file (default trace.nettrace; overwritten)", 0 },
	{ "providers", OPT_PROVIDERS, "SPEC", 0, "Providers, keywords and levels (see above)", 0 },
	{ "profile", OPT_PROFILE, "NAME", 0, "Named provider set (see above)", 0 },
	{ "duration", 'd', "D", 0, "Stop after D (e.g. 30, 500ms, 10s, 2m, 1h)", 0 },
	{ "buffer-size", 'b', "MB", 0, "Ring buffer size in MiB, power of two (default 32)", 0 },
	{ "lib", OPT_LIB, "PATH", 0,
	  "Also attach the probes of this ELF file, mapped now or later (repeatable)", 0 },
	{ "kernel-stack", OPT_KSTACK, NULL, 0,
	  "Also capture kernel stacks (empty for USDT events, which fire in user mode)", 0 },
	{ "no-user-stack", OPT_NO_USTACK, NULL, 0, "Do not capture user stacks", 0 },
	{ "stack-helper", OPT_STACK_HELPER, NULL, 0,
	  "User stacks with bpf_get_stack() instead of the BPF frame-pointer walk", 0 },
	{ "usdt", OPT_USDT, "SPEC", 0,
	  "Also trace any USDT provider: PROVIDER[:PROBE-GLOB][:ARGSPEC] (repeatable)", 0 },
	{ "usdt-children", OPT_USDT_CHILDREN, NULL, 0,
	  "--usdt probes also in the targets' descendants (forking servers: PostgreSQL); "
	  "attaches them for every process running the same files", 0 },
	{ "kernel", OPT_KERNEL, "LIST", 0,
	  "Kernel events: sched,syscalls,proc (or all, none); see above", 0 },
	{ "cpu-sampling", OPT_CPU_SAMPLING, "HZ", OPTION_ARG_OPTIONAL,
	  "Sample CPU stacks at HZ (default 999; 1-10000)", 0 },
	{ "all-processes", OPT_ALL_PROCESSES, NULL, 0,
	  "Kernel events, samples and --usdt probes of every process, not just the targets",
	  0 },
	{ "manifest", OPT_MANIFEST, "FILE", 0,
	  "Event table from this ETW manifest instead of the built-in one (see above)", 0 },
	{ "list", 'l', NULL, 0, "List the USDT probes of -p PID or of BINARY", 0 },
	{ "no-symbols", OPT_NO_SYMBOLS, NULL, 0,
	  "Do not write method/module events naming the stack frames", 0 },
	{ "quiet", 'q', NULL, 0, "No progress or summary on stderr", 0 },
	{ "verbose", 'v', NULL, 0, "More diagnostics (repeat for libbpf debug)", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show the full help", 0 },
	{},
};

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

static error_t parse_arg(int key, char *arg, struct argp_state *state)
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
		if (env.nr_providers >= SEL_MAX_REQ)
			argp_error(state, "too many --providers");
		env.providers[env.nr_providers++] = arg;
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
		break;
	case OPT_KSTACK:
		env.kstack = true;
		break;
	case OPT_NO_USTACK:
		env.no_ustack = true;
		break;
	case OPT_STACK_HELPER:
		env.stack_helper = true;
		break;
	case OPT_LIB:
		if (env.nr_libs >= 16)
			argp_error(state, "too many --lib");
		if (access(arg, R_OK))
			argp_error(state, "--lib %s: %s", arg, strerror(errno));
		env.libs[env.nr_libs++] = arg;
		break;
	case OPT_USDT: {	/* checked here, parsed again in main */
		struct ug_spec sp;
		char err[256];

		if (env.nr_usdt >= 32)
			argp_error(state, "too many --usdt (max 32)");
		if (ug_spec__parse(arg, &sp, err, sizeof(err)))
			argp_error(state, "--usdt %s", err);
		ug_spec__free(&sp);
		env.usdt[env.nr_usdt++] = arg;
		break;
	}
	case OPT_USDT_CHILDREN:
		env.usdt_children = true;
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
	case OPT_ALL_PROCESSES:
		env.all_processes = true;
		break;
	case OPT_MANIFEST:
		env.manifest = arg;
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
	case 'v':
		env.verbose++;
		break;
	case 'h':
		argp_state_help(state, stderr, ARGP_HELP_STD_HELP);
		break;
	case ARGP_KEY_ARG:
		if (!env.list || env.list_path)
			argp_error(state, "unexpected argument '%s' (a command goes after --)", arg);
		env.list_path = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
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
	static const struct argp argp = {
		.options = opts, .parser = parse_arg, .doc = "x", .help_filter = help_filter,
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
	if (env.list) {
		if (!env.nr_pids == !env.list_path || env.nr_pids > 1 || env.cmd) {
			fprintf(stderr, "ebpf-collect: -l needs exactly one of -p PID or BINARY\n");
			return -EINVAL;
		}
		return 0;
	}
	if (!env.nr_pids && !env.cmd) {
		fprintf(stderr, "ebpf-collect: -p PID or -- CMD is required "
			"(try 'ebpf-collect --help')\n");
		return -EINVAL;
	}
	if (env.nr_pids && env.cmd) {
		fprintf(stderr, "ebpf-collect: use either -p PID or -- CMD, not both\n");
		return -EINVAL;
	}
	return 0;
}

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG && env.verbose < 2)
		return 0;
	if (level == LIBBPF_INFO && !env.verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

/* ------------------------------------------------------------------ checks */

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int has_cap(const struct __user_cap_data_struct *d, int cap)
{
	return !!(d[cap / 32].effective & (1U << (cap % 32)));
}

/* CAP_SYS_ADMIN, or CAP_BPF + CAP_PERFMON (5.8+).  0 or -EPERM with a message. */
static int check_privileges(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = {};
	char missing[128] = "";

	if (syscall(SYS_capget, &hdr, d)) {
		pr_warn("cannot read capabilities: %s\n", strerror(errno));
		return -EPERM;
	}
	if (has_cap(d, CAP_SYS_ADMIN) || (has_cap(d, CAP_BPF) && has_cap(d, CAP_PERFMON)))
		return 0;
	if (!has_cap(d, CAP_BPF))
		strcat(missing, "CAP_BPF, ");
	if (!has_cap(d, CAP_PERFMON))
		strcat(missing, "CAP_PERFMON, ");
	missing[strlen(missing) - 2] = 0;
	pr_warn("missing capabilities %s (or CAP_SYS_ADMIN): run as root, or grant "
		"CAP_BPF,CAP_PERFMON,CAP_SYS_PTRACE,CAP_DAC_READ_SEARCH\n", missing);
	return -EPERM;
}

static int check_kernel(void)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		pr_warn("kernel has no BTF (/sys/kernel/btf/vmlinux missing): "
			"needs CONFIG_DEBUG_INFO_BTF=y\n");
		return -EOPNOTSUPP;
	}
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) <= 0) {
		pr_warn("kernel has no BPF ring buffers (BPF_MAP_TYPE_RINGBUF, Linux 5.8+)\n");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Tgid of a pid or thread id from /proc/PID/status; 0 if unreadable. */
static pid_t read_tgid(pid_t pid)
{
	char fn[64], line[128];
	pid_t tgid = 0;
	FILE *f;

	snprintf(fn, sizeof(fn), "/proc/%d/status", pid);
	f = fopen(fn, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* Every -p must exist; a thread id is replaced by its process id. */
static int check_pids(void)
{
	pid_t tgid;
	int i;

	for (i = 0; i < env.nr_pids; i++) {
		tgid = read_tgid(env.pids[i]);
		if ((kill(env.pids[i], 0) && errno == ESRCH) || !tgid) {
			pr_warn("no such process: %d\n", env.pids[i]);
			return -ESRCH;
		}
		if (tgid != env.pids[i]) {
			pr_info("%d is a thread of process %d: tracing the process\n",
				env.pids[i], tgid);
			env.pids[i] = tgid;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ -l */

static void print_notes(const char *file, const struct usdt_note_list *l)
{
	char fields[512];	/* --usdt's built-in table */
	size_t i;

	for (i = 0; i < l->n; i++) {
		const char *f = ug_describe(l->v[i].provider, l->v[i].name, fields,
					    sizeof(fields));

		printf("%-20s %-36s 0x%-10llx 0x%-10llx %s  %s%s%s%s\n", l->v[i].provider,
		       l->v[i].name, (unsigned long long)l->v[i].pc,
		       (unsigned long long)l->v[i].semaphore, file, l->v[i].args,
		       f ? "  {" : "", f ? f : "", f ? "}" : "");
	}
}

/* Probes of the runtime's own providers (DotNETRuntime...) */
static size_t count_ours(const struct usdt_note_list *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		n += ect_find_provider(&clretw_event_table, l->v[i].provider) != NULL;
	return n;
}

static int list_probes(void)
{
	struct mapped_file_list files = {};
	struct usdt_note_list notes;
	size_t i, total = 0, ours = 0;
	int err, dotnet;

	printf("%-20s %-36s %-12s %-12s %s  %s\n", "PROVIDER", "NAME", "ADDRESS", "SEMAPHORE",
	       "FILE", "ARGS");
	if (env.list_path) {
		err = usdt_notes__load(env.list_path, &notes);
		if (err) {
			pr_warn("cannot read ELF notes of %s: %s\n", env.list_path, strerror(-err));
			return err == -ENOENT || err == -ENOEXEC ? EXIT_USAGE : EXIT_FAIL;
		}
		print_notes(env.list_path, &notes);
		total = notes.n;
		usdt_notes__free(&notes);
		return total ? EXIT_OK : EXIT_NO_PROBES;
	}
	dotnet = eventpipe__describe(env.pids[0], stdout);	/* stock .NET */
	if (dotnet == -EACCES || dotnet == -EPERM)
		return EXIT_NO_PRIV;
	err = proc_mapped_files(env.pids[0], &files);
	if (err) {
		if (err == -ESRCH)
			pr_warn("no such process: %d\n", env.pids[0]);
		else
			pr_warn("cannot read /proc/%d/maps: %s\n", env.pids[0], strerror(-err));
		return err == -ESRCH ? EXIT_NO_PROCESS : EXIT_FAIL;
	}
	for (i = 0; i < files.n; i++) {
		if (usdt_notes__load(files.v[i].open_path, &notes))
			continue;
		print_notes(files.v[i].path, &notes);
		total += notes.n;
		ours += count_ours(&notes);
		usdt_notes__free(&notes);
	}
	mapped_file_list__free(&files);
	if (ours)
		printf("pid %d: USDT provider (%zu runtime probes)\n", env.pids[0], ours);
	else if (dotnet == 1)
		printf("pid %d: traced through EventPipe (no USDT provider)\n", env.pids[0]);
	return total || dotnet == 1 ? EXIT_OK : EXIT_NO_PROBES;
}

/* ------------------------------------------------------------------ collector */

struct attached_file {
	pid_t pid;
	dev_t dev;
	ino_t ino;
};

/* A traced file that defines a provider's pause word (tracer_pause.h). */
struct pause_site {
	pid_t pid;
	dev_t dev;
	ino_t ino;
	uint64_t off;		/* file offset of the word */
	uint64_t addr;		/* its address in pid while raised */
	bool raised;
};

struct collector {
	const struct ect_table *table;
	struct selection sel;
	struct clr_events *skel;
	struct ring_buffer *rb;
	struct nt_writer *w;
	struct reorder *ro;
	uint32_t *meta_ids;		/* per table index, 0 = not defined yet */
	uint64_t *ev_counts;		/* per table index */
	struct bpf_link **links;
	size_t nr_links, cap_links;
	struct attached_file *files;
	size_t nr_files, cap_files;
	char *searched;			/* files searched, for the no-probes error */
	size_t searched_len;
	int ours_found;			/* probes of our providers seen */
	int attach_failed;		/* selected probes libbpf could not attach */
	int ncpu;
	pid_t child;
	int child_status;
	bool child_exited;
	bool pid_alive[MAX_PIDS];
	uint64_t records, bad_records, oversize, first_ts, last_ts;
	uint64_t lost_noted;
	struct ce_counters totals;
	int fatal;			/* -errno from a callback */
	struct usdt_generic *ug;	/* --usdt, NULL without */
	struct ug_totals ug_totals;
	struct symbolize *sym;		/* NULL with --no-symbols */
	struct mmap_events *mm;		/* the targets' mappings as made; NULL without */
	struct kernel_events *ke;	/* NULL without kernel events */
	volatile bool sources_stopped;	/* set by stop_sources() when every probe is off */
	struct pause_site *pauses;	/* where to pause the runtime before detaching */
	size_t nr_pauses, cap_pauses;
	struct ep_targets ept;		/* stock .NET targets: EventPipe sessions */
	bool ep_candidate[MAX_PIDS];	/* no runtime USDT probes found */
};

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

static void sig_handler(int sig)
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

static int push_ptr(void **arr, size_t *n, size_t *cap, size_t elem, const void *v)
{
	void *p;

	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;

		p = realloc(*arr, c * elem);
		if (!p)
			return -ENOMEM;
		*arr = p;
		*cap = c;
	}
	memcpy((char *)*arr + *n * elem, v, elem);
	(*n)++;
	return 0;
}

static void note_searched(struct collector *c, const char *path)
{
	size_t n = strlen(path);
	char *s;

	if (c->searched_len > 4000)
		return;
	s = realloc(c->searched, c->searched_len + n + 3);
	if (!s)
		return;
	c->searched = s;
	memcpy(s + c->searched_len, c->searched_len ? ", " : "", c->searched_len ? 2 : 0);
	c->searched_len += c->searched_len ? 2 : 0;
	memcpy(s + c->searched_len, path, n + 1);
	c->searched_len += n;
}

static int seen_before(const struct usdt_note_list *l, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(l->v[j].name, l->v[i].name) &&
		    !strcmp(l->v[j].provider, l->v[i].provider))
			return 1;
	return 0;
}

static bool has_our_probes(const struct collector *c, const struct usdt_note_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (ect_find_provider(c->table, l->v[i].provider))
			return true;
	return false;
}

/*
 * Where pid's copy of open_path keeps its pause word, if it has one; and,
 * when pid already maps it, raise the word while the probes go in: the
 * kernel raises a probe's semaphore count before it writes the
 * breakpoint, and an event fired in between would be counted by the
 * runtime and seen by nobody.  Returns true if ps describes a pause word.
 */
static bool pause_for_attach(pid_t pid, const char *path, const char *open_path,
			     struct pause_site *ps)
{
	struct stat st;
	uint64_t off = 0;
	int err = tracer_pause__file_offset(open_path, &off);

	*ps = (struct pause_site){ .pid = pid, .off = off };
	if (!err && stat(open_path, &st))
		err = -errno;
	if (err) {
		pr_debug("pid %d: %s has no tracer pause word (%s): its first and last "
			 "events in the trace can be missed\n", pid, path, strerror(-err));
		return false;
	}
	ps->dev = st.st_dev;
	ps->ino = st.st_ino;
	/* not mapped yet (-- CMD before exec, --lib): no event can fire yet */
	err = tracer_pause__resolve(pid, ps->dev, ps->ino, ps->off, &ps->addr);
	if (!err)
		err = tracer_pause__add(pid, ps->addr, 1);
	ps->raised = !err;
	if (err && err != -ENOENT)
		pr_debug("pid %d: cannot pause the runtime while attaching (%s); its first "
			 "events can be missed\n", pid, strerror(-err));
	return true;
}

/* Lower the word pause_for_attach raised, and keep the site for the end. */
static void resume_after_attach(struct collector *c, struct pause_site *ps, int attached)
{
	if (ps->raised && tracer_pause__add(ps->pid, ps->addr, -1))
		pr_warn("pid %d: cannot lower the runtime's tracer pause word; it fires no "
			"events until it is 0 again\n", ps->pid);
	ps->raised = false;
	if (attached &&
	    push_ptr((void **)&c->pauses, &c->nr_pauses, &c->cap_pauses, sizeof(*ps), ps))
		pr_debug("pid %d: no memory to note a pause word\n", ps->pid);
}

/*
 * Attach every selected probe of one file for one pid.  Returns the number
 * of probes attached, or -errno on a failure that must stop the trace.
 */
static int attach_file(struct collector *c, pid_t pid, const char *path, const char *open_path)
{
	LIBBPF_OPTS(bpf_usdt_opts, uopts);
	struct usdt_note_list notes;
	int attached = 0, ours = 0, unknown = 0, err;
	struct pause_site ps;
	bool has_pause;
	size_t i;

	err = usdt_notes__load(open_path, &notes);
	if (err) {
		pr_debug("pid %d: skipping %s: %s\n", pid, path, strerror(-err));
		return 0;
	}
	has_pause = has_our_probes(c, &notes) && pause_for_attach(pid, path, open_path, &ps);
	for (i = 0; i < notes.n; i++) {
		const struct usdt_note *n = &notes.v[i];
		const struct ect_event *ev;
		struct bpf_link *link;

		if (!ect_find_provider(c->table, n->provider) || seen_before(&notes, i))
			continue;
		ours++;
		ev = ect_find_symbol(c->table, n->provider, n->name);
		if (!ev) {
			pr_debug("%s: probe %s:%s is not in the event table (%s)\n", path,
				 n->provider, n->name, c->table->manifest);
			unknown++;
			continue;
		}
		if (!selection__matches(&c->sel, ev))
			continue;
		uopts.usdt_cookie = ev - c->table->events;
		link = bpf_program__attach_usdt(c->skel->progs.clr_event, pid, open_path,
						n->provider, n->name, &uopts);
		if (!link) {
			err = -errno;
			if (err == -E2BIG)
				pr_warn("USDT spec limit reached (BPF_USDT_MAX_SPEC_CNT=4096) attaching "
					"%s:%s in %s (pid %d): %s; trace fewer probes or processes\n",
					n->provider, n->name, path, pid, strerror(-err));
			else
				pr_warn("cannot attach %s:%s in %s (pid %d): %s\n", n->provider,
					n->name, path, pid, strerror(-err));
			c->attach_failed++;
			continue;
		}
		err = push_ptr((void **)&c->links, &c->nr_links, &c->cap_links, sizeof(link),
			       &link);
		if (err) {
			bpf_link__destroy(link);
			break;
		}
		attached++;
	}
	usdt_notes__free(&notes);
	if (has_pause)
		resume_after_attach(c, &ps, attached);
	c->ours_found += ours;
	if (ours)
		pr_info("pid %d: attached %d of %d runtime probes in %s\n", pid, attached, ours,
			path);
	if (unknown)
		pr_warn("%s: %d runtime probes are not in the event table of %s and are not "
			"traced%s\n", path, unknown, c->table->manifest,
			env.manifest ? "" : " (--manifest FILE reads the runtime's own manifest)");
	return err == -ENOMEM ? err : attached;
}

static bool file_attached(const struct collector *c, pid_t pid, dev_t dev, ino_t ino)
{
	size_t j;

	for (j = 0; j < c->nr_files; j++)
		if (c->files[j].pid == pid && c->files[j].dev == dev && c->files[j].ino == ino)
			return true;
	return false;
}

/* Attach a file given by path (the -- CMD executable, --lib), mapped yet or
 * not: the kernel installs the uprobes when the file gets mapped.  Returns
 * probes attached or -errno. */
static int attach_path(struct collector *c, pid_t pid, const char *path)
{
	struct attached_file af = { .pid = pid };
	struct stat st;

	if (stat(path, &st))
		return -errno;
	af.dev = st.st_dev;
	af.ino = st.st_ino;
	if (file_attached(c, pid, af.dev, af.ino))
		return 0;
	if (push_ptr((void **)&c->files, &c->nr_files, &c->cap_files, sizeof(af), &af))
		return -ENOMEM;
	note_searched(c, path);
	return attach_file(c, pid, path, path);
}

/* Attach to the files of pid not attached yet.  Returns probes attached or -errno. */
static int attach_pid(struct collector *c, pid_t pid, bool initial)
{
	struct mapped_file_list files;
	int total = 0, n, err;
	size_t i;

	err = proc_mapped_files(pid, &files);
	if (err)
		return err;
	for (i = 0; i < files.n; i++) {
		struct attached_file af = { pid, files.v[i].dev, files.v[i].ino };

		if (file_attached(c, pid, af.dev, af.ino))
			continue;
		if (push_ptr((void **)&c->files, &c->nr_files, &c->cap_files, sizeof(af), &af)) {
			err = -ENOMEM;
			break;
		}
		if (initial)
			note_searched(c, files.v[i].path);
		n = attach_file(c, pid, files.v[i].path, files.v[i].open_path);
		if (n < 0) {
			err = n;
			break;
		}
		total += n;
	}
	mapped_file_list__free(&files);
	return err ? err : total;
}

/* Every emitter ends here once its record is in the file. */
static int count_record(struct collector *c, uint64_t ts)
{
	c->records++;
	if (!c->first_ts)
		c->first_ts = ts;
	if (ts > c->last_ts)
		c->last_ts = ts;
	return 0;
}

static int emit_clr_event(struct collector *c, const void *data, size_t len)
{
	static uint64_t stack[2 * CE_MAX_STACK_DEPTH];
	const struct ce_clr_event *e = data;
	const uint64_t *frames = (const uint64_t *)(e + 1);
	struct nt_event ne = {};
	const struct ect_event *ev;
	uint32_t idx;
	int err;

	if (len < sizeof(*e) ||
	    len != sizeof(*e) + (e->ustack_depth + e->kstack_depth) * 8ULL + e->payload_len ||
	    CE_COOKIE_INDEX(e->cookie) >= c->table->n_events) {
		c->bad_records++;
		return 0;
	}
	idx = CE_COOKIE_INDEX(e->cookie);
	ev = &c->table->events[idx];
	if (e->flags & CE_F_PAYLOAD_TRUNCATED) {
		/* over CE_MAX_PAYLOAD: TraceEvent could not read it; a gap on its thread */
		c->oversize++;
		pr_debug("%s/%s of tid %u: %u-byte payload over the %u-byte limit, dropped\n",
			 ev->provider->usdt_name, ev->symbol, e->hdr.tid, e->payload_orig_len,
			 CE_MAX_PAYLOAD);
		return nt_writer__note_lost(c->w, e->hdr.tid, 1);
	}
	if (!c->meta_ids[idx]) {
		err = manifest_define_event(c->w, ev, &c->meta_ids[idx]);
		if (err) {
			pr_warn("cannot define %s/%s in %s: %s\n", ev->provider->name, ev->symbol,
				env.output, strerror(-err));
			return err;
		}
	}
	ne.metadata_id = c->meta_ids[idx];
	ne.timestamp = e->hdr.timestamp;
	ne.thread_id = e->hdr.tid;
	ne.capture_thread_id = e->hdr.tid;
	ne.processor = e->cpu;
	ne.activity_id = (e->flags & CE_F_HAS_ACTIVITY) ? e->activity_id : NULL;
	ne.related_activity_id = (e->flags & CE_F_HAS_RELATED) ? e->related_activity_id : NULL;
	ne.payload = (const uint8_t *)(frames + e->ustack_depth + e->kstack_depth);
	ne.payload_size = e->payload_len;
	if (e->kstack_depth) {
		/* leaf first: kernel frames, then user frames */
		memcpy(stack, frames + e->ustack_depth, e->kstack_depth * 8);
		memcpy(stack + e->kstack_depth, frames, e->ustack_depth * 8);
		ne.stack = stack;
	} else {
		ne.stack = e->ustack_depth ? frames : NULL;
	}
	ne.stack_depth = e->ustack_depth + e->kstack_depth;
	if (c->sym) {	/* before the event, it may write method events */
		err = symbolize__clr_event(c->sym, ev->provider->name, ev->id, e->hdr.pid,
					   e->hdr.tid, ne.timestamp, ne.payload, ne.payload_size,
					   ne.stack, ne.stack_depth);
		if (err) {
			pr_warn("cannot write to %s: %s\n", env.output, strerror(-err));
			return err;
		}
	}
	err = nt_writer__write_event(c->w, &ne);
	if (err) {
		pr_warn("cannot write to %s: %s\n", env.output, strerror(-err));
		return err;
	}
	c->ev_counts[idx]++;
	return count_record(c, e->hdr.timestamp);
}

/* --usdt: a record of bpf/usdt_generic.bpf.c */
static int emit_usdt_generic(struct collector *c, const struct ce_header *h, const void *data,
			     size_t len)
{
	uint64_t before;
	int err;

	if (!c->ug) {
		c->bad_records++;
		return 0;
	}
	before = usdt_generic__events(c->ug);
	err = usdt_generic__emit(c->ug, c->w, data, len);
	if (err) {
		pr_warn("cannot write to %s: %s\n", env.output, strerror(-err));
		return err;
	}
	if (usdt_generic__events(c->ug) == before)
		return 0;	/* malformed: counted by usdt_generic */
	return count_record(c, h->timestamp);
}

/* Kernel events: frames are named by the symbolize module. */
static int ke_stack(void *ctx, pid_t pid, uint64_t tid, uint64_t ts, const uint64_t *stack,
		    uint32_t depth)
{
	return symbolize__stack(ctx, pid, tid, ts, stack, depth);
}

/* Kernel events: a record of bpf/kernel_events.bpf.c */
static int emit_kernel(struct collector *c, const struct ce_header *h, const void *data,
		       size_t len)
{
	struct ke_sink sink = { .w = c->w };
	uint64_t before;
	int err;

	if (!c->ke) {
		c->bad_records++;
		return 0;
	}
	if (c->sym) {
		sink.sym = symbolize__symbolizer(c->sym);
		sink.stack_cb = ke_stack;
		sink.stack_ctx = c->sym;
	}
	before = kernel_events__written(c->ke);
	err = kernel_events__emit(c->ke, data, len, &sink);
	if (err) {
		pr_warn("cannot write to %s: %s\n", env.output, strerror(-err));
		return err;
	}
	if (kernel_events__written(c->ke) == before)
		return 0;	/* malformed: counted by kernel_events */
	return count_record(c, h->timestamp);
}

/* An event of an EventPipe session (stock .NET) */
static int emit_eventpipe(struct collector *c, const struct ce_header *h, const void *data,
			  size_t len)
{
	int err = ep_targets__emit(&c->ept, c->w, c->sym, data, len);

	if (err == -EINVAL) {
		c->bad_records++;
		return 0;
	}
	if (err) {
		pr_warn("cannot write to %s: %s\n", env.output, strerror(-err));
		return err;
	}
	return count_record(c, h->timestamp);
}

/*
 * Write one record, in timestamp order (called by the reorder buffer).
 * Record types other than CLR events (kernel events, generic USDT: issues
 * 7 and 8) get their own emit_* function here.
 */
static int emit_record(void *ctx, const void *data, size_t len)
{
	const struct ce_header *h = data;
	struct collector *c = ctx;

	switch (h->type) {
	case CE_REC_CLR_EVENT:
		return emit_clr_event(c, data, len);
	case CE_REC_USDT_GENERIC:
		return emit_usdt_generic(c, h, data, len);	/* --usdt */
	case CE_REC_KERNEL_FIRST ... CE_REC_KERNEL_LAST:
		return emit_kernel(c, h, data, len);
	case CE_REC_EVENTPIPE:
		return emit_eventpipe(c, h, data, len);
	default:
		c->bad_records++;
		return 0;
	}
}

/* Ring-buffer callback: validate the common header, hold for reordering. */
static int handle_record(void *ctx, void *data, size_t len)
{
	struct collector *c = ctx;
	const struct ce_header *h = data;
	int err;

	if (len < sizeof(*h) || h->size != len) {
		c->bad_records++;
		return 0;
	}
	err = reorder__push(c->ro, h->timestamp, data, len);
	if (err) {
		c->fatal = err;
		return err;
	}
	return 0;
}

static int read_counters(struct collector *c)
{
	struct ce_counters *per = calloc(c->ncpu, sizeof(*per));
	__u64 *dst = (__u64 *)&c->totals;
	__u32 zero = 0;
	int i, j, err;

	if (!per)
		return -ENOMEM;
	err = bpf_map__lookup_elem(c->skel->maps.counters, &zero, sizeof(zero), per,
				   c->ncpu * sizeof(*per), 0);
	if (!err) {
		memset(&c->totals, 0, sizeof(c->totals));
		for (i = 0; i < c->ncpu; i++) {
			const __u64 *src = (const __u64 *)&per[i];

			for (j = 0; j < (int)(sizeof(*per) / 8); j++)
				dst[j] += src[j];
		}
	}
	free(per);
	return err;
}

static uint64_t total_lost(const struct ce_counters *t)
{
	return t->rb_drops + t->payload_faults + t->nested_drops;
}

/* New losses since the last call become a sequence gap on the loss thread. */
static void note_losses(struct collector *c)
{
	uint64_t lost;

	if (read_counters(c))
		return;
	lost = total_lost(&c->totals);
	if (c->ug && !usdt_generic__read_counters(c->ug, &c->ug_totals))
		lost += usdt_generic__lost(&c->ug_totals);
	lost += kernel_events__lost(c->ke);
	while (lost > c->lost_noted) {
		uint64_t d = lost - c->lost_noted;
		uint32_t n = d > UINT32_MAX ? UINT32_MAX : d;

		if (nt_writer__note_lost(c->w, LOSS_CAPTURE_THREAD, n))
			break;
		c->lost_noted += n;
	}
}

static void status_line(struct collector *c, uint64_t *last_records, uint64_t *last_ns)
{
	uint64_t now = now_ns(), dt = now - *last_ns;
	double rate = dt ? (c->records - *last_records) * 1e9 / dt : 0;

	fprintf(stderr, "\r\033[K%.0f events/s  %llu events  %.1f MB written  %llu dropped",
		rate, (unsigned long long)c->records, nt_writer__bytes(c->w) / 1048576.0,
		(unsigned long long)(total_lost(&c->totals) + c->oversize +
				     kernel_events__lost(c->ke)));
	*last_records = c->records;
	*last_ns = now;
}

static bool targets_alive(struct collector *c)
{
	bool any = false;
	int i;

	if (c->child > 0) {
		if (!c->child_exited && waitpid(c->child, &c->child_status, WNOHANG) == c->child)
			c->child_exited = true;
		return !c->child_exited;
	}
	for (i = 0; i < env.nr_pids; i++) {
		if (c->pid_alive[i] && kill(env.pids[i], 0) && errno == ESRCH)
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
			attach_pid(c, c->child, false);
			if (c->ug)	/* --usdt */
				usdt_generic__attach_pid(c->ug, c->child);
		}
		return;
	}
	for (i = 0; i < env.nr_pids; i++) {
		if (!c->pid_alive[i])
			continue;
		attach_pid(c, env.pids[i], false);
		if (c->ug)	/* --usdt */
			usdt_generic__attach_pid(c->ug, env.pids[i]);
	}
}

/* A mapping the kernel reported (mmap_events.c): known to the symbolizer
 * before the records leave the reorder buffer. */
static int on_mapping(void *ctx, pid_t pid, uint64_t ts, const struct proc_map *m)
{
	struct collector *c = ctx;

	(void)ts;
	return symbolizer__add_mapping(symbolize__symbolizer(c->sym), pid, m) == -ENOMEM ?
	       -ENOMEM : 0;
}

/* -- dotnet: a runtime with USDT probes needs no session (ep_targets) */
static bool child_has_usdt(void *ctx, pid_t pid)
{
	struct collector *c = ctx;

	attach_pid(c, pid, false);
	return c->ours_found > 0;
}

static int poll_loop(struct collector *c)
{
	uint64_t start = now_ns(), last_tick = start, last_scan = start, last_rec = 0;
	uint64_t last_status = start, last_flush = start, flushed_events = 0;
	bool tty = isatty(STDERR_FILENO) && !env.quiet;
	int err = 0;

	while (!exiting) {
		uint64_t now, window;

		/* Records are submitted without wakeups (decision 13): epoll only
		 * returns early when BPF forced a wakeup at a fill threshold; on a
		 * timeout consume whatever is there. */
		err = ring_buffer__poll(c->rb, 100);
		/* EINTR: SIGINT/SIGTERM set `exiting` (checked above); a stop
		 * and continue (Ctrl-Z, fg) interrupts the wait too, and must
		 * not end the trace */
		if (err == -EINTR)
			err = 0;
		if (err == 0)
			err = ring_buffer__consume(c->rb);
		if (err < 0) {
			if (c->fatal)
				err = c->fatal;
			pr_warn("ring buffer poll failed: %s\n", strerror(-err));
			break;
		}
		now = now_ns();
		if (c->mm && mmap_events__poll(c->mm, on_mapping, c) < 0) {
			pr_warn("out of memory\n");
			err = -ENOMEM;
			break;
		}
		err = ep_targets__poll(&c->ept, c->ro, child_has_usdt, c);	/* stock .NET */
		if (err)
			break;
		window = ep_targets__active(&c->ept) ? EP_REORDER_WINDOW_NS : REORDER_WINDOW_NS;
		err = reorder__pop_before(c->ro, now - window, emit_record, c);
		if (err)
			break;
		if (c->sym)	/* snapshots while the targets live */
			symbolize__tick(c->sym, now, now - window);
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
		if (now - last_flush >= FLUSH_NS &&
		    nt_writer__events(c->w) != flushed_events) {
			err = nt_writer__flush(c->w);
			if (err) {
				pr_warn("cannot write %s: %s\n", env.output, strerror(-err));
				break;
			}
			flushed_events = nt_writer__events(c->w);
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

/* Read whatever the ring holds and pass what is old enough to the file. */
static int consume_step(struct collector *c, int timeout_ms, uint64_t before)
{
	/* records come without wakeups (decision 13): consume after the wait */
	int err = timeout_ms ? ring_buffer__poll(c->rb, timeout_ms) : 0;

	if (err == 0 || err == -EINTR)
		err = ring_buffer__consume(c->rb);
	if (err < 0)
		return c->fatal ? c->fatal : err;
	if (c->mm && mmap_events__poll(c->mm, on_mapping, c) < 0)
		return -ENOMEM;
	return reorder__pop_before(c->ro, before, emit_record, c);
}

static void detach_links(struct collector *c);

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
 * Raise the pause word of every traced process's provider, so the runtime
 * fires no event while the probes go: the kernel removes a probe's handler
 * before the breakpoint and the semaphore count, and an event fired in
 * between would be counted by the runtime and seen by nobody.  A process
 * that cannot be paused (gone, not ours to write) keeps that window.
 */
static void pause_runtimes(struct collector *c)
{
	size_t i, raised = 0;

	for (i = 0; i < c->nr_pauses; i++) {
		struct pause_site *ps = &c->pauses[i];
		int err = tracer_pause__resolve(ps->pid, ps->dev, ps->ino, ps->off, &ps->addr);

		if (!err)
			err = tracer_pause__add(ps->pid, ps->addr, 1);
		ps->raised = !err;
		raised += ps->raised;
		if (err && err != -ESRCH)	/* gone: nothing left to miss */
			pr_debug("pid %d: cannot pause the runtime before detaching (%s); its "
				 "last events can be missed\n", ps->pid, strerror(-err));
	}
	if (raised)
		usleep(PAUSE_GRACE_US);
}

/* Lower the pause words again, so a later tracer sees events. */
static void resume_runtimes(struct collector *c)
{
	size_t i;

	for (i = 0; i < c->nr_pauses; i++) {
		struct pause_site *ps = &c->pauses[i];
		int err;

		if (!ps->raised)
			continue;
		err = tracer_pause__add(ps->pid, ps->addr, -1);
		ps->raised = false;
		if (err && err != -ESRCH)
			pr_warn("pid %d: cannot lower the runtime's tracer pause word: %s; it "
				"fires no events until it is 0 again\n", ps->pid, strerror(-err));
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
static int stop_and_drain(struct collector *c)
{
	struct ring *r = ring_buffer__ring(c->rb, 0);
	uint64_t deadline;
	pthread_t th;
	bool threaded = !pthread_create(&th, NULL, stop_sources, c);
	int err = 0;

	if (!threaded)
		stop_sources(c);
	while (!__atomic_load_n(&c->sources_stopped, __ATOMIC_ACQUIRE) && !err)
		err = consume_step(c, 10, now_ns() - REORDER_WINDOW_NS);
	if (threaded)
		pthread_join(th, NULL);
	deadline = now_ns() + DRAIN_WAIT_NS;
	while (!err) {
		err = consume_step(c, 0, 0);
		if (err || !r || !ring__avail_data_size(r) || now_ns() > deadline)
			break;
		usleep(1000);	/* a record still being written: not readable yet */
	}
	if (err)
		return err;
	err = reorder__pop_before(c->ro, UINT64_MAX, emit_record, c);
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
	if (c->ev_counts[ia] != c->ev_counts[ib])
		return c->ev_counts[ia] < c->ev_counts[ib] ? 1 : -1;
	return strcmp(ea->symbol, eb->symbol);
}

/* With sysctl kernel.bpf_stats_enabled=1 the kernel times every program run. */
static void print_prog_stats(const struct collector *c)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_prog_get_info_by_fd(bpf_program__fd(c->skel->progs.clr_event), &info, &len) ||
	    !info.run_cnt)
		return;
	fprintf(stderr, "ebpf-collect: BPF program: %llu runs, %.0f ns per run "
		"(kernel.bpf_stats_enabled)\n", (unsigned long long)info.run_cnt,
		(double)info.run_time_ns / info.run_cnt);
}

static void print_summary(struct collector *c, uint64_t bytes)
{
	const struct ce_counters *t = &c->totals;
	uint32_t *idx = calloc(c->table->n_events, sizeof(*idx));
	uint32_t i, n = 0;
	double secs = c->last_ts > c->first_ts ? (c->last_ts - c->first_ts) / 1e9 : 0;

	if (env.quiet)
		goto out;
	for (i = 0; idx && i < c->table->n_events; i++)
		if (c->ev_counts[i])
			idx[n++] = i;
	if (idx)
		qsort_r(idx, n, sizeof(*idx), compare_idx, c);
	if (n)
		fprintf(stderr, "%-21s %-44s %10s\n", "PROVIDER", "EVENT", "COUNT");
	for (i = 0; i < n; i++)
		fprintf(stderr, "%-21s %-44s %10llu\n", c->table->events[idx[i]].provider->usdt_name,
			c->table->events[idx[i]].symbol,
			(unsigned long long)c->ev_counts[idx[i]]);
	fprintf(stderr, "ebpf-collect: %llu events (%.1f s), %llu bytes written to %s\n",
		(unsigned long long)c->records, secs, (unsigned long long)bytes, env.output);
	fprintf(stderr, "ebpf-collect: dropped %llu events (ring buffer full %llu, payload "
		"over " CE_STR(CE_MAX_PAYLOAD) " bytes %llu, unreadable payload %llu, preempted %llu); truncated stacks: "
		"%llu user, %llu kernel\n",
		(unsigned long long)(total_lost(t) + c->oversize), (unsigned long long)t->rb_drops,
		(unsigned long long)c->oversize, (unsigned long long)t->payload_faults,
		(unsigned long long)t->nested_drops, (unsigned long long)t->ustack_truncated,
		(unsigned long long)t->kstack_truncated);
	print_prog_stats(c);
	if (c->sym)
		symbolize__print_summary(c->sym, stderr);
	usdt_generic__print_summary(c->ug, stderr);	/* --usdt */
	kernel_events__print_summary(c->ke, stderr);
	ep_targets__print_summary(&c->ept, stderr);
	if (c->bad_records || reorder__late(c->ro))
		fprintf(stderr, "ebpf-collect: %llu malformed records skipped, %llu records out "
			"of order\n", (unsigned long long)c->bad_records,
			(unsigned long long)reorder__late(c->ro));
out:
	free(idx);
}

static int finish_file(struct collector *c)
{
	struct nt_loss_summary loss = {
		.events_written = c->records,
		.ringbuf_drops = c->totals.rb_drops,
		.truncated_payloads = c->oversize,
		.truncated_stacks = c->totals.ustack_truncated + c->totals.kstack_truncated,
		.other_drops = c->totals.payload_faults + c->totals.nested_drops + c->bad_records,
	};

	if (c->ug && !usdt_generic__read_counters(c->ug, &c->ug_totals)) {
		loss.ringbuf_drops += c->ug_totals.rb_drops;
		loss.other_drops += c->ug_totals.nested_drops + c->ug_totals.bad_records;
	}
	if (c->ke) {
		struct ke_counters kc;

		if (!kernel_events__counters(c->ke, &kc)) {
			loss.ringbuf_drops += kc.rb_drops;
			loss.truncated_stacks += kc.kstack_truncated + kc.ustack_truncated;
			loss.other_drops += kc.nested_drops;
		}
		loss.other_drops += kernel_events__bad_records(c->ke);
	}
	uint64_t bytes, last = c->last_ts ? c->last_ts : now_ns();
	struct nt_salvage salv = { 0 };
	int err;

	err = c->sym ? symbolize__finish(c->sym, last + 1) : 0;
	if (!err)
		err = nt_writer__flush(c->w);
	bytes = nt_writer__bytes(c->w);
	/* a full disk keeps what fits (the rest is counted lost in the file) */
	if (!err || nt_writer__is_space_error(err))
		err = nt_writer__finish(c->w, &loss, last, &salv);
	else
		nt_writer__abort(c->w);
	c->w = NULL;
	if (err && salv.kept) {
		pr_warn("%s: %s: kept the first %llu bytes, %llu events, %s; %llu events did not "
			"fit%s\n", env.output, strerror(-err), (unsigned long long)salv.bytes,
			(unsigned long long)salv.events,
			salv.finalized ? "as a complete trace" : "cut at a block boundary",
			(unsigned long long)salv.lost,
			salv.finalized ? " and are counted lost in it" : "");
		return err;
	}
	if (err) {
		pr_warn("cannot finish %s: %s; removed it\n", env.output, strerror(-err));
		return err;
	}
	print_summary(c, bytes);
	return 0;
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
		/* a .NET runtime waits at start-up until the collector has
		 * started its EventPipe session and sends ResumeRuntime */
		if (cmd_is_dotnet)
			setenv("DOTNET_DefaultDiagnosticPortSuspend", "1", 1);
		execvp(cmd[0], cmd);
		fprintf(stderr, "ebpf-collect: cannot run %s: %s\n", cmd[0], strerror(errno));
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
	return 0;
}

static int open_output(struct collector *c, pid_t pid)
{
	struct nt_trace_info info = {
		.freq = 1000000000ULL,
		.pointer_size = 8,
		.pid = pid,
		.ncpu = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : c->ncpu,
		/* ExpectedCPUSamplingRate = the --cpu-sampling interval */
		.sampling_interval_ns = env.sample_hz ? 1000000000U / env.sample_hz : 1000000,
	};
	struct stat st;
	uint64_t sub_ms;

	clock_gettime(CLOCK_REALTIME, &info.sync_utc);
	info.sync_ts = now_ns();
	/* the trace header keeps UTC in milliseconds (SYSTEMTIME): move the
	 * sync point back to the millisecond, so absolute times stay exact */
	sub_ms = info.sync_utc.tv_nsec % 1000000;
	info.sync_utc.tv_nsec -= sub_ms;
	info.sync_ts -= sub_ms;
	if (!stat(env.output, &st) && S_ISREG(st.st_mode))
		unlink(env.output);	/* overwrite, as dotnet-trace does */
	c->w = nt_writer__open(env.output, &info);
	if (!c->w) {
		pr_warn("cannot create output %s: %s\n", env.output, strerror(errno));
		return -errno;
	}
	return 0;
}

static int setup_bpf(struct collector *c)
{
	uint64_t rb_bytes = (uint64_t)env.buffer_mb << 20;
	int err, i;

	c->skel = clr_events__open();
	if (!c->skel) {
		err = -errno;
		pr_warn("cannot open BPF object: %s\n", strerror(-err));
		return err;
	}
	c->skel->rodata->targ_filter_tgid = 1;
	c->skel->rodata->targ_ustack = env.no_ustack ? 0 : env.stack_helper ? 2 : 1;
	c->skel->rodata->targ_kstack = env.kstack;
	c->skel->rodata->targ_wakeup_bytes = rb_bytes / 4;
	c->skel->rodata->targ_backstop_bytes = rb_bytes / 4 * 3;
	bpf_map__set_max_entries(c->skel->maps.rb, rb_bytes);
	bpf_map__set_max_entries(c->skel->maps.scratch, c->ncpu);
	err = clr_events__load(c->skel);
	if (err) {
		pr_warn("cannot load BPF program: %s\n", strerror(-err));
		return err;
	}
	if (c->ug) {	/* --usdt: same ring buffer, same thresholds */
		usdt_generic__set_follow(c->ug, env.all_processes ? UG_FOLLOW_ALL :
					 env.usdt_children ? UG_FOLLOW_CHILDREN : UG_FOLLOW_NONE);
		err = usdt_generic__load(c->ug, bpf_map__fd(c->skel->maps.rb), rb_bytes / 4,
					 rb_bytes / 4 * 3);
		for (i = 0; !err && i < (c->child > 0 ? 1 : env.nr_pids); i++)
			err = usdt_generic__add_target(c->ug, c->child > 0 ? c->child : env.pids[i]);
		if (err)
			return err;
	}
	if (env.kernel_groups || env.sample_hz) {	/* same ring buffer */
		struct kernel_events_opts ko = {
			.groups = env.kernel_groups,
			.sample_hz = env.sample_hz,
			.all_processes = env.all_processes,
			.rb_fd = bpf_map__fd(c->skel->maps.rb),
			.rb_bytes = rb_bytes,
			.verbose = env.verbose,
		};

		c->ke = kernel_events__open(&ko);
		if (!c->ke)
			return -errno;
		for (i = 0; !err && i < (c->child > 0 ? 1 : env.nr_pids); i++)
			err = kernel_events__add_target(c->ke, c->child > 0 ? c->child : env.pids[i]);
		if (err)
			return err;
	}
	for (i = 0; i < (c->child > 0 ? 1 : env.nr_pids); i++) {
		__u32 tgid = c->child > 0 ? c->child : env.pids[i];
		__u8 one = 1;

		err = bpf_map__update_elem(c->skel->maps.targets, &tgid, sizeof(tgid), &one,
					   sizeof(one), 0);
		if (err) {
			pr_warn("cannot add pid %u to the target map: %s\n", tgid, strerror(-err));
			return err;
		}
	}
	c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.rb), handle_record, c, NULL);
	if (!c->rb) {
		err = -errno;
		pr_warn("cannot create ring buffer consumer: %s\n", strerror(-err));
		return err;
	}
	return 0;
}

static int attach_libs(struct collector *c, pid_t pid)
{
	int i, n, total = 0;

	for (i = 0; i < env.nr_libs; i++) {
		n = attach_path(c, pid, env.libs[i]);
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
		n = attach_path(c, c->child, cmd_path);
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
		int ours = c->ours_found;

		c->pid_alive[i] = true;
		n = attach_libs(c, env.pids[i]);
		if (n < 0)
			return EXIT_FAIL;
		total += n;
		n = attach_pid(c, env.pids[i], true);
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
		c->ep_candidate[i] = c->ours_found == ours;	/* stock .NET? */
	}
	if (total)
		return EXIT_OK;
	if (dotnet_candidates(c))	/* EventPipe takes over: no warning */
		return EXIT_NO_PROBES;
	if (c->ug)	/* --usdt */
		pr_warn("no USDT probes matching --usdt in pid%s %d%s (ebpf-collect -l -p PID "
			"lists them)\n", env.nr_pids > 1 ? "s" : "", env.pids[0],
			env.nr_pids > 1 ? ",..." : "");
	if (!c->ours_found)
		pr_warn("no .NET runtime USDT probes (providers DotNETRuntime...) in pid%s %d%s: "
			"the runtime must be built with the USDT provider (usdt/clr-events.man), "
			"and no .NET diagnostics socket for EventPipe either (not .NET, or "
			"DOTNET_EnableDiagnostics=0); searched %s\n", env.nr_pids > 1 ? "s" : "",
			env.pids[0], env.nr_pids > 1 ? ",..." : "",
			c->searched ? c->searched : "no files");
	else if (c->attach_failed)
		pr_warn("could not attach any of the %d selected runtime probes (see above)\n",
			c->attach_failed);
	else
		pr_warn("none of the %d runtime probes found matches --providers/--profile\n",
			c->ours_found);
	return c->attach_failed ? EXIT_FAIL : EXIT_NO_PROBES;
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
 * duplicates from many threads at once, whose grace periods overlap.
 *
 * All at once the closes queue on the target's mmap lock, and while a
 * probe waits its handler is gone but its semaphore is still set; our
 * provider is paused by then (pause_runtimes), so spacing the closes out
 * would buy nothing for it.
 */
#define DETACH_THREADS 64

struct closer {
	int *fds;
	size_t n, start, step;
};

static void *close_fds(void *arg)
{
	struct closer *cl = arg;
	size_t i;

	for (i = cl->start; i < cl->n; i += cl->step)
		close(cl->fds[i]);
	return NULL;
}

/* dup() every bpf_link fd of this process; returns how many (fds malloc'd). */
static size_t dup_link_fds(int **out)
{
	size_t n = 0, cap = 0;
	struct dirent *d;
	int *fds = NULL, *p;
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
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			p = realloc(fds, cap * sizeof(*p));
			if (!p)
				break;
			fds = p;
		}
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
	struct closer cl[DETACH_THREADS];
	pthread_t th[DETACH_THREADS];
	size_t i, n, nth;
	int *fds = NULL;
	bool started[DETACH_THREADS] = {};

	n = c->nr_links || usdt_generic__nr_links(c->ug) ? dup_link_fds(&fds) : 0;
	for (i = 0; i < c->nr_links; i++)
		bpf_link__destroy(c->links[i]);
	c->nr_links = 0;
	usdt_generic__detach(c->ug);	/* --usdt: same trick */
	nth = n < DETACH_THREADS ? n : DETACH_THREADS;
	for (i = 0; i < nth; i++) {
		cl[i] = (struct closer){ .fds = fds, .n = n, .start = i, .step = nth };
		started[i] = !pthread_create(&th[i], NULL, close_fds, &cl[i]);
		if (!started[i])
			close_fds(&cl[i]);	/* no thread: close this share here */
	}
	for (i = 0; i < nth; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	free(fds);
}

static void collector__free(struct collector *c)
{
	detach_links(c);
	free(c->links);
	ring_buffer__free(c->rb);
	usdt_generic__free(c->ug);
	kernel_events__destroy(c->ke);
	ep_targets__free(&c->ept);
	mmap_events__free(c->mm);
	symbolize__free(c->sym);
	clr_events__destroy(c->skel);
	reorder__free(c->ro);
	free(c->meta_ids);
	free(c->ev_counts);
	free(c->files);
	free(c->pauses);
	free(c->searched);
}

int collect_main(int argc, char **argv)
{
	struct collector c = { .table = &clretw_event_table };
	struct sigaction sa = { .sa_handler = sig_handler };
	char *cmd_path = NULL;
	int release_fd = -1, ret, err;
	int i;

	if (parse_cmdline(argc, argv))
		return EXIT_USAGE;
	libbpf_set_print(libbpf_print_fn);
	raise_nofile();
	if (env.list)
		return list_probes();
	if (env.manifest) {
		char merr[512];

		if (ect_table__load(env.manifest, &c.table, merr, sizeof(merr))) {
			pr_warn("--manifest %s\n", merr);
			return EXIT_USAGE;
		}
	}
	if (build_selection(&c) ||
	    ep_targets__config(&c.ept, &c.sel, env.ep_extra, env.nr_ep_extra, env.sample_hz,
			       env.quiet)) {
		ret = EXIT_USAGE;
		goto free_table;
	}
	if (check_privileges()) {
		ret = EXIT_NO_PRIV;
		goto free_table;
	}
	if (check_kernel()) {
		ret = EXIT_NO_KERNEL;
		goto free_table;
	}
	if (check_pids()) {
		ret = EXIT_NO_PROCESS;
		goto free_table;
	}
	if (check_ep_extra(&c)) {
		ret = EXIT_USAGE;
		goto free_table;
	}

	c.ncpu = libbpf_num_possible_cpus();
	c.meta_ids = calloc(c.table->n_events, sizeof(*c.meta_ids));
	c.ev_counts = calloc(c.table->n_events, sizeof(*c.ev_counts));
	c.ro = reorder__new();
	if (c.ncpu <= 0 || !c.meta_ids || !c.ev_counts || !c.ro) {
		pr_warn("out of memory\n");
		ret = EXIT_FAIL;
		goto cleanup;
	}
	if (env.nr_usdt) {	/* --usdt */
		char uerr[256];
		int i;

		c.ug = usdt_generic__new(env.quiet ? -1 : env.verbose);
		for (i = 0; c.ug && i < env.nr_usdt; i++)
			if (usdt_generic__add_spec(c.ug, env.usdt[i], uerr, sizeof(uerr)))
				break;
		if (!c.ug || i < env.nr_usdt) {
			pr_warn("--usdt: out of memory\n");
			ret = EXIT_FAIL;
			goto cleanup;
		}
	}
	if (env.cmd) {
		cmd_path = resolve_cmd(env.cmd[0]);
		if (!cmd_path) {
			pr_warn("command not found: %s\n", env.cmd[0]);
			ret = EXIT_USAGE;
			goto cleanup;
		}
		cmd_is_dotnet = is_dotnet_host(cmd_path);
		c.child = spawn_held(env.cmd, &release_fd);
		if (cmd_is_dotnet)	/* EventPipe from its start */
			ep_targets__wait_child(&c.ept, c.child);
		if (c.child < 0) {
			pr_warn("cannot start %s: %s\n", env.cmd[0], strerror(-c.child));
			ret = EXIT_FAIL;
			goto cleanup;
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (open_output(&c, c.child > 0 ? c.child : env.pids[0])) {
		ret = EXIT_OUTPUT;
		goto cleanup;
	}
	if (!env.no_symbols) {
		c.sym = symbolize__new(c.w, NULL);
		if (!c.sym) {
			pr_warn("out of memory\n");
			ret = EXIT_FAIL;
			goto cleanup;
		}
		/* mappings as the kernel makes them: for what exits before a snapshot */
		c.mm = mmap_events__new();
		for (i = 0; i < (c.child > 0 ? 1 : env.nr_pids); i++) {
			pid_t p = c.child > 0 ? c.child : env.pids[i];

			symbolize__add_pid(c.sym, p);
			if (c.mm && (err = mmap_events__add_pid(c.mm, p)))
				pr_debug("pid %d: no mapping records (perf_event_open: %s); "
					 "/proc snapshots only\n", p, strerror(-err));
		}
	}
	if (setup_bpf(&c)) {
		ret = EXIT_FAIL;
		goto cleanup;
	}
	ret = attach_all(&c, cmd_path);
	if ((ret == EXIT_OK || ret == EXIT_NO_PROBES) && !c.child) {	/* stock .NET */
		int ep = ep_targets__attach(&c.ept, env.pids, c.ep_candidate, env.nr_pids);

		if (ret == EXIT_NO_PROBES || ep != EXIT_NO_PROBES)
			ret = ep;
	}
	if (ret == EXIT_NO_PROBES && c.ke) {	/* kernel events still apply */
		pr_info("tracing kernel events only\n");
		ret = EXIT_OK;
	}
	if (!ret && c.ke && kernel_events__attach(c.ke))
		ret = EXIT_FAIL;
	if (ret)
		goto cleanup;
	if (release_fd >= 0) {
		if (write(release_fd, "g", 1) != 1)
			pr_warn("cannot release %s: %s\n", env.cmd[0], strerror(errno));
		close(release_fd);
		release_fd = -1;
	}
	pr_info("tracing %llu probes%s; writing %s; Ctrl-C to stop\n",
		(unsigned long long)(c.nr_links + usdt_generic__nr_links(c.ug)), env.duration_ns ? " for the given duration" : "",
		env.output);

	err = poll_loop(&c);
	if (!err) {
		int stop_err;

		pause_runtimes(&c);
		/* EventPipe's rundown goes into the reorder buffer before the drain */
		err = ep_targets__stop(&c.ept, c.ro);
		stop_err = stop_and_drain(&c);
		resume_runtimes(&c);
		if (!err)
			err = stop_err;
	}
	ret = err ? (c.ept.fail ? c.ept.fail : EXIT_FAIL) : c.ept.cut ? EXIT_STREAM_CUT : EXIT_OK;
	if (finish_file(&c))
		ret = EXIT_FAIL;
cleanup:
	if (c.w) {
		if (c.records) {
			finish_file(&c);
		} else {
			if (ret == EXIT_OK)
				pr_warn("no events written; removing %s\n", env.output);
			nt_writer__abort(c.w);
		}
	}
	if (release_fd >= 0)
		close(release_fd);	/* the held child exits on EOF */
	collector__free(&c);
	if (c.child > 0 && c.child_exited) {
		if (WIFEXITED(c.child_status) && WEXITSTATUS(c.child_status))
			pr_info("%s exited with status %d\n", env.cmd[0],
				WEXITSTATUS(c.child_status));
		else if (WIFSIGNALED(c.child_status))
			pr_info("%s was killed by signal %d\n", env.cmd[0],
				WTERMSIG(c.child_status));
	}
	if (c.child > 0 && !c.child_exited) {
		if (ret != EXIT_OK) {
			kill(c.child, SIGKILL);
			waitpid(c.child, &c.child_status, 0);
		} else {
			pr_info("%s (pid %d) is still running\n", env.cmd[0], c.child);
		}
	}
	free(cmd_path);
free_table:
	if (c.table != &clretw_event_table)
		ect_table__free(c.table);
	return ret;
}
