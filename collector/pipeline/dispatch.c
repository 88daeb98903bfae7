// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * dispatch.c - the one dispatcher by record type (pipeline.h): which
 * registered source takes a record as it arrives from the ring or as it is
 * written, the write itself, and what follows every write.
 */
#define LOG_PREFIX "ebpf-collect: "
#include <string.h>
#include "log.h"
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
	return account(p, h, s->ops->emit(s->ctx, &sink, rec, len));
}
