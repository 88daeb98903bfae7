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
#   2. throughput, one producer thread into a 64 MiB ring, TPUT_REPS rounds
#      of, in alternating order, the producer as fast as possible into
#      a consumer that only counts (--bench-count-only: the ring read, no
#      ordering, no writing) and into the full collector; then paced runs of
#      ~1 s, fastest of RATES first, until one has 0 loss.  Printed against
#      each other (same round, median [min..max]): the producer's max rate,
#      the count-only consumer's ceiling, the full collector's sustained
#      rate, so that a reader sees whether the producer or the consumer
#      limits.  Target: the full collector >= 8 M events/s with 0 loss.
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
REPS=${REPS:-7}
TPUT_REPS=${TPUT_REPS:-7}
FAST_N=${FAST_N:-10000000}
N=${N:-51200}
BURST=${BURST:-1024}
RATE=${RATE:-100000}
RATES=${RATES:-"16000000 14000000 12000000 10000000 9000000 8000000 7000000 6000000 5000000 4000000 3000000 2000000"}
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

# --- 2. throughput: producer, count-only consumer, full collector ---------
# Each round, in alternating order: the producer as fast as possible under
# the count-only consumer (the cheapest reader of the ring: its rate is the
# producer's own limit) and under the full collector; then the paced rates
# (fastest first) until one has 0 loss, for the full collector, and for the
# count-only one if it lost events as fast as possible.  None above that
# round's producer rate (it cannot fire faster), nor above 1.5x what that
# consumer read as fast as possible (events fired - lost, per second): the
# excess of a 1 s run there is more than the ring holds (~0.8 M events)
# from 1.6 M events/s on, so it loses for certain.
t0=$(date +%s)
rate_of() { awk -v f="$(jget "$1" events)" -v s="$(jget "$1" seconds)" 'BEGIN {printf "%.0f", f / s}'; }
# ns of the collector's CPU per event it read from the ring: while tracing
# and in the stop, which reads what is left (start-up left out)
cpu_per_event() {
	awk -v f="$2" -v l="$3" '/while tracing/ {for (i = 1; i < NF; i++) {
		if ($i == "tracing" || $i == "write-out") t += $(i + 1) }}
		END {if (f - l > 0) printf "%.1f", t * 1e9 / (f - l); else print "-"}' "$1"
}
# ladder NAME MAX COLLECTOR-ARGS: the fastest rate of RATES up to MAX with 0
# loss; its events/s ("got") on stdout, 0 if none; the runs in $tmp/ladder
ladder() {
	local name=$1 max=$2 drained=$3 rate got lost
	shift 3
	for rate in $RATES; do
		((rate <= max && rate <= drained * 3 / 2)) || continue
		echo "bench_batched: $name paced at $rate/s" >&2
		collector_run lad --batched --no-user-stack -b 64 "$@" -- -s 64 -n "$rate" -r "$rate" \
			-b "$BURST"
		got=$(rate_of "$tmp/lad.json")
		lost=$(lost_of "$tmp/lad.err")
		printf "%-10s %-22s %12s %10s %10s\n" "$name" "paced at $rate/s" "$got" \
			"$(jget "$tmp/lad.json" events)" "${lost:-?}" >>"$tmp/ladder"
		[[ $lost == 0 ]] && { echo "$got"; return; }
	done
	echo 0
}
: >"$tmp/ladder"
for ((rep = 0; rep < TPUT_REPS; rep++)); do
	modes=(co full)
	((rep % 2)) && modes=(full co)
	for m in "${modes[@]}"; do
		echo "bench_batched: throughput round $((rep + 1))/$TPUT_REPS, $m, as fast as possible" >&2
		extra=()
		[[ $m == co ]] && extra=(--bench-count-only)
		collector_run "f$m" --batched --no-user-stack -b 64 "${extra[@]}" -- -s 64 -n "$FAST_N"
		fired=$(jget "$tmp/f$m.json" events)
		lost=$(lost_of "$tmp/f$m.err")
		echo "$(rate_of "$tmp/f$m.json") $fired ${lost:-?} $(cpu_per_event "$tmp/f$m.err" \
			"$fired" "${lost:-0}") $(awk -v f="$fired" -v l="${lost:-0}" \
			-v s="$(jget "$tmp/f$m.json" seconds)" 'BEGIN {printf "%.0f", (f - l) / s}')" \
			>"$tmp/f$m.line"
	done
	read -r prod _ co_lost co_ns co_drained <"$tmp/fco.line"
	read -r full_fast _ full_lost full_ns full_drained <"$tmp/ffull.line"
	printf "%-10s %-22s %12s %10s %10s\n" count-only "as fast as possible" "$prod" "$FAST_N" \
		"$co_lost" >>"$tmp/ladder"
	printf "%-10s %-22s %12s %10s %10s\n" full "as fast as possible" "$full_fast" "$FAST_N" \
		"$full_lost" >>"$tmp/ladder"
	# the count-only consumer keeps up with the producer's fastest: its
	# ceiling is at least that, and the producer is what limits it
	ceil=$prod
	co_bound=">="
	if [[ $co_lost != 0 ]]; then
		ceil=$(ladder count-only "$prod" "$co_drained" --bench-count-only)
		co_bound=""
	fi
	full=$(ladder full "$prod" "$full_drained")
	echo "$prod $co_bound$ceil $full $co_ns $full_ns" >>"$tmp/rounds"
	echo "$prod" >>"$tmp/t.prod"
	echo "$ceil" >>"$tmp/t.ceil"
	echo "$full" >>"$tmp/t.full"
	echo "$co_ns" >>"$tmp/t.cons"
	echo "$full_ns" >>"$tmp/t.fulns"
	[[ -n $co_bound ]] && echo >>"$tmp/t.co_bound"
	awk -v a="$full" -v b="$ceil" 'BEGIN {printf "%.3f\n", a / b}' >>"$tmp/r.full_ceil"
	awk -v a="$ceil" -v b="$prod" 'BEGIN {printf "%.3f\n", a / b}' >>"$tmp/r.ceil_prod"
	awk -v a="$full" -v b="$prod" 'BEGIN {printf "%.3f\n", a / b}' >>"$tmp/r.full_prod"
done
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
echo "Throughput, 1 producer thread, --batched, 64 MiB ring, $TPUT_REPS rounds.  Each round, in"
echo "alternating order: as fast as possible ($FAST_N events) into the count-only consumer"
echo "(--bench-count-only: the ring read and its records counted, nothing ordered or written;"
echo "its rate is the producer's own limit) and into the full collector; then paced runs of"
echo "~1 s (fastest first, none above that round's producer rate nor 1.5x what the consumer"
echo "read as fast as possible) until one has 0 loss."
echo "The runs of the last round:"
printf "%-10s %-22s %12s %10s %10s\n" consumer run "events/s" fired lost
last=$(grep -c "as fast as possible" "$tmp/ladder")
awk -v n="$last" '/as fast as possible/ {k++} k >= n - 1' "$tmp/ladder"
echo "Per round: producer max, count-only ceiling (>=: no loss at the producer's max), full"
echo "collector sustained with 0 loss (events/s); the collector's CPU (tracing and the stop,"
echo "start-up left out) per event it read, as fast as possible (ns):"
printf "%-6s %12s %12s %12s %12s %12s\n" round producer count-only full "co ns/ev" "full ns/ev"
awk '{printf "%-6d %12s %12s %12s %12s %12s\n", NR, $1, $2, $3, $4, $5}' "$tmp/rounds"
line() {	# LABEL FILE: median [min..max]
	read -r md lo hi < <(stats <"$2")
	printf "%-46s %12s  [%s..%s]\n" "$1" "$md" "$lo" "$hi"
}
co_bound=$([[ $(wc -l <"$tmp/t.co_bound" 2>/dev/null || echo 0) -eq $TPUT_REPS ]] && echo ">= ")
# the count-only consumer kept up in every round: its ceiling is a bound
line "producer-limited max rate (events/s)" "$tmp/t.prod"
line "consumer ceiling, count-only (events/s)${co_bound:+ (>=)}" "$tmp/t.ceil"
line "full collector, sustained with 0 loss (events/s)" "$tmp/t.full"
line "full / count-only ceiling${co_bound:+ (<=)}" "$tmp/r.full_ceil"
line "count-only ceiling / producer max${co_bound:+ (>=)}" "$tmp/r.ceil_prod"
line "full / producer max" "$tmp/r.full_prod"
line "count-only consumer CPU per event (ns)" "$tmp/t.cons"
awk '$1 != "-" && $1 > 0 {printf "%.0f\n", 1e9 / $1}' "$tmp/t.cons" >"$tmp/t.concap"
line "count-only on a core of its own (1e9/ns)" "$tmp/t.concap"
line "full collector CPU per event (ns)" "$tmp/t.fulns"
awk '$1 != "-" && $1 > 0 {printf "%.0f\n", 1e9 / $1}' "$tmp/t.fulns" >"$tmp/t.fulcap"
line "full collector on a core of its own (1e9/ns)" "$tmp/t.fulcap"
read -r sustained _ < <(stats <"$tmp/t.full")
read -r r_fc _ < <(stats <"$tmp/r.full_ceil")
read -r r_cp _ < <(stats <"$tmp/r.ceil_prod")
awk -v fc="$r_fc" -v cp="$r_cp" 'BEGIN {
	if (cp >= 0.95 && fc < 0.95)
		print "The consumer limits: the ring is read as fast as the producer fills it, and the full"
	else if (cp >= 0.95)
		print "The producer limits: both consumers keep up with it"
	else
		print "The ring read itself limits: the count-only consumer loses events below the producer'"'"'s"
	if (cp >= 0.95 && fc < 0.95)
		printf "collector keeps %.0f %% of that rate (its ordering and writing limit it).\n", fc * 100
	else if (cp < 0.95)
		print "max."
}'
verdict=$(awk -v s="$sustained" -v t="$TPUT_TARGET" 'BEGIN {if (s >= t) print "met"; else printf "MISSED by %d ev/s", t - s}')
echo "sustained with 0 loss: $sustained events/s per thread, median (target >= $TPUT_TARGET: $verdict)"
echo
echo "Same run both ways (2 threads x 200000 events at 500000/s, payload numbered, activity ids):"
echo "  $equal"
echo
ok=$([[ $((ov_in + ov_lost)) == "$ov_fired" ]] && echo "counted exactly" || echo "MISMATCH")
echo "Overload, 2 threads as fast as possible into a 1 MiB ring: fired $ov_fired = $ov_in in the file"
echo "  + $ov_lost counted lost: $ok"
echo "(bench_batched took: cost $t_cost s, throughput $t_tput s)"
