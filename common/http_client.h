/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * http_client.h - ClickHouse's HTTP interface through libcurl: one POST per
 * request, over a connection kept alive between the requests of one
 * struct ch_url, http:// or https:// (curl's CA store).  Shared by the
 * exporter's sender thread and `ebpf-collect fleet`.
 */
#ifndef EBPF_COLLECT_EXPORT_HTTP_H
#define EBPF_COLLECT_EXPORT_HTTP_H

#include <stddef.h>

/* http[s]://HOST[:PORT][/DATABASE][?cluster=NAME] */
struct ch_url {
	char scheme[8];		/* "http", "https" */
	char host[256];
	char port[16];		/* default 8123, 8443 with https */
	char database[128];	/* default "fleet" */
	char cluster[128];	/* "" = one server: no Distributed tables */
	const char *text;	/* as given, for messages */
	void *conn;		/* curl's handle: the kept-alive connection */
	char error[256];	/* why the last request got no answer */
};

/* 0, or -EINVAL with the reason in err. */
int ch_url__parse(const char *text, struct ch_url *u, char *err, size_t errlen);

/* The kept-alive connection closed; u can be used again. */
void ch_url__close(struct ch_url *u);

/*
 * POST sql (the query; with body, sent in the URL and body is the data of
 * an INSERT) and read the answer.  Returns the HTTP status, or -errno when
 * no answer came (connection refused, timeout, TLS), with curl's one-line
 * cause in u->error.  *resp (may be NULL) gets the malloc'd, NUL-terminated
 * answer body; the caller frees it.
 */
int ch_http__post(struct ch_url *u, const char *sql, const char *body, size_t len, char **resp);

/* "DB.stacks_local" on one server, "DB.stacks" (the Distributed table) with
 * a cluster: where rows go and where queries read. */
const char *ch_url__table(const struct ch_url *u, const char *base, char *buf, size_t len);

/* The first line of an error answer, trimmed to fit buf (for messages). */
const char *ch_http__first_line(const char *resp, char *buf, size_t len);

#endif
