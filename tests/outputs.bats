#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Files and writes: a run that fails leaves the file at -o as it was, every
# view reports a write that fails ("writing OUT: No space left on device",
# exit 1) and leaves no half file under the name asked for, and trace files
# are their owner's only (0600) whatever the umask.

load test_helper

TESTPROG=$OUTPUT/tests/usdt_testprog

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	T=$BATS_TEST_TMPDIR
	TRACE=$SHARED/testdata/nettrace/perfview/only_managed_samples.nettrace
}

teardown() {
	kill_bg
	[[ -z ${SMALL_FS:-} ]] || umount "$SMALL_FS" 2>/dev/null || true
}

# keep_file FILE: a file the run must leave as it is
keep_file() {
	echo "keep me" >"$1"
}

# assert_kept FILE: it still holds what keep_file wrote, and no temporary
# file of a run is left beside it
assert_kept() {
	assert_equal "$(cat "$1")" "keep me"
	local left
	left=$(ls "$1".*.tmp 2>/dev/null || true)
	[[ -z $left ]] || flunk "temporary files left: $left"
}

# to_full CMD...: CMD with its standard output on /dev/full (under `run`,
# whose own capture a plain redirection would not reach)
to_full() {
	"$@" >/dev/full
}

# mode FILE: its permission bits in octal
mode() {
	stat -c %a "$1"
}

# full_fs: a 64 KiB tmpfs in $SMALL_FS with OUT.* files holding "keep me",
# then filled to the last byte
full_fs() {
	SMALL_FS=$T/small
	mkdir "$SMALL_FS"
	mount -t tmpfs -o size=64k tmpfs "$SMALL_FS" || flunk "cannot mount a tmpfs"
	local f
	for f in dump report folded speedscope svg pprof chromium; do
		keep_file "$SMALL_FS/out.$f"
	done
	dd if=/dev/zero of="$SMALL_FS/fill" bs=4k 2>/dev/null || true
	run dd if=/dev/zero of="$SMALL_FS/fill2" bs=1 count=1
	[[ $status -ne 0 ]] || flunk "the tmpfs is not full"
}

# ------------------------------------------------------------ the collector

@test "collect: exit 3 (no probes in sleep) leaves the file at -o as it was" {
	require_root
	keep_file "$T/k.nettrace"
	bg "$T/sleep.out" sleep 30
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/k.nettrace"
	[[ $status -eq 3 ]] || flunk "status $status: $output"
	assert_kept "$T/k.nettrace"
}

@test "collect: exit 2 (a dead pid) leaves the file at -o as it was" {
	require_root
	keep_file "$T/k.nettrace"
	sh -c 'exit 0' &
	local dead=$!
	wait "$dead"
	run "$EBPF_COLLECT" -p "$dead" -o "$T/k.nettrace"
	[[ $status -eq 2 ]] || flunk "status $status: $output"
	assert_equal "$output" "ebpf-collect: no such process: $dead"
	assert_kept "$T/k.nettrace"
}

@test "collect: exit 1 (the BPF program cannot load) leaves the file at -o as it was" {
	require_root
	keep_file "$T/k.nettrace"
	bg "$T/sleep.out" sleep 30
	# a 4 GiB ring is more than a BPF ring buffer can be: loading fails
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/k.nettrace" --buffer-size 4096
	[[ $status -eq 1 ]] || flunk "status $status: $output"
	assert_output_contains "cannot load BPF program"
	assert_kept "$T/k.nettrace"
}

@test "collect: exit 64 (usage) leaves the file at -o as it was" {
	keep_file "$T/k.nettrace"
	run "$EBPF_COLLECT" -p 1 -o "$T/k.nettrace" --no-such-option
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_kept "$T/k.nettrace"
}

@test "collect: exit 6 (the file system is full) leaves the file at -o as it was" {
	require_root
	full_fs
	bg "$T/tp.json" "$TESTPROG" -n 5 -w 3
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$SMALL_FS/out.dump"
	[[ $status -eq 6 ]] || flunk "status $status: $output"
	assert_equal "$output" "ebpf-collect: cannot create output $SMALL_FS/out.dump: No space left on device"
	assert_kept "$SMALL_FS/out.dump"
}

@test "collect: a run that succeeds with no event replaces the file at -o with an empty trace" {
	require_root
	keep_file "$T/k.nettrace"
	# -n 0: testprog fires nothing and exits once the probe is on
	bg "$T/tp.json" "$TESTPROG" -n 0 -w 10
	run timeout 30 "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/k.nettrace"
	[[ $status -eq 0 ]] || flunk "status $status: $output"
	run "$EBPF_COLLECT" dump --json "$T/k.nettrace"
	assert_success
	[[ ${lines[-1]} == *'"complete":true'* && ${lines[-1]} == *'"by_event":{"ebpf-collect/LossSummary":1}'* ]] ||
		flunk "${lines[-1]}"
	[[ -z $(ls "$T"/k.nettrace.*.tmp 2>/dev/null) ]] || flunk "temporary file left"
}

@test "collect: -o naming a directory exits 6 and says it is a directory" {
	require_root
	mkdir "$T/d"
	bg "$T/sleep.out" sleep 30
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/d"
	[[ $status -eq 6 ]] || flunk "status $status: $output"
	assert_equal "$output" "ebpf-collect: cannot create output $T/d: Is a directory"
	[[ -z $(ls -A "$T/d") ]] || flunk "something written into the directory"
}

# collect_events UMASK FILE [ARGS...]: trace 2000 testprog events into FILE
# under UMASK; the run must succeed
collect_events() {
	local um=$1 out=$2
	shift 2
	bg "$T/tp.json" "$TESTPROG" -n 2000 -r 2000 -w 10
	run bash -c 'umask "$1"; shift; exec timeout 60 "$@"' _ "$um" \
		"$EBPF_COLLECT" -p "$LAST_PID" -o "$out" "$@"
	[[ $status -eq 0 ]] || flunk "status $status: $output"
}

@test "collect: a trace replaces the file at -o, 0600 under umask 022 and 077" {
	require_root
	local um
	for um in 022 077; do
		keep_file "$T/t$um.nettrace"
		chmod 0644 "$T/t$um.nettrace"
		collect_events "$um" "$T/t$um.nettrace"
		assert_equal "$(mode "$T/t$um.nettrace")" 600
		run "$EBPF_COLLECT" dump --json "$T/t$um.nettrace"
		assert_success
		[[ ${lines[-1]} == *'"complete":true'* && ${lines[-1]} == *'DotNETRuntime/GCStart_V2":2000'* ]] ||
			flunk "umask $um: ${lines[-1]}"
		[[ -z $(ls "$T"/t$um.nettrace.*.tmp 2>/dev/null) ]] || flunk "temporary file left"
	done
}

@test "collect: --rotate files and flight-recorder dumps are 0600 under umask 022" {
	require_root
	collect_events 022 "$T/r.nettrace" --rotate 300ms
	local f n=0
	for f in "$T"/r.*.nettrace; do
		assert_equal "$(mode "$f")" 600
		n=$((n + 1))
	done
	((n >= 2)) || flunk "not rotated: $(ls "$T")"
	# the flight recorder's exit dump (whatever its numbering)
	collect_events 022 "$T/f.nettrace" --flight-recorder 30s
	n=0
	for f in "$T"/f.*.nettrace; do
		[[ -f $f ]] || continue
		assert_equal "$(mode "$f")" 600
		n=$((n + 1))
	done
	((n == 1)) || flunk "expected one dump: $(ls "$T")"
}

# ------------------------------------------------------------ the views

# view_args NAME OUT: the command line of view NAME writing to OUT ("" = stdout)
view_args() {
	local o=()
	[[ -z $2 ]] || o=(-o "$2")
	case $1 in
	dump) echo dump "$TRACE" "${o[@]}" ;;
	dump-json) echo dump --json "$TRACE" "${o[@]}" ;;
	report) echo report "$TRACE" "${o[@]}" ;;
	folded | speedscope | flamegraph | pprof | chromium) echo convert "$TRACE" --format "$1" "${o[@]}" ;;
	esac
}

@test "views: with standard output on /dev/full each exits 1 with one line saying so" {
	require_shared
	local v
	for v in dump dump-json report folded speedscope flamegraph pprof chromium; do
		# shellcheck disable=SC2046
		run --separate-stderr to_full "$EBPF_COLLECT" $(view_args $v "")
		[[ $status -eq 1 ]] || flunk "$v: status $status: $stderr"
		[[ $stderr =~ ^[a-z\ -]+:\ writing\ standard\ output:\ No\ space\ left\ on\ device$ ]] ||
			flunk "$v: $stderr"
	done
	run --separate-stderr to_full "$EBPF_COLLECT" split "$TRACE" "$T/sp"
	[[ $status -eq 1 ]] || flunk "split: status $status: $stderr"
	assert_equal "$stderr" "split: writing standard output: No space left on device"
}

@test "views: -o on a full file system exits 1 naming the file; the file there is kept" {
	require_root
	require_shared
	full_fs
	local v out
	for v in dump report folded speedscope flamegraph pprof chromium; do
		out=$SMALL_FS/out.$v
		[[ $v != flamegraph ]] || out=$SMALL_FS/out.svg
		# shellcheck disable=SC2046
		run --separate-stderr "$EBPF_COLLECT" $(view_args $v "$out")
		[[ $status -eq 1 ]] || flunk "$v: status $status: $stderr"
		[[ $stderr =~ ^[a-z\ -]+:\ writing\ $out:\ No\ space\ left\ on\ device$ ]] ||
			flunk "$v: $stderr"
		assert_kept "$out"
	done
	run --separate-stderr "$EBPF_COLLECT" split "$TRACE" "$SMALL_FS/sp"
	[[ $status -eq 1 ]] || flunk "split: status $status: $stderr"
	[[ $stderr =~ ^split:\ writing\ $SMALL_FS/sp/only_managed_samples\.[0-9]+\.nettrace:\ No\ space\ left\ on\ device$ ]] ||
		flunk "split: $stderr"
	[[ -z $(ls -A "$SMALL_FS/sp") ]] || flunk "split left: $(ls -A "$SMALL_FS/sp")"
}

@test "views: -o into a file system too small for the whole output leaves no part of it" {
	require_root
	require_shared
	SMALL_FS=$T/small
	mkdir "$SMALL_FS"
	mount -t tmpfs -o size=64k tmpfs "$SMALL_FS" || flunk "cannot mount a tmpfs"
	# the dump of the trace is megabytes: its first 64 KiB fit, the rest not
	run --separate-stderr "$EBPF_COLLECT" dump "$TRACE" -o "$SMALL_FS/d.txt"
	[[ $status -eq 1 ]] || flunk "status $status: $stderr"
	assert_equal "$stderr" "ebpf-collect dump: writing $SMALL_FS/d.txt: No space left on device"
	[[ -z $(ls -A "$SMALL_FS") ]] || flunk "left: $(ls -A "$SMALL_FS")"
	# the split's one file is 500 KiB
	run --separate-stderr "$EBPF_COLLECT" split "$TRACE" "$SMALL_FS/sp"
	[[ $status -eq 1 ]] || flunk "split: status $status: $stderr"
	[[ -z $(ls -A "$SMALL_FS/sp") ]] || flunk "split left: $(ls -A "$SMALL_FS/sp")"
}

@test "views: -o writes the whole output, 0600 under umask 022 and 077" {
	require_shared
	local um v
	"$EBPF_COLLECT" report "$TRACE" >"$T/report.want" || flunk "report to stdout failed"
	for um in 022 077; do
		for v in dump report folded speedscope flamegraph pprof chromium; do
			# shellcheck disable=SC2046
			run bash -c 'umask "$1"; shift; exec "$@"' _ "$um" "$EBPF_COLLECT" \
				$(view_args $v "$T/$v.$um")
			assert_success
			assert_equal "$(mode "$T/$v.$um")" 600
		done
		cmp "$T/report.want" "$T/report.$um" || flunk "report -o differs from its stdout"
		run bash -c 'umask "$1"; shift; exec "$@"' _ "$um" "$EBPF_COLLECT" split "$TRACE" "$T/sp$um"
		assert_success
		assert_equal "$output" "1 files in $T/sp$um"
		assert_equal "$(mode "$T/sp$um")" 700
		local f=("$T/sp$um"/only_managed_samples.*.nettrace)
		assert_equal "$(mode "${f[0]}")" 600
		run "$EBPF_COLLECT" dump --json "${f[0]}"
		assert_success
		[[ ${lines[-1]} == *'"complete":true'* ]] || flunk "${lines[-1]}"
	done
	[[ -z $(ls "$T"/*.tmp "$T"/sp*/*.tmp 2>/dev/null) ]] || flunk "temporary files left"
}
