#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""A hostile or broken .NET diagnostics peer, for tests/hostile_ipc.bats.

It listens where a runtime of this process would
(<TMPDIR>/dotnet-diagnostic-<its pid>-<its start time>-socket), so the
collector takes it for a stock .NET process, and answers CollectTracing as
MODE says:

  garbage   an OK reply with a session id, then random bytes, without end
  endless   an OK reply, a valid Nettrace header, then sequence-point blocks
            without end (StopTracing is answered, and ignored)
  slow      the OK reply one byte every --gap seconds
  trickle   an OK reply, then the Nettrace header one byte every --gap s
  silent    nothing: the request is read, the connection held open
  huge      an OK reply, a valid Nettrace header, then an EventBlock that
            claims 4 GB, followed by zero bytes without end
  types     an OK reply, a valid Nettrace header, then new event types with
            200 fields each, without end (the reader's metadata would grow)
  future    an OK reply, a valid Nettrace header, one event, then events
            stamped a day ahead, without end (they would wait in the
            collector's reorder buffer for ever)

Other commands (EnablePerfMap, StopTracing, ...) get an OK reply at once.
Prints "READY <socket path>" when it listens and "COMMAND <set> <id>" for
each request (StopTracing is 0x02 0x01); removes the socket at exit
(SIGTERM, SIGINT).
"""
import argparse
import os
import random
import signal
import socket
import struct
import sys
import threading
import time

IPC_MAGIC = b"DOTNET_IPC_V1\0"
SESSION_ID = 0x1234


def ipc_header(total, cmdset, cmdid):
    return IPC_MAGIC + struct.pack("<HBBH", total, cmdset, cmdid, 0)


def ok_reply(payload):
    return ipc_header(20 + len(payload), 0xFF, 0x00) + payload


def read_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


class Nettrace:
    """A V5 stream (FastSerialization container), written as bytes."""

    def __init__(self):
        self.off = 0

    def put(self, b):
        self.off += len(b)
        return b

    def header(self):
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        trace = struct.pack("<8h", 2026, 1, 4, 1, 0, 0, 0, 0)
        trace += struct.pack("<qqiiii", now, 1000000000, 8, os.getpid(), 2, 1000000)
        b = b"Nettrace" + struct.pack("<i", 20) + b"!FastSerialization.1"
        b += self.object_start("Trace", 4) + trace + b"\x06"
        return self.put(b)

    @staticmethod
    def object_start(name, version):
        n = name.encode()
        return b"\x05\x05\x01" + struct.pack("<iii", version, version, len(n)) + n + b"\x06"

    def block(self, name, content, claimed=None):
        """An object: its start, the block size, padding to a 4-byte stream
        offset, the content (claimed: the size it says it has)."""
        b = self.object_start(name, 2)
        b += struct.pack("<I", len(content) if claimed is None else claimed)
        b += b"\0" * ((4 - (self.off + len(b)) % 4) % 4)
        if claimed is None:
            b += content + b"\x06"
        else:
            b += content
        return self.put(b)

    @staticmethod
    def varint(v):
        b = b""
        while True:
            if v < 0x80:
                return b + bytes([v])
            b += bytes([v & 0x7F | 0x80])
            v >>= 7

    def metadata(self, first=1, count=1, fields=0):
        """Metadata ids first..first+count-1: Fake-Source events with
        `fields` Int32 fields each (none: "Tick")."""
        blobs = b""
        for mid in range(first, first + count):
            rec = struct.pack("<i", mid) + "Fake-Source\0".encode("utf-16-le")
            rec += struct.pack("<i", mid) + "Tick\0".encode("utf-16-le")
            rec += struct.pack("<qiii", 1, 1, 4, fields)
            rec += (struct.pack("<i", 9) + "f\0".encode("utf-16-le")) * fields
            blobs += bytes([0x80]) + self.varint(0) + self.varint(len(rec)) + rec
        return self.block("MetadataBlock", struct.pack("<HHqq", 20, 1, 0, 0) + blobs)

    def events(self, first_seq, timestamps):
        """Events of metadata 1 on thread 100, no payload, one block."""
        blobs, prev = b"", 0
        for i, ts in enumerate(timestamps):
            flags = 0x87 if i == 0 else 0x00	# metadata, sequence, thread; then same
            blobs += bytes([flags])
            if i == 0:
                blobs += self.varint(1) + self.varint(first_seq - 1) + self.varint(100)
                blobs += self.varint(0) + self.varint(100)
            blobs += self.varint(ts - prev)
            if i == 0:
                blobs += self.varint(0)
            prev = ts
        hdr = struct.pack("<HHqq", 20, 1, min(timestamps), max(timestamps))
        return self.block("EventBlock", hdr + blobs)

    def sequence_point(self):
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        return self.block("SPBlock", struct.pack("<qI", now, 0))


def send_slowly(conn, data, gap):
    for i in range(len(data)):
        conn.sendall(data[i:i + 1])
        time.sleep(gap)


def collect_tracing(conn, mode, gap):
    reply = ok_reply(struct.pack("<Q", SESSION_ID))
    if mode == "silent":
        while conn.recv(65536):
            pass
        return
    if mode == "slow":
        send_slowly(conn, reply, gap)
        return
    conn.sendall(reply)
    nt = Nettrace()
    if mode == "trickle":
        send_slowly(conn, nt.header(), gap)
        return
    if mode == "garbage":
        rnd = random.Random(1)
        while True:
            conn.sendall(rnd.randbytes(65536))
    conn.sendall(nt.header())
    if mode == "huge":
        conn.sendall(nt.block("EventBlock", b"", claimed=0xFFFFFFF0))
        zeros = bytes(65536)
        while True:
            conn.sendall(zeros)
    if mode == "future":
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        conn.sendall(nt.metadata() + nt.events(1, [now]))
        seq, day = 2, 86400 * 10**9
        while True:
            conn.sendall(nt.events(seq, [now + day] * 1000))
            seq += 1000
    if mode == "types":
        mid = 1
        while True:
            conn.sendall(nt.metadata(mid, 50, 200))
            mid += 50
    if mode == "endless":
        while True:
            conn.sendall(b"".join(nt.sequence_point() for _ in range(256)))


def serve(conn, mode, gap):
    try:
        hdr = read_exact(conn, 20)
        total, cmdset, cmdid, _ = struct.unpack("<HBBH", hdr[14:20])
        read_exact(conn, total - 20)
        print("COMMAND %#04x %#04x" % (cmdset, cmdid), flush=True)
        if cmdset == 0x02 and cmdid in (0x03, 0x04):
            collect_tracing(conn, mode, gap)
        elif cmdset == 0x02 and cmdid == 0x01:
            conn.sendall(ok_reply(struct.pack("<Q", SESSION_ID)))
        else:
            conn.sendall(ok_reply(struct.pack("<I", 0)))
    except (EOFError, OSError):
        pass
    finally:
        conn.close()


def start_time():
    with open("/proc/self/stat") as f:
        stat = f.read()
    return int(stat[stat.rindex(")") + 2:].split()[19])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["garbage", "endless", "slow", "trickle", "silent", "huge",
                                       "future", "types"])
    ap.add_argument("--gap", type=float, default=2.0, help="slow: seconds between bytes")
    args = ap.parse_args()
    tmp = os.environ.get("TMPDIR", "/tmp")
    path = "%s/dotnet-diagnostic-%d-%d-socket" % (tmp, os.getpid(), start_time())
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(16)

    def leave(*_):
        try:
            os.unlink(path)
        finally:
            os._exit(0)

    signal.signal(signal.SIGTERM, leave)
    signal.signal(signal.SIGINT, leave)
    print("READY", path, flush=True)
    try:
        while True:
            conn, _ = srv.accept()
            threading.Thread(target=serve, args=(conn, args.mode, args.gap),
                             daemon=True).start()
    finally:
        leave()


if __name__ == "__main__":
    sys.exit(main())
