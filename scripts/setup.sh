#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Install every build and test dependency of ebpf-collect from Debian 12
# (bookworm) and bookworm-backports.  Idempotent: when everything is present
# it checks and returns in well under a second without touching apt.
#
# libbpf >= 1.3 and bpftool 7.x come from bookworm-backports (libbpf 1.4
# brings uprobe-multi attach for USDT and larger USDT spec limits).
set -euo pipefail

[[ ${EUID} -eq 0 ]] || { echo "setup: must run as root (installs Debian packages)" >&2; exit 1; }

PKGS=(make gcc g++ clang llvm libelf-dev zlib1g-dev libexpat1-dev systemtap-sdt-dev
      bats bpftrace linux-perf python3 python3-jsonschema unzip xxd binutils util-linux procps
      openjdk-17-jdk-headless postgresql-15
      lttng-tools liblttng-ust-dev
      prometheus	# tests/fleet_metrics.bats scrapes --metrics with it
      debhelper libcap2-bin	# make deb; capsh for the daemon's least-privilege test
      lintian devscripts	# the package's lint and hardening-check (tests/package.bats)
      libc6-dbg	# libc6-dbg: names of libc-internal frames (__lll_lock_wait) in stacks
      clickhouse-server curl	# tests/fleet_clickhouse.bats: --clickhouse and `fleet`
      libcurl4-openssl-dev libmicrohttpd-dev	# the ClickHouse client, the --metrics server
      protobuf-c-compiler libprotobuf-c-dev	# convert --format pprof: profile.proto's C
      golang-go	# go tool pprof reads convert --format pprof (tests/convert_formats.bats)
      libdw-dev	# --call-graph dwarf: symbolizer/unwind.c unwinds by CFI with libdw
      liblzma-dev libdebuginfod-dev	# symbols by build id: MiniDebugInfo, debuginfod clients
      debuginfod	# tests/native_names.bats serves a debug file on loopback
      stress-ng)	# TEST_STRESS=1 tests/run: the suite beside a CPU load
BPO_PKGS=(libbpf-dev bpftool)

BPO_LIST=/etc/apt/sources.list.d/bookworm-backports.list

have_all() {
	local p
	for p in "${PKGS[@]}" "${BPO_PKGS[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || return 1
	done
	# libbpf-dev must be the backports one (>= 1.3)
	local v
	v=$(dpkg-query -W -f='${Version}' libbpf-dev 2>/dev/null)
	dpkg --compare-versions "$v" ge 1:1.3 || return 1
	return 0
}

# tests/traceevent (TraceCheck) needs Microsoft.Diagnostics.Tracing.TraceEvent
# from NuGet; the build (make) restores it too, this fetches it up front.
# Never fatal: without dotnet or the package those tests skip, saying why.
restore_tracecheck() {
	local pkgs=${NUGET_PACKAGES:-$HOME/.nuget/packages}
	[[ -d $pkgs/microsoft.diagnostics.tracing.traceevent/4.0.0/lib ]] && return 0
	echo "setup: restoring the TraceEvent package for tests/traceevent (NuGet)" >&2
	bash "$(dirname "$0")/../tests/traceevent/build.sh" --restore
}
restore_tracecheck

# tests/dotnet.bats builds the test app self-contained for .NET 8, 9 and
# 10 (tests/dotnet_app.bash, build_sc): the runtime packs of those versions
# (Microsoft.NETCore.App.Runtime.linux-x64, .Ref, .Host) come from the NuGet
# registry; this fetches them up front.  Never fatal: the build says what
# it lacks.
restore_runtime_packs() {
	local v dir
	command -v dotnet >/dev/null 2>&1 || return 0
	for v in 8 9 10; do
		dir=$(mktemp -d)
		cp "$(dirname "$0")/../tests/dotnet/evtapp/Program.cs" "$dir/"
		sed "s|<TargetFramework>net[0-9.]*</TargetFramework>|<TargetFramework>net$v.0</TargetFramework>|" \
			"$(dirname "$0")/../tests/dotnet/evtapp/evtapp.csproj" >"$dir/evtapp.csproj"
		DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 dotnet restore "$dir/evtapp.csproj" \
			-r linux-x64 -p:SelfContained=true -p:UseAppHost=true >/dev/null ||
			echo "setup: .NET $v runtime packs not restored (tests/dotnet.bats builds need them)" >&2
		rm -rf "$dir"
	done
}
restore_runtime_packs

# dotnet-trace (tests/dotnet.bats compares its traces with ours), as a
# dotnet tool from the NuGet registry into a fixed directory; skipped when
# the machine has no .NET SDK.
DOTNET_TOOLS=/usr/local/lib/ebpf-collect/dotnet-tools
DOTNET_TRACE_VERSION=10.0.750501
if command -v dotnet >/dev/null 2>&1 && [[ ! -x $DOTNET_TOOLS/dotnet-trace ]]; then
	echo "setup: installing dotnet-trace $DOTNET_TRACE_VERSION into $DOTNET_TOOLS" >&2
	mkdir -p "$DOTNET_TOOLS"
	DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 dotnet tool install --tool-path "$DOTNET_TOOLS" \
		dotnet-trace --version "$DOTNET_TRACE_VERSION" >/dev/null ||
		echo "setup: dotnet-trace not installed (tests/dotnet.bats skips its comparison)" >&2
fi

if have_all; then
	exit 0
fi

echo "setup: installing build and test dependencies (apt, bookworm-backports)" >&2
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "deb http://deb.debian.org/debian bookworm-backports main" > "$BPO_LIST"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${PKGS[@]}" >/dev/null
apt-get install -y -qq --no-install-recommends -t bookworm-backports "${BPO_PKGS[@]}" >/dev/null
have_all || { echo "setup: packages still missing after install" >&2; exit 1; }
echo "setup: done" >&2
