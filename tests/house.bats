#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The layout rules of docs/architecture.md, checked on the tree and on the
# built objects: who may include whom, what the nettrace library may call
# and that its files call each other in no loop, file and function sizes,
# and comments that give reasons.

load test_helper

CHECK=$BATS_TEST_DIRNAME/house_check.py

@test "house: each folder includes only the folders docs/architecture.md allows" {
	run python3 "$CHECK" includes
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "house: no symbolizer source includes a collector or usdt header" {
	run grep -rlE '#\s*include\s+"(\.\./)*(collector|usdt)/' "$BATS_TEST_DIRNAME/../symbolizer"
	echo "$output"
	[ "$status" -eq 1 ]
}

@test "house: the nettrace library's objects call only the library, common/ and libc" {
	run python3 "$CHECK" symbols "$OUTPUT/obj"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "house: the nettrace library's files call each other in no loop" {
	run python3 "$CHECK" cycles "$OUTPUT/obj" nettrace
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "house: no product file over 1000 lines, no function over 80, unless it says why" {
	run python3 "$CHECK" sizes
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "house: comments give reasons, not issue numbers" {
	run python3 "$CHECK" comments
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "house: product folders hold no benchmark or test program" {
	run bash -c "cd '$BATS_TEST_DIRNAME/..' && ls common usdt usdt/refrt bpf nettrace symbolizer views collector collector/session collector/sources collector/pipeline collector/fleet 2>/dev/null | grep -E '^(bench|test)[_-]|_test\.c$|^testprog|^testlib'"
	echo "$output"
	[ "$status" -eq 1 ]
}

@test "house: every folder of docs/architecture.md exists and every product folder is listed" {
	doc=$BATS_TEST_DIRNAME/../docs/architecture.md
	[ -f "$doc" ]
	for d in common usdt usdt/refrt bpf nettrace symbolizer views collector scripts tests; do
		grep -q "^| \`$d/\`" "$doc" || { echo "docs/architecture.md lacks $d/"; false; }
		[ -d "$BATS_TEST_DIRNAME/../$d" ] || { echo "$d/ listed but missing"; false; }
	done
}
