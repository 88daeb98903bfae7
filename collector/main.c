// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ebpf-collect: subcommand dispatch.
 *
 *   ebpf-collect [collect] -p PID ...     trace (collector/session/session.c)
 *   ebpf-collect dump FILE [--json]       print a .nettrace (views/dump.c)
 *   ebpf-collect report FILE              top methods, GC pauses, exceptions (views/report.c)
 *   ebpf-collect convert FILE --format F  folded, speedscope, flame-graph SVG, pprof, chromium (views/)
 *   ebpf-collect symbolize -p PID ADDR... name addresses of a live process (views/)
 *   ebpf-collect split FILE DIR           one V5 file per process (views/split.c)
 *   ebpf-collect fleet --clickhouse URL   fleet flame graph and top methods (views/fleet.c)
 *   ebpf-collect daemon [--config FILE]   always on, for a node (collector/daemon.c)
 *
 * Exit codes (all subcommands): 0 success, 1 runtime failure, 64 usage.
 */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "own_events.h"

int main(int argc, char **argv)
{
	if (argc > 1) {
		if (!strcmp(argv[1], "dump"))
			return dump_main(argc - 1, argv + 1);
		if (!strcmp(argv[1], "report"))
			return report_main(argc - 1, argv + 1);
		if (!strcmp(argv[1], "convert"))
			return convert_main(argc - 1, argv + 1);
		if (!strcmp(argv[1], "split"))
			return split_main(argc - 1, argv + 1, &own_split_opts,
					  &own_split_opts_all);
		if (!strcmp(argv[1], "fleet"))
			return fleet_main(argc - 1, argv + 1);
		if (!strcmp(argv[1], "symbolize"))
			return symbolize_main(argc - 1, argv + 1, &own_split_opts);
		if (!strcmp(argv[1], "daemon"))
			return daemon_main(argc - 1, argv + 1);
		if (!strcmp(argv[1], "collect"))
			return collect_main(argc - 1, argv + 1);
	}
	return collect_main(argc, argv);
}
