#!/usr/bin/env python3
"""Checks a schedsim Perfetto trace (Chrome trace-event JSON).

usage: perfetto_check.py TRACE.json REPORT.json [FROM_NS TO_NS]

1. Schema: the file must validate against SCHEMA below, a JSON Schema
   (the subset this file's validator implements: type, required,
   properties, additionalProperties, items, enum, const, minimum, pattern,
   allOf with if/then) of the trace-event format as Chrome's
   trace-viewer and Perfetto's JSON importer read it: an object with a
   traceEvents array; every event has ph, pid, tid, name; complete
   events ("X") a ts and a dur >= 0; instant events ("i") a ts and a scope
   s in g/p/t; counters ("C") a ts and numeric args; metadata ("M") the
   names the importers know and their args.
2. Meaning: slices on one pCPU track never overlap; every slice is named
   "dN vM" after a vCPU of the report; each vCPU's slices add up to its
   running time in schedsim's report (exactly, without a window; within
   the window otherwise, and never more than the window); wakes and
   tickles sit on pCPU tracks; counters are not negative where they
   count vCPUs.
"""
import json
import re
import sys

NUM = {"type": "number"}
TS = {"type": "number", "minimum": 0}
INT = {"type": "integer", "minimum": 0}
COMMON = {"ph": {"type": "string"}, "pid": INT, "tid": INT, "name": {"type": "string"},
          "cat": {"type": "string"}, "args": {"type": "object"}, "cname": {"type": "string"}}


def phase(ph, required, props, extra=False):
    p = dict(COMMON)
    p.update(props)
    return {"if": {"properties": {"ph": {"const": ph}}, "required": ["ph"]},
            "then": {"required": required, "properties": p, "additionalProperties": extra}}


SCHEMA = {
    "type": "object",
    "required": ["traceEvents"],
    "properties": {
        "displayTimeUnit": {"enum": ["ms", "ns"]},
        "otherData": {"type": "object"},
        "traceEvents": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["ph", "pid", "tid", "name"],
                "properties": {"ph": {"enum": ["X", "i", "C", "M"]}},
                "allOf": [
                    phase("X", ["ts", "dur"], {"ts": TS, "dur": TS,
                                               "name": {"type": "string",
                                                        "pattern": r"^d\d+ v\d+$"}}),
                    phase("i", ["ts", "s"], {"ts": TS, "s": {"enum": ["g", "p", "t"]}}),
                    phase("C", ["ts", "args"], {
                        "ts": TS,
                        "args": {"type": "object", "minProperties": 1,
                                 "additionalProperties": NUM}}),
                    phase("M", ["args"], {
                        "name": {"enum": ["process_name", "thread_name",
                                          "process_sort_index", "thread_sort_index"]},
                        "args": {"type": "object", "minProperties": 1, "properties": {
                            "name": {"type": "string"}, "sort_index": {"type": "integer"}},
                            "additionalProperties": False}}),
                ],
            },
        },
    },
}

TYPES = {"object": dict, "array": list, "string": str, "number": (int, float),
         "integer": int, "boolean": bool}


def validate(x, s, path="$"):
    """Yields one message per violation of schema s by value x."""
    if "type" in s:
        t = TYPES[s["type"]]
        if not isinstance(x, t) or (isinstance(x, bool) and s["type"] != "boolean"):
            yield "%s: not of type %s" % (path, s["type"])
            return
    if "const" in s and x != s["const"]:
        yield "%s: %r is not %r" % (path, x, s["const"])
    if "enum" in s and x not in s["enum"]:
        yield "%s: %r is not one of %r" % (path, x, s["enum"])
    if "minimum" in s and isinstance(x, (int, float)) and x < s["minimum"]:
        yield "%s: %r is below %r" % (path, x, s["minimum"])
    if "pattern" in s and isinstance(x, str) and not re.search(s["pattern"], x):
        yield "%s: %r does not match %s" % (path, x, s["pattern"])
    if isinstance(x, dict):
        for k in s.get("required", []):
            if k not in x:
                yield "%s: lacks %s" % (path, k)
        if len(x) < s.get("minProperties", 0):
            yield "%s: empty" % path
        props = s.get("properties", {})
        extra = s.get("additionalProperties", True)
        for k, v in x.items():
            if k in props:
                yield from validate(v, props[k], path + "." + k)
            elif extra is False:
                yield "%s: unexpected member %s" % (path, k)
            elif isinstance(extra, dict):
                yield from validate(v, extra, path + "." + k)
    if isinstance(x, list) and "items" in s:
        for i, v in enumerate(x):
            yield from validate(v, s["items"], "%s[%d]" % (path, i))
    for sub in s.get("allOf", []):
        if "if" in sub and not any(True for _ in validate(x, sub["if"], path)):
            yield from validate(x, sub["then"], path)
        elif "if" not in sub:
            yield from validate(x, sub, path)


def ns(us):
    return round(us * 1000)


def main():
    trace_path, report_path = sys.argv[1:3]
    window = tuple(int(a) for a in sys.argv[3:5]) if len(sys.argv) >= 5 else None
    problems = []
    trace = json.load(open(trace_path))
    for msg in validate(trace, SCHEMA):
        problems.append("schema: " + msg)
        if len(problems) > 20:
            break
    run = json.load(open(report_path))["runs"][0]
    want = {("d%d v%d" % (d["domid"], v["id"])): v["run_ns"]
            for d in run["domains"] for v in d["vcpus"]}
    lo, hi = window if window else (0, run["sim_ns"])
    events = trace.get("traceEvents", []) if not problems else []
    tracks = {e["tid"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"
              and e["pid"] == 1}
    got, by_tid = {}, {}
    counts = {"X": 0, "i": 0, "C": 0}
    for e in events:
        if e["ph"] in counts:
            counts[e["ph"]] += 1
        if e["ph"] == "X":
            a, b = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
            if e["name"] not in want:
                problems.append("slice %s at %d is no vCPU of the report" % (e["name"], a))
            if e["pid"] != 1 or e["tid"] not in tracks:
                problems.append("slice %s at %d is not on a pCPU track" % (e["name"], a))
            if a < lo or b > hi:
                problems.append("slice %s [%d, %d] is outside [%d, %d]" % (e["name"], a, b, lo, hi))
            got[e["name"]] = got.get(e["name"], 0) + (b - a)
            by_tid.setdefault(e["tid"], []).append((a, b, e["name"]))
        elif e["ph"] == "i":
            if e["pid"] != 1 or e["tid"] not in tracks:
                problems.append("instant %s is not on a pCPU track" % e["name"])
            if not lo <= ns(e["ts"]) <= hi:
                problems.append("instant %s at %d is outside the window" % (e["name"], ns(e["ts"])))
        elif e["ph"] == "C":
            if e["name"] == "runnable vCPUs" and e["args"]["vcpus"] < 0:
                problems.append("runnable vCPUs below 0 at %d" % ns(e["ts"]))
    for tid, slices in by_tid.items():
        slices.sort()
        for (a0, b0, n0), (a1, b1, n1) in zip(slices, slices[1:]):
            if a1 < b0:
                problems.append("pCPU %d: %s [%d, %d] overlaps %s [%d, %d]"
                                % (tid, n0, a0, b0, n1, a1, b1))
    for name, run_ns in want.items():
        have = got.get(name, 0)
        if window is None and have != run_ns:
            problems.append("%s ran %d ns in the trace, %d ns in the report" % (name, have, run_ns))
        if window is not None and (have > run_ns or have > hi - lo):
            problems.append("%s ran %d ns in the window, more than it can" % (name, have))
    if not events or counts["X"] == 0:
        problems.append("no slices at all")
    for p in problems[:30]:
        print("FAIL: " + p)
    print("%s: %d slices, %d instants, %d counter samples on %d pCPU tracks; %d problems"
          % (trace_path, counts["X"], counts["i"], counts["C"], len(tracks), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
