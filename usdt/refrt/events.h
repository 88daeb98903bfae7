/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * events.h - refrt's only door to the generated CLR provider.
 *
 * Each ev_*() function tests the probe's semaphore through the generated
 * EventXplatEnabled<Symbol>(), and only when it is set builds the arguments,
 * calls FireEtXplat<Symbol>() and counts the event.  The counts are the
 * "events" object of the JSON summary: exactly the events refrt fired.
 */
#ifndef REFRT_EVENTS_H
#define REFRT_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct rt_thread;
struct rt_assembly;
struct rt_method;
struct rt_code;

#define CLR_INSTANCE_ID 0	/* what CoreCLR reports for the only runtime */

void ev_runtime_information(bool rundown);
void ev_appdomain_load(void);
void ev_thread_created(const struct rt_thread *t);
void ev_thread_terminated(const struct rt_thread *t);

void ev_assembly_load(const struct rt_assembly *a, bool unload);
void ev_module_load(const struct rt_assembly *a, bool unload);	/* + DomainModuleLoad */
void ev_method_jitting_started(const struct rt_method *m);
void ev_method_load(const struct rt_code *c, bool unload);
void ev_method_il_map(const struct rt_code *c);

/* rundown (provider DotNETRuntimeRundown) */
bool ev_rundown_start_requested(void);	/* DCStartInit_V1 enabled */
void ev_rundown_bracket(bool start, bool complete);	/* DC{Start,End}{Init,Complete} */
void ev_rundown_appdomain(bool start);
void ev_rundown_assembly(const struct rt_assembly *a, bool start);
void ev_rundown_module(const struct rt_assembly *a, bool start);	/* + DomainModule */
void ev_rundown_method(const struct rt_code *c, bool start);	/* + ILToNativeMap */

/* GC */
struct gc_heap_stats {
	uint64_t gen_size[5];		/* gen0, gen1, gen2, LOH, POH */
	uint64_t promoted[5];
	uint64_t finalization_promoted_size, finalization_promoted_count;
	uint32_t pinned, sink_blocks, handles;
};
void ev_gc_triggered(uint32_t reason);
void ev_gc_suspend(bool end, uint32_t reason, uint32_t count);
void ev_gc_restart(bool end);
void ev_gc_start(uint32_t count, uint32_t depth, uint32_t reason, uint32_t type);
void ev_gc_end(uint32_t count, uint32_t depth);
void ev_gc_heap_stats(const struct gc_heap_stats *s);
void ev_gc_global_heap_history(uint64_t final_youngest_desired, uint32_t condemned,
			       uint32_t reason, uint32_t mechanisms);
void ev_gc_allocation_tick(uint32_t kind, uint64_t amount, const char *type_name,
			   uint64_t type_id, const void *address);

/* exceptions */
void ev_exception_thrown(const char *type, const char *message, const void *eip,
			 uint32_t hresult, uint16_t flags);
enum ev_clause { EV_CATCH, EV_FILTER, EV_FINALLY };
void ev_exception_clause(enum ev_clause kind, bool stop, const void *entry,
			 const struct rt_code *c);

/* contention and thread pool */
bool ev_contention_start(void);
void ev_contention_stop(double duration_ns);
void ev_threadpool_worker(bool stop, uint32_t active, uint32_t retired);
void ev_threadpool_adjustment(double throughput, uint32_t new_count, uint32_t reason);

/* the EventSource-style custom probe (eventsource.c) */
void ev_work_item(uint32_t worker, uint64_t iteration, uint64_t result, uint64_t elapsed_ns);

/* --wait-for-tracer: number of refrt's probes whose semaphore is set */
int ev_enabled_probe_count(void);

/* JSON: "events": {...}, "custom_events": {...} */
void ev_summary(FILE *f);

#endif /* REFRT_EVENTS_H */
