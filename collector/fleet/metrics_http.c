// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * metrics_http.c - the --metrics HTTP server (metrics_http.h).  One thread
 * polls the listening socket and up to MAX_CLIENTS connections, all
 * non-blocking: a client that sends nothing or reads nothing only holds
 * its own slot until its deadline.  Responses share the published text by
 * reference count, so a slow reader never copies nor blocks a publish.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/socket.h>
#include "clock.h"
#include "metrics_http.h"
#include "thread.h"

#define MAX_CLIENTS	16
#define CLIENT_MS	5000	/* a whole exchange, request to last byte */
#define REQ_MAX		4096	/* request line and headers */

#define CT_METRICS	"text/plain; version=0.0.4; charset=utf-8"

struct snap {
	int refs;		/* under mhttp.mu */
	uint64_t gen;
	size_t len;
	char *text;
};

struct client {
	int fd;			/* -1 = free slot */
	uint64_t deadline_ms;
	char in[REQ_MAX];
	size_t inlen;
	bool writing;
	char head[512];		/* status line and headers */
	size_t headlen;
	struct snap *body;	/* NULL: an error response, its body in head */
	size_t bodylen;		/* 0 for HEAD */
	size_t sent;
	uint64_t gen;		/* of body, counted served when all of it went */
};

struct mhttp {
	int lfd, wake[2];
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* served_gen moved */
	struct snap *cur;
	uint64_t gen, served_gen, scrapes;
	struct client cl[MAX_CLIENTS];
};

static void snap_put(struct mhttp *h, struct snap *s)
{
	bool last;

	if (!s)
		return;
	pthread_mutex_lock(&h->mu);
	last = --s->refs == 0;
	pthread_mutex_unlock(&h->mu);
	if (last) {
		free(s->text);
		free(s);
	}
}

static struct snap *snap_get(struct mhttp *h)
{
	struct snap *s;

	pthread_mutex_lock(&h->mu);
	s = h->cur;
	if (s)
		s->refs++;
	pthread_mutex_unlock(&h->mu);
	return s;
}

void mhttp__publish(struct mhttp *h, char *text, size_t len)
{
	struct snap *s = malloc(sizeof(*s)), *old;

	if (!s) {
		free(text);
		return;	/* the previous text stays: stale beats nothing */
	}
	s->refs = 1;
	s->len = len;
	s->text = text;
	pthread_mutex_lock(&h->mu);
	s->gen = ++h->gen;
	old = h->cur;
	h->cur = s;
	pthread_mutex_unlock(&h->mu);
	snap_put(h, old);
}

static void client_close(struct mhttp *h, struct client *c)
{
	if (c->fd < 0)
		return;
	close(c->fd);
	c->fd = -1;
	snap_put(h, c->body);
	c->body = NULL;
}

static void respond_error(struct client *c, const char *status, const char *extra)
{
	const char *msg = strchr(status, ' ') + 1;

	c->headlen = snprintf(c->head, sizeof(c->head),
			      "HTTP/1.1 %s\r\nContent-Type: text/plain; charset=utf-8\r\n"
			      "Content-Length: %zu\r\n%sConnection: close\r\n\r\n%s\n",
			      status, strlen(msg) + 1, extra, msg);
	c->writing = true;
}

/* Answer a complete request: its request line is at the start of c->in. */
static void respond(struct mhttp *h, struct client *c)
{
	char method[16], target[256], version[16], *q;
	bool head;

	c->in[c->inlen < REQ_MAX ? c->inlen : REQ_MAX - 1] = 0;
	if (sscanf(c->in, "%15[A-Z] %255[^ \r\n] %15[^ \r\n]", method, target, version) != 3 ||
	    (strcmp(version, "HTTP/1.1") && strcmp(version, "HTTP/1.0"))) {
		respond_error(c, "400 Bad Request", "");
		return;
	}
	head = !strcmp(method, "HEAD");
	if (!head && strcmp(method, "GET")) {
		respond_error(c, "405 Method Not Allowed", "Allow: GET, HEAD\r\n");
		return;
	}
	q = strchr(target, '?');
	if (q)
		*q = 0;
	if (strcmp(target, "/metrics")) {
		respond_error(c, "404 Not Found", "");
		return;
	}
	c->body = snap_get(h);
	c->gen = c->body ? c->body->gen : 0;
	c->headlen = snprintf(c->head, sizeof(c->head),
			      "HTTP/1.1 200 OK\r\nContent-Type: " CT_METRICS "\r\n"
			      "Content-Length: %zu\r\nConnection: close\r\n\r\n",
			      c->body ? c->body->len : 0);
	c->bodylen = head || !c->body ? 0 : c->body->len;
	c->writing = true;
}

/* A GET's whole answer went out: its numbers are read (a HEAD's are not). */
static void served(struct mhttp *h, struct client *c)
{
	if (!c->body || c->bodylen != c->body->len)
		return;
	pthread_mutex_lock(&h->mu);
	h->scrapes++;
	if (c->gen > h->served_gen)
		h->served_gen = c->gen;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

static void client_read(struct mhttp *h, struct client *c)
{
	ssize_t n = recv(c->fd, c->in + c->inlen, REQ_MAX - 1 - c->inlen, 0);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		client_close(h, c);	/* gone before a whole request */
		return;
	}
	c->inlen += n;
	c->in[c->inlen] = 0;
	if (strstr(c->in, "\r\n\r\n") || strstr(c->in, "\n\n"))
		respond(h, c);
	else if (c->inlen == REQ_MAX - 1)
		respond_error(c, "431 Request Header Fields Too Large", "");
}

static void client_write(struct mhttp *h, struct client *c)
{
	while (c->sent < c->headlen + c->bodylen) {
		const char *p;
		size_t left;
		ssize_t n;

		if (c->sent < c->headlen) {
			p = c->head + c->sent;
			left = c->headlen - c->sent;
		} else {
			p = c->body->text + (c->sent - c->headlen);
			left = c->headlen + c->bodylen - c->sent;
		}
		n = send(c->fd, p, left, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			client_close(h, c);
			return;
		}
		c->sent += n;
	}
	served(h, c);
	shutdown(c->fd, SHUT_WR);
	client_close(h, c);
}

/* A free slot; when all are taken, the slot of the client that has waited
 * longest without sending a whole request (one that is being answered
 * keeps its slot): a crowd of idle connections cannot lock scrapes out. */
static struct client *slot_for_new(struct mhttp *h)
{
	struct client *oldest = NULL;
	int i;

	for (i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &h->cl[i];

		if (c->fd < 0)
			return c;
		if (!c->writing && (!oldest || c->deadline_ms < oldest->deadline_ms))
			oldest = c;
	}
	if (oldest)
		client_close(h, oldest);
	return oldest;
}

static void accept_one(struct mhttp *h)
{
	struct client *c;
	int fd = accept4(h->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	c = slot_for_new(h);
	if (!c) {	/* every slot is sending an answer */
		close(fd);
		return;
	}
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->deadline_ms = mono_ms() + CLIENT_MS;
}

/* One poll round over the wake pipe, the listener and the clients.
 * false: asked to stop. */
static bool serve_once(struct mhttp *h)
{
	struct pollfd pf[MAX_CLIENTS + 2];
	int idx[MAX_CLIENTS + 2], n = 0, i;
	uint64_t now = mono_ms(), next = now + 1000;

	pf[n++] = (struct pollfd){ .fd = h->wake[0], .events = POLLIN };
	for (i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &h->cl[i];

		if (c->fd < 0)
			continue;
		if (now >= c->deadline_ms) {
			client_close(h, c);	/* too slow: its slot goes to others */
			continue;
		}
		if (c->deadline_ms < next)
			next = c->deadline_ms;
		idx[n] = i;
		pf[n++] = (struct pollfd){ .fd = c->fd, .events = c->writing ? POLLOUT : POLLIN };
	}
	idx[n] = -1;
	pf[n++] = (struct pollfd){ .fd = h->lfd, .events = POLLIN };
	if (poll(pf, n, (int)(next - now)) < 0)
		return errno == EINTR;
	if (pf[0].revents)
		return false;
	for (i = 1; i < n; i++) {
		if (!pf[i].revents)
			continue;
		if (idx[i] < 0) {
			accept_one(h);
			continue;
		}
		if (!h->cl[idx[i]].writing)
			client_read(h, &h->cl[idx[i]]);
		if (h->cl[idx[i]].fd >= 0 && h->cl[idx[i]].writing)
			client_write(h, &h->cl[idx[i]]);
	}
	return true;
}

static void *serve(void *arg)
{
	struct mhttp *h = arg;
	int i;

	while (serve_once(h))
		;
	for (i = 0; i < MAX_CLIENTS; i++)
		client_close(h, &h->cl[i]);
	return NULL;
}

/* "host:port", "[v6]:port" or ":port" into a listening socket; -errno */
static int listen_on(const char *addr, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	char host[256];
	const char *colon = strrchr(addr, ':');
	size_t hl;
	int fd = -1, e = EINVAL, one = 1, gai;

	if (!colon || !colon[1] || (size_t)(colon - addr) >= sizeof(host)) {
		snprintf(err, errlen, "--metrics %s: cannot listen: not ADDR:PORT", addr);
		return -EINVAL;
	}
	hl = colon - addr;
	memcpy(host, addr, hl);
	host[hl] = 0;
	if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
		memmove(host, host + 1, hl - 2);
		host[hl - 2] = 0;
	}
	gai = getaddrinfo(host[0] ? host : NULL, colon + 1, &hints, &res);
	if (gai) {
		snprintf(err, errlen, "--metrics %s: cannot listen: %s", addr, gai_strerror(gai));
		return -EINVAL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			e = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, 64))
			break;
		e = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		snprintf(err, errlen, "--metrics %s: cannot listen: %s", addr, strerror(e));
	return fd < 0 ? -e : fd;
}

static void mhttp_free(struct mhttp *h)
{
	if (h->lfd >= 0)
		close(h->lfd);
	if (h->wake[0] >= 0)
		close(h->wake[0]);
	if (h->wake[1] >= 0)
		close(h->wake[1]);
	pthread_cond_destroy(&h->cv);
	pthread_mutex_destroy(&h->mu);
	if (h->cur) {
		free(h->cur->text);
		free(h->cur);
	}
	free(h);
}

struct mhttp *mhttp__start(const char *addr, char *err, size_t errlen)
{
	struct mhttp *h = calloc(1, sizeof(*h));
	pthread_condattr_t ca;
	int i, e;

	if (!h) {
		snprintf(err, errlen, "--metrics %s: %s", addr, strerror(ENOMEM));
		return NULL;
	}
	h->lfd = h->wake[0] = h->wake[1] = -1;
	for (i = 0; i < MAX_CLIENTS; i++)
		h->cl[i].fd = -1;
	pthread_mutex_init(&h->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->cv, &ca);
	pthread_condattr_destroy(&ca);
	h->lfd = listen_on(addr, err, errlen);
	if (h->lfd < 0) {
		mhttp_free(h);
		return NULL;
	}
	e = pipe2(h->wake, O_CLOEXEC) ? errno : thread_start_nosig(&h->th, serve, h);
	if (e) {
		snprintf(err, errlen, "--metrics %s: cannot start its thread: %s", addr, strerror(e));
		mhttp_free(h);
		return NULL;
	}
	return h;
}

void mhttp__linger(struct mhttp *h, unsigned int timeout_ms)
{
	uint64_t end = mono_ns() + timeout_ms * 1000000ULL;
	struct timespec until = { .tv_sec = end / 1000000000, .tv_nsec = end % 1000000000 };

	pthread_mutex_lock(&h->mu);
	while (h->scrapes && h->served_gen < h->gen)
		if (pthread_cond_timedwait(&h->cv, &h->mu, &until) == ETIMEDOUT)
			break;
	pthread_mutex_unlock(&h->mu);
}

void mhttp__stop(struct mhttp *h)
{
	if (!h)
		return;
	if (write(h->wake[1], "x", 1) == 1)
		pthread_join(h->th, NULL);
	mhttp_free(h);
}
