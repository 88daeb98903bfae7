// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_salvage.c - a file the full file system cut short (salvage() in
 * writer.c): which capture threads keep an event in the part that stays,
 * and the losses of those that keep none, which readers would not count.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "nettrace.h"
#include "nettrace_internal.h"
#include "grow.h"

/* The threads whose first event was pending are in the file now. */
void wr_mark_on_disk(struct nt_writer *w)
{
	size_t i;

	for (i = 0; i < w->n_first_pending; i++) {
		struct nt_map_ent *t = nt_map__find(&w->threads, w->first_pending[i]);

		if (t)
			t->val = (t->val & ~NT_THR_QUEUED) | NT_THR_ON_DISK;
	}
	w->n_first_pending = 0;
}

/* thr's first event of the file is about to be appended: remember it until
 * the blocks are written.  0 or -ENOMEM. */
int wr_queue_first(struct nt_writer *w, struct nt_map_ent *thr)
{
	if (thr->val & (NT_THR_ON_DISK | NT_THR_QUEUED))
		return 0;
	if (GROW(w->first_pending, w->cap_first_pending, w->n_first_pending + 1))
		return -ENOMEM;
	w->first_pending[w->n_first_pending++] = thr->key;
	thr->val |= NT_THR_QUEUED;
	return 0;
}

/*
 * After a cut: the threads none of whose events are in the kept part.  A
 * reader that meets a thread first in a sequence point takes its number as
 * where it starts (TraceEvent does): their events would not count as lost.
 * So they leave the sequence point, and their events are noted lost on
 * capture thread 0 instead (an EventsLost marker event, then the gap the
 * sequence point shows), where every reader counts them.  The marker's
 * definition may have been cut too: it is defined again.
 */
int wr_move_unseen_losses(struct nt_writer *w)
{
	uint64_t unseen = 0;
	size_t i;
	int err = 0;

	w->n_first_pending = 0;
	w->n_active = 0;
	for (i = 0; i < w->threads.cap; i++) {
		struct nt_map_ent *t = &w->threads.ents[i];

		if (!t->used)
			continue;
		if (!(t->val & NT_THR_ON_DISK)) {
			unseen += (uint32_t)t->val;
			t->val = 0;
		}
		w->n_active += !!(t->val & NT_THR_ACTIVE);
	}
	w->thr_last = NULL;
	if (unseen)
		w->lost_meta_id = 0;
	while (!err && unseen) {
		uint32_t n = unseen > UINT32_MAX ? UINT32_MAX : (uint32_t)unseen;

		err = nt_writer__note_lost_pid(w, 0, 0, n);
		unseen -= n;
	}
	return err;
}
