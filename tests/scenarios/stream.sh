#!/bin/sh
# stream (workloads/stream.c) through the CLI:
#  1. in dom0 of the 2019 host the kernels' best rates keep the real order,
#     copy > triad = add > scale (non-temporal copy, write-allocate scale,
#     add and triad), and each run ends after its NTIMES sweeps;
#  2. beside CPU hogs on every other thread the rate falls (SMT), and beside
#     memory-bound tasks it falls further (the socket's bandwidth);
#  3. bad stream input is one line naming its place, exit 2.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"

cat > "$tmp/dom0.xml" <<END
<scenario seed="3">
  <host sockets="1" cores-per-socket="4" threads-per-core="2" socket-memory-bandwidth="35"/>
  <domain name="dom0" vcpus="8"><workload type="stream"/></domain>
</scenario>
END
# 1. The four kernels.
run_ok --sched=credit2 --scenario="$tmp/dom0.xml" --workload='stream:figure={copy,scale,add,triad}' \
	--iterations=1 --format=json > "$tmp/k.json" || exit 1
json_check "$tmp/k.json" '
got = {s["workload"].split("=")[1]: s["mean"] for s in doc["summary"]}
print({k: round(v) for k, v in got.items()})
assert got["copy"] > got["triad"] > got["scale"], got
assert abs(got["add"] / got["triad"] - 1) < 0.01, got
# the sweeps take well under a second of simulated time: the run ended there
for r in doc["runs"]:
    assert 0 < r["sim_ns"] < 2e9, r["sim_ns"]
    assert r["metric"]["unit"] == "MB/s", r["metric"]'

# 2. Beside hogs, and beside memory-bound tasks.
for load in hog mem; do
	extra='<workload type="cpu-hog" tasks="6"/>'
	[ $load = mem ] && extra='<workload type="cpu-hog" tasks="6" working_set="8MiB" mem_intensity="0.5"/>'
	cat > "$tmp/$load.xml" <<END
<scenario seed="3">
  <host sockets="1" cores-per-socket="4" threads-per-core="2" socket-memory-bandwidth="35"/>
  <domain name="dom0" vcpus="8"/>
  <domain name="bench" vcpus="8"><workload type="stream" figure="triad"/></domain>
  <domain name="noise" vcpus="8">$extra</domain>
</scenario>
END
	run_ok --sched=credit2 --scenario="$tmp/$load.xml" --iterations=1 --format=json > "$tmp/$load.json" || exit 1
done
alone=$(run_ok --sched=credit2 --scenario="$tmp/dom0.xml" --workload=stream:figure=triad --iterations=1 \
	--format=json | jq '.summary[0].mean')
hog=$(jq '.summary[0].mean' "$tmp/hog.json")
mem=$(jq '.summary[0].mean' "$tmp/mem.json")
echo "triad: alone $alone, beside hogs $hog, beside memory-bound tasks $mem"
awk -v a="$alone" -v h="$hog" -v m="$mem" 'BEGIN { exit !(h < a && m < 0.9 * h) }' ||
	fail "triad alone $alone, beside hogs $hog, beside memory-bound tasks $mem"

# 3. Bad input.
expect_error "stream: figure: 'copyy' is not one of copy|scale|add|triad" --workload=stream:figure=copyy
expect_error "stream: threads: '0' is out of range 1..4096" --workload=stream:threads=0
finish
