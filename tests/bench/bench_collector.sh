#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# bench_collector: cost and throughput of ebpf-collect on USDT events
# (installed as $OUTPUT/bench_collector, run by `make bench`, needs root).
#
# Target: $OUTPUT/tests/usdt_testprog firing DotNETRuntime:GCStart_V2 (26-byte
# payload, 5-byte nop site, semaphore) in a loop on 1 or 2 threads.
#  1. ns per call: untraced (probe not attached: semaphore check only) vs
#     traced with and without user stacks, probes fired as fast as possible
#     into a 256 MiB ring (median/min/max of REPS runs; the calling threads'
#     CPU time per call, so it includes the uprobe trap and the BPF program
#     but not time lost to other processes on a busy machine).
#     The BPF program's own run time per event comes from
#     kernel.bpf_stats_enabled (set during the run, restored after).
#  2. sustained rate with 0 loss: fixed rates per thread into the default
#     32 MiB ring for ~2 s each; prints events delivered and lost.
set -uo pipefail
OUTPUT=${OUTPUT:-$(cd "$(dirname "$0")" && pwd)}
TP=$OUTPUT/tests/usdt_testprog
EC=$OUTPUT/ebpf-collect
REPS=${REPS:-3}
tmp=$(mktemp -d)
stats_was=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo 0)
trap 'rm -rf "$tmp"; sysctl -q kernel.bpf_stats_enabled="$stats_was" 2>/dev/null' EXIT

[[ $EUID -eq 0 ]] || { echo "bench_collector: needs root" >&2; exit 1; }
[[ -x $TP && -x $EC ]] || { echo "bench_collector: build first (make)" >&2; exit 1; }

field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

# traced RUN_ARGS... -- COLLECTOR_ARGS...:
# prints "ns_per_call delivered lost seconds bpf_ns_per_run"
traced() {
	local targs=() cargs=()
	while [[ $1 != -- ]]; do targs+=("$1"); shift; done
	shift
	cargs=("$@")
	rm -f "$tmp/t.nettrace"
	"$TP" "${targs[@]}" -w 10 >"$tmp/tp.json" 3>&- &
	local tp=$!
	sleep 0.2
	"$EC" -p "$tp" -o "$tmp/t.nettrace" "${cargs[@]}" >"$tmp/ec.out" 2>&1
	wait "$tp"
	local lost delivered bpfns
	lost=$(grep -o 'dropped [0-9]* events' "$tmp/ec.out" | grep -o '[0-9]*')
	delivered=$(grep -o '^ebpf-collect: [0-9]* events' "$tmp/ec.out" | grep -o '[0-9]*')
	bpfns=$(grep -o '[0-9]* ns per run' "$tmp/ec.out" | grep -o '^[0-9]*')
	echo "$(field "$tmp/tp.json" cpu_ns_per_call) ${delivered:-?} ${lost:-?} $(field "$tmp/tp.json" seconds) ${bpfns:-?}"
}

stats() {	# numbers on stdin -> "median min max"
	sort -n | awk '{a[NR]=$1} END {printf "%8.1f %8.1f %8.1f", a[int((NR+1)/2)], a[1], a[NR]}'
}

echo "ebpf-collect: ns per call of an instrumented function (median min max over $REPS runs)"
echo "(CPU time of the calling thread per call, kernel included: the uprobe trap and the"
echo " BPF program; bpf ns = the BPF program's median run time per event alone)"
printf "%-8s %-28s %8s %8s %8s %8s %8s\n" threads mode median min max lost "bpf ns"
for t in 1 2; do
	n=$((1000000 / t))
	for r in $(seq "$REPS"); do
		"$TP" -n 20000000 -t "$t" >"$tmp/u.json"
		field "$tmp/u.json" cpu_ns_per_call
	done | stats >"$tmp/s"
	printf "%-8s %-28s %s %8s %8s\n" "$t" "untraced (semaphore off)" "$(cat "$tmp/s")" - -
	for mode in stack nostack; do
		extra=()
		[[ $mode == nostack ]] && extra=(--no-user-stack)
		: >"$tmp/runs"
		sysctl -q kernel.bpf_stats_enabled=1
		for r in $(seq "$REPS"); do
			traced -n "$n" -t "$t" -- -b 256 "${extra[@]}" >>"$tmp/runs"
		done
		sysctl -q kernel.bpf_stats_enabled="$stats_was"
		bpfns=$(cut -d' ' -f5 "$tmp/runs" | sort -n | sed -n "$(((REPS + 1) / 2))p")
		s=$(cut -d' ' -f1 "$tmp/runs" | stats)
		lost=$(awk '{s+=$3} END {print s}' "$tmp/runs")
		printf "%-8s %-28s %s %8s %8s\n" "$t" \
			"traced, $([[ $mode == stack ]] && echo "user stack" || echo "no stack")" \
			"$s" "$lost" "$bpfns"
	done
done
echo
echo "Sustained rate into the default 32 MiB ring, user stacks, ~2 s per run"
printf "%-8s %14s %14s %12s %8s\n" threads "asked/thread" "achieved/s" delivered lost
for t in 1 2; do
	for rate in 50000 100000 200000 400000; do
		n=$((rate * 2))
		read -r _ delivered lost secs _ < <(traced -n "$n" -t "$t" -r "$rate" --)
		achieved=$(awk -v d="$delivered" -v l="$lost" -v s="$secs" 'BEGIN {printf "%.0f", (d + l) / s}')
		printf "%-8s %14s %14s %12s %8s\n" "$t" "$rate" "$achieved" "$delivered" "$lost"
	done
done
