// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * symtool - the symbolizer and the views on the command line, for tests and
 * debugging, without the collector:
 *   symtool [symbolize] -p PID ADDR...   = ebpf-collect symbolize
 *   symtool report FILE ...              = ebpf-collect report
 *   symtool convert FILE ...             = ebpf-collect convert
 */
#include <string.h>
#include "commands.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "convert"))
		return convert_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "symbolize"))
		return symbolize_main(argc - 1, argv + 1, NULL);
	return symbolize_main(argc, argv, NULL);
}
