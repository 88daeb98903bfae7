// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ring.c - reading the BPF ring buffer: each record's header checked, then
 * the record held in the reorder buffer (a batched run split into its
 * events first), in rounds of at most RB_ROUND_BYTES so that the reorder
 * buffer gives up what is old enough even while the producers outpace us.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <bpf/libbpf.h>
#include "collector_event.h"
#include "kernel_event.h"
#include "reorder.h"
#include "batch.h"
#include "collector.h"

/* Ring-buffer callback: validate the common header, hold for reordering. */
int handle_record(void *ctx, void *data, size_t len)
{
	struct collector *c = ctx;
	const struct ce_header *h = data;
	int err;

	if (len < sizeof(*h) || h->size != len) {
		c->bad_records++;
		return 0;
	}
	if (h->type == KE_REC_EXEC)	/* --all: a new program to look at */
		host__note_exec(c, h->pid);
	if (h->timestamp > c->rb_newest_ts)
		c->rb_newest_ts = h->timestamp;
	if (h->type == CE_REC_CLR_BATCH)	/* a run of batched events */
		err = batch__split(c, data, len);
	else
		err = reorder__push(c->ro, h->timestamp, data, len);
	if (err) {
		c->fatal = err;
		return err;
	}
	/* libbpf stops the round on a negative return, this record read */
	c->rb_round_bytes += len;
	if (c->rb_round_bytes < RB_ROUND_BYTES)
		return 0;
	c->rb_behind = true;
	c->rb_rounds_cut++;
	return -EAGAIN;
}

/*
 * One round of the ring buffer: wait up to timeout_ms (not when the last
 * round left records behind), then read until it is empty or RB_ROUND_BYTES
 * were read (c->rb_behind).  Records are submitted without wakeups (decision
 * 13): epoll only returns early when BPF forced a wakeup at a fill
 * threshold; on a timeout consume whatever is there.  0 or -errno.
 */
int ring_round(struct collector *c, int timeout_ms)
{
	int err = 0;

	if (c->rb_behind)
		timeout_ms = 0;
	c->rb_behind = false;
	c->rb_round_bytes = 0;
	if (timeout_ms)
		err = ring_buffer__poll(c->rb, timeout_ms);
	/* EINTR: SIGINT/SIGTERM set `exiting`; a stop and continue (Ctrl-Z,
	 * fg) interrupts the wait too, and must not end the trace */
	if (err == 0 || err == -EINTR)
		err = ring_buffer__consume(c->rb);
	if (c->fatal)
		return c->fatal;
	if (c->rb_behind)
		return 0;
	return err < 0 ? err : 0;
}

/* What the reorder buffer may give up: records older than window before
 * now, or, while the ring still holds records, before the newest one read
 * (the ones left were committed after it). */
uint64_t ring_pop_cutoff(const struct collector *c, uint64_t now, uint64_t window)
{
	uint64_t upto = c->rb_behind && c->rb_newest_ts < now ? c->rb_newest_ts : now;

	return upto > window ? upto - window : 0;
}
