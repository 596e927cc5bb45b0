#!/bin/sh
# ARINC 653 through the CLI (issue 18): each tests/scenarios/arinc653_*.xml
# runs under both eras with the invariant checker on; the Perfetto trace
# of the run must show every vCPU running only inside its own minor frames
# (tests/scenarios/arinc653_check.py, which must also reject the same
# trace against a shifted schedule), and the report must give the
# never-blocking vCPUs exactly their frames' share.
set -u

srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
PYTHON=${PYTHON:-python3}
dir=$srcdir/tests/scenarios
command -v "$PYTHON" >/dev/null 2>&1 || { echo "SKIP: $PYTHON not found"; exit 77; }
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run SPEC FILE: the run, its JSON report in $tmp/r.json and trace in $tmp/t.json.
run() {
	if ! "$SCHEDSIM" --sched="$1" --scenario="$2" --check --format=json --output="$tmp/r.json" \
	     --trace="$tmp/t.json" --trace-format=perfetto 2>"$tmp/err"; then
		echo "FAIL: $1 $2: $(cat "$tmp/err")"; fails=$((fails + 1)); return 1
	fi
	if [ "$(jq -r '[.runs[].check_error // empty] | length' "$tmp/r.json")" != 0 ]; then
		echo "FAIL: $1 $2: $(jq -r '.runs[].check_error // empty' "$tmp/r.json")"
		fails=$((fails + 1)); return 1
	fi
	if ! "$PYTHON" "$dir/arinc653_check.py" "$tmp/t.json" "$2" 0; then
		echo "FAIL: $1 $2: a vCPU ran outside its minor frames"; fails=$((fails + 1)); return 1
	fi
	return 0
}

# expect DESCRIPTION JQ-BOOLEAN SHOW on the last report.
expect() {
	if [ "$(jq -r "$2" "$tmp/r.json")" = true ]; then
		echo "ok: $1"
	else
		echo "FAIL: $1 (got: $(jq -c "$3" "$tmp/r.json"))"
		fails=$((fails + 1))
	fi
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
	echo "FAIL: arinc653_check.py accepts a trace against a shifted schedule"; fails=$((fails + 1))
else
	echo "ok: arinc653_check.py rejects the trace against shifted frames"
fi

# Hard affinity is not honoured by arinc653: refused with the file's line.
sed 's|<domain name="y" vcpus="1">|<domain name="y" vcpus="1"><affinity hard="1"/>|' \
	"$dir/arinc653_serial.xml" > "$tmp/pinned.xml"
"$SCHEDSIM" --sched=arinc653 --scenario="$tmp/pinned.xml" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
   grep -q "pinned.xml:9: the arinc653 scheduler leaves y vCPU 0 on pCPU 0, outside its hard affinity 1" "$tmp/err"; then
	echo "ok: a hard affinity arinc653 would ignore is refused at its line"
else
	echo "FAIL: pinned under arinc653: exit $rc, $(cat "$tmp/err")"; fails=$((fails + 1))
fi

[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
exit 0
