// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * chromium: the trace in the Chrome Trace Event Format (the JSON object
 * form), which chrome://tracing, Perfetto and speedscope open, as
 * `dotnet-trace convert --format chromium` writes it for .NET traces.
 *
 *   traceEvents   every event but CPU samples and the rundown provider's
 *                 method, module, assembly and domain events (ids 141-158:
 *                 they name code, nothing happens at their time) as an
 *                 instant event (ph "i", thread scope) named as dump names
 *                 it, its provider the category, its fields decoded as
 *                 dump decodes them the args;
 *                 the pairs of runtime events as complete events (ph "X",
 *                 on the thread of the first): GCStart to the GCEnd of
 *                 the same Count in the process (cat "GC"),
 *                 ContentionStart to the next ContentionStop of the thread
 *                 (cat "Contention"), ExceptionThrown to the next
 *                 ExceptionCatchStop of the thread, where the exception is
 *                 handled (cat "Exception"); an unpaired one stays an
 *                 instant only; process_name and thread_name metadata
 *                 (ph "M"): the names the trace's kernel process events
 *                 give, else "Process PID" and "Thread TID"
 *   samples       the selected events (CPU samples when the trace has
 *                 any), one per event, weight 1
 *   stackFrames   their stacks as a tree: a node per frame under its
 *                 caller, named as report names frames, category the
 *                 module's path
 *
 * Times are microseconds since the trace's first event.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "views.h"
#include "event_table.h"
#include "json_str.h"
#include "manifest_meta.h"
#include "rundown.h"
#include "utf16.h"
#include "view.h"

#define CLR_EV_GC_START		1
#define CLR_EV_GC_END		2
#define CLR_EV_EXC_THROWN	80
#define CLR_EV_CONT_START	81
#define CLR_EV_CONT_STOP	91
#define CLR_EV_EXC_CATCH_STOP	251

struct cnode {
	uint32_t parent;		/* node + 1, 0 = a root */
	uint32_t frame;
};

struct csample {
	uint64_t ts, tid;
	uint32_t cpu, node;
};

/* a pair's first event, waiting for its second */
struct cpending {
	uint64_t key, ts, tid;
	uint32_t pid, kind, count, depth, reason;
	char what[128];
};

struct cthread {
	uint32_t pid;
	uint64_t tid;
};

struct chromium {
	struct view *v;
	FILE *out;
	int first;			/* no traceEvents entry written yet */
	struct cnode *nodes;
	size_t n_nodes, cap_nodes;
	struct u64_map node_index;	/* (parent << 32 | frame) -> node + 1 */
	struct csample *samples;
	size_t n_samples, cap_samples;
	struct cpending *pend;
	size_t n_pend, cap_pend;
	struct cthread *threads;
	size_t n_threads, cap_threads;
	struct u64_map thread_index;	/* tid -> index + 1 */
};

static double chromium__us(const struct chromium *c, uint64_t ts)
{
	return view_ticks_to_ns(c->v, ts - c->v->start_ts) / 1e3;
}

static void chromium__sep(struct chromium *c)
{
	fputs(c->first ? "\n" : ",\n", c->out);
	c->first = 0;
}

static int chromium__thread(struct chromium *c, const struct nt_read_event *ev)
{
	struct u64_map_ent *e;

	if (u64_map__get(&c->thread_index, ev->thread_id, &e))
		return -ENOMEM;
	if (e->val)
		return 0;
	if (GROW(c->threads, c->cap_threads, c->n_threads + 1))
		return -ENOMEM;
	c->threads[c->n_threads] = (struct cthread){ .pid = ev->pid, .tid = ev->thread_id };
	e->val = ++c->n_threads;
	return 0;
}

/* The stack-frame node of ev's stack's leaf, + 1 (0: no frames), or -ENOMEM. */
static long chromium__node(struct chromium *c, const struct nt_read_event *ev)
{
	struct view *v = c->v;
	uint32_t sid = view__event_stack(v, ev), d, parent = 0;
	struct u64_map_ent *e;

	if (sid == UINT32_MAX)
		return -ENOMEM;
	for (d = 0; d < v->stacks[sid].depth; d++) {
		uint32_t f = v->frames_pool[v->stacks[sid].off + d];

		if (u64_map__get(&c->node_index, (uint64_t)parent << 32 | f, &e))
			return -ENOMEM;
		if (!e->val) {
			if (GROW(c->nodes, c->cap_nodes, c->n_nodes + 1))
				return -ENOMEM;
			c->nodes[c->n_nodes] = (struct cnode){ .parent = parent, .frame = f };
			e->val = ++c->n_nodes;
		}
		parent = (uint32_t)e->val;
	}
	return parent;
}

static void chromium__instant(struct chromium *c, const struct nt_read_event *ev)
{
	char name[256];

	manifest_event_name(ev->meta, MANIFEST_NAME_TRACEEVENT, name, sizeof(name));
	chromium__sep(c);
	fputs("{\"ph\":\"i\",\"s\":\"t\",\"name\":", c->out);
	json_str(c->out, name);
	fputs(",\"cat\":", c->out);
	json_str(c->out, ev->meta->provider);
	fprintf(c->out, ",\"ts\":%.3f,\"pid\":%" PRIu32 ",\"tid\":%" PRIu64, chromium__us(c, ev->timestamp),
		ev->pid, ev->thread_id);
	if (ev->meta->manifest) {
		fputs(",\"args\":", c->out);
		ect_payload_to_json(ev->meta->manifest, ev->payload, ev->payload_size, c->out);
	} else if (ev->meta->n_fields) {
		fputs(",\"args\":", c->out);
		nt_payload_to_json(ev->meta, ev->payload, ev->payload_size, c->out);
	}
	fputc('}', c->out);
}

enum { PAIR_GC, PAIR_CONTENTION, PAIR_EXCEPTION };

/* Where a pair's first event waits: GCs by process and Count, the others
 * by thread. */
static uint64_t pair_key(const struct nt_read_event *ev, int kind)
{
	if (kind == PAIR_GC)
		return (uint64_t)ev->pid << 32 | view_payload_u32(ev, 0);
	return ev->thread_id;
}

static struct cpending *chromium__pending(struct chromium *c, int kind, uint64_t key,
					  uint32_t pid)
{
	size_t i;

	for (i = 0; i < c->n_pend; i++)
		if (c->pend[i].kind == (uint32_t)kind && c->pend[i].key == key && c->pend[i].pid == pid)
			return &c->pend[i];
	return NULL;
}

static int chromium__open_pair(struct chromium *c, const struct nt_read_event *ev, int kind)
{
	struct cpending *p = chromium__pending(c, kind, pair_key(ev, kind), ev->pid);

	if (!p) {
		if (GROW(c->pend, c->cap_pend, c->n_pend + 1))
			return -ENOMEM;
		p = &c->pend[c->n_pend++];
	}
	memset(p, 0, sizeof(*p));
	p->kind = (uint32_t)kind;
	p->key = pair_key(ev, kind);
	p->pid = ev->pid;
	p->tid = ev->thread_id;
	p->ts = ev->timestamp;
	if (kind == PAIR_GC) {
		/* GCStart: Count, then (v1+) Depth and Reason */
		p->count = view_payload_u32(ev, 0);
		p->depth = ev->meta->version >= 1 ? view_payload_u32(ev, 4) : 0;
		p->reason = ev->meta->version >= 1 ? view_payload_u32(ev, 8) : view_payload_u32(ev, 4);
	} else if (kind == PAIR_EXCEPTION) {
		/* ExceptionThrown: the type's name first */
		if (utf16le_to_utf8(ev->payload, ev->payload_size, p->what, sizeof(p->what)) < 0)
			p->what[0] = 0;
	}
	return 0;
}

static void chromium__close_pair(struct chromium *c, const struct nt_read_event *ev, int kind)
{
	struct cpending *p = chromium__pending(c, kind, pair_key(ev, kind), ev->pid);
	static const char *const cats[] = { "GC", "Contention", "Exception" };
	char name[200];

	if (!p)
		return;
	if (kind == PAIR_GC)
		snprintf(name, sizeof(name), "GC #%" PRIu32 " gen %" PRIu32, p->count, p->depth);
	else if (kind == PAIR_CONTENTION)
		snprintf(name, sizeof(name), "Contention");
	else
		snprintf(name, sizeof(name), "Exception %s", p->what[0] ? p->what : "[unknown]");
	chromium__sep(c);
	fputs("{\"ph\":\"X\",\"name\":", c->out);
	json_str(c->out, name);
	fprintf(c->out, ",\"cat\":\"%s\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%" PRIu32 ",\"tid\":%" PRIu64,
		cats[kind], chromium__us(c, p->ts),
		ev->timestamp > p->ts ? view_ticks_to_ns(c->v, ev->timestamp - p->ts) / 1e3 : 0.0,
		p->pid, p->tid);
	if (kind == PAIR_GC)
		fprintf(c->out, ",\"args\":{\"Count\":%" PRIu32 ",\"Depth\":%" PRIu32
			",\"Reason\":%" PRIu32 "}", p->count, p->depth, p->reason);
	fputc('}', c->out);
	*p = c->pend[--c->n_pend];
}

static int chromium__event(struct chromium *c, const struct nt_read_event *ev)
{
	const struct nt_metadata *m = ev->meta;
	long node;
	int err;

	if (view_streq_ci(m->provider, CLR_RUNDOWN_PROVIDER) && m->event_id >= 141 &&
	    m->event_id <= 158)
		return 0;
	err = chromium__thread(c, ev);
	if (err)
		return err;
	if (view__selected(c->v, ev)) {
		node = chromium__node(c, ev);
		if (node < 0)
			return (int)node;
		if (GROW(c->samples, c->cap_samples, c->n_samples + 1))
			return -ENOMEM;
		c->samples[c->n_samples++] = (struct csample){ .ts = ev->timestamp,
							       .tid = ev->thread_id,
							       .cpu = ev->processor,
							       .node = (uint32_t)node };
		c->v->selected++;
	}
	/* Universal.Events are the samples and switch-ins again (as the
	 * thread samples and OffCpu when the trace has both): no instants */
	if (view__is_sample(c->v, m) || view_streq_ci(m->provider, UNIVERSAL_EVENTS_PROVIDER))
		return 0;
	chromium__instant(c, ev);
	if (view_is_clr(m, CLR_EV_GC_START))
		return chromium__open_pair(c, ev, PAIR_GC);
	if (view_is_clr(m, CLR_EV_CONT_START))
		return chromium__open_pair(c, ev, PAIR_CONTENTION);
	if (view_is_clr(m, CLR_EV_EXC_THROWN))
		return chromium__open_pair(c, ev, PAIR_EXCEPTION);
	if (view_is_clr(m, CLR_EV_GC_END))
		chromium__close_pair(c, ev, PAIR_GC);
	else if (view_is_clr(m, CLR_EV_CONT_STOP))
		chromium__close_pair(c, ev, PAIR_CONTENTION);
	else if (view_is_clr(m, CLR_EV_EXC_CATCH_STOP))
		chromium__close_pair(c, ev, PAIR_EXCEPTION);
	return 0;
}

static void chromium__names(struct chromium *c)
{
	struct view *v = c->v;
	char name[128];
	size_t i, j;

	for (i = 0; i < c->n_threads; i++) {
		const struct cthread *t = &c->threads[i];
		const char *comm;

		for (j = 0; j < i && c->threads[j].pid != t->pid; j++)
			;
		if (j == i) {	/* the process's first thread */
			comm = view__comm(v, t->pid, 0);
			if (comm)
				snprintf(name, sizeof(name), "%s (%" PRIu32 ")", comm, t->pid);
			else
				snprintf(name, sizeof(name), "Process %" PRIu32, t->pid);
			chromium__sep(c);
			fprintf(c->out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu32
				",\"tid\":0,\"args\":{\"name\":", t->pid);
			json_str(c->out, name);
			fputs("}}", c->out);
		}
		comm = t->tid ? view__comm(v, t->pid, t->tid) : NULL;
		if (comm)
			snprintf(name, sizeof(name), "%s (%" PRIu64 ")", comm, t->tid);
		else
			snprintf(name, sizeof(name), "Thread %" PRIu64, t->tid);
		chromium__sep(c);
		fprintf(c->out, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRIu32
			",\"tid\":%" PRIu64 ",\"args\":{\"name\":", t->pid, t->tid);
		json_str(c->out, name);
		fputs("}}", c->out);
	}
}

static void chromium__samples(struct chromium *c)
{
	struct view *v = c->v;
	const char *what = v->cpu_samples && !v->event_filter ? "cpu" : v->select_desc;
	size_t i;

	fputs("],\n\"samples\":[", c->out);
	for (i = 0; i < c->n_samples; i++) {
		const struct csample *s = &c->samples[i];

		fprintf(c->out, "%s{\"cpu\":%" PRIu32 ",\"tid\":%" PRIu64 ",\"ts\":%.3f,\"name\":",
			i ? ",\n" : "\n", s->cpu, s->tid, chromium__us(c, s->ts));
		json_str(c->out, what);
		if (s->node)
			fprintf(c->out, ",\"sf\":%" PRIu32, s->node - 1);
		fputs(",\"weight\":1}", c->out);
	}
	fputs("],\n\"stackFrames\":{", c->out);
	for (i = 0; i < c->n_nodes; i++) {
		const struct cnode *n = &c->nodes[i];
		const struct vframe *f = &v->frames[n->frame];

		fprintf(c->out, "%s\"%zu\":{\"name\":", i ? ",\n" : "\n", i);
		json_str(c->out, f->name);
		fputs(",\"category\":", c->out);
		json_str(c->out, f->file ? f->file : f->kind == SYM_KIND_KERNEL ? "kernel" : "[unknown]");
		if (n->parent)
			fprintf(c->out, ",\"parent\":\"%" PRIu32 "\"", n->parent - 1);
		fputc('}', c->out);
	}
	fputs("}\n}\n", c->out);
}

int view__write_chromium(struct view *v, const char *path, FILE *out)
{
	struct chromium c = { .v = v, .out = out, .first = 1 };
	struct nt_reader *r = view__open(v, path);
	struct nt_read_event ev;
	int rc, err = 0;

	if (!r)
		return -errno;
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":\"ebpf-collect\",\"name\":", out);
	json_str(out, sym_basename(path));
	fputs("},\n\"traceEvents\":[", out);
	while (!err && (rc = nt_reader__next(r, &ev)) == 1)
		err = chromium__event(&c, &ev);
	nt_reader__close(r);
	if (!err) {
		chromium__names(&c);
		chromium__samples(&c);
	}
	free(c.nodes);
	free(c.samples);
	free(c.pend);
	free(c.threads);
	u64_map__free(&c.node_index);
	u64_map__free(&c.thread_index);
	if (err)
		return err;
	return ferror(out) ? -EIO : 0;
}
