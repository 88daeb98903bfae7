// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * output.c - the trace file -o names.  A plain run writes it under a
 * temporary name beside it (PATH.PID.tmp, common/outfile.h) and renames it
 * over PATH when the first event is written: a run that fails before it
 * has anything to keep (no probes, no events) leaves what was at PATH as
 * it was, and from the first event on the file is under its name, so a
 * collector killed with -9 leaves its trace where it was asked for.
 * Rotation and flight-recorder dumps write numbered files that did not
 * exist (series.c).  Every file is created NT_FILE_MODE (0600).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "exit_codes.h"
#include "nettrace.h"
#include "outfile.h"
#include "own_events.h"
#include "collector.h"

int open_output(struct collector *c, pid_t pid)
{
	struct nt_trace_info info = {
		.freq = 1000000000ULL,
		.pointer_size = 8,
		.pid = pid,
		.ncpu = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : c->ncpu,
		/* ExpectedCPUSamplingRate = the --cpu-sampling interval */
		.sampling_interval_ns = env.sample_hz ? 1000000000U / env.sample_hz : 1000000,
		.format = env.format,
	};
	char tmp[sizeof(c->pipe.rec.path) + 32];
	struct stat st;
	uint64_t sub_ms;
	const char *path;

	clock_gettime(CLOCK_REALTIME, &info.sync_utc);
	info.sync_ts = mono_ns();
	/* the trace header keeps UTC in milliseconds (SYSTEMTIME): move the
	 * sync point back to the millisecond, so absolute times stay exact */
	sub_ms = info.sync_utc.tv_nsec % 1000000;
	info.sync_utc.tv_nsec -= sub_ms;
	info.sync_ts -= sub_ms;
	if (!stat(env.output, &st) && S_ISDIR(st.st_mode)) {
		pr_warn("cannot create output %s: %s\n", env.output, strerror(EISDIR));
		return -EISDIR;
	}
	/* NULL: flight recorder without --rotate, no file until a dump */
	path = recorder__first_path(&c->pipe.rec);
	if (c->pipe.rec.series && !path && c->pipe.rec.writes)
		return -EINVAL;
	/* one file: under its temporary name until the first event */
	c->pipe.w_tmp = path && !c->pipe.rec.series;
	if (c->pipe.w_tmp && outfile_tmp_name(path, tmp, sizeof(tmp))) {
		pr_warn("cannot create output %s: %s\n", path, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	c->pipe.w = nt_writer__open(c->pipe.w_tmp ? tmp : path, &info);
	if (!c->pipe.w) {
		int err = -errno;

		pr_warn("cannot create output %s: %s\n", path ? path : env.output, strerror(-err));
		return err;
	}
	/* losses noted before a thread's first event: the collector's marker
	 * (cannot fail: it has the one UInt32 field a marker needs) */
	nt_writer__set_lost_marker(c->pipe.w, &own_events_lost);
	return 0;
}

/* The file under its temporary name takes the name asked for. */
int publish_output(struct collector *c)
{
	int err;

	c->pipe.w_tmp = false;
	/* the first event on disk before the name: a collector killed from now
	 * on leaves under PATH a trace every reader opens (TraceLog reads no
	 * file that holds a header alone) */
	err = nt_writer__flush(c->pipe.w);
	if (err) {
		pr_warn("cannot write %s: %s\n", nt_writer__path(c->pipe.w), strerror(-err));
		return err;
	}
	err = nt_writer__rename(c->pipe.w, c->pipe.rec.path);
	if (err)
		pr_warn("cannot rename %s to %s: %s\n", nt_writer__path(c->pipe.w),
			c->pipe.rec.path, strerror(-err));
	return err;
}

/* The file after a failure: keep what was written, or remove an empty one. */
void close_output(struct collector *c, int ret)
{
	if (!c->pipe.w)
		return;
	if (c->pipe.records) {
		finish_file(c);
		return;
	}
	if (ret == EXIT_OK)
		pr_warn("no events written; not writing %s\n", c->pipe.rec.path);
	nt_writer__abort(c->pipe.w);
}

/* The end of a run that traced: a file still under its temporary name (no
 * event came) takes its name if the run succeeded, and is removed if not. */
int finish_output(struct collector *c, int ret)
{
	if (c->pipe.w_tmp && ret != EXIT_OK && ret != EXIT_STREAM_CUT) {
		nt_writer__abort(c->pipe.w);
		c->pipe.w = NULL;
		return 0;
	}
	if (c->pipe.w_tmp && publish_output(c)) {
		nt_writer__abort(c->pipe.w);
		c->pipe.w = NULL;
		return -1;
	}
	return finish_file(c);
}
