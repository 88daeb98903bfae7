#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Validate a speedscope JSON file: the schema structure (tests/speedscope-schema.json,
via python3-jsonschema) plus what a schema cannot say: frame indices in range, one
weight per sample, startValue <= endValue.  Prints one summary line; exit 1 on failure.

usage: check_speedscope.py FILE.json
"""
import json
import os
import sys

import jsonschema


def main():
    path = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "speedscope-schema.json")) as f:
        schema = json.load(f)
    with open(path) as f:
        doc = json.load(f)
    jsonschema.validate(doc, schema)
    nframes = len(doc["shared"]["frames"])
    nsamples = 0
    for p in doc["profiles"]:
        if p["startValue"] > p["endValue"]:
            raise ValueError("%s: startValue > endValue" % p["name"])
        if p["type"] == "sampled":
            if len(p["samples"]) != len(p["weights"]):
                raise ValueError("%s: %d samples but %d weights"
                                 % (p["name"], len(p["samples"]), len(p["weights"])))
            for s in p["samples"]:
                for i in s:
                    if i >= nframes:
                        raise ValueError("%s: frame index %d >= %d frames" % (p["name"], i, nframes))
            nsamples += len(p["samples"])
        else:
            for e in p["events"]:
                if e["frame"] >= nframes:
                    raise ValueError("%s: frame index out of range" % p["name"])
    print("valid: %d profiles, %d frames, %d samples" % (len(doc["profiles"]), nframes, nsamples))


if __name__ == "__main__":
    try:
        main()
    except (jsonschema.ValidationError, ValueError, KeyError, json.JSONDecodeError) as e:
        print("invalid: %s" % str(e).splitlines()[0], file=sys.stderr)
        sys.exit(1)
