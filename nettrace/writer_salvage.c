// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_salvage.c - a file the full file system cut short
 * (nt_writer__finish): cut back to its last whole write and, if the few
 * bytes fit, ended as a complete trace whose sequence point makes readers
 * count what did not fit as lost; the losses of threads with no event left
 * in the kept part moved to capture thread 0, where readers count them.
 * Which threads have an event on disk is writer_blocks.c's bookkeeping.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "nettrace_internal.h"

/*
 * After a cut: the threads none of whose events are in the kept part.  A
 * reader that meets a thread first in a sequence point takes its number as
 * where it starts (TraceEvent does): their events would not count as lost.
 * So they leave the sequence point, and their events are noted lost on
 * capture thread 0 instead (the caller's lost marker event, then the gap
 * the sequence point shows), where every reader counts them.  The marker's
 * definition may have been cut too: it is defined again.
 */
static int move_unseen_losses(struct nt_writer *w)
{
	uint64_t unseen = 0;
	size_t i;
	int err = 0;

	w->n_first_pending = 0;
	w->n_active = 0;
	for (i = 0; i < w->threads.cap; i++) {
		struct u64_map_ent *t = &w->threads.ents[i];

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

/*
 * The file system is full: cut the file back to its last whole write, drop
 * what is pending, and end the stream with an SPBlock (every capture
 * thread's last sequence number: readers count the events that are not in
 * the file as lost; those of threads with no event left in the file on
 * thread 0, move_unseen_losses) and the end-of-stream byte.  If those bytes
 * do not fit either, cut back again: the file then ends at a block
 * boundary, readable up to there, and readers report it as truncated.
 * Returns 0 (the file is kept, *out says how) or -errno (it could not even
 * be cut).
 */
int wr_salvage(struct nt_writer *w, uint64_t ts, struct nt_salvage *out)
{
	size_t end_len;
	const uint8_t *end = wr_end_bytes(w, &end_len);
	uint64_t cut = w->good_offset, handed = w->n_events;
	int err = 0;

	out->events = w->good_events;
	out->lost = w->n_events - w->good_events;
	if (ftruncate(w->fd, cut) || lseek(w->fd, cut, SEEK_SET) < 0)
		return -errno;
	w->offset = cut;
	w->err = 0;
	w->out.len = 0;
	wr_block_reset(&w->meta);	/* the marker of move_unseen_losses may follow */
	wr_block_reset(&w->ev);
	w->stacks.len = w->stacks_count = 0;
	err = w->v6 ? wr_v6_drop_pending(w) : 0;
	if (!err)
		err = move_unseen_losses(w);
	if (!err)
		err = wr_write_sequence_point(w, ts);
	if (!err)
		err = wr_out_write(w, end, end_len);
	if (!err && fsync(w->fd))
		err = -errno;
	out->finalized = !err;
	if (err && (ftruncate(w->fd, cut) || fsync(w->fd)))
		return -errno;
	out->bytes = err ? cut : w->offset;
	if (!err)
		out->events += w->n_events - handed;	/* the marker, if any */
	return 0;
}
