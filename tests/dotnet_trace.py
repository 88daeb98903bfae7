#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Checks on traces of stock .NET processes (EventPipe path), for
tests/dotnet.bats.  Input: `ebpf-collect dump --json --manifest
ClrEtwAll.man FILE` (every runtime event decoded by provider, id and
version, as TraceEvent does).

  dotnet_trace.py counts DUMP.json PID
      one line per check: exceptions (ExceptionThrown_V1 of the process, by
      ExceptionType), gcstart, gcend, induced (GCStart Reason 1),
      contention_start, contention_stop, methods (MethodLoadVerbose names,
      sorted), markers (EvtApp-Marker events)
  dotnet_trace.py hist DUMP.json PID
      Microsoft-Windows-DotNETRuntime events of the process by id/version,
      one "id/version count" per line (comparing two traces)
  dotnet_trace.py order DUMP.json PID
      the merge of both clocks: for each EvtApp-Marker event of the main
      thread, the nearest earlier write/pwrite64 Syscall event of that thread
      in file order must lie after the previous marker (the app writes a
      byte to /dev/null right before each marker); prints
      "<markers> <preceded by their write> <timestamps non-decreasing>"
  dotnet_trace.py fields DUMP.json PID ID
      the decoded fields of each Microsoft-Windows-DotNETRuntime event ID of
      the process, one JSON object a line in file order, with its version
      (comparing the fields two paths recorded of one workload)
  dotnet_trace.py mixed DUMP.json PID
      evtapp --mixed M traced through the tracepoint shim with EventPipe
      beside it (tests/tracepoint_shim.bats): its ExceptionThrown_V1 and
      EvtApp-Marker events, which came by which path (a BPF record has the
      CPU it fired on, an EventPipe event none: 0xffffffff), and their
      order; prints "exceptions <N> <messages 'evtapp 0'.. in order> <by
      BPF>", "markers <N> <Index 0.. in order> <over EventPipe>",
      "alternate <exception i before marker i before exception i+1, in file
      order and by timestamp>" (of M) and "monotonic <the file's timestamps
      non-decreasing>"
  dotnet_trace.py tracecheck-pair TC.jsonl EXTRA
      two traces of one workload as the TraceEvent checker read them
      (TraceCheck --json --no-tracelog A B): A decoded every payload and
      knew every event, and has B's count of each GC and exception kind
      but one GC/Start fewer, and of each contention kind EXTRA fewer (B's
      process counted that many more contended locks) (method loads
      differ: an EventPipe session JIT-compiles the runtime's own code for
      itself, which `counts` leaves out by name); prints "KIND COUNT" per
      kind
  dotnet_trace.py hot DUMP.json PID METHOD
      CPU samples of the process's thread running METHOD, between its first
      and last sample with METHOD on the stack: "<leaf managed == METHOD>
      <samples in window> <named native frames above> <samples with named
      kernel frames in the process>"
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_trace import Names  # noqa: E402

RT = 'Microsoft-Windows-DotNETRuntime'
KERNEL = 0xffff800000000000


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith('{')]


def mine(events, pid):
    return [e for e in events if e.get('pid') == pid and e.get('type') == 'event']


def cmd_counts(events, pid):
    ev = mine(events, pid)
    rt = [e for e in ev if e.get('provider') == RT]
    exc = {}
    for e in rt:
        if e['id'] == 80:
            t = e['fields']['ExceptionType']
            exc[t] = exc.get(t, 0) + 1
    print('exceptions', ' '.join(f'{k}={v}' for k, v in sorted(exc.items())))
    print('gcstart', sum(e['id'] == 1 for e in rt))
    print('gcend', sum(e['id'] == 2 for e in rt))
    print('induced', sum(e['id'] == 1 and e['fields'].get('Reason') == 1 for e in rt))
    print('contention_start', sum(e['id'] == 81 for e in rt))
    print('contention_stop', sum(e['id'] == 91 for e in rt))
    names = sorted({e['fields']['MethodName'] for e in rt
                    if e['id'] == 143 and e['tid'] != 0x7fffffff})
    print('methods', ' '.join(n for n in names if n.startswith('EvtApp')))
    print('markers', sum(e.get('provider') == 'EvtApp-Marker' for e in ev))


def cmd_fields(events, pid, eid):
    for e in mine(events, pid):
        if e.get('provider') == RT and e['id'] == eid:
            print(json.dumps({'v': e.get('version'), **e['fields']}, sort_keys=True))


def cmd_hist(events, pid):
    h = {}
    for e in mine(events, pid):
        if e.get('provider') == RT:
            k = f"{e['id']}/{e['version']}"
            h[k] = h.get(k, 0) + 1
    for k in sorted(h, key=lambda k: tuple(map(int, k.split('/')))):
        print(k, h[k])


def cmd_order(events, pid):
    ev = mine(events, pid)
    marks = [e for e in ev if e.get('provider') == 'EvtApp-Marker']
    if not marks:
        print(0, 0, 0)
        return
    tid = marks[0]['tid']
    last_write = None
    prev_mark_pos = -1
    good = 0
    for pos, e in enumerate(ev):
        if e['tid'] != tid:
            continue
        if e.get('event') == 'Syscall' and e['fields'].get('Name') in ('write', 'pwrite64'):
            last_write = pos
        elif e.get('provider') == 'EvtApp-Marker':
            if last_write is not None and last_write > prev_mark_pos:
                good += 1
            prev_mark_pos = pos
    ts = [e['timestamp'] for e in events if e.get('type') == 'event']
    mono = all(a <= b for a, b in zip(ts, ts[1:]))
    print(len(marks), good, int(mono))


def cmd_mixed(events, pid):
    ev = mine(events, pid)
    exc = [e for e in ev if e.get('provider') == RT and e['id'] == 80]
    marks = [e for e in ev if e.get('provider') == 'EvtApp-Marker']
    no_cpu = 0xffffffff
    print('exceptions', len(exc),
          int([e['fields']['ExceptionMessage'] for e in exc] ==
              [f'evtapp {i}' for i in range(len(exc))]),
          sum(e['cpu'] != no_cpu for e in exc))
    print('markers', len(marks),
          int([e['fields']['Index'] for e in marks] == list(range(len(marks)))),
          sum(e['cpu'] == no_cpu for e in marks))
    # exception i, marker i, exception i + 1: in the file and in time
    pos = {id(e): k for k, e in enumerate(ev)}
    seq = [e for pair in zip(exc, marks) for e in pair]
    good = sum(1 for k in range(0, len(seq), 2)
               if all(pos[id(a)] < pos[id(b)] and a['timestamp'] < b['timestamp']
                      for a, b in zip(seq[k:k + 3], seq[k + 1:k + 3])))
    print('alternate', good)
    ts = [e['timestamp'] for e in events if e.get('type') == 'event']
    print('monotonic', int(all(a <= b for a, b in zip(ts, ts[1:]))))


def cmd_hot(events, pid, method):
    names = Names(events)
    samples = [e for e in mine(events, pid)
               if e.get('provider') == 'Microsoft-DotNETCore-SampleProfiler']
    named = [(e, names.stack(e['stack'])) for e in samples]
    on = [(e, st) for e, st in named if any(method in f[1] for f in st)]
    kernel_named = sum(any(f[0] >= KERNEL and f[1] != '[unknown]' for f in st)
                       for _, st in named)
    if not on:
        print(0, 0, 0, kernel_named)
        return
    tid = on[0][0]['tid']
    t0, t1 = on[0][0]['timestamp'], on[-1][0]['timestamp']
    window = [(e, st) for e, st in named
              if e['tid'] == tid and t0 <= e['timestamp'] <= t1]
    leaf = native = 0
    for e, st in window:
        jit = [f for f in st if f[2]]
        if jit and method in jit[0][1]:
            leaf += 1
        i = next((k for k, f in enumerate(st) if method in f[1]), None)
        if i is not None and any(not f[2] and f[0] < KERNEL and f[1] != '[unknown]'
                                 for f in st[i + 1:]):
            native += 1
    print(leaf, len(window), native, kernel_named)


def cmd_tracecheck_pair(path, extra):
    a, b = [json.loads(line) for line in open(path)]
    if a['bad_payloads'] or a['unhandled']:
        sys.exit(f'undecoded payloads or unknown events: {a}')
    for k in ('Exception/Start', 'ExceptionCatch/Start', 'GC/Stop', 'Contention/Start',
              'Contention/Stop', 'GC/HeapStats'):
        more = extra if k.startswith('Contention/') else 0
        k = RT + '/' + k
        n = a['by_event'].get(k, 0)
        print(k, n)
        if not n or n + more != b['by_event'].get(k):
            sys.exit(f'{k}: {n} against {b["by_event"].get(k)}')
    k = RT + '/GC/Start'
    if a['by_event'].get(k, 0) + 1 != b['by_event'].get(k):
        sys.exit(f'{k}: {a["by_event"].get(k)} against {b["by_event"].get(k)}')


def main():
    cmd, path, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if cmd == 'tracecheck-pair':
        cmd_tracecheck_pair(path, pid)
        return
    events = load(path)
    if cmd == 'counts':
        cmd_counts(events, pid)
    elif cmd == 'hist':
        cmd_hist(events, pid)
    elif cmd == 'order':
        cmd_order(events, pid)
    elif cmd == 'hot':
        cmd_hot(events, pid, sys.argv[4])
    elif cmd == 'mixed':
        cmd_mixed(events, pid)
    elif cmd == 'fields':
        cmd_fields(events, pid, int(sys.argv[4]))
    else:
        sys.exit(f'unknown command {cmd}')


if __name__ == '__main__':
    main()
