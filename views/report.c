// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `report`: top methods, off-CPU time, events, GC pauses and exceptions of a
 * trace, and the runtime's summary as dotnet-trace and PerfView users read
 * it: JIT, GC (generations, reasons, heap sizes), contention, thread pool,
 * allocation ticks.  Runtime fields are read by name through the event
 * tables (usdt/manifest_meta.h), whatever the event's version.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "views.h"
#include "utf16.h"
#include "rundown.h"
#define LOG_PREFIX "report: "
#define COMM_LEN	16	/* the kernel's comm, NUL included */
#include "log.h"
#include "outfile.h"
#include "view.h"
#include "manifest_meta.h"
#include "event_table.h"

/* ------------------------------------------------------------- report */

struct u64map {
	uint64_t *keys, *vals;	/* key 0 is never used: callers add 1 */
	size_t n, cap;
};

static uint64_t *u64map__slot(struct u64map *m, uint64_t key)
{
	size_t k, i;

	if (m->n * 2 >= m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;
		uint64_t *nk = calloc(cap, sizeof(*nk)), *nv = calloc(cap, sizeof(*nv));

		if (!nk || !nv) {
			free(nk);
			free(nv);
			return NULL;
		}
		for (i = 0; i < m->cap; i++) {
			if (!m->keys[i])
				continue;
			for (k = (m->keys[i] * 0x9e3779b97f4a7c15ULL) >> 7 & (cap - 1); nk[k];
			     k = (k + 1) & (cap - 1))
				;
			nk[k] = m->keys[i];
			nv[k] = m->vals[i];
		}
		free(m->keys);
		free(m->vals);
		m->keys = nk;
		m->vals = nv;
		m->cap = cap;
	}
	for (k = (key * 0x9e3779b97f4a7c15ULL) >> 7 & (m->cap - 1); m->keys[k];
	     k = (k + 1) & (m->cap - 1))
		if (m->keys[k] == key)
			return &m->vals[k];
	m->keys[k] = key;
	m->n++;
	return &m->vals[k];
}

static void u64map__free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
}

struct etype {
	char name[256];
	uint64_t count;
};

struct exc_type {
	char *type, *message;
	uint64_t count;
};

struct gc_pending {
	uint32_t count, gen;
	uint64_t ts;
};

/* A count and a sum per name (allocation ticks by type, JIT by tier) */
struct named_sum {
	char *name;
	uint64_t n, sum;
};

struct named_sums {
	struct named_sum *v;
	size_t n, cap;
};

/* a method being jitted: MethodJittingStarted's time by MethodID */
struct jit_pending {
	uint64_t method_id, ts;
};

struct report {
	struct view *v;
	FILE *out;			/* where the report goes */
	struct etype *etypes;
	size_t n_etypes, cap_etypes;
	struct u64map leaf;		/* (etype + 1) << 32 | frame → count */
	struct exc_type *exc;
	size_t n_exc, cap_exc;
	uint64_t cpu_total, cpu_managed, cpu_external;
	uint64_t pause_n, pause_total, pause_max, suspend_ts;
	int suspended;
	struct gc_pending pend[64];
	int n_pend;
	uint64_t gc_n[4], gc_total[4], gc_max[4];
	/* off-CPU time: key (managed frame + 1) << 32 | (user leaf + 1) */
	struct u64map offcpu_ns, offcpu_n;
	uint64_t offcpu_total, offcpu_events;
	/* per process (key pid + 1): events beyond Linux-Kernel-*, CPU
	 * samples, GCs, exceptions */
	struct u64map proc_events, proc_samples, proc_gcs, proc_exc;
	/* the runtime's summary */
	struct named_sums jit_tiers, gc_reasons, tp_reasons, alloc_types;
	struct jit_pending jit_pend[256];
	size_t n_jit_pend;
	uint64_t jit_n, jit_ns, jit_timed;
	uint64_t gc_depth_n[4], gc_ranges[5], heap_stats;
	uint64_t gen_size[5], gen_size_max[5];
	uint64_t cont_n, cont_stops, cont_ns;
	uint64_t tp_n, tp_min, tp_max, tp_last;
	uint64_t alloc_n, alloc_bytes;
	/* pid + 1 -> index + 1 in comms: the collector's ProcessInfo events */
	struct u64map proc_comm;
	char (*comms)[COMM_LEN];
	size_t n_comms, cap_comms;
};

static int named_sums__add(struct named_sums *s, const char *name, uint64_t n, uint64_t sum)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			break;
	if (i == s->n) {
		if (GROW(s->v, s->cap, s->n + 1))
			return -ENOMEM;
		s->v[i].name = strdup(name);
		if (!s->v[i].name)
			return -ENOMEM;
		s->v[i].n = s->v[i].sum = 0;
		s->n++;
	}
	s->v[i].n += n;
	s->v[i].sum += sum;
	return 0;
}

static void named_sums__free(struct named_sums *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
}

static int named_sum_cmp(const void *a, const void *b)
{
	const struct named_sum *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int report__etype(struct report *rp, const char *name)
{
	size_t i;

	for (i = 0; i < rp->n_etypes; i++)
		if (!strcmp(rp->etypes[i].name, name))
			return (int)i;
	if (GROW(rp->etypes, rp->cap_etypes, rp->n_etypes + 1))
		return -1;
	snprintf(rp->etypes[rp->n_etypes].name, sizeof(rp->etypes[0].name), "%s", name);
	rp->etypes[rp->n_etypes].count = 0;
	return (int)rp->n_etypes++;
}

static int report__exception(struct report *rp, const struct nt_read_event *ev)
{
	char type[1024] = "", msg[1024] = "";
	long n = utf16le_to_utf8(ev->payload, ev->payload_size, type, sizeof(type));
	size_t i;

	if (n > 0)
		utf16le_to_utf8(ev->payload + n, ev->payload_size - (size_t)n, msg, sizeof(msg));
	if (!type[0])
		snprintf(type, sizeof(type), "[unknown]");
	for (i = 0; i < rp->n_exc; i++)
		if (!strcmp(rp->exc[i].type, type)) {
			rp->exc[i].count++;
			return 0;
		}
	if (GROW(rp->exc, rp->cap_exc, rp->n_exc + 1))
		return -ENOMEM;
	rp->exc[rp->n_exc].type = strdup(type);
	rp->exc[rp->n_exc].message = strdup(msg);
	rp->exc[rp->n_exc].count = 1;
	rp->n_exc++;
	return 0;
}

static void report__gc(struct report *rp, const struct nt_read_event *ev)
{
	const struct nt_metadata *m = ev->meta;
	uint64_t dt;
	int i;

	if (view_is_clr(m, 9)) {		/* GCSuspendEEBegin */
		rp->suspended = 1;
		rp->suspend_ts = ev->timestamp;
	} else if (view_is_clr(m, 3) && rp->suspended) {	/* GCRestartEEEnd */
		rp->suspended = 0;
		dt = ev->timestamp - rp->suspend_ts;
		rp->pause_n++;
		rp->pause_total += dt;
		if (dt > rp->pause_max)
			rp->pause_max = dt;
	} else if (view_is_clr(m, 1)) {	/* GCStart: Count, Depth (v1+) */
		if (rp->n_pend == 64)
			rp->n_pend = 0;
		rp->pend[rp->n_pend].count = view_payload_u32(ev, 0);
		rp->pend[rp->n_pend].gen = m->version >= 1 ? view_payload_u32(ev, 4) : 0;
		rp->pend[rp->n_pend].ts = ev->timestamp;
		rp->n_pend++;
	} else if (view_is_clr(m, 2)) {	/* GCEnd: Count, Depth */
		uint32_t count = view_payload_u32(ev, 0);

		for (i = rp->n_pend - 1; i >= 0; i--) {
			uint32_t g;

			if (rp->pend[i].count != count)
				continue;
			g = rp->pend[i].gen > 3 ? 3 : rp->pend[i].gen;
			dt = ev->timestamp - rp->pend[i].ts;
			rp->gc_n[g]++;
			rp->gc_total[g] += dt;
			if (dt > rp->gc_max[g])
				rp->gc_max[g] = dt;
			rp->pend[i] = rp->pend[--rp->n_pend];
			break;
		}
	}
}

/* A top-level integer field of a runtime event, by name; 0 when absent. */
static uint64_t fld(const struct nt_read_event *ev, const char *name)
{
	const struct ect_event *e = ev->meta->manifest;
	uint64_t v = 0;

	if (e)
		ect_payload_get_u64(e, ev->payload, ev->payload_size, name, &v);
	return v;
}

/* A Double field (ContentionStop's DurationNs), by name; 0 when absent. */
static double fld_double(const struct nt_read_event *ev, const char *name)
{
	const struct ect_event *e = ev->meta->manifest;
	struct ect_field_loc loc;
	double d = 0;

	if (e && !ect_payload_field(e, ev->payload, ev->payload_size, name, &loc) &&
	    loc.field->intype == ECT_DOUBLE && loc.n == 8)
		memcpy(&d, loc.p, 8);
	return d;
}

/* A UTF-16 string field, by name, as UTF-8 into buf ("" when absent). */
static const char *fld_str(const struct nt_read_event *ev, const char *name, char *buf,
			   size_t len)
{
	const struct ect_event *e = ev->meta->manifest;
	struct ect_field_loc loc;

	buf[0] = 0;
	if (e && !ect_payload_field(e, ev->payload, ev->payload_size, name, &loc) &&
	    loc.field->intype == ECT_UNICODE)
		utf16le_to_utf8(loc.p, loc.n, buf, len);
	return buf;
}

/* TraceEvent's names of GCStart's Reason and of the thread pool's
 * adjustment Reason (ClrTraceEventParser's GCReason, ThreadAdjustmentReason) */
static const char *const gc_reasons[] = {
	"AllocSmall", "Induced", "LowMemory", "Empty", "AllocLarge", "OutOfSpaceSOH",
	"OutOfSpaceLOH", "InducedNotForced", "Internal", "InducedLowMemory",
	"InducedCompacting", "LowMemoryHost", "PMFullGC", "LowMemoryHostBlocking",
};
static const char *const tp_reasons[] = {
	"Warmup", "Initializing", "RandomMove", "ClimbingMove", "ChangePoint", "Stabilizing",
	"Starvation", "ThreadTimedOut", "CooperativeBlocking",
};
/* MethodFlags bits 7-9: the code version's optimization tier */
static const char *const jit_tiers[] = {
	"Unknown", "MinOptJitted", "Optimized", "QuickJitted", "OptimizedTier1", "ReadyToRun",
	"PreJIT", "QuickJittedInstrumented",
};

static const char *enum_name(const char *const *names, size_t n, uint64_t v, char *buf,
			     size_t len)
{
	if (v < n)
		return names[v];
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

#define ENUM_NAME(names, v, buf) enum_name(names, sizeof(names) / sizeof(names[0]), v, buf, sizeof(buf))

/* A method's tier: the signature's "[Tier]" (.NET 10), else MethodFlags'. */
static const char *jit_tier(const struct nt_read_event *ev, char *buf, size_t len)
{
	char sig[1024], *lb;
	size_t n;

	fld_str(ev, "MethodSignature", sig, sizeof(sig));
	n = strlen(sig);
	lb = n && sig[n - 1] == ']' ? strrchr(sig, '[') : NULL;
	if (lb && lb > sig && lb[-1] == ')') {
		snprintf(buf, len, "%.*s", (int)(n - (size_t)(lb - sig) - 2), lb + 1);
		return buf;
	}
	return enum_name(jit_tiers, sizeof(jit_tiers) / sizeof(jit_tiers[0]),
			 fld(ev, "MethodFlags") >> 7 & 7, buf, len);
}

/* The runtime's summary: JIT, GC, contention, thread pool, allocations. */
static int report__runtime(struct report *rp, const struct nt_read_event *ev)
{
	const struct nt_metadata *m = ev->meta;
	char buf[1024];
	uint64_t v;
	size_t i;

	if (!view_is_clr(m, m->event_id))
		return 0;
	switch (m->event_id) {
	case 145:	/* MethodJittingStarted */
		if (rp->n_jit_pend == sizeof(rp->jit_pend) / sizeof(rp->jit_pend[0]))
			rp->n_jit_pend = 0;	/* starts without loads: forget them */
		rp->jit_pend[rp->n_jit_pend++] = (struct jit_pending){ fld(ev, "MethodID"),
								       ev->timestamp };
		return 0;
	case 143:	/* MethodLoadVerbose */
		v = fld(ev, "MethodID");
		rp->jit_n++;
		for (i = rp->n_jit_pend; i-- > 0;)
			if (rp->jit_pend[i].method_id == v) {
				rp->jit_ns += (uint64_t)view_ticks_to_ns(rp->v,
									   ev->timestamp - rp->jit_pend[i].ts);
				rp->jit_timed++;
				rp->jit_pend[i] = rp->jit_pend[--rp->n_jit_pend];
				break;
			}
		return named_sums__add(&rp->jit_tiers, jit_tier(ev, buf, sizeof(buf)), 1, 0);
	case 1:		/* GCStart */
		v = fld(ev, "Depth");
		rp->gc_depth_n[v > 3 ? 3 : v]++;
		return named_sums__add(&rp->gc_reasons, ENUM_NAME(gc_reasons, fld(ev, "Reason"), buf),
				       1, 0);
	case 4:		/* GCHeapStats */
		rp->heap_stats++;
		for (i = 0; i < 5; i++) {
			snprintf(buf, sizeof(buf), "GenerationSize%zu", i);
			rp->gen_size[i] = fld(ev, buf);
			if (rp->gen_size[i] > rp->gen_size_max[i])
				rp->gen_size_max[i] = rp->gen_size[i];
		}
		return 0;
	case 23:	/* GCGenerationRange */
		v = fld(ev, "Generation");
		rp->gc_ranges[v > 4 ? 4 : v]++;
		return 0;
	case 81:	/* ContentionStart */
		rp->cont_n++;
		return 0;
	case 91:	/* ContentionStop: DurationNs since v1 */
		rp->cont_stops++;
		rp->cont_ns += (uint64_t)fld_double(ev, "DurationNs");
		return 0;
	case 55:	/* ThreadPoolWorkerThreadAdjustmentAdjustment */
		v = fld(ev, "NewWorkerThreadCount");
		if (!rp->tp_n++ || v < rp->tp_min)
			rp->tp_min = v;
		if (v > rp->tp_max)
			rp->tp_max = v;
		rp->tp_last = v;
		return named_sums__add(&rp->tp_reasons, ENUM_NAME(tp_reasons, fld(ev, "Reason"), buf),
				       1, 0);
	case 10:	/* GCAllocationTick: bytes since the last tick, of a type (v2+) */
		v = m->version >= 2 ? fld(ev, "AllocationAmount64") : fld(ev, "AllocationAmount");
		rp->alloc_n++;
		rp->alloc_bytes += v;
		fld_str(ev, "TypeName", buf, sizeof(buf));
		return named_sums__add(&rp->alloc_types, buf[0] ? buf : "[unknown type]", 1, v);
	}
	return 0;
}

/* Leaf managed frame of a stack (first JIT frame from the leaf), else the leaf. */
static uint32_t report__leaf_managed(const struct view *v, uint32_t sid)
{
	const struct vstack *st = &v->stacks[sid];
	uint32_t d;

	for (d = st->depth; d-- > 0;)
		if (v->frames[v->frames_pool[st->off + d]].kind == SYM_KIND_JIT)
			return v->frames_pool[st->off + d];
	return st->depth ? v->frames_pool[st->off + st->depth - 1] : UINT32_MAX;
}

/* Kernel OffCpu events (collector/sources/kernel_events.c: provider
 * Linux-Kernel-Sched, id 3, fields Pid, Tid, DurationNs, ...): blocked time
 * by (leaf managed frame, leaf user frame) of the blocking stack. */
static int report__offcpu(struct report *rp, const struct nt_read_event *ev)
{
	const struct nt_metadata *m = ev->meta;
	struct view *v = rp->v;
	uint32_t sid, managed, user = UINT32_MAX, d;
	uint64_t ns, key, *slot;

	if (m->event_id != 3 || !view_streq_ci(m->provider, "Linux-Kernel-Sched") ||
	    m->n_fields < 3 || strcmp(m->fields[2].name, "DurationNs"))
		return 0;
	ns = view_payload_u32(ev, 8) | (uint64_t)view_payload_u32(ev, 12) << 32;
	rp->offcpu_total += ns;
	rp->offcpu_events++;
	if (!ev->stack_depth)
		return 0;
	sid = view__event_stack(v, ev);
	if (sid == UINT32_MAX)
		return -ENOMEM;
	managed = report__leaf_managed(v, sid);
	for (d = v->stacks[sid].depth; d-- > 0;) {
		uint32_t f = v->frames_pool[v->stacks[sid].off + d];

		if (v->frames[f].kind != SYM_KIND_KERNEL) {
			user = f;
			break;
		}
	}
	if (managed != UINT32_MAX && v->frames[managed].kind != SYM_KIND_JIT)
		managed = UINT32_MAX;
	key = ((uint64_t)managed + 1) << 32 | ((uint64_t)user + 1);
	slot = u64map__slot(&rp->offcpu_ns, key);
	if (!slot)
		return -ENOMEM;
	*slot += ns;
	slot = u64map__slot(&rp->offcpu_n, key);
	if (!slot)
		return -ENOMEM;
	(*slot)++;
	return 0;
}

/* The collector's ProcessInfo event (provider ebpf-collect, id 3): who a
 * process of a V6 trace is.  1 when ev is one. */
static int report__process_info(struct report *rp, const struct nt_read_event *ev)
{
	uint64_t *slot;

	if (ev->meta->event_id != 3 || strcmp(ev->meta->provider, "ebpf-collect"))
		return 0;
	slot = u64map__slot(&rp->proc_comm, (uint64_t)ev->pid + 1);
	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (GROW(rp->comms, rp->cap_comms, rp->n_comms + 1))
			return -ENOMEM;
		*slot = ++rp->n_comms;
	}
	if (nt_payload_string(ev->meta, ev->payload, ev->payload_size, "Comm",
			      rp->comms[*slot - 1], COMM_LEN))
		rp->comms[*slot - 1][0] = '\0';
	return 1;
}

/* Per-process counts (a V6 trace of --all holds many processes). */
static int report__process(struct report *rp, const struct nt_read_event *ev)
{
	uint64_t key = (uint64_t)ev->pid + 1, *slot;
	int info;

	if (!strncmp(ev->meta->provider, "Linux-Kernel-", 13) || !ev->pid)
		return 0;
	info = report__process_info(rp, ev);
	if (info)
		return info < 0 ? info : 0;
	slot = u64map__slot(view__is_sample(rp->v, ev->meta) ? &rp->proc_samples : &rp->proc_events,
			    key);
	if (!slot)
		return -ENOMEM;
	(*slot)++;
	if (view_is_clr(ev->meta, 1) || view_is_clr(ev->meta, 80)) {
		slot = u64map__slot(view_is_clr(ev->meta, 1) ? &rp->proc_gcs : &rp->proc_exc, key);
		if (!slot)
			return -ENOMEM;
		(*slot)++;
	}
	return 0;
}

static int report__event(struct report *rp, const struct nt_read_event *ev)
{
	struct view *v = rp->v;
	char name[256];
	uint64_t *slot;
	uint32_t sid, leaf;
	int et;

	if (report__process(rp, ev))
		return -ENOMEM;

	if (view__is_sample(v, ev->meta)) {
		rp->cpu_total++;
		if (view_payload_u32(ev, 0) == 2)
			rp->cpu_managed++;
		else if (view_payload_u32(ev, 0) == 1)
			rp->cpu_external++;
		return ev->stack_depth ? view__add_sample(v, ev) : 0;
	}
	report__gc(rp, ev);
	if (report__runtime(rp, ev))
		return -ENOMEM;
	if (view_is_clr(ev->meta, 80) && report__exception(rp, ev))
		return -ENOMEM;
	if (report__offcpu(rp, ev))
		return -ENOMEM;
	/* the samples and switch-ins again, as the thread samples and OffCpu
	 * above when the trace has both (--sample-events) */
	if (!ev->stack_depth || view_streq_ci(ev->meta->provider, UNIVERSAL_EVENTS_PROVIDER))
		return 0;
	manifest_event_name(ev->meta, MANIFEST_NAME_TRACEEVENT, name, sizeof(name));
	et = report__etype(rp, name);
	if (et < 0)
		return -ENOMEM;
	rp->etypes[et].count++;
	sid = view__event_stack(v, ev);
	if (sid == UINT32_MAX)
		return -ENOMEM;
	leaf = report__leaf_managed(v, sid);
	if (leaf == UINT32_MAX)
		return 0;
	slot = u64map__slot(&rp->leaf, ((uint64_t)et + 1) << 32 | leaf);
	if (!slot)
		return -ENOMEM;
	(*slot)++;
	return 0;
}

/* Fit a name into w columns: drop the argument list first ("(..)"), then
 * keep the end of what is left (the type and method). */
static void print_fit(FILE *out, const char *s, int w)
{
	int l = (int)strlen(s), p;
	const char *paren = strchr(s, '(');

	if (l <= w) {
		fprintf(out, "%s\n", s);
		return;
	}
	p = paren ? (int)(paren - s) : l;
	if (p + 4 <= w)
		fprintf(out, "%.*s(..)\n", p, s);
	else
		fprintf(out, "..%.*s%s\n", w - 2 - (paren ? 4 : 0), s + p - (w - 2 - (paren ? 4 : 0)),
		       paren ? "(..)" : "");
}

static uint32_t *sort_frames_by;	/* 0 = self, 1 = total */
static const struct view *sort_view;

static int frame_cmp(const void *a, const void *b)
{
	const struct vframe *x = &sort_view->frames[*(const uint32_t *)a];
	const struct vframe *y = &sort_view->frames[*(const uint32_t *)b];
	uint64_t kx = *sort_frames_by ? x->total : x->self, ky = *sort_frames_by ? y->total : y->self;

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void report__cpu(struct report *rp, int top)
{
	struct view *v = rp->v;
	uint32_t *order, by = 0, d;
	size_t i, n = 0;
	uint64_t total = 0;

	for (i = 0; i < v->n_stacks; i++) {
		const struct vstack *st = &v->stacks[i];

		if (!st->count || !st->depth)
			continue;
		total += st->count;
		v->frames[v->frames_pool[st->off + st->depth - 1]].self += st->count;
		for (d = 0; d < st->depth; d++) {
			struct vframe *f = &v->frames[v->frames_pool[st->off + d]];

			if (f->last_stack != i) {
				f->last_stack = (uint32_t)i;
				f->total += st->count;
			}
		}
	}
	if (v->universal_samples)	/* a cpu event does not say which */
		fprintf(rp->out, "\nTop methods by CPU samples (%" PRIu64 " samples, Universal.Events "
			"cpu)\n", rp->cpu_total);
	else
		fprintf(rp->out, "\nTop methods by CPU samples (%" PRIu64 " samples: %" PRIu64
			" managed, %" PRIu64 " external)\n", rp->cpu_total, rp->cpu_managed,
			rp->cpu_external);
	if (!total) {
		fprintf(rp->out, "  (no samples with stacks)\n");
		return;
	}
	order = malloc(v->n_frames * sizeof(*order));
	if (!order)
		return;
	for (i = 0; i < v->n_frames; i++)
		if (v->frames[i].self)
			order[n++] = (uint32_t)i;
	sort_frames_by = &by;
	sort_view = v;
	qsort(order, n, sizeof(*order), frame_cmp);
	fprintf(rp->out, "%8s %6s %8s %6s  %s\n", "Excl", "Excl%", "Incl", "Incl%", "Method");
	for (i = 0; i < n && (int)i < top; i++) {
		const struct vframe *f = &v->frames[order[i]];

		fprintf(rp->out, "%8" PRIu64 " %5.1f%% %8" PRIu64 " %5.1f%%  ", f->self,
		       100.0 * (double)f->self / (double)total, f->total,
		       100.0 * (double)f->total / (double)total);
		print_fit(rp->out, f->name, 80 - 35);
	}
	free(order);
}

struct leaf_count {
	uint32_t frame;
	uint64_t count;
};

static int leaf_cmp(const void *a, const void *b)
{
	const struct leaf_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(sort_view->frames[x->frame].name, sort_view->frames[y->frame].name);
}

static uint64_t *offcpu_sort_vals;

/* "module!Ns.Type.Method(args)" -> "Type.Method": no module, no arguments,
 * at most the last two dotted parts. */
static const char *short_name(const char *full, char *buf, size_t len)
{
	const char *p = strchr(full, '!'), *dot1 = NULL, *dot2 = NULL, *q;
	size_t n, dots;

	p = p ? p + 1 : full;
	n = strcspn(p, "(");
	dots = strchr(p, '@') ? 0 : n;	/* not in "sym@@GLIBC_2.3" */
	for (q = p; q < p + dots; q++) {
		if (*q == '.') {
			dot2 = dot1;
			dot1 = q;
		}
	}
	if (dot2) {
		n -= dot2 + 1 - p;
		p = dot2 + 1;
	}
	snprintf(buf, len, "%.*s", (int)n, p);
	return buf;
}

static int offcpu_cmp(const void *a, const void *b)
{
	uint64_t x = offcpu_sort_vals[*(const size_t *)a], y = offcpu_sort_vals[*(const size_t *)b];

	return x == y ? 0 : x > y ? -1 : 1;
}

/* Off-CPU time by blocking frame. */
static void report__offcpu_print(struct report *rp, int top)
{
	struct view *v = rp->v;
	size_t k, n = 0, *idx;
	char name[512], a[240], b[240];
	int i;

	if (!rp->offcpu_events)
		return;
	fprintf(rp->out, "\nOff-CPU time by blocking frame (%.3f s in %" PRIu64 " OffCpu intervals;\n"
	       "leaf managed frame <- leaf user frame where the thread blocked)\n",
	       rp->offcpu_total / 1e9, rp->offcpu_events);
	idx = malloc((rp->offcpu_ns.cap ? rp->offcpu_ns.cap : 1) * sizeof(*idx));
	if (!idx)
		return;
	for (k = 0; k < rp->offcpu_ns.cap; k++)
		if (rp->offcpu_ns.keys[k])
			idx[n++] = k;
	offcpu_sort_vals = rp->offcpu_ns.vals;
	qsort(idx, n, sizeof(*idx), offcpu_cmp);
	fprintf(rp->out, "%10s %6s %8s  %s\n", "ms", "%", "Count", "Frames");
	for (i = 0; i < top && (size_t)i < n; i++) {
		uint64_t key = rp->offcpu_ns.keys[idx[i]], *cnt = u64map__slot(&rp->offcpu_n, key);
		uint32_t mf = (uint32_t)(key >> 32) - 1, uf = (uint32_t)key - 1;

		snprintf(name, sizeof(name), "%s <- %s",
			 mf != UINT32_MAX ? short_name(v->frames[mf].name, a, sizeof(a)) : "-",
			 uf != UINT32_MAX ? short_name(v->frames[uf].name, b, sizeof(b)) : "-");
		fprintf(rp->out, "%10.3f %5.1f%% %8" PRIu64 "  ", rp->offcpu_ns.vals[idx[i]] / 1e6,
		       rp->offcpu_total ? 100.0 * rp->offcpu_ns.vals[idx[i]] / rp->offcpu_total : 0,
		       cnt ? *cnt : 0);
		fprintf(rp->out, "%.51s\n", name);
	}
	free(idx);
}

static void report__events(struct report *rp, int top)
{
	struct view *v = rp->v;
	struct leaf_count *lc;
	size_t e, k, n;
	int i;

	fprintf(rp->out, "\nTop methods by event count (events with stacks; leaf managed frame)\n");
	if (!rp->n_etypes) {
		fprintf(rp->out, "  (no events with stacks)\n");
		return;
	}
	lc = malloc((rp->leaf.n ? rp->leaf.n : 1) * sizeof(*lc));
	if (!lc)
		return;
	sort_view = v;
	fprintf(rp->out, "%-24s %8s %8s  %s\n", "Event", "Events", "Count", "Method");
	for (e = 0; e < rp->n_etypes; e++) {
		fprintf(rp->out, "%-24.24s %8" PRIu64 "\n", rp->etypes[e].name, rp->etypes[e].count);
		for (k = 0, n = 0; k < rp->leaf.cap; k++)
			if (rp->leaf.keys[k] && (rp->leaf.keys[k] >> 32) == e + 1) {
				lc[n].frame = (uint32_t)rp->leaf.keys[k];
				lc[n++].count = rp->leaf.vals[k];
			}
		qsort(lc, n, sizeof(*lc), leaf_cmp);
		for (i = 0; i < top && (size_t)i < n; i++) {
			fprintf(rp->out, "%-24s %8s %8" PRIu64 "  ", "", "", lc[i].count);
			print_fit(rp->out, v->frames[lc[i].frame].name, 80 - 44);
		}
	}
	free(lc);
}

static void report__gc_print(struct report *rp, const struct view *v)
{
	int g;

	fprintf(rp->out, "\nGC pauses (GCSuspendEEBegin to GCRestartEEEnd)\n");
	fprintf(rp->out, "%8s %12s %12s %12s\n", "Count", "Total ms", "Max ms", "Mean ms");
	fprintf(rp->out, "%8" PRIu64 " %12.3f %12.3f %12.3f\n", rp->pause_n,
	       view_ticks_to_ns(v, rp->pause_total) / 1e6, view_ticks_to_ns(v, rp->pause_max) / 1e6,
	       rp->pause_n ? view_ticks_to_ns(v, rp->pause_total) / 1e6 / (double)rp->pause_n : 0.0);
	fprintf(rp->out, "\nGCs by generation (GCStart to GCEnd)\n");
	fprintf(rp->out, "%8s %8s %12s %12s\n", "Gen", "Count", "Total ms", "Max ms");
	for (g = 0; g < 4; g++)
		if (rp->gc_n[g])
			fprintf(rp->out, "%8d %8" PRIu64 " %12.3f %12.3f\n", g, rp->gc_n[g],
			       view_ticks_to_ns(v, rp->gc_total[g]) / 1e6, view_ticks_to_ns(v, rp->gc_max[g]) / 1e6);
}

static int exc_cmp(const void *a, const void *b)
{
	const struct exc_type *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->type, y->type);
}

static void report__exceptions(struct report *rp)
{
	size_t i;

	fprintf(rp->out, "\nExceptions by type\n");
	if (!rp->n_exc) {
		fprintf(rp->out, "  (none)\n");
		return;
	}
	qsort(rp->exc, rp->n_exc, sizeof(*rp->exc), exc_cmp);
	fprintf(rp->out, "%8s  %-36s %s\n", "Count", "Type", "First message");
	for (i = 0; i < rp->n_exc; i++)
		fprintf(rp->out, "%8" PRIu64 "  %-36.36s %.32s\n", rp->exc[i].count, rp->exc[i].type,
		       rp->exc[i].message ? rp->exc[i].message : "");
}

/* Up to top names of s, by sum then count: "  COUNT  [SUM]  NAME". */
static void print_named(FILE *out, struct named_sums *s, size_t top, const char *sum_unit)
{
	size_t i;

	qsort(s->v, s->n, sizeof(*s->v), named_sum_cmp);
	for (i = 0; i < s->n && i < top; i++) {
		if (sum_unit)
			fprintf(out, "%8" PRIu64 " %14" PRIu64 " %s  %.48s\n", s->v[i].n, s->v[i].sum,
				sum_unit, s->v[i].name);
		else
			fprintf(out, "%8" PRIu64 "  %.64s\n", s->v[i].n, s->v[i].name);
	}
	if (s->n > top)
		fprintf(out, "%8s  (%zu more)\n", "", s->n - top);
}

/* JIT, GC generations and heap, contention, thread pool, allocation ticks */
static void report__runtime_print(struct report *rp, int top)
{
	static const char *const gen_names[] = { "0", "1", "2", "LOH", "POH" };
	FILE *out = rp->out;
	int g;

	fprintf(out, "\nJIT (MethodJittingStarted to MethodLoadVerbose)\n");
	fprintf(out, "%8" PRIu64 " methods jitted, %" PRIu64 " timed: %.3f ms\n", rp->jit_n,
		rp->jit_timed, rp->jit_ns / 1e6);
	fprintf(out, "%8s  %s\n", "Count", "Tier");
	print_named(out, &rp->jit_tiers, (size_t)top, NULL);
	fprintf(out, "\nGCs by generation and reason (GCStart)\n");
	for (g = 0; g < 3; g++)
		fprintf(out, "%8" PRIu64 "  gen%d\n", rp->gc_depth_n[g], g);
	fprintf(out, "%8s  %s\n", "Count", "Reason");
	print_named(out, &rp->gc_reasons, (size_t)top, NULL);
	fprintf(out, "\nGC heap (GCHeapStats: %" PRIu64 " events; GCGenerationRange events)\n",
		rp->heap_stats);
	fprintf(out, "%8s %14s %14s %8s\n", "Gen", "Last bytes", "Max bytes", "Ranges");
	for (g = 0; g < 5; g++)
		fprintf(out, "%8s %14" PRIu64 " %14" PRIu64 " %8" PRIu64 "\n", gen_names[g],
			rp->gen_size[g], rp->gen_size_max[g], rp->gc_ranges[g]);
	fprintf(out, "\nContention (ContentionStart/Stop)\n");
	fprintf(out, "%8" PRIu64 " contentions, %" PRIu64 " ended: %.3f ms\n", rp->cont_n,
		rp->cont_stops, rp->cont_ns / 1e6);
	fprintf(out, "\nThread pool worker adjustments (ThreadPoolWorkerThreadAdjustment/Adjustment)\n");
	fprintf(out, "%8" PRIu64 " adjustments", rp->tp_n);
	if (rp->tp_n)
		fprintf(out, ": workers %" PRIu64 " to %" PRIu64 ", last %" PRIu64, rp->tp_min,
			rp->tp_max, rp->tp_last);
	fprintf(out, "\n");
	print_named(out, &rp->tp_reasons, (size_t)top, NULL);
	fprintf(out, "\nAllocation ticks by type (GCAllocationTick: %" PRIu64 " ticks, %" PRIu64
		" bytes)\n", rp->alloc_n, rp->alloc_bytes);
	fprintf(out, "%8s %14s %s  %s\n", "Ticks", "Bytes", " ", "Type");
	print_named(out, &rp->alloc_types, (size_t)top, " ");
}

static uint64_t map_get(const struct u64map *m, uint64_t key)
{
	size_t k;

	if (!m->cap)
		return 0;
	for (k = (key * 0x9e3779b97f4a7c15ULL) >> 7 & (m->cap - 1); m->keys[k];
	     k = (k + 1) & (m->cap - 1))
		if (m->keys[k] == key)
			return m->vals[k];
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One line per process when the trace holds more than one. */
static void report__processes(struct report *rp)
{
	uint64_t pids[4096];
	size_t i, n = 0;

	for (i = 0; i < rp->proc_events.cap && n < 4096; i++)
		if (rp->proc_events.keys[i])
			pids[n++] = rp->proc_events.keys[i];
	for (i = 0; i < rp->proc_samples.cap && n < 4096; i++)
		if (rp->proc_samples.keys[i] && !map_get(&rp->proc_events, rp->proc_samples.keys[i]))
			pids[n++] = rp->proc_samples.keys[i];
	if (n < 2)
		return;
	qsort(pids, n, sizeof(*pids), u64_cmp);
	fprintf(rp->out, "\nProcesses:\n%10s %-16s %12s %12s %8s %11s\n", "PID", "COMM", "EVENTS",
		"CPU SAMPLES", "GCS", "EXCEPTIONS");
	for (i = 0; i < n; i++) {
		uint64_t c = map_get(&rp->proc_comm, pids[i]);

		fprintf(rp->out, "%10" PRIu64 " %-16s %12" PRIu64 " %12" PRIu64 " %8" PRIu64
			" %11" PRIu64 "\n", pids[i] - 1,
			c && rp->comms[c - 1][0] ? rp->comms[c - 1] : "?",
			map_get(&rp->proc_events, pids[i]), map_get(&rp->proc_samples, pids[i]),
			map_get(&rp->proc_gcs, pids[i]), map_get(&rp->proc_exc, pids[i]));
	}
}

static void report__free(struct report *rp)
{
	size_t i;

	for (i = 0; i < rp->n_exc; i++) {
		free(rp->exc[i].type);
		free(rp->exc[i].message);
	}
	free(rp->exc);
	free(rp->etypes);
	u64map__free(&rp->leaf);
	u64map__free(&rp->offcpu_ns);
	u64map__free(&rp->offcpu_n);
	u64map__free(&rp->proc_events);
	u64map__free(&rp->proc_samples);
	u64map__free(&rp->proc_gcs);
	u64map__free(&rp->proc_exc);
	named_sums__free(&rp->jit_tiers);
	named_sums__free(&rp->gc_reasons);
	named_sums__free(&rp->tp_reasons);
	named_sums__free(&rp->alloc_types);
	u64map__free(&rp->proc_comm);
	free(rp->comms);
}

/* The whole report of path to rp->out. */
static void report__print(struct report *rp, const char *path, int top)
{
	struct view *v = rp->v;

	fprintf(rp->out, "Trace: %.72s\n", sym_basename(path));
	fprintf(rp->out, "Events: %" PRIu64 ", lost: %" PRIu64
		", samples span %.3f s, methods named: %zu\n", v->events, v->lost,
		v->selected ? view_ticks_to_ns(v, v->last_ts - v->first_ts) / 1e9 : 0.0,
		range_table__count(v->methods));
	if (v->error)
		fprintf(rp->out, "warning: the file is damaged: %s\n", v->errmsg);
	report__processes(rp);
	report__cpu(rp, top);
	report__offcpu_print(rp, top);
	report__events(rp, 3);
	report__gc_print(rp, v);
	report__exceptions(rp);
	report__runtime_print(rp, top);
}

static void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: ebpf-collect report FILE [--top N] [--tiers] [-o OUT]\n"
		"Summarize a .nettrace: top methods by CPU samples (exclusive/inclusive) and by\n"
		"event count (leaf managed frame per event type), GC pauses, GCs by generation,\n"
		"exceptions by type, then the runtime's events: JIT (methods, tiers, time), GCs\n"
		"by generation and reason, heap sizes per generation (GCHeapStats) and\n"
		"generation ranges, contention (count, time), thread pool worker adjustments,\n"
		"allocation ticks by type (ticks, bytes).  Frames are named from the trace's own method events,\n"
		"Module!Namespace.Type.Method(args); --tiers adds the code version's tier.\n"
		"-o OUT writes the report to OUT (mode 0600; it appears only once whole).\n"
		"Exit: 0 ok, 1 unreadable or damaged file (what was read is reported) or the\n"
		"output cannot be written (no OUT is left), 64 usage.\n");
}

int report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "tiers", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct view v;
	struct report rp = { 0 };
	struct nt_reader *r = NULL;
	struct nt_read_event ev;
	uint64_t top = 15;
	int c, rc = 0, err, exit_code = EXIT_OK, tiers = 0;
	const char *path, *outpath = NULL;
	struct outfile out;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (view_parse_u64(optarg, &top) || !top || top > 1000) {
				pr_warn("invalid --top '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'o':
			outpath = optarg;
			break;
		case 't':
			tiers = 1;
			break;
		case 'h':
			report_usage(stdout);
			return EXIT_OK;
		default:
			report_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		report_usage(stderr);
		return EXIT_USAGE;
	}
	path = argv[optind];
	if (view__init(&v) || ((v.tiers = tiers), view__pass1(&v, path))) {
		view__free(&v);
		return EXIT_FAIL;
	}
	rp.v = &v;
	r = view__open(&v, path);
	if (!r) {
		view__free(&v);
		return EXIT_FAIL;
	}
	err = 0;
	while (!err && (rc = nt_reader__next(r, &ev)) == 1)
		err = report__event(&rp, &ev);
	nt_reader__close(r);
	rc = outfile__open(&out, outpath);
	if (rc) {
		pr_warn("cannot create output %s: %s\n", outpath, strerror(-rc));
		report__free(&rp);
		view__free(&v);
		return EXIT_FAIL;
	}
	rp.out = out.f;
	report__print(&rp, path, (int)top);
	if (v.error)
		exit_code = EXIT_FAIL;
	if (err) {
		pr_warn("%s\n", strerror(-err));
		exit_code = EXIT_FAIL;
	}
	rc = outfile__close(&out);
	if (rc) {
		pr_warn("writing %s: %s\n", outfile_name(outpath), strerror(-rc));
		exit_code = EXIT_FAIL;
	}
	report__free(&rp);
	view__free(&v);
	return exit_code;
}
