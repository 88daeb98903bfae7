#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Our traces opened with Microsoft's TraceEvent, as PerfView opens them:
# tests/traceevent/ (TraceCheck) reads each file with EventPipeEventSource
# and converts it with TraceLog.CreateFromEventPipeDataFile, symbol lookup
# off, then counts the stack frames that have a method name.  Every file
# must convert, every event must be parsed, the lost count must be ours,
# and >= 99 % of frames must be named.  tests/traceevent_sim.py checks the
# same files without .NET (sequence numbers and the method/module rules of
# collector/README.md, "What TraceLog assumes").
#
# tests/run keeps every .nettrace the other bats files' tests wrote in
# $SUITE_TRACES/<file>/ and runs this file last.

load test_helper

SIM=$BATS_TEST_DIRNAME/traceevent_sim.py
: "${SUITE_TRACES:=$OUTPUT/tests/traces}"

setup_file() {
	export BATS_TEST_TIMEOUT=600
}

setup() {
	T=$BATS_TEST_TMPDIR
}

need_bpf() {
	require_root
	require_btf
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
}

# check_traces OUT FILE...: the TraceEvent checker (when built) and the
# simulation over FILEs, compared with `ebpf-collect dump --json`'s counts;
# one line per file in OUT, "FAIL file: cause" lines make it fail.  Files
# our own reader rejects were damaged on purpose (tests of error handling)
# and are listed as skipped.  The 99 % named-frame floor is for traces the
# collector wrote; those of nettrace.bats and symbolizer.bats are made by
# hand or re-written from third-party traces (synthetic stacks, frames left
# unnamed on purpose): they must convert, and their ratio is printed.  A
# test marks other traces with trace_note (test_helper.bash), giving why.
check_traces() {
	local out=$1 f
	shift
	: >"$T/expect.jsonl"
	: >"$T/sim.jsonl"
	for f in "$@"; do
		"$EBPF_COLLECT" dump --json "$f" | tail -1 >>"$T/expect.jsonl"
		if [[ $(head -c 12 "$f" | tail -c 4 | od -An -tx1 | tr -d ' ') != 14000000 ]]; then
			echo '{"v6": true}' >>"$T/sim.jsonl"	# the simulation reads V4/V5
		elif ! python3 "$SIM" "$f" >>"$T/sim.jsonl"; then
			echo '{"sim_error": true}' >>"$T/sim.jsonl"
		fi
	done
	if [[ -f $TC_DIR/TraceCheck.dll ]] && command -v dotnet >/dev/null; then
		tracecheck --json --frames --min-named 0 "$@" >"$T/tc.jsonl" 2>"$T/tc.err"
	else
		: >"$T/tc.jsonl"
	fi
	python3 - "$T/expect.jsonl" "$T/sim.jsonl" "$T/tc.jsonl" "$@" >"$out" <<'EOF'
import json, sys
expect = [json.loads(l) for l in open(sys.argv[1])]
sims = [json.loads(l) for l in open(sys.argv[2])]
tcs = {j["file"]: j for j in map(json.loads, open(sys.argv[3]))}
HANDMADE = ("nettrace", "symbolizer")  # the reader/writer tests' traces
bad = 0
for f, e, s in zip(sys.argv[4:], expect, sims):
    why = []
    if not e.get("complete", True) or e.get("error"):
        print("skip %s: damaged on purpose (our reader: %s)" % (f, e.get("error")))
        continue
    try:
        note = open(f + ".note").read().split(None, 1)
    except OSError:
        note = ["", ""]
    ours = not any("/%s/" % d in f for d in HANDMADE) and not note[0]
    if note[0]:
        print("note %s: %s (%s)" % (f, note[0], note[1].strip()))
    if s.get("v6"):
        pass
    elif s.get("sim_error"):
        why.append("simulation could not parse it")
    else:
        if s["new"]["lost"] != e["lost"]:
            why.append("simulated TraceEvent lost %d, ours %d" % (s["new"]["lost"], e["lost"]))
        rules = {k: v for k, v in s["tracelog"].items()
                 if k not in ("methods", "modules", "first") and v}
        if rules:
            why.append("TraceLog rules broken %s (first: %s)" % (rules, s["tracelog"]["first"]))
    t = tcs.get(f)
    if t is not None:
        why += t["causes"]
        ratio = t.get("tracelog", {}).get("named_ratio", 1)
        if ours and ratio < 0.99:
            why.append("%.2f %% of frames named, below 99 %% (first unnamed: %s)" %
                       (100 * ratio, ", ".join(list(t["tracelog"]["top_unnamed"])[:3])))
        if "events" in t and t["events"] != e["events"] and note[0] != "placeholder":
            why.append("TraceEvent dispatched %d events, ours %d" % (t["events"], e["events"]))
        if "lost" in t and t["lost"] != e["lost"]:
            why.append("TraceEvent lost %d, ours %d" % (t["lost"], e["lost"]))
    tl = (t or {}).get("tracelog", {})
    line = "%s %s: events %d lost %d" % ("FAIL" if why else "ok", f, e["events"], e["lost"])
    if tl:
        line += " frames %d named %.2f %%" % (tl["frames"], 100 * tl["named_ratio"])
    print(line + ("" if not why else ": " + "; ".join(why)))
    bad += bool(why)
sys.exit(1 if bad else 0)
EOF
}

# tc_get FILE EXPR: a value of the checker's JSON line for FILE ($T/tc.jsonl)
tc_get() {
	python3 -c 'import json,sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    if j["file"] == sys.argv[2]:
        print(eval("j" + sys.argv[3]))' "$T/tc.jsonl" "$@"
}

# named_frame FILE NAME: how often NAME ("module!method") is a frame
named_frame() {
	tc_get "$1" "[\"tracelog\"][\"named_frames\"].get(\"$2\", 0)"
}

# kernel_frames FILE: how many frames TraceLog named as [kernel.kallsyms]!...
kernel_frames() {
	tc_get "$1" '["tracelog"]["named_frames"] and sum(v for k, v in j["tracelog"]["named_frames"].items() if k.startswith("[kernel.kallsyms]!"))'
}

@test "traceevent: the checker reports a file it cannot read, by name, exit 1" {
	require_tracecheck
	printf 'Nettrace\x14\0\0\0!FastSerialization.1' >"$T/cut.nettrace"
	run tracecheck "$T/cut.nettrace"
	[[ $status -eq 1 ]] || flunk "status $status: $output"
	[[ ${lines[-1]} == "tracecheck: $T/cut.nettrace: "* ]] || flunk "$output"
	run tracecheck --bogus
	[[ $status -eq 64 ]] || flunk "status $status: $output"
}

@test "traceevent: --time, the reader bench's TraceEvent side, counts each file's events as our reader does" {
	require_tracecheck
	local td=$SHARED/testdata/nettrace f i n secs files=()
	for f in perfview/only_managed_samples.nettrace \
		 perfview/eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace \
		 erlendthune-RememberCalendar/dotnet6.0.9-win-x64-loader-types.nettrace; do
		files+=("$td/$f")
	done
	printf '3 %s\n' "${files[@]}" | tracecheck --time >"$T/time.out" || flunk "TraceCheck --time failed"
	mapfile -t lines <"$T/time.out"
	assert_equal "${#lines[@]}" 3
	for i in 0 1 2; do
		read -r n secs <<<"${lines[$i]}"
		assert_equal "$n" "$("$EBPF_COLLECT" dump --json "${files[$i]}" | tail -1 |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')"
		awk -v s="$secs" 'BEGIN {exit !(s > 0)}' || flunk "${files[$i]}: seconds '$secs'"
	done
	assert_equal "${lines[0]%% *}" 37603
	# a request that is not "REPS FILE"; a file TraceEvent cannot read
	run tracecheck --time <<<"three ${files[0]}"
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains 'request "three '
	printf 'Nettrace\x14\0\0\0!FastSerialization.1' >"$T/cut.nettrace"
	run tracecheck --time <<<"1 $T/cut.nettrace"
	[[ $status -eq 1 ]] || flunk "status $status: $output"
	[[ ${lines[-1]} == "tracecheck: $T/cut.nettrace: EventPipeEventSource: "* ]] || flunk "$output"
}

@test "traceevent: bench_nettrace times TraceEvent beside our reader on the same files, 7 runs" {
	require_tracecheck
	[[ -x $OUTPUT/bench_nettrace ]] || flunk "bench_nettrace not built"
	# the bench fails when TraceEvent and our reader count different events
	run "$OUTPUT/bench_nettrace" -n 100000 -r 7
	assert_success
	assert_output_contains "nettrace writer and reader against baselines, 7 interleaved runs"
	assert_output_contains "TraceEvent 4.0.0 reads it through EventPipeEventSource"
	assert_output_contains "synthetic CPU-sampling stream: 100001 events"
	assert_output_contains "only_managed_samples.nettrace: 37603 events"
	assert_output_contains "objver4.nettrace: 105540 events"
	# the compactness of the writer is the same in every run
	assert_output_contains "writer bytes/event at most the runtime's file's: met (0.965x, 0.994x)"
	[[ $(grep -c '^  reader ours / TraceEvent, x faster  ' <<<"$output") == 3 ]] ||
		flunk "not one TraceEvent row per file: $output"
	grep -Eq '^  reader at least 2x as fast as TraceEvent: (met|MISSED) \(synthetic [0-9.]+x, only_managed_samples.nettrace [0-9.]+x, eventpipe-dotnetcore3.0-win-x64-objver4.nettrace [0-9.]+x\)$' <<<"$output" ||
		flunk "no TraceEvent verdict: $output"
	grep -Eq '^  writer within 20x of memcpy of its bytes: (met|MISSED) \([0-9.]+x\)$' <<<"$output" ||
		flunk "no memcpy verdict: $output"
}

@test "traceevent: demo and --profile cpu-sampling traces of refrt convert with TraceLog, frames named" {
	need_bpf
	require_tracecheck
	# scripts/demo.sh's trace, shorter
	DOTNET_PerfMapEnabled=3 run --separate-stderr "$EBPF_COLLECT" -o "$T/demo.nettrace" \
		--profile cpu-sampling -- "$REFRT" --scenario mixed --threads 2 --duration 3 --seed 1
	assert_success
	DOTNET_PerfMapEnabled=3 run --separate-stderr "$EBPF_COLLECT" -o "$T/cpu.nettrace" \
		--profile cpu-sampling -- "$REFRT" --scenario cpu --threads 2 --duration 3
	assert_success
	run check_traces "$T/report.txt" "$T/demo.nettrace" "$T/cpu.nettrace"
	cat "$T/report.txt" "$T/tc.err"
	assert_success
	local f n
	for f in demo cpu; do
		for n in 'refapp!RefApp.Workload.HotLoop(int32)' 'libc.so.6!.start_thread' \
			 'refrt!.worker_main'; do
			[[ $f == demo && $n == *HotLoop* ]] && continue
			(($(named_frame "$T/$f.nettrace" "$n") > 0)) ||
				flunk "$f: no frame $n"
		done
	done
	# Kernel frames, by count: which kernel functions a sample catches is
	# chance (the timer interrupt's own frames are in 0-7 samples of a 3 s
	# trace and in none about one time in three), that TraceLog names the
	# kernel frames there are is not.  Measured: demo 1,400-1,750 named
	# kernel frames, cpu 60-75.
	local kdemo kcpu
	kdemo=$(kernel_frames "$T/demo.nettrace")
	kcpu=$(kernel_frames "$T/cpu.nettrace")
	echo "named kernel frames: demo $kdemo, cpu $kcpu"
	((kdemo >= 100)) || flunk "demo: only $kdemo named kernel frames"
	((kcpu >= 10)) || flunk "cpu: only $kcpu named kernel frames"
	# the cpu scenario spends its time in HotLoop: most samples have it
	local hot samples
	hot=$(named_frame "$T/cpu.nettrace" 'refapp!RefApp.Workload.HotLoop(int32)')
	samples=$(tc_get "$T/cpu.nettrace" '["by_event"]["Microsoft-DotNETCore-SampleProfiler/Thread/Sample"]')
	echo "HotLoop in $hot frames, $samples samples"
	((hot * 100 >= samples * 90)) || flunk "HotLoop in $hot frames of $samples samples"
}

@test "traceevent: --cpu-sampling --kernel sched,syscalls,proc trace converts, frames named" {
	need_bpf
	require_tracecheck
	DOTNET_PerfMapEnabled=3 run --separate-stderr "$EBPF_COLLECT" -o "$T/k.nettrace" \
		--cpu-sampling --kernel sched,syscalls,proc -- "$REFRT" --scenario mixed \
		--threads 2 --duration 2 --seed 1
	assert_success
	run check_traces "$T/report.txt" "$T/k.nettrace"
	cat "$T/report.txt" "$T/tc.err"
	assert_success
	(($(named_frame "$T/k.nettrace" '[kernel.kallsyms]!.do_syscall_64') > 0)) ||
		flunk "no kernel syscall frame"
	# our views name every sample's kernel frames as TraceLog does
	tracecheck --min-named 0 --sample-stacks "$T/k.tl" "$T/k.nettrace" >/dev/null ||
		flunk "tracecheck --sample-stacks failed"
	"$EBPF_COLLECT" convert "$T/k.nettrace" --format folded --kind-suffix -o "$T/k.folded" ||
		flunk "convert failed"
	run python3 "$BATS_TEST_DIRNAME/sample_names.py" "$T/k.tl" "$T/k.folded"
	echo "$output"
	assert_success
	local cmp=${lines[0]} tl_unknown
	python3 -c 'import json, sys; j = json.loads(sys.argv[1])
assert j["samples_ours"] == j["samples_tracelog"] > 0, j
assert j["kernel_frames_ours"] == j["kernel_frames_tracelog"] > 0, j
assert j["kernel_unknown_ours"] == j["kernel_unknown_tracelog"], j' "$cmp" || flunk "$cmp"
	tl_unknown=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["kernel_unknown_tracelog"])' "$cmp")
	run "$EBPF_COLLECT" report "$T/k.nettrace"
	assert_success
	((tl_unknown > 0)) || ! grep -q '\[kernel.kallsyms\]!\[unknown\]' <<<"$output" ||
		flunk "report: an unnamed kernel frame TraceLog names"
}

@test "traceevent: every trace the suite wrote converts, lost == ours, >= 99 % of frames named" {
	local files=()
	mapfile -t files < <(find "$SUITE_TRACES" -name '*.nettrace' -type f 2>/dev/null | sort)
	((${#files[@]} > 0)) ||
		skip "no suite traces in $SUITE_TRACES (tests/run keeps them; run the other bats files first)"
	[[ -f $TC_DIR/TraceCheck.dll ]] ||
		echo "# TraceEvent checker unavailable ($(cat "$TC_DIR/unavailable" 2>/dev/null)): simulation only" >&3
	run check_traces "$T/report.txt" "${files[@]}"
	sed "s:$SUITE_TRACES/::" "$T/report.txt"
	echo "${#files[@]} traces"
	assert_success
}

@test "traceevent: a V6 trace of three processes: events per process, GCStart_V2 fields, the loss gaps" {
	require_tracecheck
	local sc=$OUTPUT/tests/nettrace_scenarios
	[[ -x $sc ]] || flunk "$sc not built"
	"$sc" v6 "$T/v6.nettrace" || flunk "v6 scenario"
	run tracecheck --json --min-named 0 --expect-lost 6 \
		--show Microsoft-Windows-DotNETRuntime/GC/Start "$T/v6.nettrace"
	assert_success
	python3 - "$output" <<'EOF' || flunk "$output"
import json, sys
j = json.loads(sys.argv[1])
assert j["ok"] and j["events"] == 29 and j["lost"] == 6, j
assert j["unhandled"] == 0 and j["bad_payloads"] == 0, j
assert j["by_process"] == {"1001": 9, "2002": 9, "3003": 10, "42": 1}, j["by_process"]
assert j["by_event"]["ebpf-collect/EventsLost"] == 1, j["by_event"]
assert j["by_event"]["Microsoft-Windows-DotNETRuntime/GC/Start"] == 9, j["by_event"]
assert j["by_event"]["Microsoft-DotNETCore-SampleProfiler/Thread/Sample"] == 18, j["by_event"]
guid = lambda b: "-".join(("%02x" % b) * n for n in (4, 2, 2, 2, 6))
shown = j["shown"]
assert {(e["pid"], e["tid"]) for e in shown} == {(p, t) for p in (1001, 2002, 3003) for t in (10, 11, 12)}
assert len(shown) == 9, shown
for e in shown:
    f, pid, tid = e["fields"], e["pid"], e["tid"]
    assert e["version"] == 2 and e["activity_id"] == guid(pid // 1000), e
    assert f["Count"] == str(pid) and f["Depth"] == str(tid % 3), e
    assert f["Reason"] == "Induced" and f["Type"] == "NonConcurrentGC", e
    assert f["ClrInstanceID"] == "9" and f["ClientSequenceNumber"] == str(pid * 100 + tid), e
t = j["tracelog"]
assert t["events"] == 29 and t["events_with_stack"] == 18 and t["frames"] == 54, t
EOF
}

@test "traceevent: every field kind decodes the same from V6 metadata as from V5" {
	require_tracecheck
	local sc=$OUTPUT/tests/nettrace_scenarios k
	[[ -x $sc ]] || flunk "$sc not built"
	for k in 5 6; do
		"$sc" kinds$k "$T/kinds$k.nettrace" || flunk "kinds$k scenario"
		tracecheck --json --no-tracelog --show Test-AllKinds/Everything \
			"$T/kinds$k.nettrace" >"$T/kinds$k.json" || flunk "$(cat "$T/kinds$k.json")"
	done
	python3 - "$T/kinds5.json" "$T/kinds6.json" <<'EOF' || flunk "$(cat "$T"/kinds?.json)"
import json, sys
v5, v6 = (json.load(open(f))["shown"] for f in sys.argv[1:])
assert len(v5) == 1 and len(v6) == 1, (v5, v6)
f = v6[0]["fields"]
assert f == v5[0]["fields"], (v5, v6)
assert (v5[0]["pid"], v6[0]["pid"]) == (42, 77), "V5: the trace's process; V6: the event's"
assert v6[0]["version"] == 3
assert f["Values"] == "[30, 31, 32]" and f["Name"] == "h\u00e9llo" and f["I64"] == "-5000000000", f
assert f["Pair"] == '{ "Code":"42", "Text":"pair" }', f
assert f["Pairs"] == '[{ "Code":"0", "Text":"a" }, { "Code":"1", "Text":"b" }]', f
EOF
}

@test "traceevent: a 60000-event V6 trace (late events, activity ids, sequence points) reads as ours" {
	require_tracecheck
	local sc=$OUTPUT/tests/nettrace_scenarios
	[[ -x $sc ]] || flunk "$sc not built"
	"$sc" v6mix "$T/v6mix.nettrace" >/dev/null || flunk "v6mix scenario"
	run tracecheck --json --min-named 0 --expect-lost 177 "$T/v6mix.nettrace"
	assert_success
	python3 - "$output" <<'EOF' || flunk "$output"
import json, sys
j = json.loads(sys.argv[1])
assert j["ok"] and j["events"] == 60000 and j["lost"] == 177, j
assert j["by_process"] == {"1001": 20000, "2002": 20000, "3003": 20000}, j["by_process"]
assert j["tracelog"]["events"] == 60000 and j["tracelog"]["events_with_stack"] == 60000, j
EOF
}
