#!/usr/bin/env python3
"""Compares what the real xenalyze read from a schedsim xentrace file with
schedsim's own JSON report of the same run.

usage: xenalyze_check.py TRACE REPORT.json XENALYZE.stdout XENALYZE.stderr

Fails (exit 1, one line per problem) when
  - xenalyze wrote anything on stderr but its routine progress lines
    (a warning means it found the trace inconsistent somewhere);
  - a vCPU's running, runnable or blocked time differs by more than 0.1 %.

xenalyze, like any trace reader, knows a vCPU only from its first run in
the trace on, so the time before that (blocked until its first wake,
runnable until it first runs) is taken from the trace's own wake and
runstate records and added back before comparing.  Everything after the
first run is xenalyze's own accounting, compared with schedsim's.
"""
import json
import re
import struct
import sys

# Lines xenalyze prints on stderr for every trace, real or simulated.
ROUTINE = [
    r"^Using (VMX|SVM) hardware-assisted virtualization\.$",
    r"^Creating (vcpu \d+ for dom \d+|domain \d+)$",
    r"^scan_for_new_pcpu: Activating pcpu \d+ at offset \d+$",
    r"^process_cpu_change: Activating pcpu \d+ at offset \d+$",
    r"^init_pcpus: through first trace write, done for now\.$",
    r"^read_record: read returned zero, deactivating pcpu \d+$",
    r"^deactivate_pcpu: setting d\d+v\d+ to state LOST$",
    r"^deactivate_pcpu: Setting max_active_pcpu to -?\d+$",
]

RUNSTATE_CHANGE = 0x00021001
WAKE = 0x00028004
CPU_CHANGE = 0x0001F003
IDLE = 32767


def trace_firsts(path):
    """First wake and first runnable->running TSC of each (dom, vcpu)."""
    data = open(path, "rb").read()
    words = struct.unpack("<%dI" % (len(data) // 4), data[: len(data) // 4 * 4])
    first_wake, first_run = {}, {}
    i = 0
    while i < len(words):
        hdr = words[i]
        n = (hdr >> 28) & 7
        has_tsc = hdr >> 31
        ev = hdr & 0x0FFFFFFF
        tsc = words[i + 1] | words[i + 2] << 32 if has_tsc else 0
        d = words[i + 1 + 2 * has_tsc: i + 1 + 2 * has_tsc + n]
        i += 1 + 2 * has_tsc + n
        if ev == CPU_CHANGE:
            continue
        if ev == WAKE:
            first_wake.setdefault((d[0], d[1]), tsc - 1)
        elif ev == RUNSTATE_CHANGE | 1 << 8 | 0 << 4:
            first_run.setdefault((d[0] >> 16, d[0] & 0xFFFF), tsc - 1)
    return first_wake, first_run


def xenalyze_summary(path):
    """{(dom, vcpu): {state: (count, total ns)}} from --summary output."""
    out, dom, key = {}, None, None
    for line in open(path, errors="replace"):
        m = re.match(r"^\|-- Domain (\d+) --\|", line)
        if m:
            dom, key = int(m.group(1)), None
            continue
        m = re.match(r"^-- v(\d+) --", line)
        if m and dom is not None:
            key = (dom, int(m.group(1)))
            out[key] = {}
            continue
        m = re.match(r"^\s+(running|runnable|blocked|offline):\s+(\d+)\s+[\d.]+s\s+(\d+)", line)
        if m and key:
            count, avg = int(m.group(2)), int(m.group(3))
            out[key][m.group(1)] = (count, count * avg)
    return out


def main():
    trace, report, xa_out, xa_err = sys.argv[1:5]
    problems = []
    for line in open(xa_err, errors="replace"):
        line = line.rstrip("\n")
        if line and not any(re.match(p, line) for p in ROUTINE):
            problems.append("xenalyze warning: " + line)
    run = json.load(open(report))["runs"][0]
    end = run["sim_ns"]
    first_wake, first_run = trace_firsts(trace)
    xa = xenalyze_summary(xa_out)
    compared = 0
    for dom in run["domains"]:
        for v in dom["vcpus"]:
            key = (dom["domid"], v["id"])
            t1 = first_run.get(key, end)
            w = first_wake.get(key)
            pre_blocked = w if w is not None and w < t1 else t1
            pre_runnable = t1 - pre_blocked
            got = xa.get(key, {})
            for state, want, pre in (("running", v["run_ns"], 0),
                                     ("runnable", v["runnable_ns"], pre_runnable),
                                     ("blocked", v["blocked_ns"], pre_blocked)):
                count, total = got.get(state, (0, 0))
                have = total + pre
                # 0.1 %; plus less than count ns, as xenalyze prints the
                # average truncated, and 1 us for the nanosecond nudges
                # that keep records of different pCPUs in order.
                tol = 0.001 * want + count + 1000
                if abs(have - want) > tol:
                    problems.append("d%dv%d %s: xenalyze %d ns (+%d before its first run)"
                                    " vs schedsim %d ns" % (key[0], key[1], state, total,
                                                            pre, want))
                compared += 1
    if key_count(xa) == 0:
        problems.append("xenalyze reported no vCPU at all")
    for p in problems:
        print("FAIL: " + p)
    print("%s: %d figures compared, %d vCPUs seen by xenalyze, %d problems"
          % (trace, compared, key_count(xa), len(problems)))
    return 1 if problems else 0


def key_count(xa):
    return sum(1 for k in xa if k[0] != IDLE)


if __name__ == "__main__":
    sys.exit(main())
