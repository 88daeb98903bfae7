#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# usdt-gen: the full real manifest (counts, compile, one semaphore-guarded
# 5-byte-nop probe per event), the project manifest (golden files), and the
# one-line errors for bad input.

load test_helper

setup_file() {
	[[ -x $USDT_GEN ]] || return 0
	# Generate and compile the real manifest once; the tests below inspect it.
	local d=$BATS_FILE_TMPDIR/real
	mkdir -p "$d"
	"$USDT_GEN" "$MANIFEST_REAL" -o "$d" --emit-caller >"$d/stdout" 2>"$d/stderr"
	echo $? >"$d/gen.rc"
	cc -O2 -Wall -Wextra -Werror -std=gnu11 -I"$d" -I"$ROOT/usdt" \
		"$d/clretw_provider.c" "$d/clretw_events.c" "$d/clretw_caller.c" \
		-o "$d/caller" >"$d/cc.log" 2>&1
	echo $? >"$d/cc.rc"
}

setup() {
	[[ -x $USDT_GEN ]] || flunk "usdt-gen not built (run make)"
	require_shared
	REAL=$BATS_FILE_TMPDIR/real
}

@test "usdt-gen prints the README's per-provider counts for ClrEtwAll.man" {
	[[ $(cat "$REAL/gen.rc") == 0 ]] || flunk "usdt-gen failed: $(cat "$REAL/stderr")"
	run cat "$REAL/stdout"
	assert_line "Microsoft-Windows-DotNETRuntime (usdt provider DotNETRuntime): 197 events, 127 templates, 708 fields"
	assert_line "Microsoft-Windows-DotNETRuntimeRundown (usdt provider DotNETRuntimeRundown): 46 events, 22 templates, 151 fields"
	assert_line "Microsoft-Windows-DotNETRuntimeStress (usdt provider DotNETRuntimeStress): 3 events, 3 templates, 12 fields"
	assert_line "Microsoft-Windows-DotNETRuntimePrivate (usdt provider DotNETRuntimePrivate): 184 events, 57 templates, 222 fields"
	assert_line "total: 4 providers, 430 events, 209 templates, 1093 fields -> $REAL"
	assert_line "templates: 8 with more than 12 fields (most: 25), 82 with UnicodeString, 11 with structs, 12 with count/length-sized fields"
	[[ ! -s $REAL/stderr ]] || flunk "stderr not empty: $(cat "$REAL/stderr")"
}

@test "ClrEtwAll.man output compiles with -Wall -Wextra -Werror and calls every FireEtXplat" {
	[[ $(cat "$REAL/cc.rc") == 0 ]] || flunk "compile failed: $(head -40 "$REAL/cc.log")"
	# every event has its Fire function defined, and the caller calls each once
	run bash -c "nm --defined-only '$REAL/caller' | grep -c ' T FireEtXplat'"
	assert_success "430"
	run bash -c "grep -c 'failed += FireEtXplat' '$REAL/clretw_caller.c'"
	assert_success "430"
	run bash -c "grep -o 'FireEtXplat[A-Za-z0-9_]*(' '$REAL/clretw_caller.c' | sort -u | wc -l"
	assert_success "430"
	# semaphores at 0: every call returns at once
	run "$REAL/caller"
	assert_success
	# every semaphore raised: all 430 events serialize (null/zero arguments) and fire
	run "$REAL/caller" all
	assert_success
}

@test "ClrEtwAll.man binary: 430 event notes + the batch probe, each with a semaphore, each site a 5-byte nop" {
	[[ -x $REAL/caller ]] || flunk "caller did not compile (see previous test)"
	run bash -c "readelf -n '$REAL/caller' | grep -c 'NT_STAPSDT'"
	assert_success "431"
	run bash -c "readelf -n '$REAL/caller' | grep 'Semaphore:' | grep -vc 'Semaphore: 0x0000000000000000'"
	assert_success "431"
	run bash -c "readelf -n '$REAL/caller' | grep -A1 'Provider: clretw$' | grep -c 'Name: batch'"
	assert_success "1"
	run python3 "$ROOT/tests/usdt_notes.py" "$REAL/caller"
	assert_success
	assert_line "probes 431 unique 431 with-semaphore 431 semaphore-in-.probes 431 nop5-sites 431"
	# provider names are the short ones; probe names are the event symbols
	assert_output_contains "DotNETRuntime:GCStart_V2 "
	assert_output_contains "DotNETRuntimeRundown:MethodDCEndVerbose_V2 "
	assert_output_contains "DotNETRuntimePrivate:GCDecision "
	assert_output_contains "DotNETRuntimeStress:StressLogEvent_V1 "
	# probe arguments: payload pointer, u32 length, activity id, related activity id
	run bash -c "python3 '$ROOT/tests/usdt_notes.py' '$REAL/caller' | grep -c ' args=8@[^ ]* 4@[^ ]* 8@[^ ]* 8@[^ ]*\$'"
	assert_success "430"
}

@test "ClrEtwAll.man: every event's payload decodes with the generated table to its own length" {
	local b=$BATS_TEST_TMPDIR/rt
	mkdir -p "$b"
	local flags=(-O1 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -I"$REAL" -I"$ROOT/usdt"
		     -I"$ROOT/common" -I"$ROOT/tests/unit")
	cc "${flags[@]}" -DCLRETW_TEST_HOOK=roundtrip_hook -c "$REAL/clretw_provider.c" -o "$b/p.o" &&
	cc "${flags[@]}" -Dmain=caller_main -c "$REAL/clretw_caller.c" -o "$b/c.o" &&
	cc "${flags[@]}" "$ROOT/tests/unit/test_usdt_roundtrip.c" "$REAL/clretw_events.c" \
		"$ROOT/usdt/event_decode.c" "$ROOT/common/utf16.c" "$b/p.o" "$b/c.o" -o "$b/roundtrip" ||
		flunk "roundtrip test does not build against ClrEtwAll.man"
	run "$b/roundtrip"
	assert_success
	assert_line "# 430 events of ClrEtwAll.man fired and decoded"
	assert_line "ok 1 - test_every_event_roundtrips"
}

@test "ClrEtwAll.man: fixed-size struct arrays, ClrStackWalk frames and count=\"1\" fields" {
	local b=$BATS_TEST_TMPDIR/st
	mkdir -p "$b"
	cat >"$b/t.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "clretw_provider.h"
static unsigned int last_len;
static unsigned char last[256];
void hook(const char *p, const char *s, const void *b, unsigned int l, const GUID *a, const GUID *r);
void hook(const char *p, const char *s, const void *b, unsigned int l, const GUID *a, const GUID *r)
{
	(void)p; (void)s; (void)a; (void)r;
	last_len = l;
	memcpy(last, b, l < sizeof(last) ? l : sizeof(last));
}
int main(void)
{
	/* GCBulkNode: 2 packed elements of 4 x 8 bytes */
	unsigned char nodes[64] = { 0xaa };
	const void *frames[3] = { (void *)0x10, (void *)0x20, (void *)0x30 };
	ULONG rc;

	DotNETRuntime_GCBulkNode_semaphore = 1;
	rc = FireEtXplatGCBulkNode(0, 2, 1, 31, nodes);
	printf("bulknode-bad-size rc=%lu\n", (unsigned long)rc);
	rc = FireEtXplatGCBulkNode(0, 2, 1, 32, nodes);
	printf("bulknode rc=%lu len=%u first=%02x\n", (unsigned long)rc, last_len, last[10]);
	/* ClrStackWalk writes FrameCount frames, not the manifest's placeholder 2 */
	DotNETRuntime_CLRStackWalk_semaphore = 1;
	FireEtXplatCLRStackWalk(1, 0, 0, 3, frames);
	printf("stackwalk len=%u last=%02x\n", last_len, last[8 + 16]);
	/* count="1" is a scalar */
	DotNETRuntimeRundown_ModuleRangeDCStart_semaphore = 1;
	FireEtXplatModuleRangeDCStart(1, 2, 3, 4, 5);
	printf("modulerange len=%u\n", last_len);
	return 0;
}
EOF
	cc -O2 -Wall -Wextra -Werror -std=gnu11 -I"$REAL" -DCLRETW_TEST_HOOK=hook \
		"$b/t.c" "$REAL/clretw_provider.c" -o "$b/t" || flunk "does not build"
	run "$b/t"
	assert_success
	assert_line "bulknode-bad-size rc=87"
	assert_line "bulknode rc=0 len=74 first=aa"
	assert_line "stackwalk len=32 last=30"
	assert_line "modulerange len=19"
}

@test "project manifest: one probe per event + the batch probe, with semaphore and 5-byte nop (usdt_demo)" {
	[[ -x $OUTPUT/tests/usdt_demo ]] || flunk "usdt_demo not built"
	run python3 "$ROOT/tests/usdt_notes.py" "$OUTPUT/tests/usdt_demo"
	assert_success
	local n
	n=$(($(grep -c '<event ' "$MANIFEST") + 1))	# + clretw:batch
	assert_line "probes $n unique $n with-semaphore $n semaphore-in-.probes $n nop5-sites $n"
	[[ $output == *"clretw:batch "*"site=0f1f440000"* ]] || flunk "no clretw:batch probe"
}

@test "golden files: project manifest output is unchanged (regenerate: scripts/regen-golden.sh)" {
	local d=$BATS_TEST_TMPDIR/gen f
	run "$USDT_GEN" "$MANIFEST" -o "$d" --emit-caller
	assert_success
	echo "${output//$d/OUTDIR}" >"$d/usdt-gen.stdout"
	for f in clretw_provider.h clretw_provider.c clretw_events.c clretw_caller.c usdt-gen.stdout; do
		run diff -u "$ROOT/tests/golden/usdt/$f" "$d/$f"
		[[ $status -eq 0 ]] || flunk "golden file $f differs:"$'\n'"$output"
	done
	# deterministic: a second run into another directory is byte-identical
	run "$USDT_GEN" "$MANIFEST" -o "$d/again" --emit-caller
	assert_success
	for f in clretw_provider.h clretw_provider.c clretw_events.c clretw_caller.c; do
		cmp "$d/$f" "$d/again/$f" || flunk "$f differs between runs"
	done
	grep -q '^/\* generated from clr-events.man by usdt-gen v1, do not edit \*/$' \
		"$d/clretw_provider.h" || flunk "banner missing"
}

@test "names table: usdt/clr_event_names.c is what usdt-gen --table writes from the CLR manifest (make event-names)" {
	require_shared
	local d=$BATS_TEST_TMPDIR/names
	mkdir -p "$d"
	run "$USDT_GEN" --table "$d/clr_event_names.c" --name clr_names \
		"$ROOT/usdt/clr-events-newer.man" "$MANIFEST_REAL"
	assert_success
	run diff -u "$ROOT/usdt/clr_event_names.c" "$d/clr_event_names.c"
	[[ $status -eq 0 ]] || flunk "usdt/clr_event_names.c is stale (make event-names):"$'\n'"$output"
	# every event of the CLR manifest is in it, with TraceEvent's name
	local n
	n=$(grep -c '<event ' "$MANIFEST_REAL")
	(($(grep -c '\.symbol = ' "$d/clr_event_names.c") >= n)) || flunk "fewer than $n events"
	grep -q '\.symbol = "GCStart_V2", \.name = "GC/Start",' "$d/clr_event_names.c" || flunk "GCStart_V2"
	grep -q '\.symbol = "GCGenerationRange", \.name = "GC/GenerationRange",' "$d/clr_event_names.c" ||
		flunk "GCGenerationRange"
	grep -q '\.symbol = "MethodDCEndVerbose_V1", \.name = "Method/DCStopVerbose",' \
		"$d/clr_event_names.c" || flunk "MethodDCEndVerbose_V1"
	# only ids, versions, names and layouts: no keywords, levels or messages
	! grep -q '\.keywords\|\.level\|\.map = \|message' "$d/clr_event_names.c" ||
		flunk "more than names and layouts"
}

@test "names table: usdt-gen --table refuses a bad manifest and leaves no file" {
	local d=$BATS_TEST_TMPDIR/bad
	mkdir -p "$d"
	printf '<instrumentationManifest><events><provider name="X" guid="{00000000-0000-0000-0000-000000000001}">\n<events><event value="1" symbol="A" task="nope"/></events></provider></events></instrumentationManifest>\n' >"$d/bad.man"
	run "$USDT_GEN" --table "$d/out.c" "$d/bad.man"
	[[ $status -eq 1 ]] || flunk "status $status: $output"
	assert_output_contains "bad.man:2: event A: task \"nope\" is not defined"
	[[ ! -e $d/out.c ]] || flunk "a table was written"
	run "$USDT_GEN" --table "$d/out.c"
	[[ $status -eq 64 ]] || flunk "no manifest: status $status"
}

@test "the generated provider also builds with clang and as a shared object (-fPIC)" {
	require_cmd clang
	local d=$BATS_TEST_TMPDIR/pic
	run "$USDT_GEN" "$MANIFEST" -o "$d"
	assert_success
	clang -O2 -Wall -Wextra -Werror -std=gnu11 -fPIC -shared -I"$d" "$d/clretw_provider.c" \
		-o "$d/libprov.so" || flunk "clang -fPIC -shared failed"
	run python3 "$ROOT/tests/usdt_notes.py" "$d/libprov.so"
	assert_success
	local n
	n=$(($(grep -c '<event ' "$MANIFEST") + 1))	# + clretw:batch
	assert_line "probes $n unique $n with-semaphore $n semaphore-in-.probes $n nop5-sites $n"
	[[ $output == *"clretw:batch "*"site=0f1f440000"* ]] || flunk "no clretw:batch probe"
	# C++ runtimes can include the header
	printf '#include "clretw_provider.h"\nint f(void) { return EventXplatEnabledGCStart_V2() + (int)FireEtXplatGCStart_V2(1, 2, 3, 4, 5, 6); }\n' >"$d/x.cc"
	if command -v g++ >/dev/null; then
		g++ -Wall -Wextra -Werror -I"$d" -c "$d/x.cc" -o "$d/x.o" || flunk "g++ failed"
	fi
}

@test "--name sets the prefix of files and symbols" {
	local d=$BATS_TEST_TMPDIR/named
	run "$USDT_GEN" "$MANIFEST" -o "$d" --name demo
	assert_success
	[[ -f $d/demo_provider.h && -f $d/demo_provider.c && -f $d/demo_events.c ]] ||
		flunk "files: $(ls "$d")"
	grep -q '^const struct ect_table demo_event_table = {' "$d/demo_events.c" ||
		flunk "no demo_event_table"
	cc -O2 -Wall -Wextra -Werror -std=gnu11 -I"$d" -I"$ROOT/usdt" -c "$d/demo_provider.c" \
		-o "$d/p.o" || flunk "demo_provider.c does not compile"
}

@test "usage errors exit 64" {
	run "$USDT_GEN"
	[[ $status -eq 64 ]] || flunk "status $status"
	run "$USDT_GEN" "$MANIFEST"
	[[ $status -eq 64 ]] || flunk "status $status"
	run "$USDT_GEN" "$MANIFEST" -o "$BATS_TEST_TMPDIR/x" --name 9bad
	[[ $status -eq 64 ]] || flunk "status $status"
}

# --- bad input: one line "usdt-gen: FILE:LINE: problem", exit 1, nothing written ---

# A small valid manifest; the tests break one line of it with sed.
write_manifest() {
	cat >"$1" <<'EOF'
<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">
 <instrumentation>
  <events>
   <provider name="Microsoft-Windows-Test" guid="{01234567-89ab-cdef-0123-456789abcdef}" symbol="T">
    <keywords>
     <keyword name="K" mask="0x1"/>
    </keywords>
    <tasks>
     <task name="Work" value="1"/>
    </tasks>
    <templates>
     <template tid="Tmpl">
      <data name="Count" inType="win:UInt16"/>
      <data name="Items" inType="win:UInt32" count="Count"/>
      <data name="Size" inType="win:UInt32"/>
      <data name="Blob" inType="win:Binary" length="Size"/>
     </template>
    </templates>
    <events>
     <event symbol="First" value="1" version="0" level="win:Informational" template="Tmpl" keywords="K" task="Work" opcode="win:Start"/>
     <event symbol="Second" value="2" version="0" level="win:Verbose" template="Tmpl" keywords="K" task="Work" opcode="win:Stop"/>
    </events>
   </provider>
  </events>
 </instrumentation>
</instrumentationManifest>
EOF
}

# expect_error SED-EXPR LINE MESSAGE: break the manifest, check the one error line
expect_error() {
	local m=$BATS_TEST_TMPDIR/bad.man out=$BATS_TEST_TMPDIR/out
	write_manifest "$m"
	sed -i "$1" "$m"
	mkdir -p "$out"
	run --separate-stderr "$USDT_GEN" "$m" -o "$out"
	[[ $status -eq 1 ]] || flunk "status $status, stderr: $stderr"
	[[ -z $output ]] || flunk "stdout not empty: $output"
	[[ ${#stderr_lines[@]} -eq 1 ]] || flunk "expected one stderr line, got: $stderr"
	assert_equal "$stderr" "usdt-gen: $m:$2: $3"
	[[ -z $(ls -A "$out") ]] || flunk "output left behind: $(ls -A "$out")"
}

@test "the valid test manifest generates (baseline for the error cases)" {
	local m=$BATS_TEST_TMPDIR/ok.man
	write_manifest "$m"
	run "$USDT_GEN" "$m" -o "$BATS_TEST_TMPDIR/out"
	assert_success
	assert_line "Microsoft-Windows-Test (usdt provider Test): 2 events, 1 templates, 4 fields"
}

@test "bad input: malformed XML names expat's line" {
	expect_error '14s|<data name="Items" inType="win:UInt32" count="Count"/>|<data name="Items" inType="win:UInt32" count="Count">|' \
		17 "malformed XML: mismatched tag"
}

@test "bad input: unknown inType" {
	expect_error '15s|win:UInt32|win:UInt24|' 15 'unknown inType "win:UInt24" of field Size'
}

@test "bad input: template reference that does not resolve" {
	expect_error '21s|template="Tmpl"|template="Nope"|' 21 \
		'event Second: template "Nope" is not defined in provider Microsoft-Windows-Test'
}

@test "bad input: count that does not name an earlier field" {
	expect_error '14s|count="Count"|count="Size"|' 14 \
		'count="Size" of field Items does not name an earlier field'
}

@test "bad input: length that does not name an earlier field" {
	expect_error '16s|length="Size"|length="Bytes"|' 16 \
		'length="Bytes" of field Blob does not name an earlier field'
}

@test "bad input: duplicate event id and version in a provider" {
	expect_error '21s|value="2"|value="1"|' 21 \
		'duplicate event id 1 version 0 in provider Microsoft-Windows-Test (First at line 20, Second here)'
}

@test "bad input: a count or length naming a non-integer field" {
	expect_error '16s|length="Size"|length="Items"|' 16 \
		'length="Items" of field Blob names an array, not a single integer'
	rm -f "$BATS_TEST_TMPDIR/bad.man"
	expect_error '13s|win:UInt16|win:Double|' 14 \
		'count="Count" of field Items names a field of type win:Double, not an integer'
}

@test "bad input: an array of strings (not expressible as a CoreCLR argument)" {
	expect_error '14s|win:UInt32|win:UnicodeString|' 14 \
		'field Items: arrays of win:UnicodeString are not supported'
}

@test "bad input: missing file" {
	run --separate-stderr "$USDT_GEN" "$BATS_TEST_TMPDIR/none.man" -o "$BATS_TEST_TMPDIR/out"
	[[ $status -eq 1 ]] || flunk "status $status"
	assert_equal "$stderr" "usdt-gen: $BATS_TEST_TMPDIR/none.man: cannot open: No such file or directory"
	[[ ! -e $BATS_TEST_TMPDIR/out ]] || flunk "output directory created"
}

@test "bad input: an event symbol used twice" {
	expect_error '21s|symbol="Second"|symbol="First"|' 21 \
		'duplicate event symbol First (first at line 20)'
}

# many_events FILE N [DUP]: a manifest of N events, each with its own
# template; DUP=1 gives the last event the first one's symbol.
many_events() {
	python3 - "$@" >"$1" <<'PY'
import sys
n, dup = int(sys.argv[2]), len(sys.argv) > 3
print('<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events">')
print(' <instrumentation><events>')
print('  <provider name="Microsoft-Windows-Many" guid="{01234567-89ab-cdef-0123-456789abcdef}" symbol="M">')
print('   <keywords><keyword name="K" mask="0x1"/></keywords>')
print('   <templates>')
for i in range(n):
    print('    <template tid="T%d"><data name="V" inType="win:UInt32"/></template>' % i)
print('   </templates>')
print('   <events>')
for i in range(n):
    sym = "Ev0" if dup and i == n - 1 else "Ev%d" % i
    print('    <event symbol="%s" value="%d" version="%d" level="win:Informational" '
          'template="T%d" keywords="K" opcode="win:Info"/>' % (sym, i % 65536, i // 65536, i))
print('   </events>')
print('  </provider>')
print(' </events></instrumentation>')
print('</instrumentationManifest>')
PY
}

# The duplicate checks and name lookups are hash sets (common/index_set.h):
# 60,000 events took 28 s when they compared every pair.
@test "a manifest of 60,000 events and templates generates; a duplicate symbol at its end is found" {
	local m=$BATS_TEST_TMPDIR/many.man out=$BATS_TEST_TMPDIR/out
	many_events "$m" 60000
	mkdir -p "$out"
	run "$USDT_GEN" "$m" -o "$out"
	assert_success
	assert_line "Microsoft-Windows-Many (usdt provider Many): 60000 events, 60000 templates, 60000 fields"
	[[ $(grep -c "FireEtXplatEv[0-9]*(" "$out/clretw_provider.h") -eq 60000 ]] ||
		flunk "not every event has its FireEtXplat function"
	many_events "$m" 60000 dup
	run --separate-stderr "$USDT_GEN" "$m" -o "$BATS_TEST_TMPDIR/out2"
	[[ $status -eq 1 ]] || flunk "status $status, stderr: $stderr"
	assert_equal "$stderr" "usdt-gen: $m:120007: duplicate event symbol Ev0 (first at line 60008)"
}
