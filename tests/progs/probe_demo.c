// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * probe_demo.c - a tiny "runtime" for tests/usdt_probe.bats.
 *
 * Fires GCStart_V2 and MethodLoadVerbose_V2 with fixed, known arguments
 * every millisecond and, every 20 ms, prints one status line:
 *
 *   tick N enabled GCSTART METHODLOAD fired F serialized S
 *
 * enabled: the two EventXplatEnabled*() results (the USDT semaphores);
 * fired: how many FireEtXplat calls found their semaphore raised;
 * serialized: how many payloads the provider actually built and passed to
 * its probe, counted by the provider's test hook.
 *
 * Two builds (usdt/build.mk):
 *   usdt_demo       linked with $(PROVIDER_OBJS) exactly like a runtime, so a
 *                   tracer sees the production probes; serialized prints -1
 *   usdt_demo_hook  -DDEMO_HOOK, linked with the provider built with
 *                   -DCLRETW_TEST_HOOK=test_capture, which counts serialized
 *
 * Usage: usdt_demo [SECONDS]   (default 30; exits after that)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clretw_provider.h"

static long serialized = -1;

#ifdef DEMO_HOOK
void test_capture(const char *provider, const char *symbol, const void *payload,
		  unsigned int len, const GUID *activity, const GUID *related);

void test_capture(const char *provider, const char *symbol, const void *payload,
		  unsigned int len, const GUID *activity, const GUID *related)
{
	(void)provider; (void)symbol; (void)payload; (void)len; (void)activity; (void)related;
	serialized++;
}
#endif

int main(int argc, char **argv)
{
	static const GUID act = { 0x01020304, 0x0506, 0x0708,
				  { 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 } };
	const struct timespec ms = { 0, 1000000 };
	long seconds = argc > 1 ? strtol(argv[1], NULL, 10) : 30;
	unsigned long fired = 0;
	long tick;

#ifdef DEMO_HOOK
	serialized = 0;
#endif
	EventXplatSetActivityId(&act, NULL);
	for (tick = 0; tick < seconds * 1000; tick++) {
		fired += EventXplatEnabledGCStart_V2();
		FireEtXplatGCStart_V2(42, 2, 1, 0, 7, 0x0102030405060708ULL);
		fired += EventXplatEnabledMethodLoadVerbose_V2();
		FireEtXplatMethodLoadVerbose_V2(0x11, 0x22, 0x7f00001000ULL, 64, 0x06000001, 8,
						u"Demo", u"M\u00e9", u"void ()", 5, 0);
		if (tick % 20 == 0) {
			printf("tick %ld enabled %d %d fired %lu serialized %ld\n", tick,
			       EventXplatEnabledGCStart_V2(), EventXplatEnabledMethodLoadVerbose_V2(),
			       fired, serialized);
			fflush(stdout);
		}
		nanosleep(&ms, NULL);
	}
	return 0;
}
