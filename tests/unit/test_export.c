// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the --clickhouse pieces that need no server: the URL, the
 * spool (order, bound, whole files, a spool left by an earlier run) and the
 * HTTP client against a one-shot fake server (chunked and plain answers,
 * an HTTP error, a refused connection, https:// to a server that speaks
 * no TLS).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "test.h"
#include "http_client.h"
#include "export_spool.h"

static void test_url(void)
{
	struct ch_url u;
	char err[256], t[64];

	ASSERT_OK(ch_url__parse("http://127.0.0.1:8123", &u, err, sizeof(err)), "plain");
	ASSERT_STREQ(u.host, "127.0.0.1", "host");
	ASSERT_STREQ(u.port, "8123", "port");
	ASSERT_STREQ(u.database, "fleet", "default database");
	ASSERT_STREQ(ch_url__table(&u, "stacks", t, sizeof(t)), "fleet.stacks_local", "local");
	ASSERT_OK(ch_url__parse("http://ch1/prod?cluster=c2", &u, err, sizeof(err)), "full");
	ASSERT_STREQ(u.port, "8123", "default port");
	ASSERT_STREQ(u.database, "prod", "database");
	ASSERT_STREQ(u.cluster, "c2", "cluster");
	ASSERT_STREQ(ch_url__table(&u, "events", t, sizeof(t)), "prod.events", "distributed");
	ASSERT_OK(ch_url__parse("http://h:1/", &u, err, sizeof(err)), "trailing slash");
	ASSERT_STREQ(u.database, "fleet", "trailing slash: default database");
	ASSERT_OK(ch_url__parse("https://h", &u, err, sizeof(err)), "https");
	ASSERT_STREQ(u.scheme, "https", "https: scheme");
	ASSERT_STREQ(u.port, "8443", "https: default port");
	ASSERT_EQ(ch_url__parse("ftp://h", &u, err, sizeof(err)), -EINVAL, "ftp");
	ASSERT_EQ(ch_url__parse("http://h:80x", &u, err, sizeof(err)), -EINVAL, "port");
	ASSERT_EQ(ch_url__parse("http://a@h", &u, err, sizeof(err)), -EINVAL, "user");
	ASSERT_EQ(ch_url__parse("http://:80", &u, err, sizeof(err)), -EINVAL, "no host");
	ASSERT_EQ(ch_url__parse("http://h/a;drop", &u, err, sizeof(err)), -EINVAL, "database");
	ASSERT_EQ(ch_url__parse("http://h?x=1", &u, err, sizeof(err)), -EINVAL, "parameter");
	ASSERT_TRUE(strstr(err, "invalid ClickHouse URL 'http://h?x=1'") != NULL, "message");
}

static struct ch_batch batch(const char *table, const char *body, uint64_t rows)
{
	struct ch_batch b = { .body = (char *)body, .len = strlen(body), .rows = rows,
			      .samples = rows * 10 };

	snprintf(b.table, sizeof(b.table), "%s", table);
	return b;
}

static void test_spool(void)
{
	char dir[] = "/tmp/test_export.XXXXXX", err[256], path[512];
	struct ch_batch a = batch("stacks", "a\t1\n", 1), c = batch("events", "cc\t2\nc\t3\n", 2);
	struct ch_batch big = batch("stacks", "0123456789012345678901234567890123456789\n", 1);
	struct ch_batch got;
	struct ch_spool *s;
	int fd;

	ASSERT_OK_PTR(mkdtemp(dir), "mkdtemp");
	s = ch_spool__open(dir, 32, err, sizeof(err));
	if (!ASSERT_OK_PTR(s, "open"))
		return;
	ASSERT_OK(ch_spool__put(s, &a), "put a");
	ASSERT_OK(ch_spool__put(s, &c), "put c");
	ASSERT_EQ(ch_spool__put(s, &big), -ENOSPC, "over the bound: refused whole");
	ASSERT_EQ(ch_spool__count(s), 2, "count");
	ASSERT_EQ(ch_spool__rows(s), 3, "rows");
	ch_spool__close(s);
	/* a torn write of a crashed run is removed; the batches stay, in order */
	snprintf(path, sizeof(path), "%s/00000000000000000009.stacks.1.1.tsv.tmp", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	close(fd);
	s = ch_spool__open(dir, 32, err, sizeof(err));
	if (!ASSERT_OK_PTR(s, "reopen"))
		return;
	ASSERT_EQ(access(path, F_OK), -1, "tmp removed");
	ASSERT_EQ(ch_spool__count(s), 2, "count after reopen");
	ASSERT_EQ(ch_spool__peek(s, &got), 1, "peek a");
	ASSERT_STREQ(got.table, "stacks", "a: table");
	ASSERT_STREQ(got.body, "a\t1\n", "a: body");
	ASSERT_EQ(got.samples, 10, "a: samples");
	free(got.body);
	ch_spool__pop(s);
	ASSERT_EQ(ch_spool__peek(s, &got), 1, "peek c");
	ASSERT_STREQ(got.body, "cc\t2\nc\t3\n", "c: body");
	ASSERT_EQ(got.rows, 2, "c: rows");
	free(got.body);
	ASSERT_OK(ch_spool__put(s, &a), "room again after a left");
	ch_spool__pop(s);
	ASSERT_EQ(ch_spool__peek(s, &got), 1, "the newest after c");
	ASSERT_EQ(got.len, a.len, "a again");
	free(got.body);
	ch_spool__pop(s);
	ASSERT_EQ(ch_spool__peek(s, &got), 0, "empty");
	ch_spool__close(s);
	ASSERT_OK(rmdir(dir), "every file removed");
}

struct fake {
	int lfd;
	const char *answer;
	char request[4096];
};

static void *fake_main(void *arg)
{
	struct fake *f = arg;
	int fd = accept(f->lfd, NULL, NULL);
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		return NULL;
	/* the request ends with its body; the test's bodies end in "END" */
	while (n + 1 < sizeof(f->request) &&
	       (r = recv(fd, f->request + n, sizeof(f->request) - n - 1, 0)) > 0) {
		n += (size_t)r;
		f->request[n] = 0;
		if (strstr(f->request, "END"))
			break;
	}
	send(fd, f->answer, strlen(f->answer), MSG_NOSIGNAL);
	close(fd);
	return NULL;
}

/* One request against a fake server answering `answer`; the status. */
static int one_request(const char *answer, const char *sql, const char *body, char **resp,
		       char *request, size_t rlen)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001) };
	socklen_t sl = sizeof(sa);
	struct fake f = { .answer = answer };
	char url[64], err[256];
	struct ch_url u;
	pthread_t th;
	int st;

	f.lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (f.lfd < 0 || bind(f.lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(f.lfd, 1) ||
	    getsockname(f.lfd, (struct sockaddr *)&sa, &sl))
		return -999;
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/db", ntohs(sa.sin_port));
	ch_url__parse(url, &u, err, sizeof(err));
	pthread_create(&th, NULL, fake_main, &f);
	st = ch_http__post(&u, sql, body, body ? strlen(body) : 0, resp);
	ch_url__close(&u);
	pthread_join(th, NULL);
	close(f.lfd);
	snprintf(request, rlen, "%s", f.request);
	return st;
}

/* Answers plain HTTP at once, before any request: to a TLS client, bytes
 * that are no handshake. */
static void *plain_main(void *arg)
{
	int fd = accept(*(int *)arg, NULL, NULL);

	if (fd >= 0) {
		send(fd, "HTTP/1.1 400 Bad Request\r\n\r\n", 28, MSG_NOSIGNAL);
		close(fd);
	}
	return NULL;
}

static void test_https_refused(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001) };
	socklen_t sl = sizeof(sa);
	char url[64], err[256], *resp = NULL;
	struct ch_url u;
	pthread_t th;
	int lfd = socket(AF_INET, SOCK_STREAM, 0), st;

	if (!ASSERT_TRUE(lfd >= 0 && !bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) &&
			 !listen(lfd, 1) && !getsockname(lfd, (struct sockaddr *)&sa, &sl), "listen"))
		return;
	snprintf(url, sizeof(url), "https://127.0.0.1:%d", ntohs(sa.sin_port));
	ASSERT_OK(ch_url__parse(url, &u, err, sizeof(err)), "url");
	pthread_create(&th, NULL, plain_main, &lfd);
	st = ch_http__post(&u, "SELECT 1", NULL, 0, &resp);
	pthread_join(th, NULL);
	close(lfd);
	ASSERT_EQ(st, -EPROTO, "no TLS: no answer");
	ASSERT_TRUE(resp == NULL, "no body");
	ASSERT_TRUE(u.error[0] && !strchr(u.error, '\n'), "one line of cause");
	printf("# https to a plain server: %s\n", u.error);
	ch_url__close(&u);
}

static void test_http(void)
{
	char req[4096], line[64], *resp = NULL;
	struct ch_url u;
	int st;

	st = one_request("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
			 "6\r\na;b\t3\n\r\n4\r\nc\t1\n\r\n0\r\n\r\n",
			 "SELECT 1 END", NULL, &resp, req, sizeof(req));
	ASSERT_EQ(st, 200, "chunked: status");
	ASSERT_STREQ(resp, "a;b\t3\nc\t1\n", "chunked: body decoded");
	ASSERT_TRUE(!strncmp(req, "POST / HTTP/1.1\r\n", 17), "a query goes in the body");
	ASSERT_TRUE(strstr(req, "\r\n\r\nSELECT 1 END") != NULL, "query body");
	free(resp);
	st = one_request("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 30\r\n\r\n"
			 "Code: 60, Table doesn't exist\n", "INSERT INTO db.t FORMAT TabSeparated",
			 "x\ty\nEND", &resp, req, sizeof(req));
	ASSERT_EQ(st, 500, "error status");
	ASSERT_STREQ(ch_http__first_line(resp, line, sizeof(line)),
		     "Code: 60, Table doesn't exist", "error line");
	ASSERT_TRUE(!strncmp(req, "POST /?query=INSERT%20INTO%20db.t%20FORMAT%20TabSeparated "
			     "HTTP/1.1\r\n", 65), "an INSERT's query goes in the URL");
	ASSERT_TRUE(strstr(req, "Content-Length: 7\r\n") != NULL, "length of the data");
	free(resp);
	st = one_request("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\ncut",
			 "SELECT 1 END", NULL, &resp, req, sizeof(req));
	ASSERT_EQ(st, -EPROTO, "a cut chunked answer is no answer");
	free(resp);
	ASSERT_OK(ch_url__parse("http://127.0.0.1:1", &u, line, sizeof(line)), "url");
	ASSERT_EQ(ch_http__post(&u, "SELECT 1", NULL, 0, &resp), -ECONNREFUSED, "refused");
	ASSERT_TRUE(resp == NULL, "no answer");
	ASSERT_STREQ(u.error, "Connection refused", "the cause, for a line naming the server");
	ch_url__close(&u);
}

int main(void)
{
	RUN(test_url);
	RUN(test_spool);
	RUN(test_http);
	RUN(test_https_refused);
	return test_summary();
}
