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
	LIB=$OUTPUT/tests/libstriplib.so
	PROG=$OUTPUT/tests/striplib_prog
	DEBUG=$OUTPUT/tests/striplib-debug/libstriplib.debug
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
	python3 - "$T/strip.tl" <(func_starts) <<'PY' || flunk "names in TraceLog"
import collections, sys
starts = dict(l.split() for l in open(sys.argv[2]))
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
        if name == "striplib_run":
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
}
