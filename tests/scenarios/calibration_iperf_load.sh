#!/bin/sh
# iperf with dom0 load on the 2016 test host (issue 15): the real host gave
# 10.932 Gbit/s under Credit1 (-7 % from unloaded) and lost less than 15 %
# under both Credit2 variants of the 2016 series.  Checked: the Credit1
# cell within 3 % of the real one, and a loss under 20 % (the real host's
# bound) under credit1:era=2016, credit2:era=2016-p20 and
# credit2:era=2016-full, 15 iterations.
#
# An expected failure (XFAIL_TESTS): the model gives about 9.0 Gbit/s,
# -18 % from the real cell, losing 23-27 % with load (doc/validation.md:
# "The sender's wake-up cycle" says where the stream waits, "What no
# setting of the load reproduces" why no count or profile of the load
# gets both loaded cells).
# make check runs it from tests/scenarios/calibration.sh, which expects it
# to fail: when the mechanism is fixed this passes, calibration.sh fails
# saying so, and the check moves into calibration.sh.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"

# SCHEDSIM_CALIBRATION_JSON: the summary of calibration.sh's runs of these
# cells; alone it runs them itself.
sanitizer_covered_by tests/scenarios/calibration.sh
if [ -n "${SCHEDSIM_CALIBRATION_JSON:-}" ]; then
	cp "$SCHEDSIM_CALIBRATION_JSON" "$tmp/i.json" || exit 99
else
	run_ok --sched=credit1:era=2016,credit2:era=2016-p20,credit2:era=2016-full \
		--workload=iperf --dom0-load=off,on --iterations=15 --format=json > "$tmp/i.json" ||
		finish
fi
json_check "$tmp/i.json" "
got = {(s['label'], s['dom0_load']): s['mean'] for s in doc['summary']}
bad = []
c1 = got[('credit1:era=2016', 'on')]
print('credit1:era=2016 with dom0 load: %.3f Gbit/s (real 10.932)' % c1)
if abs(c1 - 10.932) / 10.932 >= 0.03:
    bad.append('credit1:era=2016 with dom0 load is %.3f, not within 3 %% of 10.932' % c1)
for label in ('credit1:era=2016', 'credit2:era=2016-p20', 'credit2:era=2016-full'):
    loss = 1 - got[(label, 'on')] / got[(label, 'off')]
    print('%s: loses %.1f %% with dom0 load' % (label, loss * 100))
    if loss >= 0.20:
        bad.append('%s loses %.1f %% with dom0 load' % (label, loss * 100))
assert not bad, '; '.join(bad)"
finish
