// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer.c - the streaming .nettrace writer (NetTrace V5 semantics in the
 * version-4 FastSerialization container, or V6; docs/nettrace-format.md)
 * over its files: open, end and start files (rotation, flight-recorder
 * dumps), finish, abort.  Its parts, each in a file of its own: the bytes
 * and blocks of a file (writer_blocks.c), event definitions
 * (writer_meta.c), events and losses (writer_events.c), distinct stacks
 * (writer_stacks.c), V6's thread and label tables (writer_v6.c), and what a
 * full file system leaves (writer_salvage.c).
 *
 * Memory is bounded by the block caps, the stack bound and the number of
 * capture threads, never by the length of the trace: blocks are written as
 * they fill, sequence points forget the stacks (writer_blocks.c).
 *
 * One writer, a series of files: each file stands alone (its own header,
 * sequence numbers from 1, its own stacks), but starts with every metadata
 * record the writer has defined, under the same ids, so the callers' cached
 * metadata ids stay valid across files.
 *
 * The first write error sticks (all later calls return it) and ending the
 * file then removes it -- except when the file system is full (ENOSPC,
 * EDQUOT, EFBIG) and the caller asked to keep what fits
 * (nt_writer__finish): writer_salvage.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nettrace_internal.h"

static void writer_free(struct nt_writer *w)
{
	nt_buf__free(&w->meta.buf);
	nt_buf__free(&w->ev.buf);
	nt_buf__free(&w->stacks);
	nt_buf__free(&w->out);
	nt_buf__free(&w->meta_hist);
	u64_map__free(&w->threads);
	free(w->first_pending);
	wr_v6_free(w);
	free(w->stab);
	free(w->stack_arena);
	free(w->path);
	free(w);
}

/* Per-file state back to "nothing written": offsets, sequence numbers,
 * stack table, block buffers.  Metadata ids and their history stay. */
static void reset_file_state(struct nt_writer *w)
{
	w->offset = w->good_offset = w->good_events = w->last_sp_offset = 0;
	w->n_events = 0;
	w->max_ts = 0;
	w->any_event = 0;
	w->err = 0;
	wr_block_reset(&w->meta);
	wr_block_reset(&w->ev);
	w->stacks.len = w->stacks_count = 0;
	wr_forget_stacks(w);
	u64_map__clear(&w->threads);
	w->thr_last = NULL;
	w->n_active = 0;
	w->n_first_pending = 0;
	w->ev_thread = 0;
	w->out.len = 0;
}

/* Create path and write the stream header, the Trace object and every
 * metadata record defined so far. */
static int begin_file(struct nt_writer *w, const char *path)
{
	char *copy = strdup(path);
	int err;

	if (!copy)
		return -ENOMEM;
	reset_file_state(w);
	free(w->path);
	w->path = copy;
	w->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, NT_FILE_MODE);
	if (w->fd < 0)
		return -errno;
	if (w->info.format == 6) {	/* thread indexes and label lists per file */
		wr_v6_free(w);
		err = wr_v6_new(w);
		if (err)
			goto err_unlink;
	}
	err = wr_put_stream_header(w);
	if (!err)
		err = wr_out_commit(w);
	if (err)
		goto err_unlink;
	w->last_sp_offset = w->offset;
	err = wr_replay_metadata(w);
	if (err)
		goto err_unlink;
	return 0;

err_unlink:
	close(w->fd);
	unlink(path);
	w->fd = -1;
	w->err = 0;
	return err;
}

struct nt_writer *nt_writer__open(const char *path, const struct nt_trace_info *info)
{
	struct nt_writer *w;
	int err = 0;

	if ((path && !*path) || !info) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	w->fd = -1;
	w->info = *info;
	if (!w->info.pointer_size)
		w->info.pointer_size = 8;
	if ((w->info.pointer_size != 4 && w->info.pointer_size != 8) ||
	    (w->info.format && w->info.format != 5 && w->info.format != 6))
		err = -EINVAL;
	if (!w->info.freq)
		w->info.freq = 1000000000ULL;
	w->next_meta_id = 1;
	reset_file_state(w);
	if (!err && w->info.format == 6 && !path)
		err = wr_v6_new(w);	/* V6 metadata rows before the first file */
	if (!err && path)
		err = begin_file(w, path);
	if (err) {
		writer_free(w);
		errno = -err;
		return NULL;
	}
	return w;
}

int nt_writer__flush(struct nt_writer *w)
{
	if (!w)
		return -EINVAL;
	if (w->err)
		return w->err;
	if (w->fd < 0)
		return -EBADF;
	return wr_write_sequence_point(w, w->max_ts);
}

uint64_t nt_writer__bytes(const struct nt_writer *w)
{
	return w ? w->offset : 0;
}

uint64_t nt_writer__events(const struct nt_writer *w)
{
	return w ? w->n_events : 0;
}

/* ------------------------------------------------------------ end of a file */

/* The caller's last event, at ts on thread 0; its id is kept per desc. */
static int write_last_event(struct nt_writer *w, const struct nt_last_event *last, uint64_t ts)
{
	if (last->desc != w->last_desc) {
		w->last_desc = last->desc;
		w->last_meta_id = 0;
	}
	return wr_write_own_event(w, last->desc, &w->last_meta_id, last->payload,
				  last->payload_size, ts, 0, 0);
}

/* Last event, last blocks, sequence point, end of stream, fsync, close. */
static int end_file(struct nt_writer *w, const struct nt_last_event *last, uint64_t last_ts,
		    struct nt_salvage *salvaged)
{
	size_t end_len;
	const uint8_t *end;
	int err;

	if (salvaged)
		memset(salvaged, 0, sizeof(*salvaged));
	end = wr_end_bytes(w, &end_len);
	err = w->err;
	if (w->any_event && last_ts < w->max_ts)
		last_ts = w->max_ts;
	if (!err && last && last->desc)
		err = write_last_event(w, last, last_ts);
	if (!err)
		err = wr_write_sequence_point(w, last_ts);
	if (!err)
		err = wr_out_write(w, end, end_len);
	if (!err && fsync(w->fd))
		err = -errno;
	if (err && salvaged && nt_writer__is_space_error(err) &&
	    !wr_salvage(w, last_ts, salvaged))
		salvaged->kept = 1;
	if (close(w->fd) && !err)
		err = -errno;
	w->fd = -1;
	if (err && !(salvaged && salvaged->kept))
		unlink(w->path);
	return err;
}

int nt_writer__finish(struct nt_writer *w, const struct nt_last_event *last,
		      uint64_t last_ts, struct nt_salvage *salvaged)
{
	int err = 0;

	if (!w)
		return -EINVAL;
	if (salvaged)
		memset(salvaged, 0, sizeof(*salvaged));
	if (w->fd >= 0)
		err = end_file(w, last, last_ts, salvaged);
	writer_free(w);
	return err;
}

int nt_writer__close(struct nt_writer *w, const struct nt_last_event *last, uint64_t last_ts)
{
	return nt_writer__finish(w, last, last_ts, NULL);
}

void nt_writer__abort(struct nt_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0) {
		close(w->fd);
		unlink(w->path);
	}
	writer_free(w);
}

/* ------------------------------------------------------------ a series of files */

int nt_writer__next_file(struct nt_writer *w, const char *path,
			 const struct nt_last_event *last, uint64_t last_ts,
			 struct nt_salvage *salvaged)
{
	int err = 0, err2;

	if (!w || (path && !*path))
		return -EINVAL;
	if (salvaged)
		memset(salvaged, 0, sizeof(*salvaged));
	if (w->fd >= 0)
		err = end_file(w, last, last_ts, salvaged);
	if (!path)
		return err;
	err2 = begin_file(w, path);
	return err ? err : err2;
}

void nt_writer__drop_file(struct nt_writer *w)
{
	if (!w || w->fd < 0)
		return;
	close(w->fd);	/* the descriptor only: the parent's stays open */
	w->fd = -1;
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
