// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nettrace-dump: stand-alone `dump` for testing the nettrace library before
 * (or without) the ebpf-collect binary.  Same options and exit codes as
 * `ebpf-collect dump`.
 */
#include "views.h"

int main(int argc, char **argv)
{
	return dump_main(argc, argv);
}
