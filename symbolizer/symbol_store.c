// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * symbol_store.c - debug files by build id in symbol stores, debuginfod
 * servers and the cache (symbol_store.h).
 *
 * Stores: a directory holds <dir>/_.debug/elf-buildid-sym-<id>/_.debug
 * (SSQP, the key Microsoft's symbol server and `dotnet-symbol` use for an
 * ELF debug file) or <dir>/.build-id/<id[0:2]>/<id[2:]>.debug (the layout
 * of /usr/lib/debug); a URL is asked for the SSQP key with one GET.
 * debuginfod: elfutils' client, which reads DEBUGINFOD_URLS itself and
 * keeps its own cache; a progress callback stops it at our deadline.
 * Whatever the network gives is copied to <cache>/<id>.debug (written
 * under a temporary name, renamed when whole), so the next trace finds it
 * without the server.  Only ELF files are kept.
 */
#include <curl/curl.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clock.h"
#include "symbol_store.h"
#define LOG_PREFIX "symbolizer: "
#include "log.h"

#define MAX_STORES	16
#define MAX_FAILED	256

static struct {
	char *dirs[MAX_STORES], *urls[MAX_STORES];
	int n_dirs, n_urls;
	char cache[PATH_MAX];
	char *failed[MAX_FAILED];	/* build ids the network had not */
	int n_failed;
} st;

int symbol_store__configure(const char *list, char *err, size_t errlen)
{
	char *copy, *item, *save = NULL;
	int rc = 0;

	if (!list)
		return 0;
	/* the daemon's reload configures again: the new list replaces the old */
	while (st.n_dirs)
		free(st.dirs[--st.n_dirs]);
	while (st.n_urls)
		free(st.urls[--st.n_urls]);
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(item);

		while (n > 1 && item[n - 1] == '/')
			item[--n] = '\0';
		if (!strncmp(item, "http://", 7) || !strncmp(item, "https://", 8)) {
			if (st.n_urls < MAX_STORES)
				st.urls[st.n_urls++] = strdup(item);
		} else if (item[0] == '/') {
			if (st.n_dirs < MAX_STORES)
				st.dirs[st.n_dirs++] = strdup(item);
		} else {
			snprintf(err, errlen, "--symbols: '%s' is neither an absolute directory "
				 "nor an http(s):// URL", item);
			rc = -EINVAL;
			break;
		}
	}
	free(copy);
	return rc;
}

/* The cache directory (symbol_store.h says where). */
static const char *cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (st.cache[0])
		return st.cache;
	if (x && x[0] == '/')
		snprintf(st.cache, sizeof(st.cache), "%s/ebpf-collect/symbols", x);
	else if (geteuid() == 0 || !home)
		snprintf(st.cache, sizeof(st.cache), "/var/cache/ebpf-collect/symbols");
	else
		snprintf(st.cache, sizeof(st.cache), "%s/.cache/ebpf-collect/symbols", home);
	return st.cache;
}

int symbol_store__has_network(void)
{
	const char *d = getenv("DEBUGINFOD_URLS");

	return st.n_urls > 0 || (d && d[0]);
}

static int valid_id(const char *id)
{
	size_t n = strlen(id);

	return n >= 4 && n <= 80 && strspn(id, "0123456789abcdef") == n;
}

/* fd of path when it is an ELF file, else -1 */
static int open_elf(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (pread(fd, magic, 4, 0) != 4 || memcmp(magic, "\177ELF", 4)) {
		close(fd);
		return -1;
	}
	return fd;
}

int symbol_store__find_local(const char *id, char *path, size_t len)
{
	int i, fd;

	if (!valid_id(id))
		return -1;
	snprintf(path, len, "%s/%s.debug", cache_dir(), id);
	fd = open_elf(path);
	for (i = 0; fd < 0 && i < st.n_dirs; i++) {
		snprintf(path, len, "%s/_.debug/elf-buildid-sym-%s/_.debug", st.dirs[i], id);
		fd = open_elf(path);
		if (fd < 0) {
			snprintf(path, len, "%s/.build-id/%.2s/%s.debug", st.dirs[i], id, id + 2);
			fd = open_elf(path);
		}
	}
	return fd;
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s", dir);
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return mkdir(p, 0755) && errno != EEXIST ? -errno : 0;
}

/* A temporary file in the cache for id: its fd, name in tmp. */
static int cache_tmp(const char *id, char *tmp, size_t len)
{
	int fd;

	if (make_dirs(cache_dir()))
		return -1;
	snprintf(tmp, len, "%s/.%s.XXXXXX", cache_dir(), id);
	fd = mkstemp(tmp);
	return fd;
}

/* tmp (whole) becomes the cache's file of id when it is an ELF file. */
static int cache_commit(const char *id, const char *tmp, char *path, size_t len)
{
	int fd = open_elf(tmp);

	if (fd < 0) {
		unlink(tmp);
		return -1;
	}
	close(fd);
	snprintf(path, len, "%s/%s.debug", cache_dir(), id);
	if (rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return open_elf(path);
}

static size_t curl_write(void *p, size_t sz, size_t n, void *fdp)
{
	return write(*(int *)fdp, p, sz * n) == (ssize_t)(sz * n) ? sz * n : 0;
}

static int fetch_url(const char *url, const char *id, uint64_t deadline, char *path, size_t len)
{
	char full[PATH_MAX + 128], tmp[PATH_MAX];
	long code = 0, left = (long)mono_ms_left(deadline);
	CURL *c;
	CURLcode rc;
	int fd;

	if (left <= 0)
		return -1;
	fd = cache_tmp(id, tmp, sizeof(tmp));
	if (fd < 0)
		return -1;
	c = curl_easy_init();
	if (!c) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	snprintf(full, sizeof(full), "%s/_.debug/elf-buildid-sym-%s/_.debug", url, id);
	curl_easy_setopt(c, CURLOPT_URL, full);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, left < SYMBOL_STORE_SERVER_MS ? left :
			 (long)SYMBOL_STORE_SERVER_MS);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, curl_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &fd);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_cleanup(c);
	close(fd);
	if (rc != CURLE_OK || code != 200) {
		pr_debug("%s: %s\n", full, rc != CURLE_OK ? curl_easy_strerror(rc) : "not found");
		unlink(tmp);
		return -1;
	}
	return cache_commit(id, tmp, path, len);
}

static uint64_t di_deadline;

/* libdebuginfod's progress callback: nonzero stops the transfer */
static int di_progress(debuginfod_client *c, long a, long b)
{
	(void)c, (void)a, (void)b;
	return mono_ms_left(di_deadline) <= 0;
}

static int fetch_debuginfod(const char *id, uint64_t deadline, char *path, size_t len)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	char tmp[PATH_MAX], buf[65536];
	debuginfod_client *c;
	char *found = NULL;
	int fd, out;
	ssize_t n;

	if (!urls || !urls[0] || mono_ms_left(deadline) <= 0)
		return -1;
	c = debuginfod_begin();
	if (!c)
		return -1;
	di_deadline = mono_ms() + SYMBOL_STORE_SERVER_MS;
	if (di_deadline > deadline)
		di_deadline = deadline;
	debuginfod_set_progressfn(c, di_progress);
	fd = debuginfod_find_debuginfo(c, (const unsigned char *)id, 0, &found);
	debuginfod_end(c);
	if (fd < 0) {
		pr_debug("debuginfod: %s: %s\n", id, strerror(-fd));
		free(found);
		return -1;
	}
	free(found);
	out = cache_tmp(id, tmp, sizeof(tmp));
	if (out < 0) {
		close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);	/* a fresh download's descriptor is at its end */
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	close(fd);
	if (close(out) || n < 0) {
		unlink(tmp);
		return -1;
	}
	return cache_commit(id, tmp, path, len);
}

int symbol_store__fetch(const char *id, uint64_t deadline, char *path, size_t len)
{
	int i, fd = -1;

	if (!valid_id(id))
		return -1;
	for (i = 0; i < st.n_failed; i++)
		if (!strcmp(st.failed[i], id))
			return -1;
	for (i = 0; fd < 0 && i < st.n_urls; i++)
		fd = fetch_url(st.urls[i], id, deadline, path, len);
	if (fd < 0)
		fd = fetch_debuginfod(id, deadline, path, len);
	if (fd < 0 && st.n_failed < MAX_FAILED)
		st.failed[st.n_failed++] = strdup(id);
	return fd;
}
