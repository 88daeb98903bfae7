/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * export_spool.h - the bounded on-disk spool of --clickhouse: batches that
 * ClickHouse could not take wait here as whole files, oldest first.
 */
#ifndef EBPF_COLLECT_EXPORT_SPOOL_H
#define EBPF_COLLECT_EXPORT_SPOOL_H

#include <stddef.h>
#include <stdint.h>

struct ch_spool;

/* One batch: the rows of one INSERT into one table. */
struct ch_batch {
	char table[32];		/* "stacks", "events" */
	char *body;		/* TabSeparated rows */
	size_t len;
	uint64_t rows;
	uint64_t samples;	/* CPU samples in the rows (stacks) */
	struct ch_batch *next;
};

/* Open (create) dir; batches a previous run left there are kept and come
 * first.  NULL with the reason in err. */
struct ch_spool *ch_spool__open(const char *dir, uint64_t max_bytes, char *err, size_t errlen);
void ch_spool__close(struct ch_spool *s);

/* Write b as one file (tmp, fsync, rename).  0; -ENOSPC when it does not
 * fit under the bound (nothing written); -errno. */
int ch_spool__put(struct ch_spool *s, const struct ch_batch *b);

/* The oldest batch, read into *b (b->body malloc'd): 1, 0 when empty, -errno. */
int ch_spool__peek(struct ch_spool *s, struct ch_batch *b);

/* Remove the oldest batch (it reached ClickHouse). */
void ch_spool__pop(struct ch_spool *s);

size_t ch_spool__count(const struct ch_spool *s);
uint64_t ch_spool__rows(const struct ch_spool *s);
uint64_t ch_spool__bytes(const struct ch_spool *s);
const char *ch_spool__dir(const struct ch_spool *s);

#endif
