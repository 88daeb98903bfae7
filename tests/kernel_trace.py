#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Checks on kernel events in a .nettrace, for tests/kernel.bats.

Reads `ebpf-collect dump --json FILE` and names stack frames from the
trace's own method events (rundown MethodDCEndVerbose / MethodLoadVerbose,
the same records TraceEvent uses), with the viewers' convention: the leaf
as is, callers at address - 1.

  kernel_trace.py offcpu DUMP.json LEAF_SUBSTR CALLER_SUBSTR [REFRT.json]
      sum of OffCpu DurationNs whose stack's leaf user frame contains
      LEAF_SUBSTR and which has a frame containing CALLER_SUBSTR;
      prints "<ns> <events> <total off-CPU ns> <woken by partner> <example>"
      (woken by partner: intervals whose WakerTid is the waiting worker's
      partner in refrt's contention pairs (2k, 2k+1); -1 without REFRT.json)
  kernel_trace.py wakers DUMP.json FRAME WAKE_CALLER
      SchedWakeup events whose waker stack has a frame containing FRAME and
      whose second frame (the caller of try_to_wake_up) contains
      WAKE_CALLER, and how many of them wake a thread of another process
  kernel_trace.py header FILE.nettrace
      the trace object's ExpectedCPUSamplingRate (ns)
  kernel_trace.py samples DUMP.json METHOD_SUBSTR
      CPU samples (SampleProfiler) and how many have METHOD_SUBSTR as their
      leaf managed (JIT) frame; prints "<with> <total> <managed>"
  kernel_trace.py syscalls DUMP.json NAME FD
      number of Syscall events named NAME with Arg0 == FD, and their
      count of Ret > 0
  kernel_trace.py proc DUMP.json
      the Fork/Exec/Exit events in file order, one per line
"""
import bisect
import json
import sys

JITTED = 0x8


def load(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.startswith('{')]


class Names:
    def __init__(self, events):
        rng = []
        for e in events:
            if e.get('id') in (143, 144) and 'MethodStartAddress' in e.get('fields', {}):
                f = e['fields']
                ns = f.get('MethodNamespace', '')
                name = (ns + '.' if ns else '') + f.get('MethodName', '')
                rng.append((f['MethodStartAddress'], f['MethodSize'], name,
                            bool(f.get('MethodFlags', 0) & JITTED)))
        rng.sort()
        self.rng = rng
        self.starts = [r[0] for r in rng]

    def find(self, ip):
        i = bisect.bisect_right(self.starts, ip) - 1
        while i >= 0:
            s, size, name, jit = self.rng[i]
            if s <= ip < s + size:
                return name, jit
            if ip - s > 1 << 24:
                break
            i -= 1
        return None, False

    def stack(self, st):
        out = []
        for i, a in enumerate(st):
            ip = int(a, 16) if isinstance(a, str) else a
            name, jit = self.find(ip if i == 0 else ip - 1)
            out.append((ip, name or '[unknown]', jit))
        return out


def user_frames(frames):
    return [f for f in frames if f[0] < 0xffff800000000000]


def cmd_offcpu(events, leaf, caller, summary=None):
    names = Names(events)
    total = hit = n = 0
    partner = {}
    if summary:
        with open(summary) as f:
            ws = json.load(f)['workers']
        tids = {w['index']: w['tid'] for w in ws}
        for i, t in tids.items():
            if i ^ 1 in tids:
                partner[t] = tids[i ^ 1]
    by_partner = 0 if summary else -1
    example = ''
    for e in events:
        if e.get('event') != 'OffCpu':
            continue
        d = e['fields']['DurationNs']
        total += d
        u = user_frames(names.stack(e['stack']))
        if not u or leaf not in u[0][1] or not any(caller in f[1] for f in u):
            continue
        hit += d
        n += 1
        if summary and partner.get(e['fields']['Tid']) == e['fields']['WakerTid']:
            by_partner += 1
        if not example:
            example = ';'.join(f[1] for f in names.stack(e['stack']))
    print(hit, n, total, by_partner, example)


def cmd_wakers(events, frame1, frame2):
    names = Names(events)
    n = other = 0
    for e in events:
        if e.get('event') != 'SchedWakeup' or not e['stack']:
            continue
        st = names.stack(e['stack'])
        if any(frame1 in f[1] for f in st) and len(st) > 1 and frame2 in st[1][1]:
            n += 1
            other += e['fields']['WakeePid'] != e['fields']['WakerPid']
    print(n, other)


def cmd_samples(events, method):
    names = Names(events)
    total = managed = hit = 0
    for e in events:
        if e.get('provider') != 'Microsoft-DotNETCore-SampleProfiler':
            continue
        total += 1
        fr = names.stack(e['stack'])
        jit = [f for f in fr if f[2]]
        if jit:
            managed += 1
            if method in jit[0][1]:
                hit += 1
    print(hit, total, managed)


def cmd_syscalls(events, name, fd):
    n = pos = 0
    for e in events:
        if e.get('event') == 'Syscall' and e['fields']['Name'] == name and \
                e['fields']['Arg0'] == fd:
            n += 1
            pos += e['fields']['Ret'] > 0
    print(n, pos)


def cmd_proc(events):
    for e in events:
        if e.get('provider') == 'Linux-Kernel-Process':
            f = e['fields']
            if e['event'] == 'Fork':
                print('Fork', f['ParentPid'], f['ChildPid'], int(f['IsThread']))
            elif e['event'] == 'Exec':
                print('Exec', f['Pid'], f['Filename'])
            else:
                print('Exit', f['Pid'], f['Tid'], f['ExitCode'], int(f['GroupDead']))


def cmd_header(path):
    with open(path, 'rb') as f:
        f.seek(0x35 + 44)
        print(int.from_bytes(f.read(4), 'little'))


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == 'header':
        cmd_header(path)
        return
    ev = load(path)
    if cmd == 'offcpu':
        cmd_offcpu(ev, sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None)
    elif cmd == 'wakers':
        cmd_wakers(ev, sys.argv[3], sys.argv[4])
    elif cmd == 'samples':
        cmd_samples(ev, sys.argv[3])
    elif cmd == 'syscalls':
        cmd_syscalls(ev, sys.argv[3], int(sys.argv[4]))
    elif cmd == 'proc':
        cmd_proc(ev)
    else:
        sys.exit('unknown command ' + cmd)


if __name__ == '__main__':
    main()
