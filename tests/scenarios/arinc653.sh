#!/bin/sh
# ARINC 653 through the CLI (issue 18): each tests/scenarios/arinc653_*.xml
# runs under both eras with the invariant checker on; the Perfetto trace
# of the run must show every vCPU running only inside its own minor frames
# (tests/scenarios/arinc653_check.py, which must also reject the same
# trace against a shifted schedule), and the report must give the
# never-blocking vCPUs exactly their frames' share.
set -u

srcdir=${srcdir:-.}
PYTHON=${PYTHON:-python3}
dir=$srcdir/tests/scenarios
command -v "$PYTHON" >/dev/null 2>&1 || { echo "SKIP: $PYTHON not found"; exit 77; }
. "$srcdir/tests/scenarios/lib.sh"

# run SPEC FILE: lib.sh's run_checked with a Perfetto trace in $tmp/t.json,
# which must show every vCPU inside its own minor frames.
run() {
	run_checked "$1" "$2" --trace="$tmp/t.json" --trace-format=perfetto || return 1
	if ! "$PYTHON" "$dir/arinc653_check.py" "$tmp/t.json" "$2" 0; then
		fail "$1 $2: a vCPU ran outside its minor frames"
		return 1
	fi
	return 0
}

runs='[.runs[0].domains[] | [.vcpus[].run_ns]]'
for s in arinc653 arinc653:era=4.17; do
	run "$s" "$dir/arinc653_frames.xml" &&
	expect "$s: a runs its 10 ms of every 20 ms, b its 5 ms: exactly 1 s and 0.5 s of 2 s" \
		"$runs | .[1][0] == 1000000000 and .[2][0] == 500000000 and .[0][0] <= 200000000" "$runs"
	run "$s" "$dir/arinc653_serial.xml" &&
	expect "$s: two pCPUs, one schedule: each vCPU exactly 25 %" \
		"$runs == [[500000000, 500000000], [500000000]]" "$runs"
	run "$s" "$dir/arinc653_default.xml" &&
	expect "$s: the default schedule runs dom0's vCPUs 10 ms each and never the guest" \
		"$runs == [[1000000000, 1000000000], [0]]" "$runs"
done

# The checker is not a rubber stamp: the same trace against frames shifted by 1 ms fails.
run arinc653 "$dir/arinc653_frames.xml" &&
if "$PYTHON" "$dir/arinc653_check.py" "$tmp/t.json" "$dir/arinc653_frames.xml" 1000000 >/dev/null; then
	fail "arinc653_check.py accepts a trace against a shifted schedule"
else
	echo "ok: arinc653_check.py rejects the trace against shifted frames"
fi

# Hard affinity is not honoured by arinc653: refused with the file's line.
sed 's|<domain name="y" vcpus="1">|<domain name="y" vcpus="1"><affinity hard="1"/>|' \
	"$dir/arinc653_serial.xml" > "$tmp/pinned.xml"
expect_error "pinned.xml:9: the arinc653 scheduler leaves y vCPU 0 on pCPU 0, outside its hard affinity 1" \
	--sched=arinc653 --scenario="$tmp/pinned.xml" &&
echo "ok: a hard affinity arinc653 would ignore is refused at its line"

finish
