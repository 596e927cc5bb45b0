#!/bin/sh
# The utilisation workload (workloads/utilisation.c) through the CLI: a
# series file and a CSV vm replayed under Credit1 and Credit2 with the
# invariant checker, each VM's demand in the JSON (the trace's: 50 % and
# 33 % of one CPU over the run) and its delivered run time within 5 % of it
# on a host with room, and the text report's demand table.  Then, when the
# PlanetLab traces are beside the tree (../shared/traces), a day of one
# real VM at speedup=288 delivers its demand within 3 %; without them that
# part is skipped (the rest always runs).
. "${srcdir:-.}/tests/scenarios/lib.sh"
sc="${srcdir:-.}/tests/scenarios/utilisation.xml"
for s in credit1 credit2; do
	run_checked "$s" "$sc" || continue
	expect "$s: the series' demand is 50 % of 10 s" \
		'.runs[0].domains[1].demand.demand_ns == 5000000000' '.runs[0].domains[1].demand'
	expect "$s: the CSV vm's demand is 33 % of 10 s" \
		'.runs[0].domains[2].demand.demand_ns == 3300000000' '.runs[0].domains[2].demand'
	expect "$s: each VM gets its demand within 5 %" \
		'[.runs[0].domains[1,2].demand | (.delivered_ns / .demand_ns - 1) | fabs < 0.05] | all' \
		'[.runs[0].domains[1,2].demand]'
	expect "$s: dom0 replays nothing and has no demand" \
		'.runs[0].domains[0] | has("demand") | not' '.runs[0].domains[0]'
done
run_ok --sched=credit2 --scenario="$sc" > "$tmp/text" || true
grep -q '^demand  *demand%  *delivered%' "$tmp/text" || fail "no demand table in the text report"
grep -q '^series  *50.00 ' "$tmp/text" || fail "the series' line: $(grep '^series' "$tmp/text")"

data="${srcdir:-.}/../shared/traces/planetlab/20110303"
vm=146-179_surfsnel_dsl_internl_net_root
if [ -f "$data/$vm" ]; then
	cat > "$tmp/planetlab.xml" <<XML
<scenario duration="300s"><host sockets="1" cores-per-socket="2" threads-per-core="1"/>
<domain name="dom0" vcpus="1"/><domain name="vm" vcpus="1">
<workload type="utilisation" file="$(cd "$data" && pwd)/$vm" speedup="288"/></domain></scenario>
XML
	if run_checked credit2 "$tmp/planetlab.xml"; then
		expect "PlanetLab $vm: a day delivered within 3 % of its demand" \
			'.runs[0].domains[1].demand | (.delivered_ns / .demand_ns - 1) | fabs < 0.03' \
			'.runs[0].domains[1].demand'
	fi
else
	echo "no $data: the PlanetLab part skipped"
fi
finish
