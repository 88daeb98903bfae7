#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""usdt_notes.py - list and check the stapsdt notes of an ELF file.

Usage: usdt_notes.py ELF

Reads the ELF64 little-endian file directly (no pyelftools), walks every
NT_STAPSDT note in .note.stapsdt and prints one line per probe:

    PROVIDER:NAME pc=0x... sema=0x... site=0f1f440000 args=...

then a summary line:

    probes N unique N with-semaphore N semaphore-in-.probes N nop5-sites N

Exit status 0 when every probe has a semaphore inside .probes and a 5-byte
nop (0f 1f 44 00 00) at its address, 1 otherwise, 2 on a malformed file.
Addresses are link-time addresses, adjusted by .stapsdt.base as the
SystemTap note format specifies (a no-op unless the file was prelinked).
"""
import struct
import sys

NOP5 = bytes.fromhex("0f1f440000")


def sections(data):
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not an ELF64 little-endian file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    raw = []
    for i in range(shnum):
        (name, typ, flags, addr, off, size, link, info, align,
         entsize) = struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
        raw.append((name, typ, addr, off, size))
    stroff = raw[shstrndx][3]
    out = []
    for name, typ, addr, off, size in raw:
        end = data.index(b"\0", stroff + name)
        out.append((data[stroff + name:end].decode(), typ, addr, off, size))
    return out


def file_bytes(data, secs, addr, n):
    for name, typ, saddr, off, size in secs:
        if typ != 8 and saddr and saddr <= addr and addr + n <= saddr + size:
            return data[off + addr - saddr: off + addr - saddr + n]
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    data = open(sys.argv[1], "rb").read()
    try:
        secs = sections(data)
    except (ValueError, struct.error) as e:
        print("usdt_notes: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 2
    by_name = {s[0]: s for s in secs}
    probes_sec = by_name.get(".probes")
    base_sec = by_name.get(".stapsdt.base")
    notes = [s for s in secs if s[0] == ".note.stapsdt"]
    probes = []
    for _, _, _, off, size in notes:
        pos, end = off, off + size
        while pos + 12 <= end:
            namesz, descsz, typ = struct.unpack_from("<III", data, pos)
            name = data[pos + 12: pos + 12 + namesz]
            desc = pos + 12 + ((namesz + 3) & ~3)
            pos = desc + ((descsz + 3) & ~3)
            if name != b"stapsdt\0" or typ != 3:
                continue
            pc, base, sema = struct.unpack_from("<QQQ", data, desc)
            strs = data[desc + 24: desc + descsz].split(b"\0")
            if base_sec and base_sec[2]:
                pc += base_sec[2] - base
                if sema:
                    sema += base_sec[2] - base
            probes.append((strs[0].decode(), strs[1].decode(), pc, sema, strs[2].decode()))
    bad = 0
    n_sema = n_in_probes = n_nop = 0
    for prov, name, pc, sema, args in probes:
        site = file_bytes(data, secs, pc, 5)
        in_probes = bool(probes_sec and sema and
                         probes_sec[2] <= sema < probes_sec[2] + probes_sec[4])
        n_sema += sema != 0
        n_in_probes += in_probes
        n_nop += site == NOP5
        if not sema or not in_probes or site != NOP5:
            bad += 1
        print("%s:%s pc=0x%x sema=0x%x site=%s args=%s" %
              (prov, name, pc, sema, site.hex() if site else "?", args))
    uniq = len({(p[0], p[1]) for p in probes})
    print("probes %d unique %d with-semaphore %d semaphore-in-.probes %d nop5-sites %d" %
          (len(probes), uniq, n_sema, n_in_probes, n_nop))
    return 1 if bad or not probes else 0


if __name__ == "__main__":
    sys.exit(main())
