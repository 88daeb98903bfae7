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

It also checks the method and module events against what TraceEvent's
TraceLog (the ETLX conversion PerfView runs first) assumes of them; see
"What TraceLog assumes of method and module events" in collector/README.md.
The rules apply to the symbol events we write: those of the collector's
symbol thread (0x7FFFFFFF) and any naming one of our pseudo-modules
(ModuleID 0xebc0...), whatever thread `ebpf-collect symbolize` gave them;
the runtime's own method and module events are its business.
"tracelog" counts the events breaking each rule (all 0 for a good trace):

  short_ngen_path   IL path == native path, 1..6 characters: TraceLog's
                    ".ni." search throws and the conversion fails
  pseudo_native     one of our pseudo-modules has a native path
  module_id_zero    a module event with ModuleID 0
  pseudo_path_ids   a pseudo-module path under two IDs, or an ID with two paths
  unnamed_module    a method of a pseudo-module that no module event names
  bad_range         a method range of size 0, >= 2**31 or past 2**64
  empty_name        a method with an empty name

Usage: traceevent_sim.py FILE     prints one JSON object:
  {"new": {"lost", "dispatched", "negative_gaps"}, "old": {...},
   "unsorted", "unsorted_on_other_thread", "stack_misses",
   "max_sp_threads", "sp_blocks", "out_of_order_dispatch",
   "tracelog": {"methods", "modules", RULE: count..., "first": text}}
Exit 1 (with a message) when the file does not parse as TraceEvent would.
"""
import json
import struct
import sys
from collections import defaultdict, deque

from nettrace_walk import utf16z, varint  # tests/, beside this file


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


CLR = "Microsoft-Windows-DotNETRuntime"
RUNDOWN = "Microsoft-Windows-DotNETRuntimeRundown"
# (provider, event id) of what TraceLog reads as a method range / a module
METHOD_EVENTS = {(CLR, 143), (CLR, 144), (RUNDOWN, 143), (RUNDOWN, 144)}
MODULE_EVENTS = {(CLR, 152), (CLR, 153), (RUNDOWN, 153), (RUNDOWN, 154)}
PSEUDO_MODULE = 0xebc0  # top 16 bits of the collector's pseudo-module IDs
SYMBOLIZE_TID = 0x7FFFFFFF  # thread of the collector's symbol events
RULES = ("short_ngen_path", "pseudo_native", "module_id_zero", "pseudo_path_ids",
         "unnamed_module", "bad_range", "empty_name")


class Modules:
    """The method/module rules TraceLog relies on (see the docstring)."""

    def __init__(self):
        self.count = dict.fromkeys(RULES, 0)
        self.methods = self.modules = 0
        self.first = None
        self.paths = {}         # pseudo ModuleID -> IL paths
        self.ids = {}           # pseudo IL path -> ModuleIDs
        self.used = set()       # pseudo ModuleIDs methods refer to

    def bad(self, rule, what):
        self.count[rule] += 1
        if self.first is None:
            self.first = "%s: %s" % (rule, what)

    def method(self, p, symbolizer):
        mid, modid, start, size, _tok, _flags = struct.unpack_from("<QQQIII", p, 0)
        ns, q = utf16z(p, 36)
        name, q = utf16z(p, q)
        if not symbolizer and modid >> 48 != PSEUDO_MODULE:
            return  # the runtime's: its values are its own
        self.methods += 1
        if size == 0 or size >= 1 << 31 or start + size > 1 << 64:
            self.bad("bad_range", "%#x+%#x %s" % (start, size, name))
        if not name:
            self.bad("empty_name", "method %#x at %#x" % (mid, start))
        if modid >> 48 == PSEUDO_MODULE:
            self.used.add(modid)

    def module(self, p, symbolizer):
        modid, _asm, _flags, _res = struct.unpack_from("<QQII", p, 0)
        il, q = utf16z(p, 24)
        native, q = utf16z(p, q)
        if not symbolizer and modid >> 48 != PSEUDO_MODULE:
            return
        self.modules += 1
        if il == native and 0 < len(il) < 7:
            self.bad("short_ngen_path", repr(il))
        if modid == 0:
            self.bad("module_id_zero", repr(il))
        if modid >> 48 != PSEUDO_MODULE:
            return
        if native:
            self.bad("pseudo_native", "%r %r" % (il, native))
        self.paths.setdefault(modid, set()).add(il)
        self.ids.setdefault(il, set()).add(modid)

    def report(self):
        for modid, paths in self.paths.items():
            if len(paths) > 1:
                self.bad("pseudo_path_ids", "%#x: %s" % (modid, sorted(paths)))
        for il, ids in self.ids.items():
            if len(ids) > 1:
                self.bad("pseudo_path_ids", "%r: %d IDs" % (il, len(ids)))
        for modid in self.used:
            if not any(self.paths.get(modid, ())):
                self.bad("unnamed_module", "%#x" % modid)
        out = dict(self.count, methods=self.methods, modules=self.modules)
        out["first"] = self.first
        return out


class Sim:
    def __init__(self, data):
        self.b = data
        self.meta = {}
        self.mods = Modules()
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
                # a cut file: what is left is no block (parsing it as one
                # would queue garbage without end)
                if size < 0 or p + size >= len(b):
                    raise ValueError("%s block at %#x runs past the end" % (name, p))
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
            h["tid"], q = varint(blk, q)
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

    def block_MetadataBlock(self, blk):
        hs, = struct.unpack_from("<H", blk, 0)
        h = dict(meta=0, seq=0, cap=0, tid=0, stack=0, ts=0, sorted=False, size=0)
        q = hs
        while q < len(blk):
            q = self.header(blk, q, h)
            mid, = struct.unpack_from("<i", blk, q)
            prov, r = utf16z(blk, q + 4)
            eid, = struct.unpack_from("<i", blk, r)
            self.meta[mid] = (prov, eid & 0xFFFF)
            q += h["size"]

    def payload(self, meta, symbolizer, p):
        key = self.meta.get(meta)
        if key in METHOD_EVENTS:
            self.mods.method(p, symbolizer)
        elif key in MODULE_EVENTS:
            self.mods.module(p, symbolizer)

    def block_EventBlock(self, blk):
        hs, = struct.unpack_from("<H", blk, 0)
        h = dict(meta=0, seq=0, cap=0, tid=0, stack=0, ts=0, sorted=False, size=0)
        peek = dict(h)
        self.header(blk, hs, peek)
        cur = peek["cap"]
        for c in self.caches:
            c.thread(cur, (peek["seq"] - 1) & 0xFFFFFFFF)
        q = hs
        while q < len(blk):
            q = self.header(blk, q, h)
            self.payload(h["meta"], h["tid"] == SYMBOLIZE_TID, blk[q:q + h["size"]])
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
               out_of_order_dispatch=sum(1 for a, b in zip(ts, ts[1:]) if b < a),
               tracelog=sim.mods.report())
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
