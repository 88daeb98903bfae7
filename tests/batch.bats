#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The batched in-process path (--batched): the generated provider writes
# events into per-thread buffers and hands them over in runs; the trace must
# be the one the per-event probes give.

load test_helper

PROBES=$OUTPUT/bench/bench_probes

setup_file() {
	export BATS_TEST_TIMEOUT=180
}

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	[[ -x $PROBES ]] || flunk "bench_probes not built ($PROBES)"
	T=$BATS_TEST_TMPDIR
}

teardown() {
	kill_bg
}

# probes_trace NAME PROBES-ARGS -- COLLECTOR-ARGS: bench_probes traced from
# its first event; its JSON in $T/NAME.json, the collector's stderr in
# $T/NAME.err, the trace in $T/NAME.nettrace
probes_trace() {
	local name=$1 pargs=() cargs=()
	shift
	while [[ $1 != -- ]]; do
		pargs+=("$1")
		shift
	done
	shift
	cargs=("$@")
	rm -f "$T/go"
	"$PROBES" -m clr -w 30 -d 300 -g "$T/go" "${pargs[@]}" >"$T/$name.json" 3>&- &
	local bp=$!
	"$EBPF_COLLECT" -p "$bp" -o "$T/$name.nettrace" --providers DotNETRuntime:0x1:5 \
		--no-user-stack "${cargs[@]}" 2>"$T/$name.err" 3>&- &
	local cp=$!
	wait "$bp" || flunk "bench_probes failed: $(cat "$T/$name.json")"
	wait "$cp" || flunk "collector failed: $(cat "$T/$name.err")"
}

events_in() {	# events_in NAME: GCDynamicEvent events in the trace
	"$EBPF_COLLECT" dump --json "$T/$1.nettrace" >"$T/$1.jsonl" || flunk "dump $1 failed"
	python3 -c 'import json,sys
n = l = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("event") == "GCDynamicEvent": n += 1
    if o.get("type") == "summary": l = o["lost"]
print(n, l)' "$T/$1.jsonl"
}

@test "batched: refrt --batched: every event as many times as refrt fired it, fields decoded, 0 lost" {
	require_root
	run "$EBPF_COLLECT" --batched -o "$T/rt.nettrace" -- \
		"$REFRT" --scenario mixed --threads 3 --iterations 150 -o "$T/rt.json"
	[[ $status -eq 0 ]] || flunk "status $status: $output"
	assert_output_contains "events batched in-process in $REFRT (user stacks walked by the provider)"
	assert_output_contains "dropped 0 events"
	[[ $output =~ batched:\ ([0-9]+)\ events\ in\ ([0-9]+)\ runs ]] || flunk "no batched line: $output"
	(( BASH_REMATCH[1] > 1000 )) || flunk "only ${BASH_REMATCH[1]} events batched"
	"$EBPF_COLLECT" dump --json "$T/rt.nettrace" >"$T/rt.jsonl"
	python3 - "$T/rt.jsonl" "$T/rt.json" <<-'EOF'
	import json, sys
	counts, lost, gc_counts, exc = {}, None, [], {}
	for line in open(sys.argv[1]):
	    o = json.loads(line)
	    if o["type"] == "summary":
	        lost = o["lost"]
	        continue
	    if o["provider"] != "Microsoft-Windows-DotNETRuntime":
	        continue	# rundown: the collector writes its own method and module events
	    counts[o["event"]] = counts.get(o["event"], 0) + 1
	    if o["event"] == "GCStart_V2":
	        gc_counts.append(o["fields"]["Count"])
	    if o["event"] == "ExceptionThrown_V1":
	        t = o["fields"]["ExceptionType"]
	        exc[t] = exc.get(t, 0) + 1
	s = json.load(open(sys.argv[2]))
	rundown = ("DCStart", "DCEnd", "DCEndInit", "DCEndComplete", "DCStartInit", "DCStartComplete")
	bad = [f"{k}: trace {counts.get(k, 0)}, refrt {v}" for k, v in s["events"].items()
	       if counts.get(k, 0) != v and not any(r in k for r in rundown)]
	if lost != 0:
	    bad.append(f"lost {lost}")
	if gc_counts != list(range(1, s["gc"]["count"] + 1)):
	    bad.append(f"GCStart_V2 Count {gc_counts[:5]}..., expected 1..{s['gc']['count']}")
	if exc != s["exceptions"]["by_type"]:
	    bad.append(f"exceptions {exc} vs {s['exceptions']['by_type']}")
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	EOF
}

@test "batched: the same events, payloads, activity ids and order per thread as the per-event probes" {
	require_root
	probes_trace per -s 64 -n 50000 -t 2 -V -A --
	probes_trace bat -s 64 -n 50000 -t 2 -V -A -- --batched
	grep -q "events batched in-process" "$T/bat.err" || flunk "not batched: $(cat "$T/bat.err")"
	! grep -q "events batched in-process" "$T/per.err" || flunk "batched without --batched"
	read -r n lost < <(events_in per)
	assert_equal "$n $lost" "100000 0"
	read -r n lost < <(events_in bat)
	assert_equal "$n $lost" "100000 0"
	run python3 "$ROOT/tests/batch_compare.py" "$T/per.jsonl" "$T/bat.jsonl" 2 50000
	[[ $status -eq 0 ]] || flunk "$output"
}

@test "batched: events with 0 bytes of Data and with 1 KiB payloads" {
	require_root
	probes_trace small -s 10 -n 20000 -t 1 -- --batched
	read -r n lost < <(events_in small)
	assert_equal "$n $lost" "20000 0"
	probes_trace big -s 1024 -n 20000 -t 2 -r 100000 -V -- --batched
	read -r n lost < <(events_in big)
	assert_equal "$n $lost" "40000 0"
	probes_trace big_per -s 1024 -n 20000 -t 2 -r 100000 -V --
	events_in big_per >/dev/null
	run python3 "$ROOT/tests/batch_compare.py" "$T/big_per.jsonl" "$T/big.jsonl" 2 20000
	[[ $status -eq 0 ]] || flunk "$output"
}

@test "batched: a 1 MiB ring under overload: what is not in the file is counted lost, exactly" {
	require_root
	probes_trace ov -s 64 -n 3000000 -t 2 -- --batched -b 1
	fired=$(json_get "$T/ov.json" '["events"]')
	read -r n lost < <(events_in ov)
	(( lost > 0 )) || flunk "nothing lost: the ring kept up ($n of $fired)"
	assert_equal "$((n + lost))" "$fired"
	grep -q "dropped $lost events" "$T/ov.err" || flunk "collector: $(grep dropped "$T/ov.err")"
	[[ $(cat "$T/ov.err") =~ ([0-9]+)\ lost\ in\ runs ]] || flunk "no batched line"
	assert_equal "${BASH_REMATCH[1]}" "$lost"
}

# The collector is stopped (SIGSTOP) from before the first event until the
# producers are done: they fire twice what the 64 MiB ring holds (in
# payload bytes alone), whatever the machine's load, and the collector then
# finds a full ring to read in rounds.  The load is sized to the ring, not
# to a guess at how much faster the producers are.
@test "batched: producers outpacing the collector into a 64 MiB ring: read in rounds, each thread's events in order, losses exact" {
	require_root
	local ring=$((64 << 20)) bytes=64 threads=2 n bp cp
	n=$((2 * ring / bytes / threads))
	rm -f "$T/go" "$T/start"
	"$PROBES" -m clr -w 60 -G "$T/start" -s "$bytes" -n "$n" -t "$threads" -V \
		>"$T/fast.json" 3>&- &
	bp=$!
	"$EBPF_COLLECT" -p "$bp" -o "$T/fast.nettrace" --providers DotNETRuntime:0x1:5 \
		--no-user-stack --batched -b $((ring >> 20)) 2>"$T/fast.err" 3>&- &
	cp=$!
	BG_PIDS="$bp $cp"
	# every probe attached and the batched session on; no event fired yet
	wait_for_grep "tracing .* probes" "$T/fast.err" 60 || flunk "collector: $(cat "$T/fast.err")"
	kill -STOP "$cp"
	touch "$T/start"
	wait "$bp" || { kill -CONT "$cp"; flunk "bench_probes failed: $(cat "$T/fast.json")"; }
	kill -CONT "$cp"
	wait "$cp" || flunk "collector failed: $(cat "$T/fast.err")"
	fired=$(json_get "$T/fast.json" '["events"]')
	assert_equal "$fired" "$((n * threads))"
	assert_equal "$(json_get "$T/fast.json" '["enabled"]')" 1
	read -r n lost < <(events_in fast)
	(( lost > 0 )) || flunk "nothing lost: the collector kept up ($n of $fired)"
	assert_equal "$((n + lost))" "$fired"
	# the collector stopped reading every 8 MiB to pass events on
	grep -Eq 'ring buffer: [1-9][0-9]* reads stopped at 8 MiB' "$T/fast.err" ||
		flunk "no read stopped: $(grep 'ring buffer' "$T/fast.err")"
	run python3 "$ROOT/tests/batch_compare.py" --in-order "$T/fast.jsonl" 2
	[[ $status -eq 0 ]] || flunk "$output"
}

# bench_batched's consumer ceiling reads the same ring as the full collector:
# every event the producer fired is counted, none decoded or written.
@test "batched: --bench-count-only counts every event fired, from runs of many, and writes none" {
	require_root
	probes_trace co -s 64 -n 100000 -t 2 -r 200000 -- --batched --bench-count-only
	fired=$(json_get "$T/co.json" '["events"]')
	assert_equal "$fired" 200000
	grep -q "dropped 0 events" "$T/co.err" || flunk "collector: $(cat "$T/co.err")"
	[[ $(cat "$T/co.err") =~ count-only:\ ([0-9]+)\ records,\ ([0-9]+)\ events ]] ||
		flunk "no count-only line: $(cat "$T/co.err")"
	assert_equal "${BASH_REMATCH[2]}" "$fired"
	# runs of many events, not one record per event
	(( BASH_REMATCH[1] > 0 && BASH_REMATCH[1] * 10 < fired )) ||
		flunk "${BASH_REMATCH[1]} records for $fired events"
	assert_equal "$(events_in co)" "0 0"
}

@test "batched: not by default for GC-keyword events (only heap-keyword ones); --batched/--no-batched, the last one wins" {
	require_root
	probes_trace def -s 64 -n 1000 -t 1 --
	! grep -q "batched" "$T/def.err" || flunk "batched by default: $(cat "$T/def.err")"
	probes_trace off -s 64 -n 1000 -t 1 -- --no-batched --batched
	grep -q "events batched" "$T/off.err" || flunk "the last of --batched/--no-batched wins"
	probes_trace off2 -s 64 -n 1000 -t 1 -- --batched --no-batched
	! grep -q "batched" "$T/off2.err" || flunk "--no-batched: $(cat "$T/off2.err")"
}

@test "batched: stacks walked by the provider name the same frames, as often, as the BPF walk" {
	require_root
	local m extra
	for m in per bat; do
		extra=()
		[[ $m == bat ]] && extra=(--batched)
		run "$EBPF_COLLECT" -o "$T/st_$m.nettrace" "${extra[@]}" -- \
			"$REFRT" --scenario mixed --threads 2 --iterations 100 --seed 3 -o "$T/st_$m.json"
		[[ $status -eq 0 ]] || flunk "$m: status $status: $output"
		"$EBPF_COLLECT" convert "$T/st_$m.nettrace" --format folded -o "$T/st_$m.folded" ||
			flunk "convert $m failed"
	done
	assert_output_contains "events batched in-process in $REFRT (user stacks walked by the provider)"
	# JIT frames (named by the method events), refrt's native helpers, libc
	grep -q 'RefApp!RefApp.Exceptions.Validate(int64);refrt!rt_helper_throw' "$T/st_bat.folded" ||
		flunk "no named exception stack: $(head -3 "$T/st_bat.folded")"
	run diff <(sort "$T/st_per.folded") <(sort "$T/st_bat.folded")
	[[ $status -eq 0 ]] || flunk "folded stacks differ: $output"
	(( $(wc -l <"$T/st_bat.folded") > 20 )) || flunk "too few distinct stacks"
}
