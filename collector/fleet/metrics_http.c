// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * metrics_http.c - the --metrics HTTP server (metrics_http.h) on
 * libmicrohttpd's internal thread.  The socket is bound here, so that a
 * taken port is one line naming the address and the system's cause; MHD
 * then owns it.  A scrape copies the published text (a few hundred KiB at
 * most, once per scrape interval): a slow reader never holds the lock nor
 * a publish.
 */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include "clock.h"
#include "metrics_http.h"

#define MAX_CLIENTS	256	/* beyond: refused until one ends or times out */
#define CLIENT_S	5	/* a client idle this long is closed */

#define CT_METRICS	"text/plain; version=0.0.4; charset=utf-8"

struct mhttp {
	struct MHD_Daemon *d;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* served_gen moved */
	char *text;		/* under mu */
	size_t len;
	uint64_t gen, served_gen, scrapes;
};

/* What one request is, from its first call to its end. */
struct req {
	bool metrics;		/* a GET of /metrics, answered 200 */
	uint64_t gen;		/* of the text it was answered */
};

void mhttp__publish(struct mhttp *h, char *text, size_t len)
{
	char *old;

	pthread_mutex_lock(&h->mu);
	old = h->text;
	h->text = text;
	h->len = len;
	h->gen++;
	pthread_mutex_unlock(&h->mu);
	free(old);
}

static enum MHD_Result answer(struct MHD_Connection *c, unsigned int code, const char *type,
			      char *body, size_t len, enum MHD_ResponseMemoryMode mode,
			      const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result fail(struct MHD_Connection *c, unsigned int code, const char *msg,
			    const char *allow)
{
	return answer(c, code, "text/plain; charset=utf-8", (char *)msg, strlen(msg),
		      MHD_RESPMEM_PERSISTENT, allow);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **req_cls)
{
	struct mhttp *h = cls;
	struct req *rq = *req_cls;
	bool head = !strcmp(method, MHD_HTTP_METHOD_HEAD);
	char *copy;
	size_t len;

	(void)upload;
	if (!rq) {	/* the headers are in; the next call answers */
		rq = calloc(1, sizeof(*rq));
		*req_cls = rq;
		return rq ? MHD_YES : MHD_NO;
	}
	*upload_size = 0;	/* a body is not read */
	if (strcmp(version, MHD_HTTP_VERSION_1_1) && strcmp(version, MHD_HTTP_VERSION_1_0))
		return fail(c, MHD_HTTP_BAD_REQUEST, "Bad Request\n", NULL);
	if (!head && strcmp(method, MHD_HTTP_METHOD_GET))
		return fail(c, MHD_HTTP_METHOD_NOT_ALLOWED, "Method Not Allowed\n", "GET, HEAD");
	if (strcmp(url, "/metrics"))
		return fail(c, MHD_HTTP_NOT_FOUND, "Not Found\n", NULL);
	pthread_mutex_lock(&h->mu);
	len = h->len;
	copy = malloc(len + 1);
	if (copy)
		memcpy(copy, h->text ? h->text : "", len);
	rq->gen = h->gen;
	pthread_mutex_unlock(&h->mu);
	if (!copy)
		return fail(c, MHD_HTTP_SERVICE_UNAVAILABLE, "Out of memory\n", NULL);
	rq->metrics = !head;
	return answer(c, MHD_HTTP_OK, CT_METRICS, copy, len, MHD_RESPMEM_MUST_FREE, NULL);
}

/* A GET's whole answer went out: its numbers are read (a HEAD's are not). */
static void on_done(void *cls, struct MHD_Connection *c, void **req_cls,
		    enum MHD_RequestTerminationCode toe)
{
	struct mhttp *h = cls;
	struct req *rq = *req_cls;

	(void)c;
	if (rq && rq->metrics && toe == MHD_REQUEST_TERMINATED_COMPLETED_OK) {
		pthread_mutex_lock(&h->mu);
		h->scrapes++;
		if (rq->gen > h->served_gen)
			h->served_gen = rq->gen;
		pthread_cond_broadcast(&h->cv);
		pthread_mutex_unlock(&h->mu);
	}
	free(rq);
	*req_cls = NULL;
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
	pthread_cond_destroy(&h->cv);
	pthread_mutex_destroy(&h->mu);
	free(h->text);
	free(h);
}

struct mhttp *mhttp__start(const char *addr, char *err, size_t errlen)
{
	struct mhttp *h = calloc(1, sizeof(*h));
	pthread_condattr_t ca;
	sigset_t all, old;
	int fd;

	if (!h) {
		snprintf(err, errlen, "--metrics %s: %s", addr, strerror(ENOMEM));
		return NULL;
	}
	pthread_mutex_init(&h->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->cv, &ca);
	pthread_condattr_destroy(&ca);
	fd = listen_on(addr, err, errlen);
	if (fd < 0) {
		mhttp_free(h);
		return NULL;
	}
	/* MHD's thread takes the caller's mask: none of the signals that
	 * belong to the main loop (see common/thread.h) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL,
				on_request, h,
				MHD_OPTION_LISTEN_SOCKET, fd,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CLIENTS,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)CLIENT_S,
				MHD_OPTION_NOTIFY_COMPLETED, on_done, h,
				MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->d) {
		snprintf(err, errlen, "--metrics %s: cannot start the HTTP server", addr);
		close(fd);
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
	MHD_stop_daemon(h->d);
	mhttp_free(h);
}
