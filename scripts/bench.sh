#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench`: run every benchmark program (.output/bench_*) in one run on
# this machine, print their tables, and write BENCHMARKS.md with the machine
# description and the command that reproduces them.  Each benchmark compares
# side by side within its own run and prints ratios (median, min, max).
set -uo pipefail
cd "$(dirname "$0")/.."
OUTPUT=${OUTPUT:-$PWD/.output}
export OUTPUT SHARED=${SHARED:-$(cd .. && pwd)/shared}
md=${BENCH_MD:-BENCHMARKS.md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
{
	echo "# Benchmarks"
	echo
	echo "Produced by one \`make bench\` run on $(date -u +%Y-%m-%d) (UTC)."
	echo
	echo "Machine: $(nproc) CPUs ($cpu), $(free -g | awk '/Mem:/{print $2}') GiB RAM," \
		"kernel $(uname -r), $(. /etc/os-release; echo "$PRETTY_NAME")."
	echo
	echo "Tools: clang $(clang -dumpversion 2>/dev/null), libbpf $(dpkg-query -W -f='${Version}' libbpf-dev 2>/dev/null)," \
		"$(bpftrace --version 2>/dev/null), perf $(perf version 2>/dev/null | awk '{print $3}')," \
		"lttng-tools $(dpkg-query -W -f='${Version}' lttng-tools 2>/dev/null)," \
		"liblttng-ust $(dpkg-query -W -f='${Version}' liblttng-ust-dev 2>/dev/null)."
	echo
	echo "Reproduce: \`make bench\` (as root; about 40 minutes)."
	echo
	echo "Each table compares alternatives in the same run; times are medians over"
	echo "repetitions with min and max. A target missed is marked MISSED."
	echo
} >"$tmp/md"

# Component benches first (.output/bench_*), then the side-by-side scripts
# (scripts/bench-*.sh), which get the components' outputs in BENCH_RESULTS
# for their summary table.  Printed and written summary first, then the
# component tables.
status=0
sections=()
run_one() {	# NAME CMD...: output in $tmp/NAME.out, seconds in $tmp/NAME.secs
	local name=$1 t0
	shift
	echo "== $name" >&2
	t0=$(date +%s)
	if ! "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		echo "bench: $name failed:" >&2
		cat "$tmp/$name.err" >&2
		status=1
	fi
	echo $(($(date +%s) - t0)) >"$tmp/$name.secs"
}
t_all=$(date +%s)
for b in "$OUTPUT"/bench_*; do
	[[ -x $b ]] || continue
	run_one "$(basename "$b")" "$b"
	sections+=("$(basename "$b")")
done
scripts=()
for s in scripts/bench-*.sh; do
	[[ -x $s ]] || continue
	run_one "$(basename "$s" .sh)" env BENCH_RESULTS="$tmp" "$s"
	scripts+=("$(basename "$s" .sh)")
done
t_all=$(($(date +%s) - t_all))
for name in "${scripts[@]}" "${sections[@]}"; do
	cat "$tmp/$name.out"
	echo
	{
		echo "## $name ($(cat "$tmp/$name.secs") s)"
		echo
		echo '```'
		cat "$tmp/$name.out"
		echo '```'
		echo
	} >>"$tmp/md"
done
echo "Total: $t_all s for the whole \`make bench\` run." >>"$tmp/md"
# A claim must hold on another day too: the file keeps, below this run, the
# last run of an earlier day (the previous file's own run when it is from
# another day, else the earlier day's run it kept).
mark='<!-- earlier-run -->'
if [[ -f $md ]]; then
	prev_day=$(sed -n 's/^Produced by one `make bench` run on \([0-9-]*\).*/\1/p' "$md" | head -1)
	if [[ -n $prev_day && $prev_day != "$(date -u +%Y-%m-%d)" ]]; then
		# the previous run, its headings one level down (not in code blocks)
		earlier=$(awk -v m="$mark" '$0 == m { exit }
			/^```/ { code = !code }
			!code && /^# Benchmarks$/ { print "# The earlier run, on another day"; next }
			!code && /^#/ { print "#" $0; next } { print }' "$md")
	else
		earlier=$(awk -v m="$mark" 'f { print } $0 == m { f = 1 }' "$md")
	fi
	[[ -n $earlier ]] && printf '\n%s\n%s\n' "$mark" "$earlier" >>"$tmp/md"
fi
cp "$tmp/md" "$md"
echo "bench: wrote $md ($t_all s)" >&2
exit $status
