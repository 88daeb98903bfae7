#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""unwind_compare.py - our CPU samples' user stacks against perf's.

    unwind_compare.py OURS.folded [PERF.script]

OURS.folded is `ebpf-collect convert --format folded` of a trace ("module!
name;...;module!name COUNT", root first); PERF.script is `perf script
--no-inline -F comm,tid,ip,sym,dso` of `perf record --call-graph dwarf`
(one block per sample, leaf first, blank line between).

How two stacks are compared (tests/unwind.bats):
  - user frames only: kernel frames differ by design (ours come from the
    kernel's own walk, and perf's sample may have been taken a tick apart);
  - root to leaf, cut at the program's `main`: what lies above it
    (__libc_start_call_main, _start) is the same for every sample, and perf
    names one of them `__libc_start_main_impl (inlined)` or not depending
    on --inline;
  - by function name, each tool's name normalized only where the two
    tools pick different names for the same address: a symbol version
    (`exp@@GLIBC_2.29`) is dropped, glibc's internal alias prefix `__GI_`
    and leading underscores are dropped (`__GI___qsort_r` is `qsort_r`),
    `memcpy` variants are the `memmove` variants they alias, an unnamed
    frame is `?`, and a leaf in the PLT is `@plt` (perf synthesizes
    `sin@plt`, our ELF reader names the address after the nearest symbol,
    `_init`).
  - perf's own truncation: it copies 8 KiB of stack (as we do) and stops
    where the copy ends; its stacks are kept as they are, so a stack of
    ours cut by the same limit matches the same cut stack of perf's.
A sample of ours matches when perf produced the same frame list for at
least one of its samples.

Prints: "samples N", "reach_main N" (stacks that reach main), and with a
perf script "perf_samples N", "matched N", "percent P".
"""
import re
import sys
from collections import Counter

KERNEL_DSO = re.compile(r"^\[kernel|^\[unknown\]$|vmlinux")


def norm(name, leaf):
    if not name or name == "[unknown]":
        return "?"
    if name.endswith("@plt") or (leaf and name == "_init"):
        return "@plt"
    name = name.split("@", 1)[0]
    if name.startswith("__GI_"):
        name = name[5:]
    name = name.lstrip("_")
    if name.startswith("memcpy_"):
        name = "memmove_" + name[7:]
    return name


def cut(frames):
    """frames root first, normalized; from main on when main is there."""
    if "main" in frames:
        frames = frames[frames.index("main"):]
    return tuple(frames)


def read_ours(path):
    out = Counter()
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            # kernel frames come last (leaf side) and carry no "module!"
            # (the views name them alone); JIT frames would not either,
            # but this program has none
            while frames and "!" not in frames[-1]:
                frames.pop()
            user = []
            for fr in frames:
                mod, bang, name = fr.partition("!")
                if bang and KERNEL_DSO.search(mod):
                    continue
                user.append(name if bang else fr)
            user = [norm(n, i == len(user) - 1) for i, n in enumerate(user)]
            out[cut(user)] += int(count)
    return out


def read_perf(path):
    out = Counter()
    frames = []

    def flush():
        if frames:
            user = [norm(n, i == 0) for i, n in enumerate(frames)]
            out[cut(list(reversed(user)))] += 1
        frames.clear()

    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                flush()
                continue
            if not line[0].isspace():   # "comm tid" header
                flush()
                continue
            m = re.match(r"\s*([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$", line)
            if not m:
                continue
            ip, sym, dso = m.groups()
            if KERNEL_DSO.search(dso) or int(ip, 16) >= 0xffff800000000000:
                continue
            sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)
            frames.append(sym)
    flush()
    return out


def main():
    ours = read_ours(sys.argv[1])
    n = sum(ours.values())
    print("samples", n)
    print("reach_main", sum(c for s, c in ours.items() if s and s[0] == "main"))
    if len(sys.argv) > 2:
        perf = read_perf(sys.argv[2])
        matched = sum(c for s, c in ours.items() if s in perf)
        print("perf_samples", sum(perf.values()))
        print("matched", matched)
        print("percent %.2f" % (100.0 * matched / n if n else 0))
        for s, c in sorted(ours.items(), key=lambda x: -x[1]):
            if s not in perf:
                print("unmatched %d %s" % (c, ";".join(s)), file=sys.stderr)


if __name__ == "__main__":
    main()
