#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""
traceevent_sim.py - what TraceEvent's EventPipe reader would make of a
NetTrace V4/V5 file: events dispatched, events lost, and the rules it
relies on.  Written from reading microsoft/perfview's EventPipe/EventCache.cs
and ThreadCache.cs (the 2025 rewrite, "new") and the EventCache before it
("old"); it reproduces their bookkeeping, not their code:

  * A block's current capture thread is its first event's; only IsSorted
    events change it.  An unsorted event is charged to the current thread
    (its sequence number is compared with that thread's) and queued there.
  * new: a thread first seen in an event block starts at (seq - 1), one
    first seen in a sequence point at its number; a gap counts only when the
    previous number is not 0; a negative gap counts as 2**31 - 1.
    old: every positive gap counts, and a sequence point's number for a
    thread never seen counts whole.

Usage: traceevent_sim.py FILE     prints one JSON object:
  {"new": {"lost", "dispatched", "negative_gaps"}, "old": {...},
   "unsorted", "unsorted_on_other_thread", "stack_misses",
   "max_sp_threads", "sp_blocks", "out_of_order_dispatch"}
Exit 1 (with a message) when the file does not parse as TraceEvent would.
"""
import json
import struct
import sys
from collections import defaultdict, deque

from nettrace_walk import varint  # tests/, beside this file


class Cache:
    """Sequence bookkeeping of one EventCache flavour."""

    def __init__(self, new):
        self.new = new
        self.seq = {}
        self.lost = 0
        self.negative = 0
        self.queues = defaultdict(deque)
        self.dispatched = []

    def gap(self, prev, expected):
        if self.new:
            if prev == 0:
                return
            d = (expected - prev) & 0xFFFFFFFF
            if d >= 0x80000000:
                self.negative += 1
                d = 0x7FFFFFFF
            self.lost += d
        elif expected > prev:
            self.lost += expected - prev

    def thread(self, tid, start):
        if tid not in self.seq:
            self.seq[tid] = start
        return tid

    def checkpoint(self, tid, seq):
        if tid not in self.seq:
            if self.new:
                self.seq[tid] = seq
            else:
                self.lost += seq
                self.seq[tid] = seq
            return
        self.gap(self.seq[tid], seq)
        self.seq[tid] = seq

    def flush(self, stop):
        while True:
            best = None
            for k, q in self.queues.items():
                if q and q[0] < stop and (best is None or q[0] < self.queues[best][0]):
                    best = k
            if best is None:
                return
            self.dispatched.append(self.queues[best].popleft())


class Sim:
    def __init__(self, data):
        self.b = data
        self.caches = [Cache(True), Cache(False)]
        self.stacks = set()
        self.unsorted = self.unsorted_other = self.stack_misses = 0
        self.max_sp_threads = self.sp_blocks = 0

    def run(self):
        b, p = self.b, 8
        if b[:8] != b"Nettrace":
            raise ValueError("no Nettrace magic")
        n, = struct.unpack_from("<i", b, p)
        p += 4 + n
        first = True
        while True:
            tag = b[p]
            p += 1
            if tag == 1:
                break
            if tag != 5 or b[p] != 5 or b[p + 1] != 1:
                raise ValueError("bad object tag at %#x" % (p - 1))
            p += 2
            _ver, _minv, nl = struct.unpack_from("<iii", b, p)
            p += 12
            name = b[p:p + nl].decode()
            p += nl + 1
            if first:
                if name != "Trace":
                    raise ValueError("first object is %s" % name)
                p += 48
                first = False
            else:
                size, = struct.unpack_from("<i", b, p)
                p += 4
                p += (4 - p % 4) % 4
                blk = b[p:p + size]
                p += size
                handler = getattr(self, "block_" + name, None)
                if handler:
                    handler(blk)
            if b[p] != 6:
                raise ValueError("object not closed at %#x" % p)
            p += 1
        for c in self.caches:
            c.flush(1 << 63)

    @staticmethod
    def header(blk, q, h):
        f = blk[q]
        q += 1
        if f & 1:
            h["meta"], q = varint(blk, q)
        if f & 2:
            d, q = varint(blk, q)
            h["seq"] = (h["seq"] + d + 1) & 0xFFFFFFFF
            h["cap"], q = varint(blk, q)
            _proc, q = varint(blk, q)
        elif h["meta"] != 0:
            h["seq"] = (h["seq"] + 1) & 0xFFFFFFFF
        if f & 4:
            _tid, q = varint(blk, q)
        if f & 8:
            h["stack"], q = varint(blk, q)
        d, q = varint(blk, q)
        h["ts"] = (h["ts"] + d) & 0xFFFFFFFFFFFFFFFF  # 64-bit wrap: the runtime's deltas can be negative
        q += 16 * (bool(f & 0x10) + bool(f & 0x20))
        h["sorted"] = bool(f & 0x40)
        if f & 0x80:
            h["size"], q = varint(blk, q)
        return q

    def block_StackBlock(self, blk):
        first, cnt = struct.unpack_from("<ii", blk, 0)
        self.stacks.update(range(first, first + cnt))

    def block_SPBlock(self, blk):
        _ts, n = struct.unpack_from("<qi", blk, 0)
        self.sp_blocks += 1
        self.max_sp_threads = max(self.max_sp_threads, n)
        for c in self.caches:
            c.flush(1 << 63)
        for k in range(n):
            tid, seq = struct.unpack_from("<qI", blk, 12 + 12 * k)
            for c in self.caches:
                c.checkpoint(tid, seq)
        self.stacks = set()

    def block_EventBlock(self, blk):
        hs, = struct.unpack_from("<H", blk, 0)
        h = dict(meta=0, seq=0, cap=0, stack=0, ts=0, sorted=False, size=0)
        peek = dict(h)
        self.header(blk, hs, peek)
        cur = peek["cap"]
        for c in self.caches:
            c.thread(cur, (peek["seq"] - 1) & 0xFFFFFFFF)
        q = hs
        while q < len(blk):
            q = self.header(blk, q, h)
            q += h["size"]
            if h["stack"] and h["stack"] not in self.stacks:
                self.stack_misses += 1
            if h["sorted"]:
                cur = h["cap"]
                for c in self.caches:
                    c.thread(cur, (h["seq"] - 1) & 0xFFFFFFFF)
            else:
                self.unsorted += 1
                self.unsorted_other += h["cap"] != cur
            for c in self.caches:
                c.gap(c.seq[cur], (h["seq"] - 1) & 0xFFFFFFFF)
                c.seq[cur] = h["seq"]
                if h["sorted"]:
                    c.flush(h["ts"])
                    c.dispatched.append(h["ts"])
                else:
                    c.queues[cur].append(h["ts"])


def main():
    sim = Sim(open(sys.argv[1], "rb").read())
    try:
        sim.run()
    except (ValueError, struct.error, IndexError) as e:
        print("traceevent_sim: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 1
    out = {}
    for name, c in zip(("new", "old"), sim.caches):
        out[name] = {"lost": c.lost, "dispatched": len(c.dispatched),
                     "negative_gaps": c.negative}
    ts = sim.caches[0].dispatched
    out.update(unsorted=sim.unsorted, unsorted_on_other_thread=sim.unsorted_other,
               stack_misses=sim.stack_misses, max_sp_threads=sim.max_sp_threads,
               sp_blocks=sim.sp_blocks,
               out_of_order_dispatch=sum(1 for a, b in zip(ts, ts[1:]) if b < a))
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
