// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ep_port.c - the collector's own diagnostic port (see ep_port.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "clock.h"
#include "dotnet_ipc.h"
#include "ep_port.h"
#include "grow.h"

#define LOG_PREFIX "ebpf-collect: "
#include "log.h"

/* An announcement is 34 bytes sent at once: a peer that has not sent it
 * by then is not a runtime. */
#define ANNOUNCE_TIMEOUT_MS	2000

static const uint8_t advertise_magic[8] = "ADVR_V1";

/* Is a socket at path one that somebody listens on? */
static bool in_use(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool yes;

	if (fd < 0)
		return false;
	yes = !connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	close(fd);
	return yes;
}

int ep_port__listen(struct ep_port *p, const char *path, char *err, size_t errsz)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, e;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errsz, "%s: longer than a socket path can be (%zu bytes)", path,
			 sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errsz, "%s: exists and is not a socket", path);
			return -EEXIST;
		}
		if (in_use(&sa)) {
			snprintf(err, errsz, "%s: another program listens on it", path);
			return -EADDRINUSE;
		}
		unlink(path);	/* left by a collector that was killed */
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || chmod(path, 0666) ||
	    listen(fd, 64)) {
		e = errno;
		snprintf(err, errsz, "%s: cannot listen: %s", path, strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	p->fd = fd;
	snprintf(p->path, sizeof(p->path), "%s", path);
	return 0;
}

static void drop(struct ep_port *p, size_t i)
{
	close(p->c[i].fd);
	p->c[i] = p->c[--p->n];
}

static bool is_done(const struct ep_port *p, pid_t pid)
{
	for (size_t i = 0; i < p->n_done; i++)
		if (p->done[i] == pid)
			return true;
	return false;
}

/* pid has exited: a new process with its pid is a new runtime. */
static void forget(struct ep_port *p, pid_t pid)
{
	for (size_t i = 0; i < p->n_done; i++)
		if (p->done[i] == pid) {
			p->done[i] = p->done[--p->n_done];
			return;
		}
}

static void accept_all(struct ep_port *p)
{
	for (;;) {
		struct ucred cred;
		socklen_t len = sizeof(cred);
		int fd = accept4(p->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0)
			return;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || cred.pid <= 0 ||
		    p->n >= EP_PORT_MAX_CONNS || GROW(p->c, p->cap, p->n + 1)) {
			close(fd);	/* no pid of ours to know it by, or too many */
			continue;
		}
		p->c[p->n++] = (struct ep_port_conn){
			.fd = fd, .pid = cred.pid, .state = EP_PORT_READING,
			.deadline_ms = mono_ms() + ANNOUNCE_TIMEOUT_MS,
		};
	}
}

/* Read what connection i has for us.  false: it is gone (dropped). */
static bool service(struct ep_port *p, size_t i, uint64_t now)
{
	struct ep_port_conn *c = &p->c[i];
	uint8_t junk[256];
	ssize_t r;

	switch (c->state) {
	case EP_PORT_READING:
		r = recv(c->fd, c->buf + c->got, sizeof(c->buf) - c->got, 0);
		if (r > 0)
			c->got += r;
		if ((r < 0 && errno != EAGAIN) || r == 0 || now >= c->deadline_ms ||
		    (c->got >= sizeof(advertise_magic) &&
		     memcmp(c->buf, advertise_magic, sizeof(advertise_magic)))) {
			drop(p, i);
			return false;
		}
		if (c->got == sizeof(c->buf))
			c->state = is_done(p, c->pid) ? EP_PORT_IDLE : EP_PORT_WAITING;
		return true;
	case EP_PORT_WAITING:
	case EP_PORT_IDLE:	/* the runtime sends nothing more: EOF when it ends */
		r = recv(c->fd, junk, sizeof(junk), 0);
		if (r == 0 || (r < 0 && errno != EAGAIN)) {
			if (kill(c->pid, 0) && errno == ESRCH)
				forget(p, c->pid);
			drop(p, i);
			return false;
		}
		return true;
	case EP_PORT_RESUMED:	/* its answer (24 bytes), then it closes */
		r = recv(c->fd, junk, sizeof(junk), 0);
		if (r == 0 || (r < 0 && errno != EAGAIN) || now >= c->deadline_ms) {
			drop(p, i);
			return false;
		}
		return true;
	}
	return true;
}

pid_t ep_port__next(struct ep_port *p)
{
	uint64_t now = mono_ms();
	size_t i = 0;

	if (!p->path[0])
		return 0;
	accept_all(p);
	while (i < p->n)
		if (service(p, i, now))
			i++;
	for (i = 0; i < p->n; i++)
		if (p->c[i].state == EP_PORT_WAITING && !p->c[i].reported) {
			p->c[i].reported = true;
			return p->c[i].pid;
		}
	return 0;
}

bool ep_port__waiting(const struct ep_port *p, pid_t pid)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->c[i].pid == pid && p->c[i].state == EP_PORT_WAITING)
			return true;
	return false;
}

void ep_port__resume_ready(struct ep_port *p, bool (*starting)(void *ctx, pid_t pid),
			   void *ctx)
{
	uint8_t req[DN_IPC_HEADER_SIZE];
	size_t i = 0;

	dn_put_header(req, sizeof(req), DN_SET_PROCESS, DN_PROC_RESUME_RUNTIME);
	while (i < p->n) {
		struct ep_port_conn *c = &p->c[i];

		if (c->state != EP_PORT_WAITING || !c->reported || starting(ctx, c->pid)) {
			i++;
			continue;
		}
		/* 20 bytes into a connection nothing was sent on: all or nothing */
		if (send(c->fd, req, sizeof(req), MSG_NOSIGNAL) != (ssize_t)sizeof(req)) {
			pr_warn("pid %d: ResumeRuntime on %s failed: %s\n", c->pid, p->path,
				strerror(errno));
			drop(p, i);
			continue;
		}
		if (!is_done(p, c->pid) && !GROW(p->done, p->cap_done, p->n_done + 1))
			p->done[p->n_done++] = c->pid;
		pr_debug("pid %d: resumed on %s\n", c->pid, p->path);
		c->state = EP_PORT_RESUMED;
		c->deadline_ms = mono_ms() + DN_EXCHANGE_TIMEOUT_MS;
		i++;
	}
}

/* Every runtime still waiting is resumed first: none is left suspended
 * by a collector that is gone. */
static bool never(void *ctx, pid_t pid)
{
	(void)ctx;
	(void)pid;
	return false;
}

void ep_port__close(struct ep_port *p)
{
	for (size_t i = 0; i < p->n; i++)
		p->c[i].reported = true;
	ep_port__resume_ready(p, never, NULL);
	while (p->n)
		drop(p, p->n - 1);
	free(p->c);
	free(p->done);
	if (p->path[0]) {
		close(p->fd);
		unlink(p->path);
	}
	memset(p, 0, sizeof(*p));
}
