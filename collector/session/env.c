// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * env.c - what every part of a session reads and none owns: its options
 * (struct env: the command line, cli.c, or the daemon's config sets them
 * before session__main runs) and the count of stop signals.
 */
#include <signal.h>
#include "collector.h"

struct env env = {
	.output = "trace.nettrace",
	.buffer_mb = DEFAULT_BUFFER_MB,
};

/* SIGINT/SIGTERM seen (session.c); one more during the stop cuts what is
 * still awaited */
volatile sig_atomic_t exiting;
