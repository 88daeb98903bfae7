/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The subcommands over a trace or the fleet's tables.  Each takes argv with
 * argv[0] = the subcommand name and returns an exit code (exit_codes.h). */
#ifndef EBPF_COLLECT_VIEWS_H
#define EBPF_COLLECT_VIEWS_H

#include "exit_codes.h"

struct nt_split_opts;

int dump_main(int argc, char **argv);		/* views/dump.c */
int report_main(int argc, char **argv);		/* views/report.c */
int convert_main(int argc, char **argv);	/* views/convert.c */
/* views/symbolize_cmd.c; opts: as split_main's, for `symbolize TRACE DIR` */
int symbolize_main(int argc, char **argv, const struct nt_split_opts *opts);
/* views/symbolize_trace.c: TRACE's frames named again into DIR */
int symbolize_trace_main(const char *trace, const char *dir, const char *symbols,
			 const struct nt_split_opts *opts);
/* views/split.c; opts: what the caller's traces hold of its own events */
/* opts, or with --all-processes all */
int split_main(int argc, char **argv, const struct nt_split_opts *opts,
	       const struct nt_split_opts *all);
int fleet_main(int argc, char **argv);		/* views/fleet.c */

#endif
