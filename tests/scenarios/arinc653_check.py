#!/usr/bin/env python3
"""Checks that an ARINC 653 run kept to its schedule.

usage: arinc653_check.py TRACE.json SCENARIO.xml ORIGIN_NS

TRACE.json is schedsim's Perfetto trace of the run (--trace-format=perfetto),
SCENARIO.xml the scenario it ran.  The schedule is the scenario's <arinc653>
(major-frame, or the sum of the runtimes) or, without one, Xen's default:
one 10 ms minor frame for each vCPU of dom0.  Major frames start at
ORIGIN_NS + k * major.  Every slice a vCPU ran ("dN vM" on a pCPU track)
must lie inside minor frames that name that vCPU: no vCPU ever runs
outside its frames, and so no two run at once.  Domain ids are the
loader's: dom0 is 0, the others 1, 2, ... in file order.
"""
import json
import sys
import xml.etree.ElementTree as ET

DEFAULT_TIMESLICE = 10_000_000


def duration_ns(text):
    for unit, mult in (("ns", 1), ("us", 1000), ("ms", 1000_000), ("s", 1000_000_000)):
        if text.endswith(unit) and (unit != "s" or not text[-2:-1].isalpha()):
            return round(float(text[: -len(unit)]) * mult)
    return int(text)


def schedule(path):
    root = ET.parse(path).getroot()
    domid, vcpus, nxt = {}, {}, 1
    for d in root.findall("domain"):
        name = d.get("name")
        if name == "dom0":
            domid[name] = 0
        else:
            domid[name], nxt = nxt, nxt + 1
        vcpus[name] = int(d.get("vcpus", "1"))
    a = root.find("arinc653")
    if a is None:
        frames = [((0, i), DEFAULT_TIMESLICE) for i in range(vcpus.get("dom0", 0))]
        return frames, DEFAULT_TIMESLICE * len(frames)
    frames = [((domid[f.get("domain")], int(f.get("vcpu", "0"))), duration_ns(f.get("runtime")))
              for f in a.findall("minor-frame")]
    major = a.get("major-frame")
    return frames, duration_ns(major) if major else sum(r for _, r in frames)


def windows(frames):
    """Per vCPU, its frames within a major frame as merged [start, end) offsets."""
    out, off = {}, 0
    for who, runtime in frames:
        w = out.setdefault(who, [])
        if w and w[-1][1] == off:
            w[-1][1] = off + runtime
        else:
            w.append([off, off + runtime])
        off += runtime
    return out


def main():
    trace, scenario, origin = sys.argv[1], sys.argv[2], int(sys.argv[3])
    frames, major = schedule(scenario)
    win = windows(frames)
    errors, slices = [], 0
    for e in json.load(open(trace))["traceEvents"]:
        if e["ph"] != "X":
            continue
        slices += 1
        d, v = e["name"].split()
        who = (int(d[1:]), int(v[1:]))
        t, end = round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000)
        while t < end:
            k, off = divmod(t - origin, major)
            hit = [w for w in win.get(who, []) if w[0] <= off < w[1]]
            if t < origin or not hit:
                errors.append(f"{e['name']} runs at {t} ns on pCPU {e['tid']}, outside its frames")
                break
            t = origin + k * major + hit[0][1]
    if not slices:
        errors.append("the trace has no slices")
    for msg in errors[:5]:
        print("FAIL:", msg)
    if errors:
        sys.exit(1)
    print(f"ok: {slices} slices inside their minor frames ({len(frames)} frames, major {major} ns)")


main()
