#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Read and write a running refrt's provider state through /proc/PID/mem.

  refrt_mem.py state PID        "SEMAPHORES_SUM PAUSE_WORD BATCH_SEMAPHORE"
  refrt_mem.py counts PID       refrt's per-event counts so far, as JSON
                                ({"Symbol": n}, the names of its summary)
  refrt_mem.py set-word PID N   write N into clretw_tracer_pause (what a
                                tracer of the older protocol that died left)
  refrt_mem.py wait-idle PID S  wait up to S seconds until no semaphore and
                                no pause word is raised; exit 1 if never

Symbols come from `nm` of the executable; the load base from /proc/PID/maps
(the mapping of file offset 0).  Test tool only.
"""
import json
import os
import subprocess
import sys
import time


def symbols(exe):
    out = subprocess.run(["nm", "-S", exe], check=True, capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4:
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
        elif len(f) == 3:
            syms[f[2]] = (int(f[0], 16), 0)
    return syms


def base(pid, exe):
    real = os.path.realpath(exe)
    for line in open("/proc/%d/maps" % pid):
        f = line.split()
        if len(f) >= 6 and os.path.realpath(f[5]) == real and int(f[2], 16) == 0:
            return int(f[0].split("-")[0], 16)
    raise SystemExit("pid %d does not map %s" % (pid, exe))


def probe_semaphores(exe):
    """Addresses (ELF values) of every runtime probe's semaphore."""
    syms = symbols(exe)
    return [v for k, (v, _) in syms.items()
            if k.startswith("DotNETRuntime") and k.endswith("_semaphore")]


def read(mem, addr, n):
    mem.seek(addr)
    return int.from_bytes(mem.read(n), "little")


def state(pid, exe):
    syms = symbols(exe)
    b = base(pid, exe)
    with open("/proc/%d/mem" % pid, "rb", buffering=0) as mem:
        semas = sum(read(mem, b + v, 2) for v in probe_semaphores(exe))
        word = read(mem, b + syms["clretw_tracer_pause"][0], 4)
        batch = read(mem, b + syms["clretw_batch_semaphore"][0], 2) \
            if "clretw_batch_semaphore" in syms else 0
    return semas, word, batch


def counts(pid, exe, names):
    syms = symbols(exe)
    addr, size = syms["ev_counts"]
    b = base(pid, exe)
    with open("/proc/%d/mem" % pid, "rb", buffering=0) as mem:
        mem.seek(b + addr)
        raw = mem.read(size)
    vals = [int.from_bytes(raw[i:i + 8], "little") for i in range(0, size, 8)]
    if len(vals) != len(names):
        raise SystemExit("ev_counts has %d entries, the summary %d names" % (len(vals), len(names)))
    return dict(zip(names, vals))


def event_names(exe):
    """The summary's event names in order (refrt --iterations 1)."""
    out = subprocess.run([exe, "--scenario", "cpu", "--iterations", "1", "--threads", "1"],
                         check=True, capture_output=True, text=True).stdout
    return list(json.loads(out)["events"])


def main():
    cmd, pid = sys.argv[1], int(sys.argv[2])
    exe = os.readlink("/proc/%d/exe" % pid)
    if cmd == "state":
        print(*state(pid, exe))
    elif cmd == "counts":
        print(json.dumps(counts(pid, exe, event_names(exe))))
    elif cmd == "set-word":
        syms = symbols(exe)
        with open("/proc/%d/mem" % pid, "r+b", buffering=0) as mem:
            mem.seek(base(pid, exe) + syms["clretw_tracer_pause"][0])
            mem.write(int(sys.argv[3]).to_bytes(4, "little"))
    elif cmd == "wait-idle":
        deadline = time.monotonic() + float(sys.argv[3])
        while True:
            s = state(pid, exe)
            if s == (0, 0, 0):
                return
            if time.monotonic() > deadline:
                print("still raised after %s s: semaphores %d, pause word %d, batch semaphore %d"
                      % ((sys.argv[3],) + s))
                sys.exit(1)
            time.sleep(0.02)
    else:
        raise SystemExit("unknown command " + cmd)


if __name__ == "__main__":
    main()
