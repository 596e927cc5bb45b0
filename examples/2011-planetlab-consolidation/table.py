#!/usr/bin/env python3
"""The consolidation example's table from schedsim --format=json runs.

    python3 table.py LABEL=RUN.json ... (one single run each)

One row a run: the VMs' demand and delivered run time in pCPUs over the day,
delivered / demand for all of them and for the worst VM, how many VMs got less
than 95 % of their demand, the host's busy share (every domain's run time over
pCPUs x time), and the VMs' wake-to-run latency (the median VM's p50 and p99,
the worst VM's p99), as markdown.
"""
import json
import sys


def row(label, path):
    with open(path) as f:
        run = json.load(f)["runs"][0]
    t = run["sim_ns"]
    vms = [d for d in run["domains"] if "demand" in d]
    dem = sum(d["demand"]["demand_ns"] for d in vms)
    got = sum(d["demand"]["delivered_ns"] for d in vms)
    ratio = sorted(d["demand"]["delivered_ns"] / d["demand"]["demand_ns"]
                   for d in vms if d["demand"]["demand_ns"])
    pcpus = {p for d in run["domains"] for v in d["vcpus"] for p in v["pcpus"]}
    busy = sum(v["run_ns"] for d in run["domains"] for v in d["vcpus"])
    p50 = sorted(v["wake_latency_ns"]["p50"] for d in vms for v in d["vcpus"])
    p99 = sorted(v["wake_latency_ns"]["p99"] for d in vms for v in d["vcpus"])
    mid = len(p50) // 2
    return ("| %s | %.2f | %.2f | %.1f %% | %.1f %% | %d | %.1f %% | %.0f | %.0f | %.0f |"
            % (label, dem / t, got / t, 100 * got / dem, 100 * ratio[0],
               sum(r < 0.95 for r in ratio), 100 * busy / (t * max(len(pcpus), 1)),
               p50[mid] / 1e3, p99[mid] / 1e3, p99[-1] / 1e3))


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    print("| run | demand (pCPUs) | delivered (pCPUs) | delivered/demand | worst VM | "
          "VMs < 95 % | host busy | wake p50 (us) | wake p99 (us) | worst VM p99 (us) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for a in argv[1:]:
        label, _, path = a.partition("=")
        print(row(label, path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
