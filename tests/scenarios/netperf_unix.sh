#!/bin/sh
# netperf's STREAM_STREAM over a Unix-domain stream socket (MMTests'
# netperf-unix; workloads/netperf.c, loopback.h's LO_UNIX) through the CLI:
#  1. in dom0 of the 2019 host, under Credit1 and Credit2, the figure grows
#     with the send size up to 2 KiB and no further (netperf 2.4.5's
#     4608-byte send buffer: the writer sleeps every two skbs of at most
#     2240 bytes, so 8 KiB pays twice the sleeps of 2 KiB for four times the
#     bytes; the real BM-HT has 7952 and 8219 Mbit/s), the reader takes
#     what the writer sent (its figure
#     within 2 % of the writer's, either way: what the buffer held when the
#     interval began or ended; the writer waits on its send buffer, no
#     datagram is dropped), and each run's breakdown has netperf and
#     netserver and adds up to the measured time;
#  2. no network stack: lo's per-packet cost changes nothing (the same
#     figure with packet_cost 450 ns and 20 us), where UDP_STREAM's falls;
#  3. bad input is one line naming its place, exit 2.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

cat > "$tmp/dom0.xml" <<END
<scenario seed="5">
  <host sockets="1" cores-per-socket="4" threads-per-core="2"/>
  <domain name="dom0" vcpus="8"><workload type="netperf" test="STREAM_STREAM" time="500ms"/></domain>
</scenario>
END
# 1. Sizes, the two ends' figures, the breakdown.
for s in credit1 credit2; do
	run_ok --sched=$s --scenario="$tmp/dom0.xml" \
		--workload='netperf:test=STREAM_STREAM:time=500ms:size={64,256,2048,8192}:figure={send,recv}' \
		--iterations=1 --format=json > "$tmp/unix.json" || continue
	json_check "$tmp/unix.json" '
got = {s["workload"]: s["mean"] for s in doc["summary"]}
print("'$s'", {k: round(v) for k, v in got.items()})
w = "netperf:test=STREAM_STREAM:time=500ms:size=%d:figure=%s"
prev = 0
for size in (64, 256, 2048, 8192):
    send, recv = got[w % (size, "send")], got[w % (size, "recv")]
    if size < 8192:
        assert send > prev * 1.5, (size, send, prev)
    else:
        assert 0.8 < send / prev < 1.25, (size, send, prev)
    assert abs(recv / send - 1) < 0.02, (size, recv, send)
    prev = send
for r in doc["runs"]:
    b = r["breakdown"]
    assert [st["name"] for st in b["stages"]] == ["netperf", "netserver"], b["stages"]
    for st in b["stages"]:
        assert sum(st["parts_ns"].values()) == b["to_ns"] - b["from_ns"], st'
done

# 2. No packet through lo for a Unix socket; UDP over lo pays it.
run_ok --sched=credit2 --scenario="$tmp/dom0.xml" \
	--workload='netperf:test={STREAM_STREAM,UDP_STREAM}:time=500ms:size=256:packet_cost={450ns,20us}' \
	--iterations=1 --format=json > "$tmp/packet.json"
json_check "$tmp/packet.json" '
got = {s["workload"]: s["mean"] for s in doc["summary"]}
print(got)
w = "netperf:test=%s:time=500ms:size=256:packet_cost=%s"
assert got[w % ("STREAM_STREAM", "450ns")] == got[w % ("STREAM_STREAM", "20us")], got
assert got[w % ("UDP_STREAM", "20us")] < 0.5 * got[w % ("UDP_STREAM", "450ns")], got'

# 3. Bad input.
expect_error "netperf: test=STREAM_STREAM needs peer=loopback" \
	--workload=netperf:test=STREAM_STREAM:peer=dom0 --iterations=1
expect_error "netperf: sndbuf=4000 is below Linux's least send buffer" \
	--workload=netperf:test=STREAM_STREAM:sndbuf=4000 --iterations=1
finish
