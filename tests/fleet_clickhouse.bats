#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# --clickhouse export and `ebpf-collect fleet`, against Debian's
# clickhouse-server (18.16) started here on 127.0.0.1 with its own config,
# data and logs in a temp dir, killed in teardown_file.  Collectors trace
# reference runtimes (refrt --scenario cpu) with --cpu-sampling; their own
# end-of-run counters ("clickhouse: made ... sent ...") are compared with
# what ClickHouse holds, and the stacks with each collector's own trace.
# A stock .NET process (tests/dotnet/evtapp, through EventPipe) has the same
# rows: its runtime's own counters and its trace are the judges.

load test_helper
load dotnet_app
load ch_server

setup_file() {
	export BATS_TEST_TIMEOUT=240
	[[ $EUID -eq 0 ]] || return 0
	command -v clickhouse-server >/dev/null || return 0
	ch_setup "$BATS_FILE_TMPDIR/ch"
	ch_start
}

teardown_file() {
	ch_stop
}

teardown() {
	kill_bg
	cg_cleanup
	# a test that stopped the server (an outage) and failed before it
	# started it again leaves it down: the next test gets it back
	[[ -f $CH_DIR/pid ]] || ch_start >/dev/null 2>&1 || true
}

setup() {
	T=$BATS_TEST_TMPDIR
	require_root
	require_btf
	command -v clickhouse-server >/dev/null ||
		skip "clickhouse-server not installed (apt-get install -y clickhouse-server)"
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built"
	ch_up 1 || flunk "clickhouse-server is not answering on $CH_URL: $(tail -5 "$CH_DIR/log/err.log")"
}

# counter NAME FILE: a number from the collector's closing "clickhouse:" lines
counter() {
	local re
	case $1 in
	made_batches) re='made ([0-9]+) batches' ;;
	made_rows) re='made [0-9]+ batches \(([0-9]+) rows' ;;
	made_samples) re='made [0-9]+ batches \([0-9]+ rows, ([0-9]+) samples' ;;
	sent_rows) re='sent [0-9]+ batches \(([0-9]+) rows' ;;
	sent_samples) re='sent [0-9]+ batches \([0-9]+ rows, ([0-9]+) samples' ;;
	spooled) re='([0-9]+) batches \([0-9]+ rows\) left in the spool' ;;
	dropped_batches) re='dropped ([0-9]+) batches' ;;
	dropped_rows) re='dropped [0-9]+ batches \(([0-9]+) rows' ;;
	dropped_samples) re='dropped [0-9]+ batches \([0-9]+ rows, ([0-9]+) samples' ;;
	esac
	[[ $(grep 'clickhouse:' "$2") =~ $re ]] || { echo "no $1 in $2" >&2; return 1; }
	echo "${BASH_REMATCH[1]}"
}

# collect NAME DB SECONDS [OPTS...]: refrt --scenario cpu traced in the
# background with --clickhouse; the collector's pid in $T/NAME.cpid
collect() {
	local name=$1 db=$2 secs=$3
	shift 3
	"$REFRT" --scenario cpu --threads 1 --duration "$secs" --summary "$T/$name.json" \
		>/dev/null 2>&1 3>&- &
	local rp=$!
	"$EBPF_COLLECT" -p "$rp" --cpu-sampling=999 --clickhouse "$CH_URL/$db" \
		--export-interval 1s --host "$name" --service "svc-${db%%\?*}" -o "$T/$name.nettrace" \
		"$@" >"$T/$name.out" 2>"$T/$name.err" 3>&- &
	echo $! >"$T/$name.cpid"
}

# events_match SUMMARY TABLE WHERE: TABLE's event rows that match WHERE
# count exactly the events refrt's SUMMARY says it fired, event by event,
# and the GC suspensions and contentions are timed pairs
events_match() {
	ch_q "SELECT event, sum(count), sum(durations), sum(duration_ns) FROM $2 WHERE $3
	      GROUP BY event FORMAT TabSeparated" >"$T/events.tsv"
	run python3 - "$1" "$T/events.tsv" <<'PY'
import json, sys
want = {k: v for k, v in json.load(open(sys.argv[1]))["events"].items() if v}
have, dur = {}, {}
for line in open(sys.argv[2]):
    ev, n, pairs, ns = line.rstrip("\n").split("\t")
    have[ev], dur[ev] = int(n), (int(pairs), int(ns))
bad = [f"{k}: refrt {v}, ClickHouse {have.get(k)}" for k, v in want.items() if have.get(k) != v]
bad += [f"{k}: not in refrt's summary" for k in have if k not in want]
for end in ("GCRestartEEEnd_V1", "ContentionStop_V1"):
    if not want.get(end):
        bad.append(f"refrt fired no {end}")
    elif dur[end][0] != want[end] or dur[end][1] <= 0:
        bad.append(f"{end}: {dur[end][0]} timed pairs ({dur[end][1]} ns) of {want[end]}")
print("\n".join(bad) or f"{len(want)} events equal")
sys.exit(1 if bad else 0)
PY
	echo "# $output" >&3
	assert_success
}

# top_method: the first method row of `fleet`'s output ($lines)
top_method() {
	local i
	for ((i = 0; i < ${#lines[@]}; i++)); do
		[[ ${lines[i]} =~ ^\ +SELF\ + ]] && { echo "${lines[i + 1]}"; return; }
	done
}

wait_collector() {	# wait_collector NAME: its exit status must be 0
	local st=0
	wait "$(cat "$T/$1.cpid")" || st=$?
	((st == 0)) || flunk "collector $1 exited $st: $(tail -20 "$T/$1.err")"
	grep 'clickhouse:' "$T/$1.err" >&3 || true
}

# folded (traces: --kind-suffix, since a trace names a kernel frame by its bare
# symbol), summed per stack, kind suffixes dropped and every kernel-space frame
# (kallsyms, BPF programs) reduced to "[kernel.kallsyms]!" (a trace names
# kernel frames only with --kernel-stack)
normalize() {
	sed -E -e 's/[^;]*_\[k\]/[kernel.kallsyms]!/g' -e 's/_\[j\]//g' \
		-e 's/\[kernel\.kallsyms\]![^; ]*/[kernel.kallsyms]!/g' "$@" |
		awk '{ n = $NF; sub(/ [0-9]+$/, ""); s[$0] += n } END { for (k in s) print k " " s[k] }' |
		sort
}

@test "fleet: three hosts; the fleet's per-stack sums equal what each collector sent and recorded" {
	local h
	for h in h1 h2 h3; do
		collect "$h" t1 5
	done
	for h in h1 h2 h3; do
		wait_collector "$h"
	done
	local made=0 sent=0 trace=0 n
	for h in h1 h2 h3; do
		n=$(counter made_samples "$T/$h.err")
		((n > 100)) || flunk "$h: only $n samples"
		[[ $(counter sent_samples "$T/$h.err") == "$n" ]] || flunk "$h: not all sent"
		[[ $(counter dropped_batches "$T/$h.err") == 0 ]] || flunk "$h: dropped"
		# what ClickHouse holds for the host is what it counted and sent
		[[ $(ch_q "SELECT sum(samples) FROM t1.stacks_local WHERE host = '$h'") == "$n" ]] ||
			flunk "$h: ClickHouse has $(ch_q "SELECT sum(samples) FROM t1.stacks_local WHERE host = '$h'"), collector sent $n"
		# and what its own trace recorded, stack by stack
		"$EBPF_COLLECT" convert "$T/$h.nettrace" --format folded --kind-suffix >"$T/$h.folded" ||
			flunk "convert $h"
		trace=$((trace + $(awk '{ s += $NF } END { print s }' "$T/$h.folded")))
		made=$((made + n))
	done
	((trace == made)) || flunk "traces hold $trace CPU samples, the exports $made"
	# every row names its process: refrt, its executable, its cgroup; no container
	[[ $(ch_q "SELECT DISTINCT comm, exe, container, pod FROM t1.stacks_local FORMAT TabSeparated") == \
	   "refrt"$'\t'"$(readlink -f "$REFRT")"$'\t\t' ]] ||
		flunk "attribution: $(ch_q "SELECT DISTINCT comm, exe, cgroup, container, pod FROM t1.stacks_local")"
	[[ $(ch_q "SELECT count() FROM t1.stacks_local WHERE cgroup = ''") == 0 ]] || flunk "no cgroup"
	[[ $(ch_q "SELECT sum(samples) FROM t1.stacks_local") == "$made" ]] || flunk "total"
	[[ $(ch_q "SELECT uniqExact(host) FROM t1.stacks_local") == 3 ]] || flunk "hosts"

	run --separate-stderr "$EBPF_COLLECT" fleet --clickhouse "$CH_URL/t1" --service svc-t1 \
		--since 1h -o "$T/fleet.svg" --folded "$T/fleet.folded"
	assert_success
	echo "$output" | head -6 >&3
	# the processes first (all refrt, in no container), then the methods
	[[ ${lines[0]} =~ ^\ +SAMPLES\ +COMM\ +CONTAINER\ +POD ]] || flunk "processes: $output"
	[[ ${lines[1]} =~ ^\ *$made\ +refrt\ +-\ +-\ *$ ]] || flunk "processes: $output"
	[[ $(top_method) == *"RefApp!RefApp.Workload.HotLoop(int32)" ]] || flunk "top: $output"
	[[ ${lines[-1]} =~ ^\ *$made\ +100\.00\ +\(all\ samples ]] || flunk "total: ${lines[-1]}"
	grep -q 'RefApp.Workload.HotLoop(int32)' "$T/fleet.svg" || flunk "SVG does not name HotLoop"
	grep -q "$made samples" "$T/fleet.svg" || flunk "SVG total"
	# per stack: the fleet query == ClickHouse's sums == the three traces' sums
	ch_q "SELECT stack, sum(samples) FROM t1.stacks_local GROUP BY stack FORMAT TabSeparated" |
		tr '\t' ' ' | sort >"$T/select.folded"
	sort "$T/fleet.folded" | diff -u "$T/select.folded" - || flunk "fleet != SELECT"
	normalize "$T/fleet.folded" >"$T/fleet.norm"
	normalize "$T/h1.folded" "$T/h2.folded" "$T/h3.folded" >"$T/traces.norm"
	diff -u "$T/traces.norm" "$T/fleet.norm" || flunk "the fleet's stacks are not the traces' sums"
	# runtime events arrived too
	(($(ch_q "SELECT count() FROM t1.events_local WHERE event LIKE 'MethodDCStartVerbose%'") > 0)) ||
		flunk "no runtime event rows"
}

@test "fleet: ClickHouse down for 30 s: spooled, replayed, no row lost, one warning" {
	collect o1 t2 44 --spool "$T/spool"
	sleep 5
	ch_stop
	sleep 30
	ch_start || flunk "clickhouse-server did not come back"
	wait_collector o1
	local rows samples
	rows=$(counter made_rows "$T/o1.err")
	samples=$(counter made_samples "$T/o1.err")
	[[ $(counter sent_rows "$T/o1.err") == "$rows" ]] || flunk "sent != made"
	[[ $(counter spooled "$T/o1.err") == 0 ]] || flunk "spool not drained"
	[[ $(counter dropped_batches "$T/o1.err") == 0 ]] || flunk "dropped"
	[[ -z $(ls -A "$T/spool") ]] || flunk "spool dir not empty: $(ls "$T/spool")"
	local ch_rows
	ch_rows=$(ch_q "SELECT (SELECT count() FROM t2.stacks_local) + (SELECT count() FROM t2.events_local)")
	[[ $ch_rows == "$rows" ]] || flunk "ClickHouse has $ch_rows rows, the collector made $rows"
	[[ $(ch_q "SELECT sum(samples) FROM t2.stacks_local") == "$samples" ]] || flunk "samples"
	# the batches written during the outage are there, in order
	(($(ch_q "SELECT max(batch) FROM t2.stacks_local") >= 40)) || flunk "batches missing"
	[[ $(grep -c 'spooling batches until it is back' "$T/o1.err") == 1 ]] ||
		flunk "not one warning: $(cat "$T/o1.err")"
	grep -q 'back; replaying' "$T/o1.err" || flunk "no 'back' line"
}

@test "fleet: /metrics through a ClickHouse outage: the spool grows and failures count, then it drains; every row once" {
	local port c
	port=$(free_port)
	collect h1 t8 60 --spool "$T/spool" --metrics "127.0.0.1:$port"
	c=$(cat "$T/h1.cpid")
	m() { metric "$T/m.txt" "ebpf_collect_export_$1"; }
	scrape() {
		curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" -o "$T/m.tmp" &&
			mv "$T/m.tmp" "$T/m.txt"
	}
	sending() { scrape && (($(m sent_batches_total) >= 2)); }
	wait_until 20 sending || flunk "no batch sent: $(cat "$T/m.txt" "$T/h1.err")"
	[[ $(m spool_files) == 0 && $(m spool_bytes) == 0 && $(m failed_batches_total) == 0 ]] ||
		flunk "before the outage: $(grep export "$T/m.txt")"
	ch_stop
	local sent f1 b1 fail1
	scrape
	sent=$(m sent_batches_total)
	spooling() { scrape && (($(m spool_files) >= 2 && $(m failed_batches_total) >= 1)); }
	wait_until 30 spooling || flunk "not spooling: $(grep export "$T/m.txt")"
	f1=$(m spool_files) b1=$(m spool_bytes) fail1=$(m failed_batches_total)
	((b1 > 0)) || flunk "spool files without bytes: $(grep export "$T/m.txt")"
	growing() {
		scrape && (($(m spool_files) > f1 && $(m spool_bytes) > b1 &&
			$(m failed_batches_total) > fail1))
	}
	wait_until 30 growing || flunk "the spool did not grow: $(grep export "$T/m.txt")"
	[[ $(m sent_batches_total) == "$sent" ]] || flunk "sent while ClickHouse was down"
	awk '$1 ~ /seconds_since_success/ && $2 >= 2 { ok = 1 } END { exit !ok }' "$T/m.txt" ||
		flunk "$(grep since "$T/m.txt")"
	ch_start || flunk "clickhouse-server did not come back"
	drained() {
		scrape && (($(m spool_files) == 0 && $(m spool_bytes) == 0 &&
			$(m sent_batches_total) > sent))
	}
	wait_until 30 drained || flunk "the spool did not drain: $(grep export "$T/m.txt")"
	awk '$1 ~ /seconds_since_success/ && $2 < 3 { ok = 1 } END { exit !ok }' "$T/m.txt" ||
		flunk "$(grep since "$T/m.txt")"
	scrape_until_exit "$c" "$port"
	wait_collector h1
	# the last scrape has the final counts, as the collector printed them
	local rows batches
	rows=$(counter made_rows "$T/h1.err")
	batches=$(counter made_batches "$T/h1.err")
	[[ $(metric "$T/last.txt" ebpf_collect_export_sent_rows_total) == "$rows" ]] ||
		flunk "sent rows: $(grep export "$T/last.txt"); made $rows"
	[[ $(metric "$T/last.txt" ebpf_collect_export_sent_batches_total) == "$batches" ]] ||
		flunk "sent batches: $(grep export "$T/last.txt"); made $batches"
	[[ $(metric "$T/last.txt" ebpf_collect_export_dropped_rows_total) == 0 ]] || flunk "dropped"
	[[ $(metric "$T/last.txt" ebpf_collect_export_spool_files) == 0 ]] || flunk "spool"
	# in ClickHouse once each: every row, every batch number once per table
	[[ $(ch_q "SELECT (SELECT count() FROM t8.stacks_local) + (SELECT count() FROM t8.events_local)") == "$rows" ]] ||
		flunk "ClickHouse rows != $rows"
	[[ $(ch_q "SELECT (SELECT uniqExact(batch) FROM t8.stacks_local) + (SELECT uniqExact(batch) FROM t8.events_local)") == "$batches" ]] ||
		flunk "ClickHouse batches != $batches"
}

@test "fleet: a tiny --spool-max: the overflow counted is exactly what ClickHouse lacks" {
	collect s1 t3 16 --spool "$T/spool" --spool-max 6KB
	sleep 4
	ch_stop
	sleep 7
	ch_start || flunk "clickhouse-server did not come back"
	wait_collector s1
	local rows samples drows dsamples dbatches
	rows=$(counter made_rows "$T/s1.err")
	samples=$(counter made_samples "$T/s1.err")
	dbatches=$(counter dropped_batches "$T/s1.err")
	drows=$(counter dropped_rows "$T/s1.err")
	dsamples=$(counter dropped_samples "$T/s1.err")
	((dbatches > 0)) || flunk "nothing overflowed: $(cat "$T/s1.err")"
	[[ $(counter spooled "$T/s1.err") == 0 ]] || flunk "spool not drained"
	local ch_rows ch_samples
	ch_rows=$(ch_q "SELECT (SELECT count() FROM t3.stacks_local) + (SELECT count() FROM t3.events_local)")
	ch_samples=$(ch_q "SELECT sum(samples) FROM t3.stacks_local")
	((ch_rows == rows - drows)) || flunk "ClickHouse $ch_rows rows, made $rows, dropped $drows"
	((ch_samples == samples - dsamples)) ||
		flunk "ClickHouse $ch_samples samples, made $samples, dropped $dsamples"
	# batches: each interval's rows of one table carry its number
	local batches ch_batches
	batches=$(counter made_batches "$T/s1.err")
	ch_batches=$(ch_q "SELECT (SELECT uniqExact(batch) FROM t3.stacks_local) + (SELECT uniqExact(batch) FROM t3.events_local)")
	((ch_batches == batches - dbatches)) ||
		flunk "ClickHouse $ch_batches batches, made $batches, dropped $dbatches"
	grep -q "dropped $dbatches batches" "$T/s1.err" || flunk "no drop line"
}

@test "fleet: ?cluster=NAME: Distributed tables over the MergeTree ones, written and read through" {
	collect c1 "t4?cluster=fleet" 3
	wait_collector c1
	local samples
	samples=$(counter made_samples "$T/c1.err")
	[[ $(counter sent_samples "$T/c1.err") == "$samples" ]] || flunk "not all sent"
	[[ $(ch_q "SELECT engine FROM system.tables WHERE database = 't4' AND name = 'stacks'") == \
	   Distributed ]] || flunk "no Distributed table"
	[[ $(ch_q "SELECT sum(samples) FROM t4.stacks") == "$samples" ]] || flunk "Distributed"
	[[ $(ch_q "SELECT sum(samples) FROM t4.stacks_local") == "$samples" ]] || flunk "local"
	run --separate-stderr "$EBPF_COLLECT" fleet --clickhouse "$CH_URL/t4?cluster=fleet" \
		-o "$T/c.svg" --top 1
	assert_success
	[[ $(top_method) == *"RefApp!RefApp.Workload.HotLoop(int32)" ]] || flunk "top: $output"
	[[ ${lines[-1]} =~ ^\ *$samples\ +100\.00 ]] || flunk "total: ${lines[-1]}"
}

@test "fleet: a spool left by a run during an outage is replayed by the next run" {
	ch_stop
	collect p1 t6 3 --spool "$T/spool"
	wait_collector p1
	ch_start || flunk "clickhouse-server did not come back"
	local rows1 left
	rows1=$(counter made_rows "$T/p1.err")
	left=$(counter spooled "$T/p1.err")
	[[ $(counter sent_rows "$T/p1.err") == 0 ]] || flunk "sent while the server was down"
	[[ $left == "$(counter made_batches "$T/p1.err")" ]] || flunk "not all spooled"
	[[ $(ls "$T/spool" | wc -l) == "$left" ]] || flunk "spool files: $(ls "$T/spool")"
	collect p2 t6 2 --spool "$T/spool"
	wait_collector p2
	local rows2
	rows2=$(counter made_rows "$T/p2.err")
	[[ $(counter sent_rows "$T/p2.err") == $((rows1 + rows2)) ]] || flunk "p2 sent"
	[[ $(ch_q "SELECT (SELECT count() FROM t6.stacks_local) + (SELECT count() FROM t6.events_local)") == \
	   $((rows1 + rows2)) ]] || flunk "rows in ClickHouse"
	[[ $(ch_q "SELECT uniqExact(host) FROM t6.stacks_local") == 2 ]] || flunk "hosts"
	[[ -z $(ls -A "$T/spool") ]] || flunk "spool not drained"
}

@test "fleet: runtime event counts equal refrt's summary; GC and contention pairs timed" {
	# always-on: the daemon's profile, whose keywords have Contention
	run --separate-stderr timeout 90 "$EBPF_COLLECT" --clickhouse "$CH_URL/t5" --profile always-on \
		--export-interval 1s --host e1 --service svc-t5 -o "$T/e1.nettrace" -- \
		"$REFRT" --scenario mixed --threads 2 --duration 4 --summary "$T/e1.json"
	assert_success
	events_match "$T/e1.json" t5.events_local 1
}

@test "fleet: tables an older collector made get the comm, exe, cgroup, container and pod columns" {
	ch_q "CREATE DATABASE IF NOT EXISTS t10"
	ch_q "CREATE TABLE t10.stacks_local (ts DateTime, host String, service String, pid UInt32,
	      stack String, samples UInt64, batch UInt64) ENGINE = MergeTree()
	      PARTITION BY toYYYYMMDD(ts) ORDER BY (service, host, ts)"
	ch_q "CREATE TABLE t10.events_local (ts DateTime, host String, service String, pid UInt32,
	      provider String, event String, count UInt64, durations UInt64, duration_ns UInt64,
	      batch UInt64) ENGINE = MergeTree() PARTITION BY toYYYYMMDD(ts) ORDER BY (service, host, ts)"
	ch_q "INSERT INTO t10.stacks_local VALUES (now(), 'old', 'svc', 1, 'a;b', 7, 1)"
	collect u1 t10 2
	wait_collector u1
	local n
	n=$(counter sent_samples "$T/u1.err")
	((n > 0)) || flunk "nothing sent"
	[[ $(ch_q "SELECT name FROM system.columns WHERE database = 't10' AND table = 'stacks_local'
		   FORMAT TabSeparated" | tr '\n' ' ') == \
	   "ts host service pid stack samples batch comm exe cgroup container pod " ]] ||
		flunk "columns: $(ch_q "SELECT name FROM system.columns WHERE database = 't10' AND table = 'stacks_local'")"
	[[ $(ch_q "SELECT sum(samples) FROM t10.stacks_local WHERE comm = 'refrt'") == "$n" ]] ||
		flunk "new rows: $(ch_q "SELECT comm, sum(samples) FROM t10.stacks_local GROUP BY comm")"
	[[ $(ch_q "SELECT samples, comm FROM t10.stacks_local WHERE host = 'old' FORMAT TabSeparated") == \
	   "7"$'\t' ]] || flunk "the old row"
	(($(ch_q "SELECT count() FROM t10.events_local WHERE comm = 'refrt'") > 0)) || flunk "events"
}

@test "fleet: a stock .NET process (EventPipe): event rows as its runtime counted and its trace holds them; its CPU stacks named" {
	require_cmd dotnet
	build_app
	evtapp_traced "--exceptions 9 --gcs 5 --contentions 4 --hot-ms 1500" --cpu-sampling \
		--profile always-on --clickhouse "$CH_URL/t7" --export-interval 1s --host dn1 --service svc-t7
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "workload did not finish: $(cat "$T/app.out"*)"
	kill -INT "$COL_PID"
	wait "$COL_PID" || flunk "collector failed: $(cat "$T/c.out.err")"
	trace_note "$T/t.nettrace" stripped "native frames of .NET's stripped host and runtime (libcoreclr.so, libclrjit.so, libhostfxr.so, libhostpolicy.so, dotnet) have no symbol on this machine"
	assert_equal "$(counter sent_rows "$T/c.out.err")" "$(counter made_rows "$T/c.out.err")"
	ch_q "SELECT event, sum(count), sum(durations), sum(duration_ns) FROM t7.events_local
	      WHERE pid = $APP_PID GROUP BY event FORMAT TabSeparated" >"$T/events.tsv"
	"$EBPF_COLLECT" dump --json --manifest "$MANIFEST_REAL" "$T/t.nettrace" >"$T/t.json" ||
		flunk "dump failed"
	run python3 "$BATS_TEST_DIRNAME/evtapp_fleet.py" clickhouse "$T/events.tsv" "$T/app.out" \
		"$T/t.json" "$APP_PID" "$MANIFEST"
	echo "# $(grep COUNTS "$T/app.out")" >&3
	assert_output ok
	# the hot phase's stack: the JIT-compiled method by name, as its leaf
	# (named by the perf map the runtime wrote at the collector's request:
	# "int64 [evtapp] Program::EvtAppHotLoop(int64)[Optimized]")
	run ch_q "SELECT stack FROM t7.stacks_local WHERE pid = $APP_PID GROUP BY stack
		  ORDER BY sum(samples) DESC LIMIT 1 FORMAT TabSeparated"
	assert_success
	[[ ${output##*;} == *Program*EvtAppHotLoop\(int64\)*_\[j\] ]] || flunk "hottest stack: $output"
}

@test "fleet: a perf map an earlier process of the same pid left, longer than the target's: the agent's stacks name the target's JIT method, none of the earlier names" {
	require_cmd dotnet
	build_app
	rm -f "$T/go"
	bg "$T/app.out" dotnet "$APP" --wait "$T/go" --hot-ms 1500 --linger
	APP_PID=$LAST_PID
	wait_for_grep READY "$T/app.out" 30 || flunk "app did not start: $(cat "$T/app.out"*)"
	# what CI met: the runtime, asked for its map, truncates the earlier
	# file and writes its own, shorter one
	stale_perf_map "$APP_PID"
	bg "$T/c.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/t.nettrace" \
		--providers Microsoft-Windows-DotNETRuntime:0x8000:4 --cpu-sampling \
		--clickhouse "$CH_URL/t13" --export-interval 1s --host dn2 --service svc-t13
	COL_PID=$LAST_PID
	wait_for_grep "EventPipe session over" "$T/c.out.err" 30 || flunk "$(cat "$T/c.out.err")"
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "workload did not finish: $(cat "$T/app.out"*)"
	kill -INT "$COL_PID"
	wait "$COL_PID" || flunk "collector failed: $(cat "$T/c.out.err")"
	trace_note "$T/t.nettrace" stripped "native frames of .NET's stripped host and runtime (libcoreclr.so, libclrjit.so, libhostfxr.so, libhostpolicy.so, dotnet) have no symbol on this machine"
	[[ ! -e /tmp/perf-$APP_PID.map ]] || flunk "perf map left behind"
	run ch_q "SELECT stack FROM t13.stacks_local WHERE pid = $APP_PID GROUP BY stack
		  ORDER BY sum(samples) DESC LIMIT 1 FORMAT TabSeparated"
	assert_success
	[[ ${output##*;} == *Program*EvtAppHotLoop\(int64\)*_\[j\] ]] || flunk "hottest stack: $output"
	assert_equal "$(ch_q "SELECT count() FROM t13.stacks_local WHERE stack LIKE '%EarlierProcess%'")" 0
}

@test "fleet: a server that answers every request with an HTTP error: each retry is a failed insert, the spool keeps every batch" {
	# what ClickHouse answers while it shuts down: after the error the
	# tables are made again before the next insert, and those tries fail too
	local port mport
	port=$(free_port)
	python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def answer(self):
        n = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(n)
        body = b"Code: 210, e.displayText() = DB::Exception: shutting down\n"
        self.send_response(500)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_GET = do_POST = answer
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
' "$port" 3>&- &
	BG_PIDS="${BG_PIDS:-} $!"
	wait_until 10 curl -s -o /dev/null "http://127.0.0.1:$port/" || flunk "the HTTP server did not start"
	mport=$(free_port)
	"$REFRT" --scenario cpu --threads 1 --duration 30 >/dev/null 2>&1 3>&- &
	BG_PIDS="$BG_PIDS $!"
	"$EBPF_COLLECT" -p "$!" --cpu-sampling=99 --clickhouse "http://127.0.0.1:$port/e1" \
		--export-interval 1s --host e1 --spool "$T/spool" --metrics "127.0.0.1:$mport" \
		-o "$T/e1.nettrace" >"$T/e1.out" 2>"$T/e1.err" 3>&- &
	local c=$!
	echo "$c" >"$T/e1.cpid"
	m() { metric "$T/m.txt" "ebpf_collect_export_$1"; }
	retrying() {
		curl -sf --max-time 2 "http://127.0.0.1:$mport/metrics" -o "$T/m.txt" &&
			(($(m failed_batches_total) >= 3 && $(m spool_files) >= 3))
	}
	wait_until 30 retrying || flunk "not retrying: $(grep export "$T/m.txt"; cat "$T/e1.err")"
	[[ $(m sent_batches_total) == 0 && $(m dropped_batches_total) == 0 ]] ||
		flunk "$(grep export "$T/m.txt")"
	kill -INT "$c"
	wait_collector e1
	# one warning for the outage, with the server's answer; every batch
	# made is left in the spool, none sent, none dropped
	[[ $(grep -c 'spooling batches until it is back' "$T/e1.err") == 1 ]] ||
		flunk "not one warning: $(cat "$T/e1.err")"
	grep -q 'HTTP 500: Code: 210, e.displayText() = DB::Exception: shutting down' "$T/e1.err" ||
		flunk "the server's answer is not named: $(cat "$T/e1.err")"
	local made
	made=$(counter made_batches "$T/e1.err")
	[[ $(counter spooled "$T/e1.err") == "$made" ]] || flunk "spooled != made: $(cat "$T/e1.err")"
	[[ $(counter dropped_batches "$T/e1.err") == 0 ]] || flunk "dropped"
	[[ $(ls "$T/spool" | wc -l) == "$made" ]] || flunk "spool files: $(ls "$T/spool")"
	[[ $(grep 'clickhouse:' "$T/e1.err") =~ ([0-9]+)\ failed\ inserts\ in\ 1\ outages ]] ||
		flunk "$(cat "$T/e1.err")"
	((BASH_REMATCH[1] >= 3)) || flunk "failed inserts: $(cat "$T/e1.err")"
}

@test "fleet: errors: server unreachable, bad URL, usage" {
	run --separate-stderr "$EBPF_COLLECT" fleet --clickhouse http://127.0.0.1:1 -o "$T/x.svg"
	[[ $status -eq 1 ]] || flunk "status $status"
	[[ $stderr == "ebpf-collect: fleet: ClickHouse http://127.0.0.1:1: Connection refused" ]] ||
		flunk "stderr: $stderr"
	[[ ! -e $T/x.svg ]] || flunk "an SVG was written"
	run --separate-stderr "$EBPF_COLLECT" fleet --clickhouse ftp://x -o "$T/x.svg"
	[[ $status -eq 64 ]] || flunk "status $status: $stderr"
	run --separate-stderr "$EBPF_COLLECT" fleet -o "$T/x.svg"
	[[ $status -eq 64 ]] || flunk "status $status"
	run --separate-stderr "$EBPF_COLLECT" -p 1 --clickhouse ftp://x
	[[ $status -eq 64 ]] || flunk "status $status: $stderr"
}

# ---------------------------------------------------------------- attribution
# Two containers made as cgroup2 directories under a root of this test's own
# (the hybrid host's cgroup2 is /sys/fs/cgroup/unified): one shaped like a
# Kubernetes pod's containerd container, one like a Docker container.

CG2=/sys/fs/cgroup/unified

# cg_setup: $POD_UID, $CID1 (the pod's container), $CID2 (Docker's) and
# the two directories $CG_K8S and $CG_DOCKER
cg_setup() {
	[[ -f $CG2/cgroup.procs ]] || skip "no cgroup2 hierarchy at $CG2"
	CG_ROOT=$CG2/ebpf-attrib-$BATS_ROOT_PID-$BATS_TEST_NUMBER
	POD_UID=$(python3 -c 'import uuid; print(uuid.uuid4())')
	CID1=$(head -c 32 /dev/urandom | sha256sum | cut -c1-64)
	CID2=$(head -c 32 /dev/urandom | sha256sum | cut -c1-64)
	CG_K8S=$CG_ROOT/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${POD_UID//-/_}.slice/cri-containerd-$CID1.scope
	CG_DOCKER=$CG_ROOT/system.slice/docker-$CID2.scope
	mkdir -p "$CG_K8S" "$CG_DOCKER" || skip "cannot make cgroups under $CG2"
}

# in_cgroup DIR CMD...: CMD run inside the cgroup DIR (the shell moves
# itself in, then execs CMD), in place of the calling shell, so that bg's
# pid is CMD's: call it only as bg's command
in_cgroup() {
	exec sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$@"
}

cg_cleanup() {
	[[ -n ${CG_ROOT:-} && -d $CG_ROOT ]] || return 0
	find "$CG_ROOT" -depth -type d -exec rmdir {} + 2>/dev/null || true
}

# the programs of the attribution tests, each in its container: refrt in
# the pod's (r1), refrt and a CPU burner (a copy of dash named "burner")
# in Docker's (r2, burn); refrt waits for the collector's probes
start_programs() {
	cp /bin/dash "$T/burner"
	bg "$T/r1.out" in_cgroup "$CG_K8S" "$REFRT" --scenario mixed --threads 2 --duration 3 \
		--rate 200 --wait-for-tracer 30 --summary "$T/r1.json"
	R1=$LAST_PID
	bg "$T/r2.out" in_cgroup "$CG_DOCKER" "$REFRT" --scenario mixed --threads 2 --duration 3 \
		--rate 100 --wait-for-tracer 30 --summary "$T/r2.json"
	R2=$LAST_PID
	bg "$T/burn.out" in_cgroup "$CG_DOCKER" timeout 4 "$T/burner" -c 'while :; do :; done'
	BURN=$LAST_PID
}

wait_programs() {
	wait "$R1" || flunk "refrt 1 failed: $(cat "$T/r1.out.err")"
	wait "$R2" || flunk "refrt 2 failed: $(cat "$T/r2.out.err")"
	wait "$BURN" || (($? == 124)) || flunk "burner failed"
}

# metric_sum FILE NAME LABELS: the sum of NAME's samples whose labels
# include every one of LABELS (name="value",...)
metric_sum() {
	python3 - "$@" <<'PY'
import re, sys
path, name, want = sys.argv[1:]
want = set(re.findall(r'\w+="[^"]*"', want))
n = 0
for line in open(path):
    m = re.match(r'(\w+)\{(.*)\} (\S+)$', line.strip())
    if m and m.group(1) == name and want <= set(re.findall(r'\w+="[^"]*"', m.group(2))):
        n += float(m.group(3))
print(int(n))
PY
}

@test "attribution: the daemon host-wide with --cpu-sampling, --clickhouse and --metrics names every sample and event by comm, container and pod" {
	require_cmd curl
	cg_setup
	local port gc1 gc2
	port=$(free_port)
	# the node daemon (its always-on defaults: --all, V6, the flight
	# recorder) with sampling, both fleet outputs and attribution
	bg "$T/c.out" "$EBPF_COLLECT" daemon -o "$T/d" --cpu-sampling=499 --clickhouse "$CH_URL/t9" \
		--export-interval 1s --metrics "127.0.0.1:$port" --service-from cgroup \
		--service host-default
	local col=$LAST_PID
	wait_for_grep "new ones are added as they exec" "$T/c.out.err" 30 ||
		flunk "collector: $(cat "$T/c.out.err")"
	start_programs
	wait_programs
	gc1=$(json_get "$T/r1.json" '["gc"]["count"]')
	gc2=$(json_get "$T/r2.json" '["gc"]["count"]')
	((gc1 > 0 && gc2 > 0)) || flunk "refrt ran no GC"
	# metrics: per container and pod, labelled so; no pid, no host
	local pod1="comm=\"refrt\",container=\"$CID1\",pod=\"$POD_UID\",service=\"${CID1:0:12}\""
	local dock2="comm=\"refrt\",container=\"$CID2\",pod=\"\",service=\"${CID2:0:12}\""
	scraped_gc() {
		curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" -o "$T/m.txt" &&
			[[ $(metric_sum "$T/m.txt" ebpf_collect_gc_total "$pod1") == "$gc1" &&
			   $(metric_sum "$T/m.txt" ebpf_collect_gc_total "$dock2") == "$gc2" ]]
	}
	wait_until 20 scraped_gc ||
		flunk "metrics: GCs $gc1/$gc2 not seen: $(grep '^ebpf_collect_gc_total' "$T/m.txt")"
	! grep -E '^ebpf_collect_(gc|exceptions|jit)[a-z_]*\{[^}]*(pid|host)=' "$T/m.txt" ||
		flunk "a runtime series with a pid or host label"
	[[ $(metric_sum "$T/m.txt" ebpf_collect_exceptions_total "$pod1") == \
	   "$(json_get "$T/r1.json" '["exceptions"]["total"]')" ]] || flunk "exceptions of refrt 1"
	kill -TERM "$col"
	wait "$col" || flunk "daemon exited $?: $(tail -5 "$T/c.out.err")"
	local trace
	trace=$(ls "$T"/d/trace-*.nettrace)
	trace_note "$trace" stripped "host-wide samples of the machine's stripped programs (sh, timeout, dotnet, ...) whose symbols are not on this machine"
	[[ -s $trace ]] || flunk "no trace in $T/d: $(ls -l "$T/d")"
	# ClickHouse: the events of each container are exactly its refrt's
	events_match "$T/r1.json" t9.events_local "container = '$CID1'"
	events_match "$T/r2.json" t9.events_local "container = '$CID2'"
	[[ $(ch_q "SELECT DISTINCT comm, exe, pod, service FROM t9.events_local
		   WHERE container = '$CID1' FORMAT TabSeparated") == \
	   "refrt"$'\t'"$(readlink -f "$REFRT")"$'\t'"$POD_UID"$'\t'"${CID1:0:12}" ]] ||
		flunk "events of the pod: $(ch_q "SELECT DISTINCT comm, exe, pod, service FROM t9.events_local WHERE container = '$CID1'")"
	[[ $(ch_q "SELECT DISTINCT cgroup FROM t9.events_local WHERE container = '$CID1'") == \
	   "${CG_K8S#$CG2}" ]] || flunk "cgroup of the pod's events"
	# samples: each container's rows name its pod (or none) and the programs
	# that ran there: refrt, the burner (and the shell and timeout that
	# started them, sampled before their exec)
	[[ $(ch_q "SELECT DISTINCT pod FROM t9.stacks_local WHERE container = '$CID1'") == \
	   "$POD_UID" ]] || flunk "pod of the pod's samples"
	[[ $(ch_q "SELECT count() FROM t9.stacks_local WHERE container = '$CID2' AND pod != ''") == 0 ]] ||
		flunk "a Docker container's sample with a pod"
	[[ $(ch_q "SELECT count() FROM t9.stacks_local WHERE container IN ('$CID1', '$CID2')
		   AND comm NOT IN ('refrt', 'burner', 'sh', 'timeout')") == 0 ]] ||
		flunk "samples of $(ch_q "SELECT DISTINCT comm FROM t9.stacks_local WHERE container IN ('$CID1', '$CID2')")"
	(($(ch_q "SELECT sum(samples) FROM t9.stacks_local WHERE container = '$CID2' AND comm = 'burner'") > 100)) ||
		flunk "the burner's samples"
	(($(ch_q "SELECT sum(samples) FROM t9.stacks_local WHERE container = '$CID1' AND comm = 'refrt'") > 0)) ||
		flunk "refrt 1's samples"
	# processes in no container carry the fallback service
	(($(ch_q "SELECT count() FROM t9.stacks_local WHERE container = '' AND cgroup = '/' AND service != 'host-default'") == 0)) ||
		flunk "the fallback service"
	# fleet: filtered by pod, by container, by comm
	run --separate-stderr "$EBPF_COLLECT" fleet --clickhouse "$CH_URL/t9" --pod "$POD_UID" \
		-o "$T/pod.svg"
	assert_success
	echo "$output" | head -4 >&3
	local n1
	n1=$(ch_q "SELECT sum(samples) FROM t9.stacks_local WHERE pod = '$POD_UID'")
	[[ ${lines[1]} =~ ^\ *[0-9]+\ +refrt\ +${CID1:0:12}\ +$POD_UID\ *$ ]] || flunk "pod: $output"
	[[ ${lines[-1]} =~ ^\ *$n1\ +100\.00 ]] || flunk "pod total $n1: ${lines[-1]}"
	run --separate-stderr "$EBPF_COLLECT" fleet --clickhouse "$CH_URL/t9" --container "${CID2:0:12}" \
		--comm burner -o "$T/burner.svg"
	assert_success
	[[ ${lines[1]} =~ ^\ *[0-9]+\ +burner\ +${CID2:0:12}\ +-\ *$ ]] || flunk "burner: $output"
	[[ ${lines[2]} =~ ^\ +SELF\  ]] || flunk "other processes: $output"	# ($lines has no blank line)
	# the trace: ProcessInfo names them; report shows comm beside pid
	run --separate-stderr "$EBPF_COLLECT" report "$trace"
	assert_success
	[[ $output =~ [[:space:]]$R1\ +refrt\  ]] || flunk "report: no refrt 1: $output"
	"$EBPF_COLLECT" dump --json "$trace" | python3 -c '
import json, sys
pid, cid, pod = int(sys.argv[1]), sys.argv[2], sys.argv[3]
info = [o for o in map(json.loads, sys.stdin) if o.get("type") == "event"
        and o.get("provider") == "ebpf-collect" and o.get("event") == "ProcessInfo"
        and o.get("pid") == pid]
assert info, "no ProcessInfo"
p = info[-1]["fields"]
assert (p["Comm"], p["Container"], p["Pod"], p["Selected"]) == ("refrt", cid, pod, 1), p
' "$R1" "$CID1" "$POD_UID" || flunk "ProcessInfo of refrt 1"
}

@test "attribution: --all --cgroup samples only the selected cgroups, in the kernel; split names files by comm and skips the rest" {
	cg_setup
	bg "$T/c.out" "$EBPF_COLLECT" --all --cpu-sampling=499 --cgroup "*/ebpf-attrib-*" \
		-o "$T/sel.nettrace"
	local col=$LAST_PID
	wait_for_grep "new ones are added as they exec" "$T/c.out.err" 30 ||
		flunk "collector: $(cat "$T/c.out.err")"
	start_programs
	wait_programs
	kill -INT "$col"
	wait "$col" || flunk "collector exited $?: $(tail -5 "$T/c.out.err")"
	trace_note "$T/sel.nettrace" stripped "host-wide samples of the machine's stripped programs (sh, timeout, dotnet, ...) whose symbols are not on this machine"
	check_refrt_events "$T/sel.nettrace" "$R1" "$T/r1.json"
	check_refrt_events "$T/sel.nettrace" "$R2" "$T/r2.json"
	# every CPU sample is of a process in the two cgroups: the processes
	# ProcessInfo describes as selected
	"$EBPF_COLLECT" dump --json "$T/sel.nettrace" | python3 -c '
import json, sys, collections
info, samples = {}, collections.Counter()
for o in map(json.loads, sys.stdin):
    if o.get("type") != "event":
        continue
    if o["provider"] == "ebpf-collect" and o["event"] == "ProcessInfo":
        info[o["pid"]] = o["fields"]
    elif o["provider"] == "Microsoft-DotNETCore-SampleProfiler":
        samples[o["pid"]] += 1
bad = {p: n for p, n in samples.items()
       if p not in info or "/ebpf-attrib-" not in info[p]["Cgroup"] or not info[p]["Selected"]}
comms = collections.Counter()
for p, n in samples.items():
    comms[info.get(p, {}).get("Comm")] += n
print(dict(comms))
assert not bad, {p: (n, info.get(p)) for p, n in bad.items()}
assert comms["burner"] > 100 and comms["refrt"] > 0, comms
' >&3 || flunk "samples of unselected processes"
	# split: a file per selected process, named by its comm
	run "$EBPF_COLLECT" split "$T/sel.nettrace" "$T/split"
	assert_success
	[[ -s $T/split/sel.$R1.refrt.nettrace && -s $T/split/sel.$R2.refrt.nettrace ]] ||
		flunk "no refrt files: $(ls "$T/split")"
	ls "$T/split" | grep -q '\.burner\.nettrace$' || flunk "no burner file: $(ls "$T/split")"
	local f
	for f in "$T"/split/*; do
		[[ $f =~ \.(refrt|burner|sh|timeout)\.nettrace$ ]] || flunk "a file of another process: $f"
	done
	for f in "$T"/split/*.burner.nettrace; do
		trace_note "$f" stripped "the burner is a copy of Debian's /bin/dash, stripped, with no symbols on this machine"
	done
}
