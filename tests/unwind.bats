#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# CPU samples unwound without frame pointers: --call-graph dwarf against
# perf record --call-graph dwarf on the same native program built with
# -fomit-frame-pointer (tests/progs/unwind_native.c), and --call-graph fp
# on it to show what the frame-pointer walk loses.  The stacks are compared
# by tests/unwind_compare.py, whose comment says exactly how.  A stock .NET
# app's async worker loop (tests/dotnet/evtapp --async-ms) shows the same on
# runtime code and JIT code together (tests/managed_leaf.py).

load test_helper
load dotnet_app

CMP=$BATS_TEST_DIRNAME/unwind_compare.py
PROG=$OUTPUT/tests/unwind_native

setup_file() {
	export BATS_TEST_TIMEOUT=300
	command -v dotnet >/dev/null 2>&1 || return 0
	build_app
}

setup() {
	T=$BATS_TEST_TMPDIR
}

teardown() {
	kill_bg
}

need_bpf() {
	require_root
	require_btf
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	[[ -x $PROG ]] || flunk "tests/unwind_native not built"
}

start_prog() {	# the program, for at most 200 s; its pid in PROG_PID
	bg "$T/prog.out" "$PROG" 200
	PROG_PID=$LAST_PID
	wait_for_grep "ready $PROG_PID" "$T/prog.out" || flunk "unwind_native did not start"
}

folded() {	# folded NETTRACE -> NETTRACE.folded
	"$EBPF_COLLECT" convert "$1" --format folded -o "$1.folded" ||
		flunk "convert $1 failed"
}

stat_of() {	# stat_of KEY FILE: the number after KEY in unwind_compare's output
	awk -v k="$1" '$1 == k { print $2 }' "$2"
}

@test "unwind: --call-graph and --stack-size are validated" {
	run "$EBPF_COLLECT" -p 1 --cpu-sampling --call-graph lbr
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "invalid --call-graph 'lbr' (fp or dwarf)"
	run "$EBPF_COLLECT" -p 1 --cpu-sampling --call-graph dwarf --stack-size 12
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "invalid --stack-size '12'"
	run "$EBPF_COLLECT" -p 1 --cpu-sampling --call-graph dwarf --stack-size 65536
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$EBPF_COLLECT" -p 1 --cpu-sampling --stack-size 4096
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "--stack-size is the stack copy of --call-graph dwarf"
	run "$EBPF_COLLECT" --help
	assert_output_contains "--call-graph"
}

@test "unwind: --call-graph dwarf stacks equal perf --call-graph dwarf's for >= 99% of samples" {
	need_bpf
	require_cmd perf
	start_prog
	# side by side on the same process: perf longer and faster, so that its
	# set of stacks holds the rare ones (qsort's recursion depths) ours hit
	bg "$T/perf.out" perf record -q -F 1999 --call-graph dwarf -p "$PROG_PID" \
		-o "$T/perf.data" -- sleep 6
	local perf_pid=$LAST_PID
	run --separate-stderr "$EBPF_COLLECT" -p "$PROG_PID" --cpu-sampling \
		--call-graph dwarf -d 4s -o "$T/d.nettrace"
	assert_success
	echo "$stderr" | grep -- "--call-graph dwarf"
	wait "$perf_pid" || flunk "perf record failed: $(cat "$T/perf.out.err")"
	perf script -i "$T/perf.data" --no-inline -F comm,tid,ip,sym,dso >"$T/perf.txt" \
		2>"$T/perf.script.err" || flunk "perf script failed"
	folded "$T/d.nettrace"
	python3 "$CMP" "$T/d.nettrace.folded" "$T/perf.txt" >"$T/cmp.txt" 2>"$T/unmatched.txt"
	cat "$T/cmp.txt"
	head -5 "$T/unmatched.txt"
	local n reach matched perf_n
	n=$(stat_of samples "$T/cmp.txt")
	reach=$(stat_of reach_main "$T/cmp.txt")
	matched=$(stat_of matched "$T/cmp.txt")
	perf_n=$(stat_of perf_samples "$T/cmp.txt")
	# 4 s at 999 Hz of one busy thread; a loaded VM gives it less than a CPU
	((n >= 1000)) || flunk "only $n samples"
	((perf_n >= 2000)) || flunk "perf: only $perf_n samples"
	((reach * 100 >= n * 99)) || flunk "only $reach of $n stacks reach main"
	((matched * 100 >= n * 99)) || flunk "only $matched of $n stacks are perf's"
	# the program's own functions, by name, in caller order under libc/libm
	local f=$T/d.nettrace.folded
	local top='unwind_native!main;unwind_native!driver;'
	grep -q "${top}unwind_native!phase_copy;unwind_native!copy_blocks;libc.so.6!__mem" "$f" ||
		flunk "no main;driver;phase_copy;copy_blocks;memset/memcpy stack"
	grep -q "${top}unwind_native!phase_math;unwind_native!math_series;libm.so.6!" "$f" ||
		flunk "no main;driver;phase_math;math_series;libm stack"
	grep -Eq "${top}unwind_native!phase_sort;unwind_native!sort_buffer[.a-z0-9]*;libc.so.6!qsort_r;(libc.so.6!msort_with_tmp[.a-z0-9]*;)+unwind_native!cmp_by_weight;unwind_native!weight;libm.so.6!" "$f" ||
		flunk "no main;driver;phase_sort;sort_buffer;qsort_r;msort...;cmp_by_weight;weight;libm stack"
}

@test "unwind: --call-graph fp loses the callers on the same program" {
	need_bpf
	start_prog
	run --separate-stderr "$EBPF_COLLECT" -p "$PROG_PID" --cpu-sampling \
		--call-graph fp -d 2s -o "$T/f.nettrace"
	assert_success
	folded "$T/f.nettrace"
	python3 "$CMP" "$T/f.nettrace.folded" >"$T/cmp.txt"
	cat "$T/cmp.txt"
	local n reach
	n=$(stat_of samples "$T/cmp.txt")
	reach=$(stat_of reach_main "$T/cmp.txt")
	((n >= 500)) || flunk "only $n samples"
	# no frame pointer anywhere: the walk stops at the leaf (libc, libm)
	((reach * 100 <= n * 5)) || flunk "$reach of $n fp stacks reach main"
	if grep -q "unwind_native!copy_blocks;libc.so.6!__mem" "$T/f.nettrace.folded"; then
		flunk "fp walk found copy_blocks under memset/memcpy"
	fi
}

# leaf_stats FOLDED -> "worker dispatcher_leaf allocate_inclusive": the
# samples of the worker loop's threads (its state machine on the stack),
# those whose leaf-most managed frame is the async dispatch (the thread
# pool's dispatch loop, ExecutionContext.Run, the state machine box or the
# worker's MoveNext, whose own code is a few calls), those under Allocate
leaf_stats() {
	python3 "$BATS_TEST_DIRNAME/managed_leaf.py" "$1" 'EvtAppAsyncWorker>d__' \
		'ExecutionContext\.Run|AsyncStateMachineBox|EvtAppAsyncWorker>d__[0-9]*\.MoveNext|ThreadPoolWorkQueue\.Dispatch' \
		'Program\.EvtAppAllocate' | awk '{ printf "%s ", $2 } END { print "" }'
}

@test "unwind: .NET async workers: with --call-graph dwarf at most 5% of their samples end in the dispatcher" {
	need_bpf
	require_cmd dotnet
	[[ -f $APP ]] || flunk "test app not built ($OUTPUT/tests/dotnet/build.log)"
	bg "$T/app.out" dotnet "$APP" --async-ms 60000
	wait_for_grep "READY $LAST_PID" "$T/app.out" 20 || flunk "evtapp did not start"
	local app=$LAST_PID w k a mode
	for mode in fp dwarf; do
		run --separate-stderr "$EBPF_COLLECT" -p "$app" --cpu-sampling --call-graph "$mode" \
			-d 3s -o "$T/$mode.nettrace"
		assert_success
		trace_note "$T/$mode.nettrace" stripped "native frames of .NET's stripped host and runtime (libcoreclr.so, libclrjit.so, libhostfxr.so, libhostpolicy.so, dotnet) have no symbol on this machine"
		folded "$T/$mode.nettrace"
		read -r w k a < <(leaf_stats "$T/$mode.nettrace.folded")
		echo "$mode: worker samples $w, ending in the dispatcher $k, under EvtAppAllocate $a"
		eval "${mode}_w=$w ${mode}_k=$k ${mode}_a=$a"
	done
	((dwarf_w >= 500)) || flunk "only $dwarf_w worker samples"
	((dwarf_k * 100 <= dwarf_w * 5)) ||
		flunk "dwarf: $dwarf_k of $dwarf_w worker samples end in the dispatcher"
	# the frame-pointer walk loses every frame between the runtime's
	# allocation path (libc memset, libcoreclr) and the dispatcher
	((fp_k * 100 >= fp_w * 50)) || flunk "fp: only $fp_k of $fp_w end in the dispatcher"
	((dwarf_a * 100 >= dwarf_w * 50)) ||
		flunk "dwarf: EvtAppAllocate in only $dwarf_a of $dwarf_w worker samples"
	((fp_a * 100 <= fp_w * 10)) || flunk "fp: EvtAppAllocate in $fp_a of $fp_w worker samples"
}
