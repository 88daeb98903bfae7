/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Subcommand entry points of the ebpf-collect binary.  Each takes argv with
 * argv[0] = the subcommand name and returns the process exit code. */
#ifndef EBPF_COLLECT_COMMANDS_H
#define EBPF_COLLECT_COMMANDS_H

#define EXIT_OK		0
#define EXIT_FAIL	1	/* runtime failure */
#define EXIT_NO_PROCESS	2	/* collect: a -p PID does not exist */
#define EXIT_NO_PROBES	3	/* collect: the targets have no (matching) runtime probes */
#define EXIT_NO_PRIV	4	/* collect: missing root / capabilities */
#define EXIT_NO_KERNEL	5	/* collect: kernel lacks BTF or BPF ring buffers */
#define EXIT_OUTPUT	6	/* collect: cannot create the output file */
#define EXIT_STREAM_CUT	7	/* collect: an EventPipe stream ended mid-block (file kept) */
#define EXIT_USAGE	64	/* bad command line (argp's default) */

int collect_main(int argc, char **argv);	/* collector/ebpf-collect.c */
/* Only the checks collect_main makes before it opens or attaches anything
 * (options, event table, selection, privileges, kernel, pids): 0 or the
 * exit code collect_main would return.  A bad option value exits (argp). */
int collect_check(int argc, char **argv);
int dump_main(int argc, char **argv);		/* collector/views/dump.c */
int report_main(int argc, char **argv);		/* collector/views/report.c */
int convert_main(int argc, char **argv);	/* collector/views/convert.c */
int symbolize_main(int argc, char **argv);	/* collector/views/symbolize_cmd.c */
int split_main(int argc, char **argv);		/* collector/views/split.c */
int fleet_main(int argc, char **argv);		/* collector/views/fleet.c */
int daemon_main(int argc, char **argv);		/* collector/daemon.c: always on, SIGHUP reloads */

#endif
