#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Always-on tracing: the flight recorder (a window of the last N seconds in
# memory, written on SIGUSR1, on a --dump-on trigger and at exit), --stop-on,
# --filter, and --rotate/--keep.  refrt's summary lists every GC and every
# exception with its CLOCK_MONOTONIC time, the clock of the trace, so a
# file's window is checked event by event against what refrt did in it.

load test_helper

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
	[[ -z ${SMALL_FS:-} ]] || umount "$SMALL_FS" 2>/dev/null || true
}


# window_check TRACE SUMMARY FROM TO [LAST_EVENT]: the trace is complete,
# (FROM "traced": from the file's first event, for a window that reaches
# back before the collector attached)
# 0 lost, its runtime events lie in [FROM, TO], and it holds exactly the
# GCs (GCStart_V2) and exceptions (ExceptionThrown_V1) refrt's summary
# places in that window (1 ms at each edge is left out: refrt reads the
# clock a few microseconds before it fires).  LAST_EVENT: the name of the
# last runtime event, which must be at TO.
window_check() {
	"$EBPF_COLLECT" dump --json "$1" >"$1.jsonl" || flunk "dump $1 failed"
	python3 - "$1.jsonl" "$2" "$3" "$4" "${5:-}" <<'PY'
import json, sys
path, summ, lo, hi, last_name = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
ev, summary = [], None
for l in open(path):
    o = json.loads(l)
    if o.get("type") == "summary":
        summary = o
    elif o.get("type") == "event" and o["provider"] != "ebpf-collect" and o["tid"] != 0x7fffffff:
        ev.append(o)
s = json.load(open(summ))
bad = []
if not summary or not summary.get("complete"):
    bad.append("not complete")
if summary and summary.get("lost"):
    bad.append("lost %d" % summary["lost"])
ts = [e["timestamp"] for e in ev]
lo = min(ts) if lo == "traced" and ts else int(lo) if lo != "traced" else 0
if not ts or min(ts) < lo or max(ts) > hi:
    bad.append("events outside the window: %s..%s vs %d..%d" % (ts and min(ts), ts and max(ts), lo, hi))
M = 1000000
gcs = sorted(e["timestamp"] for e in ev if e["event"] == "GCStart_V2")
want = [c["start_ns"] for c in s["gc"]["collections"]]
inner = [t for t in want if lo + M <= t <= hi - M]
outer = [t for t in want if lo - M <= t <= hi + M]
if not len(inner) <= len(gcs) <= len(outer):
    bad.append("GCs: %d in the file, refrt had %d..%d in the window" % (len(gcs), len(inner), len(outer)))
exc = [e for e in ev if e["event"] == "ExceptionThrown_V1"]
want = s["exceptions"]["thrown"]
if len(want) != s["exceptions"]["total"] or len(s["gc"]["collections"]) != s["gc"]["count"]:
    bad.append("refrt's lists are capped: run it slower")
inner = [x for x in want if lo + M <= x["ns"] <= hi - M]
outer = [x for x in want if lo - M <= x["ns"] <= hi + M]
if not len(inner) <= len(exc) <= len(outer):
    bad.append("exceptions: %d in the file, refrt had %d..%d in the window" % (len(exc), len(inner), len(outer)))
got_msgs = {e["fields"]["ExceptionMessage"] for e in exc}
missing = [x["message"] for x in inner if x["message"] not in got_msgs]
if missing:
    bad.append("%d exceptions of the window missing, e.g. %s" % (len(missing), missing[0]))
if last_name and (ev[-1]["event"] != last_name or ev[-1]["timestamp"] != hi):
    bad.append("last event %s at %d, not %s at %d" % (ev[-1]["event"], ev[-1]["timestamp"], last_name, hi))
print("MISMATCH " + "; ".join(bad) if bad else "OK %d events, %d GCs, %d exceptions" % (len(ev), len(gcs), len(exc)))
sys.exit(1 if bad else 0)
PY
}

# counts_check TRACE... -- SUMMARY: the traces together hold exactly the
# events refrt fired, each complete with 0 lost.
counts_check() {
	local files=()
	while [[ $1 != -- ]]; do files+=("$1"); shift; done
	for f in "${files[@]}"; do
		"$EBPF_COLLECT" dump --json "$f" >"$f.jsonl" || flunk "dump $f failed"
	done
	python3 - "$2" "${files[@]/%/.jsonl}" <<'PY'
import json, sys
fired = {k: v for k, v in json.load(open(sys.argv[1]))["events"].items() if v}
got, bad = {}, []
for p in sys.argv[2:]:
    summary = None
    for l in open(p):
        o = json.loads(l)
        if o.get("type") == "summary":
            summary = o
        elif o.get("type") == "event" and o["provider"] != "ebpf-collect" and o["tid"] != 0x7fffffff:
            got[o["event"]] = got.get(o["event"], 0) + 1
    if not summary or not summary.get("complete") or summary.get("lost"):
        bad.append("%s: %r" % (p, summary))
differ = {k: (got.get(k, 0), fired.get(k, 0)) for k in set(got) | set(fired) if got.get(k, 0) != fired.get(k, 0)}
if differ:
    bad.append("counts (files, refrt): %r" % differ)
print("MISMATCH " + "; ".join(bad) if bad else "OK %d events in %d files" % (sum(got.values()), len(sys.argv) - 2))
sys.exit(1 if bad else 0)
PY
}

# samples_in TRACE: its CPU samples (SampleProfiler ThreadSample events)
samples_in() {
	"$EBPF_COLLECT" dump --json "$1" | tail -1 | python3 -c 'import json, sys
print(json.load(sys.stdin)["by_event"].get("Microsoft-DotNETCore-SampleProfiler/ThreadSample", 0))'
}

# stacks_in TRACE: the trace reads and holds runtime events (with stacks)
stacks_in() {
	"$EBPF_COLLECT" dump --json "$1" 2>/dev/null | tail -1 | grep -q '"with_stack":[1-9]'
}

# the "up to TS" of the N-th "flight recorder (...): wrote" line of FILE
dump_end() {
	grep "flight recorder (.*): wrote" "$1" | sed -n "${2}p" | sed 's/.* up to \([0-9]*\);.*/\1/'
}

@test "flight recorder: the exit dump of a run shorter than the window holds exactly what refrt fired" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario mixed --iterations 300 --rate 500 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	run timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" --flight-recorder 60s -o "$T/fr.nettrace" \
		--providers DotNETRuntime,DotNETRuntimeRundown
	assert_success
	assert_output_contains "flight recorder (exit): wrote $T/fr.1.nettrace"
	[[ ! -e $T/fr.nettrace && ! -e $T/fr.2.nettrace ]] || flunk "unexpected files: $(ls "$T")"
	run counts_check "$T/fr.1.nettrace" -- "$T/s.json"
	assert_success
}

@test "flight recorder: SIGUSR1 writes exactly the last N seconds, 0 lost, and recording goes on" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 30 --rate 250 --threads 2 \
		--summary "$T/s.json"
	local rt=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" -p "$rt" --flight-recorder 2s -o "$T/fr.nettrace"
	local col=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/c.out.err" || flunk "$(cat "$T/c.out.err")"
	sleep 3.5
	kill -USR1 "$col"
	wait_for_grep "(SIGUSR1): wrote $T/fr.dump-1.nettrace" "$T/c.out.err" ||
		flunk "no dump: $(cat "$T/c.out.err")"
	sleep 1.5
	kill -USR1 "$col"
	wait_for_grep "(SIGUSR1): wrote $T/fr.dump-2.nettrace" "$T/c.out.err" ||
		flunk "no 2nd dump: $(cat "$T/c.out.err")"
	kill -INT "$col"
	wait "$col" || flunk "collector failed: $(cat "$T/c.out.err")"
	kill -INT "$rt"
	wait "$rt" || flunk "refrt failed"
	local end1 end2
	end1=$(dump_end "$T/c.out.err" 1)
	end2=$(dump_end "$T/c.out.err" 2)
	((end2 - end1 > 1000000000)) || flunk "second window ends only $(((end2 - end1) / 1000000)) ms later"
	run window_check "$T/fr.dump-1.nettrace" "$T/s.json" $((end1 - 2000000000)) "$end1"
	echo "$output"
	assert_success
	run window_check "$T/fr.dump-2.nettrace" "$T/s.json" $((end2 - 2000000000)) "$end2"
	echo "$output"
	assert_success
	[[ -s $T/fr.1.nettrace && ! -e $T/fr.2.nettrace ]] || flunk "not one exit dump: $(ls "$T")"
}

@test "flight recorder: --dump-on a field predicate writes the window ending at the matching event" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario exceptions --duration 30 --rate 200 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" -p "$rt" --flight-recorder 1s -o "$T/fr.nettrace" \
		--dump-on 'ExceptionThrown_V1:ExceptionType==System.InvalidOperationException'
	local col=$LAST_PID
	wait_for_grep "ExceptionType==System.InvalidOperationException): wrote" "$T/c.out.err" ||
		flunk "no dump: $(cat "$T/c.out.err")"
	kill -INT "$col"
	wait "$col" || flunk "collector failed: $(cat "$T/c.out.err")"
	kill -INT "$rt"
	wait "$rt" || flunk "refrt failed"
	local end
	end=$(dump_end "$T/c.out.err" 1)
	# the first match comes right after the attach: the window reaches back
	# before the trace began, so it is checked from the first event traced
	run window_check "$T/fr.dump-1.nettrace" "$T/s.json" traced "$end" ExceptionThrown_V1
	echo "$output"
	assert_success
	run python3 -c "
import json
ev = [json.loads(l) for l in open('$T/fr.dump-1.nettrace.jsonl')]
ex = [e for e in ev if e.get('event') == 'ExceptionThrown_V1']
print(ex[-1]['fields']['ExceptionType'])"
	assert_output "System.InvalidOperationException"
}

@test "flight recorder: --dump-on GCPause fires on a suspend-to-restart pause over the bound" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario alloc --duration 30 --rate 500 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" -p "$rt" --flight-recorder 1s -o "$T/fr.nettrace" \
		--dump-on 'GCPause>=100us'
	local col=$LAST_PID
	wait_for_grep "(GCPause>=100us): wrote" "$T/c.out.err" 20 || flunk "no dump: $(cat "$T/c.out.err")"
	kill -INT "$col"
	wait "$col" || flunk "collector failed: $(cat "$T/c.out.err")"
	kill -INT "$rt"
	wait "$rt"
	"$EBPF_COLLECT" dump --json "$T/fr.dump-1.nettrace" >"$T/d.jsonl"
	run python3 -c "
import json
ev = [json.loads(l) for l in open('$T/d.jsonl')]
ev = [e for e in ev if e.get('type') == 'event' and e['provider'] != 'ebpf-collect' and e['tid'] != 0x7fffffff]
last = ev[-1]
sus = [e for e in ev if e['event'] == 'GCSuspendEEBegin_V1' and e['pid'] == last['pid']]
print(last['event'], (last['timestamp'] - sus[-1]['timestamp']) >= 100000)"
	assert_output "GCRestartEEEnd_V1 True"
}

@test "--stop-on ends the trace at the first matching event" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 30 --rate 500 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID
	run timeout 60 "$EBPF_COLLECT" -p "$rt" -o "$T/s.nettrace" --stop-on 'GCEnd_V1:Depth>=2' \
		--providers DotNETRuntime,DotNETRuntimeRundown
	kill -INT "$rt"
	wait "$rt"
	assert_success
	assert_output_contains "--stop-on GCEnd_V1:Depth>=2: pid $rt"
	"$EBPF_COLLECT" dump --json "$T/s.nettrace" >"$T/d.jsonl"
	run python3 -c "
import json
ev = [json.loads(l) for l in open('$T/d.jsonl')]
# the runtime's end-of-trace rundown follows the stop: it names the frames
ev = [e for e in ev if e.get('type') == 'event' and e['provider'] not in ('ebpf-collect', 'Microsoft-Windows-DotNETRuntimeRundown') and e['tid'] != 0x7fffffff]
ends = [e['fields']['Depth'] for e in ev if e['event'] == 'GCEnd_V1']
print(ev[-1]['event'], ev[-1]['fields'].get('Depth'), ends.count(2))"
	assert_output "GCEnd_V1 2 1"
}

@test "--filter drops non-matching events in the kernel; the others are untouched" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario mixed --iterations 300 --rate 500 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	run timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/f.nettrace" --filter 'GCEnd_V1:Depth>=1' \
		--filter 'ExceptionThrown_V1:ExceptionType==System.FormatException'
	assert_success
	assert_output_contains "--filter GCEnd_V1:Depth>=1: in the kernel (offset 4)"
	assert_output_contains "--filter ExceptionThrown_V1:ExceptionType==System.FormatException: in the kernel (offset 0)"
	local dropped
	dropped=$(sed -n 's/.*--filter: \([0-9]*\) events dropped in the kernel, 0 in user space/\1/p' <<<"$output")
	"$EBPF_COLLECT" dump --json "$T/f.nettrace" >"$T/d.jsonl"
	run python3 -c "
import json
s = json.load(open('$T/s.json'))
ev = [json.loads(l) for l in open('$T/d.jsonl')]
ends = [e['fields']['Depth'] for e in ev if e.get('event') == 'GCEnd_V1']
starts = [e for e in ev if e.get('event') == 'GCStart_V2']
exc = [e['fields']['ExceptionType'] for e in ev if e.get('event') == 'ExceptionThrown_V1']
by = s['exceptions']['by_type']
print(len(ends) == s['gc']['gen1'] + s['gc']['gen2'] and min(ends) >= 1,
      len(starts) == s['gc']['count'], s['gc']['gen0'] > 0,
      exc == ['System.FormatException'] * by['System.FormatException'],
      '$dropped' == str(s['gc']['gen0'] + s['exceptions']['total'] - by['System.FormatException']))"
	assert_output "True True True True True"
}

@test "--rotate: every file complete, together exactly what refrt fired; --keep N leaves N" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 3 --rate 1000 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	run timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/r.nettrace" --rotate 500ms \
		--providers DotNETRuntime,DotNETRuntimeRundown
	assert_success
	local files=("$T"/r.*.nettrace)
	((${#files[@]} >= 5)) || flunk "only ${#files[@]} files"
	run counts_check "${files[@]}" -- "$T/s.json"
	echo "$output"
	assert_success

	bg "$T/rt2.out" "$REFRT" --scenario mixed --duration 3 --rate 1000 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s2.json"
	run timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/k.nettrace" --rotate 300ms --keep 2
	assert_success
	files=("$T"/k.*.nettrace)
	assert_equal "${#files[@]}" 2
	local n
	n=$(grep -c -- "--rotate: .* complete" <<<"$output")
	[[ -e $T/k.$((n + 1)).nettrace && -e $T/k.$n.nettrace ]] || flunk "not the newest: ${files[*]}"
	for f in "${files[@]}"; do
		"$EBPF_COLLECT" dump "$f" >/dev/null || flunk "$f does not read to its end"
	done
}

@test "flight recorder with --rotate: consecutive files hold every event once, and a trigger dump on top" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 4 --rate 300 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	run timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" --flight-recorder 2s --rotate 1s \
		-o "$T/fr.nettrace" --providers DotNETRuntime,DotNETRuntimeRundown \
		--dump-on 'GCEnd_V1:Depth>=2'
	assert_success
	# the rotated series is written as plain --rotate writes it, the
	# incident dumps beside it
	local rot=() trig=() line f n
	n=$(grep -c -- "--rotate: .* complete" <<<"$output")
	for ((f = 1; f <= n + 1; f++)); do rot+=("$T/fr.$f.nettrace"); done
	[[ ! -e $T/fr.$((n + 2)).nettrace ]] || flunk "more files than rotations: $(ls "$T")"
	while IFS= read -r line; do
		trig+=("$(sed 's/.*: wrote \([^:]*\): .*/\1/' <<<"$line")")
	done < <(grep "flight recorder (.*): wrote" <<<"$output")
	((${#rot[@]} >= 4)) || flunk "only ${#rot[@]} rotated files: $output"
	((${#trig[@]} >= 1)) || flunk "no trigger dump: $output"
	[[ ${trig[0]} == "$T/fr.dump-1.nettrace" ]] || flunk "trigger dump named ${trig[0]}"
	grep -q "flight recorder: [0-9]* records seen, ${#trig[@]} dumps (0 failed)" <<<"$output" ||
		flunk "the dumps not counted: $output"
	run counts_check "${rot[@]}" -- "$T/s.json"
	echo "$output"
	assert_success
	"$EBPF_COLLECT" dump "${trig[0]}" >/dev/null || flunk "${trig[0]} does not read to its end"
	# a rotated file spans its second, not the flight-recorder window
	run python3 - "${rot[1]}.jsonl" <<'PY'
import json, sys
ts = [o["timestamp"] for o in map(json.loads, open(sys.argv[1]))
      if o.get("type") == "event" and o["provider"] != "ebpf-collect"]
span = (max(ts) - min(ts)) / 1e9
print("second file: %d events over %.3f s" % (len(ts), span))
sys.exit(0 if ts and span < 1.5 else 1)
PY
	echo "$output"
	assert_success
}

@test "flight recorder with --rotate: SIGUSR1 dumps in the middle of a rotated file leave it complete and exact" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 6 --rate 300 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID
	# one rotated file for the whole run: every dump lands in its middle
	bg "$T/c.out" "$EBPF_COLLECT" -p "$rt" --flight-recorder 1s --rotate 10m \
		-o "$T/fr.nettrace" --providers DotNETRuntime,DotNETRuntimeRundown
	local col=$LAST_PID err=$T/c.out.err i end
	wait_for_grep "tracing .* probes" "$err" || flunk "$(cat "$err")"
	# the rotated file is written as records come: the window has some too
	wait_until 20 stacks_in "$T/fr.1.nettrace" || flunk "no events written: $(cat "$err")"
	for i in 1 2; do
		kill -USR1 "$col"
		wait_for_grep "(SIGUSR1): wrote $T/fr.dump-$i.nettrace" "$err" ||
			flunk "no dump $i: $(cat "$err")"
	done
	wait "$rt" || flunk "refrt failed: $(cat "$T/rt.out")"
	wait "$col" || flunk "collector failed: $(cat "$err")"
	grep -q "flight recorder: [0-9]* records seen, 2 dumps (0 failed)" "$err" ||
		flunk "the dumps not counted: $(cat "$err")"
	[[ -e $T/fr.1.nettrace && ! -e $T/fr.2.nettrace ]] || flunk "not one rotated file: $(ls "$T")"
	run counts_check "$T/fr.1.nettrace" -- "$T/s.json"
	echo "$output"
	assert_success
	for i in 1 2; do
		end=$(dump_end "$err" $i)
		run window_check "$T/fr.dump-$i.nettrace" "$T/s.json" $((end - 1000000000)) "$end"
		echo "$output"
		assert_success
	done
}

@test "flight recorder: SIGUSR1 dumps are FILE.dump-N, outlive --rotate 1s --keep 2, and --keep-dumps bounds them" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 60 --rate 250 --threads 2 \
		--wait-for-tracer 10
	local rt=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" -p "$rt" --flight-recorder 2s --rotate 1s --keep 2 \
		--keep-dumps 2 -o "$T/fr.nettrace"
	local col=$LAST_PID err=$T/c.out.err
	wait_for_grep "tracing .* probes" "$err" || flunk "$(cat "$err")"
	kill -USR1 "$col"
	wait_for_grep "(SIGUSR1): wrote $T/fr.dump-1.nettrace" "$err" || flunk "no dump: $(cat "$err")"
	# rotation prunes its own files, several times, and leaves the dump
	wait_for_lines "--rotate: .* complete" "$err" 5 30 || flunk "no 5 rotations: $(cat "$err")"
	# --keep 2: the two newest complete files and the one being written
	local files=("$T"/fr.[0-9]*.nettrace)
	assert_equal "${#files[@]}" 3
	[[ -s $T/fr.dump-1.nettrace ]] || flunk "the dump was pruned: $(ls "$T")"
	# --keep-dumps 2: the third dump prunes the first, and only dumps
	kill -USR1 "$col"
	wait_for_grep "(SIGUSR1): wrote $T/fr.dump-2.nettrace" "$err" || flunk "no 2nd dump: $(cat "$err")"
	kill -USR1 "$col"
	wait_for_grep "(SIGUSR1): wrote $T/fr.dump-3.nettrace" "$err" || flunk "no 3rd dump: $(cat "$err")"
	kill -INT "$col"
	wait "$col" || flunk "collector failed: $(cat "$err")"
	kill -INT "$rt"
	wait "$rt" || true
	[[ ! -e $T/fr.dump-1.nettrace && -s $T/fr.dump-2.nettrace && -s $T/fr.dump-3.nettrace ]] ||
		flunk "dumps left: $(ls "$T")"
	files=("$T"/fr.[0-9]*.nettrace)
	assert_equal "${#files[@]}" 2
	for f in "$T"/fr.*.nettrace; do
		"$EBPF_COLLECT" dump "$f" >/dev/null || flunk "$f does not read to its end"
	done
}

@test "flight recorder: the summary counts each CPU sample once, however many dumps hold it" {
	require_root
	bg "$T/rt.out" "$REFRT" --scenario cpu --duration 4 --threads 2 --wait-for-tracer 10
	local rt=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" -p "$rt" --flight-recorder 60s --cpu-sampling \
		-o "$T/fr.nettrace"
	local col=$LAST_PID err=$T/c.out.err
	wait_for_grep "tracing .* probes" "$err" || flunk "$(cat "$err")"
	# SIGUSR1 dumps until one holds samples (the first may come before any)
	local i samples=0
	for ((i = 1; i <= 20 && samples == 0; i++)); do
		kill -USR1 "$col"
		wait_for_grep "(SIGUSR1): wrote $T/fr.dump-$i.nettrace" "$err" ||
			flunk "no dump $i: $(cat "$err")"
		samples=$(samples_in "$T/fr.dump-$i.nettrace")
	done
	((samples > 0)) || flunk "no dump holds a sample: $(cat "$err")"
	wait "$col" || flunk "collector failed: $(cat "$err")"
	wait "$rt" || flunk "refrt failed"
	# the exit dump's window (60 s) holds the whole run, the SIGUSR1 dumps its start
	local printed exit_n
	printed=$(sed -n 's/^kernel-events: \([0-9]*\) CPU samples .*/\1/p' "$err")
	exit_n=$(samples_in "$T/fr.1.nettrace")
	echo "summary $printed, exit dump $exit_n, SIGUSR1 dump $((i - 1)) $samples"
	assert_equal "$printed" "$exit_n"
	((samples < exit_n)) || flunk "the SIGUSR1 dump holds as many as the exit dump"
}

@test "flight recorder: a dump the full disk cannot hold leaves no file, and the run exits 1" {
	require_root
	SMALL_FS=$T/small
	mkdir "$SMALL_FS"
	mount -t tmpfs -o size=256k tmpfs "$SMALL_FS" || flunk "cannot mount a tmpfs"
	bg "$T/rt.out" "$REFRT" --scenario mixed --iterations 3000 --rate 2000 --threads 2 \
		--wait-for-tracer 10
	run --separate-stderr timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" --flight-recorder 60s \
		-o "$SMALL_FS/fr.nettrace"
	echo "$stderr"
	assert_equal "$status" 1
	grep -qx "ebpf-collect: flight recorder: cannot write $SMALL_FS/fr.1.nettrace: No space left on device; no dump, the file removed" <<<"$stderr" ||
		flunk "no line saying so"
	grep -q "^ebpf-collect: [0-9]* events (.*) into flight-recorder dumps: 0 written, 1 failed (exit status 1)$" <<<"$stderr" ||
		flunk "no summary saying so"
	assert_equal "$(ls -A "$SMALL_FS")" ""
}

@test "--rotate 1s on a full disk: TraceEvent counts the loss of the cut file as ours does" {
	require_root
	require_tracecheck
	SMALL_FS=$T/small
	mkdir "$SMALL_FS"
	mount -t tmpfs -o size=640k tmpfs "$SMALL_FS" || flunk "cannot mount a tmpfs"
	local re="^ebpf-collect: ($SMALL_FS/r\.[0-9]+\.nettrace): No space left on device: kept the first ([0-9]+) bytes, ([0-9]+) events, as a complete trace; ([0-9]+) events did not fit and are counted lost in it$"
	local try
	# the disk may fill just as a rotation starts the next file, which then
	# cannot be made (the run counts what it cannot write, and no file is
	# cut; the tests below cover that): this test is of a file cut
	# mid-write, so that case runs again (at most 3 times)
	for try in 1 2 3; do
		rm -f "$SMALL_FS"/*
		bg "$T/rt.out" "$REFRT" --scenario mixed --duration 6 --rate 2000 --threads 2 \
			--wait-for-tracer 10
		run --separate-stderr timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" \
			-o "$SMALL_FS/r.nettrace" --rotate 1s
		echo "$stderr"
		assert_equal "$status" 1
		grep -Eq "$re" <<<"$stderr" && break
		[[ $stderr == *"--rotate: cannot start "*": No space left on device"* ]] ||
			flunk "the full disk cut no file, and no rotation failed"
	done
	local line n=0 f events lost
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		f=${BASH_REMATCH[1]} events=${BASH_REMATCH[3]} lost=${BASH_REMATCH[4]}
		n=$((n + 1))
		((lost > 0)) || flunk "$f: nothing lost"
		run "$EBPF_COLLECT" dump --json "$f"
		assert_success
		python3 - "${lines[${#lines[@]}-1]}" "$events" "$lost" <<'PY' || flunk "$f: ours ${lines[${#lines[@]}-1]}"
import json, sys
s = json.loads(sys.argv[1])
sys.exit(0 if s["complete"] and [s["events"], s["lost"]] == [int(sys.argv[2]), int(sys.argv[3])] else 1)
PY
		run tracecheck --json --min-named 0 "$f"
		python3 - "$output" "$events" "$lost" <<'PY' || flunk "$f: TraceEvent $output"
import json, sys
j = json.loads(sys.argv[1].splitlines()[0])
sys.exit(0 if [j["events"], j["lost"]] == [int(sys.argv[2]), int(sys.argv[3])] else 1)
PY
		echo "$f: $events events, $lost lost: TraceEvent agrees"
	done <<<"$stderr"
	((n > 0)) || flunk "no file was cut"
}

@test "--rotate with no room for the next file: what cannot be written is counted, and the file that can start next says how many were lost" {
	require_root
	require_tracecheck
	SMALL_FS=$T/small
	mkdir "$SMALL_FS"
	# 40 inodes: the root, 38 fillers and r.1; r.2 cannot be made until
	# the fillers go, and then every later file can
	mount -t tmpfs -o size=64m,nr_inodes=40 tmpfs "$SMALL_FS" || flunk "cannot mount a tmpfs"
	local i
	for ((i = 0; i < 38; i++)); do : >"$SMALL_FS/filler.$i"; done
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 4 --rate 1000 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" -p "$rt" -o "$SMALL_FS/r.nettrace" --rotate 500ms \
		--providers DotNETRuntime,DotNETRuntimeRundown
	local c=$LAST_PID
	wait_for_lines "^ebpf-collect: --rotate: cannot start $SMALL_FS/r.2.nettrace: No space left on device; counting events, not writing them, until a file can be started$" \
		"$T/c.out.err" 1 30 || flunk "no line saying r.2 cannot start: $(cat "$T/c.out.err")"
	rm "$SMALL_FS"/filler.*
	wait_for_lines "^ebpf-collect: --rotate: now $SMALL_FS/r.2.nettrace; [0-9]* records after $SMALL_FS/r.1.nettrace were not written$" \
		"$T/c.out.err" 1 30 || flunk "r.2 never started: $(cat "$T/c.out.err")"
	wait "$c" || flunk "the collector failed: $(cat "$T/c.out.err")"
	cat "$T/c.out.err"
	local lost
	lost=$(sed -n 's/.*; \([0-9]*\) records after .* were not written$/\1/p' "$T/c.out.err")
	((lost > 0)) || flunk "nothing counted"
	# r.2 holds the loss: ours and TraceEvent say the same count, and
	# the files' events and that loss are what refrt fired
	run tracecheck --json --min-named 0 "$SMALL_FS/r.2.nettrace"
	python3 - "$output" "$lost" <<'PY' || flunk "TraceEvent: $output"
import json, sys
j = json.loads(sys.argv[1].splitlines()[0])
sys.exit(0 if j["lost"] == int(sys.argv[2]) else 1)
PY
	local f js=()
	for f in "$SMALL_FS"/r.*.nettrace; do
		js+=("$T/${f##*/}.jsonl")
		"$EBPF_COLLECT" dump --json "$f" >"${js[-1]}" || flunk "dump $f failed"
	done
	python3 - "$T/s.json" "$lost" "${js[@]}" <<'PY' || flunk "counts differ"
import json, sys
fired = sum(json.load(open(sys.argv[1]))["events"].values())
got = lost_in = 0
for p in sys.argv[3:]:
    for l in open(p):
        o = json.loads(l)
        if o.get("type") == "summary":
            lost_in += o["lost"]
            assert o["complete"], p
        elif o.get("type") == "event" and o["provider"] != "ebpf-collect" and o["tid"] != 0x7fffffff:
            got += 1
print("fired %d, in files %d, lost %d (counted %s)" % (fired, got, lost_in, sys.argv[2]))
sys.exit(0 if lost_in == int(sys.argv[2]) and got + lost_in == fired else 1)
PY
}

@test "--rotate with no room for the next file until the end: one line says how many records were not written, and the run exits 1" {
	require_root
	SMALL_FS=$T/small
	mkdir "$SMALL_FS"
	mount -t tmpfs -o size=64m,nr_inodes=3 tmpfs "$SMALL_FS" || flunk "cannot mount a tmpfs"
	: >"$SMALL_FS/filler"
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 2 --rate 1000 --threads 2 \
		--wait-for-tracer 10
	run --separate-stderr timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" -o "$SMALL_FS/r.nettrace" \
		--rotate 500ms --providers DotNETRuntime,DotNETRuntimeRundown
	echo "$stderr"
	assert_equal "$status" 1
	grep -qx "ebpf-collect: [0-9]* records after $SMALL_FS/r.1.nettrace were not written: $SMALL_FS/r.2.nettrace could not be started: No space left on device" <<<"$stderr" ||
		flunk "no line saying so"
	[[ $stderr != *"cannot finish"* ]] || flunk "a second line about a file that never was"
	"$EBPF_COLLECT" dump "$SMALL_FS/r.1.nettrace" >/dev/null || flunk "r.1 is not complete"
	assert_equal "$(ls -A "$SMALL_FS")" "filler
r.1.nettrace"
}

@test "usage: flight recorder, trigger and rotation mistakes exit 64 with one line" {
	run "$EBPF_COLLECT" -p 1 --rotate 1GB --flight-recorder 30s
	assert_equal "$status" 64
	assert_output_contains "--rotate takes a time there (10m), not a size"
	run "$EBPF_COLLECT" -p 1 --rotate 10parsecs
	assert_equal "$status" 64
	assert_output_contains "invalid --rotate '10parsecs'"
	run "$EBPF_COLLECT" -p 1 --flight-recorder 30s --keep-dumps 0
	assert_equal "$status" 64
	assert_output_contains "invalid --keep-dumps '0' (a number of files, 1 or more)"
	require_root
	run "$EBPF_COLLECT" -p $$ --dump-on NoSuchEvent
	assert_equal "$status" 64
	assert_output "ebpf-collect: --dump-on NoSuchEvent: no event NoSuchEvent in the event table"
	run "$EBPF_COLLECT" -p $$ --dump-on 'GCEnd_V1:Depth>>2'
	assert_equal "$status" 64
	run "$EBPF_COLLECT" -p $$ --dump-on 'GCEnd_V1:Colour==2'
	assert_output "ebpf-collect: --dump-on GCEnd_V1:Colour==2: GCEnd_V1 has no field Colour"
	run "$EBPF_COLLECT" -p $$ --stop-on 'ExceptionThrown_V1:ExceptionType<x'
	assert_output "ebpf-collect: --stop-on ExceptionThrown_V1:ExceptionType<x: a string field takes == or !="
	run "$EBPF_COLLECT" -p $$ --filter GCEnd_V1
	assert_output "ebpf-collect: --filter GCEnd_V1: expected EVENT:FIELD OP VALUE"
	run "$EBPF_COLLECT" -p $$ --profile gc-collect --dump-on ExceptionThrown_V1
	assert_equal "$status" 64
	assert_output_contains "ExceptionThrown_V1 is not among the selected events"
}
