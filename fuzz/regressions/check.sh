#!/bin/sh
# Regression tests for bugs the fuzzers found (the inputs are also in the
# corpus, which only checks that the parsers do not crash):
#  1. A phases workload whose phases take no time at all looped forever at
#     one simulated instant; it is now refused at load (exit 2).
#  2. A value with a line break in it was quoted as is, so the "one-line"
#     error message had two lines; control characters now show as '?'.
srcdir=${srcdir:-.}
dir=$srcdir/fuzz/regressions
schedsim=${SCHEDSIM:-./schedsim}
status=0

timeout 5 $schedsim --sched=null --scenario="$dir/zero-phases.xml" > /dev/null 2> err.$$
rc=$?
if [ $rc -ne 2 ] || [ "$(wc -l < err.$$)" -ne 1 ] || ! grep -q "every phase has zero run and sleep time" err.$$; then
	echo "zero-phases.xml: exit $rc (want 2): $(cat err.$$)"
	status=1
fi
for args in "--scenario=$dir/newline-in-value.xml" "--duration=$(cat "$dir/newline-duration.txt")"; do
	$schedsim --sched=null "$args" > /dev/null 2> err.$$
	rc=$?
	lines=$(wc -l < err.$$)
	if [ $rc -ne 2 ] || [ "$lines" -ne 1 ]; then
		echo "$args: exit $rc (want 2), error message has $lines lines (want 1)"
		status=1
	fi
done
rm -f err.$$
exit $status
