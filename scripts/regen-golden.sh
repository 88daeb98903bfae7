#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Regenerate the usdt-gen golden files in tests/golden/usdt/ from the
# project manifest (tests/usdt_gen.bats checks them with diff -u).
# Review the diff (git diff tests/golden) before committing: a change there
# is a change of the generated API, probes or event table.
#
# Usage: scripts/regen-golden.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OUTPUT=${OUTPUT:-$PWD/.output}
make --no-print-directory "$OUTPUT/usdt-gen" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$OUTPUT/usdt-gen" usdt/clr-events.man -o "$tmp" --emit-caller >"$tmp/usdt-gen.stdout.raw"
sed "s:$tmp:OUTDIR:g" "$tmp/usdt-gen.stdout.raw" >"$tmp/usdt-gen.stdout"
mkdir -p tests/golden/usdt
for f in clretw_provider.h clretw_provider.c clretw_events.c clretw_caller.c usdt-gen.stdout; do
	cp "$tmp/$f" "tests/golden/usdt/$f"
done
echo "regen-golden: wrote tests/golden/usdt/ ($(ls tests/golden/usdt | wc -l) files)"
