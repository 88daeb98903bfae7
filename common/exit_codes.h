/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The exit codes of every ebpf-collect subcommand (documented in
 * collector/ebpf-collect.8 and README.md). */
#ifndef EBPF_COLLECT_EXIT_CODES_H
#define EBPF_COLLECT_EXIT_CODES_H

#define EXIT_OK		0
#define EXIT_FAIL	1	/* runtime failure */
#define EXIT_NO_PROCESS	2	/* collect: a -p PID does not exist */
#define EXIT_NO_PROBES	3	/* collect: the targets have no (matching) runtime probes */
#define EXIT_NO_PRIV	4	/* collect: missing root / capabilities */
#define EXIT_NO_KERNEL	5	/* collect: kernel lacks BTF or BPF ring buffers */
#define EXIT_OUTPUT	6	/* collect: cannot create the output file */
#define EXIT_STREAM_CUT	7	/* collect: an EventPipe stream ended mid-block (file kept) */
#define EXIT_USAGE	64	/* bad command line (argp's default) */

#endif
