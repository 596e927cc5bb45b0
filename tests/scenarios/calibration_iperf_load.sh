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
# When the mechanism is fixed this passes, make check reports XPASS, and
# the test moves to TESTS.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"

sanitizer_covered_by tests/scenarios/credit2_bound.sh
run_ok --sched=credit1:era=2016,credit2:era=2016-p20,credit2:era=2016-full \
	--workload=iperf --dom0-load=off,on --iterations=15 --format=json > "$tmp/i.json" ||
	finish
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
