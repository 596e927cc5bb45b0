#!/bin/sh
# netperf over lo (workloads/netperf.c, workloads/loopback.h) through the CLI:
#  1. in dom0 of the 2019 host, the UDP_STREAM sender's figure grows with the
#     send size, the receiver's is never above it, under Credit1 and Credit2;
#  2. TCP_STREAM and TCP_RR run through the --workload axis, each run's
#     breakdown has netperf and netserver and adds up to the measured time,
#     and TCP_RR's percentiles are ordered and near 1 / transactions/s;
#  3. bad netperf input is one line naming its place, exit 2.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

# 1. The sender's Mbit/s by size, and the receiver's.
for s in credit1 credit2; do
	cat > "$tmp/dom0.xml" <<END
<scenario seed="5">
  <host sockets="1" cores-per-socket="4" threads-per-core="2"/>
  <domain name="dom0" vcpus="8"><workload type="netperf" time="1s"/></domain>
</scenario>
END
	run_ok --sched=$s --scenario="$tmp/dom0.xml" --workload='netperf:size={64,256,2048,8192}:figure={send,recv}' \
		--iterations=1 --format=json > "$tmp/udp.json" || continue
	json_check "$tmp/udp.json" '
got = {s["workload"]: s["mean"] for s in doc["summary"]}
print("'$s'", {k: round(v) for k, v in got.items()})
prev = 0
for size in (64, 256, 2048, 8192):
    send = got["netperf:size=%d:figure=send" % size]
    recv = got["netperf:size=%d:figure=recv" % size]
    assert send > prev * 2, (size, send, prev)
    assert recv <= send * 1.0001, (size, recv, send)
    prev = send'
done

# 2. TCP through the axis on the default scenario: figures, breakdowns, percentiles.
run_ok --sched=credit2 --workload='netperf:time=500ms:test={TCP_STREAM,TCP_RR}' --iterations=2 --format=json \
	> "$tmp/tcp.json"
json_check "$tmp/tcp.json" '
for r in doc["runs"]:
    m, b = r["metric"], r["breakdown"]
    print(r["workload"], m["value"], m["unit"])
    assert m["value"] > 0
    assert [st["name"] for st in b["stages"]] == ["netperf", "netserver"], b["stages"]
    for st in b["stages"]:
        assert sum(st["parts_ns"].values()) == b["to_ns"] - b["from_ns"], st'
run_ok --sched=credit2 --workload='netperf:time=500ms:test=TCP_RR:figure={auto,p50,p99}' --iterations=1 \
	--format=json > "$tmp/rr.json"
json_check "$tmp/rr.json" '
got = {s["workload"].split("figure=")[1]: s["mean"] for s in doc["summary"]}
print(got)
assert got["p50"] <= got["p99"], got
assert 0.5 < got["p50"] * got["auto"] / 1e6 < 1.5, got'

# 3. Bad input.
expect_error "figure=p99 is TCP_RR's" --workload=netperf:figure=p99
expect_error "netperf: test: 'SCTP_STREAM'" --workload=netperf:test=SCTP_STREAM
expect_error "netperf: tlb_page: 'abc' is not a duration" --workload=netperf:tlb_page=abc
expect_error "netperf: tlb_refill: '-5ns': a duration cannot be negative" --workload=netperf:tlb_refill=-5ns
cat > "$tmp/bad.xml" <<END
<scenario>
  <host sockets="1" cores-per-socket="4" threads-per-core="2"/>
  <domain name="dom0" vcpus="8">
    <workload type="netperf" client_vcpu="8"/>
  </domain>
</scenario>
END
expect_error "bad.xml:4: netperf: client_vcpu=8 but domain dom0 has 8 vCPUs" --scenario="$tmp/bad.xml"

finish
