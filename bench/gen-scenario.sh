#!/bin/sh
# Prints a benchmark scenario: SOCKETS x CORES x THREADS pCPUs (one NUMA
# node per socket), 4 vCPUs per pCPU in 16 domains whose phases workloads
# mix batch, interactive, I/O-like and two-phase tasks, with varied weights
# and a few caps: the same mix at every size, so that wall time per event
# can be compared across host sizes.
# usage: gen-scenario.sh SOCKETS CORES THREADS DURATION [SEED]
set -eu
sockets=$1 cores=$2 threads=$3 duration=$4 seed=${5:-1}
pcpus=$((sockets * cores * threads))
per=$((pcpus * 4 / 16))
echo "<scenario duration=\"$duration\" seed=\"$seed\">"
echo "  <host sockets=\"$sockets\" cores-per-socket=\"$cores\" threads-per-core=\"$threads\" nodes=\"$sockets\"/>"
d=0
while [ $d -lt 16 ]; do
	weight=$(( (d % 4 + 1) * 128 ))
	cap=
	[ $((d % 8)) -eq 7 ] && cap=" cap=\"$((per * 50))\""
	echo "  <domain name=\"d$d\" vcpus=\"$per\" weight=\"$weight\"$cap>"
	case $((d % 4)) in
	0) echo '    <workload type="phases"><phase run="exp:20ms" sleep="exp:2ms"/></workload>' ;;
	1) echo '    <workload type="phases"><phase run="exp:200us" sleep="exp:5ms"/></workload>' ;;
	2) echo '    <workload type="phases"><phase run="uniform:50us:500us" sleep="exp:1ms"/></workload>' ;;
	3) echo '    <workload type="phases"><phase run="5ms" sleep="10ms"/><phase run="lognormal:500us:0.5" sleep="1ms"/></workload>' ;;
	esac
	echo "  </domain>"
	d=$((d + 1))
done
echo "</scenario>"
