#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Stock .NET (no USDT provider) through EventPipe over the diagnostics IPC
# channel, against the real runtime of the machine's SDK and against .NET 8,
# 9 and 10 self-contained apps.  The test app and its builds are
# tests/dotnet_app.bash's.  Traces are decoded with `ebpf-collect dump --json
# --manifest ClrEtwAll.man` and checked by tests/dotnet_trace.py.

load test_helper
load dotnet_app

setup_file() {
	export BATS_TEST_TIMEOUT=180
	command -v dotnet >/dev/null 2>&1 || return 0
	build_app
}

setup() {
	T=$BATS_TEST_TMPDIR
	APP_EXE=
	APP_PID=
	COL_PID=
}

teardown() {
	[[ -n $COL_PID ]] && kill -INT "$COL_PID" 2>/dev/null && wait "$COL_PID" 2>/dev/null
	if [[ -n $APP_PID ]]; then
		{ kill -KILL "$APP_PID" && wait "$APP_PID"; } 2>/dev/null
	fi
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

# start_app [ENV=V ...] -- ARGS: the app waits for $T/go, then runs ARGS' workload
# ($APP_EXE when set, else dotnet $APP)
start_app() {
	local envs=()
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	rm -f "$T/go"
	if [[ -n $APP_EXE ]]; then	# a self-contained app (build_sc)
		env "${envs[@]}" "$APP_EXE" --wait "$T/go" "$@" >"$T/app.out" 2>&1 &
	else
		env "${envs[@]}" dotnet "$APP" --wait "$T/go" "$@" >"$T/app.out" 2>&1 &
	fi
	APP_PID=$!
	for _ in $(seq 200); do
		grep -q READY "$T/app.out" && return 0
		sleep 0.05
	done
	flunk "app did not start: $(cat "$T/app.out")"
}

# collect ARGS: ebpf-collect -p $APP_PID in the background until "tracing"
collect() {
	"$EBPF_COLLECT" -p "$APP_PID" -o "$T/t.nettrace" "$@" 2>"$T/col.err" &
	COL_PID=$!
	for _ in $(seq 400); do
		grep -q "tracing\|Ctrl-C" "$T/col.err" && return 0
		kill -0 "$COL_PID" 2>/dev/null || break
		sleep 0.05
	done
	flunk "collector did not start: $(cat "$T/col.err")"
}

run_workload() {
	touch "$T/go"
	for _ in $(seq 1200); do
		grep -q DONE "$T/app.out" && return 0
		sleep 0.05
	done
	flunk "workload did not finish: $(cat "$T/app.out")"
}

stop_collect() {
	kill -INT "$COL_PID"
	COL_STATUS=0
	wait "$COL_PID" || COL_STATUS=$?
	COL_PID=
}

runtime_version() {
	dotnet --list-runtimes | awk '/Microsoft.NETCore.App/ {print $2}' | sort -V | tail -1
}

@test "dotnet: -l -p PID names the EventPipe path and the runtime version" {
	need
	start_app -- --linger
	run "$EBPF_COLLECT" -l -p "$APP_PID"
	assert_success
	assert_output_contains "pid $APP_PID: EventPipe (.NET $(runtime_version)) over /proc/$APP_PID/root/tmp/dotnet-diagnostic-$APP_PID-"
	assert_output_contains "pid $APP_PID: traced through EventPipe (no USDT provider)"
	assert_output_contains "pid $APP_PID: runtime $(dirname "$(readlink -f "$(command -v dotnet)")")/shared/Microsoft.NETCore.App/$(runtime_version)/libcoreclr.so"
	# libstdc++'s probes come after the line that says they are not the runtime's
	local label probe
	label=$(grep -n "^pid $APP_PID: USDT probes of other libraries, not the runtime's (--usdt PROVIDER traces them):$" <<<"$output" | cut -d: -f1)
	probe=$(grep -n "^libstdcxx  *throw " <<<"$output" | cut -d: -f1)
	[[ -n $label && -n $probe && $probe -gt $label ]] || flunk "$output"
	# a process without a runtime says so too
	run "$EBPF_COLLECT" -l -p $$
	[[ $status -eq 3 ]] || flunk "status $status: $output"
}

@test "dotnet: exact exception, GC, JIT and contention events of a stock runtime" {
	need
	start_app -- --exceptions 7 --gcs 4 --contentions 3 --linger
	collect --providers Microsoft-Windows-DotNETRuntime:0xC019:5,Microsoft-Windows-DotNETRuntimeRundown
	run_workload
	stop_collect
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	grep -q "EventPipe session over" "$T/col.err" || flunk "$(cat "$T/col.err")"
	dump "$T/t.nettrace"
	run python3 "$DT" counts "$T/t.nettrace.json" "$APP_PID"
	assert_success
	check exceptions "EvtAppTestException=7"
	check gcstart 4
	check gcend 4
	check induced 4
	check contention_start 3
	check contention_stop 3
	check methods "EvtAppContend EvtAppInduceGcs EvtAppManyEvents EvtAppMarkers EvtAppThrowOne"
	# the rundown at stop names every method: MethodDCEndVerbose of the app's
	grep -q '"provider":"Microsoft-Windows-DotNETRuntimeRundown".*"MethodName":"EvtAppThrowOne"' \
		"$T/t.nettrace.json" || flunk "no rundown of EvtAppThrowOne"
	grep -q "EventPipe session (CollectTracing3)" "$T/col.err" || flunk "$(cat "$T/col.err")"
	# says what it traces: no "tracing 0 probes"
	grep -q "^ebpf-collect: tracing 1 .NET process over EventPipe (1 provider); writing " \
		"$T/col.err" || flunk "$(cat "$T/col.err")"
}

@test "dotnet: BPF CPU samples name the hot method; kernel and JIT frames named" {
	need
	start_app -- --hot-ms 1500 --linger
	# SampleProfiler asked for too: with --cpu-sampling it is left out of
	# the session, so each sample is counted once (by BPF)
	collect --providers Microsoft-Windows-DotNETRuntime:0x10:5,Microsoft-Windows-DotNETRuntimeRundown \
		--providers Microsoft-DotNETCore-SampleProfiler --cpu-sampling --kernel syscalls
	run_workload
	stop_collect
	trace_note "$T/t.nettrace" stripped "native frames of .NET's stripped host and runtime (libcoreclr.so, libclrjit.so, libhostfxr.so, libhostpolicy.so, dotnet) have no symbol on this machine"
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	dump "$T/t.nettrace"
	run python3 "$DT" hot "$T/t.nettrace.json" "$APP_PID" EvtAppHotLoop
	assert_success
	read -r leaf window native kernel <<<"$output"
	# 1.5 s at 999 Hz on one thread: ~1500 samples unless the CPUs are busy
	[[ $window -ge 300 ]] || flunk "only $window samples in the hot phase: $output"
	(( leaf * 100 >= window * 80 )) || flunk "hot method leaf in $leaf of $window samples"
	(( native * 100 >= window * 80 )) || flunk "named native callers in $native of $window"
	[[ $kernel -ge 1 ]] || flunk "no sample of the process with a named kernel frame"
	local bpf in_file
	bpf=$(sed -n 's/^kernel-events: \([0-9]*\) CPU samples.*/\1/p' "$T/col.err")
	in_file=$(grep -c '"provider":"Microsoft-DotNETCore-SampleProfiler"' "$T/t.nettrace.json")
	[[ -n $bpf && $in_file -eq $bpf ]] || flunk "$in_file samples in the file, BPF took '$bpf'"
}

@test "dotnet: runtime and kernel events share one clock (merge order)" {
	need
	start_app -- --marker-syscalls 25 --linger
	collect --providers EvtApp-Marker,Microsoft-Windows-DotNETRuntime:0x0:4 --kernel sched,syscalls,proc
	run_workload
	stop_collect
	trace_note "$T/t.nettrace" stripped "native frames of .NET's stripped host and runtime (libcoreclr.so, libclrjit.so, libhostfxr.so, libhostpolicy.so, dotnet) have no symbol on this machine"
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	dump "$T/t.nettrace"
	run python3 "$DT" order "$T/t.nettrace.json" "$APP_PID"
	assert_success
	assert_output "25 25 1"
	# the whole file is in time order with the scheduler's events in it too
	grep -q "\"event\":\"SchedSwitch\".*\"pid\":$APP_PID," "$T/t.nettrace.json" ||
		flunk "no SchedSwitch of the process"

}

@test "dotnet: JIT frames named from the perf map the collector enables, removed afterwards" {
	need
	start_app -- --hot-ms 1000 --linger
	# no MethodLoadVerbose at level 4: while the trace runs only the runtime's
	# perf map names the JIT code (the rundown at stop, always requested,
	# names it again in the file)
	collect --providers Microsoft-Windows-DotNETRuntime:0x10:4 --cpu-sampling
	grep -q "perf map enabled" "$T/col.err" || flunk "$(cat "$T/col.err")"
	[[ -f /tmp/perf-$APP_PID.map ]] || flunk "no perf map written"
	run_workload
	stop_collect
	trace_note "$T/t.nettrace" stripped "native frames of .NET's stripped host and runtime (libcoreclr.so, libclrjit.so, libhostfxr.so, libhostpolicy.so, dotnet) have no symbol on this machine"
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	[[ ! -e /tmp/perf-$APP_PID.map && ! -e /tmp/perfinfo-$APP_PID.map ]] ||
		flunk "perf map left behind"
	dump "$T/t.nettrace"
	run python3 "$DT" hot "$T/t.nettrace.json" "$APP_PID" EvtAppHotLoop
	assert_success
	read -r leaf window native kernel <<<"$output"
	[[ $window -ge 100 ]] || flunk "only $window samples in the hot phase: $output"
	(( leaf * 100 >= window * 80 )) || flunk "hot method leaf in $leaf of $window samples"
}

@test "dotnet: a perf map left on by a killed collector is turned off by the next one" {
	need
	start_app -- --exceptions 3 --linger
	collect --providers Microsoft-Windows-DotNETRuntime:0x10:4
	grep -q "perf map enabled" "$T/col.err" || flunk "$(cat "$T/col.err")"
	local dead=$COL_PID
	[[ -f /run/ebpf-collect/perfmap/$APP_PID ]] || flunk "no marker of the perf map"
	kill -KILL "$COL_PID"
	wait "$COL_PID" 2>/dev/null || true
	COL_PID=
	[[ -f /tmp/perf-$APP_PID.map ]] || flunk "no perf map left by the killed collector"
	run "$EBPF_COLLECT" -p "$APP_PID" -d 1s -o "$T/t2.nettrace" \
		--providers Microsoft-Windows-DotNETRuntime:0x8000:4
	assert_success
	assert_output_contains "ebpf-collect: pid $APP_PID: its perf map was left on by ebpf-collect pid $dead, which died; turning it off"
	[[ ! -e /tmp/perf-$APP_PID.map && ! -e /run/ebpf-collect/perfmap/$APP_PID ]] ||
		flunk "perf map or marker left behind"
	# the runtime compiles the exception methods now: no perf map comes back
	run_workload
	[[ ! -e /tmp/perf-$APP_PID.map ]] || flunk "the runtime still writes its perf map"
	# the trace of the run that turned it off is whole
	dump "$T/t2.nettrace"
}

@test "dotnet: a perf map the user enabled is left alone" {
	need
	start_app DOTNET_PerfMapEnabled=3 -- --linger
	collect --providers Microsoft-Windows-DotNETRuntime:0x10:4
	! grep -q "perf map enabled" "$T/col.err" || flunk "$(cat "$T/col.err")"
	stop_collect
	[[ -f /tmp/perf-$APP_PID.map ]] || flunk "the user's perf map was removed"
	rm -f "/tmp/perf-$APP_PID.map" "/tmp/perfinfo-$APP_PID.map"
}

@test "dotnet: a perf map an earlier process of the same pid left is not taken for the target's own: its names unused, the target's JIT frames named, removed after the trace" {
	need
	start_app -- --exceptions 3 --hot-ms 1000 --linger
	stale_perf_map "$APP_PID"
	trace_note "$T/t.nettrace" stripped "native frames of .NET's stripped host and runtime (libcoreclr.so, libclrjit.so, libhostfxr.so, libhostpolicy.so, dotnet) have no symbol on this machine"
	# no JIT keyword: the JIT frames are named by the perf map alone
	collect --providers Microsoft-Windows-DotNETRuntime:0x8000:4 --cpu-sampling
	grep -q "perf map enabled" "$T/col.err" || flunk "$(cat "$T/col.err")"
	run_workload
	stop_collect
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	[[ ! -e /tmp/perf-$APP_PID.map && ! -e /tmp/perfinfo-$APP_PID.map ]] ||
		flunk "perf map left behind"
	"$EBPF_COLLECT" convert "$T/t.nettrace" --format folded -o "$T/f.txt" || flunk "folded failed"
	grep -q 'evtapp!Program.Main(string\[\]);.*evtapp!Program.EvtAppHotLoop(int64)' "$T/f.txt" ||
		flunk "no evtapp!Program.EvtAppHotLoop(int64): $(sort -t' ' -k2 -nr "$T/f.txt" | head -3)"
	! grep -q EarlierProcessMethod "$T/f.txt" || flunk "a name of the earlier process's map"
}

@test "dotnet: -- dotnet app.dll is traced from its first managed method" {
	need
	run "$EBPF_COLLECT" -o "$T/t.nettrace" \
		--providers Microsoft-Windows-DotNETRuntime:0x8018:5,Microsoft-Windows-DotNETRuntimeRundown \
		-- dotnet "$APP" --exceptions 3
	assert_success
	assert_output_contains "no USDT provider: EventPipe session over"
	assert_output_contains "exited during the trace; its EventPipe stream ended with it"
	assert_output_contains "tracing the .NET runtime of dotnet over EventPipe from its start (1 provider); writing"
	dump "$T/t.nettrace"
	local pid
	pid=$(grep -m1 -o '"pid":[0-9]*' "$T/t.nettrace.json" | cut -d: -f2)
	run python3 "$DT" counts "$T/t.nettrace.json" "$pid"
	check exceptions "EvtAppTestException=3"
	# the runtime waited for the session: Main's JIT is in the trace
	grep -q '"event":"MethodLoadVerbose_V[0-9]".*"MethodNamespace":"Program","MethodName":"Main"' \
		"$T/t.nettrace.json" || flunk "no MethodLoadVerbose of Program.Main"
	# convert -o - writes to standard output, the same as without -o
	(cd "$T" && "$EBPF_COLLECT" convert t.nettrace --format folded -o - >dash.folded) ||
		flunk "convert -o - failed"
	"$EBPF_COLLECT" convert "$T/t.nettrace" --format folded >"$T/plain.folded"
	[[ ! -e $T/- ]] || flunk "convert -o - created a file named -"
	grep -q "EvtAppThrowOne" "$T/dash.folded" || flunk "$(head -3 "$T/dash.folded")"
	cmp "$T/dash.folded" "$T/plain.folded" || flunk "-o - and stdout differ"
}

@test "dotnet: -- ./app (an apphost executable) is traced from its first managed method" {
	need
	[[ -x $APPHOST ]] || flunk "apphost build missing ($OUTPUT/tests/dotnet/build-host.log)"
	run "$EBPF_COLLECT" -o "$T/t.nettrace" --providers Microsoft-Windows-DotNETRuntime:0x8018:5 \
		-- "$APPHOST" --exceptions 2
	assert_success
	assert_output_contains "no USDT provider: EventPipe session over"
	dump "$T/t.nettrace"
	local pid
	pid=$(grep -m1 -o '"pid":[0-9]*' "$T/t.nettrace.json" | cut -d: -f2)
	run python3 "$DT" counts "$T/t.nettrace.json" "$pid"
	check exceptions "EvtAppTestException=2"
	grep -q '"event":"MethodLoadVerbose_V[0-9]".*"MethodNamespace":"Program","MethodName":"Main"' \
		"$T/t.nettrace.json" || flunk "no MethodLoadVerbose of Program.Main"
}

@test "dotnet: a process started with DOTNET_EnableDiagnostics=0 exits 3 with one line" {
	need
	start_app DOTNET_EnableDiagnostics=0 -- --linger
	run "$EBPF_COLLECT" -p "$APP_PID" -o "$T/t.nettrace"
	[[ $status -eq 3 ]] || flunk "status $status: $output"
	assert_output_contains "no .NET diagnostics socket for EventPipe either (not .NET, or DOTNET_EnableDiagnostics=0)"
	[[ ${#lines[@]} -eq 1 ]] || flunk "more than one line: $output"
	[[ ! -e $T/t.nettrace ]] || flunk "an empty trace was left"
	# the same for -- dotnet: the socket never appears
	DOTNET_EnableDiagnostics=0 run "$EBPF_COLLECT" -q -o "$T/c.nettrace" -- dotnet "$APP" --linger
	[[ $status -eq 3 ]] || flunk "status $status: $output"
	assert_output_contains "its .NET runtime did not connect to the diagnostic port /tmp/ebpf-collect-"
	assert_output_contains "/dotnet-port in 10 s: started with DOTNET_EnableDiagnostics=0?"
	[[ ! -e $T/c.nettrace ]] || flunk "an empty trace was left"
}

@test "dotnet: another user's process is refused with exit 4 and one line" {
	need
	require_cmd setpriv
	start_app -- --linger
	run setpriv --reuid nobody --regid nogroup --clear-groups "$EBPF_COLLECT" -l -p "$APP_PID"
	[[ $status -eq 4 ]] || flunk "status $status: $output"
	assert_output_contains "pid $APP_PID: cannot look for a .NET diagnostics socket in /proc/$APP_PID/root: Permission denied (another user's process: run as root or as that user)"
}

@test "dotnet: a stream cut mid-trace (process killed) exits 7 and keeps a valid file" {
	need
	start_app -- --events 20000000 --linger
	collect --providers EvtApp-Marker
	touch "$T/go"
	sleep 1.5
	local app=$APP_PID
	{ kill -KILL "$APP_PID" && wait "$APP_PID"; } 2>/dev/null || true
	APP_PID=
	COL_STATUS=0
	wait "$COL_PID" || COL_STATUS=$?
	COL_PID=
	trace_note "$T/t.nettrace" unnamed "the process was killed, so the runtime sent no rundown: its ReadyToRun code has no method events and is not in a perf map"
	[[ $COL_STATUS -eq 7 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	grep -q "the EventPipe stream was cut after [0-9]* bytes (offset [0-9]*: .*); kept the [0-9]* events before" \
		"$T/col.err" || flunk "$(cat "$T/col.err")"
	# the file is complete: readers reach its end
	run "$EBPF_COLLECT" dump "$T/t.nettrace"
	assert_success
	local kept markers
	kept=$(sed -n 's/.*kept the \([0-9]*\) events before.*/\1/p' "$T/col.err")
	markers=$(grep -c "EvtApp-Marker/Marker id=" <<<"$output")
	[[ $markers -gt 1000 && $markers -le $kept ]] || flunk "$markers markers, $kept kept"
	[[ ! -e /tmp/perf-$app.map ]] || flunk "perf map left behind"
}

@test "dotnet: a process in its own mount and pid namespace is traced by its host pid" {
	need
	require_cmd unshare pgrep
	local go=$OUTPUT/tests/dotnet/ns-go.$$ out=$OUTPUT/tests/dotnet/ns-app.$$ up hp
	rm -f "$go"
	# private /tmp (tmpfs): the socket is only reachable through /proc/PID/root
	(cd / && exec unshare --mount --pid --fork --mount-proc sh -c \
		"mount -t tmpfs tmpfs /tmp && exec dotnet '$APP' --wait '$go' --exceptions 4 --linger" \
		>"$out" 2>&1) &
	up=$!
	for _ in $(seq 200); do
		grep -q READY "$out" && break
		sleep 0.05
	done
	hp=$(pgrep -P "$up")
	APP_PID=$hp
	[[ -n $hp ]] || flunk "no app under unshare: $(cat "$out")"
	assert_equal "$(cat "$out")" "READY 1"
	run "$EBPF_COLLECT" -l -p "$hp"
	assert_success
	assert_output_contains "pid $hp: EventPipe (.NET $(runtime_version)) over /proc/$hp/root/tmp/dotnet-diagnostic-1-"
	collect --providers Microsoft-Windows-DotNETRuntime:0x8000:5
	touch "$go"
	for _ in $(seq 200); do
		grep -q DONE "$out" && break
		sleep 0.05
	done
	stop_collect
	rm -f "$go" "$out"
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	dump "$T/t.nettrace"
	run python3 "$DT" counts "$T/t.nettrace.json" "$hp"
	check exceptions "EvtAppTestException=4"
	# thread ids are the host's (the runtime knows its main thread as 1)
	grep -q "\"event\":\"ExceptionThrown_V1\".*\"tid\":$hp," "$T/t.nettrace.json" ||
		flunk "exception events not on host tid $hp"
}

DOTNET_TRACE=/usr/local/lib/ebpf-collect/dotnet-tools/dotnet-trace

@test "dotnet: same runtime event counts as dotnet-trace, side by side on one run" {
	need
	[[ -x $DOTNET_TRACE ]] || skip "dotnet-trace not installed (scripts/setup.sh installs it)"
	# Informational: at Verbose, GCAllocationTick reached only one of the two
	# concurrent sessions (either one, run to run), a runtime matter
	local pr=Microsoft-Windows-DotNETRuntime:0xC009:4 dt
	start_app -- --exceptions 6 --gcs 3 --contentions 2 --linger
	# both sessions run at once on the same process, same providers
	"$DOTNET_TRACE" collect -p "$APP_PID" --providers "$pr" -o "$T/dt.nettrace" \
		--duration 00:00:00:08 >"$T/dt.out" 2>&1 </dev/null &
	dt=$!
	for _ in $(seq 400); do	# its session runs once it names the output
		grep -q "Output File" "$T/dt.out" && break
		sleep 0.05
	done
	collect --providers "$pr"
	run_workload
	stop_collect
	wait "$dt" || flunk "dotnet-trace failed: $(cat "$T/dt.out")"
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	dump "$T/t.nettrace"
	dump "$T/dt.nettrace"
	run python3 "$DT" hist "$T/dt.nettrace.json" "$APP_PID"
	local theirs=$output
	run python3 "$DT" hist "$T/t.nettrace.json" "$APP_PID"
	[[ -n $theirs && $output == "$theirs" ]] ||
		flunk $'dotnet-trace:\n'"$theirs"$'\nebpf-collect:\n'"$output"
	run python3 "$DT" counts "$T/t.nettrace.json" "$APP_PID"
	check exceptions "EvtAppTestException=6"
	check induced 3
	check contention_start 2
}

@test "dotnet: every event of a default-profile trace named, as TraceEvent names it, in dump and report" {
	need
	require_tracecheck
	local profile
	# the default (dotnet-trace 10's), and the older keyword set with the GC
	# generation ranges and the contention events the default leaves out
	for profile in default legacy-default; do
		start_app -- --exceptions 5 --gcs 3 --contentions 2 --linger
		collect --profile "$profile"
		run_workload
		stop_collect
		[[ $COL_STATUS -eq 0 ]] || flunk "$profile: collector status $COL_STATUS: $(cat "$T/col.err")"
		"$EBPF_COLLECT" dump --json --names traceevent "$T/t.nettrace" >"$T/te.json" ||
			flunk "$profile: dump failed"
		tracecheck --names "$T/t.nettrace" >"$T/tc.names" || flunk "$profile: TraceCheck --names failed"
		# every kind of event: TraceEvent's name, TraceEvent's count, never EventID(N)
		run python3 "$BATS_TEST_DIRNAME/event_names.py" compare "$T/te.json" "$T/tc.names"
		assert_success
		echo "$profile: $output"
		# the runtime's own kinds are there, named: heap stats, generation ranges
		grep -q '"event":"GC/HeapStats".*"GenerationSize0":' "$T/te.json" ||
			flunk "$profile: no GC/HeapStats decoded"
		if [[ $profile == legacy-default ]]; then
			grep -q '"event":"GC/GenerationRange"' "$T/te.json" || flunk "no GC/GenerationRange"
			grep -q '"event":"Contention/Start"' "$T/te.json" || flunk "no Contention/Start"
		fi
		# the default names (manifest symbols) and report: no bare ids either
		run "$EBPF_COLLECT" dump "$T/t.nettrace"
		assert_success
		! grep -E 'EventID\(|/[0-9]+ id=' <<<"$output" || flunk "$profile: an event without a name in dump"
		run "$EBPF_COLLECT" report "$T/t.nettrace"
		assert_success
		! grep -E 'EventID\(|DotNETRuntime[A-Za-z]*/[0-9]+' <<<"$output" ||
			flunk "$profile: an event without a name in report"
		# this profile's app, before the next one's (teardown ends the last)
		kill -KILL "$APP_PID" 2>/dev/null || true
		wait "$APP_PID" 2>/dev/null || true
		APP_PID=
	done
}

@test "dotnet: one name per method in every view (perf map, method events, rundown), tiers only with --tiers" {
	need
	start_app -- --exceptions 20 --gcs 2 --contentions 2 --hot-ms 1500 --linger
	collect --cpu-sampling
	run_workload
	stop_collect
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	local t=$T/t.nettrace
	trace_note "$t" stripped "native frames of .NET's stripped host and runtime (libcoreclr.so, libclrjit.so, libhostfxr.so, libhostpolicy.so, dotnet) have no symbol on this machine"
	"$EBPF_COLLECT" convert "$t" --format folded -o "$T/f.txt" || flunk "folded failed"
	"$EBPF_COLLECT" convert "$t" --format speedscope -o "$T/s.json" || flunk "speedscope failed"
	"$EBPF_COLLECT" convert "$t" --format flamegraph -o "$T/f.svg" || flunk "flamegraph failed"
	"$EBPF_COLLECT" dump --json "$t" >"$T/d.json" || flunk "dump failed"
	run python3 "$BATS_TEST_DIRNAME/one_name.py" "$T/f.txt" "$T/s.json" "$T/f.svg" "$T/d.json"
	assert_success
	echo "$output"
	# the hot method, named once, in the events' form
	grep -q 'evtapp!Program.Main(string\[\]);.*evtapp!Program.EvtAppHotLoop(int64)' "$T/f.txt" ||
		flunk "no evtapp!Program.EvtAppHotLoop(int64): $(head -5 "$T/f.txt")"
	run "$EBPF_COLLECT" report "$t"
	assert_success
	! grep -E '\[(QuickJitted|OptimizedTier1|Optimized|Tier0)\]|[(,]class ' <<<"$output" ||
		flunk "a tier or an IL spelling in report"
	# --tiers: the same stacks, a tier after a name where its source gave one
	# (the unit tests check the suffix itself)
	"$EBPF_COLLECT" convert "$t" --format folded --tiers -o "$T/ft.txt" || flunk "--tiers failed"
	run diff <(sed -E 's/\)\[[A-Za-z0-9]+\]/)/g' "$T/ft.txt") "$T/f.txt"
	assert_success
	# every sample frame whose address is in a file mapping of the app has
	# its module in TraceLog: the stripped runtime's frames by module and
	# function start (from the unwind table), any other by the mapping's
	# ProcessMapping event (ReadyToRun code no method event names); the app
	# lingers, so its maps are those of the trace.  The JIT's double-mapped
	# code heap (/memfd:doublemapper) is anonymous memory, no file: its
	# methods are named by method events, and a sample in code there that
	# no method covers (a stub: one sample in ~8,000 here, under
	# Thread.Start) has no name in any source; counted and printed.
	require_tracecheck
	cp "/proc/$APP_PID/maps" "$T/maps"
	tracecheck --min-named 0 --sample-stacks "$T/t.tl" "$t" >/dev/null || flunk "tracecheck failed"
	run python3 - "$T/t.tl" "$T/maps" <<'PY'
import collections, sys
maps, memfd, stubs = [], [], 0
for l in open(sys.argv[2]):
    f = l.split()
    if len(f) >= 6 and f[5].startswith("/memfd:"):
        lo, hi = (int(x, 16) for x in f[0].split("-"))
        memfd.append((lo, hi))
    elif len(f) >= 6 and f[5].startswith("/"):
        lo, hi = (int(x, 16) for x in f[0].split("-"))
        maps.append((lo, hi, f[5]))
def elf(path):
    try:
        return open(path, "rb").read(4) == b"\x7fELF"
    except OSError:
        return False
bad, pe, runtime = collections.Counter(), collections.Counter(), 0
for line in open(sys.argv[1]):
    for fr in line.rstrip("\n").split("\t"):
        mod, _, name = fr.partition("!")
        runtime += mod == "libcoreclr.so" and name.startswith(".libcoreclr.so+0x")
        if mod == "?" and name.startswith("?0x"):
            a = int(name[3:], 16)
            stubs += any(lo <= a < hi for lo, hi in memfd)
            for lo, hi, path in maps:
                if lo <= a < hi:
                    (bad if elf(path) else pe)[path] += 1
print("libcoreclr.so frames named by function start: %d; without a module, in an ELF "
      "mapping: %s, in a PE image: %s; in the JIT's code heap (no file): %d" %
      (runtime, dict(bad), dict(pe), stubs))
sys.exit(1 if bad or pe or not runtime else 0)
PY
	echo "# $output" >&3
	assert_success
}

@test "dotnet: report summarises JIT, GCs by generation and reason, heap, contention, thread pool, allocations, exceptions" {
	need
	start_app -- --exceptions 5 --gcs 3 --contentions 2 --linger
	collect --providers Microsoft-Windows-DotNETRuntime:0x1C019:5
	run_workload
	stop_collect
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	local t=$T/t.nettrace
	"$EBPF_COLLECT" dump --json "$t" >"$T/d.json" || flunk "dump failed"
	run "$EBPF_COLLECT" report "$t"
	assert_success
	echo "$output"
	# what the report sums, counted from dump's decoded events of the same trace
	local want
	want=$(python3 - "$T/d.json" <<'PY'
import json, sys
n = {}
last_heap = None
alloc = 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") != "event" or e["provider"] != "Microsoft-Windows-DotNETRuntime":
        continue
    n[e["id"]] = n.get(e["id"], 0) + 1
    f = e.get("fields") or {}
    if e["id"] == 4:
        last_heap = f
    if e["id"] == 10:
        alloc += f.get("AllocationAmount64", f.get("AllocationAmount", 0))
print("jit %d" % n.get(143, 0))
print("allocs %d %d" % (n.get(10, 0), alloc))
print("tp %d" % n.get(55, 0))
print("gen2 %d" % last_heap["GenerationSize2"])
PY
)
	local jit allocs abytes tp gen2
	jit=$(awk '/^jit/ {print $2}' <<<"$want")
	read -r _ allocs abytes < <(grep '^allocs' <<<"$want")
	tp=$(awk '/^tp/ {print $2}' <<<"$want")
	gen2=$(awk '/^gen2/ {print $2}' <<<"$want")
	((jit > 0)) || flunk "no MethodLoadVerbose in the trace"
	((allocs > 0)) || flunk "no GCAllocationTick in the trace"
	grep -qE "^ +$jit methods jitted, [0-9]+ timed: [0-9.]+ ms$" <<<"$output" || flunk "no line ^ +$jit methods jitted, [0-9]+ timed: [0-9.]+ ms$"
	assert_line "       3  gen2"
	assert_line "       3  Induced"
	grep -qE "^ +2 +$gen2 +[0-9]+ +[0-9]+$" <<<"$output" || flunk "no line ^ +2 +$gen2 +[0-9]+ +[0-9]+$"
	# contentions as the runtime counted them (Monitor.LockContentionCount,
	# the app's COUNTS line): the two the app makes, now and then three
	local nc
	nc=$(grep -o 'contentions=[0-9]*' "$T/app.out" | cut -d= -f2)
	((nc >= 2)) || flunk "the app counted $nc contentions: $(cat "$T/app.out")"
	grep -qE "^ +$nc contentions, $nc ended: [0-9.]+ ms$" <<<"$output" || flunk "no line ^ +$nc contentions, $nc ended: [0-9.]+ ms$"
	grep -qE "^ +$tp adjustments" <<<"$output" || flunk "no line ^ +$tp adjustments"
	assert_line "Allocation ticks by type (GCAllocationTick: $allocs ticks, $abytes bytes)"
	grep -qE "^ +5 +EvtAppTestException " <<<"$output" || flunk "no line ^ +5 +EvtAppTestException "
	# the tiers of the jitted methods add up to the methods jitted
	local tiers
	tiers=$(awk '/^JIT/ {j = 1; next} j && /^$/ {exit} j && /^ +[0-9]+  [A-Za-z]/ {s += $1} END {print s + 0}' <<<"$output")
	[[ $tiers -eq $jit ]] || flunk "tiers sum to $tiers, $jit methods jitted"
}

# Each supported runtime, as a self-contained app (its own runtime, not the
# SDK's), traced from attach and from its start, with exact counts of what
# the app itself does: the GCs it induces, the exceptions it throws.

# sc_need V: the self-contained .NET V app, in $APP_EXE
sc_need() {
	need
	build_sc "$1" || flunk "self-contained net$1.0 app not built ($OUTPUT/tests/dotnet/build-net$1.log)"
	APP_EXE=$OUTPUT/tests/dotnet/evtapp-net$1/evtapp
}

# sc_attach V: -p on a running .NET V process
sc_attach() {
	sc_need "$1"
	start_app -- --exceptions 5 --gcs 3 --linger
	run "$EBPF_COLLECT" -l -p "$APP_PID"
	assert_success
	assert_output_contains "pid $APP_PID: EventPipe (.NET $1.0."
	assert_output_contains "pid $APP_PID: runtime $OUTPUT/tests/dotnet/evtapp-net$1/libcoreclr.so"
	collect --providers Microsoft-Windows-DotNETRuntime:0x8001:4
	run_workload
	stop_collect
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	grep -q "tracing 1 .NET process over EventPipe" "$T/col.err" || flunk "$(cat "$T/col.err")"
	dump "$T/t.nettrace"
	run python3 "$DT" counts "$T/t.nettrace.json" "$APP_PID"
	assert_success
	check exceptions "EvtAppTestException=5"
	check induced 3
}

# sc_start V: -- ./app, traced from its first managed method
sc_start() {
	sc_need "$1"
	run "$EBPF_COLLECT" -o "$T/t.nettrace" \
		--providers Microsoft-Windows-DotNETRuntime:0x8019:5 -- "$APP_EXE" --exceptions 4 --gcs 2
	assert_success
	assert_output_contains "no USDT provider: EventPipe session over"
	# its perf map was on from its start (the environment, not EnablePerfMap,
	# which kills a .NET 8 or 9 runtime that waits to be resumed)
	assert_output_contains ", perf map enabled)"
	dump "$T/t.nettrace"
	local pid
	pid=$(grep -m1 -o '"pid":[0-9]*' "$T/t.nettrace.json" | cut -d: -f2)
	[[ ! -e /tmp/perf-$pid.map && ! -e /tmp/perfinfo-$pid.map ]] || flunk "perf map left behind"
	run python3 "$DT" counts "$T/t.nettrace.json" "$pid"
	assert_success
	check exceptions "EvtAppTestException=4"
	check induced 2
	grep -q '"event":"MethodLoadVerbose_V[0-9]".*"MethodNamespace":"Program","MethodName":"Main"' \
		"$T/t.nettrace.json" || flunk "no MethodLoadVerbose of Program.Main"
}

@test "dotnet 8: a self-contained app, attached (-p): exact exceptions and induced GCs" {
	sc_attach 8
}

@test "dotnet 8: a self-contained app from its start (-- ./app): exact counts, Main's JIT" {
	sc_start 8
}

@test "dotnet 9: a self-contained app, attached (-p): exact exceptions and induced GCs" {
	sc_attach 9
}

@test "dotnet 9: a self-contained app from its start (-- ./app): exact counts, Main's JIT" {
	sc_start 9
}

@test "dotnet 10: a self-contained app, attached (-p): exact exceptions and induced GCs" {
	sc_attach 10
}

@test "dotnet 10: a self-contained app from its start (-- ./app): exact counts, Main's JIT" {
	sc_start 10
}

# frames ours says are without a name: exactly those TraceLog leaves unnamed
# (the runtime's rundown names most frames of a stock runtime only at stop)
frames_match_tracelog() {
	local ours theirs
	ours=$(sed -n 's/^ebpf-collect: symbols: \([0-9]*\) frames (.*), \([0-9]*\) without a name;.*/\1 \2/p' <<<"$1")
	[[ -n $ours ]] || flunk "no symbols line: $1"
	theirs=$(tracecheck --json --min-named 0 "$2" |
		python3 -c 'import json,sys; t=json.loads(sys.stdin.readline())["tracelog"]; print(t["frames"], t["frames"] - t["named"])')
	[[ $ours == "$theirs" ]] || flunk "ebpf-collect: frames, unnamed $ours; TraceLog: $theirs"
}

@test "dotnet: 'N without a name' counts what TraceLog leaves unnamed (default profile)" {
	need
	require_tracecheck
	# the default profile: JIT and ReadyToRun frames named by the rundown
	run "$EBPF_COLLECT" -o "$T/d.nettrace" -- dotnet "$APP" --exceptions 3 --gcs 2
	assert_success
	# Not always 0: in about 1 run of 3 the runtime's stack walk reports one
	# frame no runtime event describes (inside libcoreclr.so, or ReadyToRun
	# code of System.Private.CoreLib with no rundown method event: seen at
	# libcoreclr.so+0x5fa3cc and CoreLib+0x138f5b), which TraceLog leaves
	# unnamed too; the count must be TraceLog's, checked below
	assert_output_contains "named by the runtime's method events), "
	assert_output_contains "EventPipe session over"
	frames_match_tracelog "$output" "$T/d.nettrace"
	# the default's samples are the runtime's own: SampleProfiler events
	run "$EBPF_COLLECT" dump "$T/d.nettrace"
	assert_success
	grep -q "Microsoft-DotNETCore-SampleProfiler/ThreadSample" <<<"$output" || flunk "no samples"
}

@test "dotnet: the default profile is what dotnet-trace 10 records by default" {
	need
	[[ -x $DOTNET_TRACE ]] || skip "dotnet-trace not installed (scripts/setup.sh installs it)"
	run "$DOTNET_TRACE" collect -o "$T/dt.nettrace" -- dotnet "$APP" --exceptions 1
	assert_success
	local theirs ours
	# its table: Provider Name, Keywords (hex), Level(N), Enabled By
	theirs=$(python3 -c '
import re, sys
for m in re.finditer(r"^(Microsoft-\S+)\s+0x([0-9A-Fa-f]+)\s+\w+\((\d)\)", sys.stdin.read(), re.M):
    print("%s:0x%X:%s" % (m.group(1), int(m.group(2), 16), m.group(3)))' <<<"$output" | sort)
	[[ -n $theirs ]] || flunk "no provider table: $output"
	run "$EBPF_COLLECT" --help
	assert_success
	ours=$(sed -n '/^  default /,/^  [a-z]/p' <<<"$output" |
		grep -o 'DotNETRuntime:0x[0-9A-Fa-f]*:[0-9]\|Microsoft-DotNETCore-SampleProfiler:0x[0-9A-Fa-f]*:[0-9]' |
		sed 's/^DotNETRuntime:/Microsoft-Windows-DotNETRuntime:/' | sort)
	[[ $ours == "$theirs" ]] || flunk $'dotnet-trace:\n'"$theirs"$'\nebpf-collect:\n'"$ours"
}

@test "dotnet: -- dotnet: another runtime on the command's port (a descendant) is resumed untraced" {
	need
	"$EBPF_COLLECT" -o "$T/t.nettrace" --providers Microsoft-Windows-DotNETRuntime:0x8000:4 \
		-- dotnet "$APP" --wait "$T/go" --exceptions 2 >"$T/app.out" 2>"$T/col.err" &
	COL_PID=$!
	wait_for_grep READY "$T/app.out" 20 || flunk "$(cat "$T/col.err" "$T/app.out")"
	local child other ports
	child=$(sed -n 's/^READY //p' "$T/app.out")
	ports=$(tr '\0' '\n' <"/proc/$child/environ" | sed -n 's/^DOTNET_DiagnosticPorts=//p')
	[[ $ports == /tmp/ebpf-collect-*/dotnet-port,suspend ]] || flunk "DOTNET_DiagnosticPorts=$ports"
	# what a child process of the command inherits: it waits on that port
	DOTNET_DiagnosticPorts=$ports timeout 30 dotnet "$APP" --exceptions 3 >"$T/other.out" 2>&1 ||
		flunk "the other runtime was not resumed: $(cat "$T/other.out")"
	other=$(sed -n 's/^READY //p' "$T/other.out")
	grep -q DONE "$T/other.out" || flunk "$(cat "$T/other.out")"
	touch "$T/go"	# the command ends; so does the trace
	local st=0
	wait "$COL_PID" || st=$?
	COL_PID=
	[[ $st -eq 0 ]] || flunk "collector status $st: $(cat "$T/col.err")"
	[[ ! -e ${ports%,suspend} ]] || flunk "the port was left behind"
	dump "$T/t.nettrace"
	run python3 "$DT" counts "$T/t.nettrace.json" "$child"
	check exceptions "EvtAppTestException=2"
	! grep -q "\"pid\":$other," "$T/t.nettrace.json" || flunk "the other runtime was traced"
}

@test "dotnet: an EventPipe-only trace keeps the BPF ring buffer small (peak RSS), -b still sizes it" {
	need
	start_app -- --gcs 2 --linger
	collect
	run_workload
	stop_collect
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	local rss
	rss=$(grep -o 'peak RSS [0-9]* MiB' "$T/col.err" | grep -o '[0-9]*')
	[[ -n $rss ]] || flunk "no peak RSS: $(cat "$T/col.err")"
	# the default 32 MiB ring is mapped twice: 64 MiB of RSS by itself
	((rss < 64)) || flunk "peak RSS $rss MiB with no BPF writer: $(cat "$T/col.err")"
	collect -b 32
	stop_collect
	[[ $COL_STATUS -eq 0 ]] || flunk "collector status $COL_STATUS: $(cat "$T/col.err")"
	rss=$(grep -o 'peak RSS [0-9]* MiB' "$T/col.err" | grep -o '[0-9]*')
	((rss >= 64)) || flunk "-b 32 gave peak RSS $rss MiB: $(cat "$T/col.err")"
}
