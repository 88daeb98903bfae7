#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# bench_dotnet_cost: the cost of tracing stock .NET over EventPipe, ours
# beside dotnet-trace's, on an ASP.NET Core minimal API
# (tests/dotnet/aspapp) under loopback load (tests/progs/httpload: C
# keep-alive connections, one request in flight each).  Installed as
# $OUTPUT/bench_dotnet_cost, run by `make bench` (root).
#
# One app process serves every run.  Each round measures, in an order that
# rotates from round to round:
#   untraced     no session
#   ours         ebpf-collect -p PID (default profile)
#   ours-same    ebpf-collect -p PID --providers DT_PROVIDERS
#   dotnet-trace dotnet-trace collect -p PID --providers DT_PROVIDERS
# DT_PROVIDERS is the default profile's runtime provider and keywords
# (collector/README.md); both tools request the rundown and stacks.  Per
# traced run: the app's requests/s over the load window relative to the same
# round's untraced run, the tracer's CPU over the window (the sum of
# /proc/PID/task/*/schedstat, all its threads) in % of one core, and its
# peak RSS (VmHWM, last read before it exits).  Prints the median and
# min-max over rounds and the ratios ours/dotnet-trace.
#
# ROUNDS (7), SECONDS_LOAD (5, the load window), CONNS (16), URL_PATH (/json).
set -uo pipefail
OUTPUT=${OUTPUT:-$(cd "$(dirname "$0")" && pwd)}
ROOT=${ROOT:-$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)}
EC=$OUTPUT/ebpf-collect
LOAD=$OUTPUT/tests/httpload
DT=${DOTNET_TRACE:-/usr/local/lib/ebpf-collect/dotnet-tools/dotnet-trace}
APP_DIR=$OUTPUT/tests/dotnet/aspapp
APP=$APP_DIR/aspapp.dll
ROUNDS=${ROUNDS:-7}
SECS=${SECONDS_LOAD:-5}
CONNS=${CONNS:-16}
URL_PATH=${URL_PATH:-/json}
PORT=${PORT:-$((20000 + $$ % 20000))}
DT_PROVIDERS=${DT_PROVIDERS:-Microsoft-Windows-DotNETRuntime:0x14C14FCCBD:4}
MODES=(untraced ours ours-same dotnet-trace)
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

[[ $EUID -eq 0 ]] || { echo "bench_dotnet_cost: needs root" >&2; exit 1; }
[[ -x $EC && -x $LOAD ]] || { echo "bench_dotnet_cost: build first (make)" >&2; exit 1; }
command -v dotnet >/dev/null || { echo "bench_dotnet_cost: no dotnet: skipped"; exit 0; }
[[ -x $DT ]] || { echo "bench_dotnet_cost: no dotnet-trace at $DT: skipped"; exit 0; }
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
src=$ROOT/tests/dotnet/aspapp
if [[ ! -f $APP || $src/Program.cs -nt $APP || $src/aspapp.csproj -nt $APP ]]; then
	dotnet build "$src/aspapp.csproj" -c Release -o "$APP_DIR" \
		-p:BaseIntermediateOutputPath="$OUTPUT/tests/dotnet/obj-aspapp/" >"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log" >&2; exit 1; }
fi

waitfor() {	# waitfor FILE PATTERN [PID]: up to 30 s, while PID lives
	for _ in $(seq 600); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		[[ -n ${3:-} ]] && ! kill -0 "$3" 2>/dev/null && return 1
		sleep 0.05
	done
	return 1
}
task_ns() {	# CPU ns of every live thread of PID
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%d\n", s}'
}
hwm_kb() { awk '/^VmHWM/ {print $2}' /proc/"$1"/status 2>/dev/null; }

dotnet "$APP" "$PORT" >"$tmp/app.out" 2>&1 &
app=$!
waitfor "$tmp/app.out" READY "$app" || { echo "bench_dotnet_cost: the app did not start:" >&2; cat "$tmp/app.out" >&2; exit 1; }
# tiered compilation settles before the first measured run
"$LOAD" -c "$CONNS" -w 0 -d 5 -p "$URL_PATH" "$PORT" >/dev/null || exit 1

# run MODE ROUND: appends "mode round rps cpu_pct hwm_kb" to $tmp/runs
run() {
	local mode=$1 round=$2 out=$tmp/$1.$2 ready c0 c1 t0 t1 hwm=0 h
	tracer=
	# a background job of a script starts with SIGINT ignored, and .NET
	# keeps it so: the tracers get it back, to stop as on Ctrl-C
	case $mode in
	ours) env --default-signal=INT "$EC" -p "$app" -o "$out.nettrace" >"$out.log" 2>&1 & tracer=$!; ready="Ctrl-C" ;;
	ours-same) env --default-signal=INT "$EC" -p "$app" -o "$out.nettrace" --providers "$DT_PROVIDERS" >"$out.log" 2>&1 &
		tracer=$!; ready="Ctrl-C" ;;
	dotnet-trace) env --default-signal=INT "$DT" collect -p "$app" -o "$out.nettrace" --providers "$DT_PROVIDERS" \
		</dev/null >"$out.log" 2>&1 & tracer=$!; ready="^Output File" ;;
	esac
	if [[ -n $tracer ]]; then
		waitfor "$out.log" "$ready" "$tracer" ||
			{ echo "bench_dotnet_cost: $mode did not start:" >&2; cat "$out.log" >&2; exit 1; }
		c0=$(task_ns "$tracer")
	fi
	t0=$(date +%s%N)
	"$LOAD" -c "$CONNS" -w 1 -d "$SECS" -p "$URL_PATH" "$PORT" >"$out.json" || exit 1
	t1=$(date +%s%N)
	local cpu=0
	if [[ -n $tracer ]]; then
		c1=$(task_ns "$tracer")
		cpu=$(awk -v a="$c0" -v b="$c1" -v t="$((t1 - t0))" 'BEGIN {printf "%.2f", 100 * (b - a) / t}')
		kill -INT "$tracer"
		local deadline=$((SECONDS + 60))
		while kill -0 "$tracer" 2>/dev/null; do
			h=$(hwm_kb "$tracer")
			[[ -n $h ]] && ((h > hwm)) && hwm=$h
			((SECONDS < deadline)) ||
				{ echo "bench_dotnet_cost: $mode had not stopped 60 s after SIGINT" >&2; exit 1; }
			sleep 0.05
		done
		wait "$tracer" 2>/dev/null
		tracer=
		[[ -s $out.nettrace ]] || { echo "bench_dotnet_cost: $mode wrote no trace:" >&2; cat "$out.log" >&2; exit 1; }
	fi
	local rps
	rps=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rps"])' "$out.json")
	echo "$mode $round $rps $cpu $hwm" >>"$tmp/runs"
	rm -f "$out.nettrace"
}

: >"$tmp/runs"
for r in $(seq "$ROUNDS"); do
	n=${#MODES[@]}
	for i in $(seq 0 $((n - 1))); do
		run "${MODES[$(((i + r - 1) % n))]}" "$r"
	done
done

stats() {	# numbers on stdin -> "median min max" (printf FMT)
	sort -g | awk -v f="$1" '{a[NR]=$1} END {printf f " " f " " f, a[int((NR+1)/2)], a[1], a[NR]}'
}
# column VALUE MODE: per-round values (rel = rps / the round's untraced rps)
column() {
	awk -v m="$2" -v what="$1" '
		{ rps[$1, $2] = $3; cpu[$1, $2] = $4; hwm[$1, $2] = $5; if ($2 > n) n = $2 }
		END { for (r = 1; r <= n; r++) {
			if (what == "rel") print rps[m, r] / rps["untraced", r]
			else if (what == "rps") print rps[m, r]
			else if (what == "cpu") print cpu[m, r]
			else print hwm[m, r] / 1024 } }' "$tmp/runs"
}
median() { column "$1" "$2" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "ASP.NET Core minimal API (GET $URL_PATH), $CONNS loopback connections, ${SECS} s windows,"
echo "$ROUNDS paired rounds; same providers: $DT_PROVIDERS (+ rundown, stacks)"
printf "%-14s %-26s %-26s %-24s %s\n" mode "requests/s med (min-max)" "rel. untraced med (min-max)" \
	"tracer CPU % med (min-max)" "peak RSS MB med (min-max)"
for m in "${MODES[@]}"; do
	if [[ $m == untraced ]]; then
		printf "%-14s %-26s\n" "$m" "$(column rps "$m" | stats %.0f)"
		continue
	fi
	printf "%-14s %-26s %-26s %-24s %s\n" "$m" "$(column rps "$m" | stats %.0f)" \
		"$(column rel "$m" | stats %.3f)" "$(column cpu "$m" | stats %.2f)" "$(column hwm "$m" | stats %.1f)"
done
wins=$(awk '{ rps[$1, $2] = $3; if ($2 > n) n = $2 }
	END { for (r = 1; r <= n; r++) w += rps["ours-same", r] >= rps["dotnet-trace", r]; print w "/" n }' "$tmp/runs")
for m in ours ours-same; do
	awk -v m="$m" -v rel="$(median rel "$m")" -v drel="$(median rel dotnet-trace)" \
		-v cpu="$(median cpu "$m")" -v dcpu="$(median cpu dotnet-trace)" \
		-v hwm="$(median hwm "$m")" -v dhwm="$(median hwm dotnet-trace)" 'BEGIN {
		printf "%-10s / dotnet-trace: throughput %.3f, tracer CPU %.2f, peak RSS %.2f\n", m, rel / drel,
			(dcpu > 0 ? cpu / dcpu : 0), (dhwm > 0 ? hwm / dhwm : 0) }'
done
echo "ours-same at or above dotnet-trace's throughput in $wins rounds"
