#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Event names of one trace as our views give them against TraceEvent's.

  event_names.py compare DUMP_JSONL TRACECHECK_NAMES
      DUMP_JSONL: `ebpf-collect dump --json --names traceevent FILE`;
      TRACECHECK_NAMES: `TraceCheck --names FILE` ("PROVIDER ID VERSION
      NAME COUNT" per event kind).  Fails, one line per difference, when an
      event kind (provider, id, version) is named otherwise than TraceEvent
      names it, counted otherwise, or named "EventID(N)" by us.  Where
      TraceEvent itself says "EventID(N)" (no parser of its knows the id) any
      name of ours but EventID(N) is right.  TraceEvent's GC-dynamic parser
      dispatches GCDynamicEvent (id 39) under the event its payload names,
      with ids of its own at the top of the range (GC/CommittedUsage is
      65524): those count as id 39.
      Prints "kinds N events N traceevent-unnamed N" when all agree.
"""
import json
import sys

GC_DYNAMIC_ID = 39
RUNTIME = "Microsoft-Windows-DotNETRuntime"


def ours(path):
    kinds = {}
    for line in open(path, encoding="utf-8"):
        ev = json.loads(line)
        if ev.get("type") != "event":
            continue
        key = (ev["provider"], ev["id"], ev["version"])
        name, n = kinds.get(key, (ev["event"], 0))
        if name != ev["event"]:
            sys.exit(f"event_names: {key} named both {name} and {ev['event']}")
        kinds[key] = (name, n + 1)
    return kinds


def theirs(path):
    kinds = {}
    for line in open(path, encoding="utf-8"):
        prov, eid, ver, name, n = line.split()
        eid, ver, n = int(eid), int(ver), int(n)
        if prov == RUNTIME and eid >= 0xff00:	# the GC-dynamic parser's own ids
            eid, name = GC_DYNAMIC_ID, None
        key = (prov, eid, ver)
        if key in kinds and name is None:
            kinds[key] = (kinds[key][0], kinds[key][1] + n)
        elif key in kinds:
            kinds[key] = (name if kinds[key][0] is None else kinds[key][0], kinds[key][1] + n)
        else:
            kinds[key] = (name, n)
    return kinds


def compare(dump, names):
    a, b = ours(dump), theirs(names)
    bad = []
    unnamed = 0
    for key in sorted(set(a) | set(b)):
        mine, theirs_ = a.get(key), b.get(key)
        if mine and mine[0].startswith("EventID("):
            bad.append(f"{key}: we say {mine[0]}")
        if not mine or not theirs_:
            bad.append(f"{key}: ours {mine}, TraceEvent's {theirs_}")
            continue
        if mine[1] != theirs_[1]:
            bad.append(f"{key}: {mine[1]} events, TraceEvent dispatched {theirs_[1]}")
        if theirs_[0] is None:
            continue
        if theirs_[0].startswith("EventID("):
            unnamed += 1
        elif mine[0] != theirs_[0]:
            bad.append(f"{key}: we name it {mine[0]}, TraceEvent {theirs_[0]}")
    for line in bad:
        print(line)
    if bad:
        return 1
    print(f"kinds {len(a)} events {sum(n for _, n in a.values())} traceevent-unnamed {unnamed}")
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        return compare(sys.argv[2], sys.argv[3])
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main())
