#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# bench_collector_cpu: ebpf-collect's own CPU use, start-up and steady state
# apart (installed as $OUTPUT/bench_collector_cpu, run by `make bench`, needs
# root).
#
# Workload: refrt --scenario cpu, 1 worker, for START + STEADY seconds,
# traced by `ebpf-collect --cpu-sampling=HZ` (the runtime's probes, CPU
# samples with stacks, symbolizing, the .nettrace written as it goes).
# The collector's CPU time (utime + stime of /proc/PID/stat) is read when it
# says it is tracing, START seconds later (start-up over: BPF load, attach,
# first symbol snapshots) and STEADY seconds after that:
#   start-up   CPU seconds until START s after "tracing"
#   steady     CPU seconds / wall seconds over the STEADY window, in % of a core
# Target: steady state under 2 % of a core at 99 Hz.  REPS repetitions,
# median min max.
set -uo pipefail
OUTPUT=${OUTPUT:-$(cd "$(dirname "$0")" && pwd)}
REFRT=$OUTPUT/refrt
EC=$OUTPUT/ebpf-collect
REPS=${REPS:-3}
START=${START:-3}
STEADY=${STEADY:-10}
TARGET=2
tmp=$(mktemp -d)
col=
trap '[[ -n $col ]] && kill -9 "$col" 2>/dev/null; rm -rf "$tmp"' EXIT

[[ $EUID -eq 0 ]] || { echo "bench_collector_cpu: needs root" >&2; exit 1; }
[[ -x $EC && -x $REFRT ]] || { echo "bench_collector_cpu: build first (make)" >&2; exit 1; }

tck=$(getconf CLK_TCK)
cpu_s() {	# pid -> CPU seconds (user + system)
	awk -v t="$tck" '{ sub(/^.*\) /, ""); print ($12 + $13) / t }' "/proc/$1/stat"
}
now() { date +%s.%N; }

# run HZ: prints "startup_cpu_s steady_pct"
run() {
	local hz=$1 c0 c1 c2 t1 t2 i
	DOTNET_PerfMapEnabled=3 "$EC" -q -o "$tmp/t.nettrace" --cpu-sampling="$hz" -- \
		"$REFRT" --scenario cpu --threads 1 --duration $((START + STEADY + 5)) \
		--summary /dev/null >/dev/null 2>"$tmp/err" &
	col=$!
	for ((i = 0; i < 200; i++)); do	# -q hides "tracing": wait for the file
		[[ -s $tmp/t.nettrace ]] && break
		sleep 0.05
	done
	sleep "$START"
	c1=$(cpu_s "$col"); t1=$(now)
	sleep "$STEADY"
	c2=$(cpu_s "$col"); t2=$(now)
	kill -INT "$col"
	wait "$col" 2>/dev/null
	col=
	awk -v c1="$c1" -v c2="$c2" -v t1="$t1" -v t2="$t2" \
		'BEGIN { printf "%.3f %.3f\n", c1, (c2 - c1) / (t2 - t1) * 100 }'
}

stats() {	# numbers on stdin -> "median min max"
	sort -g | awk '{a[NR]=$1} END {printf "%.3f %.3f %.3f", a[int((NR+1)/2)], a[1], a[NR]}'
}

for hz in 99 999; do
	: >"$tmp/$hz"
	for r in $(seq "$REPS"); do
		run "$hz" >>"$tmp/$hz"
	done
done

echo "ebpf-collect's own CPU use, tracing refrt --scenario cpu (1 worker) with --cpu-sampling;"
echo "start-up: CPU s until $START s after tracing began; steady: % of one core over the next"
echo "$STEADY s ($REPS repetitions: median min max)."
printf "%-8s %10s %8s %8s %10s %8s %8s\n" rate "start-up s" min max "steady %" min max
for hz in 99 999; do
	read -r smd slo shi < <(cut -d' ' -f1 "$tmp/$hz" | stats)
	read -r md lo hi < <(cut -d' ' -f2 "$tmp/$hz" | stats)
	mark=""
	if [[ $hz == 99 ]]; then
		if awk -v m="$md" -v t="$TARGET" 'BEGIN {exit !(m >= t)}'; then
			mark="  MISSED (target < $TARGET %)"
		else
			mark="  met (target < $TARGET %)"
		fi
	fi
	printf "%-8s %10s %8s %8s %10s %8s %8s%s\n" "$hz Hz" "$smd" "$slo" "$shi" "$md" "$lo" "$hi" \
		"$mark"
done
