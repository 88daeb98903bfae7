#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""managed_leaf.py - where a .NET worker loop's CPU samples end.

    managed_leaf.py FOLDED WORKER_RE DISPATCHER_RE INCLUSIVE_RE

FOLDED is `ebpf-collect convert --format folded` of a trace ("module!name;
...", root first, then a count).  Of the samples whose stack has a frame
matching WORKER_RE (the worker loop), prints:
  worker_samples N      how many
  dispatcher_leaf K     those whose leaf-most managed frame matches
                        DISPATCHER_RE: time charged to the dispatcher that
                        belongs to a method it calls, when unwinding lost
                        the frames between (tests/unwind.bats)
  inclusive I           those with a frame matching INCLUSIVE_RE
A frame is managed when its module is an assembly: a "module!" that is not
a shared object (.so), the host (dotnet), or a bracketed pseudo-module
([vdso], [unknown]); kernel frames carry no module in folded stacks.
"""
import re
import sys

NATIVE = re.compile(r"\.so(\.|$)|^dotnet$|^\[")


def managed(frame):
    mod, bang, _ = frame.partition("!")
    return bool(bang) and not NATIVE.search(mod)


def main():
    path, worker, disp, incl = sys.argv[1:5]
    worker, disp, incl = re.compile(worker), re.compile(disp), re.compile(incl)
    n = k = i = 0
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            frames = stack.split(";")
            if not any(worker.search(fr) for fr in frames):
                continue
            c = int(count)
            n += c
            leaf = [fr for fr in frames if managed(fr)]
            if leaf and disp.search(leaf[-1]):
                k += c
            if any(incl.search(fr) for fr in frames):
                i += c
    print("worker_samples", n)
    print("dispatcher_leaf", k)
    print("inclusive", i)


if __name__ == "__main__":
    main()
