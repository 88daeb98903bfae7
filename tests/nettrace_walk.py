#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Independent .nettrace block walker, used by tests/nettrace.bats to
cross-check the C reader.  Written separately from symbolizer/ from
docs/nettrace-format.md; deliberately simple (whole file in memory).

Prints one JSON object: events, per "provider/id" counts, events with a
non-empty stack, blocks per kind, lost events (sequence gaps), and, when the
file does not end with a whole block + end marker, "truncated_at" (start
offset of the first incomplete object) and "whole_block_events".

Usage: nettrace_walk.py FILE
"""
import json
import struct
import sys


def varint(buf, pos):
    val = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        val |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return val, pos


def utf16z(buf, pos):
    end = pos
    while buf[end:end + 2] != b"\0\0":
        end += 2
    return buf[pos:end].decode("utf-16-le", "replace"), end + 2


def walk(buf):
    out = {"events": 0, "by_event": {}, "with_stack": 0, "blocks": {},
           "lost": 0, "complete": False}
    assert buf[:8] == b"Nettrace"
    assert struct.unpack_from("<i", buf, 8)[0] == 20
    assert buf[12:32] == b"!FastSerialization.1"
    pos = 32
    meta = {}           # id -> "provider/id"
    stacks = {}         # id -> byte size, current SP region
    last_seq = {}       # capture thread -> last sequence number
    psize = None
    while True:
        if pos >= len(buf):
            out["truncated_at"] = pos
            break
        if buf[pos] == 1 and pos + 1 == len(buf):
            out["complete"] = True
            break
        start = pos
        try:
            assert buf[pos:pos + 3] == b"\x05\x05\x01"
            ver, minver, nlen = struct.unpack_from("<iii", buf, pos + 3)
            name = buf[pos + 15:pos + 15 + nlen].decode()
            assert buf[pos + 15 + nlen] == 6
        except (AssertionError, struct.error, IndexError):
            out["truncated_at"] = start
            break
        pos += 16 + nlen
        if name == "Trace":
            assert start == 32 and ver == 4 and minver == 4
            if pos + 49 > len(buf):
                out["truncated_at"] = start
                break
            psize = struct.unpack_from("<i", buf, pos + 32)[0]
            pos += 49
            continue
        if pos + 4 > len(buf):
            out["truncated_at"] = start
            break
        size = struct.unpack_from("<I", buf, pos)[0]
        pos += 4
        pos += (-pos) % 4
        if pos + size + 1 > len(buf):
            out["truncated_at"] = start
            break
        body = buf[pos:pos + size]
        assert buf[pos + size] == 6
        assert ver == 2 and minver == 2, (name, ver, minver)
        out["blocks"][name] = out["blocks"].get(name, 0) + 1
        if name in ("EventBlock", "MetadataBlock"):
            hsize, flags = struct.unpack_from("<HH", body, 0)
            assert flags & 1, "only compressed headers are handled here"
            p = hsize
            prev = dict(meta=0, seq=0, cap=0, tid=0, stack=0, ts=0, size=0)
            while p < size:
                flags = body[p]
                p += 1
                cur = dict(prev)
                if flags & 1:
                    cur["meta"], p = varint(body, p)
                if flags & 2:
                    d, p = varint(body, p)
                    cur["seq"] = (prev["seq"] + d + 1) & 0xFFFFFFFF
                    cur["cap"], p = varint(body, p)
                    _, p = varint(body, p)
                elif cur["meta"]:
                    cur["seq"] = (prev["seq"] + 1) & 0xFFFFFFFF
                if flags & 4:
                    cur["tid"], p = varint(body, p)
                if flags & 8:
                    cur["stack"], p = varint(body, p)
                d, p = varint(body, p)
                cur["ts"] = prev["ts"] + d
                p += 16 * bool(flags & 0x10) + 16 * bool(flags & 0x20)
                if flags & 0x80:
                    cur["size"], p = varint(body, p)
                payload = body[p:p + cur["size"]]
                p += cur["size"]
                prev = cur
                if name == "MetadataBlock":
                    mid = struct.unpack_from("<i", payload, 0)[0]
                    prov, q = utf16z(payload, 4)
                    eid = struct.unpack_from("<i", payload, q)[0]
                    assert mid > 0 and mid not in meta, "metadata id %d reused" % mid
                    meta[mid] = "%s/%d" % (prov, eid)
                    continue
                assert p <= size, "payload past the block end"
                assert cur["meta"] in meta, "undefined metadata id %d" % cur["meta"]
                assert cur["stack"] == 0 or cur["stack"] in stacks, \
                    "stack id %d not defined in this SP region" % cur["stack"]
                key = meta[cur["meta"]]
                out["events"] += 1
                out["by_event"][key] = out["by_event"].get(key, 0) + 1
                if cur["stack"] and stacks[cur["stack"]] > 0:
                    out["with_stack"] += 1
                last = last_seq.get(cur["cap"], 0)
                gap = (cur["seq"] - last - 1) & 0xFFFFFFFF
                if gap < 0x80000000:
                    out["lost"] += gap
                    last_seq[cur["cap"]] = cur["seq"]
            assert p == size
        elif name == "StackBlock":
            first, count = struct.unpack_from("<II", body, 0)
            p = 8
            for i in range(count):
                n = struct.unpack_from("<I", body, p)[0]
                assert n % psize == 0
                assert first + i not in stacks, "stack id reused in one SP region"
                stacks[first + i] = n
                p += 4 + n
            assert p == size
        elif name == "SPBlock":
            count = struct.unpack_from("<I", body, 8)[0]
            for i in range(count):
                cap, seq = struct.unpack_from("<QI", body, 12 + 12 * i)
                last = last_seq.get(cap, 0)
                if seq != last and ((seq - last) & 0xFFFFFFFF) < 0x80000000:
                    out["lost"] += (seq - last) & 0xFFFFFFFF
                    last_seq[cap] = seq
            stacks = {}
        pos += size + 1
    return out


def main():
    with open(sys.argv[1], "rb") as f:
        buf = f.read()
    print(json.dumps(walk(buf), sort_keys=True))


if __name__ == "__main__":
    main()
