/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kernel_events_meta.h - the trace events kernel_events.c writes: one kind
 * per record, each a self-describing event (provider, id, name, fields).
 */
#ifndef EBPF_COLLECT_KERNEL_EVENTS_META_H
#define EBPF_COLLECT_KERNEL_EVENTS_META_H

#include "nettrace.h"

enum ke_kind {
	KIND_SAMPLE,
	KIND_SWITCH,
	KIND_WAKEUP,
	KIND_OFFCPU,
	KIND_SYSCALL,
	KIND_FORK,
	KIND_EXEC,
	KIND_EXIT,
	NR_KINDS,
};

extern const struct nt_event_desc ke_descs[NR_KINDS];
extern const char *const ke_kind_names[NR_KINDS];

#endif
