/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Subcommand entry points of the ebpf-collect binary.  Each takes argv with
 * argv[0] = the subcommand name and returns the process exit code. */
#ifndef EBPF_COLLECT_COMMANDS_H
#define EBPF_COLLECT_COMMANDS_H

#define EXIT_OK		0
#define EXIT_FAIL	1	/* runtime failure */
#define EXIT_USAGE	64	/* bad command line (argp's default) */

int collect_main(int argc, char **argv);	/* collector/ebpf-collect.c */
int dump_main(int argc, char **argv);		/* symbolizer/dump.c */

#endif
