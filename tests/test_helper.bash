# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Shared helpers for the bats integration tests (bats-core + rbenv style).
# Load with:   load test_helper

bats_require_minimum_version 1.5.0

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
OUTPUT=${OUTPUT:-$ROOT/.output}
SHARED=${SHARED:-$(cd "$ROOT/.." && pwd)/shared}
MANIFEST_REAL=$SHARED/manifests/ClrEtwAll.man
MANIFEST=$ROOT/usdt/clr-events.man
USDT_GEN=$OUTPUT/usdt-gen
REFRT=$OUTPUT/refrt
EBPF_COLLECT=$OUTPUT/ebpf-collect
export ROOT OUTPUT SHARED MANIFEST_REAL MANIFEST USDT_GEN REFRT EBPF_COLLECT
: "${BATS_TEST_TIMEOUT:=120}"

flunk() {
	{ if [[ $# -eq 0 ]]; then cat -; else echo "$@"; fi; } |
		sed "s:${BATS_TEST_TMPDIR:-/nonexistent}:TMP:g" >&2
	return 1
}

assert_success() {
	if [[ $status -ne 0 ]]; then
		flunk "command failed with exit status $status" $'\n'"output: $output"
	elif [[ $# -gt 0 ]]; then
		assert_output "$1"
	fi
}

assert_failure() {
	if [[ $status -eq 0 ]]; then
		flunk "expected failed exit status" $'\n'"output: $output"
	elif [[ $# -gt 0 ]]; then
		assert_output "$1"
	fi
}

assert_equal() {
	if [[ "$1" != "$2" ]]; then
		flunk "expected: $2" $'\n'"actual:   $1"
	fi
}

assert_output() {
	local expected
	if [[ $# -eq 0 ]]; then expected=$(cat -); else expected=$1; fi
	assert_equal "$output" "$expected"
}

assert_output_contains() {
	[[ $output == *"$1"* ]] || flunk "expected output to contain: $1" $'\n'"output: $output"
}

assert_line() {
	local l
	for l in "${lines[@]}"; do
		[[ $l == "$1" ]] && return 0
	done
	flunk "expected line \`$1'" $'\n'"output: $output"
}

# Skip guards: each prints why.
require_root() {
	[[ $EUID -eq 0 ]] || skip "needs root (BPF attach)"
}
require_btf() {
	[[ -r /sys/kernel/btf/vmlinux ]] || skip "kernel has no BTF (/sys/kernel/btf/vmlinux)"
}
require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "needs $c"
	done
}
require_shared() {
	[[ -r $MANIFEST_REAL ]] || skip "needs ../shared/manifests/ClrEtwAll.man beside the checkout"
}

# Mount tracefs if it is not mounted (bpftrace and perf probe need it).
ensure_tracefs() {
	if [[ ! -d /sys/kernel/tracing/events ]]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
			skip "cannot mount tracefs on /sys/kernel/tracing"
	fi
}

# wait_for_fork_exec PID: the child of & runs a copy of this shell until
# it execs the command; wait (up to 10 s) until it has (its command line is
# no longer the shell's) or has exited, so the next line sees the command's
# process (its maps, its exe), not the shell's.  A command that execs
# again (chroot, env, timeout) needs wait_for_exec for the last one.
wait_for_fork_exec() {
	local pid=$1 shell i
	shell=$(tr '\0' ' ' <"/proc/$BASHPID/cmdline")
	for ((i = 0; i < 200; i++)); do
		[[ $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) == "$shell" ]] || return 0
		sleep 0.05
	done
	return 1
}

# bg OUTFILE CMD...: CMD in the background (fd 3 closed, or bats hangs),
# stdout to OUTFILE, stderr to OUTFILE.err; its pid in LAST_PID, and in
# BG_PIDS for kill_bg (teardown).  Returns once CMD runs (wait_for_fork_exec).
bg() {
	local out=$1
	shift
	"$@" >"$out" 2>"$out.err" 3>&- &
	BG_PIDS="${BG_PIDS:-} $!"
	LAST_PID=$!
	wait_for_fork_exec "$LAST_PID" || true
}

# Kill what bg started and is still running.
kill_bg() {
	local p
	for p in ${BG_PIDS:-}; do
		{ kill -9 "$p" && wait "$p"; } 2>/dev/null || true
	done
}

# Start a background process with fd 3 closed (or bats hangs); echo its
# pid once it runs (wait_for_fork_exec).
start_bg() {
	"$@" 3>&- &
	wait_for_fork_exec $! || true
	echo $!
}

# Wait until a file exists and is non-empty (up to $2 seconds, default 10).
wait_for_file() {
	wait_until "${2:-10}" test -s "$1"
}

# Wait until a pattern appears in a file.
wait_for_grep() {
	wait_until "${3:-10}" grep -q -- "$1" "$2" 2>/dev/null
}

# Wait until CMD... succeeds (up to $1 seconds).
wait_until() {
	local t=$1 i
	shift
	for ((i = 0; i < t * 20; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

# Wait until process PID runs the program FILE (its /proc/PID/exe is FILE's
# device and inode): a child started with & runs the shell, then whatever
# it execs (chroot, env, timeout...), before it runs FILE, and what it maps
# meanwhile is not FILE's.  Up to $3 seconds (default 10).
wait_for_exec() {
	local pid=$1 file=$2 t=${3:-10} i
	for ((i = 0; i < t * 20; i++)); do
		[[ /proc/$pid/exe -ef $file ]] && return 0
		[[ -d /proc/$pid ]] || return 1
		sleep 0.05
	done
	return 1
}

# Wait until at least N lines of a file match a pattern (up to $4 seconds,
# default 10).
wait_for_lines() {
	wait_until "${4:-10}" lines_at_least "$1" "$2" "$3"
}

# At least N lines of FILE match PAT (wait_for_lines).
lines_at_least() {
	(($(grep -c -- "$1" "$2" 2>/dev/null) >= $3))
}

# Wait until process PID catches signal SIG (a name: TERM, INT, USR1) -
# its handler is installed, so the signal no longer kills it - up to $3
# seconds (default 10).  From the SigCgt mask of /proc/PID/status.
wait_for_sigcatch() {
	local pid=$1 num i mask
	num=$(kill -l "$2") || return 1
	for ((i = 0; i < ${3:-10} * 20; i++)); do
		mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || return 1
		[[ -n $mask ]] || return 1
		(((16#$mask >> (num - 1)) & 1)) && return 0
		sleep 0.05
	done
	return 1
}

# JSON field extraction for tests (python3 is always present on Debian).
json_get() {	# json_get FILE EXPR   e.g. json_get s.json '["events"]["GCStart_V2"]'
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); v=d$2; print(v if not isinstance(v,(dict,list)) else json.dumps(v))" "$1"
}

# TraceCheck (tests/traceevent/, built by make): our traces opened with
# Microsoft's TraceEvent.  require_tracecheck skips, saying why, without it.
TC_DIR=$OUTPUT/traceevent
require_tracecheck() {
	require_cmd dotnet
	[[ -f $TC_DIR/TraceCheck.dll ]] ||
		skip "TraceEvent checker unavailable: $(cat "$TC_DIR/unavailable" 2>/dev/null || echo 'not built (make)')"
}
tracecheck() {
	dotnet "$TC_DIR/TraceCheck.dll" "$@"
}

# trace_note FILE KIND REASON: what tests/traceevent.bats, which opens every
# trace the suite writes with TraceEvent, must not require of FILE, and why
# (kept beside it as FILE.note):
#   unnamed      the >= 99 % named-frame floor: the trace holds no names for
#                its frames by design (no method events, no perf map)
#   stripped     the named-frame floor: its stacks run through binaries
#                shipped without symbols (.NET's host and runtime libraries
#                keep only a .gnu_debuglink; their debug files are not on
#                the machine), whose frames no reader can name
#   placeholder  the named-frame floor and equal event counts: the events
#                were fired with placeholder field values, not a runtime's
trace_note() {
	printf '%s %s\n' "$2" "$3" >"$1.note"
}

# watch_exit PID SECS: wait (bounded) for a bg child to exit, sampling its
# peak RSS (VmHWM) meanwhile.  Sets WATCH_STATUS (its exit status, or flunks
# when SECS pass first: it is killed), WATCH_SECS (seconds it took, from
# the call) and WATCH_HWM_KB.
watch_exit() {
	local pid=$1 t=$2 start=$EPOCHREALTIME hwm st
	WATCH_HWM_KB=0
	for ((;;)); do
		st=$(awk '/^State:/ {print $2} /^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null |
			tr '\n' ' ')
		read -r st hwm <<<"$st"
		[[ -n $hwm ]] && ((hwm > WATCH_HWM_KB)) && WATCH_HWM_KB=$hwm
		[[ -z $st || $st == Z ]] && break
		if (($(awk -v s="$start" -v n="$EPOCHREALTIME" -v t="$t" 'BEGIN {print (n - s > t)}'))); then
			kill -9 "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			flunk "pid $pid still running after $t s"
			return 1
		fi
		sleep 0.05
	done
	WATCH_SECS=$(awk -v s="$start" -v n="$EPOCHREALTIME" 'BEGIN {printf "%.2f", n - s}')
	WATCH_STATUS=0
	wait "$pid" || WATCH_STATUS=$?
}

# check_refrt_events NETTRACE PID SUMMARY: PID's runtime events in the trace
# are exactly those its refrt summary says it fired, event by event.
check_refrt_events() {
	"$EBPF_COLLECT" dump --json "$1" >"$1.jsonl" || flunk "dump $1 failed"
	run python3 "$BATS_TEST_DIRNAME/refrt_compare.py" "$1.jsonl" "$3" --pid "$2"
	echo "$output"
	assert_success
}

# The stock .NET test app (tests/dotnet/evtapp), built offline (no package
# references) once per $OUTPUT and source change: EVTAPP is its dll.
# build_evtapp host: also the same app as its own executable (apphost),
# EVTAPP_HOST.  The SDK's first run is slow: callers build in setup_file.
EVTAPP=$OUTPUT/tests/dotnet/evtapp/evtapp.dll
EVTAPP_HOST=$OUTPUT/tests/dotnet/evtapp-host/evtapp
build_evtapp() {
	local src=$ROOT/tests/dotnet/evtapp d=$OUTPUT/tests/dotnet
	mkdir -p "$d"
	(
		flock 9
		if [[ ! -f $EVTAPP || $src/Program.cs -nt $EVTAPP || $src/evtapp.csproj -nt $EVTAPP ]]; then
			DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 \
				dotnet build "$src/evtapp.csproj" -c Release -o "${EVTAPP%/*}" \
				-p:BaseIntermediateOutputPath="$d/obj/" >"$d/build.log" 2>&1 ||
				{ cat "$d/build.log" >&2; exit 1; }
		fi
		[[ ${1:-} == host ]] || exit 0
		if [[ ! -x $EVTAPP_HOST || $src/Program.cs -nt $EVTAPP_HOST ||
			$src/evtapp.csproj -nt $EVTAPP_HOST ]]; then
			DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 \
				dotnet build "$src/evtapp.csproj" -c Release -o "${EVTAPP_HOST%/*}" \
				-p:UseAppHost=true -p:BaseIntermediateOutputPath="$d/obj-host/" \
				>"$d/build-host.log" 2>&1 ||
				{ cat "$d/build-host.log" >&2; exit 1; }
		fi
	) 9>"$d/.lock"
}

# evtapp_traced "APP ARGS" OPTS...: the stock .NET test app (with --wait
# $T/go --linger and APP ARGS, output in $T/app.out) traced through
# EventPipe by a collector with OPTS (-o $T/t.nettrace; stderr in
# $T/c.out.err), both with bg, until the collector says it traces; the
# app's pid in APP_PID, the collector's in COL_PID
evtapp_traced() {
	local args=$1
	shift
	rm -f "$T/go"
	# shellcheck disable=SC2086
	bg "$T/app.out" dotnet "$EVTAPP" --wait "$T/go" $args --linger
	APP_PID=$LAST_PID
	wait_for_grep READY "$T/app.out" 30 || flunk "app did not start: $(cat "$T/app.out"*)"
	bg "$T/c.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/t.nettrace" "$@"
	COL_PID=$LAST_PID
	wait_for_grep "EventPipe session over" "$T/c.out.err" 30 || flunk "$(cat "$T/c.out.err")"
}
