/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * refrt.h - internal interfaces of the reference runtime.
 *
 * refrt is a small C program that, seen from a tracer, behaves like a
 * CoreCLR process: "managed" methods are x86-64 code generated at run time
 * into an executable code heap (jit.c, x86emit.c, codeheap.c), with frame
 * pointers, calling each other and calling back into native runtime helpers
 * (helpers.c: allocation -> gc.c, throw/catch, monitors, thread pool) that
 * fire the CLR events of the generated USDT provider (only through
 * events.c).  Loaded "assemblies", modules and code versions live in
 * loader.c, which also runs start/end rundown.  perfmap.c writes
 * /tmp/perf-PID.map, perfinfo-PID.map and the jitdump as CoreCLR does.
 * summary.c prints the JSON summary the tests compare traces against.
 *
 * Determinism: for a given --seed and --iterations the JIT sequence (order,
 * names, code sizes, code-heap offsets) and the number of every event are
 * the same on every run: start-up code is compiled on the main thread before
 * the workers start, and all later JIT work (tier-1 re-JIT, collectible
 * plug-in assemblies) runs on worker 0 at fixed iteration numbers.  GC
 * decisions depend only on cumulative allocated bytes, which are the same
 * for every interleaving.  See README.md for the exceptions (rundowns
 * triggered by a tracer attaching at an arbitrary moment).
 */
#ifndef REFRT_H
#define REFRT_H

#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define LOG_PREFIX "refrt: "
#include "log.h"
#include "clock.h"	/* mono_ns(): the trace clock, CLOCK_MONOTONIC */
#include "json_str.h"

/* ------------------------------------------------------------------ */
/* configuration (main.c)                                              */

enum rt_scenario {
	SC_CPU,
	SC_ALLOC,
	SC_EXCEPTIONS,
	SC_CONTENTION,
	SC_JIT_CHURN,
	SC_MIXED,
};

struct refrt;

struct env {
	enum rt_scenario scenario;
	int threads;
	uint64_t iterations;	/* per worker; 0 = run for duration_ns */
	uint64_t duration_ns;
	double rate;		/* operations per second per worker, 0 = no limit */
	uint64_t seed;
	const char *summary_path;
	double wait_for_tracer;	/* seconds, 0 = don't wait */
	bool wait_signal_only;	/* --wait-for-signal: only SIGUSR1 ends the wait */
	uint32_t work;		/* inner loop count of one HotLoop call */
	uint32_t hold_us;	/* lock hold time in the contention scenario */
	int perfmap_mode;	/* DOTNET_PerfMapEnabled: 0..3 */
	bool perfmap_tiers;	/* DOTNET_PerfMapShowOptimizationTiers */
	char perfmap_dir[256];	/* DOTNET_PerfMapJitDumpPath or /tmp */
};


/* The scenario's name on the command line and in the summary; inline, so
 * that every part reads it without calling back into main.c. */
static inline const char *rt_scenario_name(enum rt_scenario s)
{
	static const char *const names[] = {
		[SC_CPU] = "cpu", [SC_ALLOC] = "alloc", [SC_EXCEPTIONS] = "exceptions",
		[SC_CONTENTION] = "contention", [SC_JIT_CHURN] = "jit-churn", [SC_MIXED] = "mixed",
	};

	return names[s];
}

/* splitmix64: deterministic, seedable */
struct rt_prng {
	uint64_t s;
};
static inline uint64_t rt_prng_next(struct rt_prng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static inline uint32_t rt_prng_range(struct rt_prng *r, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(rt_prng_next(r) % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------------------------ */
/* threads                                                             */

struct rt_try_frame;

struct rt_thread {
	int index;			/* -1 main thread, 0..threads-1 workers */
	pid_t tid;
	uint64_t managed_id;		/* "Thread*": address of this struct */
	uint32_t managed_index;		/* managed thread id (1 = main) */
	struct rt_prng rng;
	uint64_t iter;			/* current operation number */
	uint64_t iterations_done;
	uint64_t next_start_ns;		/* --rate pacing */
	struct rt_try_frame *try_top;	/* innermost active try clause */
	/* per-thread statistics, summed by summary.c */
	uint64_t alloc_bytes;
	uint64_t alloc_objects;
	uint64_t contention_count;
	uint64_t contention_ns;
	uint64_t sleep_ns;		/* time in Thread.Sleep */
	uint64_t exceptions;
	uint64_t checksum;		/* results of managed code, printed */
	uint64_t op_start_ns;
	uint64_t exc_obj[4];		/* the exception in flight: mt, iteration, kind */
	char exc_msg[160];
	pthread_t pthread;
};

/* the calling thread (gc.c defines it: thread states are the GC's) */
extern __thread struct rt_thread *rt_self;

/* ------------------------------------------------------------------ */
/* code heap (codeheap.c)                                              */

#define CODE_ALIGN 32

int codeheap__init(struct refrt *r);
void *codeheap__alloc(uint32_t size);	/* NULL + errno when out of space */
void codeheap__free(void *p);
void codeheap__stats(uint64_t *reserved, uint64_t *committed, uint64_t *used);

/* ------------------------------------------------------------------ */
/* loader: app domain, assemblies, modules, methods, code versions     */

enum rt_tier {
	TIER_QUICK = 3,		/* JitOptimizationTier::QuickJitted */
	TIER_OPT = 2,		/* Optimized (tiering disabled for the method) */
	TIER_1 = 4,		/* OptimizedTier1 */
};

#define METHOD_FLAG_JITTED 0x8
#define METHOD_TIER_SHIFT 7

struct rt_assembly {
	uint64_t id;			/* AssemblyID: address of this struct */
	uint64_t module_id;		/* ModuleID: address of .module_anchor */
	char name[64];			/* simple name, e.g. RefApp */
	char full_name[160];		/* "RefApp, Version=1.0.0.0, ..." */
	char path[256];			/* IL path */
	uint8_t mvid[16];
	bool collectible;
	bool unloaded;
	uint64_t load_ns, unload_ns;
	int index;			/* in load order */
	uint32_t n_methods;		/* methods defined (for their tokens) */
	char module_anchor;
};

/* What a JIT template emits (jit.c) */
enum rt_body {
	B_WORKER_START,		/* System.Threading...WorkerThreadStart() */
	B_DISPATCH,		/* ThreadPoolWorkQueue::DispatchWorkItem(int64) */
	B_MONITOR_ENTER,
	B_MONITOR_EXIT,
	B_THREAD_SLEEP,
	B_GC_COLLECT,
	B_RUN_ITERATION,	/* RefApp.Program::RunIteration(int64) */
	B_HOT_LOOP,
	B_MIX,
	B_STEP,
	B_BUILD_LIST,
	B_TOUCH,
	B_EXC_RUN,
	B_EXC_LEVEL1,
	B_EXC_LEVEL2,
	B_EXC_LEVEL3,
	B_EXC_VALIDATE,
	B_INCREMENT,
	B_PLUGIN_INVOKE,
	B_PLUGIN_HANDLER,
};

/* the logical method (CoreCLR's MethodDesc); never freed */
struct rt_method {
	uint64_t id;			/* MethodID: address of this struct */
	struct rt_assembly *assembly;
	char ns[96];			/* type full name: RefApp.Workload */
	char name[64];			/* HotLoop */
	char ret[32];			/* int64 */
	char args[96];			/* int32 */
	char sig[160];			/* "int64 (int32)" */
	uint32_t token;			/* 0x06xxxxxx */
	uint32_t il_size;
	enum rt_body body;
	uint32_t param;			/* template parameter (plugin: op count) */
	struct rt_method *next_handler;	/* plugin chain */
	bool tiered;			/* starts QuickJitted, may go to tier 1 */
	void *volatile slot;		/* call indirection cell: current entry point */
	struct rt_code *current;	/* code version the slot points to */
};

/* a code version (one block of JIT'd code) */
struct rt_code {
	int index;			/* position in the method table */
	struct rt_method *method;
	uint8_t *start;
	uint32_t size;
	enum rt_tier tier;
	int rejit_of;			/* index of the version it replaced, or -1 */
	uint64_t load_ns, unload_ns;	/* unload_ns 0 = still live */
	uint32_t flags;			/* MethodFlags */
	char perfmap_name[400];
	/* funclets inside this code (exception clauses), offsets; 0 = none */
	uint32_t catch_off, filter_off, finally_off;
	uint16_t n_map;
	uint32_t il_off[32];
	uint32_t native_off[32];
};

/* the methods the templates call each other by (loader.c fills it) */
struct rt_well_known {
	struct rt_method *worker_start, *dispatch, *monitor_enter, *monitor_exit;
	struct rt_method *thread_sleep, *gc_collect, *run_iteration, *hot_loop;
	struct rt_method *mix, *step, *build_list, *touch, *exc_run, *exc_level1;
	struct rt_method *exc_level2, *exc_level3, *exc_validate, *increment;
	struct rt_method *plugin_invoke;
};

/* exception clauses of the templates (rt_helper_try_call's clause_id) */
enum { CLAUSE_RUN_CATCH_ALL = 1, CLAUSE_LEVEL1_FILTERED = 2 };
/* exception kinds (the object's field at +16) */
enum { EXC_INVALID_OPERATION = 0, EXC_ARGUMENT = 1, EXC_FORMAT = 2, EXC__COUNT };
extern const char *const rt_exception_types[EXC__COUNT];



int loader__init(struct refrt *r);	/* app domain, CoreLib + RefApp, start-up JIT */
/* rundown: emits DCStart/DCEnd events for everything live */
void loader__rundown(bool start);
int loader__rundown_watch_start(void);
void loader__rundown_watch_stop(void);
void loader__tier_up(void);		/* once, at the process's 30th operation */
int64_t loader__plugin_churn(uint64_t iter);	/* worker 0 */
void loader__summary_rundowns(FILE *f);

/* ------------------------------------------------------------------ */
/* JIT (jit.c)                                                         */

struct rt_method *jit__define(struct rt_assembly *a, const char *ns, const char *name,
			      const char *ret, const char *args, enum rt_body body,
			      uint32_t param, bool tiered);
/* compile a code version of m at tier and publish it; caller holds rt_jit_lock */
struct rt_code *jit__compile(struct rt_method *m, enum rt_tier tier);
/* free a code version (collectible unload); caller holds rt_jit_lock */
void jit__free_code(struct rt_code *c);
/* the live code version containing ip, or NULL (lock-free reader) */
struct rt_code *jit__find_code(uintptr_t ip);

/* ------------------------------------------------------------------ */
/* perf map / perfinfo / jitdump (perfmap.c)                           */

int perfmap__init(struct refrt *r);
void perfmap__log_code(const struct rt_code *c);
void perfmap__log_image(const struct rt_assembly *a);
void perfmap__close(void);
void perfmap__summary(FILE *f);

/* ------------------------------------------------------------------ */
/* GC (gc.c)                                                           */

struct rt_type {
	const char *name;		/* its address is the "MethodTable*" / TypeID */
};
#define RT_TYPE_ID(t) ((uint64_t)(uintptr_t)(t))

int gc__init(struct refrt *r);
void rt_coop_enter(void);	/* cooperative mode: running managed code */
void rt_coop_leave(void);	/* preemptive mode: blocking, GC may run */
void rt_gc_poll(void);		/* safe point */
void *gc__alloc(const struct rt_type *t, uint32_t size);
void gc__collect_induced(void);
void gc__summary(FILE *f);

/* ------------------------------------------------------------------ */
/* runtime helpers called from JIT code (helpers.c)                    */

int64_t rt_helper_tp_dequeue(void);
void *rt_helper_new(int64_t hint);
void *rt_helper_new_large(int64_t size);
int64_t rt_helper_try_call(void *volatile *slot, int64_t arg, int64_t clause_id);
void rt_helper_throw(int64_t arg) __attribute__((noreturn));
void rt_helper_monitor_enter(int64_t iter);
void rt_helper_monitor_exit(int64_t iter);
void rt_helper_sleep(int64_t us);
void rt_helper_gc_collect(void);
int64_t rt_helper_churn(int64_t iter);
int64_t rt_helper_work_item_done(int64_t iter, int64_t result);

int helpers__init(struct refrt *r);
void helpers__summary(FILE *f);

/* ------------------------------------------------------------------ */
/* the JSON summary (summary.c)                                        */

int summary__write(struct refrt *r, const char *path, uint64_t start_ns, uint64_t end_ns);

/* ------------------------------------------------------------------ */
/* the runtime                                                         */

/*
 * Everything the parts share, in one place: main() owns it and passes it
 * to each part's init (codeheap, gc, helpers, jit, events, eventsource,
 * perfmap, loader) and to summary__write; a part keeps the pointer.  Per
 * thread state is struct rt_thread (rt_self).
 */
struct refrt {
	struct env env;			/* options and environment */
	volatile int stopping;		/* set by SIGINT/SIGTERM or end of duration */
	struct rt_thread main_thread;
	struct rt_thread *workers;	/* env.threads of them */
	struct rt_well_known wk;	/* methods the runtime calls by name */
	pthread_mutex_t jit_lock;	/* guards the method table */
	struct rt_code **codes;		/* every code version (jit.c) */
	int n_codes;
	struct rt_assembly **assemblies;	/* loaded assemblies (loader.c) */
	int n_assemblies;
	uint64_t appdomain_id;
};

/* The runtime helpers JIT'd code calls, by address.  main.c hands them to
 * the JIT at start, so that the JIT names no helper: the helpers walk JIT'd
 * code (jit__find_code), never the other way round. */
struct rt_helpers {
	void *new_obj, *new_large, *try_call, *throw_exc, *monitor_enter, *monitor_exit;
	void *sleep, *gc_collect, *churn, *work_item_done, *tp_dequeue;
};

void jit__init(struct refrt *r, const struct rt_helpers *h);
void events__init(struct refrt *r);
void eventsource__init(struct refrt *r);

#endif /* REFRT_H */
