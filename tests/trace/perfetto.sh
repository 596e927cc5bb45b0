#!/bin/sh
# Perfetto traces through the CLI: each configuration is traced whole and
# through a window, and tests/trace/perfetto_check.py validates the file
# against the trace-event schema and against schedsim's own report (every
# vCPU's slices add up to its running time).  A damaged copy of a good
# trace must fail the checker, so that a checker that passes everything
# would be noticed.
set -u

srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
PYTHON=${PYTHON:-python3}
check=$srcdir/tests/trace/perfetto_check.py
command -v "$PYTHON" >/dev/null 2>&1 || { echo "SKIP: $PYTHON not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# trace NAME SCHEDSIM-ARGS... : one traced run, then the check.
trace() {
	name=$1; shift
	if ! "$SCHEDSIM" "$@" --format=json --output="$tmp/$name.report.json" \
	     --trace="$tmp/$name.json"; then
		echo "FAIL: $name: schedsim $*"; fails=$((fails + 1)); return 1
	fi
	return 0
}

for sched in credit2 credit1 null rtds arinc653; do
	"$SCHEDSIM" --list-schedulers | grep -q "^$sched " || continue
	if trace "$sched" --sched="$sched" --scenario="$srcdir/tests/trace/trace.xml"; then
		"$PYTHON" "$check" "$tmp/$sched.json" "$tmp/$sched.report.json" ||
			fails=$((fails + 1))
	fi
	if trace "$sched-window" --sched="$sched" --scenario="$srcdir/tests/trace/trace.xml" \
		--trace-window=1s:1.25s; then
		"$PYTHON" "$check" "$tmp/$sched-window.json" "$tmp/$sched-window.report.json" \
			1000000000 1250000000 || fails=$((fails + 1))
	fi
done
# The benchmark with dom0 load: many vCPUs, split-driver wakes.
if trace iperf --sched=credit2 --workload=iperf --dom0-load=on --duration=1s; then
	"$PYTHON" "$check" "$tmp/iperf.json" "$tmp/iperf.report.json" || fails=$((fails + 1))
fi

# The checker must reject a slice that ends later than the run says.
"$PYTHON" - "$tmp/credit2.json" "$tmp/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
next(e for e in d["traceEvents"] if e["ph"] == "X")["dur"] += 0.001
json.dump(d, open(sys.argv[2], "w"))
PY
if "$PYTHON" "$check" "$tmp/bad.json" "$tmp/credit2.report.json" >/dev/null; then
	echo "FAIL: the checker accepted a slice 1 ns too long"; fails=$((fails + 1))
fi

[ "$fails" = 0 ] && echo "PASS: perfetto traces" || echo "$fails failure(s)"
[ "$fails" = 0 ]
