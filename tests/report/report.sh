#!/bin/sh
# --report=FILE.html and `schedsim report RESULT.json`: the report of a run
# and the report made later from its JSON are the same document but for
# the lines saying where it came from; both are well formed, self-contained
# (tests/report/html_check.py) and hold the boxes, the statistics and the
# charts of every workload; the same results give the same bytes; bad
# result files and options give one line and exit status 2.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
check="${srcdir:-.}/tests/report/html_check.py"

run_ok --sched=credit1,credit2 --workload=make-xen,iperf --dom0-load=off,on --iterations=2 \
	--jobs=2 --format=json --output="$tmp/r.json" --report="$tmp/run.html" > /dev/null
[ -s "$tmp/run.html" ] || fail "--report wrote nothing"
ls "$tmp" | grep -q '\.tmp\.' && fail "--report left a temporary file"
python3 "$check" "$tmp/run.html" 2 4 2 "--report=$tmp/run.html" || fail "the run's report"

run_ok report "$tmp/r.json" --output="$tmp/json.html"
python3 "$check" "$tmp/json.html" 2 4 2 "report $tmp/r.json" || fail "the report from JSON"
# Everything but the command and provenance lines is the same.
grep -v -e '<tr><th>Command</th>' -e '<tr><th>Scenario</th>' -e '<tr><th>Results</th>' \
	"$tmp/run.html" > "$tmp/a"
grep -v -e '<tr><th>Command</th>' -e '<tr><th>Results</th>' "$tmp/json.html" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "the report from the JSON differs from the run's: $(diff "$tmp/a" "$tmp/b" | head -5)"
# The same results, the same bytes; stdout without --output.
run_ok report "$tmp/r.json" > "$tmp/stdout.html"
[ "$(grep -c '<svg' "$tmp/stdout.html")" -eq "$(grep -c '<svg' "$tmp/json.html")" ] ||
	fail "report to stdout differs from --output"
# The bars carry the summary's means.
python3 - "$tmp/r.json" "$tmp/run.html" <<'PY' || fail "summary means missing from the report"
import json, math, sys
doc = json.load(open(sys.argv[1]))
html = open(sys.argv[2]).read()
for s in doc["summary"]:
    m = s["mean"]
    # the bars are labelled with four significant digits, as the tables print them
    txt = ("%%.%df" % max(0, 3 - math.floor(math.log10(abs(m))))) % m
    assert (">%s<" % txt) in html, (s["label"], s["workload"], s["dom0_load"], txt)
PY

# A host axis: a chart per workload and host setting, each run's host in the
# runs table, and the report from the JSON keeps the rows apart.
run_ok --sched=credit1,credit2 --workload=iperf --dom0-load=on --host='ipi-latency={1us,5us}' \
	--iterations=2 --jobs=2 --duration=2s --format=json --output="$tmp/h.json" \
	--report="$tmp/h.html" > /dev/null
python3 "$check" "$tmp/h.html" 2 2 2 || fail "the report of a host axis"
run_ok report "$tmp/h.json" --output="$tmp/hj.html"
python3 "$check" "$tmp/hj.html" 2 2 2 || fail "the report from the JSON of a host axis"
for h in ipi-latency=1us ipi-latency=5us; do
	grep -q "<figcaption>iperf host:$h:" "$tmp/hj.html" || fail "no chart of iperf on host $h"
	[ "$(grep -c "<td>$h</td>" "$tmp/hj.html")" -eq 4 ] || fail "not 4 runs on host $h in the runs table"
done

# A --plot-free single configuration with the scenario's own workloads, and a seed.
run_ok --sched=null --iterations=2 --seed=77 --duration=200ms --report="$tmp/one.html" > /dev/null
grep -q '<tr><th>Seed</th><td>77</td>' "$tmp/one.html" || fail "the seed is not in the report"
grep -q 'no run reported a figure' "$tmp/one.html" || fail "a workload without figures is not said so"

# Bad input: one line, status 2.
printf '{"version": "0.1.0", "seed": 1, "runs": []}\n' > "$tmp/single.json"
expect_error 'no "summary": not the result of an experiment' report "$tmp/single.json"
printf '{"version": "0.1.0", "seed": 1, "alpha": 0.05, "runs": [], "summary": [{"label": 3}]}\n' > "$tmp/bad.json"
expect_error 'bad.json:1: summary entry 0 has no string "label"' report "$tmp/bad.json"
head -c 300 "$tmp/r.json" > "$tmp/cut.json"
expect_error "cut.json" report "$tmp/cut.json"
expect_error "report: give one result file" report
expect_error "report: option '--format=csv' is not valid" report --format=csv "$tmp/r.json"
expect_error "--alpha:" report --alpha=2 "$tmp/r.json"
expect_error "--report: cannot write '/nonexistent/x.html'" --iterations=1 --sched=null \
	--duration=10ms --report=/nonexistent/x.html
expect_error "--report: a part of a sweep writes JSON only" --iterations=1 --shard=0/2 \
	--report="$tmp/x.html"

finish
