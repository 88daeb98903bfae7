#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# bench_eventpipe: the EventPipe path (stock .NET, session over IPC) next to
# the USDT path, on the same event mix: one small event (a 4-byte and a
# 26-byte payload) fired in a loop by one thread, with stacks, as fast as
# it goes.  Installed as $OUTPUT/bench_eventpipe, run by `make bench` (root).
#
#  EventPipe: tests/dotnet/evtapp --bench N fires N EventSource events
#    (EvtApp-Marker/Marker, Int32) and reports its own thread's CPU time per
#    event: without a session, and with ebpf-collect's session (the runtime
#    writes the event and its stack into its buffers; its streaming thread
#    and the collector run on the other CPU).
#  USDT: usdt_testprog firing DotNETRuntime:GCStart_V2 (bench_collector's
#    target): semaphore off, and traced with user stacks.
#  Both: events/s delivered into the file (events in the file / the
#  target's wall time) and events lost.
set -uo pipefail
OUTPUT=${OUTPUT:-$(cd "$(dirname "$0")" && pwd)}
ROOT=${ROOT:-$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)}
EC=$OUTPUT/ebpf-collect
TP=$OUTPUT/tests/usdt_testprog
APP_DIR=$OUTPUT/tests/dotnet/evtapp
APP=$APP_DIR/evtapp.dll
N=${N:-2000000}
REPS=${REPS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[[ $EUID -eq 0 ]] || { echo "bench_eventpipe: needs root" >&2; exit 1; }
[[ -x $EC && -x $TP ]] || { echo "bench_eventpipe: build first (make)" >&2; exit 1; }
command -v dotnet >/dev/null || { echo "bench_eventpipe: no dotnet: skipped"; exit 0; }
if [[ ! -f $APP ]]; then
	dotnet build "$ROOT/tests/dotnet/evtapp/evtapp.csproj" -c Release -o "$APP_DIR" \
		-p:BaseIntermediateOutputPath="$OUTPUT/tests/dotnet/obj/" >"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log" >&2; exit 1; }
fi

field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
stats() {	# numbers on stdin -> "median min max"
	sort -n | awk '{a[NR]=$1} END {printf "%8.1f %8.1f %8.1f", a[int((NR+1)/2)], a[1], a[NR]}'
}
waitfor() {	# waitfor FILE PATTERN
	for _ in $(seq 600); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# one EventPipe run: "cpu_ns_per_event delivered lost seconds"
ep_traced() {
	rm -f "$tmp/go" "$tmp/t.nettrace"
	dotnet "$APP" --wait "$tmp/go" --bench "$N" --linger >"$tmp/app.out" 2>&1 &
	local app=$! col
	waitfor "$tmp/app.out" READY || { kill "$app"; return 1; }
	"$EC" -p "$app" -o "$tmp/t.nettrace" --providers EvtApp-Marker >"$tmp/ec.out" 2>&1 &
	col=$!
	waitfor "$tmp/ec.out" "Ctrl-C" || { kill "$app" "$col"; return 1; }
	touch "$tmp/go"
	waitfor "$tmp/app.out" DONE
	kill -INT "$col"
	wait "$col"
	kill "$app"
	wait "$app" 2>/dev/null
	grep '^{' "$tmp/app.out" >"$tmp/b.json"
	local delivered lost
	delivered=$(grep -o 'CollectTracing[0-9]*): [0-9]* events' "$tmp/ec.out" | grep -o '[0-9]* events' | grep -o '[0-9]*')
	lost=$(grep -o '[0-9]* lost in the runtime' "$tmp/ec.out" | grep -o '^[0-9]*')
	echo "$(field "$tmp/b.json" cpu_ns_per_event) ${delivered:-?} ${lost:-?} $(field "$tmp/b.json" seconds)"
}

# one USDT run: "cpu_ns_per_call delivered lost seconds"
usdt_traced() {
	rm -f "$tmp/u.nettrace"
	"$TP" -n "$N" -w 10 >"$tmp/tp.json" 3>&- &
	local tp=$!
	sleep 0.2
	"$EC" -p "$tp" -o "$tmp/u.nettrace" -b 256 >"$tmp/uec.out" 2>&1
	wait "$tp"
	local delivered lost
	delivered=$(grep -o '^ebpf-collect: [0-9]* events' "$tmp/uec.out" | grep -o '[0-9]*')
	lost=$(grep -o 'dropped [0-9]* events' "$tmp/uec.out" | grep -o '[0-9]*')
	echo "$(field "$tmp/tp.json" cpu_ns_per_call) ${delivered:-?} ${lost:-?} $(field "$tmp/tp.json" seconds)"
}

echo "EventPipe path vs USDT path: ns per event in the target (calling thread's CPU time;"
echo "median min max over $REPS runs of $N events, 1 thread, user stacks) and events/s into the file"
printf "%-42s %8s %8s %8s %12s %8s\n" path median min max "events/s" lost
for r in $(seq "$REPS"); do
	dotnet "$APP" --bench "$N" | grep '^{' >"$tmp/b.json"
	field "$tmp/b.json" cpu_ns_per_event
done | stats >"$tmp/s"
printf "%-42s %s %12s %8s\n" "EventPipe: untraced (EventSource disabled)" "$(cat "$tmp/s")" - -
: >"$tmp/runs"
for r in $(seq "$REPS"); do ep_traced >>"$tmp/runs"; done
rate=$(awk '{printf "%.0f\n", $2 / $4}' "$tmp/runs" | sort -n | sed -n "$(((REPS + 1) / 2))p")
printf "%-42s %s %12s %8s\n" "EventPipe: ebpf-collect session" "$(cut -d' ' -f1 "$tmp/runs" | stats)" \
	"$rate" "$(awk '{s+=$3} END {print s}' "$tmp/runs")"
for r in $(seq "$REPS"); do
	"$TP" -n "$N" >"$tmp/u.json"
	field "$tmp/u.json" cpu_ns_per_call
done | stats >"$tmp/s"
printf "%-42s %s %12s %8s\n" "USDT: untraced (semaphore off)" "$(cat "$tmp/s")" - -
: >"$tmp/runs"
for r in $(seq "$REPS"); do usdt_traced >>"$tmp/runs"; done
rate=$(awk '{printf "%.0f\n", $2 / $4}' "$tmp/runs" | sort -n | sed -n "$(((REPS + 1) / 2))p")
printf "%-42s %s %12s %8s\n" "USDT: ebpf-collect, BPF program" "$(cut -d' ' -f1 "$tmp/runs" | stats)" \
	"$rate" "$(awk '{s+=$3} END {print s}' "$tmp/runs")"
