#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Kernel events in the trace, through the real CLI:
# ebpf-collect --kernel sched,syscalls,proc --cpu-sampling[=HZ] [--all-processes].
# Traces are read back with `ebpf-collect dump --json` and checked by
# tests/kernel_trace.py, which names frames from the trace's own method
# events, as TraceEvent does.

load test_helper

KT=$BATS_TEST_DIRNAME/kernel_trace.py

setup_file() {
	export BATS_TEST_TIMEOUT=120
}

setup() {
	T=$BATS_TEST_TMPDIR
}

need_bpf() {
	require_root
	require_btf
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
}

dump() {	# dump FILE -> FILE.dump (JSON lines)
	"$EBPF_COLLECT" dump --json "$1" >"$1.dump" || flunk "dump $1 failed"
}

@test "kernel: --kernel and --cpu-sampling are validated" {
	run "$EBPF_COLLECT" -p 1 --kernel sched,bogus
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "unknown kernel event group 'bogus'"
	run "$EBPF_COLLECT" -p 1 --cpu-sampling=0
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "invalid --cpu-sampling rate '0'"
	run "$EBPF_COLLECT" -p 1 --cpu-sampling=99x
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$EBPF_COLLECT" --help
	assert_success
	assert_output_contains "--cpu-sampling"
	assert_output_contains "Linux-Kernel-Sched"
}

@test "kernel: cpu scenario: >= 90% of CPU samples have HotLoop, named, as leaf managed frame" {
	need_bpf
	DOTNET_PerfMapEnabled=3 run --separate-stderr "$EBPF_COLLECT" -o "$T/cpu.nettrace" \
		--profile cpu-sampling -- "$REFRT" --scenario cpu --threads 2 --duration 3 \
		--summary "$T/cpu.json"
	assert_success
	[[ $stderr == *"CPU samples ("*"at 999 Hz"* ]] || flunk "stderr: $stderr"
	dump "$T/cpu.nettrace"
	read -r hot total managed < <(python3 "$KT" samples "$T/cpu.nettrace.dump" \
		RefApp.Workload.HotLoop)
	echo "samples $total, managed $managed, HotLoop leaf-managed $hot"
	# ~1 CPU for 3 s at 999 Hz (this VM gives 2 busy threads about 1 CPU)
	((total >= 1500)) || flunk "only $total samples"
	((hot * 100 >= total * 90)) || flunk "HotLoop leaf in $hot of $total samples"
	# the header carries the sampling interval: 1e9 / 999 ns
	run python3 "$KT" header "$T/cpu.nettrace"
	assert_output 1001001
	# EventPipe's thread-sample event: id 0, version 0, Type 1/2, sampled
	# thread = capture thread, every sample with a stack; Type 2 exactly
	# when the leaf user frame is JIT code
	python3 - "$T/cpu.nettrace.dump" "$KT" <<'EOF'
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("kt", sys.argv[2])
kt = importlib.util.module_from_spec(spec); spec.loader.exec_module(kt)
ev = kt.load(sys.argv[1]); names = kt.Names(ev)
s = [e for e in ev if e.get("provider") == "Microsoft-DotNETCore-SampleProfiler"]
assert s and all(e["id"] == 0 and e["version"] == 0 for e in s)
assert all(e["tid"] == e["capture_tid"] for e in s)
assert all(e["stack"] for e in s)
bad = 0
for e in s:
    u = kt.user_frames(names.stack(e["stack"]))
    want = 2 if u and u[0][2] else 1
    bad += e["fields"]["Type"] != want
assert bad * 100 <= len(s), "Type disagrees with the leaf frame in %d of %d" % (bad, len(s))
EOF
}

@test "kernel: contention: off-CPU lock-wait time with its stack matches refrt within 10%" {
	need_bpf
	DOTNET_PerfMapEnabled=3 run --separate-stderr "$EBPF_COLLECT" -o "$T/ct.nettrace" \
		--profile contention -- "$REFRT" --scenario contention --threads 2 --duration 3 \
		--summary "$T/ct.json"
	assert_success
	dump "$T/ct.nettrace"
	want=$(json_get "$T/ct.json" '["contention"]["total_wait_ns"]')
	count=$(json_get "$T/ct.json" '["contention"]["count"]')
	# lock wait = off-CPU intervals blocked in the mutex under Monitor.Enter
	read -r got n _ partner stack < <(python3 "$KT" offcpu "$T/ct.nettrace.dump" \
		lll_lock_wait Monitor.Enter "$T/ct.json")
	echo "off-CPU in lock wait: $got ns in $n intervals; refrt: $want ns in $count waits"
	echo "woken by the partner (the lock holder): $partner"
	echo "stack: $stack"
	((count > 100)) || flunk "refrt contended only $count times"
	python3 -c "import sys; g, w = int(sys.argv[1]), int(sys.argv[2]); \
		sys.exit(0 if abs(g - w) <= w * 0.10 else 1)" "$got" "$want" ||
		flunk "off-CPU lock wait $got ns vs refrt $want ns (more than 10% apart)"
	# about one blocking interval per contended wait (not exactly: a waiter
	# whose trylock failed can still take the mutex without sleeping if the
	# holder releases it in between), and the holder wakes it
	((n * 100 >= count * 99 && n <= count * 2)) ||
		flunk "$n lock-wait intervals for $count contentions"
	((partner * 100 >= n * 95)) || flunk "only $partner of $n woken by the holder"
	# the waiting stack: kernel futex wait, the mutex, Monitor.Enter, the caller
	[[ $stack == *futex_wait*__lll_lock_wait*System.Threading.Monitor.Enter*RefApp.Contention.Increment* ]] ||
		flunk "stack: $stack"
	# who woke them: the holder, in Monitor.Exit's futex wake (SchedWakeup's
	# waker stack: try_to_wake_up called by the futex's wake_up_q; a wake-up
	# in interrupt context shows the interrupted stack under the interrupt's
	# frames, e.g. hrtimer_wakeup)
	read -r w other < <(python3 "$KT" wakers "$T/ct.nettrace.dump" \
		System.Threading.Monitor.Exit wake_up_q)
	echo "wake-ups from Monitor.Exit: $w"
	((w * 100 >= count * 99 && w <= count)) || flunk "$w wake-ups from Monitor.Exit, $count waits"
	assert_equal "$other" 0
	# ebpf-collect report: blocked time by frame, the same total
	run "$EBPF_COLLECT" report "$T/ct.nettrace"
	assert_success
	row=$(grep ' Monitor.Enter <- __GI___lll_lock_wait$' <<<"$output") ||
		flunk "no lock-wait row in: $output"
	read -r ms _ cnt _ <<<"$row"
	echo "report: $row"
	assert_equal "$cnt" "$n"
	python3 -c "import sys; sys.exit(0 if abs(float(sys.argv[1]) * 1e6 - int(sys.argv[2])) < 1e3 \
		else 1)" "$ms" "$got" || flunk "report $ms ms vs $got ns"
}

@test "kernel: dd with 1000 one-byte copies: exact syscall counts, equal to strace's" {
	need_bpf
	require_cmd strace dd
	run --separate-stderr "$EBPF_COLLECT" -o "$T/dd.nettrace" --kernel syscalls -- \
		dd if=/dev/zero of=/dev/null bs=1 count=1000
	assert_success
	dump "$T/dd.nettrace"
	run python3 "$KT" syscalls "$T/dd.nettrace.dump" read 0
	assert_output "1000 1000"
	run python3 "$KT" syscalls "$T/dd.nettrace.dump" write 1
	assert_output "1000 1000"
	# every syscall of the program (from its successful execve on) by name,
	# against strace -f -c of the same command (strace does not count
	# exit_group, which never returns; we write it at entry)
	strace -f -c -o "$T/strace.txt" dd if=/dev/zero of=/dev/null bs=1 count=1000 2>/dev/null
	python3 - "$T/dd.nettrace.dump" "$T/strace.txt" <<'EOF'
import json, sys
ours, seen = {}, False
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("event") != "Syscall":
        continue
    f = e["fields"]
    if f["Name"] == "execve" and f["Ret"] == 0:
        seen = True
    if seen:
        ours[f["Name"]] = ours.get(f["Name"], 0) + 1
assert ours.pop("exit_group") == 1
theirs = {}
for l in open(sys.argv[2]):
    t = l.split()
    if len(t) >= 5 and t[0][0].isdigit() and t[-1] != "total":
        theirs[t[-1]] = int(t[3])
assert ours == theirs, "ours %s\nstrace %s" % (sorted(ours.items()), sorted(theirs.items()))
print("%d syscalls, %d names, equal" % (sum(ours.values()), len(ours)))
EOF
	# durations and return values are there
	python3 - "$T/dd.nettrace.dump" <<'EOF'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
r = [e for e in ev if e.get("event") == "Syscall" and e["fields"]["Name"] == "read"
     and e["fields"]["Arg0"] == 0]
assert all(e["fields"]["Ret"] == 1 and e["fields"]["Arg2"] == 1 for e in r)
assert all(0 < e["fields"]["DurationNs"] < 1e9 for e in r)
EOF
}

@test "kernel: fork, exec and exit of a short-lived child appear in order" {
	need_bpf
	run --separate-stderr "$EBPF_COLLECT" -o "$T/p.nettrace" --kernel proc -- \
		sh -c '/bin/true; exit 3'
	assert_success
	dump "$T/p.nettrace"
	run python3 "$KT" proc "$T/p.nettrace.dump"
	assert_success
	echo "$output"
	[[ ${#lines[@]} -eq 5 ]] || flunk "expected 5 lifecycle events: $output"
	read -r ev p file <<<"${lines[0]}"
	[[ $ev == Exec && $file == */sh ]] || flunk "first: ${lines[0]}"
	read -r ev pp c thr <<<"${lines[1]}"
	[[ $ev == Fork && $pp == "$p" && $thr == 0 ]] || flunk "second: ${lines[1]}"
	assert_equal "${lines[2]}" "Exec $c /bin/true"
	assert_equal "${lines[3]}" "Exit $c $c 0 1"
	assert_equal "${lines[4]}" "Exit $p $p 3 1"
	# timestamps strictly in that order
	python3 - "$T/p.nettrace.dump" <<'EOF'
import json, sys
ts = [json.loads(l)["timestamp"] for l in open(sys.argv[1])
      if '"Linux-Kernel-Process"' in l]
assert ts == sorted(ts) and len(set(ts)) == len(ts), ts
EOF
}

@test "kernel: only targets and their children, unless --all-processes" {
	need_bpf
	for mode in targets all; do
		extra=()
		[[ $mode == all ]] && extra=(--all-processes)
		start_bg "$EBPF_COLLECT" -o "$T/$mode.nettrace" --kernel proc "${extra[@]}" -- \
			sleep 1.5 >"$T/$mode.pid" 2>"$T/$mode.err"
		col=$(cat "$T/$mode.pid")
		# attached (the command runs 1.5 s from here): the outsider runs inside the trace
		wait_for_grep "tracing [0-9]* probes" "$T/$mode.err" 30 ||
			flunk "collector did not start: $(cat "$T/$mode.err")"
		/bin/echo outsider >/dev/null
		wait "$col" || flunk "collector failed: $(cat "$T/$mode.err")"
		dump "$T/$mode.nettrace"
	done
	run grep -c '"Filename":"/bin/echo"' "$T/targets.nettrace.dump"
	assert_output 0
	run grep -c '"Filename":"/bin/echo"' "$T/all.nettrace.dump"
	assert_output 1
}

@test "kernel: CPU samples at 99 Hz follow the CPU time, in a forked child too" {
	need_bpf
	require_cmd /usr/bin/time
	# the target is time(1); refrt is its child, followed through fork
	DOTNET_PerfMapEnabled=3 run --separate-stderr "$EBPF_COLLECT" -o "$T/r.nettrace" \
		--kernel sched --cpu-sampling=99 -- /usr/bin/time -o "$T/time.txt" -f '%U %S' \
		"$REFRT" --scenario cpu --threads 1 --duration 2 --summary "$T/r.json"
	assert_success
	dump "$T/r.nettrace"
	run python3 "$KT" header "$T/r.nettrace"
	assert_output 10101010
	read -r hot total managed < <(python3 "$KT" samples "$T/r.nettrace.dump" HotLoop)
	read -r user sys <"$T/time.txt"
	echo "samples $total (HotLoop $hot), refrt CPU time ${user}s user ${sys}s sys"
	# one sample per 1/99 s of CPU time the process got (+-15%)
	python3 -c "import sys; n, c = int(sys.argv[1]), float(sys.argv[2]) + float(sys.argv[3]); \
		sys.exit(0 if abs(n - 99 * c) <= 0.15 * 99 * c else 1)" "$total" "$user" "$sys" ||
		flunk "$total samples for ${user}+${sys} s of CPU at 99 Hz"
	((hot * 100 >= total * 90)) || flunk "HotLoop leaf in $hot of $total samples"
	# the main thread waits for its workers: its off-CPU stack is named
	read -r _ n _ _ stack < <(python3 "$KT" offcpu "$T/r.nettrace.dump" "" __libc_start_call_main)
	((n >= 1)) || flunk "no named off-CPU stack through main"
	[[ $stack == *schedule*__libc_start_call_main* ]] || flunk "stack: $stack"
}

@test "kernel: overload: ring-buffer drops are counted on stderr and in the file" {
	need_bpf
	dd if=/dev/zero of=/dev/null bs=1 count=100000000 2>/dev/null 3>&- &
	local a=$!
	dd if=/dev/zero of=/dev/null bs=1 count=100000000 2>/dev/null 3>&- &
	local b=$!
	# a 1 MiB ring holds ~12,000 syscall events, 50 ms of two dd's: whether
	# the reader falls behind depends on the machine's load, so hold it still
	# for half a second
	"$EBPF_COLLECT" -o "$T/o.nettrace" -b 1 --kernel syscalls -p "$a" -p "$b" -d 2 \
		2>"$T/o.err" 3>&- &
	local col=$!
	wait_for_grep "tracing " "$T/o.err" || flunk "$(cat "$T/o.err")"
	sleep 0.3
	kill -STOP "$col"
	sleep 0.5
	kill -CONT "$col"
	wait "$col" || flunk "collector failed: $(cat "$T/o.err")"
	kill "$a" "$b"
	stderr=$(cat "$T/o.err")
	drops=$(grep -o 'kernel-events: dropped [0-9]*' <<<"$stderr" | grep -o '[0-9]*$')
	echo "dropped $drops"
	((drops > 0)) || flunk "no drops: $stderr"
	"$EBPF_COLLECT" dump --json "$T/o.nettrace" | grep -v '"Linux-Kernel-Syscalls"' >"$T/o.dump"
	run python3 - "$T/o.dump" "$drops" <<'EOF2'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
loss = [e for e in ev if e.get("event") == "LossSummary"][0]["fields"]
summ = [e for e in ev if e.get("type") == "summary"][0]
d = int(sys.argv[2])
assert loss["RingbufDrops"] == d, (loss, d)
assert summ["lost"] == d and summ["complete"], summ
print("ok")
EOF2
	assert_output ok
	# and TraceEvent would report the same number lost
	run python3 "$BATS_TEST_DIRNAME/traceevent_sim.py" "$T/o.nettrace"
	assert_success
	python3 - "$output" "$drops" <<'EOF2' || flunk "$output"
import json, sys
s = json.loads(sys.argv[1]); d = int(sys.argv[2])
assert s["new"]["lost"] == d and s["old"]["lost"] == d, (s, d)
assert s["unsorted_on_other_thread"] == 0 and s["stack_misses"] == 0, s
EOF2
}

@test "kernel: sched events belong to the target's threads: never the idle task or another process" {
	need_bpf
	# refrt's two workers block and wake each other (contention) while the
	# CPUs idle in between: many switches from and to the idle task
	run --separate-stderr "$EBPF_COLLECT" -o "$T/s.nettrace" --kernel sched -- \
		"$REFRT" --scenario mixed --threads 2 --duration 1 --summary "$T/s.json"
	assert_success
	dump "$T/s.nettrace"
	run python3 - "$T/s.nettrace.dump" "$(json_get "$T/s.json" '["pid"]')" <<'EOF'
import json, sys
pid = int(sys.argv[2])
n, bad = {}, []
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("type") != "event" or not e["provider"].startswith("Linux-Kernel"):
        continue
    f, ev = e["fields"], e["event"]
    n[ev] = n.get(ev, 0) + 1
    # the event's own process and thread, as its payload names them
    own = {"SchedSwitch": ("PrevPid", "PrevTid"), "SchedWakeup": ("WakerPid", "WakerTid"),
           "OffCpu": ("Pid", "Tid")}[ev]
    if e["tid"] == 0 or f[own[0]] != pid or f[own[1]] != e["tid"]:
        bad.append("%s tid %d: %s %d, %s %d" % (ev, e["tid"], own[0], f[own[0]], own[1],
                                                  f[own[1]]))
print(n)
assert n.get("SchedSwitch", 0) > 100 and n.get("OffCpu", 0) > 100, n
assert not bad, "%d events not of the target's threads, e.g. %s" % (len(bad), bad[:5])
EOF
	echo "$output"
	assert_success
}

@test "kernel: CPU samples: every user frame in an executable mapping; frames cut are counted" {
	need_bpf
	"$REFRT" --scenario mixed --threads 2 --duration 3 --summary "$T/c.json" 3>&- &
	local rt=$!
	# the process's executable mappings while it runs (the code heap grows)
	( while kill -0 "$rt" 2>/dev/null; do
		grep ' ..x. ' "/proc/$rt/maps" 2>/dev/null
		sleep 0.05
	done ) >"$T/maps" 3>&- &
	local mp=$!
	run --separate-stderr "$EBPF_COLLECT" -p "$rt" -o "$T/c.nettrace" --cpu-sampling=4999 \
		--providers DotNETRuntime,DotNETRuntimeRundown -d 2s
	assert_success
	wait "$rt"
	wait "$mp" || true
	grep -E "kernel-events: [0-9]+ user frames outside the process's code cut from [0-9]+ stacks" \
		<<<"$stderr" || flunk "no cut-frames line: $stderr"
	dump "$T/c.nettrace"
	run python3 - "$T/c.nettrace.dump" "$T/maps" <<'EOF'
import json, sys
ranges = set()
for l in open(sys.argv[2]):
    lo, hi = l.split()[0].split("-")
    ranges.add((int(lo, 16), int(hi, 16)))
ranges = sorted(ranges)
def code(a):
    return any(lo <= a < hi for lo, hi in ranges)
samples = frames = 0
bad = []
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("provider") != "Microsoft-DotNETCore-SampleProfiler":
        continue
    samples += 1
    user = [int(a, 16) for a in e["stack"] if int(a, 16) < 0xffff800000000000]
    for i, a in enumerate(user):
        frames += 1
        if not code(a if i == 0 else a - 1):
            bad.append(hex(a))
print("%d samples, %d user frames, %d outside an executable mapping %s" %
      (samples, frames, len(bad), bad[:5]))
assert samples > 1000 and not bad
EOF
	echo "$output"
	assert_success
}

