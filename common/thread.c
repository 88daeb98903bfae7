// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * thread.c - start a thread with every signal blocked: the mask is
 * inherited from the creating thread, so it is set around pthread_create.
 */
#include <signal.h>
#include "thread.h"

int thread_start_nosig(pthread_t *th, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}
