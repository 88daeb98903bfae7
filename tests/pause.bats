#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The runtime's tracer pause word (usdt/README.md) is held up through the
# kernel, so no collector can leave a runtime paused, whenever it dies: a
# collector SIGKILLed while it attaches, while it stops, or in a daemon
# reload, and then a new trace of the same runtime that gets exactly what
# the runtime fired while it was traced.  A word left raised by a tracer of
# the older protocol is repaired with a warning; a trace in which a busy
# runtime sent nothing says why.
#
# tests/refrt_mem.py reads refrt's semaphores, pause word and event counts
# through /proc/PID/mem.
#
# Tags: root (BPF attach).

load test_helper

MEM=$BATS_TEST_DIRNAME/refrt_mem.py

setup_file() {
	export BATS_TEST_TIMEOUT=240
}

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	T=$BATS_TEST_TMPDIR
}

teardown() {
	kill_bg
}

# start_refrt: refrt's mixed scenario, paced, for long enough; its pid in RT
# once it maps its executable.
start_refrt() {
	bg "$T/rt.out" "$REFRT" --scenario mixed --threads 2 --rate 300 --duration 200 \
		--summary "$T/rt.json"
	RT=$LAST_PID
	local i
	for ((i = 0; i < 200; i++)); do
		python3 "$MEM" state "$RT" >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	flunk "refrt never mapped: $(cat "$T/rt.out.err")"
}

# wait_idle: every semaphore, the pause word and the batch semaphore of
# refrt back at 0 (the kernel takes a dead collector's probes down as its
# descriptors close).
wait_idle() {
	python3 "$MEM" wait-idle "$RT" 20 || flunk "$1: $(python3 "$MEM" wait-idle "$RT" 0)"
}

# exact_trace NAME: snapshot refrt's counts, trace it for 2 s, stop refrt;
# every event type in the trace equals what refrt fired meanwhile, 0 lost.
exact_trace() {
	local name=$1
	python3 "$MEM" counts "$RT" >"$T/before.json" || flunk "cannot read refrt's counts"
	"$EBPF_COLLECT" -p "$RT" -d 2s -o "$T/$name.nettrace" \
		--providers DotNETRuntime,DotNETRuntimeRundown 2>"$T/$name.err" ||
		flunk "trace failed: $(cat "$T/$name.err")"
	kill -INT "$RT"
	wait "$RT" || flunk "refrt failed: $(cat "$T/rt.out.err")"
	"$EBPF_COLLECT" dump --json "$T/$name.nettrace" >"$T/$name.jsonl" || flunk "dump failed"
	run python3 "$BATS_TEST_DIRNAME/refrt_compare.py" "$T/$name.jsonl" "$T/rt.json" \
		--before "$T/before.json"
	echo "$output"
	assert_success
	read -r _ fired _ traced _ lost _ complete <<<"$output"
	assert_equal "$lost $complete" "0 True"
	((traced > 1000)) || flunk "only $traced events"
}

@test "a collector SIGKILLed while it attaches or stops leaves no pause: the next trace gets exactly what refrt fired" {
	require_root
	require_btf
	start_refrt
	local point delay col
	# noted first: a kill point that fails leaves it all the same
	trace_note "$T/k.nettrace" unnamed "the collector was killed, so it wrote no names (they come at the end)"
	# while attaching (the start-up takes ~0.05-0.3 s), and 1-50 ms into
	# the stop (pause held, probes going, ring draining)
	for point in start:0.02 start:0.06 start:0.13 start:0.3 stop:0.001 stop:0.01 stop:0.03 stop:0.05; do
		delay=${point#*:}
		"$EBPF_COLLECT" -p "$RT" -o "$T/k.nettrace" 2>"$T/k.err" 3>&- &
		col=$!
		if [[ $point == stop:* ]]; then
			wait_for_grep "tracing .* probes" "$T/k.err" || flunk "$(cat "$T/k.err")"
			kill -INT "$col"
		fi
		sleep "$delay"	# the kill point, not a wait for anything
		kill -9 "$col" 2>/dev/null || true
		wait "$col" 2>/dev/null || true
		wait_idle "after SIGKILL at $point"
		echo "SIGKILL at $point: refrt idle again"
	done
	exact_trace final
	! grep -q "pause word" "$T/final.err" || flunk "$(cat "$T/final.err")"
}

@test "a daemon SIGKILLed during a reload leaves no pause; a plain reload hands over the batched buffers" {
	require_root
	require_btf
	start_refrt
	printf 'flight-recorder = off\nrotate = 1s\nkeep = 3\npid-filter = %s\n' "$RT" >"$T/d.conf"
	bg "$T/d.out" "$EBPF_COLLECT" daemon --config "$T/d.conf" -o "$T/d"
	local d=$LAST_PID child
	wait_for_grep "tracing .* probes" "$T/d.out.err" 20 || flunk "$(cat "$T/d.out.err")"
	# a reload that goes through: the new trace starts, nothing is missing
	kill -HUP "$d"
	wait_for_grep "starting: " "$T/d.out.err" 20 || flunk "no reload: $(cat "$T/d.out.err")"
	[[ $(grep -c "tracing .* probes" "$T/d.out.err") -ge 1 ]]
	local i
	for ((i = 0; i < 400; i++)); do
		[[ $(grep -c "tracing .* probes" "$T/d.out.err") -ge 2 ]] && break
		sleep 0.05
	done
	[[ $(grep -c "tracing .* probes" "$T/d.out.err") -ge 2 ]] || flunk "$(cat "$T/d.out.err")"
	! grep -q "hand over" "$T/d.out.err" || flunk "$(cat "$T/d.out.err")"
	# another reload, and the daemon and its trace killed in the middle of it
	child=$(pgrep -P "$d" | head -1)
	[[ -n $child ]] || flunk "no child of the daemon"
	kill -HUP "$d"
	sleep 0.02	# the kill point
	kill -9 "$d" "$child" 2>/dev/null || true
	wait "$d" 2>/dev/null || true
	for ((i = 0; i < 200; i++)); do
		pgrep -P "$d" >/dev/null || kill -0 "$child" 2>/dev/null || break
		sleep 0.05
	done
	pkill -9 -f "$T/d/" 2>/dev/null || true	# a new child the reload started
	wait_idle "after the daemon was killed in a reload"
	# what a killed collector leaves on disk is collector.bats's matter (a
	# rotated file begun just before the kill holds a header alone)
	rm -rf "$T/d"
	exact_trace after-daemon
}

@test "a pause word left raised by a dead tracer of the older protocol is repaired with a warning naming the pid" {
	require_root
	require_btf
	start_refrt
	python3 "$MEM" set-word "$RT" 3
	[[ $(python3 "$MEM" state "$RT") == "0 3 0" ]]
	exact_trace repaired
	grep -q "pid $RT: its runtime's tracer pause word in .* was 3 with no tracer attaching or detaching for 2 s" \
		"$T/repaired.err" || flunk "$(cat "$T/repaired.err")"
}

@test "a busy runtime that sends nothing gets a warning naming the likely cause" {
	require_root
	require_btf
	# held paused after the probes went in: the word is named
	bg "$T/rt.out" "$REFRT" --scenario cpu --threads 1 --duration 30 --wait-for-signal 30 \
		--summary "$T/rt.json"
	RT=$LAST_PID
	wait_for_grep "waiting for" "$T/rt.out.err" || flunk "$(cat "$T/rt.out.err")"
	bg "$T/c.out" "$EBPF_COLLECT" -p "$RT" -d 3s -o "$T/p.nettrace"
	local col=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/c.out.err" || flunk "$(cat "$T/c.out.err")"
	python3 "$MEM" set-word "$RT" 5
	kill -USR1 "$RT"
	wait "$col" || flunk "collector failed: $(cat "$T/c.out.err")"
	grep -q "pid $RT: no runtime event arrived in .* although its probes were enabled and it used .* s of CPU: its provider's tracer pause word is 5" \
		"$T/c.out.err" || flunk "$(cat "$T/c.out.err")"
	python3 "$MEM" set-word "$RT" 0
	# selected events it never fires: said so
	"$EBPF_COLLECT" -p "$RT" -d 2s -o "$T/q.nettrace" \
		--providers 'DotNETRuntime:0x8000:4' 2>"$T/q.err" || flunk "$(cat "$T/q.err")"
	grep -q "pid $RT: no runtime event arrived in .*: it fired none of the events selected" \
		"$T/q.err" || flunk "$(cat "$T/q.err")"
}
