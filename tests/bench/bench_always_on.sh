#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# bench_always_on: the costs of always-on tracing (installed as
# $OUTPUT/bench_always_on, run by `make bench`, needs root).
#
#  1. Flight recorder at RATE events/s for DUR s (usdt_testprog, one thread,
#     GCStart_V2 with its stack) with a WINDOW-second window: the collector's
#     RSS once the first window is full, and its largest RSS after that
#     (target: within 10 %); a SIGUSR1 dump: events, lost (target 0).
#  2. --dump-on: how long after the matching event its file is complete
#     (the collector's own measure; target 200 ms), TRIG dumps.
#  3. --all on this host with no runtime running: the collector's CPU in
#     steady state, IDLE s after start-up (target < 0.5 % of one core).
#  5. The node daemon (`ebpf-collect daemon`, its always-on defaults:
#     --all, V6, flight recorder 60 s written every 10 min, --cpu-sampling
#     99 Hz, --clickhouse to an address where nothing listens, so every
#     export lands in its spool): CPU and RSS of its collector on this host
#     with no runtime (IDLE s), then with usdt_testprog at RATE events/s
#     (DDUR s); export bytes per minute (the spool's growth under load).
#  4. --filter in the kernel: refrt's mixed scenario traced twice, with and
#     without a filter that keeps one exception type of three and GCs of
#     generation 2: the share of the runtime's events dropped against the
#     share of ring-buffer bytes saved.
set -uo pipefail
OUTPUT=${OUTPUT:-$(cd "$(dirname "$0")" && pwd)}
EC=$OUTPUT/ebpf-collect
TP=$OUTPUT/tests/usdt_testprog
REFRT=$OUTPUT/refrt
RATE=${RATE:-100000}
DUR=${DUR:-120}
WINDOW=${WINDOW:-10}
IDLE=${IDLE:-20}
TRIG=${TRIG:-5}
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT

[[ $EUID -eq 0 ]] || { echo "bench_always_on: needs root" >&2; exit 1; }
[[ -x $EC && -x $TP && -x $REFRT ]] || { echo "bench_always_on: build first (make)" >&2; exit 1; }

tck=$(getconf CLK_TCK)
cpu_s() { awk -v t="$tck" '{ sub(/^.*\) /, ""); print ($12 + $13) / t }' "/proc/$1/stat"; }
rss_mb() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
wait_grep() {	# PATTERN FILE
	local i
	for ((i = 0; i < 400; i++)); do
		grep -q -- "$1" "$2" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
verdict() {	# OK-CONDITION(awk) TEXT
	if awk "BEGIN { exit !($1) }"; then echo "met ($2)"; else echo "MISSED ($2)"; fi
}

flight() {
	local tp col first max=0 r t
	"$TP" -n $((RATE * DUR)) -r "$RATE" -w 30 >/dev/null 2>&1 &
	tp=$!; pids+=("$tp")
	"$EC" -p "$tp" --flight-recorder "${WINDOW}s" -o "$tmp/fr.nettrace" 2>"$tmp/fr.err" &
	col=$!; pids+=("$col")
	wait_grep "tracing .* probes" "$tmp/fr.err" || { cat "$tmp/fr.err" >&2; return 1; }
	sleep $((WINDOW + 2))
	first=$(rss_mb "$col")
	for ((t = WINDOW + 2; t < DUR - 5; t += 5)); do
		sleep 5
		r=$(rss_mb "$col")
		max=$(awk -v a="$max" -v b="$r" 'BEGIN { print (b > a ? b : a) }')
	done
	kill -USR1 "$col"
	wait_grep "(SIGUSR1): wrote" "$tmp/fr.err"
	kill -INT "$col"; wait "$col"
	kill -INT "$tp" 2>/dev/null; wait "$tp" 2>/dev/null
	local line ev lost
	line=$(grep "(SIGUSR1): wrote" "$tmp/fr.err")
	ev=$(sed 's/.*: \([0-9]*\) events.*/\1/' <<<"$line")
	lost=$(sed 's/.* events, \([0-9]*\) lost.*/\1/' <<<"$line")
	echo "1. flight recorder, $RATE events/s for $DUR s, ${WINDOW}s window:"
	printf "   RSS after the first window %s MB, largest later %s MB: %+.1f %%  %s\n" "$first" "$max" \
		"$(awk -v a="$first" -v b="$max" 'BEGIN { print (b - a) / a * 100 }')" \
		"$(verdict "($max - $first) / $first <= 0.10" "target within 10 %")"
	echo "   SIGUSR1 dump: $ev events (${WINDOW} s at $RATE/s = $((RATE * WINDOW))), $lost lost  $(verdict "$lost == 0" "target 0 lost")"
	grep "dropped" "$tmp/fr.err" | sed 's/^ebpf-collect: /   collector: /'
}

trigger() {
	local rt col
	"$REFRT" --scenario exceptions --duration 60 --rate 200 --threads 2 --summary /dev/null \
		>/dev/null 2>&1 &
	rt=$!; pids+=("$rt")
	"$EC" -p "$rt" --flight-recorder 1s -o "$tmp/tr.nettrace" \
		--dump-on 'ExceptionThrown_V1:ExceptionType==System.InvalidOperationException' 2>"$tmp/tr.err" &
	col=$!; pids+=("$col")
	local i
	for ((i = 0; i < 600; i++)); do
		(($(grep -c "ExceptionType==System.InvalidOperationException): wrote" "$tmp/tr.err") >= TRIG)) && break
		sleep 0.1
	done
	kill -INT "$col"; wait "$col"
	kill -INT "$rt"; wait "$rt" 2>/dev/null
	grep "InvalidOperationException): wrote" "$tmp/tr.err" | head -"$TRIG" |
		sed 's/.*complete \([0-9]*\) ms after it/\1/' | sort -n >"$tmp/lat"
	local md lo hi
	md=$(awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}' "$tmp/lat")
	lo=$(head -1 "$tmp/lat"); hi=$(tail -1 "$tmp/lat")
	echo "2. --dump-on: file complete after the matching event: median $md ms, min $lo, max $hi" \
		"($(wc -l <"$tmp/lat") dumps)  $(verdict "$hi <= 200" "target 200 ms")"
}

all_idle() {
	local col c1 c2 t1 t2 pct
	"$EC" --all -o "$tmp/all.nettrace" 2>"$tmp/all.err" &
	col=$!; pids+=("$col")
	wait_grep "tracing .* probes\|processes traced" "$tmp/all.err" || { cat "$tmp/all.err" >&2; return 1; }
	sleep 3
	c1=$(cpu_s "$col"); t1=$(date +%s.%N)
	sleep "$IDLE"
	c2=$(cpu_s "$col"); t2=$(date +%s.%N)
	kill -INT "$col"; wait "$col"
	pct=$(awk -v a="$c1" -v b="$c2" -v s="$t1" -v e="$t2" 'BEGIN { printf "%.3f", (b - a) / (e - s) * 100 }')
	echo "3. --all, no runtime on the host: ${pct} % of one core over $IDLE s after start-up" \
		"$(grep -o '[0-9]* execs seen' "$tmp/all.err" | head -1 | sed 's/^/(/; s/$/)/')  $(verdict "$pct < 0.5" "target < 0.5 %")"
}

filter_bytes() {
	local f out args
	for f in none kernel; do
		args=()
		[[ $f == kernel ]] && args=(--filter 'ExceptionThrown_V1:ExceptionType==System.FormatException'
					      --filter 'GCEnd_V1:Depth>=2')
		"$REFRT" --scenario mixed --iterations 2000 --rate 2000 --threads 2 --seed 3 \
			--wait-for-tracer 10 --summary "$tmp/$f.json" >/dev/null 2>&1 &
		pids+=($!)
		"$EC" -p $! -o "$tmp/$f.nettrace" "${args[@]}" 2>"$tmp/$f.err"
		wait
	done
	python3 - "$tmp" <<'PY'
import json, re, sys
d = sys.argv[1]
def ring(f):
    t = open("%s/%s.err" % (d, f)).read()
    m = re.search(r"ring buffer: (\d+) records, (\d+) bytes", t)
    k = re.search(r"--filter: (\d+) events dropped in the kernel", t)
    return int(m.group(1)), int(m.group(2)), int(k.group(1)) if k else 0
r0, b0, _ = ring("none")
r1, b1, dropped = ring("kernel")
fired = sum(json.load(open(d + "/kernel.json"))["events"].values())
share_ev = dropped / fired
share_b = 1 - b1 / b0
print("4. --filter in the kernel (mixed scenario, 2 x 2000 operations): %d of %d runtime events "
      "dropped (%.1f %%), ring-buffer bytes %d -> %d (%.1f %% less)  %s" %
      (dropped, fired, share_ev * 100, b0, b1, share_b * 100,
       "met (target: bytes cut by the share dropped)" if share_b >= share_ev * 0.9 else
       "MISSED (target: bytes cut by the share dropped)"))
PY
}

daemon_child() {	# DAEMON_PID ERR: the daemon's collector process
	local i c
	# the daemon forks a child that checks the config first and exits: the
	# trace's child is the one there once the trace says it is writing
	wait_grep "Ctrl-C to stop" "$2" || return 1
	for ((i = 0; i < 100; i++)); do
		c=$(pgrep -P "$1" | head -1)
		[[ -n $c ]] && { echo "$c"; return 0; }
		sleep 0.1
	done
	return 1
}

daemon_cost() {	# SECONDS ERR -> "cpu_pct rss_mb"
	local d=$1 c c1 c2 t1 t2
	c=$(daemon_child "$DPID" "$2") || return 1
	sleep 3
	c1=$(cpu_s "$c"); t1=$(date +%s.%N)
	sleep "$d"
	c2=$(cpu_s "$c"); t2=$(date +%s.%N)
	awk -v a="$c1" -v b="$c2" -v s="$t1" -v e="$t2" -v r="$(rss_mb "$c")" \
		'BEGIN { printf "%.2f %s", (b - a) / (e - s) * 100, r }'
}

daemon() {
	local dir=$tmp/daemon idle load tp s0 s1
	mkdir -p "$dir"
	"$EC" daemon -o "$dir" --cpu-sampling=99 --clickhouse http://127.0.0.1:9 \
		--spool "$dir/spool" --export-interval 10s 2>"$tmp/d1.err" &
	DPID=$!; pids+=("$DPID")
	idle=$(daemon_cost "$IDLE" "$tmp/d1.err") || { cat "$tmp/d1.err" >&2; return 1; }
	kill -TERM "$DPID"; wait "$DPID"
	"$TP" -n $((RATE * (DDUR + 20))) -r "$RATE" -w 30 >/dev/null 2>&1 &
	tp=$!; pids+=("$tp")
	"$EC" daemon -o "$dir" --cpu-sampling=99 --clickhouse http://127.0.0.1:9 \
		--spool "$dir/spool2" --export-interval 10s 2>"$tmp/d2.err" &
	DPID=$!; pids+=("$DPID")
	sleep 12	# attached, and one export interval passed
	s0=$(du -sb "$dir/spool2" 2>/dev/null | cut -f1)
	load=$(daemon_cost "$DDUR" "$tmp/d2.err") || { cat "$tmp/d2.err" >&2; return 1; }
	s1=$(du -sb "$dir/spool2" 2>/dev/null | cut -f1)
	kill -TERM "$DPID"; wait "$DPID"
	kill -INT "$tp" 2>/dev/null; wait "$tp" 2>/dev/null
	read -r ic ir <<<"$idle"
	read -r lc lr <<<"$load"
	echo "5. node daemon (defaults + --cpu-sampling=99 + --clickhouse, exports spooled):"
	echo "   idle host:           $ic % of one core, RSS $ir MB"
	echo "   $RATE events/s:    $lc % of one core, RSS $lr MB"
	awk -v a="${s0:-0}" -v b="${s1:-0}" -v d="$((DDUR + 3))" \
		'BEGIN { printf "   export: %.0f bytes per minute (spool growth over %d s)\n", (b - a) / d * 60, d }'
}

DDUR=${DDUR:-60}
echo "Always-on tracing: flight recorder, triggers, --all, --filter, the node daemon"
flight
trigger
all_idle
filter_bytes
daemon
