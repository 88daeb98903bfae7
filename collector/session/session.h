/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The tracing session: from the options in struct env (collector.h, set by
 * the command line or the daemon's config) to the end of its last file.
 * Both return exit codes (exit_codes.h). */
#ifndef EBPF_COLLECT_SESSION_H
#define EBPF_COLLECT_SESSION_H

#include "exit_codes.h"

/* Run the session the options describe (or -l's listing). */
int session__main(void);
/* Only the checks session__main makes before it opens or attaches anything
 * (event table, selection, privileges, kernel, pids): 0 or the exit code
 * session__main would return. */
int session__check(void);

#endif
