#!/bin/sh
# mutilate against memcached over lo (workloads/mutilate.c) through the CLI:
#  1. in dom0 of the 2019 host (8 vCPUs, PV), under Credit1 and Credit2:
#     the rate grows from 1 to 3 client threads, less than threefold
#     (the threads share memcached's 4 and the 8 vCPUs); each run's
#     breakdown has mutilate (spinning: never blocked) and memcached
#     (blocked in epoll_wait between requests), adding up to the measured
#     time of their threads;
#  2. the same dom0 as HVM is faster (no PV system call extras);
#  3. bad mutilate input is one line naming its place, exit 2.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

for s in credit1 credit2; do
	for type in pv hvm; do
		cat > "$tmp/dom0-$type.xml" <<END
<scenario seed="3">
  <host sockets="1" cores-per-socket="4" threads-per-core="2"/>
  <domain name="dom0" vcpus="8" type="$type"><workload type="mutilate"/></domain>
</scenario>
END
		run_ok --sched=$s --scenario="$tmp/dom0-$type.xml" --workload='mutilate:threads={1,3}' \
			--iterations=1 --format=json > "$tmp/$s-$type.json" || continue
	done
	json_check "$tmp/$s-pv.json" '
import json
hvm = json.load(open("'"$tmp/$s-hvm.json"'"))
pv = {r["workload"]: r for r in doc["runs"]}
hv = {r["workload"]: r["metric"]["value"] for r in hvm["runs"]}
one, three = pv["mutilate:threads=1"], pv["mutilate:threads=3"]
print("'$s'", {k: round(v["metric"]["value"]) for k, v in pv.items()}, "hvm", hv)
assert one["metric"]["unit"] == "req/s" and one["metric"]["better"] == "higher", one["metric"]
assert 1.5 * one["metric"]["value"] < three["metric"]["value"] < 3 * one["metric"]["value"]
for name, r in pv.items():
    assert hv[name] > r["metric"]["value"] * 1.1, (name, hv[name], r["metric"]["value"])
    b = r["breakdown"]
    n = int(name.split("=")[1])
    span = b["to_ns"] - b["from_ns"]
    assert [st["name"] for st in b["stages"]] == ["mutilate", "memcached"], b["stages"]
    cl, sv = b["stages"]
    assert sum(cl["parts_ns"].values()) == n * span, cl
    assert sum(sv["parts_ns"].values()) == 4 * span, sv
    assert sum(v for k, v in cl["parts_ns"].items() if k.startswith("blocked")) == 0, cl
    assert sv["parts_ns"]["blocked:epoll"] > 0, sv'
done

expect_error "mutilate: threads: '0' is out of range 1..256" --workload=mutilate:threads=0
expect_error "mutilate: poll_cost: '1' is out of range 50ns..1ms" --workload=mutilate:poll_cost=1
finish
