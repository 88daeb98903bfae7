/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * attrib.h - who a pid is, for the fleet outputs' rows and series: its
 * comm, executable, cgroup, container and pod (common/proc_info.h), read
 * from /proc when a consumer first sees the pid, and its service, derived
 * as --service-from says with --service as the fallback.
 */
#ifndef EBPF_COLLECT_ATTRIB_H
#define EBPF_COLLECT_ATTRIB_H

#include <stdint.h>
#include <sys/types.h>
#include "proc_info.h"

#define ATTRIB_SERVICE_LEN	128

enum service_from {
	SERVICE_FIXED,		/* --service alone */
	SERVICE_CGROUP,		/* the container's id (12 digits), else the cgroup's leaf */
	SERVICE_COMM,
	SERVICE_ENV,		/* a variable of the process's environment */
};

struct attrib_opts {
	const char *service;		/* --service: the fallback; NULL: none */
	enum service_from from;		/* --service-from */
	const char *env_name;		/* SERVICE_ENV's variable */
};

/* --service-from cgroup|comm|env:NAME into o.  0 or -EINVAL. */
int attrib_opts__parse(const char *arg, struct attrib_opts *o);

struct proc_attr {
	pid_t pid;
	struct proc_info pi;		/* comm "" when the process was gone */
	char service[ATTRIB_SERVICE_LEN];	/* "" when none */
	uint8_t used;			/* got since the last sweep */
};

struct attrib;

struct attrib *attrib__new(const struct attrib_opts *o);
void attrib__free(struct attrib *a);

/* pid's attribution, read on its first call.  Valid until the next
 * attrib__sweep; never NULL (on ENOMEM an empty one). */
const struct proc_attr *attrib__get(struct attrib *a, pid_t pid);

/* pid exec'd comm (the program's file name): read it again (a new
 * program, maybe a new comm); comm and exe name it when /proc no longer
 * has it (a short-lived program, gone before its record was read). */
void attrib__exec(struct attrib *a, pid_t pid, const char *comm, const char *exe);

/* Forget the pids nobody got since the last sweep (they are read again if
 * seen again), so a host that starts processes all day keeps a bounded set. */
void attrib__sweep(struct attrib *a);

#endif
