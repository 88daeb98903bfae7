#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# --usdt: any USDT provider into the trace, on runtimes nobody here
# wrote -- Debian's own /usr/bin/python3.11, PostgreSQL 15 and OpenJDK 17
# (scripts/setup.sh installs them).  Each test starts its own target, traces
# it with `ebpf-collect --usdt ...`, reads the file back with
# `ebpf-collect dump --json` and checks exact counts and decoded strings.
#
# Tags: root (BPF attach).

load test_helper

PY=/usr/bin/python3.11
PGBIN=/usr/lib/postgresql/15/bin
JVM=/usr/lib/jvm/java-17-openjdk-amd64
LIBJVM=$JVM/lib/server/libjvm.so

setup_file() {
	export BATS_TEST_TIMEOUT=90
}

setup() {
	require_root
	require_btf
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	T=$BATS_TEST_TMPDIR
}

teardown() {
	kill_bg
	if [[ -n ${PGDIR:-} ]]; then
		runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop \
			>/dev/null 2>&1 || true
		rm -rf "$PGDIR"
	fi
}

bg_log() {	# bg_log LOG CMD...: bg, with stdout and stderr in one LOG
	local log=$1
	shift
	"$@" >"$log" 2>&1 3>&- &
	BG_PIDS="${BG_PIDS:-} $!"
	LAST_PID=$!
}

# events TRACE PYEXPR: dump TRACE and print PYEXPR evaluated over `ev`, the
# list of its events (dicts with provider, event, tid, fields, ...) in
# timestamp order, without the collector's own LossSummary.
events() {
	"$EBPF_COLLECT" dump --json "$1" >"$1.jsonl" || return 1
	python3 - "$1.jsonl" "$2" <<'EOF'
import json, sys
ev = [o for o in map(json.loads, open(sys.argv[1]))
      if o.get("type") == "event" and o["provider"] != "ebpf-collect"]
ev.sort(key=lambda e: e["timestamp"])
print(eval(sys.argv[2]))
EOF
}

@test "usdt: -l lists a binary's probes with argument specs, semaphores and table fields" {
	[[ -x $PY ]] || flunk "needs Debian's $PY"
	run -0 "$EBPF_COLLECT" -l "$PY"
	local n
	n=$(readelf -n "$PY" | grep -c 'Provider: python')
	[[ $(grep -c '^python ' <<<"$output") -eq $n ]] ||
		flunk "expected $n python probes (readelf -n)" $'\n'"$output"
	# the note's own address, semaphore and argument spec, then our fields
	local loc sem
	loc=$(readelf -n "$PY" | grep -A2 'Name: function__entry$' | sed -n 's/.*Location: 0x0*\([0-9a-f]*\),.*/\1/p')
	sem=$(readelf -n "$PY" | grep -A2 'Name: function__entry$' | sed -n 's/.*Semaphore: 0x0*\([0-9a-f]*\)$/\1/p')
	[[ $sem != "" ]] || flunk "readelf: no semaphore for function__entry"
	assert_output_contains "function__entry"
	grep -E "^python +function__entry +0x$loc +0x$sem +$PY  8@%rbp 8@%r12 -4@%eax  \{filename:str funcname:str lineno:int\}$" <<<"$output" ||
		flunk "function__entry line" $'\n'"$output"
}

@test "usdt: bad --usdt specs are usage errors; a provider the target lacks exits 3" {
	[[ -x $PY ]] || flunk "needs Debian's $PY"
	run -64 "$EBPF_COLLECT" -p $$ --usdt 'python:x:12=int' -o "$T/x.nettrace"
	assert_output_contains "out of range (0..11, 0-based)"
	run -64 "$EBPF_COLLECT" -p $$ --usdt 'python:x:0=float' -o "$T/x.nettrace"
	assert_output_contains "unknown type"
	bg_log "$T/py.log" "$PY" -c 'import time; time.sleep(30)'
	run -3 "$EBPF_COLLECT" -p "$LAST_PID" --usdt nosuchprovider -o "$T/x.nettrace" -d 1
	assert_output_contains "no USDT probes matching --usdt in pid $LAST_PID"
	[[ ! -e $T/x.nettrace ]] || flunk "left an output file behind"
}

# A script that waits for $2 (so the collector can attach to a running
# process), then makes calls the test counts.  CPython 3.11 fires
# function__entry only when a frame is entered to throw into it
# (generator.close() / throw()): plain calls lost their entry probe in 3.11
# (python/cpython#98894).  function__return fires on every return and yield.
write_py_script() {
	cat >"$1" <<'EOF'
import gc, os, sys, time
gc.disable()
class Node:
    pass
def known_func(x):
    return x * 2
def known_gen(n):
    for i in range(n):
        yield i
open(sys.argv[1] + ".ready", "w").write("ready")
while not os.path.exists(sys.argv[2]):
    time.sleep(0.01)
for i in range(7):
    known_func(i)
for i in range(4):
    g = known_gen(10)
    next(g)
    g.close()
collected = []
for i in range(3):
    for j in range(i + 1):      # i + 1 two-node cycles of garbage
        a, b = Node(), Node()
        a.other, b.other = b, a
        del a, b
    collected.append(gc.collect())
def done_marker():
    return 0
done_marker()
open(sys.argv[1] + ".collected", "w").write(" ".join(map(str, collected)))
EOF
}

@test "usdt: python3.11 -p PID: function names, file names, gc.collect() counts" {
	[[ -x $PY ]] || flunk "needs Debian's $PY"
	local script=$T/calls.py
	write_py_script "$script"
	bg_log "$T/py.log" "$PY" "$script" "$script" "$T/go"
	local pypid=$LAST_PID
	wait_for_file "$script.ready" 20 || flunk "python did not start: $(cat "$T/py.log")"
	bg_log "$T/collect.log" "$EBPF_COLLECT" -p "$pypid" -o "$T/py.nettrace" \
		--usdt 'python:function__*' --usdt 'python:gc__*'
	local cpid=$LAST_PID
	wait_for_grep "Ctrl-C to stop" "$T/collect.log" 20 || flunk "$(cat "$T/collect.log")"
	touch "$T/go"
	wait "$pypid"
	wait "$cpid" || flunk "collector failed: $(cat "$T/collect.log")"
	grep -q "attached 4 of 4 --usdt probes in $PY" "$T/collect.log" || flunk "$(cat "$T/collect.log")"
	grep -q "dropped 0 (ring buffer full 0, preempted 0)" "$T/collect.log" ||
		flunk "$(cat "$T/collect.log")"

	run -0 events "$T/py.nettrace" "sum(1 for e in ev if e['event'] == 'function__return' and e['fields'] == {'filename': '$script', 'funcname': 'known_func', 'lineno': 6})"
	assert_output 7
	run -0 events "$T/py.nettrace" "sum(1 for e in ev if e['event'] == 'function__entry' and e['fields']['funcname'] == 'known_gen' and e['fields']['filename'] == '$script')"
	assert_output 4
	# every event is typed by the built-in table
	run -0 events "$T/py.nettrace" "sorted(set((e['provider'], e['event'], tuple(e['fields'])) for e in ev))"
	assert_output "[('python', 'function__entry', ('filename', 'funcname', 'lineno')), ('python', 'function__return', ('filename', 'funcname', 'lineno')), ('python', 'gc__done', ('collected',)), ('python', 'gc__start', ('generation',))]"
	# gc.collect() x3 with gc disabled: exactly 3 full collections between
	# the first call and done_marker(), with the numbers gc.collect()
	# returned (the interpreter collects again while it shuts down)
	local window="[e for e in ev if [x['timestamp'] for x in ev if x['fields'].get('funcname') == 'known_func'][0] < e['timestamp'] < [x['timestamp'] for x in ev if x['fields'].get('funcname') == 'done_marker'][0]]"
	run -0 events "$T/py.nettrace" "[e['fields']['generation'] for e in $window if e['event'] == 'gc__start']"
	assert_output "[2, 2, 2]"
	run -0 events "$T/py.nettrace" "' '.join(str(e['fields']['collected']) for e in $window if e['event'] == 'gc__done')"
	assert_output "$(cat "$script.collected")"
	run -0 events "$T/py.nettrace" "all(e['tid'] == $pypid for e in ev)"
	assert_output True
}

@test "usdt: python3.11 -- CMD: semaphore-guarded probes from the first instruction" {
	[[ -x $PY ]] || flunk "needs Debian's $PY"
	mkdir "$T/mods"
	echo 'def hello(): return 1' >"$T/mods/ug_probe_mod.py"
	cat >"$T/main.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import ug_probe_mod
for i in range(5):
    ug_probe_mod.hello()
EOF
	run -0 "$EBPF_COLLECT" -o "$T/cmd.nettrace" --usdt 'python:import__find__load__*' \
		--usdt python:function__return -- "$PY" "$T/main.py" "$T/mods"
	assert_output_contains "attached 3 of 3 --usdt probes in $PY"
	# the interpreter's own startup imports are there (before main.py's
	# first line: the semaphores were up from the first instruction), then
	# our module, found
	run -0 events "$T/cmd.nettrace" "[m for m in ('encodings', 'site', 'ug_probe_mod') if m in [e['fields']['module'] for e in ev if e['event'] == 'import__find__load__start']]"
	assert_output "['encodings', 'site', 'ug_probe_mod']"
	run -0 events "$T/cmd.nettrace" "[e['fields'] for e in ev if e['event'] == 'import__find__load__done' and e['fields']['module'] == 'ug_probe_mod']"
	assert_output "[{'module': 'ug_probe_mod', 'found': 1}]"
	run -0 events "$T/cmd.nettrace" "sum(1 for e in ev if e['event'] == 'function__return' and e['fields'] == {'filename': '$T/mods/ug_probe_mod.py', 'funcname': 'hello', 'lineno': 1})"
	assert_output 5
}

@test "usdt: PostgreSQL 15: query__start carries each query's text" {
	[[ -x $PGBIN/postgres ]] || flunk "needs postgresql-15 ($PGBIN)"
	id postgres >/dev/null 2>&1 || flunk "needs the postgres user"
	# a private cluster on a unix socket only (no TCP), owned by postgres
	PGDIR=$(mktemp -d /tmp/ebpf-collect-pg.XXXXXX)
	chown postgres "$PGDIR"
	runuser -u postgres -- "$PGBIN/initdb" -D "$PGDIR/data" -A trust -U postgres --no-sync \
		>"$T/initdb.log" 2>&1 || flunk "initdb: $(cat "$T/initdb.log")"
	runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDIR/data" -w -l "$PGDIR/log" \
		-o "-k $PGDIR -c listen_addresses= -c fsync=off -c autovacuum=off" start \
		>"$T/pg_ctl.log" 2>&1 3>&- || flunk "pg_ctl: $(cat "$T/pg_ctl.log" "$PGDIR/log")"
	local pm
	pm=$(head -1 "$PGDIR/data/postmaster.pid")

	# backends are forked per connection: --usdt-children follows them
	bg_log "$T/collect.log" "$EBPF_COLLECT" -p "$pm" -o "$T/pg.nettrace" --usdt-children \
		--usdt 'postgresql:query__start' --usdt 'postgresql:transaction__commit'
	local cpid=$LAST_PID
	wait_for_grep "Ctrl-C to stop" "$T/collect.log" 20 || flunk "$(cat "$T/collect.log")"
	local queries=("SELECT 'ebpf-collect marker one'" "select 6 * 7 as ug_answer"
		       "CREATE TABLE ug_t (id int, note text)"
		       $'INSERT INTO ug_t VALUES (1, \'h\u00e9llo\'), (2, \'w\u00f6rld \U0001F600\')'
		       "SELECT count(*) FROM ug_t WHERE note LIKE '%l%'")
	local q
	for q in "${queries[@]}"; do
		runuser -u postgres -- "$PGBIN/psql" -X -h "$PGDIR" -U postgres -Atq \
			-v ON_ERROR_STOP=1 -c "$q" >>"$T/psql.log" 2>&1 || flunk "psql: $(cat "$T/psql.log")"
	done
	sleep 0.3
	kill -INT "$cpid"
	wait "$cpid" || flunk "collector failed: $(cat "$T/collect.log")"
	grep -q "attached 2 of 2 --usdt probes in $PGBIN/postgres" "$T/collect.log" ||
		flunk "$(cat "$T/collect.log")"
	local expect
	expect=$(printf '%s\n' "${queries[@]}" | python3 -c 'import sys; print([l.rstrip("\n") for l in sys.stdin])')
	run -0 events "$T/pg.nettrace" "[e['fields']['query'] for e in ev if e['event'] == 'query__start']"
	assert_output "$expect"
	# each query ran in its own backend, a child of the postmaster
	run -0 events "$T/pg.nettrace" "len(set(e['tid'] for e in ev if e['event'] == 'query__start'))"
	assert_output 5
}

@test "usdt: OpenJDK 17 -- CMD: hotspot gc__begin/gc__end around each System.gc() (libjvm.so)" {
	[[ -x $JVM/bin/javac && -r $LIBJVM ]] || flunk "needs openjdk-17-jdk-headless ($JVM)"
	mkdir "$T/j"
	cat >"$T/j/GcLoop.java" <<'EOF'
public class GcLoop {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        for (int i = 0; i < n; i++) {
            byte[] junk = new byte[1 << 20];
            System.gc();
        }
        System.out.println("gc " + n);
    }
}
EOF
	"$JVM/bin/javac" -d "$T/j" "$T/j/GcLoop.java"
	# libjvm.so is dlopen()ed by the launcher: --lib attaches it before it
	# is mapped, so nothing from the JVM's start is missed
	run -0 "$EBPF_COLLECT" -o "$T/j.nettrace" --lib "$LIBJVM" \
		--usdt 'hotspot:gc__*' --usdt hotspot:thread__start -- \
		"$JVM/bin/java" -Xshare:auto -Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
		-cp "$T/j" GcLoop 6
	assert_output_contains "gc 6"
	assert_output_contains "attached 3 of 3 --usdt probes in $LIBJVM"
	run -0 events "$T/j.nettrace" "[(e['event'], e['fields']) for e in ev if e['event'].startswith('gc__')]"
	assert_output "$(python3 -c "print([('gc__begin', {'is_full': 1}), ('gc__end', {})] * 6)")"
	# counted (char *, length) strings: HotSpot's own thread names
	run -0 events "$T/j.nettrace" "sorted(e['fields']['thread_name'] for e in ev if e['event'] == 'thread__start' and e['fields']['thread_name'] in ('Reference Handler', 'Finalizer', 'Signal Dispatcher'))"
	assert_output "['Finalizer', 'Reference Handler', 'Signal Dispatcher']"
	run -0 events "$T/j.nettrace" "all(len(e['fields']['thread_name']) == e['fields']['thread_name_len'] for e in ev if e['event'] == 'thread__start')"
	assert_output True
}

@test "usdt: -l -p lists hotspot probes of a running JVM's libjvm.so" {
	[[ -x $JVM/bin/java && -r $LIBJVM ]] || flunk "needs openjdk-17-jdk-headless ($JVM)"
	mkdir "$T/j"
	cat >"$T/j/Sleep.java" <<'EOF'
public class Sleep {
    public static void main(String[] a) throws Exception {
        new java.io.File(a[0]).createNewFile();
        Thread.sleep(30000);
    }
}
EOF
	"$JVM/bin/javac" -d "$T/j" "$T/j/Sleep.java"
	bg_log "$T/jvm.log" "$JVM/bin/java" -Xshare:auto -Xmx32m -cp "$T/j" Sleep "$T/ready"
	wait_for_file "$T/ready" 20 || true
	[[ -e $T/ready ]] || flunk "JVM did not start: $(cat "$T/jvm.log")"
	run -0 "$EBPF_COLLECT" -l -p "$LAST_PID"
	local n
	n=$(readelf -n "$LIBJVM" | grep -c 'Provider: hotspot')
	[[ $(grep -cE "^hotspot(_jni)? .* $LIBJVM  " <<<"$output") -eq $n ]] ||
		flunk "expected $n hotspot/hotspot_jni probes in $LIBJVM"
	grep -qE "^hotspot +gc__begin +0x[0-9a-f]+ +0x0 +$LIBJVM  1@%dil  \{is_full:int\}$" <<<"$output" ||
		flunk "gc__begin line: $(grep gc__begin <<<"$output")"
}

@test "usdt: OpenJDK 17 with --cpu-sampling: samples name the hot Java method (perf map), hotspot events beside them" {
	[[ -x $JVM/bin/javac && -r $LIBJVM ]] || flunk "needs openjdk-17-jdk-headless ($JVM)"
	"$EBPF_COLLECT" --help | grep -q -- '--cpu-sampling' || flunk "ebpf-collect has no --cpu-sampling"
	mkdir "$T/j"
	cat >"$T/j/Hot.java" <<'EOF2'
public class Hot {
    static long hotLoopUgMethod(long n) {
        long acc = 0;
        for (long i = 0; i < n; i++)
            acc = acc * 31 + (i ^ (acc >>> 7));
        return acc;
    }
    public static void main(String[] args) {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1000000L, r = 0;
        while (System.nanoTime() < end)
            r += hotLoopUgMethod(1000000);
        System.out.println("r " + r);
    }
}
EOF2
	"$JVM/bin/javac" -d "$T/j" "$T/j/Hot.java"
	# frame pointers in JIT code; the JIT's perf map (/tmp/perf-PID.map) at exit
	run -0 "$EBPF_COLLECT" -o "$T/hot.nettrace" --cpu-sampling --lib "$LIBJVM" \
		--usdt hotspot:thread__start -- "$JVM/bin/java" -Xshare:auto -Xmx64m \
		-XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
		-cp "$T/j" Hot 1500
	local jpid
	jpid=$(sed -n 's/^ebpf-collect: pid \([0-9]*\): attached.*/\1/p' <<<"$output" | head -1)
	[[ -n $jpid ]] && rm -f "/tmp/perf-$jpid.map"
	run -0 "$EBPF_COLLECT" report "$T/hot.nettrace"
	# the first row under "Top methods by CPU samples" is the hot method,
	# named from the perf map, with most of the samples
	local top
	top=$(grep -A2 '^Top methods by CPU samples' <<<"$output" | tail -1)
	[[ $top == *"perf-$jpid.map!long Hot.hotLoopUgMethod(long)" ]] || flunk "top row: $top" $'\n'"$output"
	local pct
	pct=$(awk '{print int($2)}' <<<"$top")
	[[ $pct -ge 50 ]] || flunk "hot method has only $pct% of the samples: $top"
	# one file: samples (as thread samples and Universal.Events cpu), the
	# rundown events that name the JIT code, the mappings and build ids of
	# the files the stacks touched, hotspot
	run -0 events "$T/hot.nettrace" "sorted(set(e['provider'] for e in ev))"
	assert_output "['Microsoft-DotNETCore-SampleProfiler', 'Microsoft-Windows-DotNETRuntimeRundown', 'Universal.Events', 'Universal.System', 'hotspot']"
	run -0 events "$T/hot.nettrace" "sum(e['event'] == 'cpu' for e in ev) == sum(e['event'] == 'ThreadSample' for e in ev)"
	assert_output "True"
	run -0 events "$T/hot.nettrace" "sum(1 for e in ev if e['event'] == 'thread__start' and e['fields']['thread_name'] == 'Reference Handler')"
	assert_output 1
}

# two python3.11 processes; the collector is given only the first
py_pair_run() {	# py_pair_run TRACE [collector options...]
	local trace=$1
	shift
	cat >"$T/gcn.py" <<'EOF2'
import gc, os, sys, time
gc.disable()
open(sys.argv[2] + ".ready", "w").write("ready")
while not os.path.exists(sys.argv[3]):
    time.sleep(0.01)
for i in range(int(sys.argv[1])):
    gc.collect()
open(sys.argv[2] + ".done", "w").write("done")
time.sleep(60)
EOF2
	rm -f "$T"/a.* "$T"/b.* "$T/go"
	bg_log "$T/a.log" "$PY" "$T/gcn.py" 2 "$T/a" "$T/go"
	PY_A=$LAST_PID
	bg_log "$T/b.log" "$PY" "$T/gcn.py" 3 "$T/b" "$T/go"
	PY_B=$LAST_PID
	wait_for_file "$T/a.ready" 20 && wait_for_file "$T/b.ready" 20 || flunk "python did not start"
	bg_log "$T/collect.log" "$EBPF_COLLECT" -p "$PY_A" -o "$trace" --usdt python:gc__start "$@"
	local cpid=$LAST_PID
	wait_for_grep "Ctrl-C to stop" "$T/collect.log" 20 || flunk "$(cat "$T/collect.log")"
	touch "$T/go"
	wait_for_file "$T/a.done" 20 && wait_for_file "$T/b.done" 20 || flunk "python did not finish"
	sleep 0.2
	kill -INT "$cpid"
	wait "$cpid" || flunk "collector failed: $(cat "$T/collect.log")"
}

@test "usdt: -p traces only the target; --all-processes every process running the file" {
	[[ -x $PY ]] || flunk "needs Debian's $PY"
	py_pair_run "$T/one.nettrace"
	run -0 events "$T/one.nettrace" "[sum(1 for e in ev if e['tid'] == p) for p in ($PY_A, $PY_B)]"
	assert_output "[2, 0]"
	py_pair_run "$T/all.nettrace" --all-processes
	run -0 events "$T/all.nettrace" "[sum(1 for e in ev if e['tid'] == p) for p in ($PY_A, $PY_B)]"
	assert_output "[2, 3]"
}
