#!/usr/bin/env python3
"""Checks a --plot directory against the JSON result of the same command.

usage: plots_check.py DIR RESULT.json EXT [TIMELINE_RUN...]

Every picture must exist and be a valid image of the size its script asks
for (PNG: signature, IHDR width and height; SVG: the root element's size;
PDF: header and trailer); the data files must hold the numbers of the
tables (comparison.dat against the JSON summary), the wake-up counts and
maxima of the runs (latency-*.dat), and plausible intervals and samples
(timeline-run*.dat, credit-run*.dat).  Prints one line per problem and
exits 1 if there was any.
"""
import json
import math
import os
import re
import shlex
import struct
import sys

problems = []


def fail(msg):
    problems.append(msg)


def close(a, b, rel=1e-12):
    if isinstance(a, float) and math.isnan(a):
        return b is None
    if b is None:
        return False
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def script_size(path):
    """The picture size the script asks for (its terminal line)."""
    text = open(path).read()
    m = re.search(r"set terminal \w+ noenhanced size ([\d.]+)(in)?,([\d.]+)", text)
    w, h = float(m.group(1)), float(m.group(3))
    return (w * 96, h * 96) if m.group(2) else (w, h)


def check_picture(dirname, name, ext):
    path = os.path.join(dirname, name + "." + ext)
    if not os.path.exists(path):
        fail(f"{path}: missing")
        return
    data = open(path, "rb").read()
    want_w, want_h = script_size(os.path.join(dirname, name + ".gp"))
    if ext == "png":
        if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
            fail(f"{path}: not a PNG file")
            return
        w, h = struct.unpack(">II", data[16:24])
        if (w, h) != (want_w, want_h):
            fail(f"{path}: {w}x{h}, the script asks for {want_w:g}x{want_h:g}")
        # A picture with axes, text and data compresses to several kB;
        # an empty canvas of that size to a few hundred bytes.
        if len(data) < 8000:
            fail(f"{path}: {len(data)} bytes, too small to hold a plot")
    elif ext == "svg":
        text = data.decode("utf-8", "replace")
        m = re.search(r'<svg[^>]*width="([\d.]+)"[^>]*height="([\d.]+)"', text)
        if not m or not text.rstrip().endswith("</svg>"):
            fail(f"{path}: not a complete SVG file")
            return
        if (float(m.group(1)), float(m.group(2))) != (want_w, want_h):
            fail(f"{path}: {m.group(1)}x{m.group(2)}, the script asks for {want_w}x{want_h}")
        if text.count("<path") + text.count("<polyline") < 20:
            fail(f"{path}: too few drawing elements for a plot")
    elif ext == "pdf":
        if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-64:]:
            fail(f"{path}: not a complete PDF file")
        if len(data) < 5000:
            fail(f"{path}: {len(data)} bytes, too small to hold a plot")


def rows(path):
    """Lines of a data file split like gnuplot does (quotes group), blocks kept."""
    out = []
    for line in open(path):
        if line.startswith("#"):
            continue
        out.append(shlex.split(line))
    return out


def num(s):
    return float("nan") if s == "NaN" else float(s)


def check_comparison(dirname, doc):
    summary = {(c["workload"], c["dom0_load"], c["label"]): c for c in doc["summary"]}
    seen = set()
    for f in rows(os.path.join(dirname, "comparison.dat")):
        if not f:
            continue
        key = (f[0], f[1], f[2])
        seen.add(key)
        cell = summary.get(key)
        if cell is None:
            fail(f"comparison.dat: {key} is not in the JSON summary")
            continue
        if int(f[6]) != cell["n"]:
            fail(f"comparison.dat: {key}: n {f[6]}, JSON {cell['n']}")
        for col, field in ((7, "mean"), (8, "ci95_low"), (9, "ci95_high"), (10, "median"),
                           (11, "stddev"), (12, "min"), (13, "max")):
            if not close(num(f[col]), cell[field]):
                fail(f"comparison.dat: {key}: {field} {f[col]}, JSON {cell[field]}")
    if seen != set(summary):
        fail(f"comparison.dat: cells {sorted(set(summary) - seen)} missing")


def check_latency(dirname, doc):
    configs = []
    for r in doc["runs"]:
        if r["label"] not in configs:
            configs.append(r["label"])
    cells = sorted({(r["workload"], r["dom0_load"]) for r in doc["runs"]})
    for w, d in cells:
        path = os.path.join(dirname, f"latency-{w}-{d}.dat")
        if not os.path.exists(path):
            fail(f"{path}: missing")
            continue
        curves = {}
        for f in rows(path):
            if f:
                curves.setdefault((int(f[0]), int(f[1])), []).append(
                    (float(f[2]), float(f[3]), int(f[4])))
        for ci, label in enumerate(configs):
            runs = [r for r in doc["runs"]
                    if r["label"] == label and r["workload"] == w and r["dom0_load"] == d]
            for panel in (0, 1):
                doms = []
                for r in runs:
                    if panel == 1:
                        doms += [x for x in r["domains"] if x["domid"] == 0]
                    else:
                        bench = [x for x in r["domains"] if x["metric"]]
                        doms += bench[:1]
                vcpus = [v for x in doms for v in x["vcpus"]]
                wakeups = sum(v["wakeups"] for v in vcpus)
                top = max([v["wake_latency_ns"]["max"] for v in vcpus] + [0])
                pts = curves.get((panel, ci), [])
                where = f"{path}: panel {panel}, {label}"
                if not wakeups:
                    if pts:
                        fail(f"{where}: points without wake-ups")
                    continue
                if not pts:
                    fail(f"{where}: no curve for {wakeups} wake-ups")
                    continue
                if pts[-1][2] != wakeups or pts[-1][1] != 1.0:
                    fail(f"{where}: ends at count {pts[-1][2]} fraction {pts[-1][1]}, "
                         f"the runs had {wakeups} wake-ups")
                if not close(pts[-1][0], max(top, 1) / 1e3, 1e-5):
                    fail(f"{where}: last point {pts[-1][0]} us, the runs' max {top} ns")
                for a, b in zip(pts, pts[1:]):
                    if b[0] < a[0] or b[1] < a[1] or b[2] < a[2]:
                        fail(f"{where}: not monotonic at {b}")
                        break


def check_run(dirname, doc, run, ncpus, window):
    r = doc["runs"][run]
    domids = {x["domid"]: len(x["vcpus"]) for x in r["domains"]}
    lo, hi = window
    busy = {}
    path = os.path.join(dirname, f"timeline-run{run}.dat")
    for f in rows(path):
        if not f:
            continue
        cpu, a, b, _, domid, vcpu = int(f[0]), float(f[1]), float(f[2]), f[3], int(f[4]), int(f[5])
        if not (0 <= cpu < ncpus and lo <= a < b <= hi):
            fail(f"{path}: interval {f} outside the window or the pCPUs")
        if domid not in domids or not 0 <= vcpu < domids[domid]:
            fail(f"{path}: d{domid}v{vcpu} is not a vCPU of run {run}")
        busy.setdefault(cpu, []).append((a, b))
    if not busy:
        fail(f"{path}: no interval")
    for cpu, iv in busy.items():
        iv.sort()
        for (a1, b1), (a2, b2) in zip(iv, iv[1:]):
            if a2 < b1:
                fail(f"{path}: pCPU {cpu} runs two vCPUs at {a2} ms")
                break
    path = os.path.join(dirname, f"credit-run{run}.dat")
    blocks = open(path).read().split("\n\n\n")
    blocks = [b for b in blocks if b.strip()]
    if len(blocks) != 3:
        fail(f"{path}: {len(blocks)} blocks, the default selection has 3 vCPUs")
    for i, b in enumerate(blocks):
        ts = [float(line.split()[0]) for line in b.splitlines() if line and line[0] != "#"]
        if len(ts) != 2001 or abs(ts[0] - lo) > 1e-9 or abs(ts[-1] - hi) > 1e-6:
            fail(f"{path}: block {i}: {len(ts)} samples from {ts[:1]} to {ts[-1:]} ms")


def main():
    dirname, result, ext = sys.argv[1:4]
    runs = [int(x) for x in sys.argv[4:]]
    doc = json.load(open(result))
    names = ["comparison"]
    names += [f"latency-{w}-{d}" for w, d in
              sorted({(r["workload"], r["dom0_load"]) for r in doc["runs"]})]
    for run in runs:
        names += [f"timeline-run{run}", f"credit-run{run}"]
    for name in names:
        check_picture(dirname, name, ext)
    logs = [f for f in os.listdir(dirname) if f.endswith(".log")]
    if logs:
        fail(f"gnuplot complained: {logs}")
    if ext == "png":
        check_comparison(dirname, doc)
        check_latency(dirname, doc)
        for run in runs:
            check_run(dirname, doc, run, 16, (1000.0, 1100.0))
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
