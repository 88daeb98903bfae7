/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * proc_stat.h - one numeric field of /proc/PID/stat (proc(5) numbering:
 * 1 pid, 3 state, 14 utime, 15 stime, 22 starttime; counted after the
 * command name, which may hold spaces and parentheses).
 */
#ifndef EC_COMMON_PROC_STAT_H
#define EC_COMMON_PROC_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The field as a number; 0 if the process or the field is not there. */
uint64_t proc_stat_field(pid_t pid, int field);

/* Whether a file (its stat) was last written before the process started:
 * a file named after a pid that an earlier process of the same pid left
 * (pids come round: /tmp holds the perf maps of many dead processes).
 * Start times count in clock ticks, so a second of slack; false when the
 * process is gone or the clocks cannot be read. */
bool proc_predates(pid_t pid, const struct stat *st);

#endif
