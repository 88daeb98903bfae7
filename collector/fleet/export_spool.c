// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * export_spool.c - the --clickhouse spool (export_spool.h).
 *
 * A batch is one file named SEQ.TABLE.ROWS.SAMPLES.tsv, written to a
 * ".tmp" name, fsync'd and renamed, so a crash leaves either the whole
 * batch or nothing (stray ".tmp" files are removed at open).  The name
 * carries the counts, so a spool found at start is accounted for without
 * reading it, and the sequence number orders the replay.  The bound counts
 * the bytes of the batch files; a batch that would cross it is refused
 * whole, never cut.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "export_spool.h"
#include "grow.h"

struct spool_entry {
	uint64_t seq, rows, samples, bytes;
	char table[32];
};

struct ch_spool {
	char *dir;
	int dfd;
	uint64_t max, bytes, rows, next_seq;
	struct spool_entry *e;	/* oldest first, from head */
	size_t head, n, cap;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct spool_entry *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void entry_name(const struct spool_entry *e, char *buf, size_t len)
{
	snprintf(buf, len, "%020" PRIu64 ".%s.%" PRIu64 ".%" PRIu64 ".tsv", e->seq, e->table,
		 e->rows, e->samples);
}

static int spool_add(struct ch_spool *s, const struct spool_entry *e)
{
	if (s->head + s->n == s->cap) {
		if (s->head) {	/* reuse the room the replay freed */
			memmove(s->e, s->e + s->head, s->n * sizeof(*s->e));
			s->head = 0;
		}
		if (GROW(s->e, s->cap, s->n + 1))
			return -ENOMEM;
	}
	s->e[s->head + s->n++] = *e;
	s->bytes += e->bytes;
	s->rows += e->rows;
	if (e->seq >= s->next_seq)
		s->next_seq = e->seq + 1;
	return 0;
}

/* What a previous run left: its batches, in order; its torn writes, removed. */
static int spool_scan(struct ch_spool *s)
{
	DIR *d = fdopendir(dup(s->dfd));
	struct dirent *de;
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		struct spool_entry e = { 0 };
		struct stat st;
		int used = 0;

		if (strstr(de->d_name, ".tmp")) {
			unlinkat(s->dfd, de->d_name, 0);
			continue;
		}
		if (sscanf(de->d_name, "%" SCNu64 ".%31[a-z].%" SCNu64 ".%" SCNu64 ".tsv%n", &e.seq,
			   e.table, &e.rows, &e.samples, &used) != 4 || de->d_name[used] ||
		    fstatat(s->dfd, de->d_name, &st, 0))
			continue;
		e.bytes = (uint64_t)st.st_size;
		err = spool_add(s, &e);
	}
	closedir(d);
	qsort(s->e, s->n, sizeof(*s->e), entry_cmp);
	return err;
}

struct ch_spool *ch_spool__open(const char *dir, uint64_t max_bytes, char *err, size_t errlen)
{
	struct ch_spool *s = calloc(1, sizeof(*s));
	int e;

	if (!s || !(s->dir = strdup(dir))) {
		free(s);
		snprintf(err, errlen, "--spool %s: %s", dir, strerror(ENOMEM));
		return NULL;
	}
	s->dfd = -1;
	s->max = max_bytes;
	s->next_seq = 1;
	if (mkdir(dir, 0700) && errno != EEXIST)
		goto fail;
	s->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dfd < 0)
		goto fail;
	e = spool_scan(s);
	if (e) {
		errno = -e;
		goto fail;
	}
	return s;
fail:
	snprintf(err, errlen, "--spool %s: %s", dir, strerror(errno));
	if (s->dfd >= 0)
		close(s->dfd);
	free(s->dir);
	free(s);
	return NULL;
}

void ch_spool__close(struct ch_spool *s)
{
	if (!s)
		return;
	close(s->dfd);
	free(s->e);
	free(s->dir);
	free(s);
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int ch_spool__put(struct ch_spool *s, const struct ch_batch *b)
{
	struct spool_entry e = { .seq = s->next_seq, .rows = b->rows, .samples = b->samples,
				 .bytes = b->len };
	char name[128], tmp[160];
	int fd, err;

	if (s->bytes + b->len > s->max)
		return -ENOSPC;
	snprintf(e.table, sizeof(e.table), "%s", b->table);
	entry_name(&e, name, sizeof(name));
	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	fd = openat(s->dfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = write_all(fd, b->body, b->len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(s->dfd, tmp, s->dfd, name))
		err = -errno;
	if (err) {
		unlinkat(s->dfd, tmp, 0);
		return err;
	}
	fsync(s->dfd);	/* the rename itself survives a crash */
	return spool_add(s, &e);
}

int ch_spool__peek(struct ch_spool *s, struct ch_batch *b)
{
	const struct spool_entry *e;
	char name[128];
	ssize_t r;
	int fd;

	if (!s || !s->n)
		return 0;
	e = &s->e[s->head];
	entry_name(e, name, sizeof(name));
	memset(b, 0, sizeof(*b));
	snprintf(b->table, sizeof(b->table), "%s", e->table);
	b->rows = e->rows;
	b->samples = e->samples;
	b->len = e->bytes;
	b->body = malloc(e->bytes + 1);
	if (!b->body)
		return -ENOMEM;
	fd = openat(s->dfd, name, O_RDONLY | O_CLOEXEC);
	r = fd < 0 ? -1 : pread(fd, b->body, e->bytes, 0);
	if (fd >= 0)
		close(fd);
	if (r != (ssize_t)e->bytes) {
		free(b->body);
		b->body = NULL;
		return -EIO;
	}
	b->body[e->bytes] = 0;
	return 1;
}

void ch_spool__pop(struct ch_spool *s)
{
	const struct spool_entry *e;
	char name[128];

	if (!s || !s->n)
		return;
	e = &s->e[s->head];
	entry_name(e, name, sizeof(name));
	unlinkat(s->dfd, name, 0);
	s->bytes -= e->bytes;
	s->rows -= e->rows;
	s->head++;
	s->n--;
}

size_t ch_spool__count(const struct ch_spool *s)
{
	return s ? s->n : 0;
}

uint64_t ch_spool__rows(const struct ch_spool *s)
{
	return s ? s->rows : 0;
}

uint64_t ch_spool__bytes(const struct ch_spool *s)
{
	return s ? s->bytes : 0;
}

const char *ch_spool__dir(const struct ch_spool *s)
{
	return s ? s->dir : "";
}
