#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Stock .NET under --all (host-wide: run it under the shared lock,
# flock /tmp/ebpf-hostwide.lock tests/run tests/dotnet_host.bats).  The test
# app is tests/dotnet_app.bash's.

load test_helper
load dotnet_app

setup_file() {
	export BATS_TEST_TIMEOUT=180
	command -v dotnet >/dev/null 2>&1 || return 0
	build_app
}

setup() {
	T=$BATS_TEST_TMPDIR
	COL_PID=
}

teardown() {
	[[ -n $COL_PID ]] && kill -INT "$COL_PID" 2>/dev/null && wait "$COL_PID" 2>/dev/null
	return 0
}

need() {
	require_root
	require_btf
	require_cmd dotnet
	require_shared
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	[[ -f $APP ]] || flunk "test app not built ($OUTPUT/tests/dotnet/build.log)"
}

@test "dotnet --all --dotnet-port: an app that throws at once has every exception in the trace" {
	need
	local port=$T/port.sock n=300 pid
	"$EBPF_COLLECT" --all --dotnet-port "$port" -o "$T/t.nettrace" \
		--providers Microsoft-Windows-DotNETRuntime:0x8018:5 2>"$T/col.err" &
	COL_PID=$!
	wait_for_grep "Ctrl-C to stop" "$T/col.err" || flunk "$(cat "$T/col.err")"
	grep -q "^ebpf-collect: --dotnet-port: listening on $port (start .NET with DOTNET_DiagnosticPorts=$port,suspend)$" \
		"$T/col.err" || flunk "$(cat "$T/col.err")"
	[[ -S $port ]] || flunk "no socket at $port"
	# no --wait: the app throws its exceptions as soon as Main runs
	DOTNET_DiagnosticPorts=$port,suspend timeout 60 dotnet "$APP" --exceptions $n >"$T/app.out" 2>&1 ||
		flunk "app failed: $(cat "$T/app.out")"
	pid=$(sed -n 's/^READY //p' "$T/app.out")
	[[ -n $pid ]] || flunk "$(cat "$T/app.out")"
	kill -INT "$COL_PID"
	local st=0
	wait "$COL_PID" || st=$?
	COL_PID=
	[[ $st -eq 0 ]] || flunk "collector status $st: $(cat "$T/col.err")"
	grep -q -- "--all: tracing pid $pid (EventPipe)" "$T/col.err" || flunk "$(cat "$T/col.err")"
	[[ ! -e $port ]] || flunk "the socket was left behind"
	dump "$T/t.nettrace"
	run python3 "$DT" counts "$T/t.nettrace.json" "$pid"
	assert_success
	check exceptions "EvtAppTestException=$n"
	# from its first managed method: Main's JIT is in the trace
	grep -q "\"event\":\"MethodLoadVerbose_V[0-9]\".*\"pid\":$pid,.*\"MethodNamespace\":\"Program\",\"MethodName\":\"Main\"" \
		"$T/t.nettrace.json" || flunk "no MethodLoadVerbose of Program.Main"
}

@test "dotnet --dotnet-port: without --all, or at a path that is not a socket, one line" {
	need
	run "$EBPF_COLLECT" --dotnet-port "$T/p.sock" -o "$T/t.nettrace" -- true
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output "ebpf-collect: --dotnet-port is for --all (-- dotnet CMD is traced from its start anyway)"
	: >"$T/file"
	run "$EBPF_COLLECT" --all --dotnet-port "$T/file" -o "$T/t.nettrace" -d 1s
	[[ $status -eq 1 ]] || flunk "status $status: $output"
	assert_output_contains "ebpf-collect: --dotnet-port $T/file: exists and is not a socket"
	[[ -f $T/file ]] || flunk "the file was removed"
	[[ ! -e $T/t.nettrace ]] || flunk "a trace was left"
}
