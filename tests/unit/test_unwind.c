// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_unwind.c - the frameless-caller scan of symbolizer/unwind.c over
 * JIT-like code of this very process (an anonymous executable mapping the
 * test describes, no ELF module): which stack words it takes for return
 * addresses, and the per-process cache of the code it read to decide --
 * hits, misses, invalidation by the code generation and by the mappings,
 * its bound, and a process gone -- and the generation the symbolizer
 * keeps for it.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "test.h"
#include "symbolizer.h"
#include "unwind.h"

#define CODE_SIZE	(64 << 10)
#define CALL_OFF	16		/* a 5-byte call E8 rel32 here ... */
#define RET_OFF		(CALL_OFF + 5)	/* ... returns here */
#define STACK_BASE	0x7ffd00000000ULL	/* where the copy claims to be */
#define UW_CALLS	512		/* unwind.c's cache slots per process */

static uint8_t *code;		/* the "JIT code": int3 but for the calls placed */
static struct proc_map code_map;
static struct proc_maps pm;

static void setup_code(void)
{
	code = mmap(NULL, CODE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	memset(code, 0xcc, CODE_SIZE);
	code[CALL_OFF] = 0xe8;
	memset(code + CALL_OFF + 1, 0, 4);
	/* the unwinder takes the process's word for what is executable */
	code_map = (struct proc_map){ .start = (uint64_t)code, .end = (uint64_t)code + CODE_SIZE,
				      .prot = PROT_READ | PROT_EXEC, .path = "", .dso = -1 };
	pm.maps = &code_map;
	pm.n = pm.cap = 1;
}

/*
 * A copied stack of 32 words at STACK_BASE: the leaf is in the code with
 * its frame at word 8 (saved bp 0 ends the chain there, its return address
 * at word 9 no call precedes); the words below the frame are what the scan
 * reads, word 2 the given candidate.
 */
struct copy {
	uint64_t w[32];
	struct unwind_regs r;
};

static void copy_init(struct copy *c, uint64_t candidate)
{
	memset(c, 0, sizeof(*c));
	c->w[2] = candidate;
	c->w[5] = 0x1234;		/* no code: never a candidate */
	c->w[8] = 0;
	c->w[9] = (uint64_t)code + 0x400;
	c->r.ip = (uint64_t)code + 0x300;
	c->r.sp = STACK_BASE;
	c->r.bp = STACK_BASE + 8 * 8;
}

static uint32_t unwind(struct unwinder *u, pid_t pid, uint64_t gen, const struct copy *c,
		       uint64_t *out, uint32_t max)
{
	return unwinder__unwind(u, pid, &pm, gen, &c->r, c->w, sizeof(c->w), out, max);
}

/* The scan takes a word after a call, and reads the code once per generation */
static void test_hit_miss_generation(void)
{
	struct unwinder *u = unwinder__new();
	uint64_t out[16], ret = (uint64_t)code + RET_OFF;
	struct unwind_stats st;
	struct copy c;

	if (!ASSERT_OK_PTR(u, "unwinder"))
		return;
	copy_init(&c, ret);
	/* leaf, the frameless caller the scan found, the chain's return address */
	if (ASSERT_EQ(unwind(u, getpid(), 7, &c, out, 16), 3, "frames")) {
		ASSERT_EQ(out[0], c.r.ip, "leaf");
		ASSERT_EQ(out[1], ret, "the scan's return address");
		ASSERT_EQ(out[2], c.w[9], "the chain's");
	}
	unwinder__stats(u, &st);
	ASSERT_EQ(st.code_reads, 1, "first sight: read");
	ASSERT_EQ(st.code_cached, 0, "first sight: nothing cached");

	ASSERT_EQ(unwind(u, getpid(), 7, &c, out, 16), 3, "again");
	unwinder__stats(u, &st);
	ASSERT_EQ(st.code_reads, 1, "same generation: no read");
	ASSERT_EQ(st.code_cached, 1, "same generation: the cached answer");

	/* the code freed and the memory reused: the call is gone */
	code[CALL_OFF] = 0xcc;
	ASSERT_EQ(unwind(u, getpid(), 7, &c, out, 16), 3,
		  "nothing told of it: the answer of generation 7 stands");
	ASSERT_EQ(unwind(u, getpid(), 8, &c, out, 16), 2, "generation 8: read again, no call");
	ASSERT_EQ(out[1], c.w[9], "the scan took nothing");
	unwinder__stats(u, &st);
	ASSERT_EQ(st.code_reads, 2, "one more read");
	ASSERT_EQ(unwind(u, getpid(), 8, &c, out, 16), 2, "the no is cached too");
	unwinder__stats(u, &st);
	ASSERT_EQ(st.code_reads, 2, "and not read again");
	ASSERT_EQ(st.code_cached, 3, "cached answers");

	code[CALL_OFF] = 0xe8;
	ASSERT_EQ(unwind(u, getpid(), 9, &c, out, 16), 3, "a call there again, generation 9");
	unwinder__free(u);
}

/* A mapping replaced (or an exec) drops the process's answers, whatever the
 * generation says; another process has its own. */
static void test_mappings_drop(void)
{
	struct unwinder *u = unwinder__new();
	struct proc_map two[2];
	uint64_t out[16];
	struct unwind_stats st;
	struct copy c;

	if (!ASSERT_OK_PTR(u, "unwinder"))
		return;
	copy_init(&c, (uint64_t)code + RET_OFF);
	ASSERT_EQ(unwind(u, getpid(), 1, &c, out, 16), 3, "read");
	ASSERT_EQ(unwind(u, getpid(), 1, &c, out, 16), 3, "cached");
	/* sorted by start, as proc_maps keeps them */
	two[0] = (struct proc_map){ .start = 0x10000000, .end = 0x10001000,
				    .prot = PROT_READ | PROT_EXEC, .path = "", .dso = -1 };
	two[1] = code_map;
	pm.maps = two;
	pm.n = pm.cap = 2;
	ASSERT_EQ(unwind(u, getpid(), 1, &c, out, 16), 3, "new mappings");
	pm.maps = &code_map;
	pm.n = pm.cap = 1;
	unwinder__stats(u, &st);
	ASSERT_EQ(st.code_reads, 2, "the new mappings read the code again");
	ASSERT_EQ(st.code_cached, 1, "one answer from the old mappings' cache");
	ASSERT_EQ(st.rebuilds, 2, "and the module set built again");
	unwinder__free(u);
}

/* More distinct return addresses than the cache's slots: all are frames,
 * at most the slots' number of answers survive to the next stack */
static void test_bounded(void)
{
	enum { N = 3 * UW_CALLS };
	struct unwinder *u = unwinder__new();
	static uint64_t out[N + 8], w[N + 4];
	struct unwind_regs r = { .ip = 0, .sp = STACK_BASE };
	struct unwind_stats st;
	uint32_t i, n, found = 0;

	if (!ASSERT_OK_PTR(u, "unwinder"))
		return;
	/* N calls back to back from offset 0x1000, each word after one */
	for (i = 0; i < N; i++) {
		code[0x1000 + 5 * i] = 0xe8;
		memset(code + 0x1000 + 5 * i + 1, 0, 4);
		w[i] = (uint64_t)code + 0x1000 + 5 * (i + 1);
	}
	w[N] = 0;				/* the frame: saved bp 0 ... */
	w[N + 1] = (uint64_t)code + 0x400;	/* ... and a return address */
	r.ip = (uint64_t)code + 0x300;
	r.bp = STACK_BASE + 8ULL * N;
	n = unwinder__unwind(u, getpid(), &pm, 1, &r, w, sizeof(w), out, N + 8);
	for (i = 0; i < N && i + 1 < n; i++)
		found += out[i + 1] == w[i];
	ASSERT_EQ(n, N + 2, "every word a frame");
	ASSERT_EQ(found, N, "in stack order");
	n = unwinder__unwind(u, getpid(), &pm, 1, &r, w, sizeof(w), out, N + 8);
	ASSERT_EQ(n, N + 2, "the same stack again");
	unwinder__stats(u, &st);
	ASSERT_EQ(st.code_reads + st.code_cached, 2 * N, "every candidate answered");
	ASSERT_TRUE(st.code_cached > 0 && st.code_cached <= UW_CALLS,
		    "what the slots kept, no more");
	for (i = 0; i < N; i++)
		code[0x1000 + 5 * i] = 0xcc;
	unwinder__free(u);
}

/* A process gone keeps the answers read while it lived, in a new
 * generation too (its exit's method unloads move it, and samples taken
 * before the exit are unwound after it); an address it never read is no
 * return address then */
static void test_process_gone(void)
{
	struct unwinder *u = unwinder__new();
	int go[2], ready[2];
	uint64_t out[16];
	struct copy c;
	pid_t child;
	char b;

	if (!ASSERT_OK_PTR(u, "unwinder") || !ASSERT_OK(pipe(go), "pipe") ||
	    !ASSERT_OK(pipe(ready), "pipe"))
		return;
	code[0x800] = 0xe8;	/* a second call site, read only once the child is gone */
	memset(code + 0x801, 0, 4);
	child = fork();
	if (child == 0) {	/* the same code at the same address */
		close(go[1]);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &b, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (!ASSERT_TRUE(child > 0, "fork"))
		return;
	ASSERT_EQ(read(ready[0], &b, 1), 1, "child ready");
	copy_init(&c, (uint64_t)code + RET_OFF);
	ASSERT_EQ(unwind(u, child, 4, &c, out, 16), 3, "the child's code read");
	close(go[1]);
	ASSERT_EQ(waitpid(child, NULL, 0), child, "child reaped");
	ASSERT_EQ(unwind(u, child, 4, &c, out, 16), 3, "gone: the answer it gave");
	ASSERT_EQ(unwind(u, child, 5, &c, out, 16), 3, "gone, a new generation: the answer it gave");
	copy_init(&c, (uint64_t)code + 0x805);
	ASSERT_EQ(unwind(u, child, 5, &c, out, 16), 2, "gone: an address never read is no call");
	memset(code + 0x800, 0xcc, 5);
	close(go[0]);
	close(ready[0]);
	close(ready[1]);
	unwinder__free(u);
}

/* What the collector gives the unwinder: a method loaded or unloaded, a
 * mapping the kernel reported, perf-map lines read change the process's
 * code generation */
static void test_symbolizer_code_gen(void)
{
	struct symbolizer_opts o = { .no_kernel = 1 };
	struct symbolizer *s = symbolizer__new(&o);
	struct proc_map m = { .start = 0x10000000, .end = 0x10001000,
			      .prot = PROT_READ | PROT_EXEC, .path = "", .dso = -1 };
	const char *line = "10000200 40 N\n";
	char path[] = "/tmp/test_unwind_map-XXXXXX";
	uint64_t g0, g1, g2;
	pid_t me = getpid();
	int fd;

	if (!ASSERT_OK_PTR(s, "symbolizer"))
		return;
	ASSERT_EQ(symbolizer__code_gen(s, me), 0, "untracked");
	ASSERT_OK(symbolizer__add_pid(s, me), "add_pid");
	g0 = symbolizer__code_gen(s, me);
	ASSERT_EQ(symbolizer__code_gen(s, me), g0, "nothing happened");
	ASSERT_OK(symbolizer__method_load(s, me, 0x10000100, 0x40, "M", 1, 0, 100), "load");
	g1 = symbolizer__code_gen(s, me);
	ASSERT_NEQ(g1, g0, "a method loaded");
	ASSERT_OK(symbolizer__method_unload(s, me, 0x10000100, 0x40, "M", 1, 0, 200), "unload");
	g2 = symbolizer__code_gen(s, me);
	ASSERT_TRUE(g2 != g1 && g2 != g0, "a method unloaded");
	ASSERT_OK(symbolizer__add_mapping(s, me, &m), "mapping");
	ASSERT_TRUE(symbolizer__code_gen(s, me) != g2, "a mapping reported");
	g2 = symbolizer__code_gen(s, me);
	fd = mkstemp(path);
	if (ASSERT_TRUE(fd >= 0, "perf map file") &&
	    ASSERT_EQ(write(fd, line, strlen(line)), (long)strlen(line), "perf map line")) {
		ASSERT_OK(symbolizer__set_perf_map(s, me, path), "perf map");
		ASSERT_TRUE(symbolizer__code_gen(s, me) != g2, "perf-map lines read");
	}
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	symbolizer__free(s);
}

int main(void)
{
	setup_code();
	RUN(test_hit_miss_generation);
	RUN(test_mappings_drop);
	RUN(test_bounded);
	RUN(test_process_gone);
	RUN(test_symbolizer_code_gen);
	return test_summary();
}
