// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * eventsource.c - an EventSource-style custom event: USDT probe
 * RefAppEventSource:WorkItem.
 *
 * Manifest probes carry a serialized payload whose layout the collector
 * knows from the manifest; an EventSource event instead describes itself.
 * The generic-USDT path reads it from the probe's own arguments, whose
 * sizes are in the ELF note (sdt.h argument specs), so the event needs no
 * manifest.  Arguments (documented in README.md):
 *
 *	arg0 u64    ItemId      process-wide sequence number, from 1
 *	arg1 u32    WorkerIndex thread-pool worker index (0-based)
 *	arg2 u64    Iteration   the worker's operation number (0-based)
 *	arg3 char*  Scenario    NUL-terminated ASCII, e.g. "cpu"
 *	arg4 u64    Result      the value RunIteration computed (checksum)
 *	arg5 u64    ElapsedNs   duration of the operation, CLOCK_MONOTONIC ns
 *
 * The probe has a semaphore (refrt only builds the arguments when a tracer
 * is attached) and, like the generated provider, a 5-byte nop site
 * (architecture decision 12).
 */
#include <stdatomic.h>
#include <stdint.h>

#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#undef _SDT_NOP
#define _SDT_NOP .nops 5

#include "events.h"
#include "refrt.h"

static struct refrt *rt;	/* the runtime, from this part's init */

unsigned short RefAppEventSource_WorkItem_semaphore __attribute__((section(".probes")));
static atomic_ullong work_item_count;
static atomic_ullong work_item_seq;

void ev_work_item(uint32_t worker, uint64_t iteration, uint64_t result, uint64_t elapsed_ns)
{
	const char *scenario;
	uint64_t item;

	if (!__builtin_expect(*(volatile unsigned short *)&RefAppEventSource_WorkItem_semaphore, 0))
		return;
	scenario = rt_scenario_name(rt->env.scenario);
	item = atomic_fetch_add(&work_item_seq, 1) + 1;
	STAP_PROBE6(RefAppEventSource, WorkItem, item, worker, iteration, scenario, result,
		    elapsed_ns);
	atomic_fetch_add_explicit(&work_item_count, 1, memory_order_relaxed);
}

uint64_t eventsource__count(void)
{
	return atomic_load(&work_item_count);
}

void eventsource__init(struct refrt *r)
{
	rt = r;
}
