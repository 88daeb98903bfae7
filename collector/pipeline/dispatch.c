// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * dispatch.c - the one dispatcher by record type (pipeline.h): which
 * registered source takes a record as it arrives from the ring or as it is
 * written, the write itself, and what follows every write; in a V6 trace,
 * the ProcessInfo event before a process's first event in each file.
 */
#define LOG_PREFIX "ebpf-collect: "
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>
#include "log.h"
#include "proc_info.h"
#include "own_events.h"
#include "kernel_event.h"
#include "pipeline.h"

const struct pipeline_source *pipeline__source(const struct pipeline *p, uint32_t type,
					       bool arriving)
{
	uint8_t i;

	if (type >= PIPELINE_TYPES)
		return NULL;
	i = arriving ? p->arrive_src[type] : p->emit_src[type];
	return i ? &p->src[i - 1] : NULL;
}

int pipeline__event(const struct pipeline *p, const void *rec, size_t len,
		    struct pipeline_event *out)
{
	const struct ce_header *h = rec;
	const struct pipeline_source *s;

	if (len < sizeof(*h) || !p->table)
		return 0;
	s = pipeline__source(p, h->type, false);
	if (!s || !s->ops->event)
		return 0;
	return s->ops->event(s->ctx, p->table, rec, len, out) == 1;
}

/*
 * Every emitter keeps one contract: 1 when the record became an event of
 * the trace, 0 when it did not (malformed, filtered or a loss note; counted
 * where that was decided), -errno when the file could not be written.
 * account() does what follows for all of them.
 */
static int account(struct pipeline *p, const struct ce_header *h, int ret)
{
	if (ret < 0) {
		if (p->rec.writes)	/* a flight-recorder dump says it */
			pr_warn("cannot write to %s: %s\n", p->rec.path, strerror(-ret));
		return ret;
	}
	if (ret > 0 && p->w_tmp) {	/* the first event: the file takes its name */
		int err = p->hooks.publish(p->hooks.ctx);

		if (err)
			return err;
	}
	if (ret > 0) {
		p->records += !p->rec.again;	/* a record dumped before counts once */
		p->rec.file_records++;
		if (!p->first_ts)
			p->first_ts = h->timestamp;
		if (h->timestamp > p->last_ts)
			p->last_ts = h->timestamp;
	}
	return 0;
}

/* A loss the flight recorder kept in its window (recorder__note_lost), as a
 * dump replays it.  0 or -errno. */
static int emit_loss(struct pipeline *p, const void *rec, size_t len)
{
	const struct loss_note *ln = rec;

	if (len != sizeof(*ln))
		return 0;
	p->rec.file_lost += ln->n;
	return nt_writer__note_lost(p->w, LOSS_CAPTURE_THREAD, ln->n);
}

/* Who h->pid is, once per file before its first event, and again from
 * its exec on (hooks.selected set: a V6 trace).  /proc is read now, as the
 * record leaves the window: a process gone by then is described by what
 * its exec record says (comm, file name), else by its pid alone.  0 or
 * -errno. */
static int describe(struct pipeline *p, const struct ce_header *h, size_t len)
{
	uint8_t payload[PROCESS_INFO_MAX];
	struct u64_map_ent *e;
	struct proc_info pi;
	bool sel;
	struct nt_event ev = {
		.timestamp = h->timestamp, .thread_id = h->tid, .capture_thread_id = h->tid,
		.processor = 0xffffffffu, .pid = h->pid, .payload = payload,
	};
	int err;

	if (!p->rec.file_records && p->described.used)	/* a new file */
		u64_map__clear(&p->described);
	if (!h->pid)
		return 0;
	if (u64_map__get(&p->described, h->pid, &e))
		return -ENOMEM;
	/* a new program is described anew, and so is one described as not
	 * selected that sends events of its own (it became a target after its
	 * first record: --all attaches a runtime when it finds its probes) */
	if (e->val == 2 && h->type != KE_REC_EXEC)
		return 0;
	if (e->val == 1 && h->type != KE_REC_EXEC &&
	    (h->type >= CE_REC_KERNEL_FIRST || !p->hooks.selected(p->hooks.ctx, h->pid)))
		return 0;
	if (!p->info_meta && (err = nt_writer__define(p->w, &own_process_info, &p->info_meta)))
		return err;
	if (proc_info_read((pid_t)h->pid, &pi) && h->type == KE_REC_EXEC &&
	    len >= sizeof(struct ke_exec)) {
		const struct ke_exec *x = (const void *)h;

		snprintf(pi.comm, sizeof(pi.comm), "%.*s", (int)sizeof(x->comm), x->comm);
		snprintf(pi.exe, sizeof(pi.exe), "%.*s", (int)sizeof(x->filename), x->filename);
	}
	sel = p->hooks.selected(p->hooks.ctx, h->pid);
	e->val = 1 + sel;
	ev.metadata_id = p->info_meta;
	ev.payload_size = (uint32_t)process_info__payload(payload, h->pid, sel, &pi);
	err = nt_writer__write_event(p->w, &ev);
	if (!err && p->w_tmp)	/* the first event: the file takes its name */
		err = p->hooks.publish(p->hooks.ctx);
	p->rec.file_records += !err;
	return err;
}

int pipeline__emit(struct pipeline *p, const void *rec, size_t len)
{
	const struct ce_header *h = rec;
	const struct pipeline_source *s;
	struct pipeline_sink sink = {
		.w = p->w, .sym = p->sym, .learnt = p->rec.fr != NULL, .again = p->rec.again,
		.bad_records = &p->bad_records,
	};

	if (h->type == CE_REC_LOSS_NOTE)	/* flight recorder: a loss in the window */
		return account(p, h, emit_loss(p, rec, len));
	s = pipeline__source(p, h->type, false);
	if (!s) {
		p->bad_records++;
		return account(p, h, 0);
	}
	if (p->hooks.selected) {
		int err = describe(p, h, len);

		if (err)
			return account(p, h, err);
	}
	return account(p, h, s->ops->emit(s->ctx, &sink, rec, len));
}
