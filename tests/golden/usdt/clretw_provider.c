/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* generated from clr-events.man by usdt-gen v1, do not edit */
/* USDT provider: semaphores, serializers, probes */

/*
 * Every event has one USDT probe, provider = short provider name, name =
 * event symbol, guarded by its semaphore, at a 5-byte nop site.  Probe
 * arguments: arg0 payload pointer (manifest layout), arg1 payload length
 * (u32), arg2 activity id (16 bytes) or 0, arg3 related activity id or 0.
 *
 * Build with -DCLRETW_TEST_HOOK=fn to have every fired event also passed to
 * void fn(const char *provider, const char *symbol, const void *payload,
 *         unsigned int len, const GUID *activity, const GUID *related);
 */
/* sched_getcpu() of the batched mode */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clretw_provider.h"

#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
/* architecture decision 12: 5-byte nop probe sites (0f 1f 44 00 00) */
#undef _SDT_NOP
#define _SDT_NOP .nops 5

/* In .probes beside the semaphores: file-backed, so a tracer finds it at
 * its ELF symbol's file offset in the mapping, as the kernel finds a
 * semaphore. */
volatile unsigned int clretw_tracer_pause __attribute__((section(".probes"), used, visibility("default")));

/* Never called.  A tracer holds the pause word up by holding a uprobe
 * on this site with the word as its reference counter (ref_ctr_offset):
 * the kernel adds 1 to the word when the probe goes in and takes it off
 * when the probe goes, whether the tracer closed it or died. */
__asm__(".pushsection .text\n"
	".globl clretw_tracer_pause_site\n"
	".type clretw_tracer_pause_site, @function\n"
	"clretw_tracer_pause_site:\n"
	".nops 5\n"
	"ret\n"
	".size clretw_tracer_pause_site, . - clretw_tracer_pause_site\n"
	".popsection");

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || __SIZEOF_POINTER__ != 8
#error "payloads are written for 64-bit little-endian targets"
#endif

#define CLRETW__STACK_BUF 1024

unsigned long long clretw_dropped_oversize;
unsigned long long clretw_dropped_nomem;

static __thread GUID clretw__act, clretw__rel;
static __thread unsigned char clretw__act_set;

void EventXplatSetActivityId(const GUID *activity, const GUID *related)
{
	clretw__act_set = 0;
	if (activity) {
		clretw__act = *activity;
		clretw__act_set |= 1;
	}
	if (related) {
		clretw__rel = *related;
		clretw__act_set |= 2;
	}
}

#ifdef CLRETW_TEST_HOOK
void CLRETW_TEST_HOOK(const char *provider, const char *symbol, const void *payload,
		unsigned int len, const GUID *activity, const GUID *related);
#define CLRETW__HOOK(p, n, b, l, a, r) CLRETW_TEST_HOOK(#p, #n, b, l, a, r)
#else
#define CLRETW__HOOK(p, n, b, l, a, r) do { } while (0)
#endif

/*
 * Red zone: the first hit of a 5-byte-nop uprobe turns the nop into a
 * call to a kernel trampoline (Linux 6.x, x86-64), which pushes onto the
 * user stack and so overwrites the 128 bytes below %rsp.  A leaf function
 * may keep the payload there, so every function holding a probe also
 * calls clretw__nonleaf(): a non-leaf function keeps nothing below %rsp.
 */
__attribute__((noinline)) static void clretw__nonleaf(void)
{
	__asm__ __volatile__("" ::: "memory");
}

#define CLRETW__PROBE(prov, name, buf, len) do {					\
	clretw__batch_sync();						\
	const GUID *a__ = (clretw__act_set & 1) ? &clretw__act : NULL;		\
	const GUID *r__ = (clretw__act_set & 2) ? &clretw__rel : NULL;		\
	CLRETW__HOOK(prov, name, buf, len, a__, r__);				\
	STAP_PROBE4(prov, name, (const void *)(buf), (unsigned int)(len), a__, r__); \
	clretw__nonleaf();							\
} while (0)

#define CLRETW__BATCH_DONE(prov, name, p, len) do {				\
	CLRETW__HOOK(prov, name, p, len, (clretw__act_set & 1) ? &clretw__act : NULL, \
		    (clretw__act_set & 2) ? &clretw__rel : NULL);		\
	clretw__batch_commit();						\
} while (0)

static inline __attribute__((unused)) unsigned char *clretw__u8(unsigned char *p, uint8_t v)
{
	p[0] = v;
	return p + 1;
}

static inline __attribute__((unused)) unsigned char *clretw__u16(unsigned char *p, uint16_t v)
{
	memcpy(p, &v, 2);
	return p + 2;
}

static inline __attribute__((unused)) unsigned char *clretw__u32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return p + 4;
}

static inline __attribute__((unused)) unsigned char *clretw__u64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

static inline __attribute__((unused)) unsigned char *clretw__f64(unsigned char *p, double v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

/* GUID in .NET byte order (Data1..3 little-endian); NULL writes zeros */
static inline __attribute__((unused)) unsigned char *clretw__guid(unsigned char *p, const GUID *g)
{
	if (!g) {
		memset(p, 0, 16);
		return p + 16;
	}
	p = clretw__u32(p, g->Data1);
	p = clretw__u16(p, g->Data2);
	p = clretw__u16(p, g->Data3);
	memcpy(p, g->Data4, 8);
	return p + 8;
}

/* UTF-16LE with its NUL; NULL is the empty string */
static inline __attribute__((unused)) size_t clretw__wlen(const char16_t *s)
{
	size_t n = 0;

	if (s)
		while (s[n])
			n++;
	return 2 * (n + 1);
}

static inline __attribute__((unused)) unsigned char *clretw__wstr(unsigned char *p, const char16_t *s)
{
	size_t n = clretw__wlen(s) - 2;

	if (n)
		memcpy(p, s, n);
	p[n] = 0;
	p[n + 1] = 0;
	return p + n + 2;
}

static inline __attribute__((unused)) size_t clretw__alen(const char *s)
{
	return s ? strlen(s) + 1 : 1;
}

static inline __attribute__((unused)) unsigned char *clretw__astr(unsigned char *p, const char *s)
{
	size_t n = clretw__alen(s) - 1;

	if (n)
		memcpy(p, s, n);
	p[n] = 0;
	return p + n + 1;
}

/* n bytes from src; a NULL src writes zeros */
static inline __attribute__((unused)) unsigned char *clretw__bytes(unsigned char *p, const void *src, size_t n)
{
	if (n && src)
		memcpy(p, src, n);
	else if (n)
		memset(p, 0, n);
	return p + n;
}

/* n elements of e bytes, saturated just above the payload limit */
static inline __attribute__((unused)) size_t clretw__arr(uint64_t n, size_t e)
{
	return n > CLRETW_MAX_PAYLOAD ? (size_t)CLRETW_MAX_PAYLOAD + 1 : (size_t)n * e;
}

static ULONG clretw__drop(unsigned long long *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
	return ERROR_WRITE_FAULT;
}

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * provider_abi.h - what a tracer finds, reads and writes in a process that
 * runs a usdt-gen provider (usdt/README.md, "Probes" and "Batched mode"):
 * the names of the provider's objects, its pause word, the batched mode's
 * control block and the records of a run its batch probe hands over.
 *
 * The one definition for both sides: usdt-gen writes this file's text into
 * every generated provider (a runtime compiles the provider without this
 * tree, so the text travels with it; usdt/build.mk), and the collector
 * includes it (collector/sources/batch.c, tracer_pause.c).  So it holds
 * C11 with <stddef.h> and <stdint.h> only, and names no generated symbol.
 */
#ifndef USDT_PROVIDER_ABI_H
#define USDT_PROVIDER_ABI_H

#include <stddef.h>
#include <stdint.h>

/* Global symbols of a provider, <prefix><suffix>, found by their suffix
 * (the prefix is usdt-gen's --name). */
#define PROV_PAUSE_SUFFIX	 "_tracer_pause"	/* the pause word */
#define PROV_PAUSE_SITE_SUFFIX	 "_tracer_pause_site"	/* the function a tracer holds it by */
#define PROV_BATCH_CTL_SUFFIX	 "_batch_ctl"		/* struct prov_batch_ctl, then the mask */
#define PROV_BATCH_EVENTS_SUFFIX "_batch_events"	/* "<provider>:<symbol>\0"..., then "\0" */
#define PROV_BATCH_SEMA_SUFFIX	 "_batch_semaphore"	/* the batch probe's semaphore */
/* the probe <prefix>:batch(data, len, tid, first_seq, count) */
#define PROV_BATCH_PROBE	 "batch"

/* The pause word is an unsigned int: the kernel counts in its low 16 bits
 * (a uprobe's reference counter), any nonzero value pauses. */
#define PROV_PAUSE_WORD_SIZE	4

/*
 * Batched mode.  The control block <prefix>_batch_ctl is this head and
 * then n_events mask bytes, one per event in <prefix>_batch_events order:
 * 0 per-event probe, PROV_BATCH_ON batched, | PROV_BATCH_STACK with the
 * user stack the provider walks.
 */
#define PROV_BATCH_MAGIC	0x31435442u	/* "BTC1" */
#define PROV_BATCH_CAP		(60 * 1024)	/* record bytes per thread: the longest run */
#define PROV_BATCH_MAX_FRAMES	127		/* PERF_MAX_STACK_DEPTH's default */
#define PROV_BATCH_FLUSH_NS	20000000L	/* flusher period while a tracer batches */
#define PROV_BATCH_IDLE_NS	500000000L	/* and while none does */

#define PROV_BATCH_ON		1
#define PROV_BATCH_STACK	2

struct prov_batch_ctl {
	uint32_t magic;		/* PROV_BATCH_MAGIC */
	uint32_t n_events;	/* mask bytes after the head */
	uint32_t session;	/* tracer: +1 per session; older records are dropped */
	uint32_t flush_req;	/* tracer: +1 to have every buffer flushed */
	uint32_t flush_done;	/* flusher: flush_req it has answered */
	uint32_t active;	/* tracer: nonzero while it batches */
	uint32_t cap;		/* PROV_BATCH_CAP */
	uint32_t flusher;	/* pid of the process whose flusher thread runs */
};

/*
 * A run: records back to back, each 8-byte aligned: struct prov_batch_rec,
 * the ids its flags announce (16 bytes each), the stack (u64 depth, with
 * PROV_BATCH_DEPTH_CUT set when the walk stopped at PROV_BATCH_MAX_FRAMES,
 * then the return addresses, innermost first), payload_len payload bytes
 * in the manifest layout, zero padding.
 */
#define PROV_BATCH_F_ACTIVITY	0x1		/* the 16-byte activity id follows */
#define PROV_BATCH_F_RELATED	0x2		/* then the related activity id */
#define PROV_BATCH_F_STACK	0x4		/* then the stack */
#define PROV_BATCH_DEPTH_CUT	(1ULL << 32)

struct prov_batch_rec {
	uint64_t timestamp;	/* CLOCK_MONOTONIC ns, the clock of bpf_ktime_get_ns() */
	uint16_t index;		/* into <prefix>_batch_events */
	uint16_t cpu;		/* sched_getcpu() when it fired */
	uint16_t flags;		/* PROV_BATCH_F_* */
	uint16_t payload_len;
};

_Static_assert(sizeof(unsigned int) == PROV_PAUSE_WORD_SIZE, "pause word size");
_Static_assert(sizeof(struct prov_batch_ctl) == 32 &&
	       offsetof(struct prov_batch_ctl, session) == 8 &&
	       offsetof(struct prov_batch_ctl, flush_req) == 12 &&
	       offsetof(struct prov_batch_ctl, flush_done) == 16 &&
	       offsetof(struct prov_batch_ctl, active) == 20 &&
	       offsetof(struct prov_batch_ctl, flusher) == 28, "batch control block layout");
_Static_assert(sizeof(struct prov_batch_rec) == 16 &&
	       offsetof(struct prov_batch_rec, index) == 8 &&
	       offsetof(struct prov_batch_rec, payload_len) == 14, "batch record layout");

#endif /* USDT_PROVIDER_ABI_H */

#define CLRETW__BATCH_N 64
#define CLRETW__BATCH_CTL clretw_batch_ctl
#define CLRETW__BATCH_SEMA clretw_batch_semaphore
#define CLRETW__BATCH_PROBE(d, l, t, s, c) STAP_PROBE5(clretw, batch, d, l, t, s, c)

/*
 * Batched events (usdt/README.md "Batched mode").
 *
 * A tracer that wants an event without a per-event trap sets the event's
 * byte in <prefix>_batch_ctl.mask (found by its ELF symbol, written into
 * the process as the kernel writes a semaphore) and attaches the event's
 * probe as usual, which raises its semaphore.  The traced path then writes
 * the record into this thread's buffer instead of reaching the probe site.
 * The control block and the records are laid out in provider_abi.h, whose
 * text comes before this in the generated file.
 *
 * PROV_BATCH_STACK in a mask byte asks for the stack: the provider follows
 * the frame pointer chain itself, from the function that fired the event
 * up, inside the thread's own stack (pthread_getattr_np's bounds, so a
 * broken chain ends the walk instead of faulting), as the tracer's BPF
 * walk would.
 *
 * One probe, <prefix>:batch(data, len, tid, first_seq, count), hands a
 * run of records to the tracer: when the buffer is full, before this
 * thread fires a per-event probe (so a thread's events reach the tracer in
 * the order it fired them), at thread exit, at process exit, and from a
 * flusher thread every PROV_BATCH_FLUSH_NS while a tracer is active (a
 * thread that went quiet still gets its events out), or at once when the
 * tracer bumps flush_req (it then reads flush_done == flush_req).
 * Sequence numbers count a thread's records from 0 per tracer session, so
 * a run the tracer could not take shows as a gap.
 *
 * The owner appends without a lock and publishes (count << 32 | head) with
 * one release store; whoever flushes holds the buffer's lock, reads that
 * word, and hands [tail, head) to the probe.  Only the owner, under the
 * lock, moves head back to 0.
 */
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct clretw__batch_ctl {
	struct prov_batch_ctl h;
	uint8_t mask[CLRETW__BATCH_N];	/* nonzero: the event is batched */
};

volatile struct clretw__batch_ctl CLRETW__BATCH_CTL
	__attribute__((section(".probes"), used, visibility("default"))) = {
	.h = { .magic = PROV_BATCH_MAGIC, .n_events = CLRETW__BATCH_N, .cap = PROV_BATCH_CAP },
};
unsigned short CLRETW__BATCH_SEMA __attribute__((section(".probes"), visibility("hidden")));

struct clretw__tbuf {
	uint64_t hs;		/* records << 32 | head; the owner's release store */
	uint32_t tail, tail_seq;	/* under lock */
	uint32_t tid, session;
	int lock;
	uintptr_t stack_lo, stack_hi;	/* this thread's stack */
	struct clretw__tbuf *next, **pprev;
	unsigned char data[PROV_BATCH_CAP] __attribute__((aligned(8)));
};

static __thread struct clretw__tbuf *clretw__tb;
static __thread uint64_t clretw__pend_hs;	/* hs once the record is written */
/* between reserve and commit: an event fired by a signal handler on this
 * thread then goes through its probe and leaves the buffer (and its lock)
 * alone */
static __thread unsigned char clretw__busy;
static pthread_mutex_t clretw__reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct clretw__tbuf *clretw__reg;
static pthread_key_t clretw__key;
static pthread_once_t clretw__key_once = PTHREAD_ONCE_INIT;
static pid_t clretw__flusher_pid;	/* process the flusher thread runs in */

/* Batched only while a tracer holds the batch probe: the kernel keeps its
 * semaphore for that tracer's life, so a tracer that dies without clearing
 * the mask leaves every event on its per-event probe for the next one. */
#define CLRETW__BATCH_HELD() (*(volatile unsigned short *)&CLRETW__BATCH_SEMA != 0)
#define CLRETW__BATCHED(i) \
	__builtin_expect(CLRETW__BATCH_CTL.mask[i] != 0 && CLRETW__BATCH_HELD(), 0)

static void clretw__lock(struct clretw__tbuf *b)
{
	while (__atomic_exchange_n(&b->lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void clretw__unlock(struct clretw__tbuf *b)
{
	__atomic_store_n(&b->lock, 0, __ATOMIC_RELEASE);
}

/* Hand [tail, head) to the tracer; the lock is held. */
__attribute__((noinline)) static void clretw__flush_locked(struct clretw__tbuf *b)
{
	uint64_t hs = __atomic_load_n(&b->hs, __ATOMIC_ACQUIRE);
	uint32_t head = (uint32_t)hs, seq = (uint32_t)(hs >> 32);
	const unsigned char *run = b->data + b->tail;

	if (head == b->tail || b->session != CLRETW__BATCH_CTL.h.session)
		return;
	CLRETW__BATCH_PROBE(run, head - b->tail, b->tid, b->tail_seq, seq - b->tail_seq);
	clretw__nonleaf();
	b->tail = head;
	b->tail_seq = seq;
}

static void clretw__flush_all(void)
{
	struct clretw__tbuf *b;

	pthread_mutex_lock(&clretw__reg_lock);
	for (b = clretw__reg; b; b = b->next) {
		if (__atomic_exchange_n(&b->lock, 1, __ATOMIC_ACQUIRE))
			continue;	/* its owner is flushing it */
		clretw__flush_locked(b);
		clretw__unlock(b);
	}
	pthread_mutex_unlock(&clretw__reg_lock);
}

static void *clretw__flusher(void *arg)
{
	(void)arg;
	CLRETW__BATCH_CTL.h.flusher = (uint32_t)getpid();	/* a tracer waits for it */
	for (;;) {
		uint32_t req = CLRETW__BATCH_CTL.h.flush_req;
		struct timespec ts = { 0, CLRETW__BATCH_CTL.h.active && CLRETW__BATCH_HELD() ?
					  PROV_BATCH_FLUSH_NS : PROV_BATCH_IDLE_NS };

		clretw__flush_all();
		if (CLRETW__BATCH_CTL.h.flush_done != req)
			CLRETW__BATCH_CTL.h.flush_done = req;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* A thread's exit: its last records out, its buffer gone. */
static void clretw__tb_exit(void *arg)
{
	struct clretw__tbuf *b = arg;

	clretw__lock(b);
	clretw__flush_locked(b);
	clretw__unlock(b);
	pthread_mutex_lock(&clretw__reg_lock);
	*b->pprev = b->next;
	if (b->next)
		b->next->pprev = b->pprev;
	pthread_mutex_unlock(&clretw__reg_lock);
	clretw__tb = NULL;
	free(b);
}

/* After fork(): the parent's buffers are not ours, its flusher did not come along. */
static void clretw__after_fork(void)
{
	struct clretw__tbuf *b = clretw__tb;

	clretw__reg = NULL;
	clretw__flusher_pid = 0;
	pthread_mutex_init(&clretw__reg_lock, NULL);
	if (!b)
		return;
	b->hs = (uint64_t)0;
	b->tail = b->tail_seq = 0;
	b->lock = 0;
	b->tid = (uint32_t)syscall(SYS_gettid);
	b->next = NULL;
	b->pprev = &clretw__reg;
	clretw__reg = b;
}

static void clretw__make_key(void)
{
	if (pthread_key_create(&clretw__key, clretw__tb_exit) == 0)
		pthread_atfork(NULL, NULL, clretw__after_fork);
}

__attribute__((destructor)) static void clretw__batch_exit(void)
{
	clretw__flush_all();
}

static void clretw__start_flusher(void)
{
	pid_t pid = getpid();
	pthread_attr_t a;
	pthread_t t;

	if (__atomic_exchange_n(&clretw__flusher_pid, pid, __ATOMIC_ACQ_REL) == pid)
		return;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	if (pthread_create(&t, &a, clretw__flusher, NULL))
		clretw__flusher_pid = 0;
	pthread_attr_destroy(&a);
}

static void clretw__stack_bounds(struct clretw__tbuf *b)
{
	pthread_attr_t a;
	void *addr;
	size_t size;

	if (pthread_getattr_np(pthread_self(), &a))
		return;	/* 0, 0: no stacks walked */
	if (!pthread_attr_getstack(&a, &addr, &size)) {
		b->stack_lo = (uintptr_t)addr;
		b->stack_hi = (uintptr_t)addr + size;
	}
	pthread_attr_destroy(&a);
}

__attribute__((noinline, cold)) static struct clretw__tbuf *clretw__tb_new(void)
{
	struct clretw__tbuf *b;

	pthread_once(&clretw__key_once, clretw__make_key);
	b = aligned_alloc(64, (sizeof(*b) + 63) & ~(size_t)63);
	if (!b)
		return NULL;
	memset(b, 0, offsetof(struct clretw__tbuf, data));
	clretw__stack_bounds(b);
	b->tid = (uint32_t)syscall(SYS_gettid);
	b->session = CLRETW__BATCH_CTL.h.session;
	pthread_setspecific(clretw__key, b);
	pthread_mutex_lock(&clretw__reg_lock);
	b->next = clretw__reg;
	if (b->next)
		b->next->pprev = &b->next;
	b->pprev = &clretw__reg;
	clretw__reg = b;
	pthread_mutex_unlock(&clretw__reg_lock);
	clretw__tb = b;
	return b;
}

/* A new tracer session: what the buffer holds belongs to an older one. */
__attribute__((noinline, cold)) static void clretw__restart(struct clretw__tbuf *b,
							    uint32_t session)
{
	clretw__lock(b);
	__atomic_store_n(&b->hs, 0, __ATOMIC_RELEASE);
	b->tail = b->tail_seq = 0;
	b->session = session;
	clretw__unlock(b);
}

/* Full: flush, and start over at 0 (the owner only, under the lock). */
__attribute__((noinline)) static void clretw__flush_full(struct clretw__tbuf *b)
{
	uint32_t seq;

	clretw__lock(b);
	clretw__flush_locked(b);
	seq = (uint32_t)(b->hs >> 32);
	__atomic_store_n(&b->hs, (uint64_t)seq << 32, __ATOMIC_RELEASE);
	b->tail = 0;
	b->tail_seq = seq;
	clretw__unlock(b);
}

/* Before a per-event probe: this thread's batched records go first. */
static inline void clretw__batch_sync(void)
{
	struct clretw__tbuf *b = clretw__tb;

	if (clretw__busy)
		return;
	if (b && (uint32_t)__atomic_load_n(&b->hs, __ATOMIC_RELAXED) != b->tail) {
		clretw__lock(b);
		clretw__flush_locked(b);
		clretw__unlock(b);
	}
}

/* Frames of the provider's own between the event's function and
 * clretw__batch_reserve that the walk leaves out (the tracepoint shim's
 * batched entry: its C function and its assembly entry). */
#ifndef CLRETW__BATCH_SKIP_FRAMES
#define CLRETW__BATCH_SKIP_FRAMES 0
#endif

/* Return addresses from fp up (fp: the frame of the function that called
 * the one walking), the first CLRETW__BATCH_SKIP_FRAMES left out, at most
 * PROV_BATCH_MAX_FRAMES, inside [lo, hi); the depth word: count,
 * PROV_BATCH_DEPTH_CUT if the chain went on. */
static inline __attribute__((always_inline)) uint64_t
clretw__walk(uint64_t *out, uintptr_t fp, uintptr_t lo, uintptr_t hi)
{
	uint32_t n = 0, skip = CLRETW__BATCH_SKIP_FRAMES;

	while (fp >= lo && fp + 16 <= hi && !(fp & 7)) {
		const uintptr_t *f = (const uintptr_t *)fp;

		if (!f[1])
			break;
		if (n == PROV_BATCH_MAX_FRAMES)
			return n | PROV_BATCH_DEPTH_CUT;
		if (skip)
			skip--;
		else
			out[n++] = f[1];
		if (f[0] <= fp)
			break;
		fp = f[0];
	}
	return n;
}

/* Room for an event of len payload bytes in this thread's buffer, its
 * header (and stack) written; the payload goes at the pointer returned,
 * then clretw__batch_commit().  NULL: fire the probe instead.  Not inlined:
 * its own frame's return address is the first frame of the stack. */
__attribute__((noinline)) static unsigned char *clretw__batch_reserve(unsigned idx, size_t len)
{
	struct clretw__tbuf *b = clretw__tb;
	/* clretw__act_set keeps its ids in the bits of their record flags */
	unsigned ids = clretw__act_set & (PROV_BATCH_F_ACTIVITY | PROV_BATCH_F_RELATED);
	unsigned stack = CLRETW__BATCH_CTL.mask[idx] & PROV_BATCH_STACK ? PROV_BATCH_F_STACK : 0;
	struct prov_batch_rec rec = { .index = (uint16_t)idx, .cpu = (uint16_t)sched_getcpu(),
				      .flags = (uint16_t)(ids | stack), .payload_len = (uint16_t)len };
	size_t fixed = sizeof(rec) + (ids & PROV_BATCH_F_ACTIVITY ? 16 : 0) +
		       (ids & PROV_BATCH_F_RELATED ? 16 : 0);
	size_t most = fixed + (stack ? 8 + 8 * PROV_BATCH_MAX_FRAMES : 0) + len + 7;
	uint32_t need, head;
	struct timespec ts;
	unsigned char *base, *r;

	if (len > PROV_BATCH_CAP || most > PROV_BATCH_CAP || clretw__busy)
		return NULL;
	clretw__busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__builtin_expect(!b, 0) && !(b = clretw__tb_new())) {
		clretw__busy = 0;
		return NULL;
	}
	if (__builtin_expect(clretw__flusher_pid == 0, 0))
		clretw__start_flusher();
	if (__builtin_expect(b->session != CLRETW__BATCH_CTL.h.session, 0))
		clretw__restart(b, CLRETW__BATCH_CTL.h.session);
	head = (uint32_t)b->hs;
	if (head + most > PROV_BATCH_CAP) {
		clretw__flush_full(b);
		head = 0;
	}
	base = r = b->data + head;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	rec.timestamp = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	memcpy(r, &rec, sizeof(rec));
	r += sizeof(rec);
	if (ids & PROV_BATCH_F_ACTIVITY) {
		memcpy(r, &clretw__act, 16);
		r += 16;
	}
	if (ids & PROV_BATCH_F_RELATED) {
		memcpy(r, &clretw__rel, 16);
		r += 16;
	}
	if (stack) {
		uint64_t depth = clretw__walk((uint64_t *)(r + 8),
					      (uintptr_t)__builtin_frame_address(0),
					      b->stack_lo, b->stack_hi);

		memcpy(r, &depth, 8);
		r += 8 + 8 * (uint32_t)depth;
	}
	need = (uint32_t)((r - base + len + 7) & ~(size_t)7);
	memset(r + len, 0, base + need - (r + len));	/* the padding */
	clretw__pend_hs = (((b->hs >> 32) + 1) << 32) | (head + need);
	return r;
}

static inline void clretw__batch_commit(void)
{
	__atomic_store_n(&clretw__tb->hs, clretw__pend_hs, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	clretw__busy = 0;
}

static size_t clretw__elen_BulkType_Values(const BulkType_Values *e)
{
	size_t n__ = 0;

	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += 1;
	n__ += clretw__wlen(e->Name);
	n__ += 4;
	n__ += clretw__arr((uint64_t)(e->TypeParameterCount), 8);
	(void)e;
	return n__;
}

static unsigned char *clretw__eput_BulkType_Values(unsigned char *p__, const BulkType_Values *e)
{
	uint64_t i__;

	p__ = clretw__u64(p__, (uint64_t)(e->TypeID));
	p__ = clretw__u64(p__, (uint64_t)(e->ModuleID));
	p__ = clretw__u32(p__, (uint32_t)(e->TypeNameID));
	p__ = clretw__u32(p__, (uint32_t)(e->Flags));
	p__ = clretw__u8(p__, (uint8_t)(e->CorElementType));
	p__ = clretw__wstr(p__, e->Name);
	p__ = clretw__u32(p__, (uint32_t)(e->TypeParameterCount));
	for (i__ = 0; i__ < (uint64_t)(e->TypeParameterCount); i__++)
		p__ = clretw__u64(p__, (uint64_t)(e->TypeParameters ? e->TypeParameters[i__] : 0));
	return p__;
}

size_t clretw_pack_BulkType_Values(void *buf, size_t cap, const BulkType_Values *elems, unsigned count)
{
	unsigned char *p = buf;
	size_t need = 0;
	unsigned i;

	for (i = 0; i < count; i++)
		need += clretw__elen_BulkType_Values(&elems[i]);
	if (!buf || need > cap)
		return need;
	for (i = 0; i < count; i++)
		p = clretw__eput_BulkType_Values(p, &elems[i]);
	return need;
}

/* ======== Microsoft-Windows-DotNETRuntime: USDT provider DotNETRuntime ======== */

/* template RuntimeInformation */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_RuntimeInformation(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	size_t n__ = 0;

	(void)ClrInstanceID;
	(void)Sku;
	(void)BclMajorVersion;
	(void)BclMinorVersion;
	(void)BclBuildNumber;
	(void)BclQfeNumber;
	(void)VMMajorVersion;
	(void)VMMinorVersion;
	(void)VMBuildNumber;
	(void)VMQfeNumber;
	(void)StartupFlags;
	(void)StartupMode;
	(void)CommandLine;
	(void)ComObjectGuid;
	(void)RuntimeDllPath;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 4;
	n__ += 1;
	n__ += clretw__wlen(CommandLine);
	n__ += 16;
	n__ += clretw__wlen(RuntimeDllPath);
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_RuntimeInformation(unsigned char *p__, 
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u16(p__, (uint16_t)(Sku));
	p__ = clretw__u16(p__, (uint16_t)(BclMajorVersion));
	p__ = clretw__u16(p__, (uint16_t)(BclMinorVersion));
	p__ = clretw__u16(p__, (uint16_t)(BclBuildNumber));
	p__ = clretw__u16(p__, (uint16_t)(BclQfeNumber));
	p__ = clretw__u16(p__, (uint16_t)(VMMajorVersion));
	p__ = clretw__u16(p__, (uint16_t)(VMMinorVersion));
	p__ = clretw__u16(p__, (uint16_t)(VMBuildNumber));
	p__ = clretw__u16(p__, (uint16_t)(VMQfeNumber));
	p__ = clretw__u32(p__, (uint32_t)(StartupFlags));
	p__ = clretw__u8(p__, (uint8_t)(StartupMode));
	p__ = clretw__wstr(p__, CommandLine);
	p__ = clretw__guid(p__, ComObjectGuid);
	p__ = clretw__wstr(p__, RuntimeDllPath);
	(void)p__;
}

/* template GCTriggered */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCTriggered(
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)Reason;
	(void)ClrInstanceID;
	n__ += 4;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCTriggered(unsigned char *p__, 
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u32(p__, (uint32_t)(Reason));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template GCStart_V2 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCStart_V2(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned int Reason,
	const unsigned int Type,
	const unsigned short ClrInstanceID,
	const unsigned long long ClientSequenceNumber)
{
	size_t n__ = 0;

	(void)Count;
	(void)Depth;
	(void)Reason;
	(void)Type;
	(void)ClrInstanceID;
	(void)ClientSequenceNumber;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	n__ += 8;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCStart_V2(unsigned char *p__, 
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned int Reason,
	const unsigned int Type,
	const unsigned short ClrInstanceID,
	const unsigned long long ClientSequenceNumber)
{
	p__ = clretw__u32(p__, (uint32_t)(Count));
	p__ = clretw__u32(p__, (uint32_t)(Depth));
	p__ = clretw__u32(p__, (uint32_t)(Reason));
	p__ = clretw__u32(p__, (uint32_t)(Type));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u64(p__, (uint64_t)(ClientSequenceNumber));
	(void)p__;
}

/* template GCEnd_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCEnd_V1(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)Count;
	(void)Depth;
	(void)ClrInstanceID;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCEnd_V1(unsigned char *p__, 
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u32(p__, (uint32_t)(Count));
	p__ = clretw__u32(p__, (uint32_t)(Depth));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template GCHeapStats_V2 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCHeapStats_V2(
	const unsigned long long GenerationSize0,
	const unsigned long long TotalPromotedSize0,
	const unsigned long long GenerationSize1,
	const unsigned long long TotalPromotedSize1,
	const unsigned long long GenerationSize2,
	const unsigned long long TotalPromotedSize2,
	const unsigned long long GenerationSize3,
	const unsigned long long TotalPromotedSize3,
	const unsigned long long FinalizationPromotedSize,
	const unsigned long long FinalizationPromotedCount,
	const unsigned int PinnedObjectCount,
	const unsigned int SinkBlockCount,
	const unsigned int GCHandleCount,
	const unsigned short ClrInstanceID,
	const unsigned long long GenerationSize4,
	const unsigned long long TotalPromotedSize4)
{
	size_t n__ = 0;

	(void)GenerationSize0;
	(void)TotalPromotedSize0;
	(void)GenerationSize1;
	(void)TotalPromotedSize1;
	(void)GenerationSize2;
	(void)TotalPromotedSize2;
	(void)GenerationSize3;
	(void)TotalPromotedSize3;
	(void)FinalizationPromotedSize;
	(void)FinalizationPromotedCount;
	(void)PinnedObjectCount;
	(void)SinkBlockCount;
	(void)GCHandleCount;
	(void)ClrInstanceID;
	(void)GenerationSize4;
	(void)TotalPromotedSize4;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	n__ += 8;
	n__ += 8;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCHeapStats_V2(unsigned char *p__, 
	const unsigned long long GenerationSize0,
	const unsigned long long TotalPromotedSize0,
	const unsigned long long GenerationSize1,
	const unsigned long long TotalPromotedSize1,
	const unsigned long long GenerationSize2,
	const unsigned long long TotalPromotedSize2,
	const unsigned long long GenerationSize3,
	const unsigned long long TotalPromotedSize3,
	const unsigned long long FinalizationPromotedSize,
	const unsigned long long FinalizationPromotedCount,
	const unsigned int PinnedObjectCount,
	const unsigned int SinkBlockCount,
	const unsigned int GCHandleCount,
	const unsigned short ClrInstanceID,
	const unsigned long long GenerationSize4,
	const unsigned long long TotalPromotedSize4)
{
	p__ = clretw__u64(p__, (uint64_t)(GenerationSize0));
	p__ = clretw__u64(p__, (uint64_t)(TotalPromotedSize0));
	p__ = clretw__u64(p__, (uint64_t)(GenerationSize1));
	p__ = clretw__u64(p__, (uint64_t)(TotalPromotedSize1));
	p__ = clretw__u64(p__, (uint64_t)(GenerationSize2));
	p__ = clretw__u64(p__, (uint64_t)(TotalPromotedSize2));
	p__ = clretw__u64(p__, (uint64_t)(GenerationSize3));
	p__ = clretw__u64(p__, (uint64_t)(TotalPromotedSize3));
	p__ = clretw__u64(p__, (uint64_t)(FinalizationPromotedSize));
	p__ = clretw__u64(p__, (uint64_t)(FinalizationPromotedCount));
	p__ = clretw__u32(p__, (uint32_t)(PinnedObjectCount));
	p__ = clretw__u32(p__, (uint32_t)(SinkBlockCount));
	p__ = clretw__u32(p__, (uint32_t)(GCHandleCount));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u64(p__, (uint64_t)(GenerationSize4));
	p__ = clretw__u64(p__, (uint64_t)(TotalPromotedSize4));
	(void)p__;
}

/* template GCAllocationTick_V2 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCAllocationTick_V2(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex)
{
	size_t n__ = 0;

	(void)AllocationAmount;
	(void)AllocationKind;
	(void)ClrInstanceID;
	(void)AllocationAmount64;
	(void)TypeID;
	(void)TypeName;
	(void)HeapIndex;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	n__ += 8;
	n__ += 8;
	n__ += clretw__wlen(TypeName);
	n__ += 4;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCAllocationTick_V2(unsigned char *p__, 
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex)
{
	p__ = clretw__u32(p__, (uint32_t)(AllocationAmount));
	p__ = clretw__u32(p__, (uint32_t)(AllocationKind));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u64(p__, (uint64_t)(AllocationAmount64));
	p__ = clretw__u64(p__, (uint64_t)(uintptr_t)(TypeID));
	p__ = clretw__wstr(p__, TypeName);
	p__ = clretw__u32(p__, (uint32_t)(HeapIndex));
	(void)p__;
}

/* template GCAllocationTick_V3 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCAllocationTick_V3(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex,
	const void* Address)
{
	size_t n__ = 0;

	(void)AllocationAmount;
	(void)AllocationKind;
	(void)ClrInstanceID;
	(void)AllocationAmount64;
	(void)TypeID;
	(void)TypeName;
	(void)HeapIndex;
	(void)Address;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	n__ += 8;
	n__ += 8;
	n__ += clretw__wlen(TypeName);
	n__ += 4;
	n__ += 8;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCAllocationTick_V3(unsigned char *p__, 
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex,
	const void* Address)
{
	p__ = clretw__u32(p__, (uint32_t)(AllocationAmount));
	p__ = clretw__u32(p__, (uint32_t)(AllocationKind));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u64(p__, (uint64_t)(AllocationAmount64));
	p__ = clretw__u64(p__, (uint64_t)(uintptr_t)(TypeID));
	p__ = clretw__wstr(p__, TypeName);
	p__ = clretw__u32(p__, (uint32_t)(HeapIndex));
	p__ = clretw__u64(p__, (uint64_t)(uintptr_t)(Address));
	(void)p__;
}

/* template GCSuspendEE_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCSuspendEE_V1(
	const unsigned int Reason,
	const unsigned int Count,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)Reason;
	(void)Count;
	(void)ClrInstanceID;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCSuspendEE_V1(unsigned char *p__, 
	const unsigned int Reason,
	const unsigned int Count,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u32(p__, (uint32_t)(Reason));
	p__ = clretw__u32(p__, (uint32_t)(Count));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template GCNoUserData */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCNoUserData(
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)ClrInstanceID;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCNoUserData(unsigned char *p__, 
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template GCGlobalHeap_V3 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCGlobalHeap_V3(
	const unsigned long long FinalYoungestDesired,
	const signed int NumHeaps,
	const unsigned int CondemnedGeneration,
	const unsigned int Gen0ReductionCount,
	const unsigned int Reason,
	const unsigned int GlobalMechanisms,
	const unsigned short ClrInstanceID,
	const unsigned int PauseMode,
	const unsigned int MemoryPressure,
	const unsigned int CondemnReasons0,
	const unsigned int CondemnReasons1)
{
	size_t n__ = 0;

	(void)FinalYoungestDesired;
	(void)NumHeaps;
	(void)CondemnedGeneration;
	(void)Gen0ReductionCount;
	(void)Reason;
	(void)GlobalMechanisms;
	(void)ClrInstanceID;
	(void)PauseMode;
	(void)MemoryPressure;
	(void)CondemnReasons0;
	(void)CondemnReasons1;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCGlobalHeap_V3(unsigned char *p__, 
	const unsigned long long FinalYoungestDesired,
	const signed int NumHeaps,
	const unsigned int CondemnedGeneration,
	const unsigned int Gen0ReductionCount,
	const unsigned int Reason,
	const unsigned int GlobalMechanisms,
	const unsigned short ClrInstanceID,
	const unsigned int PauseMode,
	const unsigned int MemoryPressure,
	const unsigned int CondemnReasons0,
	const unsigned int CondemnReasons1)
{
	p__ = clretw__u64(p__, (uint64_t)(FinalYoungestDesired));
	p__ = clretw__u32(p__, (uint32_t)(NumHeaps));
	p__ = clretw__u32(p__, (uint32_t)(CondemnedGeneration));
	p__ = clretw__u32(p__, (uint32_t)(Gen0ReductionCount));
	p__ = clretw__u32(p__, (uint32_t)(Reason));
	p__ = clretw__u32(p__, (uint32_t)(GlobalMechanisms));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u32(p__, (uint32_t)(PauseMode));
	p__ = clretw__u32(p__, (uint32_t)(MemoryPressure));
	p__ = clretw__u32(p__, (uint32_t)(CondemnReasons0));
	p__ = clretw__u32(p__, (uint32_t)(CondemnReasons1));
	(void)p__;
}

/* template GCDynamicEvent */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_GCDynamicEvent(
	PCWSTR Name,
	const unsigned int DataSize,
	const BYTE* Data,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)Name;
	(void)DataSize;
	(void)Data;
	(void)ClrInstanceID;
	n__ += clretw__wlen(Name);
	n__ += 4;
	n__ += clretw__arr((uint64_t)(DataSize), 1);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_GCDynamicEvent(unsigned char *p__, 
	PCWSTR Name,
	const unsigned int DataSize,
	const BYTE* Data,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__wstr(p__, Name);
	p__ = clretw__u32(p__, (uint32_t)(DataSize));
	p__ = clretw__bytes(p__, Data, (size_t)(DataSize));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template BulkType */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_BulkType(
	const unsigned int Count,
	const unsigned short ClrInstanceID,
	int Values_ElementSize,
	const void* Values)
{
	size_t n__ = 0;

	(void)Count;
	(void)ClrInstanceID;
	(void)Values_ElementSize;
	(void)Values;
	n__ += 4;
	n__ += 2;
	n__ += (size_t)Values_ElementSize;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_BulkType(unsigned char *p__, 
	const unsigned int Count,
	const unsigned short ClrInstanceID,
	int Values_ElementSize,
	const void* Values)
{
	(void)Values_ElementSize;
	p__ = clretw__u32(p__, (uint32_t)(Count));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__bytes(p__, Values, (size_t)Values_ElementSize);
	(void)p__;
}

/* template MethodJittingStarted_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_MethodJittingStarted_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned int MethodToken,
	const unsigned int MethodILSize,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)MethodID;
	(void)ModuleID;
	(void)MethodToken;
	(void)MethodILSize;
	(void)MethodNamespace;
	(void)MethodName;
	(void)MethodSignature;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += clretw__wlen(MethodNamespace);
	n__ += clretw__wlen(MethodName);
	n__ += clretw__wlen(MethodSignature);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_MethodJittingStarted_V1(unsigned char *p__, 
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned int MethodToken,
	const unsigned int MethodILSize,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(MethodID));
	p__ = clretw__u64(p__, (uint64_t)(ModuleID));
	p__ = clretw__u32(p__, (uint32_t)(MethodToken));
	p__ = clretw__u32(p__, (uint32_t)(MethodILSize));
	p__ = clretw__wstr(p__, MethodNamespace);
	p__ = clretw__wstr(p__, MethodName);
	p__ = clretw__wstr(p__, MethodSignature);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template MethodLoadUnload_V2 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_MethodLoadUnload_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	size_t n__ = 0;

	(void)MethodID;
	(void)ModuleID;
	(void)MethodStartAddress;
	(void)MethodSize;
	(void)MethodToken;
	(void)MethodFlags;
	(void)ClrInstanceID;
	(void)ReJITID;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	n__ += 8;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_MethodLoadUnload_V2(unsigned char *p__, 
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	p__ = clretw__u64(p__, (uint64_t)(MethodID));
	p__ = clretw__u64(p__, (uint64_t)(ModuleID));
	p__ = clretw__u64(p__, (uint64_t)(MethodStartAddress));
	p__ = clretw__u32(p__, (uint32_t)(MethodSize));
	p__ = clretw__u32(p__, (uint32_t)(MethodToken));
	p__ = clretw__u32(p__, (uint32_t)(MethodFlags));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u64(p__, (uint64_t)(ReJITID));
	(void)p__;
}

/* template MethodLoadUnloadVerbose_V2 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_MethodLoadUnloadVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	size_t n__ = 0;

	(void)MethodID;
	(void)ModuleID;
	(void)MethodStartAddress;
	(void)MethodSize;
	(void)MethodToken;
	(void)MethodFlags;
	(void)MethodNamespace;
	(void)MethodName;
	(void)MethodSignature;
	(void)ClrInstanceID;
	(void)ReJITID;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += clretw__wlen(MethodNamespace);
	n__ += clretw__wlen(MethodName);
	n__ += clretw__wlen(MethodSignature);
	n__ += 2;
	n__ += 8;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_MethodLoadUnloadVerbose_V2(unsigned char *p__, 
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	p__ = clretw__u64(p__, (uint64_t)(MethodID));
	p__ = clretw__u64(p__, (uint64_t)(ModuleID));
	p__ = clretw__u64(p__, (uint64_t)(MethodStartAddress));
	p__ = clretw__u32(p__, (uint32_t)(MethodSize));
	p__ = clretw__u32(p__, (uint32_t)(MethodToken));
	p__ = clretw__u32(p__, (uint32_t)(MethodFlags));
	p__ = clretw__wstr(p__, MethodNamespace);
	p__ = clretw__wstr(p__, MethodName);
	p__ = clretw__wstr(p__, MethodSignature);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u64(p__, (uint64_t)(ReJITID));
	(void)p__;
}

/* template MethodILToNativeMap */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_MethodILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)MethodID;
	(void)ReJITID;
	(void)MethodExtent;
	(void)CountOfMapEntries;
	(void)ILOffsets;
	(void)NativeOffsets;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 1;
	n__ += 2;
	n__ += clretw__arr((uint64_t)(CountOfMapEntries), 4);
	n__ += clretw__arr((uint64_t)(CountOfMapEntries), 4);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_MethodILToNativeMap(unsigned char *p__, 
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	uint64_t i__;

	p__ = clretw__u64(p__, (uint64_t)(MethodID));
	p__ = clretw__u64(p__, (uint64_t)(ReJITID));
	p__ = clretw__u8(p__, (uint8_t)(MethodExtent));
	p__ = clretw__u16(p__, (uint16_t)(CountOfMapEntries));
	for (i__ = 0; i__ < (uint64_t)(CountOfMapEntries); i__++)
		p__ = clretw__u32(p__, (uint32_t)(ILOffsets ? ILOffsets[i__] : 0));
	for (i__ = 0; i__ < (uint64_t)(CountOfMapEntries); i__++)
		p__ = clretw__u32(p__, (uint32_t)(NativeOffsets ? NativeOffsets[i__] : 0));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ModuleLoadUnload_V2 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ModuleLoadUnload_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	size_t n__ = 0;

	(void)ModuleID;
	(void)AssemblyID;
	(void)ModuleFlags;
	(void)Reserved1;
	(void)ModuleILPath;
	(void)ModuleNativePath;
	(void)ClrInstanceID;
	(void)ManagedPdbSignature;
	(void)ManagedPdbAge;
	(void)ManagedPdbBuildPath;
	(void)NativePdbSignature;
	(void)NativePdbAge;
	(void)NativePdbBuildPath;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += clretw__wlen(ModuleILPath);
	n__ += clretw__wlen(ModuleNativePath);
	n__ += 2;
	n__ += 16;
	n__ += 4;
	n__ += clretw__wlen(ManagedPdbBuildPath);
	n__ += 16;
	n__ += 4;
	n__ += clretw__wlen(NativePdbBuildPath);
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ModuleLoadUnload_V2(unsigned char *p__, 
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	p__ = clretw__u64(p__, (uint64_t)(ModuleID));
	p__ = clretw__u64(p__, (uint64_t)(AssemblyID));
	p__ = clretw__u32(p__, (uint32_t)(ModuleFlags));
	p__ = clretw__u32(p__, (uint32_t)(Reserved1));
	p__ = clretw__wstr(p__, ModuleILPath);
	p__ = clretw__wstr(p__, ModuleNativePath);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__guid(p__, ManagedPdbSignature);
	p__ = clretw__u32(p__, (uint32_t)(ManagedPdbAge));
	p__ = clretw__wstr(p__, ManagedPdbBuildPath);
	p__ = clretw__guid(p__, NativePdbSignature);
	p__ = clretw__u32(p__, (uint32_t)(NativePdbAge));
	p__ = clretw__wstr(p__, NativePdbBuildPath);
	(void)p__;
}

/* template AssemblyLoadUnload_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_AssemblyLoadUnload_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)AssemblyID;
	(void)AppDomainID;
	(void)BindingID;
	(void)AssemblyFlags;
	(void)FullyQualifiedAssemblyName;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += clretw__wlen(FullyQualifiedAssemblyName);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_AssemblyLoadUnload_V1(unsigned char *p__, 
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(AssemblyID));
	p__ = clretw__u64(p__, (uint64_t)(AppDomainID));
	p__ = clretw__u64(p__, (uint64_t)(BindingID));
	p__ = clretw__u32(p__, (uint32_t)(AssemblyFlags));
	p__ = clretw__wstr(p__, FullyQualifiedAssemblyName);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template DomainModuleLoadUnload_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_DomainModuleLoadUnload_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)ModuleID;
	(void)AssemblyID;
	(void)AppDomainID;
	(void)ModuleFlags;
	(void)Reserved1;
	(void)ModuleILPath;
	(void)ModuleNativePath;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += clretw__wlen(ModuleILPath);
	n__ += clretw__wlen(ModuleNativePath);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_DomainModuleLoadUnload_V1(unsigned char *p__, 
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(ModuleID));
	p__ = clretw__u64(p__, (uint64_t)(AssemblyID));
	p__ = clretw__u64(p__, (uint64_t)(AppDomainID));
	p__ = clretw__u32(p__, (uint32_t)(ModuleFlags));
	p__ = clretw__u32(p__, (uint32_t)(Reserved1));
	p__ = clretw__wstr(p__, ModuleILPath);
	p__ = clretw__wstr(p__, ModuleNativePath);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template AppDomainLoadUnload_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_AppDomainLoadUnload_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)AppDomainID;
	(void)AppDomainFlags;
	(void)AppDomainName;
	(void)AppDomainIndex;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 4;
	n__ += clretw__wlen(AppDomainName);
	n__ += 4;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_AppDomainLoadUnload_V1(unsigned char *p__, 
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(AppDomainID));
	p__ = clretw__u32(p__, (uint32_t)(AppDomainFlags));
	p__ = clretw__wstr(p__, AppDomainName);
	p__ = clretw__u32(p__, (uint32_t)(AppDomainIndex));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template Exception */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_Exception(
	PCWSTR ExceptionType,
	PCWSTR ExceptionMessage,
	const void* ExceptionEIP,
	const unsigned int ExceptionHRESULT,
	const unsigned short ExceptionFlags,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)ExceptionType;
	(void)ExceptionMessage;
	(void)ExceptionEIP;
	(void)ExceptionHRESULT;
	(void)ExceptionFlags;
	(void)ClrInstanceID;
	n__ += clretw__wlen(ExceptionType);
	n__ += clretw__wlen(ExceptionMessage);
	n__ += 8;
	n__ += 4;
	n__ += 2;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_Exception(unsigned char *p__, 
	PCWSTR ExceptionType,
	PCWSTR ExceptionMessage,
	const void* ExceptionEIP,
	const unsigned int ExceptionHRESULT,
	const unsigned short ExceptionFlags,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__wstr(p__, ExceptionType);
	p__ = clretw__wstr(p__, ExceptionMessage);
	p__ = clretw__u64(p__, (uint64_t)(uintptr_t)(ExceptionEIP));
	p__ = clretw__u32(p__, (uint32_t)(ExceptionHRESULT));
	p__ = clretw__u16(p__, (uint16_t)(ExceptionFlags));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ExceptionHandling */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ExceptionHandling(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)EntryEIP;
	(void)MethodID;
	(void)MethodName;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += clretw__wlen(MethodName);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ExceptionHandling(unsigned char *p__, 
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(EntryEIP));
	p__ = clretw__u64(p__, (uint64_t)(MethodID));
	p__ = clretw__wstr(p__, MethodName);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template Contention */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_Contention(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)ContentionFlags;
	(void)ClrInstanceID;
	n__ += 1;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_Contention(unsigned char *p__, 
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u8(p__, (uint8_t)(ContentionFlags));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ContentionStop_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ContentionStop_V1(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID,
	const double DurationNs)
{
	size_t n__ = 0;

	(void)ContentionFlags;
	(void)ClrInstanceID;
	(void)DurationNs;
	n__ += 1;
	n__ += 2;
	n__ += 8;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ContentionStop_V1(unsigned char *p__, 
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID,
	const double DurationNs)
{
	p__ = clretw__u8(p__, (uint8_t)(ContentionFlags));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__f64(p__, DurationNs);
	(void)p__;
}

/* template ThreadPoolWorkerThread */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ThreadPoolWorkerThread(
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)ActiveWorkerThreadCount;
	(void)RetiredWorkerThreadCount;
	(void)ClrInstanceID;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ThreadPoolWorkerThread(unsigned char *p__, 
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u32(p__, (uint32_t)(ActiveWorkerThreadCount));
	p__ = clretw__u32(p__, (uint32_t)(RetiredWorkerThreadCount));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ThreadPoolWorkerThreadAdjustmentSample */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentSample(
	const double Throughput,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)Throughput;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentSample(unsigned char *p__, 
	const double Throughput,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__f64(p__, Throughput);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ThreadPoolWorkerThreadAdjustmentAdjustment */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentAdjustment(
	const double AverageThroughput,
	const unsigned int NewWorkerThreadCount,
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)AverageThroughput;
	(void)NewWorkerThreadCount;
	(void)Reason;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentAdjustment(unsigned char *p__, 
	const double AverageThroughput,
	const unsigned int NewWorkerThreadCount,
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__f64(p__, AverageThroughput);
	p__ = clretw__u32(p__, (uint32_t)(NewWorkerThreadCount));
	p__ = clretw__u32(p__, (uint32_t)(Reason));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ThreadPoolWorkerThreadAdjustmentStats */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentStats(
	const double Duration,
	const double Throughput,
	const double ThreadWave,
	const double ThroughputWave,
	const double ThroughputErrorEstimate,
	const double AverageThroughputErrorEstimate,
	const double ThroughputRatio,
	const double Confidence,
	const double NewControlSetting,
	const unsigned short NewThreadWaveMagnitude,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)Duration;
	(void)Throughput;
	(void)ThreadWave;
	(void)ThroughputWave;
	(void)ThroughputErrorEstimate;
	(void)AverageThroughputErrorEstimate;
	(void)ThroughputRatio;
	(void)Confidence;
	(void)NewControlSetting;
	(void)NewThreadWaveMagnitude;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 2;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentStats(unsigned char *p__, 
	const double Duration,
	const double Throughput,
	const double ThreadWave,
	const double ThroughputWave,
	const double ThroughputErrorEstimate,
	const double AverageThroughputErrorEstimate,
	const double ThroughputRatio,
	const double Confidence,
	const double NewControlSetting,
	const unsigned short NewThreadWaveMagnitude,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__f64(p__, Duration);
	p__ = clretw__f64(p__, Throughput);
	p__ = clretw__f64(p__, ThreadWave);
	p__ = clretw__f64(p__, ThroughputWave);
	p__ = clretw__f64(p__, ThroughputErrorEstimate);
	p__ = clretw__f64(p__, AverageThroughputErrorEstimate);
	p__ = clretw__f64(p__, ThroughputRatio);
	p__ = clretw__f64(p__, Confidence);
	p__ = clretw__f64(p__, NewControlSetting);
	p__ = clretw__u16(p__, (uint16_t)(NewThreadWaveMagnitude));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ThreadCreated */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ThreadCreated(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned int Flags,
	const unsigned int ManagedThreadIndex,
	const unsigned int OSThreadID,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)ManagedThreadID;
	(void)AppDomainID;
	(void)Flags;
	(void)ManagedThreadIndex;
	(void)OSThreadID;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ThreadCreated(unsigned char *p__, 
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned int Flags,
	const unsigned int ManagedThreadIndex,
	const unsigned int OSThreadID,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(ManagedThreadID));
	p__ = clretw__u64(p__, (uint64_t)(AppDomainID));
	p__ = clretw__u32(p__, (uint32_t)(Flags));
	p__ = clretw__u32(p__, (uint32_t)(ManagedThreadIndex));
	p__ = clretw__u32(p__, (uint32_t)(OSThreadID));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ThreadTerminatedOrTransition */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ThreadTerminatedOrTransition(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)ManagedThreadID;
	(void)AppDomainID;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ThreadTerminatedOrTransition(unsigned char *p__, 
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(ManagedThreadID));
	p__ = clretw__u64(p__, (uint64_t)(AppDomainID));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ClrStackWalk */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntime_ClrStackWalk(
	const unsigned short ClrInstanceID,
	const unsigned char Reserved1,
	const unsigned char Reserved2,
	const unsigned int FrameCount,
	const void** Stack)
{
	size_t n__ = 0;

	(void)ClrInstanceID;
	(void)Reserved1;
	(void)Reserved2;
	(void)FrameCount;
	(void)Stack;
	n__ += 2;
	n__ += 1;
	n__ += 1;
	n__ += 4;
	n__ += clretw__arr((uint64_t)(FrameCount), 8);
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntime_ClrStackWalk(unsigned char *p__, 
	const unsigned short ClrInstanceID,
	const unsigned char Reserved1,
	const unsigned char Reserved2,
	const unsigned int FrameCount,
	const void** Stack)
{
	uint64_t i__;

	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u8(p__, (uint8_t)(Reserved1));
	p__ = clretw__u8(p__, (uint8_t)(Reserved2));
	p__ = clretw__u32(p__, (uint32_t)(FrameCount));
	for (i__ = 0; i__ < (uint64_t)(FrameCount); i__++)
		p__ = clretw__u64(p__, (uint64_t)(uintptr_t)(Stack ? Stack[i__] : 0));
	(void)p__;
}

unsigned short DotNETRuntime_RuntimeInformationStart_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_RuntimeInformationStart(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_RuntimeInformation(ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(0)) {
		unsigned char *p__ = clretw__batch_reserve(0, len__);

		if (p__) {
			clretw__put_DotNETRuntime_RuntimeInformation(p__, ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
			CLRETW__BATCH_DONE(DotNETRuntime, RuntimeInformationStart, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_RuntimeInformation(buf__, ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
	CLRETW__PROBE(DotNETRuntime, RuntimeInformationStart, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatRuntimeInformationStart(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	if (!EventXplatEnabledRuntimeInformationStart())
		return ERROR_SUCCESS;
	return clretw__fire_RuntimeInformationStart(ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
}

unsigned short DotNETRuntime_GCTriggered_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCTriggered(
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[6];

	if (CLRETW__BATCHED(1)) {
		unsigned char *p__ = clretw__batch_reserve(1, 6);

		if (p__) {
			clretw__put_DotNETRuntime_GCTriggered(p__, Reason, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, GCTriggered, p__, 6);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_GCTriggered(buf__, Reason, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, GCTriggered, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCTriggered(
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledGCTriggered())
		return ERROR_SUCCESS;
	return clretw__fire_GCTriggered(Reason, ClrInstanceID);
}

unsigned short DotNETRuntime_GCStart_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCStart_V2(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned int Reason,
	const unsigned int Type,
	const unsigned short ClrInstanceID,
	const unsigned long long ClientSequenceNumber)
{
	unsigned char buf__[26];

	if (CLRETW__BATCHED(2)) {
		unsigned char *p__ = clretw__batch_reserve(2, 26);

		if (p__) {
			clretw__put_DotNETRuntime_GCStart_V2(p__, Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber);
			CLRETW__BATCH_DONE(DotNETRuntime, GCStart_V2, p__, 26);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_GCStart_V2(buf__, Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber);
	CLRETW__PROBE(DotNETRuntime, GCStart_V2, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCStart_V2(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned int Reason,
	const unsigned int Type,
	const unsigned short ClrInstanceID,
	const unsigned long long ClientSequenceNumber)
{
	if (!EventXplatEnabledGCStart_V2())
		return ERROR_SUCCESS;
	return clretw__fire_GCStart_V2(Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber);
}

unsigned short DotNETRuntime_GCEnd_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCEnd_V1(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[10];

	if (CLRETW__BATCHED(3)) {
		unsigned char *p__ = clretw__batch_reserve(3, 10);

		if (p__) {
			clretw__put_DotNETRuntime_GCEnd_V1(p__, Count, Depth, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, GCEnd_V1, p__, 10);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_GCEnd_V1(buf__, Count, Depth, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, GCEnd_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCEnd_V1(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledGCEnd_V1())
		return ERROR_SUCCESS;
	return clretw__fire_GCEnd_V1(Count, Depth, ClrInstanceID);
}

unsigned short DotNETRuntime_GCHeapStats_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCHeapStats_V2(
	const unsigned long long GenerationSize0,
	const unsigned long long TotalPromotedSize0,
	const unsigned long long GenerationSize1,
	const unsigned long long TotalPromotedSize1,
	const unsigned long long GenerationSize2,
	const unsigned long long TotalPromotedSize2,
	const unsigned long long GenerationSize3,
	const unsigned long long TotalPromotedSize3,
	const unsigned long long FinalizationPromotedSize,
	const unsigned long long FinalizationPromotedCount,
	const unsigned int PinnedObjectCount,
	const unsigned int SinkBlockCount,
	const unsigned int GCHandleCount,
	const unsigned short ClrInstanceID,
	const unsigned long long GenerationSize4,
	const unsigned long long TotalPromotedSize4)
{
	unsigned char buf__[110];

	if (CLRETW__BATCHED(4)) {
		unsigned char *p__ = clretw__batch_reserve(4, 110);

		if (p__) {
			clretw__put_DotNETRuntime_GCHeapStats_V2(p__, GenerationSize0, TotalPromotedSize0, GenerationSize1, TotalPromotedSize1, GenerationSize2, TotalPromotedSize2, GenerationSize3, TotalPromotedSize3, FinalizationPromotedSize, FinalizationPromotedCount, PinnedObjectCount, SinkBlockCount, GCHandleCount, ClrInstanceID, GenerationSize4, TotalPromotedSize4);
			CLRETW__BATCH_DONE(DotNETRuntime, GCHeapStats_V2, p__, 110);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_GCHeapStats_V2(buf__, GenerationSize0, TotalPromotedSize0, GenerationSize1, TotalPromotedSize1, GenerationSize2, TotalPromotedSize2, GenerationSize3, TotalPromotedSize3, FinalizationPromotedSize, FinalizationPromotedCount, PinnedObjectCount, SinkBlockCount, GCHandleCount, ClrInstanceID, GenerationSize4, TotalPromotedSize4);
	CLRETW__PROBE(DotNETRuntime, GCHeapStats_V2, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCHeapStats_V2(
	const unsigned long long GenerationSize0,
	const unsigned long long TotalPromotedSize0,
	const unsigned long long GenerationSize1,
	const unsigned long long TotalPromotedSize1,
	const unsigned long long GenerationSize2,
	const unsigned long long TotalPromotedSize2,
	const unsigned long long GenerationSize3,
	const unsigned long long TotalPromotedSize3,
	const unsigned long long FinalizationPromotedSize,
	const unsigned long long FinalizationPromotedCount,
	const unsigned int PinnedObjectCount,
	const unsigned int SinkBlockCount,
	const unsigned int GCHandleCount,
	const unsigned short ClrInstanceID,
	const unsigned long long GenerationSize4,
	const unsigned long long TotalPromotedSize4)
{
	if (!EventXplatEnabledGCHeapStats_V2())
		return ERROR_SUCCESS;
	return clretw__fire_GCHeapStats_V2(GenerationSize0, TotalPromotedSize0, GenerationSize1, TotalPromotedSize1, GenerationSize2, TotalPromotedSize2, GenerationSize3, TotalPromotedSize3, FinalizationPromotedSize, FinalizationPromotedCount, PinnedObjectCount, SinkBlockCount, GCHandleCount, ClrInstanceID, GenerationSize4, TotalPromotedSize4);
}

unsigned short DotNETRuntime_GCAllocationTick_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCAllocationTick_V2(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_GCAllocationTick_V2(AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(5)) {
		unsigned char *p__ = clretw__batch_reserve(5, len__);

		if (p__) {
			clretw__put_DotNETRuntime_GCAllocationTick_V2(p__, AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex);
			CLRETW__BATCH_DONE(DotNETRuntime, GCAllocationTick_V2, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_GCAllocationTick_V2(buf__, AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex);
	CLRETW__PROBE(DotNETRuntime, GCAllocationTick_V2, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCAllocationTick_V2(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex)
{
	if (!EventXplatEnabledGCAllocationTick_V2())
		return ERROR_SUCCESS;
	return clretw__fire_GCAllocationTick_V2(AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex);
}

unsigned short DotNETRuntime_GCAllocationTick_V3_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCAllocationTick_V3(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex,
	const void* Address)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_GCAllocationTick_V3(AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex, Address);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(6)) {
		unsigned char *p__ = clretw__batch_reserve(6, len__);

		if (p__) {
			clretw__put_DotNETRuntime_GCAllocationTick_V3(p__, AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex, Address);
			CLRETW__BATCH_DONE(DotNETRuntime, GCAllocationTick_V3, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_GCAllocationTick_V3(buf__, AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex, Address);
	CLRETW__PROBE(DotNETRuntime, GCAllocationTick_V3, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCAllocationTick_V3(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex,
	const void* Address)
{
	if (!EventXplatEnabledGCAllocationTick_V3())
		return ERROR_SUCCESS;
	return clretw__fire_GCAllocationTick_V3(AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex, Address);
}

unsigned short DotNETRuntime_GCSuspendEEBegin_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCSuspendEEBegin_V1(
	const unsigned int Reason,
	const unsigned int Count,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[10];

	if (CLRETW__BATCHED(7)) {
		unsigned char *p__ = clretw__batch_reserve(7, 10);

		if (p__) {
			clretw__put_DotNETRuntime_GCSuspendEE_V1(p__, Reason, Count, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, GCSuspendEEBegin_V1, p__, 10);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_GCSuspendEE_V1(buf__, Reason, Count, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, GCSuspendEEBegin_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCSuspendEEBegin_V1(
	const unsigned int Reason,
	const unsigned int Count,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledGCSuspendEEBegin_V1())
		return ERROR_SUCCESS;
	return clretw__fire_GCSuspendEEBegin_V1(Reason, Count, ClrInstanceID);
}

unsigned short DotNETRuntime_GCSuspendEEEnd_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCSuspendEEEnd_V1(
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[2];

	if (CLRETW__BATCHED(8)) {
		unsigned char *p__ = clretw__batch_reserve(8, 2);

		if (p__) {
			clretw__put_DotNETRuntime_GCNoUserData(p__, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, GCSuspendEEEnd_V1, p__, 2);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_GCNoUserData(buf__, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, GCSuspendEEEnd_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCSuspendEEEnd_V1(
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledGCSuspendEEEnd_V1())
		return ERROR_SUCCESS;
	return clretw__fire_GCSuspendEEEnd_V1(ClrInstanceID);
}

unsigned short DotNETRuntime_GCRestartEEBegin_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCRestartEEBegin_V1(
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[2];

	if (CLRETW__BATCHED(9)) {
		unsigned char *p__ = clretw__batch_reserve(9, 2);

		if (p__) {
			clretw__put_DotNETRuntime_GCNoUserData(p__, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, GCRestartEEBegin_V1, p__, 2);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_GCNoUserData(buf__, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, GCRestartEEBegin_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCRestartEEBegin_V1(
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledGCRestartEEBegin_V1())
		return ERROR_SUCCESS;
	return clretw__fire_GCRestartEEBegin_V1(ClrInstanceID);
}

unsigned short DotNETRuntime_GCRestartEEEnd_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCRestartEEEnd_V1(
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[2];

	if (CLRETW__BATCHED(10)) {
		unsigned char *p__ = clretw__batch_reserve(10, 2);

		if (p__) {
			clretw__put_DotNETRuntime_GCNoUserData(p__, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, GCRestartEEEnd_V1, p__, 2);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_GCNoUserData(buf__, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, GCRestartEEEnd_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCRestartEEEnd_V1(
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledGCRestartEEEnd_V1())
		return ERROR_SUCCESS;
	return clretw__fire_GCRestartEEEnd_V1(ClrInstanceID);
}

unsigned short DotNETRuntime_GCGlobalHeapHistory_V3_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCGlobalHeapHistory_V3(
	const unsigned long long FinalYoungestDesired,
	const signed int NumHeaps,
	const unsigned int CondemnedGeneration,
	const unsigned int Gen0ReductionCount,
	const unsigned int Reason,
	const unsigned int GlobalMechanisms,
	const unsigned short ClrInstanceID,
	const unsigned int PauseMode,
	const unsigned int MemoryPressure,
	const unsigned int CondemnReasons0,
	const unsigned int CondemnReasons1)
{
	unsigned char buf__[46];

	if (CLRETW__BATCHED(11)) {
		unsigned char *p__ = clretw__batch_reserve(11, 46);

		if (p__) {
			clretw__put_DotNETRuntime_GCGlobalHeap_V3(p__, FinalYoungestDesired, NumHeaps, CondemnedGeneration, Gen0ReductionCount, Reason, GlobalMechanisms, ClrInstanceID, PauseMode, MemoryPressure, CondemnReasons0, CondemnReasons1);
			CLRETW__BATCH_DONE(DotNETRuntime, GCGlobalHeapHistory_V3, p__, 46);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_GCGlobalHeap_V3(buf__, FinalYoungestDesired, NumHeaps, CondemnedGeneration, Gen0ReductionCount, Reason, GlobalMechanisms, ClrInstanceID, PauseMode, MemoryPressure, CondemnReasons0, CondemnReasons1);
	CLRETW__PROBE(DotNETRuntime, GCGlobalHeapHistory_V3, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCGlobalHeapHistory_V3(
	const unsigned long long FinalYoungestDesired,
	const signed int NumHeaps,
	const unsigned int CondemnedGeneration,
	const unsigned int Gen0ReductionCount,
	const unsigned int Reason,
	const unsigned int GlobalMechanisms,
	const unsigned short ClrInstanceID,
	const unsigned int PauseMode,
	const unsigned int MemoryPressure,
	const unsigned int CondemnReasons0,
	const unsigned int CondemnReasons1)
{
	if (!EventXplatEnabledGCGlobalHeapHistory_V3())
		return ERROR_SUCCESS;
	return clretw__fire_GCGlobalHeapHistory_V3(FinalYoungestDesired, NumHeaps, CondemnedGeneration, Gen0ReductionCount, Reason, GlobalMechanisms, ClrInstanceID, PauseMode, MemoryPressure, CondemnReasons0, CondemnReasons1);
}

unsigned short DotNETRuntime_GCDynamicEvent_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_GCDynamicEvent(
	PCWSTR Name,
	const unsigned int DataSize,
	const BYTE* Data,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_GCDynamicEvent(Name, DataSize, Data, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(12)) {
		unsigned char *p__ = clretw__batch_reserve(12, len__);

		if (p__) {
			clretw__put_DotNETRuntime_GCDynamicEvent(p__, Name, DataSize, Data, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, GCDynamicEvent, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_GCDynamicEvent(buf__, Name, DataSize, Data, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, GCDynamicEvent, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatGCDynamicEvent(
	PCWSTR Name,
	const unsigned int DataSize,
	const BYTE* Data,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledGCDynamicEvent())
		return ERROR_SUCCESS;
	return clretw__fire_GCDynamicEvent(Name, DataSize, Data, ClrInstanceID);
}

unsigned short DotNETRuntime_BulkType_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_BulkType(
	const unsigned int Count,
	const unsigned short ClrInstanceID,
	int Values_ElementSize,
	const void* Values)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	if (Values_ElementSize < 0)
		return ERROR_INVALID_PARAMETER;
	len__ = clretw__len_DotNETRuntime_BulkType(Count, ClrInstanceID, Values_ElementSize, Values);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(13)) {
		unsigned char *p__ = clretw__batch_reserve(13, len__);

		if (p__) {
			clretw__put_DotNETRuntime_BulkType(p__, Count, ClrInstanceID, Values_ElementSize, Values);
			CLRETW__BATCH_DONE(DotNETRuntime, BulkType, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_BulkType(buf__, Count, ClrInstanceID, Values_ElementSize, Values);
	CLRETW__PROBE(DotNETRuntime, BulkType, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatBulkType(
	const unsigned int Count,
	const unsigned short ClrInstanceID,
	int Values_ElementSize,
	const void* Values)
{
	if (!EventXplatEnabledBulkType())
		return ERROR_SUCCESS;
	return clretw__fire_BulkType(Count, ClrInstanceID, Values_ElementSize, Values);
}

unsigned short DotNETRuntime_MethodJittingStarted_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodJittingStarted_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned int MethodToken,
	const unsigned int MethodILSize,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_MethodJittingStarted_V1(MethodID, ModuleID, MethodToken, MethodILSize, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(14)) {
		unsigned char *p__ = clretw__batch_reserve(14, len__);

		if (p__) {
			clretw__put_DotNETRuntime_MethodJittingStarted_V1(p__, MethodID, ModuleID, MethodToken, MethodILSize, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, MethodJittingStarted_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_MethodJittingStarted_V1(buf__, MethodID, ModuleID, MethodToken, MethodILSize, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, MethodJittingStarted_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodJittingStarted_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned int MethodToken,
	const unsigned int MethodILSize,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledMethodJittingStarted_V1())
		return ERROR_SUCCESS;
	return clretw__fire_MethodJittingStarted_V1(MethodID, ModuleID, MethodToken, MethodILSize, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
}

unsigned short DotNETRuntime_MethodLoad_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodLoad_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	unsigned char buf__[46];

	if (CLRETW__BATCHED(15)) {
		unsigned char *p__ = clretw__batch_reserve(15, 46);

		if (p__) {
			clretw__put_DotNETRuntime_MethodLoadUnload_V2(p__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, ClrInstanceID, ReJITID);
			CLRETW__BATCH_DONE(DotNETRuntime, MethodLoad_V2, p__, 46);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_MethodLoadUnload_V2(buf__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, ClrInstanceID, ReJITID);
	CLRETW__PROBE(DotNETRuntime, MethodLoad_V2, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodLoad_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!EventXplatEnabledMethodLoad_V2())
		return ERROR_SUCCESS;
	return clretw__fire_MethodLoad_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, ClrInstanceID, ReJITID);
}

unsigned short DotNETRuntime_MethodUnload_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodUnload_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	unsigned char buf__[46];

	if (CLRETW__BATCHED(16)) {
		unsigned char *p__ = clretw__batch_reserve(16, 46);

		if (p__) {
			clretw__put_DotNETRuntime_MethodLoadUnload_V2(p__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, ClrInstanceID, ReJITID);
			CLRETW__BATCH_DONE(DotNETRuntime, MethodUnload_V2, p__, 46);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_MethodLoadUnload_V2(buf__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, ClrInstanceID, ReJITID);
	CLRETW__PROBE(DotNETRuntime, MethodUnload_V2, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodUnload_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!EventXplatEnabledMethodUnload_V2())
		return ERROR_SUCCESS;
	return clretw__fire_MethodUnload_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, ClrInstanceID, ReJITID);
}

unsigned short DotNETRuntime_MethodLoadVerbose_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodLoadVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_MethodLoadUnloadVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(17)) {
		unsigned char *p__ = clretw__batch_reserve(17, len__);

		if (p__) {
			clretw__put_DotNETRuntime_MethodLoadUnloadVerbose_V2(p__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
			CLRETW__BATCH_DONE(DotNETRuntime, MethodLoadVerbose_V2, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_MethodLoadUnloadVerbose_V2(buf__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
	CLRETW__PROBE(DotNETRuntime, MethodLoadVerbose_V2, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodLoadVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!EventXplatEnabledMethodLoadVerbose_V2())
		return ERROR_SUCCESS;
	return clretw__fire_MethodLoadVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
}

unsigned short DotNETRuntime_MethodUnloadVerbose_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodUnloadVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_MethodLoadUnloadVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(18)) {
		unsigned char *p__ = clretw__batch_reserve(18, len__);

		if (p__) {
			clretw__put_DotNETRuntime_MethodLoadUnloadVerbose_V2(p__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
			CLRETW__BATCH_DONE(DotNETRuntime, MethodUnloadVerbose_V2, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_MethodLoadUnloadVerbose_V2(buf__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
	CLRETW__PROBE(DotNETRuntime, MethodUnloadVerbose_V2, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodUnloadVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!EventXplatEnabledMethodUnloadVerbose_V2())
		return ERROR_SUCCESS;
	return clretw__fire_MethodUnloadVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
}

unsigned short DotNETRuntime_MethodILToNativeMap_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_MethodILToNativeMap(MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(19)) {
		unsigned char *p__ = clretw__batch_reserve(19, len__);

		if (p__) {
			clretw__put_DotNETRuntime_MethodILToNativeMap(p__, MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, MethodILToNativeMap, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_MethodILToNativeMap(buf__, MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, MethodILToNativeMap, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledMethodILToNativeMap())
		return ERROR_SUCCESS;
	return clretw__fire_MethodILToNativeMap(MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
}

unsigned short DotNETRuntime_ModuleLoad_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ModuleLoad_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_ModuleLoadUnload_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(20)) {
		unsigned char *p__ = clretw__batch_reserve(20, len__);

		if (p__) {
			clretw__put_DotNETRuntime_ModuleLoadUnload_V2(p__, ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
			CLRETW__BATCH_DONE(DotNETRuntime, ModuleLoad_V2, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_ModuleLoadUnload_V2(buf__, ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
	CLRETW__PROBE(DotNETRuntime, ModuleLoad_V2, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatModuleLoad_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	if (!EventXplatEnabledModuleLoad_V2())
		return ERROR_SUCCESS;
	return clretw__fire_ModuleLoad_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
}

unsigned short DotNETRuntime_ModuleUnload_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ModuleUnload_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_ModuleLoadUnload_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(21)) {
		unsigned char *p__ = clretw__batch_reserve(21, len__);

		if (p__) {
			clretw__put_DotNETRuntime_ModuleLoadUnload_V2(p__, ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
			CLRETW__BATCH_DONE(DotNETRuntime, ModuleUnload_V2, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_ModuleLoadUnload_V2(buf__, ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
	CLRETW__PROBE(DotNETRuntime, ModuleUnload_V2, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatModuleUnload_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	if (!EventXplatEnabledModuleUnload_V2())
		return ERROR_SUCCESS;
	return clretw__fire_ModuleUnload_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
}

unsigned short DotNETRuntime_AssemblyLoad_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_AssemblyLoad_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_AssemblyLoadUnload_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(22)) {
		unsigned char *p__ = clretw__batch_reserve(22, len__);

		if (p__) {
			clretw__put_DotNETRuntime_AssemblyLoadUnload_V1(p__, AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, AssemblyLoad_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_AssemblyLoadUnload_V1(buf__, AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, AssemblyLoad_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatAssemblyLoad_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledAssemblyLoad_V1())
		return ERROR_SUCCESS;
	return clretw__fire_AssemblyLoad_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
}

unsigned short DotNETRuntime_AssemblyUnload_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_AssemblyUnload_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_AssemblyLoadUnload_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(23)) {
		unsigned char *p__ = clretw__batch_reserve(23, len__);

		if (p__) {
			clretw__put_DotNETRuntime_AssemblyLoadUnload_V1(p__, AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, AssemblyUnload_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_AssemblyLoadUnload_V1(buf__, AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, AssemblyUnload_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatAssemblyUnload_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledAssemblyUnload_V1())
		return ERROR_SUCCESS;
	return clretw__fire_AssemblyUnload_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
}

unsigned short DotNETRuntime_DomainModuleLoad_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_DomainModuleLoad_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_DomainModuleLoadUnload_V1(ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(24)) {
		unsigned char *p__ = clretw__batch_reserve(24, len__);

		if (p__) {
			clretw__put_DotNETRuntime_DomainModuleLoadUnload_V1(p__, ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, DomainModuleLoad_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_DomainModuleLoadUnload_V1(buf__, ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, DomainModuleLoad_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatDomainModuleLoad_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledDomainModuleLoad_V1())
		return ERROR_SUCCESS;
	return clretw__fire_DomainModuleLoad_V1(ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
}

unsigned short DotNETRuntime_AppDomainLoad_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_AppDomainLoad_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_AppDomainLoadUnload_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(25)) {
		unsigned char *p__ = clretw__batch_reserve(25, len__);

		if (p__) {
			clretw__put_DotNETRuntime_AppDomainLoadUnload_V1(p__, AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, AppDomainLoad_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_AppDomainLoadUnload_V1(buf__, AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, AppDomainLoad_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatAppDomainLoad_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledAppDomainLoad_V1())
		return ERROR_SUCCESS;
	return clretw__fire_AppDomainLoad_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
}

unsigned short DotNETRuntime_AppDomainUnload_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_AppDomainUnload_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_AppDomainLoadUnload_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(26)) {
		unsigned char *p__ = clretw__batch_reserve(26, len__);

		if (p__) {
			clretw__put_DotNETRuntime_AppDomainLoadUnload_V1(p__, AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, AppDomainUnload_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_AppDomainLoadUnload_V1(buf__, AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, AppDomainUnload_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatAppDomainUnload_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledAppDomainUnload_V1())
		return ERROR_SUCCESS;
	return clretw__fire_AppDomainUnload_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
}

unsigned short DotNETRuntime_ExceptionThrown_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ExceptionThrown_V1(
	PCWSTR ExceptionType,
	PCWSTR ExceptionMessage,
	const void* ExceptionEIP,
	const unsigned int ExceptionHRESULT,
	const unsigned short ExceptionFlags,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_Exception(ExceptionType, ExceptionMessage, ExceptionEIP, ExceptionHRESULT, ExceptionFlags, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(27)) {
		unsigned char *p__ = clretw__batch_reserve(27, len__);

		if (p__) {
			clretw__put_DotNETRuntime_Exception(p__, ExceptionType, ExceptionMessage, ExceptionEIP, ExceptionHRESULT, ExceptionFlags, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ExceptionThrown_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_Exception(buf__, ExceptionType, ExceptionMessage, ExceptionEIP, ExceptionHRESULT, ExceptionFlags, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ExceptionThrown_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatExceptionThrown_V1(
	PCWSTR ExceptionType,
	PCWSTR ExceptionMessage,
	const void* ExceptionEIP,
	const unsigned int ExceptionHRESULT,
	const unsigned short ExceptionFlags,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledExceptionThrown_V1())
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionThrown_V1(ExceptionType, ExceptionMessage, ExceptionEIP, ExceptionHRESULT, ExceptionFlags, ClrInstanceID);
}

unsigned short DotNETRuntime_ExceptionThrownStop_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ExceptionThrownStop(void)
{
	if (CLRETW__BATCHED(28)) {
		unsigned char *p__ = clretw__batch_reserve(28, 0);

		if (p__) {
			CLRETW__BATCH_DONE(DotNETRuntime, ExceptionThrownStop, p__, 0);
			return ERROR_SUCCESS;
		}
	}
	CLRETW__PROBE(DotNETRuntime, ExceptionThrownStop, NULL, 0);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatExceptionThrownStop(void)
{
	if (!EventXplatEnabledExceptionThrownStop())
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionThrownStop();
}

unsigned short DotNETRuntime_ExceptionCatchStart_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ExceptionCatchStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_ExceptionHandling(EntryEIP, MethodID, MethodName, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(29)) {
		unsigned char *p__ = clretw__batch_reserve(29, len__);

		if (p__) {
			clretw__put_DotNETRuntime_ExceptionHandling(p__, EntryEIP, MethodID, MethodName, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ExceptionCatchStart, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_ExceptionHandling(buf__, EntryEIP, MethodID, MethodName, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ExceptionCatchStart, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatExceptionCatchStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledExceptionCatchStart())
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionCatchStart(EntryEIP, MethodID, MethodName, ClrInstanceID);
}

unsigned short DotNETRuntime_ExceptionCatchStop_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ExceptionCatchStop(void)
{
	if (CLRETW__BATCHED(30)) {
		unsigned char *p__ = clretw__batch_reserve(30, 0);

		if (p__) {
			CLRETW__BATCH_DONE(DotNETRuntime, ExceptionCatchStop, p__, 0);
			return ERROR_SUCCESS;
		}
	}
	CLRETW__PROBE(DotNETRuntime, ExceptionCatchStop, NULL, 0);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatExceptionCatchStop(void)
{
	if (!EventXplatEnabledExceptionCatchStop())
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionCatchStop();
}

unsigned short DotNETRuntime_ExceptionFinallyStart_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ExceptionFinallyStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_ExceptionHandling(EntryEIP, MethodID, MethodName, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(31)) {
		unsigned char *p__ = clretw__batch_reserve(31, len__);

		if (p__) {
			clretw__put_DotNETRuntime_ExceptionHandling(p__, EntryEIP, MethodID, MethodName, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ExceptionFinallyStart, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_ExceptionHandling(buf__, EntryEIP, MethodID, MethodName, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ExceptionFinallyStart, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatExceptionFinallyStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledExceptionFinallyStart())
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionFinallyStart(EntryEIP, MethodID, MethodName, ClrInstanceID);
}

unsigned short DotNETRuntime_ExceptionFinallyStop_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ExceptionFinallyStop(void)
{
	if (CLRETW__BATCHED(32)) {
		unsigned char *p__ = clretw__batch_reserve(32, 0);

		if (p__) {
			CLRETW__BATCH_DONE(DotNETRuntime, ExceptionFinallyStop, p__, 0);
			return ERROR_SUCCESS;
		}
	}
	CLRETW__PROBE(DotNETRuntime, ExceptionFinallyStop, NULL, 0);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatExceptionFinallyStop(void)
{
	if (!EventXplatEnabledExceptionFinallyStop())
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionFinallyStop();
}

unsigned short DotNETRuntime_ExceptionFilterStart_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ExceptionFilterStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_ExceptionHandling(EntryEIP, MethodID, MethodName, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(33)) {
		unsigned char *p__ = clretw__batch_reserve(33, len__);

		if (p__) {
			clretw__put_DotNETRuntime_ExceptionHandling(p__, EntryEIP, MethodID, MethodName, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ExceptionFilterStart, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_ExceptionHandling(buf__, EntryEIP, MethodID, MethodName, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ExceptionFilterStart, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatExceptionFilterStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledExceptionFilterStart())
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionFilterStart(EntryEIP, MethodID, MethodName, ClrInstanceID);
}

unsigned short DotNETRuntime_ExceptionFilterStop_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ExceptionFilterStop(void)
{
	if (CLRETW__BATCHED(34)) {
		unsigned char *p__ = clretw__batch_reserve(34, 0);

		if (p__) {
			CLRETW__BATCH_DONE(DotNETRuntime, ExceptionFilterStop, p__, 0);
			return ERROR_SUCCESS;
		}
	}
	CLRETW__PROBE(DotNETRuntime, ExceptionFilterStop, NULL, 0);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatExceptionFilterStop(void)
{
	if (!EventXplatEnabledExceptionFilterStop())
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionFilterStop();
}

unsigned short DotNETRuntime_ContentionStart_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ContentionStart_V1(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[3];

	if (CLRETW__BATCHED(35)) {
		unsigned char *p__ = clretw__batch_reserve(35, 3);

		if (p__) {
			clretw__put_DotNETRuntime_Contention(p__, ContentionFlags, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ContentionStart_V1, p__, 3);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_Contention(buf__, ContentionFlags, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ContentionStart_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatContentionStart_V1(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledContentionStart_V1())
		return ERROR_SUCCESS;
	return clretw__fire_ContentionStart_V1(ContentionFlags, ClrInstanceID);
}

unsigned short DotNETRuntime_ContentionStop_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ContentionStop_V1(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID,
	const double DurationNs)
{
	unsigned char buf__[11];

	if (CLRETW__BATCHED(36)) {
		unsigned char *p__ = clretw__batch_reserve(36, 11);

		if (p__) {
			clretw__put_DotNETRuntime_ContentionStop_V1(p__, ContentionFlags, ClrInstanceID, DurationNs);
			CLRETW__BATCH_DONE(DotNETRuntime, ContentionStop_V1, p__, 11);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_ContentionStop_V1(buf__, ContentionFlags, ClrInstanceID, DurationNs);
	CLRETW__PROBE(DotNETRuntime, ContentionStop_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatContentionStop_V1(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID,
	const double DurationNs)
{
	if (!EventXplatEnabledContentionStop_V1())
		return ERROR_SUCCESS;
	return clretw__fire_ContentionStop_V1(ContentionFlags, ClrInstanceID, DurationNs);
}

unsigned short DotNETRuntime_ThreadPoolWorkerThreadStart_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ThreadPoolWorkerThreadStart(
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[10];

	if (CLRETW__BATCHED(37)) {
		unsigned char *p__ = clretw__batch_reserve(37, 10);

		if (p__) {
			clretw__put_DotNETRuntime_ThreadPoolWorkerThread(p__, ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ThreadPoolWorkerThreadStart, p__, 10);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_ThreadPoolWorkerThread(buf__, ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ThreadPoolWorkerThreadStart, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatThreadPoolWorkerThreadStart(
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledThreadPoolWorkerThreadStart())
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadStart(ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID);
}

unsigned short DotNETRuntime_ThreadPoolWorkerThreadStop_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ThreadPoolWorkerThreadStop(
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[10];

	if (CLRETW__BATCHED(38)) {
		unsigned char *p__ = clretw__batch_reserve(38, 10);

		if (p__) {
			clretw__put_DotNETRuntime_ThreadPoolWorkerThread(p__, ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ThreadPoolWorkerThreadStop, p__, 10);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_ThreadPoolWorkerThread(buf__, ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ThreadPoolWorkerThreadStop, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatThreadPoolWorkerThreadStop(
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledThreadPoolWorkerThreadStop())
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadStop(ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID);
}

unsigned short DotNETRuntime_ThreadPoolWorkerThreadAdjustmentSample_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ThreadPoolWorkerThreadAdjustmentSample(
	const double Throughput,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[10];

	if (CLRETW__BATCHED(39)) {
		unsigned char *p__ = clretw__batch_reserve(39, 10);

		if (p__) {
			clretw__put_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentSample(p__, Throughput, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ThreadPoolWorkerThreadAdjustmentSample, p__, 10);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentSample(buf__, Throughput, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ThreadPoolWorkerThreadAdjustmentSample, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatThreadPoolWorkerThreadAdjustmentSample(
	const double Throughput,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledThreadPoolWorkerThreadAdjustmentSample())
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadAdjustmentSample(Throughput, ClrInstanceID);
}

unsigned short DotNETRuntime_ThreadPoolWorkerThreadAdjustmentAdjustment_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ThreadPoolWorkerThreadAdjustmentAdjustment(
	const double AverageThroughput,
	const unsigned int NewWorkerThreadCount,
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[18];

	if (CLRETW__BATCHED(40)) {
		unsigned char *p__ = clretw__batch_reserve(40, 18);

		if (p__) {
			clretw__put_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentAdjustment(p__, AverageThroughput, NewWorkerThreadCount, Reason, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ThreadPoolWorkerThreadAdjustmentAdjustment, p__, 18);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentAdjustment(buf__, AverageThroughput, NewWorkerThreadCount, Reason, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ThreadPoolWorkerThreadAdjustmentAdjustment, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatThreadPoolWorkerThreadAdjustmentAdjustment(
	const double AverageThroughput,
	const unsigned int NewWorkerThreadCount,
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledThreadPoolWorkerThreadAdjustmentAdjustment())
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadAdjustmentAdjustment(AverageThroughput, NewWorkerThreadCount, Reason, ClrInstanceID);
}

unsigned short DotNETRuntime_ThreadPoolWorkerThreadAdjustmentStats_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ThreadPoolWorkerThreadAdjustmentStats(
	const double Duration,
	const double Throughput,
	const double ThreadWave,
	const double ThroughputWave,
	const double ThroughputErrorEstimate,
	const double AverageThroughputErrorEstimate,
	const double ThroughputRatio,
	const double Confidence,
	const double NewControlSetting,
	const unsigned short NewThreadWaveMagnitude,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[76];

	if (CLRETW__BATCHED(41)) {
		unsigned char *p__ = clretw__batch_reserve(41, 76);

		if (p__) {
			clretw__put_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentStats(p__, Duration, Throughput, ThreadWave, ThroughputWave, ThroughputErrorEstimate, AverageThroughputErrorEstimate, ThroughputRatio, Confidence, NewControlSetting, NewThreadWaveMagnitude, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ThreadPoolWorkerThreadAdjustmentStats, p__, 76);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_ThreadPoolWorkerThreadAdjustmentStats(buf__, Duration, Throughput, ThreadWave, ThroughputWave, ThroughputErrorEstimate, AverageThroughputErrorEstimate, ThroughputRatio, Confidence, NewControlSetting, NewThreadWaveMagnitude, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ThreadPoolWorkerThreadAdjustmentStats, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatThreadPoolWorkerThreadAdjustmentStats(
	const double Duration,
	const double Throughput,
	const double ThreadWave,
	const double ThroughputWave,
	const double ThroughputErrorEstimate,
	const double AverageThroughputErrorEstimate,
	const double ThroughputRatio,
	const double Confidence,
	const double NewControlSetting,
	const unsigned short NewThreadWaveMagnitude,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledThreadPoolWorkerThreadAdjustmentStats())
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadAdjustmentStats(Duration, Throughput, ThreadWave, ThroughputWave, ThroughputErrorEstimate, AverageThroughputErrorEstimate, ThroughputRatio, Confidence, NewControlSetting, NewThreadWaveMagnitude, ClrInstanceID);
}

unsigned short DotNETRuntime_ThreadCreated_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ThreadCreated(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned int Flags,
	const unsigned int ManagedThreadIndex,
	const unsigned int OSThreadID,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[30];

	if (CLRETW__BATCHED(42)) {
		unsigned char *p__ = clretw__batch_reserve(42, 30);

		if (p__) {
			clretw__put_DotNETRuntime_ThreadCreated(p__, ManagedThreadID, AppDomainID, Flags, ManagedThreadIndex, OSThreadID, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ThreadCreated, p__, 30);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_ThreadCreated(buf__, ManagedThreadID, AppDomainID, Flags, ManagedThreadIndex, OSThreadID, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ThreadCreated, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatThreadCreated(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned int Flags,
	const unsigned int ManagedThreadIndex,
	const unsigned int OSThreadID,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledThreadCreated())
		return ERROR_SUCCESS;
	return clretw__fire_ThreadCreated(ManagedThreadID, AppDomainID, Flags, ManagedThreadIndex, OSThreadID, ClrInstanceID);
}

unsigned short DotNETRuntime_ThreadTerminated_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ThreadTerminated(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[18];

	if (CLRETW__BATCHED(43)) {
		unsigned char *p__ = clretw__batch_reserve(43, 18);

		if (p__) {
			clretw__put_DotNETRuntime_ThreadTerminatedOrTransition(p__, ManagedThreadID, AppDomainID, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntime, ThreadTerminated, p__, 18);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntime_ThreadTerminatedOrTransition(buf__, ManagedThreadID, AppDomainID, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntime, ThreadTerminated, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatThreadTerminated(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledThreadTerminated())
		return ERROR_SUCCESS;
	return clretw__fire_ThreadTerminated(ManagedThreadID, AppDomainID, ClrInstanceID);
}

unsigned short DotNETRuntime_CLRStackWalk_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_CLRStackWalk(
	const unsigned short ClrInstanceID,
	const unsigned char Reserved1,
	const unsigned char Reserved2,
	const unsigned int FrameCount,
	const void** Stack)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntime_ClrStackWalk(ClrInstanceID, Reserved1, Reserved2, FrameCount, Stack);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(44)) {
		unsigned char *p__ = clretw__batch_reserve(44, len__);

		if (p__) {
			clretw__put_DotNETRuntime_ClrStackWalk(p__, ClrInstanceID, Reserved1, Reserved2, FrameCount, Stack);
			CLRETW__BATCH_DONE(DotNETRuntime, CLRStackWalk, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntime_ClrStackWalk(buf__, ClrInstanceID, Reserved1, Reserved2, FrameCount, Stack);
	CLRETW__PROBE(DotNETRuntime, CLRStackWalk, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatCLRStackWalk(
	const unsigned short ClrInstanceID,
	const unsigned char Reserved1,
	const unsigned char Reserved2,
	const unsigned int FrameCount,
	const void** Stack)
{
	if (!EventXplatEnabledCLRStackWalk())
		return ERROR_SUCCESS;
	return clretw__fire_CLRStackWalk(ClrInstanceID, Reserved1, Reserved2, FrameCount, Stack);
}

/* ======== Microsoft-Windows-DotNETRuntimeRundown: USDT provider DotNETRuntimeRundown ======== */

/* template MethodLoadUnloadRundownVerbose_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)MethodID;
	(void)ModuleID;
	(void)MethodStartAddress;
	(void)MethodSize;
	(void)MethodToken;
	(void)MethodFlags;
	(void)MethodNamespace;
	(void)MethodName;
	(void)MethodSignature;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += clretw__wlen(MethodNamespace);
	n__ += clretw__wlen(MethodName);
	n__ += clretw__wlen(MethodSignature);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V1(unsigned char *p__, 
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(MethodID));
	p__ = clretw__u64(p__, (uint64_t)(ModuleID));
	p__ = clretw__u64(p__, (uint64_t)(MethodStartAddress));
	p__ = clretw__u32(p__, (uint32_t)(MethodSize));
	p__ = clretw__u32(p__, (uint32_t)(MethodToken));
	p__ = clretw__u32(p__, (uint32_t)(MethodFlags));
	p__ = clretw__wstr(p__, MethodNamespace);
	p__ = clretw__wstr(p__, MethodName);
	p__ = clretw__wstr(p__, MethodSignature);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template MethodLoadUnloadRundownVerbose_V2 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	size_t n__ = 0;

	(void)MethodID;
	(void)ModuleID;
	(void)MethodStartAddress;
	(void)MethodSize;
	(void)MethodToken;
	(void)MethodFlags;
	(void)MethodNamespace;
	(void)MethodName;
	(void)MethodSignature;
	(void)ClrInstanceID;
	(void)ReJITID;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += 4;
	n__ += clretw__wlen(MethodNamespace);
	n__ += clretw__wlen(MethodName);
	n__ += clretw__wlen(MethodSignature);
	n__ += 2;
	n__ += 8;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V2(unsigned char *p__, 
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	p__ = clretw__u64(p__, (uint64_t)(MethodID));
	p__ = clretw__u64(p__, (uint64_t)(ModuleID));
	p__ = clretw__u64(p__, (uint64_t)(MethodStartAddress));
	p__ = clretw__u32(p__, (uint32_t)(MethodSize));
	p__ = clretw__u32(p__, (uint32_t)(MethodToken));
	p__ = clretw__u32(p__, (uint32_t)(MethodFlags));
	p__ = clretw__wstr(p__, MethodNamespace);
	p__ = clretw__wstr(p__, MethodName);
	p__ = clretw__wstr(p__, MethodSignature);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u64(p__, (uint64_t)(ReJITID));
	(void)p__;
}

/* template MethodILToNativeMapRundown */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntimeRundown_MethodILToNativeMapRundown(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)MethodID;
	(void)ReJITID;
	(void)MethodExtent;
	(void)CountOfMapEntries;
	(void)ILOffsets;
	(void)NativeOffsets;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 1;
	n__ += 2;
	n__ += clretw__arr((uint64_t)(CountOfMapEntries), 4);
	n__ += clretw__arr((uint64_t)(CountOfMapEntries), 4);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntimeRundown_MethodILToNativeMapRundown(unsigned char *p__, 
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	uint64_t i__;

	p__ = clretw__u64(p__, (uint64_t)(MethodID));
	p__ = clretw__u64(p__, (uint64_t)(ReJITID));
	p__ = clretw__u8(p__, (uint8_t)(MethodExtent));
	p__ = clretw__u16(p__, (uint16_t)(CountOfMapEntries));
	for (i__ = 0; i__ < (uint64_t)(CountOfMapEntries); i__++)
		p__ = clretw__u32(p__, (uint32_t)(ILOffsets ? ILOffsets[i__] : 0));
	for (i__ = 0; i__ < (uint64_t)(CountOfMapEntries); i__++)
		p__ = clretw__u32(p__, (uint32_t)(NativeOffsets ? NativeOffsets[i__] : 0));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template ModuleLoadUnloadRundown_V2 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntimeRundown_ModuleLoadUnloadRundown_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	size_t n__ = 0;

	(void)ModuleID;
	(void)AssemblyID;
	(void)ModuleFlags;
	(void)Reserved1;
	(void)ModuleILPath;
	(void)ModuleNativePath;
	(void)ClrInstanceID;
	(void)ManagedPdbSignature;
	(void)ManagedPdbAge;
	(void)ManagedPdbBuildPath;
	(void)NativePdbSignature;
	(void)NativePdbAge;
	(void)NativePdbBuildPath;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += clretw__wlen(ModuleILPath);
	n__ += clretw__wlen(ModuleNativePath);
	n__ += 2;
	n__ += 16;
	n__ += 4;
	n__ += clretw__wlen(ManagedPdbBuildPath);
	n__ += 16;
	n__ += 4;
	n__ += clretw__wlen(NativePdbBuildPath);
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntimeRundown_ModuleLoadUnloadRundown_V2(unsigned char *p__, 
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	p__ = clretw__u64(p__, (uint64_t)(ModuleID));
	p__ = clretw__u64(p__, (uint64_t)(AssemblyID));
	p__ = clretw__u32(p__, (uint32_t)(ModuleFlags));
	p__ = clretw__u32(p__, (uint32_t)(Reserved1));
	p__ = clretw__wstr(p__, ModuleILPath);
	p__ = clretw__wstr(p__, ModuleNativePath);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__guid(p__, ManagedPdbSignature);
	p__ = clretw__u32(p__, (uint32_t)(ManagedPdbAge));
	p__ = clretw__wstr(p__, ManagedPdbBuildPath);
	p__ = clretw__guid(p__, NativePdbSignature);
	p__ = clretw__u32(p__, (uint32_t)(NativePdbAge));
	p__ = clretw__wstr(p__, NativePdbBuildPath);
	(void)p__;
}

/* template AssemblyLoadUnloadRundown_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntimeRundown_AssemblyLoadUnloadRundown_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)AssemblyID;
	(void)AppDomainID;
	(void)BindingID;
	(void)AssemblyFlags;
	(void)FullyQualifiedAssemblyName;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += clretw__wlen(FullyQualifiedAssemblyName);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntimeRundown_AssemblyLoadUnloadRundown_V1(unsigned char *p__, 
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(AssemblyID));
	p__ = clretw__u64(p__, (uint64_t)(AppDomainID));
	p__ = clretw__u64(p__, (uint64_t)(BindingID));
	p__ = clretw__u32(p__, (uint32_t)(AssemblyFlags));
	p__ = clretw__wstr(p__, FullyQualifiedAssemblyName);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template DomainModuleLoadUnloadRundown_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntimeRundown_DomainModuleLoadUnloadRundown_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)ModuleID;
	(void)AssemblyID;
	(void)AppDomainID;
	(void)ModuleFlags;
	(void)Reserved1;
	(void)ModuleILPath;
	(void)ModuleNativePath;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 8;
	n__ += 8;
	n__ += 4;
	n__ += 4;
	n__ += clretw__wlen(ModuleILPath);
	n__ += clretw__wlen(ModuleNativePath);
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntimeRundown_DomainModuleLoadUnloadRundown_V1(unsigned char *p__, 
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(ModuleID));
	p__ = clretw__u64(p__, (uint64_t)(AssemblyID));
	p__ = clretw__u64(p__, (uint64_t)(AppDomainID));
	p__ = clretw__u32(p__, (uint32_t)(ModuleFlags));
	p__ = clretw__u32(p__, (uint32_t)(Reserved1));
	p__ = clretw__wstr(p__, ModuleILPath);
	p__ = clretw__wstr(p__, ModuleNativePath);
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template AppDomainLoadUnloadRundown_V1 */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntimeRundown_AppDomainLoadUnloadRundown_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)AppDomainID;
	(void)AppDomainFlags;
	(void)AppDomainName;
	(void)AppDomainIndex;
	(void)ClrInstanceID;
	n__ += 8;
	n__ += 4;
	n__ += clretw__wlen(AppDomainName);
	n__ += 4;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntimeRundown_AppDomainLoadUnloadRundown_V1(unsigned char *p__, 
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u64(p__, (uint64_t)(AppDomainID));
	p__ = clretw__u32(p__, (uint32_t)(AppDomainFlags));
	p__ = clretw__wstr(p__, AppDomainName);
	p__ = clretw__u32(p__, (uint32_t)(AppDomainIndex));
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template DCStartEnd */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntimeRundown_DCStartEnd(
	const unsigned short ClrInstanceID)
{
	size_t n__ = 0;

	(void)ClrInstanceID;
	n__ += 2;
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntimeRundown_DCStartEnd(unsigned char *p__, 
	const unsigned short ClrInstanceID)
{
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	(void)p__;
}

/* template RuntimeInformationRundown */
static inline __attribute__((unused)) size_t clretw__len_DotNETRuntimeRundown_RuntimeInformationRundown(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	size_t n__ = 0;

	(void)ClrInstanceID;
	(void)Sku;
	(void)BclMajorVersion;
	(void)BclMinorVersion;
	(void)BclBuildNumber;
	(void)BclQfeNumber;
	(void)VMMajorVersion;
	(void)VMMinorVersion;
	(void)VMBuildNumber;
	(void)VMQfeNumber;
	(void)StartupFlags;
	(void)StartupMode;
	(void)CommandLine;
	(void)ComObjectGuid;
	(void)RuntimeDllPath;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 2;
	n__ += 4;
	n__ += 1;
	n__ += clretw__wlen(CommandLine);
	n__ += 16;
	n__ += clretw__wlen(RuntimeDllPath);
	return n__;
}

static inline __attribute__((unused)) void clretw__put_DotNETRuntimeRundown_RuntimeInformationRundown(unsigned char *p__, 
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	p__ = clretw__u16(p__, (uint16_t)(ClrInstanceID));
	p__ = clretw__u16(p__, (uint16_t)(Sku));
	p__ = clretw__u16(p__, (uint16_t)(BclMajorVersion));
	p__ = clretw__u16(p__, (uint16_t)(BclMinorVersion));
	p__ = clretw__u16(p__, (uint16_t)(BclBuildNumber));
	p__ = clretw__u16(p__, (uint16_t)(BclQfeNumber));
	p__ = clretw__u16(p__, (uint16_t)(VMMajorVersion));
	p__ = clretw__u16(p__, (uint16_t)(VMMinorVersion));
	p__ = clretw__u16(p__, (uint16_t)(VMBuildNumber));
	p__ = clretw__u16(p__, (uint16_t)(VMQfeNumber));
	p__ = clretw__u32(p__, (uint32_t)(StartupFlags));
	p__ = clretw__u8(p__, (uint8_t)(StartupMode));
	p__ = clretw__wstr(p__, CommandLine);
	p__ = clretw__guid(p__, ComObjectGuid);
	p__ = clretw__wstr(p__, RuntimeDllPath);
	(void)p__;
}

unsigned short DotNETRuntimeRundown_MethodDCStartVerbose_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodDCStartVerbose_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V1(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(45)) {
		unsigned char *p__ = clretw__batch_reserve(45, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V1(p__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, MethodDCStartVerbose_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V1(buf__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, MethodDCStartVerbose_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodDCStartVerbose_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledMethodDCStartVerbose_V1())
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCStartVerbose_V1(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_MethodDCEndVerbose_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodDCEndVerbose_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V1(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(46)) {
		unsigned char *p__ = clretw__batch_reserve(46, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V1(p__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, MethodDCEndVerbose_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V1(buf__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, MethodDCEndVerbose_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodDCEndVerbose_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledMethodDCEndVerbose_V1())
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCEndVerbose_V1(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_MethodDCStartVerbose_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodDCStartVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(47)) {
		unsigned char *p__ = clretw__batch_reserve(47, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V2(p__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, MethodDCStartVerbose_V2, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V2(buf__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
	CLRETW__PROBE(DotNETRuntimeRundown, MethodDCStartVerbose_V2, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodDCStartVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!EventXplatEnabledMethodDCStartVerbose_V2())
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCStartVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
}

unsigned short DotNETRuntimeRundown_MethodDCEndVerbose_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodDCEndVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(48)) {
		unsigned char *p__ = clretw__batch_reserve(48, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V2(p__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, MethodDCEndVerbose_V2, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_MethodLoadUnloadRundownVerbose_V2(buf__, MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
	CLRETW__PROBE(DotNETRuntimeRundown, MethodDCEndVerbose_V2, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodDCEndVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!EventXplatEnabledMethodDCEndVerbose_V2())
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCEndVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
}

unsigned short DotNETRuntimeRundown_MethodDCStartILToNativeMap_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodDCStartILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_MethodILToNativeMapRundown(MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(49)) {
		unsigned char *p__ = clretw__batch_reserve(49, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_MethodILToNativeMapRundown(p__, MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, MethodDCStartILToNativeMap, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_MethodILToNativeMapRundown(buf__, MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, MethodDCStartILToNativeMap, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodDCStartILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledMethodDCStartILToNativeMap())
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCStartILToNativeMap(MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_MethodDCEndILToNativeMap_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_MethodDCEndILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_MethodILToNativeMapRundown(MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(50)) {
		unsigned char *p__ = clretw__batch_reserve(50, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_MethodILToNativeMapRundown(p__, MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, MethodDCEndILToNativeMap, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_MethodILToNativeMapRundown(buf__, MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, MethodDCEndILToNativeMap, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatMethodDCEndILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledMethodDCEndILToNativeMap())
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCEndILToNativeMap(MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_ModuleDCStart_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ModuleDCStart_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_ModuleLoadUnloadRundown_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(51)) {
		unsigned char *p__ = clretw__batch_reserve(51, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_ModuleLoadUnloadRundown_V2(p__, ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, ModuleDCStart_V2, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_ModuleLoadUnloadRundown_V2(buf__, ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
	CLRETW__PROBE(DotNETRuntimeRundown, ModuleDCStart_V2, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatModuleDCStart_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	if (!EventXplatEnabledModuleDCStart_V2())
		return ERROR_SUCCESS;
	return clretw__fire_ModuleDCStart_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
}

unsigned short DotNETRuntimeRundown_ModuleDCEnd_V2_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_ModuleDCEnd_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_ModuleLoadUnloadRundown_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(52)) {
		unsigned char *p__ = clretw__batch_reserve(52, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_ModuleLoadUnloadRundown_V2(p__, ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, ModuleDCEnd_V2, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_ModuleLoadUnloadRundown_V2(buf__, ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
	CLRETW__PROBE(DotNETRuntimeRundown, ModuleDCEnd_V2, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatModuleDCEnd_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	if (!EventXplatEnabledModuleDCEnd_V2())
		return ERROR_SUCCESS;
	return clretw__fire_ModuleDCEnd_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
}

unsigned short DotNETRuntimeRundown_AssemblyDCStart_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_AssemblyDCStart_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_AssemblyLoadUnloadRundown_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(53)) {
		unsigned char *p__ = clretw__batch_reserve(53, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_AssemblyLoadUnloadRundown_V1(p__, AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, AssemblyDCStart_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_AssemblyLoadUnloadRundown_V1(buf__, AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, AssemblyDCStart_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatAssemblyDCStart_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledAssemblyDCStart_V1())
		return ERROR_SUCCESS;
	return clretw__fire_AssemblyDCStart_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_AssemblyDCEnd_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_AssemblyDCEnd_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_AssemblyLoadUnloadRundown_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(54)) {
		unsigned char *p__ = clretw__batch_reserve(54, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_AssemblyLoadUnloadRundown_V1(p__, AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, AssemblyDCEnd_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_AssemblyLoadUnloadRundown_V1(buf__, AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, AssemblyDCEnd_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatAssemblyDCEnd_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledAssemblyDCEnd_V1())
		return ERROR_SUCCESS;
	return clretw__fire_AssemblyDCEnd_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_DomainModuleDCStart_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_DomainModuleDCStart_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_DomainModuleLoadUnloadRundown_V1(ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(55)) {
		unsigned char *p__ = clretw__batch_reserve(55, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_DomainModuleLoadUnloadRundown_V1(p__, ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, DomainModuleDCStart_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_DomainModuleLoadUnloadRundown_V1(buf__, ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, DomainModuleDCStart_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatDomainModuleDCStart_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledDomainModuleDCStart_V1())
		return ERROR_SUCCESS;
	return clretw__fire_DomainModuleDCStart_V1(ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_DomainModuleDCEnd_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_DomainModuleDCEnd_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_DomainModuleLoadUnloadRundown_V1(ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(56)) {
		unsigned char *p__ = clretw__batch_reserve(56, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_DomainModuleLoadUnloadRundown_V1(p__, ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, DomainModuleDCEnd_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_DomainModuleLoadUnloadRundown_V1(buf__, ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, DomainModuleDCEnd_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatDomainModuleDCEnd_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledDomainModuleDCEnd_V1())
		return ERROR_SUCCESS;
	return clretw__fire_DomainModuleDCEnd_V1(ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_AppDomainDCStart_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_AppDomainDCStart_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_AppDomainLoadUnloadRundown_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(57)) {
		unsigned char *p__ = clretw__batch_reserve(57, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_AppDomainLoadUnloadRundown_V1(p__, AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, AppDomainDCStart_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_AppDomainLoadUnloadRundown_V1(buf__, AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, AppDomainDCStart_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatAppDomainDCStart_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledAppDomainDCStart_V1())
		return ERROR_SUCCESS;
	return clretw__fire_AppDomainDCStart_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_AppDomainDCEnd_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_AppDomainDCEnd_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_AppDomainLoadUnloadRundown_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(58)) {
		unsigned char *p__ = clretw__batch_reserve(58, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_AppDomainLoadUnloadRundown_V1(p__, AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, AppDomainDCEnd_V1, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_AppDomainLoadUnloadRundown_V1(buf__, AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, AppDomainDCEnd_V1, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatAppDomainDCEnd_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledAppDomainDCEnd_V1())
		return ERROR_SUCCESS;
	return clretw__fire_AppDomainDCEnd_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_DCStartInit_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_DCStartInit_V1(
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[2];

	if (CLRETW__BATCHED(59)) {
		unsigned char *p__ = clretw__batch_reserve(59, 2);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_DCStartEnd(p__, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, DCStartInit_V1, p__, 2);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntimeRundown_DCStartEnd(buf__, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, DCStartInit_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatDCStartInit_V1(
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledDCStartInit_V1())
		return ERROR_SUCCESS;
	return clretw__fire_DCStartInit_V1(ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_DCStartComplete_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_DCStartComplete_V1(
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[2];

	if (CLRETW__BATCHED(60)) {
		unsigned char *p__ = clretw__batch_reserve(60, 2);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_DCStartEnd(p__, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, DCStartComplete_V1, p__, 2);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntimeRundown_DCStartEnd(buf__, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, DCStartComplete_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatDCStartComplete_V1(
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledDCStartComplete_V1())
		return ERROR_SUCCESS;
	return clretw__fire_DCStartComplete_V1(ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_DCEndInit_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_DCEndInit_V1(
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[2];

	if (CLRETW__BATCHED(61)) {
		unsigned char *p__ = clretw__batch_reserve(61, 2);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_DCStartEnd(p__, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, DCEndInit_V1, p__, 2);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntimeRundown_DCStartEnd(buf__, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, DCEndInit_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatDCEndInit_V1(
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledDCEndInit_V1())
		return ERROR_SUCCESS;
	return clretw__fire_DCEndInit_V1(ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_DCEndComplete_V1_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_DCEndComplete_V1(
	const unsigned short ClrInstanceID)
{
	unsigned char buf__[2];

	if (CLRETW__BATCHED(62)) {
		unsigned char *p__ = clretw__batch_reserve(62, 2);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_DCStartEnd(p__, ClrInstanceID);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, DCEndComplete_V1, p__, 2);
			return ERROR_SUCCESS;
		}
	}
	clretw__put_DotNETRuntimeRundown_DCStartEnd(buf__, ClrInstanceID);
	CLRETW__PROBE(DotNETRuntimeRundown, DCEndComplete_V1, buf__, sizeof(buf__));
	return ERROR_SUCCESS;
}

ULONG FireEtXplatDCEndComplete_V1(
	const unsigned short ClrInstanceID)
{
	if (!EventXplatEnabledDCEndComplete_V1())
		return ERROR_SUCCESS;
	return clretw__fire_DCEndComplete_V1(ClrInstanceID);
}

unsigned short DotNETRuntimeRundown_RuntimeInformationDCStart_semaphore __attribute__((section(".probes"), visibility("hidden")));

__attribute__((noinline, cold))
ULONG clretw__fire_RuntimeInformationDCStart(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	unsigned char stack__[CLRETW__STACK_BUF], *buf__ = stack__;
	size_t len__;

	len__ = clretw__len_DotNETRuntimeRundown_RuntimeInformationRundown(ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
	if (len__ > CLRETW_MAX_PAYLOAD)
		return clretw__drop(&clretw_dropped_oversize);
	if (CLRETW__BATCHED(63)) {
		unsigned char *p__ = clretw__batch_reserve(63, len__);

		if (p__) {
			clretw__put_DotNETRuntimeRundown_RuntimeInformationRundown(p__, ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
			CLRETW__BATCH_DONE(DotNETRuntimeRundown, RuntimeInformationDCStart, p__, len__);
			return ERROR_SUCCESS;
		}
	}
	if (len__ > sizeof(stack__)) {
		buf__ = malloc(len__);
		if (!buf__)
			return clretw__drop(&clretw_dropped_nomem);
	}
	clretw__put_DotNETRuntimeRundown_RuntimeInformationRundown(buf__, ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
	CLRETW__PROBE(DotNETRuntimeRundown, RuntimeInformationDCStart, buf__, len__);
	if (buf__ != stack__)
		free(buf__);
	return ERROR_SUCCESS;
}

ULONG FireEtXplatRuntimeInformationDCStart(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	if (!EventXplatEnabledRuntimeInformationDCStart())
		return ERROR_SUCCESS;
	return clretw__fire_RuntimeInformationDCStart(ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
}

/* batch index -> event, for the tracer's enable mask */
const char clretw_batch_events[] __attribute__((used, visibility("default"))) =
	"DotNETRuntime:RuntimeInformationStart\0"
	"DotNETRuntime:GCTriggered\0"
	"DotNETRuntime:GCStart_V2\0"
	"DotNETRuntime:GCEnd_V1\0"
	"DotNETRuntime:GCHeapStats_V2\0"
	"DotNETRuntime:GCAllocationTick_V2\0"
	"DotNETRuntime:GCAllocationTick_V3\0"
	"DotNETRuntime:GCSuspendEEBegin_V1\0"
	"DotNETRuntime:GCSuspendEEEnd_V1\0"
	"DotNETRuntime:GCRestartEEBegin_V1\0"
	"DotNETRuntime:GCRestartEEEnd_V1\0"
	"DotNETRuntime:GCGlobalHeapHistory_V3\0"
	"DotNETRuntime:GCDynamicEvent\0"
	"DotNETRuntime:BulkType\0"
	"DotNETRuntime:MethodJittingStarted_V1\0"
	"DotNETRuntime:MethodLoad_V2\0"
	"DotNETRuntime:MethodUnload_V2\0"
	"DotNETRuntime:MethodLoadVerbose_V2\0"
	"DotNETRuntime:MethodUnloadVerbose_V2\0"
	"DotNETRuntime:MethodILToNativeMap\0"
	"DotNETRuntime:ModuleLoad_V2\0"
	"DotNETRuntime:ModuleUnload_V2\0"
	"DotNETRuntime:AssemblyLoad_V1\0"
	"DotNETRuntime:AssemblyUnload_V1\0"
	"DotNETRuntime:DomainModuleLoad_V1\0"
	"DotNETRuntime:AppDomainLoad_V1\0"
	"DotNETRuntime:AppDomainUnload_V1\0"
	"DotNETRuntime:ExceptionThrown_V1\0"
	"DotNETRuntime:ExceptionThrownStop\0"
	"DotNETRuntime:ExceptionCatchStart\0"
	"DotNETRuntime:ExceptionCatchStop\0"
	"DotNETRuntime:ExceptionFinallyStart\0"
	"DotNETRuntime:ExceptionFinallyStop\0"
	"DotNETRuntime:ExceptionFilterStart\0"
	"DotNETRuntime:ExceptionFilterStop\0"
	"DotNETRuntime:ContentionStart_V1\0"
	"DotNETRuntime:ContentionStop_V1\0"
	"DotNETRuntime:ThreadPoolWorkerThreadStart\0"
	"DotNETRuntime:ThreadPoolWorkerThreadStop\0"
	"DotNETRuntime:ThreadPoolWorkerThreadAdjustmentSample\0"
	"DotNETRuntime:ThreadPoolWorkerThreadAdjustmentAdjustment\0"
	"DotNETRuntime:ThreadPoolWorkerThreadAdjustmentStats\0"
	"DotNETRuntime:ThreadCreated\0"
	"DotNETRuntime:ThreadTerminated\0"
	"DotNETRuntime:CLRStackWalk\0"
	"DotNETRuntimeRundown:MethodDCStartVerbose_V1\0"
	"DotNETRuntimeRundown:MethodDCEndVerbose_V1\0"
	"DotNETRuntimeRundown:MethodDCStartVerbose_V2\0"
	"DotNETRuntimeRundown:MethodDCEndVerbose_V2\0"
	"DotNETRuntimeRundown:MethodDCStartILToNativeMap\0"
	"DotNETRuntimeRundown:MethodDCEndILToNativeMap\0"
	"DotNETRuntimeRundown:ModuleDCStart_V2\0"
	"DotNETRuntimeRundown:ModuleDCEnd_V2\0"
	"DotNETRuntimeRundown:AssemblyDCStart_V1\0"
	"DotNETRuntimeRundown:AssemblyDCEnd_V1\0"
	"DotNETRuntimeRundown:DomainModuleDCStart_V1\0"
	"DotNETRuntimeRundown:DomainModuleDCEnd_V1\0"
	"DotNETRuntimeRundown:AppDomainDCStart_V1\0"
	"DotNETRuntimeRundown:AppDomainDCEnd_V1\0"
	"DotNETRuntimeRundown:DCStartInit_V1\0"
	"DotNETRuntimeRundown:DCStartComplete_V1\0"
	"DotNETRuntimeRundown:DCEndInit_V1\0"
	"DotNETRuntimeRundown:DCEndComplete_V1\0"
	"DotNETRuntimeRundown:RuntimeInformationDCStart\0"
	"";

