#!/bin/sh
# kernbench (workloads/kernbench.c) through the CLI: the calibration holds
# (the bare-metal cells its parameters were set from, real-measurements.md
# section 3, within 5 %: HT off at -j2 and -j4, HT on at -j8), the build in
# a PV dom0 is slower than in an HVM guest of the same size, every run's
# breakdown adds up, and bad parameters give one line with exit code 2.
. "${srcdir:-.}/tests/scenarios/lib.sh"
dir="${srcdir:-.}/tests/scenarios"

# mean elapsed of FILE under SPEC with WORKLOAD, 3 iterations
mean() {
	run_ok --scenario="$1" --sched="$2" --workload="$3" --iterations=3 --format=json |
		jq '.summary[0].mean'
}
near() {   # DESCRIPTION MODEL REAL
	awk -v m="$2" -v r="$3" 'BEGIN { exit !(m > 0 && (m / r - 1 < 0.05) && (1 - m / r < 0.05)) }' ||
		fail "$1: model $2 s, real $3 s (more than 5 % apart)"
	echo "ok: $1: model $2 s, real $3 s"
}
near "BM HT off -j2" "$(mean "$dir/kernbench_bm_noht.xml" null kernbench:jobs=2)" 196.25
near "BM HT off -j4" "$(mean "$dir/kernbench_bm_noht.xml" null kernbench:jobs=4)" 108.73
near "BM HT on -j8" "$(mean "$dir/kernbench_bm_ht.xml" null kernbench:jobs=8)" 83.65

if run_checked credit2 "$dir/kernbench_2019.xml" --workload=kernbench:jobs=8; then
	expect "HVM guest: the build ends with a figure in seconds" \
		'.runs[0].metric.name == "elapsed" and .runs[0].metric.unit == "s"' '.runs[0].metric'
	expect "the make slots' breakdown adds up to 8 slots x the build" \
		'.runs[0].breakdown | .stages[0].tasks == 8 and ([.stages[0].parts_ns[]] | add) == 8 * (.to_ns - .from_ns)' \
		'.runs[0].breakdown'
	hvm=$(jq '.runs[0].metric.value' "$tmp/report.json")
fi
sed 's|<domain name="dom0" vcpus="8"/>|<domain name="dom0" vcpus="8"><workload type="kernbench" jobs="8"/></domain>|; s|<domain name="vm".*/>||' \
	"$dir/kernbench_2019.xml" > "$tmp/dom0.xml"
if run_checked credit2 "$tmp/dom0.xml" --duration=3600s; then
	pv=$(jq '.runs[0].metric.value' "$tmp/report.json")
	awk -v p="$pv" -v h="$hvm" 'BEGIN { exit !(p > h * 1.02) }' ||
		fail "the PV dom0's build ($pv s) is not slower than the HVM guest's ($hvm s)"
	echo "ok: PV dom0 $pv s, HVM guest $hvm s"
fi

expect_error "jobs" --scenario="$dir/kernbench_bm_ht.xml" --sched=null --workload=kernbench:jobs=-1
expect_error "unknown parameter 'cc'" --scenario="$dir/kernbench_bm_ht.xml" --sched=null \
	--workload=kernbench:cc=gcc
expect_error "compile" --scenario="$dir/kernbench_bm_ht.xml" --sched=null \
	--workload=kernbench:compile=lognormal:1ms
expect_error "no dom0 to load" --scenario="$dir/kernbench_bm_ht.xml" --sched=null \
	--workload=kernbench --dom0-load=on
finish
