#!/bin/sh
# netperf over lo (workloads/netperf.c, workloads/loopback.h) through the CLI:
#  1. in dom0 of the 2019 host, the UDP_STREAM sender's figure grows with the
#     send size, the receiver's is never above it, under Credit1 and Credit2;
#  2. TCP_STREAM and TCP_RR run through the --workload axis, each run's
#     breakdown has netperf and netserver and adds up to the measured time,
#     and TCP_RR's percentiles are ordered and near 1 / transactions/s;
#  3. bad netperf input is one line naming its place, exit 2;
#  4. TCP_RR from a guest to dom0 (peer=dom0) with a CPU hog pinned on the
#     guest's pCPU: Credit1 before the 2015/2016 fixes holds the guest's
#     wake-ups behind the hog longer than Credit1 of 2016; alone, all equal;
#     the same with a remote host (peer=remote) behind dom0's NIC.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

# 1. The sender's Mbit/s by size, and the receiver's.
for s in credit1 credit2; do
	write_scenario "$tmp/dom0.xml" 5 4 2 \
		'  <domain name="dom0" vcpus="8"><workload type="netperf" time="1s"/></domain>'
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
expect_error "netperf: tcp_call_cost: 'abc' is not a duration" --workload=netperf:tcp_call_cost=abc
expect_error "netperf: tlb_refill: '-5ns': a duration cannot be negative" --workload=netperf:tlb_refill=-5ns
write_scenario "$tmp/bad.xml" "" 4 2 '  <domain name="dom0" vcpus="8">' \
	'    <workload type="netperf" client_vcpu="8"/>' '  </domain>'
expect_error "bad.xml:4: netperf: client_vcpu=8 but domain dom0 has 8 vCPUs" --scenario="$tmp/bad.xml"

# 4. TCP_RR to dom0 behind a pinned CPU hog (tests/scenarios/netperf_rr_dom0.xml).
#    Each transaction's time is the guest vCPU's wait behind the hog.  With
#    Credit1's default ratelimit (1 ms) the hog, rescheduled each time the
#    guest blocks, is not preempted before it has run 1 ms; before 0053127890
#    (Sep 2016, ratelimit_remaining) it gets a whole ratelimit more, not the
#    rest, so each wake waits longer by the time the hog had already run
#    when the wake came, dom0's answer: measured p50 1048 us in
#    era=2015-kick-bug (and 2015: the kick fix changes nothing while the
#    ratelimit holds) against 1014 us in 2016, 955.5 against 987
#    transactions/s; asserted: p50 >= 1.02 x 2016's and transactions/s <=
#    0.98 x.  (dom0 answers in about 34 us: Xen's menu governor keeps its
#    pCPU, idle about 1 ms at a time, out of Nehalem's C6, whose 200 us exit
#    times LATENCY_MULTIPLIER exceeds that average, and in C3, 20 us; without
#    that rule the model woke it from C6 and measured 1231 us against 1014
#    and 814 transactions/s.)  With the ratelimit off
#    (ratelimit_us=0) the kick-away bug itself shows: the BOOSTed hog is not
#    preempted by the guest's BOOSTed wake and the guest waits for the hog's
#    30 ms timeslice (measured p50 30015 us), while with the fix (era=2015,
#    f02a5760c7) and in 2016 the wake preempts the hog at once (45.1 us):
#    asserted > 10 ms against < 100 us.  Without the hog every era gives the
#    same (49.2 us, 20826 transactions/s): asserted within 2 %.
#    On the default host, its breakdown has the path's stages in the order a
#    transaction takes them, each adding up to the measured time, in both
#    directions; a transaction is the same cycle of stages either way (only
#    which end runs netperf changes), so the two figures are within 2 %
#    (measured 14567 and 14570 transactions/s, 300 ms).
run_ok --sched=credit1:era=2016 --workload='netperf:test=TCP_RR:peer=dom0:time=300ms:direction={to-dom0,from-dom0}' \
	--iterations=1 --format=json > "$tmp/rrb.json"
json_check "$tmp/rrb.json" '
order = {"to-dom0": ["netperf", "netback", "netserver", "guest-rx", "netfront"],
         "from-dom0": ["netperf", "guest-rx", "netfront", "netserver", "netback"]}
got = {}
for r in doc["runs"]:
    d = r["workload"].split("direction=")[1]
    b = r["breakdown"]
    got[d] = r["metric"]["value"]
    print(d, got[d], [st["name"] for st in b["stages"]])
    assert [st["name"] for st in b["stages"]] == order[d], b["stages"]
    for st in b["stages"]:
        assert sum(st["parts_ns"].values()) == b["to_ns"] - b["from_ns"], st
assert abs(got["from-dom0"] / got["to-dom0"] - 1) < 0.02, got'
sc="$srcdir/tests/scenarios/netperf_rr_dom0.xml"
sed '/name="hog"/,/<\/domain>/d' "$sc" > "$tmp/rr_alone.xml"
eras=credit1:era=2015-kick-bug,credit1:era=2015,credit1:era=2016
for f in "$sc" "$tmp/rr_alone.xml"; do
	for rl in "" ":ratelimit_us=0"; do
		run_ok --sched="$(echo $eras | sed "s/,/$rl,/g")$rl" --scenario="$f" \
			--workload='netperf:figure={auto,p50}' --iterations=2 --format=json \
			> "$tmp/rr.json" || continue
		json_check "$tmp/rr.json" '
hog = "'"$f"'".endswith("netperf_rr_dom0.xml")
rl0 = "'"$rl"'" != ""
got = {(s["label"].split("era=")[1].split(":")[0], s["workload"].split("figure=")[1]): s
       for s in doc["summary"]}
print("hog" if hog else "alone", "ratelimit_us=0" if rl0 else "",
      {k: round(v["mean"], 1) for k, v in got.items()})
p50 = {e: got[(e, "p50")] for e in ("2015-kick-bug", "2015", "2016")}
tps = {e: got[(e, "auto")] for e in ("2015-kick-bug", "2015", "2016")}
if not hog:
    for e in p50:
        assert p50[e]["max"] < 100, (e, p50[e]["max"])
        assert abs(p50[e]["mean"] / p50["2016"]["mean"] - 1) < 0.02, (e, p50)
        assert abs(tps[e]["mean"] / tps["2016"]["mean"] - 1) < 0.02, (e, tps)
elif not rl0:
    for e in ("2015-kick-bug", "2015"):
        assert p50[e]["min"] >= 1.02 * p50["2016"]["max"], (e, p50)
        assert tps[e]["max"] <= 0.98 * tps["2016"]["min"], (e, tps)
    assert p50["2016"]["min"] >= 900, p50["2016"]
else:
    assert p50["2015-kick-bug"]["min"] > 10000, p50["2015-kick-bug"]
    for e in ("2015", "2016"):
        assert p50[e]["max"] < 100, (e, p50[e])'
	done
done
# The same scenario with the remote host (peer=remote): dom0's vCPU has
# nothing to do while the remote host answers, so the guest's wake-ups find
# pCPU 1 idle, and before f02a5760c7 __runq_tickle then always marks the
# preempted hog to migrate (kick-away), whatever the ratelimit: the guest
# waits the hog's 30 ms timeslice (measured p50 30234 us in 2015-kick-bug,
# with and without the ratelimit), where to dom0 netserver keeps pCPU 1 busy
# and the bug's branch is not taken while the ratelimit holds.  The fixed
# eras give peer=dom0's figures behind the ratelimit (1047 us in 2015, 1014
# in 2016) and, without it, a wake that preempts the hog at once (67.7 us).
for rl in "" ":ratelimit_us=0"; do
	run_ok --sched="$(echo $eras | sed "s/,/$rl,/g")$rl" --scenario="$sc" \
		--workload='netperf:peer=remote:figure={auto,p50}' --iterations=2 --format=json \
		> "$tmp/rr-remote.json" || continue
	json_check "$tmp/rr-remote.json" '
rl0 = "'"$rl"'" != ""
got = {(s["label"].split("era=")[1].split(":")[0], s["workload"].split("figure=")[1]): s
       for s in doc["summary"]}
print("remote", "ratelimit_us=0" if rl0 else "", {k: round(v["mean"], 1) for k, v in got.items()})
p50 = {e: got[(e, "p50")] for e in ("2015-kick-bug", "2015", "2016")}
assert p50["2015-kick-bug"]["min"] > 10000, p50["2015-kick-bug"]
if rl0:
    for e in ("2015", "2016"):
        assert p50[e]["max"] < 100, (e, p50[e])
else:
    assert p50["2015"]["min"] >= 1.02 * p50["2016"]["max"], p50
    assert 900 <= p50["2016"]["min"] <= p50["2016"]["max"] < 1500, p50["2016"]'
done

# 5. Over lo netserver starts where its forked child is placed, drawn per run
# among the domain's vCPUs other than netperf's vCPU 0 (netperf.c
# server_start_vcpu): over 14 runs in dom0 of 8 vCPUs it is never on vCPU 0
# and starts on at least 3 different vCPUs; in a domain of 2 it is vCPU 1.
write_scenario "$tmp/fork.xml" 3 4 2 \
	'  <domain name="dom0" vcpus="8"><workload type="netperf" time="20ms"/></domain>' \
	'  <domain name="two" vcpus="2"/>'
run_ok --sched=credit2 --scenario="$tmp/fork.xml" --iterations=14 --format=json > "$tmp/fork.json"
json_check "$tmp/fork.json" '
where = []
for r in doc["runs"]:
    run = [v["run_ns"] for v in r["domains"][0]["vcpus"]]
    busy = [i for i, ns in enumerate(run) if ns > 0]
    assert busy[0] == 0 and len(busy) == 2, run
    where.append(busy[1])
print("netserver on", where)
assert len(set(where)) >= 3, where'
write_scenario "$tmp/fork2.xml" 3 2 1 \
	'  <domain name="dom0" vcpus="2"><workload type="netperf" time="20ms"/></domain>'
run_ok --sched=credit2 --scenario="$tmp/fork2.xml" --iterations=4 --format=json > "$tmp/fork2.json"
json_check "$tmp/fork2.json" '
for r in doc["runs"]:
    run = [v["run_ns"] for v in r["domains"][0]["vcpus"]]
    assert run[0] > 0 and run[1] > 0, run'

finish
