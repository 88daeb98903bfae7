// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * testlib.c - a shared library with one runtime-style USDT probe
 * (DotNETRuntime:GCEnd_V1, semaphore, 5-byte nop), dlopen()ed by
 * usdt_testprog -L: the collector must find probes in libraries a process
 * maps after tracing started, as with libcoreclr.so.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#undef _SDT_NOP
#define _SDT_NOP .nops 5
#include <stdint.h>
#include <string.h>

__extension__ unsigned short DotNETRuntime_GCEnd_V1_semaphore
	__attribute__((unused)) __attribute__((section(".probes")));

/* Fires GCEnd_V1 {Count = n, Depth = 1, ClrInstanceID = 7}; 1 if enabled. */
int testlib_fire(uint32_t n, uint8_t *buf)
{
	uint32_t depth = 1, len = 10;
	uint16_t inst = 7;

	if (!DotNETRuntime_GCEnd_V1_semaphore)
		return 0;
	memcpy(buf, &n, 4);
	memcpy(buf + 4, &depth, 4);
	memcpy(buf + 8, &inst, 2);
	__asm__ volatile("" : "+r"(len));
	STAP_PROBE4(DotNETRuntime, GCEnd_V1, buf, len, 0, 0);
	return 1;
}
