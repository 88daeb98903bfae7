#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Convert a V4/V5 .nettrace file to the V6 block format (docs/nettrace-format.md
section 12), for tests/nettrace.bats: the C reader must give the same events
for both.  Written from docs/nettrace-format.md, independently of symbolizer/.

Threads become indexes defined by Thread blocks (emitted before the first
block that uses them); metadata becomes V6 rows (V1 fields and V2Params
arrays as V6 field descriptions, keywords/level/version/opcode as optional
metadata); event headers are re-compressed with thread indexes.  Activity
ids are dropped (V6 carries them in label lists).  Payloads and stacks are
copied unchanged.

Usage: nettrace_to_v6.py IN OUT
"""
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


def enc_varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def utf16z(buf, pos):
    end = pos
    while buf[end:end + 2] != b"\0\0":
        end += 2
    return buf[pos:end].decode("utf-16-le", "surrogatepass"), end + 2


def str6(s):
    b = s.encode("utf-8", "surrogatepass")
    return enc_varint(len(b)) + b


# --- V5 metadata -> V6 field descriptions ---------------------------------

def v1_fields(p, pos, n):
    fields = []
    for _ in range(n):
        t = struct.unpack_from("<i", p, pos)[0]
        pos += 4
        sub = None
        if t == 1:
            cnt = struct.unpack_from("<i", p, pos)[0]
            sub, pos = v1_fields(p, pos + 4, cnt)
        name, pos = utf16z(p, pos)
        fields.append((name, (t, None, sub)))
    return fields, pos


def v2_type(p, pos):
    t = struct.unpack_from("<i", p, pos)[0]
    pos += 4
    elem = sub = None
    if t == 19:
        elem, pos = v2_type(p, pos)
    elif t == 1:
        cnt = struct.unpack_from("<i", p, pos)[0]
        sub, pos = v2_fields(p, pos + 4, cnt)
    return (t, elem, sub), pos


def v2_fields(p, pos, n):
    fields = []
    for _ in range(n):
        start = pos
        size = struct.unpack_from("<i", p, pos)[0]
        name, q = utf16z(p, pos + 4)
        typ, _ = v2_type(p, q)
        fields.append((name, typ))
        pos = start + size
    return fields, pos


def enc_type(typ):
    t, elem, sub = typ
    out = bytes([t])
    if t == 19:
        out += enc_type(elem)
    elif t == 1:
        out += enc_fields(sub)
    return out


def enc_fields(fields):
    out = struct.pack("<H", len(fields))
    for name, typ in fields:
        f = str6(name) + enc_type(typ)
        out += struct.pack("<H", len(f)) + f
    return out


def metadata_row(p):
    mid = struct.unpack_from("<i", p, 0)[0]
    prov, pos = utf16z(p, 4)
    eid = struct.unpack_from("<i", p, pos)[0]
    name, pos = utf16z(p, pos + 4)
    kw, ver, lvl = struct.unpack_from("<qii", p, pos)
    pos += 16
    fields, opcode = [], 0
    if pos + 4 <= len(p):
        n = struct.unpack_from("<i", p, pos)[0]
        fields, pos = v1_fields(p, pos + 4, n)
        while pos + 5 <= len(p):
            tlen, kind = struct.unpack_from("<iB", p, pos)
            body = p[pos + 5:pos + 5 + tlen]
            pos += 5 + tlen
            if kind == 1:
                opcode = body[0]
            elif kind == 2:
                n = struct.unpack_from("<i", body, 0)[0]
                fields, _ = v2_fields(body, 4, n)
    opt = bytearray()
    if opcode:
        opt += bytes([1, opcode])
    if kw:
        opt += bytes([3]) + struct.pack("<q", kw)
    opt += bytes([8, lvl & 0xFF])
    if ver:
        opt += bytes([9, ver & 0xFF])
    row = (enc_varint(mid) + str6(prov) + enc_varint(eid) + str6(name) +
           enc_fields(fields) + struct.pack("<H", len(opt)) + opt)
    return struct.pack("<H", len(row)) + row


# --- conversion ------------------------------------------------------------

class Converter:
    def __init__(self, pid):
        self.out = bytearray()
        self.pid = pid
        self.index = {}          # OS thread id -> index

    def block(self, kind, content):
        assert len(content) < 1 << 24
        self.out += struct.pack("<I", len(content) | kind << 24) + content

    def thread_indexes(self, tids):
        rows = bytearray()
        for tid in tids:
            if tid in self.index:
                continue
            idx = self.index[tid] = len(self.index) + 1
            row = enc_varint(idx) + b"\x02" + enc_varint(self.pid) + b"\x03" + enc_varint(tid)
            rows += struct.pack("<H", len(row)) + row
        if rows:
            self.block(6, bytes(rows))

    def events(self, body, hsize):
        evs, p, prev = [], hsize, dict(meta=0, seq=0, cap=0, proc=0, tid=0, stack=0, ts=0, size=0)
        while p < len(body):
            flags = body[p]
            p += 1
            cur = dict(prev)
            if flags & 1:
                cur["meta"], p = varint(body, p)
            if flags & 2:
                d, p = varint(body, p)
                cur["seq"] = (prev["seq"] + d + 1) & 0xFFFFFFFF
                cur["cap"], p = varint(body, p)
                cur["proc"], p = varint(body, p)
            elif cur["meta"]:
                cur["seq"] = (prev["seq"] + 1) & 0xFFFFFFFF
            if flags & 4:
                cur["tid"], p = varint(body, p)
            if flags & 8:
                cur["stack"], p = varint(body, p)
            d, p = varint(body, p)
            cur["ts"] = prev["ts"] + d
            p += 16 * bool(flags & 0x10) + 16 * bool(flags & 0x20)
            cur["sorted"] = flags & 0x40
            if flags & 0x80:
                cur["size"], p = varint(body, p)
            cur["payload"] = body[p:p + cur["size"]]
            p += cur["size"]
            evs.append(cur)
            prev = cur
        return evs

    def event_block(self, body):
        hsize = struct.unpack_from("<H", body, 0)[0]
        evs = self.events(body, hsize)
        self.thread_indexes([e[k] for e in evs for k in ("cap", "tid")])
        out = bytearray(body[:20])
        prev = dict(meta=0, seq=0, cap=0, proc=0, tid=0, stack=0, ts=0, size=0)
        for e in evs:
            cap, tid = self.index[e["cap"]], self.index[e["tid"]]
            flags, h = e["sorted"], bytearray()
            if e["meta"] != prev["meta"]:
                flags |= 1
                h += enc_varint(e["meta"])
            if ((prev["seq"] + 1) & 0xFFFFFFFF != e["seq"] or cap != prev["cap"] or
                    e["proc"] != prev["proc"]):
                flags |= 2
                h += enc_varint((e["seq"] - prev["seq"] - 1) & 0xFFFFFFFF)
                h += enc_varint(cap) + enc_varint(e["proc"])
            if tid != prev["tid"]:
                flags |= 4
                h += enc_varint(tid)
            if e["stack"] != prev["stack"]:
                flags |= 8
                h += enc_varint(e["stack"])
            h += enc_varint(e["ts"] - prev["ts"])
            if len(e["payload"]) != prev["size"]:
                flags |= 0x80
                h += enc_varint(len(e["payload"]))
            out += bytes([flags]) + h + e["payload"]
            prev = dict(meta=e["meta"], seq=e["seq"], cap=cap, proc=e["proc"], tid=tid,
                        stack=e["stack"], ts=e["ts"], size=len(e["payload"]))
        self.block(2, bytes(out))

    def metadata_block(self, body):
        hsize = struct.unpack_from("<H", body, 0)[0]
        rows = bytearray(b"\0\0")
        for e in self.events(body, hsize):
            rows += metadata_row(e["payload"])
        self.block(3, bytes(rows))

    def sp_block(self, body):
        ts, count = struct.unpack_from("<qI", body, 0)
        entries = [struct.unpack_from("<QI", body, 12 + 12 * i) for i in range(count)]
        self.thread_indexes([t for t, _ in entries])
        out = struct.pack("<qII", ts, 0, count)
        for t, seq in entries:
            out += enc_varint(self.index[t]) + enc_varint(seq)
        self.block(4, out)


def convert(buf):
    assert buf[:8] == b"Nettrace" and buf[12:32] == b"!FastSerialization.1"
    pos = 32 + 16 + 5
    trace = buf[pos:pos + 48]
    pid = struct.unpack_from("<i", trace, 36)[0]
    c = Converter(pid)
    c.out += b"Nettrace" + struct.pack("<III", 0, 6, 0)
    kv = [("ProcessId", str(pid)),
          ("HardwareThreadCount", str(struct.unpack_from("<i", trace, 40)[0])),
          ("ExpectedCPUSamplingRate", str(struct.unpack_from("<i", trace, 44)[0]))]
    t = trace[:36] + struct.pack("<i", len(kv))
    for k, v in kv:
        t += str6(k) + str6(v)
    c.block(1, t)
    pos += 49
    while buf[pos] != 1:
        nlen = struct.unpack_from("<i", buf, pos + 11)[0]
        name = buf[pos + 15:pos + 15 + nlen].decode()
        pos += 16 + nlen
        size = struct.unpack_from("<I", buf, pos)[0]
        pos += 4
        pos += (-pos) % 4
        body = buf[pos:pos + size]
        pos += size + 1
        if name == "EventBlock":
            c.event_block(body)
        elif name == "MetadataBlock":
            c.metadata_block(body)
        elif name == "StackBlock":
            c.block(5, body)
        elif name == "SPBlock":
            c.sp_block(body)
    c.block(0, b"")
    return bytes(c.out)


def main():
    with open(sys.argv[1], "rb") as f:
        buf = f.read()
    with open(sys.argv[2], "wb") as f:
        f.write(convert(buf))


if __name__ == "__main__":
    main()
