// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * metrics_shm.c - the trace's --metrics text handed to the daemon
 * (metrics_shm.h).  A sequence lock: the writer makes seq odd, writes,
 * makes it even; a reader copies and keeps the copy only when seq was the
 * same even number before and after.  A writer that died with seq odd
 * leaves it odd; the next writer starts from the next odd number, so an
 * even seq always means a whole text.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "metrics_shm.h"

/* Address space only; pages are touched as the text needs them.  Far more
 * than a host-wide trace's exposition (about 3 KiB per traced process). */
#define SHM_BYTES	(64UL << 20)
#define READ_TRIES	8

struct metrics_shm {
	uint64_t seq;
	uint64_t len;
	int64_t writer;
	uint64_t export_ok_ns;
	char text[];
};

#define TEXT_MAX	(SHM_BYTES - sizeof(struct metrics_shm))

struct metrics_shm *metrics_shm_inherited;

struct metrics_shm *metrics_shm__new(void)
{
	void *p = mmap(NULL, SHM_BYTES, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void metrics_shm__free(struct metrics_shm *s)
{
	if (s)
		munmap(s, SHM_BYTES);
}

int metrics_shm__publish(struct metrics_shm *s, const char *text, size_t len)
{
	uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);

	if (len > TEXT_MAX)
		return -E2BIG;
	seq = (seq | 1) + (seq & 1 ? 2 : 0);	/* the next odd number */
	__atomic_store_n(&s->seq, seq, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(s->text, text, len);
	s->len = len;
	s->writer = getpid();
	__atomic_store_n(&s->seq, seq + 1, __ATOMIC_RELEASE);
	return 0;
}

uint64_t metrics_shm__export_ok_ns(const struct metrics_shm *s)
{
	return __atomic_load_n(&s->export_ok_ns, __ATOMIC_RELAXED);
}

void metrics_shm__set_export_ok_ns(struct metrics_shm *s, uint64_t ns)
{
	if (ns > metrics_shm__export_ok_ns(s))
		__atomic_store_n(&s->export_ok_ns, ns, __ATOMIC_RELAXED);
}

int metrics_shm__read(struct metrics_shm *s, char **text, size_t *len, pid_t *writer)
{
	int i;

	for (i = 0; i < READ_TRIES; i++) {
		uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), n;
		char *copy;

		if (!seq || (seq & 1)) {
			if (!seq)
				return 0;	/* nothing yet */
			usleep(1000);
			continue;
		}
		n = __atomic_load_n(&s->len, __ATOMIC_RELAXED);
		if (n > TEXT_MAX)
			continue;
		copy = malloc(n + 1);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, s->text, n);
		copy[n] = 0;
		*writer = (pid_t)s->writer;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq) {
			*text = copy;
			*len = n;
			return 1;
		}
		free(copy);
	}
	return 0;
}
