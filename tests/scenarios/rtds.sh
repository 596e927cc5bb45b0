#!/bin/sh
# RTDS through the CLI (issue 18): each tests/scenarios/rtds_*.xml runs
# under both eras with the invariant checker on, and the JSON report must
# show what Xen's RTDS promises: every budget-limited vCPU gets its budget
# in every period while the host is not overloaded, and deadline misses
# are reported when it is (or when global EDF cannot meet them).  The
# checks that say "no miss" are paired with scenarios that must miss, and
# credit2 on the same file must report no deadlines at all.
set -u

srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"
dir=$srcdir/tests/scenarios

vcpu() { echo "($(jq_dom "$1") | .vcpus[$2])"; }
share() { echo "($(vcpu "$1" "$2").run_ns * 100 / .runs[0].sim_ns)"; }
all='[.runs[0].domains[].vcpus[]]'

for s in rtds rtds:era=4.17; do
	# 2/10 and 3/5 on one pCPU: exactly the budgets, no miss, every period judged.
	run_checked "$s" "$dir/rtds_under.xml" &&
	expect "$s: 2 ms / 10 ms runs 20 % and 3 ms / 5 ms runs 60 % (+- 0.2 points)" \
		"($(share a 0) - 20 | fabs < 0.2) and ($(share b 0) - 60 | fabs < 0.2)" \
		"[$(share a 0), $(share b 0)]" &&
	expect "$s: no deadline missed in >= 199 and >= 399 judged periods" \
		"$(vcpu a 0).deadlines >= 199 and $(vcpu b 0).deadlines >= 399 and ($all | map(.deadline_misses) | add) == 0" \
		"$all | map([.deadlines, .deadline_misses])"

	# <vcpu> overrides: 3/10 and 12/20 for rt, 1/10 for bg's vCPU 1; bg's vCPU 0 has extratime.
	run_checked "$s" "$dir/rtds_vcpus.xml" &&
	expect "$s: per-vCPU budgets: 30 %, 60 %, 10 % (+- 0.2 points)" \
		"($(share rt 0) - 30 | fabs < 0.2) and ($(share rt 1) - 60 | fabs < 0.2) and ($(share bg 1) - 10 | fabs < 0.2)" \
		"[$(share rt 0), $(share rt 1), $(share bg 1)]" &&
	expect "$s: the extratime vCPU gets more than its 10 % reservation, nobody misses" \
		"$(share bg 0) > 20 and ($all | map(.deadline_misses) | add) == 0" \
		"[$(share bg 0), ($all | map(.deadline_misses))]"

	# 120 % on one pCPU: busy throughout, about one miss per period, each of 2 ms.
	run_checked "$s" "$dir/rtds_over.xml" &&
	expect "$s: overloaded, the pCPU is busy >= 99.9 % of the time" \
		"($all | map(.run_ns) | add) >= .runs[0].sim_ns * 0.999" "$all | map(.run_ns)" &&
	expect "$s: overloaded, misses in >= 95 % of the periods, the worst by 2 ms" \
		"($all | map(.deadline_misses) | add) >= 0.95 * ($all[0].deadlines) and ($all | map(.deadline_worst_miss_ns) | max) == 2000000" \
		"$all | map([.deadlines, .deadline_misses, .deadline_worst_miss_ns])"

	# 180 % on two pCPUs: global EDF still misses, and says so.
	run_checked "$s" "$dir/rtds_global.xml" &&
	expect "$s: global EDF at 180 % of 2 pCPUs misses deadlines (Dhall), by up to 2 ms" \
		"($all | map(.deadline_misses) | add) >= 100 and ($all | map(.deadline_worst_miss_ns) | max) > 1000000" \
		"$all | map([.deadlines, .deadline_misses, .deadline_worst_miss_ns])"
done

# extratime on the overloaded file does not make budgets appear: the same misses.
sed 's/extratime="off"/extratime="on"/' "$dir/rtds_over.xml" > "$tmp/x.xml"
run_checked rtds "$tmp/x.xml" &&
expect "rtds: extratime changes nothing at 120 %: misses in >= 95 % of the periods" \
	"($all | map(.deadline_misses) | add) >= 0.95 * ($all[0].deadlines)" \
	"$all | map([.deadlines, .deadline_misses])"

# Other schedulers keep no deadlines; the fields are there and zero.
run_checked credit2 "$dir/rtds_over.xml" &&
expect "credit2: no deadlines judged or missed" \
	"$all | all(.deadlines == 0 and .deadline_misses == 0 and .deadline_worst_miss_ns == 0)" \
	"$all | map([.deadlines, .deadline_misses])"

# The text report shows the misses (a column only when there are deadlines).
if "$SCHEDSIM" --sched=rtds --scenario="$dir/rtds_over.xml" > "$tmp/text" 2>&1 &&
   grep -q 'missed/periods' "$tmp/text" && grep -Eq '^ +1 .* [0-9]+/[0-9]+ +2000\.0 ' "$tmp/text"; then
	echo "ok: the text report shows missed/periods and the worst miss"
else
	fail "text report without the misses: $(cat "$tmp/text")"
fi
if "$SCHEDSIM" --sched=credit2 --scenario="$dir/rtds_over.xml" > "$tmp/text" 2>&1 &&
   ! grep -q 'missed/periods' "$tmp/text"; then
	echo "ok: no deadline column for credit2"
else
	fail "credit2's text report has a deadline column"
fi

# Through worker processes (the result encoding) the figures are the same.
run_checked rtds "$dir/rtds_over.xml" --iterations=1 --jobs=2 &&
expect "rtds: misses survive the workers' result encoding" \
	"($all | map(.deadline_misses) | add) >= 0.95 * ($all[0].deadlines)" \
	"$all | map([.deadlines, .deadline_misses])"

# Eras before extratime (463b958317) refuse an explicit extratime="on".
sed 's/<vcpu id="1" extratime="off"\/>/<vcpu id="1" extratime="on"\/>/' "$dir/rtds_vcpus.xml" > "$tmp/x.xml"
for s in rtds:era=2016 rtds:era=2017; do
	expect_error ":13: domain 'bg': vCPU 1: extratime=\"on\": $s has no extratime (463b958317" \
		--sched="$s" --scenario="$tmp/x.xml" && echo "ok: $s refuses extratime=on"
	run_checked "$s" "$dir/rtds_vcpus.xml" && echo "ok: $s runs rtds_vcpus.xml (extratime by default only)"
done

finish
