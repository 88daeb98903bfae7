/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * proc_info.h - who a process is, for attribution: its comm, executable,
 * cgroup path and, parsed from that path, the container id and Kubernetes
 * pod UID.  The cgroup parser is the project's one reader of cgroup path
 * shapes (docs/attribution.md lists them).
 */
#ifndef EC_COMMON_PROC_INFO_H
#define EC_COMMON_PROC_INFO_H

#include <stddef.h>
#include <sys/types.h>

#define PROC_COMM_LEN		16	/* the kernel's TASK_COMM_LEN */
#define PROC_PATH_LEN		256
#define PROC_CONTAINER_LEN	65	/* 64 hex digits */
#define PROC_POD_LEN		37	/* a UUID, dashes included */

struct proc_info {
	char comm[PROC_COMM_LEN];	/* "" when unknown */
	char exe[PROC_PATH_LEN];	/* /proc/PID/exe's target; "" when unreadable */
	char cgroup[PROC_PATH_LEN];	/* see proc_cgroup_pick */
	char container[PROC_CONTAINER_LEN];	/* "" outside a container */
	char pod[PROC_POD_LEN];		/* "" outside a Kubernetes pod */
};

/* Read pid's comm, exe and cgroup from /proc and parse the cgroup path.
 * 0, or -errno of /proc/PID/comm (-ENOENT: the process is gone); the other
 * fields are left "" when unreadable (a kernel thread has no exe). */
int proc_info_read(pid_t pid, struct proc_info *pi);

/* From the text of /proc/PID/cgroup, the path that says where the process
 * is: the cgroup2 ("0::") path unless it is the root, else the v1
 * name=systemd path (hybrid hosts), else the cgroup2 path or "/".
 * Copied into out (cut to len - 1 bytes). */
void proc_cgroup_pick(const char *text, char *out, size_t len);

/* The container id (64 lowercase hex digits: Docker, containerd, CRI-O,
 * Podman) and the Kubernetes pod UID (dashed) a cgroup path names; ""
 * for none.  container is PROC_CONTAINER_LEN bytes, pod PROC_POD_LEN. */
void proc_cgroup_ids(const char *path, char *container, char *pod);

#endif /* EC_COMMON_PROC_INFO_H */
