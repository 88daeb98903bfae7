// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kernel_events_meta.c - the fields of each kernel event in the trace.
 * CPU samples use the sample profiler's event, as the runtime writes it
 * (docs/nettrace-format.md section 10).
 */
#include "kernel_events.h"
#include "kernel_events_meta.h"


#define F(n, t) { .name = n, .type = NT_TYPE_##t }

static const struct nt_field_desc ke_fields_switch[] = {
	F("PrevPid", UINT32), F("PrevTid", UINT32), F("PrevComm", STRING),
	F("PrevState", UINT64), F("PrevPrio", INT32),
	F("NextPid", UINT32), F("NextTid", UINT32), F("NextComm", STRING),
	F("NextPrio", INT32), F("Cpu", UINT32),
};
static const struct nt_field_desc ke_fields_wakeup[] = {
	F("WakeePid", UINT32), F("WakeeTid", UINT32), F("WakeeComm", STRING),
	F("WakeePrio", INT32), F("TargetCpu", UINT32),
	F("WakerPid", UINT32), F("WakerTid", UINT32),
};
static const struct nt_field_desc ke_fields_offcpu[] = {
	F("Pid", UINT32), F("Tid", UINT32), F("DurationNs", UINT64), F("PrevState", UINT64),
	F("WakerPid", UINT32), F("WakerTid", UINT32), F("HasStack", BOOLEAN),
};
static const struct nt_field_desc ke_fields_syscall[] = {
	F("Id", UINT32), F("Name", STRING), F("Ret", INT64), F("DurationNs", UINT64),
	F("Arg0", UINT64), F("Arg1", UINT64), F("Arg2", UINT64), F("Arg3", UINT64),
	F("Arg4", UINT64), F("Arg5", UINT64), F("NoReturn", BOOLEAN),
};
static const struct nt_field_desc ke_fields_fork[] = {
	F("ParentPid", UINT32), F("ParentTid", UINT32), F("ParentComm", STRING),
	F("ChildPid", UINT32), F("ChildTid", UINT32), F("ChildComm", STRING),
	F("IsThread", BOOLEAN),
};
static const struct nt_field_desc ke_fields_exec[] = {
	F("Pid", UINT32), F("Tid", UINT32), F("OldTid", UINT32), F("Filename", STRING),
	F("Comm", STRING),
};
static const struct nt_field_desc ke_fields_exit[] = {
	F("Pid", UINT32), F("Tid", UINT32), F("ExitStatus", INT32), F("ExitCode", INT32),
	F("Signal", INT32), F("GroupDead", BOOLEAN), F("Comm", STRING),
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DESC(prov, id, nm, kw, fl) \
	{ .provider = prov, .event_id = id, .name = nm, .keywords = kw, .version = 0, \
	  .level = 4, .fields = fl, .n_fields = ARRAY_SIZE(fl) }

#define PROV_SAMPLE	"Microsoft-DotNETCore-SampleProfiler"
#define PROV_SCHED	"Linux-Kernel-Sched"
#define PROV_SYSCALLS	"Linux-Kernel-Syscalls"
#define PROV_PROCESS	"Linux-Kernel-Process"

const struct nt_event_desc ke_descs[NR_KINDS] = {
	[KIND_SAMPLE] = { .provider = PROV_SAMPLE, .event_id = 0, .name = "", .keywords = 0,
			  .version = 0, .level = 4 },
	[KIND_SWITCH] = DESC(PROV_SCHED, 1, "SchedSwitch", KE_GROUP_SCHED, ke_fields_switch),
	[KIND_WAKEUP] = DESC(PROV_SCHED, 2, "SchedWakeup", KE_GROUP_SCHED, ke_fields_wakeup),
	[KIND_OFFCPU] = DESC(PROV_SCHED, 3, "OffCpu", KE_GROUP_SCHED, ke_fields_offcpu),
	[KIND_SYSCALL] = DESC(PROV_SYSCALLS, 1, "Syscall", KE_GROUP_SYSCALLS, ke_fields_syscall),
	[KIND_FORK] = DESC(PROV_PROCESS, 1, "Fork", KE_GROUP_PROC, ke_fields_fork),
	[KIND_EXEC] = DESC(PROV_PROCESS, 2, "Exec", KE_GROUP_PROC, ke_fields_exec),
	[KIND_EXIT] = DESC(PROV_PROCESS, 3, "Exit", KE_GROUP_PROC, ke_fields_exit),
};

const char *const ke_kind_names[NR_KINDS] = {
	"CpuSample", "SchedSwitch", "SchedWakeup", "OffCpu", "Syscall", "Fork", "Exec", "Exit",
};
