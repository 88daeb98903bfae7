/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * series.h - the files of one collector run when there is more than one:
 * --rotate (a new file every interval or size), --flight-recorder dumps
 * (SIGUSR1, --dump-on, exit).  -o STEM.nettrace names them STEM.1.nettrace,
 * STEM.2.nettrace, ... (a number already taken is skipped, so a second run
 * in the same place adds to the series); --keep N removes this run's
 * oldest files beyond N.  A series with a tag ("dump-": the incident dumps
 * of SIGUSR1 and --dump-on) is named STEM.dump-1.nettrace, ... and has a
 * budget of its own (--keep-dumps).
 */
#ifndef EBPF_COLLECT_SERIES_H
#define EBPF_COLLECT_SERIES_H

#include <stddef.h>
#include <stdint.h>

struct series {
	char *stem, *ext;	/* "dir/trace", ".nettrace" */
	const char *tag;	/* "" or "dump-": before the number */
	unsigned int next_no;	/* the next number to try */
	unsigned int keep;	/* 0: keep every file */
	char **paths;		/* this run's files, oldest first (kept ones) */
	size_t n_paths, cap_paths;
	uint64_t written;	/* files completed */
	uint64_t removed;	/* by --keep */
};

/* tag: NULL, or a word the numbers follow ("dump-").  0 or -ENOMEM. */
int series__init(struct series *s, const char *output, unsigned int keep, const char *tag);
void series__free(struct series *s);

/* The next free name (not existing yet), into buf. */
int series__next_path(struct series *s, char *buf, size_t len);

/* path was completed: remember it, and remove the oldest beyond --keep. */
void series__done(struct series *s, const char *path);

/* "10m", "30s", "1h", "500ms" -> ns; "1GB", "256MB", "64KB", "4096B" ->
 * bytes.  Returns 't' for a duration, 'b' for a size, 0 when neither. */
int series__parse_limit(const char *s, uint64_t *val);

#endif
