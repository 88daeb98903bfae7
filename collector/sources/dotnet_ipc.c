// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * dotnet_ipc.c - the .NET diagnostics IPC channel: socket discovery and the
 * commands ebpf-collect sends (see dotnet_ipc.h for the wire format).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "clock.h"
#include "grow.h"
#include "proc_env.h"
#include "proc_stat.h"
#include "dotnet_ipc.h"

static const char ipc_magic[14] = "DOTNET_IPC_V1";	/* NUL included */

/* Waits are cut in slices this long, to look at dn_wait.cancel. */
#define DN_WAIT_SLICE_MS	50

static void put_u16(uint8_t *p, uint16_t v) { p[0] = v; p[1] = v >> 8; }
static void put_u32(uint8_t *p, uint32_t v) { put_u16(p, v); put_u16(p + 2, v >> 16); }
static void put_u64(uint8_t *p, uint64_t v) { put_u32(p, v); put_u32(p + 4, v >> 32); }
static uint16_t get_u16(const uint8_t *p) { return p[0] | p[1] << 8; }
static uint32_t get_u32(const uint8_t *p) { return get_u16(p) | (uint32_t)get_u16(p + 2) << 16; }
static uint64_t get_u64(const uint8_t *p) { return get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }

/* ------------------------------------------------------------ discovery */

pid_t dn_nspid(pid_t pid)
{
	char fn[64], line[256];
	pid_t last = 0;
	FILE *f;

	snprintf(fn, sizeof(fn), "/proc/%d/status", pid);
	f = fopen(fn, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + 6, *end;

		if (strncmp(line, "NSpid:", 6))
			continue;
		for (;;) {	/* the last number is the innermost namespace's */
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			last = v;
			p = end;
		}
		break;
	}
	fclose(f);
	return last;
}

/* The process's TMPDIR (from its environment at exec), or "/tmp". */
static void target_tmpdir(pid_t pid, char *out, size_t n)
{
	if (proc_env_get(pid, "TMPDIR", out, n) || out[0] != '/')
		snprintf(out, n, "/tmp");
}

static int connect_wait(const char *path, const struct dn_wait *w);

/* a socket file whose process is gone refuses connections; one whose
 * backlog is full (EAGAIN: -ETIMEDOUT here) listens: one try, no waiting */
static bool socket_listens(const char *path)
{
	struct dn_wait w = { 0, NULL };
	int fd = connect_wait(path, &w);

	if (fd >= 0)
		close(fd);
	return fd != -ECONNREFUSED;
}

/*
 * What one listing of a directory found: the names that start with
 * "dotnet-diagnostic-", kept while the directory's mtime stays the same (a
 * file made or removed there changes it) and for DIR_CACHE_MIN_NS after a
 * listing in any case.  A host where many processes start looks at each a
 * few times in its first seconds; without this every look read the whole
 * of /tmp (29 % of the node daemon's CPU beside 10 execs/s and a /tmp of
 * 1,700 files).  A socket named by its process's start time is found by one
 * stat first (exact_socket), so a listing serves only the others (a runtime
 * in another time namespace sees another start time; one without a
 * socket), and may be a second old: a socket made within that time is
 * found at the next look.
 */
#define DIR_CACHE_MIN_NS	(1000ULL * 1000 * 1000)

static struct {
	pthread_mutex_t mu;
	bool valid;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
	uint64_t listed_ns;
	char *names;		/* NUL-separated */
	size_t len, cap;
} dir_cache = { .mu = PTHREAD_MUTEX_INITIALIZER };

/* The "dotnet-diagnostic-" names of dir into a copy the caller frees:
 * NUL-separated, *len bytes.  -errno when the directory cannot be read. */
static int diag_names(const char *dir, char **out, size_t *len)
{
	static const char pfx[] = "dotnet-diagnostic-";
	struct dirent *d;
	struct stat sb;
	int err = 0;
	DIR *dp;

	if (stat(dir, &sb))
		return -errno;
	pthread_mutex_lock(&dir_cache.mu);
	if (!dir_cache.valid || dir_cache.dev != sb.st_dev || dir_cache.ino != sb.st_ino ||
	    ((dir_cache.mtime.tv_sec != sb.st_mtim.tv_sec ||
	      dir_cache.mtime.tv_nsec != sb.st_mtim.tv_nsec) &&
	     mono_ns() - dir_cache.listed_ns >= DIR_CACHE_MIN_NS)) {
		dir_cache.valid = false;
		dir_cache.len = 0;
		dp = opendir(dir);
		if (!dp) {
			err = -errno;
			goto out;
		}
		while ((d = readdir(dp))) {
			size_t nl = strlen(d->d_name) + 1;

			if (strncmp(d->d_name, pfx, sizeof(pfx) - 1))
				continue;
			if (GROW(dir_cache.names, dir_cache.cap, dir_cache.len + nl)) {
				err = -ENOMEM;
				break;
			}
			memcpy(dir_cache.names + dir_cache.len, d->d_name, nl);
			dir_cache.len += nl;
		}
		closedir(dp);
		if (err)
			goto out;
		dir_cache.valid = true;
		dir_cache.dev = sb.st_dev;
		dir_cache.ino = sb.st_ino;
		dir_cache.mtime = sb.st_mtim;
		dir_cache.listed_ns = mono_ns();
	}
	*out = malloc(dir_cache.len + 1);
	if (!*out) {
		err = -ENOMEM;
		goto out;
	}
	if (dir_cache.len)
		memcpy(*out, dir_cache.names, dir_cache.len);
	*len = dir_cache.len;
out:
	pthread_mutex_unlock(&dir_cache.mu);
	return err;
}

/* The socket the runtime names by its start time (prefix, then the time):
 * found by one stat, without listing a /tmp that may hold thousands of
 * files.  true when it is there. */
static bool exact_socket(const char *dir, const char *prefix, unsigned long long st,
			 struct dn_socket *s)
{
	char path[PATH_MAX + 128];
	struct stat sb;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s%llu-socket", dir, prefix, st) >=
	    sizeof(s->path) || stat(path, &sb) || !S_ISSOCK(sb.st_mode))
		return false;
	memcpy(s->path, path, strlen(path) + 1);	/* fits: checked above */
	s->uid = sb.st_uid;
	return true;
}

int dn_find_socket(pid_t pid, struct dn_socket *s)
{
	char dir[PATH_MAX], tmp[PATH_MAX / 2], prefix[64];
	/* field 22, the start time: the runtime's disambiguator on Linux */
	unsigned long long st = proc_stat_field(pid, 22);
	time_t best_mtime = 0;
	int found = 0, err;
	char *names = NULL, *name;
	size_t len = 0;

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->nspid = dn_nspid(pid);
	if (!s->nspid)
		return kill(pid, 0) && errno == ESRCH ? -ESRCH : -ENOENT;
	target_tmpdir(pid, tmp, sizeof(tmp));
	snprintf(dir, sizeof(dir), "/proc/%d/root%s", pid, tmp);
	snprintf(prefix, sizeof(prefix), "dotnet-diagnostic-%d-", s->nspid);
	if (st && exact_socket(dir, prefix, st, s))
		return 0;
	err = diag_names(dir, &names, &len);
	if (err)
		return err == -ENOENT ? -ENOENT : err;
	for (name = names; name < names + len; name += strlen(name) + 1) {
		size_t pl = strlen(prefix), nl = strlen(name);
		char path[PATH_MAX + 256];
		struct stat sb;
		int exact;

		if (strncmp(name, prefix, pl) || nl < pl + 7 || strcmp(name + nl - 7, "-socket"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (strlen(path) >= sizeof(s->path) || stat(path, &sb) || !S_ISSOCK(sb.st_mode))
			continue;
		/* a socket left by an earlier process with the same pid (one
		 * killed with -9 leaves it) has another start time: prefer the
		 * exact one, else the newest one that still accepts */
		exact = st && strtoull(name + pl, NULL, 10) == st;
		if (found == 2 || (!exact && found && sb.st_mtime < best_mtime))
			continue;
		if (!exact && !socket_listens(path))
			continue;
		snprintf(s->path, sizeof(s->path), "%s", path);
		s->uid = sb.st_uid;
		best_mtime = sb.st_mtime;
		found = exact ? 2 : 1;
	}
	free(names);
	return found ? 0 : -ENOENT;
}

/* What is left of w's time, in ms for poll (at most a slice, so that
 * w->cancel is looked at often); 0 when it is over. */
static int time_left(const struct dn_wait *w)
{
	int left = mono_ms_left(w->deadline_ms);

	return left > DN_WAIT_SLICE_MS ? DN_WAIT_SLICE_MS : left;
}

static bool cancelled(const struct dn_wait *w)
{
	return w->cancel && *w->cancel;
}

/* A non-blocking connect (a listener whose backlog is full makes a blocking
 * one wait): tried again until w's deadline. */
static int connect_wait(const char *path, const struct dn_wait *w)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, err, pfd = -1;

	/* sun_path holds 108 bytes; a longer /proc/PID/root/... path is
	 * reached through an O_PATH descriptor of the socket instead */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (strlen(path) < sizeof(sa.sun_path)) {
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	} else {
		pfd = open(path, O_PATH | O_CLOEXEC);
		if (pfd < 0) {
			err = -errno;
			close(fd);
			return err;
		}
		snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d", pfd);
	}
	for (;;) {
		int left;

		err = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
		if (err != -EAGAIN && err != -EINTR)
			break;
		if (cancelled(w)) {
			err = -ECANCELED;
			break;
		}
		left = time_left(w);
		if (!left) {
			err = -ETIMEDOUT;
			break;
		}
		usleep((left < 20 ? left : 20) * 1000);
	}
	if (pfd >= 0)
		close(pfd);
	if (!err)
		return fd;
	close(fd);
	return err;
}

/* ------------------------------------------------------------ messages */

void dn_put_header(uint8_t *buf, uint16_t total, uint8_t set, uint8_t id)
{
	memcpy(buf, ipc_magic, sizeof(ipc_magic));
	put_u16(buf + 14, total);
	buf[16] = set;
	buf[17] = id;
	put_u16(buf + 18, 0);
}

int dn_parse_header(const uint8_t *buf, uint16_t *total, uint8_t *set, uint8_t *id)
{
	if (memcmp(buf, ipc_magic, sizeof(ipc_magic)))
		return -EPROTO;
	*total = get_u16(buf + 14);
	*set = buf[16];
	*id = buf[17];
	return *total < DN_IPC_HEADER_SIZE ? -EPROTO : 0;
}

/* Append a UTF-16 string; bytes written or -E2BIG. */
static long dn_put_string(uint8_t *buf, size_t cap, const char *s)
{
	size_t n = s && *s ? strlen(s) + 1 : 0;

	if (cap < 4 + 2 * n)
		return -E2BIG;
	put_u32(buf, n);
	for (size_t i = 0; i < n; i++)	/* provider names are ASCII */
		put_u16(buf + 4 + 2 * i, (unsigned char)s[i]);
	return 4 + 2 * n;
}

/* Read a string at p (of len bytes) into out (UTF-8, ASCII subset kept,
 * others as '?'); bytes consumed or -EPROTO. */
static long dn_get_string(const uint8_t *p, size_t len, char *out, size_t outsz)
{
	uint32_t n;
	size_t o = 0;

	if (len < 4)
		return -EPROTO;
	n = get_u32(p);
	if (n > (len - 4) / 2)
		return -EPROTO;
	for (uint32_t i = 0; i < n; i++) {
		uint16_t c = get_u16(p + 4 + 2 * i);

		if (!c)
			break;
		if (o + 1 < outsz)
			out[o++] = c < 0x80 ? (char)c : '?';
	}
	if (outsz)
		out[o] = 0;
	return 4 + 2 * (long)n;
}

long dn_build_collect(uint8_t *buf, size_t cap, int version, uint32_t buffer_mb, int rundown,
		      const struct dn_provider *provs, int n)
{
	size_t off = DN_IPC_HEADER_SIZE;
	long r;

	if (cap < off + 4 + 4 + 1 + 1 + 4)
		return -E2BIG;
	put_u32(buf + off, buffer_mb);
	put_u32(buf + off + 4, 1);		/* format: NetTrace */
	buf[off + 8] = !!rundown;
	off += 9;
	if (version >= 3)
		buf[off++] = 1;			/* requestStackwalk */
	put_u32(buf + off, n);
	off += 4;
	for (int i = 0; i < n; i++) {
		if (cap - off < 12)
			return -E2BIG;
		put_u64(buf + off, provs[i].keywords);
		put_u32(buf + off + 8, provs[i].level);
		off += 12;
		r = dn_put_string(buf + off, cap - off, provs[i].name);
		if (r < 0)
			return r;
		off += r;
		r = dn_put_string(buf + off, cap - off, NULL);	/* no filter data */
		if (r < 0)
			return r;
		off += r;
	}
	if (off > 0xffff)
		return -E2BIG;
	dn_put_header(buf, off, DN_SET_EVENTPIPE,
		      version >= 3 ? DN_EP_COLLECT_TRACING3 : DN_EP_COLLECT_TRACING2);
	return off;
}

int dn_parse_process_info(const uint8_t *p, size_t len, int v2, struct dn_process_info *pi)
{
	size_t off = 24;	/* uint64 pid, GUID runtime cookie */
	char *fields[] = { pi->cmdline, pi->os, pi->arch, pi->entry_assembly,
			   pi->runtime_version };
	size_t sizes[] = { sizeof(pi->cmdline), sizeof(pi->os), sizeof(pi->arch),
			   sizeof(pi->entry_assembly), sizeof(pi->runtime_version) };
	int nf = v2 ? 5 : 3;

	memset(pi, 0, sizeof(*pi));
	if (len < off)
		return -EPROTO;
	pi->pid = get_u64(p);
	for (int i = 0; i < nf; i++) {
		long r = dn_get_string(p + off, len - off, fields[i], sizes[i]);

		if (r < 0)
			return -EPROTO;
		off += r;
	}
	return 0;
}

/* ------------------------------------------------------------ transport */

/* Wait until fd is ready for events, within w.  0 or -errno. */
static int wait_fd(int fd, short events, const struct dn_wait *w)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = events };
		int left, pr;

		if (cancelled(w))
			return -ECANCELED;
		left = time_left(w);
		if (!left)
			return -ETIMEDOUT;
		pr = poll(&pfd, 1, left);
		if (pr < 0 && errno != EINTR)
			return -errno;
		if (pr > 0)
			return 0;
	}
}

static int write_all(int fd, const void *buf, size_t n, const struct dn_wait *w)
{
	const uint8_t *p = buf;

	while (n) {
		ssize_t r = send(fd, p, n, MSG_NOSIGNAL);

		if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
			int err = wait_fd(fd, POLLOUT, w);

			if (err)
				return err;
			continue;
		}
		if (r < 0)
			return -errno;
		p += r;
		n -= r;
	}
	return 0;
}

/* n bytes, all of them by w's deadline; *got counts what came. */
static int read_all(int fd, void *buf, size_t n, const struct dn_wait *w, size_t *got)
{
	uint8_t *p = buf;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
			int err = wait_fd(fd, POLLIN, w);

			if (err)
				return err;
			continue;
		}
		if (r < 0)
			return -errno;
		if (!r)
			return -ECONNRESET;	/* the peer closed without a reply */
		p += r;
		n -= r;
		*got += r;
	}
	return 0;
}

int dn_command_wait(const char *path, uint8_t set, uint8_t id, const void *payload,
		    size_t payload_len, uint8_t **resp, size_t *resp_len, uint32_t *hresult,
		    int *keep_fd, const struct dn_wait *w, struct dn_reply_info *info)
{
	struct dn_wait dw = { mono_ms() + DN_EXCHANGE_TIMEOUT_MS, NULL };
	uint8_t hdr[DN_IPC_HEADER_SIZE], *body = NULL;
	uint16_t total = 0;
	uint8_t rset, rid;
	size_t got = 0;
	int fd, err;

	if (!w)
		w = &dw;
	if (resp)
		*resp = NULL;
	if (info)
		info->got = 0;
	if (payload_len > 0xffff - DN_IPC_HEADER_SIZE)
		return -E2BIG;
	fd = connect_wait(path, w);
	if (fd < 0)
		return fd;
	dn_put_header(hdr, DN_IPC_HEADER_SIZE + payload_len, set, id);
	err = write_all(fd, hdr, sizeof(hdr), w);
	if (!err && payload_len)
		err = write_all(fd, payload, payload_len, w);
	if (!err)
		err = read_all(fd, hdr, sizeof(hdr), w, &got);
	if (!err && (dn_parse_header(hdr, &total, &rset, &rid) || rset != DN_SET_SERVER))
		err = -EBADMSG;
	if (!err) {	/* total is 16 bits: at most 64 KiB */
		body = malloc(total - DN_IPC_HEADER_SIZE + 1);
		err = body ? read_all(fd, body, total - DN_IPC_HEADER_SIZE, w, &got) : -ENOMEM;
	}
	if (!err && rid != DN_RESP_OK) {
		if (hresult)
			*hresult = total >= DN_IPC_HEADER_SIZE + 4 ? get_u32(body) : 0;
		err = -EPROTO;
	}
	if (!err && resp) {
		*resp = body;
		*resp_len = total - DN_IPC_HEADER_SIZE;
		body = NULL;
	}
	free(body);
	if (info)
		info->got = got;
	if (!err && keep_fd)
		*keep_fd = fd;
	else
		close(fd);
	return err;
}

/* dn_command_wait within the next DN_EXCHANGE_TIMEOUT_MS. */
static int dn_command(const char *path, uint8_t set, uint8_t id, const void *payload,
		      size_t payload_len, uint8_t **resp, size_t *resp_len, uint32_t *hresult,
		      int *keep_fd)
{
	return dn_command_wait(path, set, id, payload, payload_len, resp, resp_len, hresult,
			       keep_fd, NULL, NULL);
}

int dn_process_info(const char *path, struct dn_process_info *pi, uint32_t *hresult)
{
	uint8_t *resp;
	size_t len;
	int err, v2 = 1;

	err = dn_command(path, DN_SET_PROCESS, DN_PROC_INFO2, NULL, 0, &resp, &len, hresult,
			 NULL);
	if (err == -EPROTO) {	/* before .NET 6: ProcessInfo has no version */
		v2 = 0;
		err = dn_command(path, DN_SET_PROCESS, DN_PROC_INFO, NULL, 0, &resp, &len,
				 hresult, NULL);
	}
	if (err)
		return err;
	err = dn_parse_process_info(resp, len, v2, pi);
	free(resp);
	return err;
}

const char *dn_hresult_str(uint32_t hr, char *buf, size_t n)
{
	const char *what = hr == DN_E_UNKNOWN_COMMAND ? " (unknown command)" :
			   hr == DN_E_NOTSUPPORTED ? " (not supported)" : "";

	snprintf(buf, n, "HRESULT 0x%08x%s", hr, what);
	return buf;
}
