/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Subcommand entry points of the ebpf-collect binary.  Each takes argv with
 * argv[0] = the subcommand name and returns the process exit code. */
#ifndef EBPF_COLLECT_COMMANDS_H
#define EBPF_COLLECT_COMMANDS_H

#include "exit_codes.h"
#include "session.h"	/* collect */
#include "views.h"	/* dump, report, convert, symbolize, split, fleet */

int daemon_main(int argc, char **argv);		/* collector/daemon.c: always on, SIGHUP reloads */

#endif
