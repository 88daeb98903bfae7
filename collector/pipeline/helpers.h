/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * helpers.h - two helpers defined in session/session.c that the pipeline
 * and the sources call too: the monotonic clock in ns, and appending v to
 * a growing array.  Declared apart, below the session, until they move to
 * common/; this header goes then.
 */
#ifndef EBPF_COLLECT_HELPERS_H
#define EBPF_COLLECT_HELPERS_H

#include <stddef.h>
#include <stdint.h>

uint64_t now_ns(void);
int push_ptr(void **arr, size_t *n, size_t *cap, size_t elem, const void *v);

#endif
