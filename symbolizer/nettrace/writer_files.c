// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer_files.c - one writer, a series of files: rotation and flight-recorder
 * dumps end one complete trace and start the next.  Each file stands alone
 * (its own header, sequence numbers from 1, its own stacks), but starts with
 * every metadata record the writer has defined, under the same ids, so the
 * callers' cached metadata ids stay valid across files.
 */
#include <errno.h>
#include <unistd.h>

#include "nettrace.h"
#include "nettrace_internal.h"

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
