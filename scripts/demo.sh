#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The README's main job: install dependencies, build, trace the reference
# runtime (refrt, mixed scenario) for a few seconds with ebpf-collect, then
# print the trace's summary, its path, and the path of a flame graph of it.
#
# Usage: scripts/demo.sh [SECONDS]    (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
out=${DEMO_DIR:-/tmp/ebpf-collect-demo}

bash scripts/setup.sh
echo "demo: building (make)" >&2
make -j"$(nproc)" all >/dev/null

mkdir -p "$out"
trace=$out/refrt-mixed.nettrace
svg=$out/refrt-mixed.svg
rm -f "$trace" "$svg"

echo "demo: tracing the reference runtime (mixed scenario, ${secs}s)" >&2
DOTNET_PerfMapEnabled=3 .output/ebpf-collect -o "$trace" --profile cpu-sampling \
	-- .output/refrt --scenario mixed --threads 2 --duration "$secs" --seed 1 \
	--summary "$out/refrt-summary.json"

echo
.output/ebpf-collect report "$trace"
.output/ebpf-collect convert "$trace" --format flamegraph -o "$svg"
echo
echo "trace:       $trace"
echo "flame graph: $svg"
