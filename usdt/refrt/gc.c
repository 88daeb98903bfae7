// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * gc.c - a small generational, stop-the-world GC model.
 *
 * Threads and suspension.  A worker runs managed code in "cooperative"
 * mode: it holds suspend_lock (a writer-preferring rwlock) for reading.  It
 * switches to "preemptive" mode (drops the read lock) around every blocking
 * call -- monitor waits, sleeps, thread-pool pacing -- and polls for a
 * pending GC in every runtime helper, as CoreCLR threads do at GC safe
 * points.  The GC thread suspends the runtime by taking suspend_lock for
 * writing, which waits for every cooperative thread to reach a safe point:
 * GCSuspendEEBegin/End bracket that wait, GCRestartEEBegin/End the release.
 *
 * Allocation.  Small objects (< 85,000 bytes) are bump-allocated from the
 * gen0 arena under heap_lock; each carries an 8-byte header holding its size
 * (CoreCLR keeps the object header at -8 as well).  Large objects are
 * accounted in the LOH and share one scratch buffer.
 *
 * Determinism.  The decisions depend only on cumulative allocated bytes,
 * which are the same for every thread interleaving: small-object GC number
 * j is owed once the SOH total reaches j * GEN0_BUDGET, LOH GC number j at
 * j * LOH_BUDGET, and an allocation tick fires whenever the SOH or LOH
 * total crosses a multiple of 100 KiB (CoreCLR's tick distance).  The
 * generation of small-object GC j is 2 every 16th, 1 every 4th, else 0; LOH
 * and induced GCs are gen2.  So the number of GCs of each generation and
 * reason, and of every GC event, is fixed for a seed and iteration count.
 *
 * Collection.  A gen0 GC walks the arena, copies the survivors (a
 * deterministic ~10% of objects) into the gen1 area and resets the arena;
 * sizes reported in GCHeapStats follow the same model.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "events.h"
#include "refrt.h"

static struct refrt *rt;	/* the runtime, from this part's init */

#define GEN0_BUDGET (512u << 10)
#define LOH_BUDGET (4u << 20)
#define LOH_THRESHOLD 85000u
#define TICK_DISTANCE (100u << 10)
#define ARENA_SIZE (4 * GEN0_BUDGET)
#define GEN1_AREA (1u << 20)
#define LOH_SCRATCH (256u << 10)

enum { REASON_ALLOC_SMALL = 0, REASON_INDUCED = 1, REASON_ALLOC_LARGE = 4 };

#define MAX_GC_LOG 4096

static pthread_rwlock_t suspend_lock;
static struct {
	uint32_t index, gen, reason;
	uint64_t start_ns, end_ns;	/* GCSuspendEEBegin .. GCRestartEEEnd */
} gc_log[MAX_GC_LOG];
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int gc_pending;

static uint8_t *arena, *gen1_area, *loh_scratch;
static uint32_t arena_used, gen1_cursor;

static struct {
	uint64_t soh_total, loh_total;	/* cumulative bytes */
	uint64_t soh_since_gc;
	uint64_t soh_gcs_done, loh_gcs_done, induced_requested, induced_done;
	uint64_t tick_soh_last, tick_loh_last;	/* cumulative at the last tick */
	uint64_t ticks;
	bool in_progress;
	uint32_t gc_index;
	uint64_t by_gen[3], by_reason[5];
	uint64_t gen_size[5];
	uint64_t pause_ns_total, suspend_ns_total;
	uint64_t objects;
} h;

/* ---- cooperative / preemptive modes ---------------------------------- */

__thread struct rt_thread *rt_self;

void rt_coop_enter(void)
{
	pthread_rwlock_rdlock(&suspend_lock);
}

void rt_coop_leave(void)
{
	pthread_rwlock_unlock(&suspend_lock);
}

void rt_gc_poll(void)
{
	if (atomic_load_explicit(&gc_pending, memory_order_acquire)) {
		rt_coop_leave();
		rt_coop_enter();
	}
}

int gc__init(struct refrt *r)
{
	pthread_rwlockattr_t a;
	void *p;

	rt = r;
	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&suspend_lock, &a);
	pthread_rwlockattr_destroy(&a);
	p = mmap(NULL, ARENA_SIZE + GEN1_AREA + LOH_SCRATCH, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	arena = p;
	gen1_area = arena + ARENA_SIZE;
	loh_scratch = gen1_area + GEN1_AREA;
	return 0;
}

/* ---- the collection -------------------------------------------------- */

static bool survives(uint64_t gc, uint32_t off)
{
	uint64_t x = (gc << 32 | off) * 0x9e3779b97f4a7c15ull;

	return (x >> 60) < 2;	/* ~12.5% */
}

/* copy gen0 survivors into gen1, return promoted bytes; all threads suspended */
static uint64_t sweep_gen0(uint32_t gc)
{
	uint64_t promoted = 0;

	for (uint32_t off = 0; off < arena_used;) {
		uint32_t size = *(uint32_t *)(arena + off);

		if (size < 16 || off + size > arena_used)
			break;
		if (survives(gc, off)) {
			if (gen1_cursor + size > GEN1_AREA)
				gen1_cursor = 0;
			memcpy(gen1_area + gen1_cursor, arena + off, size);
			gen1_cursor += size;
			promoted += size;
		}
		off += size;
	}
	arena_used = 0;
	return promoted;
}

static void collect_one(uint32_t reason, uint32_t gen)
{
	struct gc_heap_stats s = { 0 };
	uint64_t t0, t1, gen0_before, p0, p1 = 0, p2 = 0, p3 = 0;
	uint32_t index;

	pthread_mutex_lock(&heap_lock);
	index = ++h.gc_index;
	gen0_before = h.soh_since_gc;
	h.soh_since_gc = 0;
	pthread_mutex_unlock(&heap_lock);

	ev_gc_triggered(reason);
	ev_gc_suspend(false, 1 /* SuspendForGC */, index);
	t0 = mono_ns();
	atomic_store(&gc_pending, 1);
	pthread_rwlock_wrlock(&suspend_lock);
	t1 = mono_ns();
	ev_gc_suspend(true, 0, 0);
	ev_gc_start(index, gen, reason, 0 /* NonConcurrentGC */);

	p0 = sweep_gen0(index);
	(void)gen0_before;
	h.gen_size[1] += p0;
	if (gen >= 1) {
		p1 = h.gen_size[1] * 3 / 10;
		h.gen_size[2] += p1;
		h.gen_size[1] = 0;
	}
	if (gen >= 2) {
		p2 = h.gen_size[2] * 8 / 10;
		h.gen_size[2] = p2;
		p3 = h.gen_size[3] / 2;
		h.gen_size[3] = p3;
	}
	h.by_gen[gen]++;
	h.by_reason[reason]++;

	ev_gc_global_heap_history(GEN0_BUDGET, gen, reason, gen ? 0x6 : 0x4);
	ev_gc_end(index, gen);
	s.gen_size[0] = 0;
	s.gen_size[1] = h.gen_size[1];
	s.gen_size[2] = h.gen_size[2];
	s.gen_size[3] = h.gen_size[3];
	s.promoted[0] = p0;
	s.promoted[1] = p1;
	s.promoted[2] = p2;
	s.promoted[3] = p3;
	s.handles = 64 + (uint32_t)rt->env.threads * 4;
	ev_gc_heap_stats(&s);
	ev_gc_restart(false);
	atomic_store(&gc_pending, 0);
	pthread_rwlock_unlock(&suspend_lock);
	ev_gc_restart(true);
	h.suspend_ns_total += t1 - t0;
	h.pause_ns_total += mono_ns() - t0;
	if (index <= MAX_GC_LOG) {
		gc_log[index - 1].index = index;
		gc_log[index - 1].gen = gen;
		gc_log[index - 1].reason = reason;
		gc_log[index - 1].start_ns = t0;
		gc_log[index - 1].end_ns = mono_ns();
	}
}

/* next owed GC under heap_lock: false when none */
static bool next_owed(uint32_t *reason, uint32_t *gen)
{
	if (h.induced_done < h.induced_requested) {
		h.induced_done++;
		*reason = REASON_INDUCED;
		*gen = 2;
		return true;
	}
	if (h.loh_gcs_done < h.loh_total / LOH_BUDGET) {
		h.loh_gcs_done++;
		*reason = REASON_ALLOC_LARGE;
		*gen = 2;
		return true;
	}
	if (h.soh_gcs_done < h.soh_total / GEN0_BUDGET) {
		uint64_t j = ++h.soh_gcs_done;

		*reason = REASON_ALLOC_SMALL;
		*gen = j % 16 == 0 ? 2 : j % 4 == 0 ? 1 : 0;
		return true;
	}
	return false;
}

/*
 * Called with heap_lock held by a cooperative thread.  If GCs are owed and
 * nobody is collecting, become the GC thread: run them all (in preemptive
 * mode, so that our own read lock does not block the suspension).
 * Returns with heap_lock held.
 */
static void maybe_collect_locked(void)
{
	uint32_t reason, gen;

	if (h.in_progress)
		return;
	h.in_progress = true;
	while (next_owed(&reason, &gen)) {
		pthread_mutex_unlock(&heap_lock);
		rt_coop_leave();
		collect_one(reason, gen);
		rt_coop_enter();
		pthread_mutex_lock(&heap_lock);
	}
	h.in_progress = false;
}

static void tick(uint32_t kind, uint64_t total, uint64_t *last, const struct rt_type *t,
		 const void *addr)
{
	if (total / TICK_DISTANCE == *last / TICK_DISTANCE)
		return;
	/* one tick per 100 KiB boundary crossed */
	for (uint64_t b = *last / TICK_DISTANCE; b < total / TICK_DISTANCE; b++) {
		ev_gc_allocation_tick(kind, total - *last, t->name, RT_TYPE_ID(t), addr);
		h.ticks++;
	}
	*last = total;
}

void *gc__alloc(const struct rt_type *t, uint32_t size)
{
	struct rt_thread *self = rt_self;
	uint8_t *obj;

	size = (size + 7) & ~7u;
	if (size < 24)
		size = 24;
	pthread_mutex_lock(&heap_lock);
	if (size >= LOH_THRESHOLD) {
		obj = loh_scratch + (h.loh_total % (LOH_SCRATCH / 2) & ~7ull);
		h.loh_total += size;
		h.gen_size[3] += size;
		tick(1, h.loh_total, &h.tick_loh_last, t, obj);
	} else {
		while (arena_used + size + 8 > ARENA_SIZE) {
			/* arena full: wait for the owed GC to run */
			pthread_mutex_unlock(&heap_lock);
			rt_coop_leave();
			rt_coop_enter();
			pthread_mutex_lock(&heap_lock);
			maybe_collect_locked();
		}
		*(uint32_t *)(arena + arena_used) = size + 8;
		obj = arena + arena_used + 8;
		arena_used += size + 8;
		h.soh_total += size;
		h.soh_since_gc += size;
		tick(0, h.soh_total, &h.tick_soh_last, t, obj);
	}
	h.objects++;
	memset(obj, 0, size < LOH_SCRATCH / 2 ? size : 64);
	*(uint64_t *)obj = RT_TYPE_ID(t);
	maybe_collect_locked();
	pthread_mutex_unlock(&heap_lock);
	if (self) {
		self->alloc_bytes += size;
		self->alloc_objects++;
	}
	return obj;
}

void gc__collect_induced(void)
{
	pthread_mutex_lock(&heap_lock);
	h.induced_requested++;
	maybe_collect_locked();
	pthread_mutex_unlock(&heap_lock);
}

void gc__summary(FILE *f)
{
	pthread_mutex_lock(&heap_lock);
	fprintf(f, "  \"gc\": {\"count\": %u, \"gen0\": %llu, \"gen1\": %llu, \"gen2\": %llu, "
		"\"reason_alloc_small\": %llu, \"reason_induced\": %llu, \"reason_alloc_large\": %llu, "
		"\"suspend_ns\": %llu, \"pause_ns\": %llu, \"gen0_budget\": %u,\n    \"collections\": [",
		h.gc_index, (unsigned long long)h.by_gen[0], (unsigned long long)h.by_gen[1],
		(unsigned long long)h.by_gen[2], (unsigned long long)h.by_reason[0],
		(unsigned long long)h.by_reason[1], (unsigned long long)h.by_reason[4],
		(unsigned long long)h.suspend_ns_total, (unsigned long long)h.pause_ns_total,
		GEN0_BUDGET);
	for (uint32_t i = 0; i < h.gc_index && i < MAX_GC_LOG; i++)
		fprintf(f, "%s\n      {\"index\": %u, \"gen\": %u, \"reason\": %u, \"type\": 0, "
			"\"start_ns\": %llu, \"end_ns\": %llu}", i ? "," : "", gc_log[i].index,
			gc_log[i].gen, gc_log[i].reason, (unsigned long long)gc_log[i].start_ns,
			(unsigned long long)gc_log[i].end_ns);
	fprintf(f, "%s]},\n", h.gc_index ? "\n    " : "");
	fprintf(f, "  \"allocations\": {\"bytes\": %llu, \"objects\": %llu, \"soh_bytes\": %llu, "
		"\"loh_bytes\": %llu, \"ticks\": %llu, \"tick_distance\": %u},\n",
		(unsigned long long)(h.soh_total + h.loh_total), (unsigned long long)h.objects,
		(unsigned long long)h.soh_total, (unsigned long long)h.loh_total,
		(unsigned long long)h.ticks, TICK_DISTANCE);
	pthread_mutex_unlock(&heap_lock);
}
