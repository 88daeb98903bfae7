#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Every frame of a trace written by ebpf-collect is named inside the trace
# (symbolizer/symbolize.c).  The reference runtime ($REFRT) says
# which JIT method was live where and when (its --summary method table);
# the check reads only the trace (`ebpf-collect dump --json`) and names each
# frame the way TraceEvent's TraceLog does:
#   - every distinct stack address becomes an unresolved entry when an
#     event referencing it is read;
#   - MethodUnloadVerbose (runtime 144) and MethodDCEndVerbose (rundown 144)
#     resolve the unresolved entries in their range and forget those
#     addresses (seen again later, they are new entries);
#   - MethodLoadVerbose / MethodDCStartVerbose (143, Jitted) do the same
#     after the last event, in order.
# ONLY_OURS=1 ignores the runtime's own method and module events, so the
# collector's events alone must name everything (the runtime's unload
# events would otherwise hide a wrong order); a control run that moves the
# collector's events to the end of the file must then fail.  `ebpf-collect
# convert` must print the same stacks.  Kernel frames (CPU samples and
# context switches) are checked against /proc/kallsyms.
#
# Tags: root (BPF attach).  About 40 s.

load test_helper

setup_file() {
	export BATS_TEST_TIMEOUT=120
}

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	[[ -x $REFRT ]] || flunk "reference runtime not built ($REFRT)"
	require_root
	require_cmd python3
	T=$BATS_TEST_TMPDIR
	BG_PIDS=
	CHECK=$BATS_FILE_TMPDIR/check_names.py
	FOLD=$BATS_FILE_TMPDIR/te_folded.py
	[[ -s $CHECK && -s $FOLD ]] || write_checker
}

teardown() {
	local p
	for p in $BG_PIDS; do
		{ kill -9 "$p" && wait "$p"; } 2>/dev/null || true
	done
}

# refrt_bg NAME ENV... -- REFRT-ARGS...: start refrt (waiting for the
# tracer) with its summary in $T/NAME.json; sets LAST_PID.
refrt_bg() {
	local name=$1 envs=()
	shift
	while [[ $1 != -- ]]; do
		envs+=("$1")
		shift
	done
	shift
	env "${envs[@]}" "$REFRT" --wait-for-tracer 10 --summary "$T/$name.json" "$@" \
		>"$T/$name.out" 2>&1 3>&- &
	LAST_PID=$!
	BG_PIDS="$BG_PIDS $!"
}

# The TraceEvent emulation, written once per file: python3 $CHECK
# DUMP.jsonl SUMMARY.json... prints one JSON line of counts, then "BAD ..."
# lines (at most 10).
write_checker() {
	cat >"$CHECK" <<'EOF'
import bisect, collections, json, os, sys

SYMTID = 0x7fffffff             # symbolizer/symbolize.h SYMBOLIZE_TID
KSTART = 0xffff800000000000
RT, RD = "Microsoft-Windows-DotNETRuntime", "Microsoft-Windows-DotNETRuntimeRundown"
events = [json.loads(l) for l in open(sys.argv[1])]
events = [e for e in events if e.get("type") == "event"]
if os.environ.get("ONLY_OURS"):
    events = [e for e in events if e["tid"] == SYMTID or
              not (e["provider"] in (RT, RD) and e["id"] in (143, 144, 151, 152, 153, 154))]
if os.environ.get("DEFER_OURS"):   # control: the collector's events all at the end
    events = ([e for e in events if e["tid"] != SYMTID] +
              [e for e in events if e["tid"] == SYMTID])
summaries = [json.load(open(f)) for f in sys.argv[2:]]

addr_idx, unres, names, jitted, modules, frames = {}, [], [], [], {}, []

def resolve(f):
    lo = bisect.bisect_left(unres, f["MethodStartAddress"])
    hi = bisect.bisect_left(unres, f["MethodStartAddress"] + f["MethodSize"])
    for a in unres[lo:hi]:
        i = addr_idx.pop(a)
        if names[i] is None:
            names[i] = (f["MethodNamespace"], f["MethodName"], f["MethodSignature"], f["ModuleID"])
    del unres[lo:hi]

for e in events:
    st = [int(x, 16) for x in e.get("stack") or []]
    if st:
        idx = []
        for a in st:
            if a not in addr_idx:
                addr_idx[a] = len(names)
                names.append(None)
                bisect.insort(unres, a)
            idx.append(addr_idx[a])
        frames.append((e, st, idx))
    p, i, f = e["provider"], e["id"], e.get("fields") or {}
    if p in (RT, RD) and i == 144:
        resolve(f)
    elif p in (RT, RD) and i == 143 and f.get("MethodFlags", 0) & 8:
        jitted.append(f)
    elif (p == RT and i == 152) or (p == RD and i in (153, 154)):
        modules.setdefault(f["ModuleID"], f.get("ModuleILPath") or f.get("ModuleNativePath"))
for f in jitted:
    resolve(f)

# ground truth: each runtime's method table, by thread
tables, pid_of = {}, {}
for s in summaries:
    tab = [(int(m["start"], 16), int(m["start"], 16) + m["size"], m) for m in s["methods"]]
    for t in [s["pid"]] + [w["tid"] for w in s["workers"]]:
        tables[t], pid_of[t] = tab, s["pid"]

# kernel frames: the kallsyms symbol at the address (KALLSYMS=1)
ksyms = []
if os.environ.get("KALLSYMS"):
    for l in open("/proc/kallsyms"):
        f = l.split()
        if f[1] in "tTwW" and int(f[0], 16):
            ksyms.append((int(f[0], 16), f[2]))
    ksyms.sort()
kaddrs = [k[0] for k in ksyms]
knames = collections.defaultdict(set)
for a_, n_ in ksyms:
    knames[a_].add(n_)
kernel = set()

bad = []
c = collections.Counter()
native = set()
seen_at = collections.defaultdict(set)   # address -> incarnations it was seen in
for e, st, idx in frames:
    tab = tables.get(e["tid"], [])
    for k, (a, i) in enumerate(zip(st, idx)):
        look = a if k == 0 or (st[k - 1] >= KSTART and a < KSTART) else a - 1
        got = names[i]
        cover = [t for t in tab if t[0] <= look < t[1]]
        ts = e["timestamp"]
        if a >= KSTART and ksyms:
            c["kernel_frames"] += 1
            j = bisect.bisect_right(kaddrs, look) - 1
            # aliases: every name at that address; BPF programs (ours, gone
            # from kallsyms by now) only by their name
            want = knames[ksyms[j][0]] if j >= 0 else set()
            if got is not None and got[1].startswith("bpf_prog_") and \
                    modules.get(got[3]) == "[bpf]":
                c["bpf_frames"] += 1
            elif got is None or got[1] not in want:
                bad.append("kernel 0x%x (%s): trace %r, kallsyms %r" % (a, e["event"],
                           got and got[1], sorted(want)))
            else:
                kernel.add("%s!%s" % (modules.get(got[3]), got[1]))
            continue
        if not cover:
            c["native_frames"] += 1
            if got is None:
                c["unnamed"] += 1
                bad.append("0x%x (%s) has no name" % (a, e["event"]))
            else:
                native.add("%s!%s" % ((modules.get(got[3]) or "?").rsplit("/", 1)[-1], got[1]))
            continue
        live = [t[2] for t in cover if t[2]["load_ns"] <= ts and
                (t[2]["unload_ns"] is None or ts < t[2]["unload_ns"])]
        if len(live) != 1:
            bad.append("0x%x at %d: %d live methods in the table" % (look, ts, len(live)))
            continue
        m = live[0]
        c["jit_frames"] += 1
        c["jit_frames_pid%d" % pid_of[e["tid"]]] += 1
        if len(cover) > 1:
            c["reused_range_frames"] += 1
        seen_at[look].add(m["index"])
        want = (m["namespace"], m["method"], m["signature"])
        if got is None or got[:3] != want:
            if len(cover) > 1:
                c["mismatches_in_reused_ranges"] += 1
            bad.append("0x%x at %d (%s): trace %r, runtime %r" % (look, ts, e["event"],
                       got and got[:3], want))
c["addresses_in_several_incarnations"] = sum(1 for v in seen_at.values() if len(v) > 1)
c["mismatches"] = len(bad) - c["unnamed"]
out = dict(c)
out["native"] = sorted(native)
out["kernel"] = sorted(kernel)
print(json.dumps(out))
for b in bad[:10]:
    print("BAD " + b)
EOF
	# TraceEvent's names as folded stacks, the way `convert` prints them:
	# python3 $FOLD DUMP.jsonl EVENT
	cat >"$FOLD" <<'EOF'
import bisect, collections, json, sys

RT, RD = "Microsoft-Windows-DotNETRuntime", "Microsoft-Windows-DotNETRuntimeRundown"
events = [json.loads(l) for l in open(sys.argv[1])]
events = [e for e in events if e.get("type") == "event"]
addr_idx, unres, names, jitted, modules, frames = {}, [], [], [], {}, []

def resolve(f):
    lo = bisect.bisect_left(unres, f["MethodStartAddress"])
    hi = bisect.bisect_left(unres, f["MethodStartAddress"] + f["MethodSize"])
    for a in unres[lo:hi]:
        i = addr_idx.pop(a)
        if names[i] is None:
            names[i] = f
    del unres[lo:hi]

for e in events:
    st = [int(x, 16) for x in e.get("stack") or []]
    if st:
        idx = []
        for a in st:
            if a not in addr_idx:
                addr_idx[a] = len(names)
                names.append(None)
                bisect.insort(unres, a)
            idx.append(addr_idx[a])
        frames.append((e, idx))
    p, i, f = e["provider"], e["id"], e.get("fields") or {}
    if p in (RT, RD) and i == 144:
        resolve(f)
    elif p in (RT, RD) and i == 143 and f.get("MethodFlags", 0) & 8:
        jitted.append(f)
    elif (p == RT and i == 152) or (p == RD and i in (153, 154)):
        modules.setdefault(f["ModuleID"], f.get("ModuleILPath") or f.get("ModuleNativePath"))
for f in jitted:
    resolve(f)

def show(f):
    if f is None:
        return "[unknown]"
    sig = f["MethodSignature"]
    name = (f["MethodNamespace"] + "." if f["MethodNamespace"] else "") + f["MethodName"] + \
        (sig[sig.find("("):] if "(" in sig else "")
    mod = (modules.get(f["ModuleID"]) or "").rsplit("/", 1)[-1]
    if mod.lower().endswith((".dll", ".exe")):
        mod = mod[:-4]
    return "%s!%s" % (mod, name) if mod and not mod.startswith("[kernel") else name

out = collections.Counter()
for e, idx in frames:
    if e["event"] == sys.argv[2]:
        out[";".join(show(names[i]) for i in reversed(idx))] += 1
for k in sorted(out):
    print(k, out[k])
EOF
}

# count NAME: a number from the first line of $output (0 when absent)
count() {
	python3 -c 'import json,sys; print(json.loads(sys.argv[1].splitlines()[0]).get(sys.argv[2], 0))' \
		"$output" "$1"
}

# trace NAME ENV... -- REFRT-ARGS... ++ COLLECTOR-ARGS...
trace() {
	local name=$1 args=()
	shift
	while [[ $1 != ++ ]]; do
		args+=("$1")
		shift
	done
	shift
	refrt_bg "$name" "${args[@]}"
	run timeout 60 "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/$name.nettrace" "$@"
	assert_success
	COLLECT_OUT=$output
	"$EBPF_COLLECT" dump --json "$T/$name.nettrace" >"$T/$name.jsonl" || flunk "dump failed"
}

# assert_all_named NAME: the TraceEvent emulation names every frame, JIT
# frames exactly as the method table at the event's time, with the
# collector's events alone and with everything in the trace.
assert_all_named() {
	local name=$1 mode
	for mode in ONLY_OURS=1 ALL=1; do
		run env "$mode" python3 "$CHECK" \
			"$T/$name.jsonl" "$T/$name.json"
		assert_success
		echo "# $name $mode: ${lines[0]:0:300}" >&3
		[[ $(count mismatches) -eq 0 && $(count unnamed) -eq 0 ]] || flunk "$name ($mode): $output"
		(($(count jit_frames) > 0)) || flunk "$name ($mode): no JIT frame checked: $output"
		(($(count native_frames) > 0)) || flunk "$name ($mode): no native frame: $output"
	done
}

@test "jit-churn: JIT frames named as the runtime's method table at each event's time, reused ranges included" {
	trace churn -- --scenario jit-churn --iterations 200 --rate 400 --threads 2 --seed 7 \
		++ --providers DotNETRuntime,DotNETRuntimeRundown
	[[ $COLLECT_OUT == *"0 without a name"* ]] || flunk "$COLLECT_OUT"
	assert_all_named churn
	# ranges reused after an unload were really exercised, also at the very
	# same addresses, and the collector wrote DCEnds before reused ranges
	(($(count reused_range_frames) > 100)) || flunk "$output"
	(($(count addresses_in_several_incarnations) > 0)) || flunk "$output"
	[[ $COLLECT_OUT =~ \(([0-9]+)\ before\ a\ reused\ range\) ]] && ((BASH_REMATCH[1] > 0)) ||
		flunk "$COLLECT_OUT"
	# `ebpf-collect convert` names every stack as TraceEvent does
	"$EBPF_COLLECT" convert "$T/churn.nettrace" --format folded --event GCAllocationTick_V3 |
		LC_ALL=C sort >"$T/views.folded"
	python3 "$FOLD" "$T/churn.jsonl" GCAllocationTick_V3 | LC_ALL=C sort >"$T/te.folded"
	(($(wc -l <"$T/te.folded") > 50)) || flunk "only $(wc -l <"$T/te.folded") stacks"
	grep -q 'RefApp.Plugins.Plugin' "$T/te.folded" || flunk "no plug-in frame"
	diff "$T/te.folded" "$T/views.folded" >&2 || flunk "convert and TraceEvent disagree"
	# control: the same events at the end of the file name reused ranges wrong
	run env ONLY_OURS=1 DEFER_OURS=1 python3 "$CHECK" \
		"$T/churn.jsonl" "$T/churn.json"
	(($(count mismatches) > 0)) || flunk "control run found no mismatch: $output"
}

@test "mixed (re-JIT at tier 1, plug-in churn), perf maps on and off: every frame named right" {
	trace mixed -- --scenario mixed --iterations 200 --rate 400 --threads 2 --seed 7 \
		++ --providers DotNETRuntime,DotNETRuntimeRundown
	assert_all_named mixed
	# re-JIT'd methods: tier-0 and tier-1 versions of HotLoop both named
	python3 - "$T/mixed.json" <<'EOF' || flunk "no re-JIT in the method table"
import json, sys
s = json.load(open(sys.argv[1]))
assert any(m["rejit_of"] is not None for m in s["methods"])
EOF
	trace mixedpm DOTNET_PerfMapEnabled=1 -- --scenario mixed --iterations 200 --rate 400 \
		--threads 2 --seed 7 ++ --providers DotNETRuntime,DotNETRuntimeRundown
	[[ $(json_get "$T/mixedpm.json" '["perfmap"]["mode"]') == 1 ]] || flunk "perf map not on"
	assert_all_named mixedpm
}

@test "perf maps without the runtime's method events: JIT frames named from the perf map, reuse warned about" {
	trace pmonly DOTNET_PerfMapEnabled=3 -- --scenario jit-churn --iterations 200 --rate 400 \
		--threads 2 --seed 7 ++ --providers DotNETRuntime:0x1:5
	[[ $COLLECT_OUT == *"0 without a name"* ]] || flunk "$COLLECT_OUT"
	# perf maps have no unload records: the collector says so
	assert_output_contains "reuses"
	assert_output_contains "select the Jit keyword 0x10 for exact names"
	run env ALL=1 python3 "$CHECK" "$T/pmonly.jsonl" "$T/pmonly.json"
	assert_success
	echo "# pmonly: ${lines[0]:0:300}" >&3
	(($(count jit_frames) > 0)) || flunk "$output"
	[[ $(count unnamed) -eq 0 ]] || flunk "$output"
	# every JIT frame outside a reused range has the method table's name
	[[ $(count mismatches) -eq $(count mismatches_in_reused_ranges) ]] || flunk "$output"
}

@test "native frames: refrt's helpers and libc named as functions of their shared objects" {
	trace nat -- --scenario mixed --iterations 100 --rate 400 --threads 2 --seed 7 \
		++ --profile default
	assert_all_named nat
	run env ONLY_OURS=1 python3 "$CHECK" \
		"$T/nat.jsonl" "$T/nat.json"
	local want
	for want in 'libc.so.6!start_thread' 'refrt!worker_main' 'refrt!gc__alloc' \
		'refrt!rt_helper_tp_dequeue' 'refrt!clretw__fire_GCStart_V2' \
		'refrt!clretw__fire_ExceptionThrown_V1' 'refrt!rt_helper_throw'; do
		[[ ${lines[0]} == *"\"$want\""* ]] || flunk "no frame $want: ${lines[0]}"
	done
	# the trace's own views agree (convert names frames from the trace only)
	run "$EBPF_COLLECT" convert "$T/nat.nettrace" --format folded
	assert_success
	assert_output_contains "libc.so.6!start_thread;refrt!worker_main;System.Private.CoreLib!System.Threading.PortableThreadPool+WorkerThread.WorkerThreadStart()"
	assert_output_contains "RefApp!RefApp.Exceptions.Validate(int64);refrt!rt_helper_throw"
	[[ $output != *unknown* ]] || flunk "unknown frames: $(grep -m3 unknown <<<"$output")"
}

@test "a target that exits before the trace ends is fully named" {
	refrt_bg short -- --scenario jit-churn --iterations 60 --rate 400 --threads 2 --seed 3
	local short=$LAST_PID
	refrt_bg long -- --scenario cpu --iterations 600 --rate 400 --threads 1 --seed 4
	run timeout 60 "$EBPF_COLLECT" -p "$short" -p "$LAST_PID" -o "$T/two.nettrace" \
		--providers DotNETRuntime,DotNETRuntimeRundown
	assert_success
	"$EBPF_COLLECT" dump --json "$T/two.nettrace" >"$T/two.jsonl"
	# the short one exited well before the last event of the trace
	python3 - "$T/two.jsonl" "$T/short.json" <<'EOF' || flunk "short target did not exit early"
import json, sys
last = max(json.loads(l).get("timestamp", 0) for l in open(sys.argv[1]))
end = json.load(open(sys.argv[2]))["end_ns"]
assert last - end > 300e6, (last, end)
EOF
	for mode in ONLY_OURS=1 ALL=1; do
		run env "$mode" python3 "$CHECK" \
			"$T/two.jsonl" "$T/short.json" "$T/long.json"
		assert_success
		echo "# two $mode: ${lines[0]:0:300}" >&3
		[[ $(count mismatches) -eq 0 && $(count unnamed) -eq 0 ]] || flunk "$output"
		(($(count "jit_frames_pid$short") > 0)) || flunk "no JIT frame of the short one: $output"
		(($(count "jit_frames_pid$LAST_PID") > 0)) || flunk "no JIT frame of the long one: $output"
	done
}

@test "a command that runs for a millisecond is named (its mappings from perf MMAP2 records)" {
	local tp=$OUTPUT/tests/usdt_testprog
	# 10 events and exit: gone long before the collector's first look at
	# /proc/PID/maps (100 ms); only the kernel's records of its mappings are left
	run --separate-stderr "$EBPF_COLLECT" -o "$T/ms.nettrace" -- "$tp" -n 10
	assert_success
	python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["seconds"] < 0.05, d' \
		"$output" || flunk "ran too long: $output"
	[[ $stderr == *"symbols: 20 frames (0 JIT, 20 native, 0 kernel), 0 without a name"* ]] ||
		flunk "$stderr"
	run "$EBPF_COLLECT" convert "$T/ms.nettrace" --format folded
	assert_success
	assert_output "libc.so.6!start_thread;usdt_testprog!fire_gc_start 10"
}

@test "attached to a running runtime: frames before its start rundown are named too" {
	# no --wait-for-tracer: the methods exist before the collector, and the
	# start rundown (DCStart) comes only after refrt's 300 ms settle time
	"$REFRT" --scenario mixed --duration 3 --rate 300 --threads 2 --seed 5 \
		--summary "$T/late.json" >"$T/late.out" 2>&1 3>&- &
	BG_PIDS="$BG_PIDS $!"
	wait_for_exec "$!" "$REFRT" || flunk "refrt did not start: $(cat "$T/late.out")"
	sleep 0.5	# its methods exist before the collector (a rundown names them)
	run timeout 60 "$EBPF_COLLECT" -p "$!" -o "$T/late.nettrace"
	assert_success
	"$EBPF_COLLECT" dump --json "$T/late.nettrace" >"$T/late.jsonl"
	assert_all_named late
}

@test "kernel frames named from kallsyms (--cpu-sampling --kernel sched)" {
	trace ks -- --scenario mixed --iterations 200 --rate 400 --threads 2 --seed 7 \
		++ --cpu-sampling --kernel sched --kernel-stack
	run env KALLSYMS=1 python3 "$CHECK" "$T/ks.jsonl" "$T/ks.json"
	assert_success
	echo "# ks: ${lines[0]:0:300}" >&3
	# every kernel frame is the kallsyms symbol at its address, JIT frames
	# are exact; user frames without a name can only be the frame-pointer
	# walk's garbage past a libc function without frame pointers (exit paths)
	[[ $(count mismatches) -eq 0 ]] || flunk "$output"
	(($(count kernel_frames) > 1000)) || flunk "too few kernel frames: $output"
	(($(count jit_frames) > 0)) || flunk "no JIT frame: $output"
	(($(count unnamed) * 100 <= $(count native_frames))) || flunk "$output"
	[[ ${lines[0]} == *'"[kernel.kallsyms]!schedule"'* ]] || flunk "${lines[0]}"
}

@test "[vdso] frames are named (a target that spends its time in clock_gettime)" {
	# clock_gettime(CLOCK_MONOTONIC) runs in the vDSO, so most samples of
	# a 1.5 s loop at 999 Hz land there.  A C program with its symbols, not
	# a stripped interpreter: every frame of the trace can then be named,
	# which tests/traceevent.bats requires of each trace.
	cat >"$T/vdso_loop.c" <<'EOF'
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	double end = now() + 1.5;

	while (now() < end)
		;
	return 0;
}
EOF
	gcc -O1 -fno-omit-frame-pointer -fno-inline -o "$T/vdso_loop" "$T/vdso_loop.c" ||
		flunk "cannot build the vDSO loop"
	run timeout 60 "$EBPF_COLLECT" -o "$T/vdso.nettrace" --cpu-sampling --kernel none \
		-- "$T/vdso_loop"
	assert_success
	run "$EBPF_COLLECT" convert "$T/vdso.nettrace" --format folded
	assert_success
	local n
	n=$(grep -c '\[vdso\]!__vdso_clock_gettime' <<<"$output") || true
	((n > 0)) || flunk "no named [vdso] frame in: ${output:0:2000}"
	# no vDSO frame goes unnamed
	! grep -q '\[vdso\]!\[unknown\]' <<<"$output" || flunk "unnamed [vdso] frame"
}
