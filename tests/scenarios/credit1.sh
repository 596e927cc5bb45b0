#!/bin/sh
# Credit1 behaviour through the CLI (issue 3): each tests/scenarios/credit1_*.xml
# runs in every era with the invariant checker on, and the JSON report is
# checked against what Xen's Credit1 must give.  Where a switch removes the
# mechanism a figure depends on, that run is checked to differ, so that a
# scenario unable to tell would be noticed.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
dir=${srcdir:-.}/tests/scenarios

# check SPEC FILE PYTHON: runs one configuration; PYTHON sees run (the
# first run) and dom(name) -> the domain's result.
check() {
	spec=$1 file=$2
	run_ok --sched="$spec" --scenario="$dir/$file" --check --format=json \
		> "$tmp/out.json" || return 0
	json_check "$tmp/out.json" "
run = doc['runs'][0]
assert not run.get('check_error'), run['check_error']
def dom(n):
    return [d for d in run['domains'] if d['name'] == n][0]
def run_ns(n):
    return sum(v['run_ns'] for v in dom(n)['vcpus'])
spec = '$spec'
$3" && echo "ok: $spec $file"
}

for era in 2015-kick-bug 2015 2016-pre 2016 2017 4.17 4.22 current; do
	s=credit1:era=$era

	# Weights 256:512 on one pCPU run 1:2 within 7 %.
	check "$s" credit1_weights.xml '
r = run_ns("heavy") / run_ns("light")
assert 2 * 0.93 < r < 2 * 1.07, (spec, r)'

	# cap=25 alone on two pCPUs: 25 % of one pCPU, within 5 points.
	check "$s" credit1_cap.xml '
pct = 100.0 * run_ns("capped") / run["sim_ns"]
assert 20 < pct < 30, (spec, pct)'

	# Hard affinity 0-1: never outside, and two full pCPUs.
	check "$s" credit1_hard.xml '
cpus = {c for v in dom("pinned")["vcpus"] for c in v["pcpus"]}
assert cpus <= {0, 1}, (spec, cpus)
assert run_ns("pinned") >= 2 * run["sim_ns"] * 0.999, (spec, run_ns("pinned"))'

	# The light vCPU is BOOSTed past the two hogs: p95 wake-to-run < 2 ms.
	check "$s" credit1_latency.xml '
v = dom("light")["vcpus"][0]
assert v["run_ns"] > 0.3e9, (spec, v["run_ns"])
assert v["wake_latency_ns"]["p95"] < 2000000, (spec, v["wake_latency_ns"])'

	# Hogs stacked on one pCPU at creation are spread, one per pCPU, by the
	# tick's migration: each runs >= 99 % and all four pCPUs are used.
	check "$s" credit1_spread.xml '
vs = [d["vcpus"][0] for d in run["domains"]]
assert all(v["run_ns"] >= 0.99 * run["sim_ns"] for v in vs), (spec, [v["run_ns"] for v in vs])
assert {c for v in vs for c in v["pcpus"]} == {0, 1, 2, 3}, (spec, [v["pcpus"] for v in vs])'

	# Underloaded host: >= 90 % of the run time inside soft affinity.
	check "$s" credit1_soft.xml '
vs = dom("softy")["vcpus"]
soft = sum(v["soft_affinity_run_ns"] for v in vs)
total = sum(v["run_ns"] for v in vs)
assert total > 0 and soft >= 0.9 * total, (spec, soft, total)'
done

# The figures above depend on the mechanisms: without them they fail.
check credit1:soft_affinity=off credit1_soft.xml '
vs = dom("softy")["vcpus"]
soft = sum(v["soft_affinity_run_ns"] for v in vs)
total = sum(v["run_ns"] for v in vs)
assert soft < 0.9 * total, ("soft_affinity=off still inside", soft, total)'

# A shorter timeslice keeps the shares: weights are per accounting period.
check credit1:tslice_ms=10:ratelimit_us=500 credit1_weights.xml '
r = run_ns("heavy") / run_ns("light")
assert 2 * 0.93 < r < 2 * 1.07, (spec, r)'

# Bad parameters: one line, exit 2.
expect_error "ratelimit_us=50: must be 0 (off) or 100..500000" --sched=credit1:ratelimit_us=50
expect_error "era: '2014' is not one of 2015-kick-bug|2015|2016-pre|2016|2017|4.17|4.22|current" --sched=credit1:era=2014
expect_error "unknown parameter 'bogus'" --sched=credit:bogus=1
run_ok --list-schedulers > "$tmp/list" || true
grep -q '^credit1 (alias credit)' "$tmp/list" ||
	fail "--list-schedulers does not list credit1 with its alias"
grep -q 'load_balance_ratelimit_us' "$tmp/list" ||
	fail "--list-schedulers does not document load_balance_ratelimit_us"

finish
