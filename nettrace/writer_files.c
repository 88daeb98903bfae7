// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_files.c - one writer, a series of files: rotation and flight-recorder
 * dumps end one complete trace and start the next.  Each file stands alone
 * (its own header, sequence numbers from 1, its own stacks), but starts with
 * every metadata record the writer has defined, under the same ids, so the
 * callers' cached metadata ids stay valid across files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nettrace.h"
#include "nettrace_internal.h"

/* Per-file state back to "nothing written": offsets, sequence numbers,
 * stack table, block buffers.  Metadata ids and their history stay. */
void wr_reset_file_state(struct nt_writer *w)
{
	w->offset = w->good_offset = w->good_events = w->last_sp_offset = 0;
	w->n_events = 0;
	w->max_ts = 0;
	w->any_event = 0;
	w->err = 0;
	w->meta.buf.len = w->meta.count = 0;
	w->ev.buf.len = w->ev.count = 0;
	memset(&w->meta.prev, 0, sizeof(w->meta.prev));
	memset(&w->ev.prev, 0, sizeof(w->ev.prev));
	w->meta.min_ts = w->ev.min_ts = UINT64_MAX;
	w->meta.max_ts = w->ev.max_ts = 0;
	w->stacks.len = w->stacks_count = 0;
	wr_forget_stacks(w);
	nt_map__clear(&w->threads);
	w->thr_last = NULL;
	w->n_active = 0;
	w->n_first_pending = 0;
	w->ev_thread = 0;
	w->out.len = 0;
}

/* Every metadata record defined so far, into the new file's first block. */
int wr_replay_metadata(struct nt_writer *w)
{
	size_t off = 0;
	uint32_t n;
	int err = 0;

	while (!err && off + 4 <= w->meta_hist.len) {
		memcpy(&n, w->meta_hist.data + off, 4);
		err = wr_meta_append(w, w->meta_hist.data + off + 4, n);
		off += 4 + n;
	}
	return err;
}

int nt_writer__next_file(struct nt_writer *w, const char *path,
			 const struct nt_loss_summary *loss, uint64_t last_ts,
			 struct nt_salvage *salvaged)
{
	int err = 0, err2;

	if (!w || (path && !*path))
		return -EINVAL;
	if (salvaged)
		memset(salvaged, 0, sizeof(*salvaged));
	if (w->fd >= 0)
		err = wr_end_file(w, loss, last_ts, salvaged);
	if (!path)
		return err;
	err2 = wr_begin_file(w, path);
	return err ? err : err2;
}

int nt_writer__has_file(const struct nt_writer *w)
{
	return w && w->fd >= 0;
}

const char *nt_writer__path(const struct nt_writer *w)
{
	return w && w->fd >= 0 ? w->path : NULL;
}

int nt_writer__rename(struct nt_writer *w, const char *path)
{
	char *copy;

	if (!w || !path || !*path)
		return -EINVAL;
	if (w->fd < 0)
		return -EBADF;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	if (rename(w->path, path)) {
		int err = -errno;

		free(copy);
		return err;
	}
	free(w->path);
	w->path = copy;
	return 0;
}
