#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Our views' names of CPU-sample frames beside TraceLog's, from one trace.

Usage: sample_names.py TRACELOG_STACKS OUR_FOLDED [--modules MODULE...]

TRACELOG_STACKS is TraceCheck's --sample-stacks file (one sample a line,
root first, "MODULE!METHOD" or "MODULE!?0xADDR" frames joined by TAB);
OUR_FOLDED is `ebpf-collect convert --format folded --kind-suffix`.  The
kernel part of every sample (its frames in [kernel.kallsyms] and [bpf]) is compared
as a multiset of name sequences: the views must give each sample's kernel
frames the names TraceLog gives them, in the same order, and leave unnamed
only what TraceLog leaves unnamed.  With --modules, every frame of those
modules is compared the same way (module and name).  Prints one JSON line
with the counts; exit 1 when they differ (the first differences printed).
"""
import collections
import json
import sys

KMOD = "[kernel.kallsyms]"


def tracelog_frame(f):
    mod, _, name = f.partition("!")
    if name.startswith("?0x"):
        name = "[unknown]"
    elif name.startswith("."):
        name = name[1:]		# TraceLog's "namespace.name" with no namespace
    return mod, name


def ours_frame(f):
    if f.endswith("_[k]"):
        f = f[:-4]
        if f.startswith(KMOD + "!"):
            f = f[len(KMOD) + 1:]
        if f.startswith("[") and "]!" in f:	# kernel-side code of another module
            mod, _, name = f.partition("!")
            return mod, name
        return KMOD, f
    if f.endswith("_[j]"):
        f = f[:-4]
    mod, sep, name = f.partition("!")
    return (mod, name) if sep else ("?", f)


def part(frames, mods):
    return tuple(f for f in frames if f[0] in mods)


def main():
    args = sys.argv[1:]
    mods = {KMOD, "[bpf]"}
    if "--modules" in args:
        i = args.index("--modules")
        mods |= set(args[i + 1:])
        args = args[:i]
    tl, ours = collections.Counter(), collections.Counter()
    n_tl = n_ours = 0
    for line in open(args[0]):
        line = line.rstrip("\n")
        if not line:
            continue
        n_tl += 1
        tl[part([tracelog_frame(f) for f in line.split("\t")], mods)] += 1
    for line in open(args[1]):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        n_ours += int(count)
        ours[part([ours_frame(f) for f in stack.split(";")], mods)] += int(count)
    frames = lambda c, pred: sum(n * sum(1 for f in k if pred(f)) for k, n in c.items())
    is_k = lambda f: f[0] == KMOD
    unk_k = lambda f: f[0] == KMOD and f[1] == "[unknown]"
    res = {
        "samples_tracelog": n_tl, "samples_ours": n_ours,
        "kernel_frames_tracelog": frames(tl, is_k), "kernel_frames_ours": frames(ours, is_k),
        "kernel_unknown_tracelog": frames(tl, unk_k), "kernel_unknown_ours": frames(ours, unk_k),
        "compared_frames": frames(tl, lambda f: True),
        "same": tl == ours,
    }
    print(json.dumps(res))
    if tl != ours:
        only_tl, only_ours = tl - ours, ours - tl
        for k, n in list(only_tl.items())[:3]:
            print("TraceLog only (%d): %s" % (n, ";".join("!".join(f) for f in k)))
        for k, n in list(only_ours.items())[:3]:
            print("ours only (%d): %s" % (n, ";".join("!".join(f) for f in k)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
