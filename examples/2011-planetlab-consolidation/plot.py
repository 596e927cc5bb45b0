#!/usr/bin/env python3
"""The consolidation example's plot from schedsim --format=json runs.

    python3 plot.py [--output=FILE.png] [--svg] LABEL=RUN.json ... (one single run each)

Two panels, one line a run: (left) each VM's delivered run time over its
demand, the VMs sorted from the worst served to the best; (right) the
cumulative distribution over the VMs of their wake-to-run p99 (a VM's worst
vCPU), on a log time axis.  Runs given one after the other share a hue in
pairs (solid, then dashed), so "host,credit1 host,credit2 capped,credit1 ..."
draws each variant in one colour, the schedulers told apart by the dashes.
Writes FILE.png (default consolidation.png), with --svg FILE.svg too, and
beside it FILE.dat and FILE.gp (the data and the gnuplot script that drew
them: `gnuplot FILE.gp` draws them again).  Needs gnuplot.
"""
import json
import math
import os
import shutil
import subprocess
import sys

PROG = "plot.py"

# A dark and a middle tone of each hue (ColorBrewer's sequential scales).
COLOURS = ["#08519c", "#4292c6", "#006d2c", "#41ab5d", "#a50f15", "#ef3b2c",
           "#a63603", "#f16913", "#54278f", "#807dba", "#8c510a", "#bf812d"]

# Left panel: delivered / demand (%) against the VM's rank; right panel: the
# fraction of VMs whose p99 is at most x.  Data blocks: 2 i (ratios) and
# 2 i + 1 (the CDF) for run i; the variables before this body name them.
BODY = r"""
set multiplot layout 1, 2 title 'consolidation example: one line a run' font ',11'
set grid xtics ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set key bottom right box opaque

set title 'each VM: delivered / demand, worst served first'
set xlabel 'VMs, sorted by delivered / demand'
set ylabel 'delivered run time / demand (%)'
set xrange [0:nvms + 1]
set yrange [ymin:ymax]
# 100 %: the VM got what its trace asked.
set arrow 1 from graph 0, first 100 to graph 1, first 100 nohead lc rgb '#888888' dt 3
plot for [i = 1:nruns] datafile index 2 * (i - 1) using 1:2 \
        with lines lw 2 dt 1 + (i + 1) % 2 lc rgb colour[(i - 1) % 12 + 1] title label[i]

unset arrow 1
set title "each VM's wake-to-run p99 (its worst vCPU)"
set xlabel "wake-to-run p99"
set ylabel 'fraction of VMs at most this long'
set logscale x
set xrange [xmin_us:xmax_us]
set yrange [0:1.02]
set ytics 0.1
set mxtics 10
set xtics ('1 us' 1, '10 us' 10, '100 us' 100, '1 ms' 1e3, '10 ms' 1e4, '100 ms' 1e5, '1 s' 1e6)
set key bottom right box opaque
plot for [i = 1:nruns] datafile index 2 * (i - 1) + 1 using 1:2 \
        with steps lw 2 dt 1 + (i + 1) % 2 lc rgb colour[(i - 1) % 12 + 1] title label[i]
unset multiplot
"""


class BadInput(Exception):
    pass


def load(path):
    """(delivered / demand of each VM with a demand, sorted; the p99 in us of
    each VM with wake-ups, sorted; the number of VMs)."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise BadInput("%s: %s" % (path, e.strerror))
    except (ValueError, UnicodeDecodeError) as e:
        raise BadInput("%s: not JSON (%s)" % (path, str(e).splitlines()[0]))
    runs = doc.get("runs") if isinstance(doc, dict) else None
    if not isinstance(runs, list) or not runs or not isinstance(runs[0], dict) \
            or not isinstance(runs[0].get("domains"), list):
        raise BadInput("%s: not a schedsim --format=json run (no runs[0].domains)" % path)
    if len(runs) != 1:
        raise BadInput("%s: %d runs, one single run wanted" % (path, len(runs)))
    try:
        vms = [d for d in runs[0]["domains"] if "demand" in d]
        if not vms:
            raise BadInput("%s: no demand table (no domain replays a trace)" % path)
        ratio = sorted(d["demand"]["delivered_ns"] / d["demand"]["demand_ns"]
                       for d in vms if d["demand"]["demand_ns"] > 0)
        p99 = sorted(max(v["wake_latency_ns"]["p99"] for v in d["vcpus"]) / 1e3
                     for d in vms if any(v["wakeups"] > 0 for v in d["vcpus"]))
    except (KeyError, TypeError, ValueError) as e:
        raise BadInput("%s: a demand domain without %s" % (path, e))
    if not ratio:
        raise BadInput("%s: no VM with a demand" % path)
    return ratio, p99, len(vms)


def main(argv):
    out, svg, pairs = "consolidation.png", False, []
    for a in argv[1:]:
        if a.startswith("--output="):
            out = a[len("--output="):]
        elif a == "--svg":
            svg = True
        elif a.startswith("-") or "=" not in a:
            sys.stderr.write("%s: '%s' is not LABEL=RUN.json, --output=FILE.png or --svg\n"
                             % (PROG, a))
            return 2
        else:
            label, _, path = a.partition("=")
            pairs.append((label, path))
    if not pairs:
        sys.stderr.write(__doc__)
        return 2
    if not out.endswith(".png"):
        sys.stderr.write("%s: --output=%s: not a .png file\n" % (PROG, out))
        return 2
    try:
        runs = [(label,) + load(path) for label, path in pairs]
    except BadInput as e:
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return 2
    if shutil.which("gnuplot") is None:
        sys.stderr.write("%s: gnuplot not found in PATH (it draws the plot)\n" % PROG)
        return 2

    try:
        return draw(out, svg, pairs, runs)
    except OSError as e:
        sys.stderr.write("%s: %s: %s\n" % (PROG, e.filename or out, e.strerror))
        return 2


def draw(out, svg, pairs, runs):
    """Writes OUT's .dat and .gp, runs gnuplot on them; 0, or 2 after an error."""
    base = out[:-len(".png")]
    allratio = [r for run in runs for r in run[1]]
    allp99 = [p for run in runs for p in run[2] if p > 0]
    with open(base + ".dat", "w") as f:
        for label, ratio, p99, _ in runs:
            f.write("# %s: delivered / demand (%%) of VM ranked k\n" % label)
            for k, r in enumerate(ratio, 1):
                f.write("%d %.3f\n" % (k, 100 * r))
            f.write("\n\n# %s: wake-to-run p99 (us), fraction of VMs at most it\n" % label)
            n = len(p99)
            for k, p in enumerate(p99, 1):
                f.write("%.3f %.4f\n" % (max(p, 1e-3), k / n))
            if not p99:
                f.write("NaN NaN\n")
            f.write("\n\n")
    lo = min(allp99) if allp99 else 1
    hi = max(allp99) if allp99 else 1e3
    ymin = min(100 * min(allratio), 100)

    def var(name, value):
        return "%s = %s\n" % (name, value)

    def arr(name, items):
        return "array %s[%d] = [%s]\n" % (name, len(items),
                                         ", ".join("'%s'" % i.replace("'", "''") for i in items))

    def term(ext):
        if ext == "png":
            return ("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                    "    set terminal pngcairo noenhanced size 1400,560 font 'sans,10'\n"
                    "} else {\n"
                    "    set terminal png noenhanced size 1400,560\n"
                    "}\n")
        return "set terminal svg noenhanced size 1400,560 font 'sans,10' background rgb 'white'\n"

    gp = base + ".gp"
    with open(gp, "w") as f:
        f.write("# The consolidation example's plot, written by %s from %s\n"
                % (PROG, " ".join(p for _, p in pairs)))
        f.write(var("datafile", "'%s'" % os.path.basename(base + ".dat").replace("'", "''")))
        f.write(var("nruns", len(runs)))
        f.write(var("nvms", max(len(r[1]) for r in runs)))
        f.write(var("ymin", "%g" % (10 * int(ymin // 10))))
        f.write(var("ymax", "%g" % max(102, 100 * max(allratio) + 2)))
        # From a little below the power of ten at or below the shortest p99 (gnuplot
        # drops a tic on the axis' very end) to the power of ten above the longest.
        f.write(var("xmin_us", "%g" % (0.8 * 10 ** math.floor(math.log10(lo) + 1e-9))))
        f.write(var("xmax_us", "%g" % 10 ** math.ceil(math.log10(hi) - 1e-9)))
        f.write(arr("label", [r[0] for r in runs]))
        f.write(arr("colour", COLOURS))
        for ext in ["png"] + (["svg"] if svg else []):
            f.write(term(ext))
            f.write("set output '%s'\n" % os.path.basename(base + "." + ext).replace("'", "''"))
            f.write(BODY)
            f.write("unset output\nreset\n")
    r = subprocess.run(["gnuplot", os.path.basename(gp)], cwd=os.path.dirname(gp) or ".",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        sys.stderr.write("%s: gnuplot %s failed: %s\n"
                         % (PROG, gp, (r.stderr.strip().splitlines() or ["?"])[-1]))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
