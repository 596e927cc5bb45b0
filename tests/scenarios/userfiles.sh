#!/bin/sh
# A Xen user's own files through the command line: a domain from an xl
# config runs exactly as the same domain written in XML; the host from
# `xl info -n` in Xen's numbering runs exactly as the <host> attributes of
# that shape; a machine's own numbering (lscpu -p of a two-socket Xeon,
# siblings 8 apart) decides where nodes:N puts a vCPU; --domain replaces
# the embedded scenario's guest (and so becomes the benchmark guest of an
# experiment) or is added after a scenario file's domains; <domain xl=>
# and <host lscpu=> name files relative to the scenario.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
data="${srcdir:-.}/tests/data"

# 1. An xl domain and its XML twin: the same bytes.
cat > "$tmp/db.cfg" <<'CFG'
# a database guest
name = "db"
vcpus = 2; maxvcpus = 4
cpu_weight = 512
cap = 150
memory = 2048
cpus = [ "0",
         "1-3" ]
cpus_soft = "0-1"
disk = [ 'phy:/dev/vg0/db,xvda,w' ]
CFG
cat > "$tmp/xl.xml" <<'XML'
<scenario duration="2s" seed="3">
  <host sockets="1" cores-per-socket="2" threads-per-core="2"/>
  <domain name="dom0" vcpus="4"><workload type="phases"><phase run="300us" sleep="exp:2ms"/></workload></domain>
  <domain xl="db.cfg"><workload type="cpu-hog"/></domain>
</scenario>
XML
cat > "$tmp/twin.xml" <<'XML'
<scenario duration="2s" seed="3">
  <host sockets="1" cores-per-socket="2" threads-per-core="2"/>
  <domain name="dom0" vcpus="4"><workload type="phases"><phase run="300us" sleep="exp:2ms"/></workload></domain>
  <domain name="db" vcpus="2" weight="512" cap="150" memory="2048">
    <affinity soft="0-1"/>
    <vcpu id="0" hard="0"/>
    <vcpu id="1" hard="1-3"/>
    <workload type="cpu-hog"/>
  </domain>
</scenario>
XML
for s in credit1 credit2; do
	run_ok --sched=$s --scenario="$tmp/xl.xml" --format=json --check > "$tmp/xl.json"
	run_ok --sched=$s --scenario="$tmp/twin.xml" --format=json --check > "$tmp/twin.json"
	cmp -s "$tmp/xl.json" "$tmp/twin.json" || fail "$s: the xl domain runs unlike its XML twin"
done
json_check "$tmp/xl.json" '
db = doc["runs"][0]["domains"][1]
assert db["name"] == "db" and db["weight"] == 512 and db["cap"] == 150, db
assert len(db["vcpus"]) == 2, "maxvcpus=4 adds offline vCPUs, which are not simulated"
assert db["vcpus"][0]["pcpus"] == [0], db["vcpus"][0]["pcpus"]
assert set(db["vcpus"][1]["pcpus"]) <= {1, 2, 3}, db["vcpus"][1]["pcpus"]
'
# RTDS's keys: period= (us) and extratime= run as the XML attributes.
printf 'name = "rt"\nvcpus = 2\nperiod = 20000\nextratime = 0\n' > "$tmp/rt.cfg"
sed 's|<domain xl="db.cfg">|<domain xl="rt.cfg" budget="5ms">|' "$tmp/xl.xml" > "$tmp/rtxl.xml"
sed 's|<domain name="db" vcpus="2" weight="512" cap="150" memory="2048">|<domain name="rt" vcpus="2" period="20ms" budget="5ms" extratime="off">|; /<affinity\|<vcpu /d' \
	"$tmp/twin.xml" > "$tmp/rttwin.xml"
run_ok --sched=rtds --scenario="$tmp/rtxl.xml" --format=json > "$tmp/rtxl.json"
run_ok --sched=rtds --scenario="$tmp/rttwin.xml" --format=json > "$tmp/rttwin.json"
cmp -s "$tmp/rtxl.json" "$tmp/rttwin.json" || fail "rtds: the xl domain's period and extratime run unlike its XML twin's"

# The element's attributes override the file's keys (as xl create FILE KEY=VALUE).
sed 's|<domain xl="db.cfg">|<domain xl="db.cfg" name="db2" weight="128">|' "$tmp/xl.xml" > "$tmp/over.xml"
run_ok --sched=credit2 --scenario="$tmp/over.xml" --format=json > "$tmp/over.json"
json_check "$tmp/over.json" '
db = doc["runs"][0]["domains"][1]
assert db["name"] == "db2" and db["weight"] == 128 and db["cap"] == 150, db
'

# 2. xl info -n in Xen's numbering is the regular shape: the same bytes.
cat > "$tmp/regular.xml" <<'XML'
<scenario duration="1s" seed="5">
  <host sockets="2" cores-per-socket="4" threads-per-core="2" nodes="2"/>
  <domain name="dom0" vcpus="16"><workload type="phases"><phase run="200us" sleep="5ms"/></workload></domain>
  <domain name="guest" vcpus="8"><affinity soft="nodes:1"/><workload type="cpu-hog"/></domain>
</scenario>
XML
for s in credit1 credit2 credit2:runqueue=core null; do
	run_ok --sched=$s --scenario="$tmp/regular.xml" --format=json > "$tmp/shape.json"
	run_ok --sched=$s --scenario="$tmp/regular.xml" --format=json \
		--host=xl-info:"$data/host/xeon-2s-4c-2t.xl-info" > "$tmp/map.json"
	cmp -s "$tmp/shape.json" "$tmp/map.json" || fail "$s: xl info -n of the regular shape runs unlike it"
done
# Socket ids are labels (xl info -n gives Xen's cpu_to_socket, which may have
# gaps): the second socket as socket 3 runs the same, hardware model included.
awk '/^cpu_topology/ { t = 1 }
     t && $1 ~ /^[0-9]+:$/ && $3 == 1 { printf "%3s %7s %8s %8s\n", $1, $2, 3, $4; next }
     { print }' "$data/host/xeon-2s-4c-2t.xl-info" > "$tmp/sparse.xl-info"
for s in credit1 credit2; do
	run_ok --sched=$s --scenario="$tmp/regular.xml" --format=json --check --hw=model \
		--host=xl-info:"$data/host/xeon-2s-4c-2t.xl-info" > "$tmp/map.json"
	run_ok --sched=$s --scenario="$tmp/regular.xml" --format=json --check --hw=model \
		--host=xl-info:"$tmp/sparse.xl-info" > "$tmp/sparse.json"
	cmp -s "$tmp/map.json" "$tmp/sparse.json" || fail "$s: socket ids 0 and 3 run unlike 0 and 1"
done

# 3. The machine's own numbering: lscpu -p of the Linux-numbered Xeon puts
# node 1 on CPUs 4-7 and 12-15, so a guest pinned to nodes:1 runs there
# (--check: the hardware model's SMT count finds each core's threads, 4 and 12).
sed 's|<affinity soft="nodes:1"/>|<affinity hard="nodes:1"/>|' "$tmp/regular.xml" > "$tmp/pinned.xml"
run_ok --sched=credit2 --scenario="$tmp/pinned.xml" --format=json --check \
	--host=lscpu:"$data/host/xeon-2s-4c-2t.lscpu" > "$tmp/linux.json"
json_check "$tmp/linux.json" '
g = doc["runs"][0]["domains"][1]
ran = set(p for v in g["vcpus"] for p in v["pcpus"])
assert ran and ran <= {4, 5, 6, 7, 12, 13, 14, 15}, ran
'
# The same through the scenario, the file relative to the scenario's directory.
mkdir "$tmp/machine"
cp "$data/host/xeon-2s-4c-2t.lscpu" "$tmp/machine/host.lscpu"
sed 's|<host [^>]*/>|<host lscpu="host.lscpu"/>|' "$tmp/pinned.xml" > "$tmp/machine/s.xml"
run_ok --sched=credit2 --scenario="$tmp/machine/s.xml" --format=json --check > "$tmp/rel.json"
cmp -s "$tmp/linux.json" "$tmp/rel.json" || fail "<host lscpu=> runs unlike --host=lscpu:"
# With the embedded scenario, dom0 gets one vCPU per pCPU of the given host, as in Xen.
run_ok --sched=credit2 --duration=100ms --format=json \
	--host=lscpu:"$data/host/kvm-2cpu.lscpu" > "$tmp/kvm.json"
json_check "$tmp/kvm.json" '
d0 = doc["runs"][0]["domains"][0]
assert d0["name"] == "dom0" and len(d0["vcpus"]) == 2, len(d0["vcpus"])'
# A CPU map and host settings together: two --host, the settings an axis over the map.
run_ok --sched=credit2 --workload=iperf --dom0-load=off --iterations=1 --duration=1s \
	--format=json --host=lscpu:"$data/host/kvm-2cpu.lscpu" --host='ipi-latency={1us,2us}' \
	> "$tmp/kvm-axis.json"
json_check "$tmp/kvm-axis.json" '
assert sorted(s["host"] for s in doc["summary"]) == ["ipi-latency=1us", "ipi-latency=2us"]
for r in doc["runs"]:
    assert len(r["domains"][0]["vcpus"]) == 2, r["host"]
'
# And through the --check of every scheduler on this build machine's own lscpu -p.
for s in credit1 credit2 null; do
	run_ok --sched=$s --duration=200ms --check --host=lscpu:"$data/host/kvm-2cpu.lscpu" > /dev/null
done

# 4. --domain: with the embedded scenario it replaces the guest, so an
# experiment's benchmark runs in it; after --scenario it is appended.
run_ok --domain="$data/xl/web.cfg" --workload=iperf --dom0-load=off --iterations=1 \
	--format=json > "$tmp/exp.json"
json_check "$tmp/exp.json" '
doms = doc["runs"][0]["domains"]
assert [d["name"] for d in doms] == ["dom0", "web"], [d["name"] for d in doms]
assert doms[1]["metric"] is not None and doms[1]["weight"] == 512 and len(doms[1]["vcpus"]) == 4
'
run_ok --sched=credit2 --scenario="$tmp/regular.xml" --domain="$data/xl/web.cfg" \
	--domain="$tmp/db.cfg" --format=json > "$tmp/added.json"
json_check "$tmp/added.json" '
assert [d["name"] for d in doc["runs"][0]["domains"]] == ["dom0", "guest", "web", "db"]
'
expect_error "a domain named 'web' is already in the scenario" \
	--domain="$data/xl/web.cfg" --domain="$data/xl/web.cfg"

finish
