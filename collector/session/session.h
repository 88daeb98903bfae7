/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The tracing session: `ebpf-collect collect` from its options to the end
 * of its last file.  Returns exit codes (exit_codes.h). */
#ifndef EBPF_COLLECT_SESSION_H
#define EBPF_COLLECT_SESSION_H

#include "exit_codes.h"

int collect_main(int argc, char **argv);
/* Only the checks collect_main makes before it opens or attaches anything
 * (options, event table, selection, privileges, kernel, pids): 0 or the
 * exit code collect_main would return.  A bad option value exits (argp). */
int collect_check(int argc, char **argv);

#endif
