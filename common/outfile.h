/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * outfile.h - where a command's output goes: a file that appears under its
 * name only when it is whole, or standard output; either way the first
 * failed write is kept, so the command checks once, at the end, and can say
 * why ("writing OUT.svg: No space left on device").
 *
 * A file is written under a temporary name beside it (outfile_tmp_name:
 * PATH.PID.tmp, created O_EXCL with mode OUTFILE_MODE less the umask) and
 * renamed over PATH by outfile__close once every byte is written, flushed
 * and synced.  When anything fails the temporary file is removed and what
 * was at PATH before (nothing, or an earlier file) is left as it was.
 */
#ifndef EC_COMMON_OUTFILE_H
#define EC_COMMON_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Output files hold what traces hold (command lines, paths, names): the
 * owner's only.  A stricter umask still applies. */
#define OUTFILE_MODE 0600

struct outfile {
	FILE *f;		/* write here */
	const char *name;	/* the path, or "standard output": for messages */
	char *path, *tmp;	/* NULL for standard output */
	int fd;
	int err;		/* the first failed write's errno, or 0 */
};

/* The temporary name of path (PATH.PID.tmp) into buf: 0 or -ENAMETOOLONG. */
int outfile_tmp_name(const char *path, char *buf, size_t len);

/* Open path (NULL or "-": standard output) for writing.  0, or -errno:
 * -EISDIR for a directory, else why the temporary file cannot be created. */
int outfile__open(struct outfile *o, const char *path);
#define outfile_is_stdout(path) (!(path) || !strcmp((path), "-"))

/* Flush; a file is then synced, closed and renamed to its name.  0, or the
 * first error as -errno (the temporary file removed).  Frees o. */
int outfile__close(struct outfile *o);

/* outfile__close after the code writing the output returned err (0 or
 * -errno): an error that is not a failed write (out of memory) abandons the
 * file and is returned as it is; a failed write is reported as its errno. */
int outfile__finish(struct outfile *o, int err);

/* What messages call the output of path: path, or "standard output". */
const char *outfile_name(const char *path);

#endif /* EC_COMMON_OUTFILE_H */
