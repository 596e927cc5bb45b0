#!/bin/sh
# netperf's TCP_STREAM between a guest and dom0 (peer=dom0) or a remote host
# through dom0's NIC (peer=remote), over iperf's path (workloads/pvnet.h,
# workloads/nic.h; netperf.c's stream_setup):
#  1. over a 1 GbE NIC the stream saturates the link on an idle host, within
#     1 % of its goodput (1448 payload bytes per 1538 of wire: 941.5 Mbit/s),
#     both directions, under credit1, credit2 and null;
#  2. the breakdown has the path's stages in the order a segment takes them,
#     in both directions and for both peers, and each stage adds up to its
#     tasks x the measured interval;
#  3. the message size is netperf's per-call cost: 64-byte sends carry less
#     than 16 KiB sends; figure=send is the reader's figure, as netperf's
#     TCP_STREAM stops its clock when netserver has read everything;
#  4. bad values of the new parameter values and combinations are one line
#     naming the problem, exit 2;
#  5. UDP_STREAM to and from dom0: the breakdown's stages in order (no TCP
#     sender), adding up; with the path's costs the receiver keeps up with
#     64-byte datagrams to dom0 (what is sent is received), and with a
#     receiver slowed to 10 us a recv() datagrams are dropped at its socket
#     in both directions (the receiver's figure below 60 % of the sender's);
#     A dom0 sender with a 4 MiB send buffer outruns the guest-rx thread:
#     netback's rx_queue (512 KiB and the qdisc's 32 packets) drops what
#     it cannot hold (sent more than 1.5 x received);
#  6. UDP_RR over lo and to dom0, both directions: transactions and their
#     percentiles; the model's per-call costs are one set (calibrated on
#     UDP sends) and RR's ACKs ride on the data, so UDP_RR and TCP_RR give
#     the same figures, run for run;
#  7. netperf's pv_* costs are the stream path's: a dearer pv_copy_cost
#     (dom0's CPU per ACK it copies into the guest, iperf's ack_cost)
#     lowers a peer=dom0 TCP_STREAM's figure (10232 Mbit/s at the default
#     4.45 us, 6307 at 100 us, credit2, 1 s).
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

# 1. 1 GbE saturates, every scheduler, both ways (null on a host where every
#    vCPU has a pCPU: dom0 8 and the guest 8 of 16, as nic.sh).
cat > "$tmp/eight.xml" <<END
<scenario>
  <host sockets="2" cores-per-socket="4" threads-per-core="2"/>
  <domain name="dom0" vcpus="8"/>
  <domain name="guest" vcpus="8"/>
</scenario>
END
one_gig='netperf:test=TCP_STREAM:size=16384:peer=remote:nic_rate=1G:direction={to-dom0,from-dom0}:warmup=300ms:time=2s'
run_ok --sched=credit1,credit2 --workload="$one_gig" --iterations=1 --format=json > "$tmp/1g.json"
run_ok --sched=null --scenario="$tmp/eight.xml" --workload="$one_gig" --iterations=1 --format=json \
	> "$tmp/1g-null.json"
for f in "$tmp/1g.json" "$tmp/1g-null.json"; do
	json_check "$f" '
goodput = 1e3 * 1448 / 1538
runs = doc["runs"]
assert len(runs) in (2, 4), len(runs)
for r in runs:
    v = r["metric"]["value"]
    print(r["label"], r["workload"], v)
    assert r["metric"]["unit"] == "Mbit/s", r["metric"]
    assert abs(v / goodput - 1) < 0.01, (r["label"], r["workload"], v, goodput)'
done

# 2. The breakdown: stages in order, each adding up, both directions and peers.
run_ok --sched=credit2 \
	--workload='netperf:test=TCP_STREAM:size=16384:peer={dom0,remote}:direction={to-dom0,from-dom0}:warmup=200ms:time=1s' \
	--iterations=1 --format=json > "$tmp/bd.json"
json_check "$tmp/bd.json" '
want = {
    ("dom0", "to-dom0"): ["netperf", "netback", "dealloc", "netserver", "guest-rx", "netfront",
                          "tcp-sender"],
    ("dom0", "from-dom0"): ["netperf", "guest-rx", "netfront", "netserver", "netback",
                            "tcp-sender"],
    ("remote", "to-dom0"): ["netperf", "netback", "nic", "dealloc", "guest-rx", "netfront",
                            "tcp-sender", "link"],
    ("remote", "from-dom0"): ["nic", "guest-rx", "netfront", "netserver", "netback",
                              "tcp-sender", "link"],
}
assert len(doc["runs"]) == 4, len(doc["runs"])
for r in doc["runs"]:
    w, b, v = r["workload"], r["breakdown"], r["metric"]["value"]
    key = (w.split("peer=")[1].split(":")[0], w.split("direction=")[1].split(":")[0])
    names = [st["name"] for st in b["stages"]]
    print(key, round(v), names)
    assert names == want[key], (key, names)
    assert 1000 < v < 20000, (w, v)
    for st in b["stages"]:
        assert sum(st["parts_ns"].values()) == st["tasks"] * (b["to_ns"] - b["from_ns"]), (w, st)
    if key[0] == "remote":
        link = [st for st in b["stages"] if st["name"] == "link"][0]["parts_ns"]
        busy = link["busy"] / (link["busy"] + link.get("idle", 0))
        assert abs(busy * 10e3 * 1448 / 1538 / v - 1) < 0.02, (w, busy, v)'

# 3. The message size, send against receive, axes.
run_ok --sched=credit2 \
	--workload='netperf:test=TCP_STREAM:peer=dom0:size={64,16384}:figure={auto,send}:warmup=200ms:time=1s' \
	--iterations=1 --format=json > "$tmp/size.json"
json_check "$tmp/size.json" '
got = {r["workload"]: r["metric"]["value"] for r in doc["runs"]}
print(got)
small = got["netperf:test=TCP_STREAM:peer=dom0:size=64:figure=auto:warmup=200ms:time=1s"]
big = got["netperf:test=TCP_STREAM:peer=dom0:size=16384:figure=auto:warmup=200ms:time=1s"]
send = got["netperf:test=TCP_STREAM:peer=dom0:size=16384:figure=send:warmup=200ms:time=1s"]
assert 0 < small < big / 4, (small, big)
assert send == big, (send, big)'

# 4. Bad input.
expect_error "netperf: peer: 'moon' is not one of loopback|dom0|remote" \
	--workload=netperf:peer=moon --iterations=1
expect_error "netperf: peer=remote runs TCP_STREAM; UDP_STREAM through dom0's NIC is not modelled" \
	--workload=netperf:peer=remote --iterations=1
expect_error "netperf: peer=remote runs TCP_STREAM, not TCP_RR" \
	--workload=netperf:test=TCP_RR:peer=remote --iterations=1
expect_error "netperf: nic_rate: 'fast' is not a rate" \
	--workload=netperf:test=TCP_STREAM:peer=remote:nic_rate=fast --iterations=1
expect_error "netperf: nic_vcpu=16 but domain dom0 has 16 vCPUs" \
	--workload=netperf:test=TCP_STREAM:peer=remote:nic_vcpu=16 --iterations=1
expect_error "netperf: mtu: '100' is out of range 576..9216" \
	--workload=netperf:test=TCP_STREAM:peer=remote:mtu=100 --iterations=1
expect_error "netperf: server_vcpu=1 but with peer=remote that end is on the remote host" \
	--workload=netperf:test=TCP_STREAM:peer=remote:server_vcpu=1 --iterations=1
expect_error "netperf: client_vcpu=1 but with peer=remote that end is on the remote host" \
	--workload=netperf:test=TCP_STREAM:peer=remote:direction=from-dom0:client_vcpu=1 --iterations=1
expect_error "netperf: server_vcpu=16 but domain dom0 has 16 vCPUs" \
	--workload=netperf:test=TCP_STREAM:peer=dom0:server_vcpu=16 --iterations=1
expect_error "netperf: sndbuf=1024 is below 136320 bytes" \
	--workload=netperf:test=TCP_STREAM:peer=dom0:sndbuf=1024 --iterations=1

# 5. UDP_STREAM over the split driver.
run_ok --sched=credit2 \
	--workload='netperf:test=UDP_STREAM:peer=dom0:size=1024:recv_cost=10us:direction={to-dom0,from-dom0}:figure={auto,send}:warmup=200ms:time=1s' \
	--iterations=1 --format=json > "$tmp/udp.json"
run_ok --sched=credit2 --workload='netperf:test=UDP_STREAM:peer=dom0:size=64:figure={auto,send}:warmup=200ms:time=1s' \
	--iterations=1 --format=json > "$tmp/udp64.json"
json_check "$tmp/udp.json" '
want = {"to-dom0": ["netperf", "netback", "dealloc", "netserver", "guest-rx", "netfront"],
        "from-dom0": ["netperf", "guest-rx", "netfront", "netserver", "netback"]}
got = {}
for r in doc["runs"]:
    w, b = r["workload"], r["breakdown"]
    d = w.split("direction=")[1].split(":")[0]
    names = [st["name"] for st in b["stages"]]
    assert names == want[d], (w, names)
    for st in b["stages"]:
        assert sum(st["parts_ns"].values()) == st["tasks"] * (b["to_ns"] - b["from_ns"]), (w, st)
    got[w] = r["metric"]["value"]
print(got)
for d in ("to-dom0", "from-dom0"):
    k = "netperf:test=UDP_STREAM:peer=dom0:size=1024:recv_cost=10us:direction=%s:figure=%%s:warmup=200ms:time=1s" % d
    recv, send = got[k % "auto"], got[k % "send"]
    assert 0 < recv < 0.6 * send, (d, recv, send)'
json_check "$tmp/udp64.json" '
got = {r["workload"]: r["metric"]["value"] for r in doc["runs"]}
print(got)
recv = got["netperf:test=UDP_STREAM:peer=dom0:size=64:figure=auto:warmup=200ms:time=1s"]
send = got["netperf:test=UDP_STREAM:peer=dom0:size=64:figure=send:warmup=200ms:time=1s"]
# what is in flight at the end: at most the 212992-byte send buffer of 64-byte datagrams
assert 0 < recv <= send and send - recv < 0.01 * send, (recv, send)'
run_ok --sched=credit2 \
	--workload='netperf:test=UDP_STREAM:peer=dom0:direction=from-dom0:size=1024:sndbuf=4MiB:figure={auto,send}:warmup=200ms:time=1s' \
	--iterations=1 --format=json > "$tmp/udpq.json"
json_check "$tmp/udpq.json" '
got = sorted(r["metric"]["value"] for r in doc["runs"])
print(got)
recv, send = got
assert 0 < 1.5 * recv < send, (recv, send)'

# 6. UDP_RR.
run_ok --sched=credit2 \
	--workload='netperf:test={TCP_RR,UDP_RR}:peer={loopback,dom0}:figure={auto,p50,p99}:warmup=100ms:time=500ms' \
	--iterations=1 --format=json > "$tmp/udprr.json"
run_ok --sched=credit2 --workload='netperf:test=UDP_RR:peer=dom0:direction=from-dom0:warmup=100ms:time=500ms' \
	--iterations=1 --format=json > "$tmp/udprr-from.json"
json_check "$tmp/udprr.json" '
got = {r["workload"]: (r["metric"]["value"], r["metric"]["unit"]) for r in doc["runs"]}
print(got)
assert len(got) == 12, len(got)
for w, (v, unit) in got.items():
    assert v > 0, (w, v)
    assert unit == ("trans/s" if "figure=auto" in w else "us"), (w, unit)
    if "UDP_RR" in w:
        assert got[w.replace("UDP_RR", "TCP_RR")][0] == v, (w, v)
for peer in ("loopback", "dom0"):
    p50 = got["netperf:test=UDP_RR:peer=%s:figure=p50:warmup=100ms:time=500ms" % peer][0]
    p99 = got["netperf:test=UDP_RR:peer=%s:figure=p99:warmup=100ms:time=500ms" % peer][0]
    assert p50 <= p99, (peer, p50, p99)'
json_check "$tmp/udprr-from.json" '
r = doc["runs"][0]
names = [st["name"] for st in r["breakdown"]["stages"]]
print(r["metric"]["value"], names)
assert r["metric"]["value"] > 1000, r["metric"]
assert names == ["netperf", "guest-rx", "netfront", "netserver", "netback"], names'
expect_error "netperf: peer=remote runs TCP_STREAM, not UDP_RR" \
	--workload=netperf:test=UDP_RR:peer=remote --iterations=1

# 7. pv_copy_cost acts on the stream path.
run_ok --sched=credit2 \
	--workload='netperf:test=TCP_STREAM:size=16384:peer=dom0:pv_copy_cost={4450ns,100us}:warmup=200ms:time=1s' \
	--iterations=1 --format=json > "$tmp/pvcost.json"
json_check "$tmp/pvcost.json" '
got = {r["workload"].split(":")[4]: r["metric"]["value"] for r in doc["runs"]}
print(got)
cheap, dear = got["pv_copy_cost=4450ns"], got["pv_copy_cost=100us"]
assert 0 < dear < 0.8 * cheap, (cheap, dear)'

finish
