#!/bin/sh
# Credit2 behaviour through the CLI: each tests/scenarios/credit2_*.xml is
# run with the invariant checker on, and the JSON report is checked against
# what Xen's Credit2 must give (issue 4).  Each check also runs the era or
# switch where the behaviour must NOT hold, where there is one, so that a
# scenario that cannot tell the difference would be noticed.
set -u

srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"
dir=$srcdir/tests/scenarios

# run SPEC FILE: lib.sh's run_checked, on the full-speed machine
# (--hw=ideal, doc/hardware.md): C-state exits and xl's NUMA placement
# would change what these figures measure.
run() { run_checked "$1" "$2" --hw=ideal; }

# Every era before caps, and every era with soft affinity.
old_eras="credit2:era=2015 credit2:era=2016 credit2:era=2016-socket credit2:era=2016-p20 credit2:era=2016-p21 credit2:era=2016-full"
soft_eras="credit2:era=2016-p20 credit2:era=2016-p21 credit2:era=2016-full credit2:era=4.17 credit2:era=4.22"

run_of() { echo "([$(jq_dom "$1") | .vcpus[].run_ns] | add)"; }

# 1:2 weights on one pCPU, within 7 %.
for s in credit2 credit2:era=4.17 $old_eras; do
	run "$s" "$dir/credit2_weights.xml" &&
	expect "$s: weights 256:512 run 1:2 within 7 %" \
		"($(run_of heavy)) / ($(run_of light)) | . > 2*0.93 and . < 2*1.07" \
		"[$(run_of light), $(run_of heavy)]"
done

# cap=25 alone on two pCPUs: 25 % of one pCPU within 5 points; caps=off
# (and the 2016 era, which had no caps) must not limit it.
for s in credit2 credit2:era=4.17; do
	run "$s" "$dir/credit2_cap.xml" &&
	expect "$s: cap=25 runs 25 % +- 5 points" \
		"($(run_of capped)) * 100 / .runs[0].sim_ns | . > 20 and . < 30" \
		"$(run_of capped)"
done
for s in credit2:caps=off $old_eras; do
	run "$s" "$dir/credit2_cap.xml" &&
	expect "$s: no cap enforcement, the hog runs > 95 %" \
		"($(run_of capped)) * 100 / .runs[0].sim_ns > 95" "$(run_of capped)"
done

# Hard affinity 0-1: only pCPUs 0-1, and both of them all the time.
for s in credit2 credit2:era=4.17 $(echo $old_eras | sed 's/credit2:era=2015 //') credit2:runqueue=cpu; do
	run "$s" "$dir/credit2_hard.xml" &&
	expect "$s: hard affinity 0-1 never broken" \
		'[.runs[0].domains[].vcpus[].pcpus[]] | all(. == 0 or . == 1)' \
		'[.runs[0].domains[].vcpus[].pcpus]' &&
	expect "$s: two full pCPUs (>= 99.9 % of 2 x duration)" \
		"($(run_of pinned)) >= 2 * .runs[0].sim_ns * 0.999" "$(run_of pinned)"
done

# A light vCPU beside two hogs on one pCPU waits under 2 ms at p95.
for s in credit2 credit2:era=4.17 $old_eras; do
	run "$s" "$dir/credit2_latency.xml" || continue
	p95=$(jq -r '.runs[0].domains[] | select(.name == "light") | .vcpus[0].wake_latency_ns.p95' "$tmp/report.json")
	if [ "$p95" -lt 2000000 ] 2>/dev/null; then
		echo "ok: $s: light vCPU p95 wake-to-run ${p95} ns < 2 ms"
	else
		fail "$s: light vCPU p95 wake-to-run ${p95} ns"
	fi
done

# ... and the scenario can tell: a 20 ms ratelimit makes the light vCPU wait.
run credit2:ratelimit_us=20000 "$dir/credit2_latency.xml" &&
expect "credit2:ratelimit_us=20000: light vCPU p95 wake-to-run > 2 ms" \
	'.runs[0].domains[] | select(.name == "light") | .vcpus[0].wake_latency_ns.p95 > 2000000' \
	'.runs[0].domains[] | select(.name == "light") | .vcpus[0].wake_latency_ns'

# Unaligned wake-ups: the inflight credit (current) and the 2 ms MAX_TIMER
# (2016) bound the wait; Xen 4.17 (and current with inflight=off) does not.
p95_light='.runs[0].domains[] | select(.name == "light") | .vcpus[0].wake_latency_ns.p95'
for s in credit2 credit2:era=2016; do
	run "$s" "$dir/credit2_latency_exp.xml" &&
	expect "$s: exp:5ms sleeper p95 wake-to-run < 2 ms" "$p95_light < 2000000" "$p95_light"
done
for s in credit2:era=4.17 credit2:inflight=off; do
	run "$s" "$dir/credit2_latency_exp.xml" &&
	expect "$s: exp:5ms sleeper p95 wake-to-run > 2 ms (slice to MAX_TIMER)" \
		"$p95_light > 2000000" "$p95_light"
done

# Soft affinity on an underloaded host: >= 90 % of the run time inside it;
# with soft_affinity=off (and in 2016) the domain lands wherever load says.
soft_frac='([.runs[0].domains[] | select(.name == "softy") | .vcpus[].soft_affinity_run_ns] | add) / ([.runs[0].domains[] | select(.name == "softy") | .vcpus[].run_ns] | add)'
for s in credit2 $soft_eras; do
	run "$s" "$dir/credit2_soft.xml" &&
	expect "$s: soft affinity >= 90 % of run time" "$soft_frac >= 0.9" "$soft_frac"
done
for s in credit2:soft_affinity=off credit2:era=2015 credit2:era=2016 credit2:era=2016-socket; do
	run "$s" "$dir/credit2_soft.xml" &&
	expect "$s: soft affinity ignored (< 90 %)" "$soft_frac < 0.9" "$soft_frac"
done

# Every runqueue arrangement (and era) runs the default scenario: 8 hogs on
# a 16-pCPU host get their 8 pCPUs, the checker finds nothing.
for s in credit2:runqueue=cpu credit2:runqueue=core credit2:runqueue=socket \
	 credit2:runqueue=node credit2:runqueue=all credit2:max_cpus_runqueue=4 \
	 $old_eras credit2:era=4.17 credit2:ratelimit_us=0; do
	run "$s" "" || continue
	expect "$s: default scenario, guest hogs get >= 99 % of 8 pCPUs" \
		"($(run_of guest)) >= 8 * .runs[0].sim_ns * 0.99" "$(run_of guest)"
done

# The 2016 series' table: the three specs --list-schedulers names print
# the three boxes (one iteration, to be quick).
"$SCHEDSIM" --list-schedulers >"$tmp/out" 2>&1
table=$(sed -n 's/^    Credit.*  \(credit[12]:era=[^ ]*\)$/\1/p' "$tmp/out" | paste -sd, -)
if [ "$table" = "credit1:era=2016,credit2:era=2016-p20,credit2:era=2016-full" ]; then
	echo "ok: --list-schedulers names the 2016 table's specs: $table"
else
	fail "--list-schedulers table: '$table'"
fi
# In the sanitizer build (lib.sh, sanitized) these twelve runs are
# calibration.sh's there (the same specs, cells and seeds, at 2
# iterations), and the boxes are checked here in the plain build.
if sanitized; then
	echo "ok: the 2016 table's runs are calibration.sh's in the sanitizer build"
elif "$SCHEDSIM" --sched="$table" --workload=make-xen,iperf --dom0-load=off,on --iterations=1 \
	>"$tmp/out" 2>&1 &&
   [ "$(grep -c -e '^|  CREDIT1:era=2016 ' -e '^|  CREDIT2:era=2016-p20 ' -e '^|  CREDIT2:era=2016-full ' "$tmp/out")" = 3 ] &&
   [ "$(grep -c '^| with dom0 load ' "$tmp/out")" = 3 ]; then
	echo "ok: the 2016 table prints its three boxes"
else
	fail "the 2016 table: $(head -30 "$tmp/out")"
fi

# Credit2 had no hard affinity before b6fa4c81b2 (era 2015): pinning is refused.
"$SCHEDSIM" --sched=credit2:era=2015 --scenario="$dir/credit2_hard.xml" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "does not honour hard affinity" "$tmp/out"; then
	echo "ok: credit2:era=2015 refuses pinned vCPUs: $(cat "$tmp/out")"
else
	fail "credit2:era=2015 with hard affinity: exit $rc: $(cat "$tmp/out")"
fi

# A bad parameter is a one-line error with exit status 2.
"$SCHEDSIM" --sched=credit2:ratelimit_us=50 >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q ratelimit_us "$tmp/out"; then
	echo "ok: ratelimit_us=50 rejected with exit 2: $(cat "$tmp/out")"
else
	fail "ratelimit_us=50: exit $rc: $(cat "$tmp/out")"
fi

finish
