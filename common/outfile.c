// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * outfile.c - output files that appear whole or not at all (outfile.h).
 *
 * The stream is a stdio cookie stream over the descriptor, so that the
 * write that fails is seen with its errno: glibc drops a buffer it could not
 * write and a later fflush can succeed, leaving only ferror() without a
 * cause.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "outfile.h"

#define OUTFILE_BUF	(1 << 16)

int outfile_tmp_name(const char *path, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s.%d.tmp", path, (int)getpid());

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct outfile *o = cookie;
	size_t done = 0;

	if (o->err)
		return 0;	/* nothing after the first failure */
	while (done < len) {
		ssize_t n = write(o->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->err = n < 0 ? errno : EIO;
			return done;
		}
		done += n;
	}
	return done;
}

static void release(struct outfile *o, int remove)
{
	if (o->tmp) {
		if (o->fd >= 0)
			close(o->fd);
		if (remove)
			unlink(o->tmp);
	}
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

int outfile__open(struct outfile *o, const char *path)
{
	static const cookie_io_functions_t io = { .write = cookie_write };
	char tmp[4096];
	struct stat st;
	int err;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->name = outfile_name(path);
	if (outfile_is_stdout(path)) {
		o->fd = STDOUT_FILENO;
	} else {
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			return -EISDIR;
		err = outfile_tmp_name(path, tmp, sizeof(tmp));
		if (err)
			return err;
		o->path = strdup(path);
		o->tmp = strdup(tmp);
		if (!o->path || !o->tmp) {
			err = -ENOMEM;
			goto fail;
		}
		o->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, OUTFILE_MODE);
		if (o->fd < 0) {
			err = -errno;
			goto fail;
		}
	}
	o->f = fopencookie(o, "w", io);
	if (!o->f) {
		err = -errno;
		goto fail;
	}
	/* a terminal sees each line as it is written, as with stdio's stdout */
	setvbuf(o->f, NULL, o->tmp || !isatty(o->fd) ? _IOFBF : _IOLBF, OUTFILE_BUF);
	return 0;
fail:
	/* a temporary file that exists already is someone else's: left alone */
	release(o, o->fd >= 0);
	return err;
}

int outfile__close(struct outfile *o)
{
	int err = 0;

	if (o->f && fclose(o->f) && !o->err)
		o->err = errno ? errno : EIO;
	o->f = NULL;
	if (o->err)
		err = -o->err;
	if (!err && o->tmp && fsync(o->fd))
		err = -errno;
	if (o->tmp && o->fd >= 0) {
		if (close(o->fd) && !err)
			err = -errno;
		o->fd = -1;
	}
	if (!err && o->tmp && rename(o->tmp, o->path))
		err = -errno;
	release(o, err != 0);
	return err;
}

/* Give up: a file's temporary name is removed.  Frees o. */
static void outfile__abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	release(o, 1);
}

int outfile__finish(struct outfile *o, int err)
{
	if (err && !o->err) {
		outfile__abort(o);
		return err;
	}
	return outfile__close(o);
}

const char *outfile_name(const char *path)
{
	return outfile_is_stdout(path) ? "standard output" : path;
}
