#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# bench_tpshim: what a stock .NET app pays per runtime event when it is
# traced through the tracepoint shim (usdt/README.md, "The tracepoint
# shim"), beside EventPipe sessions, ours and dotnet-trace's, for the same
# events with stacks; and what a process started ready for the shim pays
# while nobody traces it.  Installed as $OUTPUT/bench_tpshim, run by `make
# bench` (root; alone: flock /tmp/ebpf-hostwide.lock .output/bench_tpshim).
#
# Workload: tests/dotnet/evtapp --exceptions N (the SDK's .NET), each throw
# firing the Exception keyword's events (ExceptionThrown_V1, catch start and
# stop, ...), every one with a stack.  Providers for every tracer:
# Microsoft-Windows-DotNETRuntime:0x8000:4.  Eight modes, interleaved and
# rotated within each round so that a busy machine's drift falls on all:
#   plain     started plainly, not traced
#   ready     started ready for the shim to trace those keywords
#             (LD_LIBRARY_PATH with the shim, DOTNET_EnableEventLog=1, an
#             EventSourceFilter that matches nothing, DOTNET_LTTngConfig
#             with the providers' keywords: what --tracepoint-shim sets),
#             not traced
#   ready-gc  the same, ready for the GC keyword only (0x1:4), not traced:
#             a keyword this workload does not fire
#   ready-all the same without DOTNET_LTTngConfig, so every keyword of
#             every provider, not traced
#   shim      ready, traced by ebpf-collect -p through the shim (BPF reads
#             each event's arguments and stack in the throwing thread)
#   shim-b    ready, traced by ebpf-collect -p --batched through the shim's
#             batched mode (the shim copies each event's arguments and walks
#             its stack into the thread's buffer; BPF takes runs of them)
#   ep-ours   plain, traced by ebpf-collect -p through EventPipe
#   ep-dt     plain, traced by dotnet-trace collect (EventPipe)
# App cost: the CPU time of every thread of the app (schedstat) from the
# go signal to DONE; per event: (traced - the same round's untraced start
# of that kind) / the events the trace holds.  Also the start-up to READY
# (CPU), ready against plain: the cost of being ready for tracing.  The
# runtime builds the arguments of every event whose keyword its
# DOTNET_LTTngConfig (read once at start; unset: all) has on, before the
# tracepoint's state says whether anyone listens (usdt/README.md): ready
# pays for the exception events traced later, ready-gc for nothing this
# workload fires, ready-all for all.
#
# The batched path (shim-b) pays its flusher thread and its run hand-overs
# in the app's CPU too: they are threads and work of the app.
set -uo pipefail
OUTPUT=${OUTPUT:-$(cd "$(dirname "$0")" && pwd)}
ROOT=${ROOT:-$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)}
EC=$OUTPUT/ebpf-collect
SHIM=$OUTPUT/tpshim
APP_DIR=$OUTPUT/tests/dotnet/evtapp
APP=$APP_DIR/evtapp.dll
DT=${DOTNET_TRACE:-/usr/local/lib/ebpf-collect/dotnet-tools/dotnet-trace}
N=${N:-50000}
ROUNDS=${ROUNDS:-5}
PROV=Microsoft-Windows-DotNETRuntime:0x8000:4
LTTNG=Microsoft-Windows-DotNETRuntime:8000:4	# $PROV as --tracepoint-shim passes it
LTTNG_GC=Microsoft-Windows-DotNETRuntime:1:4
MODES=(plain ready ready-gc ready-all shim shim-b ep-ours ep-dt)
tmp=$(mktemp -d)
app=
tracer=
cleanup() {
	[[ -n $tracer ]] && kill -KILL "$tracer" 2>/dev/null
	[[ -n $app ]] && kill -KILL "$app" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

[[ $EUID -eq 0 ]] || { echo "bench_tpshim: needs root" >&2; exit 1; }
[[ -x $EC && -f $SHIM/liblttng-ust-tracepoint.so.0 ]] ||
	{ echo "bench_tpshim: build first (make)" >&2; exit 1; }
command -v dotnet >/dev/null || { echo "bench_tpshim: no dotnet: skipped"; exit 0; }
[[ -x $DT ]] || { echo "bench_tpshim: no dotnet-trace at $DT: skipped"; exit 0; }
if [[ ! -f $APP ]]; then
	dotnet build "$ROOT/tests/dotnet/evtapp/evtapp.csproj" -c Release -o "$APP_DIR" \
		-p:BaseIntermediateOutputPath="$OUTPUT/tests/dotnet/obj/" >"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log" >&2; exit 1; }
fi

waitfor() {	# waitfor FILE PATTERN PID: bounded (60 s), fails if PID dies
	local deadline=$((SECONDS + 60))
	while ((SECONDS < deadline)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || { grep -q "$2" "$1" 2>/dev/null; return; }
		sleep 0.02
	done
	return 1
}
task_ns() {	# CPU ns of every live thread of PID
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%d\n", s}'
}
# events TRACE: the runtime's events in TRACE (its rundown provider's apart)
events() {
	"$EC" dump --json "$1" |
		grep -c '^{"type":"event","provider":"Microsoft-Windows-DotNETRuntime",'
}

# run MODE ROUND: appends "mode round start_ns work_ns events" to $tmp/runs
run() {
	local mode=$1 round=$2 out=$tmp/$1.$2 ready c0 c1 s1 ev=0
	rm -f "$tmp/go"
	case $mode in
	plain|ep-*) dotnet "$APP" --wait "$tmp/go" --exceptions "$N" --linger >"$out.app" 2>&1 & ;;
	*)	local lttng=(DOTNET_LTTngConfig="$LTTNG")
		[[ $mode == ready-gc ]] && lttng=(DOTNET_LTTngConfig="$LTTNG_GC")
		[[ $mode == ready-all ]] && lttng=()
		env LD_LIBRARY_PATH="$SHIM" DOTNET_EnableEventLog=1 \
		DOTNET_EventSourceFilter=EbpfCollectNoSuchSource "${lttng[@]}" \
		dotnet "$APP" --wait "$tmp/go" --exceptions "$N" --linger >"$out.app" 2>&1 & ;;
	esac
	app=$!
	waitfor "$out.app" READY "$app" || { echo "bench_tpshim: $mode: app did not start" >&2; exit 1; }
	s1=$(task_ns "$app")
	tracer=
	# a background job of a script starts with SIGINT ignored, and .NET
	# keeps it so: the tracers get it back, to stop as on Ctrl-C
	case $mode in
	shim|ep-ours) env --default-signal=INT "$EC" -p "$app" -o "$out.nettrace" --providers "$PROV" \
		>"$out.log" 2>&1 & tracer=$!; ready="Ctrl-C" ;;
	shim-b) env --default-signal=INT "$EC" -p "$app" -o "$out.nettrace" --providers "$PROV" \
		--batched >"$out.log" 2>&1 & tracer=$!; ready="Ctrl-C" ;;
	ep-dt) env --default-signal=INT "$DT" collect -p "$app" -o "$out.nettrace" --providers "$PROV" \
		</dev/null >"$out.log" 2>&1 & tracer=$!; ready="^Output File" ;;
	esac
	if [[ -n $tracer ]]; then
		waitfor "$out.log" "$ready" "$tracer" ||
			{ echo "bench_tpshim: $mode did not start:" >&2; cat "$out.log" >&2; exit 1; }
	fi
	# the path each took: said, not assumed
	case $mode in
	shim) grep -q "traced through the tracepoint shim" "$out.log" ||
		{ echo "bench_tpshim: shim: not through the shim:" >&2; cat "$out.log" >&2; exit 1; } ;;
	shim-b) grep -q "tracepoints batched in-process in the tracepoint shim" "$out.log" ||
		{ echo "bench_tpshim: shim-b: not batched:" >&2; cat "$out.log" >&2; exit 1; } ;;
	ep-ours) grep -q "EventPipe session" "$out.log" ||
		{ echo "bench_tpshim: ep-ours: not through EventPipe:" >&2; cat "$out.log" >&2; exit 1; } ;;
	esac
	c0=$(task_ns "$app")
	touch "$tmp/go"
	waitfor "$out.app" DONE "$app" || { echo "bench_tpshim: $mode: app did not finish" >&2; exit 1; }
	c1=$(task_ns "$app")
	grep -q "exceptions=$N " "$out.app" || { echo "bench_tpshim: $mode: $(cat "$out.app")" >&2; exit 1; }
	if [[ -n $tracer ]]; then
		kill -INT "$tracer"
		wait "$tracer" 2>/dev/null
		tracer=
		[[ -s $out.nettrace ]] || { echo "bench_tpshim: $mode wrote no trace:" >&2; cat "$out.log" >&2; exit 1; }
		ev=$(events "$out.nettrace")
		rm -f "$out.nettrace"
	fi
	kill -KILL "$app"
	wait "$app" 2>/dev/null
	app=
	echo "$mode $round $s1 $((c1 - c0)) $ev" >>"$tmp/runs"
}

# the JIT, the runtime and the page cache warm before the first round
dotnet "$APP" --exceptions 100 >/dev/null 2>&1
: >"$tmp/runs"
for r in $(seq "$ROUNDS"); do
	n=${#MODES[@]}
	for i in $(seq 0 $((n - 1))); do
		run "${MODES[$(((i + r - 1) % n))]}" "$r"
	done
done

# per round: the traced mode's extra CPU per event over its untraced start
# (shim over ready, the EventPipe ones over plain); the median and range
# over rounds, and the ratios of the medians
awk -v n="$N" -v rounds="$ROUNDS" '
function sort(a, k,   i, j, t) {
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function summary(name, what,   k, r, a) {
	k = 0
	for (r = 1; r <= rounds; r++)
		a[++k] = v[name, r]
	sort(a, k)
	med[name] = a[int((k + 1) / 2)]
	if (unit[name] ~ /^\(/)
		printf "%-34s %9.3f [%.3f..%.3f] %s\n", what, a[int((k + 1) / 2)], a[1], a[k], unit[name]
	else
		printf "%-34s %9.1f [%.1f..%.1f] %s\n", what, a[int((k + 1) / 2)], a[1], a[k], unit[name]
}
{ start[$1, $2] = $3; work[$1, $2] = $4; ev[$1, $2] = $5 }
END {
	for (r = 1; r <= rounds; r++) {
		v["plain", r] = work["plain", r] / n; unit["plain"] = "ns per throw"
		v["ready", r] = work["ready", r] / n; unit["ready"] = "ns per throw"
		v["shim", r] = (work["shim", r] - work["ready", r]) / ev["shim", r]
		v["shim-b", r] = (work["shim-b", r] - work["ready", r]) / ev["shim-b", r]
		v["ep-ours", r] = (work["ep-ours", r] - work["plain", r]) / ev["ep-ours", r]
		v["ep-dt", r] = (work["ep-dt", r] - work["plain", r]) / ev["ep-dt", r]
		unit["shim"] = unit["shim-b"] = unit["ep-ours"] = unit["ep-dt"] = "ns per event"
		v["evs", r] = ev["shim", r] / n; unit["evs"] = "events per throw (shim)"
		v["evb", r] = ev["shim-b", r] / n; unit["evb"] = "events per throw (shim batched)"
		v["eve", r] = ev["ep-ours", r] / n; unit["eve"] = "events per throw (EventPipe)"
		v["idle", r] = work["ready", r] / work["plain", r]; unit["idle"] = "(ready / plain)"
		v["idle-gc", r] = work["ready-gc", r] / work["plain", r]; unit["idle-gc"] = "(ready-gc / plain)"
		v["idle-all", r] = work["ready-all", r] / work["plain", r]; unit["idle-all"] = "(ready-all / plain)"
		v["start", r] = start["ready", r] / start["plain", r]; unit["start"] = "(ready / plain)"
		v["start-all", r] = start["ready-all", r] / start["plain", r]; unit["start-all"] = "(ready-all / plain)"
	}
	printf "tracepoint shim vs EventPipe: app CPU (all threads), %d throws a run, %d rounds of\n", n, rounds
	printf "8 interleaved modes; median [min..max] over rounds\n"
	summary("plain", "untraced, plain start")
	summary("ready", "untraced, ready for the shim")
	summary("evs", "shim: events")
	summary("evb", "shim batched: events")
	summary("eve", "EventPipe: events")
	summary("shim", "shim (ebpf-collect -p), extra")
	summary("shim-b", "shim batched (--batched), extra")
	summary("ep-ours", "EventPipe (ebpf-collect -p), extra")
	summary("ep-dt", "EventPipe (dotnet-trace), extra")
	summary("idle", "ready, not traced: workload CPU")
	summary("idle-gc", "ready for GC only: workload CPU")
	summary("idle-all", "ready for all: workload CPU")
	summary("start", "ready, not traced: start-up CPU")
	summary("start-all", "ready for all: start-up CPU")
	printf "ratio shim / EventPipe (ours):         %.2f\n", med["shim"] / med["ep-ours"]
	printf "ratio shim / EventPipe (dotnet-trace): %.2f\n", med["shim"] / med["ep-dt"]
	printf "ratio shim batched / shim:             %.2f\n", med["shim-b"] / med["shim"]
	printf "ratio shim batched / EventPipe (ours): %.2f\n", med["shim-b"] / med["ep-ours"]
}' "$tmp/runs"
