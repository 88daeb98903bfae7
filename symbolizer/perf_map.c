// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perf_map.c - perf maps (/tmp/perf-PID.map, perfinfo-PID.map), read into
 * a range table (range_table.c).
 *
 * The file is read from the last offset on, at most PERF_MAP_PASS bytes per
 * refresh (a huge map is taken in over several refreshes, never in one long
 * stall); only whole lines are consumed, so a line the runtime is still
 * writing is picked up by the next refresh.  A line that runs on for more
 * than PERF_MAP_MAX_LINE bytes (a sparse file's NULs, garbage) refuses the
 * map: nothing more is read from it.  The fd stays open: the file stays
 * readable after the process (and its /proc/PID/root) is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "clock.h"
#include "grow.h"
#include "perf_map.h"

/* ----------------------------------------------------------- perf map */

struct perf_map {
	int fd;
	char *path;
	off_t offset;		/* first byte not yet consumed */
	off_t seen_size;	/* file size at the last read */
	/* a pass that stopped at PERF_MAP_PASS: the bytes up to pass_end were
	 * in the file at pass_now, so their lines were first seen then */
	off_t pass_end;
	uint64_t pass_now;
	/* the file's first bytes as read: a file written anew starts with
	 * other code (the first lines' addresses) */
	char head[64];
	size_t head_len;
	struct range_table *rt;
	uint64_t bad_lines;
	char refused[96];	/* why the map is no longer read ("" while it is) */
};

#define PERF_MAP_BUF		(256 * 1024)	/* bytes per read */
#define PERF_MAP_MAX_LINE	(64 * 1024)	/* names are < 4 KiB; runs of NULs are not */
#define PERF_MAP_PASS		(8 << 20)	/* bytes read per refresh */
#define PERFINFO_MAX		(4 << 20)	/* bytes of perfinfo-PID.map read */

_Static_assert(PERF_MAP_MAX_LINE < PERF_MAP_BUF, "a whole line must fit the buffer");

/*
 * Whole lines of fd from *offset on, each given to fn (NUL-terminated in
 * place of its '\n'), until EOF or max_bytes are read; *offset ends
 * after the last whole line.  Returns 1 at EOF, 0 when max_bytes ran out,
 * -E2BIG when a line runs on for more than PERF_MAP_MAX_LINE bytes, -errno.
 */
static int read_lines(int fd, off_t *offset, size_t max_bytes,
		      void (*fn)(void *ctx, char *line, size_t len), void *ctx)
{
	size_t have = 0, total = 0;
	char *buf = malloc(PERF_MAP_BUF), *p, *nl, *end;
	int ret = 1;

	if (!buf)
		return -ENOMEM;
	while (total < max_bytes) {
		size_t want = PERF_MAP_BUF - have < max_bytes - total ? PERF_MAP_BUF - have :
				max_bytes - total;
		ssize_t r = pread(fd, buf + have, want, *offset + (off_t)have);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		if (r == 0) {
			ret = 1;
			break;
		}
		have += (size_t)r;
		total += (size_t)r;
		end = buf + have;
		for (p = buf; p < end && (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1) {
			*nl = '\0';
			fn(ctx, p, (size_t)(nl - p));
		}
		*offset += p - buf;
		have = (size_t)(end - p);
		if (have > PERF_MAP_MAX_LINE) {
			ret = -E2BIG;
			break;
		}
		memmove(buf, p, have);
		ret = 0;
	}
	free(buf);
	return ret;
}

static int parse_hex(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int n = 0;

	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < end; p++, n++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (v >> 60)
			return -EINVAL;	/* overflow */
		v = v << 4 | (uint64_t)d;
	}
	if (!n)
		return -EINVAL;
	*pp = p;
	*out = v;
	return 0;
}

int perf_map__parse_line(const char *line, size_t len, uint64_t *start, uint64_t *size,
			 const char **name, size_t *name_len)
{
	const char *p = line, *end = line + len;

	if (len && end[-1] == '\r')
		end--;
	if (parse_hex(&p, end, start) || p == end || (*p != ' ' && *p != '\t'))
		return -EINVAL;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (parse_hex(&p, end, size) || p == end || (*p != ' ' && *p != '\t'))
		return -EINVAL;
	p++;	/* exactly one separator: the name is the rest, spaces and all */
	if (p >= end)
		return -EINVAL;
	*name = p;
	*name_len = (size_t)(end - p);
	return 0;
}

static struct perf_map *perf_map__wrap(int fd, const char *path)
{
	struct perf_map *pm = calloc(1, sizeof(*pm));
	int err;

	if (!pm)
		goto fail;
	pm->fd = fd;
	pm->path = strdup(path);
	pm->rt = range_table__new();
	if (!pm->path || !pm->rt)
		goto fail;
	return pm;
fail:
	err = errno ? errno : ENOMEM;
	if (pm) {
		free(pm->path);
		range_table__free(pm->rt);
		free(pm);
	}
	close(fd);
	errno = err;
	return NULL;
}

static int open_in_root(int root_fd, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	if (root_fd < 0)
		return open(path, (int)how.flags);
	while (*path == '/')
		path++;
	fd = (int)syscall(SYS_openat2, root_fd, path, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS) {
		/* pre-5.6 kernel: no in-root resolution, but still no final symlink */
		fd = openat(root_fd, path, (int)how.flags);
	}
	return fd;
}

struct perf_map *perf_map__open(int root_fd, const char *path, const uid_t *uids,
				int n_uids, char *why, size_t why_len)
{
	struct stat st;
	int fd, err, i, ok = 0;

	if (why && why_len)
		why[0] = '\0';
	fd = open_in_root(root_fd, path);
	if (fd < 0) {
		err = errno;
		if (why)
			snprintf(why, why_len, "%s", err == ELOOP ?
				 "is a symbolic link (refused, O_NOFOLLOW)" : strerror(err));
		errno = err;
		return NULL;
	}
	if (fstat(fd, &st)) {
		err = errno;
		if (why)
			snprintf(why, why_len, "fstat: %s", strerror(err));
		goto refuse;
	}
	if (!S_ISREG(st.st_mode)) {
		err = EINVAL;
		if (why)
			snprintf(why, why_len, "is not a regular file (refused)");
		goto refuse;
	}
	ok = st.st_uid == 0;
	for (i = 0; i < n_uids && !ok; i++)
		ok = st.st_uid == uids[i];
	if (!ok) {
		err = EPERM;
		if (why)
			snprintf(why, why_len, "is owned by uid %u, not by the target's uid %u or root (refused)",
				 (unsigned)st.st_uid, n_uids ? (unsigned)uids[0] : 0u);
		goto refuse;
	}
	return perf_map__wrap(fd, path);
refuse:
	close(fd);
	errno = err;
	return NULL;
}

struct perf_map *perf_map__open_trusted(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	return perf_map__wrap(fd, path);
}

void perf_map__free(struct perf_map *pm)
{
	if (!pm)
		return;
	if (pm->fd >= 0)
		close(pm->fd);
	range_table__free(pm->rt);
	free(pm->path);
	free(pm);
}

struct consume_ctx {
	struct perf_map *pm;
	uint64_t now;
	long added;
};

static void consume_line(void *arg, char *line, size_t len)
{
	struct consume_ctx *c = arg;
	uint64_t start, size;
	const char *name;
	size_t name_len;

	if (perf_map__parse_line(line, len, &start, &size, &name, &name_len) ||
	    range_table__add(c->pm->rt, start, size, name, name_len, c->now) < 0) {
		if (len)
			c->pm->bad_lines++;
	} else {
		c->added++;
	}
}

/* Whether the file was written anew since it was read (a runtime turning
 * its map on again truncates the file): shorter than what was read, or
 * grown with other first bytes, or with no line's end where the last line
 * read ended. */
static bool rewritten(const struct perf_map *pm, const struct stat *st)
{
	char buf[sizeof(pm->head)];

	if (st->st_size < pm->offset)
		return true;
	if (st->st_size == pm->seen_size || !pm->offset)
		return false;
	if (pread(pm->fd, buf, pm->head_len, 0) != (ssize_t)pm->head_len ||
	    memcmp(buf, pm->head, pm->head_len))
		return true;
	return pread(pm->fd, buf, 1, pm->offset - 1) != 1 || buf[0] != '\n';
}

long perf_map__refresh(struct perf_map *pm, uint64_t now)
{
	struct consume_ctx c = { .pm = pm };
	size_t limit = PERF_MAP_PASS;
	struct stat st;
	off_t start;
	int rc, cont = 0;

	if (pm->refused[0])
		return 0;
	if (fstat(pm->fd, &st))
		return -errno;
	if (rewritten(pm, &st)) {
		/* read from its start; what was read before stays, as the
		 * versions of their time */
		pm->offset = 0;
		pm->seen_size = 0;
		pm->pass_end = 0;
	}
	if (st.st_size == pm->seen_size || st.st_size <= pm->offset)
		return 0;
	c.now = now ? now : mono_ns();
	if (pm->offset < pm->pass_end) {
		/* the rest of what an earlier pass left: that pass's time */
		cont = 1;
		c.now = pm->pass_now;
		if ((size_t)(pm->pass_end - pm->offset) < limit)
			limit = (size_t)(pm->pass_end - pm->offset);
	}
	start = pm->offset;
	rc = read_lines(pm->fd, &pm->offset, limit, consume_line, &c);
	if (!start && pm->offset > 0) {
		ssize_t r = pread(pm->fd, pm->head, (size_t)pm->offset < sizeof(pm->head) ?
				  (size_t)pm->offset : sizeof(pm->head), 0);

		pm->head_len = r > 0 ? (size_t)r : 0;
	}
	if (rc == -E2BIG) {
		snprintf(pm->refused, sizeof(pm->refused),
			 "has a line of more than %d KiB at offset %lld (refused)",
			 PERF_MAP_MAX_LINE >> 10, (long long)pm->offset);
		return -E2BIG;
	}
	if (rc < 0)
		return rc;
	if (rc == 1)	/* read to the end: nothing more until the file grows */
		pm->seen_size = st.st_size;
	if (cont && (rc == 1 || limit < PERF_MAP_PASS))
		pm->pass_end = 0;	/* caught up (a line cut at pass_end is newer) */
	else if (!cont && rc == 0) {
		pm->pass_end = st.st_size;
		pm->pass_now = c.now;
	}
	return c.added;
}

bool perf_map__pending(const struct perf_map *pm)
{
	return pm->offset < pm->pass_end && !pm->refused[0];
}

const char *perf_map__refused(const struct perf_map *pm)
{
	return pm->refused[0] ? pm->refused : NULL;
}

const struct range_entry *perf_map__find(struct perf_map *pm, uint64_t addr, uint64_t ts)
{
	const struct range_entry *e;

	while (perf_map__pending(pm) && perf_map__refresh(pm, 0) > 0)
		;
	e = range_table__find(pm->rt, addr, ts);
	if (!e && perf_map__refresh(pm, 0) > 0)
		e = range_table__find(pm->rt, addr, ts);
	return e;
}

struct range_table *perf_map__table(struct perf_map *pm)
{
	return pm->rt;
}

const char *perf_map__path(const struct perf_map *pm)
{
	return pm->path;
}

int perf_map__set_path(struct perf_map *pm, const char *path)
{
	char *p = strdup(path);

	if (!p)
		return -ENOMEM;
	free(pm->path);
	pm->path = p;
	return 0;
}

int perf_map__fd(const struct perf_map *pm)
{
	return pm->fd;
}

uint64_t perf_map__bad_lines(const struct perf_map *pm)
{
	return pm->bad_lines;
}

/* ----------------------------------------------------------- perfinfo */

static int perfinfo__line(const char *line, struct perfinfo_image *img)
{
	const char *f[5];
	size_t fl[5];
	const char *p = line;
	int i;
	char tmp[32];

	for (i = 0; i < 5; i++) {
		const char *semi = strchr(p, ';');

		if (!semi)
			return -EINVAL;
		f[i] = p;
		fl[i] = (size_t)(semi - p);
		p = semi + 1;
	}
	if (fl[0] != 9 || strncmp(f[0], "ImageLoad", 9))
		return -EINVAL;
	img->path = strndup(f[1], fl[1]);
	if (!img->path)
		return -ENOMEM;
	snprintf(img->guid, sizeof(img->guid), "%.*s", (int)(fl[2] < 39 ? fl[2] : 39), f[2]);
	snprintf(tmp, sizeof(tmp), "%.*s", (int)(fl[3] < 31 ? fl[3] : 31), f[3]);
	p = tmp;
	if (parse_hex(&p, tmp + strlen(tmp), &img->base))
		img->base = 0;
	return 0;
}

struct perfinfo_ctx {
	struct perfinfo_image *v;
	size_t cap;
	int n, err;
};

static void perfinfo_line(void *arg, char *line, size_t len)
{
	struct perfinfo_ctx *c = arg;
	struct perfinfo_image img = {0};

	(void)len;
	if (c->err || perfinfo__line(line, &img))
		return;
	if (GROW(c->v, c->cap, (size_t)c->n + 1)) {
		free(img.path);
		c->err = -ENOMEM;
		return;
	}
	c->v[c->n++] = img;
}

/* The first PERFINFO_MAX bytes, whole lines only (one image per line: the
 * file is small; a longer one, or a line without end, is cut there). */
int perfinfo__parse(int fd, struct perfinfo_image **images)
{
	struct perfinfo_ctx c = {0};
	off_t off = 0;
	int rc = read_lines(fd, &off, PERFINFO_MAX, perfinfo_line, &c);

	*images = NULL;
	if (c.err || (rc < 0 && rc != -E2BIG)) {
		perfinfo__free(c.v, c.n);
		return c.err ? c.err : rc;
	}
	*images = c.v;
	return c.n;
}

void perfinfo__free(struct perfinfo_image *images, int n)
{
	int i;

	if (!images)
		return;
	for (i = 0; i < n; i++)
		free(images[i].path);
	free(images);
}
