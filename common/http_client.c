// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * http_client.c - a minimal HTTP/1.1 client for ClickHouse (http_client.h).
 *
 * One connection per request and "Connection: close": the answer ends at
 * end of stream, so no chunked decoding or keep-alive state is needed, and
 * a server that went away between two batches costs nothing but a fresh
 * connect.  Sends and receives time out (10 s) so a hung server cannot
 * hold the sender thread for ever.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include "grow.h"
#include "http_client.h"

#define HTTP_TIMEOUT_S	10

static int copy_part(char *dst, size_t dlen, const char *s, size_t n)
{
	if (!n || n >= dlen)
		return -EINVAL;
	memcpy(dst, s, n);
	dst[n] = 0;
	return 0;
}

int ch_url__parse(const char *text, struct ch_url *u, char *err, size_t errlen)
{
	const char *p = text, *hend, *colon, *path, *q;

	memset(u, 0, sizeof(*u));
	u->text = text;
	snprintf(u->database, sizeof(u->database), "fleet");
	if (strncmp(p, "http://", 7))
		goto bad;
	p += 7;
	hend = p + strcspn(p, "/?");
	colon = memchr(p, ':', (size_t)(hend - p));
	if (copy_part(u->host, sizeof(u->host), p, (size_t)((colon ? colon : hend) - p)))
		goto bad;
	if (colon ? copy_part(u->port, sizeof(u->port), colon + 1, (size_t)(hend - colon - 1))
		  : copy_part(u->port, sizeof(u->port), "8123", 4))
		goto bad;
	path = hend;
	q = strchr(path, '?');
	if (*path == '/' && path[1] && path + 1 != q &&
	    copy_part(u->database, sizeof(u->database), path + 1,
		      (size_t)((q ? q : path + strlen(path)) - path - 1)))
		goto bad;
	if (q && (strncmp(q, "?cluster=", 9) ||
		  copy_part(u->cluster, sizeof(u->cluster), q + 9, strlen(q + 9))))
		goto bad;
	if (strspn(u->database, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
	    strlen(u->database))
		goto bad;
	return 0;
bad:
	snprintf(err, errlen, "invalid ClickHouse URL '%s' (http://HOST:PORT[/DATABASE][?cluster=NAME])",
		 text);
	return -EINVAL;
}

static int connect_to(const struct ch_url *u)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *a;
	struct timeval tv = { .tv_sec = HTTP_TIMEOUT_S };
	int fd = -1, err = -EHOSTUNREACH;

	if (getaddrinfo(u->host, u->port, &hints, &res))
		return -EHOSTUNREACH;
	for (a = res; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (!connect(fd, a->ai_addr, a->ai_addrlen))
			break;
		err = -errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd >= 0 ? fd : err;
}

static int send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EPIPE;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Percent-encode s for a query string parameter. */
static char *url_encode(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = malloc(strlen(s) * 3 + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || strchr("-_.~", ch)) {
			*o++ = (char)ch;
		} else {
			*o++ = '%';
			*o++ = hex[ch >> 4];
			*o++ = hex[ch & 15];
		}
	}
	*o = 0;
	return out;
}

static int send_request(int fd, const struct ch_url *u, const char *sql, const char *body,
			size_t len)
{
	char *q = body ? url_encode(sql) : NULL, *head = NULL;
	int err, n;

	if (body && !q)
		return -ENOMEM;
	if (!body) {
		body = sql;	/* a query with no data goes in the body */
		len = strlen(sql);
	}
	n = asprintf(&head, "POST /%s%s HTTP/1.1\r\nHost: %s:%s\r\n"
		     "Content-Type: text/plain\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
		     q ? "?query=" : "", q ? q : "", u->host, u->port, len);
	free(q);
	if (n < 0)
		return -ENOMEM;
	err = send_all(fd, head, (size_t)n);
	if (!err)
		err = send_all(fd, body, len);
	free(head);
	return err;
}

/* A chunked body, decoded in place; -EPROTO when it is cut or malformed. */
static int dechunk(char *body)
{
	char *in = body, *out = body, *end;

	for (;;) {
		unsigned long n = strtoul(in, &end, 16);

		if (end == in || !(end = strstr(end, "\r\n")))
			return -EPROTO;
		in = end + 2;
		if (!n)
			break;
		if (strnlen(in, n) < n)
			return -EPROTO;
		memmove(out, in, n);
		out += n;
		in += n;
		if (strncmp(in, "\r\n", 2))
			return -EPROTO;
		in += 2;
	}
	*out = 0;
	return 0;
}

static int is_chunked(const char *head, const char *end)
{
	const char *p;

	for (p = head; p && p < end; p = strstr(p, "\r\n")) {
		p += 2;
		if (!strncasecmp(p, "transfer-encoding:", 18) &&
		    strcasestr(p, "chunked") && strcasestr(p, "chunked") < strstr(p, "\r\n"))
			return 1;
	}
	return 0;
}

static int read_answer(int fd, char **resp)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap), *b;
	int status = -EPROTO;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (GROW(buf, cap, n + 2)) {	/* room to read, and the NUL */
			free(buf);
			return -ENOMEM;
		}
		r = recv(fd, buf + n, cap - n - 1, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			status = -errno;
			free(buf);
			return status == -EAGAIN ? -ETIMEDOUT : status;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	if (!strncmp(buf, "HTTP/1.", 7) && strlen(buf) > 12)
		status = atoi(buf + 9);
	b = strstr(buf, "\r\n\r\n");
	if (b && is_chunked(buf, b) && dechunk(b + 4))
		status = -EPROTO;	/* the answer was cut */
	if (resp) {
		*resp = strdup(b ? b + 4 : "");
		if (!*resp)
			status = -ENOMEM;
	}
	free(buf);
	return status;
}

int ch_http__post(const struct ch_url *u, const char *sql, const char *body, size_t len,
		  char **resp)
{
	int fd = connect_to(u), ret;

	if (resp)
		*resp = NULL;
	if (fd < 0)
		return fd;
	ret = send_request(fd, u, sql, body, len);
	if (!ret)
		ret = read_answer(fd, resp);
	close(fd);
	return ret;
}

const char *ch_url__table(const struct ch_url *u, const char *base, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s%s", u->database, base, u->cluster[0] ? "" : "_local");
	return buf;
}

const char *ch_http__first_line(const char *resp, char *buf, size_t len)
{
	size_t n = resp ? strcspn(resp, "\r\n") : 0;

	if (n >= len)
		n = len - 1;
	memcpy(buf, resp ? resp : "", n);
	buf[n] = 0;
	return buf;
}
