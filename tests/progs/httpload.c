// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * httpload: a loopback HTTP/1.1 load generator for
 * tests/bench/bench_dotnet_cost.sh, so the bench needs no external tool.
 * One thread, epoll, C keep-alive connections each with one request in
 * flight at all times; counts the whole responses of the measured window
 * (after a warm-up) and prints one JSON line:
 *   {"requests": N, "seconds": S, "rps": R, "errors": E}
 *
 *   httpload [-c CONNS] [-w WARMUP_S] [-d SECONDS] [-p PATH] PORT
 *
 * A response is whole when its headers and Content-Length bytes have
 * arrived, or, chunked, when the last chunk ("0\r\n\r\n") has.  A connection
 * the server closes or answers with anything but 200 counts as an error
 * and is opened again.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BUF_SZ 65536

struct conn {
	int fd;
	size_t len;	/* bytes of the current response read so far */
	char buf[BUF_SZ];
};

static char req[512];
static size_t req_len;
static struct sockaddr_in addr;
static unsigned long errors;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* send the request whole: it is small and the socket is blocking for it */
static int send_req(struct conn *c)
{
	size_t off = 0;

	while (off < req_len) {
		ssize_t n = send(c->fd, req + off, req_len - off, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += n;
	}
	c->len = 0;
	return 0;
}

static int open_conn(int ep, struct conn *c)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
	int one = 1;

	c->fd = socket(AF_INET, SOCK_STREAM, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		fprintf(stderr, "httpload: connect 127.0.0.1:%d: %s\n", ntohs(addr.sin_port),
			strerror(errno));
		return -1;
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev) < 0)
		return -1;
	return send_req(c);
}

/* 1: the response in c->buf is whole, 0: not yet, -1: not a 200 response */
static int response_done(struct conn *c)
{
	char *end, *cl;

	c->buf[c->len] = '\0';
	end = strstr(c->buf, "\r\n\r\n");
	if (!end)
		return c->len >= BUF_SZ - 1 ? -1 : 0;
	if (strncmp(c->buf, "HTTP/1.1 200", 12))
		return -1;
	cl = strcasestr(c->buf, "\r\ncontent-length:");
	if (cl && cl < end)
		return c->len >= (size_t)(end + 4 - c->buf) + strtoul(cl + 17, NULL, 10);
	return c->len >= 5 && !memcmp(c->buf + c->len - 5, "0\r\n\r\n", 5);
}

int main(int argc, char **argv)
{
	int conns = 16, opt, ep, port;
	double warm = 2, dur = 5, t0, t_start, t_end;
	const char *path = "/";
	unsigned long done = 0, counted = 0;
	struct epoll_event evs[64];
	struct conn *cs;

	while ((opt = getopt(argc, argv, "c:w:d:p:")) != -1) {
		switch (opt) {
		case 'c': conns = atoi(optarg); break;
		case 'w': warm = atof(optarg); break;
		case 'd': dur = atof(optarg); break;
		case 'p': path = optarg; break;
		default: goto usage;
		}
	}
	if (optind != argc - 1 || conns < 1 || dur <= 0 || warm < 0)
		goto usage;
	port = atoi(argv[optind]);
	addr.sin_family = AF_INET;
	addr.sin_port = htons(port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	req_len = snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n",
			   path, port);

	ep = epoll_create1(0);
	cs = calloc(conns, sizeof(*cs));
	if (ep < 0 || !cs)
		return 1;
	for (int i = 0; i < conns; i++)
		if (open_conn(ep, &cs[i]))
			return 1;

	t0 = now_s();
	t_start = t0 + warm;
	t_end = t_start + dur;
	for (;;) {
		double t = now_s();
		int n;

		if (t >= t_end)
			break;
		n = epoll_wait(ep, evs, 64, 100);
		if (n < 0 && errno != EINTR)
			return 1;
		for (int i = 0; i < n; i++) {
			struct conn *c = evs[i].data.ptr;
			ssize_t r = recv(c->fd, c->buf + c->len, BUF_SZ - 1 - c->len, 0);
			int st;

			if (r <= 0) {
				if (r < 0 && (errno == EINTR || errno == EAGAIN))
					continue;
				goto reopen;
			}
			c->len += r;
			st = response_done(c);
			if (st == 0)
				continue;
			if (st < 0)
				goto reopen;
			done++;
			if (t >= t_start)
				counted++;
			if (send_req(c) == 0)
				continue;
reopen:
			errors++;
			close(c->fd);
			if (open_conn(ep, c))
				return 1;
		}
	}
	printf("{\"requests\": %lu, \"seconds\": %.3f, \"rps\": %.1f, \"errors\": %lu, \"warmup_requests\": %lu}\n",
	       counted, dur, counted / dur, errors, done - counted);
	return 0;
usage:
	fprintf(stderr, "usage: httpload [-c CONNS] [-w WARMUP_S] [-d SECONDS] [-p PATH] PORT\n");
	return 2;
}
