// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * eh_builder.c - one thread building eh_tables from a queue, so that the
 * consumer, which reads the ring buffer, never waits on .eh_frame.
 *
 * Two lists under one mutex: the queue (files with their opened ELF
 * objects and priorities) and the finished builds.  The thread takes the
 * queued file of the highest priority (the smallest among equals, then the
 * oldest: a build is not preempted, and a compiler's library takes half a
 * minute, so the many small files of a host scan go first; a linear scan,
 * the queue holds a few hundred files at most), builds its table
 * with the mutex released, and appends the result to the finished list;
 * the consumer moves finished builds out when it polls, without waiting.
 * Stopping ends a build in progress within a few thousand rows
 * (eh_table__build's stop: the largest files, a compiler's, take seconds).  Waiting for
 * the queue to empty is for the start only, before anything is sampled.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "clock.h"
#include "eh_builder.h"
#include "grow.h"
#include "thread.h"

struct job {
	uint32_t file;
	uint64_t prio, seq;
	uint64_t bytes;		/* the file's size */
	struct elf_file ef;
};

struct eh_builder {
	pthread_t th;
	bool started, stop, busy;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* to the thread: a file queued, or stop */
	pthread_cond_t idle;	/* from the thread: a build finished */
	struct job *queue;
	size_t n_queue, cap_queue;
	struct eh_built *done;
	size_t n_done, cap_done;
	uint64_t seq, build_ns;
};

/* The index of the queued job to build next (n_queue > 0). */
static size_t next_job(const struct eh_builder *b)
{
	size_t i, best = 0;

	for (i = 1; i < b->n_queue; i++) {
		const struct job *j = &b->queue[i], *o = &b->queue[best];

		if (j->prio != o->prio ? j->prio > o->prio :
		    j->bytes != o->bytes ? j->bytes < o->bytes : j->seq < o->seq)
			best = i;
	}
	return best;
}

static void *run(void *arg)
{
	struct eh_builder *b = arg;

	pthread_mutex_lock(&b->mu);
	for (;;) {
		struct eh_built out = {};
		struct job j;
		uint64_t t0;
		size_t i;

		while (!b->stop && !b->n_queue)
			pthread_cond_wait(&b->cv, &b->mu);
		if (b->stop)
			break;
		i = next_job(b);
		j = b->queue[i];
		b->queue[i] = b->queue[--b->n_queue];
		b->busy = true;
		pthread_mutex_unlock(&b->mu);

		t0 = mono_ns();
		out.file = j.file;
		out.err = eh_table__build(j.ef.elf, &out.t, &b->stop);
		elf_file__close(&j.ef);

		pthread_mutex_lock(&b->mu);
		b->build_ns += mono_ns() - t0;
		b->done[b->n_done] = out;	/* room made by eh_builder__add */
		__atomic_store_n(&b->n_done, b->n_done + 1, __ATOMIC_RELEASE);
		b->busy = false;
		pthread_cond_broadcast(&b->idle);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

struct eh_builder *eh_builder__new(void)
{
	struct eh_builder *b = calloc(1, sizeof(*b));
	int err;

	if (!b)
		return NULL;
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	pthread_cond_init(&b->idle, NULL);
	err = thread_start_nosig(&b->th, run, b);
	if (err) {
		eh_builder__free(b);
		errno = err;
		return NULL;
	}
	b->started = true;
	return b;
}

void eh_builder__free(struct eh_builder *b)
{
	size_t i;

	if (!b)
		return;
	if (b->started) {
		pthread_mutex_lock(&b->mu);
		__atomic_store_n(&b->stop, true, __ATOMIC_RELAXED);	/* read mid-build too */
		pthread_cond_signal(&b->cv);
		pthread_mutex_unlock(&b->mu);
		pthread_join(b->th, NULL);
	}
	for (i = 0; i < b->n_queue; i++)
		elf_file__close(&b->queue[i].ef);
	for (i = 0; i < b->n_done; i++)
		eh_table__free(&b->done[i].t);
	free(b->queue);
	free(b->done);
	pthread_cond_destroy(&b->cv);
	pthread_cond_destroy(&b->idle);
	pthread_mutex_destroy(&b->mu);
	free(b);
}

int eh_builder__add(struct eh_builder *b, uint32_t file, struct elf_file *ef, uint64_t prio)
{
	int err = 0;

	pthread_mutex_lock(&b->mu);
	/* the finished list has room for every file ever queued, so the
	 * thread never allocates */
	if (GROW(b->queue, b->cap_queue, b->n_queue + 1) ||
	    GROW(b->done, b->cap_done, b->seq + 1)) {
		err = -ENOMEM;
		elf_file__close(ef);
	} else {
		struct stat st;

		b->queue[b->n_queue++] = (struct job){
			.file = file, .prio = prio, .seq = b->seq++, .ef = *ef,
			.bytes = fstat(ef->fd, &st) ? UINT64_MAX : (uint64_t)st.st_size };
		pthread_cond_signal(&b->cv);
	}
	pthread_mutex_unlock(&b->mu);
	ef->elf = NULL;
	ef->fd = -1;
	return err;
}

void eh_builder__raise(struct eh_builder *b, uint32_t file, uint64_t more)
{
	size_t i;

	pthread_mutex_lock(&b->mu);
	for (i = 0; i < b->n_queue; i++)
		if (b->queue[i].file == file) {
			b->queue[i].prio += more;
			break;
		}
	pthread_mutex_unlock(&b->mu);
}

size_t eh_builder__take(struct eh_builder *b, struct eh_built *out, size_t max)
{
	size_t n;

	/* cheap enough for every sample: one load when nothing is finished */
	if (!__atomic_load_n(&b->n_done, __ATOMIC_ACQUIRE) || pthread_mutex_trylock(&b->mu))
		return 0;	/* the thread holds it for a moment: next time */
	n = b->n_done < max ? b->n_done : max;
	memcpy(out, b->done, n * sizeof(*out));
	memmove(b->done, b->done + n, (b->n_done - n) * sizeof(*out));
	__atomic_store_n(&b->n_done, b->n_done - n, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&b->mu);
	return n;
}

void eh_builder__wait(struct eh_builder *b)
{
	pthread_mutex_lock(&b->mu);
	while (b->n_queue || b->busy)
		pthread_cond_wait(&b->idle, &b->mu);
	pthread_mutex_unlock(&b->mu);
}

void eh_builder__stats(struct eh_builder *b, size_t *queued, uint64_t *build_ns)
{
	pthread_mutex_lock(&b->mu);
	*queued = b->n_queue;
	*build_ns = b->build_ns;
	pthread_mutex_unlock(&b->mu);
}
