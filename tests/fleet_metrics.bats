#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# --metrics ADDR:PORT: the Prometheus text exposition.  Three collectors
# trace three reference runtimes; Debian's prometheus (started here, on
# loopback, in a temp dir) scrapes all three, and PromQL must return, per
# scrape target (instance: the runtime series carry no host label),
# exactly the GCs and exceptions each refrt counted in its own summary.  A
# stock .NET process (tests/dotnet/evtapp, traced through EventPipe) gets
# the same series: its GCs by generation, exceptions and contentions equal
# the runtime's own counters, its pauses, exception types and contention
# time what its trace holds.  The endpoint itself is checked with curl: the
# format (promtool), the status codes, and that clients which never send
# or never read hold up neither other scrapes nor tracing.

load test_helper
load dotnet_app

setup_file() {
	export BATS_TEST_TIMEOUT=180
}

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	[[ -x $REFRT ]] || flunk "reference runtime not built ($REFRT)"
	T=$BATS_TEST_TMPDIR
}

teardown() {
	kill_bg
}


require_prometheus() {
	command -v prometheus >/dev/null 2>&1 ||
		apt-get install -y -qq prometheus >/dev/null 2>&1 ||
		skip "needs prometheus (Debian package prometheus), which could not be installed"
}

# collect_until_exit N PID PORT [OPTION...]: the collector for refrt PID,
# labelled hostN; writes the CLOCK_REALTIME second it exited to $T/cN.end
collect_until_exit() {
	local n=$1 rt=$2 port=$3
	shift 3
	bg "$T/c$n.out" sh -c '"$@"; echo $? >"$0.rc"; date +%s.%N >"$0.end"' "$T/c$n" \
		"$EBPF_COLLECT" -p "$rt" -o "$T/t$n.nettrace" --metrics "127.0.0.1:$port" \
		--host "host$n" "$@"
}

# promql QUERY TIME: the result vector as "labels value" lines, sorted
promql() {
	curl -sfG "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1" \
		--data-urlencode "time=$2" |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "success", d
for r in sorted(d["data"]["result"], key=lambda r: sorted(r["metric"].items())):
    print(",".join("%s=%s" % kv for kv in sorted(r["metric"].items())), r["value"][1])'
}

# expected QUERY-KIND SUMMARY INSTANCE: what promql must print, from refrt's summary
expected() {
	python3 - "$@" <<'PY'
import json, sys
kind, path, inst = sys.argv[1:]
s = json.load(open(path))
if kind == "gc":
    print("instance=%s %d" % (inst, s["gc"]["count"]))
elif kind == "gen":
    for g in range(3):
        print("gen=%d %d" % (g, s["gc"]["gen%d" % g]))
else:
    for t, n in sorted(s["exceptions"]["by_type"].items()):
        print("type=%s %d" % (t, n))
PY
}

scraping_all() {
	curl -sf "http://127.0.0.1:$PROM_PORT/api/v1/targets" 2>/dev/null | python3 -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
sys.exit(not (len(t) == 3 and all(x["health"] != "unknown" for x in t)))'
}

@test "fleet: prometheus scrapes three collectors; PromQL gives each instance's GCs and exceptions as refrt counted them; a pid label only with --metrics-pid" {
	require_root
	require_prometheus
	local i port rts=() ports=()
	PROM_PORT=$(free_port)
	for i in 1 2 3; do
		ports[i]=$(free_port)
	done
	cat >"$T/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: ebpf-collect
    static_configs:
      - targets: ['127.0.0.1:${ports[1]}', '127.0.0.1:${ports[2]}', '127.0.0.1:${ports[3]}']
EOF
	bg "$T/prom.out" prometheus --config.file "$T/prom.yml" --storage.tsdb.path "$T/tsdb" \
		--web.listen-address "127.0.0.1:$PROM_PORT"
	# targets reach the scrape loops seconds after start: begin once all
	# three have been tried (down, nothing listens yet)
	for i in $(seq 150); do
		scraping_all && break
		sleep 0.2
	done
	scraping_all || flunk "prometheus does not scrape: $(tail -5 "$T/prom.out.err")"
	for i in 1 2 3; do
		bg "$T/rt$i.out" "$REFRT" --scenario mixed --duration 4 --rate 300 --threads 2 \
			--wait-for-tracer 10 --summary "$T/s$i.json"
		rts[i]=$LAST_PID
		if ((i == 1)); then
			collect_until_exit "$i" "${rts[i]}" "${ports[i]}" --metrics-pid
		else
			collect_until_exit "$i" "${rts[i]}" "${ports[i]}"
		fi
	done
	for i in 1 2 3; do
		wait "${rts[i]}" || flunk "refrt $i failed: $(cat "$T/rt$i.out.err")"
		wait_for_file "$T/c$i.end" 30 || flunk "collector $i still running: $(cat "$T/c$i.out.err")"
		assert_equal "$(cat "$T/c$i.rc")" 0
	done
	for i in 1 2 3; do
		local at inst=127.0.0.1:${ports[i]}
		at=$(cat "$T/c$i.end")
		run promql "sum by (instance) (ebpf_collect_gc_total{instance=\"$inst\"})" "$at"
		assert_success
		assert_output "$(expected gc "$T/s$i.json" "$inst")"
		run promql "sum by (gen) (ebpf_collect_gc_total{instance=\"$inst\"})" "$at"
		assert_output "$(expected gen "$T/s$i.json" "$inst")"
		run promql "sum by (type) (ebpf_collect_exceptions_total{instance=\"$inst\"})" "$at"
		assert_output "$(expected exc "$T/s$i.json" "$inst")"
		run promql "count(ebpf_collect_gc_total{instance=\"$inst\",comm=\"refrt\"})" "$at"
		assert_output " 3"
		run promql "count(ebpf_collect_gc_total{instance=\"$inst\",host!=\"\"})" "$at"
		assert_output ""
		run promql "count(ebpf_collect_gc_total{instance=\"$inst\",pid=\"${rts[i]}\"})" "$at"
		if ((i == 1)); then
			assert_output " 3"
		else
			assert_output ""
		fi
	done
}

# raw PORT REQUEST: send REQUEST as is, print the status line
raw() {
	python3 - "$@" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall(sys.argv[2].encode())
data = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    data += b
print(data.split(b"\r\n")[0].decode())
PY
}

@test "--metrics: the exposition format, HEAD, 404/405/400/505, and clients that stall hold up neither scrapes nor tracing" {
	require_root
	local port m
	port=$(free_port)
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 4 --rate 300 --threads 2 \
		--wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID
	bg "$T/c.out" "$EBPF_COLLECT" -p "$rt" -o "$T/t.nettrace" --metrics "127.0.0.1:$port" \
		--host h1 --service svc --profile always-on --profile gc-verbose
	local col=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/c.out.err" || flunk "$(cat "$T/c.out.err")"
	# 20 clients that never send (more than the server's 16 slots), one
	# that sends and never reads
	bg "$T/mute.out" python3 -c 'import socket,sys,time; s=[socket.create_connection(("127.0.0.1",int(sys.argv[1]))) for i in range(20)]; time.sleep(30)' "$port"
	bg "$T/deaf.out" python3 -c 'import socket,sys,time; s=socket.create_connection(("127.0.0.1",int(sys.argv[1]))); s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"); time.sleep(30)' "$port"
	sleep 0.5
	run curl -s -D "$T/h.txt" --max-time 2 "http://127.0.0.1:$port/metrics"
	assert_success
	grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$T/h.txt" || flunk "$(cat "$T/h.txt")"
	grep -qi '^connection: close' "$T/h.txt" || flunk "$(cat "$T/h.txt")"
	run promtool check metrics <<<"$output"
	assert_success
	run curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/nope"
	assert_output 404
	run curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/metrics"
	assert_output 405
	run curl -s -I "http://127.0.0.1:$port/metrics?x=1"
	assert_output_contains "HTTP/1.1 200 OK"
	# not HTTP at all: libmicrohttpd closes without an answer; a version
	# it does not speak: 505
	run raw "$port" $'GARBAGE\r\n\r\n'
	assert_output ""
	run raw "$port" $'GET /metrics HTTP/9.9\r\n\r\n'
	assert_output "HTTP/1.1 505 HTTP Version Not Supported"
	run raw "$port" $'GET /metrics\r\n\r\n'
	assert_output "HTTP/1.1 400 Bad Request"
	scrape_until_exit "$col" "$port"
	wait "$col" || flunk "collector failed: $(cat "$T/c.out.err")"
	wait "$rt" || flunk "refrt failed"
	m=$T/last.txt
	# every family: HELP, then TYPE, then its samples
	run python3 - "$m" <<'PY'
import sys
fam, bad = {}, []
for line in open(sys.argv[1]):
    w = line.split()
    if line.startswith("# HELP"):
        fam[w[2]] = "help"
    elif line.startswith("# TYPE"):
        if fam.get(w[2]) != "help": bad.append("TYPE before HELP: " + w[2])
        fam[w[2]] = w[3]
    else:
        name = w[0].split("{")[0]
        base = [f for f in fam if name == f or name.startswith(f + "_")]
        if not base: bad.append("no TYPE: " + name)
        if fam.get(name) == "counter" and not name.endswith("_total"): bad.append(name)
print(bad or "ok")
PY
	assert_output ok
	local gc exc
	gc=$(json_get "$T/s.json" '["gc"]["count"]')
	exc=$(json_get "$T/s.json" '["exceptions"]["total"]')
	run awk '/^ebpf_collect_gc_total\{.*service="svc"/ { n += $2 } END { print n }' "$m"
	assert_output "$gc"
	run awk '/^ebpf_collect_exceptions_total\{/ { n += $2 } END { print n }' "$m"
	assert_output "$exc"
	# the collector's own numbers: what its exit summary says
	local n bytes
	n=$(sed -n 's/^ebpf-collect: \([0-9]*\) events (.*/\1/p' "$T/c.out.err")
	bytes=$(sed -n 's/^ebpf-collect: ring buffer: [0-9]* records, \([0-9]*\) bytes.*/\1/p' "$T/c.out.err")
	grep -q "^ebpf_collect_events_total{host=\"h1\"} $n$" "$m" || flunk "$n events: $(grep events_total "$m")"
	grep -q "^ebpf_collect_event_bytes_total{host=\"h1\"} $bytes$" "$m" || flunk "$bytes bytes: $(grep bytes_total "$m")"
	n=$(sed -n 's/^ebpf-collect: tracing \([0-9]*\) probes.*/\1/p' "$T/c.out.err")
	grep -q "^ebpf_collect_attached_probes{host=\"h1\"} $n$" "$m" || flunk "$n probes: $(grep probes "$m")"
	grep -q "^ebpf_collect_tracked_processes{host=\"h1\"} 1$" "$m" || flunk "$(grep tracked "$m")"
	grep -q "^ebpf_collect_dropped_events_total{host=\"h1\",cause=\"ring_buffer_full\"} 0$" "$m" ||
		flunk "drops: $(grep dropped "$m")"
	grep -q "^ebpf_collect_gc_pause_seconds_count{comm=\"refrt\",container=\"\",pod=\"\",service=\"svc\"} $gc$" "$m" ||
		flunk "pauses: $(grep pause_seconds_count "$m")"
	# JIT, contention (count and DurationNs summed), thread pool exactly as
	# refrt did them; allocated bytes: the AllocationAmount64 of every tick
	# the trace holds (as many as refrt fired)
	"$EBPF_COLLECT" dump "$T/t.nettrace" | grep ' Microsoft-Windows-DotNETRuntime/GCAllocationTick_V3 ' |
		sed 's/.*"AllocationAmount64":\([0-9]*\).*/\1/' >"$T/ticks.txt"
	run python3 - "$m" "$T/s.json" "$T/ticks.txt" <<'PY'
import json, sys
v = {}
for line in open(sys.argv[1]):
    if not line.startswith("#"):
        v[line.split("{")[0]] = float(line.split()[-1])
s = json.load(open(sys.argv[2]))
a = s["allocations"]
print(v["ebpf_collect_jit_methods_total"] == sum(1 for m in s["methods"] if m["flags"] & 8),
      v["ebpf_collect_lock_contentions_total"] == s["contention"]["count"],
      round(v["ebpf_collect_lock_contention_seconds_total"] * 1e9) == s["contention"]["total_wait_ns"],
      v["ebpf_collect_threadpool_worker_threads"] == s["threads"],
      v["ebpf_collect_allocated_bytes_total"] == sum(int(x) for x in open(sys.argv[3])) > 0 and
      len(open(sys.argv[3]).readlines()) == a["ticks"])
PY
	assert_output "True True True True True"
}

@test "--metrics: build_info is the version; process_* are the collector's own, as /proc says" {
	require_root
	local port col start
	port=$(free_port)
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 3 --rate 200 --wait-for-tracer 10
	start=$(date +%s)
	bg "$T/c.out" "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/t.nettrace" --metrics "127.0.0.1:$port"
	col=$LAST_PID
	wait_for_grep "tracing .* probes" "$T/c.out.err" || flunk "$(cat "$T/c.out.err")"
	scraped() { curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" -o "$T/m.txt"; }
	wait_until 10 scraped || flunk "no scrape"
	run promtool check metrics <"$T/m.txt"
	assert_success
	local version
	version=$("$EBPF_COLLECT" --version | awk '{ print $2 }')
	grep -qx "ebpf_collect_build_info{version=\"$version\"} 1" "$T/m.txt" ||
		flunk "$(grep build_info "$T/m.txt"), version $version"
	for f in process_cpu_seconds_total process_resident_memory_bytes \
		 process_virtual_memory_bytes process_open_fds process_max_fds process_start_time_seconds; do
		grep -q "^# TYPE $f " "$T/m.txt" || flunk "no TYPE of $f"
		grep -q "^# HELP $f " "$T/m.txt" || flunk "no HELP of $f"
	done
	grep -q "^# TYPE process_cpu_seconds_total counter$" "$T/m.txt" || flunk "cpu is a counter"
	# against /proc of the collector, read now: memory within 50% (it
	# moves between the render and this read), the limit exactly
	run python3 - "$T/m.txt" "$col" "$start" <<'PY'
import os, sys, time
v = {l.split()[0]: float(l.split()[1]) for l in open(sys.argv[1]) if l.startswith("process_")}
pid, start = sys.argv[2], int(sys.argv[3])
st = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
rss = int(st[21]) * os.sysconf("SC_PAGE_SIZE")
soft = [l.split()[3] for l in open("/proc/%s/limits" % pid) if l.startswith("Max open files")][0]
cpu = (int(st[11]) + int(st[12])) / os.sysconf("SC_CLK_TCK")
checks = {
    "cpu": 0 < v["process_cpu_seconds_total"] <= cpu + 0.01,
    "rss": 0.5 * rss <= v["process_resident_memory_bytes"] <= 1.5 * rss,
    "vsize": v["process_virtual_memory_bytes"] > v["process_resident_memory_bytes"],
    "fds": 3 <= v["process_open_fds"] <= min(v["process_max_fds"], len(os.listdir("/proc/%s/fd" % pid)) + 16),
    "max_fds": v["process_max_fds"] == float(soft),
    "start": start - 2 <= v["process_start_time_seconds"] <= time.time(),
}
bad = [k for k, ok in checks.items() if not ok]
print("ok" if not bad else "bad %s: %r" % (bad, v))
PY
	assert_output ok
	wait "$col" || flunk "collector failed: $(cat "$T/c.out.err")"
}

@test "--metrics: a stock .NET process (EventPipe): GCs by generation, exceptions, contentions as its runtime counted them" {
	require_root
	require_btf
	require_cmd dotnet
	build_app
	local port
	port=$(free_port)
	# always-on: the daemon's profile, whose keywords have Contention
	evtapp_traced "--exceptions 9 --gcs 5 --contentions 4" --profile always-on \
		--metrics "127.0.0.1:$port" --host dn1
	touch "$T/go"
	wait_for_grep DONE "$T/app.out" 60 || flunk "workload did not finish: $(cat "$T/app.out"*)"
	kill -INT "$COL_PID"
	scrape_until_exit "$COL_PID" "$port"
	wait "$COL_PID" || flunk "collector failed: $(cat "$T/c.out.err")"
	"$EBPF_COLLECT" dump --json --manifest "$MANIFEST_REAL" "$T/t.nettrace" >"$T/t.json" ||
		flunk "dump failed"
	run python3 "$BATS_TEST_DIRNAME/evtapp_fleet.py" metrics "$T/last.txt" "$T/app.out" \
		"$T/t.json" "$APP_PID"
	echo "# $(grep COUNTS "$T/app.out")" >&3
	assert_output ok
}

@test "--metrics: a port already taken exits 1 naming the address and the cause" {
	require_root
	local port
	port=$(free_port)
	bg "$T/hold.out" python3 -c 'import socket,sys,time; s=socket.socket(); s.bind(("127.0.0.1",int(sys.argv[1]))); s.listen(); time.sleep(30)' "$port"
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 1 --wait-for-tracer 10 --summary "$T/s.json"
	sleep 0.5
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/t.nettrace" --metrics "127.0.0.1:$port"
	assert_equal "$status" 1
	assert_output "ebpf-collect: --metrics 127.0.0.1:$port: cannot listen: Address already in use"
	run "$EBPF_COLLECT" -p "$LAST_PID" -o "$T/t.nettrace" --metrics nope
	assert_equal "$status" 64
}
