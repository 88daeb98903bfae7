#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# bench_batched: the batched in-process path against the per-event probe
# and LTTng-UST, side by side in one run (installed as $OUTPUT/bench_batched,
# run by `make bench`, needs root).
#
# The traced program is bench_probes -m clr (FireEtXplatGCDynamicEvent of the
# generated provider, 64-byte payload, no stack); LTTng-UST runs
# bench_probes_lttng -m lttng with the same bytes as a sequence field.
#   1. producer cost: CPU ns per event of the firing thread, paced at RATE
#      events/s in bursts of BURST (as bench-tracers), REPS interleaved runs
#      of: ebpf-collect (per-event probe), ebpf-collect --batched, LTTng-UST,
#      without stacks; and both ebpf-collect paths with user stacks (the
#      BPF walk vs the provider's own).  Target: batched <= 0.8x LTTng-UST.
#   2. throughput: one producer thread paced at a rate for ~1 s into a
#      64 MiB ring, fastest rate of RATES with 0 loss; and as fast as
#      possible.  Target: >= 8 M events/s with 0 loss.
#   3. the same run traced both ways (2 threads, -V -A: each event carries
#      its thread and index, activity ids set): equal event for event.
#   4. overload: 2 threads as fast as possible into a 1 MiB ring: fired ==
#      in the file + counted lost, exactly.
set -uo pipefail
OUTPUT=${OUTPUT:-$(cd "$(dirname "$0")" && pwd)}
ROOT=${ROOT:-$(cd "$OUTPUT/.." && pwd)}
EC=$OUTPUT/ebpf-collect
B=$OUTPUT/bench
PROBES=$B/bench_probes
REPS=${REPS:-5}
N=${N:-51200}
BURST=${BURST:-1024}
RATE=${RATE:-100000}
RATES=${RATES:-"16000000 12000000 10000000 8000000 6000000 4000000 2000000"}
LTTNG_TARGET=0.8
TPUT_TARGET=8000000

[[ $EUID -eq 0 ]] || { echo "bench_batched: needs root" >&2; exit 1; }
for f in "$EC" "$PROBES" "$B/bench_probes_lttng"; do
	[[ -x $f ]] || { echo "bench_batched: $f missing: run make bench" >&2; exit 1; }
done
tmp=$(mktemp -d)
export LTTNG_HOME=$tmp/lttng-home
mkdir -p "$LTTNG_HOME"
started_sessiond=
cleanup() {
	lttng destroy benchb >/dev/null 2>&1
	[[ -n $started_sessiond ]] && kill "$started_sessiond" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

have() { command -v "$1" >/dev/null 2>&1; }
jget() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())[sys.argv[2]])' "$1" "$2"; }
stats() { sort -g | awk '{v[NR] = $1} END {if (NR) printf "%s %s %s", v[int((NR + 1) / 2)], v[1], v[NR]}'; }
in_file() { grep -o '^ebpf-collect: [0-9]* events' "$1" | grep -o '[0-9]*'; }
lost_of() { grep -o 'dropped [0-9]* events' "$1" | grep -o '[0-9]*'; }

ensure_sessiond() {
	lttng list >/dev/null 2>&1 && return 0
	lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1 || return 1
	started_sessiond=$(cat /var/run/lttng/lttng-sessiond.pid 2>/dev/null)
	lttng list >/dev/null 2>&1
}

# collector_run NAME COLLECTOR-ARGS -- PROBES-ARGS: bench_probes -m clr
# traced by ebpf-collect; its JSON in $tmp/NAME.json, stderr in $tmp/NAME.err
collector_run() {
	local name=$1 cargs=() go=$tmp/go
	shift
	while [[ $1 != -- ]]; do
		cargs+=("$1")
		shift
	done
	shift
	rm -f "$go"
	"$PROBES" -m clr -w 30 -d 300 -g "$go" "$@" >"$tmp/$name.json" &
	local bp=$!
	"$EC" -p "$bp" -o "$tmp/$name.nettrace" --providers DotNETRuntime:0x1:5 \
		"${cargs[@]}" 2>"$tmp/$name.err" &
	local cp=$!
	wait "$bp"
	wait "$cp"
}

lttng_run() {	# PROBES-ARGS: bench_probes_lttng; its JSON in $tmp/lttng.json
	lttng create benchb --output="$tmp/lttng-trace" >/dev/null || return 1
	lttng enable-channel -u ch --subbuf-size=4M --num-subbuf=4 >/dev/null &&
		lttng enable-event -u -c ch bench_lttng:gc_dynamic >/dev/null &&
		lttng start >/dev/null || { lttng destroy benchb >/dev/null; return 1; }
	"$B/bench_probes_lttng" -m lttng -w 30 -d 300 -g "$tmp/go" "$@" >"$tmp/lttng.json"
	lttng stop >/dev/null 2>&1
	lttng destroy benchb >/dev/null 2>&1
	rm -rf "$tmp/lttng-trace"
}

# --- 1. producer cost ------------------------------------------------------
t0=$(date +%s)
lttng_ok=0
have lttng && have lttng-sessiond && ensure_sessiond && lttng_ok=1
pargs=(-s 64 -n "$N" -r "$RATE" -b "$BURST")
for ((rep = 0; rep < REPS; rep++)); do
	echo "bench_batched: cost run $((rep + 1))/$REPS" >&2
	collector_run per --no-user-stack -- "${pargs[@]}" &&
		jget "$tmp/per.json" cpu_ns_per_event >>"$tmp/c.per"
	collector_run bat --batched --no-user-stack -- "${pargs[@]}" &&
		jget "$tmp/bat.json" cpu_ns_per_event >>"$tmp/c.bat"
	collector_run pers -- "${pargs[@]}" && jget "$tmp/pers.json" cpu_ns_per_event >>"$tmp/c.pers"
	collector_run bats --batched -- "${pargs[@]}" &&
		jget "$tmp/bats.json" cpu_ns_per_event >>"$tmp/c.bats"
	[[ $(in_file "$tmp/bat.err") == "$N" ]] || echo "bench_batched: batched run lost events" >&2
	if ((lttng_ok)); then
		lttng_run "${pargs[@]}" && jget "$tmp/lttng.json" cpu_ns_per_event >>"$tmp/c.lttng"
	fi
done
read -r per_med per_min per_max < <(stats <"$tmp/c.per")
read -r bat_med bat_min bat_max < <(stats <"$tmp/c.bat")
read -r pers_med pers_min pers_max < <(stats <"$tmp/c.pers")
read -r bats_med bats_min bats_max < <(stats <"$tmp/c.bats")
lt_med=- lt_min=- lt_max=-
[[ -s $tmp/c.lttng ]] && read -r lt_med lt_min lt_max < <(stats <"$tmp/c.lttng")
t_cost=$(($(date +%s) - t0))

# --- 2. throughput ---------------------------------------------------------
t0=$(date +%s)
tput_lines=()
sustained=0
for rate in $RATES; do
	echo "bench_batched: throughput paced at $rate/s" >&2
	collector_run tp --batched --no-user-stack -b 64 -- -s 64 -n "$rate" -r "$rate" -b "$BURST"
	fired=$(jget "$tmp/tp.json" events)
	got=$(awk -v f="$fired" -v s="$(jget "$tmp/tp.json" seconds)" 'BEGIN {printf "%.0f", f / s}')
	lost=$(lost_of "$tmp/tp.err")
	tput_lines+=("$(printf "%-22s %12s %10s %10s" "paced at $rate/s" "$got" "$fired" "${lost:-?}")")
	if [[ $lost == 0 ]]; then
		sustained=$got
		break
	fi
done
collector_run tpf --batched --no-user-stack -b 64 -- -s 64 -n 20000000
fired=$(jget "$tmp/tpf.json" events)
full=$(awk -v f="$fired" -v s="$(jget "$tmp/tpf.json" seconds)" 'BEGIN {printf "%.0f", f / s}')
tput_lines+=("$(printf "%-22s %12s %10s %10s" "as fast as possible" "$full" "$fired" \
	"$(lost_of "$tmp/tpf.err")")")
t_tput=$(($(date +%s) - t0))

# --- 3. the same run both ways ----------------------------------------------
eq_args=(-s 64 -n 200000 -t 2 -r 500000 -V -A)
collector_run eqp --no-user-stack -- "${eq_args[@]}"
collector_run eqb --batched --no-user-stack -- "${eq_args[@]}"
"$EC" dump --json "$tmp/eqp.nettrace" >"$tmp/eqp.jsonl"
"$EC" dump --json "$tmp/eqb.nettrace" >"$tmp/eqb.jsonl"
equal=$(python3 "$ROOT/tests/batch_compare.py" "$tmp/eqp.jsonl" "$tmp/eqb.jsonl" 2 200000 | head -3)

# --- 4. overload -------------------------------------------------------------
collector_run ov --batched --no-user-stack -b 1 -- -s 64 -n 3000000 -t 2
ov_fired=$(jget "$tmp/ov.json" events)
ov_in=$(in_file "$tmp/ov.err")
ov_lost=$(lost_of "$tmp/ov.err")

# --- report ------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == "-" || b == 0) print "-"; else printf "%.2f", a / b}'; }
r_lt=$(ratio "$bat_med" "$lt_med")
echo "Batched in-process path vs the per-event probe and LTTng-UST (bench_probes -m clr,"
echo "GCDynamicEvent, 64 B payload; no stack unless said).  Producer = CPU ns of the firing thread per"
echo "event, paced at $RATE events/s in bursts of $BURST, $N events per run, $REPS runs interleaved."
printf "%-36s %10s %10s %10s\n" "producer" median min max
printf "%-36s %10s %10s %10s\n" "ebpf-collect, per-event probe" "$per_med" "$per_min" "$per_max"
printf "%-36s %10s %10s %10s\n" "ebpf-collect --batched" "$bat_med" "$bat_min" "$bat_max"
printf "%-36s %10s %10s %10s\n" "LTTng-UST 2.13 (records no stack)" "$lt_med" "$lt_min" "$lt_max"
printf "%-36s %10s %10s %10s\n" "ebpf-collect, per-event, user stack" "$pers_med" "$pers_min" "$pers_max"
printf "%-36s %10s %10s %10s\n" "ebpf-collect --batched, user stack" "$bats_med" "$bats_min" "$bats_max"
verdict=$(awk -v r="$r_lt" -v t="$LTTNG_TARGET" 'BEGIN {if (r == "-") print "not measured (no LTTng)"; else if (r <= t) print "met"; else printf "MISSED by %.2fx", r - t}')
echo "batched / LTTng-UST: $r_lt (target <= $LTTNG_TARGET: $verdict); per-event / batched: $(ratio "$per_med" "$bat_med")x"
echo "with user stacks (bench_probes' stack is 4 frames deep): per-event / batched: $(ratio "$pers_med" "$bats_med")x"
echo
echo "Throughput, 1 producer thread, --batched, 64 MiB ring, ~1 s per paced run (fastest first;"
echo "stops at the first rate with 0 loss):"
printf "%-22s %12s %10s %10s\n" run "events/s" fired lost
printf '%s\n' "${tput_lines[@]}"
verdict=$(awk -v s="$sustained" -v t="$TPUT_TARGET" 'BEGIN {if (s >= t) print "met"; else printf "MISSED by %d ev/s", t - s}')
echo "sustained with 0 loss: $sustained events/s per thread (target >= $TPUT_TARGET: $verdict)"
echo
echo "Same run both ways (2 threads x 200000 events at 500000/s, payload numbered, activity ids):"
echo "  $equal"
echo
ok=$([[ $((ov_in + ov_lost)) == "$ov_fired" ]] && echo "counted exactly" || echo "MISMATCH")
echo "Overload, 2 threads as fast as possible into a 1 MiB ring: fired $ov_fired = $ov_in in the file"
echo "  + $ov_lost counted lost: $ok"
echo "(bench_batched took: cost $t_cost s, throughput $t_tput s)"
