#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Regenerate the pinned bpf/vmlinux/<arch>/vmlinux.h from a kernel's BTF.
#
#   scripts/gen-vmlinux-h.sh [BTF-FILE] [OUT]
#
# BTF-FILE defaults to /sys/kernel/btf/vmlinux, OUT to
# bpf/vmlinux/<arch>/vmlinux.h of this checkout.  The header is committed
# (libbpf-tools and bcc practice) so builds do not depend on the build
# machine's kernel config; CO-RE relocates field offsets at load time.
# `make VMLINUX_H=host` instead dumps the host's header into .output/.
set -euo pipefail

arch=$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
root=$(cd "$(dirname "$0")/.." && pwd)
btf=${1:-/sys/kernel/btf/vmlinux}
out=${2:-$root/bpf/vmlinux/$arch/vmlinux.h}
bpftool=${BPFTOOL:-bpftool}

[[ -r $btf ]] || { echo "gen-vmlinux-h: cannot read $btf (kernel without BTF?)" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
chmod 644 "$tmp"
"$bpftool" btf dump file "$btf" format c > "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "gen-vmlinux-h: wrote $out ($(wc -l < "$out") lines) from $btf ($(uname -r))" >&2
