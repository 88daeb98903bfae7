// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests of collector/sources/kernel_events.c that need no privileges: option
 * parsing, the built-in syscall table, and record -> nettrace event
 * conversion (decode-only module, records built here, the file read back),
 * a --call-graph dwarf sample of the test itself unwound. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "kernel_events.h"
#include "nettrace.h"

static void test_groups(void)
{
	unsigned int g = 99;
	char err[160] = "";

	ASSERT_OK(kernel_events__parse_groups("sched,syscalls,proc", &g, err, sizeof(err)), "all 3");
	ASSERT_EQ(g, KE_GROUP_SCHED | KE_GROUP_SYSCALLS | KE_GROUP_PROC, "bits");
	ASSERT_OK(kernel_events__parse_groups("proc", &g, err, sizeof(err)), "proc");
	ASSERT_EQ(g, KE_GROUP_PROC, "proc bit");
	ASSERT_OK(kernel_events__parse_groups("none", &g, err, sizeof(err)), "none");
	ASSERT_EQ(g, 0, "none bits");
	ASSERT_OK(kernel_events__parse_groups("all", &g, err, sizeof(err)), "all");
	ASSERT_EQ(g, 7, "all bits");
	g = 5;
	ASSERT_EQ(kernel_events__parse_groups("sched,bogus", &g, err, sizeof(err)), -EINVAL, "bad");
	ASSERT_EQ(g, 5, "unchanged on error");
	ASSERT_TRUE(strstr(err, "'bogus'") != NULL, "message names the group");
}

static void test_hz(void)
{
	unsigned int hz = 0;

	ASSERT_OK(kernel_events__parse_hz(NULL, &hz), "default");
	ASSERT_EQ(hz, KE_DEFAULT_HZ, "default rate");
	ASSERT_OK(kernel_events__parse_hz("99", &hz), "99");
	ASSERT_EQ(hz, 99, "99 Hz");
	ASSERT_EQ(kernel_events__parse_hz("0", &hz), -EINVAL, "0 rejected");
	ASSERT_EQ(kernel_events__parse_hz("12abc", &hz), -EINVAL, "junk rejected");
	ASSERT_EQ(kernel_events__parse_hz("-5", &hz), -EINVAL, "negative rejected");
	ASSERT_EQ(kernel_events__parse_hz("10001", &hz), -EINVAL, "over max");
}

static void test_syscall_names(void)
{
	ASSERT_STREQ(ke_syscall_name(0), "read", "0");
	ASSERT_STREQ(ke_syscall_name(1), "write", "1");
	ASSERT_STREQ(ke_syscall_name(59), "execve", "59");
	ASSERT_STREQ(ke_syscall_name(231), "exit_group", "231");
	ASSERT_STREQ(ke_syscall_name(202), "futex", "202");
	ASSERT_TRUE(ke_syscall_name(100000) == NULL, "out of range");
}

#define TID 4242
#define PID 4240

static void hdr(struct ce_header *h, uint32_t type, uint32_t size, uint64_t ts)
{
	h->timestamp = ts;
	h->type = type;
	h->size = size;
	h->pid = PID;
	h->tid = TID;
}

/* Emit one of every record kind (plus a malformed one) into a file. */
static int write_trace(const char *path, uint64_t *bad)
{
	struct nt_trace_info info = { .freq = 1000000000ULL, .pointer_size = 8, .pid = PID };
	struct kernel_events_opts opts = { .rb_fd = -1 };
	struct {
		struct ke_switch e;
		uint64_t frames[4];
	} sw = { 0 };
	struct ke_offcpu off = { 0 };
	struct ke_syscall sc = { 0 };
	struct ke_exec ex = { 0 };
	struct ke_exit xt = { 0 };
	struct ke_fork fk = { 0 };
	struct ke_sink sink = { 0 };
	struct kernel_events *ke;
	int err = -1;

	unlink(path);
	sink.w = nt_writer__open(path, &info);
	ke = kernel_events__open(&opts);
	if (!ASSERT_OK_PTR(sink.w, "writer") || !ASSERT_OK_PTR(ke, "decode-only module"))
		goto out;
	hdr(&sw.e.hdr, KE_REC_SWITCH, sizeof(sw), 1000);
	sw.e.prev_state = 1;
	sw.e.next_pid = 1;
	sw.e.next_tid = 7;
	sw.e.prev_prio = 120;
	sw.e.next_prio = 100;
	sw.e.cpu = 1;
	sw.e.flags = KE_F_HAS_STACK;
	sw.e.kstack_depth = 2;
	sw.e.ustack_depth = 2;
	strcpy(sw.e.prev_comm, "worker");
	strcpy(sw.e.next_comm, "other");
	sw.frames[0] = 0xffffffff81000010ULL;
	sw.frames[1] = 0xffffffff81000020ULL;
	sw.frames[2] = 0x401000;
	sw.frames[3] = 0x402000;
	hdr(&off.hdr, KE_REC_OFFCPU, sizeof(off), 6000);
	off.start_ts = 1000;
	off.duration_ns = 5000;
	off.prev_state = 1;
	off.waker_pid = PID;
	off.waker_tid = 4243;
	hdr(&sc.hdr, KE_REC_SYSCALL, sizeof(sc), 7000);
	sc.id = 0;
	sc.ret = -11;
	sc.duration_ns = 300;
	sc.args[0] = 3;
	sc.args[5] = 6;
	hdr(&ex.hdr, KE_REC_EXEC, sizeof(ex), 8000);
	ex.old_tid = TID;
	strcpy(ex.filename, "/tmp/caf\xc3\xa9");	/* UTF-8 e-acute */
	strcpy(ex.comm, "caf\xc3\xa9");
	hdr(&fk.hdr, KE_REC_FORK, sizeof(fk), 9000);
	fk.child_pid = 5000;
	fk.child_tid = 5000;
	strcpy(fk.parent_comm, "sh");
	strcpy(fk.child_comm, "sh");
	hdr(&xt.hdr, KE_REC_EXIT, sizeof(xt), 10000);
	xt.exit_code = 3 << 8;
	xt.group_dead = 1;
	strcpy(xt.comm, "sh");
	if (!ASSERT_EQ(kernel_events__emit(ke, &sw, sizeof(sw), &sink), 1, "switch") ||
	    !ASSERT_EQ(kernel_events__emit(ke, &off, sizeof(off), &sink), 1, "offcpu") ||
	    !ASSERT_EQ(kernel_events__emit(ke, &sc, sizeof(sc), &sink), 1, "syscall") ||
	    !ASSERT_EQ(kernel_events__emit(ke, &ex, sizeof(ex), &sink), 1, "exec") ||
	    !ASSERT_EQ(kernel_events__emit(ke, &fk, sizeof(fk), &sink), 1, "fork") ||
	    !ASSERT_EQ(kernel_events__emit(ke, &xt, sizeof(xt), &sink), 1, "exit") ||
	    /* malformed: a fixed record with the wrong size is skipped, counted */
	    !ASSERT_EQ(kernel_events__emit(ke, &sc, sizeof(sc) - 8, &sink), 0, "short"))
		goto out;
	*bad = kernel_events__bad_records(ke);
	/* six kinds, and the switch-in once more as Universal.Events cswitch */
	ASSERT_EQ(kernel_events__written(ke), 7, "events written");
	err = nt_writer__close(sink.w, NULL, 20000);
	sink.w = NULL;
out:
	nt_writer__abort(sink.w);
	kernel_events__destroy(ke);
	return err;
}

static void test_emit(void)
{
	static const char *const want[] = {
		"Linux-Kernel-Sched/SchedSwitch {\"PrevPid\":4240,\"PrevTid\":4242,"
		"\"PrevComm\":\"worker\",\"PrevState\":1,\"PrevPrio\":120,\"NextPid\":1,"
		"\"NextTid\":7,\"NextComm\":\"other\",\"NextPrio\":100,\"Cpu\":1} 4",
		"Linux-Kernel-Sched/OffCpu {\"Pid\":4240,\"Tid\":4242,\"DurationNs\":5000,"
		"\"PrevState\":1,\"WakerPid\":4240,\"WakerTid\":4243,\"HasStack\":true} 4",
		"Universal.Events/cswitch {\"_extra\":2} 4",
		"Linux-Kernel-Syscalls/Syscall {\"Id\":0,\"Name\":\"read\",\"Ret\":-11,"
		"\"DurationNs\":300,\"Arg0\":3,\"Arg1\":0,\"Arg2\":0,\"Arg3\":0,\"Arg4\":0,"
		"\"Arg5\":6,\"NoReturn\":false} 0",
		"Linux-Kernel-Process/Exec {\"Pid\":4240,\"Tid\":4242,\"OldTid\":4242,"
		"\"Filename\":\"/tmp/caf\xc3\xa9\",\"Comm\":\"caf\xc3\xa9\"} 0",
		"Linux-Kernel-Process/Fork {\"ParentPid\":4240,\"ParentTid\":4242,"
		"\"ParentComm\":\"sh\",\"ChildPid\":5000,\"ChildTid\":5000,"
		"\"ChildComm\":\"sh\",\"IsThread\":false} 0",
		"Linux-Kernel-Process/Exit {\"Pid\":4240,\"Tid\":4242,\"ExitStatus\":768,"
		"\"ExitCode\":3,\"Signal\":0,\"GroupDead\":true,\"Comm\":\"sh\"} 0",
	};
	char path[] = "/tmp/test_kernel_events-XXXXXX", line[1024];
	struct nt_read_event ev;
	struct nt_reader *r = NULL;
	uint64_t bad = 0;
	int fd = mkstemp(path), i = 0, rc;

	if (!ASSERT_TRUE(fd >= 0, "mkstemp"))
		return;
	close(fd);
	if (write_trace(path, &bad))
		goto out;
	ASSERT_EQ(bad, 1, "malformed record counted");
	r = nt_reader__open(path, NULL);
	if (!ASSERT_OK_PTR(r, "reader"))
		goto out;
	while ((rc = nt_reader__next(r, &ev)) == 1) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		fprintf(f, "%s/%s ", ev.meta->provider, ev.meta->name);
		nt_payload_to_json(ev.meta, ev.payload, ev.payload_size, f);
		fprintf(f, " %u", ev.stack_depth);
		fclose(f);
		snprintf(line, sizeof(line), "%s", buf);
		free(buf);
		if (i < 7)
			ASSERT_STREQ(line, want[i], "event");
		ASSERT_EQ(ev.thread_id, TID, "thread");
		ASSERT_EQ(ev.capture_thread_id, TID, "capture thread");
		if (i == 1) {	/* OffCpu carries the switch-out stack */
			ASSERT_EQ(ev.stack[0], 0xffffffff81000010ULL, "offcpu stack leaf");
			ASSERT_EQ(ev.stack[3], 0x402000, "offcpu stack root");
		}
		if (i == 2) {	/* cswitch: Value = 5000 ns off the CPU, LEB128 */
			ASSERT_EQ(ev.payload_size, 2, "cswitch payload size");
			ASSERT_EQ(ev.payload[0], 0x88, "cswitch value low byte");
			ASSERT_EQ(ev.payload[1], 0x27, "cswitch value high byte");
			ASSERT_EQ(ev.stack[0], 0xffffffff81000010ULL, "cswitch stack leaf");
			ASSERT_EQ(ev.meta->event_id, 2, "cswitch id");
		}
		i++;
	}
	ASSERT_EQ(rc, 0, "clean end");
	ASSERT_EQ(i, 7, "events read");
out:
	nt_reader__close(r);
	unlink(path);
}

/* A dwarf-mode sample of this very process, as the BPF program would copy
 * it: registers and 8 KiB of stack taken here, so the unwinder must find
 * the return address into the caller. */
struct copy_rec {
	struct ke_sample e;
	uint64_t kframe;
	struct ke_ustack_copy c;
	uint8_t stack[KE_USTACK_COPY_DEFAULT];
};

static __attribute__((noinline)) void take_copy(struct copy_rec *r, uint64_t *ret)
{
	uint64_t ip, sp, bp;

	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
			 : "=r"(ip), "=r"(sp), "=r"(bp));
	r->c.ip = ip;
	r->c.sp = sp;
	r->c.bp = bp;
	r->c.size = sizeof(r->stack);
	memcpy(r->stack, (const void *)sp, sizeof(r->stack));
	*ret = (uint64_t)__builtin_return_address(0);
}

/* take_copy under 16 KiB of this frame: its 8 KiB copy stays in the stack
 * however near its top the test runs (the main thread's stack ends there) */
static __attribute__((noinline)) void take_copy_deep(struct copy_rec *r, uint64_t *ret)
{
	volatile char pad[16384];

	pad[0] = 1;
	take_copy(r, ret);
	pad[sizeof(pad) - 1] = pad[0];
}

static void test_sample_copy(void)
{
	struct kernel_events_opts opts = { .rb_fd = -1, .ustack_copy = KE_USTACK_COPY_DEFAULT };
	struct nt_trace_info info = { .freq = 1000000000ULL, .pointer_size = 8,
				      .pid = (uint32_t)getpid() };
	char path[] = "/tmp/test_kernel_events_copy-XXXXXX";
	static struct copy_rec r;
	struct ke_sink sink = { 0 };
	struct nt_reader *rd = NULL;
	struct nt_read_event ev;
	struct kernel_events *ke;
	uint64_t ret = 0;
	int fd = mkstemp(path);

	if (!ASSERT_TRUE(fd >= 0, "mkstemp"))
		return;
	close(fd);
	unlink(path);
	sink.w = nt_writer__open(path, &info);
	ke = kernel_events__open(&opts);
	if (!ASSERT_OK_PTR(sink.w, "writer") || !ASSERT_OK_PTR(ke, "decode-only module"))
		goto out;
	take_copy_deep(&r, &ret);
	hdr(&r.e.hdr, KE_REC_SAMPLE, sizeof(r), 1000);
	r.e.hdr.pid = getpid();
	r.e.hdr.tid = getpid();
	r.e.kstack_depth = 1;
	r.e.flags = KE_F_USTACK_COPY;
	r.kframe = 0xffffffff81000010ULL;
	ASSERT_EQ(kernel_events__emit(ke, &r, sizeof(r), &sink), 1, "copied sample");
	/* malformed: the copy says more bytes than the record holds */
	r.c.size += 8;
	ASSERT_EQ(kernel_events__emit(ke, &r, sizeof(r), &sink), 0, "size mismatch skipped");
	ASSERT_EQ(kernel_events__bad_records(ke), 1, "malformed copy counted");
	if (!ASSERT_OK(nt_writer__close(sink.w, NULL, 2000), "close"))
		goto out;
	sink.w = NULL;
	rd = nt_reader__open(path, NULL);
	if (!ASSERT_OK_PTR(rd, "reader") || !ASSERT_EQ(nt_reader__next(rd, &ev), 1, "the sample"))
		goto out;
	/* kernel frame, the copy's ip, then the caller found by CFI */
	if (ASSERT_TRUE(ev.stack_depth >= 3, "unwound past the leaf")) {
		ASSERT_EQ(ev.stack[0], 0xffffffff81000010ULL, "kernel frame first");
		ASSERT_EQ(ev.stack[1], r.c.ip, "leaf: the copy's ip");
		ASSERT_EQ(ev.stack[2], ret, "caller: take_copy's return address");
	}
out:
	nt_reader__close(rd);
	nt_writer__abort(sink.w);
	kernel_events__destroy(ke);
	unlink(path);
}

int main(void)
{
	RUN(test_groups);
	RUN(test_hz);
	RUN(test_syscall_names);
	RUN(test_emit);
	RUN(test_sample_copy);
	return test_summary();
}
