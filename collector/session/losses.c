// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * losses.c - the run's losses: the BPF programs' counters read, the losses
 * new since the last look noted in the trace as they appear (a sequence gap
 * on LOSS_CAPTURE_THREAD, architecture decision 9), and every counter of
 * the run summed as the LossSummary event has them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "clr_events.skel.h"
#include "kernel_events.h"
#include "collector.h"

static int read_counters(struct collector *c)
{
	struct ce_counters *per = calloc(c->ncpu, sizeof(*per));
	__u64 *dst = (__u64 *)&c->totals;
	__u32 zero = 0;
	int i, j, err;

	if (!per)
		return -ENOMEM;
	err = bpf_map__lookup_elem(c->clr.skel->maps.counters, &zero, sizeof(zero), per,
				   c->ncpu * sizeof(*per), 0);
	if (!err) {
		memset(&c->totals, 0, sizeof(c->totals));
		for (i = 0; i < c->ncpu; i++) {
			const __u64 *src = (const __u64 *)&per[i];

			for (j = 0; j < (int)(sizeof(*per) / 8); j++)
				dst[j] += src[j];
		}
	}
	free(per);
	return err;
}

uint64_t total_lost(const struct ce_counters *t)
{
	return t->rb_drops + t->payload_faults + t->nested_drops + t->batch_drops;
}

/* New losses since the last call become a sequence gap on the loss thread. */
void note_losses(struct collector *c)
{
	uint64_t lost;

	if (read_counters(c))
		return;
	lost = total_lost(&c->totals);
	if (c->ug && !usdt_generic__read_counters(c->ug, &c->ug_totals))
		lost += usdt_generic__lost(&c->ug_totals);
	lost += kernel_events__lost(c->ke);
	while (lost > c->lost_noted) {
		uint64_t d = lost - c->lost_noted;
		uint32_t n = d > UINT32_MAX ? UINT32_MAX : d;

		if (recorder__note_lost(&c->pipe, n))
			break;
		c->lost_noted += n;
	}
}

/* Every loss counter of the run so far, as the LossSummary event has them. */
void collect_loss(struct collector *c, struct loss_summary *loss)
{
	*loss = (struct loss_summary){
		.events_written = c->pipe.records,
		.ringbuf_drops = c->totals.rb_drops,
		.truncated_payloads = c->clr.oversize,
		.truncated_stacks = c->totals.ustack_truncated + c->totals.kstack_truncated,
		.other_drops = c->totals.payload_faults + c->totals.nested_drops + c->pipe.bad_records,
	};
	if (c->ug && !usdt_generic__read_counters(c->ug, &c->ug_totals)) {
		loss->ringbuf_drops += c->ug_totals.sum.rb_drops;
		loss->other_drops += c->ug_totals.sum.nested_drops + c->ug_totals.bad_records;
	}
	if (c->ke) {
		struct ke_counters kc;

		if (!kernel_events__counters(c->ke, &kc)) {
			loss->ringbuf_drops += kc.rb_drops;
			loss->truncated_stacks += kc.kstack_truncated + kc.ustack_truncated;
			loss->other_drops += kc.nested_drops;
		}
		loss->other_drops += kernel_events__bad_records(c->ke);
	}
}
