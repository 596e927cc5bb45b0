#!/usr/bin/env python3
"""The sensitivity study of doc/validation.md, run through schedsim's axes.

Each prediction is a scheduler's loaded cell against the base scheduler's
(credit1:era=2016) cell of the same configuration.  For every uncertain
parameter the study runs the configurations of its axis (each value 25 %
below and above the default, at most its range's end, or a switch's two
settings) and prints, per
prediction, the range of the difference across them, marked **flip** when
the sign inside the range differs from the base's.

    schedsim-sensitivity.py [--schedsim=PATH] [--iterations=N] [--only=AXIS,...]
                            [--workloads=SPEC,...]

--workloads names the benchmarks studied, each a --workload spec with its
parameters (default make-xen,iperf; e.g. iperf:direction=from-dom0 or
netperf:test=TCP_RR:peer=dom0, whose figure is transactions/s): an
axis of the spec's workload adds its values to the spec's parameters.
Markdown on stdout, one table per workload; progress on stderr.
"""
import argparse
import json
import subprocess
import sys

BASE = "credit1:era=2016"
KINDS = ("make-xen", "iperf", "netperf")
PREDICTED = ["credit2:era=2016-p20", "credit2:era=2016-full", "credit2"]


def both(option):
    """An axis of one option (--dom0-load or --host) for every workload."""
    return {w: ["--workload={W}", option] for w in KINDS}


# axis name -> (column title, {workload type: [schedsim options]}), where
# {W} stands for the studied spec (a workload type and its parameters); one
# workload spec per value list, so each run of the axis is one configuration.
AXES = {
    "smt": ("SMT speed of the workload (±25 %)", {
        "make-xen": ["--workload={W}:smt_speed={0.4875,0.8125}"],
        "iperf": ["--workload={W}:smt_speed={0.4125,0.6875}"],
        "netperf": ["--workload={W}:smt_speed={0.45,0.75}"]}),
    "load-smt": ("dom0 load smt_speed (-25 %, 1)", both("--dom0-load=on:smt_speed={0.7425,1}")),
    "tasks": ("dom0 load tasks 12/20", both("--dom0-load=on:tasks={12,20}")),
    "autogroup": ("dom0 load autogroup off", both("--dom0-load=on:autogroup=off")),
    "load-mem": ("dom0 load mem_intensity (±25 %)",
                 both("--dom0-load=on:mem_intensity={0.225,0.375}")),
    "remote": ("remote-penalty 1.2/2.0", both("--host=remote-penalty={1.2,2.0}")),
    "bandwidth": ("llc- and memory-bandwidth (±25 %)",
                  both("--host=llc-bandwidth={28.5,47.5}:memory-bandwidth={5.925,9.875}")),
    "tcp": ("TCP limits (TSQ, rmem; ±25 %)", {
        "iperf": ["--workload={W}:tcp_limit_output_bytes={196608,327680},"
                  "{W}:tcp_rmem_max={4718592,7864320}"]}),
    "costs": ("netback_cost, server_cost (±25 %)", {
        "iperf": ["--workload={W}:netback_cost={18900ns,31500ns},"
                  "{W}:server_cost={22237ns,37062ns}"]}),
    "rx-costs": ("netfront_rx_cost, grant_copy_kib (±25 %)", {
        "iperf": ["--workload={W}:netfront_rx_cost={8895ns,14825ns},"
                  "{W}:grant_copy_kib={347ns,579ns}"]}),
    # netperf peer=dom0's per-packet costs are iperf's calibrated ACK, receive
    # and TX-completion costs (pvnet.h's PVNET_* defaults), by name
    "pv-costs": ("netperf's per-packet PV costs (±25 %)", {
        "netperf": ["--workload={W}:pv_copy_cost={3338ns,5563ns},"
                    "{W}:pv_rx_cost={2228ns,3713ns},{W}:pv_gc_cost={1110ns,1850ns}"]}),
    # assumptions known only to an order of magnitude (doc/workloads.md):
    # half and twice each
    "nic-costs": ("NIC path costs, peer_latency (x0.5, x2)", {
        "iperf": ["--workload={W}:nic_xmit_cost={1us,4us},{W}:bridge_cost={500ns,2us},"
                  "{W}:nic_rx_frame_cost={100ns,400ns},{W}:nic_tx_clean_cost={250ns,1us},"
                  "{W}:peer_latency={10us,40us}"]}),
}


def applies(axis, spec):
    """The receive path's costs matter only when the guest receives, the NIC's
    only with a remote peer, the split driver's per-packet costs only with
    netserver in dom0."""
    if axis == "rx-costs":
        return "direction=from-dom0" in spec
    if axis == "nic-costs":
        return "peer=remote" in spec
    if axis == "pv-costs":
        return "peer=dom0" in spec
    return True


def options(axis_options, spec):
    """An axis's options for the studied spec."""
    return [o.replace("{W}", spec) for o in axis_options]


def run(schedsim, options, iterations):
    """Runs schedsim; returns {(label, host, workload, dom0 load): mean} of the loaded cells."""
    cmd = [schedsim, "--sched=" + ",".join([BASE] + PREDICTED),
           "--iterations=%d" % iterations, "--format=json"] + options
    if not any(o.startswith("--dom0-load") for o in options):
        cmd.append("--dom0-load=on")
    print("+ " + " ".join(cmd), file=sys.stderr)
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout
    doc = json.loads(out)
    means = {}
    for s in doc["summary"]:
        if s["dom0_load"].startswith("on"):
            means[(s["label"], s.get("host", ""), s["workload"], s["dom0_load"])] = s["mean"]
    return means


def deltas(means, workload):
    """{predicted label: [difference in % per configuration]} for one workload."""
    out = {p: [] for p in PREDICTED}
    for (label, host, wl, load), base in sorted(means.items()):
        if label != BASE or not wl.startswith(workload):
            continue
        for p in PREDICTED:
            out[p].append((means[(p, host, wl, load)] / base - 1) * 100)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--schedsim", default="./schedsim")
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--only", default=",".join(AXES), help="axes, comma-separated: " +
                    ", ".join(AXES))
    ap.add_argument("--workloads", default="make-xen,iperf",
                    help="the benchmarks, comma-separated --workload specs")
    a = ap.parse_args()
    axes = a.only.split(",")
    for ax in axes:
        if ax not in AXES:
            print("schedsim-sensitivity: unknown axis '%s' (valid: %s)" % (ax, ", ".join(AXES)),
                  file=sys.stderr)
            return 2
    specs = a.workloads.split(",")
    for workload in specs:
        kind = workload.split(":")[0]
        if kind not in KINDS or "{" in a.workloads or "}" in a.workloads:
            print("schedsim-sensitivity: --workloads: '%s' is not a list of make-xen, iperf "
                  "and netperf specs without axes" % a.workloads, file=sys.stderr)
            return 2
    for workload in specs:
        kind = workload.split(":")[0]
        base = deltas(run(a.schedsim, ["--workload=" + workload], a.iterations), workload)
        cols = [ax for ax in axes if kind in AXES[ax][1] and applies(ax, workload)]
        ranges = {ax: deltas(run(a.schedsim, options(AXES[ax][1][kind], workload), a.iterations),
                             workload)
                  for ax in cols}
        print("| %s with dom0 load, against %s | base (%d it.) | %s |" % (
            workload, BASE, a.iterations, " | ".join(AXES[ax][0] for ax in cols)))
        print("|---|---|" + "---|" * len(cols))
        flips = []
        for p in PREDICTED:
            b = base[p][0]
            cells = []
            for ax in cols:
                lo, hi = min(ranges[ax][p]), max(ranges[ax][p])
                flip = (lo < 0 < b) or (hi > 0 > b) or (lo < 0 < hi)
                cells.append("%+.1f to %+.1f %%%s" % (lo, hi, " **flip**" if flip else ""))
                if flip:
                    flips.append("%s (%s)" % (p, AXES[ax][0]))
            print("| %s | %+.1f %% | %s |" % (p, b, " | ".join(cells)))
        print()
        print("Flips (%s): %s." % (workload, "; ".join(flips) if flips else "none"))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
