#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# ebpf-collect end to end: attach to a USDT target, write a .nettrace,
# read it back with `ebpf-collect dump --json` and compare with what the
# target says it fired.  Targets: $OUTPUT/tests/usdt_testprog
# (tests/progs/testprog.c, sys/sdt.h probes with the runtime's names) and the
# reference runtime $REFRT (usdt/refrt/) for the scenario tests.
#
# Tags: root (BPF attach), slow.

load test_helper

TESTPROG=$OUTPUT/tests/usdt_testprog

setup_file() {
	export BATS_TEST_TIMEOUT=120
}

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	T=$BATS_TEST_TMPDIR
}

teardown() {
	kill_bg
	[[ -z ${SMALL_FS:-} ]] || umount "$SMALL_FS" 2>/dev/null || true
}

# trace_check TRACE EXPECT_JSON: dump the trace as JSON lines, compare the
# per-event counts with EXPECT_JSON ({"Symbol": count}), check that
# TraceEvent (tests/traceevent_sim.py) would read every event and report 0
# lost, print a one-line verdict; extra python checks can be passed in
# $CHECK_PY (gets `events`, a list of event objects, and `summary`).
trace_check() {
	local trace=$1 expect=$2
	"$EBPF_COLLECT" dump --json "$trace" >"$trace.jsonl" || {
		echo "dump failed with $?"
		return 1
	}
	python3 - "$trace.jsonl" "$expect" "$trace" "$BATS_TEST_DIRNAME/traceevent_sim.py" <<'EOF'
import json, sys, os, subprocess
events, summary = [], None
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("type") == "event":
        events.append(o)
    elif o.get("type") == "summary":
        summary = o
expect = json.loads(sys.argv[2])
# Events the collector itself adds: the LossSummary (provider ebpf-collect)
# and the symbol events for named frames (tid SYMBOLIZE_TID, symbolizer/symbolize.h).
def collector_added(e):
    return e["provider"] == "ebpf-collect" or e["tid"] == 0x7fffffff
got = {}
for e in events:
    if collector_added(e):
        continue
    got[e["event"]] = got.get(e["event"], 0) + 1
want = {k: v for k, v in expect.items() if v}
bad = []
for k in sorted(set(want) | set(got)):
    if want.get(k, 0) != got.get(k, 0):
        bad.append("%s: trace %d, fired %d" % (k, got.get(k, 0), want.get(k, 0)))
if summary is None or not summary.get("complete"):
    bad.append("file not complete: %s" % (summary and summary.get("error")))
if summary and summary.get("lost"):
    bad.append("lost %d" % summary["lost"])
ts = [e["timestamp"] for e in events if not collector_added(e)]
if ts != sorted(ts):
    bad.append("timestamps not sorted")
sim = json.loads(subprocess.run([sys.executable, sys.argv[4], sys.argv[3]], check=True,
                                capture_output=True, text=True).stdout)
for c in ("new", "old"):
    if sim[c]["lost"] or sim[c]["dispatched"] != len(events):
        bad.append("TraceEvent (%s) would read %d events, %d lost" %
                   (c, sim[c]["dispatched"], sim[c]["lost"]))
if sim["unsorted_on_other_thread"] or sim["stack_misses"]:
    bad.append("TraceEvent rules broken: %r" % sim)
extra = os.environ.get("CHECK_PY")
if extra:
    exec(open(extra).read())
print("MISMATCH " + "; ".join(bad) if bad else "OK %d events" % len(ts))
sys.exit(1 if bad else 0)
EOF
}

# ------------------------------------------------------------------ CLI

@test "help documents profiles, provider syntax and exit codes" {
	run "$EBPF_COLLECT" --help
	assert_success
	assert_output_contains "USAGE: ebpf-collect -p PID"
	assert_output_contains "EXAMPLES:"
	assert_output_contains "gc-collect"
	assert_output_contains "contention"
	assert_output_contains "DotNETRuntime:0x100003801D:4,DotNETRuntimeRundown:0x30178:5"
	assert_output_contains "+ Microsoft-DotNETCore-SampleProfiler:0xF00000000000:4"
	assert_output_contains "legacy-default"
	assert_output_contains "DotNETRuntime:0x14C14FCCBD:4"
	assert_output_contains "3 no (matching)"
	assert_output_contains "6 cannot create the"
	assert_output_contains "output file, 7 an EventPipe stream ended mid-trace (file kept), 64 usage"
}

@test "usage errors exit 64" {
	run "$EBPF_COLLECT" -o "$BATS_TEST_TMPDIR/x.nettrace"
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "-p PID, -- CMD or --all is required"
	run "$EBPF_COLLECT" -p 0
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "invalid PID '0'"
	run "$EBPF_COLLECT" -p 12abc
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$EBPF_COLLECT" -p 1 --duration 10x
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$EBPF_COLLECT" -p 1 --buffer-size 3
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$EBPF_COLLECT" -p 1 --providers Nope:0x1:4
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "unknown provider 'Nope'"
	run "$EBPF_COLLECT" -p 1 --providers DotNETRuntime:0xZZ:4
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$EBPF_COLLECT" -p 1 --providers DotNETRuntime:0x1:9
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$EBPF_COLLECT" -p 1 --profile nope
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "unknown profile 'nope'"
}

@test "--providers naming no provider (',,,' or '') is a usage error, exit 64" {
	local spec
	for spec in ',,,' ''; do
		run --separate-stderr "$EBPF_COLLECT" -p 1 --providers "$spec" -o "$T/x.nettrace"
		[[ $status -eq 64 ]] || flunk "--providers '$spec': status $status: $stderr"
		assert_equal "${stderr%%$'\n'*}" \
			"ebpf-collect: --providers '$spec' names no provider (PROVIDER[:KEYWORDS[:LEVEL]][,...])"
		[[ ! -e $T/x.nettrace ]] || flunk "output left behind"
	done
}

@test "-l lists the probes of a binary with semaphore and argument spec" {
	run "$EBPF_COLLECT" -l "$TESTPROG"
	assert_success
	[[ ${lines[1]} =~ ^DotNETRuntime\ +GCStart_V2\ +0x[0-9a-f]+\ +0x[0-9a-f]+\ +.*usdt_testprog\ +8@ ]] ||
		flunk "unexpected listing: $output"
}

@test "-l lists the probes of a running process" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 1 -w 5
	run "$EBPF_COLLECT" -l -p "$LAST_PID"
	assert_success
	assert_output_contains "GCStart_V2"
	assert_output_contains "usdt_testprog"
}

# ------------------------------------------------------------------ errors

@test "error: no such process exits 2" {
	require_root
	run "$EBPF_COLLECT" -p 4000000 -o "$T/x.nettrace"
	[[ $status -eq 2 ]] || flunk "status $status: $output"
	assert_equal "$output" "ebpf-collect: no such process: 4000000"
	[[ ! -e $T/x.nettrace ]]
}

@test "error: a zombie pid (exited, not reaped) exits 2 saying it has exited" {
	require_root
	local zombie i
	# the shell forks a child, then becomes a sleep that never waits for
	# it; the child exits only once the exec is done (a child that exited
	# before it would be reaped by bash itself)
	mkfifo "$T/go"
	bg "$T/parent.out" bash -c 'read -r _ <"$1" & exec sleep 30' sh "$T/go"
	wait_for_exec "$LAST_PID" "$(command -v sleep)" || flunk "the parent never became sleep"
	echo go >"$T/go"
	for ((i = 0; i < 200; i++)); do
		zombie=$(ps -o pid=,stat= --ppid "$LAST_PID" | awk '$2 ~ /^Z/ {print $1; exit}')
		[[ -n $zombie ]] && break
		sleep 0.05
	done
	[[ -n $zombie ]] || flunk "no zombie child of $LAST_PID: $(ps -o pid,stat,args --ppid "$LAST_PID")"
	run "$EBPF_COLLECT" -p "$zombie" -o "$T/x.nettrace"
	[[ $status -eq 2 ]] || flunk "status $status: $output"
	assert_equal "$output" \
		"ebpf-collect: pid $zombie: the process has exited (a zombie its parent has not reaped): nothing to trace"
	[[ ! -e $T/x.nettrace ]] || flunk "output left behind"
}

@test "error: target without runtime probes exits 3 and names the files searched" {
	require_root
	bg "$T/sleep.out" sleep 30
	wait_for_exec "$LAST_PID" "$(command -v sleep)" || flunk "sleep did not start"
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/x.nettrace"
	[[ $status -eq 3 ]] || flunk "status $status: $output"
	assert_output_contains "the runtime must be built with the USDT provider"
	assert_output_contains "searched /usr/bin/sleep"
	assert_output_contains "libc.so"
	[[ ${#lines[@]} -eq 1 ]] || flunk "expected one line: $output"
	[[ ! -e $T/x.nettrace ]] || flunk "output left behind"
}

@test "error: a stale .NET socket left by an earlier process with the same pid is not the target's" {
	require_root
	bg "$T/sleep.out" sleep 30
	wait_for_exec "$LAST_PID" "$(command -v sleep)" || flunk "sleep did not start"
	# what a .NET process killed with -9 leaves behind: a socket file nobody listens on
	local stale=/tmp/dotnet-diagnostic-$LAST_PID-1-socket
	python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.close()' "$stale"
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/x.nettrace"
	rm -f "$stale"
	[[ $status -eq 3 ]] || flunk "status $status: $output"
	assert_output_contains "the runtime must be built with the USDT provider"
	[[ ${#lines[@]} -eq 1 ]] || flunk "expected one line: $output"
}

@test "error: unwritable output exits 6 before anything is attached" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 5 -w 3
	local tp=$LAST_PID
	run "$EBPF_COLLECT" -p "$tp" -o /nonexistent-dir/x.nettrace
	[[ $status -eq 6 ]] || flunk "status $status: $output"
	assert_equal "$output" "ebpf-collect: cannot create output /nonexistent-dir/x.nettrace: No such file or directory"
	wait "$tp"
	# the probe was never enabled: the target fired nothing
	assert_equal "$(json_get "$T/tp.json" '["GCStart_V2"]')" 0
}

@test "error: without privileges exits 4 and names the capabilities" {
	require_root
	require_cmd setpriv
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$EBPF_COLLECT" -p 1 -o /tmp/x-$$.nettrace
	[[ $status -eq 4 ]] || flunk "status $status: $output"
	assert_output_contains "missing capabilities CAP_BPF, CAP_PERFMON"
	[[ ${#lines[@]} -eq 1 ]] || flunk "expected one line: $output"
}

@test "error: a kernel without BTF exits 5 and names the missing feature" {
	require_root
	require_cmd unshare
	# hide /sys/kernel/btf in a private mount namespace: what the collector
	# sees on a kernel built without CONFIG_DEBUG_INFO_BTF
	run unshare -m sh -c "mount -t tmpfs none /sys/kernel/btf && \
		exec '$EBPF_COLLECT' -p $$ -o '$T/x.nettrace'"
	[[ $status -eq 5 ]] || flunk "status $status: $output"
	assert_equal "$output" "ebpf-collect: kernel has no BTF (/sys/kernel/btf/vmlinux missing): needs CONFIG_DEBUG_INFO_BTF=y"
	[[ ! -e $T/x.nettrace ]]
}

# ------------------------------------------------------------------ tracing (testprog)

@test "testprog: every fired event is in the trace, decoded, 0 lost" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 3000 -r 3000 -t 2 -w 10
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/t.nettrace" --profile gc-collect
	assert_success
	assert_output_contains "attached 1 of 1 runtime probes in $TESTPROG"
	assert_output_contains "dropped 0 events"
	assert_equal "$(json_get "$T/tp.json" '["GCStart_V2"]')" 6000
	cat >"$T/check.py" <<'EOF'
gc = [e for e in events if e["event"] == "GCStart_V2"]
per_tid = {}
for e in gc:
    f = e["fields"]
    if (f["Depth"], f["Reason"], f["Type"], f["ClrInstanceID"]) != (2, 1, 0, 7):
        bad.append("bad fields %r" % f); break
    if f["Count"] != f["ClientSequenceNumber"]:
        bad.append("Count/seq mismatch %r" % f); break
    per_tid.setdefault(e["tid"], []).append(f["Count"])
    if not e["stack"]:
        bad.append("no stack"); break
for tid, counts in per_tid.items():
    if counts != list(range(3000)):
        bad.append("tid %s: counts not 0..2999 in order" % tid)
if len(per_tid) != 2:
    bad.append("expected 2 threads, got %d" % len(per_tid))
EOF
	CHECK_PY=$T/check.py run trace_check "$T/t.nettrace" '{"GCStart_V2": 6000}'
	assert_success "OK 6000 events"
}

@test "testprog: a level or keyword filter that excludes the event attaches nothing" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 200 -r 1000 -w 2
	local tp=$LAST_PID
	# GCStart_V2 is Informational (4) with the GC keyword (0x1)
	run "$EBPF_COLLECT" -p "$tp" -o "$T/a.nettrace" --providers DotNETRuntime:0x1:3
	[[ $status -eq 3 ]] || flunk "status $status: $output"
	assert_output_contains "attached 0 of 1 runtime probes"
	run "$EBPF_COLLECT" -p "$tp" -o "$T/b.nettrace" --providers Microsoft-Windows-DotNETRuntime:0x8000:5
	[[ $status -eq 3 ]] || flunk "status $status: $output"
	assert_output_contains "none of the 1 runtime probes found matches"
	wait "$tp"
	assert_equal "$(json_get "$T/tp.json" '["GCStart_V2"]')" 0
}

@test "testprog: -- CMD traces from the first event" {
	require_root
	run "$EBPF_COLLECT" -o "$T/c.nettrace" --profile gc-collect -- "$TESTPROG" -n 500 -r 250
	assert_success
	local fired
	fired=$(grep -o '"GCStart_V2": [0-9]*' <<<"$output" | grep -o '[0-9]*$')
	assert_equal "$fired" 500
	cat >"$T/check.py" <<'EOF'
counts = [e["fields"]["Count"] for e in events if e["event"] == "GCStart_V2"]
if counts[:1] != [0]:
    bad.append("first event is not Count 0: %r" % counts[:3])
EOF
	CHECK_PY=$T/check.py run trace_check "$T/c.nettrace" '{"GCStart_V2": 500}'
	assert_success "OK 500 events"
}

@test "testprog: a library dlopen()ed during the trace is found and attached" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 3000 -r 1000 -w 10 -L "$OUTPUT/tests/libusdt_testlib.so" -D 1200
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/dl.nettrace"
	assert_success
	assert_output_contains "attached 1 of 1 runtime probes in $OUTPUT/tests/libusdt_testlib.so"
	local lib
	lib=$(json_get "$T/tp.json" '["GCEnd_V1"]')
	((lib > 500)) || flunk "library fired only $lib events"
	run trace_check "$T/dl.nettrace" "{\"GCStart_V2\": 3000, \"GCEnd_V1\": $lib}"
	assert_success "OK $((3000 + lib)) events"
}

@test "testprog: -- CMD --lib attaches a library before it is mapped" {
	require_root
	run "$EBPF_COLLECT" -o "$T/dl2.nettrace" --lib "$OUTPUT/tests/libusdt_testlib.so" -- \
		"$TESTPROG" -n 2500 -r 1000 -L "$OUTPUT/tests/libusdt_testlib.so" -D 300
	assert_success
	local lib
	lib=$(grep -o '"GCEnd_V1": [0-9]*' <<<"$output" | grep -o '[0-9]*$')
	((lib > 1500)) || flunk "library fired only $lib events: $output"
	# runs 2.5 s: the rescans must not attach the executable a second time
	run trace_check "$T/dl2.nettrace" "{\"GCStart_V2\": 2500, \"GCEnd_V1\": $lib}"
	assert_success "OK $((2500 + lib)) events"
}

@test "testprog: two processes in one trace (-p A -p B)" {
	require_root
	bg "$T/a.json" "$TESTPROG" -n 1000 -r 1000 -w 10
	local a=$LAST_PID
	bg "$T/b.json" "$TESTPROG" -n 1500 -r 1000 -w 10
	local b=$LAST_PID
	run "$EBPF_COLLECT" -p "$a" -p "$b" -o "$T/ab.nettrace"
	assert_success
	assert_output_contains "pid $a: attached 1 of 1"
	assert_output_contains "pid $b: attached 1 of 1"
	run trace_check "$T/ab.nettrace" '{"GCStart_V2": 2500}'
	assert_success "OK 2500 events"
}

@test "testprog: a 65436-byte payload (the most TraceLog converts) arrives whole with its activity ids; 65437 bytes are counted lost" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 20 -r 200 -w 10 -A -s 65436
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/big.nettrace"
	assert_success
	cat >"$T/check.py" <<'EOF'
for e in events:
    if e["event"] != "GCStart_V2":
        continue
    if e["fields"].get("_extra") != 65436 - 26:
        bad.append("payload not whole: %r" % e["fields"].get("_extra")); break
    if e.get("activity_id") != "04030201-0605-0807-090a-0b0c0d0e0f10" or \
       e.get("related_activity_id") != "14131211-1615-1817-191a-1b1c1d1e1f20":
        bad.append("activity ids %r %r" % (e.get("activity_id"), e.get("related_activity_id"))); break
EOF
	CHECK_PY=$T/check.py run trace_check "$T/big.nettrace" '{"GCStart_V2": 20}'
	assert_success "OK 20 events"

	bg "$T/tp2.json" "$TESTPROG" -n 20 -r 200 -w 10 -s 65437
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/big2.nettrace"
	assert_success
	assert_output_contains "dropped 20 events (ring buffer full 0, payload over 65436 bytes 20,"
	run "$EBPF_COLLECT" dump --json "$T/big2.nettrace"
	assert_success
	# the LossSummary, and the EventsLost marker that makes TraceEvent count the gap
	[[ ${lines[${#lines[@]}-1]} == *'"events":2,"lost":20,'* ]] || flunk "${lines[${#lines[@]}-1]}"
	run python3 "$BATS_TEST_DIRNAME/traceevent_sim.py" "$T/big2.nettrace"
	[[ $output == *'"new": {"dispatched": 2, "lost": 20,'* ]] || flunk "$output"
}

@test "testprog: on a terminal a live status line shows events/s, MB written and drops" {
	require_root
	require_cmd script
	bg "$T/tp.json" "$TESTPROG" -n 20000 -r 10000 -w 10
	run script -qec "$EBPF_COLLECT -p $LAST_PID -o $T/tty.nettrace" "$T/tty.log"
	assert_success
	local status
	status=$(tr '\r' '\n' <"$T/tty.log" | grep -c '[0-9]* events/s  [0-9]* events  [0-9.]* MB written  0 dropped')
	((status >= 2)) || flunk "status lines: $status: $(cat -v "$T/tty.log")"
	# without a terminal there is none
	bg "$T/tp2.json" "$TESTPROG" -n 2000 -r 2000 -w 10
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/notty.nettrace"
	assert_success
	[[ $output != *"events/s"* ]] || flunk "status line without a terminal: $output"
}

@test "testprog: SIGINT mid-trace leaves a valid file" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 100000 -r 5000 -w 10
	bg "$T/col.out" "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/s.nettrace"
	local col=$LAST_PID
	# 2 s of events once attached (testprog waits for it), not counting start-up
	wait_for_grep "tracing .* probes" "$T/col.out.err" 30 || flunk "$(cat "$T/col.out.err")"
	sleep 2
	kill -INT "$col"
	wait "$col"
	run "$EBPF_COLLECT" dump --json "$T/s.nettrace"
	assert_success
	local sum=${lines[${#lines[@]}-1]}
	[[ $sum == *'"complete":true'* && $sum == *'"lost":0'* ]] || flunk "$sum"
	local n
	n=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["events"])' "$sum")
	((n > 3000)) || flunk "only $n events"
	grep -q "dropped 0 events" "$T/col.out.err" || flunk "$(cat "$T/col.out.err")"
}

@test "testprog: the collector stops by itself when the target exits" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 2000 -r 2000 -w 10
	local tp=$LAST_PID
	run timeout 20 "$EBPF_COLLECT" -p "$tp" -o "$T/e.nettrace"
	assert_success
	run trace_check "$T/e.nettrace" "{\"GCStart_V2\": $(json_get "$T/tp.json" '["GCStart_V2"]')}"
	assert_success "OK 2000 events"
}

@test "testprog: the collector stops when the target exits as a zombie its parent does not reap" {
	require_root
	local tp i
	# the shell starts testprog, then becomes a sleep that never waits for it
	bg "$T/parent.out" bash -c '"$1" -n 2000 -r 2000 -w 10 >"$2" & exec sleep 120' sh \
		"$TESTPROG" "$T/tp.json"
	for ((i = 0; i < 200; i++)); do
		tp=$(ps -o pid= --ppid "$LAST_PID" | tr -d ' ')
		[[ -n $tp ]] && wait_for_exec "$tp" "$TESTPROG" 1 && break
		sleep 0.05
	done
	[[ -n $tp ]] || flunk "testprog did not start"
	run timeout 20 "$EBPF_COLLECT" -p "$tp" -o "$T/z.nettrace"
	assert_success
	[[ $(awk '/^State:/ {print $2}' "/proc/$tp/status") == Z ]] || flunk "testprog is not a zombie"
	run trace_check "$T/z.nettrace" "{\"GCStart_V2\": $(json_get "$T/tp.json" '["GCStart_V2"]')}"
	assert_success "OK 2000 events"
}

@test "testprog: kill -9 of the collector leaves a complete trace up to its last flush" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 200000 -r 40000 -w 10
	bg "$T/col.out" "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/k.nettrace"
	local col=$LAST_PID
	# 3 s of events once attached (testprog waits for it), not counting start-up
	wait_for_grep "tracing .* probes" "$T/col.out.err" 30 || flunk "$(cat "$T/col.out.err")"
	sleep 3
	kill -9 "$col"
	wait "$col" 2>/dev/null || true
	trace_note "$T/k.nettrace" unnamed "the collector was killed, so it wrote no names (they come at the end)"
	run --separate-stderr "$EBPF_COLLECT" dump --json "$T/k.nettrace"
	[[ $status -eq 0 && -z $stderr ]] || flunk "dump: status $status, stderr: $stderr"
	local sum=${lines[${#lines[@]}-1]}
	[[ $sum == *'"type":"summary"'* && $sum == *'"complete":true'* ]] || flunk "$sum"
	local n
	n=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["events"])' "$sum")
	((n > 10000)) || flunk "only $n events before the last flush"
}

@test "testprog: kill -9 at a low event rate loses at most the last second" {
	require_root
	# 50 events/s fill a 100 KiB block only after minutes: the collector's
	# periodic flush (FLUSH_NS, 1 s) is what puts these events in the file.
	bg "$T/tp.json" "$TESTPROG" -n 100000 -r 50 -w 10
	bg "$T/col.out" "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/slow.nettrace"
	local col=$LAST_PID
	wait_for_grep "tracing" "$T/col.out.err" 10 || flunk "collector did not start"
	sleep 4
	kill -9 "$col"
	wait "$col" 2>/dev/null || true
	trace_note "$T/slow.nettrace" unnamed "the collector was killed, so it wrote no names (they come at the end)"
	run --separate-stderr "$EBPF_COLLECT" dump --json "$T/slow.nettrace"
	local sum=${lines[${#lines[@]}-1]} n
	[[ $sum == *'"complete":true'* ]] || flunk "not a complete trace: $sum"
	n=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["by_event"].get("Microsoft-Windows-DotNETRuntime/GCStart_V2", 0))' "$sum")
	# 4 s at 50/s = 200 events; losing at most ~1.5 s leaves at least 125.
	((n >= 125)) || flunk "only $n events survived kill -9 after 4 s at 50/s: $sum"
}

@test "testprog: overload into a 1 MiB buffer counts drops on stderr and in the file" {
	require_root
	bg "$T/tp.json" "$TESTPROG" -n 400000 -t 2 -w 10
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/o.nettrace" --buffer-size 1
	assert_success
	local drops written fired
	drops=$(grep -o 'dropped [0-9]* events' <<<"$output" | grep -o '[0-9]*')
	fired=$(json_get "$T/tp.json" '["GCStart_V2"]')
	assert_equal "$fired" 800000
	((drops > 0)) || flunk "no drops reported: $output"
	# the summary line only (bash would take minutes to split ~800,000 lines)
	"$EBPF_COLLECT" dump --json "$T/o.nettrace" >"$T/o.jsonl" || flunk "dump failed"
	local sum
	sum=$(tail -n 1 "$T/o.jsonl")
	python3 - "$sum" "$drops" "$fired" <<'EOF' || flunk "$sum"
import json, sys
s = json.loads(sys.argv[1]); drops = int(sys.argv[2]); fired = int(sys.argv[3])
n = s["by_event"].get("Microsoft-Windows-DotNETRuntime/GCStart_V2", 0)
assert s["complete"], s
assert s["lost"] == drops, (s["lost"], drops)
assert n + drops == fired, (n, drops, fired)
assert s["by_event"].get("ebpf-collect/LossSummary") == 1
EOF
	# what PerfView / dotnet-trace would report as lost: the same
	run python3 "$BATS_TEST_DIRNAME/traceevent_sim.py" "$T/o.nettrace"
	assert_success
	python3 - "$output" "$drops" <<'EOF' || flunk "$output"
import json, sys
s = json.loads(sys.argv[1]); drops = int(sys.argv[2])
assert s["new"]["lost"] == drops and s["old"]["lost"] == drops, (s, drops)
EOF
}

@test "testprog: a full disk keeps the trace that fits, complete, with the rest counted lost" {
	require_root
	SMALL_FS=$T/small
	mkdir "$SMALL_FS"
	mount -t tmpfs -o size=512k tmpfs "$SMALL_FS" || flunk "cannot mount a tmpfs"
	bg "$T/tp.json" "$TESTPROG" -n 200000 -r 50000 -s 200 -w 10
	run --separate-stderr timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" -o "$SMALL_FS/t.nettrace"
	[[ $status -eq 1 ]] || flunk "status $status: $stderr"
	echo "$stderr"
	local re="^ebpf-collect: $SMALL_FS/t.nettrace: No space left on device: kept the first ([0-9]+) bytes, ([0-9]+) events, as a complete trace; ([0-9]+) events did not fit and are counted lost in it$"
	local line bytes=
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		bytes=${BASH_REMATCH[1]} events=${BASH_REMATCH[2]} lost=${BASH_REMATCH[3]}
	done <<<"$stderr"
	[[ -n $bytes ]] || flunk "no salvage line: $stderr"
	assert_equal "$(stat -c %s "$SMALL_FS/t.nettrace")" "$bytes"
	((events > 1000 && lost > 0)) || flunk "events $events, lost $lost"
	run "$EBPF_COLLECT" dump --json "$SMALL_FS/t.nettrace"
	assert_success
	python3 - "${lines[${#lines[@]}-1]}" "$events" "$lost" <<'EOF' || flunk "${lines[${#lines[@]}-1]}"
import json, sys
s = json.loads(sys.argv[1]); events = int(sys.argv[2]); lost = int(sys.argv[3])
assert s["complete"] and s["error"] is None, s
assert s["events"] == events, (s["events"], events)
assert s["lost"] == lost, (s["lost"], lost)
EOF
}

# ------------------------------------------------------------------ reference runtime

require_refrt() {
	[[ -x $REFRT ]] || flunk "reference runtime not built ($REFRT)"
}

# run_scenario NAME [collector args...]: refrt waits for the tracer, runs
# a fixed number of iterations at a moderate rate and exits; the collector
# stops when it exits.  Leaves $T/NAME.nettrace and $T/NAME.json.
run_scenario() {
	local sc=$1
	shift
	bg "$T/$sc.stdout" "$REFRT" --scenario "$sc" --iterations 200 --rate 400 --threads 2 \
		--seed 7 --wait-for-tracer 10 --summary "$T/$sc.json"
	wait_for_exec "$LAST_PID" "$REFRT" || flunk "refrt did not start: $(cat "$T/$sc.stdout.err")"
	run timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/$sc.nettrace" "$@"
}

@test "refrt: every scenario's trace holds exactly the events it fired, 0 lost" {
	require_root
	require_refrt
	local sc
	for sc in cpu alloc exceptions contention jit-churn mixed; do
		run_scenario "$sc" --providers DotNETRuntime,DotNETRuntimeRundown
		assert_success
		assert_output_contains "dropped 0 events"
		run trace_check "$T/$sc.nettrace" "$(json_get "$T/$sc.json" '["events"]')"
		[[ $status -eq 0 ]] || flunk "$sc: $output"
	done
}

# trace_refrt_at NAME PID FILE SUMMARY: trace the refrt at PID (waiting
# for its tracer) whose binary it maps as FILE; every event its SUMMARY
# counts is in the trace, and every frame is named.
trace_refrt_at() {
	local name=$1 pid=$2 file=$3 summary=$4
	run timeout 60 "$EBPF_COLLECT" -p "$pid" -o "$T/$name.nettrace" \
		--providers DotNETRuntime,DotNETRuntimeRundown
	assert_success
	assert_output_contains "attached 64 of 64 runtime probes in $file"
	assert_output_contains ", 0 without a name;"
	run trace_check "$T/$name.nettrace" "$(json_get "$summary" '["events"]')"
	[[ $status -eq 0 ]] || flunk "$output"
	run "$EBPF_COLLECT" convert "$T/$name.nettrace" --format folded
	assert_success
	assert_output_contains "libc.so.6!start_thread;refrt!worker_main;System.Private.CoreLib!"
	assert_output_contains "refrt!rt_helper_throw"
	[[ $output != *unknown* ]] || flunk "unknown frames: $(grep -m3 unknown <<<"$output")"
}

REFRT_ARGS=(--scenario mixed --iterations 200 --rate 400 --threads 2 --seed 7 --wait-for-tracer 10)

# A chroot: /proc/PID/maps shows the target's files by our path to them,
# which does not exist under /proc/PID/root; the collector must reach them
# another way (/proc/PID/map_files), attach, and name the frames.
@test "refrt chrooted (chroot DIR /refrt): every event it fired, frames named" {
	require_root
	require_refrt
	require_cmd chroot ldd
	local root=$T/root lib
	mkdir -p "$root"
	cp "$REFRT" "$root/refrt"
	for lib in $(ldd "$REFRT" | grep -o '/[^ ]*'); do
		mkdir -p "$root${lib%/*}"
		cp -L "$lib" "$root$lib"
	done
	bg "$T/cr.stdout" chroot "$root" /refrt "${REFRT_ARGS[@]}" --summary /summary.json
	wait_for_exec "$LAST_PID" "$root/refrt" || flunk "refrt did not start: $(cat "$T/cr.stdout.err")"
	grep -q " $root/refrt\$" "/proc/$LAST_PID/maps" || flunk "maps: $(cat "/proc/$LAST_PID/maps")"
	[[ ! -e /proc/$LAST_PID/root$root/refrt ]] || flunk "$root is reachable inside the chroot"
	trace_refrt_at cr "$LAST_PID" "$root/refrt" "$root/summary.json"
}

# A container's root: refrt runs from a tmpfs mounted in its own mount
# namespace; its maps show the path inside, which in ours is an empty
# directory: the file is reached through /proc/PID/root.
@test "refrt in its own mount namespace, from a tmpfs only it sees: every event, frames named" {
	require_root
	require_refrt
	require_cmd unshare
	local dir=$T/ns
	mkdir -p "$dir"
	bg "$T/ns.stdout" unshare --mount sh -c 'mount -t tmpfs tmpfs "$1" && cp "$2" "$1/refrt" &&
		shift 2 && exec "$0" "$@"' "$dir/refrt" "$dir" "$REFRT" "${REFRT_ARGS[@]}" \
		--summary "$T/ns.json"
	# its refrt is seen through its root only
	wait_for_exec "$LAST_PID" "/proc/$LAST_PID/root$dir/refrt" ||
		flunk "refrt did not start: $(cat "$T/ns.stdout.err")"
	grep -q " $dir/refrt\$" "/proc/$LAST_PID/maps" || flunk "maps: $(cat "/proc/$LAST_PID/maps")"
	[[ ! -e $dir/refrt ]] || flunk "the tmpfs is visible outside its namespace"
	trace_refrt_at ns "$LAST_PID" "$dir/refrt" "$T/ns.json"
}

# A binary deleted after it started: maps says "PATH (deleted)", and only
# /proc/PID/map_files reaches it (for root: CAP_SYS_ADMIN); without that,
# one line names the file and why, and it is not traced (exit 3).
@test "refrt deleted after it started: traced through map_files; without CAP_SYS_ADMIN, named and skipped" {
	require_root
	require_refrt
	require_cmd capsh
	local dir=$T/gone out
	mkdir -p "$dir"
	cp "$REFRT" "$dir/refrt"
	bg "$T/del.stdout" "$dir/refrt" "${REFRT_ARGS[@]}" --summary "$T/del.json"
	rm "$dir/refrt"
	grep -q " $dir/refrt (deleted)\$" "/proc/$LAST_PID/maps" || flunk "maps: $(cat "/proc/$LAST_PID/maps")"
	run capsh --drop=cap_sys_admin,cap_checkpoint_restore -- -c '"$0" "$@"' "$EBPF_COLLECT" \
		-p "$LAST_PID" -o "$T/nocap.nettrace" --providers DotNETRuntime,DotNETRuntimeRundown
	[[ $status -eq 3 ]] || flunk "status $status: $output"
	[[ ${lines[0]} == "ebpf-collect: pid $LAST_PID: cannot open $dir/refrt: neither /proc/$LAST_PID/root$dir/refrt nor /proc/$LAST_PID/map_files (needs CAP_SYS_ADMIN) is the file it maps (device "*", inode "*"); not traced" ]] ||
		flunk "$output"
	assert_output_contains "searched $dir/refrt, "
	trace_refrt_at del "$LAST_PID" "$dir/refrt" "$T/del.json"
}

@test "refrt: decoded fields: GC generation and reason, method names, exception type and message" {
	require_root
	require_refrt
	run_scenario mixed --providers DotNETRuntime,DotNETRuntimeRundown
	assert_success
	cat >"$T/check.py" <<EOF
import collections
summ = json.load(open("$T/mixed.json"))
def ev(name):
    return [e["fields"] for e in events if e["event"] == name]
gc = summ["gc"]
gcs = ev("GCStart_V2")
depth = collections.Counter(f["Depth"] for f in gcs)
if depth != collections.Counter({0: gc["gen0"], 1: gc["gen1"], 2: gc["gen2"]}) - collections.Counter():
    bad.append("GC generations %r vs %r" % (dict(depth), gc))
reason = collections.Counter(f["Reason"] for f in gcs)   # GCReasonMap: 0 AllocSmall, 1 Induced, 4 AllocLarge
want = collections.Counter({0: gc["reason_alloc_small"], 1: gc["reason_induced"], 4: gc["reason_alloc_large"]})
if reason != want - collections.Counter():
    bad.append("GC reasons %r vs %r" % (dict(reason), gc))
got_m = {(f["MethodNamespace"], f["MethodName"], f["MethodSignature"], f["MethodStartAddress"], f["MethodSize"])
         for f in ev("MethodLoadVerbose_V2")}
want_m = {(m["namespace"], m["method"], m["signature"], int(m["start"], 16), m["size"]) for m in summ["methods"]}
if not got_m or got_m != want_m:
    bad.append("methods differ: %d in trace, %d fired, e.g. %r" % (len(got_m), len(want_m), sorted(got_m ^ want_m)[:2]))
ex = ev("ExceptionThrown_V1")
types = collections.Counter(f["ExceptionType"] for f in ex)
if types != collections.Counter(summ["exceptions"]["by_type"]):
    bad.append("exception types %r vs %r" % (dict(types), summ["exceptions"]["by_type"]))
if not ex or not all("(worker " in f["ExceptionMessage"] for f in ex):
    bad.append("exception messages missing")
EOF
	CHECK_PY=$T/check.py run trace_check "$T/mixed.nettrace" "$(json_get "$T/mixed.json" '["events"]')"
	assert_success
}

# selected_events MASK LEVEL: DotNETRuntime events of $MANIFEST that a
# "DotNETRuntime:MASK:LEVEL" filter selects (the rule in collector/sources/selection.h)
selected_events() {
	python3 - "$MANIFEST" "$1" "$2" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = "{http://schemas.microsoft.com/win/2004/08/events}"
root = ET.parse(sys.argv[1]).getroot()
mask, level = int(sys.argv[2], 16), int(sys.argv[3])
levels = {"win:LogAlways": 0, "win:Critical": 1, "win:Error": 2, "win:Warning": 3,
          "win:Informational": 4, "win:Verbose": 5}
for prov in root.iter(ns + "provider"):
    if prov.get("name") != "Microsoft-Windows-DotNETRuntime":
        continue
    kw = {k.get("name"): int(k.get("mask"), 16) for k in prov.iter(ns + "keyword")}
    for ev in prov.iter(ns + "event"):
        m = 0
        for k in (ev.get("keywords") or "").split():
            m |= kw[k]
        lv = levels[ev.get("level", "win:LogAlways")]
        if (lv == 0 or lv <= level) and (m == 0 or m & mask):
            print(ev.get("symbol"))
EOF
}

# filter_check MASK LEVEL: run the exceptions scenario with that filter; the
# collector attaches exactly the selected probes, the trace holds what refrt
# fired, and refrt fired nothing outside the selection.
filter_check() {
	local mask=$1 level=$2 sel n
	sel=$(selected_events "$mask" "$level" | sort -u)
	n=$(wc -l <<<"$sel")
	run_scenario exceptions --providers "Microsoft-Windows-DotNETRuntime:$mask:$level"
	assert_success
	trace_note "$T/exceptions.nettrace" unnamed \
		"JIT frames: no Jit/Loader keyword selected and no perf map"
	assert_output_contains "attached $n of "
	run trace_check "$T/exceptions.nettrace" "$(json_get "$T/exceptions.json" '["events"]')"
	assert_success
	python3 - "$T/exceptions.json" "$sel" <<'EOF' || flunk "refrt fired unselected events"
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
sel = set(sys.argv[2].split())
fired = {k for k, v in ev.items() if v}
assert fired, "nothing fired"
assert fired <= sel, fired - sel
# events the scenario fires when everything is enabled stay at 0
for k in ("GCStart_V2", "MethodLoadVerbose_V2", "ThreadCreated"):
    assert k in ev and ev[k] == 0, (k, ev.get(k))
EOF
}

@test "refrt: a keyword filter attaches only matching probes; the others never fire" {
	require_root
	require_refrt
	filter_check 0x8000 5
	[[ $(json_get "$T/exceptions.json" '["events"]["ExceptionCatchStart"]') -gt 0 ]] ||
		flunk "no ExceptionCatchStart fired"
}

@test "refrt: a level filter attaches only matching probes; the others never fire" {
	require_root
	require_refrt
	# Error (2): ExceptionThrown_V1 is win:Error, catch/finally are Informational
	filter_check 0x8000 2
	[[ $(json_get "$T/exceptions.json" '["events"]["ExceptionThrown_V1"]') -gt 0 ]] ||
		flunk "no ExceptionThrown_V1 fired"
	assert_equal "$(json_get "$T/exceptions.json" '["events"]["ExceptionCatchStart"]')" 0
}

@test "refrt: detaching 64 probes is quick and leaves every semaphore and the pause word at 0" {
	require_root
	require_refrt
	bg "$T/rt.out" "$REFRT" --scenario cpu --duration 30 --rate 10 --threads 1 --summary "$T/rt.json"
	local rt=$LAST_PID
	wait_for_exec "$rt" "$REFRT" || flunk "refrt did not start: $(cat "$T/rt.out.err")"
	# semaphores of all runtime probes in refrt, summed, and the provider's
	# tracer pause word (/proc/PID/mem)
	"$EBPF_COLLECT" -l "$REFRT" | awk '$1 ~ /^DotNETRuntime/ {print $4}' >"$T/semas"
	local pause
	pause=$(nm "$REFRT" | awk '$3 == "clretw_tracer_pause" {print $1}')
	[[ -n $pause ]] || flunk "refrt defines no clretw_tracer_pause"
	sema_sum() {
		python3 - "$rt" "$T/semas" "$pause" <<'EOF'
import sys
pid, semas = int(sys.argv[1]), [int(x, 16) for x in open(sys.argv[2]).read().split()]
base = next(int(l.split()[0].split("-")[0], 16) for l in open("/proc/%d/maps" % pid)
            if l.split()[-1].endswith("/refrt") and int(l.split()[2], 16) == 0)
mem = open("/proc/%d/mem" % pid, "rb")
total = 0
for s in semas:
    mem.seek(base + s)
    total += int.from_bytes(mem.read(2), "little")
mem.seek(base + int(sys.argv[3], 16))
print(total, int.from_bytes(mem.read(4), "little"))
EOF
	}
	assert_equal "$(sema_sum)" "0 0"
	local t0=$SECONDS
	bg "$T/col.out" "$EBPF_COLLECT" -p "$rt" -o "$T/d.nettrace" --providers DotNETRuntime,DotNETRuntimeRundown -d 3
	local col=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/col.out.err" || flunk "$(cat "$T/col.out.err")"
	assert_equal "$(sema_sum)" "$(wc -l <"$T/semas") 0"
	wait "$col"
	assert_equal "$(sema_sum)" "0 0"
	((SECONDS - t0 <= 5)) || flunk "took $((SECONDS - t0)) s for a 3 s trace"
	grep -q "attached 64 of 64" "$T/col.out.err" || flunk "$(cat "$T/col.out.err")"
}

@test "refrt: a second collector after the first still gets refrt's events (the pause is lifted)" {
	require_root
	require_refrt
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 30 --summary "$T/rt.json"
	local rt=$LAST_PID i n
	for i in 1 2; do
		"$EBPF_COLLECT" -p "$rt" -o "$T/p$i.nettrace" --providers DotNETRuntime,DotNETRuntimeRundown -d 1s \
			2>"$T/p$i.err" || flunk "collector $i failed: $(cat "$T/p$i.err")"
		"$EBPF_COLLECT" dump --json "$T/p$i.nettrace" >"$T/p$i.jsonl" || flunk "dump failed"
		n=$(python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if json.loads(l).get("type") == "event" and json.loads(l)["provider"] != "ebpf-collect"))' "$T/p$i.jsonl")
		((n > 1000)) || flunk "collector $i: only $n runtime events: $(cat "$T/p$i.err")"
	done
}

# stop_trace MODE: trace refrt's mixed scenario at its default rate (about
# 17,000 events/s here) for about a second and end the trace by MODE:
# duration (-d 1s), INT or TERM (that signal after 1 s), exit (refrt exits
# while traced).  BPF run statistics (bpf_stats_on) make the summary say how
# often the BPF program ran.  Leaves $T/s.nettrace, $T/s.json (refrt's summary),
# $T/s.err (the collector's stderr); echoes
# "RUNTIME TRACE LOST_FILE LOST_STDERR RUNS DIFFERING_TYPES" after checking
# that TraceEvent reads the file's lost count (DIFFERING_TYPES: how many
# event types are in the trace more or less often than refrt fired them).
stop_trace() {
	local mode=$1 rt col
	if [[ $mode == exit ]]; then
		bg "$T/rt.out" "$REFRT" --scenario mixed --duration 1 --wait-for-tracer 10 \
			--summary "$T/s.json"
	else
		bg "$T/rt.out" "$REFRT" --scenario mixed --duration 20 --summary "$T/s.json"
	fi
	rt=$LAST_PID
	local args=(-p "$rt" -o "$T/s.nettrace" --providers DotNETRuntime,DotNETRuntimeRundown)
	case $mode in
	duration | exit)
		[[ $mode == exit ]] || args+=(-d 1s)
		timeout 60 "$EBPF_COLLECT" "${args[@]}" 2>"$T/s.err" ||
			flunk "collector failed: $(cat "$T/s.err")" ;;
	INT | TERM)
		"$EBPF_COLLECT" "${args[@]}" 2>"$T/s.err" 3>&- &
		col=$!
		wait_for_grep "tracing .* probes" "$T/s.err" || flunk "$(cat "$T/s.err")"
		sleep 1
		kill -"$mode" "$col"
		wait "$col" || flunk "collector failed: $(cat "$T/s.err")" ;;
	esac
	[[ $mode == exit ]] || kill -INT "$rt"	# refrt writes its summary
	wait "$rt" || flunk "refrt failed: $(cat "$T/rt.out.err")"
	"$EBPF_COLLECT" dump --json "$T/s.nettrace" >"$T/s.jsonl" || flunk "dump failed"
	python3 - "$T/s.json" "$T/s.jsonl" "$T/s.err" "$BATS_TEST_DIRNAME/traceevent_sim.py" \
		"$T/s.nettrace" <<'EOF'
import json, re, subprocess, sys
fired = {k: v for k, v in json.load(open(sys.argv[1]))["events"].items() if v}
got, summary = {}, None
for l in open(sys.argv[2]):
    o = json.loads(l)
    if o.get("type") == "summary":
        summary = o
    elif o.get("type") == "event" and o["provider"] != "ebpf-collect" and o["tid"] != 0x7fffffff:
        got[o["event"]] = got.get(o["event"], 0) + 1
err = open(sys.argv[3]).read()
lost_err = int(re.search(r"dropped (\d+) events", err).group(1))
runs = re.search(r"BPF program: (\d+) runs", err)
sim = json.loads(subprocess.run([sys.executable, sys.argv[4], sys.argv[5]], check=True,
                                capture_output=True, text=True).stdout)
assert summary["complete"], summary
assert sim["new"]["lost"] == sim["old"]["lost"] == summary["lost"], (sim, summary)
differ = {k: (got.get(k, 0), fired.get(k, 0)) for k in set(got) | set(fired)
          if got.get(k, 0) != fired.get(k, 0)}
if differ:
    print("event types whose count in the trace differs from refrt's (trace, refrt): %r"
          % differ)
print(sum(fired.values()), sum(got.values()), summary["lost"], lost_err,
      runs.group(1) if runs else "-", len(differ))
EOF
}

# Every end of a trace pauses the runtime's provider (its tracer pause
# word), turns the probes off, reads the ring to empty and lifts the pause:
# each event refrt fired while traced is in the file, event type by event
# type (and equals the BPF program's runs as the kernel counts them), none
# is lost.
stop_modes_check() {
	local mode=$1 i rt tr lf le runs differ out
	for i in 1 2 3 4 5; do
		out=$(stop_trace "$mode") || flunk "$mode run $i: $out"
		[[ $out != *differs* ]] || echo "$out"
		read -r rt tr lf le runs differ <<<"${out##*$'\n'}"
		echo "$mode run $i: refrt fired $rt while traced, trace $tr, lost $lf (stderr $le)," \
			"BPF program runs $runs"
		assert_equal "$lf" 0
		assert_equal "$le" 0
		assert_equal "$tr" "$runs"
		((tr > 5000)) || flunk "$mode run $i: only $tr events"
		assert_equal "$tr" "$rt"
		assert_equal "$differ" 0
	done
}

# BPF run counts on for this test: a BPF_ENABLE_STATS fd held by a
# background process (stopped by kill_bg).  Not kernel.bpf_stats_enabled:
# that sysctl is one switch for the machine, and a test elsewhere that sets
# it back to 0 mid-run (another checkout's suite, in parallel) stopped the
# counts and failed 'BPF program runs' here.  Each fd counts; stats are on
# while any is open.
bpf_stats_on() {
	bg "$T/stats.out" python3 -c '
import ctypes, os, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
attr = ctypes.create_string_buffer(8)   # union bpf_attr: enable_stats.type = BPF_STATS_RUN_TIME (0)
fd = libc.syscall(321, 32, attr, 8)     # SYS_bpf (x86-64), BPF_ENABLE_STATS
if fd < 0:
    sys.exit("BPF_ENABLE_STATS: " + os.strerror(ctypes.get_errno()))
print("on", flush=True)
signal.pause()'
	wait_for_grep on "$T/stats.out" 10 || flunk "BPF stats not on: $(cat "$T/stats.out.err")"
}

@test "refrt: stop by -d: the trace holds exactly what refrt fired, 0 lost (5 runs)" {
	require_root
	require_refrt
	bpf_stats_on
	stop_modes_check duration
}

@test "refrt: stop by SIGINT: the trace holds exactly what refrt fired, 0 lost (5 runs)" {
	require_root
	require_refrt
	bpf_stats_on
	stop_modes_check INT
}

@test "refrt: stop by SIGTERM: the trace holds exactly what refrt fired, 0 lost (5 runs)" {
	require_root
	require_refrt
	bpf_stats_on
	stop_modes_check TERM
}

@test "refrt: stop at the target's exit: the trace holds exactly what refrt fired (5 runs)" {
	require_root
	require_refrt
	bpf_stats_on
	stop_modes_check exit
}

@test "refrt: events lost to a full ring are counted exactly, in the file and on stderr" {
	require_root
	require_refrt
	# a 1 MiB ring (~9,000 events) and a collector held still from 0.5 s
	# into refrt's 2 s until refrt has exited (~17,000 events/s, so ~25,000
	# while held, and at least what 1.5 s of its work fires on a busy
	# machine); refrt exits while traced
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 2 --wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID
	bg "$T/col.out" "$EBPF_COLLECT" -p "$rt" -o "$T/s.nettrace" -b 1 \
		--providers DotNETRuntime,DotNETRuntimeRundown
	local col=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/col.out.err" || flunk "$(cat "$T/col.out.err")"
	sleep 0.5
	kill -STOP "$col"
	wait "$rt" || { kill -CONT "$col"; flunk "refrt failed"; }
	kill -CONT "$col"
	wait "$col" || flunk "collector failed: $(cat "$T/col.out.err")"
	"$EBPF_COLLECT" dump --json "$T/s.nettrace" >"$T/s.jsonl" || flunk "dump failed"
	run python3 - "$T/s.json" "$T/s.jsonl" "$T/col.out.err" "$BATS_TEST_DIRNAME/traceevent_sim.py" \
		"$T/s.nettrace" <<'EOF'
import json, re, subprocess, sys
fired = sum(json.load(open(sys.argv[1]))["events"].values())
got, summary = 0, None
for l in open(sys.argv[2]):
    o = json.loads(l)
    if o.get("type") == "summary":
        summary = o
    elif o.get("type") == "event" and o["provider"] != "ebpf-collect" and o["tid"] != 0x7fffffff:
        got += 1
err = open(sys.argv[3]).read()
m = re.search(r"dropped (\d+) events \(ring buffer full (\d+)", err)
sim = json.loads(subprocess.run([sys.executable, sys.argv[4], sys.argv[5]], check=True,
                                capture_output=True, text=True).stdout)
print("refrt fired %d, trace %d, lost in the file %d, TraceEvent lost %d, stderr dropped %s "
      "(ring full %s)" % (fired, got, summary["lost"], sim["new"]["lost"], m.group(1), m.group(2)))
assert summary["complete"]
assert summary["lost"] > 1000, "nothing lost"
assert got + summary["lost"] == fired
assert sim["new"]["lost"] == sim["old"]["lost"] == summary["lost"]
assert int(m.group(1)) == int(m.group(2)) == summary["lost"]
EOF
	echo "$output"
	assert_success
}

@test "refrt: -- CMD catches the runtime's first event" {
	require_root
	require_refrt
	run timeout 60 "$EBPF_COLLECT" -o "$T/cmd.nettrace" -- "$REFRT" --scenario cpu \
		--iterations 20 --threads 1 --summary "$T/cmd.json"
	assert_success
	cat >"$T/check.py" <<'EOF'
first = [e for e in events if not collector_added(e)][:1]
if not first or first[0]["event"] != "RuntimeInformationStart":
    bad.append("first event is %r" % (first and first[0]["event"]))
EOF
	CHECK_PY=$T/check.py run trace_check "$T/cmd.nettrace" "$(json_get "$T/cmd.json" '["events"]')"
	assert_success
}

@test "ClrEtwAll.man runtime: --manifest traces all 430 events, decoded by dump --manifest" {
	require_root
	require_shared
	# a "runtime" built from the full real manifest: calls every FireEtXplat once
	"$USDT_GEN" "$MANIFEST_REAL" -o "$T/gen" --emit-caller >/dev/null || flunk "usdt-gen failed"
	cc -O2 -std=gnu11 -I"$T/gen" -I"$ROOT/usdt" "$T/gen/clretw_provider.c" \
		"$T/gen/clretw_events.c" "$T/gen/clretw_caller.c" -o "$T/caller" ||
		flunk "caller does not build"
	local all=DotNETRuntime,DotNETRuntimeRundown,DotNETRuntimePrivate,DotNETRuntimeStress
	# the built-in table (64 events) says what it leaves out, once per file
	run --separate-stderr "$EBPF_COLLECT" -o "$T/builtin.nettrace" \
		--providers DotNETRuntime,DotNETRuntimeRundown -- "$T/caller"
	assert_success
	trace_note "$T/builtin.nettrace" placeholder "the caller fires every event once with placeholder values"
	grep -q "attached 64 of 243 runtime probes in $T/caller" <<<"$stderr" || flunk "$stderr"
	grep -q "$T/caller: 179 runtime probes are not in the event table of clr-events.man and are not traced (--manifest FILE" <<<"$stderr" ||
		flunk "$stderr"
	# with the runtime's own manifest: every probe attached, every event in the trace
	run --separate-stderr "$EBPF_COLLECT" -o "$T/all.nettrace" --manifest "$MANIFEST_REAL" \
		--providers "$all" -- "$T/caller"
	assert_success
	trace_note "$T/all.nettrace" placeholder "the caller fires every event once with placeholder values"
	grep -q "attached 430 of 430 runtime probes in $T/caller" <<<"$stderr" || flunk "$stderr"
	# by default the 13 events of the high-rate heap keywords alone are batched
	grep -q "13 events batched in-process in $T/caller" <<<"$stderr" || flunk "$stderr"
	grep -q "not in the event table" <<<"$stderr" && flunk "$stderr"
	"$EBPF_COLLECT" dump --json --manifest "$MANIFEST_REAL" "$T/all.nettrace" >"$T/all.jsonl" ||
		flunk "dump --manifest failed"
	run python3 - "$T/all.jsonl" "$MANIFEST_REAL" <<'EOF'
import json, sys, re
import xml.etree.ElementTree as ET
ns = "{http://schemas.microsoft.com/win/2004/08/events}"
want = set()
for p in ET.parse(sys.argv[2]).getroot().iter(ns + "provider"):
    for e in p.iter(ns + "event"):
        want.add((p.get("name"), int(e.get("value")), int(e.get("version", "0"))))
got, summary = [], None
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o["type"] == "summary":
        summary = o
    elif o["provider"] != "ebpf-collect" and o["tid"] != 0x7fffffff:
        got.append(o)
keys = [(o["provider"], o["id"], o["version"]) for o in got]
assert len(want) == 430, len(want)
assert len(keys) == 430 and set(keys) == want, (len(keys), sorted(want - set(keys))[:5])
undecoded = [o["event"] for o in got if "fields" not in o or "_extra" in o["fields"]
             or "..." in o["fields"]]
assert not undecoded, undecoded[:5]
assert summary["complete"] and summary["lost"] == 0, summary
gc = next(o for o in got if o["event"] == "GCStart_V2")
assert gc["fields"]["Count"] == 1 and gc["fields"]["ClrInstanceID"] == 1, gc
print("430 events, all decoded")
EOF
	echo "$output"
	assert_success
	# a manifest that does not parse: one line naming file and line, usage exit
	printf '<instrumentationManifest>\n<bad\n' >"$T/bad.man"
	run "$EBPF_COLLECT" --manifest "$T/bad.man" -p $$
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	[[ $output == "ebpf-collect: --manifest $T/bad.man:"[0-9]*": malformed XML: "* ]] ||
		flunk "$output"
}
