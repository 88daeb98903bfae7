#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Hostile input for the readers: the trace readers (dump, report,
# convert, split) and the perf-map reader must refuse what is not what it
# claims at once, with one line naming the file and the cause and a
# documented exit status, and never read until memory runs out: /dev/zero,
# /dev/urandom, 8 GiB sparse files, a block length of 4 GiB, a pipe that
# never ends, a 16 GiB sparse /tmp/perf-PID.map.  Each command runs under a
# deadline (timeout) and its peak RSS is measured (/usr/bin/time %M).

load test_helper

MAGIC='offset 0: not a NetTrace file (no "Nettrace" magic)'
MAX_KB=102400	# 100 MiB

setup() {
	[[ -x $EBPF_COLLECT ]] || flunk "ebpf-collect not built ($EBPF_COLLECT)"
	[[ -x /usr/bin/time ]] || skip "needs /usr/bin/time (GNU time)"
	T=$BATS_TEST_TMPDIR
	BG_PIDS=
}

teardown() {
	kill_bg
	rm -f "${SPARSE_MAP:-/nonexistent}"
}

# bounded CMD...: run CMD (stderr apart) under a 20 s deadline; its peak RSS
# in KiB goes to RSS_KB.
bounded() {
	run --separate-stderr timeout 20 /usr/bin/time -f %M -o "$T/rss" "$@"
	RSS_KB=$(tail -n 1 "$T/rss")
}

# bounded_sh SCRIPT: the same for a shell pipeline, whose ebpf-collect runs
# under $TIME.
bounded_sh() {
	run --separate-stderr timeout 20 env TIME_CMD="/usr/bin/time -f %M -o $T/rss" \
		EC="$EBPF_COLLECT" bash -c "$1"
	RSS_KB=$(tail -n 1 "$T/rss")
}

assert_small() {
	[[ $RSS_KB =~ ^[0-9]+$ ]] || flunk "no peak RSS measured: $(cat "$T/rss")"
	((RSS_KB < MAX_KB)) || flunk "peak RSS $RSS_KB KiB (limit $MAX_KB)"
	echo "# ${BASH_LINENO[0]}: peak RSS $RSS_KB KiB" >&3
}

# refused_by_all FILE WHY: dump, report, convert and split each refuse FILE
# with exit 1 and the one line "FILE: WHY"; nothing is written.
refused_by_all() {
	local f=$1 why=$2
	bounded "$EBPF_COLLECT" dump "$f"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect dump: $f: $why"
	assert_small
	bounded "$EBPF_COLLECT" report "$f"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect: $f: $why"
	assert_equal "$output" ""
	assert_small
	bounded "$EBPF_COLLECT" convert "$f" --format folded -o "$T/out.folded"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect: $f: $why"
	[[ ! -e $T/out.folded ]] || flunk "convert wrote $T/out.folded"
	assert_small
	bounded "$EBPF_COLLECT" split "$f" "$T/parts"
	assert_equal "$status" 1
	assert_equal "$stderr" "split: $f: $why"
	[[ ! -e $T/parts ]] || flunk "split created $T/parts"
	assert_small
}

# A valid trace from our writer, and its first bytes up to (not including)
# the size field of its first block: HDR, with the block's name in HDR.name.
make_header() {
	"$OUTPUT/tests/nettrace_scenarios" loss "$T/valid.nettrace" >/dev/null ||
		flunk "nettrace_scenarios failed"
	python3 - "$T/valid.nettrace" "$T/hdr" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
pos = 32 + 16 + struct.unpack_from("<I", d, 32 + 11)[0] + 49	# after the Trace object
nlen = struct.unpack_from("<I", d, pos + 11)[0]
open(sys.argv[2], "wb").write(d[:pos + 16 + nlen])
open(sys.argv[2] + ".name", "w").write(d[pos + 15:pos + 15 + nlen].decode())
print(pos, file=open(sys.argv[2] + ".off", "w"))
EOF
	HDR=$T/hdr
	BLOCK=$(cat "$T/hdr.name")
	BLOCK_OFF=$(cat "$T/hdr.off")
}

@test "dump, report, convert, split refuse /dev/zero and /dev/urandom at once (the magic), memory bounded" {
	refused_by_all /dev/zero "$MAGIC"
	refused_by_all /dev/urandom "$MAGIC"
}

@test "an 8 GiB sparse file of zeros is refused at once by every reader" {
	truncate -s 8G "$T/zeros.nettrace"
	refused_by_all "$T/zeros.nettrace" "$MAGIC"
}

@test "a valid header, then a block claiming 4 GiB: refused at once from a file, an 8 GiB sparse file, a pipe of endless zeros" {
	make_header
	# a file that ends after the size field
	{ cat "$HDR"; printf '\xf0\xff\xff\xff'; head -c 64 /dev/zero; } >"$T/big.nettrace"
	local size content
	size=$(stat -c %s "$T/big.nettrace")
	content=$(((BLOCK_OFF + 16 + ${#BLOCK} + 4 + 3) / 4 * 4))	# after the padding
	bounded "$EBPF_COLLECT" dump "$T/big.nettrace"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect dump: $T/big.nettrace: offset $BLOCK_OFF: $BLOCK claims 4294967280 bytes of content, the file has $((size - content)) (file ends at $size)"
	assert_small
	# the same followed by 8 GiB of zeros: the block fits, its end byte is wrong
	truncate -s 8G "$T/big.nettrace"
	local end=$((content + 4294967280))
	bounded "$EBPF_COLLECT" dump "$T/big.nettrace"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect dump: $T/big.nettrace: offset $end: $BLOCK not closed by 06 (found 00)"
	assert_small
	# through a pipe, followed by zeros that never end: not waited for
	bounded_sh "{ cat '$HDR'; printf '\xf0\xff\xff\xff'; cat /dev/zero; } 2>/dev/null | \$TIME_CMD \$EC dump /dev/stdin"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect dump: /dev/stdin: offset $BLOCK_OFF: $BLOCK claims 4294967280 bytes, more than the 16 MiB a block may hold in a stream"
	assert_small
}

@test "a valid header, then zeros (8 GiB sparse, or a pipe that never ends): refused at the first object" {
	make_header
	local at=$BLOCK_OFF
	head -c "$at" "$HDR" >"$T/z.nettrace"
	truncate -s 8G "$T/z.nettrace"
	bounded "$EBPF_COLLECT" dump "$T/z.nettrace"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect dump: $T/z.nettrace: offset $at: expected object start 05 05 01, found 00 00 00"
	assert_small
	bounded_sh "{ head -c $at '$HDR'; cat /dev/zero; } 2>/dev/null | \$TIME_CMD \$EC dump /dev/stdin"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect dump: /dev/stdin: offset $at: expected object start 05 05 01, found 00 00 00"
	assert_small
}

@test "a pipe: dump reads the whole trace piece by piece; report, convert, split (two passes) refuse it" {
	make_header
	"$EBPF_COLLECT" dump "$T/valid.nettrace" >"$T/file.txt" || flunk "dump of the file failed"
	bounded_sh "cat '$T/valid.nettrace' | \$TIME_CMD \$EC dump /dev/stdin"
	assert_equal "$status" 0
	assert_equal "$stderr" ""
	assert_equal "$output" "$(sed "s|--- summary: $T/valid.nettrace|--- summary: /dev/stdin|" "$T/file.txt")"
	assert_small
	local why="not a regular file (a trace is read twice; save it to a file first)"
	bounded_sh "cat '$T/valid.nettrace' | \$EC report /dev/stdin"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect: /dev/stdin: $why"
	bounded_sh "cat '$T/valid.nettrace' | \$EC convert /dev/stdin --format folded -o '$T/o'"
	assert_equal "$status" 1
	assert_equal "$stderr" "ebpf-collect: /dev/stdin: $why"
	[[ ! -e $T/o ]] || flunk "convert wrote $T/o"
	bounded_sh "cat '$T/valid.nettrace' | \$EC split /dev/stdin '$T/parts'"
	assert_equal "$status" 1
	assert_equal "$stderr" "split: /dev/stdin: $why"
	[[ ! -e $T/parts ]] || flunk "split created $T/parts"
}

@test "a pipe of stacks without a sequence point: refused at 64 MiB kept, with the offset" {
	make_header
	# 1 MiB StackBlocks (one stack each, ids 1, 2, ...) after the header, forever
	head -c "$BLOCK_OFF" "$HDR" >"$T/trace_hdr"
	python3 - "$BLOCK_OFF" >"$T/first_stack" <<'EOF'
import struct, sys
pos = int(sys.argv[1])
name = b"StackBlock"
hdr = b"\x05\x05\x01" + struct.pack("<III", 2, 2, len(name)) + name + b"\x06"
content = pos + len(hdr) + 4
print(content + (4 - content % 4) % 4 + 12)	# the first stack's addresses
EOF
	cat >"$T/stacks.py" <<'EOF'
import struct, sys
pos, out = int(sys.argv[1]), sys.stdout.buffer
name = b"StackBlock"
hdr = b"\x05\x05\x01" + struct.pack("<III", 2, 2, len(name)) + name + b"\x06"
body = (1 << 20) - 16
for i in range(1, 1000):
    content = struct.pack("<III", i, 1, body) + bytes(body)
    blk = hdr + struct.pack("<I", len(content))
    pad = (4 - (pos + len(blk)) % 4) % 4
    blk += bytes(pad) + content + b"\x06"
    out.write(blk)
    pos += len(blk)
EOF
	bounded_sh "{ cat '$T/trace_hdr'; python3 '$T/stacks.py' $BLOCK_OFF; } 2>/dev/null | \$TIME_CMD \$EC dump /dev/stdin"
	assert_equal "$status" 1
	local off
	off=$(cat "$T/first_stack")
	assert_equal "$stderr" "ebpf-collect dump: /dev/stdin: offset $((off / 4 * 4)): more than 64 MiB of the stream would have to be kept in memory (one sequence-point region's stacks)"
	assert_small
}

@test "a 16 GiB sparse perf map of a live refrt: refused with one warning; a -d 2s trace ends on time with every event refrt fired" {
	require_root
	[[ -x $REFRT ]] || flunk "reference runtime not built ($REFRT)"
	bg "$T/rt.out" "$REFRT" --scenario mixed --duration 1 --wait-for-tracer 10 --summary "$T/s.json"
	local rt=$LAST_PID start end
	SPARSE_MAP=/tmp/perf-$rt.map
	truncate -s 16G "$SPARSE_MAP"
	start=$(date +%s%N)
	run --separate-stderr timeout 60 "$EBPF_COLLECT" -p "$rt" -d 2s -o "$T/s.nettrace" \
		--providers DotNETRuntime,DotNETRuntimeRundown
	end=$(date +%s%N)
	assert_equal "$status" 0
	echo "# -d 2s trace took $(((end - start) / 1000000)) ms" >&3
	(((end - start) / 1000000 < 10000)) || flunk "the trace took $(((end - start) / 1000000)) ms"
	# refused where the lines refrt had written when the collector first
	# read end (0 when it had written none; refrt goes on writing at its
	# offset over the zeros, so the file now holds at least as many)
	local pfx="symbolizer: perf map /proc/$rt/root/tmp/perf-$rt.map has a line of more than 64 KiB at offset "
	assert_equal "$(grep -c "perf map" <<<"$stderr")" 1
	local line off
	line=$(grep "perf map" <<<"$stderr")
	[[ $line =~ ^"$pfx"([0-9]+)" (refused); skipped"$ ]] || flunk "warning: $line"
	off=${BASH_REMATCH[1]}
	run python3 -c 'import sys
d = open(sys.argv[1], "rb").read(1 << 20)
off = int(sys.argv[2])
lead = d.find(b"\0") if b"\0" in d else len(d)
print("ok" if off <= lead and (off == 0 or d[off - 1:off] == b"\n") else "offset %d, lines end at %d" % (off, lead))' "$SPARSE_MAP" "$off"
	assert_output "ok"
	wait "$rt" || flunk "refrt failed: $(cat "$T/rt.out.err")"
	"$EBPF_COLLECT" dump --json "$T/s.nettrace" >"$T/s.jsonl" || flunk "dump failed"
	run python3 "$BATS_TEST_DIRNAME/refrt_compare.py" "$T/s.jsonl" "$T/s.json"
	echo "# $output" >&3
	assert_success
	read -r _ fired _ got _ lost _ complete <<<"$output"
	((fired > 0)) || flunk "refrt fired nothing: $output"
	assert_equal "$got" "$fired"
	assert_equal "$lost $complete" "0 True"
}
