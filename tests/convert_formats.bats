#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# convert --format pprof and --format chromium, read by their own judges:
# go tool pprof reads the profile and lists report's top methods with
# report's counts; the Chrome trace validates against the format's schema
# (tests/chromium_trace.schema.json) and holds the trace's GC, contention
# and exception pairs, counted from `ebpf-collect dump --json`.

load test_helper

SCHEMA=$BATS_TEST_DIRNAME/chromium_trace.schema.json

setup_file() {
	export BATS_TEST_TIMEOUT=180
}

setup() {
	T=$BATS_TEST_TMPDIR
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
}

# refrt_trace: $TRACE, a trace of refrt's mixed scenario (JIT code, GCs,
# exceptions, lock contention) with CPU samples and the kernel's process
# events, written once for the file's tests, and its dump ($TRACE.jsonl)
refrt_trace() {
	require_root
	require_btf
	TRACE=$BATS_FILE_TMPDIR/mixed.nettrace
	[[ -s $TRACE.jsonl ]] && return 0
	# legacy-default: its keywords have Contention, dotnet-trace 10's default has not
	DOTNET_PerfMapEnabled=3 run --separate-stderr "$EBPF_COLLECT" -o "$TRACE" \
		--profile legacy-default --cpu-sampling --kernel proc -- "$OUTPUT/refrt" --scenario mixed --threads 2 \
		--duration 2 --seed 1
	[[ $status -eq 0 ]] || flunk "collect failed ($status): $stderr"
	"$EBPF_COLLECT" dump --json "$TRACE" >"$TRACE.jsonl" || flunk "dump failed"
}

# pprof_cmd ARGS...: go tool pprof, its cache and home in the test's tmpdir
pprof_cmd() {
	HOME=$T GOCACHE=$T/gocache PPROF_TMPDIR=$T go tool pprof "$@"
}

@test "pprof: go tool pprof -top lists report's top methods with report's sample counts" {
	require_cmd go
	refrt_trace
	run "$EBPF_COLLECT" convert "$TRACE" --format pprof -o "$T/p.pb.gz"
	[[ $status -eq 0 ]] || flunk "convert: $output"
	gzip -t "$T/p.pb.gz"
	"$EBPF_COLLECT" report --top 1000 "$TRACE" >"$T/report.txt"
	pprof_cmd -top -nodecount=1000 -nodefraction=0 -edgefraction=0 "$T/p.pb.gz" \
		>"$T/top.txt" 2>"$T/top.err" || flunk "pprof: $(cat "$T/top.err")"
	python3 - "$T/report.txt" "$T/top.txt" 15 <<'EOF'
import re, sys

def fit(s, w=45):
    # report's print_fit: the name as report prints it in 45 columns
    if len(s) <= w:
        return s
    paren = s.find('(')
    p = paren if paren >= 0 else len(s)
    if p + 4 <= w:
        return s[:p] + '(..)'
    k = w - 2 - (4 if paren >= 0 else 0)
    return '..' + s[p - k:p] + ('(..)' if paren >= 0 else '')

rep, total_rep = {}, None
order_rep = []
section = False
for line in open(sys.argv[1]):
    m = re.match(r'Top methods by CPU samples \((\d+) samples', line)
    if m:
        total_rep, section = int(m.group(1)), True
        continue
    if section:
        m = re.match(r'\s*(\d+)\s+[\d.]+%\s+(\d+)\s+[\d.]+%\s+(.*)$', line)
        if not m:
            if order_rep:
                break
            continue
        rep[m.group(3)] = (int(m.group(1)), int(m.group(2)))
        order_rep.append(int(m.group(1)))
top, total_pp, order_pp = {}, None, []
for line in open(sys.argv[2]):
    m = re.search(r'Total samples = (\d+)', line)
    if m:
        total_pp = int(m.group(1))
    m = re.match(r'\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(\d+)\s+[\d.]+%\s+(.*)$', line)
    if m and int(m.group(1)):
        name = fit(m.group(3))
        assert name not in top, 'two pprof nodes print as ' + name
        top[name] = (int(m.group(1)), int(m.group(2)))
        order_pp.append(int(m.group(1)))
n = int(sys.argv[3])
print('report: %s samples, %d methods; pprof: %s samples, %d functions with flat > 0'
      % (total_rep, len(rep), total_pp, len(top)))
for k in list(rep)[:n]:
    print('  %-45s report %s pprof %s' % (k, rep[k], top.get(k)))
assert total_rep and total_rep == total_pp, (total_rep, total_pp)
assert len(rep) >= n, 'fewer than %d methods in report' % n
assert order_rep[:n] == order_pp[:n], (order_rep[:n], order_pp[:n])
assert rep == top, sorted(set(rep.items()) ^ set(top.items()))[:10]
assert any('HotLoop' in k for k in list(rep)[:3]), 'HotLoop not in the top 3'
EOF
}

@test "pprof: -raw holds the sampling period, labels pid/tid/comm, addresses in mappings; exceptions are a sample type" {
	require_cmd go
	refrt_trace
	run "$EBPF_COLLECT" convert "$TRACE" --format pprof -o "$T/p.pb.gz"
	[[ $status -eq 0 ]] || flunk "convert: $output"
	pprof_cmd -raw "$T/p.pb.gz" >"$T/raw.txt" 2>"$T/raw.err" || flunk "pprof: $(cat "$T/raw.err")"
	pprof_cmd -sample_index=exceptions -top -nodecount=5 "$T/p.pb.gz" >"$T/exc.txt" 2>&1 ||
		flunk "pprof: $(cat "$T/exc.txt")"
	python3 - "$TRACE.jsonl" "$T/raw.txt" "$T/exc.txt" "$OUTPUT/refrt" <<'EOF'
import json, os, re, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"type":"event"')]
samples = [e for e in ev if e['provider'] == 'Microsoft-DotNETCore-SampleProfiler']
thrown = [e for e in ev if e['provider'] == 'Microsoft-Windows-DotNETRuntime' and e['id'] == 80
          and e['stack']]
pid = samples[0]['pid']
raw = open(sys.argv[2]).read()
assert 'PeriodType: cpu nanoseconds' in raw, raw[:300]
assert 'Period: 1001001' in raw, raw[:300]
assert 'samples/count[dflt] cpu/nanoseconds exceptions/count' in raw, raw[:400]
# every sample line's values: count, ns = count * period, exceptions
vals = re.findall(r'^\s+(\d+)\s+(\d+)\s+(\d+): [\d ]*$', raw, re.M)
assert sum(int(c) for c, _, _ in vals) == len(samples), (len(vals), len(samples))
assert all(int(ns) == int(c) * 1001001 for c, ns, _ in vals)
assert sum(int(x) for _, _, x in vals) == len(thrown), len(thrown)
labels = re.findall(r'pid:\[(\d+)\] tid:\[(\d+)\]', raw)
assert labels and {int(p) for p, _ in labels} == {pid}, set(labels)
assert {int(t) for _, t in labels} == {e['tid'] for e in samples + thrown}
assert raw.count('comm:[refrt]') == len(labels), 'comm label missing'
# locations: an address in a mapping whose file is refrt's
files = set(re.findall(r'^\s*\d+: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (\S+)', raw, re.M))
assert os.path.realpath(sys.argv[4]) in {os.path.realpath(f) for f in files if f.startswith('/')}, files
locs = re.findall(r'^\s*\d+: (0x[0-9a-f]+) M=(\d+) (.*)$', raw, re.M)
hot = [l for l in locs if 'RefApp.Workload.HotLoop' in l[2]]
assert hot and all(int(a, 16) and m != '0' for a, m, _ in hot), hot[:3]
exc = open(sys.argv[3]).read()
assert 'Total samples = %d' % len(thrown) in exc, exc
assert 'RefApp!RefApp.Exceptions.Level1' in exc, exc
print('samples %d, thrown %d, locations %d, mappings %d' % (len(samples), len(thrown), len(locs), len(files)))
EOF
}

@test "pprof: --event NAME is the one sample type NAME/count" {
	require_cmd go
	refrt_trace
	run "$EBPF_COLLECT" convert "$TRACE" --format pprof --event ContentionStart -o "$T/c.pb.gz"
	[[ $status -eq 0 ]] || flunk "convert: $output"
	pprof_cmd -raw "$T/c.pb.gz" >"$T/raw.txt" 2>&1 || flunk "pprof: $(cat "$T/raw.txt")"
	grep -q '^ContentionStart/count\[dflt\]$' "$T/raw.txt" || flunk "$(head -8 "$T/raw.txt")"
	local want got
	want=$(python3 -c '
import json, sys
print(sum(1 for l in open(sys.argv[1]) if l.startswith("{\"type\":\"event\"")
          and (e := json.loads(l))["provider"] == "Microsoft-Windows-DotNETRuntime"
          and e["id"] == 81 and e["stack"]))' "$TRACE.jsonl")
	got=$(awk '/^ +[0-9]+: [0-9 ]*$/ { n += $1 } END { print n + 0 }' "$T/raw.txt")
	echo "ContentionStart with stacks: $want, in the profile: $got"
	((want > 0)) || flunk "the trace has no ContentionStart with a stack"
	assert_equal "$got" "$want"
}

@test "chromium: validates against the format's schema; GC, contention and exception pairs and samples are the trace's" {
	refrt_trace
	run "$EBPF_COLLECT" convert "$TRACE" --format chromium -o "$T/c.json"
	[[ $status -eq 0 ]] || flunk "convert: $output"
	python3 - "$SCHEMA" "$T/c.json" "$TRACE.jsonl" <<'EOF'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
d = json.load(open(sys.argv[2]))
errors = list(jsonschema.Draft7Validator(schema).iter_errors(d))
assert not errors, [e.message for e in errors[:5]]
ev = [json.loads(l) for l in open(sys.argv[3]) if l.startswith('{"type":"event"')]
clr = lambda e, i: e['provider'] == 'Microsoft-Windows-DotNETRuntime' and e['id'] == i
# GCStart/GCEnd pairs: the GCEnd of the same Count in the process
gc_open, gc_pairs = {}, 0
for e in ev:
    if clr(e, 1):
        gc_open[(e['pid'], e['fields']['Count'])] = e
    elif clr(e, 2) and gc_open.pop((e['pid'], e['fields']['Count']), None):
        gc_pairs += 1
# ContentionStart -> the thread's next ContentionStop; ExceptionThrown ->
# the thread's next ExceptionCatchStop
def pairs(start, stop):
    open_, n = {}, 0
    for e in ev:
        if clr(e, start):
            open_[(e['pid'], e['tid'])] = e
        elif clr(e, stop) and open_.pop((e['pid'], e['tid']), None):
            n += 1
    return n
want = {'GC': gc_pairs, 'Contention': pairs(81, 91), 'Exception': pairs(80, 251)}
x = [e for e in d['traceEvents'] if e['ph'] == 'X']
got = {c: sum(1 for e in x if e['cat'] == c) for c in want}
print('pairs in the trace', want, 'complete events', got)
assert want['GC'] > 0 and want['Contention'] > 0 and want['Exception'] > 0, want
assert got == want, (got, want)
assert len(x) == sum(want.values())
gcs = sorted((e['pid'], e['args']['Count']) for e in x if e['cat'] == 'GC')
assert len(set(gcs)) == len(gcs), 'a GC written twice'
# instant events: every event but CPU samples, the Universal.Events cpu
# events (the same samples again) and the rundown provider's code-naming
# ones (ids 141-158)
skip = ('Microsoft-DotNETCore-SampleProfiler', 'Microsoft-Windows-DotNETRuntimeRundown')
code_named = lambda e: e['provider'] == skip[1] and 141 <= e['id'] <= 158
universal = [e for e in ev if e['provider'] == 'Universal.Events']
assert len(universal) == sum(1 for e in ev if e['provider'] == skip[0]), len(universal)
inst = [e for e in d['traceEvents'] if e['ph'] == 'i']
assert len(inst) == sum(1 for e in ev if e['provider'] not in (skip[0], 'Universal.Events')
                        and not code_named(e)), len(inst)
assert sum(1 for e in inst if e['name'] == 'GC/Start') == sum(1 for e in ev if clr(e, 1))
# samples: every CPU sample with a stack, its leaf frame named as report names it
cpu = [e for e in ev if e['provider'] == skip[0] and e['stack']]
assert len(d['samples']) == len(cpu), (len(d['samples']), len(cpu))
sf = d['stackFrames']
assert all(str(s['sf']) in sf for s in d['samples'])
assert all('parent' not in f or f['parent'] in sf for f in sf.values())
hot = sum(1 for s in d['samples'] if 'RefApp.Workload.HotLoop' in sf[str(s['sf'])]['name'])
assert hot * 4 >= len(cpu), 'HotLoop is the leaf of %d of %d samples' % (hot, len(cpu))
# names: the process and its threads from the kernel's process events
pid = cpu[0]['pid']
meta = [e for e in d['traceEvents'] if e['ph'] == 'M']
assert {'name': 'refrt (%d)' % pid} in [e['args'] for e in meta if e['name'] == 'process_name']
tids = {e['tid'] for e in ev if e['pid'] == pid and e['provider'] not in skip and e['tid']}
named = {e['tid'] for e in meta if e['name'] == 'thread_name' and e['args']['name'].startswith('refrt (')}
assert tids <= named, tids - named
print('instant %d, samples %d (HotLoop leaf %d), stack frames %d' % (len(inst), len(cpu), hot, len(sf)))
EOF
}

@test "chromium: a file missing a field the format requires fails the schema" {
	# the schema is a judge: it refuses what the format refuses
	printf '%s\n' '{"traceEvents":[{"ph":"X","name":"GC","ts":1,"pid":1,"tid":1}]}' >"$T/bad.json"
	printf '%s\n' '{"traceEvents":[{"ph":"M","name":"thread_name","pid":1,"args":{"name":"x"}}]}' >"$T/bad2.json"
	run python3 - "$SCHEMA" "$T/bad.json" "$T/bad2.json" <<'EOF'
import json, sys, jsonschema
v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
for f in sys.argv[2:]:
    errs = list(v.iter_errors(json.load(open(f))))
    print(f, [e.message for e in errs])
    assert errs, f + ' passed'
EOF
	echo "$output"
	assert_success
	assert_output_contains "'dur' is a required property"
	assert_output_contains "'tid' is a required property"
}

@test "convert pprof/chromium: -o - writes the same bytes to stdout; a garbage or cut trace and an unwritable -o exit 1 with one line" {
	refrt_trace
	local f
	for f in pprof chromium; do
		"$EBPF_COLLECT" convert "$TRACE" --format $f -o "$T/out.$f" || flunk "$f -o failed"
		"$EBPF_COLLECT" convert "$TRACE" --format $f -o - >"$T/stdout.$f" || flunk "$f -o - failed"
		cmp "$T/out.$f" "$T/stdout.$f" || flunk "$f: -o - differs from -o FILE"
		# not a trace: one line naming the file, exit 1, nothing written
		head -c 4096 /dev/urandom >"$T/garbage.nettrace"
		run --separate-stderr "$EBPF_COLLECT" convert "$T/garbage.nettrace" --format $f -o "$T/g.$f"
		assert_equal "$status" 1
		assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
		[[ $stderr == *"garbage.nettrace: offset 0: not a NetTrace file"* ]] || flunk "$f: $stderr"
		[[ ! -e $T/g.$f ]] || flunk "$f: an output for a garbage input"
		# cut mid-block: what was read is converted, one line says where, exit 1
		head -c $(($(stat -c %s "$TRACE") / 2)) "$TRACE" >"$T/cut.nettrace"
		run --separate-stderr "$EBPF_COLLECT" convert "$T/cut.nettrace" --format $f -o "$T/cut.$f"
		assert_equal "$status" 1
		assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
		[[ $stderr == *"cut.nettrace is damaged (offset "*"); converting what was read"* ]] ||
			flunk "$f: $stderr"
		[[ -s $T/cut.$f ]] || flunk "$f: nothing converted of the cut trace"
		# an -o that cannot be created: exit 1, one line
		run --separate-stderr "$EBPF_COLLECT" convert "$TRACE" --format $f -o "$T/no/such/dir/x"
		assert_equal "$status" 1
		assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
		[[ $stderr == *"cannot create output $T/no/such/dir/x: No such file or directory"* ]] ||
			flunk "$f: $stderr"
	done
	gzip -t "$T/cut.pprof"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/cut.chromium"
}
