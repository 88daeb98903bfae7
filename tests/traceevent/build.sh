#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Restore and build TraceCheck into $OUTPUT/traceevent/.  Never fails the
# caller: when dotnet or the TraceEvent package is missing, the reason goes
# to $OUTPUT/traceevent/unavailable and the tests that need the checker
# skip, printing it.
#
# Usage: tests/traceevent/build.sh [--restore]
#   --restore   only fetch the package into the NuGet cache (scripts/setup.sh)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUTPUT=${OUTPUT:-$(cd "$here/../.." && pwd)/.output}
export OUTPUT DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
out=$OUTPUT/traceevent
log=$out/build.log
mkdir -p "$out"

unavailable() {
	echo "$1" >"$out/unavailable"
	echo "tracecheck: $1" >&2
	exit 0
}

command -v dotnet >/dev/null 2>&1 || unavailable "dotnet is not installed"
if [[ ${1:-} == --restore ]]; then
	dotnet restore "$here/TraceCheck.csproj" >"$log" 2>&1 ||
		unavailable "restoring Microsoft.Diagnostics.Tracing.TraceEvent 4.0.0 failed: $(grep -m1 -E 'error' "$log")"
	exit 0
fi
rm -f "$out/unavailable" "$out/TraceCheck.dll"
dotnet build "$here/TraceCheck.csproj" -c Release -o "$out" --nologo -v q >"$log" 2>&1 ||
	unavailable "building tests/traceevent failed: $(grep -m1 -E 'error' "$log")"
[[ -f $out/TraceCheck.dll ]] || unavailable "build left no $out/TraceCheck.dll"
exit 0
