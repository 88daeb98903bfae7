/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * metrics_http.h - the HTTP side of --metrics, served by libmicrohttpd on
 * a thread of its own: GET/HEAD /metrics answer the last text published
 * (404 elsewhere, 405 for other methods, 400 on a malformed request,
 * Connection: close), each client bounded by a deadline so a stuck one
 * holds nothing up.
 */
#ifndef EBPF_COLLECT_METRICS_HTTP_H
#define EBPF_COLLECT_METRICS_HTTP_H

#include <stddef.h>
#include <stdint.h>

struct mhttp;

/* Listen on addr ("127.0.0.1:9464", "[::1]:9464", ":9464") and start
 * serving; NULL and "--metrics ADDR: cannot listen: <cause>" in err. */
struct mhttp *mhttp__start(const char *addr, char *err, size_t errlen);

/* Serve text (malloc'd, len bytes; ownership passes) from now on.  Only a
 * pointer swap under the lock: the publisher never waits on a client. */
void mhttp__publish(struct mhttp *h, char *text, size_t len);

/* If anyone has scraped us, wait until the last published text has been
 * served once, at most timeout_ms: the final counts reach Prometheus. */
void mhttp__linger(struct mhttp *h, unsigned int timeout_ms);

/* Stop the thread, close every socket, free; NULL-safe. */
void mhttp__stop(struct mhttp *h);

#endif
