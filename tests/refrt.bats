#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The reference runtime (usdt/refrt): probes fire exactly as its JSON summary
# says, perf maps are CoreCLR-shaped and consistent with the method table,
# the cpu scenario runs in JIT code, and attaching a tracer late triggers a
# start rundown.  Root tests use bpftrace (attached with -p, so the kernel
# sets the USDT semaphores) and perf.

load test_helper

# The six scenarios, traced together: attaching ~65 uprobes is quick, but
# bpftrace needs >10 s to detach them (one kernel grace period per uprobe),
# and a uprobe registered while another tracer detaches from the same probe
# site can fail.  So every scenario gets its own refrt and bpftrace -p at the
# same time in setup_file, and all of them detach together in teardown_file.
SCENARIOS=(
	"cpu --threads 2 --iterations 40"
	"alloc --threads 2 --iterations 60"
	"exceptions --threads 2 --iterations 40"
	"contention --threads 2 --iterations 40"
	"jit-churn --threads 2 --iterations 40"
	"mixed --threads 3 --iterations 100"
)

# DCEndComplete_V1 is the last event refrt fires: its probe asks bpftrace to
# print the counts, which bpftrace reads after every program of that hit ran.
count_script() {
	echo "BEGIN { printf(\"READY\\n\"); }
	usdt:$REFRT:*:* { @c[probe] = count(); }
	usdt:$REFRT:DotNETRuntimeRundown:DCEndComplete_V1 { print(@c); printf(\"COUNTED\\n\"); }"
}

start_counting() {
	local d=$BATS_FILE_TMPDIR/count line sc pid i rc
	mkdir -p "$d"
	[[ $EUID -eq 0 ]] && command -v bpftrace >/dev/null || return 0
	[[ -d /sys/kernel/tracing/events ]] || mount -t tracefs nodev /sys/kernel/tracing ||
		return 0
	for line in "${SCENARIOS[@]}"; do
		sc=${line%% *}
		# shellcheck disable=SC2086
		"$REFRT" --scenario ${line} --seed 7 --wait-for-signal 60 -o "$d/$sc.json" \
			2>"$d/$sc.err" 3>&- &
		echo $! >"$d/$sc.rt"
		bpftrace -p "$(cat "$d/$sc.rt")" -e "$(count_script)" >"$d/$sc.bt" 2>"$d/$sc.bterr" 3>&- &
		echo $! >>"$d/bt.pids"
	done
	for line in "${SCENARIOS[@]}"; do
		sc=${line%% *}
		wait_for_grep READY "$d/$sc.bt" 60 || echo "no READY" >"$d/$sc.fail"
		kill -USR1 "$(cat "$d/$sc.rt")" || echo "refrt exited early" >>"$d/$sc.fail"
	done
	for line in "${SCENARIOS[@]}"; do
		sc=${line%% *}
		pid=$(cat "$d/$sc.rt")
		for ((i = 0; i < 600; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" && echo "refrt hung" >>"$d/$sc.fail"
		rc=0
		wait "$pid" || rc=$?
		echo "$rc" >"$d/$sc.rc"
		wait_for_grep COUNTED "$d/$sc.bt" 10 || echo "no COUNTED" >>"$d/$sc.fail"
	done
}

setup_file() {
	[[ -x $REFRT ]] || flunk "refrt not built (make)"
	export BATS_TEST_TIMEOUT=60
	start_counting
}

teardown_file() {
	local d=$BATS_FILE_TMPDIR/count p i
	[[ -f $d/bt.pids ]] || return 0
	for p in $(cat "$d/bt.pids"); do
		kill -INT "$p" 2>/dev/null || true
	done
	for p in $(cat "$d/bt.pids"); do	# before another test file attaches uprobes
		for ((i = 0; i < 600; i++)); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
	done
}

teardown() {
	local p
	for p in ${KILL_PIDS:-}; do
		kill "$p" 2>/dev/null || true
	done
	rm -f /tmp/perf-"${RT_PID:-x}".map /tmp/perfinfo-"${RT_PID:-x}".map \
		/tmp/jit-"${RT_PID:-x}".dump
}

# Compare bpftrace's "@c[probe]: N" lines with the summary's event counts.
compare_counts() {	# compare_counts BT_OUT SUMMARY
	python3 - "$1" "$2" <<'EOF'
import json, re, sys
bt = {}
for line in open(sys.argv[1]):
    if line.strip() == "COUNTED":
        break
    m = re.match(r'@c\[usdt:[^:]*:([^:]+):([^\]]+)\]: (\d+)$', line.strip())
    if m:
        bt[m.group(1) + ":" + m.group(2)] = int(m.group(3))
d = json.load(open(sys.argv[2]))
want = {}
for k, v in d["events"].items():
    prov = "DotNETRuntimeRundown" if ("DCStart" in k or "DCEnd" in k) else "DotNETRuntime"
    want[prov + ":" + k] = v
want.update(d["custom_events"])
bad = []
for k in sorted(set(want) | set(bt)):
    if want.get(k, 0) != bt.get(k, 0):
        bad.append("%s: summary %d, bpftrace %d" % (k, want.get(k, 0), bt.get(k, 0)))
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("%d event kinds, %d events, all equal" % (len([k for k in want if want[k]]),
                                                sum(want.values())))
EOF
}

# Run a scenario with bpftrace counting every probe of refrt, then compare.
count_scenario() {	# count_scenario SCENARIO
	local d=$BATS_FILE_TMPDIR/count n
	require_root
	require_cmd bpftrace python3
	[[ -f $d/$1.rc ]] || flunk "scenario $1 was not traced (tracefs?)"
	[[ ! -f $d/$1.fail ]] || flunk "$(cat "$d/$1.fail"): $(cat "$d/$1.bterr" "$d/$1.bt")"
	[[ $(cat "$d/$1.rc") -eq 0 ]] || flunk "refrt failed: $(cat "$d/$1.err")"
	# every probe of refrt (bpftrace -l), BEGIN, DCEndComplete_V1 again
	n=$(bpftrace -l "usdt:$REFRT:*" | wc -l)
	grep -q "Attaching $((n + 2)) probes" "$d/$1.bt" || flunk "attach: $(head -3 "$d/$1.bt")"
	run compare_counts "$d/$1.bt" "$d/$1.json"
	echo "$output"
	assert_success
	SUMMARY=$d/$1.json
}

ev() {	# ev NAME: the summary's count of one event
	json_get "$SUMMARY" "[\"events\"][\"$1\"]"
}

@test "refrt: --help exits 0, usage errors exit 64" {
	run "$REFRT" --help
	assert_success
	assert_output_contains "--scenario"
	run "$REFRT" --scenario nope
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$REFRT" --threads 0
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$REFRT" --iterations 12abc
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	run "$REFRT" --iterations 3 --duration 1
	[[ $status -eq 64 ]] || flunk "status $status: $output"
}

@test "refrt: runs unprivileged; with no tracer it fires nothing" {
	local out=$BATS_TEST_TMPDIR/s.json
	if [[ $EUID -eq 0 ]]; then
		require_cmd setpriv
		run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$REFRT" --scenario mixed --iterations 70
	else
		run --separate-stderr "$REFRT" --scenario mixed --iterations 70
	fi
	assert_success
	printf '%s\n' "$output" >"$out"
	run python3 -c "import json,sys; d=json.load(open(sys.argv[1]));
assert d['operations'] == 140, d['operations']
assert sum(d['events'].values()) == 0 and d['custom_events']['RefAppEventSource:WorkItem'] == 0
assert d['gc']['count'] > 0 and d['exceptions']['total'] == 36 and d['contention']['count'] == 17
print('ok')" "$out"
	assert_success
}

@test "refrt: cpu scenario: bpftrace counts equal the summary" {
	count_scenario cpu
	[[ $(ev MethodLoadVerbose_V2) -eq 26 ]] || flunk "19 start-up + 7 tier-1 methods expected"
	[[ $(ev MethodILToNativeMap) -eq 26 ]]
	[[ $(ev ThreadCreated) -eq 3 ]]
	[[ $(json_get "$SUMMARY" '["custom_events"]["RefAppEventSource:WorkItem"]') -eq 80 ]]
}

@test "refrt: alloc scenario: bpftrace counts equal the summary" {
	count_scenario alloc
	[[ $(ev GCStart_V2) -gt 2 ]]
	[[ $(ev GCStart_V2) -eq $(json_get "$SUMMARY" '["gc"]["count"]') ]]
	[[ $(ev GCAllocationTick_V3) -eq $(json_get "$SUMMARY" '["allocations"]["ticks"]') ]]
	[[ $(ev GCAllocationTick_V3) -gt 10 ]]
	local e
	for e in GCTriggered GCSuspendEEBegin_V1 GCSuspendEEEnd_V1 GCEnd_V1 GCHeapStats_V2 \
		GCGlobalHeapHistory_V3 GCRestartEEBegin_V1 GCRestartEEEnd_V1; do
		[[ $(ev $e) -eq $(ev GCStart_V2) ]] || flunk "$e != GCStart_V2"
	done
}

@test "refrt: exceptions scenario: bpftrace counts equal the summary" {
	count_scenario exceptions
	local e
	for e in ExceptionThrown_V1 ExceptionCatchStart ExceptionCatchStop ExceptionFinallyStart \
		ExceptionFinallyStop ExceptionFilterStart ExceptionFilterStop; do
		[[ $(ev $e) -eq 80 ]] || flunk "$e: $(ev $e), expected 80"
	done
}

@test "refrt: contention scenario: bpftrace counts equal the summary" {
	count_scenario contention
	[[ $(ev ContentionStart_V1) -eq 40 ]]
	[[ $(ev ContentionStop_V1) -eq 40 ]]
	[[ $(json_get "$SUMMARY" '["contention"]["total_wait_ns"]') -gt 20000000 ]] ||
		flunk "40 waits of >= 500 us each expected"
}

@test "refrt: jit-churn scenario: bpftrace counts equal the summary" {
	count_scenario jit-churn
	[[ $(ev AssemblyLoad_V1) -eq 42 ]]
	[[ $(ev AssemblyUnload_V1) -eq 38 ]]
	[[ $(ev ModuleUnload_V2) -eq 38 ]]
	[[ $(ev MethodUnloadVerbose_V2) -gt 76 ]]
	[[ $(ev MethodDCEndVerbose_V2) -gt 0 ]]
	# each plug-in run allocates 100 KiB on the LOH from plug-in code
	[[ $(ev GCAllocationTick_V3) -eq 40 ]]
}

@test "refrt: mixed scenario: bpftrace counts equal the summary" {
	count_scenario mixed
	[[ $(ev GCStart_V2) -gt 0 ]]
	[[ $(json_get "$SUMMARY" '["gc"]["reason_induced"]') -eq 3 ]]
	[[ $(ev ExceptionThrown_V1) -eq 75 ]]
	[[ $(ev ContentionStart_V1) -eq 25 ]]
	[[ $(ev MethodUnloadVerbose_V2) -gt 0 ]]
	[[ $(ev ThreadPoolWorkerThreadStart) -eq 3 ]]
	[[ $(ev ThreadPoolWorkerThreadStop) -eq 3 ]]
	[[ $(ev ThreadPoolWorkerThreadAdjustmentAdjustment) -eq 2 ]] # start + 64th op
}

@test "refrt: perf map lines parse and match the method table; ranges are reused" {
	local dir=$BATS_TEST_TMPDIR
	DOTNET_PerfMapEnabled=3 DOTNET_PerfMapShowOptimizationTiers=1 \
		run "$REFRT" --scenario jit-churn --iterations 60 --threads 2 -o "$dir/s.json"
	assert_success
	RT_PID=$(json_get "$dir/s.json" '["pid"]')
	[[ -f /tmp/perf-$RT_PID.map && -f /tmp/perfinfo-$RT_PID.map ]]
	[[ ! -e /tmp/jit-$RT_PID.dump ]] || flunk "mode 3 must not write a jitdump"
	run python3 - "$dir/s.json" "/tmp/perf-$RT_PID.map" "/tmp/perfinfo-$RT_PID.map" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
meth = d["methods"]
lines = open(sys.argv[2]).read().split("\n")
assert lines[-1] == "", "perf map must end with a newline"
ents = []
for l in lines[:-1]:
    m = re.match(r"^([0-9A-F]{16}) ([0-9a-f]+) (.+)$", l)
    assert m, "bad line: %r" % l
    ents.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3)))
assert len(ents) == len(meth), (len(ents), len(meth))
inf = float("inf")
for i, m in enumerate(meth):
    start = int(m["start"], 16)
    # the i-th line is the i-th code version, with the same range and name
    assert ents[i] == (start, m["size"], m["perfmap_name"]), (ents[i], m)
    assert " " in m["perfmap_name"] and m["perfmap_name"].endswith("]")
    # exactly one line live at its load time covers its range
    t = m["load_ns"]
    live = [j for j, n in enumerate(meth)
            if n["load_ns"] <= t < (n["unload_ns"] or inf)
            and ents[j][0] < start + m["size"] and start < ents[j][0] + ents[j][1]]
    assert live == [i], (i, live)
starts = [e[0] for e in ents]
reused = len(starts) - len(set(starts))
assert reused > 10, "code ranges must be reused after unloads (%d)" % reused
tiers = {m["tier"] for m in meth}
assert tiers == {"QuickJitted", "OptimizedTier1", "Optimized"}, tiers
assert any("[OptimizedTier1]" in m["perfmap_name"] and m["rejit_of"] is not None for m in meth)
hot = [m for m in meth if m["name"] == "RefApp.Workload::HotLoop"]
assert hot[0]["perfmap_name"] == "int64 [RefApp] RefApp.Workload::HotLoop(int32)[QuickJitted]"
info = open(sys.argv[3]).read().splitlines()
assert len(info) == len(d["assemblies"])
for l, a in zip(info, d["assemblies"]):
    assert re.match(r"^ImageLoad;[^;]+;\{[0-9a-f-]{36}\};[0-9A-F]{16};$", l), l
    assert l.split(";")[1] == a["path"]
print("%d lines, %d reused starts" % (len(ents), reused))
EOF
	echo "$output"
	assert_success
}

@test "refrt: DOTNET_PerfMapEnabled 1/2 and DOTNET_PerfMapJitDumpPath" {
	local dir=$BATS_TEST_TMPDIR
	# a /tmp/perf-PID.map older than the run is another process's, of the
	# same pid before (pids are reused; perf maps stay after their process)
	touch "$dir/start"
	DOTNET_PerfMapEnabled=2 DOTNET_PerfMapJitDumpPath=$dir \
		run "$REFRT" --scenario cpu --iterations 2 --threads 1 -o "$dir/s2.json"
	assert_success
	local p2
	p2=$(json_get "$dir/s2.json" '["pid"]')
	[[ -s $dir/jit-$p2.dump && ! -e $dir/perf-$p2.map ]]
	[[ ! /tmp/perf-$p2.map -nt $dir/start ]] || flunk "refrt wrote /tmp/perf-$p2.map with PerfMapEnabled=2"
	# jitdump header: magic, version 1, 40 bytes, EM_X86_64, then one CODE_LOAD per method
	run python3 - "$dir/jit-$p2.dump" "$dir/s2.json" <<'EOF'
import json, struct, sys
b = open(sys.argv[1], "rb").read()
magic, ver, size, mach = struct.unpack_from("<IIII", b, 0)
assert (magic, ver, size, mach) == (0x4A695444, 1, 40, 62), (hex(magic), ver, size, mach)
off, loads = 40, []
while off < len(b):
    rid, rsize = struct.unpack_from("<II", b, off)
    if rid == 0:
        addr, = struct.unpack_from("<Q", b, off + 24)
        loads.append(addr)
    off += rsize
assert off == len(b) and rid == 3, "ends with CODE_CLOSE"
d = json.load(open(sys.argv[2]))
assert loads == [int(m["start"], 16) for m in d["methods"]]
print(len(loads), "CODE_LOAD records")
EOF
	echo "$output"
	assert_success
	DOTNET_PerfMapEnabled=1 DOTNET_PerfMapJitDumpPath=$dir \
		run "$REFRT" --scenario cpu --iterations 2 --threads 1 -o "$dir/s1.json"
	assert_success
	local p1
	p1=$(json_get "$dir/s1.json" '["pid"]')
	[[ -s $dir/jit-$p1.dump && -s $dir/perf-$p1.map && -s $dir/perfinfo-$p1.map ]]
}

@test "refrt: same seed, same JIT sequence and event counts" {
	local dir=$BATS_TEST_TMPDIR
	run "$REFRT" --scenario mixed --iterations 80 --threads 3 --seed 42 -o "$dir/a.json"
	assert_success
	run "$REFRT" --scenario mixed --iterations 80 --threads 3 --seed 42 -o "$dir/b.json"
	assert_success
	run "$REFRT" --scenario mixed --iterations 80 --threads 3 --seed 43 -o "$dir/c.json"
	assert_success
	run python3 - "$dir/a.json" "$dir/b.json" "$dir/c.json" <<'EOF'
import json, sys
def key(p):
    d = json.load(open(p))
    base = int(d["methods"][0]["start"], 16)
    seq = [(m["perfmap_name"], m["size"], int(m["start"], 16) - base, m["unload_ns"] is None)
           for m in d["methods"]]
    nums = (d["gc"], d["allocations"]["bytes"], d["allocations"]["ticks"],
            d["exceptions"]["by_type"], d["contention"]["count"], d["operations"])
    return seq, nums
a, b, c = key(sys.argv[1]), key(sys.argv[2]), key(sys.argv[3])
def strip(n):	# timing, and the order in which induced and allocation GCs interleave
    gc = dict(n[0], suspend_ns=0, pause_ns=0,
              collections=sorted((c["gen"], c["reason"]) for c in n[0]["collections"]))
    return (gc,) + n[1:]
assert a[0] == b[0], "JIT sequence differs"
assert strip(a[1]) == strip(b[1]), (a[1], b[1])
assert a[0] != c[0], "another seed must give another plug-in sequence"
print(len(a[0]), "code versions, identical")
EOF
	echo "$output"
	assert_success
}

@test "refrt: SIGTERM stops the run and still prints the summary" {
	local dir=$BATS_TEST_TMPDIR
	"$REFRT" --scenario mixed --duration 60 --rate 200 -o "$dir/s.json" 2>/dev/null 3>&- &
	RT_PID=$!
	KILL_PIDS=$RT_PID
	# its SIGTERM handler is in place (before that, TERM kills it silently);
	# then a second of operations at 200/s per worker
	wait_for_sigcatch "$RT_PID" TERM || flunk "refrt did not start"
	sleep 1
	kill -TERM "$RT_PID"
	wait "$RT_PID"
	[[ $(json_get "$dir/s.json" '["interrupted"]') == True ]]
	[[ $(json_get "$dir/s.json" '["operations"]') -gt 100 ]]
}

@test "refrt: perf report names the hot JIT method of the cpu scenario" {
	require_root
	require_cmd perf
	local dir=$BATS_TEST_TMPDIR
	DOTNET_PerfMapEnabled=3 run perf record -F 999 -g -o "$dir/perf.data" -- \
		"$REFRT" --scenario cpu --work 200000 --iterations 100 --threads 2 -o "$dir/s.json"
	assert_success
	RT_PID=$(json_get "$dir/s.json" '["pid"]')
	run perf report -i "$dir/perf.data" --stdio --sort sym --no-children
	assert_success
	local top
	top=$(grep -E '^ +[0-9.]+%' <<<"$output" | head -1)
	echo "top: $top"
	[[ $top == *"[.] int64 [RefApp] RefApp.Workload::HotLoop(int32)" ]] || flunk "top: $top"
	# most samples are in JIT code: the RefApp methods' self time
	python3 - <<EOF || flunk "JIT share too low"
import re
tot = 0.0
for l in """$output""".splitlines():
    m = re.match(r"^ +([0-9.]+)%  \[\.\] \S+ \[RefApp\] ", l)
    if m:
        tot += float(m.group(1))
print("JIT share %.1f%%" % tot)
assert tot > 60
EOF
}

@test "refrt: a probe's user stack crosses native helpers, JIT frames and libc" {
	require_root
	require_cmd bpftrace
	ensure_tracefs
	local dir=$BATS_TEST_TMPDIR
	DOTNET_PerfMapEnabled=3 "$REFRT" --scenario exceptions --threads 1 --duration 10 \
		--rate 20 -o "$dir/s.json" 2>/dev/null 3>&- &
	RT_PID=$!
	KILL_PIDS=$RT_PID
	# symbolized by bpftrace itself: ELF symbols and /tmp/perf-PID.map
	run timeout 20 bpftrace -p "$RT_PID" -e "
		usdt:$REFRT:DotNETRuntime:ExceptionThrown_V1 { printf(\"%s\", ustack(perf)); exit(); }"
	kill -INT "$RT_PID"
	wait "$RT_PID"
	echo "$output"
	local want=(clretw__fire_ExceptionThrown_V1 rt_helper_throw
		"RefApp.Exceptions::Validate(int64)" "RefApp.Exceptions::Level3(int64)"
		"RefApp.Exceptions::Level2(int64)" rt_helper_try_call
		"RefApp.Exceptions::Level1(int64)" rt_helper_try_call
		"RefApp.Exceptions::Run(int64)" "RefApp.Program::RunIteration(int64)"
		"ThreadPoolWorkQueue::DispatchWorkItem(int64)"
		"PortableThreadPool+WorkerThread::WorkerThreadStart()" worker_main start_thread)
	local frames i=0 w
	mapfile -t frames < <(grep -E '^\s+[0-9a-f]+ ' <<<"$output")
	for w in "${want[@]}"; do	# in this order, each frame directly below the last
		while ((i < ${#frames[@]})) && [[ ${frames[i]} != *"$w"* ]]; do
			[[ ${frames[i]} == *ev_exception_thrown* ]] || flunk "unexpected frame ${frames[i]}"
			i=$((i + 1))
		done
		((i < ${#frames[@]})) || flunk "frame $w missing"
		i=$((i + 1))
	done
}

@test "refrt: the jitdump works with perf inject --jit" {
	require_root
	require_cmd perf
	local dir=$BATS_TEST_TMPDIR
	export HOME=$dir	# perf's build-id cache
	DOTNET_PerfMapEnabled=2 DOTNET_PerfMapJitDumpPath=$dir run perf record -k mono -F 999 -g \
		-o "$dir/perf.data" -- "$REFRT" --scenario cpu --work 200000 --iterations 300 \
		--threads 2 -o "$dir/s.json"
	assert_success
	run perf inject --jit -i "$dir/perf.data" -o "$dir/perf.jit.data"
	assert_success
	run perf report -i "$dir/perf.jit.data" --stdio --sort dso,sym --no-children
	assert_success
	# perf inject writes one jitted-PID-N.so per code version, so the
	# tier-0 and tier-1 HotLoop are two rows: add a method's rows up.
	python3 - <<EOF || flunk "jitdump samples do not name HotLoop"
import re, collections
by = collections.Counter()
for l in """$output""".splitlines():
    m = re.match(r"^ +([0-9.]+)%  +jitted-[0-9]+-[0-9]+\.so +\[\.\] (.*\S)", l)
    if m:
        by[m.group(2)] += float(m.group(1))
print(by.most_common(4))
assert sum(by.values()) > 60, "JIT share too low"
assert by.most_common(1)[0][0] == "int64 [RefApp] RefApp.Workload::HotLoop(int32)"
EOF
}

@test "refrt: a tracer attaching late triggers a start rundown of every live method" {
	require_root
	require_cmd bpftrace python3
	ensure_tracefs
	local dir=$BATS_TEST_TMPDIR
	# refrt runs until bpftrace has seen the whole rundown (however long
	# bpftrace takes to start on a busy machine), then SIGTERM ends it
	"$REFRT" --scenario jit-churn --duration 120 --rate 50 -o "$dir/s.json" \
		2>/dev/null 3>&- &
	RT_PID=$!
	KILL_PIDS=$RT_PID
	wait_for_sigcatch "$RT_PID" TERM || flunk "refrt did not start"
	sleep 2	# late: its methods were compiled before the tracer
	timeout 20 bpftrace -p "$RT_PID" -e "
		usdt:$REFRT:DotNETRuntimeRundown:DCStartInit_V1 { printf(\"INIT\\n\"); }
		usdt:$REFRT:DotNETRuntimeRundown:MethodDCStartVerbose_V2 {
			printf(\"M %lx %u\\n\", *(uint64 *)(arg0 + 16), *(uint32 *)(arg0 + 24));
		}
		usdt:$REFRT:DotNETRuntimeRundown:DCStartComplete_V1 { printf(\"DONE\\n\"); exit(); }" \
		>"$dir/bt.out" 2>"$dir/bt.err" 3>&-
	kill -TERM "$RT_PID"
	wait "$RT_PID"
	run python3 - "$dir/s.json" "$dir/bt.out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read().split("\n")
assert "INIT" in out and "DONE" in out, out[:5]
seen = sorted((int(l.split()[1], 16), int(l.split()[2])) for l in out if l.startswith("M "))
rd = [r for r in d["rundowns"] if r["kind"] == "start"]
assert len(rd) == 1, d["rundowns"]
t = rd[0]["ns"]
assert t - d["start_ns"] > 1.5e9, "rundown must come when the tracer attached"
live = sorted((int(m["start"], 16), m["size"]) for m in d["methods"]
              if m["load_ns"] <= t and (m["unload_ns"] is None or m["unload_ns"] > t))
assert seen == live, (len(seen), len(live))
assert rd[0]["methods"] == len(live)
assert any(m["unload_ns"] for m in d["methods"]), "plug-ins were unloaded before"
print(len(seen), "methods in the start rundown")
EOF
	echo "$output"
	assert_success
}
