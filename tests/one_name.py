#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""No method under two names in the views of one trace.

  one_name.py FOLDED SPEEDSCOPE_JSON SVG DUMP_JSONL
      FOLDED: `convert --format folded`; SPEEDSCOPE_JSON, SVG: the other two
      formats; DUMP_JSONL: `dump --json` of the same trace, whose method
      events (MethodLoadVerbose, MethodDCEndVerbose, ... with a signature)
      say which methods the runtime named.

Every frame name of every view and every method event is reduced to a key
that ignores how a source spells a method ("[unknown]" frames are left out): no module, no tier suffix
("[QuickJitted]"), no "class "/"value class "/"valuetype ", System.String
and System.Object as string and object, no spaces, "::" as ".", a perf map
line's return type and "[Asm] " dropped, no "_[j]"/"_[k]" suffix.  A key
the views show under two names is a method with two names: each is printed
and the exit status is 1.  Names must also have the views' one form,
Module!Namespace.Type.Method(args): a JIT frame named by a method event
(its key is a method event's) carries a module, no tier, no "::", no
"class ".  Prints "names N methods M keys-of-method-events K" when all hold.
"""
import json
import re
import sys
import xml.dom.minidom

TIER = re.compile(r"\)\[[A-Za-z0-9]+\]$")
PERF_LINE = re.compile(r"^(?:instance )?\S+(?: \S+)* \[[^\]]+\] (.*::.*\(.*)$")


def key(name):
    n = name
    for suffix in ("_[j]", "_[k]"):
        if n.endswith(suffix):
            n = n[: -len(suffix)]
    m = PERF_LINE.match(n)
    if m:
        n = m.group(1)
    if "!" in n.split("(")[0]:
        n = n.split("!", 1)[1]
    n = TIER.sub(")", n)
    n = re.sub(r"/\*.*?\*/", "", n)
    n = re.sub(r"(?<![\w.`+])(?:value class |valuetype |class )", "", n)
    n = re.sub(r"(?<![\w.`+])System\.String(?![\w`])", "string", n)
    n = re.sub(r"(?<![\w.`+])System\.Object(?![\w`])", "object", n)
    return n.replace("::", ".").replace(" ", "")


def view_names(folded, speedscope, svg):
    names = set()
    for line in open(folded, encoding="utf-8"):
        stack = line.rstrip("\n").rsplit(" ", 1)[0]
        names.update(f for f in stack.split(";") if f)
    for f in json.load(open(speedscope, encoding="utf-8"))["shared"]["frames"]:
        names.add(f["name"])
    for g in xml.dom.minidom.parse(svg).getElementsByTagName("g"):
        title = g.getElementsByTagName("title")[0].firstChild.data
        names.add(re.sub(r" \(\d+ samples?, [0-9.]+%\)$", "", title))
    names.discard("all")
    return names


def method_event_keys(dump):
    keys = set()
    for line in open(dump, encoding="utf-8"):
        ev = json.loads(line)
        f = ev.get("fields") or {}
        sig = f.get("MethodSignature", "")
        if "MethodName" in f and "(" in sig and "MethodStartAddress" in f:
            args = sig[sig.find("("):]
            ns = f.get("MethodNamespace", "")
            keys.add(key((ns + "." if ns else "") + f["MethodName"] + args))
    return keys


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 64
    names = view_names(*sys.argv[1:4])
    methods = method_event_keys(sys.argv[4])
    by_key = {}
    for n in names:
        if n.endswith("[unknown]"):	# no name at all: not a method's
            continue
        by_key.setdefault(key(n), set()).add(n[:-4] if n.endswith(("_[j]", "_[k]")) else n)
    bad = 0
    for k, ns in sorted(by_key.items()):
        if len(ns) > 1:
            bad += 1
            print(f"two names for {k}: " + " | ".join(sorted(ns)))
        if k not in methods:
            continue
        for n in ns:
            if "!" not in n.split("(")[0] or TIER.search(n) or "::" in n or \
               re.search(r"(?<![\w.`+])(?:class |valuetype )", n):
                bad += 1
                print(f"not Module!Namespace.Type.Method(args): {n}")
    if bad:
        return 1
    print(f"names {len(names)} methods {sum(1 for k in by_key if k in methods)} "
          f"keys-of-method-events {len(methods)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
