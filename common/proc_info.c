// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * proc_info.c - who a process is (proc_info.h): /proc/PID/comm, exe and
 * cgroup, and the container and pod a cgroup path names.
 *
 * Container runtimes name a container's cgroup after its 64-hex id, with
 * a prefix per runtime under systemd (docker-ID.scope, cri-containerd-ID.scope,
 * crio-ID.scope, libpod-ID.scope) or as a bare directory under cgroupfs
 * (/docker/ID, /kubepods/burstable/podUID/ID).  The kubelet names a pod's
 * cgroup after its UID: kubepods-QOS-podUID.slice with the UID's dashes
 * turned to underscores (systemd forbids dashes inside a slice's own name),
 * or podUID under cgroupfs.  The innermost component that matches wins, so
 * a container nested in another one is named by its own id.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proc_info.h"

#define CGROUP_FILE_MAX	8192

static int read_small(const char *fn, char *buf, size_t len)
{
	FILE *f = fopen(fn, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

/* The path of the "ID:CONTROLLERS:PATH" line with these controllers and,
 * unless id is NULL, this hierarchy id.  0 or -ENOENT. */
static int line_path(const char *text, const char *id, const char *ctrl, char *out,
		     size_t len)
{
	const char *l = text;

	while (*l) {
		size_t ll = strcspn(l, "\n");
		const char *c1 = memchr(l, ':', ll);
		const char *c2 = c1 ? memchr(c1 + 1, ':', ll - (size_t)(c1 + 1 - l)) : NULL;

		if (c2 && (!id || ((size_t)(c1 - l) == strlen(id) && !strncmp(l, id, c1 - l))) &&
		    (size_t)(c2 - c1 - 1) == strlen(ctrl) && !strncmp(c1 + 1, ctrl, c2 - c1 - 1)) {
			snprintf(out, len, "%.*s", (int)(ll - (size_t)(c2 + 1 - l)), c2 + 1);
			return 0;
		}
		l += ll;
		l += *l == '\n';
	}
	return -ENOENT;
}

void proc_cgroup_pick(const char *text, char *out, size_t len)
{
	char v2[PROC_PATH_LEN] = "", sd[PROC_PATH_LEN] = "";
	int have_v2 = !line_path(text, "0", "", v2, sizeof(v2));

	if (have_v2 && strcmp(v2, "/"))
		snprintf(out, len, "%s", v2);
	else if (!line_path(text, NULL, "name=systemd", sd, sizeof(sd)) && sd[0])
		snprintf(out, len, "%s", sd);
	else
		snprintf(out, len, "%s", have_v2 ? v2 : "/");
}

static int is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return 0;
	return 1;
}

/* A UUID of n bytes, dashes or (sep '_') underscores at 8, 13, 18, 23,
 * into pod with dashes. */
static int take_uuid(const char *s, size_t n, char sep, char *pod)
{
	size_t i;

	if (n != PROC_POD_LEN - 1)
		return 0;
	for (i = 0; i < n; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != sep : !isxdigit((unsigned char)s[i]))
			return 0;
	}
	for (i = 0; i < n; i++)
		pod[i] = s[i] == sep ? '-' : (char)tolower((unsigned char)s[i]);
	pod[n] = '\0';
	return 1;
}

static void component_ids(const char *c, size_t n, char *container, char *pod)
{
	static const char *const prefixes[] = { "docker-", "cri-containerd-", "crio-",
						"libpod-", "" };
	const char *p;
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t pl = strlen(prefixes[i]), rest;

		if (n < pl + 64 || strncmp(c, prefixes[i], pl))
			continue;
		rest = n - pl - 64;
		if (is_hex(c + pl, 64) &&
		    ((!*prefixes[i] && !rest) ||
		     (*prefixes[i] && rest == 6 && !strncmp(c + pl + 64, ".scope", 6)))) {
			memcpy(container, c + pl, 64);
			container[64] = '\0';
			return;
		}
	}
	/* kubepods[-QOS]-podUID.slice (systemd) or podUID (cgroupfs) */
	if (n > 6 && !strncmp(c + n - 6, ".slice", 6) && !strncmp(c, "kubepods", 8)) {
		for (p = c + n - 6; p > c && p[-1] != '-'; p--)
			;
		if (p > c && !strncmp(p, "pod", 3))
			take_uuid(p + 3, (size_t)(c + n - 6 - p - 3), '_', pod);
	} else if (n > 3 && !strncmp(c, "pod", 3)) {
		take_uuid(c + 3, n - 3, '-', pod);
	}
}

void proc_cgroup_ids(const char *path, char *container, char *pod)
{
	const char *c = path;

	container[0] = pod[0] = '\0';
	while (*c) {
		size_t n = strcspn(c, "/");

		if (n)
			component_ids(c, n, container, pod);
		c += n;
		c += *c == '/';
	}
}

int proc_info_read(pid_t pid, struct proc_info *pi)
{
	char fn[64], buf[CGROUP_FILE_MAX];
	ssize_t n;
	int err;

	memset(pi, 0, sizeof(*pi));
	snprintf(fn, sizeof(fn), "/proc/%d/comm", (int)pid);
	err = read_small(fn, buf, sizeof(buf));
	if (err)
		return err;
	buf[strcspn(buf, "\n")] = '\0';
	buf[sizeof(pi->comm) - 1] = '\0';	/* the kernel's comm fits; a longer read is cut */
	memcpy(pi->comm, buf, sizeof(pi->comm));
	snprintf(fn, sizeof(fn), "/proc/%d/exe", (int)pid);
	n = readlink(fn, pi->exe, sizeof(pi->exe) - 1);
	pi->exe[n > 0 ? n : 0] = '\0';
	snprintf(fn, sizeof(fn), "/proc/%d/cgroup", (int)pid);
	if (!read_small(fn, buf, sizeof(buf)))
		proc_cgroup_pick(buf, pi->cgroup, sizeof(pi->cgroup));
	proc_cgroup_ids(pi->cgroup, pi->container, pi->pod);
	return 0;
}
