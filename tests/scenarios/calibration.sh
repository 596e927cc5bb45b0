#!/bin/sh
# The calibration on the 2016 test host (issue 15, doc/validation.md): with
# the hardware model on, the Credit1 of that time (credit1:era=2016) on the
# default host reproduces the real Credit1 cells of real-measurements.md
# section 1 within 3 % over 15 iterations: make-xen without and with dom0
# load, iperf without.  (iperf with dom0 load does not hold yet: see
# calibration_iperf_load.sh, an expected failure.)
#
# This test runs the 2016 table's runs for all three of its tests, each run
# once: the cells of calibration_iperf_load.sh (iperf under the three
# schedulers, 15 iterations) and of credit2_bound.sh (every cell, 5
# iterations) are the same cells with the same seeds (a run's seed is its
# iteration's), so they take this test's figures (SCHEDSIM_CALIBRATION_JSON):
# credit2_bound.sh's bound must hold, and calibration_iperf_load.sh must
# still fail (when it passes, the mechanism is fixed: this test fails then,
# and its check joins the ones here).  Alone, each still runs its own
# matrix.  In the sanitizer build (lib.sh, sanitized) the same runs are made
# at 2 iterations for memory errors and the figures are the plain build's.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"

it=15 bound_it=5
sanitized && it=2 bound_it=2
# credit1:era=2016 in every cell, the two Credit2 boxes' iperf cells at 15
# iterations, their make-xen cells at credit2_bound.sh's 5
{ run_ok --sched=credit1:era=2016 --workload=make-xen,iperf --dom0-load=off,on \
	--iterations=$it --format=json > "$tmp/c1.json" &&
  run_ok --sched=credit2:era=2016-p20,credit2:era=2016-full --workload=iperf \
	--dom0-load=off,on --iterations=$it --format=json > "$tmp/c2-iperf.json" &&
  run_ok --sched=credit2:era=2016-p20,credit2:era=2016-full --workload=make-xen \
	--dom0-load=off,on --iterations=$bound_it --format=json > "$tmp/c2-make-xen.json"; } ||
	{ sanitized && sanitizer_finish; finish; }
sanitized && sanitizer_finish
json_check "$tmp/c1.json" "
real = {('make-xen', 'off'): 28.353, ('make-xen', 'on'): 43.955, ('iperf', 'off'): 11.793}
got = {(s['workload'], s['dom0_load']): s for s in doc['summary']}
for cell, want in real.items():
    s = got[cell]
    assert s['n'] == 15, (cell, s['n'])
    off = (s['mean'] - want) / want * 100
    print('%s %s: model %.3f, real %.3f (%+.2f %%)' % (cell + (s['mean'], want, off)))
    assert abs(off) < 3, 'the %s %s cell is %+.2f %% off the real one' % (cell + (off,))"

# credit2_bound.sh on every cell (the mean of each cell's first 5 values)
jq -s '{summary: [.[].summary[]]}' "$tmp/c1.json" "$tmp/c2-iperf.json" "$tmp/c2-make-xen.json" \
	> "$tmp/bound.json" &&
	SCHEDSIM_CALIBRATION_JSON="$tmp/bound.json" sh "${srcdir:-.}/tests/scenarios/credit2_bound.sh" ||
	fail "the bound on the Credit2 columns (tests/scenarios/credit2_bound.sh)"

# calibration_iperf_load.sh on the iperf cells
if jq -s '{summary: [.[].summary[] | select(.workload == "iperf")]}' "$tmp/c1.json" \
	"$tmp/c2-iperf.json" > "$tmp/iperf.json"; then
	SCHEDSIM_CALIBRATION_JSON="$tmp/iperf.json" \
		sh "${srcdir:-.}/tests/scenarios/calibration_iperf_load.sh"
	rc=$?
	case $rc in
	1) echo "expected failure: tests/scenarios/calibration_iperf_load.sh (doc/validation.md)" ;;
	0) fail "tests/scenarios/calibration_iperf_load.sh, an expected failure, passes:" \
		"its mechanism is fixed; make its check one of this test's" ;;
	*) fail "tests/scenarios/calibration_iperf_load.sh exited $rc" ;;
	esac
else
	fail "jq on the iperf cells"
fi
finish
