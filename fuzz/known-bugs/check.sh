#!/bin/sh
# Known bugs found by fuzzing, reported to their owners and not yet fixed;
# listed in XFAIL_TESTS, so `make check` says XFAIL while they stand and
# XPASS (a failure) once all are fixed: then move the inputs into the
# corpus (fuzz/corpus/) and this script out of XFAIL_TESTS.
#  1. A phases workload whose phases take no time at all loops forever at
#     one simulated instant (workloads/phases.c, workloads/guest.c).
#  2. A value with a line break in it is quoted as is, so the "one-line"
#     error message has two lines (sim/params.c and the loader's quoting).
srcdir=${srcdir:-.}
dir=$srcdir/fuzz/known-bugs
schedsim=./schedsim
status=0

timeout 5 $schedsim --sched=null --scenario="$dir/zero-phases.xml" > /dev/null 2>&1
rc=$?
if [ $rc -eq 124 ]; then
	echo "zero-phases.xml: schedsim still hangs"
	status=1
fi
for args in "--scenario=$dir/newline-in-value.xml" "--duration=$(cat "$dir/newline-duration.txt")"; do
	lines=$($schedsim --sched=null "$args" 2>&1 > /dev/null | wc -l)
	if [ "$lines" -ne 1 ]; then
		echo "$args: error message has $lines lines"
		status=1
	fi
done
exit $status
