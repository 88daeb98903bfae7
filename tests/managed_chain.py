#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""managed_chain.py - whether samples below a managed call chain carry it all.

    managed_chain.py FOLDED DEEP_RE CHAIN_RE...

FOLDED is `ebpf-collect convert --format folded` of a trace (root first,
then a count).  Of the samples whose stack has a frame matching the first
CHAIN_RE (the outermost method of the chain), prints:
  samples N        how many
  deep D           those whose leaf-most managed frame matches DEEP_RE (the
                   chain's innermost method or what it calls)
  full F           of those, the ones whose managed frames hold CHAIN_RE...
                   as consecutive frames, outermost first: nothing of the
                   chain lost, nothing put between
  inclusive I      samples with a frame matching the last CHAIN_RE
A frame is managed as in tests/managed_leaf.py.
"""
import re
import sys

from managed_leaf import managed


def has_chain(frames, chain):
    for s in range(len(frames) - len(chain) + 1):
        if all(c.search(frames[s + j]) for j, c in enumerate(chain)):
            return True
    return False


def main():
    path, deep = sys.argv[1], re.compile(sys.argv[2])
    chain = [re.compile(c) for c in sys.argv[3:]]
    n = d = full = incl = 0
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            frames = stack.split(";")
            if not any(chain[0].search(fr) for fr in frames):
                continue
            c = int(count)
            n += c
            if any(chain[-1].search(fr) for fr in frames):
                incl += c
            man = [fr for fr in frames if managed(fr)]
            if not man or not deep.search(man[-1]):
                continue
            d += c
            if has_chain(man, chain):
                full += c
    print("samples", n)
    print("deep", d)
    print("full", full)
    print("inclusive", incl)


if __name__ == "__main__":
    main()
