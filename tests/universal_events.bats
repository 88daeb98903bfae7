#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# CPU samples and switch-ins as TraceEvent 4's Universal.Events cpu and
# cswitch (--sample-events, docs/nettrace-format.md section 10), judged by
# the real TraceEvent 4.0: TraceCheck --universal reads them through
# TraceLog, with TraceEvent's own parser and ThreadTimeStackComputer
# (PerfView's CPU and Thread Time views), and its counts must be exactly
# what our own `ebpf-collect dump` and `report` count in the same file, in
# V5, V6 and a V6 trace split into V5 files.

load test_helper

setup_file() {
	export BATS_TEST_TIMEOUT=180
}

setup() {
	T=$BATS_TEST_TMPDIR
}

need_bpf() {
	require_root
	require_btf
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
}

# collect NAME [OPTS...]: refrt's cpu scenario (two HotLoop threads that
# also block now and then) traced with samples and the sched group
collect() {
	local name=$1
	shift
	DOTNET_PerfMapEnabled=3 run --separate-stderr timeout 90 "$EBPF_COLLECT" \
		-o "$T/$name.nettrace" --profile cpu-sampling --kernel sched "$@" -- \
		"$REFRT" --scenario cpu --threads 2 --duration 3 --summary "$T/$name.json"
	assert_success
	"$EBPF_COLLECT" dump --json "$T/$name.nettrace" >"$T/$name.dump" ||
		flunk "dump $name failed"
}

# counts DUMP: per "pid/tid" counts of our own reading of the file, one JSON
# object: profiler (SampleProfiler samples), cpu / cswitch (Universal.Events,
# with their Values, as dump decodes the LEB128 payload, summed), offcpu (OffCpu, DurationNs summed),
# switch (SchedSwitch: a traced thread leaving the CPU)
counts() {
	python3 - "$1" <<'EOF'
import collections, json, sys
c = collections.defaultdict(lambda: collections.Counter())
val = collections.Counter()
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") != "event":
        continue
    t = f'{e["pid"]}/{e["tid"]}'
    p, n = e["provider"], e["event"]
    if p == "Microsoft-DotNETCore-SampleProfiler":
        c["profiler"][t] += 1
    elif p == "Universal.Events":
        c[n][t] += 1
        val[n] += e["fields"]["Value"]
        assert e["stack"], f"{n} without a stack"
    elif p == "Linux-Kernel-Sched" and n == "OffCpu":
        c["offcpu"][t] += 1
        val["offcpu"] += e["fields"]["DurationNs"]
    elif p == "Linux-Kernel-Sched" and n == "SchedSwitch":
        c["switch"][t] += 1
out = {k: dict(v) for k, v in c.items()}
out["values"] = dict(val)
print(json.dumps(out))
EOF
}

@test "universal events: --sample-events is validated and listed" {
	run "$EBPF_COLLECT" -p 1 --cpu-sampling --sample-events perf
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "invalid --sample-events 'perf' (sampleprofiler, universal or both)"
	run "$EBPF_COLLECT" --help
	assert_success
	assert_output_contains "--sample-events=KIND"
}

@test "universal events: TraceLog's cpu and cswitch counts are ours, HotLoop tops its CPU stacks" {
	need_bpf
	require_tracecheck
	collect both
	[[ $stderr == *"Universal.Events      cpu"* ]] || flunk "stderr: $stderr"
	counts "$T/both.dump" >"$T/ours.json"
	tracecheck --json --universal --top 5 "$T/both.nettrace" >"$T/tc.json" ||
		flunk "TraceCheck failed: $(cat "$T/tc.json")"
	read -r total hot < <(python3 - "$T/ours.json" "$T/tc.json" <<'EOF'
import json, sys
ours, tc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
u = tc["universal"]
print(f"ours: {json.dumps(ours)}", file=sys.stderr)
print(f"TraceLog: {json.dumps(u)}", file=sys.stderr)
# every sample twice, per thread: the thread sample and cpu
assert ours["cpu"] == ours["profiler"], (ours["cpu"], ours["profiler"])
# TraceLog's reading equals ours, thread by thread
assert u["cpu"] == ours["cpu"], (u["cpu"], ours["cpu"])
assert u["cswitch"] == ours["offcpu"], (u["cswitch"], ours["offcpu"])
assert u["cswitch"] == ours["cswitch"]
total = sum(ours["cpu"].values())
assert u["cpu_value"] == total == ours["values"]["cpu"]
assert u["cswitch_value"] == ours["values"]["offcpu"] == ours["values"]["cswitch"]
# a cswitch per switch-in with its switch-out in the trace: per thread at
# most its switch-outs (the last one may have no switch-in before the stop,
# and now and then a preempted thread's trace has two switch-outs in a row,
# both PrevState 0, with no OffCpu between: a switch-in BPF did not match
# to its switch-out), and nearly all
for t, n in ours["cswitch"].items():
    assert n <= ours["switch"].get(t, 0), (t, n, ours["switch"].get(t))
sw, cs = sum(ours["switch"].values()), sum(ours["cswitch"].values())
assert cs * 100 >= sw * 97, (cs, sw)
# TraceLog's per-thread CPU time is made of exactly those threads' samples
assert set(u["thread_cpu_ms"]) == set(ours["cpu"]), u["thread_cpu_ms"]
# PerfView's Thread Time: CPU and blocked time both present
assert u["thread_time"].get("CPU_TIME", 0) > 0 and u["thread_time"].get("BLOCKED_TIME", 0) > 0
top = next(iter(u["top_frames"].items()))
assert top[0] == "refapp!RefApp.Workload.HotLoop(int32)", top
print(total, top[1])
EOF
) || flunk "TraceLog's universal events differ from ours"
	echo "cpu samples $total, HotLoop on top of $hot"
	# 3 s of two busy threads at 999 Hz on a shared VM: a third of one CPU at least
	((total >= 1000)) || flunk "only $total samples"
	((hot * 100 >= total * 90)) || flunk "HotLoop on top of $hot of $total cpu stacks"
	# report counts the same samples
	run "$EBPF_COLLECT" report "$T/both.nettrace"
	assert_success
	assert_output_contains "Top methods by CPU samples ($total samples:"
}

@test "universal events: --sample-events universal writes only cpu and cswitch, sampleprofiler only the thread samples" {
	need_bpf
	require_tracecheck
	collect uni --sample-events universal
	collect sp --sample-events sampleprofiler
	counts "$T/uni.dump" >"$T/uni.json"
	counts "$T/sp.dump" >"$T/sp.json"
	tracecheck --json --universal "$T/uni.nettrace" >"$T/tc-uni.json" ||
		flunk "TraceCheck failed: $(cat "$T/tc-uni.json")"
	tracecheck --json --universal "$T/sp.nettrace" >"$T/tc-sp.json" ||
		flunk "TraceCheck failed: $(cat "$T/tc-sp.json")"
	python3 - "$T/uni.json" "$T/tc-uni.json" "$T/sp.json" "$T/tc-sp.json" <<'EOF'
import json, sys
uni, tcu, sp, tcs = (json.load(open(f)) for f in sys.argv[1:5])
print(json.dumps(uni["values"]), json.dumps(sp["values"]))
assert "profiler" not in uni and sum(uni["cpu"].values()) >= 1000, uni.get("cpu")
assert uni["cswitch"] == uni["offcpu"]
assert tcu["universal"]["cpu"] == uni["cpu"] and tcu["universal"]["cswitch"] == uni["cswitch"]
assert "Microsoft-DotNETCore-SampleProfiler/Thread/Sample" not in tcu["by_event"]
assert "cpu" not in sp and "cswitch" not in sp and sum(sp["profiler"].values()) >= 1000
assert sp["offcpu"], "no OffCpu"
assert tcs["universal"]["cpu"] == {} and tcs["universal"]["cswitch"] == {}
assert not any(k.startswith("Universal.Events/") for k in tcs["by_event"])
EOF
	# our views take the cpu events as the samples when there are no thread
	# samples (as in dotnet-trace collect-linux's traces): each once
	n=$(python3 -c 'import json,sys; print(sum(json.load(open(sys.argv[1]))["cpu"].values()))' \
		"$T/uni.json")
	run "$EBPF_COLLECT" report "$T/uni.nettrace"
	assert_success
	assert_output_contains "Top methods by CPU samples ($n samples, Universal.Events cpu)"
	assert_output_contains "RefApp!RefApp.Workload.HotLoop(int32)"
	run "$EBPF_COLLECT" convert "$T/uni.nettrace" --format folded -o "$T/uni.folded"
	assert_success
	assert_equal "$(awk '{ s += $NF } END { print s }' "$T/uni.folded")" "$n"
}

@test "universal events: a V6 trace and its split V5 file read as ours in TraceLog, thread by thread" {
	need_bpf
	require_tracecheck
	collect v6 --format v6
	counts "$T/v6.dump" >"$T/v6.json"
	run "$EBPF_COLLECT" split "$T/v6.nettrace" "$T/parts"
	assert_success
	local part
	part=$(echo "$T"/parts/v6.*.refrt.nettrace)
	[[ -f $part ]] || flunk "no refrt file: $(ls "$T/parts")"
	tracecheck --json --universal "$T/v6.nettrace" >"$T/tc-v6.json" ||
		flunk "TraceCheck failed: $(cat "$T/tc-v6.json")"
	tracecheck --json --universal "$part" >"$T/tc-part.json" ||
		flunk "TraceCheck failed: $(cat "$T/tc-part.json")"
	python3 - "$T/v6.json" "$T/tc-v6.json" "$T/tc-part.json" <<'EOF'
import json, sys
ours, v6, part = (json.load(open(f)) for f in sys.argv[1:4])
for name, tc in (("v6", v6), ("split", part)):
    u = tc["universal"]
    assert u["cpu"] == ours["cpu"], (name, u["cpu"], ours["cpu"])
    assert u["cswitch"] == ours["cswitch"] == ours["offcpu"], (name, u["cswitch"], ours["offcpu"])
    assert u["cswitch_value"] == ours["values"]["cswitch"], name
    assert next(iter(u["top_frames"])) == "refapp!RefApp.Workload.HotLoop(int32)", (name, u["top_frames"])
EOF
}
