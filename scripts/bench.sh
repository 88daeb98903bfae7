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
	echo "Reproduce: \`make bench\` (as root; about 10 minutes at most)."
	echo
	echo "Each table compares alternatives in the same run; times are medians over"
	echo "repetitions with min and max. A target missed is marked MISSED."
	echo
} >"$tmp/md"

status=0
for b in "$OUTPUT"/bench_*; do
	[[ -x $b ]] || continue
	name=$(basename "$b")
	echo "== $name" >&2
	if ! "$b" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		echo "bench: $name failed:" >&2
		cat "$tmp/$name.err" >&2
		status=1
	fi
	cat "$tmp/$name.out"
	{
		echo "## $name"
		echo
		echo '```'
		cat "$tmp/$name.out"
		echo '```'
		echo
	} >>"$tmp/md"
done
for s in scripts/bench-*.sh; do
	[[ -x $s ]] || continue
	name=$(basename "$s" .sh)
	echo "== $name" >&2
	if ! "$s" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		echo "bench: $name failed:" >&2
		cat "$tmp/$name.err" >&2
		status=1
	fi
	cat "$tmp/$name.out"
	{ echo "## $name"; echo; echo '```'; cat "$tmp/$name.out"; echo '```'; echo; } >>"$tmp/md"
done
cp "$tmp/md" "$md"
echo "bench: wrote $md" >&2
exit $status
