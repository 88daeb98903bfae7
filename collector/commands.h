/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Subcommand entry points of the ebpf-collect binary.  Each takes argv with
 * argv[0] = the subcommand name and returns the process exit code. */
#ifndef EBPF_COLLECT_COMMANDS_H
#define EBPF_COLLECT_COMMANDS_H

#include "exit_codes.h"
#include "views.h"	/* dump, report, convert, symbolize, split, fleet */

/* collect: the options (cli.c), then the session (session/session.h) */
int collect_main(int argc, char **argv);
/* Only the checks collect_main makes before it opens or attaches anything
 * (options, event table, selection, privileges, kernel, pids): 0 or the
 * exit code collect_main would return.  A bad option value ends the process
 * (argp), so the caller runs it in a child of its own (daemon.c, before a
 * reload). */
int collect_check(int argc, char **argv);
/* The argv index of the option cli.c is reading (its last element) when it
 * reports a bad value; 0 for the checks of the options together.  `daemon`
 * names the config line of an error with it. */
extern int cli_arg_index;

int daemon_main(int argc, char **argv);		/* collector/daemon.c: always on, SIGHUP reloads */

#endif
