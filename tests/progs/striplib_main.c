// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * striplib_main.c - striplib_prog MS: runs libstriplib.so's busy functions
 * for MS milliseconds (tests/native_names.bats).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t striplib_run(unsigned int ms);

int main(int argc, char **argv)
{
	unsigned int ms = argc > 1 ? (unsigned int)atoi(argv[1]) : 1000;

	printf("%llu\n", (unsigned long long)striplib_run(ms));
	return 0;
}
