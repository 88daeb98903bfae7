// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * export.c - --clickhouse (export.h): the aggregation on the tracing
 * thread.
 *
 * CPU samples are counted per (pid, stack of addresses) as they arrive;
 * at the interval's end each distinct stack is named once, frame by frame,
 * through the collector's symbolize (the names the trace and its flame
 * graph carry), folded root first into one string, and counted per (pid,
 * named stack).  Naming late lets the runtime's start rundown, which
 * arrives after the first samples, name them.  Runtime events, from USDT
 * probes and EventPipe alike (pipeline.h: struct pipeline_event), are
 * counted per (pid, event) with the time since the matching begin event
 * where the runtime brackets one (GC suspension: GCSuspendEEBegin to
 * GCRestartEEEnd; lock contention: ContentionStart to ContentionStop on the
 * same thread), summed on the end event's row.  Each row names its
 * process (attrib.h: service, comm, exe, cgroup, container, pod), read
 * from /proc when the pid is first seen; the new columns follow the old
 * ones, where ALTER TABLE ... ADD COLUMN puts them on an older table.  Every interval the two
 * tables become TabSeparated batches that the sender thread
 * (export_send.c) takes to ClickHouse; the tracing thread never waits on
 * the network.  The host is the same on every row of one collector, and a
 * pid's attribution the same all interval, so they are written per row,
 * not keyed.
 */
#define LOG_PREFIX "ebpf-collect: "
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/types.h>
#include "log.h"
#include "collector_event.h"
#include "kernel_event.h"
#include "event_table.h"
#include "pipeline.h"
#include "symbolizer.h"
#include "symbolize.h"
#include "method_name.h"
#include "hash.h"
#include "export_send.h"

#define MAX_FOLDED	16384
#define N_PENDING	1024

struct agg_stack {
	char *stack;		/* NULL: free slot */
	uint64_t hash, samples;
	uint32_t pid;
};

struct agg_raw {
	uint64_t *ips;		/* leaf first, as recorded */
	uint64_t hash, samples;	/* samples 0: free slot */
	uint64_t ts;		/* the first sample's time */
	uint32_t pid, depth;
};

struct agg_event {
	uint64_t count, durations, duration_ns;
	uint32_t pid, idx;	/* idx + 1 in the event table; 0: free slot */
};

/* a begin event waiting for its end */
struct pending {
	uint64_t key, ts;
};

struct ch_export {
	struct ch_sender *snd;
	const struct ect_table *table;	/* names of the counted events */
	char *host;
	struct attrib *who;
	uint64_t interval_ns, last_flush, seq;
	struct symbolize *sz;		/* the collector's names (NULL: --no-symbols) */
	struct agg_raw *raw;
	size_t n_raw, cap_raw;
	struct agg_stack *st;
	size_t n_st, cap_st;
	struct agg_event *ev;
	size_t n_ev, cap_ev;
	struct pending pend[N_PENDING];
	uint64_t batches, rows, samples;	/* made */
	char folded[MAX_FOLDED];
};

/* ------------------------------------------------------------ stacks */

static int grow_stacks(struct ch_export *x)
{
	size_t cap = x->cap_st ? x->cap_st * 2 : 1024, i, k;
	struct agg_stack *n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; i < x->cap_st; i++) {
		if (!x->st[i].stack)
			continue;
		for (k = x->st[i].hash & (cap - 1); n[k].stack; k = (k + 1) & (cap - 1))
			;
		n[k] = x->st[i];
	}
	free(x->st);
	x->st = n;
	x->cap_st = cap;
	return 0;
}

static void count_stack(struct ch_export *x, uint32_t pid, const char *s, size_t len,
			uint64_t samples)
{
	uint64_t h = hash_bytes(s, len, HASH_FNV_SEED) ^ pid;
	struct agg_stack *e;
	size_t k;

	if (x->n_st * 2 >= x->cap_st && grow_stacks(x))
		return;
	for (k = h & (x->cap_st - 1); (e = &x->st[k])->stack; k = (k + 1) & (x->cap_st - 1))
		if (e->hash == h && e->pid == pid && !strcmp(e->stack, s)) {
			e->samples += samples;
			return;
		}
	e->stack = strdup(s);
	if (!e->stack)
		return;
	e->hash = h;
	e->pid = pid;
	e->samples = samples;
	x->n_st++;
}

/* Append one frame's name, the flame graph's way ("Module!Name", ';'
 * dropped) with its "_[j]" or "_[k]" kind suffix (folded.c's).  Code the
 * runtime described only after the sample (a rundown at attach) is named
 * by the newest entry, as the trace's end-of-trace rundown names it. */
static size_t put_frame(struct symbolize *sz, uint32_t pid, uint64_t ip, uint64_t ts,
			char *out, size_t room)
{
	struct sym_info si = { 0 };
	const char *name = "[unknown]", *mod = NULL, *sfx = "", *p;
	char tmp[4200], disp[512], pns[1024], pname[1024], psig[1024], pasm[1024], mname[2048];
	size_t n = 0;
	int len;

	if (sz && (!symbolize__resolve(sz, (pid_t)pid, ip, ts, &si) ||
		   !symbolize__resolve(sz, (pid_t)pid, ip, SYM_TS_NONE, &si)) && si.name) {
		name = si.name;
		mod = si.kind == SYM_KIND_JIT && si.module_id ?
			symbolize__module_path(sz, pid, si.module_id) : si.module;
		if (mod && si.kind == SYM_KIND_JIT && !si.module_id)
			mod = NULL;	/* a perf map's path is no module */
		/* a perf map line: its assembly is the module, the name as the
		 * views and method events name it (symbolizer/method_name.h) */
		if (si.kind == SYM_KIND_JIT && !si.module_id &&
		    sym_split_perf_name(si.name, pns, pname, psig, pasm, sizeof(pns))) {
			sym_method_display_name(pns, pname, psig, 0, mname, sizeof(mname));
			name = mname;
			mod = pasm;
		}
	}
	if (si.kind == SYM_KIND_JIT)
		sfx = "_[j]";
	else if (si.kind == SYM_KIND_KERNEL || ip >= SYM_KERNEL_START)
		sfx = "_[k]";
	if (mod)
		sym_module_display(mod, disp, sizeof(disp));
	len = snprintf(tmp, sizeof(tmp), "%s%s%s%s", mod ? disp : "", mod ? "!" : "", name, sfx);
	for (p = tmp; len > 0 && *p && n + 1 < room; p++)
		if (*p != ';' && *p != '\n' && *p != '\r' && *p != '\t')
			out[n++] = *p;
	return n;
}

static int grow_raw(struct ch_export *x)
{
	size_t cap = x->cap_raw ? x->cap_raw * 2 : 1024, i, k;
	struct agg_raw *n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; i < x->cap_raw; i++) {
		if (!x->raw[i].samples)
			continue;
		for (k = x->raw[i].hash & (cap - 1); n[k].samples; k = (k + 1) & (cap - 1))
			;
		n[k] = x->raw[i];
	}
	free(x->raw);
	x->raw = n;
	x->cap_raw = cap;
	return 0;
}

/* Count the sample under its addresses; it is named at the interval's end,
 * once, with what the runtime has described by then. */
static void on_sample(struct ch_export *x, const void *rec, size_t len)
{
	const struct ke_sample *s = rec;
	const uint64_t *ips = (const uint64_t *)(s + 1);
	struct agg_raw *e;
	size_t depth, k;
	uint64_t h;

	if (len < sizeof(*s))
		return;
	depth = (size_t)s->kstack_depth + s->ustack_depth;
	if (len < sizeof(*s) + depth * sizeof(*ips))
		return;
	h = hash_bytes(ips, depth * sizeof(*ips), HASH_FNV_SEED) ^ s->hdr.pid;
	if (x->n_raw * 2 >= x->cap_raw && grow_raw(x))
		return;
	for (k = h & (x->cap_raw - 1); (e = &x->raw[k])->samples; k = (k + 1) & (x->cap_raw - 1))
		if (e->hash == h && e->pid == s->hdr.pid && e->depth == depth &&
		    !memcmp(e->ips, ips, depth * sizeof(*ips))) {
			e->samples++;
			return;
		}
	e->ips = malloc(depth ? depth * sizeof(*ips) : 1);
	if (!e->ips)
		return;
	memcpy(e->ips, ips, depth * sizeof(*ips));
	e->hash = h;
	e->pid = s->hdr.pid;
	e->depth = (uint32_t)depth;
	e->ts = s->hdr.timestamp;
	e->samples = 1;
	x->n_raw++;
}

/* Name one stack of addresses (leaf first) into a folded line, root first. */
static void name_raw(struct ch_export *x, struct symbolize *sz, const struct agg_raw *r)
{
	size_t n = 0, i;

	for (i = r->depth; i-- > 0 && n + 2 < sizeof(x->folded);) {
		if (!r->ips[i])
			continue;
		if (n)
			x->folded[n++] = ';';
		n += put_frame(sz, r->pid, sym_frame_address(r->ips, (uint32_t)i), r->ts,
			       x->folded + n, sizeof(x->folded) - n);
	}
	if (!n)
		n = (size_t)snprintf(x->folded, sizeof(x->folded), "[no frames]");
	x->folded[n] = 0;
	count_stack(x, r->pid, x->folded, n, r->samples);
}

/* The interval's stacks of addresses become named stacks. */
static void name_stacks(struct ch_export *x)
{
	size_t i;

	for (i = 0; i < x->cap_raw; i++) {
		if (!x->raw[i].samples)
			continue;
		name_raw(x, x->sz, &x->raw[i]);
		free(x->raw[i].ips);
	}
	if (x->raw)
		memset(x->raw, 0, x->cap_raw * sizeof(*x->raw));
	x->n_raw = 0;
}

/* ------------------------------------------------------------ events */

static uint64_t event_hash(uint32_t pid, uint32_t idx)
{
	return (((uint64_t)pid << 32 | idx) * 0x9e3779b97f4a7c15ULL) >> 20;
}

static int grow_events(struct ch_export *x)
{
	size_t cap = x->cap_ev ? x->cap_ev * 2 : 256, i, k;
	struct agg_event *n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; i < x->cap_ev; i++) {
		if (!x->ev[i].idx)
			continue;
		for (k = event_hash(x->ev[i].pid, x->ev[i].idx) & (cap - 1); n[k].idx;
		     k = (k + 1) & (cap - 1))
			;
		n[k] = x->ev[i];
	}
	free(x->ev);
	x->ev = n;
	x->cap_ev = cap;
	return 0;
}

/* The counters of (pid, event idx + 1); NULL on ENOMEM. */
static struct agg_event *event_slot(struct ch_export *x, uint32_t pid, uint32_t idx1)
{
	size_t k;

	if (x->n_ev * 2 >= x->cap_ev && grow_events(x))
		return NULL;
	for (k = event_hash(pid, idx1) & (x->cap_ev - 1); x->ev[k].idx;
	     k = (k + 1) & (x->cap_ev - 1))
		if (x->ev[k].pid == pid && x->ev[k].idx == idx1)
			return &x->ev[k];
	x->ev[k].pid = pid;
	x->ev[k].idx = idx1;
	x->n_ev++;
	return &x->ev[k];
}

/* 1 for a begin, 2 for an end of the GC suspension (per process) or of a
 * contention (per thread), 0 otherwise; *key identifies the pair. */
static int pair_role(const char *sym, const struct ce_header *h, uint64_t *key)
{
	size_t n = strcspn(sym, "_");

	if ((n == 16 && !strncmp(sym, "GCSuspendEEBegin", n)) ||
	    (n == 14 && !strncmp(sym, "GCRestartEEEnd", n))) {
		*key = (uint64_t)h->pid << 32 | 1;
		return n == 16 ? 1 : 2;
	}
	if ((n == 15 && !strncmp(sym, "ContentionStart", n)) ||
	    (n == 14 && !strncmp(sym, "ContentionStop", n))) {
		*key = ((uint64_t)h->pid << 32 | h->tid) ^ 2ULL << 62;
		return n == 15 ? 1 : 2;
	}
	return 0;
}

static void on_event(struct ch_export *x, const struct pipeline_event *e)
{
	const char *sym = e->ev->symbol;
	struct agg_event *a;
	struct pending *p;
	uint64_t key;
	int role;

	if (!x->table || e->idx >= x->table->n_events)
		return;
	/* the end rundown unloads every method: name what was sampled first */
	if (!strncmp(sym, "DCEndInit", 9) || !strncmp(sym, "MethodDCEnd", 11))
		name_stacks(x);
	a = event_slot(x, e->hdr->pid, e->idx + 1);
	if (!a)
		return;
	a->count++;
	role = pair_role(sym, e->hdr, &key);
	if (!role)
		return;
	p = &x->pend[(key * 0x9e3779b97f4a7c15ULL) >> 54];	/* N_PENDING slots */
	if (role == 1) {
		p->key = key;
		p->ts = e->hdr->timestamp;
	} else if (p->key == key && p->ts && e->hdr->timestamp >= p->ts) {
		a->durations++;
		a->duration_ns += e->hdr->timestamp - p->ts;
		p->ts = 0;
	}
}

/* Every record, in time order, as it leaves the reorder buffer. */
static void export_record(void *ctx, const void *rec, size_t len)
{
	struct ch_export *x = ctx;
	const struct ce_header *h = rec;

	if (len < sizeof(*h))
		return;
	if (h->type == KE_REC_SAMPLE || h->type == CE_REC_CLR_EVENT)
		attrib__get(x->who, (pid_t)h->pid);	/* now, while /proc has it */
	else if (h->type == KE_REC_EXEC && len >= sizeof(struct ke_exec))
		attrib__exec(x->who, (pid_t)h->pid, ((const struct ke_exec *)rec)->comm,
			     ((const struct ke_exec *)rec)->filename);	/* a new program */
	if (h->type == KE_REC_SAMPLE)
		on_sample(x, rec, len);
}

/* Every runtime event, however it came (a USDT probe, EventPipe). */
static void export_event(void *ctx, const struct pipeline_event *ev)
{
	on_event(ctx, ev);
}

/* ------------------------------------------------------------ batches */

/* A TabSeparated string: backslash, tab and newline escaped. */
static void put_tsv(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void put_labels(const struct ch_export *x, FILE *f, time_t ts, uint32_t pid)
{
	fprintf(f, "%lld\t", (long long)ts);
	put_tsv(f, x->host);
	fputc('\t', f);
	put_tsv(f, attrib__get(x->who, (pid_t)pid)->service);
	fprintf(f, "\t%u\t", pid);
}

/* The row's last columns, and its end: comm, exe, cgroup, container, pod. */
static void put_who(const struct ch_export *x, FILE *f, uint32_t pid)
{
	const struct proc_attr *w = attrib__get(x->who, (pid_t)pid);
	const char *v[] = { w->pi.comm, w->pi.exe, w->pi.cgroup, w->pi.container, w->pi.pod };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fputc('\t', f);
		put_tsv(f, v[i]);
	}
	fputc('\n', f);
}

static struct ch_batch *batch_new(const char *table, FILE **f)
{
	struct ch_batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	snprintf(b->table, sizeof(b->table), "%s", table);
	*f = open_memstream(&b->body, &b->len);
	if (!*f) {
		free(b);
		return NULL;
	}
	return b;
}

static struct ch_batch *stacks_batch(struct ch_export *x, time_t ts)
{
	struct ch_batch *b;
	size_t i;
	FILE *f;

	if (!x->n_st || !(b = batch_new("stacks", &f)))
		return NULL;
	for (i = 0; i < x->cap_st; i++) {
		struct agg_stack *e = &x->st[i];

		if (!e->stack)
			continue;
		put_labels(x, f, ts, e->pid);
		put_tsv(f, e->stack);
		fprintf(f, "\t%" PRIu64 "\t%" PRIu64, e->samples, x->seq);
		put_who(x, f, e->pid);
		b->rows++;
		b->samples += e->samples;
		free(e->stack);
	}
	memset(x->st, 0, x->cap_st * sizeof(*x->st));
	x->n_st = 0;
	fclose(f);
	return b;
}

static struct ch_batch *events_batch(struct ch_export *x, time_t ts)
{
	struct ch_batch *b;
	size_t i;
	FILE *f;

	if (!x->n_ev || !(b = batch_new("events", &f)))
		return NULL;
	for (i = 0; i < x->cap_ev; i++) {
		const struct agg_event *e = &x->ev[i];
		const struct ect_event *d;

		if (!e->idx)
			continue;
		d = &x->table->events[e->idx - 1];
		put_labels(x, f, ts, e->pid);
		put_tsv(f, d->provider->name);
		fputc('\t', f);
		put_tsv(f, d->symbol);
		fprintf(f, "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, e->count,
			e->durations, e->duration_ns, x->seq);
		put_who(x, f, e->pid);
		b->rows++;
	}
	memset(x->ev, 0, x->cap_ev * sizeof(*x->ev));
	x->n_ev = 0;
	fclose(f);
	return b;
}

/* The interval's aggregate to the sender, one batch per table. */
static void flush(struct ch_export *x)
{
	time_t now = time(NULL);
	struct ch_batch *b[2];
	int i;

	x->seq++;
	name_stacks(x);
	b[0] = stacks_batch(x, now);
	b[1] = events_batch(x, now);
	attrib__sweep(x->who);	/* the pids of this interval stay known */
	for (i = 0; i < 2; i++) {
		if (!b[i])
			continue;
		x->batches++;
		x->rows += b[i]->rows;
		x->samples += b[i]->samples;
		ch_sender__push(x->snd, b[i]);
	}
}

struct ch_export *ch_export__start(const struct ch_export_opts *o, char *err, size_t errlen)
{
	struct ch_export *x = calloc(1, sizeof(*x));

	if (!x || !(x->host = strdup(o->host ? o->host : "")) ||
	    !(x->who = attrib__new(&o->attrib))) {
		snprintf(err, errlen, "--clickhouse %s: %s", o->url, strerror(ENOMEM));
		goto fail;
	}
	x->interval_ns = o->interval_ns;
	x->table = o->table;
	x->sz = o->sym;
	x->snd = ch_sender__start(o->url, o->spool_dir, o->spool_max, err, errlen);
	if (!x->snd)
		goto fail;
	return x;
fail:
	if (x) {
		free(x->host);
		attrib__free(x->who);
	}
	free(x);
	return NULL;
}

/* Every poll: send what an interval gathered. */
static void export_tick(void *ctx, uint64_t now)
{
	struct ch_export *x = ctx;

	if (!x->last_flush)
		x->last_flush = now;
	if (now - x->last_flush < x->interval_ns)
		return;
	x->last_flush = now;
	flush(x);
}

const struct pipeline_consumer_ops ch_export_consumer = {
	.record = export_record,
	.event = export_event,
	.tick = export_tick,
};

static void fill_made(const struct ch_export *x, struct ch_export_stats *st)
{
	st->batches = x->batches;
	st->rows = x->rows;
	st->samples = x->samples;
}

void ch_export__stats(struct ch_export *x, struct ch_export_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!x)
		return;
	ch_sender__stats(x->snd, st);
	fill_made(x, st);
}

void ch_export__stop(struct ch_export *x, struct ch_export_stats *final)
{
	struct ch_export_stats st = { 0 };
	size_t i;

	if (!x)
		return;
	flush(x);
	ch_sender__stop(x->snd, &st);
	fill_made(x, &st);
	if (final)
		*final = st;
	pr_info("clickhouse: made %" PRIu64 " batches (%" PRIu64 " rows, %" PRIu64 " samples); "
		"sent %" PRIu64 " batches (%" PRIu64 " rows, %" PRIu64 " samples); "
		"%" PRIu64 " batches (%" PRIu64 " rows) left in the spool\n",
		st.batches, st.rows, st.samples, st.sent_batches, st.sent_rows, st.sent_samples,
		st.spooled_batches, st.spooled_rows);
	log_print(st.dropped_batches ? LOG_WARN : LOG_INFO, LOG_PREFIX
		  "clickhouse: dropped %" PRIu64 " batches (%" PRIu64 " rows, %" PRIu64
		  " samples); %" PRIu64 " failed inserts in %" PRIu64 " outages\n",
		  st.dropped_batches, st.dropped_rows, st.dropped_samples, st.failed_inserts,
		  st.outages);
	for (i = 0; i < x->cap_st; i++)
		free(x->st[i].stack);
	free(x->raw);
	free(x->st);
	free(x->ev);
	free(x->host);
	attrib__free(x->who);
	free(x);
}
