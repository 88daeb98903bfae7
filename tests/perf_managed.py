#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""perf_managed.py - a .NET process's CPU samples as perf's dwarf mode sees them.

    perf_managed.py PERF_SCRIPT COMM INCLUSIVE_RE

PERF_SCRIPT is `perf script -F comm,tid,ip,sym,dso` of `perf record
--call-graph dwarf` on a .NET process whose runtime wrote its perf map
(DOTNET_PerfMapEnabled=1, with DOTNET_EnableWriteXorExecute=0 so that JIT
code sits in anonymous memory, which perf names from /tmp/perf-PID.map; with
W^X on it is a memfd mapping that perf does not look up in the map).
perf unwinds by the files' CFI and stops at the first JIT frame, which has
none, so a stack is the leaf-most managed frame and the native frames below
it.  Of the samples of threads whose name starts with COMM, prints:
  samples N       how many
  managed M       those with a managed frame (a perf map symbol or code of
                  an assembly, *.dll): the ones perf can charge to a method
  inclusive I     of those, the ones with a frame matching INCLUSIVE_RE
"""
import re
import sys

MANAGED = re.compile(r"\(/tmp/perf-\d+\.map\)$|\.dll\)$")


def stacks(path):
    comm, frames = None, []
    with open(path) as f:
        for line in f:
            if not line.strip():
                if comm is not None:
                    yield comm, frames
                comm, frames = None, []
            elif line[0] not in " \t":
                comm = line.rsplit(None, 1)[0].strip()
            else:
                frames.append(line.strip())
    if comm is not None:
        yield comm, frames


def main():
    path, comm, incl = sys.argv[1], sys.argv[2], re.compile(sys.argv[3])
    n = m = i = 0
    for c, frames in stacks(path):
        if not c.startswith(comm):
            continue
        n += 1
        if not any(MANAGED.search(fr) for fr in frames):
            continue
        m += 1
        if any(incl.search(fr) for fr in frames):
            i += 1
    print("samples", n)
    print("managed", m)
    print("inclusive", i)


if __name__ == "__main__":
    main()
