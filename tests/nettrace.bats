#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `ebpf-collect dump` and the nettrace reader on the real runtime-written
# traces in ../shared/testdata/nettrace (see its README.md), cross-checked
# with an independent block walker (tests/nettrace_walk.py), plus the format
# guide's section 9 golden file.

load test_helper

TD=$SHARED/testdata/nettrace
WALK=$BATS_TEST_DIRNAME/nettrace_walk.py

# ebpf-collect once it is built; the stand-alone nettrace-dump (same code,
# symbolizer/build.mk) otherwise.
dump() {
	if [[ -x $EBPF_COLLECT ]]; then
		"$EBPF_COLLECT" dump "$@"
	else
		"$OUTPUT/nettrace-dump" "$@"
	fi
}

setup_file() {
	[[ -x $EBPF_COLLECT || -x $OUTPUT/nettrace-dump ]] ||
		flunk "neither $EBPF_COLLECT nor $OUTPUT/nettrace-dump is built"
	[[ -d $SHARED/testdata/nettrace ]] || skip "needs ../shared/testdata/nettrace"
}

# stats JSONL: numbers computed from dump --json output (one JSON object)
stats() {
	python3 - "$1" <<'EOF'
import json, sys
ev = ws = samples = nostack = 0
by, types, summary = {}, {}, None
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["type"] == "summary":
        summary = d
        continue
    assert summary is None, "event after the summary"
    ev += 1
    k = "%s/%d" % (d["provider"], d["id"])
    by[k] = by.get(k, 0) + 1
    ws += bool(d["stack"])
    if d["provider"] == "Microsoft-DotNETCore-SampleProfiler":
        samples += 1
        nostack += not d["stack"]
        t = str(d["fields"]["Type"])
        types[t] = types.get(t, 0) + 1
print(json.dumps(dict(events=ev, by_id=by, with_stack=ws, samples=samples,
                      samples_without_stack=nostack, sample_types=types,
                      summary=summary)))
EOF
}

# dump FILE as JSON into $BATS_TEST_TMPDIR/d.jsonl, stats into s.json
dump_json() {
	local rc=0
	dump "$1" --json >"$BATS_TEST_TMPDIR/d.jsonl" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
	stats "$BATS_TEST_TMPDIR/d.jsonl" >"$BATS_TEST_TMPDIR/s.json"
	return $rc
}

s() { json_get "$BATS_TEST_TMPDIR/s.json" "$1"; }

# dump's counts equal the independent walker's: events per provider/id, events
# with a stack, lost events, completeness
cross_check() {
	python3 "$WALK" "$1" >"$BATS_TEST_TMPDIR/w.json"
	python3 - "$BATS_TEST_TMPDIR/s.json" "$BATS_TEST_TMPDIR/w.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
w = json.load(open(sys.argv[2]))
assert s["events"] == w["events"], (s["events"], w["events"])
assert s["summary"]["events"] == w["events"]
assert s["by_id"] == w["by_event"], "per-event counts differ"
assert s["with_stack"] == w["with_stack"] == s["summary"]["with_stack"]
assert s["summary"]["lost"] == w["lost"]
assert s["summary"]["complete"] == w["complete"]
if not w["complete"]:
    assert s["summary"]["error_offset"] == w["truncated_at"]
EOF
}

@test "only_managed_samples: 37,603 events, 7,423 SampleProfiler samples all with stacks, 0 lost" {
	run dump_json "$TD/perfview/only_managed_samples.nettrace"
	assert_success
	assert_equal "$(s '["events"]')" 37603
	assert_equal "$(s '["summary"]["events"]')" 37603
	assert_equal "$(s '["samples"]')" 7423
	assert_equal "$(s '["by_id"]["Microsoft-DotNETCore-SampleProfiler/0"]')" 7423
	assert_equal "$(s '["samples_without_stack"]')" 0
	assert_equal "$(s '["sample_types"]')" '{"2": 7423}'
	assert_equal "$(s '["with_stack"]')" 7423
	assert_equal "$(s '["summary"]["lost"]')" 0
	assert_equal "$(s '["summary"]["complete"]')" True
	assert_equal "$(s '["summary"]["pid"]')" 60178
	# one GC suspend/restart quartet per sampling pass (docs/nettrace-format.md section 10)
	assert_equal "$(s '["by_id"]["Microsoft-Windows-DotNETRuntime/9"]')" 7423
	assert_equal "$(s '["by_id"]["Microsoft-Windows-DotNETRuntime/3"]')" 7423
	cross_check "$TD/perfview/only_managed_samples.nettrace"
}

@test "arraytypes: 1,970 events, array-typed EventSource fields decoded from V2Params metadata" {
	run dump_json "$TD/perfview/eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace"
	assert_success
	assert_equal "$(s '["events"]')" 1970
	assert_equal "$(s '["summary"]["lost"]')" 0
	cross_check "$TD/perfview/eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace"
	local f=$BATS_TEST_TMPDIR/d.jsonl
	run python3 - "$f" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("provider") == "TestEventSource0":
        print(d["event"], d["id"], json.dumps(d["fields"], ensure_ascii=True))
EOF
	assert_success
	assert_equal "${lines[0]}" 'TestEvent1 5 {"arg0": [2032854139, 1608221689, 1470019200, 199494339, 1238846140, 1366609043], "arg1": [26494, 17115, -7229, 18850, 27931], "arg2": 2033417279}'
	assert_equal "${lines[1]}" 'TestEvent2 6 {"arg0": -1001479330, "arg1": -1397908228, "arg2": [1470938110, 172564262, 1133558854, -1572049829], "arg3": [2055126903, 593325874, 2130052527, 162795177]}'
	assert_equal "${lines[2]}" 'TestEvent3 7 {"arg0": ["\ue7a3", "\u33af", "\u968d", "\u1cef", "\u8be4"]}'
	assert_equal "${#lines[@]}" 3
}

@test "executioncheckpoints (.NET 6): 3 events, sequence 1..3 on one thread" {
	run dump_json "$TD/perfview/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace"
	assert_success
	assert_equal "$(s '["events"]')" 3
	assert_equal "$(s '["by_id"]')" '{"Microsoft-Windows-DotNETRuntimeRundown/300": 3}'
	run python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["type"] == "event": print(d["seq"], d["tid"], d["capture_tid"], d["cpu"])' \
		"$BATS_TEST_TMPDIR/d.jsonl"
	assert_output "1 25112 25112 4294967295
2 25112 25112 4294967295
3 25112 25112 4294967295"
	cross_check "$TD/perfview/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace"
}

# The file is 4,174,144 bytes.  Its 270th EventBlock object starts at
# 4,170,673 and claims 5,488 bytes of content, of which only 3,440 are in the
# file (2,048 missing, as the testdata README says).  The reader delivers the
# 19,842 events of the 269 whole EventBlocks before it (the walker agrees) and
# then stops with that offset.
@test "truncated 3.0 preview: 19,842 events of the whole blocks, then the truncation offset" {
	local f=$TD/dotnet-diagnostics/dotnetcore3.0-preview-win-x64-truncated.nettrace
	run dump_json "$f"
	assert_equal "$status" 1
	assert_equal "$(s '["events"]')" 19842
	assert_equal "$(s '["summary"]["complete"]')" False
	assert_equal "$(s '["summary"]["error_offset"]')" 4170673
	assert_equal "$(s '["summary"]["error"]')" "offset 4170673: EventBlock claims 5488 bytes of content, the file has 3440 (file ends at 4174144)"
	assert_equal "$(s '["samples"]')" 7293
	assert_equal "$(s '["samples_without_stack"]')" 0
	assert_equal "$(s '["summary"]["lost"]')" 0
	assert_equal "$(cat "$BATS_TEST_TMPDIR/err")" "ebpf-collect dump: $f: offset 4170673: EventBlock claims 5488 bytes of content, the file has 3440 (file ends at 4174144)"
	cross_check "$f"
	python3 "$WALK" "$f" >"$BATS_TEST_TMPDIR/w.json"
	assert_equal "$(json_get "$BATS_TEST_TMPDIR/w.json" '["blocks"]["EventBlock"]')" 269
	# text mode: same events, the summary names the truncation
	run dump "$f"
	assert_equal "$status" 1
	assert_equal "$(grep -c ' pid=515392 tid=' <<<"$output")" 19842
	assert_output_contains "truncated/corrupt:  offset 4170673: EventBlock claims 5488 bytes"
}

@test "objver4 (3.0): 105,540 events, 35,161 samples, 53 MethodLoadVerbose, 18 sequence points" {
	local f=$TD/perfview/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace
	run dump_json "$f"
	assert_success
	assert_equal "$(s '["events"]')" 105540
	assert_equal "$(s '["samples"]')" 35161
	assert_equal "$(s '["samples_without_stack"]')" 0
	assert_equal "$(s '["by_id"]["Microsoft-Windows-DotNETRuntime/143"]')" 53
	assert_equal "$(s '["with_stack"]')" 73293
	assert_equal "$(s '["summary"]["lost"]')" 0
	assert_equal "$(s '["summary"]["freq"]')" 3124099
	cross_check "$f"
	assert_equal "$(json_get "$BATS_TEST_TMPDIR/w.json" '["blocks"]["SPBlock"]')" 18
}

@test "mixed_managed_external: 32,247 events, 6,331 samples (Managed and External)" {
	local f=$TD/perfview/mixed_managed_external_samples.nettrace
	run dump_json "$f"
	assert_success
	assert_equal "$(s '["events"]')" 32247
	assert_equal "$(s '["samples"]')" 6331
	assert_equal "$(s '["samples_without_stack"]')" 0
	assert_equal "$(s '["with_stack"]')" 6351
	run s '["sample_types"]'
	[[ $output =~ ^\{\"1\":\ ([0-9]+),\ \"2\":\ ([0-9]+)\}$ ]] ||
		[[ $output =~ ^\{\"2\":\ ([0-9]+),\ \"1\":\ ([0-9]+)\}$ ]] || flunk "types: $output"
	assert_equal $((BASH_REMATCH[1] + BASH_REMATCH[2])) 6331
	cross_check "$f"
}

@test "loader-types (.NET 6.0.9): 4,693 events, ProcessInfo v1 decoded" {
	local f=$TD/erlendthune-RememberCalendar/dotnet6.0.9-win-x64-loader-types.nettrace
	run dump_json "$f"
	assert_success
	assert_equal "$(s '["events"]')" 4693
	assert_equal "$(s '["with_stack"]')" 83
	assert_equal "$(s '["by_id"]["Microsoft-Windows-DotNETRuntime/15"]')" 86
	cross_check "$f"
	run python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d.get("event") == "ProcessInfo": print(sorted(d["fields"]), d["version"])' \
		"$BATS_TEST_TMPDIR/d.jsonl"
	assert_output "['ArchInformation', 'CommandLine', 'OSInformation'] 1"
}

@test "HeartRateMonitor (zipped, ARM32 Tizen): 114,565 events, 4-byte stack addresses" {
	require_cmd python3
	python3 -m zipfile -e "$TD/perfview/HeartRateMonitor.10068.nettrace.zip" "$BATS_TEST_TMPDIR/hr"
	local f=$BATS_TEST_TMPDIR/hr/HeartRateMonitor.10068.nettrace
	run dump_json "$f"
	assert_success
	assert_equal "$(s '["events"]')" 114565
	assert_equal "$(s '["summary"]["pointer_size"]')" 4
	assert_equal "$(s '["samples"]')" 921
	assert_equal "$(s '["with_stack"]')" 980
	assert_equal "$(s '["by_id"]["Microsoft-Windows-DotNETRuntimeRundown/144"]')" 106881
	cross_check "$f"
	run python3 -c 'import json,sys
m = 0
for l in open(sys.argv[1]):
    d = json.loads(l)
    for a in d.get("stack", []): m = max(m, int(a, 16))
print(m < 2**32, m > 0)' "$BATS_TEST_TMPDIR/d.jsonl"
	assert_output "True True"
}

@test "docs/nettrace-format.md section 9 golden file: exact dump output" {
	# the bytes, from the hex rows of docs/nettrace-format.md section 9
	python3 - "$SHARED/docs/nettrace-format.md" "$BATS_TEST_TMPDIR/golden.nettrace" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
sec = text[text.index("## 9. "):text.index("## 10. ")]
out = bytearray()
for m in re.finditer(r"^([0-9A-F]{4})  ((?:[0-9A-F]{2} ?){1,16})", sec, re.M):
    assert int(m.group(1), 16) == len(out)
    out += bytes.fromhex(m.group(2))
assert len(out) == 446, len(out)
open(sys.argv[2], "wb").write(out)
EOF
	run dump "$BATS_TEST_TMPDIR/golden.nettrace"
	assert_success
	assert_output "1000005000 Microsoft-DotNETCore-SampleProfiler/ThreadSample id=0 v=0 pid=4242 tid=101 stack=0x7f0012345678,0x7f0012340000 {\"Type\":2}
--- summary: $BATS_TEST_TMPDIR/golden.nettrace
events:             1
lost events:        0
events with stacks: 1
trace:              pid 4242, pointer size 8, 1000000000 ticks/s
complete:           yes
events per provider/event:
         1  Microsoft-DotNETCore-SampleProfiler/ThreadSample"
	run dump "$BATS_TEST_TMPDIR/golden.nettrace" --json
	assert_success
	assert_equal "${lines[0]}" '{"type":"event","provider":"Microsoft-DotNETCore-SampleProfiler","event":"ThreadSample","id":0,"version":0,"timestamp":1000005000,"pid":4242,"tid":101,"capture_tid":100,"seq":1,"cpu":0,"stack":["0x7f0012345678","0x7f0012340000"],"fields":{"Type":2}}'
	assert_equal "${lines[1]}" "{\"type\":\"summary\",\"file\":\"$BATS_TEST_TMPDIR/golden.nettrace\",\"events\":1,\"lost\":0,\"with_stack\":1,\"by_event\":{\"Microsoft-DotNETCore-SampleProfiler/ThreadSample\":1},\"by_process\":{\"4242\":1},\"complete\":true,\"error\":null,\"error_offset\":null,\"pid\":4242,\"pointer_size\":8,\"freq\":1000000000,\"sync_ts\":1000000000}"
	# cut off the end-of-stream byte: every event, then exit 1 with the offset
	head -c 445 "$BATS_TEST_TMPDIR/golden.nettrace" >"$BATS_TEST_TMPDIR/cut.nettrace"
	run --separate-stderr dump "$BATS_TEST_TMPDIR/cut.nettrace" --json
	assert_equal "$status" 1
	assert_equal "${#lines[@]}" 2
	assert_equal "$stderr" "ebpf-collect dump: $BATS_TEST_TMPDIR/cut.nettrace: offset 445: file ends without the end-of-stream marker"
}

@test "dump: usage errors exit 64, unreadable files exit 1, --help documents exit codes and JSON fields" {
	run dump
	assert_equal "$status" 64
	run dump a b
	assert_equal "$status" 64
	run dump --bogus x
	assert_equal "$status" 64
	run --separate-stderr dump "$BATS_TEST_TMPDIR/missing.nettrace"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect dump: $BATS_TEST_TMPDIR/missing.nettrace: No such file or directory"
	echo "not a trace" >"$BATS_TEST_TMPDIR/junk"
	run --separate-stderr dump "$BATS_TEST_TMPDIR/junk" --json
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect dump: $BATS_TEST_TMPDIR/junk: offset 0: not a NetTrace file (no \"Nettrace\" magic)"
	run dump --help
	assert_success
	assert_output_contains "Exit status: 0 the whole file was read; 1 it is truncated or corrupt"
	assert_output_contains '"error_offset"'
	assert_output_contains "64 usage error"
}

@test "manifest events: matched by provider + id + version, decoded through the event table" {
	run dump_json "$TD/perfview/only_managed_samples.nettrace"
	assert_success
	# docs/nettrace-format.md section 11's real example (rundown MethodDCEndVerbose, 144 v1)
	run python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    f = d.get("fields") or {}
    if d["type"] == "event" and f.get("MethodName") == "StelemRef":
        print(d["event"], d["version"], hex(f["MethodID"]), hex(f["MethodStartAddress"]),
              hex(f["MethodSize"]), hex(f["MethodToken"]), hex(f["MethodFlags"]),
              f["MethodNamespace"])' "$BATS_TEST_TMPDIR/d.jsonl"
	assert_output "MethodDCEndVerbose_V1 1 0x110fb2860 0x110f25180 0x53 0x600449d 0x208 System.Runtime.CompilerServices.CastHelpers"
	assert_equal "$(s '["summary"]["by_event"]["Microsoft-Windows-DotNETRuntime/GCSuspendEEBegin_V1"]')" 7423
	assert_equal "$(s '["summary"]["by_event"]["Microsoft-Windows-DotNETRuntimeRundown/MethodDCEndVerbose_V1"]')" 400
	assert_equal "$(s '["summary"]["by_event"]["Microsoft-Windows-DotNETRuntimeRundown/MethodDCEndVerbose_V2"]')" 8
}

# transcode FILE: re-write every event of FILE through our writer (metadata,
# threads, sequence numbers, timestamps, activity ids, payloads, stacks) with
# bench_nettrace -k, then require the same dump output and a clean walk by
# the independent walker.
transcode_same() {
	local f=$1 k=$BATS_TEST_TMPDIR/k
	rm -rf "$k" && mkdir -p "$k"
	"$OUTPUT/bench_nettrace" -n 1000 -r 1 -T -k "$k" "$f" >"$k/bench.txt"
	dump "$f" --json | grep -v '^{"type":"summary"' >"$k/a.jsonl"
	dump "$k/transcoded.nettrace" --json | grep -v '^{"type":"summary"' >"$k/b.jsonl"
	cmp "$k/a.jsonl" "$k/b.jsonl" || flunk "transcoded $f differs"
	python3 "$WALK" "$k/transcoded.nettrace" >"$k/w.json"
	python3 "$WALK" "$k/synthetic.nettrace" >"$k/ws.json"
	assert_equal "$(json_get "$k/w.json" '["complete"]')" True
	assert_equal "$(json_get "$k/ws.json" '["events"]')" 1001
}

@test "writer fidelity: real traces re-written by our writer dump identically" {
	[[ -x $OUTPUT/bench_nettrace ]] || flunk "bench_nettrace not built"
	local f
	for f in perfview/only_managed_samples.nettrace \
		 perfview/mixed_managed_external_samples.nettrace \
		 perfview/eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace \
		 perfview/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace \
		 perfview/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace \
		 erlendthune-RememberCalendar/dotnet6.0.9-win-x64-loader-types.nettrace; do
		transcode_same "$TD/$f"
	done
	python3 -m zipfile -e "$TD/perfview/HeartRateMonitor.10068.nettrace.zip" "$BATS_TEST_TMPDIR/hr"
	transcode_same "$BATS_TEST_TMPDIR/hr/HeartRateMonitor.10068.nettrace"
}

@test "V6 block format: real traces converted to V6 (tests/nettrace_to_v6.py) dump identically" {
	local f k=$BATS_TEST_TMPDIR/v6
	mkdir -p "$k"
	python3 -m zipfile -e "$TD/perfview/HeartRateMonitor.10068.nettrace.zip" "$BATS_TEST_TMPDIR/hr"
	for f in "$TD"/perfview/*.nettrace "$TD"/erlendthune-RememberCalendar/*.nettrace \
		 "$BATS_TEST_TMPDIR/hr/HeartRateMonitor.10068.nettrace"; do
		python3 "$BATS_TEST_DIRNAME/nettrace_to_v6.py" "$f" "$k/v6.nettrace"
		# the converter drops activity ids (V6 moves them into label lists)
		dump "$f" --json | grep -v '^{"type":"summary"' |
			sed -E 's/,"(related_)?activity_id":"[^"]*"//g' >"$k/a.jsonl"
		run dump "$k/v6.nettrace" --json
		assert_success
		grep -v '^{"type":"summary"' <<<"$output" >"$k/b.jsonl"
		cmp "$k/a.jsonl" "$k/b.jsonl" || flunk "V6 conversion of $f reads differently"
		assert_output_contains '"complete":true,"error":null'
	done
}

# ------------------------------------------------- TraceEvent's EventCache rules
# tests/traceevent_sim.py redoes the sequence-number bookkeeping of TraceEvent's
# EventCache (current and pre-2025): what it reports as lost is what PerfView
# and dotnet-trace would.

SIM=$BATS_TEST_DIRNAME/traceevent_sim.py

@test "TraceEvent simulation on the real traces: every event dispatched, 0 lost, in order" {
	local f want
	for f in perfview/only_managed_samples:37603 perfview/eventpipe-dotnetcore5.0-win-x64-arraytypes:1970 \
		perfview/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints:3 \
		perfview/eventpipe-dotnetcore3.0-win-x64-objver4:105540 \
		perfview/mixed_managed_external_samples:32247 \
		erlendthune-RememberCalendar/dotnet6.0.9-win-x64-loader-types:4693; do
		want=${f##*:}
		run python3 "$SIM" "$TD/${f%:*}.nettrace"
		assert_success
		python3 - "$output" "$want" <<'EOF' || flunk "$f: $output"
import json, sys
s = json.loads(sys.argv[1]); want = int(sys.argv[2])
for c in ("new", "old"):
    assert s[c]["dispatched"] == want and s[c]["lost"] == 0, c
assert s["unsorted_on_other_thread"] == 0 and s["stack_misses"] == 0
assert s["out_of_order_dispatch"] == 0
EOF
	done
}

@test "our writer keeps TraceEvent's rules: late events, losses before a first event, 18000 threads, full disk" {
	local sc=$OUTPUT/tests/nettrace_scenarios d=$BATS_TEST_TMPDIR
	[[ -x $sc ]] || flunk "$sc not built"
	check() {	# check SCENARIO EVENTS LOST [PY-CONDITION]
		run python3 "$SIM" "$d/$1.nettrace"
		assert_success
		python3 - "$output" "$2" "$3" "${4:-True}" <<'EOF' || flunk "$1: $output"
import json, sys
s = json.loads(sys.argv[1]); events, lost = int(sys.argv[2]), int(sys.argv[3])
for c in ("new", "old"):
    assert s[c]["dispatched"] == events, (c, s[c])
    assert s[c]["lost"] == lost and s[c]["negative_gaps"] == 0, (c, s[c])
assert s["unsorted_on_other_thread"] == 0 and s["stack_misses"] == 0
assert eval(sys.argv[4]), sys.argv[4]
EOF
		run dump --json "$d/$1.nettrace"
		assert_success
		[[ ${lines[${#lines[@]}-1]} == *"\"events\":$2,\"lost\":$3,"* ]] ||
			flunk "dump: ${lines[${#lines[@]}-1]}"
	}
	"$sc" late "$d/late.nettrace" || flunk "late"
	check late 16 0 's["unsorted"] == 3'
	"$sc" loss "$d/loss.nettrace" || flunk "loss"
	check loss 8 13
	"$sc" threads "$d/threads.nettrace" || flunk "threads"
	check threads 18000 0 's["max_sp_threads"] <= 4000'
	run "$sc" full "$d/full.nettrace"
	assert_success
	local events lost
	events=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["events"])' "$output")
	lost=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["lost"])' "$output")
	((events > 1000 && lost > 1000)) || flunk "full: $output"
	check full "$events" "$lost"
	# full before the first block: no thread keeps an event, and a reader
	# counts no gap before a thread's first event: the loss goes to thread 0
	run "$sc" fullstart "$d/fullstart.nettrace"
	assert_success
	events=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["events"])' "$output")
	lost=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["lost"])' "$output")
	((events == 1 && lost > 1000)) || flunk "fullstart: $output"
	check fullstart 1 "$lost"
}

@test "V6 writer: three processes with the same thread ids, each event's pid, GCStart_V2 decoded, the gaps" {
	local sc=$OUTPUT/tests/nettrace_scenarios d=$BATS_TEST_TMPDIR
	[[ -x $sc ]] || flunk "$sc not built"
	"$sc" v6 "$d/v6.nettrace" || flunk "v6 scenario"
	[[ $(head -c 16 "$d/v6.nettrace" | od -An -tx1 | tr -d ' \n') == 4e657474726163650000000006000000 ]] ||
		flunk "not a V6 header"
	dump "$d/v6.nettrace" --json >"$d/v6.jsonl" || flunk "dump failed"
	python3 - "$d/v6.jsonl" <<'EOF' || flunk "$(tail -1 "$d/v6.jsonl")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
summary, events = lines[-1], lines[:-1]
assert summary["complete"] and summary["events"] == 29 and summary["lost"] == 6, summary
assert summary["pid"] == 42, summary
by_pid = {}
for e in events:
    by_pid[e["pid"]] = by_pid.get(e["pid"], 0) + 1
assert by_pid == {1001: 9, 2002: 9, 3003: 10, 42: 1}, by_pid
assert len({(e["pid"], e["tid"]) for e in events if e["pid"] != 42}) == 10
lost = [e for e in events if e["event"] == "EventsLost"]
assert [(e["pid"], e["tid"], e["fields"]["Count"]) for e in lost] == [(3003, 50, 2)], lost
guid = lambda b: "-".join(("%02x" % b) * n for n in (4, 2, 2, 2, 6))
gc = [e for e in events if e["event"] == "GCStart_V2"]
assert len(gc) == 9, len(gc)
for e in gc:
    f = e["fields"]
    assert (f["Count"], f["Depth"], f["ClrInstanceID"]) == (e["pid"], e["tid"] % 3, 9), e
    assert f["ClientSequenceNumber"] == e["pid"] * 100 + e["tid"], e
    assert e["activity_id"] == guid(e["pid"] // 1000), e
seq = [e["seq"] for e in events if (e["pid"], e["capture_tid"]) == (2002, 11)]
assert seq == [1, 2, 7], seq
EOF
}

@test "V6 writer: 60000 events, late events, 177 lost, sequence points: our reader counts what the writer wrote" {
	local sc=$OUTPUT/tests/nettrace_scenarios d=$BATS_TEST_TMPDIR
	[[ -x $sc ]] || flunk "$sc not built"
	run "$sc" v6mix "$d/v6mix.nettrace"
	assert_success
	[[ $output == '{"events": 60000, "lost": 177}' ]] || flunk "$output"
	run dump --json "$d/v6mix.nettrace"
	assert_success
	[[ ${lines[${#lines[@]}-1]} == *'"events":60000,"lost":177,"with_stack":60000,'*'"complete":true,'* ]] ||
		flunk "dump: ${lines[${#lines[@]}-1]}"
}
