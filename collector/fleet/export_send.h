/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * export_send.h - the --clickhouse sender thread: batches handed over by
 * the tracing thread go to ClickHouse in order, or to the spool while it is
 * away, and the spool is replayed when it is back.
 */
#ifndef EBPF_COLLECT_EXPORT_SEND_H
#define EBPF_COLLECT_EXPORT_SEND_H

#include <stddef.h>
#include <stdint.h>
#include "export.h"
#include "http_client.h"
#include "export_spool.h"

struct ch_sender;

/* Parse the URL, open the spool (NULL dir: none), create the schema when
 * the server answers, start the thread.  NULL with the reason in err. */
struct ch_sender *ch_sender__start(const char *url, const char *spool_dir, uint64_t spool_max,
				   char *err, size_t errlen);

/* Hand b (malloc'd, body malloc'd) over; the sender frees it. */
void ch_sender__push(struct ch_sender *s, struct ch_batch *b);

void ch_sender__stats(struct ch_sender *s, struct ch_export_stats *st);

/* Send or spool what was pushed, try the spool once more, join, leave the
 * last counters in *final, free; NULL-safe. */
void ch_sender__stop(struct ch_sender *s, struct ch_export_stats *final);

#endif
