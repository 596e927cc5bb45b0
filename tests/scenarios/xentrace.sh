#!/bin/sh
# xentrace in (sim/input/xentrace_read.c, workloads/xentrace.c) through the
# CLI: a run of tests/scenarios/xentrace.xml traced and replayed with
# `schedsim replay` (the trace's pCPUs and domains, open and closed, under
# the invariant checker) and as one domain's <workload type="xentrace">;
# a cut trace replays with a warning naming the cut; bad options, a
# corrupt trace and a missing domain give one line and exit 2.  The round
# trip: tests/scenarios/xentrace_roundtrip.xml traced under credit1 and
# credit2 and replayed under the same scheduler, open and closed, gives
# every vCPU and every domain its recorded run time within 1 % and the
# trace's length (doc/traces.md); xentrace.xml's, replayed on its own host,
# every vCPU its wake-ups and wake-to-run p50 and p99 within 10 %.
. "${srcdir:-.}/tests/scenarios/lib.sh"
sc="${srcdir:-.}/tests/scenarios/xentrace.xml"
run_ok --sched=credit2 --scenario="$sc" --duration=500ms --trace="$tmp/host.xt" > /dev/null

for mode in open closed; do
	if "$SCHEDSIM" replay "$tmp/host.xt" --mode=$mode --sched=credit2 --check --format=json \
	   > "$tmp/report.json" 2> "$tmp/stderr"; then
		expect "replay $mode: the recorded domains and vCPUs" \
			'[.runs[0].domains[] | "\(.name):\(.vcpus | length)"] == ["dom0:4", "d1:2", "d2:2", "d3:1"]' \
			'[.runs[0].domains[] | "\(.name):\(.vcpus | length)"]'
		expect "replay $mode: the trace's length (500 ms, to the writer's nudges)" \
			'.runs[0].sim_ns - 500000000 | fabs < 1000' '.runs[0].sim_ns'
		expect "replay $mode: every domain's demand delivered within 2 %" \
			'[.runs[0].domains[].demand | (.delivered_ns / .demand_ns - 1) | fabs < 0.02] | all' \
			'[.runs[0].domains[].demand]'
		expect "replay $mode: no invariant broken" '.runs[0] | has("check_error") | not' \
			'.runs[0].check_error'
		[ -s "$tmp/stderr" ] && fail "replay $mode warned: $(cat "$tmp/stderr")"
	else
		fail "replay $mode exited non-zero: $(cat "$tmp/stderr")"
	fi
done

# the round trip
rt="${srcdir:-.}/tests/scenarios/xentrace_roundtrip.xml"
for sched in credit1 credit2; do
	run_ok --sched=$sched --scenario="$rt" --format=json --trace="$tmp/rt.xt" > "$tmp/rec.json" ||
		continue
	for mode in open closed; do
		run_ok replay "$tmp/rt.xt" --sched=$sched --mode=$mode --check --format=json \
			> "$tmp/rep.json" || continue
		# per vCPU (by domain id and vCPU id) and per domain: recorded, replayed
		jq -n --slurpfile a "$tmp/rec.json" --slurpfile b "$tmp/rep.json" '
			def runs(r): [r.runs[0].domains[] | .domid as $d | .vcpus[] |
				      {key: "d\($d)v\(.id)", value: .run_ns}] | from_entries;
			def doms(r): [r.runs[0].domains[] |
				      {key: "d\(.domid)", value: ([.vcpus[].run_ns] | add)}] | from_entries;
			runs($a[0]) as $rv | runs($b[0]) as $pv | doms($a[0]) as $rd | doms($b[0]) as $pd |
			{ length: ($b[0].runs[0].sim_ns - $a[0].runs[0].sim_ns),
			  check_error: $b[0].runs[0].check_error,
			  vcpus: [$rv | keys[] | {k: ., rec: $rv[.], rep: $pv[.]}],
			  domains: [$rd | keys[] | {k: ., rec: $rd[.], rep: $pd[.]}] }' > "$tmp/report.json"
		expect "round trip $sched $mode: the trace's length (10 s, to the writer's nudges)" \
			'.length | fabs < 1000' '.length'
		expect "round trip $sched $mode: every recorded vCPU replayed, within 1 % of its run time" \
			'[.vcpus[] | .rep != null and (.rep - .rec | fabs) <= 0.01 * .rec] | all' \
			'[.vcpus[] | select(.rep == null or (.rep - .rec | fabs) > 0.01 * .rec)]'
		expect "round trip $sched $mode: every domain's run time within 1 %" \
			'[.domains[] | .rep != null and (.rep - .rec | fabs) <= 0.01 * .rec] | all' \
			'[.domains[] | select(.rep == null or (.rep - .rec | fabs) > 0.01 * .rec)]'
		expect "round trip $sched $mode: no invariant broken" '.check_error == null' '.check_error'
	done
done

# the wake-to-run round trip: tests/scenarios/xentrace.xml (2 s) traced and
# replayed under the same scheduler on its own host (--scenario: a xentrace
# records no topology) gives every vCPU with 10 or more wake-ups its
# wake-ups, p50 and p99 within 10 % (measured: the same, doc/traces.md)
for sched in credit1 credit2; do
	run_ok --sched=$sched --scenario="$sc" --format=json --trace="$tmp/lat.xt" > "$tmp/rec.json" ||
		continue
	for mode in open closed; do
		run_ok replay "$tmp/lat.xt" --sched=$sched --mode=$mode --scenario="$sc" --format=json \
			> "$tmp/rep.json" || continue
		jq -n --slurpfile a "$tmp/rec.json" --slurpfile b "$tmp/rep.json" '
			def lat(r): [r.runs[0].domains[] | .domid as $d | .vcpus[] | select(.wakeups >= 10) |
				     {key: "d\($d)v\(.id)", value: [.wakeups, .wake_latency_ns.p50, .wake_latency_ns.p99]}] | from_entries;
			lat($a[0]) as $r | lat($b[0]) as $p |
			[$r | keys[] | {k: ., rec: $r[.], rep: $p[.]}]' > "$tmp/report.json"
		expect "latency round trip $sched $mode: wake-ups, p50 and p99 of every vCPU within 10 %" \
			'length > 0 and ([.[] | . as $v | $v.rep != null and
			  ([0, 1, 2] | map(. as $i | ($v.rep[$i] - $v.rec[$i]) | fabs <= 0.1 * $v.rec[$i]) | all)] | all)' \
			'[.[] | select(.rep != .rec)]'
	done
done

# the host from a scenario: 2 pCPUs for the recorded 4
cat > "$tmp/small.xml" <<XML
<scenario><host sockets="1" cores-per-socket="2" threads-per-core="1"/><domain name="x"/></scenario>
XML
run_ok replay "$tmp/host.xt" --scenario="$tmp/small.xml" --sched=credit1 --format=json > "$tmp/report.json"
expect "replay on a smaller host: the hogs get less than recorded" \
	'.runs[0].domains[2].demand | .delivered_ns < 0.9 * .demand_ns' '.runs[0].domains[2].demand'

# one recorded domain as a scenario's domain, beside a domain of its own
cat > "$tmp/one.xml" <<XML
<scenario duration="500ms"><host sockets="1" cores-per-socket="2" threads-per-core="1"/>
<domain name="dom0" vcpus="1"/>
<domain name="web" vcpus="2"><workload type="xentrace" file="host.xt" domain="1" mode="closed"/></domain>
</scenario>
XML
if run_checked credit2 "$tmp/one.xml"; then
	expect "the web domain's demand is the trace's d1 run time" \
		'.runs[0].domains[1].demand.demand_ns > 0 and (.runs[0].domains[1].demand | (.delivered_ns / .demand_ns - 1) | fabs < 0.02)' \
		'.runs[0].domains[1].demand'
fi

# a cut trace: read up to the cut, with a warning naming it
size=$(wc -c < "$tmp/host.xt")
head -c $((size - 1000)) "$tmp/host.xt" > "$tmp/cut.xt"
run_ok replay "$tmp/cut.xt" --sched=credit2 > /dev/null
grep -q "^schedsim: warning: $tmp/cut.xt:[0-9]*: the trace ends inside a window of pCPU" "$tmp/stderr" ||
	fail "no warning for the cut trace: $(cat "$tmp/stderr")"

expect_error "replay: give the xentrace file" replay
expect_error "replay: --mode: 'half' is not valid (valid: open, closed)" replay "$tmp/host.xt" --mode=half
expect_error "replay: --cpu-khz: '5' is not a frequency" replay "$tmp/host.xt" --cpu-khz=5
expect_error "--mode and --cpu-khz are options of schedsim replay FILE" --mode=open
expect_error "replay: --workload and --dom0-load change the scenario's domains" \
	replay "$tmp/host.xt" --workload=iperf
expect_error "$tmp/none.xt: cannot open" replay "$tmp/none.xt"
printf 'not a trace at all' > "$tmp/bad.xt"
expect_error "$tmp/bad.xt:0: not a xentrace file" replay "$tmp/bad.xt"
sed 's/domain="1"/domain="7"/' "$tmp/one.xml" > "$tmp/seven.xml"
expect_error "seven.xml:3: <workload type=\"xentrace\">: host.xt holds no domain 7 (its domains: 0, 1, 2, 3)" \
	--scenario="$tmp/seven.xml"
sed 's/vcpus="2"><workload/vcpus="1"><workload/' "$tmp/one.xml" > "$tmp/few.xml"
expect_error "few.xml:3: xentrace: domain 1 of host.xt ran 2 vCPUs, more than this domain's 1" \
	--scenario="$tmp/few.xml"
sed 's/ domain="1"//' "$tmp/one.xml" > "$tmp/nodom.xml"
expect_error "needs file= (a xentrace file) and domain=" --scenario="$tmp/nodom.xml"
finish
