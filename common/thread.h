/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * thread.h - a helper thread that takes no signal.
 *
 * A signal sent to the process goes to any one thread that does not block
 * it; SIGINT and SIGTERM (and the collector's SIGUSR1) belong to the main
 * loop, whose poll they interrupt, not to a helper thread (the metrics
 * server, the ClickHouse sender) that would take them unnoticed.
 */
#ifndef EC_COMMON_THREAD_H
#define EC_COMMON_THREAD_H

#include <pthread.h>

/* pthread_create(th, NULL, fn, arg) with every signal blocked in the new
 * thread (the caller's mask is as it was on return).  0 or an errno. */
int thread_start_nosig(pthread_t *th, void *(*fn)(void *), void *arg);

#endif /* EC_COMMON_THREAD_H */
