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
#     4.45 us, 6307 at 100 us, credit2, 1 s);
#  8. UDP through dom0's NIC (peer=remote; nic.h's datagram framing):
#     a. over 1 GbE on an idle host UDP_STREAM saturates the link at line
#        rate less each datagram's framing, computed here from RFC 768/791
#        and IEEE 802.3 (UDP 8, IP 20 per fragment, Ethernet 14 + FCS 4 +
#        preamble 8 + gap 12 per frame, ip_fragment's 1480-byte pieces),
#        within 0.5 %, both directions, 1024 and 1472-byte datagrams, under
#        credit1 (both eras), credit2 and null, and 1472 under rtds (1024
#        to the remote host gives 95 % there: netback and the NIC's poll,
#        both on dom0's vCPU 0, need more of it than RTDS's default
#        reservation of 4 ms per 10 ms, beside extratime); a remote sender's
#        figure=send is the same line rate for fragmented datagrams (16 KiB
#        at 1500, 8 KiB in one jumbo frame at 9000);
#     b. the breakdown: the stages in the order a datagram takes them,
#        each adding up to its tasks x the measured interval, and the link's
#        busy share x its goodput for the size giving the figure;
#     c. drops where Linux drops: small datagrams (copied by netback and
#        answered at once) to a 10 Mbit/s link overflow the NIC's qdisc, so
#        the sender's figure is far above the receiver's, which is the
#        link's; 1472-byte ones (grant-mapped, answered when the NIC frees
#        them) hold the sender back instead: sent ~ received; 64-byte
#        datagrams from the remote host at 1 GbE are dropped on the way
#        (the receiver's figure a small share of the sender's line rate);
#     d. UDP_RR with the remote host, both directions: a transaction takes
#        at least the wire both ways and peer_latency; the breakdown adds
#        up; with C-states off (max-cstate=1, so that a longer idle does not
#        deepen the pCPUs' sleep and lengthen each wake-up) 200 us more
#        peer_latency adds 200 us (within 5 %) at 1 Mbit/s, where the wire
#        (84 bytes a way, 672 us) dominates, and 150 to 210 us at 1 GbE,
#        where a longer round trip hides part of the NIC's interrupt
#        throttle (50 us) from the response;
#     e. bad values: what is still refused is one line, exit 2;
#  9. TCP_RR through dom0's NIC (peer=remote; nic.h's NIC_MSG), both
#     directions: a transaction takes at least the wire both ways, each
#     1-byte message a segment of 1 + 32 (TCP with timestamps, RFC 793 and
#     7323) + 20 (IPv4) = 53 bytes plus Ethernet's 38 (computed here), and
#     peer_latency, at 10 Mbit/s and 1 GbE; the breakdown's stages are
#     UDP_RR's, adding up; at 10 Mbit/s a transaction takes at least the
#     extra header bytes' wire time (7 bytes each way, 91 against 84: 11.2
#     us) more than UDP_RR's, at most 3 x that (measured 21.2 us: the
#     longer idle deepens the pCPUs' C-state), and with C-states off
#     (max-cstate=1) that wire time within 5 % (measured 11.19 us);
#     p50 <= p99.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

# 1. 1 GbE saturates, every scheduler, both ways, in Mbit/s (null on a host
#    where every vCPU has a pCPU: lib.sh's one_gig_saturates, as nic.sh).
one_gig_saturates \
	'netperf:test=TCP_STREAM:size=16384:peer=remote:nic_rate=1G:direction={to-dom0,from-dom0}:warmup=300ms:time=2s' \
	1000 Mbit/s

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

# 7. pv_copy_cost acts on the stream path.
run_ok --sched=credit2 \
	--workload='netperf:test=TCP_STREAM:size=16384:peer=dom0:pv_copy_cost={4450ns,100us}:warmup=200ms:time=1s' \
	--iterations=1 --format=json > "$tmp/pvcost.json"
json_check "$tmp/pvcost.json" '
got = {r["workload"].split(":")[4]: r["metric"]["value"] for r in doc["runs"]}
print(got)
cheap, dear = got["pv_copy_cost=4450ns"], got["pv_copy_cost=100us"]
assert 0 < dear < 0.8 * cheap, (cheap, dear)'

# 8. UDP through dom0's NIC.
#    The framing, independently of nic.c: payload over wire bytes per datagram.
wire_py='
def wire(size, mtu=1500):
    per = (mtu - 20) // 8 * 8             # ip_fragment: multiples of 8 bytes
    l = size + 8                          # RFC 768 header
    k = -(-l // per)
    last = max(l - (k - 1) * per + 20, 46)  # RFC 791 header; 802.3 minimum payload
    return (k - 1) * (per + 20 + 38) + last + 38
def goodput(size, rate, mtu=1500):
    return rate * size / wire(size, mtu)
'
# a. 1 GbE saturates, every scheduler, both ways.
udp_gig='netperf:test=UDP_STREAM:peer=remote:nic_rate=1G:size={1024,1472}:direction={to-dom0,from-dom0}:warmup=300ms:time=2s'
run_ok --sched=credit1,credit1:era=2016,credit2 --workload="$udp_gig" --iterations=1 --format=json \
	> "$tmp/udp1g.json"
run_ok --sched=rtds \
	--workload='netperf:test=UDP_STREAM:peer=remote:nic_rate=1G:size=1472:direction={to-dom0,from-dom0}:warmup=300ms:time=2s' \
	--iterations=1 --format=json > "$tmp/udp1g-rtds.json"
run_ok --sched=null --scenario="$tmp/eight.xml" --workload="$udp_gig" --iterations=1 --format=json \
	> "$tmp/udp1g-null.json"
for f in "$tmp/udp1g.json" "$tmp/udp1g-rtds.json" "$tmp/udp1g-null.json"; do
	json_check "$f" "$wire_py"'
runs = doc["runs"]
assert len(runs) in (2, 4, 12), len(runs)
for r in runs:
    w, v = r["workload"], r["metric"]["value"]
    size = int(w.split("size=")[1].split(":")[0])
    want = goodput(size, 1e3)
    print(r["label"], w, v, want)
    assert r["metric"]["unit"] == "Mbit/s", r["metric"]
    assert abs(v / want - 1) < 0.005, (r["label"], w, v, want)
    # b. stages in order, each adding up
    b = r["breakdown"]
    names = [st["name"] for st in b["stages"]]
    if "to-dom0" in w:
        assert names == ["netperf", "netback", "nic", "dealloc", "guest-rx", "netfront", "link"], names
    else:
        assert names == ["nic", "guest-rx", "netfront", "netserver", "netback", "link"], names
    for st in b["stages"]:
        assert sum(st["parts_ns"].values()) == st["tasks"] * (b["to_ns"] - b["from_ns"]), st
    link = [st for st in b["stages"] if st["name"] == "link"][0]["parts_ns"]
    busy = link["busy"] / (link["busy"] + link["idle"])
    assert abs(busy * want / v - 1) < 0.01, (w, busy, v)'
done
run_ok --sched=credit2 \
	--workload='netperf:test=UDP_STREAM:peer=remote:nic_rate=1G:direction=from-dom0:figure=send:mtu={1500,9000}:size={8192,16384}:warmup=300ms:time=2s' \
	--iterations=1 --format=json > "$tmp/udpfrag.json"
json_check "$tmp/udpfrag.json" "$wire_py"'
for r in doc["runs"]:
    w, v = r["workload"], r["metric"]["value"]
    size = int(w.split("size=")[1].split(":")[0])
    mtu = int(w.split("mtu=")[1].split(":")[0])
    want = goodput(size, 1e3, mtu)
    print(w, v, want)
    assert abs(v / want - 1) < 0.002, (w, v, want)'

# c. Drops: the qdisc before a slow link, the path from the remote host.
run_ok --sched=credit2 \
	--workload='netperf:test=UDP_STREAM:peer=remote:nic_rate=10M:size={64,1472}:figure={auto,send}:warmup=300ms:time=2s' \
	--iterations=1 --format=json > "$tmp/udpdrop.json"
run_ok --sched=credit2 \
	--workload='netperf:test=UDP_STREAM:peer=remote:nic_rate=1G:size=64:direction=from-dom0:figure={auto,send}:warmup=300ms:time=1s' \
	--iterations=1 --format=json > "$tmp/udpdrop-rx.json"
json_check "$tmp/udpdrop.json" "$wire_py"'
got = {r["workload"]: r["metric"]["value"] for r in doc["runs"]}
print(got)
k = "netperf:test=UDP_STREAM:peer=remote:nic_rate=10M:size=%d:figure=%s:warmup=300ms:time=2s"
recv, sent = got[k % (64, "auto")], got[k % (64, "send")]
assert abs(recv / goodput(64, 10) - 1) < 0.01, recv
assert sent > 5 * recv, (sent, recv)
recv, sent = got[k % (1472, "auto")], got[k % (1472, "send")]
assert abs(recv / goodput(1472, 10) - 1) < 0.01, recv
assert recv <= sent < 1.03 * recv, (sent, recv)'
json_check "$tmp/udpdrop-rx.json" "$wire_py"'
got = sorted(r["metric"]["value"] for r in doc["runs"])
print(got)
recv, sent = got
assert abs(sent / goodput(64, 1e3) - 1) < 0.002, sent
assert 0 < recv < 0.5 * sent, (recv, sent)'

# What UDP_RR and TCP_RR with the remote host share (d and 9): the
# breakdown's stages in the order a transaction takes them, each adding up
# to its tasks x the measured interval (Python, for json_check) ...
rr_breakdown_py='
def rr_breakdown(w, b):
    names = [st["name"] for st in b["stages"]]
    if "to-dom0" in w:
        assert names == ["netperf", "netback", "nic", "guest-rx", "netfront"], names
    else:
        assert names == ["nic", "guest-rx", "netfront", "netserver", "netback"], names
    for st in b["stages"]:
        assert sum(st["parts_ns"].values()) == st["tasks"] * (b["to_ns"] - b["from_ns"]), st
'
# ... and rr_remote_common TEST: TEST's p50 and p99 (20 us < p50 <= p99),
# and the vCPU placements peer=remote refuses, one line each, exit 2.
rr_remote_common() {
	rr_w="netperf:test=$1:peer=remote:figure={p50,p99}:warmup=100ms:time=500ms"
	rr_f="$tmp/$(echo "$1" | tr -d _ | tr A-Z a-z)-remote-p.json"
	run_ok --sched=credit2 --workload="$rr_w" --iterations=1 --format=json > "$rr_f"
	json_check "$rr_f" "w = '$rr_w'"'
v = {r["workload"]: r["metric"]["value"] for r in doc["runs"]}
print(v)
p50 = v[w.replace("{p50,p99}", "p50")]
p99 = v[w.replace("{p50,p99}", "p99")]
assert 20 < p50 <= p99, (p50, p99)'
	expect_error "netperf: server_vcpu=1 but with peer=remote that end is on the remote host" \
		--workload=netperf:test=$1:peer=remote:server_vcpu=1 --iterations=1
	expect_error "netperf: client_vcpu=0 but with peer=remote that end is on the remote host" \
		--workload=netperf:test=$1:peer=remote:direction=from-dom0:client_vcpu=0 --iterations=1
}

# d. UDP_RR with the remote host.
rr_remote='netperf:test=UDP_RR:peer=remote:nic_rate={1M,1G}:peer_latency={20us,220us}:direction={to-dom0,from-dom0}:warmup=100ms:time=1s'
run_ok --sched=credit2 --workload="$rr_remote" --iterations=1 --format=json > "$tmp/udprr-remote.json"
run_ok --sched=credit2 --host=max-cstate=1 --workload="$rr_remote" --iterations=1 --format=json \
	> "$tmp/udprr-remote-c1.json"
json_check "$tmp/udprr-remote.json" "$wire_py$rr_breakdown_py"'
got = {}
for r in doc["runs"]:
    w, v = r["workload"], r["metric"]["value"]
    assert r["metric"]["unit"] == "trans/s", r["metric"]
    rate = 1e6 if "1M" in w else 1e9
    lat = 20e-6 if "20us" in w else 220e-6
    floor = 2 * wire(1) * 8 / rate + lat  # request and response of 1 byte, and the round trip
    print(w, v, 1 / v, floor)
    assert 1 / v > floor, (w, v, floor)
    got[w] = 1 / v
    rr_breakdown(w, r["breakdown"])
    if "1M" in w and "220us" not in w:
        # the wire, both ways, is most of the transaction
        assert wire(1) * 16 / 1e6 > 0.75 / v, (w, v)'
json_check "$tmp/udprr-remote-c1.json" '
got = {r["workload"]: 1 / r["metric"]["value"] for r in doc["runs"]}
for w, t in got.items():
    if "220us" not in w:
        continue
    more = t - got[w.replace("220us", "20us")]
    print(w, more)
    if "1M" in w:
        assert abs(more / 200e-6 - 1) < 0.05, (w, more)
    else:
        assert 150e-6 < more < 210e-6, (w, more)'
rr_remote_common UDP_RR

# e. What is still refused.
expect_error "netperf: client_vcpu=1 but with peer=remote that end is on the remote host" \
	--workload=netperf:peer=remote:direction=from-dom0:client_vcpu=1 --iterations=1
expect_error "netperf: nic_vcpu=16 but domain dom0 has 16 vCPUs" \
	--workload=netperf:test=UDP_RR:peer=remote:nic_vcpu=16 --iterations=1
expect_error "netperf: nic_rate: '0G' is out of range 1M..400G" \
	--workload=netperf:test=UDP_STREAM:peer=remote:nic_rate=0G --iterations=1

# 9. TCP_RR with the remote host.
tcp_py='
def tcp_wire(size, mtu=1500):
    mss = mtu - 52                        # IPv4 20, TCP 20, timestamps 12
    k = max(1, -(-size // mss))
    last = size - (k - 1) * mss + 52      # 52 >= 46: never padded
    return (k - 1) * (mtu + 38) + last + 38
'
run_ok --sched=credit2 \
	--workload='netperf:test={TCP_RR,UDP_RR}:peer=remote:nic_rate={10M,1G}:direction={to-dom0,from-dom0}:warmup=100ms:time=1s' \
	--iterations=1 --format=json > "$tmp/tcprr-remote.json"
run_ok --sched=credit2 --host=max-cstate=1 \
	--workload='netperf:test={TCP_RR,UDP_RR}:peer=remote:nic_rate=10M:direction={to-dom0,from-dom0}:warmup=100ms:time=1s' \
	--iterations=1 --format=json > "$tmp/tcprr-remote-c1.json"
json_check "$tmp/tcprr-remote.json" "$wire_py$tcp_py$rr_breakdown_py"'
assert tcp_wire(1) == 91 and wire(1) == 84, (tcp_wire(1), wire(1))
got = {}
for r in doc["runs"]:
    w, v = r["workload"], r["metric"]["value"]
    assert r["metric"]["unit"] == "trans/s", r["metric"]
    got[w] = 1 / v
    if "TCP_RR" not in w:
        continue
    rate = 1e7 if "10M" in w else 1e9
    floor = 2 * tcp_wire(1) * 8 / rate + 20e-6
    print(w, v, 1 / v, floor)
    assert 1 / v > floor, (w, v, floor)
    rr_breakdown(w, r["breakdown"])
for w, t in got.items():
    if "TCP_RR" not in w or "10M" not in w:
        continue
    extra = 2 * (tcp_wire(1) - wire(1)) * 8 / 1e7
    more = t - got[w.replace("TCP_RR", "UDP_RR")]
    print(w, "more than UDP_RR:", more, "header bytes:", extra)
    assert extra <= more <= 3 * extra, (w, more, extra)'
json_check "$tmp/tcprr-remote-c1.json" "$wire_py$tcp_py"'
got = {r["workload"]: 1 / r["metric"]["value"] for r in doc["runs"]}
extra = 2 * (tcp_wire(1) - wire(1)) * 8 / 1e7
for w, t in got.items():
    if "TCP_RR" in w:
        more = t - got[w.replace("TCP_RR", "UDP_RR")]
        print(w, "C-states off, more than UDP_RR:", more, "header bytes:", extra)
        assert abs(more / extra - 1) < 0.05, (w, more, extra)'
rr_remote_common TCP_RR

finish
