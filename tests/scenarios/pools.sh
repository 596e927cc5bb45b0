#!/bin/sh
# cpupools and sched-gran through the CLI (issue 18): every run is under
# the invariant checker, which under sched-gran=core (socket) refuses two
# domains on the threads of one core (socket); the JSON report is checked
# for what pools and core scheduling must give.
set -u

srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"
dir=$srcdir/tests/scenarios

pcpus_of() { echo "[$(jq_dom "$1") | .vcpus[].pcpus[]] | unique"; }

# Pools: each domain only on its pool's pCPUs, whatever --sched is.
for s in credit2 credit1 null; do
	run_checked "$s" "$dir/pools_split.xml" || continue
	expect "$s: dom0 stays in Pool-0 (0-3)" "$(pcpus_of dom0) | all(. <= 3)" "$(pcpus_of dom0)"
	expect "$s: n stays in p-null (4-5)" "$(pcpus_of n) == [4,5]" "$(pcpus_of n)"
	both='[.runs[0].domains[] | select(.name == "c1" or .name == "c2") | .vcpus[].pcpus[]] | unique'
	expect "$s: c1, c2 stay in p-credit (6-7)" "$both == [6,7]" "$both"
	# null: two vCPUs own the pool's two pCPUs, the third never runs.
	expect "$s: p-null runs n under null (2 vCPUs always, 1 never)" \
		"[.runs[0].domains[] | select(.name == \"n\") | .vcpus[].run_ns] | sort | .[0] == 0 and .[1] > 1990000000" \
		"[.runs[0].domains[] | select(.name == \"n\") | .vcpus[].run_ns]"
	# credit1: four hogs share two pCPUs fairly, within 10 %.
	expect "$s: p-credit shares 6-7 between c1 and c2 under credit1" \
		"[.runs[0].domains[] | select(.name == \"c1\" or .name == \"c2\") | .vcpus[].run_ns] | (min / max) > 0.9" \
		"[.runs[0].domains[] | select(.name == \"c1\" or .name == \"c2\") | .vcpus[].run_ns]"
done

# Faggioli's case: gran=cpu spreads 4 busy vCPUs over 4 cores; gran=core
# packs them into 2 units on 2 cores (pCPU p is in core p/2).
cores='[.runs[0].domains[0].vcpus[].pcpus[] | (. / 2 | floor)] | unique | length'
run_checked credit2 "$dir/gran_csc.xml" &&
expect "credit2 gran=cpu: the 4 busy vCPUs run on 4 cores" "$cores == 4" "$cores"
for s in credit2:gran=core credit1:gran=core; do
	run_checked "$s" "$dir/gran_csc.xml" &&
	expect "$s: the 4 busy vCPUs run on 2 cores, 2 idle" "$cores == 2" "$cores"
done

# Mixed loads: no co-scheduling of domains on a core (the checker), and
# every domain still gets run time -- but null under gran=socket, whose
# two resources (sockets) go to two of the three single-unit domains for
# good, as null gives each unit a resource of its own.
per_dom='[.runs[0].domains[] | [.vcpus[].run_ns] | add]'
run_checked null:gran=socket "$dir/gran_mixed.xml" &&
expect "null:gran=socket: two domains own the two sockets, the third waits" \
	"$per_dom | map(select(. > 0)) | length == 2" "$per_dom"
for s in credit1 credit2 null rtds credit2:era=4.17; do
	for g in core socket; do
		[ "$s:$g" = null:socket ] && continue
		run_checked "$s:gran=$g" "$dir/gran_mixed.xml" &&
		expect "$s:gran=$g: every domain runs, checker clean" \
			"$per_dom | all(. > 0)" "$per_dom"
	done
done

# make-xen beside a noisy neighbour (doc/pools.md), dom0 in a pool of its
# own or not: the build completes under gran=core for every model (the
# guest's timers run on non-master threads, whose scheduler data is their
# resource's).
bt='.runs[0].domains[] | select(.name == "guest") | .metric | select(.name == "build_time") | .value'
for f in pools_makexen pools_makexen_dom0; do
	for s in credit1 credit2 null rtds; do
		run_checked "$s:gran=core" "$dir/$f.xml" &&
		expect "$s:gran=core: $f builds Xen" "[$bt] | length == 1 and .[0] > 40" "[$bt]"
	done
done

# xl's NUMA placement inside a pool: only the pool's nodes are candidates.
nodes_of() { echo "$(jq_dom "$1") | .numa_nodes"; }
run_checked credit2 "$dir/pools_numa.xml" &&
expect "placement: a domain of a node-1 pool gets its memory on node 1" \
	"$(nodes_of a) == [1]" "$(nodes_of a)" &&
expect "placement: a Pool-0 domain still gets node 0" "$(nodes_of b) == [0]" "$(nodes_of b)"

finish
