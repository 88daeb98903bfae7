// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * http_client.c - ClickHouse over HTTP with libcurl (http_client.h).
 *
 * One easy handle per struct ch_url keeps the connection alive between
 * the exporter's batches (a server that went away costs a reconnect, which
 * curl makes by itself).  A request is abandoned when the connection does
 * not open within 10 s or no byte moves for 10 s, so a hung server cannot
 * hold the sender thread for ever while a large INSERT that is progressing
 * is never cut.  https:// verifies the server with curl's CA store.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>
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
	if (!strncmp(p, "http://", 7))
		snprintf(u->scheme, sizeof(u->scheme), "http");
	else if (!strncmp(p, "https://", 8))
		snprintf(u->scheme, sizeof(u->scheme), "https");
	else
		goto bad;
	p += strlen(u->scheme) + 3;
	hend = p + strcspn(p, "/?");
	colon = memchr(p, ':', (size_t)(hend - p));
	if (copy_part(u->host, sizeof(u->host), p, (size_t)((colon ? colon : hend) - p)))
		goto bad;
	if (colon ? copy_part(u->port, sizeof(u->port), colon + 1, (size_t)(hend - colon - 1))
		  : copy_part(u->port, sizeof(u->port), u->scheme[4] ? "8443" : "8123", 4))
		goto bad;
	if (strspn(u->port, "0123456789") != strlen(u->port) ||
	    strspn(u->host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") !=
	    strlen(u->host))
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
	snprintf(err, errlen, "invalid ClickHouse URL '%s' "
		 "(http[s]://HOST[:PORT][/DATABASE][?cluster=NAME])", text);
	return -EINVAL;
}

void ch_url__close(struct ch_url *u)
{
	if (u->conn)
		curl_easy_cleanup(u->conn);
	u->conn = NULL;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_err;

static void curl_init(void)
{
	curl_init_err = curl_global_init(CURL_GLOBAL_DEFAULT);
}

struct answer {
	char *p;
	size_t len, cap;
	int nomem;
};

static size_t on_data(char *data, size_t size, size_t n, void *arg)
{
	struct answer *a = arg;

	n *= size;
	if (GROW(a->p, a->cap, a->len + n + 1)) {
		a->nomem = 1;
		return 0;	/* curl ends the transfer */
	}
	memcpy(a->p + a->len, data, n);
	a->len += n;
	a->p[a->len] = 0;
	return n;
}

/* curl's failure as the errno callers and tests tell apart. */
static int curl_errno(CURLcode c)
{
	switch (c) {
	case CURLE_COULDNT_CONNECT:
		return -ECONNREFUSED;
	case CURLE_COULDNT_RESOLVE_HOST:
		return -EHOSTUNREACH;
	case CURLE_OPERATION_TIMEDOUT:
		return -ETIMEDOUT;
	case CURLE_OUT_OF_MEMORY:
		return -ENOMEM;
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
		return -ECONNRESET;
	default:
		return -EPROTO;	/* a cut answer, TLS, a malformed reply */
	}
}

/* The handle of u, made on first use with the options every request has. */
static CURL *handle(struct ch_url *u)
{
	CURL *c = u->conn;

	if (c)
		return c;
	pthread_once(&curl_once, curl_init);
	if (curl_init_err || !(c = curl_easy_init()))
		return NULL;
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long)HTTP_TIMEOUT_S);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)HTTP_TIMEOUT_S);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	u->conn = c;
	return c;
}

int ch_http__post(struct ch_url *u, const char *sql, const char *body, size_t len, char **resp)
{
	char errbuf[CURL_ERROR_SIZE] = "", *url = NULL, *q = NULL;
	struct curl_slist *hdr = NULL, *h2;
	struct answer a = { 0 };
	long status = 0;
	CURLcode rc;
	CURL *c;
	int ret;

	if (resp)
		*resp = NULL;
	u->error[0] = 0;
	c = handle(u);
	if (!c) {
		snprintf(u->error, sizeof(u->error), "cannot start libcurl");
		return -ENOMEM;
	}
	if (body && !(q = curl_easy_escape(c, sql, 0)))
		goto nomem;
	if (asprintf(&url, "%s://%s:%s/%s%s", u->scheme, u->host, u->port, q ? "?query=" : "",
		     q ? q : "") < 0) {
		url = NULL;
		goto nomem;
	}
	if (!body) {
		body = sql;	/* a query with no data goes in the body */
		len = strlen(sql);
	}
	hdr = curl_slist_append(NULL, "Content-Type: text/plain");
	/* no "Expect: 100-continue" round trip before a large INSERT */
	h2 = hdr ? curl_slist_append(hdr, "Expect:") : NULL;
	if (!h2)
		goto nomem;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	rc = curl_easy_perform(c);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (a.nomem) {
		ret = -ENOMEM;
		snprintf(u->error, sizeof(u->error), "%s", strerror(ENOMEM));
	} else if (rc != CURLE_OK) {
		long oserr = 0;

		/* the system's word when there is one ("Connection refused"),
		 * else curl's line (a name that does not resolve, TLS) */
		curl_easy_getinfo(c, CURLINFO_OS_ERRNO, &oserr);
		ret = rc == CURLE_COULDNT_CONNECT && oserr > 0 ? -(int)oserr : curl_errno(rc);
		if (rc == CURLE_COULDNT_CONNECT && oserr > 0)
			snprintf(u->error, sizeof(u->error), "%s", strerror((int)oserr));
		else if (rc == CURLE_OPERATION_TIMEDOUT)
			snprintf(u->error, sizeof(u->error), "no answer within %d s", HTTP_TIMEOUT_S);
		else
			snprintf(u->error, sizeof(u->error), "%s",
				 errbuf[0] ? errbuf : curl_easy_strerror(rc));
	} else {
		ret = (int)status;
	}
	if (ret < 0)
		ch_url__close(u);	/* the next request starts on a fresh connection */
	if (ret >= 0 && resp) {
		*resp = a.p ? a.p : strdup("");
		a.p = NULL;
		if (!*resp)
			ret = -ENOMEM;
	}
	free(a.p);
	curl_slist_free_all(hdr);
	curl_free(q);
	free(url);
	return ret;
nomem:
	curl_slist_free_all(hdr);
	curl_free(q);
	free(url);
	snprintf(u->error, sizeof(u->error), "%s", strerror(ENOMEM));
	return -ENOMEM;
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
