#!/bin/sh
# Workload, dom0-load and host parameter axes through the CLI (issue 15):
# each {a,b} value is its own row, the parameter really reaches the run,
# the file's parameters are overridden, and the rows survive --jobs, JSON,
# CSV, --shard/merge and compare.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
cp "$SCHEDSIM" "$tmp/schedsim" && SCHEDSIM=$tmp/schedsim

# make-xen alone is the cheapest benchmark: every check below runs it.
mean() {   # mean FILE WORKLOAD DOM0 [HOST]: the summary's mean of the first label
	python3 -c "
import json, sys
doc = json.load(open(sys.argv[1]))
m = [s['mean'] for s in doc['summary'] if s['workload'] == sys.argv[2] and
     s['dom0_load'] == sys.argv[3] and s.get('host', '') == sys.argv[4]]
print(m[0])" "$1" "$2" "$3" "${4:-}"
}
slower() {   # slower A B FACTOR: A > B * FACTOR
	python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) * float(sys.argv[3]) else 1)" "$1" "$2" "$3"
}

# 1. A workload parameter axis: two rows, and make -j1 takes several times -j8.
run_ok --sched=credit1 --workload='make-xen:jobs={1,8}' --dom0-load=off --iterations=2 \
	--format=json > "$tmp/jobs.json"
json_check "$tmp/jobs.json" "
assert [s['workload'] for s in doc['summary']] == ['make-xen:jobs=1', 'make-xen:jobs=8'], doc['summary']
assert [r['workload'] for r in doc['runs']] == ['make-xen:jobs=1'] * 2 + ['make-xen:jobs=8'] * 2
assert all('host' not in r for r in doc['runs'])"
j1=$(mean "$tmp/jobs.json" make-xen:jobs=1 off)
j8=$(mean "$tmp/jobs.json" make-xen:jobs=8 off)
slower "$j1" "$j8" 4 || fail "make-xen:jobs=1 ($j1 s) is not 4x make-xen:jobs=8 ($j8 s)"

# 2. The axis overrides the file's parameter (the file says -j1).
cat > "$tmp/j1.xml" <<'XML'
<scenario>
  <host sockets="2" cores-per-socket="4" threads-per-core="2" nodes="2"/>
  <domain name="dom0" vcpus="16"/>
  <domain name="guest" vcpus="8"><workload type="make-xen" jobs="1"/></domain>
</scenario>
XML
run_ok --scenario="$tmp/j1.xml" --sched=credit1 --workload=make-xen,make-xen:jobs=8 \
	--dom0-load=off --iterations=1 --format=json > "$tmp/file.json"
f1=$(mean "$tmp/file.json" make-xen off)
f8=$(mean "$tmp/file.json" make-xen:jobs=8 off)
slower "$f1" "$f8" 4 || fail "--workload=make-xen:jobs=8 ($f8 s) did not override the file's jobs=1 ($f1 s)"

# 3. The dom0 load's parameters: 16 hogs slow the build more than 1.
run_ok --sched=credit1 --workload=make-xen --dom0-load='on:tasks={1,16}' --iterations=1 \
	--format=json > "$tmp/load.json"
l1=$(mean "$tmp/load.json" make-xen on:tasks=1)
l16=$(mean "$tmp/load.json" make-xen on:tasks=16)
slower "$l16" "$l1" 1.1 || fail "dom0-load tasks=16 ($l16 s) is not 10% slower than tasks=1 ($l1 s)"

# 4. A host axis: the build on 2 pCPUs takes several times the build on 16.
run_ok --sched=credit1 --workload=make-xen --dom0-load=off --iterations=1 \
	--host='sockets=1:cores-per-socket={1,8}:threads-per-core=2:nodes=1' --format=json > "$tmp/host.json"
h2=$(mean "$tmp/host.json" make-xen off sockets=1:cores-per-socket=1:threads-per-core=2:nodes=1)
h16=$(mean "$tmp/host.json" make-xen off sockets=1:cores-per-socket=8:threads-per-core=2:nodes=1)
slower "$h2" "$h16" 3 || fail "2 pCPUs ($h2 s) are not 3x slower than 16 ($h16 s)"
json_check "$tmp/host.json" "
assert [r['host'] for r in doc['runs']] == ['sockets=1:cores-per-socket=%d:threads-per-core=2:nodes=1' % c for c in (1, 8)]"
# One host setting without --iterations is a single run on that host.
run_ok --sched=credit1 --host=sockets=1:cores-per-socket=2:threads-per-core=1:nodes=1 \
	--duration=10ms --format=json > "$tmp/single.json"
json_check "$tmp/single.json" "
cpus = {p for d in doc['runs'][0]['domains'] for v in d['vcpus'] for p in v['pcpus']}
assert cpus <= {0, 1} and cpus, cpus"

# 5. All three axes through --jobs, CSV, --shard/merge and compare.
A="--sched=credit1,credit2 --workload=make-xen:jobs={4,8} --dom0-load=off,on:tasks=4 --host=ipi-latency={1us,3us} --iterations=2"
run_ok $A --jobs=1 > "$tmp/j1.txt"
run_ok $A --jobs=2 > "$tmp/j2.txt"
cmp -s "$tmp/j1.txt" "$tmp/j2.txt" || fail "axes: --jobs=1 and --jobs=2 differ"
[ "$(grep -c 'host:ipi-latency=' "$tmp/j1.txt")" -ge 8 ] || fail "axes: the table lacks 8 rows with their host"
run_ok $A --format=csv > "$tmp/a.csv"
[ "$(wc -l < "$tmp/a.csv")" -eq 17 ] || fail "axes: the CSV is not 16 cells and a header"
grep -q '^credit2,credit2,make-xen:jobs=8,on:tasks=4,s,2,.*,ipi-latency=3us$' "$tmp/a.csv" ||
	fail "axes: the CSV lacks its host column"
for i in 0 1 2; do
	run_ok $A --shard=$i/3 --output="$tmp/p$i.json" || break
done
run_ok merge "$tmp/p0.json" "$tmp/p1.json" "$tmp/p2.json" > "$tmp/merged.txt"
cmp -s "$tmp/merged.txt" "$tmp/j1.txt" || fail "axes: merge of 3 parts differs from the single process"
[ "$(run_ok $A --list-runs | wc -l)" -eq 32 ] || fail "axes: --list-runs is not 32 runs"
run_ok $A --list-runs | awk -F'\t' '$1 == 31 && $3 == "make-xen:jobs=8" && $4 == "on:tasks=4" && $7 == "ipi-latency=3us" { ok = 1 } END { exit !ok }' ||
	fail "axes: --list-runs' last run is not jobs=8, on:tasks=4, ipi-latency=3us"
run_ok $A --format=json > "$tmp/a.json"
run_ok compare "$tmp/a.json" "$tmp/a.json" > "$tmp/cmp.txt"
[ "$(grep -c ' host:ipi-latency=' "$tmp/cmp.txt")" -eq 16 ] || fail "compare: not 16 rows with their host"

# 6. Byte counts take a unit: 1MiB and 1M are 1048576 to the byte, so the three runs are
#    identical event for event (a send buffer of 1000000 bytes gives another event count).
run_ok --sched=credit1 --workload='iperf:time=100ms:tcp_wmem_max={1048576,1MiB,1M}' \
	--dom0-load=off --iterations=1 --format=json > "$tmp/size.json"
json_check "$tmp/size.json" "
runs = doc['runs']
assert [r['workload'] for r in runs] == ['iperf:time=100ms:tcp_wmem_max=' + v for v in ('1048576', '1MiB', '1M')]
assert len({r['metric']['value'] for r in runs}) == 1, [r['metric']['value'] for r in runs]
assert len({r['events'] for r in runs}) == 1"
"$SCHEDSIM" --workload=iperf:tcp_wmem_max=1MB --iterations=1 > /dev/null 2> "$tmp/unit.err"
[ $? -eq 2 ] && grep -q "unknown unit 'MB'" "$tmp/unit.err" || fail "an unknown unit: $(cat "$tmp/unit.err")"

# 7. A benchmark the scenario gives dom0 (and no guest) runs in dom0, which keeps its
#    other workloads; a guest holding the axis' type takes it back; --dom0-load=on is refused.
cat > "$tmp/in-dom0.xml" <<'XML'
<scenario>
  <host sockets="1" cores-per-socket="4" threads-per-core="2"/>
  <domain name="dom0" vcpus="8"><workload type="make-xen"/><workload type="cpu-hog" tasks="1"/></domain>
  <domain name="other" vcpus="2"><workload type="cpu-hog"/></domain>
</scenario>
XML
run_ok --scenario="$tmp/in-dom0.xml" --sched=credit2 --workload=kernbench:jobs=4:objects=200 \
	--iterations=1 --format=json > "$tmp/in-dom0.json"
json_check "$tmp/in-dom0.json" "
run = doc['runs'][0]
d = {x['name']: x for x in run['domains']}
assert set(d) == {'dom0', 'other'}, list(d)
assert d['dom0']['metric'] and d['dom0']['metric']['name'] == 'elapsed', d['dom0']['metric']
assert d['other']['metric'] is None
busy = [v['run_ns'] for v in d['dom0']['vcpus']]
assert sum(busy) > run['sim_ns'] * 1.5, busy   # the build and the kept cpu-hog"
expect_error "the benchmark runs in dom0" --scenario="$tmp/in-dom0.xml" --sched=credit2 \
	--workload=kernbench --dom0-load=on --iterations=1
sed 's|<domain name="other" vcpus="2"><workload type="cpu-hog"/>|<domain name="other" vcpus="2"><workload type="kernbench"/>|' \
	"$tmp/in-dom0.xml" > "$tmp/in-guest.xml"
run_ok --scenario="$tmp/in-guest.xml" --sched=credit2 --workload=kernbench:jobs=4:objects=200 \
	--iterations=1 --format=json > "$tmp/in-guest.json"
json_check "$tmp/in-guest.json" "
d = {x['name']: x for x in doc['runs'][0]['domains']}
assert d['other']['metric'] and d['dom0']['metric'] is None, d"

finish
