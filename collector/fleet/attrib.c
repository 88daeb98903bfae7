// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * attrib.c - who a pid is, for the fleet outputs (attrib.h): a cache of
 * /proc reads by pid, and the service each process is labelled with.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "proc_env.h"
#include "u64_map.h"
#include "attrib.h"

struct attrib {
	struct attrib_opts o;
	struct proc_attr **v;
	size_t n, cap;
	struct u64_map by_pid;		/* pid -> index + 1 in v */
	struct proc_attr none;		/* what ENOMEM gets */
};

int attrib_opts__parse(const char *arg, struct attrib_opts *o)
{
	if (!strcmp(arg, "cgroup"))
		o->from = SERVICE_CGROUP;
	else if (!strcmp(arg, "comm"))
		o->from = SERVICE_COMM;
	else if (!strncmp(arg, "env:", 4) && arg[4] && !strchr(arg + 4, '='))
		o->from = SERVICE_ENV, o->env_name = arg + 4;
	else
		return -EINVAL;
	return 0;
}

struct attrib *attrib__new(const struct attrib_opts *o)
{
	struct attrib *a = calloc(1, sizeof(*a));

	if (a && o)
		a->o = *o;
	return a;
}

void attrib__free(struct attrib *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	u64_map__free(&a->by_pid);
	free(a);
}

/* The cgroup path's last component without its systemd unit suffix. */
static void cgroup_leaf(const char *path, char *out, size_t len)
{
	const char *leaf = strrchr(path, '/');
	size_t n;

	leaf = leaf ? leaf + 1 : path;
	n = strlen(leaf);
	if (n > 6 && (!strcmp(leaf + n - 6, ".scope") || !strcmp(leaf + n - 6, ".slice")))
		n -= 6;
	else if (n > 8 && !strcmp(leaf + n - 8, ".service"))
		n -= 8;
	snprintf(out, len, "%.*s", (int)n, leaf);
}

static void derive_service(const struct attrib_opts *o, struct proc_attr *p)
{
	int err = -ENOENT;

	p->service[0] = '\0';
	switch (o->from) {
	case SERVICE_FIXED:
		break;
	case SERVICE_CGROUP:
		if (p->pi.container[0])
			snprintf(p->service, sizeof(p->service), "%.12s", p->pi.container);
		else if (p->pi.cgroup[0] && strcmp(p->pi.cgroup, "/"))
			cgroup_leaf(p->pi.cgroup, p->service, sizeof(p->service));
		break;
	case SERVICE_COMM:
		snprintf(p->service, sizeof(p->service), "%s", p->pi.comm);
		break;
	case SERVICE_ENV:
		err = proc_env_get(p->pid, o->env_name, p->service, sizeof(p->service));
		if (err)
			p->service[0] = '\0';
		break;
	}
	if (!p->service[0] && o->service)
		snprintf(p->service, sizeof(p->service), "%s", o->service);
}

const struct proc_attr *attrib__get(struct attrib *a, pid_t pid)
{
	struct u64_map_ent *e;
	struct proc_attr *p;

	if (u64_map__get(&a->by_pid, (uint64_t)pid, &e))
		return &a->none;
	if (e->val) {
		a->v[e->val - 1]->used = 1;
		return a->v[e->val - 1];
	}
	p = calloc(1, sizeof(*p));
	if (!p || GROW(a->v, a->cap, a->n + 1)) {
		free(p);
		a->by_pid.used--, e->used = 0;	/* an entry with no process: undone */
		return &a->none;
	}
	p->pid = pid;
	p->used = 1;
	proc_info_read(pid, &p->pi);
	derive_service(&a->o, p);
	a->v[a->n++] = p;
	e->val = a->n;
	return p;
}

void attrib__exec(struct attrib *a, pid_t pid, const char *comm, const char *exe)
{
	struct u64_map_ent *e = u64_map__find(&a->by_pid, (uint64_t)pid);
	struct proc_attr *p;

	if (!e) {	/* first seen now: read as any first sight */
		p = (struct proc_attr *)attrib__get(a, pid);
		if (p == &a->none || p->pi.comm[0])
			return;
	} else {
		p = a->v[e->val - 1];
		if (!proc_info_read(pid, &p->pi))
			goto derive;
	}
	snprintf(p->pi.comm, sizeof(p->pi.comm), "%s", comm);
	snprintf(p->pi.exe, sizeof(p->pi.exe), "%s", exe);
derive:
	derive_service(&a->o, p);
}

void attrib__sweep(struct attrib *a)
{
	struct u64_map_ent *e;
	size_t i, k = 0;

	u64_map__clear(&a->by_pid);
	for (i = 0; i < a->n; i++) {
		struct proc_attr *p = a->v[i];

		if (!p->used) {
			free(p);
			continue;
		}
		p->used = 0;
		a->v[k++] = p;
		if (!u64_map__get(&a->by_pid, (uint64_t)p->pid, &e))
			e->val = k;
	}
	a->n = k;
}
