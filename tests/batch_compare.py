#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Compare the GCDynamicEvent events of two traces of bench_probes -V.

  batch_compare.py A.jsonl B.jsonl THREADS COUNT
  batch_compare.py --in-order A.jsonl THREADS

A and B are `ebpf-collect dump --json` outputs.  bench_probes -V puts each
event's thread number << 40 | index in the first 8 bytes of Data.  Checks,
for each trace: every thread has exactly COUNT events, in the order it fired
them (index 0..COUNT-1), timestamps never going back on a thread; and that
both traces hold the same events: payload fields and activity ids equal,
event for event, per thread.  With --in-order (a trace with losses): each
thread's events are the ones it fired in that order, some missing, and
timestamps never go back on a thread.  Prints one line per problem, exit 1
if any.
"""
import json
import sys


def per_thread(path):
    threads = {}
    for line in open(path):
        o = json.loads(line)
        if o.get("type") != "event" or o.get("event") != "GCDynamicEvent":
            continue
        f = o["fields"]
        tag = int.from_bytes(bytes.fromhex(f["Data"][:16]), "little")
        threads.setdefault(tag >> 40, []).append(
            (tag & ((1 << 40) - 1), o["timestamp"], o["tid"], f["Name"], f["DataSize"], f["Data"],
             f["ClrInstanceID"], o.get("activity_id"), o.get("related_activity_id")))
    return threads


def check_one(name, threads, nthreads, count=None):
    """Every thread there, its events on one tid, timestamps never going back;
    with count: exactly events 0..count-1 in order; without: the ones left in
    the order fired, none twice."""
    bad = []
    if sorted(threads) != list(range(nthreads)):
        bad.append(f"{name}: threads {sorted(threads)}, expected 0..{nthreads - 1}")
    for t, evs in sorted(threads.items()):
        idx = [e[0] for e in evs]
        if count is not None and idx != list(range(count)):
            miss = count - len(set(idx))
            bad.append(f"{name}: thread {t}: {len(evs)} events, {miss} missing, "
                       f"in order: {idx == sorted(idx)}")
        if count is None and any(b <= a for a, b in zip(idx, idx[1:])):
            bad.append(f"{name}: thread {t}: events out of the order fired, or twice")
        ts = [e[1] for e in evs]
        if any(b < a for a, b in zip(ts, ts[1:])):
            bad.append(f"{name}: thread {t}: timestamps go back")
        if len({e[2] for e in evs}) != 1:
            bad.append(f"{name}: thread {t}: events on several tids")
    return bad


def in_order(path, nthreads):
    threads = per_thread(path)
    bad = check_one(path, threads, nthreads)
    for line in bad:
        print(line)
    if not bad:
        print(f"in order: {nthreads} threads, {sum(len(e) for e in threads.values())} events")
    return 1 if bad else 0


def main():
    if sys.argv[1] == "--in-order":
        return in_order(sys.argv[2], int(sys.argv[3]))
    a_path, b_path, nthreads, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    a, b = per_thread(a_path), per_thread(b_path)
    bad = check_one(a_path, a, nthreads, count) + check_one(b_path, b, nthreads, count)
    for t in sorted(set(a) | set(b)):
        ea = [e[:1] + e[3:] for e in a.get(t, [])]
        eb = [e[:1] + e[3:] for e in b.get(t, [])]
        if ea != eb:
            diff = next((i for i, (x, y) in enumerate(zip(ea, eb)) if x != y), min(len(ea), len(eb)))
            bad.append(f"thread {t}: the traces differ from event {diff} "
                       f"({ea[diff] if diff < len(ea) else None} vs "
                       f"{eb[diff] if diff < len(eb) else None})")
    for line in bad:
        print(line)
    if not bad:
        print(f"equal: {nthreads} threads x {count} events, payloads and activity ids, in order")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
