#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Compare a trace's runtime events with what refrt says it fired.

  refrt_compare.py TRACE.jsonl SUMMARY.json [--pid PID] [--before COUNTS.json]

TRACE.jsonl is `ebpf-collect dump --json` of the trace; SUMMARY.json is
refrt's summary (--summary FILE).  Counted: the runtime's events, not the
collector's own (provider ebpf-collect, the symbol events of thread
0x7fffffff, Universal.System's mappings) nor kernel events and CPU samples
(the kernel's, not the runtime's: SampleProfiler's and Universal.Events'
cpu and cswitch); with --pid, only that process's.  With
--before (refrt_mem.py counts, taken before the trace began) what refrt
fired is the summary's count less that.

Prints one line, "fired F traced T lost L complete C", and, when some event
type was traced more or less often than fired, a second line
"MISMATCH (traced, fired) {...}"; exits 1 then.
"""
import argparse
import collections
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("summary")
    ap.add_argument("--pid", type=int)
    ap.add_argument("--before")
    a = ap.parse_args()
    before = json.load(open(a.before)) if a.before else {}
    fired = {k: v - before.get(k, 0) for k, v in json.load(open(a.summary))["events"].items()
             if v - before.get(k, 0)}
    got, summary = collections.Counter(), {}
    for line in open(a.trace):
        o = json.loads(line)
        if o.get("type") == "summary":
            summary = o
        elif (o.get("type") == "event" and o["provider"] != "ebpf-collect"
              and o["tid"] != 0x7fffffff and not o["provider"].startswith("Linux-Kernel-")
              and o["provider"] != "Microsoft-DotNETCore-SampleProfiler"
              and not o["provider"].startswith("Universal.")
              and (a.pid is None or o["pid"] == a.pid)):
            got[o["event"]] += 1
    differ = {k: (got.get(k, 0), fired.get(k, 0)) for k in set(got) | set(fired)
              if got.get(k, 0) != fired.get(k, 0)}
    print("fired %d traced %d lost %s complete %s" % (sum(fired.values()), sum(got.values()),
                                                      summary.get("lost"),
                                                      summary.get("complete")))
    if differ:
        print("MISMATCH (traced, fired) %r" % differ)
        sys.exit(1)


if __name__ == "__main__":
    main()
