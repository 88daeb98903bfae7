#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The README's "run all tests" command: install dependencies, build, run the
# C unit tests and the bats integration tests.  Last line:
#   N passed, N failed, N skipped
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "test: dependency setup failed"; echo "0 passed, 1 failed"; exit 1; }
if ! make -j"$(nproc)" all >/tmp/ebpf-collect-build.log 2>&1; then
	tail -50 /tmp/ebpf-collect-build.log
	echo "test: build failed (full log: /tmp/ebpf-collect-build.log)"
	echo "0 passed, 1 failed"
	exit 1
fi
exec make --no-print-directory test
