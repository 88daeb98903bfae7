// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tracepoint_shim.c - liblttng-ust-tracepoint.so.0 for processes that have
 * no LTTng-UST 2.12: it takes the tracepoints a stock CoreCLR registers and
 * keeps them in a table a tracer reads from outside (usdt/tracepoint_abi.h,
 * usdt/README.md "The tracepoint shim").
 *
 * It runs inside the traced process, so it uses libc only, never allocates
 * and never writes to stdout; stderr only once, when EBPF_TPSHIM_DEBUG is set.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracepoint_abi.h"

#define EXPORT __attribute__((visibility("default")))

static uint64_t entries[TPSHIM_CAPACITY];

/* each tracepoint_register_lib() call: its array and its run of entries */
#define MAX_LIBS 64
static struct {
	struct tpabi_tracepoint *const *tps;
	uint32_t first, n;
} libs[MAX_LIBS];

/* each listed tracepoint's probes: {the probe, data = its index}, {NULL} */
static struct tpabi_probe probe_arrays[TPSHIM_CAPACITY][2];

static void demo_probe(void *data, unsigned long first);
void ebpf_collect_tpshim_probe(void);
void ebpf_collect_tpshim_probe_fp(void);
extern const char ebpf_collect_tpshim_probe_site[], ebpf_collect_tpshim_probe_fp_site[];
/* the batched mode's (tracepoint_shim_batch.c) */
extern volatile unsigned char ebpf_collect_tpshim_batch_ctl[];
extern unsigned short ebpf_collect_tpshim_batch_semaphore;
extern struct tpshim_spec ebpf_collect_tpshim_batch_specs[];
void ebpf_collect_tpshim_batch_site(const void *data, uint32_t len, uint32_t tid,
				    uint32_t first_seq, uint32_t count);

/* not static const: the table must sit in the writable mapping, where a
 * tracer looks for it and writes nothing but a tracepoint's probes */
EXPORT struct tpshim_table ebpf_collect_tpshim = {
	.magic = TPSHIM_MAGIC,
	.probe = { { (void (*)(void))demo_probe, &ebpf_collect_tpshim }, { 0, 0 } },
};

/*
 * The probes, in assembly so that no compiler changes a byte of them.
 *
 * ebpf_collect_tpshim_probe, of every tracepoint without a double, is
 * called as (data = the tracepoint's index, the event's arguments...).
 * It first tests the batched mode's semaphore (raised only while a tracer
 * holds the batch site: tracepoint_shim_batch.c) and then the index's
 * mask byte; a batched call goes to the batched entry.  Every other call
 * reaches ebpf_collect_tpshim_probe_site, a 5-byte nop, then the return.
 * A tracer's uprobe sits on the nop, which the kernel turns into a call
 * to its uprobe trampoline on the first hit (architecture decision 12):
 * about half an int3 trap's cost, and no single step of the instruction,
 * which a `ret` at the site would take.  Nothing before the nop moves the
 * stack pointer: the uprobe finds the return address at it.
 *
 * ebpf_collect_tpshim_probe_fp, of the tracepoints with a double: a
 * double arrives in an SSE register, which a uprobe program cannot read,
 * so after the same test it stores xmm0..xmm3 in the red zone below the
 * stack pointer (the x86-64 ABI's 128 bytes a leaf function may use),
 * under the 32 bytes the kernel's uprobe trampoline pushes there, then
 * has the same nop, labelled ebpf_collect_tpshim_probe_fp_site.
 *
 * The batched entry pushes a frame (rbp, so that the stack walk goes on
 * through it to the call site), the six argument registers and, for the
 * doubles, xmm0..xmm3, and calls ebpf_collect_tpshim_batch_call(regs, the
 * caller's stack arguments, the doubles or NULL); when that returns
 * nonzero (no room, no spec) the registers are put back and the call goes
 * on to the probe's uprobe site.
 */
#define STR_(x) #x
#define STR(x) STR_(x)
#define BATCHED_TEST(per_event)							\
	"	cmpw $0, ebpf_collect_tpshim_batch_semaphore(%rip)\n"		\
	"	je " per_event "\n"						\
	"	cmpq $" STR(TPSHIM_CAPACITY) ", %rdi\n"				\
	"	jae " per_event "\n"						\
	"	movq ebpf_collect_tpshim_batch_ctl@GOTPCREL(%rip), %rax\n"	\
	"	cmpb $0, 32(%rax,%rdi)\n"					\
	"	je " per_event "\n"
#define SAVE_ARGS							\
	"	pushq %rbp\n"							\
	"	movq %rsp, %rbp\n"						\
	"	pushq %r9\n	pushq %r8\n	pushq %rcx\n"			\
	"	pushq %rdx\n	pushq %rsi\n	pushq %rdi\n"
#define RESTORE_ARGS							\
	"	popq %rdi\n	popq %rsi\n	popq %rdx\n"			\
	"	popq %rcx\n	popq %r8\n	popq %r9\n"			\
	"	popq %rbp\n"
__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl ebpf_collect_tpshim_probe\n"
	"	.type ebpf_collect_tpshim_probe, @function\n"
	"ebpf_collect_tpshim_probe:\n"
	BATCHED_TEST("ebpf_collect_tpshim_probe_site")
	SAVE_ARGS
	"	movq %rsp, %rdi\n"		/* the six registers */
	"	leaq 16(%rbp), %rsi\n"		/* the caller's stack arguments */
	"	xorl %edx, %edx\n"
	"	call ebpf_collect_tpshim_batch_call\n"
	RESTORE_ARGS
	"	testl %eax, %eax\n"
	"	jnz ebpf_collect_tpshim_probe_site\n"
	"	ret\n"
	"	.globl ebpf_collect_tpshim_probe_site\n"
	"ebpf_collect_tpshim_probe_site:\n"
	"	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"	/* nopl 0x0(%rax,%rax,1) */
	"	ret\n"
	"	.size ebpf_collect_tpshim_probe, .-ebpf_collect_tpshim_probe\n"
	"	.p2align 4\n"
	"	.globl ebpf_collect_tpshim_probe_fp\n"
	"	.type ebpf_collect_tpshim_probe_fp, @function\n"
	"ebpf_collect_tpshim_probe_fp:\n"
	BATCHED_TEST("1f")
	SAVE_ARGS
	"	subq $32, %rsp\n"
	"	movsd %xmm0, (%rsp)\n	movsd %xmm1, 8(%rsp)\n"
	"	movsd %xmm2, 16(%rsp)\n	movsd %xmm3, 24(%rsp)\n"
	"	leaq 32(%rsp), %rdi\n"
	"	leaq 16(%rbp), %rsi\n"
	"	movq %rsp, %rdx\n"		/* the doubles */
	"	call ebpf_collect_tpshim_batch_call\n"
	"	movsd (%rsp), %xmm0\n	movsd 8(%rsp), %xmm1\n"
	"	movsd 16(%rsp), %xmm2\n	movsd 24(%rsp), %xmm3\n"
	"	addq $32, %rsp\n"
	RESTORE_ARGS
	"	testl %eax, %eax\n"
	"	jnz 1f\n"
	"	ret\n"
	"1:\n"
	"	movsd %xmm0, -" STR(TPSHIM_FP_BELOW) "(%rsp)\n"
	"	movsd %xmm1, -" STR(TPSHIM_FP_BELOW) "+8(%rsp)\n"
	"	movsd %xmm2, -" STR(TPSHIM_FP_BELOW) "+16(%rsp)\n"
	"	movsd %xmm3, -" STR(TPSHIM_FP_BELOW) "+24(%rsp)\n"
	"	.globl ebpf_collect_tpshim_probe_fp_site\n"
	"ebpf_collect_tpshim_probe_fp_site:\n"
	"	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"	/* nopl 0x0(%rax,%rax,1) */
	"	ret\n"
	"	.size ebpf_collect_tpshim_probe_fp, .-ebpf_collect_tpshim_probe_fp\n");

/* The demonstration probe: called by a call site as (data, args...), of
 * which it reads the first integer argument (the next register after
 * data; the rest the caller passes are ignored, as the x86-64 calling
 * convention allows). */
static void demo_probe(void *data, unsigned long first)
{
	struct tpshim_table *t = data;

	__atomic_store_n(&t->probe_last, first, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->probe_hits, 1, __ATOMIC_RELAXED);
}

static void debug_once(const char *what, const char *path)
{
	static int said;

	if (said || !getenv("EBPF_TPSHIM_DEBUG"))
		return;
	said = 1;
	fprintf(stderr, "ebpf-collect tracepoint shim: %s%s%s\n", what,
		path ? " " : "", path ? path : "");
}

/* Is path an ELF shared object other than this file (st)? */
static int other_library(const char *path, const struct stat *self)
{
	unsigned char h[18];
	struct stat st;
	int fd, n;

	if (stat(path, &st) || (st.st_dev == self->st_dev && st.st_ino == self->st_ino))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, h, sizeof(h));
	close(fd);
	/* ELF magic, and e_type (little-endian) ET_DYN */
	return n == (int)sizeof(h) && !memcmp(h, "\177ELF", 4) && h[16] == 3 && h[17] == 0;
}

/* The directories the dynamic loader searches for a library named without
 * a path: LD_LIBRARY_PATH's, then Debian's multiarch and the classic ones. */
static const char *const system_dirs[] = {
	"/usr/local/lib", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib",
};

static int found_in(const char *dir, size_t len, const struct stat *self, char *out, size_t outsz)
{
	static const char *const names[] = { TPABI_LIB_NAME, TPABI_UST_LIB_NAME };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (snprintf(out, outsz, "%.*s/%s", (int)len, dir, names[i]) >= (int)outsz)
			continue;
		if (other_library(out, self))
			return 1;
	}
	return 0;
}

/*
 * A real LTTng-UST 2.12 this process could load: already loaded, or a
 * library of its names (other than this one) where the loader looks.
 * The shim then stands down so that it never hides a real tracer.
 */
static int real_lttng(char *path, size_t pathsz)
{
	Dl_info self_info;
	struct stat self;
	const char *lp;
	void *h;

	h = dlopen(TPABI_UST_LIB_NAME, RTLD_LAZY | RTLD_NOLOAD);
	if (h) {
		dlclose(h);
		snprintf(path, pathsz, "%s (loaded)", TPABI_UST_LIB_NAME);
		return 1;
	}
	if (!dladdr(&ebpf_collect_tpshim, &self_info) || !self_info.dli_fname ||
	    stat(self_info.dli_fname, &self))
		return 0;
	lp = getenv("LD_LIBRARY_PATH");
	while (lp && *lp) {
		size_t len = strcspn(lp, ":");

		if (len && found_in(lp, len, &self, path, pathsz))
			return 1;
		lp += len + (lp[len] == ':');
	}
	for (size_t i = 0; i < sizeof(system_dirs) / sizeof(system_dirs[0]); i++)
		if (found_in(system_dirs[i], strlen(system_dirs[i]), &self, path, pathsz))
			return 1;
	return 0;
}

__attribute__((constructor)) static void shim_init(void)
{
	char path[4096];

	ebpf_collect_tpshim.entries = (uint64_t)(uintptr_t)entries;
	ebpf_collect_tpshim.probe_site = (uint64_t)(uintptr_t)ebpf_collect_tpshim_probe_site;
	ebpf_collect_tpshim.probe_arrays = (uint64_t)(uintptr_t)probe_arrays;
	ebpf_collect_tpshim.probe_site_fp = (uint64_t)(uintptr_t)ebpf_collect_tpshim_probe_fp_site;
	ebpf_collect_tpshim.batch_ctl = (uint64_t)(uintptr_t)ebpf_collect_tpshim_batch_ctl;
	ebpf_collect_tpshim.batch_sema = (uint64_t)(uintptr_t)&ebpf_collect_tpshim_batch_semaphore;
	ebpf_collect_tpshim.batch_site = (uint64_t)(uintptr_t)ebpf_collect_tpshim_batch_site;
	ebpf_collect_tpshim.batch_specs = (uint64_t)(uintptr_t)ebpf_collect_tpshim_batch_specs;
	ebpf_collect_tpshim.probe_func = (uint64_t)(uintptr_t)ebpf_collect_tpshim_probe;
	ebpf_collect_tpshim.probe_func_fp = (uint64_t)(uintptr_t)ebpf_collect_tpshim_probe_fp;
	if (real_lttng(path, sizeof(path))) {
		ebpf_collect_tpshim.refused = 1;
		debug_once("standing down, a real LTTng-UST is at", path);
	}
}

/* The loader runs constructors one at a time, so registrations never race
 * each other; a tracer reading from outside sees count after the entry. */
EXPORT int tracepoint_register_lib(struct tpabi_tracepoint *const *tps, int count)
{
	struct tpshim_table *t = &ebpf_collect_tpshim;
	uint32_t first = t->count;

	if (t->refused)
		return 0;
	for (int i = 0; i < count; i++) {
		if (!tps[i])
			continue;
		/* past MAX_LIBS a library could not be cleared when it goes
		 * away: its tracepoints are not listed at all */
		if (t->count >= TPSHIM_CAPACITY || t->libs >= MAX_LIBS) {
			t->dropped++;
			continue;
		}
		entries[t->count] = (uint64_t)(uintptr_t)tps[i];
		/* its state is 0 (a tracer raises it), so no call site reads
		 * probes before the write is complete */
		probe_arrays[t->count][0] = (struct tpabi_probe){
			tps[i]->signature && strstr(tps[i]->signature, "double") ?
				ebpf_collect_tpshim_probe_fp : ebpf_collect_tpshim_probe,
			(void *)(uintptr_t)t->count };
		__atomic_store_n(&tps[i]->probes, probe_arrays[t->count], __ATOMIC_RELEASE);
		__atomic_store_n(&t->count, t->count + 1, __ATOMIC_RELEASE);
	}
	if (t->libs < MAX_LIBS)
		libs[t->libs] = (typeof(libs[0])){ tps, first, t->count - first };
	t->libs++;
	debug_once("holding the runtime's tracepoints", NULL);
	return 0;
}

/* A library going away: its tracepoints' entries become 0 (a tracer must
 * not write into memory that is no longer theirs); the count stays. */
EXPORT int tracepoint_unregister_lib(struct tpabi_tracepoint *const *tps)
{
	struct tpshim_table *t = &ebpf_collect_tpshim;

	for (uint32_t l = 0; l < t->libs && l < MAX_LIBS; l++) {
		if (libs[l].tps != tps)
			continue;
		for (uint32_t i = 0; i < libs[l].n; i++)
			__atomic_store_n(&entries[libs[l].first + i], 0, __ATOMIC_RELEASE);
		libs[l].n = 0;
	}
	return 0;
}

/* The call sites' read-side: probes are replaced whole by a tracer, never
 * freed while a call site may read them, so there is nothing to lock. */
EXPORT void tp_rcu_read_lock_bp(void)
{
}

EXPORT void tp_rcu_read_unlock_bp(void)
{
}

EXPORT void *tp_rcu_dereference_sym_bp(void *p)
{
	return __atomic_load_n(&p, __ATOMIC_ACQUIRE);
}
