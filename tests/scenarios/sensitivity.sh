#!/bin/sh
# contrib/schedsim-sensitivity.py, the sensitivity study of doc/validation.md
# (issue 15), on one axis and two iterations: one table per workload with a
# row per predicted scheduler; its base column is what schedsim itself gives
# for the same cells; an unknown axis is one line and exit 2.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

study="$srcdir/contrib/schedsim-sensitivity.py"
# one iteration in the sanitizer build (lib.sh, sanitized): the same runs,
# and the base column still equals schedsim's own means of as many
it=2
sanitized && it=1
python3 "$study" --schedsim="$SCHEDSIM" --iterations=$it --only=autogroup \
	> "$tmp/table.md" 2> "$tmp/log" || fail "the study exited $?: $(cat "$tmp/log")"
run_ok --sched=credit1:era=2016,credit2:era=2016-p20,credit2:era=2016-full,credit2 \
	--workload=make-xen --dom0-load=on --iterations=$it --format=json > "$tmp/mx.json" || finish
python3 - "$tmp/table.md" "$tmp/mx.json" <<'PY' || fail "the study's tables are wrong"
import json, re, sys
text = open(sys.argv[1]).read()
doc = json.load(open(sys.argv[2]))
tables = re.findall(r"^\| (make-xen|iperf) with dom0 load.*?\n((?:\|.*\n)+)", text, re.M)
assert [t[0] for t in tables] == ["make-xen", "iperf"], text
mean = {s["label"]: s["mean"] for s in doc["summary"]}
for name, body in tables:
    rows = [r for r in body.splitlines() if not r.startswith("|---")]
    assert len(rows) == 3, rows
    for r in rows:
        cells = [c.strip() for c in r.strip("|").split("|")]
        assert cells[0] in ("credit2:era=2016-p20", "credit2:era=2016-full", "credit2"), cells
        assert re.fullmatch(r"[+-]\d+\.\d %", cells[1]), cells
        assert re.fullmatch(r"[+-]\d+\.\d to [+-]\d+\.\d %( \*\*flip\*\*)?", cells[2]), cells
        if name == "make-xen":
            want = (mean[cells[0]] / mean["credit1:era=2016"] - 1) * 100
            assert cells[1] == "%+.1f %%" % want, (cells, want)
print(text)
PY
# another configuration of a benchmark: its own table, with the receive
# path's axis, which the default iperf (the guest sends) does not get
python3 "$study" --schedsim="$SCHEDSIM" --iterations=1 --only=rx-costs,autogroup \
	--workloads=iperf:direction=from-dom0:time=2s > "$tmp/rx.md" 2> "$tmp/log" ||
	fail "the study of from-dom0 exited $?: $(cat "$tmp/log")"
grep -q '^| iperf:direction=from-dom0:time=2s with dom0 load, against credit1:era=2016 | base (1 it.) | netfront_rx_cost, grant_copy_kib (±25 %) | dom0 load autogroup off |$' "$tmp/rx.md" ||
	fail "no from-dom0 table with the receive path's axis: $(cat "$tmp/rx.md")"
python3 "$study" --schedsim="$SCHEDSIM" --iterations=1 --only=rx-costs \
	--workloads=iperf:time=1s > "$tmp/tx.md" 2> "$tmp/log" || fail "the study exited $?: $(cat "$tmp/log")"
grep -q '^| iperf:time=1s with dom0 load' "$tmp/tx.md" && ! grep -q 'netfront_rx_cost' "$tmp/tx.md" ||
	fail "the to-dom0 table has the receive path's axis: $(cat "$tmp/tx.md")"
# the NIC's assumed costs: an axis of a stream to a remote host only
python3 "$study" --schedsim="$SCHEDSIM" --iterations=1 --only=nic-costs \
	--workloads=iperf:peer=remote:nic_rate=1G:warmup=200ms:time=300ms,iperf:time=300ms > "$tmp/nic.md" 2> "$tmp/log" ||
	fail "the study of peer=remote exited $?: $(cat "$tmp/log")"
grep -q '^| iperf:peer=remote:nic_rate=1G:warmup=200ms:time=300ms with dom0 load, against credit1:era=2016 | base (1 it.) | NIC path costs, peer_latency (x0.5, x2) |$' "$tmp/nic.md" ||
	fail "no peer=remote table with the NIC's axis: $(cat "$tmp/nic.md")"
grep -q '^| iperf:time=300ms with dom0 load' "$tmp/nic.md" && ! grep -q '^| iperf:time=300ms with dom0 load.*NIC path' "$tmp/nic.md" ||
	fail "the peer=dom0 table has the NIC's axis: $(cat "$tmp/nic.md")"
# netperf TCP_RR: the split driver's per-packet costs are an axis of
# peer=dom0 only, and its base column is schedsim's own transactions/s
python3 "$study" --schedsim="$SCHEDSIM" --iterations=1 --only=pv-costs,smt \
	--workloads=netperf:test=TCP_RR:peer=dom0:time=300ms,netperf:test=TCP_RR:time=300ms > "$tmp/rr.md" 2> "$tmp/log" ||
	fail "the study of netperf exited $?: $(cat "$tmp/log")"
grep -q "^| netperf:test=TCP_RR:peer=dom0:time=300ms with dom0 load, against credit1:era=2016 | base (1 it.) | netperf's per-packet PV costs (±25 %) | SMT speed of the workload (±25 %) |\$" "$tmp/rr.md" ||
	fail "no netperf peer=dom0 table with the PV costs' axis: $(cat "$tmp/rr.md")"
grep -q '^| netperf:test=TCP_RR:time=300ms with dom0 load, against credit1:era=2016 | base (1 it.) | SMT speed of the workload (±25 %) |$' "$tmp/rr.md" ||
	fail "the loopback netperf table is wrong: $(cat "$tmp/rr.md")"
run_ok --sched=credit1:era=2016,credit2 --workload=netperf:test=TCP_RR:peer=dom0:time=300ms \
	--dom0-load=on --iterations=1 --format=json > "$tmp/rr.json" || finish
python3 - "$tmp/rr.md" "$tmp/rr.json" <<'PY' || fail "the netperf table's base is not schedsim's"
import json, re, sys
text = open(sys.argv[1]).read()
mean = {s["label"]: s["mean"] for s in json.load(open(sys.argv[2]))["summary"]}
row = re.search(r"^\| credit2 \| ([+-]\d+\.\d) % \|", text.split("netperf:test=TCP_RR:time")[0], re.M)
assert row, text
want = (mean["credit2"] / mean["credit1:era=2016"] - 1) * 100
assert row.group(1) == "%+.1f" % want, (row.group(1), want)
PY
python3 "$study" --schedsim="$SCHEDSIM" '--workloads=iperf:direction={a,b}' > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "a spec with an axis: $(cat "$tmp/err")"
python3 "$study" --schedsim="$SCHEDSIM" --only=bogus > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "an unknown axis did not exit 2"
[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "unknown axis 'bogus'" "$tmp/err" ||
	fail "unknown axis: $(cat "$tmp/err")"
finish
