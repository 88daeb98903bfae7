#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# --all: every process of the host that has what we trace, in one NetTrace
# V6 file with each event's process; --split-by-process, --comm.  Each
# process's events are counted against its own account of what it fired
# (refrt's summary; the Python script's own count of its collections), and TraceEvent's
# per-process counts against ours.

load test_helper

TC_DIR=$OUTPUT/traceevent
PY=/usr/bin/python3.11

setup_file() {
	export BATS_TEST_TIMEOUT=180
}

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	[[ -x $REFRT ]] || flunk "reference runtime not built ($REFRT)"
	T=$BATS_TEST_TMPDIR
}

teardown() {
	kill_bg
}


# A Python program whose garbage collections the python:gc__start probe
# reports: automatic collection off, so every collection in its counting
# loop is one gc.collect() it counts; it waits a second first (the
# collector attaches to a new program within its next poll) and leaves with
# os._exit (no collections of the interpreter's own shutdown).  It writes
# "PID COUNT FIRST LAST": the loop's first and last CLOCK_MONOTONIC ns (the
# trace's clock), since the collections of its start-up, before
# gc.disable(), are traced or not depending on how soon the collector
# attached.
python_gc() {
	"$PY" - "$1" <<'PYEOF'
import gc
gc.disable()
import os, sys, time
time.sleep(1.0)
n = 0
first = time.monotonic_ns()
t = time.time()
while time.time() - t < 1.5:
    gc.collect()
    n += 1
    time.sleep(0.002)
last = time.monotonic_ns()
open(sys.argv[1], "w").write("%d %d %d %d\n" % (os.getpid(), n, first, last))
sys.stdout.flush()
os._exit(0)
PYEOF
}

@test "--all: two runtimes (one started later) and Python in one V6 trace, each process exact" {
	require_root
	[[ -x $PY ]] || skip "needs Debian's $PY (USDT probes)"
	bg "$T/a.out" "$REFRT" --scenario mixed --duration 4 --rate 300 --threads 2 \
		--wait-for-tracer 10 --summary "$T/a.json"
	local a=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" --all -o "$T/all.nettrace" -d 7s \
		--usdt python:gc__start --split-by-process "$T/split"
	local col=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/c.out.err" || flunk "$(cat "$T/c.out.err")"
	sleep 2
	bg "$T/b.out" "$REFRT" --scenario exceptions --duration 2 --rate 300 --threads 1 \
		--wait-for-tracer 10 --summary "$T/b.json"
	local b=$LAST_PID
	python_gc "$T/py.count" &
	local py=$!
	wait "$py" || flunk "python failed"
	wait "$a" && wait "$b" || flunk "refrt failed"
	wait "$col" || flunk "collector failed: $(cat "$T/c.out.err")"
	grep -q -- "--all: tracing pid $b (runtime provider)" "$T/c.out.err" ||
		flunk "the later runtime was not found: $(cat "$T/c.out.err")"
	head -c 16 "$T/all.nettrace" | od -An -tx1 | grep -q "4e 65 74 74 72 61 63 65 00 00 00 00 06 00 00 00" ||
		flunk "not a V6 file"
	"$EBPF_COLLECT" dump --json "$T/all.nettrace" >"$T/all.jsonl" || flunk "dump failed"
	if [[ -f $TC_DIR/TraceCheck.dll ]] && command -v dotnet >/dev/null; then
		dotnet "$TC_DIR/TraceCheck.dll" --json "$T/all.nettrace" >"$T/tc.json" ||
			flunk "TraceEvent: $(cat "$T/tc.json")"
	else
		echo '{}' >"$T/tc.json"
	fi
	run python3 - "$T" "$a" "$b" <<'PYEOF'
import json, sys, collections
T, a, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
got, per_pid, summary, gc_ts = collections.Counter(), collections.Counter(), None, []
for l in open(T + "/all.jsonl"):
    o = json.loads(l)
    if o.get("type") == "summary":
        summary = o
    elif o.get("type") == "event":
        per_pid[o["pid"]] += 1
        if o["provider"] != "ebpf-collect" and o["tid"] != 0x7fffffff and not o["provider"].startswith("Linux-Kernel-"):
            got[(o["pid"], o["event"])] += 1
        if o["event"] == "gc__start":
            gc_ts.append((o["pid"], o["timestamp"]))
bad = []
if not summary["complete"] or summary["lost"]:
    bad.append("summary %r" % summary)
for pid, f in ((a, "a.json"), (b, "b.json")):
    fired = {k: v for k, v in json.load(open("%s/%s" % (T, f)))["events"].items() if v}
    mine = {e: n for (p, e), n in got.items() if p == pid}
    if mine != fired:
        bad.append("pid %d: %r" % (pid, {k: (mine.get(k, 0), fired.get(k, 0)) for k in set(mine) | set(fired) if mine.get(k, 0) != fired.get(k, 0)}))
py_pid, want, first, last = map(int, open(T + "/py.count").read().split())
py = [py_pid]
in_loop = sum(1 for p, ts in gc_ts if p == py_pid and first <= ts <= last)
if not got[(py_pid, "gc__start")] or in_loop != want:
    bad.append("python gc__start: %d in its loop (%d in all), the script counted %d" % (in_loop, got[(py_pid, "gc__start")], want))
tc = json.load(open(T + "/tc.json"))
if tc:
    if tc["lost"] or tc["tracelog"]["named_ratio"] < 1:
        bad.append("TraceEvent: lost %d, named %.4f" % (tc["lost"], tc["tracelog"]["named_ratio"]))
    for pid in (a, b) + tuple(py):
        if tc["by_process"].get(str(pid)) != per_pid[pid]:
            bad.append("pid %d: TraceEvent %s, ours %d" % (pid, tc["by_process"].get(str(pid)), per_pid[pid]))
print("MISMATCH " + "; ".join(bad) if bad else "OK %d+%d+%d events" % (sum(v for (p, e), v in got.items() if p == a), sum(v for (p, e), v in got.items() if p == b), want))
sys.exit(1 if bad else 0)
PYEOF
	echo "$output"
	assert_success
	# one V5 file per process with its own events, named by its comm, for older readers
	for p in "$a" "$b"; do
		[[ -s $T/split/all.$p.refrt.nettrace ]] || flunk "no split file for $p: $(ls "$T/split")"
		head -c 12 "$T/split/all.$p.refrt.nettrace" | tail -c 4 | od -An -tx1 | grep -q "14 00 00 00" ||
			flunk "split file of $p is not V5"
		"$EBPF_COLLECT" dump --json "$T/split/all.$p.refrt.nettrace" | tail -1 >"$T/s.json"
		run python3 -c "
import json
s = json.load(open('$T/s.json'))
print(s['complete'], s['lost'], list(s['by_process']), sum(v for k, v in s['by_event'].items() if k.startswith('Microsoft-Windows-DotNETRuntime/')))"
		local want
		want=$(json_get "$T/$([[ $p == "$a" ]] && echo a || echo b).json" '["events"]' | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(sum(v for k, v in d.items() if not k.startswith(('MethodDC', 'ModuleDC', 'AssemblyDC', 'DomainModuleDC', 'AppDomainDC', 'DCStart', 'DCEnd', 'RuntimeInformationDC'))))")
		assert_output "True 0 ['$p'] $want"
	done
}

@test "--all --comm narrows the host to matching programs" {
	require_root
	bg "$T/a.out" "$REFRT" --scenario cpu --duration 3 --rate 200 --threads 1 \
		--wait-for-tracer 10 --summary "$T/a.json"
	local a=$LAST_PID
	run timeout 60 "$EBPF_COLLECT" --all --comm 'nomatch*' -o "$T/n.nettrace" -d 1s
	assert_output_contains "--all: 0 processes traced"
	run timeout 60 "$EBPF_COLLECT" --all --comm 'refr*' -o "$T/r.nettrace" -d 1s
	assert_success
	assert_output_contains "--all: tracing pid $a (runtime provider)"
	kill -INT "$a" 2>/dev/null || true
	wait "$a" || true
}

@test "usage: --all takes no -p or -- CMD; --comm, --cgroup, --container and --pid-filter need --all; --format v5|v6; --service-from" {
	run "$EBPF_COLLECT" --all -p 1
	assert_equal "$status" 64
	assert_output_contains "--all traces every process"
	run "$EBPF_COLLECT" -p 1 --comm x
	assert_equal "$status" 64
	assert_output_contains "--comm, --cgroup, --container and --pid-filter narrow --all"
	run "$EBPF_COLLECT" -p 1 --cgroup '*/docker/*'
	assert_equal "$status" 64
	assert_output_contains "--comm, --cgroup, --container and --pid-filter narrow --all"
	run "$EBPF_COLLECT" --all --container 12G4
	assert_equal "$status" 64
	assert_output_contains "invalid --container '12G4' (the id's hex digits, or their start)"
	run "$EBPF_COLLECT" -p 1 --service-from cpu
	assert_equal "$status" 64
	assert_output_contains "invalid --service-from 'cpu' (cgroup, comm or env:NAME)"
	run "$EBPF_COLLECT" -p 1 --service-from env:
	assert_equal "$status" 64
	run "$EBPF_COLLECT" -p 1 --format v7
	assert_equal "$status" 64
	assert_output_contains "invalid --format 'v7' (v5 or v6)"
	run "$EBPF_COLLECT" --all --pid-filter 12x
	assert_equal "$status" 64
	run "$EBPF_COLLECT" split
	assert_equal "$status" 64
}
