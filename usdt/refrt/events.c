// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * events.c - the thin layer between refrt and the generated provider.
 *
 * This is the only file that includes clretw_provider.h.  Every event refrt
 * can fire is listed once in EV_LIST; the list gives the enum used for the
 * counters, the probe's EventXplatEnabled function and the name printed in
 * the summary (the manifest symbol, which is also the USDT probe name).
 *
 * An event counts when the check that decides to fire it passed (semaphore
 * set, tracer pause word 0): FIRE() makes that one check and calls the
 * probe's fire function itself.  (FireEtXplat would check again after the
 * caller's EventXplatEnabled; while a tracer attaches or detaches the two
 * checks can disagree, and counting on the first counted events that never
 * reached the probe.)
 *
 * Where CoreCLR chooses between versions of an event, so do we: the verbose
 * method load if its probe is enabled, else the terse one; the V2 method
 * rundown if enabled, else V1.
 */
#include <stdatomic.h>
#include <string.h>
#include <uchar.h>

#include "clretw_provider.h"
#include "events.h"
#include "refrt.h"

static struct refrt *rt;	/* the runtime, from this part's init */

#define EV_LIST(X)				\
	X(RuntimeInformationStart)		\
	X(AppDomainLoad_V1)			\
	X(ThreadCreated)			\
	X(ThreadTerminated)			\
	X(AssemblyLoad_V1)			\
	X(AssemblyUnload_V1)			\
	X(ModuleLoad_V2)			\
	X(ModuleUnload_V2)			\
	X(DomainModuleLoad_V1)			\
	X(MethodJittingStarted_V1)		\
	X(MethodLoadVerbose_V2)			\
	X(MethodLoad_V2)			\
	X(MethodUnloadVerbose_V2)		\
	X(MethodUnload_V2)			\
	X(MethodILToNativeMap)			\
	X(GCTriggered)				\
	X(GCSuspendEEBegin_V1)			\
	X(GCSuspendEEEnd_V1)			\
	X(GCStart_V2)				\
	X(GCEnd_V1)				\
	X(GCHeapStats_V2)			\
	X(GCGlobalHeapHistory_V3)		\
	X(GCRestartEEBegin_V1)			\
	X(GCRestartEEEnd_V1)			\
	X(GCAllocationTick_V3)			\
	X(ExceptionThrown_V1)			\
	X(ExceptionCatchStart)			\
	X(ExceptionCatchStop)			\
	X(ExceptionFilterStart)			\
	X(ExceptionFilterStop)			\
	X(ExceptionFinallyStart)		\
	X(ExceptionFinallyStop)			\
	X(ContentionStart_V1)			\
	X(ContentionStop_V1)			\
	X(ThreadPoolWorkerThreadStart)		\
	X(ThreadPoolWorkerThreadStop)		\
	X(ThreadPoolWorkerThreadAdjustmentSample) \
	X(ThreadPoolWorkerThreadAdjustmentAdjustment) \
	X(DCStartInit_V1)			\
	X(DCStartComplete_V1)			\
	X(DCEndInit_V1)				\
	X(DCEndComplete_V1)			\
	X(RuntimeInformationDCStart)		\
	X(AppDomainDCStart_V1)			\
	X(AppDomainDCEnd_V1)			\
	X(AssemblyDCStart_V1)			\
	X(AssemblyDCEnd_V1)			\
	X(ModuleDCStart_V2)			\
	X(ModuleDCEnd_V2)			\
	X(DomainModuleDCStart_V1)		\
	X(DomainModuleDCEnd_V1)			\
	X(MethodDCStartVerbose_V2)		\
	X(MethodDCStartVerbose_V1)		\
	X(MethodDCEndVerbose_V2)		\
	X(MethodDCEndVerbose_V1)		\
	X(MethodDCStartILToNativeMap)		\
	X(MethodDCEndILToNativeMap)

#define EV_ENUM(s) EV_##s,
enum { EV_LIST(EV_ENUM) EV__COUNT };

#define EV_NAME(s) #s,
static const char *const ev_names[EV__COUNT] = { EV_LIST(EV_NAME) };

#define EV_FN(s) EventXplatEnabled##s,
static BOOL (*const ev_enabled_fn[EV__COUNT])(void) = { EV_LIST(EV_FN) };

static atomic_ullong ev_counts[EV__COUNT];

#define ON(s) EventXplatEnabled##s()
#define FIRE(s, ...) do {					\
		if (ON(s) && clretw__fire_##s(__VA_ARGS__) == ERROR_SUCCESS) \
			atomic_fetch_add_explicit(&ev_counts[EV_##s], 1, \
						  memory_order_relaxed); \
	} while (0)

/* UTF-16 copies of our ASCII strings, on the caller's stack */
struct w {
	char16_t s[400];
};

static struct w wstr(const char *src)
{
	struct w w;
	size_t i = 0;

	for (; src && src[i] && i < sizeof(w.s) / sizeof(w.s[0]) - 1; i++)
		w.s[i] = (unsigned char)src[i];
	w.s[i] = 0;
	return w;
}

static const GUID zero_guid;

/* ---- runtime, domain, threads ----------------------------------------- */

void ev_runtime_information(bool rundown)
{
	static const GUID com_guid;
	char cmd[300];
	struct w wcmd, wdll;

	if (!(rundown ? ON(RuntimeInformationDCStart) : ON(RuntimeInformationStart)))
		return;
	snprintf(cmd, sizeof(cmd), "refrt --scenario %s --threads %d",
		 rt_scenario_name(rt->env.scenario), rt->env.threads);
	wcmd = wstr(cmd);
	wdll = wstr("/proc/self/exe");
	/* Sku 2 = CoreCLR; version 8.0.0.0; StartupMode 1 = managed exe */
	if (rundown)
		FIRE(RuntimeInformationDCStart, CLR_INSTANCE_ID, 2, 8, 0, 0, 0, 8, 0, 0, 0, 0, 1,
		     wcmd.s, &com_guid, wdll.s);
	else
		FIRE(RuntimeInformationStart, CLR_INSTANCE_ID, 2, 8, 0, 0, 0, 8, 0, 0, 0, 0, 1,
		     wcmd.s, &com_guid, wdll.s);
}

static void appdomain(int which)
{
	struct w name = wstr("clrhost");

	/* flags 0x1 = default domain; index 1 */
	switch (which) {
	case 0:
		if (ON(AppDomainLoad_V1))
			FIRE(AppDomainLoad_V1, rt->appdomain_id, 1, name.s, 1, CLR_INSTANCE_ID);
		break;
	case 1:
		if (ON(AppDomainDCStart_V1))
			FIRE(AppDomainDCStart_V1, rt->appdomain_id, 1, name.s, 1, CLR_INSTANCE_ID);
		break;
	default:
		if (ON(AppDomainDCEnd_V1))
			FIRE(AppDomainDCEnd_V1, rt->appdomain_id, 1, name.s, 1, CLR_INSTANCE_ID);
		break;
	}
}

void ev_appdomain_load(void)
{
	appdomain(0);
}

void ev_rundown_appdomain(bool start)
{
	appdomain(start ? 1 : 2);
}

void ev_thread_created(const struct rt_thread *t)
{
	if (ON(ThreadCreated))	/* Flags 0x1: thread pool worker (0 for main) */
		FIRE(ThreadCreated, t->managed_id, rt->appdomain_id, t->index >= 0 ? 0x1 : 0,
		     t->managed_index, (unsigned int)t->tid, CLR_INSTANCE_ID);
}

void ev_thread_terminated(const struct rt_thread *t)
{
	if (ON(ThreadTerminated))
		FIRE(ThreadTerminated, t->managed_id, rt->appdomain_id, CLR_INSTANCE_ID);
}

/* ---- loader ------------------------------------------------------------- */

static uint32_t assembly_flags(const struct rt_assembly *a)
{
	return a->collectible ? 0x8 : 0;
}

void ev_assembly_load(const struct rt_assembly *a, bool unload)
{
	struct w name;

	if (!(unload ? ON(AssemblyUnload_V1) : ON(AssemblyLoad_V1)))
		return;
	name = wstr(a->full_name);
	if (unload)
		FIRE(AssemblyUnload_V1, a->id, rt->appdomain_id, a->id, assembly_flags(a), name.s,
		     CLR_INSTANCE_ID);
	else
		FIRE(AssemblyLoad_V1, a->id, rt->appdomain_id, a->id, assembly_flags(a), name.s,
		     CLR_INSTANCE_ID);
}

void ev_rundown_assembly(const struct rt_assembly *a, bool start)
{
	struct w name;

	if (!(start ? ON(AssemblyDCStart_V1) : ON(AssemblyDCEnd_V1)))
		return;
	name = wstr(a->full_name);
	if (start)
		FIRE(AssemblyDCStart_V1, a->id, rt->appdomain_id, a->id, assembly_flags(a), name.s,
		     CLR_INSTANCE_ID);
	else
		FIRE(AssemblyDCEnd_V1, a->id, rt->appdomain_id, a->id, assembly_flags(a), name.s,
		     CLR_INSTANCE_ID);
}

/* which: 0 load, 1 unload, 2 DCStart, 3 DCEnd */
static void module_event(const struct rt_assembly *a, int which)
{
	struct w il = wstr(a->path), native = wstr(""), pdb;
	char pdb_path[300];
	GUID sig;
	const uint32_t flags = 0x8;	/* manifest module */

	snprintf(pdb_path, sizeof(pdb_path), "%.*s.pdb", (int)strlen(a->path) - 4, a->path);
	pdb = wstr(pdb_path);
	memcpy(&sig, a->mvid, sizeof(sig));
	switch (which) {
	case 0:
		if (ON(ModuleLoad_V2))
			FIRE(ModuleLoad_V2, a->module_id, a->id, flags, 0, il.s, native.s,
			     CLR_INSTANCE_ID, &sig, 1, pdb.s, &zero_guid, 0, native.s);
		if (ON(DomainModuleLoad_V1))
			FIRE(DomainModuleLoad_V1, a->module_id, a->id, rt->appdomain_id, flags, 0,
			     il.s, native.s, CLR_INSTANCE_ID);
		break;
	case 1:
		if (ON(ModuleUnload_V2))
			FIRE(ModuleUnload_V2, a->module_id, a->id, flags, 0, il.s, native.s,
			     CLR_INSTANCE_ID, &sig, 1, pdb.s, &zero_guid, 0, native.s);
		break;
	case 2:
		if (ON(ModuleDCStart_V2))
			FIRE(ModuleDCStart_V2, a->module_id, a->id, flags, 0, il.s, native.s,
			     CLR_INSTANCE_ID, &sig, 1, pdb.s, &zero_guid, 0, native.s);
		if (ON(DomainModuleDCStart_V1))
			FIRE(DomainModuleDCStart_V1, a->module_id, a->id, rt->appdomain_id, flags, 0,
			     il.s, native.s, CLR_INSTANCE_ID);
		break;
	default:
		if (ON(ModuleDCEnd_V2))
			FIRE(ModuleDCEnd_V2, a->module_id, a->id, flags, 0, il.s, native.s,
			     CLR_INSTANCE_ID, &sig, 1, pdb.s, &zero_guid, 0, native.s);
		if (ON(DomainModuleDCEnd_V1))
			FIRE(DomainModuleDCEnd_V1, a->module_id, a->id, rt->appdomain_id, flags, 0,
			     il.s, native.s, CLR_INSTANCE_ID);
		break;
	}
}

void ev_module_load(const struct rt_assembly *a, bool unload)
{
	module_event(a, unload ? 1 : 0);
}

void ev_rundown_module(const struct rt_assembly *a, bool start)
{
	module_event(a, start ? 2 : 3);
}

/* ---- methods ------------------------------------------------------------ */

void ev_method_jitting_started(const struct rt_method *m)
{
	struct w ns, name, sig;

	if (!ON(MethodJittingStarted_V1))
		return;
	ns = wstr(m->ns);
	name = wstr(m->name);
	sig = wstr(m->sig);
	FIRE(MethodJittingStarted_V1, m->id, m->assembly->module_id, m->token, m->il_size,
	     ns.s, name.s, sig.s, CLR_INSTANCE_ID);
}

/* which: 0 load, 1 unload, 2 DCStart, 3 DCEnd */
static void method_event(const struct rt_code *c, int which)
{
	const struct rt_method *m = c->method;
	struct w ns = wstr(m->ns), name = wstr(m->name), sig = wstr(m->sig);
	uint64_t mod = m->assembly->module_id, start = (uint64_t)(uintptr_t)c->start;

#define VERBOSE_ARGS m->id, mod, start, c->size, m->token, c->flags, ns.s, name.s, sig.s
#define TERSE_ARGS m->id, mod, start, c->size, m->token, c->flags, CLR_INSTANCE_ID, 0
	switch (which) {
	case 0:
		if (ON(MethodLoadVerbose_V2))
			FIRE(MethodLoadVerbose_V2, VERBOSE_ARGS, CLR_INSTANCE_ID, 0);
		else if (ON(MethodLoad_V2))
			FIRE(MethodLoad_V2, TERSE_ARGS);
		break;
	case 1:
		if (ON(MethodUnloadVerbose_V2))
			FIRE(MethodUnloadVerbose_V2, VERBOSE_ARGS, CLR_INSTANCE_ID, 0);
		else if (ON(MethodUnload_V2))
			FIRE(MethodUnload_V2, TERSE_ARGS);
		break;
	case 2:
		if (ON(MethodDCStartVerbose_V2))
			FIRE(MethodDCStartVerbose_V2, VERBOSE_ARGS, CLR_INSTANCE_ID, 0);
		else if (ON(MethodDCStartVerbose_V1))
			FIRE(MethodDCStartVerbose_V1, VERBOSE_ARGS, CLR_INSTANCE_ID);
		break;
	default:
		if (ON(MethodDCEndVerbose_V2))
			FIRE(MethodDCEndVerbose_V2, VERBOSE_ARGS, CLR_INSTANCE_ID, 0);
		else if (ON(MethodDCEndVerbose_V1))
			FIRE(MethodDCEndVerbose_V1, VERBOSE_ARGS, CLR_INSTANCE_ID);
		break;
	}
#undef VERBOSE_ARGS
#undef TERSE_ARGS
}

void ev_method_load(const struct rt_code *c, bool unload)
{
	method_event(c, unload ? 1 : 0);
}

/* ReJITID 0 (tiering is not ReJIT); MethodExtent 0 = hot section */
void ev_method_il_map(const struct rt_code *c)
{
	if (ON(MethodILToNativeMap))
		FIRE(MethodILToNativeMap, c->method->id, 0, 0, c->n_map, c->il_off,
		     c->native_off, CLR_INSTANCE_ID);
}

void ev_rundown_method(const struct rt_code *c, bool start)
{
	method_event(c, start ? 2 : 3);
	if (start && ON(MethodDCStartILToNativeMap))
		FIRE(MethodDCStartILToNativeMap, c->method->id, 0, 0, c->n_map, c->il_off,
		     c->native_off, CLR_INSTANCE_ID);
	if (!start && ON(MethodDCEndILToNativeMap))
		FIRE(MethodDCEndILToNativeMap, c->method->id, 0, 0, c->n_map, c->il_off,
		     c->native_off, CLR_INSTANCE_ID);
}

bool ev_rundown_start_requested(void)
{
	return ON(DCStartInit_V1);
}

void ev_rundown_bracket(bool start, bool complete)
{
	if (start && !complete && ON(DCStartInit_V1))
		FIRE(DCStartInit_V1, CLR_INSTANCE_ID);
	if (start && complete && ON(DCStartComplete_V1))
		FIRE(DCStartComplete_V1, CLR_INSTANCE_ID);
	if (!start && !complete && ON(DCEndInit_V1))
		FIRE(DCEndInit_V1, CLR_INSTANCE_ID);
	if (!start && complete && ON(DCEndComplete_V1))
		FIRE(DCEndComplete_V1, CLR_INSTANCE_ID);
}

/* ---- GC ------------------------------------------------------------------ */

void ev_gc_triggered(uint32_t reason)
{
	if (ON(GCTriggered))
		FIRE(GCTriggered, reason, CLR_INSTANCE_ID);
}

void ev_gc_suspend(bool end, uint32_t reason, uint32_t count)
{
	if (!end && ON(GCSuspendEEBegin_V1))
		FIRE(GCSuspendEEBegin_V1, reason, count, CLR_INSTANCE_ID);
	if (end && ON(GCSuspendEEEnd_V1))
		FIRE(GCSuspendEEEnd_V1, CLR_INSTANCE_ID);
}

void ev_gc_restart(bool end)
{
	if (!end && ON(GCRestartEEBegin_V1))
		FIRE(GCRestartEEBegin_V1, CLR_INSTANCE_ID);
	if (end && ON(GCRestartEEEnd_V1))
		FIRE(GCRestartEEEnd_V1, CLR_INSTANCE_ID);
}

void ev_gc_start(uint32_t count, uint32_t depth, uint32_t reason, uint32_t type)
{
	if (ON(GCStart_V2))
		FIRE(GCStart_V2, count, depth, reason, type, CLR_INSTANCE_ID, 0);
}

void ev_gc_end(uint32_t count, uint32_t depth)
{
	if (ON(GCEnd_V1))
		FIRE(GCEnd_V1, count, depth, CLR_INSTANCE_ID);
}

void ev_gc_heap_stats(const struct gc_heap_stats *s)
{
	if (ON(GCHeapStats_V2))
		FIRE(GCHeapStats_V2, s->gen_size[0], s->promoted[0], s->gen_size[1],
		     s->promoted[1], s->gen_size[2], s->promoted[2], s->gen_size[3],
		     s->promoted[3], s->finalization_promoted_size,
		     s->finalization_promoted_count, s->pinned, s->sink_blocks, s->handles,
		     CLR_INSTANCE_ID, s->gen_size[4], s->promoted[4]);
}

void ev_gc_global_heap_history(uint64_t final_youngest_desired, uint32_t condemned,
			       uint32_t reason, uint32_t mechanisms)
{
	/* 1 heap, PauseMode 1 = Interactive, MemoryPressure 0 */
	if (ON(GCGlobalHeapHistory_V3))
		FIRE(GCGlobalHeapHistory_V3, final_youngest_desired, 1, condemned, 0, reason,
		     mechanisms, CLR_INSTANCE_ID, 1, 0, 0, 0);
}

void ev_gc_allocation_tick(uint32_t kind, uint64_t amount, const char *type_name,
			   uint64_t type_id, const void *address)
{
	struct w name;

	if (!ON(GCAllocationTick_V3))
		return;
	name = wstr(type_name);
	FIRE(GCAllocationTick_V3, (unsigned int)(amount > 0xffffffffu ? 0xffffffffu : amount),
	     kind, CLR_INSTANCE_ID, amount, (const void *)(uintptr_t)type_id, name.s, 0,
	     address);
}

/* ---- exceptions --------------------------------------------------------- */

void ev_exception_thrown(const char *type, const char *message, const void *eip,
			 uint32_t hresult, uint16_t flags)
{
	struct w t, m;

	if (!ON(ExceptionThrown_V1))
		return;
	t = wstr(type);
	m = wstr(message);
	FIRE(ExceptionThrown_V1, t.s, m.s, eip, hresult, flags, CLR_INSTANCE_ID);
}

void ev_exception_clause(enum ev_clause kind, bool stop, const void *entry,
			 const struct rt_code *c)
{
	char full[300];
	struct w name;
	uint64_t eip = (uint64_t)(uintptr_t)entry, mid = c ? c->method->id : 0;

	if (stop) {
		if (kind == EV_CATCH && ON(ExceptionCatchStop))
			FIRE(ExceptionCatchStop);
		else if (kind == EV_FILTER && ON(ExceptionFilterStop))
			FIRE(ExceptionFilterStop);
		else if (kind == EV_FINALLY && ON(ExceptionFinallyStop))
			FIRE(ExceptionFinallyStop);
		return;
	}
	snprintf(full, sizeof(full), "%s::%s", c ? c->method->ns : "?", c ? c->method->name : "?");
	name = wstr(full);
	if (kind == EV_CATCH && ON(ExceptionCatchStart))
		FIRE(ExceptionCatchStart, eip, mid, name.s, CLR_INSTANCE_ID);
	else if (kind == EV_FILTER && ON(ExceptionFilterStart))
		FIRE(ExceptionFilterStart, eip, mid, name.s, CLR_INSTANCE_ID);
	else if (kind == EV_FINALLY && ON(ExceptionFinallyStart))
		FIRE(ExceptionFinallyStart, eip, mid, name.s, CLR_INSTANCE_ID);
}

/* ---- contention, thread pool -------------------------------------------- */

bool ev_contention_start(void)
{
	if (!ON(ContentionStart_V1))
		return false;
	FIRE(ContentionStart_V1, 0, CLR_INSTANCE_ID);	/* flags 0 = managed */
	return true;
}

void ev_contention_stop(double duration_ns)
{
	if (ON(ContentionStop_V1))
		FIRE(ContentionStop_V1, 0, CLR_INSTANCE_ID, duration_ns);
}

void ev_threadpool_worker(bool stop, uint32_t active, uint32_t retired)
{
	if (!stop && ON(ThreadPoolWorkerThreadStart))
		FIRE(ThreadPoolWorkerThreadStart, active, retired, CLR_INSTANCE_ID);
	if (stop && ON(ThreadPoolWorkerThreadStop))
		FIRE(ThreadPoolWorkerThreadStop, active, retired, CLR_INSTANCE_ID);
}

void ev_threadpool_adjustment(double throughput, uint32_t new_count, uint32_t reason)
{
	if (ON(ThreadPoolWorkerThreadAdjustmentSample))
		FIRE(ThreadPoolWorkerThreadAdjustmentSample, throughput, CLR_INSTANCE_ID);
	if (ON(ThreadPoolWorkerThreadAdjustmentAdjustment))
		FIRE(ThreadPoolWorkerThreadAdjustmentAdjustment, throughput, new_count, reason,
		     CLR_INSTANCE_ID);
}

/* ---- bookkeeping -------------------------------------------------------- */

int ev_enabled_probe_count(void)
{
	int n = 0;

	for (int i = 0; i < EV__COUNT; i++)
		n += !!ev_enabled_fn[i]();
	return n;
}

uint64_t eventsource__count(void);

void ev_summary(FILE *f)
{
	fprintf(f, "  \"events\": {");
	for (int i = 0; i < EV__COUNT; i++)
		fprintf(f, "%s\n    \"%s\": %llu", i ? "," : "", ev_names[i],
			(unsigned long long)atomic_load(&ev_counts[i]));
	fprintf(f, "\n  },\n  \"custom_events\": {\n    \"RefAppEventSource:WorkItem\": %llu\n  },\n",
		(unsigned long long)eventsource__count());
	fprintf(f, "  \"provider_drops\": {\"oversize\": %llu, \"nomem\": %llu},\n",
		clretw_dropped_oversize, clretw_dropped_nomem);
}

void events__init(struct refrt *r)
{
	rt = r;
}
