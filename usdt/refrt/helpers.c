// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * helpers.c - native runtime helpers called from JIT'd code.
 *
 * These are what CoreCLR calls JIT helpers and FCalls: thread-pool dequeue,
 * object allocation, exception dispatch, monitors, Thread.Sleep, GC.Collect.
 * They run on the calling worker's stack, below JIT frames, so a stack taken
 * at any probe they fire shows native helper -> JIT frames -> native
 * WorkerThread entry -> libc start_thread/clone.
 *
 * Exceptions use CoreCLR's two passes.  rt_helper_try_call() is a try
 * region: it records a try frame (clause, the owning method's code, its own
 * frame address) and a jmp_buf, then calls the protected method through its
 * slot.  rt_helper_throw() fires ExceptionThrown, runs the first pass over
 * the try frames (calling filter funclets inside the owning method's code,
 * bracketed by ExceptionFilterStart/Stop) to find the handler, then walks
 * the frame-pointer chain from its own frame up to the handler's frame,
 * identifying JIT frames by return address and running their finally
 * funclets (ExceptionFinallyStart/Stop), and finally longjmp()s to the
 * handler's try frame, which runs the catch funclet between
 * ExceptionCatchStart/Stop.
 *
 * Contention is made deterministic by pairing workers (2k, 2k+1) on one
 * monitor: for operation i, one of them (alternating) takes the monitor
 * and, before entering its critical section, waits until its partner has
 * tried the monitor and failed.  The partner fires ContentionStart, blocks
 * in pthread_mutex_lock for the holder's whole critical section (work plus
 * Thread.Sleep(hold_us), off-CPU), and fires ContentionStop with the
 * measured wait.  Every such operation therefore contends exactly once.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "events.h"
#include "refrt.h"

static struct refrt *rt;	/* the runtime, from this part's init */

#define TIER_UP_AT 30		/* CoreCLR's call-count threshold */
#define TP_ADJUST_EVERY 64
#define LOH_EVERY 256

const char *const rt_exception_types[EXC__COUNT] = {
	"System.InvalidOperationException",
	"System.ArgumentException",
	"System.FormatException",
};

static const char *const exc_messages[EXC__COUNT] = {
	"Operation is not valid due to the current state of the object.",
	"Value does not fall within the expected range.",
	"The input string was not in a correct format.",
};

static const uint32_t exc_hresults[EXC__COUNT] = { 0x80131509, 0x80070057, 0x80131537 };

static const struct rt_type t_string = { "System.String" };
static const struct rt_type t_bytes = { "System.Byte[]" };
static const struct rt_type t_node = { "RefApp.Node" };
static const struct rt_type t_objects = { "System.Object[]" };
static const struct rt_type t_exc[EXC__COUNT] = {
	{ "System.InvalidOperationException" },
	{ "System.ArgumentException" },
	{ "System.FormatException" },
};

#define MAX_EXC_LOG 4096

static atomic_ullong exc_by_type[EXC__COUNT];
static atomic_uint exc_log_next;
static struct {
	uint8_t kind;
	int8_t worker;
	uint64_t op, ns;
} exc_log[MAX_EXC_LOG];
static atomic_ullong exc_frames_unwound;
static atomic_ullong ops_done;
static uint64_t run_start_ns;

struct rt_try_frame {
	struct rt_try_frame *prev;
	jmp_buf jb;
	int clause;
	uintptr_t frame;		/* rt_helper_try_call's frame address */
	struct rt_code *owner;		/* code of the method with the clause */
};

struct pair_lock {
	pthread_mutex_t monitor;	/* the contended "object lock" */
	pthread_mutex_t m;		/* handshake */
	pthread_cond_t cv;
	uint64_t held;			/* operation + 1 the holder holds for */
	uint64_t tried;			/* operation + 1 the waiter tried */
	uint64_t acquired;		/* operation + 1 the waiter then acquired */
};

static struct pair_lock *pairs;
static atomic_ullong contention_count, contention_ns, contention_max_ns;

int helpers__init(struct refrt *r)
{
	int n = (r->env.threads + 1) / 2;

	rt = r;
	pairs = calloc(n, sizeof(*pairs));
	if (!pairs)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		pthread_mutex_init(&pairs[i].monitor, NULL);
		pthread_mutex_init(&pairs[i].m, NULL);
		pthread_cond_init(&pairs[i].cv, NULL);
	}
	run_start_ns = mono_ns();
	return 0;
}

/* sleep, in slices of at most 50 ms so that a stop request is seen soon */
static void sleep_ns(uint64_t ns)
{
	const uint64_t slice = 50 * 1000 * 1000;
	uint64_t end = mono_ns() + ns, now;

	while (!rt->stopping && (now = mono_ns()) < end) {
		uint64_t d = end - now < slice ? end - now : slice;
		struct timespec ts = { 0, (long)d };

		nanosleep(&ts, NULL);
	}
}

/* ---- thread pool ------------------------------------------------------ */

static void worker0_duties(struct rt_thread *t)
{
	if (t->iterations_done % TP_ADJUST_EVERY == 0) {
		double secs = (double)(mono_ns() - run_start_ns) / 1e9;
		double tput = secs > 0 ? (double)atomic_load(&ops_done) / secs : 0;

		ev_threadpool_adjustment(tput, (uint32_t)rt->env.threads, 3 /* ClimbingMove */);
	}
}

/* next operation number for this worker, or -1 when it should stop */
int64_t rt_helper_tp_dequeue(void)
{
	struct rt_thread *t = rt_self;

	if (t->op_start_ns) {
		t->iterations_done++;
		/* the process's operations, whichever worker did them: one
		 * worker the scheduler starves must not keep the others in
		 * tier 0 */
		if (atomic_fetch_add(&ops_done, 1) + 1 == TIER_UP_AT) {
			rt_coop_leave();	/* background JIT work: don't hold up a GC */
			loader__tier_up();
			rt_coop_enter();
		}
		if (t->index == 0)
			worker0_duties(t);
	}
	if (rt->stopping || (rt->env.iterations && t->iterations_done >= rt->env.iterations))
		return -1;
	if (rt->env.rate > 0) {
		uint64_t now = mono_ns();

		if (!t->next_start_ns)
			t->next_start_ns = now;
		if (t->next_start_ns > now) {
			rt_coop_leave();
			sleep_ns(t->next_start_ns - now);
			rt_coop_enter();
		}
		t->next_start_ns += (uint64_t)(1e9 / rt->env.rate);
		if (rt->stopping)
			return -1;
	}
	rt_gc_poll();
	t->iter = t->iterations_done;
	t->op_start_ns = mono_ns();
	return (int64_t)t->iter;
}

int64_t rt_helper_work_item_done(int64_t iter, int64_t result)
{
	struct rt_thread *t = rt_self;

	t->checksum = (t->checksum << 7 | t->checksum >> 57) ^ (uint64_t)result;
	ev_work_item((uint32_t)t->index, (uint64_t)iter, (uint64_t)result,
		     mono_ns() - t->op_start_ns);
	return result;
}

/* ---- allocation -------------------------------------------------------- */

void *rt_helper_new(int64_t hint)
{
	struct rt_thread *t = rt_self;
	uint32_t r = (uint32_t)(rt_prng_next(&t->rng) >> 32);
	const struct rt_type *type;
	uint32_t size;

	(void)hint;
	rt_gc_poll();
	if (t->alloc_objects % LOH_EVERY == LOH_EVERY - 1) {
		type = &t_bytes;
		size = 90000 + r % 110000;
	} else {
		switch (r % 4) {
		case 0: type = &t_string; size = 32 + r % 224; break;
		case 1: type = &t_bytes; size = 64 + r % 1984; break;
		case 2: type = &t_node; size = 48; break;
		default: type = &t_objects; size = 64 + r % 960; break;
		}
	}
	return gc__alloc(type, size);
}

static const struct rt_type t_payload = { "RefApp.Plugins.Payload[]" };

void *rt_helper_new_large(int64_t size)
{
	rt_gc_poll();
	return gc__alloc(&t_payload, (uint32_t)size);
}

void rt_helper_gc_collect(void)
{
	gc__collect_induced();
}

/* ---- exceptions -------------------------------------------------------- */

typedef int64_t (*managed_fn)(int64_t);
typedef int64_t (*funclet_fn)(const void *);

/* the handler side of a try region, after rt_helper_throw longjmp'ed to it */
__attribute__((noinline))
static int64_t run_catch(void)
{
	struct rt_thread *t = rt_self;
	struct rt_code *owner = t->try_top->owner;
	uint8_t *entry = owner->start + owner->catch_off;
	int64_t r;

	t->try_top = t->try_top->prev;
	ev_exception_clause(EV_CATCH, false, entry, owner);
	r = ((funclet_fn)entry)(t->exc_obj);
	ev_exception_clause(EV_CATCH, true, NULL, NULL);
	return r;
}

int64_t rt_helper_try_call(void *volatile *slot, int64_t arg, int64_t clause)
{
	struct rt_try_frame f;

	memset(&f, 0, sizeof(f));
	f.prev = rt_self->try_top;
	f.clause = (int)clause;
	f.frame = (uintptr_t)__builtin_frame_address(0);
	f.owner = jit__find_code((uintptr_t)__builtin_return_address(0));
	if (!f.owner) {
		pr_warn("try region entered from outside JIT code (%p)\n",
			__builtin_return_address(0));
		abort();
	}
	rt_self->try_top = &f;
	if (setjmp(f.jb) == 0) {
		managed_fn fn = (managed_fn)__atomic_load_n(slot, __ATOMIC_ACQUIRE);
		int64_t r = fn(arg);

		rt_self->try_top = f.prev;
		return r;
	}
	/* caught here: rt_helper_throw left rt_self->try_top == &f */
	return run_catch();
}

static struct rt_try_frame *first_pass(struct rt_thread *t)
{
	for (struct rt_try_frame *f = t->try_top; f; f = f->prev) {
		struct rt_code *c = f->owner;
		uint8_t *filter;
		int64_t ok;

		if (f->clause != CLAUSE_LEVEL1_FILTERED)
			return f;		/* catch (Exception) */
		filter = c->start + c->filter_off;
		ev_exception_clause(EV_FILTER, false, filter, c);
		ok = ((funclet_fn)filter)(t->exc_obj);
		ev_exception_clause(EV_FILTER, true, NULL, NULL);
		if (ok)
			return f;
	}
	return NULL;
}

__attribute__((noinline))
static void second_pass(struct rt_try_frame *handler, uintptr_t *fp, int64_t arg)
{
	while (fp && (uintptr_t)fp < handler->frame) {
		struct rt_code *c = jit__find_code(fp[1]);

		if (c && c->finally_off) {
			uint8_t *fin = c->start + c->finally_off;

			ev_exception_clause(EV_FINALLY, false, fin, c);
			((managed_fn)fin)(arg);
			ev_exception_clause(EV_FINALLY, true, NULL, NULL);
		}
		atomic_fetch_add_explicit(&exc_frames_unwound, 1, memory_order_relaxed);
		fp = (uintptr_t *)fp[0];
	}
}

static void log_exception(uint32_t kind, int worker, uint64_t op)
{
	unsigned int i = atomic_fetch_add(&exc_log_next, 1);

	if (i >= MAX_EXC_LOG)
		return;
	exc_log[i].kind = (uint8_t)kind;
	exc_log[i].worker = (int8_t)worker;
	exc_log[i].op = op;
	exc_log[i].ns = mono_ns();
}

void rt_helper_throw(int64_t arg)
{
	struct rt_thread *t = rt_self;
	uint32_t kind = (uint32_t)(rt_prng_next(&t->rng) % EXC__COUNT);
	struct rt_try_frame *handler;

	rt_gc_poll();
	gc__alloc(&t_exc[kind], 128);			/* the exception object */
	snprintf(t->exc_msg, sizeof(t->exc_msg), "%s (worker %d, operation %llu)",
		 exc_messages[kind], t->index, (unsigned long long)arg);
	gc__alloc(&t_string, 22 + 2 * (uint32_t)strlen(t->exc_msg));	/* its message */
	t->exc_obj[0] = RT_TYPE_ID(&t_exc[kind]);
	t->exc_obj[1] = (uint64_t)arg;
	t->exc_obj[2] = kind;
	t->exceptions++;
	atomic_fetch_add(&exc_by_type[kind], 1);
	log_exception(kind, t->index, (uint64_t)arg);
	ev_exception_thrown(rt_exception_types[kind], t->exc_msg, __builtin_return_address(0),
			    exc_hresults[kind], 0x10 /* CLSCompliant */);
	handler = first_pass(t);
	if (!handler) {
		pr_warn("unhandled exception %s: %s\n", rt_exception_types[kind], t->exc_msg);
		abort();
	}
	second_pass(handler, (uintptr_t *)__builtin_frame_address(0), arg);
	t->try_top = handler;
	longjmp(handler->jb, 1);
}

/* ---- monitors and sleeping --------------------------------------------- */

static void handshake_wait(struct pair_lock *pl, uint64_t *field, uint64_t want)
{
	pthread_mutex_lock(&pl->m);
	while (*field < want && !rt->stopping) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&pl->cv, &pl->m, &ts);
	}
	pthread_mutex_unlock(&pl->m);
}

static uint64_t pl_tried(struct pair_lock *pl)
{
	uint64_t v;

	pthread_mutex_lock(&pl->m);
	v = pl->tried;
	pthread_mutex_unlock(&pl->m);
	return v;
}

static void handshake_post(struct pair_lock *pl, uint64_t *field, uint64_t val)
{
	pthread_mutex_lock(&pl->m);
	*field = val;
	pthread_cond_broadcast(&pl->cv);
	pthread_mutex_unlock(&pl->m);
}

static void contended_lock(struct pair_lock *pl, uint64_t want)
{
	uint64_t t0, dt;
	unsigned long long max;

	if (pthread_mutex_trylock(&pl->monitor) == 0) {	/* holder gave up (stopping) */
		handshake_post(pl, &pl->tried, want);
		handshake_post(pl, &pl->acquired, want);
		return;
	}
	ev_contention_start();
	t0 = mono_ns();
	handshake_post(pl, &pl->tried, want);
	pthread_mutex_lock(&pl->monitor);
	dt = mono_ns() - t0;
	handshake_post(pl, &pl->acquired, want);
	ev_contention_stop((double)dt);
	rt_self->contention_count++;
	rt_self->contention_ns += dt;
	atomic_fetch_add(&contention_count, 1);
	atomic_fetch_add(&contention_ns, dt);
	max = atomic_load(&contention_max_ns);
	while (dt > max && !atomic_compare_exchange_weak(&contention_max_ns, &max, dt))
		;
}

void rt_helper_monitor_enter(int64_t iter)
{
	struct rt_thread *t = rt_self;
	struct pair_lock *pl = &pairs[t->index / 2];
	int partner = t->index ^ 1;
	uint64_t want = (uint64_t)iter + 1;

	rt_gc_poll();
	rt_coop_leave();
	if (partner >= rt->env.threads) {			/* no partner: uncontended */
		pthread_mutex_lock(&pl->monitor);
	} else if ((t->index & 1) == (int)(iter & 1)) {	/* holder */
		/* the previous waiter must have got the monitor first (no barging) */
		handshake_wait(pl, &pl->acquired, pl_tried(pl));
		pthread_mutex_lock(&pl->monitor);
		handshake_post(pl, &pl->held, want);
		handshake_wait(pl, &pl->tried, want);
	} else {					/* waiter */
		handshake_wait(pl, &pl->held, want);
		contended_lock(pl, want);
	}
	rt_coop_enter();
}

void rt_helper_monitor_exit(int64_t iter)
{
	(void)iter;
	pthread_mutex_unlock(&pairs[rt_self->index / 2].monitor);
	rt_gc_poll();
}

void rt_helper_sleep(int64_t us)
{
	uint64_t t0 = mono_ns();

	rt_coop_leave();
	sleep_ns((uint64_t)us * 1000);
	rt_coop_enter();
	rt_self->sleep_ns += mono_ns() - t0;
}

/* ---- jit-churn ---------------------------------------------------------- */

int64_t rt_helper_churn(int64_t iter)
{
	if (rt_self->index != 0)
		return 0;
	rt_gc_poll();
	return loader__plugin_churn((uint64_t)iter);
}

void helpers__summary(FILE *f)
{
	fprintf(f, "  \"contention\": {\"count\": %llu, \"total_wait_ns\": %llu, "
		"\"max_wait_ns\": %llu, \"hold_us\": %u},\n",
		(unsigned long long)atomic_load(&contention_count),
		(unsigned long long)atomic_load(&contention_ns),
		(unsigned long long)atomic_load(&contention_max_ns), rt->env.hold_us);
	fprintf(f, "  \"exceptions\": {\"total\": %llu, \"frames_unwound\": %llu, \"by_type\": {",
		(unsigned long long)(atomic_load(&exc_by_type[0]) + atomic_load(&exc_by_type[1]) +
				     atomic_load(&exc_by_type[2])),
		(unsigned long long)atomic_load(&exc_frames_unwound));
	for (int i = 0; i < EXC__COUNT; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", rt_exception_types[i],
			(unsigned long long)atomic_load(&exc_by_type[i]));
	fprintf(f, "},\n    \"thrown\": [");
	for (unsigned int i = 0; i < atomic_load(&exc_log_next) && i < MAX_EXC_LOG; i++) {
		char msg[200];

		snprintf(msg, sizeof(msg), "%s (worker %d, operation %llu)",
			 exc_messages[exc_log[i].kind], exc_log[i].worker,
			 (unsigned long long)exc_log[i].op);
		fprintf(f, "%s\n      {\"type\": \"%s\", \"message\": ", i ? "," : "",
			rt_exception_types[exc_log[i].kind]);
		json_str(f, msg);
		fprintf(f, ", \"hresult\": %u, \"worker\": %d, \"ns\": %llu}",
			exc_hresults[exc_log[i].kind], exc_log[i].worker,
			(unsigned long long)exc_log[i].ns);
	}
	fprintf(f, "%s]},\n", atomic_load(&exc_log_next) ? "\n    " : "");
}
