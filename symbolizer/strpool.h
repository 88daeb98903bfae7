/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * strpool.h - a pool of names: stored once, never moved, freed together.
 */
#ifndef EBPF_COLLECT_STRPOOL_H
#define EBPF_COLLECT_STRPOOL_H

#include <stddef.h>

/* Chunked arena: strings never move, so pointers into it stay valid until
 * the pool is freed.  No per-name malloc. */
struct strpool;
struct strpool *strpool__new(void);
const char *strpool__add(struct strpool *p, const char *s, size_t len);
void strpool__free(struct strpool *p);

#endif
