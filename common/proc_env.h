/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * proc_env.h - a variable of another process's environment as it was at
 * its exec (/proc/PID/environ: NAME=VALUE entries, each ending in a NUL).
 */
#ifndef EC_COMMON_PROC_ENV_H
#define EC_COMMON_PROC_ENV_H

#include <stddef.h>
#include <sys/types.h>

/* The value of pid's first NAME= entry, into val (cut to len - 1 bytes).
 * 0; -ENOENT when it is not set or there is no such process; open(2)'s
 * -errno otherwise (-EACCES: not ours to read); -ENOMEM. */
int proc_env_get(pid_t pid, const char *name, char *val, size_t len);

#endif /* EC_COMMON_PROC_ENV_H */
