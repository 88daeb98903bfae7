#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The symbolizer from outside a container: a process in its own pid+mount
# namespace with a private /tmp writes its perf map there; the symbolizer
# finds it through /proc/PID/root with the pid the process sees, and refuses
# a symlink or a foreign-owned file planted at that path.

load test_helper

SYMTOOL=$OUTPUT/tests/symtool

# A JIT-like process: an anonymous r-x mapping plus a perf-map line for it.
# argv[1]: map | symlink | owner.  Prints "NSPID ADDR" (ADDR inside the entry).
JITLIKE='
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
addr = libc.mmap(None, 65536, 5, 0x22, -1, 0)   # PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_ANONYMOUS
mode = sys.argv[1]
pid = os.getpid()
d = os.environ.get("DOTNET_PerfMapJitDumpPath", "/tmp")
os.makedirs(d, exist_ok=True)
path = "%s/perf-%d.map" % (d, pid)
line = "%016X 80 void [Ns] Ns.Jitted::Method(int32)[OptimizedTier1]\n" % (addr + 0x40)
if mode == "symlink":
    with open("/tmp/decoy", "w") as f:
        f.write(line)
    os.symlink("/tmp/decoy", path)
else:
    with open(path, "w") as f:
        f.write(line)
    if mode == "owner":
        os.chown(path, 4242, 4242)
print(pid, hex(addr + 0x41), flush=True)
time.sleep(120)
'

setup() {
	[[ -x $SYMTOOL ]] || flunk "needs $SYMTOOL (make)"
	UNSHARE_PID=
	TARGET=
}

teardown() {
	[[ -n $TARGET ]] && kill "$TARGET" 2>/dev/null
	[[ -n $UNSHARE_PID ]] && kill "$UNSHARE_PID" 2>/dev/null
	true
}

# start_in_ns MODE [ENV=VAL...]: sets UNSHARE_PID, TARGET (host pid), NSPID, ADDR
start_in_ns() {
	local mode=$1 out=$BATS_TEST_TMPDIR/ns.out i
	shift
	require_root
	require_cmd unshare python3
	env "$@" unshare --pid --fork --mount-proc --mount \
		sh -c 'mount -t tmpfs tmpfs /tmp && exec python3 -c "$1" "$2"' sh "$JITLIKE" "$mode" \
		>"$out" 2>"$BATS_TEST_TMPDIR/ns.err" 3>&- &
	UNSHARE_PID=$!
	wait_for_file "$out" 10 || flunk "namespaced process did not start: $(cat "$BATS_TEST_TMPDIR/ns.err")"
	read -r NSPID ADDR <"$out"
	for ((i = 0; i < 50; i++)); do
		TARGET=$(ps -o pid= --ppid "$UNSHARE_PID" | tr -d ' ')
		[[ -n $TARGET ]] && break
		sleep 0.1
	done
	[[ -n $TARGET ]] || flunk "no child of unshare"
}

@test "finds the perf map of a process in another pid+mount namespace (private /tmp)" {
	: >"$BATS_TEST_TMPDIR/start"
	start_in_ns map
	[[ $NSPID != "$TARGET" ]] || flunk "pid is not namespaced ($NSPID)"
	[[ $(awk '/^NSpid:/ {print $NF}' /proc/$TARGET/status) == "$NSPID" ]]
	# the map exists only inside: not in our /tmp
	[[ -e /proc/$TARGET/root/tmp/perf-$NSPID.map ]]
	# (a map a dead process of the same pid left there is older)
	[[ ! /tmp/perf-$TARGET.map -nt $BATS_TEST_TMPDIR/start ]]
	run -0 "$SYMTOOL" -p "$TARGET" "$ADDR"
	assert_output "$ADDR jit void [Ns] Ns.Jitted::Method(int32)[OptimizedTier1] /proc/$TARGET/root/tmp/perf-$NSPID.map"
}

@test "refrt in a pid+mount namespace (private /tmp): its perf map is found and read" {
	local i map line start name
	[[ -x $REFRT ]] || flunk "needs $REFRT"
	require_root
	require_cmd unshare
	DOTNET_PerfMapEnabled=3 unshare --pid --fork --mount-proc --mount \
		sh -c 'mount -t tmpfs tmpfs /tmp && exec "$1" --scenario cpu --duration 20 --threads 1' \
		sh "$REFRT" >/dev/null 2>"$BATS_TEST_TMPDIR/refrt.err" 3>&- &
	UNSHARE_PID=$!
	for ((i = 0; i < 100; i++)); do
		TARGET=$(ps -o pid= --ppid "$UNSHARE_PID" | tr -d ' ')
		[[ -n $TARGET ]] && NSPID=$(awk '/^NSpid:/ {print $NF}' "/proc/$TARGET/status" 2>/dev/null)
		map=/proc/$TARGET/root/tmp/perf-$NSPID.map
		[[ -n $TARGET && -s $map ]] && break
		sleep 0.1
	done
	[[ -s $map ]] || flunk "no perf map inside the namespace: $(cat "$BATS_TEST_TMPDIR/refrt.err")"
	[[ $NSPID != "$TARGET" ]] || flunk "pid is not namespaced"
	[[ ! -e /tmp/perf-$TARGET.map ]]
	line=$(head -1 "$map")
	start=0x${line%% *}
	name=${line#* }
	name=${name#* }
	run -0 "$SYMTOOL" -p "$TARGET" "$(printf '%#x' $((start + 1)))"
	assert_output "$(printf '%#x' $((start + 1))) jit $name $map"
}

@test "honours DOTNET_PerfMapJitDumpPath inside the namespace" {
	start_in_ns map DOTNET_PerfMapJitDumpPath=/tmp/jitmaps
	[[ -e /proc/$TARGET/root/tmp/jitmaps/perf-$NSPID.map ]]
	run -0 "$SYMTOOL" -p "$TARGET" "$ADDR"
	assert_output "$ADDR jit void [Ns] Ns.Jitted::Method(int32)[OptimizedTier1] /proc/$TARGET/root/tmp/jitmaps/perf-$NSPID.map"
}

@test "a symlink planted at /tmp/perf-PID.map is refused with a warning" {
	start_in_ns symlink
	[[ -L /proc/$TARGET/root/tmp/perf-$NSPID.map ]]
	# the file it points to would name the address: it must not be read
	grep -q 'Ns.Jitted::Method' "/proc/$TARGET/root/tmp/decoy"
	run -1 --separate-stderr "$SYMTOOL" -p "$TARGET" "$ADDR"
	assert_equal "$output" "$ADDR jit [unknown]"
	assert_equal "$stderr" "symbolizer: perf map /proc/$TARGET/root/tmp/perf-$NSPID.map is a symbolic link (refused, O_NOFOLLOW); skipped
symbolize: 1 perf map(s) refused or unreadable"
}

@test "a perf map owned by another user is refused with a warning" {
	start_in_ns owner
	[[ $(stat -c %u "/proc/$TARGET/root/tmp/perf-$NSPID.map") == 4242 ]]
	run -1 --separate-stderr "$SYMTOOL" -p "$TARGET" "$ADDR"
	assert_equal "$output" "$ADDR jit [unknown]"
	assert_equal "$stderr" "symbolizer: perf map /proc/$TARGET/root/tmp/perf-$NSPID.map is owned by uid 4242, not by the target's uid 0 or root (refused); skipped
symbolize: 1 perf map(s) refused or unreadable"
}

@test "names native and kernel frames of a live process" {
	local addr kaddr kname
	require_root
	sleep 30 3>&- &
	TARGET=$!
	# the child runs the shell (whose libc is elsewhere) until it execs
	# sleep: wait for the exec, then for the loader to map sleep's libc
	wait_for_exec "$TARGET" "$(command -v sleep)" || flunk "sleep did not start"
	for _ in $(seq 100); do
		addr=$(awk '$2 ~ /x/ && $6 ~ /libc\.so/ {split($1, a, "-"); print a[1]; exit}' \
			/proc/$TARGET/maps)
		[[ -n $addr ]] && break
		sleep 0.05
	done
	[[ -n $addr ]] || flunk "sleep does not map libc"
	read -r kaddr _ kname < <(awk '$2 == "T" && $3 == "schedule" {print $1, $2, $3; exit}' /proc/kallsyms)
	[[ -n $kaddr && $kaddr != 0000000000000000 ]] || skip "kallsyms addresses are hidden"
	run "$SYMTOOL" -p "$TARGET" "0x$kaddr"
	assert_output "0x$kaddr kernel schedule [kernel.kallsyms]"
	# a libc text address resolves to some libc function
	run "$SYMTOOL" -p "$TARGET" "$(printf '%#x' $((0x$addr + 0x1000)))"
	[[ $output == *" native libc.so.6!"* ]] || flunk "not named in libc: $output"
}

# ------------------------------------------------------------------ views

TESTDATA=$SHARED/testdata/nettrace/perfview

synthetic() {
	[[ -x $OUTPUT/tests/test_views ]] || flunk "needs $OUTPUT/tests/test_views (make)"
	SYN=$BATS_TEST_TMPDIR/synthetic.nettrace
	run -0 "$OUTPUT/tests/test_views" --write-trace "$SYN"
}

@test "speedscope output of a synthetic trace validates against the file-format schema" {
	synthetic
	run -0 "$SYMTOOL" convert "$SYN" --format speedscope -o "$BATS_TEST_TMPDIR/s.json"
	run -0 python3 "$ROOT/tests/check_speedscope.py" "$BATS_TEST_TMPDIR/s.json"
	assert_output "valid: 2 profiles, 8 frames, 8 samples"
	# JIT, native and kernel frames, each with its file
	run -0 python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for f in d["shared"]["frames"]:
    print(f["name"], "|", f.get("file", "-"))' "$BATS_TEST_TMPDIR/s.json"
	assert_line "App!App.Program.Work(int32) | /app/App.dll"
	assert_line "libc.so.6!qsort | /usr/lib/x86_64-linux-gnu/libc.so.6"
	assert_line "schedule | [kernel.kallsyms]"
	assert_line "Lib!Lib.Helper.Run(int32) | Lib"
	assert_line "[unknown] | -"
}

@test "the speedscope checker rejects a file that breaks the schema" {
	synthetic
	"$SYMTOOL" convert "$SYN" --format speedscope -o "$BATS_TEST_TMPDIR/s.json"
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); del d["profiles"][0]["weights"]
json.dump(d, open(sys.argv[2], "w"))' "$BATS_TEST_TMPDIR/s.json" "$BATS_TEST_TMPDIR/bad.json"
	run -1 python3 "$ROOT/tests/check_speedscope.py" "$BATS_TEST_TMPDIR/bad.json"
	assert_output_contains "invalid: 'weights' is a required property"
}

@test "flame graph SVG of a synthetic trace is well-formed XML with titled rects" {
	synthetic
	run -0 "$SYMTOOL" convert "$SYN" --format flamegraph -o "$BATS_TEST_TMPDIR/f.svg"
	run -0 python3 -c 'import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
svg = d.documentElement
print(svg.tagName, svg.getAttribute("width"))
for g in d.getElementsByTagName("g"):
    print(g.getElementsByTagName("title")[0].firstChild.data, g.getElementsByTagName("rect")[0].getAttribute("fill")[:4])' \
		"$BATS_TEST_TMPDIR/f.svg"
	assert_line "svg 1200"
	assert_line "App!App.Program.Main(string[]) (8 samples, 100.00%) rgb("
	assert_line "App!App.Program.Work(int32) (4 samples, 50.00%) rgb("
	assert_line "schedule (1 samples, 12.50%) rgb("
	[[ ${#lines[@]} -eq 10 ]] || flunk "expected 9 frames: $output"
}

@test "views of a real .NET trace (only_managed_samples): folded, report, speedscope, SVG" {
	local t=$TESTDATA/only_managed_samples.nettrace
	[[ -r $t ]] || flunk "needs $t"
	run -0 "$SYMTOOL" convert "$t" --format folded
	assert_output "NoNativeStacks!NoNativeStacks.Program.Main(string[]);NoNativeStacks!NoNativeStacks.Program.Test(int32);NoNativeStacks!NoNativeStacks.Program.InnerLoop(int32&,System.Numerics.Vector\`1<unsigned int8>&) 2419
NoNativeStacks!NoNativeStacks.Program.Main(string[]);NoNativeStacks!NoNativeStacks.Program.Test(int32);NoNativeStacks!NoNativeStacks.Program.InnerLoop(int32&,System.Numerics.Vector\`1<unsigned int8>&);NoNativeStacks!NoNativeStacks.Program.FindByte(System.Numerics.Vector\`1<unsigned int8>&) 5004"
	run -0 "$SYMTOOL" report "$t"
	assert_line "Top methods by CPU samples (7423 samples: 7423 managed, 0 external)"
	assert_line "    5004  67.4%     5004  67.4%  ..eStacks!NoNativeStacks.Program.FindByte(..)"
	assert_line "    7423     1517.419       10.102        0.204"
	local l
	for l in "${lines[@]}"; do
		(( ${#l} < 80 )) || flunk "line of ${#l} columns: $l"
	done
	run -0 "$SYMTOOL" convert "$t" --format speedscope -o "$BATS_TEST_TMPDIR/s.json"
	run -0 python3 "$ROOT/tests/check_speedscope.py" "$BATS_TEST_TMPDIR/s.json"
	assert_output "valid: 1 profiles, 4 frames, 7423 samples"
	run -0 "$SYMTOOL" convert "$t" --format flamegraph -o "$BATS_TEST_TMPDIR/f.svg"
	run -0 python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$BATS_TEST_TMPDIR/f.svg"
}

@test "views of a real trace with external samples (mixed_managed_external_samples)" {
	local t=$TESTDATA/mixed_managed_external_samples.nettrace
	[[ -r $t ]] || flunk "needs $t"
	run -0 "$SYMTOOL" report "$t"
	assert_line "Top methods by CPU samples (6331 samples: 3904 managed, 2427 external)"
	run -0 "$SYMTOOL" convert "$t" --format folded
	[[ $(awk '{s += $NF} END {print NR, s}' <<<"$output") == "7 6331" ]] || flunk "$output"
	run -0 "$SYMTOOL" convert "$t" --format speedscope -o "$BATS_TEST_TMPDIR/s.json"
	run -0 python3 "$ROOT/tests/check_speedscope.py" "$BATS_TEST_TMPDIR/s.json"
	assert_output "valid: 1 profiles, 14 frames, 6331 samples"
}

@test "convert on a truncated trace converts what was read and exits 1" {
	local t=$SHARED/testdata/nettrace/dotnet-diagnostics/dotnetcore3.0-preview-win-x64-truncated.nettrace
	[[ -r $t ]] || flunk "needs $t"
	run -1 --separate-stderr "$SYMTOOL" convert "$t" --format speedscope -o "$BATS_TEST_TMPDIR/s.json"
	[[ $stderr == *"is damaged (offset 4170673:"* ]] || flunk "stderr: $stderr"
	run -0 python3 "$ROOT/tests/check_speedscope.py" "$BATS_TEST_TMPDIR/s.json"
}

@test "ebpf-collect report and convert" {
	[[ -x $EBPF_COLLECT ]] || flunk "needs $EBPF_COLLECT"
	synthetic
	run -0 "$EBPF_COLLECT" convert "$SYN" --format folded
	[[ $output == *"App!App.Program.Main(string[]);App!App.Program.Work(int32) 3"* ]] ||
		flunk "convert output: $output"
	run -0 "$EBPF_COLLECT" report "$SYN"
	assert_line "Top methods by CPU samples (8 samples: 8 managed, 0 external)"
}

@test "refrt jit-churn: every code version is named at its time (perf map + unload events; method events)" {
	[[ -x $REFRT ]] || flunk "needs $REFRT"
	local d=$BATS_TEST_TMPDIR pid
	DOTNET_PerfMapEnabled=3 DOTNET_PerfMapJitDumpPath=$d \
		run -0 "$REFRT" --scenario jit-churn --duration 1 --seed 7 -o "$d/s.json"
	pid=$(json_get "$d/s.json" '["pid"]')
	[[ -s $d/perf-$pid.map ]] || flunk "refrt wrote no perf map"
	# queries ADDR@TS (middle of each code version, in the middle of its
	# life), method events as symtool reads them, and what to expect
	run -0 python3 - "$d" <<'PY'
import json, os, sys
d = sys.argv[1]
ms = json.load(open(os.path.join(d, "s.json")))["methods"]
ev = []
with open(os.path.join(d, "unloads.ev"), "w") as u:
    for m in ms:
        ev.append((m["load_ns"], 0, "load %s %d %d %s" % (m["start"], m["size"], m["load_ns"], m["perfmap_name"])))
        if m["unload_ns"] is not None:
            line = "unload %s %d %d %s" % (m["start"], m["size"], m["unload_ns"], m["perfmap_name"])
            ev.append((m["unload_ns"], 1, line))
            u.write(line + "\n")
with open(os.path.join(d, "all.ev"), "w") as a:
    for e in sorted(ev, key=lambda e: (e[0], e[1])):
        a.write(e[2] + "\n")
import bisect
by_start = sorted((int(o["start"], 16), j) for j, o in enumerate(ms))
keys = [b[0] for b in by_start]
maxsize = max(o["size"] for o in ms)
stale = 0
with open(os.path.join(d, "q"), "w") as q, open(os.path.join(d, "q0"), "w") as q0, \
     open(os.path.join(d, "expect"), "w") as x:
    for i, m in enumerate(ms):
        start, size = int(m["start"], 16), m["size"]
        addr = start + size // 2
        t = m["load_ns"] + ((m["unload_ns"] - m["load_ns"]) // 2 if m["unload_ns"] is not None else 1)
        q.write("%#x@%d\n" % (addr, t))
        q0.write("%#x\n" % addr)
        x.write("%#x jit %s\n" % (addr, m["perfmap_name"]))
        # without time, the newest line covering addr wins
        lo = bisect.bisect_left(keys, addr - maxsize)
        hi = bisect.bisect_right(keys, addr)
        newest = max(j for st, j in by_start[lo:hi] if addr < st + ms[j]["size"])
        stale += newest != i
reused = len(ms) - len({m["start"] for m in ms})
print(len(ms), sum(m["unload_ns"] is not None for m in ms), reused,
      sum(m["rejit_of"] is not None for m in ms), stale)
PY
	local n unloaded reused rejit stale
	read -r n unloaded reused rejit stale <<<"$output"
	echo "# $n code versions, $unloaded unloaded, $reused at a reused start, $rejit re-JITs" >&3
	(( n > 1000 && reused > 100 && rejit > 0 )) || flunk "not enough churn: $output"
	compare() {	# compare OUT [EXPECT]: lines "ADDR jit NAME[ MODULE]" against expect
		python3 - "${2:-$d/expect}" "$1" <<'PY'
import sys
want = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
bad = sum(1 for w, g in zip(want, got) if not (g == w or g.startswith(w + " ")))
print(len(got), bad + abs(len(want) - len(got)))
PY
	}
	# perf map + unload events, offline (the collector's case)
	"$SYMTOOL" --perf-map "$d/perf-$pid.map" --events "$d/unloads.ev" <"$d/q" >"$d/out1" ||
		flunk "symtool failed"
	run -0 compare "$d/out1"
	assert_output "$n 0"
	# the same in time order with the horizon moving along (--in-order)
	paste -d'|' "$d/q" "$d/expect" | sort -t@ -k2,2n >"$d/pairs"
	cut -d'|' -f1 "$d/pairs" >"$d/qs"
	cut -d'|' -f2- "$d/pairs" >"$d/xs"
	"$SYMTOOL" --in-order --perf-map "$d/perf-$pid.map" --events "$d/unloads.ev" \
		<"$d/qs" >"$d/out1s" || flunk "symtool --in-order failed"
	run -0 compare "$d/out1s" "$d/xs"
	assert_output "$n 0"
	# method events only (perf maps off)
	"$SYMTOOL" --no-perf-map --events "$d/all.ev" <"$d/q" >"$d/out2" || flunk "symtool failed"
	run -0 compare "$d/out2"
	assert_output "$n 0"
	# the perf map alone, without time: newest line wins, as perf does; the
	# versions whose range was later reused are named after the reuser
	"$SYMTOOL" --perf-map "$d/perf-$pid.map" <"$d/q0" >"$d/out3"
	run -0 compare "$d/out3"
	assert_output "$n $stale"
	(( stale > 0 ))
}
