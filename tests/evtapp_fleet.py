#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The fleet outputs of a stock .NET process (tests/dotnet/evtapp traced
through EventPipe) against two judges: the runtime's own counters, which
the app prints after its workload ("COUNTS gen0=A gen1=B gen2=C
exceptions=N contentions=M"), and the trace the same collector wrote,
decoded with `ebpf-collect dump --json --manifest ClrEtwAll.man`.

  evtapp_fleet.py metrics METRICS.txt APP.out DUMP.json PID
      the /metrics text (one traced process: every per-process series is
      its own, whatever labels name it): GCs by generation, exceptions,
      lock contentions as the app counted them; exceptions by type, GC
      pauses and contention seconds as the trace has them
  evtapp_fleet.py clickhouse EVENTS.tsv APP.out DUMP.json PID MANIFEST
      the process's rows of the events table ("event count durations
      duration_ns", TabSeparated): GCs, exceptions, contentions as the app
      counted them; every event's count as the trace has it, each event
      read as MANIFEST's event of its provider and id with the newest
      version not above its own (a newer version only appends fields);
      every GC pause and contention timed

Prints "ok", or one line per difference (exit 1).
"""
import json
import sys
import xml.etree.ElementTree as ET

RT = "Microsoft-Windows-DotNETRuntime"


def app_counts(path):
    for line in open(path):
        if line.startswith("COUNTS "):
            return {k: int(v) for k, v in (w.split("=") for w in line.split()[1:])}
    sys.exit("no COUNTS line in " + path)


# The thread of the method and module events the collector's symbolizer
# writes for the frames the trace touched (symbolizer/symbolize.h,
# SYMBOLIZE_TID): names, not the runtime's events.
SYMBOLIZE_TID = 0x7fffffff


def trace_events(path, pid):
    """The runtime's events of pid in the trace."""
    out = []
    for line in open(path):
        e = json.loads(line)
        if e.get("type") == "event" and e.get("pid") == pid and e.get("tid") != SYMBOLIZE_TID:
            out.append(e)
    return out


def metrics(args):
    text, app, dump, pid = args[0], app_counts(args[1]), args[2], int(args[3])
    gen, exc, v = {}, {}, {}
    for line in open(text):
        if line.startswith("#") or not line.strip():
            continue
        head, val = line.rsplit(" ", 1)
        name = head.split("{")[0]
        labels = dict(kv.split("=", 1) for kv in
                      head[len(name) + 1:-1].replace('"', "").split(",")) if "{" in head else {}
        val = float(val)
        if name == "ebpf_collect_gc_total":
            gen[labels["gen"]] = gen.get(labels["gen"], 0) + val
        elif name == "ebpf_collect_exceptions_total":
            exc[labels["type"]] = exc.get(labels["type"], 0) + val
        else:
            v[name] = v.get(name, 0) + val
    tr = trace_events(dump, pid)
    rt = [e for e in tr if e["provider"] == RT]
    want_exc = {}
    for e in rt:
        if e["id"] == 80:
            t = e["fields"]["ExceptionType"]
            want_exc[t] = want_exc.get(t, 0) + 1
    restarts = sum(e["id"] == 3 for e in rt)
    wait_ns = sum(int(e["fields"]["DurationNs"] + 0.5) for e in rt if e["id"] == 91)
    bad = []

    def eq(what, have, want):
        if have != want:
            bad.append(f"{what}: metrics {have}, expected {want}")
    for g in range(3):
        eq(f"GCs of generation {g}", gen.get(str(g), 0), app[f"gen{g}"])
    eq("exceptions", sum(exc.values()), app["exceptions"])
    eq("exceptions by type", exc, want_exc)
    eq("lock contentions", v.get("ebpf_collect_lock_contentions_total"), app["contentions"])
    eq("contention ns", round(v.get("ebpf_collect_lock_contention_seconds_total", 0) * 1e9),
       wait_ns)
    eq("GC pauses", v.get("ebpf_collect_gc_pause_seconds_count"), restarts)
    if not v.get("ebpf_collect_gc_pause_seconds_sum", 0) > 0:
        bad.append("GC pauses: no time")
    if app["contentions"] < 1 or sum(app[f"gen{g}"] for g in range(3)) < 1:
        bad.append(f"the app did too little: {app}")
    return bad


def table(path):
    """(provider, id) -> [(version, symbol)] of a manifest."""
    ns = "{http://schemas.microsoft.com/win/2004/08/events}"
    out = {}
    for prov in ET.parse(path).iter(ns + "provider"):
        for ev in prov.iter(ns + "event"):
            key = (prov.get("name"), int(ev.get("value")))
            out.setdefault(key, []).append((int(ev.get("version", "0")), ev.get("symbol")))
    return out


def clickhouse(args):
    tsv, app, dump, pid, man = args[0], app_counts(args[1]), args[2], int(args[3]), args[4]
    have, dur = {}, {}
    for line in open(tsv):
        ev, n, pairs, ns = line.rstrip("\n").split("\t")
        have[ev], dur[ev] = int(n), (int(pairs), int(ns))
    t = table(man)
    want = {}
    for e in trace_events(dump, pid):
        vs = [vs for vs in t.get((e["provider"], e["id"]), []) if vs[0] <= e["version"]]
        if vs:
            sym = max(vs)[1]
            want[sym] = want.get(sym, 0) + 1
    bad = [f"{k}: ClickHouse {have.get(k)}, trace {v}" for k, v in want.items()
           if have.get(k) != v]
    bad += [f"{k}: ClickHouse {v}, not in the trace" for k, v in have.items() if k not in want]
    gcs = sum(app[f"gen{g}"] for g in range(3))
    for sym, n in (("GCStart_V2", gcs), ("ExceptionThrown_V1", app["exceptions"]),
                   ("ContentionStart_V1", app["contentions"]),
                   ("ContentionStop_V1", app["contentions"])):
        if have.get(sym) != n:
            bad.append(f"{sym}: ClickHouse {have.get(sym)}, the app counted {n}")
    for end in ("GCRestartEEEnd_V1", "ContentionStop_V1"):
        if not have.get(end) or dur[end][0] != have[end] or dur[end][1] <= 0:
            bad.append(f"{end}: {dur.get(end)} timed pairs of {have.get(end)}")
    if app["contentions"] < 1 or gcs < 1 or app["exceptions"] < 1:
        bad.append(f"the app did too little: {app}")
    return bad


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    bad = {"metrics": metrics, "clickhouse": clickhouse}[cmd](args)
    print("\n".join(bad) or "ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
