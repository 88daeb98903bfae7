#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Native frames without symbols: tests/progs/striplib.c's libstriplib.so is
# stripped to its one export, its debug file kept aside.  A frame in one of
# its static functions is "libstriplib.so+0xSTART", START the function's
# first address from the unwind table, in TraceLog (tests/traceevent) and in
# our views alike.

load test_helper

setup_file() {
	export BATS_TEST_TIMEOUT=300
}

setup() {
	T=$BATS_TEST_TMPDIR
	# the symbol cache of these tests is theirs, not the machine's
	export XDG_CACHE_HOME=$T/cache
	unset DEBUGINFOD_URLS
	LIB=$OUTPUT/tests/libstriplib.so
	PROG=$OUTPUT/tests/striplib_prog
	DEBUG=$OUTPUT/tests/striplib-debug/libstriplib.debug
}

teardown() {
	kill_bg
}

need() {
	require_root
	require_btf
	require_tracecheck
	[[ -x $EBPF_COLLECT && -x $PROG && -f $DEBUG ]] || flunk "ebpf-collect or striplib_prog not built"
}

# func_starts: "0xSTART NAME" of the library's static functions, from the
# debug file the trace never saw
func_starts() {
	local addr type name
	nm "$DEBUG" | while read -r addr type name; do
		[[ $type == t && $name == striplib_spin_* ]] && printf '0x%x %s\n' "0x$addr" "$name"
	done
}

# plt_names: the names a sample in a PLT stub (.plt, .plt.got) may get, in
# the call to clock_gettime: "NAME@plt" for each function the library
# imports through its .rela.plt (x86-64 stubs are named so, as perf names
# them), and "libstriplib.so+0xSTART" of the sections (code with an
# unwind-table entry and no symbol in any file)
plt_names() {
	{
		readelf -SW "$LIB" | awk '$2 == ".plt" || $2 == ".plt.got" {print $4}' |
			while read -r a; do printf 'libstriplib.so+0x%x\n' "0x$a"; done
		readelf -rW "$LIB" | awk '$3 == "R_X86_64_JUMP_SLOT" {sub(/@.*/, "", $5); print $5 "@plt"}'
	} | paste -sd,
}

# named_by_debug_file NAME: every frame of libstriplib.so in TraceLog's
# stacks ($T/NAME.tl) and our report is named as the debug file names it
named_by_debug_file() {
	python3 - "$T/$1.tl" "$(plt_names)" <<'PY' || flunk "$1: TraceLog's names"
import collections, sys
plt = set(sys.argv[2].split(","))
seen, other = collections.Counter(), collections.Counter()
for line in open(sys.argv[1]):
    for f in line.rstrip("\n").split("\t"):
        mod, _, name = f.partition("!")
        name = name.lstrip(".")
        # _init: the library's own .init code (the debug file names it), which
        # a sample at load time lands in (once in a full run on a busy VM)
        if mod == "libstriplib.so" and name not in plt and name != "_init":
            (seen if name.startswith("striplib_") else other)[name] += 1
print(dict(seen), dict(other))
assert not other, other
want = {"striplib_run", "striplib_spin_a", "striplib_spin_b", "striplib_spin_c"}
assert set(seen) == want and min(seen.values()) >= 50, seen
PY
	run "$EBPF_COLLECT" report "$T/$1.nettrace"
	assert_success
	local f
	for f in a b c; do
		assert_output_contains "libstriplib.so!striplib_spin_$f"
	done
	local plt
	plt=$(plt_names)
	! grep -v -F -e "${plt//,/$'\n'}" <<<"$output" | grep -q 'libstriplib.so+0x' ||
		flunk "$1: a frame without its name: $output"
}

# trace_prog NAME: 1.5 s of CPU samples of striplib_prog into $T/NAME.nettrace,
# TraceLog's sample stacks into $T/NAME.tl, our folded stacks into $T/NAME.folded
trace_prog() {
	run --separate-stderr "$EBPF_COLLECT" -o "$T/$1.nettrace" --cpu-sampling "${@:2}" -- "$PROG" 1500
	assert_success
	tracecheck --min-named 0 --sample-stacks "$T/$1.tl" "$T/$1.nettrace" >/dev/null ||
		flunk "tracecheck failed on $1"
	"$EBPF_COLLECT" convert "$T/$1.nettrace" --format folded --kind-suffix -o "$T/$1.folded" ||
		flunk "convert failed"
}

@test "native names: a stripped library's functions are module+0xSTART in TraceLog and in our views" {
	need
	[[ -z $(nm "$LIB" 2>&1 | grep -v 'no symbols') ]] || flunk "$LIB is not stripped"
	trace_prog strip
	# our views give the library's frames TraceLog's names, sample by sample
	run python3 "$BATS_TEST_DIRNAME/sample_names.py" "$T/strip.tl" "$T/strip.folded" \
		--modules libstriplib.so
	echo "$output"
	assert_success
	# every frame in the library: its export, or one of the three static
	# functions at its start address; each of them has samples
	python3 - "$T/strip.tl" <(func_starts) "$(plt_names)" <<'PY' || flunk "names in TraceLog"
import collections, sys
starts = dict(l.split() for l in open(sys.argv[2]))
plt = set(sys.argv[3].split(","))
assert len(starts) == 3, starts
seen, other = collections.Counter(), collections.Counter()
for line in open(sys.argv[1]):
    for f in line.rstrip("\n").split("\t"):
        mod, _, name = f.partition("!")
        if mod.startswith("?") or name.startswith("?"):
            other["unnamed " + f] += 1
        if mod != "libstriplib.so":
            continue
        name = name.lstrip(".")
        if name == "striplib_run" or name in plt:
            continue
        off = name.rpartition("+")[2]
        if not name.startswith("libstriplib.so+0x") or off not in starts:
            other[name] += 1
        else:
            seen[starts[off]] += 1
print(dict(seen), dict(other))
assert not other, other
assert set(seen) == set(starts.values()) and min(seen.values()) >= 50, seen
PY
	run "$EBPF_COLLECT" report "$T/strip.nettrace"
	assert_success
	local off name
	while read -r off name; do
		assert_output_contains "libstriplib.so!libstriplib.so+$off"
	done < <(func_starts)
	[[ $output != *'[unknown]'* ]] || flunk "report: an unnamed frame: $output"
}

@test "native names: TraceLog sees every mapping a stack touched with its ELF build id (Universal.System)" {
	need
	trace_prog maps
	tracecheck --json --module-files --min-named 0 "$T/maps.nettrace" >"$T/maps.json" ||
		flunk "tracecheck: $(cat "$T/maps.json")"
	local lib_id prog_id libc libc_id
	lib_id=$(readelf -n "$LIB" | awk '/Build ID/ {print $3}')
	prog_id=$(readelf -n "$PROG" | awk '/Build ID/ {print $3}')
	libc=$(awk '$6 ~ /\/libc\.so\.6$/ {print $6; exit}' /proc/self/maps)
	libc=$(readlink -f "$libc")
	libc_id=$(readelf -n "$libc" | awk '/Build ID/ {print $3}')
	[[ -n $lib_id && -n $prog_id && -n $libc_id ]] || flunk "no build ids: '$lib_id' '$prog_id' '$libc_id'"
	run python3 - "$T/maps.json" "$(readlink -f "$LIB")=$lib_id" "$(readlink -f "$PROG")=$prog_id" \
		"$libc=$libc_id" <<'PY'
import json, os, sys
j = json.load(open(sys.argv[1]))
files = j["tracelog"]["module_files"]
by_path = {}
for f in files:
    if f["build_id"]:
        by_path.setdefault(os.path.realpath(f["path"]), set()).add(f["build_id"])
print(json.dumps(by_path, default=sorted))
for want in sys.argv[2:]:
    path, bid = want.split("=")
    assert by_path.get(path) == {bid}, (path, bid, by_path.get(path))
ev = j["by_event"]
assert ev.get("Universal.System/ProcessMapping", 0) >= 3, ev
assert ev.get("Universal.System/ProcessMappingMetadata", 0) >= 3, ev
PY
	echo "$output"
	assert_success
	# our pprof's mappings carry them too, as go tool pprof reads them
	require_cmd go
	"$EBPF_COLLECT" convert "$T/maps.nettrace" --format pprof -o "$T/maps.pb.gz" || flunk "pprof"
	run go tool pprof -raw "$T/maps.pb.gz"
	assert_success
	grep -qE "^[0-9]+: 0x[0-9a-f/x]+ $(readlink -f "$LIB") $lib_id " <<<"$output" ||
		flunk "no mapping of $LIB with $lib_id: $(sed -n '/^Mappings/,$p' <<<"$output")"
	grep -qE "^[0-9]+: 0x[0-9a-f/x]+ $(readlink -f "$PROG") $prog_id " <<<"$output" ||
		flunk "no mapping of $PROG with $prog_id"
}

@test "native names: a local SSQP symbol store (--symbols DIR) names the stripped library's functions" {
	need
	local id
	id=$(readelf -n "$LIB" | awk '/Build ID/ {print $3}')
	mkdir -p "$T/store/_.debug/elf-buildid-sym-$id"
	cp "$DEBUG" "$T/store/_.debug/elf-buildid-sym-$id/_.debug"
	trace_prog store --symbols "$T/store"
	named_by_debug_file store
	# an unusable --symbols item is refused before anything is traced
	run "$EBPF_COLLECT" -o "$T/x.nettrace" --symbols "relative/store" -- true
	[[ $status -eq 64 ]] || flunk "status $status: $output"
	assert_output_contains "--symbols: 'relative/store' is neither an absolute directory nor an http(s):// URL"
	[[ ! -e $T/x.nettrace ]] || flunk "a trace was written"
}

@test "native names: an SSQP symbol server (--symbols URL) names them at the end of the trace" {
	need
	local id port
	id=$(readelf -n "$LIB" | awk '/Build ID/ {print $3}')
	mkdir -p "$T/www/_.debug/elf-buildid-sym-$id"
	cp "$DEBUG" "$T/www/_.debug/elf-buildid-sym-$id/_.debug"
	port=$(free_port)
	bg "$T/http.log" python3 -m http.server --bind 127.0.0.1 --directory "$T/www" "$port"
	wait_until 20 curl -sf -o /dev/null "http://127.0.0.1:$port/_.debug/elf-buildid-sym-$id/_.debug" ||
		flunk "the HTTP server did not start: $(cat "$T/http.log.err")"
	trace_prog url --symbols "http://127.0.0.1:$port"
	named_by_debug_file url
	[[ -s $XDG_CACHE_HOME/ebpf-collect/symbols/$id.debug ]] || flunk "not in the cache"
}

@test "native names: debuginfod on loopback names them at the end of the trace, then the cache without it" {
	need
	require_cmd debuginfod curl
	local port di
	port=$(free_port)
	mkdir -p "$T/di"
	cp "$DEBUG" "$T/di/"
	bg "$T/debuginfod.log" debuginfod -p "$port" -F "$T/di" -d "$T/di.sqlite" -t 1
	di=$LAST_PID
	# it serves a build id once its scan has indexed the file
	wait_until 60 bash -c "curl -sf --max-time 2 http://127.0.0.1:$port/metrics |
		grep -q '^scanned_files_total{source=\"file\"} [1-9]'" ||
		flunk "debuginfod did not scan $T/di: $(cat "$T/debuginfod.log.err")"
	export DEBUGINFOD_URLS=http://127.0.0.1:$port
	trace_prog di
	named_by_debug_file di
	local id
	id=$(readelf -n "$LIB" | awk '/Build ID/ {print $3}')
	[[ -s $XDG_CACHE_HOME/ebpf-collect/symbols/$id.debug ]] || flunk "not in the cache"
	# the server gone (and its client's own cache too): ours names them
	kill "$di"
	wait "$di" 2>/dev/null || true
	rm -rf "$XDG_CACHE_HOME/debuginfod_client"
	trace_prog cached
	named_by_debug_file cached
}

@test "native names: MiniDebugInfo (.gnu_debugdata) names the functions .dynsym lacks" {
	need
	require_cmd xz objcopy nm comm
	# the library as distributions that embed MiniDebugInfo ship it: the
	# functions .dynsym lacks, in an xz-compressed ELF of their own
	mkdir -p "$T/mini"
	cp "$PROG" "$T/mini/"
	nm -D --format=posix --defined-only "$LIB" | awk '{print $1}' | sort >"$T/dyn"
	nm --format=posix --defined-only "$DEBUG" | awk '$2 ~ /^[Tt]$/ {print $1}' | sort >"$T/funcs"
	comm -13 "$T/dyn" "$T/funcs" >"$T/keep"
	objcopy -S --keep-symbols="$T/keep" "$DEBUG" "$T/mini.elf"
	xz -k "$T/mini.elf"
	objcopy --add-section .gnu_debugdata="$T/mini.elf.xz" "$LIB" "$T/mini/libstriplib.so"
	PROG=$T/mini/striplib_prog trace_prog mini
	named_by_debug_file mini
}

@test "native names: a symbol server that never answers delays the end of a trace by at most its 5 s" {
	need
	local port t0 t1
	port=$(free_port)
	# accepts connections and never answers
	bg "$T/silent.log" python3 -c 'import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(16)
print("listening", flush=True)
held = []
while True:
    held.append(s.accept()[0])' "$port"
	wait_for_grep listening "$T/silent.log" 10 || flunk "the silent server did not start"
	t0=$(date +%s%N)
	trace_prog silent --symbols "http://127.0.0.1:$port"
	t1=$(date +%s%N)
	echo "# collector with a silent server: $(((t1 - t0) / 1000000)) ms (1.5 s traced)" >&3
	# 1.5 s of tracing, at most 5 s for the server, the rest start and stop
	(((t1 - t0) / 1000000 < 1500 + 5000 + 4000)) || flunk "took $(((t1 - t0) / 1000000)) ms"
	# the trace is whole, its frames named as without the server
	run python3 "$BATS_TEST_DIRNAME/sample_names.py" "$T/silent.tl" "$T/silent.folded" \
		--modules libstriplib.so
	assert_success
	grep -q 'libstriplib.so!libstriplib.so+0x' "$T/silent.folded" || flunk "no library frame"
}

@test "native names: symbolize TRACE DIR names an existing trace's frames once a store has the debug file" {
	need
	local id out
	trace_prog before
	grep -q 'libstriplib.so!libstriplib.so+0x' "$T/before.folded" || flunk "named before the store"
	id=$(readelf -n "$LIB" | awk '/Build ID/ {print $3}')
	mkdir -p "$T/store/_.debug/elf-buildid-sym-$id"
	cp "$DEBUG" "$T/store/_.debug/elf-buildid-sym-$id/_.debug"
	run --separate-stderr "$EBPF_COLLECT" symbolize "$T/before.nettrace" "$T/out" --symbols "$T/store"
	assert_success
	# the library's three functions named; left as they were the other
	# FILE+0xSTART ranges of the samples, which no debug file in the
	# store names: the library's PLT stubs, or the dynamic loader's code a
	# sample of the program's start lands in
	# The file's FILE+0xSTART ranges are counted from its method events,
	# what `symbolize` counts; every folded range must be one of them.
	local ranges events
	ranges=$(grep -oh '[^;]*+0x[0-9a-f]*' "$T/before.folded" | sed 's/^[^!]*!//' | sort -u)
	events=$("$EBPF_COLLECT" dump --json "$T/before.nettrace" |
		grep -o '"event":"MethodDCEndVerbose_V1".*"MethodName":"[^"]*+0x[0-9a-f]*"' |
		grep -o '"MethodName":"[^"]*"' | sed 's/"MethodName":"//; s/"$//' | sort)
	echo "# FILE+0xSTART ranges in the samples: $(paste -sd' ' <<<"$ranges"); in the file: $(paste -sd' ' <<<"$events")" >&3
	[[ -z $(comm -23 <(echo "$ranges") <(echo "$events" | sort -u)) ]] ||
		flunk "folded ranges not in the file: $(comm -23 <(echo "$ranges") <(echo "$events" | sort -u))"
	# named: the library's ranges that start at a function of its debug
	# file (its three functions, and _init or the like when a sample of
	# its loading lands there); left: the rest
	local named
	named=$(grep -o '^libstriplib\.so+0x[0-9a-f]*' <<<"$events" | sed 's/.*+0x//' |
		grep -Fxc -f <(nm "$DEBUG" | awk '$2 ~ /^[tTwW]$/ { print $1 }' | sed 's/^0*//'))
	((named >= 3)) || flunk "the library's three functions are not among the file's ranges: $events"
	[[ $output == "1 files in $T/out; $named native ranges named, $(($(wc -l <<<"$events") - named)) left as FILE+0xSTART" ]] ||
		flunk "$output"
	out=$(echo "$T"/out/*.nettrace)
	[[ -f $out ]] || flunk "no file in $T/out"
	cp "$out" "$T/after.nettrace"
	tracecheck --min-named 0 --sample-stacks "$T/after.tl" "$T/after.nettrace" >/dev/null ||
		flunk "tracecheck failed on the re-named trace"
	named_by_debug_file after
	# the same samples, stack for stack, as the trace it came from
	"$EBPF_COLLECT" convert "$T/after.nettrace" --format folded --kind-suffix -o "$T/after.folded"
	[[ $(awk '{n += $NF} END {print n}' "$T/after.folded") == \
	   $(awk '{n += $NF} END {print n}' "$T/before.folded") ]] || flunk "sample counts differ"
	run "$EBPF_COLLECT" symbolize "$T/before.nettrace"
	[[ $status -eq 64 ]] || flunk "usage: status $status"
}
