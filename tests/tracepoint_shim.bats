#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The tracepoint shim (usdt/README.md, "The tracepoint shim") in stock
# .NET processes (the SDK's .NET 10, and .NET 8 and 9 self-contained builds
# of the same app, tests/dotnet_app.bash's build_sc) started with the shim's
# directory on LD_LIBRARY_PATH, DOTNET_EnableEventLog=1 and an
# EventSourceFilter that matches nothing, as a service would be, and no
# DOTNET_LTTngConfig (every keyword on) unless a test says.  Its table
# is read from outside by tests/progs/tpshim_ctl (usdt/tracepoint_read.c).
# The --all test is host-wide: run the suite under the shared lock,
# flock /tmp/ebpf-hostwide.lock tests/run tests/tracepoint_shim.bats.

load test_helper
load dotnet_app

TPSHIM_DIR=$OUTPUT/tpshim
CTL=$OUTPUT/tests/tpshim_ctl

setup_file() {
	export BATS_TEST_TIMEOUT=180
	command -v dotnet >/dev/null 2>&1 || return 0
	build_app
}

setup() {
	T=$BATS_TEST_TMPDIR
	APP_PID=
	APP_CMD="dotnet $APP"
}

teardown() {
	if [[ -n $APP_PID ]]; then
		{ kill -KILL "$APP_PID" && wait "$APP_PID"; } 2>/dev/null
	fi
	kill_bg	# the --all test's collector and apps
	return 0
}

need() {
	require_root
	require_cmd dotnet
	[[ -f $TPSHIM_DIR/liblttng-ust-tracepoint.so.0 ]] || flunk "shim not built"
	[[ -x $CTL ]] || flunk "tpshim_ctl not built"
	[[ -f $APP ]] || flunk "test app not built ($OUTPUT/tests/dotnet/build.log)"
}

# app_with_shim LD_LIBRARY_PATH APP-ARGS...: the app ($APP_CMD: the SDK's
# runtime, or a self-contained build) waiting for $T/go,
# started ready for tracing through the shim; its pid in APP_PID once it
# printed READY (the runtime's constructors, which register the
# tracepoints, have run by then)
app_with_shim() {
	local lp=$1
	shift
	rm -f "$T/go"
	# a gen0 budget of 256 MB: the tests count the app's collections
	# exactly, and the runtime sizes gen0 by the CPU's cache (on an AMD
	# EPYC VM 160,000 throws made 22 gen0 collections, none with this)
	# shellcheck disable=SC2086
	bg "$T/app.out" env LD_LIBRARY_PATH="$lp" DOTNET_EnableEventLog=1 \
		DOTNET_EventSourceFilter=EbpfCollectNoSuchSource EBPF_TPSHIM_DEBUG=1 \
		DOTNET_GCgen0size=0x10000000 $APP_CMD --wait "$T/go" "$@" --linger
	APP_PID=$LAST_PID
	wait_for_grep READY "$T/app.out" 60 || flunk "app did not start: $(cat "$T/app.out"*)"
}

@test "tracepoint shim: .NET 10 registers its 447 tracepoints, GCStart_V2 with its signature" {
	need
	app_with_shim "$TPSHIM_DIR"
	run "$CTL" list "$APP_PID"
	assert_success
	# what .NET 10.0.12's libcoreclr.so registers, in one
	# tracepoint_register_lib() call: every event of its manifest's
	# DotNETRuntime (211), DotNETRuntimePrivate (185) and
	# DotNETRuntimeRundown (51) providers; the Stress provider has none
	assert_line "count 447"
	assert_line "dropped 0"
	assert_line "refused 0"
	(($(grep -c $'\t' <<<"$output") == 447)) || flunk "not 447 tracepoints read: $output"
	(($(grep -c $'^DotNETRuntime:' <<<"$output") == 211)) || flunk "DotNETRuntime: $output"
	(($(grep -c $'^DotNETRuntimePrivate:' <<<"$output") == 185)) || flunk "Private: $output"
	(($(grep -c $'^DotNETRuntimeRundown:' <<<"$output") == 51)) || flunk "Rundown: $output"
	# nothing enabled: every state is 0
	(($(grep -c $'\t0$' <<<"$output") == 447)) || flunk "a state is not 0: $output"
	assert_line "DotNETRuntime:GCStart_V2	const unsigned int, Count, const unsigned int, Depth, const unsigned int, Reason, const unsigned int, Type, const unsigned short, ClrInstanceID, const uint64_t, ClientSequenceNumber	0"
	assert_line "DotNETRuntime:ExceptionThrown_V1	const char*, ExceptionType, const char*, ExceptionMessage, const size_t, ExceptionEIP, const unsigned int, ExceptionHRESULT, const unsigned short, ExceptionFlags, const unsigned short, ClrInstanceID	0"
	# ebpf-collect -l -p says the process offers the shim, which is the
	# path a session takes, and what of the selection EventPipe takes
	# beside it: the runtime's events only, none; the default profile, the
	# runtime's sampler; an EventSource, that one
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	run "$EBPF_COLLECT" -l -p "$APP_PID" --providers Microsoft-Windows-DotNETRuntime:0x8000:4
	assert_success
	assert_line "pid $APP_PID: tracepoint shim: 447 events"
	assert_equal "${lines[${#lines[@]} - 1]}" "pid $APP_PID: traced through the tracepoint shim (no USDT provider)"
	run "$EBPF_COLLECT" -l -p "$APP_PID"
	assert_success
	assert_equal "${lines[${#lines[@]} - 1]}" "pid $APP_PID: traced through the tracepoint shim (no USDT provider), with an EventPipe session beside it for Microsoft-DotNETCore-SampleProfiler"
	run "$EBPF_COLLECT" -l -p "$APP_PID" \
		--providers Microsoft-Windows-DotNETRuntime:0x8000:4,EbpfCollectTestSource
	assert_success
	assert_equal "${lines[${#lines[@]} - 1]}" "pid $APP_PID: traced through the tracepoint shim (no USDT provider), with an EventPipe session beside it for EbpfCollectTestSource"
	# asked for by EBPF_TPSHIM_DEBUG: one line, once
	run grep -c "tracepoint shim" "$T/app.out.err"
	assert_output 1
	grep -qx "ebpf-collect tracepoint shim: holding the runtime's tracepoints" "$T/app.out.err" ||
		flunk "$(cat "$T/app.out.err")"
}

# five_gcs_seen: the app (started with --gcs 5, waiting for $T/go) runs its
# five induced GCs, the only ones (gen0=gen1=0, and GC.Collect numbers them
# 1..5): the first turns the GC keyword on, so the probe sees GCs 2..5, the
# last with Count 5
five_gcs_seen() {
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=5 exceptions=0 contentions=0" "$T/app.out" ||
		flunk "$(cat "$T/app.out")"
	run "$CTL" hits "$APP_PID"
	assert_output "hits 4 last 5"
}

@test "tracepoint shim: the demonstration probe counts GCStart_V2 calls with their Count" {
	need
	app_with_shim "$TPSHIM_DIR" --gcs 5
	run "$CTL" enable "$APP_PID" DotNETRuntime:GCStart_V2
	assert_success
	# the GC asks DotNETRuntime:GCStart's state whether its keyword is on
	# (gcenv.ee.cpp, UpdateGCEventStatus), and asks again at the start
	# of every GC, after it decided whether this one fires
	run "$CTL" raise "$APP_PID" DotNETRuntime:GCStart
	assert_success
	run "$CTL" list "$APP_PID"
	grep -q $'^DotNETRuntime:GCStart_V2\t.*\t1$' <<<"$output" || flunk "state not raised: $output"
	grep -q $'^DotNETRuntime:GCStart\t.*\t1$' <<<"$output" || flunk "state not raised: $output"
	run "$CTL" hits "$APP_PID"
	assert_output "hits 0 last 0"
	five_gcs_seen
	# lowered: the state back to 0 and the probes cleared
	run "$CTL" disable "$APP_PID" DotNETRuntime:GCStart_V2
	assert_success
	run "$CTL" list "$APP_PID"
	grep -q $'^DotNETRuntime:GCStart_V2\t.*\t0$' <<<"$output" || flunk "state not lowered: $output"
}

@test "tracepoint shim: the demonstration probe counts every ExceptionThrown_V1 call" {
	need
	app_with_shim "$TPSHIM_DIR" --exceptions 7
	run "$CTL" enable "$APP_PID" DotNETRuntime:ExceptionThrown_V1
	assert_success
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=0 exceptions=7 contentions=0" "$T/app.out" ||
		flunk "$(cat "$T/app.out")"
	# no keyword to turn on first: each of the seven throws calls the
	# probe; its first argument is the type name's address (const char*)
	run "$CTL" hits "$APP_PID"
	[[ $output =~ ^hits\ 7\ last\ [1-9][0-9]*$ ]] || flunk "$output"
}

# exceptions_called CONFIG N: the calls of ExceptionThrown_V1's probe, its
# state raised, while an app started ready with DOTNET_LTTngConfig=CONFIG
# throws N exceptions
exceptions_called() {
	APP_CMD="env DOTNET_LTTngConfig=$1 dotnet $APP"
	app_with_shim "$TPSHIM_DIR" --exceptions "$2"
	run "$CTL" enable "$APP_PID" DotNETRuntime:ExceptionThrown_V1
	assert_success
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=0 exceptions=$2 contentions=0" "$T/app.out" ||
		flunk "$(cat "$T/app.out")"
	run "$CTL" hits "$APP_PID"
	kill -KILL "$APP_PID"
	wait "$APP_PID" 2>/dev/null || true
	APP_PID=
}

@test "tracepoint shim: the runtime calls a tracepoint only if DOTNET_LTTngConfig has its keyword on, whatever its state" {
	need
	# the GC keyword only: ExceptionThrown_V1 (Exception and Monitoring
	# keywords) is neither built nor called, its state raised
	exceptions_called Microsoft-Windows-DotNETRuntime:1:4 7
	assert_output "hits 0 last 0"
	# the Exception keyword: every throw calls it
	exceptions_called Microsoft-Windows-DotNETRuntime:8000:4 7
	[[ $output =~ ^hits\ 7\ last\ [1-9][0-9]*$ ]] || flunk "$output"
}

@test "tracepoint shim: stands down where a real LTTng-UST 2.12 is found, the runtime unharmed" {
	need
	# a shared object of LTTng-UST 2.12's main library's name after the
	# shim on the search path: what the shim takes for a real install
	mkdir -p "$T/real"
	cp "$TPSHIM_DIR/liblttng-ust-tracepoint.so.0" "$T/real/liblttng-ust.so.0"
	app_with_shim "$TPSHIM_DIR:$T/real" --gcs 1
	run "$CTL" list "$APP_PID"
	assert_success
	assert_output $'count 0\ndropped 0\nrefused 1'
	grep -qx "ebpf-collect tracepoint shim: standing down, a real LTTng-UST is at $T/real/liblttng-ust.so.0" \
		"$T/app.out.err" || flunk "$(cat "$T/app.out.err")"
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	run "$EBPF_COLLECT" -l -p "$APP_PID"
	assert_success
	assert_line "pid $APP_PID: tracepoint shim standing down (a real LTTng-UST 2.12 is there)"
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
}

@test "tracepoint shim: silent on stderr unless EBPF_TPSHIM_DEBUG asks; a process without it has no table" {
	need
	rm -f "$T/go"
	bg "$T/app.out" env LD_LIBRARY_PATH="$TPSHIM_DIR" DOTNET_EnableEventLog=1 \
		DOTNET_EventSourceFilter=EbpfCollectNoSuchSource dotnet "$APP" --wait "$T/go" --linger
	APP_PID=$LAST_PID
	wait_for_grep READY "$T/app.out" 60 || flunk "app did not start: $(cat "$T/app.out"*)"
	run "$CTL" list "$APP_PID"
	assert_line "count 447"
	run cat "$T/app.out.err"
	assert_output ""
	# nor does ebpf-collect -l -p speak of a shim a process does not have
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	bg "$T/plain.out" dotnet "$APP" --linger
	local plain=$LAST_PID
	wait_for_grep READY "$T/plain.out" 60 || flunk "app did not start: $(cat "$T/plain.out"*)"
	run "$EBPF_COLLECT" -l -p "$plain"
	kill -KILL "$plain"
	assert_success
	assert_line "pid $plain: traced through EventPipe (no USDT provider)"
	[[ $output != *"tracepoint shim"* ]] || flunk "$output"
	# the shell of this test maps no shim
	run "$CTL" list $$
	assert_failure
	assert_output "tpshim_ctl: process $$: no tracepoint shim"
}

# states_are V: every tracepoint of $APP_PID's shim has state V (0: none
# raised; "nonzero": all raised)
states_are() {
	local out
	out=$("$CTL" list "$APP_PID") || return 1
	if [[ $1 == nonzero ]]; then
		(($(grep -cP '\t[1-9][0-9]*$' <<<"$out") == $(grep -c $'\t' <<<"$out")))
	else
		(($(grep -cP '\t0$' <<<"$out") == $(grep -c $'\t' <<<"$out")))
	fi
}

@test "tracepoint shim: every tracepoint's probes are the shim's probe with its index as data" {
	need
	app_with_shim "$TPSHIM_DIR"
	run "$CTL" probes "$APP_PID"
	assert_success
	# one line per tracepoint: INDEX NAME FUNC DATA, FUNC the table's
	# probe_site, or its probe for doubles for the 4 signatures with a
	# double (5 doubles), DATA the index
	(($(wc -l <<<"$output") == 447)) || flunk "$output"
	local bad
	bad=$(awk '($3 != "site" && $3 != "fpsite") || $4 != $1' <<<"$output")
	[[ -z $bad ]] || flunk "probes not the shim's: $bad"
	(($(grep -c ' fpsite ' <<<"$output") == 4)) || flunk "$output"
	grep -q '^[0-9]* DotNETRuntime:ContentionStop_V1 fpsite ' <<<"$output" || flunk "$output"
}

@test "tracepoint shim: tracepoints held through the kernel (uprobe ref_ctr), every state 0 again once the holder is SIGKILLed" {
	need
	app_with_shim "$TPSHIM_DIR" --gcs 5
	run "$CTL" list "$APP_PID"
	local all
	all=$(grep $'\t' <<<"$output" | cut -f1)
	(($(wc -l <<<"$all") == 447)) || flunk "$output"
	# every one of the 447: each has its own dead instruction of
	# libcoreclr.so (a lazy-binding half of a .plt stub, or padding)
	# shellcheck disable=SC2086
	bg "$T/hold.out" "$CTL" hold "$APP_PID" $all
	local holder=$LAST_PID
	wait_for_grep "HELD 447" "$T/hold.out" 60 || flunk "not held: $(cat "$T/hold.out"*)"
	states_are nonzero || flunk "not every state raised: $("$CTL" list "$APP_PID")"
	# the events fire: GCs and exceptions run with everything enabled
	# (the probe only returns)
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=5 exceptions=0 contentions=0" "$T/app.out" ||
		flunk "$(cat "$T/app.out")"
	kill -KILL "$holder"
	# the kernel takes each uprobe down as the dead holder's descriptors
	# close, one grace period each (about 25 s for 447 on this VM)
	wait_until 120 states_are 0 || flunk "a state still raised: $("$CTL" list "$APP_PID")"
	# and a second holder raises them again: nothing was left behind
	bg "$T/hold2.out" "$CTL" hold "$APP_PID" DotNETRuntime:GCStart_V2 DotNETRuntime:GCStart
	holder=$LAST_PID
	wait_for_grep "HELD 2" "$T/hold2.out" 30 || flunk "not held: $(cat "$T/hold2.out"*)"
	run "$CTL" list "$APP_PID"
	(($(grep -cP '\t1$' <<<"$output") == 2)) || flunk "$output"
	grep -qP '^DotNETRuntime:GCStart_V2\t.*\t1$' <<<"$output" || flunk "$output"
	# a third on one of them shares the kernel's counter: the state stays
	# up while either holds it
	bg "$T/hold3.out" "$CTL" hold "$APP_PID" DotNETRuntime:GCStart_V2
	local third=$LAST_PID
	wait_for_grep "HELD 1" "$T/hold3.out" 30 || flunk "not held: $(cat "$T/hold3.out"*)"
	kill -KILL "$holder"
	wait_until 30 eval '"$CTL" list "$APP_PID" | grep -qP "^DotNETRuntime:GCStart\t.*\t0$"' ||
		flunk "GCStart not lowered: $("$CTL" list "$APP_PID")"
	run "$CTL" list "$APP_PID"
	grep -qP '^DotNETRuntime:GCStart_V2\t.*\t1$' <<<"$output" || flunk "lowered with a holder left: $output"
	kill -KILL "$third"
	wait_until 30 states_are 0 || flunk "a state still raised: $("$CTL" list "$APP_PID")"
}

# fields_of TRACE ID PID: the decoded fields of each DotNETRuntime event ID
# of PID in TRACE, one JSON line each (tests/dotnet_trace.py fields)
fields_of() {
	"$EBPF_COLLECT" dump --json --manifest "$MANIFEST_REAL" "$1" >"$1.json" || flunk "dump $1"
	python3 "$BATS_TEST_DIRNAME/dotnet_trace.py" fields "$1.json" "$3" "$2"
}

# eip_in MAPS: the JSON lines on stdin with each ExceptionEIP given as
# FILE+0xOFFSET of the mapping of MAPS (a /proc/PID/maps) that holds it
eip_in() {
	python3 -c '
import re, sys
maps = []
for line in open(sys.argv[1]):
    f = line.split()
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    maps.append((lo, hi, int(f[2], 16), f[5] if len(f) > 5 else "[anon]"))
def where(m):
    a = int(m.group(1), 16)
    for lo, hi, off, name in maps:
        if lo <= a < hi:
            return "\"ExceptionEIP\": \"%s+0x%x\"" % (name, a - lo + off)
    return m.group(0)
for line in sys.stdin:
    sys.stdout.write(re.sub(r"\"ExceptionEIP\": \"(0x[0-9a-f]+)\"", where, line))
' "$1"
}

# STRIPPED: why a trace through the shim is below the suite's named frame
# floor (tests/traceevent.bats): its stacks are the BPF program's, native
# frames included
STRIPPED="native frames of .NET's stripped host and runtime (libcoreclr.so, libclrjit.so, libhostfxr.so, libhostpolicy.so, dotnet) have no symbol on this machine"

# shim_vs_eventpipe [ARGS...]: the app ($APP_CMD: the SDK's runtime or a
# self-contained build) traced by ebpf-collect -p ARGS through the shim, then
# the same app started plainly and traced through EventPipe, the same
# workload once each tracer runs: the GC, exception, contention and method
# events of both compared event by event, field by field, and by TraceEvent
shim_vs_eventpipe() {
	need
	require_shared
	require_tracecheck
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	# GC, Loader, JIT, Contention, Exception at Verbose; the CLR manifest
	# as the table, which has the versions the runtime fires
	# (MethodLoadVerbose_V1; its ContentionStart_V1 takes V2's calls)
	local prov=Microsoft-Windows-DotNETRuntime:0xC019:5 col shim_pid ep_pid sc
	# five induced GCs, three exceptions (EvtAppTestException, "evtapp
	# 0".."evtapp 2") and three contended locks once tracing runs,
	# through the shim ...
	app_with_shim "$TPSHIM_DIR" --gcs 5 --exceptions 3 --contentions 3
	shim_pid=$APP_PID
	# noted first: an assertion that fails below leaves it all the same
	trace_note "$T/shim.nettrace" stripped "$STRIPPED"
	bg "$T/shim.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/shim.nettrace" --providers "$prov" \
		--manifest "$MANIFEST_REAL" "$@"
	col=$LAST_PID
	wait_for_grep "Ctrl-C" "$T/shim.out.err" 60 || flunk "$(cat "$T/shim.out.err")"
	grep -q "^ebpf-collect: pid $APP_PID: traced through the tracepoint shim: [1-9][0-9]* tracepoints enabled" \
		"$T/shim.out.err" || flunk "$(cat "$T/shim.out.err")"
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	# the process's own count of contended locks (see below)
	sc=$(sed -n 's/^COUNTS gen0=0 gen1=0 gen2=5 exceptions=3 contentions=\([0-9]*\)$/\1/p' "$T/app.out")
	((sc >= 3)) || flunk "$(cat "$T/app.out")"
	kill -INT "$col"
	wait "$col" || flunk "collector status $?: $(cat "$T/shim.out.err")"
	grep -q "EventPipe" "$T/shim.out.err" && flunk "EventPipe used: $(cat "$T/shim.out.err")"
	cp "/proc/$APP_PID/maps" "$T/shim.maps"
	kill -KILL "$APP_PID"
	wait "$APP_PID" 2>/dev/null || true
	# ... and the same app, started plainly, through EventPipe
	rm -f "$T/go"
	# shellcheck disable=SC2086
	bg "$T/app.out" $APP_CMD --wait "$T/go" --gcs 5 --exceptions 3 --contentions 3 --linger
	APP_PID=$LAST_PID
	ep_pid=$APP_PID
	wait_for_grep READY "$T/app.out" 60 || flunk "app did not start: $(cat "$T/app.out"*)"
	bg "$T/ep.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/ep.nettrace" --providers "$prov" \
		--manifest "$MANIFEST_REAL"
	col=$LAST_PID
	wait_for_grep "EventPipe session over" "$T/ep.out.err" 60 || flunk "$(cat "$T/ep.out.err")"
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	kill -INT "$col"
	wait "$col" || flunk "collector status $?: $(cat "$T/ep.out.err")"
	cp "/proc/$APP_PID/maps" "$T/ep.maps"
	# the process's own count of contended locks (Monitor's, from the go
	# to DONE): the workload's three, and now and then a fourth on .NET 8
	# (seen under EventPipe, and under the shim in a full run), so each
	# trace's contention events are held to the count of the process it
	# traced
	local shim ep epc
	epc=$(sed -n 's/^COUNTS gen0=0 gen1=0 gen2=5 exceptions=3 contentions=\([0-9]*\)$/\1/p' "$T/app.out")
	((epc >= 3)) || flunk "$(cat "$T/app.out")"
	# ExceptionThrown_V1 (80): the same three, type, message, HRESULT,
	# flags and all, the throwing instruction (ExceptionEIP, an address
	# .NET 8 gives) as its file and offset: each process maps the runtime
	# at its own address
	shim=$(fields_of "$T/shim.nettrace" 80 "$shim_pid" | eip_in "$T/shim.maps")
	ep=$(fields_of "$T/ep.nettrace" 80 "$ep_pid" | eip_in "$T/ep.maps")
	(($(wc -l <<<"$shim") == 3)) || flunk "shim: $shim"
	for i in 0 1 2; do
		grep -q "\"ExceptionMessage\": \"evtapp $i\", \"ExceptionType\": \"EvtAppTestException\"" \
			<<<"$shim" || flunk "shim: $shim"
	done
	assert_equal "$shim" "$ep"
	# GCEnd_V1 (2): the five GCs, Count 1..5
	shim=$(fields_of "$T/shim.nettrace" 2 "$shim_pid")
	ep=$(fields_of "$T/ep.nettrace" 2 "$ep_pid")
	(($(grep -c '"Depth": 2' <<<"$shim") == 5)) || flunk "shim: $shim"
	assert_equal "$shim" "$ep"
	# GCStart_V2 (1): EventPipe's five but the first, which the GC decided
	# to fire (or not) before it read DotNETRuntime:GCStart's raised state
	# (usdt/README.md, "The tracepoint shim")
	shim=$(fields_of "$T/shim.nettrace" 1 "$shim_pid")
	ep=$(fields_of "$T/ep.nettrace" 1 "$ep_pid")
	(($(wc -l <<<"$ep") == 5)) || flunk "EventPipe: $ep"
	(($(wc -l <<<"$shim") == 4)) || flunk "shim: $shim"
	assert_equal "$shim" "$(grep -v '"Count": 1,' <<<"$ep")"
	# the counts of both (tests/dotnet_trace.py counts): the same but
	# that first GCStart, each process's contended locks as it counted
	# them; the methods JIT-compiled for the workload (MethodLoadVerbose)
	# included
	run python3 "$BATS_TEST_DIRNAME/dotnet_trace.py" counts "$T/shim.nettrace.json" "$shim_pid"
	assert_success
	shim=$output
	run python3 "$BATS_TEST_DIRNAME/dotnet_trace.py" counts "$T/ep.nettrace.json" "$ep_pid"
	assert_success
	ep=$output
	assert_equal "$shim" "$(sed -e 's/^gcstart 5$/gcstart 4/' -e 's/^induced 5$/induced 4/' \
		-e "s/^contention_start $epc\$/contention_start $sc/" \
		-e "s/^contention_stop $epc\$/contention_stop $sc/" <<<"$ep")"
	assert_line "contention_start $sc"
	assert_line "contention_stop $sc"
	assert_line "methods EvtAppContend EvtAppInduceGcs EvtAppManyEvents EvtAppMarkers EvtAppThrowOne"
	# ContentionStop_V1's DurationNs, a double, through the probe for
	# doubles: nanoseconds a lock was waited for, as EventPipe's are (a
	# fourth contention may be the runtime's own, waited for briefly)
	shim=$(fields_of "$T/shim.nettrace" 91 "$shim_pid")
	(($(grep -cE '"DurationNs": [1-9][0-9]*(\.[0-9]+)?,' <<<"$shim") == sc)) || flunk "shim: $shim"
	(($(grep -cE '"DurationNs": [1-9][0-9]{3,}(\.[0-9]+)?,' <<<"$shim") >= 3)) || flunk "shim: $shim"
	# and TraceEvent reads both alike: every payload decoded, no event
	# unknown, the same count of each kind but that first GC/Start
	tracecheck --json --no-tracelog "$T/shim.nettrace" "$T/ep.nettrace" >"$T/tc.jsonl" ||
		flunk "TraceCheck: $(cat "$T/tc.jsonl")"
	run python3 "$BATS_TEST_DIRNAME/dotnet_trace.py" tracecheck-pair "$T/tc.jsonl" $((epc - sc))
	assert_success
	assert_line "Microsoft-Windows-DotNETRuntime/Exception/Start 3"
	# the shim process's own count, as above (the workload's three, now
	# and then a fourth)
	assert_line "Microsoft-Windows-DotNETRuntime/Contention/Start $sc"
	assert_line "Microsoft-Windows-DotNETRuntime/Contention/Stop $sc"
	# the app's JIT frames named in TraceLog (Main, compiled before the
	# trace, from the perf map the collector turned on and removed once
	# the trace was written; the workload's, compiled during it, from
	# their method-load events too)
	[[ ! -e /tmp/perf-$shim_pid.map ]] || flunk "perf map left: /tmp/perf-$shim_pid.map"
	tracecheck --json --min-named 0 --frames "$T/shim.nettrace" >"$T/frames.json" ||
		flunk "TraceCheck --frames failed"
	for m in Main EvtAppThrowOne EvtAppInduceGcs EvtAppContend; do
		grep -q "!Program.$m(" "$T/frames.json" || flunk "no named frame of $m"
	done
}

@test "tracepoint shim: ebpf-collect -p records through the shim the GC, exception, contention and method events EventPipe records of the same workload" {
	shim_vs_eventpipe
}

@test "tracepoint shim: --batched: every call from the shim's per-thread buffers, the same GC, exception, contention and method events as EventPipe, none lost" {
	shim_vs_eventpipe --batched
	# every selected tracepoint the collector records batched, with the
	# stacks the shim walked; every event of the trace came in the shim's
	# runs, none missing from a thread's sequence, none dropped whole
	local pid n events
	pid=$(sed -n 's/^ebpf-collect: pid \([0-9]*\): traced through the tracepoint shim: .*/\1/p' \
		"$T/shim.out.err")
	n=$(sed -n "s/^ebpf-collect: pid $pid: \([1-9][0-9]*\) tracepoints batched in-process in the tracepoint shim (user stacks walked by the shim)\$/\1/p" \
		"$T/shim.out.err")
	[[ -n $n ]] || flunk "not batched: $(cat "$T/shim.out.err")"
	events=$(sed -n 's/^ebpf-collect: \([0-9]*\) events (.*/\1/p' "$T/shim.out.err")
	((events > 0)) || flunk "$(cat "$T/shim.out.err")"
	grep -qE "^pid $pid: tracepoint shim batched: $events calls in [1-9][0-9]* runs from the shim's buffers, 0 lost by sequence gaps\$" \
		"$T/shim.out.err" || flunk "$(cat "$T/shim.out.err")"
	grep -qx "tracepoint shim: 0 batched calls lost in runs the ring could not take" \
		"$T/shim.out.err" || flunk "$(cat "$T/shim.out.err")"
}

@test "tracepoint shim: ebpf-collect --tracepoint-shim -- dotnet app.dll traces it from its start through the shim, the same events as EventPipe from its start" {
	need
	require_shared
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	local prov=Microsoft-Windows-DotNETRuntime:0x8001:4 shim ep id
	run "$EBPF_COLLECT" --tracepoint-shim --providers "$prov" -o "$T/shim.nettrace" \
		-- dotnet "$APP" --gcs 3 --exceptions 2
	assert_success
	trace_note "$T/shim.nettrace" stripped "$STRIPPED"
	local child
	child=$(sed -n 's/^ebpf-collect: pid \([0-9]*\): traced through the tracepoint shim: [1-9][0-9]* tracepoints enabled.*/\1/p' <<<"$output")
	[[ -n $child ]] || flunk "$output"
	assert_line "READY $child"
	[[ $output != *"EventPipe session"* ]] || flunk "EventPipe used: $output"
	assert_line "COUNTS gen0=0 gen1=0 gen2=3 exceptions=2 contentions=0"
	run "$EBPF_COLLECT" --providers "$prov" -o "$T/ep.nettrace" -- dotnet "$APP" --gcs 3 --exceptions 2
	assert_success
	local epchild
	epchild=$(sed -n 's/^READY //p' <<<"$output")
	[[ -n $epchild ]] || flunk "$output"
	grep -q "^ebpf-collect: pid $epchild: EventPipe session (CollectTracing3): " <<<"$output" ||
		flunk "$output"
	# from its start both see every GC: GCStart_V2 (1) and GCEnd_V1 (2)
	# Count 1..3, and the two exceptions, field for field
	for id in 1 2 80; do
		shim=$(fields_of "$T/shim.nettrace" "$id" "$child")
		ep=$(fields_of "$T/ep.nettrace" "$id" "$epchild")
		[[ -n $shim ]] || flunk "no event $id through the shim"
		assert_equal "$shim" "$ep"
	done
	(($(fields_of "$T/shim.nettrace" 1 "$child" | grep -c '"Reason": 1,') == 3)) || flunk "induced GCs"
	grep -q '"ExceptionMessage": "evtapp 1", "ExceptionType": "EvtAppTestException"' <<<"$shim" ||
		flunk "$shim"
	# for -- dotnet CMD only, and for a .NET host only: one line, exit 64
	run "$EBPF_COLLECT" --tracepoint-shim -p $$
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output "ebpf-collect: --tracepoint-shim starts -- CMD ready for the shim (a -p process started with it is traced through it anyway)"
	run "$EBPF_COLLECT" --tracepoint-shim -o "$T/x.nettrace" -- /bin/true
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output "ebpf-collect: --tracepoint-shim: /bin/true is not a .NET host (dotnet or an apphost)"
}

# mixed_pid TRACE PID M: in TRACE, evtapp --mixed M (and --gcs 3) of PID
# through the shim with EventPipe beside it: its M exceptions through the
# shim, field for field, and its M EvtApp-Marker events over EventPipe,
# Index decoded, each exactly once, alternating in the file as the app
# fired them and by their timestamps; its three GCs once each (GCEnd_V1)
mixed_pid() {
	local f
	f=$(fields_of "$1" 80 "$2")	# dumps $1.json
	(($(grep -c '"ExceptionType": "EvtAppTestException"' <<<"$f") == $3)) || flunk "exceptions: $f"
	grep -q '"ExceptionMessage": "evtapp 0", "ExceptionType": "EvtAppTestException"' <<<"$f" ||
		flunk "$f"
	f=$(fields_of "$1" 2 "$2")
	(($(grep -c '"Depth": 2' <<<"$f") == 3 && $(grep -c . <<<"$f") == 3)) || flunk "GCs: $f"
	run python3 "$BATS_TEST_DIRNAME/dotnet_trace.py" mixed "$1.json" "$2"
	assert_success
	assert_output "exceptions $3 1 $3
markers $3 1 $3
alternate $3
monotonic 1"
}

# tc_mixed_counts TC: from TraceCheck's --json output, "bad unhandled lost
# markers exceptions gc-ends" (the two paths' events and the GCs)
tc_mixed_counts() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = d["by_event"]
print(d["bad_payloads"], d["unhandled"], d["lost"], e.get("EvtApp-Marker/Marker"),
      e.get("Microsoft-Windows-DotNETRuntime/Exception/Start"),
      e.get("Microsoft-Windows-DotNETRuntime/GC/Stop"))' "$1"
}

# mixed_checks TRACE PID M: mixed_pid, and TraceEvent reads every event of
# both paths and names the frames
mixed_checks() {
	mixed_pid "$@"
	tracecheck --json --min-named 0.99 --frames "$1" >"$1.tc" || flunk "TraceCheck: $(cat "$1.tc")"
	# the methods of the workload named in TraceLog (from the rundown the
	# session beside the shim brings, and the perf map)
	for f in EvtAppMixed EvtAppThrowOne Main; do
		grep -q "!Program.$f(" "$1.tc" || flunk "no named frame of $f"
	done
	run tc_mixed_counts "$1.tc"
	assert_output "0 0 0 $3 $3 3"
}

@test "tracepoint shim: -p with an EventSource in --providers: the runtime's events through the shim, the EventSource's over an EventPipe session beside it, in one trace, each once, in time order" {
	need
	require_shared
	require_tracecheck
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	local prov=Microsoft-Windows-DotNETRuntime:0x8001:4,EvtApp-Marker col err n
	# 25 times an exception then a marker, then three induced GCs
	app_with_shim "$TPSHIM_DIR" --mixed 25 --gcs 3
	bg "$T/col.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/m.nettrace" --providers "$prov"
	col=$LAST_PID
	err=$T/col.out.err
	wait_for_grep "Ctrl-C" "$err" 60 || flunk "$(cat "$err")"
	n=$(sed -n "s/^ebpf-collect: pid $APP_PID: traced through the tracepoint shim: \([0-9]*\) tracepoints enabled.*/\1/p" "$err")
	((n > 0)) || flunk "$(cat "$err")"
	grep -q "^ebpf-collect: pid $APP_PID: EventPipe session beside the tracepoint shim over .* (CollectTracing3): EvtApp-Marker$" \
		"$err" || flunk "$(cat "$err")"
	grep -q "^ebpf-collect: tracing 1 .NET process through the tracepoint shim (1 with an EventPipe session beside it for EvtApp-Marker); writing " \
		"$err" || flunk "$(cat "$err")"
	# the session enables none of the runtime's tracepoints' providers:
	# exactly the shim's n states are raised, the rundown's left down
	# (EventPipe's rundown would call them too)
	run "$CTL" list "$APP_PID"
	(($(grep -cP '\t[1-9][0-9]*$' <<<"$output") == n)) || flunk "$n enabled: $output"
	grep -P '^DotNETRuntimeRundown:.*\t[1-9][0-9]*$' <<<"$output" && flunk "a rundown tracepoint raised"
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=3 exceptions=25 contentions=0" "$T/app.out" ||
		flunk "$(cat "$T/app.out")"
	kill -INT "$col"
	wait "$col" || flunk "collector status $?: $(cat "$err")"
	grep -q "^ebpf-collect: pid $APP_PID: EventPipe session (CollectTracing3): " "$err" ||
		flunk "$(cat "$err")"
	[[ ! -e /tmp/perf-$APP_PID.map ]] || flunk "perf map left: /tmp/perf-$APP_PID.map"
	mixed_checks "$T/m.nettrace" "$APP_PID" 25
}

@test "tracepoint shim: --tracepoint-shim -- dotnet app.dll with an EventSource in --providers: the shim and EventPipe beside it from its start, each event once, in time order" {
	need
	require_shared
	require_tracecheck
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	run "$EBPF_COLLECT" --tracepoint-shim -o "$T/c.nettrace" \
		--providers Microsoft-Windows-DotNETRuntime:0x8001:4,EvtApp-Marker \
		-- dotnet "$APP" --mixed 10 --gcs 3
	assert_success
	local child
	child=$(sed -n 's/^READY //p' <<<"$output")
	[[ -n $child ]] || flunk "$output"
	assert_line "ebpf-collect: tracing the .NET runtime of dotnet through the tracepoint shim from its start, with an EventPipe session beside it for EvtApp-Marker; writing $T/c.nettrace; Ctrl-C to stop"
	grep -q "^ebpf-collect: pid $child: traced through the tracepoint shim: [1-9][0-9]* tracepoints enabled" <<<"$output" ||
		flunk "$output"
	grep -q "^ebpf-collect: pid $child: EventPipe session beside the tracepoint shim over .*: EvtApp-Marker$" <<<"$output" ||
		flunk "$output"
	assert_line "COUNTS gen0=0 gen1=0 gen2=3 exceptions=10 contentions=0"
	mixed_checks "$T/c.nettrace" "$child" 10
}

# shim_started_config [VAR=VALUE]: ebpf-collect --tracepoint-shim (run
# with VAR=VALUE in its environment) traces an app throwing 2 exceptions;
# the app's DOTNET_LTTngConfig read while it waits in output, its pid in
# child, the trace in $T/cfg.nettrace
shim_started_config() {
	local col
	rm -f "$T/go" "$T/col.out"
	bg "$T/col.out" env "$@" "$EBPF_COLLECT" --tracepoint-shim \
		--providers "DotNETRuntime:0x8000:4,DotNETRuntime:0x1:5" -o "$T/cfg.nettrace" \
		-- dotnet "$APP" --wait "$T/go" --exceptions 2
	col=$LAST_PID
	wait_for_grep "^READY " "$T/col.out" 60 || flunk "$(cat "$T/col.out"*)"
	child=$(sed -n 's/^READY //p' "$T/col.out")
	output=$(tr '\0' '\n' <"/proc/$child/environ" | grep '^DOTNET_LTTngConfig=' || true)
	touch "$T/go"
	wait "$col" || flunk "collector status $?: $(cat "$T/col.out"*)"
	grep -q "^ebpf-collect: pid $child: traced through the tracepoint shim" "$T/col.out.err" ||
		flunk "$(cat "$T/col.out"*)"
}

@test "tracepoint shim: ebpf-collect --tracepoint-shim starts the runtime with the selected keywords only (DOTNET_LTTngConfig), a user's own kept" {
	need
	require_shared
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	local child
	# the two requests of one provider merged into the runtime's one
	# entry; its exceptions traced
	shim_started_config
	assert_output "DOTNET_LTTngConfig=Microsoft-Windows-DotNETRuntime:8001:5"
	(($(fields_of "$T/cfg.nettrace" 80 "$child" | grep -c '"ExceptionType": "EvtAppTestException"') == 2)) ||
		flunk "$(fields_of "$T/cfg.nettrace" 80 "$child")"
	# the user's own configuration stays
	shim_started_config DOTNET_LTTngConfig=Microsoft-Windows-DotNETRuntime:FFFFFFFF:5
	assert_output "DOTNET_LTTngConfig=Microsoft-Windows-DotNETRuntime:FFFFFFFF:5"
}

# env_run NAME ENV-ARGS -- PROVIDERS: the app started with the shim and
# ENV-ARGS given to env(1) before it, traced by ebpf-collect -p for
# PROVIDERS while it throws its three exceptions and induces two GCs;
# $T/NAME.nettrace and .out.err, the app's own counts checked, and what
# -l -p said of it before in $T/NAME.list
env_run() {
	local name=$1 col
	shift
	APP_CMD="env"
	while [[ $1 != -- ]]; do APP_CMD+=" $1"; shift; done
	APP_CMD+=" dotnet $APP"
	app_with_shim "$TPSHIM_DIR" --exceptions 3 --gcs 2
	"$EBPF_COLLECT" -l -p "$APP_PID" --providers "$2" --manifest "$MANIFEST_REAL" \
		>"$T/$name.list" 2>&1 || flunk "-l: $(cat "$T/$name.list")"
	trace_note "$T/$name.nettrace" stripped "$STRIPPED"
	bg "$T/$name.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/$name.nettrace" --providers "$2" \
		--manifest "$MANIFEST_REAL"
	col=$LAST_PID
	wait_for_grep "Ctrl-C" "$T/$name.out.err" 60 || flunk "$(cat "$T/$name.out.err")"
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=2 exceptions=3 contentions=0" "$T/app.out" ||
		flunk "$(cat "$T/app.out")"
	kill -INT "$col"
	wait "$col" || flunk "collector status $?: $(cat "$T/$name.out.err")"
	cat "$T/$name.out.err"
	NAME_PID=$APP_PID
	kill -KILL "$APP_PID"
	wait "$APP_PID" 2>/dev/null || true
	APP_PID=
}

@test "tracepoint shim: a process whose start-up environment keeps its runtime from calling the selected tracepoints is traced through EventPipe, with a line naming what is left out and the value that covers it" {
	need
	require_shared
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	local exc=Microsoft-Windows-DotNETRuntime:0x8000:4 both=Microsoft-Windows-DotNETRuntime:0x8001:4
	# without DOTNET_EnableEventLog=1 the runtime calls its tracepoints
	# for none of these: EventPipe records the three exceptions
	env_run noeventlog -u DOTNET_EnableEventLog -- "$exc"
	grep -q "^ebpf-collect: pid $NAME_PID: offers the tracepoint shim, but was started without DOTNET_EnableEventLog=1, .*: traced through EventPipe$" \
		"$T/noeventlog.out.err" || flunk "no line"
	grep -q "EventPipe session over" "$T/noeventlog.out.err" || flunk "no EventPipe session"
	# -l -p says the same before
	grep -q "^pid $NAME_PID: offers the tracepoint shim, but was started without DOTNET_EnableEventLog=1, " \
		"$T/noeventlog.list" || flunk "-l: $(cat "$T/noeventlog.list")"
	grep -qx "pid $NAME_PID: traced through EventPipe (no USDT provider)" "$T/noeventlog.list" ||
		flunk "-l: $(cat "$T/noeventlog.list")"
	(($(fields_of "$T/noeventlog.nettrace" 80 "$NAME_PID" | grep -c '"ExceptionType": "EvtAppTestException"') == 3)) ||
		flunk "$(fields_of "$T/noeventlog.nettrace" 80 "$NAME_PID")"
	# its LTTngConfig has the GC keyword only, the selection GC and
	# Exception: EventPipe again, the three exceptions and two GCs, and
	# the line names the value that covers the selection
	env_run gconly DOTNET_LTTngConfig=Microsoft-Windows-DotNETRuntime:1:4 -- "$both"
	grep -q "^ebpf-collect: pid $NAME_PID: offers the tracepoint shim, but its runtime calls no tracepoint for [1-9][0-9]* of the selected events (Microsoft-Windows-DotNETRuntime/Exception/[A-Za-z]* among them): DOTNET_LTTngConfig=Microsoft-Windows-DotNETRuntime:1:4, read at its start, leaves out their keywords or level; traced through EventPipe (DOTNET_LTTngConfig=Microsoft-Windows-DotNETRuntime:8001:4 covers the selection)$" \
		"$T/gconly.out.err" || flunk "no line"
	grep -q "EventPipe session over" "$T/gconly.out.err" || flunk "no EventPipe session"
	grep -qx "pid $NAME_PID: traced through EventPipe (no USDT provider)" "$T/gconly.list" ||
		flunk "-l: $(cat "$T/gconly.list")"
	(($(fields_of "$T/gconly.nettrace" 80 "$NAME_PID" | grep -c '"ExceptionType": "EvtAppTestException"') == 3)) ||
		flunk "$(fields_of "$T/gconly.nettrace" 80 "$NAME_PID")"
	(($(fields_of "$T/gconly.nettrace" 2 "$NAME_PID" | grep -c '"Depth": 2') == 2)) ||
		flunk "GCEnd: $(fields_of "$T/gconly.nettrace" 2 "$NAME_PID")"
	# that value: through the shim, both kinds
	env_run covered DOTNET_LTTngConfig=Microsoft-Windows-DotNETRuntime:8001:4 -- "$both"
	grep -q "^ebpf-collect: pid $NAME_PID: traced through the tracepoint shim: [1-9][0-9]* tracepoints enabled" \
		"$T/covered.out.err" || flunk "not through the shim"
	grep -qx "pid $NAME_PID: traced through the tracepoint shim (no USDT provider)" \
		"$T/covered.list" || flunk "-l: $(cat "$T/covered.list")"
	! grep -q "EventPipe\|calls no tracepoint" "$T/covered.out.err" || flunk "EventPipe used"
	(($(fields_of "$T/covered.nettrace" 80 "$NAME_PID" | grep -c '"ExceptionType": "EvtAppTestException"') == 3)) ||
		flunk "$(fields_of "$T/covered.nettrace" 80 "$NAME_PID")"
	(($(fields_of "$T/covered.nettrace" 2 "$NAME_PID" | grep -c '"Depth": 2') == 2)) ||
		flunk "GCEnd: $(fields_of "$T/covered.nettrace" 2 "$NAME_PID")"
}

# round K VAR: the app's exception round K (after $T/go, or $T/go.K); the
# throwing thread's CPU ns per throw it printed in VAR
round() {
	if (($1 == 0)); then touch "$T/go"; else touch "$T/go.$1"; fi
	wait_for_grep "^ROUND $1 " "$T/app.out" 120 || flunk "round $1 not done: $(cat "$T/app.out"*)"
	printf -v "$2" %s "$(sed -n "s/^ROUND $1 //p" "$T/app.out")"
}

@test "tracepoint shim: ebpf-collect SIGKILLed while tracing through the shim leaves every state 0, the app's cost per throw back to untraced" {
	need
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	# the same process throws 20000 exceptions in rounds: one to warm up
	# (tier-0 code, first-time costs), three untraced, one traced, three
	# after the collector was killed; a round's cost is the throwing
	# thread's CPU time per throw, which other processes on a busy machine
	# do not add to as they do to wall time
	app_with_shim "$TPSHIM_DIR" --gcs 3 --exceptions 20000 --rounds 8
	local r v b=() a=() base traced after
	round 0 v
	for r in 1 2 3; do
		round $r v
		b+=("$v")
	done
	bg "$T/c.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/k.nettrace"
	local col=$LAST_PID n
	wait_for_grep "Ctrl-C" "$T/c.out.err" 60 || flunk "$(cat "$T/c.out.err")"
	n=$(sed -n "s/^ebpf-collect: pid $APP_PID: traced through the tracepoint shim: \([0-9]*\) tracepoints enabled.*/\1/p" \
		"$T/c.out.err")
	((n > 0)) || flunk "$(cat "$T/c.out.err")"
	# as many states raised as the collector enabled (the default profile)
	run "$CTL" list "$APP_PID"
	(($(grep -cP '\t[1-9][0-9]*$' <<<"$output") == n)) || flunk "$n enabled: $output"
	round 4 traced
	kill -KILL "$col"
	wait "$col" 2>/dev/null || true
	# the kernel lowers each as the dead collector's descriptors close
	wait_until 120 states_are 0 || flunk "a state still raised: $("$CTL" list "$APP_PID")"
	for r in 5 6 7; do
		round $r v
		a+=("$v")
	done
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=3 exceptions=160000 contentions=0" "$T/app.out" ||
		flunk "$(cat "$T/app.out")"
	# the medians of three rounds: a runtime started with
	# DOTNET_EnableEventLog=1 varies from round to round by up to a third
	# of a throw's cost (measured: 4.0 to 6.7 us a throw untraced, where a
	# plain start's rounds stay within 10 % of 3.4 us)
	base=$(printf '%s\n' "${b[@]}" | sort -n | sed -n 2p)
	after=$(printf '%s\n' "${a[@]}" | sort -n | sed -n 2p)
	# tracing adds to each throw its four exception events of the default
	# profile, each with its stack (tests/bench/bench_tpshim.sh: about 2 us
	# an event): the traced round costs at least 1.5 times an untraced one.
	# Once the collector is dead a throw costs what it did untraced, to
	# within a third of what tracing added: above that round-to-round
	# noise, below what two of the four events left traced would add
	awk -v b="$base" -v t="$traced" -v a="$after" \
		'BEGIN { exit !(t >= 1.5 * b && a - b <= (t - b) / 3) }' ||
		flunk "ns per throw: untraced ${b[*]}, traced $traced, after SIGKILL ${a[*]}"
	# a trace cut by SIGKILL has no names (they are written at the end)
	[[ ! -e $T/k.nettrace ]] || trace_note "$T/k.nettrace" unnamed "the collector was killed, so it wrote no names (they come at the end)"
}

# folded_of NAME ARGS...: the app ready for the shim throwing 3
# exceptions, traced by ebpf-collect -p ARGS through the shim; the folded
# stacks of its ExceptionThrown_V1 events in $T/NAME.folded
folded_of() {
	local name=$1 col
	shift
	app_with_shim "$TPSHIM_DIR" --exceptions 3
	bg "$T/$name.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/$name.nettrace" \
		--providers Microsoft-Windows-DotNETRuntime:0x8000:4 "$@"
	col=$LAST_PID
	wait_for_grep "Ctrl-C" "$T/$name.out.err" 60 || flunk "$(cat "$T/$name.out.err")"
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	kill -INT "$col"
	wait "$col" || flunk "collector status $?: $(cat "$T/$name.out.err")"
	kill -KILL "$APP_PID"
	wait "$APP_PID" 2>/dev/null || true
	APP_PID=
	"$EBPF_COLLECT" convert "$T/$name.nettrace" --format folded --event ExceptionThrown_V1 \
		-o "$T/$name.folded" || flunk "convert $name"
	# 3 of its 276 frames: more than the 1 % traceevent.bats allows
	trace_note "$T/$name.nettrace" unnamed "the throw's frame in System.Private.CoreLib's ReadyToRun code: a shim trace without an EventPipe session beside it has no rundown, and the perf map lists JIT-compiled code only (collector/README.md)"
}

@test "tracepoint shim: --batched: the stacks the shim walks are the frames the per-event probe's BPF walk takes" {
	need
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	folded_of pe
	folded_of ba --batched
	grep -q "tracepoints batched in-process in the tracepoint shim (user stacks walked by the shim)" \
		"$T/ba.out.err" || flunk "$(cat "$T/ba.out.err")"
	# the three throws' stacks, from the call site in the runtime (none of
	# the shim's own frames) through the app's methods to the thread's start
	(($(awk '{ s += $NF } END { print s }' "$T/pe.folded") == 3)) || flunk "$(cat "$T/pe.folded")"
	grep -q 'evtapp!Program.EvtAppThrowOne(int32);libcoreclr.so' "$T/ba.folded" ||
		flunk "$(cat "$T/ba.folded")"
	grep -q 'liblttng-ust-tracepoint' "$T/ba.folded" && flunk "a shim frame: $(cat "$T/ba.folded")"
	assert_equal "$(cat "$T/ba.folded")" "$(cat "$T/pe.folded")"
}

# batch_is LINE: tpshim_ctl batch of the app says LINE
batch_is() {
	[[ $("$CTL" batch "$APP_PID") == "$1" ]]
}

@test "tracepoint shim: --batched, the collector SIGKILLed: the batch semaphore and every state back to 0, the dead collector's mask inert and cleared by the next collector, whose trace is whole" {
	need
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	local prov=Microsoft-Windows-DotNETRuntime:0x8000:4 n col r v
	# 2000 throws a round: round 0 traced batched by a collector then
	# killed, round 1 by the next one
	app_with_shim "$TPSHIM_DIR" --exceptions 2000 --rounds 2
	run "$CTL" batch "$APP_PID"
	assert_output "semaphore 0 active 0 session 0 mask 0"
	bg "$T/c1.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/k.nettrace" --providers "$prov" --batched
	col=$LAST_PID
	wait_for_grep "Ctrl-C" "$T/c1.out.err" 60 || flunk "$(cat "$T/c1.out.err")"
	n=$(sed -n "s/^ebpf-collect: pid $APP_PID: \([1-9][0-9]*\) tracepoints batched in-process in the tracepoint shim (user stacks walked by the shim)\$/\1/p" \
		"$T/c1.out.err")
	[[ -n $n ]] || flunk "$(cat "$T/c1.out.err")"
	# the semaphore the kernel holds up for the collector's batch site,
	# its mask, a session
	run "$CTL" batch "$APP_PID"
	assert_output "semaphore 1 active 1 session 1 mask $n"
	round 0 v
	kill -KILL "$col"
	wait "$col" 2>/dev/null || true
	[[ ! -e $T/k.nettrace ]] || trace_note "$T/k.nettrace" unnamed "the collector was killed, so it wrote no names (they come at the end)"
	# the kernel lowers the semaphore and the states as the dead
	# collector's descriptors close; the mask it wrote stays, and counts
	# for nothing without the semaphore: every call goes to the probe
	# site, which no uprobe holds
	wait_until 120 states_are 0 || flunk "a state still raised: $("$CTL" list "$APP_PID")"
	wait_until 120 batch_is "semaphore 0 active 1 session 1 mask $n" ||
		flunk "batched mode: $("$CTL" batch "$APP_PID")"
	# the next collector clears what the dead one left, saying so
	# (architecture decision 24), and starts a new session, whose trace
	# has round 1's 2000 throws exactly (nothing of round 0 left in the
	# buffers), every call from the shim's runs, none lost
	bg "$T/c2.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/k2.nettrace" --providers "$prov" --batched
	col=$LAST_PID
	wait_for_grep "Ctrl-C" "$T/c2.out.err" 60 || flunk "$(cat "$T/c2.out.err")"
	grep -qx "ebpf-collect: pid $APP_PID: the tracepoint shim's batched mode was left set by a tracer that died (session 1, $n tracepoints): cleared" \
		"$T/c2.out.err" || flunk "$(cat "$T/c2.out.err")"
	run "$CTL" batch "$APP_PID"
	assert_output "semaphore 1 active 1 session 2 mask $n"
	round 1 v
	wait_for_grep DONE "$T/app.out" 60 || flunk "app did not finish: $(cat "$T/app.out"*)"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=0 exceptions=4000 contentions=0" "$T/app.out" ||
		flunk "$(cat "$T/app.out")"
	kill -INT "$col"
	wait "$col" || flunk "collector status $?: $(cat "$T/c2.out.err")"
	grep -qE '^DotNETRuntime +ExceptionThrown_V1 +2000$' "$T/c2.out.err" ||
		flunk "$(cat "$T/c2.out.err")"
	local events
	events=$(sed -n 's/^ebpf-collect: \([0-9]*\) events (.*/\1/p' "$T/c2.out.err")
	grep -qE "^pid $APP_PID: tracepoint shim batched: $events calls in [1-9][0-9]* runs from the shim's buffers, 0 lost by sequence gaps\$" \
		"$T/c2.out.err" || flunk "$(cat "$T/c2.out.err")"
	grep -qx "tracepoint shim: 0 batched calls lost in runs the ring could not take" \
		"$T/c2.out.err" || flunk "$(cat "$T/c2.out.err")"
	# a clean stop clears the mask and lets the semaphore go
	wait_until 120 batch_is "semaphore 0 active 0 session 2 mask 0" ||
		flunk "batched mode: $("$CTL" batch "$APP_PID")"
}

# gc_through_shim V COUNT RUNTIME PRIVATE RUNDOWN U64: the self-contained
# .NET V app registers COUNT tracepoints (per provider as given), the 64-bit
# argument of GCStart_V2's signature spelled U64, and its five induced GCs
# reach the demonstration probe as on .NET 10
gc_through_shim() {
	need
	build_sc "$1" || flunk "self-contained net$1.0 app not built ($OUTPUT/tests/dotnet/build-net$1.log)"
	APP_CMD=$OUTPUT/tests/dotnet/evtapp-net$1/evtapp
	app_with_shim "$TPSHIM_DIR" --gcs 5
	run "$CTL" list "$APP_PID"
	assert_success
	assert_line "count $2"
	(($(grep -c $'^DotNETRuntime:' <<<"$output") == $3)) || flunk "DotNETRuntime: $output"
	(($(grep -c $'^DotNETRuntimePrivate:' <<<"$output") == $4)) || flunk "Private: $output"
	(($(grep -c $'^DotNETRuntimeRundown:' <<<"$output") == $5)) || flunk "Rundown: $output"
	assert_line "DotNETRuntime:GCStart_V2	const unsigned int, Count, const unsigned int, Depth, const unsigned int, Reason, const unsigned int, Type, const unsigned short, ClrInstanceID, $6, ClientSequenceNumber	0"
	"$CTL" enable "$APP_PID" DotNETRuntime:GCStart_V2 || flunk "enable"
	"$CTL" raise "$APP_PID" DotNETRuntime:GCStart || flunk "raise"
	five_gcs_seen
}

# the counts of .NET 8.0.31 and 9.0.20 (the registry's runtime packs the
# self-contained builds take): each release added DotNETRuntime events, and
# .NET 8's generator spelled a 64-bit argument "const unsigned long" where
# the later ones write "const uint64_t" (a decoder by signature takes both)
@test "tracepoint shim: a self-contained .NET 8 app registers 442 tracepoints and fires GCStart_V2" {
	gc_through_shim 8 442 207 185 50 "const unsigned long"
}

@test "tracepoint shim: a self-contained .NET 9 app registers 444 tracepoints and fires GCStart_V2" {
	gc_through_shim 9 444 209 185 50 "const uint64_t"
}

# sc_vs_eventpipe V: the .NET 10 comparison with EventPipe above, on the
# self-contained .NET V app
sc_vs_eventpipe() {
	need
	build_sc "$1" || flunk "self-contained net$1.0 app not built ($OUTPUT/tests/dotnet/build-net$1.log)"
	APP_CMD=$OUTPUT/tests/dotnet/evtapp-net$1/evtapp
	shim_vs_eventpipe
}

@test "tracepoint shim: a self-contained .NET 8 app through the shim: the GC, exception, contention and method events EventPipe records, event by event" {
	sc_vs_eventpipe 8
}

@test "tracepoint shim: a self-contained .NET 9 app through the shim: the GC, exception, contention and method events EventPipe records, event by event" {
	sc_vs_eventpipe 9
}

# all_app NAME SHIM APP-ARGS...: the app waiting for $T/go.NAME, run as
# $T/tpall-NAME (a link to dotnet: its comm, which --comm selects, so that
# --all leaves other .NET processes of the host alone), ready for the shim
# when SHIM is 1; its pid in PID_NAME once it printed READY
all_app() {
	local name=$1 shim=$2 lp=
	shift 2
	ln -sf "$(command -v dotnet)" "$T/tpall-$name"
	local e=(env)
	((shim)) && e+=(LD_LIBRARY_PATH="$TPSHIM_DIR" DOTNET_EnableEventLog=1
		DOTNET_EventSourceFilter=EbpfCollectNoSuchSource)
	bg "$T/$name.out" "${e[@]}" "$T/tpall-$name" "$APP" --wait "$T/go.$name" "$@" --linger
	printf -v "PID_$name" %s "$LAST_PID"
	wait_for_grep READY "$T/$name.out" 60 || flunk "$name did not start: $(cat "$T/$name.out"*)"
}

# all_run NAME GCS EXCEPTIONS: app NAME's workload run and its own counts checked
all_run() {
	touch "$T/go.$1"
	wait_for_grep DONE "$T/$1.out" 60 || flunk "$1 did not finish: $(cat "$T/$1.out"*)"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=$2 exceptions=$3 contentions=0" "$T/$1.out" ||
		flunk "$1: $(cat "$T/$1.out")"
}

# perf_fds PID: how many perf events PID holds open
perf_fds() {
	find "/proc/$1/fd" -lname 'anon_inode:\[perf_event\]' 2>/dev/null | wc -l
}

@test "tracepoint shim: --all traces each .NET process through the shim when it offers it, at the start and later, EventPipe the others, each exactly once" {
	need
	require_shared
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	local prov=Microsoft-Windows-DotNETRuntime:0x8001:4 col err n ln
	# two apps ready for the shim and one plain, running before the collector
	all_app a 1 --gcs 2 --exceptions 3
	all_app b 1 --gcs 3 --exceptions 1
	all_app c 0 --gcs 4 --exceptions 2
	bg "$T/col.out" "$EBPF_COLLECT" --all --comm 'tpall-*' -o "$T/all.nettrace" \
		--providers "$prov" --manifest "$MANIFEST_REAL"
	col=$LAST_PID
	err=$T/col.out.err
	wait_for_grep "Ctrl-C" "$err" 120 || flunk "$(cat "$err")"
	for ln in "--all: tracing pid $PID_a (tracepoint shim)" \
		"--all: tracing pid $PID_b (tracepoint shim)" \
		"--all: tracing pid $PID_c (EventPipe)" \
		"--all: 3 processes traced (0 runtime provider, 0 --usdt provider, 2 tracepoint shim, 1 EventPipe); new ones are added as they exec"; do
		grep -qF -- "ebpf-collect: $ln" "$err" || flunk "no '$ln': $(cat "$err")"
	done
	# one way each: no EventPipe session for the shim's processes, no
	# shim for the plain one
	for ln in "$PID_a" "$PID_b"; do
		grep -q "^ebpf-collect: pid $ln: traced through the tracepoint shim: [1-9][0-9]* tracepoints enabled" \
			"$err" || flunk "$(cat "$err")"
		grep -q "pid $ln: EventPipe" "$err" && flunk "EventPipe for $ln: $(cat "$err")"
	done
	grep -q "pid $PID_c: traced through the tracepoint shim" "$err" && flunk "$(cat "$err")"
	wait_for_grep "pid $PID_c: no USDT provider: EventPipe session over" "$err" 60 ||
		flunk "$(cat "$err")"
	grep -q "^ebpf-collect: tracing 2 .NET processes through the tracepoint shim and 1 .NET process over EventPipe (1 provider); writing " \
		"$err" || flunk "$(cat "$err")"
	all_run a 2 3
	all_run b 3 1
	all_run c 4 2
	# one started after the collector: found at its exec, through the shim
	all_app d 1 --gcs 1 --exceptions 4
	wait_for_grep "--all: tracing pid $PID_d (tracepoint shim)" "$err" 60 || flunk "$(cat "$err")"
	n=$(sed -n "s/^ebpf-collect: pid $PID_d: traced through the tracepoint shim: \([0-9]*\) tracepoints enabled.*/\1/p" "$err")
	((n > 0)) || flunk "$(cat "$err")"
	all_run d 1 4
	# b exits: its tracepoints released at once (its probe and holds
	# closed, not kept until the collector stops)
	local before after
	before=$(perf_fds "$col")
	kill -TERM "$PID_b"
	n=$(sed -n "s/^ebpf-collect: pid $PID_b: traced through the tracepoint shim: \([0-9]*\) tracepoints enabled.*/\1/p" "$err")
	wait_for_grep "--all: pid $PID_b exited: its $n tracepoints released" "$err" 30 ||
		flunk "$(cat "$err")"
	wait_until 30 eval '(($(perf_fds "$col") <= before - n))' ||
		flunk "perf events: $before with b, $(perf_fds "$col") after ($n holds)"
	# a is still running: its states raised while traced, every one 0 once
	# the collector stopped
	APP_PID=$PID_a
	run "$CTL" list "$PID_a"
	n=$(sed -n "s/^ebpf-collect: pid $PID_a: traced through the tracepoint shim: \([0-9]*\) tracepoints enabled.*/\1/p" "$err")
	(($(grep -cP '\t[1-9][0-9]*$' <<<"$output") == n)) || flunk "$n enabled: $output"
	kill -INT "$col"
	wait "$col" || flunk "collector status $?: $(cat "$err")"
	grep -qF -- "ebpf-collect: --all: 4 processes traced (0 runtime provider, 0 --usdt provider, 3 tracepoint shim, 1 EventPipe)" \
		"$err" || flunk "$(cat "$err")"
	grep -qF -- "ebpf-collect: --all: 1 processes traced through the tracepoint shim exited, their tracepoints released" \
		"$err" || flunk "$(cat "$err")"
	wait_until 120 states_are 0 || flunk "a state still raised: $("$CTL" list "$PID_a")"
	trace_note "$T/all.nettrace" stripped "$STRIPPED"
	# per process, exactly what each app did: ExceptionThrown_V1 (80) and
	# GCEnd_V1 (2) of its induced gen2 GCs, once each (two paths would
	# count them twice)
	local name gcs exc
	for name in a:2:3 b:3:1 c:4:2 d:1:4; do
		IFS=: read -r name gcs exc <<<"$name"
		local pid_var=PID_$name
		local pid=${!pid_var} f
		f=$(fields_of "$T/all.nettrace" 80 "$pid")
		(($(grep -c '"ExceptionType": "EvtAppTestException"' <<<"$f") == exc)) ||
			flunk "$name ($pid) exceptions: $f"
		(($(grep -c . <<<"$f") == exc)) || flunk "$name ($pid) exceptions: $f"
		f=$(fields_of "$T/all.nettrace" 2 "$pid")
		(($(grep -c '"Depth": 2' <<<"$f") == gcs)) || flunk "$name ($pid) GCs: $f"
		(($(grep -c . <<<"$f") == gcs)) || flunk "$name ($pid) GCs: $f"
	done
}

@test "tracepoint shim: --all with an EventSource in --providers: each process that offers the shim through it with EventPipe beside it, at the start and later, EventPipe alone the others, each event once" {
	need
	require_shared
	require_tracecheck
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	local prov=Microsoft-Windows-DotNETRuntime:0x8001:4,EvtApp-Marker col err ln f
	all_app s 1 --mixed 10 --gcs 3
	all_app p 0 --mixed 5 --gcs 3
	bg "$T/col.out" "$EBPF_COLLECT" --all --comm 'tpall-*' -o "$T/all.nettrace" \
		--providers "$prov"
	col=$LAST_PID
	err=$T/col.out.err
	wait_for_grep "Ctrl-C" "$err" 120 || flunk "$(cat "$err")"
	for ln in "--all: tracing pid $PID_s (tracepoint shim)" "--all: tracing pid $PID_p (EventPipe)"; do
		grep -qF -- "ebpf-collect: $ln" "$err" || flunk "no '$ln': $(cat "$err")"
	done
	wait_for_grep "pid $PID_s: EventPipe session beside the tracepoint shim over .*: EvtApp-Marker" \
		"$err" 60 || flunk "$(cat "$err")"
	wait_for_grep "pid $PID_p: no USDT provider: EventPipe session over" "$err" 60 ||
		flunk "$(cat "$err")"
	grep -q "pid $PID_p: traced through the tracepoint shim" "$err" && flunk "$(cat "$err")"
	all_run s 3 10
	all_run p 3 5
	# one started after the collector, found at its exec: the same two ways
	all_app l 1 --mixed 7 --gcs 3
	wait_for_grep "--all: tracing pid $PID_l (tracepoint shim)" "$err" 60 || flunk "$(cat "$err")"
	wait_for_grep "pid $PID_l: EventPipe session beside the tracepoint shim over .*: EvtApp-Marker" \
		"$err" 60 || flunk "$(cat "$err")"
	all_run l 3 7
	kill -INT "$col"
	wait "$col" || flunk "collector status $?: $(cat "$err")"
	grep -qF -- "ebpf-collect: --all: 3 processes traced (0 runtime provider, 0 --usdt provider, 2 tracepoint shim, 1 EventPipe)" \
		"$err" || flunk "$(cat "$err")"
	trace_note "$T/all.nettrace" stripped "$STRIPPED"
	mixed_pid "$T/all.nettrace" "$PID_s" 10
	mixed_pid "$T/all.nettrace" "$PID_l" 7
	# the plain one: all of it over EventPipe, once
	f=$(fields_of "$T/all.nettrace" 80 "$PID_p")
	(($(grep -c '"ExceptionType": "EvtAppTestException"' <<<"$f") == 5)) || flunk "p: $f"
	(($(grep -c . <<<"$f") == 5)) || flunk "p: $f"
	run python3 "$BATS_TEST_DIRNAME/dotnet_trace.py" counts "$T/all.nettrace.json" "$PID_p"
	assert_line "markers 5"
	# TraceEvent: every payload of the three decoded, each event once
	tracecheck --json --min-named 0 "$T/all.nettrace" >"$T/all.tc" || flunk "TraceCheck: $(cat "$T/all.tc")"
	run tc_mixed_counts "$T/all.tc"
	assert_output "0 0 0 22 22 9"
}

@test "tracepoint shim: --all --dotnet-port enables a waiting runtime's tracepoints and resumes it: every exception and GC from its first managed method, its tracepoints released at its exit" {
	need
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	require_shared
	local port=$T/port.sock prov=Microsoft-Windows-DotNETRuntime:0x8001:4 col err pid n
	bg "$T/col.out" "$EBPF_COLLECT" --all --comm 'tpall-*' --dotnet-port "$port" \
		-o "$T/p.nettrace" --providers "$prov"
	col=$LAST_PID
	err=$T/col.out.err
	wait_for_grep "Ctrl-C" "$err" 120 || flunk "$(cat "$err")"
	# no --wait: it throws and collects as soon as Main runs
	ln -sf "$(command -v dotnet)" "$T/tpall-p"
	LD_LIBRARY_PATH=$TPSHIM_DIR DOTNET_EnableEventLog=1 \
		DOTNET_EventSourceFilter=EbpfCollectNoSuchSource \
		DOTNET_DiagnosticPorts=$port,suspend timeout 60 "$T/tpall-p" "$APP" \
		--exceptions 300 --gcs 3 >"$T/app.out" 2>&1 || flunk "app failed: $(cat "$T/app.out")"
	grep -qx "COUNTS gen0=0 gen1=0 gen2=3 exceptions=300 contentions=0" "$T/app.out" ||
		flunk "$(cat "$T/app.out")"
	pid=$(sed -n 's/^READY //p' "$T/app.out")
	[[ -n $pid ]] || flunk "$(cat "$T/app.out")"
	grep -qF -- "ebpf-collect: --all: tracing pid $pid (tracepoint shim)" "$err" || flunk "$(cat "$err")"
	grep -q "pid $pid: .*EventPipe session" "$err" && flunk "EventPipe for $pid: $(cat "$err")"
	n=$(sed -n "s/^ebpf-collect: pid $pid: traced through the tracepoint shim: \([0-9]*\) tracepoints enabled.*/\1/p" "$err")
	((n > 0)) || flunk "$(cat "$err")"
	wait_for_grep "--all: pid $pid exited: its $n tracepoints released" "$err" 30 ||
		flunk "$(cat "$err")"
	kill -INT "$col"
	wait "$col" || flunk "collector status $?: $(cat "$err")"
	grep -qF -- "ebpf-collect: --all: 1 processes traced (0 runtime provider, 0 --usdt provider, 1 tracepoint shim, 0 EventPipe)" \
		"$err" || flunk "$(cat "$err")"
	trace_note "$T/p.nettrace" stripped "$STRIPPED"
	# enabled before its first managed method: every exception, and every
	# GC's start too (the first GC read GCStart's state already raised)
	(($(fields_of "$T/p.nettrace" 80 "$pid" | grep -c '"ExceptionType": "EvtAppTestException"') == 300)) ||
		flunk "exceptions"
	(($(fields_of "$T/p.nettrace" 1 "$pid" | grep -c '"Reason": 1,') == 3)) || flunk "GC starts"
	(($(fields_of "$T/p.nettrace" 2 "$pid" | grep -c '"Depth": 2') == 3)) || flunk "GC ends"
}
