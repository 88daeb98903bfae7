// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_attach_target.c - the idle process of the attach-time bench
 * (scripts/bench-tracers.sh): linked with the provider generated
 * from the full ClrEtwAll.man (430 probes), it calls every FireEtXplat once
 * (clretw_caller.c's main, renamed caller_main; nothing attached, so each is
 * a semaphore check) and then waits for a signal while a tracer attaches to
 * and detaches from all its probes.
 */
#include <unistd.h>

int caller_main(int argc, char **argv);

int main(int argc, char **argv)
{
	(void)argc;
	caller_main(1, argv);
	for (;;)
		pause();
}
