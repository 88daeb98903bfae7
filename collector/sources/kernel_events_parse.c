// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kernel_events_parse.c - the --kernel group list and the --cpu-sampling
 * rate, checked before anything is opened, and syscall names by number.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel_events.h"
#include "syscall_names.h"	/* generated from <asm/unistd.h> */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

int kernel_events__parse_groups(const char *spec, unsigned int *groups, char *err,
				size_t err_len)
{
	char *dup = strdup(spec), *tok, *save = NULL;
	unsigned int g = 0;
	int rc = 0;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "sched"))
			g |= KE_GROUP_SCHED;
		else if (!strcmp(tok, "syscalls") || !strcmp(tok, "syscall"))
			g |= KE_GROUP_SYSCALLS;
		else if (!strcmp(tok, "proc") || !strcmp(tok, "process"))
			g |= KE_GROUP_PROC;
		else if (!strcmp(tok, "all"))
			g |= KE_GROUP_SCHED | KE_GROUP_SYSCALLS | KE_GROUP_PROC;
		else if (strcmp(tok, "none")) {
			snprintf(err, err_len, "unknown kernel event group '%s' (sched, syscalls, "
				 "proc, all, none)", tok);
			rc = -EINVAL;
			break;
		}
	}
	free(dup);
	if (!rc)
		*groups = g;
	return rc;
}

int kernel_events__parse_hz(const char *arg, unsigned int *hz)
{
	unsigned long v;
	char *end;

	if (!arg) {
		*hz = KE_DEFAULT_HZ;
		return 0;
	}
	if (*arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || *end || v < 1 || v > KE_MAX_HZ)
		return -EINVAL;
	*hz = v;
	return 0;
}

int kernel_events__profile(const char *name, unsigned int *groups, unsigned int *hz,
			   const char **clr_profile)
{
	*clr_profile = name;
	if (!strcmp(name, "cpu-sampling")) {
		*groups |= KE_GROUP_PROC;
		*hz = KE_DEFAULT_HZ;
		*clr_profile = "default";
		return 1;
	}
	if (!strcmp(name, "contention")) {
		*groups |= KE_GROUP_SCHED;
		return 1;
	}
	return 0;
}

const char *ke_syscall_name(unsigned int nr)
{
	if (nr >= ARRAY_SIZE(ke_syscall_names))
		return NULL;
	return ke_syscall_names[nr];
}
