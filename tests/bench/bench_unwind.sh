#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# bench_unwind: what a CPU sample's user stack costs, by how it is taken,
# on a native program without frame pointers (installed as
# $OUTPUT/bench_unwind, run by `make bench`, needs root and perf).
#
# Short run: REPS=1 SECS=2.
# Workload: tests/progs/unwind_native SECS (qsort through libm, memset/
# memcpy, exp/sin; -O2 -fomit-frame-pointer), started by the tracer so it
# is traced from its first instruction.  It prints the rounds of work it did
# and its own CPU time.
# Conditions, one after the other within each round, at 99 and 999 Hz:
#   untraced  the program alone
#   fp        ebpf-collect --cpu-sampling=HZ --call-graph fp    (BPF walk)
#   eh        ebpf-collect --cpu-sampling=HZ --call-graph eh    (BPF walk by
#             .eh_frame rows; the tables are built by the collector before
#             the program's first sample is walked by them, not per sample)
#   dwarf     ebpf-collect --cpu-sampling=HZ --call-graph dwarf (8 KiB copy,
#             unwound by libdw in the collector)
#   perf      perf record -F HZ --call-graph dwarf (8 KiB copy), then
#             perf script, where perf unwinds
# Metrics, per condition (median over REPS):
#   slow%     the program's CPU time per round of work over the untraced
#             run's (same rate, same round), - 1: the sampling interrupt and
#             the stack walk or copy run on its CPU and are charged to it;
#             the memory-bound rounds move with other load on a shared
#             machine, so read it with its noise
#   bpf_us    ours: the sampling program's run time per sample written
#             (kernel.bpf_stats_enabled: runs x ns per run, filtered runs of
#             other processes included, / samples): the walk, or the copy
#             (eh: the walk by rows, which replaces both copy and unwinding)
#   unw_us    the unwinding per sample: dwarf, the collector's own count
#             (its summary line); perf, perf script's CPU time (user + sys)
#             per sample, where perf unwinds its copies
# The tracers' whole CPU time is not compared: start-up (BPF load,
# kallsyms, perf's set-up) varies by more than what sampling adds.
#
# Then the same three modes on stock .NET (tests/dotnet/evtapp --chain-ms:
# 4 threads in a managed call chain Worker;A;B;C whose A and B keep no
# frame pointer at tier 1, under dotnet's stripped runtime), when dotnet is
# installed, per condition (median over REPS):
#   bpf_us    as above; for eh it includes the scan for frameless JIT
#             callers (bpf/eh_walk.bpf.h)
#   unw_us    dwarf: the collector's unwinding per stack
#   found     eh: frameless callers the scan found, per sample
#   chain%    of the samples below EvtAppChainC, those with the whole chain
#             (tests/managed_chain.py on convert --format folded): what the
#             cost buys
# perf is not run on it: its dwarf mode needs the runtime's perf map and
# names no managed frame without it.
set -uo pipefail
OUTPUT=${OUTPUT:-$(cd "$(dirname "$0")" && pwd)}
ROOT=${ROOT:-$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)}
PROG=$OUTPUT/tests/unwind_native
APP_DIR=$OUTPUT/tests/dotnet/evtapp
APP=$APP_DIR/evtapp.dll
COL=$OUTPUT/ebpf-collect
REPS=${REPS:-3}
SECS=${SECS:-4}
tmp=$(mktemp -d)
stats_was=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo 0)
trap 'rm -rf "$tmp"; sysctl -q kernel.bpf_stats_enabled="$stats_was" 2>/dev/null' EXIT

[[ $EUID -eq 0 ]] || { echo "bench_unwind: needs root" >&2; exit 1; }
[[ -x $PROG && -x $COL ]] || { echo "bench_unwind: build first (make)" >&2; exit 1; }
PERF=$(command -v perf || true)
sysctl -q kernel.bpf_stats_enabled=1

# per_round FILE: the program's CPU us per round, from its last line
per_round() {
	awk '$1 == "rounds" && $2 > 0 { printf "%.1f\n", $4 / $2 }' "$1"
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "nan" }'
}

# our_costs ERR MODE: from ebpf-collect's summary on stderr, into the
# caller's n (CPU samples), bpf (the sampling program's us per sample),
# unw (dwarf: us of unwinding per stack) and found (eh: frameless callers
# found per sample)
our_costs() {
	local err=$1 mode=$2
	n=$(sed -n 's/^kernel-events: \([0-9]*\) CPU samples.*/\1/p' "$err")
	bpf=$(sed -n 's/.*BPF cpu_sample: \([0-9]*\) runs, \([0-9]*\) ns per run.*/\1 \2/p' \
		"$err" | awk -v n="$n" '{ printf "%.2f", n ? $1 * $2 / n / 1e3 : 0 }')
	[[ $mode == dwarf ]] &&
		unw=$(sed -n 's/.*--call-graph dwarf: .*, \([0-9.]*\) us per stack.*/\1/p' "$err")
	[[ $mode == eh ]] &&
		found=$(sed -n 's/.*by frame pointers, \([0-9]*\) frameless callers found.*/\1/p' \
			"$err" | awk -v n="$n" '{ printf "%.2f", n ? $1 / n : 0 }')
	return 0
}

run_one() {	# run_one HZ MODE -> appends "slow bpf_us unw_us samples" to $tmp/HZ.MODE
	local hz=$1 mode=$2 base out=$tmp/run n bpf=- unw=- found=-
	case $mode in
	untraced)
		"$PROG" "$SECS" >"$out.prog"
		per_round "$out.prog" >>"$tmp/$hz.base"
		return ;;
	fp | eh | dwarf)
		"$COL" --cpu-sampling="$hz" --call-graph "$mode" -o "$tmp/t.nettrace" \
			-- "$PROG" "$SECS" >"$out.prog" 2>"$out.err" ||
			{ echo "bench_unwind: $mode failed" >&2; return; }
		our_costs "$out.err" "$mode"
		;;
	perf)
		[[ -n $PERF ]] || return
		"$PERF" record -q -F "$hz" --call-graph dwarf -o "$tmp/perf.data" -- "$PROG" "$SECS" \
			>"$out.prog" 2>"$out.err" || { echo "bench_unwind: perf record failed" >&2; return; }
		/usr/bin/time -o "$out.time" -f '%U %S' "$PERF" script -i "$tmp/perf.data" \
			--no-inline -F comm,tid,ip,sym,dso >"$tmp/perf.txt" 2>/dev/null
		n=$(grep -c '^[^[:space:]]' "$tmp/perf.txt")
		unw=$(tail -1 "$out.time" | awk -v n="$n" '{ printf "%.1f", n ? ($1 + $2) * 1e6 / n : 0 }')
		;;
	esac
	base=$(tail -1 "$tmp/$hz.base")
	echo "$(per_round "$out.prog") $base $bpf $unw $n" |
		awk '{ printf "%.2f %s %s %d\n", ($1 / $2 - 1) * 100, $3, $4, $5 }' >>"$tmp/$hz.$mode"
}

for ((r = 0; r < REPS; r++)); do
	for hz in 99 999; do
		for mode in untraced fp eh dwarf perf; do
			run_one "$hz" "$mode"
		done
	done
done

med() {	# med HZ MODE COLUMN
	awk -v c="$3" '{ print $c }' "$tmp/$1.$2" | median
}

echo "bench_unwind: user stacks of CPU samples, $PROG ${SECS}s, median of $REPS"
printf '%-6s %-6s %8s %8s %8s %8s\n' Hz mode 'slow%' bpf_us unw_us samples
for hz in 99 999; do
	for mode in fp eh dwarf perf; do
		[[ -s $tmp/$hz.$mode ]] || continue
		printf '%-6s %-6s %8s %8s %8s %8s\n' "$hz" "$mode" "$(med "$hz" "$mode" 1)" \
			"$(med "$hz" "$mode" 2)" "$(med "$hz" "$mode" 3)" "$(med "$hz" "$mode" 4)"
	done
done

# ------------------------------------------------------------ stock .NET
command -v dotnet >/dev/null || { echo "bench_unwind: no dotnet: the .NET rows are not run"; exit 0; }
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
src=$ROOT/tests/dotnet/evtapp
if [[ ! -f $APP || $src/Program.cs -nt $APP || $src/evtapp.csproj -nt $APP ]]; then
	mkdir -p "$OUTPUT/tests/dotnet"
	(
		flock 9
		dotnet build "$src/evtapp.csproj" -c Release -o "$APP_DIR" \
			-p:BaseIntermediateOutputPath="$OUTPUT/tests/dotnet/obj/" >"$tmp/build.log" 2>&1
	) 9>"$OUTPUT/tests/dotnet/.lock" || { cat "$tmp/build.log" >&2; exit 1; }
fi

run_net() {	# run_net HZ MODE -> appends "bpf_us unw_us found chain% samples" to $tmp/net.HZ.MODE
	local hz=$1 mode=$2 out=$tmp/net n bpf=- unw=- found=- chain
	"$COL" --cpu-sampling="$hz" --call-graph "$mode" -o "$tmp/n.nettrace" \
		-- dotnet "$APP" --chain-ms $((SECS * 1000)) >"$out.prog" 2>"$out.err" ||
		{ echo "bench_unwind: .NET $mode failed: $(tail -2 "$out.err")" >&2; return; }
	our_costs "$out.err" "$mode"
	"$COL" convert "$tmp/n.nettrace" --format folded >"$tmp/n.folded" 2>/dev/null
	chain=$(python3 "$ROOT/tests/managed_chain.py" "$tmp/n.folded" \
		'Program\.EvtAppChainC\(|System\.Random[.+]' 'Program\.EvtAppChainWorker\(' \
		'Program\.EvtAppChainA\(' 'Program\.EvtAppChainB\(' 'Program\.EvtAppChainC\(' |
		awk '$1 == "deep" { d = $2 } $1 == "full" { f = $2 }
			END { if (d) printf "%.1f", f * 100 / d; else print "-" }')
	echo "${bpf:--} $unw $found $chain ${n:-0}" >>"$tmp/net.$hz.$mode"
}

for ((r = 0; r < REPS; r++)); do
	for hz in 99 999; do
		for mode in fp eh dwarf; do
			run_net "$hz" "$mode"
		done
	done
done

echo
echo "bench_unwind: stock .NET, dotnet evtapp.dll --chain-ms $((SECS * 1000)) (4 threads), median of $REPS"
printf '%-6s %-6s %8s %8s %8s %8s %8s\n' Hz mode bpf_us unw_us found chain% samples
for hz in 99 999; do
	for mode in fp eh dwarf; do
		[[ -s $tmp/net.$hz.$mode ]] || continue
		printf '%-6s %-6s %8s %8s %8s %8s %8s\n' "$hz" "$mode" "$(med "net.$hz" "$mode" 1)" \
			"$(med "net.$hz" "$mode" 2)" "$(med "net.$hz" "$mode" 3)" \
			"$(med "net.$hz" "$mode" 4)" "$(med "net.$hz" "$mode" 5)"
	done
done
