// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ring.c - reading the BPF ring buffer: each record's header checked, then
 * the record handed to the source that takes it on arrival (a batched run,
 * split into its events) or held in the reorder buffer as it is, in rounds
 * of at most RB_ROUND_BYTES so that the reorder buffer gives up what is old
 * enough even while the producers outpace us.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <bpf/libbpf.h>
#include "collector_event.h"
#include "kernel_event.h"
#include "reorder.h"
#include "pipeline.h"

/* Ring-buffer callback: validate the common header, hold for reordering. */
static int handle_record(void *ctx, void *data, size_t len)
{
	struct pipeline *p = ctx;
	const struct ce_header *h = data;
	const struct pipeline_source *s;
	int err;

	if (len < sizeof(*h) || h->size != len) {
		p->bad_records++;
		return 0;
	}
	if (h->type == KE_REC_EXEC && p->hooks.exec)	/* --all: a new program to look at */
		p->hooks.exec(p->hooks.ctx, h->pid);
	if (h->timestamp > p->rb_newest_ts)
		p->rb_newest_ts = h->timestamp;
	if (p->count_only) {
		p->counted_records++;
		p->counted_events += h->type == CE_REC_CLR_BATCH && len >= sizeof(struct ce_clr_batch) ?
				     ((const struct ce_clr_batch *)data)->count : 1;
		return 0;
	}
	s = pipeline__source(p, h->type, true);
	if (s)	/* taken apart on arrival: a run of batched events */
		err = s->ops->arrive(s->ctx, p, data, len);
	else
		err = reorder__push(p->ro, h->timestamp, data, len);
	if (err) {
		p->fatal = err;
		return err;
	}
	/* libbpf stops the round on a negative return, this record read */
	p->rb_round_bytes += len;
	if (p->rb_round_bytes < RB_ROUND_BYTES)
		return 0;
	p->rb_behind = true;
	p->rb_rounds_cut++;
	return -EAGAIN;
}

int pipeline__open_ring(struct pipeline *p, int map_fd)
{
	p->rb = ring_buffer__new(map_fd, handle_record, p, NULL);
	return p->rb ? 0 : -errno;
}

/*
 * One round of the ring buffer: wait up to timeout_ms (not when the last
 * round left records behind), then read until it is empty or RB_ROUND_BYTES
 * were read (p->rb_behind).  Records are submitted without wakeups (decision
 * 13): epoll only returns early when BPF forced a wakeup at a fill
 * threshold; on a timeout consume whatever is there.  0 or -errno.
 */
int ring_round(struct pipeline *p, int timeout_ms)
{
	int err = 0;

	if (p->rb_behind)
		timeout_ms = 0;
	p->rb_behind = false;
	p->rb_round_bytes = 0;
	if (timeout_ms)
		err = ring_buffer__poll(p->rb, timeout_ms);
	/* EINTR: SIGINT/SIGTERM set the session's `exiting`; a stop and
	 * continue (Ctrl-Z, fg) interrupts the wait too, and must not end the
	 * trace */
	if (err == 0 || err == -EINTR)
		err = ring_buffer__consume(p->rb);
	if (p->fatal)
		return p->fatal;
	if (p->rb_behind)
		return 0;
	return err < 0 ? err : 0;
}

/* What the reorder buffer may give up: records older than window before
 * now, or, while the ring still holds records, before the newest one read
 * (the ones left were committed after it). */
uint64_t ring_pop_cutoff(const struct pipeline *p, uint64_t now, uint64_t window)
{
	uint64_t upto = p->rb_behind && p->rb_newest_ts < now ? p->rb_newest_ts : now;

	return upto > window ? upto - window : 0;
}
