#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Generated probes seen by a real tracer (bpftrace, root): semaphores rise
# only while a tracer is attached, payload bytes arrive intact on every hit,
# and nothing is serialized while no tracer is attached.
#
# Targets (tests/progs/probe_demo.c): every 1 ms they fire GCStart_V2 and
# MethodLoadVerbose_V2 with fixed arguments, and every 20 ms print
#   tick N enabled G M fired F serialized S
#   usdt_demo       the provider linked as a runtime links it (S is -1)
#   usdt_demo_hook  the provider built with its test hook: S counts payloads
#                   actually serialized and passed to the probe

load test_helper

DEMO=$OUTPUT/tests/usdt_demo
DEMO_HOOK=$OUTPUT/tests/usdt_demo_hook

setup_file() {
	[[ $EUID -eq 0 && -x $DEMO && -x $DEMO_HOOK ]] || return 0
	command -v bpftrace >/dev/null || return 0
	"$DEMO" 60 >"$BATS_FILE_TMPDIR/demo.log" 3>&- &
	echo $! >"$BATS_FILE_TMPDIR/demo.pid"
	"$DEMO_HOOK" 60 >"$BATS_FILE_TMPDIR/hook.log" 3>&- &
	echo $! >"$BATS_FILE_TMPDIR/hook.pid"
}

teardown_file() {
	local f
	for f in demo hook; do
		[[ -f $BATS_FILE_TMPDIR/$f.pid ]] && kill "$(cat "$BATS_FILE_TMPDIR/$f.pid")" 2>/dev/null
	done
	return 0
}

setup() {
	require_root
	require_cmd bpftrace
	[[ -x $DEMO && -x $DEMO_HOOK ]] || flunk "usdt_demo not built (run make)"
	ensure_tracefs
	DEMO_LOG=$BATS_FILE_TMPDIR/demo.log
	HOOK_LOG=$BATS_FILE_TMPDIR/hook.log
	DEMO_PID=$(cat "$BATS_FILE_TMPDIR/demo.pid")
	HOOK_PID=$(cat "$BATS_FILE_TMPDIR/hook.pid")
	wait_for_grep '^tick 100 ' "$DEMO_LOG" 10 || flunk "demo not running: $(cat "$DEMO_LOG")"
	wait_for_grep '^tick 100 ' "$HOOK_LOG" 10 || flunk "hook demo not running: $(cat "$HOOK_LOG")"
}

# tracer PID HITS OUT: bpftrace printing the GCStart_V2 and
# MethodLoadVerbose_V2 payloads and activity ids of PID until it has seen
# HITS GCStart_V2 events (or 20 s passed)
tracer() {
	local exe
	exe=$(readlink "/proc/$1/exe")
	BPFTRACE_STRLEN=200 timeout 60 bpftrace -p "$1" -e "
usdt:$exe:DotNETRuntime:GCStart_V2 {
	printf(\"GC %d %rx\\n\", arg1, buf(arg0, arg1));
	printf(\"ACT %rx %d\\n\", buf(arg2, 16), arg3);
	@hits++;
	if (@hits >= $2) { exit(); }
}
usdt:$exe:DotNETRuntime:MethodLoadVerbose_V2 {
	printf(\"ML %d %rx\\n\", arg1, buf(arg0, arg1));
}
interval:s:20 { exit(); }
END { clear(@hits); }" >"$3" 2>"$3.err" 3>&-
}

# status_from LOG MIN_TICK PATTERN: wait (up to 10 s) for the demo's
# newest status line to come from tick MIN_TICK or later and match the
# extended regex PATTERN; it is then in STATUS, its tick in TICK, and
# BASH_REMATCH holds PATTERN's groups.  The demo prints one line every 20
# ticks (1 ms each): waiting for a tick, not for a time, holds on a busy
# machine.
status_from() {
	local log=$1 min=$2 pat=$3 i
	for ((i = 0; i < 200; i++)); do
		STATUS=$(tail -1 "$log")
		if [[ $STATUS =~ ^tick\ ([0-9]+)\  ]] && ((BASH_REMATCH[1] >= min)); then
			TICK=${BASH_REMATCH[1]}
			[[ $STATUS =~ $pat ]] && return 0
		fi
		sleep 0.05
	done
	return 1
}

# distinct TAG FILE: the distinct TAG lines of the tracer output, "\x2a" -> "2a"
distinct() {
	grep "^$1 " "$2" | sed 's/\\x//g' | sort -u
}

@test "no tracer attached: semaphores 0, no event fired, nothing serialized" {
	run tail -1 "$DEMO_LOG"
	[[ $output =~ ^tick\ [0-9]+\ enabled\ 0\ 0\ fired\ 0\ serialized\ -1$ ]] || flunk "demo: $output"
	run tail -1 "$HOOK_LOG"
	[[ $output =~ ^tick\ [0-9]+\ enabled\ 0\ 0\ fired\ 0\ serialized\ 0$ ]] || flunk "hook demo: $output"
}

@test "bpftrace attached: semaphores rise and every payload arrives intact" {
	local out=$BATS_TEST_TMPDIR/trace.out before n
	before=$(wc -l <"$DEMO_LOG")
	tracer "$DEMO_PID" 500 "$out"
	[[ -s $out ]] || flunk "bpftrace printed nothing: $(cat "$out.err")"

	# every hit, not just the first (which the kernel handles by trap; the
	# following ones through the optimized 5-byte-nop call), carries the same bytes
	n=$(grep -c '^GC ' "$out")
	[[ $n -ge 500 ]] || flunk "$n GCStart_V2 hits, expected 500: $(cat "$out.err")"
	# GCStart_V2(42, 2, 1, 0, 7, 0x0102030405060708): 26 bytes
	run distinct GC "$out"
	assert_success "GC 26 2a00000002000000010000000000000007000807060504030201"
	# MethodLoadVerbose_V2(0x11, 0x22, 0x7f00001000, 64, 0x06000001, 8,
	#                      u"Demo", u"M\u00e9", u"void ()", 5, 0): 78 bytes
	local ml="1100000000000000"
	ml+="2200000000000000" ; ml+="001000007f000000"
	ml+="40000000" ; ml+="01000006" ; ml+="08000000"
	ml+="440065006d006f000000"			# "Demo"
	ml+="4d00e9000000"				# "Mé"
	ml+="76006f0069006400200028002900""0000"	# "void ()"
	ml+="0500" ; ml+="0000000000000000"
	run distinct ML "$out"
	assert_success "ML 78 $ml"
	# activity id {01020304-0506-0708-090a-0b0c0d0e0f10} in .NET byte order, no related id
	run distinct ACT "$out"
	assert_success "ACT 0403020106050807090a0b0c0d0e0f10 0"

	# while attached the demo saw both semaphores raised
	run bash -c "tail -n +$((before + 1)) '$DEMO_LOG' | grep -c ' enabled 1 1 fired [1-9]'"
	[[ $output -ge 10 ]] || flunk "attached status lines: $output"$'\n'"$(tail -n +"$before" "$DEMO_LOG")"
}

@test "serialization happens only while attached (provider test hook)" {
	local out=$BATS_TEST_TMPDIR/hook.out s1 s2
	[[ $(tail -1 "$HOOK_LOG") =~ serialized\ 0$ ]] || flunk "serialized before attach: $(tail -1 "$HOOK_LOG")"
	tracer "$HOOK_PID" 200 "$out"
	grep -q '^GC 26 ' "$out" || flunk "no events traced: $(cat "$out.err")"
	# bpftrace has exited: wait for the demo to see its semaphores at 0
	status_from "$HOOK_LOG" 0 'enabled 0 0 fired ([0-9]+) serialized ([0-9]+)$' ||
		flunk "status: $STATUS"
	s1=${BASH_REMATCH[2]}
	[[ $s1 -ge 200 ]] || flunk "only $s1 payloads serialized while attached"
	# 300 ticks later (300 loop rounds, whatever the machine's load)
	status_from "$HOOK_LOG" $((TICK + 300)) 'serialized ([0-9]+)$' || flunk "status: $STATUS"
	s2=${BASH_REMATCH[1]}
	assert_equal "$s2" "$s1"
}

@test "after detach: semaphores back to 0 and nothing more fires" {
	local f1 f2 idle='enabled 0 0 fired ([0-9]+) serialized -?[0-9]+$'
	status_from "$DEMO_LOG" 0 "$idle" || flunk "status: $STATUS"
	f1=${BASH_REMATCH[1]}
	status_from "$DEMO_LOG" $((TICK + 300)) "$idle" || flunk "status: $STATUS"
	f2=${BASH_REMATCH[1]}
	assert_equal "$f2" "$f1"
}
