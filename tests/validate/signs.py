#!/usr/bin/env python3
"""Checks `schedsim validate --format=json` against the recorded signs.

tests/validate/signs.txt holds one line per comparison: "right" or "wrong",
a tab, and the comparison's id.  A comparison recorded right that is now
wrong fails the check; one recorded wrong that is now right, and one not
recorded, are reported (record them: signs.py --record RESULT.json >
tests/validate/signs.txt), as is a recorded one that no longer exists.

usage: signs.py RESULT.json SIGNS.txt
       signs.py --record RESULT.json
"""
import json
import sys


def main():
    if sys.argv[1] == "--record":
        doc = json.load(open(sys.argv[2]))
        print("# Recorded by tests/validate/signs.py --record from schedsim validate --format=json:")
        print("# right or wrong, a tab, the comparison (tests/validate.sh fails when a right one turns wrong)")
        for c in doc["comparisons"]:
            print("%s\t%s" % ("right" if c["right"] else "wrong", c["id"]))
        return 0
    doc = json.load(open(sys.argv[1]))
    recorded = {}
    for line in open(sys.argv[2], encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        state, cid = line.split("\t", 1)
        if state not in ("right", "wrong"):
            print("signs.py: %s: bad line %r" % (sys.argv[2], line))
            return 1
        recorded[cid] = state
    failed = 0
    seen = set()
    for c in doc["comparisons"]:
        cid, now = c["id"], "right" if c["right"] else "wrong"
        seen.add(cid)
        was = recorded.get(cid)
        if was is None:
            print("note: not recorded (%s): %s" % (now, cid))
        elif was == "right" and now == "wrong":
            print("FAIL: the sign was right and is now wrong: %s (real %+d, model %+d)"
                  % (cid, c["real_sign"], c["model_sign"]))
            failed += 1
        elif was == "wrong" and now == "right":
            print("note: the sign was wrong and is now right (record it): %s" % cid)
    for cid in recorded:
        if cid not in seen:
            print("note: recorded but no longer compared: %s" % cid)
    return 1 if failed else 0


sys.exit(main())
