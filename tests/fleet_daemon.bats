#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `ebpf-collect daemon`: the collector always on for a node.  It runs here
# as the unprivileged user nobody with only the capabilities
# scripts/ebpf-collect.service grants (capsh puts them in the ambient set),
# traces its own reference runtime (--pid-filter: never other processes of
# the machine) and the file holds exactly the runtime events refrt's summary
# lists.  Also: the missing-capability exit, config errors with FILE:LINE
# (files that are no config refused, never echoed), a SIGHUP reload that
# takes effect, one with a bad config that is refused while the trace goes
# on, and the Debian package.

load test_helper

CAPS=cap_bpf,cap_perfmon,cap_sys_ptrace,cap_dac_read_search

setup_file() {
	export BATS_TEST_TIMEOUT=180
}

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	[[ -x $REFRT ]] || flunk "reference runtime not built ($REFRT)"
	T=$BATS_TEST_TMPDIR
	# nobody must reach its directory under $T
	local d=$T
	while [[ $d == /tmp/?* ]]; do
		chmod o+x "$d"
		d=${d%/*}
	done
}

teardown() {
	kill_bg
}


# as_nobody CAPS CMD...: CMD as user nobody with exactly CAPS (ambient, so
# they survive the exec; nothing else effective or permitted)
as_nobody() {
	local caps=$1
	shift
	exec capsh --caps="$caps,cap_setpcap,cap_setuid,cap_setgid+eip" --keep=1 --user=nobody \
		--addamb="$caps" -- -c 'exec "$@"' as_nobody "$@"
}

require_caps() {
	require_root
	require_btf
	require_cmd capsh
	[[ $(id -u nobody 2>/dev/null) ]] || skip "needs the user nobody"
	# the test runs nobody's binaries from the build tree
	su -s /bin/sh nobody -c "test -x '$EBPF_COLLECT'" ||
		skip "user nobody cannot run $EBPF_COLLECT (a parent directory is not searchable)"
}

# runtime_check TRACE SUMMARY: the trace holds exactly the runtime events
# refrt fired (the kernel's process events are host-wide: --all finds new
# processes with them), complete with 0 lost
runtime_check() {
	"$EBPF_COLLECT" dump --json "$1" >"$1.jsonl" || flunk "dump $1 failed"
	python3 - "$2" "$1.jsonl" <<'PY'
import json, sys
fired = {k: v for k, v in json.load(open(sys.argv[1]))["events"].items() if v}
got, summary = {}, None
for l in open(sys.argv[2]):
    o = json.loads(l)
    if o.get("type") == "summary":
        summary = o
    elif o.get("type") == "event" and o["provider"].startswith("Microsoft-Windows-DotNETRuntime") and o["tid"] != 0x7fffffff:
        got[o["event"]] = got.get(o["event"], 0) + 1
bad = []
if not summary or not summary.get("complete") or summary.get("lost"):
    bad.append("summary %r" % summary)
differ = {k: (got.get(k, 0), fired.get(k, 0)) for k in set(got) | set(fired) if got.get(k, 0) != fired.get(k, 0)}
if differ:
    bad.append("counts (file, refrt): %r" % differ)
print("MISMATCH " + "; ".join(bad) if bad else "OK %d runtime events" % sum(got.values()))
sys.exit(1 if bad else 0)
PY
}

@test "daemon as nobody with only CAP_BPF CAP_PERFMON CAP_SYS_PTRACE CAP_DAC_READ_SEARCH: exactly what refrt fired" {
	require_caps
	mkdir "$T/d" && chown nobody "$T/d"
	bg "$T/rt.out" "$REFRT" --scenario mixed --iterations 200 --rate 400 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID
	bg "$T/d.out" as_nobody "$CAPS" "$EBPF_COLLECT" daemon --pid-filter "$rt" -o "$T/d"
	local d=$LAST_PID
	wait "$rt" || flunk "refrt failed: $(cat "$T/rt.out.err")"
	wait_for_grep "tracing .* probes" "$T/d.out.err" || flunk "$(cat "$T/d.out.err")"
	kill -TERM "$d"
	wait "$d" || flunk "daemon exit $?: $(cat "$T/d.out.err")"
	grep -q -- "starting: ebpf-collect --pid-filter=$rt --all --format=v6 --flight-recorder=60s" \
		"$T/d.out.err" || flunk "defaults: $(grep starting "$T/d.out.err")"
	grep -q -- "--host=$(hostname) " "$T/d.out.err" || flunk "no --host default"
	local f=("$T"/d/trace-*.1.nettrace)
	[[ $(stat -c %U "${f[0]}") == nobody ]] || flunk "no trace-START.1.nettrace by nobody: $(ls "$T/d")"
	run runtime_check "${f[0]}" "$T/s.json"
	echo "$output"
	assert_success
}

@test "daemon without CAP_BPF exits 4 and names CAP_BPF" {
	require_caps
	mkdir "$T/d" && chown nobody "$T/d"
	run as_nobody cap_perfmon,cap_sys_ptrace,cap_dac_read_search \
		"$EBPF_COLLECT" daemon --pid-filter "$$" -o "$T/d"
	echo "$output"
	[[ $status -eq 4 ]] || flunk "exit $status, not 4"
	assert_output_contains "missing capabilities CAP_BPF (or CAP_SYS_ADMIN)"
	[[ -z $(ls "$T/d") ]] || flunk "files written: $(ls "$T/d")"
}

@test "daemon without CAP_SYS_PTRACE warns that other users' processes cannot be traced" {
	require_caps
	mkdir "$T/d" && chown nobody "$T/d"
	run as_nobody cap_bpf,cap_perfmon,cap_dac_read_search \
		"$EBPF_COLLECT" daemon --pid-filter "$$" --duration 1s -o "$T/d"
	echo "$output"
	assert_success
	assert_output_contains "ebpf-collect: missing capability CAP_SYS_PTRACE: processes of other users cannot be traced"
}

@test "daemon config: unknown option, missing value, unreadable file exit 64 with FILE:LINE" {
	printf '# node defaults\nall\n\nkeep = 3   # a comment\nflightrecorder = 30s\n' >"$T/a.conf"
	run "$EBPF_COLLECT" daemon --config "$T/a.conf" -o "$T/d"
	[[ $status -eq 64 ]] || flunk "exit $status"
	assert_output "ebpf-collect daemon: $T/a.conf:5: unknown option flightrecorder"
	printf 'rotate =\n' >"$T/b.conf"
	run "$EBPF_COLLECT" daemon --config "$T/b.conf"
	[[ $status -eq 64 ]] || flunk "exit $status"
	assert_output "ebpf-collect daemon: $T/b.conf:1: option rotate needs a value"
	printf 'all = off\nkernel-stack = off\nrotate = off\nformat = v5\n' >"$T/o.conf"
	run "$EBPF_COLLECT" daemon --config "$T/o.conf" --pid 0 -o "$T/o"
	[[ $status -eq 64 ]] || flunk "--pid 0: exit $status"
	[[ ${lines[0]} == "ebpf-collect daemon: starting: ebpf-collect --format=v5 --pid=0 --flight-recorder=60s --keep=144 --buffer-size=16 --host=$(hostname) --profile=always-on --output=$T/o/trace-"*".nettrace" ]] ||
		flunk "off: ${lines[0]}"
	printf 'kernel-stack = 5\n' >"$T/c.conf"
	run "$EBPF_COLLECT" daemon --config "$T/c.conf"
	[[ $status -eq 64 ]] || flunk "exit $status"
	assert_output "ebpf-collect daemon: $T/c.conf:1: option kernel-stack takes no value (or yes, off)"
	run "$EBPF_COLLECT" daemon --config "$T/none.conf"
	[[ $status -eq 64 ]] || flunk "exit $status"
	assert_output "ebpf-collect daemon: $T/none.conf: cannot read: No such file or directory"
	run "$EBPF_COLLECT" daemon --bogus
	[[ $status -eq 64 ]] || flunk "exit $status"
	assert_output "ebpf-collect daemon: command line: unknown option bogus"
	# the collector's option that --help does not list is not a key
	printf 'bench-count-only\n' >"$T/h.conf"
	run "$EBPF_COLLECT" daemon --config "$T/h.conf" -o "$T/d"
	[[ $status -eq 64 ]] || flunk "exit $status"
	assert_output "ebpf-collect daemon: $T/h.conf:1: unknown option bench-count-only"
	[[ ! -e $T/d ]] || flunk "a config error created $T/d"
	rm -rf "$T/o"
}

@test "daemon config: every long option of ebpf-collect --help is a config key" {
	local o missing=()
	for o in $("$EBPF_COLLECT" --help | grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' |
		 sed 's/.*--//' | sort -u); do
		o=${o#--}
		[[ $o == help || $o == usage || $o == version ]] && continue
		printf '%s = off\n' "$o" >"$T/k.conf"
		# invalid --format and --duration: argp stops before anything attaches
		run "$EBPF_COLLECT" daemon --config "$T/k.conf" --format=v9 --duration=0 -o "$T/k"
		[[ $output == *"unknown option $o"* ]] && missing+=("$o")
	done
	[[ ${#missing[@]} -eq 0 ]] || flunk "not config keys: ${missing[*]}"
}

@test "daemon SIGHUP: the trace is completed and a new one runs with the changed config" {
	require_root
	require_btf
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 60 --rate 200 --threads 2 \
		--summary "$T/s.json"
	local rt=$LAST_PID
	printf 'rotate = 300ms\nkeep = 5\nflight-recorder = off\npid-filter = %s\n' "$rt" >"$T/d.conf"
	bg "$T/d.out" "$EBPF_COLLECT" daemon --config "$T/d.conf" -o "$T/d"
	local d=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/d.out.err" || flunk "$(cat "$T/d.out.err")"
	# the newest file number of run $1 (trace-START) is at least $2
	run_reached() {
		local n
		n=$(ls "$T/d" | sed -n "s/^$1\.\([0-9]*\)\.nettrace$/\1/p" | sort -n | tail -1)
		((${n:-0} >= $2))
	}
	local first second
	first=$(sed -n 's|.*starting: .*--output=.*/\(trace-[0-9TZ]*\)\.nettrace$|\1|p' "$T/d.out.err" | head -1)
	[[ -n $first ]] || flunk "no first run: $(cat "$T/d.out.err")"
	# more files than the new keep, so its start has something to prune
	wait_until 60 run_reached "$first" 4 || flunk "first run: $(ls "$T/d")"
	sed -i 's/keep = 5/keep = 2/' "$T/d.conf"
	kill -HUP "$d"
	wait_for_grep "starting: .*--keep=2" "$T/d.out.err" || flunk "no reload: $(cat "$T/d.out.err")"
	second=$(sed -n 's|.*starting: .*--keep=2.*--output=.*/\(trace-[0-9TZ]*\)\.nettrace$|\1|p' "$T/d.out.err" | head -1)
	# and the new run rotated past its own keep
	wait_until 60 run_reached "$second" 4 || flunk "second run: $(ls "$T/d")"
	kill -TERM "$d"
	wait "$d" || flunk "daemon exit $?: $(cat "$T/d.out.err")"
	# each start has its own name: trace-START.N.nettrace
	local runs=() r counts=()
	mapfile -t runs < <(ls "$T/d" | sed -n 's/^\(trace-[0-9TZ]*\)\.[0-9]*\.nettrace$/\1/p' | sort -u)
	for r in "${runs[@]}"; do
		counts+=("$(ls "$T/d" | grep -c "^$r\.[0-9]*\.nettrace$")")
	done
	for f in "$T"/d/*.nettrace; do
		"$EBPF_COLLECT" dump --json "$f" | tail -1 | grep -q '"complete":true' ||
			flunk "$f incomplete"
	done
	# the new run keeps its newest 2, and at its start it left the first
	# run its newest 2
	[[ ${counts[*]} == "2 2" ]] || flunk "keep 5 then 2: ${runs[*]}: ${counts[*]} files"
}

@test "daemon config: a directory, a NUL byte, binary, a symlink to /etc/shadow, untrusted owners, bad values exit 64 in one line" {
	require_root
	local g=(--pid-filter "$$" --duration 1s -o "$T/d") mem
	mem=$(($(getconf _PHYS_PAGES) * $(getconf PAGESIZE) >> 20))
	mkdir "$T/dir.conf"
	run "$EBPF_COLLECT" daemon --config "$T/dir.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "directory: exit $status"
	assert_output "ebpf-collect daemon: $T/dir.conf: a directory, not a config file"
	printf '\0keep = 3\n' >"$T/nul.conf"
	run "$EBPF_COLLECT" daemon --config "$T/nul.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "NUL: exit $status"
	assert_output "ebpf-collect daemon: $T/nul.conf:1: a NUL byte: binary data, not a config file"
	printf 'keep = 3\nrotate = 1%sm\n' $'\x01' >"$T/bin.conf"
	run "$EBPF_COLLECT" daemon --config "$T/bin.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "control character: exit $status"
	assert_output "ebpf-collect daemon: $T/bin.conf:2: a control character: binary data, not a config file"
	# another file's line is never repeated, whatever it is
	ln -s /etc/shadow "$T/shadow.conf"
	run "$EBPF_COLLECT" daemon --config "$T/shadow.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "/etc/shadow: exit $status"
	assert_output "ebpf-collect daemon: $T/shadow.conf:1: not an option line (OPTION or OPTION = VALUE, with a long option of 'ebpf-collect --help')"
	printf 'hunter2\n' >"$T/word.conf"
	run "$EBPF_COLLECT" daemon --config "$T/word.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "a word: exit $status"
	assert_output "ebpf-collect daemon: $T/word.conf:1: not an option line (OPTION or OPTION = VALUE, with a long option of 'ebpf-collect --help')"
	printf 'keep = 3\n' >"$T/good.conf"
	cp "$T/good.conf" "$T/nobody.conf"
	chown nobody "$T/nobody.conf"
	run "$EBPF_COLLECT" daemon --config "$T/nobody.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "owner: exit $status"
	assert_output "ebpf-collect daemon: $T/nobody.conf: owned by uid $(id -u nobody), neither root nor the daemon's user: refused (its writer would choose what the daemon traces)"
	ln -s good.conf "$T/link.conf"
	chown -h nobody "$T/link.conf"
	run "$EBPF_COLLECT" daemon --config "$T/link.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "link owner: exit $status"
	assert_output "ebpf-collect daemon: $T/link.conf: a symbolic link owned by uid $(id -u nobody), neither root nor the daemon's user: refused"
	cp "$T/good.conf" "$T/ww.conf"
	chmod 666 "$T/ww.conf"
	run "$EBPF_COLLECT" daemon --config "$T/ww.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "world-writable: exit $status"
	assert_output "ebpf-collect daemon: $T/ww.conf: writable by every user: refused (chmod o-w)"
	# values: the collector's own checks, before anything attaches
	printf '# values\nkeep = 0\n' >"$T/keep.conf"
	run "$EBPF_COLLECT" daemon --config "$T/keep.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "keep = 0: exit $status"
	[[ ${#lines[@]} -eq 2 && ${lines[0]} == "ebpf-collect daemon: starting: "* ]] || flunk "$output"
	assert_equal "${lines[1]}" "ebpf-collect daemon: $T/keep.conf:2: invalid --keep '0' (a number of files, 1 or more)"
	printf 'flight-recorder = 99999999GB\n' >"$T/fr.conf"
	run "$EBPF_COLLECT" daemon --config "$T/fr.conf" "${g[@]}"
	[[ $status -eq 64 ]] || flunk "flight-recorder: exit $status"
	[[ ${#lines[@]} -eq 2 ]] || flunk "$output"
	assert_equal "${lines[1]}" "ebpf-collect daemon: $T/fr.conf:1: invalid --flight-recorder '99999999GB' (the window is held in memory: at most this machine's $mem MB)"
	[[ -z $(ls "$T/d") ]] || flunk "files written: $(ls "$T/d")"
	# the collector's own check, which the daemon runs
	run "$EBPF_COLLECT" -p "$$" --flight-recorder 99999999GB -o "$T/x.nettrace"
	[[ $status -eq 64 ]] || flunk "collector: exit $status"
	assert_output_contains "ebpf-collect: invalid --flight-recorder '99999999GB' (the window is held in memory: at most this machine's $mem MB)"
	local v
	for v in 1e30GB nanGB infGB; do
		run "$EBPF_COLLECT" -p "$$" --flight-recorder "$v" -o "$T/x.nettrace"
		[[ $status -eq 64 ]] || flunk "collector --flight-recorder $v: exit $status"
		assert_output_contains "invalid --flight-recorder '$v' (a time"
	done
	[[ ! -e $T/x.nettrace ]] || flunk "a usage error wrote $T/x.nettrace"
}

@test "daemon as nobody with CAP_DAC_READ_SEARCH: a config only the capability can read (/etc/shadow) is refused, never echoed" {
	require_caps
	ln -s /etc/shadow "$T/s.conf"
	run as_nobody cap_dac_read_search "$EBPF_COLLECT" daemon --config "$T/s.conf" \
		--pid-filter "$$" --duration 1s -o "$T/d"
	echo "$output"
	[[ $status -eq 64 ]] || flunk "exit $status"
	assert_output "ebpf-collect daemon: $T/s.conf: the daemon's user may not read it (only its capabilities can): not a config for it"
}

# file_state FILE: "complete lost N" of a trace file, N its runtime events
file_state() {
	"$EBPF_COLLECT" dump --json "$1" | python3 -c '
import json, sys
n, s = 0, {}
for l in sys.stdin:
    o = json.loads(l)
    if o.get("type") == "summary":
        s = o
    elif o.get("type") == "event" and o["provider"] == "Microsoft-Windows-DotNETRuntime":
        n += 1
print(s.get("complete"), s.get("lost"), n)'
}

# good_file_after RUN K: within 30 s a file of RUN after its Kth is
# completed with runtime events and 0 lost (the host-wide kernel events
# of --all may lose some on a busy machine: a later file then counts)
good_file_after() {
	local run=$1 n=$(($2 + 1)) i state=
	for ((i = 0; i < 600; i++)); do
		if grep -q -- "rotate: $T/d/$run\.$n\.nettrace complete" "$T/d.out.err"; then
			state=$(file_state "$T/d/$run.$n.nettrace")
			[[ $state =~ ^True\ 0\ [1-9][0-9]*$ ]] && return 0
			echo "$run.$n: $state (complete lost events)"
			n=$((n + 1))
		fi
		sleep 0.05
	done
	flunk "no good file of $run after $2 in 30 s: $(tail -3 "$T/d.out.err")"
}

# refused_reload PID WANT: SIGHUP to the daemon; it logs exactly the line
# refusing the config with WANT ("FILE[:LINE]: CAUSE"), starts nothing
# new, and the running trace goes on: a file it began after the refusal
# is completed with runtime events
refused_reload() {
	local d=$1 want=$2 run k
	kill -HUP "$d"
	wait_until 30 grep -Fxq "ebpf-collect daemon: SIGHUP: not reloaded: $want; the trace goes on with the previous config" \
		"$T/d.out.err" || flunk "no refusal with $want: $(grep -v 'rotate: ' "$T/d.out.err")"
	kill -0 "$d" || flunk "the daemon ended: $(cat "$T/d.out.err")"
	[[ $(grep -c "starting: " "$T/d.out.err") -eq 1 ]] || flunk "restarted: $(grep starting "$T/d.out.err")"
	run=$(ls "$T/d" | sed -n 's/^\(trace-[0-9TZ]*\)\.[0-9]*\.nettrace$/\1/p' | sort -u)
	k=$(ls "$T/d" | sed -n 's/^trace-[0-9TZ]*\.\([0-9]*\)\.nettrace$/\1/p' | sort -n | tail -1)
	[[ -n $run && -n $k ]] || flunk "no files in $T/d: $(ls "$T/d")"
	good_file_after "$run" "$k"
}

@test "daemon SIGHUP with a bad config (keep = 0, a directory, a NUL byte, /etc/shadow, a flight recorder beyond memory): one line, the trace goes on; then a good one reloads" {
	require_root
	require_btf
	local mem d rt shadow
	mem=$(($(getconf _PHYS_PAGES) * $(getconf PAGESIZE) >> 20))
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 300 --rate 200 --threads 2 \
		--summary "$T/s.json"
	rt=$LAST_PID
	printf 'rotate = 500ms\nkeep = 1000\nflight-recorder = off\npid-filter = %s\n' "$rt" >"$T/d.good"
	cp "$T/d.good" "$T/d.conf"
	bg "$T/d.out" "$EBPF_COLLECT" daemon --config "$T/d.conf" -o "$T/d"
	d=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/d.out.err" 30 || flunk "$(cat "$T/d.out.err")"

	sed 's/^keep = 1000$/keep = 0/' "$T/d.good" >"$T/d.conf"
	refused_reload "$d" "$T/d.conf:2: invalid --keep '0' (a number of files, 1 or more)"
	sed 's/^flight-recorder = off$/flight-recorder = 99999999GB/' "$T/d.good" >"$T/d.conf"
	refused_reload "$d" "$T/d.conf:3: invalid --flight-recorder '99999999GB' (the window is held in memory: at most this machine's $mem MB)"
	{ printf '\0# x\n'; cat "$T/d.good"; } >"$T/d.conf"
	refused_reload "$d" "$T/d.conf:1: a NUL byte: binary data, not a config file"
	rm "$T/d.conf"
	mkdir "$T/d.conf"
	refused_reload "$d" "$T/d.conf: a directory, not a config file"
	rmdir "$T/d.conf"
	ln -s /etc/shadow "$T/d.conf"
	refused_reload "$d" "$T/d.conf:1: not an option line (OPTION or OPTION = VALUE, with a long option of 'ebpf-collect --help')"
	while IFS= read -r shadow; do
		[[ -z $shadow ]] || ! grep -qF -- "$shadow" "$T/d.out.err" ||
			flunk "a line of /etc/shadow is in the daemon's output"
	done </etc/shadow
	rm "$T/d.conf"

	sed 's/^keep = 1000$/keep = 2/' "$T/d.good" >"$T/d.conf"
	kill -HUP "$d"
	wait_for_grep "starting: .*--keep=2 " "$T/d.out.err" 30 || flunk "no reload: $(cat "$T/d.out.err")"
	local new
	new=$(sed -n 's/.*starting: .*--keep=2 .*--output=.*\/\(trace-[0-9TZ]*\)\.nettrace$/\1/p' "$T/d.out.err")
	good_file_after "$new" 0
	kill -TERM "$d"
	wait "$d" || flunk "daemon exit $?: $(cat "$T/d.out.err")"
	for f in "$T"/d/*.nettrace; do
		"$EBPF_COLLECT" dump --json "$f" | tail -1 | grep -q '"complete":true' ||
			flunk "$f incomplete"
	done
}

@test "make deb: the package installs the binary, the man page, the unit, the config and the tracepoint shim; removes cleanly" {
	require_root
	require_cmd dpkg-buildpackage dh
	local ver
	ver=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)
	run make -C "$ROOT" OUTPUT="$OUTPUT" deb
	echo "$output"
	assert_success
	local deb=$OUTPUT/deb/ebpf-collect_${ver}_$(dpkg --print-architecture).deb
	[[ -f $deb ]] || flunk "no $deb"
	[[ $(dpkg-query -W -f '${Status}' ebpf-collect 2>/dev/null) != *installed* ]] ||
		skip "ebpf-collect is already installed on this machine: not replacing it"
	run dpkg -i "$deb"
	echo "$output"
	assert_success
	run /usr/bin/ebpf-collect --version
	local got=$output
	dpkg -L ebpf-collect >"$T/files"
	[[ $(dpkg-query -W -f '${Conffiles}' ebpf-collect) == *"/etc/ebpf-collect/daemon.conf"* ]] ||
		echo "daemon.conf is not a conffile" >>"$T/bad"
	id ebpf-collect >/dev/null 2>&1 || echo "no user ebpf-collect" >>"$T/bad"
	dpkg -r ebpf-collect >"$T/rm.out" 2>&1 || echo "dpkg -r failed: $(cat "$T/rm.out")" >>"$T/bad"
	[[ ! -e /usr/bin/ebpf-collect ]] || echo "/usr/bin/ebpf-collect left after dpkg -r" >>"$T/bad"
	# -r keeps the conffile and the user; purge removes the state and keeps
	# the system user, as Debian policy asks
	dpkg --purge ebpf-collect >>"$T/rm.out" 2>&1 || echo "dpkg --purge failed" >>"$T/bad"
	[[ ! -e /etc/ebpf-collect/daemon.conf ]] || echo "daemon.conf left after purge" >>"$T/bad"
	id ebpf-collect >/dev/null 2>&1 || echo "purge removed the system user ebpf-collect" >>"$T/bad"
	[[ ! -e $T/bad ]] || flunk "$(cat "$T/bad")"
	assert_equal "$got" "ebpf-collect $ver"
	local f
	for f in /usr/bin/ebpf-collect /usr/share/man/man8/ebpf-collect.8.gz \
		/lib/systemd/system/ebpf-collect.service /etc/ebpf-collect/daemon.conf \
		/usr/lib/ebpf-collect/tpshim/liblttng-ust-tracepoint.so.0; do
		grep -qx "$f" "$T/files" || flunk "the package does not install $f"
	done
}

@test "the unit runs the daemon with exactly the four tracing capabilities, as its own user" {
	local u=$ROOT/scripts/ebpf-collect.service
	grep -qx 'ExecStart=/usr/bin/ebpf-collect daemon --config /etc/ebpf-collect/daemon.conf -o /var/lib/ebpf-collect' "$u" ||
		flunk "ExecStart"
	grep -qx 'AmbientCapabilities=CAP_BPF CAP_PERFMON CAP_SYS_PTRACE CAP_DAC_READ_SEARCH' "$u" ||
		flunk "AmbientCapabilities"
	grep -qx 'CapabilityBoundingSet=CAP_BPF CAP_PERFMON CAP_SYS_PTRACE CAP_DAC_READ_SEARCH' "$u" ||
		flunk "CapabilityBoundingSet"
	grep -qx 'User=ebpf-collect' "$u" || flunk "User"
	grep -qx 'NoNewPrivileges=yes' "$u" || flunk "NoNewPrivileges"
	grep -q 'as_nobody "$CAPS"' "$BATS_TEST_FILENAME" || flunk "the capsh test does not use CAPS"
	[[ $CAPS == cap_bpf,cap_perfmon,cap_sys_ptrace,cap_dac_read_search ]] || flunk "CAPS differs"
	if command -v systemd-analyze >/dev/null; then
		run systemd-analyze verify "$u"
		[[ $output != *"Unknown key"* && $output != *"Failed to parse"* ]] || flunk "$output"
	fi
}

@test "daemon --metrics: the node's endpoint gives the runtime's GCs by generation as refrt counted them (metrics-pid: by pid; no host label)" {
	require_root
	mkdir "$T/d"
	local port
	port=$(free_port)
	bg "$T/rt.out" "$REFRT" --scenario mixed --iterations 200 --rate 400 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID
	printf 'metrics-pid\n' >"$T/d.conf"
	bg "$T/d.out" "$EBPF_COLLECT" daemon --config "$T/d.conf" --pid-filter "$rt" -o "$T/d" \
		--host node7 --metrics "127.0.0.1:$port"
	local d=$LAST_PID
	wait "$rt" || flunk "refrt failed: $(cat "$T/rt.out.err")"
	# the collector publishes its numbers every 0.5 s: scrape until the
	# endpoint has every GC refrt counted (or give up after 30 s)
	gc_as_counted() {
		curl -sf "http://127.0.0.1:$port/metrics" >"$T/m.txt" || return 1
		python3 - "$T/m.txt" "$T/s.json" "$rt" >"$T/cmp.txt" <<'PY'
import json, re, sys
text, s, pid = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), sys.argv[3]
got = {}
for m in re.finditer(r'^ebpf_collect_gc_total\{([^}]*)\} (\S+)$', text, re.M):
    labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
    if "host" in labels:
        sys.exit("a host label: " + m.group(0))
    if labels.get("pid") == pid and labels.get("comm") == "refrt":
        got[labels["gen"]] = int(float(m.group(2)))
want = {str(g): s["gc"]["gen%d" % g] for g in range(3)}
have = {g: got.get(g, 0) for g in want}
print(have == want and sum(want.values()) > 0, have, want)
sys.exit(0 if have == want and sum(want.values()) > 0 else 1)
PY
	}
	local ok=0
	wait_until 30 gc_as_counted || ok=1
	kill -TERM "$d"
	wait "$d" || flunk "daemon exit $?: $(cat "$T/d.out.err")"
	[[ $ok -eq 0 ]] || flunk "$(cat "$T/cmp.txt" 2>/dev/null) $(cat "$T/d.out.err")"
}

@test "daemon --metrics through SIGHUP reloads: every scrape answered 200, no counter goes back, the daemon's process" {
	require_root
	require_btf
	mkdir "$T/d"
	local port d i
	port=$(free_port)
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 120 --rate 300 --threads 2 \
		--summary "$T/s.json"
	local rt=$LAST_PID
	printf 'pid-filter = %s\nflight-recorder = off\nmetrics = 127.0.0.1:%s\nhost = node7\n' \
		"$rt" "$port" >"$T/d.conf"
	bg "$T/d.out" "$EBPF_COLLECT" daemon --config "$T/d.conf" -o "$T/d"
	d=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/d.out.err" 30 || flunk "$(cat "$T/d.out.err")"
	# scrape every 0.1 s with a 2 s timeout until told to stop; each
	# scrape's status, and each counter series that went back
	cat >"$T/scrape.py" <<'PY'
import os, re, sys, time, urllib.request
port, stop = sys.argv[1], sys.argv[2]
prev, n, bad, down, start = {}, 0, [], [], set()
types = {}
while not os.path.exists(stop):
    try:
        r = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=2)
        code, text = r.status, r.read().decode()
    except Exception as e:
        code, text = repr(e), ""
    n += 1
    if code != 200:
        down.append(code)
    cur = {}
    for line in text.splitlines():
        m = re.match(r"# TYPE (\S+) (\S+)", line)
        if m:
            types[m.group(1)] = m.group(2)
        elif line and not line.startswith("#"):
            key, val = line.rsplit(" ", 1)
            name = key.split("{")[0]
            fam = [f for f in types if name == f or name.startswith(f + "_")]
            if fam and (types[fam[0]] in ("counter", "histogram") or name.endswith(("_sum", "_count"))):
                cur[key] = float(val)
            if name == "process_start_time_seconds":
                start.add(val)
    bad += ["%s %g -> %g" % (k, prev[k], v) for k, v in cur.items() if k in prev and v < prev[k]]
    bad += ["%s gone" % k for k in prev if k not in cur and text]
    prev = cur or prev
    time.sleep(0.1)
print("scrapes", n, "failed", len(down), down[:3], "decreases", len(bad), bad[:5], "starts", len(start))
print("events", prev.get('ebpf_collect_events_total{host="node7"}', 0))
PY
	bg "$T/scr.out" python3 "$T/scrape.py" "$port" "$T/stop"
	local scr=$LAST_PID
	counting() {
		curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" | grep -q '^ebpf_collect_events_total{host="node7"} [1-9]'
	}
	wait_until 20 counting || flunk "no events counted"
	traces_attached() { (($(grep -c 'tracing [0-9]* probes' "$T/d.out.err") >= $1)); }
	for i in 1 2 3; do
		kill -HUP "$d"
		# the new trace is attached (its own "tracing" line), then it runs a while
		wait_until 60 traces_attached $((i + 1)) || flunk "reload $i: $(cat "$T/d.out.err")"
		sleep 1
	done
	local before after
	before=$(curl -sf "http://127.0.0.1:$port/metrics" | awk '/^ebpf_collect_events_total/ { print $2 }')
	touch "$T/stop"
	wait "$scr" || flunk "scraper: $(cat "$T/scr.out.err")"
	kill -TERM "$d"
	wait "$d" || flunk "daemon exit $?: $(cat "$T/d.out.err")"
	[[ $(grep -c 'SIGHUP: reloading' "$T/d.out.err") == 3 ]] || flunk "$(cat "$T/d.out.err")"
	run head -1 "$T/scr.out"
	[[ $output =~ ^scrapes\ ([0-9]+)\ failed\ 0\ \[\]\ decreases\ 0\ \[\]\ starts\ 1$ ]] ||
		flunk "$output"
	((BASH_REMATCH[1] >= 20)) || flunk "too few scrapes: $output"
	# the four traces' events together: more than the last trace alone has
	# counted in the second it ran
	local traced
	traced=$(grep -o '^ebpf-collect: [0-9]* events' "$T/d.out.err" | awk '{ n += $2 } END { print n }')
	((${before%.*} > 0 && ${before%.*} <= traced)) || flunk "events $before, the traces $traced"
	local last_trace
	last_trace=$(grep -o '^ebpf-collect: [0-9]* events' "$T/d.out.err" | tail -1 | awk '{ print $2 }')
	((${before%.*} > last_trace)) || flunk "not carried: endpoint $before, the last trace $last_trace"
	# The first trace attaches to a running refrt and is cut by the first
	# reload as soon as events are counted: when that is before refrt's
	# start rundown (no MethodDCStart in it; refrt writes no perf map here),
	# the methods refrt compiled before the trace have no name in it
	local first
	first=$(ls "$T"/d/*.nettrace | head -1)
	if ! "$EBPF_COLLECT" dump --json "$first" | grep -q '"event":"MethodDCStartVerbose'; then
		trace_note "$first" unnamed "cut by the first reload before refrt's start rundown: the methods compiled before the trace have no name in it"
	fi
}
