// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tpshim.c - stock .NET through its own tracepoints (tpshim.h).
 */
#define LOG_PREFIX "ebpf-collect: "
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "tpshim.skel.h"
#include "collector_event.h"
#include "dotnet_ipc.h"
#include "ep_perfmap.h"
#include "tpshim_event.h"
#include "event_table.h"
#include "grow.h"
#include "log.h"
#include "lttng_env.h"
#include "proc_mem.h"
#include "pipeline.h"
#include "reorder.h"
#include "selection.h"
#include "tpshim.h"
#include "tpshim_batch.h"
#include "batch_run.h"
#include "tpshim_enable.h"
#include "tracepoint_read.h"
#include "tracepoint_sig.h"

_Static_assert(sizeof(struct tps_event) == 168, "tps_event layout");
_Static_assert(TPS_FP_BELOW == TPSHIM_FP_BELOW && TPS_FP_ARGS == TPSIG_MAX_FP, "doubles");
_Static_assert(TPS_MAX_ARGS == TPSIG_MAX_ARGS, "arguments");
_Static_assert(sizeof(struct tps_spec) == 8, "tps_spec layout");

#define NO_EVENT UINT32_MAX

struct tps_proc {
	pid_t pid;
	uint32_t n;		/* the shim's tracepoints */
	uint32_t *table_idx;	/* per shim index: the event table's, NO_EVENT */
	struct tpsig *sigs;	/* per shim index */
	int *holds;		/* the kernel's holds of the enabled states */
	uint32_t nr_holds;
	uint32_t unreadable;	/* selected, but their signature is not read */
	uint32_t newer;		/* of a newer version than the table's: cut to it */
	struct bpf_link *link, *link_fp;	/* the probe, the probe for doubles */
	struct tps_batch *batch;	/* --batched, else NULL */
	struct tpshim_lib lib;
	/* its perf map while traced, which names the JIT frames of methods
	 * compiled before the trace (no rundown comes through the shim) */
	struct dn_socket sock;
	bool has_sock, pm_off;	/* found; DisablePerfMap sent */
	struct ep_perfmap pm;
};

int tpshim_source__load(struct tpshim_source *s, int rb_fd, uint64_t wakeup_bytes,
			uint64_t backstop_bytes)
{
	int err;

	s->skel = tpshim_bpf__open();
	if (!s->skel) {
		err = -errno;
		pr_warn("cannot open the tracepoint shim's BPF object: %s\n", strerror(-err));
		return err;
	}
	s->skel->rodata->targ_ustack = s->ustack;
	s->skel->rodata->targ_kstack = s->kstack;
	s->skel->rodata->targ_wakeup_bytes = wakeup_bytes;
	s->skel->rodata->targ_backstop_bytes = backstop_bytes;
	/* a run's scratch per CPU, when batched (else one, unused) */
	err = s->batched ? libbpf_num_possible_cpus() : 1;
	if (err > 0)
		err = bpf_map__set_max_entries(s->skel->maps.tps_batch_scratch, err);
	if (!err)
		err = bpf_map__reuse_fd(s->skel->maps.rb, rb_fd);
	if (!err)
		err = tpshim_bpf__load(s->skel);
	if (err) {
		pr_warn("cannot load the tracepoint shim's BPF program: %s\n", strerror(-err));
		tpshim_bpf__destroy(s->skel);
		s->skel = NULL;
	}
	return err;
}

/* The spec the program copies by, for one tracepoint's signature */
static struct tps_spec spec_of(const struct tpsig *sig)
{
	struct tps_spec sp = { .buf_arg = TPS_NO_ARG, .len_arg = TPS_NO_ARG, .nargs = sig->n_int,
			       .nfp = sig->n_fp };

	if (sig->serialized) {
		sp.len_arg = 0;
		sp.buf_arg = 1;
		return sp;
	}
	for (uint8_t k = 0; k < sig->n; k++)
		if (sig->kind[k] == TPSIG_STR)
			sp.str_mask |= 1u << sig->slot[k];
	return sp;
}

/* The length of symbol without a version suffix ("GCStart_V2": 7) */
static size_t base_len(const char *symbol)
{
	const char *v = strrchr(symbol, '_');
	size_t n = strlen(symbol);

	if (v && v[1] == 'V' && v[2] && strspn(v + 2, "0123456789") == strlen(v + 2))
		return v - symbol;
	return n;
}

/* The version a symbol's suffix says ("GCStart_V2": 2, "GCStart": 0) */
static unsigned int version_of(const char *symbol)
{
	size_t n = base_len(symbol);

	return symbol[n] ? (unsigned int)atoi(symbol + n + 2) : 0;
}

/* The table's event of another version of prov:symbol, or NULL.  The
 * runtime asks an older version's state whether an event's keyword is on
 * (the GC fires GCStart_V2 only while DotNETRuntime:GCStart is raised),
 * and a newer version than the table's only appends fields (.NET 8's
 * ContentionStart_V2 beside a table with ContentionStart_V1). */
static const struct ect_event *other_version(const struct ect_table *t, const char *prov,
					     const char *symbol)
{
	size_t n = base_len(symbol);

	for (uint32_t i = 0; i < t->n_events; i++) {
		const struct ect_event *ev = &t->events[i];

		if (base_len(ev->symbol) == n && !strncmp(ev->symbol, symbol, n) &&
		    !strcmp(ev->provider->usdt_name, prov))
			return ev;
	}
	return NULL;
}

/* The selected event of tracepoint tp (tpshim_source's table and
 * selection), or NULL: *older when tp is an older version, raised for its
 * keyword only; *newer when a newer one, recorded as the table's. */
static const struct ect_event *tp_event(const struct ect_table *t, const struct selection *sel,
					bool no_rundown, const struct tpshim_tp *tp, bool *older,
					bool *newer)
{
	const struct ect_event *ev;
	const char *colon = strchr(tp->name, ':');
	char prov[128];

	*older = *newer = false;
	if (!colon || (size_t)(colon - tp->name) >= sizeof(prov))
		return NULL;
	memcpy(prov, tp->name, colon - tp->name);
	prov[colon - tp->name] = 0;
	if (no_rundown && strstr(prov, "Rundown"))
		return NULL;
	ev = ect_find_symbol(t, prov, colon + 1);
	if (!ev) {
		ev = other_version(t, prov, colon + 1);
		if (!ev)
			return NULL;
		*older = version_of(colon + 1) < ev->version;
		*newer = !*older;
	}
	return selection__matches(sel, ev) ? ev : NULL;
}

/* Tracepoint tp's state held through the kernel, in pid's library of it */
static int hold(struct tps_proc *p, const struct tpshim_tp *tp)
{
	int err, fd;

	if (!tpshim_lib__has(&p->lib, tp->addr)) {
		tpshim_lib__close(&p->lib);
		err = tpshim_lib__open(p->pid, tp->addr, &p->lib);
		if (err) {
			pr_warn("pid %d: the library of tracepoint %s: %s\n", p->pid, tp->name,
				strerror(-err));
			return err;
		}
	}
	fd = tpshim_lib__hold(p->pid, &p->lib, tp->addr);
	if (fd < 0) {
		pr_warn("pid %d: cannot enable tracepoint %s through the kernel: %s\n", p->pid,
			tp->name, strerror(-fd));
		return fd;
	}
	p->holds[p->nr_holds++] = fd;
	return 0;
}

/* Tracepoint i of the shim: its event and signature, and, when selected
 * and readable, its spec given to the program and its state held. */
static int enable_one(struct tpshim_source *s, struct tps_proc *p, const struct tpshim_view *v,
		      uint32_t i)
{
	const struct ect_event *ev;
	struct tpshim_tp tp;
	struct tps_spec sp;
	bool older, newer;
	uint64_t key;
	int err;

	p->table_idx[i] = NO_EVENT;
	if (tpshim__tracepoint(v, i, &tp))
		return 0;	/* its library went away */
	ev = tp_event(s->table, s->sel, s->no_rundown, &tp, &older, &newer);
	if (!ev)
		return 0;
	if (older)	/* its calls are not recorded */
		return hold(p, &tp);
	if (tpsig_parse(tp.signature, &p->sigs[i]) ||
	    tpsig_match(&p->sigs[i], ev, newer)) {
		pr_debug("pid %d: %s: signature not read (%s)\n", p->pid, tp.name, tp.signature);
		p->unreadable++;
		return 0;
	}
	sp = spec_of(&p->sigs[i]);
	key = ((uint64_t)p->pid << 32) | i;
	err = bpf_map__update_elem(s->skel->maps.tps_specs, &key, sizeof(key), &sp, sizeof(sp), 0);
	if (err)
		return err;
	if (p->batch) {
		struct tpshim_spec bs = { .str_mask = sp.str_mask, .buf_arg = sp.buf_arg,
					  .len_arg = sp.len_arg, .nargs = sp.nargs, .nfp = sp.nfp,
					  .written = 1 };

		err = tps_batch__add(p->batch, i, &bs, s->ustack);
		if (err)
			return err;
	}
	err = hold(p, &tp);
	if (err)
		return err;
	p->table_idx[i] = ev - s->table->events;
	p->newer += newer;
	return 0;
}

/* The last process added, taken out again: its holds closed (each waits
 * for a grace period: a failed attach or one with nothing selected, which
 * holds few), its probes detached. */
static void drop_last(struct tpshim_source *s)
{
	struct tps_proc *p = &s->procs[--s->nr_procs];

	for (uint32_t h = 0; h < p->nr_holds; h++)
		close(p->holds[h]);
	tps_batch__free(p->batch);
	bpf_link__destroy(p->link);
	bpf_link__destroy(p->link_fp);
	free(p->table_idx);
	free(p->sigs);
	free(p->holds);
	tpshim_lib__close(&p->lib);
}

int tpshim__env_refuses(const struct ect_table *t, const struct selection *sel, bool no_rundown,
			pid_t pid, const struct tpshim_view *v, char *why, size_t n)
{
	const struct ect_event *ex = NULL;
	struct lttng_env le;
	struct tpshim_tp tp;
	uint32_t uncalled = 0;
	char want[sizeof(le.config)];
	bool older, newer;
	int err = lttng_env__read(pid, &le);

	if (err)
		return err;
	if (!le.event_log) {
		snprintf(why, n, "pid %d: offers the tracepoint shim, but was started without "
			 "DOTNET_EnableEventLog=1, so its runtime calls its tracepoints for no event "
			 "it checks keywords for: traced through EventPipe", pid);
		return 1;
	}
	if (le.all && !le.nr_prov)
		return 0;	/* every event called: no need to read the table twice */
	for (uint32_t i = 0; i < v->table.count && i < TPSHIM_CAPACITY; i++) {
		const struct ect_event *ev;

		if (tpshim__tracepoint(v, i, &tp))
			continue;
		ev = tp_event(t, sel, no_rundown, &tp, &older, &newer);
		if (!ev || lttng_env__calls(&le, ev->provider->name, ev->level, ev->keywords))
			continue;
		if (!uncalled++)
			ex = ev;
	}
	if (!uncalled)
		return 0;
	if (selection__lttng_config(sel, want, sizeof(want)))
		snprintf(want, sizeof(want), "%s", "(the selection's keywords)");
	/* EventPipe has them all: a complete trace before a cheaper one */
	snprintf(why, n, "pid %d: offers the tracepoint shim, but its runtime calls no tracepoint "
		 "for %u of the selected events (%s/%s among them): DOTNET_LTTngConfig=%s, read at "
		 "its start, leaves out their keywords or level; traced through EventPipe "
		 "(DOTNET_LTTngConfig=%s covers the selection)", pid, uncalled, ex->provider->name,
		 ex->name, le.config, want);
	return 1;
}

static int attach_pid(struct tpshim_source *s, pid_t pid);

int tpshim_source__attach_pid(struct tpshim_source *s, pid_t pid)
{
	size_t before = s->nr_procs;
	int n = attach_pid(s, pid);

	/* traced through the shim with something enabled, or not at all:
	 * the caller's fallback (EventPipe) must not trace it twice */
	if (n <= 0 && s->nr_procs > before)
		drop_last(s);
	return n;
}

static int attach_pid(struct tpshim_source *s, pid_t pid)
{
	struct bpf_uprobe_opts uo = { .sz = sizeof(uo) };
	struct tpshim_view v;
	struct tps_proc *p;
	char path[96], why[2048];
	uint64_t off;
	int err;

	err = tpshim__find(pid, &v);
	if (err)
		return err == -ESRCH ? err : -ENOENT;
	if (v.table.refused || !v.table.count)
		return -ENOENT;
	/* what its runtime calls tracepoints for was settled at its start */
	if (tpshim__env_refuses(s->table, s->sel, s->no_rundown, pid, &v, why, sizeof(why)) > 0) {
		pr_info("%s\n", why);
		return -ENOENT;
	}
	if (GROW(s->procs, s->cap_procs, s->nr_procs + 1))
		return -ENOMEM;
	p = &s->procs[s->nr_procs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->lib.fd = -1;
	ep_perfmap__init(&p->pm);
	p->n = v.table.count < TPSHIM_CAPACITY ? v.table.count : TPSHIM_CAPACITY;
	p->table_idx = calloc(p->n, sizeof(*p->table_idx));
	p->sigs = calloc(p->n, sizeof(*p->sigs));
	p->holds = calloc(p->n, sizeof(*p->holds));
	s->nr_procs++;
	if (!p->table_idx || !p->sigs || !p->holds)
		return -ENOMEM;
	/* the probe first, so no call of a state raised below is missed */
	err = proc_mapped_at(pid, v.table.probe_site, path, sizeof(path), &off);
	if (err) {
		pr_warn("pid %d: the tracepoint shim's probe: %s\n", pid, strerror(-err));
		return err;
	}
	p->link = bpf_program__attach_uprobe_opts(s->skel->progs.tpshim_event, pid, path, off, &uo);
	if (!p->link) {
		err = -errno;
		pr_warn("pid %d: cannot attach the tracepoint shim's probe: %s\n", pid, strerror(-err));
		return err;
	}
	err = proc_mapped_at(pid, v.table.probe_site_fp, path, sizeof(path), &off);
	if (!err) {
		p->link_fp = bpf_program__attach_uprobe_opts(s->skel->progs.tpshim_event, pid, path,
							     off, &uo);
		err = p->link_fp ? 0 : -errno;
	}
	if (err) {
		pr_warn("pid %d: cannot attach the tracepoint shim's probe for doubles: %s\n", pid,
			strerror(-err));
		return err;
	}
	/* what a dead tracer left, whoever traces now */
	err = tps_batch__repair(pid, &v.table);
	if (err < 0)
		return err;
	if (s->batched) {
		p->batch = tps_batch__new(pid, &v.table);
		if (!p->batch && errno != ENOTSUP)
			return -errno;
		if (!p->batch)
			pr_warn("pid %d: its tracepoint shim has no batched mode (an older "
				"shim): each call through its probe\n", pid);
	}
	for (uint32_t i = 0; i < p->n; i++) {
		err = enable_one(s, p, &v, i);
		if (err)
			return err;
	}
	if (p->batch && p->nr_holds) {
		err = tps_batch__start(p->batch, s->skel->progs.tpshim_batch);
		if (err < 0)
			return err;
	}
	/* EnablePerfMap over its diagnostics socket, as the EventPipe path
	 * does (a command the collector started has it on from its start) */
	if (p->nr_holds && !dn_find_socket(pid, &p->sock)) {
		p->has_sock = true;
		ep_perfmap__enable(&p->pm, &p->sock, true, NULL);
	}
	pr_info("pid %d: traced through the tracepoint shim: %u tracepoints enabled%s\n", pid,
		p->nr_holds, p->unreadable ? ", some selected ones not readable (-v names them)" : "");
	return p->nr_holds;
}

size_t tpshim_source__release_pid(struct tpshim_source *s, pid_t pid, int **fds)
{
	struct tps_proc *p = NULL;
	size_t n;

	*fds = NULL;
	for (size_t i = s->nr_procs; i-- > 0;)	/* the latest of a reused pid */
		if (s->procs[i].pid == pid && s->procs[i].link) {
			p = &s->procs[i];
			break;
		}
	if (!p)
		return 0;
	n = p->nr_holds;
	*fds = n ? malloc(n * sizeof(**fds)) : NULL;
	if (*fds) {
		memcpy(*fds, p->holds, n * sizeof(**fds));
	} else {
		for (uint32_t h = 0; h < p->nr_holds; h++)
			close(p->holds[h]);
		n = 0;
	}
	p->nr_holds = 0;
	p->pm_off = true;	/* an exited process takes no DisablePerfMap */
	tps_batch__release(p->batch);	/* its exit handed the buffers over */
	bpf_link__destroy(p->link);
	bpf_link__destroy(p->link_fp);
	p->link = p->link_fp = NULL;
	return n;
}

size_t tpshim_source__take_holds(struct tpshim_source *s, int **fds)
{
	size_t n = 0, cap = 0;

	*fds = NULL;
	for (size_t i = 0; i < s->nr_procs; i++) {
		struct tps_proc *p = &s->procs[i];

		if (GROW(*fds, cap, n + p->nr_holds + 1))
			return n;	/* the rest are closed by detach */
		for (uint32_t h = 0; h < p->nr_holds; h++)
			(*fds)[n++] = p->holds[h];
		p->nr_holds = 0;
	}
	return n;
}

void tpshim_source__detach(struct tpshim_source *s)
{
	for (size_t i = 0; i < s->nr_procs; i++) {
		struct tps_proc *p = &s->procs[i];

		for (uint32_t h = 0; h < p->nr_holds; h++)
			close(p->holds[h]);
		p->nr_holds = 0;
	}
	for (size_t i = 0; i < s->nr_procs; i++) {
		if (s->procs[i].has_sock && !s->procs[i].pm_off)
			ep_perfmap__disable(&s->procs[i].pm, &s->procs[i].sock, NULL);
		s->procs[i].pm_off = true;
		tps_batch__release(s->procs[i].batch);
		bpf_link__destroy(s->procs[i].link);
		bpf_link__destroy(s->procs[i].link_fp);
		s->procs[i].link = s->procs[i].link_fp = NULL;
	}
}

/* every batched process's buffers asked for; true while some have not answered */
static bool batch_pending(void *ctx, bool ask)
{
	struct tpshim_source *s = ctx;
	bool pending = false;

	for (size_t i = 0; i < s->nr_procs; i++)
		pending |= tps_batch__pending(s->procs[i].batch, ask);
	return pending;
}

int tpshim_source__flush_batched(struct tpshim_source *s, struct pipeline *p)
{
	int err = s->batched ? batch_ctl__wait(batch_pending, s, p) : 0;

	if (err == 1) {
		pr_warn("tracepoint shim: a batched process did not hand over its buffers within "
			"%llu ms (stopped or starved); the calls still in them are missing\n",
			BATCH_FLUSH_WAIT_NS / 1000000);
		err = 0;
	}
	return err;
}

/* calls of batched runs the ring (or a busy scratch) could not take */
static uint64_t batch_drops(const struct tpshim_source *s)
{
	int ncpu = libbpf_num_possible_cpus();
	struct tps_counters *per;
	uint64_t n = 0;
	uint32_t zero = 0;

	if (!s->skel || ncpu <= 0)
		return 0;
	per = calloc(ncpu, sizeof(*per));
	if (per && !bpf_map__lookup_elem(s->skel->maps.tps_counters, &zero, sizeof(zero), per,
					 ncpu * sizeof(*per), 0))
		for (int c = 0; c < ncpu; c++)
			n += per[c].batch_drops;
	free(per);
	return n;
}

void tpshim_source__print_summary(const struct tpshim_source *s, FILE *f)
{
	for (size_t i = 0; i < s->nr_procs; i++) {
		fprintf(f, "pid %d: traced through the tracepoint shim (%u selected tracepoints "
			"not readable by their signature, %u of a newer version than the event "
			"table recorded as its version)\n", s->procs[i].pid, s->procs[i].unreadable,
			s->procs[i].newer);
		tps_batch__print(s->procs[i].batch, f);
	}
	if (s->nr_procs && s->batched)
		fprintf(f, "tracepoint shim: %" PRIu64 " batched calls lost in runs the ring could "
			"not take\n", batch_drops(s));
	if (s->nr_procs && s->unreadable)
		fprintf(f, "tracepoint shim: %" PRIu64 " calls could not be rebuilt as their event\n",
			s->unreadable);
}

void tpshim_source__free(struct tpshim_source *s)
{
	tpshim_source__detach(s);
	for (size_t i = 0; i < s->nr_procs; i++) {
		tps_batch__free(s->procs[i].batch);
		free(s->procs[i].table_idx);
		free(s->procs[i].sigs);
		free(s->procs[i].holds);
		tpshim_lib__close(&s->procs[i].lib);
		if (s->procs[i].has_sock)	/* the trace is written: its files go */
			ep_perfmap__remove(&s->procs[i].pm, s->procs[i].sock.nspid);
	}
	free(s->procs);
	s->procs = NULL;
	s->nr_procs = 0;
	tpshim_bpf__destroy(s->skel);
	s->skel = NULL;
}

/* The latest process of that pid: under --all an exited one stays, for
 * its calls still in the ring, and its pid may be another's since */
static struct tps_proc *proc_of(struct tpshim_source *s, pid_t pid)
{
	for (size_t i = s->nr_procs; i-- > 0;)
		if (s->procs[i].pid == pid)
			return &s->procs[i];
	return NULL;
}

/* One call (t, len bytes) as its CE_REC_CLR_EVENT into the window. */
static int rebuild(void *ctx, struct pipeline *pl, const struct tps_event *t, size_t len)
{
	static uint8_t payload[CE_MAX_PAYLOAD];
	struct tpshim_source *s = ctx;
	const uint64_t *frames = (const uint64_t *)(t + 1);
	uint32_t nf = t->ustack_depth + t->kstack_depth;
	const uint8_t *data = (const uint8_t *)(frames + nf);
	struct ce_clr_event *e;
	struct tps_proc *p;
	long n;

	if (len < sizeof(*t) || len < sizeof(*t) + nf * 8ull + t->data_len) {
		pl->bad_records++;
		return 0;
	}
	p = proc_of(s, t->hdr.pid);
	if (!p || t->index >= p->n || p->table_idx[t->index] == NO_EVENT) {
		pl->bad_records++;
		return 0;
	}
	n = tpsig_payload(&p->sigs[t->index], &s->table->events[p->table_idx[t->index]],
			  (const uint64_t *)t->args, (const uint64_t *)t->fp,
			  data, t->data_len, t->copied, payload, sizeof(payload));
	if (n < 0) {
		s->unreadable++;
		return 0;
	}
	e = reorder__alloc(pl->ro, t->hdr.timestamp, sizeof(*e) + nf * 8 + n);
	if (!e)
		return -ENOMEM;
	memset(e, 0, sizeof(*e));
	e->hdr = t->hdr;
	e->hdr.type = CE_REC_CLR_EVENT;
	e->hdr.size = sizeof(*e) + nf * 8 + n;
	e->cookie = p->table_idx[t->index];
	e->cpu = t->cpu;
	if (t->flags & TPS_F_USTACK_TRUNCATED)
		e->flags |= CE_F_USTACK_TRUNCATED;
	e->ustack_depth = t->ustack_depth;
	e->kstack_depth = t->kstack_depth;
	e->payload_len = e->payload_orig_len = n;
	memcpy(e + 1, frames, nf * 8);
	memcpy((uint8_t *)(e + 1) + nf * 8, payload, n);
	s->events++;
	return 0;
}

/* One call as it leaves the ring: the runtime event it is, into the window. */
static int tpshim_arrive(void *ctx, struct pipeline *pl, const void *rec, size_t len)
{
	return rebuild(ctx, pl, rec, len);
}

const struct pipeline_source_ops tpshim_source_ops = {
	.first_type = CE_REC_TPSHIM,
	.last_type = CE_REC_TPSHIM,
	.arrive = tpshim_arrive,
};

/* A run of batched calls as it leaves the ring: each call into the window
 * as the per-event probe's record would go (tpshim_batch.h). */
static int tpshim_batch_arrive(void *ctx, struct pipeline *pl, const void *rec, size_t len)
{
	const struct ce_clr_batch *r = rec;
	struct tps_proc *p = len >= sizeof(*r) ? proc_of(ctx, r->hdr.pid) : NULL;

	if (!p || !p->batch) {
		pl->bad_records++;
		return 0;
	}
	return tps_batch__split(p->batch, pl, r, len, rebuild, ctx);
}

const struct pipeline_source_ops tpshim_batch_source_ops = {
	.first_type = CE_REC_TPSHIM_BATCH,
	.last_type = CE_REC_TPSHIM_BATCH,
	.arrive = tpshim_batch_arrive,
};
