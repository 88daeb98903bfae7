// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * metrics_agg.c - per process runtime health for --metrics (metrics_agg.h):
 * GCs by generation, GC pauses, exceptions by type, JIT compilations, lock
 * contention, the thread pool's size and allocated bytes, decoded from the
 * runtime provider's events as they leave the reorder buffer (time order,
 * so a pause's end always follows its start), from its USDT probes and
 * from EventPipe alike (pipeline.h: struct pipeline_event).
 *
 * A series is labelled with who the process is (attrib.h): comm, container,
 * pod and service, and its pid only when asked (--metrics-pid): a pid label
 * makes a series per process, unbounded on a host that starts processes
 * all day.  Processes with the same labels share their series, summed.
 * No host label: Prometheus's instance label names the collector already.
 * Exception types are bounded per series: the first MAX_EXC_TYPES distinct
 * types are labelled with their name, the rest with type="other".
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>
#include <linux/types.h>
#include "collector_event.h"
#include "event_table.h"
#include "grow.h"
#include "attrib.h"
#include "pipeline.h"
#include "metrics_agg.h"

#define RUNTIME_PROVIDER	"Microsoft-Windows-DotNETRuntime"
#define MAX_GEN			3	/* Depth 0..2; anything deeper counts as 2 */
#define MAX_EXC_TYPE		256	/* bytes of an exception type name kept */
#define CHECK_NS		(5 * 1000000000ULL)	/* how often exits are looked for */
#define EXPIRE_NS		(300 * 1000000000ULL)	/* how long an exited process stays */
#define METHOD_FLAG_JITTED	0x8	/* MethodFlagsMap: Jitted */
#define CONT_SLOTS		64	/* threads waiting on a lock at once, per process */
#define MAX_EXC_TYPES		50	/* distinct type labels per series; then "other" */
#define LABELS_LEN		1024

/* GC pause buckets, seconds: 100 us .. 1 s */
static const double pause_le[] = { 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
				   0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1 };
#define NR_BUCKETS	(sizeof(pause_le) / sizeof(pause_le[0]))

enum ev_kind {
	K_NONE = 1,	/* 0 = not looked up yet */
	K_GC_START, K_SUSPEND_BEGIN, K_RESTART_END, K_EXCEPTION, K_JIT,
	K_CONT_START, K_CONT_STOP, K_TP_ADJUST, K_ALLOC,
};

static const struct { const char *symbol; uint8_t kind; } kinds[] = {
	{ "GCStart_V2", K_GC_START },
	{ "GCSuspendEEBegin_V1", K_SUSPEND_BEGIN },
	{ "GCRestartEEEnd_V1", K_RESTART_END },
	{ "ExceptionThrown_V1", K_EXCEPTION },
	{ "MethodLoadVerbose_V2", K_JIT },
	{ "ContentionStart_V1", K_CONT_START },
	{ "ContentionStop_V1", K_CONT_STOP },
	{ "ThreadPoolWorkerThreadAdjustmentAdjustment", K_TP_ADJUST },
	{ "GCAllocationTick_V2", K_ALLOC },
	{ "GCAllocationTick_V3", K_ALLOC },
};

struct exc_count {
	char type[MAX_EXC_TYPE];
	uint64_t n;
};

struct cont_wait {
	uint32_t tid;
	uint64_t ts;	/* 0 = free */
};

/* The numbers of one label set: one process, or all that share its labels. */
struct mseries {
	char labels[LABELS_LEN];	/* [pid="..",]comm="..",container="..",pod=".."[,service=".."] */
	uint64_t gc[MAX_GEN];
	uint64_t pause_buckets[NR_BUCKETS], pause_count, pause_ns;
	struct exc_count *exc;	/* at most MAX_EXC_TYPES + 1, "other" last */
	size_t nr_exc, cap_exc;
	uint64_t jit;
	uint64_t cont_count, cont_ns;
	uint64_t alloc_bytes;
	size_t refs;		/* processes labelled so */
};

/* What one process's events need across events. */
struct mproc {
	pid_t pid;
	struct mseries *s;
	uint64_t suspend_ts;	/* 0 = the runtime is not suspended */
	struct cont_wait waits[CONT_SLOTS];
	int64_t tp_workers;	/* -1 = no adjustment seen */
	uint64_t gone_since;	/* when /proc/PID was first found missing; 0 = alive */
};

struct magg {
	struct magg_opts o;
	struct attrib *who;
	struct mseries **series;
	size_t nr_series, cap_series;
	const struct ect_table *table;
	uint8_t *kind;		/* per table index: enum ev_kind, 0 = not looked up */
	struct mproc **procs;
	size_t nr_procs, cap_procs;
	size_t last;		/* the process of the previous record */
	uint64_t last_check;	/* magg__expire's last look at /proc */
};

void mbuf__printf(struct mbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = 1;
			return;
		}
		if ((size_t)n < room) {
			b->len += n;
			return;
		}
		if (GROW(b->p, b->cap, b->len + n + 1)) {
			b->failed = 1;
			return;
		}
	}
}

void mbuf__label(struct mbuf *b, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, "\\\"\n");

		mbuf__printf(b, "%.*s", (int)n, s);
		s += n;
		if (!*s)
			break;
		mbuf__printf(b, "%s", *s == '\n' ? "\\n" : *s == '"' ? "\\\"" : "\\\\");
		s++;
	}
}

struct magg *magg__new(const struct magg_opts *o)
{
	struct magg *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->o = *o;
	a->who = attrib__new(&o->attrib);
	if (!a->who) {
		magg__free(a);
		return NULL;
	}
	return a;
}

void magg__free(struct magg *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr_procs; i++)
		free(a->procs[i]);
	for (i = 0; i < a->nr_series; i++) {
		free(a->series[i]->exc);
		free(a->series[i]);
	}
	free(a->procs);
	free(a->series);
	free(a->kind);
	attrib__free(a->who);
	free(a);
}

static void label(struct mbuf *b, const char *sep, const char *name, const char *v)
{
	mbuf__printf(b, "%s%s=\"", sep, name);
	mbuf__label(b, v);
	mbuf__printf(b, "\"");
}

/* The series of pid's labels, made when no process had them yet. */
static struct mseries *series_of(struct magg *a, pid_t pid)
{
	const struct proc_attr *w = attrib__get(a->who, pid);
	struct mbuf b = { 0 };
	struct mseries *s = NULL;
	size_t i;

	if (a->o.pid_label)
		mbuf__printf(&b, "pid=\"%d\",", (int)pid);
	label(&b, "", "comm", w->pi.comm[0] ? w->pi.comm : "unknown");
	label(&b, ",", "container", w->pi.container);
	label(&b, ",", "pod", w->pi.pod);
	if (w->service[0])
		label(&b, ",", "service", w->service);
	if (b.failed || b.len >= LABELS_LEN)
		goto out;
	for (i = 0; i < a->nr_series; i++)
		if (!strcmp(a->series[i]->labels, b.p)) {
			s = a->series[i];
			goto out;
		}
	if (GROW(a->series, a->cap_series, a->nr_series + 1))
		goto out;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto out;
	memcpy(s->labels, b.p, b.len + 1);
	a->series[a->nr_series++] = s;
out:
	free(b.p);
	if (s)
		s->refs++;
	return s;
}

static struct mproc *proc_get(struct magg *a, pid_t pid)
{
	struct mproc *p;
	size_t i;

	if (a->last < a->nr_procs && a->procs[a->last]->pid == pid)
		return a->procs[a->last];
	for (i = 0; i < a->nr_procs; i++) {
		if (a->procs[i]->pid == pid) {
			a->last = i;
			return a->procs[i];
		}
	}
	if (GROW(a->procs, a->cap_procs, a->nr_procs + 1))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->s = series_of(a, pid);
	if (!p->s) {
		free(p);
		return NULL;
	}
	p->pid = pid;
	p->tp_workers = -1;
	a->last = a->nr_procs;
	a->procs[a->nr_procs++] = p;
	return p;
}

static uint8_t kind_of(struct magg *a, const struct ect_table *t, uint32_t idx)
{
	const struct ect_event *ev;
	size_t i;

	if (a->table != t) {	/* the table is the collector's for its whole run */
		free(a->kind);
		a->kind = calloc(t->n_events ? t->n_events : 1, 1);
		a->table = a->kind ? t : NULL;
		if (!a->kind)
			return K_NONE;
	}
	if (a->kind[idx])
		return a->kind[idx];
	ev = &t->events[idx];
	a->kind[idx] = K_NONE;
	if (!ev->provider || strcmp(ev->provider->name, RUNTIME_PROVIDER))
		return K_NONE;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(ev->symbol, kinds[i].symbol))
			a->kind[idx] = kinds[i].kind;
	return a->kind[idx];
}

/* UTF-16LE (n bytes, maybe NUL-terminated) to UTF-8, cut to fit out */
static void utf16_to_utf8(const uint8_t *p, size_t n, char *out, size_t outlen)
{
	size_t i, o = 0;

	for (i = 0; i + 1 < n; i += 2) {
		uint32_t cp = p[i] | (uint32_t)p[i + 1] << 8;
		char enc[4];
		size_t k;

		if (!cp)
			break;
		if (cp >= 0xd800 && cp < 0xdc00 && i + 3 < n) {
			uint32_t lo = p[i + 2] | (uint32_t)p[i + 3] << 8;

			if (lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				i += 2;
			}
		}
		if (cp >= 0xd800 && cp < 0xe000)
			cp = 0xfffd;	/* a lone surrogate */
		if (cp < 0x80) {
			enc[0] = cp, k = 1;
		} else if (cp < 0x800) {
			enc[0] = 0xc0 | cp >> 6, enc[1] = 0x80 | (cp & 0x3f), k = 2;
		} else if (cp < 0x10000) {
			enc[0] = 0xe0 | cp >> 12, enc[1] = 0x80 | (cp >> 6 & 0x3f);
			enc[2] = 0x80 | (cp & 0x3f), k = 3;
		} else {
			enc[0] = 0xf0 | cp >> 18, enc[1] = 0x80 | (cp >> 12 & 0x3f);
			enc[2] = 0x80 | (cp >> 6 & 0x3f), enc[3] = 0x80 | (cp & 0x3f), k = 4;
		}
		if (o + k >= outlen)
			break;
		memcpy(out + o, enc, k);
		o += k;
	}
	out[o] = 0;
}

static void count_exception(struct mseries *p, const struct ect_event *ev,
			    const void *pl, size_t len)
{
	struct ect_field_loc loc;
	char type[MAX_EXC_TYPE];
	size_t i;

	if (ect_payload_field(ev, pl, len, "ExceptionType", &loc) || !loc.p)
		snprintf(type, sizeof(type), "unknown");
	else
		utf16_to_utf8(loc.p, loc.n, type, sizeof(type));
	for (i = 0; i < p->nr_exc; i++) {
		if (!strcmp(p->exc[i].type, type)) {
			p->exc[i].n++;
			return;
		}
	}
	if (p->nr_exc == MAX_EXC_TYPES + 1) {	/* "other" is full's last */
		p->exc[MAX_EXC_TYPES].n++;
		return;
	}
	if (p->nr_exc == MAX_EXC_TYPES)
		snprintf(type, sizeof(type), "other");
	if (GROW(p->exc, p->cap_exc, p->nr_exc + 1))
		return;
	snprintf(p->exc[p->nr_exc].type, MAX_EXC_TYPE, "%s", type);
	p->exc[p->nr_exc++].n = 1;
}

/* A series no process has any more leaves with its last process. */
static void drop_series(struct magg *a, struct mseries *s)
{
	size_t i;

	if (--s->refs)
		return;
	for (i = 0; i < a->nr_series && a->series[i] != s; i++)
		;
	if (i < a->nr_series)
		a->series[i] = a->series[--a->nr_series];
	free(s->exc);
	free(s);
}

/* A process gone for EXPIRE_NS leaves the exposition: by then its last
 * scrapes are long in Prometheus, and a host that starts processes all day
 * keeps a bounded set of series. */
void magg__expire(struct magg *a, uint64_t now)
{
	char path[64];
	size_t i = 0;

	if (now - a->last_check < CHECK_NS)
		return;
	a->last_check = now;
	while (i < a->nr_procs) {
		struct mproc *p = a->procs[i];

		snprintf(path, sizeof(path), "/proc/%d", (int)p->pid);
		if (!access(path, F_OK))
			p->gone_since = 0;
		else if (!p->gone_since)
			p->gone_since = now;
		if (!p->gone_since || now - p->gone_since < EXPIRE_NS) {
			i++;
			continue;
		}
		drop_series(a, p->s);
		free(p);
		a->procs[i] = a->procs[--a->nr_procs];
		a->last = 0;
	}
	attrib__sweep(a->who);	/* each process's labels are made once */
}

static void observe_pause(struct mseries *p, uint64_t ns)
{
	size_t i;

	p->pause_count++;
	p->pause_ns += ns;
	for (i = 0; i < NR_BUCKETS; i++)
		if (ns <= pause_le[i] * 1e9)
			p->pause_buckets[i]++;
}

/* The wait a ContentionStop_V1 ends: DurationNs when the runtime sends it
 * (a Double), else the time since the same thread's ContentionStart_V1. */
static void contention_stop(struct mproc *p, const struct ect_event *ev, const void *pl,
			    size_t len, uint32_t tid, uint64_t ts)
{
	struct ect_field_loc loc;
	uint64_t ns = 0;
	int i, have = 0;

	if (!ect_payload_field(ev, pl, len, "DurationNs", &loc) && loc.p &&
	    loc.field->intype == ECT_DOUBLE && loc.n == 8) {
		double d;

		memcpy(&d, loc.p, 8);
		if (d >= 0) {
			ns = (uint64_t)(d + 0.5);
			have = 1;
		}
	}
	for (i = 0; i < CONT_SLOTS; i++) {
		if (p->waits[i].ts && p->waits[i].tid == tid) {
			if (!have && ts >= p->waits[i].ts)
				ns = ts - p->waits[i].ts;
			p->waits[i].ts = 0;
			break;
		}
	}
	p->s->cont_count++;
	p->s->cont_ns += ns;
}

static void contention_start(struct mproc *p, uint32_t tid, uint64_t ts)
{
	int i, free_slot = -1;

	for (i = 0; i < CONT_SLOTS; i++) {
		if (p->waits[i].ts && p->waits[i].tid == tid)
			break;
		if (!p->waits[i].ts && free_slot < 0)
			free_slot = i;
	}
	if (i == CONT_SLOTS)
		i = free_slot;
	if (i >= 0) {
		p->waits[i].tid = tid;
		p->waits[i].ts = ts;
	}
}

static uint64_t field_u64(const struct ect_event *ev, const void *pl, size_t len,
			  const char *name)
{
	uint64_t v = 0;

	return ect_payload_get_u64(ev, pl, len, name, &v) ? 0 : v;
}

static void apply(struct mproc *p, uint8_t kind, const struct ect_event *ev,
		  const struct ce_header *h, const void *pl, size_t len)
{
	uint64_t v, ts = h->timestamp;

	switch (kind) {
	case K_GC_START:
		v = field_u64(ev, pl, len, "Depth");
		p->s->gc[v < MAX_GEN ? v : MAX_GEN - 1]++;
		break;
	case K_SUSPEND_BEGIN:
		p->suspend_ts = ts;
		break;
	case K_RESTART_END:
		if (p->suspend_ts && ts >= p->suspend_ts)
			observe_pause(p->s, ts - p->suspend_ts);
		p->suspend_ts = 0;
		break;
	case K_EXCEPTION:
		count_exception(p->s, ev, pl, len);
		break;
	case K_JIT:	/* a method's code is loaded; Jitted: the JIT made it */
		if (field_u64(ev, pl, len, "MethodFlags") & METHOD_FLAG_JITTED)
			p->s->jit++;
		break;
	case K_CONT_START:
		contention_start(p, h->tid, ts);
		break;
	case K_CONT_STOP:
		contention_stop(p, ev, pl, len, h->tid, ts);
		break;
	case K_TP_ADJUST:
		if (!ect_payload_get_u64(ev, pl, len, "NewWorkerThreadCount", &v))
			p->tp_workers = (int64_t)v;
		break;
	case K_ALLOC:
		v = field_u64(ev, pl, len, "AllocationAmount64");
		p->s->alloc_bytes += v ? v : field_u64(ev, pl, len, "AllocationAmount");
		break;
	}
}

void magg__event(struct magg *a, const struct ect_table *t, const struct pipeline_event *e)
{
	uint8_t kind;
	struct mproc *p;

	if (!t || e->idx >= t->n_events)
		return;
	kind = kind_of(a, t, e->idx);
	if (kind == K_NONE)
		return;
	p = proc_get(a, (pid_t)e->hdr->pid);
	if (p)
		apply(p, kind, e->ev, e->hdr, e->payload, e->payload_len);
}

static void family(struct mbuf *b, const char *name, const char *type, const char *help)
{
	mbuf__printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void render_gc(const struct magg *a, struct mbuf *b)
{
	size_t i, g, k;

	family(b, "ebpf_collect_gc_total", "counter",
	       "Garbage collections started (GCStart_V2), by generation (its Depth).");
	for (i = 0; i < a->nr_series; i++)
		for (g = 0; g < MAX_GEN; g++)
			mbuf__printf(b, "ebpf_collect_gc_total{%s,gen=\"%zu\"} %llu\n",
				     a->series[i]->labels, g, (unsigned long long)a->series[i]->gc[g]);
	family(b, "ebpf_collect_gc_pause_seconds", "histogram",
	       "Time the runtime was suspended for a GC (GCSuspendEEBegin_V1 to GCRestartEEEnd_V1).");
	for (i = 0; i < a->nr_series; i++) {
		const struct mseries *p = a->series[i];

		for (k = 0; k < NR_BUCKETS; k++)
			mbuf__printf(b, "ebpf_collect_gc_pause_seconds_bucket{%s,le=\"%g\"} %llu\n",
				     p->labels, pause_le[k], (unsigned long long)p->pause_buckets[k]);
		mbuf__printf(b, "ebpf_collect_gc_pause_seconds_bucket{%s,le=\"+Inf\"} %llu\n",
			     p->labels, (unsigned long long)p->pause_count);
		mbuf__printf(b, "ebpf_collect_gc_pause_seconds_sum{%s} %.9f\n", p->labels,
			     p->pause_ns / 1e9);
		mbuf__printf(b, "ebpf_collect_gc_pause_seconds_count{%s} %llu\n", p->labels,
			     (unsigned long long)p->pause_count);
	}
}

static void render_exceptions(const struct magg *a, struct mbuf *b)
{
	size_t i, k;

	family(b, "ebpf_collect_exceptions_total", "counter",
	       "Exceptions thrown (ExceptionThrown_V1), by exception type.");
	for (i = 0; i < a->nr_series; i++) {
		const struct mseries *p = a->series[i];

		for (k = 0; k < p->nr_exc; k++) {
			mbuf__printf(b, "ebpf_collect_exceptions_total{%s,type=\"", p->labels);
			mbuf__label(b, p->exc[k].type);
			mbuf__printf(b, "\"} %llu\n", (unsigned long long)p->exc[k].n);
		}
	}
}

/* One series per process of a plain per-process number. */
static void render_each(const struct magg *a, struct mbuf *b, const char *name,
			size_t field_off, int seconds)
{
	size_t i;

	for (i = 0; i < a->nr_series; i++) {
		const struct mseries *p = a->series[i];
		uint64_t v;

		memcpy(&v, (const char *)p + field_off, sizeof(v));
		if (seconds)
			mbuf__printf(b, "%s{%s} %.9f\n", name, p->labels, v / 1e9);
		else
			mbuf__printf(b, "%s{%s} %llu\n", name, p->labels, (unsigned long long)v);
	}
}

void magg__render(const struct magg *a, struct mbuf *b)
{
	size_t i, k;

	render_gc(a, b);
	render_exceptions(a, b);
	family(b, "ebpf_collect_jit_methods_total", "counter",
	       "Methods JIT-compiled (MethodLoadVerbose_V2 with the Jitted flag).");
	render_each(a, b, "ebpf_collect_jit_methods_total", offsetof(struct mseries, jit), 0);
	family(b, "ebpf_collect_lock_contentions_total", "counter",
	       "Lock contentions ended (ContentionStop_V1).");
	render_each(a, b, "ebpf_collect_lock_contentions_total",
		    offsetof(struct mseries, cont_count), 0);
	family(b, "ebpf_collect_lock_contention_seconds_total", "counter",
	       "Time threads waited for contended locks (DurationNs, else Start to Stop).");
	render_each(a, b, "ebpf_collect_lock_contention_seconds_total",
		    offsetof(struct mseries, cont_ns), 1);
	family(b, "ebpf_collect_allocated_bytes_total", "counter",
	       "Bytes allocated, as the runtime's allocation ticks (GCAllocationTick) report.");
	render_each(a, b, "ebpf_collect_allocated_bytes_total",
		    offsetof(struct mseries, alloc_bytes), 0);
	family(b, "ebpf_collect_threadpool_worker_threads", "gauge",
	       "Thread-pool worker threads after the last adjustment (NewWorkerThreadCount).");
	for (i = 0; i < a->nr_series; i++) {	/* summed over the series' processes */
		long long n = 0;
		int seen = 0;

		for (k = 0; k < a->nr_procs; k++)
			if (a->procs[k]->s == a->series[i] && a->procs[k]->tp_workers >= 0)
				n += a->procs[k]->tp_workers, seen = 1;
		if (seen)
			mbuf__printf(b, "ebpf_collect_threadpool_worker_threads{%s} %lld\n",
				     a->series[i]->labels, n);
	}
}
