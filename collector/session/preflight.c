// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * preflight.c - what a session checks before it opens or attaches anything
 * (privileges, kernel features, the target pids), libbpf's messages through
 * the log, and -l: the probes a session would find in a process or a file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "event_table.h"
#include "exit_codes.h"
#include "manifest_meta.h"
#include "eventpipe.h"
#include "proc_maps.h"
#include "usdt_notes.h"
#include "tracepoint_read.h"
#include "collector.h"

int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	/* libbpf's warnings always; its info with -v, its debug output with -vv */
	enum log_level l = level == LIBBPF_WARN ? LOG_WARN :
			   level == LIBBPF_INFO ? LOG_DEBUG : LOG_DEBUG2;

	log_vprint(l, fmt, args);
	return 0;
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
int check_privileges(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = {};
	char missing[128] = "";

	if (syscall(SYS_capget, &hdr, d)) {
		pr_warn("cannot read capabilities: %s\n", strerror(errno));
		return -EPERM;
	}
	if (has_cap(d, CAP_SYS_ADMIN) || (has_cap(d, CAP_BPF) && has_cap(d, CAP_PERFMON))) {
		/* not fatal: a user's own processes need no CAP_SYS_PTRACE */
		if (!has_cap(d, CAP_SYS_PTRACE) && geteuid())
			pr_warn("missing capability CAP_SYS_PTRACE: processes of other users "
				"cannot be traced (their /proc/PID/maps is unreadable)\n");
		return 0;
	}
	if (!has_cap(d, CAP_BPF))
		strcat(missing, "CAP_BPF, ");
	if (!has_cap(d, CAP_PERFMON))
		strcat(missing, "CAP_PERFMON, ");
	missing[strlen(missing) - 2] = 0;
	pr_warn("missing capabilities %s (or CAP_SYS_ADMIN): run as root, or grant "
		"CAP_BPF,CAP_PERFMON,CAP_SYS_PTRACE,CAP_DAC_READ_SEARCH\n", missing);
	return -EPERM;
}

int check_kernel(void)
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

/* Every -p must exist and not have exited (a zombie still answers
 * kill(pid, 0) but maps nothing); a thread id is replaced by its process id. */
int check_pids(void)
{
	pid_t tgid;
	int i;

	for (i = 0; i < env.nr_pids; i++) {
		if ((kill(env.pids[i], 0) && errno == ESRCH) || proc__tgid(env.pids[i], &tgid)) {
			pr_warn("no such process: %d\n", env.pids[i]);
			return -ESRCH;
		}
		if (proc__exited(tgid)) {
			pr_warn("pid %d: the process has exited (a zombie its parent has not "
				"reaped): nothing to trace\n", env.pids[i]);
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

static void print_header(void)
{
	printf("%-20s %-36s %-12s %-12s %s  %s\n", "PROVIDER", "NAME", "ADDRESS", "SEMAPHORE",
	       "FILE", "ARGS");
}

/* The runtime's own files (libcoreclr.so, libclrjit.so): what a stock
 * .NET process is, named by path, as -l lists no probe of theirs. */
static void print_runtime_paths(pid_t pid, const struct mapped_file_list *files)
{
	static const char *const libs[] = { "libcoreclr.so", "libclrjit.so" };

	for (size_t i = 0; i < files->n; i++) {
		const char *base = strrchr(files->v[i].path, '/');

		base = base ? base + 1 : files->v[i].path;
		for (size_t j = 0; j < sizeof(libs) / sizeof(libs[0]); j++)
			if (!strcmp(base, libs[j]))
				printf("pid %d: runtime %s\n", pid, files->v[i].path);
	}
}

/* Runtime probes (DotNETRuntime...) in the files PID maps: how many, or
 * -errno when its maps cannot be read. */
int pid_runtime_probes(pid_t pid)
{
	struct mapped_file_list files = {};
	struct usdt_note_list notes;
	size_t i, ours = 0;
	int err;

	err = proc_mapped_files(pid, &files);
	if (err)
		return err;
	for (i = 0; i < files.n; i++) {
		if (!mapped_file__reach(pid, &files.v[i]) ||
		    usdt_notes__load(files.v[i].open_path, &notes))
			continue;
		ours += count_ours(&notes);
		usdt_notes__free(&notes);
	}
	mapped_file_list__free(&files);
	return ours;
}

/* The tracepoint shim a stock CoreCLR loaded (usdt/README.md, "The
 * tracepoint shim"): the runtime's tracepoints it holds, which a session
 * traces in preference to EventPipe.  1 when the process has it with
 * tracepoints, 0 otherwise (none, or standing down). */
static int print_tracepoint_shim(const struct collector *c, pid_t pid)
{
	struct tpshim_view v;
	char why[2048];

	if (tpshim__find(pid, &v))
		return 0;
	if (v.table.refused) {
		printf("pid %d: tracepoint shim standing down (a real LTTng-UST 2.12 is there)\n",
		       pid);
		return 0;
	}
	printf("pid %d: tracepoint shim: %u events\n", pid, v.table.count);
	/* as a session would find it */
	if (v.table.count && tpshim__env_refuses(c->table, &c->sel, c->ept.cfg_shim.n > 0, pid, &v,
						 why, sizeof(why)) > 0) {
		printf("%s\n", why);
		return 0;
	}
	return v.table.count > 0;
}

int list_probes(const struct collector *c)
{
	char names[512];
	struct mapped_file_list files = {};
	struct usdt_note_list notes, *all = NULL;
	size_t i, total = 0, ours = 0;
	int err, dotnet, shim;

	if (env.list_path) {
		print_header();
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
	if (!err && files.n && !(all = calloc(files.n, sizeof(*all))))
		err = -ENOMEM;
	if (err) {
		if (err == -ESRCH)
			pr_warn("no such process: %d\n", env.pids[0]);
		else
			pr_warn("cannot read /proc/%d/maps: %s\n", env.pids[0], strerror(-err));
		mapped_file_list__free(&files);
		return err == -ESRCH ? EXIT_NO_PROCESS : EXIT_FAIL;
	}
	for (i = 0; i < files.n; i++) {
		if (!mapped_file__reach(env.pids[0], &files.v[i]) ||
		    usdt_notes__load(files.v[i].open_path, &all[i]))
			continue;
		total += all[i].n;
		ours += count_ours(&all[i]);
	}
	/* Stock .NET: the probes listed are other libraries' (libstdc++'s
	 * catch/throw), which trace no managed code: said so before them. */
	if (!ours && dotnet == 1) {
		print_runtime_paths(env.pids[0], &files);
		if (total)
			printf("pid %d: USDT probes of other libraries, not the runtime's "
			       "(--usdt PROVIDER traces them):\n", env.pids[0]);
	}
	if (ours || dotnet != 1 || total)
		print_header();
	for (i = 0; i < files.n; i++) {
		print_notes(files.v[i].path, &all[i]);
		usdt_notes__free(&all[i]);
	}
	free(all);
	mapped_file_list__free(&files);
	shim = print_tracepoint_shim(c, env.pids[0]);
	if (ours)
		printf("pid %d: USDT provider (%zu runtime probes)\n", env.pids[0], ours);
	else if (shim && c->ept.cfg_shim.n)	/* what only EventPipe serves */
		printf("pid %d: traced through the tracepoint shim (no USDT provider), with an "
		       "EventPipe session beside it for %s\n", env.pids[0],
		       ep_targets__beside_names(&c->ept, names, sizeof(names)));
	else if (shim)
		printf("pid %d: traced through the tracepoint shim (no USDT provider)\n",
		       env.pids[0]);
	else if (dotnet == 1)
		printf("pid %d: traced through EventPipe (no USDT provider)\n", env.pids[0]);
	return total || dotnet == 1 || shim ? EXIT_OK : EXIT_NO_PROBES;
}
