#!/bin/sh
# iperf to and from a remote host through dom0's physical NIC
# (iperf:peer=remote; workloads/nic.h, workloads/pvnet.c):
#  1. over a 1 GbE NIC the stream saturates the link on the idle default
#     host, within 1 % of its goodput (1448 payload bytes per 1538 bytes of
#     wire: 0.9415 Gbit/s), both directions, under credit1, credit2 and null;
#  2. at 10 GbE and with a 25G link it stays below each line rate, the
#     breakdown has the NIC's and the link's stages in each direction, and
#     every stage adds up to its tasks x the measured interval;
#  3. a larger MTU raises the 1 GbE ceiling as the frame arithmetic says;
#  4. peer=dom0 is the default (the same figure as no peer at all), and
#     --workload='iperf:peer={dom0,remote}' is an axis of two cells;
#  5. bad values of every new parameter are one line naming the problem, exit 2;
#  6. streams=N (iperf -P): the figures of the streams (total = N x mean,
#     min <= mean <= max), more streams carry more to dom0, streams hashed
#     onto one queue share its netfront and netback, and two streams over
#     1 GbE share the link, each about half;
#  7. two guests streaming at once share dom0's one NIC (each its own vif and
#     netback threads): over 1 GbE each gets half of 0.9415 in either
#     direction under credit1, credit2 and null, and one sending while the
#     other receives each get all of it (the link is full duplex); guests
#     whose iperfs disagree on the NIC are refused;
#  8. the interrupt throttle holds the guest's TSQ: with nic_itr=1ms a guest's
#     stream to the remote host gets its four segments' TX completions once
#     per interrupt, 4 x 64 KiB per ms = 2.097 Gbit/s (within 1 %), while the
#     receive direction, whose 3 MiB window covers the delay, keeps the link.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

# 1. 1 GbE saturates: 0.9415 Gbit/s within 1 %, every scheduler, both ways
#    (null on a host where every vCPU has a pCPU: lib.sh's one_gig_saturates).
one_gig_saturates 'iperf:peer=remote:nic_rate=1G:direction={to-dom0,from-dom0}:warmup=500ms:time=2s' 1

# 2. 10G and 25G: below line rate, the breakdown adds up, the NIC and the link are stages.
run_ok --sched=credit2 \
	--workload='iperf:peer=remote:nic_rate={10G,25G}:direction={to-dom0,from-dom0}:warmup=300ms:time=1s' \
	--iterations=1 --format=json > "$tmp/10g.json"
json_check "$tmp/10g.json" '
for r in doc["runs"]:
    v, b, w = r["metric"]["value"], r["breakdown"], r["workload"]
    rate = 25 if "25G" in w else 10
    names = [st["name"] for st in b["stages"]]
    print(w, round(v, 3), names)
    assert 0.3 * rate < v <= rate * 1448 / 1538 * 1.0001, (w, v)
    if "to-dom0" in w:
        assert names == ["client", "netback", "nic", "dealloc", "guest-rx", "netfront",
                         "tcp-sender", "link"], names
    else:
        assert names == ["nic", "guest-rx", "netfront", "server", "netback",
                         "tcp-sender", "link"], names
    for st in b["stages"]:
        assert sum(st["parts_ns"].values()) == st["tasks"] * (b["to_ns"] - b["from_ns"]), st
    link = [st for st in b["stages"] if st["name"] == "link"][0]["parts_ns"]
    busy = link["busy"] / (link["busy"] + link["idle"])
    # the link carries the figure: goodput = busy share x the line goodput
    assert abs(busy * rate * 1448 / 1538 / v - 1) < 0.02, (w, busy, v)'

# 3. Jumbo frames: 8948 payload bytes per 9038 of wire.
run_ok --sched=credit2 --workload='iperf:peer=remote:nic_rate=1G:mtu=9000:warmup=500ms:time=2s' \
	--iterations=1 --format=json > "$tmp/jumbo.json"
json_check "$tmp/jumbo.json" '
v = doc["runs"][0]["metric"]["value"]
print("mtu 9000", v)
assert abs(v / (8948 / 9038) - 1) < 0.01, v'

# 4. The default peer is dom0: the same figure, byte for byte.
a=$(run_ok --sched=credit2 --workload=iperf:time=300ms:warmup=100ms --iterations=1 --format=csv)
b=$(run_ok --sched=credit2 --workload=iperf:peer=dom0:time=300ms:warmup=100ms --iterations=1 --format=csv \
	| sed 's/:peer=dom0//')
[ "$a" = "$b" ] || fail "peer=dom0 differs from the default: $a / $b"
# ... and peer is an axis
run_ok --sched=credit2 --workload='iperf:peer={dom0,remote}:nic_rate=1G:warmup=200ms:time=500ms' \
	--iterations=2 --format=json > "$tmp/axis.json"
json_check "$tmp/axis.json" '
got = {s["workload"]: s["mean"] for s in doc["summary"]}
print(got)
assert sorted(got) == ["iperf:peer=dom0:nic_rate=1G:warmup=200ms:time=500ms",
                       "iperf:peer=remote:nic_rate=1G:warmup=200ms:time=500ms"], got
assert got["iperf:peer=dom0:nic_rate=1G:warmup=200ms:time=500ms"] > 5, got
assert abs(got["iperf:peer=remote:nic_rate=1G:warmup=200ms:time=500ms"] / (1448 / 1538) - 1) < 0.01, got'

# 5. Bad input.
expect_error "iperf: peer: 'moon' is not one of dom0|remote" --workload=iperf:peer=moon --iterations=1
expect_error "iperf: nic_rate: 'fast' is not a rate" --workload=iperf:peer=remote:nic_rate=fast --iterations=1
expect_error "iperf: nic_rate: '10T' is not a rate" --workload=iperf:peer=remote:nic_rate=10T --iterations=1
expect_error "iperf: nic_rate: '0G' is out of range 1M..400G" --workload=iperf:peer=remote:nic_rate=0G --iterations=1
expect_error "iperf: mtu: '100' is out of range 576..9216" --workload=iperf:peer=remote:mtu=100 --iterations=1
expect_error "iperf: nic_itr: '-1us': a duration cannot be negative" --workload=iperf:nic_itr=-1us --iterations=1
expect_error "iperf: nic_vcpu=16 but domain dom0 has 16 vCPUs" --workload=iperf:peer=remote:nic_vcpu=16 --iterations=1
expect_error "iperf: peer_latency: 'far' is not a duration" --workload=iperf:peer_latency=far --iterations=1
expect_error "iperf: server_vcpu=1 but with peer=remote the server is on the remote host" \
	--workload=iperf:peer=remote:server_vcpu=1 --iterations=1
expect_error "iperf: client_vcpu=1 but with peer=remote the client is on the remote host" \
	--workload=iperf:peer=remote:direction=from-dom0:client_vcpu=1 --iterations=1
for p in nic_xmit_cost nic_tx_clean_cost nic_rx_frame_cost bridge_cost; do
	expect_error "iperf: $p: 'x' is not a duration" --workload=iperf:$p=x --iterations=1
done

# 6. Several streams.
run_ok --sched=credit2 --workload='iperf:streams=4:figure={total,mean,min,max}:warmup=300ms:time=1s' \
	--iterations=1 --format=json > "$tmp/p4.json"
run_ok --sched=credit2 --workload='iperf:streams={1,4}:max_queues={0,1}:warmup=300ms:time=1s' \
	--iterations=1 --format=json > "$tmp/pq.json"
run_ok --sched=credit2 --workload='iperf:peer=remote:nic_rate=1G:streams=2:figure={total,min}:direction={to-dom0,from-dom0}:warmup=500ms:time=2s' \
	--iterations=1 --format=json > "$tmp/p2g.json"
json_check "$tmp/p4.json" '
got = {r["workload"].split("figure=")[1].split(":")[0]: r["metric"]["value"] for r in doc["runs"]}
print(got)
assert abs(got["total"] - 4 * got["mean"]) < 1e-6 * got["total"], got
assert got["min"] <= got["mean"] <= got["max"], got
assert got["min"] > 0, got'
json_check "$tmp/pq.json" '
got, stages = {}, {}
for r in doc["runs"]:
    w = r["workload"]
    got[w] = r["metric"]["value"]
    stages[w] = {st["name"]: st["tasks"] for st in r["breakdown"]["stages"]}
    for st in r["breakdown"]["stages"]:
        assert sum(st["parts_ns"].values()) == st["tasks"] * (r["breakdown"]["to_ns"] - r["breakdown"]["from_ns"]), (w, st)
print(got)
print(stages)
one = got["iperf:streams=1:max_queues=0:warmup=300ms:time=1s"]
four = got["iperf:streams=4:max_queues=0:warmup=300ms:time=1s"]
assert four > 1.3 * one, (one, four)
s1 = stages["iperf:streams=4:max_queues=1:warmup=300ms:time=1s"]
assert s1["client"] == 4 and s1["server"] == 4 and s1["netfront"] == 1 and s1["netback"] == 1, s1
s4 = stages["iperf:streams=4:max_queues=0:warmup=300ms:time=1s"]
assert s4["client"] == 4 and 1 <= s4["netfront"] <= 4 and s4["guest-rx"] == s4["netfront"], s4'
json_check "$tmp/p2g.json" '
goodput = 1448 / 1538
for r in doc["runs"]:
    v, w = r["metric"]["value"], r["workload"]
    print(w, v)
    if "figure=total" in w:
        assert abs(v / goodput - 1) < 0.01, (w, v)
    else:
        assert v > 0.4 * goodput, (w, v)'
expect_error "iperf: streams: '0' is out of range 1..64" --workload=iperf:streams=0 --iterations=1
expect_error "iperf: max_queues: '-1' is out of range 0..4096" --workload=iperf:max_queues=-1 --iterations=1
expect_error "iperf: figure: 'median' is not one of total|mean|min|max" --workload=iperf:figure=median --iterations=1
expect_error "iperf: queue_irqs: 'all' is not one of spread|same" --workload=iperf:queue_irqs=all --iterations=1

# 7. Two guests, one NIC.
two() {
	cat > "$tmp/two.xml" <<END
<scenario>
  <host sockets="2" cores-per-socket="4" threads-per-core="2"/>
  <domain name="dom0" vcpus="8"/>
  <domain name="g1" vcpus="4"><workload type="iperf" peer="remote" nic_rate="1G" direction="$1" warmup="500ms" time="2s"/></domain>
  <domain name="g2" vcpus="4"><workload type="iperf" peer="remote" nic_rate="$3" direction="$2" warmup="500ms" time="2s"/></domain>
</scenario>
END
}
for d in to-dom0 from-dom0 mixed; do
	case $d in mixed) two to-dom0 from-dom0 1G; share=1 ;; *) two $d $d 1G; share=2 ;; esac
	run_ok --sched=credit1,credit2,null --scenario="$tmp/two.xml" --iterations=1 --format=json \
		> "$tmp/two-$d.json"
	json_check "$tmp/two-$d.json" '
goodput = 1448 / 1538 / '$share'
for r in doc["runs"]:
    got = {x["name"]: x["metric"]["value"] for x in r["domains"] if x.get("metric")}
    print("'$d'", r["label"], got)
    assert sorted(got) == ["g1", "g2"], got
    for g, v in got.items():
        assert abs(v / goodput - 1) < 0.01, (r["label"], g, v, goodput)
    b = r["breakdown"]
    for st in b["stages"]:
        assert sum(st["parts_ns"].values()) == st["tasks"] * (b["to_ns"] - b["from_ns"]), st'
done
two to-dom0 to-dom0 10G
expect_error "two.xml:5: iperf: dom0's NIC is g1's, set up with other nic_rate, mtu, nic_itr, nic_vcpu, peer_latency or NIC costs" \
	--scenario="$tmp/two.xml" --iterations=1

# 8. The NIC's interrupt throttle and TSQ.
run_ok --sched=credit2 --workload='iperf:peer=remote:nic_itr=1ms:direction={to-dom0,from-dom0}:warmup=300ms:time=1s' \
	--iterations=1 --format=json > "$tmp/itr.json"
json_check "$tmp/itr.json" '
for r in doc["runs"]:
    v, w = r["metric"]["value"], r["workload"]
    print(w, v)
    want = 4 * 65536 * 8 / 1e-3 / 1e9 if "to-dom0" in w else 10 * 1448 / 1538
    assert abs(v / want - 1) < 0.01, (w, v, want)'

finish
