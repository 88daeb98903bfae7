#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Hostile or broken .NET diagnostics peers.  Any local user can create a
# socket named like a runtime's (tests/fake_diag_server.py, run as nobody,
# named after its own pid): one that streams garbage after its OK, a valid
# stream without end, new event types without end, events stamped a day ahead (they would wait in the
# reorder buffer for ever), one that claims a 4 GB block, answers (or
# sends its stream header) a byte every 2 s, or never answers.  For each: the collector's peak RSS (VmHWM)
# stays within 100 MB of a plain --all run's, the run ends with its
# documented exit code within a stated time, the reason is one line with
# the pid, and a real runtime (refrt) traced in the same --all run gets
# every event it fired.  SIGINT ends such a run within 1 s (asserted: 2 s,
# for a busy machine).

load test_helper

FAKE=$ROOT/tests/fake_diag_server.py
PY=/usr/bin/python3	# nobody cannot run a pyenv shim
RSS_SLACK_KB=$((100 * 1024))

setup_file() {
	export BATS_TEST_TIMEOUT=120
}

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	[[ -x $REFRT ]] || flunk "reference runtime not built ($REFRT)"
	require_root
	require_btf
	T=$BATS_TEST_TMPDIR
	FAKE_PIDS=
}

teardown() {
	local p i
	for p in $FAKE_PIDS; do	# TERM: each removes its socket, then exits
		kill -TERM "$p" 2>/dev/null
	done
	for p in $FAKE_PIDS; do
		for ((i = 0; i < 40; i++)); do
			[[ $(awk '/^State:/ {print $2}' "/proc/$p/status" 2>/dev/null) =~ ^(Z|)$ ]] && break
			sleep 0.05
		done
	done
	kill_bg
}

# fake MODE [ARGS]: a fake diagnostics server as nobody; its pid in LAST_PID.
fake() {
	bg "$T/fake.$1.out" setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PY" "$FAKE" "$@"
	FAKE_PIDS="$FAKE_PIDS $LAST_PID"
	wait_for_grep READY "$T/fake.$1.out" ||
		flunk "fake $1 did not start: $(cat "$T/fake.$1.out.err")"
}

# The peak RSS of a plain --all run (nothing to trace), once.
base_hwm() {
	local f=$BATS_FILE_TMPDIR/base_hwm
	if [[ ! -s $f ]]; then
		bg "$BATS_FILE_TMPDIR/base.out" "$EBPF_COLLECT" --all --pid-filter 1 \
			-o "$BATS_FILE_TMPDIR/base.nettrace" -d 2s
		watch_exit "$LAST_PID" 30
		echo "$WATCH_HWM_KB" >"$f"
	fi
	cat "$f"
}

check_rss() {	# check_rss WHAT
	local base
	base=$(base_hwm)
	echo "# $1: peak RSS $((WATCH_HWM_KB / 1024)) MB (plain --all run $((base / 1024)) MB), $WATCH_SECS s, exit $WATCH_STATUS" >&3
	((WATCH_HWM_KB < base + RSS_SLACK_KB)) ||
		flunk "$1: peak RSS $WATCH_HWM_KB kB, over $base + $RSS_SLACK_KB kB"
}

within() {	# within SECS: the watched run took less
	awk -v s="$WATCH_SECS" -v t="$1" 'BEGIN {exit !(s < t)}' ||
		flunk "took $WATCH_SECS s, over the $1 s bound"
}

has_line() {	# has_line FILE PATTERN: one line of FILE matches (grep -E)
	grep -Eq -- "$2" "$1" || flunk "no line like '$2' in: $(cat "$1")"
}

@test "hostile IPC: --all beside garbage, a 4 GB block, endless event types, a byte every 2 s and silence: each dropped with one line, refrt exact, exit 0" {
	local g h y s q a
	fake garbage; g=$LAST_PID
	fake huge; h=$LAST_PID
	fake types; y=$LAST_PID
	fake slow --gap 2; s=$LAST_PID
	fake silent; q=$LAST_PID
	bg "$T/a.out" "$REFRT" --scenario mixed --duration 3 --rate 300 --threads 2 \
		--wait-for-tracer 10 --summary "$T/a.json"
	a=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" --all --pid-filter "$g,$h,$y,$s,$q,$a" -o "$T/all.nettrace" -d 6s
	watch_exit "$LAST_PID" 30
	wait "$a" || flunk "refrt failed"
	cat "$T/c.out.err"
	assert_equal "$WATCH_STATUS" 0
	within 11	# -d 6 s + 5 s
	check_rss "--all with five hostile peers"
	has_line "$T/c.out.err" "^ebpf-collect: pid $g: diagnostics socket sent no Nettrace stream: offset 0: not a NetTrace file \(no \"Nettrace\" magic\)$"
	has_line "$T/c.out.err" "^ebpf-collect: pid $h: diagnostics socket sent no Nettrace stream: offset 102: EventBlock claims 4294967280 bytes, more than the 16 MiB a block may hold in a stream"
	has_line "$T/c.out.err" "^ebpf-collect: pid $y: diagnostics socket sent no Nettrace stream: [0-9]+ event types with [0-9]+ fields, over 65536 or 262144$"
	has_line "$T/c.out.err" "^ebpf-collect: pid $s: the runtime's answer to CollectTracing on .* was not complete within 5 s \([1-9] bytes came\)$"
	has_line "$T/c.out.err" "^ebpf-collect: pid $q: the runtime did not answer CollectTracing on .* within 5 s$"
	check_refrt_events "$T/all.nettrace" "$a" "$T/a.json"
}

@test "hostile IPC: -p of each hostile socket exits 1 (7: events kept, then a day ahead) with one line, in bounded time and memory" {
	local m pid
	for m in garbage huge slow trickle silent future; do
		fake "$m"
		pid=$LAST_PID
		bg "$T/c.$m.out" "$EBPF_COLLECT" -p "$pid" -o "$T/$m.nettrace" -d 4s
		watch_exit "$LAST_PID" 30
		cat "$T/c.$m.out.err"
		assert_equal "$WATCH_STATUS" "$([[ $m == future ]] && echo 7 || echo 1)"
		within 9	# -d 4 s + 5 s
		check_rss "-p $m"
		case $m in
		garbage) has_line "$T/c.$m.out.err" "^ebpf-collect: pid $pid: diagnostics socket sent no Nettrace stream: offset 0: not a NetTrace file" ;;
		huge) has_line "$T/c.$m.out.err" "^ebpf-collect: pid $pid: diagnostics socket sent no Nettrace stream: offset 102: EventBlock claims 4294967280 bytes, more than the 16 MiB a block may hold in a stream" ;;
		slow) has_line "$T/c.$m.out.err" "^ebpf-collect: pid $pid: the runtime's answer to CollectTracing on .* was not complete within 5 s" ;;
		trickle) has_line "$T/c.$m.out.err" "^ebpf-collect: pid $pid: diagnostics socket sent no Nettrace stream: [0-9] bytes by the stop, no trace header$" ;;
		future) has_line "$T/c.$m.out.err" "^ebpf-collect: pid $pid: the EventPipe stream is corrupt after [0-9]+ bytes \(event at [0-9]+ ns, more than 60 s ahead of the stream's clock\); kept the 1 events before, dropped the session$" ;;
		silent) has_line "$T/c.$m.out.err" "^ebpf-collect: pid $pid: the runtime did not answer CollectTracing on .* within 5 s$" ;;
		esac
	done
}

@test "hostile IPC: a valid stream without end and one stamped a day ahead beside refrt: memory bounded, cut once it streams on after StopTracing's answer / at once, exit 7, refrt exact" {
	local e f a
	fake endless; e=$LAST_PID
	fake future; f=$LAST_PID
	bg "$T/a.out" "$REFRT" --scenario exceptions --duration 2 --rate 300 --threads 1 \
		--wait-for-tracer 10 --summary "$T/a.json"
	a=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" --all --pid-filter "$e,$f,$a" -o "$T/all.nettrace" -d 4s
	watch_exit "$LAST_PID" 40
	wait "$a" || flunk "refrt failed"
	cat "$T/c.out.err"
	assert_equal "$WATCH_STATUS" 7
	within 9	# -d 4 s + 4 MiB after the answer, with room for a busy machine
	check_rss "--all with an endless stream"
	has_line "$T/c.out.err" "^ebpf-collect: pid $e: the EventPipe stream was cut after [0-9]+ bytes \(.*\): it went on after StopTracing was answered; kept the 0 events before$"
	has_line "$T/c.out.err" "^ebpf-collect: pid $f: the EventPipe stream is corrupt after [0-9]+ bytes \(event at [0-9]+ ns, more than 60 s ahead of the stream's clock\); kept the 1 events before, dropped the session$"
	"$EBPF_COLLECT" dump "$T/all.nettrace" | grep -q "^ *1  Fake-Source/Tick$" ||
		flunk "the event before the future ones is not in the trace"
	check_refrt_events "$T/all.nettrace" "$a" "$T/a.json"
}

@test "hostile IPC: one SIGINT ends a stream without end that answers StopTracing and ignores it (exit 7); a second cuts at once" {
	local e col
	fake endless; e=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" -p "$e" -o "$T/e.nettrace"
	col=$LAST_PID
	wait_for_grep "Ctrl-C to stop" "$T/c.out.err" || flunk "$(cat "$T/c.out.err")"
	kill -INT "$col"
	watch_exit "$col" 10
	cat "$T/c.out.err"
	echo "# SIGINT to exit: $WATCH_SECS s, exit $WATCH_STATUS" >&3
	assert_equal "$WATCH_STATUS" 7
	within 2	# 1 s, with room for a busy machine
	has_line "$T/c.out.err" "^ebpf-collect: pid $e: the EventPipe stream was cut after [0-9]+ bytes \(.*\): it went on after StopTracing was answered"
	# a second signal does not wait even that long
	fake endless; e=$LAST_PID
	bg "$T/c2.out" "$EBPF_COLLECT" -p "$e" -o "$T/e2.nettrace"
	col=$LAST_PID
	wait_for_grep "Ctrl-C to stop" "$T/c2.out.err" || flunk "$(cat "$T/c2.out.err")"
	kill -INT "$col"
	kill -INT "$col"
	watch_exit "$col" 10
	assert_equal "$WATCH_STATUS" 7
	within 2
}

@test "hostile IPC: SIGINT ends an --all run within 1 s whatever the hostile peers do; refrt exact" {
	local a col m
	local pids=
	for m in garbage huge slow trickle silent; do
		fake "$m"
		pids=$pids$LAST_PID,
	done
	bg "$T/a.out" "$REFRT" --scenario mixed --duration 1 --rate 300 --threads 2 \
		--wait-for-tracer 10 --summary "$T/a.json"
	a=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" --all --pid-filter "$pids$a" -o "$T/all.nettrace"
	col=$LAST_PID
	wait_for_grep "Ctrl-C to stop" "$T/c.out.err" || flunk "$(cat "$T/c.out.err")"
	wait "$a" || flunk "refrt failed"	# its events are all fired
	kill -INT "$col"
	watch_exit "$col" 20
	cat "$T/c.out.err"
	assert_equal "$WATCH_STATUS" 0
	within 2	# 1 s, with room for a busy machine
	check_rss "--all, SIGINT"
	check_refrt_events "$T/all.nettrace" "$a" "$T/a.json"
}
