#!/bin/sh
# Several guests streaming at once, each running netperf (or iperf) with its
# own netfront, netback queue and netback threads, dom0's one physical NIC
# shared (workloads/nic.h's nic_get; doc/workloads.md, "Several guests"):
#  1. two netperf TCP_STREAM guests to a remote host over 1 GbE together get
#     the line rate minus framing (1448 payload bytes per 1538 of wire:
#     941.5 Mbit/s), within 1 %, each about half, in both directions, under
#     credit1, credit2, null and rtds (ARINC 653 runs only the partitions its
#     scenario's schedule names);
#  2. a netperf guest and an iperf guest share the NIC the same way, and so
#     do an iperf guest and a netperf guest in the other order;
#  3. netperf TCP_STREAM to dom0 in 1, 2 and 4 guests scales as the path
#     says: each guest's client bounds its own stream, so two guests carry
#     about twice one; every guest's netback NAPI is an interrupt on dom0's
#     vCPU 0 (each vif's event channel where Linux binds it), so four guests
#     are bounded by that vCPU: the sum stays under 64 KiB per netback_cost
#     (25.2 us x the calibration 0.7915: 26.28 Gbit/s) and vCPU 0 runs all
#     the time, which one guest does not make it do;
#  4. TCP_RR, UDP_RR and UDP_STREAM to dom0 in two guests: each guest its own
#     figure;
#  5. guests whose workloads ask for different NICs are refused with one line;
#  6. a request/response path and a stream share dom0's NIC (each user's
#     frames come back to its own callbacks): TCP_RR or UDP_RR to a remote
#     host in g1 beside a TCP_STREAM in g2 over 1 GbE, both directions: the
#     stream still carries the line rate less framing within 1 %, the RR
#     guest's transactions, queued on the wire behind the stream's segments
#     and under the bulk interrupt throttle, fewer than half of what it
#     does alone (measured 449 against 8323 trans/s to the remote host,
#     1794 from it, credit2), and more than none.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

# guests N VCPUS 'workload element' ['second workload element']: dom0 with 8 vCPUs, N guests
guests() {
	n=$1 v=$2 wl=$3 wl2=${4:-$3}
	{
		echo '<scenario>'
		echo '  <host sockets="2" cores-per-socket="4" threads-per-core="2"/>'
		echo '  <domain name="dom0" vcpus="8"/>'
		i=1
		while [ "$i" -le "$n" ]; do
			w=$wl
			[ "$i" -eq 2 ] && w=$wl2
			echo "  <domain name=\"g$i\" vcpus=\"$v\">$w</domain>"
			i=$((i + 1))
		done
		echo '</scenario>'
	}
}

# Each run's per-guest figures (Mbit/s; iperf's Gbit/s converted) must sum to
# 'want' within 1 %, each within 'share' x want of its fair part.
sums() {
	json_check "$1" '
want, tol = '"$2"', '"$3"'
for r in doc["runs"]:
    got = {}
    for x in r["domains"]:
        m = x.get("metric")
        if m:
            got[x["name"]] = m["value"] * (1000 if m["unit"] == "Gbit/s" else 1)
    print(r["label"], {k: round(v, 2) for k, v in got.items()}, round(sum(got.values()), 2))
    assert len(got) >= 2, got
    assert abs(sum(got.values()) / want - 1) < 0.01, (r["label"], got, want)
    for g, v in got.items():
        assert abs(v / (want / len(got)) - 1) < tol, (r["label"], g, v)'
}

goodput=941.5   # 1e9 x 1448 / 1538 / 1e6

# 1. Two netperf guests to and from a remote host over 1 GbE.
for d in to-dom0 from-dom0; do
	guests 2 4 "<workload type=\"netperf\" test=\"TCP_STREAM\" peer=\"remote\" direction=\"$d\" size=\"16384\" nic_rate=\"1G\" warmup=\"300ms\" time=\"1s\"/>" \
		> "$tmp/remote-$d.xml"
	run_ok --sched=credit1,credit2,null,rtds --scenario="$tmp/remote-$d.xml" --iterations=1 \
		--format=json > "$tmp/remote-$d.json"
	sums "$tmp/remote-$d.json" "$goodput" 0.05
done

# 2. A netperf guest and an iperf guest, in either order, share the NIC.
np='<workload type="netperf" test="TCP_STREAM" peer="remote" size="16384" nic_rate="1G" warmup="300ms" time="1s"/>'
ip='<workload type="iperf" peer="remote" nic_rate="1G" warmup="300ms" time="1s"/>'
guests 2 4 "$np" "$ip" > "$tmp/mixed.xml"
guests 2 4 "$ip" "$np" > "$tmp/mixed2.xml"
for f in mixed mixed2; do
	run_ok --sched=credit1,credit2 --scenario="$tmp/$f.xml" --iterations=1 --format=json \
		> "$tmp/$f.json"
	sums "$tmp/$f.json" "$goodput" 0.05
done

# 3. netperf TCP_STREAM to dom0 in 1, 2 and 4 guests of 2 vCPUs (16 vCPUs on 16 pCPUs).
for n in 1 2 4; do
	guests "$n" 2 '<workload type="netperf" test="TCP_STREAM" peer="dom0" size="16384" warmup="300ms" time="1s"/>' \
		> "$tmp/dom0-$n.xml"
	run_ok --sched=credit1:era=2016,credit2 --scenario="$tmp/dom0-$n.xml" --iterations=1 \
		--format=json > "$tmp/dom0-$n.json"
done
json_check "$tmp/dom0-1.json" '
import json
bound = 65536 * 8 / (25200e-9 * 0.7915) / 1e6
runs = {}
for n in (1, 2, 4):
    for r in json.load(open("'"$tmp"'/dom0-%d.json" % n))["runs"]:
        figs = [x["metric"]["value"] for x in r["domains"] if x.get("metric")]
        v0 = r["domains"][0]["vcpus"][0]
        busy = v0["run_ns"] / r["sim_ns"]
        assert len(figs) == n, (n, figs)
        runs[(r["label"], n)] = (sum(figs), busy)
        print(r["label"], n, "guests", [round(f) for f in figs], "sum", round(sum(figs)),
              "dom0 vCPU 0 busy", round(busy, 3), "bound", round(bound))
for sched in ("credit1:era=2016", "credit2"):
    one, two, four = (runs[(sched, n)] for n in (1, 2, 4))
    # each guest its own client, netfront and netback: two carry about twice one
    assert two[0] > 1.9 * one[0], (sched, one, two)
    assert one[1] < 0.8, (sched, one)
    # four: every netback poll on dom0 vCPU 0, busy all the time, the sum at its bound
    assert four[1] > 0.99, (sched, four)
    assert 0.9 * bound < four[0] < 1.02 * bound, (sched, four, bound)
    assert four[0] < 4 * one[0] * 0.7, (sched, one, four)'

# 4. TCP_RR, UDP_RR and UDP_STREAM to dom0 in two guests: a figure each.
for t in TCP_RR UDP_RR UDP_STREAM; do
	guests 2 2 "<workload type=\"netperf\" test=\"$t\" peer=\"dom0\" size=\"1024\" warmup=\"200ms\" time=\"500ms\"/>" \
		> "$tmp/$t.xml"
	run_ok --sched=credit2 --scenario="$tmp/$t.xml" --iterations=1 --format=json > "$tmp/$t.json"
	json_check "$tmp/$t.json" '
for r in doc["runs"]:
    got = {x["name"]: x["metric"]["value"] for x in r["domains"] if x.get("metric")}
    print("'"$t"'", got)
    assert sorted(got) == ["g1", "g2"], got
    assert min(got.values()) > 0.3 * max(got.values()), got'
done

# 5. One NIC: workloads that ask for different ones are refused.
guests 2 4 "$ip" '<workload type="netperf" test="TCP_STREAM" peer="remote" mtu="9000" nic_rate="1G"/>' \
	> "$tmp/bad.xml"
expect_error "bad.xml:5: netperf: dom0's NIC is g1's, set up with other nic_rate, mtu, nic_itr, nic_vcpu, peer_latency or NIC costs" \
	--scenario="$tmp/bad.xml" --iterations=1
guests 2 4 "$np" '<workload type="iperf" peer="remote" nic_rate="10G"/>' > "$tmp/bad2.xml"
expect_error "bad2.xml:5: iperf: dom0's NIC is g1's, set up with other nic_rate, mtu, nic_itr, nic_vcpu, peer_latency or NIC costs" \
	--scenario="$tmp/bad2.xml" --iterations=1

# 6. An RR path and a stream on one NIC.
rr='<workload type="netperf" test="TEST" peer="remote" direction="DIR" nic_rate="1G" warmup="300ms" time="1s"/>'
st='<workload type="netperf" test="TCP_STREAM" peer="remote" direction="DIR" size="16384" nic_rate="1G" warmup="300ms" time="1s"/>'
for t in TCP_RR UDP_RR; do
	for d in to-dom0 from-dom0; do
		r=$(echo "$rr" | sed "s/TEST/$t/; s/DIR/$d/")
		guests 2 4 "$r" "$(echo "$st" | sed "s/DIR/$d/")" > "$tmp/share.xml"
		guests 1 4 "$r" > "$tmp/alone.xml"
		run_ok --sched=credit2 --scenario="$tmp/share.xml" --iterations=1 --format=json \
			> "$tmp/share.json"
		run_ok --sched=credit2 --scenario="$tmp/alone.xml" --iterations=1 --format=json \
			> "$tmp/alone.json"
		json_check "$tmp/share.json" '
alone = json.load(open("'"$tmp/alone.json"'"))["runs"][0]["metric"]["value"]
r = doc["runs"][0]
got = {x["name"]: x["metric"]["value"] for x in r["domains"] if x.get("metric")}
print("'"$t $d"'", got, "alone", alone)
assert abs(got["g2"] / '"$goodput"' - 1) < 0.01, got
assert 0 < got["g1"] < 0.5 * alone, (got, alone)'
	done
done

finish
