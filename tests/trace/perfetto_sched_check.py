#!/usr/bin/env python3
"""Checks that a Perfetto (Chrome trace-event JSON) trace shows the
scheduler's own records: the xentrace file of the same run (same scenario,
scheduler and seed) is decoded here and compared.

usage: perfetto_sched_check.py credit1|credit2 TRACE.json TRACE.xt

Fails (exit 1, one line per problem) unless
  - every tickle record (Credit1's or Credit2's) is an instant event
    "tickle" on the tickled pCPU's track at the record's time, and there
    are no others;
  - every Credit2 runqueue-load record is a sample of the counter
    "runq R load" with the record's load, in order, and there are no
    others (Credit1 has none);
  - every Credit2 burn and reset record's credit is a sample of the vCPU's
    "credit dN vM" counter at the record's time.
Times agree within 10 ns: the xentrace writer nudges a record of another
pCPU forward by a nanosecond or so to keep the file in event order.
"""
import json
import struct
import sys

CPU_CHANGE = 0x0001F003
TICKLE = {"credit1": 0x00022006, "credit2": 0x00022206}
C2_BURN = 0x00022203
C2_RESET = 0x00022207
C2_RUNQ_LOAD = 0x0002220C
SLACK = 10


def xentrace(path):
    """(ns, event, data words) of every record but the CPU changes."""
    data = open(path, "rb").read()
    words = struct.unpack("<%dI" % (len(data) // 4), data[: len(data) // 4 * 4])
    out, i = [], 0
    while i < len(words):
        hdr = words[i]
        n, has_tsc, ev = (hdr >> 28) & 7, hdr >> 31, hdr & 0x0FFFFFFF
        tsc = words[i + 1] | words[i + 2] << 32 if has_tsc else 0
        d = words[i + 1 + 2 * has_tsc: i + 1 + 2 * has_tsc + n]
        i += 1 + 2 * has_tsc + n
        if ev != CPU_CHANGE:
            out.append((tsc - 1, ev, d))
    return out


def s32(x):
    return x - (1 << 32) if x & 0x80000000 else x


def compare(errors, what, want, got):
    """want, got: lists of (ns, value) in order; equal values, times within SLACK."""
    if len(want) != len(got):
        errors.append("%s: %d in the xentrace file, %d in the Perfetto file"
                      % (what, len(want), len(got)))
    for k, (w, g) in enumerate(zip(want, got)):
        if w[1] != g[1] or abs(w[0] - g[0]) > SLACK:
            errors.append("%s #%d: xentrace %s at %d ns, Perfetto %s at %d ns"
                          % (what, k, w[1], w[0], g[1], g[0]))
            return


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in TICKLE:
        sys.exit(__doc__)
    sched, pjson, xt = sys.argv[1:]
    events = json.load(open(pjson))["traceEvents"]
    recs = xentrace(xt)
    errors = []

    def ns(e):
        return round(e["ts"] * 1000)

    # Tickles, in time order (the two files order a nanosecond's records alike).
    want = [(t, d[0] & 0xFFFF) for t, ev, d in recs if ev == TICKLE[sched]]
    got = [(ns(e), e["tid"]) for e in events
           if e.get("ph") == "i" and e.get("name") == "tickle" and e.get("pid") == 1]
    compare(errors, "tickles", want, got)

    # Runqueue loads, per runqueue.
    loads = {}
    for t, ev, d in recs:
        if ev == C2_RUNQ_LOAD:
            loads.setdefault((d[4] >> 16) & 0xFF, []).append((t, d[4] & 0xFFFF))
    shown = {}
    for e in events:
        name = e.get("name", "")
        if e.get("ph") == "C" and name.startswith("runq ") and name.endswith(" load"):
            shown.setdefault(int(name.split()[1]), []).append((ns(e), e["args"]["load"]))
    if sched == "credit2" and not loads:
        errors.append("no runqueue-load record in the xentrace file")
    for rq in sorted(set(loads) | set(shown)):
        compare(errors, "runq %d load" % rq, loads.get(rq, []), shown.get(rq, []))

    # Credit samples: every burn and reset value is on the vCPU's counter.
    samples = {}
    for e in events:
        name = e.get("name", "")
        if e.get("ph") == "C" and name.startswith("credit d"):
            samples.setdefault(name, []).append((ns(e), e["args"]["credit"]))
    credits = 0
    for t, ev, d in recs:
        if ev not in (C2_BURN, C2_RESET):
            continue
        name = "credit d%d v%d" % (d[0] >> 16, d[0] & 0xFFFF)
        value = s32(d[1] if ev == C2_BURN else d[2])
        credits += 1
        if not any(v == value and abs(t - at) <= SLACK for at, v in samples.get(name, [])):
            errors.append("%s = %d at %d ns (a %s record) is not on the counter"
                          % (name, value, t, "burn" if ev == C2_BURN else "reset"))
            break
    if sched == "credit2" and not credits:
        errors.append("no burn or reset record in the xentrace file")

    if errors:
        for e in errors[:10]:
            print("FAIL: %s: %s" % (sched, e))
        sys.exit(1)
    print("ok: %s: %d tickles, %d runqueue-load samples in %d runqueues, %d credit values"
          % (sched, len(want), sum(len(v) for v in loads.values()), len(loads), credits))


if __name__ == "__main__":
    main()
